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
 * @typedef {{ values: (number | undefined)[], deep: boolean[], notes: MoveNote[], counts: Counts | null, done: boolean, error: unknown }} Graph
 * @typedef {import('pages-types').GraphName} GraphName
 * @typedef {import('pages-types').AnalysisMsg} Msg
 * @typedef {import('pages-types').AnalysisEffect} Effect
 */

/**
 * A game's graph: White's chances after each move (`values`, the quick pass's first, each
 * replaced by the full analysis's as it comes: `deep` says which are), the notes once done.
 * @returns {Graph}
 */
const emptyGraph = () => ({ values: [], deep: [], notes: [], counts: null, done: false, error: null });

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
    /**
     * Variations read from a link (`readTree`) that wait for their parent's legal moves to learn
     * their positions: each names its parent's node id once that node is in the tree, else the
     * index of its parent among the waiting moves. Null when nothing waits (then the link is
     * written again as the tree changes).
     */
    restoring: /** @type {Restoring | null} */ (null),
    /** The link's variations could not all be read or played: the page says so. */
    linkBroken: false,
  };
}

/**
 * @typedef {{ notation: string, parent: number }} TreeEntry
 * @typedef {{ entries: TreeEntry[], at: number, nodeOf: Record<number, number> }} Restoring
 */

/** @typedef {ReturnType<typeof init>} Model */

// ---- Questions about the model ---------------------------------------------------------------

/** The node shown. */
export const shown = (/** @type {Model} */ m) => m.nodes[m.current];

/** The other scoring than `scoring`. */
export const otherScoring = (/** @type {string} */ scoring) => (scoring === 'largest' ? 'product' : 'largest');

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
export function update(/** @type {Model} */ m, /** @type {Msg} */ msg) {
  /** @type {Effect[]} */
  const fx = [];
  return { model: step(m, msg, fx), effects: fx };
}

/**
 * @param {Model} m
 * @param {Msg} msg
 * @param {Effect[]} fx
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
      return goTo(m, m.root, fx, msg.say);
    case 'prev': {
      const parent = shown(m).parent;
      return parent === null ? m : goTo(m, parent, fx, msg.say);
    }
    case 'next': {
      const [next] = shown(m).children;
      return next === undefined ? m : goTo(m, next, fx, msg.say);
    }
    case 'last':
      return goTo(m, lineEnd(m, m.current).id, fx, msg.say);
    case 'sibling': {
      // Up and down: the other moves tried in the shown move's place (its parent's children).
      const here = shown(m);
      if (here.parent === null) return m;
      const siblings = m.nodes[here.parent].children;
      const to = siblings[siblings.indexOf(here.id) + msg.by];
      return to === undefined ? m : goTo(m, to, fx, msg.say);
    }
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
      return restore({ ...m, legal: { ...m.legal, [msg.id]: msg.moves } }, fx);
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
      return gamePosition(m, msg.which, msg.index, msg.analysis, Boolean(msg.quick));
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

/**
 * The tree of a game (its moves as the main line) or of a position alone, shown at its start;
 * with `link` (a link's fragment, see `readLink`), the variations it holds are added to it.
 * @param {Model} m
 * @param {Extract<Msg, { type: 'loaded' }>} msg
 * @param {Effect[]} fx
 * @returns {Model}
 */
function loaded(m, { start, moves = [], scoring, flipped = false, record = null, link = '' }, fx) {
  /** @type {Record<number, TreeNode>} */
  const nodes = { 1: { id: 1, parent: null, move: null, position: start, children: [], ply: 0 } };
  /** @type {Model} */
  let n = { ...m, nodes, root: 1, current: 1, scoring, flipped, record, restoring: null, linkBroken: false };
  for (const mv of moves) n = addChild(n, n.current, mv).model;
  n = { ...n, current: 1 };
  const saved = link ? readLink(link) : null;
  if (link && !saved) n = { ...n, linkBroken: true };
  if (!saved || !saved.entries.length) n = goTo(n, 1, fx);
  if (record) n = analyseGame(n, 'main', fx);
  if (!saved || !saved.entries.length) return n;
  return restore({ ...n, restoring: { entries: saved.entries, at: saved.at, nodeOf: { 0: n.root } } }, fx);
}

/**
 * Adds the link's waiting moves whose parent is in the tree and whose parent's legal moves are
 * known (a move that is not legal there is dropped with what follows it, and the link said to be
 * broken); asks for the legal moves of the parents it still needs; once nothing waits, shows the
 * node the link was at.
 * @param {Model} m
 * @param {Effect[]} fx
 * @returns {Model}
 */
function restore(m, fx) {
  if (!m.restoring) return m;
  const { entries, at } = m.restoring;
  const nodeOf = { ...m.restoring.nodeOf };
  let n = m;
  let broken = m.linkBroken;
  /** Entries that can never be added (their parent was dropped). */
  /** @type {Set<number>} */
  const dropped = new Set();
  /** @type {Set<number>} */
  const asked = new Set();
  let waiting = false;
  entries.forEach((e, k) => {
    const i = k + 1;
    if (nodeOf[i] !== undefined || dropped.has(i)) return;
    if (dropped.has(e.parent)) { dropped.add(i); return; }
    const parentId = nodeOf[e.parent];
    if (parentId === undefined) { waiting = true; return; }
    const known = n.nodes[parentId].children.find((c) => n.nodes[c].move?.notation === e.notation);
    if (known !== undefined) { nodeOf[i] = known; return; }
    const legal = n.legal[parentId];
    if (!legal) {
      waiting = true;
      if (!asked.has(parentId)) fx.push({ type: 'legal', id: parentId, position: n.nodes[parentId].position });
      asked.add(parentId);
      return;
    }
    const move = legal.find((l) => l.notation === e.notation);
    if (!move) { dropped.add(i); broken = true; return; }
    const added = addChild(n, parentId, move);
    nodeOf[i] = added.id;
    n = { ...added.model, current: n.current };
  });
  if (waiting) return { ...n, restoring: { entries, at, nodeOf }, linkBroken: broken };
  const target = nodeOf[at] ?? n.root;
  return goTo({ ...n, restoring: null, linkBroken: broken || nodeOf[at] === undefined }, target, fx);
}

/** The model with a child of `parentId` for `move`; answers it and the child's id. */
function addChild(/** @type {Model} */ m, /** @type {number} */ parentId, /** @type {LegalMove} */ move) {
  const id = Math.max(...Object.keys(m.nodes).map(Number)) + 1;
  const parent = m.nodes[parentId];
  /** @type {TreeNode} */
  const child = { id, parent: parentId, move: { notation: move.notation, from: move.from, to: move.to }, position: move.position, children: [], ply: parent.ply + 1 };
  const nodes = { ...m.nodes, [id]: child, [parentId]: { ...parent, children: [...parent.children, id] } };
  return { model: { ...m, nodes, current: id }, id };
}

/**
 * Shows node `id`: its analysis is asked for unless it is complete, its legal moves once. With
 * `say` (a step by the keyboard), the node reached is announced.
 * @param {Model} m
 * @param {number} id
 * @param {Effect[]} fx
 * @param {boolean} [say]
 * @returns {Model}
 */
function goTo(m, id, fx, say = false) {
  if (say) fx.push({ type: 'announceNode', id });
  const n = { ...m, current: id, engineError: null };
  const node = n.nodes[id];
  const a = n.analysis[id];
  // One stream at a time: going elsewhere stops the one under way.
  fx.push(a && a.done ? { type: 'analyse', id: null } : { type: 'analyse', id, position: node.position, scoring: n.scoring });
  if (!n.legal[id]) fx.push({ type: 'legal', id, position: node.position });
  return n;
}

/** A move tried on the board: a new variation, or the known one it is already. */
function play(/** @type {Model} */ m, /** @type {LegalMove} */ move, /** @type {Effect[]} */ fx) {
  const here = shown(m);
  const known = here.children.find((c) => m.nodes[c].move?.notation === move.notation);
  if (known !== undefined) return goTo(m, known, fx);
  const { model, id } = addChild(m, here.id, move);
  fx.push({ type: 'announce', key: 'analysis.variationAdded', args: { move: move.notation } });
  return goTo(model, id, fx);
}

/** Asks for the analysis of the whole game in `which` scoring (the game's, or the other). */
function analyseGame(/** @type {Model} */ m, /** @type {GraphName} */ which, /** @type {Effect[]} */ fx) {
  const scoring = which === 'main' ? m.scoring : otherScoring(m.scoring);
  fx.push({ type: 'analyseGame', which, scoring, record: m.record });
  const g = { ...m.graph[which], ...emptyGraph() };
  return { ...m, graph: { ...m.graph, [which]: g } };
}

/**
 * One position of the game analysed (`quick`: by the quick pass, which a full analysis already
 * there outranks): a point of the graph, and the node's analysis meanwhile.
 * @param {Model} m
 * @param {GraphName} which
 * @param {number} index
 * @param {Analysis} analysis
 * @param {boolean} quick
 * @returns {Model}
 */
function gamePosition(m, which, index, analysis, quick) {
  const g = m.graph[which];
  if (quick && g.deep[index]) return m;
  const values = g.values.slice();
  values[index] = analysis.white;
  const deep = g.deep.slice();
  deep[index] = !quick;
  const n = { ...m, graph: { ...m.graph, [which]: { ...g, values, deep } } };
  if (which !== 'main') return n;
  const node = mainLineNode(n, index);
  const had = node && n.analysis[node.id];
  if (!node || had?.done || (quick && had)) return n;
  return { ...n, analysis: { ...n.analysis, [node.id]: analysis } };
}

/** How many positions of a graph have a value, and how many a full analysis's. */
export function graphCounts(/** @type {Graph} */ g) {
  return {
    known: g.values.filter((v) => typeof v === 'number').length,
    deep: g.deep.filter(Boolean).length,
  };
}

// ---- The keyboard --------------------------------------------------------------------------

/**
 * The message a key steps through the tree with (announced), or null for other keys: Left and
 * Right along the line, Home and End to its ends, Up and Down between the moves tried in the
 * shown move's place.
 * @returns {Msg | null}
 */
export function keyMessage(/** @type {string} */ key) {
  switch (key) {
    case 'ArrowLeft': return { type: 'prev', say: true };
    case 'ArrowRight': return { type: 'next', say: true };
    case 'Home': return { type: 'first', say: true };
    case 'End': return { type: 'last', say: true };
    case 'ArrowUp': return { type: 'sibling', by: -1, say: true };
    case 'ArrowDown': return { type: 'sibling', by: 1, say: true };
    default: return null;
  }
}

// ---- The tree in a link ----------------------------------------------------------------------
//
// The page's address keeps the tree and the node shown in its fragment, `#v=TREE&at=K`, so that
// a reload restores them and the address shared opens them elsewhere (a fragment never reaches
// the server). TREE is the tree's moves in the order of a record with variations (RULES.md's
// notation without its hyphen, so every move is four characters: `b1b4`, `pass`), each variation
// in parentheses after the move it replaces, as PGN writes them: `b1b4c8c6(d1d3e8e5)a2c2` is the
// line b1-b4 c8-c6 a2-c2 with d1-d3 e8-e5 tried instead of c8-c6. K counts the moves of TREE to
// the one shown (0: the start). A game's own moves are written too (its line is the tree's first
// line), so the link says the same whatever the game's line is.

/** The most characters a link's tree may have (about 1000 moves; fragments stay in the browser). */
export const LINK_MAX = 4000;

const MOVE_TEXT = /^(?:[a-h][1-8][a-h][1-8]|pass)$/;

/** A move's four characters in a link. */
const linkMove = (/** @type {string} */ notation) => notation.replace('-', '');

/** The notation of a move's four characters in a link (`b1b4` → `b1-b4`). */
const linkNotation = (/** @type {string} */ text) => (text === 'pass' ? 'pass' : `${text.slice(0, 2)}-${text.slice(2)}`);

/**
 * The fragment that holds the tree and the node shown (without `#`), or null when it would be
 * longer than LINK_MAX.
 */
export function writeLink(/** @type {Model} */ m) {
  const root = m.nodes[m.root];
  if (!root) return null;
  let out = '';
  let count = 0;
  let at = 0;
  const visit = (/** @type {number} */ id) => {
    count += 1;
    if (id === m.current) at = count;
    out += linkMove(m.nodes[id].move?.notation || '');
  };
  /** Writes the moves that go on from node `id`: its first child, the others, then onwards. */
  const line = (/** @type {number} */ id) => {
    for (let at2 = m.nodes[id]; at2.children.length;) {
      const [first, ...others] = at2.children;
      visit(first);
      for (const o of others) {
        out += '(';
        visit(o);
        line(o);
        out += ')';
      }
      at2 = m.nodes[first];
    }
  };
  line(m.root);
  if (!out) return '';
  if (out.length > LINK_MAX) return null;
  return `v=${out}&at=${at}`;
}

/**
 * Reads a link's fragment (with or without `#`): its moves in the order written, each naming the
 * index of its parent (0 for the start), and the index of the move shown; null when it is not
 * such a fragment (a bad character, an unbalanced parenthesis, a variation with nothing to
 * replace, a shown move out of range).
 * @returns {{ entries: TreeEntry[], at: number } | null}
 */
export function readLink(/** @type {string} */ fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const text = params.get('v') || '';
  const atText = params.get('at') || '0';
  if (text.length > LINK_MAX || !/^\d{1,5}$/.test(atText)) return null;
  /** @type {TreeEntry[]} */
  const entries = [];
  // The parent of the next move, and of the move before it (which a variation replaces), per
  // open parenthesis.
  let parent = 0;
  let last = -1;
  /** @type {{ parent: number, last: number }[]} */
  const stack = [];
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '(') {
      if (last < 0) return null;
      stack.push({ parent, last });
      parent = entries[last - 1].parent;
      last = -1;
      i += 1;
    } else if (c === ')') {
      const top = stack.pop();
      if (!top || last < 0) return null;
      ({ parent, last } = top);
      i += 1;
    } else {
      const move = text.slice(i, i + 4);
      if (!MOVE_TEXT.test(move)) return null;
      entries.push({ notation: linkNotation(move), parent });
      last = entries.length;
      parent = last;
      i += 4;
    }
  }
  const at = Number(atText);
  if (stack.length || at > entries.length) return null;
  return { entries, at };
}
