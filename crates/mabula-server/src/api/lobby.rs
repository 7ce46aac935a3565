//! The lobby: `/api/seeks` (open seeks and challenges; open, withdraw, accept) and its live
//! channel `/api/lobby/ws`, which sends the seek list whenever it changes on any instance, and
//! tells a logged-in player when a game of theirs begins or when it is their turn in a
//! correspondence game.

use super::AppState;
use super::limits::client_key;
use super::live::{self, Channel, End, Outbox};
use crate::auth::Session;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ClientAddr, JsonBody, MaybeSession};
use crate::services::lobby::{KEEP_ALIVE_EVERY, LOBBY_DELAY, Listed, SeekRequest, SeekView, Shown};
use crate::services::now_ms;
use crate::store::Notice;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use mabula_api::lobby::LobbyMessage;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};

/// The routes of the lobby.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/seeks", get(list).post(open))
        .route("/api/seeks/{id}", delete(cancel))
        .route("/api/seeks/{id}/accept", post(accept))
        .route("/api/lobby/ws", get(upgrade))
}

pub use mabula_api::lobby::{SeekList, Started};

/// The open seeks, with your challenges.
#[utoipa::path(get, operation_id = "list_seeks", path = "/api/seeks", tag = "players",
    responses(
        (status = 200, description = "The seeks", body = SeekList),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn list(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
) -> Result<Json<SeekList>, ApiError> {
    Ok(Json(SeekList {
        seeks: app.lobby.seeks(session.as_ref()).await?,
    }))
}

/// Open a seek, or challenge a player (`to`).
#[utoipa::path(post, path = "/api/seeks", tag = "players", request_body = SeekRequest,
    responses(
        (status = 201, description = "The seek, now in the lobby", body = SeekView),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`); the player challenged blocks you (`blocked`) or is closed (`account_closed`)", body = ErrorBody),
        (status = 404, description = "No player has the name in `to` (`player_not_found`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "Settings out of range (`invalid_settings`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn open(
    State(app): State<AppState>,
    client: ClientAddr,
    session: Session,
    JsonBody(req): JsonBody<SeekRequest>,
) -> Result<Response, ApiError> {
    let seek = app
        .lobby
        .open_seek(&session, &client_key(client), req)
        .await?;
    Ok((StatusCode::CREATED, Json(seek)).into_response())
}

/// Withdraw your seek or challenge, or decline a challenge to you.
#[utoipa::path(delete, path = "/api/seeks/{id}", tag = "players",
    params(("id" = String, Path, description = "Seek id")),
    responses(
        (status = 204, description = "Withdrawn or declined"),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Not your seek nor a challenge to you (`seek_not_for_you`), or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such open seek (`seek_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn cancel(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.lobby.cancel_seek(&session, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Accept a seek or a challenge: the game begins.
#[utoipa::path(post, path = "/api/seeks/{id}/accept", tag = "players",
    params(("id" = String, Path, description = "Seek id")),
    responses(
        (status = 200, description = "The game", body = Started),
        (status = 400, description = "The id is not valid percent-encoded UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "Your own seek, another's challenge, or outside its rating range (`seek_not_for_you`); or no CSRF token (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "No such open seek: taken, withdrawn or lapsed (`seek_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn accept(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Json<Started>, ApiError> {
    let game_id = app.lobby.accept_seek(&session, &id).await?;
    Ok(Json(Started { game_id }))
}

/// The lobby's live channel (`docs/api.md`): the seek list at once and after every change; a
/// logged-in player's games as they begin.
#[utoipa::path(get, operation_id = "lobby_socket", path = "/api/lobby/ws", tag = "players",
    responses(
        (status = 101, description = "The connection is now a WebSocket"),
        (status = 400, description = "Not a WebSocket handshake (`bad_request`)", body = ErrorBody),
        (status = 403, description = "Opened by a page of another site (`csrf_failed`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
async fn upgrade(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    MaybeSession(session): MaybeSession,
    ws: Result<yawc::IncomingUpgrade, StatusCode>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    live::same_site(&headers)?;
    let ws = ws.map_err(live::not_a_handshake)?;
    let slot = live::place(&app, client)?;
    let shutdown = app.shutdown.clone();
    // Compressed when the client offers permessage-deflate (browsers do): the first list is
    // mostly the same words over and over.
    let ended = live::signed_out(app.clone(), session.clone());
    live::serve_deflate(ws, slot, LobbyChannel::new(app, session), ended, shutdown)
}

/// The message of a player's notice `what` (`game ID`, or `game ID TOURNAMENT` for a
/// tournament's game, `turn ID`, `declined ID BY`); `None` for a change of their challenges,
/// which the seek list shows.
fn user_message(what: &str) -> Option<String> {
    let mut words = what.split(' ');
    match (words.next(), words.next(), words.next()) {
        (Some("game"), Some(id), tournament) => Some(
            LobbyMessage::Game {
                game_id: id,
                tournament,
            }
            .to_text(),
        ),
        (Some("turn"), Some(id), _) => Some(LobbyMessage::Turn { game_id: id }.to_text()),
        (Some("declined"), Some(id), Some(by)) => {
            Some(LobbyMessage::Declined { seek_id: id, by }.to_text())
        }
        _ => None,
    }
}

/// What a lobby socket waits for.
enum Update {
    /// The seeks open to all changed (`Err`: the lobby is gone).
    Public(Result<(), watch::error::RecvError>),
    /// Time to keep the player's seeks alive.
    Alive,
    /// A notice of the cluster.
    Notice(Result<Notice, RecvError>),
}

/// The lobby's live channel: the seek list once the instance has read it, then what was added
/// and removed; a logged-in player's notices.
struct LobbyChannel {
    app: AppState,
    /// The logged-in player's account.
    me: Option<String>,
    events: broadcast::Receiver<Notice>,
    public: watch::Receiver<Option<Arc<Vec<SeekView>>>>,
    shown: Shown,
    /// The player's own seeks and challenges, read again when `own_stale`.
    own: Vec<Listed>,
    own_stale: bool,
    /// While it is open, the socket keeps its player's real-time seeks alive (they go about
    /// 20 s after the player's last lobby socket closes, on whatever instance) and notes the
    /// player's sign of life (who is online).
    /// (A logged-in player's socket only: a tick waiting is work the clock waits for.)
    alive: Option<crate::clock::Ticker>,
    beats: u32,
}

impl LobbyChannel {
    fn new(app: AppState, session: Option<Session>) -> LobbyChannel {
        let me = session.map(|s| s.key);
        let alive = me.as_ref().map(|_| app.clock.interval(KEEP_ALIVE_EVERY));
        LobbyChannel {
            events: app.lobby.notices(),
            public: app.lobby.public_seeks(),
            app,
            own_stale: me.is_some(),
            me,
            shown: Shown::default(),
            own: Vec::new(),
            alive,
            beats: 0,
        }
    }
}

impl Channel for LobbyChannel {
    type Update = Update;

    async fn settle(&mut self, out: &mut Outbox<'_>) -> Result<(), End> {
        if self.own_stale
            && let Some(key) = &self.me
        {
            if self.shown.started() {
                // Changes that come meanwhile are in the list read then.
                tokio::time::sleep(LOBBY_DELAY).await;
            }
            match self.app.lobby.own_seeks(key).await {
                Ok(listed) => {
                    self.own = listed;
                    self.own_stale = false;
                }
                Err(e) => {
                    let error = LobbyMessage::Error {
                        code: e.code,
                        message: &e.message,
                    };
                    out.say(error.to_text::<String>()).await?;
                }
            }
        }
        // Nothing is said until the instance has read the seeks once (it has just started).
        let read = self.public.borrow_and_update().clone();
        if let Some(public) = read
            && let Some(text) =
                self.shown
                    .message::<String>(Shown::visible(&public, &self.own, now_ms()))
        {
            out.say(text).await?;
        }
        Ok(())
    }

    async fn next(&mut self) -> Update {
        tokio::select! {
            changed = self.public.changed() => Update::Public(changed),
            Some(()) = async { self.alive.as_mut()?.tick().await; Some(()) } => Update::Alive,
            event = self.events.recv() => Update::Notice(event),
        }
    }

    async fn update(&mut self, update: Update, out: &mut Outbox<'_>) -> Result<(), End> {
        match update {
            Update::Public(changed) => changed.map_err(|_| End),
            Update::Alive => {
                let key = self.me.as_deref().unwrap_or_default();
                // Only a player with a real-time seek open to all has one to keep alive.
                let seeking = self.own.iter().any(|l| {
                    l.view.to.is_none() && l.view.speed == mabula_api::clock::Speed::Realtime
                });
                if seeking && let Err(e) = self.app.lobby.keep_alive(key).await {
                    tracing::debug!("cannot keep the seeks of {key} alive: {}", e.message);
                }
                // A sign of life every minute (the store writes at most that often anyway).
                if self.beats.is_multiple_of(12)
                    && let Err(e) = self.app.follows.seen(key).await
                {
                    tracing::debug!("cannot note a sign of life of {key}: {}", e.message);
                }
                self.beats = self.beats.wrapping_add(1);
                Ok(())
            }
            Update::Notice(Ok(Notice::User { key, what })) if Some(&key) == self.me.as_ref() => {
                match user_message(&what) {
                    Some(message) => out.say(message).await,
                    None => {
                        // Their seeks or challenges changed.
                        self.own_stale = true;
                        Ok(())
                    }
                }
            }
            Update::Notice(Ok(Notice::Back) | Err(RecvError::Lagged(_))) => {
                self.own_stale = true;
                Ok(())
            }
            Update::Notice(Ok(_)) => Ok(()),
            Update::Notice(Err(RecvError::Closed)) => Err(End),
        }
    }

    fn end(self) {}
}
