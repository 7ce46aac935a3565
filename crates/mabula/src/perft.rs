//! Perft: counting the move paths of a given length, to test move generation and measure speed.
//!
//! A pass counts as a move; a finished game has no moves, so it adds 0 at depth 1 or more; depth
//! 0 counts 1.

use crate::moves::Move;
use crate::position::Position;

/// The number of move paths of length `depth`, counting the last ply in bulk (the number of
/// legal moves, without playing them).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(pos.count_moves()),
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = *pos;
                next.play_unchecked(mv);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// The same count as [`perft`], but playing every move down to the leaves (no bulk counting).
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = *pos;
            next.play_unchecked(mv);
            perft_full(&next, depth - 1)
        })
        .sum()
}

/// The perft count below each legal move, in notation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = pos.legal_moves();
    moves.sort_unstable();
    moves
        .into_iter()
        .map(|mv| {
            let mut next = *pos;
            next.play_unchecked(mv);
            (mv, perft(&next, depth - 1))
        })
        .collect()
}
