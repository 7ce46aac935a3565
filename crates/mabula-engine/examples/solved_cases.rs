//! Writes solved positions for the solver's agreement test (`tests/data/solved.txt`): for each
//! scoring mode and number of marbles left, positions from `bench::position` with their exact
//! final margin for the side to move.
//!
//! ```text
//! cargo run --release -p mabula-engine --example solved_cases -- LEFT:COUNT... > FILE
//! ```
//!
//! The committed file was written by the solver as it was before the changes of issue 40
//! (`... -- 10:40 11:40 12:40 13:24 14:12`), so that the test holds the new solver to the old
//! one's answers.

use mabula::Scoring;
use mabula_engine::solver::{SolveMode, Solver};
use mabula_engine::{Limits, bench};

fn main() {
    println!(
        "# scoring, marbles left on edge spaces, exact final margin for the side to move, position"
    );
    for scoring in [Scoring::Largest, Scoring::Product] {
        for spec in std::env::args().skip(1) {
            let (left, count) = spec.split_once(':').expect("LEFT:COUNT");
            let left: u32 = left.parse().expect("a number of marbles");
            let count: u64 = count.parse().expect("a count");
            for seed in 0..count {
                let pos = bench::position(5000 + seed, left);
                let sol = Solver::new(scoring, 64)
                    .solve(&pos, SolveMode::Margin, &Limits::none())
                    .expect("no limit");
                println!("{scoring} {left} {} {pos}", sol.value);
            }
        }
    }
}
