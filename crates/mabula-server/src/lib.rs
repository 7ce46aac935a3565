//! The Mabula web server: live games over HTTP and WebSocket, kept in SQLite or PostgreSQL.
//!
//! `mabula serve` runs [`server::run`]; `docs/api.md` is the API's contract, and the OpenAPI
//! document generated from this crate is served at `/api/openapi.json`.
//!
//! # Layout
//!
//! - [`server`]: starting and stopping: `run` serves on a bound listener until a shutdown
//!   future completes; the signal handling.
//! - [`api`]: the HTTP side: `AppState`, one router per resource (`games`, `accounts`,
//!   `players`, `lobby`, `analysis`, `ws`, `docs`, `assets`), the layers (sessions and CSRF,
//!   rate limit, JSON errors). `docs`, the OpenAPI document, gathers the handlers' paths and is
//!   used by none of them: the answers they share are `answers`'. `live` is the one WebSocket
//!   session loop that a game's, the lobby's and a tournament's sockets run.
//! - [`services`]: one service per concern, each owning its state: the live games (every
//!   action on a game: check, commit, then broadcast), clocks, ratings, the lobby, accounts,
//!   players' pages, and this instance among the others; wired and started in one place.
//! - [`model`]: a game's settings, seats, players, clock and rules of acting, and Glicko-2
//!   ratings, without I/O; its own error type, `Refusal`.
//! - [`view`]: how a game becomes its public state (with move previews). The JSON shapes of
//!   every resource are the crate `mabula-api`'s, shared with the clients, and re-exported
//!   where the server has always named them (`view`, `protocol`, `error`, `analysis`, `api::*`).
//! - [`protocol`]: the WebSocket's messages, both what a client sends and what the server sends.
//! - [`store`]: the storage interface, its row types, its SQLite and PostgreSQL backends, the
//!   group-commit writer, and the players' queries (accounts, sessions, ratings, seeks), all
//!   behind one availability gate.
//! - [`engine`]: the bounded pool where engine moves and analyses are computed.
//! - [`analysis`]: the analysis board's service: positions analysed on the engine pool with
//!   `mabula_engine::annotate` within a time bound, streamed as they deepen, cached per position;
//!   the views of its reports.
//! - [`auth`]: seat tokens, join codes and game ids; which seats a token holds.
//! - [`error`]: the API error type, its stable codes, and the conversions of the lower layers'
//!   errors into it.
//! - [`extract`]: request extractors that fail with API errors (the seat token, the client
//!   address, JSON bodies, query strings).
//! - [`picture`]: pictures of positions (SVG, PNG) and of whole games (animated PNG), without I/O.
//! - [`metrics`]: the Prometheus metrics: the counters every layer bumps, the request layer, and
//!   the exposition that `GET /metrics` serves.
//! - [`clock`]: the time every service reads, real or (in tests) controlled, and the waits on it.
//!
//! # Layers
//!
//! A module uses only modules of the layers below it; `docs/architecture.md` draws them.
//!
//! 0. [`metrics`] and [`clock`] use nothing of this crate, so that any module may count an event
//!    or read the time.
//! 1. [`model`] uses the rules crate only (and the words of a game from `mabula-api`).
//! 2. [`store`] and [`auth`] use the model; [`engine`] and [`picture`] use nothing of this crate.
//! 3. [`view`] uses the model and the store's rows; [`error`] the model, auth and the store,
//!    whose errors it converts.
//! 4. [`protocol`] only re-exports the API crate's messages; [`extract`] uses auth and error;
//!    [`analysis`] the engine and error.
//! 5. [`services`], the service layer, uses all of the above and answers with
//!    [`error::ApiError`].
//! 6. [`api`], the HTTP edge, and above it [`server`], which serves the api's router.
//!
//! The typed HTTP client and the load test are in the crate `mabula-client`, which builds on
//! `mabula-api` without this crate.

pub mod analysis;
pub mod api;
pub mod auth;
pub mod clock;
pub mod engine;
pub mod error;
pub mod extract;
pub mod metrics;
pub mod model;
pub mod picture;
pub mod protocol;
pub mod server;
pub mod services;
pub mod store;
pub mod view;

pub use server::{ServerConfig, ServerError, run, shutdown_signal};
