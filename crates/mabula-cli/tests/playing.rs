//! Playing together (issue 36) over real HTTP and WebSocket on real `mabula serve` processes:
//! engine and friend games of logged-in players recorded on their accounts; draw offers (offered
//! on one instance, heard and accepted on others, the game ended once and rated as a draw); the
//! abort before each side's first move; the one-click rematch of a lobby game. The tests that
//! need several instances run three on PostgreSQL when `MABULA_TEST_POSTGRES_URL` is set, else
//! one on SQLite.

use crate::common;

use common::Instance;
use common::player::{Lobby, Player};
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Three instances on a fresh PostgreSQL database, or one on SQLite in `dir`.
async fn instances(dir: &tempfile::TempDir) -> Vec<Instance> {
    common::instances(dir, "playing.sqlite3").await
}

fn bases(nodes: &[Instance]) -> Vec<String> {
    nodes.iter().map(|n| n.client.base().to_string()).collect()
}

/// Waits until the game's state satisfies `done` (polling), for at most `limit`.
async fn wait_for(p: &Player, id: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + limit;
    loop {
        let (_, state) = p.get(&format!("/api/games/{id}")).await;
        if done(&state) {
            return state;
        }
        assert!(Instant::now() < until, "not reached in {limit:?}: {state}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A rated (or casual) game of 5 minutes between two new accounts from the lobby: `first` seeks
/// as White on one instance, `second` accepts on another.
async fn lobby_game(
    bases: &[String],
    first: &str,
    second: &str,
    rated: bool,
) -> (Player, Player, String) {
    let white = Player::sign_up(&bases[0], first).await;
    let black = Player::sign_up(&bases[1 % bases.len()], second).await;
    let (status, seek) = white
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": rated, "clock": {"initial_s": 300, "increment_s": 0}, "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let (status, started) = black
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().expect("id")),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let id = started["game_id"].as_str().expect("game").to_string();
    (white, black, id)
}

/// A game's WebSocket for `p` (by its session), after its `sync`.
async fn game_socket(p: &Player, id: &str) -> Lobby {
    let mut socket = p.socket(&format!("/api/games/{id}/ws")).await;
    socket
        .ws
        .send(Message::Text(r#"{"type":"hello"}"#.into()))
        .await
        .expect("hello");
    socket.until("sync").await;
    socket
}

/// Reads the socket's messages until one of type `kind` satisfies `done`.
async fn until_state(socket: &mut Lobby, kind: &str, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = socket.until(kind).await;
        if done(&msg) {
            return msg;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_and_friend_games_of_logged_in_players_are_on_their_accounts() {
    let dir = tempfile::tempdir().expect("dir");
    let nodes = instances(&dir).await;
    let bases = bases(&nodes);
    let eve = Player::sign_up(&bases[0], "eve").await;
    let max = Player::sign_up(&bases[bases.len() - 1], "Max").await;

    // An engine game created with the session names Eve's seat, and is casual.
    let (status, grant) = eve
        .post(
            "/api/games",
            json!({"mode": "engine", "color": "white", "engine_level": 1}),
        )
        .await;
    assert_eq!(status, 201, "{grant}");
    let engine_id = grant["game_id"].as_str().expect("id").to_string();
    assert_eq!(grant["state"]["players"]["white"]["name"], "eve", "{grant}");
    assert_eq!(grant["state"]["players"]["black"], Value::Null);
    assert_eq!(grant["state"]["rated"], false);
    // The session alone plays it.
    eve.play_first_legal(&engine_id).await;

    // A friend game: Eve creates it, Max joins it logged in; both are named.
    let (status, grant) = eve
        .post("/api/games", json!({"mode": "friend", "color": "black"}))
        .await;
    assert_eq!(status, 201, "{grant}");
    let friend_id = grant["game_id"].as_str().expect("id").to_string();
    assert_eq!(grant["state"]["players"]["black"]["name"], "eve");
    let code = grant["join_code"].as_str().expect("a join code");
    let (status, joined) = max
        .post(
            &format!("/api/games/{friend_id}/join"),
            json!({"code": code}),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let (_, state) = Player::guest(&bases[0])
        .get(&format!("/api/games/{friend_id}"))
        .await;
    assert_eq!(state["players"]["white"]["name"], "Max", "{state}");
    assert_eq!(state["players"]["black"]["name"], "eve");
    assert_eq!(state["rated"], false);
    max.play_first_legal(&friend_id).await;
    let (status, _) = eve
        .post(&format!("/api/games/{friend_id}/resign"), json!({}))
        .await;
    assert_eq!(status, 200);

    // Both games are on Eve's profile; the friend game on Max's; the record names them.
    let (_, games) = Player::guest(&bases[0]).get("/api/players/eve/games").await;
    let ids: Vec<&str> = games["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert!(
        ids.contains(&engine_id.as_str()) && ids.contains(&friend_id.as_str()),
        "{games}"
    );
    let (_, games) = Player::guest(&bases[0]).get("/api/players/max/games").await;
    assert_eq!(games["games"][0]["id"].as_str(), Some(friend_id.as_str()));
    let text = reqwest::get(format!("{}/api/games/{friend_id}/record", bases[0]))
        .await
        .expect("answer")
        .text()
        .await
        .expect("text");
    assert!(
        text.contains("[White \"Max\"]") && text.contains("[Black \"eve\"]"),
        "{text}"
    );

    // The rematch keeps both accounts, colours swapped, still casual.
    let (status, grant) = max
        .post(&format!("/api/games/{friend_id}/rematch"), json!({}))
        .await;
    assert_eq!(status, 201, "{grant}");
    assert_eq!(grant["state"]["players"]["black"]["name"], "Max", "{grant}");
    assert_eq!(grant["state"]["players"]["white"]["name"], "eve");
    assert_eq!(grant["state"]["rated"], false);

    // A guest's game names nobody.
    let (_, grant) = Player::guest(&bases[0])
        .post("/api/games", json!({"mode": "engine"}))
        .await;
    assert_eq!(grant["state"]["players"]["white"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offered_on_one_instance_and_accepted_on_another_ends_the_game_once_rated_as_a_draw()
{
    let dir = tempfile::tempdir().expect("dir");
    let nodes = instances(&dir).await;
    let bases = bases(&nodes);
    let at = |i: usize| bases[i % bases.len()].clone();
    let (ann, ben, id) = lobby_game(&bases, "ann", "ben", true).await;
    let draw = format!("/api/games/{id}/draw");
    let decline = format!("/api/games/{id}/draw/decline");

    // Ben follows the game on instance 2.
    let mut ben_socket = game_socket(&ben.on(&at(2)), &id).await;
    ann.on(&at(0)).play_first_legal(&id).await;
    ben.on(&at(1)).play_first_legal(&id).await;

    // Ann offers on instance 0: Ben's socket on instance 2 hears it.
    let (status, offered) = ann.on(&at(0)).post(&draw, json!({})).await;
    assert_eq!(status, 200, "{offered}");
    assert_eq!(offered["draw_offer"], "white");
    let heard = until_state(&mut ben_socket, "update", |m| {
        m["state"]["draw_offer"] == "white"
    })
    .await;
    assert_eq!(heard["reason"], "draw_offered", "{heard}");
    // No second offer while the first stands, and nothing to decline for Ann.
    let (status, again) = ann.on(&at(1)).post(&draw, json!({})).await;
    assert_eq!(
        (status, again["code"].as_str()),
        (409, Some("draw_offer_pending"))
    );
    let (status, none) = ann.on(&at(1)).post(&decline, json!({})).await;
    assert_eq!(
        (status, none["code"].as_str()),
        (409, Some("no_draw_offer"))
    );

    // Ben declines on instance 1: Ann may not offer again until four more moves are played.
    let (status, declined) = ben.on(&at(1)).post(&decline, json!({})).await;
    assert_eq!(status, 200, "{declined}");
    assert_eq!(declined["draw_offer"], Value::Null);
    let (status, soon) = ann.on(&at(2)).post(&draw, json!({})).await;
    assert_eq!(
        (status, soon["code"].as_str()),
        (409, Some("draw_offer_too_soon")),
        "{soon}"
    );
    for i in 0..4 {
        let mover = if i % 2 == 0 { &ann } else { &ben };
        mover.on(&at(i)).play_first_legal(&id).await;
    }

    // Ann offers again; Ben's move answers it (the offer is gone); the offerer's own move would
    // not have.
    let (status, offered) = ann.on(&at(0)).post(&draw, json!({})).await;
    assert_eq!(status, 200, "{offered}");
    let moved = ann.on(&at(0)).play_first_legal(&id).await;
    assert_eq!(moved["draw_offer"], "white", "the offerer's move keeps it");
    let moved = ben.on(&at(1)).play_first_legal(&id).await;
    assert_eq!(
        moved["draw_offer"],
        Value::Null,
        "the other side's move clears it"
    );

    // Ben offers on instance 1 (his offer was never declined); Ann accepts on two instances at
    // once: one acceptance ends the game, the other finds it over.
    let (status, offered) = ben.on(&at(1)).post(&draw, json!({})).await;
    assert_eq!(status, 200, "{offered}");
    assert_eq!(offered["draw_offer"], "black");
    let (ann0, ann2) = (ann.on(&at(0)), ann.on(&at(2)));
    let (a, b) = tokio::join!(ann0.post(&draw, json!({})), ann2.post(&draw, json!({})));
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{} / {}", a.1, b.1);
    let ended = if a.0 == 200 { &a.1 } else { &b.1 };
    assert_eq!(ended["end_reason"], "draw_agreed", "{ended}");
    assert_eq!(ended["result"], "1/2-1/2");
    assert_eq!(ended["winner"], Value::Null);
    let refused = if a.0 == 200 { &b.1 } else { &a.1 };
    assert_eq!(refused["code"], "game_over", "{refused}");
    let end = until_state(&mut ben_socket, "end", |_| true).await;
    assert_eq!(end["reason"], "draw_agreed", "{end}");

    // Rated as a draw: Ben's socket on instance 2 hears both rating changes (in the end's own
    // state when that instance read the game after it was rated, else in the update that
    // follows); each rating moved once.
    let rated = if end["state"]["players"]["white"]["rating_diff"].is_null() {
        let update = until_state(&mut ben_socket, "update", |m| {
            !m["state"]["players"]["white"]["rating_diff"].is_null()
        })
        .await;
        assert_eq!(update["reason"], "rated", "{update}");
        update
    } else {
        end
    };
    assert!(!rated["state"]["players"]["black"]["rating_diff"].is_null());
    // Every instance's sweep runs again, and rates nothing twice.
    common::advance(&bases, Duration::from_secs(2)).await;
    let (_, state) = Player::guest(&at(1)).get(&format!("/api/games/{id}")).await;
    for (who, colour) in [("ann", "white"), ("ben", "black")] {
        let (_, profile) = Player::guest(&at(2))
            .get(&format!("/api/players/{who}"))
            .await;
        let r = &profile["ratings"][0];
        assert_eq!(r["games"], 1, "rated once: {profile}");
        let diff = state["players"][colour]["rating_diff"]
            .as_i64()
            .expect("diff");
        assert_eq!(r["rating"].as_i64(), Some(1500 + diff), "{profile}");
        let side = if colour == "white" { "first" } else { "second" };
        assert_eq!(profile["results"][side]["draws"], 1, "{profile}");
    }
    let text = reqwest::get(format!("{}/api/games/{id}/record", at(0)))
        .await
        .expect("answer")
        .text()
        .await
        .expect("text");
    assert!(text.contains("[Termination \"draw_agreed\"]"), "{text}");

    // One click of either player starts the rematch: same clock, colours swapped, rated; the
    // other's click finds the same game.
    let rematch = format!("/api/games/{id}/rematch");
    let (status, grant) = ben.on(&at(0)).post(&rematch, json!({})).await;
    assert_eq!(status, 201, "{grant}");
    let next = &grant["state"];
    assert_eq!(next["players"]["white"]["name"], "ben", "{next}");
    assert_eq!(next["players"]["black"]["name"], "ann");
    assert_eq!(next["rated"], true);
    assert_eq!(next["clock"]["label"], "5+0");
    let new_id = grant["game_id"].as_str().expect("id").to_string();
    let (status, joined) = ann.on(&at(1)).post(&rematch, json!({})).await;
    assert!(status < 300, "{joined}");
    assert_eq!(joined["game_id"].as_str(), Some(new_id.as_str()));
    ben.on(&at(2)).play_first_legal(&new_id).await;
    ann.on(&at(0)).play_first_legal(&new_id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_aborted_before_the_second_move_and_refused_after_it() {
    let dir = tempfile::tempdir().expect("dir");
    let nodes = instances(&dir).await;
    let bases = bases(&nodes);
    let at = |i: usize| bases[i % bases.len()].clone();
    let (kim, lea, id) = lobby_game(&bases, "kim", "lea", true).await;
    let abort = format!("/api/games/{id}/abort");

    // A spectator may not abort; after White's first move Black may (on another instance).
    let (status, _) = Player::guest(&at(0)).post(&abort, json!({})).await;
    assert_eq!(status, 401);
    kim.on(&at(0)).play_first_legal(&id).await;
    let (status, ended) = lea.on(&at(2)).post(&abort, json!({})).await;
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["end_reason"], "aborted");
    assert_eq!(ended["status"], "finished");
    assert_eq!(ended["result"], "*");
    let (status, again) = kim.on(&at(1)).post(&abort, json!({})).await;
    assert_eq!((status, again["code"].as_str()), (409, Some("game_over")));
    // Not rated, even once every instance's sweep has run: no rating moved.
    common::advance(&bases, Duration::from_secs(2)).await;
    let state = wait_for(&kim.on(&at(1)), &id, Duration::from_secs(5), |s| {
        s["status"] == "finished"
    })
    .await;
    assert_eq!(state["players"]["white"]["rating_diff"], Value::Null);
    for who in ["kim", "lea"] {
        let (_, profile) = Player::guest(&at(2))
            .get(&format!("/api/players/{who}"))
            .await;
        assert_eq!(profile["ratings"], json!([]), "{profile}");
    }

    // Once each side has moved, a game can no longer be aborted.
    let (white, black, second) = lobby_game(&bases, "kimb", "leab", true).await;
    white.on(&at(1)).play_first_legal(&second).await;
    black.on(&at(2)).play_first_legal(&second).await;
    let (status, late) = black
        .on(&at(0))
        .post(&format!("/api/games/{second}/abort"), json!({}))
        .await;
    assert_eq!(
        (status, late["code"].as_str()),
        (409, Some("abort_too_late")),
        "{late}"
    );
    assert!(
        late["message"]
            .as_str()
            .unwrap_or("")
            .contains("before each side has made its first move"),
        "{late}"
    );
}

/// The account's games being played, read on `p`'s instance: `(id, entry)` in the order given.
async fn playing(p: &Player) -> Vec<(String, Value)> {
    let (status, list) = p.get("/api/account/playing").await;
    assert_eq!(status, 200, "{list}");
    list["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| (g["id"].as_str().expect("id").to_string(), g.clone()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accounts_games_being_played_are_the_same_on_every_device_and_instance() {
    let dir = tempfile::tempdir().expect("dir");
    let nodes = instances(&dir).await;
    let bases = bases(&nodes);
    let at = |i: usize| bases[i % bases.len()].clone();

    // Ana plays three games, begun on two instances: a rated real-time lobby game (White, her
    // move), a correspondence game (Black, her opponent's move) and a game against the engine.
    let (ana, bob, live) = lobby_game(&bases, "ana", "bob", true).await;
    let cyd = Player::sign_up(&at(2), "cyd").await;
    let (status, seek) = cyd
        .post(
            "/api/seeks",
            json!({"scoring": "product", "rated": false, "days": 2, "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let (status, started) = ana
        .on(&at(1))
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().expect("id")),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let letter = started["game_id"].as_str().expect("game").to_string();
    let (status, grant) = ana
        .post(
            "/api/games",
            json!({"mode": "engine", "color": "white", "engine_level": 1}),
        )
        .await;
    assert_eq!(status, 201, "{grant}");
    let engine = grant["game_id"].as_str().expect("id").to_string();

    // On a new device, logged in on the third instance, the same three: her moves first.
    let mut phone = Player::guest(&at(2));
    let (status, body) = phone
        .start_session(
            "/api/session",
            json!({"name": "ana", "password": common::player::PASSWORD}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let games = playing(&phone).await;
    let ids: Vec<&str> = games.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids.len(), 3, "{games:?}");
    assert_eq!(ids[2], letter, "the opponent's move comes last: {games:?}");
    let entry = |id: &str| {
        games
            .iter()
            .find(|(g, _)| g == id)
            .expect("listed")
            .1
            .clone()
    };
    let g = entry(&live);
    assert_eq!(g["color"], "white");
    assert_eq!(g["your_turn"], true);
    assert_eq!(g["opponent"]["name"], "bob");
    assert!(g["opponent"]["rating"].is_i64(), "{g}");
    assert_eq!(g["opponent"]["provisional"], true, "a new account: {g}");
    assert_eq!(g["opponent"]["engine_level"], Value::Null);
    assert_eq!(g["clock"]["label"], "5+0");
    assert_eq!(g["clock"]["speed"], "realtime");
    let left = g["clock"]["left_ms"].as_i64().expect("left");
    assert!(left > 0 && left <= 30_000, "the first move's time: {g}");
    assert_eq!(
        (g["rated"].clone(), g["tournament"].clone()),
        (json!(true), Value::Null)
    );
    let g = entry(&letter);
    assert_eq!(
        (g["color"].as_str(), g["your_turn"].as_bool()),
        (Some("black"), Some(false))
    );
    assert_eq!(g["opponent"]["name"], "cyd");
    assert_eq!(g["clock"]["label"], "2 days");
    assert_eq!(g["clock"]["speed"], "correspondence");
    assert_eq!(g["scoring"], "product");
    let g = entry(&engine);
    assert_eq!(g["opponent"]["engine_level"], 1);
    assert_eq!(g["opponent"]["name"], Value::Null);
    assert_eq!(
        (g["clock"].clone(), g["your_turn"].clone()),
        (Value::Null, json!(true))
    );

    // Her move in the lobby game, made on the phone: Bob's turn on his instance, not hers.
    phone.play_first_legal(&live).await;
    let turn = |list: &[(String, Value)], id: &str| {
        list.iter()
            .find(|(g, _)| g == id)
            .map(|(_, g)| g["your_turn"].clone())
    };
    assert_eq!(
        turn(&playing(&ana.on(&at(0))).await, &live),
        Some(json!(false))
    );
    assert_eq!(
        turn(&playing(&bob.on(&at(1))).await, &live),
        Some(json!(true))
    );

    // A finished game leaves both lists; a guest has no account to list.
    let (status, _) = bob
        .post(&format!("/api/games/{live}/resign"), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(turn(&playing(&ana.on(&at(1))).await, &live), None);
    assert!(playing(&bob.on(&at(2))).await.is_empty());
    let (status, body) = Player::guest(&at(0)).get("/api/account/playing").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_logged_in"))
    );
}
