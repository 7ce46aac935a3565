//! Accounts people manage, and who follows whom: the sessions of an account by device, a new
//! password, deleting an account (its games keep a replacement name), the signs of life that
//! tell who is online, follows and the followed players' live games, and the lobby socket's
//! hold on its owner's real-time seeks.

use super::conn::{Announce, on_db};
use super::players::Db;
use super::{Notice, StoreError};
use crate::model::TimeControl;
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

/// What deleting an account changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deleted {
    /// The games renamed: id and new version.
    pub games: Vec<(String, u64)>,
    /// The notices announced (payloads), for the caller to deliver on SQLite.
    pub notices: Vec<String>,
}

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

impl Db {
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

    /// Notes a sign of life of account `key` at `now` if its last one is older than `before`.
    pub async fn touch_account(&self, key: &str, now: i64, before: i64) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query("UPDATE accounts SET last_seen = $2 WHERE key = $1 AND last_seen < $3")
                .bind(key)
                .bind(now)
                .bind(before)
                .execute(pool)
                .await?;
            Ok(())
        })
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

    /// Forgets the devices trusted to log in `key` (their failed log-ins count against the
    /// name again).
    pub async fn delete_devices(&self, key: &str) -> Result<u64, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("DELETE FROM devices WHERE account = $1")
                .bind(key)
                .execute(pool)
                .await?;
            Ok(done.rows_affected())
        })
    }

    /// Sets the password hash of `key` if it is still `old` (a change made meanwhile by another
    /// session wins), and ends every other session of the account; whether it was set.
    pub async fn change_password(
        &self,
        key: &str,
        old: &str,
        new: &str,
        keep: &[u8; 32],
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE accounts SET password_hash = $3 WHERE key = $1 AND password_hash = $2",
            )
            .bind(key)
            .bind(old)
            .bind(new)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            sqlx::query("DELETE FROM sessions WHERE account = $1 AND id_hash <> $2")
                .bind(key)
                .bind(keep.to_vec())
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Whether `key` belonged to a deleted account (such names are never given again).
    pub async fn is_retired(&self, key: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT 1 FROM retired_names WHERE key = $1")
                .bind(key)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }

    /// The unfinished games where `key` holds a seat.
    pub async fn unfinished_games(&self, key: &str) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE finished = FALSE \
                 AND (white_account = $1 OR black_account = $1) LIMIT 1000",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    /// Deletes account `key` if its password hash is still `hash`: its games name `label` in
    /// its place, as name and as account key (no account ever has it: see
    /// [`DELETED_PREFIX`](crate::services::accounts::DELETED_PREFIX)), its rating history goes, its seeks and the
    /// challenges to it go, and its sessions, ratings, devices and follows go with the row. The
    /// name is kept in `retired_names`. Answers what changed, or `None` when the account is
    /// gone or its password changed meanwhile.
    pub async fn delete_account(
        &self,
        key: &str,
        hash: &str,
        label: &str,
        now: i64,
    ) -> Result<Option<Deleted>, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let found = sqlx::query("SELECT 1 FROM accounts WHERE key = $1 AND password_hash = $2")
                .bind(key)
                .bind(hash)
                .fetch_optional(&mut *tx)
                .await?;
            if found.is_none() {
                return Ok(None);
            }
            let mut changed = Vec::new();
            for sql in [
                "UPDATE games SET white_account = $2, white_name = $2, version = version + 1 \
                 WHERE white_account = $1 RETURNING id, version",
                "UPDATE games SET black_account = $2, black_name = $2, version = version + 1 \
                 WHERE black_account = $1 RETURNING id, version",
            ] {
                let rows = sqlx::query(sql)
                    .bind(key)
                    .bind(label)
                    .fetch_all(&mut *tx)
                    .await?;
                for r in rows {
                    let id: String = r.try_get(0)?;
                    let v = r.try_get::<i64, _>(1)?.max(0) as u64;
                    changed.retain(|(other, _): &(String, u64)| *other != id);
                    changed.push((id, v));
                }
            }
            let seeks =
                sqlx::query("SELECT account, target FROM seeks WHERE target = $1 OR account = $1")
                    .bind(key)
                    .fetch_all(&mut *tx)
                    .await?;
            let mut notices: Vec<String> = changed
                .iter()
                .map(|(id, v)| Notice::game_payload(id, *v, "renamed"))
                .collect();
            for r in &seeks {
                let account: String = r.try_get(0)?;
                let target: Option<String> = r.try_get(1)?;
                notices.extend(seek_notices_of(&account, target.as_deref()));
            }
            notices.sort();
            notices.dedup();
            for sql in [
                "DELETE FROM seeks WHERE target = $1 OR account = $1",
                "DELETE FROM rating_history WHERE account = $1",
                "DELETE FROM follows WHERE follower = $1 OR followed = $1",
                "DELETE FROM sessions WHERE account = $1",
                "DELETE FROM devices WHERE account = $1",
                "DELETE FROM ratings WHERE account = $1",
                "DELETE FROM accounts WHERE key = $1",
            ] {
                sqlx::query(sql).bind(key).execute(&mut *tx).await?;
            }
            sqlx::query(
                "INSERT INTO retired_names (key, label, retired_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (key) DO NOTHING",
            )
            .bind(key)
            .bind(label)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.announce(&notices).await?;
            tx.commit().await?;
            Ok(Some(Deleted {
                games: changed,
                notices,
            }))
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
}

/// The notices of a change of a seek of `account` (to `target`, for a challenge).
fn seek_notices_of(account: &str, target: Option<&str>) -> Vec<String> {
    let mut n = vec!["l".to_string(), format!("u {account} challenges")];
    if let Some(t) = target {
        n.push(format!("u {t} challenges"));
    }
    n
}
