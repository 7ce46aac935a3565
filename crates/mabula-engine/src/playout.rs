//! Playouts: finishing a game quickly to see who wins it.
//!
//! [`Policy::Random`] picks uniformly among the legal moves (the textbook playout, about a
//! million games a second on one core). [`Policy::Greedy`] draws a few random candidates and
//! keeps the one whose result looks best by a cheap count of neighbouring marbles in the field:
//! under largest-group scoring, pairs of own neighbours (big groups grow from contact); under
//! product scoring, marbles that sit in small clusters (groups near three multiply best). Both are
//! far cheaper than scoring a position.

use crate::rng::Rng;
use mabula::{Bitboard, Color, Outcome, Position, Scoring};

/// How a playout picks its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Uniformly random legal moves.
    Random,
    /// The best of `candidates` random moves by a neighbour count.
    Greedy {
        /// How many random moves are compared at each step (1 is random play).
        candidates: u8,
    },
}

/// Squares not on file `a` of the board (so that shifting west does not wrap).
const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
/// Squares not on file `h` of the board (so that shifting east does not wrap).
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// Pairs of orthogonally neighbouring squares both in `set` (within the field).
#[inline(always)]
pub fn pairs(set: u64) -> u32 {
    (set & (set << 1) & NOT_FILE_A).count_ones() + (set & (set << 8)).count_ones()
}

/// Pairs of orthogonal neighbours with one square in `a` and the other in `b`.
pub fn contacts(a: u64, b: u64) -> u32 {
    (a & (b << 1) & NOT_FILE_A).count_ones()
        + (a & (b >> 1) & NOT_FILE_H).count_ones()
        + (a & (b << 8)).count_ones()
        + (a & (b >> 8)).count_ones()
}

/// How good `pos` looks for `me` (who just moved) by the cheap neighbour count.
#[inline(always)]
pub fn quick_eval(pos: &Position, me: Color, scoring: Scoring) -> i32 {
    let mine = (pos.marbles(me) & Bitboard::FIELD).0;
    let theirs = (pos.marbles(me.other()) & Bitboard::FIELD).0;
    match scoring {
        Scoring::Largest => 2 * pairs(mine) as i32 - pairs(theirs) as i32,
        Scoring::Product => small_clusters(mine) - small_clusters(theirs),
    }
}

/// A cheap stand-in for a product score: marbles with one or two own neighbours count, lone
/// marbles and crowded ones (three or four neighbours: part of a big blob) do not.
#[inline(always)]
pub fn small_clusters(set: u64) -> i32 {
    let n = set << 8 & set;
    let s = set >> 8 & set;
    let e = (set >> 1) & NOT_FILE_H & set;
    let w = (set << 1) & NOT_FILE_A & set;
    // Per square, the number of neighbours in bit-sliced form.
    let (a1, c1) = (n ^ s, n & s);
    let (a2, c2) = (e ^ w, e & w);
    let ones = a1 ^ a2;
    let carry = a1 & a2;
    let twos = c1 ^ c2 ^ carry;
    let fours = (c1 & c2) | ((c1 ^ c2) & carry);
    let one_or_two = set & !fours & (ones ^ twos);
    let crowded = set & (fours | (ones & twos));
    2 * one_or_two.count_ones() as i32 - crowded.count_ones() as i32
}

/// Plays `pos` to the end with `policy` and returns the outcome under `scoring`.
#[inline]
pub fn playout(mut pos: Position, scoring: Scoring, policy: Policy, rng: &mut Rng) -> Outcome {
    match policy {
        Policy::Random => loop {
            let n = pos.count_moves();
            if n == 0 {
                break;
            }
            pos.play_unchecked(pos.nth_move(rng.below(n)));
        },
        Policy::Greedy { candidates } => loop {
            let n = pos.count_moves();
            if n == 0 {
                break;
            }
            let me = pos.side_to_move();
            let mut best = pos;
            best.play_unchecked(pos.nth_move(rng.below(n)));
            if n > 1 {
                let mut best_eval = quick_eval(&best, me, scoring);
                for _ in 1..candidates {
                    let mut next = pos;
                    next.play_unchecked(pos.nth_move(rng.below(n)));
                    let e = quick_eval(&next, me, scoring);
                    if e > best_eval {
                        best_eval = e;
                        best = next;
                    }
                }
            }
            pos = best;
        },
    }
    pos.scores(scoring).outcome()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::deal;

    #[test]
    fn playouts_end_games_and_follow_the_seed() {
        for policy in [Policy::Random, Policy::Greedy { candidates: 3 }] {
            for scoring in [Scoring::Largest, Scoring::Product] {
                let pos = deal::random(2, Color::White);
                let a: Vec<Outcome> = {
                    let mut rng = Rng::new(9);
                    (0..50)
                        .map(|_| playout(pos, scoring, policy, &mut rng))
                        .collect()
                };
                let mut rng = Rng::new(9);
                let b: Vec<Outcome> = (0..50)
                    .map(|_| playout(pos, scoring, policy, &mut rng))
                    .collect();
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn neighbour_counts_see_pairs_and_crowds() {
        assert_eq!(pairs(0b11 << 9), 1);
        assert_eq!(pairs(0b101 << 9), 0);
        assert_eq!(pairs((1 << 9) | (1 << 17)), 1);
        // An h-file marble and the next rank's a-file marble are not neighbours.
        assert_eq!(pairs((1 << 15) | (1 << 16)), 0);
        // A line of three: all three have one or two neighbours.
        assert_eq!(small_clusters(0b111 << 9), 6);
        // A plus sign: the centre has four neighbours (crowded), the arms one each.
        let plus = (1 << 18) | (1 << 10) | (1 << 26) | (1 << 17) | (1 << 19);
        assert_eq!(small_clusters(plus), 2 * 4 - 1);
        // A lone marble counts nothing.
        assert_eq!(small_clusters(1 << 20), 0);
    }
}
