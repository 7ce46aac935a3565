//! A game's chat lines (the [chat service](crate::services::chat)'s repository). A line is
//! refused in the statement that stores it if its writer is muted, blocked or too quick (on
//! PostgreSQL under a lock of the writer), and announced with `NOTIFY` in its own transaction.

use super::StoreError;
use super::conn::{Announce, Conn, on_db};
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

/// The notice of a chat line: `c GAME PAYLOAD`, the payload being the line as its sockets read
/// it (the service writes it).
pub fn chat_notice(game_id: &str, payload: &str) -> String {
    format!("c {game_id} {payload}")
}

/// The chat's repository.
#[derive(Clone, Debug)]
pub struct ChatRepo {
    conn: Conn,
}

impl ChatRepo {
    pub(super) fn new(conn: Conn) -> ChatRepo {
        ChatRepo { conn }
    }

    /// Stores chat line `line` (its `id` is ignored) unless its writer is muted, blocked by a
    /// player of the game, or said `rate.lines` lines in the last `rate.window_ms` (guests are
    /// counted per client `address`, whatever their games and seats, and per seat); announces
    /// it with the payload `notice` makes of the stored line.
    pub async fn say(
        &self,
        line: &ChatLineRow,
        address: &str,
        rate: ChatRate,
        notice: impl FnOnce(&ChatLineRow) -> String,
    ) -> Result<Said, StoreError> {
        let since = line.at - rate.window_ms;
        let (writer, address) = match &line.author {
            Some(a) => (format!("chat:{a}"), None),
            None => (format!("chat@{address}"), Some(address)),
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
                "INSERT INTO chat_lines (game_id, room, author, side, name, text, at, address) \
                 SELECT $1, $2, $3, $4, $5, $6, $7, $10 \
                 WHERE (SELECT count(*) FROM chat_lines WHERE at >= $8 AND \
                 ((author = $3) OR ($3 IS NULL AND author IS NULL AND (address = $10 \
                 OR (game_id = $1 AND side = $4))))) < $9 RETURNING id",
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
            .bind(address)
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
}
