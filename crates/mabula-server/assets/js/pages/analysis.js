// The analysis board (`/analysis?game={id}` or `/analysis?position=...`): step through a game,
// try other moves (kept as a tree of variations), and see what the engine thinks of the shown
// position: its best moves as arrows and a list with values and lines, and the solver's exact
// verdict late in the game. Below the board, the evaluation graph of the game (value for White
// after every move, blunders and mistakes marked); clicking it jumps to that move.
//
// The server does the work (docs/api.md, "Analysis"): `/api/analysis/stream` sends a position's
// analysis as it deepens, `/api/analysis/game` the game's positions one by one and then the notes.
// Both are server-sent events, read here with fetch so that a POST body can be sent.

import { h, s, clear, announce } from '../dom.js';
import { t, percent, number } from '../i18n.js';
import { api, request, seatOf, ApiError } from '../api.js';
import { navigate } from '../nav.js';
import { Board } from '../board.js';
import { tryParse, parsePosition } from '../position.js';
import { errorText } from './errors.js';

const GRAPH_W = 640;
const GRAPH_H = 190;
/** Room round the plot: the chances written on the left, the move numbers below. */
const PAD = 14;
const LEFT = 52;
const BOTTOM = 34;

/** Reads a server-sent event stream from `fetch`, calling `onEvent(name, data)` per event. */
async function readEvents(url, init, onEvent) {
  const res = await fetch(url, { cache: 'no-store', ...init });
  if (!res.ok) {
    let body = {};
    try { body = await res.json(); } catch { /* not JSON */ }
    throw new ApiError(res.status, body.code || 'internal', body.message || res.statusText);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

/** Whether `text` is a position string. */
function isPosition(text) {
  try { parsePosition(text); return true; } catch { return false; }
}

const sideName = (side) => t(side === 'white' || side === 'w' ? 'analysis.white' : 'analysis.black');

/** The verdict in words: "White wins by 2 with best play". */
function verdictText(v) {
  if (!v.winner) return t('analysis.verdict.draw');
  return t('analysis.verdict.wins', { side: sideName(v.winner), n: Math.abs(v.white_margin) });
}

/** A value for the side to move, in words. */
function valueText(value) {
  if (!value.exact) return percent(value.expected);
  if (value.result === 0) return t('analysis.value.draw');
  if (value.margin !== null && value.margin !== undefined) {
    return t(value.result > 0 ? 'analysis.value.winsBy' : 'analysis.value.losesBy', { n: Math.abs(value.margin) });
  }
  return t(value.result > 0 ? 'analysis.value.win' : 'analysis.value.loss');
}

/** A value short enough to stand on the board: "56.8", "+3", "−2", "=". */
function shortValue(value) {
  if (!value.exact) return number(100 * value.expected, 1);
  if (value.result === 0) return '=';
  const margin = value.margin !== null && value.margin !== undefined ? Math.abs(value.margin) : '';
  return `${value.result > 0 ? '+' : '−'}${margin}`;
}

export function mount(main, params = {}) {
  const query = new URLSearchParams(location.search);
  const gameId = query.get('game');
  const startPosition = query.get('position');
  let unmounted = false;
  let nodeSeq = 0;
  let root = null;
  let current = null;
  let scoring = 'largest';
  let record = null;
  let stream = null;
  let flipped = false;
  const graph = { main: { values: [], notes: [], done: false }, other: { values: [], notes: [], done: false, on: false } };
  const controllers = new Set();

  document.title = `${t('analysis.title')} · Mabula`;

  // ---- Skeleton ----------------------------------------------------------------------------
  const board = new Board({ interactive: true, label: 'board.label', onPlay: (move) => playVariation(move) });
  const nav = (label, text, fn) => h('button', { type: 'button', class: 'btn small', 'i18n-aria-label': label, 'i18n-title': label, onclick: fn }, text);
  const where = h('span', { class: 'where' });
  const viewBar = h('div', { class: 'view-bar' },
    nav('game.first', '«', () => goTo(root)),
    nav('game.prev', '◀', () => current.parent && goTo(current.parent)),
    where,
    nav('game.next', '▶', () => current.children[0] && goTo(current.children[0])),
    nav('game.last', '»', () => goTo(lineEnd(current))),
    h('button', { type: 'button', class: 'btn small flip-button', i18n: 'game.flip', onclick: () => { flipped = !flipped; board.setFlipped(flipped); renderBoard(); } }));
  const boardCol = h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, board.svg), viewBar);

  const evalLine = h('p', { class: 'eval-line', role: 'status' });
  const engineState = h('small', { class: 'muted engine-state' });
  const lines = h('ol', { class: 'engine-lines' });
  const linesHead = h('p', { class: 'lines-head muted' });
  const engineCard = h('section', { class: 'card engine-card', 'aria-labelledby': 'engine-title' },
    h('h2', { id: 'engine-title' }, h('span', { i18n: 'analysis.engine' }), engineState),
    evalLine, linesHead, lines);

  const tree = h('div', { class: 'movetree', role: 'tree', 'i18n-aria-label': 'analysis.moves' });
  const treeCard = h('section', { class: 'card tree-card', 'aria-labelledby': 'tree-title' },
    h('h2', { id: 'tree-title', i18n: 'analysis.moves' }), tree);

  const graphSvg = s('svg', { class: 'eval-graph', viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`, role: 'img', tabindex: '0' });
  const graphState = h('small', { class: 'muted graph-state' });
  const otherToggle = h('input', { type: 'checkbox', onchange: () => toggleOther(otherToggle.checked) });
  const otherLabel = h('span');
  const marks = h('ul', { class: 'graph-marks' });
  const counts = h('p', { class: 'graph-counts muted' });
  const graphCard = h('section', { class: 'card graph-card', 'aria-labelledby': 'graph-title' },
    h('h2', { id: 'graph-title' }, h('span', { i18n: 'analysis.graph' }), graphState),
    graphSvg,
    h('label', { class: 'other-mode' }, otherToggle, otherLabel),
    counts, marks);
  graphSvg.addEventListener('click', (e) => graphClick(e));
  graphSvg.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowLeft' && current.parent) { e.preventDefault(); goTo(current.parent); }
    if (e.key === 'ArrowRight' && current.children[0]) { e.preventDefault(); goTo(current.children[0]); }
  });

  const section = h('section', { class: 'analysis', 'aria-labelledby': 'analysis-title' },
    h('h1', { id: 'analysis-title', i18n: 'analysis.title' }),
    boardCol, engineCard, treeCard, graphCard);

  const onKey = (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft' && e.altKey && current.parent) { e.preventDefault(); goTo(current.parent); }
    if (e.key === 'ArrowRight' && e.altKey && current.children[0]) { e.preventDefault(); goTo(current.children[0]); }
  };
  document.addEventListener('keydown', onKey);

  start();

  return {
    unmount() {
      unmounted = true;
      document.removeEventListener('keydown', onKey);
      for (const c of controllers) c.abort();
    },
    onLang() {
      document.title = `${t('analysis.title')} · Mabula`;
      if (root) render();
    },
  };

  // ---- Loading -----------------------------------------------------------------------------
  async function start() {
    if (!gameId && !startPosition) {
      showForm();
      return;
    }
    main.append(section);
    try {
      if (gameId) {
        // The person who had Black sees the board from Black's side, as on the game page.
        const state = await api.state(gameId, seatOf(gameId)?.token || null).catch((err) => {
          if (err instanceof ApiError && err.code === 'token_invalid') return api.state(gameId);
          throw err;
        });
        flipped = (state.you || []).length === 1 && state.you[0] === 'black';
        scoring = state.settings.scoring;
        root = node(null, null, state.start);
        let at = root;
        for (const m of state.moves) at = addChild(at, m, m.position);
        record = await api.record(gameId);
        current = root;
      } else {
        if (!isPosition(startPosition)) throw new ApiError(400, 'bad_request', t('analysis.badPosition'));
        scoring = query.get('scoring') === 'product' ? 'product' : 'largest';
        root = node(null, null, startPosition);
        current = root;
      }
    } catch (err) {
      if (unmounted) return;
      clear(main);
      main.append(h('section', { class: 'notfound' },
        h('h1', { i18n: 'analysis.loadFailed' }),
        h('p', {}, errorText(err)),
        h('a', { class: 'btn primary', href: '/analysis', i18n: 'analysis.open' })));
      return;
    }
    if (unmounted) return;
    graphCard.hidden = !record;
    board.setFlipped(flipped);
    goTo(current);
    if (record) analyseGame('main', scoring);
  }

  function showForm() {
    const input = h('textarea', { id: 'analysis-input', rows: 6, spellcheck: 'false', 'i18n-aria-label': 'analysis.input' });
    const error = h('p', { class: 'error-text', 'aria-live': 'assertive' });
    const form = h('form', { class: 'card analysis-form', onsubmit: async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      error.textContent = '';
      if (!text) return;
      if (isPosition(text)) {
        navigate(`/analysis?position=${encodeURIComponent(text)}`);
        return;
      }
      try {
        const grant = await api.import(text);
        navigate(`/analysis?game=${grant.game_id}`);
      } catch (err) {
        error.textContent = errorText(err);
      }
    } },
    h('h1', { i18n: 'analysis.title' }),
    h('label', { for: 'analysis-input', i18n: 'analysis.input' }),
    input,
    h('button', { type: 'submit', class: 'btn primary', i18n: 'analysis.start' }),
    error);
    main.append(form);
  }

  // ---- The tree ----------------------------------------------------------------------------
  function node(parent, move, position) {
    return { id: ++nodeSeq, parent, move, position, children: [], legal: null, analysis: null, ply: parent ? parent.ply + 1 : 0 };
  }

  function addChild(parent, move, position) {
    const child = node(parent, { notation: move.notation, from: move.from, to: move.to }, position);
    parent.children.push(child);
    return child;
  }

  /** Whether Black moved first: then the first move is `1...` and White's moves start rounds. */
  function blackFirst() {
    return tryParse(root.position)?.toMove === 'b';
  }

  /** The record's number of the move that makes `n`, and who made it (as RULES.md numbers). */
  function moveNumber(n) {
    const q = n.ply - 1 + (blackFirst() ? 1 : 0);
    return { num: Math.floor(q / 2) + 1, white: q % 2 === 0 };
  }

  function lineEnd(n) {
    let at = n;
    while (at.children[0]) at = at.children[0];
    return at;
  }

  /** Whether `n` is on the game's own line (the first child all the way from the start). */
  function onMainLine(n) {
    for (let at = n; at.parent; at = at.parent) if (at.parent.children[0] !== at) return false;
    return true;
  }

  function playVariation(move) {
    const existing = current.children.find((c) => c.move.notation === move.notation);
    const next = existing || addChild(current, move, move.position);
    if (!existing) announce(t('analysis.variationAdded', { move: move.notation }));
    goTo(next);
  }

  async function goTo(n) {
    current = n;
    render();
    analysePosition(n);
    if (!n.legal) {
      try {
        const res = await request('GET', `/api/analysis/moves?position=${encodeURIComponent(n.position)}`);
        n.legal = res.legal_moves;
      } catch {
        n.legal = [];
      }
      if (current === n && !unmounted) renderBoard();
    }
  }

  // ---- Analysis of the shown position --------------------------------------------------------
  function analysePosition(n) {
    if (stream) stream.abort();
    if (n.analysis && n.analysis.done) { renderEngine(); return; }
    const ctrl = new AbortController();
    stream = ctrl;
    controllers.add(ctrl);
    renderEngine();
    const url = `/api/analysis/stream?position=${encodeURIComponent(n.position)}&scoring=${scoring}`;
    readEvents(url, { signal: ctrl.signal }, (name, data) => {
      if (name !== 'analysis') return;
      n.analysis = data;
      if (current === n && !unmounted) { renderEngine(); renderBoard(); }
    }).catch((err) => {
      if (err.name === 'AbortError' || unmounted) return;
      engineState.textContent = errorText(err);
    }).finally(() => controllers.delete(ctrl));
  }

  // ---- The game's graph --------------------------------------------------------------------
  function analyseGame(which, mode) {
    const g = graph[which];
    g.values = [];
    g.notes = [];
    g.done = false;
    g.scoring = mode;
    const ctrl = new AbortController();
    controllers.add(ctrl);
    renderGraph();
    readEvents('/api/analysis/game', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ record, scoring: mode }),
      signal: ctrl.signal,
    }, (name, data) => {
      if (unmounted) return;
      if (name === 'position') {
        g.values[data.index] = data.analysis.white;
        if (which === 'main') {
          const n = mainLineNode(data.index);
          if (n && !(n.analysis && n.analysis.done)) n.analysis = data.analysis;
          if (n === current) { renderEngine(); renderBoard(); }
        }
      } else if (name === 'game') {
        g.values = data.values;
        g.notes = data.notes;
        g.counts = data.counts;
        g.done = true;
        if (which === 'main') renderTree();
      }
      renderGraph();
    }).catch((err) => {
      if (err.name === 'AbortError' || unmounted) return;
      graphState.textContent = errorText(err);
    }).finally(() => controllers.delete(ctrl));
  }

  function toggleOther(on) {
    graph.other.on = on;
    if (on && !graph.other.values.length) analyseGame('other', scoring === 'largest' ? 'product' : 'largest');
    renderGraph();
  }

  function mainLineNode(index) {
    let at = root;
    for (let i = 0; i < index && at; i++) at = at.children[0];
    return at || null;
  }

  function plies() {
    return lineEnd(root).ply;
  }

  function graphX(i) {
    return LEFT + (i * (GRAPH_W - LEFT - PAD)) / Math.max(1, plies());
  }

  function graphY(v) {
    return PAD + (1 - v) * (GRAPH_H - PAD - BOTTOM);
  }

  function graphClick(e) {
    const box = graphSvg.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * GRAPH_W;
    const i = Math.round(((x - LEFT) / (GRAPH_W - LEFT - PAD)) * plies());
    const n = mainLineNode(Math.max(0, Math.min(plies(), i)));
    if (n) goTo(n);
  }

  // ---- Drawing -----------------------------------------------------------------------------
  function render() {
    renderBoard();
    renderEngine();
    renderTree();
    renderGraph();
  }

  function renderBoard() {
    const n = current;
    const a = n.analysis;
    const arrows = [];
    const labels = [];
    if (a && a.moves.length) {
      a.moves.slice(0, 3).forEach((m, i) => {
        const mv = (n.legal || []).find((l) => l.notation === m.move);
        const from = mv ? mv.from : m.move.split('-')[0];
        const to = mv ? mv.to : m.move.split('-')[1];
        if (from && to) {
          arrows.push([from, to, i === 0 ? 'best' : 'alt']);
          // The value sits on the rim beyond the marble that moves, where it hides no marble.
          if (i === 0) labels.push([from, shortValue(m.value)]);
        }
      });
      for (const m of (a.moves[0].pv || []).slice(1, 3)) {
        const [from, to] = m.split('-');
        if (from && to) arrows.push([from, to, 'pv']);
      }
    }
    board.set({
      position: n.position,
      lastMove: n.move,
      moves: n.legal || [],
      annotations: { arrows, labels },
    });
    board.svg.dataset.arrows = String(arrows.length);
    const number = n.ply;
    where.textContent = t('game.where', { k: number, n: onMainLine(n) ? plies() : number });
  }

  function renderEngine() {
    const a = current.analysis;
    clear(lines);
    if (!a) {
      evalLine.textContent = t('analysis.thinking');
      engineState.textContent = '';
      return;
    }
    // Everything here is seen by the side to move: the headline, and the values of its moves.
    const toMove = tryParse(current.position)?.toMove === 'b' ? 'black' : 'white';
    if (a.verdict) {
      evalLine.textContent = verdictText(a.verdict);
      evalLine.className = 'eval-line verdict';
    } else {
      const chances = toMove === 'white' ? a.white : 1 - a.white;
      evalLine.textContent = t('analysis.estimate', { side: sideName(toMove), p: { percent: chances } });
      evalLine.className = 'eval-line';
    }
    linesHead.textContent = a.moves.length ? t('analysis.valuesFor', { side: sideName(toMove) }) : '';
    engineState.textContent = a.done
      ? t('analysis.done', { n: a.playouts, ms: a.elapsed_ms })
      : t('analysis.deepening', { step: a.step });
    for (const m of a.moves) {
      lines.append(h('li', {},
        h('button', { type: 'button', class: 'linkish line-move', onclick: () => {
          const legal = (current.legal || []).find((l) => l.notation === m.move);
          if (legal) playVariation(legal);
        } }, m.move),
        h('span', { class: 'line-value' }, valueText(m.value)),
        h('span', { class: 'line-pv muted' }, m.pv.slice(1, 7).join(' '))));
    }
  }

  function renderTree() {
    clear(tree);
    const notes = graph.main.done ? graph.main.notes : [];
    const noteOf = (n) => (onMainLine(n) && n.ply > 0 ? notes[n.ply - 1] : null);
    const button = (n, opens) => {
      const note = noteOf(n);
      const { num, white } = moveNumber(n);
      const label = t('game.moveLabel', { num, side: sideName(white ? 'white' : 'black'), move: n.move.notation });
      const mark = note && (note.judgement === 'blunder' ? '??' : note.judgement === 'mistake' ? '?' : '');
      return h('button', {
        type: 'button', role: 'treeitem', class: `tree-move${n === current ? ' current' : ''}${note ? ` ${note.judgement}` : ''}`,
        'aria-current': n === current ? 'true' : null, 'aria-label': label + (note && mark ? `, ${t(`analysis.${note.judgement}`)}` : ''),
        dataset: { ply: String(n.ply), main: onMainLine(n) ? '1' : '0' },
        onclick: () => goTo(n),
      }, `${white ? `${num}. ` : opens ? `${num}... ` : ''}${n.move.notation}${mark || ''}`);
    };
    const line = (start, container) => {
      let opening = true;
      for (let at = start; at; at = at.children[0]) {
        container.append(button(at, opening));
        opening = false;
        for (const v of at.parent ? at.parent.children.slice(1).filter(() => at.parent.children[0] === at) : []) {
          const sub = h('div', { class: 'variation', role: 'group' });
          line(v, sub);
          container.append(sub);
          opening = true;
        }
      }
    };
    const startButton = h('button', { type: 'button', class: `tree-move${current === root ? ' current' : ''}`, dataset: { ply: '0', main: '1' }, onclick: () => goTo(root), i18n: 'game.startPosition' });
    tree.append(startButton);
    if (root.children[0]) line(root.children[0], tree);
  }

  function renderGraph() {
    if (!record) return;
    clear(graphSvg);
    clear(marks);
    const n = plies();
    graphSvg.setAttribute('aria-label', t('analysis.graphLabel'));
    graphSvg.append(
      s('rect', { class: 'graph-black', x: LEFT, y: graphY(0.5), width: GRAPH_W - LEFT - PAD, height: graphY(0) - graphY(0.5) }),
      s('line', { class: 'graph-mid', x1: LEFT, x2: GRAPH_W - PAD, y1: graphY(0.5), y2: graphY(0.5) }));
    // The axes: White's chances on the left, the record's move numbers below.
    for (const v of [0, 0.5, 1]) {
      graphSvg.append(s('text', { class: 'graph-axis y', x: LEFT - 6, y: graphY(v) + 5, 'text-anchor': 'end' }, percent(v).replace(/[.,]0(?=\D*$)/, '')));
    }
    const every = Math.max(1, Math.ceil(n / 2 / 8));
    for (let i = 1; i <= n; i++) {
      // A round's number stands under its first move (Black's, when Black began).
      const { num, white } = moveNumber({ ply: i });
      if ((!white && i > 1) || (num - 1) % every !== 0) continue;
      graphSvg.append(s('text', { class: 'graph-axis x', x: graphX(i), y: GRAPH_H - BOTTOM + 20, 'text-anchor': 'middle' }, number(num)));
    }
    graphSvg.append(s('text', { class: 'graph-axis caption', x: GRAPH_W - PAD, y: GRAPH_H - 2, 'text-anchor': 'end' }, t('analysis.axisMoves')));
    graphSvg.dataset.x0 = String(graphX(0) / GRAPH_W);
    graphSvg.dataset.x1 = String(graphX(n) / GRAPH_W);
    if (onMainLine(current)) {
      graphSvg.append(s('line', { class: 'graph-cursor', x1: graphX(current.ply), x2: graphX(current.ply), y1: PAD / 2, y2: GRAPH_H - BOTTOM + PAD / 2 }));
    }
    const poly = (g, cls) => {
      const pts = [];
      for (let i = 0; i <= n; i++) if (typeof g.values[i] === 'number') pts.push(`${graphX(i).toFixed(1)},${graphY(g.values[i]).toFixed(1)}`);
      if (pts.length) graphSvg.append(s('polyline', { class: cls, points: pts.join(' ') }));
    };
    if (graph.other.on) poly(graph.other, 'graph-line other');
    poly(graph.main, 'graph-line');
    for (const note of graph.main.notes) {
      if (note.judgement !== 'blunder' && note.judgement !== 'mistake') continue;
      const i = note.index + 1;
      const v = graph.main.values[i];
      if (typeof v !== 'number') continue;
      graphSvg.append(s('circle', { class: `graph-mark ${note.judgement}`, cx: graphX(i), cy: graphY(v), r: note.judgement === 'blunder' ? 6 : 4.5 }));
      const label = t('game.moveLabel', { num: moveNumber(mainLineNode(i) || { ply: i }).num, side: sideName(note.mover), move: note.move });
      marks.append(h('li', {}, h('button', { type: 'button', class: `linkish mark-${note.judgement}`, onclick: () => goTo(mainLineNode(i)) },
        `${label}: ${t(`analysis.${note.judgement}`)} (−${Math.round(100 * note.loss)}%)`)));
    }
    const known = graph.main.values.filter((v) => typeof v === 'number').length;
    graphState.textContent = graph.main.done ? '' : t('analysis.graphProgress', { k: known, n: n + 1 });
    const other = scoring === 'largest' ? 'product' : 'largest';
    otherLabel.textContent = t('analysis.otherMode', { mode: t(`scoring.${other}.short`) });
    const c = graph.main.counts;
    counts.textContent = c ? t('analysis.counts', {
      wb: c.white.blunders, wm: c.white.mistakes, bb: c.black.blunders, bm: c.black.mistakes,
    }) : '';
    graphSvg.dataset.points = String(known);
  }
}
