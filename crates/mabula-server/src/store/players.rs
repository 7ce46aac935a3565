//! The players' side of the store: accounts, sessions, failed log-ins, ratings and their
//! history, seeks and challenges, and the games of a player.
//!
//! These queries need no group commit (they are few and not on the path of every move), so they
//! run straight on the backend's connections. Each is written once and run on either database
//! through [`on_db!`]; the few texts that differ (row locks) are chosen per database.
//!
//! Changes the other instances must hear about (the lobby, a player's challenges, a rated game)
//! are announced in their own transaction with `NOTIFY` on PostgreSQL; on SQLite there is one
//! process, and the caller delivers the same [`Notice`] itself.

use super::conn::{Announce, Conn, control_of, corrupt, on_db};
use super::{Notice, StoreError};
use crate::model::rating::{self, FirstPlayerGame, Glicko2, Rating};
use crate::model::{Speed, TimeControl};
use mabula::{Color, GameResult, Position, Scoring};
use sqlx::Row;

/// The queries of this module and of the others not yet given a repository of their own.
#[derive(Clone, Debug)]
pub struct Db {
    pub(super) conn: Conn,
}

impl Db {
    pub(super) fn new(conn: Conn) -> Db {
        Db { conn }
    }
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

/// A rating as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The scoring mode.
    pub scoring: Scoring,
    /// The speed.
    pub speed: Speed,
    /// The rating.
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    /// The scoring mode.
    pub scoring: Scoring,
    /// The speed.
    pub speed: Speed,
    /// When (ms).
    pub at: i64,
    /// The rating after the game.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

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

/// A pair of accounts flagged for the moderators: they played more rated games together in a
/// day than count as rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairFlagRow {
    /// One account's key (the lesser).
    pub low: String,
    /// The other's.
    pub high: String,
    /// Their games made casual.
    pub games: i64,
    /// When the first was (ms).
    pub first_at: i64,
    /// When the last was (ms).
    pub last_at: i64,
}

/// How many seeks and challenges may be open at once, per account and per client address.
#[derive(Clone, Copy, Debug)]
pub struct SeekCaps {
    /// Per account.
    pub per_account: u32,
    /// Per client address.
    pub per_address: u32,
}

/// The columns of a `seeks` row, as [`seek_row!`] reads them, in `concat!`.
macro_rules! seek_columns {
    () => {
        "id, account, name, rating, provisional, target, scoring, rated, initial_s, \
         increment_s, days, color, rating_min, rating_max, created_at, expires_at, address, \
         no_bots, bot"
    };
}

/// A player's finished games counted by the side they played, whether that side moved first,
/// and the result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins, draws and losses when the player moved first.
    pub first: [u32; 3],
    /// Wins, draws and losses when the player moved second.
    pub second: [u32; 3],
}

/// Which of a player's games a history shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryFilter {
    /// `win`, `draw` or `loss` (from the player's side), or all.
    pub result: Option<String>,
    /// One scoring mode, or all.
    pub scoring: Option<Scoring>,
}

/// A game in a player's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryGame {
    /// The game id.
    pub id: String,
    /// The scoring mode.
    pub scoring: Scoring,
    /// White's and Black's names (`None`: a guest or the engine).
    pub names: [Option<String>; 2],
    /// The result token.
    pub result: GameResult,
    /// Why it ended.
    pub end_reason: Option<String>,
    /// Whether it was rated.
    pub rated: bool,
    /// The time control, if any.
    pub control: Option<TimeControl>,
    /// Number of moves.
    pub move_count: u32,
    /// Still being played.
    pub playing: bool,
    /// Creation time (ms).
    pub created_at: i64,
}

/// White's score in a game with the result token `result` (`None`: no result).
fn white_score(result: &str) -> Option<f64> {
    match GameResult::parse(result)? {
        GameResult::WhiteWins => Some(1.0),
        GameResult::BlackWins => Some(0.0),
        GameResult::Draw => Some(0.5),
        _ => None,
    }
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

impl Db {
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

    /// Ends every session of `key`; answers how many there were.
    pub async fn delete_sessions(&self, key: &str) -> Result<u64, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let done = sqlx::query("DELETE FROM sessions WHERE account = $1")
                .bind(key)
                .execute(pool)
                .await?;
            Ok(done.rows_affected())
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

    /// Notes one event under `key` (a sign-up from an address, a rated game of a pair) at `now`
    /// if fewer than `cap` were noted since `since` (counted in the same statement, and on
    /// PostgreSQL under a lock of the key, so that instances do not each count their own);
    /// forgets the key's events before `since`. Whether it was noted.
    pub async fn take_quota(
        &self,
        key: &str,
        now: i64,
        since: i64,
        cap: u32,
    ) -> Result<bool, StoreError> {
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

    /// The oldest event under `key` since `since` (ms), if any: when the quota frees a place.
    pub async fn oldest_quota(&self, key: &str, since: i64) -> Result<Option<i64>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT min(at) FROM quotas WHERE key = $1 AND at >= $2")
                .bind(key)
                .bind(since)
                .fetch_one(pool)
                .await?;
            Ok(row.try_get::<Option<i64>, _>(0)?)
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

    /// The ratings of `key`.
    pub async fn ratings(&self, key: &str) -> Result<Vec<RatingRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT scoring, speed, rating, deviation, volatility, games FROM ratings \
                 WHERE account = $1 ORDER BY scoring, speed",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let scoring: String = r.try_get(0)?;
                    let speed: String = r.try_get(1)?;
                    Ok(RatingRow {
                        scoring: scoring
                            .parse()
                            .map_err(|_| corrupt(key, format!("rating scoring {scoring}")))?,
                        speed: Speed::parse(&speed)
                            .ok_or_else(|| corrupt(key, format!("rating speed {speed}")))?,
                        rating: Rating {
                            rating: r.try_get(2)?,
                            deviation: r.try_get(3)?,
                            volatility: r.try_get(4)?,
                        },
                        games: u32::try_from(r.try_get::<i64, _>(5)?).unwrap_or(0),
                    })
                })
                .collect()
        })
    }

    /// The rating of `key` for `scoring` and `speed` (a new player's if none is stored).
    pub async fn rating(
        &self,
        key: &str,
        scoring: Scoring,
        speed: Speed,
    ) -> Result<Rating, StoreError> {
        Ok(self
            .ratings(key)
            .await?
            .into_iter()
            .find(|r| r.scoring == scoring && r.speed == speed)
            .map(|r| r.rating)
            .unwrap_or_default())
    }

    /// The rating history of `key`, oldest first.
    pub async fn rating_history(&self, key: &str) -> Result<Vec<HistoryRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT scoring, speed, at, rating, deviation FROM rating_history \
                 WHERE account = $1 ORDER BY at LIMIT 5000",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .filter_map(|r| {
                    let scoring: String = r.try_get(0).ok()?;
                    let speed: String = r.try_get(1).ok()?;
                    Some(Ok(HistoryRow {
                        scoring: scoring.parse().ok()?,
                        speed: Speed::parse(&speed)?,
                        at: r.try_get(2).ok()?,
                        rating: r.try_get(3).ok()?,
                        deviation: r.try_get(4).ok()?,
                    }))
                })
                .collect()
        })
    }

    /// Rates the finished game `id` exactly once, with the second player's advantage of its
    /// scoring mode from `advantages` (largest, product): both players' ratings move, the game
    /// keeps the changes and gets a new version. Answers that version, or `None` when there is nothing to
    /// do (not rated, not over, aborted, or rated already, perhaps by another instance).
    pub async fn rate_game(
        &self,
        id: &str,
        system: &Glicko2,
        advantages: [f64; 2],
        now: i64,
    ) -> Result<Option<u64>, StoreError> {
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            let row = sqlx::query(
                "SELECT white_account, black_account, result, scoring, start, clock_days \
                 FROM games WHERE id = $1 AND rated = TRUE AND finished = TRUE \
                 AND rating_applied = FALSE",
            )
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let white: Option<String> = row.try_get(0)?;
            let black: Option<String> = row.try_get(1)?;
            let result: String = row.try_get(2)?;
            let scoring: String = row.try_get(3)?;
            let start: String = row.try_get(4)?;
            let days: Option<i64> = row.try_get(5)?;
            let speed = if days.is_some() {
                Speed::Correspondence
            } else {
                Speed::Realtime
            };
            let white_score = white_score(&result);
            let (Some(white), Some(black), Some(white_score)) = (white, black, white_score) else {
                // Aborted, or a seat without an account: nothing to rate, but done.
                sqlx::query("UPDATE games SET rating_applied = TRUE WHERE id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                return Ok(None);
            };
            let white_first = Position::parse(&start)
                .map_err(|e| corrupt(id, format!("start: {e}")))?
                .side_to_move()
                == mabula::Color::White;
            let read = if pg {
                "SELECT rating, deviation, volatility FROM ratings \
                 WHERE account = $1 AND scoring = $2 AND speed = $3 FOR UPDATE"
            } else {
                "SELECT rating, deviation, volatility FROM ratings \
                 WHERE account = $1 AND scoring = $2 AND speed = $3"
            };
            let mut before = [Rating::default(); 2];
            // Rows are locked in the order of their keys, so that two games of the same two
            // accounts rated at once (with the colours the other way round) do not deadlock.
            let mut order = [(0, &white), (1, &black)];
            order.sort_by_key(|&(_, key)| key);
            for (i, key) in order {
                if let Some(r) = sqlx::query(read)
                    .bind(key)
                    .bind(&scoring)
                    .bind(speed.name())
                    .fetch_optional(&mut *tx)
                    .await?
                {
                    before[i] = Rating {
                        rating: r.try_get(0)?,
                        deviation: r.try_get(1)?,
                        volatility: r.try_get(2)?,
                    };
                }
            }
            // The second player's advantage measured for this scoring mode.
            let system = Glicko2 {
                advantage: advantages[usize::from(scoring == Scoring::Product.name())],
                ..*system
            };
            let after = if white_first {
                let (w, b) = system.rate_game(&before[0], &before[1], white_score);
                [w, b]
            } else {
                let (b, w) = system.rate_game(&before[1], &before[0], 1.0 - white_score);
                [w, b]
            };
            for (i, key) in order {
                let r = after[i];
                sqlx::query(
                    "INSERT INTO ratings (account, scoring, speed, rating, deviation, volatility, \
                     games, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 1, $7) \
                     ON CONFLICT (account, scoring, speed) DO UPDATE SET rating = excluded.rating, \
                     deviation = excluded.deviation, volatility = excluded.volatility, \
                     games = ratings.games + 1, updated_at = excluded.updated_at",
                )
                .bind(key)
                .bind(&scoring)
                .bind(speed.name())
                .bind(r.rating)
                .bind(r.deviation)
                .bind(r.volatility)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (account, scoring, speed, at, rating, deviation, \
                     game_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(key)
                .bind(&scoring)
                .bind(speed.name())
                .bind(now)
                .bind(r.rating)
                .bind(r.deviation)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            }
            let diff = |i: usize| (after[i].rating.round() - before[i].rating.round()) as i64;
            let row = sqlx::query(
                "UPDATE games SET rating_applied = TRUE, white_rating_diff = $2, \
                 black_rating_diff = $3, version = version + 1 \
                 WHERE id = $1 AND rating_applied = FALSE RETURNING version",
            )
            .bind(id)
            .bind(diff(0))
            .bind(diff(1))
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let version = row.try_get::<i64, _>(0)?.max(0) as u64;
            tx.announce(&[Notice::game_payload(id, version, "rated")])
                .await?;
            tx.commit().await?;
            Ok(Some(version))
        })
    }

    /// Rated games that are over but not rated yet (an instance died in between).
    pub async fn unrated_games(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE rated = TRUE AND finished = TRUE \
                 AND rating_applied = FALSE ORDER BY updated_at LIMIT $1",
            )
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    /// Unfinished games whose clock ran out by `now`.
    pub async fn due_games(&self, now: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE finished = FALSE AND deadline_at <= $1 \
                 ORDER BY deadline_at LIMIT $2",
            )
            .bind(now)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    /// Puts seek `s` in the lobby, announcing it. With `caps`, only if its account and its
    /// address have fewer open seeks than they allow (counted in the same statement, so
    /// instances do not each count their own); whether it was put. With `alive_until`, it
    /// lives only while its owner's lobby socket pushes that forward (see [`Db::keep_seeks_alive`]).
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
        });
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
                 expires_at > $15) < $21 AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker = $6 AND blocked = $2)"
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
    /// challenges to or from `me`; at most 500, those of `me` and then the newest first, so
    /// that no number of other seeks hides a player's own.
    pub async fn seeks(&self, now: i64, me: Option<&str>) -> Result<Vec<SeekRow>, StoreError> {
        let mut rows = on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(concat!(
                "SELECT ",
                seek_columns!(),
                " FROM seeks WHERE expires_at > $1 \
                 AND (target IS NULL OR target = $2 OR account = $2) \
                 ORDER BY CASE WHEN account = $2 OR target = $2 THEN 0 ELSE 1 END, \
                 created_at DESC LIMIT 500"
            ))
            .bind(now)
            .bind(me.unwrap_or(""))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| seek_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })?;
        rows.sort_by_key(|s| s.created_at);
        Ok(rows)
    }

    /// Open seeks to everyone not lapsed at `now`, oldest first: the newest 500.
    pub async fn public_seeks(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        let mut rows = on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(concat!(
                "SELECT ",
                seek_columns!(),
                " FROM seeks WHERE expires_at > $1 AND target IS NULL \
                 ORDER BY created_at DESC LIMIT 500"
            ))
            .bind(now)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| seek_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })?;
        rows.reverse();
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

    /// Records which seats of game `id` have no connection on any instance: a seat away keeps
    /// the time it was first seen away (`now` if it is new; 0 if it never held a socket there,
    /// so that its other signs of life count alone), a seat present loses it.
    pub async fn set_away(&self, id: &str, away: [bool; 2], now: i64) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            for (side, away) in ["white", "black"].into_iter().zip(away) {
                let query = if away {
                    sqlx::query(
                        "INSERT INTO absences (game_id, side, since) \
                         SELECT $1, $2, CASE WHEN EXISTS (SELECT 1 FROM seen \
                           WHERE game_id = $1 AND side = $2 AND socket = 1) THEN $3 ELSE 0 END \
                         WHERE TRUE ON CONFLICT (game_id, side) DO NOTHING",
                    )
                    .bind(id)
                    .bind(side)
                    .bind(now)
                } else {
                    sqlx::query("DELETE FROM absences WHERE game_id = $1 AND side = $2")
                        .bind(id)
                        .bind(side)
                };
                query.execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// Records a sign of life of `color`'s seat of game `id` at `now`: a request about the game,
    /// or (`socket`) a socket opened on it. A request within a second of the last one recorded
    /// writes nothing.
    pub async fn seen(
        &self,
        id: &str,
        color: Color,
        now: i64,
        socket: bool,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "INSERT INTO seen (game_id, side, at, socket) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (game_id, side) DO UPDATE SET \
                   at = CASE WHEN excluded.at > seen.at THEN excluded.at ELSE seen.at END, \
                   socket = CASE WHEN excluded.socket = 1 THEN 1 ELSE seen.socket END \
                 WHERE seen.at < excluded.at - 1000 OR seen.socket < excluded.socket",
            )
            .bind(id)
            .bind(color.name())
            .bind(now)
            .bind(i32::from(socket))
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The last sign of life of `color`'s seat of game `id`, if the seat is recorded away: the
    /// latest of the time it was first seen away, its last request about the game and its last
    /// move (the moves of ply parity `parity`). `None` if it is not recorded away.
    pub async fn away_since(
        &self,
        id: &str,
        color: Color,
        parity: u32,
    ) -> Result<Option<i64>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT since, \
                   (SELECT at FROM seen WHERE game_id = $1 AND side = $2), \
                   (SELECT MAX(played_at) FROM moves WHERE game_id = $1 AND ply % 2 = $3) \
                 FROM absences WHERE game_id = $1 AND side = $2",
            )
            .bind(id)
            .bind(color.name())
            .bind(i64::from(parity))
            .fetch_optional(pool)
            .await?;
            Ok(match row {
                Some(r) => {
                    let since: i64 = r.try_get(0)?;
                    let seen: Option<i64> = r.try_get(1)?;
                    let moved: Option<i64> = r.try_get(2)?;
                    Some(since.max(seen.unwrap_or(0)).max(moved.unwrap_or(0)))
                }
                None => None,
            })
        })
    }

    /// Announces that a player's game began (to their lobby page) on PostgreSQL.
    pub async fn announce(&self, payloads: &[String]) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            tx.announce(payloads).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Gives the seats of the games listed (each a game id and the hash of a seat token) to the
    /// account `key`, where the token holds a seat that has no account yet; answers the games
    /// changed with their new versions.
    pub async fn claim_guest_games(
        &self,
        key: &str,
        name: &str,
        games: &[(String, [u8; 32])],
    ) -> Result<Vec<(String, u64)>, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let mut changed = Vec::new();
            for (id, hash) in games {
                let mut bumped = None;
                for side in ["white", "black"] {
                    let sql = format!(
                        "UPDATE games SET {side}_account = $1, {side}_name = $2, \
                         version = version + 1 WHERE id = $3 AND {side}_token = $4 \
                         AND {side}_account IS NULL RETURNING version"
                    );
                    if let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(key)
                        .bind(name)
                        .bind(id)
                        .bind(hash.to_vec())
                        .fetch_optional(&mut *tx)
                        .await?
                    {
                        bumped = Some(row.try_get::<i64, _>(0)?.max(0) as u64);
                    }
                }
                if let Some(v) = bumped {
                    tx.announce(&[Notice::game_payload(id, v, "claimed")])
                        .await?;
                    changed.push((id.clone(), v));
                }
            }
            tx.commit().await?;
            Ok(changed)
        })
    }

    /// The finished games of `key` counted by side, order and result (aborted games left out).
    pub async fn tally(&self, key: &str) -> Result<Tally, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT white_account, substr(start, length(start)), result, \
                 CAST(COUNT(*) AS BIGINT) FROM games \
                 WHERE (white_account = $1 OR black_account = $1) AND finished = TRUE \
                 AND COALESCE(end_reason, '') <> 'aborted' GROUP BY 1, 2, 3",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            let mut t = Tally::default();
            for r in &rows {
                let white: Option<String> = r.try_get(0)?;
                let first: String = r.try_get(1)?;
                let result: String = r.try_get(2)?;
                let n = u32::try_from(r.try_get::<i64, _>(3)?).unwrap_or(0);
                let as_white = white.as_deref() == Some(key);
                let moved_first = (first == "w") == as_white;
                let slot = match (GameResult::parse(&result), as_white) {
                    (Some(GameResult::WhiteWins), true) | (Some(GameResult::BlackWins), false) => 0,
                    (Some(GameResult::Draw), _) => 1,
                    (Some(GameResult::WhiteWins | GameResult::BlackWins), _) => 2,
                    _ => continue,
                };
                let side = if moved_first {
                    &mut t.first
                } else {
                    &mut t.second
                };
                side[slot] += n;
            }
            Ok(t)
        })
    }

    /// A page of the games of `key`, newest first.
    pub async fn player_games(
        &self,
        key: &str,
        filter: &HistoryFilter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<HistoryGame>, StoreError> {
        let result_sql = match filter.result.as_deref() {
            Some("win") => {
                " AND ((white_account = $1 AND result = '1-0') OR (black_account = $1 AND result = '0-1'))"
            }
            Some("loss") => {
                " AND ((white_account = $1 AND result = '0-1') OR (black_account = $1 AND result = '1-0'))"
            }
            Some("draw") => " AND result = '1/2-1/2'",
            _ => "",
        };
        let sql = format!(
            "SELECT id, scoring, white_name, black_name, result, end_reason, rated, \
             clock_initial_s, clock_increment_s, clock_days, move_count, finished, created_at \
             FROM games WHERE (white_account = $1 OR black_account = $1){result_sql} \
             AND ($2 = '' OR scoring = $2) ORDER BY created_at DESC LIMIT $3 OFFSET $4"
        );
        let scoring = filter.scoring.map(|s| s.name()).unwrap_or("");
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
                .bind(key)
                .bind(scoring)
                .bind(i64::from(limit))
                .bind(i64::from(offset))
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| {
                    let id: String = r.try_get(0)?;
                    let scoring: String = r.try_get(1)?;
                    let result: String = r.try_get(4)?;
                    Ok(HistoryGame {
                        scoring: scoring
                            .parse()
                            .map_err(|_| corrupt(&id, format!("scoring {scoring}")))?,
                        names: [r.try_get(2)?, r.try_get(3)?],
                        result: GameResult::parse(&result)
                            .ok_or_else(|| corrupt(&id, format!("result {result}")))?,
                        end_reason: r.try_get(5)?,
                        rated: r.try_get(6)?,
                        control: control_of(r.try_get(7)?, r.try_get(8)?, r.try_get(9)?),
                        move_count: u32::try_from(r.try_get::<i64, _>(10)?).unwrap_or(0),
                        playing: !r.try_get::<bool, _>(11)?,
                        created_at: r.try_get(12)?,
                        id,
                    })
                })
                .collect()
        })
    }

    /// The unfinished games of `key` where it is their turn (correspondence first).
    pub async fn my_turn(&self, key: &str) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE finished = FALSE AND \
                 ((white_account = $1 AND to_move = 'white') OR \
                  (black_account = $1 AND to_move = 'black')) \
                 ORDER BY COALESCE(deadline_at, 0) LIMIT 100",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    /// The rated games' first-player results, per scoring mode: the difference of the ratings
    /// stored in the game, the first player's score, the two accounts and whether the game
    /// ended for real.
    pub async fn first_player_results(
        &self,
        scoring: Scoring,
    ) -> Result<Vec<FirstPlayerGame>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT substr(start, length(start)), white_rating, black_rating, result, \
                 white_account, black_account, end_reason, move_count \
                 FROM games WHERE rated = TRUE AND finished = TRUE AND scoring = $1 \
                 AND white_rating IS NOT NULL AND black_rating IS NOT NULL LIMIT 100000",
            )
            .bind(scoring.name())
            .fetch_all(pool)
            .await?;
            let mut out = Vec::new();
            for r in &rows {
                let first: String = r.try_get(0)?;
                let (w, b): (i64, i64) = (r.try_get(1)?, r.try_get(2)?);
                let result: String = r.try_get(3)?;
                let Some(white_score) = white_score(&result) else {
                    continue;
                };
                let white: Option<String> = r.try_get(4)?;
                let black: Option<String> = r.try_get(5)?;
                let reason: Option<String> = r.try_get(6)?;
                let moves: i64 = r.try_get(7)?;
                let real_end = reason.is_some_and(|reason| {
                    rating::real_end(&reason, u32::try_from(moves).unwrap_or(0))
                });
                let (white, black) = (white.unwrap_or_default(), black.unwrap_or_default());
                let pair = if white <= black {
                    (white, black)
                } else {
                    (black, white)
                };
                let (diff, score) = if first == "w" {
                    ((w - b) as f64, white_score)
                } else {
                    ((b - w) as f64, 1.0 - white_score)
                };
                out.push(FirstPlayerGame {
                    diff,
                    score,
                    pair,
                    real_end,
                });
            }
            Ok(out)
        })
    }

    /// Flags the pair of accounts `low`, `high` (in order) for the moderators: one more of
    /// their games was made casual at `now`.
    pub async fn flag_pair(&self, low: &str, high: &str, now: i64) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "INSERT INTO pair_flags (low, high, games, first_at, last_at) \
                 VALUES ($1, $2, 1, $3, $3) ON CONFLICT (low, high) \
                 DO UPDATE SET games = pair_flags.games + 1, last_at = $3",
            )
            .bind(low)
            .bind(high)
            .bind(now)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The flagged pairs, the latest first.
    pub async fn pair_flags(&self) -> Result<Vec<PairFlagRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT low, high, games, first_at, last_at FROM pair_flags \
                 ORDER BY last_at DESC LIMIT 10000",
            )
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(PairFlagRow {
                        low: r.try_get(0)?,
                        high: r.try_get(1)?,
                        games: r.try_get(2)?,
                        first_at: r.try_get(3)?,
                        last_at: r.try_get(4)?,
                    })
                })
                .collect()
        })
    }
}

/// The notices a change of seek `s` sends: the lobby, its owner and the challenged player.
pub fn seek_notices(s: &SeekRow) -> Vec<String> {
    let mut n = vec!["l".to_string(), format!("u {} challenges", s.account)];
    if let Some(t) = &s.target {
        n.push(format!("u {t} challenges"));
    }
    n
}
