//! The wire messages of a game's WebSocket (`docs/api.md`, section 5), both directions: what a
//! client sends ([`ClientMessage`]) and what the server sends ([`ServerMessage`]). The session
//! loop that reads and writes them is `api::ws`.

use crate::error::ErrorCode;
use crate::model::EndReason;
use crate::view::{self, GameState, MoveView};
use axum::extract::ws::Utf8Bytes;
use mabula::Color;
use serde::{Deserialize, Serialize};

/// The messages a client sends on a game's WebSocket (`docs/api.md`, section 5).
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Opens (or resyncs) the session.
    Hello {
        /// Moves the client has.
        since: Option<u32>,
        /// The epoch it saw with them.
        epoch: Option<u32>,
        /// A seat token, to count as that seat's player.
        token: Option<String>,
    },
    /// Keep-alive.
    Ping,
}

/// The messages the server sends on a game's WebSocket (`docs/api.md`, section 5).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// Answer to `hello`.
    Sync {
        /// The client keeps its moves `1..=after`.
        after: u32,
        /// The moves after `after`.
        moves: &'a [MoveView],
        /// The full state.
        state: &'a GameState,
        /// The seats of the hello's token.
        you: Vec<Color>,
    },
    /// A move was played.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: &'a MoveView,
        /// The state after it.
        state: &'a GameState,
    },
    /// Moves were taken back.
    Undo {
        /// The state after it.
        state: &'a GameState,
    },
    /// The game ended.
    End {
        /// Result token.
        result: &'a str,
        /// The winner, if any.
        winner: Option<Color>,
        /// Why.
        reason: Option<EndReason>,
        /// The final state.
        state: &'a GameState,
    },
    /// Something else changed.
    Update {
        /// What.
        reason: &'a str,
        /// The state after it.
        state: &'a GameState,
    },
    /// Who is connected.
    Presence {
        /// Both seats.
        seats: view::SeatsView,
        /// Spectators.
        spectators: u32,
    },
    /// A bad client message.
    Error {
        /// Stable code.
        code: ErrorCode,
        /// What was wrong.
        message: &'a str,
    },
    /// Answer to `ping`.
    Pong,
}

impl ServerMessage<'_> {
    /// The message as a WebSocket text payload.
    pub fn to_text(&self) -> Utf8Bytes {
        Utf8Bytes::from(serde_json::to_string(self).unwrap_or_else(|_| "{}".into()))
    }
}
