//! Blocks, reports and moderation: a player blocks another (no challenges, no chat from them in
//! games with the blocker), reports one to the moderators (a reason from a fixed list, counted
//! per reporter and hour in the store), and the moderators read the open reports with the chat
//! lines they name, resolve them, mute accounts (no chat, for a while or until unmuted), close
//! accounts (no log-in, sessions ended, seeks and challenges gone from every instance's lobby;
//! games kept) and open them again; they also see the rated games that could not be rated (from
//! the ratings service). `mabula admin` does the same from the command line with the store's
//! functions.

use crate::auth::Session;
use crate::error::{ApiError, ErrorCode};
use crate::services::chat::Chat;
use crate::services::chat::line_view;
use crate::services::cluster::Cluster;
use crate::services::players::player_not_found;
use crate::services::ratings::Ratings;
use crate::services::{accounts::lookup_key, now_ms};
use crate::store::accounts::{AccountFlags, AccountReads};
use crate::store::moderation::{ModerationRepo, ReportRow};
use mabula_api::social::{
    BlockList, ModerationStatus, REPORT_MAX_CHARS, ReportCreated, ReportQueue, ReportReason,
    ReportRequest, ReportView, UnratedGame, UnratedGames,
};
use std::sync::Arc;

/// Reports one account may make in an hour.
pub const REPORTS_PER_HOUR: u32 = 10;
/// The most players one account may block.
pub const MAX_BLOCKS: i64 = 1000;
/// The open reports a moderator's queue shows at once.
const QUEUE: u32 = 100;
/// The longest mute, in minutes (a year); longer is "until unmuted".
pub const MAX_MUTE_MINUTES: u32 = 525_600;

/// Blocks, reports and the moderators' work.
pub struct Moderation {
    /// Its repository.
    repo: ModerationRepo,
    /// The accounts, read (their flags).
    accounts: AccountReads,
    /// The chat: the lines reports name.
    chat: Arc<Chat>,
    /// The ratings: the games they could not rate.
    ratings: Arc<Ratings>,
    cluster: Arc<Cluster>,
}

fn refused(code: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::new(code, message)
}

impl Moderation {
    /// The service over its repository; closing an account tells the lobbies through
    /// `cluster`.
    pub fn new(
        repo: ModerationRepo,
        accounts: AccountReads,
        chat: Arc<Chat>,
        ratings: Arc<Ratings>,
        cluster: Arc<Cluster>,
    ) -> Moderation {
        Moderation {
            repo,
            accounts,
            chat,
            ratings,
            cluster,
        }
    }

    /// Whether account `blocker` blocks account `blocked` (a challenge between them is
    /// refused).
    pub async fn blocks_player(&self, blocker: &str, blocked: &str) -> Result<bool, ApiError> {
        Ok(self.repo.blocks_player(blocker, blocked).await?)
    }

    /// The account named `name` (its key and flags), or `player_not_found`.
    async fn account(&self, name: &str) -> Result<(String, AccountFlags), ApiError> {
        let key = lookup_key(name)?;
        let flags = self
            .accounts
            .account_flags(&key)
            .await?
            .ok_or_else(|| player_not_found(name))?;
        Ok((key, flags))
    }

    /// `session`'s account blocks `name`.
    pub async fn block(&self, session: &Session, name: &str) -> Result<(), ApiError> {
        let (key, _) = self.account(name).await?;
        if key == session.key {
            return Err(refused(ErrorCode::BadRequest, "you cannot block yourself"));
        }
        let db = &self.repo;
        if db.block_count(&session.key).await? >= MAX_BLOCKS {
            return Err(refused(
                ErrorCode::BadRequest,
                format!("at most {MAX_BLOCKS} players may be blocked: unblock one first"),
            ));
        }
        Ok(db.block(&session.key, &key, now_ms()).await?)
    }

    /// `session`'s account no longer blocks `name`.
    pub async fn unblock(&self, session: &Session, name: &str) -> Result<(), ApiError> {
        let (key, _) = self.account(name).await?;
        self.repo.unblock(&session.key, &key).await?;
        Ok(())
    }

    /// The players `session`'s account blocks.
    pub async fn blocks(&self, session: &Session) -> Result<BlockList, ApiError> {
        Ok(BlockList {
            players: self.repo.blocks(&session.key).await?,
        })
    }

    /// Reports a player to the moderators.
    pub async fn report(
        &self,
        session: &Session,
        req: ReportRequest,
    ) -> Result<ReportCreated, ApiError> {
        let (key, _) = self.account(&req.player).await?;
        if key == session.key {
            return Err(refused(
                ErrorCode::InvalidReport,
                "you cannot report yourself",
            ));
        }
        let text = req.text.trim().to_string();
        if text.chars().count() > REPORT_MAX_CHARS {
            return Err(refused(
                ErrorCode::InvalidReport,
                format!("a report's text has at most {REPORT_MAX_CHARS} characters"),
            ));
        }
        if !text.is_empty() {
            // A muted account still reports (it may be the one harassed), without words.
            self.refuse_muted(session, "you can report, without a text")
                .await?;
        }
        if text.chars().any(|c| c.is_control() && c != '\n') {
            return Err(refused(
                ErrorCode::InvalidReport,
                "a report's text has no control characters but line breaks",
            ));
        }
        let mut game = req.game.clone();
        if let Some(g) = &game
            && (g.is_empty() || g.len() > 32 || !g.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            return Err(refused(ErrorCode::InvalidReport, "this is not a game id"));
        }
        if let Some(id) = req.chat_line {
            let line = self.chat.line(id).await?;
            let Some(line) = line.filter(|l| l.author.as_deref() == Some(key.as_str())) else {
                return Err(refused(
                    ErrorCode::InvalidReport,
                    "this chat line is not one the reported player wrote",
                ));
            };
            if game.as_ref().is_some_and(|g| *g != line.game_id) {
                return Err(refused(
                    ErrorCode::InvalidReport,
                    "this chat line is of another game",
                ));
            }
            game = Some(line.game_id);
        }
        let now = now_ms();
        let row = ReportRow {
            id: 0,
            reporter: session.key.clone(),
            player: key,
            reason: req.reason.name().to_string(),
            text,
            game_id: game,
            chat_line: req.chat_line,
            created_at: now,
        };
        match self
            .repo
            .add_report(&row, now - 3_600_000, REPORTS_PER_HOUR)
            .await?
        {
            Some(id) => Ok(ReportCreated { id }),
            None => {
                let mut e = refused(
                    ErrorCode::RateLimited,
                    format!("at most {REPORTS_PER_HOUR} reports an hour: thank you, and wait"),
                );
                e.retry_after = Some(3600);
                Err(e)
            }
        }
    }

    /// The moderation flags of `session`'s account.
    pub async fn status(&self, session: &Session) -> Result<ModerationStatus, ApiError> {
        let flags = self.accounts.account_flags(&session.key).await?;
        let now = now_ms();
        Ok(ModerationStatus {
            moderator: flags.as_ref().is_some_and(|f| f.moderator),
            muted_until: flags.and_then(|f| f.muted_until).filter(|u| *u > now),
        })
    }

    /// Refuses a muted account (`403 muted`) what it may not write while muted, `what_it_may`
    /// saying what it may do instead.
    pub async fn refuse_muted(&self, session: &Session, what_it_may: &str) -> Result<(), ApiError> {
        let flags = self.accounts.account_flags(&session.key).await?;
        match flags.and_then(|f| f.muted_until).filter(|u| *u > now_ms()) {
            None => Ok(()),
            Some(i64::MAX) => Err(refused(
                ErrorCode::Muted,
                format!("a moderator muted you until they unmute you: {what_it_may}"),
            )),
            Some(until) => Err(refused(
                ErrorCode::Muted,
                format!(
                    "a moderator muted you for {} more minutes: {what_it_may}",
                    (until - now_ms()).max(0) / 60_000 + 1
                ),
            )),
        }
    }

    /// Refuses anyone but a moderator (also for the moderators' views other services answer,
    /// such as the accuracy flags).
    pub async fn moderator(&self, session: &Session) -> Result<(), ApiError> {
        let flags = self.accounts.account_flags(&session.key).await?;
        if flags.is_some_and(|f| f.moderator && f.closed_at.is_none()) {
            Ok(())
        } else {
            Err(refused(
                ErrorCode::NotModerator,
                "only moderators may do this",
            ))
        }
    }

    /// The open reports, oldest first, with the chat lines they name (moderators only).
    pub async fn queue(&self, session: &Session) -> Result<ReportQueue, ApiError> {
        self.moderator(session).await?;
        let now = now_ms();
        let mut reports = Vec::new();
        for r in self.repo.open_reports(QUEUE).await? {
            let name = |f: &Option<AccountFlags>, key: &str| {
                f.as_ref()
                    .map_or_else(|| key.to_string(), |f| f.name.clone())
            };
            let player = self.accounts.account_flags(&r.player).await?;
            let reporter = self.accounts.account_flags(&r.reporter).await?;
            let context = match &r.game_id {
                Some(g) => self.chat.context(g, &r.player, r.chat_line, 50).await?,
                None => Vec::new(),
            };
            reports.push(ReportView {
                id: r.id,
                reporter: name(&reporter, &r.reporter),
                player: name(&player, &r.player),
                reason: ReportReason::from_name(&r.reason).unwrap_or(ReportReason::Other),
                text: r.text,
                game: r.game_id,
                chat_line: r.chat_line,
                created_at: r.created_at,
                context: context.iter().map(line_view).collect(),
                muted_until: player
                    .as_ref()
                    .and_then(|f| f.muted_until)
                    .filter(|u| *u > now),
                closed: player.is_some_and(|f| f.closed_at.is_some()),
            });
        }
        Ok(ReportQueue { reports })
    }

    /// The rated games the rating job could not rate, with why (moderators only).
    pub async fn unrated_games(&self, session: &Session) -> Result<UnratedGames, ApiError> {
        self.moderator(session).await?;
        let games = self
            .ratings
            .failures()
            .await?
            .into_iter()
            .map(|f| UnratedGame {
                game: f.game_id,
                reason: f.reason,
                attempts: f.attempts,
                first_at: f.first_at,
                last_at: f.last_at,
            })
            .collect();
        Ok(UnratedGames { games })
    }

    /// Resolves open report `id` (moderators only).
    pub async fn resolve(&self, session: &Session, id: i64, note: &str) -> Result<(), ApiError> {
        self.moderator(session).await?;
        if note.chars().count() > REPORT_MAX_CHARS {
            return Err(refused(
                ErrorCode::InvalidReport,
                format!("a note has at most {REPORT_MAX_CHARS} characters"),
            ));
        }
        if self
            .repo
            .resolve_report(id, &session.key, note.trim(), now_ms())
            .await?
        {
            Ok(())
        } else {
            Err(refused(
                ErrorCode::ReportNotFound,
                format!("no open report has the id {id}"),
            ))
        }
    }

    /// Mutes `name` for `minutes` (none: until unmuted; moderators only).
    pub async fn mute(
        &self,
        session: &Session,
        name: &str,
        minutes: Option<u32>,
    ) -> Result<Option<i64>, ApiError> {
        self.moderator(session).await?;
        let (key, _) = self.account(name).await?;
        let until = match minutes {
            Some(0) => {
                return Err(refused(ErrorCode::BadRequest, "mute for at least a minute"));
            }
            Some(m) if m <= MAX_MUTE_MINUTES => now_ms() + i64::from(m) * 60_000,
            _ => i64::MAX,
        };
        self.repo.set_muted(&key, Some(until)).await?;
        Ok((until != i64::MAX).then_some(until))
    }

    /// Unmutes `name` (moderators only).
    pub async fn unmute(&self, session: &Session, name: &str) -> Result<(), ApiError> {
        self.moderator(session).await?;
        let (key, _) = self.account(name).await?;
        self.repo.set_muted(&key, None).await?;
        Ok(())
    }

    /// Closes `name`'s account (moderators only; not their own).
    pub async fn close(&self, session: &Session, name: &str) -> Result<(), ApiError> {
        self.moderator(session).await?;
        let (key, _) = self.account(name).await?;
        if key == session.key {
            return Err(refused(
                ErrorCode::BadRequest,
                "you cannot close your own account here",
            ));
        }
        let notices = self.repo.close_account(&key, now_ms()).await?;
        self.cluster.deliver(
            notices
                .into_iter()
                .flatten()
                .filter_map(|n| crate::store::Notice::parse(&n)),
        );
        self.cluster.signed_out(&key).await;
        Ok(())
    }

    /// Opens `name`'s closed account again (moderators only).
    pub async fn reopen(&self, session: &Session, name: &str) -> Result<(), ApiError> {
        self.moderator(session).await?;
        let (key, _) = self.account(name).await?;
        self.repo.reopen_account(&key).await?;
        Ok(())
    }
}
