//! Accounts (the [accounts service](crate::services::accounts)'s repository): making one,
//! failed log-ins and trusted devices, a new password (or one the administrator gives), the
//! names of deleted accounts, deleting an account (its games keep a replacement name, its
//! seeks, follows, sessions and ratings go, in the one transaction); and [`AccountReads`], the
//! reads of an account the other services make.

use super::conn::{Announce, Conn, on_db};
use super::{Notice, StoreError};
use sqlx::Row;

/// What deleting an account changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deleted {
    /// The games renamed: id and new version.
    pub games: Vec<(String, u64)>,
    /// The notices announced (payloads), for the caller to deliver on SQLite.
    pub notices: Vec<String>,
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// The name in lower case.
    pub key: String,
    /// The name as written.
    pub name: String,
    /// The password's argon2id hash (PHC string).
    pub password_hash: String,
    /// When it was made (ms).
    pub created_at: i64,
}

/// The accounts' repository.
#[derive(Clone, Debug)]
pub struct AccountsRepo {
    conn: Conn,
}

impl AccountsRepo {
    pub(super) fn new(conn: Conn) -> AccountsRepo {
        AccountsRepo { conn }
    }

    /// The reads of an account, for the services that only read them (and this one).
    pub fn read(&self) -> AccountReads {
        AccountReads {
            conn: self.conn.clone(),
        }
    }
}

/// An account as the other services read it (read only): by key, and its moderation flags.
#[derive(Clone, Debug)]
pub struct AccountReads {
    conn: Conn,
}

impl AccountsRepo {
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

    /// Ends every session of `key`, deletes its personal tokens and forgets the devices trusted
    /// to log it in (their failed log-ins count against the name again), in one transaction;
    /// answers how many sessions there were.
    pub async fn sign_out_everywhere(&self, key: &str) -> Result<u64, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let ended = sqlx::query("DELETE FROM sessions WHERE account = $1")
                .bind(key)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            for sql in [
                "DELETE FROM api_tokens WHERE account = $1",
                "DELETE FROM devices WHERE account = $1",
            ] {
                sqlx::query(sql).bind(key).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(ended)
        })
    }

    /// Sets the password hash of `key` if it is still `old` (a change made meanwhile by another
    /// session wins), ends every other session of the account and deletes its personal tokens;
    /// whether it was set.
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
            sqlx::query("DELETE FROM api_tokens WHERE account = $1")
                .bind(key)
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

    /// Creates an account; `false` when the name is taken.
    pub async fn create_account(&self, a: &AccountRow) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query(
                "INSERT INTO accounts (key, name, password_hash, created_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO NOTHING",
            )
            .bind(&a.key)
            .bind(&a.name)
            .bind(&a.password_hash)
            .bind(a.created_at)
            .execute(pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Failed log-ins under `key` since `since`.
    pub async fn login_failures(&self, key: &str, since: i64) -> Result<u32, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM login_failures WHERE key = $1 AND at >= $2",
            )
            .bind(key)
            .bind(since)
            .fetch_one(pool)
            .await?;
            Ok(u32::try_from(row.try_get::<i64, _>(0)?).unwrap_or(u32::MAX))
        })
    }

    /// Notes a failed log-in under each of `keys`, and forgets those older than `forget_before`.
    pub async fn add_login_failure(
        &self,
        keys: &[String],
        now: i64,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            for key in keys {
                sqlx::query("INSERT INTO login_failures (key, at) VALUES ($1, $2)")
                    .bind(key)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query("DELETE FROM login_failures WHERE at < $1")
                .bind(forget_before)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Trusts the device whose cookie's secret hashes to `hash` to log in `key`.
    pub async fn add_device(&self, hash: &[u8; 32], key: &str, now: i64) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "INSERT INTO devices (hash, account, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (hash) DO NOTHING",
            )
            .bind(hash.to_vec())
            .bind(key)
            .bind(now)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The account the device whose cookie's secret hashes to `hash` logged in, if any.
    pub async fn device_account(&self, hash: &[u8; 32]) -> Result<Option<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT account FROM devices WHERE hash = $1")
                .bind(hash.to_vec())
                .fetch_optional(pool)
                .await?;
            row.map(|r| Ok(r.try_get(0)?)).transpose()
        })
    }

    /// Gives account `key` the password whose hash is `hash`, ends its sessions and deletes its
    /// personal tokens (announced to every instance's live channels); whether it exists.
    pub async fn reset_password(&self, key: &str, hash: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query("UPDATE accounts SET password_hash = $2 WHERE key = $1")
                .bind(key)
                .bind(hash)
                .execute(&mut *tx)
                .await?;
            for sql in [
                "DELETE FROM sessions WHERE account = $1",
                "DELETE FROM api_tokens WHERE account = $1",
            ] {
                sqlx::query(sql).bind(key).execute(&mut *tx).await?;
            }
            tx.announce(&[format!("u {key} {}", crate::services::cluster::SIGNED_OUT)])
                .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
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

impl AccountReads {
    /// The account `key`.
    pub async fn account(&self, key: &str) -> Result<Option<AccountRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT key, name, password_hash, created_at FROM accounts WHERE key = $1",
            )
            .bind(key)
            .fetch_optional(pool)
            .await?;
            row.map(|r| {
                Ok(AccountRow {
                    key: r.try_get(0)?,
                    name: r.try_get(1)?,
                    password_hash: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                })
            })
            .transpose()
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
}
