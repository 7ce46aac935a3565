//! Annotation: what the engine says about a position and about the moves of a game, shared by
//! `mabula analyze` and the web server's analysis board so that both say the same thing.
//!
//! - [`Deepening`] analyses one position within a time bound, in steps (each step continues the
//!   same search), and reports a [`Report`] after every step; once few enough marbles are left
//!   on edge spaces, the exact solver adds the final margin with best play (a [`Verdict`]).
//! - [`annotate`] turns the reports of a game's positions into one [`Note`] per move: the value
//!   of the move played, the engine's preferred move and how much was lost ([`Judgement`]).
//! - [`white_values`] gives the evaluation graph (value for White after each move); the
//!   command line draws it as a text chart.
//!
//! ```
//! use mabula::{Color, Scoring, deal};
//! use mabula_engine::annotate::{Deepening, Settings};
//! use std::time::Duration;
//! let pos = deal::random(1, Color::White);
//! let settings = Settings { time: Duration::from_millis(40), threads: 1, ..Settings::default() };
//! let report = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
//! assert!(!report.moves.is_empty());
//! assert!((0.0..=1.0).contains(&report.white));
//! ```

use crate::limits::Limits;
use crate::search::{Engine, EngineConfig, MoveAnalysis, Value};
use crate::solver::{INF, SolveMode, Solver, Window};
use mabula::{Color, Move, Position, Scoring};
use std::fmt;
use std::time::{Duration, Instant};

/// How a position is analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The bound on the time spent on one position (the tree search and the solver together).
    pub time: Duration,
    /// A bound on the work spent on one position, in solver nodes (a playout counts as
    /// [`PLAYOUT_WORK`]); with one thread an analysis under such a bound is reproducible.
    pub work: Option<u64>,
    /// Threads, for the tree search and the solver in turn.
    pub threads: usize,
    /// The solver looks for the exact margin of each move when at most this many marbles are on
    /// edge spaces.
    pub solve_edges: u32,
    /// Above [`Settings::solve_edges`], the solver looks for the exact result (win, draw or
    /// loss) of each move when at most this many marbles are on edge spaces.
    pub prove_edges: u32,
    /// The best moves kept in a report.
    pub lines: usize,
    /// The seed of the search.
    pub seed: u64,
    /// The solver's transposition table, in MB.
    pub table_mb: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            time: Duration::from_secs(1),
            work: None,
            threads: EngineConfig::default().threads,
            solve_edges: 14,
            prove_edges: EngineConfig::default().root_solve_edges,
            lines: 5,
            seed: 0,
            table_mb: 16,
        }
    }
}

/// The exact outcome of a position with best play by both sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The final margin for White (White's score minus Black's) when `exact_margin`, otherwise
    /// only its sign (1 White wins, 0 draw, -1 Black wins).
    pub white: i32,
    /// Whether `white` is the exact margin.
    pub exact_margin: bool,
}

impl Verdict {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self.white.signum() {
            1 => Some(Color::White),
            -1 => Some(Color::Black),
            _ => None,
        }
    }

    /// The expected score of White (1 win, 1/2 draw, 0 loss).
    pub fn white_expected(self) -> f64 {
        (f64::from(self.white.signum()) + 1.0) / 2.0
    }
}

impl fmt::Display for Verdict {
    /// `White wins by 2 with best play`, `Black wins with best play`, `a draw with best play`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self.winner().map(name) {
            None => f.write_str("a draw with best play"),
            Some(c) if self.exact_margin => {
                write!(f, "{c} wins by {} with best play", self.white.abs())
            }
            Some(c) => write!(f, "{c} wins with best play"),
        }
    }
}

/// The engine's view of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The best moves (at most [`Settings::lines`]), best first, valued for the side to move.
    pub moves: Vec<MoveAnalysis>,
    /// The exact outcome, once the solver found it.
    pub verdict: Option<Verdict>,
    /// The expected score of White (1 win, 1/2 draw, 0 loss) with the best move.
    pub white: f64,
    /// Playouts made so far.
    pub playouts: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The step this report ends (1 first).
    pub step: u32,
    /// Whether no further step follows.
    pub done: bool,
}

impl Report {
    /// The report of a finished game: no moves, the final margin as the verdict.
    pub fn game_over(pos: &Position, scoring: Scoring) -> Report {
        let margin = pos.scores(scoring).margin(Color::White);
        let verdict = Verdict {
            white: margin,
            exact_margin: true,
        };
        Report {
            moves: Vec::new(),
            verdict: Some(verdict),
            white: verdict.white_expected(),
            playouts: 0,
            elapsed: Duration::ZERO,
            step: 1,
            done: true,
        }
    }

    /// The report of an analysis that never started.
    fn nothing() -> Report {
        Report {
            moves: Vec::new(),
            verdict: None,
            white: 0.5,
            playouts: 0,
            elapsed: Duration::ZERO,
            step: 0,
            done: true,
        }
    }

    /// The value of the position for `color` as an expected score.
    pub fn expected_for(&self, color: Color) -> f64 {
        match color {
            Color::White => self.white,
            Color::Black => 1.0 - self.white,
        }
    }
}

/// The solver nodes a playout counts as in a budget of work ([`Settings::work`]): about what
/// it costs in time.
pub const PLAYOUT_WORK: u64 = 5;

/// The tree search's playouts in the first step; each step doubles them.
const FIRST_PLAYOUTS: u64 = 2_000;

/// The solver's nodes in the first step; each step doubles them. Against the tree's playouts,
/// about three quarters of the time go to the solver when it works.
const FIRST_NODES: u64 = 30_000;

/// The solver nodes allowed for the line of a move once its value is exact (a few ms with the
/// table warm from the searches that found the value).
const LINE_NODES: u64 = 100_000;

/// The work of a search without any limit.
const DEFAULT_WORK: u64 = 1 << 22;

/// One position's analysis in steps, each continuing the work of the one before: the tree
/// search, and late in the game the exact solver, in turn. The work of a step does not depend on
/// the time the analysis has, so a longer analysis knows everything a shorter one knew: every
/// move keeps a value, its visits only grow, its line stays, and an exact value, once found,
/// stays.
///
/// The solver works move by move, in null-window searches (MTD(f) at the root): first the
/// value of the best move, then that no other move is better (the verdict), then the exact
/// value of every other move, the tree's favourites first. An interrupted search loses only
/// itself; the bounds found before stay.
pub struct Deepening {
    engine: Engine,
    /// Made when a position is late enough to need it, and kept (its table stays warm from
    /// one position of a game to the next).
    solver: Option<Solver>,
    scoring: Scoring,
    settings: Settings,
    state: Option<State>,
}

/// What the analysis of one position knows so far.
struct State {
    pos: Position,
    /// What the solver looks for, if anything.
    mode: Option<SolveMode>,
    /// The solver's bounds for each move, in the tree's last order.
    bounds: Vec<MoveBounds>,
    /// The tree's last word on each move, best first.
    tree: Vec<MoveAnalysis>,
    playouts: u64,
    /// Steps made (each one's work doubles).
    steps: u32,
    started: Instant,
}

/// What the solver knows about one move: its MTD(f) window (bounds on its value for the side
/// to move, a margin or a result by the mode), and once the value is exact, its principal line.
#[derive(Clone, Debug)]
struct MoveBounds {
    mv: Move,
    window: Window,
    pv: Vec<Move>,
}

impl MoveBounds {
    fn exact(&self) -> Option<i32> {
        self.window.exact()
    }

    /// The bounds on the result (-1, 0, 1) that the bounds on the value give.
    fn results(&self, mode: SolveMode) -> (i32, i32) {
        let (lo, hi) = (self.window.lo, self.window.hi);
        match mode {
            SolveMode::Result => (lo, hi),
            SolveMode::Margin => (lo.clamp(-1, 1), hi.clamp(-1, 1)),
        }
    }
}

impl State {
    /// The next null-window test: which move, at which value, and whether it is expected to
    /// fail. `None` when every move's value is exact.
    fn next_test(&self) -> Option<(usize, i32, bool)> {
        // The move known best, or the tree's favourite, gets its exact value first.
        let best = (0..self.bounds.len())
            .rev()
            .max_by_key(|&i| self.bounds[i].window.lo)?;
        let b = &self.bounds[best];
        if b.exact().is_none() {
            let (beta, fail) = b.window.next();
            return Some((best, beta, fail));
        }
        // Then no move may be better (that settles the verdict).
        let value = b.window.lo;
        if let Some(i) = self.bounds.iter().position(|m| m.window.hi > value) {
            return Some((i, value + 1, true));
        }
        // Then every move's exact value, the tree's favourites first.
        let i = self.bounds.iter().position(|m| m.exact().is_none())?;
        let (beta, fail) = self.bounds[i].window.next();
        Some((i, beta, fail))
    }

    /// Whether the solver knows every move's exact value.
    fn complete(&self) -> bool {
        self.mode.is_some() && self.bounds.iter().all(|m| m.exact().is_some())
    }
}

impl Deepening {
    /// A fresh analysis for games scored with `scoring`.
    pub fn new(scoring: Scoring, settings: &Settings) -> Deepening {
        let threads = settings.threads.max(1);
        let config = EngineConfig {
            threads,
            reuse: true,
            seed: settings.seed,
            tree_mb: 64,
            table_mb: 16,
            // The root is this analysis's solver's.
            root_solve_edges: 0,
            ..EngineConfig::default()
        };
        Deepening {
            engine: Engine::new(config, scoring),
            solver: None,
            scoring,
            settings: settings.clone(),
            state: None,
        }
    }

    /// Analyses `pos` within [`Settings::time`] (and [`Settings::work`]), calling `on_step`
    /// with the report after each step; the last one, with `done` set, is also returned.
    pub fn run(&mut self, pos: &Position, on_step: impl FnMut(&Report)) -> Report {
        self.start(pos);
        let limits = Limits {
            time: Some(self.settings.time),
            nodes: self.settings.work,
            stop: None,
            turns: None,
        };
        self.advance(&limits, on_step)
    }

    /// Starts the analysis of `pos` afresh (the solver's table is kept).
    pub fn start(&mut self, pos: &Position) {
        self.engine.clear();
        let edges = pos.edges_left();
        let mode = if edges <= self.settings.solve_edges {
            Some(SolveMode::Margin)
        } else if edges <= self.settings.prove_edges {
            Some(SolveMode::Result)
        } else {
            None
        };
        let (lo, hi) = match mode {
            Some(SolveMode::Result) => (-1, 1),
            _ => (-INF, INF),
        };
        let bounds = pos
            .legal_moves()
            .iter()
            .map(|&mv| MoveBounds {
                mv,
                window: Window::new(lo, hi, 0),
                pv: Vec::new(),
            })
            .collect();
        // Until the tree has looked, every move is an even bet with only itself as its line.
        let tree = pos
            .legal_moves()
            .iter()
            .map(|&mv| MoveAnalysis {
                mv,
                value: Value::Estimate(0.5),
                visits: 0,
                pv: vec![mv],
            })
            .collect();
        self.state = Some(State {
            pos: *pos,
            mode,
            bounds,
            tree,
            playouts: 0,
            steps: 0,
            started: Instant::now(),
        });
    }

    /// Goes on with the analysis [`Deepening::start`] began, in steps, until `limits` run out
    /// (their node budget counts work, as [`Settings::work`]) or every move's value is exact;
    /// calls `on_step` after each step, and returns the last report (`done` set).
    pub fn advance(&mut self, limits: &Limits, mut on_step: impl FnMut(&Report)) -> Report {
        let Some(pos) = self.state.as_ref().map(|s| s.pos) else {
            return Report::nothing();
        };
        if pos.is_game_over() {
            let report = Report::game_over(&pos, self.scoring);
            on_step(&report);
            return report;
        }
        let clock = limits.start();
        let budget = match (limits.nodes, limits.time, &limits.stop) {
            (Some(n), _, _) => n,
            (None, None, None) => DEFAULT_WORK,
            _ => u64::MAX,
        };
        let mut used = 0u64;
        while let Some(state) = self.state.as_mut() {
            let doubling = 1u64 << state.steps.min(30);
            state.steps += 1;
            // The tree search: every move gets visits, a value and a line.
            let playouts = (FIRST_PLAYOUTS * doubling).min((budget - used) / PLAYOUT_WORK);
            if playouts > 0 {
                // When the solver works, the tree's step takes at most a quarter of the time
                // this call has (a stream's steps grow past its interval), so that the solver
                // gets its turn in every call.
                let share = match (state.mode, limits.time) {
                    (Some(_), Some(t)) => t / 4,
                    _ => Duration::MAX,
                };
                // The first step always runs to its end (a few milliseconds): however short the
                // analysis, every move has visits and a line.
                let first = state.steps == 1 && state.playouts == 0;
                let tree_limits = Limits {
                    time: clock
                        .remaining()
                        .map(|left| left.min(share))
                        .filter(|_| !first),
                    nodes: Some(playouts),
                    stop: limits.stop.clone(),
                    turns: limits.turns.clone(),
                };
                let analysis = self.engine.analyze(&pos, &tree_limits);
                used += analysis.playouts * PLAYOUT_WORK;
                state.playouts += analysis.playouts;
                state.tree = analysis.moves;
                // The solver takes the moves in the tree's order.
                let order = |mv: Move| state.tree.iter().position(|m| m.mv == mv);
                state.bounds.sort_by_key(|b| order(b.mv));
            }
            // The solver: null-window searches, one move at a time.
            if let Some(mode) = state.mode {
                let solver = self.solver.get_or_insert_with(|| {
                    let mut solver = Solver::new(self.scoring, self.settings.table_mb.max(1));
                    solver.set_threads(self.settings.threads);
                    solver
                });
                let mut nodes = (FIRST_NODES * doubling).min(budget - used);
                while nodes > 0
                    && let Some((i, beta, fail)) = state.next_test()
                {
                    let mv = state.bounds[i].mv;
                    let mut child = pos;
                    child.play_unchecked(mv);
                    let found = solver.probe(
                        &child,
                        mode,
                        1 - beta,
                        fail,
                        clock.clone().with_nodes(nodes),
                    );
                    let spent = solver.nodes();
                    let Some(v) = found else {
                        used += spent;
                        break;
                    };
                    let b = &mut state.bounds[i];
                    b.window.record(beta, -v);
                    let mut spent = spent;
                    if let Some(exact) = b.exact() {
                        let line =
                            solver.line(&child, mode, -exact, clock.clone().with_nodes(LINE_NODES));
                        spent += solver.nodes();
                        b.pv = std::iter::once(mv).chain(line).collect();
                        // A sibling's value is a good first guess.
                        for other in &mut state.bounds {
                            if !other.window.probed() {
                                other.window.set_guess(exact);
                            }
                        }
                    }
                    used += spent;
                    nodes = nodes.saturating_sub(spent);
                }
            }
            let finished = state.complete() || clock.expired() || used >= budget;
            let mut report = self.report();
            report.done = finished;
            on_step(&report);
            if finished {
                return report;
            }
        }
        Report::nothing()
    }

    /// Whether every move's exact value is known (in the solver's mode): searching longer
    /// changes nothing.
    pub fn complete(&self) -> bool {
        self.state.as_ref().is_some_and(State::complete)
    }

    /// The tree search's own estimate of each move (expected score), beside the exact values:
    /// `None` for a move it has not visited.
    pub fn estimates(&self) -> Vec<(Move, Option<f64>)> {
        let Some(state) = &self.state else {
            return Vec::new();
        };
        state
            .tree
            .iter()
            .map(|m| {
                let e = match m.value {
                    Value::Estimate(p) if m.visits > 0 => Some(p),
                    Value::Estimate(_) => None,
                    Value::Exact { .. } => Some(m.value.expected()),
                };
                (m.mv, e)
            })
            .collect()
    }

    /// The report of what is known now.
    fn report(&self) -> Report {
        let Some(state) = &self.state else {
            return Report::nothing();
        };
        let me = state.pos.side_to_move();
        let mut moves: Vec<(MoveAnalysis, (i32, i32))> = state
            .tree
            .iter()
            .map(|m| {
                let mut m = m.clone();
                let mut bounds = (-INF, INF);
                if let (Some(mode), Some(b)) =
                    (state.mode, state.bounds.iter().find(|b| b.mv == m.mv))
                {
                    let (rlo, rhi) = b.results(mode);
                    if let Some(v) = b.exact() {
                        m.value = match mode {
                            SolveMode::Margin => Value::from_margin(v),
                            SolveMode::Result => Value::Exact {
                                result: v as i8,
                                margin: None,
                            },
                        };
                        m.pv.clone_from(&b.pv);
                    } else if rlo == rhi && !matches!(m.value, Value::Exact { .. }) {
                        m.value = Value::Exact {
                            result: rlo as i8,
                            margin: None,
                        };
                    }
                    bounds = (b.window.lo, b.window.hi);
                }
                (m, bounds)
            })
            .collect();
        sort_moves(&mut moves);
        let mut moves: Vec<MoveAnalysis> = moves.into_iter().map(|(m, _)| m).collect();

        // The verdict: the solver's bounds on the root, or else the results of the moves.
        let mode = state.mode.unwrap_or(SolveMode::Result);
        let top = |f: &dyn Fn(&MoveBounds) -> i32| state.bounds.iter().map(f).max();
        let solved = match (top(&|b| b.window.lo), top(&|b| b.window.hi)) {
            (Some(lo), Some(hi)) if lo == hi && state.mode.is_some() => Some(Verdict {
                white: white_side(me, lo),
                exact_margin: mode == SolveMode::Margin,
            }),
            _ => None,
        };
        let results = |m: &MoveAnalysis| match m.value {
            Value::Exact { result, .. } => (i32::from(result), i32::from(result)),
            Value::Estimate(_) => (-1, 1),
        };
        let proven = moves
            .iter()
            .map(results)
            .reduce(|a, b| (a.0.max(b.0), a.1.max(b.1)));
        let verdict = solved.or(match proven {
            Some((lo, hi)) if lo == hi => Some(Verdict {
                white: white_side(me, lo),
                exact_margin: false,
            }),
            _ => None,
        });
        moves.truncate(self.settings.lines.max(1));
        let mine = moves.first().map_or(0.5, |m| m.value.expected());
        let white = match verdict {
            Some(v) => v.white_expected(),
            None if me == Color::White => mine,
            None => 1.0 - mine,
        };
        Report {
            moves,
            verdict,
            white,
            playouts: state.playouts,
            elapsed: state.started.elapsed(),
            step: state.steps,
            done: false,
        }
    }
}

/// Best first: proven wins (the largest margin, or the largest known lower bound, first), then
/// the moves of unknown value and proven draws (most visits first; draws ahead when the tree's
/// favourite scores worse than a draw), then proven losses (the smallest loss first: the best
/// defence); a win or loss without a margin counts as the solver's bound on it.
fn sort_moves(moves: &mut [(MoveAnalysis, (i32, i32))]) {
    let below_draw = moves
        .iter()
        .filter(|(m, _)| matches!(m.value, Value::Estimate(_)))
        .max_by_key(|(m, _)| m.visits)
        .is_some_and(|(m, _)| m.value.expected() < 0.5);
    let rank = |(m, (lo, hi)): &(MoveAnalysis, (i32, i32))| {
        let (class, key, margin) = match m.value {
            Value::Exact { result: 1, margin } => {
                (3, margin.unwrap_or((*lo).max(1)), margin.is_some())
            }
            Value::Exact { result: 0, .. } => (1 + i32::from(below_draw), 0, false),
            Value::Exact { margin, .. } => (0, margin.unwrap_or((*hi).min(-1)), margin.is_some()),
            Value::Estimate(_) => (1, 0, false),
        };
        std::cmp::Reverse((class, key, margin, m.visits))
    };
    moves.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.0.mv.cmp(&b.0.mv)));
}

/// A value for `side` seen from White, or (the same sign change) White's value seen from `side`.
fn white_side(side: Color, value: i32) -> i32 {
    match side {
        Color::White => value,
        Color::Black => -value,
    }
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Judgement {
    /// The engine's first choice, or as good.
    Best,
    /// Lost a little or nothing.
    Good,
    /// Lost at least [`MISTAKE`] of an expected score.
    Mistake,
    /// Lost at least [`BLUNDER`] of an expected score, or changed the exact result.
    Blunder,
}

impl Judgement {
    /// The word for it: `best`, `good`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Best => "best",
            Judgement::Good => "good",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A loss of expected score (win 1, draw 1/2) from which a move is a mistake.
pub const MISTAKE: f64 = 0.1;
/// A loss of expected score from which a move is a blunder.
pub const BLUNDER: f64 = 0.25;

/// What the engine says about one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// The move's index in the game (0 first).
    pub index: usize,
    /// The move played.
    pub played: Move,
    /// Who played it.
    pub mover: Color,
    /// Its value for the mover: the value of the position it led to.
    pub value: Value,
    /// The engine's preferred move, with its value and line, when it is another move.
    pub best: Option<MoveAnalysis>,
    /// The expected score the move lost against the best one (0 or more).
    pub loss: f64,
    /// How bad it was.
    pub judgement: Judgement,
}

impl Note {
    /// The comment written into a record: `engine 48.2%; best c8-c5 55.1% (c8-c5 e1-e4 ...);
    /// mistake`, or `engine 55.1%, the engine's choice`.
    pub fn comment(&self) -> String {
        let mut text = match &self.best {
            None => format!("engine {}, the engine's choice", self.value),
            Some(best) => {
                let pv: Vec<String> = best.pv.iter().take(6).map(Move::to_string).collect();
                format!(
                    "engine {}; best {} {} ({})",
                    self.value,
                    best.mv,
                    best.value,
                    pv.join(" ")
                )
            }
        };
        if matches!(self.judgement, Judgement::Mistake | Judgement::Blunder) {
            text.push_str(&format!(
                "; {} (-{:.0}%)",
                self.judgement.name(),
                100.0 * self.loss
            ));
        }
        text
    }
}

/// The value of the position `report` describes for the player who moved into it.
fn value_after(after: &Position, report: &Report, mover: Color, scoring: Scoring) -> Value {
    if after.is_game_over() {
        return Value::from_margin(after.scores(scoring).margin(mover));
    }
    if let Some(v) = report.verdict {
        let margin = white_side(mover, v.white);
        return Value::Exact {
            result: margin.signum() as i8,
            margin: v.exact_margin.then_some(margin),
        };
    }
    match report.moves.first() {
        Some(m) => m.value.flipped(),
        None => Value::Estimate(report.expected_for(mover)),
    }
}

/// One note per move of a game, from the positions (the start and after every move, as
/// [`mabula::Game::positions`] gives them) and their reports. A move that was the only legal one
/// is noted too (as best).
pub fn annotate(
    positions: &[Position],
    moves: &[Move],
    reports: &[Report],
    scoring: Scoring,
) -> Vec<Note> {
    let mut notes = Vec::with_capacity(moves.len());
    for (i, &played) in moves.iter().enumerate() {
        let (Some(before), Some(after), Some(rb), Some(ra)) = (
            positions.get(i),
            positions.get(i + 1),
            reports.get(i),
            reports.get(i + 1),
        ) else {
            break;
        };
        let mover = before.side_to_move();
        let value = value_after(after, ra, mover, scoring);
        let best_for_mover = rb.expected_for(mover);
        let loss = (best_for_mover - value.expected()).max(0.0);
        let engine_best = rb.moves.first().filter(|m| m.mv != played).cloned();
        let exact_drop = matches!(
            (rb.verdict, value),
            (Some(_), Value::Exact { .. }) if loss >= 0.5
        );
        let judgement = if engine_best.is_none() {
            Judgement::Best
        } else if exact_drop || loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else {
            Judgement::Good
        };
        notes.push(Note {
            index: i,
            played,
            mover,
            value,
            best: engine_best,
            loss,
            judgement,
        });
    }
    notes
}

/// The evaluation graph: the expected score of White at the start and after every move.
pub fn white_values(reports: &[Report]) -> Vec<f64> {
    reports.iter().map(|r| r.white).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::deal;

    fn late_position(seed: u64, plies: usize) -> Position {
        let mut pos = deal::random(seed, Color::White);
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let mv = pos.legal_moves()[0];
            pos.play_unchecked(mv);
        }
        pos
    }

    fn quick() -> Settings {
        Settings {
            time: Duration::from_millis(60),
            threads: 1,
            seed: 1,
            ..Settings::default()
        }
    }

    #[test]
    fn deepening_reports_each_step_and_stays_in_time() {
        let pos = deal::random(3, Color::White);
        let mut steps = Vec::new();
        let started = Instant::now();
        let r = Deepening::new(Scoring::Largest, &quick()).run(&pos, |r| steps.push(r.step));
        assert!(started.elapsed() < Duration::from_millis(1000));
        assert!(steps.iter().zip(1..).all(|(&s, n)| s == n), "{steps:?}");
        // Steps of 2,000, 4,000 and (the rest of the budget) 4,000 playouts.
        let settings = Settings {
            work: Some(10_000 * PLAYOUT_WORK),
            time: Duration::from_secs(600),
            ..quick()
        };
        let mut playouts = Vec::new();
        Deepening::new(Scoring::Largest, &settings).run(&pos, |r| playouts.push(r.playouts));
        assert_eq!(playouts, vec![2_000, 6_000, 10_000]);
        assert!(r.done);
        assert!(r.moves.len() <= 5 && !r.moves.is_empty());
        assert!(r.verdict.is_none(), "no solver so early: {:?}", r.verdict);
    }

    /// A position `left` marbles from the end, reached by random moves from the deal `seed`.
    fn endgame(seed: u64, left: u32) -> Position {
        let mut pos = deal::random(seed, Color::White);
        let mut rng = crate::rng::Rng::new(seed);
        while pos.edges_left() > left && !pos.is_game_over() {
            pos.play_unchecked(pos.nth_move(rng.below(pos.count_moves())));
        }
        pos
    }

    /// An analysis on one thread under a budget of work (reproducible).
    fn with_work(pos: &Position, scoring: Scoring, work: u64) -> Report {
        let settings = Settings {
            time: Duration::from_secs(600),
            work: Some(work),
            threads: 1,
            lines: usize::MAX,
            seed: 3,
            ..Settings::default()
        };
        Deepening::new(scoring, &settings).run(pos, |_| {})
    }

    /// What a longer analysis must keep of a shorter one.
    fn assert_keeps(pos: &Position, short: &Report, long: &Report, what: &str) {
        assert_eq!(short.moves.len(), pos.legal_moves().len(), "{what}");
        assert_eq!(long.moves.len(), short.moves.len(), "{what}");
        for m in &short.moves {
            let l = long
                .moves
                .iter()
                .find(|l| l.mv == m.mv)
                .expect("every move");
            let at = format!("{what}: {pos} {}: {:?} then {:?}", m.mv, m, l);
            assert!(l.visits >= m.visits, "{at}");
            assert_eq!(l.pv.first(), Some(&l.mv), "{at}");
            assert!(l.pv.len() >= m.pv.len().min(2), "{at}");
            if let Value::Exact { result, margin } = m.value {
                let Value::Exact {
                    result: r,
                    margin: g,
                } = l.value
                else {
                    panic!("an exact value lost: {at}");
                };
                assert_eq!(result, r, "{at}");
                if margin.is_some() {
                    assert_eq!(margin, g, "{at}");
                }
            }
        }
        assert_best_first(pos, long, what);
        if let Some(v) = short.verdict {
            let w = long.verdict.expect("a verdict lost");
            assert_eq!(v.white.signum(), w.white.signum(), "{what}");
            if v.exact_margin {
                assert_eq!(v, w, "{what}");
            }
        }
    }

    /// Best first: proven wins, then the moves of unknown value and draws, then proven losses;
    /// among the moves with an exact margin, the larger margin first.
    fn assert_best_first(pos: &Position, report: &Report, what: &str) {
        let class = |m: &MoveAnalysis| match m.value {
            Value::Exact { result: 1, .. } => 2,
            Value::Exact { result: -1, .. } => 0,
            _ => 1,
        };
        let classes: Vec<i32> = report.moves.iter().map(class).collect();
        assert!(
            classes.windows(2).all(|w| w[0] >= w[1]),
            "{what}: {pos}: {classes:?}"
        );
        let margins: Vec<i32> = report.moves.iter().filter_map(margin_of).collect();
        assert!(
            margins.windows(2).all(|w| w[0] >= w[1]),
            "{what}: {pos}: {margins:?}"
        );
    }

    /// The margin of an exact move, the bound a proven result gives otherwise.
    fn margin_of(m: &MoveAnalysis) -> Option<i32> {
        match m.value {
            Value::Exact { margin, .. } => margin,
            Value::Estimate(_) => None,
        }
    }

    #[test]
    fn a_longer_analysis_never_knows_less_than_a_shorter_one() {
        let budgets = [3_000, 40_000, 150_000, 600_000, 2_500_000];
        for (scoring, seed, left) in [
            (Scoring::Largest, 1, 11),
            (Scoring::Product, 2, 11),
            (Scoring::Largest, 4, 15),
        ] {
            let pos = endgame(seed, left);
            let reports: Vec<Report> = budgets
                .iter()
                .map(|&w| with_work(&pos, scoring, w))
                .collect();
            for (i, pair) in reports.windows(2).enumerate() {
                let what = format!("{scoring} budgets {} and {}", budgets[i], budgets[i + 1]);
                assert_keeps(&pos, &pair[0], &pair[1], &what);
            }
            // Even the shortest has looked at every move with the tree.
            assert!(reports[0].moves.iter().all(|m| m.visits > 0), "{pos}");
            // The same budget gives the same analysis.
            let again = with_work(&pos, scoring, budgets[2]);
            assert_eq!(
                (&again.moves, again.verdict, again.playouts),
                (&reports[2].moves, reports[2].verdict, reports[2].playouts)
            );
            if left <= Settings::default().solve_edges {
                // The longest knows every move's exact margin, the solver's.
                let last = reports.last().expect("reports");
                let exact = Solver::new(scoring, 16)
                    .solve_moves(&pos, SolveMode::Margin, &Limits::none())
                    .expect("solved");
                for m in &last.moves {
                    let want = exact.iter().find(|e| e.0 == m.mv).map(|e| e.1);
                    assert_eq!(margin_of(m), want, "{pos} {}", m.mv);
                }
                let v = last.verdict.expect("solved");
                assert_eq!(v.white, white_side(pos.side_to_move(), exact[0].1));
                assert!(v.exact_margin);
            }
        }
    }

    #[test]
    fn an_analysis_continued_in_small_pieces_keeps_what_it_knew_until_every_move_is_exact() {
        // The protocol's streams continue one analysis from update to update.
        let pos = endgame(7, 11);
        let settings = Settings {
            threads: 1,
            lines: usize::MAX,
            ..Settings::default()
        };
        let mut deepening = Deepening::new(Scoring::Product, &settings);
        deepening.start(&pos);
        let mut last: Option<Report> = None;
        for piece in 0.. {
            let report = deepening.advance(&Limits::nodes(50_000), |_| {});
            if let Some(before) = &last {
                assert_keeps(&pos, before, &report, &format!("piece {piece}"));
            }
            last = Some(report);
            if deepening.complete() {
                break;
            }
            assert!(piece < 2_000, "{pos}: not exact after {piece} pieces");
        }
        let report = last.expect("a report");
        let exact = Solver::new(Scoring::Product, 16)
            .solve(&pos, SolveMode::Margin, &Limits::none())
            .expect("solved");
        assert_eq!(margin_of(&report.moves[0]), Some(exact.value), "{pos}");
    }

    #[test]
    fn even_an_analysis_without_time_visits_every_move() {
        let pos = endgame(9, 13);
        let settings = Settings {
            time: Duration::ZERO,
            lines: usize::MAX,
            ..quick()
        };
        let r = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
        assert_eq!(r.moves.len(), pos.legal_moves().len());
        assert!(r.playouts >= FIRST_PLAYOUTS, "{}", r.playouts);
        assert!(
            r.moves.iter().all(|m| m.visits > 0 && m.pv.len() > 1),
            "{r:?}"
        );
    }

    #[test]
    fn a_lost_position_lists_the_smallest_loss_first() {
        let mut seen = 0;
        for seed in 0..40 {
            let pos = endgame(seed, 9);
            let exact = Solver::new(Scoring::Largest, 4)
                .solve_moves(&pos, SolveMode::Margin, &Limits::none())
                .expect("solved");
            // Lost, and not every move loses by as much.
            if exact[0].1 >= 0 || exact.last().map(|e| e.1) == Some(exact[0].1) {
                continue;
            }
            seen += 1;
            for work in [2_000_000, 20_000] {
                let r = with_work(&pos, Scoring::Largest, work);
                let margins: Vec<Option<i32>> = r.moves.iter().map(margin_of).collect();
                let known: Vec<i32> = margins.iter().flatten().copied().collect();
                assert!(known.windows(2).all(|w| w[0] >= w[1]), "{pos}: {margins:?}");
                if work > 100_000 {
                    let want: Vec<i32> = exact.iter().map(|e| e.1).collect();
                    assert_eq!(known, want, "{pos}");
                    assert!(r.moves.iter().all(|m| m.pv.len() > 1), "{pos}");
                }
            }
            if seen == 3 {
                return;
            }
        }
        panic!("only {seen} lost positions with different margins");
    }

    #[test]
    fn a_late_position_gets_the_solvers_exact_margin() {
        let pos = late_position(5, 16);
        assert!(!pos.is_game_over());
        let settings = Settings {
            time: Duration::from_secs(5),
            solve_edges: 32,
            ..quick()
        };
        let r = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
        let v = r.verdict.expect("solved");
        let sol = Solver::new(Scoring::Largest, 16)
            .solve(&pos, SolveMode::Margin, &Limits::none())
            .expect("solved");
        assert_eq!(v.white, white_side(pos.side_to_move(), sol.value));
        assert!(v.exact_margin);
        assert!(matches!(r.moves[0].value, Value::Exact { margin: Some(m), .. } if m == sol.value));
    }

    #[test]
    fn a_result_the_engine_proves_is_a_verdict_without_a_margin() {
        let pos = late_position(5, 16);
        let settings = Settings {
            time: Duration::from_secs(2),
            solve_edges: 0,
            ..quick()
        };
        let r = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
        let v = r.verdict.expect("proven by the engine's own solver");
        let result = Solver::new(Scoring::Largest, 16)
            .prove(&pos, Limits::none().start())
            .expect("solved");
        assert_eq!(
            v,
            Verdict {
                white: white_side(pos.side_to_move(), result),
                exact_margin: false
            }
        );
        assert_eq!(r.white, v.white_expected());
    }

    #[test]
    fn the_verdict_reads_like_a_sentence() {
        let v = Verdict {
            white: 2,
            exact_margin: true,
        };
        assert_eq!(v.to_string(), "White wins by 2 with best play");
        let v = Verdict {
            white: -1,
            exact_margin: false,
        };
        assert_eq!(v.to_string(), "Black wins with best play");
    }

    #[test]
    fn notes_mark_the_best_move_and_the_loss() {
        let pos = deal::random(1, Color::White);
        let mut deep = Deepening::new(Scoring::Largest, &quick());
        let before = deep.run(&pos, |_| {});
        let best = before.moves[0].mv;
        let after_best = pos.play(best).expect("legal");
        let ra = deep.run(&after_best, |_| {});
        let notes = annotate(
            &[pos, after_best],
            &[best],
            &[before.clone(), ra],
            Scoring::Largest,
        );
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].judgement, Judgement::Best);
        assert!(notes[0].comment().ends_with("the engine's choice"));

        // A made-up report after another move that loses for sure.
        let other = before.moves[1].mv;
        let after_other = pos.play(other).expect("legal");
        let lost = Report {
            verdict: Some(Verdict {
                white: -3,
                exact_margin: true,
            }),
            white: 0.0,
            ..Report::game_over(&after_other, Scoring::Largest)
        };
        let notes = annotate(
            &[pos, after_other],
            &[other],
            &[before, lost],
            Scoring::Largest,
        );
        assert_eq!(notes[0].judgement, Judgement::Blunder);
        let text = notes[0].comment();
        assert!(
            text.starts_with(&format!("engine loses by 3; best {best} ")),
            "{text}"
        );
        assert!(text.contains("; blunder"), "{text}");
    }
}
