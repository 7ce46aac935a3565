//! The clocks' query (the [clocks service](crate::services::clocks)'s repository): the games
//! whose time ran out.

use super::StoreError;
use super::conn::{Conn, on_db};
use sqlx::Row;

/// The clocks' repository (read only).
#[derive(Clone, Debug)]
pub struct ClocksRepo {
    conn: Conn,
}

impl ClocksRepo {
    pub(super) fn new(conn: Conn) -> ClocksRepo {
        ClocksRepo { conn }
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
}
