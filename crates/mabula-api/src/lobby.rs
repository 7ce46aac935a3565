//! The lobby: seeks and challenges (`/api/seeks…`) and what its live channel, `/api/lobby/ws`,
//! sends.

use crate::clock::{Speed, TimeControl};
use crate::error::ErrorCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A new seek or challenge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// `largest` or `product`.
    pub scoring: String,
    /// Rated (ratings move) or casual.
    #[serde(default)]
    pub rated: bool,
    /// A real-time clock: `{"initial_s", "increment_s"}`; give this or `days`.
    pub clock: Option<ClockRequest>,
    /// Correspondence: days per move (1, 2, 3 or 7); give this or `clock`.
    pub days: Option<u32>,
    /// The colour wanted: `white`, `black` or `random` (default).
    pub color: Option<String>,
    /// The least rating of an opponent.
    pub rating_min: Option<i32>,
    /// The greatest rating of an opponent.
    pub rating_max: Option<i32>,
    /// A challenge: the name of the player challenged (only they can accept it).
    pub to: Option<String>,
    /// `false`: no bot may accept this seek (issue 38); bots are welcome when absent.
    #[serde(default)]
    pub bots: Option<bool>,
}

/// A real-time clock in a request.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Seconds for the game (15 to 10800).
    pub initial_s: u32,
    /// Seconds added per move (0 to 180).
    pub increment_s: u32,
}

/// A seek or challenge as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeekView {
    /// The seek's id.
    pub id: String,
    /// Who seeks.
    pub name: String,
    /// Their rating for this scoring and speed.
    pub rating: i32,
    /// Whether that rating is provisional.
    pub provisional: bool,
    /// The player challenged, for a challenge.
    pub to: Option<String>,
    /// `largest` or `product`.
    pub scoring: String,
    /// Rated or casual.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
    /// `3+2`, `2 days`.
    pub label: String,
    /// `realtime` or `correspondence`.
    pub speed: Speed,
    /// The seeker's colour wish: `white`, `black` or `random`.
    pub color: String,
    /// The least rating of an opponent.
    pub rating_min: Option<i32>,
    /// The greatest rating of an opponent.
    pub rating_max: Option<i32>,
    /// When it was made (ms).
    pub created_at: i64,
    /// Whether its owner is a bot account (issue 38).
    #[serde(default)]
    pub bot: bool,
    /// Whether a bot may accept it (issue 38).
    #[serde(default = "yes")]
    pub bots: bool,
}

fn yes() -> bool {
    true
}

/// The open seeks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeekList {
    /// Seeks open to all, and the challenges to and from you, oldest first.
    pub seeks: Vec<SeekView>,
}

/// The game a seek started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Started {
    /// The game's id: play it at `/game/{id}`.
    pub game_id: String,
}

/// What the lobby's socket sends, as the server writes it (borrowing what it sends); a client
/// reads it as an [`OwnedLobbyMessage`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyMessage<'a> {
    /// The seeks now (the socket's first message).
    Seeks {
        /// Seeks open to all, and the challenges to and from you, oldest first.
        seeks: &'a [SeekView],
    },
    /// What changed in the seeks since the socket's last message about them.
    SeeksChanged {
        /// Seeks and challenges opened, oldest first.
        added: &'a [SeekView],
        /// The ids of those that went (accepted, withdrawn, declined or lapsed).
        removed: &'a [String],
    },
    /// A game of yours began.
    Game {
        /// The game's id.
        game_id: &'a str,
        /// The tournament it is a game of (the page then calls the player to it, and does not
        /// take them there); absent otherwise.
        #[serde(skip_serializing_if = "Option::is_none")]
        tournament: Option<&'a str>,
    },
    /// It is your turn in a correspondence game.
    Turn {
        /// The game's id.
        game_id: &'a str,
    },
    /// A challenge of yours was declined.
    Declined {
        /// The challenge's id.
        seek_id: &'a str,
        /// The name of the player who declined it.
        by: &'a str,
    },
    /// Something went wrong.
    Error {
        /// Stable code.
        code: ErrorCode,
        /// What was wrong.
        message: &'a str,
    },
}

impl LobbyMessage<'_> {
    /// The message as JSON text, in the string type the caller's socket sends (`String`, or a
    /// WebSocket library's text type that converts from one).
    pub fn to_text<T: From<String>>(&self) -> T {
        T::from(serde_json::to_string(self).unwrap_or_default())
    }
}

/// A [`LobbyMessage`] as a client reads it: the same JSON, owning its parts.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OwnedLobbyMessage {
    /// The seeks now (the socket's first message).
    Seeks {
        /// Seeks open to all, and the challenges to and from you, oldest first.
        seeks: Vec<SeekView>,
    },
    /// What changed in the seeks since the socket's last message about them.
    SeeksChanged {
        /// Seeks and challenges opened, oldest first.
        added: Vec<SeekView>,
        /// The ids of those that went.
        removed: Vec<String>,
    },
    /// A game of yours began.
    Game {
        /// The game's id.
        game_id: String,
        /// The tournament it is a game of (the page then calls the player to it, and does not
        /// take them there); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tournament: Option<String>,
    },
    /// It is your turn in a correspondence game.
    Turn {
        /// The game's id.
        game_id: String,
    },
    /// A challenge of yours was declined.
    Declined {
        /// The challenge's id.
        seek_id: String,
        /// The name of the player who declined it.
        by: String,
    },
    /// Something went wrong.
    Error {
        /// Stable code.
        code: ErrorCode,
        /// What was wrong.
        message: String,
    },
}

impl OwnedLobbyMessage {
    /// The message in the form the server writes, to compare or to send on.
    pub fn as_message(&self) -> LobbyMessage<'_> {
        match self {
            OwnedLobbyMessage::Seeks { seeks } => LobbyMessage::Seeks { seeks },
            OwnedLobbyMessage::SeeksChanged { added, removed } => {
                LobbyMessage::SeeksChanged { added, removed }
            }
            OwnedLobbyMessage::Game {
                game_id,
                tournament,
            } => LobbyMessage::Game {
                game_id,
                tournament: tournament.as_deref(),
            },
            OwnedLobbyMessage::Turn { game_id } => LobbyMessage::Turn { game_id },
            OwnedLobbyMessage::Declined { seek_id, by } => LobbyMessage::Declined { seek_id, by },
            OwnedLobbyMessage::Error { code, message } => LobbyMessage::Error {
                code: *code,
                message,
            },
        }
    }
}
