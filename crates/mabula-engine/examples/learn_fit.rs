//! Fits the evaluation model to label files and prints its agreement with the solver on the
//! held-out labels: `mabula train fit` without the command line's build cost, for trying
//! features quickly.
//!
//! ```text
//! [MLP=1] [SEARCH=1] cargo run -p mabula-engine --example learn_fit -- \
//!     [EPOCHS=600] [RATE=0.05] [L2=1e-4] FILE...
//! ```
//!
//! `MLP=1` also fits the small network of `learn::mlp` and prints its agreement; `SEARCH=1`
//! also judges each held-out position by one push of search with the model at the leaves.

use mabula_engine::learn::labels::{Label, read_labels};
use mabula_engine::learn::model::{Agreement, FitSettings, Sample, fit, held_out};
use std::collections::BTreeMap;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<f64> = args.iter().map_while(|a| a.parse().ok()).collect();
    let defaults = FitSettings::default();
    let settings = FitSettings {
        epochs: numbers.first().map_or(defaults.epochs, |&e| e as usize),
        rate: numbers.get(1).map_or(defaults.rate, |&r| r as f32),
        l2: numbers.get(2).map_or(defaults.l2, |&l| l as f32),
    };
    let mut labels: Vec<Label> = Vec::new();
    for path in &args[numbers.len()..] {
        labels.extend(read_labels(std::fs::File::open(path)?)?);
    }
    let (held, train): (Vec<&Label>, Vec<&Label>) =
        labels.iter().partition(|l| held_out(&l.position));
    let samples: Vec<Sample> = train.iter().map(|l| Sample::of(l)).collect();
    let model = fit(&samples, &settings, |epoch, loss| {
        if epoch % 200 == 0 {
            eprintln!("epoch {epoch}: loss {loss:.4}");
        }
    });
    if std::env::var_os("MLP").is_some() {
        let mlp = mabula_engine::learn::mlp::fit_mlp(&samples, 200, 0.003, 1);
        for (what, set) in [("mlp fitted", &train), ("mlp held out", &held)] {
            let mut groups: BTreeMap<(&str, u32), (u64, u64)> = BTreeMap::new();
            for l in set.iter() {
                let s = Sample::of(l);
                let p = mlp.probabilities(&s.features, l.scoring);
                let e = groups.entry((l.scoring.name(), l.left())).or_default();
                e.0 += 1;
                e.1 += u64::from(mabula_engine::eval::model::argmax(p) == s.class);
            }
            for ((scoring, left), (n, agreed)) in groups {
                println!(
                    "{what:<12} {scoring:<8} {left:>2} left: {n:>6} positions, agreed {:.1}%",
                    100.0 * agreed as f64 / n as f64
                );
            }
        }
    }
    if std::env::var_os("SEARCH").is_some() {
        // One push of search: the model on every child, the mover taking the best; the result
        // is the most likely one of the chosen child, seen from the mover.
        let mut groups: BTreeMap<(&str, u32), (u64, u64)> = BTreeMap::new();
        for l in &held {
            let mut best: Option<[f32; 3]> = None;
            for mv in l.position.legal_moves() {
                let mut child = l.position;
                child.play_unchecked(mv);
                let p = if child.is_game_over() {
                    let s = child.scores(l.scoring);
                    let me = l.position.side_to_move();
                    let m = s.of(me) as i32 - s.of(me.other()) as i32;
                    let mut p = [0.0; 3];
                    p[(m.signum() + 1) as usize] = 1.0;
                    p
                } else {
                    let q = model.probabilities(&child, l.scoring);
                    if child.side_to_move() == l.position.side_to_move() {
                        q
                    } else {
                        [q[2], q[1], q[0]]
                    }
                };
                if best.is_none_or(|b| p[2] + 0.5 * p[1] > b[2] + 0.5 * b[1]) {
                    best = Some(p);
                }
            }
            let e = groups.entry((l.scoring.name(), l.left())).or_default();
            e.0 += 1;
            let class = (l.result() + 1) as usize;
            e.1 += u64::from(best.is_some_and(|p| mabula_engine::eval::model::argmax(p) == class));
        }
        for ((scoring, left), (n, agreed)) in groups {
            println!(
                "1-push search held out {scoring:<8} {left:>2} left: {n:>6} positions, agreed {:.1}%",
                100.0 * agreed as f64 / n as f64
            );
        }
    }
    for (what, set) in [("fitted", &train), ("held out", &held)] {
        let mut groups: BTreeMap<(&str, u32), Agreement> = BTreeMap::new();
        for l in set.iter() {
            groups
                .entry((l.scoring.name(), l.left()))
                .or_default()
                .add(&model, l);
        }
        for ((scoring, left), a) in groups {
            println!(
                "{what:<8} {scoring:<8} {left:>2} left: {:>6} positions, agreed {:.1}% (commonest {:.1}%), log-loss {:.3}",
                a.positions,
                100.0 * a.accuracy(),
                100.0 * a.majority(),
                a.mean_log_loss()
            );
        }
    }
    Ok(())
}
