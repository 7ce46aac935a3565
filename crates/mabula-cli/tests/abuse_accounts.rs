//! Abuse of accounts and ratings (issue 35), over real sockets on real `mabula serve`
//! processes: three instances on one PostgreSQL database when `MABULA_TEST_POSTGRES_URL` names
//! one, else one instance on SQLite. Sign-ups are limited per address and hour; a device that
//! logged in before keeps logging in while strangers' failures lock the name; two accounts that
//! farm rated games leave the second player's advantage where it was.

use crate::common;

use common::Instance;
use common::player::{PASSWORD, Player};
use serde_json::json;

/// Three instances on a fresh PostgreSQL database, or one on SQLite in `dir`; and the database.
async fn instances(dir: &tempfile::TempDir) -> (Vec<Instance>, String) {
    let db = match std::env::var("MABULA_TEST_POSTGRES_URL") {
        Ok(url) => mabula_server::store::postgres::create_database(&url)
            .await
            .expect("a fresh database"),
        Err(_) => {
            eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: one instance on SQLite");
            dir.path().join("abuse.sqlite3").display().to_string()
        }
    };
    let n = if db.starts_with("postgres") { 3 } else { 1 };
    ((0..n).map(|_| Instance::start(&db, 20)).collect(), db)
}

fn bases(nodes: &[Instance]) -> Vec<String> {
    nodes.iter().map(|n| n.client.base().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_makes_five_accounts_an_hour_on_all_instances_together() {
    let dir = tempfile::tempdir().expect("dir");
    let (nodes, _db) = instances(&dir).await;
    let bases = bases(&nodes);
    let at = |i: usize| bases[i % bases.len()].as_str();
    for i in 0..5 {
        Player::guest_from(at(i), "127.0.0.1")
            .signed_up(&format!("farmer{i}"))
            .await;
    }
    // The sixth, on whichever instance, is refused before its password is hashed.
    for i in 0..bases.len() {
        let p = Player::guest_from(at(i), "127.0.0.1");
        let r = p
            .http
            .post(format!("{}/api/accounts", p.base))
            .json(&json!({"name": format!("sixth{i}"), "password": PASSWORD}))
            .send()
            .await
            .expect("an answer");
        assert_eq!(r.status().as_u16(), 429);
        assert!(r.headers().get("set-cookie").is_none());
        let wait: u64 = r
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok()?.parse().ok())
            .expect("Retry-After");
        assert!((1..=3600).contains(&wait), "{wait}");
        let body: serde_json::Value = r.json().await.expect("JSON");
        assert_eq!(body["code"], "rate_limited", "{body}");
    }
    // The refused names were not taken; another address still signs up.
    Player::guest_from(at(1), "127.0.0.2")
        .signed_up("sixth0")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owners_device_logs_in_while_strangers_failures_lock_the_name() {
    let dir = tempfile::tempdir().expect("dir");
    let (nodes, _db) = instances(&dir).await;
    let bases = bases(&nodes);
    let last = bases.len() - 1;
    // The owner signs up on one instance: the browser keeps a device cookie.
    let owner = Player::guest_from(&bases[0], "127.0.0.1")
        .signed_up("owner")
        .await;
    assert!(owner.device.is_some(), "no device cookie at sign-up");

    // Strangers from two other addresses, on every instance, fail five times.
    for i in 0..5 {
        let address = if i % 2 == 0 { "127.0.0.2" } else { "127.0.0.3" };
        let mut stranger = Player::guest_from(&bases[i % bases.len()], address);
        let (status, body) = stranger
            .start_session(
                "/api/session",
                json!({"name": "owner", "password": format!("wrong guess {i}")}),
            )
            .await;
        assert_eq!(status, 401, "{body}");
    }
    // The name is locked for strangers, even with the right password...
    let mut stranger = Player::guest_from(&bases[last], "127.0.0.4");
    let (status, body) = stranger
        .start_session(
            "/api/session",
            json!({"name": "owner", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 429, "{body}");
    // ...and for the owner on a new device...
    let mut new_device = Player::guest_from(&bases[last], "127.0.0.1");
    let (status, body) = new_device
        .start_session(
            "/api/session",
            json!({"name": "owner", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 429, "{body}");
    // ...but not for the owner's device, on another instance.
    let mut device = owner.on(&bases[last]);
    let (status, body) = device
        .start_session(
            "/api/session",
            json!({"name": "owner", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(device.get("/api/session").await.1["name"], "owner");
    assert_eq!(
        device.device, owner.device,
        "a trusted device keeps its cookie"
    );

    // The device's own failures lock the device, and only for this name: a device cookie is
    // no way around the name's lock for another account.
    for i in 0..5 {
        let (status, body) = device
            .start_session(
                "/api/session",
                json!({"name": "owner", "password": format!("typo {i}")}),
            )
            .await;
        assert_eq!(status, 401, "{body}");
    }
    let (status, body) = device
        .start_session(
            "/api/session",
            json!({"name": "owner", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 429, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_and_twenty_farmed_games_leave_the_advantage_where_it_was() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut nodes, db) = instances(&dir).await;
    let bases = bases(&nodes);
    let at = |i: usize| bases[i % bases.len()].as_str();
    let alice = Player::sign_up(at(0), "alice").await;
    let bob = Player::sign_up(at(1), "bob").await;

    // Two accounts on one address farm: seek, accept, two moves, resign. They take White (who
    // moves first) in turn, so their ratings stay close, and White wins three games in four: a
    // first player's advantage no real game shows.
    for i in 0..220 {
        let (alice, bob) = (alice.on(at(i)), bob.on(at(i + 1)));
        let color = if i % 2 == 0 { "white" } else { "black" };
        let (status, seek) = alice
            .post(
                "/api/seeks",
                json!({"scoring": "largest", "rated": true, "days": 2, "color": color}),
            )
            .await;
        assert_eq!(status, 201, "{seek}");
        let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().expect("id"));
        let (status, started) = bob.post(&accept, json!({})).await;
        assert_eq!(status, 200, "{started}");
        let id = started["game_id"].as_str().expect("game").to_string();
        let (white, black) = if i % 2 == 0 {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        let after = white.play_first_legal(&id).await;
        // The first ten of the day are rated; the pair's further games are casual from the
        // start, so their page says so.
        assert_eq!(after["rated"], i < 10, "game {i}: {after}");
        let reply = after["legal_moves"][0]["notation"]
            .as_str()
            .expect("a move");
        let (status, after) = black
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": reply, "number": 2}),
            )
            .await;
        assert_eq!(status, 200, "{after}");
        let loser = if i % 4 == 3 { white } else { black };
        let (status, end) = loser
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(status, 200, "{end}");
    }

    // The moderators see the pair (the servers are stopped first: SQLite has one process).
    for node in &mut nodes {
        node.kill();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["moderation", "flags", "--database", &db])
        .output()
        .expect("mabula moderation flags");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("alice bob 210 casual games"), "{text}");

    // A fresh instance (no advantage cached) measures the advantage on the rated games: the
    // farm's ten rated games ended after two moves, so none counts, and the default holds.
    let fresh = Instance::start(&db, 20);
    let advantage = Player::guest(fresh.client.base())
        .get("/api/ratings/advantage")
        .await
        .1;
    assert_eq!(advantage["used"][0], advantage["default"], "{advantage}");
    assert_eq!(advantage["measured"][0]["games"], 0, "{advantage}");
    // Ten rated games moved the ratings; the casual ones did not.
    let (_, profile) = Player::guest(fresh.client.base())
        .get("/api/players/alice")
        .await;
    assert_eq!(profile["ratings"][0]["games"], 10, "{profile}");
}
