//! This instance among the others on one database: its heartbeat (an instance not heard from
//! for [`HubConfig::instance_timeout`](super::HubConfig) is taken for dead), the sweep for engine
//! moves left by dead instances, the other instances' notices (a game changed elsewhere is
//! reloaded, and its changes are broadcast to this instance's listeners), and presence counted
//! over every instance.
//!
//! On SQLite there is one process and no notices; the heartbeat and the sweep still run, so an
//! engine move interrupted by a restart is resumed.

use super::engine_moves::SWEEP_INTERVAL;
use super::{GameHandle, Hub, now_ms};
use crate::error::ApiError;
use crate::model::{Seats, Speed};
use crate::protocol::ServerMessage;
use crate::store::{Notice, PresenceCounts, StoreError};
use crate::view;
use mabula::Color;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::watch;

/// How often an instance says it is alive.
const HEARTBEAT_INTERVAL: Duration = Duration::from_secs(1);

/// Instances silent for this long are removed from the database with their presence rows.
const FORGET_AFTER: Duration = Duration::from_secs(60);

/// How long presence changes are gathered before one presence message is sent.
const PRESENCE_DELAY: Duration = Duration::from_millis(200);

impl Hub {
    /// Registers this instance, resumes the engine moves nobody computes, and starts the
    /// background work (heartbeat, sweep, notices, eviction) until `stop` turns true.
    pub async fn start(self: &Arc<Hub>, stop: watch::Receiver<bool>) -> Result<(), ApiError> {
        self.heartbeat().await.0?;
        match self.sweep_engines().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("resumed the engine in {n} games"),
            Err(e) => tracing::warn!("cannot resume engine games: {}", e.message),
        }
        let hub = self.clone();
        let mut until = stop.clone();
        tokio::spawn(async move {
            let mut beat = tokio::time::interval(HEARTBEAT_INTERVAL);
            let mut sweep = tokio::time::interval(SWEEP_INTERVAL);
            let mut evict = tokio::time::interval(Duration::from_secs(10));
            let mut clocks = tokio::time::interval(Duration::from_secs(1));
            loop {
                tokio::select! {
                    _ = beat.tick() => hub.heartbeat_logged().await,
                    _ = sweep.tick() => {
                        if hub.store.is_up()
                            && let Err(e) = hub.sweep_engines().await
                        {
                            tracing::warn!("engine sweep failed: {}", e.message);
                        }
                    }
                    _ = evict.tick() => { hub.evict_idle(); }
                    _ = clocks.tick() => {
                        if hub.store.is_up()
                            && let Err(e) = hub.sweep_clocks().await
                        {
                            tracing::warn!("clock sweep failed: {}", e.message);
                        }
                    }
                    _ = until.changed() => break,
                }
            }
        });
        if let Some(mut notices) = self.store.backend().listen() {
            let hub = self.clone();
            let mut until = stop;
            tokio::spawn(async move {
                loop {
                    tokio::select! {
                        notice = notices.recv() => match notice {
                            Some(n) => hub.on_notice(n).await,
                            None => break,
                        },
                        _ = until.changed() => break,
                    }
                }
            });
        }
        Ok(())
    }

    /// Removes this instance from the database (it stops): its engine moves are free to be
    /// taken over at once.
    pub async fn leave(&self) {
        if let Err(e) = self.store.backend().leave(&self.instance).await {
            tracing::warn!("cannot unregister this instance: {e}");
        }
    }

    /// Says this instance is alive (and asks whether the database is): the result, and whether
    /// the database came or went since the last time it was asked.
    async fn heartbeat(&self) -> (Result<(), StoreError>, bool) {
        let now = now_ms();
        let dead_before = now - FORGET_AFTER.as_millis() as i64;
        let beat = self
            .store
            .backend()
            .heartbeat(&self.instance, self.started, now, dead_before);
        self.store.probe(beat).await
    }

    /// The heartbeat, saying in the log when the database goes away and when it is back.
    async fn heartbeat_logged(&self) {
        match self.heartbeat().await {
            (Err(e), true) => tracing::error!("the database went away: {e}"),
            (Ok(()), true) => tracing::info!("the database is back"),
            (Err(e), false) if self.store.is_up() => tracing::warn!("heartbeat not stored: {e}"),
            _ => {}
        }
    }

    /// The earliest heartbeat of an instance taken for alive.
    fn alive_since(&self) -> i64 {
        now_ms() - self.config.instance_timeout.as_millis() as i64
    }

    /// Acts on another instance's notice.
    async fn on_notice(self: &Arc<Hub>, notice: Notice) {
        let cached = |id: &str| self.games.lock().ok().and_then(|g| g.get(id).cloned());
        match notice {
            Notice::Game {
                id,
                version,
                reason,
            } => {
                let Some(h) = cached(&id) else { return };
                h.announced.fetch_max(version, Ordering::AcqRel);
                if h.events.receiver_count() == 0 {
                    return; // reloaded when it is next used
                }
                let mut slot = h.slot.lock().await;
                if slot.game.version < version
                    && let Err(e) = self.refresh(&h, &mut slot, &reason).await
                {
                    tracing::warn!("cannot reload game {id}: {}", e.message);
                }
            }
            Notice::Presence { id } => {
                if let Some(h) = cached(&id) {
                    self.publish_presence(&h, None).await;
                }
            }
            n @ (Notice::Lobby | Notice::User { .. }) => self.lobby_notice(n),
            Notice::Lost => self.synced.store(false, Ordering::Release),
            Notice::Back => {
                // Whatever was announced while nobody listened is read from the database, once
                // the heartbeat finds it answering again.
                for _ in 0..150 {
                    if self.store.is_up() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                for h in self.handles() {
                    if let Err(e) = self.check_version(&h).await {
                        tracing::warn!("cannot check game {}: {}", h.id, e.message);
                        continue;
                    }
                    self.publish_presence(&h, None).await;
                }
                self.synced.store(true, Ordering::Release);
            }
        }
    }

    /// Since when `color`'s seat of the game in `h` has had no connection on any instance;
    /// `None` while it has one. A seat found away that was not recorded so is recorded now.
    pub(super) async fn away_since(
        &self,
        h: &Arc<GameHandle>,
        color: Color,
    ) -> Result<Option<i64>, ApiError> {
        let totals = self.presence_totals(h, None).await?;
        let away = [totals.white == 0, totals.black == 0];
        if !away[usize::from(color == Color::Black)] {
            return Ok(None);
        }
        self.db.set_away(&h.id, away, now_ms()).await?;
        Ok(self.db.away_since(&h.id, color).await?)
    }

    /// The connections to the game in `h` over all instances, after storing this instance's
    /// count `local` (if it changed).
    async fn presence_totals(
        &self,
        h: &GameHandle,
        local: Option<PresenceCounts>,
    ) -> Result<PresenceCounts, StoreError> {
        if !self.shared {
            return Ok(h.local.lock().map(|p| *p).unwrap_or_default());
        }
        self.store
            .backend()
            .presence(&self.instance, &h.id, local, self.alive_since())
            .await
    }

    /// Counts a WebSocket in or out of the presence of a game, and schedules a presence message.
    pub fn presence_change(self: &Arc<Hub>, h: &Arc<GameHandle>, seats: Option<Seats>, delta: i32) {
        if let Ok(mut p) = h.local.lock() {
            let add = |n: &mut u32| *n = n.saturating_add_signed(delta);
            match seats {
                Some(s) => {
                    if s.white {
                        add(&mut p.white);
                    }
                    if s.black {
                        add(&mut p.black);
                    }
                }
                None => add(&mut p.spectators),
            }
        }
        h.touched.store(now_ms(), Ordering::Relaxed);
        if h.presence_pending.swap(true, Ordering::AcqRel) {
            return;
        }
        let (hub, h) = (self.clone(), h.clone());
        tokio::spawn(async move {
            tokio::time::sleep(PRESENCE_DELAY).await;
            h.presence_pending.store(false, Ordering::Release);
            let local = h.local.lock().map(|p| *p).unwrap_or_default();
            hub.publish_presence(&h, Some(local)).await;
        });
    }

    /// Stores this instance's count (`local`, if it changed), reads the totals over every
    /// instance, records the seats of a real-time game that nobody holds now (a player away),
    /// and sends the totals to this instance's listeners.
    pub(super) async fn publish_presence(
        &self,
        h: &Arc<GameHandle>,
        local: Option<PresenceCounts>,
    ) {
        let totals = match self.presence_totals(h, local).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!("presence of game {} not stored: {e}", h.id);
                return;
            }
        };
        if let Ok(mut t) = h.totals.lock() {
            *t = totals;
        }
        let slot = h.slot.lock().await;
        let seats = view::seats_view(&slot.game, totals);
        let realtime = slot
            .game
            .clock
            .is_some_and(|c| c.control.speed() == Speed::Realtime);
        let playing = !slot.game.is_over();
        drop(slot);
        if realtime {
            let away = [playing && totals.white == 0, playing && totals.black == 0];
            if let Err(e) = self.db.set_away(&h.id, away, now_ms()).await {
                tracing::warn!("absence in game {} not stored: {e}", h.id);
            }
        }
        if h.events.receiver_count() == 0 {
            return;
        }
        let msg = ServerMessage::Presence {
            seats,
            spectators: totals.spectators,
        };
        let _ = h.events.send(msg.to_text());
    }
}
