// The game page (`/game/{id}`) and the replay (`/replay/{id}`): the board, the players (names and
// ratings where they have accounts) with their scores and clocks, whose turn it is, the moves,
// the actions of a seat (pass, take back, resign, rematch), the join link of a friend game, the
// record, the live connection, and the end of the game. A game of a duplicate pair played at
// once (a simultaneous duplicate Swiss) shows the pair's other game beside it, as a second,
// smaller view of the same kind (`twin`), and says when either board waits for its player.
//
// Built like the terminal game (crates/mabula-cli/src/play/app.rs): the model and its
// `update(model, message)` live in game-model.js and know nothing of the page. Here every event
// becomes a message for `dispatch`, which updates the model, draws it with one `render(model)`
// and carries out the effects the update asked for, whose results come back as messages.

import { program } from '../program.js';
import { h, s, clear, translateDom, setText, announce, toast, copyText, reducedMotion, usingKeyboard } from '../dom.js';
import { t, percent } from '../i18n.js';
import { api, request, seatOf, keepGrant, forgetSeat, forgetJoin, ApiError, Socket } from '../api.js';
import { navigate } from '../nav.js';
import { Board } from '../board.js';
import { tryParse, groupsOf, scoresOf } from '../position.js';
import { errorText } from './errors.js';
import { confirmDialog, endDialog, pairSummary, shareDialog } from './dialogs.js';
import { refreshPlaying } from '../playing.js';
import { modeLabel, ratingText, ratingDiff, botBadge } from '../widgets.js';
import { formatClock, controlLabel } from '../clock.js';
import { setPlaying, setTwin } from '../lobbyfeed.js';
import { isMe } from '../session.js';
import {
  init, update, other, isMyTurn, current, displayed, displayedScores, displayedToMove, boardMoves,
  hintMove, engineKept, playerGame, headline, reason, lowAt, clockLeft, abortIn, claimIn, passMove, premoveMoves,
} from './game-model.js';
import { drawBanner, playButtons, soundToggle } from './game-play.js';
import { playSound } from '../sound.js';

const GROUPS_KEY = 'mabula:showGroups';
const AUTO_PASS_KEY = 'mabula:autoPass';
/** @type {Record<Side, string>} */
const Cap = { white: 'White', black: 'Black' };

/**
 * @typedef {import('api-types').GameState} GameState
 * @typedef {import('api-types').GameMessage} GameMessage
 * @typedef {import('api-types').MoveView} MoveView
 * @typedef {import('api-types').Side} Side
 * @typedef {import('pages-types').GameMsg} Msg
 * @typedef {import('pages-types').GameEffect} Effect
 * @typedef {import('pages-types').GameAction} GameAction
 * @typedef {import('./game-model.js').Model} Model
 * @typedef {import('./game-model.js').Loaded} Loaded
 * @typedef {keyof GameState['scores']} Scoring
 */

/** Translates `{ key, args }`, where an argument `{ t: key }` is translated too. */
function tr(/** @type {string} */ key, /** @type {import('./game-model.js').Said['args']} */ args) {
  if (!args) return t(key);
  /** @type {import('pages-types').Params} */
  const out = {};
  for (const [k, v] of Object.entries(args)) out[k] = v && typeof v === 'object' && 't' in v ? t(v.t) : v;
  return t(key, out);
}

/** A sentence made of several `{ key, args }` parts. */
function sentence(/** @type {import('pages-types').Said[]} */ parts) {
  return parts.map((p) => tr(p.key, p.args)).join(' ');
}

const now = () => performance.now();

/**
 * @param {HTMLElement} main
 * @param {{ id: string, replay?: boolean, twin?: ((m: Loaded) => void) | null }} options `twin`:
 *   this view is the other game of a pair, beside the page's own, and is drawn small (no moves
 *   list, record, chat or end dialog); it tells each drawing of its model to the page.
 */
export function mount(main, { id, replay = false, twin = null }) {
  const page = program(init({ id, replay, token: seatOf(id)?.token || null, showGroups: readBool(GROUPS_KEY), autoPass: readBool(AUTO_PASS_KEY) }), update, render, run);
  const dispatch = page.dispatch;
  /** @type {Socket<GameMessage> | null} */
  let live = null;
  /** @type {HTMLDialogElement | null} */
  let endDialogOpen = null;
  /** @type {number | undefined} */
  let autoplayTimer;
  /** @type {number | undefined} */
  let clockTimer;
  /** @type {number | undefined} */
  let autoPassTimer;
  /** What each part of the page was last drawn from: a part is redrawn when its key changes. */
  /** @type {Record<string, unknown>} */
  let drawn = {};


  // ---- Skeleton ------------------------------------------------------------------------------
  const board = new Board({
    interactive: true,
    label: 'board.label',
    onPlay: (move) => dispatch({ type: 'play', move }),
    onPreview: (move) => dispatch({ type: 'preview', move }),
    onSelect: (square, moves) => {
      if (square) announce(t('announce.selected', { sq: square, stops: moves.map((m) => m.to).join(', ') }));
    },
  });
  const boardWrap = h('div', { class: 'board-wrap' }, board.svg);
  // A premove waits for the opponent's move: a press on the board calls it off.
  boardWrap.addEventListener('pointerdown', () => { if (page.model.premove) dispatch({ type: 'cancelPremove' }); });
  const where = h('span', { class: 'where', 'aria-live': 'off' });
  const nav = (/** @type {keyof typeof ICON_PATHS} */ icon, /** @type {string} */ label, /** @type {Msg} */ msg) => h('button', { type: 'button', class: 'btn small', 'i18n-aria-label': label, 'i18n-title': label, onclick: () => dispatch(msg) }, icons(icon));
  const backLive = h('button', { type: 'button', class: 'btn small primary back-live', i18n: 'game.backToLive', onclick: () => dispatch({ type: 'view', view: null }) });
  const playButton = h('button', { type: 'button', class: 'btn small', onclick: () => dispatch({ type: 'autoplay' }) });
  /** @type {HTMLInputElement} */
  const slider = h('input', { type: 'range', min: 0, max: 0, value: 0, 'i18n-aria-label': 'game.replaySlider', oninput: () => dispatch({ type: 'view', view: Number(slider.value) }) });
  const viewBar = h('div', { class: 'view-bar' },
    nav('first', 'game.first', { type: 'view', view: 0 }),
    nav('prev', 'game.prev', { type: 'step', by: -1 }),
    where,
    nav('next', 'game.next', { type: 'step', by: 1 }),
    nav('last', 'game.last', { type: 'end' }),
    replay ? null : backLive);
  const replayBar = replay ? h('div', { class: 'replay-controls' }, playButton, slider) : null;
  const boardCol = h('div', { class: 'board-col' }, boardWrap, twin ? null : viewBar, replayBar);

  const players = h('div', { class: 'card players', role: 'group', 'i18n-aria-label': 'game.players' });
  const abortNote = h('p', { class: 'abort-note', hidden: true });
  const claimText = h('span', { role: 'status' });
  const claimButton = h('button', { type: 'button', class: 'btn', i18n: 'game.claimWin',
    onclick: () => dispatch({ type: 'act', action: 'claim' }) });
  const claimNote = h('p', { class: 'abort-note claim-note', hidden: true }, claimText, ' ', claimButton);
  const status = h('p', { class: 'status', role: 'status' });
  const connEl = h('span', { class: 'conn' });
  const statusRow = h('div', { class: 'status-row' }, status, connEl);
  const previewNote = h('p', { class: 'preview-note', 'aria-live': 'off' });
  const banners = h('div', { class: 'banners', style: 'display:grid;gap:10px' });
  const dealNote = h('p', { class: 'deal-note muted', hidden: true });
  const actions = h('div', { class: 'actions' });
  /** @type {HTMLInputElement} */
  const groupsToggle = h('input', { type: 'checkbox', checked: page.model.showGroups, onchange: () => dispatch({ type: 'groups', on: groupsToggle.checked }) });
  /** @type {HTMLInputElement} */
  const hintsToggle = h('input', { type: 'checkbox', class: 'hints-toggle', onchange: () => dispatch({ type: 'hints', on: hintsToggle.checked }) });
  const hintsLabel = h('label', { hidden: true }, hintsToggle, h('span', { i18n: 'game.hints' }));
  /** @type {HTMLInputElement} */
  const autoPassToggle = h('input', { type: 'checkbox', class: 'auto-pass-toggle', checked: page.model.autoPass,
    onchange: () => dispatch({ type: 'autoPass', on: autoPassToggle.checked }) });
  const autoPassLabel = h('label', { hidden: true }, autoPassToggle, h('span', { i18n: 'game.autoPass' }));
  const toggles = h('div', { class: 'toggles' },
    h('label', {}, groupsToggle, h('span', { i18n: 'game.showGroups' })),
    autoPassLabel,
    hintsLabel,
    replay ? null : soundToggle(),
    h('button', { type: 'button', class: 'btn small', i18n: 'game.flip', onclick: () => dispatch({ type: 'flip' }) }));

  const notationInput = h('input', {
    type: 'text', id: 'notation', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    'i18n-placeholder': 'game.notation.placeholder', 'i18n-aria-label': 'game.notation.label',
  });
  const notationError = h('p', { class: 'notation-error error-text', 'aria-live': 'assertive' });
  const notationForm = h('form', { class: 'notation-box', novalidate: true, onsubmit: (e) => { e.preventDefault(); dispatch({ type: 'typed', text: notationInput.value }); } },
    h('label', { for: 'notation', class: 'sr-only', i18n: 'game.notation.label' }),
    h('div', { class: 'notation-form' }, notationInput, h('button', { type: 'submit', class: 'btn', i18n: 'game.notation.play' })),
    notationError);

  const moveCount = h('small');
  const movelist = h('div', { class: 'movelist', role: 'list' });
  const movesCard = h('section', { class: 'card moves-card', 'aria-labelledby': 'moves-title' },
    h('h2', { id: 'moves-title' }, h('span', { i18n: 'game.moves' }), moveCount),
    movelist);

  // Hidden while a rated game is played (fair play, issue 51; see `render`).
  const analyseLink = h('a', { class: 'btn small analyse-link', href: `/analysis?game=${id}`, i18n: 'game.analyse', hidden: true });
  const recordRow = h('div', { class: 'record-row' },
    h('button', { type: 'button', class: 'btn small', i18n: 'game.copyRecord', onclick: copyRecord }),
    h('a', { class: 'btn small', href: `/api/games/${id}/record?download=1`, download: `mabula-${id}.txt`, i18n: 'game.download' }),
    h('button', { type: 'button', class: 'btn small', i18n: 'game.copyWatch', onclick: async () => {
      const ok = await copyText(`${location.origin}/game/${id}`);
      toast(t(ok ? 'game.copied' : 'game.copyFailed'), ok ? 'info' : 'error');
    } }),
    h('button', { type: 'button', class: 'btn small share-button', i18n: 'share.button',
      onclick: () => page.model.state && shareDialog(id, { ply: current(/** @type {Loaded} */ (page.model)), flipped: Boolean(page.model.flipped) }) }),
    replay ? null : h('a', { class: 'btn small', href: `/replay/${id}`, i18n: 'game.replay' }),
    analyseLink);

  const title = h('h1', { id: 'game-title', class: 'sr-only' });
  // A tournament's game links back to its tournament (issue 37).
  const tourLink = h('a', { class: 'btn small tour-back', hidden: true, i18n: 'tour.backTo' });
  const twinHead = h('h2', { class: 'twin-head', id: `twin-${id}` });
  const section = twin
    ? h('section', { class: 'twin-game', 'aria-labelledby': `twin-${id}` }, twinHead, players, boardCol, abortNote, claimNote, statusRow, banners, actions)
    : h('section', { class: 'game', 'aria-labelledby': 'game-title' },
      title, boardCol, tourLink, players, abortNote, claimNote, statusRow, dealNote, previewNote, banners, actions, toggles, notationForm, movesCard, recordRow);
  /**
   * The other game of this game's duplicate pair, when both are played at once: its view, in a
   * box of this page, and its model as last drawn.
   * @type {{ id: string, box: HTMLElement, view: ReturnType<typeof mount> | null, model: Loaded | null } | null}
   */
  let pair = null;
  /** The end dialog waits for the other game of the pair to end too. */
  let endWaits = false;
  /** Which of the two boards are in sight (at least half). */
  const inSight = new Map();
  const sight = new IntersectionObserver((entries) => {
    for (const e of entries) inSight.set(e.target, e.intersectionRatio >= 0.5);
    if (page.model.state) renderPair(/** @type {Loaded} */ (page.model));
  }, { threshold: [0, 0.5, 1] });
  const pairCallText = h('span');
  /** @type {HTMLElement | null} */
  let callFor = null;
  const pairCall = h('div', { class: 'call-float pair-call', role: 'status', hidden: true }, pairCallText, ' ',
    h('button', { type: 'button', class: 'btn primary small', i18n: 'pair.show',
      onclick: () => callFor?.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' }) }));
  // Chat (issue 36): its own module, loaded once the game is known to be between two people on
  // two devices (no chat at one screen or against the engine); the socket's `chat` messages go
  // to it (see 'connect').
  /** @type {ReturnType<typeof import('../chat.js').mountChat> | null} */
  let chat = null;
  main.append(h('p', { class: 'muted loading', i18n: 'game.loading' }));

  start();

  // ---- Loading -------------------------------------------------------------------------------

  /** Takes the seat of a join link first, if the address carries one; then loads the game. */
  async function start() {
    let token = page.model.token;
    const join = twin ? null : new URLSearchParams(location.hash.slice(1)).get('join');
    if (join) {
      history.replaceState(null, '', location.pathname);
      if (token) {
        toast(t('game.ownJoinLink'));
      } else if (await invitationUsed()) {
        // Asked first, so that an invitation used before is no failed request (and no error in
        // the browser's console), only this note.
        toast(t('error.seat_taken'), 'error', 6000);
      } else {
        try {
          const grant = await api.join(id, join);
          keepGrant(grant);
          token = grant.token;
          toast(t('game.joined'));
        } catch (err) {
          toast(errorText(err), 'error', 6000);
        }
      }
    }
    let first;
    try {
      first = await api.state(id, token);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'token_invalid') {
        forgetSeat(id);
        token = null;
        try { first = await api.state(id, null); } catch (e2) { return dispatch({ type: 'failed', error: e2 }); }
      } else {
        return dispatch({ type: 'failed', error: err });
      }
    }
    if (!replay && !twin) {
      const other = await twinOf(first);
      if (page.stopped) return;
      if (other) showTwin(other);
    }
    dispatch({ type: 'loaded', state: first, token, at: now() });
    if (first.settings.mode === 'friend' && !twin) {
      const { mountChat } = await import('../chat.js');
      if (page.stopped) return;
      chat = mountChat({ id, replay, token: () => page.model.token });
      // Under the game's actions: in view beside the board on a laptop's screen.
      section.insertBefore(chat.el, toggles);
      chat.refresh();
    }
  }

  /**
   * The other game of `st`'s duplicate pair if both are played at once (a duplicate Swiss that
   * is not sequential), from its tournament's pairings; null otherwise or when it cannot be read.
   * @param {GameState} st
   * @returns {Promise<string | null>}
   */
  async function twinOf(st) {
    if (!st.settings.tournament || !st.settings.duplicate) return null;
    try {
      /** @type {import('api-types').TournamentView} */
      const tour = await request('GET', `/api/tournaments/${st.settings.tournament}`);
      if (tour.settings.sequential) return null;
      for (const round of tour.rounds) {
        for (const p of round.pairings) {
          const ids = p.games.map((g) => g.id);
          if (ids.includes(id)) return ids.find((g) => g !== id) ?? null;
        }
      }
    } catch { /* the page shows its own game */ }
    return null;
  }

  /** Shows game `other`, this game's pair, beside it. */
  function showTwin(/** @type {string} */ other) {
    const box = h('div', { class: 'twin-box', dataset: { game: other } });
    section.classList.add('paired');
    section.insertBefore(box, toggles);
    section.append(pairCall);
    const p = { id: other, box, view: /** @type {ReturnType<typeof mount> | null} */ (null), model: /** @type {Loaded | null} */ (null) };
    pair = p;
    p.view = mount(box, { id: other, twin: (tm) => {
      p.model = tm;
      if (page.model.state) render(page.model);
    } });
    setTwin(other);
    sight.observe(boardWrap);
    sight.observe(box);
  }

  /** Whether the other game of the pair waits for this player's move. */
  const twinTurn = () => Boolean(pair?.model && isMyTurn(pair.model));

  /**
   * The pair's result once both games are over, as the second game's state would carry it
   * (`pair`, for `pairSummary`) with the seats this player holds in that game; null before.
   * @param {Loaded} m
   */
  function pairOfBoth(m) {
    const tm = pair?.model;
    if (!tm || m.state.status !== 'finished' || tm.state.status !== 'finished') return null;
    const [first, second] = m.state.settings.pair_half === 'first' ? [m, tm] : [tm, m];
    /** White's and Black's points of a result. */
    const pts = (/** @type {string} */ r) => (r === '1-0' ? [1, 0] : r === '0-1' ? [0, 1] : [0.5, 0.5]);
    const [w1, b1] = pts(first.state.result);
    const [w2, b2] = pts(second.state.result);
    const state = { ...second.state, pair: {
      first: first.state.id, second: second.state.id, results: /** @type {[string, string]} */ ([first.state.result, second.state.result]),
      complete: true, points: { white_then_black: w1 + b2, black_then_white: b1 + w2 },
    } };
    return { state, seats: second.seats };
  }

  /** The pair's call (a board that waits for this player's move is out of sight), and the end. */
  function renderPair(/** @type {Loaded} */ m) {
    if (!pair) return;
    const mine = twinTurn();
    pair.box.classList.toggle('yours', mine);
    callFor = mine && !inSight.get(pair.box) ? pair.box : isMyTurn(m) && !inSight.get(boardWrap) ? boardWrap : null;
    pairCall.hidden = !callFor;
    if (callFor) setText(pairCallText, callFor === pair.box ? 'pair.callTwin' : 'pair.callMain');
    if (endWaits && pairOfBoth(m)) {
      endWaits = false;
      showEnd();
    }
  }

  /** Whether every seat of a person in this game is taken already (an invitation used before). */
  async function invitationUsed() {
    try {
      const st = await api.state(id, null);
      return /** @type {Side[]} */ (['white', 'black']).every((c) => st.seats[c].kind !== 'person' || st.seats[c].claimed);
    } catch {
      return false;
    }
  }

  // ---- Effects -------------------------------------------------------------------------------

  function run(/** @type {Effect} */ e) {
    switch (e.type) {
      case 'connect':
        live = new Socket(`/api/games/${id}/ws`, {
          hello: () => {
            const { state: st, token } = page.model;
            return { type: 'hello', since: st?.moves.length ?? 0, epoch: st?.epoch ?? 0, ...(token ? { token } : {}) };
          },
          synced: (msg) => msg.type === 'sync',
          ping: 20000,
          onMessage: (msg) => {
            if (msg.type === 'chat') return chat?.add(msg.line); // chat (issue 36)
            // The seats read the spectators' room once the game is over (issue 51).
            if (msg.type === 'sync' || msg.type === 'end') chat?.refresh();
            if (msg.type === 'error' && msg.code === 'game_not_found') live?.close();
            dispatch({ type: 'server', msg, at: now() });
            // The top bar's count of the player's games waiting for them follows this game.
            if (page.model.seats.length && (msg.type === 'move' || msg.type === 'end' || msg.type === 'undo')) refreshPlaying();
          },
          onStatus: (st) => dispatch({ type: 'conn', status: st }),
        }).open();
        break;
      case 'estimateDeal':
        if (!twin) estimateDeal(page.model.state);
        break;
      case 'send':
        api.move(id, page.model.token, e.move, e.number)
          .then((st) => { dispatch({ type: 'played', state: st, at: now() }); refreshPlaying(); })
          .catch((error) => dispatch({ type: 'playFailed', error }));
        break;
      case 'animate':
        // A hint's arrow belongs to the position before any move: it goes as the marbles roll.
        board.set({ position: e.before, lastMove: e.last, moves: null, annotations: null });
        drawn.board = null;
        board.animate(e.move).then(() => dispatch({ type: 'animated', purpose: e.purpose, count: e.count, epoch: e.epoch }));
        break;
      case 'request':
        actRequest(e.action, e.side)
          .then((st) => dispatch({ type: 'acted', state: st, ok: e.ok, at: now() }))
          .catch((error) => dispatch({ type: 'actFailed', error }));
        break;
      case 'confirmResign':
        confirmResign(e.local, e.side);
        break;
      case 'askHint':
        request('POST', `/api/games/${id}/hint`, { token: page.model.token, body: {} })
          .then((res) => dispatch({ type: 'hinted', state: res.state, analysis: res.analysis, at: now() }))
          .catch((error) => dispatch({ type: 'actFailed', error }));
        break;
      case 'fetchAccuracy':
        // Each player's accuracy, once the finished rated game is analysed (issue 51).
        setTimeout(() => {
          if (page.stopped) return;
          api.state(id, page.model.token)
            .then((st) => dispatch({ type: 'accuracy', state: st }))
            .catch(() => dispatch({ type: 'accuracy', state: null }));
        }, e.ms);
        break;
      case 'refetch':
        api.state(id, page.model.token)
          .then((st) => dispatch({ type: 'refetched', state: st, at: now() }))
          .catch(() => { /* the socket will resync */ })
          .finally(() => live?.resync());
        break;
      case 'announce':
        if (e.later) setTimeout(() => announce(tr(e.key, e.args)), 400);
        else announce(tr(e.key, e.args));
        break;
      case 'sound':
        playSound(e.kind);
        break;
      case 'announceLow':
        if (e.sound) playSound('low');
        announce(t('game.lowTime', { time: formatClock(e.ms, { days: e.days }) }));
        break;
      case 'toast':
        if ('error' in e) toast(errorText(e.error), e.kind);
        else toast(tr(e.key, e.args), 'info');
        break;
      case 'showEnd':
        if (!twin) setTimeout(showEnd, e.later ? (reducedMotion() ? 50 : 700) : 0);
        break;
      case 'forgetSeat':
        forgetSeat(id);
        break;
      case 'forgetJoin':
        forgetJoin(id);
        break;
      case 'playing':
        if (!twin) setPlaying(e.id);
        break;
      case 'focusBoard':
        // The board's tab stop goes to a movable marble; focus (and its ring) moves there only for
        // someone using the keyboard, not after a click on a link or a reload.
        if (twin) break;
        if (usingKeyboard()) board.focus();
        else board.aim();
        break;
      case 'saveGroups':
        try { localStorage.setItem(GROUPS_KEY, e.on ? '1' : '0'); } catch { /* ignore */ }
        break;
      case 'saveAutoPass':
        try { localStorage.setItem(AUTO_PASS_KEY, e.on ? '1' : '0'); } catch { /* private mode */ }
        break;
      case 'autoPassTimer':
        clearTimeout(autoPassTimer);
        if (e.turn === null) autoPassTimer = undefined;
        else {
          const turn = e.turn;
          autoPassTimer = setTimeout(() => dispatch({ type: 'autoPassDue', turn }), e.ms);
        }
        break;
      case 'ticking':
        // The clocks are the only part that time alone changes: they are redrawn here, and the
        // model hears the time for its low-time warning.
        clearInterval(clockTimer);
        clockTimer = e.on ? setInterval(() => {
          const at = now();
          renderClocks(page.model, at);
          dispatch({ type: 'clockTick', at });
        }, 100) : undefined;
        break;
      case 'clearNotation':
        notationInput.value = '';
        break;
      case 'autoplay':
        clearInterval(autoplayTimer);
        autoplayTimer = e.on ? setInterval(() => dispatch({ type: 'autoplayTick' }), 1100) : undefined;
        break;
      default:
        break;
    }
  }

  /** The engine's estimate of the deal (the start position), from the analysis service. */
  async function estimateDeal(/** @type {GameState | null} */ st) {
    if (!st) return;
    try {
      const a = await request('GET', `/api/analysis?position=${encodeURIComponent(st.start)}&scoring=${st.settings.scoring}`);
      dispatch({ type: 'deal', p: a.white });
    } catch { /* the estimate is optional */ }
  }

  /** @returns {Promise<GameState>} */
  function actRequest(/** @type {GameAction} */ action, /** @type {Side | undefined} */ side) {
    const token = page.model.token;
    switch (action) {
      case 'undo': return api.undo(id, token);
      case 'acceptUndo': return api.acceptUndo(id, token);
      case 'declineUndo': return api.declineUndo(id, token);
      case 'resign': return api.resign(id, token, side);
      case 'claim': return api.claimWin(id, token);
      case 'draw': return request('POST', `/api/games/${id}/draw`, { token, body: {} });
      case 'declineDraw': return request('POST', `/api/games/${id}/draw/decline`, { token, body: {} });
      case 'abort': return request('POST', `/api/games/${id}/abort`, { token, body: {} });
      default: return Promise.reject(new ApiError(0, 'bad_request', action));
    }
  }

  async function confirmResign(/** @type {boolean} */ local, /** @type {Side} */ sideToMove) {
    const side = t(`colour.${Cap[sideToMove]}`);
    const yes = await confirmDialog({
      title: local ? t('game.resignFor', { side }) : t('game.resignAsk'),
      text: t('game.resignText'),
      ok: t('game.resign'),
      danger: true,
    });
    if (yes) dispatch({ type: 'act', action: 'resign', side: local ? sideToMove : undefined });
  }

  async function rematch() {
    try {
      const grant = await api.rematch(id, page.model.token);
      keepGrant(grant);
      navigate(`/game/${grant.game_id}`);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'rematch_taken' && page.model.state?.rematch) navigate(`/game/${page.model.state.rematch}`);
      else toast(errorText(err), 'error');
    }
  }

  async function copyRecord() {
    try {
      const text = await api.record(id);
      const ok = await copyText(text);
      toast(t(ok ? 'game.recordCopied' : 'game.copyFailed'), ok ? 'info' : 'error');
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  function showEnd() {
    const m = page.model;
    if (page.stopped || !m.state || m.state.status !== 'finished') return;
    if (endDialogOpen && endDialogOpen.open) return;
    // A pair played at once: the dialog comes once both games are over, with the pair's result.
    const both = pair ? pairOfBoth(/** @type {Loaded} */ (m)) : null;
    if (pair && !both) {
      endWaits = true;
      return;
    }
    /** @type {HTMLElement[]} */
    const buttons = [];
    const close = () => endDialogOpen?.close();
    // A tournament's game leads back to it (no rematch there).
    if (tourOf(m.state)) buttons.push(h('a', { class: 'btn primary', href: `/tournament/${tourOf(m.state)}`, onclick: close }, t('tour.backTo')));
    else if (playerGame(m.state)) {
      if (m.seats.length === 1 && m.state.end_reason !== 'aborted') buttons.push(h('button', { type: 'button', class: 'btn primary', onclick: () => { close(); rematch(); } }, t('game.rematch')));
      const opponent = m.seats.length === 1 ? m.state.players[other(m.seats[0])]?.name : null;
      if (opponent) buttons.push(h('a', { class: 'btn primary', href: `/lobby?challenge=${encodeURIComponent(opponent)}`, onclick: close }, t('game.challengeAgain', { name: opponent })));
      buttons.push(h('a', { class: 'btn', href: '/lobby', onclick: close }, t('game.newOpponent')));
    } else {
      if (m.seats.length) buttons.push(h('button', { type: 'button', class: 'btn primary', onclick: () => { close(); rematch(); } }, t(rematchLabel(m.state))));
      buttons.push(h('a', { class: 'btn', href: '/', onclick: close }, t('game.newGame')));
    }
    const head = headline(m);
    endDialogOpen = endDialog(m.state, { headline: tr(head.key, head.args), reason: sentence(reason(m.state)), extra: both ? pairSummary(both.state, both.seats) : pairSummary(m.state, m.seats), actions: buttons });
  }

  // ---- Rendering -----------------------------------------------------------------------------

  /** Draws a part of the page when `key` (what it is drawn from) changed since the last time. */
  function part(/** @type {string} */ name, /** @type {unknown} */ key, /** @type {() => void} */ draw) {
    if (drawn[name] === key) return;
    drawn[name] = key;
    draw();
  }

  /** Draws the model. Parts whose inputs did not change are left as they are. */
  function render(/** @type {Model} */ model) {
    const m = /** @type {Loaded} */ (model);
    if (m.failure) {
      part('failure', m.failure, () => renderFailure(m.failure));
      return;
    }
    if (!m.state) return;
    if (!section.isConnected) {
      clear(main);
      main.append(section);
    }
    const st = m.state;
    const base = `${st.updated_at}|${st.engine_thinking}|${st.moves.length}|${st.epoch}|${st.status}|${m.seats.join()}|${m.view}|${m.pending}|${m.animating}|${Boolean(m.optimistic)}`;
    board.setFlipped(Boolean(m.flipped));
    renderBoard(m);
    part('title', `${base}|${st.rated}|${twinTurn()}`, () => renderTitle(m));
    part('players', `${base}|${JSON.stringify(st.seats)}|${JSON.stringify(st.players)}|${JSON.stringify(m.accuracy)}`, () => renderPlayers(m));
    renderClocks(m, now());
    part('status', base, () => renderStatus(m));
    part('conn', `${m.conn}|${st.status}`, () => renderConn(m));
    part('preview', `${base}|${m.preview?.notation}|${st.spectators}|${m.premove?.notation}`, () => renderPreviewNote(m));
    part('banners', `${base}|${JSON.stringify(st.seats)}|${JSON.stringify(st.undo_offer)}|${st.rematch}|${st.draw_offer}|${pair?.model?.state.result}`, () => renderBanners(m));
    part('actions', `${base}|${JSON.stringify(st.undo_offer)}|${st.rematch}|${m.hintsOn}|${JSON.stringify(st.hints)}|${JSON.stringify(st.players)}|${st.draw_offer}`, () => renderActions(m));
    part('moves', `${st.moves.length}|${st.epoch}|${m.view}`, () => renderMoves(m));
    part('viewbar', `${st.moves.length}|${m.view}|${m.autoplay}`, () => renderViewBar(m));
    part('deal', m.deal, () => {
      dealNote.hidden = m.deal === null;
      if (m.deal !== null) setText(dealNote, 'game.deal', { p: { percent: m.deal } });
    });
    part('notation', JSON.stringify(m.notationError), () => {
      notationError.textContent = m.notationError ? tr(m.notationError.key, m.notationError.args) : '';
    });
    notationForm.hidden = m.replay || !m.seats.length || st.status !== 'playing';
    analyseLink.hidden = engineKept(st);
    groupsToggle.checked = m.showGroups;
    hintsToggle.checked = m.hintsOn;
    hintsLabel.hidden = !(st.settings.mode === 'engine' && m.seats.length > 0 && st.status === 'playing');
    autoPassLabel.hidden = m.replay || !m.seats.length || st.status !== 'playing';
    autoPassToggle.checked = m.autoPass;
    renderPair(m);
    twin?.(m);
  }

  function renderFailure(/** @type {unknown} */ err) {
    clear(main);
    const notFound = err instanceof ApiError && err.code === 'game_not_found';
    main.append(h('section', { class: 'notfound' },
      h('h1', { i18n: notFound ? 'game.notFound' : 'game.loadFailed' }),
      h('p', {}, notFound ? t('game.notFound.text') : errorText(err)),
      h('a', { class: 'btn primary', href: '/', i18n: 'notfound.home' })));
    if (!twin) document.title = `${t(notFound ? 'game.notFound' : 'game.loadFailed')} · Mabula`;
  }

  function renderBoard(/** @type {Loaded} */ m) {
    if (m.animating) return;
    const d = displayed(m);
    const premoves = premoveMoves(m);
    const moves = boardMoves(m) || premoves;
    const arrow = hintMove(m);
    const pre = m.premove;
    const showGroups = m.showGroups || (m.state.status === 'finished' && m.view === null);
    const key = `${d.position}|${d.last?.notation}|${d.last && 'number' in d.last ? d.last.number : ''}|${showGroups}|${moves ? moves.length : '-'}|${m.state.moves.length}|${arrow}|${Boolean(premoves)}|${pre?.notation}`;
    part('board', key, () => board.set({
      position: d.position,
      lastMove: d.last,
      groups: d.groups,
      showGroups,
      moves,
      premove: Boolean(premoves),
      annotations: arrow ? { arrows: [[arrow.slice(0, arrow.indexOf('-')), arrow.slice(arrow.indexOf('-') + 1), 'best']] } : pre ? { arrows: [[pre.from, pre.to, 'premove']] } : null,
    }));
  }

  /** What kind of game this is: "Rated · 3+2" for a game between accounts, else its mode. */
  function gameLabel(/** @type {GameState} */ st) {
    if (st.clock || st.players?.white || st.players?.black) {
      const kind = t(st.rated ? 'lobby.rated' : 'lobby.casual');
      return st.clock ? `${kind} · ${controlLabel(st.clock.control)}` : kind;
    }
    return modeLabel(st.settings.mode, st.settings.engine?.level);
  }

  /** The id of a tournament game's tournament. */
  const tourOf = (/** @type {GameState} */ st) => st.settings.tournament;

  function renderTitle(/** @type {Loaded} */ m) {
    const st = m.state;
    if (twin) {
      const side = m.seats.length === 1 ? t(`colour.${Cap[m.seats[0]]}`) : null;
      twinHead.textContent = side ? t('pair.twinYou', { side }) : t('pair.twinOther');
      return;
    }
    tourLink.hidden = !tourOf(st);
    if (tourOf(st)) tourLink.href = `/tournament/${tourOf(st)}`;
    title.textContent = `${t(m.replay ? 'game.replayTitle' : 'game.title')}: ${gameLabel(st)}`;
    let prefix;
    if (st.status === 'finished') {
      const head = headline(m);
      prefix = tr(head.key, head.args);
    } else if (isMyTurn(m) || twinTurn()) prefix = t('status.yourTurn');
    else prefix = t(m.replay ? 'game.replayTitle' : 'game.title');
    document.title = `${prefix} · Mabula`;
  }

  function playerName(/** @type {Loaded} */ m, /** @type {Side} */ colour) {
    const st = m.state;
    const seat = st.seats[colour];
    const mode = st.settings.mode;
    const player = st.players?.[colour];
    if (player) return player.name;
    if (seat.kind === 'engine') return t('player.engine', { level: st.settings.engine?.level ?? '' });
    if (mode === 'local') return t(`colour.${Cap[colour]}`);
    if (m.seats.includes(colour)) return t('player.you');
    if (mode === 'friend') return m.seats.length ? t('player.friend') : t('player.person');
    return t('player.person');
  }

  function renderPlayers(/** @type {Loaded} */ m) {
    const st = m.state;
    clear(players);
    const scoring = /** @type {Scoring} */ (st.settings.scoring);
    const scores = displayedScores(m);
    const toMove = displayedToMove(m);
    for (const colour of /** @type {Side[]} */ (['white', 'black'])) {
      const seat = st.seats[colour];
      const player = st.players?.[colour] || null;
      const side = t(`colour.${Cap[colour]}`);
      const yours = player !== null && m.seats.includes(colour) && isMe(player.name);
      let sub = st.settings.mode === 'local' ? '' : side;
      let presence = null;
      if (yours) {
        sub = `${t('player.you')} · ${side}`;
      } else if (seat.kind === 'person' && st.settings.mode !== 'local' && st.status === 'playing' && !m.replay) {
        // Who is here matters while the game is played; a finished game or a replay only names sides.
        if (!seat.claimed) sub = t('player.notJoined');
        else {
          presence = h('span', { class: `presence${seat.connected ? ' on' : ''}`, 'aria-hidden': 'true' });
          sub = `${side} · ${t(seat.connected ? 'player.online' : 'player.away')}`;
        }
      }
      const active = st.status === 'playing' && toMove === colour;
      const name = player
        ? h('a', { class: 'name player-link', href: `/@/${player.name}` }, player.name)
        : h('span', { class: 'name' }, playerName(m, colour));
      const rating = player && player.rating !== null && player.rating !== undefined
        ? h('span', { class: 'rating', 'aria-label': t(player.provisional ? 'profile.ratingProvisional' : 'profile.ratingIs', { r: player.rating }) },
          ratingText(player.rating, player.provisional))
        : null;
      const diff = player && player.rating_diff !== null && player.rating_diff !== undefined
        ? h('span', { class: `rating-diff ${player.rating_diff > 0 ? 'up' : player.rating_diff < 0 ? 'down' : ''}`,
          'aria-label': t('game.ratingChange', { d: ratingDiff(player.rating_diff) }) }, ratingDiff(player.rating_diff))
        : null;
      // A finished rated game's accuracy (issue 51), after the game only.
      const acc = st.status === 'finished' ? m.accuracy?.[colour] : null;
      const accuracy = acc && acc.percent !== null && acc.percent !== undefined
        ? h('span', { class: 'accuracy', title: t('game.accuracyTitle') }, t('game.accuracy', { p: percent(acc.percent / 100, 0), n: acc.moves }))
        : null;
      const clock = st.clock ? h('span', { class: 'clock', role: 'timer', dataset: { colour } },
        h('span', { class: 'sr-only' }, t('game.clockOf', { side: player ? player.name : side })),
        h('span', { class: 'clock-time' })) : null;
      players.append(h('div', { class: `player${active ? ' to-move' : ''}${clock ? ' timed' : ''}`, dataset: { colour } },
        h('span', { class: `dot ${colour}`, 'aria-hidden': 'true' }),
        h('span', { class: 'who', style: 'min-width:0' },
          // `PlayerView.bot` (issue 38): read as optional until every server sends it.
          h('span', { class: 'name-line' }, name, player && /** @type {{ bot?: boolean }} */ (player).bot ? botBadge() : null, rating, diff),
          h('span', { class: 'sub' }, presence, sub)),
        clock,
        h('span', { class: 'score', 'aria-label': t('game.scoreOf', { side, n: scores[scoring][colour] }) },
          String(scores[scoring][colour]),
          h('small', {}, t(`scoring.${scoring}.short`))),
        accuracy,
        h('span', { class: 'first-move', role: 'timer' })));
    }
  }

  /** The clocks and the first-move countdown at `at`: the only part time alone changes. */
  function renderClocks(/** @type {Model} */ m, /** @type {number} */ at) {
    if (!m.state) return;
    const st = m.state;
    const c = st.clock;
    const days = Boolean(c && 'days' in c.control);
    if (c) {
      const low = lowAt(c.control);
      for (const el of /** @type {NodeListOf<HTMLElement>} */ (players.querySelectorAll('.clock'))) {
        const colour = /** @type {Side} */ (el.dataset.colour);
        const ms = clockLeft(m, colour, at);
        const text = formatClock(ms, { days });
        const timeEl = el.querySelector('.clock-time');
        if (timeEl && timeEl.textContent !== text) timeEl.textContent = text;
        el.classList.toggle('running', st.status === 'playing' && c.running === colour);
        el.classList.toggle('low', st.status === 'playing' && ms <= low);
        el.classList.toggle('out', ms <= 0);
      }
    }
    // The first two moves are not timed, but each must come in time or the game is called off
    // (a tournament game's is lost on time instead).
    const left = abortIn(m, at);
    abortNote.hidden = left === null;
    // The same countdown, short, in the card of the side to move.
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (players.querySelectorAll('.player'))) {
      const text = left !== null && el.dataset.colour === st.to_move ? t('game.firstMoveIn', { time: formatClock(left, { days }) }) : '';
      const line = el.querySelector('.first-move');
      if (line && line.textContent !== text) line.textContent = text;
    }
    if (left !== null) {
      // A game is being played: a side is to move.
      const toMove = /** @type {Side} */ (st.to_move);
      const side = st.players?.[toMove]?.name || t(`colour.${Cap[toMove]}`);
      const mine = m.seats.includes(toMove) && m.seats.length === 1;
      const key = st.settings.tournament ? (mine ? 'game.tournamentLateYou' : 'game.tournamentLateIn') : (mine ? 'game.abortYou' : 'game.abortIn');
      const text = t(key, { side, time: formatClock(left, { days }) });
      if (abortNote.textContent !== text) abortNote.textContent = text;
    }
    // The opponent left on their turn: after a while the win can be claimed.
    const claim = claimIn(m, at);
    claimNote.hidden = claim === null;
    if (claim !== null) {
      const text = claim > 0 ? t('game.opponentLeftWait', { s: Math.ceil(claim / 1000) }) : t('game.opponentLeft');
      if (claimText.textContent !== text) claimText.textContent = text;
      claimButton.hidden = claim > 0;
    }
  }

  function renderStatus(/** @type {Loaded} */ m) {
    const st = m.state;
    status.className = 'status';
    // Unless the game is over, a side is to move.
    const toMove = /** @type {Side} */ (st.to_move);
    let text;
    if (st.status === 'finished') {
      const head = headline(m);
      const said = tr(head.key, head.args);
      text = `${said}${/[.!?]$/.test(said) ? '' : '.'} ${sentence(reason(st))}`;
    } else if (isMyTurn(m)) {
      status.classList.add('yours');
      if (st.must_pass) text = t('status.mustPass');
      else if (st.settings.mode === 'local') text = t('status.sideToMove', { side: t(`colour.${Cap[toMove]}`) });
      else text = t('status.yourTurn');
    } else if (st.seats[toMove]?.kind === 'engine') {
      text = t(st.engine_thinking ? 'status.engineThinking' : 'status.engineToMove');
      if (st.engine_thinking) status.classList.add('thinking');
    } else if (st.players?.[toMove]) {
      const name = st.players[toMove]?.name ?? '';
      text = t(m.seats.length ? 'status.playerToMove' : 'status.sideToMove', { name, side: name });
    } else if (m.seats.length && st.settings.mode === 'friend') {
      text = t(st.seats[toMove].claimed ? 'status.friendToMove' : 'status.friendNotJoined');
    } else {
      text = t('status.sideToMove', { side: t(`colour.${Cap[toMove]}`) });
    }
    status.textContent = text;
  }

  function renderConn(/** @type {Loaded} */ m) {
    // A finished game is not live any more: the connection only brings the rematch and ratings
    // (its status stays on the hidden indicator's class).
    connEl.className = `conn ${m.conn || ''}`.trim();
    connEl.hidden = !m.conn || m.state.status !== 'playing';
    if (!connEl.hidden) connEl.textContent = t(`conn.${m.conn}`);
  }

  function renderPreviewNote(/** @type {Loaded} */ m) {
    const st = m.state;
    clear(previewNote);
    if (m.preview) {
      const sc = scoresOf(groupsOf(tryParse(m.preview.position ?? st.position).board))[/** @type {Scoring} */ (st.settings.scoring)];
      previewNote.append(t('game.previewNote', { move: m.preview.notation, n: m.preview.slides.length - 1 }), ' ',
        h('strong', {}, t('game.previewScore', { white: sc.white, black: sc.black })));
      return;
    }
    if (m.premove) previewNote.append(t('play.premoveSet', { move: m.premove.notation }));
    else if (m.view !== null && !m.replay) previewNote.append(t('game.lookingBack'));
    else if (isMyTurn(m) && !st.must_pass && !m.animating && !m.pending) previewNote.append(t('game.hint'));
    else if (!m.seats.length && !m.replay) previewNote.append(t('game.watching', { n: st.spectators ?? 0 }));
  }

  function renderBanners(/** @type {Loaded} */ m) {
    const st = m.state;
    const seats = m.seats;
    clear(banners);
    const mode = st.settings.mode;
    // The join link, until the friend has joined.
    const grant = seatOf(id);
    if (mode === 'friend' && seats.length === 1 && grant && grant.join && !st.seats[other(seats[0])].claimed) {
      const url = new URL(grant.join, location.origin).href;
      /** @type {HTMLInputElement} */
      const input = h('input', { type: 'text', readonly: true, value: url, class: 'join-link', 'i18n-aria-label': 'game.joinLink', onfocus: () => input.select() });
      banners.append(h('div', { class: 'banner share' },
        h('p', {}, h('strong', { i18n: 'game.invite' })),
        h('p', { class: 'muted', i18n: 'game.inviteText' }),
        h('div', { class: 'row' }, input,
          h('button', { type: 'button', class: 'btn primary small', i18n: 'game.copyLink', onclick: async () => {
            const ok = await copyText(url);
            toast(t(ok ? 'game.copied' : 'game.copyFailed'), ok ? 'info' : 'error');
          } }))));
    }
    // A take-back offer in a friend game.
    const offer = st.undo_offer;
    if (offer && st.status === 'playing') {
      if (seats.includes(offer.by)) {
        banners.append(h('div', { class: 'banner' },
          h('p', {}, t('game.undoAsked', { n: offer.moves })),
          h('div', { class: 'row' }, h('button', { type: 'button', class: 'btn small', i18n: 'game.undoWithdraw', onclick: () => dispatch({ type: 'act', action: 'declineUndo' }) }))));
      } else if (seats.length) {
        banners.append(h('div', { class: 'banner warn' },
          h('p', {}, t('game.undoRequest', { n: offer.moves })),
          h('div', { class: 'row' },
            h('button', { type: 'button', class: 'btn primary small', i18n: 'game.undoAccept', onclick: () => dispatch({ type: 'act', action: 'acceptUndo' }) }),
            h('button', { type: 'button', class: 'btn small', i18n: 'game.undoDecline', onclick: () => dispatch({ type: 'act', action: 'declineUndo' }) }))));
      } else {
        banners.append(h('div', { class: 'banner' }, h('p', {}, t('game.undoPending', { side: t(`colour.${Cap[offer.by]}`), n: offer.moves }))));
      }
    }
    const draw = drawBanner(m, dispatch);
    if (draw) banners.append(draw);
    // A rematch asked for by the other player.
    if (st.rematch && st.status === 'finished') {
      const mine = seatOf(st.rematch);
      const text = seats.length && !mine ? t('game.rematchOffered') : t('game.rematchExists');
      banners.append(h('div', { class: 'banner' }, h('p', {}, text),
        h('div', { class: 'row' },
          seats.length && !mine
            ? h('button', { type: 'button', class: 'btn primary small', i18n: 'game.rematchJoin', onclick: rematch })
            : h('a', { class: 'btn primary small', href: `/game/${st.rematch}`, i18n: 'game.rematchGo' }))));
    }
    // A duplicate pair: what this game is, and the pair's result once both games are over.
    if (twin) return;
    const both = pair ? pairOfBoth(m) : null;
    const summary = both ? pairSummary(both.state, both.seats) : pairSummary(st, seats);
    if (summary) {
      banners.append(h('div', { class: 'banner pair-banner' }, summary));
    } else if (pair) {
      banners.append(h('div', { class: 'banner pair-banner' }, h('p', {}, t('pair.atOnceNote'))));
    } else if (st.pair) {
      banners.append(h('div', { class: 'banner pair-banner' }, h('p', {}, t('pair.secondNote', { r: st.pair.results[0] }))));
    } else if (st.settings.pair_half === 'first' && st.status === 'playing') {
      banners.append(h('div', { class: 'banner pair-banner' }, h('p', {}, t('pair.firstNote'))));
    }
    if (m.replay && st.status === 'playing') {
      banners.append(h('div', { class: 'banner' }, h('p', {}, t('game.stillPlaying')),
        h('div', { class: 'row' }, h('a', { class: 'btn small primary', href: `/game/${id}`, i18n: 'game.watchLive' }))));
    }
  }

  /** The rematch button's text: the first game of a duplicate pair goes on with its other side. */
  function rematchLabel(/** @type {GameState} */ st) {
    return st.settings.pair_half === 'first' ? 'game.pairSecond' : 'game.rematch';
  }

  function renderActions(/** @type {Loaded} */ m) {
    const st = m.state;
    const seats = m.seats;
    clear(actions);
    if (m.replay) {
      actions.append(h('a', { class: 'btn', href: `/game/${id}`, i18n: 'game.openGame' }));
      return;
    }
    const mode = st.settings.mode;
    const playing = st.status === 'playing';
    if (playing && isMyTurn(m) && st.must_pass) {
      actions.append(h('button', { type: 'button', class: 'btn primary attention pass-button', i18n: 'game.pass', disabled: m.pending,
        onclick: () => dispatch({ type: 'play', move: passMove(st) }) }));
    }
    if (playing && seats.length) {
      const mine = st.moves.some((mv) => seats.includes(mv.side));
      if (st.clock) {
        // Moves on a clock cannot be taken back.
      } else if (mode === 'friend') {
        actions.append(h('button', { type: 'button', class: 'btn undo-button', i18n: 'game.undoAsk', disabled: !mine || Boolean(st.undo_offer),
          onclick: () => dispatch({ type: 'act', action: 'undo', ok: 'game.undoSent' }) }));
      } else {
        actions.append(h('button', { type: 'button', class: 'btn undo-button', i18n: 'game.undo', disabled: !mine || m.pending,
          onclick: () => dispatch({ type: 'act', action: 'undo' }) }));
      }
      actions.append(...playButtons(m, dispatch));
      actions.append(h('button', { type: 'button', class: 'btn danger resign-button', i18n: 'game.resign', onclick: () => dispatch({ type: 'resign' }) }));
    }
    const engineGame = mode === 'engine' && seats.length > 0;
    if (engineGame && playing && m.hintsOn) {
      actions.append(h('button', { type: 'button', class: 'btn hint-button', i18n: 'game.hintShow', disabled: !isMyTurn(m) || m.pending,
        onclick: () => dispatch({ type: 'askHint' }) }));
    }
    const used = st.hints ? seats.reduce((n, side) => n + (st.hints[side] || 0), 0) : 0;
    if (engineGame && used > 0) {
      actions.append(h('p', { class: 'hint-count muted', i18n: 'game.hintCount', i18nArgs: { n: used } }));
    }
    if (!playing && twin) {
      // The page's own game carries what comes after the pair.
    } else if (!playing && tourOf(st)) {
      // A tournament's game has no rematch: the next game comes from the tournament.
      actions.append(h('a', { class: 'btn primary', href: `/tournament/${tourOf(st)}`, i18n: 'tour.backTo' }));
      actions.append(h('button', { type: 'button', class: 'btn result-button', i18n: 'game.showResult', onclick: showEnd }));
    } else if (!playing && playerGame(st)) {
      // Between accounts, the next game is found in the lobby: the same opponent or another.
      const opponent = seats.length === 1 ? st.players[other(seats[0])]?.name : null;
      // One click asks for the rematch (same clock, colours swapped, rated as before); the
      // other player's click, or the banner, joins the same game.
      if (seats.length === 1 && st.end_reason !== 'aborted') {
        actions.append(st.rematch && seatOf(st.rematch)
          ? h('a', { class: 'btn primary', href: `/game/${st.rematch}`, i18n: 'game.rematchGo' })
          : h('button', { type: 'button', class: 'btn primary rematch-button', i18n: st.rematch ? 'game.rematchJoin' : 'game.rematch', onclick: rematch }));
      }
      if (opponent) actions.append(h('a', { class: 'btn challenge-again', href: `/lobby?challenge=${encodeURIComponent(opponent)}`, i18n: 'game.challengeAgain', i18nArgs: { name: opponent } }));
      actions.append(h('a', { class: 'btn', href: '/lobby', i18n: 'game.newOpponent' }));
      actions.append(h('button', { type: 'button', class: 'btn result-button', i18n: 'game.showResult', onclick: showEnd }));
    } else if (!playing) {
      if (seats.length) {
        if (!st.rematch || !seatOf(st.rematch)) {
          const label = st.rematch && !seatOf(st.rematch) ? 'game.rematchJoin' : rematchLabel(st);
          actions.append(h('button', { type: 'button', class: 'btn primary rematch-button', i18n: label, onclick: rematch }));
        } else {
          actions.append(h('a', { class: 'btn primary', href: `/game/${st.rematch}`, i18n: 'game.rematchGo' }));
        }
      }
      actions.append(h('button', { type: 'button', class: 'btn result-button', i18n: 'game.showResult', onclick: showEnd }));
      actions.append(h('a', { class: 'btn', href: '/', i18n: 'game.newGame' }));
    }
  }

  function renderMoves(/** @type {Loaded} */ m) {
    const st = m.state;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusedNumber = focused?.closest?.('.movelist') ? focused.dataset.number : null;
    clear(movelist);
    const n = st.moves.length;
    const cur = current(m);
    moveCount.textContent = t('list.moves', { n });
    const moveButton = (/** @type {MoveView} */ mv) => h('button', {
      type: 'button',
      class: mv.notation === 'pass' ? 'pass' : '',
      dataset: { number: String(mv.number) },
      'aria-current': mv.number === cur ? 'true' : 'false',
      'aria-label': t('game.moveLabel', { num: mv.record_number, side: t(`colour.${Cap[mv.side]}`), move: mv.notation === 'pass' ? t('game.passWord') : mv.notation }),
      onclick: () => dispatch({ type: 'view', view: mv.number }),
    }, mv.notation === 'pass' ? t('game.passWord') : mv.notation);
    movelist.append(h('button', { type: 'button', class: 'start', dataset: { number: '0' }, 'aria-current': cur === 0 ? 'true' : 'false', onclick: () => dispatch({ type: 'view', view: 0 }), i18n: 'game.startPosition' }));
    let i = 0;
    const moves = st.moves;
    while (i < moves.length) {
      const mv = moves[i];
      const num = mv.record_number.replace(/\.+$/, '.');
      movelist.append(h('span', { class: 'num', 'aria-hidden': 'true' }, num));
      if (mv.side === 'white') {
        movelist.append(moveButton(mv));
        const next = moves[i + 1];
        if (next && next.side === 'black' && next.record_number.startsWith(num.slice(0, -1) + '.')) {
          movelist.append(moveButton(next));
          i += 2;
        } else {
          movelist.append(h('span'));
          i += 1;
        }
      } else {
        movelist.append(h('span', { class: 'muted', 'aria-hidden': 'true', style: 'padding:4px 8px' }, '…'), moveButton(mv));
        i += 1;
      }
    }
    if (focusedNumber !== null) /** @type {HTMLElement | null} */ (movelist.querySelector(`[data-number="${focusedNumber}"]`))?.focus();
    const curEl = movelist.querySelector('[aria-current="true"]');
    if (curEl && m.view === null) movelist.scrollTop = movelist.scrollHeight;
    else if (curEl) curEl.scrollIntoView({ block: 'nearest' });
  }

  function renderViewBar(/** @type {Loaded} */ m) {
    const n = m.state.moves.length;
    const cur = current(m);
    where.textContent = t('game.where', { k: cur, n });
    backLive.hidden = m.view === null || m.replay;
    if (m.replay) {
      slider.max = String(n);
      slider.value = String(cur);
      setText(playButton, m.autoplay ? 'game.pause' : 'game.play');
    }
  }

  // Arrow keys outside the board and the fields step through the moves.
  function onKey(/** @type {KeyboardEvent} */ e) {
    if (!page.model.state || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape' && page.model.premove) { dispatch({ type: 'cancelPremove' }); return; }
    const target = /** @type {Element} */ (e.target);
    const tag = target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.closest?.('svg.board') || target.closest?.('dialog')) return;
    if (e.key === 'ArrowLeft') { e.preventDefault(); dispatch({ type: 'step', by: -1 }); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); dispatch({ type: 'step', by: 1 }); }
    else if (e.key === 'Home' && target.closest('.movelist')) { e.preventDefault(); dispatch({ type: 'view', view: 0 }); }
    else if (e.key === 'End' && target.closest('.movelist')) { e.preventDefault(); dispatch({ type: 'view', view: null }); }
  }
  if (!twin) document.addEventListener('keydown', onKey);

  return {
    unmount() {
      page.stopped = true;
      pair?.view?.unmount();
      if (pair) setTwin(null);
      sight.disconnect();
      live?.close();
      chat?.stop();
      clearInterval(autoplayTimer);
      clearInterval(clockTimer);
      clearTimeout(autoPassTimer);
      if (!twin) setPlaying(null);
      document.removeEventListener('keydown', onKey);
      endDialogOpen?.close();
    },
    onLang() {
      translateDom(main);
      pair?.view?.onLang();
      board.svg.setAttribute('aria-label', t('board.label'));
      if (page.model.state) {
        board.render();
        drawn = {};
        render(page.model);
      }
    },
  };
}

const ICON_PATHS = {
  first: 'M6 5h2v14H6zm3.5 7L18 5v14z',
  prev: 'M16 5v14L7 12z',
  next: 'M8 5v14l9-7z',
  last: 'M16 5h2v14h-2zM6 5l8.5 7L6 19z',
};

function icons(/** @type {keyof typeof ICON_PATHS} */ name) {
  return s('svg', { viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: ICON_PATHS[name], fill: 'currentColor' }));
}

function readBool(/** @type {string} */ key) {
  try { return localStorage.getItem(key) === '1'; } catch { return false; }
}
