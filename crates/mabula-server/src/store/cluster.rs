//! The cluster's announcements (the [cluster service](crate::services::cluster)'s repository):
//! `NOTIFY` on PostgreSQL of what happened on this instance.

use super::StoreError;
use super::conn::{Announce, Conn, on_db};

/// The cluster's repository.
#[derive(Clone, Debug)]
pub struct ClusterRepo {
    conn: Conn,
}

impl ClusterRepo {
    pub(super) fn new(conn: Conn) -> ClusterRepo {
        ClusterRepo { conn }
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
}
