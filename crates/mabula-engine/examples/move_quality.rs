//! How often a chooser's move keeps the exact result of the position: the learnt model one push
//! deep, the backward stages' search two pushes deep, and level 10 at a playout budget on one
//! thread. A move "keeps" the result when the solver gives the position after it the same result
//! for the mover as the position before it: it gives nothing away.
//!
//! ```text
//! cargo run --release -p mabula-engine --example move_quality -- [POSITIONS=100] [LEFT=12] [largest|product] [WEIGHTS] [PLAYOUTS=100000]
//! ```
//!
//! Positions come from the labeller's self-play with seed 7 (the labels in the repository use
//! seed 1), solved for their result only. Without `WEIGHTS` (or with `-`) the built-in model is
//! used. With `EVERY_MOVE` set, every legal move is solved too, for the share a random move
//! keeps (slow from 14 left on).

use mabula::{Move, Position, Scoring};
use mabula_engine::eval::model::Model;
use mabula_engine::learn::backward::ShallowSearch;
use mabula_engine::learn::labels::LabelRun;
use mabula_engine::{Engine, EngineConfig, Level, Limits, SolveMode, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let left: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(12);
    let scoring: Scoring = args.get(2).and_then(|s| s.parse().ok()).unwrap_or_default();
    let model = match args.get(3).filter(|w| !w.is_empty() && *w != "-") {
        Some(path) => Model::from_bytes(&std::fs::read(path).expect("weights")).expect("weights"),
        None => Model::embedded(),
    };
    let playouts: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let run = LabelRun {
        scoring,
        left,
        seed: 7,
        result_only: true,
    };
    let mut solver = Solver::new(scoring, 64);
    let mut result = |pos: &Position| -> i32 {
        if pos.legal_moves().is_empty() {
            return pos.scores(scoring).margin(pos.side_to_move()).signum();
        }
        solver
            .solve(pos, SolveMode::Result, &Limits::none())
            .expect("a solve without limits finishes")
            .value
            .signum()
    };
    let engine_config = EngineConfig {
        threads: 1,
        reuse: false,
        ..Level::new(10, 7).config
    };
    let mut engine = Engine::new(engine_config, scoring);
    let names = ["model, 1 push", "search, 2 pushes", "level 10"];
    // Kept, by chooser; and positions by their result (loss, draw, win for the mover).
    let mut kept = [[0u32; 3]; 3];
    let mut by_result = [0u32; 3];
    let mut alternatives = 0.0;
    let every_move = std::env::var("EVERY_MOVE").is_ok();
    for i in 0..n {
        let pos = run.position(i);
        let value = result(&pos);
        by_result[(value + 1) as usize] += 1;
        let moves = pos.legal_moves();
        let chosen: [Move; 3] = [
            ShallowSearch::new(&model, scoring, 1).search(&pos).best,
            ShallowSearch::new(&model, scoring, 2).search(&pos).best,
            engine.choose(&pos, &Limits::nodes(playouts)),
        ];
        for (c, &mv) in chosen.iter().enumerate() {
            if -result(&after(&pos, mv)) == value {
                kept[c][(value + 1) as usize] += 1;
            }
        }
        if every_move {
            let keeping = moves
                .iter()
                .filter(|&&mv| -result(&after(&pos, mv)) == value)
                .count();
            alternatives += keeping as f64 / moves.len() as f64;
        }
        if (i + 1) % 20 == 0 {
            eprintln!("{} positions", i + 1);
        }
    }
    println!(
        "{scoring}, {left} left, {n} positions (mover loses {}, draws {}, wins {})",
        by_result[0], by_result[1], by_result[2],
    );
    if every_move {
        println!(
            "a random move keeps the result {:.1}% of the time",
            100.0 * alternatives / n as f64
        );
    }
    println!("chooser            kept   in losses  in draws  in wins");
    for (name, k) in names.iter().zip(&kept) {
        let pct = |x: u32, of: u32| {
            if of == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * f64::from(x) / f64::from(of))
            }
        };
        println!(
            "{name:<17} {:>6} {:>10} {:>9} {:>8}",
            pct(k.iter().sum(), n as u32),
            pct(k[0], by_result[0]),
            pct(k[1], by_result[1]),
            pct(k[2], by_result[2])
        );
    }
}

fn after(pos: &Position, mv: Move) -> Position {
    let mut next = *pos;
    next.play_unchecked(mv);
    next
}
