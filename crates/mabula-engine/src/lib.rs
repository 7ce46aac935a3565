//! The Mabula engine (work in progress: see the engine issue).

use mabula::{Move, Position, Scoring};
use std::time::Duration;

/// Chooses a move for the side to move of `pos` at strength `level` (1 to 10), thinking at most
/// `movetime`; `seed` makes the choice reproducible. Returns [`Move::PASS`] when passing is the
/// only move, and also when the game is over (callers check that first).
pub fn choose_move(
    pos: &Position,
    scoring: Scoring,
    level: u8,
    movetime: Option<Duration>,
    seed: u64,
) -> Move {
    let _ = (scoring, level, movetime, seed);
    pos.legal_moves().first().copied().unwrap_or(Move::PASS)
}
