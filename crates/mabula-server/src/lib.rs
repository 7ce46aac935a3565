//! The Mabula web server: live games over HTTP and WebSocket, kept in SQLite or PostgreSQL.
//!
//! `mabula serve` runs [`server::run`]; `docs/api.md` is the API's contract, and the OpenAPI
//! document generated from this crate is served at `/api/openapi.json`.
//!
//! # Layout
//!
//! - [`server`]: starting and stopping: `run` serves on a bound listener until a shutdown
//!   future completes; the signal handling.
//! - [`api`]: the HTTP side: `AppState`, one router per resource (`games`, `analysis`, `ws`,
//!   `docs`, `assets`), the layers (rate limit, JSON errors).
//! - [`hub`]: the games in memory and every action on them: check, commit, then broadcast.
//! - [`model`]: a game's settings, seats and rules of acting, without I/O.
//! - [`view`]: the JSON shapes and how a game becomes its public state (with move previews).
//! - [`store`]: the storage interface, its SQLite and PostgreSQL backends, and the group-commit
//!   writer.
//! - [`engine`]: the bounded pool where engine moves and analyses are computed.
//! - [`analysis`]: the analysis board's service: positions analysed on the engine pool with
//!   `mabula_engine::annotate` within a time bound, streamed as they deepen, cached per position;
//!   its JSON shapes.
//! - [`auth`]: seat tokens and join codes.
//! - [`error`]: the API error type and its stable codes.
//! - [`extract`]: request extractors that fail with API errors.
//! - [`client`]: a typed client of the HTTP API (tests, the crash test).
//! - [`loadtest`]: the client side of `mabula loadtest`.

pub mod analysis;
pub mod api;
pub mod auth;
pub mod client;
pub mod engine;
pub mod error;
pub mod extract;
pub mod hub;
pub mod loadtest;
pub mod model;
pub mod protocol;
pub mod server;
pub mod store;
pub mod view;

pub use server::{ServerConfig, ServerError, run, shutdown_signal};
