//! The positions live rated games keep from the engine (issue 51; the
//! [fair play service](crate::services::fair_play)'s repository, read only). The game rows'
//! writer stores them in `kept_positions` with each change of a rated game, in its transaction
//! ([`model::fair_play::kept`](crate::model::fair_play::kept)), so every instance reads them
//! from the moment the change is acknowledged.

use super::StoreError;
use super::conn::{Conn, on_db};

/// The fair play repository (read only).
#[derive(Clone, Debug)]
pub struct FairPlayRepo {
    conn: Conn,
}

impl FairPlayRepo {
    pub(super) fn new(conn: Conn) -> FairPlayRepo {
        FairPlayRepo { conn }
    }

    /// Whether a live rated game keeps any of `keys` (one indexed query).
    pub async fn any_kept(&self, keys: &[i64]) -> Result<bool, StoreError> {
        if keys.is_empty() {
            return Ok(false);
        }
        let list: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT 1 FROM kept_positions WHERE key IN ({}) LIMIT 1",
            list.join(", ")
        );
        on_db!(&self.conn, read, |pool, _pg| {
            // Only placeholders are written into the text; the keys are bound.
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.clone()));
            for k in keys {
                query = query.bind(*k);
            }
            Ok(query.fetch_optional(pool).await?.is_some())
        })
    }
}
