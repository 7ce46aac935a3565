//! A browser's view of the API for the players' tests: a session cookie, its CSRF token and
//! the device cookie, over real HTTP and WebSocket.

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The password of every test account.
pub const PASSWORD: &str = "correct horse battery";

/// A browser's view of the API: a session cookie and its CSRF token (none for a guest).
#[derive(Clone)]
pub struct Player {
    /// The HTTP client (its local address is the client's address).
    pub http: reqwest::Client,
    /// The instance it talks to.
    pub base: String,
    /// The session cookie (`name=value`).
    pub cookie: Option<String>,
    /// The session's CSRF token.
    pub csrf: Option<String>,
    /// The device cookie (`name=value`) this browser keeps from its last log-in.
    pub device: Option<String>,
}

impl Player {
    /// A guest with no cookies.
    pub fn guest(base: &str) -> Player {
        Player::guest_with(base, reqwest::Client::new())
    }

    /// A guest whose requests come from `address` (any of 127.0.0.0/8 on loopback).
    pub fn guest_from(base: &str, address: &str) -> Player {
        let http = reqwest::Client::builder()
            .local_address(Some(address.parse().expect("an address")))
            .build()
            .expect("a client");
        Player::guest_with(base, http)
    }

    fn guest_with(base: &str, http: reqwest::Client) -> Player {
        Player {
            http,
            base: base.trim_end_matches('/').to_string(),
            cookie: None,
            csrf: None,
            device: None,
        }
    }

    /// The same session, talking to another instance.
    pub fn on(&self, base: &str) -> Player {
        Player {
            base: base.trim_end_matches('/').to_string(),
            ..self.clone()
        }
    }

    /// A new account, logged in.
    pub async fn sign_up(base: &str, name: &str) -> Player {
        Player::guest(base).signed_up(name).await
    }

    /// This guest, signed up as `name` and logged in.
    pub async fn signed_up(mut self, name: &str) -> Player {
        let p = &mut self;
        let (status, body) = p
            .start_session("/api/accounts", json!({"name": name, "password": PASSWORD}))
            .await;
        assert_eq!(status, 201, "{body}");
        self
    }

    /// Posts credentials to `path`, with the device cookie if this browser keeps one; on
    /// success keeps the session cookie, the CSRF token and any new device cookie.
    pub async fn start_session(&mut self, path: &str, body: Value) -> (u16, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(d) = &self.device {
            req = req.header("cookie", d);
        }
        let r = req.send().await.expect("answer");
        let status = r.status().as_u16();
        let set = |name: &str| {
            r.headers()
                .get_all("set-cookie")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .map(|v| v.split(';').next().unwrap_or("").to_string())
                .find(|c| c.starts_with(&format!("{name}=")))
        };
        let (cookie, device) = (set("mabula_session"), set("mabula_device"));
        let body: Value = r.json().await.expect("JSON");
        if status < 300 {
            self.cookie = cookie;
            self.csrf = body["csrf"].as_str().map(String::from);
            if device.is_some() {
                self.device = device;
            }
        }
        (status, body)
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        csrf: bool,
    ) -> (u16, Value) {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header("cookie", c);
        }
        if csrf && let Some(t) = &self.csrf {
            req = req.header("x-csrf-token", t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.expect("answer");
        let status = r.status().as_u16();
        let text = r.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None, false).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body), true)
            .await
    }

    pub async fn delete(&self, path: &str) -> u16 {
        self.send(reqwest::Method::DELETE, path, None, true).await.0
    }

    /// Plays the first legal move of the game for this player, checking it is accepted.
    pub async fn play_first_legal(&self, id: &str) -> Value {
        let (_, state) = self.get(&format!("/api/games/{id}")).await;
        let mv = state["legal_moves"][0]["notation"]
            .as_str()
            .expect("a move")
            .to_string();
        let n = state["moves"].as_array().expect("moves").len() + 1;
        let (status, after) = self
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "number": n}),
            )
            .await;
        assert_eq!(status, 200, "{after}");
        after
    }

    /// The lobby's WebSocket with this player's cookie.
    pub async fn lobby(&self) -> Lobby {
        self.socket("/api/lobby/ws").await
    }

    /// A WebSocket at `path` with this player's cookie.
    pub async fn socket(&self, path: &str) -> Lobby {
        let url = format!("{}{path}", self.base.replacen("http", "ws", 1));
        let mut req = url.into_client_request().expect("request");
        if let Some(c) = &self.cookie {
            req.headers_mut()
                .insert("cookie", c.parse().expect("header"));
        }
        let (ws, _) = tokio_tungstenite::connect_async(req)
            .await
            .expect("a socket");
        Lobby { ws }
    }
}

pub struct Lobby {
    pub ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Lobby {
    /// The next message of type `kind`.
    pub async fn until(&mut self, kind: &str) -> Value {
        self.until_sized(kind).await.0
    }

    /// Reads `seeks_changed` messages until one is `done`; each must be small (at most two seeks
    /// in it, under a kilobyte).
    pub async fn changes_until(&mut self, done: impl Fn(&Value) -> bool) {
        loop {
            let (change, bytes) = self.until_sized("seeks_changed").await;
            let count = |k: &str| change[k].as_array().map_or(0, Vec::len);
            assert!(
                bytes < 1_000 && count("added") + count("removed") <= 2,
                "{bytes} bytes: {change}"
            );
            if done(&change) {
                return;
            }
        }
    }

    /// Waits for the server's end of a socket this side closed.
    pub async fn closed(&mut self) {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("the server's close within 20 s");
            match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    }

    /// The next message of type `kind`, and its size in bytes.
    pub async fn until_sized(&mut self, kind: &str) -> (Value, usize) {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a message within 20 s")
                .expect("open")
                .expect("readable");
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(&t).expect("JSON");
                if v["type"] == kind {
                    return (v, t.len());
                }
            }
        }
    }
}
