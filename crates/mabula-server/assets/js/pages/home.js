// The home page: start a game (against the engine, a friend, or at one screen; a random deal or
// a pasted position), your games, live games, and opening a game record.

import { h, s, clear, translateDom } from '../dom.js';
import { t } from '../i18n.js';
import { api, request, keepGrant, myGames, ApiError } from '../api.js';
import { navigate } from '../nav.js';
import { miniBoard } from '../board.js';
import { parsePosition } from '../position.js';
import { gameItem, modeLabel, ratingText } from '../widgets.js';
import { errorText } from './errors.js';
import { myName } from '../session.js';
import { playing } from '../playing.js';
import { formatClock } from '../clock.js';

const PREFS_KEY = 'mabula:newgame';
const DEFAULTS = { mode: 'engine', level: 3, color: 'white', first: 'white', scoring: 'largest', setup: 'random', position: '', duplicate: false };
const SAMPLE = '1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w';
const HERO = '3b1wb1/3b3w/w3w1ww/2w1wbb1/2wbwb2/2w2b2/bb1w4/1b1b4 b';

function loadPrefs() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(PREFS_KEY) || '{}') }; } catch { return { ...DEFAULTS }; }
}

function savePrefs(/** @type {object} */ p) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(p)); } catch { /* private mode */ }
}

const ICONS = {
  engine: 'M9 2v2H7a3 3 0 0 0-3 3v2H2v2h2v2H2v2h2v2a3 3 0 0 0 3 3h2v2h2v-2h2v2h2v-2h2a3 3 0 0 0 3-3v-2h2v-2h-2v-2h2V9h-2V7a3 3 0 0 0-3-3h-2V2h-2v2h-2V2zM8 8h8v8H8z',
  friend: 'M8 4a3.5 3.5 0 1 1 0 7 3.5 3.5 0 0 1 0-7zm8 1a3 3 0 1 1 0 6 3 3 0 0 1 0-6zM1.5 20c.4-4 3-6.5 6.5-6.5s6.1 2.5 6.5 6.5zm14.2 0c-.2-2.2-1-4.1-2.3-5.4a6 6 0 0 1 2.6-.6c3 0 5.2 2.2 5.5 6z',
  local: 'M3 4h18v12H3zm2 2v8h14V6zm4 12h6v2H9z',
};

export function mount(/** @type {HTMLElement} */ main) {
  const prefs = loadPrefs();
  /** @type {number[]} */
  let timers = [];

  const setTitle = () => { document.title = `Mabula · ${t('home.title')}`; };
  setTitle();

  // ---- New game form ----------------------------------------------------------------------
  /**
   * @param {keyof typeof DEFAULTS} name
   * @param {string} value
   * @param {string} key
   * @param {Node} [extra]
   */
  const radio = (name, value, key, extra) => h('label', {},
    h('input', { type: 'radio', name, value, checked: prefs[name] === value }),
    extra || null,
    h('span', { i18n: key }));

  const opponent = (/** @type {keyof typeof ICONS} */ value) => h('label', { class: 'opponent' },
    h('input', { type: 'radio', name: 'mode', value, checked: prefs.mode === value }),
    s('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true', fill: 'currentColor' }, s('path', { d: ICONS[value] })),
    h('span', {},
      h('span', { class: 'title', i18n: `home.mode.${value}`, style: 'display:block' }),
      h('span', { class: 'desc', i18n: `home.mode.${value}.desc`, style: 'display:block' })));

  const levelOut = h('output', { class: 'level-value', id: 'level-value' }, String(prefs.level));
  const levelInput = h('input', {
    type: 'range', min: 1, max: 10, step: 1, value: String(prefs.level), name: 'level', id: 'level',
    oninput: () => { levelOut.textContent = levelInput.value; },
  });
  const levelHint = h('p', { class: 'hint' });
  // What each house bot's level is worth on the human scale (issue 38): `GET /api/bots`, when
  // the server runs house bots; the line stays hidden when it runs none.
  const houseLine = h('p', { class: 'hint house-ratings', id: 'house-ratings', hidden: true });
  /** @type {import('api-types').BotView[]} */
  let house = [];

  const setupText = h('textarea', {
    name: 'position', rows: 2, spellcheck: 'false', autocomplete: 'off', id: 'setup-text',
    'i18n-placeholder': 'home.setup.placeholder',
    'i18n-aria-label': 'home.setup.position',
  });
  setupText.value = prefs.position;
  const setupPreview = h('div', { class: 'setup-preview' });
  const setupError = h('p', { class: 'error-text', role: 'alert' });
  const setupBox = h('div', { class: 'setup-box' },
    h('div', {}, setupText, setupError,
      h('button', { type: 'button', class: 'btn small', i18n: 'home.setup.sample', onclick: () => { setupText.value = SAMPLE; updateSetup(); } })),
    setupPreview);

  const duplicateInput = h('input', { type: 'checkbox', name: 'duplicate', id: 'duplicate', checked: Boolean(prefs.duplicate) });

  const formError = h('p', { class: 'error-text', role: 'alert' });
  const startButton = h('button', { type: 'submit', class: 'btn primary big', i18n: 'home.start' });

  const rows = {
    level: h('div', { class: 'field-row' },
      h('label', { for: 'level', style: 'font-weight:700', i18n: 'home.level' }),
      h('div', { class: 'level-row' }, h('span', { class: 'muted', 'aria-hidden': 'true' }, '1'), levelInput, h('span', { class: 'muted', 'aria-hidden': 'true' }, '10'), levelOut),
      levelHint, houseLine),
    color: h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'home.color' }),
      h('div', { class: 'seg' },
        radio('color', 'white', 'colour.White', h('span', { class: 'dot white' })),
        radio('color', 'black', 'colour.Black', h('span', { class: 'dot black' })),
        radio('color', 'random', 'home.random', h('span', { class: 'dot random' })))),
    first: h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'home.first' }),
      h('div', { class: 'seg' },
        radio('first', 'white', 'colour.White', h('span', { class: 'dot white' })),
        radio('first', 'black', 'colour.Black', h('span', { class: 'dot black' })),
        radio('first', 'random', 'home.byLot', h('span', { class: 'dot random' })))),
    scoring: h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'home.scoring' }),
      h('div', { class: 'seg' },
        radio('scoring', 'largest', 'scoring.largest'),
        radio('scoring', 'product', 'scoring.product')),
      h('p', { class: 'hint', id: 'scoring-hint' })),
    setup: h('fieldset', { class: 'field-row' }, h('legend', { i18n: 'home.setup' }),
      h('div', { class: 'seg' },
        radio('setup', 'random', 'home.setup.random'),
        radio('setup', 'position', 'home.setup.position')),
      setupBox),
    // A duplicate pair: the second game (the rematch) replays the deal with the colours swapped.
    duplicate: h('div', { class: 'field-row toggles' },
      h('label', { for: 'duplicate' }, duplicateInput, h('span', { i18n: 'home.duplicate' }))),
  };

  const form = h('form', { class: 'card newgame', novalidate: true },
    h('h2', { i18n: 'home.newGame' }),
    h('fieldset', {}, h('legend', { class: 'sr-only', i18n: 'home.opponent' }),
      h('div', { class: 'opponents' }, opponent('engine'), opponent('friend'), opponent('local'))),
    h('div', { class: 'fields' }, rows.level, rows.color, rows.first, rows.scoring, rows.setup, rows.duplicate),
    h('div', { class: 'start-row' }, startButton, formError));

  /** The form's choices; the radio buttons' values are the API's names. */
  function values() {
    const data = new FormData(form);
    /** @typedef {import('api-types').CreateGame} CreateGame */
    const pick = (/** @type {string} */ name) => /** @type {string} */ (data.get(name));
    return {
      mode: /** @type {CreateGame['mode']} */ (pick('mode')),
      level: Number(levelInput.value),
      color: /** @type {CreateGame['color']} */ (pick('color')),
      first: /** @type {CreateGame['first']} */ (pick('first')),
      scoring: /** @type {string} */ (pick('scoring')),
      setup: pick('setup'),
      position: setupText.value.trim(),
      duplicate: duplicateInput.checked,
    };
  }

  function updateForm() {
    const v = values();
    rows.level.hidden = v.mode !== 'engine';
    rows.color.hidden = v.mode === 'local';
    rows.first.hidden = v.setup === 'position';
    setupBox.hidden = v.setup !== 'position';
    document.getElementById('scoring-hint')?.replaceChildren(t(`scoring.${v.scoring}.hint`));
    levelHint.textContent = t(v.level <= 3 ? 'home.level.easy' : v.level <= 7 ? 'home.level.medium' : 'home.level.hard');
    renderHouse(v);
    savePrefs(v);
  }

  function renderHouse(v = values()) {
    /** @type {{ n: number, rating: string }[]} */
    const shown = [];
    for (const b of house) {
      // A level not rated yet stands at the scale's start, provisional (`1500?`).
      const r = b.ratings.find((x) => x.scoring === v.scoring && x.speed === 'realtime');
      if (b.level) shown.push({ n: b.level, rating: r ? ratingText(r.rating, r.provisional) : ratingText(1500, true) });
    }
    shown.sort((a, b) => a.n - b.n);
    houseLine.hidden = !shown.length;
    houseLine.replaceChildren(t('home.houseRatings'), ...shown.flatMap((x) => [' ',
      h(x.n === v.level ? 'strong' : 'span', { class: 'house-level', dataset: { level: x.n } }, t('home.levelRating', x))]));
  }
  request('GET', '/api/bots').then((list) => {
    house = list.bots.filter((/** @type {import('api-types').BotView} */ b) => b.level !== null && b.level !== undefined);
    renderHouse();
  }).catch(() => { /* no line then */ });

  /** @type {number | undefined} */
  let estimateTimer;
  let estimateFor = '';
  /** The value of the form's radio buttons `name`. */
  const choice = (/** @type {string} */ name) => /** @type {RadioNodeList} */ (form.elements.namedItem(name)).value;

  /** The engine's estimate of how the given setup favours each side, and a link to analyse it. */
  function showEstimate(/** @type {string} */ text) {
    clearTimeout(estimateTimer);
    estimateFor = `${text}|${choice('scoring')}`;
    const asked = estimateFor;
    const note = h('p', { class: 'hint deal-estimate' });
    const scoring = choice('scoring');
    const link = h('a', { class: 'btn small', href: `/analysis?position=${encodeURIComponent(text)}&scoring=${scoring}`, i18n: 'game.analyse' });
    setupPreview.append(note, link);
    estimateTimer = setTimeout(async () => {
      try {
        const a = await request('GET', `/api/analysis?position=${encodeURIComponent(text)}&scoring=${scoring}`);
        if (asked !== estimateFor) return;
        const args = { p: { percent: a.white } };
        note.dataset.i18n = 'home.setup.estimate';
        note.dataset.i18nArgs = JSON.stringify(args);
        note.textContent = t('home.setup.estimate', args);
      } catch { /* the estimate is optional */ }
    }, 400);
  }

  function updateSetup() {
    clear(setupPreview);
    setupError.textContent = '';
    const text = setupText.value.trim();
    if (!text) return;
    try {
      parsePosition(text);
      setupPreview.append(miniBoard(text, { label: 'home.setup.preview' }).svg);
      if (choice('setup') === 'position') showEstimate(text);
    } catch (e) {
      setupError.textContent = t(`pos.${e instanceof Error ? e.message : ''}`);
    }
    updateForm();
  }

  form.addEventListener('change', (e) => {
    updateForm();
    const name = e.target instanceof Element ? e.target.getAttribute('name') : null;
    if ((name === 'scoring' || name === 'setup') && setupText.value.trim()) updateSetup();
  });
  form.addEventListener('input', (e) => { if (e.target === levelInput) updateForm(); });
  setupText.addEventListener('input', updateSetup);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const v = values();
    formError.textContent = '';
    /** @type {import('api-types').CreateGame} */
    const body = { mode: v.mode, scoring: v.scoring };
    if (v.mode !== 'local') body.color = v.color;
    if (v.mode === 'engine') body.engine_level = v.level;
    if (v.duplicate) body.duplicate = true;
    if (v.setup === 'position') {
      if (!v.position) {
        setupError.textContent = t('pos.empty');
        setupText.focus();
        return;
      }
      try { parsePosition(v.position); } catch (err) {
        setupError.textContent = t(`pos.${err instanceof Error ? err.message : ''}`);
        setupText.focus();
        return;
      }
      body.setup = v.position;
    } else {
      body.first = v.first;
    }
    startButton.disabled = true;
    try {
      const grant = await api.create(body);
      keepGrant(grant);
      navigate(`/game/${grant.game_id}`);
    } catch (err) {
      startButton.disabled = false;
      const text = errorText(err);
      if (err instanceof ApiError && err.code === 'invalid_setup') setupError.textContent = text;
      else formError.textContent = text;
    }
  });

  // ---- Side: your games, live games, open a record -------------------------------------------
  const mineList = h('ul', { class: 'game-list mine' });
  const liveList = h('ul', { class: 'game-list' });
  /** @type {import('api-types').GameSummary[]} */
  let recent = [];
  /** @type {import('api-types').GameSummary[]} */
  let live = [];

  /** One of the account's games being played: the board, the opponent, whose move, the clock. */
  function playingItem(/** @type {import('api-types').PlayingGame} */ g) {
    const o = g.opponent;
    const against = o.engine_level !== null && o.engine_level !== undefined
      ? t('home.mine.engine', { level: o.engine_level })
      : o.name ? t('home.mine.vs', { name: `${o.name}${o.rating ? ` (${ratingText(o.rating, o.provisional)})` : ''}` }) : t('home.mine.guest');
    const left = g.clock ? [g.clock.label, t('home.mine.left', { time: formatClock(g.clock.left_ms, { days: g.clock.speed === 'correspondence' }) })] : [];
    return h('li', {},
      h('a', { class: 'game-item', href: `/game/${g.id}` },
        miniBoard(g.position, { label: 'board.thumb' }).svg,
        h('span', {},
          h('span', { class: 'what' }, against),
          h('span', { class: 'meta', style: 'display:block' },
            [...(g.tournament ? [t('home.mine.tournament')] : []), t(g.rated ? 'list.rated' : 'list.casual'),
              ...left, t(`scoring.${g.scoring}`), t('list.moves', { n: g.move_count })].join(' · '))),
        h('span', { class: `badge${g.your_turn ? ' live' : ''}` }, t(g.your_turn ? 'home.mine.yourTurn' : 'home.mine.theirTurn'))));
  }

  function renderMine() {
    clear(mineList);
    const account = myName() ? playing() : null;
    if (account) {
      // The account's games, from the server: the same on every device.
      for (const g of account.slice(0, 10)) mineList.append(playingItem(g));
      if (!account.length) mineList.append(h('li', { class: 'empty-note', i18n: 'home.mine.none' }));
      return;
    }
    const mine = myGames().slice(0, 5);
    if (!mine.length) {
      mineList.append(h('li', { class: 'empty-note', i18n: 'home.mine.none' }));
      return;
    }
    const byId = new Map(recent.map((g) => [g.id, g]));
    for (const m of mine) {
      const g = byId.get(m.id);
      if (g) mineList.append(gameItem(g, `/game/${g.id}`));
      else {
        mineList.append(h('li', {}, h('a', { class: 'game-item', href: `/game/${m.id}` },
          h('span', { class: 'board', 'aria-hidden': 'true' }),
          h('span', {}, h('span', { class: 'what' }, m.mode === 'engine' ? t('home.mode.engine') : modeLabel(m.mode)),
            h('span', { class: 'meta', style: 'display:block' }, m.id)),
          h('span', {}))));
      }
    }
  }

  function renderLive() {
    clear(liveList);
    if (!live.length) {
      liveList.append(h('li', { class: 'empty-note', i18n: 'home.live.none' }));
      return;
    }
    for (const g of live) liveList.append(gameItem(g));
  }

  async function refresh() {
    try {
      const [r, l] = await Promise.all([api.list('recent', 100), api.list('live', 5)]);
      recent = r.games;
      live = l.games;
    } catch { /* the lists stay as they are */ }
    renderMine();
    renderLive();
  }

  const recordText = h('textarea', { rows: 4, spellcheck: 'false', 'i18n-aria-label': 'home.import.label', 'i18n-placeholder': 'home.import.placeholder' });
  const importError = h('p', { class: 'error-text', role: 'alert' });
  const importForm = h('form', { class: 'import-form', novalidate: true,
    onsubmit: async (e) => {
      e.preventDefault();
      importError.textContent = '';
      if (!recordText.value.trim()) { importError.textContent = t('home.import.empty'); return; }
      try {
        const grant = await api.import(recordText.value);
        keepGrant(grant);
        navigate(`/game/${grant.game_id}`);
      } catch (err) {
        importError.textContent = errorText(err);
      }
    } },
  recordText, importError,
  h('div', {}, h('button', { type: 'submit', class: 'btn', i18n: 'home.import.button' })));

  const hero = h('div', { class: 'hero' },
    h('div', {},
      h('h1', { i18n: 'home.heading' }),
      h('p', { i18n: 'home.intro' }),
      h('p', {}, h('a', { href: '/rules', i18n: 'home.learn' }))),
    h('div', { class: 'hero-board' }, miniBoard(HERO, { label: 'home.heroBoard', lastMove: { from: 'e1', to: 'e4' } }).svg));

  main.append(h('section', { class: 'home' },
    hero,
    h('div', { class: 'home-grid' },
      form,
      h('div', { class: 'home-side' },
        h('section', { class: 'card' }, h('h2', { i18n: 'home.mine' }), mineList),
        h('section', { class: 'card' },
          h('div', { class: 'section-head' }, h('h2', { i18n: 'home.live' }), h('a', { href: '/watch', i18n: 'home.live.all' })),
          liveList),
        h('section', { class: 'card' }, h('h2', { i18n: 'home.import' }), h('p', { class: 'muted', i18n: 'home.import.hint' }), importForm)))));

  updateForm();
  updateSetup();
  renderMine();
  renderLive();
  refresh();
  timers.push(setInterval(refresh, 15000));
  window.addEventListener('playingchange', renderMine);

  return {
    unmount() {
      timers.forEach(clearInterval);
      timers = [];
      window.removeEventListener('playingchange', renderMine);
    },
    onLang() {
      setTitle();
      translateDom(main);
      updateForm();
      updateSetup();
      renderMine();
      renderLive();
    },
  };
}
