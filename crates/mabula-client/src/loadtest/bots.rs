//! `mabula loadtest --bots N`: N bot accounts play each other through the bot API (issue 38),
//! as `mabula bot` does, to measure moves per second and how long a move takes to reach the
//! opponent's game stream.
//!
//! Each account signs up, makes a `bot:play` token and becomes a bot. Bot `2k` challenges bot
//! `2k + 1` (unrated, largest group, the clock [`CLOCK`]), which accepts when its event stream
//! shows the challenge; each `game_start` on a bot's event stream opens that game's stream, and
//! the bot answers each state where it is to move with the move its `chooser` gives (the
//! command-line tool passes the built-in engine at a level). A challenger challenges again when a
//! game ends. The requests of each bot go to the instances in turn.
//!
//! The delivery latency of a move is the time from the moment its request was sent to the
//! moment the opponent's game stream shows it (both clocks are this process's).

use super::accounts::{Session, post, sign_up};
use super::percentile;
use crate::bot::BotClient;
use mabula::Color;
use mabula_api::bots::{BotEvent, BotGameMessage, BotGameState};
use mabula_api::lobby::{ClockRequest, SeekRequest};
use serde::Deserialize;
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The games' clock: initial seconds and increment.
const CLOCK: (u32, u32) = (120, 0);

/// Chooses a move: given the game's start (as RULES.md writes positions), its scoring and the
/// moves so far, the move to play, or `None` to resign.
pub type Chooser = Arc<dyn Fn(&str, &str, &[String]) -> Option<String> + Send + Sync>;

/// What to run.
#[derive(Clone)]
pub struct BotsConfig {
    /// The base URL of each instance (at least one).
    pub urls: Vec<String>,
    /// Bots (an even number; an odd last one sits out).
    pub bots: usize,
    /// How long to play.
    pub duration: Duration,
    /// What chooses the bots' moves.
    pub chooser: Chooser,
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct BotsReport {
    /// Bots that played.
    pub bots: usize,
    /// Wall time of the play (after the set-up).
    pub elapsed: Duration,
    /// Moves accepted by the server.
    pub moves: u64,
    /// Latency of accepted moves' requests, microseconds, sorted.
    pub move_latencies_us: Vec<u32>,
    /// A move's request sent to its arrival on the opponent's game stream, microseconds, sorted.
    pub delivery_us: Vec<u32>,
    /// Games begun, and seen to end.
    pub games: (u64, u64),
    /// Failed requests and broken streams by what failed.
    pub errors: BTreeMap<String, u64>,
}

impl BotsReport {
    /// Accepted moves per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for BotsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "bots              {}", self.bots)?;
        super::write_moves(f, self.elapsed, self.moves, &self.move_latencies_us)?;
        writeln!(
            f,
            "stream delivery   p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms over {} moves",
            percentile(&self.delivery_us, 0.5),
            percentile(&self.delivery_us, 0.9),
            percentile(&self.delivery_us, 0.99),
            percentile(&self.delivery_us, 1.0),
            self.delivery_us.len()
        )?;
        writeln!(
            f,
            "games             {} begun, {} finished",
            self.games.0, self.games.1
        )?;
        super::write_errors(f, &self.errors)
    }
}

/// What every bot's tasks write down.
#[derive(Default)]
struct Book {
    /// When each move's request was sent: (game, ply).
    sent: HashMap<(String, usize), Instant>,
    moves: u64,
    move_latencies_us: Vec<u32>,
    delivery_us: Vec<u32>,
    games: (u64, u64),
    errors: BTreeMap<String, u64>,
}

impl Book {
    fn error(&mut self, what: impl Into<String>) {
        *self.errors.entry(what.into()).or_default() += 1;
    }
}

type Shared = Arc<Mutex<Book>>;

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u128::from(u32::MAX)) as u32
}

fn setup(e: impl fmt::Display) -> super::LoadtestError {
    super::LoadtestError::Setup(e.to_string())
}

#[derive(Deserialize)]
struct TokenCreated {
    token: String,
}

/// A new bot on `base`: signed up, with a `bot:play` token, made a bot.
async fn new_bot(client: &reqwest::Client, base: &str, name: &str) -> Result<String, String> {
    let session: Session = sign_up(client, base, name).await?;
    let body = json!({"description": "load test", "scopes": ["bot:play"]});
    let r = post(client, format!("{base}/api/account/tokens"), &session, body).await?;
    if r.status().as_u16() != 201 {
        return Err(format!("token of {name}: {}", r.status()));
    }
    let token = r
        .json::<TokenCreated>()
        .await
        .map_err(|e| e.to_string())?
        .token;
    let r = client
        .post(format!("{base}/api/bot/account/upgrade"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !r.status().is_success() {
        return Err(format!("upgrade of {name}: {}", r.status()));
    }
    Ok(token)
}

/// One bot: its clients (one an instance), its name and its opponent when it challenges.
#[derive(Clone)]
struct Bot {
    clients: Arc<[BotClient]>,
    opponent: Option<String>,
}

impl Bot {
    /// The client of the `i`-th request.
    fn on(&self, i: usize) -> &BotClient {
        &self.clients[i % self.clients.len()]
    }

    async fn challenge(&self, i: usize, book: &Shared) {
        let Some(to) = &self.opponent else { return };
        let request = SeekRequest {
            scoring: "largest".into(),
            rated: false,
            clock: Some(ClockRequest {
                initial_s: CLOCK.0,
                increment_s: CLOCK.1,
            }),
            days: None,
            color: None,
            rating_min: None,
            rating_max: None,
            to: Some(to.clone()),
            bots: None,
        };
        if let Err(e) = self.on(i).seek(&request).await {
            book.lock().expect("book").error(format!("challenge: {e}"));
        }
    }
}

/// A bot's event stream, until `stop`: accepts challenges, plays the games that begin, and
/// challenges again when a game ends.
async fn events(bot: Bot, chooser: Chooser, book: Shared, stop: Instant) {
    let mut i = 0;
    bot.challenge(i, &book).await;
    while Instant::now() < stop {
        i += 1;
        let mut stream = match bot.on(i).events().await {
            Ok(s) => s,
            Err(e) => {
                book.lock()
                    .expect("book")
                    .error(format!("event stream: {e}"));
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        loop {
            let left = stop.saturating_duration_since(Instant::now());
            let event = match tokio::time::timeout(left, stream.next()).await {
                Err(_) => return,
                Ok(Ok(Some(e))) => e,
                Ok(Ok(None)) => break,
                Ok(Err(e)) => {
                    book.lock()
                        .expect("book")
                        .error(format!("event stream: {e}"));
                    break;
                }
            };
            i += 1;
            match event {
                BotEvent::Challenge { challenge } => {
                    if let Err(e) = bot.on(i).accept(&challenge.id).await {
                        book.lock().expect("book").error(format!("accept: {e}"));
                    }
                }
                BotEvent::GameStart { game } => {
                    book.lock().expect("book").games.0 += 1;
                    let client = bot.on(i).clone();
                    let (chooser, book) = (chooser.clone(), book.clone());
                    let me = game.color;
                    tokio::spawn(play(client, game.id, me, chooser, book, stop));
                }
                BotEvent::GameFinish { .. } => {
                    book.lock().expect("book").games.1 += 1;
                    bot.challenge(i, &book).await;
                }
                _ => {}
            }
        }
    }
}

/// Plays game `id` as `me` through its stream until it ends or `stop`.
async fn play(
    client: BotClient,
    id: String,
    me: Color,
    chooser: Chooser,
    book: Shared,
    stop: Instant,
) {
    let mut stream = match client.game(&id).await {
        Ok(s) => s,
        Err(e) => {
            book.lock()
                .expect("book")
                .error(format!("game stream: {e}"));
            return;
        }
    };
    let (mut start, mut scoring) = (String::new(), String::new());
    let mut seen = 0;
    loop {
        let left = stop.saturating_duration_since(Instant::now());
        let state: BotGameState = match tokio::time::timeout(left, stream.next()).await {
            Err(_) => return,
            Ok(Ok(Some(BotGameMessage::GameFull {
                start: s,
                scoring: sc,
                state,
                ..
            }))) => {
                (start, scoring) = (s, sc);
                state
            }
            Ok(Ok(Some(BotGameMessage::GameState(state)))) => state,
            Ok(Ok(Some(BotGameMessage::ChatLine { .. }))) => continue,
            Ok(Ok(None)) => return,
            Ok(Err(e)) => {
                book.lock()
                    .expect("book")
                    .error(format!("game stream: {e}"));
                return;
            }
        };
        let arrived = Instant::now();
        // Each move of the opponent's that this state shows for the first time.
        {
            let mut b = book.lock().expect("book");
            let theirs = |ply: usize| ply.is_multiple_of(2) != (me == Color::White);
            for ply in (seen..state.moves.len()).filter(|&p| theirs(p)) {
                if let Some(sent) = b.sent.remove(&(id.clone(), ply)) {
                    b.delivery_us.push(micros(arrived - sent));
                }
            }
        }
        seen = seen.max(state.moves.len());
        let white_to_move = state.moves.len().is_multiple_of(2);
        let mine = (me == Color::White) == white_to_move;
        if state.status != "started" || !mine {
            if state.status != "started" {
                return;
            }
            continue;
        }
        let (s, sc, moves) = (start.clone(), scoring.clone(), state.moves.clone());
        let chooser = chooser.clone();
        let choice = tokio::task::spawn_blocking(move || chooser(&s, &sc, &moves))
            .await
            .ok()
            .flatten();
        let ply = state.moves.len();
        let Some(mv) = choice else {
            let _ = client.resign(&id).await;
            return;
        };
        let sent = Instant::now();
        book.lock()
            .expect("book")
            .sent
            .insert((id.clone(), ply), sent);
        match client.play(&id, &mv).await {
            Ok(_) => {
                let mut b = book.lock().expect("book");
                b.moves += 1;
                b.move_latencies_us.push(micros(sent.elapsed()));
            }
            Err(e) => book.lock().expect("book").error(format!("move: {e}")),
        }
    }
}

/// Runs the bots' load test.
pub async fn run(config: BotsConfig) -> Result<BotsReport, super::LoadtestError> {
    let bases: Vec<String> = config
        .urls
        .iter()
        .map(|u| u.trim_end_matches('/').to_string())
        .collect();
    if bases.is_empty() {
        return Err(setup("no server URL given"));
    }
    let pairs = config.bots / 2;
    if pairs == 0 {
        return Err(setup("the bots' load test needs at least two bots"));
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(setup)?;
    let prefix = format!("bt{:06x}", rand::random::<u32>() & 0xff_ffff);
    let name = |i: usize| format!("{prefix}b{i}");
    let mut bots = Vec::with_capacity(2 * pairs);
    for i in 0..2 * pairs {
        let token = new_bot(&client, &bases[i % bases.len()], &name(i))
            .await
            .map_err(setup)?;
        // Each bot starts on another instance, so its streams and moves cross between them.
        let clients: Arc<[BotClient]> = (0..bases.len())
            .map(|k| BotClient::new(&bases[(i + k) % bases.len()], &token))
            .collect();
        let opponent = i.is_multiple_of(2).then(|| name(i + 1));
        bots.push(Bot { clients, opponent });
    }
    let book: Shared = Arc::new(Mutex::new(Book::default()));
    let began = Instant::now();
    let stop = began + config.duration;
    // A challenge made before its bot's stream opens is among the stream's first lines.
    let mut tasks = Vec::new();
    for bot in &bots {
        let (bot, chooser, book) = (bot.clone(), config.chooser.clone(), book.clone());
        tasks.push(tokio::spawn(events(bot, chooser, book, stop)));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = began.elapsed();
    let mut b = std::mem::take(&mut *book.lock().expect("book"));
    b.move_latencies_us.sort_unstable();
    b.delivery_us.sort_unstable();
    Ok(BotsReport {
        bots: 2 * pairs,
        elapsed,
        moves: b.moves,
        move_latencies_us: b.move_latencies_us,
        delivery_us: b.delivery_us,
        games: b.games,
        errors: b.errors,
    })
}
