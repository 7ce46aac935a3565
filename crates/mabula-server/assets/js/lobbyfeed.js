// The lobby's live channel (`/api/lobby/ws`), one for the whole page: the seek list whenever it
// changes and, for a logged-in player, each game of theirs that begins and each correspondence
// game where it becomes their turn. It stays open while a page listens (the lobby) or while
// someone is logged in, so that a challenge or a turn is heard on every page of the site.

import { t } from './i18n.js';
import { h, toast, announce } from './dom.js';
import { navigate } from './nav.js';
import { myName, isMe } from './session.js';
import { notify } from './notify.js';
import { controlLabel, formatClock } from './clock.js';
import { applyChanges } from './seeklist.js';
import { Socket, api } from './api.js';

/** @typedef {import('api-types').LobbyMessage} LobbyMessage */

const SEEN_KEY = 'mabula:challengesSeen';

class LobbyFeed {
  constructor() {
    /** Pages listening (each gets every message). @type {Set<(msg: LobbyMessage) => void>} */
    this.listeners = new Set();
    /** The latest seek list, for a page that starts listening. @type {import('api-types').Seek[] | null} */
    this.seeks = null;
    /** @type {Socket<import('api-types').LobbySocketMessage>} */
    this.socket = new Socket('/api/lobby/ws', {
      ping: 25000,
      synced: (msg) => msg.type === 'seeks' || msg.type === 'seeks_changed',
      onStatus: (status) => this.emit({ type: 'status', status }),
      onMessage: (msg) => {
        if (msg.type === 'seeks_changed') {
          // The server sends the whole list once, then what changed: the pages see whole lists.
          msg = { type: 'seeks', seeks: applyChanges(this.seeks || [], msg.added, msg.removed) };
        }
        if (msg.type === 'seeks') this.seeks = msg.seeks;
        this.emit(msg);
      },
    });
  }

  /** The socket's status: connecting, online, reconnecting or offline. */
  get status() {
    return this.socket.status;
  }

  /** Listens to every message; answers the function that stops listening. */
  subscribe(/** @type {(msg: LobbyMessage) => void} */ fn) {
    this.listeners.add(fn);
    this.ensure();
    return () => {
      this.listeners.delete(fn);
      this.ensure();
    };
  }

  /** Opens or closes the socket as the listeners and the session want. */
  ensure() {
    if (this.listeners.size > 0 || myName()) this.socket.open();
    else this.socket.close();
  }

  /** Reconnects: the socket's session is the one of its handshake, so a log-in or out restarts it. */
  restart() {
    this.socket.close();
    this.seeks = null;
    this.ensure();
  }

  emit(/** @type {LobbyMessage} */ msg) {
    handle(msg);
    for (const fn of [...this.listeners]) {
      try { fn(msg); } catch (e) { console.error(e); }
    }
  }
}

export const lobbyFeed = new LobbyFeed();

// ---- What the whole site does with the feed ----------------------------------------------------

/** The game this page is playing now, if any: a game that begins then is not jumped to. */
/** @type {string | null} */
let playing = null;

/** Set by the game page while its player is in a game being played (null otherwise). */
export function setPlaying(/** @type {string | null} */ id) {
  playing = id;
}

/** The other game of a duplicate pair played at once, shown beside this page's game. */
/** @type {string | null} */
let twin = null;

/** Set by the game page while it shows the other game of a pair beside its own (null otherwise). */
export function setTwin(/** @type {string | null} */ id) {
  twin = id;
  if (id && call?.id === id) call.close();
}

/**
 * The call to a tournament's game that began while its player was on another page: never taken
 * there (a click on a puzzle must not become a move), but told, with a link and the time left
 * for the first move.
 * @type {{ id: string, close: () => void } | null}
 */
let call = null;

async function callTo(/** @type {string} */ id, /** @type {string} */ tournament) {
  call?.close();
  const text = h('span', { i18n: 'tour.nextGameBegan' });
  const left = h('span', { class: 'call-left', role: 'timer' });
  /** @type {number | undefined} */
  let timer;
  const el = h('div', { class: 'call-float tour-call-float', role: 'alert' }, text, ' ', left, ' ',
    h('a', { class: 'btn primary small', href: `/game/${id}`, i18n: 'tour.playNow' }), ' ',
    h('a', { class: 'btn small', href: `/tournament/${tournament}`, i18n: 'tour.backTo' }), ' ',
    h('button', { type: 'button', class: 'btn small', 'i18n-aria-label': 'tour.callClose', onclick: () => c.close() }, '×'));
  const c = { id, close() {
    clearInterval(timer);
    el.remove();
    if (call === c) call = null;
  } };
  call = c;
  el.addEventListener('click', (e) => { if (/** @type {Element} */ (e.target).closest('a')) c.close(); });
  document.body.append(el);
  announce(t('tour.saidGameBegan'));
  // Against whom, and the first move's deadline, counted down.
  try {
    const st = await api.state(id, null);
    if (call !== c) return;
    const opponent = isMe(st.players.white?.name ?? '') ? st.players.black?.name : st.players.white?.name;
    if (opponent) text.textContent = t('tour.callGame', { name: opponent });
    const clock = st.clock;
    if (!clock || clock.deadline === null || clock.deadline === undefined) return;
    const end = performance.now() + (clock.deadline - clock.now);
    const tick = () => {
      const ms = end - performance.now();
      left.textContent = ms > 0 ? t('tour.callLeft', { time: formatClock(ms) }) : t('tour.callMissed');
      if (ms <= 0) clearInterval(timer);
    };
    tick();
    timer = setInterval(tick, 500);
  } catch { /* the link is enough */ }
}

/** Whether this page shows game `id`: its own game, or the other game of its pair. */
export function showing(/** @type {string} */ id) {
  return location.pathname === `/game/${id}` || twin === id;
}

/** Goes to a game's page unless the page shows it already. */
export function goToGame(/** @type {string} */ id) {
  if (!showing(id)) navigate(`/game/${id}`);
}

/** @returns {Set<string>} */
function seen() {
  try { return new Set(JSON.parse(sessionStorage.getItem(SEEN_KEY) || '[]')); } catch { return new Set(); }
}

function remember(/** @type {Set<string>} */ ids) {
  try { sessionStorage.setItem(SEEN_KEY, JSON.stringify([...ids].slice(-100))); } catch { /* private mode */ }
}

function handle(/** @type {LobbyMessage} */ msg) {
  if (msg.type === 'game') {
    const text = t('notify.gameBegan');
    notify(text, { body: t('notify.gameBegan.body'), path: `/game/${msg.game_id}`, tag: `game-${msg.game_id}` });
    if (showing(msg.game_id)) return;
    if (msg.tournament) {
      // A tournament's page takes its player to the game; every other page calls them.
      if (location.pathname !== `/tournament/${msg.tournament}`) callTo(msg.game_id, msg.tournament);
      return;
    }
    if (playing && playing !== msg.game_id) {
      toast(text);
      announce(text);
    } else {
      goToGame(msg.game_id);
    }
  } else if (msg.type === 'declined') {
    const text = t('notify.declined', { name: msg.by });
    toast(text, 'info', 6000);
    announce(text);
    notify(text, { body: text, path: '/lobby', tag: `declined-${msg.seek_id}` });
  } else if (msg.type === 'turn') {
    if (showing(msg.game_id)) return;
    const text = t('notify.yourTurn');
    toast(text);
    notify(text, { body: t('notify.yourTurn.body'), path: `/game/${msg.game_id}`, tag: `turn-${msg.game_id}` });
    window.dispatchEvent(new CustomEvent('myturn', { detail: msg.game_id }));
  } else if (msg.type === 'seeks') {
    const known = seen();
    let fresh = false;
    for (const s of msg.seeks) {
      if (!s.to || !isMe(s.to) || known.has(s.id)) continue;
      known.add(s.id);
      fresh = true;
      const text = t('notify.challenge', { name: s.name });
      const body = `${controlLabel(s.control)} · ${t(`scoring.${s.scoring}`)} · ${t(s.rated ? 'lobby.rated' : 'lobby.casual')}`;
      toast(`${text} · ${body}`, 'info', 6000);
      announce(text);
      notify(text, { body, path: '/lobby', tag: `challenge-${s.id}` });
    }
    if (fresh) remember(known);
  }
}

window.addEventListener('sessionchange', () => lobbyFeed.restart());
