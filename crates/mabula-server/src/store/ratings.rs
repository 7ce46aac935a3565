//! Ratings and their history (the [ratings service](crate::services::ratings)'s repository):
//! rating a finished game exactly once, the games not rated yet, the rated games the second
//! player's advantage is measured on; and [`RatingReads`], the one read the other services make
//! (a player's rating, for the ratings shown on seeks, rematches and tournaments; the games that
//! could not be rated, for moderators). A game that cannot be rated is noted in
//! `rating_failures` and skipped until its retry, so it never holds up the others.

use super::conn::{Announce, Conn, corrupt, on_db};
use super::{Notice, StoreError};
use crate::model::Speed;
use crate::model::rating::{self, FirstPlayerGame, Glicko2, Rating};
use mabula::{GameResult, Position, Scoring};
use sqlx::Row;

/// The ratings as the other services read them (read only).
#[derive(Clone, Debug)]
pub struct RatingReads {
    conn: Conn,
}

impl RatingReads {
    pub(super) fn new(conn: Conn) -> RatingReads {
        RatingReads { conn }
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

    /// The rated games the rating job could not rate and that are still not rated, the
    /// oldest failure first, at most `limit` (for moderators).
    pub async fn failures(&self, limit: u32) -> Result<Vec<FailureRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT f.game_id, f.reason, f.attempts, f.first_at, f.last_at \
                 FROM rating_failures f JOIN games g ON g.id = f.game_id \
                 WHERE g.rating_applied = FALSE ORDER BY f.first_at, f.game_id LIMIT $1",
            )
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(FailureRow {
                        game_id: r.try_get(0)?,
                        reason: r.try_get(1)?,
                        attempts: r.try_get(2)?,
                        first_at: r.try_get(3)?,
                        last_at: r.try_get(4)?,
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

/// White's score in a game with the result token `result` (`None`: no result).
fn white_score(result: &str) -> Option<f64> {
    match GameResult::parse(result)? {
        GameResult::WhiteWins => Some(1.0),
        GameResult::BlackWins => Some(0.0),
        GameResult::Draw => Some(0.5),
        _ => None,
    }
}

/// A game that could not be rated and is not rated yet, as moderators see it.
#[derive(Clone, Debug, PartialEq)]
pub struct FailureRow {
    /// The game.
    pub game_id: String,
    /// Why, the last time.
    pub reason: String,
    /// The attempts so far.
    pub attempts: i64,
    /// The first failure (ms).
    pub first_at: i64,
    /// The last failure (ms).
    pub last_at: i64,
}

/// The ratings' repository.
#[derive(Clone, Debug)]
pub struct RatingsRepo {
    conn: Conn,
}

impl RatingsRepo {
    pub(super) fn new(conn: Conn) -> RatingsRepo {
        RatingsRepo { conn }
    }

    /// The ratings' reads, for the services that only read them (and this one).
    pub fn read(&self) -> RatingReads {
        RatingReads::new(self.conn.clone())
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
    ///
    /// A side whose account was deleted (its seat renamed, its ratings gone: see
    /// [`AccountsRepo::delete_account`](super::accounts::AccountsRepo::delete_account)) is not
    /// rated and keeps no change; its opponent is rated against the rating the game showed for
    /// it ([`Rating::as_shown`]).
    ///
    /// On PostgreSQL the game's row is locked first, as deleting an account locks it first
    /// (renaming the seat): the two wait for each other instead of deadlocking on the ratings'
    /// rows.
    pub async fn rate_game(
        &self,
        id: &str,
        system: &Glicko2,
        advantages: [f64; 2],
        now: i64,
    ) -> Result<Option<u64>, StoreError> {
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            let game = if pg {
                "SELECT white_account, black_account, result, scoring, start, clock_days, \
                 white_rating, black_rating, white_provisional, black_provisional \
                 FROM games WHERE id = $1 AND rated = TRUE AND finished = TRUE \
                 AND rating_applied = FALSE FOR UPDATE"
            } else {
                "SELECT white_account, black_account, result, scoring, start, clock_days, \
                 white_rating, black_rating, white_provisional, black_provisional \
                 FROM games WHERE id = $1 AND rated = TRUE AND finished = TRUE \
                 AND rating_applied = FALSE"
            };
            let row = sqlx::query(game).bind(id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else { return Ok(None) };
            let white: Option<String> = row.try_get(0)?;
            let black: Option<String> = row.try_get(1)?;
            let result: String = row.try_get(2)?;
            let scoring: String = row.try_get(3)?;
            let start: String = row.try_get(4)?;
            let days: Option<i64> = row.try_get(5)?;
            let shown = [
                Rating::as_shown(row.try_get(6)?, row.try_get(8)?),
                Rating::as_shown(row.try_get(7)?, row.try_get(9)?),
            ];
            let speed = if days.is_some() {
                Speed::Correspondence
            } else {
                Speed::Realtime
            };
            let mut sides = white.zip(black).zip(white_score(&result));
            // Which sides still have their account.
            let mut kept = [false; 2];
            if let Some(((white, black), _)) = &sides {
                for (i, key) in [white, black].into_iter().enumerate() {
                    kept[i] = sqlx::query("SELECT 1 FROM accounts WHERE key = $1")
                        .bind(key)
                        .fetch_optional(&mut *tx)
                        .await?
                        .is_some();
                }
            }
            if kept == [false; 2] {
                sides = None;
            }
            let Some(((white, black), white_score)) = sides else {
                // Aborted, a seat without an account, or both accounts deleted: nothing to
                // rate, but done.
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
                if !kept[i] {
                    before[i] = shown[i];
                } else if let Some(r) = sqlx::query(read)
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
            for (i, key) in order.into_iter().filter(|&(i, _)| kept[i]) {
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
            // A deleted side keeps no change.
            let diff = |i: usize| {
                kept[i].then(|| (after[i].rating.round() - before[i].rating.round()) as i64)
            };
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
            sqlx::query("DELETE FROM rating_failures WHERE game_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.announce(&[Notice::game_payload(id, version, "rated")])
                .await?;
            tx.commit().await?;
            Ok(Some(version))
        })
    }

    /// Notes that game `id` could not be rated, for `reason`, at `now`: the sweep skips it
    /// until `now + retry_after(attempts)`, and moderators see it. Answers the attempts so far.
    pub async fn note_failure(
        &self,
        id: &str,
        reason: &str,
        now: i64,
        retry_after: fn(i64) -> i64,
    ) -> Result<i64, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let noted =
                sqlx::query("SELECT attempts, retry_at FROM rating_failures WHERE game_id = $1")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?
                    .map(|r| {
                        Ok::<_, sqlx::Error>((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?))
                    })
                    .transpose()?;
            let attempts = match noted {
                // Another instance tried it at the same time and noted its failure: this was
                // the same attempt, and the wait is not doubled for it.
                Some((attempts, retry_at)) if retry_at > now => return Ok(attempts),
                Some((attempts, _)) => attempts + 1,
                None => 1,
            };
            sqlx::query(
                "INSERT INTO rating_failures (game_id, reason, attempts, first_at, last_at, \
                 retry_at) VALUES ($1, $2, $3, $4, $4, $5) \
                 ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason, \
                 attempts = excluded.attempts, last_at = excluded.last_at, \
                 retry_at = excluded.retry_at",
            )
            .bind(id)
            .bind(reason)
            .bind(attempts)
            .bind(now)
            .bind(now.saturating_add(retry_after(attempts)))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(attempts)
        })
    }

    /// Rated games that are over but not rated yet (an instance died in between), oldest
    /// first, without those that failed and wait for their retry after `now`.
    pub async fn unrated_games(&self, limit: u32, now: i64) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE rated = TRUE AND finished = TRUE \
                 AND rating_applied = FALSE AND NOT EXISTS (SELECT 1 FROM rating_failures f \
                 WHERE f.game_id = games.id AND f.retry_at > $2) \
                 ORDER BY updated_at LIMIT $1",
            )
            .bind(i64::from(limit))
            .bind(now)
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
}
