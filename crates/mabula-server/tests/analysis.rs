//! The analysis service over real HTTP: verdicts against the solver, the cache, the event
//! streams of a position and of a game, and bad requests.

use crate::common;

use common::TestServer;
use mabula::{Color, Game, Position, Scoring, deal};
use mabula_engine::{Limits, SolveMode, Solver};
use serde_json::{Value, json};
use std::time::Duration;

/// A position `plies` moves into the game from deal `seed` (first legal moves).
fn late(seed: u64, plies: usize) -> Position {
    let mut pos = deal::random(seed, Color::White);
    for _ in 0..plies {
        let mv = pos.legal_moves()[0];
        pos.play_unchecked(mv);
    }
    assert!(!pos.is_game_over());
    pos
}

fn query(pos: &Position) -> String {
    let text = pos.to_string().replace(' ', "%20");
    format!("position={text}")
}

async fn server() -> TestServer {
    TestServer::start_with(|c| c.services.analysis_time = Duration::from_millis(400)).await
}

/// The events of a server-sent event stream: (name, data as JSON).
fn events(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut name = String::from("message");
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event:") {
                name = n.trim().to_string();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.trim_start());
            }
        }
        if !data.is_empty() {
            out.push((name, serde_json::from_str(&data).expect("JSON data")));
        }
    }
    out
}

#[tokio::test]
async fn a_late_position_gets_the_solvers_margin_and_a_repeat_hits_the_cache() {
    let server = server().await;
    for (seed, plies) in [(5, 16), (9, 17), (11, 18)] {
        let pos = late(seed, plies);
        let sol = Solver::new(Scoring::Largest, 16)
            .solve(&pos, SolveMode::Margin, &Limits::none())
            .expect("solved");
        let white = match pos.side_to_move() {
            Color::White => sol.value,
            Color::Black => -sol.value,
        };
        let (status, a) = server
            .get(&format!("/api/analysis?{}", query(&pos)), None)
            .await;
        assert_eq!(status, 200, "{a}");
        assert_eq!(a["done"], true);
        assert_eq!(a["cached"], false);
        assert_eq!(a["position"], pos.to_string());
        assert_eq!(a["verdict"]["white_margin"], white, "{a}");
        let best = &a["moves"][0];
        assert_eq!(best["value"]["margin"], sol.value, "{a}");
        assert!(!a["moves"].as_array().expect("moves").is_empty());

        let (_, stats) = server.get("/api/analysis/stats", None).await;
        let (status, again) = server
            .get(&format!("/api/analysis?{}", query(&pos)), None)
            .await;
        assert_eq!(status, 200);
        assert_eq!(again["cached"], true);
        assert_eq!(again["verdict"], a["verdict"]);
        let (_, after) = server.get("/api/analysis/stats", None).await;
        assert_eq!(
            after["runs"], stats["runs"],
            "the position is not analysed twice"
        );
        assert_eq!(
            after["hits"].as_u64().expect("hits"),
            stats["hits"].as_u64().expect("hits") + 1
        );
    }
}

#[tokio::test]
async fn an_early_position_is_streamed_as_it_deepens_within_its_time() {
    let server = server().await;
    let pos = deal::random(2, Color::Black);
    let started = std::time::Instant::now();
    let text = server
        .http
        .get(format!(
            "{}/api/analysis/stream?{}&scoring=product",
            server.base,
            query(&pos)
        ))
        .send()
        .await
        .expect("request")
        .text()
        .await
        .expect("body");
    assert!(started.elapsed() < Duration::from_secs(5));
    let evs = events(&text);
    assert!(evs.len() >= 2, "several steps: {text}");
    assert!(evs.iter().all(|(n, _)| n == "analysis"), "{text}");
    let steps: Vec<u64> = evs
        .iter()
        .map(|(_, v)| v["step"].as_u64().expect("step"))
        .collect();
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
    let last = &evs.last().expect("an event").1;
    assert_eq!(last["done"], true);
    assert_eq!(last["scoring"], "product");
    assert!(last["verdict"].is_null(), "too early to solve: {last}");
    assert!(last["elapsed_ms"].as_u64().expect("ms") < 1500);
    for (_, v) in &evs[..evs.len() - 1] {
        assert_eq!(v["done"], false);
    }
}

#[tokio::test]
async fn a_game_is_streamed_position_by_position_then_graphed_and_cached() {
    let server = server().await;
    let mut game = Game::new(late(7, 14), Scoring::Largest);
    while !game.position().is_game_over() {
        let mv = game.position().legal_moves()[0];
        game.play(mv).expect("legal");
    }
    let record = game.to_string();
    let n = game.moves().len();
    let body = json!({ "record": record });
    let post = |body: Value| {
        let http = server.http.clone();
        let url = format!("{}/api/analysis/game", server.base);
        async move {
            let r = http.post(url).json(&body).send().await.expect("request");
            assert_eq!(r.status().as_u16(), 200);
            events(&r.text().await.expect("body"))
        }
    };
    let evs = post(body.clone()).await;
    // The quick pass comes first, a value for every position, then the full analyses.
    assert_eq!(evs.len(), 2 * (n + 1) + 1, "{evs:?}");
    for (i, (name, v)) in evs[..=n].iter().enumerate() {
        assert_eq!(name, "quick");
        assert_eq!(v["index"], i);
    }
    let evs = evs[n + 1..].to_vec();
    for (i, (name, v)) in evs[..=n].iter().enumerate() {
        assert_eq!(name, "position");
        assert_eq!(v["index"], i);
    }
    let (name, summary) = &evs[n + 1];
    assert_eq!(name, "game");
    assert_eq!(summary["values"].as_array().expect("values").len(), n + 1);
    assert_eq!(summary["notes"].as_array().expect("notes").len(), n);
    // The last position is the end of the game: its value is the final result.
    let last = summary["values"][n].as_f64().expect("value");
    let margin = game
        .position()
        .scores(Scoring::Largest)
        .margin(Color::White);
    assert_eq!(last, (f64::from(margin.signum()) + 1.0) / 2.0);
    assert_eq!(summary["margins"][n], margin);

    let (_, stats) = server.get("/api/analysis/stats", None).await;
    let again = post(body).await;
    assert!(
        again[..=n]
            .iter()
            .all(|(_, v)| v["analysis"]["cached"] == true)
    );
    assert_eq!(again[n + 1].1["values"], summary["values"]);
    let (_, after) = server.get("/api/analysis/stats", None).await;
    assert_eq!(after["runs"], stats["runs"]);

    // The other scoring mode is analysed on its own.
    let other = post(json!({ "record": record, "scoring": "product" })).await;
    assert_eq!(other.last().expect("events").1["scoring"], "product");
    assert_eq!(other[0].1["analysis"]["cached"], false);
}

#[tokio::test]
async fn bad_analysis_requests_get_a_4xx_with_a_reason() {
    let server = server().await;
    let (status, e) = server.get("/api/analysis?position=nonsense", None).await;
    assert_eq!(status, 400, "{e}");
    assert_eq!(e["code"], "bad_request");
    assert!(e["message"].as_str().expect("message").contains("nonsense"));
    let pos = deal::random(1, Color::White);
    let (status, e) = server
        .get(
            &format!("/api/analysis/stream?{}&scoring=biggest", query(&pos)),
            None,
        )
        .await;
    assert_eq!(status, 400, "{e}");
    assert!(e["message"].as_str().expect("message").contains("biggest"));
    let (status, e) = server.get("/api/analysis/moves?position=1wb", None).await;
    assert_eq!(status, 400, "{e}");
    let (status, m) = server
        .get(&format!("/api/analysis/moves?{}", query(&pos)), None)
        .await;
    assert_eq!(status, 200, "{m}");
    assert_eq!(
        m["legal_moves"].as_array().expect("moves").len(),
        pos.legal_moves().len()
    );
    let (status, e) = server.get("/api/analysis", None).await;
    assert_eq!(status, 400, "{e}");
    let (status, e) = server
        .post("/api/analysis/game", None, json!({ "record": "1. zz" }))
        .await;
    assert_eq!(status, 422, "{e}");
    assert_eq!(e["code"], "invalid_record");
    let (status, e) = server
        .post("/api/analysis/game", None, json!({ "moves": [] }))
        .await;
    assert_eq!(status, 400, "{e}");
}

#[tokio::test]
async fn the_record_keeps_the_deal_estimate_once_the_start_is_analysed() {
    let server = server().await;
    let grant = server.create(json!({ "mode": "local", "seed": "5" })).await;
    let id = grant["game_id"].as_str().expect("id");
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    assert!(!record.as_str().expect("text").contains("DealEstimate"));
    let start = grant["state"]["start"].as_str().expect("start");
    let (status, a) = server
        .get(
            &format!("/api/analysis?position={}", start.replace(' ', "%20")),
            None,
        )
        .await;
    assert_eq!(status, 200, "{a}");
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    let text = record.as_str().expect("text");
    let white = a["white"].as_f64().expect("white");
    assert!(
        text.contains(&format!("[DealEstimate \"White {:.1}%\"]", 100.0 * white)),
        "{text}"
    );
    Game::parse(text).expect("the record reads back");
}

#[tokio::test]
async fn a_stream_left_before_its_turn_is_not_analysed() {
    // Two pool slots: one for analyses, so the second position waits behind the first.
    let server = server().await;
    let first = deal::random(21, Color::White);
    let url = |pos: &Position| format!("{}/api/analysis/stream?{}", server.base, query(pos));
    let busy = server.http.get(url(&first)).send().await.expect("request");
    // Ask for two more positions and leave at once.
    for seed in [22, 23] {
        let pos = deal::random(seed, Color::White);
        let r = server.http.get(url(&pos)).send().await.expect("request");
        drop(r);
    }
    let text = busy.text().await.expect("body");
    assert!(text.contains("\"done\":true"), "{text}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, stats) = server.get("/api/analysis/stats", None).await;
    assert_eq!(
        stats["runs"], 1,
        "the left positions were not analysed: {stats}"
    );
    // Asked again, such a position is analysed afresh.
    let pos = deal::random(22, Color::White);
    let (status, a) = server
        .get(&format!("/api/analysis?{}", query(&pos)), None)
        .await;
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["cached"], false);
    let (_, stats) = server.get("/api/analysis/stats", None).await;
    assert_eq!(stats["runs"], 2, "{stats}");
}

#[tokio::test]
async fn hints_against_the_engine_are_counted_and_kept_in_the_record() {
    let server = server().await;
    let grant = server
        .create(json!({ "mode": "engine", "engine_level": 1, "color": "white", "first": "white", "seed": 8 }))
        .await;
    let id = grant["game_id"].as_str().expect("id");
    let token = grant["token"].as_str().expect("token");
    let path = format!("/api/games/{id}/hint");
    let (status, e) = server.post(&path, None, json!({})).await;
    assert_eq!(status, 401, "{e}");
    for n in 1..=2 {
        let (status, hint) = server.post(&path, Some(token), json!({})).await;
        assert_eq!(status, 200, "{hint}");
        assert_eq!(hint["state"]["hints"]["white"], n);
        assert_eq!(hint["state"]["hints"]["black"], 0);
        assert_eq!(hint["analysis"]["position"], grant["state"]["position"]);
        assert!(
            !hint["analysis"]["moves"]
                .as_array()
                .expect("moves")
                .is_empty()
        );
        assert_eq!(hint["analysis"]["done"], true);
    }
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    let text = record.as_str().expect("text");
    assert!(text.contains("[WhiteHints \"2\"]"), "{text}");
    assert!(!text.contains("BlackHints"), "{text}");
    let (_, state) = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(state["hints"]["white"], 2);

    // Not in other games.
    let local = server.create(json!({ "mode": "local", "seed": "8" })).await;
    let (status, e) = server
        .post(
            &format!("/api/games/{}/hint", local["game_id"].as_str().expect("id")),
            local["token"].as_str(),
            json!({}),
        )
        .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["message"]
            .as_str()
            .expect("message")
            .contains("against the engine")
    );
}
