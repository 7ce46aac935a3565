//! Time controls as the API writes them, and the speeds ratings are kept for. The clocks that
//! run on them are the server's.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The least time for a real-time game.
pub const MIN_INITIAL_S: u32 = 15;

/// How a game is timed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum TimeControl {
    /// Real time: `initial_s` seconds for the game, `increment_s` added after each move.
    Clock {
        /// Seconds for the whole game, 15 to 10800.
        initial_s: u32,
        /// Seconds added after each move, 0 to 180.
        increment_s: u32,
    },
    /// Correspondence: `days` for each move (1, 2, 3 or 7).
    Days {
        /// Days per move.
        days: u32,
    },
}

/// The speed a rating is kept for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// Games on a clock.
    Realtime,
    /// Games with days per move.
    Correspondence,
}

impl Speed {
    /// The name used in JSON and in the database.
    pub const fn name(self) -> &'static str {
        match self {
            Speed::Realtime => "realtime",
            Speed::Correspondence => "correspondence",
        }
    }

    /// Reads a name written by [`Speed::name`].
    pub fn parse(s: &str) -> Option<Speed> {
        match s {
            "realtime" => Some(Speed::Realtime),
            "correspondence" => Some(Speed::Correspondence),
            _ => None,
        }
    }
}

impl TimeControl {
    /// Checks the bounds; the message says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        match *self {
            TimeControl::Clock {
                initial_s,
                increment_s,
            } => {
                if !(MIN_INITIAL_S..=10_800).contains(&initial_s) {
                    return Err(format!(
                        "initial_s {initial_s} is out of range: use {MIN_INITIAL_S} to 10800 seconds"
                    ));
                }
                if increment_s > 180 {
                    return Err(format!(
                        "increment_s {increment_s} is out of range: use 0 to 180 seconds"
                    ));
                }
                Ok(())
            }
            TimeControl::Days { days } => match days {
                1 | 2 | 3 | 7 => Ok(()),
                _ => Err(format!("days {days} is not offered: use 1, 2, 3 or 7")),
            },
        }
    }

    /// The speed of games with this control.
    pub fn speed(&self) -> Speed {
        match self {
            TimeControl::Clock { .. } => Speed::Realtime,
            TimeControl::Days { .. } => Speed::Correspondence,
        }
    }

    /// Each side's time at the start, in ms.
    pub fn initial_ms(&self) -> i64 {
        match *self {
            TimeControl::Clock { initial_s, .. } => i64::from(initial_s) * 1000,
            TimeControl::Days { days } => i64::from(days) * 86_400_000,
        }
    }

    /// `3+2`, or `2 days`.
    pub fn label(&self) -> String {
        match *self {
            TimeControl::Clock {
                initial_s,
                increment_s,
            } if initial_s % 60 == 0 => format!("{}+{increment_s}", initial_s / 60),
            TimeControl::Clock {
                initial_s,
                increment_s,
            } => format!("{initial_s}s+{increment_s}"),
            TimeControl::Days { days: 1 } => "1 day".into(),
            TimeControl::Days { days } => format!("{days} days"),
        }
    }
}
