// The server's HTTP API (docs/api.md), the seat tokens kept in localStorage, and the pages' one
// reconnecting WebSocket client (`Socket`: a game's, the lobby's and a tournament's socket).
//
// A logged-in browser holds an HTTP-only session cookie; every write it makes must carry the
// session's CSRF token in `X-CSRF-Token` (session.js reads it at page load and hands it here).

/** An error answered by the server (or a network failure, with code `network`). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {string | null} [rule]
   */
  constructor(status, code, message, rule = null) {
    super(message);
    this.status = status;
    this.code = code;
    /** With `invalid_account`: the rule of names and passwords broken (`password_common`, …). */
    this.rule = rule;
  }
}

/**
 * @typedef {import('api-types').Api} Api
 * @typedef {{ body?: unknown, token?: string | null, text?: boolean, retried?: boolean }} RequestOptions
 */

/** The session's CSRF token (null for a guest), and the read of it still under way. */
const csrf = {
  token: /** @type {string | null} */ (null),
  ready: /** @type {Promise<unknown> | null} */ (null),
  refresh: /** @type {(() => Promise<unknown>) | null} */ (null),
};

/**
 * Set by session.js: the token, a promise that settles once the session is known (writes wait
 * for it), and how to read the session again when the server refuses a stale token.
 */
export function useCsrf(/** @type {Partial<typeof csrf>} */ { token, ready, refresh } = {}) {
  if (token !== undefined) csrf.token = token;
  if (ready !== undefined) csrf.ready = ready;
  if (refresh !== undefined) csrf.refresh = refresh;
}

/** The CSRF token now (for `fetch` calls made outside `request`, such as keepalive ones). */
export function csrfToken() {
  return csrf.token;
}

/**
 * The header a write made with `fetch` outside `request` needs (a stream read with `fetch`),
 * once the session is known: the CSRF token of a logged-in player, nothing for a guest.
 * @returns {Promise<Record<string, string>>}
 */
export async function csrfHeader() {
  if (csrf.ready) {
    try { await csrf.ready; } catch { /* a guest, then */ }
  }
  return csrf.token ? { 'X-CSRF-Token': csrf.token } : {};
}

/**
 * Calls the API; answers the parsed JSON (or text for `text: true`, null for 204), throws ApiError.
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<any>}
 */
export async function request(method, path, { body, token, text = false, retried = false } = {}) {
  const write = method !== 'GET' && method !== 'HEAD';
  if (write && csrf.ready) {
    try { await csrf.ready; } catch { /* a guest, then */ }
  }
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['X-Mabula-Token'] = token;
  if (write && csrf.token) headers['X-CSRF-Token'] = csrf.token;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'same-origin',
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e instanceof Error ? e.message : e));
  }
  if (!res.ok) {
    let code = 'internal';
    let message = res.statusText;
    let rule = null;
    try {
      const err = await res.json();
      code = err.code || code;
      message = err.message || message;
      rule = err.rule || null;
    } catch { /* not JSON */ }
    // Another tab logged in or out meanwhile: read the session again and try once more.
    if (code === 'csrf_failed' && !retried && csrf.refresh) {
      await csrf.refresh();
      return request(method, path, { body, token, text, retried: true });
    }
    throw new ApiError(res.status, code, message, rule);
  }
  if (res.status === 204) return null;
  return text ? res.text() : res.json();
}

/**
 * `?a=1&b=2` from the set values of an object (empty when none).
 * @param {Record<string, string | number | null | undefined>} params
 */
function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

const enc = encodeURIComponent;

/** @type {Api} */
export const api = {
  create: (settings) => request('POST', '/api/games', { body: settings }),
  list: (filter, limit = 20) => request('GET', `/api/games?filter=${filter}&limit=${limit}`),
  state: (id, token) => request('GET', `/api/games/${id}`, { token }),
  join: (id, code) => request('POST', `/api/games/${id}/join`, { body: { code } }),
  move: (id, token, move, number) =>
    request('POST', `/api/games/${id}/moves`, { token, body: { move, number } }),
  resign: (id, token, side) =>
    request('POST', `/api/games/${id}/resign`, { token, body: side ? { side } : {} }),
  claimWin: (id, token) => request('POST', `/api/games/${id}/claim`, { token, body: {} }),
  undo: (id, token) => request('POST', `/api/games/${id}/undo`, { token, body: {} }),
  acceptUndo: (id, token) => request('POST', `/api/games/${id}/undo/accept`, { token, body: {} }),
  declineUndo: (id, token) => request('POST', `/api/games/${id}/undo/decline`, { token, body: {} }),
  rematch: (id, token) => request('POST', `/api/games/${id}/rematch`, { token, body: {} }),
  record: (id) => request('GET', `/api/games/${id}/record`, { text: true }),
  import: (record) => request('POST', '/api/games/import', { body: { record } }),

  // Accounts and sessions.
  signUp: (name, password) => request('POST', '/api/accounts', { body: { name, password } }),
  logIn: (name, password) => request('POST', '/api/session', { body: { name, password } }),
  session: () => request('GET', '/api/session'),
  logOut: () => request('DELETE', '/api/session'),
  logOutEverywhere: () => request('DELETE', '/api/sessions'),
  claim: (games) => request('POST', '/api/account/claim', { body: { games } }),
  myTurn: () => request('GET', '/api/account/turn'),
  playing: () => request('GET', '/api/account/playing'),
  changePassword: (current, next) => request('POST', '/api/account/password', { body: { current, new: next } }),
  sessions: () => request('GET', '/api/account/sessions'),
  endSession: (id) => request('DELETE', `/api/account/sessions/${enc(id)}`),
  endOtherSessions: () => request('DELETE', '/api/account/sessions'),
  deleteAccount: (password) => request('DELETE', '/api/account', { body: { password } }),
  exportPath: () => '/api/account/export',

  // Following, and who is online.
  follow: (name) => request('POST', `/api/players/${enc(name)}/follow`),
  unfollow: (name) => request('DELETE', `/api/players/${enc(name)}/follow`),
  following: () => request('GET', '/api/account/following'),
  online: () => request('GET', '/api/online'),

  // The lobby.
  seeks: () => request('GET', '/api/seeks'),
  openSeek: (seek) => request('POST', '/api/seeks', { body: seek }),
  cancelSeek: (id) => request('DELETE', `/api/seeks/${enc(id)}`),
  acceptSeek: (id) => request('POST', `/api/seeks/${enc(id)}/accept`),

  // Players.
  profile: (name) => request('GET', `/api/players/${enc(name)}`),
  playerGames: (name, { page, result, scoring } = {}) =>
    request('GET', `/api/players/${enc(name)}/games${query({ page, result, scoring })}`),
  ratingHistory: (name) => request('GET', `/api/players/${enc(name)}/ratings`),
  recordsPath: (name) => `/api/players/${enc(name)}/records`,
};

/**
 * Withdraws seeks while the page goes away: `keepalive` lets the requests outlive the page, so
 * they are sent with the CSRF token by hand.
 */
export function withdrawOnLeave(/** @type {Iterable<string>} */ ids) {
  for (const id of ids) {
    /** @type {Record<string, string>} */
    const headers = {};
    if (csrf.token) headers['X-CSRF-Token'] = csrf.token;
    try {
      fetch(`/api/seeks/${enc(id)}`, { method: 'DELETE', headers, keepalive: true, credentials: 'same-origin' })
        .catch(() => { /* the seek lapses by itself */ });
    } catch { /* the page is going anyway */ }
  }
}

// ---------------------------------------------------------------------------------------------
// Seat tokens: shown once by the server, so they are kept here, keyed by game id.

const SEATS_KEY = 'mabula:seats';


/** @returns {Record<string, import('pages-types').KeptSeat>} */
function loadSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}'); } catch { return {}; }
}

/** The stored grant of a game: `{ token, seats, mode, created }`, or null. */
export function seatOf(/** @type {string} */ id) {
  return loadSeats()[id] || null;
}

/** Keeps the seat grant an answer gave. */
export function keepGrant(/** @type {import('api-types').SeatGrant} */ grant) {
  const all = loadSeats();
  all[grant.game_id] = {
    token: grant.token,
    seats: grant.seats,
    mode: grant.state?.settings?.mode,
    join: grant.join_path || null,
    created: Date.now(),
  };
  // Keep the newest 200 games.
  const ids = Object.keys(all).sort((a, b) => (all[b].created || 0) - (all[a].created || 0));
  for (const old of ids.slice(200)) delete all[old];
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch { /* full or private */ }
}

/** Drops the join link once the friend has joined (it works only once anyway). */
export function forgetJoin(/** @type {string} */ id) {
  const all = loadSeats();
  if (!all[id] || !all[id].join) return;
  all[id].join = null;
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch { /* ignore */ }
}

/** Forgets a token the server no longer knows. */
export function forgetSeat(/** @type {string} */ id) {
  const all = loadSeats();
  delete all[id];
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch { /* ignore */ }
}

/** Games this browser holds a seat in, newest first. */
export function myGames() {
  const all = loadSeats();
  return Object.entries(all)
    .map(([id, v]) => ({ id, ...v }))
    .sort((a, b) => (b.created || 0) - (a.created || 0));
}

// ---------------------------------------------------------------------------------------------
// The live channel: a WebSocket to `path`, open from `open()` to `close()`, that reconnects after
// a wait (0.4 s doubling to 8 s) or when the browser is back online or the tab shown.

/** @template M */
export class Socket {
  /** @param {string} path @param {import('pages-types').SocketOptions<M>} options */
  constructor(path, { onMessage, onStatus, synced, hello, ping }) {
    this.path = path;
    this.synced = synced;
    this.hello = hello;
    this.ping = ping;
    this.onMessage = onMessage; // replaced by a tournament's kept socket
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {import('pages-types').SocketStatus} */
    this.status = 'offline';
    this.wanted = false;
    this.attempt = 0;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.pinger = undefined;
    this.wake = () => {
      if (this.wanted && (!this.ws || this.ws.readyState > WebSocket.OPEN)) this.connect();
    };
  }

  /** Connects, unless open already. */
  open() {
    if (this.wanted) return this;
    this.wanted = true;
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
    this.connect();
    return this;
  }

  /** Closes for good (until `open()` again): 'offline'. */
  close() {
    this.wanted = false;
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    this.drop();
    this.attempt = 0;
    this.setStatus('offline');
  }

  /** Sends the hello again, so that the server answers with what the page lacks. */
  resync() {
    if (this.hello && this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(this.hello()));
  }

  /** @param {import('pages-types').SocketStatus} status */
  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status);
  }

  /** Forgets the connection without hearing of its end. */
  drop() {
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
  }

  connect() {
    this.drop();
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${this.path}`);
    this.ws = ws;
    this.setStatus(this.attempt ? 'reconnecting' : 'connecting');
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.resync();
      if (this.ping) this.pinger = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, this.ping);
    };
    ws.onmessage = (ev) => {
      /** @type {M} */
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (this.synced(msg)) {
        this.attempt = 0;
        this.setStatus('online');
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      this.attempt += 1;
      this.setStatus(navigator.onLine === false ? 'offline' : 'reconnecting');
      const wait = Math.min(8000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }
}
