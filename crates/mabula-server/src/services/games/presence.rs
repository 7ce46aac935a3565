//! Presence: the open WebSockets of a game on every instance (stored per instance on
//! PostgreSQL and summed there), since when a seat of a real-time game has had no connection
//! (stored, so that a claim of the win is judged the same everywhere), and the other instances'
//! notices about games (a watched game is reloaded at once, another when next used).

use super::{GameHandle, Games, now_ms};
use crate::error::ApiError;
use crate::model::{LiveGame, Seats, Speed};
use crate::protocol::ServerMessage;
use crate::store::{Notice, PresenceCounts, StoreError};
use crate::view;
use mabula::Color;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long presence changes are gathered before one presence message is sent.
const PRESENCE_DELAY: Duration = Duration::from_millis(200);

impl Games {
    /// Acts on another instance's notice about a game.
    pub async fn on_notice(self: &Arc<Games>, notice: Notice) {
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
                // Told here as if it happened here: reloaded if newer, else told if a reload
                // read it before its notice came.
                if let Err(e) = self.heard(&h, version, &reason, true).await {
                    tracing::warn!("cannot reload game {id}: {}", e.message);
                }
            }
            Notice::Presence { id } => {
                if let Some(h) = cached(&id) {
                    self.publish_presence(&h, None).await;
                }
            }
            _ => {}
        }
    }

    /// Checks every game in memory against the database and publishes its presence (the
    /// notices' listener was away: some notices may have been missed, so the changes still
    /// owed to the listeners are told as one update).
    pub async fn resync(self: &Arc<Games>) {
        for h in self.handles() {
            if let Err(e) = self.check_version(&h).await {
                tracing::warn!("cannot check game {}: {}", h.id, e.message);
                continue;
            }
            {
                let mut slot = h.slot.lock().await;
                if !std::mem::take(&mut slot.owed).is_empty() {
                    self.tell(&h, &mut slot, super::Change::Update("update"));
                }
            }
            self.publish_presence(&h, None).await;
        }
    }

    /// Since when `color`'s seat of `game` (the game in `h`) has shown no sign of life: no
    /// connection on any instance, no request about the game and no move since then; `None`
    /// while it has a connection. A seat found away that was not recorded so is recorded now.
    pub(super) async fn away_since(
        &self,
        h: &Arc<GameHandle>,
        game: &LiveGame,
        color: Color,
    ) -> Result<Option<i64>, ApiError> {
        let totals = self.presence_totals(h, None).await?;
        let away = [totals.white == 0, totals.black == 0];
        if !away[usize::from(color == Color::Black)] {
            return Ok(None);
        }
        self.repo.set_away(&h.id, away, now_ms()).await?;
        // Moves alternate (a pass is a move): the first mover's are the even plies.
        let parity = u32::from(game.game.start().side_to_move() != color);
        let since = self.repo.away_since(&h.id, color, parity).await?;
        Ok(since.map(|since| since.max(game.created_at)))
    }

    /// Records that the holder of `seats` showed a sign of life in the game in `h` (a request
    /// about it, or with `socket` a socket opened on it), for the claims of the other side.
    pub(super) fn seen(self: &Arc<Games>, h: &GameHandle, seats: Seats, socket: bool) {
        let clock = crate::clock::installed();
        let now = clock.now_ms();
        for color in seats.sides() {
            let (games, id, job) = (Arc::clone(self), h.id.clone(), clock.job());
            tokio::spawn(async move {
                let _job = job;
                if let Err(e) = games.repo.seen(&id, color, now, socket).await {
                    tracing::warn!("sign of life in game {id} not stored: {e}");
                }
            });
        }
    }

    /// Records that the holder of `seats` tried to open a socket on the game in `h` and was
    /// refused for want of a place: a sign of life as good as a request, so a seat is never
    /// counted away because the server had no room for its socket.
    pub fn socket_refused(self: &Arc<Games>, h: &GameHandle, seats: Seats) {
        self.seen(h, seats, false);
    }

    /// The connections to the game in `h` over all instances, after storing this instance's
    /// count `local` (if it changed).
    async fn presence_totals(
        &self,
        h: &GameHandle,
        local: Option<PresenceCounts>,
    ) -> Result<PresenceCounts, StoreError> {
        if !self.cluster.is_shared() {
            return Ok(h.local.lock().map(|p| *p).unwrap_or_default());
        }
        self.store
            .presence(
                self.cluster.instance(),
                &h.id,
                local,
                self.cluster.alive_since(),
            )
            .await
    }

    /// Counts a WebSocket in or out of the presence of a game, and schedules a presence message.
    pub fn presence_change(
        self: &Arc<Games>,
        h: &Arc<GameHandle>,
        seats: Option<Seats>,
        delta: i32,
    ) {
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
        if let Some(seats) = seats.filter(|_| delta > 0) {
            self.seen(h, seats, true);
        }
        if h.presence_pending.swap(true, Ordering::AcqRel) {
            return;
        }
        let (games, h) = (self.clone(), h.clone());
        tokio::spawn(async move {
            tokio::time::sleep(PRESENCE_DELAY).await;
            h.presence_pending.store(false, Ordering::Release);
            // One at a time, so this instance's counts are stored in the order they were read.
            let _in_order = h.storing_presence.lock().await;
            let local = h.local.lock().map(|p| *p).unwrap_or_default();
            games.publish_presence(&h, Some(local)).await;
        });
    }

    /// Stores this instance's count (`local`, if it changed), reads the totals over every
    /// instance (unless a reading begun later was shown first), records the seats of a real-time game that nobody holds now (a player away),
    /// and sends the totals to this instance's listeners.
    pub(super) async fn publish_presence(
        &self,
        h: &Arc<GameHandle>,
        local: Option<PresenceCounts>,
    ) {
        let reading = h.readings.fetch_add(1, Ordering::AcqRel);
        let totals = match self.presence_totals(h, local).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!("presence of game {} not stored: {e}", h.id);
                return;
            }
        };
        // A later reading already shown: this one is out of date.
        match h.totals.lock() {
            Ok(mut t) if t.0 < reading => *t = (reading, totals),
            _ => return,
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
            if let Err(e) = self.repo.set_away(&h.id, away, now_ms()).await {
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
