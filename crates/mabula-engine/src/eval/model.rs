//! The evaluation model: win, draw or loss for the side to move, from whole-board features.
//!
//! A multinomial logistic model (a softmax over three classes: loss, draw, win) over the
//! [`features`](super::features), with its own weights for each scoring mode and each phase of
//! the game. A phase is two steps of the clock (marbles left on edge spaces 0-1, 2-3, ... 24), so
//! a position and the one after the opponent's reply share weights. A phase with no training data
//! takes the weights of the nearest phase that had some. The fitting is `learn::model` (behind
//! the `learn` feature); this module only reads weights and evaluates.
//!
//! # The weights file
//!
//! `MBEVAL`, a version byte (1), the number of features `F` as a byte, then
//! `2 x PHASES x 3 x F` little-endian `f32`: scoring (largest, product), phase, class (loss,
//! draw, win), feature. The engine embeds `weights/eval.bin` with `include_bytes!`.

use super::features::{FEATURES, Features, features};
use mabula::{Position, Scoring};

/// Phases of the game with their own weights.
pub const PHASES: usize = 13;

/// Classes: loss, draw, win for the side to move.
pub const CLASSES: usize = 3;

pub(crate) const MAGIC: [u8; 6] = *b"MBEVAL";
pub(crate) const VERSION: u8 = 1;
pub(crate) const WEIGHTS: usize = 2 * PHASES * CLASSES * FEATURES;

/// The weights shipped with the engine.
static EMBEDDED: &[u8] = include_bytes!("../../weights/eval.bin");

/// The phase of a position: marbles left on edge spaces, two at a time.
pub fn phase(pos: &Position) -> usize {
    phase_of(pos.edges_left() as usize)
}

/// The phase of a position with `edges` marbles left on edge spaces.
pub fn phase_of(edges: usize) -> usize {
    (edges / 2).min(PHASES - 1)
}

pub(crate) fn scoring_index(scoring: Scoring) -> usize {
    usize::from(scoring == Scoring::Product)
}

/// Why a weights file could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Wrong magic word or version.
    #[error("not an evaluation weights file of version {VERSION}")]
    Header,
    /// Made for another feature set.
    #[error("the weights are for {0} features, the engine has {FEATURES}")]
    Features(u8),
    /// Too short or too long.
    #[error("the weights file has {0} bytes, {expected} expected", expected = 8 + 4 * WEIGHTS)]
    Length(usize),
}

/// A fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Indexed by scoring, phase, class, feature (written by the fitting in `learn::model`).
    pub(crate) weights: Vec<f32>,
}

impl Default for Model {
    /// All weights zero: every class equally likely.
    fn default() -> Model {
        Model {
            weights: vec![0.0; WEIGHTS],
        }
    }
}

impl Model {
    /// The model embedded in the engine.
    pub fn embedded() -> Model {
        Model::from_bytes(EMBEDDED).expect("the embedded weights match the features")
    }

    /// Reads a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, WeightsError> {
        if bytes.len() < 8 || bytes[..6] != MAGIC || bytes[6] != VERSION {
            return Err(WeightsError::Header);
        }
        if bytes[7] as usize != FEATURES {
            return Err(WeightsError::Features(bytes[7]));
        }
        if bytes.len() != 8 + 4 * WEIGHTS {
            return Err(WeightsError::Length(bytes.len()));
        }
        let weights = bytes[8..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Model { weights })
    }

    pub(crate) fn offset(scoring: Scoring, phase: usize) -> usize {
        (scoring_index(scoring) * PHASES + phase) * CLASSES * FEATURES
    }

    fn block(&self, scoring: Scoring, phase: usize) -> &[f32] {
        let at = Model::offset(scoring, phase);
        &self.weights[at..at + CLASSES * FEATURES]
    }

    /// Loss, draw and win probabilities for a feature vector in a phase.
    pub fn probabilities_of(&self, f: &Features, scoring: Scoring, phase: usize) -> [f32; 3] {
        softmax(logits(self.block(scoring, phase), f))
    }

    /// Loss, draw and win probabilities for the side to move of `pos`.
    pub fn probabilities(&self, pos: &Position, scoring: Scoring) -> [f32; 3] {
        self.probabilities_of(&features(pos, scoring), scoring, phase(pos))
    }

    /// The expected score for the side to move (win 1, draw 1/2, loss 0).
    pub fn expected(&self, pos: &Position, scoring: Scoring) -> f32 {
        let p = self.probabilities(pos, scoring);
        p[2] + 0.5 * p[1]
    }

    /// The most likely result for the side to move: -1, 0 or 1.
    pub fn predict(&self, pos: &Position, scoring: Scoring) -> i32 {
        argmax(self.probabilities(pos, scoring)) as i32 - 1
    }
}

pub(crate) fn logits(block: &[f32], f: &Features) -> [f32; 3] {
    std::array::from_fn(|c| {
        block[c * FEATURES..(c + 1) * FEATURES]
            .iter()
            .zip(f)
            .map(|(w, x)| w * x)
            .sum()
    })
}

pub(crate) fn softmax(z: [f32; 3]) -> [f32; 3] {
    let top = z.iter().copied().fold(f32::MIN, f32::max);
    let e = z.map(|v| (v - top).exp());
    let sum: f32 = e.iter().sum();
    e.map(|v| v / sum)
}

/// The index of the largest of three.
pub fn argmax(p: [f32; 3]) -> usize {
    (0..3).fold(0, |best, i| if p[i] > p[best] { i } else { best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::Color;

    /// A position 12 pushes from the end (label 0 of `data/labels/largest-12.mlb`).
    const KNOWN: &str = "2b1wbb1/1bwbw2w/1b2ww2/bbb1w3/b4bw1/w7/w6b/3w2w1 b";
    const KNOWN_LARGEST: [f32; 3] = [0.926_883_9, 0.066_569_32, 0.006_546_823_3];
    const KNOWN_PRODUCT: [f32; 3] = [0.505_911_7, 0.191_024_9, 0.303_063_42];

    #[test]
    fn the_embedded_weights_give_the_known_answer_for_a_known_position() {
        // Refitting the weights changes these numbers: update them with the new weights.
        let pos: Position = KNOWN.parse().unwrap();
        let model = Model::embedded();
        let expected = [
            (Scoring::Largest, KNOWN_LARGEST),
            (Scoring::Product, KNOWN_PRODUCT),
        ];
        for (scoring, want) in expected {
            let p = model.probabilities(&pos, scoring);
            println!("{scoring}: {p:?}");
            for (got, want) in p.iter().zip(want) {
                assert!((got - want).abs() < 1e-5, "{scoring}: {p:?}");
            }
        }
    }

    #[test]
    fn a_weights_file_of_the_wrong_shape_is_refused() {
        let mut bytes = Vec::from(EMBEDDED);
        bytes[7] = 3;
        assert_eq!(Model::from_bytes(&bytes), Err(WeightsError::Features(3)));
        assert_eq!(
            Model::from_bytes(&EMBEDDED[..20]),
            Err(WeightsError::Length(20))
        );
        assert_eq!(Model::from_bytes(b"MBEVAX"), Err(WeightsError::Header));
    }

    #[test]
    fn a_zero_model_finds_every_result_equally_likely() {
        let pos = mabula::deal::random(1, Color::White);
        let p = Model::default().probabilities(&pos, Scoring::Largest);
        assert!(p.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-6));
    }
}
