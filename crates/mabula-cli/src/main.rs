//! `mabula`: one binary for every tool of the project. This file only parses arguments and
//! dispatches; each group of commands lives in its own module.
//!
//! Exit codes (docs/cli.md): 0 success, 1 a failure the message names (a bad position, a
//! missing file, an unsolved position within its time), 2 a command line clap cannot read.

mod admin_cmds;
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
use std::process::ExitCode;

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

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Rules(rules_cmds::Command),
    #[command(flatten)]
    Engine(engine_cmds::Command),
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
        Err(err) => {
            eprintln!("mabula: {err:#}");
            ExitCode::FAILURE
        }
    }
}
