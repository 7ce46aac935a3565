//! How the first guess of MTD(f) changes the margin solve: passes and nodes per position, for
//! the guess 0 (the solver's) and for guesses from the position (the score now, playouts).
//!
//! ```text
//! cargo run --release -p mabula-engine --example mtd_guess -- [LEFT=12] [COUNT=20] [largest|product] [TABLE_MB=64]
//! ```

use mabula::{Position, Scoring};
use mabula_engine::solver::{SolveMode, Solver, Window};
use mabula_engine::{Limits, bench, rng::Rng};

fn mtd(pos: &Position, scoring: Scoring, table_mb: usize, guess: i32) -> (i32, u32, u64) {
    let mut solver = Solver::new(scoring, table_mb);
    let mut w = Window::new(-127, 127, guess);
    let (mut passes, mut nodes) = (0, 0);
    while w.exact().is_none() {
        let (beta, fail) = w.next();
        let v = solver
            .probe(pos, SolveMode::Margin, beta, !fail, Limits::none().start())
            .expect("no limit");
        nodes += solver.nodes();
        passes += 1;
        w.record(beta, v);
    }
    (w.lo, passes, nodes)
}

fn playout_mean(pos: &Position, scoring: Scoring, n: u32) -> i32 {
    let me = pos.side_to_move();
    let mut rng = Rng::new(pos.hash());
    let mut total = 0i64;
    for _ in 0..n {
        let mut p = *pos;
        loop {
            let k = p.count_moves();
            if k == 0 {
                break;
            }
            p.play_unchecked(p.nth_move(rng.below(k)));
        }
        total += i64::from(p.scores(scoring).margin(me));
    }
    (total as f64 / f64::from(n)).round() as i32
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let left: u32 = arg(0).and_then(|a| a.parse().ok()).unwrap_or(12);
    let count: u64 = arg(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let scoring: Scoring = arg(2).and_then(|a| a.parse().ok()).unwrap_or_default();
    let table_mb: usize = arg(3).and_then(|a| a.parse().ok()).unwrap_or(64);
    let mut sums = [0u64; 3];
    for seed in 0..count {
        let pos = bench::position(seed, left);
        let now = pos.scores(scoring).margin(pos.side_to_move());
        let po = playout_mean(&pos, scoring, 400);
        let a = mtd(&pos, scoring, table_mb, 0);
        let b = mtd(&pos, scoring, table_mb, now);
        let c = mtd(&pos, scoring, table_mb, po);
        assert_eq!(a.0, b.0);
        assert_eq!(a.0, c.0);
        println!(
            "{seed:>3} value {:>4} | guess 0: {} passes {:>10} | now {now:>4}: {} passes {:>10} | playouts {po:>4}: {} passes {:>10}",
            a.0, a.1, a.2, b.1, b.2, c.1, c.2
        );
        sums[0] += a.2;
        sums[1] += b.2;
        sums[2] += c.2;
    }
    println!(
        "total nodes: guess 0 {}, now {}, playouts {}",
        sums[0], sums[1], sums[2]
    );
}
