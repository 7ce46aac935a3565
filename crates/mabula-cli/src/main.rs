//! `mabula`: one binary for every tool of the project. This file only parses arguments and
//! dispatches; each group of commands lives in its own module.

mod engine_cmds;
mod records;
mod play_cmds;
mod rules_cmds;
mod serve_cmds;
mod train_cmds;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Mabula: the game of marbles pushed in from the edge.
#[derive(Parser)]
#[command(name = "mabula", version, about, propagate_version = true)]
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
    Train(train_cmds::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules(cmd) => rules_cmds::run(cmd),
        Command::Engine(cmd) => engine_cmds::run(cmd),
        Command::Play(cmd) => play_cmds::run(cmd),
        Command::Serve(cmd) => serve_cmds::run(cmd),
        Command::Train(cmd) => train_cmds::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("mabula: {err:#}");
            ExitCode::FAILURE
        }
    }
}
