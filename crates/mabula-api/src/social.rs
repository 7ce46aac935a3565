//! Chat, blocks, reports and moderation: `/api/games/{id}/chat`, `/api/players/{name}/block`,
//! `/api/account/blocks`, `/api/reports`, `/api/moderation/…` (`docs/api.md`, section 9).

use mabula::Color;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The most characters (Unicode scalar values) of a chat line, after trimming.
pub const CHAT_MAX_CHARS: usize = 140;
/// The most characters of a report's text.
pub const REPORT_MAX_CHARS: usize = 1000;

/// A game's two chat rooms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChatRoom {
    /// The players' room: only the game's seats write and read it.
    Players,
    /// The spectators' room: logged-in spectators write it, everyone reads it.
    Spectators,
}

impl ChatRoom {
    /// The room's name as stored and written.
    pub const fn name(self) -> &'static str {
        match self {
            ChatRoom::Players => "players",
            ChatRoom::Spectators => "spectators",
        }
    }

    /// The room named `name`.
    pub fn from_name(name: &str) -> Option<ChatRoom> {
        match name {
            "players" => Some(ChatRoom::Players),
            "spectators" => Some(ChatRoom::Spectators),
            _ => None,
        }
    }
}

/// A line to say in a game's chat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// The line: plain text, at most 140 characters once trimmed, no control characters.
    pub text: String,
    /// The room; by default the players' room for a seat holder, the spectators' room for
    /// anyone else.
    #[serde(default)]
    pub room: Option<ChatRoom>,
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ChatLine {
    /// The line's id (to report it).
    pub id: i64,
    /// Its room.
    pub room: ChatRoom,
    /// The writer's name (an account's name, or `White`/`Black` for a guest seat).
    pub name: String,
    /// The writer's seat, when a player wrote it.
    #[schema(value_type = Option<crate::game::SideSchema>)]
    pub side: Option<Color>,
    /// The text, to be shown as plain text.
    pub text: String,
    /// When it was said (ms since the epoch).
    pub at: i64,
}

/// A chat line in an account's data export: the line and its game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AccountChatLine {
    /// The game it was said in.
    pub game: String,
    /// The line.
    #[serde(flatten)]
    pub line: ChatLine,
}

/// A game's chat as the caller may read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ChatLog {
    /// The lines of the rooms the caller reads, oldest first (the last 200 of each room).
    pub lines: Vec<ChatLine>,
    /// The rooms the caller may read.
    pub rooms: Vec<ChatRoom>,
    /// The rooms the caller may write now.
    pub writable: Vec<ChatRoom>,
}

/// The players an account blocks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BlockList {
    /// Their names, in the order they were blocked.
    pub players: Vec<String>,
}

/// Why a player is reported.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    /// Plays with help.
    Cheating,
    /// Insults or harasses.
    Abuse,
    /// Floods chat or challenges.
    Spam,
    /// Anything else (say what in the text).
    Other,
}

impl ReportReason {
    /// The reason's name as stored.
    pub const fn name(self) -> &'static str {
        match self {
            ReportReason::Cheating => "cheating",
            ReportReason::Abuse => "abuse",
            ReportReason::Spam => "spam",
            ReportReason::Other => "other",
        }
    }

    /// The reason named `name`.
    pub fn from_name(name: &str) -> Option<ReportReason> {
        match name {
            "cheating" => Some(ReportReason::Cheating),
            "abuse" => Some(ReportReason::Abuse),
            "spam" => Some(ReportReason::Spam),
            "other" => Some(ReportReason::Other),
            _ => None,
        }
    }
}

/// A report of a player to the moderators.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// The reported player's name.
    pub player: String,
    /// Why.
    pub reason: ReportReason,
    /// What happened, at most 1000 characters (may be empty).
    #[serde(default)]
    pub text: String,
    /// The game it happened in, if any.
    #[serde(default)]
    pub game: Option<String>,
    /// The chat line reported (its id), if any; its game is then the report's game.
    #[serde(default)]
    pub chat_line: Option<i64>,
}

/// A report made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReportCreated {
    /// The report's id.
    pub id: i64,
}

/// An open report, as moderators see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReportView {
    /// The report's id.
    pub id: i64,
    /// Who reported (name).
    pub reporter: String,
    /// Who is reported (name).
    pub player: String,
    /// Why.
    pub reason: ReportReason,
    /// What the reporter wrote.
    pub text: String,
    /// The game named, if any.
    pub game: Option<String>,
    /// The chat line named, if any.
    pub chat_line: Option<i64>,
    /// When (ms since the epoch).
    pub created_at: i64,
    /// The reported player's chat lines in the game named (both rooms, the last 50), or the
    /// line named and those just before it.
    pub context: Vec<ChatLine>,
    /// Until when the reported player is muted (ms), if they are.
    pub muted_until: Option<i64>,
    /// Whether the reported player's account is closed.
    pub closed: bool,
}

/// The open reports, oldest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReportQueue {
    /// The reports (at most 200).
    pub reports: Vec<ReportView>,
}

/// A rated game the rating job could not rate, and is still not rated: skipped (the other
/// games are rated), tried again later, and listed to moderators with why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UnratedGame {
    /// The game.
    pub game: String,
    /// Why it could not be rated, the last time.
    pub reason: String,
    /// The attempts so far.
    pub attempts: i64,
    /// The first failure (ms since the epoch).
    pub first_at: i64,
    /// The last failure (ms since the epoch).
    pub last_at: i64,
}

/// The rated games that could not be rated, the oldest failure first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UnratedGames {
    /// The games (at most 200).
    pub games: Vec<UnratedGame>,
}

/// An account whose accuracy over its recent rated games is far above that of the players of
/// its rating (issue 51; the rule is in `docs/api.md`, section 9).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AccuracyFlag {
    /// The account's name.
    pub player: String,
    /// The mean of the ratings its recent games showed for it.
    pub rating: i64,
    /// Its mean accuracy over those games, in percent.
    pub accuracy: f64,
    /// The mean accuracy of the other players' games in its rating band, in percent.
    pub band_accuracy: f64,
    /// How many games of other players that band mean is over.
    pub band_games: u32,
    /// Its recent games the mean is over, the latest first.
    pub games: Vec<String>,
}

/// The accounts flagged for their accuracy, the largest gap first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AccuracyFlags {
    /// The flagged accounts.
    pub flags: Vec<AccuracyFlag>,
}

/// How a moderator resolves a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    /// A note on what was done (at most 1000 characters).
    #[serde(default)]
    pub note: String,
}

/// How long a moderator mutes an account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MuteRequest {
    /// Minutes (1 to 525600); none: until unmuted.
    #[serde(default)]
    pub minutes: Option<u32>,
}

/// What the moderation flags of the caller's account are (for the UI).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModerationStatus {
    /// Whether the account is a moderator.
    pub moderator: bool,
    /// Until when it is muted (ms), if it is.
    pub muted_until: Option<i64>,
}
