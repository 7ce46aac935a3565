//! `mabula admin`: the moderators' work from the command line, straight on the database (the
//! same `--database` as `mabula serve`): make or unmake a moderator, close and reopen an
//! account, give it a new random password, list the open reports. The web app's moderators do
//! the same through `/api/moderation/…`; both use the store's functions.

use mabula_server::services::accounts::{hash_password, lookup_key};
use mabula_server::services::record_date;
use mabula_server::store::{Repositories, Store};

/// Administration commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Moderators and accounts, straight on the database (docs/cli.md).
    Admin {
        /// The database: postgres://…, sqlite://PATH or a file path. Default: the one `serve`
        /// uses by default. A SQLite file is locked by a running server: stop it first.
        #[arg(long, global = true)]
        database: Option<String>,
        #[command(subcommand)]
        command: Admin,
    },
}

/// What `mabula admin` does.
#[derive(clap::Subcommand)]
pub enum Admin {
    /// Make NAME a moderator (or, with --remove, no longer one).
    Moderator {
        /// The account's name.
        name: String,
        /// Take the role away.
        #[arg(long)]
        remove: bool,
    },
    /// Close NAME's account: it cannot log in, its sessions end, its seeks and challenges leave
    /// the lobby; its games stay.
    Close {
        /// The account's name.
        name: String,
    },
    /// Open NAME's closed account again.
    Reopen {
        /// The account's name.
        name: String,
    },
    /// Give NAME a new random password (printed) and end its sessions.
    ResetPassword {
        /// The account's name.
        name: String,
    },
    /// List the open reports, oldest first.
    Reports,
}

/// Runs an admin command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    let Command::Admin { database, command } = cmd;
    with_store(database, async |store| admin(store, command).await)
}

/// Opens the store of `database` (the default file if `None`), runs `f` on it and closes it:
/// the commands that work on the database directly (`admin`, `moderation`).
pub fn with_store<T>(
    database: Option<String>,
    f: impl AsyncFnOnce(&Store) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let database = database.unwrap_or_else(|| {
        mabula_server::store::default_database_path()
            .display()
            .to_string()
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = Store::open(&database)
            .await
            .map_err(|e| anyhow::anyhow!("cannot open {database}: {e}"))?;
        let result = f(&store).await;
        store.close().await;
        result
    })
}

/// The key of the account named `name`, if there is one.
async fn existing(repos: &Repositories, name: &str) -> anyhow::Result<String> {
    let key = lookup_key(name).map_err(|e| anyhow::anyhow!("{}", e.message))?;
    match repos.accounts.read().account_flags(&key).await? {
        Some(_) => Ok(key),
        None => anyhow::bail!("there is no account named '{name}'"),
    }
}

async fn admin(store: &Store, command: Admin) -> anyhow::Result<()> {
    let repos = store.repositories();
    let db = &repos.moderation;
    match command {
        Admin::Moderator { name, remove } => {
            let key = existing(&repos, &name).await?;
            db.set_moderator(&key, !remove).await?;
            if remove {
                println!("{name} is no longer a moderator.");
            } else {
                println!("{name} is a moderator.");
            }
        }
        Admin::Close { name } => {
            let key = existing(&repos, &name).await?;
            // On PostgreSQL the lobbies of every instance hear of the seeks gone with the
            // change (NOTIFY); a SQLite file has no server beside this command.
            db.close_account(&key, mabula_server::services::now_ms())
                .await?;
            println!("{name}'s account is closed: its sessions ended, its seeks are gone.");
        }
        Admin::Reopen { name } => {
            let key = existing(&repos, &name).await?;
            db.reopen_account(&key).await?;
            println!("{name}'s account is open again.");
        }
        Admin::ResetPassword { name } => {
            let key = existing(&repos, &name).await?;
            let password = mabula_server::auth::new_secret(12);
            let hash = hash_password(password.clone())
                .await
                .map_err(|e| anyhow::anyhow!("{}", e.message))?;
            repos.accounts.reset_password(&key, &hash).await?;
            println!("{password}");
            eprintln!("{name}'s new password is above; its sessions ended.");
        }
        Admin::Reports => {
            let reports = db.open_reports(10_000).await?;
            if reports.is_empty() {
                println!("No report is open.");
            }
            for r in reports {
                let text = r.text.replace(['\n', '\r'], " ");
                println!(
                    "#{} {} {} reported {} for {}{}: {}",
                    r.id,
                    record_date(r.created_at),
                    r.reporter,
                    r.player,
                    r.reason,
                    r.game_id
                        .map(|g| format!(" in game {g}"))
                        .unwrap_or_default(),
                    text
                );
            }
        }
    }
    Ok(())
}
