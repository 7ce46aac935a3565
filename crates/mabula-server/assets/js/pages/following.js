// The lobby's card of people: how many players are online, and the players you follow, each
// marked online or not, with their games being played now (a link watches one). Read from the
// server when shown and every 30 seconds after (the server knows it for every instance).

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { myName, sessionReady } from '../session.js';

/** How often the card is read again (ms). */
const EVERY_MS = 30_000;

/** @typedef {import('api-types').FollowingList} FollowingList */

/** The card; `stop()` ends its reading, `refresh()` reads now, `redraw()` after a language change. */
export function followingCard() {
  const count = h('p', { class: 'online-count', id: 'online-count', role: 'status' });
  const list = h('ul', { class: 'following-list', id: 'following' });
  const empty = h('p', { class: 'muted', hidden: true, i18n: 'following.none' });
  const el = h('section', { class: 'card following-card', 'aria-labelledby': 'following-title' },
    h('h2', { id: 'following-title', i18n: 'following.title' }), count, list, empty);
  /** @type {FollowingList | null} */
  let last = null;
  /** @type {number | null} */
  let online = null;
  let stopped = false;

  async function refresh() {
    const [people, players] = await Promise.all([
      api.online().catch(() => null),
      myName() ? api.following().catch(() => null) : Promise.resolve(null),
    ]);
    if (stopped) return;
    online = people ? people.count : online;
    last = players;
    draw();
  }

  function draw() {
    count.textContent = online === null ? '' : t('following.online', { n: online });
    clear(list);
    const players = last ? last.players : [];
    empty.hidden = !myName() || players.length > 0;
    for (const p of players) {
      list.append(h('li', { class: 'followed' },
        h('span', { class: `online-dot${p.online ? '' : ' off'}`, role: 'img', 'aria-label': t(p.online ? 'profile.online' : 'following.offline') }),
        h('a', { href: `/@/${encodeURIComponent(p.name)}`, class: 'followed-name' }, p.name),
        ...p.playing.slice(0, 3).map((g) => h('a', {
          class: 'btn small watch-link', href: `/game/${g.id}`,
          'aria-label': t('following.watchGame', { white: g.white || t('following.guest'), black: g.black || t('following.guest') }),
        }, t('following.playing', { label: g.label || '' })))));
    }
  }

  // Who is logged in is known first (a page loaded from its address reads it as it starts).
  sessionReady().then(refresh, refresh);
  const timer = setInterval(refresh, EVERY_MS);
  return {
    el,
    refresh,
    redraw: draw,
    stop() { stopped = true; clearInterval(timer); },
  };
}
