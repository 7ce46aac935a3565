//! Seats: which sides of a game a token holds, and the hash a seat is kept under.
//!
//! Making secrets, hashing them and comparing hashes is [`auth`](crate::auth)'s work; the model
//! only stores the hashes and asks which seats a caller holds.

use mabula::Color;

/// The SHA-256 hash of a token or a join code.
pub type TokenHash = [u8; 32];

/// The seats a token holds in one game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats {
    /// Holds white's seat.
    pub white: bool,
    /// Holds black's seat.
    pub black: bool,
}

impl Seats {
    /// Whether the seat of `color` is held.
    pub const fn holds(self, color: Color) -> bool {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Whether no seat is held.
    pub const fn is_empty(self) -> bool {
        !self.white && !self.black
    }

    /// The one seat held, if exactly one is.
    pub const fn only(self) -> Option<Color> {
        match (self.white, self.black) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }

    /// The seats as a list of colours.
    pub fn sides(self) -> Vec<Color> {
        let mut v = Vec::new();
        if self.white {
            v.push(Color::White);
        }
        if self.black {
            v.push(Color::Black);
        }
        v
    }

    /// Exactly the seat of `color`.
    pub const fn of(color: Color) -> Seats {
        match color {
            Color::White => Seats {
                white: true,
                black: false,
            },
            Color::Black => Seats {
                white: false,
                black: true,
            },
        }
    }
}
