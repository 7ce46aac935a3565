//! Moves and their notation.
//!
//! A move is a push (an edge space and a distance) or a pass. Its notation is `<from>-<to>`: the
//! edge space the marble leaves and the field square where it stops, e.g. `b1-b4`, `h5-c5`,
//! `e8-e7`; a pass is `pass`. The reader accepts upper case and surrounding spaces; `Display`
//! prints the canonical lower-case form. Whether a move is *legal* is a question for a
//! [`Position`](crate::Position); the reader only checks that the text names a push that exists
//! on the board.

use crate::square::Square;
use crate::tables::{EDGE_OF, EDGES, NONE};
use std::fmt;
use std::str::FromStr;

/// A push or a pass, in one byte.
///
/// Codes `0..144` are pushes (`edge * 6 + slot`, see [`crate::tables`]); they sort in the order
/// of their notation strings, so sorting moves sorts their notation. [`Move::PASS`] sorts last.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u8);

impl Move {
    /// Passing: the only move of a player who cannot push while the opponent can.
    pub const PASS: Move = Move(u8::MAX);

    /// Number of distinct pushes on the board (24 edge spaces times 6 distances).
    pub const PUSHES: usize = 144;

    /// The push of the marble on `from` over `distance` squares (1 to 6), if `from` is an edge
    /// space and the distance is in range.
    pub fn push(from: Square, distance: u8) -> Option<Move> {
        let edge = EDGE_OF[from as usize];
        if edge == NONE || !(1..=6).contains(&distance) {
            return None;
        }
        Some(Move::from_parts(edge, distance))
    }

    pub(crate) const fn from_parts(edge: u8, distance: u8) -> Move {
        let slot = if EDGES[edge as usize].reversed {
            6 - distance
        } else {
            distance - 1
        };
        Move(edge * 6 + slot)
    }

    /// The move with this code (`0..144` a push, 255 a pass).
    pub const fn from_code(code: u8) -> Option<Move> {
        if (code as usize) < Move::PUSHES || code == u8::MAX {
            Some(Move(code))
        } else {
            None
        }
    }

    /// The one-byte code of the move.
    pub const fn code(self) -> u8 {
        self.0
    }

    /// Whether this is a pass.
    pub const fn is_pass(self) -> bool {
        self.0 == u8::MAX
    }

    pub(crate) const fn edge(self) -> u8 {
        self.0 / 6
    }

    /// The edge space the pushed marble leaves; `None` for a pass.
    pub fn from(self) -> Option<Square> {
        (!self.is_pass()).then(|| sq(EDGES[self.edge() as usize].sq))
    }

    /// How far the marble travels, 1 to 6; 0 for a pass.
    pub const fn distance(self) -> u8 {
        if self.is_pass() {
            return 0;
        }
        let slot = self.0 % 6;
        if EDGES[self.edge() as usize].reversed {
            6 - slot
        } else {
            slot + 1
        }
    }

    /// The field square where the pushed marble stops; `None` for a pass.
    pub fn to(self) -> Option<Square> {
        let from = self.from()?;
        let d = self.distance() as i8;
        let (df, dr): (i8, i8) = match (from.file(), from.rank()) {
            (0, _) => (d, 0),
            (7, _) => (-d, 0),
            (_, 0) => (0, d),
            _ => (0, -d),
        };
        Some(sq((from.index() as i8 + df + 8 * dr) as u8))
    }

    /// The field squares of the marble's line, from its own side to the far side.
    pub fn line(self) -> Option<[Square; 6]> {
        let from = self.from()?;
        let step: i8 = match (from.file(), from.rank()) {
            (0, _) => 1,
            (7, _) => -1,
            (_, 0) => 8,
            _ => -8,
        };
        Some(std::array::from_fn(|n| {
            sq((from.index() as i8 + step * (n as i8 + 1)) as u8)
        }))
    }

    /// All 144 pushes, in notation order.
    pub fn all_pushes() -> impl Iterator<Item = Move> {
        (0..Move::PUSHES as u8).map(Move)
    }
}

fn sq(index: u8) -> Square {
    Square::from_index(index).expect("tables hold valid squares")
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.to()) {
            (Some(from), Some(to)) => {
                // In one piece: the server writes a notation for every legal move of an answer.
                let mut text = [b'-'; 5];
                text[..2].copy_from_slice(from.name().as_bytes());
                text[3..].copy_from_slice(to.name().as_bytes());
                f.write_str(std::str::from_utf8(&text).expect("square names are ASCII"))
            }
            _ => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a move of Mabula's notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Not of the form `<from>-<to>` or `pass`.
    #[error("'{0}' is not a move: write it as <from>-<to> (like b1-b4) or pass")]
    Syntax(String),
    /// The first square is no edge space.
    #[error("'{0}' is not a move: {1} is not an edge space, and only marbles on edge spaces move")]
    NotAnEdge(String, Square),
    /// The target is not on the edge marble's line inside the field.
    #[error("'{0}' is not a move: a marble from {1} can only stop on {2}")]
    OffLine(String, Square, String),
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let s = text.trim();
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        let syntax = || ParseMoveError::Syntax(text.to_string());
        let (a, b) = s.split_once('-').ok_or_else(syntax)?;
        let from = Square::parse_bytes(a.trim().as_bytes()).ok_or_else(syntax)?;
        let to = Square::parse_bytes(b.trim().as_bytes()).ok_or_else(syntax)?;
        let edge = EDGE_OF[from as usize];
        if edge == NONE {
            return Err(ParseMoveError::NotAnEdge(s.to_string(), from));
        }
        let candidates = (1..=6).map(|d| Move::from_parts(edge, d));
        for mv in candidates.clone() {
            if mv.to() == Some(to) {
                return Ok(mv);
            }
        }
        let stops: Vec<String> = candidates
            .filter_map(|m| m.to())
            .map(|t| t.to_string())
            .collect();
        Err(ParseMoveError::OffLine(
            s.to_string(),
            from,
            stops.join(", "),
        ))
    }
}

/// The legal moves of a position, in a fixed-size buffer (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; BUFFER],
    len: u8,
}

/// The list's buffer: the capacity, and room for a run of six written past the last move.
const BUFFER: usize = MoveList::CAPACITY + 6;

impl MoveList {
    /// The most moves a position can have: 12 marbles, 6 distances each.
    pub const CAPACITY: usize = 72;

    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::PASS; BUFFER],
            len: 0,
        }
    }

    /// Appends the `count` (at most 6) moves with consecutive codes from `start`. Writes six
    /// codes whatever `count` is, without branching; the buffer has room for that past the last
    /// move, and what lies past the length is never read.
    #[inline(always)]
    pub(crate) fn push_run(&mut self, start: u8, count: u8) {
        let at = self.len as usize;
        let slots: &mut [Move; 6] = (&mut self.moves[at..at + 6])
            .try_into()
            .expect("room for six");
        for (i, slot) in slots.iter_mut().enumerate() {
            *slot = Move(start.wrapping_add(i as u8));
        }
        self.len += count;
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len as usize]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = Move;
    type IntoIter = std::iter::Copied<std::slice::Iter<'a, Move>>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter().copied()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::iter::Take<std::array::IntoIter<Move, BUFFER>>;
    fn into_iter(self) -> Self::IntoIter {
        let len = self.len as usize;
        self.moves.into_iter().take(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_push_prints_and_reads_back_to_itself() {
        for mv in Move::all_pushes() {
            let text = mv.to_string();
            assert_eq!(text.parse::<Move>(), Ok(mv));
            assert_eq!(
                format!("  {}  ", text.to_uppercase()).parse::<Move>(),
                Ok(mv)
            );
        }
        assert_eq!("PASS".parse::<Move>(), Ok(Move::PASS));
    }

    #[test]
    fn move_codes_sort_like_their_notation() {
        let texts: Vec<String> = Move::all_pushes().map(|m| m.to_string()).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(texts, sorted);
    }

    #[test]
    fn notation_names_the_stop_square_along_the_line() {
        let mv: Move = "h5-c5".parse().expect("a move");
        assert_eq!(
            (mv.from(), mv.distance(), mv.to()),
            (Some(Square::H5), 5, Some(Square::C5))
        );
        let mv: Move = "e8-e7".parse().expect("a move");
        assert_eq!(mv.distance(), 1);
        assert_eq!(
            Move::push(Square::B1, 3).map(|m| m.to_string()),
            Some("b1-b4".into())
        );
    }

    #[test]
    fn bad_move_texts_say_what_is_wrong() {
        let err = |s: &str| s.parse::<Move>().expect_err(s).to_string();
        assert!(err("b1b4").contains("<from>-<to>"));
        assert!(err("c3-c4").contains("c3 is not an edge space"));
        assert!(err("b1-c4").contains("b2, b3, b4, b5, b6, b7"));
        assert!(err("b1-b8").contains("can only stop on"));
        assert!(err("a1-b1").contains("not an edge space"));
    }
}
