// The pages' one WebSocket client, which reconnects by itself: a game's socket (game.js), the
// lobby's (lobbyfeed.js) and a tournament's (tournament.js) are each one of these, told only what
// differs: the address, the hello that resyncs after a gap (a game's move number and epoch; the
// lobby and a tournament send everything on each connection and need none), which message shows
// the socket is up to date again, and whether to ping.

/** @typedef {'connecting' | 'online' | 'reconnecting' | 'offline'} SocketStatus */

/**
 * @template M
 * @typedef {object} SocketOptions
 * @property {(msg: M) => void} onMessage every message of the server, parsed
 * @property {(status: SocketStatus) => void} onStatus each change of status
 * @property {(msg: M) => boolean} synced whether a message brings the whole current state (the
 *   socket is online, and the next gap is waited out from the shortest delay again)
 * @property {() => object} [hello] the message sent on each connection and on `resync()`
 * @property {number} [ping] how often to ping (ms), if at all
 */

/** The wait before reconnection attempt `n` (1, 2, …): 0.4 s doubling to 8 s, ±20%. */
function backoff(/** @type {number} */ n) {
  return Math.min(8000, 400 * 2 ** Math.min(n - 1, 5)) * (0.8 + Math.random() * 0.4);
}

/**
 * A WebSocket to `path` on this host, open from `open()` to `close()`: after a drop it waits
 * (longer each time) and connects again, at once when the browser comes back online or the
 * tab is shown again.
 * @template M
 */
export class Socket {
  /**
   * @param {string} path
   * @param {SocketOptions<M>} options
   */
  constructor(path, { onMessage, onStatus, synced, hello, ping }) {
    this.path = path;
    /** Replaceable: a tournament's kept socket listens for other things. */
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.synced = synced;
    this.hello = hello;
    this.ping = ping;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {SocketStatus} */
    this.status = 'offline';
    this.wanted = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
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

  /** Closes for good (until `open()` again); says 'offline'. */
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
    if (this.hello && this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(this.hello()));
  }

  /** @param {SocketStatus} status */
  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status);
  }

  /** Forgets the current connection, if any, without hearing of its end. */
  drop() {
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    ws.onclose = null;
    try { ws.close(); } catch { /* already closed */ }
  }

  connect() {
    this.drop();
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}${this.path}`);
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
      this.timer = setTimeout(() => this.connect(), backoff(this.attempt));
    };
    ws.onerror = () => { /* onclose follows */ };
  }
}
