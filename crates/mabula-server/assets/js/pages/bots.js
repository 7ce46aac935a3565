// The bots page (`/bots`, issue 38): the bots that play here, online ones first, each with its
// BOT badge, its real-time ratings in both scoring modes, a house bot's engine level, and a
// button that opens the lobby's challenge form for it (the same flow as a profile's button).

import { h, clear, translateDom } from '../dom.js';
import { t } from '../i18n.js';
import { request } from '../api.js';
import { navigate } from '../nav.js';
import { sessionReady, myName, isMe } from '../session.js';
import { errorText } from './errors.js';
import { botBadge, ratingText } from '../widgets.js';
import { addBotStyles } from './bots-style.js';

/** @typedef {import('api-types').BotView} BotView */

/** The real-time rating of `bot` in `scoring`, or null. */
export function realtimeRating(/** @type {BotView} */ bot, /** @type {string} */ scoring) {
  return bot.ratings.find((r) => r.scoring === scoring && r.speed === 'realtime') || null;
}

export function mount(/** @type {HTMLElement} */ main) {
  let unmounted = false;
  addBotStyles();
  /** @type {BotView[] | null} */
  let bots = null;
  /** @type {unknown} */
  let failed = null;
  const setTitle = () => { document.title = `${t('bots.title')} · Mabula`; };
  setTitle();
  const online = h('ul', { class: 'bot-list', id: 'bots-online' });
  const others = h('ul', { class: 'bot-list', id: 'bots-others' });
  const onlineCard = h('section', { class: 'card bots-card', 'aria-labelledby': 'bots-online-title' },
    h('h2', { id: 'bots-online-title', i18n: 'bots.online' }), online);
  const othersCard = h('section', { class: 'card bots-card', 'aria-labelledby': 'bots-others-title' },
    h('h2', { id: 'bots-others-title', i18n: 'bots.others' }), others);
  const status = h('p', { class: 'muted bots-status', role: 'status' });
  main.append(h('section', { class: 'bots-page' },
    h('h1', { i18n: 'bots.title' }),
    h('p', { class: 'muted lead', i18n: 'bots.intro' }),
    status, onlineCard, othersCard));

  function item(/** @type {BotView} */ bot) {
    const ratings = ['largest', 'product'].map((sc) => {
      const r = realtimeRating(bot, sc);
      return h('span', { class: 'bot-rating', dataset: { scoring: sc } },
        `${t(`scoring.${sc}`)}: `,
        h('strong', {}, r ? ratingText(r.rating, r.provisional) : t('bots.unrated')));
    });
    const me = myName();
    const mine = isMe(bot.name);
    return h('li', { class: 'bot-item', dataset: { name: bot.name } },
      h('span', { class: 'bot-main' },
        h('span', { class: 'bot-who' },
          h('a', { href: `/@/${bot.name}`, class: 'player-link' }, bot.name), ' ', botBadge(),
          bot.level !== null && bot.level !== undefined ? h('span', { class: 'muted bot-level' }, t('bots.level', { n: bot.level })) : null),
        h('span', { class: 'bot-ratings' }, ...ratings)),
      mine ? null : h('button', {
        type: 'button', class: 'btn small primary challenge-button', i18n: 'profile.challenge',
        'aria-label': t('bots.challengeLabel', { name: bot.name }),
        onclick: () => navigate(me ? `/lobby?challenge=${encodeURIComponent(bot.name)}`
          : `/login?next=${encodeURIComponent(`/lobby?challenge=${bot.name}`)}`),
      }));
  }

  function render() {
    clear(online);
    clear(others);
    status.textContent = failed ? errorText(failed) : '';
    const list = bots || [];
    const on = list.filter((b) => b.online);
    const off = list.filter((b) => !b.online);
    onlineCard.hidden = !on.length;
    othersCard.hidden = !off.length;
    for (const b of on) online.append(item(b));
    for (const b of off) others.append(item(b));
    if (bots !== null && !list.length) status.append(h('span', { class: 'empty-note', i18n: 'bots.empty' }));
  }

  async function load() {
    try {
      bots = (await request('GET', '/api/bots')).bots;
      failed = null;
    } catch (err) {
      failed = err;
    }
    if (!unmounted) render();
  }

  render();
  sessionReady().then(() => { if (!unmounted) load(); });

  return {
    unmount() { unmounted = true; },
    onLang() { setTitle(); translateDom(main); render(); },
    onSession() { if (!unmounted) render(); },
  };
}
