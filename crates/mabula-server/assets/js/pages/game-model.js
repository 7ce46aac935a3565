// The game page's state machine, after the terminal game's `App` (crates/mabula-cli/src/play/app.rs):
// one model, `update(model, message)` answering the next model and the effects to carry out, and
// the questions the page's `render(model)` asks. Nothing here touches the page, the network or
// the clock: the page (pages/game.js) turns what happens into messages, carries the effects out
// (requests, animations, announcements), feeds their results back as messages, and draws.
//
// Texts are not translated here: an effect that says something carries a translation key and its
// arguments, where an argument `{ t: key }` is itself a key to translate (a colour's name).

import { tryParse, groupsOf, scoresOf, coords, sq, isCorner } from '../position.js';

/**
 * @typedef {import('api-types').GameState} GameState
 * @typedef {import('api-types').LegalMove} LegalMove
 * @typedef {import('api-types').Analysis} Analysis
 * @typedef {import('api-types').MoveView} MoveView
 * @typedef {import('api-types').TimeControl} TimeControl
 * @typedef {import('api-types').AccuracyView} AccuracyView
 * @typedef {import('pages-types').BoardMove} BoardMove
 * @typedef {import('pages-types').Said} Said
 * @typedef {import('pages-types').GameMsg} Msg
 * @typedef {import('pages-types').GameEffect} Effect
 * @typedef {'white' | 'black'} Side
 */

/**
 * When to ask again for the accuracy of a finished rated game that is not analysed yet (ms after
 * each answer without it); then the page stops asking.
 */
export const ACCURACY_WAITS = [3000, 10000, 30000, 60000];

/** How many moves behind the page may be and still roll them in one by one. */
const ROLL_AT_MOST = 3;
/** How long a forced pass waits before it is played by itself, so that the position can be seen. */
export const AUTO_PASS_MS = 900;

/**
 * The model of a page that shows game `id` (`replay`: the replay page).
 * @param {{ id: string, replay?: boolean, token?: string | null, showGroups?: boolean, autoPass?: boolean }} options
 */
export function init({ id, replay = false, token = null, showGroups = false, autoPass = false }) {
  return {
    id,
    replay,
    /** The seat token this browser holds (null: a spectator, or a player by their session). */
    token,
    /** The sides this page plays. */
    seats: /** @type {Side[]} */ ([]),
    /** The latest state from the server. */
    state: /** @type {GameState | null} */ (null),
    /** When that state arrived (the page's clock, ms): the clocks count down from then. */
    clockAt: 0,
    /** The game could not be loaded: the error. */
    failure: /** @type {unknown} */ (null),
    /** The move number looked at, or null for the live position (the replay starts at 0). */
    view: /** @type {number | null} */ (replay ? 0 : null),
    /** The moves the board has shown (rolled in) so far, and their epoch. */
    shown: { count: 0, epoch: -1 },
    /** Our own move, shown before the server confirms it: `{ move, count }`. */
    optimistic: /** @type {{ move: BoardMove, count: number } | null} */ (null),
    /** Marbles are rolling: the board is not redrawn meanwhile. */
    animating: false,
    /** Our move is on its way to the server. */
    pending: false,
    /** The live channel: connecting, online, reconnecting, offline (null in a replay). */
    conn: /** @type {import('pages-types').SocketStatus | null} */ (replay ? null : 'connecting'),
    /** The board turned, or null until the seats are known. */
    flipped: /** @type {boolean | null} */ (null),
    /** The replay plays by itself. */
    autoplay: false,
    /** The move previewed on the board. */
    preview: /** @type {BoardMove | null} */ (null),
    showGroups,
    hintsOn: false,
    /** The engine's last hint: `{ count, analysis }` (valid while `count` moves are played). */
    hint: /** @type {{ count: number, analysis: Analysis } | null} */ (null),
    /** Your own clock was said to be low on time (once per turn). */
    lowAnnounced: false,
    /** Why the typed move was refused: `{ key, args }`. */
    notationError: /** @type {Said | null} */ (null),
    /** The engine's estimate of the deal: White's chances (0 to 1). */
    deal: /** @type {number | null} */ (null),
    /** Since when (the page's clock, ms) the opponent's seat has had no connection, or null. */
    awaySince: /** @type {number | null} */ (null),
    /** The setting: a forced pass is played by itself after a moment. */
    autoPass,
    /** The turn (`moves|epoch`) whose forced pass is scheduled, so that it is played once. */
    autoPassTurn: /** @type {string | null} */ (null),
    /** The clocks' timer runs (asked for with a `ticking` effect). */
    ticking: false,
    /**
     * A push chosen on the opponent's turn, to be sent once their move arrives if it is legal
     * then (`{ notation, from, to }`), or null.
     */
    premove: /** @type {{ notation: string, from: string, to: string } | null} */ (null),
    /** The low-time sound was played (once a game). */
    lowSounded: false,
    /**
     * Each player's accuracy once a finished rated game has been analysed (issue 51): only the
     * game's HTTP state carries it, so it is kept apart from the states the socket sends.
     */
    accuracy: /** @type {{ white: AccuracyView | null, black: AccuracyView | null } | null} */ (null),
    /** How many times the accuracy was asked for (-1: not yet wanted). */
    accuracyAsks: -1,
  };
}

/**
 * @typedef {ReturnType<typeof init>} Model
 * @typedef {Model & { state: GameState }} Loaded a model whose game has loaded
 */

// ---- Questions about the model ---------------------------------------------------------------

/** @returns {Side} */
export const other = (/** @type {Side} */ c) => (c === 'white' ? 'black' : 'white');

/**
 * Fair play (issue 51): while a rated game is played, the engine keeps away from it: no
 * analysis link and no estimate of the deal, for its players and its spectators alike (the
 * server refuses the analysis of its position anyway). Both come back once the game is over.
 */
export function engineKept(/** @type {GameState | null} */ st) {
  return Boolean(st && st.rated && st.status === 'playing');
}

/** Whether the page's player is to move in `st`. */
export function isMyTurn(/** @type {Model} */ m, /** @type {GameState | null} */ st = m.state) {
  return Boolean(st && st.status === 'playing' && st.to_move && m.seats.includes(st.to_move)
    && st.seats[st.to_move]?.kind === 'person');
}

/** The position after `count` moves of `st`. */
export function positionAt(/** @type {GameState} */ st, /** @type {number} */ count) {
  return count ? st.moves[count - 1].position : st.start;
}

/** The last push among the last two moves before `count` (a pass does not hide the push before it). */
export function lastPush(/** @type {GameState} */ st, /** @type {number} */ count) {
  for (let i = count - 1; i >= 0 && i >= count - 2; i--) {
    if (st.moves[i].from) return st.moves[i];
  }
  return null;
}

/** The move number shown: the one looked at, or all of them. */
export function current(/** @type {Loaded} */ m) {
  return m.view === null ? m.state.moves.length : m.view;
}

/** What the board shows: `{ position, last, groups }`. */
export function displayed(/** @type {Loaded} */ m) {
  const st = m.state;
  const n = st.moves.length;
  if (m.view !== null) {
    const pos = positionAt(st, m.view);
    return { position: pos, last: lastPush(st, m.view), groups: groupsOf(tryParse(pos).board) };
  }
  if (m.optimistic && n < m.optimistic.count) {
    const pos = m.optimistic.move.position ?? st.position;
    return { position: pos, last: m.optimistic.move, groups: groupsOf(tryParse(pos).board) };
  }
  return { position: st.position, last: lastPush(st, n), groups: st.groups };
}

/** The scores of what is shown. */
export function displayedScores(/** @type {Loaded} */ m) {
  const d = displayed(m);
  return d.position === m.state.position ? m.state.scores : scoresOf(d.groups);
}

/** The side to move in what is shown. */
export function displayedToMove(/** @type {Loaded} */ m) {
  if (m.view === null) return m.state.to_move;
  return tryParse(displayed(m).position).toMove === 'w' ? 'white' : 'black';
}

/** The pushes the board offers: only live, on your turn, with nothing in flight. */
export function boardMoves(/** @type {Loaded} */ m) {
  if (m.view !== null || !isMyTurn(m) || m.pending || m.optimistic || m.animating) return null;
  return m.state.legal_moves.filter((mv) => mv.from);
}

/**
 * Whether the page's player may choose a premove now: a game against another person (not the
 * engine, not at one screen), being played, on the opponent's turn, looking at the live position.
 */
export function canPremove(/** @type {Model} */ m, /** @type {GameState | null} */ st = m.state) {
  if (!st || st.status !== 'playing' || m.replay || m.view !== null || m.seats.length !== 1) return false;
  if (st.settings.mode !== 'friend' || st.to_move !== other(m.seats[0])) return false;
  return st.seats[st.to_move]?.kind === 'person';
}

/**
 * The pushes the player could premove in `st`: every own marble on an edge space, to each field
 * square of its line. Which of them are legal once the opponent has moved is the server's to say
 * (the new state's `legal_moves`); a premove that is not is dropped then.
 */
export function premoveCandidates(/** @type {GameState} */ st, /** @type {Side} */ side) {
  const board = tryParse(st.position).board;
  const mark = side === 'white' ? 'w' : 'b';
  /** @type {BoardMove[]} */
  const out = [];
  for (const [from, colour] of board) {
    if (colour !== mark) continue;
    const [f, r] = coords(from);
    if (isCorner(f, r)) continue;
    const dir = r === 0 ? [0, 1] : r === 7 ? [0, -1] : f === 0 ? [1, 0] : f === 7 ? [-1, 0] : null;
    if (!dir) continue;
    for (let k = 1; k <= 6; k++) {
      const to = sq(f + dir[0] * k, r + dir[1] * k);
      out.push({ notation: `${from}-${to}`, from, to, slides: [[from, to]], position: st.position });
    }
  }
  return out;
}

/** The premoves the board offers: on the opponent's turn, while none is chosen. */
export function premoveMoves(/** @type {Loaded} */ m) {
  if (!canPremove(m) || m.premove || m.animating || m.pending) return null;
  return premoveCandidates(m.state, m.seats[0]);
}

/** The engine's best move to draw as an arrow, while the hint is fresh. */
export function hintMove(/** @type {Loaded} */ m) {
  const fresh = m.hintsOn && m.hint && m.hint.count === m.state.moves.length && m.view === null && !m.optimistic;
  const best = fresh && m.hint ? m.hint.analysis.moves[0] : null;
  return best && best.move.includes('-') ? best.move : null;
}

/** A game between two accounts (from the lobby): its next game is found there, not by a rematch. */
export function playerGame(/** @type {GameState} */ st) {
  return Boolean(st.players?.white && st.players?.black);
}

/**
 * Whether the page's player may offer a draw in `st`: a game between two people (a friend game or
 * one from the lobby) being played, where this page holds one seat. The server decides.
 */
export function canOfferDraw(/** @type {Model} */ m, /** @type {GameState | null} */ st = m.state) {
  if (!st || st.status !== 'playing' || m.seats.length !== 1 || st.settings.mode !== 'friend') return false;
  return st.seats[other(m.seats[0])]?.kind === 'person';
}

/**
 * Whether the page's player may abort `st`: before each side has made its first move, and never
 * a tournament game (issue 52: its missed first move loses on time).
 */
export function canAbort(/** @type {Model} */ m, /** @type {GameState | null} */ st = m.state) {
  return Boolean(st && st.status === 'playing' && m.seats.length > 0 && st.moves.length < 2 && !m.replay && !st.settings.tournament);
}

/**
 * A side by its player's name where it has one, else by its colour (a translation key).
 * @returns {import('pages-types').SaidArg}
 */
export function sideName(/** @type {GameState} */ st, /** @type {Side} */ colour) {
  return st.players?.[colour]?.name || { t: colour === 'white' ? 'colour.White' : 'colour.Black' };
}

/**
 * The headline of a finished game: `{ key, args }`.
 * @returns {Said}
 */
export function headline(/** @type {Model} */ m, /** @type {GameState} */ st = /** @type {GameState} */ (m.state)) {
  if (st.end_reason === 'aborted') return { key: 'end.aborted' };
  if (st.result === '1/2-1/2') return { key: 'end.draw' };
  if (st.settings.mode !== 'local' && m.seats.length === 1) {
    return { key: m.seats[0] === st.winner ? 'end.youWin' : 'end.youLose' };
  }
  return { key: 'end.wins', args: { side: st.winner ? sideName(st, st.winner) : null } };
}

/**
 * Why a finished game ended: `[{ key, args }, …]`, said one after the other.
 * @returns {Said[]}
 */
export function reason(/** @type {GameState} */ st) {
  const sc = st.scores[/** @type {'largest' | 'product'} */ (st.settings.scoring)];
  switch (st.end_reason) {
    case 'resigned_white': return [{ key: 'end.resigned', args: { side: sideName(st, 'white') } }];
    case 'resigned_black': return [{ key: 'end.resigned', args: { side: sideName(st, 'black') } }];
    case 'declared': return [{ key: 'end.declared' }];
    case 'timeout_white': return [{ key: 'end.timeout', args: { side: sideName(st, 'white') } }];
    case 'timeout_black': return [{ key: 'end.timeout', args: { side: sideName(st, 'black') } }];
    case 'abandoned_white': return [{ key: 'end.abandoned', args: { side: sideName(st, 'white') } }];
    case 'abandoned_black': return [{ key: 'end.abandoned', args: { side: sideName(st, 'black') } }];
    case 'aborted': return [{ key: 'play.abortedText' }];
    case 'draw_agreed': return [{ key: 'play.drawAgreed' }];
    default: return [{ key: 'end.noMoves' }, { key: 'end.score', args: { white: sc.white, black: sc.black } }];
  }
}

// ---- Clocks ----------------------------------------------------------------------------------

/** When a clock shows as low on time: a tenth of the starting time, between 5 and 20 seconds. */
export function lowAt(/** @type {TimeControl | null | undefined} */ control) {
  if (!control) return 0;
  if ('days' in control) return control.days * 86400000 * 0.1;
  return Math.min(20000, Math.max(5000, control.initial_s * 100));
}

/** `side`'s time left at `now` (the page's clock): the running side counts down from the state. */
export function clockLeft(/** @type {Model} */ m, /** @type {Side} */ side, /** @type {number} */ now) {
  const c = m.state?.clock;
  if (!c) return 0;
  const base = side === 'white' ? c.white_ms : c.black_ms;
  if (m.state?.status !== 'playing' || c.running !== side) return base;
  return Math.max(0, base - (now - m.clockAt));
}

/** While a first move is awaited: the time left before the game is called off (ms), else null. */
export function abortIn(/** @type {Model} */ m, /** @type {number} */ now) {
  const c = m.state?.clock;
  if (!c || m.state?.status !== 'playing' || c.running || c.deadline === null || c.deadline === undefined) return null;
  return Math.max(0, c.deadline - c.now - (now - m.clockAt));
}

/** How long the opponent must be away on their turn before the win can be claimed (ms). */
export const CLAIM_AFTER_MS = 30000;

/**
 * In a real-time game whose opponent left on their turn: the time until the win can be claimed
 * (ms, 0: now), else null. The server decides; this only offers the button.
 */
export function claimIn(/** @type {Model} */ m, /** @type {number} */ now) {
  const st = m.state;
  if (!st || m.awaySince === null || st.status !== 'playing' || m.seats.length !== 1) return null;
  if (!st.clock || !('initial_s' in st.clock.control) || st.moves.length < 2) return null;
  if (st.to_move !== other(m.seats[0])) return null;
  return Math.max(0, m.awaySince + CLAIM_AFTER_MS - now);
}

/**
 * The pass in `st`'s legal moves (or one made up, should the list not have it).
 * @returns {BoardMove}
 */
export function passMove(/** @type {GameState} */ st) {
  return st.legal_moves.find((mv) => mv.notation === 'pass') || { notation: 'pass', from: null, to: null, slides: [], position: st.position };
}

/** The turn a scheduled forced pass belongs to. */
const turnOf = (/** @type {GameState} */ st) => `${st.moves.length}|${st.epoch}`;

/** Whether a forced pass of ours would be played by itself now. */
function autoPassDue(/** @type {Model} */ m) {
  const st = m.state;
  return Boolean(m.autoPass && st && st.status === 'playing' && isMyTurn(m) && st.must_pass
    && !m.pending && !m.animating && m.view === null);
}

/** Whether the page must redraw its clocks as time passes. */
export function clocksTick(/** @type {Model} */ m) {
  const c = m.state?.clock;
  return Boolean(c && m.state?.status === 'playing' && (c.running || (c.deadline !== null && c.deadline !== undefined) || m.awaySince !== null));
}

/**
 * The model with `awaySince` following whether the opponent's seat is connected in its state.
 * @returns {Model}
 */
function trackAway(/** @type {Model} */ m, /** @type {number} */ at) {
  const st = m.state;
  const away = Boolean(st && m.seats.length === 1 && st.settings.mode !== 'local'
    && st.seats[other(m.seats[0])]?.kind === 'person' && st.seats[other(m.seats[0])]?.connected === false);
  if (away === (m.awaySince !== null)) return m;
  return { ...m, awaySince: away ? at : null };
}

// ---- The state machine -----------------------------------------------------------------------

/**
 * The next model after `msg`, and the effects to carry out. An unchanged model is answered as the
 * same object, so the page knows it has nothing to redraw.
 */
export function update(/** @type {Model} */ m, /** @type {Msg} */ msg) {
  /** @type {Effect[]} */
  const fx = [];
  let n = step(m, msg, fx);
  n = settle(n, fx);
  n = timers(n, fx);
  return { model: n, effects: fx };
}

/**
 * @param {Model} m
 * @param {Msg} msg
 * @param {Effect[]} fx
 * @returns {Model}
 */
function step(m, msg, fx) {
  switch (msg.type) {
    case 'loaded': {
      let n = { ...m, token: msg.token ?? m.token, seats: msg.state.you || [] };
      if (n.flipped === null) n.flipped = n.seats.length === 1 && n.seats[0] === 'black';
      n = accept(n, msg.state, fx, { force: true, at: msg.at });
      if (!engineKept(n.state)) fx.push({ type: 'estimateDeal' });
      if (!m.replay) fx.push({ type: 'connect' });
      if (!m.replay && n.seats.length && n.state?.status === 'playing') fx.push({ type: 'focusBoard' });
      return n;
    }
    case 'failed':
      return { ...m, failure: msg.error };
    case 'server':
      return fromServer(m, msg.msg, msg.at, fx);
    case 'refetched':
      return accept(m, msg.state, fx, { force: true, at: msg.at });
    case 'conn':
      return msg.status === m.conn ? m : { ...m, conn: msg.status };
    case 'accuracy': {
      const n = { ...m, accuracy: accuracyOf(msg.state) ?? m.accuracy };
      if (!n.accuracy && m.accuracyAsks < ACCURACY_WAITS.length) {
        fx.push({ type: 'fetchAccuracy', ms: ACCURACY_WAITS[m.accuracyAsks] });
        n.accuracyAsks = m.accuracyAsks + 1;
      }
      return n;
    }
    case 'deal':
      return { ...m, deal: msg.p };
    case 'play':
      if (!isMyTurn(m) && canPremove(m) && msg.move?.from) return setPremove(m, msg.move, fx);
      return play(m, msg.move, fx);
    case 'cancelPremove':
      if (!m.premove) return m;
      fx.push({ type: 'announce', key: 'play.premoveCancelled' });
      return { ...m, premove: null };
    case 'typed':
      return typed(m, msg.text, fx);
    case 'played':
      return accept({ ...m, pending: false }, msg.state, fx, { at: msg.at });
    case 'playFailed': {
      if (!m.state) return m;
      fx.push({ type: 'toast', error: msg.error, kind: 'error' });
      if (['stale_state', 'not_your_turn'].includes(msg.error.code ?? '')) fx.push({ type: 'refetch' });
      return { ...m, pending: false, optimistic: null, shown: { count: m.state.moves.length, epoch: m.state.epoch } };
    }
    case 'act':
      // Taking back against the engine or at one screen drops what we showed ahead of the server.
      fx.push({ type: 'request', action: msg.action, side: msg.side, ok: msg.ok });
      return msg.action === 'undo' ? { ...m, optimistic: null } : m;
    case 'acted':
      if (msg.ok) fx.push({ type: 'toast', key: msg.ok });
      return accept(m, msg.state, fx, { at: msg.at });
    case 'actFailed':
      fx.push({ type: 'toast', error: msg.error, kind: 'error' });
      return m;
    case 'resign':
      if (!m.state || m.state.status !== 'playing' || !m.state.to_move) return m;
      fx.push({ type: 'confirmResign', local: m.state.settings.mode === 'local', side: m.state.to_move });
      return m;
    case 'askHint':
      fx.push({ type: 'askHint' });
      return m;
    case 'hinted': {
      const n = accept(m, msg.state, fx, { at: msg.at });
      const best = msg.analysis.moves[0];
      if (best) fx.push({ type: 'announce', key: 'game.hintAnnounce', args: { move: best.move } });
      return { ...n, hint: { count: msg.state.moves.length, analysis: msg.analysis } };
    }
    case 'animated': {
      if (!m.state) return m;
      const n = { ...m, animating: false };
      if (msg.purpose === 'view') return n;
      if (msg.purpose === 'own') {
        const count = m.optimistic ? m.optimistic.count : Math.min(msg.count, m.state.moves.length);
        return { ...n, shown: { count, epoch: m.state.epoch } };
      }
      return { ...n, shown: { count: msg.count, epoch: msg.epoch ?? m.state.epoch } };
    }
    case 'view':
      return setView(m, msg.view, fx);
    case 'step':
      return m.state ? setView(m, current(/** @type {Loaded} */ (m)) + msg.by, fx) : m;
    case 'end':
      return m.state ? setView(m, m.replay ? m.state.moves.length : null, fx) : m;
    case 'autoplay':
      if (!m.state) return m;
      if (m.autoplay) {
        fx.push({ type: 'autoplay', on: false });
        return { ...m, autoplay: false };
      } else {
        fx.push({ type: 'autoplay', on: true });
        const n = { ...m, autoplay: true };
        return m.view === null || m.view >= m.state.moves.length ? setView(n, 0, fx) : n;
      }
    case 'autoplayTick':
      if (!m.autoplay || !m.state) return m;
      if (m.view === null || m.view >= m.state.moves.length) {
        fx.push({ type: 'autoplay', on: false });
        return { ...m, autoplay: false };
      }
      return setView(m, m.view + 1, fx);
    case 'preview':
      return m.preview === msg.move ? m : { ...m, preview: msg.move };
    case 'groups':
      fx.push({ type: 'saveGroups', on: msg.on });
      return { ...m, showGroups: msg.on };
    case 'hints':
      return { ...m, hintsOn: msg.on };
    case 'flip':
      return { ...m, flipped: !m.flipped };
    case 'clockTick':
      return lowTime(m, msg.at, fx);
    case 'autoPass':
      fx.push({ type: 'saveAutoPass', on: msg.on });
      return { ...m, autoPass: msg.on };
    case 'autoPassDue':
      // Played only if it is still due in the turn it was scheduled for; if not (the player
      // looks back at a move meanwhile), it is scheduled again once it is due.
      if (m.autoPassTurn !== msg.turn) return m;
      if (!m.state || !autoPassDue(m) || turnOf(m.state) !== msg.turn) return { ...m, autoPassTurn: null };
      return play(m, passMove(m.state), fx);
    default:
      return m;
  }
}

/** A message of the live channel. */
function fromServer(/** @type {Model} */ m, /** @type {import('api-types').GameMessage} */ msg, /** @type {number} */ at, /** @type {Effect[]} */ fx) {
  switch (msg.type) {
    case 'sync':
      return accept(msg.you ? { ...m, seats: msg.you } : m, msg.state, fx, { force: true, at });
    case 'move':
    case 'undo':
    case 'end':
    case 'update':
      return accept(m, msg.state, fx, { at, msg });
    case 'presence':
      if (!m.state) return m;
      return trackAway({ ...m, state: { ...m.state, seats: msg.seats, spectators: msg.spectators } }, at);
    case 'error':
      if (msg.code !== 'token_invalid') return m;
      fx.push({ type: 'forgetSeat' });
      return { ...m, seats: [], token: null };
    default:
      return m;
  }
}

/**
 * Whether state `a` is at least as new as `b`. The stored version orders them: an answer to our
 * own move can arrive after the socket's later news of the same game (the ratings of the game
 * that move ended, a draw offer), whose moves and time are the same.
 */
export function newer(/** @type {GameState} */ a, /** @type {GameState | null} */ b) {
  if (!b) return true;
  if (a.epoch !== b.epoch) return a.epoch > b.epoch;
  if (a.moves.length !== b.moves.length) return a.moves.length > b.moves.length;
  if (typeof a.version === 'number' && typeof b.version === 'number' && a.version !== b.version) return a.version > b.version;
  return a.updated_at >= b.updated_at;
}

/**
 * A game over stays over unless moves were taken back (a new epoch): a state that says it is
 * being played again with the same moves is a stale copy, of which only what may still change
 * after the end (the ratings, the rematch, who is connected) is taken.
 */
function keepEnded(/** @type {GameState | null} */ prev, /** @type {GameState} */ next) {
  if (!prev || prev.status !== 'finished' || next.status !== 'playing') return next;
  if (next.epoch !== prev.epoch || next.moves.length !== prev.moves.length) return next;
  return { ...prev, players: next.players, rematch: next.rematch ?? prev.rematch, seats: next.seats, spectators: next.spectators, updated_at: next.updated_at };
}

/**
 * The players' accuracy a state carries (a finished rated game's HTTP state, once analysed), or
 * null.
 */
export function accuracyOf(/** @type {GameState | null | undefined} */ st) {
  const white = st?.players?.white?.accuracy ?? null;
  const black = st?.players?.black?.accuracy ?? null;
  return st && st.status === 'finished' && (white || black) ? { white, black } : null;
}

/** Takes a state from the server (an answer or a message), unless it is older than ours. */
/**
 * @param {Model} m
 * @param {GameState | null | undefined} incoming
 * @param {Effect[]} fx
 * @param {{ force?: boolean, at?: number, msg?: import('api-types').GameMessage | null }} [options]
 * @returns {Model}
 */
function accept(m, incoming, fx, { force = false, at = m.clockAt, msg = null } = {}) {
  if (!incoming || (!force && !newer(incoming, m.state))) return m;
  const prev = m.state;
  const next = keepEnded(prev, incoming);
  let n = { ...m, state: next, clockAt: at };
  // A finished rated game's accuracy (issue 51): from an HTTP state that has it, else asked for.
  const accuracy = accuracyOf(incoming);
  if (accuracy) n.accuracy = accuracy;
  else if (next.status === 'finished' && next.rated && !n.accuracy && n.accuracyAsks < 0) {
    fx.push({ type: 'fetchAccuracy', ms: ACCURACY_WAITS[0] });
    n.accuracyAsks = 1;
  }
  if (prev && prev.to_move !== next.to_move) n.lowAnnounced = false;
  if (n.premove && prev && next.epoch !== prev.epoch) n.premove = null;
  if (prev && prev.id === next.id) news(n, prev, next, msg, fx);
  if (next.status === 'finished' && !n.autoplay && n.replay && n.view === null) n.view = next.moves.length;
  if (prev && prev.status === 'playing' && next.status === 'finished' && !n.replay) fx.push({ type: 'showEnd', later: true });
  // The engine comes back once a rated game is over (fair play).
  if (prev && prev.id === next.id && engineKept(prev) && !engineKept(next) && n.deal === null) fx.push({ type: 'estimateDeal' });
  if (next.settings.mode === 'friend' && n.seats.length && next.seats[other(n.seats[0])]?.claimed) fx.push({ type: 'forgetJoin' });
  if (!n.replay) fx.push({ type: 'playing', id: n.seats.length && next.status === 'playing' ? n.id : null });
  return trackAway(n, at);
}

/**
 * Under this much time left (ms) on your own clock, the low-time sound plays (once a game; on the
 * shortest clocks, whose low-time mark is lower, from that mark).
 */
export const LOW_SOUND_MS = 10000;

/**
 * The sound of the moves from `prev` to `next`: `lead` when the last mover took the lead (their
 * largest group, none before larger than the opponent's, now is larger), else `move`; none
 * without a new move.
 * @returns {import('pages-types').Sound | null}
 */
export function moveSound(/** @type {GameState} */ prev, /** @type {GameState} */ next) {
  if (next.epoch !== prev.epoch || next.moves.length <= prev.moves.length) return null;
  const mover = next.moves[next.moves.length - 1].side;
  const before = prev.scores.largest;
  const after = next.scores.largest;
  const took = before[mover] <= before[other(mover)] && after[mover] > after[other(mover)];
  return took ? 'lead' : 'move';
}

/** What screen readers and toasts say about a change, and the sounds it makes. */
/**
 * @param {Model} m
 * @param {GameState} prev
 * @param {GameState} next
 * @param {import('api-types').GameMessage | null} msg
 * @param {Effect[]} fx
 */
function news(m, prev, next, msg, fx) {
  if (!m.replay) {
    const sound = next.status === 'finished' && prev.status === 'playing' ? 'end' : moveSound(prev, next);
    if (sound) fx.push({ type: 'sound', kind: sound });
  }
  if (next.epoch !== prev.epoch) {
    fx.push({ type: 'announce', key: 'announce.undone' }, { type: 'toast', key: 'announce.undone' });
    return;
  }
  for (const mv of next.moves.slice(prev.moves.length)) {
    const side = { t: mv.side === 'white' ? 'colour.White' : 'colour.Black' };
    if (mv.notation === 'pass') {
      const mine = m.seats.includes(mv.side) && next.settings.mode !== 'local';
      const key = mine ? 'announce.youPass' : 'announce.pass';
      fx.push({ type: 'toast', key, args: { side } }, { type: 'announce', key, args: { side } });
    } else {
      fx.push({ type: 'announce', key: 'announce.move', args: { side, move: mv.notation, n: Math.max(0, mv.slides.length - 1) } });
    }
  }
  if (next.status === 'playing' && isMyTurn(m, next) && !isMyTurn(m, prev)) {
    fx.push({ type: 'announce', key: next.must_pass ? 'status.mustPass' : 'status.yourTurn', later: true });
  }
  if (msg && msg.type === 'update' && msg.reason === 'joined') fx.push({ type: 'toast', key: 'game.friendJoined' });
  // A draw offered to us, or our offer declined: said aloud and shown.
  if (next.status === 'playing' && next.draw_offer && next.draw_offer !== prev.draw_offer && m.seats.length === 1
    && next.draw_offer !== m.seats[0]) {
    fx.push({ type: 'announce', key: 'play.drawOfferedToYou' }, { type: 'toast', key: 'play.drawOfferedToYou' });
  }
  if (msg && msg.type === 'update' && msg.reason === 'draw_declined' && m.seats.length === 1 && prev.draw_offer === m.seats[0]) {
    fx.push({ type: 'announce', key: 'play.drawDeclined' }, { type: 'toast', key: 'play.drawDeclined' });
  }
  if (msg && msg.type === 'update' && msg.reason === 'undo_offered' && next.undo_offer && !m.seats.includes(next.undo_offer.by) && m.seats.length) {
    fx.push({ type: 'toast', key: 'game.undoOffered' });
  }
  if (next.status === 'finished' && prev.status === 'playing') {
    const head = headline(m, next);
    fx.push({ type: 'announce', key: head.key, args: head.args });
  }
}

/**
 * Plays `move` (a push from the board, a pass, a typed move): shown at once, sent meanwhile.
 * @returns {Model}
 */
function play(/** @type {Model} */ m, /** @type {BoardMove} */ move, /** @type {Effect[]} */ fx) {
  const st = m.state;
  if (!st || !isMyTurn(m) || m.pending) return m;
  const number = st.moves.length + 1;
  const n = { ...m, pending: true, notationError: null, preview: null };
  if (move.from) {
    n.optimistic = { move, count: number };
    n.animating = true;
    const count = number - 1;
    fx.push({ type: 'animate', purpose: 'own', move, before: positionAt(st, count), last: lastPush(st, count), count: number, epoch: st.epoch });
  }
  fx.push({ type: 'send', move: move.notation, number });
  return n;
}

/**
 * A move typed in the notation box.
 * @returns {Model}
 */
function typed(/** @type {Model} */ m, /** @type {string} */ raw, /** @type {Effect[]} */ fx) {
  const text = raw.trim().toLowerCase().replace(/\s+/g, '');
  const refuse = (/** @type {string} */ key, /** @type {Said['args']} */ args = undefined) => ({ ...m, notationError: { key, args } });
  if (!text) return m.notationError ? { ...m, notationError: null } : m;
  if (!m.state) return m;
  if (!isMyTurn(m)) return refuse(m.state.status === 'finished' ? 'error.game_over' : 'game.notation.notYourTurn');
  if (!/^(pass|[a-h][1-8]-[a-h][1-8])$/.test(text)) return refuse('game.notation.bad', { text: raw.trim() });
  const move = m.state.legal_moves.find((mv) => mv.notation === text);
  if (!move) return refuse('game.notation.illegal', { text });
  fx.push({ type: 'clearNotation' });
  const n = m.view !== null ? setView({ ...m, notationError: null }, null, fx) : { ...m, notationError: null };
  return play(n, move, fx);
}

/**
 * Looks at move number `v` (null: the live position); one step forward rolls the marbles.
 * @returns {Model}
 */
function setView(/** @type {Model} */ m, /** @type {number | null} */ v, /** @type {Effect[]} */ fx) {
  if (!m.state) return m;
  const count = m.state.moves.length;
  if (v !== null) v = Math.max(0, Math.min(count, v));
  if (v === count && !m.replay) v = null;
  const from = m.view === null ? count : m.view;
  const to = v === null ? count : v;
  const n = { ...m, view: v };
  if (to === from + 1 && !m.animating) {
    n.animating = true;
    fx.push({ type: 'animate', purpose: 'view', move: m.state.moves[from], before: positionAt(m.state, from), last: lastPush(m.state, from), count: to });
  }
  return n;
}

/** Chooses `move` as the premove (the board offered it on the opponent's turn). */
function setPremove(/** @type {Model} */ m, /** @type {BoardMove} */ move, /** @type {Effect[]} */ fx) {
  if (!move.from || !move.to) return m;
  const premove = { notation: move.notation, from: move.from, to: move.to };
  fx.push({ type: 'announce', key: 'play.premoveSet', args: { move: move.notation } });
  return { ...m, premove, preview: null };
}

/**
 * Once the opponent has moved (and the board has shown it): the premove is played if the new
 * position allows it, else dropped with a quiet notice. A game that ended, or moves taken back,
 * drop it silently.
 * @returns {Model}
 */
function firePremove(/** @type {Model} */ m, /** @type {Effect[]} */ fx) {
  if (!m.premove || !m.state || m.animating) return m;
  const st = m.state;
  if (st.status !== 'playing' || m.seats.length !== 1) return { ...m, premove: null };
  if (!isMyTurn(m) || m.pending || m.view !== null) return m;
  const notation = m.premove.notation;
  const legal = st.legal_moves.find((mv) => mv.notation === notation);
  const n = { ...m, premove: null };
  if (!legal) {
    const args = { move: m.premove.notation };
    fx.push({ type: 'toast', key: 'play.premoveDropped', args }, { type: 'announce', key: 'play.premoveDropped', args });
    return n;
  }
  return play(n, legal, fx);
}

/**
 * After every message: a confirmed own move is no longer shown ahead of the server, and moves
 * the board has not shown yet are rolled in one at a time (a few at most; more, or an undo, and
 * the board jumps); then a premove whose turn has come is played.
 */
function settle(/** @type {Model} */ m, /** @type {Effect[]} */ fx) {
  return firePremove(settleMoves(m, fx), fx);
}

/** @returns {Model} */
function settleMoves(/** @type {Model} */ m, /** @type {Effect[]} */ fx) {
  const st = m.state;
  if (!st || m.animating) return m;
  let n = m;
  if (n.optimistic && st.moves.length >= n.optimistic.count) n = { ...n, optimistic: null };
  if (n.view !== null || n.optimistic) return n;
  const count = st.moves.length;
  const epoch = st.epoch;
  let shown = n.shown.count;
  if (n.shown.epoch === epoch && count > shown && count - shown <= ROLL_AT_MOST) {
    while (shown < count && !st.moves[shown].from) shown += 1; // a pass moves nothing
    if (shown < count) {
      fx.push({ type: 'animate', purpose: 'live', move: st.moves[shown], before: positionAt(st, shown), last: lastPush(st, shown), count: shown + 1, epoch });
      return { ...n, animating: true, shown: { count: shown, epoch } };
    }
  }
  if (n.shown.count !== count || n.shown.epoch !== epoch) n = { ...n, shown: { count, epoch } };
  return n;
}

/**
 * After every message: the timers the model wants. The clocks tick while one runs; a forced pass
 * is scheduled once per turn (with the setting on) and called off when the turn has passed.
 */
function timers(/** @type {Model} */ m, /** @type {Effect[]} */ fx) {
  let n = m;
  const ticking = clocksTick(n);
  if (ticking !== n.ticking) {
    fx.push({ type: 'ticking', on: ticking });
    n = { ...n, ticking };
  }
  const turn = n.state ? turnOf(n.state) : null;
  if (autoPassDue(n)) {
    if (n.autoPassTurn !== turn) {
      fx.push({ type: 'autoPassTimer', turn, ms: AUTO_PASS_MS });
      n = { ...n, autoPassTurn: turn };
    }
  } else if (n.autoPassTurn !== null && n.autoPassTurn !== turn) {
    fx.push({ type: 'autoPassTimer', turn: null });
    n = { ...n, autoPassTurn: null };
  }
  return n;
}

/**
 * Says once per turn that your own clock runs low, and sounds once a game under 10 seconds.
 * @returns {Model}
 */
function lowTime(/** @type {Model} */ m, /** @type {number} */ at, /** @type {Effect[]} */ fx) {
  const c = m.state?.clock;
  if (!c || m.seats.length !== 1 || m.state?.status !== 'playing') return m;
  const side = m.seats[0];
  if (c.running !== side) return m;
  const left = clockLeft(m, side, at);
  // Under 10 seconds, or the low-time mark of the shortest clocks where that is lower.
  const sound = !m.lowSounded && left < Math.min(LOW_SOUND_MS, lowAt(c.control)) && !('days' in c.control);
  if (sound) m = { ...m, lowSounded: true };
  if (m.lowAnnounced || left > lowAt(c.control)) {
    if (sound) fx.push({ type: 'sound', kind: 'low' });
    return m;
  }
  // Said and sounded at once: one effect.
  fx.push({ type: 'announceLow', ms: left, days: 'days' in c.control, sound });
  return { ...m, lowAnnounced: true };
}
