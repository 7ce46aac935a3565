//! `mabula play`: a game in the terminal, full screen or line by line (`--plain`).
//!
//! This file only reads the options and turns them into [`play::Settings`] and a starting
//! [`Game`]; the game itself lives under `play/`.

#[path = "play/mod.rs"]
pub mod play;

use anyhow::{Context, Result, bail};
use mabula::{Color, Game, Position, Scoring, deal};
use play::{Player, Settings};
use std::path::PathBuf;
use std::time::Duration;

/// Terminal play commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Play a game in the terminal: against the engine, two people at one keyboard, or watch the
    /// engine play itself.
    Play(PlayArgs),
}

/// The options of `mabula play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// No full screen: print the board after each move and read moves line by line (for screen
    /// readers, scripts and pipes).
    #[arg(long)]
    pub plain: bool,
    /// Who plays against you: the engine, or a second person at the same keyboard.
    #[arg(long, value_enum, default_value_t = Opponent::Engine)]
    pub vs: Opponent,
    /// Watch the engine play both sides.
    #[arg(long, conflicts_with_all = ["vs", "color"])]
    pub watch: bool,
    /// Your colour against the engine: white or black.
    #[arg(long, value_parser = parse_color, default_value = "white")]
    pub color: Color,
    /// Who moves first in a new deal: white or black.
    #[arg(long, value_parser = parse_color, conflicts_with_all = ["position", "load"])]
    pub first: Option<Color>,
    /// How the field is scored: largest (the largest group) or product (all groups multiplied).
    #[arg(long, value_parser = parse_scoring)]
    pub scoring: Option<Scoring>,
    /// The engine's strength, 1 (weakest) to 10.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
    /// The engine's thinking time per move, in milliseconds (by default the level decides).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Seed of the random deal (and of the engine's choices); the same seed gives the same game.
    #[arg(long, conflicts_with_all = ["position", "load"])]
    pub seed: Option<u64>,
    /// Start from this position string instead of a random deal.
    #[arg(long, value_name = "POSITION", conflicts_with = "load")]
    pub position: Option<String>,
    /// Continue the game in this record file.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// In a record file of several games, continue game N (1 first).
    #[arg(long, value_name = "N", requires = "load")]
    pub game: Option<usize>,
    /// Keep the record in this file, rewritten after every move (the `s` key saves there too).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// When watching, wait at least this long between moves, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 600)]
    pub pause: u64,
    /// Do not capture the mouse (so the terminal's own selection works).
    #[arg(long)]
    pub no_mouse: bool,
}

/// Who plays against you.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Opponent {
    /// The engine.
    Engine,
    /// Another person at the same keyboard.
    Human,
}

fn parse_color(s: &str) -> Result<Color, String> {
    Color::parse(s).ok_or_else(|| format!("'{s}' is not a colour: use white or black"))
}

fn parse_scoring(s: &str) -> Result<Scoring, String> {
    s.parse()
        .map_err(|e: mabula::scoring::ParseScoringError| e.to_string())
}

/// Runs a terminal play command.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Play(args) => {
            let (settings, game) = prepare(&args)?;
            if args.plain {
                let stdin = std::io::stdin();
                let echo = !std::io::IsTerminal::is_terminal(&stdin);
                play::plain::run(settings, game, stdin.lock(), std::io::stdout(), echo)
            } else {
                use std::io::IsTerminal;
                if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
                    bail!(
                        "the full-screen game needs a terminal, and the input or the output is \
                         not one: use --plain to play line by line"
                    );
                }
                play::tui::run(settings, game)
            }
        }
    }
}

/// The settings and the starting game that the options ask for.
pub fn prepare(args: &PlayArgs) -> Result<(Settings, Game)> {
    let seed = args.seed.unwrap_or_else(time_seed);
    let players = if args.watch {
        [Player::Engine, Player::Engine]
    } else {
        match (args.vs, args.color) {
            (Opponent::Human, _) => [Player::Human, Player::Human],
            (Opponent::Engine, Color::White) => [Player::Human, Player::Engine],
            (Opponent::Engine, Color::Black) => [Player::Engine, Player::Human],
        }
    };
    let game = if let Some(path) = &args.load {
        let game = crate::records::game(path, args.game)?;
        if let Some(scoring) = args.scoring
            && scoring != game.scoring()
        {
            bail!(
                "the record is scored by {}, and --scoring {scoring} cannot change a game under way",
                game.scoring()
            );
        }
        game
    } else {
        let start = match &args.position {
            Some(text) => {
                Position::parse(text).with_context(|| format!("bad position string '{text}'"))?
            }
            None => deal::random(seed, args.first.unwrap_or(Color::White)),
        };
        let mut game = Game::new(start, args.scoring.unwrap_or_default());
        game.set_tag("Event", "Casual game");
        game.set_tag("Date", &play::today());
        if args.position.is_none() {
            game.set_tag("Seed", &seed.to_string());
        }
        for color in Color::BOTH {
            let name = match players[color as usize] {
                Player::Human => "Human".to_string(),
                Player::Engine => format!("Mabula engine, level {}", args.level),
            };
            game.set_tag(
                if color == Color::White {
                    "White"
                } else {
                    "Black"
                },
                &name,
            );
        }
        game
    };
    let settings = Settings {
        players,
        level: args.level,
        movetime: args.movetime.map(Duration::from_millis),
        seed,
        pause: if args.watch {
            Duration::from_millis(args.pause)
        } else {
            Duration::ZERO
        },
        save_path: args.save.clone(),
        autosave: args.save.is_some(),
        color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        mouse: !args.no_mouse,
        plain: args.plain,
    };
    Ok((settings, game))
}

fn time_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map(|d| d.as_nanos() as u64).unwrap_or(0) ^ u64::from(std::process::id()) << 32
}
