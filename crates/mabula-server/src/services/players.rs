//! What the site shows of a player: the account behind a name, ratings and their history, the
//! tally of results, pages of games, all finished games as one record file, and the second
//! player's advantage. Only reads: nothing here changes what is stored or what is in memory.

use super::games::record_text;
use super::ratings::Ratings;
use crate::analysis::Analyst;
use crate::clock::now_ms;
use crate::error::{ApiError, ErrorCode};
use crate::store::Store;
use crate::store::accounts::AccountReads;
use crate::store::players::{HistoryFilter, HistoryGame, PlayersRepo, PlayingRow};
use crate::store::quotas::Quotas;
use mabula::{Color, GameResult, Scoring};
use mabula_api::accounts::{PlayingClock, PlayingGame, PlayingOpponent};
use mabula_api::players::{PlayerGame, RatingPoint, RatingView, Record3, ResultsView};
use std::sync::Arc;

/// The most games in one record file.
const RECORDS_LIMIT: u32 = 200;

/// The most games in one export of an account's data (the newest).
pub const EXPORT_GAMES_LIMIT: u32 = 2000;

/// Exports one account may ask for in an hour: each reads all its games.
const EXPORTS_PER_HOUR: u32 = 5;

/// An account as the players' pages show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The name in lower case.
    pub key: String,
    /// The name as written.
    pub name: String,
    /// When it was made (ms).
    pub created_at: i64,
}

/// A game of an export: as the history lists it, its moves and its record.
pub struct ExportedGame {
    /// The game as the history lists it.
    pub game: PlayerGame,
    /// Its moves, in order.
    pub moves: Vec<String>,
    /// Its record.
    pub record: String,
}

/// The players' pages.
pub struct Players {
    /// The game rows (records and exports read the games).
    store: Arc<Store>,
    /// Its repository (read only).
    repo: PlayersRepo,
    /// The accounts, read.
    accounts: AccountReads,
    /// Exports per account and hour.
    exports: Quotas,
    ratings: Arc<Ratings>,
    analyst: Arc<Analyst>,
}

/// What the players' pages read: their repository, the accounts, and the quota of exports.
pub struct PlayersRepos {
    /// Its repository.
    pub players: PlayersRepo,
    /// The accounts' read handle.
    pub accounts: AccountReads,
    /// Exports per account and hour (`x:`).
    pub exports: Quotas,
}

impl Players {
    /// The players' pages, with the advantage `ratings` uses and the deal estimates `analyst`
    /// knows.
    pub fn new(
        store: Arc<Store>,
        repos: PlayersRepos,
        ratings: Arc<Ratings>,
        analyst: Arc<Analyst>,
    ) -> Players {
        Players {
            store,
            repo: repos.players,
            accounts: repos.accounts,
            exports: repos.exports,
            ratings,
            analyst,
        }
    }

    /// The account named `name` (any case).
    pub async fn account(&self, name: &str) -> Result<Account, ApiError> {
        let a = self
            .accounts
            .account(&super::accounts::lookup_key(name)?)
            .await?
            .ok_or_else(|| player_not_found(name))?;
        Ok(Account {
            key: a.key,
            name: a.name,
            created_at: a.created_at,
        })
    }

    /// The ratings of account `key`.
    pub async fn ratings(&self, key: &str) -> Result<Vec<RatingView>, ApiError> {
        self.ratings.ratings_of(key).await
    }

    /// The results of account `key`, as first and as second player.
    pub async fn tally(&self, key: &str) -> Result<ResultsView, ApiError> {
        let t = self.repo.tally(key).await?;
        let three = |v: [u32; 3]| Record3 {
            wins: v[0],
            draws: v[1],
            losses: v[2],
        };
        Ok(ResultsView {
            first: three(t.first),
            second: three(t.second),
        })
    }

    /// The rating history of account `key`.
    pub async fn history(&self, key: &str) -> Result<Vec<RatingPoint>, ApiError> {
        Ok(self
            .ratings
            .history_of(key)
            .await?
            .into_iter()
            .map(|p| RatingPoint {
                scoring: p.scoring.name().to_string(),
                speed: p.speed,
                at: p.at,
                rating: p.rating,
                deviation: p.deviation,
            })
            .collect())
    }

    /// Up to `limit` games of `account` from `offset` on, newest first, with only the results
    /// `result` (`win`, `draw` or `loss` from the account's side) and the scoring mode `scoring`
    /// if given.
    pub async fn games(
        &self,
        account: &Account,
        result: Option<String>,
        scoring: Option<Scoring>,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<PlayerGame>, ApiError> {
        let filter = HistoryFilter { result, scoring };
        Ok(self
            .rows(&account.key, &filter, offset, limit)
            .await?
            .into_iter()
            .map(|g| player_game(g, &account.name))
            .collect())
    }

    /// Up to `limit` games of account `key` from `offset` on, newest first, as stored.
    async fn rows(
        &self,
        key: &str,
        filter: &HistoryFilter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<HistoryGame>, ApiError> {
        Ok(self.repo.player_games(key, filter, offset, limit).await?)
    }

    /// The games account `key` is playing, as every device of theirs lists them: their move
    /// first.
    pub async fn playing(&self, key: &str) -> Result<Vec<PlayingGame>, ApiError> {
        let now = now_ms();
        let rows = self.repo.playing(key).await?;
        Ok(rows.into_iter().map(|r| playing_game(r, now)).collect())
    }

    /// The games of account `key` where it is their turn.
    pub async fn my_turn(&self, key: &str) -> Result<Vec<String>, ApiError> {
        Ok(self.repo.my_turn(key).await?)
    }

    /// The records of account `key`'s latest finished games (aborted ones left out), one after
    /// another, read from the store (the games in memory are left alone).
    pub async fn records(&self, key: &str) -> Result<String, ApiError> {
        let rows = self
            .rows(key, &HistoryFilter::default(), 0, RECORDS_LIMIT)
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

    /// The newest games of `account` (at most [`EXPORT_GAMES_LIMIT`]) with their moves and
    /// records, read from the store, for the export of the account's data; and whether there
    /// were more. Refused past [`EXPORTS_PER_HOUR`] exports an hour of the account.
    pub async fn export_games(
        &self,
        account: &Account,
    ) -> Result<(Vec<ExportedGame>, bool), ApiError> {
        let key = account.key.as_str();
        let now = super::now_ms();
        let hour = 60 * 60 * 1000;
        let exports = &self.exports;
        if !exports.take(key, now, now - hour, EXPORTS_PER_HOUR).await? {
            let oldest = exports.oldest(key, now - hour).await?.unwrap_or(now);
            let mut e = ApiError::new(
                ErrorCode::RateLimited,
                format!("at most {EXPORTS_PER_HOUR} exports an hour: try again later"),
            );
            e.retry_after = Some(((oldest + hour - now + 999) / 1000).max(1) as u64);
            return Err(e);
        }
        let mut rows = self
            .rows(key, &HistoryFilter::default(), 0, EXPORT_GAMES_LIMIT + 1)
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
                game: player_game(game, &account.name),
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
        let games = self.ratings.first_player_results(scoring).await?;
        Ok(crate::model::rating::weigh_games(&games))
    }

    /// The second player's advantages in use (largest, product).
    pub async fn advantages(&self) -> [f64; 2] {
        self.ratings.advantages().await
    }
}

/// Game `g` as the history of the player named `name` lists it.
pub(crate) fn player_game(g: HistoryGame, name: &str) -> PlayerGame {
    let side = if g.names[0].as_deref() == Some(name) {
        Some(Color::White)
    } else if g.names[1].as_deref() == Some(name) {
        Some(Color::Black)
    } else {
        None
    };
    let outcome = match (g.result, side) {
        (GameResult::Draw, _) => Some("draw"),
        (GameResult::WhiteWins, Some(Color::White))
        | (GameResult::BlackWins, Some(Color::Black)) => Some("win"),
        (GameResult::WhiteWins | GameResult::BlackWins, Some(_)) => Some("loss"),
        _ => None,
    };
    let [white, black] = g.names;
    // The scores on the board: the position is stored whole, so nothing is replayed.
    let scores = g
        .position
        .parse::<mabula::Position>()
        .map(|p| p.scores(g.scoring))
        .map_or([0, 0], |s| [s.white, s.black]);
    let rating_diff = match side {
        Some(Color::White) => g.diffs[0],
        Some(Color::Black) => g.diffs[1],
        None => None,
    };
    PlayerGame {
        id: g.id,
        scoring: g.scoring.name().to_string(),
        white,
        black,
        side,
        result: g.result.token().to_string(),
        outcome: outcome.map(String::from),
        end_reason: g.end_reason,
        rated: g.rated,
        control: g.control,
        move_count: g.move_count,
        playing: g.playing,
        created_at: g.created_at,
        white_rating: g.ratings[0],
        black_rating: g.ratings[1],
        rating_diff,
        scores,
    }
}

/// No account has this name.
pub(crate) fn player_not_found(name: &str) -> ApiError {
    ApiError::new(
        ErrorCode::PlayerNotFound,
        format!("there is no player named '{name}'"),
    )
}

/// A game being played as its player sees it at `now`: whether it is their move, and their time
/// left (until their deadline on their move, else what they will have when it comes).
fn playing_game(r: PlayingRow, now: i64) -> PlayingGame {
    let your_turn = r.to_move == Some(r.color);
    let mine = r.clocks[usize::from(r.color == Color::Black)];
    let clock = r.control.map(|control| PlayingClock {
        label: control.label(),
        speed: control.speed(),
        left_ms: match r.deadline_at {
            Some(at) if your_turn => (at - now).max(0),
            _ => mine.unwrap_or_else(|| control.initial_ms()),
        },
    });
    PlayingGame {
        id: r.id,
        color: r.color,
        opponent: PlayingOpponent {
            name: r.opponent.0,
            rating: r.opponent.1,
            provisional: r.opponent.2,
            engine_level: r.engine_level,
        },
        your_turn,
        clock,
        tournament: r.tournament,
        position: r.position,
        scoring: r.scoring.name().to_string(),
        rated: r.rated,
        move_count: r.move_count,
    }
}
