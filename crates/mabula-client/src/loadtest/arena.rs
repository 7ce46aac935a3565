//! `mabula loadtest --arena N`: N fresh accounts play one arena tournament as fast as the server
//! answers, to measure moves per second and the pairing latency of an arena (issue 37).
//!
//! The first account creates an unrated arena (largest group, the clock [`CLOCK`]) through
//! `POST /api/tournaments`, lasting `--seconds` rounded up to whole minutes but at least the
//! server's shortest arena ([`MIN_MINUTES`]); every account joins it, and the creator starts it.
//! The players play for `--seconds` (or until the arena finishes first), then all withdraw, so
//! that a longer arena stops pairing them. One WebSocket on the tournament's live channel (`/api/tournaments/{id}/ws`)
//! hears every change; each new game it shows is played by a task of its own with random legal
//! moves, each side's move sent with that player's session, the requests going round the
//! instances. The pairing latency of a player is the time from the answer to the move that
//! ended their game to the first state of the tournament that shows their next game (the live
//! channel gathers changes for 100 ms before it sends a state, so this includes up to that).

use super::accounts::{Session, post, sign_up};
use super::{Dice, Legal, percentile};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio_tungstenite::tungstenite::Message;

/// The arena's clock: initial seconds and increment. Random movers play fast, so a short clock
/// keeps a stuck game from holding its players long.
const CLOCK: (u32, u32) = (60, 0);

/// The shortest arena the server accepts, in minutes.
const MIN_MINUTES: u64 = 10;

/// What to run.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The base URL of each instance (at least one).
    pub urls: Vec<String>,
    /// Accounts playing in the arena.
    pub players: usize,
    /// How long to play (the arena itself lasts at least [`MIN_MINUTES`]).
    pub duration: Duration,
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct ArenaReport {
    /// Players who joined.
    pub players: usize,
    /// The tournament's id.
    pub tournament: String,
    /// Whether the tournament was seen to finish.
    pub finished: bool,
    /// Wall time from the start to the end of the run.
    pub elapsed: Duration,
    /// Moves accepted by the server.
    pub moves: u64,
    /// Latency of accepted moves, microseconds, sorted.
    pub move_latencies_us: Vec<u32>,
    /// Games seen to begin, and played to their end.
    pub games: (u64, u64),
    /// Pairing latency (a game's end to the player's next game), microseconds, sorted.
    pub pairing_us: Vec<u32>,
    /// Failed requests by what failed.
    pub errors: BTreeMap<String, u64>,
}

impl ArenaReport {
    /// Accepted moves per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for ArenaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "arena             {} players, tournament {} ({})",
            self.players,
            self.tournament,
            if self.finished {
                "finished"
            } else {
                "not seen to finish"
            }
        )?;
        super::write_moves(f, self.elapsed, self.moves, &self.move_latencies_us)?;
        writeln!(
            f,
            "games             {} begun, {} finished",
            self.games.0, self.games.1
        )?;
        writeln!(
            f,
            "pairing latency   median {:.1} ms, p90 {:.1} ms, max {:.1} ms over {} pairings",
            percentile(&self.pairing_us, 0.5),
            percentile(&self.pairing_us, 0.9),
            percentile(&self.pairing_us, 1.0),
            self.pairing_us.len()
        )?;
        super::write_errors(f, &self.errors)
    }
}

/// The parts of the tournament's live state the load test reads.
#[derive(Deserialize)]
struct Live {
    #[serde(rename = "type")]
    kind: String,
    tournament: Option<View>,
}

#[derive(Deserialize)]
struct View {
    status: String,
    rounds: Vec<RoundView>,
}

#[derive(Deserialize)]
struct RoundView {
    pairings: Vec<PairingView>,
}

#[derive(Deserialize)]
struct PairingView {
    games: Vec<GameView>,
}

#[derive(Deserialize)]
struct GameView {
    id: String,
    white: String,
    black: String,
    result: String,
}

#[derive(Deserialize)]
struct Created {
    id: String,
}

/// The parts of a game state a player reads.
#[derive(Deserialize)]
struct State {
    status: String,
    to_move: Option<String>,
    moves: Vec<serde::de::IgnoredAny>,
    legal_moves: Vec<Legal>,
}

/// Who plays which game, to time the pairings; shared by the listener and the game tasks.
#[derive(Default)]
struct Book {
    /// Each player's latest game, as the listener saw it begin.
    current: HashMap<String, String>,
    /// When each player's latest game ended, until their next one is seen.
    ended: HashMap<String, Instant>,
    /// Pairing latencies, microseconds.
    pairing_us: Vec<u32>,
    moves: u64,
    move_latencies_us: Vec<u32>,
    finished: u64,
    errors: BTreeMap<String, u64>,
}

impl Book {
    fn error(&mut self, what: impl Into<String>) {
        *self.errors.entry(what.into()).or_default() += 1;
    }

    /// The listener saw `game` begin for `player`.
    fn began(&mut self, player: &str, game: &str) {
        if let Some(end) = self.ended.remove(player) {
            self.pairing_us.push(micros(end.elapsed()));
        }
        self.current.insert(player.to_owned(), game.to_owned());
    }

    /// `player`'s game `game` ended now (if the listener already saw their next game, the
    /// pairing came before the answer to the last move: it counts 0).
    fn ended(&mut self, player: &str, game: &str) {
        if self.current.get(player).is_some_and(|g| g == game) {
            self.ended.insert(player.to_owned(), Instant::now());
        } else {
            self.pairing_us.push(0);
        }
    }
}

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u128::from(u32::MAX)) as u32
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn setup(e: impl fmt::Display) -> super::LoadtestError {
    super::LoadtestError::Setup(e.to_string())
}

/// Runs the arena load test.
pub async fn run(config: ArenaConfig) -> Result<ArenaReport, super::LoadtestError> {
    let bases: Arc<[String]> = config
        .urls
        .iter()
        .map(|u| u.trim_end_matches('/').to_string())
        .collect();
    if bases.is_empty() {
        return Err(setup("no server URL given"));
    }
    if config.players < 2 {
        return Err(setup("an arena needs at least two players"));
    }
    let n = bases.len();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(config.players + 8)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(setup)?;

    // The accounts, signed up on the instances in turn, a few at a time.
    let prefix = format!("ar{:06x}", rand::random::<u32>() & 0xff_ffff);
    let mut sessions: Vec<(String, Session)> = Vec::with_capacity(config.players);
    for chunk in (0..config.players).collect::<Vec<_>>().chunks(16) {
        let signups = chunk.iter().map(|&i| {
            let client = client.clone();
            let base = bases[i % n].clone();
            let name = format!("{prefix}p{i}");
            async move {
                let session = sign_up(&client, &base, &name).await;
                (name, session)
            }
        });
        for (name, session) in futures_util::future::join_all(signups).await {
            sessions.push((name, session.map_err(setup)?));
        }
    }
    let by_name: Arc<HashMap<String, Session>> = Arc::new(sessions.iter().cloned().collect());

    // The arena: created and started by the first account, joined by everyone.
    let minutes = config
        .duration
        .as_secs()
        .div_ceil(60)
        .clamp(MIN_MINUTES, 720);
    let body = json!({
        "name": format!("Load test {prefix}"),
        "format": "arena",
        "scoring": "largest",
        "clock": {"initial_s": CLOCK.0, "increment_s": CLOCK.1},
        "minutes": minutes,
        "duplicate": false,
        "rated": false,
        "starts_at": now_ms() + 10 * 60_000,
    });
    let creator = &sessions[0].1;
    let r = post(
        &client,
        format!("{}/api/tournaments", bases[0]),
        creator,
        body,
    )
    .await
    .map_err(setup)?;
    if r.status().as_u16() != 201 {
        return Err(setup(format!(
            "creating the arena answered {}: {}",
            r.status(),
            r.text().await.unwrap_or_default()
        )));
    }
    let id = r.json::<Created>().await.map_err(setup)?.id;
    for (i, (name, session)) in sessions.iter().enumerate() {
        let url = format!("{}/api/tournaments/{id}/join", bases[i % n]);
        let r = post(&client, url, session, json!({}))
            .await
            .map_err(setup)?;
        if !r.status().is_success() {
            return Err(setup(format!("{name} cannot join: {}", r.status())));
        }
    }

    // Listen before starting, so that the first games are seen.
    let ws_url = format!(
        "{}/api/tournaments/{id}/ws",
        bases[0]
            .replacen("http://", "ws://", 1)
            .replacen("https://", "wss://", 1)
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(&ws_url)
        .await
        .map_err(setup)?;
    let r = post(
        &client,
        format!("{}/api/tournaments/{id}/start", bases[0]),
        creator,
        json!({}),
    )
    .await
    .map_err(setup)?;
    if !r.status().is_success() {
        return Err(setup(format!("starting the arena answered {}", r.status())));
    }

    let started = Instant::now();
    let hard_stop = started + config.duration;
    let book = Arc::new(Mutex::new(Book::default()));
    let mut spawned: HashSet<String> = HashSet::new();
    let mut tasks = Vec::new();
    let mut finished = false;
    while !finished && Instant::now() < hard_stop {
        let left = hard_stop.saturating_duration_since(Instant::now());
        let msg = match tokio::time::timeout(left, socket.next()).await {
            Ok(Some(Ok(msg))) => msg,
            Ok(Some(Err(_)) | None) => {
                // The instance closed the socket: listen again.
                book.lock().map(|mut b| b.error("arena:socket")).ok();
                tokio::time::sleep(Duration::from_millis(200)).await;
                match tokio_tungstenite::connect_async(&ws_url).await {
                    Ok((s, _)) => socket = s,
                    Err(_) => break,
                }
                continue;
            }
            Err(_) => break,
        };
        let Message::Text(text) = msg else { continue };
        let Ok(live) = serde_json::from_str::<Live>(text.as_str()) else {
            book.lock().map(|mut b| b.error("arena:bad_state")).ok();
            continue;
        };
        let Some(view) = live.tournament.filter(|_| live.kind == "state") else {
            continue;
        };
        finished = view.status == "finished";
        let new: Vec<GameView> = view
            .rounds
            .into_iter()
            .flat_map(|r| r.pairings)
            .flat_map(|p| p.games)
            .filter(|g| g.result == "*" && !spawned.contains(&g.id))
            .collect();
        for game in new {
            spawned.insert(game.id.clone());
            let (Some(white), Some(black)) = (by_name.get(&game.white), by_name.get(&game.black))
            else {
                book.lock()
                    .map(|mut b| b.error("arena:unknown_player"))
                    .ok();
                continue;
            };
            if let Ok(mut b) = book.lock() {
                b.began(&game.white, &game.id);
                b.began(&game.black, &game.id);
            }
            tasks.push(tokio::spawn(play_game(
                client.clone(),
                bases.clone(),
                game.id.clone(),
                [
                    (game.white.clone(), white.clone()),
                    (game.black.clone(), black.clone()),
                ],
                Dice(0x9e37_79b9 ^ (spawned.len() as u64 * 7919)),
                book.clone(),
                hard_stop,
            )));
        }
    }
    let _ = socket.close(None).await;
    // The game tasks stop at the same time; a move in flight gets a little longer.
    let grace = Instant::now().max(hard_stop) + Duration::from_secs(5);
    for task in tasks {
        let _ = tokio::time::timeout(grace.saturating_duration_since(Instant::now()), task).await;
    }
    let elapsed = started.elapsed();
    // Leave the arena, which may last longer than the run.
    if !finished {
        for (i, (_, session)) in sessions.iter().enumerate() {
            let url = format!("{}/api/tournaments/{id}/withdraw", bases[i % n]);
            let _ = post(&client, url, session, json!({})).await;
        }
    }
    let mut b = book.lock().map_err(|_| setup("a game task panicked"))?;
    let mut report = ArenaReport {
        players: config.players,
        tournament: id,
        finished,
        elapsed,
        moves: b.moves,
        move_latencies_us: std::mem::take(&mut b.move_latencies_us),
        games: (spawned.len() as u64, b.finished),
        pairing_us: std::mem::take(&mut b.pairing_us),
        errors: std::mem::take(&mut b.errors),
    };
    report.move_latencies_us.sort_unstable();
    report.pairing_us.sort_unstable();
    Ok(report)
}

/// Plays game `id` to its end with random legal moves, each side with its own session
/// (`players`: White's name and session, then Black's), the requests going round the
/// instances; then tells the book that both players are free.
async fn play_game(
    client: reqwest::Client,
    bases: Arc<[String]>,
    id: String,
    players: [(String, Session); 2],
    mut dice: Dice,
    book: Arc<Mutex<Book>>,
    stop: Instant,
) {
    let n = bases.len();
    let mut at = dice.below(n);
    let mut state = None;
    // The game exists once the tournament shows it; a few tries cover a slow replica.
    for _ in 0..20 {
        if let Ok(r) = client
            .get(format!("{}/api/games/{id}", bases[at]))
            .send()
            .await
            && let Ok(s) = r.json::<State>().await
        {
            state = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let Some(mut state) = state else {
        book.lock().map(|mut b| b.error("arena:game_state")).ok();
        return;
    };
    while state.status == "playing" && !state.legal_moves.is_empty() && Instant::now() < stop {
        at = (at + 1) % n;
        let who = match state.to_move.as_deref() {
            Some("black") => &players[1].1,
            _ => &players[0].1,
        };
        let mv = &state.legal_moves[dice.below(state.legal_moves.len())].notation;
        let body = json!({ "move": mv, "number": state.moves.len() + 1 });
        let sent = Instant::now();
        let url = format!("{}/api/games/{id}/moves", bases[at]);
        match post(&client, url, who, body).await {
            Ok(r) if r.status().is_success() => match r.json::<State>().await {
                Ok(next) => {
                    if let Ok(mut b) = book.lock() {
                        b.moves += 1;
                        b.move_latencies_us.push(micros(sent.elapsed()));
                    }
                    state = next;
                }
                Err(_) => {
                    book.lock().map(|mut b| b.error("arena:bad_move_body")).ok();
                    break;
                }
            },
            Ok(r) => {
                let status = r.status().as_u16();
                book.lock()
                    .map(|mut b| b.error(format!("arena:move_{status}")))
                    .ok();
                break;
            }
            Err(_) => {
                book.lock().map(|mut b| b.error("arena:transport")).ok();
                break;
            }
        }
    }
    if let Ok(mut b) = book.lock() {
        if state.status == "finished" {
            b.finished += 1;
        }
        for (name, _) in &players {
            b.ended(name, &id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairing_seen_after_the_end_is_timed_and_one_seen_before_counts_zero() {
        let mut book = Book::default();
        book.began("ann", "g1");
        book.began("ben", "g1");
        book.ended("ann", "g1");
        // Ben's next game was seen before his last move's answer came back.
        book.began("ben", "g2");
        book.ended("ben", "g1");
        assert_eq!(book.pairing_us, vec![0]);
        book.began("ann", "g3");
        assert_eq!(book.pairing_us.len(), 2);
        assert!(book.ended.is_empty());
        // A first game times nothing.
        book.began("cat", "g3");
        assert_eq!(book.pairing_us.len(), 2);
    }
}
