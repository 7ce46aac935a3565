//! Analyses shared by the instances on one database: one instance claims a position and computes
//! it, the others wait for its stored report, and a claim whose owner died (its heartbeat in
//! `instances` is old) is taken over.

use super::StoreError;
use super::conn::{Conn, on_db};
use sqlx::Row;

/// Where a position's shared analysis stands for the instance asking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This instance holds the claim: it computes the analysis.
    Mine,
    /// A live instance computes it.
    Theirs,
    /// It is done: the stored report.
    Done(String),
}

/// The analyses' claims (the [analyst](crate::analysis::Analyst)'s on a shared database): who computes a position, and its stored report.
#[derive(Clone, Debug)]
pub struct ClaimsRepo {
    conn: Conn,
}

impl ClaimsRepo {
    pub(super) fn new(conn: Conn) -> ClaimsRepo {
        ClaimsRepo { conn }
    }

    /// Claims the analysis of `position` in `scoring` for instance `me`, unless it is done or
    /// another instance heard from since `alive_since` holds it.
    pub async fn claim_analysis(
        &self,
        position: &str,
        scoring: &str,
        me: &str,
        now: i64,
        alive_since: i64,
    ) -> Result<Claim, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let claimed = sqlx::query(
                "INSERT INTO analyses (position, scoring, owner, claimed_at) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (position, scoring) DO UPDATE \
                 SET owner = excluded.owner, claimed_at = excluded.claimed_at \
                 WHERE analyses.report IS NULL AND (analyses.owner IS NULL \
                 OR analyses.owner = excluded.owner OR NOT EXISTS (SELECT 1 FROM instances i \
                 WHERE i.id = analyses.owner AND i.heartbeat_at >= $5)) \
                 RETURNING owner",
            )
            .bind(position)
            .bind(scoring)
            .bind(me)
            .bind(now)
            .bind(alive_since)
            .fetch_optional(pool)
            .await?;
            if claimed.is_some() {
                return Ok(Claim::Mine);
            }
            let row =
                sqlx::query("SELECT report FROM analyses WHERE position = $1 AND scoring = $2")
                    .bind(position)
                    .bind(scoring)
                    .fetch_optional(pool)
                    .await?;
            Ok(match row {
                Some(r) => match r.try_get::<Option<String>, _>(0)? {
                    Some(report) => Claim::Done(report),
                    None => Claim::Theirs,
                },
                None => Claim::Theirs,
            })
        })
    }

    /// Stores the final `report` of an analysis this instance computed.
    pub async fn finish_analysis(
        &self,
        position: &str,
        scoring: &str,
        report: &str,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "UPDATE analyses SET report = $3, owner = NULL \
                 WHERE position = $1 AND scoring = $2",
            )
            .bind(position)
            .bind(scoring)
            .bind(report)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Gives up instance `me`'s claim on an analysis it could not finish.
    pub async fn release_analysis(
        &self,
        position: &str,
        scoring: &str,
        me: &str,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "UPDATE analyses SET owner = NULL \
                 WHERE position = $1 AND scoring = $2 AND owner = $3 AND report IS NULL",
            )
            .bind(position)
            .bind(scoring)
            .bind(me)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Opens analysis request `id` of client `client` on instance `me`, unless the client has
    /// `most` open already on the instances heard from since `alive_since` (counted in the same
    /// statement; on PostgreSQL one client's openings wait for each other), or one opened more
    /// than ten minutes before `now` (a request whose close was lost does not count for ever):
    /// whether it was opened.
    pub async fn open_request(
        &self,
        id: &str,
        client: &str,
        me: &str,
        now: i64,
        alive_since: i64,
        most: u32,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            if pg {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                    .bind(format!("analysis@{client}"))
                    .execute(&mut *tx)
                    .await?;
            }
            let done = sqlx::query(
                "INSERT INTO analysis_requests (id, client, instance, opened_at) \
                 SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM analysis_requests r \
                 JOIN instances i ON i.id = r.instance WHERE r.client = $2 \
                 AND i.heartbeat_at >= $5 AND r.opened_at > $4 - 600000) < $6",
            )
            .bind(id)
            .bind(client)
            .bind(me)
            .bind(now)
            .bind(alive_since)
            .bind(i64::from(most))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Closes analysis request `id` (and forgets those of instances not heard from since
    /// `alive_since`).
    pub async fn close_request(&self, id: &str, alive_since: i64) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "DELETE FROM analysis_requests WHERE id = $1 OR instance NOT IN \
                 (SELECT id FROM instances WHERE heartbeat_at >= $2)",
            )
            .bind(id)
            .bind(alive_since)
            .execute(pool)
            .await?;
            Ok(())
        })
    }
}
