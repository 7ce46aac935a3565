//! What every repository of the store stands on: the connections of one database ([`Pools`])
//! behind the store's availability [`Gate`] ([`Conn`]), the [`on_db!`] macro that runs one query
//! text on either database, and [`Announce`], the `NOTIFY` of a change in its own transaction.
//!
//! The repositories (one per service, each in its own file: see [`Repositories`](super::Repositories))
//! need no group commit (their queries are few and not on the path of every move), so they run
//! straight on these connections. Each query is written once and run on either database through
//! [`on_db!`]; the few texts that differ (row locks) are chosen per database.
//!
//! Changes the other instances must hear about (the lobby, a player's challenges, a rated game)
//! are announced in their own transaction with `NOTIFY` on PostgreSQL; on SQLite there is one
//! process, and the caller delivers the same [`Notice`](super::Notice) itself.

use super::{CHANNEL, Gate, StoreError};
use crate::model::TimeControl;
use sqlx::postgres::PgPool;
use sqlx::sqlite::SqlitePool;

/// The connections of one database.
#[derive(Clone, Debug)]
pub enum Pools {
    /// SQLite: the one writing connection and the readers.
    Sqlite {
        /// The writer.
        writer: SqlitePool,
        /// The readers.
        reader: SqlitePool,
    },
    /// PostgreSQL: one pool.
    Postgres(PgPool),
}

/// The connections of one database behind the store's availability [`Gate`]: what each
/// repository holds (a clone: the pools and the gate are shared).
#[derive(Clone, Debug)]
pub(crate) struct Conn {
    pub(super) pools: Pools,
    pub(super) gate: Gate,
}

impl Conn {
    pub(super) fn new(pools: Pools, gate: Gate) -> Conn {
        Conn { pools, gate }
    }
}

/// Runs `$body` with `$pool` bound to the database's pool for writes (`write`) or reads
/// (`read`), and `$pg` to whether it is PostgreSQL, behind the gate: answers `Unavailable` at
/// once while the database is known to be away, and closes the gate when the body finds it away.
/// The body is compiled once per database; its `?` and `return` leave the body only.
macro_rules! on_db {
    ($db:expr, $which:ident, |$pool:ident, $pg:ident| $body:expr) => {{
        let db: &$crate::store::conn::Conn = $db;
        db.gate.check()?;
        let _timer = crate::metrics::query("players");
        let r: Result<_, StoreError> = async { on_db!(@pools db.pools, $which, $pool, $pg, $body) }.await;
        db.gate.note(r)
    }};
    (@pools $pools:expr, write, $pool:ident, $pg:ident, $body:expr) => {
        match &$pools {
            $crate::store::conn::Pools::Sqlite { writer: $pool, .. } => {
                let $pg = false;
                $body
            }
            $crate::store::conn::Pools::Postgres($pool) => {
                let $pg = true;
                $body
            }
        }
    };
    (@pools $pools:expr, read, $pool:ident, $pg:ident, $body:expr) => {
        match &$pools {
            $crate::store::conn::Pools::Sqlite { reader: $pool, .. } => {
                let $pg = false;
                $body
            }
            $crate::store::conn::Pools::Postgres($pool) => {
                let $pg = true;
                $body
            }
        }
    };
}
pub(super) use on_db;

pub(super) fn control_of(
    initial: Option<i64>,
    increment: Option<i64>,
    days: Option<i64>,
) -> Option<TimeControl> {
    match (initial, increment, days) {
        (Some(i), Some(inc), _) => Some(TimeControl::Clock {
            initial_s: u32::try_from(i).ok()?,
            increment_s: u32::try_from(inc).ok()?,
        }),
        (_, _, Some(d)) => Some(TimeControl::Days {
            days: u32::try_from(d).ok()?,
        }),
        _ => None,
    }
}

pub(super) fn corrupt(id: &str, what: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        id: id.to_string(),
        what: what.into(),
    }
}

/// Announcing changes to the other instances from inside a transaction: sent on PostgreSQL
/// when the transaction commits; nothing on SQLite, where the caller delivers them itself.
pub(super) trait Announce {
    async fn announce(&mut self, payloads: &[String]) -> Result<(), StoreError>;
}

impl Announce for sqlx::Transaction<'_, sqlx::Postgres> {
    async fn announce(&mut self, payloads: &[String]) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, n) FROM UNNEST($2::text[]) AS n")
            .bind(CHANNEL)
            .bind(payloads)
            .execute(&mut **self)
            .await?;
        Ok(())
    }
}

impl Announce for sqlx::Transaction<'_, sqlx::Sqlite> {
    async fn announce(&mut self, _payloads: &[String]) -> Result<(), StoreError> {
        Ok(())
    }
}
