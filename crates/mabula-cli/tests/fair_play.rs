//! Fair play (issue 51) over real HTTP, on three `mabula serve` processes sharing one PostgreSQL
//! (one on SQLite without `MABULA_TEST_POSTGRES_URL`): while a rated game is played, the
//! analysis, its stream and the game analysis refuse its position, the position's images under
//! the board's symmetries and every position one move after it (`403 live_game_position`) on
//! every instance at once, including the instances other than the one that took the move; an
//! engine game can neither start there nor move there; once the game is over, all of it is open
//! again. (Hints ask the same check; a player of an engine game cannot bring it to such a
//! position, so no hint is refused here.)

use crate::common;

use common::player::Player;
use mabula::{Position, Symmetry};
use serde_json::{Value, json};

/// A rated correspondence game: `white` challenges `black` (named `black_name`), who accepts.
async fn rated_game(white: &Player, black: &Player, black_name: &str) -> String {
    game(white, black, black_name, true).await
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

// ---- Accuracy (issue 51) ----------------------------------------------------------------------

/// The engine's budget per position when the servers analyse a finished game for the players'
/// accuracy (`--accuracy-playouts`); the cheater below computes its moves with the same.
const PLAYOUTS: u64 = 300;

/// Instances whose accuracy job spends [`PLAYOUTS`] a position.
async fn accuracy_nodes(file: &str) -> common::Nodes {
    common::nodes_with(file, &["--accuracy-playouts", &PLAYOUTS.to_string()]).await
}

/// A correspondence game, rated or not: `white` challenges `black` (named `black_name`).
async fn game(white: &Player, black: &Player, black_name: &str, rated: bool) -> String {
    let (status, seek) = white
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": rated, "days": 3, "color": "white", "to": black_name}),
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

/// How a player chooses a move.
#[derive(Clone, Copy)]
enum Style {
    /// The engine's first choice under the servers' judging budget.
    Engine,
    /// A legal move picked by a seeded sequence.
    Random(u64),
}

/// The move `style` plays in `st` (a game's state).
fn choose(style: Style, st: &Value, ply: usize) -> String {
    let legal: Vec<&str> = st["legal_moves"]
        .as_array()
        .expect("legal moves")
        .iter()
        .map(|m| m["notation"].as_str().expect("a move"))
        .collect();
    assert!(!legal.is_empty(), "{st}");
    match style {
        _ if legal.len() == 1 => legal[0].to_string(),
        Style::Engine => {
            let pos = parse(st["position"].as_str().expect("a position"));
            let settings = mabula_server::analysis::judging_settings(PLAYOUTS);
            let report =
                mabula_engine::annotate::Deepening::new(mabula::Scoring::Largest, &settings)
                    .run(&pos, |_| {});
            report.moves[0].mv.to_string()
        }
        Style::Random(seed) => {
            let x = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add((ply as u64).wrapping_mul(1_442_695_040_888_963_407));
            legal[((x >> 33) % legal.len() as u64) as usize].to_string()
        }
    }
}

/// Plays game `id` between `players` (with their names and styles) to its end, or until it has
/// `plies` moves when given; answers the final state.
async fn play_out(id: &str, players: [(&Player, &str, Style); 2], plies: Option<usize>) -> Value {
    loop {
        let (_, st) = players[0].0.get(&format!("/api/games/{id}")).await;
        let ply = st["moves"].as_array().expect("moves").len();
        if st["status"] == "finished" || plies.is_some_and(|n| ply >= n) {
            return st;
        }
        let side = st["to_move"].as_str().expect("a side to move");
        let name = st["players"][side]["name"].as_str().expect("a player");
        let (player, _, style) = players
            .iter()
            .find(|p| p.1 == name)
            .expect("one of the players");
        let mv = choose(*style, &st, ply);
        let (status, after) = player
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "number": ply + 1}),
            )
            .await;
        assert_eq!(status, 200, "{mv}: {after}");
    }
}

/// The state of game `id` once both its players' accuracies are known: the clock moves on a
/// second at a time (each instance sweeps, and settles only once its jobs are done).
async fn analysed(nodes: &common::Nodes, viewer: &Player, id: &str) -> Value {
    for _ in 0..300 {
        let (status, st) = viewer.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "{st}");
        let players = &st["players"];
        if players["white"]["accuracy"].is_object() && players["black"]["accuracy"].is_object() {
            return st;
        }
        nodes.advance(std::time::Duration::from_secs(1)).await;
    }
    panic!("game {id} was never analysed")
}

/// The games whose accuracies all the instances computed (`mabula_accuracy_games_total`
/// summed; each instance counted once).
async fn analysed_games(nodes: &common::Nodes) -> u64 {
    let mut total = 0;
    for node in &nodes.nodes {
        total += common::metric(node.client.base(), "mabula_accuracy_games_total").await;
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_rated_game_gets_both_accuracies_once_on_every_instance_and_a_casual_one_none() {
    let nodes = accuracy_nodes("accuracy.sqlite3").await;
    let bases = &nodes.bases;
    let alice = Player::sign_up(&bases[0], "alice").await;
    let bob = Player::sign_up(&bases[1], "bob").await;
    let guest = Player::guest(&bases[2]);

    let rated = game(&alice, &bob, "bob", true).await;
    let casual = game(&bob, &alice, "alice", false).await;
    // During the game, no accuracy is shown.
    let st = play_out(
        &rated,
        [
            (&alice, "alice", Style::Engine),
            (&bob, "bob", Style::Random(7)),
        ],
        Some(6),
    )
    .await;
    assert_eq!(st["status"], "playing");
    assert!(st["players"]["white"].get("accuracy").is_none(), "{st}");
    let st = play_out(
        &rated,
        [
            (&alice, "alice", Style::Engine),
            (&bob, "bob", Style::Random(7)),
        ],
        None,
    )
    .await;
    assert_eq!(
        (st["status"].as_str(), st["rated"].as_bool()),
        (Some("finished"), Some(true))
    );
    play_out(
        &casual,
        [
            (&alice, "alice", Style::Random(1)),
            (&bob, "bob", Style::Random(2)),
        ],
        None,
    )
    .await;

    // Once analysed, every instance shows both accuracies; Alice, who played the engine's
    // choices, kept the value with every move.
    let st = analysed(&nodes, &guest, &rated).await;
    for base in bases {
        let (_, seen) = guest.on(base).get(&format!("/api/games/{rated}")).await;
        assert_eq!(seen["players"], st["players"], "{base}");
    }
    let [white, black] = [&st["players"]["white"], &st["players"]["black"]];
    assert_eq!(white["name"], "alice");
    let moves = white["accuracy"]["moves"].as_u64().expect("moves");
    assert!(moves >= 5, "{st}");
    assert_eq!(white["accuracy"]["kept"].as_u64(), Some(moves), "{st}");
    assert_eq!(white["accuracy"]["percent"], 100, "{st}");
    let (b_moves, b_kept) = (
        black["accuracy"]["moves"].as_u64().expect("moves"),
        black["accuracy"]["kept"].as_u64().expect("kept"),
    );
    assert!(b_moves >= 5 && b_kept <= b_moves, "{st}");

    // The casual game gets none, however long the clock runs on; the rated one was analysed by
    // one instance, once.
    nodes.advance(std::time::Duration::from_secs(5)).await;
    let (_, st) = guest.get(&format!("/api/games/{casual}")).await;
    assert_eq!(st["status"], "finished");
    assert!(st["players"]["white"].get("accuracy").is_none(), "{st}");
    assert!(st["players"]["black"].get("accuracy").is_none(), "{st}");
    assert_eq!(analysed_games(&nodes).await, 1);
}

/// Runs `mabula ARGS --database DB`: its stdout (it must succeed).
fn mabula(db: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(args)
        .args(["--database", db])
        .output()
        .expect("mabula runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_of_the_engines_moves_is_flagged_to_moderators_with_the_games() {
    let nodes = accuracy_nodes("flags.sqlite3").await;
    let bases = &nodes.bases;
    let db = nodes.nodes[0].database.clone();
    let cheat = Player::sign_up(&bases[0], "cheat").await;
    let weak = Player::sign_up(&bases[1], "weak").await;
    let (h1, h2) = (
        Player::sign_up(&bases[2], "hana").await,
        Player::sign_up(&bases[0], "hugo").await,
    );
    let moderator = Player::sign_up(&bases[1], "mia").await;

    // Two honest players, who play by chance and take turns resigning after twelve moves, so
    // that their ratings stay near each other: twelve games in the cheater's band.
    let mut games = Vec::new();
    for i in 0..6u64 {
        let id = game(&h1, &h2, "hugo", true).await;
        let players = [
            (&h1, "hana", Style::Random(10 + i)),
            (&h2, "hugo", Style::Random(20 + i)),
        ];
        play_out(&id, players, Some(12)).await;
        let loser = if i % 2 == 0 { &h2 } else { &h1 };
        let (status, body) = loser
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        games.push(id);
    }
    // The cheater plays the engine's moves against a weaker player, five games to their end.
    let mut cheated = Vec::new();
    for i in 0..5u64 {
        let id = game(&cheat, &weak, "weak", true).await;
        let players = [
            (&cheat, "cheat", Style::Engine),
            (&weak, "weak", Style::Random(30 + i)),
        ];
        play_out(&id, players, None).await;
        cheated.push(id);
    }
    let guest = Player::guest(&bases[2]);
    for id in games.iter().chain(&cheated) {
        analysed(&nodes, &guest, id).await;
    }
    assert_eq!(analysed_games(&nodes).await, 11);

    // `mabula admin` makes Mia a moderator, and `mabula moderation flags` lists the cheater with
    // its rating, both accuracies and the games, and no one else (SQLite serves one process:
    // there the instance stops for them, and another serves the file after).
    let mut nodes = nodes;
    let shared = nodes.nodes.len() > 1;
    if !shared {
        nodes.nodes[0].kill();
    }
    mabula(&db, &["admin", "moderator", "mia"]);
    let out = mabula(&db, &["moderation", "flags"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("cheat rating "))
        .unwrap_or_else(|| panic!("no flag for cheat in:\n{out}"));
    assert!(line.contains("accuracy 100.0% against"), "{line}");
    for id in &cheated {
        assert!(line.contains(id.as_str()), "{id} in {line}");
    }
    assert_eq!(
        out.lines().filter(|l| l.contains(" rating ")).count(),
        1,
        "{out}"
    );
    let bases = if shared {
        nodes.bases.clone()
    } else {
        let again = common::Instance::start_with(&db, 20, &[]);
        let base = again.client.base().to_string();
        nodes.nodes.push(again);
        vec![base.clone(), base.clone(), base]
    };
    let (moderator, weak) = (moderator.on(&bases[1]), weak.on(&bases[0]));

    // The moderation API: only the cheater is flagged, with its five games, the latest first.
    let (status, body) = moderator.get("/api/moderation/accuracy").await;
    assert_eq!(status, 200, "{body}");
    let flags = body["flags"].as_array().expect("flags");
    assert_eq!(flags.len(), 1, "{body}");
    let flag = &flags[0];
    assert_eq!(flag["player"], "cheat", "{body}");
    assert_eq!(flag["accuracy"], 100.0, "{body}");
    assert!(
        flag["band_accuracy"].as_f64().expect("a mean") <= 75.0,
        "{body}"
    );
    assert!(flag["band_games"].as_u64().expect("games") >= 10, "{body}");
    let listed: Vec<&str> = flag["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g.as_str().expect("an id"))
        .collect();
    let latest_first: Vec<&str> = cheated.iter().rev().map(String::as_str).collect();
    assert_eq!(listed, latest_first, "{body}");
    // The same on another instance; refused to players.
    let (status, again) = moderator
        .on(&bases[2])
        .get("/api/moderation/accuracy")
        .await;
    assert_eq!((status, &again), (200, &body));
    let (status, body) = weak.get("/api/moderation/accuracy").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("not_moderator"))
    );
}
