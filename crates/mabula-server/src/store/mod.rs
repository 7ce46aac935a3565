//! Storage: where games live between requests, across restarts, and between instances.
//!
//! One interface, [`Backend`], with two implementations: [`sqlite`] (the default: a file, one
//! process) and [`postgres`] (any number of server instances on one database). Both run the same
//! SQL texts, written once in [`sql`]; each has its own migrations. Rows come back as the store's
//! own types ([`rows`]).
//!
//! **The database is the truth.** A change of a game ([`RowChange`]) is applied only if the row
//! still has the version the change was computed from, and bumps it; otherwise the write answers
//! `false` and nothing changes, so a stale instance or a racing request can never fork a game.
//! On PostgreSQL every applied change is announced in the same transaction with `NOTIFY`
//! (channel [`CHANNEL`], payload: id, version, reason), which the other instances hear as
//! [`Notice`]s and answer by reloading the game.
//!
//! Reads go straight to the backend. Writes go through one writer task that **groups commits**:
//! the writes that arrive while a transaction is being committed form the next transaction. Each
//! write is acknowledged only after its transaction is committed, so the fsync cost is shared by
//! every move in flight instead of paid by each.
//!
//! Everything else is kept by **repositories, one per service** ([`Repositories`]), each a
//! struct in its own module holding its own SQL (written once and run on either database through
//! [`conn`]'s `on_db!`), made once from the connections by [`Store::repositories`] and handed to
//! the service that owns it: [`accounts`] and [`sessions`] (the accounts service), [`players`],
//! [`games`], [`clocks`], [`ratings`], [`lobby`], [`follows`], [`chat`], [`moderation`],
//! [`tournaments`], [`puzzles`], [`tokens`], [`cluster`], [`analyses`] (the analyst's claims),
//! [`accuracy`] (the accuracy service's jobs and accuracies; it reads the finished games),
//! and [`quotas`] (one per service that counts, under its own prefix). A service reads another's
//! tables through that service or through a read handle of the owner's repository
//! ([`accounts::AccountReads`], [`ratings::RatingReads`]); a transaction that spans tables (an
//! account deleted or closed, a game rated) stays whole in the repository of the service that
//! makes it.

pub mod accounts;
pub mod accuracy;
pub mod analyses;
pub mod backup;
pub mod chat;
pub mod clocks;
pub mod cluster;
pub(crate) mod conn;
pub mod fair_play;
pub mod follows;
pub mod games;
pub mod lobby;
pub mod moderation;
pub mod players;
pub mod postgres;
pub mod puzzles;
pub mod quotas;
pub mod ratings;
pub mod rows;
pub mod sessions;
mod sql;
pub mod sqlite;
pub mod tokens;
pub mod tournaments;

pub use rows::{GameRow, MovesChange, PresenceCounts, RowChange, RowState, StoredGame};

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// A boxed future, so that [`Backend`] can be used as a trait object.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The PostgreSQL notification channel of game changes and presence.
pub const CHANNEL: &str = "mabula";

/// Why storage failed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached (refused, timed out, connection lost).
    #[error("the database cannot be reached: {0}")]
    Unavailable(String),
    /// The database reported an error.
    #[error("database error: {0}")]
    Database(String),
    /// Stored data that does not make sense (a move that does not replay, an unknown mode).
    #[error("corrupt game {id}: {what}")]
    Corrupt {
        /// The game.
        id: String,
        /// What is wrong.
        what: String,
    },
    /// The store was closed (the server is stopping).
    #[error("the store is closed")]
    Closed,
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> StoreError {
        match err {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::WorkerCrashed => StoreError::Unavailable(err.to_string()),
            sqlx::Error::Database(ref e)
                if e.code().is_some_and(|c| {
                    // PostgreSQL: the server is shutting down, or cannot accept connections.
                    c.starts_with("57P") || c.starts_with("08")
                }) =>
            {
                StoreError::Unavailable(err.to_string())
            }
            other => StoreError::Database(other.to_string()),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(err: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Database(format!("migration failed: {err}"))
    }
}

/// The client address an engine game is counted against, and the cap its insert checks: the
/// address's unfinished engine games changed since `active_since` (ms) must be fewer than
/// `most`. Counted in the insert's own statement, so the cap holds for all instances together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCap {
    /// The client address (its key: an IPv6 address by its /64).
    pub address: String,
    /// The most unfinished engine games it may have (`u32::MAX`: counted, not capped).
    pub most: u32,
    /// Games untouched since before this (ms) do not count: an abandoned game does not lock
    /// its address out.
    pub active_since: i64,
}

/// One write, as queued for the writer task.
#[derive(Clone, Debug)]
pub enum WriteOp {
    /// A new game with its moves (an import has some) and its derived columns; an engine game
    /// with the client address it counts against, inserted only within that address's cap.
    Insert(Box<StoredGame>, Box<RowState>, Option<EngineCap>),
    /// A change of a game, applied only if its version is still the expected one.
    Change(Box<RowChange>),
}

/// A game off the clock that nobody moved in for this long (ms) is no longer listed as live.
pub const LIVE_IDLE_MS: i64 = 10 * 60 * 1000;

/// An engine game whose player has not moved for this long (ms) after it began is taken for
/// abandoned and not listed as live (a page opened and left); it is again once they move.
pub const ENGINE_UNSTARTED_MS: i64 = 2 * 60 * 1000;

/// Which games a list shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ListFilter {
    /// All games.
    Recent,
    /// Games still playing.
    Live,
    /// Finished games.
    Finished,
}

/// What another instance announced (PostgreSQL only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Game `id` now has version `version`, after a change described by `reason`.
    Game {
        /// The game.
        id: String,
        /// Its version after the change.
        version: u64,
        /// One word: `move`, `undo`, `end`, `joined`, ...
        reason: String,
    },
    /// The open WebSockets of game `id` changed on some instance.
    Presence {
        /// The game.
        id: String,
    },
    /// The lobby's seeks changed.
    Lobby,
    /// Something for the player with account `key`: `challenges` (theirs changed) or
    /// `game ID` (a game of theirs began).
    User {
        /// The account.
        key: String,
        /// What happened.
        what: String,
    },
    /// A chat line was said in game `game`: `line` is the line as its sockets read it (JSON).
    Chat {
        /// The game.
        game: String,
        /// The line's JSON.
        line: String,
    },
    /// Tournament `id` changed (issue 37): its live channels read it again.
    Tournament {
        /// The tournament.
        id: String,
    },
    /// The listening connection was lost: notices may have been missed until [`Notice::Back`].
    Lost,
    /// Listening again: everything in memory must be checked against the database.
    Back,
}

impl Notice {
    /// Reads a notification payload: `g ID VERSION REASON`, `p ID`, `l`, `u KEY WHAT`,
    /// `t ID` (a tournament) or `c ID LINE` (a chat line).
    pub fn parse(payload: &str) -> Option<Notice> {
        if let Some(rest) = payload.strip_prefix("c ") {
            let (game, line) = rest.split_once(' ')?;
            return Some(Notice::Chat {
                game: game.to_string(),
                line: line.to_string(),
            });
        }
        let mut words = payload.split(' ');
        match words.next()? {
            "g" => Some(Notice::Game {
                id: words.next()?.to_string(),
                version: words.next()?.parse().ok()?,
                reason: words.next().unwrap_or("update").to_string(),
            }),
            "p" => Some(Notice::Presence {
                id: words.next()?.to_string(),
            }),
            "l" => Some(Notice::Lobby),
            "t" => Some(Notice::Tournament {
                id: words.next()?.to_string(),
            }),
            "u" => Some(Notice::User {
                key: words.next()?.to_string(),
                what: words.collect::<Vec<_>>().join(" "),
            }),
            _ => None,
        }
    }

    /// The payload of a game change.
    pub fn game_payload(id: &str, version: u64, reason: &str) -> String {
        format!("g {id} {version} {reason}")
    }
}

/// An engine move waiting for an instance: the game and who had claimed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orphan {
    /// The game.
    pub id: String,
    /// The instance that had claimed the move (now dead), if any.
    pub owner: Option<String>,
}

/// A storage backend. Every method is one unit of work; [`Backend::apply`] runs all its writes in
/// one transaction and answers, per write, whether it was applied.
pub trait Backend: Send + Sync + 'static {
    /// `"sqlite"` or `"postgres"`.
    fn kind(&self) -> &'static str;
    /// Applies `ops` in one transaction, all or nothing; a change whose version is no longer the
    /// expected one answers `false` and leaves its game alone.
    fn apply<'a>(&'a self, ops: &'a [WriteOp]) -> BoxFuture<'a, Result<Vec<bool>, StoreError>>;
    /// Loads a game with its moves.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>>;
    /// The stored version of a game.
    fn version<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<u64>, StoreError>>;
    /// Lists games, most recently changed first.
    fn list(
        &self,
        filter: ListFilter,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameRow>, StoreError>>;
    /// Unfinished engine games whose engine is to move and whose claim is free or held by an
    /// instance not heard from since `alive_since` (ms).
    fn engine_orphans(
        &self,
        alive_since: i64,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<Orphan>, StoreError>>;
    /// Claims the engine move of an orphan for `me`, if nobody claimed it meanwhile.
    fn claim_engine<'a>(
        &'a self,
        orphan: &'a Orphan,
        me: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Says that instance `me` (started at `started`) is alive at `now`, and forgets instances
    /// not heard from since `dead_before` with their presence rows.
    fn heartbeat<'a>(
        &'a self,
        me: &'a str,
        started: i64,
        now: i64,
        dead_before: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Removes instance `me` (it stops): its presence and its engine claims go with it.
    fn leave<'a>(&'a self, me: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Stores `me`'s open WebSockets of game `id` (when `mine` is given; announcing the change
    /// to the other instances) and answers the totals over the instances alive since
    /// `alive_since`.
    fn presence<'a>(
        &'a self,
        me: &'a str,
        id: &'a str,
        mine: Option<PresenceCounts>,
        alive_since: i64,
    ) -> BoxFuture<'a, Result<PresenceCounts, StoreError>>;
    /// Whether the database answers.
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>>;
    /// The notices of the other instances, for one listener (PostgreSQL; `None` for SQLite,
    /// where one process is all there is).
    fn listen(&self) -> Option<mpsc::Receiver<Notice>>;
    /// Closes the connections (SQLite checkpoints its log).
    fn close(&self) -> BoxFuture<'_, ()>;
    /// The connections, for the [`Repositories`], which the store puts behind its gate.
    fn pools(&self) -> conn::Pools;
}

/// A queued write and where to send its outcome.
struct Pending {
    op: WriteOp,
    reply: oneshot::Sender<Result<bool, StoreError>>,
}

/// The most writes grouped in one transaction.
const MAX_BATCH: usize = 512;

/// The availability gate in front of every query, shared by the game rows and every
/// repository: while the database is known to be away, a query is answered
/// [`StoreError::Unavailable`] at once instead of waiting for a connection, and any query that
/// finds it away closes the gate for all. The heartbeat ([`Store::probe`]) asks every second and
/// opens it again.
#[derive(Clone, Debug)]
pub struct Gate(Arc<AtomicBool>);

impl Gate {
    fn new() -> Gate {
        Gate(Arc::new(AtomicBool::new(true)))
    }

    /// Answers `Unavailable` at once while the database is known to be away.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        if self.0.load(Ordering::Acquire) {
            Ok(())
        } else {
            Err(StoreError::Unavailable(
                "the database did not answer the last probe".into(),
            ))
        }
    }

    /// Notes whether a query found the database.
    pub(crate) fn note<T>(&self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(StoreError::Unavailable(_)) = &r {
            self.0.store(false, Ordering::Release);
        }
        r
    }

    /// Whether the database answered the last time it was asked.
    pub fn is_up(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// The repositories, one per service (or two, for the accounts: the accounts and their
/// sessions), each over the same connections and behind the store's [`Gate`]; made once
/// ([`Store::repositories`]) and each handed to the service that owns it
/// ([`Services::new`](crate::services::Services::new)). A service reads another's tables only
/// through that service, or through a read handle its owner hands out (such as
/// [`ratings::RatingReads`]).
pub struct Repositories {
    /// The accounts service's: accounts, failed log-ins, trusted devices, retired names.
    pub accounts: accounts::AccountsRepo,
    /// The accounts service's second: sessions.
    pub sessions: sessions::SessionsRepo,
    /// The accounts service's quotas (`s:`, sign-ups per address).
    pub signups: quotas::Quotas,
    /// The players service's (read only): tallies, histories, the games where it is one's turn.
    pub players: players::PlayersRepo,
    /// The players service's quotas (`x:`, exports per account).
    pub exports: quotas::Quotas,
    /// The games service's: absences and signs of life of seats, guest games claimed, flagged
    /// pairs.
    pub games: games::GamesRepo,
    /// The games service's quotas (`p:`, rated games per pair of accounts and day).
    pub pairs: quotas::Quotas,
    /// The clocks service's (read only): the games whose time ran out.
    pub clocks: clocks::ClocksRepo,
    /// The ratings service's: ratings, their history, the rating of games.
    pub ratings: ratings::RatingsRepo,
    /// The lobby's: seeks and challenges.
    pub lobby: lobby::LobbyRepo,
    /// The follows service's: follows, and who is online.
    pub follows: follows::FollowsRepo,
    /// The chat's: chat lines.
    pub chat: chat::ChatRepo,
    /// The moderation service's: blocks, reports, the moderators' flags on accounts.
    pub moderation: moderation::ModerationRepo,
    /// The tournaments service's.
    pub tournaments: tournaments::TournamentsRepo,
    /// The puzzles service's.
    pub puzzles: puzzles::PuzzlesRepo,
    /// The tokens service's: tokens, bot accounts, house bots' levels.
    pub tokens: tokens::TokensRepo,
    /// The cluster service's: announcements to the other instances.
    pub cluster: cluster::ClusterRepo,
    /// The analyst's claims (shared databases only).
    pub claims: analyses::ClaimsRepo,
    /// The fair play service's (read only): the positions live rated games keep from the engine.
    pub fair_play: fair_play::FairPlayRepo,
    /// The accuracy service's: its jobs and the players' accuracies (issue 51).
    pub accuracy: accuracy::AccuracyRepo,
}

/// The storage the server uses: a backend, the group-commit writer in front of it (the game
/// rows), and the connections its [`Repositories`] run on, all behind one [`Gate`].
pub struct Store {
    backend: Arc<dyn Backend>,
    /// The database answered the last time it was asked.
    gate: Gate,
    /// The writer's queue; `None` once closed.
    queue: Mutex<Option<mpsc::Sender<Pending>>>,
    /// The writer task, awaited on close so every queued write is committed.
    writer: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Store {
    /// A store over `backend`; starts the writer task (call inside a Tokio runtime).
    pub fn new(backend: Arc<dyn Backend>) -> Store {
        let (tx, rx) = mpsc::channel(4096);
        let writer = tokio::spawn(write_loop(backend.clone(), rx));
        let gate = Gate::new();
        Store {
            gate,
            backend,
            queue: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(writer)),
        }
    }

    /// Opens the database at `url` (see [`open_backend`]) and migrates it.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Ok(Store::new(open_backend(url).await?))
    }

    /// The backend, for the methods that need no writer.
    pub fn backend(&self) -> &dyn Backend {
        &*self.backend
    }

    /// The repositories over this store's connections, behind its gate: call once, and hand
    /// each to the service that owns it (the command line's administration uses a few).
    pub fn repositories(&self) -> Repositories {
        let conn = conn::Conn::new(self.backend.pools(), self.gate.clone());
        Repositories {
            accounts: accounts::AccountsRepo::new(conn.clone()),
            sessions: sessions::SessionsRepo::new(conn.clone()),
            signups: quotas::Quotas::new(conn.clone(), "s:"),
            players: players::PlayersRepo::new(conn.clone()),
            exports: quotas::Quotas::new(conn.clone(), "x:"),
            games: games::GamesRepo::new(conn.clone()),
            pairs: quotas::Quotas::new(conn.clone(), "p:"),
            clocks: clocks::ClocksRepo::new(conn.clone()),
            ratings: ratings::RatingsRepo::new(conn.clone()),
            lobby: lobby::LobbyRepo::new(conn.clone()),
            follows: follows::FollowsRepo::new(conn.clone()),
            chat: chat::ChatRepo::new(conn.clone()),
            moderation: moderation::ModerationRepo::new(conn.clone()),
            cluster: cluster::ClusterRepo::new(conn.clone()),
            tournaments: tournaments::TournamentsRepo::new(conn.clone()),
            puzzles: puzzles::PuzzlesRepo::new(conn.clone()),
            tokens: tokens::TokensRepo::new(conn.clone()),
            fair_play: fair_play::FairPlayRepo::new(conn.clone()),
            accuracy: accuracy::AccuracyRepo::new(conn.clone()),
            claims: analyses::ClaimsRepo::new(conn),
        }
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn kind(&self) -> &'static str {
        self.backend.kind()
    }

    /// The state of each pool of connections (`writer` and `reader` on SQLite, `main` on
    /// PostgreSQL), for the metrics.
    pub fn pool_readings(&self) -> Vec<crate::metrics::PoolReading> {
        use crate::metrics::PoolReading;
        match self.backend.pools() {
            conn::Pools::Sqlite { writer, reader } => vec![
                PoolReading::of("writer", &writer),
                PoolReading::of("reader", &reader),
            ],
            conn::Pools::Postgres(pool) => vec![PoolReading::of("main", &pool)],
        }
    }

    fn gate(&self) -> Result<(), StoreError> {
        self.gate.check()
    }

    fn note<T>(&self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        self.gate.note(r)
    }

    /// Runs `probe` on the database whatever its last state, and notes whether it answered
    /// (the heartbeat calls this, so the service comes back by itself). Answers whether the
    /// database's state changed.
    async fn probe<T>(
        &self,
        probe: impl Future<Output = Result<T, StoreError>>,
    ) -> (Result<T, StoreError>, bool) {
        let r = probe.await;
        let up = !matches!(r, Err(StoreError::Unavailable(_)));
        let was = self.gate.0.swap(up, Ordering::AcqRel);
        (r, was != up)
    }

    /// Whether the database answered the last time it was asked.
    pub fn is_up(&self) -> bool {
        self.gate.is_up()
    }

    /// The stored version of a game.
    pub async fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        self.gate()?;
        let _timer = crate::metrics::query("version");
        self.note(self.backend.version(id).await)
    }

    /// Queues a write and waits until it is committed; `false`: a change found its game at
    /// another version and was not applied.
    pub async fn write(&self, op: WriteOp) -> Result<bool, StoreError> {
        self.gate()?;
        self.note(self.queue_write(op).await)
    }

    async fn queue_write(&self, op: WriteOp) -> Result<bool, StoreError> {
        let queue = self
            .queue
            .lock()
            .map_err(|_| StoreError::Closed)?
            .clone()
            .ok_or(StoreError::Closed)?;
        let (reply, answer) = oneshot::channel();
        queue
            .send(Pending { op, reply })
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// Loads a game.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.gate()?;
        let _timer = crate::metrics::query("load");
        self.note(self.backend.load(id).await)
    }

    /// Lists games.
    pub async fn list(&self, filter: ListFilter, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        self.gate()?;
        let _timer = crate::metrics::query("list");
        self.note(self.backend.list(filter, limit).await)
    }

    /// Says that instance `me` (started at `started`) is alive at `now` and forgets instances
    /// not heard from since `dead_before`, whatever the gate says (this is the probe that opens
    /// it again): the result, and whether the database came or went since it was last asked.
    pub async fn heartbeat(
        &self,
        me: &str,
        started: i64,
        now: i64,
        dead_before: i64,
    ) -> (Result<(), StoreError>, bool) {
        self.probe(self.backend.heartbeat(me, started, now, dead_before))
            .await
    }

    /// Whether the database answers, whatever the gate says: the result, and whether the
    /// database came or went since it was last asked.
    pub async fn ping(&self) -> (Result<(), StoreError>, bool) {
        self.probe(self.backend.ping()).await
    }

    /// The notices of the other instances, for one listener (PostgreSQL; `None` for SQLite).
    pub fn listen(&self) -> Option<mpsc::Receiver<Notice>> {
        self.backend.listen()
    }

    /// Unfinished engine games whose engine move waits for an instance not heard from since
    /// `alive_since` (or for none).
    pub async fn engine_orphans(
        &self,
        alive_since: i64,
        limit: u32,
    ) -> Result<Vec<Orphan>, StoreError> {
        self.gate()?;
        self.note(self.backend.engine_orphans(alive_since, limit).await)
    }

    /// Claims an orphan's engine move for instance `me`; `false` if another was quicker.
    pub async fn claim_engine(&self, orphan: &Orphan, me: &str) -> Result<bool, StoreError> {
        self.gate()?;
        self.note(self.backend.claim_engine(orphan, me).await)
    }

    /// Stores `me`'s open WebSockets of game `id` (when given) and answers the totals over the
    /// instances alive since `alive_since`.
    pub async fn presence(
        &self,
        me: &str,
        id: &str,
        mine: Option<PresenceCounts>,
        alive_since: i64,
    ) -> Result<PresenceCounts, StoreError> {
        self.gate()?;
        self.note(self.backend.presence(me, id, mine, alive_since).await)
    }

    /// Removes instance `me` from the database (it stops).
    pub async fn leave(&self, me: &str) -> Result<(), StoreError> {
        self.gate()?;
        self.note(self.backend.leave(me).await)
    }

    /// Stops taking writes, commits the queued ones, closes the database.
    pub async fn close(&self) {
        let queue = self.queue.lock().ok().and_then(|mut q| q.take());
        drop(queue);
        let writer = self.writer.lock().ok().and_then(|mut w| w.take());
        if let Some(writer) = writer {
            let _ = writer.await;
        }
        self.backend.close().await;
    }
}

/// The writer task: takes every queued write, commits them together, answers each.
async fn write_loop(backend: Arc<dyn Backend>, mut rx: mpsc::Receiver<Pending>) {
    let mut batch = Vec::new();
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        let ops: Vec<WriteOp> = batch.iter().map(|p| p.op.clone()).collect();
        let _timer = crate::metrics::query("write");
        match backend.apply(&ops).await {
            Ok(outcomes) => {
                for (p, outcome) in batch.drain(..).zip(outcomes) {
                    let _ = p.reply.send(Ok(outcome));
                }
            }
            Err(err) if batch.len() == 1 || matches!(err, StoreError::Unavailable(_)) => {
                for p in batch.drain(..) {
                    let _ = p.reply.send(Err(err.clone()));
                }
            }
            Err(_) => {
                // One bad write must not fail the others: retry each alone.
                for p in batch.drain(..) {
                    let outcome = backend
                        .apply(std::slice::from_ref(&p.op))
                        .await
                        .map(|o| o[0]);
                    let _ = p.reply.send(outcome);
                }
            }
        }
    }
}

/// Opens (creating and migrating) the database at `url`:
///
/// - `postgres://…` or `postgresql://…`: PostgreSQL;
/// - `sqlite://PATH`, `sqlite:PATH` or a plain file path: a SQLite file, created if missing, and
///   locked for this process (a second server on the same file is refused);
/// - `sqlite::memory:`: a SQLite database in memory (gone when the server stops).
pub async fn open_backend(url: &str) -> Result<Arc<dyn Backend>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(postgres::Postgres::open(url).await?))
    } else {
        Ok(Arc::new(sqlite::Sqlite::open(url).await?))
    }
}

/// The default database: `mabula.sqlite3` in the user's data directory (created if missing).
pub fn default_database_path() -> std::path::PathBuf {
    let base = dirs::data_dir().unwrap_or_else(|| std::path::PathBuf::from("."));
    base.join("mabula").join("mabula.sqlite3")
}
