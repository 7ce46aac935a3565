//! Commands for moderators: `mabula moderation flags`, the pairs of accounts flagged for playing
//! more rated games together in a day than count as rated and the accounts flagged for an
//! accuracy far above their rating's (issue 51; also `GET /api/moderation/accuracy`), and
//! `mabula moderation unrated`, the rated games the rating job could not rate (also
//! `GET /api/moderation/unrated`).

use mabula_server::services::{accuracy, record_date};

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
    /// the latest first: the two accounts, how many games, the first and the last day (UTC);
    /// then the accounts whose mean accuracy over their recent rated games is far above that
    /// of the players of their rating, the largest gap first: the account, its rating, its
    /// accuracy against the band's, and the games.
    Flags {
        /// The database: postgres://…, sqlite://PATH or a file path. Default: the one `serve`
        /// uses by default.
        #[arg(long)]
        database: Option<String>,
    },
    /// List the rated games that could not be rated and are still not, the oldest failure
    /// first: the game, the attempts, the first and the last failure (UTC), and why. Each was
    /// skipped so that the other games are rated, and is tried again later.
    Unrated {
        /// The database, as for `flags`.
        #[arg(long)]
        database: Option<String>,
    },
}

/// Runs a moderation command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    let Command::Moderation { command } = cmd;
    match command {
        Moderation::Flags { database } => flags(database),
        Moderation::Unrated { database } => unrated(database),
    }
}

/// `mabula moderation unrated`.
fn unrated(database: Option<String>) -> anyhow::Result<()> {
    crate::admin_cmds::with_store(database, async |store| {
        let games = store
            .repositories()
            .ratings
            .read()
            .failures(1000)
            .await
            .map_err(|e| anyhow::anyhow!("cannot read the unrated games: {e}"))?;
        if games.is_empty() {
            println!("Every rated game that ended is rated or waits for its turn.");
        }
        for g in games {
            println!(
                "{} {} attempts, first {}, last {}: {}",
                g.game_id,
                g.attempts,
                record_date(g.first_at),
                record_date(g.last_at),
                g.reason
            );
        }
        Ok(())
    })
}

/// `mabula moderation flags`.
fn flags(database: Option<String>) -> anyhow::Result<()> {
    crate::admin_cmds::with_store(database, async |store| {
        let repos = store.repositories();
        let flags = repos
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
        let judged = accuracy::flags_in(&repos.accuracy)
            .await
            .map_err(|e| anyhow::anyhow!("cannot read the accuracies: {e}"))?;
        if judged.is_empty() {
            println!("No account is flagged for its accuracy.");
        }
        for j in judged {
            println!(
                "{} rating {}: accuracy {:.1}% against {:.1}% in its band ({} games), games {}",
                j.name,
                j.rating,
                100.0 * j.accuracy,
                100.0 * j.band_accuracy,
                j.band_games,
                j.games.join(" ")
            );
        }
        Ok(())
    })
}
