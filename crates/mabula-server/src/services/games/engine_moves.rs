//! The engine's moves. The instance that stores the change after which the engine is to move
//! claims the engine's move in the same write (`engine_owner`), and computes it; its result is
//! stored only if the game is still at the version it was computed for. Every instance sweeps
//! the database now and then for engine moves whose claimant has died (or that nobody claimed),
//! claims them with a compare-and-set and computes them, so a move is never lost and never
//! played twice.

use super::{Change, GameHandle, Games, Plan, Slot, now_ms};
use crate::error::{ApiError, ErrorCode};
use crate::store::MovesChange;
use mabula::Move;
use std::sync::Arc;
use std::time::Duration;

/// The most orphans claimed in one sweep.
const SWEEP_LIMIT: u32 = 32;

impl Games {
    /// Starts the engine if it is to move, this instance holds the claim, and no computation runs.
    pub(super) fn schedule_engine(self: &Arc<Games>, h: &Arc<GameHandle>, slot: &mut Slot) {
        let g = &slot.game;
        let Some(settings) = g.engine else { return };
        if !g.engine_to_move()
            || slot.engine_job.is_some()
            || slot.engine_owner.as_deref() != Some(self.cluster.instance())
        {
            return;
        }
        let version = g.version;
        slot.engine_job = Some(version);
        let pos = *g.game.position();
        let scoring = g.game.scoring();
        let seed = engine_seed(&g.id, g.game.moves().len(), g.epoch);
        // One client's many games wait their turns behind each other, not before other clients.
        let key = slot
            .engine_client
            .clone()
            .unwrap_or_else(|| format!("game:{}", g.id));
        let (games, h) = (self.clone(), h.clone());
        tokio::spawn(async move {
            let movetime = Duration::from_millis(u64::from(settings.movetime_ms));
            let mv = games
                .engine
                .choose_for(&key, pos, scoring, settings.level, movetime, seed)
                .await;
            games.engine_moved(&h, version, mv).await;
        });
    }

    /// Plays the engine's move if the game is still at the version it was computed for.
    async fn engine_moved(self: &Arc<Games>, h: &Arc<GameHandle>, version: u64, mv: Option<Move>) {
        let mut slot = h.slot.lock().await;
        if slot.engine_job != Some(version) {
            return; // taken back, resigned, or reloaded meanwhile
        }
        slot.engine_job = None;
        let Some(mv) = mv else { return };
        let played = self
            .transact(h, &mut slot, |g| {
                if g.version != version || !g.engine_to_move() {
                    return Err(ApiError::new(
                        ErrorCode::StaleState,
                        "the game changed while the engine thought",
                    ));
                }
                let mut next = g.clone();
                next.apply_move(mv, now_ms())?;
                let ply = next.game.moves().len() as u32 - 1;
                let mut plan = Plan::new(next, Change::Moved, ());
                plan.moves = MovesChange::Append { ply, mv };
                Ok(plan)
            })
            .await;
        if let Err(e) = played {
            tracing::debug!("engine move {mv} in game {} dropped: {}", h.id, e.message);
        }
    }

    /// Claims the engine moves that wait for a dead instance (or for nobody) and starts them;
    /// answers how many were claimed.
    pub async fn sweep_engines(self: &Arc<Games>) -> Result<usize, ApiError> {
        let alive_since = self.cluster.alive_since();
        let orphans = self.store.engine_orphans(alive_since, SWEEP_LIMIT).await?;
        let mut claimed = 0;
        for orphan in &orphans {
            if !self
                .store
                .claim_engine(orphan, self.cluster.instance())
                .await?
            {
                continue; // another instance was quicker
            }
            claimed += 1;
            tracing::info!(
                "took over the engine move of game {} (claimed by {})",
                orphan.id,
                orphan.owner.as_deref().unwrap_or("nobody")
            );
            let h = self.handle(&orphan.id).await?;
            let mut slot = h.slot.lock().await;
            slot.engine_owner = Some(self.cluster.instance().to_string());
            self.schedule_engine(&h, &mut slot);
        }
        Ok(claimed)
    }
}

/// A reproducible engine seed per game, move and epoch.
fn engine_seed(id: &str, ply: usize, epoch: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(epoch).rotate_left(32)
}
