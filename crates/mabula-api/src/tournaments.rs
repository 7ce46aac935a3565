//! Tournaments (`/api/tournaments…`, issue 37): Swiss tournaments of duplicate matches or single
//! games, and arenas; what their live channel, `/api/tournaments/{id}/ws`, sends.
//!
//! The shapes the issue fixes for programs (`id`, `status`, `standings[].{name, points,
//! tiebreaks}`, `rounds[].{number, pairings[].{white, black, games[].{id, white, black,
//! result}}}`) keep their names; the rest may grow.

use crate::lobby::ClockRequest;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A new tournament: `POST /api/tournaments`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// 3 to 40 characters.
    pub name: String,
    /// `swiss` or `arena`.
    pub format: String,
    /// The games' scoring: `largest` or `product`.
    pub scoring: String,
    /// The games' clock (real time only).
    pub clock: ClockRequest,
    /// A Swiss tournament's rounds (1 to 15).
    pub rounds: Option<u32>,
    /// An arena's length in minutes (10 to 720).
    pub minutes: Option<u32>,
    /// Duplicate: each pairing plays two games on one deal, colours swapped (default `true` in
    /// a Swiss tournament, `false` in an arena).
    pub duplicate: Option<bool>,
    /// In a duplicate Swiss tournament: the two games one after the other (`true`) or at the
    /// same time (`false`, the default).
    pub sequential: Option<bool>,
    /// Whether the games are rated.
    #[serde(default)]
    pub rated: bool,
    /// When it starts (ms since the epoch), at least a minute and at most 30 days ahead.
    pub starts_at: i64,
    /// The least rating a player must have to join.
    pub min_rating: Option<i32>,
    /// A password players must give to join.
    pub password: Option<String>,
}

/// The answer to a creation: `201`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TournamentCreated {
    /// The new tournament's id.
    pub id: String,
}

/// A request to join: `POST /api/tournaments/{id}/join`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinTournament {
    /// The tournament's password, if it has one.
    pub password: Option<String>,
}

/// A tournament's settings, as every view of it shows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TournamentSettings {
    /// `swiss` or `arena`.
    pub format: String,
    /// `largest` or `product`.
    pub scoring: String,
    /// The games' clock.
    pub clock: ClockRequest,
    /// `3+2`.
    pub label: String,
    /// A Swiss tournament's rounds.
    pub rounds: Option<u32>,
    /// An arena's minutes.
    pub minutes: Option<u32>,
    /// Each pairing is a duplicate match.
    pub duplicate: bool,
    /// A duplicate match's games are played one after the other.
    pub sequential: bool,
    /// Rated games.
    pub rated: bool,
    /// The least rating to join.
    pub min_rating: Option<i32>,
    /// Joining needs a password.
    pub password: bool,
}

/// A tournament in the list: `GET /api/tournaments`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TournamentSummary {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `created`, `running` or `finished`.
    pub status: String,
    /// Its settings.
    pub settings: TournamentSettings,
    /// When it starts or started (ms).
    pub starts_at: i64,
    /// When it ends (an arena) or ended (ms).
    pub ends_at: Option<i64>,
    /// Players who take or took part: joined and did not withdraw, or were paired.
    pub players: u32,
    /// Who created it (`null`: the site's schedule).
    pub created_by: Option<String>,
    /// The winner's name, once finished.
    pub winner: Option<String>,
}

/// The tournaments: upcoming, running and recently finished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TournamentList {
    /// Created, soonest first.
    pub upcoming: Vec<TournamentSummary>,
    /// Running.
    pub running: Vec<TournamentSummary>,
    /// Finished, latest first.
    pub finished: Vec<TournamentSummary>,
}

/// A tournament, whole: `GET /api/tournaments/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `created`, `running` or `finished`.
    pub status: String,
    /// Its settings.
    pub settings: TournamentSettings,
    /// When it starts or started (ms).
    pub starts_at: i64,
    /// When it ends (an arena) or ended (ms).
    pub ends_at: Option<i64>,
    /// Who created it (`null`: the site's schedule).
    pub created_by: Option<String>,
    /// The round being played (Swiss; 0 before the first).
    pub round: u32,
    /// Every player, best first (withdrawn players included, marked).
    pub standings: Vec<StandingView>,
    /// The rounds so far (an arena: one per wave of pairings).
    pub rounds: Vec<RoundView>,
    /// Changes with every change of the tournament; the live channel sends it again then.
    pub version: u64,
}

/// A player's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StandingView {
    /// 1 for the leader; tied players share a rank.
    pub rank: u32,
    /// The player's name.
    pub name: String,
    /// Their rating when they joined.
    pub rating: i32,
    /// Points: matches or games (1, ½, 0) in a Swiss tournament; 2, 1, 0 with streaks doubled
    /// in an arena.
    pub points: f64,
    /// Swiss: `[Buchholz, Sonneborn-Berger]`; arena: `[performance]`.
    pub tiebreaks: Vec<f64>,
    /// Games (or matches) played.
    pub played: u32,
    /// In an arena: on a streak (the next win counts double).
    pub streak: bool,
    /// Withdrawn (by themselves, or after two missed games).
    pub withdrawn: bool,
    /// In an arena: paused (by themselves, or after a missed first move) until they join again.
    #[serde(default)]
    pub paused: bool,
}

/// A round and its pairings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RoundView {
    /// From 1.
    pub number: u32,
    /// Its pairings, by board.
    pub pairings: Vec<PairingView>,
}

/// Two players paired (a duplicate match or a single game), or a bye.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PairingView {
    /// White of the first game.
    pub white: String,
    /// Black of the first game; `null` for a bye (`white` has it).
    pub black: Option<String>,
    /// Its games (none for a bye; the second game of a sequential match once it begins).
    pub games: Vec<TournamentGameView>,
    /// White's and Black's points from this pairing, once it is decided.
    pub points: Option<[f64; 2]>,
}

/// One game of a pairing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TournamentGameView {
    /// The game's id (`/game/{id}`).
    pub id: String,
    /// Its White.
    pub white: String,
    /// Its Black.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `*` while it is played, or `aborted` once called off (a first
    /// move missed).
    pub result: String,
}

/// What the live channel `/api/tournaments/{id}/ws` sends: the whole tournament once, then
/// again at each change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TournamentMessage {
    /// The tournament as it now is.
    State {
        /// The tournament.
        tournament: Box<TournamentView>,
    },
    /// To one player's socket (the session's account): your next game began.
    Game {
        /// The game's id.
        id: String,
    },
}

/// A player's tournament on their profile: `GET /api/players/{name}/tournaments`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayerTournament {
    /// The tournament's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `swiss` or `arena`.
    pub format: String,
    /// When it started (ms).
    pub starts_at: i64,
    /// The player's final rank (tied players share one), once finished.
    pub rank: Option<u32>,
    /// Players who took part.
    pub players: u32,
    /// The player's points.
    pub points: f64,
}
