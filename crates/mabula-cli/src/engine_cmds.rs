//! Commands of the engine: to be written (see the engine issue).

/// Engine commands.
#[derive(clap::Subcommand)]
pub enum Command {}

/// Runs an engine command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {}
}
