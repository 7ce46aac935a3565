//! The sessions of the accounts (the [accounts service](crate::services::accounts)'s second
//! repository): a session found by the hash of its cookie's secret, its signs of life, the
//! sessions of an account by device, ending one or all.

use super::StoreError;
use super::conn::{Conn, on_db};
use sqlx::Row;

/// A session as the account page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionMeta {
    /// The hash of the cookie's secret (its id in the store).
    pub id_hash: Vec<u8>,
    /// When it began (ms).
    pub created_at: i64,
    /// When it was last used, to the minute (ms).
    pub seen_at: i64,
    /// The device label read from the User-Agent when it began.
    pub device: String,
}

/// A session: whose it is and its CSRF token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// The account's key.
    pub key: String,
    /// The account's name.
    pub name: String,
    /// The token every write of this session must send.
    pub csrf: String,
    /// When it was last used, to the minute (ms).
    pub seen_at: i64,
    /// Whether the account is a bot (its cookie cannot play games: issue 38).
    pub bot: bool,
}

/// The sessions' repository, the accounts service's.
#[derive(Clone, Debug)]
pub struct SessionsRepo {
    conn: Conn,
}

impl SessionsRepo {
    pub(super) fn new(conn: Conn) -> SessionsRepo {
        SessionsRepo { conn }
    }

    /// Notes a sign of life of session `id_hash` of account `key` at `now`, if its last one is
    /// older than `before` (so that this writes at most once a minute per session).
    pub async fn touch_session(
        &self,
        id_hash: &[u8; 32],
        key: &str,
        now: i64,
        before: i64,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE sessions SET seen_at = $2 WHERE id_hash = $1 AND seen_at < $3")
                .bind(id_hash.to_vec())
                .bind(now)
                .bind(before)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE accounts SET last_seen = $2 WHERE key = $1 AND last_seen < $3")
                .bind(key)
                .bind(now)
                .bind(before)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// The sessions of `key`, the latest used first (at most 200).
    pub async fn sessions_of(&self, key: &str) -> Result<Vec<SessionMeta>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id_hash, created_at, seen_at, device FROM sessions WHERE account = $1 \
                 ORDER BY seen_at DESC, created_at DESC LIMIT 200",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(SessionMeta {
                        id_hash: r.try_get(0)?,
                        created_at: r.try_get(1)?,
                        seen_at: r.try_get(2)?,
                        device: r.try_get(3)?,
                    })
                })
                .collect()
        })
    }

    /// Ends session `id_hash` if it is one of `key`'s; whether it was.
    pub async fn delete_session_of(&self, key: &str, id_hash: &[u8]) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("DELETE FROM sessions WHERE id_hash = $1 AND account = $2")
                .bind(id_hash.to_vec())
                .bind(key)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Ends every session of `key` but `keep`; answers how many.
    pub async fn delete_other_sessions(
        &self,
        key: &str,
        keep: &[u8; 32],
    ) -> Result<u64, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("DELETE FROM sessions WHERE account = $1 AND id_hash <> $2")
                .bind(key)
                .bind(keep.to_vec())
                .execute(pool)
                .await?;
            Ok(done.rows_affected())
        })
    }

    /// Starts a session of `key` under the hash of its cookie's secret, on the device labelled
    /// `device`.
    pub async fn create_session(
        &self,
        id_hash: &[u8; 32],
        key: &str,
        csrf: &str,
        device: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "INSERT INTO sessions (id_hash, account, csrf, created_at, seen_at, device) \
                 VALUES ($1, $2, $3, $4, $4, $5)",
            )
            .bind(id_hash.to_vec())
            .bind(key)
            .bind(csrf)
            .bind(now)
            .bind(device)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The session whose cookie's secret hashes to `id_hash`.
    pub async fn session(&self, id_hash: &[u8; 32]) -> Result<Option<SessionRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT s.account, a.name, s.csrf, s.seen_at, a.bot FROM sessions s \
                 JOIN accounts a ON a.key = s.account WHERE s.id_hash = $1 \
                 AND a.closed_at IS NULL",
            )
            .bind(id_hash.to_vec())
            .fetch_optional(pool)
            .await?;
            row.map(|r| {
                Ok(SessionRow {
                    key: r.try_get(0)?,
                    name: r.try_get(1)?,
                    csrf: r.try_get(2)?,
                    seen_at: r.try_get(3)?,
                    bot: r.try_get(4)?,
                })
            })
            .transpose()
        })
    }

    /// Ends one session.
    pub async fn delete_session(&self, id_hash: &[u8; 32]) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
                .bind(id_hash.to_vec())
                .execute(pool)
                .await?;
            Ok(())
        })
    }
}
