//! Following players and who is online. A follow is a row of the store; the followed players'
//! games being played and their signs of life are read from the store when asked, so every
//! instance answers the same.
//!
//! A sign of life of an account is noted in `accounts.last_seen`, at most once a minute: by
//! any request with its session ([`Accounts::session`](super::accounts::Accounts::session))
//! and, while its lobby socket is open, by that socket ([`Follows::seen`]). An account is online
//! when its last sign of life is at most [`ONLINE_WINDOW_MS`] old.

use super::accounts::{Accounts, SEEN_EVERY_MS, lookup_key};
use super::now_ms;
use super::players::player_not_found;
use crate::auth::Session;
use crate::error::{ApiError, ErrorCode};
use crate::store::accounts::AccountReads;
use crate::store::follows::FollowsRepo;
use mabula_api::follows::{Followed, FollowingList, LiveGame, OnlineCount};
use std::sync::Arc;

/// How recent a sign of life makes an account online (ms): three times the period at which
/// signs of life are noted, so an open lobby socket never blinks out.
pub const ONLINE_WINDOW_MS: i64 = 3 * SEEN_EVERY_MS;

/// The most players one account may follow: each is read with every look at the list.
pub const FOLLOWS_PER_ACCOUNT: u32 = 500;

/// Follows and signs of life.
pub struct Follows {
    /// Its repository.
    repo: FollowsRepo,
    /// The accounts, read.
    accounts: AccountReads,
    /// The accounts service, which notes signs of life.
    signs_of_life: Arc<Accounts>,
}

impl Follows {
    /// Follows over its repository; signs of life noted by `signs_of_life`.
    pub fn new(repo: FollowsRepo, accounts: AccountReads, signs_of_life: Arc<Accounts>) -> Follows {
        Follows {
            repo,
            accounts,
            signs_of_life,
        }
    }

    /// The player of `session` follows the player named `name`.
    pub async fn follow(&self, session: &Session, name: &str) -> Result<(), ApiError> {
        let key = lookup_key(name)?;
        if key == session.key {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "you cannot follow yourself",
            ));
        }
        self.accounts
            .account(&key)
            .await?
            .ok_or_else(|| player_not_found(name))?;
        if !self
            .repo
            .follow(&session.key, &key, now_ms(), FOLLOWS_PER_ACCOUNT)
            .await?
        {
            return Err(ApiError::new(
                ErrorCode::InvalidSettings,
                format!(
                    "one account follows at most {FOLLOWS_PER_ACCOUNT} players: unfollow one first"
                ),
            ));
        }
        Ok(())
    }

    /// The player of `session` no longer follows the player named `name` (whether they did or
    /// not).
    pub async fn unfollow(&self, session: &Session, name: &str) -> Result<(), ApiError> {
        let key = lookup_key(name)?;
        Ok(self.repo.unfollow(&session.key, &key).await?)
    }

    /// The players the player of `session` follows, whether they are online, and their games
    /// being played: those playing first, then those online, then by name.
    pub async fn following(&self, session: &Session) -> Result<FollowingList, ApiError> {
        let db = &self.repo;
        let rows = db.following(&session.key).await?;
        let games = if rows.is_empty() {
            Vec::new()
        } else {
            db.followed_games(&session.key).await?
        };
        let since = now_ms() - ONLINE_WINDOW_MS;
        let mut players: Vec<Followed> = rows
            .into_iter()
            .map(|f| Followed {
                playing: games
                    .iter()
                    .filter(|g| g.accounts.iter().any(|a| a.as_deref() == Some(&f.key)))
                    .map(|g| LiveGame {
                        id: g.id.clone(),
                        white: g.names[0].clone(),
                        black: g.names[1].clone(),
                        label: g.control.map(|c| c.label()),
                        move_count: g.move_count,
                    })
                    .collect(),
                online: f.last_seen >= since,
                name: f.name,
            })
            .collect();
        players.sort_by_key(|p| (p.playing.is_empty(), !p.online));
        Ok(FollowingList { players })
    }

    /// How many accounts are online, on any instance.
    pub async fn online(&self) -> Result<OnlineCount, ApiError> {
        let count = self.repo.online_count(now_ms() - ONLINE_WINDOW_MS).await?;
        Ok(OnlineCount {
            count,
            window_s: (ONLINE_WINDOW_MS / 1000) as u64,
        })
    }

    /// Notes a sign of life of account `key` (its lobby socket is open), at most once a minute.
    pub async fn seen(&self, key: &str) -> Result<(), ApiError> {
        let now = now_ms();
        self.signs_of_life
            .touch(key, now, now - SEEN_EVERY_MS)
            .await
    }
}
