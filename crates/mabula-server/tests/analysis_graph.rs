//! A game's evaluation graph over real HTTP (`POST /api/analysis/game`): it fills in two passes,
//! a quick value for every position before the first full analysis, so that the page draws the
//! whole graph at once and deepens it afterwards.

use crate::common;

use common::TestServer;
use mabula::{Color, Game, Scoring, deal};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The full analysis's time per position here.
const ANALYSIS: Duration = Duration::from_millis(600);

/// A game of `plies` moves (fewer if it ends first) from deal `seed`, as a record.
fn game_of(seed: u64, plies: usize) -> (String, usize) {
    let mut game = Game::new(deal::random(seed, Color::White), Scoring::Largest);
    for i in 0..plies {
        if game.position().is_game_over() {
            break;
        }
        let legal = game.position().legal_moves();
        let mv = legal[(i * 7) % legal.len()];
        game.play(mv).expect("legal");
    }
    (game.to_string(), game.moves().len())
}

/// Reads a server-sent event stream as it comes: each event's name, data, and when it came.
async fn read_events(mut r: reqwest::Response) -> Vec<(String, Value, Duration)> {
    let start = Instant::now();
    let mut buffer = String::new();
    let mut out = Vec::new();
    while let Some(chunk) = r.chunk().await.expect("a chunk") {
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(cut) = buffer.find("\n\n") {
            let block: String = buffer.drain(..cut + 2).collect();
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
                let value = serde_json::from_str(&data).expect("JSON data");
                out.push((name, value, start.elapsed()));
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_24_move_game_has_a_quick_value_for_every_move_before_any_full_analysis() {
    let server = TestServer::start_with(|c| c.services.analysis_time = ANALYSIS).await;
    let (record, n) = game_of(5, 24);
    assert_eq!(n, 24, "the game has its 24 moves");
    let r = server
        .http
        .post(format!("{}/api/analysis/game", server.base))
        .json(&json!({ "record": record }))
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 200);
    let events = read_events(r).await;
    let names: Vec<&str> = events.iter().map(|(name, ..)| name.as_str()).collect();

    // Every position's quick value, start first, before the first full analysis ...
    assert_eq!(events.len(), 2 * (n + 1) + 1, "{names:?}");
    for (i, (name, v, _)) in events[..=n].iter().enumerate() {
        assert_eq!(
            (name.as_str(), v["index"].as_u64()),
            ("quick", Some(i as u64))
        );
        let white = v["analysis"]["white"].as_f64().expect("a value");
        assert!((0.0..=1.0).contains(&white));
    }
    // ... then the full analyses in order, and the graph.
    for (i, (name, v, _)) in events[n + 1..=2 * n + 1].iter().enumerate() {
        assert_eq!(
            (name.as_str(), v["index"].as_u64()),
            ("position", Some(i as u64))
        );
    }
    assert_eq!(names.last(), Some(&"game"));

    // The whole quick pass took less than half of what the full analyses of the positions
    // before the end may take (a bound loose enough for a loaded machine; analysing each
    // position in full one after another, as before, takes about 25 times `ANALYSIS`).
    let quick_done = events[n].2;
    let all_done = events.last().expect("events").2;
    assert!(
        quick_done < ANALYSIS * (n as u32 + 1) / 2,
        "the quick pass took {quick_done:?}"
    );
    assert!(quick_done < all_done);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_positions_are_all_analysed_skips_the_quick_pass() {
    let server = TestServer::start_with(|c| {
        c.services.analysis_time = Duration::from_millis(100);
    })
    .await;
    let (record, n) = game_of(8, 6);
    let post = || async {
        let r = server
            .http
            .post(format!("{}/api/analysis/game", server.base))
            .json(&json!({ "record": record }))
            .send()
            .await
            .expect("request");
        assert_eq!(r.status().as_u16(), 200);
        read_events(r).await
    };
    let first = post().await;
    assert_eq!(first.len(), 2 * (n + 1) + 1);
    let again = post().await;
    let names: Vec<&str> = again.iter().map(|(name, ..)| name.as_str()).collect();
    assert_eq!(names.len(), n + 2, "{names:?}");
    assert!(names[..=n].iter().all(|&name| name == "position"));
    assert!(
        again[..=n]
            .iter()
            .all(|(_, v, _)| v["analysis"]["cached"] == true)
    );
}
