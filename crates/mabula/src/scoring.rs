//! Scoring modes, scores and results.

use crate::square::Color;
use std::fmt;
use std::str::FromStr;

/// How a finished field is scored; chosen before the game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The standard rule: a player scores the size of their largest group.
    #[default]
    Largest,
    /// The optional rule: a player scores the product of the sizes of all their groups (0 with
    /// no marble in the field).
    Product,
}

impl Scoring {
    /// `"largest"` or `"product"`, as in records and the engine protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Largest => "largest",
            Scoring::Product => "product",
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scoring mode name that is neither `largest` nor `product`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a scoring mode: use largest or product")]
pub struct ParseScoringError(pub String);

impl FromStr for Scoring {
    type Err = ParseScoringError;
    fn from_str(s: &str) -> Result<Scoring, ParseScoringError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "largest" => Ok(Scoring::Largest),
            "product" => Ok(Scoring::Product),
            _ => Err(ParseScoringError(s.to_string())),
        }
    }
}

/// Both players' scores under one scoring mode.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Scores {
    /// White's score.
    pub white: u32,
    /// Black's score.
    pub black: u32,
}

impl Scores {
    /// The score of one side.
    pub const fn of(self, color: Color) -> u32 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The outcome if the game ended with these scores.
    pub const fn outcome(self) -> Outcome {
        if self.white > self.black {
            Outcome::Win(Color::White)
        } else if self.black > self.white {
            Outcome::Win(Color::Black)
        } else {
            Outcome::Draw
        }
    }

    /// `self.of(color) - self.of(color.other())`.
    pub const fn margin(self, color: Color) -> i32 {
        self.of(color) as i32 - self.of(color.other()) as i32
    }
}

impl fmt::Display for Scores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "white {} black {}", self.white, self.black)
    }
}

/// How a finished game came out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// Equal scores.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) => Some(c),
            Outcome::Draw => None,
        }
    }
}

/// The result token of a game record: a finished game's outcome, or `*`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: the game goes on (or was abandoned).
    Unfinished,
}

impl GameResult {
    /// The token as written in records and answered by the engine protocol.
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads a result token.
    pub fn parse(token: &str) -> Option<GameResult> {
        Some(match token.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unfinished,
            _ => return None,
        })
    }

    /// The result that a win by `color` gives (a resignation by the other side, say).
    pub const fn win(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(o: Outcome) -> GameResult {
        match o {
            Outcome::Win(c) => GameResult::win(c),
            Outcome::Draw => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}
