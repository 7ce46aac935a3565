// The analysis board's state machine, built like the game page's (game-model.js): one model,
// `update(model, message)` answering the next model and the effects to carry out, and the
// questions the page's `render(model)` asks. Nothing here touches the page or the network: the
// page (pages/analysis.js) turns clicks and the server's event streams into messages, carries out
// the effects (open or stop a stream, read the legal moves) and feeds their results back.
//
// The moves form a tree of variations, kept flat: nodes by id, each naming its parent and its
// children (the first child continues the line; the game's own moves are the first children all
// the way from the start). What is learnt about a node (its legal moves, the engine's analysis)
// is kept beside the tree, by node id, so that the tree changes only when a move is added.

import { tryParse } from '../position.js';

/**
 * @typedef {import('api-types').Analysis} Analysis
 * @typedef {import('api-types').LegalMove} LegalMove
 * @typedef {import('api-types').MoveNote} MoveNote
 * @typedef {import('api-types').GameAnalysis['counts']} Counts
 * @typedef {{ notation: string, from?: string | null, to?: string | null }} TreeMove
 * @typedef {{ id: number, parent: number | null, move: TreeMove | null, position: string, children: number[], ply: number }} TreeNode
 * @typedef {{ values: (number | undefined)[], notes: MoveNote[], counts: Counts | null, done: boolean, error: unknown }} Graph
 */

/** @returns {Graph} */
const emptyGraph = () => ({ values: [], notes: [], counts: null, done: false, error: null });

/** The model of the analysis board before its game or position is loaded. */
export function init() {
  return {
    /** The tree of moves: nodes by id (empty until loaded). */
    nodes: /** @type {Record<number, TreeNode>} */ ({}),
    /** The start position's node, and the node shown. */
    root: 1,
    current: 1,
    /** The legal moves of each node, once read (none when they could not be). */
    legal: /** @type {Record<number, LegalMove[]>} */ ({}),
    /** The engine's latest analysis of each node (it deepens until `done`). */
    analysis: /** @type {Record<number, Analysis>} */ ({}),
    /** Why the shown node's analysis stopped, if it failed. */
    engineError: /** @type {unknown} */ (null),
    scoring: 'largest',
    /** The game's record (null for a position alone: then there is no graph). */
    record: /** @type {string | null} */ (null),
    flipped: false,
    /** The game or position could not be loaded: the error. */
    failure: /** @type {unknown} */ (null),
    /** The evaluation graph of the game's scoring, and the other scoring's on demand. */
    graph: { main: emptyGraph(), other: { ...emptyGraph(), on: false } },
  };
}

/** @typedef {ReturnType<typeof init>} Model */

// ---- Questions about the model ---------------------------------------------------------------

/** The node shown. */
export const shown = (/** @type {Model} */ m) => m.nodes[m.current];

/** The other scoring than `scoring`. */
export const otherScoring = (scoring) => (scoring === 'largest' ? 'product' : 'largest');

/** The last node of the line that goes on from `id` (first children all the way). */
export function lineEnd(/** @type {Model} */ m, /** @type {number} */ id) {
  let at = m.nodes[id];
  while (at.children.length) at = m.nodes[at.children[0]];
  return at;
}

/** Whether node `id` is on the game's own line. */
export function onMainLine(/** @type {Model} */ m, /** @type {number} */ id) {
  for (let at = m.nodes[id]; at.parent !== null; at = m.nodes[at.parent]) {
    if (m.nodes[at.parent].children[0] !== at.id) return false;
  }
  return true;
}

/** The node `index` moves into the game's own line, or null past its end. */
export function mainLineNode(/** @type {Model} */ m, /** @type {number} */ index) {
  /** @type {TreeNode | null} */
  let at = m.nodes[m.root];
  for (let i = 0; i < index && at; i++) at = at.children.length ? m.nodes[at.children[0]] : null;
  return at;
}

/** How many moves the game's own line has. */
export const plies = (/** @type {Model} */ m) => lineEnd(m, m.root).ply;

/** The record's number of the move that makes ply `ply`, and who made it (as RULES.md numbers). */
export function moveNumber(/** @type {Model} */ m, /** @type {number} */ ply) {
  const blackFirst = tryParse(m.nodes[m.root].position)?.toMove === 'b';
  const q = ply - 1 + (blackFirst ? 1 : 0);
  return { num: Math.floor(q / 2) + 1, white: q % 2 === 0 };
}

/** The side to move in `position`. */
export const toMove = (/** @type {string} */ position) => (tryParse(position)?.toMove === 'b' ? 'black' : 'white');

// ---- The state machine -----------------------------------------------------------------------

/**
 * The next model after `msg`, and the effects to carry out. An unchanged model is answered as the
 * same object, so the page knows it has nothing to redraw.
 */
export function update(/** @type {Model} */ m, /** @type {any} */ msg) {
  /** @type {any[]} */
  const fx = [];
  return { model: step(m, msg, fx), effects: fx };
}

/**
 * @param {Model} m
 * @param {any} msg
 * @param {any[]} fx
 * @returns {Model}
 */
function step(m, msg, fx) {
  switch (msg.type) {
    case 'loaded':
      return loaded(m, msg, fx);
    case 'failed':
      return { ...m, failure: msg.error };
    case 'goTo':
      return m.nodes[msg.id] ? goTo(m, msg.id, fx) : m;
    case 'first':
      return goTo(m, m.root, fx);
    case 'prev': {
      const parent = shown(m).parent;
      return parent === null ? m : goTo(m, parent, fx);
    }
    case 'next': {
      const [next] = shown(m).children;
      return next === undefined ? m : goTo(m, next, fx);
    }
    case 'last':
      return goTo(m, lineEnd(m, m.current).id, fx);
    case 'ply': {
      const n = mainLineNode(m, Math.max(0, Math.min(plies(m), msg.index)));
      return n ? goTo(m, n.id, fx) : m;
    }
    case 'play':
      return play(m, msg.move, fx);
    case 'lineMove': {
      // A move of the engine's list: played when the shown position's legal moves know it.
      const legal = (m.legal[m.current] || []).find((l) => l.notation === msg.notation);
      return legal ? play(m, legal, fx) : m;
    }
    case 'legal':
      return { ...m, legal: { ...m.legal, [msg.id]: msg.moves } };
    case 'analysis':
      return { ...m, analysis: { ...m.analysis, [msg.id]: msg.analysis }, engineError: msg.id === m.current ? null : m.engineError };
    case 'analysisFailed':
      return msg.id === m.current ? { ...m, engineError: msg.error } : m;
    case 'flip':
      return { ...m, flipped: !m.flipped };
    case 'other': {
      const other = { ...m.graph.other, on: msg.on };
      const n = { ...m, graph: { ...m.graph, other } };
      if (msg.on && !other.values.length && !other.done) return analyseGame(n, 'other', fx);
      return n;
    }
    case 'gamePosition':
      return gamePosition(m, msg.which, msg.index, msg.analysis);
    case 'gameDone': {
      const g = { ...m.graph[msg.which], values: msg.values, notes: msg.notes, counts: msg.counts, done: true };
      return { ...m, graph: { ...m.graph, [msg.which]: g } };
    }
    case 'gameFailed':
      return { ...m, graph: { ...m.graph, [msg.which]: { ...m.graph[msg.which], error: msg.error } } };
    default:
      return m;
  }
}

/** The tree of a game (its moves as the main line) or of a position alone, shown at its start. */
function loaded(m, { start, moves = [], scoring, flipped = false, record = null }, fx) {
  /** @type {Record<number, TreeNode>} */
  const nodes = { 1: { id: 1, parent: null, move: null, position: start, children: [], ply: 0 } };
  let n = { ...m, nodes, root: 1, current: 1, scoring, flipped, record };
  for (const mv of moves) n = addChild(n, n.current, mv).model;
  n = goTo({ ...n, current: 1 }, 1, fx);
  return record ? analyseGame(n, 'main', fx) : n;
}

/** The model with a child of `parentId` for `move`; answers it and the child's id. */
function addChild(m, parentId, move) {
  const id = Math.max(...Object.keys(m.nodes).map(Number)) + 1;
  const parent = m.nodes[parentId];
  const child = { id, parent: parentId, move: { notation: move.notation, from: move.from, to: move.to }, position: move.position, children: [], ply: parent.ply + 1 };
  const nodes = { ...m.nodes, [id]: child, [parentId]: { ...parent, children: [...parent.children, id] } };
  return { model: { ...m, nodes, current: id }, id };
}

/** Shows node `id`: its analysis is asked for unless it is complete, its legal moves once. */
function goTo(m, id, fx) {
  const n = { ...m, current: id, engineError: null };
  const node = n.nodes[id];
  const a = n.analysis[id];
  // One stream at a time: going elsewhere stops the one under way.
  fx.push(a && a.done ? { type: 'analyse', id: null } : { type: 'analyse', id, position: node.position, scoring: n.scoring });
  if (!n.legal[id]) fx.push({ type: 'legal', id, position: node.position });
  return n;
}

/** A move tried on the board: a new variation, or the known one it is already. */
function play(m, move, fx) {
  const here = shown(m);
  const known = here.children.find((c) => m.nodes[c].move?.notation === move.notation);
  if (known !== undefined) return goTo(m, known, fx);
  const { model, id } = addChild(m, here.id, move);
  fx.push({ type: 'announce', key: 'analysis.variationAdded', args: { move: move.notation } });
  return goTo(model, id, fx);
}

/** Asks for the analysis of the whole game in `which` scoring (the game's, or the other). */
function analyseGame(m, which, fx) {
  const scoring = which === 'main' ? m.scoring : otherScoring(m.scoring);
  fx.push({ type: 'analyseGame', which, scoring, record: m.record });
  const g = { ...m.graph[which], ...emptyGraph() };
  return { ...m, graph: { ...m.graph, [which]: g } };
}

/** One position of the game analysed: a point of the graph, and the node's analysis meanwhile. */
function gamePosition(m, which, index, analysis) {
  const g = m.graph[which];
  const values = g.values.slice();
  values[index] = analysis.white;
  const n = { ...m, graph: { ...m.graph, [which]: { ...g, values } } };
  if (which !== 'main') return n;
  const node = mainLineNode(n, index);
  if (!node || n.analysis[node.id]?.done) return n;
  return { ...n, analysis: { ...n.analysis, [node.id]: analysis } };
}
