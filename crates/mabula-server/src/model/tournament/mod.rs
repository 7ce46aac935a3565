//! Tournaments without I/O (issue 37): scoring games and duplicate matches, the standings and
//! their tie-breaks, Swiss pairing and arena pairing. The tournament service reads the stored
//! tournament into these types, asks what comes next, and stores the answer conditionally;
//! everything here is a pure function of its arguments, so every instance computes the same.
//!
//! - [`score`]: a game's and a duplicate match's points, arena points with streaks.
//! - [`standings`]: points, Buchholz, Sonneborn-Berger, ranks.
//! - [`swiss`]: the pairings of a Swiss round (equal scores meet, no repeats, a bye).
//! - [`arena`]: pairing the players waiting in an arena.

pub mod arena;
pub mod score;
pub mod standings;
pub mod swiss;

use mabula::GameResult;

/// A player of a tournament, as pairing and standings see them.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// The account's key (stable; names are only shown).
    pub key: String,
    /// The rating when they joined (orders equal scores, and the first round).
    pub rating: i32,
    /// Withdrawn: never paired again, but kept in the standings.
    pub withdrawn: bool,
}

/// How one game of a pairing ended, as scoring needs it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// The result; `Unfinished` while it is played.
    pub result: GameResult,
    /// White's score minus Black's on the final board (the game's scoring mode: largest group
    /// or product), when the game ended on the board; `None` when it ended by time,
    /// resignation, a claim or agreement (it then counts nothing to a match's margin).
    pub margin: Option<i64>,
    /// The side that missed its first move (missed the game), if any.
    pub no_show: Option<mabula::Color>,
    /// The game was called off (a first move missed, in an arena): it counts for nobody, and
    /// is over.
    pub called_off: bool,
}

/// Two players paired in a round (or an arena's wave), with their games.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// The round (Swiss) or wave (arena), from 1.
    pub round: u32,
    /// White of the first game.
    pub white: String,
    /// Black of the first game; `None` for a bye.
    pub black: Option<String>,
    /// The games in order: one, or two in a duplicate match (the second with colours swapped).
    /// Fewer than the pairing will have while they are still to begin.
    pub games: Vec<GameOutcome>,
    /// Whether the pairing is a duplicate match (two games).
    pub duplicate: bool,
}

impl Pairing {
    /// Whether every game of the pairing is over, or called off (a bye always is).
    pub fn is_decided(&self) -> bool {
        self.black.is_none()
            || (self.games.len() == if self.duplicate { 2 } else { 1 }
                && self
                    .games
                    .iter()
                    .all(|g| g.result != GameResult::Unfinished || g.called_off))
    }

    /// Whether `key` plays in this pairing.
    pub fn has(&self, key: &str) -> bool {
        self.white == key || self.black.as_deref() == Some(key)
    }

    /// The opponent of `key`, if they play here and it is not a bye.
    pub fn opponent_of(&self, key: &str) -> Option<&str> {
        if self.white == key {
            self.black.as_deref()
        } else if self.black.as_deref() == Some(key) {
            Some(&self.white)
        } else {
            None
        }
    }
}

/// A tournament's format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// A fixed number of rounds, everyone paired at each.
    Swiss,
    /// A fixed time, players paired again as soon as they finish.
    Arena,
}

impl Format {
    /// The name used in JSON and in the database.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::Arena => "arena",
        }
    }

    /// Reads a name written by [`Format::name`].
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "swiss" => Some(Format::Swiss),
            "arena" => Some(Format::Arena),
            _ => None,
        }
    }
}
