// A game's chat panel (issue 36), mounted by the game page (and read-only by the replay): the
// lines of the rooms the reader may read (the players' room for the game's seats, the
// spectators' room for everyone), a form to say a line in a room the reader may write, and a
// "Report" button beside other accounts' lines. Lines are plain text, shown with textContent.
// The page hands on the game socket's `chat` messages (`add`) and asks for the whole log again
// once the game is loaded and after a resync (`refresh`).

import { h, clear, setText } from './dom.js';
import { t } from './i18n.js';
import { request } from './api.js';
import { isMe, myName } from './session.js';

// The report form and the social errors' texts are loaded when first needed: most visits to a
// game never report anyone, and the game page's first visit stays small.
const social = () => import('./social.js');

/** @param {string} name @param {{ game?: string, chatLine?: number }} about */
async function openReport(name, about) {
  (await social()).reportDialog(name, about);
}

/** The most characters of a line (the server counts the same). */
const MAX = 140;

/**
 * @typedef {{ id: number, room: 'players' | 'spectators', name: string, side?: 'white' | 'black' | null, text: string, at: number }} ChatLine
 */

/**
 * The chat panel of game `id`.
 * @param {{ id: string, replay: boolean, token: () => string | null }} opts
 */
export function mountChat({ id, replay, token }) {
  /** @type {Map<number, ChatLine>} */
  const lines = new Map();
  /** @type {string[]} */
  let writable = [];
  let stopped = false;

  const log = h('ol', { class: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', 'i18n-aria-label': 'chat.log', tabindex: '0' });
  const empty = h('p', { class: 'muted chat-empty', i18n: 'chat.empty' });
  const input = h('input', {
    type: 'text', id: `chat-input-${id}`, class: 'chat-input', maxlength: String(MAX * 2), autocomplete: 'off',
    'i18n-placeholder': 'chat.placeholder', 'i18n-aria-label': 'chat.label',
    oninput: () => count(),
  });
  const room = h('select', { class: 'chat-room', 'i18n-aria-label': 'chat.room' },
    h('option', { value: 'players', i18n: 'chat.room.players' }),
    h('option', { value: 'spectators', i18n: 'chat.room.spectators' }));
  const counter = h('span', { class: 'chat-counter muted', 'aria-hidden': 'true' });
  const error = h('p', { class: 'chat-error error-text', 'aria-live': 'assertive' });
  const send = h('button', { type: 'submit', class: 'btn small primary', i18n: 'chat.send' });
  const form = h('form', { class: 'chat-form', hidden: true, novalidate: true, onsubmit: (e) => { e.preventDefault(); say(); } },
    room, input, send, counter);
  const guestNote = h('p', { class: 'muted chat-guest', hidden: true },
    h('a', { href: '/login', i18n: 'chat.loginToWrite' }));
  const el = h('section', { class: 'card chat', 'aria-labelledby': `chat-title-${id}` },
    h('h2', { id: `chat-title-${id}`, i18n: replay ? 'chat.titleReplay' : 'chat.title' }),
    log, empty, form, error, guestNote);

  // The page calls `refresh` once the game is known to exist (no request for a missing game).
  // The writers' names of guest seats ("White", "Black") and the Report labels follow the language.
  const onLang = () => draw();
  window.addEventListener('langchange', onLang);

  /** The characters left, kept translatable. */
  function count() {
    setText(counter, 'chat.left', { n: MAX - [...input.value.trim()].length });
  }

  /** Reads the whole log again (at start, and after the socket resynced). */
  async function refresh() {
    try {
      const res = await request('GET', `/api/games/${id}/chat`, { token: token() });
      if (stopped) return;
      writable = replay ? [] : res.writable;
      for (const line of res.lines) lines.set(line.id, line);
      draw();
    } catch {
      /* the game page says when the game cannot be read */
    }
  }

  function draw() {
    clear(log);
    const sorted = [...lines.values()].sort((a, b) => a.id - b.id);
    for (const line of sorted) log.append(lineItem(line));
    empty.hidden = sorted.length > 0;
    form.hidden = writable.length === 0;
    room.hidden = writable.length < 2;
    for (const opt of room.options) opt.disabled = !writable.includes(opt.value);
    if (writable.length && !writable.includes(room.value)) room.value = writable[0];
    guestNote.hidden = replay || writable.length > 0 || Boolean(myName());
    count();
    log.scrollTop = log.scrollHeight;
  }

  /** @param {ChatLine} line */
  function lineItem(line) {
    const who = line.name || t(`colour.${line.side === 'black' ? 'Black' : 'White'}`);
    const report = line.name && myName() && !isMe(line.name)
      ? h('button', { type: 'button', class: 'btn tiny chat-report', title: t('report.button'),
        'aria-label': t('chat.reportLine', { name: line.name }),
        onclick: () => openReport(line.name, { game: id, chatLine: line.id }) }, t('report.button'))
      : null;
    return h('li', { class: `chat-line room-${line.room}` },
      line.room === 'players' ? h('span', { class: 'chat-tag', i18n: 'chat.tag.players' }) : null,
      h('strong', { class: 'chat-name' }, who), ' ',
      h('span', { class: 'chat-text' }, line.text), ' ',
      report);
  }

  async function say() {
    const text = input.value.trim();
    error.textContent = '';
    if (!text) return;
    if ([...text].length > MAX) {
      error.textContent = t('social.error.chat_too_long');
      return;
    }
    send.disabled = true;
    try {
      const line = await request('POST', `/api/games/${id}/chat`, { token: token(), body: { text, room: room.value } });
      lines.set(line.id, line);
      input.value = '';
      draw();
    } catch (err) {
      error.textContent = (await social()).socialError(err);
    } finally {
      send.disabled = false;
      input.focus();
    }
  }

  return {
    el,
    /** A line from the game's socket. @param {ChatLine} line */
    add(line) {
      if (lines.has(line.id)) return;
      lines.set(line.id, line);
      draw();
    },
    refresh,
    stop() {
      stopped = true;
      window.removeEventListener('langchange', onLang);
    },
  };
}
