//! The live channel of a game: `GET /api/games/{id}/ws` (`docs/api.md`, section 5).
//!
//! The session loop is generic over a `Sink`/`Stream` of WebSocket messages, so it does not care
//! where the socket comes from. Opening one takes a place in [`AppState::websockets`] (capped per
//! client address and in all); every frame a client sends, text, binary or ping, counts against
//! its message rate. It waits for the client's `hello`, answers `sync` (the missed
//! moves or everything) and then forwards the game's broadcast changes in order. The broadcast
//! receiver is created under the game's lock together with the `sync` snapshot, so every change
//! after the snapshot arrives exactly once.

use super::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, ErrorCode};
use crate::extract::ClientAddr;
use crate::model::Seats;
use crate::protocol::{ClientMessage, ServerMessage};
use crate::services::{GameHandle, Games};
use axum::Router;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use mabula_api::social::{ChatLine, ChatRoom};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};

/// The routes of the live channel.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/ws", get(upgrade))
}

/// How long a client may take to say `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a closing session waits for the client's close.
const CLOSE_GRACE: Duration = Duration::from_secs(1);
/// Frames a client may send per second before the socket is closed.
const MAX_MESSAGES_PER_SECOND: u32 = 20;

/// The live channel of a game: a WebSocket (the protocol is in `docs/api.md`, section 5).
#[utoipa::path(get, operation_id = "game_socket", path = "/api/games/{id}/ws", tag = "games",
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 101, description = "The connection is now a WebSocket"),
        (status = 400, description = "Not a WebSocket handshake, or an id that is not valid UTF-8 (`bad_request`)", body = crate::error::ErrorBody),
        (status = 403, description = "Opened by a page of another site (`csrf_failed`)", body = crate::error::ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
async fn upgrade(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
    caller: Caller,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    if crate::extract::from_another_site(&headers) {
        return Err(ApiError::new(
            ErrorCode::CsrfFailed,
            "this socket was opened by a page of another site",
        ));
    }
    let handle = app.games.handle(&id).await?;
    let ws = ws.map_err(|e| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("this endpoint speaks WebSocket only: {}", e.body_text()),
        )
    })?;
    let slot = app.websockets.take(client, true).inspect_err(|_| {
        tracing::debug!(%client, "WebSocket refused: over a cap");
    })?;
    let games = app.games.clone();
    let shutdown = app.shutdown.clone();
    // Chat (issue 36): this game's chat lines from every instance.
    let chat = app.chat.subscribe(&id);
    Ok(ws
        .max_message_size(16 * 1024)
        // Clients send small messages, and tungstenite zero-fills its read buffer on every poll.
        .read_buffer_size(4 * 1024)
        .on_upgrade(move |socket| async move {
            let (sink, stream) = socket.split();
            session(games, handle, sink, stream, shutdown, caller.account, chat).await;
            drop(slot);
        }))
}

/// What a client's frame is, as far as the session cares.
enum Frame {
    Text(Utf8Bytes),
    Binary,
    /// A ping or a pong.
    Control,
}

/// Who a session counts as in the presence.
type Registered = Option<Option<Seats>>;

/// Runs one WebSocket session until the client leaves or the server stops.
pub async fn session<Si, St, E>(
    games: Arc<Games>,
    handle: Arc<GameHandle>,
    mut sink: Si,
    mut stream: St,
    mut shutdown: watch::Receiver<bool>,
    account: Option<String>,
    mut chat: broadcast::Receiver<Arc<ChatLine>>,
) where
    Si: Sink<Message> + Unpin,
    St: Stream<Item = Result<Message, E>> + Unpin,
{
    let mut events: Option<broadcast::Receiver<Utf8Bytes>> = None;
    let mut registered: Registered = None;
    let deadline = tokio::time::sleep(HELLO_TIMEOUT);
    tokio::pin!(deadline);
    let mut window = (Instant::now(), 0u32);
    loop {
        tokio::select! {
            incoming = stream.next() => {
                // Every frame counts, whatever its kind: each costs the server some work.
                let frame = match incoming {
                    Some(Ok(Message::Text(t))) => Frame::Text(t),
                    Some(Ok(Message::Binary(_))) => Frame::Binary,
                    // tungstenite has answered a ping already.
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Frame::Control,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                if window.0.elapsed() >= Duration::from_secs(1) {
                    window = (Instant::now(), 0);
                }
                window.1 += 1;
                if window.1 > MAX_MESSAGES_PER_SECOND {
                    let msg = ServerMessage::Error { code: ErrorCode::RateLimited, message: "too many messages: closing" };
                    let _ = sink.send(Message::Text(msg.to_text())).await;
                    break;
                }
                let text = match frame {
                    Frame::Text(text) => text,
                    Frame::Binary => {
                        let msg = ServerMessage::Error { code: ErrorCode::MalformedJson, message: "binary messages are not read: send JSON text" };
                        if sink.send(Message::Text(msg.to_text())).await.is_err() { break; }
                        continue;
                    }
                    Frame::Control => continue,
                };
                match serde_json::from_str::<ClientMessage>(&text) {
                    Ok(ClientMessage::Ping) => {
                        if sink.send(Message::Text(ServerMessage::Pong.to_text())).await.is_err() { break; }
                    }
                    Ok(ClientMessage::Hello { since, epoch, token }) => {
                        match hello(&games, &handle, since, epoch, token.as_deref(), account.clone()).await {
                            Ok((rx, sync, seats)) => {
                                events = Some(rx);
                                let who = if seats.is_empty() { None } else { Some(seats) };
                                if registered != Some(who) {
                                    if let Some(old) = registered {
                                        games.presence_change(&handle, old, -1);
                                    }
                                    games.presence_change(&handle, who, 1);
                                    registered = Some(who);
                                }
                                if sink.send(Message::Text(sync)).await.is_err() { break; }
                            }
                            Err(e) => {
                                let msg = ServerMessage::Error { code: e.code, message: &e.message };
                                let _ = sink.send(Message::Text(msg.to_text())).await;
                                break;
                            }
                        }
                    }
                    Err(e) => {
                        let message = format!("not a client message: {e}");
                        let msg = ServerMessage::Error { code: ErrorCode::MalformedJson, message: &message };
                        if sink.send(Message::Text(msg.to_text())).await.is_err() { break; }
                    }
                }
            }
            event = next_event(&mut events) => {
                match event {
                    Ok(text) => {
                        if sink.send(Message::Text(text)).await.is_err() { break; }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Fell behind: start over with everything.
                        let seats = registered.flatten().unwrap_or_default();
                        let (rx, sync) = resync(&games, &handle, seats).await;
                        events = Some(rx);
                        if sink.send(Message::Text(sync)).await.is_err() { break; }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
            // Chat (issue 36): after the hello; a players' room line only to a seat holder.
            line = chat.recv(), if events.is_some() => {
                match line {
                    Ok(line) => {
                        let seated = registered.flatten().is_some_and(|s| !s.is_empty());
                        if line.room == ChatRoom::Players && !seated {
                            continue;
                        }
                        let msg = ServerMessage::Chat { line: &line };
                        if sink.send(Message::Text(msg.to_text())).await.is_err() { break; }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
            () = &mut deadline, if events.is_none() => {
                let msg = ServerMessage::Error { code: ErrorCode::BadRequest, message: "no hello within 30 seconds" };
                let _ = sink.send(Message::Text(msg.to_text())).await;
                break;
            }
            _ = shutdown.changed() => {
                let frame = CloseFrame { code: 1001, reason: Utf8Bytes::from_static("server shutting down") };
                let _ = sink.send(Message::Close(Some(frame))).await;
                break;
            }
        }
    }
    if let Some(who) = registered {
        games.presence_change(&handle, who, -1);
    }
    let _ = sink.close().await;
    // Read on until the client answers the close, a second at most: dropping a socket with
    // unread frames resets the connection, and the reset can overtake our last messages.
    let drain = async { while let Some(Ok(_)) = stream.next().await {} };
    let _ = tokio::time::timeout(CLOSE_GRACE, drain).await;
}

async fn next_event(
    events: &mut Option<broadcast::Receiver<Utf8Bytes>>,
) -> Result<Utf8Bytes, broadcast::error::RecvError> {
    match events {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// Checks the hello's token, subscribes and builds the `sync` answer, under the game's lock.
async fn hello(
    games: &Arc<Games>,
    handle: &Arc<GameHandle>,
    since: Option<u32>,
    epoch: Option<u32>,
    token: Option<&str>,
    account: Option<String>,
) -> Result<(broadcast::Receiver<Utf8Bytes>, Utf8Bytes, Seats), ApiError> {
    let mut slot = handle.slot.lock().await;
    let seats = Games::seats_of_hello(&slot, token, account)?;
    games.catch_up(handle, &mut slot).await?;
    let rx = handle.events.subscribe();
    let sync = games.sync_message(handle, &mut slot, since, epoch, seats);
    Ok((rx, sync, seats))
}

async fn resync(
    games: &Arc<Games>,
    handle: &Arc<GameHandle>,
    seats: Seats,
) -> (broadcast::Receiver<Utf8Bytes>, Utf8Bytes) {
    let mut slot = handle.slot.lock().await;
    let rx = handle.events.subscribe();
    let sync = games.sync_message(handle, &mut slot, None, None, seats);
    (rx, sync)
}
