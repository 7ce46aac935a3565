//! A move prior: which moves a long search would look at, from n-tuple tables over the lines.
//!
//! A move is judged by the position it leads to, seen from the player who made it. Each of the
//! twelve lines through the field (its two edge spaces and six field squares, eight squares in
//! all) is read square by square as empty, the mover's or the opponent's, and looks up a weight in
//! a table; a line and its mirror image share an entry, and lines at the same distance from the
//! board's edge share a table (three tables of 3^8 entries). A few cheap counts are added (pairs
//! of neighbouring marbles of each side, contacts between the sides, pushes left to each side,
//! each side's score), with weights per phase. A softmax over the moves of a position turns these
//! scores into the prior; it is fitted to the visit shares of long level-10 searches
//! (`learn::prior`, behind the `learn` feature), so that a short search can start where a long
//! one would end up.
//!
//! One judgement is a few dozen table reads: cheap enough to order every expansion of the tree.
//!
//! # The weights file
//!
//! `MBPRIOR`, a version byte (1), then for each scoring mode (largest, product) the three tables
//! (`3 x 3^8`) and the count weights (`PHASES x COUNTS`), little-endian `f32`.

use crate::playout::{contacts, pairs};
use mabula::{Bitboard, Color, Position, Scoring};

/// Entries of one table: 3^8 states of a line.
pub const ENTRIES: usize = 6561;
/// Tables: lines one, two and three squares in from the board's edge.
pub const TABLES: usize = 3;
/// The cheap counts beside the tables.
pub const COUNTS: usize = 8;
/// Phases with their own count weights: the model's ([`super::model::phase`]), two steps of the
/// clock each.
pub const PHASES: usize = super::model::PHASES;
const TABLE_WEIGHTS: usize = TABLES * ENTRIES;
/// The weights of one scoring mode.
const MODE_WEIGHTS: usize = TABLE_WEIGHTS + PHASES * COUNTS;
pub(crate) const WEIGHTS: usize = 2 * MODE_WEIGHTS;
pub(crate) const MAGIC: [u8; 7] = *b"MBPRIOR";
pub(crate) const VERSION: u8 = 1;

/// The prior shipped with the engine.
static EMBEDDED: &[u8] = include_bytes!("../../weights/prior.bin");

/// Why a prior weights file could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PriorError {
    /// Wrong magic word or version.
    #[error("not a prior weights file of version {VERSION}")]
    Header,
    /// Too short or too long.
    #[error("the prior weights file has {0} bytes, {expected} expected", expected = 8 + 4 * WEIGHTS)]
    Length(usize),
}

/// What the prior reads of the position after a move: the table entries of the twelve lines and
/// the counts, from the mover's side, and the phase.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// Table index (table x 3^8 + entry) of each line.
    pub lines: [u32; 12],
    /// The cheap counts, scaled to about 0..1.
    pub counts: [f32; COUNTS],
    /// Marbles left on edge spaces.
    pub edges: usize,
    /// Whether the scoring mode is product (else largest).
    pub product: bool,
}

impl Inputs {
    /// The inputs of `pos` seen by `mover` (the player who just moved).
    pub fn of(pos: &Position, mover: Color, scoring: Scoring) -> Inputs {
        let me = pos.marbles(mover).0;
        let them = pos.marbles(mover.other()).0;
        // Base-3 digits: 0 empty, 1 the mover's, 2 the opponent's.
        let digit = |sq: usize| -> u32 { (me >> sq & 1) as u32 + 2 * (them >> sq & 1) as u32 };
        let mut lines = [0; 12];
        for k in 1..=6usize {
            let table = (k.min(7 - k) - 1) as u32;
            let rank: [usize; 8] = std::array::from_fn(|i| k * 8 + i);
            let file: [usize; 8] = std::array::from_fn(|i| i * 8 + k);
            for (j, line) in [rank, file].iter().enumerate() {
                let (mut fwd, mut back) = (0u32, 0u32);
                for i in 0..8 {
                    fwd = fwd * 3 + digit(line[i]);
                    back = back * 3 + digit(line[7 - i]);
                }
                lines[2 * (k - 1) + j] = table * ENTRIES as u32 + fwd.min(back);
            }
        }
        let field = Bitboard::FIELD.0;
        let (mf, tf) = (me & field, them & field);
        let pushes = |c: Color| pos.with_side_to_move(c).count_pushes() as f32 / 36.0;
        let counts = [
            1.0,
            pairs(mf) as f32 / 12.0,
            pairs(tf) as f32 / 12.0,
            contacts(mf, tf) as f32 / 12.0,
            pushes(mover),
            pushes(mover.other()),
            scoring.score_of(pos.marbles(mover)) as f32 / 12.0,
            scoring.score_of(pos.marbles(mover.other())) as f32 / 12.0,
        ];
        Inputs {
            lines,
            counts,
            edges: pos.edges_left() as usize,
            product: scoring == Scoring::Product,
        }
    }
}

impl Inputs {
    /// Marbles left on edge spaces, two at a time (the model's [`super::model::phase`]).
    pub fn phase(&self) -> usize {
        super::model::phase_of(self.edges)
    }

    /// The weighted sum of these inputs: the table weights of the scoring mode starting at
    /// `mode`, the count weights at `at`.
    pub(super) fn dot(&self, weights: &[f32], mode: usize, at: usize) -> f32 {
        let tables: f32 = self.lines.iter().map(|&i| weights[mode + i as usize]).sum();
        let counts: f32 = weights[at..at + COUNTS]
            .iter()
            .zip(&self.counts)
            .map(|(w, c)| w * c)
            .sum();
        tables + counts
    }
}

/// What is wrong with a table model's weights file.
pub(super) enum BadFile {
    /// Wrong magic word or version.
    Header,
    /// This many bytes, not the expected number.
    Length(usize),
}

/// The weights in a file that starts with `magic` and version byte 1 and holds `count` weights.
pub(super) fn read_weights(
    bytes: &[u8],
    magic: &[u8; 7],
    count: usize,
) -> Result<Vec<f32>, BadFile> {
    if bytes.len() < 8 || bytes[..7] != magic[..] || bytes[7] != VERSION {
        return Err(BadFile::Header);
    }
    if bytes.len() != 8 + 4 * count {
        return Err(BadFile::Length(bytes.len()));
    }
    Ok(bytes[8..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// For each scoring mode (blocks of `mode_len` weights), whether any of its weights is set.
pub(super) fn known_modes(weights: &[f32], mode_len: usize) -> [bool; 2] {
    [0, 1].map(|m| {
        weights[m * mode_len..(m + 1) * mode_len]
            .iter()
            .any(|&w| w != 0.0)
    })
}

/// The fitted prior.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    /// The tables of each scoring mode, then its count weights per phase (written by the
    /// fitting in `learn::prior`).
    pub(crate) weights: Vec<f32>,
    /// For each scoring mode, whether it has weights (was fitted).
    known: [bool; 2],
}

impl Default for Prior {
    /// All weights zero: every move equally likely.
    fn default() -> Prior {
        Prior {
            weights: vec![0.0; WEIGHTS],
            known: [false; 2],
        }
    }
}

impl Prior {
    /// The prior built into the engine.
    pub fn embedded() -> Prior {
        Prior::from_bytes(EMBEDDED).expect("the embedded prior weights are well formed")
    }

    /// Whether the prior was fitted for `scoring` (its weights for that mode are not all zero).
    pub fn knows(&self, scoring: Scoring) -> bool {
        self.known[usize::from(scoring == Scoring::Product)]
    }

    pub(crate) fn with_weights(weights: Vec<f32>) -> Prior {
        let known = known_modes(&weights, MODE_WEIGHTS);
        Prior { weights, known }
    }

    /// Reads a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Prior, PriorError> {
        match read_weights(bytes, &MAGIC, WEIGHTS) {
            Ok(weights) => Ok(Prior::with_weights(weights)),
            Err(BadFile::Header) => Err(PriorError::Header),
            Err(BadFile::Length(n)) => Err(PriorError::Length(n)),
        }
    }

    /// The score of a move by its inputs (higher: more worth looking at).
    pub fn score(&self, x: &Inputs) -> f32 {
        let (mode, at) = Prior::offsets(x);
        x.dot(&self.weights, mode, at)
    }

    /// Where the table weights of `x`'s scoring mode start, and where its count weights are.
    pub(crate) fn offsets(x: &Inputs) -> (usize, usize) {
        let mode = usize::from(x.product) * MODE_WEIGHTS;
        (mode, mode + TABLE_WEIGHTS + x.phase() * COUNTS)
    }

    /// The score of the move that led to `after`, made by `mover`.
    pub fn score_of(&self, after: &Position, mover: Color, scoring: Scoring) -> f32 {
        self.score(&Inputs::of(after, mover, scoring))
    }
}

/// The softmax of `scores`.
pub fn softmax(scores: &[f32]) -> Vec<f32> {
    let top = scores.iter().copied().fold(f32::MIN, f32::max);
    let e: Vec<f32> = scores.iter().map(|s| (s - top).exp()).collect();
    let sum: f32 = e.iter().sum();
    e.into_iter().map(|v| v / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::{Symmetry, deal};

    #[test]
    fn a_mirrored_position_reads_the_same_entries() {
        let pos = deal::random(5, Color::White);
        let mut after = pos;
        let mv = pos.legal_moves().iter().next().copied().unwrap();
        after.play_unchecked(mv);
        let x = Inputs::of(&after, Color::White, Scoring::Largest);
        // Every entry is inside its table, and the deal's field is empty.
        assert!(x.lines.iter().all(|&i| (i as usize) < TABLE_WEIGHTS));
        assert_eq!(x.phase(), 11);
        let mut sorted = x.lines;
        sorted.sort_unstable();
        let mirrored = Symmetry::FlipFiles.position(&after);
        let mut y = Inputs::of(&mirrored, Color::White, Scoring::Largest).lines;
        y.sort_unstable();
        assert_eq!(sorted, y);
    }

    #[test]
    fn a_weights_file_of_the_wrong_shape_is_refused() {
        assert_eq!(
            Prior::from_bytes(b"MBPRIOR\x01"),
            Err(PriorError::Length(8))
        );
        assert_eq!(Prior::from_bytes(b"MBVALUE\x01"), Err(PriorError::Header));
    }
}
