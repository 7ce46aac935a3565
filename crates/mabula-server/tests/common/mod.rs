//! A real server on 127.0.0.1:0 with a fresh database, and clients that speak to it over real
//! HTTP and WebSocket connections.

use futures_util::{SinkExt, StreamExt};
use mabula_client::client::Client;
use mabula_server::ServerConfig;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A running server.
pub struct TestServer {
    pub addr: SocketAddr,
    pub base: String,
    pub client: Client,
    pub http: reqwest::Client,
    pub database: String,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<Result<(), mabula_server::ServerError>>>,
    _dir: Option<tempfile::TempDir>,
}

/// Settings for tests: no rate limit and no limit of sign-ups (the load test makes accounts
/// for as long as it runs), a quick engine.
pub fn test_config(database: &str) -> ServerConfig {
    let mut config = ServerConfig::new(database);
    config.rate_limit = 0.0;
    config.services.signups_per_address_hour = 0;
    config.services.engine_threads = 2;
    config.services.engine_movetime = Duration::from_millis(20);
    config
}

impl TestServer {
    /// A server on a fresh SQLite file.
    pub async fn start() -> TestServer {
        TestServer::start_with(|_| {}).await
    }

    /// A server on a fresh SQLite file, with changed settings.
    pub async fn start_with(change: impl FnOnce(&mut ServerConfig)) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("test.sqlite3").display().to_string();
        let mut config = test_config(&db);
        change(&mut config);
        TestServer::start_config(config, Some(dir)).await
    }

    /// A server with `config`.
    pub async fn start_config(config: ServerConfig, dir: Option<tempfile::TempDir>) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let database = config.database.clone();
        let task = tokio::spawn(mabula_server::run(listener, config, async move {
            let _ = stopped.await;
        }));
        let base = format!("http://{addr}");
        let client = Client::new(&base);
        for _ in 0..200 {
            if client.health().await.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        TestServer {
            addr,
            base,
            client,
            http: reqwest::Client::new(),
            database,
            stop: Some(stop),
            task: Some(task),
            _dir: dir,
        }
    }

    /// Stops the server gracefully and waits for it; keeps the database directory.
    pub async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task").expect("server ran");
        }
    }

    /// Takes the database directory (to restart on it).
    pub fn take_dir(&mut self) -> Option<tempfile::TempDir> {
        self._dir.take()
    }

    /// A raw request; answers the status, and the body as JSON (or a JSON string for text).
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut r = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        let response = r.send().await.expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// `POST` with a JSON body.
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        self.call("POST", path, token, Some(body)).await
    }

    /// `GET`.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.call("GET", path, token, None).await
    }

    /// Creates a game from JSON settings; answers the grant.
    pub async fn create(&self, settings: Value) -> Value {
        let (status, grant) = self.post("/api/games", None, settings).await;
        assert_eq!(status, 201, "{grant}");
        grant
    }

    /// Opens a WebSocket on a game (without saying hello).
    pub async fn ws(&self, id: &str) -> Ws {
        let (socket, _) = tokio_tungstenite::connect_async(self.client.ws_url(id))
            .await
            .expect("ws connect");
        Ws { socket }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A WebSocket client.
pub struct Ws {
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Ws {
    /// Sends a JSON message.
    pub async fn send(&mut self, value: Value) {
        self.socket
            .send(Message::text(value.to_string()))
            .await
            .expect("ws send");
    }

    /// Says hello; answers the `sync`.
    pub async fn hello(
        &mut self,
        since: Option<u32>,
        epoch: Option<u32>,
        token: Option<&str>,
    ) -> Value {
        self.send(json!({ "type": "hello", "since": since, "epoch": epoch, "token": token }))
            .await;
        self.recv_type("sync").await
    }

    /// The next message (within 10 s); `Value::Null` when the socket closed.
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("a WebSocket message within 10 s");
            match msg {
                Some(Ok(Message::Text(t))) => {
                    return serde_json::from_str(t.as_str()).expect("JSON message");
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Value::Null,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next message of type `ty`, skipping presence messages; panics on another type.
    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == "presence" && ty != "presence" {
                continue;
            }
            assert_eq!(v["type"], ty, "expected a {ty} message, got {v}");
            return v;
        }
    }

    /// The next message that is not presence, if one comes within `wait`.
    pub async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match tokio::time::timeout(left, self.socket.next()).await {
                Err(_) => return None,
                Ok(Some(Ok(Message::Text(t)))) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("JSON message");
                    if v["type"] != "presence" {
                        return Some(v);
                    }
                }
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => {
                    return Some(Value::Null);
                }
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Waits for a presence message matching `check`.
    pub async fn presence_until(&mut self, check: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == "presence" && check(&v) {
                return v;
            }
        }
    }
}

/// The legal moves of a state, in notation.
pub fn legal(state: &Value) -> Vec<String> {
    state["legal_moves"]
        .as_array()
        .expect("legal moves")
        .iter()
        .map(|m| m["notation"].as_str().expect("notation").to_string())
        .collect()
}

/// The moves of a state, in notation.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["notation"].as_str().expect("notation").to_string())
        .collect()
}

/// A small deterministic chooser for test games.
pub fn pick(options: &[String], salt: usize) -> String {
    options[(salt * 7 + 3) % options.len()].clone()
}
