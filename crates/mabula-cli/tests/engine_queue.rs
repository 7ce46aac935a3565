//! The engine queue under load, over real sockets on a real `mabula serve` (issue 35): engine
//! moves take the engine in turns, so a level-1 reply comes quickly while ten addresses keep
//! thirty level-10 games thinking on one engine thread; and engine games are capped per client
//! address. The addresses are told apart by `X-Forwarded-For` from a trusted proxy (the test).

use crate::common;

use common::Instance;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The engine searches `server` has begun: its waits for an engine slot, one per search (a
/// paused search's later turns are not counted).
async fn searches_begun(server: &Instance) -> u64 {
    common::metric(server.client.base(), "mabula_engine_wait_seconds_count").await
}

/// The API as one client address sees it, behind the trusted proxy.
struct Address {
    http: reqwest::Client,
    base: String,
    address: String,
}

impl Address {
    fn new(server: &Instance, address: &str) -> Address {
        Address {
            http: reqwest::Client::new(),
            base: server.client.base().to_string(),
            address: address.to_string(),
        }
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> (u16, Value) {
        let r = req
            .header("x-forwarded-for", &self.address)
            .send()
            .await
            .expect("an answer");
        let status = r.status().as_u16();
        (status, r.json().await.expect("JSON"))
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        self.send(req).await
    }

    /// Creates an engine game at `level` thinking `movetime_ms` a move, the engine playing
    /// first if `engine_first`.
    async fn engine_game(&self, level: u8, movetime_ms: u32, engine_first: bool) -> (u16, Value) {
        let color = if engine_first { "black" } else { "white" };
        let body = json!({
            "mode": "engine",
            "color": color,
            "engine_level": level,
            "engine_movetime_ms": movetime_ms,
        });
        self.post("/api/games", None, body).await
    }

    async fn state(&self, id: &str) -> Value {
        let req = self.http.get(format!("{}/api/games/{id}", self.base));
        let (status, body) = self.send(req).await;
        assert_eq!(status, 200, "{body}");
        body
    }
}

fn moves(state: &Value) -> usize {
    state["moves"].as_array().expect("moves").len()
}

fn game_id(grant: &Value) -> String {
    grant["game_id"].as_str().expect("game_id").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_one_reply_comes_within_3_s_while_ten_addresses_keep_thirty_level_ten_games_thinking()
 {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("games.sqlite3");
    let server = Instance::start_with(
        &database.display().to_string(),
        1000,
        &["--engine-threads", "1", "--trusted-proxy", "127.0.0.1"],
    );

    // Ten addresses, three level-10 games each, 10 s a move, the engine to move in all.
    let mut long = Vec::new();
    for a in 1..=10 {
        let address = Address::new(&server, &format!("10.0.0.{a}"));
        for _ in 0..3 {
            let (status, grant) = address.engine_game(10, 10_000, true).await;
            assert_eq!(status, 201, "{grant}");
            long.push(game_id(&grant));
        }
    }
    let watcher = Address::new(&server, "10.0.1.1");
    // Until as many of them as may think at once on the one engine thread have begun (each
    // then waits, paused, for its next turn; the others wait in the queue): the engine's waits
    // counted by /metrics, one per search begun.
    let at_once = mabula_server::engine::LONG_PER_THREAD as u64;
    let began = Instant::now();
    while searches_begun(&server).await < at_once {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "the searches did not begin"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The victim plays three moves against level 1; each reply is timed.
    let victim = Address::new(&server, "10.0.2.1");
    let (status, grant) = victim.engine_game(1, 1000, false).await;
    assert_eq!(status, 201, "{grant}");
    let (id, token) = (game_id(&grant), grant["token"].as_str().expect("token"));
    let mut state = victim.state(&id).await;
    let mut replies = Vec::new();
    for _ in 0..3 {
        let before = moves(&state);
        let mv = state["legal_moves"][0]["notation"]
            .as_str()
            .expect("a legal move")
            .to_string();
        let asked = Instant::now();
        let path = format!("/api/games/{id}/moves");
        let (status, body) = victim.post(&path, Some(token), json!({"move": mv})).await;
        assert_eq!(status, 200, "{body}");
        loop {
            state = victim.state(&id).await;
            if moves(&state) >= before + 2 || asked.elapsed() > Duration::from_secs(30) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let took = asked.elapsed();
        assert_eq!(moves(&state), before + 2, "level 1 replied");
        replies.push(took);
    }
    eprintln!("level-1 replies under load: {replies:?}");
    for took in &replies {
        assert!(*took < Duration::from_secs(3), "replies took {replies:?}");
    }

    // The thirty games were still thinking all along: 10 s a move on a shared thread.
    for id in &long {
        let s = watcher.state(id).await;
        assert_eq!(moves(&s), 0, "game {id} still thinking: {s}");
        assert_eq!(s["engine_thinking"], true, "{s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_games_are_capped_per_address() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("games.sqlite3");
    let server = Instance::start_with(
        &database.display().to_string(),
        20,
        &[
            "--trusted-proxy",
            "127.0.0.1",
            "--max-engine-games-per-address",
            "2",
        ],
    );
    let a = Address::new(&server, "10.0.0.1");
    let mut grants = Vec::new();
    for _ in 0..2 {
        let (status, grant) = a.engine_game(1, 20, false).await;
        assert_eq!(status, 201, "{grant}");
        grants.push(grant);
    }
    let (status, body) = a.engine_game(1, 20, false).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["code"], "rate_limited", "{body}");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("2 unfinished engine games")),
        "{body}"
    );

    // Other games, and other addresses, are not held back.
    let (status, body) = a.post("/api/games", None, json!({"mode": "local"})).await;
    assert_eq!(status, 201, "{body}");
    let b = Address::new(&server, "10.0.0.2");
    let (status, body) = b.engine_game(1, 20, false).await;
    assert_eq!(status, 201, "{body}");

    // A game that ends makes room.
    let id = game_id(&grants[0]);
    let token = grants[0]["token"].as_str().expect("token");
    let path = format!("/api/games/{id}/resign");
    let (status, body) = a.post(&path, Some(token), json!({})).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = a.engine_game(1, 20, false).await;
    assert_eq!(status, 201, "{body}");

    // A rematch of a finished game counts too: the address is at its cap again.
    let rematch = format!("/api/games/{id}/rematch");
    let (status, body) = a.post(&rematch, Some(token), json!({})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    // Once another game ends, it is made.
    let other = game_id(&grants[1]);
    let other_token = grants[1]["token"].as_str().expect("token");
    let path = format!("/api/games/{other}/resign");
    assert_eq!(a.post(&path, Some(other_token), json!({})).await.0, 200);
    let (status, body) = a.post(&rematch, Some(token), json!({})).await;
    assert_eq!(status, 201, "{body}");

    // Many at once from one address: the cap is counted in the store's insert, not per request.
    let c = Address::new(&server, "10.0.0.3");
    let tries = (0..10).map(|_| c.engine_game(1, 20, false));
    let statuses: Vec<u16> = futures_util::future::join_all(tries)
        .await
        .into_iter()
        .map(|(status, _)| status)
        .collect();
    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        2,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 429).count(),
        8,
        "{statuses:?}"
    );
}
