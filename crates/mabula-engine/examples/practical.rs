//! How much the practical chances are worth: from every lost or drawn position of a player's in
//! recorded games (at one ply), level 10 plays on against `baseline-uct`, once with and once
//! without [`EngineConfig::practical`], and the results are compared with the proven one.
//!
//! ```text
//! cargo run --release -p mabula-engine --example practical -- GAMES.pgn[,MORE.pgn] NAME PLY MOVETIME_MS [MAX]
//! ```
//!
//! `NAME` picks the player (a part of its `White` or `Black` tag); only positions where it is
//! to move at `PLY` count. A line per position, then the totals: how many result steps (a loss
//! to a draw is one, a loss to a win two) each version gained over the proven result.

mod records;

use mabula::{Color, Position, Scoring};
use mabula_engine::solver::{SolveMode, Solver};
use mabula_engine::{Engine, EngineConfig, Level, Limits};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [files, name, ply, ms, ..] = args.as_slice() else {
        eprintln!("usage: practical GAMES.pgn[,MORE.pgn] NAME PLY MOVETIME_MS [MAX]");
        std::process::exit(2);
    };
    let ply: usize = ply.parse().expect("PLY");
    let limits = Limits::time(Duration::from_millis(ms.parse().expect("MOVETIME_MS")));
    let max: usize = args.get(4).map_or(usize::MAX, |m| m.parse().expect("MAX"));
    let (mut with, mut without, mut better, mut worse, mut count) = (0, 0, 0, 0, 0);
    'files: for file in files.split(',') {
        for game in records::read(file) {
            let Some(pos) = game.positions().get(ply).copied() else {
                continue;
            };
            let tag = match pos.side_to_move() {
                Color::White => "White",
                Color::Black => "Black",
            };
            let player = game.tag(tag).unwrap_or("");
            if !player.contains(name.as_str()) || pos.legal_moves().is_empty() {
                continue;
            }
            let scoring = game.scoring();
            let proven = Solver::new(scoring, 256)
                .solve_threads(
                    &pos,
                    SolveMode::Result,
                    &Limits::time(Duration::from_secs(30)),
                    2,
                )
                .map(|s| s.value);
            let Some(proven @ (-1 | 0)) = proven else {
                continue;
            };
            count += 1;
            let seed = count as u64;
            let a = play_on(pos, scoring, true, &limits, seed);
            let b = play_on(pos, scoring, false, &limits, seed);
            (with, without) = (with + a - proven, without + b - proven);
            better += usize::from(a > b);
            worse += usize::from(a < b);
            println!("{pos} {scoring}: proven {proven}, with {a}, without {b}");
            if count >= max {
                break 'files;
            }
        }
    }
    println!(
        "{count} positions: with practical chances +{with}, without +{without}; \
         better {better} times, worse {worse}"
    );
}

/// Level 10 (`practical` on or off) plays `start` to the end against the baseline: the result
/// for the side to move at `start` (-1, 0, 1).
fn play_on(start: Position, scoring: Scoring, practical: bool, limits: &Limits, seed: u64) -> i32 {
    let me = start.side_to_move();
    let mut config = Level::new(10, seed).config;
    config.practical = practical;
    let mut ours = Engine::new(config, scoring);
    let baseline = EngineConfig {
        seed,
        ..EngineConfig::baseline()
    };
    let mut theirs = Engine::new(baseline, scoring);
    let mut pos = start;
    while !pos.legal_moves().is_empty() {
        let engine = if pos.side_to_move() == me {
            &mut ours
        } else {
            &mut theirs
        };
        pos.play_unchecked(engine.choose(&pos, limits));
    }
    pos.scores(scoring).margin(me).signum()
}
