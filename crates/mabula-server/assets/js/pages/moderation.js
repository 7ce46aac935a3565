// The moderators' page (`/moderation`, issue 36): the open reports, oldest first, each with the
// reported player's chat lines in the game it names, and what a moderator does about it:
// resolve the report, mute the player for a day (or unmute), close the account (or reopen it).
// Below them, the rated games that could not be rated (issue 51), each with why, and the accounts
// whose accuracy over their recent rated games is far above their rating band's, with the games.
// Anyone else is told the page is for moderators (the server refuses them the queue).

import { h, clear, translateDom, toast } from '../dom.js';
import { t, timeAgo } from '../i18n.js';
import { request, ApiError } from '../api.js';
import { sessionReady } from '../session.js';
import { confirmDialog } from './dialogs.js';
import { socialError } from '../social.js';

/** @typedef {import('api-types').ReportView} ReportView */
/** @typedef {import('api-types').UnratedGame} UnratedGame */
/** @typedef {import('api-types').AccuracyFlag} AccuracyFlag */

export function mount(/** @type {HTMLElement} */ main) {
  const list = h('div', { class: 'report-list', style: 'display:grid;gap:12px' });
  const note = h('p', { class: 'muted', role: 'status' });
  const unrated = h('section', { class: 'unrated', hidden: true },
    h('h2', { style: 'font-size:1.1rem', i18n: 'mod.unrated' }),
    h('p', { class: 'muted', i18n: 'mod.unratedIntro' }));
  const unratedList = h('ul', { class: 'unrated-list' });
  unrated.append(unratedList);
  const accuracy = h('section', { class: 'accuracy-flags', hidden: true },
    h('h2', { style: 'font-size:1.1rem', i18n: 'mod.accuracy' }),
    h('p', { class: 'muted', i18n: 'mod.accuracyIntro' }));
  const accuracyList = h('ul', { class: 'accuracy-list' });
  accuracy.append(accuracyList);
  const setTitle = () => { document.title = `${t('mod.title')} · Mabula`; };
  setTitle();
  main.append(h('section', { class: 'moderation' },
    h('h1', { i18n: 'mod.title' }),
    h('p', { class: 'muted', i18n: 'mod.intro' }),
    note, list, unrated, accuracy));
  let stopped = false;

  load();

  async function load() {
    try { await sessionReady(); } catch { /* a guest */ }
    try {
      const queue = await request('GET', '/api/moderation/reports');
      if (stopped) return;
      draw(queue.reports);
      const failed = await request('GET', '/api/moderation/unrated');
      if (stopped) return;
      drawUnrated(failed.games);
      const flagged = await request('GET', '/api/moderation/accuracy');
      if (stopped) return;
      drawAccuracy(flagged.flags);
    } catch (err) {
      if (stopped) return;
      clear(list);
      const mine = err instanceof ApiError && (err.code === 'not_moderator' || err.code === 'not_logged_in');
      note.textContent = mine ? t('mod.notModerator') : socialError(err);
    }
  }

  /** @param {ReportView[]} reports */
  function draw(reports) {
    clear(list);
    note.textContent = reports.length ? '' : t('mod.empty');
    for (const r of reports) list.append(reportCard(r));
  }

  /** @param {UnratedGame[]} games */
  function drawUnrated(games) {
    clear(unratedList);
    unrated.hidden = false;
    if (!games.length) unratedList.append(h('li', { class: 'muted' }, t('mod.unratedEmpty')));
    for (const g of games) {
      unratedList.append(h('li', {},
        h('a', { href: `/game/${g.game}` }, g.game), ' · ',
        t('mod.unratedLine', { n: g.attempts, when: timeAgo(g.last_at), reason: g.reason })));
    }
  }

  /** @param {AccuracyFlag[]} flags */
  function drawAccuracy(flags) {
    clear(accuracyList);
    accuracy.hidden = false;
    if (!flags.length) accuracyList.append(h('li', { class: 'muted' }, t('mod.accuracyEmpty')));
    for (const f of flags) {
      const games = f.games.flatMap((g, i) => [i ? ' ' : '', h('a', { href: `/game/${g}` }, g)]);
      accuracyList.append(h('li', {},
        h('a', { href: `/@/${f.player}` }, f.player), ' · ',
        t('mod.accuracyLine', { rating: f.rating, a: f.accuracy.toFixed(1), band: f.band_accuracy.toFixed(1), n: f.band_games }),
        h('br'), h('span', { class: 'muted' }, t('mod.accuracyGames')), ' ', ...games));
    }
  }

  function reportCard(/** @type {ReportView} */ r) {
    /**
     * @param {string} key
     * @param {string} method
     * @param {string} path
     * @param {unknown} [body]
     * @param {string} [confirmText]
     */
    const act = (key, method, path, body, confirmText) => h('button', { type: 'button', class: 'btn small', onclick: async () => {
      if (confirmText && !(await confirmDialog({ title: t(key), text: confirmText, ok: t(key), danger: true }))) return;
      try {
        await request(method, path, body === undefined ? {} : { body });
        toast(t('mod.done'));
        load();
      } catch (err) {
        toast(socialError(err), 'error');
      }
    } }, t(key));
    const who = encodeURIComponent(r.player);
    const flags = [r.muted_until ? t('mod.muted') : null, r.closed ? t('mod.closed') : null].filter(Boolean).join(' · ');
    return h('article', { class: 'card report', 'aria-labelledby': `report-${r.id}` },
      h('h2', { id: `report-${r.id}`, style: 'font-size:1rem;margin:0' },
        t('mod.report', { player: r.player, reporter: r.reporter })),
      h('p', { class: 'muted' }, `${t(`report.reason.${r.reason}`)} · ${timeAgo(r.created_at)}${flags ? ` · ${flags}` : ''}`),
      r.text ? h('p', { style: 'white-space:pre-wrap' }, r.text) : null,
      r.context.length ? h('div', {},
        h('h3', { style: 'font-size:.9rem;margin:4px 0' }, t('mod.context')),
        h('ol', { class: 'chat-log' }, ...r.context.map((l) => h('li', { class: `chat-line${l.id === r.chat_line ? ' reported' : ''}` },
          h('strong', {}, l.name), ' ', h('span', {}, l.text))))) : null,
      h('div', { class: 'report-actions' },
        r.game ? h('a', { class: 'btn small', href: `/game/${r.game}` }, t('mod.game')) : null,
        h('a', { class: 'btn small', href: `/@/${who}` }, r.player),
        act('mod.resolve', 'POST', `/api/moderation/reports/${r.id}/resolve`, {}),
        r.muted_until
          ? act('mod.unmute', 'DELETE', `/api/moderation/players/${who}/mute`)
          : act('mod.mute', 'POST', `/api/moderation/players/${who}/mute`, { minutes: 1440 }),
        r.closed
          ? act('mod.reopen', 'POST', `/api/moderation/players/${who}/reopen`)
          : act('mod.close', 'POST', `/api/moderation/players/${who}/close`, undefined, t('mod.confirmClose', { name: r.player }))));
  }

  return {
    unmount() { stopped = true; },
    onLang() { setTitle(); translateDom(main); load(); },
    onSession() { load(); },
  };
}
