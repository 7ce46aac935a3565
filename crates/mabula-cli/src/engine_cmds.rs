//! Commands of the engine: the engine protocol, exact solving, analysis, matches and the search
//! bench. The work is in `mabula_engine`; this module reads arguments, shows progress on stderr
//! and prints results.

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use mabula::{Bitboard, Game, Move, Position, Scoring};
use mabula_engine::annotate::{self, Deepening, Report, Settings};
use mabula_engine::arena::{
    GameReport, GtpPlayer, MatchPlan, MatchStats, Player, PlayerError, PlayerSpec, run_match,
};
use mabula_engine::gtp::Gtp;
use mabula_engine::{EngineConfig, Limits, SolveMode, Solver};
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command as Process, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Engine commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Speak the engine protocol on stdin and stdout (RULES.md section 7).
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
    },
    /// Analyse a position (every legal move with its value, visits and line), or annotate every
    /// move of a game record with the engine's value and its best alternative.
    Analyze {
        /// A position string, or the path of a game record.
        #[arg(required = true, num_args = 1.., value_name = "POSITION|RECORD_FILE")]
        target: Vec<String>,
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
    /// draws and losses), the baseline (`baseline-uct[,movetime=MS][,playouts=N]`), uniformly random moves
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
            gtp.run(std::io::stdin().lock(), std::io::stdout().lock())?;
            Ok(())
        }
        Command::Solve {
            position,
            margin,
            time,
            scoring,
            table_mb,
            threads,
        } => solve(
            &parse_position(&position)?,
            margin,
            time,
            scoring,
            table_mb,
            threads.unwrap_or(EngineConfig::default().threads),
        ),
        Command::Analyze {
            target,
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
            match record_path(&target) {
                Some(path) => annotate_record(&path, &settings, output, chart),
                None => analyze_position(&parse_position(&target)?, scoring, &settings),
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
        } => {
            let first: PlayerSpec = first.parse()?;
            let second: PlayerSpec = second.parse()?;
            let gtp_movetime = gtp_movetime.map(Duration::from_millis);
            play_match(
                first,
                second,
                games,
                scoring,
                seed,
                jobs,
                gtp_movetime,
                records,
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

/// The target names a record when it is one word naming an existing file.
fn record_path(target: &[String]) -> Option<PathBuf> {
    match target {
        [one] if std::path::Path::new(one).is_file() => Some(PathBuf::from(one)),
        _ => None,
    }
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
    let edges = (pos.occupied() & Bitboard::EDGE).count();
    let bar = spinner(&format!("solving ({edges} marbles on edge spaces)"));
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

fn analyze_position(pos: &Position, scoring: Scoring, settings: &Settings) -> Result<()> {
    if pos.is_game_over() {
        let scores = pos.scores(scoring);
        println!("The game is over: {scores} ({scoring} scoring).");
        return Ok(());
    }
    let bar = spinner("thinking");
    let settings = Settings {
        lines: usize::MAX,
        ..settings.clone()
    };
    let report = Deepening::new(scoring, &settings).run(pos, |r| {
        bar.set_message(format!(
            "thinking: step {}, {} playouts",
            r.step, r.playouts
        ));
    });
    bar.finish_and_clear();
    print!("{}", analysis_table(pos, scoring, &report));
    Ok(())
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

/// Annotates every move of a record with [`mabula_engine::annotate`], the code the server's
/// analysis board runs too: every position is analysed, and a move's value is the value of the
/// position it leads to, so that every move gets a full search and not a few visits.
fn annotate_record(
    path: &PathBuf,
    settings: &Settings,
    output: Option<PathBuf>,
    chart: bool,
) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut game =
        Game::parse(&text).with_context(|| format!("{} is not a valid record", path.display()))?;
    let moves = game.moves().to_vec();
    let bar = ProgressBar::new(moves.len() as u64 + 1);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} positions, {elapsed_precise} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let positions = game.positions();
    let mut deepening = Deepening::new(game.scoring(), settings);
    let mut reports = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        bar.set_position(i as u64);
        reports.push(deepening.run(pos, |_| {}));
    }
    bar.finish_and_clear();
    let notes = annotate::annotate(&positions, &moves, &reports, game.scoring());
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
    let graph = chart.then(|| annotate::chart(&annotate::white_values(&reports), &notes, 11));
    match output {
        Some(out) => {
            std::fs::write(&out, record)
                .with_context(|| format!("cannot write {}", out.display()))?;
            if let Some(g) = graph {
                print!("{g}");
            }
        }
        None => {
            print!("{record}");
            if let Some(g) = graph {
                eprint!("{g}");
            }
        }
    }
    Ok(())
}

/// An external engine in its own process.
struct External {
    gtp: GtpPlayer<BufReader<ChildStdout>, ChildStdin>,
    child: Child,
}

impl External {
    fn start(command: &str, movetime: Option<Duration>) -> Result<External, PlayerError> {
        let io = |source| PlayerError::Io {
            name: command.to_string(),
            source,
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
        let mut gtp = GtpPlayer::new(command, BufReader::new(stdout), stdin, movetime);
        gtp.command("protocol_version")?;
        Ok(External { gtp, child })
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
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.gtp.command("quit");
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
    gtp_movetime: Option<Duration>,
) -> Result<Box<dyn Player>, PlayerError> {
    match spec {
        PlayerSpec::Gtp(command) => Ok(Box::new(External::start(command, gtp_movetime)?)),
        _ => spec.player(seed).ok_or_else(|| PlayerError::Io {
            name: spec.to_string(),
            source: std::io::Error::other("not an engine"),
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
    gtp_movetime: Option<Duration>,
    records: Option<PathBuf>,
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
    let bar = ProgressBar::new(games as u64);
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
            if plain && (done.is_multiple_of(step) || done == games) {
                eprintln!("{done}/{games} games, {line}");
            }
            bar.set_message(line);
        }
        bar.inc(1);
    };
    let started = Instant::now();
    let reports = run_match(
        &plan,
        |s| make_player(&first, s, gtp_movetime),
        |s| make_player(&second, s, gtp_movetime),
        &on_game,
    )?;
    bar.finish_and_clear();
    let stats = stats.into_inner().unwrap_or_default();
    print!(
        "{}",
        match_table(&first, &second, &stats, &plan, started.elapsed())
    );
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
