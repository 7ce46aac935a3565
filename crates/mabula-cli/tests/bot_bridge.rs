//! `mabula bot`, the bridge between the bot API and an engine (issue 38), over real HTTP on real
//! `mabula serve` processes: three instances on one PostgreSQL when `MABULA_TEST_POSTGRES_URL`
//! names a server, else one instance on SQLite. The bridge runs as its own process, as a bot's
//! owner runs it; people play against it through other instances.

use crate::common;

use common::player::Player;
use common::{Instance, Nodes};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

async fn nodes() -> Nodes {
    common::nodes("bridge.sqlite3").await
}

/// A new bot account on `base`: its `bot:play` token.
async fn new_bot(base: &str, name: &str) -> String {
    let p = Player::sign_up(base, name).await;
    let (status, body) = p
        .post(
            "/api/account/tokens",
            json!({"description": "bridge", "scopes": ["bot:play"]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let token = body["token"].as_str().expect("a token").to_string();
    let r = reqwest::Client::new()
        .post(format!("{base}/api/bot/account/upgrade"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .expect("answer");
    assert_eq!(r.status().as_u16(), 204);
    token
}

/// A running `mabula bot`, its log gathered as it comes.
struct Bridge {
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
}

impl Bridge {
    fn start(base: &str, token: &str, more: &[&str]) -> Bridge {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
            .args(["bot", "--server", base, "--token", token])
            .args(more)
            .env("RUST_LOG", "info,hyper=warn,reqwest=warn")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mabula bot");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("stderr");
        let into = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                eprintln!("bot: {line}");
                into.lock().expect("log").push(line);
            }
        });
        Bridge { child, log }
    }

    /// Waits (up to `limit`) for a log line holding every one of `words`; that line.
    async fn logged(&self, words: &[&str], limit: Duration) -> String {
        let end = Instant::now() + limit;
        loop {
            if let Some(l) = self
                .log
                .lock()
                .expect("log")
                .iter()
                .find(|l| words.iter().all(|w| l.contains(w)))
            {
                return l.clone();
            }
            assert!(Instant::now() < end, "never logged {words:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends SIGINT (Ctrl-C) and waits for the exit; whether it succeeded.
    async fn interrupt(&mut self, limit: Duration) -> bool {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let end = Instant::now() + limit;
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                return s.success();
            }
            assert!(Instant::now() < end, "mabula bot did not stop");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A person's event stream (with the session cookie).
struct Events {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Events {
    async fn open(p: &Player) -> Events {
        let r = p
            .http
            .get(format!("{}/api/stream/event", p.base))
            .header("cookie", p.cookie.clone().expect("a session"))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 200);
        Events {
            response: r,
            buffer: Vec::new(),
        }
    }

    /// The next message of type `kind` (others skipped), within 30 s.
    async fn until(&mut self, kind: &str) -> Value {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            while let Some(i) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=i).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let m: Value = serde_json::from_slice(&line).expect("a JSON line");
                if m["type"] == kind {
                    return m;
                }
            }
            let left = end.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.response.chunk())
                .await
                .unwrap_or_else(|_| panic!("no {kind} within 30 s"))
                .expect("the stream goes on")
                .expect("the stream goes on");
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

/// `from` challenges `to` (White); the challenge's id.
async fn challenge(from: &Player, to: &str, terms: Value) -> String {
    let mut body = json!({"scoring": "largest", "color": "white", "to": to});
    for (k, v) in terms.as_object().expect("terms") {
        body[k] = v.clone();
    }
    let (status, seek) = from.post("/api/seeks", body).await;
    assert_eq!(status, 201, "{seek}");
    seek["id"].as_str().expect("an id").to_string()
}

/// `p` plays the first legal move each time it is White's turn, until game `id` is over
/// (within `limit`); the final state.
async fn play_out(p: &Player, id: &str, limit: Duration) -> Value {
    let end = Instant::now() + limit;
    loop {
        let (status, state) = p.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "{state}");
        if state["result"] != "*" {
            return state;
        }
        if state["to_move"] == "white" && state["result"] == "*" {
            let mv = state["legal_moves"][0]["notation"].clone();
            let n = state["moves"].as_array().map_or(0, Vec::len) + 1;
            // The bot may have resigned meanwhile: any answer is fine here.
            let _ = p
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({"move": mv, "number": n}),
                )
                .await;
            continue;
        }
        assert!(Instant::now() < end, "game {id} not over: {state}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn data(file: &str) -> String {
    format!("{}/tests/data/bot/{file}", env!("CARGO_MANIFEST_DIR"))
}

#[tokio::test]
async fn the_bridge_plays_a_rated_clocked_game_with_mabula_gtp_and_stops_on_ctrl_c() {
    let n = nodes().await;
    let token = new_bot(&n.bases[0], "gtpbot").await;
    let engine = format!("{} gtp --threads 1", env!("CARGO_BIN_EXE_mabula"));
    let mut bot = Bridge::start(
        &n.bases[0],
        &token,
        &["--engine", &engine, "--rated", "yes", "--clock-max", "600"],
    );
    bot.logged(&["event stream open"], Duration::from_secs(20))
        .await;

    let carl = Player::sign_up(&n.bases[1], "carlgtp").await;
    let mut events = Events::open(&carl.on(&n.bases[2])).await;
    // Refused: casual, and a clock over --clock-max; said why.
    let casual = challenge(
        &carl,
        "gtpbot",
        json!({"rated": false, "clock": {"initial_s": 60, "increment_s": 0}}),
    )
    .await;
    bot.logged(&["declining", &casual, "casual"], Duration::from_secs(20))
        .await;
    let long = challenge(
        &carl,
        "gtpbot",
        json!({"rated": true, "clock": {"initial_s": 900, "increment_s": 0}}),
    )
    .await;
    bot.logged(&["declining", &long, "outside"], Duration::from_secs(20))
        .await;
    // Accepted: rated 1+1, heard through another instance.
    let good = challenge(
        &carl,
        "gtpbot",
        json!({"rated": true, "clock": {"initial_s": 30, "increment_s": 1}}),
    )
    .await;
    let start = events.until("game_start").await;
    let game = start["game"]["id"].as_str().expect("a game").to_string();
    assert_eq!(start["game"]["rated"], true, "{start}");
    bot.logged(&["accepting", &good], Duration::from_secs(5))
        .await;
    let end = play_out(&carl, &game, Duration::from_secs(240)).await;
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&end["result"].as_str().unwrap_or("")),
        "{end}"
    );
    bot.logged(&["game over", &game], Duration::from_secs(20))
        .await;
    let moves = end["moves"].as_array().map_or(0, Vec::len);
    assert!(moves >= 2, "the bot played: {end}");
    // Rated.
    let limit = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, p) = carl.get("/api/players/gtpbot").await;
        if p["ratings"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["games"] == 1))
        {
            break;
        }
        assert!(Instant::now() < limit, "never rated: {p}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Ctrl-C: a clean stop.
    assert!(bot.interrupt(Duration::from_secs(20)).await, "exit status");
    bot.logged(&["stopped"], Duration::from_secs(1)).await;
}

#[tokio::test]
async fn an_engine_that_refuses_plays_illegally_or_hangs_loses_and_the_bridge_goes_on() {
    let n = nodes().await;
    let carl = Player::sign_up(&n.bases[1], "carlbroken").await;
    let mut events = Events::open(&carl.on(&n.bases[2])).await;
    for mode in ["refuse", "illegal", "hang"] {
        let name = format!("{mode}bot");
        let token = new_bot(&n.bases[0], &name).await;
        let engine = format!("sh {} {mode}", data("broken_engine.sh"));
        let mut bot = Bridge::start(
            &n.bases[0],
            &token,
            &[
                "--engine",
                &engine,
                "--correspondence",
                "--engine-grace-ms",
                "1000",
            ],
        );
        bot.logged(&["event stream open"], Duration::from_secs(20))
            .await;
        // Two games one after the other: each lost, and the bridge goes on.
        for _ in 0..2 {
            challenge(&carl, &name, json!({"days": 2})).await;
            let start = events.until("game_start").await;
            let game = start["game"]["id"].as_str().expect("a game").to_string();
            let end = play_out(&carl, &game, Duration::from_secs(60)).await;
            assert_eq!(end["result"], "1-0", "{end}");
            let why = bot
                .logged(&["resigning", &game], Duration::from_secs(20))
                .await;
            let expected = match mode {
                "refuse" => "? cannot play",
                "illegal" => "a1-a1",
                _ => "no answer",
            };
            assert!(why.contains(expected), "{mode}: {why}");
        }
        assert!(bot.interrupt(Duration::from_secs(20)).await, "exit status");
    }
}

#[tokio::test]
async fn the_built_in_engine_plays_and_ctrl_c_with_resign_on_exit_resigns_the_running_game() {
    let n = nodes().await;
    let token = new_bot(&n.bases[0], "levelbot").await;
    let mut bot = Bridge::start(
        &n.bases[2],
        &token,
        &["--level", "1", "--correspondence", "--resign-on-exit"],
    );
    bot.logged(&["event stream open"], Duration::from_secs(20))
        .await;
    let dora = Player::sign_up(&n.bases[1], "doralevel").await;
    let mut events = Events::open(&dora).await;
    challenge(&dora, "levelbot", json!({"days": 3})).await;
    let start = events.until("game_start").await;
    let game = start["game"]["id"].as_str().expect("a game").to_string();
    // Two moves each: the built-in engine answers.
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, state) = dora.get(&format!("/api/games/{game}")).await;
        let moves = state["moves"].as_array().map_or(0, Vec::len);
        if moves >= 4 {
            break;
        }
        assert!(Instant::now() < end, "the bot does not play: {state}");
        if state["to_move"] == "white" {
            dora.play_first_legal(&game).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // Ctrl-C with --resign-on-exit: the running game is resigned, and the bridge stops.
    assert!(bot.interrupt(Duration::from_secs(20)).await, "exit status");
    bot.logged(&["resigning", &game, "stopping"], Duration::from_secs(1))
        .await;
    let (_, state) = dora.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["result"], "1-0", "{state}");
}

/// A stand-in for a load balancer: each connection goes to the address it points at when the
/// connection comes.
struct Balancer {
    base: String,
    to: Arc<Mutex<String>>,
}

impl Balancer {
    async fn start(to: &str) -> Balancer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let target = Arc::new(Mutex::new(String::new()));
        let b = Balancer { base, to: target };
        b.point_to(to);
        let target = b.to.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let to = target.lock().expect("target").clone();
                tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        b
    }

    /// Sends the next connections to the instance at `base`.
    fn point_to(&self, base: &str) {
        *self.to.lock().expect("target") = base.trim_start_matches("http://").to_string();
    }
}

#[tokio::test]
async fn the_bridge_goes_on_through_another_instance_when_its_own_dies() {
    let mut n = nodes().await;
    let token = new_bot(&n.bases[0], "phoenixbot").await;
    let last = n.nodes.len() - 1;
    let balancer = Balancer::start(&n.bases[last]).await;
    let bot = Bridge::start(
        &balancer.base,
        &token,
        &["--level", "1", "--correspondence"],
    );
    bot.logged(&["event stream open"], Duration::from_secs(20))
        .await;
    let mut erin = Player::sign_up(&n.bases[0], "erinlevel").await;
    let mut events = Events::open(&erin).await;
    challenge(&erin, "phoenixbot", json!({"days": 3})).await;
    let start = events.until("game_start").await;
    let game = start["game"]["id"].as_str().expect("a game").to_string();
    let play_to = |erin: Player, plies: usize| {
        let game = game.clone();
        async move {
            let end = Instant::now() + Duration::from_secs(60);
            loop {
                let (_, state) = erin.get(&format!("/api/games/{game}")).await;
                if state["moves"].as_array().map_or(0, Vec::len) >= plies {
                    return erin;
                }
                assert!(Instant::now() < end, "the bot does not play: {state}");
                if state["to_move"] == "white" {
                    erin.play_first_legal(&game).await;
                } else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    };
    erin = play_to(erin, 2).await;

    // The bot's instance dies; the balancer sends its reconnections to another (with one
    // instance on SQLite: the same database served again).
    n.nodes[last].kill();
    if n.nodes.len() == 1 {
        let db = n.dir.path().join("bridge.sqlite3").display().to_string();
        n.nodes[0] = Instance::start(&db, 20);
        erin = erin.on(n.nodes[0].client.base());
    }
    balancer.point_to(n.nodes[0].client.base());
    bot.logged(&["reopening"], Duration::from_secs(30)).await;
    erin = play_to(erin, 6).await;
    let (_, state) = erin.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["result"], "*", "the game goes on: {state}");
}
