//! Exact labels: realistic positions late in the game, each with its solved value.
//!
//! A position is produced by self-play from a random deal: a weak but plausible level of the
//! engine (levels 2 to 5) with some uniformly random moves mixed in, stopped when exactly `left`
//! marbles are still on edge spaces. Every push brings one edge marble into the field and nothing
//! ever goes back, so "marbles left on edge spaces" is the game's natural clock: it is at most the
//! number of pushes still to come. The exact solver then finds the final margin with best play.
//!
//! Everything about label `i` of a run follows from `(seed, scoring, left, i)`, so a run can stop
//! anywhere and be resumed, and every label can be recomputed.
//!
//! # The file format
//!
//! A label file is an 8-byte header, `MBLABEL` and a version byte (1), followed by records of
//! [`RECORD_BYTES`] bytes, all little-endian:
//!
//! | bytes | content |
//! | --- | --- |
//! | 0..8 | the occupied squares, a `u64` bitboard (bit `rank * 8 + file`) |
//! | 8..11 | the colours of the occupied squares in increasing square order, bit `k` set when the `k`-th occupied square holds a black marble (24 bits) |
//! | 11 | flags: bit 0 black to move, bit 1 product scoring, bits 2..4 the source of the value (0 the exact solver's margin, 1 a search, 2 the exact solver's result only), other bits 0 |
//! | 12 | the final margin for the side to move with best play (`i8`): positive a win, 0 a draw; for a result-only label -1, 0 or 1 |
//! | 13 | the code of a best move (`Move::code`, 255 a pass) |
//!
//! A file is only ever appended to. A reader ignores a trailing partial record (a run stopped
//! while writing), and the writer cuts it off before appending.

use super::backward::ShallowSearch;
use crate::eval::model::Model;
use crate::levels::Level;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::search::{Engine, EngineConfig};
use crate::solver::{SolveMode, Solver};
use mabula::{Bitboard, Color, Move, Position, Scoring, Setup, deal};
use std::io::{self, Read, Write};

/// The header of every label file: a magic word and the format version.
pub const HEADER: [u8; 8] = *b"MBLABEL\x01";

/// The size of one record.
pub const RECORD_BYTES: usize = 14;

/// Where a label's value comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The exact solver: a fact.
    Exact,
    /// A shallow search whose leaves use a model fitted on later positions (the backward
    /// stages, [`super::backward`]): the most likely result, -1, 0 or 1, like a result-only label.
    Search,
    /// The exact solver's result only (win, draw or loss): the margin is its sign. Several
    /// times cheaper than the margin, for positions further from the end.
    ExactResult,
}

/// One labelled position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The position (with its side to move).
    pub position: Position,
    /// The scoring mode the value is for.
    pub scoring: Scoring,
    /// The final margin for the side to move (its score minus the opponent's) with best play.
    pub margin: i8,
    /// A best move of the side to move.
    pub best: Move,
    /// Where the value comes from.
    pub source: Source,
}

impl Label {
    /// Win (1), draw (0) or loss (-1) for the side to move.
    pub fn result(&self) -> i32 {
        i32::from(self.margin.signum())
    }

    /// Marbles still on edge spaces.
    pub fn left(&self) -> u32 {
        self.position.edges_left()
    }

    /// The record of this label.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        let occupied = self.position.occupied();
        out[..8].copy_from_slice(&occupied.0.to_le_bytes());
        let black = self.position.black();
        let mut colours = 0u32;
        for (k, sq) in occupied.enumerate() {
            if black.contains(sq) {
                colours |= 1 << k;
            }
        }
        out[8..11].copy_from_slice(&colours.to_le_bytes()[..3]);
        let source = match self.source {
            Source::Exact => 0u8,
            Source::Search => 1,
            Source::ExactResult => 2,
        };
        out[11] = u8::from(self.position.side_to_move() == Color::Black)
            | u8::from(self.scoring == Scoring::Product) << 1
            | source << 2;
        out[12] = self.margin as u8;
        out[13] = self.best.code();
        out
    }

    /// Reads a record; an error says what is wrong with it.
    pub fn decode(record: &[u8; RECORD_BYTES]) -> Result<Label, DecodeError> {
        let mut word = [0u8; 8];
        word.copy_from_slice(&record[..8]);
        let occupied = Bitboard(u64::from_le_bytes(word));
        if occupied.count() > 24 {
            return Err(DecodeError::TooManyMarbles(occupied.count()));
        }
        let colours = u32::from_le_bytes([record[8], record[9], record[10], 0]);
        let (mut white, mut black) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (k, sq) in occupied.enumerate() {
            if colours >> k & 1 == 1 {
                black = black.with(sq);
            } else {
                white = white.with(sq);
            }
        }
        if colours >> occupied.count() != 0 {
            return Err(DecodeError::StrayColourBits);
        }
        let flags = record[11];
        if flags >> 5 != 0 {
            return Err(DecodeError::UnknownFlags(flags));
        }
        let source = match flags >> 2 & 7 {
            0 => Source::Exact,
            1 => Source::Search,
            2 => Source::ExactResult,
            s => return Err(DecodeError::UnknownSource(s)),
        };
        let turn = if flags & 1 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let position = Position::from_setup(Setup { white, black, turn })
            .map_err(|e| DecodeError::Position(e.to_string()))?;
        let best = Move::from_code(record[13]).ok_or(DecodeError::BadMove(record[13]))?;
        Ok(Label {
            position,
            scoring: if flags & 2 == 2 {
                Scoring::Product
            } else {
                Scoring::Largest
            },
            margin: record[12] as i8,
            best,
            source,
        })
    }
}

/// Why a record or a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// More than 24 occupied squares.
    #[error("a record has {0} marbles, more than 24")]
    TooManyMarbles(u32),
    /// Colour bits beyond the last marble.
    #[error("a record has colour bits beyond its last marble")]
    StrayColourBits,
    /// Flag bits this version does not know.
    #[error("a record has unknown flag bits ({0:#04x})")]
    UnknownFlags(u8),
    /// A source code this version does not know.
    #[error("a record has an unknown source {0}")]
    UnknownSource(u8),
    /// The marbles do not make a position.
    #[error("a record is not a position: {0}")]
    Position(String),
    /// A move code that is no move.
    #[error("a record has a best move code {0} that is no move")]
    BadMove(u8),
    /// The file does not start with the header.
    #[error("not a label file (wrong header)")]
    Header,
    /// Reading failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Reads a whole label file (header and records), ignoring a trailing partial record.
pub fn read_labels(mut reader: impl Read) -> Result<Vec<Label>, DecodeError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    if bytes.len() < HEADER.len() || bytes[..HEADER.len()] != HEADER {
        return Err(DecodeError::Header);
    }
    bytes[HEADER.len()..]
        .chunks_exact(RECORD_BYTES)
        .map(|chunk| {
            let mut record = [0u8; RECORD_BYTES];
            record.copy_from_slice(chunk);
            Label::decode(&record)
        })
        .collect()
}

/// Writes labels as a whole file (header and records).
pub fn write_labels(mut writer: impl Write, labels: &[Label]) -> io::Result<()> {
    writer.write_all(&HEADER)?;
    for label in labels {
        writer.write_all(&label.encode())?;
    }
    Ok(())
}

/// How many whole records a file of `len` bytes holds.
pub fn records_in(len: u64) -> u64 {
    len.saturating_sub(HEADER.len() as u64) / RECORD_BYTES as u64
}

/// A labelling run: which positions and how they are labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelRun {
    /// The scoring mode.
    pub scoring: Scoring,
    /// Marbles left on edge spaces in every labelled position.
    pub left: u32,
    /// The run's seed.
    pub seed: u64,
    /// Solve for the result only, not the margin.
    pub result_only: bool,
}

/// The strongest level the self-play uses; weaker ones and random moves add variety.
const LEVELS: std::ops::RangeInclusive<u32> = 2..=5;

/// The chance of a uniformly random move in the self-play, per move.
const RANDOM_MOVE: f64 = 0.1;

/// The splitmix64 finaliser: spreads a seed's bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl LabelRun {
    /// The seed of position `index`'s `attempt`-th try.
    fn seed_of(&self, index: u64, attempt: u64) -> u64 {
        let salt = u64::from(self.scoring == Scoring::Product) << 8 | u64::from(self.left);
        mix(mix(mix(self.seed ^ salt) ^ index) ^ attempt)
    }

    /// The `index`-th position of the run: self-play from a random deal until `left` marbles
    /// are on edge spaces, with a move still to make.
    pub fn position(&self, index: u64) -> Position {
        (0..)
            .find_map(|attempt| self.try_position(self.seed_of(index, attempt)))
            .expect("some attempt reaches the position")
    }

    fn try_position(&self, seed: u64) -> Option<Position> {
        let mut rng = Rng::new(seed);
        let first = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = deal::random(rng.next_u64(), first);
        let level = Level::new(
            (LEVELS.start() + rng.below(LEVELS.end() - LEVELS.start() + 1)) as u8,
            rng.next_u64(),
        );
        let config = EngineConfig {
            threads: 1,
            tree_mb: 8,
            reuse: false,
            ..level.config
        };
        let limits = Limits::nodes(level.playouts.unwrap_or(1_000));
        let mut engine = Engine::new(config, self.scoring);
        while pos.edges_left() > self.left {
            let n = pos.count_moves();
            if n == 0 {
                return None;
            }
            let mv = if rng.unit() < RANDOM_MOVE {
                pos.nth_move(rng.below(n))
            } else {
                engine.choose(&pos, &limits)
            };
            pos.play_unchecked(mv);
        }
        (!pos.is_game_over()).then_some(pos)
    }

    /// Position `index`, labelled exactly by a fresh solver with a table of `table_mb` MB. A
    /// position can have several best moves; a fresh solver (no table, history or killer moves
    /// from earlier positions) always names the same one, so a label never depends on the
    /// labels computed before it.
    pub fn label(&self, index: u64, table_mb: usize) -> Label {
        let position = self.position(index);
        let mode = if self.result_only {
            SolveMode::Result
        } else {
            SolveMode::Margin
        };
        let solution = Solver::new(self.scoring, table_mb)
            .solve(&position, mode, &Limits::none())
            .expect("a solve without limits finishes");
        Label {
            position,
            scoring: self.scoring,
            margin: solution.value as i8,
            best: solution.best,
            source: if self.result_only {
                Source::ExactResult
            } else {
                Source::Exact
            },
        }
    }
}

impl LabelRun {
    /// Position `index`, labelled by a search `depth` pushes deep whose leaves `model`
    /// evaluates (a backward stage): its most likely result, or with `drawn` a result drawn
    /// from the search's probabilities (by a generator seeded like the position), and its best
    /// move.
    pub fn label_by_search(&self, index: u64, model: &Model, depth: u32, drawn: bool) -> Label {
        let position = self.position(index);
        let value = ShallowSearch::new(model, self.scoring, depth).search(&position);
        let result = if drawn {
            value.drawn_result(Rng::new(self.seed_of(index, u64::MAX)).unit())
        } else {
            value.result()
        };
        Label {
            position,
            scoring: self.scoring,
            margin: result as i8,
            best: value.best,
            source: Source::Search,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_label(rng: &mut Rng) -> Label {
        let mut pos = deal::random(rng.next_u64(), Color::White);
        for _ in 0..rng.below(25) {
            let n = pos.count_moves();
            if n == 0 {
                break;
            }
            pos.play_unchecked(pos.nth_move(rng.below(n)));
        }
        Label {
            position: pos,
            scoring: if rng.below(2) == 0 {
                Scoring::Largest
            } else {
                Scoring::Product
            },
            margin: (rng.below(163) as i32 - 81) as i8,
            best: Move::from_code(if rng.below(10) == 0 {
                255
            } else {
                rng.below(144) as u8
            })
            .unwrap(),
            source: [Source::Exact, Source::Search, Source::ExactResult][rng.below(3) as usize],
        }
    }

    #[test]
    fn a_record_reads_back_as_the_label_it_was_made_from() {
        let mut rng = Rng::new(3);
        for _ in 0..2_000 {
            let label = random_label(&mut rng);
            assert_eq!(Label::decode(&label.encode()).unwrap(), label);
        }
    }

    #[test]
    fn a_file_reads_back_and_a_partial_record_at_its_end_is_ignored() {
        let mut rng = Rng::new(4);
        let labels: Vec<Label> = (0..50).map(|_| random_label(&mut rng)).collect();
        let mut bytes = Vec::new();
        write_labels(&mut bytes, &labels).unwrap();
        assert_eq!(records_in(bytes.len() as u64), 50);
        bytes.extend_from_slice(&[1, 2, 3]);
        assert_eq!(records_in(bytes.len() as u64), 50);
        assert_eq!(read_labels(&bytes[..]).unwrap(), labels);
        assert!(matches!(
            read_labels(&b"NOTLABEL"[..]),
            Err(DecodeError::Header)
        ));
    }

    #[test]
    fn a_record_with_stray_bits_is_refused() {
        let mut record = random_label(&mut Rng::new(5)).encode();
        record[11] |= 0x80;
        assert!(matches!(
            Label::decode(&record),
            Err(DecodeError::UnknownFlags(_))
        ));
        let mut record = [0u8; RECORD_BYTES];
        record[..8].copy_from_slice(&Bitboard::CORNERS.0.to_le_bytes());
        assert!(matches!(
            Label::decode(&record),
            Err(DecodeError::Position(_))
        ));
    }

    #[test]
    fn a_run_gives_the_same_position_for_the_same_index_and_stops_at_the_right_time() {
        let run = LabelRun {
            scoring: Scoring::Largest,
            left: 20,
            seed: 7,
            result_only: false,
        };
        for index in 0..3 {
            let pos = run.position(index);
            assert_eq!(pos.edges_left(), 20);
            assert_eq!(pos, run.position(index));
            assert!(!pos.is_game_over());
        }
        assert_ne!(run.position(0), run.position(1));
    }

    #[test]
    fn a_label_agrees_with_the_solver_and_its_best_move_keeps_the_margin() {
        let run = LabelRun {
            scoring: Scoring::Product,
            left: 6,
            seed: 1,
            result_only: false,
        };
        let label = run.label(0, 4);
        assert_eq!(run.label(0, 1), label);
        let mut solver = Solver::new(Scoring::Product, 4);
        assert_eq!(label.left(), 6);
        let mut child = label.position;
        child.play_unchecked(label.best);
        let after = solver
            .solve(&child, SolveMode::Margin, &Limits::none())
            .unwrap();
        assert_eq!(-after.value, i32::from(label.margin));
        let result = LabelRun {
            result_only: true,
            ..run
        }
        .label(0, 4);
        assert_eq!(result.source, Source::ExactResult);
        assert_eq!(result.position, label.position);
        assert_eq!(i32::from(result.margin), label.result());
    }
}
