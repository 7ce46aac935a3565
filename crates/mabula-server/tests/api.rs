//! The HTTP API against a real server on 127.0.0.1:0 with a fresh SQLite database per test.

use crate::common;

use common::{TestServer, legal, moves, pick};
use serde_json::{Value, json};

/// Plays the game `id` with `token` (holding the side to move) until it ends; answers the final
/// state.
async fn play_out(server: &TestServer, id: &str, token: &str, mut state: Value) -> Value {
    let mut n = 0;
    while state["status"] == "playing" {
        let mv = pick(&legal(&state), n);
        let number = state["moves"].as_array().map_or(0, Vec::len) + 1;
        let (status, next) = server
            .post(
                &format!("/api/games/{id}/moves"),
                Some(token),
                json!({ "move": mv, "number": number }),
            )
            .await;
        assert_eq!(status, 200, "{next}");
        state = next;
        n += 1;
        assert!(n < 100, "a game has at most 24 pushes plus passes");
    }
    state
}

#[tokio::test]
async fn health_openapi_and_the_static_page_are_served() {
    let server = TestServer::start().await;
    assert_eq!(
        server.get("/healthz", None).await,
        (200, json!({ "status": "ok" }))
    );
    let (status, doc) = server.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
    for path in [
        "/api/games",
        "/api/games/{id}/moves",
        "/api/games/import",
        "/healthz",
    ] {
        assert!(doc["paths"][path].is_object(), "OpenAPI lacks {path}");
    }
    assert!(doc["components"]["schemas"]["GameState"].is_object());
    let (status, page) = server.get("/", None).await;
    assert_eq!(status, 200);
    assert!(page.as_str().is_some_and(|p| p.contains("<html")));
    let (status, page) = server.get("/game/abcdefghij", None).await;
    assert_eq!(status, 200, "client routes get index.html");
    assert!(page.as_str().is_some_and(|p| p.contains("<html")));
    let (status, body) = server.get("/missing.js", None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
}

#[tokio::test]
async fn a_local_game_is_played_to_the_end_exported_and_imported() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "local", "seed": "42", "scoring": "product" }))
        .await;
    let (id, token) = (
        grant["game_id"].as_str().unwrap(),
        grant["token"].as_str().unwrap(),
    );
    assert_eq!(grant["seats"], json!(["white", "black"]));
    assert_eq!(grant["state"]["you"], json!(["white", "black"]));
    assert_eq!(grant["state"]["settings"]["seed"], "42");
    // The deal is the library's deal for that seed.
    let expected = mabula::deal::random(42, mabula::Color::White).to_string();
    assert_eq!(grant["state"]["start"], expected.as_str());
    // Every legal move comes with the position after it.
    let start: mabula::Position = expected.parse().unwrap();
    for lm in grant["state"]["legal_moves"].as_array().unwrap() {
        let mv: mabula::Move = lm["notation"].as_str().unwrap().parse().unwrap();
        assert_eq!(lm["position"], start.play(mv).unwrap().to_string().as_str());
        assert_eq!(lm["slides"][0][0], lm["from"]);
        assert_eq!(lm["slides"][0][1], lm["to"]);
    }

    let end = play_out(&server, id, token, grant["state"].clone()).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["end_reason"], "no_moves");
    assert!(end["legal_moves"].as_array().unwrap().is_empty());
    assert_eq!(end["to_move"], Value::Null);
    let (w, b) = (
        end["scores"]["product"]["white"].as_u64().unwrap(),
        end["scores"]["product"]["black"].as_u64().unwrap(),
    );
    let expected_result = if w > b {
        "1-0"
    } else if b > w {
        "0-1"
    } else {
        "1/2-1/2"
    };
    assert_eq!(end["result"], expected_result);

    let record = server.client.record(id).await.expect("record");
    let game = mabula::Game::parse(&record).expect("the record reads back");
    assert_eq!(
        game.moves()
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        moves(&end)
    );
    assert_eq!(game.tag("GameId"), Some(id));
    assert!(record.contains("[Scoring \"product\"]"));

    let imported = server.client.import(&record).await.expect("import");
    assert_ne!(imported.game_id, id);
    assert_eq!(
        imported.state.moves.len(),
        end["moves"].as_array().unwrap().len()
    );
    assert_eq!(imported.state.result, expected_result);
    assert_eq!(imported.state.status, "finished");

    let (status, _) = server
        .call(
            "GET",
            &format!("/api/games/{id}/record?download=1"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_setup_position_and_black_first_are_honoured() {
    let server = TestServer::start().await;
    let setup = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 b";
    let grant = server
        .create(json!({ "mode": "friend", "setup": setup, "color": "black" }))
        .await;
    assert_eq!(grant["state"]["start"], setup);
    assert_eq!(grant["state"]["to_move"], "black");
    assert_eq!(grant["state"]["settings"]["seed"], Value::Null);
    assert_eq!(grant["seats"], json!(["black"]));
    assert_eq!(grant["state"]["seats"]["white"]["claimed"], false);
    let join_path = grant["join_path"].as_str().unwrap();
    assert!(join_path.ends_with(grant["join_code"].as_str().unwrap()));
    let grant = server
        .create(json!({ "mode": "local", "first": "black", "seed": 7 }))
        .await;
    assert_eq!(grant["state"]["to_move"], "black");
    assert_eq!(grant["state"]["moves"], json!([]));
}

#[tokio::test]
async fn a_join_code_opens_the_free_seat_once() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "friend", "color": "white" }))
        .await;
    let id = grant["game_id"].as_str().unwrap();
    let code = grant["join_code"].as_str().unwrap();
    let (status, err) = server
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "code": "0".repeat(32) }),
        )
        .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (403, Some("join_code_invalid"))
    );
    let joined = server.client.join(id, code).await.expect("join");
    assert_eq!(joined.seats, vec![mabula::Color::Black]);
    assert!(joined.state.seats.black.claimed);
    assert_ne!(joined.token, grant["token"].as_str().unwrap());
    let (status, err) = server
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "code": code }),
        )
        .await;
    assert_eq!((status, err["code"].as_str()), (409, Some("seat_taken")));
    // The friend's token plays black.
    let white = grant["token"].as_str().unwrap();
    let state = server.client.state(id, Some(white)).await.unwrap();
    let mv = state.legal_moves[0].notation.clone();
    server
        .client
        .play(id, white, &mv, Some(1))
        .await
        .expect("white moves");
    let state = server.client.state(id, Some(&joined.token)).await.unwrap();
    assert_eq!(state.you.as_deref(), Some(&[mabula::Color::Black][..]));
    server
        .client
        .play(id, &joined.token, &state.legal_moves[0].notation, Some(2))
        .await
        .expect("black moves");
}

#[tokio::test]
async fn undo_against_the_engine_is_immediate_and_between_friends_is_offered() {
    let server = TestServer::start().await;
    // Against the engine: the engine's reply is taken back with the move.
    let grant = server
        .create(json!({ "mode": "engine", "engine_level": 1, "engine_movetime_ms": 10, "seed": 5 }))
        .await;
    let (id, token) = (
        grant["game_id"].as_str().unwrap(),
        grant["token"].as_str().unwrap(),
    );
    let first = pick(&legal(&grant["state"]), 0);
    server
        .client
        .play(id, token, &first, Some(1))
        .await
        .expect("move");
    let mut state = server.client.state(id, None).await.unwrap();
    for _ in 0..500 {
        if state.moves.len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        state = server.client.state(id, None).await.unwrap();
    }
    assert_eq!(state.moves.len(), 2, "the engine answered");
    let undone = server.client.undo(id, token).await.expect("undo");
    assert_eq!((undone.moves.len(), undone.epoch), (0, 1));
    assert_eq!(undone.to_move, Some(mabula::Color::White));
    let err = server
        .client
        .undo(id, token)
        .await
        .expect_err("nothing left");
    assert_eq!(err.code(), "nothing_to_undo");

    // Between friends: an offer, declined, offered again, accepted.
    let grant = server.create(json!({ "mode": "friend", "seed": 9 })).await;
    let (id, white) = (
        grant["game_id"].as_str().unwrap(),
        grant["token"].as_str().unwrap(),
    );
    let black = server
        .client
        .join(id, grant["join_code"].as_str().unwrap())
        .await
        .unwrap()
        .token;
    let s = server
        .client
        .play(id, white, &pick(&legal(&grant["state"]), 1), None)
        .await
        .unwrap();
    let s = server
        .client
        .play(id, &black, &s.legal_moves[0].notation, None)
        .await
        .unwrap();
    assert_eq!(s.moves.len(), 2);
    let offered = server.client.undo(id, white).await.expect("offer");
    assert_eq!(offered.undo_offer.map(|o| o.moves), Some(2));
    assert_eq!(offered.moves.len(), 2, "an offer changes nothing yet");
    assert_eq!(
        server.client.undo(id, white).await.unwrap_err().code(),
        "undo_offer_pending"
    );
    assert_eq!(
        server
            .client
            .accept_undo(id, white)
            .await
            .unwrap_err()
            .code(),
        "not_your_seat"
    );
    let declined = server
        .client
        .decline_undo(id, &black)
        .await
        .expect("decline");
    assert!(declined.undo_offer.is_none());
    assert_eq!(
        server
            .client
            .accept_undo(id, &black)
            .await
            .unwrap_err()
            .code(),
        "no_undo_offer"
    );
    server.client.undo(id, white).await.expect("offer again");
    let accepted = server.client.accept_undo(id, &black).await.expect("accept");
    assert_eq!((accepted.moves.len(), accepted.epoch), (0, 1));
}

#[tokio::test]
async fn resigning_ends_the_game_and_a_rematch_swaps_colours() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "friend", "color": "white", "scoring": "product" }))
        .await;
    let (id, white) = (
        grant["game_id"].as_str().unwrap(),
        grant["token"].as_str().unwrap(),
    );
    let black = server
        .client
        .join(id, grant["join_code"].as_str().unwrap())
        .await
        .unwrap()
        .token;
    assert_eq!(
        server.client.rematch(id, white).await.unwrap_err().code(),
        "game_not_over"
    );
    let over = server.client.resign(id, &black).await.expect("resign");
    assert_eq!(
        (over.result.as_str(), over.status.as_str()),
        ("1-0", "finished")
    );
    assert_eq!(
        over.end_reason,
        Some(mabula_server::model::EndReason::ResignedBlack)
    );
    assert_eq!(
        server.client.resign(id, white).await.unwrap_err().code(),
        "game_over"
    );
    assert_eq!(
        server
            .client
            .play(id, white, "pass", None)
            .await
            .unwrap_err()
            .code(),
        "game_over"
    );
    assert_eq!(
        server.client.undo(id, white).await.unwrap_err().code(),
        "game_over"
    );

    let first = server.client.rematch(id, &black).await.expect("rematch");
    assert_eq!(
        first.seats,
        vec![mabula::Color::White],
        "black becomes white"
    );
    assert_eq!(first.state.settings.scoring, "product");
    assert!(first.join_code.is_none());
    let second = server
        .client
        .rematch(id, white)
        .await
        .expect("the friend's seat");
    assert_eq!(second.game_id, first.game_id);
    assert_eq!(second.seats, vec![mabula::Color::Black]);
    assert_eq!(
        server.client.rematch(id, white).await.unwrap_err().code(),
        "rematch_taken"
    );
    assert_eq!(
        server.client.rematch(id, &black).await.unwrap_err().code(),
        "rematch_taken"
    );
    let old = server.client.state(id, None).await.unwrap();
    assert_eq!(old.rematch.as_deref(), Some(first.game_id.as_str()));
}

#[tokio::test]
async fn lists_show_live_and_finished_games_newest_first() {
    let server = TestServer::start().await;
    let a = server.create(json!({ "mode": "local" })).await;
    let b = server.create(json!({ "mode": "local" })).await;
    let (b_id, b_token) = (b["game_id"].as_str().unwrap(), b["token"].as_str().unwrap());
    server.client.resign(b_id, b_token).await.unwrap();
    let live = server.client.list("live", 10).await.unwrap();
    assert_eq!(
        live.games.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
        vec![a["game_id"].as_str().unwrap()]
    );
    let finished = server.client.list("finished", 10).await.unwrap();
    assert_eq!(finished.games.len(), 1);
    assert_eq!(finished.games[0].result, "0-1");
    let recent = server.client.list("recent", 10).await.unwrap();
    assert_eq!(recent.games[0].id, b_id, "newest activity first");
    let (status, err) = server.get("/api/games?filter=old", None).await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_request")));
    let (status, err) = server.get("/api/games?limit=0", None).await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_request")));
    let (status, err) = server.get("/api/games?limit=abc", None).await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_request")));
}

#[tokio::test]
async fn settings_are_checked_and_refused_with_a_reason() {
    let server = TestServer::start().await;
    let cases = [
        (
            json!({ "mode": "local", "scoring": "sum" }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "mode": "local", "seed": "x" }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "mode": "local", "seed": 1, "setup": "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w" }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "mode": "local", "setup": "8/8 w" }),
            422,
            "invalid_setup",
        ),
        (
            json!({ "mode": "local", "setup": "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbbb1 w" }),
            422,
            "invalid_setup",
        ),
        (
            json!({ "mode": "local", "color": "white" }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "mode": "friend", "engine_level": 3 }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "mode": "engine", "engine_level": 0 }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "mode": "engine", "engine_level": 11 }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "mode": "engine", "engine_movetime_ms": 1 }),
            422,
            "invalid_settings",
        ),
        (json!({ "mode": "robot" }), 400, "malformed_json"),
        (
            json!({ "mode": "local", "colour": "white" }),
            400,
            "malformed_json",
        ),
        (json!({}), 400, "malformed_json"),
    ];
    for (body, status, code) in cases {
        let (got, err) = server.post("/api/games", None, body.clone()).await;
        assert_eq!(
            (got, err["code"].as_str()),
            (status, Some(code)),
            "{body} -> {err}"
        );
        assert!(err["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (status, err) = server
        .post("/api/games/import", None, json!({ "record": "1. b1-b4 *" }))
        .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (422, Some("invalid_record"))
    );
    let setup = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n1. b1-b4 a4-g4 *";
    let (status, err) = server
        .post("/api/games/import", None, json!({ "record": setup }))
        .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (422, Some("invalid_record"))
    );
    assert!(
        err["message"].as_str().unwrap().contains("move 1..."),
        "{err}"
    );
}

#[tokio::test]
async fn every_bad_request_gets_a_4xx_with_a_json_reason() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "friend", "color": "white", "seed": 3 }))
        .await;
    let (id, white) = (
        grant["game_id"].as_str().unwrap().to_string(),
        grant["token"].as_str().unwrap().to_string(),
    );
    let black = server
        .client
        .join(&id, grant["join_code"].as_str().unwrap())
        .await
        .unwrap()
        .token;
    let other = server.create(json!({ "mode": "local" })).await;
    let other_token = other["token"].as_str().unwrap();
    let moves_path = format!("/api/games/{id}/moves");
    let first = pick(&legal(&grant["state"]), 0);
    let forged = "f".repeat(64);

    let check = |status: u16, body: &Value, want: u16, code: &str| {
        assert_eq!(
            (status, body["code"].as_str()),
            (want, Some(code)),
            "{body}"
        );
        assert!(
            body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{body}"
        );
    };

    // Who may move: nobody without a token, nobody with a forged or foreign token, not the
    // opponent out of turn.
    let (s, b) = server
        .post(&moves_path, None, json!({ "move": first }))
        .await;
    check(s, &b, 401, "token_missing");
    let (s, b) = server
        .post(&moves_path, Some(&forged), json!({ "move": first }))
        .await;
    check(s, &b, 403, "token_invalid");
    let (s, b) = server
        .post(&moves_path, Some(other_token), json!({ "move": first }))
        .await;
    check(s, &b, 403, "token_invalid");
    let (s, b) = server.call("POST", &moves_path, Some(&black), None).await;
    check(s, &b, 400, "malformed_json");
    let (s, b) = server
        .post(&moves_path, Some(&black), json!({ "move": first }))
        .await;
    check(s, &b, 409, "not_your_turn");
    // Who may resign.
    let resign = format!("/api/games/{id}/resign");
    let (s, b) = server.post(&resign, None, json!({})).await;
    check(s, &b, 401, "token_missing");
    let (s, b) = server.post(&resign, Some(&forged), json!({})).await;
    check(s, &b, 403, "token_invalid");
    let (s, b) = server
        .post(&resign, Some(&black), json!({ "side": "white" }))
        .await;
    check(s, &b, 403, "not_your_seat");
    let (s, b) = server
        .post(&format!("/api/games/{id}/undo"), None, json!({}))
        .await;
    check(s, &b, 401, "token_missing");
    let (s, b) = server.get(&format!("/api/games/{id}"), Some(&forged)).await;
    check(s, &b, 403, "token_invalid");
    // The header variants.
    let r = server
        .http
        .post(format!("{}{moves_path}", server.base))
        .header("Authorization", "Basic abc")
        .json(&json!({ "move": first }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    let r = server
        .http
        .post(format!("{}{moves_path}", server.base))
        .header("X-Mabula-Token", &forged)
        .json(&json!({ "move": first }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);

    // What may be moved.
    let (s, b) = server
        .post(&moves_path, Some(&white), json!({ "move": "b1b4" }))
        .await;
    check(s, &b, 400, "bad_notation");
    let (s, b) = server
        .post(&moves_path, Some(&white), json!({ "move": "c3-c4" }))
        .await;
    check(s, &b, 400, "bad_notation");
    let (s, b) = server
        .post(&moves_path, Some(&white), json!({ "move": "pass" }))
        .await;
    check(s, &b, 422, "illegal_move");
    let black_marble = grant["state"]["start"]
        .as_str()
        .unwrap()
        .parse::<mabula::Position>()
        .unwrap();
    let theirs = mabula::Move::all_pushes()
        .find(|m| {
            m.from()
                .is_some_and(|sq| black_marble.color_at(sq) == Some(mabula::Color::Black))
        })
        .unwrap();
    let (s, b) = server
        .post(
            &moves_path,
            Some(&white),
            json!({ "move": theirs.to_string() }),
        )
        .await;
    check(s, &b, 422, "illegal_move");
    let (s, b) = server
        .post(
            &moves_path,
            Some(&white),
            json!({ "move": first, "number": 2 }),
        )
        .await;
    check(s, &b, 409, "stale_state");
    let (s, _) = server
        .post(
            &moves_path,
            Some(&white),
            json!({ "move": first, "number": 1 }),
        )
        .await;
    assert_eq!(s, 200);
    let (s, b) = server
        .post(
            &moves_path,
            Some(&white),
            json!({ "move": first, "number": 1 }),
        )
        .await;
    check(s, &b, 409, "stale_state");

    // Malformed bodies.
    let raw = |body: &'static str, content_type: &'static str| {
        server
            .http
            .post(format!("{}{moves_path}", server.base))
            .bearer_auth(&black)
            .header("Content-Type", content_type)
            .body(body)
            .send()
    };
    for (body, ctype, want, code) in [
        ("{\"move\": ", "application/json", 400, "malformed_json"),
        ("[1, 2]", "application/json", 400, "malformed_json"),
        ("{\"move\": 5}", "application/json", 400, "malformed_json"),
        (
            "{\"mv\": \"b1-b4\"}",
            "application/json",
            400,
            "malformed_json",
        ),
        ("{}", "application/json", 400, "malformed_json"),
        (
            "move=b1-b4",
            "application/x-www-form-urlencoded",
            415,
            "unsupported_media_type",
        ),
    ] {
        let r = raw(body, ctype).await.unwrap();
        let status = r.status().as_u16();
        let v: Value = r.json().await.unwrap();
        check(status, &v, want, code);
    }
    let big = format!("{{\"record\": \"{}\"}}", "x".repeat(70 * 1024));
    let r = server
        .http
        .post(format!("{}/api/games/import", server.base))
        .header("Content-Type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    check(status, &r.json().await.unwrap(), 413, "payload_too_large");

    // Unknown things.
    let (s, b) = server.get("/api/games/nosuchgame", None).await;
    check(s, &b, 404, "game_not_found");
    let (s, b) = server
        .post(
            "/api/games/zzzzzzzzzz/moves",
            Some(&white),
            json!({ "move": first }),
        )
        .await;
    check(s, &b, 404, "game_not_found");
    let (s, b) = server
        .call("DELETE", &format!("/api/games/{id}"), None, None)
        .await;
    check(s, &b, 405, "method_not_allowed");
    let (s, b) = server.get("/api/games/abcdefghij/ws", None).await;
    check(s, &b, 404, "game_not_found");
    let (s, b) = server.get(&format!("/api/games/{id}/ws"), None).await;
    check(s, &b, 400, "bad_request");

    // None of this changed the game.
    let state = server.client.state(&id, None).await.unwrap();
    assert_eq!(state.moves.len(), 1);
    assert_eq!(state.status, "playing");
}

#[tokio::test]
async fn a_flood_from_one_client_is_refused_with_429() {
    let server = TestServer::start_with(|c| {
        c.rate_limit = 5.0;
        c.rate_burst = 10.0;
    })
    .await;
    let mut refused = 0;
    for _ in 0..30 {
        let r = server
            .http
            .get(format!("{}/healthz", server.base))
            .send()
            .await
            .unwrap();
        if r.status().as_u16() == 429 {
            assert!(r.headers().get("retry-after").is_some());
            let body: Value = r.json().await.unwrap();
            assert_eq!(body["code"], "rate_limited");
            refused += 1;
        }
    }
    assert!(refused >= 15, "only {refused} of 30 refused");
}

#[tokio::test]
async fn tokens_are_never_shown_to_anyone_but_their_holder() {
    let server = TestServer::start().await;
    let grant = server.create(json!({ "mode": "friend" })).await;
    let id = grant["game_id"].as_str().unwrap();
    let secrets = [
        grant["token"].as_str().unwrap().to_string(),
        grant["join_code"].as_str().unwrap().to_string(),
    ];
    let joined = server.client.join(id, &secrets[1]).await.unwrap();
    let secrets = [secrets[0].clone(), secrets[1].clone(), joined.token.clone()];
    let mut seen = Vec::new();
    seen.push(
        server
            .get(&format!("/api/games/{id}"), None)
            .await
            .1
            .to_string(),
    );
    seen.push(
        server
            .get(&format!("/api/games/{id}"), Some(&joined.token))
            .await
            .1
            .to_string(),
    );
    seen.push(
        server
            .get("/api/games?filter=recent", None)
            .await
            .1
            .to_string(),
    );
    seen.push(server.client.record(id).await.unwrap());
    let mut ws = server.ws(id).await;
    seen.push(ws.hello(None, None, None).await.to_string());
    let mv = server.client.state(id, None).await.unwrap().legal_moves[0]
        .notation
        .clone();
    let after = server
        .client
        .play(id, &secrets[0], &mv, None)
        .await
        .unwrap();
    seen.push(serde_json::to_string(&after).unwrap());
    seen.push(ws.recv_type("move").await.to_string());
    for text in &seen {
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "a secret leaked into {text}"
            );
        }
    }
}
