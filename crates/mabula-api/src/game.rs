//! The words a game's JSON is made of: sides, modes, the engine's seat, why a game ended, its
//! place in a duplicate pair and a pending undo offer. The server's model uses these same types.

use mabula::Color;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

// The API's sides are `mabula::Color`s, which go to JSON as `"white"` and `"black"` through the
// rules crate's `serde` feature; the rules crate knows nothing of utoipa, so the OpenAPI
// document describes them with this type, which nothing else uses: every `Color` field of an
// API type says `#[schema(value_type = SideSchema)]`.
/// A side of the board, as JSON (`"white"`, `"black"`).
#[derive(ToSchema)]
#[schema(as = Side, rename_all = "lowercase")]
pub enum SideSchema {
    /// White.
    White,
    /// Black.
    Black,
}

/// Who plays a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people on two devices; the second joins with a code.
    Friend,
    /// Two people at one screen, one token for both seats.
    Local,
}

impl Mode {
    /// The name used in JSON and in the database.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }

    /// Reads a name written by [`Mode::name`].
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "engine" => Some(Mode::Engine),
            "friend" => Some(Mode::Friend),
            "local" => Some(Mode::Local),
            _ => None,
        }
    }
}

/// The engine's seat in an engine game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EngineSettings {
    /// The engine's colour.
    #[schema(value_type = SideSchema)]
    pub color: Color,
    /// Strength, 1 to 10.
    pub level: u8,
    /// Thinking time per move, in milliseconds.
    pub movetime_ms: u32,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Neither side can push: scored by the rules.
    NoMoves,
    /// White resigned.
    ResignedWhite,
    /// Black resigned.
    ResignedBlack,
    /// An imported record declared a result the moves do not reach.
    Declared,
    /// White's time ran out.
    TimeoutWhite,
    /// Black's time ran out.
    TimeoutBlack,
    /// A side did not make its first move in time: no result.
    Aborted,
    /// White left a game on a clock and Black claimed the win.
    AbandonedWhite,
    /// Black left a game on a clock and White claimed the win.
    AbandonedBlack,
    /// A draw offered by one side was accepted by the other.
    DrawAgreed,
}

impl EndReason {
    /// The name used in JSON and in the database.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no_moves",
            EndReason::ResignedWhite => "resigned_white",
            EndReason::ResignedBlack => "resigned_black",
            EndReason::Declared => "declared",
            EndReason::TimeoutWhite => "timeout_white",
            EndReason::TimeoutBlack => "timeout_black",
            EndReason::Aborted => "aborted",
            EndReason::AbandonedWhite => "abandoned_white",
            EndReason::AbandonedBlack => "abandoned_black",
            EndReason::DrawAgreed => "draw_agreed",
        }
    }

    /// Reads a name written by [`EndReason::name`].
    pub fn parse(s: &str) -> Option<EndReason> {
        match s {
            "no_moves" => Some(EndReason::NoMoves),
            "resigned_white" => Some(EndReason::ResignedWhite),
            "resigned_black" => Some(EndReason::ResignedBlack),
            "declared" => Some(EndReason::Declared),
            "timeout_white" => Some(EndReason::TimeoutWhite),
            "timeout_black" => Some(EndReason::TimeoutBlack),
            "aborted" => Some(EndReason::Aborted),
            "abandoned_white" => Some(EndReason::AbandonedWhite),
            "abandoned_black" => Some(EndReason::AbandonedBlack),
            "draw_agreed" => Some(EndReason::DrawAgreed),
            _ => None,
        }
    }

    /// The reason `color` resigned.
    pub const fn resigned(color: Color) -> EndReason {
        match color {
            Color::White => EndReason::ResignedWhite,
            Color::Black => EndReason::ResignedBlack,
        }
    }
}

/// A game's place in a duplicate pair: the same start played twice, colours swapped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PairHalf {
    /// The first game: its rematch replays its start with the colours swapped.
    First,
    /// The second game, the first one's rematch.
    Second,
}

impl PairHalf {
    /// The name used in the database.
    pub const fn name(self) -> &'static str {
        match self {
            PairHalf::First => "first",
            PairHalf::Second => "second",
        }
    }

    /// Reads a name written by [`PairHalf::name`].
    pub fn parse(s: &str) -> Option<PairHalf> {
        match s {
            "first" => Some(PairHalf::First),
            "second" => Some(PairHalf::Second),
            _ => None,
        }
    }
}

/// A pending request to take back moves in a friend game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct UndoOffer {
    /// The side that asks.
    #[schema(value_type = SideSchema)]
    pub by: Color,
    /// How many moves accepting takes back.
    pub moves: u32,
}
