//! The PostgreSQL backend, for one or several server instances: a connection pool (PostgreSQL
//! makes each commit durable before it returns, `synchronous_commit` on, its default) and one
//! listening connection that hears the other instances' changes (`LISTEN mabula`). Migrations
//! live in `migrations/postgres/`.
//!
//! A pool connection that cannot be had within [`ACQUIRE_TIMEOUT`] fails the request with
//! [`StoreError::Unavailable`], so a database outage is answered quickly, and the service comes
//! back by itself when the database does.

use super::{BoxFuture, CHANNEL, Notice};
use sqlx::Connection;
use sqlx::postgres::{PgConnection, PgListener, PgPool, PgPoolOptions, PgRow};
use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::mpsc;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// How long a request waits for a database connection before it is answered 503.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);

/// Silence on the listening connection after which it is pinged; after three silent periods in
/// a row it is taken for lost and replaced.
const LISTEN_PING: Duration = Duration::from_secs(5);

/// A PostgreSQL database.
pub struct Postgres {
    /// Connections for reads and for the writer task.
    pool: PgPool,
    /// The database URL, for the listening connection.
    url: String,
}

impl Postgres {
    /// Connects to `url` (`postgres://…`) and migrates the database.
    pub async fn open(url: &str) -> Result<Postgres, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect(url)
            .await?;
        // The migrator holds an advisory lock while it works, so instances starting together
        // migrate one after the other.
        MIGRATOR.run(&pool).await?;
        Ok(Postgres {
            pool,
            url: url.to_string(),
        })
    }
}

/// Creates a new, empty database on the server of `url` and answers its URL (for tests and
/// trials: each gets a database of its own).
pub async fn create_database(url: &str) -> Result<String, StoreError> {
    // 64 random bits, in lower-case hex: PostgreSQL folds unquoted names to lower case.
    let name = format!("mabula_{:016x}", rand::random::<u64>());
    let mut admin = PgConnection::connect(url).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await?;
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    Ok(match query {
        Some(q) => format!("{}/{name}?{q}", &base[..host_end]),
        None => format!("{}/{name}", &base[..host_end]),
    })
}

/// A connection listening on [`CHANNEL`], which says when its connection is lost instead of
/// quietly making another: what was announced in between is missed, and only [`listen_loop`]'s
/// [`Notice::Lost`] and [`Notice::Back`] make the services read it again.
async fn listener(url: &str) -> Result<PgListener, sqlx::Error> {
    let mut l = PgListener::connect(url).await?;
    l.eager_reconnect(false);
    l.listen(CHANNEL).await?;
    Ok(l)
}

/// Listens on [`CHANNEL`] until the receiver is dropped, replacing a lost connection: says
/// [`Notice::Back`] once listening (the services then reread what it holds) and [`Notice::Lost`] when
/// the connection is lost.
async fn listen_loop(url: String, pool: PgPool, tx: mpsc::Sender<Notice>) {
    let mut failing = false;
    loop {
        let mut listener = match listener(&url).await {
            Ok(l) => l,
            Err(e) => {
                if !failing {
                    tracing::warn!("cannot listen for other instances (retrying): {e}");
                    failing = true;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        if failing {
            tracing::info!("listening for other instances again");
            failing = false;
        }
        if tx.send(Notice::Back).await.is_err() {
            return;
        }
        let mut silent = 0;
        loop {
            match tokio::time::timeout(LISTEN_PING, listener.try_recv()).await {
                Ok(Ok(Some(n))) => {
                    silent = 0;
                    crate::metrics::notification_received();
                    if let Some(notice) = Notice::parse(n.payload())
                        && tx.send(notice).await.is_err()
                    {
                        return;
                    }
                }
                Ok(Ok(None) | Err(_)) => break,
                Err(_) => {
                    silent += 1;
                    if silent >= 3 {
                        break;
                    }
                    // Our own ping comes back on this connection if it still works.
                    let _ = sqlx::query("SELECT pg_notify($1, 'ping')")
                        .bind(CHANNEL)
                        .execute(&pool)
                        .await;
                }
            }
        }
        tracing::warn!("lost the listening connection; reconnecting");
        if tx.send(Notice::Lost).await.is_err() {
            return;
        }
    }
}

impl super::Backend for Postgres {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn apply<'a>(&'a self, ops: &'a [WriteOp]) -> BoxFuture<'a, Result<Vec<bool>, StoreError>> {
        Box::pin(async move {
            let mut conn = self.pool.acquire().await?;
            if let [WriteOp::Change(c)] = ops
                && c.row.kept.is_none()
            {
                // One statement is a transaction of its own: no BEGIN or COMMIT to wait for.
                return Ok(vec![change_at_once(&mut conn, c).await?]);
            }
            let mut tx = conn.begin().await?;
            let mut outcomes = Vec::with_capacity(ops.len());
            for op in ops {
                outcomes.push(match op {
                    WriteOp::Change(c) => {
                        let applied = change_at_once(&mut tx, c).await?;
                        // A rated game's kept positions change with it (fair play).
                        if applied && let Some(kept) = &c.row.kept {
                            keep_positions(&mut tx, &c.id, kept).await?;
                        }
                        applied
                    }
                    WriteOp::Insert(_, _, cap) => {
                        if let Some(cap) = cap {
                            // Inserts for one address wait for each other, so that two at once
                            // cannot both see room under its cap (read committed sees no
                            // uncommitted row).
                            lock_key(&mut tx, &format!("engine:{}", cap.address)).await?;
                        }
                        apply_one(&mut tx, op).await?
                    }
                });
            }
            tx.commit().await?;
            Ok(outcomes)
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(async move { load_game(&mut *self.pool.acquire().await?, id).await })
    }

    fn version<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<u64>, StoreError>> {
        Box::pin(async move { game_version(&mut *self.pool.acquire().await?, id).await })
    }

    fn list(
        &self,
        filter: ListFilter,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameRow>, StoreError>> {
        Box::pin(async move { list_games(&mut *self.pool.acquire().await?, filter, limit).await })
    }

    fn engine_orphans(
        &self,
        alive_since: i64,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<Orphan>, StoreError>> {
        Box::pin(async move {
            engine_orphans(&mut *self.pool.acquire().await?, alive_since, limit).await
        })
    }

    fn claim_engine<'a>(
        &'a self,
        orphan: &'a Orphan,
        me: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move { claim_engine(&mut *self.pool.acquire().await?, orphan, me).await })
    }

    fn heartbeat<'a>(
        &'a self,
        me: &'a str,
        started: i64,
        now: i64,
        dead_before: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut conn = self.pool.acquire().await?;
            heartbeat(&mut conn, me, started, now, dead_before).await
        })
    }

    fn leave<'a>(&'a self, me: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move { leave(&mut *self.pool.acquire().await?, me).await })
    }

    fn presence<'a>(
        &'a self,
        me: &'a str,
        id: &'a str,
        mine: Option<PresenceCounts>,
        alive_since: i64,
    ) -> BoxFuture<'a, Result<PresenceCounts, StoreError>> {
        Box::pin(async move {
            let mut conn = self.pool.acquire().await?;
            if mine.is_some() {
                set_presence(&mut conn, me, id, mine).await?;
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(CHANNEL)
                    .bind(format!("p {id}"))
                    .execute(&mut *conn)
                    .await?;
            }
            presence_totals(&mut conn, id, alive_since).await
        })
    }

    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query("SELECT 1").execute(&self.pool).await?;
            Ok(())
        })
    }

    fn listen(&self) -> Option<mpsc::Receiver<Notice>> {
        let (tx, rx) = mpsc::channel(4096);
        tokio::spawn(listen_loop(self.url.clone(), self.pool.clone(), tx));
        Some(rx)
    }

    fn pools(&self) -> super::conn::Pools {
        super::conn::Pools::Postgres(self.pool.clone())
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.pool.close().await;
        })
    }
}

super::sql::queries!(PgConnection, PgRow, true);

/// Change `c` of a game in one statement, so in one round trip: the update on condition of the
/// stored version ([`q::CHANGE_GAME`]), the change of its moves, and the notice to the other
/// instances (delivered when, and only if, the change commits). Whether it was applied.
async fn change_at_once(conn: &mut PgConnection, c: &RowChange) -> Result<bool, StoreError> {
    let payload = Notice::game_payload(&c.id, c.expect + 1, c.reason);
    let query = match &c.moves {
        MovesChange::None => bind_change(CHANGE_ONLY.as_str(), c),
        MovesChange::Append { ply, mv } => bind_change(CHANGE_APPEND.as_str(), c)
            .bind(i64::from(*ply))
            .bind(mv.to_string()),
        MovesChange::Truncate { keep } => {
            bind_change(CHANGE_TRUNCATE.as_str(), c).bind(i64::from(*keep))
        }
    };
    let row = query
        .bind(CHANNEL)
        .bind(payload)
        .fetch_one(&mut *conn)
        .await?;
    Ok(row.try_get::<i64, _>("changed")? == 1)
}

/// [`q::CHANGE_GAME`] with `moves` (data-changing subqueries of its own, from `$30`) and the
/// notice (`$N` and `$N+1`: channel and payload, after the moves' placeholders).
fn at_once(moves: &str, notice: u8) -> String {
    format!(
        "WITH up AS ({} RETURNING id){moves}, \
         told AS (SELECT pg_notify(${notice}, ${}) FROM up) \
         SELECT (SELECT count(*) FROM up) AS changed, (SELECT count(*) FROM told) AS told",
        q::CHANGE_GAME,
        notice + 1
    )
}

static CHANGE_ONLY: LazyLock<String> = LazyLock::new(|| at_once("", q::AFTER_CHANGE));
static CHANGE_APPEND: LazyLock<String> = LazyLock::new(|| {
    at_once(
        ", added AS (INSERT INTO moves (game_id, ply, notation, played_at) \
         SELECT id, $30, $31, $10 FROM up)",
        q::AFTER_CHANGE + 2,
    )
});
static CHANGE_TRUNCATE: LazyLock<String> = LazyLock::new(|| {
    at_once(
        ", cut AS (DELETE FROM moves WHERE game_id = $1 AND ply >= $30 \
         AND EXISTS (SELECT 1 FROM up))",
        q::AFTER_CHANGE + 1,
    )
});

/// Takes the transaction-long advisory lock of `key`: writes counted against one key (an
/// address's engine games, seeks) wait for each other, so a cap checked by a count holds.
pub(super) async fn lock_key(conn: &mut PgConnection, key: &str) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
        .bind(key)
        .execute(conn)
        .await?;
    Ok(())
}
