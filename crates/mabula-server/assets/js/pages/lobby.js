// The lobby (`/lobby`): open seeks as they come and go (the lobby's WebSocket), quick pairing
// for common clocks, a form to open a seek or challenge a named player, the challenges to you
// with accept and decline, your games where it is your turn, and the notifications switch. Real-
// time seeks opened here are withdrawn when the page goes away: nobody waits for an empty chair.

import { h, clear, translateDom, toast, announce } from '../dom.js';
import { t, timeAgo } from '../i18n.js';
import { api, withdrawOnLeave, ApiError } from '../api.js';
import { sessionReady, myName, isMe } from '../session.js';
import { lobbyFeed, goToGame } from '../lobbyfeed.js';
import { permission, askPermission } from '../notify.js';
import { controlLabel, formatSeconds, formatClock } from '../clock.js';
import { errorText } from './errors.js';
import { ratingText } from '../widgets.js';

const PREFS_KEY = 'mabula:seek';
/** The clocks of the quick pairing buttons and the presets of the form, as [initial_s, increment_s]. */
const PRESETS = [[60, 1], [180, 2], [300, 3], [600, 5]];
/** The custom clock's choices: seconds for the game, seconds added per move. */
const INITIALS = [15, 30, 45, 60, 90, 120, 180, 240, 300, 360, 420, 480, 540, 600, 720, 900, 1200, 1500, 1800, 2400, 2700, 3600, 4500, 5400, 7200, 9000, 10800];
const INCREMENTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 45, 60, 90, 120, 150, 180];
const DAYS = [1, 2, 3, 7];
const DEFAULTS = { time: '180+2', initial: 300, increment: 3, days: 2, scoring: 'largest', rated: 'rated', color: 'random', min: '', max: '', quickScoring: 'largest' };

function loadPrefs() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(PREFS_KEY) || '{}') }; } catch { return { ...DEFAULTS }; }
}

function savePrefs(p) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(p)); } catch { /* private mode */ }
}

const presetKey = ([i, inc]) => `${i}+${inc}`;
const sameClock = (control, [i, inc]) => control && control.initial_s === i && control.increment_s === inc;

export function mount(main) {
  const prefs = loadPrefs();
  let seeks = lobbyFeed.seeks;
  let myRatings = null;
  /** Ids of the real-time seeks opened on this page: withdrawn when it goes away. */
  const openedHere = new Set();
  let turnGames = null;
  let unmounted = false;
  let connStatus = lobbyFeed.status;
  const timers = [];

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
        onchange: () => { prefs.quickScoring = sc; savePrefs(prefs); renderQuick(); } }),
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
      h('div', { class: 'lobby-side' }, turnCard, formCard, notifyCard))));

  // ---- The seek form -----------------------------------------------------------------------
  function buildForm() {
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
      h('div', { class: 'field-row' },
        h('label', { for: 'seek-to', class: 'field-label', i18n: 'lobby.challengeName' }), to,
        h('p', { class: 'hint', id: 'seek-to-hint', i18n: 'lobby.challengeHint' })),
      h('div', { class: 'start-row' }, submit, error));

    function values() {
      const data = new FormData(form);
      return {
        time: data.get('time') || '180+2',
        initial: INITIALS[Number(initial.value)],
        increment: INCREMENTS[Number(increment.value)],
        days: Number(data.get('days') || 2),
        scoring: data.get('scoring') || 'largest',
        rated: data.get('rated') || 'rated',
        color: data.get('color') || 'random',
        min: min.value.trim(),
        max: max.value.trim(),
        to: to.value.trim(),
      };
    }

    function update() {
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

    form.addEventListener('input', update);
    form.addEventListener('change', update);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      if (!myName()) { error.textContent = t('lobby.loginFirst'); return; }
      const v = values();
      const body = { scoring: v.scoring, rated: v.rated === 'rated', color: v.color };
      if (v.time === 'days') body.days = v.days;
      else if (v.time === 'custom') body.clock = { initial_s: v.initial, increment_s: v.increment };
      else {
        const [i, inc] = v.time.split('+').map(Number);
        body.clock = { initial_s: i, increment_s: inc };
      }
      const lo = v.min === '' ? null : Number(v.min);
      const hi = v.max === '' ? null : Number(v.max);
      if ((lo !== null && !Number.isInteger(lo)) || (hi !== null && !Number.isInteger(hi))) {
        error.textContent = t('lobby.rangeBad');
        return;
      }
      if (lo !== null && hi !== null && lo > hi) { error.textContent = t('lobby.rangeOrder'); return; }
      if (lo !== null) body.rating_min = lo;
      if (hi !== null) body.rating_max = hi;
      if (v.to) {
        if (isMe(v.to)) { error.textContent = t('lobby.notYourself'); to.focus(); return; }
        body.to = v.to;
      }
      submit.disabled = true;
      try {
        const seek = await api.openSeek(body);
        if (!seek.to && seek.speed === 'realtime') openedHere.add(seek.id);
        mergeSeek(seek);
        const text = seek.to ? t('lobby.challengeSent', { name: seek.to }) : t('lobby.seekOpened');
        toast(text);
        announce(text);
        to.value = '';
        update();
      } catch (err) {
        error.textContent = err instanceof ApiError && err.code === 'player_not_found' ? t('error.player_not_found') : errorText(err);
      } finally {
        submit.disabled = false;
      }
    });

    /** Fills the form for a challenge to `name` (the profile's "challenge" button) and shows it. */
    function challenge(name) {
      to.value = name;
      update();
      formCard.scrollIntoView({ block: 'start' });
      to.focus();
    }

    return { form, update, challenge };
  }

  // ---- Rendering ---------------------------------------------------------------------------
  function myRating(scoring, speed) {
    const r = myRatings?.find((x) => x.scoring === scoring && x.speed === speed);
    return r ? r.rating : 1500;
  }

  function fits(seek) {
    const r = myRating(seek.scoring, seek.speed);
    return !((seek.rating_min !== null && r < seek.rating_min) || (seek.rating_max !== null && r > seek.rating_max));
  }

  function colourText(seek) {
    // The seeker's wish, from the point of view of who accepts.
    if (seek.color === 'random') return t('lobby.colourRandom');
    return t('lobby.colourTheyPlay', { side: t(seek.color === 'white' ? 'colour.White' : 'colour.Black') });
  }

  function details(seek) {
    const parts = [controlLabel(seek.control), t(`scoring.${seek.scoring}`), t(seek.rated ? 'lobby.rated' : 'lobby.casual')];
    if (seek.rating_min !== null || seek.rating_max !== null) {
      parts.push(t('lobby.rangeShort', { min: seek.rating_min ?? '…', max: seek.rating_max ?? '…' }));
    }
    return parts.join(' · ');
  }

  function who(seek) {
    return h('span', { class: 'seek-who' },
      h('a', { href: `/@/${seek.name}`, class: 'player-link' }, seek.name),
      ' ', h('span', { class: 'rating' }, ratingText(seek.rating, seek.provisional)));
  }

  function seekItem(seek) {
    const mine = isMe(seek.name);
    const colour = h('span', { class: 'seek-colour' }, h('span', { class: `dot ${seek.color}`, 'aria-hidden': 'true' }), colourText(seek));
    let action;
    if (mine) {
      action = h('button', { type: 'button', class: 'btn small withdraw-button', i18n: 'lobby.withdraw',
        'aria-label': t('lobby.withdrawLabel', { what: details(seek) }), onclick: () => withdraw(seek) });
    } else if (!myName()) {
      action = h('a', { class: 'btn small', href: '/login?next=/lobby', i18n: 'nav.login' });
    } else {
      const ok = fits(seek);
      action = h('button', { type: 'button', class: 'btn small primary accept-button', i18n: 'lobby.accept', disabled: !ok,
        title: ok ? null : t('lobby.outOfRange'),
        'aria-label': t('lobby.acceptLabel', { name: seek.name, what: details(seek) }), onclick: () => accept(seek) });
    }
    return h('li', { class: `seek${mine ? ' mine' : ''}`, dataset: { id: seek.id, speed: seek.speed } },
      h('span', { class: 'seek-main' }, who(seek),
        h('span', { class: 'seek-what' }, h('strong', { class: 'seek-clock' }, controlLabel(seek.control)),
          ` · ${t(`scoring.${seek.scoring}`)} · ${t(seek.rated ? 'lobby.rated' : 'lobby.casual')}`,
          seek.rating_min !== null || seek.rating_max !== null ? ` · ${t('lobby.rangeShort', { min: seek.rating_min ?? '…', max: seek.rating_max ?? '…' })}` : ''),
        colour),
      action);
  }

  function sortKey(seek) {
    const c = seek.control;
    return c.days !== undefined ? 1e9 + c.days : c.initial_s + 40 * c.increment_s;
  }

  function renderSeeks() {
    clear(seekList);
    if (seeks === null) {
      seekList.append(h('li', { class: 'empty-note', i18n: 'lobby.loading' }));
      return;
    }
    const open = seeks.filter((s) => !s.to && !isMe(s.name)).sort((a, b) => sortKey(a) - sortKey(b));
    if (!open.length) seekList.append(h('li', { class: 'empty-note', i18n: 'lobby.noSeeks' }));
    for (const s of open) seekList.append(seekItem(s));

    // Your own seeks, and the challenges you sent.
    clear(mineList);
    const mine = seeks.filter((s) => isMe(s.name));
    mineCard.hidden = !mine.length;
    for (const s of mine) {
      if (s.to) {
        mineList.append(h('li', { class: 'seek mine challenge-sent', dataset: { id: s.id } },
          h('span', { class: 'seek-main' },
            h('span', { class: 'seek-who' }, t('lobby.challengeTo'), ' ', h('a', { href: `/@/${s.to}`, class: 'player-link' }, s.to)),
            h('span', { class: 'seek-what' }, details(s)),
            h('span', { class: 'muted' }, t('lobby.waiting'))),
          h('button', { type: 'button', class: 'btn small withdraw-button', i18n: 'lobby.withdraw',
            'aria-label': t('lobby.withdrawChallengeLabel', { name: s.to }), onclick: () => withdraw(s) })));
      } else {
        const item = seekItem(s);
        item.querySelector('.seek-main').append(h('span', { class: 'muted waiting' }, t('lobby.waiting')));
        mineList.append(item);
      }
    }

    // Challenges to you.
    clear(challengeList);
    const tome = seeks.filter((s) => s.to && isMe(s.to));
    challengesCard.hidden = !tome.length;
    for (const s of tome) {
      challengeList.append(h('li', { class: 'seek challenge', dataset: { id: s.id } },
        h('span', { class: 'seek-main' },
          h('span', { class: 'seek-who' }, h('a', { href: `/@/${s.name}`, class: 'player-link' }, s.name), ' ',
            h('span', { class: 'rating' }, ratingText(s.rating, s.provisional)), ' ', t('lobby.challengesYou')),
          h('span', { class: 'seek-what' }, details(s)),
          h('span', { class: 'seek-colour' }, h('span', { class: `dot ${s.color}`, 'aria-hidden': 'true' }), colourText(s))),
        h('span', { class: 'row-buttons' },
          h('button', { type: 'button', class: 'btn small primary accept-button', i18n: 'lobby.accept',
            'aria-label': t('lobby.acceptChallengeLabel', { name: s.name }), onclick: () => accept(s) }),
          h('button', { type: 'button', class: 'btn small decline-button', i18n: 'lobby.decline',
            'aria-label': t('lobby.declineLabel', { name: s.name }), onclick: () => decline(s) }))));
    }
    renderQuick();
  }

  function renderConn() {
    connEl.className = `conn ${connStatus === 'online' ? 'online' : connStatus}`;
    connEl.textContent = t(`conn.${connStatus === 'offline' ? 'connecting' : connStatus}`);
  }

  function renderQuick() {
    clear(quickGrid);
    const scoring = prefs.quickScoring;
    for (const p of PRESETS) {
      const waiting = (seeks || []).find((s) => isMe(s.name) && !s.to && s.scoring === scoring && s.rated && sameClock(s.control, p));
      const label = controlLabel({ initial_s: p[0], increment_s: p[1] });
      const button = h('button', {
        type: 'button', class: `btn quick-button${waiting ? ' waiting' : ''}`,
        'aria-pressed': waiting ? 'true' : 'false',
        'aria-label': t(waiting ? 'lobby.quickWaitingLabel' : 'lobby.quickLabel', { clock: label }),
        onclick: () => (waiting ? withdraw(waiting) : quickPair(p)),
      },
      h('span', { class: 'quick-clock' }, label),
      h('span', { class: 'quick-sub' }, waiting ? t('lobby.quickWaiting') : t(speedName(p))));
      quickGrid.append(button);
    }
  }

  function speedName([i, inc]) {
    const estimate = i + 40 * inc;
    if (estimate < 180) return 'lobby.bullet';
    if (estimate < 480) return 'lobby.blitz';
    return 'lobby.rapid';
  }

  function renderGuest() {
    clear(guestNote);
    guestNote.hidden = Boolean(myName());
    // A guest may look; opening seeks and notifications need an account.
    formCard.hidden = !myName();
    notifyCard.hidden = !myName();
    if (myName()) return;
    guestNote.append(h('p', { i18n: 'lobby.guest' }),
      h('div', { class: 'row' },
        h('a', { class: 'btn primary small', href: '/signup?next=/lobby', i18n: 'login.newHere' }),
        h('a', { class: 'btn small', href: '/login?next=/lobby', i18n: 'nav.login' })));
  }

  async function renderTurn() {
    if (!myName()) { turnCard.hidden = true; return; }
    let ids;
    try { ids = (await api.myTurn()).games; } catch { return; }
    if (unmounted) return;
    const states = await Promise.all(ids.slice(0, 10).map((id) => api.state(id).catch(() => null)));
    if (unmounted) return;
    turnGames = states.filter(Boolean);
    clear(turnList);
    turnCard.hidden = !turnGames.length;
    for (const st of turnGames) {
      const side = st.to_move;
      const other = side === 'white' ? 'black' : 'white';
      const opponent = st.players?.[other]?.name;
      const left = st.clock ? (side === 'white' ? st.clock.white_ms : st.clock.black_ms) : null;
      turnList.append(h('li', {}, h('a', { class: 'game-item turn-item', href: `/game/${st.id}` },
        h('span', { class: `dot ${side}`, 'aria-hidden': 'true' }),
        h('span', {},
          h('span', { class: 'what' }, opponent ? t('lobby.against', { name: opponent }) : t('mode.friend')),
          h('span', { class: 'meta', style: 'display:block' },
            [st.clock ? controlLabel(st.clock.control) : null, t(`scoring.${st.settings.scoring}`), timeAgo(st.updated_at)].filter(Boolean).join(' · '))),
        left !== null ? h('span', { class: 'badge live' }, formatClock(left, { days: st.clock.control.days !== undefined })) : h('span'))));
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

  function renderAll() {
    renderGuest();
    renderSeeks();
    renderConn();
    renderNotify();
  }

  // ---- Acting ------------------------------------------------------------------------------
  /** Puts a seek we just opened into the list before the socket's next list arrives. */
  function mergeSeek(seek) {
    if (!seeks) seeks = [];
    if (!seeks.some((s) => s.id === seek.id)) seeks = [...seeks, seek];
    renderSeeks();
  }

  async function accept(seek) {
    try {
      const { game_id: id } = await api.acceptSeek(seek.id);
      goToGame(id);
    } catch (err) {
      toast(err instanceof ApiError && err.code === 'seek_not_found' ? t('lobby.gone') : errorText(err), 'error');
      seeks = (seeks || []).filter((s) => s.id !== seek.id);
      renderSeeks();
    }
  }

  async function withdraw(seek) {
    try {
      await api.cancelSeek(seek.id);
      openedHere.delete(seek.id);
      seeks = (seeks || []).filter((s) => s.id !== seek.id);
      renderSeeks();
      announce(t('lobby.withdrawn'));
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  async function decline(seek) {
    try {
      await api.cancelSeek(seek.id);
      seeks = (seeks || []).filter((s) => s.id !== seek.id);
      renderSeeks();
      announce(t('lobby.declined', { name: seek.name }));
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  /** Quick pairing: accept a matching open seek if there is one, else open one and wait. */
  async function quickPair(preset) {
    if (!myName()) {
      toast(t('lobby.loginFirst'), 'error');
      return;
    }
    const scoring = prefs.quickScoring;
    const candidates = (seeks || []).filter((s) => !s.to && !isMe(s.name) && s.rated && s.scoring === scoring
      && sameClock(s.control, preset) && fits(s));
    for (const s of candidates) {
      try {
        const { game_id: id } = await api.acceptSeek(s.id);
        goToGame(id);
        return;
      } catch (err) {
        if (!(err instanceof ApiError) || !['seek_not_found', 'seek_not_for_you'].includes(err.code)) {
          toast(errorText(err), 'error');
          return;
        }
      }
    }
    try {
      const seek = await api.openSeek({ scoring, rated: true, clock: { initial_s: preset[0], increment_s: preset[1] }, color: 'random' });
      openedHere.add(seek.id);
      mergeSeek(seek);
      announce(t('lobby.seekOpened'));
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  // ---- Live --------------------------------------------------------------------------------
  const unsubscribe = lobbyFeed.subscribe((msg) => {
    if (msg.type === 'seeks') {
      seeks = msg.seeks;
      // A seek of ours that left the list was taken or lapsed: it is no longer ours to withdraw.
      for (const id of [...openedHere]) if (!seeks.some((s) => s.id === id)) openedHere.delete(id);
      renderSeeks();
    } else if (msg.type === 'status') {
      connStatus = msg.status;
      renderConn();
    } else if (msg.type === 'turn' || msg.type === 'game') {
      renderTurn();
    }
  });

  const onTurn = () => renderTurn();
  window.addEventListener('myturn', onTurn);
  // The page is unloaded: the requests must outlive it.
  const leave = () => withdrawOnLeave([...openedHere]);
  window.addEventListener('pagehide', leave);

  /** Another page of the site is shown: withdraw what is still open (a seek just taken is not). */
  async function withdrawStill() {
    const ids = [...openedHere];
    openedHere.clear();
    if (!ids.length) return;
    try {
      const open = (await api.seeks()).seeks;
      for (const id of ids) {
        if (open.some((s) => s.id === id)) api.cancelSeek(id).catch(() => { /* it lapses by itself */ });
      }
    } catch {
      withdrawOnLeave(ids);
    }
  }

  renderAll();
  seekForm.update();
  sessionReady().then(async () => {
    if (unmounted) return;
    renderAll();
    const challenge = new URLSearchParams(location.search).get('challenge');
    if (challenge && myName()) seekForm.challenge(challenge);
    renderTurn();
    if (myName()) {
      try {
        myRatings = (await api.profile(myName())).ratings;
        if (!unmounted) renderSeeks();
      } catch { /* every rating counts as 1500 then */ }
    }
  });
  timers.push(setInterval(() => { if (!document.hidden) renderTurn(); }, 60000));

  return {
    unmount() {
      unmounted = true;
      unsubscribe();
      timers.forEach(clearInterval);
      window.removeEventListener('myturn', onTurn);
      window.removeEventListener('pagehide', leave);
      withdrawStill();
    },
    onLang() {
      setTitle();
      translateDom(main);
      seekForm.update();
      renderAll();
      renderTurn();
    },
  };
}
