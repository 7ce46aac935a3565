//! Personal API tokens and the bot API (issue 38): `/api/account/tokens` (the session cookie
//! only), `/api/bot/account/upgrade` (a `bot:play` token).

use super::AppState;
use crate::auth::Session;
use crate::error::{ApiError, ErrorBody};
use crate::extract::JsonBody;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};

pub use mabula_api::bots::{
    BotEvent, BotGameMessage, BotGameRef, BotGameState, BotList, BotPlayer, BotView, CreateToken,
    TokenCreated, TokenList, TokenView,
};

/// The routes of tokens and bots.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/account/tokens", get(list_tokens).post(create_token))
        .route("/api/account/tokens/{id}", delete(revoke_token))
        .route("/api/bot/account/upgrade", post(upgrade))
}

/// Make a personal API token (with the session cookie only). Its secret is in this answer
/// only; it is sent as `Authorization: Bearer TOKEN`, needs no CSRF token, and acts as the
/// account within its scopes.
#[utoipa::path(post, path = "/api/account/tokens", tag = "players", request_body = CreateToken,
    responses(
        (status = 201, description = "The token, shown this once", body = TokenCreated),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`), or a personal token that is not valid (`token_invalid`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`), or sent with a personal token (`token_not_allowed`)", body = ErrorBody),
        (status = 409, description = "The account has 20 tokens already (`too_many_tokens`)", body = ErrorBody),
        (status = 413, response = super::docs::BodyTooLarge),
        (status = 415, response = super::docs::NotJson),
        (status = 422, description = "A description of 1 to 60 characters and known scopes are needed (`invalid_token`)", body = ErrorBody),
        (status = 429, response = super::docs::Throttled),
        (status = 503, response = super::docs::Unavailable),
    ))]
pub async fn create_token(
    State(app): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<CreateToken>,
) -> Result<(StatusCode, Json<TokenCreated>), ApiError> {
    let created = app.tokens.create(&session, &req).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// The account's personal tokens (never their secrets), newest first.
#[utoipa::path(get, path = "/api/account/tokens", tag = "players",
    responses(
        (status = 200, description = "The tokens", body = TokenList),
        (status = 401, description = "No session (`not_logged_in`), or a personal token that is not valid (`token_invalid`)", body = ErrorBody),
        (status = 403, description = "Sent with a personal token (`token_not_allowed`)", body = ErrorBody),
        (status = 429, response = super::docs::Throttled),
        (status = 503, response = super::docs::Unavailable),
    ))]
pub async fn list_tokens(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<TokenList>, ApiError> {
    Ok(Json(app.tokens.list(&session).await?))
}

/// Revoke a personal token: every instance refuses it from now on.
#[utoipa::path(delete, path = "/api/account/tokens/{id}", tag = "players",
    params(("id" = String, Path, description = "The token's id")),
    responses(
        (status = 204, description = "Revoked"),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`), or a personal token that is not valid (`token_invalid`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`), or sent with a personal token (`token_not_allowed`)", body = ErrorBody),
        (status = 404, description = "The account has no token of this id (`not_found`)", body = ErrorBody),
        (status = 429, response = super::docs::Throttled),
        (status = 503, response = super::docs::Unavailable),
    ))]
pub async fn revoke_token(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.tokens.revoke(&session, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Turn the token's account into a bot, for ever: only an account that has played no game.
#[utoipa::path(post, path = "/api/bot/account/upgrade", tag = "players",
    responses(
        (status = 204, description = "The account is a bot (or was one already)"),
        (status = 401, description = "No session nor token (`not_logged_in`), or a personal token that is not valid (`token_invalid`)", body = ErrorBody),
        (status = 403, description = "Not a personal token with the scope `bot:play` (`token_not_allowed`, or `csrf_failed` with a cookie)", body = ErrorBody),
        (status = 409, description = "The account has games (`account_has_games`)", body = ErrorBody),
        (status = 413, response = super::docs::BodyTooLarge),
        (status = 429, response = super::docs::Throttled),
        (status = 503, response = super::docs::Unavailable),
    ))]
pub async fn upgrade(
    State(app): State<AppState>,
    session: Session,
) -> Result<StatusCode, ApiError> {
    app.tokens.upgrade(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}
