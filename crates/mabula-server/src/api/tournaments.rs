//! Tournaments (issue 37, `docs/api.md`, section 10): `/api/tournaments` (create, list),
//! `/api/tournaments/{id}` (the whole tournament; join, withdraw, pause, start; its games as one
//! record file), a player's tournaments on their profile, and the live channel
//! `/api/tournaments/{id}/ws`, which sends the tournament at once and after every change on any
//! instance, and tells a logged-in player when a game of theirs in it begins. A player who reads
//! the tournament (the socket, while open, or `GET`) is there to be paired in an arena.

use super::AppState;
use super::live::{self, Channel, End, Outbox};
use crate::auth::Session;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ClientAddr, JsonBody, MaybeSession};
use crate::store::Notice;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use mabula_api::tournaments::{
    CreateTournament, JoinTournament, PlayerTournament, TournamentCreated, TournamentList,
    TournamentMessage, TournamentView,
};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

/// The routes of tournaments.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/withdraw", post(withdraw))
        .route("/api/tournaments/{id}/pause", post(pause))
        .route("/api/tournaments/{id}/start", post(start))
        .route("/api/tournaments/{id}/games", get(records))
        .route("/api/tournaments/{id}/ws", get(upgrade))
        .route("/api/players/{name}/tournaments", get(of_player))
}

/// Create a tournament.
#[utoipa::path(post, operation_id = "create_tournament", path = "/api/tournaments", tag = "tournaments",
    request_body = CreateTournament,
    responses(
        (status = 201, description = "Created", body = TournamentCreated),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`), or a moderator muted you (`muted`)", body = ErrorBody),
        (status = 409, description = "You have 3 tournaments not finished already (`too_many_tournaments`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "A setting is not valid: the name (3 to 40 characters), format, scoring, clock, rounds (1 to 15) or minutes (10 to 720), the start (1 minute to 30 days ahead), the minimum rating or the password (`invalid_tournament`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn create(
    State(app): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<CreateTournament>,
) -> Result<Response, ApiError> {
    // A tournament's name is shown to everyone: a muted account names none.
    app.moderation
        .refuse_muted(&session, "you can join tournaments, not create them")
        .await?;
    let created = app.tournaments.create(&session, req).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// The tournaments: upcoming, running and recently finished.
#[utoipa::path(get, operation_id = "list_tournaments", path = "/api/tournaments", tag = "tournaments",
    responses(
        (status = 200, description = "The tournaments", body = TournamentList),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn list(State(app): State<AppState>) -> Result<Json<TournamentList>, ApiError> {
    Ok(Json(app.tournaments.list().await?))
}

/// A tournament, whole: standings, rounds, pairings and games.
#[utoipa::path(get, operation_id = "show_tournament", path = "/api/tournaments/{id}", tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn show(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    let view = app.tournaments.view(&id).await?;
    if let Some(s) = session {
        app.tournaments.seen(&id, &s.key).await?;
    }
    Ok(Json(view))
}

/// Join a tournament (before or during it: a Swiss tournament pairs you from its next round,
/// an arena at once).
#[utoipa::path(post, operation_id = "join_tournament", path = "/api/tournaments/{id}/join", tag = "tournaments",
    request_body = JoinTournament,
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "Joined (or joined again after a withdrawal)", body = TournamentView),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or the id is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "The password is wrong (`tournament_password`), your rating is below the minimum (`rating_too_low`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = ErrorBody),
        (status = 409, description = "Finished, or full at 1000 players (`tournament_closed`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn join(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinTournament>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(app.tournaments.join(&id, &session, req).await?))
}

/// Withdraw from a tournament: you are not paired again; games under way stand.
#[utoipa::path(post, operation_id = "withdraw_from_tournament", path = "/api/tournaments/{id}/withdraw", tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "Withdrawn", body = TournamentView),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = ErrorBody),
        (status = 409, description = "Finished, or you are not playing in it (`tournament_closed`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn withdraw(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(app.tournaments.withdraw(&id, &session).await?))
}

/// Pause in an arena: you are not paired again until you join again; your game under way stands.
#[utoipa::path(post, operation_id = "pause_in_tournament", path = "/api/tournaments/{id}/pause", tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "Paused", body = TournamentView),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = ErrorBody),
        (status = 409, description = "Finished, not an arena, or you are not playing in it or paused already (`tournament_closed`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn pause(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(app.tournaments.pause(&id, &session).await?))
}

/// Start a tournament now, before its time (its creator only).
#[utoipa::path(post, operation_id = "start_tournament", path = "/api/tournaments/{id}/start", tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "Started", body = TournamentView),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not its creator (`not_tournament_creator`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = ErrorBody),
        (status = 409, description = "It has started already (`tournament_closed`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn start(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(app.tournaments.start(&id, &session).await?))
}

/// Every game of a tournament as one record file.
#[utoipa::path(get, operation_id = "tournament_records", path = "/api/tournaments/{id}/games", tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The records, one after another, in the order of the pairings", content_type = "text/plain", body = String),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn records(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = app.tournaments.records(&id).await?;
    let safe: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"mabula-tournament-{safe}.txt\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// A player's tournaments, latest first, with their results.
#[utoipa::path(get, operation_id = "player_tournaments", path = "/api/players/{name}/tournaments", tag = "tournaments",
    params(("name" = String, Path, description = "The player's name")),
    responses(
        (status = 200, description = "The tournaments (the latest 50)", body = Vec<PlayerTournament>),
        (status = 400, description = "The name is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn of_player(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Vec<PlayerTournament>>, ApiError> {
    let a = app.players.account(&name).await?;
    Ok(Json(app.tournaments.of_player(&a.key).await?))
}

/// The tournament's live channel (`docs/api.md`): the tournament at once and after every change
/// on any instance; to a logged-in player, each of their games as it begins.
#[utoipa::path(get, operation_id = "tournament_socket", path = "/api/tournaments/{id}/ws", tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 101, description = "The connection is now a WebSocket"),
        (status = 400, description = "Not a WebSocket handshake (`bad_request`)", body = ErrorBody),
        (status = 403, description = "Opened by a page of another site (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
async fn upgrade(
    State(app): State<AppState>,
    Path(id): Path<String>,
    ClientAddr(client): ClientAddr,
    MaybeSession(session): MaybeSession,
    ws: Result<yawc::IncomingUpgrade, StatusCode>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    live::same_site(&headers)?;
    let ws = ws.map_err(live::not_a_handshake)?;
    // The first state now: an unknown tournament is a 404, not a socket.
    let first = app.tournaments.view(&id).await?;
    let slot = live::place(&app, client)?;
    let shutdown = app.shutdown.clone();
    let ended = live::signed_out(app.clone(), session.clone());
    let seen = session.is_some().then(|| {
        crate::clock::installed().interval(Duration::from_millis(
            crate::services::tournaments::SEEN_EVERY_MS as u64,
        ))
    });
    let channel = TournamentChannel {
        notices: app.cluster.notices(),
        seen,
        app,
        id,
        me: session.map(|s| s.key),
        shown: first.version,
        first: Some(first),
        stale: false,
    };
    live::serve_deflate(ws, slot, channel, ended, shutdown)
}

/// How long a socket waits after a change before reading the tournament (changes that come
/// meanwhile are in the same reading).
const COALESCE: Duration = Duration::from_millis(100);

fn state_text(view: TournamentView) -> String {
    serde_json::to_string(&TournamentMessage::State {
        tournament: Box::new(view),
    })
    .unwrap_or_default()
}

/// A tournament's live channel: its state at once and again when its version changes; to a
/// logged-in player, each of their games in it as it begins. While it is open, its player is
/// there (see `Tournaments::seen`).
struct TournamentChannel {
    app: AppState,
    id: String,
    /// The logged-in player's account.
    me: Option<String>,
    notices: broadcast::Receiver<Notice>,
    /// When to say again that the logged-in player is there.
    seen: Option<crate::clock::Ticker>,
    /// The state read when the socket was asked for, said first.
    first: Option<TournamentView>,
    /// The version of the state said last.
    shown: u64,
    /// Whether the tournament may have changed since.
    stale: bool,
}

/// What a tournament's socket waits for.
enum Update {
    /// A notice of the cluster.
    Notice(Result<Notice, RecvError>),
    /// Time to say that the player is there.
    Seen,
}

impl Channel for TournamentChannel {
    type Update = Update;

    async fn settle(&mut self, out: &mut Outbox<'_>) -> Result<(), End> {
        if let Some(first) = self.first.take() {
            out.say(state_text(first)).await?;
        }
        if self.stale {
            tokio::time::sleep(COALESCE).await;
            self.stale = false;
            match self.app.tournaments.view(&self.id).await {
                Ok(view) if view.version != self.shown => {
                    self.shown = view.version;
                    out.say(state_text(view)).await?;
                }
                Ok(_) => {}
                Err(e) => tracing::debug!("cannot read tournament {}: {}", self.id, e.message),
            }
        }
        Ok(())
    }

    async fn next(&mut self) -> Self::Update {
        match &mut self.seen {
            Some(seen) => tokio::select! {
                notice = self.notices.recv() => Update::Notice(notice),
                () = seen.tick() => Update::Seen,
            },
            None => Update::Notice(self.notices.recv().await),
        }
    }

    async fn update(&mut self, update: Self::Update, out: &mut Outbox<'_>) -> Result<(), End> {
        let notice = match update {
            Update::Notice(notice) => notice,
            Update::Seen => {
                if let Some(me) = &self.me
                    && let Err(e) = self.app.tournaments.seen(&self.id, me).await
                {
                    tracing::debug!(
                        "cannot note a player of tournament {}: {}",
                        self.id,
                        e.message
                    );
                }
                return Ok(());
            }
        };
        match notice {
            Ok(Notice::Tournament { id }) if id == self.id => self.stale = true,
            Ok(Notice::User { key, what }) if Some(&key) == self.me.as_ref() => {
                // `game ID TOURNAMENT`: a game of a tournament began.
                let mut words = what.split(' ');
                if let (Some("game"), Some(game), Some(tournament)) =
                    (words.next(), words.next(), words.next())
                    && tournament == self.id
                {
                    let text = serde_json::to_string(&TournamentMessage::Game {
                        id: game.to_string(),
                    })
                    .unwrap_or_default();
                    out.say(text).await?;
                }
            }
            // Lagging, or back after the listener's loss: what was missed is read again.
            Err(RecvError::Lagged(_)) | Ok(Notice::Back) => self.stale = true,
            Ok(_) => {}
            Err(RecvError::Closed) => return Err(End),
        }
        Ok(())
    }

    fn end(self) {}
}
