//! The social side of the store: a game's chat lines, blocks between accounts, reports to the
//! moderators, and the moderators' flags on accounts (moderator, muted, closed).
//!
//! Every limit is counted in the statement or transaction that writes (chat lines per writer
//! and ten seconds, reports per reporter and hour; on PostgreSQL under a lock of the writer),
//! so that instances do not each count their own. A chat line and the closing of an account
//! announce themselves with `NOTIFY` in their own transaction; on SQLite the caller delivers the
//! same notices itself.

use super::StoreError;
use super::conn::{Announce, on_db};
use super::players::Db;
use sqlx::Row;

/// A chat line as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLineRow {
    /// Its id (ascending in time).
    pub id: i64,
    /// The game.
    pub game_id: String,
    /// `players` or `spectators`.
    pub room: String,
    /// The writer's account key; `None` for a guest seat.
    pub author: Option<String>,
    /// The writer's seat (`white` or `black`), when a player wrote it.
    pub side: Option<String>,
    /// The writer's name as shown (empty for a guest seat).
    pub name: String,
    /// The text (trimmed, at most 140 characters, no control characters).
    pub text: String,
    /// When (ms).
    pub at: i64,
}

/// What became of a chat line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// Stored (and announced), with its id.
    Stored(ChatLineRow),
    /// The writer is muted until then (ms; `i64::MAX`: until unmuted).
    Muted(i64),
    /// A player of the game blocks the writer.
    Blocked,
    /// The writer said as many lines as allowed in the window.
    TooMany,
}

/// How many chat lines one writer may say in a window.
#[derive(Clone, Copy, Debug)]
pub struct ChatRate {
    /// Lines.
    pub lines: u32,
    /// The window (ms).
    pub window_ms: i64,
}

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

/// The moderation flags of an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountFlags {
    /// The name as written.
    pub name: String,
    /// Whether it is a moderator.
    pub moderator: bool,
    /// Muted until then (ms); `i64::MAX`: until unmuted.
    pub muted_until: Option<i64>,
    /// When a moderator closed it.
    pub closed_at: Option<i64>,
}

/// Chat lines from `id` to `at`, as [`chat_row!`] reads them.
const CHAT_COLUMNS: &str = "id, game_id, room, author, side, name, text, at";

macro_rules! chat_row {
    ($r:expr) => {{
        let r = $r;
        Ok::<_, StoreError>(ChatLineRow {
            id: r.try_get(0)?,
            game_id: r.try_get(1)?,
            room: r.try_get(2)?,
            author: r.try_get(3)?,
            side: r.try_get(4)?,
            name: r.try_get(5)?,
            text: r.try_get(6)?,
            at: r.try_get(7)?,
        })
    }};
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

/// The notice of a chat line: `c GAME PAYLOAD`, the payload being the line as its sockets read
/// it (the service writes it).
pub fn chat_notice(game_id: &str, payload: &str) -> String {
    format!("c {game_id} {payload}")
}

impl Db {
    /// Stores chat line `line` (its `id` is ignored) unless its writer is muted, blocked by a
    /// player of the game, or said `rate.lines` lines in the last `rate.window_ms` (a guest seat
    /// is counted per game and side); announces it with the payload `notice` makes of the
    /// stored line.
    pub async fn say(
        &self,
        line: &ChatLineRow,
        rate: ChatRate,
        notice: impl FnOnce(&ChatLineRow) -> String,
    ) -> Result<Said, StoreError> {
        let since = line.at - rate.window_ms;
        let writer = match &line.author {
            Some(a) => format!("chat:{a}"),
            None => format!(
                "chat:{}:{}",
                line.game_id,
                line.side.as_deref().unwrap_or("")
            ),
        };
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            if pg {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                    .bind(&writer)
                    .execute(&mut *tx)
                    .await?;
            }
            if let Some(author) = &line.author {
                let muted: Option<i64> = sqlx::query(
                    "SELECT muted_until FROM accounts WHERE key = $1 AND muted_until > $2",
                )
                .bind(author)
                .bind(line.at)
                .fetch_optional(&mut *tx)
                .await?
                .map(|r| r.try_get(0))
                .transpose()?
                .flatten();
                if let Some(until) = muted {
                    return Ok(Said::Muted(until));
                }
                let blocked = sqlx::query(
                    "SELECT 1 FROM blocks b JOIN games g ON g.id = $1 \
                     WHERE b.blocked = $2 \
                     AND (b.blocker = g.white_account OR b.blocker = g.black_account)",
                )
                .bind(&line.game_id)
                .bind(author)
                .fetch_optional(&mut *tx)
                .await?;
                if blocked.is_some() {
                    return Ok(Said::Blocked);
                }
            }
            let done = sqlx::query(
                "INSERT INTO chat_lines (game_id, room, author, side, name, text, at) \
                 SELECT $1, $2, $3, $4, $5, $6, $7 \
                 WHERE (SELECT count(*) FROM chat_lines WHERE at >= $8 AND \
                 ((author = $3) OR ($3 IS NULL AND author IS NULL AND game_id = $1 \
                 AND side = $4))) < $9 RETURNING id",
            )
            .bind(&line.game_id)
            .bind(&line.room)
            .bind(line.author.as_deref())
            .bind(line.side.as_deref())
            .bind(&line.name)
            .bind(&line.text)
            .bind(line.at)
            .bind(since)
            .bind(i64::from(rate.lines))
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = done else {
                return Ok(Said::TooMany);
            };
            let stored = ChatLineRow {
                id: row.try_get(0)?,
                ..line.clone()
            };
            tx.announce(&[notice(&stored)]).await?;
            tx.commit().await?;
            Ok(Said::Stored(stored))
        })
    }

    /// The chat of game `id` in `rooms`: the last `limit` lines of each room, oldest first.
    pub async fn chat_lines(
        &self,
        id: &str,
        rooms: &[&str],
        limit: u32,
    ) -> Result<Vec<ChatLineRow>, StoreError> {
        let mut lines = Vec::new();
        for room in rooms {
            let mut some = on_db!(&self.conn, read, |pool, _pg| {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {CHAT_COLUMNS} FROM chat_lines WHERE game_id = $1 AND room = $2 \
                     ORDER BY id DESC LIMIT $3"
                )))
                .bind(id)
                .bind(*room)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
                rows.iter()
                    .map(|r| chat_row!(r))
                    .collect::<Result<Vec<_>, _>>()
            })?;
            lines.append(&mut some);
        }
        lines.sort_by_key(|l| l.id);
        Ok(lines)
    }

    /// Chat line `id`.
    pub async fn chat_line(&self, id: i64) -> Result<Option<ChatLineRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {CHAT_COLUMNS} FROM chat_lines WHERE id = $1"
            )))
            .bind(id)
            .fetch_optional(pool)
            .await?;
            row.map(|r| chat_row!(&r)).transpose()
        })
    }

    /// Every chat line account `key` wrote, oldest first (for the account's data export).
    pub async fn chat_lines_of_account(&self, key: &str) -> Result<Vec<ChatLineRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {CHAT_COLUMNS} FROM chat_lines WHERE author = $1 ORDER BY id"
            )))
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| chat_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })
    }

    /// The lines account `key` wrote in game `id` up to line `upto` (all if `None`), the last
    /// `limit`, oldest first: what a moderator reads beside a report.
    pub async fn chat_context(
        &self,
        id: &str,
        key: &str,
        upto: Option<i64>,
        limit: u32,
    ) -> Result<Vec<ChatLineRow>, StoreError> {
        let mut rows = on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {CHAT_COLUMNS} FROM chat_lines WHERE game_id = $1 AND author = $2 \
                 AND id <= $3 ORDER BY id DESC LIMIT $4"
            )))
            .bind(id)
            .bind(key)
            .bind(upto.unwrap_or(i64::MAX))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| chat_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })?;
        rows.reverse();
        Ok(rows)
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

    /// The moderation flags of account `key`, if it exists.
    pub async fn account_flags(&self, key: &str) -> Result<Option<AccountFlags>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT name, moderator, muted_until, closed_at FROM accounts WHERE key = $1",
            )
            .bind(key)
            .fetch_optional(pool)
            .await?;
            row.map(|r| {
                Ok(AccountFlags {
                    name: r.try_get(0)?,
                    moderator: r.try_get(1)?,
                    muted_until: r.try_get(2)?,
                    closed_at: r.try_get(3)?,
                })
            })
            .transpose()
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

    /// Gives account `key` the password whose hash is `hash` and ends its sessions; whether it
    /// exists.
    pub async fn reset_password(&self, key: &str, hash: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query("UPDATE accounts SET password_hash = $2 WHERE key = $1")
                .bind(key)
                .bind(hash)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE account = $1")
                .bind(key)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
