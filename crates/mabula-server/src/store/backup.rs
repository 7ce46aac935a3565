//! Backups of a SQLite database, taken while a server runs on it (`mabula backup`).
//!
//! The server keeps its file in WAL mode and locks only `PATH.lock` beside it, so another
//! process may open the database to read. A backup is one `VACUUM INTO` on a read-only
//! connection: a single read transaction, so the copy is the database as it stood at one
//! commit, and in WAL mode a reader never blocks the writer (the server goes on committing
//! moves meanwhile; only its checkpoints wait for the copy to finish). Every move the server
//! acknowledged before the backup began is in the copy, since the server answers a move only
//! once it is committed.
//!
//! The copy is written beside its destination under a temporary name, flushed to disk, then
//! moved into place, so `OUT` is either absent, a complete backup, or (with `replace`) the file
//! that was there before. A destination a server is running on is refused, and the `-wal` and
//! `-shm` files of an earlier database at `OUT` are removed, since SQLite would replay them onto
//! the copy. Restoring is serving the copy: `mabula serve --database OUT`.
//!
//! PostgreSQL has its own tools for this (`pg_dump`, `pg_restore`; `docs/deploy.md`).

use super::StoreError;
use sqlx::Connection;
use sqlx::sqlite::SqliteConnection;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a backup failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database is not a SQLite file.
    #[error("this is a PostgreSQL database: back it up with pg_dump (see docs/deploy.md)")]
    Postgres,
    /// The database file does not exist.
    #[error("there is no database at {0}")]
    Missing(PathBuf),
    /// The destination exists and replacing it was not asked for.
    #[error("{0} exists (--force replaces it)")]
    Exists(PathBuf),
    /// The database could not be read.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The copy could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

impl From<sqlx::Error> for BackupError {
    fn from(err: sqlx::Error) -> BackupError {
        BackupError::Store(err.into())
    }
}

/// Copies the SQLite database at `url` (a path, `sqlite://PATH` or `sqlite:PATH`) to the file
/// `out`, consistently, whether or not a server is running on it; `replace` allows an existing
/// `out` to be replaced. Answers the size of the copy in bytes.
pub async fn backup_sqlite(url: &str, out: &Path, replace: bool) -> Result<u64, BackupError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Err(BackupError::Postgres);
    }
    let options = super::sqlite::connect_options(url)?;
    let source = options.get_filename().to_path_buf();
    if !source.is_file() {
        return Err(BackupError::Missing(source));
    }
    if !replace && out.exists() {
        return Err(BackupError::Exists(out.to_path_buf()));
    }
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BackupError::Write { path, source }
    };
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| BackupError::Write {
            path: out.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"),
        })?
        .to_string_lossy();
    let partial = dir.join(format!(".{name}.partial-{}", std::process::id()));
    // A partial copy left by an earlier run of this process id is garbage.
    let _ = std::fs::remove_file(&partial);

    let copied = async {
        let mut conn = SqliteConnection::connect_with(
            &options
                .read_only(true)
                .create_if_missing(false)
                .busy_timeout(Duration::from_secs(10)),
        )
        .await?;
        sqlx::query("VACUUM INTO ?")
            .bind(partial.to_string_lossy().into_owned())
            .execute(&mut conn)
            .await?;
        conn.close().await?;
        Ok::<(), BackupError>(())
    }
    .await;
    let placed = copied.and_then(|()| {
        // SQLite does not flush what VACUUM INTO writes: flush it before it takes OUT's name.
        let file = std::fs::File::open(&partial).map_err(write_err(&partial))?;
        file.sync_all().map_err(write_err(&partial))?;
        let size = file.metadata().map_err(write_err(&partial))?.len();
        // A `-wal` left beside OUT (a server that was killed on an earlier copy) would be
        // replayed onto the new copy: it goes, under OUT's lock, so no server is on it.
        let _lock = clear_journal(out)?;
        if replace {
            std::fs::rename(&partial, out).map_err(write_err(out))?;
        } else {
            // A link fails if OUT appeared meanwhile, where a rename would replace it.
            std::fs::hard_link(&partial, out).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    BackupError::Exists(out.to_path_buf())
                } else {
                    write_err(out)(e)
                }
            })?;
            std::fs::remove_file(&partial).map_err(write_err(&partial))?;
        }
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(size)
    });
    if placed.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    placed
}

/// If a database at `out` has a `-wal` or `-shm` file, or is itself there, locks it as a server
/// does (failing if one runs on it) and removes those files; answers the lock.
fn clear_journal(out: &Path) -> Result<Option<std::fs::File>, BackupError> {
    let beside = |suffix: &str| {
        let mut name = out.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let journal = [beside("-wal"), beside("-shm")];
    if !out.exists() && !journal.iter().any(|j| j.exists()) {
        return Ok(None);
    }
    let lock = super::sqlite::lock(out)?;
    for j in &journal {
        match std::fs::remove_file(j) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(BackupError::Write {
                    path: j.clone(),
                    source,
                });
            }
        }
    }
    Ok(Some(lock))
}
