//! Fits the value (`learn::value`) to the results of self-play games (the `selfplay` example's
//! files) and reports how well it predicts the results of held-out games, and how well it orders
//! the moves of long searches.
//!
//! ```text
//! cargo run --release -p mabula-engine --example value_fit -- OUT.bin [largest:|product:]GAMES... [distill:largest:|distill:product:]SEARCHES...
//! ```
//!
//! Every position after a move with `LOW..=HIGH` marbles left on edge spaces (`EDGES=LOW-HIGH`,
//! default 16-23) becomes a sample: its inputs seen by the mover, and the mover's result (1, 1/2
//! or 0). Every fifth game is held out. Reported per number of marbles left: the log loss of the
//! held-out results under the value and under the mean result of that number in the fitted games.
//! Files named `distill:MODE:FILE` (the `distill` example's long searches) are not fitted: for
//! each of their positions, the value's favourite move is compared with the long search's (how
//! often it is among the search's five most visited moves), and over the pairs of moves that the
//! search visited at least 1,000 times each, how often the value orders them as the search's
//! values do. `EPOCHS` (200) and `L2` (1e-5) tune the fit.

use mabula::{Color, Move, Position, Scoring};
use mabula_engine::eval::prior::Inputs;
use mabula_engine::learn::prior::parse_search;
use mabula_engine::learn::value::{Sample, fit, log_loss};
use std::collections::BTreeMap;

fn parse_mode(spec: &str) -> (Scoring, &str) {
    match spec.split_once(':') {
        Some((mode, path)) => (mode.parse().expect("largest: or product:"), path),
        None => (Scoring::Largest, spec),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = &args[0];
    let edges = std::env::var("EDGES").unwrap_or("16-23".into());
    let (low, high) = edges.split_once('-').expect("EDGES=LOW-HIGH");
    let range = low.parse::<u32>().unwrap()..=high.parse::<u32>().unwrap();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut searches = Vec::new();
    let mut games = 0usize;
    for spec in &args[1..] {
        if let Some(rest) = spec.strip_prefix("distill:") {
            searches.push(parse_mode(rest));
            continue;
        }
        let (scoring, file) = parse_mode(spec);
        for line in std::fs::read_to_string(file).expect("games file").lines() {
            let mut parts = line.split('\t');
            let (Some(deal), Some(moves), Some(result)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let mut pos: Position = deal.parse().expect("deal");
            let winner = match result {
                "W" => Some(Color::White),
                "B" => Some(Color::Black),
                _ => None,
            };
            let into = if games % 5 == 4 {
                &mut test
            } else {
                &mut train
            };
            games += 1;
            for mv in moves.split(' ') {
                let mover = pos.side_to_move();
                pos.play_unchecked(mv.parse::<Move>().expect("move"));
                if range.contains(&pos.edges_left()) {
                    let target = match winner {
                        Some(c) if c == mover => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                    into.push(Sample {
                        x: Inputs::of(&pos, mover, scoring),
                        target,
                    });
                }
            }
        }
    }
    let epochs = std::env::var("EPOCHS").map_or(200, |e| e.parse().unwrap());
    let l2: f32 = std::env::var("L2").map_or(1e-5, |e| e.parse().unwrap());
    println!(
        "{games} games: {} positions fitted, {} held out; {epochs} epochs, L2 {l2}",
        train.len(),
        test.len()
    );
    let model = fit(&train, epochs, l2, |epoch, loss| {
        eprintln!("epoch {epoch}: log loss {loss:.4}");
    });
    std::fs::write(out, model.to_bytes()).expect("write the weights");

    // The held-out games, against the mean result by scoring mode and marbles left.
    let key = |s: &Sample| (s.x.product, s.x.edges);
    let mut mean: BTreeMap<(bool, usize), (f64, f64)> = BTreeMap::new();
    for s in &train {
        let e = mean.entry(key(s)).or_default();
        e.0 += f64::from(s.target);
        e.1 += 1.0;
    }
    let mut by: BTreeMap<(bool, usize), [f64; 3]> = BTreeMap::new();
    for s in &test {
        let (sum, n) = mean.get(&key(s)).copied().unwrap_or((0.5, 1.0));
        let p = (sum / n).clamp(1e-6, 1.0 - 1e-6);
        let t = f64::from(s.target);
        let e = by.entry(key(s)).or_default();
        e[0] += 1.0;
        e[1] += log_loss(&model, std::slice::from_ref(s));
        e[2] -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
    }
    println!("scoring  left  positions  log loss (mean result)");
    for ((product, left), [n, loss, base]) in by {
        let mode = if product { "product" } else { "largest" };
        println!(
            "{mode:<7}  {left:>4}  {n:>9}  {:>8.4} ({:.4})",
            loss / n,
            base / n
        );
    }

    // The long searches: does the value order their moves as they do?
    for (scoring, file) in searches {
        let mut by: BTreeMap<u32, [f64; 4]> = BTreeMap::new();
        for line in std::fs::read_to_string(file).expect("distill file").lines() {
            let (pos, moves) = parse_search(line).expect("a long search");
            let mover = pos.side_to_move();
            let mut moves: Vec<(f32, f32, f32)> = moves
                .iter()
                .map(|&(mv, visits, score)| {
                    let mut after = pos;
                    after.play_unchecked(mv);
                    let value = model.expected_of(&after, mover, scoring);
                    (visits as f32, score as f32, value)
                })
                .collect();
            if moves.len() < 6 {
                continue;
            }
            moves.sort_by(|a, b| b.0.total_cmp(&a.0));
            let favourite = (0..moves.len())
                .max_by(|&a, &b| moves[a].2.total_cmp(&moves[b].2))
                .unwrap();
            let e = by.entry(pos.edges_left()).or_default();
            e[0] += 1.0;
            e[1] += f64::from(u8::from(favourite < 5));
            let well: Vec<_> = moves.iter().filter(|m| m.0 >= 1000.0).collect();
            for (i, a) in well.iter().enumerate() {
                for b in &well[i + 1..] {
                    if a.1 != b.1 {
                        e[2] += f64::from(u8::from((a.1 > b.1) == (a.2 > b.2)));
                        e[3] += 1.0;
                    }
                }
            }
        }
        println!(
            "{} searches: left  positions  favourite in top 5  pairs ordered",
            scoring.name()
        );
        for (left, [n, top5, same, pairs]) in by {
            println!(
                "{:>17}  {left:>4}  {n:>9}  {:>17.1}%  {:>7.1}% of {pairs}",
                "",
                100.0 * top5 / n,
                100.0 * same / pairs.max(1.0)
            );
        }
    }
}
