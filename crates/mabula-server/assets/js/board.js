// The board: an SVG drawing of the wooden original (a 6x6 field of dimples, four trays of six edge
// spaces, empty corners, glass marbles), and the way to play on it with a pointer or the keyboard.
//
// The board never computes a push: it is given the legal moves of the person at the board, each
// with its `slides` and the `position` after it, and it shows those.

import { s, reducedMotion } from './dom.js';
import { t } from './i18n.js';
import { FILES, SQUARES, coords, sq, isCorner, tryParse, distance } from './position.js';

const CELL = 100;
const MARGIN = 50;
const VIEW = 8 * CELL + 2 * MARGIN;
/** Milliseconds a marble takes to roll one square. */
const STEP_MS = 85;

/** @typedef {import('pages-types').BoardMove} BoardMove */

export class Board {
  /**
   * @param {object} opts
   * @param {boolean} [opts.interactive] squares are focusable and clickable
   * @param {boolean} [opts.labels] file and rank letters around the board
   * @param {boolean} [opts.plain] no wood grain (small thumbnails)
   * @param {string} [opts.label] translation key of the board's accessible name
   * @param {(move: BoardMove) => void} [opts.onPlay] a move was chosen
   * @param {(move: BoardMove | null) => void} [opts.onPreview] a move is previewed (or null: no longer)
   * @param {(square: string | null, moves: BoardMove[]) => void} [opts.onSelect] a marble was selected (or none)
   */
  constructor(opts = {}) {
    this.opts = { interactive: false, labels: true, plain: false, label: 'board.label', ...opts };
    /** @type {import('pages-types').BoardMap} */
    this.board = new Map();
    /** @type {'w' | 'b'} */
    this.toMove = 'w';
    this.flipped = false;
    /** @type {import('pages-types').LastMove | null} */
    this.lastMove = null;
    /** @type {import('pages-types').Groups | null} */
    this.groups = null;
    this.showGroups = false;
    /** @type {BoardMove[] | null} */
    this.moves = null;
    this.premoving = false;
    /** @type {string | null} */
    this.selected = null;
    /** @type {BoardMove | null} */
    this.preview = null;
    this.previewPinned = false;
    /** @type {import('pages-types').Annotations | null} */
    this.annotations = null;
    /** @type {Map<string, SVGGElement>} */
    this.marbleEls = new Map();
    /** @type {Map<string, SVGGElement>} */
    this.hitEls = new Map();
    this.pointerType = 'mouse';
    this.pointerAt = -1e9;
    /** @type {string | null} */
    this.hovered = null;
    this.rovingSquare = 'd4';
    this.busy = false;

    this.svg = s('svg', {
      class: `board${this.opts.interactive ? ' interactive' : ''}`,
      viewBox: `0 0 ${VIEW} ${VIEW}`,
      role: this.opts.interactive ? 'group' : 'img',
      'aria-label': t(this.opts.label),
    });
    /** @type {Record<string, SVGGElement>} */
    this.layers = {};
    for (const name of ['wood', 'marks', 'groups', 'marbles', 'preview', 'overlay', 'hits']) {
      this.layers[name] = s('g', { class: `layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    this.layers.overlay.setAttribute('aria-hidden', 'true');
    this.layers.marbles.setAttribute('aria-hidden', 'true');
    this.layers.preview.setAttribute('aria-hidden', 'true');
    this.buildWood();
    if (this.opts.interactive) this.bindEvents();
  }

  /** The square's centre in board units. */
  /** @param {string} name @returns {[number, number]} */
  center(name) {
    const [f, r] = coords(name);
    const col = this.flipped ? 7 - f : f;
    const row = this.flipped ? r : 7 - r;
    return [MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2];
  }

  // ------------------------------------------------------------------------------------------
  // The static drawing.

  buildWood() {
    const g = this.layers.wood;
    g.replaceChildren();
    g.setAttribute('aria-hidden', 'true');
    g.append(
      s('rect', { class: 'wood', x: 0, y: 0, width: VIEW, height: VIEW, rx: 44, fill: 'url(#mb-wood)' }),
    );
    if (!this.opts.plain) {
      g.append(s('rect', { x: 0, y: 0, width: VIEW, height: VIEW, rx: 44, fill: '#000', filter: 'url(#mb-grain)', opacity: 0.5 }));
    }
    g.append(
      s('rect', { x: 6, y: 6, width: VIEW - 12, height: VIEW - 12, rx: 40, fill: 'none', stroke: 'url(#mb-bevel)', 'stroke-width': 8 }),
      // The field: a shallow recess.
      s('rect', { class: 'field', x: 146, y: 146, width: 608, height: 608, rx: 22, fill: 'url(#mb-field)' }),
      s('rect', { x: 146, y: 146, width: 608, height: 608, rx: 22, fill: 'none', stroke: 'rgba(60,30,10,.45)', 'stroke-width': 4 }),
      s('rect', { x: 150, y: 152, width: 600, height: 600, rx: 20, fill: 'none', stroke: 'rgba(255,240,210,.22)', 'stroke-width': 2 }),
    );
    // The four trays of edge spaces.
    const trays = [
      [154, 758, 592, 84], [154, 58, 592, 84], [58, 154, 84, 592], [758, 154, 84, 592],
    ];
    for (const [x, y, w, hgt] of trays) {
      g.append(
        s('rect', { x, y, width: w, height: hgt, rx: 42, fill: 'url(#mb-tray)' }),
        s('rect', { x, y, width: w, height: hgt, rx: 42, fill: 'none', stroke: 'rgba(60,30,10,.5)', 'stroke-width': 3 }),
      );
    }
    // Corners: a small inlay, so nobody takes them for spaces.
    for (const [x, y] of [[100, 100], [800, 100], [100, 800], [800, 800]]) {
      g.append(s('circle', { cx: x, cy: y, r: 9, fill: 'rgba(70,38,14,.35)' }));
    }
    for (const name of SQUARES) {
      const [x, y] = this.center(name);
      g.append(
        s('circle', { cx: x, cy: y, r: 31, fill: 'url(#mb-dimple)' }),
        s('circle', { cx: x, cy: y, r: 31, fill: 'none', stroke: 'rgba(50,25,8,.35)', 'stroke-width': 2 }),
      );
    }
    if (this.opts.labels) {
      for (let i = 0; i < 8; i++) {
        const file = FILES[this.flipped ? 7 - i : i];
        const rank = this.flipped ? i + 1 : 8 - i;
        const c = MARGIN + i * CELL + CELL / 2;
        g.append(
          s('text', { class: 'coord', x: c, y: VIEW - 14, 'text-anchor': 'middle' }, file),
          s('text', { class: 'coord', x: 22, y: c + 9, 'text-anchor': 'middle' }, String(rank)),
        );
      }
    }
    if (this.opts.interactive) this.buildHits();
  }

  buildHits() {
    const g = this.layers.hits;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.square;
    g.replaceChildren();
    this.hitEls.clear();
    for (const name of SQUARES) {
      const [x, y] = this.center(name);
      const hit = s('g', {
        class: 'sq',
        role: 'button',
        tabindex: -1,
        dataset: { square: name },
      },
      s('rect', { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, fill: 'transparent' }),
      s('circle', { class: 'focus-ring', cx: x, cy: y, r: 47 }));
      hit.addEventListener('focus', (e) => this.onSquareFocus?.(e));
      hit.addEventListener('blur', () => this.onSquareBlur?.());
      this.hitEls.set(name, hit);
      g.append(hit);
    }
    this.setRoving(focused || this.rovingSquare, false);
  }

  // ------------------------------------------------------------------------------------------
  // State.

  /**
   * Sets what is shown. Any field left out keeps its value.
   * position: position string; lastMove: move object; groups: {white, black}; showGroups: bool;
   * moves: legal moves the person at the board may play now (null: not their turn).
   * premove: the moves are premoves, chosen on the opponent's turn (drawn apart from real moves).
   */
  set(/** @type {import('pages-types').BoardState} */ next) {
    if ('position' in next) {
      const parsed = tryParse(next.position ?? '');
      this.board = parsed.board;
      this.toMove = parsed.toMove;
    }
    if ('lastMove' in next) this.lastMove = next.lastMove ?? null;
    if ('groups' in next) this.groups = next.groups ?? null;
    if ('showGroups' in next) this.showGroups = Boolean(next.showGroups);
    if ('annotations' in next) this.annotations = next.annotations ?? null;
    if ('premove' in next) this.premoving = Boolean(next.premove);
    if ('moves' in next) {
      this.moves = next.moves && next.moves.length ? next.moves : null;
      if (this.selected && !this.movesFrom(this.selected).length) this.selected = null;
      const preview = this.preview;
      if (preview && !(this.moves || []).some((m) => m.notation === preview.notation)) {
        this.setPreview(null);
      }
    }
    this.render();
  }

  setFlipped(/** @type {boolean} */ flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.buildWood();
    this.render();
  }

  /** @param {string | null} square */
  movesFrom(square) {
    return (this.moves || []).filter((m) => m.from === square);
  }

  selectable(/** @type {string} */ square) {
    return !this.busy && this.movesFrom(square).length > 0;
  }

  stopMove(/** @type {string} */ square) {
    if (!this.selected) return null;
    return this.movesFrom(this.selected).find((m) => m.to === square) || null;
  }

  // ------------------------------------------------------------------------------------------
  // Drawing the changing parts.

  render() {
    this.renderMarks();
    this.renderGroups();
    this.renderMarbles();
    this.renderPreview();
    this.renderOverlay();
    if (this.opts.interactive) this.labelSquares();
  }

  renderMarks() {
    const g = this.layers.marks;
    g.replaceChildren();
    const last = this.lastMove;
    if (last && last.from && last.to) {
      const [x1, y1] = this.center(last.from);
      const [x2, y2] = this.center(last.to);
      g.append(
        s('line', { class: 'last-track', x1, y1, x2, y2 }),
        s('circle', { class: 'last-from', cx: x1, cy: y1, r: 22 }),
        s('circle', { class: 'last-to', cx: x2, cy: y2, r: 45 }),
      );
    }
    if (this.moves && !this.busy) {
      const froms = new Set(this.moves.flatMap((m) => (m.from ? [m.from] : [])));
      for (const from of froms) {
        const [x, y] = this.center(from);
        const kind = this.premoving ? 'can-premove' : 'can-move';
        g.append(s('circle', { class: `${kind}${from === this.selected ? ' selected' : ''}`, cx: x, cy: y, r: 45 }));
      }
    }
    const selected = this.selected;
    if (selected) {
      const stops = this.movesFrom(selected).flatMap((m) => (m.to ? [m.to] : []));
      const far = stops.reduce((a, to) => (distance(selected, to) > distance(selected, a) ? to : a), stops[0]);
      if (far) {
        const [x1, y1] = this.center(selected);
        const [x2, y2] = this.center(far);
        g.append(s('line', { class: 'stop-track', x1, y1, x2, y2 }));
      }
    }
  }

  renderGroups() {
    const g = this.layers.groups;
    g.replaceChildren();
    if (!this.showGroups || !this.groups) return;
    for (const colour of /** @type {const} */ (['white', 'black'])) {
      const blob = s('g', { class: `group-blob ${colour}` });
      for (const group of this.groups[colour] || []) {
        if (group.length < 2) continue;
        const set = new Set(group);
        for (const name of group) {
          const [x, y] = this.center(name);
          blob.append(s('circle', { cx: x, cy: y, r: 47 }));
          const [f, r] = coords(name);
          for (const next of [sq(f + 1, r), sq(f, r + 1)]) {
            if (set.has(next)) {
              const [x2, y2] = this.center(next);
              blob.append(s('line', { x1: x, y1: y, x2, y2 }));
            }
          }
        }
      }
      g.append(blob);
    }
  }

  renderMarbles() {
    const g = this.layers.marbles;
    g.replaceChildren();
    this.marbleEls.clear();
    for (const [name, colour] of this.board) {
      const el = marble(colour);
      const [x, y] = this.center(name);
      el.style.transform = `translate(${x}px, ${y}px)`;
      el.dataset.square = name;
      if (this.preview && this.preview.slides.some(([from]) => from === name)) el.classList.add('leaving');
      g.append(el);
      this.marbleEls.set(name, el);
    }
  }

  renderPreview() {
    const g = this.layers.preview;
    g.replaceChildren();
    if (this.selected && !this.busy) {
      for (const m of this.movesFrom(this.selected)) {
        if (!m.to) continue;
        const [x, y] = this.center(m.to);
        // Squares where the preview puts a marble show the ghost marble instead of a dot.
        if (this.preview && this.preview.slides.some(([, to]) => to === m.to)) continue;
        g.append(s('circle', { class: 'stop', cx: x, cy: y, r: 15 }));
      }
    }
    const move = this.preview;
    if (!move) return;
    for (const [from, to] of move.slides) {
      const colour = this.board.get(from);
      const [x1, y1] = this.center(from);
      const [x2, y2] = this.center(to);
      const ghost = marble(colour);
      ghost.classList.add('ghost');
      ghost.style.transform = `translate(${x2}px, ${y2}px)`;
      g.append(ghost, s('circle', { class: 'ghost-ring', cx: x2, cy: y2, r: 44 }));
      const len = Math.hypot(x2 - x1, y2 - y1);
      if (len > 1) {
        const ux = (x2 - x1) / len;
        const uy = (y2 - y1) / len;
        g.append(s('line', {
          class: 'slide-arrow',
          x1: x1 + ux * 20, y1: y1 + uy * 20, x2: x2 - ux * 30, y2: y2 - uy * 30,
          'marker-end': 'url(#mb-arrow)',
        }));
      }
    }
  }

  renderOverlay() {
    const g = this.layers.overlay;
    g.replaceChildren();
    if (this.showGroups && this.groups) {
      for (const colour of /** @type {const} */ (['white', 'black'])) {
        for (const group of this.groups[colour] || []) {
          if (group.length < 2) continue;
          // The badge sits on the group's top-right marble.
          const top = [...group].sort((a, b) => {
            const [ax, ay] = this.center(a);
            const [bx, by] = this.center(b);
            return ay - by || bx - ax;
          })[0];
          const [x, y] = this.center(top);
          g.append(
            s('circle', { class: `group-badge ${colour}`, cx: x + 30, cy: y - 30, r: 19 }),
            s('text', { class: `group-size ${colour}`, x: x + 30, y: y - 22.5, 'text-anchor': 'middle' }, String(group.length)),
          );
        }
      }
    }
    const a = this.annotations;
    if (!a) return;
    for (const name of a.rings || []) {
      const [x, y] = this.center(name);
      g.append(s('circle', { class: 'note-ring', cx: x, cy: y, r: 46 }));
    }
    for (const name of a.crosses || []) {
      const [x, y] = this.center(name);
      g.append(s('path', { class: 'note-cross', d: `M${x - 18} ${y - 18}L${x + 18} ${y + 18}M${x + 18} ${y - 18}L${x - 18} ${y + 18}` }));
    }
    for (const [from, to, kind] of a.arrows || []) {
      const [x1, y1] = this.center(from);
      const [x2, y2] = this.center(to);
      const len = Math.hypot(x2 - x1, y2 - y1);
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      g.append(s('line', {
        class: `note-arrow${kind ? ` ${kind}` : ''}`, x1: x1 + ux * 10, y1: y1 + uy * 10, x2: x2 - ux * 26, y2: y2 - uy * 26,
        'marker-end': 'url(#mb-arrow-note)',
      }));
    }
    for (const [name, text] of a.labels || []) {
      const [x, y] = this.center(name);
      const [f, r] = coords(name);
      if (f === 0 || f === 7 || r === 0 || r === 7) {
        // An edge space's label goes on the rim outside its tray, where no marble ever is; on
        // the left and right rims it reads along the rim.
        const dx = x - VIEW / 2;
        const dy = y - VIEW / 2;
        const rim = 27;
        const across = Math.abs(dx) > Math.abs(dy);
        const lx = across ? (dx < 0 ? rim : VIEW - rim) : x;
        const ly = across ? y : (dy < 0 ? rim : VIEW - rim);
        const w = 16 * String(text).length + 14;
        const turn = across ? `rotate(${dx < 0 ? -90 : 90} ${lx} ${ly})` : null;
        g.append(s('g', { class: 'note-pill', transform: turn },
          s('rect', { x: lx - w / 2, y: ly - 19, width: w, height: 38, rx: 19 }),
          s('text', { class: 'note-label rim', x: lx, y: ly + 10, 'text-anchor': 'middle' }, text)));
      } else {
        g.append(s('text', { class: 'note-label', x, y: y + 12, 'text-anchor': 'middle' }, text));
      }
    }
  }

  labelSquares() {
    const stops = new Map(this.selected ? this.movesFrom(this.selected).map((m) => [m.to, m]) : []);
    for (const [name, el] of this.hitEls) {
      const colour = this.board.get(name);
      const parts = [t(colour === 'w' ? 'sq.white' : colour === 'b' ? 'sq.black' : 'sq.empty', { sq: name })];
      if (this.selected === name) parts.push(t('sq.selected'));
      else if (this.selectable(name)) parts.push(t('sq.canMove'));
      const stop = stops.get(name);
      if (stop) parts.push(t('sq.stop', { move: stop.notation, n: stop.slides.length - 1 }));
      if (this.lastMove && this.lastMove.to === name) parts.push(t('sq.lastMove', { move: this.lastMove.notation }));
      el.setAttribute('aria-label', parts.join(', '));
      el.classList.toggle('clickable', Boolean(stop) || this.selectable(name));
      if (this.selected === name) el.setAttribute('aria-pressed', 'true');
      else el.removeAttribute('aria-pressed');
    }
  }

  // ------------------------------------------------------------------------------------------
  // Playing.

  bindEvents() {
    const hits = this.layers.hits;
    hits.addEventListener('pointerdown', (e) => {
      this.pointerType = e.pointerType || 'mouse';
      this.pointerAt = performance.now();
    });
    hits.addEventListener('click', (e) => {
      const square = squareOf(e.target);
      if (!square) return;
      this.setRoving(square, false);
      this.activate(square, this.pointerType !== 'mouse');
    });
    hits.addEventListener('pointerover', (e) => {
      const square = squareOf(e.target);
      if (!square || e.pointerType === 'touch') return;
      this.hovered = square;
      this.hover(square);
    });
    hits.addEventListener('pointerleave', () => {
      this.hovered = null;
      if (!this.previewPinned) this.hover(/** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.square);
    });
    // Focus listeners go on the squares (buildHits), not on this layer: in Chromium an SVG
    // element with a focus listener becomes a tab stop of its own.
    this.onSquareFocus = (/** @type {FocusEvent} */ e) => {
      // Focus that follows a press is not keyboard focus: a tap must not preview by itself.
      if (!this.hovered && !(performance.now() - this.pointerAt < 600)) this.hover(squareOf(e.currentTarget));
    };
    this.onSquareBlur = () => {
      if (!this.hovered && !this.previewPinned) setTimeout(() => {
        if (!this.svg.contains(document.activeElement) && !this.hovered) this.hover(null);
      }, 0);
    };
    hits.addEventListener('keydown', (e) => this.onKey(e));
  }

  /** Shows the preview of the stop under the pointer or focus (or nothing). */
  /** @param {string | null | undefined} square */
  hover(square) {
    if (this.previewPinned) return;
    const move = square ? this.stopMove(square) : null;
    this.setPreview(move);
  }

  setPreview(/** @type {BoardMove | null} */ move) {
    if ((this.preview?.notation || null) === (move?.notation || null)) return;
    this.preview = move;
    this.renderMarbles();
    this.renderPreview();
    if (this.opts.onPreview) this.opts.onPreview(move);
  }

  /** A click, tap, Enter or Space on a square. `touch`: the first tap on a stop only previews. */
  activate(/** @type {string} */ square, touch = false) {
    if (this.busy) return;
    const stop = this.stopMove(square);
    if (stop) {
      if (touch && this.preview?.notation !== stop.notation) {
        this.previewPinned = false;
        this.setPreview(stop);
        this.previewPinned = true;
        this.render();
        return;
      }
      this.previewPinned = false;
      this.play(stop);
      return;
    }
    this.previewPinned = false;
    if (this.selectable(square) && this.selected !== square) {
      this.select(square);
    } else {
      this.select(null);
    }
  }

  select(/** @type {string | null} */ square) {
    this.selected = square;
    this.setPreview(null);
    this.render();
    if (this.opts.onSelect) this.opts.onSelect(square, square ? this.movesFrom(square) : []);
  }

  play(/** @type {BoardMove} */ move) {
    this.selected = null;
    this.setPreview(null);
    this.render();
    if (this.opts.onPlay) this.opts.onPlay(move);
  }

  onKey(/** @type {KeyboardEvent} */ e) {
    const cur = squareOf(e.target);
    // Keys with Alt, Ctrl or Meta are the page's (Alt+arrows step through the moves).
    if (!cur || e.altKey || e.ctrlKey || e.metaKey) return;
    /** @type {Record<string, [number, number]>} */
    const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (dirs[e.key]) {
      e.preventDefault();
      const [f, r] = coords(cur);
      let col = this.flipped ? 7 - f : f;
      let row = this.flipped ? r : 7 - r;
      col += dirs[e.key][0];
      row += dirs[e.key][1];
      if (col < 0 || col > 7 || row < 0 || row > 7) return;
      const nf = this.flipped ? 7 - col : col;
      const nr = this.flipped ? row : 7 - row;
      if (isCorner(nf, nr)) return;
      this.setRoving(sq(nf, nr), true);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const wasSelected = this.selected;
      this.activate(cur);
      if (this.selected && this.selected !== wasSelected) {
        // Straight to the nearest stop, so that a few arrow presses choose the distance.
        const first = this.movesFrom(this.selected).sort((a, b) => distance(a.from || '', a.to || '') - distance(b.from || '', b.to || ''))[0];
        if (first?.to) this.setRoving(first.to, true);
      }
    } else if (e.key === 'Escape' && this.selected) {
      e.preventDefault();
      const back = this.selected;
      this.select(null);
      this.setRoving(back, true);
    }
  }

  /** Makes `square` the board's one tab stop, and focuses it when asked. */
  setRoving(/** @type {string} */ square, /** @type {boolean} */ focus) {
    if (!this.hitEls.size) return;
    if (!this.hitEls.has(square)) square = 'd4';
    this.rovingSquare = square;
    for (const [name, el] of this.hitEls) el.setAttribute('tabindex', name === square ? '0' : '-1');
    if (focus) this.hitEls.get(square)?.focus();
  }

  /** Focuses the board (its current square, or the first movable marble). */
  focus() {
    this.setRoving(this.aimSquare(), true);
  }

  /** Makes the board's tab stop its current square, or the first movable marble, without focus. */
  aim() {
    this.setRoving(this.aimSquare(), false);
  }

  aimSquare() {
    const first = this.moves && this.moves.find((m) => m.from)?.from;
    return this.selectable(this.rovingSquare) ? this.rovingSquare : first || this.rovingSquare;
  }

  // ------------------------------------------------------------------------------------------
  // Animation.

  /**
   * Rolls the marbles of `move` from where they are now (the board must show the position before
   * it). Answers when they have arrived; the caller then sets the new position.
   */
  animate(/** @type {BoardMove | null | undefined} */ move) {
    if (!move || !move.slides || !move.slides.length || reducedMotion() || !this.svg.isConnected) {
      return Promise.resolve();
    }
    this.busy = true;
    this.selected = null;
    this.preview = null;
    this.previewPinned = false;
    this.renderMarbles();
    this.renderPreview();
    this.renderMarks();
    const [pFrom, pTo] = move.slides[0];
    const total = distance(pFrom, pTo);
    for (const [from, to] of move.slides) {
      const el = this.marbleEls.get(from);
      if (!el) continue;
      const k = distance(from, to);
      const [x, y] = this.center(to);
      el.style.transition = `transform ${k * STEP_MS}ms linear ${(total - k) * STEP_MS}ms`;
      el.getBoundingClientRect();
      el.style.transform = `translate(${x}px, ${y}px)`;
    }
    return new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve) => {
      setTimeout(() => {
        this.busy = false;
        resolve();
      }, total * STEP_MS + 40);
    });
  }
}

/** The square of the square element at or around `target`, if any. */
function squareOf(/** @type {EventTarget | null} */ target) {
  const el = target instanceof Element ? target.closest('.sq') : null;
  return el instanceof SVGElement ? el.dataset.square || null : null;
}

/** A marble: shadow, glass body, highlight. */
function marble(/** @type {string | undefined} */ colour) {
  const c = colour === 'w' ? 'w' : 'b';
  return s('g', { class: `marble ${c}` },
    s('ellipse', { class: 'shade', cx: 6, cy: 10, rx: 39, ry: 36, fill: 'url(#mb-shadow)' }),
    s('circle', { r: 39, fill: `url(#mb-${c})` }),
    s('circle', { r: 39, fill: `url(#mb-rim-${c})` }),
    s('ellipse', { cx: -13, cy: -16, rx: 14, ry: 9, fill: 'url(#mb-shine)', transform: 'rotate(-38 -13 -16)' }),
  );
}

/**
 * A small static board for lists and diagrams.
 * @param {string} position
 * @param {{ label?: string, groups?: { white: string[][], black: string[][] } | null, lastMove?: { from?: string | null, to?: string | null } | null, plain?: boolean, labels?: boolean }} [options]
 */
export function miniBoard(position, { label = 'board.label', groups = null, lastMove = null, plain = true, labels = false } = {}) {
  const b = new Board({ plain, labels, label });
  b.set({ position, groups, showGroups: Boolean(groups), lastMove });
  return b;
}

