//! A typed client of the HTTP API, for tests, tools and the crash test of `mabula serve`.

use mabula_api::error::ErrorBody;
use mabula_api::view::{CreateGame, GameList, GameState, SeatGrant};
use serde::de::DeserializeOwned;
use serde_json::json;
use std::time::Duration;

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server answered an API error.
    #[error("{status} {}: {}", serde_json::to_string(&body.code).unwrap_or_default(), body.message)]
    Api {
        /// HTTP status.
        status: u16,
        /// The error body.
        body: ErrorBody,
    },
    /// The server could not be reached, or answered something unreadable.
    #[error("transport: {0}")]
    Transport(String),
}

impl ClientError {
    /// The API error code as JSON text (`"illegal_move"`), or `transport`.
    pub fn code(&self) -> String {
        match self {
            ClientError::Api { body, .. } => serde_json::to_value(body.code)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            ClientError::Transport(_) => "transport".into(),
        }
    }
}

/// A client of one server.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
}

impl Client {
    /// A client of the server at `base` (`http://127.0.0.1:8080`).
    pub fn new(base: &str) -> Client {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        Client {
            http,
            base: base.trim_end_matches('/').to_string(),
        }
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The WebSocket URL of a game.
    pub fn ws_url(&self, id: &str) -> String {
        let ws = self
            .base
            .replacen("http://", "ws://", 1)
            .replacen("https://", "wss://", 1);
        format!("{ws}/api/games/{id}/ws")
    }

    async fn send<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, ClientError> {
        let response = request
            .send()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        let status = response.status().as_u16();
        let bytes = response
            .bytes()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        if (200..300).contains(&status) {
            serde_json::from_slice(&bytes)
                .map_err(|e| ClientError::Transport(format!("bad answer: {e}")))
        } else {
            let body = serde_json::from_slice(&bytes).map_err(|e| {
                ClientError::Transport(format!("status {status} without an error body: {e}"))
            })?;
            Err(ClientError::Api { status, body })
        }
    }

    fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: serde_json::Value,
    ) -> reqwest::RequestBuilder {
        let r = self.http.post(format!("{}{path}", self.base)).json(&body);
        match token {
            Some(t) => r.bearer_auth(t),
            None => r,
        }
    }

    /// `GET /healthz`.
    pub async fn health(&self) -> Result<(), ClientError> {
        let _: serde_json::Value = self
            .send(self.http.get(format!("{}/healthz", self.base)))
            .await?;
        Ok(())
    }

    /// Creates a game.
    pub async fn create(&self, req: &CreateGame) -> Result<SeatGrant, ClientError> {
        let body = serde_json::to_value(req).map_err(|e| ClientError::Transport(e.to_string()))?;
        self.send(self.post("/api/games", None, body)).await
    }

    /// The state of a game.
    pub async fn state(&self, id: &str, token: Option<&str>) -> Result<GameState, ClientError> {
        let r = self.http.get(format!("{}/api/games/{id}", self.base));
        self.send(match token {
            Some(t) => r.bearer_auth(t),
            None => r,
        })
        .await
    }

    /// Plays a move.
    pub async fn play(
        &self,
        id: &str,
        token: &str,
        mv: &str,
        number: Option<u32>,
    ) -> Result<GameState, ClientError> {
        let body = match number {
            Some(n) => json!({ "move": mv, "number": n }),
            None => json!({ "move": mv }),
        };
        self.send(self.post(&format!("/api/games/{id}/moves"), Some(token), body))
            .await
    }

    /// Resigns.
    pub async fn resign(&self, id: &str, token: &str) -> Result<GameState, ClientError> {
        self.send(self.post(&format!("/api/games/{id}/resign"), Some(token), json!({})))
            .await
    }

    /// Takes back or offers to.
    pub async fn undo(&self, id: &str, token: &str) -> Result<GameState, ClientError> {
        self.send(self.post(&format!("/api/games/{id}/undo"), Some(token), json!({})))
            .await
    }

    /// Accepts an undo offer.
    pub async fn accept_undo(&self, id: &str, token: &str) -> Result<GameState, ClientError> {
        self.send(self.post(
            &format!("/api/games/{id}/undo/accept"),
            Some(token),
            json!({}),
        ))
        .await
    }

    /// Declines an undo offer.
    pub async fn decline_undo(&self, id: &str, token: &str) -> Result<GameState, ClientError> {
        self.send(self.post(
            &format!("/api/games/{id}/undo/decline"),
            Some(token),
            json!({}),
        ))
        .await
    }

    /// Claims a friend's seat.
    pub async fn join(&self, id: &str, code: &str) -> Result<SeatGrant, ClientError> {
        self.send(self.post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "code": code }),
        ))
        .await
    }

    /// Asks for a rematch.
    pub async fn rematch(&self, id: &str, token: &str) -> Result<SeatGrant, ClientError> {
        self.send(self.post(&format!("/api/games/{id}/rematch"), Some(token), json!({})))
            .await
    }

    /// Imports a record.
    pub async fn import(&self, record: &str) -> Result<SeatGrant, ClientError> {
        self.send(self.post("/api/games/import", None, json!({ "record": record })))
            .await
    }

    /// Lists games (`recent`, `live`, `finished`).
    pub async fn list(&self, filter: &str, limit: u32) -> Result<GameList, ClientError> {
        let url = format!("{}/api/games?filter={filter}&limit={limit}", self.base);
        self.send(self.http.get(url)).await
    }

    /// The game record.
    pub async fn record(&self, id: &str) -> Result<String, ClientError> {
        let response = self
            .http
            .get(format!("{}/api/games/{id}/record", self.base))
            .send()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        let status = response.status().as_u16();
        let text = response
            .text()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        if status == 200 {
            Ok(text)
        } else {
            let body =
                serde_json::from_str(&text).map_err(|e| ClientError::Transport(e.to_string()))?;
            Err(ClientError::Api { status, body })
        }
    }
}
