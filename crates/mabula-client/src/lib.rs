//! The client side of the Mabula web service, apart from the server itself:
//!
//! - [`client`]: a typed client of the HTTP API (the tests, the crash test of `mabula serve`).
//! - [`loadtest`]: `mabula loadtest`, many games at once against one or several instances.

pub mod client;
pub mod loadtest;
