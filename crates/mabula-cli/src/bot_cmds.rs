//! `mabula bot`: the bridge between a Mabula server's bot API (issue 38) and an engine, like
//! lichess-bot. It reads the account's event stream, accepts the challenges its options allow
//! and declines the others, opens seeks if asked, and plays each game on its own game stream with
//! its own engine: an external program speaking the engine protocol (RULES.md section 7), one
//! process per game, or the built-in engine at a level. An engine that refuses, plays an illegal
//! move or says nothing in its time loses that game by resigning; the others go on. Streams that
//! break are reopened with backoff (the event stream's first lines give the current games). On
//! Ctrl-C it stops accepting games and finishes (or with `--resign-on-exit`, resigns) the running
//! ones; a second Ctrl-C resigns them.

use anyhow::Context;
use mabula::{Color, Move, Position, Scoring};
use mabula_api::bots::{BotEvent, BotGameMessage, BotGameRef, BotGameState};
use mabula_api::clock::TimeControl;
use mabula_api::lobby::{ClockRequest, SeekRequest, SeekView};
use mabula_client::bot::BotClient;
use mabula_client::client::ClientError;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tracing::{info, warn};

/// The bot command.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Play on a Mabula server as a bot account, with an engine (docs/cli.md): accepts the
    /// challenges its options allow, declines the rest, opens seeks if asked, plays each game
    /// on the game's clock, reconnects after failures; Ctrl-C stops it cleanly.
    Bot(BotArgs),
}

/// Which games to accept by rating.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Rated {
    /// Rated games only.
    Yes,
    /// Casual games only.
    No,
    /// Both.
    Both,
}

/// The options of `mabula bot`.
#[derive(clap::Args, Clone, Debug)]
pub struct BotArgs {
    /// The server, for example https://mabula.example.
    #[arg(long)]
    pub server: String,
    /// A personal token of a bot account with the scope bot:play (or $MABULA_BOT_TOKEN).
    #[arg(long, env = "MABULA_BOT_TOKEN", hide_env_values = true)]
    pub token: String,
    /// An engine speaking the engine protocol (RULES.md section 7), run by `sh -c`, one process
    /// per game: for example "mabula gtp".
    #[arg(long, required_unless_present = "level", conflicts_with = "level")]
    pub engine: Option<String>,
    /// The built-in engine at this level (1 to 10) instead of --engine.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: Option<u8>,
    /// The scoring modes it accepts; the first is its seeks' mode.
    #[arg(long, value_delimiter = ',', default_value = "largest,product")]
    pub scoring: Vec<String>,
    /// The least initial time (seconds) of a clock it accepts.
    #[arg(long, default_value_t = 15)]
    pub clock_min: u32,
    /// The greatest initial time (seconds) of a clock it accepts.
    #[arg(long, default_value_t = 10800)]
    pub clock_max: u32,
    /// Accept correspondence games (days per move) too.
    #[arg(long)]
    pub correspondence: bool,
    /// Rated games, casual games, or both (its seeks are rated unless `no`).
    #[arg(long, value_enum, default_value_t = Rated::Both)]
    pub rated: Rated,
    /// At most this many games at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Keep a seek open at this clock (`3+2`: minutes + seconds a move), repeatable.
    #[arg(long)]
    pub seek: Vec<String>,
    /// On Ctrl-C, resign the running games rather than finish them.
    #[arg(long)]
    pub resign_on_exit: bool,
    /// How long (ms) an engine may take beyond its time before it is taken for hung; without a
    /// clock, its thinking time per move.
    #[arg(long, default_value_t = 5000)]
    pub engine_grace_ms: u64,
}

/// Runs the command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    let Command::Bot(args) = cmd;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,mabula=info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .try_init();
    let options = Options::new(args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bridge(options))
}

/// The options, checked.
struct Options {
    args: BotArgs,
    scoring: Vec<Scoring>,
    seeks: Vec<ClockRequest>,
}

impl Options {
    fn new(args: BotArgs) -> anyhow::Result<Options> {
        let scoring = args
            .scoring
            .iter()
            .map(|s| {
                s.trim()
                    .parse::<Scoring>()
                    .map_err(|e| anyhow::anyhow!("--scoring {s}: {e}"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        anyhow::ensure!(!scoring.is_empty(), "--scoring needs a mode");
        anyhow::ensure!(args.concurrency >= 1, "--concurrency is at least 1");
        anyhow::ensure!(
            args.clock_min <= args.clock_max,
            "--clock-min is more than --clock-max"
        );
        let seeks = args
            .seek
            .iter()
            .map(|s| parse_clock(s).with_context(|| format!("--seek {s}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Options {
            args,
            scoring,
            seeks,
        })
    }

    /// Why a challenge is declined, or `None` to accept it.
    fn refusal(&self, c: &SeekView, games: usize) -> Option<String> {
        let scoring = c.scoring.parse::<Scoring>().ok();
        if scoring.is_none_or(|s| !self.scoring.contains(&s)) {
            return Some(format!("scoring {} is not played", c.scoring));
        }
        match (self.args.rated, c.rated) {
            (Rated::Yes, false) => return Some("casual games are not played".into()),
            (Rated::No, true) => return Some("rated games are not played".into()),
            _ => {}
        }
        match c.control {
            TimeControl::Clock { initial_s, .. } => {
                if initial_s < self.args.clock_min || initial_s > self.args.clock_max {
                    return Some(format!(
                        "clock {} ({initial_s} s) is outside {} to {} s",
                        c.label, self.args.clock_min, self.args.clock_max
                    ));
                }
            }
            TimeControl::Days { .. } if !self.args.correspondence => {
                return Some("correspondence games are not played".into());
            }
            TimeControl::Days { .. } => {}
        }
        if games >= self.args.concurrency {
            return Some(format!("already {games} game(s) at once"));
        }
        None
    }
}

/// `3+2`: minutes (fractions allowed) + seconds a move.
fn parse_clock(s: &str) -> anyhow::Result<ClockRequest> {
    let (minutes, increment) = s.split_once('+').unwrap_or((s, "0"));
    let minutes: f64 = minutes.trim().parse().context("minutes")?;
    let increment_s: u32 = increment.trim().parse().context("seconds a move")?;
    anyhow::ensure!(minutes > 0.0 && minutes <= 180.0, "0 to 180 minutes");
    Ok(ClockRequest {
        initial_s: (minutes * 60.0).round() as u32,
        increment_s,
    })
}

/// What the games share.
struct Bridge {
    options: Options,
    client: BotClient,
    /// The running games' tasks.
    games: Mutex<HashMap<String, JoinHandle<()>>>,
    /// Challenges accepted whose game has not started yet (their game ids).
    accepted: Mutex<HashSet<String>>,
    /// Set to resign every running game.
    resign: watch::Sender<bool>,
}

impl Bridge {
    /// The games running or about to start.
    fn busy(&self) -> usize {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.retain(|_, h| !h.is_finished());
        let accepted = self.accepted.lock().unwrap_or_else(|e| e.into_inner());
        games.len()
            + accepted
                .iter()
                .filter(|id| !games.contains_key(*id))
                .count()
    }
}

/// Doubling waits, from 0.5 s to 30 s, reset after a success.
struct Backoff(Duration);

impl Backoff {
    fn new() -> Backoff {
        Backoff(Duration::from_millis(500))
    }
    async fn wait(&mut self) {
        tokio::time::sleep(self.0).await;
        self.0 = (self.0 * 2).min(Duration::from_secs(30));
    }
    fn reset(&mut self) {
        *self = Backoff::new();
    }
}

async fn bridge(options: Options) -> anyhow::Result<()> {
    let client = BotClient::new(&options.args.server, &options.args.token);
    let engine = match (&options.args.engine, options.args.level) {
        (Some(e), _) => format!("engine {e:?}"),
        (None, Some(l)) => format!("built-in engine at level {l}"),
        (None, None) => unreachable!("clap asks for one"),
    };
    info!(
        server = client.base(),
        "mabula bot: {engine}, at most {} game(s) at once", options.args.concurrency
    );
    let (resign, _) = watch::channel(false);
    let bridge = Arc::new(Bridge {
        options,
        client,
        games: Mutex::new(HashMap::new()),
        accepted: Mutex::new(HashSet::new()),
        resign,
    });
    let mut my_seeks: Vec<Option<String>> = vec![None; bridge.options.seeks.len()];
    let mut backoff = Backoff::new();
    let mut ctrl_c = Box::pin(tokio::signal::ctrl_c());
    'connect: loop {
        let mut events = tokio::select! {
            _ = &mut ctrl_c => break 'connect,
            events = bridge.client.events() => match events {
                Ok(e) => e,
                Err(e) => {
                    if fatal(&e) {
                        anyhow::bail!("the event stream is refused: {e}");
                    }
                    warn!("the event stream could not be opened: {e}; trying again");
                    tokio::select! {
                        _ = &mut ctrl_c => break 'connect,
                        _ = backoff.wait() => continue 'connect,
                    }
                }
            },
        };
        info!("event stream open");
        let mut tick = tokio::time::interval(Duration::from_secs(10));
        loop {
            let event = tokio::select! {
                _ = &mut ctrl_c => break 'connect,
                _ = tick.tick() => {
                    keep_seeks(&bridge, &mut my_seeks).await;
                    continue;
                }
                event = events.next() => event,
            };
            match event {
                Ok(Some(event)) => {
                    backoff.reset();
                    on_event(&bridge, event).await;
                }
                Ok(None) => {
                    warn!("the server ended the event stream; reopening");
                    break;
                }
                Err(e) => {
                    warn!("the event stream broke: {e}; reopening");
                    break;
                }
            }
        }
        tokio::select! {
            _ = &mut ctrl_c => break 'connect,
            _ = backoff.wait() => {}
        }
    }
    // Stopping: no new games; the seeks are withdrawn.
    for id in my_seeks.into_iter().flatten() {
        let _ = bridge.client.decline(&id).await;
    }
    let running: Vec<(String, JoinHandle<()>)> = bridge
        .games
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .drain()
        .filter(|(_, h)| !h.is_finished())
        .collect();
    if bridge.options.args.resign_on_exit {
        info!("stopping: resigning {} running game(s)", running.len());
        let _ = bridge.resign.send(true);
    } else if !running.is_empty() {
        info!(
            "stopping: finishing {} running game(s) without accepting new ones (Ctrl-C again resigns them)",
            running.len()
        );
    }
    let all = futures_join(running.into_iter().map(|(_, h)| h).collect());
    tokio::pin!(all);
    tokio::select! {
        _ = &mut all => {}
        _ = tokio::signal::ctrl_c() => {
            info!("resigning the running games");
            let _ = bridge.resign.send(true);
            all.await;
        }
    }
    info!("stopped");
    Ok(())
}

/// Waits for every task.
async fn futures_join(handles: Vec<JoinHandle<()>>) {
    for h in handles {
        let _ = h.await;
    }
}

/// Whether an error will not go away by trying again (a token refused).
fn fatal(e: &ClientError) -> bool {
    matches!(
        e,
        ClientError::Api {
            status: 401 | 403,
            ..
        }
    )
}

async fn on_event(bridge: &Arc<Bridge>, event: BotEvent) {
    match event {
        BotEvent::Challenge { challenge } => {
            let busy = bridge.busy();
            match bridge.options.refusal(&challenge, busy) {
                Some(reason) => {
                    info!(challenge = %challenge.id, from = %challenge.name, "declining: {reason}");
                    if let Err(e) = bridge.client.decline(&challenge.id).await {
                        warn!(challenge = %challenge.id, "declining failed: {e}");
                    }
                }
                None => {
                    info!(challenge = %challenge.id, from = %challenge.name, label = %challenge.label, rated = challenge.rated, "accepting");
                    match bridge.client.accept(&challenge.id).await {
                        Ok(started) => {
                            bridge
                                .accepted
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .insert(started.game_id);
                        }
                        Err(e) => warn!(challenge = %challenge.id, "accepting failed: {e}"),
                    }
                }
            }
        }
        BotEvent::GameStart { game } => {
            bridge
                .accepted
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&game.id);
            let mut games = bridge.games.lock().unwrap_or_else(|e| e.into_inner());
            if games.get(&game.id).is_some_and(|h| !h.is_finished()) {
                return; // already played (the stream was reopened)
            }
            info!(game = %game.id, color = ?game.color, opponent = %game.opponent.name, rated = game.rated, "game starts");
            let id = game.id.clone();
            let task = tokio::spawn(play_game(bridge.clone(), game));
            games.insert(id, task);
        }
        BotEvent::GameFinish { game } => {
            info!(game = %game.id, "game finished");
        }
        BotEvent::ChallengeCanceled { id } => info!(challenge = %id, "challenge withdrawn"),
        BotEvent::ChallengeDeclined { id, by } => {
            info!(challenge = %id, by = %by, "our challenge was declined")
        }
    }
}

/// Keeps one seek open for each `--seek` while fewer games than `--concurrency` run.
async fn keep_seeks(bridge: &Arc<Bridge>, mine: &mut [Option<String>]) {
    if mine.is_empty() {
        return;
    }
    let open: HashSet<String> = match bridge.client.seeks().await {
        Ok(list) => list.seeks.into_iter().map(|s| s.id).collect(),
        Err(e) => {
            warn!("the seeks could not be read: {e}");
            return;
        }
    };
    for slot in mine.iter_mut() {
        if slot.as_ref().is_some_and(|id| !open.contains(id)) {
            *slot = None;
        }
    }
    let open_now = mine.iter().filter(|s| s.is_some()).count();
    let free = bridge
        .options
        .args
        .concurrency
        .saturating_sub(bridge.busy() + open_now);
    for (slot, clock) in mine
        .iter_mut()
        .zip(&bridge.options.seeks)
        .filter(|(s, _)| s.is_none())
        .take(free)
    {
        let request = SeekRequest {
            scoring: bridge.options.scoring[0].to_string(),
            rated: bridge.options.args.rated != Rated::No,
            clock: Some(*clock),
            days: None,
            color: None,
            rating_min: None,
            rating_max: None,
            to: None,
            bots: None,
        };
        match bridge.client.seek(&request).await {
            Ok(seek) => {
                info!(seek = %seek.id, label = %seek.label, "seek opened");
                *slot = Some(seek.id);
            }
            Err(e) => warn!("a seek could not be opened: {e}"),
        }
    }
}

/// How a game of the bridge went wrong on its engine's side.
type Failure = String;

/// One game: its stream, its engine, its moves.
async fn play_game(bridge: Arc<Bridge>, game: BotGameRef) {
    let id = game.id.clone();
    let mut resign = bridge.resign.subscribe();
    let mut brain: Option<Brain> = None;
    let mut backoff = Backoff::new();
    let mut start: Option<Position> = None;
    let mut scoring = game.scoring.parse::<Scoring>().unwrap_or_default();
    let mut clock = game.clock;
    // The number of moves after which it played its last move.
    let mut played_at: Option<usize> = None;
    let outcome: Result<String, Failure> = 'game: loop {
        if *resign.borrow() {
            break 'game Err("stopping (--resign-on-exit or a second Ctrl-C)".into());
        }
        let mut stream = match bridge.client.game(&id).await {
            Ok(s) => s,
            Err(
                e @ ClientError::Api {
                    status: 403 | 404, ..
                },
            ) => {
                warn!(game = %id, "the game's stream is refused: {e}");
                break 'game Ok("not playable".into());
            }
            Err(e) => {
                warn!(game = %id, "the game's stream could not be opened: {e}; trying again");
                tokio::select! {
                    _ = resign.changed() => continue 'game,
                    _ = backoff.wait() => continue 'game,
                }
            }
        };
        loop {
            let message = tokio::select! {
                _ = resign.changed() => continue 'game,
                m = stream.next() => m,
            };
            let state: BotGameState = match message {
                Ok(Some(BotGameMessage::GameFull {
                    start: s,
                    state,
                    scoring: sc,
                    clock: c,
                    ..
                })) => {
                    backoff.reset();
                    match s.parse::<Position>() {
                        Ok(p) => start = Some(p),
                        Err(e) => {
                            break 'game Err(format!("the start {s:?} is not a position: {e}"));
                        }
                    }
                    scoring = sc.parse().unwrap_or(scoring);
                    clock = c;
                    state
                }
                Ok(Some(BotGameMessage::GameState(state))) => state,
                Ok(Some(BotGameMessage::ChatLine { .. })) => continue,
                Ok(None) => {
                    // The stream ends with the game; else it was cut.
                    tokio::select! {
                        _ = resign.changed() => continue 'game,
                        _ = backoff.wait() => continue 'game,
                    }
                }
                Err(e) => {
                    warn!(game = %id, "the game's stream broke: {e}; reopening");
                    tokio::select! {
                        _ = resign.changed() => continue 'game,
                        _ = backoff.wait() => continue 'game,
                    }
                }
            };
            if state.status == "over" {
                break 'game Ok(format!(
                    "{}{}",
                    state.result,
                    state
                        .end_reason
                        .map(|r| format!(
                            " ({})",
                            serde_json::to_value(r)
                                .ok()
                                .and_then(|v| v.as_str().map(String::from))
                                .unwrap_or_default()
                        ))
                        .unwrap_or_default()
                ));
            }
            let Some(start) = start else { continue };
            let mut pos = start;
            let mut moves = Vec::with_capacity(state.moves.len());
            for m in &state.moves {
                match m.parse::<Move>().ok().and_then(|mv| pos.play(mv).ok()) {
                    Some(next) => {
                        pos = next;
                        moves.push(m.clone());
                    }
                    None => break 'game Err(format!("the server's move {m:?} cannot be read")),
                }
            }
            if pos.side_to_move() != game.color || played_at == Some(moves.len()) {
                continue;
            }
            if pos.legal_moves().is_empty() {
                continue;
            }
            let time = Time::of(
                &state,
                clock,
                game.color,
                bridge.options.args.engine_grace_ms,
            );
            // The engine: one per game, started at its first move.
            let engine = match brain.take() {
                Some(b) => b,
                None => match start_brain(&bridge.options.args, &id).await {
                    Ok(b) => b,
                    Err(e) => break 'game Err(e),
                },
            };
            let job = {
                let moves = moves.clone();
                tokio::task::spawn_blocking(move || {
                    let mut engine = engine;
                    let answer = engine.genmove(start, &moves, pos, scoring, time);
                    (engine, answer)
                })
            };
            let (engine, answer) = tokio::select! {
                _ = resign.changed() => continue 'game,
                j = job => match j {
                    Ok(j) => j,
                    Err(e) => break 'game Err(format!("the engine's thread failed: {e}")),
                },
            };
            brain = Some(engine);
            let mv = match answer {
                Ok(mv) => mv,
                Err(why) => break 'game Err(why),
            };
            match bridge.client.play(&id, &mv.to_string()).await {
                Ok(_) => played_at = Some(moves.len()),
                Err(e) if e.code() == "illegal_move" => {
                    break 'game Err(format!("the server refused the move {mv}: {e}"));
                }
                Err(e) if e.code() == "game_over" || e.code() == "not_your_turn" => {}
                Err(e) => {
                    warn!(game = %id, "the move {mv} could not be sent: {e}; reopening the stream");
                    tokio::select! {
                        _ = resign.changed() => continue 'game,
                        _ = backoff.wait() => continue 'game,
                    }
                }
            }
        }
    };
    match outcome {
        Ok(result) => info!(game = %id, "game over: {result}"),
        Err(why) => {
            warn!(game = %id, "resigning: {why}");
            for attempt in 0..5 {
                match bridge.client.resign(&id).await {
                    Ok(_) => break,
                    Err(e) if e.code() == "game_over" => break,
                    Err(e) if attempt == 4 => warn!(game = %id, "resigning failed: {e}"),
                    Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
                }
            }
        }
    }
    if let Some(b) = brain {
        // Quitting waits a little for the process (up to 2 s for a hung one): not on the
        // runtime's threads, and not holding the game's place for the next.
        drop(tokio::task::spawn_blocking(move || drop(b)));
    }
}

async fn start_brain(args: &BotArgs, id: &str) -> Result<Brain, Failure> {
    match (&args.engine, args.level) {
        (Some(command), _) => {
            let command = command.clone();
            let grace = Duration::from_millis(args.engine_grace_ms.max(1000));
            let started = tokio::task::spawn_blocking(move || External::start(&command, grace))
                .await
                .map_err(|e| format!("the engine's thread failed: {e}"))??;
            info!(game = %id, engine = %started.command, clocks = started.clocks, "engine started");
            Ok(Brain::External(Box::new(started)))
        }
        (None, level) => Ok(Brain::Builtin {
            level: level.unwrap_or(5),
            seed: id
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
        }),
    }
}

/// The time of a move.
#[derive(Copy, Clone, Debug)]
struct Time {
    /// The game's clock: initial and increment (seconds).
    clock: Option<(u32, u32)>,
    /// Both sides' time left (ms), white then black.
    left: Option<(i64, i64)>,
    /// A thinking time for engines without clocks.
    movetime: Duration,
    /// How long to wait for an answer before taking the engine for hung.
    limit: Duration,
}

impl Time {
    fn of(state: &BotGameState, clock: Option<TimeControl>, me: Color, grace_ms: u64) -> Time {
        let grace = Duration::from_millis(grace_ms);
        let clock = match clock {
            Some(TimeControl::Clock {
                initial_s,
                increment_s,
            }) => Some((initial_s, increment_s)),
            _ => None,
        };
        let left = state.white_ms.zip(state.black_ms);
        let mine = left.map(|(w, b)| if me == Color::White { w } else { b });
        match (clock, mine) {
            (Some((_, inc)), Some(ms)) => {
                let ms = ms.max(0) as u64;
                let budget = (ms / 30 + u64::from(inc) * 800).min(ms / 3).max(50);
                Time {
                    clock,
                    left,
                    movetime: Duration::from_millis(budget),
                    limit: Duration::from_millis(ms) + grace,
                }
            }
            _ => Time {
                clock,
                left: None,
                movetime: grace,
                limit: grace * 3,
            },
        }
    }
}

/// What chooses the moves of one game.
enum Brain {
    /// `mabula_engine::choose_move`.
    Builtin { level: u8, seed: u64 },
    /// A program.
    External(Box<External>),
}

impl Brain {
    fn genmove(
        &mut self,
        start: Position,
        moves: &[String],
        pos: Position,
        scoring: Scoring,
        time: Time,
    ) -> Result<Move, Failure> {
        match self {
            Brain::Builtin { level, seed } => {
                *seed = seed.wrapping_add(1);
                Ok(mabula_engine::choose_move(
                    &pos,
                    scoring,
                    *level,
                    Some(time.movetime),
                    *seed,
                ))
            }
            Brain::External(e) => {
                let mv = e.genmove(start, moves, scoring, time)?;
                if pos.play(mv).is_err() {
                    return Err(format!("the engine played an illegal move: {mv}"));
                }
                Ok(mv)
            }
        }
    }
}

/// An engine program, one per game; its output is read on a thread of its own so that a hung
/// engine times out.
struct External {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Whether it knows `time_settings` and `time_left`.
    clocks: bool,
    /// The start, scoring, clock and moves it was last told.
    told: Option<(Position, Scoring, Vec<String>)>,
    clock_told: bool,
}

impl External {
    fn start(command: &str, grace: Duration) -> Result<External, Failure> {
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("the engine {command:?} could not be started: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("no pipes to the engine".into());
        };
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = External {
            command: command.to_string(),
            child,
            stdin,
            lines,
            clocks: false,
            told: None,
            clock_told: false,
        };
        engine.command("protocol_version", grace)?;
        engine.clocks = engine
            .command("known_command time_settings", grace)
            .is_ok_and(|a| a == "true")
            && engine
                .command("known_command time_left", grace)
                .is_ok_and(|a| a == "true");
        Ok(engine)
    }

    /// Sends a command and waits up to `limit` for its answer's text.
    fn command(&mut self, command: &str, limit: Duration) -> Result<String, Failure> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine could not be written to ({command}): {e}"))?;
        let deadline = Instant::now() + limit;
        let mut answer = String::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "the engine gave no answer to {command:?} within {:.1} s",
                        limit.as_secs_f64()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the engine closed its output ({command})"));
                }
            };
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            if answer.is_empty() && line.starts_with('#') {
                continue;
            }
            if !answer.is_empty() {
                answer.push('\n');
            }
            answer.push_str(line);
        }
        let body = |s: &str| {
            s.trim_start_matches(|c: char| c.is_ascii_digit())
                .trim()
                .to_string()
        };
        if let Some(rest) = answer.strip_prefix('=') {
            Ok(body(rest))
        } else {
            let message = answer.strip_prefix('?').map_or(answer.clone(), body);
            Err(format!("the engine refused {command:?}: ? {message}"))
        }
    }

    fn genmove(
        &mut self,
        start: Position,
        moves: &[String],
        scoring: Scoring,
        time: Time,
    ) -> Result<Move, Failure> {
        let quick = Duration::from_secs(10);
        let fresh = match &self.told {
            Some((s, sc, told)) => {
                *s != start
                    || *sc != scoring
                    || told.len() > moves.len()
                    || moves[..told.len()] != told[..]
            }
            None => true,
        };
        if fresh {
            self.command(&format!("scoring {scoring}"), quick)?;
            self.command(&format!("setup {start}"), quick)?;
            self.told = Some((start, scoring, Vec::new()));
        }
        let told = self.told.as_ref().map_or(0, |t| t.2.len());
        for m in &moves[told..] {
            self.command(&format!("play {m}"), quick)?;
            if let Some(t) = &mut self.told {
                t.2.push(m.clone());
            }
        }
        if self.clocks
            && let (Some((initial, inc)), Some((w, b))) = (time.clock, time.left)
        {
            if !self.clock_told {
                self.command(&format!("time_settings {initial} {inc}"), quick)?;
                self.clock_told = true;
            }
            self.command(
                &format!("time_left w {:.3}", w.max(0) as f64 / 1000.0),
                quick,
            )?;
            self.command(
                &format!("time_left b {:.3}", b.max(0) as f64 / 1000.0),
                quick,
            )?;
        } else {
            self.command(&format!("movetime {}", time.movetime.as_millis()), quick)?;
        }
        let answer = self.command("genmove", time.limit)?;
        let mv: Move = answer
            .trim()
            .parse()
            .map_err(|e| format!("the engine answered {answer:?}, not a move ({e})"))?;
        // genmove plays the move in the engine.
        if let Some(t) = &mut self.told {
            t.2.push(mv.to_string());
        }
        Ok(mv)
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
