//! Moderation (the [moderation service](crate::services::moderation)'s repository): blocks
//! between accounts, reports to the moderators, and the moderators' flags on accounts
//! (moderator, muted, closed). A report is counted per reporter and hour in its own statement;
//! closing an account ends its sessions and takes its seeks out of the lobby in the one
//! transaction, announced with `NOTIFY`; on SQLite the caller delivers the same notices itself.

use super::StoreError;
use super::conn::{Announce, Conn, on_db};
use sqlx::Row;

/// A report as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    /// Its id.
    pub id: i64,
    /// Who reported (account key).
    pub reporter: String,
    /// Who is reported (account key).
    pub player: String,
    /// `cheating`, `abuse`, `spam` or `other`.
    pub reason: String,
    /// What the reporter wrote.
    pub text: String,
    /// The game named, if any.
    pub game_id: Option<String>,
    /// The chat line named, if any.
    pub chat_line: Option<i64>,
    /// When (ms).
    pub created_at: i64,
}

macro_rules! report_row {
    ($r:expr) => {{
        let r = $r;
        Ok::<_, StoreError>(ReportRow {
            id: r.try_get(0)?,
            reporter: r.try_get(1)?,
            player: r.try_get(2)?,
            reason: r.try_get(3)?,
            text: r.try_get(4)?,
            game_id: r.try_get(5)?,
            chat_line: r.try_get(6)?,
            created_at: r.try_get(7)?,
        })
    }};
}

/// The moderation's repository.
#[derive(Clone, Debug)]
pub struct ModerationRepo {
    conn: Conn,
}

impl ModerationRepo {
    pub(super) fn new(conn: Conn) -> ModerationRepo {
        ModerationRepo { conn }
    }

    /// `blocker` blocks `blocked` (again: nothing changes).
    pub async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "INSERT INTO blocks (blocker, blocked, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (blocker, blocked) DO NOTHING",
            )
            .bind(blocker)
            .bind(blocked)
            .bind(now)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// `blocker` no longer blocks `blocked`; whether it did.
    pub async fn unblock(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
                .bind(blocker)
                .bind(blocked)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    /// The names of the accounts `blocker` blocks, in the order they were blocked.
    pub async fn blocks(&self, blocker: &str) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT a.name FROM blocks b JOIN accounts a ON a.key = b.blocked \
                 WHERE b.blocker = $1 ORDER BY b.created_at, a.key LIMIT 10000",
            )
            .bind(blocker)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    /// How many accounts `blocker` blocks.
    pub async fn block_count(&self, blocker: &str) -> Result<i64, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT CAST(COUNT(*) AS BIGINT) FROM blocks WHERE blocker = $1")
                .bind(blocker)
                .fetch_one(pool)
                .await?;
            Ok(row.try_get(0)?)
        })
    }

    /// Whether `blocker` blocks `blocked`.
    pub async fn blocks_player(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT 1 FROM blocks WHERE blocker = $1 AND blocked = $2")
                .bind(blocker)
                .bind(blocked)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }

    /// Stores report `r` (its `id` ignored) if its reporter made fewer than `cap` since `since`
    /// (counted in the same statement, under a lock of the reporter on PostgreSQL); its id.
    pub async fn add_report(
        &self,
        r: &ReportRow,
        since: i64,
        cap: u32,
    ) -> Result<Option<i64>, StoreError> {
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            if pg {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                    .bind(format!("report:{}", r.reporter))
                    .execute(&mut *tx)
                    .await?;
            }
            let row = sqlx::query(
                "INSERT INTO reports (reporter, player, reason, text, game_id, chat_line, \
                 created_at) SELECT $1, $2, $3, $4, $5, $6, $7 \
                 WHERE (SELECT count(*) FROM reports WHERE reporter = $1 AND created_at >= $8) \
                 < $9 RETURNING id",
            )
            .bind(&r.reporter)
            .bind(&r.player)
            .bind(&r.reason)
            .bind(&r.text)
            .bind(r.game_id.as_deref())
            .bind(r.chat_line)
            .bind(r.created_at)
            .bind(since)
            .bind(i64::from(cap))
            .fetch_optional(&mut *tx)
            .await?;
            let id = row.map(|row| row.try_get::<i64, _>(0)).transpose()?;
            tx.commit().await?;
            Ok(id)
        })
    }

    /// The open reports, oldest first (at most `limit`).
    pub async fn open_reports(&self, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id, reporter, player, reason, text, game_id, chat_line, created_at \
                 FROM reports WHERE resolved_at IS NULL ORDER BY id LIMIT $1",
            )
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| report_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })
    }

    /// Resolves open report `id` by moderator `by` with `note`; whether it was open.
    pub async fn resolve_report(
        &self,
        id: i64,
        by: &str,
        note: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query(
                "UPDATE reports SET resolved_at = $2, resolved_by = $3, resolution = $4 \
                 WHERE id = $1 AND resolved_at IS NULL",
            )
            .bind(id)
            .bind(now)
            .bind(by)
            .bind(note)
            .execute(pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Makes account `key` a moderator or not; whether it exists.
    pub async fn set_moderator(&self, key: &str, moderator: bool) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("UPDATE accounts SET moderator = $2 WHERE key = $1")
                .bind(key)
                .bind(moderator)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Mutes account `key` until `until` (ms; `i64::MAX`: until unmuted), or unmutes it
    /// (`None`); whether it exists.
    pub async fn set_muted(&self, key: &str, until: Option<i64>) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("UPDATE accounts SET muted_until = $2 WHERE key = $1")
                .bind(key)
                .bind(until)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Closes account `key`: it can no longer log in, its sessions end and its open seeks and
    /// challenges (and the challenges to it) leave the lobby, announced to every instance. The
    /// notices announced (the caller delivers them on SQLite), or `None` if no such account.
    pub async fn close_account(
        &self,
        key: &str,
        now: i64,
    ) -> Result<Option<Vec<String>>, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE accounts SET closed_at = COALESCE(closed_at, $2) WHERE key = $1",
            )
            .bind(key)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 0 {
                return Ok(None);
            }
            sqlx::query("DELETE FROM sessions WHERE account = $1")
                .bind(key)
                .execute(&mut *tx)
                .await?;
            let gone = sqlx::query(
                "DELETE FROM seeks WHERE account = $1 OR target = $1 RETURNING account, target",
            )
            .bind(key)
            .fetch_all(&mut *tx)
            .await?;
            let mut notices = Vec::new();
            if !gone.is_empty() {
                notices.push("l".to_string());
                for r in &gone {
                    let account: String = r.try_get(0)?;
                    let target: Option<String> = r.try_get(1)?;
                    for k in std::iter::once(account).chain(target) {
                        let n = format!("u {k} challenges");
                        if !notices.contains(&n) {
                            notices.push(n);
                        }
                    }
                }
                tx.announce(&notices).await?;
            }
            tx.commit().await?;
            Ok(Some(notices))
        })
    }

    /// Opens closed account `key` again; whether it exists.
    pub async fn reopen_account(&self, key: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("UPDATE accounts SET closed_at = NULL WHERE key = $1")
                .bind(key)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
