//! Commands of the engine: to be written (see the terminal play issue).

/// Terminal play commands.
#[derive(clap::Subcommand)]
pub enum Command {}

/// Runs a terminal play command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {}
}
