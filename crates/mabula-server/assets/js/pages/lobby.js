// The lobby (`/lobby`): open seeks as they come and go (the lobby's WebSocket), quick pairing
// for common clocks, a form to open a seek or challenge a named player, the challenges to you
// with accept and decline, your games where it is your turn, the players online and those you
// follow (following.js), and the notifications switch. Real-
// time seeks opened here are withdrawn when the page goes away: nobody waits for an empty chair.
//
// Built like the game page: the model and its `update(model, message)` live in lobby-model.js.
// Here the socket, the clicks and the timer become messages for `dispatch`, which updates the
// model, draws it with `render(model)` and carries out the effects the update asked for.

import { program } from '../program.js';
import { h, clear, translateDom, toast, announce } from '../dom.js';
import { t, timeAgo } from '../i18n.js';
import { api, withdrawOnLeave } from '../api.js';
import { sessionReady, myName } from '../session.js';
import { lobbyFeed, goToGame } from '../lobbyfeed.js';
import { permission, askPermission } from '../notify.js';
import { controlLabel, formatSeconds, formatClock } from '../clock.js';
import { errorText } from './errors.js';
import { ratingText, botBadge } from '../widgets.js';
import { followingCard } from './following.js';

import {
  init, update, PRESETS, fits, openSeeks, mySeeks, challengesToMe, quickWaiting, speedName,
} from './lobby-model.js';

/**
 * @typedef {import('./lobby-model.js').Model} Model
 * @typedef {import('pages-types').LobbyEffect} Effect
 * @typedef {import('api-types').Seek} Seek
 */

const PREFS_KEY = 'mabula:seek';
/** The custom clock's choices: seconds for the game, seconds added per move. */
const INITIALS = [15, 30, 45, 60, 90, 120, 180, 240, 300, 360, 420, 480, 540, 600, 720, 900, 1200, 1500, 1800, 2400, 2700, 3600, 4500, 5400, 7200, 9000, 10800];
const INCREMENTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 45, 60, 90, 120, 150, 180];
const DAYS = [1, 2, 3, 7];
const DEFAULTS = { time: '180+2', initial: 300, increment: 3, days: 2, scoring: 'largest', rated: 'rated', color: 'random', min: '', max: '', noBots: false, quickScoring: 'largest' };

function loadPrefs() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(PREFS_KEY) || '{}') }; } catch { return { ...DEFAULTS }; }
}

function savePrefs(/** @type {object} */ p) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(p)); } catch { /* private mode */ }
}

const presetKey = (/** @type {[number, number]} */ [i, inc]) => `${i}+${inc}`;


export function mount(/** @type {HTMLElement} */ main) {
  const prefs = loadPrefs();
  const page = program(init({ me: myName(), seeks: lobbyFeed.seeks, conn: lobbyFeed.status, quickScoring: prefs.quickScoring }), update, render, run);
  const dispatch = page.dispatch;
  /** @type {number | undefined} */
  let turnTimer;
  /**
   * What each part of the page was last drawn from (see `part`).
   * @type {Record<string, unknown>}
   */
  let drawn = {};


  const setTitle = () => { document.title = `${t('lobby.title')} · Mabula`; };
  setTitle();

  // ---- Skeleton ------------------------------------------------------------------------------
  const guestNote = h('div', { class: 'banner lobby-guest', hidden: true });
  const challengesCard = h('section', { class: 'card challenges-card', 'aria-labelledby': 'challenges-title', hidden: true });
  const challengeList = h('ul', { class: 'seek-list', id: 'challenges' });
  challengesCard.append(h('h2', { id: 'challenges-title', i18n: 'lobby.challenges' }), challengeList);

  const quickScoring = h('div', { class: 'seg' },
    ...['largest', 'product'].map((sc) => h('label', {},
      h('input', { type: 'radio', name: 'quick-scoring', value: sc, checked: prefs.quickScoring === sc,
        onchange: () => dispatch({ type: 'quickScoring', scoring: sc }) }),
      h('span', { i18n: `scoring.${sc}` }))));
  const quickGrid = h('div', { class: 'quick-grid' });
  const quickCard = h('section', { class: 'card quick-card', 'aria-labelledby': 'quick-title' },
    h('h2', { id: 'quick-title', i18n: 'lobby.quick' }),
    h('p', { class: 'muted', i18n: 'lobby.quick.hint' }),
    h('fieldset', { class: 'field-row' }, h('legend', { class: 'sr-only', i18n: 'home.scoring' }), quickScoring),
    quickGrid);

  const connEl = h('span', { class: 'conn' });
  const seekList = h('ul', { class: 'seek-list', id: 'seeks', 'aria-live': 'off' });
  const seeksCard = h('section', { class: 'card seeks-card', 'aria-labelledby': 'seeks-title' },
    h('div', { class: 'section-head' }, h('h2', { id: 'seeks-title', i18n: 'lobby.seeks' }), connEl),
    seekList);

  const mineList = h('ul', { class: 'seek-list', id: 'my-seeks' });
  const mineCard = h('section', { class: 'card mine-card', 'aria-labelledby': 'mine-title', hidden: true },
    h('h2', { id: 'mine-title', i18n: 'lobby.mine' }), mineList);

  const turnList = h('ul', { class: 'game-list turn-list', id: 'your-turn' });
  const turnCard = h('section', { class: 'card turn-card', 'aria-labelledby': 'turn-title', hidden: true },
    h('h2', { id: 'turn-title', i18n: 'lobby.turn' }), turnList);

  const notifyBox = h('div', { class: 'notify-box' });
  const notifyCard = h('section', { class: 'card notify-card', 'aria-labelledby': 'notify-title' },
    h('h2', { id: 'notify-title', i18n: 'lobby.notify' }), notifyBox);

  const people = followingCard();

  const seekForm = buildForm();
  const formCard = h('section', { class: 'card seek-card', 'aria-labelledby': 'seek-title' },
    h('h2', { id: 'seek-title', i18n: 'lobby.newSeek' }), seekForm.form);

  main.append(h('section', { class: 'lobby' },
    h('h1', { i18n: 'lobby.title' }),
    h('p', { class: 'muted lead', i18n: 'lobby.intro' }),
    guestNote,
    challengesCard,
    h('div', { class: 'lobby-grid' },
      h('div', { class: 'lobby-main' }, quickCard, seeksCard, mineCard),
      h('div', { class: 'lobby-side' }, turnCard, people.el, formCard, notifyCard))));

  // ---- The seek form -----------------------------------------------------------------------
  // Its fields keep their own values (and the preferences); a submit hands them to the model.
  function buildForm() {
    /**
     * @param {string} name
     * @param {string} value
     * @param {import('pages-types').Child} content
     * @param {boolean} checked
     */
    const radio = (name, value, content, checked) => h('label', {},
      h('input', { type: 'radio', name, value, checked }), content);
    const timeChoices = [
      ...PRESETS.map((p) => radio('time', presetKey(p), h('span', {}, controlLabel({ initial_s: p[0], increment_s: p[1] })), prefs.time === presetKey(p))),
      radio('time', 'custom', h('span', { i18n: 'lobby.custom' }), prefs.time === 'custom'),
      radio('time', 'days', h('span', { i18n: 'lobby.correspondence' }), prefs.time === 'days'),
    ];
    const initialIndex = Math.max(0, INITIALS.indexOf(Number(prefs.initial)));
    const incrementIndex = Math.max(0, INCREMENTS.indexOf(Number(prefs.increment)));
    const initialOut = h('output', { class: 'range-value', for: 'seek-initial', id: 'seek-initial-out' });
    const incrementOut = h('output', { class: 'range-value', for: 'seek-increment', id: 'seek-increment-out' });
    const initial = h('input', { type: 'range', id: 'seek-initial', min: 0, max: INITIALS.length - 1, step: 1, value: String(initialIndex) });
    const increment = h('input', { type: 'range', id: 'seek-increment', min: 0, max: INCREMENTS.length - 1, step: 1, value: String(incrementIndex) });
    const customBox = h('div', { class: 'custom-clock' },
      h('div', { class: 'range-row' },
        h('label', { for: 'seek-initial', i18n: 'lobby.initial' }), initial, initialOut),
      h('div', { class: 'range-row' },
        h('label', { for: 'seek-increment', i18n: 'lobby.increment' }), increment, incrementOut));
    const daysBox = h('fieldset', { class: 'field-row days-box' }, h('legend', { i18n: 'lobby.daysPerMove' }),
      h('div', { class: 'seg' }, ...DAYS.map((d) => radio('days', String(d), h('span', {}, t('clock.days', { n: d })), Number(prefs.days) === d))));
    const min = h('input', { type: 'number', id: 'seek-min', inputmode: 'numeric', min: 0, max: 4000, step: 50, value: prefs.min, 'i18n-placeholder': 'lobby.any' });
    const max = h('input', { type: 'number', id: 'seek-max', inputmode: 'numeric', min: 0, max: 4000, step: 50, value: prefs.max, 'i18n-placeholder': 'lobby.any' });
    const to = h('input', { type: 'text', id: 'seek-to', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', maxlength: 20, 'aria-describedby': 'seek-to-hint' });
    const noBots = h('input', { type: 'checkbox', id: 'seek-no-bots', checked: Boolean(prefs.noBots) });
    const error = h('p', { class: 'error-text', role: 'alert' });
    const submit = h('button', { type: 'submit', class: 'btn primary', i18n: 'lobby.open' });
    const form = h('form', { class: 'seek-form', novalidate: true },
      h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'lobby.time' }), h('div', { class: 'seg' }, ...timeChoices)),
      customBox, daysBox,
      h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'home.scoring' }),
        h('div', { class: 'seg' }, ...['largest', 'product'].map((sc) => radio('scoring', sc, h('span', { i18n: `scoring.${sc}` }), prefs.scoring === sc)))),
      h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'lobby.ratedOrCasual' }),
        h('div', { class: 'seg' },
          radio('rated', 'rated', h('span', { i18n: 'lobby.rated' }), prefs.rated === 'rated'),
          radio('rated', 'casual', h('span', { i18n: 'lobby.casual' }), prefs.rated !== 'rated'))),
      h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'home.color' }),
        h('div', { class: 'seg' },
          radio('color', 'white', [h('span', { class: 'dot white' }), h('span', { i18n: 'colour.White' })], prefs.color === 'white'),
          radio('color', 'black', [h('span', { class: 'dot black' }), h('span', { i18n: 'colour.Black' })], prefs.color === 'black'),
          radio('color', 'random', [h('span', { class: 'dot random' }), h('span', { i18n: 'home.random' })], prefs.color === 'random'))),
      h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'lobby.range' }),
        h('div', { class: 'range-inputs' },
          h('label', { for: 'seek-min', i18n: 'lobby.from' }), min,
          h('label', { for: 'seek-max', i18n: 'lobby.to' }), max)),
      h('div', { class: 'field-row check-row' }, h('label', { for: 'seek-no-bots' }, noBots, ' ', h('span', { i18n: 'lobby.noBots' }))),
      h('div', { class: 'field-row' },
        h('label', { for: 'seek-to', class: 'field-label', i18n: 'lobby.challengeName' }), to,
        h('p', { class: 'hint', id: 'seek-to-hint', i18n: 'lobby.challengeHint' })),
      h('div', { class: 'start-row' }, submit, error));

    function values() {
      const data = new FormData(form);
      return {
        time: String(data.get('time') || '180+2'),
        initial: INITIALS[Number(initial.value)],
        increment: INCREMENTS[Number(increment.value)],
        days: Number(data.get('days') || 2),
        scoring: String(data.get('scoring') || 'largest'),
        rated: String(data.get('rated') || 'rated'),
        color: String(data.get('color') || 'random'),
        min: min.value.trim(),
        max: max.value.trim(),
        noBots: noBots.checked,
        to: to.value.trim(),
      };
    }

    function refresh() {
      const v = values();
      customBox.hidden = v.time !== 'custom';
      daysBox.hidden = v.time !== 'days';
      initialOut.textContent = formatSeconds(v.initial);
      initial.setAttribute('aria-valuetext', initialOut.textContent);
      incrementOut.textContent = t('clock.seconds', { n: v.increment });
      increment.setAttribute('aria-valuetext', incrementOut.textContent);
      submit.dataset.i18n = v.to ? 'lobby.sendChallenge' : 'lobby.open';
      submit.textContent = t(submit.dataset.i18n);
      const { to: _to, ...kept } = v;
      Object.assign(prefs, kept);
      savePrefs(prefs);
    }

    form.addEventListener('input', refresh);
    form.addEventListener('change', refresh);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      error.textContent = '';
      dispatch({ type: 'submit', values: values() });
    });

    /** Fills the form for a challenge to `name` (the profile's "challenge" button) and shows it. */
    function challenge(/** @type {string} */ name) {
      to.value = name;
      refresh();
      formCard.scrollIntoView({ block: 'start' });
      to.focus();
    }

    /** Says why the form's seek was not opened. */
    function refuse(/** @type {string} */ text, /** @type {string | undefined} */ field) {
      error.textContent = text;
      if (field === 'to') to.focus();
    }

    /** The seek was opened: the form is ready for the next one. */
    function sent() {
      to.value = '';
      refresh();
    }

    return { form, submit, refresh, challenge, refuse, sent };
  }

  // ---- Effects -------------------------------------------------------------------------------

  function run(/** @type {Effect} */ e) {
    switch (e.type) {
      case 'every':
        clearInterval(turnTimer);
        turnTimer = setInterval(() => dispatch({ type: 'tick', hidden: document.hidden }), e.ms);
        break;
      case 'stopTimer':
        clearInterval(turnTimer);
        turnTimer = undefined;
        break;
      case 'loadTurn':
        loadTurn();
        break;
      case 'loadRatings':
        api.profile(e.name)
          .then((p) => dispatch({ type: 'ratings', ratings: p.ratings }))
          .catch(() => { /* every rating counts as 1500 then */ });
        break;
      case 'fillChallenge':
        seekForm.challenge(e.name);
        break;
      case 'accept':
        api.acceptSeek(e.id)
          .then(({ game_id: gameId }) => dispatch({ type: 'accepted', gameId }))
          .catch((error) => dispatch({ type: 'acceptFailed', id: e.id, error }));
        break;
      case 'goToGame':
        goToGame(e.id);
        break;
      case 'open':
        if (!e.quiet) seekForm.submit.disabled = true;
        api.openSeek(e.body)
          .then((seek) => dispatch({ type: 'opened', seek, quiet: e.quiet }))
          .catch((error) => dispatch({ type: 'openFailed', error, quiet: e.quiet }))
          .finally(() => { if (!e.quiet) seekForm.submit.disabled = false; });
        break;
      case 'cancel':
        api.cancelSeek(e.id)
          .then(() => dispatch({ type: 'cancelled', id: e.id, said: e.said }))
          .catch((error) => dispatch({ type: 'cancelFailed', error }));
        break;
      case 'formError':
        seekForm.refuse('error' in e ? errorText(e.error) : t(e.key), 'field' in e ? e.field : undefined);
        break;
      case 'formSent':
        seekForm.sent();
        break;
      case 'savePrefs':
        prefs.quickScoring = e.quickScoring;
        savePrefs(prefs);
        break;
      case 'toast':
        if ('error' in e) toast(errorText(e.error), 'error');
        else toast(t(e.key, e.args), 'kind' in e ? e.kind : 'info');
        break;
      case 'announce':
        announce(t(e.key, e.args));
        break;
      case 'withdrawStill':
        withdrawStill(e.ids);
        break;
      default:
        break;
    }
  }

  /** Reads the games where it is your turn (the first ten). */
  async function loadTurn() {
    let ids;
    try { ids = (await api.myTurn()).games; } catch { return; }
    if (page.stopped) return;
    const states = await Promise.all(ids.slice(0, 10).map((id) => api.state(id).catch(() => null)));
    dispatch({ type: 'turnLoaded', games: states.filter((st) => st !== null) });
  }

  /** Withdraws the seeks still open of `ids` (a seek just taken is not). */
  async function withdrawStill(/** @type {string[]} */ ids) {
    try {
      const open = (await api.seeks()).seeks;
      for (const id of ids) {
        if (open.some((s) => s.id === id)) api.cancelSeek(id).catch(() => { /* it lapses by itself */ });
      }
    } catch {
      withdrawOnLeave(ids);
    }
  }

  // ---- Rendering ---------------------------------------------------------------------------
  function colourText(/** @type {Seek} */ seek) {
    // The seeker's wish, from the point of view of who accepts.
    if (seek.color === 'random') return t('lobby.colourRandom');
    return t('lobby.colourTheyPlay', { side: t(seek.color === 'white' ? 'colour.White' : 'colour.Black') });
  }

  function range(/** @type {Seek} */ seek) {
    return t('lobby.rangeShort', { min: seek.rating_min ?? '…', max: seek.rating_max ?? '…' });
  }

  const hasRange = (/** @type {Seek} */ seek) => (seek.rating_min !== null && seek.rating_min !== undefined)
    || (seek.rating_max !== null && seek.rating_max !== undefined);

  function details(/** @type {Seek} */ seek) {
    const parts = [controlLabel(seek.control), t(`scoring.${seek.scoring}`), t(seek.rated ? 'lobby.rated' : 'lobby.casual')];
    if (hasRange(seek)) parts.push(range(seek));
    return parts.join(' · ');
  }

  function who(/** @type {Seek} */ seek) {
    return h('span', { class: 'seek-who' },
      h('a', { href: `/@/${seek.name}`, class: 'player-link' }, seek.name),
      seek.bot ? [' ', botBadge()] : null,
      ' ', h('span', { class: 'rating' }, ratingText(seek.rating, seek.provisional)));
  }

  function seekItem(/** @type {Model} */ m, /** @type {Seek} */ seek, /** @type {boolean} */ mine) {
    const colour = h('span', { class: 'seek-colour' }, h('span', { class: `dot ${seek.color}`, 'aria-hidden': 'true' }), colourText(seek));
    let action;
    if (mine) {
      action = h('button', { type: 'button', class: 'btn small withdraw-button', i18n: 'lobby.withdraw',
        'aria-label': t('lobby.withdrawLabel', { what: details(seek) }), onclick: () => dispatch({ type: 'withdraw', id: seek.id }) });
    } else if (!m.me) {
      action = h('a', { class: 'btn small', href: '/login?next=/lobby', i18n: 'nav.login' });
    } else {
      const ok = fits(m, seek);
      action = h('button', { type: 'button', class: 'btn small primary accept-button', i18n: 'lobby.accept', disabled: !ok,
        title: ok ? null : t('lobby.outOfRange'),
        'aria-label': t('lobby.acceptLabel', { name: seek.name, what: details(seek) }), onclick: () => dispatch({ type: 'accept', id: seek.id }) });
    }
    return h('li', { class: `seek${mine ? ' mine' : ''}`, dataset: { id: seek.id, speed: seek.speed } },
      h('span', { class: 'seek-main' }, who(seek),
        h('span', { class: 'seek-what' }, h('strong', { class: 'seek-clock' }, controlLabel(seek.control)),
          ` · ${t(`scoring.${seek.scoring}`)} · ${t(seek.rated ? 'lobby.rated' : 'lobby.casual')}`,
          hasRange(seek) ? ` · ${range(seek)}` : ''),
        colour),
      action);
  }

  function renderSeeks(/** @type {Model} */ m) {
    clear(seekList);
    if (m.seeks === null) {
      seekList.append(h('li', { class: 'empty-note', i18n: 'lobby.loading' }));
    } else {
      const open = openSeeks(m);
      if (!open.length) seekList.append(h('li', { class: 'empty-note', i18n: 'lobby.noSeeks' }));
      for (const s of open) seekList.append(seekItem(m, s, false));
    }

    // Your own seeks, and the challenges you sent.
    clear(mineList);
    const mine = mySeeks(m);
    mineCard.hidden = !mine.length;
    for (const s of mine) {
      if (s.to) {
        mineList.append(h('li', { class: 'seek mine challenge-sent', dataset: { id: s.id } },
          h('span', { class: 'seek-main' },
            h('span', { class: 'seek-who' }, t('lobby.challengeTo'), ' ', h('a', { href: `/@/${s.to}`, class: 'player-link' }, s.to)),
            h('span', { class: 'seek-what' }, details(s)),
            h('span', { class: 'muted' }, t('lobby.waiting'))),
          h('button', { type: 'button', class: 'btn small withdraw-button', i18n: 'lobby.withdraw',
            'aria-label': t('lobby.withdrawChallengeLabel', { name: s.to }), onclick: () => dispatch({ type: 'withdraw', id: s.id }) })));
      } else {
        const item = seekItem(m, s, true);
        item.querySelector('.seek-main')?.append(h('span', { class: 'muted waiting' }, t('lobby.waiting')));
        mineList.append(item);
      }
    }

    // Challenges to you.
    clear(challengeList);
    const tome = challengesToMe(m);
    challengesCard.hidden = !tome.length;
    for (const s of tome) {
      challengeList.append(h('li', { class: 'seek challenge', dataset: { id: s.id } },
        h('span', { class: 'seek-main' },
          h('span', { class: 'seek-who' }, h('a', { href: `/@/${s.name}`, class: 'player-link' }, s.name), s.bot ? [' ', botBadge()] : null, ' ',
            h('span', { class: 'rating' }, ratingText(s.rating, s.provisional)), ' ', t('lobby.challengesYou')),
          h('span', { class: 'seek-what' }, details(s)),
          h('span', { class: 'seek-colour' }, h('span', { class: `dot ${s.color}`, 'aria-hidden': 'true' }), colourText(s))),
        h('span', { class: 'row-buttons' },
          h('button', { type: 'button', class: 'btn small primary accept-button', i18n: 'lobby.accept',
            'aria-label': t('lobby.acceptChallengeLabel', { name: s.name }), onclick: () => dispatch({ type: 'accept', id: s.id }) }),
          h('button', { type: 'button', class: 'btn small decline-button', i18n: 'lobby.decline',
            'aria-label': t('lobby.declineLabel', { name: s.name }), onclick: () => dispatch({ type: 'decline', id: s.id, name: s.name }) }))));
    }
  }

  function renderConn(/** @type {Model} */ m) {
    connEl.className = `conn ${m.conn}`;
    connEl.textContent = t(`conn.${m.conn === 'offline' ? 'connecting' : m.conn}`);
  }

  function renderQuick(/** @type {Model} */ m) {
    clear(quickGrid);
    for (const p of PRESETS) {
      const waiting = quickWaiting(m, p);
      const label = controlLabel({ initial_s: p[0], increment_s: p[1] });
      quickGrid.append(h('button', {
        type: 'button', class: `btn quick-button${waiting ? ' waiting' : ''}`,
        'aria-pressed': waiting ? 'true' : 'false',
        'aria-label': t(waiting ? 'lobby.quickWaitingLabel' : 'lobby.quickLabel', { clock: label }),
        onclick: () => dispatch({ type: 'quick', preset: p }),
      },
      h('span', { class: 'quick-clock' }, label),
      h('span', { class: 'quick-sub' }, waiting ? t('lobby.quickWaiting') : t(speedName(p)))));
    }
  }

  function renderGuest(/** @type {Model} */ m) {
    clear(guestNote);
    guestNote.hidden = Boolean(m.me);
    // A guest may look; opening seeks and notifications need an account.
    formCard.hidden = !m.me;
    notifyCard.hidden = !m.me;
    if (m.me) return;
    guestNote.append(h('p', { i18n: 'lobby.guest' }),
      h('div', { class: 'row' },
        h('a', { class: 'btn primary small', href: '/signup?next=/lobby', i18n: 'login.newHere' }),
        h('a', { class: 'btn small', href: '/login?next=/lobby', i18n: 'nav.login' })));
  }

  function renderTurn(/** @type {Model} */ m) {
    clear(turnList);
    const games = m.me ? m.turnGames || [] : [];
    turnCard.hidden = !games.length;
    for (const st of games) {
      const side = st.to_move;
      const other = side === 'white' ? 'black' : 'white';
      const opponent = st.players?.[other]?.name;
      const clock = st.clock;
      turnList.append(h('li', {}, h('a', { class: 'game-item turn-item', href: `/game/${st.id}` },
        h('span', { class: `dot ${side}`, 'aria-hidden': 'true' }),
        h('span', {},
          h('span', { class: 'what' }, opponent ? t('lobby.against', { name: opponent }) : t('mode.friend')),
          h('span', { class: 'meta', style: 'display:block' },
            [st.clock ? controlLabel(st.clock.control) : null, t(`scoring.${st.settings.scoring}`), timeAgo(st.updated_at)].filter(Boolean).join(' · '))),
        clock ? h('span', { class: 'badge live' }, formatClock(side === 'white' ? clock.white_ms : clock.black_ms, { days: 'days' in clock.control })) : h('span'))));
    }
  }

  function renderNotify() {
    clear(notifyBox);
    const p = permission();
    if (p === 'unsupported') {
      notifyBox.append(h('p', { class: 'muted', i18n: 'lobby.notify.unsupported' }));
    } else if (p === 'granted') {
      notifyBox.append(h('p', { i18n: 'lobby.notify.on' }));
    } else if (p === 'denied') {
      notifyBox.append(h('p', { class: 'muted', i18n: 'lobby.notify.denied' }));
    } else {
      notifyBox.append(h('p', { class: 'muted', i18n: 'lobby.notify.hint' }),
        h('button', { type: 'button', class: 'btn notify-button', i18n: 'lobby.notify.ask', onclick: async () => {
          const answer = await askPermission();
          renderNotify();
          if (answer === 'granted') toast(t('lobby.notify.on'));
        } }));
    }
  }

  /** Draws a part of the page when what it shows changed since the last time. */
  function part(/** @type {string} */ name, /** @type {unknown} */ key, /** @type {() => void} */ draw) {
    if (drawn[name] === key) return;
    drawn[name] = key;
    draw();
  }

  /** Draws the model (the notifications switch follows the browser's permission, not the model). */
  function render(/** @type {Model} */ m) {
    part('guest', m.me, () => renderGuest(m));
    part('seeks', `${m.me}|${JSON.stringify(m.seeks)}|${JSON.stringify(m.ratings)}`, () => renderSeeks(m));
    part('quick', `${m.me}|${JSON.stringify(m.seeks)}|${m.quickScoring}`, () => renderQuick(m));
    part('conn', m.conn, () => renderConn(m));
    part('turn', `${m.me}|${JSON.stringify(m.turnGames)}`, () => renderTurn(m));
  }

  // ---- Live --------------------------------------------------------------------------------
  const unsubscribe = lobbyFeed.subscribe((msg) => {
    if (msg.type === 'seeks' || msg.type === 'status' || msg.type === 'turn' || msg.type === 'game') dispatch(msg);
  });
  const onTurn = () => dispatch({ type: 'turn' });
  window.addEventListener('myturn', onTurn);
  // The page is unloaded: the requests must outlive it.
  const leave = () => withdrawOnLeave([...page.model.openedHere]);
  window.addEventListener('pagehide', leave);

  render(page.model);
  renderNotify();
  seekForm.refresh();
  dispatch({ type: 'start' });
  sessionReady().then(() => {
    dispatch({ type: 'session', me: myName(), challenge: new URLSearchParams(location.search).get('challenge') });
  });

  return {
    unmount() {
      dispatch({ type: 'leave' });
      page.stopped = true;
      unsubscribe();
      window.removeEventListener('myturn', onTurn);
      window.removeEventListener('pagehide', leave);
      people.stop();
    },
    onLang() {
      setTitle();
      translateDom(main);
      seekForm.refresh();
      drawn = {};
      render(page.model);
      renderNotify();
      people.redraw();
    },
  };
}
