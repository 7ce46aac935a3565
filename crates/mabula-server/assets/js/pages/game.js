// The game page (`/game/{id}`) and the replay (`/replay/{id}`): the board, the players (names and
// ratings where they have accounts) with their scores and clocks, whose turn it is, the moves,
// the actions of a seat (pass, take back, resign, rematch), the join link of a friend game, the
// record, the live connection, and the end of the game.

import { h, s, clear, translateDom, setText, announce, toast, copyText } from '../dom.js';
import { t } from '../i18n.js';
import { api, request, seatOf, keepGrant, forgetSeat, forgetJoin, Live, ApiError } from '../api.js';
import { navigate } from '../nav.js';
import { Board } from '../board.js';
import { tryParse, groupsOf, scoresOf } from '../position.js';
import { errorText } from './errors.js';
import { confirmDialog, endDialog, pairSummary } from './dialogs.js';
import { modeLabel, ratingText, ratingDiff } from '../widgets.js';
import { Countdown, formatClock, lowAt, controlLabel } from '../clock.js';
import { setPlaying } from '../lobbyfeed.js';
import { isMe } from '../session.js';

const GROUPS_KEY = 'mabula:showGroups';
const Cap = { white: 'White', black: 'Black' };

export function mount(main, { id, replay }) {
  let token = seatOf(id)?.token || null;
  let seats = [];
  let state = null;
  let view = replay ? 0 : null;
  let shown = { count: 0, epoch: -1 };
  let optimistic = null;
  let animating = false;
  let pending = false;
  let conn = replay ? null : 'connecting';
  let live = null;
  let flipped = null;
  let loaded = false;
  let autoplay = null;
  let previewMove = null;
  let unmounted = false;
  let showGroups = readBool(GROUPS_KEY);
  let endDialogOpen = null;
  let hintsOn = false;
  let hint = null;
  /** The clocks between two states from the server, and the timer that redraws them. */
  const countdown = new Countdown();
  let clockTimer = null;
  /** Your own clock was announced as low on time (once per turn). */
  let lowAnnounced = false;

  // ---- Skeleton ------------------------------------------------------------------------------
  const board = new Board({
    interactive: true,
    label: 'board.label',
    onPlay: (move) => playMove(move),
    onPreview: (move) => { previewMove = move; renderPreviewNote(); },
    onSelect: (square, moves) => {
      if (square) announce(t('announce.selected', { sq: square, stops: moves.map((m) => m.to).join(', ') }));
    },
  });
  const boardWrap = h('div', { class: 'board-wrap' }, board.svg);
  const where = h('span', { class: 'where', 'aria-live': 'off' });
  const nav = (icon, label, fn) => h('button', { type: 'button', class: 'btn small', 'i18n-aria-label': label, 'i18n-title': label, onclick: fn }, icons(icon));
  const backLive = h('button', { type: 'button', class: 'btn small primary back-live', i18n: 'game.backToLive', onclick: () => setView(null) });
  const playButton = h('button', { type: 'button', class: 'btn small', onclick: () => toggleAutoplay() });
  const slider = h('input', { type: 'range', min: 0, max: 0, value: 0, 'i18n-aria-label': 'game.replaySlider', oninput: () => setView(Number(slider.value)) });
  const viewBar = h('div', { class: 'view-bar' },
    nav('first', 'game.first', () => setView(0)),
    nav('prev', 'game.prev', () => step(-1)),
    where,
    nav('next', 'game.next', () => step(1)),
    nav('last', 'game.last', () => setView(replay ? state.moves.length : null)),
    replay ? null : backLive);
  const replayBar = replay ? h('div', { class: 'replay-controls' }, playButton, slider) : null;
  const boardCol = h('div', { class: 'board-col' }, boardWrap, viewBar, replayBar);

  const players = h('div', { class: 'card players', role: 'group', 'i18n-aria-label': 'game.players' });
  const abortNote = h('p', { class: 'abort-note', hidden: true });
  const status = h('p', { class: 'status', role: 'status' });
  const connEl = h('span', { class: 'conn' });
  const statusRow = h('div', { class: 'status-row' }, status, connEl);
  const previewNote = h('p', { class: 'preview-note', 'aria-live': 'off' });
  const banners = h('div', { class: 'banners', style: 'display:grid;gap:10px' });
  const dealNote = h('p', { class: 'deal-note muted', hidden: true });
  const actions = h('div', { class: 'actions' });
  const groupsToggle = h('input', { type: 'checkbox', checked: showGroups, onchange: () => {
    showGroups = groupsToggle.checked;
    try { localStorage.setItem(GROUPS_KEY, showGroups ? '1' : '0'); } catch { /* ignore */ }
    renderBoard();
  } });
  const hintsToggle = h('input', { type: 'checkbox', class: 'hints-toggle', onchange: () => { hintsOn = hintsToggle.checked; renderActions(); renderBoard(); } });
  const hintsLabel = h('label', { hidden: true }, hintsToggle, h('span', { i18n: 'game.hints' }));
  const toggles = h('div', { class: 'toggles' },
    h('label', {}, groupsToggle, h('span', { i18n: 'game.showGroups' })),
    hintsLabel,
    h('button', { type: 'button', class: 'btn small', i18n: 'game.flip', onclick: () => { flipped = !board.flipped; board.setFlipped(flipped); } }));

  const notationInput = h('input', {
    type: 'text', id: 'notation', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    'i18n-placeholder': 'game.notation.placeholder', 'i18n-aria-label': 'game.notation.label',
  });
  const notationError = h('p', { class: 'notation-error error-text', 'aria-live': 'assertive' });
  const notationForm = h('form', { class: 'notation-box', novalidate: true, onsubmit: (e) => { e.preventDefault(); playTyped(); } },
    h('label', { for: 'notation', class: 'sr-only', i18n: 'game.notation.label' }),
    h('div', { class: 'notation-form' }, notationInput, h('button', { type: 'submit', class: 'btn', i18n: 'game.notation.play' })),
    notationError);

  const moveCount = h('small');
  const movelist = h('div', { class: 'movelist', role: 'list' });
  const movesCard = h('section', { class: 'card moves-card', 'aria-labelledby': 'moves-title' },
    h('h2', { id: 'moves-title' }, h('span', { i18n: 'game.moves' }), moveCount),
    movelist);

  const recordRow = h('div', { class: 'record-row' },
    h('button', { type: 'button', class: 'btn small', i18n: 'game.copyRecord', onclick: copyRecord }),
    h('a', { class: 'btn small', href: `/api/games/${id}/record?download=1`, download: `mabula-${id}.txt`, i18n: 'game.download' }),
    h('button', { type: 'button', class: 'btn small', i18n: 'game.copyWatch', onclick: async () => {
      const ok = await copyText(`${location.origin}/game/${id}`);
      toast(t(ok ? 'game.copied' : 'game.copyFailed'), ok ? 'info' : 'error');
    } }),
    replay ? null : h('a', { class: 'btn small', href: `/replay/${id}`, i18n: 'game.replay' }),
    h('a', { class: 'btn small analyse-link', href: `/analysis?game=${id}`, i18n: 'game.analyse' }));

  const section = h('section', { class: 'game', 'aria-labelledby': 'game-title' },
    h('h1', { id: 'game-title', class: 'sr-only' }),
    boardCol, players, abortNote, statusRow, dealNote, previewNote, banners, actions, toggles, notationForm, movesCard, recordRow);
  main.append(h('p', { class: 'muted loading', i18n: 'game.loading' }));

  // ---- Loading -----------------------------------------------------------------------------
  start();

  /** The engine's estimate of the deal (the start position), from the analysis service. */
  async function showDeal(st) {
    try {
      const a = await request('GET', `/api/analysis?position=${encodeURIComponent(st.start)}&scoring=${st.settings.scoring}`);
      if (unmounted) return;
      const args = { p: (100 * a.white).toFixed(1) };
      dealNote.dataset.i18n = 'game.deal';
      dealNote.dataset.i18nArgs = JSON.stringify(args);
      dealNote.textContent = t('game.deal', args);
      dealNote.hidden = false;
    } catch { /* the estimate is optional */ }
  }

  async function start() {
    const join = new URLSearchParams(location.hash.slice(1)).get('join');
    if (join) {
      history.replaceState(null, '', location.pathname);
      if (token) {
        toast(t('game.ownJoinLink'));
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
        try { first = await api.state(id, null); } catch (e2) { return fail(e2); }
      } else {
        return fail(err);
      }
    }
    if (unmounted) return;
    seats = first.you || [];
    clear(main);
    main.append(section);
    loaded = true;
    showDeal(first);
    if (flipped === null) flipped = seats.length === 1 && seats[0] === 'black';
    board.setFlipped(flipped);
    accept(first, true);
    if (!replay) {
      live = new Live(id, {
        token,
        cursor: () => ({ since: state ? state.moves.length : 0, epoch: state ? state.epoch : 0 }),
        onMessage,
        onStatus: (st) => { conn = st; renderConn(); },
      }).start();
    }
    if (!replay && seats.length && state.status === 'playing') board.focus();
  }

  function fail(err) {
    clear(main);
    const notFound = err instanceof ApiError && err.code === 'game_not_found';
    main.append(h('section', { class: 'notfound' },
      h('h1', { i18n: notFound ? 'game.notFound' : 'game.loadFailed' }),
      h('p', {}, notFound ? t('game.notFound.text') : errorText(err)),
      h('a', { class: 'btn primary', href: '/', i18n: 'notfound.home' })));
    document.title = `${t(notFound ? 'game.notFound' : 'game.loadFailed')} · Mabula`;
  }

  function onMessage(msg) {
    switch (msg.type) {
      case 'sync':
        if (msg.you) seats = msg.you;
        accept(msg.state, true);
        break;
      case 'move':
      case 'undo':
      case 'end':
      case 'update':
        accept(msg.state, false, msg);
        break;
      case 'presence':
        if (state) {
          state = { ...state, seats: msg.seats, spectators: msg.spectators };
          renderPlayers();
          renderBanners();
          renderPreviewNote();
        }
        break;
      case 'error':
        if (msg.code === 'token_invalid') {
          seats = [];
          token = null;
          forgetSeat(id);
        }
        break;
      default:
        break;
    }
  }

  // ---- State -------------------------------------------------------------------------------

  function newer(a, b) {
    if (!b) return true;
    if (a.epoch !== b.epoch) return a.epoch > b.epoch;
    if (a.moves.length !== b.moves.length) return a.moves.length > b.moves.length;
    return a.updated_at >= b.updated_at;
  }

  /**
   * A game over stays over unless moves were taken back (a new epoch): a state that says it is
   * being played again with the same moves is a stale copy, of which only what may still change
   * after the end (the ratings, the rematch, who is connected) is taken.
   */
  function keepEnded(next) {
    if (!state || state.status !== 'finished' || next.status !== 'playing') return next;
    if (next.epoch !== state.epoch || next.moves.length !== state.moves.length) return next;
    return { ...state, players: next.players, rematch: next.rematch ?? state.rematch, seats: next.seats, spectators: next.spectators, updated_at: next.updated_at };
  }

  /** Takes a state from the server (an answer or a message), if it is not older than ours. */
  function accept(next, force = false, msg = null) {
    if (!next || (!force && !newer(next, state))) return;
    next = keepEnded(next);
    const prev = state;
    state = next;
    countdown.set(next.clock);
    if (prev && prev.to_move !== next.to_move) lowAnnounced = false;
    if (prev && prev.id === next.id) tellNews(prev, next, msg);
    if (state.status === 'finished' && autoplay === null && replay && view === null) view = state.moves.length;
    renderAll();
    if (prev && prev.status === 'playing' && next.status === 'finished' && !replay) {
      setTimeout(() => showEnd(), reducedMotionDelay());
    }
    if (next.settings.mode === 'friend' && seats.length && next.seats[other(seats[0])]?.claimed) forgetJoin(id);
    if (!replay) setPlaying(seats.length && next.status === 'playing' ? id : null);
    tickClocks();
  }

  function reducedMotionDelay() {
    return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 50 : 700;
  }

  function tellNews(prev, next, msg) {
    if (next.epoch !== prev.epoch) {
      announce(t('announce.undone'));
      toast(t('announce.undone'));
      return;
    }
    for (const m of next.moves.slice(prev.moves.length)) {
      const side = t(`colour.${Cap[m.side]}`);
      if (m.notation === 'pass') {
        const mine = seats.includes(m.side) && next.settings.mode !== 'local';
        toast(t(mine ? 'announce.youPass' : 'announce.pass', { side }));
        announce(t(mine ? 'announce.youPass' : 'announce.pass', { side }));
      } else {
        announce(t('announce.move', { side, move: m.notation, n: Math.max(0, m.slides.length - 1) }));
      }
    }
    if (next.status === 'playing' && isMyTurn(next) && !isMyTurn(prev)) {
      setTimeout(() => announce(next.must_pass ? t('status.mustPass') : t('status.yourTurn')), 400);
    }
    if (msg && msg.type === 'update' && msg.reason === 'joined') toast(t('game.friendJoined'));
    if (msg && msg.type === 'update' && msg.reason === 'undo_offered' && next.undo_offer && !seats.includes(next.undo_offer.by) && seats.length) {
      toast(t('game.undoOffered'));
    }
    if (next.status === 'finished' && prev.status === 'playing') announce(headline(next));
  }

  const other = (c) => (c === 'white' ? 'black' : 'white');

  function isMyTurn(st = state) {
    return Boolean(st && st.status === 'playing' && st.to_move && seats.includes(st.to_move)
      && st.seats[st.to_move]?.kind === 'person');
  }

  /** The moves the board offers: only in the live view, on your turn, with nothing in flight. */
  function boardMoves() {
    if (view !== null || !isMyTurn() || pending || optimistic || animating) return null;
    return state.legal_moves.filter((m) => m.from);
  }

  // ---- Playing -----------------------------------------------------------------------------

  async function playMove(move) {
    if (!isMyTurn() || pending) return;
    pending = true;
    notationError.textContent = '';
    const number = state.moves.length + 1;
    if (move.from) {
      optimistic = { move, count: number };
      animating = true;
      renderBoard();
      const before = state.moves.length ? state.moves[state.moves.length - 1].position : state.start;
      board.set({ position: before, moves: null });
      await board.animate(move);
      animating = false;
      shown = { count: number, epoch: state.epoch };
      renderBoard();
    }
    try {
      const next = await api.move(id, token, move.notation, number);
      pending = false;
      accept(next);
      // The socket may have brought this (and more) first: the page must still drop `pending`.
      renderAll();
    } catch (err) {
      pending = false;
      optimistic = null;
      shown = { count: state.moves.length, epoch: state.epoch };
      toast(errorText(err), 'error');
      if (err instanceof ApiError && (err.code === 'stale_state' || err.code === 'not_your_turn')) refetch();
      renderAll();
    }
  }

  function playTyped() {
    const text = notationInput.value.trim().toLowerCase().replace(/\s+/g, '');
    notationError.textContent = '';
    if (!text) return;
    if (!isMyTurn()) {
      notationError.textContent = t(state.status === 'finished' ? 'error.game_over' : 'game.notation.notYourTurn');
      return;
    }
    if (!/^(pass|[a-h][1-8]-[a-h][1-8])$/.test(text)) {
      notationError.textContent = t('game.notation.bad', { text: notationInput.value.trim() });
      return;
    }
    const move = state.legal_moves.find((m) => m.notation === text);
    if (!move) {
      notationError.textContent = t('game.notation.illegal', { text });
      return;
    }
    notationInput.value = '';
    if (view !== null) setView(null);
    playMove(move);
  }

  async function refetch() {
    try { accept(await api.state(id, token), true); } catch { /* the socket will resync */ }
    if (live) live.resync();
  }

  async function act(fn, okText) {
    try {
      const next = await fn();
      accept(next);
      if (okText) toast(okText);
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  /** Asks the engine for a hint (counted by the server) and shows its move as an arrow. */
  async function askHint() {
    try {
      const res = await request('POST', `/api/games/${id}/hint`, { token, body: {} });
      accept(res.state);
      hint = { count: res.state.moves.length, analysis: res.analysis };
      const best = res.analysis.moves[0];
      if (best) announce(t('game.hintAnnounce', { move: best.move }));
      renderActions();
      renderBoard();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  async function resign() {
    const local = state.settings.mode === 'local';
    const side = t(`colour.${Cap[state.to_move]}`);
    const yes = await confirmDialog({
      title: local ? t('game.resignFor', { side }) : t('game.resignAsk'),
      text: t('game.resignText'),
      ok: t('game.resign'),
      danger: true,
    });
    if (yes) act(() => api.resign(id, token, local ? state.to_move : undefined));
  }

  async function rematch() {
    try {
      const grant = await api.rematch(id, token);
      keepGrant(grant);
      navigate(`/game/${grant.game_id}`);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'rematch_taken' && state.rematch) navigate(`/game/${state.rematch}`);
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

  // ---- Looking back ------------------------------------------------------------------------

  function setView(v) {
    if (!state) return;
    const n = state.moves.length;
    if (v !== null) v = Math.max(0, Math.min(n, v));
    if (v === n && !replay) v = null;
    const from = view === null ? n : view;
    const to = v === null ? n : v;
    view = v;
    if (to === from + 1 && !animating) {
      const move = state.moves[from];
      animating = true;
      board.set({ position: from ? state.moves[from - 1].position : state.start, moves: null });
      board.animate(move).then(() => { animating = false; renderAll(); });
      renderPanel();
      return;
    }
    renderAll();
  }

  function step(d) {
    const n = state.moves.length;
    const cur = view === null ? n : view;
    setView(cur + d);
  }

  function toggleAutoplay() {
    if (autoplay) {
      clearInterval(autoplay);
      autoplay = null;
    } else {
      if (view === null || view >= state.moves.length) setView(0);
      autoplay = setInterval(() => {
        if (view === null || view >= state.moves.length) {
          clearInterval(autoplay);
          autoplay = null;
          renderViewBar();
          return;
        }
        step(1);
      }, 1100);
    }
    renderViewBar();
  }

  // ---- Rendering ---------------------------------------------------------------------------

  function renderAll() {
    if (!loaded || !state) return;
    renderBoard();
    renderPanel();
  }

  function renderPanel() {
    renderTitle();
    renderPlayers();
    renderStatus();
    renderConn();
    renderPreviewNote();
    renderBanners();
    renderActions();
    renderMoves();
    renderViewBar();
    notationForm.hidden = replay || !seats.length || state.status !== 'playing';
  }

  /** The position, last move and groups of what is shown now. */
  function displayed() {
    const n = state.moves.length;
    if (view !== null) {
      const pos = view ? state.moves[view - 1].position : state.start;
      return { position: pos, last: lastPush(view), groups: groupsOf(tryParse(pos).board) };
    }
    if (optimistic && n < optimistic.count) {
      const pos = optimistic.move.position;
      return { position: pos, last: optimistic.move, groups: groupsOf(tryParse(pos).board) };
    }
    return { position: state.position, last: lastPush(n), groups: state.groups };
  }

  function lastPush(count) {
    for (let i = count - 1; i >= 0 && i >= count - 2; i--) {
      if (state.moves[i].from) return state.moves[i];
    }
    return null;
  }

  function renderBoard() {
    if (animating) return;
    if (optimistic && state.moves.length >= optimistic.count) optimistic = null;
    // Live view: roll the marbles of moves we have not shown yet (a few at most).
    const n = state.moves.length;
    if (view === null && !optimistic && state.epoch === shown.epoch && n > shown.count && n - shown.count <= 3) {
      const move = state.moves[shown.count];
      const before = shown.count ? state.moves[shown.count - 1].position : state.start;
      if (move.from) {
        animating = true;
        board.set({ position: before, lastMove: lastPush(shown.count), moves: null });
        board.animate(move).then(() => {
          animating = false;
          shown = { count: shown.count + 1, epoch: state.epoch };
          if (!unmounted) renderAll();
        });
        return;
      }
      shown = { count: shown.count + 1, epoch: state.epoch };
      renderBoard();
      return;
    }
    if (view === null && !optimistic) shown = { count: n, epoch: state.epoch };
    const d = displayed();
    const fresh = hintsOn && hint && hint.count === state.moves.length && view === null;
    const best = fresh ? hint.analysis.moves[0] : null;
    board.set({
      position: d.position,
      lastMove: d.last,
      groups: d.groups,
      showGroups: showGroups || (state.status === 'finished' && view === null),
      moves: boardMoves(),
      annotations: best && best.move.includes('-') ? { arrows: [best.move.split('-').concat('best')] } : null,
    });
  }

  function renderTitle() {
    const title = section.querySelector('#game-title');
    title.textContent = `${t(replay ? 'game.replayTitle' : 'game.title')}: ${gameLabel()}`;
    let prefix = '';
    if (state.status === 'finished') prefix = headline(state);
    else if (isMyTurn()) prefix = t('status.yourTurn');
    else prefix = t(replay ? 'game.replayTitle' : 'game.title');
    document.title = `${prefix} · Mabula`;
  }

  /** What kind of game this is: "Rated · 3+2" for a game between accounts, else its mode. */
  function gameLabel() {
    if (state.clock || state.players?.white || state.players?.black) {
      const kind = t(state.rated ? 'lobby.rated' : 'lobby.casual');
      return state.clock ? `${kind} · ${controlLabel(state.clock.control)}` : kind;
    }
    return modeLabel(state.settings.mode, state.settings.engine?.level);
  }

  function playerName(colour) {
    const seat = state.seats[colour];
    const mode = state.settings.mode;
    const player = state.players?.[colour];
    if (player) return player.name;
    if (seat.kind === 'engine') return t('player.engine', { level: state.settings.engine?.level ?? '' });
    if (mode === 'local') return t(`colour.${Cap[colour]}`);
    if (seats.includes(colour)) return t('player.you');
    if (mode === 'friend') return seats.length ? t('player.friend') : t('player.person');
    return t('player.person');
  }

  function renderPlayers() {
    clear(players);
    const d = displayed();
    const scoring = state.settings.scoring;
    const scores = d.position === state.position ? state.scores : scoresOf(d.groups);
    const toMove = view === null ? state.to_move : (tryParse(d.position).toMove === 'w' ? 'white' : 'black');
    for (const colour of ['white', 'black']) {
      const seat = state.seats[colour];
      const player = state.players?.[colour] || null;
      const side = t(`colour.${Cap[colour]}`);
      const yours = Boolean(player) && seats.includes(colour) && isMe(player.name);
      let sub = state.settings.mode === 'local' ? '' : side;
      let presence = null;
      if (yours) {
        sub = `${t('player.you')} · ${side}`;
      } else if (seat.kind === 'person' && state.settings.mode !== 'local') {
        if (!seat.claimed) sub = t('player.notJoined');
        else {
          presence = h('span', { class: `presence${seat.connected ? ' on' : ''}`, 'aria-hidden': 'true' });
          sub = `${side} · ${t(seat.connected ? 'player.online' : 'player.away')}`;
        }
      }
      const active = state.status === 'playing' && toMove === colour;
      const name = player
        ? h('a', { class: 'name player-link', href: `/@/${player.name}` }, player.name)
        : h('span', { class: 'name' }, playerName(colour));
      const rating = player && player.rating !== null && player.rating !== undefined
        ? h('span', { class: 'rating', 'aria-label': t(player.provisional ? 'profile.ratingProvisional' : 'profile.ratingIs', { r: player.rating }) },
          ratingText(player.rating, player.provisional))
        : null;
      const diff = player && player.rating_diff !== null && player.rating_diff !== undefined
        ? h('span', { class: `rating-diff ${player.rating_diff > 0 ? 'up' : player.rating_diff < 0 ? 'down' : ''}`,
          'aria-label': t('game.ratingChange', { d: ratingDiff(player.rating_diff) }) }, ratingDiff(player.rating_diff))
        : null;
      const clock = state.clock ? h('span', { class: 'clock', role: 'timer', dataset: { colour } },
        h('span', { class: 'sr-only' }, t('game.clockOf', { side: player ? player.name : side })),
        h('span', { class: 'clock-time' })) : null;
      players.append(h('div', { class: `player${active ? ' to-move' : ''}${clock ? ' timed' : ''}`, dataset: { colour } },
        h('span', { class: `dot ${colour}`, 'aria-hidden': 'true' }),
        h('span', { class: 'who', style: 'min-width:0' },
          h('span', { class: 'name-line' }, name, rating, diff),
          h('span', { class: 'sub' }, presence, sub)),
        clock,
        h('span', { class: 'score', 'aria-label': t('game.scoreOf', { side, n: scores[scoring][colour] }) },
          String(scores[scoring][colour]),
          h('small', {}, t(`scoring.${scoring}.short`)))));
    }
    tickClocks();
  }

  /** Redraws the clocks from the countdown; keeps a timer going while a clock runs. */
  function tickClocks() {
    if (!state || !loaded) return;
    const c = state.clock;
    const days = c && c.control.days !== undefined;
    if (c) {
      const low = lowAt(c.control);
      for (const el of players.querySelectorAll('.clock')) {
        const colour = el.dataset.colour;
        const ms = countdown.left(colour);
        const text = formatClock(ms, { days });
        const timeEl = el.querySelector('.clock-time');
        if (timeEl.textContent !== text) timeEl.textContent = text;
        const running = state.status === 'playing' && c.running === colour;
        el.classList.toggle('running', running);
        el.classList.toggle('low', state.status === 'playing' && ms <= low);
        el.classList.toggle('out', ms <= 0);
        if (running && ms <= low && !lowAnnounced && seats.includes(colour) && seats.length === 1) {
          lowAnnounced = true;
          announce(t('game.lowTime', { time: formatClock(ms, { days }) }));
        }
      }
    }
    // The first two moves are not timed, but each must come in time or the game is called off.
    const abortIn = state.status === 'playing' ? countdown.abortIn() : null;
    abortNote.hidden = abortIn === null;
    if (abortIn !== null) {
      const side = state.players?.[state.to_move]?.name || t(`colour.${Cap[state.to_move]}`);
      const text = t(seats.includes(state.to_move) && seats.length === 1 ? 'game.abortYou' : 'game.abortIn',
        { side, time: formatClock(abortIn, { days }) });
      if (abortNote.textContent !== text) abortNote.textContent = text;
    }
    const ticking = state.status === 'playing' && countdown.ticking() && !unmounted;
    if (ticking && !clockTimer) clockTimer = setInterval(tickClocks, 100);
    else if (!ticking && clockTimer) { clearInterval(clockTimer); clockTimer = null; }
  }

  function headline(st) {
    if (st.end_reason === 'aborted') return t('end.aborted');
    if (st.result === '1/2-1/2') return t('end.draw');
    const winner = st.winner;
    if (st.settings.mode !== 'local' && seats.length === 1) return t(seats[0] === winner ? 'end.youWin' : 'end.youLose');
    return t('end.wins', { side: nameOf(st, winner) });
  }

  /** A side by its player's name where it has one, else by its colour. */
  function nameOf(st, colour) {
    return st.players?.[colour]?.name || t(`colour.${Cap[colour]}`);
  }

  function reasonText(st) {
    const sc = st.scores[st.settings.scoring];
    const score = t('end.score', { white: sc.white, black: sc.black });
    switch (st.end_reason) {
      case 'resigned_white': return t('end.resigned', { side: nameOf(st, 'white') });
      case 'resigned_black': return t('end.resigned', { side: nameOf(st, 'black') });
      case 'declared': return t('end.declared');
      case 'timeout_white': return t('end.timeout', { side: nameOf(st, 'white') });
      case 'timeout_black': return t('end.timeout', { side: nameOf(st, 'black') });
      case 'aborted': return t('end.abortedText');
      default: return `${t('end.noMoves')} ${score}`;
    }
  }

  function renderStatus() {
    status.className = 'status';
    let text;
    if (state.status === 'finished') {
      const head = headline(state);
      text = `${head}${/[.!?]$/.test(head) ? '' : '.'} ${reasonText(state)}`;
    } else if (isMyTurn()) {
      status.classList.add('yours');
      if (state.must_pass) text = t('status.mustPass');
      else if (state.settings.mode === 'local') text = t('status.sideToMove', { side: t(`colour.${Cap[state.to_move]}`) });
      else text = t('status.yourTurn');
    } else if (state.seats[state.to_move]?.kind === 'engine') {
      text = t(state.engine_thinking ? 'status.engineThinking' : 'status.engineToMove');
      if (state.engine_thinking) status.classList.add('thinking');
    } else if (state.players?.[state.to_move]) {
      text = t(seats.length ? 'status.playerToMove' : 'status.sideToMove', { name: state.players[state.to_move].name, side: nameOf(state, state.to_move) });
    } else if (seats.length && state.settings.mode === 'friend') {
      text = t(state.seats[state.to_move].claimed ? 'status.friendToMove' : 'status.friendNotJoined');
    } else {
      text = t('status.sideToMove', { side: t(`colour.${Cap[state.to_move]}`) });
    }
    status.textContent = text;
  }

  function renderConn() {
    connEl.hidden = !conn;
    if (!conn) return;
    connEl.className = `conn ${conn}`;
    connEl.textContent = t(`conn.${conn}`);
  }

  function renderPreviewNote() {
    clear(previewNote);
    if (!state) return;
    if (previewMove) {
      const sc = scoresOf(groupsOf(tryParse(previewMove.position).board))[state.settings.scoring];
      previewNote.append(t('game.previewNote', { move: previewMove.notation, n: previewMove.slides.length - 1 }), ' ',
        h('strong', {}, t('game.previewScore', { white: sc.white, black: sc.black })));
      return;
    }
    if (view !== null && !replay) previewNote.append(t('game.lookingBack'));
    else if (isMyTurn() && !state.must_pass && !animating && !pending) previewNote.append(t('game.hint'));
    else if (!seats.length && !replay) previewNote.append(t('game.watching', { n: state.spectators ?? 0 }));
  }

  function renderBanners() {
    clear(banners);
    const mode = state.settings.mode;
    // The join link, until the friend has joined.
    const grant = seatOf(id);
    if (mode === 'friend' && seats.length === 1 && grant && grant.join && !state.seats[other(seats[0])].claimed) {
      const url = new URL(grant.join, location.origin).href;
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
    const offer = state.undo_offer;
    if (offer && state.status === 'playing') {
      if (seats.includes(offer.by)) {
        banners.append(h('div', { class: 'banner' },
          h('p', {}, t('game.undoAsked', { n: offer.moves })),
          h('div', { class: 'row' }, h('button', { type: 'button', class: 'btn small', i18n: 'game.undoWithdraw', onclick: () => act(() => api.declineUndo(id, token)) }))));
      } else if (seats.length) {
        banners.append(h('div', { class: 'banner warn' },
          h('p', {}, t('game.undoRequest', { n: offer.moves })),
          h('div', { class: 'row' },
            h('button', { type: 'button', class: 'btn primary small', i18n: 'game.undoAccept', onclick: () => act(() => api.acceptUndo(id, token)) }),
            h('button', { type: 'button', class: 'btn small', i18n: 'game.undoDecline', onclick: () => act(() => api.declineUndo(id, token)) }))));
      } else {
        banners.append(h('div', { class: 'banner' }, h('p', {}, t('game.undoPending', { side: t(`colour.${Cap[offer.by]}`), n: offer.moves }))));
      }
    }
    // A rematch asked for by the other player.
    if (state.rematch && state.status === 'finished') {
      const mine = seatOf(state.rematch);
      const text = seats.length && !mine ? t('game.rematchOffered') : t('game.rematchExists');
      banners.append(h('div', { class: 'banner' }, h('p', {}, text),
        h('div', { class: 'row' },
          seats.length && !mine
            ? h('button', { type: 'button', class: 'btn primary small', i18n: 'game.rematchJoin', onclick: rematch })
            : h('a', { class: 'btn primary small', href: `/game/${state.rematch}`, i18n: 'game.rematchGo' }))));
    }
    // A duplicate pair: what this game is, and the pair's result once both games are over.
    const summary = pairSummary(state, seats);
    if (summary) {
      banners.append(h('div', { class: 'banner pair-banner' }, summary));
    } else if (state.pair) {
      banners.append(h('div', { class: 'banner pair-banner' }, h('p', {}, t('pair.secondNote', { r: state.pair.results[0] }))));
    } else if (state.settings.pair_half === 'first' && state.status === 'playing') {
      banners.append(h('div', { class: 'banner pair-banner' }, h('p', {}, t('pair.firstNote'))));
    }
    if (replay && state.status === 'playing') {
      banners.append(h('div', { class: 'banner' }, h('p', {}, t('game.stillPlaying')),
        h('div', { class: 'row' }, h('a', { class: 'btn small primary', href: `/game/${id}`, i18n: 'game.watchLive' }))));
    }
  }

  function renderActions() {
    clear(actions);
    if (replay) {
      actions.append(h('a', { class: 'btn', href: `/game/${id}`, i18n: 'game.openGame' }));
      return;
    }
    const mode = state.settings.mode;
    const playing = state.status === 'playing';
    if (playing && isMyTurn() && state.must_pass) {
      actions.append(h('button', { type: 'button', class: 'btn primary attention pass-button', i18n: 'game.pass', disabled: pending,
        onclick: () => playMove(state.legal_moves.find((m) => m.notation === 'pass') || { notation: 'pass', from: null, slides: [] }) }));
    }
    if (playing && seats.length) {
      const mine = state.moves.some((m) => seats.includes(m.side));
      if (state.clock) {
        // Moves on a clock cannot be taken back.
      } else if (mode === 'friend') {
        actions.append(h('button', { type: 'button', class: 'btn undo-button', i18n: 'game.undoAsk', disabled: !mine || Boolean(state.undo_offer),
          onclick: () => act(() => api.undo(id, token), t('game.undoSent')) }));
      } else {
        actions.append(h('button', { type: 'button', class: 'btn undo-button', i18n: 'game.undo', disabled: !mine || pending,
          onclick: () => { optimistic = null; act(() => api.undo(id, token)); } }));
      }
      actions.append(h('button', { type: 'button', class: 'btn danger resign-button', i18n: 'game.resign', onclick: resign }));
    }
    const engineGame = mode === 'engine' && seats.length > 0;
    hintsLabel.hidden = !engineGame || !playing;
    if (engineGame && playing && hintsOn) {
      actions.append(h('button', { type: 'button', class: 'btn hint-button', i18n: 'game.hintShow', disabled: !isMyTurn() || pending,
        onclick: askHint }));
    }
    const used = state.hints ? seats.reduce((n, side) => n + (state.hints[side] || 0), 0) : 0;
    if (engineGame && used > 0) {
      actions.append(h('p', { class: 'hint-count muted', i18n: 'game.hintCount', i18nArgs: { n: used } }));
    }
    if (!playing && playerGame()) {
      // Between accounts, the next game is found in the lobby: the same opponent or another.
      const opponent = seats.length === 1 ? state.players[other(seats[0])]?.name : null;
      if (opponent) actions.append(h('a', { class: 'btn primary challenge-again', href: `/lobby?challenge=${encodeURIComponent(opponent)}`, i18n: 'game.challengeAgain', i18nArgs: { name: opponent } }));
      actions.append(h('a', { class: 'btn', href: '/lobby', i18n: 'game.newOpponent' }));
      actions.append(h('button', { type: 'button', class: 'btn result-button', i18n: 'game.showResult', onclick: showEnd }));
    } else if (!playing) {
      if (seats.length) {
        const label = state.rematch && !seatOf(state.rematch) ? 'game.rematchJoin' : rematchLabel();
        if (!state.rematch || !seatOf(state.rematch)) {
          actions.append(h('button', { type: 'button', class: 'btn primary rematch-button', i18n: label, onclick: rematch }));
        } else {
          actions.append(h('a', { class: 'btn primary', href: `/game/${state.rematch}`, i18n: 'game.rematchGo' }));
        }
      }
      actions.append(h('button', { type: 'button', class: 'btn result-button', i18n: 'game.showResult', onclick: showEnd }));
      actions.append(h('a', { class: 'btn', href: '/', i18n: 'game.newGame' }));
    }
  }

  function renderMoves() {
    const focusedNumber = document.activeElement?.closest?.('.movelist') ? document.activeElement.dataset.number : null;
    clear(movelist);
    const n = state.moves.length;
    const current = view === null ? n : view;
    moveCount.textContent = t('list.moves', { n });
    const moveButton = (m) => h('button', {
      type: 'button',
      class: m.notation === 'pass' ? 'pass' : '',
      dataset: { number: String(m.number) },
      'aria-current': m.number === current ? 'true' : 'false',
      'aria-label': t('game.moveLabel', { num: m.record_number, side: t(`colour.${Cap[m.side]}`), move: m.notation === 'pass' ? t('game.passWord') : m.notation }),
      onclick: () => setView(m.number),
    }, m.notation === 'pass' ? t('game.passWord') : m.notation);
    movelist.append(h('button', { type: 'button', class: 'start', dataset: { number: '0' }, 'aria-current': current === 0 ? 'true' : 'false', onclick: () => setView(0), i18n: 'game.startPosition' }));
    let i = 0;
    const moves = state.moves;
    while (i < moves.length) {
      const m = moves[i];
      const num = m.record_number.replace(/\.+$/, '.');
      movelist.append(h('span', { class: 'num', 'aria-hidden': 'true' }, num));
      if (m.side === 'white') {
        movelist.append(moveButton(m));
        const next = moves[i + 1];
        if (next && next.side === 'black' && next.record_number.startsWith(num.slice(0, -1) + '.')) {
          movelist.append(moveButton(next));
          i += 2;
        } else {
          movelist.append(h('span'));
          i += 1;
        }
      } else {
        movelist.append(h('span', { class: 'muted', 'aria-hidden': 'true', style: 'padding:4px 8px' }, '…'), moveButton(m));
        i += 1;
      }
    }
    if (focusedNumber !== null) movelist.querySelector(`[data-number="${focusedNumber}"]`)?.focus();
    const cur = movelist.querySelector('[aria-current="true"]');
    if (cur && view === null) movelist.scrollTop = movelist.scrollHeight;
    else if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  function renderViewBar() {
    const n = state.moves.length;
    const cur = view === null ? n : view;
    where.textContent = t('game.where', { k: cur, n });
    backLive.hidden = view === null || replay;
    if (replay) {
      slider.max = String(n);
      slider.value = String(cur);
      setText(playButton, autoplay ? 'game.pause' : 'game.play');
    }
  }

  function showEnd() {
    if (!state || state.status !== 'finished') return;
    if (endDialogOpen && endDialogOpen.open) return;
    const buttons = [];
    if (playerGame()) {
      const opponent = seats.length === 1 ? state.players[other(seats[0])]?.name : null;
      if (opponent) buttons.push(h('a', { class: 'btn primary', href: `/lobby?challenge=${encodeURIComponent(opponent)}`, onclick: () => endDialogOpen?.close() }, t('game.challengeAgain', { name: opponent })));
      buttons.push(h('a', { class: 'btn', href: '/lobby', onclick: () => endDialogOpen?.close() }, t('game.newOpponent')));
    } else {
      if (seats.length) {
        buttons.push(h('button', { type: 'button', class: 'btn primary', onclick: () => { endDialogOpen?.close(); rematch(); } }, t(rematchLabel())));
      }
      buttons.push(h('a', { class: 'btn', href: '/', onclick: () => endDialogOpen?.close() }, t('game.newGame')));
    }
    endDialogOpen = endDialog(state, { headline: headline(state), reason: reasonText(state), extra: pairSummary(state, seats), actions: buttons });
  }

  /** A game between two accounts (from the lobby): its next game is found there, not by a rematch. */
  function playerGame() {
    return Boolean(state.players?.white && state.players?.black);
  }

  /** The rematch button's text: the first game of a duplicate pair goes on with its other side. */
  function rematchLabel() {
    return state.settings.pair_half === 'first' ? 'game.pairSecond' : 'game.rematch';
  }

  // Arrow keys outside the board and the fields step through the moves.
  function onKey(e) {
    if (!state || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || e.target.closest?.('svg.board') || e.target.closest?.('dialog')) return;
    if (e.key === 'ArrowLeft') { e.preventDefault(); step(-1); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); step(1); }
    else if (e.key === 'Home' && e.target.closest('.movelist')) { e.preventDefault(); setView(0); }
    else if (e.key === 'End' && e.target.closest('.movelist')) { e.preventDefault(); setView(null); }
  }
  document.addEventListener('keydown', onKey);

  return {
    unmount() {
      unmounted = true;
      if (live) live.stop();
      clearInterval(clockTimer);
      setPlaying(null);
      if (autoplay) clearInterval(autoplay);
      document.removeEventListener('keydown', onKey);
      endDialogOpen?.close();
    },
    onLang() {
      translateDom(main);
      board.svg.setAttribute('aria-label', t('board.label'));
      if (state && loaded) { board.render(); renderPanel(); }
    },
  };
}

const ICON_PATHS = {
  first: 'M6 5h2v14H6zm3.5 7L18 5v14z',
  prev: 'M16 5v14L7 12z',
  next: 'M8 5v14l9-7z',
  last: 'M16 5h2v14h-2zM6 5l8.5 7L6 19z',
};

function icons(name) {
  return s('svg', { viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: ICON_PATHS[name], fill: 'currentColor' }));
}

function readBool(key) {
  try { return localStorage.getItem(key) === '1'; } catch { return false; }
}
