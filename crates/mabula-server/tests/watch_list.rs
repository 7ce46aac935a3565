//! The watch page's lists over real HTTP (`GET /api/games`): an engine game whose player never
//! moved leaves the live list once it is older than `ENGINE_UNSTARTED_MS` (aged here by editing
//! the stored row while the server is stopped: the rule is the store's, so every instance keeps
//! it), and comes back when the player moves; a lobby game names both players with their
//! ratings, says whether it is rated and shows its clock.

use crate::common;

use common::TestServer;
use mabula_server::store::ENGINE_UNSTARTED_MS;
use serde_json::{Value, json};
use sqlx::Connection;

/// A browser with an account: its session cookie and CSRF token.
struct Account {
    base: String,
    http: reqwest::Client,
    cookie: String,
    csrf: String,
}

impl Account {
    async fn sign_up(base: &str, name: &str) -> Account {
        let http = reqwest::Client::new();
        let r = http
            .post(format!("{base}/api/accounts"))
            .json(&json!({"name": name, "password": "a long enough passphrase 42"}))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 201);
        let cookie = r
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(|v| v.split(';').next().unwrap_or("").to_string())
            .find(|c| c.starts_with("mabula_session="))
            .expect("a session cookie");
        let body: Value = r.json().await.expect("JSON");
        let csrf = body["csrf"].as_str().expect("csrf").to_string();
        Account {
            base: base.to_string(),
            http,
            cookie,
            csrf,
        }
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .header("x-csrf-token", &self.csrf)
            .json(&body)
            .send()
            .await
            .expect("answer");
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }
}

/// The ids of the live list.
async fn live(server: &TestServer) -> Vec<Value> {
    let (status, list) = server.get("/api/games?filter=live&limit=50", None).await;
    assert_eq!(status, 200, "{list}");
    list["games"].as_array().expect("games").clone()
}

fn ids(games: &[Value]) -> Vec<&str> {
    games.iter().filter_map(|g| g["id"].as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_game_nobody_began_leaves_the_live_list_and_lobby_games_name_their_rated_players()
{
    let mut server = TestServer::start().await;
    // Two engine games, the engine Black: one the player began, one left at once.
    let begun = server
        .create(json!({"mode": "engine", "engine_level": 1, "color": "white"}))
        .await;
    let begun_id = begun["game_id"].as_str().expect("id").to_string();
    let token = begun["token"].as_str().expect("token").to_string();
    let mv = common::legal(&begun["state"])[0].clone();
    let (status, _) = server
        .post(
            &format!("/api/games/{begun_id}/moves"),
            Some(&token),
            json!({"move": mv}),
        )
        .await;
    assert_eq!(status, 200);
    let left = server
        .create(json!({"mode": "engine", "engine_level": 1, "color": "white"}))
        .await;
    let left_id = left["game_id"].as_str().expect("id").to_string();
    let left_token = left["token"].as_str().expect("token").to_string();
    let shown = live(&server).await;
    assert!(
        ids(&shown).contains(&left_id.as_str()),
        "a new game is live"
    );
    assert!(ids(&shown).contains(&begun_id.as_str()));

    // A rated lobby game between two accounts, on a clock.
    let fay = Account::sign_up(&server.base, "fay").await;
    let gus = Account::sign_up(&server.base, "gus").await;
    let (status, seek) = fay
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": true, "clock": {"initial_s": 300, "increment_s": 3}, "color": "white"}),
        )
        .await;
    assert!(status == 200 || status == 201, "{status} {seek}");
    let (status, started) = gus
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().expect("id")),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let rated_id = started["game_id"].as_str().expect("game").to_string();
    let shown = live(&server).await;
    let entry = shown
        .iter()
        .find(|g| g["id"] == rated_id.as_str())
        .expect("the lobby game is live");
    assert_eq!(entry["mode"], "friend");
    assert_eq!(entry["rated"], true);
    assert_eq!(entry["time_control"], "5+3");
    assert_eq!(entry["players"]["white"]["name"], "fay");
    assert_eq!(entry["players"]["black"]["name"], "gus");
    assert!(entry["players"]["white"]["rating"].is_i64(), "{entry}");
    assert!(entry["players"]["black"]["rating"].is_i64(), "{entry}");
    let engine = shown
        .iter()
        .find(|g| g["id"] == begun_id.as_str())
        .expect("engine game");
    assert_eq!(engine["rated"], false);
    assert_eq!(engine["time_control"], Value::Null);
    assert_eq!(engine["players"], json!({"white": null, "black": null}));

    // Both engine games began longer ago than the rule allows, and the begun one had its
    // player's move just now: only the game nobody began leaves the live list.
    server.stop().await;
    let dir = server.take_dir();
    let age = ENGINE_UNSTARTED_MS + 60_000;
    let mut db = sqlx::SqliteConnection::connect(&format!("sqlite://{}", server.database))
        .await
        .expect("open the database");
    for id in [&begun_id, &left_id] {
        sqlx::query("UPDATE games SET created_at = created_at - $1 WHERE id = $2")
            .bind(age)
            .bind(id)
            .execute(&mut db)
            .await
            .expect("aged");
    }
    db.close().await.expect("closed");
    let config = common::test_config(&server.database);
    let server = TestServer::start_config(config, dir).await;
    let shown = live(&server).await;
    assert!(
        !ids(&shown).contains(&left_id.as_str()),
        "an engine game nobody began is not live after {ENGINE_UNSTARTED_MS} ms: {shown:?}"
    );
    assert!(ids(&shown).contains(&begun_id.as_str()));
    assert!(ids(&shown).contains(&rated_id.as_str()));
    // Still a game: its page opens, and once its player moves it is live again.
    let (status, state) = server.get(&format!("/api/games/{left_id}"), None).await;
    assert_eq!((status, state["status"].as_str()), (200, Some("playing")));
    let mv = common::legal(&state)[0].clone();
    let (status, _) = server
        .post(
            &format!("/api/games/{left_id}/moves"),
            Some(&left_token),
            json!({"move": mv}),
        )
        .await;
    assert_eq!(status, 200);
    assert!(ids(&live(&server).await).contains(&left_id.as_str()));
}
