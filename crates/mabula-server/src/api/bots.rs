//! Personal API tokens and the bot API (issue 38): `/api/account/tokens` (the session cookie
//! only), `/api/bot/account/upgrade` (a `bot:play` token).

use super::AppState;
use super::limits::client_key;
use crate::auth::{Caller, Session};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::{ClientAddr, JsonBody};
use crate::view::GameState;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use futures_util::StreamExt;
use tokio::sync::mpsc;

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
        .route("/api/stream/event", get(event_stream))
        .route("/api/bot/game/stream/{id}", get(game_stream))
        .route("/api/bot/game/{id}/move/{mv}", post(bot_move))
        .route("/api/bot/game/{id}/resign", post(bot_resign))
        .route("/api/bot/game/{id}/draw", post(bot_draw))
        .route("/api/bots", get(list_bots))
}

/// An answer that streams the lines of `rx` as newline-delimited JSON (never compressed, so
/// each line leaves at once), holding `slot` while it runs.
fn ndjson<T: Send + 'static>(
    mut rx: mpsc::Receiver<String>,
    slot: T,
    ended: impl Future<Output = ()> + Send + 'static,
) -> Response {
    let stream = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
        .take_until(Box::pin(ended))
        .map(move |l| {
            let _ = &slot;
            Ok::<_, std::convert::Infallible>(l)
        });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CONTENT_ENCODING, "identity"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}

/// The session a bot stream or action needs: a personal token's or a cookie's.
fn account_of(session: &Session) -> Result<(), ApiError> {
    if session.bot && session.grant.is_none() {
        return Err(ApiError::new(
            ErrorCode::BotNotAllowed,
            "a bot plays through the API, with its token",
        ));
    }
    Ok(())
}

/// The account's events as newline-delimited JSON (`BotEvent`, one a line; an empty line
/// every 7 s): the open challenges to it and its unfinished games first, then each game that
/// starts or ends and each challenge made, canceled or declined, whichever instance it
/// happened on.
#[utoipa::path(get, path = "/api/stream/event", tag = "bots",
    responses(
        (status = 200, description = "The stream: one `BotEvent` a line", body = BotEvent, content_type = "application/x-ndjson"),
        (status = 401, description = "No token nor session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "A personal token that is not valid (`token_invalid`), or a bot's cookie (`bot_not_allowed`)", body = ErrorBody),
        (status = 429, description = "Too many requests, or too many streams of this account or address (`rate_limited`, `too_many_connections`)", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn event_stream(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    session: Session,
) -> Result<Response, ApiError> {
    account_of(&session)?;
    let place = app.websockets.take(client, true)?;
    let slot = app.bots.slot(&session.key)?;
    let rx = app
        .bots
        .events(session.key.clone(), session.name.clone(), slot);
    let ended = super::live::signed_out(app.clone(), Some(session));
    Ok(ndjson(rx, place, ended))
}

/// One game as newline-delimited JSON (`BotGameMessage`, one a line; an empty line every 7 s):
/// `game_full` first, then a `game_state` at each change, and the chat lines; it ends after
/// the state that finishes the game.
#[utoipa::path(get, path = "/api/bot/game/stream/{id}", tag = "bots",
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 200, description = "The stream: one `BotGameMessage` a line", body = BotGameMessage, content_type = "application/x-ndjson"),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No token nor session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "A personal token that is not valid or outside its scopes (`token_invalid`, `token_not_allowed`), or a bot's cookie (`bot_not_allowed`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 429, description = "Too many requests, or too many streams of this account or address (`rate_limited`, `too_many_connections`)", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn game_stream(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    account_of(&session)?;
    let place = app.websockets.take(client, true)?;
    let slot = app.bots.slot(&session.key)?;
    let rx = app.bots.game(id, session.key.clone(), slot).await?;
    let ended = super::live::signed_out(app.clone(), Some(session));
    Ok(ndjson(rx, place, ended))
}

/// Play a move (in RULES.md's notation, `pass` to pass) in a game where the account holds the
/// side to move; the same action as `POST /api/games/{id}/moves`.
#[utoipa::path(post, path = "/api/bot/game/{id}/move/{mv}", tag = "bots",
    params(("id" = String, Path, description = "Game id"), ("mv" = String, Path, description = "The move")),
    responses(
        (status = 200, description = "The game after the move", body = GameState),
        (status = 400, description = "Bad notation (`bad_notation`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No token nor session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a seat of this account (`not_your_seat`, `token_invalid`), a token outside its scopes (`token_not_allowed`), or a bot's cookie (`bot_not_allowed`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "Not your turn, or the game is over (`not_your_turn`, `game_over`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 422, description = "An illegal move (`illegal_move`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn bot_move(
    State(app): State<AppState>,
    client: ClientAddr,
    session: Session,
    caller: Caller,
    Path((id, mv)): Path<(String, String)>,
) -> Result<Json<GameState>, ApiError> {
    account_of(&session)?;
    let client = client_key(client);
    Ok(Json(
        app.games.play(&id, &caller, &mv, None, &client).await?,
    ))
}

/// Resign a game of the account.
#[utoipa::path(post, path = "/api/bot/game/{id}/resign", tag = "bots",
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 200, description = "The finished game", body = GameState),
        (status = 400, description = "The id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No token nor session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a seat of this account (`not_your_seat`, `token_invalid`), a token outside its scopes (`token_not_allowed`), or a bot's cookie (`bot_not_allowed`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game is over (`game_over`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn bot_resign(
    State(app): State<AppState>,
    session: Session,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    account_of(&session)?;
    Ok(Json(app.games.resign(&id, &caller, None).await?))
}

/// Offer a draw, or accept the opponent's standing offer (as `POST /api/games/{id}/draw`).
#[utoipa::path(post, path = "/api/bot/game/{id}/draw", tag = "bots",
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 200, description = "The game with the offer standing, or drawn", body = GameState),
        (status = 400, description = "The id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No token nor session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not a seat of this account (`not_your_seat`, `token_invalid`), a token outside its scopes (`token_not_allowed`), or a bot's cookie (`bot_not_allowed`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game is over, or no draw may be offered now (`game_over`, `draw_not_allowed`, `draw_offer_pending`, `draw_offer_too_soon`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn bot_draw(
    State(app): State<AppState>,
    session: Session,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    account_of(&session)?;
    Ok(Json(app.games.draw(&id, &caller).await?))
}

/// The bots: online first (heard from in the last minute), then by rating.
#[utoipa::path(get, path = "/api/bots", tag = "bots",
    responses(
        (status = 200, description = "The bots", body = BotList),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn list_bots(State(app): State<AppState>) -> Result<Json<BotList>, ApiError> {
    Ok(Json(app.tokens.bot_list().await?))
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
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "A description of 1 to 60 characters and known scopes are needed (`invalid_token`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
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
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
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
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
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
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn upgrade(
    State(app): State<AppState>,
    session: Session,
) -> Result<StatusCode, ApiError> {
    app.tokens.upgrade(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}
