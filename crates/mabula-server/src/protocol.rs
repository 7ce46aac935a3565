//! The wire messages of a game's WebSocket (`docs/api.md`, section 5), both directions: what a
//! client sends ([`ClientMessage`]) and what the server sends ([`ServerMessage`]). They are the
//! crate `mabula-api`'s, shared with the clients, and re-exported here; the session loop that
//! reads and writes them is `api::ws`, and `ServerMessage::to_text` gives the socket's text
//! type directly.

pub use mabula_api::protocol::{ClientMessage, ServerMessage};
