//! The PostgreSQL backend: a connection pool; PostgreSQL makes each commit durable before it
//! returns (`synchronous_commit` on, its default). Migrations live in `migrations/postgres/`.

use super::{BoxFuture, ListFilter, StoreError, StoredGame, WriteOp};
use crate::model::{Progress, Side};
use crate::view::GameSummary;
use sqlx::postgres::{PgConnection, PgPool, PgPoolOptions, PgRow};
use sqlx::{Connection, Row};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// A PostgreSQL database.
pub struct Postgres {
    /// Connections for reads and for the writer task.
    pool: PgPool,
}

impl Postgres {
    /// Connects to `url` (`postgres://…`) and migrates the database.
    pub async fn open(url: &str) -> Result<Postgres, StoreError> {
        let pool = PgPoolOptions::new().max_connections(8).connect(url).await?;
        MIGRATOR.run(&pool).await?;
        Ok(Postgres { pool })
    }
}

impl super::Backend for Postgres {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn apply<'a>(&'a self, ops: &'a [WriteOp]) -> BoxFuture<'a, Result<Vec<bool>, StoreError>> {
        Box::pin(async move {
            let mut conn = self.pool.acquire().await?;
            let mut tx = conn.begin().await?;
            let mut outcomes = Vec::with_capacity(ops.len());
            for op in ops {
                outcomes.push(apply_one(&mut tx, op).await?);
            }
            tx.commit().await?;
            Ok(outcomes)
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(async move {
            let mut conn = self.pool.acquire().await?;
            load_game(&mut conn, id).await
        })
    }

    fn list(
        &self,
        filter: ListFilter,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameSummary>, StoreError>> {
        Box::pin(async move {
            let mut conn = self.pool.acquire().await?;
            list_games(&mut conn, filter, limit).await
        })
    }

    fn engine_pending(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE finished = FALSE AND mode = 'engine' AND to_move = engine_color",
            )
            .fetch_all(&self.pool)
            .await?;
            Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.pool.close().await;
        })
    }
}

/// Applies one write inside the caller's transaction; whether it changed a row.
async fn apply_one(conn: &mut PgConnection, op: &WriteOp) -> Result<bool, StoreError> {
    match op {
        WriteOp::InsertGame(game) => insert_game(conn, game).await,
        WriteOp::AppendMove {
            id,
            ply,
            notation,
            progress,
        } => {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, notation, played_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(id.as_str())
            .bind(i64::from(*ply))
            .bind(notation.as_str())
            .bind(progress.updated_at)
            .execute(&mut *conn)
            .await?;
            update_progress(conn, id, progress).await
        }
        WriteOp::Truncate { id, keep, progress } => {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(id.as_str())
                .bind(i64::from(*keep))
                .execute(&mut *conn)
                .await?;
            update_progress(conn, id, progress).await
        }
        WriteOp::Update { id, progress } => update_progress(conn, id, progress).await,
        WriteOp::ClaimSeat { id, color, token } => {
            let sql = match color {
                Side::White => {
                    "UPDATE games SET white_token = $1 WHERE id = $2 AND white_token IS NULL"
                }
                Side::Black => {
                    "UPDATE games SET black_token = $1 WHERE id = $2 AND black_token IS NULL"
                }
            };
            let done = sqlx::query(sql)
                .bind(token.as_slice())
                .bind(id.as_str())
                .execute(&mut *conn)
                .await?;
            Ok(done.rows_affected() == 1)
        }
        WriteOp::SetRematch { id, rematch_id } => {
            let done = sqlx::query(
                "UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL",
            )
            .bind(rematch_id.as_str())
            .bind(id.as_str())
            .execute(&mut *conn)
            .await?;
            Ok(done.rows_affected() == 1)
        }
    }
}

/// Inserts a game row and its moves.
async fn insert_game(conn: &mut PgConnection, g: &StoredGame) -> Result<bool, StoreError> {
    sqlx::query(
        "INSERT INTO games (id, created_at, updated_at, mode, scoring, seed, start, engine_color, \
         engine_level, engine_movetime_ms, white_token, black_token, join_code, position, to_move, \
         move_count, finished, epoch, result, end_reason, rematch_of, rematch_id, pair_half) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)",
    )
    .bind(g.id.as_str())
    .bind(g.created_at)
    .bind(g.updated_at)
    .bind(g.mode.as_str())
    .bind(g.scoring.as_str())
    .bind(g.seed.as_deref())
    .bind(g.start.as_str())
    .bind(g.engine_color.as_deref())
    .bind(g.engine_level)
    .bind(g.engine_movetime_ms)
    .bind(g.white_token.as_deref())
    .bind(g.black_token.as_deref())
    .bind(g.join_code.as_deref())
    .bind(g.position.as_str())
    .bind(g.to_move.as_deref())
    .bind(g.moves.len() as i64)
    .bind(g.to_move.is_none())
    .bind(g.epoch)
    .bind(g.result.as_str())
    .bind(g.end_reason.as_deref())
    .bind(g.rematch_of.as_deref())
    .bind(g.rematch_id.as_deref())
    .bind(g.pair_half.as_deref())
    .execute(&mut *conn)
    .await?;
    for (ply, notation) in g.moves.iter().enumerate() {
        sqlx::query(
            "INSERT INTO moves (game_id, ply, notation, played_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(g.id.as_str())
        .bind(ply as i64)
        .bind(notation.as_str())
        .bind(g.updated_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(true)
}

/// Writes the derived columns of a game row.
async fn update_progress(
    conn: &mut PgConnection,
    id: &str,
    p: &Progress,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET position = $1, to_move = $2, move_count = $3, finished = $4, epoch = $5, \
         result = $6, end_reason = $7, updated_at = $8, white_hints = $10, \
         black_hints = $11 WHERE id = $9",
    )
    .bind(p.position.as_str())
    .bind(super::to_move_text(p))
    .bind(i64::from(p.move_count))
    .bind(p.to_move.is_none())
    .bind(i64::from(p.epoch))
    .bind(p.result.as_str())
    .bind(super::end_reason_text(p))
    .bind(p.updated_at)
    .bind(id)
    .bind(i64::from(p.hints[0]))
    .bind(i64::from(p.hints[1]))
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Loads a game row and its moves.
async fn load_game(conn: &mut PgConnection, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = sqlx::query(
        "SELECT id, created_at, updated_at, mode, scoring, seed, start, engine_color, engine_level, \
         engine_movetime_ms, white_token, black_token, join_code, position, to_move, epoch, result, \
         end_reason, rematch_of, rematch_id, white_hints, black_hints, pair_half FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let moves = sqlx::query("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    Ok(Some(stored_game(
        &row,
        moves.iter().map(|r| r.get::<String, _>(0)).collect(),
    )?))
}

fn stored_game(row: &PgRow, moves: Vec<String>) -> Result<StoredGame, StoreError> {
    Ok(StoredGame {
        id: row.try_get("id")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        mode: row.try_get("mode")?,
        scoring: row.try_get("scoring")?,
        seed: row.try_get("seed")?,
        start: row.try_get("start")?,
        engine_color: row.try_get("engine_color")?,
        engine_level: row.try_get("engine_level")?,
        engine_movetime_ms: row.try_get("engine_movetime_ms")?,
        white_token: row.try_get("white_token")?,
        black_token: row.try_get("black_token")?,
        join_code: row.try_get("join_code")?,
        position: row.try_get("position")?,
        to_move: row.try_get("to_move")?,
        epoch: row.try_get("epoch")?,
        result: row.try_get("result")?,
        end_reason: row.try_get("end_reason")?,
        rematch_of: row.try_get("rematch_of")?,
        rematch_id: row.try_get("rematch_id")?,
        moves,
        white_hints: row.try_get("white_hints")?,
        black_hints: row.try_get("black_hints")?,
        pair_half: row.try_get("pair_half")?,
    })
}

/// Lists games for the lobby, most recently changed first.
async fn list_games(
    conn: &mut PgConnection,
    filter: ListFilter,
    limit: u32,
) -> Result<Vec<GameSummary>, StoreError> {
    let sql = match filter {
        ListFilter::Recent => {
            "SELECT id, mode, scoring, engine_level, position, to_move, move_count, result, end_reason, \
             created_at, updated_at FROM games ORDER BY updated_at DESC LIMIT $1"
        }
        ListFilter::Live => {
            "SELECT id, mode, scoring, engine_level, position, to_move, move_count, result, end_reason, \
             created_at, updated_at FROM games WHERE finished = FALSE ORDER BY updated_at DESC LIMIT $1"
        }
        ListFilter::Finished => {
            "SELECT id, mode, scoring, engine_level, position, to_move, move_count, result, end_reason, \
             created_at, updated_at FROM games WHERE finished = TRUE ORDER BY updated_at DESC LIMIT $1"
        }
    };
    let rows = sqlx::query(sql)
        .bind(i64::from(limit))
        .fetch_all(&mut *conn)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(super::summary(
                r.try_get("id")?,
                r.try_get("mode")?,
                r.try_get("scoring")?,
                r.try_get("engine_level")?,
                r.try_get("position")?,
                r.try_get("to_move")?,
                r.try_get("move_count")?,
                r.try_get("result")?,
                r.try_get("end_reason")?,
                r.try_get("created_at")?,
                r.try_get("updated_at")?,
            ))
        })
        .collect()
}
