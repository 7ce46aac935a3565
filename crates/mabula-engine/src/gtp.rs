//! The engine protocol (RULES.md section 7): GTP-shaped commands, one per line.
//!
//! `[id] name [arguments]`, answered `=[id] text` or `?[id] message`, then an empty line. Blank
//! lines and lines starting with `#` get no answer. A failed command changes nothing. The loop
//! ([`Gtp::run`]) reads from any [`BufRead`] and writes to any [`Write`], so tests drive it with
//! strings and `mabula gtp` with stdin and stdout.
//!
//! ```
//! use mabula_engine::gtp::Gtp;
//! let mut out = Vec::new();
//! Gtp::new().run("1 setup 1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\n2 play b1-b4\nresult\n".as_bytes(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text, "=1\n\n=2\n\n= *\n\n");
//! ```

use crate::levels::{Level, MAX_LEVEL};
use crate::limits::Limits;
use crate::search::{Engine, EngineConfig};
use mabula::diagram::diagram;
use mabula::{Bitboard, Color, GameResult, Move, Position, Scoring, deal};
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Every command, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 20] = [
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
];

/// The state of a protocol session: the game, the settings and the engine.
pub struct Gtp {
    start: Position,
    moves: Vec<Move>,
    /// The position after `moves` (kept to avoid replaying).
    current: Position,
    scoring: Scoring,
    movetime: Duration,
    level: u8,
    /// Threads of level 10 (lower levels use one).
    threads: Option<usize>,
    /// The engine, kept between moves so that it reuses its tree; rebuilt when a setting changes.
    engine: Option<Engine>,
    /// Counts searches, so that each gets its own seed.
    searches: u64,
}

impl Default for Gtp {
    fn default() -> Gtp {
        Gtp::new()
    }
}

/// What a command answers.
type Answer = Result<String, String>;

impl Gtp {
    /// A session at the start of deal 0, largest-group scoring, level 10, one second per move.
    pub fn new() -> Gtp {
        let start = deal::random(0, Color::White);
        Gtp {
            start,
            moves: Vec::new(),
            current: start,
            scoring: Scoring::Largest,
            movetime: Duration::from_secs(1),
            level: MAX_LEVEL,
            threads: None,
            engine: None,
            searches: 0,
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
    /// input.
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        for line in input.lines() {
            let line = line?;
            let Some((id, answer, quit)) = self.execute(&line) else {
                continue;
            };
            let (mark, text) = match answer {
                Ok(text) => ('=', text),
                Err(text) => ('?', text),
            };
            if text.is_empty() || text.starts_with('\n') {
                write!(output, "{mark}{id}{text}\n\n")?;
            } else {
                write!(output, "{mark}{id} {text}\n\n")?;
            }
            output.flush()?;
            if quit {
                break;
            }
        }
        Ok(())
    }

    /// Executes one line: `None` for a blank or comment line, else the id, the answer and
    /// whether the session ends.
    pub fn execute(&mut self, line: &str) -> Option<(String, Answer, bool)> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let (id, rest) = match line.split_once(char::is_whitespace) {
            Some((first, rest)) if first.bytes().all(|b| b.is_ascii_digit()) => {
                (first, rest.trim())
            }
            _ if line.bytes().all(|b| b.is_ascii_digit()) => (line, ""),
            _ => ("", line),
        };
        let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let args = args.trim();
        let answer = self.command(name, args);
        Some((id.to_string(), answer, name == "quit" && args.is_empty()))
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
            "known_command" => Ok(COMMANDS.contains(&args).to_string()),
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
            "genmove" => self.genmove(args),
            "undo" => no_args(self.undo()),
            "scoring" => self.set_scoring(args),
            "score" => no_args(Ok(self.current.scores(self.scoring).to_string())),
            "result" => no_args(Ok(self.result().to_string())),
            "movetime" => self.set_movetime(args),
            "level" => self.set_level(args),
            "analyze" => no_args(Ok(self.analyze())),
            other => Err(format!("unknown command '{other}'")),
        }
    }

    fn reset(&mut self, start: Position) {
        self.start = start;
        self.current = start;
        self.moves.clear();
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

    fn play(&mut self, args: &str) -> Answer {
        if args.is_empty() {
            return Err("play needs a move, like b1-b4 or pass".into());
        }
        let mv: Move = args.parse().map_err(|e| format!("{e}"))?;
        let next = self.current.play(mv).map_err(|e| e.to_string())?;
        self.moves.push(mv);
        self.current = next;
        Ok(String::new())
    }

    fn genmove(&mut self, args: &str) -> Answer {
        if !args.is_empty() {
            let side = self.current.side_to_move();
            let named = match args.to_ascii_lowercase().as_str() {
                "w" | "white" => Color::White,
                "b" | "black" => Color::Black,
                _ => {
                    return Err(format!(
                        "'{args}' is not a colour: genmove takes no argument, or w or b"
                    ));
                }
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
        let mv = self.engine().choose(&pos, &limits);
        self.current.play_unchecked(mv);
        self.moves.push(mv);
        Ok(mv.to_string())
    }

    fn limits(&self) -> Limits {
        let level = Level::new(self.level, 0);
        Limits {
            time: Some(self.movetime),
            nodes: level.playouts,
            stop: None,
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.searches += 1;
        let (level, threads, scoring) = (self.level, self.threads, self.scoring);
        let engine = self.engine.get_or_insert_with(|| {
            let mut config = Level::new(level, 0).config;
            if level == MAX_LEVEL
                && let Some(t) = threads
            {
                config.threads = t;
            }
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
        let ms: u64 = args.parse().ok().filter(|&ms| ms > 0).ok_or_else(|| {
            format!("'{args}' is not a time: give milliseconds, like movetime 1000")
        })?;
        self.movetime = Duration::from_millis(ms);
        Ok(String::new())
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

    /// One line per legal move, best first: the move, its value for the side to move, and the
    /// principal line (the move first). Analysis is at full strength for the move time.
    fn analyze(&mut self) -> String {
        let pos = self.current;
        let limits = Limits::time(self.movetime);
        let analysis = if self.level == MAX_LEVEL {
            self.engine().analyze(&pos, &limits)
        } else {
            let mut config = EngineConfig {
                reuse: false,
                ..EngineConfig::default()
            };
            if let Some(t) = self.threads {
                config.threads = t;
            }
            Engine::new(config, self.scoring).analyze(&pos, &limits)
        };
        analysis
            .moves
            .iter()
            .map(|m| {
                let pv: Vec<String> = m.pv.iter().map(Move::to_string).collect();
                format!("{} {} {}", m.mv, m.value.token(), pv.join(" "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
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
