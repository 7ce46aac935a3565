//! Fitting the evaluation model ([`crate::eval::model`]) to exact labels: the training examples,
//! the held-out split, full-batch Adam on the cross-entropy, the agreement with the solver, and
//! the weights file the fit writes.

use super::labels::Label;
use crate::eval::features::{FEATURES, Features, features};
use crate::eval::model::{
    CLASSES, MAGIC, Model, PHASES, VERSION, WEIGHTS, argmax, logits, phase, scoring_index, softmax,
};
use mabula::{Position, Scoring};

impl Model {
    /// The weights file of this model (what [`Model::from_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + 4 * WEIGHTS);
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        out.push(FEATURES as u8);
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// A training example: features, phase, scoring and the class (0 loss, 1 draw, 2 win).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The features of the position.
    pub features: Features,
    /// Its phase.
    pub phase: usize,
    /// The scoring mode.
    pub scoring: Scoring,
    /// 0 loss, 1 draw, 2 win for the side to move.
    pub class: usize,
}

impl Sample {
    /// The example of a label.
    pub fn of(label: &Label) -> Sample {
        Sample {
            features: features(&label.position, label.scoring),
            phase: phase(&label.position),
            scoring: label.scoring,
            class: (label.result() + 1) as usize,
        }
    }
}

/// Whether a position belongs to the held-out set (one in ten, by its hash, whatever the file
/// or the order it comes in).
pub fn held_out(pos: &Position) -> bool {
    (pos.hash() >> 7).is_multiple_of(10)
}

/// How a model is fitted.
#[derive(Clone, Debug)]
pub struct FitSettings {
    /// Passes over the data (full-batch steps).
    pub epochs: usize,
    /// Adam's step size.
    pub rate: f32,
    /// L2 penalty on the weights (not on the bias).
    pub l2: f32,
}

impl Default for FitSettings {
    fn default() -> FitSettings {
        FitSettings {
            epochs: 600,
            rate: 0.05,
            l2: 1e-4,
        }
    }
}

/// Fits a model to `samples` by full-batch gradient descent (Adam) on the cross-entropy, one
/// block of weights per scoring mode and phase; `report(epoch, mean loss)` is called now and
/// then. Phases without samples copy the nearest phase that has some.
pub fn fit(
    samples: &[Sample],
    settings: &FitSettings,
    mut report: impl FnMut(usize, f64),
) -> Model {
    let mut model = Model::default();
    let mut trained = [[false; PHASES]; 2];
    for s in samples {
        trained[scoring_index(s.scoring)][s.phase] = true;
    }
    let n = samples.len().max(1) as f32;
    let size = CLASSES * FEATURES;
    let mut m = vec![0f32; WEIGHTS];
    let mut v = vec![0f32; WEIGHTS];
    let (b1, b2) = (0.9f32, 0.999f32);
    for epoch in 1..=settings.epochs {
        let mut grad = vec![0f32; WEIGHTS];
        let mut loss = 0f64;
        for s in samples {
            let at = Model::offset(s.scoring, s.phase);
            let p = softmax(logits(&model.weights[at..at + size], &s.features));
            loss -= f64::from(p[s.class].max(1e-7).ln());
            for (c, pc) in p.iter().enumerate() {
                let err = pc - f32::from(c == s.class);
                let g = &mut grad[at + c * FEATURES..at + (c + 1) * FEATURES];
                for (gi, x) in g.iter_mut().zip(&s.features) {
                    *gi += err * x;
                }
            }
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..WEIGHTS {
            let l2 = if i % FEATURES == 0 { 0.0 } else { settings.l2 };
            let g = grad[i] / n + l2 * model.weights[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            model.weights[i] -= settings.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
        }
        if epoch == 1 || epoch % 50 == 0 || epoch == settings.epochs {
            report(epoch, loss / f64::from(n));
        }
    }
    for (si, phases) in trained.iter().enumerate() {
        for phase in 0..PHASES {
            if phases[phase] {
                continue;
            }
            let nearest = (0..PHASES)
                .filter(|&p| phases[p])
                .min_by_key(|&p| (p.abs_diff(phase), p));
            if let Some(from) = nearest {
                let src = (si * PHASES + from) * size;
                let dst = (si * PHASES + phase) * size;
                model.weights.copy_within(src..src + size, dst);
            }
        }
    }
    model
}

/// Agreement of a model with exact labels, for one group of positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions.
    pub positions: u64,
    /// Positions whose most likely result is the exact one.
    pub agreed: u64,
    /// Exact results: losses, draws, wins for the side to move.
    pub results: [u64; 3],
    /// Summed cross-entropy of the exact result.
    pub log_loss: f64,
}

impl Agreement {
    /// Adds one labelled position.
    pub fn add(&mut self, model: &Model, label: &Label) {
        let p = model.probabilities(&label.position, label.scoring);
        let class = (label.result() + 1) as usize;
        self.positions += 1;
        self.agreed += u64::from(argmax(p) == class);
        self.results[class] += 1;
        self.log_loss -= f64::from(p[class].max(1e-7).ln());
    }

    /// The share of positions agreed on.
    pub fn accuracy(&self) -> f64 {
        self.agreed as f64 / self.positions.max(1) as f64
    }

    /// The share a constant guess of the commonest result would agree on.
    pub fn majority(&self) -> f64 {
        *self.results.iter().max().unwrap_or(&0) as f64 / self.positions.max(1) as f64
    }

    /// The mean cross-entropy.
    pub fn mean_log_loss(&self) -> f64 {
        self.log_loss / self.positions.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::model::WeightsError;
    use crate::learn::labels::Source;
    use mabula::{Color, Move};

    #[test]
    fn weights_survive_a_round_trip_through_their_file() {
        let mut model = Model::default();
        for (i, w) in model.weights.iter_mut().enumerate() {
            *w = i as f32 * 0.25 - 7.0;
        }
        assert_eq!(Model::from_bytes(&model.to_bytes()).unwrap(), model);
        let mut bytes = model.to_bytes();
        bytes[7] = 3;
        assert_eq!(Model::from_bytes(&bytes), Err(WeightsError::Features(3)));
        let bytes = model.to_bytes();
        assert_eq!(
            Model::from_bytes(&bytes[..20]),
            Err(WeightsError::Length(20))
        );
        assert_eq!(Model::from_bytes(b"MBEVAX"), Err(WeightsError::Header));
    }

    #[test]
    fn the_embedded_weights_file_reads_back_byte_for_byte() {
        let embedded = include_bytes!("../../weights/eval.bin");
        assert_eq!(Model::from_bytes(embedded).unwrap().to_bytes(), embedded);
    }

    #[test]
    fn fitting_learns_a_rule_that_the_features_show() {
        // Positions where the side to move has the larger largest group are called wins,
        // the others losses: a rule one feature shows, which the fit must find.
        let mut rng = crate::rng::Rng::new(2);
        let mut labels = Vec::new();
        for game in 0..400 {
            let mut pos = mabula::deal::random(game, Color::White);
            for _ in 0..14 {
                let n = pos.count_moves();
                pos.play_unchecked(pos.nth_move(rng.below(n)));
            }
            let s = pos.scores(Scoring::Largest);
            let me = pos.side_to_move();
            let margin = (s.of(me) as i32 - s.of(me.other()) as i32).signum();
            if margin == 0 {
                continue;
            }
            labels.push(Label {
                position: pos,
                scoring: Scoring::Largest,
                margin: margin as i8,
                best: Move::PASS,
                source: Source::Exact,
            });
        }
        let samples: Vec<Sample> = labels.iter().map(Sample::of).collect();
        let model = fit(&samples, &FitSettings::default(), |_, _| {});
        let mut agreement = Agreement::default();
        for label in &labels {
            agreement.add(&model, label);
        }
        assert!(agreement.accuracy() > 0.95, "{agreement:?}");
        // The phase 10 moves later had no data and copies the trained one.
        let pos = labels[0].position;
        let f = features(&pos, Scoring::Largest);
        assert_eq!(
            model.probabilities_of(&f, Scoring::Largest, 0),
            model.probabilities_of(&f, Scoring::Largest, phase(&pos))
        );
    }
}
