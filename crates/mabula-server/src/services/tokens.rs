//! Personal API tokens and bot accounts (issue 38): an account makes tokens with scopes, lists
//! and revokes them; a request with a token (`Authorization: Bearer mbp_…`) acts as its account
//! for what the token's scopes allow ([`may`]), with no CSRF token. The token is looked up in the
//! database on every request, so a revoked token is refused at once on every instance. An
//! account with no games may become a bot for ever.

use super::cluster::Cluster;
use super::ratings::Ratings;
use crate::auth::{self, Grant, Session};
use crate::error::{ApiError, ErrorCode};
use crate::services::now_ms;
use crate::store::StoreError;
use crate::store::tokens::{TokensRepo, Upgrade};
use mabula_api::bots::{BotList, BotView, CreateToken, SCOPES, TokenCreated, TokenList, TokenView};
use std::sync::Arc;

/// The most live tokens one account may have.
pub const MAX_TOKENS: u32 = 20;

/// A token's last use is noted at most this often (ms).
const USED_EVERY_MS: i64 = 60_000;

/// Tokens and bot accounts.
pub struct Tokens {
    /// Its repository.
    repo: TokensRepo,
    /// The bots' ratings, for their list.
    ratings: Arc<Ratings>,
    /// Told when a token is revoked (its streams end on every instance).
    cluster: Arc<Cluster>,
}

impl Tokens {
    /// The service over its repository, with the ratings of the bots it lists.
    pub fn new(repo: TokensRepo, ratings: Arc<Ratings>, cluster: Arc<Cluster>) -> Tokens {
        Tokens {
            repo,
            ratings,
            cluster,
        }
    }

    /// The level of house bot `key`, if it is one.
    pub async fn house_level(&self, key: &str) -> Result<Option<u8>, ApiError> {
        Ok(self.repo.house_level(key).await?)
    }

    /// Makes account `key` (it must exist) a house bot of `level`.
    pub async fn make_house_bot(&self, key: &str, level: u8) -> Result<(), ApiError> {
        Ok(self.repo.set_house_level(key, i64::from(level)).await?)
    }

    /// The bots: online first (heard from in the last minute), then by rating.
    pub async fn bot_list(&self) -> Result<BotList, ApiError> {
        let rows = self.repo.bots().await?;
        let now = crate::services::now_ms();
        let mut bots = Vec::new();
        for r in rows {
            let ratings: Vec<mabula_api::players::RatingView> = self
                .ratings
                .ratings_of(&r.key)
                .await?
                .into_iter()
                .filter(|r| r.speed == crate::model::Speed::Realtime)
                .collect();
            bots.push(BotView {
                name: r.name,
                ratings,
                online: r.last_seen >= now - 60_000,
                level: r.level.and_then(|l| u8::try_from(l).ok()),
            });
        }
        let best = |b: &BotView| b.ratings.iter().map(|r| r.rating).max().unwrap_or(0);
        bots.sort_by(|a, b| b.online.cmp(&a.online).then(best(b).cmp(&best(a))));
        Ok(BotList { bots })
    }

    /// Makes a token for the session's account.
    pub async fn create(
        &self,
        session: &Session,
        req: &CreateToken,
    ) -> Result<TokenCreated, ApiError> {
        let description = req.description.trim();
        let chars = description.chars().count();
        if chars == 0 || chars > 60 || description.chars().any(char::is_control) {
            return Err(ApiError::new(
                ErrorCode::InvalidToken,
                "a token's description has 1 to 60 characters, none of them control characters",
            ));
        }
        let mut scopes: Vec<&str> = Vec::new();
        for scope in &req.scopes {
            let Some(known) = SCOPES.iter().find(|s| **s == scope.as_str()) else {
                return Err(ApiError::new(
                    ErrorCode::InvalidToken,
                    format!(
                        "unknown scope {scope:?}: the scopes are {}",
                        SCOPES.join(", ")
                    ),
                ));
            };
            if !scopes.contains(known) {
                scopes.push(known);
            }
        }
        if scopes.is_empty() {
            return Err(ApiError::new(
                ErrorCode::InvalidToken,
                format!("a token needs at least one scope of {}", SCOPES.join(", ")),
            ));
        }
        let secret = auth::new_personal_token();
        let id = auth::new_secret(8);
        let stored = self
            .repo
            .insert_token(
                &id,
                &session.key,
                &auth::hash(&secret),
                description,
                &scopes.join(" "),
                now_ms(),
                MAX_TOKENS,
            )
            .await?;
        if !stored {
            return Err(ApiError::new(
                ErrorCode::TooManyTokens,
                format!("an account has at most {MAX_TOKENS} tokens: revoke one first"),
            ));
        }
        Ok(TokenCreated { id, token: secret })
    }

    /// The session's account's tokens (never their secrets).
    pub async fn list(&self, session: &Session) -> Result<TokenList, ApiError> {
        let rows = self.repo.tokens_of(&session.key).await?;
        Ok(TokenList {
            tokens: rows
                .into_iter()
                .map(|r| TokenView {
                    id: r.id,
                    description: r.description,
                    scopes: r.scopes.split_whitespace().map(str::to_string).collect(),
                    created_at: r.created_at,
                    used_at: r.used_at,
                })
                .collect(),
        })
    }

    /// Revokes token `id` of the session's account.
    pub async fn revoke(&self, session: &Session, id: &str) -> Result<(), ApiError> {
        if self.repo.delete_token(&session.key, id).await? {
            self.cluster.signed_out(&session.key).await;
            Ok(())
        } else {
            Err(ApiError::new(
                ErrorCode::NotFound,
                "the account has no token of this id",
            ))
        }
    }

    /// The session a personal token stands for, or `None` when no live token has this secret
    /// (checked in the database each time). Notes its use, to the minute.
    pub async fn authenticate(&self, secret: &str) -> Result<Option<Session>, ApiError> {
        let hash = auth::hash(secret);
        let Some(owner) = self.repo.token_owner(&hash).await? else {
            return Ok(None);
        };
        let now = now_ms();
        if owner.used_at.is_none_or(|t| t < now - USED_EVERY_MS) {
            let minute = now - now.rem_euclid(USED_EVERY_MS);
            if let Err(e) = self
                .repo
                .touch_token(&owner.id, &owner.key, minute, now - USED_EVERY_MS)
                .await
            {
                tracing::debug!("cannot note the use of a token: {e}");
            }
        }
        Ok(Some(Session {
            id_hash: hash,
            key: owner.key,
            name: owner.name,
            csrf: String::new(),
            bot: owner.bot,
            grant: Some(Grant {
                id: owner.id,
                scopes: owner
                    .scopes
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            }),
        }))
    }

    /// Whether the personal token whose secret hashes to `hash` still stands (not revoked, its
    /// account not closed nor deleted).
    pub async fn stands(&self, hash: &[u8; 32]) -> Result<bool, StoreError> {
        Ok(self.repo.token_owner(hash).await?.is_some())
    }

    /// Makes the token's account a bot, for ever, if it has played no game.
    pub async fn upgrade(&self, session: &Session) -> Result<(), ApiError> {
        let allowed = session.grant.as_ref().is_some_and(|g| g.has("bot:play"));
        if !allowed {
            return Err(ApiError::new(
                ErrorCode::TokenNotAllowed,
                "upgrading to a bot takes a personal token with the scope bot:play",
            ));
        }
        match self.repo.upgrade_to_bot(&session.key).await? {
            Upgrade::Done | Upgrade::Already => Ok(()),
            Upgrade::HasGames => Err(ApiError::new(
                ErrorCode::AccountHasGames,
                "this account has played games: only a new account can become a bot",
            )),
        }
    }

    /// Whether account `key` is a bot.
    pub async fn is_bot(&self, key: &str) -> Result<bool, ApiError> {
        Ok(self.repo.is_bot(key).await?)
    }
}

/// Whether a request `method path` may be made with a personal token of `grant`: the pages of
/// the session cookie (the account's password, sessions, tokens, deletion, export) never; the
/// bot API with `bot:play` (and its game endpoints with `board:play`); the lobby's writes with
/// `challenge:write` or `bot:play`; a game's actions (not its chat) with `board:play` or
/// `bot:play`; other
/// reads with any scope; other writes (chat, follows, reports, moderation) never.
pub fn may(grant: &Grant, write: bool, path: &str) -> bool {
    let play = grant.has("bot:play");
    if path == "/api/session" {
        return !write;
    }
    if path == "/api/account"
        || path.starts_with("/api/account/")
        || path.starts_with("/api/sessions")
        || path == "/api/accounts"
    {
        return false;
    }
    if path == "/api/bot/account/upgrade" {
        return play;
    }
    if path.starts_with("/api/bot/game/") {
        return play || grant.has("board:play");
    }
    if path == "/api/stream/event" || path == "/api/bots" {
        return true;
    }
    if path == "/api/seeks" || path.starts_with("/api/seeks/") {
        return !write || play || grant.has("challenge:write");
    }
    if path.starts_with("/api/games/") {
        // A game's chat is a person's: no token writes it.
        if write && path.ends_with("/chat") {
            return false;
        }
        return !write || play || grant.has("board:play");
    }
    !write
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant(scopes: &[&str]) -> Grant {
        Grant {
            id: "x".into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn tokens_never_reach_the_cookie_pages() {
        let all = grant(&SCOPES);
        for path in [
            "/api/account/tokens",
            "/api/account/password",
            "/api/account/sessions",
            "/api/account",
            "/api/sessions",
            "/api/account/export",
        ] {
            assert!(!may(&all, true, path), "{path}");
            assert!(!may(&all, false, path), "{path}");
        }
        assert!(may(&all, false, "/api/session"));
        assert!(!may(&all, true, "/api/session"));
    }

    #[test]
    fn scopes_open_their_endpoints_only() {
        let challenge = grant(&["challenge:write"]);
        let board = grant(&["board:play"]);
        let bot = grant(&["bot:play"]);
        assert!(may(&challenge, true, "/api/seeks"));
        assert!(!may(&board, true, "/api/seeks/abc/accept"));
        assert!(may(&bot, true, "/api/seeks/abc/accept"));
        assert!(may(&board, true, "/api/bot/game/abc/move/a1"));
        assert!(!may(&challenge, true, "/api/bot/game/abc/move/a1"));
        assert!(may(&bot, true, "/api/bot/account/upgrade"));
        assert!(!may(&board, true, "/api/bot/account/upgrade"));
        assert!(may(&challenge, false, "/api/players/someone"));
        assert!(!may(&bot, true, "/api/follows/someone"));
        assert!(may(&bot, true, "/api/games/abc/move"));
        assert!(!may(&bot, true, "/api/games/abc/chat"));
        assert!(may(&bot, false, "/api/games/abc/chat"));
    }
}
