//! Clocks, kept by the database. A game's clock is stored with it (time left per side, when the
//! turn began, and the deadline), so any instance can end a game whose time ran out: the instance
//! that stored the change arms a timer for the deadline (it hears of it as a
//! [`GameEvent::Changed`] with a deadline), and every instance sweeps the database each second for deadlines
//! passed (the timer's instance may have died). Ending the game is an ordinary conditional change
//! of the game ([`Games::flag_if_due`]), so it happens once, however many instances try.

use super::{GameEvent, Games, now_ms};
use crate::error::ApiError;
use crate::store::clocks::ClocksRepo;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The most games ended in one sweep.
const SWEEP_LIMIT: u32 = 64;

/// Deadlines further away than this are left to the sweep (correspondence games).
const LONGEST_TIMER: Duration = Duration::from_secs(24 * 3600);

/// The clocks' timers and sweep.
pub struct Clocks {
    /// Its repository (read only).
    repo: ClocksRepo,
    games: Arc<Games>,
}

impl Clocks {
    /// The clocks of `games`.
    pub fn new(repo: ClocksRepo, games: Arc<Games>) -> Clocks {
        Clocks { repo, games }
    }

    /// Arms a timer for each deadline the games announce, as long as they announce them.
    pub fn follow(self: &Arc<Clocks>, mut events: mpsc::UnboundedReceiver<GameEvent>) {
        let clocks = self.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                if let GameEvent::Changed {
                    id,
                    deadline: Some(deadline),
                    ..
                } = event
                {
                    clocks.arm(id, deadline);
                }
            }
        });
    }

    /// Ends game `id` at `deadline` if its clock has run out then.
    fn arm(&self, id: String, deadline: i64) {
        let wait = Duration::from_millis((deadline - now_ms()).max(0) as u64 + 1);
        if wait > LONGEST_TIMER {
            return;
        }
        let games = self.games.clone();
        let clock = crate::clock::installed();
        tokio::spawn(async move {
            let _job = clock.sleep_until(deadline + 1).await;
            if let Err(e) = games.flag_if_due(&id).await {
                tracing::warn!("cannot end game {id} on time: {}", e.message);
            }
        });
    }

    /// Ends the games whose time ran out (every instance runs this each second).
    pub async fn sweep(&self) -> Result<(), ApiError> {
        for id in self.repo.due_games(now_ms(), SWEEP_LIMIT).await? {
            if let Err(e) = self.games.flag_if_due(&id).await {
                tracing::warn!("cannot end game {id} on time: {}", e.message);
            }
        }
        Ok(())
    }
}
