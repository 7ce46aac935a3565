//! The client side of `mabula loadtest`: many games played at once against one running server or
//! several instances of it, and optionally many WebSocket spectators of one more game, each
//! checked to receive every move exactly once and in order.
//!
//! Each player task creates a game at one screen (`local`), then plays random legal moves as
//! fast as the server answers, sending the move number so a move is never played twice, and
//! starts a new game when one ends. With several instances, requests go round the instances in
//! turn: each new game is created on the next instance, each of its moves is sent to the
//! instance after the one that took the previous request, and the spectators are dealt out over
//! all instances, so that every game's state has to travel between them. The run is bounded in
//! time; it only talks to the given URLs.

mod accounts;
pub mod arena;
pub mod bots;
mod rated;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadtestConfig {
    /// The base URL of each instance, e.g. `http://127.0.0.1:8080` (at least one).
    pub urls: Vec<String>,
    /// Games played at once.
    pub games: usize,
    /// Moves per second offered in all, spread evenly over the games (`None`: each game moves
    /// as soon as its last move is answered). With a rate, a move's latency counts from when it
    /// was due, so a server that falls behind is not excused by the load test waiting for it
    /// (a game's first move is due when the game exists at the earliest).
    pub rate: Option<f64>,
    /// How long to play.
    pub duration: Duration,
    /// Spectators of the watched game (0: none).
    pub spectators: usize,
    /// Moves per second in the watched game.
    pub watched_rate: f64,
    /// Pairs of accounts playing rated 5+0 games through the lobby, beside the games at one
    /// screen (0: none).
    pub rated: usize,
    /// Flag probes: rated 15+0 games left after the third move, timing the server's flag.
    pub flags: usize,
}

/// Why the load test could not run.
#[derive(Debug, thiserror::Error)]
pub enum LoadtestError {
    /// The server could not be reached or answered nonsense at the start.
    #[error("{0}")]
    Setup(String),
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Games played at once.
    pub games: usize,
    /// Moves per second offered, if the games were paced.
    pub rate: Option<f64>,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Moves accepted (200) by the server.
    pub moves: u64,
    /// Games created.
    pub games_created: u64,
    /// Games played to their end.
    pub games_finished: u64,
    /// Latency of accepted moves, microseconds, sorted.
    pub latencies_us: Vec<u32>,
    /// Failed requests by error code (or transport error).
    pub errors: BTreeMap<String, u64>,
    /// Spectators that connected.
    pub spectators: usize,
    /// Moves played in the watched game.
    pub watched_moves: u32,
    /// Spectators that received every watched move exactly once, in order.
    pub spectators_complete: usize,
    /// Spectators that saw a gap, a duplicate or missed moves.
    pub spectators_incomplete: usize,
    /// Delay from sending a watched move to a spectator receiving it, microseconds, sorted.
    pub delivery_us: Vec<u32>,
    /// The same counts for each instance, in the order of the URLs.
    pub instances: Vec<InstanceReport>,
    /// Pairs of accounts that played rated games.
    pub rated_pairs: usize,
    /// Moves accepted in rated games.
    pub rated_moves: u64,
    /// Rated games begun through the lobby, and played to their end.
    pub rated_games: (u64, u64),
    /// Latency of accepted moves in rated games, microseconds, sorted.
    pub rated_latencies_us: Vec<u32>,
    /// How late each flag probe's flag reached a watcher after its deadline (ms), sorted.
    pub flag_late_ms: Vec<i64>,
    /// Flag probes that failed, with why.
    pub flag_failures: Vec<String>,
}

/// What one instance answered.
#[derive(Clone, Debug, Default)]
pub struct InstanceReport {
    /// Its base URL.
    pub url: String,
    /// Games created on it.
    pub games_created: u64,
    /// Moves it accepted.
    pub moves: u64,
    /// Latency of the moves it accepted, microseconds, sorted.
    pub latencies_us: Vec<u32>,
    /// Requests to it that failed (the codes are in the report's totals).
    pub errors: u64,
    /// Spectators connected to it.
    pub spectators: usize,
    /// Of those, the ones that received every watched move exactly once, in order.
    pub spectators_complete: usize,
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i.min(sorted.len() - 1)]) / 1000.0
}

/// A report's lines on the play: its duration, the moves accepted and their latency.
fn write_moves(
    f: &mut fmt::Formatter<'_>,
    elapsed: Duration,
    moves: u64,
    latencies_us: &[u32],
) -> fmt::Result {
    writeln!(f, "duration          {:.1} s", elapsed.as_secs_f64())?;
    writeln!(
        f,
        "moves accepted    {moves} ({:.0} moves/s)",
        moves as f64 / elapsed.as_secs_f64().max(1e-9)
    )?;
    writeln!(
        f,
        "move latency      p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms",
        percentile(latencies_us, 0.5),
        percentile(latencies_us, 0.9),
        percentile(latencies_us, 0.99)
    )
}

/// A report's last line: the failed requests by what failed.
fn write_errors(f: &mut fmt::Formatter<'_>, errors: &BTreeMap<String, u64>) -> fmt::Result {
    let total: u64 = errors.values().sum();
    if total == 0 {
        return writeln!(f, "errors            0");
    }
    let list: Vec<String> = errors.iter().map(|(k, v)| format!("{k} x{v}")).collect();
    writeln!(f, "errors            {total} ({})", list.join(", "))
}

impl Report {
    /// Accepted moves per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// A move latency percentile in milliseconds (`p` from 0 to 1).
    pub fn latency_ms(&self, p: f64) -> f64 {
        percentile(&self.latencies_us, p)
    }

    /// Errors of all kinds.
    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rate {
            Some(rate) => writeln!(
                f,
                "games at once     {}, offering {rate:.0} moves/s in all",
                self.games
            )?,
            None => writeln!(
                f,
                "games at once     {}, each as fast as it can",
                self.games
            )?,
        }
        writeln!(f, "duration          {:.1} s", self.elapsed.as_secs_f64())?;
        writeln!(
            f,
            "moves accepted    {} ({:.0} moves/s)",
            self.moves,
            self.moves_per_second()
        )?;
        writeln!(
            f,
            "games             {} created, {} finished",
            self.games_created, self.games_finished
        )?;
        writeln!(
            f,
            "move latency      p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.latency_ms(0.5),
            self.latency_ms(0.9),
            self.latency_ms(0.99),
            self.latency_ms(1.0)
        )?;
        if self.errors.is_empty() {
            writeln!(f, "errors            0")?;
        } else {
            let list: Vec<String> = self
                .errors
                .iter()
                .map(|(k, v)| format!("{k} x{v}"))
                .collect();
            writeln!(
                f,
                "errors            {} ({})",
                self.error_count(),
                list.join(", ")
            )?;
        }
        if self.spectators > 0 {
            writeln!(
                f,
                "spectators        {} connected; watched game {} moves; {} received every move, {} did not",
                self.spectators,
                self.watched_moves,
                self.spectators_complete,
                self.spectators_incomplete
            )?;
            writeln!(
                f,
                "delivery delay    p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                percentile(&self.delivery_us, 0.5),
                percentile(&self.delivery_us, 0.99),
                percentile(&self.delivery_us, 1.0)
            )?;
        }
        if self.rated_pairs > 0 {
            writeln!(
                f,
                "rated games       {} pairs, {} games begun through the lobby, {} finished, {} moves ({:.0} moves/s), p50 {:.2} ms, p99 {:.2} ms",
                self.rated_pairs,
                self.rated_games.0,
                self.rated_games.1,
                self.rated_moves,
                self.rated_moves as f64 / self.elapsed.as_secs_f64().max(1e-9),
                percentile(&self.rated_latencies_us, 0.5),
                percentile(&self.rated_latencies_us, 0.99),
            )?;
        }
        if !self.flag_late_ms.is_empty() || !self.flag_failures.is_empty() {
            let at = |p: f64| {
                let v = &self.flag_late_ms;
                if v.is_empty() {
                    return 0;
                }
                v[(((v.len() - 1) as f64) * p).round() as usize]
            };
            writeln!(
                f,
                "flags             {} probes: late by p50 {} ms, p99 {} ms, max {} ms after the deadline; {} failed",
                self.flag_late_ms.len(),
                at(0.5),
                at(0.99),
                at(1.0),
                self.flag_failures.len()
            )?;
            for e in &self.flag_failures {
                writeln!(f, "  flag probe failed: {e}")?;
            }
        }
        if self.instances.len() > 1 {
            writeln!(f, "per instance")?;
            for i in &self.instances {
                write!(
                    f,
                    "  {}  {} games created, {} moves, p50 {:.2} ms, p99 {:.2} ms, {} errors",
                    i.url,
                    i.games_created,
                    i.moves,
                    percentile(&i.latencies_us, 0.5),
                    percentile(&i.latencies_us, 0.99),
                    i.errors
                )?;
                if self.spectators > 0 || i.spectators > 0 {
                    write!(
                        f,
                        ", {} spectators ({} received every move)",
                        i.spectators, i.spectators_complete
                    )?;
                }
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

/// The parts of a game state the load test reads.
#[derive(Deserialize)]
struct State {
    status: String,
    moves: Vec<IgnoredAny>,
    legal_moves: Vec<Legal>,
}

#[derive(Deserialize)]
struct Legal {
    notation: String,
}

#[derive(Deserialize)]
struct Grant {
    game_id: String,
    token: String,
    state: State,
}

#[derive(Deserialize)]
struct ErrorReply {
    code: String,
}

/// What one task saw of one instance, merged into the report at the end.
#[derive(Default)]
struct Counts {
    moves: u64,
    created: u64,
    latencies: Vec<u32>,
    errors: BTreeMap<String, u64>,
}

impl Counts {
    fn error(&mut self, what: impl Into<String>) {
        *self.errors.entry(what.into()).or_default() += 1;
    }
}

/// What one task saw, per instance.
struct Tally {
    /// Indexed like the URLs.
    at: Vec<Counts>,
    /// Games played to their end (a game belongs to no one instance).
    finished: u64,
}

impl Tally {
    fn new(instances: usize) -> Tally {
        Tally {
            at: (0..instances).map(|_| Counts::default()).collect(),
            finished: 0,
        }
    }
}

/// A small xorshift generator: the load test only needs varied moves, not secure ones.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

async fn create(client: &reqwest::Client, base: &str, tally: &mut Counts) -> Option<Grant> {
    let response = client
        .post(format!("{base}/api/games"))
        .json(&serde_json::json!({ "mode": "local" }))
        .send()
        .await;
    match response {
        Ok(r) if r.status().as_u16() == 201 => match r.json::<Grant>().await {
            Ok(g) => {
                tally.created += 1;
                Some(g)
            }
            Err(_) => {
                tally.error("bad_create_body");
                None
            }
        },
        Ok(r) => {
            let code = r
                .json::<ErrorReply>()
                .await
                .map(|e| e.code)
                .unwrap_or_else(|_| "unknown".into());
            tally.error(format!("create:{code}"));
            None
        }
        Err(e) => {
            tally.error(if e.is_connect() {
                "connect"
            } else {
                "transport"
            });
            None
        }
    }
}

/// Plays one move of `grant`'s game; the new state, or `None` after an error.
async fn play(
    client: &reqwest::Client,
    base: &str,
    (id, token): (&str, &str),
    state: &State,
    dice: &mut Dice,
    tally: &mut Counts,
    due: Instant,
) -> Option<State> {
    let mv = &state.legal_moves[dice.below(state.legal_moves.len())].notation;
    let body = serde_json::json!({ "move": mv, "number": state.moves.len() + 1 });
    let response = client
        .post(format!("{base}/api/games/{id}/moves"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await;
    match response {
        Ok(r) if r.status().is_success() => match r.json::<State>().await {
            Ok(s) => {
                tally
                    .latencies
                    .push(due.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                tally.moves += 1;
                Some(s)
            }
            Err(_) => {
                tally.error("bad_move_body");
                None
            }
        },
        Ok(r) => {
            let code = r
                .json::<ErrorReply>()
                .await
                .map(|e| e.code)
                .unwrap_or_else(|_| "unknown".into());
            tally.error(code);
            None
        }
        Err(e) => {
            tally.error(if e.is_connect() {
                "connect"
            } else {
                "transport"
            });
            None
        }
    }
}

/// Plays games one after another until `deadline`; the first game is created on instance
/// `first`, each later one on the next instance, and every request goes to the instance after
/// the one that took the request before it. With `every`, a move is due every `every` (the
/// first after a part of it that differs from player to player).
async fn player(
    client: reqwest::Client,
    bases: Arc<[String]>,
    deadline: Instant,
    seed: u64,
    first: usize,
    every: Option<Duration>,
) -> Tally {
    let n = bases.len();
    let mut tally = Tally::new(n);
    let mut dice = Dice(seed | 1);
    let mut home = first % n;
    let mut due = every.map(|e| Instant::now() + e.mul_f64(dice.below(1000) as f64 / 1000.0));
    while Instant::now() < deadline {
        let created = create(&client, &bases[home], &mut tally.at[home]).await;
        let mut at = home;
        home = (home + 1) % n;
        let Some(Grant {
            game_id,
            token,
            mut state,
        }) = created
        else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if let Some(due) = &mut due {
            // Creating a game is no move: its first move is due once it exists at the earliest.
            *due = (*due).max(Instant::now());
        }
        while Instant::now() < deadline
            && state.status == "playing"
            && !state.legal_moves.is_empty()
        {
            at = (at + 1) % n;
            let now = match (&mut due, every) {
                (Some(due), Some(every)) => {
                    tokio::time::sleep_until((*due).into()).await;
                    let now = *due;
                    *due += every;
                    now
                }
                _ => Instant::now(),
            };
            match play(
                &client,
                &bases[at],
                (&game_id, &token),
                &state,
                &mut dice,
                &mut tally.at[at],
                now,
            )
            .await
            {
                Some(next) => state = next,
                None => break,
            }
        }
        if state.status == "finished" {
            tally.finished += 1;
        }
    }
    tally
}

/// What one spectator saw.
struct Watch {
    complete: bool,
    delivery: Vec<u32>,
}

/// The parts of a WebSocket message a spectator reads (the state is skipped unparsed).
#[derive(Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    #[serde(rename = "move")]
    mv: Option<Numbered>,
    after: Option<u64>,
    moves: Option<Vec<IgnoredAny>>,
    state: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct Numbered {
    number: u64,
}

/// A spectator: says hello, then checks that move numbers arrive 1, 2, 3, … until the game ends.
async fn spectator(ws_url: String, sent: Arc<Mutex<Vec<Instant>>>, stop: Instant) -> Option<Watch> {
    // A small read buffer: tungstenite zero-fills it on every read.
    let config = WebSocketConfig::default().read_buffer_size(32 * 1024);
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(ws_url.as_str(), Some(config), true)
            .await
            .ok()?;
    socket
        .send(Message::text(r#"{"type":"hello","since":0,"epoch":0}"#))
        .await
        .ok()?;
    let mut have = 0u64;
    let mut ok = true;
    let mut delivery = Vec::new();
    let mut ended = false;
    while !ended {
        let left = stop.saturating_duration_since(Instant::now());
        let Ok(Some(Ok(msg))) = tokio::time::timeout(left, socket.next()).await else {
            break;
        };
        let Message::Text(text) = msg else { continue };
        let Ok(event) = serde_json::from_str::<Event>(text.as_str()) else {
            ok = false;
            continue;
        };
        let _ = event.state;
        match event.kind.as_str() {
            "sync" => {
                let after = event.after.unwrap_or(0);
                if after != have {
                    ok = false;
                }
                have = after + event.moves.map_or(0, |m| m.len() as u64);
            }
            "move" => {
                let number = event.mv.map_or(0, |m| m.number);
                if number != have + 1 {
                    ok = false;
                }
                have = number;
                let index = (number as usize).checked_sub(1);
                let at = index.and_then(|i| sent.lock().ok().and_then(|s| s.get(i).copied()));
                if let Some(at) = at {
                    delivery.push(at.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                }
            }
            "end" => ended = true,
            _ => {}
        }
    }
    let total = sent.lock().map(|s| s.len() as u64).unwrap_or(0);
    let _ = socket.close(None).await;
    Some(Watch {
        complete: ok && ended && have == total,
        delivery,
    })
}

/// Adds one task's tally to the report: the totals and each instance's counts. The watched
/// game's moves are not part of the load, so only its creation and its failures (named
/// `watched:CODE`) are counted.
fn merge(report: &mut Report, tally: Tally, watched: bool) {
    let prefix = if watched { "watched:" } else { "" };
    for (counts, instance) in tally.at.into_iter().zip(&mut report.instances) {
        report.games_created += counts.created;
        instance.games_created += counts.created;
        for (code, n) in counts.errors {
            instance.errors += n;
            *report.errors.entry(format!("{prefix}{code}")).or_default() += n;
        }
        if !watched {
            report.moves += counts.moves;
            instance.moves += counts.moves;
            report.latencies_us.extend_from_slice(&counts.latencies);
            instance.latencies_us.extend(counts.latencies);
        }
    }
    if !watched {
        report.games_finished += tally.finished;
    }
}

/// Runs the load test.
pub async fn run(config: LoadtestConfig) -> Result<Report, LoadtestError> {
    let bases: Arc<[String]> = config
        .urls
        .iter()
        .map(|u| u.trim_end_matches('/').to_string())
        .collect();
    if bases.is_empty() {
        return Err(LoadtestError::Setup("no server URL given".into()));
    }
    let n = bases.len();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(config.games + 8)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| LoadtestError::Setup(e.to_string()))?;
    for base in bases.iter() {
        let health = client.get(format!("{base}/healthz")).send().await;
        if !health.as_ref().is_ok_and(|r| r.status().is_success()) {
            return Err(LoadtestError::Setup(format!(
                "no healthy Mabula server at {base}"
            )));
        }
    }

    // The watched game and its spectators connect before the load starts.
    let mut report = Report {
        games: config.games,
        rate: config.rate,
        instances: bases
            .iter()
            .map(|url| InstanceReport {
                url: url.clone(),
                ..InstanceReport::default()
            })
            .collect(),
        ..Report::default()
    };
    let mut spectator_tasks = Vec::new();
    let sent = Arc::new(Mutex::new(Vec::new()));
    let mut watched = None;
    let hard_stop = Instant::now() + config.duration + Duration::from_secs(30);
    if config.spectators > 0 {
        let mut tally = Tally::new(n);
        let grant = create(&client, &bases[0], &mut tally.at[0])
            .await
            .ok_or_else(|| LoadtestError::Setup("cannot create the watched game".into()))?;
        merge(&mut report, tally, true);
        let ws_urls: Vec<String> = bases
            .iter()
            .map(|base| {
                let ws_base = base
                    .replacen("http://", "ws://", 1)
                    .replacen("https://", "wss://", 1);
                format!("{ws_base}/api/games/{}/ws", grant.game_id)
            })
            .collect();
        // Spectator k watches through instance k mod n; they connect in batches of 100.
        for k in 0..config.spectators {
            let at = k % n;
            spectator_tasks.push((
                at,
                tokio::spawn(spectator(ws_urls[at].clone(), sent.clone(), hard_stop)),
            ));
            if k % 100 == 99 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        // Give the spectators a moment to say hello.
        tokio::time::sleep(Duration::from_millis(500)).await;
        watched = Some(grant);
    }

    let started = Instant::now();
    let deadline = started + config.duration;
    let players: Vec<_> = (0..config.games)
        .map(|i| {
            tokio::spawn(player(
                client.clone(),
                bases.clone(),
                deadline,
                0x9e37_79b9 + i as u64 * 7919,
                i,
                config
                    .rate
                    .map(|r| Duration::from_secs_f64(config.games as f64 / r.max(0.001))),
            ))
        })
        .collect();

    // Rated games and flag probes, under names of their own for this run.
    let prefix = format!("lt{:06x}", rand::random::<u32>() & 0xff_ffff);
    let rated: Vec<_> = (0..config.rated)
        .map(|i| {
            tokio::spawn(rated::rated_player(
                client.clone(),
                bases.clone(),
                deadline,
                i,
                prefix.clone(),
            ))
        })
        .collect();
    let probes: Vec<_> = (0..config.flags)
        .map(|i| {
            tokio::spawn(rated::flag_probe(
                client.clone(),
                bases.clone(),
                i,
                prefix.clone(),
            ))
        })
        .collect();

    // The watched game is played at its own pace, to its end, its moves going round the
    // instances like the players' moves (it was created on the first one).
    let watched_driver = watched.map(|grant| {
        let (client, bases, sent) = (client.clone(), bases.clone(), sent.clone());
        let pause = Duration::from_secs_f64(1.0 / config.watched_rate.max(0.1));
        tokio::spawn(async move {
            let mut tally = Tally::new(n);
            let mut dice = Dice(12345);
            let Grant {
                game_id,
                token,
                mut state,
            } = grant;
            let mut at = 0;
            while state.status == "playing" && Instant::now() < hard_stop {
                tokio::time::sleep(pause).await;
                at = (at + 1) % n;
                if let Ok(mut s) = sent.lock() {
                    s.push(Instant::now());
                }
                match play(
                    &client,
                    &bases[at],
                    (&game_id, &token),
                    &state,
                    &mut dice,
                    &mut tally.at[at],
                    Instant::now(),
                )
                .await
                {
                    Some(next) => state = next,
                    None => {
                        if let Ok(mut s) = sent.lock() {
                            s.pop();
                        }
                        break;
                    }
                }
            }
            tally
        })
    });

    for p in players {
        if let Ok(t) = p.await {
            merge(&mut report, t, false);
        }
    }
    report.rated_pairs = config.rated;
    for r in rated {
        if let Ok(t) = r.await {
            report.rated_games.1 += t.finished;
            for (counts, instance) in t.at.into_iter().zip(&mut report.instances) {
                report.rated_games.0 += counts.created;
                report.rated_moves += counts.moves;
                report.rated_latencies_us.extend(counts.latencies);
                for (code, n) in counts.errors {
                    instance.errors += n;
                    *report.errors.entry(code).or_default() += n;
                }
            }
        }
    }
    report.elapsed = started.elapsed();
    for p in probes {
        match p.await {
            Ok(probe) => {
                if let Some(ms) = probe.late_ms {
                    report.flag_late_ms.push(ms);
                }
                report.flag_failures.extend(probe.error);
            }
            Err(e) => report.flag_failures.push(e.to_string()),
        }
    }
    report.flag_late_ms.sort_unstable();
    report.rated_latencies_us.sort_unstable();
    if let Some(driver) = watched_driver
        && let Ok(t) = driver.await
    {
        merge(&mut report, t, true);
    }
    report.watched_moves = sent.lock().map(|s| s.len() as u32).unwrap_or(0);
    for (at, task) in spectator_tasks {
        let instance = &mut report.instances[at];
        match task.await.ok().flatten() {
            Some(w) => {
                report.spectators += 1;
                instance.spectators += 1;
                if w.complete {
                    report.spectators_complete += 1;
                    instance.spectators_complete += 1;
                } else {
                    report.spectators_incomplete += 1;
                }
                report.delivery_us.extend(w.delivery);
            }
            None => {
                instance.errors += 1;
                *report.errors.entry("spectator_connect".into()).or_default() += 1;
            }
        }
    }
    report.latencies_us.sort_unstable();
    report.delivery_us.sort_unstable();
    for instance in &mut report.instances {
        instance.latencies_us.sort_unstable();
    }
    Ok(report)
}
