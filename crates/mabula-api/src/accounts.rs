//! Accounts and sessions: `/api/accounts`, `/api/session`, `/api/account/…`.

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
