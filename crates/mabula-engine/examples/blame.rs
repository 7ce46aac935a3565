//! Where were a player's games decided? For each game of a record file that the player started
//! (its `White` tag begins with PREFIX), prints the exact result after each ply from FROM to TO:
//! `W` White wins with best play, `=` a draw, `B` Black wins, `?` not proven within SECONDS (the
//! solver runs on two threads). A change of letter after a ply names the move that gave a result
//! away. With `NOT_WON` set in the environment, games White won are skipped.
//!
//! ```text
//! cargo run --release -p mabula-engine --example blame -- FILE PREFIX [FROM=9] [SECONDS=10] [TO]
//! ```

mod records;

use mabula::{Color, GameResult};
use mabula_engine::{Limits, SolveMode, Solver};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, prefix, ..] = args.as_slice() else {
        eprintln!("usage: blame FILE PREFIX [FROM=9] [SECONDS=10] [TO]");
        std::process::exit(2);
    };
    let from: usize = args.get(2).map_or(9, |s| s.parse().expect("FROM"));
    let secs: f64 = args.get(3).map_or(10.0, |s| s.parse().expect("SECONDS"));
    let to: usize = args.get(4).map_or(usize::MAX, |s| s.parse().expect("TO"));
    let not_won = std::env::var("NOT_WON").is_ok();
    let limits = Limits::time(Duration::from_secs_f64(secs));
    let mut solver: Option<Solver> = None;
    for game in records::read(file) {
        if !game
            .tag("White")
            .is_some_and(|w| w.starts_with(prefix.as_str()))
            || (not_won && game.result() == GameResult::WhiteWins)
        {
            continue;
        }
        if solver
            .as_ref()
            .is_none_or(|s| s.scoring() != game.scoring())
        {
            solver = Some(Solver::new(game.scoring(), 256));
        }
        let solver = solver.as_mut().expect("a solver");
        let mut line = format!("{:>7}:", game.result().to_string());
        for (k, pos) in game
            .positions()
            .into_iter()
            .enumerate()
            .take(to.saturating_add(1))
            .skip(from)
        {
            let white = solver
                .solve_threads(&pos, SolveMode::Result, &limits, 2)
                .map(|s| match pos.side_to_move() {
                    Color::White => s.value,
                    Color::Black => -s.value,
                });
            let letter = match white {
                Some(1) => 'W',
                Some(0) => '=',
                Some(_) => 'B',
                None => '?',
            };
            line.push_str(&format!(" {k}{letter}"));
        }
        println!("{line}");
    }
}
