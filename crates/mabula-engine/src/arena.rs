//! Players and games between them: the library side of `mabula match`.
//!
//! A [`Player`] is anything that can be told a new game and the moves played, and asked for a
//! move: the engine at some settings ([`EnginePlayer`]), or any program speaking the engine
//! protocol ([`GtpPlayer`], over any reader and writer: the caller starts the process).
//! [`play_game`] plays one game and returns its record; [`MatchStats`] adds results up and
//! turns them into an Elo difference with a 95% interval.
//!
//! A player specification reads like `level=8,movetime=500`, `playouts=20000,threads=1`,
//! `level=10,practical=off`, `level=10-v1` (level 10 frozen as it stood before the learnt
//! evaluation, see [`LevelName`]), `level=10,eval=model` (the learnt evaluation at the leaves
//! of the tree, see [`LeafModel`]), `level=10,prior=on` (the learnt move prior on the tree's
//! expansions, see [`MovePrior`]), `level=10,value=on` (the learnt value as a head start for new
//! children, see [`ValuePrior`]),
//! `baseline-uct,movetime=1000`, `random` or `gtp:mabula gtp` (see [`PlayerSpec`]).

use crate::levels::{DEFAULT_MOVETIME, LevelName};
use crate::limits::Limits;
use crate::mcts::{LeafModel, MovePrior, ValuePrior};
use crate::rng::Rng;
use crate::search::{Engine, EngineConfig};
use mabula::{Color, Game, GameResult, Move, Position, Scoring};
use std::fmt;
use std::io::{BufRead, Write};
use std::str::FromStr;
use std::time::Duration;

/// Why a player could not go on.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// Reading from or writing to an external engine failed.
    #[error("{name}: {error}")]
    Io {
        /// The player.
        name: String,
        /// What failed (part of the message, so not a separate source).
        error: std::io::Error,
    },
    /// An external engine answered a command with an error or closed its output.
    #[error("{name} refused '{command}': {answer}")]
    Refused {
        /// The player.
        name: String,
        /// The command sent.
        command: String,
        /// Its answer.
        answer: String,
    },
    /// An external engine answered `genmove` with something that is not a move.
    #[error("{name} answered genmove with '{answer}', which is not a move ({reason})")]
    NotAMove {
        /// The player.
        name: String,
        /// Its answer.
        answer: String,
        /// Why it is not a move.
        reason: String,
    },
}

/// One side of a game.
pub trait Player: Send {
    /// A name for records and tables.
    fn name(&self) -> String;
    /// A new game starts from `start`, scored with `scoring`.
    fn new_game(&mut self, start: &Position, scoring: Scoring) -> Result<(), PlayerError>;
    /// The player's move in `pos` (the position after every move so far).
    fn genmove(&mut self, pos: &Position) -> Result<Move, PlayerError>;
    /// A move this player did not choose was played (the opponent's, or a forced pass).
    fn observe(&mut self, mv: Move) -> Result<(), PlayerError>;
    /// Why the player failed with `error`, in words for a record and a person (an external
    /// engine says that its process exited rather than "Broken pipe").
    fn failure(&mut self, error: &PlayerError) -> String {
        error.to_string()
    }
}

/// The engine as a player.
pub struct EnginePlayer {
    name: String,
    engine: Engine,
    limits: Limits,
}

impl EnginePlayer {
    /// A player with these engine settings and limits per move.
    pub fn new(name: impl Into<String>, config: EngineConfig, limits: Limits) -> EnginePlayer {
        EnginePlayer {
            name: name.into(),
            engine: Engine::new(config, Scoring::Largest),
            limits,
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _start: &Position, scoring: Scoring) -> Result<(), PlayerError> {
        self.engine.set_scoring(scoring);
        self.engine.clear();
        Ok(())
    }

    fn genmove(&mut self, pos: &Position) -> Result<Move, PlayerError> {
        Ok(self.engine.choose(pos, &self.limits))
    }

    fn observe(&mut self, _mv: Move) -> Result<(), PlayerError> {
        Ok(())
    }
}

/// A player of uniformly random legal moves.
pub struct RandomPlayer {
    rng: Rng,
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn new_game(&mut self, _start: &Position, _scoring: Scoring) -> Result<(), PlayerError> {
        Ok(())
    }

    fn genmove(&mut self, pos: &Position) -> Result<Move, PlayerError> {
        let n = pos.count_moves();
        Ok(if n == 0 {
            Move::PASS
        } else {
            pos.nth_move(self.rng.below(n))
        })
    }

    fn observe(&mut self, _mv: Move) -> Result<(), PlayerError> {
        Ok(())
    }
}

/// A program speaking the engine protocol, through its output (read) and input (written).
pub struct GtpPlayer<R, W> {
    name: String,
    from: R,
    to: W,
    movetime: Option<Duration>,
}

impl<R: BufRead + Send, W: Write + Send> GtpPlayer<R, W> {
    /// A player talking to an engine; `movetime` is sent before each game when given.
    pub fn new(name: impl Into<String>, from: R, to: W, movetime: Option<Duration>) -> Self {
        GtpPlayer {
            name: name.into(),
            from,
            to,
            movetime,
        }
    }

    /// Sends one command without reading its answer (a last `quit`).
    pub fn send(&mut self, command: &str) -> std::io::Result<()> {
        writeln!(self.to, "{command}")?;
        self.to.flush()
    }

    /// Sends one command and returns the text of its successful answer.
    pub fn command(&mut self, command: &str) -> Result<String, PlayerError> {
        let io = |error| PlayerError::Io {
            name: self.name.clone(),
            error,
        };
        writeln!(self.to, "{command}").map_err(io)?;
        self.to.flush().map_err(|error| PlayerError::Io {
            name: self.name.clone(),
            error,
        })?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self
                .from
                .read_line(&mut line)
                .map_err(|error| PlayerError::Io {
                    name: self.name.clone(),
                    error,
                })?;
            if n == 0 {
                return Err(PlayerError::Refused {
                    name: self.name.clone(),
                    command: command.into(),
                    answer: format!("the engine closed its output{answer}"),
                });
            }
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if answer.is_empty() {
                    continue; // blank lines before an answer
                }
                break;
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
            Err(PlayerError::Refused {
                name: self.name.clone(),
                command: command.into(),
                answer: message,
            })
        }
    }
}

impl<R: BufRead + Send, W: Write + Send> Player for GtpPlayer<R, W> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, start: &Position, scoring: Scoring) -> Result<(), PlayerError> {
        self.command(&format!("scoring {scoring}"))?;
        if let Some(t) = self.movetime {
            self.command(&format!("movetime {}", t.as_millis()))?;
        }
        self.command(&format!("setup {start}"))?;
        Ok(())
    }

    fn genmove(&mut self, _pos: &Position) -> Result<Move, PlayerError> {
        let answer = self.command("genmove")?;
        answer
            .parse()
            .map_err(|e: mabula::ParseMoveError| PlayerError::NotAMove {
                name: self.name.clone(),
                answer: answer.clone(),
                reason: e.to_string(),
            })
    }

    fn observe(&mut self, mv: Move) -> Result<(), PlayerError> {
        self.command(&format!("play {mv}")).map(drop)
    }
}

/// Plays one game from `start` and returns its record. A player whose move is illegal loses the
/// game (the record says why in a comment). Forced passes are played for the players. A player
/// that fails (an error of its own, an engine that died) ends the game with that error; see
/// [`referee_game`] for a game it loses instead.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: &Position,
    scoring: Scoring,
) -> Result<Game, PlayerError> {
    match play_until_failure(white, black, start, scoring) {
        (game, None) => Ok(game),
        (_, Some((_, error))) => Err(error),
    }
}

/// A game refereed: the record, and the side whose player failed, if one did.
#[derive(Clone, Debug)]
pub struct Refereed {
    /// The record; a failed player lost it, and its `Termination` tag says why.
    pub game: Game,
    /// The side whose player failed (an error, an answer that is not a move, an engine that
    /// exited or stopped answering): it should be started again before its next game.
    pub failed: Option<Color>,
}

/// Plays one game like [`play_game`], but a player that fails loses the game: its `Termination`
/// tag says why, in the player's own words ([`Player::failure`]).
pub fn referee_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: &Position,
    scoring: Scoring,
) -> Refereed {
    match play_until_failure(white, black, start, scoring) {
        (game, None) => Refereed { game, failed: None },
        (mut game, Some((side, error))) => {
            let why = match side {
                Color::White => white.failure(&error),
                Color::Black => black.failure(&error),
            };
            game.declare(GameResult::win(side.other()));
            game.set_tag("Termination", &format!("{side} lost: {why}"));
            Refereed {
                game,
                failed: Some(side),
            }
        }
    }
}

/// Plays a game until its end or until a player fails: then the game so far, the side that
/// failed and the error.
fn play_until_failure(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: &Position,
    scoring: Scoring,
) -> (Game, Option<(Color, PlayerError)>) {
    let mut game = Game::new(*start, scoring);
    game.set_tag("White", &white.name());
    game.set_tag("Black", &black.name());
    if let Err(e) = white.new_game(start, scoring) {
        return (game, Some((Color::White, e)));
    }
    if let Err(e) = black.new_game(start, scoring) {
        return (game, Some((Color::Black, e)));
    }
    while !game.is_finished() {
        let pos = *game.position();
        let side = pos.side_to_move();
        let moves = pos.legal_moves();
        let (mover, other): (&mut dyn Player, &mut dyn Player) = match side {
            Color::White => (&mut *white, &mut *black),
            Color::Black => (&mut *black, &mut *white),
        };
        if moves.as_slice() == [Move::PASS] {
            if let Err(e) = mover.observe(Move::PASS) {
                return (game, Some((side, e)));
            }
            if let Err(e) = other.observe(Move::PASS) {
                return (game, Some((side.other(), e)));
            }
            if let Err(e) = game.play(Move::PASS) {
                return (game, Some((side, unreachable_illegal(&e))));
            }
            continue;
        }
        let mv = match mover.genmove(&pos) {
            Ok(mv) => mv,
            Err(e) => return (game, Some((side, e))),
        };
        match game.play(mv) {
            Ok(()) => {
                if let Err(e) = other.observe(mv) {
                    return (game, Some((side.other(), e)));
                }
            }
            Err(e) => {
                game.declare(GameResult::win(side.other()));
                game.set_tag(
                    "Termination",
                    &format!("{} played an illegal move: {e}", mover.name()),
                );
            }
        }
    }
    (game, None)
}

fn unreachable_illegal(e: &mabula::PlayError) -> PlayerError {
    PlayerError::Io {
        name: "referee".into(),
        error: std::io::Error::other(e.to_string()),
    }
}

/// What a player of a match is, as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// The engine: `level=N,movetime=MS,playouts=N,threads=N,practical=off` (any subset, in any
    /// order).
    Engine {
        /// Level 1 to 10 or a frozen level such as `10-v1` (default 10).
        level: LevelName,
        /// Thinking time per move.
        movetime: Option<Duration>,
        /// Playouts per move (overrides the level's).
        playouts: Option<u64>,
        /// Threads (overrides the level's).
        threads: Option<usize>,
        /// Look for practical chances in proven draws and losses
        /// ([`EngineConfig::practical`]; default on).
        practical: bool,
        /// What the tree search evaluates its leaves with.
        eval: Eval,
        /// Whether the tree search orders and biases its moves by the learnt move prior
        /// ([`MovePrior::embedded`]; default off).
        prior: bool,
        /// Whether new children of the tree start with the learnt value's head start
        /// ([`ValuePrior::embedded`]; default off).
        value: bool,
    },
    /// Plain UCT with random playouts: `baseline-uct[,movetime=MS][,playouts=N]`.
    Baseline {
        /// Thinking time per move.
        movetime: Option<Duration>,
        /// Playouts per move.
        playouts: Option<u64>,
    },
    /// Uniformly random legal moves: `random` (a floor for level 1).
    Random,
    /// An external engine: `gtp:COMMAND LINE`.
    Gtp(String),
}

/// What an engine player's tree search evaluates its leaves with: `eval=playouts|model`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// Playouts only (what the level does).
    #[default]
    Playouts,
    /// The learnt model where it was fitted, playouts elsewhere ([`LeafModel::embedded`]).
    Model,
}

/// A player specification that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{spec}' is not a player: {reason} (write level=N|10-v1,movetime=MS,playouts=N,threads=N,\
     practical=on|off,eval=playouts|model,prior=on|off,value=on|off, baseline-uct[,movetime=MS][,playouts=N], random, or gtp:COMMAND)"
)]
pub struct ParsePlayerError {
    spec: String,
    reason: String,
}

impl FromStr for PlayerSpec {
    type Err = ParsePlayerError;

    fn from_str(text: &str) -> Result<PlayerSpec, ParsePlayerError> {
        let err = |reason: String| ParsePlayerError {
            spec: text.into(),
            reason,
        };
        let s = text.trim();
        if s == "random" {
            return Ok(PlayerSpec::Random);
        }
        if let Some(cmd) = s.strip_prefix("gtp:") {
            if cmd.trim().is_empty() {
                return Err(err("the command line is empty".into()));
            }
            return Ok(PlayerSpec::Gtp(cmd.trim().to_string()));
        }
        let (baseline, rest) = match s.strip_prefix("baseline-uct") {
            Some(rest) => (true, rest.trim_start_matches(',')),
            None => (false, s),
        };
        let (mut movetime, mut playouts, mut threads) = (None, None, None);
        let mut level = LevelName::Current(10);
        let mut practical = true;
        let mut eval = Eval::Playouts;
        let mut prior = false;
        let mut value_on = false;
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| err(format!("'{part}' is not key=value")))?;
            let on_off = |v: &str| match v.trim() {
                "on" => Ok(true),
                "off" => Ok(false),
                v => Err(err(format!("'{v}' is not on or off for {key}"))),
            };
            let number = |v: &str| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| err(format!("'{v}' is not a number for {key}")))
            };
            match key.trim() {
                "level" if !baseline => level = value.parse().map_err(|e| err(format!("{e}")))?,
                "movetime" => movetime = Some(Duration::from_millis(number(value)?)),
                "playouts" => playouts = Some(number(value)?.max(1)),
                "threads" if !baseline => threads = Some(number(value)?.max(1) as usize),
                "practical" if !baseline => practical = on_off(value)?,
                "prior" if !baseline => prior = on_off(value)?,
                "value" if !baseline => value_on = on_off(value)?,
                "eval" if !baseline => {
                    eval = match value.trim() {
                        "playouts" => Eval::Playouts,
                        "model" => Eval::Model,
                        v => return Err(err(format!("'{v}' is not playouts or model for eval"))),
                    }
                }
                other => return Err(err(format!("unknown setting '{other}'"))),
            }
        }
        Ok(if baseline {
            PlayerSpec::Baseline { movetime, playouts }
        } else {
            PlayerSpec::Engine {
                level,
                movetime,
                playouts,
                threads,
                practical,
                eval,
                prior,
                value: value_on,
            }
        })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let extras = |movetime: &Option<Duration>, playouts: &Option<u64>| {
            let mut s = String::new();
            if let Some(t) = movetime {
                s.push_str(&format!(",movetime={}", t.as_millis()));
            }
            if let Some(p) = playouts {
                s.push_str(&format!(",playouts={p}"));
            }
            s
        };
        match self {
            PlayerSpec::Engine {
                level,
                movetime,
                playouts,
                threads,
                practical,
                eval,
                prior,
                value,
            } => {
                write!(f, "level={level}{}", extras(movetime, playouts))?;
                if let Some(t) = threads {
                    write!(f, ",threads={t}")?;
                }
                if !practical {
                    f.write_str(",practical=off")?;
                }
                if *eval == Eval::Model {
                    f.write_str(",eval=model")?;
                }
                if *prior {
                    f.write_str(",prior=on")?;
                }
                if *value {
                    f.write_str(",value=on")?;
                }
                Ok(())
            }
            PlayerSpec::Baseline { movetime, playouts } => {
                write!(f, "baseline-uct{}", extras(movetime, playouts))
            }
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Gtp(cmd) => write!(f, "gtp:{cmd}"),
        }
    }
}

impl PlayerSpec {
    /// Threads the player thinks with (1 for external engines, which we cannot know).
    pub fn threads(&self) -> usize {
        match self {
            PlayerSpec::Engine { level, threads, .. } => {
                threads.unwrap_or_else(|| level.level(0).config.threads)
            }
            _ => 1,
        }
    }

    /// The engine settings and limits per move of an engine or baseline player (`None` for an
    /// external engine); `seed` seeds its choices.
    pub fn engine(&self, seed: u64) -> Option<(EngineConfig, Limits)> {
        match self {
            PlayerSpec::Engine {
                level,
                movetime,
                playouts,
                threads,
                practical,
                eval,
                prior,
                value,
            } => {
                let l = level.level(seed);
                let mut config = l.config;
                if let Some(t) = threads {
                    config.threads = *t;
                }
                config.practical &= *practical;
                if *eval == Eval::Model {
                    config.mcts.leaf_model = Some(LeafModel::embedded());
                }
                if *prior {
                    config.mcts.move_prior = Some(MovePrior::embedded());
                }
                if *value {
                    config.mcts.value_prior = Some(ValuePrior::embedded());
                }
                let nodes = playouts.or(l.playouts);
                let time = match (movetime, nodes) {
                    (None, None) => Some(DEFAULT_MOVETIME),
                    (t, _) => *t,
                };
                Some((
                    config,
                    Limits {
                        time,
                        nodes,
                        stop: None,
                        turns: None,
                    },
                ))
            }
            PlayerSpec::Baseline { movetime, playouts } => {
                let time = match (movetime, playouts) {
                    (None, None) => Some(DEFAULT_MOVETIME),
                    (t, _) => *t,
                };
                let config = EngineConfig {
                    seed,
                    ..EngineConfig::baseline()
                };
                Some((
                    config,
                    Limits {
                        time,
                        nodes: *playouts,
                        stop: None,
                        turns: None,
                    },
                ))
            }
            PlayerSpec::Random | PlayerSpec::Gtp(_) => None,
        }
    }

    /// The player, for every specification but an external engine (which the caller starts).
    pub fn player(&self, seed: u64) -> Option<Box<dyn Player>> {
        if *self == PlayerSpec::Random {
            return Some(Box::new(RandomPlayer {
                rng: Rng::new(seed),
            }));
        }
        let (config, limits) = self.engine(seed)?;
        Some(Box::new(EnginePlayer::new(
            self.to_string(),
            config,
            limits,
        )))
    }
}

/// How a match is played.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchPlan {
    /// Games to play (pairs on the same setup, colours swapped; an odd last game is single).
    pub games: usize,
    /// The scoring mode.
    pub scoring: Scoring,
    /// Seed of the setups (pair `k` uses deal `seed + k`, White moving first).
    pub seed: u64,
    /// Games played at the same time.
    pub jobs: usize,
}

impl MatchPlan {
    /// The setup of game `index` (the two games of a pair share it; White moves first).
    pub fn setup(&self, index: usize) -> Position {
        mabula::deal::random(self.seed.wrapping_add(index as u64 / 2), Color::White)
    }
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Its number, from 0.
    pub index: usize,
    /// The colour of the match's first player.
    pub first_color: Color,
    /// The game.
    pub game: Game,
}

/// Plays a match between the players `make_first` and `make_second` create (called with a
/// seed, once per job); `on_game` hears about each game as it ends. Reports come back in game
/// order. A player that fails in a game loses it ([`referee_game`]) and is made again for the
/// next; the match ends with an error only when a player cannot be made.
pub fn run_match<F, G>(
    plan: &MatchPlan,
    make_first: F,
    make_second: G,
    on_game: &(dyn Fn(&GameReport) + Sync),
) -> Result<Vec<GameReport>, PlayerError>
where
    F: Fn(u64) -> Result<Box<dyn Player>, PlayerError> + Sync,
    G: Fn(u64) -> Result<Box<dyn Player>, PlayerError> + Sync,
{
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let reports = Mutex::new(Vec::new());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for job in 0..plan.jobs.clamp(1, plan.games.max(1)) {
            let (next, reports, failure) = (&next, &reports, &failure);
            let (make_first, make_second) = (&make_first, &make_second);
            scope.spawn(move || {
                let run = || -> Result<(), PlayerError> {
                    let seed = plan.seed ^ (job as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    let mut first = make_first(seed)?;
                    let mut second = make_second(seed ^ 1)?;
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= plan.games || failure.lock().is_ok_and(|f| f.is_some()) {
                            return Ok(());
                        }
                        let start = plan.setup(index);
                        let first_color = if index % 2 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        };
                        let refereed = match first_color {
                            Color::White => {
                                referee_game(first.as_mut(), second.as_mut(), &start, plan.scoring)
                            }
                            Color::Black => {
                                referee_game(second.as_mut(), first.as_mut(), &start, plan.scoring)
                            }
                        };
                        let report = GameReport {
                            index,
                            first_color,
                            game: refereed.game,
                        };
                        on_game(&report);
                        if let Ok(mut r) = reports.lock() {
                            r.push(report);
                        }
                        match refereed.failed {
                            Some(side) if side == first_color => {
                                first = make_first(seed.wrapping_add(index as u64 + 1))?;
                            }
                            Some(_) => {
                                second = make_second((seed ^ 1).wrapping_add(index as u64 + 1))?;
                            }
                            None => {}
                        }
                    }
                };
                if let Err(e) = run()
                    && let Ok(mut f) = failure.lock()
                {
                    f.get_or_insert(e);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut reports = reports.into_inner().unwrap_or_default();
    reports.sort_by_key(|r| r.index);
    Ok(reports)
}

/// Wins, draws and losses of the first player of a match, and what they say about strength.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchStats {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl MatchStats {
    /// Counts one finished game for the first player, who played `color`.
    pub fn add(&mut self, result: GameResult, color: Color) {
        match result {
            GameResult::Draw => self.draws += 1,
            GameResult::WhiteWins if color == Color::White => self.wins += 1,
            GameResult::BlackWins if color == Color::Black => self.wins += 1,
            GameResult::Unfinished => {}
            _ => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score: (wins + draws / 2) / games.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }

    /// The Elo difference and its 95% interval `(low, elo, high)` (from the score's standard
    /// error over games; infinite when a side scored everything).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games());
        let p = self.score();
        if n == 0.0 {
            return (f64::NEG_INFINITY, 0.0, f64::INFINITY);
        }
        let var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let margin = 1.96 * (var / n).sqrt();
        (elo(p - margin), elo(p), elo(p + margin))
    }
}

/// The Elo difference that makes `score` the expected score.
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::deal;

    #[test]
    fn player_specifications_read_and_print() {
        let spec: PlayerSpec = "level=7,movetime=500,threads=1".parse().expect("a spec");
        assert_eq!(
            spec,
            PlayerSpec::Engine {
                level: LevelName::Current(7),
                movetime: Some(Duration::from_millis(500)),
                playouts: None,
                threads: Some(1),
                practical: true,
                eval: Eval::Playouts,
                prior: false,
                value: false,
            }
        );
        assert_eq!(spec.to_string(), "level=7,movetime=500,threads=1");
        let off: PlayerSpec = "practical=off,level=10".parse().expect("a spec");
        assert_eq!(off.to_string(), "level=10,practical=off");
        assert_eq!(off.to_string().parse::<PlayerSpec>(), Ok(off));
        let base: PlayerSpec = "baseline-uct,playouts=300".parse().expect("a spec");
        assert_eq!(
            base,
            PlayerSpec::Baseline {
                movetime: None,
                playouts: Some(300)
            }
        );
        assert_eq!(base.to_string().parse::<PlayerSpec>(), Ok(base));
        assert_eq!(
            "gtp: mabula gtp".parse(),
            Ok(PlayerSpec::Gtp("mabula gtp".into()))
        );
        assert_eq!("random".parse(), Ok(PlayerSpec::Random));
        let v1: PlayerSpec = "level=10-v1,movetime=100".parse().expect("a spec");
        assert_eq!(v1.to_string(), "level=10-v1,movetime=100");
        assert_eq!(v1.to_string().parse::<PlayerSpec>(), Ok(v1));
        let model: PlayerSpec = "eval=model,level=10".parse().expect("a spec");
        assert_eq!(model.to_string(), "level=10,eval=model");
        let prior: PlayerSpec = "prior=on,level=10".parse().expect("a spec");
        assert_eq!(prior.to_string(), "level=10,prior=on");
        let (config, _) = prior.engine(1).unwrap();
        assert_eq!(config.mcts.move_prior, Some(MovePrior::embedded()));
        let (config, _) = "level=10,prior=off"
            .parse::<PlayerSpec>()
            .unwrap()
            .engine(1)
            .unwrap();
        assert_eq!(config.mcts.move_prior, None);
        let value: PlayerSpec = "value=on,level=10,prior=on".parse().expect("a spec");
        assert_eq!(value.to_string(), "level=10,prior=on,value=on");
        let (config, _) = value.engine(1).unwrap();
        assert_eq!(config.mcts.value_prior, Some(ValuePrior::embedded()));
        let (config, _) = model.engine(1).expect("an engine");
        assert_eq!(config.mcts.leaf_model, Some(LeafModel::embedded()));
        for bad in [
            "level=11",
            "level=9-v1",
            "level=x",
            "speed=3",
            "gtp:",
            "baseline-uct,level=3",
            "movetime",
            "practical=maybe",
            "baseline-uct,practical=off",
            "eval=net",
            "prior=yes",
            "baseline-uct,prior=on",
            "value=maybe",
            "baseline-uct,value=on",
            "baseline-uct,eval=model",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_game_between_engines_is_finished_and_legal() {
        let start = deal::random(3, Color::White);
        let spec: PlayerSpec = "level=2".parse().expect("a spec");
        let mut a = spec.player(1).expect("an engine");
        let mut b = "baseline-uct,playouts=50"
            .parse::<PlayerSpec>()
            .expect("spec")
            .player(2)
            .expect("engine");
        let game = play_game(a.as_mut(), b.as_mut(), &start, Scoring::Product).expect("a game");
        assert!(game.position().is_game_over());
        assert_eq!(game.tag("White"), Some("level=2"));
        let text = game.to_string();
        assert_eq!(Game::parse(&text).expect("its record reads back"), game);
    }

    #[test]
    fn the_frozen_level_ten_plays_a_game() {
        let start = deal::random(4, Color::White);
        let spec: PlayerSpec = "level=10-v1,movetime=20,threads=1".parse().expect("a spec");
        let (config, limits) = spec.engine(1).expect("an engine");
        assert_eq!(
            config,
            EngineConfig {
                threads: 1,
                ..crate::levels::Level::ten_v1(1).config
            }
        );
        assert_eq!(limits.time, Some(Duration::from_millis(20)));
        let mut a = spec.player(1).expect("an engine");
        let mut b = "level=3"
            .parse::<PlayerSpec>()
            .expect("spec")
            .player(2)
            .expect("engine");
        let game = play_game(a.as_mut(), b.as_mut(), &start, Scoring::Largest).expect("a game");
        assert!(game.position().is_game_over());
        assert_eq!(game.tag("White"), Some("level=10-v1,movetime=20,threads=1"));
    }

    #[test]
    fn elo_follows_the_score_and_its_interval_contains_it() {
        let mut stats = MatchStats::default();
        for _ in 0..60 {
            stats.add(GameResult::WhiteWins, Color::White);
        }
        for _ in 0..20 {
            stats.add(GameResult::WhiteWins, Color::Black);
        }
        for _ in 0..20 {
            stats.add(GameResult::Draw, Color::Black);
        }
        assert_eq!((stats.wins, stats.draws, stats.losses), (60, 20, 20));
        assert!((stats.score() - 0.7).abs() < 1e-9);
        let (lo, e, hi) = stats.elo();
        assert!((e - 147.2).abs() < 0.1, "{e}");
        assert!(lo < e && e < hi);
        assert_eq!(elo(0.5), 0.0);
    }
}
