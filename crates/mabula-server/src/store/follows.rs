//! Who follows whom (the [follows service](crate::services::follows)'s repository): follows,
//! the followed players' live games, and how many accounts are online.

use super::StoreError;
use super::conn::{Conn, on_db};
use crate::model::TimeControl;
use sqlx::Row;

/// A player the account follows, and when they last showed a sign of life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowRow {
    /// Their key.
    pub key: String,
    /// Their name.
    pub name: String,
    /// Their last sign of life (ms; 0: never).
    pub last_seen: i64,
}

/// An unfinished game of a followed player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRow {
    /// The game id.
    pub id: String,
    /// White's and Black's accounts.
    pub accounts: [Option<String>; 2],
    /// White's and Black's names.
    pub names: [Option<String>; 2],
    /// The time control, if any.
    pub control: Option<TimeControl>,
    /// Moves played.
    pub move_count: u32,
}

/// The follows' repository.
#[derive(Clone, Debug)]
pub struct FollowsRepo {
    conn: Conn,
}

impl FollowsRepo {
    pub(super) fn new(conn: Conn) -> FollowsRepo {
        FollowsRepo { conn }
    }

    /// How many accounts showed a sign of life since `since`.
    pub async fn online_count(&self, since: i64) -> Result<u64, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row =
                sqlx::query("SELECT CAST(COUNT(*) AS BIGINT) FROM accounts WHERE last_seen >= $1")
                    .bind(since)
                    .fetch_one(pool)
                    .await?;
            Ok(u64::try_from(row.try_get::<i64, _>(0)?).unwrap_or(0))
        })
    }

    /// `follower` follows `followed`, if they follow fewer than `cap` players; whether they
    /// follow them now.
    pub async fn follow(
        &self,
        follower: &str,
        followed: &str,
        now: i64,
        cap: u32,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "INSERT INTO follows (follower, followed, created_at) SELECT $1, $2, $3 \
                 WHERE (SELECT count(*) FROM follows WHERE follower = $1) < $4 \
                 ON CONFLICT (follower, followed) DO NOTHING",
            )
            .bind(follower)
            .bind(followed)
            .bind(now)
            .bind(i64::from(cap))
            .execute(pool)
            .await?;
            let row = sqlx::query("SELECT 1 FROM follows WHERE follower = $1 AND followed = $2")
                .bind(follower)
                .bind(followed)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }

    /// `follower` no longer follows `followed`.
    pub async fn unfollow(&self, follower: &str, followed: &str) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
                .bind(follower)
                .bind(followed)
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// The players `key` follows, by name.
    pub async fn following(&self, key: &str) -> Result<Vec<FollowRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT a.key, a.name, a.last_seen FROM follows f \
                 JOIN accounts a ON a.key = f.followed WHERE f.follower = $1 ORDER BY a.key",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(FollowRow {
                        key: r.try_get(0)?,
                        name: r.try_get(1)?,
                        last_seen: r.try_get(2)?,
                    })
                })
                .collect()
        })
    }

    /// The unfinished games of the players `key` follows, the latest changed first (at most
    /// 100).
    pub async fn followed_games(&self, key: &str) -> Result<Vec<LiveRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id, white_account, black_account, white_name, black_name, \
                 clock_initial_s, clock_increment_s, clock_days, move_count FROM games \
                 WHERE finished = FALSE AND (white_account IN \
                 (SELECT followed FROM follows WHERE follower = $1) OR black_account IN \
                 (SELECT followed FROM follows WHERE follower = $1)) \
                 ORDER BY updated_at DESC LIMIT 100",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(LiveRow {
                        id: r.try_get(0)?,
                        accounts: [r.try_get(1)?, r.try_get(2)?],
                        names: [r.try_get(3)?, r.try_get(4)?],
                        control: super::conn::control_of(
                            r.try_get(5)?,
                            r.try_get(6)?,
                            r.try_get(7)?,
                        ),
                        move_count: u32::try_from(r.try_get::<i64, _>(8)?).unwrap_or(0),
                    })
                })
                .collect()
        })
    }
}
