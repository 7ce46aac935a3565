//! Fits the evaluation model to label files and prints its agreement with the solver on the
//! held-out labels: `mabula train fit` without the command line's build cost, for trying
//! features quickly.
//!
//! ```text
//! cargo run -p mabula-engine --example learn_fit -- [EPOCHS=600] [RATE=0.05] [L2=1e-4] FILE...
//! ```

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
