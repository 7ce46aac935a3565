//! Personal API tokens and bot accounts (issue 38): a token's hash, scopes and last use, found
//! by its hash on every request (the database is the truth: a revoked token is refused at once on
//! every instance); the bot flag of accounts and house bots' levels.

use super::StoreError;
use super::conn::{Conn, on_db};
use sqlx::Row;

/// A token as the account's list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    /// Its id.
    pub id: String,
    /// What it is for.
    pub description: String,
    /// Its scopes, space-separated.
    pub scopes: String,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it was last used, to the minute (ms).
    pub used_at: Option<i64>,
}

/// What a request's token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenOwner {
    /// The token's id.
    pub id: String,
    /// The account's key.
    pub key: String,
    /// The account's name.
    pub name: String,
    /// The token's scopes, space-separated.
    pub scopes: String,
    /// When it was last used (ms).
    pub used_at: Option<i64>,
    /// Whether the account is a bot.
    pub bot: bool,
}

/// A bot as the bots' list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotRow {
    /// Its key.
    pub key: String,
    /// Its name.
    pub name: String,
    /// Its last sign of life (ms).
    pub last_seen: i64,
    /// A house bot's level.
    pub level: Option<i64>,
}

/// What upgrading an account to a bot found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Upgrade {
    /// It is a bot now.
    Done,
    /// It was one already.
    Already,
    /// It has played (or is playing) games.
    HasGames,
}

/// The tokens' repository (the [tokens service](crate::services::tokens)'s): personal API tokens, and the bot flag and house level of accounts.
#[derive(Clone, Debug)]
pub struct TokensRepo {
    conn: Conn,
}

impl TokensRepo {
    pub(super) fn new(conn: Conn) -> TokensRepo {
        TokensRepo { conn }
    }

    /// Stores a new token of `account` if it has fewer than `cap`; whether it was stored.
    #[allow(clippy::too_many_arguments)]
    pub async fn insert_token(
        &self,
        id: &str,
        account: &str,
        hash: &[u8; 32],
        description: &str,
        scopes: &str,
        now: i64,
        cap: u32,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query(
                "INSERT INTO api_tokens (id, account, hash, description, scopes, created_at) \
                 SELECT $1, $2, $3, $4, $5, $6 \
                 WHERE (SELECT COUNT(*) FROM api_tokens WHERE account = $2) < $7",
            )
            .bind(id)
            .bind(account)
            .bind(hash.to_vec())
            .bind(description)
            .bind(scopes)
            .bind(now)
            .bind(i64::from(cap))
            .execute(pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The tokens of `account`, newest first.
    pub async fn tokens_of(&self, account: &str) -> Result<Vec<TokenRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id, description, scopes, created_at, used_at FROM api_tokens \
                 WHERE account = $1 ORDER BY created_at DESC, id",
            )
            .bind(account)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(TokenRow {
                        id: r.try_get(0)?,
                        description: r.try_get(1)?,
                        scopes: r.try_get(2)?,
                        created_at: r.try_get(3)?,
                        used_at: r.try_get(4)?,
                    })
                })
                .collect()
        })
    }

    /// Deletes token `id` of `account`; whether there was one.
    pub async fn delete_token(&self, account: &str, id: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND account = $2")
                .bind(id)
                .bind(account)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The token whose hash is `hash`, with its account (not a closed one).
    pub async fn token_owner(&self, hash: &[u8; 32]) -> Result<Option<TokenOwner>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT t.id, a.key, a.name, t.scopes, t.used_at, a.bot FROM api_tokens t \
                 JOIN accounts a ON a.key = t.account \
                 WHERE t.hash = $1 AND a.closed_at IS NULL",
            )
            .bind(hash.to_vec())
            .fetch_optional(pool)
            .await?;
            row.map(|r| {
                Ok(TokenOwner {
                    id: r.try_get(0)?,
                    key: r.try_get(1)?,
                    name: r.try_get(2)?,
                    scopes: r.try_get(3)?,
                    used_at: r.try_get(4)?,
                    bot: r.try_get(5)?,
                })
            })
            .transpose()
        })
    }

    /// Notes a use of token `id` at `now` if its last one is older than `before`, and a sign
    /// of life of its account.
    pub async fn touch_token(
        &self,
        id: &str,
        key: &str,
        now: i64,
        before: i64,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "UPDATE api_tokens SET used_at = $2 WHERE id = $1 \
                 AND (used_at IS NULL OR used_at < $3)",
            )
            .bind(id)
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

    /// Whether account `key` is a bot.
    pub async fn is_bot(&self, key: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT bot FROM accounts WHERE key = $1")
                .bind(key)
                .fetch_optional(pool)
                .await?;
            Ok(match row {
                Some(r) => r.try_get(0)?,
                None => false,
            })
        })
    }

    /// Makes account `key` a bot if it has no games. A game being made for the account waits
    /// for the upgrade, or the upgrade for the game: on PostgreSQL the account's row is locked
    /// first, so the look for games (a statement of its own, which sees what committed while it
    /// waited) cannot miss one made meanwhile, and a game's insert locks its accounts' rows
    /// (`sql::LOCK_PLAYERS`) and is refused if one became a bot meanwhile.
    pub async fn upgrade_to_bot(&self, key: &str) -> Result<Upgrade, StoreError> {
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            let lock = if pg {
                "SELECT bot FROM accounts WHERE key = $1 FOR UPDATE"
            } else {
                "SELECT bot FROM accounts WHERE key = $1"
            };
            let bot: bool = match sqlx::query(lock).bind(key).fetch_optional(&mut *tx).await? {
                Some(r) => r.try_get(0)?,
                None => false,
            };
            if bot {
                return Ok(Upgrade::Already);
            }
            let played = sqlx::query(
                "SELECT 1 FROM games WHERE white_account = $1 OR black_account = $1 LIMIT 1",
            )
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?;
            if played.is_some() {
                return Ok(Upgrade::HasGames);
            }
            sqlx::query("UPDATE accounts SET bot = TRUE WHERE key = $1")
                .bind(key)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(Upgrade::Done)
        })
    }

    /// Makes account `key` a house bot of `level` (it must exist).
    pub async fn set_house_level(&self, key: &str, level: i64) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query("UPDATE accounts SET bot = TRUE, house_level = $2 WHERE key = $1")
                .bind(key)
                .bind(level)
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// The level of house bot `key`, if it is one.
    pub async fn house_level(&self, key: &str) -> Result<Option<u8>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT house_level FROM accounts WHERE key = $1")
                .bind(key)
                .fetch_optional(pool)
                .await?;
            Ok(match row {
                Some(r) => r
                    .try_get::<Option<i64>, _>(0)?
                    .and_then(|l| u8::try_from(l).ok()),
                None => None,
            })
        })
    }

    /// Every bot that is not closed (at most 500).
    pub async fn bots(&self) -> Result<Vec<BotRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT key, name, last_seen, house_level FROM accounts \
                 WHERE bot = TRUE AND closed_at IS NULL ORDER BY last_seen DESC LIMIT 500",
            )
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(BotRow {
                        key: r.try_get(0)?,
                        name: r.try_get(1)?,
                        last_seen: r.try_get(2)?,
                        level: r.try_get::<Option<i64>, _>(3)?,
                    })
                })
                .collect()
        })
    }
}
