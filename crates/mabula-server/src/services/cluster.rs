//! This instance among the others on one database: its id and heartbeat (an instance not heard
//! from for [`Config::instance_timeout`](super::Config) is taken for dead), whether every change
//! of the others reaches it, and the lobby's and players' notices for this instance's lobby
//! sockets.
//!
//! On SQLite there is one process and no notices from elsewhere: the services deliver their own
//! notices here, and the heartbeat still runs (it is the database's availability probe).

use super::now_ms;
use crate::auth;
use crate::store::cluster::ClusterRepo;
use crate::store::{Notice, Store, StoreError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::broadcast;

/// Instances silent for this long are removed from the database with their presence rows.
const FORGET_AFTER: Duration = Duration::from_secs(60);

/// What a player notice (`u KEY signed-out`) says when some of the account's sessions or
/// personal tokens ended: every live channel of the account reads its own again.
pub const SIGNED_OUT: &str = "signed-out";

/// The database's connections and whether it answered its last probe, as the metrics show them.
#[derive(Clone, Debug)]
pub struct DatabaseReading {
    /// Each pool's connections.
    pub pools: Vec<crate::metrics::PoolReading>,
    /// Whether the database answered its last probe.
    pub up: bool,
}

/// This instance.
pub struct Cluster {
    store: Arc<Store>,
    /// Its repository: announcements.
    repo: ClusterRepo,
    /// This instance's id in the database (random, new at every start).
    instance: String,
    /// When this instance started (ms).
    started: i64,
    /// Other instances may share the database (PostgreSQL): presence is summed in the database
    /// and notices come back through it.
    shared: bool,
    /// Every change of another instance reaches this one (the listener is connected and caught
    /// up). While false, every use of a game in memory checks its stored version first.
    synced: AtomicBool,
    /// An instance not heard from for this long is taken for dead.
    timeout: Duration,
    /// The lobby's and the players' notices, for this instance's lobby sockets.
    notices: broadcast::Sender<Notice>,
}

impl Cluster {
    /// This instance on `store`.
    pub fn new(store: Arc<Store>, repo: ClusterRepo, timeout: Duration) -> Cluster {
        let shared = store.kind() == "postgres";
        Cluster {
            store,
            repo,
            instance: auth::new_secret(9),
            started: now_ms(),
            shared,
            synced: AtomicBool::new(!shared),
            timeout,
            notices: broadcast::channel(256).0,
        }
    }

    /// Whether the database answers now, whatever it did at its last probe (readiness).
    pub async fn database_answers(&self) -> Result<(), crate::error::ApiError> {
        Ok(self.store.ping().await.0?)
    }

    /// The database's connections and whether it answered its last probe (the metrics).
    pub fn database_reading(&self) -> DatabaseReading {
        DatabaseReading {
            pools: self.store.pool_readings(),
            up: self.store.is_up(),
        }
    }

    /// This instance's id in the database.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Whether other instances share the database (notices come from PostgreSQL; on SQLite the
    /// services deliver their own).
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// Whether every change of another instance reaches this one now.
    pub fn is_synced(&self) -> bool {
        self.synced.load(Ordering::Acquire)
    }

    /// Notes whether the notices' listener is connected and caught up.
    pub fn set_synced(&self, synced: bool) {
        self.synced.store(synced, Ordering::Release);
    }

    /// The earliest heartbeat of an instance taken for alive.
    pub fn alive_since(&self) -> i64 {
        now_ms() - self.timeout.as_millis() as i64
    }

    /// Says this instance is alive (and asks whether the database is): the result, and whether
    /// the database came or went since the last time it was asked.
    pub async fn heartbeat(&self) -> (Result<(), StoreError>, bool) {
        let now = now_ms();
        let dead_before = now - FORGET_AFTER.as_millis() as i64;
        self.store
            .heartbeat(&self.instance, self.started, now, dead_before)
            .await
    }

    /// The heartbeat, saying in the log when the database goes away and when it is back.
    pub async fn heartbeat_logged(&self) {
        match self.heartbeat().await {
            (Err(e), true) => tracing::error!("the database went away: {e}"),
            (Ok(()), true) => tracing::info!("the database is back"),
            (Err(e), false) if self.store.is_up() => tracing::warn!("heartbeat not stored: {e}"),
            _ => {}
        }
    }

    /// Removes this instance from the database (it stops): its engine moves are free to be
    /// taken over at once.
    pub async fn leave(&self) {
        if let Err(e) = self.store.leave(&self.instance).await {
            tracing::warn!("cannot unregister this instance: {e}");
        }
    }

    /// The lobby's and the players' notices, for a lobby socket.
    pub fn notices(&self) -> broadcast::Receiver<Notice> {
        self.notices.subscribe()
    }

    /// Passes a lobby or player notice to this instance's lobby sockets.
    pub fn notify_local(&self, n: Notice) {
        let _ = self.notices.send(n);
    }

    /// Delivers notices that the database announced in the change's own transaction: on
    /// PostgreSQL they come back through `NOTIFY`, so nothing is done here; on SQLite this
    /// instance is all there is, and they go to its sockets now.
    pub fn deliver(&self, notices: impl IntoIterator<Item = Notice>) {
        if !self.shared {
            for n in notices {
                self.notify_local(n);
            }
        }
    }

    /// Tells every instance that sessions or personal tokens of account `key` ended (after the
    /// change is stored): its live channels read their own again and close if it is gone. Not
    /// heard, the channels still find out at their next periodic check.
    pub async fn signed_out(&self, key: &str) {
        if let Err(e) = self.announce(&[format!("u {key} {SIGNED_OUT}")]).await {
            tracing::warn!("cannot announce that sessions of {key} ended: {e}");
        }
    }

    /// Announces notices to every instance's lobby sockets: with `NOTIFY` on PostgreSQL, here
    /// alone on SQLite.
    pub async fn announce(&self, payloads: &[String]) -> Result<(), StoreError> {
        if self.shared {
            self.repo.announce(payloads).await
        } else {
            self.deliver(payloads.iter().filter_map(|p| Notice::parse(p)));
            Ok(())
        }
    }
}
