// The tournament page's state machine (`/tournament/{id}`, issue 37), built like the lobby's
// (lobby-model.js): one model, `update(model, message)` answering the next model and the effects
// to carry out, and the questions `render(model)` asks. Nothing here touches the page, the
// network or the clock: pages/tournament.js turns the tournament's socket, the clicks and a
// one-second timer into messages and carries out the effects. The creation form's checks
// (`createBody`) live here too, for pages/tournaments.js.

/**
 * @typedef {import('api-types').TournamentView} Tournament
 * @typedef {import('api-types').StandingView} Standing
 * @typedef {import('api-types').TournamentGameView} TourGame
 * @typedef {import('api-types').PairingView} Pairing
 */

/**
 * The model of a tournament's page.
 * @param {{ id: string, me?: string | null, now?: number }} options
 */
export function init({ id, me = null, now = 0 }) {
  return {
    id,
    /** The logged-in account's name (null: a guest, who may watch). */
    me,
    /** The tournament as last received (null until the first answer). */
    tour: /** @type {Tournament | null} */ (null),
    /** Why the tournament could not be read. */
    failure: /** @type {any} */ (null),
    /** The tournament's socket: connecting, online, reconnecting, offline. */
    conn: 'connecting',
    /** The clock of the countdowns (ms), moved by the page's timer. */
    now,
    /** A join, withdrawal or start under way. */
    busy: /** @type {string | null} */ (null),
    /** The last refusal of an action: `{ action, error }`. */
    refused: /** @type {{ action: string, error: any } | null} */ (null),
    /** The game the socket said began for you. */
    called: /** @type {string | null} */ (null),
  };
}

/** @typedef {ReturnType<typeof init>} Model */

// ---- Questions about the model ---------------------------------------------------------------

/** Names are unique ignoring case. */
export const same = (/** @type {string | null | undefined} */ a, /** @type {string | null | undefined} */ b) =>
  Boolean(a && b && a.toLowerCase() === b.toLowerCase());

/**
 * Your line in the standings (withdrawn or not), if you joined.
 * @param {Model} m
 */
export function myStanding(m) {
  return m.tour?.standings.find((s) => same(s.name, m.me)) || null;
}

/**
 * Whether you are in the tournament (joined and not withdrawn).
 * @param {Model} m
 */
export function joined(m) {
  const s = myStanding(m);
  return Boolean(s && !s.withdrawn);
}

/**
 * Whether you paused in an arena (yourself, or by missing a game's first move).
 * @param {Model} m
 */
export function paused(m) {
  return Boolean(joined(m) && myStanding(m)?.paused);
}

/**
 * Whether you may join now: logged in, not in it (or paused), and it has not finished.
 * @param {Model} m
 */
export function canJoin(m) {
  return Boolean(m.me && m.tour && m.tour.status !== 'finished' && (!joined(m) || paused(m)));
}

/**
 * Whether you created it and may start it at once (before its start time).
 * @param {Model} m
 */
export function canStart(m) {
  return Boolean(m.tour && m.tour.status === 'created' && same(m.tour.created_by, m.me));
}

/**
 * What the countdown shows: `{ key, ms }` (a translation key and the milliseconds left), or null.
 * Before the start: the time to it; a running arena: the time left.
 * @param {Model} m
 */
export function countdown(m) {
  const tour = m.tour;
  if (!tour) return null;
  if (tour.status === 'created') return { key: 'tour.startsIn', ms: Math.max(0, tour.starts_at - m.now) };
  if (tour.status === 'running' && tour.settings.format === 'arena' && tour.ends_at) {
    return { key: 'tour.timeLeft', ms: Math.max(0, tour.ends_at - m.now) };
  }
  return null;
}

/**
 * The phase in words: a translation key and its parameters.
 * @param {Model} m
 * @returns {{ key: string, args?: import('pages-types').Params }}
 */
export function phase(m) {
  const tour = m.tour;
  if (!tour) return { key: 'tour.loading' };
  if (tour.status === 'created') return { key: tour.starts_at <= m.now ? 'tour.startingNow' : 'tour.upcoming' };
  if (tour.status === 'finished') return { key: 'tour.finished' };
  if (tour.settings.format === 'swiss') {
    return tour.round > 0 ? { key: 'tour.roundOf', args: { n: tour.round, of: tour.settings.rounds ?? tour.round } } : { key: 'tour.running' };
  }
  return { key: 'tour.running' };
}

/**
 * The games of the tournament you are playing now (a duplicate match played at once has two).
 * @param {Model} m
 * @returns {TourGame[]}
 */
export function myGames(m) {
  if (!m.tour || !m.me || m.tour.status !== 'running') return [];
  const out = [];
  for (const round of m.tour.rounds) {
    for (const p of round.pairings) {
      for (const g of p.games) {
        if (g.result === '*' && (same(g.white, m.me) || same(g.black, m.me))) out.push(g);
      }
    }
  }
  return out;
}

/**
 * Your pairing of the last round, if you have one (Swiss: your opponent or your bye).
 * @param {Model} m
 * @returns {Pairing | null}
 */
export function myPairing(m) {
  const last = m.tour?.rounds[m.tour.rounds.length - 1];
  if (!last || !m.me) return null;
  return last.pairings.find((p) => same(p.white, m.me) || same(p.black, m.me)) || null;
}

/**
 * The first three places of a finished tournament.
 * @param {Model} m
 * @returns {Standing[]}
 */
export function podium(m) {
  if (m.tour?.status !== 'finished') return [];
  return m.tour.standings.filter((s) => !s.withdrawn || s.played > 0).slice(0, 3);
}

/**
 * The rounds, latest first (the one being played is what people look for).
 * @param {Model} m
 */
export function roundsLatestFirst(m) {
  return m.tour ? [...m.tour.rounds].sort((a, b) => b.number - a.number) : [];
}

/**
 * What to say to a screen reader when the tournament changes from `before` to `after`: a list of
 * `{ key, args }`. Your own rank and points, a new leader, and your next game.
 * @param {Tournament | null} before
 * @param {Tournament} after
 * @param {string | null} me
 */
export function changes(before, after, me) {
  /** @type {{ key: string, args?: import('pages-types').Params }[]} */
  const said = [];
  if (!before) return said;
  if (before.status !== after.status) {
    if (after.status === 'running') said.push({ key: 'tour.saidStarted' });
    if (after.status === 'finished') said.push({ key: 'tour.saidFinished', args: { name: after.standings[0]?.name ?? '' } });
  }
  const leaderBefore = before.standings[0]?.name;
  const leaderAfter = after.standings[0]?.name;
  if (after.status === 'running' && leaderAfter && leaderBefore && !same(leaderBefore, leaderAfter)) {
    said.push({ key: 'tour.saidLeader', args: { name: leaderAfter, points: after.standings[0].points } });
  }
  if (me) {
    const was = before.standings.find((s) => same(s.name, me));
    const is = after.standings.find((s) => same(s.name, me));
    if (was && is && (was.rank !== is.rank || was.points !== is.points)) {
      said.push({ key: 'tour.saidMine', args: { rank: is.rank, points: is.points } });
    }
    const gamesBefore = new Set(myGames(/** @type {Model} */ ({ ...init({ id: before.id, me }), tour: before })).map((g) => g.id));
    // Once per opponent (a duplicate match played at once begins two games).
    const opponents = new Set();
    for (const g of myGames(/** @type {Model} */ ({ ...init({ id: after.id, me }), tour: after }))) {
      const name = same(g.white, me) ? g.black : g.white;
      if (!gamesBefore.has(g.id) && !opponents.has(name)) said.push({ key: 'tour.saidNextGame', args: { name } });
      opponents.add(name);
    }
  }
  return said;
}

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
    case 'start':
      fx.push({ type: 'load' }, { type: 'connect' }, { type: 'every', ms: 1000 });
      return m;
    case 'session':
      return same(msg.me, m.me) || msg.me === m.me ? m : { ...m, me: msg.me };
    case 'tournament': {
      // From the first read, the socket, or an action's answer: the newest version wins.
      const tour = /** @type {Tournament} */ (msg.tournament);
      if (m.tour && tour.version < m.tour.version) return m;
      if (m.tour && tour.version === m.tour.version && !m.failure) return m;
      for (const said of changes(m.tour, tour, m.me)) fx.push({ type: 'announce', ...said });
      return { ...m, tour, failure: null };
    }
    case 'failed':
      return m.tour ? m : { ...m, failure: msg.error };
    case 'status':
      return msg.status === m.conn ? m : { ...m, conn: msg.status };
    case 'tick': {
      const n = { ...m, now: msg.now };
      // Only a countdown, or a start time just passed, is drawn again each second.
      return countdown(m) || countdown(n) ? n : m;
    }
    case 'join':
    case 'withdraw':
    case 'pause':
    case 'begin':
      if (m.busy) return m;
      if (!m.me) {
        fx.push({ type: 'login' });
        return m;
      }
      fx.push({ type: msg.type, password: msg.password ?? null });
      return { ...m, busy: msg.type, refused: null };
    case 'done':
      // The action succeeded; its answer (or the socket) brings the new tournament.
      fx.push({ type: 'announce', key: `tour.said.${msg.action}` });
      if (msg.tournament) fx.push({ type: 'feed', tournament: msg.tournament });
      else fx.push({ type: 'load' });
      return { ...m, busy: null, refused: null };
    case 'refused':
      return { ...m, busy: null, refused: { action: msg.action, error: msg.error } };
    case 'game':
      // The socket: your game began. The page goes to it, or offers a button when elsewhere.
      fx.push({ type: 'announce', key: 'tour.saidGameBegan' }, { type: 'goToGame', id: msg.id });
      return { ...m, called: msg.id };
    default:
      return m;
  }
}

// ---- The creation form ----------------------------------------------------------------------

/**
 * The request body of the creation form's values, or `{ error, field }` (a translation key and
 * the field it concerns) when they do not make one. `v.startsIn` is minutes from `now`, or
 * `v.startsAt` a `datetime-local` text (local time) when `v.when === 'at'`.
 * @param {Record<string, any>} v
 * @param {number} now
 * @returns {{ body?: Record<string, unknown>, error?: string, field?: string }}
 */
export function createBody(v, now) {
  const name = String(v.name || '').trim();
  if (name.length < 3 || name.length > 40) return { error: 'tour.bad.name', field: 'name' };
  const format = v.format === 'arena' ? 'arena' : 'swiss';
  const initial = Number(v.initial);
  const increment = Number(v.increment);
  if (!Number.isInteger(initial) || initial <= 0 || !Number.isInteger(increment) || increment < 0) return { error: 'tour.bad.clock', field: 'clock' };
  /** @type {Record<string, unknown>} */
  const body = {
    name,
    format,
    scoring: v.scoring === 'product' ? 'product' : 'largest',
    clock: { initial_s: initial, increment_s: increment },
    duplicate: Boolean(v.duplicate),
    rated: Boolean(v.rated),
  };
  if (format === 'swiss') {
    const rounds = Number(v.rounds);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 15) return { error: 'tour.bad.rounds', field: 'rounds' };
    body.rounds = rounds;
    if (body.duplicate) body.sequential = Boolean(v.sequential);
  } else {
    const minutes = Number(v.minutes);
    if (!Number.isInteger(minutes) || minutes < 10 || minutes > 720) return { error: 'tour.bad.minutes', field: 'minutes' };
    body.minutes = minutes;
  }
  let startsAt;
  if (v.when === 'at') startsAt = new Date(String(v.startsAt || '')).getTime();
  else startsAt = now + Number(v.startsIn) * 60000;
  if (!Number.isFinite(startsAt)) return { error: 'tour.bad.start', field: 'start' };
  if (startsAt < now + 60000 || startsAt > now + 30 * 86400000) return { error: 'tour.bad.start', field: 'start' };
  body.starts_at = Math.round(startsAt);
  const min = String(v.minRating ?? '').trim();
  if (min !== '') {
    const r = Number(min);
    if (!Number.isInteger(r) || r < 0 || r > 4000) return { error: 'tour.bad.minRating', field: 'minRating' };
    body.min_rating = r;
  }
  const password = String(v.password ?? '');
  if (password !== '') body.password = password;
  return { body };
}

/**
 * The field a server's refusal of a creation concerns, read from its English message (the form
 * shows the refusal beside it), or null for the form as a whole.
 * @param {{ code?: string, message?: string }} error
 */
export function errorField(error) {
  const text = String(error?.message || '').toLowerCase();
  const fields = /** @type {[RegExp, string][]} */ ([
    [/\bname\b/, 'name'], [/\brounds?\b/, 'rounds'], [/\bminutes\b/, 'minutes'],
    [/starts?_?at|\bstart/, 'start'], [/min_?rating|\brating/, 'minRating'], [/password/, 'password'],
    [/clock|initial|increment/, 'clock'], [/sequential|duplicate|format/, 'format'], [/scoring/, 'scoring'],
  ]);
  for (const [re, field] of fields) if (re.test(text)) return field;
  return null;
}

/**
 * A countdown's text: `2 d 03:04:05`, `1:02:03`, `4:05`.
 * @param {number} ms
 */
export function countdownText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (/** @type {number} */ x) => String(x).padStart(2, '0');
  if (d) return `${d} d ${two(h)}:${two(min)}:${two(s)}`;
  if (h) return `${h}:${two(min)}:${two(s)}`;
  return `${min}:${two(s)}`;
}

/**
 * A tiebreak as the standings write it: an arena's performance is a rating, a whole number written
 * as ratings are ("1611", never "1,610.67"); Buchholz and Sonneborn-Berger are points, written by
 * `points`.
 * @param {number} x
 * @param {boolean} arena
 * @param {(x: number) => string} points
 */
export function tiebreakText(x, arena, points) {
  return arena ? String(Math.round(x)) : points(x);
}
