//! How often level 10 gives away a result where the root solver cannot finish: positions with
//! EDGES marbles left on edge spaces (from games of greedy random play), one move each at
//! MOVETIME, checked against the exact value of every move.
//!
//! ```text
//! cargo run --release -p mabula-engine --example errors -- [POSITIONS=30] [EDGES=14] [MOVETIME_MS=1000] [largest|product]
//! ```

use mabula::{Color, Scoring, deal};
use mabula_engine::playout::quick_eval;
use mabula_engine::rng::Rng;
use mabula_engine::search::Engine;
use mabula_engine::{Level, Limits, SolveMode, Solver};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(30);
    let edges: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(14);
    let ms: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let scoring: Scoring = args.get(3).and_then(|s| s.parse().ok()).unwrap_or_default();
    let mut judge = Solver::new(scoring, 256);
    let (mut choices, mut errors, mut lost) = (0, 0, 0);
    for seed in 0..n {
        let mut pos = deal::random(seed, Color::White);
        let mut g = Rng::new(seed ^ 0xdead);
        while pos.edges_left() > edges && !pos.is_game_over() {
            let me = pos.side_to_move();
            let mut a = pos;
            a.play_unchecked(pos.nth_move(g.below(pos.count_moves())));
            let mut b = pos;
            b.play_unchecked(pos.nth_move(g.below(pos.count_moves())));
            pos = if quick_eval(&b, me, scoring) > quick_eval(&a, me, scoring) {
                b
            } else {
                a
            };
        }
        if pos.legal_moves().len() < 2 {
            continue;
        }
        let values = judge
            .solve_moves(&pos, SolveMode::Result, &Limits::none())
            .expect("solved");
        let best = values[0].1;
        if values.iter().all(|&(_, v)| v == best) {
            continue;
        }
        let level = Level::new(10, seed);
        let mut engine = Engine::new(level.config, scoring);
        let mv = engine.choose(&pos, &Limits::time(Duration::from_millis(ms)));
        let v = values.iter().find(|&&(m, _)| m == mv).expect("legal").1;
        choices += 1;
        if v < best {
            errors += 1;
            lost += best - v;
        }
        println!("{pos}: best {best:+}, played {mv} {v:+}");
    }
    println!(
        "{scoring}, {edges} edges left, {ms} ms: {errors} errors in {choices} positions with a choice (result lost {lost})"
    );
}
