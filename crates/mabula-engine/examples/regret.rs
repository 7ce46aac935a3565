//! How far the moves of short searches fall below what a long search found: a measure of
//! opening play with far less noise than a match.
//!
//! ```text
//! cargo run --release -p mabula-engine --example regret -- largest|product FILE FROM COUNT SPEC...
//! ```
//!
//! For positions `FROM..FROM+COUNT` of `FILE` (the `distill` example's long searches: every
//! move's visits and expected score after 1,000,000 playouts), each player `SPEC` (as in
//! `mabula match`, for example `level=10,movetime=250` or `level=10,prior=on,movetime=250`)
//! chooses a move, and its regret is the long search's score of its best move minus that of the
//! chosen move (0 when the short search picks the long search's favourite). Reported per player:
//! the mean regret, how often it picked the long search's most visited move, and the mean
//! regret by marbles left; every player sees the same positions, one after the other.

use mabula::Scoring;
use mabula_engine::Engine;
use mabula_engine::arena::PlayerSpec;
use mabula_engine::learn::prior::{Search, parse_search};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scoring, file, from, count, specs @ ..] = &args[..] else {
        eprintln!("usage: regret largest|product FILE FROM COUNT SPEC...");
        std::process::exit(2);
    };
    let scoring: Scoring = scoring.parse().expect("scoring");
    let (from, count): (usize, usize) = (from.parse().unwrap(), count.parse().unwrap());
    let text = std::fs::read_to_string(file).expect("distill file");
    let searches: Vec<Search> = text
        .lines()
        .skip(from)
        .take(count)
        .map(|line| parse_search(line).expect("a long search"))
        .collect();
    let mut engines: Vec<(String, Engine, mabula_engine::Limits)> = specs
        .iter()
        .map(|s| {
            let spec: PlayerSpec = s.parse().expect("a player");
            let (config, limits) = spec.engine(1).expect("an engine player");
            (s.clone(), Engine::new(config, scoring), limits)
        })
        .collect();
    // Per player: positions, regret, favourite picked; by marbles left: positions, regret.
    let mut totals = vec![(0.0, 0.0, 0.0, BTreeMap::<u32, (f64, f64)>::new()); specs.len()];
    for (n, (pos, moves)) in searches.iter().enumerate() {
        let best = moves.iter().map(|m| m.2).fold(f64::MIN, f64::max);
        let most = moves.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
        for ((_, engine, limits), t) in engines.iter_mut().zip(totals.iter_mut()) {
            engine.clear();
            let mv = engine.choose(pos, limits);
            let score = moves.iter().find(|m| m.0 == mv).map_or(0.0, |m| m.2);
            t.0 += 1.0;
            t.1 += best - score;
            t.2 += f64::from(u8::from(mv == most));
            let e = t.3.entry(pos.edges_left()).or_default();
            e.0 += 1.0;
            e.1 += best - score;
        }
        if (n + 1) % 50 == 0 {
            eprintln!("{} positions", n + 1);
        }
    }
    for ((name, _, _), (n, regret, most, by)) in engines.iter().zip(&totals) {
        let by: Vec<String> = by
            .iter()
            .map(|(left, (k, r))| format!("{left}: {:.4}", r / k))
            .collect();
        println!(
            "{name}: {n} positions, mean regret {:.4}, long search's favourite {:.1}%; by marbles left {}",
            regret / n,
            100.0 * most / n,
            by.join(", ")
        );
    }
}
