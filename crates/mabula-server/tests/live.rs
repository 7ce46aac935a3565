//! Live games over WebSocket against a real server: friends, spectators, reconnects, the engine.

use crate::common;

use common::{TestServer, legal, pick};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test]
async fn two_friends_and_a_spectator_see_every_move_live_in_order() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "friend", "color": "white", "seed": 11 }))
        .await;
    let id = grant["game_id"].as_str().unwrap();
    let white = grant["token"].as_str().unwrap().to_string();
    let black = server
        .client
        .join(id, grant["join_code"].as_str().unwrap())
        .await
        .unwrap()
        .token;

    let mut ws_white = server.ws(id).await;
    let sync = ws_white.hello(Some(0), Some(0), Some(&white)).await;
    assert_eq!(sync["you"], json!(["white"]));
    assert_eq!(
        (
            sync["after"].as_u64(),
            sync["moves"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    let mut ws_black = server.ws(id).await;
    assert_eq!(
        ws_black.hello(Some(0), Some(0), Some(&black)).await["you"],
        json!(["black"])
    );
    let mut spectator = server.ws(id).await;
    assert_eq!(spectator.hello(None, None, None).await["you"], json!([]));

    // Presence: both players and one spectator.
    let presence = spectator
        .presence_until(|p| {
            p["seats"]["white"]["connected"] == true
                && p["seats"]["black"]["connected"] == true
                && p["spectators"] == 1
        })
        .await;
    assert_eq!(presence["seats"]["white"]["kind"], "person");
    let state = server.client.state(id, None).await.unwrap();
    assert!(state.seats.white.connected && state.seats.black.connected);
    assert_eq!(state.spectators, 1);

    // The game, each move seen by all three exactly once, numbered 1, 2, 3, …
    let mut state: Value = serde_json::to_value(&state).unwrap();
    let mut number = 0u64;
    while state["status"] == "playing" {
        let token = if state["to_move"] == "white" {
            &white
        } else {
            &black
        };
        let mv = pick(&legal(&state), number as usize);
        let after = server
            .client
            .play(id, token, &mv, Some(number as u32 + 1))
            .await
            .expect("move");
        number += 1;
        for ws in [&mut ws_white, &mut ws_black, &mut spectator] {
            let msg = ws.recv_type("move").await;
            assert_eq!(msg["move"]["number"].as_u64(), Some(number));
            assert_eq!(msg["move"]["notation"], mv.as_str());
            assert_eq!(
                msg["state"]["moves"].as_array().unwrap().len() as u64,
                number
            );
            assert!(msg["state"].get("you").is_none());
        }
        state = serde_json::to_value(&after).unwrap();
    }
    for ws in [&mut ws_white, &mut ws_black, &mut spectator] {
        let end = ws.recv_type("end").await;
        assert_eq!(end["result"], state["result"]);
        assert_eq!(end["reason"], "no_moves");
        assert!(
            ws.next_within(Duration::from_millis(100)).await.is_none(),
            "nothing after the end"
        );
    }

    // A player leaving shows in the presence.
    drop(ws_black);
    spectator
        .presence_until(|p| p["seats"]["black"]["connected"] == false)
        .await;
}

#[tokio::test]
async fn a_reconnecting_client_gets_exactly_the_moves_it_missed() {
    let server = TestServer::start().await;
    let grant = server.create(json!({ "mode": "local", "seed": 21 })).await;
    let id = grant["game_id"].as_str().unwrap();
    let token = grant["token"].as_str().unwrap();
    let server = &server;
    let play = |n: usize| async move {
        let state = server.client.state(id, None).await.unwrap();
        let moves: Vec<String> = state
            .legal_moves
            .iter()
            .map(|m| m.notation.clone())
            .collect();
        server
            .client
            .play(id, token, &pick(&moves, n), None)
            .await
            .expect("move");
    };

    let mut ws = server.ws(id).await;
    ws.hello(Some(0), Some(0), None).await;
    play(0).await;
    assert_eq!(ws.recv_type("move").await["move"]["number"], 1);
    drop(ws);
    for n in 1..4 {
        play(n).await;
    }
    // Back with one move: it gets moves 2 to 4, then the live ones.
    let mut ws = server.ws(id).await;
    let sync = ws.hello(Some(1), Some(0), None).await;
    assert_eq!(sync["after"], 1);
    let numbers: Vec<u64> = sync["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, vec![2, 3, 4]);
    play(4).await;
    assert_eq!(ws.recv_type("move").await["move"]["number"], 5);
    // Up to date: nothing missed.
    let sync = ws.hello(Some(5), Some(0), None).await;
    assert_eq!(
        (
            sync["after"].as_u64(),
            sync["moves"].as_array().map(Vec::len)
        ),
        (Some(5), Some(0))
    );

    // After an undo the client's moves may differ: it gets everything.
    let undone = server.client.undo(id, token).await.unwrap();
    assert_eq!(undone.epoch, 1);
    let msg = ws.recv_type("undo").await;
    assert_eq!(msg["state"]["moves"].as_array().unwrap().len(), 4);
    let mut late = server.ws(id).await;
    let sync = late.hello(Some(5), Some(0), None).await;
    assert_eq!(sync["after"], 0);
    assert_eq!(sync["moves"].as_array().unwrap().len(), 4);
    let sync = late.hello(Some(4), Some(1), None).await;
    assert_eq!(
        (
            sync["after"].as_u64(),
            sync["moves"].as_array().map(Vec::len)
        ),
        (Some(4), Some(0))
    );
    // A client claiming more moves than exist also starts over.
    let sync = late.hello(Some(9), Some(1), None).await;
    assert_eq!(sync["after"], 0);
}

#[tokio::test]
async fn a_websocket_refuses_forged_tokens_and_bad_messages() {
    let server = TestServer::start().await;
    let grant = server.create(json!({ "mode": "local" })).await;
    let id = grant["game_id"].as_str().unwrap();
    let mut ws = server.ws(id).await;
    ws.send(json!({ "type": "dance" })).await;
    assert_eq!(ws.recv().await["code"], "malformed_json");
    ws.send(json!({ "type": "ping" })).await;
    assert_eq!(ws.recv().await["type"], "pong");
    ws.send(json!({ "type": "hello", "token": "0".repeat(64) }))
        .await;
    let err = ws.recv().await;
    assert_eq!(
        (err["type"].as_str(), err["code"].as_str()),
        (Some("error"), Some("token_invalid"))
    );
    assert_eq!(ws.recv().await, Value::Null, "closed after a forged token");
    // A flood of messages closes the socket.
    let mut ws = server.ws(id).await;
    for _ in 0..30 {
        ws.send(json!({ "type": "ping" })).await;
    }
    let mut closed = false;
    for _ in 0..40 {
        let v = ws.recv().await;
        if v == Value::Null {
            closed = true;
            break;
        }
    }
    assert!(closed);
}

#[tokio::test]
async fn a_whole_game_against_the_engine_at_level_1() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "engine", "color": "black", "engine_level": 1, "engine_movetime_ms": 20, "seed": 77 }))
        .await;
    let id = grant["game_id"].as_str().unwrap();
    let token = grant["token"].as_str().unwrap();
    assert_eq!(grant["state"]["settings"]["engine"]["color"], "white");
    assert_eq!(grant["state"]["seats"]["white"]["kind"], "engine");
    let mut ws = server.ws(id).await;
    let sync = ws.hello(Some(0), Some(0), Some(token)).await;
    let mut have = sync["moves"].as_array().unwrap().len();
    let mut state = sync["state"].clone();
    let mut mine = 0;
    loop {
        if state["status"] == "finished" {
            break;
        }
        if state["to_move"] == "black" {
            let mv = pick(&legal(&state), mine);
            mine += 1;
            let answer = server
                .client
                .play(id, token, &mv, Some(have as u32 + 1))
                .await
                .expect("my move");
            // Not to play again on the old state while a presence message comes first.
            state = serde_json::to_value(&answer).expect("a state");
        }
        let msg = ws.recv().await;
        match msg["type"].as_str() {
            Some("move") => {
                have += 1;
                assert_eq!(msg["move"]["number"].as_u64(), Some(have as u64));
                state = msg["state"].clone();
            }
            Some("end") => {
                state = msg["state"].clone();
            }
            Some("presence" | "update") => {}
            other => panic!("unexpected message {other:?}: {msg}"),
        }
    }
    assert_eq!(state["end_reason"], "no_moves");
    let sides: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["side"].as_str().unwrap())
        .collect();
    assert_eq!(sides[0], "white", "the engine opened");
    assert!(
        sides.iter().filter(|s| **s == "white").count() >= 5,
        "the engine played its part"
    );
    let record = server.client.record(id).await.unwrap();
    assert!(record.contains("[White \"Engine level 1\"]"), "{record}");
    mabula::Game::parse(&record).expect("the record reads back");
}

#[tokio::test]
async fn the_server_keeps_answering_while_engines_think() {
    let server = TestServer::start_with(|c| c.services.engine_threads = 1).await;
    // Three engines to start at once on a pool of one: two wait in the queue.
    let mut ids = Vec::new();
    for seed in 0..3 {
        let grant = server
            .create(json!({ "mode": "engine", "color": "black", "engine_level": 1, "engine_movetime_ms": 300, "seed": seed }))
            .await;
        ids.push(grant["game_id"].as_str().unwrap().to_string());
    }
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    while started.elapsed() < Duration::from_millis(500) {
        let t = Instant::now();
        let (status, _) = server.get("/healthz", None).await;
        assert_eq!(status, 200);
        let state = server.client.state(&ids[2], None).await.unwrap();
        slowest = slowest.max(t.elapsed());
        if !state.moves.is_empty() {
            break;
        }
        assert!(state.engine_thinking);
    }
    assert!(
        slowest < Duration::from_millis(200),
        "an answer took {slowest:?}"
    );
    // Every engine gets its turn.
    for id in &ids {
        let mut state = server.client.state(id, None).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while state.moves.is_empty() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
            state = server.client.state(id, None).await.unwrap();
        }
        assert_eq!(state.moves.len(), 1, "the engine of {id} moved");
        assert!(!state.engine_thinking);
    }
}

#[tokio::test]
async fn a_stopping_server_closes_its_websockets_and_keeps_every_game() {
    let mut server = TestServer::start().await;
    let grant = server.create(json!({ "mode": "local", "seed": 4 })).await;
    let id = grant["game_id"].as_str().unwrap().to_string();
    let token = grant["token"].as_str().unwrap().to_string();
    let mv = pick(&legal(&grant["state"]), 0);
    server.client.play(&id, &token, &mv, Some(1)).await.unwrap();
    let mut ws = server.ws(&id).await;
    ws.hello(None, None, None).await;
    server.stop().await;
    assert_eq!(
        ws.next_within(Duration::from_secs(5)).await,
        Some(Value::Null),
        "the socket was closed"
    );
    let dir = server.take_dir();
    let restarted = TestServer::start_config(common::test_config(&server.database), dir).await;
    let state = restarted
        .client
        .state(&id, Some(&token))
        .await
        .expect("the game is still there");
    assert_eq!(state.moves.len(), 1);
    assert_eq!(state.moves[0].notation, mv);
    restarted
        .client
        .play(&id, &token, &state.legal_moves[0].notation, Some(2))
        .await
        .expect("and goes on");
}
