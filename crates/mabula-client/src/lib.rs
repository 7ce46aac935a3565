//! The client side of the Mabula web service, apart from the server itself:
//!
//! - [`bot`]: the bot API with a personal token (`mabula bot`).
//! - [`client`]: a typed client of the HTTP API (the tests, the crash test of `mabula serve`).
//! - [`loadtest`]: `mabula loadtest`, many games at once against one or several instances.

pub mod bot;
pub mod client;
pub mod loadtest;
