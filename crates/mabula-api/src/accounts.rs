//! Accounts and sessions: `/api/accounts`, `/api/session`, `/api/account/…`.

use crate::clock::Speed;
use mabula::Color;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A name and a password.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3 to 20 letters, digits, `_` or `-`, starting with a letter; unique ignoring case.
    pub name: String,
    /// 8 to 128 characters.
    pub password: String,
}

/// Who is logged in, and the token their writes must send in `X-CSRF-Token`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SessionView {
    /// The account's name.
    pub name: String,
    /// The CSRF token of the session.
    pub csrf: String,
}

/// Guest games to take into the account: each game id with the seat token this browser holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The games (at most 500).
    pub games: Vec<ClaimGame>,
}

/// One guest game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimGame {
    /// The game id.
    pub id: String,
    /// The seat token held for it.
    pub token: String,
}

/// The games taken into the account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ClaimAnswer {
    /// Their ids.
    pub claimed: Vec<String>,
}

/// The games where it is the player's turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TurnList {
    /// Their ids, the most urgent first.
    pub games: Vec<String>,
}

/// The games the account is playing (`GET /api/account/playing`): those where it is their move
/// first, the soonest deadline first; then the latest moved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayingList {
    /// At most 200.
    pub games: Vec<PlayingGame>,
}

/// One game the account is playing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayingGame {
    /// The game id: play it at `/game/{id}`, on any device where the account is logged in.
    pub id: String,
    /// The account's side.
    #[schema(value_type = crate::game::SideSchema)]
    pub color: Color,
    /// Who it plays against.
    pub opponent: PlayingOpponent,
    /// Whether the account is to move.
    pub your_turn: bool,
    /// The game's clock, if it has one.
    pub clock: Option<PlayingClock>,
    /// The tournament the game belongs to.
    pub tournament: Option<String>,
    /// The position now, as RULES.md writes it.
    pub position: String,
    /// `largest` or `product`.
    pub scoring: String,
    /// Whether the game is rated.
    pub rated: bool,
    /// Moves played so far.
    pub move_count: u32,
}

/// The opponent of a game being played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayingOpponent {
    /// Their name (`None`: a guest, or the engine).
    pub name: Option<String>,
    /// Their rating when the game began (rated accounts).
    pub rating: Option<i64>,
    /// Whether that rating was still provisional (written `1500?`).
    pub provisional: bool,
    /// The engine's level, when the opponent is the engine.
    pub engine_level: Option<i64>,
}

/// The clock of a game being played, as the account sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayingClock {
    /// The time control (`3+2`, `2 days`).
    pub label: String,
    /// Real time or correspondence.
    pub speed: Speed,
    /// The account's time left now (ms): on its move, until its deadline (the first move's own
    /// limit included); else what it will have when its move comes.
    pub left_ms: i64,
}

/// A change of password: the current one, and the new one (held to the sign-up rules).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The account's password now.
    pub current: String,
    /// The new password: 8 to 128 characters, not containing the name, not a common one.
    pub new: String,
}

/// The password that confirms the account's deletion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AccountDeletion {
    /// The account's password.
    pub password: String,
}

/// One session of the account (a browser or program logged in).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SessionInfo {
    /// The session's id, to end it with `DELETE /api/account/sessions/{id}` (not its secret).
    pub id: String,
    /// When it began (ms since the epoch).
    pub created_at: i64,
    /// When it was last used, to the minute (ms since the epoch).
    pub last_used_at: i64,
    /// The device, as its User-Agent reads: `Firefox on Linux`, `Safari on iPhone`, ...
    pub device: String,
    /// Whether it is the session of this request.
    pub current: bool,
}

/// The sessions of the account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SessionList {
    /// The sessions, the latest used first.
    pub sessions: Vec<SessionInfo>,
}

/// How many sessions a request ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SessionsEnded {
    /// The number of sessions ended.
    pub ended: u64,
}

/// Everything the site keeps of a player, as one JSON download (`GET /api/account/export`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AccountExport {
    /// When it was made (ms since the epoch).
    pub exported_at: i64,
    /// The profile: name, when the account was made, ratings and results.
    pub profile: crate::players::Profile,
    /// Every point of the rating history.
    pub rating_history: Vec<crate::players::RatingPoint>,
    /// The account's games, the newest first, each with its moves and record.
    pub games: Vec<ExportGame>,
    /// Whether there were more games than one export holds (the oldest were left out).
    pub games_truncated: bool,
    /// The account's sessions.
    pub sessions: Vec<SessionInfo>,
    /// The names of the players the account follows.
    pub following: Vec<String>,
    /// Every chat line the account wrote, oldest first.
    pub chat_lines: Vec<crate::social::AccountChatLine>,
    /// The puzzle rating and every puzzle attempt, the newest first.
    pub puzzles: crate::puzzles::PuzzleHistory,
}

/// One game of an export.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportGame {
    /// The game as the player's history lists it.
    #[serde(flatten)]
    pub game: crate::players::PlayerGame,
    /// The moves, in order, in the rules' notation.
    pub moves: Vec<String>,
    /// The game's record (the same text as `GET /api/games/{id}/record`).
    pub record: String,
}
