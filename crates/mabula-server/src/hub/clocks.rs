//! Clocks and ratings, kept by the database. A game's clock is stored with it (time left per
//! side, when the turn began, and the deadline), so any instance can end a game whose time ran
//! out: the instance that stored the move arms a timer for the deadline, and every instance
//! sweeps the database each second for deadlines passed (the timer's instance may have died).
//! Ending the game is an ordinary conditional change of the game, so it happens once, however
//! many instances try.
//!
//! A rated game that ends is rated by a job that runs exactly once: the change of ratings and
//! the mark "rated" on the game are one transaction, conditional on the mark not being there.
//! The instance that ended the game runs it at once; the sweep catches any left by a dead one.

use super::{Change, GameHandle, Hub, Plan, now_ms};
use crate::error::{ApiError, ErrorCode};
use crate::model::rating::{Glicko2, SECOND_PLAYER_ADVANTAGE, estimate_advantage};
use mabula::Scoring;
use std::sync::Arc;
use std::time::Duration;

/// Rated games of a scoring mode needed before their measured advantage replaces the default.
pub const MEASURED_AFTER: usize = 200;

/// How often the measured advantage is read again (ms).
pub const ADVANTAGE_REFRESH_MS: i64 = 10 * 60 * 1000;

/// The most games ended or rated in one sweep.
const SWEEP_LIMIT: u32 = 64;

fn nothing_due() -> ApiError {
    ApiError::new(ErrorCode::GameOver, "the clock has not run out")
}

impl Hub {
    /// Ends the game in `slot` if its clock ran out (a flag or an abort); says whether it did.
    pub(super) async fn enforce_clock(
        self: &Arc<Hub>,
        h: &Arc<GameHandle>,
        slot: &mut super::Slot,
    ) -> Result<bool, ApiError> {
        if slot.game.due(now_ms()).is_none() {
            return Ok(false);
        }
        let ended = self
            .transact(h, slot, |g| {
                let now = now_ms();
                let due = g.due(now).ok_or_else(nothing_due)?;
                let mut next = g.clone();
                next.apply_due(due, now);
                Ok(Plan::new(next, Change::Resigned, ()))
            })
            .await;
        match ended {
            Ok(_) => {
                crate::metrics::flag_fired();
                Ok(true)
            }
            Err(e) if e.code == ErrorCode::GameOver => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Ends game `id` if its clock ran out.
    pub async fn flag_if_due(self: &Arc<Hub>, id: &str) -> Result<bool, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        self.enforce_clock(&h, &mut slot).await
    }

    /// Arms a timer for the deadline of the game in `slot`, if it has one.
    pub(super) fn arm_clock(self: &Arc<Hub>, h: &Arc<GameHandle>, game: &crate::model::LiveGame) {
        let Some((at, _)) = game.deadline() else {
            return;
        };
        let wait = Duration::from_millis((at - now_ms()).max(0) as u64 + 1);
        if wait > Duration::from_secs(24 * 3600) {
            return; // correspondence: the sweep will do
        }
        let (hub, id) = (self.clone(), h.id.clone());
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            if let Err(e) = hub.flag_if_due(&id).await {
                tracing::warn!("cannot end game {id} on time: {}", e.message);
            }
        });
    }

    /// Rates game `id` if it is a rated game that ended and was not rated yet, and shows the new
    /// ratings to its listeners.
    pub async fn rate(self: &Arc<Hub>, id: &str) -> Result<(), ApiError> {
        let advantages = self.advantages().await;
        let done = self
            .db
            .rate_game(id, &Glicko2::default(), advantages, now_ms())
            .await?;
        if done.is_some() {
            self.reload_if_cached(id, "rated").await;
        }
        Ok(())
    }

    /// The second player's advantage per scoring mode (largest, product): measured on the rated
    /// games once a mode has [`MEASURED_AFTER`] of them, else [`SECOND_PLAYER_ADVANTAGE`]. Read
    /// from the database at most every [`ADVANTAGE_REFRESH_MS`].
    pub async fn advantages(&self) -> [f64; 2] {
        let now = now_ms();
        if let Ok(cached) = self.advantage.lock()
            && let Some((at, values)) = *cached
            && now - at < ADVANTAGE_REFRESH_MS
        {
            return values;
        }
        let mut values = [SECOND_PLAYER_ADVANTAGE; 2];
        for (i, scoring) in [Scoring::Largest, Scoring::Product].into_iter().enumerate() {
            match self.db.first_player_results(scoring).await {
                Ok(games) if games.len() >= MEASURED_AFTER => {
                    if let Some(a) = estimate_advantage(&games) {
                        values[i] = a;
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("cannot measure the second player's advantage: {e}"),
            }
        }
        if let Ok(mut cached) = self.advantage.lock() {
            *cached = Some((now, values));
        }
        values
    }

    /// Reloads game `id` if it is in memory and the store has a newer version, broadcasting the
    /// change as `reason`.
    pub(super) async fn reload_if_cached(self: &Arc<Hub>, id: &str, reason: &str) {
        let cached = self.games.lock().ok().and_then(|g| g.get(id).cloned());
        let Some(h) = cached else { return };
        let mut slot = h.slot.lock().await;
        if let Err(e) = self.refresh(&h, &mut slot, reason).await {
            tracing::warn!("cannot reload game {id}: {}", e.message);
        }
    }

    /// Ends the games whose time ran out, rates the ended games not rated yet, and clears the
    /// lapsed seeks. Every instance runs this each second.
    pub(super) async fn sweep_clocks(self: &Arc<Hub>) -> Result<(), ApiError> {
        let now = now_ms();
        for id in self.db.due_games(now, SWEEP_LIMIT).await? {
            if let Err(e) = self.flag_if_due(&id).await {
                tracing::warn!("cannot end game {id} on time: {}", e.message);
            }
        }
        for id in self.db.unrated_games(SWEEP_LIMIT).await? {
            self.rate(&id).await?;
        }
        if self.db.expire_seeks(now).await? && !self.shared {
            self.lobby_notice(crate::store::Notice::Lobby);
        }
        Ok(())
    }
}
