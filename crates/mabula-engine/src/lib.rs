//! The Mabula engine: a tree search with an exact solver, levels of play, analysis, and the
//! engine protocol.
//!
//! # Layout
//!
//! - [`annotate`]: annotation shared by `mabula analyze` and the server: a position analysed in
//!   steps within a time bound (with the exact margin late in the game), notes on the moves of a
//!   game (blunders, mistakes), the evaluation graph.
//! - [`search`]: the facade. An [`Engine`] keeps its trees and table between moves and answers
//!   with an [`Analysis`] (every legal move with a [`Value`], visits and principal line).
//! - [`mcts`]: Monte Carlo tree search with proven results (one tree per thread).
//! - [`playout`]: random and cheap-policy playouts.
//! - [`solver`]: the exact solver (negamax alpha-beta), result or final margin.
//! - [`tt`]: the solver's lock-free transposition table.
//! - [`eval`]: the learnt evaluation (features, model, move prior, value) read from the
//!   embedded weights, for the player settings that use it.
//! - `learn` (with the `learn` feature): exact labels and the fitting of [`eval`]'s models
//!   (`mabula train` and the research examples).
//! - [`levels`]: strength levels 1 to 10.
//! - [`limits`]: time, node and stop-flag limits, and turns taken with other searches.
//! - [`gtp`]: the engine protocol loop (RULES.md section 7), over any reader and writer.
//! - [`arena`]: players and games between them, for matches.
//! - [`bench`]: the fixed search bench (node counts and speed).
//! - [`rng`]: the small seeded random number generator.
//!
//! The two calls most callers need are [`choose_move`] and [`analyze`]:
//!
//! ```
//! use mabula::{Color, Scoring, deal};
//! use std::time::Duration;
//! let pos = deal::random(1, Color::White);
//! let mv = mabula_engine::choose_move(&pos, Scoring::Largest, 3, Some(Duration::from_millis(50)), 7);
//! assert!(pos.is_legal(mv));
//! ```

pub mod annotate;
pub mod arena;
pub mod bench;
pub mod eval;
pub mod gtp;
#[cfg(feature = "learn")]
pub mod learn;
pub mod levels;
pub mod limits;
pub mod mcts;
mod mem;
pub mod playout;
pub mod puzzle;
pub mod rng;
pub mod search;
pub mod solver;
pub mod tt;

pub use levels::{Level, LevelName, MAX_LEVEL};
pub use limits::{Limits, Turns};
pub use search::{Analysis, Engine, EngineConfig, MoveAnalysis, Value};
pub use solver::{Solution, SolveMode, Solver};

use mabula::{Move, Position, Scoring};
use std::time::Duration;

/// Chooses a move for the side to move of `pos` at strength `level` (1 to 10), thinking at most
/// `movetime` (level 10 thinks [`levels::DEFAULT_MOVETIME`] when none is given); `seed` makes the
/// choice reproducible (exactly so below level 10, which uses every core). Returns
/// [`Move::PASS`] when passing is the only move, and also when the game is over (callers check
/// that first).
pub fn choose_move(
    pos: &Position,
    scoring: Scoring,
    level: u8,
    movetime: Option<Duration>,
    seed: u64,
) -> Move {
    choose_move_in_turns(pos, scoring, level, movetime, seed, None)
}

/// [`choose_move`], taking `turns` with other searches if given: the search pauses between its
/// slices, and only the time it runs counts against `movetime`, so the move is as strong however
/// long it waits.
pub fn choose_move_in_turns(
    pos: &Position,
    scoring: Scoring,
    level: u8,
    movetime: Option<Duration>,
    seed: u64,
    turns: Option<Turns>,
) -> Move {
    let level = Level::new(level, seed);
    let time = match (movetime, level.playouts) {
        (None, None) => Some(levels::DEFAULT_MOVETIME),
        (t, _) => t,
    };
    let limits = Limits {
        time,
        nodes: level.playouts,
        stop: None,
        turns,
    };
    let config = EngineConfig {
        reuse: false,
        ..level.config
    };
    Engine::new(config, scoring).choose(pos, &limits)
}

/// Analyses `pos` at full strength within `limits`: every legal move, best first, with its value
/// for the side to move (a win probability, or an exact result when proven), visits and principal
/// line; and the exact solution when the solver finished. Empty when the game is over.
pub fn analyze(pos: &Position, scoring: Scoring, limits: &Limits) -> Analysis {
    Engine::new(
        EngineConfig {
            reuse: false,
            ..EngineConfig::default()
        },
        scoring,
    )
    .analyze(pos, limits)
}
