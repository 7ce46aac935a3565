//! The rules of Mabula, Néstor Romeral Andrés's game of marbles pushed in from the edge.
//!
//! # Layout
//!
//! - [`square`]: [`Square`] and [`Color`].
//! - [`bitboard`]: [`Bitboard`], sets of squares, and the field, edge and corner masks.
//! - [`moves`]: [`Move`] (a push or a pass), its notation, and [`MoveList`].
//! - [`position`]: [`Setup`] (unchecked) and [`Position`] (checked), with the rules of play:
//!   legal moves, the push, passing, the end, groups and scores.
//! - [`fen`]: position strings.
//! - [`diagram`]: boards drawn as text.
//! - [`scoring`]: [`Scoring`] modes, [`Scores`], [`Outcome`] and [`GameResult`].
//! - [`deal`]: the 40,158 valid starting arrangements and a seeded random one.
//! - [`symmetry`]: the eight symmetries of the board and canonical positions.
//! - [`record`]: game records ([`Game`]), PGN-shaped.
//! - [`perft`]: move-path counting, for testing and benchmarking.
//! - `tables` (private): the compile-time push and hash tables.
//! - `serde_impls` (private, with the `serde` feature): `Serialize` and `Deserialize` for the
//!   text types, each as its canonical text.
//!
//! The library does no I/O and holds no global state.
//!
//! ```
//! use mabula::{Position, Scoring};
//! let pos: Position = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w".parse().unwrap();
//! let next = pos.play("b1-b4".parse().unwrap()).unwrap();
//! assert_eq!(next.to_string(), "1wbwbww1/b6b/b6w/w6b/bw5w/w6b/b6w/2bwbwb1 b");
//! assert_eq!(next.scores(Scoring::Largest).white, 1);
//! ```

pub mod bitboard;
pub mod deal;
pub mod diagram;
pub mod fen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod record;
pub mod scoring;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod square;
pub mod symmetry;
mod tables;

pub use bitboard::Bitboard;
pub use fen::ParsePositionError;
pub use moves::{Move, MoveList, ParseMoveError};
pub use perft::perft;
pub use position::{Illegal, PlayError, Position, Setup, SetupError};
pub use record::{Game, RecordError};
pub use scoring::{GameResult, Outcome, Scores, Scoring};
pub use square::{Color, Square};
pub use symmetry::Symmetry;
