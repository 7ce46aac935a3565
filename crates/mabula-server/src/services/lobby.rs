//! The lobby: seeks open to everyone, challenges to one player, and the games they start. A seek
//! lives in the database until it is accepted, cancelled or lapses; accepting takes it out with
//! one `DELETE … RETURNING`, so two players who accept the same seek on two instances cannot
//! both get a game. The lobby's sockets hear of every change on every instance (see
//! [`Notice::Lobby`] and [`Notice::User`]): the seeks open to everyone are read once per change
//! for all of an instance's sockets ([`Lobby::follow`]), each socket reads its player's own seeks
//! and challenges when they change, and sends only what changed ([`Shown`]).

use super::cluster::Cluster;
use super::moderation::Moderation;
use super::players::player_not_found;
use super::tokens::Tokens;
use super::{Games, now_ms};
use crate::auth::{self, Session};
use crate::error::{ApiError, ErrorCode};
use crate::model::{Player, Speed, TimeControl};
use crate::store::Notice;
use crate::store::accounts::AccountReads;
use crate::store::lobby::{LobbyRepo, SeekCaps, SeekRow};
use crate::store::ratings::RatingReads;
use mabula::Scoring;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// How long a real-time seek stays open (ms): the lobby page withdraws it when it closes.
const REALTIME_SEEK_MS: i64 = 30 * 60 * 1000;

/// How long a real-time seek open to all outlives its owner's last lobby socket (ms): a page
/// reloaded keeps it, a browser that crashed or went away loses it. The socket pushes the
/// seek's `alive_until` this far ahead every [`KEEP_ALIVE_EVERY`], and the sweep of lapsed
/// seeks removes it once that passes, whichever instance held the socket.
pub const SEEK_GRACE_MS: i64 = 20 * 1000;

/// How often a lobby socket keeps its owner's real-time seeks alive.
pub const KEEP_ALIVE_EVERY: Duration = Duration::from_secs(5);

/// How long a correspondence seek or challenge stays open (ms).
const CORRESPONDENCE_SEEK_MS: i64 = 7 * 86_400_000;

/// The most open seeks and challenges one player, and one client address, may have; a player
/// whose rating for the game is provisional (a new account) may have one seek open to everyone.
const SEEK_CAPS: SeekCaps = SeekCaps {
    per_account: 5,
    per_address: 20,
    provisional_open: 1,
};

use mabula_api::lobby::LobbyMessage;
pub use mabula_api::lobby::{ClockRequest, SeekRequest, SeekView};

/// The lobby's view of seek `s`, naming a challenged player as `names` spells them.
pub(crate) fn seek_view(s: &SeekRow, names: &HashMap<String, String>) -> SeekView {
    SeekView {
        id: s.id.clone(),
        name: s.name.clone(),
        rating: s.rating,
        provisional: s.provisional,
        to: s
            .target
            .as_ref()
            .map(|t| names.get(t).cloned().unwrap_or_else(|| t.clone())),
        scoring: s.scoring.name().to_string(),
        rated: s.rated,
        control: s.control,
        label: s.control.label(),
        speed: s.control.speed(),
        color: s.color.clone(),
        rating_min: s.rating_min,
        rating_max: s.rating_max,
        created_at: s.created_at,
        bot: s.bot,
        bots: !s.no_bots,
    }
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::InvalidSettings, message)
}

fn seek_gone(id: &str) -> ApiError {
    ApiError::new(
        ErrorCode::SeekNotFound,
        format!(
            "there is no open seek or challenge '{id}': it was accepted, withdrawn or it lapsed"
        ),
    )
}

/// How long lobby changes are gathered before the seeks are read again.
pub const LOBBY_DELAY: Duration = Duration::from_millis(100);

/// Seeks and challenges.
pub struct Lobby {
    /// Its repository.
    repo: LobbyRepo,
    /// The accounts, read (the names of the challenged, whether they are closed).
    accounts: AccountReads,
    /// The ratings, read (the seekers' and the accepters').
    ratings: RatingReads,
    games: Arc<Games>,
    cluster: Arc<Cluster>,
    /// The blocks (a challenge to a player who blocks its sender).
    moderation: Arc<Moderation>,
    /// The house bots' levels.
    tokens: Arc<Tokens>,
    /// The seeks open to everyone, as last read (see [`Lobby::follow`]).
    public: watch::Sender<Option<Arc<Vec<SeekView>>>>,
}

/// What the lobby reads and writes: its repository, and the reads of accounts and ratings.
pub struct LobbyRepos {
    /// Its repository.
    pub lobby: LobbyRepo,
    /// The accounts' read handle.
    pub accounts: AccountReads,
    /// The ratings' read handle.
    pub ratings: RatingReads,
}

/// A seek shown on a lobby socket, and when it lapses.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The seek.
    pub view: SeekView,
    /// When it lapses (ms).
    pub expires_at: i64,
}

impl Lobby {
    /// The lobby, whose accepted seeks start games in `games`.
    pub fn new(
        repos: LobbyRepos,
        games: Arc<Games>,
        cluster: Arc<Cluster>,
        moderation: Arc<Moderation>,
        tokens: Arc<Tokens>,
    ) -> Lobby {
        Lobby {
            repo: repos.lobby,
            accounts: repos.accounts,
            ratings: repos.ratings,
            games,
            cluster,
            moderation,
            tokens,
            public: watch::channel(None).0,
        }
    }

    /// Keeps the seeks open to everyone up to date for this instance's lobby sockets: read
    /// again (once, whatever the number of sockets) after each change on any instance, until
    /// `stop`. A read that fails is tried again each second.
    pub fn follow(self: &Arc<Self>, mut stop: watch::Receiver<bool>) {
        let lobby = Arc::clone(self);
        let mut notices = self.cluster.notices();
        tokio::spawn(async move {
            let mut stale = true;
            let mut retry = tokio::time::interval(Duration::from_secs(1));
            loop {
                if stale {
                    tokio::time::sleep(LOBBY_DELAY).await;
                    // Changes that came meanwhile are in the list read now.
                    loop {
                        match notices.try_recv() {
                            Err(broadcast::error::TryRecvError::Closed) => return,
                            Err(broadcast::error::TryRecvError::Empty) => break,
                            _ => {}
                        }
                    }
                    stale = !lobby.read_public().await;
                }
                tokio::select! {
                    notice = notices.recv() => match notice {
                        // After the listener's loss, what was missed is read again.
                        Ok(Notice::Lobby | Notice::Back)
                        | Err(broadcast::error::RecvError::Lagged(_)) => stale = true,
                        Ok(_) => {}
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                    _ = retry.tick(), if stale => {}
                    _ = stop.changed() => return,
                }
            }
        });
    }

    /// Reads the seeks open to everyone; `false` if the database did not answer.
    async fn read_public(&self) -> bool {
        match self.repo.public_seeks(now_ms()).await {
            Ok(rows) => {
                let views = rows.iter().map(|s| seek_view(s, &HashMap::new())).collect();
                self.public.send_replace(Some(Arc::new(views)));
                true
            }
            Err(e) => {
                tracing::warn!("cannot read the lobby's seeks: {e}");
                false
            }
        }
    }

    /// The seeks open to everyone, as last read (`None` before the first read), and each time
    /// they change.
    pub fn public_seeks(&self) -> watch::Receiver<Option<Arc<Vec<SeekView>>>> {
        self.public.subscribe()
    }

    /// The open seeks and challenges of the player `key` and the challenges to them.
    pub async fn own_seeks(&self, key: &str) -> Result<Vec<Listed>, ApiError> {
        let rows = self.repo.own_seeks(now_ms(), key).await?;
        let names = self.target_names(&rows).await?;
        Ok(rows
            .iter()
            .map(|s| Listed {
                view: seek_view(s, &names),
                expires_at: s.expires_at,
            })
            .collect())
    }

    /// The open seeks and challenges of the player `key` and the challenges to them not lapsed
    /// at `now`, as stored (the house bots and the bot API answer the challenges).
    pub async fn own_seek_rows(&self, now: i64, key: &str) -> Result<Vec<SeekRow>, ApiError> {
        Ok(self.repo.own_seeks(now, key).await?)
    }

    /// The lobby's and the players' notices, for a lobby socket.
    pub fn notices(&self) -> tokio::sync::broadcast::Receiver<Notice> {
        self.cluster.notices()
    }

    /// Clears the lapsed seeks (every instance runs this each second).
    pub async fn sweep(&self) -> Result<(), ApiError> {
        if self.repo.expire_seeks(now_ms()).await? {
            self.cluster.deliver([Notice::Lobby]);
        }
        Ok(())
    }

    /// Opens a seek (or a challenge, with `to`) for the player of `session`, asking from
    /// `client`.
    pub async fn open_seek(
        &self,
        session: &Session,
        client: &str,
        req: SeekRequest,
    ) -> Result<SeekView, ApiError> {
        let scoring: Scoring = req
            .scoring
            .parse()
            .map_err(|e: mabula::scoring::ParseScoringError| invalid(e.to_string()))?;
        let control = match (req.clock, req.days) {
            (Some(c), None) => TimeControl::Clock {
                initial_s: c.initial_s,
                increment_s: c.increment_s,
            },
            (None, Some(days)) => TimeControl::Days { days },
            _ => {
                return Err(invalid(
                    "give either a clock {\"initial_s\", \"increment_s\"} or days per move",
                ));
            }
        };
        control.check().map_err(invalid)?;
        let color = req.color.unwrap_or_else(|| "random".into());
        if !["white", "black", "random"].contains(&color.as_str()) {
            return Err(invalid(format!(
                "color '{color}' is not one of white, black, random"
            )));
        }
        if let (Some(lo), Some(hi)) = (req.rating_min, req.rating_max)
            && lo > hi
        {
            return Err(invalid("rating_min is above rating_max"));
        }
        let target = match &req.to {
            None => None,
            Some(name) => {
                let key = super::accounts::lookup_key(name)?;
                if key == session.key {
                    return Err(invalid("you cannot challenge yourself"));
                }
                let flags = self
                    .accounts
                    .account_flags(&key)
                    .await?
                    .ok_or_else(|| player_not_found(name))?;
                if flags.closed_at.is_some() {
                    return Err(ApiError::new(
                        ErrorCode::AccountClosed,
                        format!("{} is closed: it cannot be challenged", flags.name),
                    ));
                }
                Some(key)
            }
        };
        let now = now_ms();
        let rating = self
            .ratings
            .rating(&session.key, scoring, control.speed())
            .await?;
        let (shown_rating, provisional) = rating.shown();
        let lifetime = match control.speed() {
            Speed::Realtime if target.is_none() => REALTIME_SEEK_MS,
            _ => CORRESPONDENCE_SEEK_MS,
        };
        let seek = SeekRow {
            id: auth::new_secret(6),
            account: session.key.clone(),
            name: session.name.clone(),
            rating: shown_rating,
            provisional,
            target,
            scoring,
            rated: req.rated,
            control,
            color,
            rating_min: req.rating_min,
            rating_max: req.rating_max,
            created_at: now,
            expires_at: now + lifetime,
            address: client.to_string(),
            no_bots: req.bots == Some(false),
            bot: session.bot,
        };
        // A real-time seek open to all lives with its owner's lobby socket; a challenge waits
        // for the one challenged, a correspondence seek for days.
        let alive_until = (seek.target.is_none() && control.speed() == Speed::Realtime)
            .then_some(now + SEEK_GRACE_MS);
        if !self
            .repo
            .insert_seek(&seek, Some(SEEK_CAPS), alive_until)
            .await?
        {
            // Moderation (issue 36): the statement refuses a challenge to a player who blocks
            // its sender; say so rather than name the caps.
            if let Some(t) = &seek.target
                && self.moderation.blocks_player(t, &seek.account).await?
            {
                return Err(ApiError::new(
                    ErrorCode::Blocked,
                    "this player blocks you: you cannot challenge them",
                ));
            }
            if seek.provisional
                && seek.target.is_none()
                && self
                    .repo
                    .own_seeks(now, &seek.account)
                    .await?
                    .iter()
                    .filter(|s| s.account == seek.account && s.target.is_none())
                    .count()
                    >= SEEK_CAPS.provisional_open as usize
            {
                return Err(invalid(format!(
                    "while your rating for this game is provisional, {} seek may be open to \
                     everyone at once (challenges to a player are not counted): withdraw it first",
                    SEEK_CAPS.provisional_open
                )));
            }
            return Err(invalid(format!(
                "{} seeks and challenges may be open at once per player, and {} per address: \
                 withdraw one first",
                SEEK_CAPS.per_account, SEEK_CAPS.per_address
            )));
        }
        self.cluster.deliver(seek_notices(&seek));
        let names = self.target_names(std::slice::from_ref(&seek)).await?;
        Ok(seek_view(&seek, &names))
    }

    /// The open seeks, with the challenges to and from the player of `session`.
    pub async fn seeks(&self, session: Option<&Session>) -> Result<Vec<SeekView>, ApiError> {
        let rows = self
            .repo
            .seeks(now_ms(), session.map(|s| s.key.as_str()))
            .await?;
        let names = self.target_names(&rows).await?;
        Ok(rows.iter().map(|s| seek_view(s, &names)).collect())
    }

    /// The names of the players challenged in `rows`, by key.
    async fn target_names(&self, rows: &[SeekRow]) -> Result<HashMap<String, String>, ApiError> {
        let mut names = HashMap::new();
        for t in rows.iter().filter_map(|s| s.target.as_ref()) {
            if !names.contains_key(t)
                && let Some(a) = self.accounts.account(t).await?
            {
                names.insert(t.clone(), a.name);
            }
        }
        Ok(names)
    }

    /// The open seek or challenge `id` (looked up by its id: no number of other seeks hides it).
    async fn open_seek_of(&self, id: &str, now: i64) -> Result<SeekRow, ApiError> {
        self.repo.seek(id, now).await?.ok_or_else(|| seek_gone(id))
    }

    /// Withdraws a seek (its owner) or declines a challenge (its target); the challenger hears
    /// of a decline on their lobby sockets, on every instance.
    pub async fn cancel_seek(&self, session: &Session, id: &str) -> Result<(), ApiError> {
        let now = now_ms();
        let seek = self.open_seek_of(id, now).await?;
        if seek.account != session.key && seek.target.as_deref() != Some(session.key.as_str()) {
            return Err(ApiError::new(
                ErrorCode::SeekNotForYou,
                "only who opened a seek can withdraw it, and only who is challenged can decline",
            ));
        }
        let taken = self
            .repo
            .take_seek(id, now)
            .await?
            .ok_or_else(|| seek_gone(id))?;
        self.cluster.deliver(seek_notices(&taken));
        if taken.target.as_deref() == Some(session.key.as_str()) {
            self.cluster
                .announce(&[declined_notice(&taken.account, &taken.id, &session.name)])
                .await?;
        }
        Ok(())
    }

    /// Keeps the real-time seeks of account `key` alive while its lobby socket is open (see
    /// [`SEEK_GRACE_MS`]).
    pub async fn keep_alive(&self, key: &str) -> Result<(), ApiError> {
        self.repo
            .keep_seeks_alive(key, now_ms() + SEEK_GRACE_MS)
            .await?;
        Ok(())
    }

    /// Accepts a seek or challenge for the player of `session`: the seek leaves the lobby and
    /// their game begins. Answers the game's id.
    pub async fn accept_seek(&self, session: &Session, id: &str) -> Result<String, ApiError> {
        let now = now_ms();
        let seek = self.open_seek_of(id, now).await?;
        let not_for_you = |why: &str| ApiError::new(ErrorCode::SeekNotForYou, why.to_string());
        if seek.account == session.key {
            return Err(not_for_you(
                "this is your own seek: another player accepts it",
            ));
        }
        if seek.target.as_ref().is_some_and(|t| *t != session.key) {
            return Err(not_for_you("this challenge is for another player"));
        }
        if seek.no_bots && session.bot {
            return Err(ApiError::new(
                ErrorCode::BotNotAllowed,
                "this seek does not want to meet bots",
            ));
        }
        let mine = self
            .ratings
            .rating(&session.key, seek.scoring, seek.control.speed())
            .await?;
        let (my_rating, my_provisional) = mine.shown();
        if seek.rating_min.is_some_and(|lo| my_rating < lo)
            || seek.rating_max.is_some_and(|hi| my_rating > hi)
        {
            return Err(not_for_you(&format!(
                "your rating {my_rating} is outside the range this seek asks for"
            )));
        }
        let theirs = self
            .ratings
            .rating(&seek.account, seek.scoring, seek.control.speed())
            .await?;
        let (their_rating, their_provisional) = theirs.shown();
        // Only one accepter takes the seek out of the table; the others find it gone.
        let seek = self
            .repo
            .take_seek(id, now)
            .await?
            .ok_or_else(|| seek_gone(id))?;
        // Whether the seeker is a bot now (they may have become one since they sought).
        let seeker = Player {
            key: seek.account.clone(),
            name: seek.name.clone(),
            rating: Some(their_rating),
            provisional: their_provisional,
            diff: None,
            bot: self.tokens.is_bot(&seek.account).await?,
        };
        let accepter = Player {
            key: session.key.clone(),
            name: session.name.clone(),
            rating: Some(my_rating),
            provisional: my_provisional,
            diff: None,
            bot: session.bot,
        };
        let seeker_white = match seek.color.as_str() {
            "white" => true,
            "black" => false,
            _ => rand::random::<bool>(),
        };
        let players = if seeker_white {
            [seeker, accepter]
        } else {
            [accepter, seeker]
        };
        // A house bot (issue 38) plays through the engine's claimed moves.
        let level = async |p: &Player| match p.bot {
            true => self.tokens.house_level(&p.key).await,
            false => Ok(None),
        };
        let house = match (level(&players[0]).await?, level(&players[1]).await?) {
            (Some(level), _) => Some((mabula::Color::White, level)),
            (None, Some(level)) => Some((mabula::Color::Black, level)),
            (None, None) => None,
        };
        let game = match house {
            Some((color, level)) => {
                self.games
                    .create_house_game(
                        players,
                        seek.scoring,
                        seek.rated,
                        seek.control,
                        color,
                        level,
                    )
                    .await
            }
            None => {
                self.games
                    .create_player_game(players, seek.scoring, seek.rated, seek.control)
                    .await
            }
        };
        let game_id = match game {
            Ok(id) => id,
            Err(e) => {
                // The game could not be stored: the seek goes back to the lobby.
                let alive_until = (seek.target.is_none()
                    && seek.control.speed() == Speed::Realtime)
                    .then_some(now_ms() + SEEK_GRACE_MS);
                if let Err(e2) = self.repo.insert_seek(&seek, None, alive_until).await {
                    tracing::warn!("seek {id} lost: {e2}");
                }
                return Err(e);
            }
        };
        let started: Vec<String> = [&seek.account, &session.key]
            .iter()
            .map(|key| format!("u {key} game {game_id}"))
            .collect();
        // On PostgreSQL the seek's own notices went with its removal.
        self.cluster.deliver(seek_notices(&seek));
        self.cluster.announce(&started).await?;
        Ok(game_id)
    }
}

impl Lobby {
    /// Opens house bot `key`'s seek open to all with the fixed id `id` (issue 38), unless it is
    /// open already: the id makes it one seek however many instances try.
    pub async fn open_house_seek(
        &self,
        key: &str,
        prefix: &str,
        scoring: mabula::Scoring,
        control: TimeControl,
    ) -> Result<(), ApiError> {
        let now = now_ms();
        let db = &self.repo;
        // The id says the rating shown: a seek is never changed once open, so a new rating is a
        // new seek, and the lobby's sockets see the old one go and the new one come.
        let (rating, provisional) = self
            .ratings
            .rating(key, scoring, control.speed())
            .await?
            .shown();
        let id = format!("{prefix}-{rating}{}", if provisional { "p" } else { "" });
        if db.seek(&id, now).await?.is_some() {
            db.keep_seeks_alive(key, now + SEEK_GRACE_MS).await?;
            return Ok(());
        }
        for old in db.own_seeks(now, key).await? {
            if old.id.starts_with(&format!("{prefix}-"))
                && let Some(taken) = db.take_seek(&old.id, now).await?
            {
                self.cluster.deliver(seek_notices(&taken));
            }
        }
        let seek = SeekRow {
            id,
            account: key.to_string(),
            name: key.to_string(),
            rating,
            provisional,
            target: None,
            scoring,
            rated: true,
            control,
            color: "random".into(),
            rating_min: None,
            rating_max: None,
            created_at: now,
            expires_at: now + REALTIME_SEEK_MS,
            address: "house".into(),
            no_bots: false,
            bot: true,
        };
        // Another instance may store it first: its key refuses the second.
        if let Ok(true) = db.insert_seek(&seek, None, Some(now + SEEK_GRACE_MS)).await {
            self.cluster.deliver(seek_notices(&seek));
        }
        Ok(())
    }
}

/// The notice to `owner` that `by` declined their challenge `id`: `u OWNER declined ID BY`.
pub fn declined_notice(owner: &str, id: &str, by: &str) -> String {
    format!("u {owner} declined {id} {by}")
}

/// The notices of a seek's change, parsed (the store sends the same texts on PostgreSQL).
fn seek_notices(s: &SeekRow) -> Vec<Notice> {
    crate::store::lobby::seek_notices(s)
        .iter()
        .filter_map(|n| Notice::parse(n))
        .collect()
}

/// The seeks a lobby socket has shown, so that it sends only what changed.
#[derive(Debug, Default)]
pub struct Shown {
    /// The ids shown; `None` before the first message.
    ids: Option<HashSet<String>>,
}

impl Shown {
    /// The seeks to show now: those open to everyone (`public`) and the player's own (`own`,
    /// less those lapsed at `now`), once each, oldest first.
    pub fn visible(public: &[SeekView], own: &[Listed], now: i64) -> Vec<SeekView> {
        let mut seen = HashSet::new();
        let mut all: Vec<SeekView> = own
            .iter()
            .filter(|l| l.expires_at > now)
            .map(|l| &l.view)
            .chain(public)
            .filter(|s| seen.insert(s.id.as_str()))
            .cloned()
            .collect();
        all.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        all
    }

    /// Whether the first message was sent.
    pub fn started(&self) -> bool {
        self.ids.is_some()
    }

    /// The message that brings the socket to `now`: the whole list the first time, then the
    /// seeks added and the ids removed, or nothing if nothing changed. A seek never changes once
    /// open, so its id is enough to know it.
    pub fn message<T: From<String>>(&mut self, now: Vec<SeekView>) -> Option<T> {
        let ids: HashSet<String> = now.iter().map(|s| s.id.clone()).collect();
        let Some(before) = self.ids.replace(ids) else {
            return Some(LobbyMessage::Seeks { seeks: &now }.to_text());
        };
        let after = self.ids.as_ref()?;
        let mut removed: Vec<String> = before.difference(after).cloned().collect();
        removed.sort();
        let added: Vec<SeekView> = now
            .into_iter()
            .filter(|s| !before.contains(&s.id))
            .collect();
        if added.is_empty() && removed.is_empty() {
            return None;
        }
        Some(
            LobbyMessage::SeeksChanged {
                added: &added,
                removed: &removed,
            }
            .to_text(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn seek(id: &str, created_at: i64) -> SeekView {
        let control = TimeControl::Days { days: 2 };
        SeekView {
            id: id.into(),
            name: "ann".into(),
            rating: 1500,
            provisional: true,
            to: None,
            scoring: "largest".into(),
            rated: false,
            control,
            label: control.label(),
            speed: control.speed(),
            color: "random".into(),
            rating_min: None,
            rating_max: None,
            created_at,
            bot: false,
            bots: true,
        }
    }

    fn own(id: &str, created_at: i64, expires_at: i64) -> Listed {
        Listed {
            view: seek(id, created_at),
            expires_at,
        }
    }

    fn ids(seeks: &[SeekView]) -> Vec<&str> {
        seeks.iter().map(|s| s.id.as_str()).collect()
    }

    #[test]
    fn the_seeks_shown_are_the_public_ones_and_the_players_own_once_each_oldest_first() {
        let public = [seek("b", 2), seek("d", 4)];
        let mine = [own("d", 4, 100), own("a", 1, 100), own("c", 3, 10)];
        assert_eq!(ids(&Shown::visible(&public, &mine, 50)), ["a", "b", "d"]);
    }

    #[test]
    fn the_list_is_sent_once_then_only_what_changed() {
        let mut shown = Shown::default();
        let first: String = shown
            .message(vec![seek("a", 1), seek("b", 2)])
            .expect("a list");
        let first: Value = serde_json::from_str(&first).expect("JSON");
        assert_eq!(first["type"], "seeks");
        assert_eq!(first["seeks"].as_array().map(Vec::len), Some(2));

        let same: Option<String> = shown.message(vec![seek("a", 1), seek("b", 2)]);
        assert_eq!(same, None, "nothing changed, nothing is sent");

        let change: String = shown
            .message(vec![seek("b", 2), seek("c", 3)])
            .expect("a change");
        let change: Value = serde_json::from_str(&change).expect("JSON");
        assert_eq!(change["type"], "seeks_changed");
        assert_eq!(change["removed"], serde_json::json!(["a"]));
        assert_eq!(change["added"][0]["id"], "c");
        assert_eq!(change["added"].as_array().map(Vec::len), Some(1));
    }
}
