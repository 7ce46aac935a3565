//! `mabula`: one binary for every tool of the project. This file only parses arguments and
//! dispatches; each group of commands lives in its own module.
//!
//! Exit codes (docs/cli.md): 0 success, 1 a failure the message names (a bad position, a
//! missing file, an unsolved position within its time), 2 a command line clap cannot read.
//! A closed stdout (`mabula analyze ... --json | head -c 800`) ends the program quietly with 0.

/// `print!` for the whole crate (defined before the modules, so it replaces the standard one in
/// all of them): the text is written and flushed at once, and a closed stdout ends the program
/// quietly ([`stdout_closed`]) instead of panicking with a backtrace.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` for the whole crate: see [`print!`]. Each line is flushed as it is printed.
macro_rules! println {
    () => {
        $crate::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod admin_cmds;
mod analysis_server;
mod bot_cmds;
mod chart;
mod engine_cmds;
mod moderation_cmds;
mod play_cmds;
mod puzzle_cmds;
mod records;
mod rules_cmds;
mod serve_cmds;
#[cfg(feature = "learn")]
mod train_cmds;

use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Writes and flushes text on stdout; a closed stdout ends the program quietly with status 0
/// (the reader has all it wanted), any other failure with status 1 and a message.
pub(crate) fn write_stdout(text: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            stdout_closed();
        }
        eprintln!("mabula: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

/// The reader of stdout went away (`| head`): stop at once and quietly, as Unix tools do.
pub(crate) fn stdout_closed() -> ! {
    std::process::exit(0)
}

/// Whether an error comes from writing to a closed pipe.
fn broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Mabula: the game of marbles pushed in from the edge.
#[derive(Parser)]
#[command(
    name = "mabula",
    version,
    about,
    propagate_version = true,
    disable_help_subcommand = true,
    after_help = "Exit status: 0 on success, 1 when the command fails (the message says why), \
                  2 when the command line is wrong."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of its largest variant (`serve`'s settings) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Rules(rules_cmds::Command),
    #[command(flatten)]
    Engine(engine_cmds::Command),
    #[command(flatten)]
    AnalysisServer(analysis_server::Command),
    #[command(flatten)]
    Play(play_cmds::Command),
    #[command(flatten)]
    Serve(serve_cmds::Command),
    #[command(flatten)]
    Bot(bot_cmds::Command),
    #[command(flatten)]
    Moderation(moderation_cmds::Command),
    #[command(flatten)]
    Admin(admin_cmds::Command),
    #[command(flatten)]
    Puzzles(puzzle_cmds::Command),
    #[cfg(feature = "learn")]
    #[command(flatten)]
    Train(train_cmds::Command),
    /// Label positions and fit the evaluation (not in this build: see docs/cli.md).
    #[cfg(not(feature = "learn"))]
    #[command(disable_help_flag = true)]
    Train {
        /// Whatever follows `train`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Print the help of mabula or of one of its commands.
    Help {
        /// The command, for example `analyze`.
        command: Vec<String>,
    },
}

/// `mabula help [COMMAND...]`.
fn help(path: &[String]) -> anyhow::Result<()> {
    let mut cmd = Cli::command();
    let mut at = &mut cmd;
    for name in path {
        at = match at.find_subcommand_mut(name) {
            Some(sub) => sub,
            None => anyhow::bail!("there is no command '{name}': mabula help lists them"),
        };
    }
    at.print_long_help()?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules(cmd) => rules_cmds::run(cmd),
        Command::Engine(cmd) => engine_cmds::run(cmd),
        Command::AnalysisServer(cmd) => analysis_server::run(cmd),
        Command::Play(cmd) => play_cmds::run(cmd),
        Command::Serve(cmd) => serve_cmds::run(cmd),
        Command::Bot(cmd) => bot_cmds::run(cmd),
        Command::Moderation(cmd) => moderation_cmds::run(cmd),
        Command::Admin(cmd) => admin_cmds::run(cmd),
        Command::Puzzles(cmd) => puzzle_cmds::run(cmd),
        #[cfg(feature = "learn")]
        Command::Train(cmd) => train_cmds::run(cmd),
        #[cfg(not(feature = "learn"))]
        Command::Train { .. } => Err(anyhow::anyhow!(
            "this build of mabula has no train command: build it with \
             `cargo build --release -p mabula-cli --features learn` (docs/cli.md)"
        )),
        Command::Help { command } => help(&command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe reaching here is stdout's (`mabula gtp | head`, a record written to a
        // closed stdout): the engines' pipes of `match` and `bot` become lost games and messages
        // in words before.
        Err(err) if broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("mabula: {err:#}");
            ExitCode::FAILURE
        }
    }
}
