//! What one evaluation of the learnt model costs, beside one playout, on one thread.
//!
//! ```text
//! cargo run --release -p mabula-engine --example model_cost -- [POSITIONS=200] [largest|product]
//! ```
//!
//! Positions come from the labeller's self-play (seed 1) at 10 to 16 marbles left.

use mabula::Scoring;
use mabula_engine::eval::model::Model;
use mabula_engine::learn::labels::LabelRun;
use mabula_engine::playout::{Policy, playout};
use mabula_engine::rng::Rng;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let scoring: Scoring = args.get(1).and_then(|s| s.parse().ok()).unwrap_or_default();
    let model = Model::embedded();
    for left in [10, 12, 14, 16] {
        let run = LabelRun {
            scoring,
            left,
            seed: 1,
            result_only: true,
        };
        let positions: Vec<_> = (0..n).map(|i| run.position(i)).collect();
        let started = Instant::now();
        let mut sum = 0.0;
        for pos in &positions {
            sum += model.expected(pos, scoring);
        }
        let per_eval = started.elapsed().as_secs_f64() / n as f64;
        let mut rng = Rng::new(1);
        let started = Instant::now();
        let rounds = 200;
        let mut white = 0;
        for _ in 0..rounds {
            for pos in &positions {
                let o = playout(*pos, scoring, Policy::Greedy { candidates: 2 }, &mut rng);
                white += u32::from(o.winner() == Some(mabula::Color::White));
            }
        }
        let per_playout = started.elapsed().as_secs_f64() / (rounds * n) as f64;
        println!(
            "{scoring} {left} left: one model evaluation {:.0} us, one greedy playout {:.2} us \
             ({:.0} playouts an evaluation; checksums {sum:.1} {white})",
            1e6 * per_eval,
            1e6 * per_playout,
            per_eval / per_playout
        );
    }
}
