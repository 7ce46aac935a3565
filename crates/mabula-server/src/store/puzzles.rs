//! Puzzles (issue 39): the shipped puzzles with their ratings, the players' puzzle ratings and
//! their attempts. An account's first attempt at a puzzle is one row, keyed by (account,
//! puzzle) and inserted in the transaction that moves both ratings, so it counts once however
//! many instances receive it at the same moment.

use super::StoreError;
use super::conn::{Conn, on_db};
use crate::model::rating::{Glicko2, Outcome, Rating};
use sqlx::Row;

/// A puzzle as the shipped file gives it, to be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSeed {
    /// Its id.
    pub id: String,
    /// The start, the player to move.
    pub position: String,
    /// `largest` or `product`.
    pub scoring: String,
    /// The solution, both sides, spaces between.
    pub line: String,
    /// 1 a win kept, 0 a draw.
    pub result: i64,
    /// The themes as stored: `,a,b,` (`,` for none).
    pub themes: String,
    /// Its starting rating.
    pub rating: i64,
}

/// A puzzle's rating as stored.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PuzzleRating {
    /// The rating now.
    pub rating: Rating,
    /// Rated attempts.
    pub plays: i64,
}

/// A player's puzzle rating.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PlayerPuzzleRating {
    /// The rating now.
    pub rating: Rating,
    /// Puzzles attempted.
    pub attempts: i64,
    /// Puzzles solved at the first attempt.
    pub solved: i64,
}

/// An attempt in a player's history.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRow {
    /// The puzzle's id.
    pub puzzle: String,
    /// When (ms).
    pub at: i64,
    /// Whether it was solved.
    pub correct: bool,
    /// Whether it moved the ratings.
    pub rated: bool,
    /// The player's rating before and after (rated attempts).
    pub before: Option<f64>,
    /// After.
    pub after: Option<f64>,
}

/// What recording an attempt did.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Recorded {
    /// The account's first attempt: both ratings moved (player before and after, puzzle
    /// before and after).
    Rated {
        /// The player's rating before.
        player_before: Rating,
        /// The player's rating after.
        player_after: Rating,
        /// The puzzle's rating before.
        puzzle_before: Rating,
        /// The puzzle's rating after.
        puzzle_after: Rating,
    },
    /// Recorded without moving a rating (a hint asked first).
    Unrated,
    /// Not the first attempt: nothing changed.
    Again,
}

/// The puzzles' repository (the [puzzles service](crate::services::puzzles)'s): puzzles, puzzle ratings and attempts.
#[derive(Clone, Debug)]
pub struct PuzzlesRepo {
    conn: Conn,
}

impl PuzzlesRepo {
    pub(super) fn new(conn: Conn) -> PuzzlesRepo {
        PuzzlesRepo { conn }
    }

    /// Whether the shipped file of SHA-256 `hash` was loaded already.
    pub async fn puzzle_set_loaded(&self, hash: &str) -> Result<bool, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT 1 FROM puzzle_sets WHERE hash = $1")
                .bind(hash)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }

    /// Loads the puzzles of the file of SHA-256 `hash`: each inserted, or its line, themes and
    /// starting rating brought up to date (its rating kept); then the file is marked loaded.
    /// Two instances doing it at once do the same thing twice.
    pub async fn load_puzzles(
        &self,
        hash: &str,
        seeds: &[PuzzleSeed],
        now: i64,
    ) -> Result<(), StoreError> {
        let fresh = Rating::default();
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            for s in seeds {
                sqlx::query(
                    "INSERT INTO puzzles (id, position, scoring, line, result, themes, \
                     start_rating, rating, deviation, volatility) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                     ON CONFLICT (id) DO UPDATE SET position = excluded.position, \
                     scoring = excluded.scoring, line = excluded.line, result = excluded.result, \
                     themes = excluded.themes, start_rating = excluded.start_rating",
                )
                .bind(&s.id)
                .bind(&s.position)
                .bind(&s.scoring)
                .bind(&s.line)
                .bind(s.result)
                .bind(&s.themes)
                .bind(s.rating)
                .bind(s.rating as f64)
                .bind(fresh.deviation)
                .bind(fresh.volatility)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query(
                "INSERT INTO puzzle_sets (hash, loaded_at) VALUES ($1, $2) \
                 ON CONFLICT (hash) DO NOTHING",
            )
            .bind(hash)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// The rating of puzzle `id`, if there is one.
    pub async fn puzzle_rating(&self, id: &str) -> Result<Option<PuzzleRating>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT rating, deviation, volatility, plays FROM puzzles WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?;
            row.map(|r| {
                Ok(PuzzleRating {
                    rating: Rating {
                        rating: r.try_get(0)?,
                        deviation: r.try_get(1)?,
                        volatility: r.try_get(2)?,
                    },
                    plays: r.try_get(3)?,
                })
            })
            .transpose()
        })
    }

    /// Up to `limit` puzzles (id and rating) nearest to rating `target`, of `scoring` and
    /// `theme` when given (`theme` as stored: `%,name,%`), that `account` has not attempted.
    pub async fn puzzles_near(
        &self,
        account: Option<&str>,
        scoring: Option<&str>,
        theme: Option<&str>,
        target: f64,
        limit: u32,
    ) -> Result<Vec<(String, f64)>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT p.id, p.rating FROM puzzles p \
                 WHERE ($2 IS NULL OR p.scoring = $2) AND ($3 IS NULL OR p.themes LIKE $3) \
                 AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
                     WHERE a.account = $1 AND a.puzzle = p.id) \
                 ORDER BY ABS(p.rating - $4), p.id LIMIT $5",
            )
            .bind(account)
            .bind(scoring)
            .bind(theme)
            .bind(target)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect()
        })
    }

    /// The puzzle rating of `account` (none before its first attempt).
    pub async fn player_puzzle_rating(
        &self,
        account: &str,
    ) -> Result<Option<PlayerPuzzleRating>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings \
                 WHERE account = $1",
            )
            .bind(account)
            .fetch_optional(pool)
            .await?;
            row.map(|r| {
                Ok(PlayerPuzzleRating {
                    rating: Rating {
                        rating: r.try_get(0)?,
                        deviation: r.try_get(1)?,
                        volatility: r.try_get(2)?,
                    },
                    attempts: r.try_get(3)?,
                    solved: r.try_get(4)?,
                })
            })
            .transpose()
        })
    }

    /// Notes a complete attempt of `account` in a streak, `before` puzzles solved in it (0: the
    /// streak's first): solved, the streak goes on from what is stored (a streak whose count is
    /// not the stored one, from another tab, starts again at 1); missed, it ends (0). One
    /// statement, so two attempts at once each see the other. Answers the streak and the best.
    pub async fn record_streak(
        &self,
        account: &str,
        before: u32,
        solved: bool,
        now: i64,
    ) -> Result<(u32, u32), StoreError> {
        let (next, fresh) = if solved {
            (i64::from(before) + 1, 1)
        } else {
            (0, 0)
        };
        on_db!(&self.conn, write, |pool, _pg| {
            let row = sqlx::query(
                "INSERT INTO puzzle_streaks (account, current, best, updated_at) \
                 VALUES ($1, $2, $2, $3) \
                 ON CONFLICT (account) DO UPDATE SET \
                 current = CASE WHEN $4 = 0 OR puzzle_streaks.current = $4 THEN $5 ELSE $2 END, \
                 best = CASE WHEN puzzle_streaks.best >= \
                 (CASE WHEN $4 = 0 OR puzzle_streaks.current = $4 THEN $5 ELSE $2 END) \
                 THEN puzzle_streaks.best \
                 ELSE (CASE WHEN $4 = 0 OR puzzle_streaks.current = $4 THEN $5 ELSE $2 END) END, \
                 updated_at = $3 \
                 RETURNING current, best",
            )
            .bind(account)
            .bind(fresh)
            .bind(now)
            .bind(i64::from(before))
            .bind(next)
            .fetch_one(pool)
            .await?;
            let count = |i| {
                row.try_get::<i64, _>(i)
                    .map(|n| u32::try_from(n).unwrap_or(0))
            };
            Ok((count(0)?, count(1)?))
        })
    }

    /// The best streak of `account` (0 before any).
    pub async fn best_streak(&self, account: &str) -> Result<u32, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let best: Option<i64> =
                sqlx::query_scalar("SELECT best FROM puzzle_streaks WHERE account = $1")
                    .bind(account)
                    .fetch_optional(pool)
                    .await?;
            Ok(best.map_or(0, |n| u32::try_from(n).unwrap_or(0)))
        })
    }

    /// The latest `limit` attempts of `account`, newest first.
    pub async fn puzzle_attempts(
        &self,
        account: &str,
        limit: u32,
    ) -> Result<Vec<AttemptRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT puzzle, at, correct, rated, rating_before, rating_after \
                 FROM puzzle_attempts WHERE account = $1 ORDER BY at DESC, puzzle LIMIT $2",
            )
            .bind(account)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(AttemptRow {
                        puzzle: r.try_get(0)?,
                        at: r.try_get(1)?,
                        correct: r.try_get(2)?,
                        rated: r.try_get(3)?,
                        before: r.try_get(4)?,
                        after: r.try_get(5)?,
                    })
                })
                .collect()
        })
    }

    /// Records `account`'s attempt at puzzle `id`: when it is the first, one row, and (when
    /// `rated`) both ratings moved by `system`, all in one transaction. The row's insert is
    /// conditional (`ON CONFLICT DO NOTHING` on its key), so of two attempts at the same
    /// moment on two instances one counts and the other finds it there.
    pub async fn record_attempt(
        &self,
        account: &str,
        id: &str,
        correct: bool,
        rated: bool,
        system: &Glicko2,
        now: i64,
    ) -> Result<Recorded, StoreError> {
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            // Locks in one order, the puzzle first, then the player, so that no two attempts
            // wait for each other in a cycle. The puzzle's lock comes before the attempt's
            // insert, which takes a key-share lock on the puzzle's row (its foreign key): two
            // attempts holding those could each wait for the other's to lock it for update.
            let read_puzzle = if pg {
                "SELECT rating, deviation, volatility FROM puzzles WHERE id = $1 FOR UPDATE"
            } else {
                "SELECT rating, deviation, volatility FROM puzzles WHERE id = $1"
            };
            let p = sqlx::query(read_puzzle)
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
            let puzzle_before = Rating {
                rating: p.try_get(0)?,
                deviation: p.try_get(1)?,
                volatility: p.try_get(2)?,
            };
            let inserted = sqlx::query(
                "INSERT INTO puzzle_attempts (account, puzzle, at, correct, rated) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account, puzzle) DO NOTHING",
            )
            .bind(account)
            .bind(id)
            .bind(now)
            .bind(correct)
            .bind(rated)
            .execute(&mut *tx)
            .await?;
            if inserted.rows_affected() != 1 {
                return Ok(Recorded::Again);
            }
            // The player's row exists before it is locked, so that its lock is the row's.
            let fresh = Rating::default();
            sqlx::query(
                "INSERT INTO puzzle_ratings (account, rating, deviation, volatility, attempts, \
                 solved, updated_at) VALUES ($1, $2, $3, $4, 0, 0, $5) \
                 ON CONFLICT (account) DO NOTHING",
            )
            .bind(account)
            .bind(fresh.rating)
            .bind(fresh.deviation)
            .bind(fresh.volatility)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if !rated {
                sqlx::query(
                    "UPDATE puzzle_ratings SET attempts = attempts + 1, updated_at = $2 \
                     WHERE account = $1",
                )
                .bind(account)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                return Ok(Recorded::Unrated);
            }
            let read_player = if pg {
                "SELECT rating, deviation, volatility FROM puzzle_ratings \
                 WHERE account = $1 FOR UPDATE"
            } else {
                "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE account = $1"
            };
            let r = sqlx::query(read_player)
                .bind(account)
                .fetch_one(&mut *tx)
                .await?;
            let player_before = Rating {
                rating: r.try_get(0)?,
                deviation: r.try_get(1)?,
                volatility: r.try_get(2)?,
            };
            let score = if correct { 1.0 } else { 0.0 };
            let player_after = system.rate(
                &player_before,
                &[Outcome {
                    opponent: puzzle_before,
                    score,
                    first: None,
                }],
            );
            let puzzle_after = system.rate(
                &puzzle_before,
                &[Outcome {
                    opponent: player_before,
                    score: 1.0 - score,
                    first: None,
                }],
            );
            sqlx::query(
                "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, \
                 plays = plays + 1, solved = solved + $5 WHERE id = $1",
            )
            .bind(id)
            .bind(puzzle_after.rating)
            .bind(puzzle_after.deviation)
            .bind(puzzle_after.volatility)
            .bind(i64::from(correct))
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE puzzle_ratings SET rating = $2, deviation = $3, volatility = $4, \
                 attempts = attempts + 1, solved = solved + $5, updated_at = $6 \
                 WHERE account = $1",
            )
            .bind(account)
            .bind(player_after.rating)
            .bind(player_after.deviation)
            .bind(player_after.volatility)
            .bind(i64::from(correct))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE puzzle_attempts SET rating_before = $3, rating_after = $4 \
                 WHERE account = $1 AND puzzle = $2",
            )
            .bind(account)
            .bind(id)
            .bind(player_before.rating)
            .bind(player_after.rating)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Recorded::Rated {
                player_before,
                player_after,
                puzzle_before,
                puzzle_after,
            })
        })
    }
}
