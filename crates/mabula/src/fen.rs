//! Position strings.
//!
//! The eight ranks from 8 down to 1, separated by `/`; in a rank `w` is a white marble, `b` a
//! black one and a digit counts empty squares (corners count as squares). Then one space and the
//! side to move, `w` or `b`:
//!
//! ```
//! let pos: mabula::Position = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w".parse().unwrap();
//! assert_eq!(pos.to_string(), "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w");
//! ```
//!
//! The reader accepts surrounding spaces and upper-case letters, and rejects, saying where: a
//! wrong number of ranks or squares, an unknown character, a marble on a corner, more than 12
//! marbles of a colour, a missing or unknown side to move. Positions that break the setup rule of
//! the deal, or have fewer marbles, are still positions.

use crate::bitboard::Bitboard;
use crate::position::{Position, Setup, SetupError};
use crate::square::{Color, Square};
use std::fmt;
use std::str::FromStr;

/// Why a text is not a position string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// Nothing but spaces.
    #[error("the position string is empty")]
    Empty,
    /// Not eight ranks.
    #[error("a position string has 8 ranks separated by '/', but this one has {0}")]
    RankCount(usize),
    /// A rank describes a number of squares other than eight.
    #[error("rank {rank} ('{text}') describes {squares} squares instead of 8")]
    RankLength {
        /// The rank number, 1 to 8.
        rank: u8,
        /// The rank's text.
        text: String,
        /// How many squares it describes.
        squares: u32,
    },
    /// A character that is neither `w`, `b` nor a digit 1 to 8.
    #[error("unknown character '{ch}' in rank {rank}: use w, b or a digit 1 to 8")]
    Character {
        /// The rank number, 1 to 8.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// No side to move after the ranks.
    #[error("the side to move is missing: end the string with ' w' or ' b'")]
    MissingSide,
    /// A side to move that is not `w` or `b`, or something after it.
    #[error("'{0}' is not a side to move: use w or b")]
    Side(String),
    /// The marbles break a rule of positions (corner, count).
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl Setup {
    /// Reads a position string without checking the position's rules.
    pub fn parse(text: &str) -> Result<Setup, ParsePositionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParsePositionError::Empty);
        }
        let (board, side) = match text.split_once(char::is_whitespace) {
            Some((b, s)) => (b, s.trim()),
            None => (text, ""),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(ParsePositionError::RankCount(ranks.len()));
        }
        let (mut white, mut black) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file: u32 = 0;
            for ch in rank_text.chars() {
                let color = match ch.to_ascii_lowercase() {
                    'w' => Some(Color::White),
                    'b' => Some(Color::Black),
                    '1'..='8' => None,
                    _ => return Err(ParsePositionError::Character { rank: rank + 1, ch }),
                };
                match color {
                    None => file += ch.to_digit(10).unwrap_or(0),
                    Some(c) => {
                        if let Some(sq) = Square::from_coords(file as u8, rank).filter(|_| file < 8)
                        {
                            match c {
                                Color::White => white = white.with(sq),
                                Color::Black => black = black.with(sq),
                            }
                        }
                        file += 1;
                    }
                }
            }
            if file != 8 {
                return Err(ParsePositionError::RankLength {
                    rank: rank + 1,
                    text: rank_text.to_string(),
                    squares: file,
                });
            }
        }
        if side.is_empty() {
            return Err(ParsePositionError::MissingSide);
        }
        let turn = match side {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(ParsePositionError::Side(side.to_string())),
        };
        Ok(Setup { white, black, turn })
    }
}

impl Position {
    /// Reads a position string (see the [module documentation](self)).
    pub fn parse(text: &str) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(Setup::parse(text)?)?)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Position::parse(s)
    }
}

impl FromStr for Setup {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Setup, ParsePositionError> {
        Setup::parse(s)
    }
}

/// The longest position string: eight full ranks, seven slashes, a space and the side to move.
const MAX_LEN: usize = 8 * 8 + 7 + 2;

/// A position string on the stack (see [`Setup::text`]).
#[derive(Clone, Copy)]
pub struct PositionText {
    bytes: [u8; MAX_LEN],
    len: usize,
}

impl PositionText {
    /// The position string.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("the position string is ASCII")
    }
}

impl Setup {
    /// The position string, written without allocating or formatting: the server writes dozens
    /// an answer, and a `write!` per character costs three times as much.
    pub fn text(&self) -> PositionText {
        let mut out = PositionText {
            bytes: [0; MAX_LEN],
            len: 0,
        };
        let mut put = |byte: u8| {
            out.bytes[out.len] = byte;
            out.len += 1;
        };
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let bit = 1u64 << (rank * 8 + file);
                let byte = if self.white.0 & bit != 0 {
                    b'w'
                } else if self.black.0 & bit != 0 {
                    b'b'
                } else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    put(b'0' + empty);
                    empty = 0;
                }
                put(byte);
            }
            if empty > 0 {
                put(b'0' + empty);
            }
            if rank > 0 {
                put(b'/');
            }
        }
        put(b' ');
        put(self.turn.char() as u8);
        out
    }
}

impl Position {
    /// The position string on the stack (see [`Setup::text`]).
    pub fn text(&self) -> PositionText {
        self.to_setup().text()
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENING: &str = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w";

    #[test]
    fn the_rule_books_opening_reads_and_prints_back() {
        let pos: Position = OPENING.parse().expect("valid");
        assert_eq!(pos.to_string(), OPENING);
        assert_eq!(pos.white().count(), 12);
        assert_eq!(pos.black().count(), 12);
        assert_eq!(pos.side_to_move(), Color::White);
        let upper: Position = format!("  {}  ", OPENING.to_uppercase())
            .parse()
            .expect("valid");
        assert_eq!(upper, pos);
    }

    #[test]
    fn malformed_position_strings_say_what_is_wrong() {
        let err = |s: &str| Position::parse(s).expect_err(s).to_string();
        assert_eq!(err(""), "the position string is empty");
        assert!(err("8/8/8/8/8/8/8 w").contains("has 7"));
        assert!(err("8/8/8/8/8/8/8/7 w").contains("rank 1 ('7') describes 7 squares"));
        assert!(err("8/8/8/8/8/8/8/9 w").contains("unknown character '9' in rank 1"));
        assert!(err("8/1x6/8/8/8/8/8/8 w").contains("unknown character 'x' in rank 7"));
        assert!(err("8/8/8/8/8/8/8/8").contains("side to move is missing"));
        assert!(err("8/8/8/8/8/8/8/8 x").contains("'x' is not a side to move"));
        assert!(err("w7/8/8/8/8/8/8/8 w").contains("a8 is a corner"));
        assert!(err("1wwwwww1/w6w/w6w/w6w/w7/8/8/8 b").contains("13 white marbles"));
        assert!(err("8/8/8/8/8/8/8/1ww2ww1w w").contains("describes 9 squares"));
    }

    #[test]
    fn positions_with_fewer_marbles_are_still_positions() {
        let pos: Position = "8/8/3w4/8/8/2b5/8/8 b".parse().expect("valid");
        assert_eq!(pos.occupied().count(), 2);
        assert_eq!(pos.to_string(), "8/8/3w4/8/8/2b5/8/8 b");
    }
}
