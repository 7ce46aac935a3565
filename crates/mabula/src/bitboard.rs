//! Sets of squares as 64-bit masks, and the named regions of the board.
//!
//! Bit `i` stands for the square with index `i` (`a1` = bit 0, `h8` = bit 63). The masks below
//! draw the board with rank 8 on top, as a player sees it.

use crate::square::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The field: the 36 inner squares `b2`..`g7`, where groups are formed.
    ///
    /// ```text
    /// . . . . . . . .
    /// . 1 1 1 1 1 1 .
    /// . 1 1 1 1 1 1 .
    /// . 1 1 1 1 1 1 .
    /// . 1 1 1 1 1 1 .
    /// . 1 1 1 1 1 1 .
    /// . 1 1 1 1 1 1 .
    /// . . . . . . . .
    /// ```
    pub const FIELD: Bitboard = Bitboard(0x007e_7e7e_7e7e_7e00);

    /// The 24 edge spaces, where the marbles start and from where they are pushed in.
    ///
    /// ```text
    /// . 1 1 1 1 1 1 .
    /// 1 . . . . . . 1
    /// 1 . . . . . . 1
    /// 1 . . . . . . 1
    /// 1 . . . . . . 1
    /// 1 . . . . . . 1
    /// 1 . . . . . . 1
    /// . 1 1 1 1 1 1 .
    /// ```
    pub const EDGE: Bitboard = Bitboard(0x7e81_8181_8181_817e);

    /// The four corners, which take no part in the game.
    ///
    /// ```text
    /// 1 . . . . . . 1
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . . . . .
    /// 1 . . . . . . 1
    /// ```
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// The set holding one square.
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u8)
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq as u8 & 1 != 0
    }

    /// How many squares the set holds.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `sq` added.
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u8)
    }

    /// The set with `sq` removed.
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u8))
    }

    /// The lowest square of the set.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// The squares orthogonally next to a square of the set, within the board (the set itself
    /// included). Used for growing groups: callers mask the result.
    #[must_use]
    pub const fn grow(self) -> Bitboard {
        let b = self.0;
        Bitboard(
            b | b << 8
                | b >> 8
                | (b << 1 & !0x0101_0101_0101_0101)
                | (b >> 1 & !0x8080_8080_8080_8080),
        )
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a board, rank 8 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                f.write_str(if self.contains(sq) { "1" } else { "." })?;
                f.write_str(if file < 7 { " " } else { "\n" })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_edge_and_corners_partition_the_board() {
        assert_eq!(Bitboard::FIELD.count(), 36);
        assert_eq!(Bitboard::EDGE.count(), 24);
        assert_eq!(Bitboard::CORNERS.count(), 4);
        assert_eq!(
            (Bitboard::FIELD | Bitboard::EDGE | Bitboard::CORNERS).0,
            u64::MAX
        );
        assert!((Bitboard::FIELD & Bitboard::EDGE).is_empty());
        for sq in Bitboard::FIELD {
            assert!(
                (1..7).contains(&sq.file()) && (1..7).contains(&sq.rank()),
                "{sq}"
            );
        }
    }

    #[test]
    fn growing_never_wraps_around_the_board_sides() {
        let h4 = Bitboard::from_square(Square::H4);
        assert_eq!(
            h4.grow(),
            [Square::H4, Square::G4, Square::H3, Square::H5]
                .into_iter()
                .collect()
        );
        let a4 = Bitboard::from_square(Square::A4);
        assert_eq!(
            a4.grow(),
            [Square::A4, Square::B4, Square::A3, Square::A5]
                .into_iter()
                .collect()
        );
    }
}
