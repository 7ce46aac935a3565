//! `mabula puzzles`: finding puzzles proven by the solver (`generate`), and proving a puzzles
//! file again (`check`). The puzzles themselves are `mabula_engine::puzzle`'s.

use crate::records;
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use mabula::{Color, Position, Scoring};
use mabula_engine::Solver;
use mabula_engine::limits::Limits;
use mabula_engine::puzzle::{self, Puzzle};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// Puzzle commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Puzzles proven by the solver: find them, or prove a file of them again (docs/cli.md).
    Puzzles {
        #[command(subcommand)]
        command: Puzzles,
    },
}

/// What `mabula puzzles` does.
#[derive(clap::Subcommand)]
pub enum Puzzles {
    /// Find puzzles in the late positions of games: record files (--from), or games the engine
    /// plays against itself (--games). One line per puzzle on the output (docs/cli.md).
    Generate {
        /// Record files whose games are searched (PGN-shaped, one or more games each).
        #[arg(long)]
        from: Vec<PathBuf>,
        /// Games of the engine against itself to search (from deals drawn from --seed).
        #[arg(long, default_value_t = 0)]
        games: u32,
        /// The engine's level in those games.
        #[arg(long, default_value_t = 6)]
        level: u8,
        /// `largest`, `product` or `both` (self-play games are searched in each).
        #[arg(long, default_value = "both")]
        scoring: String,
        /// The first deal's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where the puzzles go (appended; puzzles already in it are not written again).
        /// Default: standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Prove every puzzle of FILE again; exit status 1 if one does not hold.
    Check {
        /// A file written by `mabula puzzles generate`.
        file: PathBuf,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
}

/// Runs a puzzles command.
pub fn run(cmd: Command) -> Result<()> {
    let Command::Puzzles { command } = cmd;
    match command {
        Puzzles::Generate {
            from,
            games,
            level,
            scoring,
            seed,
            out,
            threads,
        } => {
            let modes = match scoring.as_str() {
                "both" => vec![Scoring::Largest, Scoring::Product],
                s => vec![s.parse::<Scoring>().map_err(|e| anyhow::anyhow!("{e}"))?],
            };
            if !(1..=10).contains(&level) {
                bail!("--level is 1 to 10");
            }
            let jobs = jobs(&from, games, level, seed, &modes)?;
            if jobs.is_empty() {
                bail!("nothing to search: give --from FILE or --games N");
            }
            generate(jobs, out, threads)
        }
        Puzzles::Check { file, threads } => check(&file, threads),
    }
}

/// A game to search, in one scoring mode.
enum Job {
    /// A recorded game's positions from [`puzzle::MAX_EDGES`] marbles left to the end.
    Recorded(Scoring, Vec<Position>),
    /// A game the engine plays against itself from a deal, at a level, with a seed.
    SelfPlay(Scoring, Position, u8, u64),
}

impl Job {
    fn scoring(&self) -> Scoring {
        match *self {
            Job::Recorded(s, _) | Job::SelfPlay(s, ..) => s,
        }
    }

    /// The positions to search (a self-play game is played here).
    fn positions(self) -> Vec<Position> {
        match self {
            Job::Recorded(_, positions) => positions,
            Job::SelfPlay(scoring, deal, level, seed) => self_play(deal, scoring, level, seed),
        }
    }
}

/// Every game to search.
fn jobs(from: &[PathBuf], games: u32, level: u8, seed: u64, modes: &[Scoring]) -> Result<Vec<Job>> {
    let mut jobs = Vec::new();
    for path in from {
        for (_, game) in records::games(path)? {
            let mut pos = *game.start();
            let mut positions = Vec::new();
            for &mv in game.moves() {
                if pos.edges_left() <= puzzle::MAX_EDGES {
                    positions.push(pos);
                }
                pos = pos.play(mv).context("a recorded move is illegal")?;
            }
            jobs.push(Job::Recorded(game.scoring(), positions));
        }
    }
    for i in 0..u64::from(games) {
        let game_seed = seed.wrapping_add(i);
        let deal = mabula::deal::random(game_seed, Color::White);
        for &scoring in modes {
            jobs.push(Job::SelfPlay(scoring, deal, level, game_seed));
        }
    }
    Ok(jobs)
}

/// The positions of a self-play game from `deal` at `level`, from [`puzzle::MAX_EDGES`]
/// marbles left to the end.
fn self_play(deal: Position, scoring: Scoring, level: u8, seed: u64) -> Vec<Position> {
    let mut pos = deal;
    let mut out = Vec::new();
    let mut ply = 0u64;
    while !pos.is_game_over() {
        if pos.edges_left() <= puzzle::MAX_EDGES {
            out.push(pos);
        }
        let mv = mabula_engine::choose_move(&pos, scoring, level, None, seed ^ ply);
        pos.play_unchecked(mv);
        ply += 1;
    }
    out
}

/// `--threads`, or every core.
fn thread_count(threads: Option<usize>) -> usize {
    threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1)
}

/// Searches the jobs on `threads` threads and writes each new puzzle once.
fn generate(jobs: Vec<Job>, out: Option<PathBuf>, threads: Option<usize>) -> Result<()> {
    let threads = thread_count(threads);
    let mut seen = HashSet::new();
    let mut sink: Box<dyn Write + Send> = match &out {
        Some(path) => {
            if let Ok(text) = std::fs::read_to_string(path) {
                for line in text.lines() {
                    if let Some(id) = line.split('\t').next() {
                        seen.insert(id.to_string());
                    }
                }
            }
            Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open {}", path.display()))?,
            )
        }
        None => Box::new(std::io::stdout()),
    };
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let found = Mutex::new((seen, 0u32));
    let next = Mutex::new(jobs.into_iter());
    let written: Mutex<Result<()>> = Mutex::new(Ok(()));
    let sink = Mutex::new(&mut sink);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut solvers = [
                    Solver::new(Scoring::Largest, 64),
                    Solver::new(Scoring::Product, 64),
                ];
                let limits = Limits::none();
                loop {
                    let Some(job) = next.lock().expect("lock").next() else {
                        break;
                    };
                    let solver = &mut solvers[usize::from(job.scoring() == Scoring::Product)];
                    for pos in job.positions() {
                        let Some(p) = puzzle::find(solver, &pos, &limits) else {
                            continue;
                        };
                        let mut f = found.lock().expect("lock");
                        if f.0.insert(p.id()) {
                            f.1 += 1;
                            bar.set_message(format!("{} puzzles", f.1));
                            let mut s = sink.lock().expect("lock");
                            if let Err(e) = writeln!(s, "{}", p.to_line()) {
                                *written.lock().expect("lock") = Err(e.into());
                            }
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    let total = found.lock().expect("lock").1;
    eprintln!("{total} new puzzles");
    written.into_inner().expect("lock")
}

/// Proves every puzzle of `file` again, on `threads` threads.
fn check(file: &Path, threads: Option<usize>) -> Result<()> {
    let text = records::read_text(file)?;
    let lines: Vec<(usize, Puzzle)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            Puzzle::line(l)
                .map(|p| (n + 1, p))
                .with_context(|| format!("line {}", n + 1))
        })
        .collect::<Result<_>>()?;
    let bar = ProgressBar::new(lines.len() as u64);
    let next = Mutex::new(lines.iter());
    let bad = Mutex::new(0usize);
    let timed_out = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..thread_count(threads) {
            scope.spawn(|| {
                let mut solvers = [
                    Solver::new(Scoring::Largest, 64),
                    Solver::new(Scoring::Product, 64),
                ];
                loop {
                    let Some((n, p)) = next.lock().expect("lock").next() else {
                        break;
                    };
                    let solver = &mut solvers[usize::from(p.scoring == Scoring::Product)];
                    let limits = Limits::time(Duration::from_secs(60));
                    match puzzle::verify(solver, p, &limits) {
                        Some(true) => {}
                        Some(false) => {
                            // Not `println`, which a hidden bar (no terminal) drops.
                            bar.suspend(|| eprintln!("line {n}: {} does not hold", p.id()));
                            *bad.lock().expect("lock") += 1;
                        }
                        None => *timed_out.lock().expect("lock") = Some(*n),
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(n) = timed_out.into_inner().expect("lock") {
        bail!("line {n}: the solver ran out of time");
    }
    let bad = bad.into_inner().expect("lock");
    if bad > 0 {
        bail!("{bad} of {} puzzles do not hold", lines.len());
    }
    eprintln!("all {} puzzles hold", lines.len());
    Ok(())
}
