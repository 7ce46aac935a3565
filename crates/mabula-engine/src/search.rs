//! The search facade: an [`Engine`] that keeps its trees and table between moves, and the
//! [`Analysis`] it answers with.
//!
//! A search runs the tree search ([`crate::mcts`]) on every thread but one (root parallelism:
//! one tree per thread, statistics added up at the end). When few enough marbles are left on edge
//! spaces, the last thread runs the exact solver on the root at the same time; if it finishes,
//! its answer wins and the search ends early. With one thread the solver gets half the budget
//! first. With one thread, a playout budget and a seed the search is deterministic.
//!
//! A proven win is played at once. In a proven draw or loss, the time left goes to the practical
//! chances: the move after which the most of the opponent's replies would give the game away.

use crate::limits::{Clock, Limits};
use crate::mcts::{ChildStats, MctsConfig, Worker};
use crate::rng::Rng;
use crate::solver::{Solution, SolveMode, Solver};
use crate::tt::Table;
use mabula::{Move, Position, Scoring};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Solver nodes allowed for the principal line after a move chosen for its practical chances
/// (a few milliseconds, spent after the deadline).
const LINE_NODES: u64 = 20_000;

/// Everything an [`Engine`] can be told.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Threads to search with.
    pub threads: usize,
    /// Memory for the trees, over all threads, in MB.
    pub tree_mb: usize,
    /// Memory for the solver's transposition table, in MB.
    pub table_mb: usize,
    /// The tree search settings (its `capacity` is set from `tree_mb`).
    pub mcts: MctsConfig,
    /// Solve the root exactly when at most this many marbles are left on edge spaces (0: never).
    pub root_solve_edges: u32,
    /// Softmax temperature over move values when choosing a move (0: always the best). Values
    /// are expected scores (win 1, draw 1/2), so 0.05 makes a move 0.05 worse e times less likely.
    pub temperature: f64,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// Seed of every random choice.
    pub seed: u64,
    /// In a proven draw or loss, spend the time left on finding the move that gives the
    /// opponent the most chances to go wrong.
    pub practical: bool,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(64),
            tree_mb: 256,
            table_mb: 64,
            mcts: MctsConfig::default(),
            root_solve_edges: 16,
            temperature: 0.0,
            reuse: true,
            seed: 0,
            practical: true,
        }
    }
}

impl EngineConfig {
    /// The textbook baseline: plain UCT with uniformly random playouts on one thread, no solver.
    pub fn baseline() -> EngineConfig {
        EngineConfig {
            threads: 1,
            table_mb: 1,
            mcts: MctsConfig::baseline(),
            root_solve_edges: 0,
            reuse: false,
            ..EngineConfig::default()
        }
    }
}

/// The value of a move for the side to move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Value {
    /// The expected score from playouts: 1 a win, 1/2 a draw, 0 a loss.
    Estimate(f64),
    /// The exact result: 1 win, 0 draw, -1 loss; with the final score margin when known.
    Exact {
        /// -1, 0 or 1.
        result: i8,
        /// The final score margin with best play, when it was computed.
        margin: Option<i32>,
    },
}

impl Value {
    /// The exact value of a known final margin.
    pub fn from_margin(margin: i32) -> Value {
        Value::Exact {
            result: margin.signum() as i8,
            margin: Some(margin),
        }
    }

    /// The same value seen from the other side.
    pub fn flipped(self) -> Value {
        match self {
            Value::Estimate(p) => Value::Estimate(1.0 - p),
            Value::Exact { result, margin } => Value::Exact {
                result: -result,
                margin: margin.map(|m| -m),
            },
        }
    }

    /// The value as an expected score (win 1, draw 1/2, loss 0).
    pub fn expected(self) -> f64 {
        match self {
            Value::Estimate(p) => p,
            Value::Exact { result, .. } => (f64::from(result) + 1.0) / 2.0,
        }
    }

    /// The value as one word, for the engine protocol: `0.634`, `win`, `draw`, `loss`, or with a
    /// margin `win+2`, `loss-3`.
    pub fn token(self) -> String {
        match self {
            Value::Estimate(p) => format!("{p:.3}"),
            Value::Exact { result, margin } => {
                let word = match result {
                    1 => "win",
                    0 => "draw",
                    _ => "loss",
                };
                match margin {
                    Some(m) if m != 0 => format!("{word}{m:+}"),
                    _ => word.to_string(),
                }
            }
        }
    }
}

impl fmt::Display for Value {
    /// For people: `63.4%`, `win`, `wins by 2`, `draw`, `loses by 3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Estimate(p) => write!(f, "{:.1}%", 100.0 * p),
            Value::Exact { result: 0, .. } => f.write_str("draw"),
            Value::Exact {
                result,
                margin: Some(m),
            } => {
                let verb = if result > 0 { "wins" } else { "loses" };
                write!(f, "{verb} by {}", m.abs())
            }
            Value::Exact {
                result,
                margin: None,
            } => f.write_str(if result > 0 { "win" } else { "loss" }),
        }
    }
}

/// What the engine thinks of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move.
    pub value: Value,
    /// Playouts through it.
    pub visits: u64,
    /// The principal line, this move first.
    pub pv: Vec<Move>,
}

/// The answer of a search: every legal move, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Every legal move with its value, best first (empty when the game is over).
    pub moves: Vec<MoveAnalysis>,
    /// The exact solution of the position, when the solver finished in time.
    pub solved: Option<Solution>,
    /// Playouts made (all threads).
    pub playouts: u64,
    /// Nodes searched by the root solver.
    pub solver_nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl Analysis {
    /// The best move ([`Move::PASS`] when passing is forced or the game is over).
    pub fn best(&self) -> Move {
        self.moves.first().map_or(Move::PASS, |m| m.mv)
    }
}

/// A player: settings, and the trees and table it keeps between moves.
pub struct Engine {
    config: EngineConfig,
    scoring: Scoring,
    table: Option<Arc<Table>>,
    workers: Vec<Worker>,
    searches: u64,
}

impl Engine {
    /// An engine for games scored with `scoring`.
    pub fn new(config: EngineConfig, scoring: Scoring) -> Engine {
        Engine {
            config,
            scoring,
            table: None,
            workers: Vec::new(),
            searches: 0,
        }
    }

    /// The settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The scoring mode played for.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// Plays for another scoring mode from now on (forgets what it learnt).
    pub fn set_scoring(&mut self, scoring: Scoring) {
        if scoring != self.scoring {
            self.scoring = scoring;
            self.workers.clear();
            self.table = None;
        }
    }

    /// Forgets the trees (not the settings), as before a new game.
    pub fn clear(&mut self) {
        self.workers.clear();
    }

    fn table(&mut self) -> Arc<Table> {
        let mb = self.config.table_mb;
        Arc::clone(self.table.get_or_insert_with(|| Arc::new(Table::new(mb))))
    }

    fn needs_solver(&self) -> bool {
        self.config.mcts.prove
            && (self.config.mcts.solve_edges > 0 || self.config.root_solve_edges > 0)
    }

    /// Prepares one worker per tree-search thread, with trees moved to `pos` where possible.
    fn workers_for(&mut self, pos: &Position, count: usize, max_copy: usize) {
        let solver = self.needs_solver().then(|| self.table());
        if self.workers.len() != count || !self.config.reuse {
            self.workers.clear();
        }
        let capacity = (self.config.tree_mb << 20) / self.config.mcts.node_bytes() / count.max(1);
        let mut config = self.config.mcts.clone();
        config.capacity = capacity;
        let seed = self.config.seed ^ self.searches.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if self.workers.is_empty() {
            for i in 0..count {
                let s = solver
                    .as_ref()
                    .map(|t| Solver::with_table(self.scoring, Arc::clone(t)));
                let w = Worker::new(*pos, self.scoring, config.clone(), seed ^ i as u64, s);
                self.workers.push(w);
            }
        } else {
            for (i, w) in self.workers.iter_mut().enumerate() {
                w.tree.advance(pos, self.scoring, max_copy);
                w.reseed(seed ^ i as u64);
            }
        }
    }

    /// Searches `pos` within `limits` and returns every move with its value. Without any limit
    /// the search makes 200,000 playouts.
    pub fn analyze(&mut self, pos: &Position, limits: &Limits) -> Analysis {
        let started = Instant::now();
        let mut limits = limits.clone();
        if limits.time.is_none() && limits.nodes.is_none() && limits.stop.is_none() {
            limits.nodes = Some(200_000);
        }
        let halt = Arc::new(AtomicBool::new(false));
        let clock = limits.start().with_halt(Arc::clone(&halt));
        self.searches += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Analysis {
                moves: Vec::new(),
                solved: None,
                playouts: 0,
                solver_nodes: 0,
                elapsed: started.elapsed(),
            };
        }
        let edges = pos.edges_left();
        let threads = self.config.threads.max(1);
        let root_solve = self.config.mcts.prove && edges <= self.config.root_solve_edges;
        let tree_threads = if root_solve && threads > 1 {
            threads - 1
        } else {
            threads
        };
        // Copying a reused tree must not eat much of the thinking time: at most 2,000 nodes per
        // ms (copying runs at 20 to 50 million nodes a second).
        let max_copy = limits
            .time
            .map_or(usize::MAX, |t| (t.as_millis() as usize).max(1) * 2000);
        self.workers_for(pos, tree_threads, max_copy);
        let budget = limits
            .nodes
            .map_or(u64::MAX, |n| n.div_ceil(tree_threads as u64));

        let mut solved = None;
        let mut solver_nodes = 0;
        if root_solve {
            let table = self.table();
            let mut solver = Solver::with_table(self.scoring, table);
            solver.hint(pos, &self.favourites());
            if threads > 1 {
                let workers = &mut self.workers;
                let solver = &mut solver;
                std::thread::scope(|scope| {
                    let solver_clock = clock.clone();
                    let halt = Arc::clone(&halt);
                    let handle = scope.spawn(move || {
                        let sol = solver.solve_with_clock(pos, SolveMode::Result, solver_clock);
                        if sol.is_some() {
                            halt.store(true, Ordering::Relaxed);
                        }
                        sol
                    });
                    run_workers(workers, &clock, budget);
                    solved = handle.join().unwrap_or(None);
                });
            } else {
                let solver_clock = match (limits.time, limits.nodes) {
                    (Some(t), _) => clock.clone().until(clock.start + t / 2),
                    (None, Some(n)) => clock.clone().with_nodes(n.saturating_mul(16)),
                    (None, None) => clock.clone(),
                };
                solved = solver.solve_with_clock(pos, SolveMode::Result, solver_clock);
                if solved.is_none() {
                    run_workers(&mut self.workers, &clock, budget);
                }
            }
            solver_nodes = solver.nodes();
            if let Some(sol) = solved
                .as_mut()
                .filter(|s| s.value <= 0 && self.config.practical)
            {
                // The halt flag only told the trees that the solver was done.
                let mut clock = clock.clone();
                clock.halt = None;
                solver_nodes += self.practical_chances(&mut solver, pos, sol, clock);
            }
        } else {
            run_workers(&mut self.workers, &clock, budget);
        }
        let playouts = self.workers.iter().map(|w| w.playouts).sum();
        let mut analysis = Analysis {
            moves: self.merge(pos),
            solved: None,
            playouts,
            solver_nodes,
            elapsed: started.elapsed(),
        };
        if let Some(sol) = solved {
            analysis.adopt(sol);
        }
        analysis
    }

    /// In a proven draw or loss, looks for the move that leaves the opponent the most ways to go
    /// wrong: among the moves that keep the proven result, the one after which the largest share
    /// of the opponent's replies would give more than that result away (a draw counts half a
    /// win). The trees' favourites are looked at first; when the time or the node budget runs
    /// out, the best move so far is played (in a loss, at worst the trees' favourite). Returns
    /// the solver nodes spent.
    fn practical_chances(
        &self,
        solver: &mut Solver,
        pos: &Position,
        sol: &mut Solution,
        clock: Clock,
    ) -> u64 {
        let mut candidates = self.favourites();
        for mv in pos.legal_moves() {
            if !candidates.contains(&mv) {
                candidates.push(mv);
            }
        }
        if sol.value < 0 {
            sol.best = candidates[0];
        }
        let mut used = 0;
        let mut prove = |p: &Position| {
            let v = solver.prove(
                p,
                clock.clone().with_nodes(clock.nodes.saturating_sub(used)),
            );
            used += solver.nodes();
            v
        };
        let mut best_share = 0.0;
        'moves: for mv in candidates {
            let mut child = *pos;
            child.play_unchecked(mv);
            // In a loss every move keeps the result; in a draw, only some do.
            if sol.value == 0 {
                match prove(&child) {
                    None => break,
                    Some(v) if v > 0 => continue,
                    Some(_) => {}
                }
            }
            let replies = child.legal_moves();
            let mut gifts = 0;
            for &reply in replies.iter() {
                let mut next = child;
                next.play_unchecked(reply);
                match prove(&next) {
                    Some(v) => gifts += (v - sol.value).max(0),
                    None => break 'moves,
                }
            }
            let share = f64::from(gifts) / replies.len().max(1) as f64;
            if share > best_share {
                best_share = share;
                sol.best = mv;
            }
        }
        if sol.pv.first() != Some(&sol.best) {
            // The line after the new move, if the table (warm by now) gives it cheaply.
            let mut child = *pos;
            child.play_unchecked(sol.best);
            let limits = Limits::nodes(LINE_NODES);
            let line = solver.solve(&child, SolveMode::Result, &limits);
            used += solver.nodes();
            let rest = line.map_or(Vec::new(), |l| l.pv);
            sol.pv = std::iter::once(sol.best).chain(rest).collect();
        }
        used
    }

    /// The root moves in the order the trees like them (for the solver's move ordering).
    fn favourites(&self) -> Vec<Move> {
        let mut stats = self.merged_stats();
        stats.sort_by_key(|s| std::cmp::Reverse(s.visits));
        stats
            .into_iter()
            .filter(|s| s.visits > 0)
            .map(|s| s.mv)
            .collect()
    }

    /// The root statistics of all workers, added up.
    fn merged_stats(&self) -> Vec<ChildStats> {
        let mut merged: Vec<ChildStats> = Vec::new();
        for w in &self.workers {
            for s in w.tree.root_stats() {
                match merged.iter_mut().find(|m| m.mv == s.mv) {
                    Some(m) => {
                        if s.visits > m.visits {
                            m.pv = s.pv;
                        }
                        m.visits += s.visits;
                        m.wins += s.wins;
                        m.pess = m.pess.max(s.pess);
                        m.opt = m.opt.min(s.opt);
                    }
                    None => merged.push(s),
                }
            }
        }
        merged
    }

    fn merge(&self, pos: &Position) -> Vec<MoveAnalysis> {
        let stats = self.merged_stats();
        let mut out: Vec<MoveAnalysis> = pos
            .legal_moves()
            .iter()
            .map(|&mv| match stats.iter().find(|s| s.mv == mv) {
                Some(s) => MoveAnalysis {
                    mv,
                    value: if s.pess >= s.opt {
                        Value::Exact {
                            result: s.pess,
                            margin: None,
                        }
                    } else if s.visits == 0 {
                        Value::Estimate(0.5)
                    } else {
                        Value::Estimate(s.wins as f64 / (2 * s.visits) as f64)
                    },
                    visits: s.visits,
                    pv: s.pv.clone(),
                },
                None => MoveAnalysis {
                    mv,
                    value: Value::Estimate(0.5),
                    visits: 0,
                    pv: vec![mv],
                },
            })
            .collect();
        sort_best_first(&mut out);
        out
    }

    /// Chooses a move: the best one, or with a temperature, a softmax draw over move values.
    pub fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
        let moves = pos.legal_moves();
        match moves.len() {
            0 => return Move::PASS,
            1 => return moves[0],
            _ => {}
        }
        // Finish a little early: joining threads and a busy machine cost some of the time, and
        // a move must never come late.
        let mut limits = limits.clone();
        if let Some(time) = limits.time {
            limits.time = Some(time.saturating_sub((time / 10).min(Duration::from_millis(15))));
        }
        let analysis = self.analyze(pos, &limits);
        let t = self.config.temperature;
        if t <= 0.0 || analysis.solved.as_ref().is_some_and(|s| s.value > 0) {
            return analysis.best();
        }
        let candidates: Vec<&MoveAnalysis> = analysis
            .moves
            .iter()
            .filter(|m| m.visits > 0 || matches!(m.value, Value::Exact { .. }))
            .collect();
        if candidates.is_empty() {
            return analysis.best();
        }
        let top = candidates
            .iter()
            .map(|m| m.value.expected())
            .fold(f64::MIN, f64::max);
        let weights: Vec<f64> = candidates
            .iter()
            .map(|m| ((m.value.expected() - top) / t).exp())
            .collect();
        let mut rng =
            Rng::new(self.config.seed ^ self.searches.wrapping_mul(0xa076_1d64_78bd_642f));
        let mut x = rng.unit() * weights.iter().sum::<f64>();
        for (m, w) in candidates.iter().zip(&weights) {
            x -= w;
            if x <= 0.0 {
                return m.mv;
            }
        }
        analysis.best()
    }
}

impl Analysis {
    /// Puts an exact solution of the root into the table of moves.
    fn adopt(&mut self, sol: Solution) {
        let exact = Value::Exact {
            result: sol.value.signum() as i8,
            margin: (sol.mode == SolveMode::Margin).then_some(sol.value),
        };
        if let Some(i) = self.moves.iter().position(|m| m.mv == sol.best) {
            let mut m = self.moves.remove(i);
            m.value = exact;
            m.pv = sol.pv.clone();
            self.moves.insert(0, m);
        }
        if sol.value < 0 {
            for m in &mut self.moves {
                m.value = Value::Exact {
                    result: -1,
                    margin: None,
                };
            }
        }
        self.solved = Some(sol);
    }
}

/// Proven wins first, proven losses last; in between, most visits first, except that a proven
/// draw goes ahead of moves that score worse than a draw.
fn sort_best_first(moves: &mut [MoveAnalysis]) {
    let rank = |m: &MoveAnalysis| match m.value {
        Value::Exact { result: 1, .. } => 3,
        Value::Exact { result: -1, .. } => 0,
        _ => 1,
    };
    moves.sort_by(|a, b| {
        rank(b)
            .cmp(&rank(a))
            .then(b.visits.cmp(&a.visits))
            .then(a.mv.cmp(&b.mv))
    });
    let draw = moves
        .iter()
        .position(|m| matches!(m.value, Value::Exact { result: 0, .. }));
    if let Some(d) = draw
        && d > 0
        && rank(&moves[0]) == 1
        && moves[0].value.expected() < 0.5
    {
        let m = moves[d].clone();
        moves[..=d].rotate_right(1);
        moves[0] = m;
    }
}

/// Runs every worker on its own thread (the caller's thread runs the first).
fn run_workers(workers: &mut [Worker], clock: &Clock, budget: u64) {
    match workers {
        [] => {}
        [only] => only.run(clock, budget),
        [first, rest @ ..] => std::thread::scope(|scope| {
            for w in rest {
                scope.spawn(move || w.run(clock, budget));
            }
            first.run(clock, budget);
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::{Color, deal};

    fn one_thread() -> EngineConfig {
        EngineConfig {
            threads: 1,
            table_mb: 4,
            tree_mb: 16,
            seed: 5,
            ..EngineConfig::default()
        }
    }

    #[test]
    fn one_thread_a_playout_budget_and_a_seed_give_the_same_analysis() {
        let pos = deal::random(6, Color::White);
        let run = || {
            let mut e = Engine::new(one_thread(), Scoring::Largest);
            let a = e.analyze(&pos, &Limits::nodes(5000));
            (a.moves, a.playouts)
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b);
        assert_eq!(a.1, 5000);
    }

    #[test]
    fn every_legal_move_is_analysed_once_and_the_best_is_legal() {
        let pos = deal::random(7, Color::Black);
        let mut e = Engine::new(
            EngineConfig {
                threads: 2,
                ..one_thread()
            },
            Scoring::Product,
        );
        let a = e.analyze(&pos, &Limits::nodes(4000));
        let mut listed: Vec<Move> = a.moves.iter().map(|m| m.mv).collect();
        listed.sort();
        let mut legal = pos.legal_moves().to_vec();
        legal.sort();
        assert_eq!(listed, legal);
        assert!(pos.is_legal(a.best()));
        assert_eq!(a.playouts, 4000);
        for m in &a.moves {
            assert_eq!(m.pv.first(), Some(&m.mv));
        }
    }

    #[test]
    fn a_late_position_is_solved_and_the_answer_is_exact() {
        let mut pos = deal::random(8, Color::White);
        for _ in 0..14 {
            let mv = pos.legal_moves()[0];
            pos.play_unchecked(mv);
        }
        let mut e = Engine::new(one_thread(), Scoring::Largest);
        let a = e.analyze(&pos, &Limits::nodes(100_000));
        let sol = a.solved.as_ref().expect("ten moves left are solved");
        let mut solver = Solver::new(Scoring::Largest, 4);
        let exact = solver
            .solve(&pos, SolveMode::Result, &Limits::none())
            .expect("solved");
        assert_eq!(sol.value, exact.value);
        if sol.value >= 0 {
            assert_eq!(
                a.moves[0].value,
                Value::Exact {
                    result: sol.value as i8,
                    margin: None
                }
            );
        }
    }

    /// The share of the replies to `mv` that give the side to move of `pos` more than `value`
    /// (a draw half, a win all), or `None` if `mv` does not keep `value`.
    fn gift_share(solver: &mut Solver, pos: &Position, mv: Move, value: i32) -> Option<f64> {
        let exact = |solver: &mut Solver, p: &Position| {
            solver
                .solve(p, SolveMode::Result, &Limits::none())
                .map_or(0, |s| s.value)
        };
        let child = pos.play(mv).expect("legal");
        if -exact(solver, &child) < value {
            return None;
        }
        let replies = child.legal_moves();
        let gifts: i32 = replies
            .iter()
            .map(|&r| (exact(solver, &child.play(r).expect("legal")) - value).max(0))
            .sum();
        Some(f64::from(gifts) / (2 * replies.len().max(1)) as f64)
    }

    #[test]
    fn in_a_proven_draw_or_loss_the_move_leaves_the_most_chances_to_go_wrong() {
        let (mut draws, mut losses) = (0, 0);
        for seed in 0..80 {
            let mut pos = deal::random(seed, Color::White);
            let mut rng = Rng::new(seed);
            while pos.edges_left() > 8 {
                pos.play_unchecked(pos.nth_move(rng.below(pos.count_moves())));
            }
            let mut solver = Solver::new(Scoring::Product, 4);
            let value = solver
                .solve(&pos, SolveMode::Result, &Limits::none())
                .expect("solved")
                .value;
            match value {
                0 => draws += 1,
                -1 => losses += 1,
                _ => continue,
            }
            let mut best = 0.0f64;
            for &mv in pos.legal_moves().iter() {
                best = best.max(gift_share(&mut solver, &pos, mv, value).unwrap_or(0.0));
            }
            let a = Engine::new(one_thread(), Scoring::Product).analyze(&pos, &Limits::none());
            assert_eq!(a.solved.as_ref().map(|s| s.value), Some(value), "{pos}");
            let chosen = gift_share(&mut solver, &pos, a.best(), value);
            assert_eq!(chosen, Some(best), "{pos}: {}", a.best());
            let pv = &a.solved.as_ref().expect("solved").pv;
            assert_eq!(pv.first(), Some(&a.best()), "{pos}");
            assert!(pv.len() > 1, "{pos}: the line goes on after {}", a.best());
            pv.iter()
                .try_fold(pos, |p, &mv| p.play(mv))
                .expect("a legal line");
        }
        assert!(draws >= 3 && losses >= 3, "{draws} draws, {losses} losses");
    }

    #[test]
    fn values_read_as_numbers_or_results() {
        assert_eq!(Value::Estimate(0.6344).token(), "0.634");
        assert_eq!(
            Value::Exact {
                result: 1,
                margin: Some(2)
            }
            .token(),
            "win+2"
        );
        assert_eq!(
            Value::Exact {
                result: -1,
                margin: Some(-3)
            }
            .to_string(),
            "loses by 3"
        );
        assert_eq!(
            Value::Exact {
                result: 0,
                margin: None
            }
            .token(),
            "draw"
        );
        assert_eq!(Value::Estimate(0.5).to_string(), "50.0%");
    }

    #[test]
    fn a_forced_pass_or_a_finished_game_needs_no_search() {
        let mut e = Engine::new(one_thread(), Scoring::Largest);
        let mut pos = deal::random(9, Color::White);
        while !pos.is_game_over() {
            let mv = pos.legal_moves()[0];
            pos.play_unchecked(mv);
        }
        assert_eq!(e.choose(&pos, &Limits::nodes(10)), Move::PASS);
        assert!(e.analyze(&pos, &Limits::nodes(10)).moves.is_empty());
    }
}
