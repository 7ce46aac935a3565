//! Following players and who is online: `/api/players/{name}/follow`, `/api/account/following`,
//! `/api/online`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A game being played by a followed player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LiveGame {
    /// The game id: watch it at `/game/{id}`.
    pub id: String,
    /// White's name (`None`: a guest or the engine).
    pub white: Option<String>,
    /// Black's name (`None`: a guest or the engine).
    pub black: Option<String>,
    /// The time control's label (`3+2`, `2 days`), if it has one.
    pub label: Option<String>,
    /// Moves played so far.
    pub move_count: u32,
}

/// A player the account follows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Followed {
    /// Their name.
    pub name: String,
    /// Whether they showed a sign of life in the last few minutes (see `/api/online`).
    pub online: bool,
    /// Their games being played now, the latest moved first.
    pub playing: Vec<LiveGame>,
}

/// The players the account follows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FollowingList {
    /// The players, those playing first, then those online, then by name.
    pub players: Vec<Followed>,
}

/// How many players are online: accounts that made a request or held a lobby socket in the
/// last few minutes, on any instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OnlineCount {
    /// The number of accounts online.
    pub count: u64,
    /// The window counted, in seconds.
    pub window_s: u64,
}
