// The analysis board (`/analysis?game={id}` or `/analysis?position=...`): step through a game,
// try other moves (kept as a tree of variations), and see what the engine thinks of the shown
// position: its best moves as arrows and a list with values and lines, and the solver's exact
// verdict late in the game. Below the board, the evaluation graph of the game (value for White
// after every move, blunders and mistakes marked); clicking it jumps to that move.
//
// The server does the work (docs/api.md, "Analysis"): `/api/analysis/stream` sends a position's
// analysis as it deepens, `/api/analysis/game` the game's positions one by one and then the notes.
// Both are server-sent events, read here with fetch so that a POST body can be sent.
//
// Built like the game page: the model and its `update(model, message)` live in
// analysis-model.js. Here every event becomes a message for `dispatch`, which updates the model,
// draws it with `render(model)` and carries out the effects the update asked for.

import { program } from '../program.js';
import { h, s, clear, announce, toast } from '../dom.js';
import { t, percent, number } from '../i18n.js';
import { api, request, seatOf, ApiError, csrfHeader } from '../api.js';
import { navigate } from '../nav.js';
import { Board } from '../board.js';
import { parsePosition } from '../position.js';
import { errorText } from './errors.js';
import {
  init, update, shown, onMainLine, plies, moveNumber, toMove, otherScoring, keyMessage, writeLink, graphCounts,
} from './analysis-model.js';

/**
 * @typedef {import('./analysis-model.js').Model} Model
 * @typedef {import('./analysis-model.js').TreeNode} TreeNode
 * @typedef {import('api-types').Analysis} Analysis
 * @typedef {import('api-types').LegalMove} LegalMove
 * @typedef {import('pages-types').Annotations} Annotations
 * @typedef {import('pages-types').AnalysisMsg} Msg
 * @typedef {import('pages-types').AnalysisEffect} Effect
 * @typedef {import('api-types').ValueView} ValueView
 * @typedef {(name: string, data: unknown) => void} OnEvent
 */

const GRAPH_W = 640;
const GRAPH_H = 190;
/** Room round the plot: the chances written on the left, the move numbers below. */
const PAD = 14;
const LEFT = 52;
const BOTTOM = 34;

/**
 * Reads a server-sent event stream from `fetch`, calling `onEvent(name, data)` per event. A POST
 * carries a logged-in player's CSRF token (issue 52: without it the game's analysis was refused
 * to every logged-in player).
 */
async function readEvents(/** @type {string} */ url, /** @type {RequestInit} */ options, /** @type {OnEvent} */ onEvent) {
  const write = Boolean(options.method && options.method !== 'GET');
  const headers = { .../** @type {Record<string, string>} */ (options.headers || {}), ...(write ? await csrfHeader() : {}) };
  const res = await fetch(url, { cache: 'no-store', ...options, headers });
  if (!res.ok || !res.body) {
    /** @type {{ code?: string, message?: string }} */
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
function isPosition(/** @type {string} */ text) {
  try { parsePosition(text); return true; } catch { return false; }
}

const sideName = (/** @type {string | null | undefined} */ side) => t(side === 'white' || side === 'w' ? 'analysis.white' : 'analysis.black');

/** The verdict in words: "White wins by 2 with best play". */
function verdictText(/** @type {import('api-types').VerdictView} */ v) {
  if (!v.winner) return t('analysis.verdict.draw');
  return t('analysis.verdict.wins', { side: sideName(v.winner), n: Math.abs(v.white_margin) });
}

/** A value for the side to move, in words. */
function valueText(/** @type {ValueView} */ value) {
  if (!value.exact) return percent(value.expected);
  if (value.result === 0) return t('analysis.value.draw');
  if (value.margin !== null && value.margin !== undefined) {
    return t((value.result ?? 0) > 0 ? 'analysis.value.winsBy' : 'analysis.value.losesBy', { n: Math.abs(value.margin) });
  }
  return t((value.result ?? 0) > 0 ? 'analysis.value.win' : 'analysis.value.loss');
}

/** A value short enough to stand on the board: "56.8", "+3", "−2", "=". */
function shortValue(/** @type {ValueView} */ value) {
  if (!value.exact) return number(100 * value.expected, 1);
  if (value.result === 0) return '=';
  const margin = value.margin !== null && value.margin !== undefined ? Math.abs(value.margin) : '';
  return `${(value.result ?? 0) > 0 ? '+' : '−'}${margin}`;
}

export function mount(/** @type {HTMLElement} */ main) {
  const query = new URLSearchParams(location.search);
  const gameId = query.get('game');
  const startPosition = query.get('position');
  const page = program(init(), update, render, run);
  const dispatch = page.dispatch;
  /** The stream of the shown position's analysis (one at a time), and every stream open. */
  /** @type {AbortController | null} */
  let stream = null;
  /** @type {Set<AbortController>} */
  const controllers = new Set();
  /**
   * What each part of the page was last drawn from (see `part`).
   * @type {Record<string, unknown[]>}
   */
  let drawn = {};


  document.title = `${t('analysis.title')} · Mabula`;

  // ---- Skeleton ----------------------------------------------------------------------------
  const board = new Board({ interactive: true, label: 'board.label', onPlay: (move) => dispatch({ type: 'play', move: /** @type {LegalMove} */ (move) }) });
  /**
   * A button that steps through the tree.
   * @param {string} label
   * @param {string} text
   * @param {'first' | 'prev' | 'next' | 'last'} type
   */
  const nav = (label, text, type) => h('button', { type: 'button', class: 'btn small', 'i18n-aria-label': label, 'i18n-title': label, onclick: () => dispatch({ type }) }, text);
  const where = h('span', { class: 'where' });
  const viewBar = h('div', { class: 'view-bar' },
    nav('game.first', '«', 'first'),
    nav('game.prev', '◀', 'prev'),
    where,
    nav('game.next', '▶', 'next'),
    nav('game.last', '»', 'last'),
    h('button', { type: 'button', class: 'btn small flip-button', i18n: 'game.flip', onclick: () => dispatch({ type: 'flip' }) }),
    h('button', { type: 'button', class: 'btn small share-button', i18n: 'analysis.share', onclick: () => share() }));
  /** Says when the link's variations could not all be read (role status: read when it appears). */
  const linkNotice = h('p', { class: 'link-notice error-text', role: 'status', hidden: true });
  /** The link to copy by hand when the clipboard is closed to the page. */
  const shareField = h('input', { class: 'share-field', readonly: true, hidden: true, 'i18n-aria-label': 'analysis.shareLink' });
  const boardCol = h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, board.svg), viewBar, shareField, linkNotice);

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
  /** @type {HTMLInputElement} */
  const otherToggle = h('input', { type: 'checkbox', onchange: () => dispatch({ type: 'other', on: otherToggle.checked }) });
  const otherLabel = h('span');
  const marks = h('ul', { class: 'graph-marks' });
  const counts = h('p', { class: 'graph-counts muted' });
  const graphCard = h('section', { class: 'card graph-card', 'aria-labelledby': 'graph-title' },
    h('h2', { id: 'graph-title' }, h('span', { i18n: 'analysis.graph' }), graphState),
    graphSvg,
    h('label', { class: 'other-mode' }, otherToggle, otherLabel),
    counts, marks);
  graphSvg.addEventListener('click', (e) => {
    // The move under the click: the graph's x axis runs from the start to the last move.
    const box = graphSvg.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * GRAPH_W;
    dispatch({ type: 'ply', index: Math.round(((x - LEFT) / (GRAPH_W - LEFT - PAD)) * plies(page.model)) });
  });

  const section = h('section', { class: 'analysis', 'aria-labelledby': 'analysis-title' },
    h('h1', { id: 'analysis-title', i18n: 'analysis.title' }),
    boardCol, engineCard, treeCard, graphCard);

  // The keys step through the tree (keyMessage) anywhere on the page but in a field, a dialog or
  // the board, whose squares the arrows move between; there, and anywhere, with Alt held.
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.shiftKey || !page.model.nodes[page.model.current]) return;
    const target = /** @type {Element} */ (e.target);
    if (target.closest?.('input, textarea, select, [contenteditable], dialog')) return;
    if (!e.altKey && target.closest?.('svg.board')) return;
    const msg = keyMessage(e.key);
    if (!msg) return;
    e.preventDefault();
    dispatch(msg);
  };
  document.addEventListener('keydown', onKey);

  start();

  return {
    unmount() {
      page.stopped = true;
      document.removeEventListener('keydown', onKey);
      for (const c of controllers) c.abort();
    },
    onLang() {
      document.title = `${t('analysis.title')} · Mabula`;
      drawn = {};
      render(page.model);
    },
  };

  // ---- Loading -----------------------------------------------------------------------------
  async function start() {
    if (!gameId && !startPosition) {
      showForm();
      return;
    }
    main.append(section);
    /** @type {Msg} */
    let msg;
    try {
      if (gameId) {
        // The person who had Black sees the board from Black's side, as on the game page.
        const state = await api.state(gameId, seatOf(gameId)?.token || null).catch((err) => {
          if (err instanceof ApiError && err.code === 'token_invalid') return api.state(gameId);
          throw err;
        });
        const record = await api.record(gameId);
        const you = state.you || [];
        const flipped = you.length === 1 && you[0] === 'black';
        msg = { type: 'loaded', start: state.start, moves: state.moves, scoring: state.settings.scoring, flipped, record, link: location.hash };
      } else {
        if (!startPosition || !isPosition(startPosition)) throw new ApiError(400, 'bad_request', t('analysis.badPosition'));
        msg = { type: 'loaded', start: startPosition, scoring: query.get('scoring') === 'product' ? 'product' : 'largest', link: location.hash };
      }
    } catch (error) {
      msg = { type: 'failed', error };
    }
    dispatch(msg);
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

  // ---- Effects -----------------------------------------------------------------------------

  function run(/** @type {Effect} */ e) {
    switch (e.type) {
      case 'analyse':
        if (stream) stream.abort();
        stream = e.id === null ? null : open(`/api/analysis/stream?position=${encodeURIComponent(e.position)}&scoring=${e.scoring}`, {},
          (name, data) => name === 'analysis' && dispatch({ type: 'analysis', id: e.id, analysis: /** @type {Analysis} */ (data) }),
          (error) => dispatch({ type: 'analysisFailed', id: e.id, error }));
        break;
      case 'legal':
        request('GET', `/api/analysis/moves?position=${encodeURIComponent(e.position)}`)
          .then((res) => dispatch({ type: 'legal', id: e.id, moves: res.legal_moves }))
          .catch(() => dispatch({ type: 'legal', id: e.id, moves: [] }));
        break;
      case 'analyseGame':
        open('/api/analysis/game', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ record: e.record, scoring: e.scoring }),
        }, (name, data) => {
          if (name === 'position' || name === 'quick') {
            const { index, analysis } = /** @type {import('api-types').GamePositionEvent} */ (data);
            dispatch({ type: 'gamePosition', which: e.which, index, analysis, quick: name === 'quick' });
          } else if (name === 'game') {
            const { values, notes, counts } = /** @type {import('api-types').GameAnalysis} */ (data);
            dispatch({ type: 'gameDone', which: e.which, values, notes, counts });
          }
        }, (error) => dispatch({ type: 'gameFailed', which: e.which, error }));
        break;
      case 'announce':
        announce(t(e.key, e.args));
        break;
      case 'announceNode':
        announce(nodeText(page.model, e.id));
        break;
      default:
        break;
    }
  }

  /** Opens an event stream; answers its controller, which stops it. */
  /**
   * @param {string} url
   * @param {RequestInit} options
   * @param {OnEvent} onEvent
   * @param {(error: unknown) => void} onError
   */
  function open(url, options, onEvent, onError) {
    const ctrl = new AbortController();
    controllers.add(ctrl);
    readEvents(url, { ...options, signal: ctrl.signal }, onEvent)
      .catch((err) => { if (err.name !== 'AbortError') onError(err); })
      .finally(() => controllers.delete(ctrl));
    return ctrl;
  }

  // ---- The link ----------------------------------------------------------------------------

  /** Keeps the tree and the node shown in the address (replaced, not pushed: Back leaves). */
  function keepLink(/** @type {Model} */ m) {
    if (m.restoring || !m.nodes[m.current]) return;
    const fragment = writeLink(m);
    if (fragment === null) return;
    const hash = fragment ? `#${fragment}` : '';
    if (location.hash !== hash) history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
  }

  /** Copies the address (which holds the variations) for sharing, or shows it to copy. */
  async function share() {
    const m = page.model;
    if (writeLink(m) === null) {
      toast(t('analysis.shareTooLarge'), 'error');
      return;
    }
    keepLink(m);
    const link = location.href;
    try {
      await navigator.clipboard.writeText(link);
      shareField.hidden = true;
      toast(t('analysis.shareCopied'));
      announce(t('analysis.shareCopied'));
    } catch {
      shareField.value = link;
      shareField.hidden = false;
      shareField.focus();
      shareField.select();
      announce(t('analysis.shareCopyHere'));
    }
  }

  /** The node `id` in words, for screen readers: "Move 3 White: b1-b4, in a variation". */
  function nodeText(/** @type {Model} */ m, /** @type {number} */ id) {
    const n = m.nodes[id];
    if (!n || !n.move) return t('game.startPosition');
    const { num, white } = moveNumber(m, n.ply);
    const label = t('game.moveLabel', { num, side: sideName(white ? 'white' : 'black'), move: n.move.notation });
    if (onMainLine(m, id)) return label;
    const siblings = n.parent === null ? [n.id] : m.nodes[n.parent].children;
    return t('analysis.inVariation', { move: label, k: siblings.indexOf(n.id) + 1, n: siblings.length });
  }

  // ---- Drawing -----------------------------------------------------------------------------

  /** Draws a part of the page when one of its inputs changed since the last time. */
  function part(/** @type {string} */ name, /** @type {unknown[]} */ inputs, /** @type {() => void} */ draw) {
    const last = drawn[name];
    if (last && last.length === inputs.length && last.every((x, i) => x === inputs[i])) return;
    drawn[name] = inputs;
    draw();
  }

  function render(/** @type {Model} */ m) {
    if (m.failure) {
      part('failure', [m.failure], () => renderFailure(m.failure));
      return;
    }
    if (!m.nodes[m.current]) return;
    keepLink(m);
    linkNotice.hidden = !m.linkBroken;
    if (m.linkBroken) part('linkNotice', [m.linkBroken], () => { linkNotice.textContent = t('analysis.linkBroken'); });
    const id = m.current;
    part('board', [id, m.analysis[id], m.legal[id], m.flipped, m.nodes], () => renderBoard(m));
    part('engine', [id, m.analysis[id], m.legal[id], m.engineError], () => renderEngine(m));
    part('tree', [id, m.nodes, m.graph.main.notes], () => renderTree(m));
    graphCard.hidden = !m.record;
    if (m.record) part('graph', [id, m.nodes, m.graph], () => renderGraph(m));
  }

  function renderFailure(/** @type {unknown} */ err) {
    clear(main);
    main.append(h('section', { class: 'notfound' },
      h('h1', { i18n: 'analysis.loadFailed' }),
      h('p', {}, errorText(err)),
      h('a', { class: 'btn primary', href: '/analysis', i18n: 'analysis.open' })));
  }

  function renderBoard(/** @type {Model} */ m) {
    const n = shown(m);
    const a = m.analysis[n.id];
    const legal = m.legal[n.id] || [];
    /** @type {NonNullable<Annotations['arrows']>} */
    const arrows = [];
    /** @type {NonNullable<Annotations['labels']>} */
    const labels = [];
    if (a && a.moves.length) {
      a.moves.slice(0, 3).forEach((line, i) => {
        const mv = legal.find((l) => l.notation === line.move);
        const from = mv ? mv.from : line.move.split('-')[0];
        const to = mv ? mv.to : line.move.split('-')[1];
        if (from && to) {
          arrows.push([from, to, i === 0 ? 'best' : 'alt']);
          // The value sits on the rim beyond the marble that moves, where it hides no marble.
          if (i === 0) labels.push([from, shortValue(line.value)]);
        }
      });
      for (const mv of (a.moves[0].pv || []).slice(1, 3)) {
        const [from, to] = mv.split('-');
        if (from && to) arrows.push([from, to, 'pv']);
      }
    }
    board.setFlipped(m.flipped);
    board.set({ position: n.position, lastMove: n.move, moves: legal, annotations: { arrows, labels } });
    board.svg.dataset.arrows = String(arrows.length);
    where.textContent = t('game.where', { k: n.ply, n: onMainLine(m, n.id) ? plies(m) : n.ply });
  }

  function renderEngine(/** @type {Model} */ m) {
    const n = shown(m);
    const a = m.analysis[n.id];
    clear(lines);
    if (!a) {
      evalLine.textContent = t('analysis.thinking');
      engineState.textContent = m.engineError ? errorText(m.engineError) : '';
      return;
    }
    // Everything here is seen by the side to move: the headline, and the values of its moves.
    const side = toMove(n.position);
    if (a.verdict) {
      evalLine.textContent = verdictText(a.verdict);
      evalLine.className = 'eval-line verdict';
    } else {
      const chances = side === 'white' ? a.white : 1 - a.white;
      evalLine.textContent = t('analysis.estimate', { side: sideName(side), p: { percent: chances } });
      evalLine.className = 'eval-line';
    }
    linesHead.textContent = a.moves.length ? t('analysis.valuesFor', { side: sideName(side) }) : '';
    if (m.engineError) engineState.textContent = errorText(m.engineError);
    else engineState.textContent = a.done ? t('analysis.done', { n: a.playouts, ms: a.elapsed_ms }) : t('analysis.deepening', { step: a.step });
    for (const line of a.moves) {
      lines.append(h('li', {},
        h('button', { type: 'button', class: 'linkish line-move', onclick: () => dispatch({ type: 'lineMove', notation: line.move }) }, line.move),
        h('span', { class: 'line-value' }, valueText(line.value)),
        h('span', { class: 'line-pv muted' }, line.pv.slice(1, 7).join(' '))));
    }
  }

  function renderTree(/** @type {Model} */ m) {
    clear(tree);
    const notes = m.graph.main.done ? m.graph.main.notes : [];
    const noteOf = (/** @type {TreeNode} */ n) => (onMainLine(m, n.id) && n.ply > 0 ? notes[n.ply - 1] : null);
    const button = (/** @type {TreeNode} */ n, /** @type {boolean} */ opens) => {
      const note = noteOf(n);
      const { num, white } = moveNumber(m, n.ply);
      // Every node but the start's (which has its own button) has its move.
      const notation = n.move?.notation ?? '';
      const label = t('game.moveLabel', { num, side: sideName(white ? 'white' : 'black'), move: notation });
      const mark = note && (note.judgement === 'blunder' ? '??' : note.judgement === 'mistake' ? '?' : '');
      const here = n.id === m.current;
      return h('button', {
        type: 'button', role: 'treeitem', class: `tree-move${here ? ' current' : ''}${note ? ` ${note.judgement}` : ''}`,
        'aria-current': here ? 'true' : null, 'aria-label': label + (note && mark ? `, ${t(`analysis.${note.judgement}`)}` : ''),
        dataset: { ply: String(n.ply), main: onMainLine(m, n.id) ? '1' : '0' },
        onclick: () => dispatch({ type: 'goTo', id: n.id }),
      }, `${white ? `${num}. ` : opens ? `${num}... ` : ''}${notation}${mark || ''}`);
    };
    // A line: its moves one after another, each followed by the variations that branch off
    // before it (the other children of its parent), indented.
    const line = (/** @type {number} */ startId, /** @type {HTMLElement} */ container) => {
      let opening = true;
      for (let at = /** @type {TreeNode | null} */ (m.nodes[startId]); at; at = at.children.length ? m.nodes[at.children[0]] : null) {
        container.append(button(at, opening));
        opening = false;
        const siblings = at.parent !== null ? m.nodes[at.parent].children : [];
        if (siblings[0] !== at.id) continue;
        for (const v of siblings.slice(1)) {
          const sub = h('div', { class: 'variation', role: 'group' });
          line(v, sub);
          container.append(sub);
          opening = true;
        }
      }
    };
    const root = m.nodes[m.root];
    tree.append(h('button', { type: 'button', class: `tree-move${m.current === m.root ? ' current' : ''}`, dataset: { ply: '0', main: '1' },
      onclick: () => dispatch({ type: 'goTo', id: m.root }), i18n: 'game.startPosition' }));
    if (root.children.length) line(root.children[0], tree);
  }

  function renderGraph(/** @type {Model} */ m) {
    clear(graphSvg);
    clear(marks);
    const n = plies(m);
    const main = m.graph.main;
    const x = (/** @type {number} */ i) => LEFT + (i * (GRAPH_W - LEFT - PAD)) / Math.max(1, n);
    const y = (/** @type {number} */ v) => PAD + (1 - v) * (GRAPH_H - PAD - BOTTOM);
    graphSvg.setAttribute('aria-label', t('analysis.graphLabel'));
    graphSvg.append(
      s('rect', { class: 'graph-black', x: LEFT, y: y(0.5), width: GRAPH_W - LEFT - PAD, height: y(0) - y(0.5) }),
      s('line', { class: 'graph-mid', x1: LEFT, x2: GRAPH_W - PAD, y1: y(0.5), y2: y(0.5) }));
    // The axes: White's chances on the left, the record's move numbers below.
    for (const v of [0, 0.5, 1]) {
      graphSvg.append(s('text', { class: 'graph-axis y', x: LEFT - 6, y: y(v) + 5, 'text-anchor': 'end' }, percent(v).replace(/[.,]0(?=\D*$)/, '')));
    }
    const every = Math.max(1, Math.ceil(n / 2 / 8));
    for (let i = 1; i <= n; i++) {
      // A round's number stands under its first move (Black's, when Black began).
      const { num, white } = moveNumber(m, i);
      if ((!white && i > 1) || (num - 1) % every !== 0) continue;
      graphSvg.append(s('text', { class: 'graph-axis x', x: x(i), y: GRAPH_H - BOTTOM + 20, 'text-anchor': 'middle' }, number(num)));
    }
    graphSvg.append(s('text', { class: 'graph-axis caption', x: GRAPH_W - PAD, y: GRAPH_H - 2, 'text-anchor': 'end' }, t('analysis.axisMoves')));
    graphSvg.dataset.x0 = String(x(0) / GRAPH_W);
    graphSvg.dataset.x1 = String(x(n) / GRAPH_W);
    if (onMainLine(m, m.current)) {
      const ply = shown(m).ply;
      graphSvg.append(s('line', { class: 'graph-cursor', x1: x(ply), x2: x(ply), y1: PAD / 2, y2: GRAPH_H - BOTTOM + PAD / 2 }));
    }
    const poly = (/** @type {import('./analysis-model.js').Graph} */ g, /** @type {string} */ cls) => {
      /** @type {string[]} */
      const pts = [];
      for (let i = 0; i <= n; i++) {
        const v = g.values[i];
        if (typeof v === 'number') pts.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
      }
      if (pts.length) graphSvg.append(s('polyline', { class: cls, points: pts.join(' ') }));
    };
    if (m.graph.other.on) poly(m.graph.other, 'graph-line other');
    poly(main, 'graph-line');
    for (const note of main.notes) {
      if (note.judgement !== 'blunder' && note.judgement !== 'mistake') continue;
      const i = note.index + 1;
      const v = main.values[i];
      if (typeof v !== 'number') continue;
      graphSvg.append(s('circle', { class: `graph-mark ${note.judgement}`, cx: x(i), cy: y(v), r: note.judgement === 'blunder' ? 6 : 4.5 }));
      const label = t('game.moveLabel', { num: moveNumber(m, i).num, side: sideName(note.mover), move: note.move });
      marks.append(h('li', {}, h('button', { type: 'button', class: `linkish mark-${note.judgement}`, onclick: () => dispatch({ type: 'ply', index: i }) },
        `${label}: ${t(`analysis.${note.judgement}`)} (−${Math.round(100 * note.loss)}%)`)));
    }
    const { known, deep } = graphCounts(main);
    const failed = main.error || m.graph.other.error;
    graphState.textContent = failed ? errorText(failed) : main.done ? ''
      : known < n + 1 ? t('analysis.graphProgress', { k: known, n: n + 1 }) : t('analysis.graphQuick', { k: deep, n: n + 1 });
    otherToggle.checked = m.graph.other.on;
    otherLabel.textContent = t('analysis.otherMode', { mode: t(`scoring.${otherScoring(m.scoring)}.short`) });
    const c = main.counts;
    counts.textContent = c ? t('analysis.counts', {
      wb: c.white.blunders, wm: c.white.mistakes, bb: c.black.blunders, bm: c.black.mistakes,
    }) : '';
    graphSvg.dataset.points = String(known);
    graphSvg.dataset.deep = String(deep);
  }
}
