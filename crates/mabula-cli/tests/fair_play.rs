//! Fair play (issue 51) over real HTTP, on three `mabula serve` processes sharing one PostgreSQL
//! (one on SQLite without `MABULA_TEST_POSTGRES_URL`): while a rated game is played, the
//! analysis, the game analysis and hints refuse its position, the position's images under the
//! board's symmetries and every position one move after it (`403 live_game_position`) on every
//! instance at once, including an instance other than the one that took the move; an engine game
//! cannot start there; once the game is over, all of it is open again.

mod common;

use common::player::Player;
use futures_util::SinkExt;
use mabula::{Position, Symmetry};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// A rated correspondence game: `white` challenges `black` (named `black_name`), who accepts.
async fn rated_game(white: &Player, black: &Player, black_name: &str) -> String {
    let (status, seek) = white
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": true, "days": 3, "color": "white", "to": black_name}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let (status, started) = black
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().expect("an id")),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    started["game_id"].as_str().expect("a game id").to_string()
}

fn analysis_path(position: &str) -> String {
    format!(
        "/api/analysis?position={}",
        position.replace('/', "%2F").replace(' ', "%20")
    )
}

/// The status and error code of `GET /api/analysis` of `position`.
async fn analyse(p: &Player, position: &str) -> (u16, Option<String>) {
    let (status, body) = p.get(&analysis_path(position)).await;
    (status, body["code"].as_str().map(String::from))
}

fn refused() -> (u16, Option<String>) {
    (403, Some("live_game_position".to_string()))
}

fn parse(text: &str) -> Position {
    text.parse().expect("a position string")
}

/// The game's record as text.
async fn record(p: &Player, id: &str) -> String {
    let r = p
        .http
        .get(format!("{}/api/games/{id}/record", p.base))
        .send()
        .await
        .expect("answer");
    assert_eq!(r.status().as_u16(), 200);
    r.text().await.expect("text")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_rated_game_keeps_its_position_and_the_next_ones_from_the_engine_on_every_instance()
{
    let nodes = common::nodes("fair.sqlite3").await;
    let bases = &nodes.bases;
    let alice = Player::sign_up(&bases[0], "alice").await;
    let bob = Player::sign_up(&bases[1], "bob").await;
    let id = rated_game(&alice, &bob, "bob").await;
    let guest = Player::guest(&bases[2]);

    let (_, st) = guest.get(&format!("/api/games/{id}")).await;
    assert_eq!(st["rated"], true, "{st}");
    let standing = st["position"].as_str().expect("a position").to_string();
    let s0 = parse(&standing);

    // The standing position, its images under the board's symmetries, and every position one
    // move after it are refused, on an instance where nothing was played.
    assert_eq!(analyse(&guest, &standing).await, refused());
    for sym in Symmetry::ALL {
        let image = sym.position(&s0).to_string();
        assert_eq!(analyse(&guest, &image).await, refused(), "{sym:?}");
    }
    let next: Vec<String> = st["legal_moves"]
        .as_array()
        .expect("legal moves")
        .iter()
        .map(|m| m["position"].as_str().expect("a position").to_string())
        .collect();
    assert!(next.len() > 1);
    for p in &next {
        assert_eq!(analyse(&guest, p).await, refused(), "{p}");
    }
    // The stream and the game analysis refuse it as well, as does an engine game set up there.
    let (status, body) = guest
        .get(&analysis_path(&standing).replace("/api/analysis?", "/api/analysis/stream?"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("live_game_position"))
    );
    let text = record(&guest, &id).await;
    let (status, body) = guest
        .on(&bases[1])
        .post("/api/analysis/game", json!({ "record": text }))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("live_game_position")),
        "{body}"
    );
    let (status, body) = guest
        .post(
            "/api/games",
            json!({"mode": "engine", "setup": standing, "color": st["to_move"]}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("live_game_position")),
        "{body}"
    );

    // Alice moves on instance 0: as soon as the move is acknowledged, instances 1 and 2 refuse
    // the new position, its images and the positions after it.
    let first = st["legal_moves"][0]["notation"].as_str().expect("a move");
    let s1 = s0.play(first.parse().expect("a move")).expect("legal");
    let (status, after) = alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": first, "number": 1}),
        )
        .await;
    assert_eq!(status, 200, "{after}");
    let mirrored = Symmetry::FlipFiles.position(&s1).to_string();
    let s2 = s1.play(s1.legal_moves()[0]).expect("legal");
    for base in &bases[1..] {
        let other = guest.on(base);
        assert_eq!(analyse(&other, &s1.to_string()).await, refused(), "{base}");
        assert_eq!(analyse(&other, &mirrored).await, refused(), "{base}");
        assert_eq!(analyse(&other, &s2.to_string()).await, refused(), "{base}");
    }
    let on_b = guest.on(&bases[1]);

    // An engine game from the deal (free now), where the human plays alice's move: once the
    // engine answers, the human stands one move after the rated game's position, so no hint.
    let (status, engine_game) = on_b
        .post(
            "/api/games",
            json!({"mode": "engine", "setup": standing, "color": st["to_move"], "engine_level": 1}),
        )
        .await;
    assert_eq!(status, 201, "{engine_game}");
    let engine_id = engine_game["game_id"].as_str().expect("an id").to_string();
    let engine_token = engine_game["token"].as_str().expect("a token").to_string();
    let mut engine_ws = on_b.socket(&format!("/api/games/{engine_id}/ws")).await;
    engine_ws
        .ws
        .send(Message::Text(r#"{"type":"hello"}"#.into()))
        .await
        .expect("hello sent");
    let played = on_b
        .http
        .post(format!("{}/api/games/{engine_id}/moves", on_b.base))
        .header("x-mabula-token", &engine_token)
        .json(&json!({"move": first, "number": 1}))
        .send()
        .await
        .expect("answer");
    assert_eq!(played.status().as_u16(), 200);
    loop {
        let msg = engine_ws.until_any().await;
        if msg["state"]["moves"].as_array().map_or(0, Vec::len) == 2 {
            break;
        }
    }
    let hint = on_b
        .http
        .post(format!("{}/api/games/{engine_id}/hint", on_b.base))
        .header("x-mabula-token", &engine_token)
        .json(&json!({}))
        .send()
        .await
        .expect("answer");
    let status = hint.status().as_u16();
    let body: Value = hint.json().await.expect("JSON");
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("live_game_position")),
        "{body}"
    );
    let (_, engine_state) = on_b.get(&format!("/api/games/{engine_id}")).await;
    assert_eq!(
        engine_state["hints"],
        json!({"white": 0, "black": 0}),
        "a refused hint is not counted"
    );

    // Once the game is over, everything is open again, on every instance.
    let (status, body) = bob
        .on(&bases[2])
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    for (base, position) in bases
        .iter()
        .zip([&s1.to_string(), &mirrored, &s2.to_string()])
    {
        let (status, body) = guest.on(base).get(&analysis_path(position)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["done"], true, "{body}");
    }
    let hint = on_b
        .http
        .post(format!("{}/api/games/{engine_id}/hint", on_b.base))
        .header("x-mabula-token", &engine_token)
        .json(&json!({}))
        .send()
        .await
        .expect("answer");
    assert_eq!(hint.status().as_u16(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_casual_game_keeps_nothing_from_the_engine() {
    let nodes = common::nodes("casual.sqlite3").await;
    let bases = &nodes.bases;
    let alice = Player::sign_up(&bases[0], "alice").await;
    let bob = Player::sign_up(&bases[1], "bob").await;
    let (status, seek) = alice
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": false, "days": 3, "color": "white", "to": "bob"}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let (status, started) = bob
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().expect("an id")),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let id = started["game_id"].as_str().expect("an id");
    let (_, st) = alice.get(&format!("/api/games/{id}")).await;
    let (status, body) = Player::guest(&bases[2])
        .get(&analysis_path(st["position"].as_str().expect("a position")))
        .await;
    assert_eq!(status, 200, "{body}");
}
