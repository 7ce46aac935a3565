//! Accuracy (issue 51; the [accuracy service](crate::services::accuracy)'s repository): the
//! job of analysing each finished rated game between two accounts, claimed by one instance
//! (`accuracy_jobs`), and each player's accuracy in it (`game_accuracy`). The games themselves
//! are the games service's and only read here.
//!
//! Exactly once: an instance analyses a game only after its conditional claim wrote it as the
//! owner, and another instance takes the claim over only once that owner stops beating; the
//! accuracies are stored in the transaction that marks the job done, on the condition that the
//! claim is still the storing instance's.

use super::StoreError;
use super::conn::{Conn, corrupt, on_db};
use mabula::{Color, Move, Position, Scoring};
use sqlx::Row;

/// How long a claim on a game's job holds against other instances while its owner lives: an
/// hour (judging a game takes seconds to a minute), after which a job whose task died on a live
/// instance is taken over. Storing stays conditional on the claim, so a game is still stored
/// once.
pub const CLAIM_LASTS_MS: i64 = 60 * 60 * 1000;

/// A finished game as the accuracy job reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedGame {
    /// The game.
    pub id: String,
    /// Its scoring mode.
    pub scoring: Scoring,
    /// Its starting position.
    pub start: Position,
    /// Its moves.
    pub moves: Vec<Move>,
    /// White's and Black's accounts.
    pub accounts: [String; 2],
    /// The ratings the game showed for White and Black when it began.
    pub ratings: [Option<i64>; 2],
    /// When it ended (its last change, ms).
    pub ended_at: i64,
}

/// One player's accuracy in one game, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccuracyRow {
    /// The game.
    pub game_id: String,
    /// The player's side.
    pub color: Color,
    /// The player's account.
    pub account: String,
    /// The rating the game showed for the player when it began.
    pub rating: Option<i64>,
    /// The player's moves counted (those with a choice).
    pub moves: u32,
    /// How many of them kept the engine's best value.
    pub kept: u32,
    /// When the game ended (ms).
    pub ended_at: i64,
}

/// A stored accuracy with the account's name, for the flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedRow {
    /// The row.
    pub row: AccuracyRow,
    /// The account's name (its key if the account is gone).
    pub name: String,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The parts of a stored accuracy read from a row's first seven columns.
type RowParts = (String, String, String, Option<i64>, i64, i64, i64);

/// Reads a row's first seven columns (the body of [`on_db!`] is compiled per database, so this
/// is a macro rather than a function over both row types).
macro_rules! row_parts {
    ($r:expr) => {{
        let r = $r;
        let parts: RowParts = (
            r.try_get(0)?,
            r.try_get(1)?,
            r.try_get(2)?,
            r.try_get(3)?,
            r.try_get(4)?,
            r.try_get(5)?,
            r.try_get(6)?,
        );
        accuracy_row(parts)
    }};
}

fn accuracy_row(
    (id, color, account, rating, moves, kept, ended_at): RowParts,
) -> Result<AccuracyRow, StoreError> {
    let color = match color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        _ => return Err(corrupt(&id, format!("accuracy colour {color}"))),
    };
    let count = |n: i64| u32::try_from(n).unwrap_or(0);
    Ok(AccuracyRow {
        color,
        account,
        rating,
        moves: count(moves),
        kept: count(kept),
        ended_at,
        game_id: id,
    })
}

/// The accuracy repository.
#[derive(Clone, Debug)]
pub struct AccuracyRepo {
    conn: Conn,
}

impl AccuracyRepo {
    pub(super) fn new(conn: Conn) -> AccuracyRepo {
        AccuracyRepo { conn }
    }

    /// Finished rated games between two accounts, neither a bot, that ended (changed last) since
    /// `since`, have no accuracy yet and are not waiting for a retry after `now` nor being
    /// analysed by an instance heard from since `alive_since`; the latest first, at most
    /// `limit`. (The window keeps the query on the recent games of the index by state.)
    pub async fn pending(
        &self,
        limit: u32,
        since: i64,
        now: i64,
        alive_since: i64,
    ) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE finished = TRUE AND updated_at >= $4 \
                 AND rated = TRUE AND result <> '*' \
                 AND white_account IS NOT NULL AND black_account IS NOT NULL \
                 AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.bot = TRUE \
                 AND (a.key = games.white_account OR a.key = games.black_account)) \
                 AND NOT EXISTS (SELECT 1 FROM accuracy_jobs j WHERE j.game_id = games.id \
                 AND (j.done = TRUE OR j.retry_at > $2 OR (j.owner IS NOT NULL AND EXISTS \
                 (SELECT 1 FROM instances i WHERE i.id = j.owner AND i.heartbeat_at >= $3)))) \
                 ORDER BY updated_at DESC LIMIT $1",
            )
            .bind(i64::from(limit))
            .bind(now)
            .bind(alive_since)
            .bind(since)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    /// Claims the job of game `id` for instance `me`: true if this instance now holds it (no
    /// one did, its owner was not heard from since `alive_since`, or its claim is older than
    /// [`CLAIM_LASTS_MS`]: the owner lives but its job died), false if it is done, waits for its
    /// retry after `now`, or a live instance holds it.
    pub async fn claim(
        &self,
        id: &str,
        me: &str,
        now: i64,
        alive_since: i64,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let claimed = sqlx::query(
                "INSERT INTO accuracy_jobs (game_id, owner, claimed_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id) DO UPDATE \
                 SET owner = excluded.owner, claimed_at = excluded.claimed_at \
                 WHERE accuracy_jobs.done = FALSE AND accuracy_jobs.retry_at <= $3 \
                 AND (accuracy_jobs.owner IS NULL OR accuracy_jobs.claimed_at < $3 - $5 \
                 OR NOT EXISTS (SELECT 1 FROM instances i \
                 WHERE i.id = accuracy_jobs.owner AND i.heartbeat_at >= $4)) \
                 RETURNING game_id",
            )
            .bind(id)
            .bind(me)
            .bind(now)
            .bind(alive_since)
            .bind(CLAIM_LASTS_MS)
            .fetch_optional(pool)
            .await?;
            Ok(claimed.is_some())
        })
    }

    /// Gives back instance `me`'s claim on game `id`, to be tried again from `retry_at`;
    /// `failed` counts an attempt (an error rather than a busy engine).
    pub async fn release(
        &self,
        id: &str,
        me: &str,
        retry_at: i64,
        failed: bool,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "UPDATE accuracy_jobs SET owner = NULL, retry_at = $3, \
                 attempts = attempts + $4 WHERE game_id = $1 AND owner = $2 AND done = FALSE",
            )
            .bind(id)
            .bind(me)
            .bind(retry_at)
            .bind(i64::from(failed))
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The attempts that failed on game `id` so far.
    pub async fn attempts(&self, id: &str) -> Result<i64, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query("SELECT attempts FROM accuracy_jobs WHERE game_id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?;
            Ok(match row {
                Some(r) => r.try_get(0)?,
                None => 0,
            })
        })
    }

    /// Stores the accuracies of game `id` and marks its job done, if instance `me` still holds
    /// its claim: true if stored, false if the claim was taken over (nothing is stored).
    pub async fn finish(
        &self,
        id: &str,
        me: &str,
        rows: &[AccuracyRow],
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE accuracy_jobs SET done = TRUE, owner = NULL \
                 WHERE game_id = $1 AND owner = $2 AND done = FALSE",
            )
            .bind(id)
            .bind(me)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            for r in rows {
                sqlx::query(
                    "INSERT INTO game_accuracy (game_id, color, account, rating, moves, kept, \
                     ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&r.game_id)
                .bind(color_name(r.color))
                .bind(&r.account)
                .bind(r.rating)
                .bind(i64::from(r.moves))
                .bind(i64::from(r.kept))
                .bind(r.ended_at)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The finished rated game `id` with both accounts and a result, or `None` if it is not one
    /// (an aborted game, say).
    pub async fn game(&self, id: &str) -> Result<Option<JudgedGame>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(
                "SELECT scoring, start, white_account, black_account, white_rating, \
                 black_rating, updated_at FROM games WHERE id = $1 AND rated = TRUE \
                 AND finished = TRUE AND result <> '*' AND white_account IS NOT NULL \
                 AND black_account IS NOT NULL",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let scoring: String = row.try_get(0)?;
            let start: String = row.try_get(1)?;
            let moves = sqlx::query("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id)
                .fetch_all(pool)
                .await?;
            let moves = moves
                .iter()
                .map(|m| {
                    let text: String = m.try_get(0)?;
                    text.parse::<Move>()
                        .map_err(|_| corrupt(id, format!("move {text}")))
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            Ok(Some(JudgedGame {
                id: id.to_string(),
                scoring: scoring
                    .parse()
                    .map_err(|_| corrupt(id, format!("scoring {scoring}")))?,
                start: Position::parse(&start).map_err(|e| corrupt(id, format!("start: {e}")))?,
                moves,
                accounts: [row.try_get(2)?, row.try_get(3)?],
                ratings: [row.try_get(4)?, row.try_get(5)?],
                ended_at: row.try_get(6)?,
            }))
        })
    }

    /// The accuracies stored for game `id` (none, or one per player).
    pub async fn of_game(&self, id: &str) -> Result<Vec<AccuracyRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT game_id, color, account, rating, moves, kept, ended_at \
                 FROM game_accuracy WHERE game_id = $1 ORDER BY color DESC",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| row_parts!(r)).collect()
        })
    }

    /// The latest `limit` stored accuracies of accounts that are not bots, the latest game
    /// first, with the accounts' names (the flags are computed over them).
    pub async fn latest(&self, limit: u32) -> Result<Vec<NamedRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT g.game_id, g.color, g.account, g.rating, g.moves, g.kept, g.ended_at, \
                 a.name FROM game_accuracy g LEFT JOIN accounts a ON a.key = g.account \
                 WHERE a.bot IS NULL OR a.bot = FALSE \
                 ORDER BY g.ended_at DESC, g.game_id LIMIT $1",
            )
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let row = row_parts!(r)?;
                    let name: Option<String> = r.try_get(7)?;
                    Ok(NamedRow {
                        name: name.unwrap_or_else(|| row.account.clone()),
                        row,
                    })
                })
                .collect()
        })
    }
}
