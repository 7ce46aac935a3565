//! Commands that train the learnt evaluation: `mabula train label`, `fit` and `eval` (built only
//! with the `learn` feature). The work is in `mabula_engine::learn`; this module reads arguments,
//! owns the files and the threads, and shows progress on stderr.

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use mabula::Scoring;
use mabula_engine::eval::model::Model;
use mabula_engine::learn::labels::{self, HEADER, Label, LabelRun};
use mabula_engine::learn::model::{Agreement, FitSettings, Sample, fit, held_out};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Training commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Label positions, fit the evaluation model and measure it.
    Train {
        #[command(subcommand)]
        command: Train,
    },
}

/// What `mabula train` does.
#[derive(clap::Subcommand)]
pub enum Train {
    /// Label realistic positions exactly with the solver, appending to a label file until it
    /// holds `--positions` records (a rerun resumes where the file ends, with the same labels).
    Label {
        /// Scoring mode: largest or product.
        #[arg(long, default_value = "largest")]
        scoring: Scoring,
        /// Marbles left on edge spaces in each position.
        #[arg(long)]
        left: u32,
        /// The label file (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// How many labels the file should hold when done.
        #[arg(long)]
        positions: u64,
        /// Seed of the run (keep it when resuming).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Solve for win, draw or loss only (several times faster; the margin byte holds the
        /// result). Keep one mode per file.
        #[arg(long)]
        result_only: bool,
        /// Solver table per label, in MB.
        #[arg(long, default_value_t = 8)]
        table_mb: usize,
        /// A backward stage: label by a shallow search whose leaves these weights evaluate
        /// (weights fitted on positions `--depth` pushes later), not by the solver. The labels
        /// are results (-1, 0, 1) with source "search".
        #[arg(long, value_name = "WEIGHTS", conflicts_with = "result_only")]
        backward: Option<PathBuf>,
        /// Pushes the backward search looks ahead.
        #[arg(long, default_value_t = 2, requires = "backward")]
        depth: u32,
        /// With `--backward`: draw each label from the search's loss, draw and win
        /// probabilities instead of taking the most likely result, so that the next stage
        /// fitted on them keeps the model's uncertainty. Keep one way per file.
        #[arg(long, requires = "backward")]
        drawn: bool,
    },
    /// Fit the evaluation model to label files (nine in ten labels by hash; the others are held
    /// out) and write its weights.
    Fit {
        /// Label files.
        #[arg(required = true)]
        labels: Vec<PathBuf>,
        /// Where to write the weights.
        #[arg(long, default_value = "crates/mabula-engine/weights/eval.bin")]
        out: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 600)]
        epochs: usize,
        /// Step size.
        #[arg(long, default_value_t = 0.05)]
        rate: f32,
        /// L2 penalty.
        #[arg(long, default_value_t = 1e-4)]
        l2: f32,
    },
    /// Report how often the model's most likely result agrees with the solver's, on the held-out
    /// labels, by scoring mode and marbles left.
    Eval {
        /// Label files.
        #[arg(required = true)]
        labels: Vec<PathBuf>,
        /// A weights file (default: the weights built into the engine).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Use every label, not only the held-out ones.
        #[arg(long)]
        all: bool,
    },
    /// Compare the results of two label files record by record (the same run's positions
    /// labelled two ways, such as a backward stage's search and the exact solver).
    Agree {
        /// The labels to check.
        labels: PathBuf,
        /// The labels taken as the truth.
        truth: PathBuf,
    },
}

/// Runs a training command.
pub fn run(cmd: Command) -> Result<()> {
    let Command::Train { command } = cmd;
    match command {
        Train::Label {
            scoring,
            left,
            out,
            positions,
            seed,
            threads,
            result_only,
            table_mb,
            backward,
            depth,
            drawn,
        } => {
            let how = match backward {
                Some(path) => How::Search {
                    model: read_weights(&path)?,
                    depth,
                    drawn,
                },
                None => How::Solver { table_mb },
            };
            label(
                &LabelRun {
                    scoring,
                    left,
                    seed,
                    result_only,
                },
                &how,
                &out,
                positions,
                threads.unwrap_or_else(cores),
            )
        }
        Train::Fit {
            labels,
            out,
            epochs,
            rate,
            l2,
        } => fit_cmd(&labels, &out, &FitSettings { epochs, rate, l2 }),
        Train::Eval {
            labels,
            weights,
            all,
        } => eval_cmd(&labels, weights.as_deref(), all),
        Train::Agree { labels, truth } => agree_cmd(&labels, &truth),
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Opens a label file for appending: writes the header of a new file, checks the header of an
/// old one, cuts off a partial last record, and returns the records it already holds.
fn open_for_append(path: &Path) -> Result<(File, u64)> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let len = file.metadata()?.len();
    if len == 0 {
        file.write_all(&HEADER)?;
        return Ok((file, 0));
    }
    let mut header = [0u8; HEADER.len()];
    file.read_exact(&mut header)
        .ok()
        .filter(|()| header == HEADER)
        .with_context(|| format!("{} is not a label file", path.display()))?;
    let count = labels::records_in(len);
    let whole = HEADER.len() as u64 + count * labels::RECORD_BYTES as u64;
    if whole != len {
        file.set_len(whole)?;
    }
    file.seek(SeekFrom::End(0))?;
    Ok((file, count))
}

/// How positions are labelled.
enum How {
    /// Exactly, by a fresh solver with this table (MB) for each.
    Solver { table_mb: usize },
    /// By a shallow search with a model at its leaves (a backward stage).
    Search {
        model: Model,
        depth: u32,
        drawn: bool,
    },
}

impl How {
    fn label(&self, run: &LabelRun, index: u64) -> Label {
        match self {
            How::Solver { table_mb } => run.label(index, *table_mb),
            How::Search {
                model,
                depth,
                drawn,
            } => run.label_by_search(index, model, *depth, *drawn),
        }
    }
}

fn read_weights(path: &Path) -> Result<Model> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Model::from_bytes(&bytes).with_context(|| format!("cannot read {}", path.display()))
}

fn label(run: &LabelRun, how: &How, out: &Path, positions: u64, threads: usize) -> Result<()> {
    if run.left > 22 {
        bail!("--left must be at most 22 (a position needs a few pushes behind it)");
    }
    let (file, done) = open_for_append(out)?;
    if done >= positions {
        eprintln!("{} already holds {done} labels", out.display());
        return Ok(());
    }
    let threads = threads.max(1);
    let bar = ProgressBar::new(positions);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} labels, {per_sec}, {elapsed_precise} (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done);
    bar.reset_eta();
    let plain = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let next = AtomicU64::new(done);
    let (send, receive) = mpsc::channel::<(u64, Label)>();
    let started = Instant::now();
    let mut file = file;
    // Whole records only reach the file, a few seconds' worth at a time, so that a copy taken
    // at any moment (a commit of the growing file) ends on a record boundary.
    let mut buffer = Vec::new();
    let mut stats = [0u64; 3];
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= positions {
                        break;
                    }
                    if send.send((index, how.label(run, index))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Records are written in index order, so that record `i` is always label `i` of the run.
        let mut waiting = BTreeMap::new();
        let mut written = done;
        let mut last_flush = Instant::now();
        let mut last_line = Instant::now();
        for (index, label) in receive {
            waiting.insert(index, label);
            while let Some(label) = waiting.remove(&written) {
                buffer.extend_from_slice(&label.encode());
                stats[(label.result() + 1) as usize] += 1;
                written += 1;
                bar.set_position(written);
            }
            bar.set_message(format!(
                "mover wins {} draws {} loses {}",
                stats[2], stats[1], stats[0]
            ));
            if last_flush.elapsed() > Duration::from_secs(5) {
                file.write_all(&buffer)?;
                buffer.clear();
                last_flush = Instant::now();
            }
            if plain && last_line.elapsed() > Duration::from_secs(60) {
                let new = written - done;
                let rate = new as f64 / started.elapsed().as_secs_f64();
                eprintln!(
                    "{written}/{positions} labels, {rate:.2}/s, mover wins {} draws {} loses {}",
                    stats[2], stats[1], stats[0]
                );
                last_line = Instant::now();
            }
        }
        file.write_all(&buffer)?;
        Ok(())
    })?;
    bar.finish();
    let new = positions - done;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{new} labels in {secs:.0} s ({:.1} ms a label on {threads} thread(s)); {} holds {positions}",
        1000.0 * secs * threads as f64 / new as f64,
        out.display()
    );
    Ok(())
}

/// Reads every label of the given files.
fn read_all(paths: &[PathBuf]) -> Result<Vec<Label>> {
    let mut out = Vec::new();
    for path in paths {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let labels = labels::read_labels(std::io::BufReader::new(file))
            .with_context(|| format!("cannot read {}", path.display()))?;
        out.extend(labels);
    }
    Ok(out)
}

fn fit_cmd(paths: &[PathBuf], out: &Path, settings: &FitSettings) -> Result<()> {
    let all = read_all(paths)?;
    let (held, train): (Vec<&Label>, Vec<&Label>) = all.iter().partition(|l| held_out(&l.position));
    if train.is_empty() {
        bail!("no labels to fit");
    }
    eprintln!(
        "{} labels: {} to fit, {} held out",
        all.len(),
        train.len(),
        held.len()
    );
    let samples: Vec<Sample> = train.iter().map(|l| Sample::of(l)).collect();
    let bar = ProgressBar::new(settings.epochs as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} epochs, {elapsed_precise} (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let model = fit(&samples, settings, |epoch, loss| {
        bar.set_position(epoch as u64);
        bar.set_message(format!("loss {loss:.4}"));
    });
    bar.finish();
    std::fs::write(out, model.to_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "fitted in {:.1} s; weights in {}",
        started.elapsed().as_secs_f64(),
        out.display()
    );
    print_agreement("held out", &model, &held);
    Ok(())
}

fn eval_cmd(paths: &[PathBuf], weights: Option<&Path>, all: bool) -> Result<()> {
    let model = match weights {
        Some(path) => read_weights(path)?,
        None => Model::embedded(),
    };
    let labels = read_all(paths)?;
    let chosen: Vec<&Label> = labels
        .iter()
        .filter(|l| all || held_out(&l.position))
        .collect();
    print_agreement(if all { "all" } else { "held out" }, &model, &chosen);
    Ok(())
}

fn agree_cmd(labels: &Path, truth: &Path) -> Result<()> {
    let (a, b) = (read_all(&[labels.into()])?, read_all(&[truth.into()])?);
    // Results indexed [truth][label], loss, draw, win for the side to move.
    let mut table = [[0u64; 3]; 3];
    let mut compared = 0;
    for (x, y) in a.iter().zip(&b) {
        if x.position != y.position || x.scoring != y.scoring {
            bail!(
                "record {compared} holds different positions: {} and {}",
                x.position,
                y.position
            );
        }
        table[(y.result() + 1) as usize][(x.result() + 1) as usize] += 1;
        compared += 1;
    }
    if compared == 0 {
        bail!("no records to compare");
    }
    let agreed: u64 = (0..3).map(|i| table[i][i]).sum();
    let commonest = table
        .iter()
        .map(|r| r.iter().sum::<u64>())
        .max()
        .unwrap_or(0);
    println!(
        "{compared} positions: {agreed} agree ({:.1}%; the commonest true result {:.1}%)",
        100.0 * agreed as f64 / compared as f64,
        100.0 * commonest as f64 / compared as f64
    );
    println!("true \\ labelled  loss  draw   win");
    for (name, row) in ["loss", "draw", "win"].iter().zip(&table) {
        println!("{name:<16} {:>5} {:>5} {:>5}", row[0], row[1], row[2]);
    }
    Ok(())
}

/// Prints the model's agreement with the exact results, by scoring mode and marbles left.
fn print_agreement(what: &str, model: &Model, labels: &[&Label]) {
    let mut groups: BTreeMap<(&str, u32), Agreement> = BTreeMap::new();
    for label in labels {
        groups
            .entry((label.scoring.name(), label.left()))
            .or_default()
            .add(model, label);
    }
    println!("{what}: agreement of the model's most likely result with the solver's");
    println!("scoring  left  positions  agreed  commonest  log-loss  loss/draw/win");
    for ((scoring, left), a) in &groups {
        println!(
            "{scoring:<8} {left:>4} {:>10} {:>6.1}% {:>9.1}% {:>9.3}  {}/{}/{}",
            a.positions,
            100.0 * a.accuracy(),
            100.0 * a.majority(),
            a.mean_log_loss(),
            a.results[0],
            a.results[1],
            a.results[2]
        );
    }
}
