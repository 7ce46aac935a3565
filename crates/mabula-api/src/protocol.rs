//! The wire messages of a game's WebSocket (`docs/api.md`, section 5), both directions: what a
//! client sends ([`ClientMessage`]) and what the server sends ([`ServerMessage`]).
//!
//! The server writes a [`ServerMessage`] that borrows the state it already holds (one state is
//! sent to every socket of a game, so it is not copied per message); a client reads the same
//! JSON as an [`OwnedServerMessage`]. [`OwnedServerMessage::as_message`] gives the borrowed
//! form back, which keeps the two enums in step: a variant or a field that one has and the
//! other lacks does not compile, and the tests check that what one writes the other reads.

use crate::error::ErrorCode;
use crate::game::EndReason;
use crate::social::ChatLine;
use crate::view::{GameState, MoveView, SeatsView};
use mabula::Color;
use serde::{Deserialize, Serialize};

/// The messages a client sends on a game's WebSocket (`docs/api.md`, section 5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// The messages the server sends on a game's WebSocket (`docs/api.md`, section 5), borrowing
/// what they carry; a client reads them as [`OwnedServerMessage`]s.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
        seats: SeatsView,
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
    /// A chat line (players' room lines reach the seats' sockets only).
    Chat {
        /// The line.
        line: &'a ChatLine,
    },
}

impl ServerMessage<'_> {
    /// The message as JSON text, in the string type the caller's socket sends (`String`, or a
    /// WebSocket library's text type that converts from one).
    pub fn to_text<T: From<String>>(&self) -> T {
        T::from(serde_json::to_string(self).unwrap_or_else(|_| "{}".into()))
    }
}

/// A [`ServerMessage`] as a client reads it: the same JSON, owning its parts.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OwnedServerMessage {
    /// Answer to `hello`.
    Sync {
        /// The client keeps its moves `1..=after`.
        after: u32,
        /// The moves after `after`.
        moves: Vec<MoveView>,
        /// The full state.
        state: Box<GameState>,
        /// The seats of the hello's token.
        you: Vec<Color>,
    },
    /// A move was played.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: MoveView,
        /// The state after it.
        state: Box<GameState>,
    },
    /// Moves were taken back.
    Undo {
        /// The state after it.
        state: Box<GameState>,
    },
    /// The game ended.
    End {
        /// Result token.
        result: String,
        /// The winner, if any.
        winner: Option<Color>,
        /// Why.
        reason: Option<EndReason>,
        /// The final state.
        state: Box<GameState>,
    },
    /// Something else changed.
    Update {
        /// What.
        reason: String,
        /// The state after it.
        state: Box<GameState>,
    },
    /// Who is connected.
    Presence {
        /// Both seats.
        seats: SeatsView,
        /// Spectators.
        spectators: u32,
    },
    /// A bad client message.
    Error {
        /// Stable code.
        code: ErrorCode,
        /// What was wrong.
        message: String,
    },
    /// Answer to `ping`.
    Pong,
    /// A chat line (players' room lines reach the seats' sockets only).
    Chat {
        /// The line.
        line: ChatLine,
    },
}

impl OwnedServerMessage {
    /// The message in the form the server writes, to compare or to send on.
    pub fn as_message(&self) -> ServerMessage<'_> {
        match self {
            OwnedServerMessage::Sync {
                after,
                moves,
                state,
                you,
            } => ServerMessage::Sync {
                after: *after,
                moves,
                state,
                you: you.clone(),
            },
            OwnedServerMessage::Move { mv, state } => ServerMessage::Move { mv, state },
            OwnedServerMessage::Undo { state } => ServerMessage::Undo { state },
            OwnedServerMessage::End {
                result,
                winner,
                reason,
                state,
            } => ServerMessage::End {
                result,
                winner: *winner,
                reason: *reason,
                state,
            },
            OwnedServerMessage::Update { reason, state } => ServerMessage::Update { reason, state },
            OwnedServerMessage::Presence { seats, spectators } => ServerMessage::Presence {
                seats: *seats,
                spectators: *spectators,
            },
            OwnedServerMessage::Error { code, message } => ServerMessage::Error {
                code: *code,
                message,
            },
            OwnedServerMessage::Pong => ServerMessage::Pong,
            OwnedServerMessage::Chat { line } => ServerMessage::Chat { line },
        }
    }
}
