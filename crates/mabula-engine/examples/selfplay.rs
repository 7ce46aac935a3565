//! Plays level 10 against itself from random deals with a small playout budget and writes every
//! game with its result: the data for fitting a value of opening positions to game results.
//!
//! ```text
//! cargo run --release -p mabula-engine --example selfplay -- largest|product COUNT PLAYOUTS OUT.txt
//! ```
//!
//! Game `i` (for `i` in `0..COUNT`) follows from `(scoring, i)`: a random deal and first player,
//! then level 10 on one thread with `PLAYOUTS` playouts a move, and a uniformly random move instead
//! with a chance of 1 in 20 while more than 16 marbles are on edge spaces (for variety). One line
//! per game: the deal, a tab, the moves separated by spaces, a tab, and the result (`W` or `B`
//! for the winner, `D` for a draw). Resumable: games already written are skipped. With `FROM=N`
//! in the environment the run starts at game `N` (for a second process).

use mabula::{Color, Outcome, Scoring, deal};
use mabula_engine::rng::Rng;
use mabula_engine::{Engine, EngineConfig, Level, Limits};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scoring, count, playouts, out] = &args[..] else {
        eprintln!("usage: selfplay largest|product COUNT PLAYOUTS OUT.txt");
        std::process::exit(2);
    };
    let scoring: Scoring = scoring.parse().expect("scoring");
    let count: u64 = count.parse().expect("count");
    let playouts: u64 = playouts.parse().expect("playouts");
    let done = std::fs::read_to_string(out).map_or(0, |s| s.lines().count()) as u64;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .expect("output");
    let from: u64 = std::env::var("FROM").map_or(0, |f| f.parse().expect("FROM"));
    let limits = Limits::nodes(playouts);
    let started = std::time::Instant::now();
    for i in from + done..count {
        let salt = u64::from(scoring == Scoring::Product) << 40;
        let mut rng = Rng::new(i ^ salt ^ 0x5e1f_91a7);
        let first = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let deal = deal::random(rng.next_u64(), first);
        let config = EngineConfig {
            threads: 1,
            tree_mb: 32,
            ..Level::new(10, rng.next_u64()).config
        };
        let mut engine = Engine::new(config, scoring);
        let mut pos = deal;
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            let n = pos.count_moves();
            let mv = if pos.edges_left() > 16 && rng.below(20) == 0 {
                pos.nth_move(rng.below(n))
            } else {
                engine.choose(&pos, &limits)
            };
            pos.play_unchecked(mv);
            moves.push(mv.to_string());
        }
        let result = match pos.scores(scoring).outcome() {
            Outcome::Win(Color::White) => "W",
            Outcome::Win(Color::Black) => "B",
            Outcome::Draw => "D",
        };
        writeln!(file, "{deal}\t{}\t{result}", moves.join(" ")).expect("write");
        let n = i + 1 - from;
        eprintln!(
            "{n} games, {:.2} s a game",
            started.elapsed().as_secs_f64() / (n - done) as f64
        );
    }
}
