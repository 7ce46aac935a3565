//! The games service's own queries beside the game rows of [`Store`](super::Store): the seats'
//! signs of life and absences, the unfinished games of an account, guest games taken into an
//! account, and the pairs of accounts whose rated games were made casual.

use super::conn::{Announce, Conn, on_db};
use super::{Notice, StoreError};
use mabula::Color;
use sqlx::Row;

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

/// The games service's repository.
#[derive(Clone, Debug)]
pub struct GamesRepo {
    conn: Conn,
}

impl GamesRepo {
    pub(super) fn new(conn: Conn) -> GamesRepo {
        GamesRepo { conn }
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
