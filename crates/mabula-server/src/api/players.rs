//! Players' public pages: `/api/players/{name}` (the profile with its ratings and results),
//! its games (paged and filtered), its rating history, all its games as one record file; and
//! `/api/ratings/advantage`, the second player's advantage measured on the rated games.

use super::AppState;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::QueryParams;
use crate::model::rating::{SECOND_PLAYER_ADVANTAGE, estimate_advantage};
use crate::services::players::Account;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use mabula::Scoring;
use serde::Deserialize;
use utoipa::IntoParams;

/// The routes of players.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/players/{name}", get(profile))
        .route("/api/players/{name}/games", get(games))
        .route("/api/players/{name}/ratings", get(history))
        .route("/api/players/{name}/records", get(records))
        .route("/api/ratings/advantage", get(advantage))
}

pub use mabula_api::players::{
    Advantage, AdvantageView, PlayerGame, PlayerGames, Profile, RatingHistory, RatingPoint,
    RatingView, Record3, ResultsView,
};

/// Query of a player's games.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    /// Page, from 1 (20 games a page).
    pub page: Option<u32>,
    /// `win`, `draw` or `loss`.
    pub result: Option<String>,
    /// `largest` or `product`.
    pub scoring: Option<String>,
}

/// A player's profile.
#[utoipa::path(get, path = "/api/players/{name}", tag = "players",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 200, description = "The profile", body = Profile),
        (status = 400, description = "The name is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn profile(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let a = app.players.account(&name).await?;
    Ok(Json(profile_of(&app, a).await?))
}

/// The profile of account `a`: its ratings and results.
pub(crate) async fn profile_of(app: &AppState, a: Account) -> Result<Profile, ApiError> {
    let ratings = app.players.ratings(&a.key).await?;
    let results = app.players.tally(&a.key).await?;
    let bot = app.tokens.is_bot(&a.key).await?;
    Ok(Profile {
        bot,
        name: a.name,
        created_at: a.created_at,
        ratings,
        results,
    })
}

/// A page of a player's games, newest first.
#[utoipa::path(get, path = "/api/players/{name}/games", tag = "players",
    params(("name" = String, Path, description = "The player's name"), GamesQuery),
    responses(
        (status = 200, description = "The games", body = PlayerGames),
        (status = 400, description = "A malformed query (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn games(
    State(app): State<AppState>,
    Path(name): Path<String>,
    QueryParams(q): QueryParams<GamesQuery>,
) -> Result<Json<PlayerGames>, ApiError> {
    let bad = |m: String| ApiError::new(ErrorCode::BadRequest, m);
    let page = q.page.unwrap_or(1);
    if !(1..=10_000).contains(&page) {
        return Err(bad("page is 1 to 10000".into()));
    }
    if let Some(r) = &q.result
        && !["win", "draw", "loss"].contains(&r.as_str())
    {
        return Err(bad(format!("result '{r}' is not one of win, draw, loss")));
    }
    let scoring = q
        .scoring
        .as_deref()
        .map(|s| s.parse::<Scoring>().map_err(|e| bad(e.to_string())))
        .transpose()?;
    let a = app.players.account(&name).await?;
    const PAGE: u32 = 20;
    let mut games = app
        .players
        .games(&a, q.result, scoring, (page - 1) * PAGE, PAGE + 1)
        .await?;
    let more = games.len() > PAGE as usize;
    games.truncate(PAGE as usize);
    Ok(Json(PlayerGames { games, page, more }))
}

/// The rating history of account `key`.
pub(crate) async fn history_of(app: &AppState, key: &str) -> Result<Vec<RatingPoint>, ApiError> {
    app.players.history(key).await
}

/// A player's rating history.
#[utoipa::path(get, path = "/api/players/{name}/ratings", tag = "players",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 200, description = "The history", body = RatingHistory),
        (status = 400, description = "The name is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn history(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<RatingHistory>, ApiError> {
    let a = app.players.account(&name).await?;
    let points = history_of(&app, &a.key).await?;
    Ok(Json(RatingHistory { points }))
}

/// All of a player's finished games (the latest 200) as one record file.
#[utoipa::path(get, path = "/api/players/{name}/records", tag = "players",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 200, description = "The records, one after another", content_type = "text/plain", body = String),
        (status = 400, description = "The name is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn records(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let a = app.players.account(&name).await?;
    let text = app.players.records(&a.key).await?;
    let file = format!("attachment; filename=\"mabula-{}.txt\"", a.key);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, file),
        ],
        text,
    )
        .into_response())
}

/// The second player's advantage: the one the ratings use, and what the rated games say.
#[utoipa::path(get, path = "/api/ratings/advantage", tag = "players",
    responses(
        (status = 200, description = "The advantage", body = Advantage),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn advantage(State(app): State<AppState>) -> Result<Json<Advantage>, ApiError> {
    let mut measured = Vec::new();
    for scoring in [Scoring::Largest, Scoring::Product] {
        let games = app.players.first_player_results(scoring).await?;
        let worth: f64 = games.iter().map(|g| g.2).sum();
        measured.push(AdvantageView {
            scoring: scoring.name().to_string(),
            games: worth as u32,
            first_score: (worth > 0.0)
                .then(|| games.iter().map(|g| g.1 * g.2).sum::<f64>() / worth),
            estimate: estimate_advantage(&games),
        });
    }
    Ok(Json(Advantage {
        used: app.players.advantages().await,
        default: SECOND_PLAYER_ADVANTAGE,
        measured_after: crate::services::ratings::MEASURED_AFTER,
        measured,
    }))
}
