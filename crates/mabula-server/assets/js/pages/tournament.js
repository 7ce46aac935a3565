// A tournament's page (`/tournament/{id}`, issue 37): its name and settings, the countdown to the
// start (then the round or the arena's time left, then the podium), join (with the password when
// it has one), withdraw, the creator's Start, the live standings, the rounds with each game (for
// players and spectators), your own game at the top, and the games' record file. Live through
// the tournament's socket (`/api/tournaments/{id}/ws`, an api.js `Socket`), which sends the
// whole tournament on each connection and change; a screen reader hears your rank, a new leader
// and your next game.
//
// When the socket says your game began, the page goes to it. A player who opened a game from
// this page keeps the socket (`kept`) while on game pages: it says they are there to be paired
// (an arena pairs only those), and the lobby's feed calls them to each new game.
//
// Built like the lobby: the model and its `update` live in tournament-model.js.

import { program } from '../program.js';
import { h, clear, translateDom, announce, setText } from '../dom.js';
import { t, lang } from '../i18n.js';
import { request, Socket } from '../api.js';
import { sessionReady, myName } from '../session.js';
import { navigate } from '../nav.js';
import { errorText } from './errors.js';
import { goToGame } from '../lobbyfeed.js';
import { addTournamentStyles } from './tournament-style.js';
import {
  init, update, countdown, countdownText, phase, joined, paused, canJoin, canStart, myGames, myPairing, tiebreakText,
  podium, roundsLatestFirst, same,
} from './tournament-model.js';

/** @typedef {import('./tournament-model.js').Model} Model */
/** @typedef {import('api-types').TournamentView} Tournament */

const enc = encodeURIComponent;

/** The tournament calls of the API (docs/api.md, "Tournaments"). */
export const tourApi = {
  get: (/** @type {string} */ id) => request('GET', `/api/tournaments/${enc(id)}`),
  list: () => request('GET', '/api/tournaments'),
  create: (/** @type {object} */ body) => request('POST', '/api/tournaments', { body }),
  join: (/** @type {string} */ id, /** @type {string | null} */ password) => request('POST', `/api/tournaments/${enc(id)}/join`, { body: password ? { password } : {} }),
  withdraw: (/** @type {string} */ id) => request('POST', `/api/tournaments/${enc(id)}/withdraw`, { body: {} }),
  pause: (/** @type {string} */ id) => request('POST', `/api/tournaments/${enc(id)}/pause`, { body: {} }),
  start: (/** @type {string} */ id) => request('POST', `/api/tournaments/${enc(id)}/start`, { body: {} }),
  gamesPath: (/** @type {string} */ id) => `/api/tournaments/${enc(id)}/games`,
};

/** Points and tie-breaks as the language writes them: `2`, `1.5`, `1,5`. */
export function points(/** @type {number} */ x) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 2 }).format(x);
}

/** The settings in one line: "Swiss · 5 rounds · duplicate · 3+2 · largest group · rated". */
export function settingsLine(/** @type {import('api-types').TournamentSettings} */ s) {
  const parts = [t(`tour.format.${s.format}`)];
  if (s.format === 'swiss') parts.push(t('tour.rounds', { n: s.rounds ?? 0 }));
  else parts.push(t('tour.minutes', { n: s.minutes ?? 0 }));
  if (s.duplicate) parts.push(t(s.sequential ? 'tour.duplicateSequential' : 'tour.duplicate'));
  parts.push(s.label, t(`scoring.${s.scoring}`), t(s.rated ? 'lobby.rated' : 'lobby.casual'));
  if (s.min_rating !== null && s.min_rating !== undefined) parts.push(t('tour.minRatingShort', { n: s.min_rating }));
  if (s.password) parts.push(t('tour.private'));
  return parts.join(' · ');
}

/** A refusal of the server in words: its translation, or (a code of its own) its message. */
export function refusalText(/** @type {any} */ err) {
  const known = errorText(err);
  return known === t('error.unknown') && err?.message ? err.message : known;
}

/** A result token as the tables show it. */
function resultText(/** @type {string} */ r) {
  if (r === '1-0') return '1–0';
  if (r === '0-1') return '0–1';
  if (r === '1/2-1/2') return '½–½';
  if (r === 'aborted') return t('tour.calledOff');
  return t('tour.playing');
}

// ---- The socket kept while its player plays a game of it -------------------------------------

/** @typedef {import('api-types').TournamentMessage} TournamentMessage */

/**
 * The tournament's socket, kept while its player is on game pages: an open socket says the
 * player is there, so an arena goes on pairing them. The lobby's feed calls them to each new game
 * (lobbyfeed.js).
 * @type {{ id: string, live: Socket<TournamentMessage> } | null}
 */
let kept = null;

function dropKept() {
  kept?.live.close();
  kept = null;
}

/** Keeps the socket of tournament `id` while its player is on a game page. */
function keep(/** @type {string} */ id, /** @type {Socket<TournamentMessage>} */ live) {
  dropKept();
  kept = { id, live };
  live.onStatus = () => { /* nothing shows it */ };
  live.onMessage = () => { /* the lobby's feed calls */ };
}

const stillWatching = () => {
  if (kept && !location.pathname.startsWith('/game/')) dropKept();
};
window.addEventListener('routechange', stillWatching);
window.addEventListener('popstate', stillWatching);

// ---- The page --------------------------------------------------------------------------------

export function mount(/** @type {HTMLElement} */ main, /** @type {{ id: string }} */ { id }) {
  addTournamentStyles();
  if (kept?.id === id) dropKept();
  const page = program(init({ id, me: myName(), now: Date.now() }), update, render, run);
  const dispatch = page.dispatch;
  /** @type {number | undefined} */
  let timer;
  /** What each part of the page was last drawn from. */
  let drawn = /** @type {Record<string, string>} */ ({});
  // The server sends the whole tournament on each connection and change: no hello, no resync.
  /** @type {Socket<TournamentMessage>} */
  const live = new Socket(`/api/tournaments/${enc(id)}/ws`, {
    synced: (msg) => msg.type === 'state',
    onMessage: (msg) => {
      if (msg.type === 'state') dispatch({ type: 'tournament', tournament: msg.tournament });
      else if (msg.type === 'game') dispatch({ type: 'game', id: msg.id });
    },
    onStatus: (status) => dispatch({ type: 'status', status }),
  });

  // ---- Skeleton ------------------------------------------------------------------------------
  const title = h('h1', { class: 'tour-name' });
  const settings = h('p', { class: 'tour-settings muted' });
  const phaseEl = h('p', { class: 'tour-phase' });
  const clockEl = h('span', { class: 'tour-countdown', role: 'timer', 'aria-live': 'off' });
  const connEl = h('span', { class: 'conn' });
  const callBox = h('div', { class: 'tour-call', hidden: true });
  const actions = h('div', { class: 'tour-actions' });
  const podiumBox = h('ol', { class: 'podium', 'i18n-aria-label': 'tour.winners', hidden: true });
  const standingsBody = h('tbody');
  const standingsHead = h('thead');
  const standings = h('table', { class: 'tour-table standings-table' },
    h('caption', { class: 'sr-only', i18n: 'tour.standings' }), standingsHead, standingsBody);
  const standingsCard = h('section', { class: 'card standings-card', 'aria-labelledby': 'standings-title' },
    h('h2', { id: 'standings-title', i18n: 'tour.standings' }),
    h('div', { class: 'table-scroll' }, standings));
  const roundsBox = h('div', { class: 'rounds' });
  const download = h('a', { class: 'btn small download-games', href: tourApi.gamesPath(id), download: `mabula-tournament-${id}.txt`, i18n: 'tour.download' });
  const roundsCard = h('section', { class: 'card rounds-card', 'aria-labelledby': 'rounds-title' },
    h('div', { class: 'section-head' }, h('h2', { id: 'rounds-title', i18n: 'tour.roundsTitle' }), download),
    roundsBox);
  const section = h('section', { class: 'tournament' },
    h('p', { class: 'crumbs' }, h('a', { href: '/tournaments', i18n: 'tour.all' })),
    title, settings,
    h('div', { class: 'tour-status' }, phaseEl, clockEl, connEl),
    callBox, actions, podiumBox,
    h('div', { class: 'tour-grid' }, standingsCard, roundsCard));
  main.append(h('p', { class: 'muted', i18n: 'tour.loading' }));

  const password = h('input', { type: 'password', id: 'tour-password', autocomplete: 'off', maxlength: 100 });

  // ---- Effects -------------------------------------------------------------------------------

  /** @param {string} action @param {Promise<any>} call */
  function act(action, call) {
    call.then((answer) => dispatch({ type: 'done', action, tournament: answer && answer.standings ? answer : null }))
      .catch((error) => dispatch({ type: 'refused', action, error }));
  }

  function run(/** @type {any} */ e) {
    switch (e.type) {
      case 'load':
        tourApi.get(id).then((tour) => dispatch({ type: 'tournament', tournament: tour }))
          .catch((error) => {
            // No such tournament: its socket would be refused again and again.
            if (error.status === 404) live.close();
            dispatch({ type: 'failed', error });
          });
        break;
      case 'feed':
        dispatch({ type: 'tournament', tournament: e.tournament });
        break;
      case 'connect':
        live.open();
        break;
      case 'every':
        clearInterval(timer);
        timer = setInterval(() => dispatch({ type: 'tick', now: Date.now() }), e.ms);
        break;
      case 'join':
        act('join', tourApi.join(id, e.password || password.value || null));
        break;
      case 'withdraw':
        act('withdraw', tourApi.withdraw(id));
        break;
      case 'pause':
        act('pause', tourApi.pause(id));
        break;
      case 'begin':
        act('begin', tourApi.start(id));
        break;
      case 'login':
        navigate(`/login?next=/tournament/${id}`);
        break;
      case 'announce':
        announce(t(e.key, e.args));
        break;
      case 'goToGame':
        goToGame(e.id);
        break;
      default:
        break;
    }
  }

  // ---- Rendering -----------------------------------------------------------------------------

  /** Draws a part of the page when `key` (what it is drawn from) changed since the last time. */
  function part(/** @type {string} */ name, /** @type {string} */ key, /** @type {() => void} */ draw) {
    if (drawn[name] === key) return;
    drawn[name] = key;
    draw();
  }

  function setTitle() {
    document.title = `${page.model.tour ? page.model.tour.name : t('tour.title')} · Mabula`;
  }

  function render(/** @type {Model} */ m) {
    if (!m.tour) {
      if (m.failure) part('failure', String(m.failure.code), () => renderFailure(m.failure));
      return;
    }
    if (!section.isConnected) {
      clear(main);
      main.append(section);
    }
    const tour = m.tour;
    const v = `${tour.version}|${m.me}|${lang()}`;
    part('head', v, () => {
      title.textContent = tour.name;
      settings.textContent = settingsLine(tour.settings);
      setTitle();
    });
    const ph = phase(m);
    part('phase', `${v}|${ph.key}`, () => {
      setText(phaseEl, ph.key, ph.args);
      phaseEl.dataset.status = tour.status;
    });
    const cd = countdown(m);
    clockEl.hidden = !cd;
    if (cd) clockEl.textContent = t(cd.key, { time: countdownText(cd.ms) });
    part('conn', `${m.conn}|${tour.status}`, () => {
      connEl.hidden = tour.status === 'finished';
      connEl.className = `conn ${m.conn}`;
      connEl.textContent = t(`conn.${m.conn === 'offline' ? 'connecting' : m.conn}`);
    });
    part('call', `${v}|${m.called}`, () => renderCall(m));
    part('actions', `${v}|${m.busy}|${JSON.stringify(m.refused)}`, () => renderActions(m));
    part('podium', v, () => renderPodium(m));
    part('standings', v, () => renderStandings(m));
    part('rounds', v, () => renderRounds(m));
  }

  function renderFailure(/** @type {any} */ err) {
    clear(main);
    const notFound = err && err.status === 404;
    main.append(h('section', { class: 'notfound' },
      h('h1', { i18n: notFound ? 'tour.notFound' : 'tour.loadFailed' }),
      h('p', {}, errorText(err)),
      h('a', { class: 'btn primary', href: '/tournaments', i18n: 'tour.all' })));
  }

  /** Your game now, at the top: "Your game: play now". */
  function renderCall(/** @type {Model} */ m) {
    clear(callBox);
    const games = myGames(m);
    const pairing = myPairing(m);
    if (games.length) {
      for (const g of games) {
        const opponent = same(g.white, m.me) ? g.black : g.white;
        const colour = same(g.white, m.me) ? 'White' : 'Black';
        callBox.append(h('a', { class: 'btn primary big play-now', href: `/game/${g.id}` },
          t('tour.yourGame', { name: opponent, side: t(`colour.${colour}`) })));
      }
    } else if (m.tour?.status === 'running' && joined(m) && pairing && !pairing.black && m.tour.settings.format === 'swiss') {
      callBox.append(h('p', { class: 'banner', i18n: 'tour.youHaveBye' }));
    } else if (m.tour?.status === 'running' && joined(m) && !paused(m)) {
      callBox.append(h('p', { class: 'muted', i18n: m.tour.settings.format === 'arena' ? 'tour.waitPairing' : 'tour.waitRound' }));
    }
    callBox.hidden = !callBox.firstChild;
  }

  function renderActions(/** @type {Model} */ m) {
    clear(actions);
    const tour = /** @type {Tournament} */ (m.tour);
    const refusal = (/** @type {string} */ action) => (m.refused && m.refused.action === action
      ? h('p', { class: 'error-text', role: 'alert' }, refusalText(m.refused.error)) : '');
    if (tour.status === 'finished') return;
    if (!m.me) {
      actions.append(h('p', {}, h('a', { class: 'btn primary', href: `/login?next=/tournament/${tour.id}`, i18n: 'tour.loginToJoin' })));
      return;
    }
    if (paused(m)) actions.append(h('p', { class: 'banner paused-note', i18n: 'tour.pausedNote' }));
    if (canJoin(m)) {
      const form = h('form', { class: 'join-form', novalidate: true, onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        dispatch({ type: 'join', password: tour.settings.password ? password.value : null });
      } });
      if (tour.settings.password) {
        form.append(h('div', { class: 'field-row' },
          h('label', { for: 'tour-password', class: 'field-label', i18n: 'tour.password' }), password));
      }
      form.append(h('button', { type: 'submit', class: 'btn primary join-button', disabled: Boolean(m.busy), i18n: paused(m) ? 'tour.resume' : 'tour.join' }), refusal('join'));
      actions.append(form);
    } else if (joined(m)) {
      actions.append(h('p', { class: 'muted', i18n: 'tour.youAreIn' }));
      // An arena's player may pause (not paired until they come back) or leave.
      if (tour.settings.format === 'arena') {
        actions.append(h('button', { type: 'button', class: 'btn pause-button', disabled: Boolean(m.busy), i18n: 'tour.pause',
          onclick: () => dispatch({ type: 'pause' }) }), refusal('pause'));
      }
    }
    if (joined(m)) {
      actions.append(h('button', { type: 'button', class: 'btn withdraw-button', disabled: Boolean(m.busy), i18n: 'tour.withdraw',
        onclick: () => dispatch({ type: 'withdraw' }) }), refusal('withdraw'));
    }
    if (canStart(m)) {
      actions.append(h('button', { type: 'button', class: 'btn primary start-button', disabled: Boolean(m.busy), i18n: 'tour.startNow',
        onclick: () => dispatch({ type: 'begin' }) }), refusal('begin'));
    }
  }

  function renderPodium(/** @type {Model} */ m) {
    clear(podiumBox);
    const top = podium(m);
    podiumBox.hidden = !top.length;
    top.forEach((s, i) => {
      podiumBox.append(h('li', { class: `place place-${i + 1}` },
        h('span', { class: 'medal', 'aria-hidden': 'true' }, String(s.rank)),
        h('a', { href: `/@/${s.name}`, class: 'player-link' }, s.name),
        h('span', { class: 'muted' }, t('tour.pointsN', { n: points(s.points) }))));
    });
  }

  function renderStandings(/** @type {Model} */ m) {
    const tour = /** @type {Tournament} */ (m.tour);
    const arena = tour.settings.format === 'arena';
    const breaks = arena ? ['tour.performance'] : ['tour.buchholz', 'tour.sb'];
    const th = (/** @type {string} */ key, cls = '') => h('th', { scope: 'col', class: cls, i18n: key });
    clear(standingsHead);
    // Sonneborn-Berger is written short, its name in the abbreviation's title.
    const sb = h('th', { scope: 'col', class: 'num opt' }, h('abbr', { 'i18n-title': 'tour.sb' }, 'SB'));
    standingsHead.append(h('tr', {}, th('tour.rank', 'num'), th('tour.player'), th('tour.rating', 'num'), th('tour.points', 'num'),
      ...breaks.map((k) => (k === 'tour.sb' ? sb : th(k, 'num opt'))), th('tour.played', 'num opt')));
    clear(standingsBody);
    if (!tour.standings.length) {
      standingsBody.append(h('tr', {}, h('td', { colspan: 5 + breaks.length, class: 'empty-note', i18n: 'tour.noPlayers' })));
      return;
    }
    for (const s of tour.standings) {
      const mine = same(s.name, m.me);
      const marks = [];
      if (arena && s.streak) marks.push(h('span', { class: 'streak', title: t('tour.streak') }, h('span', { 'aria-hidden': 'true' }, '×2'), h('span', { class: 'sr-only' }, t('tour.streak'))));
      if (s.withdrawn) marks.push(h('span', { class: 'withdrawn-mark' }, t('tour.withdrawn')));
      else if (s.paused) marks.push(h('span', { class: 'paused-mark' }, t('tour.paused')));
      standingsBody.append(h('tr', { class: `${mine ? 'mine' : ''}${s.withdrawn ? ' withdrawn' : ''}`.trim() || null, dataset: { name: s.name } },
        h('td', { class: 'num' }, String(s.rank)),
        h('th', { scope: 'row' }, h('a', { href: `/@/${s.name}`, class: 'player-link' }, s.name), ...marks.map((x) => [' ', x])),
        h('td', { class: 'num' }, String(s.rating)),
        h('td', { class: 'num points' }, points(s.points)),
        ...breaks.map((_, i) => h('td', { class: 'num opt' }, tiebreakText(s.tiebreaks[i] ?? 0, arena, points))),
        h('td', { class: 'num opt' }, String(s.played))));
    }
  }

  function renderRounds(/** @type {Model} */ m) {
    clear(roundsBox);
    const rounds = roundsLatestFirst(m);
    download.hidden = !rounds.length;
    if (!rounds.length) {
      roundsBox.append(h('p', { class: 'empty-note', i18n: 'tour.noRounds' }));
      return;
    }
    rounds.forEach((round, i) => {
      const list = h('ol', { class: 'pairings' });
      for (const p of round.pairings) {
        const mine = same(p.white, m.me) || same(p.black, m.me);
        if (!p.black) {
          list.append(h('li', { class: `pairing bye${mine ? ' mine' : ''}` },
            h('a', { href: `/@/${p.white}`, class: 'player-link' }, p.white), ' ', h('span', { class: 'muted' }, t('tour.bye'))));
          continue;
        }
        const score = p.points ? `${points(p.points[0])}–${points(p.points[1])}` : '';
        list.append(h('li', { class: `pairing${mine ? ' mine' : ''}` },
          h('span', { class: 'pair-names' },
            h('a', { href: `/@/${p.white}`, class: 'player-link' }, p.white), ' – ',
            h('a', { href: `/@/${p.black}`, class: 'player-link' }, p.black),
            score ? h('strong', { class: 'pair-score' }, ` ${score}`) : null),
          h('span', { class: 'pair-games' }, ...p.games.map((g) => {
            const playing = g.result === '*';
            const me = same(g.white, m.me) || same(g.black, m.me);
            const label = t(playing ? (me ? 'tour.gamePlay' : 'tour.gameWatch') : 'tour.gameResult', { white: g.white, black: g.black, result: resultText(g.result) });
            return h('a', { class: `game-link${playing ? ' live' : ''}`, href: playing ? `/game/${g.id}` : `/replay/${g.id}`, 'aria-label': label, dataset: { game: g.id } },
              resultText(g.result));
          }))));
      }
      const open = i === 0 || (m.tour?.settings.format === 'arena' && i < 3);
      roundsBox.append(h('details', { class: 'round', open, dataset: { round: String(round.number) } },
        h('summary', {}, t('tour.roundN', { n: round.number })), list));
    });
  }

  // ---- Start ---------------------------------------------------------------------------------

  dispatch({ type: 'start' });
  sessionReady().then(() => dispatch({ type: 'session', me: myName() }));

  return {
    unmount() {
      page.stopped = true;
      clearInterval(timer);
      // A player of a running tournament who opens a game keeps hearing of their next one.
      if (page.model.tour?.status === 'running' && joined(page.model) && location.pathname.startsWith('/game/')) keep(id, live);
      else live.close();
    },
    onSession() {
      dispatch({ type: 'session', me: myName() });
    },
    onLang() {
      translateDom(/** @type {any} */ (main));
      drawn = {};
      setTitle();
      render(page.model);
    },
  };
}
