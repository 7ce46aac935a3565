//! A client of the bot API (issue 38) with a personal token: the newline-delimited JSON streams
//! (`GET /api/stream/event`, `GET /api/bot/game/stream/{id}`), moves, resigning, and the lobby's
//! seeks and challenges. Used by `mabula bot`.

use crate::client::ClientError;
use mabula_api::bots::{BotEvent, BotGameMessage};
use mabula_api::error::ErrorBody;
use mabula_api::lobby::{SeekList, SeekRequest, SeekView, Started};
use mabula_api::view::GameState;
use serde::de::DeserializeOwned;
use std::marker::PhantomData;
use std::time::Duration;

/// How long a stream may stay silent before it is taken for dead: the server sends a keep-alive
/// line every 7 s.
pub const STREAM_SILENCE: Duration = Duration::from_secs(20);

/// A bot's client of one server, with its personal token (`Authorization: Bearer`).
#[derive(Clone)]
pub struct BotClient {
    /// Calls: each answer within 30 s.
    http: reqwest::Client,
    /// Streams: no overall timeout (they last as long as a game).
    streams: reqwest::Client,
    base: String,
    token: String,
}

/// The lines of a newline-delimited JSON stream, read as `T`; keep-alive lines are skipped.
pub struct Ndjson<T> {
    response: reqwest::Response,
    buffer: Vec<u8>,
    _of: PhantomData<T>,
}

impl<T: DeserializeOwned> Ndjson<T> {
    /// The next message; `Ok(None)` when the server ended the stream; an error when the
    /// connection broke, a line is not a message, or nothing (not even a keep-alive) came for
    /// [`STREAM_SILENCE`].
    pub async fn next(&mut self) -> Result<Option<T>, ClientError> {
        loop {
            if let Some(i) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=i).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return serde_json::from_slice(&line).map(Some).map_err(|e| {
                    ClientError::Transport(format!(
                        "a line that is not a message ({e}): {}",
                        String::from_utf8_lossy(&line).trim_end()
                    ))
                });
            }
            match tokio::time::timeout(STREAM_SILENCE, self.response.chunk()).await {
                Err(_) => {
                    return Err(ClientError::Transport(format!(
                        "the stream was silent for {} s",
                        STREAM_SILENCE.as_secs()
                    )));
                }
                Ok(Err(e)) => return Err(ClientError::Transport(e.to_string())),
                Ok(Ok(None)) => return Ok(None),
                Ok(Ok(Some(bytes))) => self.buffer.extend_from_slice(&bytes),
            }
        }
    }
}

/// A path segment percent-encoded (moves hold `-`, `x` and may hold other signs).
fn segment(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

async fn answer<T: DeserializeOwned>(response: reqwest::Response) -> Result<T, ClientError> {
    let status = response.status().as_u16();
    let bytes = response
        .bytes()
        .await
        .map_err(|e| ClientError::Transport(e.to_string()))?;
    if (200..300).contains(&status) {
        let bytes: &[u8] = if bytes.is_empty() { b"null" } else { &bytes };
        serde_json::from_slice(bytes)
            .map_err(|e| ClientError::Transport(format!("bad answer: {e}")))
    } else {
        let body: ErrorBody = serde_json::from_slice(&bytes).map_err(|e| {
            ClientError::Transport(format!("status {status} without an error body: {e}"))
        })?;
        Err(ClientError::Api { status, body })
    }
}

impl BotClient {
    /// A client of the server at `base` (`https://mabula.example`) acting with `token`.
    pub fn new(base: &str, token: &str) -> BotClient {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        let streams = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        BotClient {
            http,
            streams,
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
        }
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    async fn stream<T: DeserializeOwned>(&self, path: &str) -> Result<Ndjson<T>, ClientError> {
        let response = self
            .streams
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        if !response.status().is_success() {
            return Err(answer::<serde_json::Value>(response)
                .await
                .err()
                .unwrap_or_else(|| ClientError::Transport("not a stream".into())));
        }
        Ok(Ndjson {
            response,
            buffer: Vec::new(),
            _of: PhantomData,
        })
    }

    /// `GET /api/stream/event`: the account's challenges and unfinished games first, then its
    /// events.
    pub async fn events(&self) -> Result<Ndjson<BotEvent>, ClientError> {
        self.stream("/api/stream/event").await
    }

    /// `GET /api/bot/game/stream/{id}`: the whole game, then each change.
    pub async fn game(&self, id: &str) -> Result<Ndjson<BotGameMessage>, ClientError> {
        self.stream(&format!("/api/bot/game/stream/{}", segment(id)))
            .await
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> Result<T, ClientError> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            request = request.json(&b);
        }
        let response = request
            .send()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        answer(response).await
    }

    /// `POST /api/bot/game/{id}/move/{mv}`.
    pub async fn play(&self, id: &str, mv: &str) -> Result<GameState, ClientError> {
        let path = format!("/api/bot/game/{}/move/{}", segment(id), segment(mv));
        self.call(reqwest::Method::POST, &path, Some(serde_json::json!({})))
            .await
    }

    /// `POST /api/bot/game/{id}/resign`.
    pub async fn resign(&self, id: &str) -> Result<GameState, ClientError> {
        let path = format!("/api/bot/game/{}/resign", segment(id));
        self.call(reqwest::Method::POST, &path, Some(serde_json::json!({})))
            .await
    }

    /// `POST /api/seeks/{id}/accept`: accepts a challenge (or a seek).
    pub async fn accept(&self, seek: &str) -> Result<Started, ClientError> {
        let path = format!("/api/seeks/{}/accept", segment(seek));
        self.call(reqwest::Method::POST, &path, Some(serde_json::json!({})))
            .await
    }

    /// `DELETE /api/seeks/{id}`: declines a challenge to the account, or withdraws its seek.
    pub async fn decline(&self, seek: &str) -> Result<(), ClientError> {
        let path = format!("/api/seeks/{}", segment(seek));
        let _: serde_json::Value = self.call(reqwest::Method::DELETE, &path, None).await?;
        Ok(())
    }

    /// `POST /api/seeks`: opens a seek.
    pub async fn seek(&self, request: &SeekRequest) -> Result<SeekView, ClientError> {
        let body =
            serde_json::to_value(request).map_err(|e| ClientError::Transport(e.to_string()))?;
        self.call(reqwest::Method::POST, "/api/seeks", Some(body))
            .await
    }

    /// `GET /api/seeks`: the open seeks (the account's own among them).
    pub async fn seeks(&self) -> Result<SeekList, ClientError> {
        self.call(reqwest::Method::GET, "/api/seeks", None).await
    }
}
