//! Fairness of the engine pool over real HTTP: one client's many engine games or analyses do not
//! hold up another client's engine move or hint, and a flood of analyses is refused at once
//! instead of queued without end.
//!
//! Clients are told apart by their address: each test client connects from its own loopback
//! address (127.0.0.2, 127.0.0.3, ...), which Linux routes without setup. The assertions compare
//! orders (what was answered before what) with generous deadlines, never tight durations.

use crate::common;

use common::TestServer;
use mabula::{Color, Position, Scoring, deal};
use mabula_server::engine::{EnginePool, Work};
use serde_json::{Value, json};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// A client of the test server connecting from its own address.
#[derive(Clone)]
struct Peer {
    http: reqwest::Client,
    base: String,
}

/// An answer: status, `Retry-After` if any, body as JSON.
struct Answer {
    status: u16,
    retry_after: Option<u64>,
    body: Value,
}

impl Peer {
    fn new(server: &TestServer, ip: &str) -> Peer {
        let ip: IpAddr = ip.parse().expect("an address");
        Peer {
            http: reqwest::Client::builder()
                .local_address(ip)
                .build()
                .expect("client"),
            base: server.base.clone(),
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Answer {
        self.call_with(method, path, None, body).await
    }

    async fn call_with(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let mut r = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        let response = r.send().await.expect("request");
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        let text = response.text().await.expect("body");
        Answer {
            status,
            retry_after,
            body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
        }
    }

    /// An engine game where this peer plays White and moves first; answers (id, token, state).
    async fn engine_game(&self, seed: u64, level: u8, movetime_ms: u32) -> (String, String, Value) {
        let a = self
            .call(
                reqwest::Method::POST,
                "/api/games",
                Some(json!({
                    "mode": "engine", "color": "white", "first": "white", "seed": seed,
                    "engine_level": level, "engine_movetime_ms": movetime_ms,
                })),
            )
            .await;
        assert_eq!(a.status, 201, "{}", a.body);
        let id = a.body["game_id"].as_str().expect("id").to_string();
        let token = a.body["token"].as_str().expect("token").to_string();
        (id, token, a.body["state"].clone())
    }

    /// Plays the first legal move of `state`: the engine starts thinking.
    async fn first_move(&self, id: &str, token: &str, state: &Value) {
        let mv = common::legal(state)[0].clone();
        let a = self
            .call_with(
                reqwest::Method::POST,
                &format!("/api/games/{id}/moves"),
                Some(token),
                Some(json!({ "move": mv })),
            )
            .await;
        assert_eq!(a.status, 200, "{}", a.body);
    }

    /// Whether the engine has answered the first move of game `id`.
    async fn engine_replied(&self, id: &str) -> bool {
        let a = self
            .call(reqwest::Method::GET, &format!("/api/games/{id}"), None)
            .await;
        assert_eq!(a.status, 200, "{}", a.body);
        common::moves(&a.body).len() >= 2
    }

    /// `GET /api/analysis` of `pos`.
    async fn analyse(&self, pos: &Position) -> Answer {
        let path = format!(
            "/api/analysis?position={}",
            pos.to_string().replace(' ', "%20")
        );
        self.call(reqwest::Method::GET, &path, None).await
    }
}

/// A different early position for every `n` (two plies into a deal, so never a game's start).
fn early(n: u64) -> Position {
    let mut pos = deal::random(1000 + n, Color::White);
    for _ in 0..2 {
        let mv = pos.legal_moves()[0];
        pos.play_unchecked(mv);
    }
    pos
}

/// Asks for the analysis of every position of `positions` at once from `peer`; answers arrive
/// on the channel as (status, retry-after, code, seconds since asked).
fn flood(
    peer: &Peer,
    positions: Vec<Position>,
    tasks: &mut tokio::task::JoinSet<()>,
) -> mpsc::UnboundedReceiver<(u16, Option<u64>, Value, Duration)> {
    let (tx, rx) = mpsc::unbounded_channel();
    for pos in positions {
        let (peer, tx) = (peer.clone(), tx.clone());
        tasks.spawn(async move {
            let asked = Instant::now();
            let a = peer.analyse(&pos).await;
            let _ = tx.send((
                a.status,
                a.retry_after,
                a.body["code"].clone(),
                asked.elapsed(),
            ));
        });
    }
    rx
}

#[tokio::test]
async fn one_clients_ten_slow_engine_games_hold_up_another_clients_quick_one_by_about_one_move() {
    let server = TestServer::start_with(|c| {
        c.services.engine_threads = 1;
        // Ten engine games from one address: above the default cap.
        c.services.engine_games_per_address = 10;
    })
    .await;
    let greedy = Peer::new(&server, "127.0.0.2");
    let player = Peer::new(&server, "127.0.0.3");
    let mut slow = Vec::new();
    for seed in 0..10 {
        let (id, token, state) = greedy.engine_game(seed, 10, 1500).await;
        greedy.first_move(&id, &token, &state).await;
        slow.push(id);
    }
    let answered = async |ids: &[String]| {
        let mut n = 0;
        for id in ids {
            n += usize::from(greedy.engine_replied(id).await);
        }
        n
    };
    let (id, token, state) = player.engine_game(99, 1, 100).await;
    let before = answered(&slow).await;
    assert!(
        before <= 6,
        "most slow games are still waiting: {before} answered"
    );
    player.first_move(&id, &token, &state).await;
    let deadline = Instant::now() + Duration::from_secs(120);
    while !player.engine_replied(&id).await {
        assert!(
            Instant::now() < deadline,
            "the quick game got no engine move"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let after = answered(&slow).await;
    assert!(
        after - before <= 2,
        "the quick game waited for {} slow moves (first come, first served would be {})",
        after - before,
        10 - before
    );
}

#[tokio::test]
async fn a_queued_engine_move_of_one_key_goes_before_the_second_of_a_key_with_ten() {
    let pool = EnginePool::new(1);
    // Ten jobs of one key that hold the only slot until the test lets each go.
    let (release, released) = std::sync::mpsc::channel::<()>();
    let released = Arc::new(std::sync::Mutex::new(released));
    let done = Arc::new(AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let ticket = pool.queue(Work::Move, "greedy", None).expect("queued");
        let (released, done) = (released.clone(), done.clone());
        tasks.spawn(async move {
            let slot = ticket.await.expect("a slot");
            slot.run(move || {
                let _ = released.lock().expect("lock").recv();
            })
            .await;
            done.fetch_add(1, Ordering::SeqCst);
        });
    }
    assert_eq!(pool.waiting(), 9);
    let quick = {
        let pool = pool.clone();
        tokio::spawn(async move {
            let pos = deal::random(4, Color::White);
            pool.choose_for(
                "player",
                pos,
                Scoring::Largest,
                1,
                Duration::from_millis(50),
                7,
            )
            .await
        })
    };
    // Its job is queued once it is polled: wait for that, then let the first slow job finish.
    let deadline = Instant::now() + Duration::from_secs(30);
    while pool.waiting() < 10 {
        assert!(Instant::now() < deadline, "the quick move was never queued");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    release.send(()).expect("the first job waits");
    let mv = tokio::time::timeout(Duration::from_secs(60), quick)
        .await
        .expect("the quick move is computed while the other nine wait")
        .expect("task");
    assert!(mv.is_some());
    // Had the second slow job taken the slot, nothing would have run until the test let it go.
    assert!(
        done.load(Ordering::SeqCst) <= 1,
        "only the first slow job ran"
    );
    for _ in 0..9 {
        release.send(()).expect("a job waits");
    }
    while tasks.join_next().await.is_some() {}
    assert_eq!(done.load(Ordering::SeqCst), 10);
}

#[tokio::test]
async fn a_flood_of_analyses_is_refused_at_once_while_another_clients_hint_is_answered() {
    let server = TestServer::start_with(|c| {
        c.services.engine_threads = 2;
        c.services.analysis_time = Duration::from_millis(2000);
    })
    .await;
    let flooder = Peer::new(&server, "127.0.0.2");
    let player = Peer::new(&server, "127.0.0.3");
    let (id, token, _) = player.engine_game(8, 3, 100).await;

    let mut tasks = tokio::task::JoinSet::new();
    let mut answers = flood(&flooder, (0..12).map(early).collect(), &mut tasks);
    // Four are taken (one runs, three wait): the other eight are refused without waiting.
    let mut refused = Vec::new();
    let finished = Arc::new(AtomicUsize::new(0));
    while refused.len() < 8 {
        let (status, retry, code, took) =
            tokio::time::timeout(Duration::from_secs(30), answers.recv())
                .await
                .expect("refusals come without waiting for the analyses")
                .expect("an answer");
        if status == 200 {
            finished.fetch_add(1, Ordering::SeqCst);
            continue;
        }
        assert_eq!((status, &code), (429, &json!("rate_limited")));
        assert!(retry.is_some_and(|s| s >= 1), "Retry-After is set");
        refused.push(took);
    }
    assert!(
        refused.iter().all(|t| *t < Duration::from_secs(10)),
        "refused at once: {refused:?}"
    );

    // The hint is computed beside the analyses, not after them: four analyses of 2 s on the one
    // slot analyses may take need about 8 s, the hint about 2 s.
    let counter = {
        let finished = finished.clone();
        tokio::spawn(async move {
            while let Some((status, ..)) = answers.recv().await {
                assert_eq!(status, 200);
                finished.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    let hint = tokio::time::timeout(
        Duration::from_secs(60),
        player.call_with(
            reqwest::Method::POST,
            &format!("/api/games/{id}/hint"),
            Some(&token),
            Some(json!({})),
        ),
    )
    .await
    .expect("the hint is answered");
    assert_eq!(hint.status, 200, "{}", hint.body);
    assert_eq!(hint.body["analysis"]["done"], true);
    let before_hint = finished.load(Ordering::SeqCst);
    assert!(
        before_hint < 4,
        "the hint waited behind the flood: {before_hint} of its analyses finished first"
    );
    counter.abort();
    tasks.abort_all();
}

#[tokio::test]
async fn a_full_analysis_queue_answers_busy_but_a_cached_position_is_always_answered() {
    let server = TestServer::start_with(|c| {
        c.services.engine_threads = 2;
        c.services.analysis_time = Duration::from_millis(2000);
    })
    .await;
    // Analysed before the flood: in the cache from then on.
    let known = early(100);
    let first = Peer::new(&server, "127.0.0.2");
    let a = first.analyse(&known).await;
    assert_eq!(a.status, 200, "{}", a.body);

    // Six clients ask for four positions each, within their own bound: one runs, sixteen wait
    // (eight per engine thread) and the rest find the queue full.
    let mut tasks = tokio::task::JoinSet::new();
    let mut channels = Vec::new();
    let mut peers = Vec::new();
    for c in 0..6u64 {
        let peer = Peer::new(&server, &format!("127.0.0.{}", c + 2));
        channels.push(flood(
            &peer,
            (0..4).map(|i| early(c * 4 + i)).collect(),
            &mut tasks,
        ));
        peers.push(peer);
    }
    let mut busy = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    'wait: while busy.len() < 7 {
        for rx in &mut channels {
            while let Ok((status, retry, code, took)) = rx.try_recv() {
                if status == 200 {
                    continue;
                }
                assert_eq!((status, &code), (503, &json!("busy")));
                assert!(retry.is_some_and(|s| s >= 1), "Retry-After is set");
                busy.push(took);
            }
        }
        if Instant::now() > deadline {
            break 'wait;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(busy.len() >= 5, "a full queue refuses: {busy:?}");
    assert!(
        busy.iter().all(|t| *t < Duration::from_secs(10)),
        "refused at once: {busy:?}"
    );

    // The cached position needs no work: answered to a client at its bound, queue full or not.
    let again = tokio::time::timeout(Duration::from_secs(10), peers[1].analyse(&known))
        .await
        .expect("a cached position is answered at once");
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["cached"], true);
    tasks.abort_all();
}

#[tokio::test]
async fn a_hint_moves_its_positions_waiting_analysis_ahead_of_the_analysis_board() {
    let server = TestServer::start_with(|c| {
        c.services.engine_threads = 2;
        c.services.analysis_time = Duration::from_millis(2000);
    })
    .await;
    let player = Peer::new(&server, "127.0.0.3");
    let (id, token, state) = player.engine_game(8, 3, 100).await;
    let start: Position = state["position"]
        .as_str()
        .expect("position")
        .parse()
        .expect("a position string");

    // The board asks for three positions, then for the game's start: all wait on the board's one
    // slot, the start last. A stream's answer begins once its analysis is queued.
    let board = Peer::new(&server, "127.0.0.2");
    let open = |pos: Position| {
        let board = board.clone();
        async move {
            let url = format!(
                "{}/api/analysis/stream?position={}",
                board.base,
                pos.to_string().replace(' ', "%20")
            );
            let r = board.http.get(url).send().await.expect("request");
            assert_eq!(r.status().as_u16(), 200);
            r
        }
    };
    let finished = Arc::new(AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for n in 200..203 {
        let r = open(early(n)).await;
        let finished = finished.clone();
        tasks.spawn(async move {
            let text = r.text().await.expect("body");
            assert!(text.contains("\"done\":true"), "{text}");
            finished.fetch_add(1, Ordering::SeqCst);
        });
    }
    let _waiting_start = open(start).await;

    let hint = tokio::time::timeout(
        Duration::from_secs(60),
        player.call_with(
            reqwest::Method::POST,
            &format!("/api/games/{id}/hint"),
            Some(&token),
            Some(json!({})),
        ),
    )
    .await
    .expect("the hint is answered");
    assert_eq!(hint.status, 200, "{}", hint.body);
    assert_eq!(
        hint.body["analysis"]["cached"], true,
        "the hint joined the board's analysis"
    );
    let before_hint = finished.load(Ordering::SeqCst);
    assert!(
        before_hint < 3,
        "the start waited for its turn on the board: {before_hint} positions went first"
    );
    tasks.abort_all();
}
