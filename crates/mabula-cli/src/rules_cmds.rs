//! Commands of the rules library: deals, boards, legal moves, perft and the speed bench.

use anyhow::{Context, Result, bail};
use mabula::perft::{divide, perft, perft_full};
use mabula::{Bitboard, Color, Move, Position, Scoring, deal, diagram::diagram};
use std::time::Instant;

/// Commands about the rules.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Print a random valid starting position (a deal) as a position string.
    Setup {
        /// Seed of the deal: the same seed gives the same deal everywhere.
        #[arg(long)]
        seed: Option<u64>,
        /// Who moves first: w or b.
        #[arg(long, default_value = "w", value_parser = parse_color)]
        first: Color,
    },
    /// Draw a position as a board, with both players' groups and scores.
    Show {
        /// The position string (quote it, or give its two parts as two arguments).
        #[arg(required = true, num_args = 1..)]
        position: Vec<String>,
    },
    /// Print the legal moves of the side to move, sorted, on one line.
    Legal {
        /// The position string.
        #[arg(required = true, num_args = 1..)]
        position: Vec<String>,
        /// Print one JSON object on one line (see docs/cli.md).
        #[arg(long)]
        json: bool,
    },
    /// Play moves from a position and print the position string reached.
    Apply {
        /// The position string (quote it, or give its two parts as two arguments).
        #[arg(required = true, num_args = 1..)]
        position: Vec<String>,
        /// The moves, separated by spaces or commas: `--moves "b1-b4 c8-c6"`.
        #[arg(long, required = true)]
        moves: String,
    },
    /// Count the move paths of a given length from a position.
    #[command(override_usage = "mabula perft [OPTIONS] <POSITION>... <DEPTH>")]
    Perft {
        /// The position string (quoted, or as two arguments), then the depth.
        #[arg(required = true, num_args = 2.., value_name = "POSITION... DEPTH")]
        args: Vec<String>,
        /// First print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Play every leaf move instead of counting the last ply in bulk.
        #[arg(long)]
        full: bool,
        /// Print one JSON object on one line (see docs/cli.md).
        #[arg(long)]
        json: bool,
    },
    /// Run the fixed speed suite and check its node counts.
    Bench,
}

fn parse_color(s: &str) -> Result<Color, String> {
    Color::parse(s).ok_or_else(|| format!("'{s}' is not a side: use w or b"))
}

/// Reads a position given as one or more command-line words.
pub fn position_arg(words: &[String]) -> Result<Position> {
    let text = words.join(" ");
    Position::parse(&text).with_context(|| format!("bad position string '{text}'"))
}

/// The deepest perft the command accepts: more plies than any game can have.
const MAX_DEPTH: u32 = 48;

/// Runs a rules command.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Setup { seed, first } => {
            let seed = seed.unwrap_or_else(time_seed);
            println!("{}", deal::random(seed, first));
        }
        Command::Show { position } => print!("{}", show(&position_arg(&position)?)),
        Command::Legal { position, json } => {
            let pos = position_arg(&position)?;
            let mut moves = pos.legal_moves();
            moves.sort_unstable();
            let words: Vec<String> = moves.iter().map(ToString::to_string).collect();
            if json {
                let value = serde_json::json!({
                    "type": "legal",
                    "position": pos.to_string(),
                    "to_move": pos.side_to_move().to_string(),
                    "moves": words,
                    "must_pass": moves.first() == Some(&Move::PASS),
                    "game_over": pos.is_game_over(),
                });
                println!("{value}");
            } else {
                println!("{}", words.join(" "));
            }
        }
        Command::Apply { position, moves } => {
            let mut pos = position_arg(&position)?;
            let words = moves.split([' ', ',']).filter(|w| !w.trim().is_empty());
            for (i, word) in words.enumerate() {
                let mv: Move = word
                    .parse()
                    .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
                pos = pos
                    .play(mv)
                    .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
            }
            println!("{pos}");
        }
        Command::Perft {
            args,
            divide: per_move,
            full,
            json,
        } => {
            let (depth_text, words) = args
                .split_last()
                .context("perft needs a position and a depth")?;
            let depth: u32 = depth_text
                .parse()
                .with_context(|| format!("'{depth_text}' is not a depth: give a whole number"))?;
            if depth > MAX_DEPTH {
                bail!("depth {depth} is too large: a game never lasts more than {MAX_DEPTH} plies");
            }
            let pos = position_arg(words)?;
            let divided = if per_move {
                divide(&pos, depth)
            } else {
                Vec::new()
            };
            if !json {
                for (mv, n) in &divided {
                    println!("{mv}: {n}");
                }
            }
            let count = if full {
                perft_full(&pos, depth)
            } else {
                perft(&pos, depth)
            };
            if json {
                let counts: Vec<serde_json::Value> = divided
                    .iter()
                    .map(|(mv, n)| serde_json::json!({"move": mv.to_string(), "count": n}))
                    .collect();
                let value = serde_json::json!({
                    "type": "perft",
                    "position": pos.to_string(),
                    "depth": depth,
                    "full": full,
                    "count": count,
                    "divide": per_move.then_some(counts),
                });
                println!("{value}");
            } else {
                println!("{count}");
            }
        }
        Command::Bench => bench()?,
    }
    Ok(())
}

fn time_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map(|d| d.as_nanos() as u64).unwrap_or(0) ^ u64::from(std::process::id()) << 32
}

/// The text of `mabula show`: the board, then each side's groups and scores.
pub fn show(pos: &Position) -> String {
    let mut out = diagram(pos, Bitboard::EMPTY);
    out.push('\n');
    for color in Color::BOTH {
        let mut sizes: Vec<u32> = pos.groups(color).map(Bitboard::count).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let list: Vec<String> = sizes.iter().map(ToString::to_string).collect();
        let on_edge = (pos.marbles(color) & Bitboard::EDGE).count();
        out.push_str(&format!(
            "{color}: groups [{}], largest {}, product {}; {on_edge} on the edge\n",
            list.join(" "),
            pos.score(color, Scoring::Largest),
            pos.score(color, Scoring::Product),
        ));
    }
    if let Some(outcome) = pos.outcome(Scoring::Largest) {
        let product = pos.scores(Scoring::Product).outcome();
        out.push_str(&format!(
            "game over: {} by largest group, {} by product\n",
            describe(outcome),
            describe(product)
        ));
    } else if pos.legal_moves().first() == Some(&mabula::Move::PASS) {
        out.push_str(&format!(
            "{} cannot move and must pass\n",
            pos.side_to_move()
        ));
    }
    out
}

fn describe(outcome: mabula::Outcome) -> String {
    match outcome.winner() {
        Some(c) => format!("{c} wins"),
        None => "a draw".into(),
    }
}

/// One line of the bench: a fixed piece of work, its count, and the count it must give.
struct Case {
    name: &'static str,
    unit: &'static str,
    expected: u64,
    run: fn() -> u64,
}

const OPENING: &str = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w";
const MIDGAME: u64 = 12;
const PLAYOUTS: u64 = 2_000_000;

/// A fixed midgame: deal `seed`, then 12 moves chosen by a fixed rule.
fn midgame(seed: u64) -> Position {
    let mut pos = deal::random(seed, Color::White);
    for i in 0..MIDGAME as usize {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[(i * 7 + 3) % moves.len()]);
    }
    pos
}

fn opening() -> Position {
    Position::parse(OPENING).expect("the bench's opening is valid")
}

/// Random playouts from fixed deals with a fixed generator; returns the sum over games of
/// White's largest group plus Black's product score, a checksum of the games played.
fn playouts(games: u64) -> u64 {
    let deals: Vec<Position> = (0..64)
        .map(|seed| deal::random(seed, Color::White))
        .collect();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut checksum = 0;
    for g in 0..games {
        let mut pos = deals[(g % 64) as usize];
        loop {
            let n = pos.count_moves();
            if n == 0 {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = pos.nth_move((((rng >> 32) * u64::from(n)) >> 32) as u32);
            pos.play_unchecked(mv);
        }
        checksum += u64::from(pos.score(Color::White, Scoring::Largest));
        checksum += u64::from(pos.score(Color::Black, Scoring::Product));
    }
    checksum
}

const CASES: &[Case] = &[
    Case {
        name: "perft opening 5 (bulk)",
        unit: "leaves",
        expected: 1_077_863_095,
        run: || perft(&opening(), 5),
    },
    Case {
        name: "perft midgame 7 (bulk)",
        unit: "leaves",
        expected: 379_542_608,
        run: || perft(&midgame(1), 7),
    },
    Case {
        name: "perft opening 4 (full)",
        unit: "nodes",
        expected: 19_732_424,
        run: || perft_full(&opening(), 4),
    },
    Case {
        name: "perft midgame 6 (full)",
        unit: "nodes",
        expected: 38_720_138,
        run: || perft_full(&midgame(2), 6),
    },
    Case {
        name: "random playouts (checksum)",
        unit: "games",
        expected: 53_044_367,
        run: || playouts(PLAYOUTS),
    },
];

/// A speed: `3.2 M games/s`, in millions of the unit a second.
fn rate(per_second: f64, unit: &str) -> String {
    format!("{:.1} M {unit}/s", per_second / 1e6)
}

fn bench() -> Result<()> {
    println!(
        "{:<28} {:>16} {:>10} {:>14}",
        "case", "count or check", "seconds", "speed"
    );
    let mut failed = Vec::new();
    for case in CASES {
        let start = Instant::now();
        let count = (case.run)();
        let secs = start.elapsed().as_secs_f64();
        // The playout case counts games, and its check is a checksum of their scores, not a
        // count: the speed is of the games.
        let work = if case.unit == "games" {
            PLAYOUTS
        } else {
            count
        };
        println!(
            "{:<28} {count:>16} {secs:>10.3} {:>14}",
            case.name,
            rate(work as f64 / secs, case.unit)
        );
        if count != case.expected {
            failed.push(format!(
                "{}: counted {count}, expected {}",
                case.name, case.expected
            ));
        }
    }
    if !failed.is_empty() {
        bail!(
            "the bench's counts changed, so the rules behave differently:\n  {}",
            failed.join("\n  ")
        );
    }
    Ok(())
}
