//! The exact solver: negamax alpha-beta to the end of the game.
//!
//! A game of Mabula has at most 24 pushes, so from the middle game on the whole tree can be
//! searched. The solver has two modes ([`SolveMode`]): the *result* (win, draw or loss, found with
//! null-window searches, the fast one) and the exact final *margin* (the mover's score minus the
//! opponent's, found by MTD(f) over null-window searches). Values are always for the side to move.
//!
//! - The transposition table ([`crate::tt`]) is keyed by the position's Zobrist hash salted with
//!   the scoring mode and the solve mode, and stores bounds, not depths: every search reaches the
//!   end of the game. Margin searches also keep positions with 3 marbles on edge spaces in a
//!   small table of each thread's own, which stays in the cache.
//! - Move ordering: the table's move and two killer moves first; then, at nodes expected to cut
//!   off, random playouts high in the tree and the static score margin after the move lower down;
//!   then a history bonus for moves that caused cut-offs. The last push of the game is scored
//!   directly, without the table.
//! - Result mode guesses the result from random playouts first, and starts with the null-window
//!   search ("a win?" or "at least a draw?") that settles the guess alone.
//! - Threads ([`Solver::solve_threads`]) split the top of the tree: along the leftmost path,
//!   the first child of a node is searched first, and the threads then take the other children
//!   one at a time, sharing the table. A child that cuts off stops the others. The main thread
//!   then keeps the best history scores of every thread.
//! - Limits: a node budget, a deadline and a stop flag ([`Limits`]); an interrupted search
//!   returns `None` and stores nothing false in the table.
//!
//! ```
//! use mabula::{Color, Scoring, deal};
//! use mabula_engine::solver::{SolveMode, Solver};
//! use mabula_engine::Limits;
//! let mut pos = deal::random(1, Color::White);
//! for _ in 0..18 {
//!     let mv = pos.legal_moves()[0];
//!     pos.play_unchecked(mv);
//! }
//! let mut solver = Solver::new(Scoring::Largest, 16);
//! let sol = solver.solve(&pos, SolveMode::Result, &Limits::none()).unwrap();
//! assert!((-1..=1).contains(&sol.value));
//! assert!(pos.play(sol.best).is_ok());
//! ```

use crate::limits::{Clock, Limits};
use crate::rng::Rng;
use crate::tt::{Bounds, Table};
use mabula::{Bitboard, Move, MoveList, Position, Scoring};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What the solver computes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SolveMode {
    /// Win (1), draw (0) or loss (-1) for the side to move.
    Result,
    /// The final score of the side to move minus the opponent's, with best play by both.
    Margin,
}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The mode it was solved in.
    pub mode: SolveMode,
    /// The value for the side to move: -1, 0 or 1 in [`SolveMode::Result`], the final margin in
    /// [`SolveMode::Margin`].
    pub value: i32,
    /// A best move ([`Move::PASS`] when passing is forced, or when the game is over).
    pub best: Move,
    /// The principal line from this position to the end of the game (empty if it is over).
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// A bound beyond every value of both modes (they fit in an `i8`).
pub(crate) const INF: i32 = 127;

/// Below this many marbles on edge spaces, children are not ordered by their static score
/// (near the leaves the cost of scoring children is more than the nodes it saves).
const ORDER_MIN_EDGES: u32 = 6;

/// From this many marbles on edge spaces on, children are ordered by random playouts.
const PLAYOUT_ORDER_MIN_EDGES: u32 = 9;

/// Playouts per child in the first round of ordering by playouts.
const FIRST_ROUND_PLAYOUTS: u32 = 24;

/// More playouts for each of the best children of the first round.
const ORDER_PLAYOUTS: u32 = 100;

/// From this playout score on (half points out of 400: an even game) the root is guessed to be
/// won, below it lost.
const EVEN_GUESS: i32 = 200;

/// Below this many marbles on edge spaces the table is not used: the subtrees are too small to
/// pay for a cache miss.
const TABLE_MIN_EDGES: u32 = 4;

/// The size of the small table (MB) for margin searches with 3 marbles on edge spaces.
const NEAR_TABLE_MB: usize = 1;

/// From this many marbles on edge spaces on, children are looked up in the table before any is
/// searched (enhanced transposition cut-off).
const ETC_MIN_EDGES: u32 = 7;

/// From this many marbles on edge spaces on, the threads of a solve split the work.
const SPLIT_MIN_EDGES: u32 = 8;

/// How often (in nodes) the clock is looked at (about every 0.2 to 1 ms).
const POLL: u64 = 1 << 10;

/// How often (in nodes) the progress callback runs.
const PROGRESS: u64 = 1 << 20;

/// What an MTD(f) search knows of a value: it lies in `lo..=hi`, and a null-window search last
/// found `guess` (the next test starts from there). [`Window::next`] says which test to make and
/// [`Window::record`] takes its answer, until the value is exact.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The value is at least this.
    pub lo: i32,
    /// The value is at most this.
    pub hi: i32,
    guess: i32,
    /// Whether an answer was recorded.
    probed: bool,
}

impl Window {
    /// A value in `lo..=hi`, probably near `guess`.
    pub fn new(lo: i32, hi: i32, guess: i32) -> Window {
        Window {
            lo,
            hi,
            guess,
            probed: false,
        }
    }

    /// The value, once the bounds meet.
    pub fn exact(&self) -> Option<i32> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// Whether a test has been recorded.
    pub fn probed(&self) -> bool {
        self.probed
    }

    /// Takes `guess` as the next starting point (say, a sibling's value).
    pub fn set_guess(&mut self, guess: i32) {
        self.guess = guess;
    }

    /// The next null-window test while the value is not exact: `beta` to ask "at least?" about
    /// (`lo < beta <= hi`), and whether the answer is expected to be no: MTD(f)'s step from the
    /// guess. (Galloping away from the guess and halving the interval once both bounds are known
    /// took fewer passes but not fewer nodes: 7% fewer at 12 left in product scoring, 2.5% more
    /// at 13, 10% more for largest-group margins at 13.)
    pub fn next(&self) -> (i32, bool) {
        let g = self.guess.clamp(self.lo, self.hi);
        if g == self.lo {
            (g + 1, true)
        } else {
            (g, false)
        }
    }

    /// Takes the answer `v` of a fail-soft null-window test at `beta`.
    pub fn record(&mut self, beta: i32, v: i32) {
        if v >= beta {
            self.lo = self.lo.max(v);
        } else {
            self.hi = self.hi.min(v);
        }
        self.guess = v;
        self.probed = true;
    }
}

/// An exact solver with its transposition table. Cheap to keep between searches: the table
/// stays valid for the same scoring mode, and entries of the other mode are told apart.
pub struct Solver {
    table: Arc<Table>,
    /// A small table of this thread's own (it stays in the cache) for margin searches of
    /// positions with 3 marbles on edge spaces, below the shared table.
    near: Table,
    scoring: Scoring,
    /// History heuristic: cut-offs caused by each move code, per side.
    history: Box<[[u32; 256]; 2]>,
    /// Killer moves: the last two moves that caused a cut-off, by marbles on edge spaces.
    killers: [[Move; 2]; 25],
    nodes: u64,
    /// The node count at which the clock, the node budget and the progress callback are next
    /// looked at.
    next_poll: u64,
    /// The node count at which the progress callback next runs.
    next_progress: u64,
    clock: Clock,
    aborted: bool,
    salt: u64,
    progress: Option<Box<dyn FnMut(u64) + Send>>,
    /// Random numbers for the playouts that order moves high in the tree.
    rng: Rng,
    /// Moves of the root in the order a caller suggests (say, a tree search's favourites).
    root_hint: Vec<Move>,
    /// The hash of the position the hint is for.
    root_key: u64,
    /// Threads to split the top of the tree between.
    threads: usize,
    /// Raised when another thread's child of the node being split cut off: the search is over.
    cutoff: Option<Arc<AtomicBool>>,
}

impl Solver {
    /// A solver for `scoring` with a fresh transposition table of `table_mb` megabytes.
    pub fn new(scoring: Scoring, table_mb: usize) -> Solver {
        Solver::with_table(scoring, Arc::new(Table::new(table_mb)))
    }

    /// A solver sharing a transposition table (with other solvers, on other threads).
    pub fn with_table(scoring: Scoring, table: Arc<Table>) -> Solver {
        Solver {
            table,
            near: Table::new(NEAR_TABLE_MB),
            scoring,
            history: Box::new([[0; 256]; 2]),
            killers: [[Move::PASS; 2]; 25],
            nodes: 0,
            next_poll: 0,
            next_progress: PROGRESS,
            clock: Limits::none().start(),
            aborted: false,
            salt: 0,
            progress: None,
            rng: Rng::new(1),
            root_hint: Vec::new(),
            root_key: 0,
            threads: 1,
            cutoff: None,
        }
    }

    /// The shared transposition table.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The scoring mode solved for.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// Calls `f` with the node count every million nodes or so (for progress displays).
    pub fn on_progress(&mut self, f: impl FnMut(u64) + Send + 'static) {
        self.progress = Some(Box::new(f));
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn salt_for(&self, mode: SolveMode) -> u64 {
        const SALTS: [u64; 4] = [
            0x0000_0000_0000_0000,
            0x9e37_79b9_7f4a_7c15,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
        ];
        SALTS
            [(self.scoring == Scoring::Product) as usize * 2 + (mode == SolveMode::Margin) as usize]
    }

    /// Starts a helper on the search `other` is running: its clock (with the node budget
    /// that is left) and table salt.
    fn begin_like(&mut self, other: &Solver) {
        let clock = other.clock.clone();
        let nodes = clock.nodes.saturating_sub(other.nodes);
        self.begin(SolveMode::Result, clock.with_nodes(nodes));
        self.salt = other.salt;
    }

    fn begin(&mut self, mode: SolveMode, clock: Clock) {
        self.nodes = 0;
        self.next_poll = 0;
        self.next_progress = PROGRESS;
        self.aborted = false;
        self.clock = clock;
        self.salt = self.salt_for(mode);
    }

    /// Suggests an order for the moves of `pos` (best first) to the next solve of `pos`; a tree
    /// search that hands over knows its favourites, and a good first move saves most of the work.
    pub fn hint(&mut self, pos: &Position, moves: &[Move]) {
        self.root_key = pos.hash();
        self.root_hint = moves.to_vec();
    }

    /// Solves `pos`; `None` when a limit ran out first.
    pub fn solve(&mut self, pos: &Position, mode: SolveMode, limits: &Limits) -> Option<Solution> {
        self.solve_with_clock(pos, mode, limits.start())
    }

    /// Solves `pos` under a running clock (for a search that hands a position over).
    pub fn solve_with_clock(
        &mut self,
        pos: &Position,
        mode: SolveMode,
        clock: Clock,
    ) -> Option<Solution> {
        self.begin(mode, clock);
        let value = match mode {
            SolveMode::Result => self.result_value(pos)?,
            SolveMode::Margin => self.margin_value(pos)?,
        };
        let pv = match mode {
            SolveMode::Result => self.principal_line::<false>(pos, value),
            SolveMode::Margin => self.principal_line::<true>(pos, value),
        };
        if self.aborted {
            return None;
        }
        let best = pv.first().copied().unwrap_or(Move::PASS);
        Some(Solution {
            mode,
            value,
            best,
            pv,
            nodes: self.nodes,
        })
    }

    /// Solves `pos` with `threads` threads sharing the table: they split the top of the tree
    /// between them (see [`Solver::split`]). With one thread this is [`Solver::solve`], and
    /// deterministic.
    pub fn solve_threads(
        &mut self,
        pos: &Position,
        mode: SolveMode,
        limits: &Limits,
        threads: usize,
    ) -> Option<Solution> {
        self.set_threads(threads);
        let solution = self.solve_with_clock(pos, mode, limits.start());
        self.threads = 1;
        solution
    }

    /// Sets the threads the searches of [`Solver::probe`] and [`Solver::line`] split the top of
    /// the tree between (one: deterministic).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// One null-window search: whether `pos` is worth at least `beta` for the side to move.
    /// The answer is a bound (fail-soft): a value `v >= beta` means `pos` is worth at least `v`,
    /// a value `v < beta` means at most `v`. `cut` says whether the search is expected to reach
    /// `beta` (the costly move ordering is spent where it is). `None` when a limit ran out; what
    /// was learnt stays in the table. The step an anytime analysis is built of: MTD(f) is a
    /// series of them.
    pub fn probe(
        &mut self,
        pos: &Position,
        mode: SolveMode,
        beta: i32,
        cut: bool,
        clock: Clock,
    ) -> Option<i32> {
        self.begin(mode, clock);
        let v = match mode {
            SolveMode::Result => self.split::<false>(pos, beta - 1, beta, cut),
            SolveMode::Margin => self.split::<true>(pos, beta - 1, beta, cut),
        };
        (!self.aborted).then_some(v)
    }

    /// A principal line from `pos`, known to be worth exactly `value` (found by [`Solver::probe`]
    /// or a solve in the same mode), to the end of the game; shorter if the clock ran out.
    pub fn line(&mut self, pos: &Position, mode: SolveMode, value: i32, clock: Clock) -> Vec<Move> {
        self.begin(mode, clock);
        match mode {
            SolveMode::Result => self.principal_line::<false>(pos, value),
            SolveMode::Margin => self.principal_line::<true>(pos, value),
        }
    }

    /// The result (-1, 0, 1) of `pos` for the side to move, without a principal line: the call a
    /// tree search makes when it hands a position over. `None` when a limit ran out.
    pub fn prove(&mut self, pos: &Position, clock: Clock) -> Option<i32> {
        self.begin(SolveMode::Result, clock);
        self.result_value(pos)
    }

    /// The exact value of every legal move of `pos` (for the side to move), best first; `None`
    /// when a limit ran out. Empty when the game is over.
    pub fn solve_moves(
        &mut self,
        pos: &Position,
        mode: SolveMode,
        limits: &Limits,
    ) -> Option<Vec<(Move, i32)>> {
        let clock = limits.start();
        let mut out = Vec::new();
        let mut nodes = 0;
        for mv in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(mv);
            self.begin(mode, clock.clone());
            let v = match mode {
                SolveMode::Result => self.result_value(&child)?,
                SolveMode::Margin => self.margin_value(&child)?,
            };
            nodes += self.nodes;
            out.push((mv, -v));
        }
        self.nodes = nodes;
        out.sort_by_key(|&(mv, v)| (-v, mv));
        Some(out)
    }

    fn result_value(&mut self, pos: &Position) -> Option<i32> {
        // Whether the root is a cut node of a null-window search depends on its result: guess
        // it from playouts (half points out of 400) where the tree is big enough to care.
        let edges = pos.edges_left();
        let guess = if edges >= PLAYOUT_ORDER_MIN_EDGES {
            self.playout_score(pos, pos.side_to_move(), 200)
        } else {
            400
        };
        // Two null-window searches: "a win?" and "at least a draw?". The one that settles the
        // guessed result alone goes first.
        let v = if guess >= EVEN_GUESS {
            if self.split::<false>(pos, 0, 1, true) >= 1 {
                1
            } else if self.split::<false>(pos, -1, 0, true) >= 0 {
                0
            } else {
                -1
            }
        } else if self.split::<false>(pos, -1, 0, false) < 0 {
            -1
        } else if self.split::<false>(pos, 0, 1, false) >= 1 {
            1
        } else {
            0
        };
        (!self.aborted).then_some(v)
    }

    /// MTD(f): null-window searches closing in on the exact margin.
    fn margin_value(&mut self, pos: &Position) -> Option<i32> {
        let mut window = Window::new(-INF, INF, 0);
        while window.exact().is_none() {
            // A test expected to fail makes the root an all node: the costly ordering is
            // kept for the tests expected to succeed (0.5% to 2% fewer nodes).
            let (beta, fail) = window.next();
            let v = self.split::<true>(pos, beta - 1, beta, !fail);
            if self.aborted {
                return None;
            }
            window.record(beta, v);
        }
        window.exact()
    }

    /// Walks down from `pos` (worth `value`) along moves that keep the value, to the end.
    fn principal_line<const MARGIN: bool>(&mut self, pos: &Position, value: i32) -> Vec<Move> {
        let mut pv = Vec::new();
        let (mut pos, mut v) = (*pos, value);
        loop {
            let mut moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if let Some(b) = self.table.probe(pos.hash() ^ self.salt)
                && let Some(i) = moves.iter().position(|&m| m == b.best)
            {
                moves.swap(0, i);
            }
            let mut found = None;
            for mv in moves {
                let mut child = pos;
                child.play_unchecked(mv);
                // The child is worth at least -v; it is on the line when it is worth at most -v.
                if self.search::<MARGIN>(&child, -v, -v + 1, true) <= -v {
                    found = Some((mv, child));
                    break;
                }
                if self.aborted {
                    return pv;
                }
            }
            match found {
                Some((mv, child)) => {
                    pv.push(mv);
                    pos = child;
                    v = -v;
                }
                None => break,
            }
        }
        pv
    }

    #[inline]
    fn final_value<const MARGIN: bool>(&self, pos: &Position) -> i32 {
        let me = pos.side_to_move();
        self.margin::<MARGIN>(pos.marbles(me), pos.marbles(me.other()))
    }

    /// The final value for a player with marbles `mine` against `theirs`.
    #[inline(always)]
    fn margin<const MARGIN: bool>(&self, mine: Bitboard, theirs: Bitboard) -> i32 {
        let margin = self.scoring.score_of(mine) as i32 - self.scoring.score_of(theirs) as i32;
        if MARGIN { margin } else { margin.signum() }
    }

    #[cold]
    fn poll(&mut self) {
        if self.nodes >= self.clock.nodes
            || self.clock.expired()
            || self
                .cutoff
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.nodes >= self.next_progress {
            self.next_progress = self.nodes + PROGRESS;
            if let Some(f) = self.progress.as_mut() {
                f(self.nodes);
            }
        }
        self.next_poll = (self.nodes + POLL).min(self.clock.nodes);
    }

    /// A position with at most one marble left on an edge space: its owner pushes it (the other
    /// side passing first if needed), and then the game is over. No table, no ordering: only the
    /// final scores. Counts as one node.
    fn last_push<const MARGIN: bool>(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        let n = pos.count_pushes();
        if n == 0 {
            let mut next = *pos;
            if pos.can_push(pos.side_to_move().other()) {
                next.play_unchecked(Move::PASS);
                return -self.last_push::<MARGIN>(&next, -beta, -alpha);
            }
            return self.final_value::<MARGIN>(pos);
        }
        let me = pos.side_to_move();
        // Many last pushes leave the opponent's marbles in the field where they are: their
        // score is counted once for all of those.
        let theirs = pos.marbles(me.other()) & Bitboard::FIELD;
        let mut their_score = None;
        let mut best = -INF;
        for i in 0..n {
            let after = pos.marbles_after(pos.nth_move(i));
            let (mine, other) = (
                after[me as usize],
                after[me.other() as usize] & Bitboard::FIELD,
            );
            let their = if other == theirs {
                *their_score.get_or_insert_with(|| self.scoring.score_of(theirs))
            } else {
                self.scoring.score_of(other)
            };
            let value = if MARGIN {
                self.scoring.score_of(mine) as i32 - their as i32
            } else {
                self.scoring.compare_score(mine, their) as i32
            };
            best = best.max(value);
            if best >= beta {
                break;
            }
        }
        best
    }

    /// A position with two marbles left on edge spaces and a push to play (`moves`): the
    /// killers first, then the other pushes in order, each answered by [`Solver::last_push`].
    fn two_left<const MARGIN: bool>(
        &mut self,
        pos: &Position,
        mut moves: MoveList,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        to_front(&mut moves, &self.killers[2]);
        let mut best = -INF;
        for &mv in moves.iter() {
            let mut child = *pos;
            child.play_unchecked(mv);
            best = best.max(-self.last_push::<MARGIN>(&child, -beta, -alpha.max(best)));
            if best >= beta {
                self.reward(pos.side_to_move() as usize, mv, 2);
                break;
            }
        }
        best
    }

    /// A null-window search (`beta == alpha + 1`) that splits the work between `self.threads`
    /// threads along the leftmost path of the tree: the first child is searched (split in the
    /// same way) before the others, which the threads then take one at a time. Low in the tree,
    /// or with one thread, this is [`Solver::search`].
    fn split<const MARGIN: bool>(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cut: bool,
    ) -> i32 {
        let edges = pos.edges_left();
        if self.threads <= 1 || edges < SPLIT_MIN_EDGES {
            return self.search::<MARGIN>(pos, alpha, beta, cut);
        }
        let mut moves = MoveList::new();
        pos.pushes_into(&mut moves);
        let n = moves.len();
        if n < 2 {
            return self.search::<MARGIN>(pos, alpha, beta, cut);
        }
        let key = pos.hash() ^ self.salt;
        let (mut lo, mut hi, mut tt_move) = (-INF, INF, Move::PASS);
        if let Some(b) = self.table.probe(key) {
            if b.lo >= beta {
                return b.lo;
            }
            if b.hi <= alpha {
                return b.hi;
            }
            (lo, hi, tt_move) = (b.lo, b.hi, b.best);
        }
        self.poll();
        if self.aborted {
            return 0;
        }
        let mut scores = [0i32; MoveList::CAPACITY];
        let playouts = cut && edges >= PLAYOUT_ORDER_MIN_EDGES;
        self.order(pos, &moves, &mut scores[..n], edges, playouts);
        let mut ordered: Vec<(i32, Move)> = scores[..n]
            .iter()
            .copied()
            .zip(moves.iter().copied())
            .collect();
        ordered.sort_by_key(|&(score, mv)| (mv != tt_move, std::cmp::Reverse(score)));
        let ordered: Vec<Move> = ordered.into_iter().map(|(_, mv)| mv).collect();

        let mut child = *pos;
        child.play_unchecked(ordered[0]);
        let mut best = -self.split::<MARGIN>(&child, -beta, -alpha, !cut);
        let mut best_move = ordered[0];
        if self.aborted {
            return 0;
        }
        if best < beta {
            let (v, mv) = self.share::<MARGIN>(pos, &ordered[1..], alpha, beta, !cut);
            if self.aborted {
                return 0;
            }
            if v > best {
                (best, best_move) = (v, mv);
            }
        }
        if best >= beta {
            self.reward(pos.side_to_move() as usize, best_move, edges);
            lo = best;
        } else {
            hi = best;
        }
        let bounds = Bounds {
            lo,
            hi,
            best: best_move,
        };
        self.table.store(key, bounds, edges as u8 + 1);
        best
    }

    /// Searches the children `moves` of `pos` with all the threads, each taking the next
    /// unsearched one, until one cuts off or none is left: the best value and its move.
    fn share<const MARGIN: bool>(
        &mut self,
        pos: &Position,
        moves: &[Move],
        alpha: i32,
        beta: i32,
        cut: bool,
    ) -> (i32, Move) {
        let next = AtomicUsize::new(0);
        let cutoff = Arc::new(AtomicBool::new(false));
        let mut helpers: Vec<Solver> = (1..self.threads)
            .map(|_| {
                let mut helper = Solver::with_table(self.scoring, Arc::clone(&self.table));
                helper.history.clone_from(&self.history);
                helper.killers = self.killers;
                helper.begin_like(self);
                helper.cutoff = Some(Arc::clone(&cutoff));
                helper
            })
            .collect();
        let outer = self.cutoff.replace(Arc::clone(&cutoff));
        let results = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|helper| {
                    let next = &next;
                    scope.spawn(move || helper.take::<MARGIN>(pos, moves, next, alpha, beta, cut))
                })
                .collect();
            let mut results = vec![self.take::<MARGIN>(pos, moves, &next, alpha, beta, cut)];
            results.extend(
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a solver thread panicked")),
            );
            results
        });
        self.cutoff = outer;
        let aborted = self.aborted || helpers.iter().any(|h| h.aborted);
        for helper in &helpers {
            self.nodes += helper.nodes;
            // What the helpers learnt about good moves is kept for the rest of the search.
            for (mine, theirs) in self.history.iter_mut().zip(helper.history.iter()) {
                for (m, &t) in mine.iter_mut().zip(theirs) {
                    *m = (*m).max(t);
                }
            }
        }
        self.next_poll = self.nodes;
        let (best, best_move) = results
            .into_iter()
            .max_by_key(|&(v, _)| v)
            .expect("the main thread's result");
        // A cut-off stands even if the other threads were stopped; anything else needs every
        // child searched to the end.
        self.aborted = best < beta && aborted;
        (best, best_move)
    }

    /// One thread's part of [`Solver::share`].
    fn take<const MARGIN: bool>(
        &mut self,
        pos: &Position,
        moves: &[Move],
        next: &AtomicUsize,
        alpha: i32,
        beta: i32,
        cut: bool,
    ) -> (i32, Move) {
        let (mut best, mut best_move) = (-INF, Move::PASS);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&mv) = moves.get(i) else { break };
            let mut child = *pos;
            child.play_unchecked(mv);
            let v = -self.search::<MARGIN>(&child, -beta, -alpha, cut);
            if self.aborted {
                break;
            }
            if v > best {
                (best, best_move) = (v, mv);
                if v >= beta {
                    if let Some(c) = &self.cutoff {
                        c.store(true, Ordering::Relaxed);
                    }
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// `cut` tells whether the node is expected to fail high (a cut node, whose first good move
    /// settles it) rather than low (an all node, whose every move is searched): the expensive
    /// ordering is spent on cut nodes only. Nodes alternate: the children of one kind are of the
    /// other.
    fn search<const MARGIN: bool>(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cut: bool,
    ) -> i32 {
        if self.aborted {
            return 0;
        }
        // A result is -1, 0 or 1: a window beyond them is settled at once (the principal line
        // of a lost position asks whether a child is worth at most 1; searching that took 6% to
        // 9% of a result solve's nodes at 13 edge marbles).
        if !MARGIN && (alpha >= 1 || beta <= -1) {
            return if alpha >= 1 { 1 } else { -1 };
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        let edges = pos.edges_left();
        if edges <= 1 {
            return self.last_push::<MARGIN>(pos, alpha, beta);
        }
        // The table's entry is fetched while the moves are generated.
        let key = pos.hash() ^ self.salt;
        let use_table = edges >= TABLE_MIN_EDGES;
        let use_near = MARGIN && edges == 3;
        if use_table {
            self.table.prefetch(key);
        } else if use_near {
            self.near.prefetch(key);
        }
        let mut moves = MoveList::new();
        pos.pushes_into(&mut moves);
        if edges == 2 && !moves.is_empty() {
            return self.two_left::<MARGIN>(pos, moves, alpha, beta);
        }
        if moves.is_empty() {
            let mut next = *pos;
            if pos.can_push(pos.side_to_move().other()) {
                next.play_unchecked(Move::PASS);
                return -self.search::<MARGIN>(&next, -beta, -alpha, !cut);
            }
            return self.final_value::<MARGIN>(pos);
        }
        let (mut lo, mut hi, mut tt_move) = (-INF, INF, Move::PASS);
        let found = if use_table {
            self.table.probe(key)
        } else if use_near {
            self.near.probe(key)
        } else {
            None
        };
        if let Some(b) = found {
            if b.lo >= beta || b.lo == b.hi {
                return b.lo;
            }
            if b.hi <= alpha {
                return b.hi;
            }
            (lo, hi, tt_move) = (b.lo, b.hi, b.best);
        }
        let (alpha, beta) = (alpha.max(lo), beta.min(hi));
        let me = pos.side_to_move();

        // The table's move and the two latest moves that refuted a position with as many edge
        // marbles (killers) are searched first, before the others are looked at: they often
        // settle the node alone.
        let n = moves.len();
        let [k0, k1] = self.killers[edges as usize];
        let fixed = to_front(&mut moves, &[tt_move, k0, k1]);
        let mut scores = [0i32; MoveList::CAPACITY];
        let mut best = -INF;
        let mut best_move = moves[0];
        for i in 0..n {
            if i == fixed && i + 1 < n {
                // The table's entries for the other children are fetched now, to be read a
                // little later: by the enhanced transposition cut-off below, or (at a node
                // expected to search every child) when each child is searched. At a cut node
                // low in the tree most would be wasted.
                let etc = edges >= ETC_MIN_EDGES;
                let mut keys = [0u64; MoveList::CAPACITY];
                if etc || (edges > TABLE_MIN_EDGES && !cut) {
                    for (key, &mv) in keys.iter_mut().zip(&moves[i..]) {
                        let mut child = *pos;
                        child.play_unchecked(mv);
                        *key = child.hash() ^ self.salt;
                        self.table.prefetch(*key);
                    }
                }
                // Enhanced transposition cut-off: a child already known to be bad enough for
                // the opponent settles this node without searching.
                if etc {
                    for &key in &keys[..n - i] {
                        if let Some(b) = self.table.probe(key)
                            && -b.hi >= beta
                        {
                            return -b.hi;
                        }
                    }
                }
                // Playouts make the nodes high in the tree slow: look at the clock at each.
                let playouts = cut && edges >= PLAYOUT_ORDER_MIN_EDGES;
                if playouts {
                    self.poll();
                    if self.aborted {
                        return 0;
                    }
                }
                self.order(pos, &moves[i..], &mut scores[i..n], edges, playouts);
            }
            // The list is sorted lazily: pick the best remaining.
            if i >= fixed && i + 1 < n {
                let mut k = i;
                for j in i + 1..n {
                    if scores[j] > scores[k] {
                        k = j;
                    }
                }
                scores.swap(i, k);
                moves.swap(i, k);
            }
            let mv = moves[i];
            let mut child = *pos;
            child.play_unchecked(mv);
            let v = -self.search::<MARGIN>(&child, -beta, -alpha.max(best), !cut);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv;
                if v >= beta {
                    self.reward(me as usize, mv, edges);
                    break;
                }
            }
        }
        if use_table || use_near {
            let (lo, hi) = if best >= beta {
                (best, hi)
            } else if best <= alpha {
                (lo, best)
            } else {
                (best, best)
            };
            let bounds = Bounds {
                lo,
                hi,
                best: best_move,
            };
            let table: &Table = if use_table { &self.table } else { &self.near };
            table.store(key, bounds, edges as u8 + 1);
        }
        best
    }

    /// Scores `moves` of `pos` for ordering, higher first: the caller's root order, then (high
    /// in the tree) random playouts, then (lower) the static score margin and the opponent's
    /// mobility, then the history of cut-offs.
    fn order(
        &mut self,
        pos: &Position,
        moves: &[Move],
        scores: &mut [i32],
        edges: u32,
        playouts: bool,
    ) {
        let me = pos.side_to_move();
        if playouts {
            self.order_by_playouts(pos, moves, scores);
        }
        for (score, &mv) in scores.iter_mut().zip(moves) {
            let h = self.history[me as usize][mv.code() as usize] as i32;
            *score = if let Some(r) = self.root_rank(pos, mv) {
                i32::MAX - 1 - r
            } else if playouts {
                (*score << 12) + h.min(4095)
            } else if edges >= ORDER_MIN_EDGES {
                let mut child = *pos;
                child.play_unchecked(mv);
                let s = child.score(me, self.scoring) as i32
                    - child.score(me.other(), self.scoring) as i32;
                let mobility = child.count_pushes() as i32;
                ((4 * s - 16 * mobility) << 16) + h
            } else {
                h
            };
        }
    }

    /// The rank of `mv` in the caller's root ordering, when searching the root.
    #[inline]
    fn root_rank(&self, pos: &Position, mv: Move) -> Option<i32> {
        if self.root_hint.is_empty() || pos.hash() != self.root_key {
            return None;
        }
        self.root_hint
            .iter()
            .position(|&m| m == mv)
            .map(|r| r as i32)
    }

    /// Scores `moves` by random playouts, in two rounds: a few playouts for every move, then
    /// many more for the best quarter (the first moves tried are the ones that must be right).
    fn order_by_playouts(&mut self, pos: &Position, moves: &[Move], scores: &mut [i32]) {
        let me = pos.side_to_move();
        let children = moves.iter().map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            child
        });
        let children: Vec<Position> = children.collect();
        for (score, child) in scores.iter_mut().zip(&children) {
            *score = self.playout_score(child, me, FIRST_ROUND_PLAYOUTS);
        }
        let mut ranked: Vec<usize> = (0..moves.len()).collect();
        ranked.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let finalists = (moves.len() / 4).max(3);
        for &i in ranked.iter().take(finalists) {
            let more = self.playout_score(&children[i], me, ORDER_PLAYOUTS);
            scores[i] = 4 * FIRST_ROUND_PLAYOUTS as i32 + scores[i] + more;
        }
    }

    /// `count` random playouts from `child`: how often they end well for `me` (win 2, draw 1).
    fn playout_score(&mut self, child: &Position, me: mabula::Color, count: u32) -> i32 {
        let mut total = 0;
        for _ in 0..count {
            let mut p = *child;
            loop {
                let n = p.count_moves();
                if n == 0 {
                    break;
                }
                p.play_unchecked(p.nth_move(self.rng.below(n)));
            }
            total += 1 + p
                .score(me, self.scoring)
                .cmp(&p.score(me.other(), self.scoring)) as i32;
        }
        total
    }

    /// History heuristic: credit a move that caused a cut-off, more for bigger subtrees.
    fn reward(&mut self, side: usize, mv: Move, edges: u32) {
        let killers = &mut self.killers[edges as usize];
        if killers[0] != mv {
            *killers = [mv, killers[0]];
        }
        let h = &mut self.history[side][mv.code() as usize];
        *h += edges * edges;
        if *h > 1 << 19 {
            for row in self.history.iter_mut() {
                for x in row.iter_mut() {
                    *x /= 2;
                }
            }
        }
    }
}

/// Moves those of `first` that are in `moves` to its front, in that order; how many there were.
#[inline]
fn to_front(moves: &mut [Move], first: &[Move]) -> usize {
    let mut fixed = 0;
    for &wanted in first {
        if let Some(t) = moves[fixed..].iter().position(|&m| m == wanted) {
            moves.swap(fixed, fixed + t);
            fixed += 1;
        }
    }
    fixed
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::{Color, deal};

    /// Plain minimax to the end, the reference the solver must agree with.
    fn minimax(pos: &Position, scoring: Scoring) -> i32 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let me = pos.side_to_move();
            return pos.score(me, scoring) as i32 - pos.score(me.other(), scoring) as i32;
        }
        moves
            .iter()
            .map(|&mv| {
                let mut c = *pos;
                c.play_unchecked(mv);
                -minimax(&c, scoring)
            })
            .max()
            .unwrap_or(0)
    }

    /// Plain fail-soft alpha-beta to the end, with bounds kept per position in a `HashMap`:
    /// no move ordering, no killers or history, no packed table, no threads, no MTD(f). The
    /// reference for positions too far from the end for [`minimax`], written apart from the
    /// solver so that both agreeing means something.
    fn reference(
        pos: &Position,
        scoring: Scoring,
        mut alpha: i32,
        mut beta: i32,
        memo: &mut std::collections::HashMap<Position, (i32, i32)>,
    ) -> i32 {
        let (mut lo, mut hi) = memo.get(pos).copied().unwrap_or((-INF, INF));
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let me = pos.side_to_move();
            return pos.score(me, scoring) as i32 - pos.score(me.other(), scoring) as i32;
        }
        let (mut best, mut a) = (-INF, alpha);
        for &mv in moves.iter() {
            let mut c = *pos;
            c.play_unchecked(mv);
            let v = -reference(&c, scoring, -beta, -a, memo);
            best = best.max(v);
            a = a.max(v);
            if a >= beta {
                break;
            }
        }
        if best <= alpha {
            hi = best;
        } else if best >= beta {
            lo = best;
        } else {
            (lo, hi) = (best, best);
        }
        memo.insert(*pos, (lo, hi));
        best
    }

    #[test]
    fn the_solver_agrees_with_the_reference_search_on_results_and_margins() {
        // Positions 8 or 9 marbles from the end, and some 10 from it (the reference needs a
        // tenth of a second there; its time grows about tenfold with each marble). Fewer in a
        // debug build.
        let (near, far) = if cfg!(debug_assertions) {
            (60, 4)
        } else {
            (400, 40)
        };
        let positions = (0..near)
            .map(|seed| endgame(1000 + seed, 8 + seed as u32 % 2))
            .chain((0..far).map(|seed| endgame(2000 + seed, 10)));
        let positions: Vec<Position> = positions.collect();
        for scoring in [Scoring::Largest, Scoring::Product] {
            let mut solver = Solver::new(scoring, 16);
            for pos in &positions {
                let exact = reference(pos, scoring, -INF, INF, &mut Default::default());
                for mode in [SolveMode::Margin, SolveMode::Result] {
                    let sol = solver.solve(pos, mode, &Limits::none()).expect("solved");
                    let want = match mode {
                        SolveMode::Margin => exact,
                        SolveMode::Result => exact.signum(),
                    };
                    assert_eq!(sol.value, want, "{pos} {scoring} {mode:?}");
                }
            }
        }
    }

    fn endgame(seed: u64, left: u32) -> Position {
        let mut pos = deal::random(seed, Color::White);
        let mut rng = crate::rng::Rng::new(seed);
        while pos.edges_left() > left && !pos.is_game_over() {
            let n = pos.count_moves();
            pos.play_unchecked(pos.nth_move(rng.below(n)));
        }
        pos
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax_in_both_modes_and_scorings() {
        for scoring in [Scoring::Largest, Scoring::Product] {
            let mut solver = Solver::new(scoring, 4);
            for seed in 0..12 {
                let pos = endgame(seed, 7);
                let exact = minimax(&pos, scoring);
                let margin = solver
                    .solve(&pos, SolveMode::Margin, &Limits::none())
                    .expect("solved");
                assert_eq!(margin.value, exact, "{pos} {scoring}");
                let result = solver
                    .solve(&pos, SolveMode::Result, &Limits::none())
                    .expect("solved");
                assert_eq!(result.value, exact.signum(), "{pos} {scoring}");
            }
        }
    }

    #[test]
    fn the_principal_line_is_legal_and_ends_with_the_solved_margin() {
        let mut solver = Solver::new(Scoring::Largest, 4);
        for seed in 20..26 {
            let start = endgame(seed, 9);
            let sol = solver
                .solve(&start, SolveMode::Margin, &Limits::none())
                .expect("solved");
            let mut pos = start;
            for &mv in &sol.pv {
                pos = pos.play(mv).expect("a legal principal line");
            }
            assert!(pos.is_game_over());
            let me = start.side_to_move();
            let scores = pos.scores(Scoring::Largest);
            assert_eq!(scores.margin(me), sol.value, "{start}");
            assert_eq!(sol.pv.first().copied().unwrap_or(Move::PASS), sol.best);
        }
    }

    #[test]
    fn every_move_gets_its_exact_value_and_the_best_comes_first() {
        let mut solver = Solver::new(Scoring::Product, 4);
        let pos = endgame(3, 6);
        let values = solver
            .solve_moves(&pos, SolveMode::Margin, &Limits::none())
            .expect("solved");
        assert_eq!(values.len(), pos.legal_moves().len());
        for &(mv, v) in &values {
            let mut c = pos;
            c.play_unchecked(mv);
            assert_eq!(v, -minimax(&c, Scoring::Product));
        }
        assert_eq!(values[0].1, minimax(&pos, Scoring::Product));
    }

    #[test]
    fn a_node_budget_stops_the_solver_without_an_answer() {
        let mut solver = Solver::new(Scoring::Largest, 4);
        let pos = endgame(1, 18);
        assert_eq!(
            solver.solve(&pos, SolveMode::Result, &Limits::nodes(1000)),
            None
        );
        assert!(solver.nodes() <= 1000);
    }

    #[test]
    fn two_threads_find_the_values_one_thread_finds() {
        for scoring in [Scoring::Largest, Scoring::Product] {
            for seed in 0..5 {
                // Ten moves left: enough for the threads to split the top of the tree.
                let pos = endgame(seed, 10);
                for mode in [SolveMode::Result, SolveMode::Margin] {
                    let one = Solver::new(scoring, 16)
                        .solve(&pos, mode, &Limits::none())
                        .expect("solved");
                    let two = Solver::new(scoring, 16)
                        .solve_threads(&pos, mode, &Limits::none(), 2)
                        .expect("solved");
                    assert_eq!(one.value, two.value, "{pos} {scoring} {mode:?}");
                    assert!(pos.play(two.best).is_ok(), "{pos}: {}", two.best);
                }
            }
        }
    }

    #[test]
    fn a_split_search_stops_at_its_node_budget_and_at_the_stop_flag() {
        let pos = endgame(1, 18);
        let mut solver = Solver::new(Scoring::Largest, 4);
        let limits = Limits::nodes(20_000);
        assert_eq!(
            solver.solve_threads(&pos, SolveMode::Result, &limits, 2),
            None
        );
        let stop = Arc::new(AtomicBool::new(true));
        let limits = Limits::none().with_stop(stop);
        assert_eq!(
            solver.solve_threads(&pos, SolveMode::Margin, &limits, 2),
            None
        );
    }

    #[test]
    fn a_window_closes_on_the_value_whatever_the_guess_and_the_answers() {
        // Fail-hard answers (the least a search may say) and fail-soft ones (the value itself).
        for soft in [false, true] {
            for value in -81..=81 {
                for guess in [-81, -3, 0, 1, 5, 40, 81] {
                    let mut w = Window::new(-INF, INF, guess);
                    let mut tests = 0;
                    while w.exact().is_none() {
                        let (beta, _) = w.next();
                        assert!(w.lo < beta && beta <= w.hi, "{value} {guess}: {w:?} {beta}");
                        let v = match (soft, value >= beta) {
                            (true, _) => value,
                            (false, true) => beta,
                            (false, false) => beta - 1,
                        };
                        w.record(beta, v);
                        tests += 1;
                        assert!(tests <= 300, "{value} {guess}");
                    }
                    assert_eq!(w.exact(), Some(value));
                }
            }
        }
    }

    #[test]
    fn a_result_window_beyond_win_or_loss_is_settled_without_a_search() {
        for scoring in [Scoring::Largest, Scoring::Product] {
            for seed in 0..20 {
                let pos = endgame(seed, 9);
                let mut solver = Solver::new(scoring, 1);
                let clock = Limits::none().start();
                assert_eq!(
                    solver.probe(&pos, SolveMode::Result, 2, true, clock.clone()),
                    Some(1)
                );
                assert_eq!(solver.nodes(), 0);
                assert_eq!(
                    solver.probe(&pos, SolveMode::Result, -1, true, clock),
                    Some(-1)
                );
                assert_eq!(solver.nodes(), 0);
                // A lost position's line still runs to the end with legal moves.
                let sol = solver
                    .solve(&pos, SolveMode::Result, &Limits::none())
                    .expect("solved");
                let mut p = pos;
                for &mv in &sol.pv {
                    p = p.play(mv).expect("a legal principal line");
                }
                assert!(p.is_game_over(), "{pos}: the line runs to the end");
            }
        }
    }

    #[test]
    fn one_solver_keeps_its_small_table_between_margin_solves_and_stays_exact() {
        // The thread's small table for 3 edge marbles lives as long as the solver: solves of
        // many positions in a row (sharing positions 3 from the end) must stay exact.
        for scoring in [Scoring::Largest, Scoring::Product] {
            let mut solver = Solver::new(scoring, 1);
            for seed in 0..40 {
                let pos = endgame(seed, 5);
                let sol = solver
                    .solve(&pos, SolveMode::Margin, &Limits::none())
                    .expect("solved");
                assert_eq!(sol.value, minimax(&pos, scoring), "{pos} ({scoring})");
            }
        }
    }

    #[test]
    fn a_finished_game_is_solved_at_once() {
        let mut solver = Solver::new(Scoring::Largest, 1);
        let pos = endgame(4, 0);
        assert!(pos.is_game_over());
        let sol = solver
            .solve(&pos, SolveMode::Margin, &Limits::none())
            .expect("solved");
        assert_eq!(sol.best, Move::PASS);
        assert!(sol.pv.is_empty());
        assert_eq!(
            sol.value,
            pos.scores(Scoring::Largest).margin(pos.side_to_move())
        );
    }
}
