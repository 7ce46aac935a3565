//! Commands of the engine: the engine protocol, exact solving, analysis, matches and the search
//! bench. The work is in `mabula_engine`; this module reads arguments, shows progress on stderr
//! and prints results.

use crate::records;
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use mabula::{Color, Game, Move, Position, Scoring};
use mabula_engine::annotate::{self, Deepening, Report, Settings};
use mabula_engine::arena::{
    GameReport, GtpPlayer, MatchPlan, MatchStats, Player, PlayerError, PlayerSpec, run_match,
};
use mabula_engine::gtp::Gtp;
use mabula_engine::{EngineConfig, Limits, MoveAnalysis, SolveMode, Solver, Value};
use serde_json::json;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Engine commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Speak the engine protocol on stdin and stdout (RULES.md section 7, with the additions of
    /// docs/protocol.md: streaming analysis, clocks, options, records).
    Gtp {
        /// Threads of level 10 (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Solve a position exactly: the result, a best move and the principal line.
    Solve {
        /// The position string (quote it, or give its two parts as two arguments).
        #[arg(required = true, num_args = 1..)]
        position: Vec<String>,
        /// Find the exact final score margin, not only win, draw or loss.
        #[arg(long)]
        margin: bool,
        /// Give up after this many seconds.
        #[arg(long, value_name = "SECONDS")]
        time: Option<f64>,
        /// Scoring mode: largest or product.
        #[arg(long, default_value = "largest")]
        scoring: Scoring,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 256)]
        table_mb: usize,
        /// Threads sharing the table (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Print the solution as one JSON object on one line (see docs/cli.md).
        #[arg(long)]
        json: bool,
    },
    /// Analyse a position (every legal move with its value, visits and line), or annotate every
    /// move of a game record with the engine's value and its best alternative.
    ///
    /// One argument without a space is a record file; a file of several games (as `mabula match
    /// --records` writes) is annotated game by game, or only game N with --game N.
    Analyze {
        /// A position string (quoted, or as two arguments), or the path of a game record.
        #[arg(required = true, num_args = 1.., value_name = "POSITION|RECORD_FILE")]
        target: Vec<String>,
        /// In a file of several games, only game N (1 first).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
        /// Print JSON lines on stdout instead of tables and records (see docs/cli.md).
        #[arg(long, conflicts_with_all = ["output", "chart"])]
        json: bool,
        /// Thinking time per position, in seconds.
        #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
        time: f64,
        /// Scoring mode for a position (a record names its own).
        #[arg(long, default_value = "largest")]
        scoring: Scoring,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Write the annotated record here instead of to stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Also print the evaluation graph of a record (value for White after each move) as a
        /// small chart, on stderr when the record goes to stdout.
        #[arg(long)]
        chart: bool,
    },
    /// Play a match between two players on the same random setups with colours swapped, and
    /// print wins, draws, losses and the Elo difference.
    ///
    /// A player is an engine configuration (`level=N,movetime=MS,playouts=N,threads=N`, any
    /// subset; `practical=off` stops level 10 from hunting for the opponent's mistakes in proven
    /// draws and losses; `level=10-v1` is level 10 frozen as it stood before the learnt
    /// evaluation, to measure changes against), the baseline (`baseline-uct[,movetime=MS][,playouts=N]`), uniformly random moves
    /// (`random`), or an external engine speaking the protocol (`gtp:COMMAND LINE`, run by
    /// `sh -c`).
    Match {
        /// The first player.
        first: String,
        /// The second player.
        second: String,
        /// Number of games (pairs of games on one setup, colours swapped).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Scoring mode: largest or product.
        #[arg(long, default_value = "largest")]
        scoring: Scoring,
        /// Seed of the setups.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games at once (default: the cores divided by the threads a player uses).
        #[arg(long)]
        jobs: Option<usize>,
        /// Thinking time sent to external engines before each game, in milliseconds.
        #[arg(long, value_name = "MS")]
        gtp_movetime: Option<u64>,
        /// Write every game's record to this file.
        #[arg(long, value_name = "FILE")]
        records: Option<PathBuf>,
        /// Give up on an external engine that does not answer a command within this many
        /// seconds (beyond its thinking time).
        #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
        gtp_timeout: f64,
        /// Print progress and the result as JSON lines on stdout (see docs/cli.md).
        #[arg(long)]
        json: bool,
    },
    /// Run the fixed search bench: solver and tree-search node counts on a fixed position set
    /// (a changed count means changed behaviour), with their speed.
    EngineBench,
}

/// Runs an engine command.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Gtp { threads } => {
            let mut gtp = Gtp::new();
            if let Some(t) = threads {
                gtp = gtp.with_threads(t);
            }
            gtp.run(std::io::stdin().lock(), std::io::stdout())?;
            Ok(())
        }
        Command::Solve {
            position,
            margin,
            time,
            scoring,
            table_mb,
            threads,
            json,
        } => solve(
            &parse_position(&position)?,
            margin,
            time,
            scoring,
            table_mb,
            threads.unwrap_or(EngineConfig::default().threads),
            json,
        ),
        Command::Analyze {
            target,
            game,
            json,
            time,
            scoring,
            threads,
            output,
            chart,
        } => {
            let settings = Settings {
                time: Duration::from_secs_f64(time.max(0.001)),
                threads: threads.unwrap_or(EngineConfig::default().threads),
                ..Settings::default()
            };
            let out = Output { json, chart };
            match record_path(&target) {
                Some(path) => annotate_records(&path, game, &settings, output, out),
                None => {
                    if game.is_some() {
                        bail!("--game chooses a game of a record file, and a position was given");
                    }
                    analyze_position(&parse_position(&target)?, scoring, &settings, json)
                }
            }
        }
        Command::Match {
            first,
            second,
            games,
            scoring,
            seed,
            jobs,
            gtp_movetime,
            records,
            gtp_timeout,
            json,
        } => {
            let first: PlayerSpec = first.parse()?;
            let second: PlayerSpec = second.parse()?;
            let external = ExternalSettings {
                movetime: gtp_movetime.map(Duration::from_millis),
                timeout: Duration::from_secs_f64(gtp_timeout.clamp(0.001, 1e6)),
            };
            play_match(
                first, second, games, scoring, seed, jobs, external, records, json,
            )
        }
        Command::EngineBench => engine_bench(),
    }
}

fn parse_position(words: &[String]) -> Result<Position> {
    let text = words.join(" ");
    text.parse()
        .with_context(|| format!("bad position string '{text}'"))
}

/// The target names a record file when it is one word without a space (a position string has
/// a space before its side to move), or an existing file.
fn record_path(target: &[String]) -> Option<PathBuf> {
    match target {
        [one] if !one.trim().contains(char::is_whitespace) || Path::new(one).is_file() => {
            Some(PathBuf::from(one))
        }
        _ => None,
    }
}

/// How `analyze` prints.
#[derive(Copy, Clone)]
struct Output {
    json: bool,
    chart: bool,
}

fn spinner(message: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn solve(
    pos: &Position,
    margin: bool,
    time: Option<f64>,
    scoring: Scoring,
    table_mb: usize,
    threads: usize,
    json: bool,
) -> Result<()> {
    let mode = if margin {
        SolveMode::Margin
    } else {
        SolveMode::Result
    };
    let limits = Limits {
        time: time.map(Duration::from_secs_f64),
        ..Limits::none()
    };
    if !mabula_engine::tt::Table::fits(table_mb) {
        anyhow::bail!(
            "this machine cannot give a table of {table_mb} MB: give a smaller --table-mb"
        );
    }
    let edges = pos.edges_left();
    let bar = spinner(&format!("solving ({edges} marbles on edge spaces)"));
    if json {
        bar.finish_and_clear();
    }
    if !mabula_engine::tt::Table::fits(table_mb) {
        anyhow::bail!(
            "this machine cannot give a table of {table_mb} MB: give a smaller --table-mb"
        );
    }
    let mut solver = Solver::new(scoring, table_mb);
    let progress = bar.clone();
    let started = Instant::now();
    solver.on_progress(move |nodes| {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        progress.set_message(format!(
            "solving: {:.1} M nodes, {:.1} M nodes/s",
            nodes as f64 / 1e6,
            nodes as f64 / secs / 1e6
        ));
    });
    let solution = solver.solve_threads(pos, mode, &limits, threads);
    let elapsed = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let me = pos.side_to_move();
    if json {
        let result = sol_result(solution.as_ref().map(|s| s.value));
        let value = match &solution {
            Some(sol) => json!({
                "type": "solution",
                "position": pos.to_string(),
                "scoring": scoring.to_string(),
                "to_move": me.to_string(),
                "for": me.to_string(),
                "mode": if mode == SolveMode::Margin { "margin" } else { "result" },
                "solved": true,
                "result": result,
                "value": sol.value,
                "margin": (sol.mode == SolveMode::Margin).then_some(sol.value),
                "best": (!pos.is_game_over()).then(|| sol.best.to_string()),
                "pv": moves_json(&sol.pv),
                "nodes": sol.nodes,
                "seconds": elapsed,
            }),
            None => json!({
                "type": "solution",
                "position": pos.to_string(),
                "scoring": scoring.to_string(),
                "to_move": me.to_string(),
                "for": me.to_string(),
                "mode": if mode == SolveMode::Margin { "margin" } else { "result" },
                "solved": false,
                "result": null,
                "value": null,
                "margin": null,
                "best": null,
                "pv": [],
                "nodes": solver.nodes(),
                "seconds": elapsed,
            }),
        };
        println!("{value}");
        if solution.is_none() {
            bail!("not solved: the time limit ran out after {elapsed:.1} s");
        }
        return Ok(());
    }
    let Some(sol) = solution else {
        bail!(
            "not solved: the time limit ran out after {elapsed:.1} s and {} nodes",
            solver.nodes()
        );
    };
    let verdict = match (sol.mode, sol.value.signum()) {
        (_, 0) => format!("{me} to move draws"),
        (SolveMode::Result, 1) => format!("{me} to move wins"),
        (SolveMode::Result, _) => format!("{me} to move loses"),
        (SolveMode::Margin, 1) => format!("{me} to move wins by {}", sol.value),
        (SolveMode::Margin, _) => format!("{me} to move loses by {}", -sol.value),
    };
    println!("result    {verdict} ({scoring} scoring)");
    if pos.is_game_over() {
        println!("best move none: the game is over");
    } else {
        println!("best move {}", sol.best);
        println!("line      {}", line(&sol.pv));
    }
    println!(
        "nodes     {} in {elapsed:.2} s ({:.2} M nodes/s)",
        sol.nodes,
        sol.nodes as f64 / elapsed.max(1e-9) / 1e6
    );
    Ok(())
}

fn analyze_position(
    pos: &Position,
    scoring: Scoring,
    settings: &Settings,
    json: bool,
) -> Result<()> {
    if pos.is_game_over() && !json {
        let scores = pos.scores(scoring);
        println!("The game is over: {scores} ({scoring} scoring).");
        return Ok(());
    }
    let bar = spinner("thinking");
    if json {
        bar.finish_and_clear();
    }
    let settings = Settings {
        lines: usize::MAX,
        ..settings.clone()
    };
    let report = Deepening::new(scoring, &settings).run(pos, |r| {
        if json {
            println!("{}", report_json(pos, scoring, r));
        } else {
            bar.set_message(format!(
                "thinking: step {}, {} playouts",
                r.step, r.playouts
            ));
        }
    });
    bar.finish_and_clear();
    if !json {
        print!("{}", analysis_table(pos, scoring, &report));
    }
    Ok(())
}

/// `win`, `draw` or `loss` from a value's sign; `null` when there is none.
fn sol_result(value: Option<i32>) -> serde_json::Value {
    match value.map(i32::signum) {
        Some(1) => json!("win"),
        Some(0) => json!("draw"),
        Some(_) => json!("loss"),
        None => serde_json::Value::Null,
    }
}

fn moves_json(moves: &[Move]) -> serde_json::Value {
    moves.iter().map(Move::to_string).collect()
}

/// One move of an analysis as JSON, valued for `side` (the side to move of the position).
fn move_json(m: &MoveAnalysis, side: Color) -> serde_json::Value {
    let (exact, result, margin) = match m.value {
        Value::Exact { result, margin } => (true, sol_result(Some(i32::from(result))), margin),
        Value::Estimate(_) => (false, serde_json::Value::Null, None),
    };
    json!({
        "move": m.mv.to_string(),
        "for": side.to_string(),
        "value": m.value.token(),
        "exact": exact,
        "result": result,
        "margin": margin,
        "expected": m.value.expected(),
        "visits": m.visits,
        "pv": moves_json(&m.pv),
    })
}

/// One step of `analyze POSITION --json` (and an analysis line of the analysis service): every
/// value is for the side to move, named by `for`.
pub(crate) fn report_json(pos: &Position, scoring: Scoring, r: &Report) -> serde_json::Value {
    let side = pos.side_to_move();
    json!({
        "type": "analysis",
        "position": pos.to_string(),
        "scoring": scoring.to_string(),
        "to_move": side.to_string(),
        "for": side.to_string(),
        "step": r.step,
        "done": r.done,
        "seconds": r.elapsed.as_secs_f64(),
        "playouts": r.playouts,
        "expected": r.expected_for(side),
        "verdict": r.verdict.map(|v| json!({
            "winner": v.winner().map(|c| c.to_string()),
            "margin": v.exact_margin.then_some(match side {
                Color::White => v.white,
                Color::Black => -v.white,
            }),
        })),
        "moves": r.moves.iter().map(|m| move_json(m, side)).collect::<Vec<_>>(),
    })
}

/// The table `mabula analyze POSITION` prints.
fn analysis_table(pos: &Position, scoring: Scoring, r: &Report) -> String {
    let mut out = format!(
        "{pos}: {} to move, {scoring} scoring; {} playouts in {:.2} s\n",
        pos.side_to_move(),
        r.playouts,
        r.elapsed.as_secs_f64()
    );
    match r.verdict {
        Some(v) => out.push_str(&format!("solved exactly: {v}\n")),
        None => out.push_str(&format!(
            "value for White: {:.1}% (an estimate)\n",
            100.0 * r.white
        )),
    }
    out.push_str(&format!(
        "{:<8} {:>10} {:>10}  line\n",
        "move", "value", "visits"
    ));
    for m in &r.moves {
        out.push_str(&format!(
            "{:<8} {:>10} {:>10}  {}\n",
            m.mv.to_string(),
            m.value.to_string(),
            m.visits,
            line(&m.pv)
        ));
    }
    out
}

/// Annotates the games of a record file (all of them, or game `number`): see [`annotate_game`].
fn annotate_records(
    path: &Path,
    number: Option<usize>,
    settings: &Settings,
    output: Option<PathBuf>,
    out: Output,
) -> Result<()> {
    let games = match number {
        Some(n) => vec![(n, records::game(path, Some(n))?)],
        None => records::games(path)?,
    };
    let several = games.len() > 1;
    let mut texts = Vec::new();
    let mut charts = Vec::new();
    for (n, game) in games {
        let (record, chart) = annotate_game(game, n, settings, out)?;
        texts.push(record);
        if let Some(c) = chart {
            charts.push(if several { format!("game {n}\n{c}") } else { c });
        }
    }
    if out.json {
        return Ok(());
    }
    let record = texts.join("\n");
    match output {
        Some(file) => {
            std::fs::write(&file, record)
                .with_context(|| format!("cannot write {}", file.display()))?;
            print!("{}", charts.concat());
        }
        None => {
            print!("{record}");
            eprint!("{}", charts.concat());
        }
    }
    Ok(())
}

/// Annotates every move of a game with [`mabula_engine::annotate`], the code the server's
/// analysis board runs too: every position is analysed, and a move's value is the value of the
/// position it leads to, so that every move gets a full search and not a few visits. Answers the
/// annotated record and, when asked, the chart; with JSON, prints a line per move and one for
/// the game instead.
fn annotate_game(
    mut game: Game,
    number: usize,
    settings: &Settings,
    out: Output,
) -> Result<(String, Option<String>)> {
    let moves = game.moves().to_vec();
    let bar = ProgressBar::new(moves.len() as u64 + 1);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} positions, {elapsed_precise} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if out.json {
        bar.finish_and_clear();
    }
    let positions = game.positions();
    let mut deepening = Deepening::new(game.scoring(), settings);
    let mut reports: Vec<Report> = Vec::with_capacity(positions.len());
    let mut notes = Vec::with_capacity(moves.len());
    for (i, pos) in positions.iter().enumerate() {
        bar.set_position(i as u64);
        reports.push(deepening.run(pos, |_| {}));
        // The move that led here is noted as soon as the position it leads to is analysed, and
        // its JSON line written (and flushed) at once.
        let Some(before) = i.checked_sub(1) else {
            continue;
        };
        let Some(mut note) = annotate::annotate(
            &positions[before..=i],
            &moves[before..i],
            &reports[before..=i],
            game.scoring(),
        )
        .pop() else {
            continue;
        };
        note.index = before;
        if out.json {
            println!(
                "{}",
                json!({
                    "type": "annotated_move",
                    "game": number,
                    "index": note.index,
                    "number": game.move_number(note.index),
                    "move": note.played.to_string(),
                    "mover": note.mover.to_string(),
                    "for": note.mover.to_string(),
                    "value": note.value.token(),
                    "expected": note.value.expected(),
                    "best": note.best.as_ref().map(|m| move_json(m, note.mover)),
                    "loss": note.loss,
                    "judgement": note.judgement.name(),
                })
            );
        }
        notes.push(note);
    }
    bar.finish_and_clear();
    for note in &notes {
        let merged = match game.comment(note.index) {
            Some(old) => format!("{old}; {}", note.comment()),
            None => note.comment(),
        };
        game.set_comment(note.index, &merged);
    }
    game.set_tag(
        "Annotator",
        &format!("mabula-engine {}", env!("CARGO_PKG_VERSION")),
    );
    let record = game.to_string();
    let values = annotate::white_values(&reports);
    if out.json {
        println!(
            "{}",
            json!({
                "type": "annotated_game",
                "game": number,
                "move_count": moves.len(),
                "result": game.result().to_string(),
                "for": "white",
                "values": values,
                "record": record,
            })
        );
    }
    let graph = out.chart.then(|| crate::chart::chart(&values, &notes, 11));
    Ok((record, graph))
}

/// How external engines are run in a match.
#[derive(Copy, Clone, Debug)]
struct ExternalSettings {
    /// Thinking time sent before each game.
    movetime: Option<Duration>,
    /// How long an answer may take beyond the thinking time.
    timeout: Duration,
}

/// The output of an external engine, read on a thread of its own so that waiting for an answer
/// can give up: a read that gets nothing within the timeout fails with `TimedOut`.
struct TimedReader {
    chunks: Receiver<Vec<u8>>,
    /// What was received and not yet read.
    pending: Vec<u8>,
    timeout: Duration,
}

impl TimedReader {
    fn new(mut from: impl Read + Send + 'static, timeout: Duration) -> TimedReader {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match from.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        TimedReader {
            chunks: rx,
            pending: Vec::new(),
            timeout,
        }
    }
}

impl Read for TimedReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.chunks.recv_timeout(self.timeout) {
                Ok(chunk) => self.pending = chunk,
                Err(RecvTimeoutError::Disconnected) => return Ok(0),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        format!(
                            "no answer within {:.1} s (see --gtp-timeout)",
                            self.timeout.as_secs_f64()
                        ),
                    ));
                }
            }
        }
        let n = self.pending.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// An external engine in its own process.
struct External {
    gtp: GtpPlayer<BufReader<TimedReader>, ChildStdin>,
    child: Child,
}

impl External {
    fn start(command: &str, settings: ExternalSettings) -> Result<External, PlayerError> {
        let io = |error| PlayerError::Io {
            name: command.to_string(),
            error,
        };
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(io)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(io(std::io::Error::other("no pipes to the engine")));
        };
        let timeout = settings.timeout + settings.movetime.unwrap_or(Duration::ZERO);
        let reader = BufReader::new(TimedReader::new(stdout, timeout));
        let gtp = GtpPlayer::new(command, reader, stdin, settings.movetime);
        let mut external = External { gtp, child };
        external.gtp.command("protocol_version")?;
        Ok(external)
    }
}

impl Player for External {
    fn name(&self) -> String {
        self.gtp.name()
    }
    fn new_game(&mut self, start: &Position, scoring: Scoring) -> Result<(), PlayerError> {
        self.gtp.new_game(start, scoring)
    }
    fn genmove(&mut self, pos: &Position) -> Result<Move, PlayerError> {
        self.gtp.genmove(pos)
    }
    fn observe(&mut self, mv: Move) -> Result<(), PlayerError> {
        self.gtp.observe(mv)
    }
    /// An engine whose process ended is said to have exited (with its status), whatever the
    /// pipe said ("Broken pipe", an output closed); one that is still running is described by
    /// the error itself (a `?` answer, no answer in time).
    fn failure(&mut self, error: &PlayerError) -> String {
        // A broken pipe is seen a moment before the process is reaped.
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    let how = match status.code() {
                        Some(code) => format!("with status {code}"),
                        None => status.to_string(), // "signal: 9 (SIGKILL)"
                    };
                    return format!("engine {} exited ({how})", self.gtp.name());
                }
                Ok(None) if Instant::now() < deadline && dying(error) => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return error.to_string(),
            }
        }
    }
}

/// Whether an error looks like the engine's process went away (so that waiting for it to be
/// reaped is worth it).
fn dying(error: &PlayerError) -> bool {
    match error {
        PlayerError::Io { error, .. } => matches!(
            error.kind(),
            std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::UnexpectedEof
        ),
        PlayerError::Refused { answer, .. } => answer.starts_with("the engine closed its output"),
        _ => false,
    }
}

impl Drop for External {
    fn drop(&mut self) {
        // Sent without waiting for the answer: an engine that stopped answering would make
        // the match wait out the timeout once more.
        let _ = self.gtp.send("quit");
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

fn make_player(
    spec: &PlayerSpec,
    seed: u64,
    external: ExternalSettings,
) -> Result<Box<dyn Player>, PlayerError> {
    match spec {
        PlayerSpec::Gtp(command) => Ok(Box::new(External::start(command, external)?)),
        _ => spec.player(seed).ok_or_else(|| PlayerError::Io {
            name: spec.to_string(),
            error: std::io::Error::other("not an engine"),
        }),
    }
}

#[allow(clippy::too_many_arguments)]
fn play_match(
    first: PlayerSpec,
    second: PlayerSpec,
    games: usize,
    scoring: Scoring,
    seed: u64,
    jobs: Option<usize>,
    external: ExternalSettings,
    records: Option<PathBuf>,
    json: bool,
) -> Result<()> {
    if games == 0 {
        bail!("a match needs at least one game");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = first.threads().max(second.threads());
    let jobs = jobs.unwrap_or((cores / threads).max(1)).min(games);
    if jobs * threads > cores {
        eprintln!(
            "warning: {jobs} games at once with {threads} thread(s) each on {cores} cores: \
             timed players get less than their time"
        );
    }
    let plan = MatchPlan {
        games,
        scoring,
        seed,
        jobs,
    };
    let bar = if json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed_precise} (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stats = Mutex::new(MatchStats::default());
    // Without a terminal the bar is hidden: a line every tenth of the match shows progress in a
    // log instead.
    let plain = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let step = games.div_ceil(10);
    let on_game = |report: &GameReport| {
        if let Ok(mut s) = stats.lock() {
            s.add(report.game.result(), report.first_color);
            let line = format!("first player +{} ={} -{}", s.wins, s.draws, s.losses);
            let done = s.games() as usize;
            if json {
                println!(
                    "{}",
                    json!({
                        "type": "match_game",
                        "index": report.index,
                        "done": done,
                        "games": games,
                        "first_color": report.first_color.to_string(),
                        "result": report.game.result().to_string(),
                        "move_count": report.game.moves().len(),
                        "wins": s.wins,
                        "draws": s.draws,
                        "losses": s.losses,
                        "termination": report.game.tag("Termination"),
                    })
                );
            } else if let Some(why) = report.game.tag("Termination") {
                bar.suspend(|| eprintln!("game {}: {why}", report.index + 1));
            }
            if !json && plain && (done.is_multiple_of(step) || done == games) {
                eprintln!("{done}/{games} games, {line}");
            }
            bar.set_message(line);
        }
        bar.inc(1);
    };
    let started = Instant::now();
    let reports = run_match(
        &plan,
        |s| make_player(&first, s, external),
        |s| make_player(&second, s, external),
        &on_game,
    )?;
    bar.finish_and_clear();
    let stats = stats.into_inner().unwrap_or_default();
    if json {
        let (lo, elo, hi) = stats.elo();
        let finite = |x: f64| x.is_finite().then_some(x);
        println!(
            "{}",
            json!({
                "type": "summary",
                "first": first.to_string(),
                "second": second.to_string(),
                "games": stats.games(),
                "scoring": scoring.to_string(),
                "seed": seed,
                "jobs": jobs,
                "seconds": started.elapsed().as_secs_f64(),
                "wins": stats.wins,
                "draws": stats.draws,
                "losses": stats.losses,
                "score": stats.score(),
                "elo": finite(elo),
                "elo_low": finite(lo),
                "elo_high": finite(hi),
            })
        );
    } else {
        print!(
            "{}",
            match_table(&first, &second, &stats, &plan, started.elapsed())
        );
    }
    if let Some(path) = records {
        let mut file = std::fs::File::create(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        for r in &reports {
            let mut game = r.game.clone();
            game.set_tag("Event", &format!("mabula match: {first} vs {second}"));
            game.set_tag("Round", &(r.index + 1).to_string());
            writeln!(file, "{game}")?;
        }
    }
    Ok(())
}

fn match_table(
    first: &PlayerSpec,
    second: &PlayerSpec,
    s: &MatchStats,
    plan: &MatchPlan,
    elapsed: Duration,
) -> String {
    let (a, b) = (first.to_string(), second.to_string());
    let width = a.len().max(b.len()).max(6);
    let mut out = format!(
        "{} games, {} scoring, setups from seed {}, {} at once, {:.0} s\n",
        s.games(),
        plan.scoring,
        plan.seed,
        plan.jobs,
        elapsed.as_secs_f64()
    );
    out.push_str(&format!(
        "{:<width$} {:>5} {:>5} {:>5} {:>7}\n",
        "player", "wins", "draws", "losses", "score"
    ));
    out.push_str(&format!(
        "{a:<width$} {:>5} {:>5} {:>5} {:>6.1}%\n",
        s.wins,
        s.draws,
        s.losses,
        100.0 * s.score()
    ));
    out.push_str(&format!(
        "{b:<width$} {:>5} {:>5} {:>5} {:>6.1}%\n",
        s.losses,
        s.draws,
        s.wins,
        100.0 * (1.0 - s.score())
    ));
    let (lo, elo, hi) = s.elo();
    let show = |x: f64| {
        if x.is_finite() {
            format!("{x:+.0}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    out.push_str(&format!(
        "Elo difference of the first player: {} (95% interval {} to {})\n",
        show(elo),
        show(lo),
        show(hi)
    ));
    out
}

fn engine_bench() -> Result<()> {
    let report = mabula_engine::bench::run();
    print!("{report}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::Color;

    #[test]
    fn the_position_table_lists_every_move() {
        let pos = mabula::deal::random(1, Color::White);
        let settings = Settings {
            time: Duration::from_millis(40),
            threads: 1,
            lines: usize::MAX,
            ..Settings::default()
        };
        let report = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
        let table = analysis_table(&pos, Scoring::Largest, &report);
        assert!(table.contains("value for White: "), "{table}");
        assert_eq!(
            table.lines().count(),
            3 + pos.legal_moves().len(),
            "{table}"
        );
    }
}
