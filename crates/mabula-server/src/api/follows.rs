//! Following players and who is online: `/api/players/{name}/follow`, `/api/account/following`
//! and `/api/online` (see [`crate::services::follows`]).

use super::AppState;
use crate::auth::Session;
use crate::error::{ApiError, ErrorBody};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

pub use mabula_api::follows::{Followed, FollowingList, LiveGame, OnlineCount};

/// The routes of follows and of who is online.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/players/{name}/follow", post(follow).delete(unfollow))
        .route("/api/account/following", get(following))
        .route("/api/online", get(online))
}

/// Follow a player.
#[utoipa::path(post, path = "/api/players/{name}/follow", tag = "players",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 204, description = "You follow the player"),
        (status = 400, description = "You named yourself, or the name is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 422, description = "You follow 500 players already (`invalid_settings`), or the name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn follow(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.follows.follow(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Stop following a player (whether you followed them or not).
#[utoipa::path(delete, path = "/api/players/{name}/follow", tag = "players",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 204, description = "You do not follow the player"),
        (status = 400, description = "The name is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "The name holds a NUL, which no name has (`not_found`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn unfollow(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.follows.unfollow(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The players you follow: whether each is online, and their games being played now.
#[utoipa::path(get, path = "/api/account/following", tag = "players",
    responses(
        (status = 200, description = "The players followed, those playing first", body = FollowingList),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn following(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<FollowingList>, ApiError> {
    Ok(Json(app.follows.following(&session).await?))
}

/// How many players are online: accounts with a request or an open lobby socket in the last
/// three minutes, on any instance.
#[utoipa::path(get, path = "/api/online", tag = "players",
    responses(
        (status = 200, description = "The count", body = OnlineCount),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn online(State(app): State<AppState>) -> Result<Json<OnlineCount>, ApiError> {
    Ok(Json(app.follows.online().await?))
}
