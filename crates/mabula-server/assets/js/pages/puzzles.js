// The puzzles (issue 39): `/puzzles` (a puzzle near the player's puzzle rating, of the theme and
// scoring chosen; a streak of rising difficulty until the first mistake), `/puzzles/daily` (the
// puzzle of the day) and `/puzzles/{id}`. The player makes the moves on the board; each is sent
// to the server (`POST /api/puzzles/{id}/attempt`), which answers the opponent's reply (played
// here) until the attempt is complete: then the whole solution, and the rating changes of a
// first attempt. A wrong move is shown with the right one and why. A hint rings the marble to
// push (and makes the attempt unrated). Its styles travel with it (puzzle-style.js).

import { h, clear, announce } from '../dom.js';
import { t } from '../i18n.js';
import { request } from '../api.js';
import { myName, sessionReady } from '../session.js';
import { navigate } from '../nav.js';
import { Board } from '../board.js';
import { errorText } from './errors.js';
import { addPuzzleStyles } from './puzzle-style.js';

/** Where a guest's best streak is kept (a logged-in player's is kept in the account). */
const BEST_KEY = 'mabula:puzzle-streak';
const THEMES = ['last_push', 'block', 'split', 'join', 'groups_of_three', 'forced_pass', 'save_the_draw'];

/**
 * @typedef {{ id: string, position: string, scoring: string, rating: number, themes: string[], moves: number, goal: string, day?: string }} PuzzleView
 * @typedef {{ notation: string, from: string | null, to: string | null, slides: string[][], position: string }} Legal
 */

/** The legal moves of a position, with their slides and positions after. */
async function legalMoves(/** @type {string} */ position) {
  /** @type {any} */
  const r = await request('GET', `/api/analysis/moves?position=${encodeURIComponent(position)}`);
  return /** @type {Legal[]} */ (r.legal_moves);
}

/** `+12` or `−12`. */
function signed(/** @type {number} */ n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}

function bestStreak() {
  try { return Number(localStorage.getItem(BEST_KEY) || 0); } catch { return 0; }
}

export function mount(/** @type {HTMLElement} */ main, /** @type {{ id?: string, daily?: boolean }} */ params) {
  addPuzzleStyles();
  let stopped = false;
  /** @type {PuzzleView | null} */
  let puzzle = null;
  /** The position shown, and the player's moves so far. */
  let position = '';
  /** @type {string[]} */
  let mine = [];
  /** @type {'loading' | 'playing' | 'waiting' | 'solved' | 'failed' | 'error'} */
  let phase = 'loading';
  /** A streak's puzzles solved, or null outside a streak. */
  /** @type {number | null} */
  let streak = null;
  /** A logged-in player's best streak, as their account keeps it (null: a guest, or not read yet). */
  /** @type {number | null} */
  let accountBest = null;
  /** The best streak: the account's, or a guest's in this browser. */
  const bestText = () => (accountBest === null ? t('puz.bestStreak', { n: bestStreak() }) : t('puz.bestStreakMine', { n: accountBest }));
  let hinted = false;
  /** The last answer of a complete attempt. */
  /** @type {any} */
  let verdict = null;

  const setTitle = () => { document.title = `${t(params.daily ? 'puz.dailyTitle' : 'puz.title')} · Mabula`; };
  setTitle();

  const board = new Board({ interactive: true, label: 'board.label', onPlay: (move) => { play(/** @type {Legal} */ (move)); } }); // the legal moves it was given
  const status = h('p', { class: 'puz-status', role: 'status', id: 'puz-status' });
  const boardCol = h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, board.svg), status);

  const info = h('dl', { class: 'puz-info' });
  const hintButton = h('button', { type: 'button', class: 'btn', id: 'puz-hint', i18n: 'puz.hint', onclick: () => { hint(); } });
  const nextButton = h('button', { type: 'button', class: 'btn primary', id: 'puz-next', i18n: 'puz.next', onclick: () => { next(); } });
  const replayButton = h('button', { type: 'button', class: 'btn', id: 'puz-replay', i18n: 'puz.replay', hidden: true, onclick: () => { replay(); } });
  const result = h('div', { class: 'puz-result', id: 'puz-result', 'aria-live': 'polite', hidden: true });
  const puzzleCard = h('section', { class: 'card puz-card', 'aria-labelledby': 'puz-card-title' },
    h('h2', { id: 'puz-card-title', i18n: 'puz.thisPuzzle' }), info,
    h('div', { class: 'puz-actions' }, hintButton, replayButton, nextButton), result);

  const themeSelect = h('select', { id: 'puz-theme', onchange: () => { streak = null; next(); } },
    h('option', { value: '', i18n: 'puz.anyTheme' }),
    THEMES.map((name) => h('option', { value: name, i18n: `puz.theme.${name}` })));
  const scoringSelect = h('select', { id: 'puz-scoring', onchange: () => { streak = null; next(); } },
    h('option', { value: '', i18n: 'puz.anyScoring' }),
    h('option', { value: 'largest', i18n: 'puz.largest' }),
    h('option', { value: 'product', i18n: 'puz.product' }));
  // A theme or scoring chosen on the daily or a single puzzle's page comes along in the address.
  const asked = new URLSearchParams(location.search);
  for (const [select, key] of /** @type {const} */ ([[themeSelect, 'theme'], [scoringSelect, 'scoring']])) {
    const value = asked.get(key);
    if (value && [...select.options].some((o) => o.value === value)) select.value = value;
  }
  const streakButton = h('button', { type: 'button', class: 'btn', id: 'puz-streak', i18n: 'puz.startStreak', onclick: () => { streak = 0; next(); } });
  const streakLine = h('p', { class: 'puz-streak', id: 'puz-streak-line', role: 'status' });
  const chooseCard = h('section', { class: 'card puz-choose', 'aria-labelledby': 'puz-choose-title' },
    h('h2', { id: 'puz-choose-title', i18n: 'puz.choose' }),
    h('label', { class: 'field' }, h('span', { i18n: 'puz.themeLabel' }), themeSelect),
    h('label', { class: 'field' }, h('span', { i18n: 'puz.scoringLabel' }), scoringSelect),
    h('div', { class: 'puz-actions' }, streakButton,
      h('a', { class: 'btn', href: '/puzzles/daily', id: 'puz-daily-link', i18n: 'puz.daily' })),
    streakLine);
  const me = h('p', { class: 'puz-me muted', id: 'puz-me' });

  const section = h('section', { class: 'puzzles', id: 'puzzles' },
    h('h1', { i18n: params.daily ? 'puz.dailyTitle' : 'puz.title' }),
    boardCol, puzzleCard, chooseCard, me);
  main.append(section);

  // ---- Drawing -------------------------------------------------------------------------------

  function side() {
    return position.endsWith(' w') ? t('puz.white') : t('puz.black');
  }

  function render() {
    clear(info);
    if (puzzle) {
      const row = (/** @type {string} */ key, /** @type {any} */ value) => [h('dt', { i18n: key }), h('dd', {}, value)];
      info.append(
        ...row('puz.rating', String(puzzle.rating)),
        ...row('puz.goal', t(puzzle.goal === 'win' ? 'puz.goalWin' : 'puz.goalDraw', { n: puzzle.moves })),
        ...row('puz.scoringLabel', t(puzzle.scoring === 'product' ? 'puz.product' : 'puz.largest')),
        ...row('puz.themes', puzzle.themes.length ? puzzle.themes.map((x) => t(`puz.theme.${x}`)).join(', ') : '—'));
      if (puzzle.day) info.append(...row('puz.day', puzzle.day));
    }
    const done = phase === 'solved' || phase === 'failed';
    hintButton.disabled = phase !== 'playing';
    replayButton.hidden = !done;
    status.dataset.phase = phase;
    if (phase === 'loading') status.textContent = t('puz.loading');
    else if (phase === 'playing') status.textContent = t(puzzle?.goal === 'win' ? 'puz.findWin' : 'puz.findDraw', { side: side() });
    else if (phase === 'waiting') status.textContent = t('puz.waiting');
    else if (phase === 'solved') status.textContent = t('puz.solved');
    else if (phase === 'failed') status.textContent = t('puz.failed');
    streakLine.textContent = streak === null ? bestText() : t('puz.streakN', { n: streak });
    renderResult();
  }

  function renderResult() {
    clear(result);
    result.hidden = !verdict;
    if (!verdict || !puzzle) return;
    const v = verdict;
    result.className = `puz-result ${v.correct ? 'good' : 'bad'}`;
    result.append(h('p', { class: 'puz-verdict' }, t(v.correct ? 'puz.right' : 'puz.wrongTitle')));
    if (!v.correct && v.wrongMove) {
      result.append(h('p', {}, t(puzzle.goal === 'win' ? 'puz.whyWin' : 'puz.whyDraw', { wrong: v.wrongMove, right: v.rightMove })));
      if (typeof v.wrong_margin === 'number' && v.wrong_margin <= 0) {
        result.append(h('p', { id: 'puz-why' }, v.wrong_margin < 0
          ? t('puz.endLoss', { wrong: v.wrongMove, n: -v.wrong_margin })
          : t('puz.endDraw', { wrong: v.wrongMove })));
      }
    }
    result.append(h('p', {}, t(puzzle.goal === 'win' ? 'puz.lineWin' : 'puz.lineDraw')),
      h('ol', { class: 'puz-line', id: 'puz-line' }, v.solution.map((/** @type {string} */ m, /** @type {number} */ i) =>
        h('li', { class: i % 2 === 0 ? 'mine' : 'theirs' }, `${m} `, h('span', { class: 'muted' }, t(i % 2 === 0 ? 'puz.yourMove' : 'puz.reply'))))));
    if (typeof v.rating_change === 'number') {
      result.append(h('p', { class: 'puz-change', id: 'puz-change' },
        t('puz.ratingChange', { change: signed(v.rating_change), rating: v.rating })),
      h('p', { class: 'puz-change', id: 'puz-puzzle-change' },
        t('puz.puzzleChange', { change: signed(v.puzzle_rating_change ?? 0), rating: v.puzzle_rating })));
    } else {
      result.append(h('p', { class: 'muted', id: 'puz-unrated' }, t(myName() ? (hinted ? 'puz.unratedHint' : 'puz.unratedAgain') : 'puz.unratedGuest')));
    }
  }

  async function showMe() {
    // The page may open before the session is read: a logged-in player is no guest.
    await sessionReady();
    if (stopped) return;
    const name = myName();
    if (!name) { me.textContent = t('puz.guestNote'); return; }
    try {
      /** @type {any} */
      const r = await request('GET', `/api/players/${encodeURIComponent(name)}/puzzles`);
      if (stopped) return;
      clear(me);
      accountBest = r.best_streak ?? 0;
      // (After a streak's last puzzle the line says how it ended; the best shows from the next.)
      if (streak === null && phase !== 'failed') streakLine.textContent = bestText();
      me.append(t('puz.myRating', { rating: r.rating, solved: r.solved, attempts: r.attempts }), ' ',
        h('a', { href: `/@/${encodeURIComponent(name)}` }, t('puz.history')));
    } catch { /* shown without */ }
  }

  function fail(/** @type {any} */ err) {
    phase = 'error';
    status.textContent = errorText(err);
    board.set({ moves: null });
  }

  // ---- Playing -------------------------------------------------------------------------------

  async function start(/** @type {PuzzleView} */ p) {
    puzzle = p;
    section.dataset.puzzle = p.id;
    position = p.position;
    mine = [];
    hinted = false;
    verdict = null;
    phase = 'loading';
    board.setFlipped(p.position.endsWith(' b'));
    board.set({ position, lastMove: null, annotations: null, moves: null });
    render();
    const legal = await legalMoves(position);
    if (stopped) return;
    phase = 'playing';
    section.dataset.found = '0';
    board.set({ moves: legal });
    render();
    announce(status.textContent || '');
    if (!params.id && !params.daily && location.pathname !== `/puzzles/${p.id}`) {
      history.replaceState(null, '', `/puzzles/${p.id}`);
    }
  }

  async function play(/** @type {Legal} */ move) {
    if (phase !== 'playing' || !puzzle) return;
    const before = position;
    const legalBefore = board.moves || [];
    phase = 'waiting';
    board.set({ moves: null, annotations: null });
    render();
    await board.animate(move);
    position = move.position;
    board.set({ position, lastMove: move });
    render();
    mine = [...mine, move.notation];
    /** @type {any} */
    let answer;
    try {
      answer = await request('POST', `/api/puzzles/${puzzle.id}/attempt`, { body: { moves: mine, ...(streak === null ? {} : { streak }) } });
    } catch (err) {
      fail(err);
      return;
    }
    if (stopped) return;
    if (!answer.complete) {
      const replies = await legalMoves(position);
      const reply = replies.find((m) => m.notation === answer.reply);
      if (reply) await board.animate(reply);
      position = reply ? reply.position : position;
      board.set({ position, lastMove: reply || null });
      const legal = await legalMoves(position);
      if (stopped) return;
      phase = 'playing';
      section.dataset.found = String(mine.length);
      board.set({ moves: legal });
      render();
      announce(t('puz.replied', { move: answer.reply }));
      return;
    }
    verdict = answer;
    if (answer.correct) {
      phase = 'solved';
      if (streak !== null) {
        streak += 1;
        if (typeof answer.best_streak === 'number') accountBest = answer.best_streak;
        else try { if (streak > bestStreak()) localStorage.setItem(BEST_KEY, String(streak)); } catch { /* private mode */ }
      }
    } else {
      phase = 'failed';
      // The position before the wrong move, the right move as an arrow, the wrong one crossed.
      const right = answer.solution[2 * (answer.wrong ?? 0)];
      const rightMove = legalBefore.find((m) => m.notation === right);
      verdict = { ...answer, wrongMove: move.notation, rightMove: right };
      position = before;
      board.set({
        position,
        lastMove: null,
        annotations: { arrows: rightMove?.from && rightMove.to ? [[rightMove.from, rightMove.to, 'best']] : [], crosses: move.to ? [move.to] : [] },
      });
    }
    render();
    announce(`${status.textContent} ${typeof answer.rating_change === 'number' ? t('puz.ratingChange', { change: signed(answer.rating_change), rating: answer.rating }) : ''}`);
    if (streak !== null && !answer.correct) {
      announce(t('puz.streakOver', { n: streak }));
      streakLine.textContent = t('puz.streakOver', { n: streak });
      streak = null;
    }
    showMe();
    nextButton.focus();
  }

  async function hint() {
    if (phase !== 'playing' || !puzzle) return;
    try {
      /** @type {any} */
      const r = await request('POST', `/api/puzzles/${puzzle.id}/hint`, { body: { moves: mine } });
      if (stopped) return;
      hinted = true;
      board.set({ annotations: { rings: [r.square] } });
      announce(t('puz.hintSaid', { square: r.square }));
    } catch (err) {
      fail(err);
    }
  }

  /** Plays the whole solution from the start, move by move. */
  async function replay() {
    if (!puzzle || !verdict) return;
    replayButton.disabled = true;
    position = puzzle.position;
    board.set({ position, lastMove: null, annotations: null, moves: null });
    for (const notation of verdict.solution) {
      const legal = await legalMoves(position);
      if (stopped) return;
      const m = legal.find((x) => x.notation === notation);
      if (!m) break;
      await board.animate(m);
      position = m.position;
      board.set({ position, lastMove: m });
      announce(notation);
    }
    replayButton.disabled = false;
  }

  /** The theme and scoring chosen, as a query (`?theme=…&scoring=…`, or ''). */
  function chosen() {
    const q = new URLSearchParams();
    if (themeSelect.value) q.set('theme', themeSelect.value);
    if (scoringSelect.value) q.set('scoring', scoringSelect.value);
    const text = q.toString();
    return text ? `?${text}` : '';
  }

  async function next() {
    if (params.id || params.daily) {
      params = {};
      navigate(`/puzzles${chosen()}`);
      return;
    }
    phase = 'loading';
    verdict = null;
    render();
    const q = new URLSearchParams(chosen());
    if (streak !== null) q.set('streak', String(streak));
    const text = q.toString();
    try {
      /** @type {any} */
      const p = await request('GET', `/api/puzzles/next${text ? `?${text}` : ''}`);
      if (!stopped) await start(p);
    } catch (err) {
      if (!stopped) fail(err);
    }
  }

  async function first() {
    render();
    showMe();
    try {
      /** @type {any} */
      const p = params.daily ? await request('GET', '/api/puzzles/daily')
        : params.id ? await request('GET', `/api/puzzles/${encodeURIComponent(params.id)}`)
          : await request('GET', `/api/puzzles/next${chosen()}`);
      if (!stopped) await start(p);
    } catch (err) {
      if (!stopped) fail(err);
    }
  }
  first();

  return {
    unmount() { stopped = true; },
    onLang() { setTitle(); render(); showMe(); },
    onSession() { showMe(); },
  };
}
