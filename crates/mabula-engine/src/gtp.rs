//! The engine protocol (RULES.md section 7, with the additions of `docs/protocol.md`):
//! GTP-shaped commands, one per line.
//!
//! `[id] name [arguments]`, answered `=[id] text` or `?[id] message`, then an empty line. As in
//! GTP v2, everything from a `#` on is a comment; blank and comment-only lines get no answer. A
//! failed command changes nothing. A line that is not UTF-8 text, that holds a control character
//! other than a tab, or that is longer than [`MAX_LINE`] bytes is answered with `?` (a long line
//! is skipped as it is read, never held whole). The loop ([`Gtp::run`]) reads from any [`BufRead`] and
//! writes to any [`Write`], so tests drive it with strings and `mabula gtp` with stdin and stdout.
//!
//! `analyze_info interval MS` streams: it answers `=` at once and then an update every interval,
//! searched on a thread of its own while the loop waits for the next line; the next line ends the
//! stream (with the empty line that closes every answer) and is then run as a command of its own.
//!
//! ```
//! use mabula_engine::gtp::Gtp;
//! let mut out = Vec::new();
//! Gtp::new().run("1 setup 1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\n2 play b1-b4\nresult\n".as_bytes(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text, "=1\n\n=2\n\n= *\n\n");
//! ```

mod analysis;

use crate::levels::{Level, MAX_LEVEL, MAX_THINK_MS};
use crate::limits::Limits;
use crate::search::{Engine, EngineConfig};
use analysis::{AnalysisRequest, AnalysisState, analysis_request};
use mabula::diagram::diagram;
use mabula::{Bitboard, Color, Game, GameResult, Move, Position, Scoring, deal};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Every command, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 30] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "newgame",
    "setup",
    "position",
    "showboard",
    "legal_moves",
    "play",
    "genmove",
    "undo",
    "scoring",
    "score",
    "result",
    "movetime",
    "level",
    "analyze",
    "analyze_info",
    "stop",
    "time_settings",
    "time_left",
    "set_option",
    "options",
    "load_record",
    "record",
    "moves",
    "clear_clock",
];

/// The longest line the protocol reads, in bytes (without its line end); a longer one is
/// answered `? line too long` and skipped.
pub const MAX_LINE: usize = 64 * 1024;

/// Kept back from the time left on the clock for reading and writing the protocol.
const CLOCK_RESERVE: Duration = Duration::from_millis(50);

/// The state of a protocol session: the game, the settings and the engine.
pub struct Gtp {
    start: Position,
    moves: Vec<Move>,
    /// The position after `moves` (kept to avoid replaying).
    current: Position,
    scoring: Scoring,
    /// Thinking time per `genmove` when no clock runs; `None` (`movetime 0`): the level's
    /// playout budget alone (200,000 playouts at level 10).
    movetime: Option<Duration>,
    level: u8,
    /// Threads of level 10 and of analyses (lower levels use one).
    threads: Option<usize>,
    /// The solver's table, in MB (`set_option table_mb`).
    table_mb: Option<usize>,
    /// The seed of the engine's random choices (`set_option seed`).
    seed: u64,
    /// The clocks, once `time_settings` set them: they replace `movetime` for `genmove`.
    clock: Option<Clocks>,
    /// The engine, kept between moves so that it reuses its tree; rebuilt when a setting changes.
    engine: Option<Engine>,
    /// Tags of a loaded record, written back by `record`.
    tags: Vec<(String, String)>,
}

/// Fischer clocks: time per game and an increment per move.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Clocks {
    /// The increment added after each move of a side.
    increment: Duration,
    /// The time each side has left (White first), as last told by `time_left` or counted.
    left: [Duration; 2],
}

impl Default for Gtp {
    fn default() -> Gtp {
        Gtp::new()
    }
}

/// What a command answers.
type Answer = Result<String, String>;

/// A command line taken apart.
struct Parsed<'a> {
    id: &'a str,
    name: &'a str,
    args: &'a str,
}

impl Gtp {
    /// A session at the start of deal 0, largest-group scoring, level 10, one second per move.
    pub fn new() -> Gtp {
        let start = deal::random(0, Color::White);
        Gtp {
            start,
            moves: Vec::new(),
            current: start,
            scoring: Scoring::Largest,
            movetime: Some(Duration::from_secs(1)),
            level: MAX_LEVEL,
            threads: None,
            table_mb: None,
            seed: 0,
            clock: None,
            engine: None,
            tags: Vec::new(),
        }
    }

    /// The same session with level 10 searching on `threads` threads.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Gtp {
        self.threads = Some(threads.max(1));
        self.engine = None;
        self
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// Reads commands from `input` and answers them on `output` until `quit` or the end of the
    /// input. `output` is shared with the thread of a streaming analysis, hence `Send`.
    pub fn run<W: Write + Send>(&mut self, mut input: impl BufRead, output: W) -> io::Result<()> {
        let out = Mutex::new(output);
        let mut pending: Option<InputLine> = None;
        loop {
            let read = match pending.take() {
                Some(line) => line,
                None => match read_line(&mut input)? {
                    Some(line) => line,
                    None => break,
                },
            };
            let raw = match read {
                InputLine::Text(raw) => raw,
                InputLine::TooLong { id } => {
                    let answer = Err(format!("line too long: at most {MAX_LINE} bytes"));
                    write_answer(&out, &id, &answer)?;
                    continue;
                }
            };
            let line = match String::from_utf8(raw) {
                Ok(line) => line,
                Err(e) => {
                    let id = leading_id(e.as_bytes());
                    let answer = Err("the line is not UTF-8 text".to_string());
                    write_answer(&out, &id, &answer)?;
                    continue;
                }
            };
            let cmd = match parse_line(&line) {
                None => continue,
                Some(Err((id, answer))) => {
                    write_answer(&out, id, &Err(answer))?;
                    continue;
                }
                Some(Ok(cmd)) => cmd,
            };
            if cmd.name == "analyze_info"
                && let Ok(request) = analysis_request(cmd.args, true)
                && let Some(interval) = request.interval
            {
                pending = self.stream(cmd.id, request, interval, &mut input, &out)?;
                continue;
            }
            let answer = self.command(cmd.name, cmd.args);
            write_answer(&out, cmd.id, &answer)?;
            if cmd.name == "quit" && cmd.args.is_empty() {
                break;
            }
        }
        Ok(())
    }

    /// Executes one line: `None` for a blank or comment line, else the id, the answer and
    /// whether the session ends. A streaming `analyze_info` is answered with one update here
    /// (streams need [`Gtp::run`]).
    pub fn execute(&mut self, line: &str) -> Option<(String, Answer, bool)> {
        let cmd = match parse_line(line)? {
            Ok(cmd) => cmd,
            Err((id, answer)) => return Some((id.to_string(), Err(answer), false)),
        };
        let answer = self.command(cmd.name, cmd.args);
        Some((
            cmd.id.to_string(),
            answer,
            cmd.name == "quit" && cmd.args.is_empty(),
        ))
    }

    fn command(&mut self, name: &str, args: &str) -> Answer {
        let no_args = |answer: Answer| {
            if args.is_empty() {
                answer
            } else {
                Err(format!("{name} takes no arguments"))
            }
        };
        match name {
            "" => Err("empty command".into()),
            "protocol_version" => no_args(Ok("2".into())),
            "name" => no_args(Ok("mabula-engine".into())),
            "version" => no_args(Ok(env!("CARGO_PKG_VERSION").into())),
            "known_command" => match args.split_whitespace().collect::<Vec<_>>()[..] {
                [one] => Ok(COMMANDS.contains(&one).to_string()),
                [] => Err("known_command needs a command name, like known_command genmove".into()),
                _ => Err("known_command takes one command name".into()),
            },
            "list_commands" => no_args(Ok(COMMANDS.join("\n"))),
            "quit" => no_args(Ok(String::new())),
            "newgame" => self.newgame(args),
            "setup" => self.setup(args),
            "position" => no_args(Ok(self.current.to_string())),
            "showboard" => {
                let text = board(&self.current, self.scoring, self.moves.last().copied());
                no_args(Ok(format!("\n{text}")))
            }
            "legal_moves" => no_args(Ok(self.legal_moves())),
            "play" => self.play(args),
            "moves" => self.play_moves(args),
            "genmove" => self.genmove(args),
            "undo" => no_args(self.undo()),
            "scoring" => self.set_scoring(args),
            "score" => no_args(Ok(self.current.scores(self.scoring).to_string())),
            "result" => no_args(Ok(self.result().to_string())),
            "movetime" => self.set_movetime(args),
            "level" => self.set_level(args),
            "analyze" => {
                let request = analysis_request(args, false)?;
                Ok(self.analyze_once(request))
            }
            "analyze_info" => {
                let request = analysis_request(args, true)?;
                Ok(self.analyze_once(request))
            }
            // A stream is ended by any line; `stop` is the line that does nothing else.
            "stop" => no_args(Ok(String::new())),
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "clear_clock" => no_args({
                self.clock = None;
                Ok(String::new())
            }),
            "set_option" => self.set_option(args),
            "options" => no_args(Ok(self.options())),
            "load_record" => self.load_record(args),
            "record" => no_args(Ok(self.record())),
            other => Err(format!("unknown command '{other}'")),
        }
    }

    fn reset(&mut self, start: Position) {
        self.start = start;
        self.current = start;
        self.moves.clear();
        self.tags.clear();
        if let Some(e) = self.engine.as_mut() {
            e.clear();
        }
    }

    fn newgame(&mut self, args: &str) -> Answer {
        let seed = if args.is_empty() {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        } else {
            args.parse::<u64>().map_err(|_| {
                format!("'{args}' is not a seed: give a whole number from 0 to 2^64-1")
            })?
        };
        self.reset(deal::random(seed, Color::White));
        Ok(self.current.to_string())
    }

    fn setup(&mut self, args: &str) -> Answer {
        if args.is_empty() {
            return Err("setup needs a position string".into());
        }
        let pos: Position = args.parse().map_err(|e| format!("bad position: {e}"))?;
        self.reset(pos);
        Ok(String::new())
    }

    fn legal_moves(&self) -> String {
        let mut moves = self.current.legal_moves();
        moves.sort();
        moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `play MOVE`, or GTP's `play COLOUR MOVE` when COLOUR is the side to move.
    fn play(&mut self, args: &str) -> Answer {
        let words: Vec<&str> = args.split_whitespace().collect();
        let text = match words[..] {
            [] => return Err("play needs a move, like b1-b4 or pass".into()),
            [mv] => mv,
            [colour, mv] => {
                let named = parse_colour(colour).ok_or_else(|| {
                    format!("'{colour}' is not a colour: use play MOVE or play COLOUR MOVE, like play w b1-b4")
                })?;
                let side = self.current.side_to_move();
                if named != side {
                    return Err(format!("it is {side}'s turn, not {named}'s"));
                }
                mv
            }
            _ => return Err("use play MOVE or play COLOUR MOVE, like play w b1-b4".into()),
        };
        let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
        let next = self.current.play(mv).map_err(|e| e.to_string())?;
        self.moves.push(mv);
        self.current = next;
        Ok(String::new())
    }

    /// `moves M1 M2 ...`: plays several moves, all or none.
    fn play_moves(&mut self, args: &str) -> Answer {
        let mut pos = self.current;
        let mut played = Vec::new();
        for (i, word) in args.split_whitespace().enumerate() {
            let mv: Move = word.parse().map_err(|e| format!("move {}: {e}", i + 1))?;
            pos = pos.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
            played.push(mv);
        }
        if played.is_empty() {
            return Err("moves needs one or more moves, like moves b1-b4 c8-c6".into());
        }
        self.moves.extend(played);
        self.current = pos;
        Ok(String::new())
    }

    fn genmove(&mut self, args: &str) -> Answer {
        let side = self.current.side_to_move();
        if !args.is_empty() {
            let Some(named) = parse_colour(args) else {
                return Err(format!(
                    "'{args}' is not a colour: genmove takes no argument, or w or b"
                ));
            };
            if named != side {
                return Err(format!("it is {side}'s turn, not {named}'s"));
            }
        }
        if self.current.is_game_over() {
            return Err("the game is over".into());
        }
        let limits = self.limits();
        let pos = self.current;
        let started = Instant::now();
        let mv = self.engine().choose(&pos, &limits);
        if let Some(clock) = self.clock.as_mut() {
            let left = &mut clock.left[side as usize];
            *left = left.saturating_sub(started.elapsed()) + clock.increment;
        }
        self.current.play_unchecked(mv);
        self.moves.push(mv);
        Ok(mv.to_string())
    }

    fn limits(&self) -> Limits {
        let level = Level::new(self.level, 0);
        let time = match self.clock {
            Some(clock) => Some(allocate(&clock, &self.current)),
            None => self.movetime,
        };
        Limits {
            time,
            nodes: level.playouts,
            stop: None,
            turns: None,
        }
    }

    fn engine(&mut self) -> &mut Engine {
        let (level, threads, scoring) = (self.level, self.threads, self.scoring);
        let (table_mb, seed) = (self.table_mb, self.seed);
        let engine = self.engine.get_or_insert_with(|| {
            let mut config = Level::new(level, seed).config;
            if level == MAX_LEVEL
                && let Some(t) = threads
            {
                config.threads = t;
            }
            if let Some(mb) = table_mb {
                config.table_mb = mb;
            }
            config.seed ^= seed;
            Engine::new(config, scoring)
        });
        engine.set_scoring(scoring);
        engine
    }

    fn undo(&mut self) -> Answer {
        if self.moves.pop().is_none() {
            return Err("there is no move to take back".into());
        }
        let mut pos = self.start;
        for &mv in &self.moves {
            pos.play_unchecked(mv);
        }
        self.current = pos;
        Ok(String::new())
    }

    fn set_scoring(&mut self, args: &str) -> Answer {
        self.scoring = args
            .parse()
            .map_err(|e: mabula::scoring::ParseScoringError| e.to_string())?;
        Ok(String::new())
    }

    fn result(&self) -> GameResult {
        match self.current.outcome(self.scoring) {
            Some(o) => o.into(),
            None => GameResult::Unfinished,
        }
    }

    fn set_movetime(&mut self, args: &str) -> Answer {
        let ms: u64 = args.parse().map_err(|_| {
            format!(
                "'{args}' is not a time: give milliseconds, like movetime 1000 (0: no time \
                 limit, the level's playouts alone)"
            )
        })?;
        if ms > MAX_THINK_MS {
            return Err(format!(
                "movetime {ms} is too long: give at most {MAX_THINK_MS} milliseconds (a day)"
            ));
        }
        self.movetime = (ms > 0).then(|| Duration::from_millis(ms));
        Ok(self.movetime_note())
    }

    /// What `movetime` and `level` say about how the two combine.
    fn movetime_note(&self) -> String {
        let playouts = Level::new(self.level, 0).playouts;
        match (self.movetime, playouts) {
            (None, None) => "no time limit: level 10 makes 200000 playouts a move".into(),
            (None, Some(n)) => format!("no time limit: level {} makes {n} playouts", self.level),
            (Some(_), Some(n)) => format!(
                "level {} makes at most {n} playouts a move, so movetime only caps its time",
                self.level
            ),
            (Some(_), None) => String::new(),
        }
    }

    fn set_level(&mut self, args: &str) -> Answer {
        let level: u8 = args
            .parse()
            .ok()
            .filter(|l| (1..=MAX_LEVEL).contains(l))
            .ok_or_else(|| format!("'{args}' is not a level: give 1 to {MAX_LEVEL}"))?;
        if level != self.level {
            self.level = level;
            self.engine = None;
        }
        Ok(String::new())
    }

    /// `time_settings MAIN [INCREMENT]` (seconds; Fischer), or GTP's `MAIN BYO_YOMI STONES`
    /// with no byo-yomi; `time_settings 0 0` (or `0 0 0`) turns the clocks off.
    fn time_settings(&mut self, args: &str) -> Answer {
        let words: Vec<&str> = args.split_whitespace().collect();
        let usage = "time_settings MAIN [INCREMENT] (seconds, a Fischer clock)";
        let (main, increment) = match words[..] {
            [main] => (seconds(main, usage)?, Duration::ZERO),
            [main, inc] => (seconds(main, usage)?, seconds(inc, usage)?),
            [main, byo, stones] => {
                let (byo, stones) = (seconds(byo, usage)?, stones.parse::<u32>());
                if byo != Duration::ZERO || stones != Ok(0) {
                    return Err(format!(
                        "byo-yomi is not supported: use {usage}, or {usage} with 0 0 for the third"
                    ));
                }
                (seconds(main, usage)?, Duration::ZERO)
            }
            _ => return Err(format!("use {usage}")),
        };
        self.clock = (main > Duration::ZERO || increment > Duration::ZERO).then_some(Clocks {
            increment,
            left: [main, main],
        });
        Ok(String::new())
    }

    /// `time_left COLOR SECONDS [STONES]`: the time COLOR has left.
    fn time_left(&mut self, args: &str) -> Answer {
        let usage = "time_left COLOR SECONDS, like time_left w 58.5";
        let words: Vec<&str> = args.split_whitespace().collect();
        let (color, secs) = match words[..] {
            [c, s] | [c, s, _] => (c, s),
            _ => return Err(format!("use {usage}")),
        };
        let color =
            parse_colour(color).ok_or_else(|| format!("'{color}' is not a colour: use w or b"))?;
        let left = seconds(secs, usage)?;
        let Some(clock) = self.clock.as_mut() else {
            return Err("no clock runs: set one with time_settings first".into());
        };
        clock.left[color as usize] = left;
        Ok(String::new())
    }

    /// `set_option NAME VALUE`: `threads`, `table_mb` or `seed`.
    fn set_option(&mut self, args: &str) -> Answer {
        let (name, value) = args.split_once(char::is_whitespace).ok_or_else(|| {
            "use set_option NAME VALUE, with NAME threads, table_mb or seed".to_string()
        })?;
        let value = value.trim();
        let number = |max: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n >= 1 && n <= max)
                .ok_or_else(|| format!("'{value}' is not a value of {name}: give 1 to {max}"))
        };
        match name {
            "threads" => self.threads = Some(number(1024)? as usize),
            "table_mb" => {
                let mb = number(1 << 20)? as usize;
                if !crate::tt::Table::fits(mb) {
                    return Err(format!(
                        "this machine cannot give a table of {mb} MB: give a smaller table_mb"
                    ));
                }
                self.table_mb = Some(mb);
            }
            "seed" => {
                self.seed = value.parse().map_err(|_| {
                    format!("'{value}' is not a seed: give a whole number from 0 to 2^64-1")
                })?
            }
            _ => {
                return Err(format!(
                    "unknown option '{name}': the options are threads, table_mb and seed"
                ));
            }
        }
        self.engine = None;
        Ok(String::new())
    }

    /// One `name value` line per setting.
    fn options(&self) -> String {
        let defaults = EngineConfig::default();
        let mut out = vec![
            format!("threads {}", self.threads.unwrap_or(defaults.threads)),
            format!("table_mb {}", self.table_mb.unwrap_or(defaults.table_mb)),
            format!("seed {}", self.seed),
            format!("level {}", self.level),
            format!(
                "movetime {}",
                self.movetime.map_or(0, |t| t.as_millis() as u64)
            ),
            format!("scoring {}", self.scoring),
        ];
        match self.clock {
            Some(c) => out.push(format!(
                "clock white {:.3} black {:.3} increment {:.3}",
                c.left[0].as_secs_f64(),
                c.left[1].as_secs_f64(),
                c.increment.as_secs_f64()
            )),
            None => out.push("clock none".into()),
        }
        out.join("\n")
    }

    /// `load_record FILE [N]`: the Nth game (1 first) of a record file, played to its end.
    fn load_record(&mut self, args: &str) -> Answer {
        if args.is_empty() {
            return Err("load_record needs a file: load_record FILE [GAME NUMBER]".into());
        }
        let (path, number) = match args.rsplit_once(char::is_whitespace) {
            Some((p, n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                let n: usize = n
                    .parse()
                    .map_err(|_| format!("'{n}' is not a game number"))?;
                (p.trim(), Some(n))
            }
            _ => (args, None),
        };
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| format!("{path} is not UTF-8 text, so not a record"))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(format!("there is no file {path}"));
            }
            Err(e) => return Err(format!("cannot read {path}: {e}")),
        };
        let records = mabula::record::split(&text);
        let n = match (number, records.len()) {
            (_, 0) => return Err(format!("{path} holds no record")),
            (None, 1) => 1,
            (None, count) => {
                return Err(format!(
                    "{path} holds {count} games: give the number of one, like load_record {path} 1"
                ));
            }
            (Some(n), count) if n == 0 || n > count => {
                return Err(format!(
                    "{path} holds {count} game{}: give 1 to {count}",
                    if count == 1 { "" } else { "s" }
                ));
            }
            (Some(n), _) => n,
        };
        let game = records[n - 1]
            .parse()
            .map_err(|e| format!("{path}, game {n}: {e}"))?;
        self.reset(*game.start());
        self.scoring = game.scoring();
        for &mv in game.moves() {
            self.current.play_unchecked(mv);
            self.moves.push(mv);
        }
        self.tags = ["Event", "Date", "White", "Black", "Round", "Seed"]
            .iter()
            .filter_map(|&t| game.tag(t).map(|v| (t.to_string(), v.to_string())))
            .collect();
        Ok(self.current.to_string())
    }

    /// The game so far as a record, without its blank lines (an empty line ends an answer).
    fn record(&self) -> String {
        let mut game = Game::new(self.start, self.scoring);
        for (name, value) in &self.tags {
            game.set_tag(name, value);
        }
        for &mv in &self.moves {
            // The moves were checked when they were played.
            let _ = game.play(mv);
        }
        let text = game.to_string();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        format!("\n{}", lines.join("\n"))
    }

    /// One analysis within the move time (or 1 s when `movetime 0`).
    fn analyze_once(&mut self, request: AnalysisRequest) -> String {
        let pos = self.current;
        let total = self.movetime.unwrap_or(Duration::from_secs(1));
        let mut state = AnalysisState::new(self, &pos);
        let update = state.step(total, None);
        let text = update.render(request, &pos);
        if request.info {
            format!("\n{text}")
        } else {
            text
        }
    }

    /// Streams updates of an analysis until the next line of `input`, which it returns (`None`
    /// at the end of the input).
    fn stream<W: Write + Send>(
        &mut self,
        id: &str,
        request: AnalysisRequest,
        interval: Duration,
        input: &mut impl BufRead,
        out: &Mutex<W>,
    ) -> io::Result<Option<InputLine>> {
        {
            let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
            writeln!(w, "={id}")?;
            w.flush()?;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let pos = self.current;
        let mut state = AnalysisState::new(self, &pos);
        let (next, written) = std::thread::scope(|scope| {
            let stop_flag = Arc::clone(&stop);
            let searcher = scope.spawn(move || -> io::Result<()> {
                loop {
                    let update = state.step(interval, Some(&stop_flag));
                    if stop_flag.load(Ordering::Relaxed) {
                        return Ok(());
                    }
                    let text = update.render(request, &pos);
                    {
                        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
                        writeln!(w, "{text}")?;
                        w.flush()?;
                    }
                    if update.final_ {
                        return Ok(());
                    }
                }
            });
            let next = read_line(input);
            stop.store(true, Ordering::Relaxed);
            let written = searcher
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the analysis thread panicked")));
            (next, written)
        });
        written?;
        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(w)?;
        w.flush()?;
        next
    }
}

/// The time for the next move from a Fischer clock: the time left shared over the moves the side
/// to move still has (at most one per marble on an edge space), plus most of the increment,
/// never more than the time left allows.
fn allocate(clock: &Clocks, pos: &Position) -> Duration {
    let side = pos.side_to_move();
    let left = clock.left[side as usize];
    let to_play = (pos.marbles(side) & Bitboard::EDGE).count().max(1);
    let share = left / (to_play + 1) + clock.increment * 9 / 10;
    let most = (left * 4 / 5).saturating_sub(CLOCK_RESERVE);
    share.min(most).max(Duration::from_millis(5))
}

/// A number of seconds (fractions allowed, not negative).
fn seconds(text: &str, usage: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("'{text}' is not a number of seconds: use {usage}"))
}

/// A colour as GTP writes it: `w`, `b`, `white`, `black`, in any case.
fn parse_colour(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "w" | "white" => Some(Color::White),
        "b" | "black" => Some(Color::Black),
        _ => None,
    }
}

/// A line read, or the id of one that was too long (its bytes were skipped).
enum InputLine {
    Text(Vec<u8>),
    TooLong { id: String },
}

/// Takes a command line apart: `None` for a blank or comment line, `Err` (with the id) for a line
/// holding a control character. As in GTP v2, everything from a `#` on is a comment.
fn parse_line(line: &str) -> Option<Result<Parsed<'_>, (&str, String)>> {
    let line = line.split_once('#').map_or(line, |(before, _)| before);
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    let (id, rest) = match line.split_once(char::is_whitespace) {
        Some((first, rest)) if first.bytes().all(|b| b.is_ascii_digit()) => (first, rest.trim()),
        _ if line.bytes().all(|b| b.is_ascii_digit()) => (line, ""),
        _ => ("", line),
    };
    if let Some(c) = line.chars().find(|&c| c.is_control() && c != '\t') {
        return Some(Err((
            id,
            format!(
                "the line holds a control character (U+{:04X}): only text and tabs are allowed",
                c as u32
            ),
        )));
    }
    let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    Some(Ok(Parsed {
        id,
        name,
        args: args.trim(),
    }))
}

/// The id at the start of a line that is not text, if it has one.
fn leading_id(raw: &[u8]) -> String {
    let digits: Vec<u8> = raw.iter().copied().take_while(u8::is_ascii_digit).collect();
    match raw.get(digits.len()) {
        Some(b' ' | b'\t') => String::from_utf8(digits).unwrap_or_default(),
        _ => String::new(),
    }
}

/// One line without its line end; `None` at the end of the input. A line longer than
/// [`MAX_LINE`] is read to its end without being kept.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<InputLine>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let used = chunk.len();
        if !too_long {
            line.extend_from_slice(chunk);
            // One byte of slack for a `\r` before the `\n`.
            if line.len() > MAX_LINE + 2 {
                too_long = true;
                line.truncate(32);
            }
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        line.pop();
    }
    if too_long || line.len() > MAX_LINE {
        return Ok(Some(InputLine::TooLong {
            id: leading_id(&line),
        }));
    }
    Ok(Some(InputLine::Text(line)))
}

fn write_answer<W: Write>(out: &Mutex<W>, id: &str, answer: &Answer) -> io::Result<()> {
    let (mark, text) = match answer {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    if text.is_empty() || text.starts_with('\n') {
        write!(w, "{mark}{id}{text}\n\n")?;
    } else {
        write!(w, "{mark}{id} {text}\n\n")?;
    }
    w.flush()
}

/// The board for people (the rules library's diagram, the last move's square in brackets),
/// then both scores, and the result once the game is over.
pub fn board(pos: &Position, scoring: Scoring, last: Option<Move>) -> String {
    let marked = last
        .and_then(Move::to)
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    let mut out = diagram(pos, marked);
    let scores = pos.scores(scoring);
    out.push_str(&format!("\n{scoring} scoring: {scores}"));
    if let Some(outcome) = pos.outcome(scoring) {
        out.push_str(&format!(
            "; the game is over: {}",
            GameResult::from(outcome)
        ));
    }
    out
}
