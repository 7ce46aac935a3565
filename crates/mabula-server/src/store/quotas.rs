//! Quotas: events counted under a key in a window of time (sign-ups per address, exports per
//! account, rated games per pair of accounts), each counted in the statement that notes it.
//! Each service that counts holds its own [`Quotas`], whose keys begin with its own prefix, so
//! that no two services count under one key.

use super::StoreError;
use super::conn::{Conn, on_db};
use sqlx::Row;

/// Events counted under keys of one prefix (one service's).
#[derive(Clone, Debug)]
pub struct Quotas {
    conn: Conn,
    /// What every key of this service begins with (`s:`, `x:`, `p:`).
    prefix: &'static str,
}

impl Quotas {
    pub(super) fn new(conn: Conn, prefix: &'static str) -> Quotas {
        Quotas { conn, prefix }
    }

    /// Notes one event under `key` (after this service's prefix: a sign-up from an address, a
    /// rated game of a pair) at `now`
    /// if fewer than `cap` were noted since `since` (counted in the same statement, and on
    /// PostgreSQL under a lock of the key, so that instances do not each count their own);
    /// forgets the key's events before `since`. Whether it was noted.
    pub async fn take(
        &self,
        key: &str,
        now: i64,
        since: i64,
        cap: u32,
    ) -> Result<bool, StoreError> {
        let full = format!("{}{key}", self.prefix);
        let key = full.as_str();
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            if pg {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                    .bind(key)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query("DELETE FROM quotas WHERE key = $1 AND at < $2")
                .bind(key)
                .bind(since)
                .execute(&mut *tx)
                .await?;
            let done = sqlx::query(
                "INSERT INTO quotas (key, at) SELECT $1, $2 \
                 WHERE (SELECT count(*) FROM quotas WHERE key = $1 AND at >= $3) < $4",
            )
            .bind(key)
            .bind(now)
            .bind(since)
            .bind(i64::from(cap))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The oldest event under `key` (after this service's prefix) since `since` (ms), if any: when the quota frees a place.
    pub async fn oldest(&self, key: &str, since: i64) -> Result<Option<i64>, StoreError> {
        let full = format!("{}{key}", self.prefix);
        let key = full.as_str();
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT min(at) FROM quotas WHERE key = $1 AND at >= $2")
                .bind(key)
                .bind(since)
                .fetch_one(pool)
                .await?;
            Ok(row.try_get::<Option<i64>, _>(0)?)
        })
    }
}
