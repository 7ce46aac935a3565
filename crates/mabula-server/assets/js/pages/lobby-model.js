// The lobby's state machine, built like the game page's (game-model.js): one model,
// `update(model, message)` answering the next model and the effects to carry out, and the
// questions the page's `render(model)` asks. Nothing here touches the page, the network or the
// clock: the page (pages/lobby.js) turns the lobby's socket, the clicks and its timer into
// messages, carries out the effects (requests, toasts, the timer) and feeds their results back.

/**
 * The clocks of the quick pairing buttons and the presets of the form, as [initial_s, increment_s].
 * @type {Preset[]}
 */
export const PRESETS = [[60, 1], [180, 2], [300, 3], [600, 5]];
/** How often the games where it is your turn are read again (a turn message also does it). */
export const TURN_EVERY_MS = 60000;
/** A rating nobody has yet: the one a new account starts with. */
const UNRATED = 1500;

/**
 * @typedef {import('api-types').Seek} Seek
 * @typedef {import('api-types').RatingRow} RatingRow
 * @typedef {import('api-types').GameState} GameState
 * @typedef {import('api-types').SeekRequest} SeekRequest
 * @typedef {import('pages-types').LobbyMsg} Msg
 * @typedef {import('pages-types').LobbyEffect} Effect
 * @typedef {[number, number]} Preset
 */

/**
 * The model of the lobby, with the feed's seeks and status as they are when it opens.
 * @param {{ me?: string | null, seeks?: Seek[] | null, conn?: import('pages-types').SocketStatus, quickScoring?: string }} [options]
 */
export function init({ me = null, seeks = null, conn = 'offline', quickScoring = 'largest' } = {}) {
  return {
    /** The logged-in account's name (null: a guest, who may look but not seek). */
    me,
    /** The open seeks and challenges (null until the socket's first list). */
    seeks,
    /** The lobby socket: connecting, online, reconnecting, offline. */
    conn,
    /** Your ratings (null until read: every rating counts as 1500 meanwhile). */
    ratings: /** @type {RatingRow[] | null} */ (null),
    /** The real-time seeks opened on this page: withdrawn when it goes away. */
    openedHere: /** @type {string[]} */ ([]),
    /** Your games where it is your turn (null until read). */
    turnGames: /** @type {GameState[] | null} */ (null),
    /** The scoring of the quick pairing buttons. */
    quickScoring,
    /** A quick pairing under way: the clock, and the seeks still to try before opening one. */
    quick: /** @type {{ preset: Preset, left: string[] } | null} */ (null),
  };
}

/** @typedef {ReturnType<typeof init>} Model */

// ---- Questions about the model ---------------------------------------------------------------

/**
 * Whether `name` is the logged-in account (names are unique ignoring case).
 * @param {Model} m
 * @param {string | null | undefined} name
 */
export function isMine(m, name) {
  return Boolean(m.me && name && m.me.toLowerCase() === String(name).toLowerCase());
}

/**
 * Your rating for a kind of game.
 * @param {Model} m
 * @param {string} scoring
 * @param {string} speed
 */
export function myRating(m, scoring, speed) {
  const r = m.ratings?.find((x) => x.scoring === scoring && x.speed === speed);
  return r ? r.rating : UNRATED;
}

/**
 * Whether your rating is in the seek's range.
 * @param {Model} m
 * @param {Seek} seek
 */
export function fits(m, seek) {
  const r = myRating(m, seek.scoring, seek.speed);
  return !((seek.rating_min !== null && seek.rating_min !== undefined && r < seek.rating_min)
    || (seek.rating_max !== null && seek.rating_max !== undefined && r > seek.rating_max));
}

/**
 * Whether a clock control is the preset `[initial, increment]`.
 * @param {import('api-types').TimeControl} control
 * @param {Preset} preset
 */
export const sameClock = (control, [i, inc]) => Boolean(control && 'initial_s' in control && control.initial_s === i && control.increment_s === inc);

/**
 * Shortest first; correspondence last.
 * @param {Seek} seek
 */
function sortKey(seek) {
  const c = seek.control;
  return 'days' in c ? 1e9 + c.days : c.initial_s + 40 * c.increment_s;
}

/**
 * The open seeks of others as you would look for a game: those you may take first, then those of
 * settled ratings (a flood of new accounts sinks to the bottom), then the nearest your rating,
 * then the shortest clock.
 * @param {Model} m
 */
export function openSeeks(m) {
  const distance = (/** @type {Seek} */ s) => Math.abs(s.rating - myRating(m, s.scoring, s.speed));
  return (m.seeks || []).filter((s) => !s.to && !isMine(m, s.name)).sort((a, b) =>
    Number(fits(m, b)) - Number(fits(m, a))
    || Number(a.provisional) - Number(b.provisional)
    || distance(a) - distance(b)
    || sortKey(a) - sortKey(b));
}

/**
 * Your own seeks and the challenges you sent.
 * @param {Model} m
 */
export function mySeeks(m) {
  return (m.seeks || []).filter((s) => isMine(m, s.name));
}

/**
 * The challenges sent to you.
 * @param {Model} m
 */
export function challengesToMe(m) {
  return (m.seeks || []).filter((s) => s.to && isMine(m, s.to));
}

/**
 * Your seek waiting for a quick pairing on `preset`, if any.
 * @param {Model} m
 * @param {Preset} preset
 */
export function quickWaiting(m, preset) {
  return (m.seeks || []).find((s) => isMine(m, s.name) && !s.to && s.scoring === m.quickScoring && s.rated && sameClock(s.control, preset)) || null;
}

/**
 * The kind of game a preset makes (a translation key).
 * @param {Preset} preset
 */
export function speedName([i, inc]) {
  const estimate = i + 40 * inc;
  if (estimate < 180) return 'lobby.bullet';
  if (estimate < 480) return 'lobby.blitz';
  return 'lobby.rapid';
}

/**
 * The request body of the seek form's values, or `{ error }` (a translation key) when they do
 * not make one. `v.time` is a preset (`180+2`), `custom` or `days`.
 * @param {Model} m
 * @param {import('pages-types').SeekForm} v
 * @returns {{ body: SeekRequest } | { error: string, field?: string }}
 */
export function seekBody(m, v) {
  if (!m.me) return { error: 'lobby.loginFirst' };
  /** @type {SeekRequest} */
  const body = { scoring: v.scoring, rated: v.rated === 'rated', color: v.color };
  if (v.time === 'days') body.days = v.days;
  else if (v.time === 'custom') body.clock = { initial_s: v.initial, increment_s: v.increment };
  else {
    const [i, inc] = v.time.split('+').map(Number);
    body.clock = { initial_s: i, increment_s: inc };
  }
  const lo = v.min === '' ? null : Number(v.min);
  const hi = v.max === '' ? null : Number(v.max);
  if ((lo !== null && !Number.isInteger(lo)) || (hi !== null && !Number.isInteger(hi))) return { error: 'lobby.rangeBad' };
  if (lo !== null && hi !== null && lo > hi) return { error: 'lobby.rangeOrder' };
  if (lo !== null) body.rating_min = lo;
  if (hi !== null) body.rating_max = hi;
  // People who asked not to meet bots (issue 38); the server's default lets bots in.
  if (v.noBots) body.bots = false;
  if (v.to) {
    if (isMine(m, v.to)) return { error: 'lobby.notYourself', field: 'to' };
    body.to = v.to;
  }
  return { body };
}

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

/** The model without seek `id` (it was taken, withdrawn or declined). */
function without(/** @type {Model} */ m, /** @type {string} */ id) {
  return { ...m, seeks: (m.seeks || []).filter((s) => s.id !== id), openedHere: m.openedHere.filter((x) => x !== id) };
}

/**
 * @param {Model} m
 * @param {Msg} msg
 * @param {Effect[]} fx
 * @returns {Model}
 */
function step(m, msg, fx) {
  switch (msg.type) {
    case 'start':
      fx.push({ type: 'every', ms: TURN_EVERY_MS });
      return m;
    case 'session': {
      // The session is known: a player's turns, ratings, and a challenge the address asks for.
      const n = { ...m, me: msg.me };
      if (!n.me) return { ...n, turnGames: null };
      fx.push({ type: 'loadTurn' }, { type: 'loadRatings', name: n.me });
      if (msg.challenge) fx.push({ type: 'fillChallenge', name: msg.challenge });
      return n;
    }
    case 'ratings':
      return { ...m, ratings: msg.ratings };
    case 'seeks': {
      // A seek of ours that left the list was taken or lapsed: it is no longer ours to withdraw.
      const ids = new Set(msg.seeks.map((s) => s.id));
      return { ...m, seeks: msg.seeks, openedHere: m.openedHere.filter((id) => ids.has(id)) };
    }
    case 'status':
      return msg.status === m.conn ? m : { ...m, conn: msg.status };
    case 'turn':
    case 'game':
      if (m.me) fx.push({ type: 'loadTurn' });
      return m;
    case 'tick':
      // The timer: a hidden page does not ask.
      if (m.me && !msg.hidden) fx.push({ type: 'loadTurn' });
      return m;
    case 'turnLoaded':
      return { ...m, turnGames: msg.games };
    case 'quickScoring':
      fx.push({ type: 'savePrefs', quickScoring: msg.scoring });
      return { ...m, quickScoring: msg.scoring };
    case 'quick':
      return quick(m, msg.preset, fx);
    case 'accept':
      fx.push({ type: 'accept', id: msg.id });
      return m;
    case 'accepted':
      fx.push({ type: 'goToGame', id: msg.gameId });
      return { ...m, quick: null };
    case 'acceptFailed':
      return acceptFailed(m, msg.id, msg.error, fx);
    case 'submit': {
      const sought = seekBody(m, msg.values);
      fx.push('body' in sought ? { type: 'open', body: sought.body, quiet: false } : { type: 'formError', key: sought.error, field: sought.field });
      return m;
    }
    case 'openFailed':
      fx.push(msg.quiet ? { type: 'toast', error: msg.error, kind: 'error' } : { type: 'formError', error: msg.error });
      return { ...m, quick: null };
    case 'opened': {
      const seek = msg.seek;
      const n = { ...m, quick: null, seeks: (m.seeks || []).some((s) => s.id === seek.id) ? m.seeks : [...(m.seeks || []), seek] };
      if (!seek.to && seek.speed === 'realtime') n.openedHere = [...m.openedHere, seek.id];
      if (msg.quiet) fx.push({ type: 'announce', key: 'lobby.seekOpened' });
      else {
        const said = seek.to ? { key: 'lobby.challengeSent', args: { name: seek.to } } : { key: 'lobby.seekOpened' };
        fx.push({ type: 'toast', ...said }, { type: 'announce', ...said }, { type: 'formSent' });
      }
      return n;
    }
    case 'withdraw':
      fx.push({ type: 'cancel', id: msg.id, said: { key: 'lobby.withdrawn' } });
      return m;
    case 'decline':
      fx.push({ type: 'cancel', id: msg.id, said: { key: 'lobby.declined', args: { name: msg.name } } });
      return m;
    case 'cancelled':
      fx.push({ type: 'announce', ...msg.said });
      return without(m, msg.id);
    case 'cancelFailed':
      fx.push({ type: 'toast', error: msg.error, kind: 'error' });
      return m;
    case 'leave':
      // Another page of the site is shown: what is still open here is withdrawn.
      fx.push({ type: 'stopTimer' });
      if (m.openedHere.length) fx.push({ type: 'withdrawStill', ids: m.openedHere });
      return { ...m, openedHere: [] };
    default:
      return m;
  }
}

/**
 * Quick pairing: accept a matching open seek if there is one, else open one and wait.
 * @returns {Model}
 */
function quick(/** @type {Model} */ m, /** @type {Preset} */ preset, /** @type {Effect[]} */ fx) {
  if (!m.me) {
    fx.push({ type: 'toast', key: 'lobby.loginFirst', kind: 'error' });
    return m;
  }
  const waiting = quickWaiting(m, preset);
  if (waiting) {
    fx.push({ type: 'cancel', id: waiting.id, said: { key: 'lobby.withdrawn' } });
    return m;
  }
  if (m.quick) return m;
  const left = openSeeks(m).filter((s) => s.rated && s.scoring === m.quickScoring
    && sameClock(s.control, preset) && fits(m, s)).map((s) => s.id);
  return tryNext({ ...m, quick: { preset, left } }, fx);
}

/** The next seek a quick pairing tries, or the seek it opens when none is left. */
function tryNext(/** @type {Model} */ m, /** @type {Effect[]} */ fx) {
  if (!m.quick) return m;
  const [next, ...rest] = m.quick.left;
  const preset = m.quick.preset;
  if (next) fx.push({ type: 'accept', id: next });
  else fx.push({ type: 'open', quiet: true, body: { scoring: m.quickScoring, rated: true, clock: { initial_s: preset[0], increment_s: preset[1] }, color: 'random' } });
  return { ...m, quick: { preset, left: rest } };
}

/** A seek could not be taken: gone (someone was quicker), or refused. */
function acceptFailed(/** @type {Model} */ m, /** @type {string} */ id, /** @type {import('pages-types').RequestError} */ error, /** @type {Effect[]} */ fx) {
  const gone = error.code === 'seek_not_found' || error.code === 'seek_not_for_you';
  if (m.quick) {
    // A quick pairing goes on with the next seek; another failure ends it.
    if (gone) return tryNext(m, fx);
    fx.push({ type: 'toast', error, kind: 'error' });
    return { ...m, quick: null };
  }
  fx.push(error.code === 'seek_not_found' ? { type: 'toast', key: 'lobby.gone', kind: 'error' } : { type: 'toast', error, kind: 'error' });
  return without(m, id);
}
