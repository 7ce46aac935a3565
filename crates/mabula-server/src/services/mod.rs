//! The services: one per concern, each a struct that owns its state and is built from the few
//! handles it needs. [`Services::new`] wires them (the only place that knows them all) and
//! [`Services::start`] declares their timed jobs.
//!
//! ```text
//! accounts  players  lobby  chat  clocks  ratings  tournaments  accuracy   who uses whom
//!     \        |       |      |       \      |      /          /          (never upwards)
//!      \       |       |      |        (game events) --------'
//!       `------+-------+------+--------- games
//!                                     |
//!                                  cluster          this instance among the others
//!                                     |
//!                                   store           the game rows, and one repository per
//!                                                   service, behind one gate
//! ```
//!
//! Storage is owned per concern: [`Store::repositories`](crate::store::Store::repositories)
//! makes each repository once and [`Services::new`] hands it to the one service that owns it
//! (named below). No other service writes its tables: one that needs them asks the owning
//! service, or reads through a handle the owner's repository gives out
//! ([`AccountReads`](crate::store::accounts::AccountReads),
//! [`RatingReads`](crate::store::ratings::RatingReads)).
//!
//! - [`games`]: the live games, a cache of the database: every action on a game (moves, undo,
//!   resign, claims, hints, joins, rematches), the engine's moves, presence on the game's
//!   sockets. It tells the services that follow games what happened through [`GameEvent`]s, so
//!   it depends on none of them. Owns the game rows ([`Store`]),
//!   [`GamesRepo`](crate::store::games::GamesRepo) and the pairs' quota; reads ratings.
//! - [`clocks`]: timers armed for the games' deadlines, and the sweep that flags the games whose
//!   time ran out on any instance. Owns [`ClocksRepo`](crate::store::clocks::ClocksRepo).
//! - [`ratings`]: the rating job (once per rated game) and the second player's advantage. Owns
//!   [`RatingsRepo`](crate::store::ratings::RatingsRepo).
//! - [`lobby`]: seeks and challenges, and the games they start. Owns
//!   [`LobbyRepo`](crate::store::lobby::LobbyRepo); reads accounts and ratings, asks
//!   moderation (blocks) and tokens (house levels).
//! - [`accounts`]: sign-up, log-in, sessions by device, a new password, deleting an account,
//!   guest games taken into an account, signs of life. Owns
//!   [`AccountsRepo`](crate::store::accounts::AccountsRepo),
//!   [`SessionsRepo`](crate::store::sessions::SessionsRepo) and the sign-ups' quota.
//! - [`follows`]: who follows whom, the followed players' live games, and who is online. Owns
//!   [`FollowsRepo`](crate::store::follows::FollowsRepo); reads accounts, asks accounts to note
//!   signs of life.
//! - [`players`]: what the site shows of a player (profile, history, records); reads only. Owns
//!   [`PlayersRepo`](crate::store::players::PlayersRepo) (read only) and the exports' quota;
//!   reads accounts, asks ratings.
//! - [`chat`]: a game's chat, two rooms, its lines sent to the game's sockets on every
//!   instance (issue 36). Owns [`ChatRepo`](crate::store::chat::ChatRepo).
//! - [`moderation`]: blocks, reports, and the moderators' queue, mutes and closed accounts.
//!   Owns [`ModerationRepo`](crate::store::moderation::ModerationRepo); reads accounts, asks
//!   the chat.
//! - [`tournaments`]: Swiss tournaments and arenas (issue 37): creation, joining, and the
//!   pairing of rounds and waves, each change once however many instances decide it. Owns
//!   [`TournamentsRepo`](crate::store::tournaments::TournamentsRepo); reads ratings.
//! - [`tokens`]: personal API tokens and bot accounts (issue 38). Owns
//!   [`TokensRepo`](crate::store::tokens::TokensRepo).
//! - [`house`]: the house bots' seeks and answers to challenges (issue 38). Owns nothing: asks
//!   accounts, tokens and the lobby.
//! - [`bots`]: the bot API's streams of an account's events and of a game (issue 38). Owns
//!   nothing: asks the lobby and the games.
//! - [`puzzles`]: the shipped puzzles, attempts judged move by move, the players' and the
//!   puzzles' puzzle ratings moved once per first attempt, the puzzle of the day (issue 39).
//!   Owns [`PuzzlesRepo`](crate::store::puzzles::PuzzlesRepo); reads accounts.
//! - [`fair_play`]: while a rated game is played, its position and those one move from it are
//!   kept from the engine (issue 51). Owns
//!   [`FairPlayRepo`](crate::store::fair_play::FairPlayRepo) (read only: the game rows' writer
//!   stores the positions with each change of a rated game).
//! - [`accuracy`]: each finished rated game's players' accuracy, computed once after it ends,
//!   and the accounts flagged for an accuracy far above their rating's (issue 51). Owns
//!   [`AccuracyRepo`](crate::store::accuracy::AccuracyRepo) (its jobs and the accuracies; it
//!   reads the finished games); asks the analyst.
//! - [`cluster`]: this instance's id and heartbeat, and the notices of the other instances.
//!   Owns [`ClusterRepo`](crate::store::cluster::ClusterRepo) (announcements) and the store's
//!   heartbeat and presence.
//!
//! The analyst ([`Analyst`]) owns [`ClaimsRepo`](crate::store::analyses::ClaimsRepo) on a shared
//! database.
//!
//! A new feature is one more service beside these, built in [`Services::new`] from the handles
//! it needs (its own repository among them), with its timed jobs in [`Services::start`].

pub mod accounts;
pub mod accuracy;
pub mod bots;
pub mod chat;
pub mod clocks;
pub mod cluster;
pub mod fair_play;
pub mod follows;
pub mod games;
pub mod house;
pub mod lobby;
pub mod moderation;
pub mod players;
pub mod puzzles;
pub mod ratings;
pub mod tokens;
pub mod tournaments;

pub use crate::model::now_ms;
pub use games::{GameEvent, GameHandle, Games, Slot};

use crate::analysis::{Analyst, Claims};
use crate::engine::EnginePool;
use crate::error::ApiError;
use crate::store::{Notice, Store};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Settings of the services that the command line can change.
#[derive(Clone, Debug)]
pub struct Config {
    /// Engine computations allowed at once.
    pub engine_threads: usize,
    /// Thinking time of the engine when a game does not say.
    pub engine_movetime: Duration,
    /// The most unfinished engine games one client address may have (0: no cap); games
    /// untouched for an hour do not count.
    pub engine_games_per_address: u32,
    /// How long an unused game stays in memory.
    pub idle_eviction: Duration,
    /// The bound on the analysis of one position (the analysis board).
    pub analysis_time: Duration,
    /// An instance not heard from for this long is taken for dead: its engine moves are taken
    /// over and its WebSockets no longer count.
    pub instance_timeout: Duration,
    /// Accounts that one client address may make in an hour (0: no limit): each costs a
    /// password hash, and each pair of accounts can farm ratings.
    pub signups_per_address_hour: u32,
    /// The tournaments the site makes by itself (`--daily-tournament`, `--weekly-tournament`).
    pub tournament_schedules: Vec<tournaments::Schedule>,
    /// The levels of the house bots to keep in the lobby (issue 38; empty: none).
    pub house_bots: Vec<u8>,
    /// The time every service reads (the real one but in tests).
    pub clock: crate::clock::Clock,
    /// How often every instance sweeps the database for the timed jobs that any instance may
    /// do: flags, ratings, lapsed seeks, tournaments, house bots, accuracy.
    pub sweep_every: Duration,
    /// The accuracy job's cap and budget (issue 51).
    pub accuracy: accuracy::AccuracySettings,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            engine_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            engine_movetime: Duration::from_millis(1000),
            engine_games_per_address: 4,
            idle_eviction: Duration::from_secs(60),
            analysis_time: Duration::from_millis(1500),
            instance_timeout: Duration::from_secs(5),
            signups_per_address_hour: accounts::SIGNUPS_PER_ADDRESS_HOUR,
            tournament_schedules: Vec::new(),
            house_bots: Vec::new(),
            clock: crate::clock::Clock::real(),
            sweep_every: Duration::from_secs(1),
            accuracy: accuracy::AccuracySettings::default(),
        }
    }
}

/// Every service of one instance.
#[derive(Clone)]
pub struct Services {
    /// Where everything is kept.
    pub store: Arc<Store>,
    /// Where engine moves, hints and analyses are computed.
    pub engine: EnginePool,
    /// This instance among the others.
    pub cluster: Arc<cluster::Cluster>,
    /// The live games.
    pub games: Arc<Games>,
    /// The clocks' timers and sweep.
    pub clocks: Arc<clocks::Clocks>,
    /// The rating job.
    pub ratings: Arc<ratings::Ratings>,
    /// Seeks and challenges.
    pub lobby: Arc<lobby::Lobby>,
    /// Accounts and sessions.
    pub accounts: Arc<accounts::Accounts>,
    /// Profiles, histories and records.
    pub players: Arc<players::Players>,
    /// Follows, and who is online.
    pub follows: Arc<follows::Follows>,
    /// The analysis board's service.
    pub analyst: Arc<Analyst>,
    /// A game's chat.
    pub chat: Arc<chat::Chat>,
    /// Blocks, reports and moderation.
    pub moderation: Arc<moderation::Moderation>,
    /// Tournaments (issue 37).
    pub tournaments: Arc<tournaments::Tournaments>,
    /// Personal API tokens and bot accounts (issue 38).
    pub tokens: Arc<tokens::Tokens>,
    /// The bot API's streams (issue 38).
    pub bots: Arc<bots::BotStreams>,
    /// The house bots (issue 38).
    pub house: Arc<house::HouseBots>,
    /// Puzzles and puzzle ratings (issue 39).
    pub puzzles: Arc<puzzles::Puzzles>,
    /// What live rated games keep from the engine (issue 51).
    pub fair_play: Arc<fair_play::FairPlay>,
    /// The players' accuracy in finished rated games, and its flags (issue 51).
    pub accuracy: Arc<accuracy::Accuracy>,
    /// The time the services read.
    pub clock: crate::clock::Clock,
    /// How often the timed jobs sweep the database.
    sweep_every: Duration,
}

impl Services {
    /// The services of one instance over `store`; call [`Services::start`] before serving.
    pub fn new(store: Store, config: Config) -> Services {
        crate::clock::install(&config.clock);
        // Each repository is made once here and handed to the one service that owns it.
        let repos = store.repositories();
        let account_reads = repos.accounts.read();
        let rating_reads = repos.ratings.read();
        let store = Arc::new(store);
        let engine = EnginePool::new(config.engine_threads);
        let cluster = Arc::new(cluster::Cluster::new(
            store.clone(),
            repos.cluster,
            config.instance_timeout,
        ));
        let mut analyst = Analyst::new(engine.clone(), config.engine_threads, config.analysis_time);
        if cluster.is_shared() {
            analyst = analyst.with_claims(Claims {
                repo: repos.claims,
                instance: cluster.instance().to_string(),
                timeout: config.instance_timeout,
            });
        }
        let analyst = Arc::new(analyst);
        let signups_per_address_hour = config.signups_per_address_hour;
        let schedules = config.tournament_schedules.clone();
        let house_levels = config.house_bots.clone();
        let (clock, sweep_every) = (config.clock.clone(), config.sweep_every);
        let accuracy = Arc::new(accuracy::Accuracy::new(
            repos.accuracy,
            analyst.clone(),
            cluster.clone(),
            config.accuracy,
        ));
        let games = Games::new(
            store.clone(),
            games::GamesRepos {
                games: repos.games,
                ratings: rating_reads.clone(),
                pairs: repos.pairs,
            },
            engine.clone(),
            analyst.clone(),
            cluster.clone(),
            config,
        );
        let ratings = Arc::new(ratings::Ratings::new(repos.ratings, games.clone()));
        let chat = Arc::new(chat::Chat::new(repos.chat, games.clone(), cluster.clone()));
        let moderation = Arc::new(moderation::Moderation::new(
            repos.moderation,
            account_reads.clone(),
            chat.clone(),
            ratings.clone(),
            cluster.clone(),
        ));
        let tokens = Arc::new(tokens::Tokens::new(
            repos.tokens,
            ratings.clone(),
            cluster.clone(),
        ));
        let lobby = Arc::new(lobby::Lobby::new(
            lobby::LobbyRepos {
                lobby: repos.lobby,
                accounts: account_reads.clone(),
                ratings: rating_reads.clone(),
            },
            games.clone(),
            cluster.clone(),
            moderation.clone(),
            tokens.clone(),
        ));
        let accounts = Arc::new(accounts::Accounts::new(
            repos.accounts,
            repos.sessions,
            repos.signups,
            games.clone(),
            cluster.clone(),
            signups_per_address_hour,
        ));
        Services {
            tournaments: Arc::new(tournaments::Tournaments::new(
                store.clone(),
                repos.tournaments,
                rating_reads,
                games.clone(),
                cluster.clone(),
                analyst.clone(),
                schedules,
            )),
            house: Arc::new(house::HouseBots::new(
                accounts.clone(),
                lobby.clone(),
                tokens.clone(),
                &house_levels,
            )),
            bots: Arc::new(bots::BotStreams::new(
                lobby.clone(),
                games.clone(),
                cluster.clone(),
                chat.clone(),
            )),
            tokens,
            fair_play: Arc::new(fair_play::FairPlay::new(repos.fair_play)),
            accuracy,
            puzzles: Arc::new(puzzles::Puzzles::new(
                repos.puzzles,
                account_reads.clone(),
                engine.clone(),
            )),
            chat,
            moderation,
            clocks: Arc::new(clocks::Clocks::new(repos.clocks, games.clone())),
            lobby,
            follows: Arc::new(follows::Follows::new(
                repos.follows,
                account_reads.clone(),
                accounts.clone(),
            )),
            accounts,
            players: Arc::new(players::Players::new(
                store.clone(),
                players::PlayersRepos {
                    players: repos.players,
                    accounts: account_reads,
                    exports: repos.exports,
                },
                ratings.clone(),
                analyst.clone(),
            )),
            ratings,
            games,
            analyst,
            cluster,
            engine,
            store,
            clock,
            sweep_every,
        }
    }

    /// Registers this instance, resumes the engine moves nobody computes, and starts the timed
    /// jobs and the notices' listener until `stop` turns true. On PostgreSQL it answers once it
    /// listens to the other instances.
    pub async fn start(&self, stop: watch::Receiver<bool>) -> Result<(), ApiError> {
        // Followers first, so that no change (an engine move resumed below) goes unheard.
        self.clocks.follow(self.games.subscribe());
        self.ratings.follow(self.games.subscribe());
        self.tournaments.follow(self.games.subscribe());
        self.accuracy.follow(self.games.subscribe());
        self.lobby.follow(stop.clone());
        self.cluster.heartbeat().await.0?;
        // From here the heartbeat beats on its own, never behind the start-up's work (the puzzles
        // loaded, engine games resumed) or a slow sweep: an instance busy sweeping
        // on a slow database is alive (else the others take over its claims and stop counting
        // its admissions). It follows the services' clock, as the instances' liveness is judged
        // on it: moved on, every instance says it is alive at the new time before the clock
        // settles (never taken for dead, with its sockets' players, for a moment).
        let s = self.clone();
        let mut until = stop.clone();
        tokio::spawn(async move {
            let mut beat = s.clock.interval(Duration::from_secs(1));
            loop {
                tokio::select! {
                    _ = beat.tick() => s.cluster.heartbeat_logged().await,
                    _ = until.changed() => break,
                }
            }
        });
        if self.house.any() {
            self.house.ensure().await?;
        }
        match self.puzzles.load().await? {
            0 => {}
            n => tracing::info!("loaded {n} puzzles"),
        }
        match self.games.sweep_engines().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("resumed the engine in {n} games"),
            Err(e) => tracing::warn!("cannot resume engine games: {}", e.message),
        }
        let s = self.clone();
        let mut until = stop.clone();
        tokio::spawn(async move {
            let mut engines = tokio::time::interval(Duration::from_secs(1));
            // The sweeps follow the services' clock: moved on, it sweeps at once.
            let mut sweeps = s.clock.interval(s.sweep_every);
            let mut evict = tokio::time::interval(Duration::from_secs(10));
            loop {
                tokio::select! {
                    _ = engines.tick() => {
                        if s.store.is_up()
                            && let Err(e) = s.games.sweep_engines().await
                        {
                            tracing::warn!("engine sweep failed: {}", e.message);
                        }
                    }
                    _ = evict.tick() => { s.games.evict_idle(); }
                    _ = sweeps.tick() => {
                        if s.store.is_up() {
                            s.sweep().await;
                        }
                    }
                    _ = until.changed() => break,
                }
            }
        });
        if let Some(mut notices) = self.store.listen() {
            // Not ready before it listens: a change another instance makes meanwhile would go
            // unheard (the first notice says that it listens).
            if let Some(first) = notices.recv().await {
                self.on_notice(first).await;
            }
            let s = self.clone();
            let mut until = stop;
            tokio::spawn(async move {
                loop {
                    tokio::select! {
                        notice = notices.recv() => match notice {
                            Some(n) => s.on_notice(n).await,
                            None => break,
                        },
                        _ = until.changed() => break,
                    }
                }
            });
        }
        Ok(())
    }

    /// The jobs every instance runs each second, each one a conditional change that happens
    /// once however many instances try: flags, ratings, lapsed seeks, tournaments, accuracy.
    async fn sweep(&self) {
        if let Err(e) = self.clocks.sweep().await {
            tracing::warn!("clock sweep failed: {}", e.message);
        }
        if let Err(e) = self.ratings.sweep().await {
            tracing::warn!("rating sweep failed: {}", e.message);
        }
        if let Err(e) = self.lobby.sweep().await {
            tracing::warn!("seek sweep failed: {}", e.message);
        }
        if let Err(e) = self.tournaments.sweep().await {
            tracing::warn!("tournament sweep failed: {}", e.message);
        }
        if let Err(e) = self.accuracy.sweep().await {
            tracing::warn!("accuracy sweep failed: {}", e.message);
        }
        if self.house.any()
            && let Err(e) = self.house.tick().await
        {
            tracing::warn!("house bots: {}", e.message);
        }
    }

    /// Passes another instance's notice to the service it concerns.
    async fn on_notice(&self, notice: Notice) {
        match notice {
            n @ (Notice::Game { .. } | Notice::Presence { .. }) => self.games.on_notice(n).await,
            n @ (Notice::Lobby | Notice::User { .. } | Notice::Tournament { .. }) => {
                self.cluster.notify_local(n)
            }
            Notice::Chat { game, line } => self.chat.on_notice(&game, &line),
            Notice::Lost => self.cluster.set_synced(false),
            Notice::Back => {
                // Whatever was announced while nobody listened is read from the database, once
                // the heartbeat finds it answering again.
                for _ in 0..150 {
                    if self.store.is_up() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                self.games.resync().await;
                self.cluster.set_synced(true);
                // The live channels check what they may have missed (an ended session).
                self.cluster.notify_local(Notice::Back);
            }
        }
    }

    /// Stops: no more engine work, this instance leaves the database, the store commits what
    /// is queued and closes.
    pub async fn stop(&self) {
        self.engine.close();
        self.cluster.leave().await;
        self.store.close().await;
    }
}

/// `YYYY.MM.DD` (UTC) of a time in ms since the epoch, as records write dates.
pub fn record_date(ms: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_dates_are_utc_calendar_days() {
        assert_eq!(record_date(0), "1970.01.01");
        assert_eq!(record_date(1_767_225_600_000), "2026.01.01");
        assert_eq!(record_date(951_782_400_000), "2000.02.29");
    }
}
