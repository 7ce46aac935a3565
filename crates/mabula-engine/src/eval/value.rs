//! A value of opening and middle-game positions, fitted to the results of self-play games.
//!
//! It reads what the move prior reads ([`Inputs`]: the twelve lines' table entries and the cheap
//! counts, from the side of the player who just moved), but its count weights are per number of
//! marbles left on edge spaces rather than per phase, since that number also tells whose seat the
//! mover is in (the second player wins most games). A logistic function of the sum gives the
//! mover's expected score (win 1, draw 1/2, loss 0). It is fitted to the results of level-10
//! self-play games (`learn::value`, behind the `learn` feature); in the tree it gives every new child a head start of a few
//! playouts' worth at that value ([`crate::mcts::ValuePrior`]).
//!
//! # The weights file
//!
//! `MBVALUE`, a version byte (1), then for each scoring mode (largest, product) the three tables
//! (`3 x 3^8`) and the count weights (`EDGES x COUNTS`), little-endian `f32`.

use super::prior::{BadFile, COUNTS, ENTRIES, Inputs, TABLES, VERSION, known_modes, read_weights};
use mabula::{Color, Position, Scoring};

/// Rows of count weights: one for each number of marbles left on edge spaces (0 to 24).
pub const EDGES: usize = 25;
const TABLE_WEIGHTS: usize = TABLES * ENTRIES;
const MODE_WEIGHTS: usize = TABLE_WEIGHTS + EDGES * COUNTS;
pub(crate) const WEIGHTS: usize = 2 * MODE_WEIGHTS;
pub(crate) const MAGIC: [u8; 7] = *b"MBVALUE";

/// The value shipped with the engine.
static EMBEDDED: &[u8] = include_bytes!("../../weights/value.bin");

/// Why a value weights file could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// Wrong magic word or version.
    #[error("not a value weights file of version {VERSION}")]
    Header,
    /// Too short or too long.
    #[error("the value weights file has {0} bytes, {expected} expected", expected = 8 + 4 * WEIGHTS)]
    Length(usize),
}

/// The fitted value.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueModel {
    /// The tables of each scoring mode, then its count weights per number of marbles left
    /// (written by the fitting in `learn::value`).
    pub(crate) weights: Vec<f32>,
    /// For each scoring mode, whether it has weights (was fitted).
    known: [bool; 2],
}

impl Default for ValueModel {
    /// All weights zero: every position an even game.
    fn default() -> ValueModel {
        ValueModel {
            weights: vec![0.0; WEIGHTS],
            known: [false; 2],
        }
    }
}

impl ValueModel {
    /// The value built into the engine.
    pub fn embedded() -> ValueModel {
        ValueModel::from_bytes(EMBEDDED).expect("the embedded value weights are well formed")
    }

    /// Whether the value was fitted for `scoring`.
    pub fn knows(&self, scoring: Scoring) -> bool {
        self.known[usize::from(scoring == Scoring::Product)]
    }

    pub(crate) fn with_weights(weights: Vec<f32>) -> ValueModel {
        let known = known_modes(&weights, MODE_WEIGHTS);
        ValueModel { weights, known }
    }

    /// Reads a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<ValueModel, ValueError> {
        match read_weights(bytes, &MAGIC, WEIGHTS) {
            Ok(weights) => Ok(ValueModel::with_weights(weights)),
            Err(BadFile::Header) => Err(ValueError::Header),
            Err(BadFile::Length(n)) => Err(ValueError::Length(n)),
        }
    }

    /// Where the table weights of `x`'s scoring mode start, and where its count weights are.
    pub(crate) fn offsets(x: &Inputs) -> (usize, usize) {
        let mode = usize::from(x.product) * MODE_WEIGHTS;
        (mode, mode + TABLE_WEIGHTS + x.edges.min(EDGES - 1) * COUNTS)
    }

    /// The logit of the mover's expected score.
    pub fn logit(&self, x: &Inputs) -> f32 {
        let (mode, at) = ValueModel::offsets(x);
        x.dot(&self.weights, mode, at)
    }

    /// The expected score (win 1, draw 1/2, loss 0) of the player who just moved.
    pub fn expected(&self, x: &Inputs) -> f32 {
        1.0 / (1.0 + (-self.logit(x)).exp())
    }

    /// The expected score of `mover`, who just moved to `after`.
    pub fn expected_of(&self, after: &Position, mover: Color, scoring: Scoring) -> f32 {
        self.expected(&Inputs::of(after, mover, scoring))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weights_file_of_the_wrong_shape_is_refused() {
        assert_eq!(
            ValueModel::from_bytes(b"MBVALUE\x01"),
            Err(ValueError::Length(8))
        );
        assert_eq!(
            ValueModel::from_bytes(b"MBPRIOR\x01"),
            Err(ValueError::Header)
        );
    }

    #[test]
    fn the_embedded_value_reads_and_gives_a_probability() {
        let value = ValueModel::embedded();
        let pos = mabula::deal::random(3, Color::White);
        let mut after = pos;
        after.play_unchecked(pos.legal_moves()[0]);
        let p = value.expected_of(&after, Color::White, Scoring::Largest);
        assert!((0.0..=1.0).contains(&p), "{p}");
    }
}
