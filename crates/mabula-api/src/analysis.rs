//! The analysis board's JSON (`docs/api.md`, section 4): the engine's view of a position, a
//! game's evaluation graph and move notes, the requests and answers of `/api/analysis…`, and a
//! game's hint (`POST /api/games/{id}/hint`: the state with the analysis of its position).

use crate::view::{GameState, LegalMoveView};
use mabula::{Color, Position};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A value for the side to move (of a move, or of the position a move led to).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ValueView {
    /// The expected score: 1 a win, 0.5 a draw, 0 a loss.
    pub expected: f64,
    /// Whether the value is proven (`result` then set).
    pub exact: bool,
    /// -1, 0 or 1 when proven.
    pub result: Option<i8>,
    /// The final margin with best play, when the solver computed it.
    pub margin: Option<i32>,
    /// For people: `63.4%`, `win`, `wins by 2`, `draw`, `loses by 3`.
    pub text: String,
}

/// One of the best moves of a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LineView {
    /// The move, e.g. `c8-c5` (or `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the side to move.
    pub value: ValueView,
    /// Playouts through it.
    pub visits: u64,
    /// The principal line, this move first.
    pub pv: Vec<String>,
}

/// The exact outcome with best play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct VerdictView {
    /// `white`, `black`, or null for a draw.
    #[schema(value_type = Option<String>)]
    pub winner: Option<Color>,
    /// The final margin for White (White's score minus Black's).
    pub white_margin: i32,
    /// `White wins by 2 with best play` (English; the page words it itself).
    pub text: String,
}

/// The engine's view of a position (`docs/api.md`, section 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PositionAnalysis {
    /// The position string.
    #[schema(value_type = String)]
    pub position: Position,
    /// `largest` or `product`.
    pub scoring: String,
    /// `white` or `black`.
    #[schema(value_type = String)]
    pub to_move: Color,
    /// The expected score of White with best play as far as the engine sees (1 win, 0 loss).
    pub white: f64,
    /// The solver's exact outcome, once found.
    pub verdict: Option<VerdictView>,
    /// The best moves, best first (at most five).
    pub moves: Vec<LineView>,
    /// Playouts made.
    pub playouts: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    /// The step of the deepening (1 first).
    pub step: u32,
    /// No deeper report follows.
    pub done: bool,
    /// Whether the position was analysed before (the cache answered).
    pub cached: bool,
}

/// What the engine says about one move of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NoteView {
    /// The move's index (0 first).
    pub index: usize,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// `white` or `black`.
    #[schema(value_type = String)]
    pub mover: Color,
    /// The move's value for the mover.
    pub value: ValueView,
    /// The engine's preferred move, when another.
    pub best: Option<LineView>,
    /// The expected score lost against the best move.
    pub loss: f64,
    /// `best`, `good`, `mistake` or `blunder`.
    pub judgement: String,
    /// The comment `mabula analyze` writes into the record for this move.
    pub comment: String,
}

/// The evaluation graph of a game and the notes on its moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameAnalysis {
    /// The scoring mode analysed for.
    pub scoring: String,
    /// The expected score of White at the start and after every move.
    pub values: Vec<f64>,
    /// The exact margin for White where the solver found it, per position (null elsewhere).
    pub margins: Vec<Option<i32>>,
    /// One note per move.
    pub notes: Vec<NoteView>,
    /// Blunders and mistakes of each side: `{white: {blunders, mistakes}, black: ...}`.
    pub counts: Counts,
}

/// Blunders and mistakes, per side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Counts {
    /// White's.
    pub white: SideCounts,
    /// Black's.
    pub black: SideCounts,
}

/// One side's blunders and mistakes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SideCounts {
    /// Blunders.
    pub blunders: u32,
    /// Mistakes.
    pub mistakes: u32,
}

/// Request of `POST /api/analysis/game`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameAnalysisRequest {
    /// The game record text.
    pub record: String,
    /// The scoring mode to analyse for (default: the record's).
    pub scoring: Option<String>,
}

/// The cache's counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AnalysisStats {
    /// Positions analysed (an analysis dropped before it started is not counted).
    pub runs: u64,
    /// Requests answered from the cache.
    pub hits: u64,
}

/// One position of a game's analysis, in its stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GamePositionEvent {
    /// The position's index: 0 the start, n after move n.
    pub index: usize,
    /// Its analysis.
    pub analysis: PositionAnalysis,
}

/// The legal moves of any position, for the analysis board's variations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PositionMoves {
    /// The position string.
    #[schema(value_type = String)]
    pub position: Position,
    /// `white` or `black`.
    #[schema(value_type = String)]
    pub to_move: Color,
    /// Whether neither side can push.
    pub game_over: bool,
    /// The legal moves (a lone `pass` when the side to move cannot push), sorted, with the
    /// marbles they move and the position after each.
    pub legal_moves: Vec<LegalMoveView>,
}

/// A hint: the engine's analysis of the position, counted for the player to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HintAnswer {
    /// The game state, with the hint counted.
    pub state: GameState,
    /// The engine's analysis of the position (its first move is the hint).
    pub analysis: PositionAnalysis,
}
