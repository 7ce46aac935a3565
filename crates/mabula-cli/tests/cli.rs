//! The `mabula` command's integration tests, one module a concern: real `mabula` processes
//! (`serve` on SQLite, or three instances on one PostgreSQL when `MABULA_TEST_POSTGRES_URL` names
//! a server), the terminal tools, the engine protocol and the analysis service.
mod abuse_accounts;
mod accounts;
mod analysis_server;
mod backup;
mod bot_bridge;
mod bots;
mod chat;
mod cluster;
mod common;
mod engine_cmds;
mod engine_queue;
mod fair_play;
mod hardening;
mod match_failures;
mod metrics;
mod play_plain;
mod play_pty;
mod players;
mod playing;
mod puzzles;
mod ratings;
mod schema;
mod serve_crash;
mod sockets;
mod tools;
mod tournaments;
