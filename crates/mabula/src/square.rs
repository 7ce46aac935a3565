//! Squares and colours.
//!
//! The board is an 8x8 grid; a square's index is `rank * 8 + file`, so `a1` is 0, `h1` is 7 and
//! `h8` is 63. Which squares play which part (field, edge space, corner) lives in
//! [`crate::bitboard`].

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares of the board, `a1` to `h8`.
#[rustfmt::skip]
#[allow(missing_docs)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

#[rustfmt::skip]
const ALL: [Square; 64] = {
    use Square::*;
    [
        A1, B1, C1, D1, E1, F1, G1, H1, A2, B2, C2, D2, E2, F2, G2, H2,
        A3, B3, C3, D3, E3, F3, G3, H3, A4, B4, C4, D4, E4, F4, G4, H4,
        A5, B5, C5, D5, E5, F5, G5, H5, A6, B6, C6, D6, E6, F6, G6, H6,
        A7, B7, C7, D7, E7, F7, G7, H7, A8, B8, C8, D8, E8, F8, G8, H8,
    ]
};

impl Square {
    /// All squares, `a1` first, in index order.
    pub const ALL: [Square; 64] = ALL;

    /// The square with this index (`rank * 8 + file`); `None` past 63.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(ALL[index as usize])
        } else {
            None
        }
    }

    /// The square on this file (0 = `a`) and rank (0 = `1`); `None` off the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(ALL[(rank * 8 + file) as usize])
        } else {
            None
        }
    }

    /// The index, `rank * 8 + file`.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The file, 0 for `a` to 7 for `h`.
    pub const fn file(self) -> u8 {
        self as u8 % 8
    }

    /// The rank, 0 for `1` to 7 for `8`.
    pub const fn rank(self) -> u8 {
        self as u8 / 8
    }

    /// The name's letter, `'a'` to `'h'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The square's name, `"a1"` to `"h8"`, without formatting (the server writes hundreds an
    /// answer).
    pub fn name(self) -> &'static str {
        #[rustfmt::skip]
        const NAMES: [&str; 64] = [
            "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1",
            "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
            "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3",
            "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
            "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5",
            "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
            "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7",
            "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
        ];
        NAMES[self.index() as usize]
    }

    /// The name's digit, `'1'` to `'8'`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }

    /// Reads a square name such as `b4` (upper case accepted) at the start of `bytes`.
    pub(crate) fn parse_bytes(bytes: &[u8]) -> Option<Square> {
        match bytes {
            [f, r] => {
                let f = f.to_ascii_lowercase();
                if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(r) {
                    Square::from_coords(f - b'a', r - b'1')
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square: squares are named a1 to h8")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse_bytes(s.trim().as_bytes()).ok_or_else(|| ParseSquareError(s.to_string()))
    }
}

/// A side: the colour of a player's marbles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The white marbles.
    White,
    /// The black marbles.
    Black,
}

impl Color {
    /// Both colours, white first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `'w'` or `'b'`, as in position strings.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Reads `w`/`b` or `white`/`black`, in any case.
    pub fn parse(s: &str) -> Option<Color> {
        match s.trim().to_ascii_lowercase().as_str() {
            "w" | "white" => Some(Color::White),
            "b" | "black" => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_the_file_letter_and_the_rank_digit_and_reads_back() {
        for square in Square::ALL {
            let spelled = format!("{}{}", square.file_char(), square.rank_char());
            assert_eq!(square.name(), spelled);
            assert_eq!(square.to_string(), spelled);
            assert_eq!(spelled.parse::<Square>(), Ok(square));
        }
    }
}
