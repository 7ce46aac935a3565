//! The game resource's JSON (`docs/api.md`, section 3): a game's public state and its parts, the
//! list of games, and the requests and answers of `/api/games…`. The WebSocket's messages, in
//! [`protocol`](crate::protocol), carry these states and moves.

use crate::clock::TimeControl;
use crate::game::{EndReason, EngineSettings, Mode, PairHalf, SideSchema, UndoOffer};
use mabula::{Color, Position, Square};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The public state of a game (`docs/api.md`, section 3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameState {
    /// Game id.
    pub id: String,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// The stored version of the game: every change, the rating of a finished game included,
    /// adds one, so of two states of a game the one with the higher version is the newer.
    pub version: u64,
    /// The game's settings.
    pub settings: SettingsView,
    /// The starting position string.
    #[schema(value_type = String)]
    pub start: Position,
    /// The current position string.
    #[schema(value_type = String)]
    pub position: Position,
    /// How many times moves were taken back.
    pub epoch: u32,
    /// Every move so far.
    pub moves: Vec<MoveView>,
    /// `playing` or `finished`.
    pub status: String,
    /// The side to move; `null` when finished.
    #[schema(value_type = Option<SideSchema>)]
    pub to_move: Option<Color>,
    /// The side to move can only pass.
    pub must_pass: bool,
    /// Every legal move with the position after it.
    pub legal_moves: Vec<LegalMoveView>,
    /// Both scores under both modes.
    pub scores: AllScores,
    /// Each colour's groups, largest first.
    pub groups: GroupsView,
    /// `*`, `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The winner, if any.
    #[schema(value_type = Option<SideSchema>)]
    pub winner: Option<Color>,
    /// Why the game ended.
    pub end_reason: Option<EndReason>,
    /// Who holds the seats and who is connected.
    pub seats: SeatsView,
    /// Open WebSockets without a token.
    pub spectators: u32,
    /// The engine is computing or queued.
    pub engine_thinking: bool,
    /// A pending undo request.
    pub undo_offer: Option<UndoOffer>,
    /// The side whose draw offer stands (until the other side moves or answers); `null` when
    /// none does or the game is over.
    #[schema(value_type = Option<SideSchema>)]
    pub draw_offer: Option<Color>,
    /// Hints asked for by each side (games against the engine).
    pub hints: HintCounts,
    /// The rematch game's id.
    pub rematch: Option<String>,
    /// The duplicate pair this game ends (its second game only; `null` otherwise).
    pub pair: Option<PairView>,
    /// The players with accounts in each seat (`null`: a guest, or the engine).
    pub players: PlayersView,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The clock, in timed games.
    pub clock: Option<ClockView>,
    /// The seats of the request's token (HTTP answers and `sync` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<SideSchema>>)]
    pub you: Option<Vec<Color>>,
}

/// A player with an account, as a game shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerView {
    /// The account's name.
    pub name: String,
    /// The rating when the game began (rated games).
    pub rating: Option<i32>,
    /// Whether that rating was provisional.
    pub provisional: bool,
    /// How much the game moved the rating, once the game is rated.
    pub rating_diff: Option<i32>,
    /// A bot account (issue 38): a program playing through the bot API, or a house bot.
    #[serde(default)]
    pub bot: bool,
    /// The player's accuracy in this game (issue 51): in `GET /api/games/{id}` only, once a
    /// finished rated game has been analysed; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<AccuracyView>,
}

/// A player's accuracy in a finished rated game (issue 51): the share of the player's moves
/// (those with a choice) that kept the engine's best value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AccuracyView {
    /// `kept` of `moves`, in whole percent (rounded); `null` when no move was counted.
    pub percent: Option<u32>,
    /// The moves counted: the player's moves in positions with more than one legal move.
    pub moves: u32,
    /// The moves among them that kept the engine's best value.
    pub kept: u32,
}

/// The players of both seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayersView {
    /// White's player.
    pub white: Option<PlayerView>,
    /// Black's player.
    pub black: Option<PlayerView>,
}

/// A game's clock when the state was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    /// The time control.
    pub control: TimeControl,
    /// `3+2`, `2 days`.
    pub label: String,
    /// White's time left (ms), counted down to when the state was made.
    pub white_ms: i64,
    /// Black's time left (ms).
    pub black_ms: i64,
    /// The side whose time runs (`null` before the clocks start, and once the game is over).
    #[schema(value_type = Option<SideSchema>)]
    pub running: Option<Color>,
    /// When the side to move runs out of time or, for the first two moves, when the game is
    /// aborted if no move comes (ms since the epoch).
    pub deadline: Option<i64>,
    /// When the state was made (ms since the epoch), to count down from.
    pub now: i64,
}

/// The settings part of the state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SettingsView {
    /// `engine`, `friend` or `local`.
    pub mode: Mode,
    /// `largest` or `product`.
    pub scoring: String,
    /// The deal's seed in decimal, or `null`.
    pub seed: Option<String>,
    /// The engine's seat, in engine games.
    pub engine: Option<EngineSettings>,
    /// The game is part of a duplicate pair.
    pub duplicate: bool,
    /// Which game of the pair: `first` or `second`; `null` outside a pair.
    pub pair_half: Option<PairHalf>,
    /// The tournament the game belongs to (`/api/tournaments/{id}`), or `null`. A tournament
    /// game has no abort, rematch or take-back; a side that misses its first move calls it off,
    /// which the tournament counts as a missed game.
    #[serde(default)]
    pub tournament: Option<String>,
}

/// The combined result of a duplicate pair, in the state of its second game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PairView {
    /// The first game's id.
    pub first: String,
    /// The second game's id (this game).
    pub second: String,
    /// The result tokens of the first and the second game.
    pub results: [String; 2],
    /// Both games are over.
    pub complete: bool,
    /// Points over both games (win 1, draw ½) of each person, named by the colours they played;
    /// `null` until both games are over.
    pub points: Option<PairPoints>,
}

/// The points of the two people of a duplicate pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PairPoints {
    /// Who played White in the first game and Black in the second.
    pub white_then_black: f64,
    /// Who played Black in the first game and White in the second.
    pub black_then_white: f64,
}

/// A move played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveView {
    /// 1, 2, 3, …
    pub number: u32,
    /// `3.` or `3...`.
    pub record_number: String,
    /// Who made it.
    #[schema(value_type = SideSchema)]
    pub side: Color,
    /// `b1-b4` or `pass`.
    pub notation: String,
    /// The edge space left; `null` for a pass.
    #[schema(value_type = Option<String>)]
    pub from: Option<Square>,
    /// The field square reached; `null` for a pass.
    #[schema(value_type = Option<String>)]
    pub to: Option<Square>,
    /// `[from, to]` of every marble that moved, the pusher first.
    #[schema(value_type = Vec<[String; 2]>)]
    pub slides: Vec<[Square; 2]>,
    /// The position after the move.
    #[schema(value_type = String)]
    pub position: Position,
}

/// Hints asked for by each side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HintCounts {
    /// White's.
    pub white: u32,
    /// Black's.
    pub black: u32,
}

/// A legal move and its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LegalMoveView {
    /// `b1-b4` or `pass`.
    pub notation: String,
    /// The edge space left; `null` for a pass.
    #[schema(value_type = Option<String>)]
    pub from: Option<Square>,
    /// The field square reached; `null` for a pass.
    #[schema(value_type = Option<String>)]
    pub to: Option<Square>,
    /// `[from, to]` of every marble that would move, the pusher first.
    #[schema(value_type = Vec<[String; 2]>)]
    pub slides: Vec<[Square; 2]>,
    /// The position after the move.
    #[schema(value_type = String)]
    pub position: Position,
}

/// Scores of both sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ScoresView {
    /// White's score.
    pub white: u32,
    /// Black's score.
    pub black: u32,
}

/// Scores under both modes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AllScores {
    /// Largest group.
    pub largest: ScoresView,
    /// Product of the groups.
    pub product: ScoresView,
}

/// Groups of both colours.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GroupsView {
    /// White's groups, largest first.
    #[schema(value_type = Vec<Vec<String>>)]
    pub white: Vec<Vec<Square>>,
    /// Black's groups, largest first.
    #[schema(value_type = Vec<Vec<String>>)]
    pub black: Vec<Vec<Square>>,
}

/// One seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    /// `person` or `engine`.
    pub kind: SeatKind,
    /// A person holds the seat.
    pub claimed: bool,
    /// A WebSocket with this seat's token is open (always true for the engine).
    pub connected: bool,
}

/// Who sits in a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person with a token.
    Person,
    /// The engine.
    Engine,
}

/// Both seats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatsView {
    /// White's seat.
    pub white: SeatView,
    /// Black's seat.
    pub black: SeatView,
}

/// A game in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// `engine`, `friend` or `local`.
    pub mode: Mode,
    /// `largest` or `product`.
    pub scoring: String,
    /// The engine's level in engine games.
    pub engine_level: Option<u8>,
    /// `playing` or `finished`.
    pub status: String,
    /// Result token.
    pub result: String,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// Number of moves.
    pub move_count: u32,
    /// Side to move, `null` when finished.
    #[schema(value_type = Option<SideSchema>)]
    pub to_move: Option<Color>,
    /// Current position string.
    pub position: String,
    /// Creation time (ms).
    pub created_at: i64,
    /// Last change (ms).
    pub updated_at: i64,
    /// The players with accounts in each seat, with their ratings when the game began (`null`:
    /// a guest, or the engine).
    pub players: PlayersView,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The time control of a game on a clock (`3+2`, `2 days`), `null` without one.
    pub time_control: Option<String>,
}

/// The answer of `GET /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    /// The games, newest activity first.
    pub games: Vec<GameSummary>,
}

/// A seat grant: the answer that hands out a token (create, join, rematch, import).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeatGrant {
    /// The game.
    pub game_id: String,
    /// The secret seat token, shown only here.
    pub token: String,
    /// The seats it holds.
    #[schema(value_type = Vec<SideSchema>)]
    pub seats: Vec<Color>,
    /// The friend's join code (friend games, creator only).
    pub join_code: Option<String>,
    /// The link to send to the friend.
    pub join_path: Option<String>,
    /// The public link to watch the game.
    pub watch_path: String,
    /// The game state.
    pub state: GameState,
}

/// A seed: a decimal string, or a JSON number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum SeedInput {
    /// A JSON number.
    Number(u64),
    /// A decimal string.
    Text(String),
}

/// `random`, or a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn by lot.
    Random,
}

/// Request of `POST /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// `engine`, `friend` or `local`.
    pub mode: Mode,
    /// `largest` (default) or `product`.
    pub scoring: Option<String>,
    /// Who moves first (default white); not with `setup`.
    pub first: Option<ColorChoice>,
    /// The deal's seed; not with `setup`.
    pub seed: Option<SeedInput>,
    /// A starting position string instead of a deal.
    pub setup: Option<String>,
    /// The creator's colour (engine and friend games; default white).
    pub color: Option<ColorChoice>,
    /// The engine's level, 1 to 10 (default 3).
    pub engine_level: Option<u8>,
    /// The engine's thinking time per move, 10 to 10000 ms.
    pub engine_movetime_ms: Option<u32>,
    /// The first game of a duplicate pair: its rematch replays the same start with the colours
    /// swapped (default false).
    pub duplicate: Option<bool>,
}

impl CreateGame {
    /// A request with every optional field left out.
    pub fn new(mode: Mode) -> CreateGame {
        CreateGame {
            mode,
            scoring: None,
            first: None,
            seed: None,
            setup: None,
            color: None,
            engine_level: None,
            engine_movetime_ms: None,
            duplicate: None,
        }
    }
}

/// Request of `POST /api/games/{id}/moves`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move, `b1-b4` or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The number this move will get; refused with `stale_state` if the game moved on.
    pub number: Option<u32>,
}

/// Request of `POST /api/games/{id}/resign`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// The side that resigns (local games; default: the side to move).
    #[schema(value_type = Option<SideSchema>)]
    pub side: Option<Color>,
}

/// An empty request body (`{}` or nothing).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Request of `POST /api/games/{id}/join`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The join code.
    pub code: String,
}

/// Request of `POST /api/games/import`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The game record text.
    pub record: String,
}

/// The answer of `GET /healthz`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: String,
}
