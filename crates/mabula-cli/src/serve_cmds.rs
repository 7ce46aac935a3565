//! Commands of the engine: to be written (see the server issue).

/// Server commands.
#[derive(clap::Subcommand)]
pub enum Command {}

/// Runs a server command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {}
}
