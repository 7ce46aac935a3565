//! Puzzles (issue 39) over real HTTP on real `mabula serve` processes: three instances on one
//! PostgreSQL when `MABULA_TEST_POSTGRES_URL` names a server, else one instance on SQLite (the
//! same requests, each "instance" the same one). The tests know the solutions from the shipped
//! file, as the server does.

use crate::common;

use common::Nodes;
use common::player::Player;
use mabula::{Move, Position};
use mabula_engine::puzzle::{Puzzle, SHIPPED};
use mabula_engine::{Limits, SolveMode, Solver};
use serde_json::{Value, json};

async fn nodes() -> Nodes {
    common::nodes("puzzles.sqlite3").await
}

/// The shipped puzzle of id `id`.
fn shipped(id: &str) -> Puzzle {
    SHIPPED
        .lines()
        .filter_map(|l| Puzzle::line(l).ok())
        .find(|p| p.id() == id)
        .unwrap_or_else(|| panic!("no shipped puzzle {id}"))
}

/// The player's moves of the solution.
fn solution(p: &Puzzle) -> Vec<String> {
    p.player_moves().map(|m| m.to_string()).collect()
}

/// A legal first move that is not the solution's.
fn wrong_first(p: &Puzzle) -> String {
    let start: Position = p.start;
    start
        .legal_moves()
        .into_iter()
        .find(|&m: &Move| m != p.line[0])
        .expect("another move")
        .to_string()
}

async fn next(p: &Player, query: &str) -> (String, Puzzle, Value) {
    let (status, body) = p.get(&format!("/api/puzzles/next{query}")).await;
    assert_eq!(status, 200, "{body}");
    let id = body["id"].as_str().expect("an id").to_string();
    let puzzle = shipped(&id);
    assert_eq!(body["position"], puzzle.start.to_string());
    assert_eq!(body["scoring"], puzzle.scoring.to_string());
    assert!(body["rating"].is_i64(), "{body}");
    assert!(body["themes"].is_array(), "{body}");
    (id, puzzle, body)
}

async fn attempt(p: &Player, id: &str, moves: &[String]) -> Value {
    let (status, body) = p
        .post(
            &format!("/api/puzzles/{id}/attempt"),
            json!({ "moves": moves }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn history(p: &Player, name: &str) -> Value {
    let (status, body) = p.get(&format!("/api/players/{name}/puzzles")).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test(flavor = "multi_thread")]
async fn a_solved_puzzle_moves_the_player_up_and_the_puzzle_down_and_a_failure_the_reverse() {
    let n = nodes().await;
    let ann = Player::sign_up(&n.bases[0], "puzann").await;

    let (id, puzzle, offered) = next(&ann.on(&n.bases[1]), "").await;
    let before = offered["rating"].as_i64().expect("rating");
    let won = attempt(&ann.on(&n.bases[2]), &id, &solution(&puzzle)).await;
    assert_eq!(won["correct"], true, "{won}");
    assert_eq!(won["complete"], true, "{won}");
    let line: Vec<String> = puzzle.line.iter().map(|m| m.to_string()).collect();
    assert_eq!(won["solution"], json!(line));
    assert!(won["rating_change"].as_i64().expect("rated") > 0, "{won}");
    assert!(
        won["puzzle_rating_change"].as_i64().expect("rated") < 0,
        "{won}"
    );
    assert!(
        won["puzzle_rating"].as_i64().expect("rating") < before,
        "{won}"
    );
    // Every instance reads the new rating of the puzzle.
    for base in &n.bases {
        let (_, shown) = Player::guest(base).get(&format!("/api/puzzles/{id}")).await;
        assert_eq!(shown["rating"], won["puzzle_rating"], "{shown}");
    }

    let (id2, puzzle2, offered2) = next(&ann.on(&n.bases[2]), "").await;
    assert_ne!(id2, id, "a puzzle attempted is not offered again");
    let before2 = offered2["rating"].as_i64().expect("rating");
    let lost = attempt(&ann.on(&n.bases[0]), &id2, &[wrong_first(&puzzle2)]).await;
    assert_eq!(lost["correct"], false, "{lost}");
    assert_eq!(lost["complete"], true, "{lost}");
    assert_eq!(lost["wrong"], 0, "{lost}");
    // Why it is wrong: the exact margin after the wrong move, as the solver proves it here.
    let after = puzzle2
        .start
        .play(wrong_first(&puzzle2).parse().expect("move"))
        .expect("legal");
    let proof = Solver::new(puzzle2.scoring, 16)
        .solve(&after, SolveMode::Margin, &Limits::none())
        .expect("solved");
    assert_eq!(lost["wrong_margin"], -proof.value, "{lost}");
    assert!(-proof.value < i32::from(puzzle2.result > 0), "{lost}");
    assert_eq!(
        lost["solution"].as_array().map(Vec::len),
        Some(puzzle2.line.len())
    );
    assert!(lost["rating_change"].as_i64().expect("rated") < 0, "{lost}");
    assert!(
        lost["puzzle_rating_change"].as_i64().expect("rated") > 0,
        "{lost}"
    );
    assert!(
        lost["puzzle_rating"].as_i64().expect("rating") > before2,
        "{lost}"
    );

    let h = history(&Player::guest(&n.bases[1]), "PuzAnn").await;
    assert_eq!(h["attempts"], 2, "{h}");
    assert_eq!(h["solved"], 1, "{h}");
    assert_eq!(h["rating"], lost["rating"], "{h}");
    let recent = h["recent"].as_array().expect("recent");
    assert_eq!(recent.len(), 2, "{h}");
    assert!(
        recent
            .iter()
            .any(|a| a["puzzle"] == id && a["correct"] == true)
    );
    assert!(
        recent
            .iter()
            .any(|a| a["puzzle"] == id2 && a["correct"] == false)
    );
    // The export of the account's data holds every attempt.
    let (status, export) = ann.on(&n.bases[2]).get("/api/account/export").await;
    assert_eq!(status, 200, "{export}");
    assert_eq!(export["puzzles"]["recent"], h["recent"], "{export}");
    assert_eq!(export["puzzles"]["rating"], lost["rating"], "{export}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_attempt_counts_once_even_at_the_same_moment_on_two_instances() {
    let n = nodes().await;
    let ben = Player::sign_up(&n.bases[0], "puzben").await;

    // A second attempt at a puzzle changes no rating.
    let (id, puzzle, _) = next(&ben, "").await;
    let first = attempt(&ben.on(&n.bases[1]), &id, &[wrong_first(&puzzle)]).await;
    assert!(first["rating_change"].is_i64(), "{first}");
    let again = attempt(&ben.on(&n.bases[2]), &id, &solution(&puzzle)).await;
    assert_eq!(again["correct"], true, "{again}");
    assert!(again["rating_change"].is_null(), "{again}");
    assert_eq!(again["puzzle_rating"], first["puzzle_rating"], "{again}");
    assert_eq!(again["rating"], first["rating"], "{again}");

    // Two attempts at one puzzle at the same moment on two instances: one counts.
    for round in 0..3 {
        let (id, puzzle, _) = next(&ben, "").await;
        let moves = solution(&puzzle);
        let (on1, on2) = (ben.on(&n.bases[1]), ben.on(&n.bases[2]));
        let (a, b) = tokio::join!(attempt(&on1, &id, &moves), attempt(&on2, &id, &moves));
        let rated = [&a, &b]
            .iter()
            .filter(|x| x["rating_change"].is_i64())
            .count();
        assert_eq!(rated, 1, "round {round}: {a} {b}");
        let (_, shown) = ben.get(&format!("/api/puzzles/{id}")).await;
        let counted = if a["rating_change"].is_i64() { &a } else { &b };
        assert_eq!(shown["rating"], counted["puzzle_rating"], "{shown}");
    }
    let h = history(&ben.on(&n.bases[1]), "puzben").await;
    assert_eq!(h["attempts"], 4, "{h}");
    assert_eq!(h["solved"], 3, "{h}");
    // The instances agree on the player's rating.
    for base in &n.bases {
        assert_eq!(
            history(&Player::guest(base), "puzben").await["rating"],
            h["rating"]
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn many_players_solving_one_puzzle_at_once_on_every_instance_each_move_it_once() {
    let n = nodes().await;
    let mut players = Vec::new();
    // Five: the most sign-ups one address may make in an hour.
    for i in 0..5 {
        players.push(Player::sign_up(&n.bases[i % 3], &format!("puzcrowd{i}")).await);
    }
    let (status, daily) = players[0].get("/api/puzzles/daily").await;
    assert_eq!(status, 200, "{daily}");
    let id = daily["id"].as_str().expect("id").to_string();
    let moves = solution(&shipped(&id));
    // All at once, spread over the instances: each attempt locks the puzzle's row in turn.
    let answers = futures_util::future::join_all(players.iter().enumerate().map(|(i, p)| {
        let on = p.on(&n.bases[(i + 1) % 3]);
        let (id, moves) = (id.clone(), moves.clone());
        async move { attempt(&on, &id, &moves).await }
    }))
    .await;
    for a in &answers {
        assert_eq!(a["correct"], true, "{a}");
        assert!(a["rating_change"].as_i64().expect("rated") > 0, "{a}");
    }
    // Each solve lowered the puzzle's rating from the one the previous left: the last is the
    // lowest, and no change was lost.
    let lowest = answers
        .iter()
        .map(|a| a["puzzle_rating"].as_i64().expect("rating"))
        .min();
    for base in &n.bases {
        let (_, shown) = Player::guest(base).get(&format!("/api/puzzles/{id}")).await;
        assert_eq!(shown["rating"].as_i64(), lowest, "{shown}");
    }
    let mut seen: Vec<i64> = answers
        .iter()
        .map(|a| a["puzzle_rating"].as_i64().expect("rating"))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(
        seen.len(),
        answers.len(),
        "each saw another rating: {seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn every_instance_gives_the_same_puzzle_of_the_day() {
    let n = nodes().await;
    let mut days = Vec::new();
    for base in &n.bases {
        let (status, body) = Player::guest(base).get("/api/puzzles/daily").await;
        assert_eq!(status, 200, "{body}");
        days.push((body["id"].clone(), body["day"].clone()));
    }
    assert!(days[0].0.is_string() && days[0].1.is_string(), "{days:?}");
    assert!(days.iter().all(|d| *d == days[0]), "{days:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_guest_plays_unrated_move_by_move() {
    let n = nodes().await;
    let guest = Player::guest(&n.bases[0]);
    // A puzzle of at least two moves of the player, found by theme and scoring.
    let mut found = None;
    for _ in 0..40 {
        let (id, puzzle, body) = next(&guest, "?scoring=largest&theme=last_push").await;
        assert_eq!(body["scoring"], "largest");
        assert!(
            body["themes"]
                .as_array()
                .expect("themes")
                .contains(&json!("last_push"))
        );
        if puzzle.line.len() >= 3 {
            found = Some((id, puzzle, body));
            break;
        }
    }
    let (id, puzzle, body) = found.expect("a puzzle of two moves");
    let moves = solution(&puzzle);
    let step = attempt(&guest.on(&n.bases[1]), &id, &moves[..1]).await;
    assert_eq!(step["correct"], true, "{step}");
    assert_eq!(step["complete"], false, "{step}");
    assert_eq!(step["reply"], puzzle.line[1].to_string(), "{step}");
    assert_eq!(
        step["solution"],
        json!([]),
        "the solution stays hidden: {step}"
    );
    let done = attempt(&guest.on(&n.bases[2]), &id, &moves).await;
    assert_eq!(done["correct"], true, "{done}");
    assert_eq!(done["complete"], true, "{done}");
    assert!(done["rating_change"].is_null(), "{done}");
    assert!(done["rating"].is_null(), "{done}");
    assert_eq!(
        done["puzzle_rating"], body["rating"],
        "a guest moves no rating"
    );

    // Bad attempts are refused with their codes.
    let bad = |moves: Value| {
        let guest = guest.clone();
        let id = id.clone();
        async move {
            guest
                .post(
                    &format!("/api/puzzles/{id}/attempt"),
                    json!({ "moves": moves }),
                )
                .await
        }
    };
    for moves in [
        json!([]),
        json!(["zz"]),
        json!(["a1-a2"]),
        json!(vec!["b1-b4"; 17]),
    ] {
        let (status, body) = bad(moves.clone()).await;
        assert_eq!(
            (status, body["code"].clone()),
            (422, json!("invalid_attempt")),
            "{moves} {body}"
        );
    }
    let (status, body) = guest
        .post("/api/puzzles/nosuchid/attempt", json!({"moves": ["b1-b4"]}))
        .await;
    assert_eq!(
        (status, body["code"].clone()),
        (404, json!("puzzle_not_found"))
    );
    let (status, body) = guest.get("/api/puzzles/next?theme=nonsense").await;
    assert_eq!((status, body["code"].clone()), (400, json!("bad_request")));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hint_shows_the_marble_and_makes_the_attempt_unrated() {
    let n = nodes().await;
    let cat = Player::sign_up(&n.bases[0], "puzcat").await;
    let (id, puzzle, _) = next(&cat, "").await;
    let (status, hint) = cat
        .on(&n.bases[1])
        .post(&format!("/api/puzzles/{id}/hint"), json!({"moves": []}))
        .await;
    assert_eq!(status, 200, "{hint}");
    let from = puzzle.line[0].from().expect("a push").to_string();
    assert_eq!(hint["square"], from);
    let done = attempt(&cat.on(&n.bases[2]), &id, &solution(&puzzle)).await;
    assert_eq!(done["correct"], true, "{done}");
    assert!(done["rating_change"].is_null(), "{done}");
    let h = history(&cat, "puzcat").await;
    assert_eq!(h["recent"][0]["rated"], false, "{h}");
    assert_eq!(h["rating"], 1500, "{h}");

    // A streak's puzzles rise in rating.
    let (_, _, easy) = next(&cat, "?streak=0").await;
    let (_, _, hard) = next(&cat, "?streak=25").await;
    assert!(
        hard["rating"].as_i64() > easy["rating"].as_i64(),
        "{easy} {hard}"
    );
    let (status, themes) = cat.get("/api/puzzles/themes").await;
    assert_eq!(status, 200);
    assert!(themes["total"].as_u64() >= Some(5000), "{themes}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_players_streak_is_kept_in_the_account_on_every_instance() {
    // Issue 52: the best streak was kept in the browser, so a new device knew none.
    let n = nodes().await;
    let dan = Player::sign_up(&n.bases[0], "streakdan").await;
    let in_streak = |p: &Player, id: &str, moves: Vec<String>, before: u32| {
        let (p, id) = (p.clone(), id.to_string());
        async move {
            let (status, body) = p
                .post(
                    &format!("/api/puzzles/{id}/attempt"),
                    json!({ "moves": moves, "streak": before }),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            (body["streak"].as_u64(), body["best_streak"].as_u64())
        }
    };
    // Three solved in a row, each on another instance.
    for before in 0..3u32 {
        let at = dan.on(&n.bases[before as usize % 3]);
        let (id, puzzle, _) = next(&at, &format!("?streak={before}")).await;
        let got = in_streak(&at, &id, solution(&puzzle), before).await;
        assert_eq!(
            got,
            (Some(u64::from(before) + 1), Some(u64::from(before) + 1))
        );
    }
    // A miss ends it; the best stays, and every instance says so.
    let (id, puzzle, _) = next(&dan.on(&n.bases[1]), "?streak=3").await;
    let got = in_streak(&dan, &id, vec![wrong_first(&puzzle)], 3).await;
    assert_eq!(got, (Some(0), Some(3)));
    for base in &n.bases {
        assert_eq!(history(&dan.on(base), "streakdan").await["best_streak"], 3);
    }
    // A count that is not the account's (another tab's) starts again from 1; attempts outside a
    // streak leave it alone.
    let (id, puzzle, _) = next(&dan, "?streak=0").await;
    attempt(&dan, &id, &[wrong_first(&puzzle)]).await;
    let got = in_streak(&dan, &id, solution(&puzzle), 7).await;
    assert_eq!(got, (Some(1), Some(3)));
    assert_eq!(history(&dan, "streakdan").await["best_streak"], 3);
}
