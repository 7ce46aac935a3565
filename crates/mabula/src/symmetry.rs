//! The eight symmetries of the square board, and canonical positions.
//!
//! Every rotation and reflection of the board maps edge spaces to edge spaces, lines to lines and
//! groups to groups, so it keeps legal moves and scores. A canonical form picks one position of
//! each class of eight, for solvers and opening books.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::{Position, Setup};
use crate::square::Square;

/// A rotation or reflection of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// Quarter turn clockwise: `a1` goes to `a8`.
    Rotate90,
    /// Half turn: `a1` goes to `h8`.
    Rotate180,
    /// Quarter turn anticlockwise: `a1` goes to `h1`.
    Rotate270,
    /// Mirror left to right: files `a` and `h` swap.
    FlipFiles,
    /// Mirror top to bottom: ranks 1 and 8 swap.
    FlipRanks,
    /// Mirror in the `a1`-`h8` diagonal.
    Transpose,
    /// Mirror in the `a8`-`h1` diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipFiles,
        Symmetry::FlipRanks,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Where `sq` goes.
    pub fn square(self, sq: Square) -> Square {
        let (f, r) = (sq.file(), sq.rank());
        let (f, r) = match self {
            Symmetry::Identity => (f, r),
            Symmetry::Rotate90 => (r, 7 - f),
            Symmetry::Rotate180 => (7 - f, 7 - r),
            Symmetry::Rotate270 => (7 - r, f),
            Symmetry::FlipFiles => (7 - f, r),
            Symmetry::FlipRanks => (f, 7 - r),
            Symmetry::Transpose => (r, f),
            Symmetry::AntiTranspose => (7 - r, 7 - f),
        };
        Square::from_coords(f, r).expect("symmetries stay on the board")
    }

    /// Where every square of `bb` goes.
    pub fn bitboard(self, bb: Bitboard) -> Bitboard {
        let x = bb.0;
        Bitboard(match self {
            Symmetry::Identity => x,
            Symmetry::Rotate90 => transpose(x).swap_bytes(),
            Symmetry::Rotate180 => x.reverse_bits(),
            Symmetry::Rotate270 => transpose(x.swap_bytes()),
            Symmetry::FlipFiles => mirror_files(x),
            Symmetry::FlipRanks => x.swap_bytes(),
            Symmetry::Transpose => transpose(x),
            Symmetry::AntiTranspose => transpose(x).reverse_bits(),
        })
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Where a move goes: the same distance from the mapped edge space.
    pub fn apply_move(self, mv: Move) -> Move {
        match mv.from() {
            Some(from) => Move::push(self.square(from), mv.distance()).expect("edges map to edges"),
            None => Move::PASS,
        }
    }

    /// Where every marble of `pos` goes; the side to move stays.
    pub fn position(self, pos: &Position) -> Position {
        let setup = Setup {
            white: self.bitboard(pos.white()),
            black: self.bitboard(pos.black()),
            turn: pos.side_to_move(),
        };
        Position::from_setup(setup).expect("a symmetric image of a position is a position")
    }
}

fn mirror_files(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

impl Position {
    /// The canonical member of this position's symmetry class (the image with the smallest
    /// white and then black bitboards), and the symmetry that takes this position there.
    pub fn canonical(&self) -> (Position, Symmetry) {
        let key = |s: Symmetry| (s.bitboard(self.white()), s.bitboard(self.black()));
        let best = Symmetry::ALL
            .into_iter()
            .min_by_key(|&s| key(s))
            .unwrap_or(Symmetry::Identity);
        (best.position(self), best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_symmetries_move_each_square_like_the_square_mapping() {
        for s in Symmetry::ALL {
            for sq in Square::ALL {
                let image = s.bitboard(Bitboard::from_square(sq));
                assert_eq!(image, Bitboard::from_square(s.square(sq)), "{s:?} {sq}");
                assert_eq!(s.inverse().square(s.square(sq)), sq, "{s:?} inverse");
            }
        }
    }

    #[test]
    fn symmetric_positions_have_mapped_moves_and_equal_scores() {
        let pos = crate::deal::random(3, crate::Color::White);
        let mut pos = pos;
        for _ in 0..9 {
            let mv = pos.legal_moves()[0];
            pos.play_unchecked(mv);
        }
        for s in Symmetry::ALL {
            let image = s.position(&pos);
            let mut moves: Vec<Move> = pos.legal_moves().iter().map(|&m| s.apply_move(m)).collect();
            moves.sort();
            let mut expected = image.legal_moves().to_vec();
            expected.sort();
            assert_eq!(moves, expected, "{s:?}");
            for scoring in [crate::Scoring::Largest, crate::Scoring::Product] {
                assert_eq!(image.scores(scoring), pos.scores(scoring));
            }
            let mv = pos.legal_moves()[0];
            let a = pos.play(mv).map(|p| s.position(&p));
            assert_eq!(a, image.play(s.apply_move(mv)), "{s:?} {mv}");
            assert_eq!(image.canonical().0, pos.canonical().0);
        }
    }
}
