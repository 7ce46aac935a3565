//! Several real `mabula serve` processes on one real PostgreSQL database (the one
//! `scripts/test.sh` starts, named by `MABULA_TEST_POSTGRES_URL`; without it these tests say so
//! and pass): a game played across instances, spectators on every instance, races of the same
//! move, an undo on a stale instance, an instance killed while its engine thinks, an analysis
//! computed once for three instances and taken over when its instance is killed, and a database
//! outage.

use crate::common;

use common::Instance;
use futures_util::{SinkExt, StreamExt};
use mabula_client::client::{Client, ClientError};
use mabula_server::model::Mode;
use mabula_server::view::{CreateGame, GameState};
use serde_json::{Value, json};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A fresh database on the test PostgreSQL server, or `None` (with a notice).
async fn fresh_postgres() -> Option<String> {
    let Ok(url) = std::env::var("MABULA_TEST_POSTGRES_URL") else {
        eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: the cluster tests are skipped");
        return None;
    };
    Some(
        mabula_server::store::postgres::create_database(&url)
            .await
            .expect("a fresh database"),
    )
}

/// Three instances on a fresh database.
async fn cluster(movetime_ms: u32) -> Option<(String, Vec<Instance>)> {
    let db = fresh_postgres().await?;
    let instances = (0..3).map(|_| Instance::start(&db, movetime_ms)).collect();
    Some((db, instances))
}

fn friend_game() -> CreateGame {
    CreateGame {
        seed: Some(mabula_server::view::SeedInput::Number(7)),
        ..CreateGame::new(Mode::Friend)
    }
}

/// A spectator's WebSocket: every move it is told of, by number.
struct Spectator {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    moves: Vec<u32>,
}

impl Spectator {
    async fn open(client: &Client, id: &str) -> Spectator {
        let (mut ws, _) = tokio_tungstenite::connect_async(client.ws_url(id))
            .await
            .expect("websocket");
        ws.send(Message::text(json!({"type": "hello"}).to_string()))
            .await
            .expect("hello");
        let mut s = Spectator {
            ws,
            moves: Vec::new(),
        };
        let sync = s.next().await;
        assert_eq!(sync["type"], "sync");
        for m in sync["moves"].as_array().expect("moves") {
            s.moves.push(m["number"].as_u64().expect("number") as u32);
        }
        s
    }

    async fn next(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a message within 20 s")
                .expect("open")
                .expect("readable");
            if let Message::Text(t) = msg {
                return serde_json::from_str(&t).expect("JSON");
            }
        }
    }

    /// Reads messages until `count` moves were seen.
    async fn until_moves(&mut self, count: u32) {
        while (self.moves.len() as u32) < count {
            let msg = self.next().await;
            if msg["type"] == "move" {
                self.moves
                    .push(msg["move"]["number"].as_u64().expect("number") as u32);
            }
        }
    }
}

async fn play_next(client: &Client, id: &str, token: &str, state: &GameState) -> GameState {
    let mv = &state.legal_moves[state.moves.len() % state.legal_moves.len()].notation;
    client
        .play(id, token, mv, Some(state.moves.len() as u32 + 1))
        .await
        .expect("the move is played")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_across_three_instances_and_watched_on_each() {
    let Some((_db, nodes)) = cluster(20).await else {
        return;
    };
    let grant = nodes[0]
        .client
        .create(&friend_game())
        .await
        .expect("create");
    let id = grant.game_id.clone();
    let black = nodes[1]
        .client
        .join(&id, grant.join_code.as_deref().expect("code"))
        .await
        .expect("join on another instance");
    let mut watchers = Vec::new();
    for n in &nodes {
        watchers.push(Spectator::open(&n.client, &id).await);
    }
    let mut state = nodes[2].client.state(&id, None).await.expect("state");
    let plies = 12;
    for ply in 0..plies {
        let token = if ply % 2 == 0 {
            &grant.token
        } else {
            &black.token
        };
        // Each move on the next instance: every instance acts on what another one stored.
        state = play_next(&nodes[ply % 3].client, &id, token, &state).await;
    }
    for w in &mut watchers {
        w.until_moves(plies as u32).await;
        assert_eq!(
            w.moves,
            (1..=plies as u32).collect::<Vec<_>>(),
            "every move once and in order"
        );
    }
    for n in &nodes {
        let s = n.client.state(&id, None).await.expect("state");
        assert_eq!(s.moves, state.moves);
    }
    // Presence is gathered for a moment, then summed over the instances.
    for n in &nodes {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let s = n.client.state(&id, None).await.expect("state");
            if s.spectators == 3 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the spectators of all instances count: {} seen",
                s.spectators
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn races_of_one_move_number_have_one_winner_and_one_history() {
    let Some((_db, nodes)) = cluster(20).await else {
        return;
    };
    let mut races = 0;
    while races < 100 {
        let grant = nodes[races % 3]
            .client
            .create(&CreateGame::new(Mode::Local))
            .await
            .expect("create");
        let id = grant.game_id;
        let mut state = nodes[0].client.state(&id, None).await.expect("state");
        while races < 100 && state.status != "finished" {
            state = race_once(&nodes, &id, &grant.token, &state, races).await;
            races += 1;
        }
    }
}

/// The same move number sent to two instances at once: one is played, the other refused with
/// `stale_state`, and both instances then show the same history.
async fn race_once(
    nodes: &[Instance],
    id: &str,
    token: &str,
    state: &GameState,
    i: usize,
) -> GameState {
    let (a, b) = (&nodes[i % 3].client, &nodes[(i + 1) % 3].client);
    let number = Some(state.moves.len() as u32 + 1);
    let legal = &state.legal_moves;
    let (m1, m2) = (
        &legal[i % legal.len()].notation,
        &legal[(i + 1) % legal.len()].notation,
    );
    let (r1, r2) = tokio::join!(a.play(id, token, m1, number), b.play(id, token, m2, number));
    let outcome = |r: &Result<GameState, ClientError>| match r {
        Ok(_) => "ok".to_string(),
        Err(e) => e.code(),
    };
    let mut outcomes = [outcome(&r1), outcome(&r2)];
    outcomes.sort();
    let sa = a.state(id, None).await.expect("state");
    // The loser hears that the game moved on (or, after the last move, that it is over).
    let refused = if sa.status == "finished" {
        "game_over"
    } else {
        "stale_state"
    };
    let mut expected = ["ok", refused];
    expected.sort();
    assert_eq!(outcomes, expected, "race {i}");
    let sb = b.state(id, None).await.expect("state");
    assert_eq!(
        sa.moves, sb.moves,
        "race {i}: one history on both instances"
    );
    sa
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_on_a_stale_instance_takes_back_only_the_latest_move() {
    let Some((_db, nodes)) = cluster(20).await else {
        return;
    };
    let grant = nodes[0]
        .client
        .create(&CreateGame::new(Mode::Local))
        .await
        .expect("create");
    let id = grant.game_id.clone();
    // B loads the game after one move.
    let mut state = play_next(
        &nodes[0].client,
        &id,
        &grant.token,
        &nodes[0].client.state(&id, None).await.expect("state"),
    )
    .await;
    nodes[1].client.state(&id, None).await.expect("B loads it");
    for _ in 0..3 {
        state = play_next(&nodes[0].client, &id, &grant.token, &state).await;
    }
    let undone = nodes[1]
        .client
        .undo(&id, &grant.token)
        .await
        .expect("undo on B");
    assert_eq!(undone.moves.len(), 3, "one move of four taken back");
    assert_eq!(undone.moves[..], state.moves[..3]);
    let on_a = nodes[0].client.state(&id, None).await.expect("state");
    assert_eq!(on_a.moves, undone.moves);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_move_lost_with_its_instance_is_played_by_another() {
    let Some((db, mut nodes)) = cluster(4000).await else {
        return;
    };
    // Only the first instance runs at first, so it claims the engine's move.
    let mut others = nodes.split_off(1);
    for o in &mut others {
        o.kill();
    }
    let grant = nodes[0]
        .client
        .create(&CreateGame {
            color: Some(mabula_server::view::ColorChoice::Black),
            engine_level: Some(10),
            engine_movetime_ms: Some(4000),
            ..CreateGame::new(Mode::Engine)
        })
        .await
        .expect("create an engine game where the engine starts");
    let id = grant.game_id.clone();
    tokio::time::sleep(Duration::from_millis(300)).await;
    nodes[0].kill();
    let survivor = Instance::start(&db, 4000);
    let started = Instant::now();
    let mut spectator = Spectator::open(&survivor.client, &id).await;
    spectator.until_moves(1).await;
    let taken_over = started.elapsed();
    assert!(
        taken_over < Duration::from_secs(20),
        "another instance played the engine's move after {taken_over:?}"
    );
    let state = survivor.client.state(&id, None).await.expect("state");
    assert_eq!(state.moves.len(), 1, "the engine moved exactly once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_sqlite_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("mabula-lock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("games.sqlite3").display().to_string();
    let _first = Instance::start(&db, 20);
    let second = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database", &db])
        .output()
        .expect("run a second server");
    assert!(!second.status.success());
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("in use by another mabula server"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PostgreSQL server of this test's own (so it can be stopped), from scripts/start-postgres.sh:
/// its URL and its directory (with `stop.sh` and `start.sh`).
fn own_postgres() -> Option<(String, std::path::PathBuf)> {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/start-postgres.sh");
    std::env::var("MABULA_TEST_POSTGRES_URL").ok()?;
    let out = Command::new("bash").arg(&script).output().ok()?;
    if !out.status.success() {
        eprintln!("notice: no PostgreSQL of its own: the outage test is skipped");
        return None;
    }
    let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let err = String::from_utf8_lossy(&out.stderr);
    let dir = err
        .split_whitespace()
        .skip_while(|w| *w != "in")
        .nth(1)
        .map(std::path::PathBuf::from)?;
    Some((url, dir))
}

/// Runs `stop.sh` or `start.sh` of the test's PostgreSQL (`pg_ctl`, which waits until the server
/// has stopped or accepts connections); a failure is the test's, with the script's words.
fn run_script(dir: &std::path::Path, name: &str) {
    let out = Command::new("bash")
        .arg(dir.join(name))
        .output()
        .expect("run the script");
    assert!(
        out.status.success(),
        "{name} failed: {}{}; see {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        dir.join("server.log").display()
    );
}

/// Stops the test's PostgreSQL when the test ends, however it ends, and removes its directory
/// unless the test failed (its `server.log` is then kept to be read).
struct StopOnDrop(std::path::PathBuf);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(self.0.join("stop.sh"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A GET of `url`: its status and how long it took.
async fn timed_get(http: &reqwest::Client, url: &str) -> (u16, Duration) {
    let asked = Instant::now();
    let status = http.get(url).send().await.expect("an answer").status();
    (status.as_u16(), asked.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_is_answered_quickly_loses_nothing_and_passes() {
    let Some((url, dir)) = own_postgres() else {
        return;
    };
    let _stop = StopOnDrop(dir.clone());
    let nodes: Vec<Instance> = (0..3).map(|_| Instance::start(&url, 20)).collect();
    let http = reqwest::Client::new();
    let signed_up = http
        .post(format!("{}/api/accounts", nodes[0].client.base()))
        .json(&json!({"name": "outage-player", "password": "a long enough secret"}))
        .send()
        .await
        .expect("sign up");
    assert_eq!(signed_up.status().as_u16(), 201);
    let grant = nodes[0]
        .client
        .create(&CreateGame::new(Mode::Local))
        .await
        .expect("create");
    let id = grant.game_id.clone();
    let mut state = nodes[0].client.state(&id, None).await.expect("state");
    for i in 0..4 {
        state = play_next(&nodes[i % 3].client, &id, &grant.token, &state).await;
    }
    let acknowledged = state.moves.clone();
    let reads = |base: &str| {
        [
            format!("{base}/api/players/outage-player"),
            format!("{base}/api/seeks"),
            format!("{base}/api/games/{id}"),
        ]
    };

    // A spectator on one instance watches through the outage.
    let mut watcher = Spectator::open(&nodes[1].client, &id).await;
    run_script(&dir, "stop.sh");
    // Each instance finds out within a heartbeat or two; its readiness says so.
    for n in &nodes {
        let deadline = Instant::now() + Duration::from_secs(10);
        let ready = format!("{}/readyz", n.client.base());
        while timed_get(&http, &ready).await.0 != 503 {
            assert!(Instant::now() < deadline, "still ready without a database");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let mut times = Vec::new();
    let mut answers = std::collections::BTreeMap::<String, u32>::new();
    for _ in 0..8 {
        for n in &nodes {
            // A profile, the lobby and a game, read; and a move.
            for url in reads(n.client.base()) {
                let (status, took) = timed_get(&http, &url).await;
                assert_eq!(status, 503, "{url} without a database");
                times.push(took);
            }
            let asked = Instant::now();
            let outcome = match n
                .client
                .play(&id, &grant.token, &state.legal_moves[0].notation, None)
                .await
            {
                Ok(_) => "ok".to_string(),
                Err(e) => e.code(),
            };
            times.push(asked.elapsed());
            *answers.entry(outcome).or_default() += 1;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    times.sort();
    let (median, slowest) = (times[times.len() / 2], times[times.len() - 1]);
    eprintln!(
        "during the outage: {} answers, moves {answers:?}, median {median:?}, slowest {slowest:?}",
        times.len()
    );
    assert_eq!(answers.keys().collect::<Vec<_>>(), ["unavailable"]);
    // Once an instance knows the database is away, every query answers at once.
    assert!(
        slowest < Duration::from_secs(1),
        "slowest answer {slowest:?}"
    );

    run_script(&dir, "start.sh");
    // Every instance comes back by itself; nothing acknowledged was lost. A move is played on
    // the first one back, at once: announced while the other instances may not listen yet, it
    // still reaches the spectator (its instance reads again what it may have missed).
    let back = loop {
        if let Ok(s) = nodes[2].client.state(&id, None).await {
            break s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(back.moves, acknowledged);
    state = play_next(&nodes[2].client, &id, &grant.token, &state).await;
    for n in &nodes {
        let deadline = Instant::now() + Duration::from_secs(30);
        let back = loop {
            match n.client.state(&id, None).await {
                Ok(s) => break s,
                Err(e) => {
                    assert!(Instant::now() < deadline, "not back after 30 s: {e}");
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
            }
        };
        assert_eq!(back.moves, state.moves);
        for url in reads(n.client.base()) {
            assert_eq!(
                timed_get(&http, &url).await.0,
                200,
                "{url} after the outage"
            );
        }
    }
    watcher.until_moves(state.moves.len() as u32).await;
    assert_eq!(watcher.moves.len(), acknowledged.len() + 1);
}

/// The analysis of `position` asked of `base`, without the `cached` flag (which differs by who
/// asked first).
async fn analysis(base: &str, position: &str) -> Value {
    let r = reqwest::Client::new()
        .get(format!("{base}/api/analysis"))
        .query(&[("position", position), ("scoring", "largest")])
        .send()
        .await
        .expect("answer");
    assert_eq!(r.status().as_u16(), 200);
    let mut v: Value = r.json().await.expect("JSON");
    v.as_object_mut().expect("object").remove("cached");
    v
}

/// Analyses run by the instance at `base`.
async fn runs(base: &str) -> u64 {
    let v: Value = reqwest::get(format!("{base}/api/analysis/stats"))
        .await
        .expect("answer")
        .json()
        .await
        .expect("JSON");
    v["runs"].as_u64().expect("runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_computed_once_and_taken_over_when_its_instance_dies() {
    let Some(db) = fresh_postgres().await else {
        return;
    };
    let mut nodes: Vec<Instance> = (0..3)
        .map(|_| Instance::start_with(&db, 20, &["--analysis-ms", "3000"]))
        .collect();
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();

    // Three instances asked for one position at once: one computes, all answer the same.
    let position = mabula::deal::random(11, mabula::Color::White).to_string();
    let (a, b, c) = tokio::join!(
        analysis(&bases[0], &position),
        analysis(&bases[1], &position),
        analysis(&bases[2], &position),
    );
    assert_eq!(a, b);
    assert_eq!(b, c);
    let mut total = 0;
    for base in &bases {
        total += runs(base).await;
    }
    assert_eq!(total, 1, "computed once for three instances");

    // Instance 0 computes another position for instance 1 too, and is killed meanwhile:
    // instance 1 takes the claim over and answers. (Instance 1 may have been the one that
    // computed the first position.)
    let before = runs(&bases[1]).await;
    let position = mabula::deal::random(12, mabula::Color::Black).to_string();
    let first = {
        let (base, position) = (bases[0].clone(), position.clone());
        tokio::spawn(async move {
            reqwest::Client::new()
                .get(format!("{base}/api/analysis"))
                .query(&[("position", position.as_str()), ("scoring", "largest")])
                .send()
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(800)).await;
    let second = {
        let (base, position) = (bases[1].clone(), position.clone());
        tokio::spawn(async move { analysis(&base, &position).await })
    };
    tokio::time::sleep(Duration::from_millis(800)).await;
    let killed_at = Instant::now();
    nodes[0].kill();
    assert!(first.await.expect("joined").is_err(), "its instance died");
    let answer = tokio::time::timeout(Duration::from_secs(30), second)
        .await
        .expect("answered within 30 s")
        .expect("joined");
    assert_eq!(answer["done"], true);
    assert_eq!(runs(&bases[1]).await, before + 1, "instance 1 took it over");
    eprintln!(
        "taken over and answered {:?} after the kill",
        killed_at.elapsed()
    );
}

/// Opens an analysis stream of the deal of `seed` on `base` from `http`'s address: the answer,
/// held open (its analysis goes on while it is held).
async fn analysis_stream(http: &reqwest::Client, base: &str, seed: u64) -> reqwest::Response {
    let position = mabula::deal::random(seed, mabula::Color::White).to_string();
    http.get(format!("{base}/api/analysis/stream"))
        .query(&[("position", position.as_str()), ("scoring", "largest")])
        .send()
        .await
        .expect("an answer")
}

/// A client whose requests come from `address` (the players' tests' own).
fn client_from(address: &str) -> reqwest::Client {
    common::player::Player::guest_from("http://unused", address).http
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_has_four_analyses_in_progress_on_all_instances_together() {
    let Some(db) = fresh_postgres().await else {
        return;
    };
    // Long analyses, so that each stream is still going when the next is asked for.
    let nodes: Vec<Instance> = (0..3)
        .map(|_| Instance::start_with(&db, 20, &["--analysis-ms", "60000"]))
        .collect();
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    // Issue 51: the bound of four per client held per instance, so one address had four on
    // each. Now four streams spread over the instances take the address's four places.
    let http = client_from("127.0.0.7");
    let mut held = Vec::new();
    for seed in 0..4 {
        let r = analysis_stream(&http, &bases[seed as usize % 3], 100 + seed).await;
        assert_eq!(r.status().as_u16(), 200);
        held.push(r);
    }
    for (i, base) in bases.iter().enumerate() {
        let r = analysis_stream(&http, base, 200 + i as u64).await;
        assert_eq!(r.status().as_u16(), 429, "on instance {i}");
        let body: Value = r.json().await.expect("JSON");
        assert_eq!(body["code"], "rate_limited", "{body}");
    }
    // Another address is not held back.
    let other = analysis_stream(&client_from("127.0.0.8"), &bases[1], 300).await;
    assert_eq!(other.status().as_u16(), 200);
    // Once the address closes a stream, it is admitted again (the place is given back when the
    // server sees the stream closed).
    drop(held.pop());
    let began = Instant::now();
    loop {
        let r = analysis_stream(&http, &bases[2], 400).await;
        if r.status().as_u16() == 200 {
            break;
        }
        assert_eq!(r.status().as_u16(), 429);
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "never admitted again"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_players_asking_for_a_rematch_at_once_on_two_instances_make_one_game() {
    let Some((db, nodes)) = cluster(20).await else {
        return;
    };
    let store = mabula_server::store::Store::open(&db)
        .await
        .expect("the database");
    for round in 0..10 {
        let white = nodes[0]
            .client
            .create(&friend_game())
            .await
            .expect("create");
        let id = white.game_id.clone();
        let black = nodes[1]
            .client
            .join(&id, white.join_code.as_deref().expect("code"))
            .await
            .expect("join");
        nodes[2]
            .client
            .resign(&id, &black.token)
            .await
            .expect("resign");
        let (a, b) = tokio::join!(
            nodes[0].client.rematch(&id, &white.token),
            nodes[1].client.rematch(&id, &black.token)
        );
        let (a, b) = (a.expect("white's rematch"), b.expect("black's rematch"));
        assert_eq!(a.game_id, b.game_id, "round {round}: two rematches");
        let state = nodes[2].client.state(&id, None).await.expect("state");
        assert_eq!(state.rematch.as_deref(), Some(a.game_id.as_str()));
        // Each holds one seat of the one new game, the colours swapped.
        let new = nodes[2]
            .client
            .state(&a.game_id, Some(&a.token))
            .await
            .expect("state");
        assert_eq!(new.you, Some(vec![mabula::Color::Black]), "round {round}");
        let new = nodes[2]
            .client
            .state(&b.game_id, Some(&b.token))
            .await
            .expect("state");
        assert_eq!(new.you, Some(vec![mabula::Color::White]), "round {round}");
    }
    // Ten games and ten rematches are stored: no orphan.
    let rows = store
        .list(mabula_server::store::ListFilter::Recent, 100)
        .await
        .expect("list");
    assert_eq!(
        rows.len(),
        20,
        "{:?}",
        rows.iter().map(|r| &r.id).collect::<Vec<_>>()
    );
    store.close().await;
}
