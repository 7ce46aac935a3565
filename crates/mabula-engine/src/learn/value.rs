//! Fitting the value ([`crate::eval::value`]) to the results of self-play games.

use super::prior::{Adam, write_weights};
use crate::eval::prior::Inputs;
use crate::eval::value::{MAGIC, ValueModel, WEIGHTS};

impl ValueModel {
    /// The weights file of this value.
    pub fn to_bytes(&self) -> Vec<u8> {
        write_weights(&MAGIC, &self.weights)
    }
}

/// One position from a game: its inputs and the mover's final score (1, 1/2 or 0).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position after a move, seen by the mover.
    pub x: Inputs,
    /// The mover's score in the game.
    pub target: f32,
}

/// The mean log loss of `samples` under `model`.
pub fn log_loss(model: &ValueModel, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = f64::from(model.expected(&s.x)).clamp(1e-6, 1.0 - 1e-6);
            let t = f64::from(s.target);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits a value to `samples` by full-batch Adam on the log loss, with an L2 penalty `l2` on
/// every weight; `report(epoch, loss)` is called now and then.
pub fn fit(
    samples: &[Sample],
    epochs: usize,
    l2: f32,
    mut report: impl FnMut(usize, f64),
) -> ValueModel {
    let mut model = ValueModel::default();
    let mut adam = Adam::new(WEIGHTS);
    let n = samples.len().max(1) as f32;
    for epoch in 1..=epochs {
        let mut grad = vec![0f32; WEIGHTS];
        for s in samples {
            let (mode, at) = ValueModel::offsets(&s.x);
            s.x.add_to(&mut grad, mode, at, model.expected(&s.x) - s.target);
        }
        adam.step(&mut model.weights, &grad, n, l2);
        if epoch == 1 || epoch % 50 == 0 || epoch == epochs {
            report(epoch, log_loss(&model, samples));
        }
    }
    ValueModel::with_weights(model.weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::value::ValueError;
    use mabula::{Color, Scoring, deal};

    #[test]
    fn weights_survive_their_file_and_a_fit_learns_who_wins() {
        let pos = deal::random(3, Color::White);
        let samples: Vec<Sample> = pos
            .legal_moves()
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let mut after = pos;
                after.play_unchecked(mv);
                Sample {
                    x: Inputs::of(&after, Color::White, Scoring::Largest),
                    target: f32::from(u8::from(i % 2 == 0)),
                }
            })
            .collect();
        let before = log_loss(&ValueModel::default(), &samples);
        let model = fit(&samples, 100, 0.0, |_, _| {});
        assert!(log_loss(&model, &samples) < before);
        assert!(model.knows(Scoring::Largest) && !model.knows(Scoring::Product));
        assert_eq!(ValueModel::from_bytes(&model.to_bytes()).unwrap(), model);
        assert_eq!(
            ValueModel::from_bytes(b"MBVALUE\x01"),
            Err(ValueError::Length(8))
        );
        assert_eq!(
            ValueModel::from_bytes(b"MBPRIOR\x01"),
            Err(ValueError::Header)
        );
    }
}
