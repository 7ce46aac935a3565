//! What the site shows of a player: the account behind a name, ratings and their history, the
//! tally of results, pages of games, all finished games as one record file, and the second
//! player's advantage. Only reads: nothing here changes what is stored or what is in memory.

use super::games::record_text;
use super::ratings::Ratings;
use crate::analysis::Analyst;
use crate::error::{ApiError, ErrorCode};
use crate::store::Store;
use crate::store::players::{AccountRow, HistoryFilter, HistoryGame, HistoryRow, RatingRow, Tally};
use mabula::Scoring;
use std::sync::Arc;

/// The most games in one record file.
const RECORDS_LIMIT: u32 = 200;

/// The most games in one export of an account's data (the newest).
pub const EXPORT_GAMES_LIMIT: u32 = 2000;

/// Exports one account may ask for in an hour: each reads all its games.
const EXPORTS_PER_HOUR: u32 = 5;

/// A game of an export: as the history lists it, its moves and its record.
pub struct ExportedGame {
    /// The game as the history lists it.
    pub game: HistoryGame,
    /// Its moves, in order.
    pub moves: Vec<String>,
    /// Its record.
    pub record: String,
}

/// The players' pages.
pub struct Players {
    store: Arc<Store>,
    ratings: Arc<Ratings>,
    analyst: Arc<Analyst>,
}

impl Players {
    /// The players' pages, with the advantage `ratings` uses and the deal estimates `analyst`
    /// knows.
    pub fn new(store: Arc<Store>, ratings: Arc<Ratings>, analyst: Arc<Analyst>) -> Players {
        Players {
            store,
            ratings,
            analyst,
        }
    }

    /// The account named `name` (any case).
    pub async fn account(&self, name: &str) -> Result<AccountRow, ApiError> {
        self.store
            .db()
            .account(&super::accounts::lookup_key(name)?)
            .await?
            .ok_or_else(|| player_not_found(name))
    }

    /// The ratings of account `key`.
    pub async fn ratings(&self, key: &str) -> Result<Vec<RatingRow>, ApiError> {
        Ok(self.store.db().ratings(key).await?)
    }

    /// The results of account `key`, as first and as second player.
    pub async fn tally(&self, key: &str) -> Result<Tally, ApiError> {
        Ok(self.store.db().tally(key).await?)
    }

    /// The rating history of account `key`.
    pub async fn history(&self, key: &str) -> Result<Vec<HistoryRow>, ApiError> {
        Ok(self.store.db().rating_history(key).await?)
    }

    /// Up to `limit` games of account `key` from `offset` on, newest first.
    pub async fn games(
        &self,
        key: &str,
        filter: &HistoryFilter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<HistoryGame>, ApiError> {
        Ok(self
            .store
            .db()
            .player_games(key, filter, offset, limit)
            .await?)
    }

    /// The games of account `key` where it is their turn.
    pub async fn my_turn(&self, key: &str) -> Result<Vec<String>, ApiError> {
        Ok(self.store.db().my_turn(key).await?)
    }

    /// The records of account `key`'s latest finished games (aborted ones left out), one after
    /// another, read from the store (the games in memory are left alone).
    pub async fn records(&self, key: &str) -> Result<String, ApiError> {
        let rows = self
            .games(key, &HistoryFilter::default(), 0, RECORDS_LIMIT)
            .await?;
        let mut text = String::new();
        for g in rows.iter().filter(|g| !g.playing) {
            if g.end_reason.as_deref() == Some("aborted") {
                continue;
            }
            let Some(stored) = self.store.load(&g.id).await? else {
                continue;
            };
            let live = stored.into_live().map_err(ApiError::internal)?;
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&record_text(&live, &self.analyst));
        }
        Ok(text)
    }

    /// The newest games of account `key` (at most [`EXPORT_GAMES_LIMIT`]) with their moves
    /// and records, read from the store, for the export of the account's data; and whether
    /// there were more. Refused past [`EXPORTS_PER_HOUR`] exports an hour of the account.
    pub async fn export_games(&self, key: &str) -> Result<(Vec<ExportedGame>, bool), ApiError> {
        let now = super::now_ms();
        let hour = 60 * 60 * 1000;
        let quota = format!("x:{key}");
        let db = self.store.db();
        if !db
            .take_quota(&quota, now, now - hour, EXPORTS_PER_HOUR)
            .await?
        {
            let oldest = db.oldest_quota(&quota, now - hour).await?.unwrap_or(now);
            let mut e = ApiError::new(
                ErrorCode::RateLimited,
                format!("at most {EXPORTS_PER_HOUR} exports an hour: try again later"),
            );
            e.retry_after = Some(((oldest + hour - now + 999) / 1000).max(1) as u64);
            return Err(e);
        }
        let mut rows = self
            .games(key, &HistoryFilter::default(), 0, EXPORT_GAMES_LIMIT + 1)
            .await?;
        let truncated = rows.len() > EXPORT_GAMES_LIMIT as usize;
        rows.truncate(EXPORT_GAMES_LIMIT as usize);
        let mut games = Vec::with_capacity(rows.len());
        for game in rows {
            let Some(stored) = self.store.load(&game.id).await? else {
                continue;
            };
            let moves = stored.moves.iter().map(|m| m.to_string()).collect();
            let live = stored.into_live().map_err(ApiError::internal)?;
            games.push(ExportedGame {
                record: record_text(&live, &self.analyst),
                moves,
                game,
            });
        }
        Ok((games, truncated))
    }

    /// The rated games of `scoring` that the advantage is measured on, as (the first player's
    /// rating minus the second's, the first player's score, the game's weight): see
    /// [`weigh_games`](crate::model::rating::weigh_games).
    pub async fn first_player_results(
        &self,
        scoring: Scoring,
    ) -> Result<Vec<(f64, f64, f64)>, ApiError> {
        let games = self.store.db().first_player_results(scoring).await?;
        Ok(crate::model::rating::weigh_games(&games))
    }

    /// The second player's advantages in use (largest, product).
    pub async fn advantages(&self) -> [f64; 2] {
        self.ratings.advantages().await
    }
}

/// No account has this name.
pub(crate) fn player_not_found(name: &str) -> ApiError {
    ApiError::new(
        ErrorCode::PlayerNotFound,
        format!("there is no player named '{name}'"),
    )
}
