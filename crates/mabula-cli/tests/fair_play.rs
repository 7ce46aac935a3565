//! Fair play (issue 51) over real HTTP, on three `mabula serve` processes sharing one PostgreSQL
//! (one on SQLite without `MABULA_TEST_POSTGRES_URL`): while a rated game is played, the
//! analysis, its stream and the game analysis refuse its position, the position's images under
//! the board's symmetries and every position one move after it (`403 live_game_position`) on
//! every instance at once, including the instances other than the one that took the move; an
//! engine game can neither start there nor move there; once the game is over, all of it is open
//! again. (Hints ask the same check; a player of an engine game cannot bring it to such a
//! position, so no hint is refused here.)

mod common;

use common::player::Player;
use mabula::{Position, Symmetry};
use serde_json::{Value, json};

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

/// A game against the engine (level 1) from the deal `setup`, the guest moving first: its id
/// and the guest's seat token.
async fn engine_game(p: &Player, setup: &Position) -> (String, String) {
    let setup = setup.to_string();
    let color = if setup.ends_with('w') {
        "white"
    } else {
        "black"
    };
    let (status, body) = p
        .post(
            "/api/games",
            json!({"mode": "engine", "setup": setup, "color": color, "engine_level": 1}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let id = body["game_id"].as_str().expect("an id").to_string();
    (id, body["token"].as_str().expect("a token").to_string())
}

/// The status and error code of a request with a seat token.
async fn with_token(p: &Player, path: &str, token: &str, body: Value) -> (u16, Option<String>) {
    let answer = p
        .http
        .post(format!("{}{path}", p.base))
        .header("x-mabula-token", token)
        .json(&body)
        .send()
        .await
        .expect("answer");
    let status = answer.status().as_u16();
    let body: Value = answer.json().await.expect("JSON");
    (status, body["code"].as_str().map(String::from))
}

/// The status and error code of move `mv` (the first) in the engine game `id`.
async fn engine_move(p: &Player, id: &str, token: &str, mv: &str) -> (u16, Option<String>) {
    let body = json!({"move": mv, "number": 1});
    with_token(p, &format!("/api/games/{id}/moves"), token, body).await
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
    let reply = s1.legal_moves()[0];
    let s2 = s1.play(reply).expect("legal");
    for base in &bases[1..] {
        let other = guest.on(base);
        assert_eq!(analyse(&other, &s1.to_string()).await, refused(), "{base}");
        assert_eq!(analyse(&other, &mirrored).await, refused(), "{base}");
        assert_eq!(analyse(&other, &s2.to_string()).await, refused(), "{base}");
    }

    // An engine game from the deal (free again) cannot walk into the rated game's position:
    // alice's move is refused there, another move is played.
    let (on_b, on_c) = (guest.on(&bases[1]), guest.on(&bases[2]));
    let (deal_game, deal_token) = engine_game(&on_b, &s0).await;
    assert_eq!(
        engine_move(&on_b, &deal_game, &deal_token, first).await,
        refused()
    );
    let canonical = s1.canonical().0.hash();
    let other = s0
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| s0.play(m).expect("legal").canonical().0.hash() != canonical)
        .expect("a move to elsewhere");
    assert_eq!(
        engine_move(&on_b, &deal_game, &deal_token, &other.to_string()).await,
        (200, None)
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
    // An engine game from the deal now walks where the rated game went.
    let (again, again_token) = engine_game(&on_c, &s0).await;
    assert_eq!(
        engine_move(&on_c, &again, &again_token, first).await,
        (200, None)
    );
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
