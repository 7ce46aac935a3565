//! The JSON and WebSocket shapes of the Mabula web service (`docs/api.md`), shared by the
//! server (`mabula-server`, which derives its OpenAPI document from them) and its clients
//! (`mabula-client`). Only shapes live here, and the few pure helpers that read them (names of
//! modes and reasons, time-control bounds and labels, an error code's HTTP status); how the
//! server fills them from its model is the server's.
//!
//! # Layout
//!
//! - [`game`]: the words of a game: sides, modes, the engine's seat, end reasons, duplicate
//!   pairs, undo offers.
//! - [`clock`]: time controls and the speeds ratings are kept for.
//! - [`view`]: a game's public state, the game list, and the requests and answers of
//!   `/api/games…`.
//! - [`protocol`]: a game's WebSocket messages, both directions.
//! - [`analysis`]: the analysis board's answers and requests, and a game's hint (a game's state
//!   with an analysis: it builds on [`view`], which knows nothing of analyses).
//! - [`accounts`], [`players`], [`lobby`]: accounts and sessions, profiles and ratings, seeks
//!   and the lobby's socket.
//! - [`follows`]: following players, their live games, and who is online.
//! - [`social`]: chat lines, blocks, reports and the moderators' queue.
//! - [`tournaments`]: tournaments (Swiss, arenas), their standings, rounds and live channel.
//! - [`bots`]: personal tokens, bot accounts and the bot API's streams.
//! - [`puzzles`]: puzzles, attempts, themes and a player's puzzle history (issue 39).
//! - [`error`]: the error body and its stable codes.
//!
//! Sides are [`mabula::Color`]s, written `"white"` and `"black"`; positions and moves are the
//! rules crate's text types.

pub mod accounts;
pub mod analysis;
pub mod bots;
pub mod clock;
pub mod error;
pub mod follows;
pub mod game;
pub mod lobby;
pub mod players;
pub mod protocol;
pub mod puzzles;
pub mod social;
pub mod tournaments;
pub mod view;
