//! Personal API tokens, bot accounts and the bot API (issue 38), over real HTTP on real
//! `mabula serve` processes: three instances on one PostgreSQL when `MABULA_TEST_POSTGRES_URL`
//! names a server, else one instance on SQLite (the same requests, each "instance" the same one).

mod common;

use common::Instance;
use common::player::Player;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The instances of a test, and their addresses (three on PostgreSQL, else one on SQLite,
/// named three times). The directory holds the SQLite file.
struct Nodes {
    nodes: Vec<Instance>,
    _dir: tempfile::TempDir,
    bases: Vec<String>,
}

async fn nodes() -> Nodes {
    let dir = tempfile::tempdir().expect("dir");
    let nodes = common::instances(&dir, "bots.sqlite3").await;
    let bases = (0..3)
        .map(|i| nodes[i % nodes.len()].client.base().to_string())
        .collect();
    Nodes {
        nodes,
        _dir: dir,
        bases,
    }
}

/// A program's view of the API: a personal token, no cookie.
#[derive(Clone)]
struct Program {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Program {
    fn new(base: &str, token: &str) -> Program {
        Program {
            http: reqwest::Client::new(),
            base: base.to_string(),
            token: token.to_string(),
        }
    }

    fn on(&self, base: &str) -> Program {
        Program {
            base: base.to_string(),
            ..self.clone()
        }
    }

    async fn send(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.expect("answer");
        let status = r.status().as_u16();
        let text = r.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None).await
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }
}

/// A new token of `p` with `scopes`: its id and secret.
async fn token(p: &Player, description: &str, scopes: &[&str]) -> (String, String) {
    let (status, body) = p
        .post(
            "/api/account/tokens",
            json!({"description": description, "scopes": scopes}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    (
        body["id"].as_str().expect("an id").to_string(),
        body["token"].as_str().expect("a token").to_string(),
    )
}

/// The code of an error answer.
fn code(body: &Value) -> &str {
    body["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn a_token_acts_without_csrf_never_on_cookie_pages_and_dies_at_once_everywhere() {
    let n = nodes().await;
    let alice = Player::sign_up(&n.bases[0], "tokalice").await;
    let (id, secret) = token(&alice, "my program", &["challenge:write"]).await;
    assert!(secret.starts_with("mbp_"), "{secret}");

    // Listed without its secret.
    let (status, list) = alice.get("/api/account/tokens").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["tokens"][0]["id"], id.as_str());
    assert_eq!(list["tokens"][0]["scopes"], json!(["challenge:write"]));
    assert!(!list.to_string().contains(&secret[4..]), "{list}");

    // Bad tokens are refused with clear codes.
    let (status, body) = alice
        .post("/api/account/tokens", json!({"description": "", "scopes": ["bot:play"]}))
        .await;
    assert_eq!((status, code(&body)), (422, "invalid_token"), "{body}");
    let (status, body) = alice
        .post("/api/account/tokens", json!({"description": "x", "scopes": ["root"]}))
        .await;
    assert_eq!((status, code(&body)), (422, "invalid_token"), "{body}");

    // Used on another instance, with no cookie and no CSRF token: a seek is opened as alice.
    let prog = Program::new(&n.bases[1], &secret);
    let (status, seek) = prog
        .post("/api/seeks", json!({"scoring": "largest", "days": 2, "color": "white"}))
        .await;
    assert_eq!(status, 201, "{seek}");
    let (status, who) = prog.get("/api/session").await;
    assert_eq!(status, 200, "{who}");
    assert_eq!(who["name"], "tokalice");

    // The cookie pages refuse it, reads and writes alike.
    for (method, path) in [
        (reqwest::Method::GET, "/api/account/tokens"),
        (reqwest::Method::POST, "/api/account/tokens"),
        (reqwest::Method::GET, "/api/account/sessions"),
        (reqwest::Method::POST, "/api/account/password"),
        (reqwest::Method::DELETE, "/api/account"),
        (reqwest::Method::GET, "/api/account/export"),
        (reqwest::Method::DELETE, "/api/sessions"),
    ] {
        let body = (method != reqwest::Method::GET).then(|| json!({}));
        let (status, answer) = prog.send(method.clone(), path, body).await;
        assert_eq!(
            (status, code(&answer)),
            (403, "token_not_allowed"),
            "{method} {path}: {answer}"
        );
    }
    // Outside its scopes: the bot API's game endpoints.
    let (status, answer) = prog.post("/api/bot/account/upgrade", json!({})).await;
    assert_eq!((status, code(&answer)), (403, "token_not_allowed"), "{answer}");

    // Its last use is kept (to the minute).
    let (_, list) = alice.on(&n.bases[2]).get("/api/account/tokens").await;
    let used = list["tokens"][0]["used_at"].as_i64().expect("a last use");
    assert_eq!(used % 60_000, 0, "{list}");

    // Revoked on the first instance: refused at once on the others.
    assert_eq!(alice.delete(&format!("/api/account/tokens/{id}")).await, 204);
    for base in &n.bases {
        let (status, answer) = prog.on(base).get("/api/session").await;
        assert_eq!((status, code(&answer)), (403, "token_invalid"), "{answer}");
    }
    assert_eq!(alice.delete(&format!("/api/account/tokens/{id}")).await, 404);
    let (_, list) = alice.get("/api/account/tokens").await;
    assert_eq!(list["tokens"], json!([]));
}

#[tokio::test]
async fn an_account_holds_at_most_twenty_tokens() {
    let n = nodes().await;
    let p = Player::sign_up(&n.bases[0], "manytokens").await;
    for i in 0..20 {
        token(&p, &format!("t{i}"), &["board:play"]).await;
    }
    let (status, body) = p
        .post("/api/account/tokens", json!({"description": "one more", "scopes": ["board:play"]}))
        .await;
    assert_eq!((status, code(&body)), (409, "too_many_tokens"), "{body}");
}

/// A correspondence game of `white` (who seeks) against `black` (who accepts); its id.
async fn game_between(white: &Player, black: &Player) -> String {
    let (status, seek) = white
        .post("/api/seeks", json!({"scoring": "largest", "days": 2, "color": "white"}))
        .await;
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_str().expect("an id");
    let (status, started) = black
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    started["game_id"].as_str().expect("a game").to_string()
}

/// A new account made a bot with a `bot:play` token on instance `base`: its player (cookie)
/// and its program (token).
async fn new_bot(base: &str, name: &str) -> (Player, Program) {
    let p = Player::sign_up(base, name).await;
    let (_, secret) = token(&p, "engine", &["bot:play"]).await;
    let prog = Program::new(base, &secret);
    let (status, body) = prog.post("/api/bot/account/upgrade", json!({})).await;
    assert_eq!(status, 204, "{body}");
    (p, prog)
}

#[tokio::test]
async fn only_an_account_without_games_becomes_a_bot_and_bots_are_marked() {
    let n = nodes().await;
    let ann = Player::sign_up(&n.bases[0], "botann").await;
    let ben = Player::sign_up(&n.bases[1], "botben").await;
    game_between(&ann, &ben).await;
    let (_, secret) = token(&ann, "engine", &["bot:play"]).await;
    let (status, body) = Program::new(&n.bases[2], &secret)
        .post("/api/bot/account/upgrade", json!({}))
        .await;
    assert_eq!((status, code(&body)), (409, "account_has_games"), "{body}");
    let (_, profile) = ben.get("/api/players/botann").await;
    assert_eq!(profile["bot"], false, "{profile}");

    let (bot_cookie, bot) = new_bot(&n.bases[1], "robocop").await;
    let (_, profile) = ben.get("/api/players/robocop").await;
    assert_eq!(profile["bot"], true, "{profile}");
    // Its cookie cannot use the lobby: the API only.
    let (status, body) = bot_cookie
        .post("/api/seeks", json!({"scoring": "largest", "days": 2}))
        .await;
    assert_eq!((status, code(&body)), (403, "bot_not_allowed"), "{body}");
    // A seek that does not want bots cannot be taken by one; a bot's seek is marked.
    let (status, seek) = ben
        .post("/api/seeks", json!({"scoring": "largest", "days": 2, "bots": false}))
        .await;
    assert_eq!(status, 201, "{seek}");
    let seek_id = seek["id"].as_str().expect("an id");
    let (status, body) = bot
        .on(&n.bases[2])
        .post(&format!("/api/seeks/{seek_id}/accept"), json!({}))
        .await;
    assert_eq!((status, code(&body)), (403, "bot_not_allowed"), "{body}");
    let (status, seek) = bot
        .post("/api/seeks", json!({"scoring": "product", "days": 3}))
        .await;
    assert_eq!(status, 201, "{seek}");
    let (_, list) = ann.on(&n.bases[2]).get("/api/seeks").await;
    let seeks = list["seeks"].as_array().expect("seeks");
    let of = |name: &str| seeks.iter().find(|s| s["name"] == name).cloned();
    assert_eq!(of("robocop").map(|s| s["bot"].clone()), Some(json!(true)), "{list}");
    assert_eq!(of("botben").map(|s| s["bots"].clone()), Some(json!(false)), "{list}");
}

/// Polls `get` of `p` until `done` holds, for at most `limit`.
#[allow(dead_code)]
async fn until(p: &Program, path: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let end = Instant::now() + limit;
    loop {
        let (_, body) = p.get(path).await;
        if done(&body) {
            return body;
        }
        assert!(Instant::now() < end, "{path} never became as expected: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
