//! Fair play (issue 51): while a rated game is played, no engine help about it reaches anyone.
//! The analysis, the game analysis, hints, engine games set up from a position and moves in
//! engine games (where the engine's reply would be its help) ask [`FairPlay::check`] first, which refuses (`403 live_game_position`) a position standing in
//! any live rated game, its images under the board's symmetries, and every position one move
//! after it ([`model::fair_play`](crate::model::fair_play)).
//!
//! The positions are kept in the database by the game rows' writer, in the transaction of each
//! change of a rated game, so an instance refuses a position from the moment another instance
//! acknowledged the move that made it, and lets it go when the game ends.

use crate::error::{ApiError, ErrorCode};
use crate::model::fair_play;
use crate::store::fair_play::FairPlayRepo;
use mabula::Position;

/// The fair play service of one instance.
pub struct FairPlay {
    /// Its repository (read only: the game rows' writer keeps the positions).
    repo: FairPlayRepo,
}

impl FairPlay {
    /// The service over its repository.
    pub fn new(repo: FairPlayRepo) -> FairPlay {
        FairPlay { repo }
    }

    /// Refuses `positions` (one, or every position of a game) if a live rated game keeps any of
    /// them from the engine.
    pub async fn check<'a>(
        &self,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Result<(), ApiError> {
        if self.repo.any_kept(&fair_play::keys(positions)).await? {
            return Err(ApiError::new(
                ErrorCode::LiveGamePosition,
                "a rated game is being played in this position or one move from it: the engine \
                 looks at it once that game is over",
            ));
        }
        Ok(())
    }
}
