//! Ratings. A rated game that ends is rated by a job that runs exactly once: the change of
//! ratings and the mark "rated" on the game are one transaction, conditional on the mark not
//! being there. The instance that ended the game runs it at once (it hears a
//! [`GameEvent::Ended`] of a rated game); every instance's sweep catches any left by a dead one.
//!
//! A game that cannot be rated (an error other than the database being away) is noted in the
//! database with why, counted in `/metrics` (`mabula_rating_failures`) and listed to moderators,
//! and skipped: the sweep goes on with the next game and tries it again only after a wait that
//! doubles with each failure ([`retry_after`]), so one bad game never holds up the others nor
//! fills the log every second. A player who deleted the account is not rated, and the opponent
//! still is (see [`RatingsRepo::rate_game`]).

use super::{GameEvent, Games, now_ms};
use crate::error::ApiError;
use crate::model::rating::FirstPlayerGame;
use crate::model::rating::{Glicko2, SECOND_PLAYER_ADVANTAGE, estimate_advantage, weigh_games};
use crate::store::StoreError;
use crate::store::ratings::{FailureRow, HistoryRow, RatingRow, RatingsRepo};
use mabula::Scoring;
use mabula_api::players::RatingView;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Rated games of a scoring mode needed before their measured advantage replaces the default
/// (games that ended for real, each pair of accounts weighing ten at most:
/// [`weigh_games`]).
pub const MEASURED_AFTER: usize = 200;

/// The most games that could not be rated shown to moderators.
const FAILURES_SHOWN: u32 = 200;

/// How often the measured advantage is read again (ms).
pub const ADVANTAGE_REFRESH_MS: i64 = 10 * 60 * 1000;

/// The most games rated in one sweep.
const SWEEP_LIMIT: u32 = 64;

/// The first wait before a game that could not be rated is tried again (ms); it doubles with
/// each failure, up to [`RETRY_MAX_MS`].
const RETRY_FIRST_MS: i64 = 60 * 1000;

/// The longest wait before a game that could not be rated is tried again (ms).
const RETRY_MAX_MS: i64 = 60 * 60 * 1000;

/// How long after its `attempts`-th failure a game is tried again (ms).
pub fn retry_after(attempts: i64) -> i64 {
    let doublings = u32::try_from(attempts.saturating_sub(1))
        .unwrap_or(0)
        .min(16);
    RETRY_FIRST_MS
        .saturating_mul(1 << doublings)
        .min(RETRY_MAX_MS)
}

/// A stored rating as the site shows it.
pub fn rating_view(r: &RatingRow) -> RatingView {
    RatingView {
        scoring: r.scoring.name().to_string(),
        speed: r.speed,
        rating: r.rating.rating.round() as i32,
        deviation: r.rating.deviation.round() as i32,
        provisional: r.rating.provisional(),
        games: r.games,
    }
}

/// The rating job and the second player's advantage.
pub struct Ratings {
    /// Its repository.
    repo: RatingsRepo,
    games: Arc<Games>,
    /// The second player's advantages in use and when they were measured (see
    /// [`Ratings::advantages`]).
    advantage: Mutex<Option<(i64, [f64; 2])>>,
}

impl Ratings {
    /// The ratings of the players of `games`.
    pub fn new(repo: RatingsRepo, games: Arc<Games>) -> Ratings {
        Ratings {
            repo,
            games,
            advantage: Mutex::new(None),
        }
    }

    /// The ratings of account `key`, as the site shows them.
    pub async fn ratings_of(&self, key: &str) -> Result<Vec<RatingView>, ApiError> {
        Ok(self
            .repo
            .read()
            .ratings(key)
            .await?
            .iter()
            .map(rating_view)
            .collect())
    }

    /// The rating history of account `key`, oldest first.
    pub async fn history_of(&self, key: &str) -> Result<Vec<HistoryRow>, ApiError> {
        Ok(self.repo.rating_history(key).await?)
    }

    /// The rated games' first-player results of `scoring` (the advantage is measured on them).
    pub async fn first_player_results(
        &self,
        scoring: Scoring,
    ) -> Result<Vec<FirstPlayerGame>, ApiError> {
        Ok(self.repo.first_player_results(scoring).await?)
    }

    /// Rates each rated game the games say has ended, as long as they say so.
    pub fn follow(self: &Arc<Ratings>, mut events: mpsc::UnboundedReceiver<GameEvent>) {
        let ratings = self.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                if let GameEvent::Ended {
                    id, rated: true, ..
                } = event
                {
                    // A job of the clock: a test's settled clock has no rating half done.
                    let (ratings, job) = (ratings.clone(), crate::clock::installed().job());
                    tokio::spawn(async move {
                        if let Err(e) = ratings.rate(&id).await {
                            tracing::warn!("cannot rate game {id} now: {}", e.message);
                        }
                        drop(job);
                    });
                }
            }
        });
    }

    /// Rates game `id` if it is a rated game that ended and was not rated yet, and shows the new
    /// ratings to its listeners. A game that cannot be rated is noted and skipped (answered
    /// `Ok`); only the database being away is an error.
    pub async fn rate(&self, id: &str) -> Result<(), ApiError> {
        let advantages = self.advantages().await;
        let now = now_ms();
        match self
            .repo
            .rate_game(id, &Glicko2::default(), advantages, now)
            .await
        {
            Ok(Some(version)) => self.games.reload_if_cached(id, version, "rated").await,
            Ok(None) => {}
            Err(e @ StoreError::Unavailable(_)) => return Err(e.into()),
            Err(e) => {
                crate::metrics::rating_failed();
                let reason = e.to_string();
                match self.repo.note_failure(id, &reason, now, retry_after).await {
                    Ok(attempts) => tracing::warn!(
                        "game {id} could not be rated (attempt {attempts}), skipped until a \
                         retry in {} s: {reason}",
                        retry_after(attempts) / 1000
                    ),
                    Err(e @ StoreError::Unavailable(_)) => return Err(e.into()),
                    // Not noted: the next sweep tries it again, and the others still go on.
                    Err(noting) => tracing::warn!(
                        "game {id} could not be rated ({reason}), nor the failure noted: {noting}"
                    ),
                }
            }
        }
        Ok(())
    }

    /// Rates the ended games not rated yet (every instance runs this each second), each on its
    /// own: a game that cannot be rated is skipped and the next one rated.
    pub async fn sweep(&self) -> Result<(), ApiError> {
        for id in self.repo.unrated_games(SWEEP_LIMIT, now_ms()).await? {
            self.rate(&id).await?;
        }
        Ok(())
    }

    /// The rated games that could not be rated and are still not, the oldest failure first
    /// (for moderators).
    pub async fn failures(&self) -> Result<Vec<FailureRow>, ApiError> {
        Ok(self.repo.read().failures(FAILURES_SHOWN).await?)
    }

    /// The second player's advantage per scoring mode (largest, product): measured on the rated
    /// games once a mode has [`MEASURED_AFTER`] games' worth of them (as [`weigh_games`] counts),
    /// else [`SECOND_PLAYER_ADVANTAGE`]. Read from the database at most every
    /// [`ADVANTAGE_REFRESH_MS`].
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
            match self.repo.first_player_results(scoring).await {
                Ok(games) => {
                    let games = weigh_games(&games);
                    let worth: f64 = games.iter().map(|g| g.2).sum();
                    if worth >= MEASURED_AFTER as f64
                        && let Some(a) = estimate_advantage(&games)
                    {
                        values[i] = a;
                    }
                }
                Err(e) => tracing::warn!("cannot measure the second player's advantage: {e}"),
            }
        }
        if let Ok(mut cached) = self.advantage.lock() {
            *cached = Some((now, values));
        }
        values
    }
}
