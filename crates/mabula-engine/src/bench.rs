//! The search bench: fixed positions, fixed budgets, and the node counts they take.
//!
//! Like Stockfish's `bench`, the counts are deterministic (one thread, seeded), so a change in
//! the total means a change in the search's behaviour, and the speed figures show whether a
//! change made it faster. The bench also checks its answers: each solved position is solved in
//! both modes and the results must agree, so a fast wrong solver cannot pass.

use crate::limits::Limits;
use crate::rng::Rng;
use crate::search::{Engine, EngineConfig};
use crate::solver::{SolveMode, Solver};
use mabula::{Color, Position, Scoring, deal};
use std::fmt;
use std::time::{Duration, Instant};

/// One line of the bench.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// What was searched.
    pub what: String,
    /// Nodes (solver) or playouts (tree search).
    pub nodes: u64,
    /// The answer: the solved value or the chosen move.
    pub answer: String,
    /// Time taken.
    pub time: Duration,
}

/// The whole bench.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// Every line.
    pub lines: Vec<BenchLine>,
}

impl BenchReport {
    /// Solver nodes and playouts over every line: the bench's signature.
    pub fn total(&self) -> u64 {
        self.lines.iter().map(|l| l.nodes).sum()
    }
}

/// The position of bench `seed`: deal `seed`, then seeded random moves until `left` marbles are
/// left on edge spaces.
pub fn position(seed: u64, left: u32) -> Position {
    let mut pos = deal::random(seed, Color::White);
    let mut rng = Rng::new(seed);
    while pos.edges_left() > left && !pos.is_game_over() {
        let n = pos.count_moves();
        pos.play_unchecked(pos.nth_move(rng.below(n)));
    }
    pos
}

/// Runs the bench.
///
/// # Panics
///
/// When the solver's two modes disagree about a result (a bug, not bad input).
pub fn run() -> BenchReport {
    let mut lines = Vec::new();
    for scoring in [Scoring::Largest, Scoring::Product] {
        for seed in 0..4 {
            let pos = position(seed, 10);
            let mut solver = Solver::new(scoring, 16);
            let t = Instant::now();
            let result = solver
                .solve(&pos, SolveMode::Result, &Limits::none())
                .expect("no limit");
            let time = t.elapsed();
            let margin = solver
                .solve(&pos, SolveMode::Margin, &Limits::none())
                .expect("no limit");
            assert_eq!(
                result.value,
                margin.value.signum(),
                "solver modes disagree on {pos}"
            );
            lines.push(BenchLine {
                what: format!("solve {scoring} {pos}"),
                nodes: result.nodes,
                answer: format!("{:+} (margin {:+})", result.value, margin.value),
                time,
            });
        }
        for (seed, left) in [(1, 24), (2, 18), (3, 14)] {
            let pos = position(seed, left);
            let config = EngineConfig {
                threads: 1,
                table_mb: 16,
                tree_mb: 64,
                seed,
                ..EngineConfig::default()
            };
            let config = EngineConfig {
                root_solve_edges: 0,
                ..config
            };
            let t = Instant::now();
            let a = Engine::new(config, scoring).analyze(&pos, &Limits::nodes(50_000));
            lines.push(BenchLine {
                what: format!("mcts  {scoring} {pos}"),
                nodes: a.playouts,
                answer: format!("{} {}", a.best(), a.moves[0].visits),
                time: t.elapsed(),
            });
        }
    }
    BenchReport { lines }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut time = Duration::ZERO;
        for l in &self.lines {
            writeln!(
                f,
                "{:<70} {:>10} {:>9.3} s  {}",
                l.what,
                l.nodes,
                l.time.as_secs_f64(),
                l.answer
            )?;
            time += l.time;
        }
        writeln!(
            f,
            "total {} nodes and playouts in {:.2} s",
            self.total(),
            time.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bench_positions_are_fixed() {
        let a = super::position(3, 10);
        assert_eq!(a, super::position(3, 10));
        assert_eq!(a.edges_left(), 10);
    }
}
