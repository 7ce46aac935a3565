//! Times the exact solver on random positions with a given number of moves left, and prints the
//! table with the median.
//!
//! ```text
//! cargo run --release -p mabula-engine --example solver_table -- \
//!     [LEFT=14] [COUNT=20] [largest|product] [result|margin] [TABLE_MB=256] [THREADS=1]
//! ```
//!
//! Position `seed` (0 to COUNT-1): the deal of `seed` with White to move, then uniformly random
//! moves (seeded by `seed`) until `LEFT` marbles are left on edge spaces, i.e. `LEFT` moves left,
//! `LEFT / 2` each. A fresh table for each position.

use mabula::Scoring;
use mabula_engine::solver::{SolveMode, Solver};
use mabula_engine::{Limits, bench};
use std::time::Instant;

fn median<T: Copy + Into<f64>>(sorted: &[T]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2].into()
    } else {
        (sorted[n / 2 - 1].into() + sorted[n / 2].into()) / 2.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let left: u32 = arg(0).and_then(|a| a.parse().ok()).unwrap_or(14);
    let count: u64 = arg(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let scoring: Scoring = arg(2).and_then(|a| a.parse().ok()).unwrap_or_default();
    let mode = if arg(3) == Some("margin") {
        SolveMode::Margin
    } else {
        SolveMode::Result
    };
    let table_mb: usize = arg(4).and_then(|a| a.parse().ok()).unwrap_or(256);
    let threads: usize = arg(5).and_then(|a| a.parse().ok()).unwrap_or(1);
    println!(
        "{left} moves left, {scoring} scoring, {mode:?} mode, {table_mb} MB table, \
         {threads} thread(s), {count} positions"
    );
    println!(
        "{:>4}  {:<52} {:>6} {:>12} {:>9}",
        "seed", "position", "value", "nodes", "seconds"
    );
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    for seed in 0..count {
        let pos = bench::position(seed, left);
        let mut solver = Solver::new(scoring, table_mb);
        let t = Instant::now();
        let sol = solver
            .solve_threads(&pos, mode, &Limits::none(), threads)
            .expect("no limit");
        let secs = t.elapsed().as_secs_f64();
        times.push(secs);
        nodes.push(sol.nodes as f64);
        println!(
            "{seed:>4}  {:<52} {:>6} {:>12} {secs:>9.3}",
            pos.to_string(),
            sol.value,
            sol.nodes
        );
    }
    times.sort_by(f64::total_cmp);
    nodes.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "median {:.3} s, max {:.3} s, mean {:.3} s; median nodes {:.0} (main thread), {:.2} M nodes/s",
        median(&times),
        times.last().copied().unwrap_or(0.0),
        total / times.len() as f64,
        median(&nodes),
        nodes.iter().sum::<f64>() / total / 1e6,
    );
}
