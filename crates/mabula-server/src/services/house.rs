//! House bots (issue 38, `mabula serve --house-bots 2,5,8,10`): built-in engine accounts
//! `house-level-N`, bots, each with a real-time seek open to all at [`HOUSE_CLOCK`] in both
//! scoring modes, and answering the challenges made to them. Every instance runs the same job
//! each second and the database makes each step happen once: a house seek's id is made of the
//! bot, the scoring and the rating it shows (a second insert is refused, and a seek whose rating
//! changed is replaced by one with the new rating), a challenge is taken by one
//! `DELETE … RETURNING`. Their games are
//! engine games whose engine side is the house bot, so the moves are claimed in the database
//! and computed exactly once (`services::games::engine_moves`). They are rated like everyone,
//! so their ratings show the levels' strength.

use crate::auth::Session;
use crate::error::ApiError;
use crate::model::TimeControl;
use crate::services::accounts::Accounts;
use crate::services::lobby::Lobby;
use crate::services::now_ms;
use crate::services::tokens::Tokens;
use crate::store::accounts::AccountRow;
use mabula::Scoring;
use std::sync::Arc;

/// The clock of the house bots' seeks: 3 minutes and 2 seconds a move.
pub const HOUSE_CLOCK: TimeControl = TimeControl::Clock {
    initial_s: 180,
    increment_s: 2,
};

/// The house bots of this server.
pub struct HouseBots {
    /// The accounts service: the house bots' accounts and signs of life.
    accounts: Arc<Accounts>,
    lobby: Arc<Lobby>,
    /// The house bots' levels.
    tokens: Arc<Tokens>,
    levels: Vec<u8>,
}

/// The account name of the house bot of `level`.
pub fn house_name(level: u8) -> String {
    format!("house-level-{level}")
}

impl HouseBots {
    /// The house bots of `levels` (1 to 10; others are dropped).
    pub fn new(
        accounts: Arc<Accounts>,
        lobby: Arc<Lobby>,
        tokens: Arc<Tokens>,
        levels: &[u8],
    ) -> HouseBots {
        let mut levels: Vec<u8> = levels
            .iter()
            .copied()
            .filter(|l| (1..=10).contains(l))
            .collect();
        levels.sort_unstable();
        levels.dedup();
        HouseBots {
            accounts,
            lobby,
            tokens,
            levels,
        }
    }

    /// Whether there are any.
    pub fn any(&self) -> bool {
        !self.levels.is_empty()
    }

    /// Makes sure the accounts exist and are house bots of their levels.
    pub async fn ensure(&self) -> Result<(), ApiError> {
        for &level in &self.levels {
            let name = house_name(level);
            // No password logs in: the hash is no PHC string.
            let account = AccountRow {
                key: name.clone(),
                name: name.clone(),
                password_hash: "house bot: no log-in".into(),
                created_at: now_ms(),
            };
            self.accounts.create_unless_taken(&account).await?;
            self.tokens.make_house_bot(&name, level).await?;
        }
        Ok(())
    }

    /// The job of each second: each house bot's seeks open and kept alive, the challenges to
    /// it accepted.
    pub async fn tick(&self) -> Result<(), ApiError> {
        for &level in &self.levels {
            let key = house_name(level);
            // A sign of life while an instance keeps it (before its seeks, so that whoever sees
            // them sees it online).
            let now = now_ms();
            self.accounts.touch(&key, now, now - 20_000).await?;
            for scoring in [Scoring::Largest, Scoring::Product] {
                let prefix = format!("house-{level}-{}", scoring.name());
                self.lobby
                    .open_house_seek(&key, &prefix, scoring, HOUSE_CLOCK)
                    .await?;
            }
            let session = Session {
                id_hash: [0; 32],
                key: key.clone(),
                name: key.clone(),
                csrf: String::new(),
                bot: true,
                grant: None,
            };
            for seek in self.lobby.own_seek_rows(now_ms(), &key).await? {
                if seek.target.as_deref() == Some(key.as_str()) {
                    // Another instance may take it first: then it is gone here.
                    if let Err(e) = self.lobby.accept_seek(&session, &seek.id).await {
                        tracing::debug!("house bot {key}: challenge {}: {}", seek.id, e.message);
                    }
                }
            }
        }
        Ok(())
    }
}
