//! Seeks and challenges (the [lobby](crate::services::lobby)'s repository). A seek is put in
//! the lobby under the caps of its account and its address, counted in the statement that puts
//! it (on PostgreSQL under a lock of both), and taken out once by one `DELETE … RETURNING`;
//! each change is announced with `NOTIFY` in its own transaction.

use super::StoreError;
use super::conn::{Announce, Conn, control_of, corrupt, on_db};
use crate::model::TimeControl;
use mabula::Scoring;
use sqlx::Row;

/// A seek (open to all) or a challenge (to one account).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRow {
    /// The seek's id.
    pub id: String,
    /// Who seeks: the account's key.
    pub account: String,
    /// Their name.
    pub name: String,
    /// Their rating for this scoring and speed.
    pub rating: i32,
    /// Whether it is provisional.
    pub provisional: bool,
    /// The account challenged (a challenge), or `None` (a seek).
    pub target: Option<String>,
    /// The scoring mode.
    pub scoring: Scoring,
    /// Rated or casual.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
    /// The seeker's colour: `white`, `black` or `random`.
    pub color: String,
    /// The least rating of an opponent.
    pub rating_min: Option<i32>,
    /// The greatest rating of an opponent.
    pub rating_max: Option<i32>,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it lapses (ms).
    pub expires_at: i64,
    /// The client address it was opened from (open seeks are capped per address too).
    pub address: String,
    /// The seek does not want to meet bots (issue 38).
    pub no_bots: bool,
    /// Its owner is a bot.
    pub bot: bool,
}

/// How many seeks and challenges may be open at once, per account and per client address.
#[derive(Clone, Copy, Debug)]
pub struct SeekCaps {
    /// Per account.
    pub per_account: u32,
    /// Per client address.
    pub per_address: u32,
    /// Seeks open to everyone, per account, when the seek's rating is provisional: a new
    /// account cannot fill the lobby (challenges to a named player count only under
    /// `per_account`).
    pub provisional_open: u32,
}

/// The most seeks the lobby lists: those of players with a settled rating first, then the
/// newest, so that no number of new accounts pushes an established player's seek off the list.
pub const LISTED_SEEKS: i64 = 500;

/// The columns of a `seeks` row, as [`seek_row!`] reads them, in `concat!`.
macro_rules! seek_columns {
    () => {
        "id, account, name, rating, provisional, target, scoring, rated, initial_s, \
         increment_s, days, color, rating_min, rating_max, created_at, expires_at, address, \
         no_bots, bot"
    };
}

/// Reads a `seeks` row (of either database).
macro_rules! seek_row {
    ($r:expr) => {{
        let r = $r;
        let id: String = r.try_get("id")?;
        let scoring: String = r.try_get("scoring")?;
        let control = control_of(
            r.try_get("initial_s")?,
            r.try_get("increment_s")?,
            r.try_get("days")?,
        )
        .ok_or_else(|| corrupt(&id, "seek without a time control"))?;
        let small = |v: Option<i64>| v.and_then(|x| i32::try_from(x).ok());
        Ok::<SeekRow, StoreError>(SeekRow {
            account: r.try_get("account")?,
            name: r.try_get("name")?,
            rating: i32::try_from(r.try_get::<i64, _>("rating")?).unwrap_or(1500),
            provisional: r.try_get("provisional")?,
            target: r.try_get("target")?,
            scoring: scoring
                .parse()
                .map_err(|_| corrupt(&id, format!("scoring {scoring}")))?,
            rated: r.try_get("rated")?,
            control,
            color: r.try_get("color")?,
            rating_min: small(r.try_get("rating_min")?),
            rating_max: small(r.try_get("rating_max")?),
            created_at: r.try_get("created_at")?,
            expires_at: r.try_get("expires_at")?,
            address: r.try_get("address")?,
            no_bots: r.try_get("no_bots")?,
            bot: r.try_get("bot")?,
            id,
        })
    }};
}

/// The notices a change of seek `s` sends: the lobby, its owner and the challenged player.
pub fn seek_notices(s: &SeekRow) -> Vec<String> {
    let mut n = vec!["l".to_string(), format!("u {} challenges", s.account)];
    if let Some(t) = &s.target {
        n.push(format!("u {t} challenges"));
    }
    n
}

/// The lobby's repository.
#[derive(Clone, Debug)]
pub struct LobbyRepo {
    conn: Conn,
}

impl LobbyRepo {
    pub(super) fn new(conn: Conn) -> LobbyRepo {
        LobbyRepo { conn }
    }

    /// Keeps the real-time seeks of `key` that live with its lobby socket alive until `until`;
    /// answers how many there are.
    pub async fn keep_seeks_alive(&self, key: &str, until: i64) -> Result<u64, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query(
                "UPDATE seeks SET alive_until = $2 WHERE account = $1 \
                 AND alive_until IS NOT NULL AND alive_until < $2",
            )
            .bind(key)
            .bind(until)
            .execute(pool)
            .await?;
            Ok(done.rows_affected())
        })
    }

    /// Puts seek `s` in the lobby, announcing it. With `caps`, only if its account and its
    /// address have fewer open seeks than they allow (counted in the same statement, so
    /// instances do not each count their own); whether it was put. With `alive_until`, it
    /// lives only while its owner's lobby socket pushes that forward (see [`LobbyRepo::keep_seeks_alive`]).
    pub async fn insert_seek(
        &self,
        s: &SeekRow,
        caps: Option<SeekCaps>,
        alive_until: Option<i64>,
    ) -> Result<bool, StoreError> {
        let (initial, increment, days) = match s.control {
            TimeControl::Clock {
                initial_s,
                increment_s,
            } => (
                Some(i64::from(initial_s)),
                Some(i64::from(increment_s)),
                None,
            ),
            TimeControl::Days { days } => (None, None, Some(i64::from(days))),
        };
        let notices = seek_notices(s);
        let caps = caps.unwrap_or(SeekCaps {
            per_account: u32::MAX,
            per_address: u32::MAX,
            provisional_open: u32::MAX,
        });
        // The cap that applies to a provisional player's seek to everyone (else none).
        let open_cap = if s.provisional && s.target.is_none() {
            caps.provisional_open
        } else {
            u32::MAX
        };
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            if pg {
                // Seeks of one player, and of one address, wait for each other (always in this
                // order), so that two at once cannot both see room under a cap.
                for key in [
                    format!("seeks:{}", s.account),
                    format!("seeks@{}", s.address),
                ] {
                    sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                        .bind(key)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            let done = sqlx::query(concat!(
                "INSERT INTO seeks (",
                seek_columns!(),
                ") SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
                 $17, $18, $19 WHERE (SELECT count(*) FROM seeks WHERE account = $2 AND \
                 expires_at > $15) < $20 AND (SELECT count(*) FROM seeks WHERE address = $17 AND \
                 expires_at > $15) < $21 AND (SELECT count(*) FROM seeks WHERE account = $2 AND \
                 target IS NULL AND expires_at > $15) < $22 AND NOT EXISTS (SELECT 1 FROM blocks \
                 WHERE blocker = $6 AND blocked = $2)"
            ))
            .bind(&s.id)
            .bind(&s.account)
            .bind(&s.name)
            .bind(i64::from(s.rating))
            .bind(s.provisional)
            .bind(s.target.as_deref())
            .bind(s.scoring.name())
            .bind(s.rated)
            .bind(initial)
            .bind(increment)
            .bind(days)
            .bind(&s.color)
            .bind(s.rating_min.map(i64::from))
            .bind(s.rating_max.map(i64::from))
            .bind(s.created_at)
            .bind(s.expires_at)
            .bind(&s.address)
            .bind(s.no_bots)
            .bind(s.bot)
            .bind(i64::from(caps.per_account))
            .bind(i64::from(caps.per_address))
            .bind(i64::from(open_cap))
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 0 {
                return Ok(false);
            }
            if alive_until.is_some() {
                sqlx::query("UPDATE seeks SET alive_until = $2 WHERE id = $1")
                    .bind(&s.id)
                    .bind(alive_until)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.announce(&notices).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Open seeks and challenges not lapsed at `now`, oldest first: all seeks, and the
    /// challenges to or from `me`; at most [`LISTED_SEEKS`], those of `me`, then those of settled
    /// ratings, then the newest first, so that no number of other seeks hides a player's own.
    pub async fn seeks(&self, now: i64, me: Option<&str>) -> Result<Vec<SeekRow>, StoreError> {
        let mut rows = on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(concat!(
                "SELECT ",
                seek_columns!(),
                " FROM seeks WHERE expires_at > $1 \
                 AND (target IS NULL OR target = $2 OR account = $2) \
                 ORDER BY CASE WHEN account = $2 OR target = $2 THEN 0 ELSE 1 END, \
                 provisional, created_at DESC LIMIT $3"
            ))
            .bind(now)
            .bind(me.unwrap_or(""))
            .bind(LISTED_SEEKS)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| seek_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })?;
        rows.sort_by_key(|s| s.created_at);
        Ok(rows)
    }

    /// Open seeks to everyone not lapsed at `now`, oldest first: at most [`LISTED_SEEKS`], those
    /// of settled ratings and then the newest first.
    pub async fn public_seeks(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        let mut rows = on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(concat!(
                "SELECT ",
                seek_columns!(),
                " FROM seeks WHERE expires_at > $1 AND target IS NULL \
                 ORDER BY provisional, created_at DESC LIMIT $2"
            ))
            .bind(now)
            .bind(LISTED_SEEKS)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| seek_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })?;
        rows.sort_by_key(|s| s.created_at);
        Ok(rows)
    }

    /// The open seeks and challenges of `me` and the challenges to `me` not lapsed at `now`,
    /// oldest first: the newest 500.
    pub async fn own_seeks(&self, now: i64, me: &str) -> Result<Vec<SeekRow>, StoreError> {
        let mut rows = on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(concat!(
                "SELECT ",
                seek_columns!(),
                " FROM seeks WHERE expires_at > $1 AND (account = $2 OR target = $2) \
                 ORDER BY created_at DESC LIMIT 500"
            ))
            .bind(now)
            .bind(me)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| seek_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })?;
        rows.reverse();
        Ok(rows)
    }

    /// Open seek or challenge `id`, whoever it is for, if it has not lapsed at `now`.
    pub async fn seek(&self, id: &str, now: i64) -> Result<Option<SeekRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(concat!(
                "SELECT ",
                seek_columns!(),
                " FROM seeks WHERE id = $1 AND expires_at > $2"
            ))
            .bind(id)
            .bind(now)
            .fetch_optional(pool)
            .await?;
            row.map(|r| seek_row!(&r)).transpose()
        })
    }

    /// Takes seek `id` out of the lobby for good (to start its game, or to cancel it),
    /// announcing it; `None` when it is gone already.
    pub async fn take_seek(&self, id: &str, now: i64) -> Result<Option<SeekRow>, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let row = sqlx::query(concat!(
                "DELETE FROM seeks WHERE id = $1 AND expires_at > $2 RETURNING ",
                seek_columns!()
            ))
            .bind(id)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let seek = seek_row!(&row)?;
            tx.announce(&seek_notices(&seek)).await?;
            tx.commit().await?;
            Ok(Some(seek))
        })
    }

    /// Removes the seeks that lapsed by `now`, and the real-time seeks whose owner's lobby
    /// socket stopped keeping them alive (`alive_until`); answers whether there were any (and announces it).
    pub async fn expire_seeks(&self, now: i64) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query("DELETE FROM seeks WHERE expires_at <= $1 OR alive_until <= $1")
                .bind(now)
                .execute(&mut *tx)
                .await?;
            let any = done.rows_affected() > 0;
            if any {
                tx.announce(&["l".to_string()]).await?;
            }
            tx.commit().await?;
            Ok(any)
        })
    }
}
