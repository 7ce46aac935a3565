//! Commands for moderators: `mabula moderation flags`, the pairs of accounts flagged for playing
//! more rated games together in a day than count as rated (the web app has no moderation yet).

use mabula_server::services::record_date;

/// Moderation commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// What the server flagged for moderators.
    Moderation {
        #[command(subcommand)]
        command: Moderation,
    },
}

/// What `mabula moderation` does.
#[derive(clap::Subcommand)]
pub enum Moderation {
    /// List the pairs of accounts whose rated games beyond the daily number were made casual,
    /// the latest first: the two accounts, how many games, the first and the last day (UTC).
    Flags {
        /// The database: postgres://…, sqlite://PATH or a file path. Default: the one `serve`
        /// uses by default.
        #[arg(long)]
        database: Option<String>,
    },
}

/// Runs a moderation command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    let Command::Moderation {
        command: Moderation::Flags { database },
    } = cmd;
    crate::admin_cmds::with_store(database, async |store| {
        let flags = store
            .repositories()
            .games
            .pair_flags()
            .await
            .map_err(|e| anyhow::anyhow!("cannot read the flags: {e}"))?;
        if flags.is_empty() {
            println!("No pair of accounts is flagged.");
        }
        for f in flags {
            println!(
                "{} {} {} casual games, first {}, last {}",
                f.low,
                f.high,
                f.games,
                record_date(f.first_at),
                record_date(f.last_at)
            );
        }
        Ok(())
    })
}
