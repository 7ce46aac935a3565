// The list of games to watch: those being played now (live) and the recently finished ones
// (to replay). Refreshed every few seconds.

import { h, clear, translateDom } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { gameItem } from '../widgets.js';

/** @typedef {import('api-types').GameSummary} GameSummary */

export function mount(/** @type {HTMLElement} */ main) {
  const liveList = h('ul', { class: 'game-list', id: 'live-games' });
  const doneList = h('ul', { class: 'game-list', id: 'finished-games' });
  /** @type {GameSummary[] | null} */
  let live = null;
  /** @type {GameSummary[] | null} */
  let done = null;
  let timer = null;

  const setTitle = () => { document.title = `${t('watch.title')} · Mabula`; };
  setTitle();

  main.append(h('section', { class: 'watch' },
    h('h1', { i18n: 'watch.title' }),
    h('p', { class: 'muted', i18n: 'watch.intro' }),
    h('div', { class: 'watch-grid' },
      h('section', { class: 'card', 'aria-labelledby': 'live-title' }, h('h2', { id: 'live-title', i18n: 'watch.live' }), liveList),
      h('section', { class: 'card', 'aria-labelledby': 'done-title' }, h('h2', { id: 'done-title', i18n: 'watch.finished' }), doneList))));

  function fill(/** @type {HTMLElement} */ list, /** @type {GameSummary[] | null} */ games, /** @type {string} */ emptyKey) {
    clear(list);
    if (games === null) {
      list.append(h('li', { class: 'empty-note', i18n: 'watch.loading' }));
    } else if (!games.length) {
      list.append(h('li', { class: 'empty-note', i18n: emptyKey }));
    } else {
      for (const g of games) list.append(gameItem(g));
    }
  }

  function render() {
    fill(liveList, live, 'watch.live.none');
    fill(doneList, done, 'watch.finished.none');
  }

  async function refresh() {
    try {
      const [l, d] = await Promise.all([api.list('live', 30), api.list('finished', 30)]);
      live = l.games;
      done = d.games;
    } catch {
      live = live || [];
      done = done || [];
    }
    render();
  }

  render();
  refresh();
  timer = setInterval(refresh, 5000);

  return {
    unmount() { clearInterval(timer); },
    onLang() { setTitle(); translateDom(main); render(); },
  };
}
