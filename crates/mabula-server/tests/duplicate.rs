//! Duplicate pairs over real HTTP: the same start twice, colours swapped, and the combined result.

use crate::common;

use common::{TestServer, legal, pick};
use serde_json::{Value, json};

const SETUP: &str = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 b";

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

/// White's points of a result token.
fn white_points(result: &str) -> f64 {
    match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => panic!("not a final result: {other}"),
    }
}

/// Asks for the rematch of `id`; answers the grant.
async fn rematch(server: &TestServer, id: &str, token: &str) -> Value {
    let (status, grant) = server
        .post(&format!("/api/games/{id}/rematch"), Some(token), json!({}))
        .await;
    assert_eq!(status, 201, "{grant}");
    grant
}

#[tokio::test]
async fn a_duplicate_pair_replays_the_start_and_adds_up_both_games() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "local", "setup": SETUP, "duplicate": true }))
        .await;
    let (first_id, token) = (
        grant["game_id"].as_str().expect("id").to_string(),
        grant["token"].as_str().expect("token").to_string(),
    );
    assert_eq!(grant["state"]["settings"]["duplicate"], true);
    assert_eq!(grant["state"]["settings"]["pair_half"], "first");
    assert_eq!(grant["state"]["pair"], Value::Null);
    let first = play_out(&server, &first_id, &token, grant["state"].clone()).await;
    assert_eq!(first["status"], "finished");

    let second = rematch(&server, &first_id, &token).await;
    let second_id = second["game_id"].as_str().expect("id").to_string();
    let token2 = second["token"].as_str().expect("token").to_string();
    let st = &second["state"];
    assert_eq!(st["start"], SETUP, "the same start, the same first mover");
    assert_eq!(st["settings"]["pair_half"], "second");
    assert_eq!(st["pair"]["first"], first_id.as_str());
    assert_eq!(st["pair"]["second"], second_id.as_str());
    assert_eq!(st["pair"]["results"][0], first["result"]);
    assert_eq!(st["pair"]["results"][1], "*");
    assert_eq!(st["pair"]["complete"], false);
    assert_eq!(st["pair"]["points"], Value::Null);

    let done = play_out(&server, &second_id, &token2, st.clone()).await;
    let pair = &done["pair"];
    assert_eq!(pair["complete"], true, "{pair}");
    let (r1, r2) = (
        first["result"].as_str().expect("result"),
        done["result"].as_str().expect("result"),
    );
    assert_eq!(pair["results"], json!([r1, r2]));
    let wtb = white_points(r1) + (1.0 - white_points(r2));
    let btw = (1.0 - white_points(r1)) + white_points(r2);
    assert_eq!(pair["points"]["white_then_black"], wtb);
    assert_eq!(pair["points"]["black_then_white"], btw);
    assert_eq!(wtb + btw, 2.0, "two games give two points");

    // A rematch after the pair starts a new pair.
    let third = rematch(&server, &second_id, &token2).await;
    assert_eq!(third["state"]["settings"]["pair_half"], "first");
    assert_eq!(third["state"]["pair"], Value::Null);
}

#[tokio::test]
async fn a_duplicate_pair_against_the_engine_swaps_colours_and_survives_a_restart() {
    let mut server = TestServer::start().await;
    let grant = server
        .create(json!({
            "mode": "engine", "seed": 42, "first": "black", "duplicate": true,
            "engine_movetime_ms": 10
        }))
        .await;
    let first_id = grant["game_id"].as_str().expect("id").to_string();
    let token = grant["token"].as_str().expect("token").to_string();
    let start = grant["state"]["start"].clone();
    assert_eq!(grant["state"]["settings"]["engine"]["color"], "black");
    // The person (White) resigns: Black, the engine, wins the first game.
    let (status, first) = server
        .post(
            &format!("/api/games/{first_id}/resign"),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!((status, first["result"].as_str()), (200, Some("0-1")));

    let second = rematch(&server, &first_id, &token).await;
    let second_id = second["game_id"].as_str().expect("id").to_string();
    let token2 = second["token"].as_str().expect("token").to_string();
    assert_eq!(second["state"]["start"], start, "the same deal");
    assert_eq!(second["state"]["settings"]["seed"], "42");
    assert_eq!(second["state"]["settings"]["engine"]["color"], "white");
    assert_eq!(
        second["seats"],
        json!(["black"]),
        "the person now plays Black"
    );

    // The person (Black) resigns again: the engine wins both.
    let (status, done) = server
        .post(
            &format!("/api/games/{second_id}/resign"),
            Some(&token2),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{done}");
    let expected = json!({
        "first": first_id, "second": second_id, "results": ["0-1", "1-0"], "complete": true,
        "points": { "white_then_black": 0.0, "black_then_white": 2.0 }
    });
    assert_eq!(done["pair"], expected);

    server.stop().await;
    let dir = server.take_dir();
    let restarted = TestServer::start_config(common::test_config(&server.database), dir).await;
    let (status, state) = restarted
        .get(&format!("/api/games/{second_id}"), None)
        .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["pair"], expected, "the pair survives a restart");
    let (_, first) = restarted.get(&format!("/api/games/{first_id}"), None).await;
    assert_eq!(first["settings"]["pair_half"], "first");
}

#[tokio::test]
async fn duplicate_must_be_a_boolean() {
    let server = TestServer::start().await;
    let (status, err) = server
        .post(
            "/api/games",
            None,
            json!({ "mode": "local", "duplicate": "yes" }),
        )
        .await;
    assert!((400..500).contains(&status), "{err}");
    assert!(
        err["message"]
            .as_str()
            .is_some_and(|m| m.contains("boolean")),
        "{err}"
    );
}

#[tokio::test]
async fn both_friends_get_their_seats_in_the_second_game_of_a_pair() {
    let server = TestServer::start().await;
    let grant = server
        .create(json!({ "mode": "friend", "setup": SETUP, "duplicate": true }))
        .await;
    let id = grant["game_id"].as_str().expect("id").to_string();
    let alice = grant["token"].as_str().expect("token").to_string();
    let code = grant["join_code"].as_str().expect("code");
    let (status, joined) = server
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "code": code }),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let bob = joined["token"].as_str().expect("token").to_string();
    // Black (Bob) moves first in this setup, then resigns: Alice (White) wins game 1.
    let (status, _) = server
        .post(&format!("/api/games/{id}/resign"), Some(&bob), json!({}))
        .await;
    assert_eq!(status, 200);

    let a2 = rematch(&server, &id, &alice).await;
    let b2 = rematch(&server, &id, &bob).await;
    assert_eq!(a2["game_id"], b2["game_id"], "one second game for both");
    assert_eq!(
        (a2["seats"].clone(), b2["seats"].clone()),
        (json!(["black"]), json!(["white"]))
    );
    assert_eq!(b2["state"]["start"], SETUP);
    let second = a2["game_id"].as_str().expect("id").to_string();
    let alice2 = a2["token"].as_str().expect("token").to_string();
    // Alice (now Black, to move first) resigns: one game each.
    let (status, done) = server
        .post(
            &format!("/api/games/{second}/resign"),
            Some(&alice2),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(
        done["pair"]["points"],
        json!({ "white_then_black": 1.0, "black_then_white": 1.0 })
    );
}
