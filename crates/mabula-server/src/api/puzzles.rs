//! Puzzles (issue 39): `/api/puzzles/…` and a player's puzzle history (see
//! [`crate::services::puzzles`]).

use super::AppState;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ClientAddr, JsonBody, MaybeSession, QueryParams};
use crate::services::puzzles::Choice;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use utoipa::IntoParams;

pub use mabula_api::puzzles::{
    AttemptAnswer, AttemptRequest, PuzzleAttemptView, PuzzleHint, PuzzleHistory, PuzzleView,
    ThemeCount, ThemeList,
};

/// The routes of puzzles.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/daily", get(daily))
        .route("/api/puzzles/themes", get(themes))
        .route("/api/puzzles/{id}", get(show))
        .route("/api/puzzles/{id}/attempt", post(attempt))
        .route("/api/puzzles/{id}/hint", post(hint))
        .route("/api/players/{name}/puzzles", get(history))
}

/// What the next puzzle should be.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// A theme's name (`/api/puzzles/themes`); any theme when absent or empty.
    pub theme: Option<String>,
    /// `largest` or `product`; either when absent or empty.
    pub scoring: Option<String>,
    /// Puzzles solved so far in a streak: the next one is chosen near 1100 + 50 × `streak`
    /// instead of near the player's rating.
    pub streak: Option<u32>,
}

/// A puzzle for the caller: near their puzzle rating (1500 for guests), one they have not
/// attempted, of the theme and scoring mode asked for.
#[utoipa::path(get, operation_id = "puzzle_next", path = "/api/puzzles/next", tag = "puzzles", params(NextQuery),
    responses(
        (status = 200, description = "A puzzle", body = PuzzleView),
        (status = 400, description = "An unknown theme or scoring mode, or a malformed query (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No puzzle is left with these choices (`puzzle_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn next(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    QueryParams(q): QueryParams<NextQuery>,
) -> Result<Json<PuzzleView>, ApiError> {
    let choice = Choice {
        theme: q.theme,
        scoring: q.scoring,
        streak: q.streak,
    };
    Ok(Json(app.puzzles.next(session.as_ref(), &choice).await?))
}

/// The puzzle of the day: the same for everyone during a UTC day.
#[utoipa::path(get, operation_id = "puzzle_daily", path = "/api/puzzles/daily", tag = "puzzles",
    responses(
        (status = 200, description = "Today's puzzle, with its `day`", body = PuzzleView),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn daily(State(app): State<AppState>) -> Result<Json<PuzzleView>, ApiError> {
    Ok(Json(app.puzzles.daily().await?))
}

/// The themes, and how many puzzles teach each.
#[utoipa::path(get, operation_id = "puzzle_themes", path = "/api/puzzles/themes", tag = "puzzles",
    responses(
        (status = 200, description = "The themes", body = ThemeList),
        (status = 429, response = super::answers::Throttled),
    ))]
pub async fn themes(State(app): State<AppState>) -> Json<ThemeList> {
    Json(app.puzzles.themes())
}

/// A puzzle, without its solution.
#[utoipa::path(get, operation_id = "puzzle_show", path = "/api/puzzles/{id}", tag = "puzzles",
    params(("id" = String, Path, description = "Puzzle id")),
    responses(
        (status = 200, description = "The puzzle", body = PuzzleView),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such puzzle (`puzzle_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn show(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    Ok(Json(app.puzzles.show(&id).await?))
}

/// An attempt: the player's moves. While they are right and more are to be found, the answer
/// gives the opponent's reply and records nothing; once a move is wrong or all are found, it
/// gives the solution, and an account's first complete attempt moves its puzzle rating and
/// the puzzle's (once, on every instance). Guests play unrated.
#[utoipa::path(post, operation_id = "puzzle_attempt", path = "/api/puzzles/{id}/attempt", tag = "puzzles",
    params(("id" = String, Path, description = "Puzzle id")),
    request_body = AttemptRequest,
    responses(
        (status = 200, description = "The judgement", body = AttemptAnswer),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 403, description = "No CSRF token with a session (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such puzzle (`puzzle_not_found`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "No moves, more than the puzzle's, a text that is not a move, or an illegal move (`invalid_attempt`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn attempt(
    State(app): State<AppState>,
    Path(id): Path<String>,
    client: ClientAddr,
    MaybeSession(session): MaybeSession,
    JsonBody(req): JsonBody<AttemptRequest>,
) -> Result<Json<AttemptAnswer>, ApiError> {
    let client = super::limits::client_key(client);
    Ok(Json(
        app.puzzles
            .attempt(session.as_ref(), &client, &id, &req.moves, req.streak)
            .await?,
    ))
}

/// A hint: the marble the next move pushes, after the player's right moves so far. An
/// account's attempt at a puzzle it asked a hint for is not rated.
#[utoipa::path(post, operation_id = "puzzle_hint", path = "/api/puzzles/{id}/hint", tag = "puzzles",
    params(("id" = String, Path, description = "Puzzle id")),
    request_body = AttemptRequest,
    responses(
        (status = 200, description = "The marble to push", body = PuzzleHint),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 403, description = "No CSRF token with a session (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such puzzle (`puzzle_not_found`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "A wrong or illegal move so far, or the puzzle solved already (`invalid_attempt`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn hint(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeSession(session): MaybeSession,
    JsonBody(req): JsonBody<AttemptRequest>,
) -> Result<Json<PuzzleHint>, ApiError> {
    Ok(Json(
        app.puzzles.hint(session.as_ref(), &id, &req.moves).await?,
    ))
}

/// A player's puzzle rating and latest attempts.
#[utoipa::path(get, operation_id = "puzzle_history", path = "/api/players/{name}/puzzles", tag = "puzzles",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 200, description = "The rating and history", body = PuzzleHistory),
        (status = 400, description = "The name is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn history(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PuzzleHistory>, ApiError> {
    Ok(Json(app.puzzles.history(&name).await?))
}
