//! Tournaments (issue 37) over real HTTP and WebSocket: on three `mabula serve` processes
//! sharing one PostgreSQL (named by `MABULA_TEST_POSTGRES_URL`), else on one on SQLite.
//!
//! Eight accounts play a four-round duplicate Swiss tournament, every request going to the
//! instances in turn, each player making random legal moves; on PostgreSQL one instance is
//! killed during round 2. Every round is paired exactly once (each player once per round, no
//! pair twice), each pairing's two games share a start with colours swapped, the standings are
//! the sum of the pairings' points, the tournament finishes, and a live channel on another
//! instance than the one that paired hears every change.

use crate::common;

use common::player::{Lobby, Player};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The instances still up, for requests in turn.
#[derive(Clone)]
struct Ring {
    bases: Arc<Mutex<Vec<String>>>,
    next: Arc<AtomicUsize>,
}

impl Ring {
    fn next(&self) -> String {
        let bases = self.bases.lock().unwrap();
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        bases[i % bases.len()].clone()
    }

    fn remove(&self, base: &str) {
        self.bases.lock().unwrap().retain(|b| b != base);
    }
}

/// A small random generator (xorshift), seeded per player.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `p`'s request on the next instance; a connection refused (an instance just killed) is
/// tried again on the next.
async fn get(p: &Player, ring: &Ring, path: &str) -> (u16, Value) {
    loop {
        let on = p.on(&ring.next());
        let r = on
            .http
            .get(format!("{}{path}", on.base))
            .header("cookie", on.cookie.clone().unwrap_or_default())
            .send()
            .await;
        if let Ok(r) = r {
            let status = r.status().as_u16();
            let text = r.text().await.unwrap_or_default();
            return (status, serde_json::from_str(&text).unwrap_or(Value::Null));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn post(p: &Player, ring: &Ring, path: &str, body: Value) -> (u16, Value) {
    loop {
        let on = p.on(&ring.next());
        let mut req = on.http.post(format!("{}{path}", on.base)).json(&body);
        if let Some(c) = &on.cookie {
            req = req.header("cookie", c);
        }
        if let Some(t) = &on.csrf {
            req = req.header("x-csrf-token", t);
        }
        if let Ok(r) = req.send().await {
            let status = r.status().as_u16();
            let text = r.text().await.unwrap_or_default();
            return (status, serde_json::from_str(&text).unwrap_or(Value::Null));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Plays `name`'s games of tournament `id` with random legal moves until it finishes.
async fn play_out(
    p: Player,
    name: String,
    ring: Ring,
    id: String,
    seed: u64,
    done: Arc<AtomicBool>,
) {
    let mut rng = Rng(seed | 1);
    while !done.load(Ordering::Relaxed) {
        let (status, t) = get(&p, &ring, &format!("/api/tournaments/{id}")).await;
        if status != 200 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        if t["status"] == "finished" {
            return;
        }
        let mine: Vec<String> = t["rounds"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|r| r["pairings"].as_array().cloned().unwrap_or_default())
            .flat_map(|pr| pr["games"].as_array().cloned().unwrap_or_default())
            .filter(|g| g["result"] == "*" && (g["white"] == name || g["black"] == name))
            .filter_map(|g| g["id"].as_str().map(String::from))
            .collect();
        let mut moved = false;
        for game in mine {
            let (status, state) = get(&p, &ring, &format!("/api/games/{game}")).await;
            if status != 200 {
                continue;
            }
            let Some(side) = state["to_move"].as_str() else {
                continue;
            };
            if state["players"][side]["name"] != name.as_str() {
                continue;
            }
            let legal = state["legal_moves"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                continue;
            }
            let mv = legal[rng.below(legal.len())]["notation"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let n = state["moves"].as_array().map_or(0, Vec::len) + 1;
            let (status, _) = post(
                &p,
                &ring,
                &format!("/api/games/{game}/moves"),
                json!({"move": mv, "number": n}),
            )
            .await;
            moved |= status == 200;
        }
        if !moved {
            tokio::time::sleep(Duration::from_millis(60)).await;
        }
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_duplicate_swiss_is_paired_once_per_round_across_instances_and_finishes() {
    let dir = tempfile::tempdir().expect("a directory");
    let mut nodes = common::instances(&dir, "swiss.db").await;
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let ring = Ring {
        bases: Arc::new(Mutex::new(bases.clone())),
        next: Arc::new(AtomicUsize::new(0)),
    };
    let mut players = Vec::new();
    let mut names = Vec::new();
    for i in 0..8 {
        let name = format!("swiss{i}");
        let guest = Player::guest_from(&bases[i % bases.len()], &format!("127.0.0.{}", 20 + i));
        players.push(guest.signed_up(&name).await);
        names.push(name);
    }
    let creator = &players[0];

    // Bad requests are refused with clear codes.
    let base = json!({
        "name": "Duplicate Swiss", "format": "swiss", "scoring": "largest",
        "clock": {"initial_s": 120, "increment_s": 1}, "rounds": 4, "duplicate": true,
        "rated": true, "starts_at": now_ms() + 120_000,
    });
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    let (status, e) = post(
        creator,
        &ring,
        "/api/tournaments",
        with("name", json!("ab")),
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (422, Some("invalid_tournament")),
        "{e}"
    );
    let (status, e) = post(
        creator,
        &ring,
        "/api/tournaments",
        with("rounds", json!(16)),
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (422, Some("invalid_tournament")),
        "{e}"
    );
    let (status, e) = post(
        creator,
        &ring,
        "/api/tournaments",
        with("starts_at", json!(now_ms())),
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (422, Some("invalid_tournament")),
        "{e}"
    );
    let guest = Player::guest(&bases[0]);
    let (status, _) = post(&guest, &ring, "/api/tournaments", base.clone()).await;
    assert_eq!(status, 401);

    let (status, created) = post(creator, &ring, "/api/tournaments", base.clone()).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    for p in &players {
        let (status, joined) =
            post(p, &ring, &format!("/api/tournaments/{id}/join"), json!({})).await;
        assert_eq!(status, 200, "{joined}");
    }
    let (status, e) = post(
        &players[1],
        &ring,
        &format!("/api/tournaments/{id}/start"),
        json!({}),
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (403, Some("not_tournament_creator")),
        "{e}"
    );

    // A spectator's live channel on the last instance.
    let watcher = Player::guest(bases.last().unwrap());
    let mut live: Lobby = watcher.socket(&format!("/api/tournaments/{id}/ws")).await;
    let first = live.until("state").await;
    assert_eq!(first["tournament"]["status"], "created");
    assert_eq!(
        first["tournament"]["standings"].as_array().map(Vec::len),
        Some(8)
    );
    let heard = Arc::new(Mutex::new(Vec::<Value>::new()));
    let listener = {
        let heard = heard.clone();
        tokio::spawn(async move {
            loop {
                let m = live.until("state").await;
                let finished = m["tournament"]["status"] == "finished";
                heard.lock().unwrap().push(m);
                if finished {
                    return;
                }
            }
        })
    };

    // Two starts at once (on two instances, when there are several): one starts it, the other
    // finds it started.
    let start = format!("/api/tournaments/{id}/start");
    let (a, b) = tokio::join!(
        post(creator, &ring, &start, json!({})),
        post(creator, &ring, &start, json!({}))
    );
    let mut answers = [a, b];
    answers.sort_by_key(|(status, _)| *status);
    let [(status, started), (status2, e)] = answers;
    assert_eq!(status, 200, "{started}");
    assert_eq!(
        (status2, e["code"].as_str()),
        (409, Some("tournament_closed")),
        "{e}"
    );

    let done = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for (i, p) in players.iter().enumerate() {
        tasks.push(tokio::spawn(play_out(
            p.clone(),
            names[i].clone(),
            ring.clone(),
            id.clone(),
            0x9e37_79b9 * (i as u64 + 1),
            done.clone(),
        )));
    }

    // Kill one instance (not the watcher's) during round 2.
    let began = Instant::now();
    let mut killed = nodes.len() < 3;
    let view = loop {
        assert!(
            began.elapsed() < Duration::from_secs(900),
            "the tournament did not finish in 15 minutes"
        );
        let (_, t) = get(creator, &ring, &format!("/api/tournaments/{id}")).await;
        if !killed && t["round"].as_u64() >= Some(2) {
            eprintln!("round {}: instance 1 killed", t["round"]);
            ring.remove(&bases[1]);
            nodes[1].kill();
            killed = true;
        }
        if t["status"] == "finished" {
            break t;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    assert!(killed, "an instance was killed during the tournament");
    done.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await.expect("a player's task");
    }

    // Every round paired once: four boards, each player once, no pair met twice.
    let rounds = view["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 4, "{view}");
    let mut met = HashSet::new();
    let mut points: HashMap<String, f64> = HashMap::new();
    let mut game_ids = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        assert_eq!(round["number"], r as u64 + 1);
        let pairings = round["pairings"].as_array().expect("pairings");
        assert_eq!(pairings.len(), 4, "round {}: {round}", r + 1);
        let mut seen = HashSet::new();
        for pr in pairings {
            let (w, b) = (
                pr["white"].as_str().unwrap().to_string(),
                pr["black"]
                    .as_str()
                    .expect("no bye among eight")
                    .to_string(),
            );
            assert!(
                seen.insert(w.clone()) && seen.insert(b.clone()),
                "twice in a round: {round}"
            );
            let pair = if w < b {
                (w.clone(), b.clone())
            } else {
                (b.clone(), w.clone())
            };
            assert!(met.insert(pair), "a pair met twice: {view}");
            let games = pr["games"].as_array().expect("games");
            assert_eq!(games.len(), 2, "{pr}");
            assert_eq!(
                (&games[0]["white"], &games[0]["black"]),
                (&pr["white"], &pr["black"])
            );
            assert_eq!(
                (&games[1]["white"], &games[1]["black"]),
                (&pr["black"], &pr["white"])
            );
            // One deal, colours swapped, both of this tournament.
            let (_, g1) = get(
                creator,
                &ring,
                &format!("/api/games/{}", games[0]["id"].as_str().unwrap()),
            )
            .await;
            let (_, g2) = get(
                creator,
                &ring,
                &format!("/api/games/{}", games[1]["id"].as_str().unwrap()),
            )
            .await;
            assert_eq!(g1["start"], g2["start"], "one deal in a pairing");
            assert_eq!(g1["settings"]["tournament"], id.as_str());
            assert_eq!(g2["settings"]["tournament"], id.as_str());
            assert_eq!(g1["status"], "finished");
            assert_eq!(g2["status"], "finished");
            game_ids.push(games[0]["id"].clone());
            game_ids.push(games[1]["id"].clone());
            let pts = pr["points"].as_array().expect("decided");
            *points.entry(w).or_default() += pts[0].as_f64().unwrap();
            *points.entry(b).or_default() += pts[1].as_f64().unwrap();
        }
        assert_eq!(seen.len(), 8);
    }
    let ids: HashSet<_> = game_ids.iter().collect();
    assert_eq!(ids.len(), 32, "32 distinct games");
    // The standings are the sum of the pairings' points.
    let standings = view["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 8);
    for s in standings {
        let name = s["name"].as_str().unwrap();
        assert_eq!(s["points"].as_f64(), Some(points[name]), "{name}: {view}");
    }
    let total: f64 = points.values().sum();
    assert_eq!(total, 16.0, "each match gives one point in all");

    // The games as one record file; the tournament on the players' profiles.
    let (status, _) = get(creator, &ring, &format!("/api/tournaments/{id}/games")).await;
    assert_eq!(status, 200);
    let text = creator
        .on(&ring.next())
        .http
        .get(format!("{}/api/tournaments/{id}/games", ring.next()))
        .send()
        .await
        .expect("answer")
        .text()
        .await
        .expect("text");
    assert_eq!(text.matches("[Result ").count(), 32, "{text}");
    let (status, mine) = get(creator, &ring, "/api/players/swiss0/tournaments").await;
    assert_eq!(status, 200);
    assert_eq!(mine[0]["id"], id.as_str());
    assert!(mine[0]["rank"].as_u64().is_some(), "{mine}");

    // The watcher, on an instance that did not pair every round, heard the end.
    tokio::time::timeout(Duration::from_secs(20), listener)
        .await
        .expect("the live channel heard the end")
        .expect("the listener");
    let heard = heard.lock().unwrap();
    assert!(heard.len() >= 4, "{} states heard", heard.len());
    let versions: Vec<u64> = heard
        .iter()
        .map(|m| m["tournament"]["version"].as_u64().unwrap())
        .collect();
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
}

/// The player names of `view`'s wave `number` and later.
fn paired_from(view: &Value, number: u64) -> Vec<String> {
    view["rounds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["number"].as_u64() >= Some(number))
        .flat_map(|r| r["pairings"].as_array().cloned().unwrap_or_default())
        .flat_map(|p| [p["white"].clone(), p["black"].clone()])
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

/// Whether arena2 is to move in its game of the tournament `t` (None: it has no game going).
async fn arena2_to_move(p: &Player, ring: &Ring, t: &Value) -> Option<bool> {
    let game = t["rounds"]
        .as_array()?
        .iter()
        .flat_map(|r| r["pairings"].as_array().cloned().unwrap_or_default())
        .flat_map(|pr| pr["games"].as_array().cloned().unwrap_or_default())
        .find(|g| g["result"] == "*" && (g["white"] == "arena2" || g["black"] == "arena2"))?;
    let (_, state) = get(p, ring, &format!("/api/games/{}", game["id"].as_str()?)).await;
    let side = state["to_move"].as_str()?;
    Some(state["players"][side]["name"] == "arena2")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_arena_pairs_late_joiners_at_once_pauses_who_misses_a_start_and_withdraws_leavers() {
    let dir = tempfile::tempdir().expect("a directory");
    let nodes = common::instances(&dir, "arena.db").await;
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let ring = Ring {
        bases: Arc::new(Mutex::new(bases.clone())),
        next: Arc::new(AtomicUsize::new(0)),
    };
    let mut players = Vec::new();
    for i in 0..4 {
        let guest = Player::guest_from(&bases[i % bases.len()], &format!("127.0.0.{}", 40 + i));
        players.push(guest.signed_up(&format!("arena{i}")).await);
    }
    let body = json!({
        "name": "Quick arena", "format": "arena", "scoring": "product",
        "clock": {"initial_s": 60, "increment_s": 0}, "minutes": 10,
        "rated": false, "starts_at": now_ms() + 90_000,
    });
    let (status, created) = post(&players[0], &ring, "/api/tournaments", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    // arena0 and arena1 play (reading the tournament, so they are there); arena2 joins and
    // never moves.
    for p in &players[..3] {
        let (status, v) = post(p, &ring, &format!("/api/tournaments/{id}/join"), json!({})).await;
        assert_eq!(status, 200, "{v}");
    }
    let (status, v) = post(
        &players[0],
        &ring,
        &format!("/api/tournaments/{id}/start"),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "running");
    assert_eq!(v["settings"]["duplicate"], false);
    let done = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for i in [0usize, 1] {
        tasks.push(tokio::spawn(play_out(
            players[i].clone(),
            format!("arena{i}"),
            ring.clone(),
            id.clone(),
            77 + i as u64,
            done.clone(),
        )));
    }
    // A late joiner is paired at once (within a few seconds).
    let (status, v) = post(
        &players[3],
        &ring,
        &format!("/api/tournaments/{id}/join"),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    tasks.push(tokio::spawn(play_out(
        players[3].clone(),
        "arena3".into(),
        ring.clone(),
        id.clone(),
        99,
        done.clone(),
    )));
    let began = Instant::now();
    loop {
        let (_, t) = get(&players[0], &ring, &format!("/api/tournaments/{id}")).await;
        if paired_from(&t, 1).iter().any(|n| n == "arena3") {
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "arena3 not paired: {t}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // arena1 leaves once it has played a game: never paired again.
    let withdrawn_at = loop {
        let (_, t) = get(&players[1], &ring, &format!("/api/tournaments/{id}")).await;
        let played = t["standings"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|s| s["name"] == "arena1" && s["played"].as_u64() >= Some(1));
        if played {
            let (status, v) = post(
                &players[1],
                &ring,
                &format!("/api/tournaments/{id}/withdraw"),
                json!({}),
            )
            .await;
            assert_eq!(status, 200, "{v}");
            break v["rounds"].as_array().map_or(0, Vec::len) as u64;
        }
        assert!(
            began.elapsed() < Duration::from_secs(150),
            "arena1 played nothing: {t}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let (status, e) = post(
        &players[1],
        &ring,
        &format!("/api/tournaments/{id}/withdraw"),
        json!({}),
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (409, Some("tournament_closed")),
        "{e}"
    );
    // arena2 misses the first move of its game: the game is called off and arena2 paused, not
    // paired again until it comes back (joins again). It comes back, misses again, and is
    // withdrawn by the rule (two missed in a row). The servers' clock moves on 5 s at a time
    // while arena2 is to move (a missed first move costs its deadline, not the test's time), 1 s
    // while arena2 waits for a game, and not at all while its opponent is to move (who plays in
    // real time).
    let mut steps = 0;
    let mut pauses = 0;
    let view = loop {
        let (_, t) = get(&players[0], &ring, &format!("/api/tournaments/{id}")).await;
        let line = t["standings"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["name"] == "arena2")
            .cloned()
            .unwrap_or_default();
        if line["withdrawn"] == true {
            break t;
        }
        steps += 1;
        assert!(steps < 2000, "arena2 still in: {t}");
        // The second miss pauses arena2 too, the moment before the rule withdraws it.
        if line["paused"] == true && pauses > 0 {
            common::advance(&bases, Duration::from_secs(1)).await;
            continue;
        }
        if line["paused"] == true {
            pauses += 1;
            assert_eq!(arena2_to_move(&players[0], &ring, &t).await, None, "{t}");
            let games = paired_from(&t, 1).iter().filter(|n| *n == "arena2").count();
            // Paused, arena2 is not paired, however long it waits.
            for _ in 0..3 {
                common::advance(&bases, Duration::from_secs(20)).await;
                let (_, t) = get(&players[0], &ring, &format!("/api/tournaments/{id}")).await;
                let now = paired_from(&t, 1).iter().filter(|n| *n == "arena2").count();
                assert_eq!(now, games, "arena2 paired while paused: {t}");
            }
            let path = format!("/api/tournaments/{id}/join");
            let (status, v) = post(&players[2], &ring, &path, json!({})).await;
            assert_eq!(status, 200, "{v}");
            continue;
        }
        match arena2_to_move(&players[0], &ring, &t).await {
            Some(true) => common::advance(&bases, Duration::from_secs(5)).await,
            Some(false) => tokio::time::sleep(Duration::from_millis(50)).await,
            None => common::advance(&bases, Duration::from_secs(1)).await,
        }
    };
    done.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await.expect("a player's task");
    }
    assert!(
        !paired_from(&view, withdrawn_at + 1)
            .iter()
            .any(|n| n == "arena1"),
        "arena1 paired after leaving (wave {withdrawn_at}): {view}"
    );
    let missed: Vec<&Value> = view["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["pairings"].as_array().unwrap())
        .filter(|p| p["white"] == "arena2" || p["black"] == "arena2")
        .collect();
    assert_eq!(pauses, 1, "paused once, then withdrawn: {view}");
    assert_eq!(missed.len(), 2, "{view}");
    for p in &missed {
        assert_eq!(p["games"][0]["result"], "aborted", "{p}");
        assert_eq!(
            p["points"],
            Value::Null,
            "a game called off counts for nobody: {p}"
        );
    }
    let line = view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "arena2")
        .unwrap();
    assert_eq!(
        (line["points"].as_f64(), line["played"].as_u64()),
        (Some(0.0), Some(0)),
        "{line}"
    );
    // Nobody plays two games of the arena at once: within a wave, each player once.
    for r in view["rounds"].as_array().unwrap() {
        let names = paired_from(&json!({"rounds": [r]}), 0);
        let distinct: HashSet<_> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{r}");
    }
    assert_eq!(view["status"], "running");
    // The list counts the players who took part, the two withdrawn after their games too.
    let (_, list) = get(&players[0], &ring, "/api/tournaments").await;
    let listed = list["running"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["id"] == id.as_str())
        .unwrap_or_else(|| panic!("{id} running in {list}"));
    assert_eq!(listed["players"], 4, "{listed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn scheduled_tournaments_are_made_once_however_many_instances_run() {
    let dir = tempfile::tempdir().expect("a directory");
    let at = now_ms() / 1000 / 60 * 60 + 5 * 60; // five minutes from now, to the minute
    let daily = format!("{:02}:{:02} arena 1+0 10", at / 3600 % 24, at / 60 % 60);
    let options = [
        "--daily-tournament",
        daily.as_str(),
        "--weekly-tournament",
        "sun 17:00 swiss 5+3 5",
    ];
    let nodes: Vec<common::Instance> = match std::env::var("MABULA_TEST_POSTGRES_URL") {
        Ok(url) => {
            let db = mabula_server::store::postgres::create_database(&url)
                .await
                .expect("a fresh database");
            (0..3)
                .map(|_| common::Instance::start_with(&db, 20, &options))
                .collect()
        }
        Err(_) => {
            let db = dir.path().join("scheduled.db").display().to_string();
            vec![common::Instance::start_with(&db, 20, &options)]
        }
    };
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let ring = Ring {
        bases: Arc::new(Mutex::new(bases.clone())),
        next: Arc::new(AtomicUsize::new(0)),
    };
    let guest = Player::guest(&ring.next());
    let began = Instant::now();
    let upcoming = loop {
        let (status, list) = get(&guest, &ring, "/api/tournaments").await;
        assert_eq!(status, 200, "{list}");
        let upcoming = list["upcoming"].as_array().cloned().unwrap_or_default();
        if upcoming.len() >= 2 || began.elapsed() > Duration::from_secs(20) {
            // Every instance's sweep runs three times more, and makes nothing twice.
            common::advance_in_steps(&bases, Duration::from_secs(1), 3).await;
            let (_, list) = get(&guest, &ring, "/api/tournaments").await;
            break list["upcoming"].as_array().cloned().unwrap_or_default();
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let named = |n: &str| {
        upcoming
            .iter()
            .filter(|t| t["name"] == n)
            .collect::<Vec<_>>()
    };
    let daily = named("Daily arena 1+0");
    assert_eq!(daily.len(), 1, "{upcoming:?}");
    assert_eq!(daily[0]["created_by"], Value::Null);
    assert_eq!(daily[0]["starts_at"].as_i64(), Some(at * 1000));
    assert_eq!(daily[0]["settings"]["minutes"], 10);
    let weekly = named("Weekly Swiss 5+3");
    assert_eq!(weekly.len(), 1, "{upcoming:?}");
    assert_eq!(weekly[0]["settings"]["rounds"], 5);
    assert_eq!(weekly[0]["settings"]["duplicate"], true);
    // A Sunday at 17:00 UTC.
    let starts = weekly[0]["starts_at"].as_i64().unwrap();
    assert_eq!(starts.rem_euclid(86_400_000), 17 * 3_600_000);
    assert_eq!((starts / 86_400_000 + 3).rem_euclid(7), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_of_new_accounts_tournaments_pushes_no_settled_players_off_the_list() {
    let n = common::nodes("flood.db").await;
    let b = &n.bases;
    // A player with a settled rating makes up to three tournaments, starting in two hours.
    let gil = Player::sign_up(&b[0], "gil").await;
    n.sql(
        "INSERT INTO ratings (account, scoring, speed, rating, deviation, volatility, games, \
         updated_at) VALUES ('gil', 'largest', 'realtime', 1700, 60, 0.06, 40, 0)",
    )
    .await;
    let body = |name: &str, in_minutes: i64| {
        json!({
            "name": name, "format": "arena", "scoring": "largest",
            "clock": {"initial_s": 60, "increment_s": 0}, "minutes": 20, "rated": true,
            "starts_at": now_ms() + in_minutes * 60_000,
        })
    };
    for i in 0..3 {
        let (status, made) = gil
            .on(&b[i % 3])
            .post("/api/tournaments", body(&format!("Gil's arena {i}"), 120))
            .await;
        assert_eq!(status, 201, "{made}");
    }
    // Fifty-one new accounts from eleven addresses make one each, all starting sooner: more
    // than the fifty upcoming tournaments the list shows. A second one is refused.
    let mut flood = Vec::new();
    for i in 0..51 {
        let address = format!("127.0.0.{}", 100 + i / 5);
        let p = Player::guest_from(&b[i % 3], &address)
            .signed_up(&format!("flood{i}"))
            .await;
        let (status, made) = p.post("/api/tournaments", body("Flood", 30)).await;
        assert_eq!(status, 201, "{made}");
        flood.push(p);
    }
    for p in flood.iter().take(3) {
        let (status, refused) = p
            .on(&b[1])
            .post("/api/tournaments", body("Flood", 30))
            .await;
        assert_eq!(
            (status, refused["code"].as_str()),
            (409, Some("too_many_tournaments")),
            "{refused}"
        );
    }
    let (_, list) = Player::guest(&b[2]).get("/api/tournaments").await;
    let upcoming = list["upcoming"].as_array().expect("upcoming");
    assert_eq!(upcoming.len(), 50);
    let gils = upcoming.iter().filter(|t| t["created_by"] == "gil").count();
    assert_eq!(gils, 3, "{list}");
    let starts: Vec<i64> = upcoming
        .iter()
        .map(|t| t["starts_at"].as_i64().unwrap_or(0))
        .collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "soonest first");
}
