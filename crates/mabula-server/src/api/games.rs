//! The games resource: `/api/games…` (everything but the WebSocket).

use super::AppState;
use super::limits::client_key;
use crate::auth::Caller;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::ClientAddr;
use crate::extract::{JsonBody, MaybeSession, QueryParams};
use crate::store::ListFilter;
use crate::view::{
    CreateGame, Empty, GameList, GameState, ImportRequest, JoinRequest, ListQuery, MoveRequest,
    RecordQuery, ResignRequest, SeatGrant,
};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

/// The routes of the games resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(create).get(list))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(state))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/draw/decline", post(decline_draw))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/undo/accept", post(accept_undo))
        .route("/api/games/{id}/undo/decline", post(decline_undo))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/hint", post(hint))
}

/// Create a game.
#[utoipa::path(post, path = "/api/games", tag = "games", request_body = CreateGame,
    responses(
        (status = 201, description = "The game, with the creator's seat token", body = SeatGrant),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 403, response = super::answers::LivePosition),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "Invalid settings or setup (`invalid_settings`, `invalid_setup`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn create(
    State(app): State<AppState>,
    client: ClientAddr,
    MaybeSession(session): MaybeSession,
    JsonBody(req): JsonBody<CreateGame>,
) -> Result<Response, ApiError> {
    // Fair play: no engine game set up where a rated game is being played (an unreadable setup
    // is left to the games service to refuse).
    if req.mode == crate::model::Mode::Engine
        && let Some(setup) = req.setup.as_deref()
        && let Ok(pos) = mabula::Position::parse(setup)
    {
        app.fair_play.check([&pos]).await?;
    }
    let grant = app
        .games
        .create(req, &client_key(client), session.as_ref())
        .await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

/// List recent, live or finished games.
#[utoipa::path(get, operation_id = "list_games", path = "/api/games", tag = "games", params(ListQuery),
    responses(
        (status = 200, description = "Games, newest activity first", body = GameList),
        (status = 400, description = "An unknown filter, a limit out of range or an unknown parameter (`bad_request`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn list(
    State(app): State<AppState>,
    QueryParams(q): QueryParams<ListQuery>,
) -> Result<Json<GameList>, ApiError> {
    let filter = match q.filter.as_deref() {
        None | Some("recent") => ListFilter::Recent,
        Some("live") => ListFilter::Live,
        Some("finished") => ListFilter::Finished,
        Some(other) => {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!("filter '{other}' is unknown: use recent, live or finished"),
            ));
        }
    };
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("limit {limit} is out of range: use 1 to 100"),
        ));
    }
    Ok(Json(GameList {
        games: app.games.list(filter, limit).await?,
    }))
}

/// The state of a game.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("token" = [])),
    responses(
        (status = 200, description = "The game state; once a finished rated game has been analysed, each player's `accuracy`", body = GameState),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 403, description = "A token was sent but holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn state(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
) -> Result<Json<GameState>, ApiError> {
    let mut state = app.games.state(&id, &token).await?;
    // Each player's accuracy, after a rated game only (issue 51).
    if state.rated && state.status == "finished" {
        let [white, black] = app.accuracy.of_game(&id).await?;
        for (player, accuracy) in [
            (&mut state.players.white, white),
            (&mut state.players.black, black),
        ] {
            if let Some(p) = player {
                p.accuracy = accuracy;
            }
        }
    }
    Ok(Json(state))
}

/// Claim a friend game's free seat with the join code.
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", request_body = JoinRequest,
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 200, description = "The seat and its token", body = SeatGrant),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 403, description = "The code opens no seat in this game (`join_code_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The seat was taken already (`seat_taken`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeSession(session): MaybeSession,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<SeatGrant>, ApiError> {
    Ok(Json(
        app.games.join(&id, &req.code, session.as_ref()).await?,
    ))
}

/// Play a move.
#[utoipa::path(post, path = "/api/games/{id}/moves", tag = "games", request_body = MoveRequest,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The state after the move, once it is committed", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), the move text is not a move (`bad_notation`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`), or, in a game against the engine, the move leads to a position a live rated game keeps from the engine (`live_game_position`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "Not your turn, a stale move number, or the game is over (`not_your_turn`, `stale_state`, `game_over`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "The move is not legal here (`illegal_move`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn play(
    State(app): State<AppState>,
    client: ClientAddr,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(req): JsonBody<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    // Fair play: a game against the engine never walks into a position that a live rated game
    // keeps, where the engine's reply would be its help.
    if let Some(next) = engine_game_next(&app, &id, &req.mv).await? {
        app.fair_play.check([&next]).await?;
    }
    let client = client_key(client);
    Ok(Json(
        app.games
            .play(&id, &token, &req.mv, req.number, &client)
            .await?,
    ))
}

/// The position after `mv` in game `id` when it is a game against the engine and `mv` is legal
/// there; `None` otherwise (the games service judges the move itself).
async fn engine_game_next(
    app: &AppState,
    id: &str,
    mv: &str,
) -> Result<Option<mabula::Position>, ApiError> {
    let handle = app.games.handle(id).await?;
    let slot = handle.slot.lock().await;
    if slot.game.mode != crate::model::Mode::Engine {
        return Ok(None);
    }
    let Ok(mv) = mv.parse::<mabula::Move>() else {
        return Ok(None);
    };
    Ok(slot.game.game.position().play(mv).ok())
}

/// Resign.
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games", request_body = ResignRequest,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The finished game", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game, or not the side named (`token_invalid`, `not_your_seat`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game is over (`game_over`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn resign(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(req): JsonBody<ResignRequest>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.resign(&id, &token, req.side).await?))
}

/// Claim the win because the other side left: in a game on a real-time clock, once the other
/// side has had no connection for 30 seconds on its own turn.
#[utoipa::path(post, operation_id = "claim_win", path = "/api/games/{id}/claim", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The finished game, won by the caller", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game is over, or the win cannot be claimed (yet): `Retry-After` says when (`game_over`, `claim_not_allowed`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn claim(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.claim_win(&id, &token).await?))
}

/// Offer a draw, or accept the opponent's standing offer (the game ends as a draw).
#[utoipa::path(post, operation_id = "offer_draw", path = "/api/games/{id}/draw", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The state with the offer (`draw_offer`), or the game drawn (`draw_agreed`)", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game is over, is not between two people, your offer stands already, or your last offer was declined fewer than 4 moves ago (`game_over`, `draw_not_allowed`, `draw_offer_pending`, `draw_offer_too_soon`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.draw(&id, &token).await?))
}

/// Decline the opponent's draw offer.
#[utoipa::path(post, path = "/api/games/{id}/draw/decline", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The state without the offer", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game is over, or the opponent offers no draw (`game_over`, `draw_not_allowed`, `no_draw_offer`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn decline_draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.decline_draw(&id, &token).await?))
}

/// Abort the game before each side has made its first move: no result, no rating change.
#[utoipa::path(post, operation_id = "abort_game", path = "/api/games/{id}/abort", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The game, ended as `aborted`", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game is over, or both sides have moved already (`game_over`, `abort_too_late`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn abort(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.abort(&id, &token).await?))
}

/// Take back (engine and local games) or offer to take back (friend games).
#[utoipa::path(post, path = "/api/games/{id}/undo", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The state after the undo or with the offer", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "Nothing to undo, the game is over, or an offer is pending (`nothing_to_undo`, `game_over`, `undo_offer_pending`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn undo(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.undo(&id, &token).await?))
}

/// Accept the opponent's undo offer.
#[utoipa::path(post, path = "/api/games/{id}/undo/accept", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The state after the undo", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game, or the offer is your own (`token_invalid`, `not_your_seat`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "No undo is offered (`no_undo_offer`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn accept_undo(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.accept_undo(&id, &token).await?))
}

/// Decline the opponent's undo offer, or withdraw your own.
#[utoipa::path(post, path = "/api/games/{id}/undo/decline", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The state without the offer", body = GameState),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "No undo is offered (`no_undo_offer`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn decline_undo(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(app.games.decline_undo(&id, &token).await?))
}

/// A rematch with colours swapped.
#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "games", request_body = Empty,
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 201, description = "Your seat in the rematch (after the first game of a duplicate pair: the same start, colours swapped)", body = SeatGrant),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "The game goes on, or your seat in the rematch was handed out (`game_not_over`, `rematch_taken`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn rematch(
    State(app): State<AppState>,
    client: ClientAddr,
    Path(id): Path<String>,
    token: Caller,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Response, ApiError> {
    let grant = app.games.rematch(&id, &token, &client_key(client)).await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

/// The game record (PGN-shaped text).
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games",
    params(("id" = String, Path, description = "Game id"), RecordQuery),
    responses(
        (status = 200, description = "The record", body = String, content_type = "text/plain"),
        (status = 400, description = "An unknown query parameter, or an id that is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn record(
    State(app): State<AppState>,
    Path(id): Path<String>,
    QueryParams(q): QueryParams<RecordQuery>,
) -> Result<Response, ApiError> {
    let text = app.games.record(&id).await?;
    let mut response =
        ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response();
    if q.download
        .as_deref()
        .is_some_and(|d| d == "1" || d == "true")
    {
        let value = format!("attachment; filename=\"mabula-{id}.txt\"");
        if let Ok(v) = header::HeaderValue::from_str(&value) {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, v);
        }
    }
    Ok(response)
}

/// Import a record as a new game at one screen.
#[utoipa::path(post, path = "/api/games/import", tag = "games", request_body = ImportRequest,
    responses(
        (status = 201, description = "The new game, with a token for both seats", body = SeatGrant),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "The record cannot be read (`invalid_record`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn import(
    State(app): State<AppState>,
    JsonBody(req): JsonBody<ImportRequest>,
) -> Result<Response, ApiError> {
    let grant = app.games.import(&req.record).await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

pub use mabula_api::analysis::HintAnswer;

/// Ask the engine for a hint on your turn in a game against it (counted, and kept in the record).
#[utoipa::path(post, path = "/api/games/{id}/hint", tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("token" = [])),
    responses(
        (status = 200, description = "The analysis, once finished, and the state", body = HintAnswer),
        (status = 400, description = "Not a game against the engine, or an id that is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, response = super::answers::NoToken),
        (status = 403, description = "The token holds no seat in this game (`token_invalid`), or a rated game is being played in this position or one move from it (`live_game_position`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 409, description = "Not your turn, or the game is over (`not_your_turn`, `game_over`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn hint(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Caller,
) -> Result<Json<HintAnswer>, ApiError> {
    // Fair play: asked before the hint is counted (on your turn against the engine, nothing
    // but you moves the position meanwhile).
    let standing = app.games.state(&id, &token).await?.position;
    app.fair_play.check([&standing]).await?;
    let (state, pos, scoring) = app.games.hint(&id, &token).await?;
    let key = format!("game:{id}");
    let (report, cached) = app.analyst.hint(pos, scoring, &key).await?;
    Ok(Json(HintAnswer {
        state,
        analysis: crate::analysis::position_analysis(&pos, scoring, &report, cached),
    }))
}
