//! Bots and programs (issue 38): personal API tokens (`/api/account/tokens`), bot accounts
//! (`/api/bot/account/upgrade`, `/api/bots`), and the bot API's two newline-delimited JSON
//! streams: an account's events (`GET /api/stream/event`) and one game's states
//! (`GET /api/bot/game/stream/{id}`). Each line of a stream is one message; an empty line is a
//! keep-alive.
//!
//! The shapes the issue fixes (`POST /api/account/tokens` `{"description", "scopes"}` answered by
//! `{"id", "token"}`) keep their names; the rest may grow.

use crate::clock::TimeControl;
use crate::game::{EndReason, SideSchema};
use crate::lobby::SeekView;
use mabula::Color;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a personal token may do.
pub const SCOPES: [&str; 3] = ["bot:play", "board:play", "challenge:write"];

/// A new personal token: `POST /api/account/tokens`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateToken {
    /// What it is for (1 to 60 characters), shown in the list.
    pub description: String,
    /// Some of `bot:play` (play as a bot account), `board:play` (play one's own games from a
    /// program), `challenge:write` (open seeks and challenges, accept and decline them).
    pub scopes: Vec<String>,
}

/// The answer to a new token: `201`. The secret is shown this once; only its hash is kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TokenCreated {
    /// The token's id (to revoke it).
    pub id: String,
    /// The secret, sent as `Authorization: Bearer TOKEN`.
    pub token: String,
}

/// A token in the list (never its secret).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TokenView {
    /// Its id.
    pub id: String,
    /// What it is for.
    pub description: String,
    /// Its scopes.
    pub scopes: Vec<String>,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it was last used (ms, to the minute), if ever.
    pub used_at: Option<i64>,
}

/// The account's tokens: `GET /api/account/tokens`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TokenList {
    /// Newest first.
    pub tokens: Vec<TokenView>,
}

/// A player in a bot's messages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BotPlayer {
    /// The account's name.
    pub name: String,
    /// Their rating for the game's scoring and speed.
    pub rating: Option<i32>,
    /// Whether the account is a bot.
    pub bot: bool,
}

/// A game as the event stream names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BotGameRef {
    /// The game's id.
    pub id: String,
    /// The colour the stream's account plays.
    #[schema(value_type = SideSchema)]
    pub color: Color,
    /// The opponent.
    pub opponent: BotPlayer,
    /// `largest` or `product`.
    pub scoring: String,
    /// Rated or casual.
    pub rated: bool,
    /// The time control.
    pub clock: Option<TimeControl>,
}

/// A line of the event stream `GET /api/stream/event`. When the stream opens, the account's open
/// challenges (to it) and unfinished games come first, so a program that reconnects misses
/// nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotEvent {
    /// A game of the account began (or, at the stream's start, goes on).
    GameStart {
        /// The game.
        game: BotGameRef,
    },
    /// A game of the account ended.
    GameFinish {
        /// The game.
        game: BotGameRef,
    },
    /// A challenge to the account (accept: `POST /api/seeks/{id}/accept`; decline:
    /// `DELETE /api/seeks/{id}`).
    Challenge {
        /// The challenge.
        challenge: SeekView,
    },
    /// A challenge to the account was withdrawn or expired.
    ChallengeCanceled {
        /// Its id.
        id: String,
    },
    /// A challenge the account made was declined.
    ChallengeDeclined {
        /// Its id.
        id: String,
        /// Who declined it.
        by: String,
    },
}

/// A game's state on its bot stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BotGameState {
    /// Every move so far, in notation (passes as `pass`).
    pub moves: Vec<String>,
    /// White's time left (ms), in timed games.
    pub white_ms: Option<i64>,
    /// Black's time left (ms), in timed games.
    pub black_ms: Option<i64>,
    /// `started` or `over`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why it ended, once it did.
    pub end_reason: Option<EndReason>,
    /// The side whose draw offer stands.
    #[schema(value_type = Option<SideSchema>)]
    pub draw_offer: Option<Color>,
    /// Changes with each change of the game.
    pub version: u64,
}

/// A line of a game's stream `GET /api/bot/game/stream/{id}`: the whole game first, then
/// every change of its state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotGameMessage {
    /// The whole game: always the first line.
    GameFull {
        /// The game's id.
        id: String,
        /// White.
        white: BotPlayer,
        /// Black.
        black: BotPlayer,
        /// `largest` or `product`.
        scoring: String,
        /// Rated or casual.
        rated: bool,
        /// The time control.
        clock: Option<TimeControl>,
        /// The start, as RULES.md writes positions.
        start: String,
        /// The state now.
        state: BotGameState,
    },
    /// The state after a change.
    GameState(BotGameState),
    /// A chat line in the game.
    ChatLine {
        /// `players` or `spectators`.
        room: String,
        /// Who wrote it.
        name: String,
        /// The text.
        text: String,
    },
}

/// A bot on the bots page: `GET /api/bots`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BotView {
    /// The account's name.
    pub name: String,
    /// Its real-time ratings: largest, product.
    pub ratings: Vec<crate::players::RatingView>,
    /// Whether it has been heard from in the last minute.
    pub online: bool,
    /// A house bot's engine level (1 to 10); `null` for bots run by their owners.
    pub level: Option<u8>,
}

/// The bots: `GET /api/bots`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BotList {
    /// Online first, then by rating.
    pub bots: Vec<BotView>,
}
