//! A game's chat: `POST /api/games/{id}/chat` says a line, `GET /api/games/{id}/chat` reads the
//! rooms the caller may read (`docs/api.md`, section 9). Lines also reach the game's WebSockets
//! as `chat` messages (`ws`).

use super::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ClientAddr, JsonBody, MaybeSession};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use mabula_api::social::{ChatLine, ChatLog, ChatRequest};

/// The routes of the chat.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/chat", get(log).post(say))
}

/// Say a line in a game's chat.
#[utoipa::path(post, operation_id = "say_chat", path = "/api/games/{id}/chat", tag = "social",
    request_body = ChatRequest,
    params(("id" = String, Path, description = "Game id")),
    security((), ("token" = [])),
    responses(
        (status = 201, description = "The line, said", body = ChatLine),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "A guest writes in the spectators' room (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a player of the game, for the players' room (`chat_not_allowed`); a player of the game blocks you (`blocked`); a moderator muted you (`muted`); no CSRF token with a session (`csrf_failed`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "Empty (`chat_empty`), over 140 characters (`chat_too_long`), or with control characters (`chat_invalid`)", body = ErrorBody),
        (status = 429, description = "More than 5 lines in 10 seconds (`rate_limited`), or too many requests", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn say(
    State(app): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    MaybeSession(session): MaybeSession,
    client: ClientAddr,
    JsonBody(req): JsonBody<ChatRequest>,
) -> Result<Response, ApiError> {
    let line = app
        .chat
        .say(&id, &caller, session.as_ref(), &client.0.to_string(), req)
        .await?;
    Ok((StatusCode::CREATED, Json(line)).into_response())
}

/// Read a game's chat: the rooms the caller may read, and which it may write.
#[utoipa::path(get, operation_id = "read_chat", path = "/api/games/{id}/chat", tag = "social",
    params(("id" = String, Path, description = "Game id")),
    security((), ("token" = [])),
    responses(
        (status = 200, description = "The lines", body = ChatLog),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn log(
    State(app): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    MaybeSession(session): MaybeSession,
) -> Result<Json<ChatLog>, ApiError> {
    Ok(Json(app.chat.log(&id, &caller, session.as_ref()).await?))
}
