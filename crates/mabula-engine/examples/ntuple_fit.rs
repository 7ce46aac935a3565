//! Tries n-tuple tables over the lines beside (or instead of) the model's whole-board features.
//!
//! ```text
//! cargo run --release -p mabula-engine --example ntuple_fit -- largest|product FILE...
//! ```
//!
//! `FILE`s are label files (`.mlb`, split into fitted and held-out labels by hash as `mabula
//! train fit` does) and sibling files of the `siblings` example (every fourth line is held out;
//! the positions after the moves of the other lines are fitted with the result they keep). Each
//! of the twelve lines through the field (eight squares: two edge spaces and six field squares)
//! is read as empty, own or the opponent's square by square, from the side to move, and looks up
//! a table of loss/draw/win weights; a line and its mirror image share an entry, and lines at the
//! same distance from the board's edge share a table. Three models are fitted: the dense
//! features alone, the tables alone, and both; each reports its agreement on the held-out labels
//! and, on the held-out sibling lines, how often the move whose position it judges best for the
//! mover keeps the best result.

use mabula::{Move, Position, Scoring};
use mabula_engine::eval::features::{FEATURES, Features, features};
use mabula_engine::eval::model::{PHASES, phase};
use mabula_engine::eval::prior::{ENTRIES, Inputs, TABLES};
use mabula_engine::learn::labels::read_labels;
use mabula_engine::learn::model::held_out;

const TABLE_WEIGHTS: usize = TABLES * ENTRIES * 3;
const DENSE_WEIGHTS: usize = PHASES * 3 * FEATURES;

/// The table entry of each of the twelve lines of `pos`, from the side to move (the move prior's
/// reading of a position).
fn tuples(pos: &Position, scoring: Scoring) -> [u32; 12] {
    Inputs::of(pos, pos.side_to_move(), scoring).lines
}

struct Sample {
    dense: Features,
    tuples: [u32; 12],
    phase: usize,
    class: usize,
}

impl Sample {
    fn of(pos: &Position, scoring: Scoring, result: i32) -> Sample {
        Sample {
            dense: features(pos, scoring),
            tuples: tuples(pos, scoring),
            phase: phase(pos),
            class: (result + 1) as usize,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Dense,
    Tables,
    Both,
}

struct Fitted {
    kind: Kind,
    dense: Vec<f32>,
    tables: Vec<f32>,
}

impl Fitted {
    fn logits(&self, s: &Sample) -> [f32; 3] {
        std::array::from_fn(|c| {
            let mut z = 0.0;
            if self.kind != Kind::Tables {
                let at = (s.phase * 3 + c) * FEATURES;
                z += self.dense[at..at + FEATURES]
                    .iter()
                    .zip(&s.dense)
                    .map(|(w, x)| w * x)
                    .sum::<f32>();
            } else {
                z += self.dense[(s.phase * 3 + c) * FEATURES];
            }
            if self.kind != Kind::Dense {
                z += s
                    .tuples
                    .iter()
                    .map(|&t| self.tables[t as usize * 3 + c])
                    .sum::<f32>();
            }
            z
        })
    }

    fn probabilities(&self, s: &Sample) -> [f32; 3] {
        let z = self.logits(s);
        let top = z.iter().copied().fold(f32::MIN, f32::max);
        let e = z.map(|v| (v - top).exp());
        let sum: f32 = e.iter().sum();
        e.map(|v| v / sum)
    }

    fn expected(&self, s: &Sample) -> f32 {
        let p = self.probabilities(s);
        p[2] + 0.5 * p[1]
    }
}

/// Full-batch Adam on the cross-entropy, L2 on every weight but the biases.
fn fit(samples: &[Sample], kind: Kind, epochs: usize, l2: f32) -> Fitted {
    let mut model = Fitted {
        kind,
        dense: vec![0.0; DENSE_WEIGHTS],
        tables: vec![0.0; TABLE_WEIGHTS],
    };
    let total = DENSE_WEIGHTS + TABLE_WEIGHTS;
    let (mut m, mut v) = (vec![0f32; total], vec![0f32; total]);
    let (b1, b2, rate) = (0.9f32, 0.999f32, 0.05f32);
    let n = samples.len() as f32;
    for epoch in 1..=epochs {
        let mut grad = vec![0f32; total];
        let mut loss = 0.0f64;
        for s in samples {
            let p = model.probabilities(s);
            loss -= f64::from(p[s.class].max(1e-7).ln());
            for (c, pc) in p.iter().enumerate() {
                let err = pc - f32::from(c == s.class);
                let at = (s.phase * 3 + c) * FEATURES;
                if kind == Kind::Tables {
                    grad[at] += err;
                } else {
                    for (g, x) in grad[at..at + FEATURES].iter_mut().zip(&s.dense) {
                        *g += err * x;
                    }
                }
                if kind != Kind::Dense {
                    for &t in &s.tuples {
                        grad[DENSE_WEIGHTS + t as usize * 3 + c] += err;
                    }
                }
            }
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..total {
            let w = if i < DENSE_WEIGHTS {
                &mut model.dense[i]
            } else {
                &mut model.tables[i - DENSE_WEIGHTS]
            };
            let bias = i < DENSE_WEIGHTS && i % FEATURES == 0;
            let g = grad[i] / n + if bias { 0.0 } else { l2 * *w };
            if g == 0.0 && m[i] == 0.0 {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            *w -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
        }
        if epoch % 100 == 0 {
            eprintln!("epoch {epoch}: loss {:.4}", loss / f64::from(n));
        }
    }
    model
}

/// Samples of many positions, computed on two threads.
fn samples_of(items: &[(Position, i32)], scoring: Scoring) -> Vec<Sample> {
    std::thread::scope(|s| {
        let halves: Vec<_> = items
            .chunks(items.len().div_ceil(2).max(1))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|(p, r)| Sample::of(p, scoring, *r))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scoring: Scoring = args[0].parse().expect("scoring");
    let (mut train, mut test) = (Vec::new(), Vec::new());
    // Held-out sibling lines: the position and each move with the result it keeps.
    let mut sibling_tests: Vec<(Position, Vec<(Move, i32)>)> = Vec::new();
    for file in &args[1..] {
        if file.ends_with(".mlb") {
            for l in read_labels(std::fs::File::open(file).expect("labels")).expect("labels") {
                if l.scoring == scoring {
                    let set = if held_out(&l.position) {
                        &mut test
                    } else {
                        &mut train
                    };
                    set.push((l.position, l.result()));
                }
            }
            continue;
        }
        let text = std::fs::read_to_string(file).expect("siblings");
        for (i, line) in text.lines().enumerate() {
            let (pos, moves) = line.split_once('\t').expect("a tab");
            let pos: Position = pos.parse().expect("position");
            let moves: Vec<(Move, i32)> = moves
                .split(' ')
                .map(|m| {
                    let (mv, r) = m.split_once(':').expect("move:result");
                    (mv.parse().expect("move"), r.parse().expect("result"))
                })
                .collect();
            if i % 4 == 3 {
                sibling_tests.push((pos, moves));
            } else {
                for &(mv, kept) in &moves {
                    let mut next = pos;
                    next.play_unchecked(mv);
                    train.push((next, -kept));
                }
            }
        }
    }
    let epochs: usize = std::env::var("EPOCHS").map_or(400, |e| e.parse().unwrap());
    let l2: f32 = std::env::var("L2").map_or(1e-4, |e| e.parse().unwrap());
    eprintln!(
        "{} fitted, {} held out, {} held-out sibling lines",
        train.len(),
        test.len(),
        sibling_tests.len()
    );
    let train_samples = samples_of(&train, scoring);
    let test_samples = samples_of(&test, scoring);
    // Each held-out sibling line: the samples of its moves' positions, with the kept results.
    let sibling_samples: Vec<Vec<(Sample, i32)>> = sibling_tests
        .iter()
        .map(|(pos, moves)| {
            let items: Vec<(Position, i32)> = moves
                .iter()
                .map(|&(mv, kept)| {
                    let mut next = *pos;
                    next.play_unchecked(mv);
                    (next, kept)
                })
                .collect();
            let samples = samples_of(&items, scoring);
            samples.into_iter().zip(moves.iter().map(|m| m.1)).collect()
        })
        .collect();
    println!(
        "{scoring}: {} fitted, {} held out, {} held-out sibling lines, {epochs} epochs, L2 {l2}",
        train.len(),
        test.len(),
        sibling_tests.len()
    );
    for (name, kind) in [
        ("dense", Kind::Dense),
        ("tables", Kind::Tables),
        ("both", Kind::Both),
    ] {
        let model = fit(&train_samples, kind, epochs, l2);
        let agree = |set: &[Sample], (i, _): (usize, &(Position, i32))| {
            let p = model.probabilities(&set[i]);
            let best = (0..3).fold(0, |b, c| if p[c] > p[b] { c } else { b });
            best == set[i].class
        };
        let mut by_left: std::collections::BTreeMap<u32, (u32, u32)> = Default::default();
        for (i, item) in test.iter().enumerate() {
            let e = by_left.entry(item.0.edges_left()).or_default();
            e.0 += 1;
            e.1 += u32::from(agree(&test_samples, (i, item)));
        }
        let fitted_agree = train
            .iter()
            .enumerate()
            .filter(|&(i, item)| agree(&train_samples, (i, item)))
            .count() as f64
            / train.len() as f64;
        let mut line = format!("{name:<7} fitted {:.1}%; held out:", 100.0 * fitted_agree);
        for (left, (n, a)) in by_left {
            line += &format!(
                " {left} left {:.1}% ({n})",
                100.0 * f64::from(a) / f64::from(n)
            );
        }
        // The mover takes the move whose position is worst for the opponent.
        let (mut critical, mut kept, mut random) = (0, 0, 0.0);
        for moves in &sibling_samples {
            let best = moves.iter().map(|m| m.1).max().unwrap();
            if moves.iter().all(|m| m.1 == best) {
                continue;
            }
            critical += 1;
            let chosen = moves
                .iter()
                .min_by(|a, b| model.expected(&a.0).total_cmp(&model.expected(&b.0)))
                .unwrap();
            kept += u32::from(chosen.1 == best);
            random += moves.iter().filter(|m| m.1 == best).count() as f64 / moves.len() as f64;
        }
        line += &format!(
            "; best move kept in {:.1}% of {critical} sibling lines whose moves differ (a random move {:.1}%)",
            100.0 * f64::from(kept) / f64::from(critical.max(1)),
            100.0 * random / f64::from(critical.max(1))
        );
        println!("{line}");
    }
}
