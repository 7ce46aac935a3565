//! The one WebSocket session loop of the live channels: a game's (`api::ws`), the lobby's
//! (`api::lobby`) and a tournament's (`api::tournaments`).
//!
//! Opening one takes a place in [`AppState::websockets`] (capped per client address and in all;
//! a game's socket takes a spectator's or a seat's place: see `api::ws`).
//! The loop reads the client's frames, each one, whatever its kind, counted against a window of
//! `MAX_MESSAGES_PER_SECOND` (a flood closes the socket); it forwards what the channel has to
//! say; when the server stops it sends the close `1001 server shutting down`. Each channel
//! supplies only what differs, as a [`Channel`]: what it says before each wait (a first state,
//! the lobby's list), what it waits for (a game's broadcast, the cluster's notices), what it
//! says of each, and how it answers a client's message (a game's `hello` and `ping`).
//!
//! A socket opened with a session closes (`1008 session ended`) as soon as that session ends
//! on any instance: logged out, the password changed, the account closed or deleted
//! ([`signed_out`]).
//!
//! A game's socket speaks axum's WebSocket (tungstenite), uncompressed; the lobby's and a
//! tournament's speak yawc, compressed with permessage-deflate when the client offers it. Both
//! are adapted to the same [`Frame`]s in and `Outgoing` messages out.

use super::AppState;
use super::limits::Slot;
use crate::auth::Session;
use crate::error::{ApiError, ErrorCode};
use crate::services::cluster::SIGNED_OUT;
use crate::store::Notice;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use axum::response::Response;
use futures_util::{Sink, SinkExt, Stream, StreamExt, future};
use std::future::Future;
use std::net::IpAddr;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

/// Frames a client may send per second before the socket is closed.
const MAX_MESSAGES_PER_SECOND: u32 = 20;
/// How long a closing game socket waits for the client's close.
const CLOSE_GRACE: Duration = Duration::from_secs(1);
/// How often a live channel checks its session anyway (an announcement may be lost).
const RECHECK_SESSION: Duration = Duration::from_secs(60);

/// A client's frame, as far as a channel cares.
pub enum Frame {
    /// A text message.
    Text(Utf8Bytes),
    /// A binary message.
    Binary,
    /// A ping or a pong (the library has answered a ping already).
    Control,
    /// The client's close, or the connection's end.
    Close,
}

/// A message to the client.
enum Outgoing {
    /// A text message.
    Text(Utf8Bytes),
    /// The close frame, with its code and reason.
    Close(u16, &'static str),
}

/// The session ends (the channel said so, or the client cannot be written to).
pub struct End;

/// What a channel writes to its client through.
pub struct Outbox<'a> {
    sink: &'a mut (dyn Sink<Outgoing, Error = ()> + Send + Unpin),
}

impl Outbox<'_> {
    /// Sends a text message; a client that cannot be written to ends the session.
    pub async fn say(&mut self, text: impl Into<Utf8Bytes>) -> Result<(), End> {
        self.sink
            .send(Outgoing::Text(text.into()))
            .await
            .map_err(|()| End)
    }

    /// Sends a last text message, whether or not it reaches the client, and ends the session.
    pub async fn last(&mut self, text: impl Into<Utf8Bytes>) -> Result<(), End> {
        let _ = self.say(text).await;
        Err(End)
    }
}

/// What one kind of live channel supplies to the session loop.
pub trait Channel: Send {
    /// Something the channel waited for.
    type Update: Send;

    /// Says what is due before the loop waits again (every turn of the loop, the client's frames
    /// unread meanwhile): nothing by default.
    fn settle(&mut self, out: &mut Outbox<'_>) -> impl Future<Output = Result<(), End>> + Send {
        let _ = out;
        future::ready(Ok(()))
    }

    /// Waits for the next update (cancel-safe: the loop drops it when a frame comes first).
    fn next(&mut self) -> impl Future<Output = Self::Update> + Send;

    /// Says what an update brings.
    fn update(
        &mut self,
        update: Self::Update,
        out: &mut Outbox<'_>,
    ) -> impl Future<Output = Result<(), End>> + Send;

    /// Answers a client's frame (not its close): nothing by default, as for sockets whose
    /// clients only ping.
    fn heard(
        &mut self,
        frame: Frame,
        out: &mut Outbox<'_>,
    ) -> impl Future<Output = Result<(), End>> + Send {
        let _ = (frame, out);
        future::ready(Ok(()))
    }

    /// The last message before a flood closes the socket: none by default.
    fn flooded(&self) -> Option<Utf8Bytes> {
        None
    }

    /// The session has ended (before the socket is closed).
    fn end(self);
}

/// Refuses a socket opened by a page of another site (`403 csrf_failed`).
pub fn same_site(headers: &axum::http::HeaderMap) -> Result<(), ApiError> {
    if crate::extract::from_another_site(headers) {
        return Err(ApiError::new(
            ErrorCode::CsrfFailed,
            "this socket was opened by a page of another site",
        ));
    }
    Ok(())
}

/// `400 bad_request` for a request that is not a WebSocket handshake.
pub fn not_a_handshake(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        ErrorCode::BadRequest,
        format!("this endpoint speaks WebSocket only: {e}"),
    )
}

/// Resolves when `session` ends: its cookie session or personal token is no longer stored
/// (logged out, the password changed, the token revoked, the account closed or deleted). It is
/// read at once, again when any instance says the account signed out or the notices' listener
/// is back after a loss, and every [`RECHECK_SESSION`] in any case. Never, for a guest.
pub async fn signed_out(app: AppState, session: Option<Session>) {
    let Some(session) = session else {
        return future::pending().await;
    };
    let mut notices = app.cluster.notices();
    let start = tokio::time::Instant::now() + RECHECK_SESSION;
    let mut every = tokio::time::interval_at(start, RECHECK_SESSION);
    loop {
        let stands = match session.grant {
            Some(_) => app.tokens.stands(&session.id_hash).await,
            None => app.accounts.stands(&session.id_hash).await,
        };
        // A database that does not answer ends nothing.
        if let Ok(false) = stands {
            return;
        }
        loop {
            tokio::select! {
                notice = notices.recv() => match notice {
                    Ok(Notice::User { key, what }) if key == session.key && what == SIGNED_OUT => break,
                    Ok(Notice::Back) => break,
                    // A lagging channel finds out at its next periodic check.
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return future::pending().await,
                },
                _ = every.tick() => break,
            }
        }
    }
}

/// Takes a lobby or tournament socket's place in the caps of open WebSockets (`429
/// too_many_connections`), if its address has not opened too many of them lately (`429
/// rate_limited`, with `Retry-After`): each new one is sent a whole list.
pub fn place(app: &AppState, client: IpAddr) -> Result<Slot, ApiError> {
    if let Err(secs) = app.socket_opens.check(client) {
        tracing::debug!(%client, "WebSocket refused: opened too often");
        let mut err = ApiError::new(
            ErrorCode::RateLimited,
            format!("too many sockets opened from your address: retry in {secs} s"),
        );
        err.retry_after = Some(secs);
        return Err(err);
    }
    app.websockets.take(client, true).inspect_err(|_| {
        tracing::debug!(%client, "WebSocket refused: over a cap");
    })
}

/// Takes the place of a game socket that holds no seat at its handshake: a spectator's place
/// (a seat holder may take it over), else, when those are full, a place on trial for a guest
/// player whose `hello` will prove a seat (`429 too_many_connections` when neither is free).
pub fn spectator_place(app: &AppState, client: IpAddr) -> Result<Slot, ApiError> {
    app.websockets
        .take_spectator(client, true)
        .or_else(|full| app.websockets.take_on_trial(client).map_err(|_| full))
        .inspect_err(|_| {
            tracing::debug!(%client, "game WebSocket refused: over a cap");
        })
}

/// Serves a game's socket (axum's, uncompressed) with `channel` until it ends.
pub async fn serve_plain<C: Channel>(
    channel: C,
    socket: WebSocket,
    ended: impl Future<Output = ()> + Send,
    shutdown: watch::Receiver<bool>,
) {
    let (sink, stream) = socket.split();
    let sink = sink.with(|out: Outgoing| {
        future::ready(Ok::<_, axum::Error>(match out {
            Outgoing::Text(text) => Message::Text(text),
            Outgoing::Close(code, reason) => Message::Close(Some(CloseFrame {
                code,
                reason: Utf8Bytes::from_static(reason),
            })),
        }))
    });
    let stream = stream.map(|message| match message {
        Ok(Message::Text(text)) => Frame::Text(text),
        Ok(Message::Binary(_)) => Frame::Binary,
        Ok(Message::Ping(_) | Message::Pong(_)) => Frame::Control,
        Ok(Message::Close(_)) | Err(_) => Frame::Close,
    });
    session(channel, sink, stream, ended, shutdown, true).await;
}

/// Upgrades a handshake to a socket compressed with permessage-deflate when the client offers
/// it (yawc), and serves it with `channel` in a task of its own that holds `slot`.
pub fn serve_deflate<C: Channel + 'static>(
    ws: yawc::IncomingUpgrade,
    slot: Slot,
    channel: C,
    ended: impl Future<Output = ()> + Send + 'static,
    shutdown: watch::Receiver<bool>,
) -> Result<Response, ApiError> {
    let options = yawc::Options::default()
        .with_compression_level(yawc::CompressionLevel::fast())
        .with_max_payload_read(4 * 1024);
    let (response, socket) = ws.upgrade(options).map_err(not_a_handshake)?;
    tokio::spawn(async move {
        if let Ok(socket) = socket.await {
            let (sink, stream) = socket.split();
            let sink = sink.with(|out: Outgoing| {
                future::ready(Ok::<_, yawc::WebSocketError>(match out {
                    Outgoing::Text(text) => yawc::frame::Frame::text(text),
                    Outgoing::Close(code, reason) => yawc::frame::Frame::close(code.into(), reason),
                }))
            });
            let stream = stream.map(|frame| match frame.opcode() {
                yawc::frame::OpCode::Close => Frame::Close,
                yawc::frame::OpCode::Text => {
                    Utf8Bytes::try_from(frame.into_payload()).map_or(Frame::Binary, Frame::Text)
                }
                yawc::frame::OpCode::Binary => Frame::Binary,
                _ => Frame::Control,
            });
            session(channel, sink, stream, ended, shutdown, false).await;
        }
        drop(slot);
    });
    Ok(response.map(axum::body::Body::new))
}

/// The session loop: until the client leaves, floods, the channel ends it, `ended` resolves (the
/// account's session ended) or the server stops.
/// `drain`: read on after closing until the client answers the close, a second at most
/// (tungstenite's closing handshake: dropping a socket with unread frames resets the
/// connection, and the reset can overtake the last messages).
async fn session<C, Si, St>(
    mut channel: C,
    sink: Si,
    mut stream: St,
    ended: impl Future<Output = ()> + Send,
    mut shutdown: watch::Receiver<bool>,
    drain: bool,
) where
    C: Channel,
    Si: Sink<Outgoing> + Send + Unpin,
    St: Stream<Item = Frame> + Send + Unpin,
{
    let mut sink = sink.sink_map_err(|_| ());
    let mut out = Outbox { sink: &mut sink };
    let mut window = (Instant::now(), 0u32);
    let mut ended = std::pin::pin!(ended);
    loop {
        if channel.settle(&mut out).await.is_err() {
            break;
        }
        let step = tokio::select! {
            frame = stream.next() => {
                let frame = match frame {
                    Some(Frame::Close) | None => break,
                    Some(frame) => frame,
                };
                // Every frame counts, whatever its kind: each costs the server some work.
                if window.0.elapsed() >= Duration::from_secs(1) {
                    window = (Instant::now(), 0);
                }
                window.1 += 1;
                if window.1 > MAX_MESSAGES_PER_SECOND {
                    if let Some(text) = channel.flooded() {
                        let _ = out.say(text).await;
                    }
                    break;
                }
                channel.heard(frame, &mut out).await
            }
            update = channel.next() => channel.update(update, &mut out).await,
            _ = shutdown.changed() => {
                let _ = out.sink.send(Outgoing::Close(1001, "server shutting down")).await;
                break;
            }
            () = &mut ended => {
                let _ = out.sink.send(Outgoing::Close(1008, "session ended")).await;
                break;
            }
        };
        if step.is_err() {
            break;
        }
    }
    channel.end();
    let _ = sink.close().await;
    if drain {
        let rest = async {
            while let Some(Frame::Text(_) | Frame::Binary | Frame::Control) = stream.next().await {}
        };
        let _ = tokio::time::timeout(CLOSE_GRACE, rest).await;
    }
}
