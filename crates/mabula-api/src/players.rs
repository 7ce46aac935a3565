//! Players' public pages (`/api/players/{name}…`) and the second player's advantage
//! (`/api/ratings/advantage`).

use crate::clock::{Speed, TimeControl};
use crate::game::SideSchema;
use mabula::Color;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A rating on a profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RatingView {
    /// `largest` or `product`.
    pub scoring: String,
    /// `realtime` or `correspondence`.
    pub speed: Speed,
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
    /// Whether it is still provisional (deviation above 110).
    pub provisional: bool,
    /// Rated games played.
    pub games: u32,
}

/// Wins, draws and losses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Record3 {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

/// Results by the order of play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ResultsView {
    /// In games the player started.
    pub first: Record3,
    /// In games the player answered.
    pub second: Record3,
}

/// A player's public profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Profile {
    /// Whether the account is a bot (issue 38).
    #[serde(default)]
    pub bot: bool,
    /// The name.
    pub name: String,
    /// When the account was made (ms).
    pub created_at: i64,
    /// Ratings per scoring mode and speed (only those with rated games).
    pub ratings: Vec<RatingView>,
    /// Finished games by the order of play (aborted games left out).
    pub results: ResultsView,
}

/// A game in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayerGame {
    /// The game id.
    pub id: String,
    /// `largest` or `product`.
    pub scoring: String,
    /// White's name (`null`: a guest or the engine).
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The player's side.
    #[schema(value_type = Option<SideSchema>)]
    pub side: Option<Color>,
    /// The result token.
    pub result: String,
    /// `win`, `draw`, `loss` from the player's side; `null` while playing or aborted.
    pub outcome: Option<String>,
    /// Why it ended.
    pub end_reason: Option<String>,
    /// Whether it was rated.
    pub rated: bool,
    /// The time control.
    pub control: Option<TimeControl>,
    /// Moves played.
    pub move_count: u32,
    /// Still being played.
    pub playing: bool,
    /// When it began (ms).
    pub created_at: i64,
    /// White's rating when it began (`null`: a guest, the engine, or not recorded).
    #[serde(default)]
    pub white_rating: Option<i32>,
    /// Black's rating when it began.
    #[serde(default)]
    pub black_rating: Option<i32>,
    /// How the game moved the player's rating, once it is rated.
    #[serde(default)]
    pub rating_diff: Option<i32>,
    /// White's and Black's scores on the board in the game's scoring mode: the final ones once
    /// it is over.
    #[serde(default)]
    pub scores: [u32; 2],
}

/// A page of a player's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayerGames {
    /// The games, newest first.
    pub games: Vec<PlayerGame>,
    /// This page's number.
    pub page: u32,
    /// Whether there is a next page.
    pub more: bool,
}

/// One point of a rating history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    /// `largest` or `product`.
    pub scoring: String,
    /// `realtime` or `correspondence`.
    pub speed: Speed,
    /// When (ms).
    pub at: i64,
    /// The rating after the game.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// A player's rating history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RatingHistory {
    /// Every rated game's result, oldest first.
    pub points: Vec<RatingPoint>,
}

/// The second player's advantage as the rated games of one scoring mode show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AdvantageView {
    /// `largest` or `product`.
    pub scoring: String,
    /// Rated games counted: those that ended for real (by the board, or after 20 moves), each
    /// pair of accounts weighing 10 games at most (the weights' sum, rounded down).
    pub games: u32,
    /// The first players' average score (weighted as `games`).
    pub first_score: Option<f64>,
    /// The advantage in rating points that explains the scores best (`null` with too few or
    /// one-sided games).
    pub estimate: Option<f64>,
}

/// The second player's advantage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Advantage {
    /// The advantage the ratings use now, in rating points: largest, product.
    pub used: [f64; 2],
    /// The advantage used for a scoring mode until it has `measured_after` rated games.
    pub default: f64,
    /// Rated games of a scoring mode after which its measured advantage is used.
    pub measured_after: usize,
    /// What the rated games say, per scoring mode.
    pub measured: Vec<AdvantageView>,
}
