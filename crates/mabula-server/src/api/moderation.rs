//! Blocks, reports and moderation: `/api/players/{name}/block`, `/api/account/blocks`,
//! `/api/reports`, `/api/moderation/…` (`docs/api.md`, section 9).

use super::AppState;
use crate::auth::Session;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::JsonBody;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use mabula_api::social::{
    AccuracyFlags, BlockList, ModerationStatus, MuteRequest, ReportCreated, ReportQueue,
    ReportRequest, ResolveRequest, UnratedGames,
};

/// The routes of blocks, reports and moderation.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/players/{name}/block", post(block).delete(unblock))
        .route("/api/account/blocks", get(blocks))
        .route("/api/account/moderation", get(status))
        .route("/api/reports", post(report))
        .route("/api/moderation/reports", get(queue))
        .route("/api/moderation/unrated", get(unrated))
        .route("/api/moderation/accuracy", get(accuracy))
        .route("/api/moderation/reports/{id}/resolve", post(resolve))
        .route(
            "/api/moderation/players/{name}/mute",
            post(mute).delete(unmute),
        )
        .route("/api/moderation/players/{name}/close", post(close))
        .route("/api/moderation/players/{name}/reopen", post(reopen))
}

/// Block a player: no challenges and no chat from them in your games.
#[utoipa::path(post, operation_id = "block_player", path = "/api/players/{name}/block", tag = "social",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 204, description = "Blocked (or blocked already)"),
        (status = 400, description = "Yourself, or over 1000 blocks (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn block(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.moderation.block(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Unblock a player.
#[utoipa::path(delete, operation_id = "unblock_player", path = "/api/players/{name}/block", tag = "social",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 204, description = "Not blocked any more"),
        (status = 400, description = "The name is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn unblock(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.moderation.unblock(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The players you block.
#[utoipa::path(get, path = "/api/account/blocks", tag = "social",
    responses(
        (status = 200, description = "Their names", body = BlockList),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn blocks(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<BlockList>, ApiError> {
    Ok(Json(app.moderation.blocks(&session).await?))
}

/// Your account's moderation flags: whether you are a moderator, until when you are muted.
#[utoipa::path(get, operation_id = "moderation_status", path = "/api/account/moderation", tag = "social",
    responses(
        (status = 200, description = "The flags", body = ModerationStatus),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn status(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<ModerationStatus>, ApiError> {
    Ok(Json(app.moderation.status(&session).await?))
}

/// Report a player to the moderators.
#[utoipa::path(post, operation_id = "report_player", path = "/api/reports", tag = "social",
    request_body = ReportRequest,
    responses(
        (status = 201, description = "Reported", body = ReportCreated),
        (status = 400, description = "The body is not JSON of this shape, or an unknown reason (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`), or a text from a muted account (`muted`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "Yourself, a text over 1000 characters, a chat line the player did not write (`invalid_report`)", body = ErrorBody),
        (status = 429, description = "More than 10 reports in an hour (`rate_limited`), or too many requests", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn report(
    State(app): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<ReportRequest>,
) -> Result<Response, ApiError> {
    let made = app.moderation.report(&session, req).await?;
    Ok((StatusCode::CREATED, Json(made)).into_response())
}

/// The open reports, oldest first (moderators).
#[utoipa::path(get, operation_id = "report_queue", path = "/api/moderation/reports", tag = "social",
    responses(
        (status = 200, description = "The open reports", body = ReportQueue),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn queue(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<ReportQueue>, ApiError> {
    Ok(Json(app.moderation.queue(&session).await?))
}

/// The rated games that could not be rated, with why, the oldest failure first (moderators):
/// each was skipped so the others are rated, and is tried again later.
#[utoipa::path(get, operation_id = "unrated_games", path = "/api/moderation/unrated", tag = "social",
    responses(
        (status = 200, description = "The games", body = UnratedGames),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn unrated(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<UnratedGames>, ApiError> {
    Ok(Json(app.moderation.unrated_games(&session).await?))
}

/// The accounts whose accuracy over their recent rated games is far above that of the players of
/// their rating, the largest gap first, with the games (moderators; the rule is in `docs/api.md`).
#[utoipa::path(get, operation_id = "accuracy_flags", path = "/api/moderation/accuracy", tag = "social",
    responses(
        (status = 200, description = "The flagged accounts", body = AccuracyFlags),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn accuracy(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<AccuracyFlags>, ApiError> {
    app.moderation.moderator(&session).await?;
    Ok(Json(app.accuracy.flagged().await?))
}

/// Resolve a report (moderators).
#[utoipa::path(post, operation_id = "resolve_report", path = "/api/moderation/reports/{id}/resolve", tag = "social",
    request_body = ResolveRequest,
    params(("id" = i64, Path, description = "Report id")),
    responses(
        (status = 204, description = "Resolved"),
        (status = 400, description = "Not JSON of this shape (`malformed_json`), or not a number (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No open report has this id (`report_not_found`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "A note over 1000 characters (`invalid_report`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn resolve(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ResolveRequest>,
) -> Result<StatusCode, ApiError> {
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::new(ErrorCode::BadRequest, "a report id is a number"))?;
    app.moderation.resolve(&session, id, &req.note).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Mute a player: no chat for `minutes`, or until unmuted (moderators).
#[utoipa::path(post, operation_id = "mute_player", path = "/api/moderation/players/{name}/mute", tag = "social",
    request_body = MuteRequest,
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 204, description = "Muted"),
        (status = 400, description = "Not JSON of this shape (`malformed_json`), or 0 minutes (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn mute(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<MuteRequest>,
) -> Result<StatusCode, ApiError> {
    app.moderation.mute(&session, &name, req.minutes).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Unmute a player (moderators).
#[utoipa::path(delete, operation_id = "unmute_player", path = "/api/moderation/players/{name}/mute", tag = "social",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 204, description = "Unmuted"),
        (status = 400, description = "The name is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn unmute(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.moderation.unmute(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Close a player's account: no log-in, sessions ended, seeks and challenges gone; games kept
/// (moderators).
#[utoipa::path(post, operation_id = "close_account", path = "/api/moderation/players/{name}/close", tag = "social",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 204, description = "Closed"),
        (status = 400, description = "Your own account (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn close(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.moderation.close(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Open a closed account again (moderators).
#[utoipa::path(post, operation_id = "reopen_account", path = "/api/moderation/players/{name}/reopen", tag = "social",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 204, description = "Open again"),
        (status = 400, description = "The name is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a moderator (`not_moderator`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn reopen(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.moderation.reopen(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}
