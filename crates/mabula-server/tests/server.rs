//! The server's integration tests, one module a concern: a real server on 127.0.0.1:0 with a
//! fresh database, spoken to over real HTTP and WebSocket connections (see `common`).
mod abuse;
mod analysis;
mod analysis_graph;
mod api;
mod common;
mod duplicate;
mod fairness;
mod live;
mod loadtest;
mod openapi;
mod storage;
mod watch_list;
