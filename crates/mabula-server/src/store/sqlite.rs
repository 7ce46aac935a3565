//! The SQLite backend: one file, in WAL mode with `synchronous=FULL` (a commit is on disk
//! before it returns), one writing connection and a small pool of readers, used by one process
//! only: the file `PATH.lock` beside the database is locked while the server runs, and a second
//! server on the same file is refused at start. Migrations live in `migrations/sqlite/`.

use super::{BoxFuture, Notice};
use sqlx::Connection;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteRow, SqliteSynchronous,
};
use std::str::FromStr;
use std::sync::LazyLock;
use std::time::Duration;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// A SQLite database.
pub struct Sqlite {
    /// The only connection that writes (SQLite allows one writer at a time anyway).
    writer: SqlitePool,
    /// Connections for reads, which WAL mode lets run beside the writer.
    reader: SqlitePool,
    /// The locked `PATH.lock` file (none in memory), held until the store is closed.
    lock: std::sync::Mutex<Option<std::fs::File>>,
}

/// Locks `PATH.lock` beside the database for this process, or says who holds it.
pub(crate) fn lock(path: &std::path::Path) -> Result<std::fs::File, StoreError> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)
        .map_err(|e| StoreError::Database(format!("cannot open {}: {e}", name.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Database(format!(
            "{} is in use by another mabula server (SQLite serves one process; run several \
             instances on PostgreSQL instead)",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Database(format!(
            "cannot lock {}: {e}",
            name.display()
        ))),
    }
}

/// The connection options of `url`: `sqlite://PATH`, `sqlite:PATH`, `sqlite::memory:` or a plain
/// path.
pub(crate) fn connect_options(url: &str) -> Result<SqliteConnectOptions, StoreError> {
    Ok(if url.starts_with("sqlite:") {
        SqliteConnectOptions::from_str(url)?
    } else {
        SqliteConnectOptions::new().filename(url)
    })
}

impl Sqlite {
    /// Opens (creating the file and its directory if needed) and migrates the database at `url`:
    /// `sqlite://PATH`, `sqlite:PATH`, `sqlite::memory:` or a plain path.
    pub async fn open(url: &str) -> Result<Sqlite, StoreError> {
        let memory = url.contains(":memory:");
        let options = connect_options(url)?;
        let mut file_lock = None;
        if !memory {
            let path = options.get_filename();
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StoreError::Database(format!("cannot create {}: {e}", dir.display()))
                })?;
            }
            file_lock = Some(lock(path)?);
        }
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options.clone())
            .await?;
        MIGRATOR.run(&writer).await?;
        // An in-memory database exists per connection: share the writer.
        let reader = if memory {
            writer.clone()
        } else {
            SqlitePoolOptions::new()
                .max_connections(4)
                .connect_with(options.read_only(true))
                .await?
        };
        // One process is all there is: instances of an earlier run are gone.
        sqlx::query("DELETE FROM presence").execute(&writer).await?;
        sqlx::query("DELETE FROM instances")
            .execute(&writer)
            .await?;
        Ok(Sqlite {
            writer,
            reader,
            lock: std::sync::Mutex::new(file_lock),
        })
    }
}

impl super::Backend for Sqlite {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn apply<'a>(&'a self, ops: &'a [WriteOp]) -> BoxFuture<'a, Result<Vec<bool>, StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.acquire().await?;
            let mut tx = conn.begin().await?;
            let mut outcomes = Vec::with_capacity(ops.len());
            for op in ops {
                outcomes.push(match op {
                    WriteOp::Change(c) if matches!(c.moves, MovesChange::Append { .. }) => {
                        change_and_append(&mut tx, c).await?
                    }
                    _ => apply_one(&mut tx, op).await?,
                });
            }
            tx.commit().await?;
            Ok(outcomes)
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(async move { load_game(&mut *self.reader.acquire().await?, id).await })
    }

    fn version<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<u64>, StoreError>> {
        Box::pin(async move { game_version(&mut *self.reader.acquire().await?, id).await })
    }

    fn list(
        &self,
        filter: ListFilter,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameRow>, StoreError>> {
        Box::pin(async move { list_games(&mut *self.reader.acquire().await?, filter, limit).await })
    }

    fn engine_orphans(
        &self,
        alive_since: i64,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<Orphan>, StoreError>> {
        Box::pin(async move {
            engine_orphans(&mut *self.reader.acquire().await?, alive_since, limit).await
        })
    }

    fn claim_engine<'a>(
        &'a self,
        orphan: &'a Orphan,
        me: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move { claim_engine(&mut *self.writer.acquire().await?, orphan, me).await })
    }

    fn heartbeat<'a>(
        &'a self,
        me: &'a str,
        started: i64,
        now: i64,
        dead_before: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.acquire().await?;
            heartbeat(&mut conn, me, started, now, dead_before).await
        })
    }

    fn leave<'a>(&'a self, me: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move { leave(&mut *self.writer.acquire().await?, me).await })
    }

    fn presence<'a>(
        &'a self,
        me: &'a str,
        id: &'a str,
        mine: Option<PresenceCounts>,
        alive_since: i64,
    ) -> BoxFuture<'a, Result<PresenceCounts, StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.acquire().await?;
            set_presence(&mut conn, me, id, mine).await?;
            presence_totals(&mut conn, id, alive_since).await
        })
    }

    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query("SELECT 1").execute(&self.reader).await?;
            Ok(())
        })
    }

    fn listen(&self) -> Option<tokio::sync::mpsc::Receiver<Notice>> {
        None
    }

    fn pools(&self) -> super::conn::Pools {
        super::conn::Pools::Sqlite {
            writer: self.writer.clone(),
            reader: self.reader.clone(),
        }
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.reader.close().await;
            self.writer.close().await;
            if let Ok(mut lock) = self.lock.lock() {
                lock.take();
            }
        })
    }
}

super::sql::queries!(SqliteConnection, SqliteRow, false);

/// [`q::CHANGE_GAME`] and then, only if it changed the game (`changes()` counts the rows of the
/// statement just before), the move appended: two statements in one query, so one trip to
/// SQLite's worker thread instead of two for every move.
static CHANGE_APPEND: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{}; INSERT INTO moves (game_id, ply, notation, played_at) \
         SELECT $1, $30, $31, $10 WHERE changes() = 1",
        q::CHANGE_GAME
    )
});

/// A change that appends a move (the change of most moves), in one query; whether it applied.
async fn change_and_append(conn: &mut SqliteConnection, c: &RowChange) -> Result<bool, StoreError> {
    let MovesChange::Append { ply, mv } = &c.moves else {
        unreachable!("only changes that append a move come here");
    };
    let done = bind_change(CHANGE_APPEND.as_str(), c)
        .bind(i64::from(*ply))
        .bind(mv.to_string())
        .execute(&mut *conn)
        .await?;
    // The update and the insert, or neither.
    let applied = done.rows_affected() == 2;
    // A rated game's kept positions change with it (fair play).
    if applied && let Some(kept) = &c.row.kept {
        keep_positions(conn, &c.id, kept).await?;
    }
    Ok(applied)
}
