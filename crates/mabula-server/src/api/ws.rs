//! The live channel of a game: `GET /api/games/{id}/ws` (`docs/api.md`, section 5), served by
//! the session loop of [`super::live`] (caps, the message rate, closing).
//!
//! It waits for the client's `hello`, answers `sync` (the missed moves or everything) and then
//! forwards the game's broadcast changes in order, and its chat. The broadcast receiver is
//! created under the game's lock together with the `sync` snapshot, so every change after the
//! snapshot arrives exactly once.
//!
//! Its place among the open WebSockets depends on who opens it (issue 51): a seat holder known
//! at the handshake (by the session's account or a token header) takes a seat's place, which
//! spectators never fill, and is refused only when that seat holds its share already or every
//! place is a player's; a refusal still counts as a sign of life of the seat, so it is never
//! counted away for want of a place. Anyone else takes a spectator's place, which a seat holder
//! may take over (the spectator is told `too_many_connections` and the socket closes); when those
//! are full, the socket comes in on trial (a few per address) and must show a seat's token in
//! its `hello` within [`TRIAL_HELLO_TIMEOUT`], as a guest player does, or be closed.

use super::AppState;
use super::limits::Slot;
use super::live::{self, Channel, End, Frame, Outbox};
use crate::auth::Caller;
use crate::error::{ApiError, ErrorCode};
use crate::extract::{ClientAddr, MaybeSession};
use crate::model::Seats;
use crate::protocol::{ClientMessage, ServerMessage};
use crate::services::{GameHandle, Games, chat};
use axum::Router;
use axum::extract::ws::{Utf8Bytes, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use mabula_api::social::{ChatLine, ChatRoom};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Sleep;

/// The routes of the live channel.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/ws", get(upgrade))
}

/// How long a client may take to say `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a socket on trial may take to say a `hello` that proves a seat (real time: the
/// client's own speed, not the game's).
const TRIAL_HELLO_TIMEOUT: Duration = Duration::from_secs(5);

/// The live channel of a game: a WebSocket (the protocol is in `docs/api.md`, section 5).
#[utoipa::path(get, operation_id = "game_socket", path = "/api/games/{id}/ws", tag = "games",
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 101, description = "The connection is now a WebSocket"),
        (status = 400, description = "Not a WebSocket handshake, or an id that is not valid UTF-8 (`bad_request`)", body = crate::error::ErrorBody),
        (status = 403, description = "Opened by a page of another site (`csrf_failed`)", body = crate::error::ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 429, description = "Too many requests (`rate_limited`), or no place for this socket (`too_many_connections`): too many from this address, the spectators' places full, or this seat's own sockets at their cap; `Retry-After` says when to try again", body = crate::error::ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
async fn upgrade(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
    caller: Caller,
    MaybeSession(session): MaybeSession,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    live::same_site(&headers)?;
    let handle = app.games.handle(&id).await?;
    let ws = ws.map_err(|e| live::not_a_handshake(e.body_text()))?;
    let seats = {
        let slot = handle.slot.lock().await;
        caller.seats(&slot.game).unwrap_or_default()
    };
    let place = if seats.is_empty() {
        live::spectator_place(&app, client)?
    } else {
        app.websockets
            .take_seat(&seat_key(&id, seats))
            .inspect_err(|_| app.games.socket_refused(&handle, seats))?
    };
    let games = app.games.clone();
    let shutdown = app.shutdown.clone();
    // Chat (issue 36): this game's chat lines from every instance.
    let chat = app.chat.subscribe(&id);
    let ended = live::signed_out(app.clone(), session);
    Ok(ws
        .max_message_size(16 * 1024)
        // Clients send small messages, and tungstenite zero-fills its read buffer on every poll.
        .read_buffer_size(4 * 1024)
        .on_upgrade(move |socket| async move {
            let wait = if place.on_trial() {
                TRIAL_HELLO_TIMEOUT
            } else {
                HELLO_TIMEOUT
            };
            let channel = GameChannel {
                games,
                handle,
                account: caller.account,
                chat,
                events: None,
                registered: None,
                place,
                hello_deadline: Box::pin(tokio::time::sleep(wait)),
                hello_wait: wait,
            };
            live::serve_plain(channel, socket, ended, shutdown).await;
        }))
}

/// The key of `seats` of game `id` among the WebSockets' seat places.
fn seat_key(id: &str, seats: Seats) -> String {
    let side = match (seats.white, seats.black) {
        (true, true) => "both",
        (true, false) => "white",
        _ => "black",
    };
    format!("{id} {side}")
}

/// Who a session counts as in the presence.
type Registered = Option<Option<Seats>>;

/// What a game's socket waits for.
enum Update {
    /// A change of the game from its broadcast.
    Event(Result<Utf8Bytes, RecvError>),
    /// A line of the game's chat.
    Chat(Result<Arc<ChatLine>, RecvError>),
    /// The client has not said hello in time.
    NoHello,
    /// A seat holder took this spectator's place.
    Shed,
}

/// A game's live channel: nothing before the client's `hello`, then `sync` (the missed moves or
/// everything), the game's changes and its chat.
struct GameChannel {
    games: Arc<Games>,
    handle: Arc<GameHandle>,
    account: Option<String>,
    chat: broadcast::Receiver<Arc<ChatLine>>,
    /// The game's broadcast, from the hello on.
    events: Option<broadcast::Receiver<Utf8Bytes>>,
    registered: Registered,
    /// The socket's place among the open WebSockets, given back when the channel ends: a
    /// spectator's (which a seat holder may take over), a seat's, or one on trial until the
    /// hello proves a seat.
    place: Slot,
    hello_deadline: Pin<Box<Sleep>>,
    /// How long the client had for its hello.
    hello_wait: Duration,
}

impl GameChannel {
    /// Checks the hello's token, subscribes and builds the `sync` answer, under the game's lock;
    /// then counts the socket in the presence as whoever the hello says it is.
    async fn hello(
        &mut self,
        since: Option<u32>,
        epoch: Option<u32>,
        token: Option<&str>,
    ) -> Result<Utf8Bytes, ApiError> {
        let (games, handle) = (&self.games, &self.handle);
        let mut slot = handle.slot.lock().await;
        let seats = Games::seats_of_hello(&slot, token, self.account.clone())?;
        if seats.is_empty() {
            if self.place.on_trial() {
                return Err(no_place_for_spectators());
            }
        } else if let Err(e) = self.place.prove(&seat_key(&handle.id, seats)) {
            games.socket_refused(handle, seats);
            return Err(e);
        }
        games.catch_up(handle, &mut slot).await?;
        self.events = Some(handle.events.subscribe());
        let sync = games.sync_message(handle, &mut slot, since, epoch, seats);
        drop(slot);
        let who = if seats.is_empty() { None } else { Some(seats) };
        if self.registered != Some(who) {
            if let Some(old) = self.registered {
                games.presence_change(handle, old, -1);
            }
            games.presence_change(handle, who, 1);
            self.registered = Some(who);
        }
        Ok(sync)
    }
}

impl Channel for GameChannel {
    type Update = Update;

    async fn next(&mut self) -> Update {
        tokio::select! {
            event = next_event(&mut self.events) => Update::Event(event),
            // Chat (issue 36): after the hello.
            line = self.chat.recv(), if self.events.is_some() => Update::Chat(line),
            () = &mut self.hello_deadline, if self.events.is_none() => Update::NoHello,
            () = self.place.shed() => Update::Shed,
        }
    }

    async fn update(&mut self, update: Update, out: &mut Outbox<'_>) -> Result<(), End> {
        match update {
            Update::Event(Ok(text)) => out.say(text).await,
            Update::Event(Err(RecvError::Lagged(_))) => {
                // Fell behind: start over with everything.
                let seats = self.registered.flatten().unwrap_or_default();
                let mut slot = self.handle.slot.lock().await;
                self.events = Some(self.handle.events.subscribe());
                let sync = self
                    .games
                    .sync_message(&self.handle, &mut slot, None, None, seats);
                drop(slot);
                out.say(sync).await
            }
            Update::Event(Err(RecvError::Closed)) | Update::Chat(Err(RecvError::Closed)) => {
                Err(End)
            }
            Update::Chat(Ok(line)) => {
                // A players' room line only to a seat holder; a spectators' room line to a seat
                // holder only once the game is over.
                let seated = self.registered.flatten().is_some_and(|s| !s.is_empty());
                let playing = seated
                    && line.room == ChatRoom::Spectators
                    && !self.handle.slot.lock().await.game.is_over();
                if !chat::reaches(line.room, seated, playing) {
                    return Ok(());
                }
                out.say(ServerMessage::Chat { line: &line }.to_text::<String>())
                    .await
            }
            Update::Chat(Err(RecvError::Lagged(_))) => Ok(()),
            Update::NoHello if self.place.on_trial() => {
                out.last(error(
                    ErrorCode::TooManyConnections,
                    &no_place_for_spectators().message,
                ))
                .await
            }
            Update::NoHello => {
                let message = format!("no hello within {} seconds", self.hello_wait.as_secs());
                out.last(error(ErrorCode::BadRequest, &message)).await
            }
            Update::Shed => {
                out.last(error(
                    ErrorCode::TooManyConnections,
                    "a player needed this socket's place: try again later",
                ))
                .await
            }
        }
    }

    async fn heard(&mut self, frame: Frame, out: &mut Outbox<'_>) -> Result<(), End> {
        let text = match frame {
            Frame::Text(text) => text,
            Frame::Binary => {
                return out
                    .say(error(
                        ErrorCode::MalformedJson,
                        "binary messages are not read: send JSON text",
                    ))
                    .await;
            }
            Frame::Control | Frame::Close => return Ok(()),
        };
        match serde_json::from_str::<ClientMessage>(&text) {
            Ok(ClientMessage::Ping) => out.say(ServerMessage::Pong.to_text::<String>()).await,
            Ok(ClientMessage::Hello {
                since,
                epoch,
                token,
            }) => match self.hello(since, epoch, token.as_deref()).await {
                Ok(sync) => out.say(sync).await,
                Err(e) => out.last(error(e.code, &e.message)).await,
            },
            Err(e) => {
                let message = format!("not a client message: {e}");
                out.say(error(ErrorCode::MalformedJson, &message)).await
            }
        }
    }

    fn flooded(&self) -> Option<Utf8Bytes> {
        Some(error(ErrorCode::RateLimited, "too many messages: closing"))
    }

    fn end(self) {
        if let Some(who) = self.registered {
            self.games.presence_change(&self.handle, who, -1);
        }
    }
}

/// The refusal of a socket on trial that did not prove a seat.
fn no_place_for_spectators() -> ApiError {
    ApiError::new(
        ErrorCode::TooManyConnections,
        "the places for spectators are full and this hello holds no seat: try again later",
    )
}

/// An `error` message.
fn error(code: ErrorCode, message: &str) -> Utf8Bytes {
    ServerMessage::Error { code, message }.to_text()
}

async fn next_event(
    events: &mut Option<broadcast::Receiver<Utf8Bytes>>,
) -> Result<Utf8Bytes, RecvError> {
    match events {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}
