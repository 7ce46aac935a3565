//! Puzzles (issue 39): `/api/puzzles/…` and `/api/players/{name}/puzzles`. A puzzle is a
//! position (the player to move) whose solution the solver proved unique: the player's moves
//! each the only one that keeps the best result, the opponent's replies its best defence.

use mabula::Position;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A puzzle as it is offered, without its solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PuzzleView {
    /// Its id (stable: derived from its content).
    pub id: String,
    /// The position as RULES.md writes it, the player to move.
    #[schema(value_type = String, example = "1b1wb3/6bw/w1wb4/bwb3w1/w1w1ww2/2b2bbb/4bw2/3wb3 w")]
    pub position: Position,
    /// The scoring mode the puzzle is solved in: `largest` or `product`.
    pub scoring: String,
    /// Its puzzle rating now (Glicko-2, moved by every player's first attempt).
    pub rating: i64,
    /// What it teaches: `last_push`, `block`, `split`, `join`, `groups_of_three`,
    /// `forced_pass`, `save_the_draw`.
    pub themes: Vec<String>,
    /// How many moves the player must find.
    pub moves: u32,
    /// What the solution keeps: `win`, or `draw` (when every other move loses).
    pub goal: String,
    /// The UTC day (`YYYY-MM-DD`) of a puzzle of the day; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
}

/// An attempt: the player's moves only (never the opponent's replies), in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AttemptRequest {
    /// The player's moves so far, `["b1-b4", …]`: all of them at once, or the first few to
    /// learn the opponent's reply (see `complete`).
    pub moves: Vec<String>,
    /// In a streak: the puzzles solved in it before this one (0 for its first). A logged-in
    /// player's streak is kept in their account: a complete attempt moves it on or ends it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streak: Option<u32>,
}

/// The answer to an attempt. Until the player's moves are all found or one is wrong
/// (`complete` false), nothing is recorded and the solution stays hidden: `reply` is the
/// opponent's answer to the last move. Once complete, the attempt is recorded and, the first
/// time an account completes the puzzle, both ratings move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AttemptAnswer {
    /// Whether every move given is the solution's.
    pub correct: bool,
    /// Whether the attempt is over: a wrong move, or the whole solution found.
    pub complete: bool,
    /// The opponent's reply to the last move (an attempt not complete yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// The whole solution line, both sides (empty until the attempt is complete).
    pub solution: Vec<String>,
    /// The index in `moves` of the first wrong move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrong: Option<u32>,
    /// Why the wrong move is wrong: the exact final margin the player reaches after it with best
    /// play on both sides (positive: a win by that much, 0: a draw, negative: a loss), proven by
    /// the solver. Absent when the engine was too busy or the proof too long.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrong_margin: Option<i32>,
    /// How the player's puzzle rating moved (absent: not rated, a guest or not a first attempt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<i64>,
    /// The player's puzzle rating after the attempt (absent for guests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// The puzzle's rating after the attempt.
    pub puzzle_rating: i64,
    /// How the puzzle's rating moved (absent when not rated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle_rating_change: Option<i64>,
    /// A logged-in player's complete attempt in a streak: the puzzles solved in the streak now
    /// (0 once it is over), as the account keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streak: Option<u32>,
    /// With `streak`: the account's best streak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_streak: Option<u32>,
}

/// A hint: which marble to push next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PuzzleHint {
    /// The edge square of the marble the next move pushes.
    pub square: String,
}

/// How many shipped puzzles teach a theme, per scoring mode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ThemeCount {
    /// The theme's name.
    pub theme: String,
    /// Puzzles in the largest-group scoring.
    pub largest: u64,
    /// Puzzles in the product scoring.
    pub product: u64,
}

/// The themes, with their counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ThemeList {
    /// Every theme, in a fixed order.
    pub themes: Vec<ThemeCount>,
    /// Puzzles in all.
    pub total: u64,
}

/// One attempt in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PuzzleAttemptView {
    /// The puzzle's id: `/puzzles/{id}`.
    pub puzzle: String,
    /// When (ms since the epoch).
    pub at: i64,
    /// Whether it was solved.
    pub correct: bool,
    /// Whether it was rated (false after a hint).
    pub rated: bool,
    /// How the player's puzzle rating moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<i64>,
    /// The player's puzzle rating after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_after: Option<i64>,
}

/// A player's puzzle rating and latest attempts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PuzzleHistory {
    /// The player's name.
    pub name: String,
    /// The puzzle rating (1500 before any attempt).
    pub rating: i64,
    /// Its deviation (350 before any attempt).
    pub deviation: i64,
    /// Whether the rating is still uncertain.
    pub provisional: bool,
    /// Puzzles attempted.
    pub attempts: u64,
    /// Puzzles solved at the first attempt.
    pub solved: u64,
    /// The most puzzles solved in a row in a streak.
    #[serde(default)]
    pub best_streak: u32,
    /// The latest attempts, newest first (at most 50).
    pub recent: Vec<PuzzleAttemptView>,
}
