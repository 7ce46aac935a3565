//! Fits the move prior (`learn::prior`) to the visit shares of long searches (the `distill`
//! example's files) and reports how well it predicts them on held-out positions.
//!
//! ```text
//! cargo run --release -p mabula-engine --example prior_fit -- OUT.bin [largest:|product:]FILE...
//! ```
//!
//! Each file holds searches in one scoring mode, named by its prefix (largest when none); one
//! weights file gets both modes.
//! Every fifth position is held out. Reported per number of marbles left: the cross-entropy of
//! the visit shares under the prior and under a uniform choice, how often the prior's favourite
//! is the long search's most visited move, and the share of the long search's visits that fall
//! on the prior's five favourites. `EPOCHS` (300) and `L2` (1e-4) tune the fit.

use mabula::{Move, Scoring};
use mabula_engine::eval::prior::{Inputs, softmax};
use mabula_engine::learn::prior::{Root, cross_entropy, fit, parse_search};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = &args[0];
    let (mut train, mut test): (Vec<Root>, Vec<(Scoring, u32, Root)>) = (Vec::new(), Vec::new());
    let mut line_no = 0;
    for file in &args[1..] {
        let (scoring, file) = match file.split_once(':') {
            Some((mode, path)) => (mode.parse().expect("largest: or product:"), path),
            None => (Scoring::Largest, file.as_str()),
        };
        for line in std::fs::read_to_string(file).expect("distill file").lines() {
            let (pos, moves) = parse_search(line).expect("a long search");
            let mover = pos.side_to_move();
            let moves: Vec<(Move, f32)> = moves.iter().map(|&(mv, v, _)| (mv, v as f32)).collect();
            let total: f32 = moves.iter().map(|m| m.1).sum();
            if moves.len() < 2 || total <= 0.0 {
                continue;
            }
            let root = Root {
                moves: moves
                    .iter()
                    .map(|&(mv, visits)| {
                        let mut after = pos;
                        after.play_unchecked(mv);
                        (Inputs::of(&after, mover, scoring), visits / total)
                    })
                    .collect(),
            };
            if line_no % 5 == 4 {
                test.push((scoring, pos.edges_left(), root));
            } else {
                train.push(root);
            }
            line_no += 1;
        }
    }
    let epochs = std::env::var("EPOCHS").map_or(300, |e| e.parse().unwrap());
    let l2: f32 = std::env::var("L2").map_or(1e-4, |e| e.parse().unwrap());
    println!(
        "{} positions fitted, {} held out; {epochs} epochs, L2 {l2}",
        train.len(),
        test.len()
    );
    let prior = fit(&train, epochs, l2, |epoch, loss| {
        eprintln!("epoch {epoch}: cross-entropy {loss:.4}");
    });
    std::fs::write(out, prior.to_bytes()).expect("write the weights");
    let mut by_left: BTreeMap<(&str, u32), [f64; 5]> = BTreeMap::new();
    for (scoring, left, root) in &test {
        let scores: Vec<f32> = root.moves.iter().map(|(x, _)| prior.score(x)).collect();
        let p = softmax(&scores);
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by(|&a, &b| p[b].total_cmp(&p[a]));
        let most = (0..p.len())
            .max_by(|&a, &b| root.moves[a].1.total_cmp(&root.moves[b].1))
            .unwrap();
        let top5: f32 = order.iter().take(5).map(|&i| root.moves[i].1).sum();
        let uniform = (root.moves.len() as f64).ln();
        let e = by_left.entry((scoring.name(), *left)).or_default();
        e[0] += 1.0;
        e[1] += cross_entropy(&prior, std::slice::from_ref(root));
        e[2] += uniform;
        e[3] += f64::from(u8::from(order[0] == most));
        e[4] += f64::from(top5);
    }
    println!(
        "scoring  left  positions  cross-entropy (uniform)  favourite = most visited  visits on top 5"
    );
    for ((scoring, left), [n, ce, uni, fav, top5]) in by_left {
        println!(
            "{scoring:<7}  {left:>4}  {n:>9}  {:>13.3} ({:.3})  {:>24.1}%  {:>14.1}%",
            ce / n,
            uni / n,
            100.0 * fav / n,
            100.0 * top5 / n
        );
    }
}
