// A player's profile (`/@/NAME`): ratings per scoring mode and speed, the rating over time as a
// graph, wins, draws and losses as first and as second player, the games (paged, filtered by
// result and scoring), all games as one record file, and a button to challenge them.

import { h, s, clear, translateDom, toast, announce } from '../dom.js';
import { t, lang, timeAgo } from '../i18n.js';
import { api, ApiError, request } from '../api.js';
import { navigate } from '../nav.js';
import { sessionReady, myName, isMe } from '../session.js';
import { controlLabel } from '../clock.js';
import { errorText } from './errors.js';
import { ratingText, ratingDiff, botBadge } from '../widgets.js';
import { profileButtons, moderatorLink } from '../social.js'; // reports and blocks (issue 36)
import { addTournamentStyles } from './tournament-style.js'; // the tournaments card (issue 37)

const SCORINGS = ['largest', 'product'];
const SPEEDS = ['realtime', 'correspondence'];
/** The graph's series, in the order of their colours (css: .series-0 …). */
const SERIES = SCORINGS.flatMap((scoring) => SPEEDS.map((speed) => ({ scoring, speed })));
/** Where every rating starts (Glicko-2's usual start, as the server gives a new account). */
const START_RATING = 1500;

/**
 * @typedef {import('api-types').Profile} Profile
 * @typedef {import('api-types').RatingHistory} RatingHistory
 * @typedef {import('api-types').PlayerGames} PlayerGames
 * @typedef {PlayerGames['games'][number]} PlayerGame
 * @typedef {{ scoring: string, speed: string }} Series
 */

export function mount(/** @type {HTMLElement} */ main, /** @type {{ name: string }} */ { name }) {
  addTournamentStyles();
  /** @type {Profile | null} */
  let profile = null;
  /** @type {RatingHistory | null} */
  let history = null;
  /**
   * A page of the games, or why it could not be read.
   * @type {(PlayerGames & { error?: string }) | null}
   */
  let games = null;
  const q = new URLSearchParams(location.search);
  const filter = {
    page: Math.max(1, Number(q.get('page')) || 1),
    result: ['win', 'draw', 'loss'].includes(q.get('result') || '') ? q.get('result') || '' : '',
    scoring: SCORINGS.includes(q.get('scoring') || '') ? q.get('scoring') || '' : '',
  };
  let unmounted = false;
  /** @type {number | undefined} */
  let resizeTimer;
  /**
   * Whether I follow this player (null until known), and whether they are online.
   * @type {boolean | null}
   */
  let following = null;
  let online = false;
  /** The follow button had the focus before it was drawn again. */
  let refocus = false;

  const setTitle = () => { document.title = `${profile ? profile.name : name} · Mabula`; };
  setTitle();
  main.append(h('p', { class: 'muted loading', i18n: 'profile.loading' }));

  const head = h('header', { class: 'profile-head' });
  const ratingsBox = h('div', { class: 'rating-tiles' });
  const resultsBox = h('div', {});
  const graphBox = h('div', { class: 'graph-box' });
  const gamesList = h('ul', { class: 'history-list', id: 'history' });
  const pager = h('nav', { class: 'pager', 'i18n-aria-label': 'profile.pages' });
  const toursList = h('ul', { class: 'tour-list', id: 'profile-tournaments' });
  const toursCard = h('section', { class: 'card tournaments-card', 'aria-labelledby': 'tours-title', hidden: true },
    h('h2', { id: 'tours-title', i18n: 'tour.profileTitle' }), toursList);
  /** @type {import('api-types').PlayerTournament[] | null} */
  let tours = null;
  // The puzzle rating and latest attempts (issue 39).
  const puzList = h('ul', { class: 'tour-list', id: 'profile-puzzles' });
  const puzLine = h('p', { id: 'profile-puzzle-rating' });
  const puzCard = h('section', { class: 'card puzzles-card', 'aria-labelledby': 'puz-profile-title', hidden: true },
    h('h2', { id: 'puz-profile-title', i18n: 'puz.profileTitle' }), puzLine, puzList);
  /** @type {any} */
  let puz = null;
  const filters = h('form', { class: 'history-filters', onsubmit: (e) => e.preventDefault() });
  const section = h('section', { class: 'profile' },
    head,
    h('div', { class: 'profile-grid' },
      h('section', { class: 'card ratings-card', 'aria-labelledby': 'ratings-title' },
        h('h2', { id: 'ratings-title', i18n: 'profile.ratings' }), ratingsBox),
      h('section', { class: 'card results-card', 'aria-labelledby': 'results-title' },
        h('h2', { id: 'results-title', i18n: 'profile.results' }), resultsBox),
      h('section', { class: 'card graph-card', 'aria-labelledby': 'graph-title' },
        h('h2', { id: 'graph-title', i18n: 'profile.graph' }), graphBox),
      h('section', { class: 'card games-card', 'aria-labelledby': 'games-title' },
        h('div', { class: 'section-head' }, h('h2', { id: 'games-title', i18n: 'profile.games' }),
          h('a', { class: 'btn small download-all', href: api.recordsPath(name), download: `mabula-${name.toLowerCase()}.txt`, i18n: 'profile.download' })),
        filters, gamesList, pager),
      toursCard, puzCard));

  start();

  async function start() {
    try {
      [profile, history] = await Promise.all([api.profile(name), api.ratingHistory(name)]);
    } catch (err) {
      if (unmounted) return;
      clear(main);
      const missing = err instanceof ApiError && err.code === 'player_not_found';
      main.append(h('section', { class: 'notfound' },
        h('h1', { i18n: missing ? 'profile.notFound' : 'profile.loadFailed' }),
        h('p', {}, missing ? t('profile.notFound.text', { name }) : errorText(err)),
        h('a', { class: 'btn primary', href: '/lobby', i18n: 'login.toLobby' })));
      document.title = `${t(missing ? 'profile.notFound' : 'profile.loadFailed')} · Mabula`;
      return;
    }
    if (unmounted) return;
    // The address keeps the name as the account spells it.
    if (profile.name !== name) history_replace(`/@/${profile.name}${location.search}`);
    setTitle();
    clear(main);
    main.append(section);
    buildFilters();
    render();
    loadGames();
    loadTournaments();
    loadPuzzles();
    sessionReady().then(() => { if (!unmounted) renderHead(); });
  }

  /** The player's tournaments and results (issue 37). */
  async function loadTournaments() {
    const prof = profile;
    if (!prof) return;
    try {
      const answer = await request('GET', `/api/players/${encodeURIComponent(prof.name)}/tournaments`);
      tours = Array.isArray(answer) ? answer : answer.tournaments;
    } catch {
      tours = null;
    }
    if (!unmounted) renderTournaments();
  }

  function renderTournaments() {
    clear(toursList);
    toursCard.hidden = !tours;
    if (!tours) return;
    if (!tours.length) toursList.append(h('li', { class: 'empty-note', i18n: 'tour.profileNone' }));
    const date = new Intl.DateTimeFormat(lang(), { year: 'numeric', month: 'short', day: 'numeric' });
    const pts = new Intl.NumberFormat(lang(), { maximumFractionDigits: 2 });
    for (const x of tours) {
      toursList.append(h('li', { class: 'tour-item' },
        h('a', { href: `/tournament/${x.id}`, class: 'tour-link' }, x.name),
        h('span', { class: 'muted tour-meta' }, [t(`tour.format.${x.format}`), date.format(new Date(x.starts_at)),
          x.rank ? t('tour.profileRank', { rank: x.rank, players: x.players }) : t('tour.playersN', { n: x.players }),
          t('tour.pointsN', { n: pts.format(x.points) })].join(' · '))));
    }
  }

  /** The player's puzzle rating and latest attempts (issue 39). */
  async function loadPuzzles() {
    const prof = profile;
    if (!prof) return;
    try {
      puz = await request('GET', `/api/players/${encodeURIComponent(prof.name)}/puzzles`);
    } catch {
      puz = null;
    }
    if (!unmounted) renderPuzzles();
  }

  function renderPuzzles() {
    clear(puzList);
    puzCard.hidden = !puz;
    if (!puz) return;
    puzLine.textContent = t('puz.profileLine', { rating: puz.rating, solved: puz.solved, attempts: puz.attempts });
    if (!puz.recent.length) puzList.append(h('li', { class: 'empty-note', i18n: 'puz.profileNone' }));
    for (const a of puz.recent.slice(0, 10)) {
      const change = a.rated && typeof a.rating_change === 'number' ? (a.rating_change >= 0 ? `+${a.rating_change}` : `−${-a.rating_change}`) : t('puz.histUnrated');
      puzList.append(h('li', { class: 'tour-item' },
        h('a', { href: `/puzzles/${a.puzzle}`, class: 'tour-link' }, a.puzzle),
        // An unrated attempt began with a hint: it was not judged as a first attempt.
        h('span', { class: 'muted tour-meta' }, a.rated ? `${t(a.correct ? 'puz.histSolved' : 'puz.histFailed')} · ${change}` : change)));
    }
  }

  function history_replace(/** @type {string} */ path) {
    window.history.replaceState(null, '', path);
  }

  function render() {
    renderHead();
    renderRatings();
    renderResults();
    renderGraph();
    renderGames();
    renderTournaments();
    renderPuzzles();
  }

  function renderHead() {
    const prof = profile;
    if (!prof) return;
    clear(head);
    const since = new Intl.DateTimeFormat(lang(), { year: 'numeric', month: 'long', day: 'numeric' }).format(new Date(prof.created_at));
    const buttons = [];
    if (myName() && !isMe(prof.name)) {
      buttons.push(h('button', { type: 'button', class: 'btn primary challenge-button', i18n: 'profile.challenge',
        onclick: () => navigate(`/lobby?challenge=${encodeURIComponent(prof.name)}`) }));
      buttons.push(followButton(prof));
      buttons.push(...profileButtons(prof.name)); // reports and blocks (issue 36)
    } else if (!myName()) {
      buttons.push(h('a', { class: 'btn', href: `/login?next=${encodeURIComponent(location.pathname)}`, i18n: 'profile.loginToChallenge' }));
    }
    if (isMe(prof.name)) buttons.push(moderatorLink()); // moderators (issue 36)
    head.append(
      h('div', { class: 'profile-name' },
        h('span', { class: 'avatar big', 'aria-hidden': 'true' }, prof.name.slice(0, 1).toUpperCase()),
        h('div', {},
          h('h1', {}, prof.name, prof.bot ? [' ', botBadge()] : null,
            following && online ? h('span', { class: 'online-dot', role: 'img', 'i18n-aria-label': 'profile.online', 'i18n-title': 'profile.online' }) : null),
          h('p', { class: 'muted' }, isMe(prof.name) ? t('profile.you', { date: since }) : t('profile.since', { date: since })))),
      h('div', { class: 'row-buttons' }, ...buttons));
  }

  /** The follow button: its state is read once, then kept from its own answers. */
  function followButton(/** @type {Profile} */ prof) {
    const button = h('button', {
      type: 'button', class: 'btn follow-button', 'aria-pressed': String(!!following),
      i18n: following ? 'profile.unfollow' : 'profile.follow', disabled: following === null,
      onclick: async () => {
        button.disabled = true;
        try {
          if (following) await api.unfollow(prof.name);
          else await api.follow(prof.name);
          announce(t(following ? 'profile.unfollowed' : 'profile.followed', { name: prof.name }));
          // Read again: whether they are online comes with the list.
          following = null;
        } catch (err) {
          toast(errorText(err), 'error');
        }
        refocus = true;
        renderHead();
      },
    });
    if (following === null) {
      api.following().then((list) => {
        if (unmounted) return;
        const row = list.players.find((p) => p.name === prof.name);
        following = !!row;
        online = !!row && row.online;
        renderHead();
        if (refocus) /** @type {HTMLElement | null} */ (head.querySelector('.follow-button'))?.focus();
        refocus = false;
      }).catch(() => { following = false; if (!unmounted) renderHead(); });
    }
    return button;
  }

  function renderRatings() {
    const prof = profile;
    if (!prof) return;
    clear(ratingsBox);
    for (const { scoring, speed } of SERIES) {
      const r = prof.ratings.find((x) => x.scoring === scoring && x.speed === speed);
      ratingsBox.append(h('div', { class: `rating-tile${r ? '' : ' none'}`, dataset: { scoring, speed } },
        h('span', { class: 'tile-label' }, `${t(`scoring.${scoring}`)} · ${t(`speed.${speed}`)}`),
        h('span', { class: 'tile-value', 'aria-label': r ? t(r.provisional ? 'profile.ratingProvisional' : 'profile.ratingIs', { r: r.rating }) : null },
          r ? ratingText(r.rating, r.provisional) : '—'),
        h('span', { class: 'tile-sub muted' }, r ? `${t('profile.rated', { n: r.games })} · ±${r.deviation}` : t('profile.noRated'))));
    }
    if (prof.ratings.some((r) => r.provisional)) {
      ratingsBox.append(h('p', { class: 'muted small-print', i18n: 'profile.provisionalNote' }));
    }
  }

  function renderResults() {
    const prof = profile;
    if (!prof) return;
    clear(resultsBox);
    const { first, second } = prof.results;
    const total = { wins: first.wins + second.wins, draws: first.draws + second.draws, losses: first.losses + second.losses };
    const row = (/** @type {string} */ key, /** @type {{ wins: number, draws: number, losses: number }} */ r, /** @type {string} */ cls = '') => h('tr', { class: cls || '' },
      h('th', { scope: 'row', i18n: key }),
      h('td', { class: 'num' }, String(r.wins)),
      h('td', { class: 'num' }, String(r.draws)),
      h('td', { class: 'num' }, String(r.losses)));
    resultsBox.append(h('table', { class: 'score-table results-table' },
      h('caption', { class: 'sr-only', i18n: 'profile.results' }),
      h('thead', {}, h('tr', {},
        h('td', {}),
        h('th', { scope: 'col', class: 'num', i18n: 'profile.wins' }),
        h('th', { scope: 'col', class: 'num', i18n: 'profile.draws' }),
        h('th', { scope: 'col', class: 'num', i18n: 'profile.losses' }))),
      h('tbody', {},
        row('profile.asFirst', first),
        row('profile.asSecond', second),
        row('profile.total', total, 'total'))));
  }

  // ---- The rating graph --------------------------------------------------------------------
  function renderGraph() {
    const prof = profile;
    const hist = history;
    if (!prof || !hist) return;
    clear(graphBox);
    const points = hist.points;
    if (!points.length) {
      graphBox.append(h('p', { class: 'empty-note', i18n: 'profile.graphEmpty' }));
      return;
    }
    const used = SERIES.map((sr, i) => ({ ...sr, i, points: points.filter((p) => p.scoring === sr.scoring && p.speed === sr.speed) }))
      .filter((sr) => sr.points.length);
    // Every rating starts at 1500 when the account is made: each line begins there.
    const origin = { at: Math.min(prof.created_at, ...points.map((p) => p.at)), rating: START_RATING };
    const width = Math.max(300, Math.round(graphBox.clientWidth || 640));
    const height = width < 500 ? 220 : 260;
    const pad = { left: 66, right: 16, top: 14, bottom: 46 };
    let t0 = origin.at;
    let t1 = Math.max(...points.map((p) => p.at));
    if (t1 - t0 < 10 * 60000) { const mid = (t0 + t1) / 2; t0 = mid - 5 * 60000; t1 = mid + 5 * 60000; }
    const ratings = [origin.rating, ...points.map((p) => p.rating)];
    const step = niceStep(Math.max(...ratings) - Math.min(...ratings));
    const y0 = Math.floor((Math.min(...ratings) - step / 2) / step) * step;
    const y1 = Math.ceil((Math.max(...ratings) + step / 2) / step) * step;
    const x = (/** @type {number} */ at) => pad.left + ((at - t0) / (t1 - t0)) * (width - pad.left - pad.right);
    const y = (/** @type {number} */ r) => pad.top + (1 - (r - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
    const span = t1 - t0;
    const fmt = new Intl.DateTimeFormat(lang(), span < 2 * 86400000
      ? { hour: '2-digit', minute: '2-digit' }
      : span < 300 * 86400000 ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short' });
    const full = new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' });

    /** @type {SVGElement[]} */
    const grid = [];
    for (let r = y0; r <= y1; r += step) {
      grid.push(s('line', { class: 'graph-grid', x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r) }),
        s('text', { class: 'graph-tick', x: pad.left - 8, y: y(r) + 4, 'text-anchor': 'end' }, String(r)));
    }
    const ticks = width < 500 ? 3 : 5;
    for (let i = 0; i < ticks; i++) {
      const at = t0 + (i / (ticks - 1)) * span;
      grid.push(s('line', { class: 'graph-axis-tick', x1: x(at), x2: x(at), y1: height - pad.bottom, y2: height - pad.bottom + 5 }),
        s('text', { class: 'graph-tick', x: x(at), y: height - pad.bottom + 19, 'text-anchor': i === 0 ? 'start' : i === ticks - 1 ? 'end' : 'middle' }, fmt.format(new Date(at))));
    }
    const lines = used.map((sr) => {
      const d = [origin, ...sr.points].map((p, k) => `${k ? 'L' : 'M'}${x(p.at).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(' ');
      return s('g', { class: `graph-series series-${sr.i}` },
        s('path', { class: 'graph-rating', d }),
        s('circle', { class: 'graph-origin', cx: x(origin.at), cy: y(origin.rating), r: 3.5 }),
        ...sr.points.map((p) => s('circle', { class: 'graph-point', cx: x(p.at), cy: y(p.rating), r: sr.points.length > 30 ? 2.5 : 4 },
          s('title', {}, `${seriesName(sr)}: ${Math.round(p.rating)} · ${full.format(new Date(p.at))}`))));
    });
    const summary = used.map((sr) => t('profile.graphSeries', {
      series: seriesName(sr), n: sr.points.length,
      from: Math.round(sr.points[0].rating), to: Math.round(sr.points[sr.points.length - 1].rating),
    })).join(' ');
    const svg = s('svg', { class: 'rating-graph', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-labelledby': 'graph-svg-title graph-svg-desc' },
      s('title', { id: 'graph-svg-title' }, t('profile.graph')),
      s('desc', { id: 'graph-svg-desc' }, summary),
      ...grid,
      s('line', { class: 'graph-axis', x1: pad.left, x2: pad.left, y1: pad.top, y2: height - pad.bottom }),
      s('line', { class: 'graph-axis', x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom }),
      s('text', { class: 'graph-label', x: 13, y: pad.top + (height - pad.top - pad.bottom) / 2, transform: `rotate(-90 13 ${pad.top + (height - pad.top - pad.bottom) / 2})`, 'text-anchor': 'middle' }, t('profile.axisRating')),
      s('text', { class: 'graph-label', x: pad.left + (width - pad.left - pad.right) / 2, y: height - 6, 'text-anchor': 'middle' }, t('profile.axisTime')),
      ...lines);
    const legend = h('ul', { class: 'graph-legend' }, ...used.map((sr) => h('li', {},
      h('span', { class: `swatch series-${sr.i}`, 'aria-hidden': 'true' }), seriesName(sr))));
    // The same numbers as a table, for whoever cannot see the graph or wants the exact values.
    const table = h('details', { class: 'graph-table' },
      h('summary', { i18n: 'profile.graphTable' }),
      h('table', { class: 'score-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', i18n: 'profile.when' }),
          h('th', { scope: 'col', i18n: 'profile.mode' }),
          h('th', { scope: 'col', class: 'num', i18n: 'profile.axisRating' }))),
        h('tbody', {}, ...points.slice(-50).reverse().map((p) => h('tr', {},
          h('td', {}, full.format(new Date(p.at))),
          h('td', {}, seriesName(p)),
          h('td', { class: 'num' }, String(Math.round(p.rating))))))));
    graphBox.append(h('figure', { class: 'graph-figure' }, svg, h('figcaption', {}, legend)), table);
  }

  function seriesName(/** @type {Series} */ sr) {
    return `${t(`scoring.${sr.scoring}`)} · ${t(`speed.${sr.speed}`)}`;
  }

  // ---- Games -------------------------------------------------------------------------------
  function buildFilters() {
    /**
     * @param {'filter-result' | 'filter-scoring'} id
     * @param {string} key
     * @param {[string, string][]} options
     * @param {string} value
     */
    const select = (id, key, options, value) => h('label', { class: 'filter', for: id },
      h('span', { i18n: key }),
      h('select', { id, onchange: (e) => { filter[id === 'filter-result' ? 'result' : 'scoring'] = /** @type {HTMLSelectElement} */ (e.target).value; filter.page = 1; loadGames(); } },
        ...options.map(([v, k]) => h('option', { value: v, selected: v === value, i18n: k }))));
    clear(filters);
    filters.append(
      select('filter-result', 'profile.filterResult', [['', 'profile.all'], ['win', 'profile.wins'], ['draw', 'profile.draws'], ['loss', 'profile.losses']], filter.result),
      select('filter-scoring', 'home.scoring', [['', 'profile.all'], ['largest', 'scoring.largest'], ['product', 'scoring.product']], filter.scoring));
  }

  async function loadGames() {
    const prof = profile;
    if (!prof) return;
    const q2 = new URLSearchParams();
    if (filter.page > 1) q2.set('page', String(filter.page));
    if (filter.result) q2.set('result', filter.result);
    if (filter.scoring) q2.set('scoring', filter.scoring);
    const qs = q2.toString();
    history_replace(`${location.pathname}${qs ? `?${qs}` : ''}`);
    gamesList.setAttribute('aria-busy', 'true');
    try {
      games = await api.playerGames(prof.name, filter);
    } catch (err) {
      games = { games: [], page: filter.page, more: false, error: errorText(err) };
    }
    gamesList.removeAttribute('aria-busy');
    if (!unmounted) renderGames();
  }

  /** @returns {[string, string]} */
  function outcome(/** @type {PlayerGame} */ g) {
    if (g.playing) return ['profile.playing', 'live'];
    if (g.end_reason === 'aborted') return ['profile.aborted', 'aborted'];
    if (g.outcome === 'win') return ['profile.won', 'win'];
    if (g.outcome === 'loss') return ['profile.lost', 'loss'];
    if (g.outcome === 'draw') return ['profile.drew', 'draw'];
    return ['result.ongoing', ''];
  }

  function reason(/** @type {PlayerGame} */ g) {
    switch (g.end_reason) {
      case 'timeout_white': case 'timeout_black': return t('profile.onTime');
      case 'resigned_white': case 'resigned_black': return t('profile.byResignation');
      case 'abandoned_white': case 'abandoned_black': return t('profile.byAbandon');
      default: return null;
    }
  }

  function renderGames() {
    clear(gamesList);
    clear(pager);
    if (!games) {
      gamesList.append(h('li', { class: 'empty-note', i18n: 'profile.loading' }));
      return;
    }
    if (games.error) gamesList.append(h('li', { class: 'error-text' }, games.error));
    else if (!games.games.length) gamesList.append(h('li', { class: 'empty-note', i18n: filter.result || filter.scoring ? 'profile.noGamesFiltered' : 'profile.noGames' }));
    for (const g of games.games) {
      const side = g.side || 'white';
      const opponent = side === 'white' ? g.black : g.white;
      // The opponent's rating then, the final scores and the rating change (issue 52).
      const rating = side === 'white' ? g.black_rating : g.white_rating;
      const [w, b] = g.scores ?? [0, 0];
      const [mine, theirs] = side === 'white' ? [w, b] : [b, w];
      const diff = g.rating_diff;
      const [key, cls] = outcome(g);
      const meta = [
        t(side === 'white' ? 'colour.White' : 'colour.Black'),
        g.control ? controlLabel(g.control) : null,
        t(`scoring.${g.scoring}`),
        t(g.rated ? 'lobby.rated' : 'lobby.casual'),
        t('list.moves', { n: g.move_count }),
        reason(g),
        timeAgo(g.created_at),
      ].filter(Boolean).join(' · ');
      gamesList.append(h('li', {}, h('a', { class: 'history-item', href: `/game/${g.id}` },
        h('span', { class: `dot ${side}`, 'aria-hidden': 'true' }),
        h('span', { class: 'history-main' },
          h('span', { class: 'what' }, g.white && g.white === g.black ? t('mode.local')
            : opponent ? t('lobby.against', { name: opponent }) : t('profile.againstAnonymous'),
          opponent && typeof rating === 'number' ? h('span', { class: 'muted history-rating' }, ` ${rating}`) : null),
          h('span', { class: 'meta' }, meta)),
        h('span', { class: 'history-end' },
          g.playing ? null : h('span', { class: 'history-score', 'aria-label': t('profile.scoreLabel', { mine, theirs }) }, `${mine}–${theirs}`),
          typeof diff === 'number' ? h('span', { class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : ''}`, 'aria-label': t('game.ratingChange', { d: ratingDiff(diff) }) }, ratingDiff(diff)) : null,
          h('span', { class: `badge outcome ${cls}` }, t(key))))));
    }
    if (games.page > 1 || games.more) {
      pager.append(
        h('button', { type: 'button', class: 'btn small', i18n: 'profile.newer', disabled: games.page <= 1,
          onclick: () => { filter.page -= 1; loadGames().then(focusList); } }),
        h('span', { class: 'muted' }, t('profile.page', { n: games.page })),
        h('button', { type: 'button', class: 'btn small', i18n: 'profile.older', disabled: !games.more,
          onclick: () => { filter.page += 1; loadGames().then(focusList); } }));
    }
  }

  function focusList() {
    gamesList.querySelector('a')?.focus();
  }

  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (history && !unmounted) renderGraph(); }, 150);
  };
  window.addEventListener('resize', onResize);

  return {
    unmount() {
      unmounted = true;
      window.removeEventListener('resize', onResize);
      clearTimeout(resizeTimer);
    },
    onLang() {
      setTitle();
      translateDom(main);
      if (profile) render();
    },
  };
}

/** A step for the rating axis that gives three to six lines. */
function niceStep(/** @type {number} */ range) {
  for (const step of [10, 20, 25, 50, 100, 200, 250, 500, 1000]) {
    if (range / step <= 5) return step;
  }
  return 1000;
}
