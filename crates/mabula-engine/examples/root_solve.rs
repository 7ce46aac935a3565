//! How often level 10's root solver finishes within the thinking time, by marbles left on edge
//! spaces, in level-10 self-play: where solving at the root pays and where it only takes a
//! thread from the tree search.
//!
//! ```text
//! cargo run --release -p mabula-engine --example root_solve -- largest|product GAMES MOVETIME_MS
//! ```
//!
//! Game `i` starts from the deal of seed `i` with White to move; both sides are one engine (as in
//! a game, its table stays warm from move to move). For every move with at most 16 marbles left
//! the report counts the moves, how many the root solver proved, and the median thinking time.

use mabula::{Color, Scoring, deal};
use mabula_engine::{Engine, Level, Limits};
use std::collections::BTreeMap;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scoring, games, movetime] = &args[..] else {
        eprintln!("usage: root_solve largest|product GAMES MOVETIME_MS");
        std::process::exit(2);
    };
    let scoring: Scoring = scoring.parse().expect("scoring");
    let games: u64 = games.parse().expect("games");
    let limits = Limits::time(Duration::from_millis(movetime.parse().expect("movetime")));
    let mut by: BTreeMap<u32, (u32, u32, Vec<f64>)> = BTreeMap::new();
    for i in 0..games {
        let mut engine = Engine::new(Level::new(10, i).config, scoring);
        let mut pos = deal::random(i, Color::White);
        while !pos.is_game_over() {
            let left = pos.edges_left();
            let analysis = engine.analyze(&pos, &limits);
            if left <= 16 {
                let e = by.entry(left).or_default();
                e.0 += 1;
                e.1 += u32::from(analysis.solved.is_some());
                e.2.push(analysis.elapsed.as_secs_f64());
            }
            pos.play_unchecked(analysis.best());
        }
        eprintln!("{} games", i + 1);
    }
    println!("left  moves  solved  median time");
    for (left, (n, solved, mut times)) in by.into_iter().rev() {
        times.sort_by(f64::total_cmp);
        println!(
            "{left:>4}  {n:>5}  {:>5.1}%  {:>8.3} s",
            100.0 * f64::from(solved) / f64::from(n),
            times[times.len() / 2]
        );
    }
}
