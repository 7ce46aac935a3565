//! Storage: where games live between requests and across restarts.
//!
//! One interface, [`Backend`], with two implementations, each with its own migrations:
//! [`sqlite`] (the default: a file, created and migrated at start) and [`postgres`]. Reads go
//! straight to the backend. Writes go through one writer task that **groups commits**: the writes
//! that arrive while a transaction is being committed form the next transaction. Each write is
//! acknowledged only after its transaction is committed (and, with SQLite's `synchronous=FULL`,
//! on disk), so the fsync cost is shared by every move in flight instead of paid by each.
//!
//! Per game, writes are issued one at a time under the game's lock (see [`crate::hub`]), so a
//! game's writes are applied in order.

pub mod postgres;
pub mod sqlite;

use crate::auth::TokenHash;
use crate::model::{EndReason, EngineSettings, LiveGame, Mode, PairHalf, Progress, Side};
use crate::view::GameSummary;
use mabula::{Color, Game, GameResult, Move, Position, Scoring};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// A boxed future, so that [`Backend`] can be used as a trait object.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why storage failed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
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
        StoreError::Database(err.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(err: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Database(format!("migration failed: {err}"))
    }
}

/// A game as stored: the `games` row and its moves, in plain types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Game id.
    pub id: String,
    /// Creation time (ms).
    pub created_at: i64,
    /// Last change (ms).
    pub updated_at: i64,
    /// `engine`, `friend` or `local`.
    pub mode: String,
    /// `largest` or `product`.
    pub scoring: String,
    /// The deal's seed in decimal.
    pub seed: Option<String>,
    /// The starting position string.
    pub start: String,
    /// The engine's colour, `white`/`black`.
    pub engine_color: Option<String>,
    /// The engine's level.
    pub engine_level: Option<i64>,
    /// The engine's thinking time.
    pub engine_movetime_ms: Option<i64>,
    /// Token hash of white's seat.
    pub white_token: Option<Vec<u8>>,
    /// Token hash of black's seat.
    pub black_token: Option<Vec<u8>>,
    /// Hash of the friend's join code.
    pub join_code: Option<Vec<u8>>,
    /// The current position string (derived; kept for lists).
    pub position: String,
    /// Side to move, `white`/`black`, or `None` when finished (derived).
    pub to_move: Option<String>,
    /// Undo count.
    pub epoch: i64,
    /// Result token.
    pub result: String,
    /// Why it ended.
    pub end_reason: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game.
    pub rematch_id: Option<String>,
    /// The moves in notation, in order.
    pub moves: Vec<String>,
    /// Hints asked for by White.
    pub white_hints: i64,
    /// Hints asked for by Black.
    pub black_hints: i64,
    /// The game's place in a duplicate pair, `first`/`second`.
    pub pair_half: Option<String>,
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn parse_side(s: &str) -> Option<Side> {
    Color::parse(s).map(Side::from)
}

impl StoredGame {
    /// The stored form of a game.
    pub fn from_live(g: &LiveGame) -> StoredGame {
        let p = g.progress();
        StoredGame {
            id: g.id.clone(),
            created_at: g.created_at,
            updated_at: g.updated_at,
            mode: g.mode.name().into(),
            scoring: g.game.scoring().name().into(),
            seed: g.seed.map(|s| s.to_string()),
            start: g.game.start().to_string(),
            engine_color: g.engine.map(|e| side_name(e.color).into()),
            engine_level: g.engine.map(|e| i64::from(e.level)),
            engine_movetime_ms: g.engine.map(|e| i64::from(e.movetime_ms)),
            white_token: g.white_token.map(|t| t.to_vec()),
            black_token: g.black_token.map(|t| t.to_vec()),
            join_code: g.join_code.map(|t| t.to_vec()),
            position: p.position,
            to_move: p.to_move.map(|s| side_name(s).into()),
            epoch: i64::from(g.epoch),
            result: p.result,
            end_reason: g.end_reason.map(|r| r.name().into()),
            rematch_of: g.rematch_of.clone(),
            rematch_id: g.rematch_id.clone(),
            moves: g.game.moves().iter().map(|m| m.to_string()).collect(),
            white_hints: i64::from(g.hints[0]),
            black_hints: i64::from(g.hints[1]),
            pair_half: g.pair.map(|h| h.name().into()),
        }
    }

    /// Rebuilds the game, replaying its moves.
    pub fn into_live(self) -> Result<LiveGame, StoreError> {
        let id = self.id.clone();
        let corrupt = |what: String| StoreError::Corrupt {
            id: id.clone(),
            what,
        };
        let mode =
            Mode::parse(&self.mode).ok_or_else(|| corrupt(format!("mode '{}'", self.mode)))?;
        let scoring: Scoring = self
            .scoring
            .parse()
            .map_err(|_| corrupt(format!("scoring '{}'", self.scoring)))?;
        let start = Position::parse(&self.start).map_err(|e| corrupt(format!("start: {e}")))?;
        let hash = |v: Option<Vec<u8>>| -> Result<Option<TokenHash>, StoreError> {
            v.map(|b| {
                TokenHash::try_from(b.as_slice()).map_err(|_| corrupt("token hash length".into()))
            })
            .transpose()
        };
        let engine = match (
            self.engine_color,
            self.engine_level,
            self.engine_movetime_ms,
        ) {
            (Some(c), Some(l), Some(t)) => Some(EngineSettings {
                color: parse_side(&c).ok_or_else(|| corrupt(format!("engine colour '{c}'")))?,
                level: u8::try_from(l).map_err(|_| corrupt("engine level".into()))?,
                movetime_ms: u32::try_from(t).map_err(|_| corrupt("engine movetime".into()))?,
            }),
            _ => None,
        };
        let end_reason = match self.end_reason {
            Some(r) => {
                Some(EndReason::parse(&r).ok_or_else(|| corrupt(format!("end reason '{r}'")))?)
            }
            None => None,
        };
        let pair = match self.pair_half {
            Some(h) => {
                Some(PairHalf::parse(&h).ok_or_else(|| corrupt(format!("pair half '{h}'")))?)
            }
            None => None,
        };
        let result = GameResult::parse(&self.result)
            .ok_or_else(|| corrupt(format!("result '{}'", self.result)))?;
        let mut game = Game::new(start, scoring);
        for (i, text) in self.moves.iter().enumerate() {
            let mv: Move = text
                .parse()
                .map_err(|e| corrupt(format!("move {}: {e}", i + 1)))?;
            game.play(mv)
                .map_err(|e| corrupt(format!("move {}: {e}", i + 1)))?;
        }
        if matches!(
            end_reason,
            Some(EndReason::ResignedWhite | EndReason::ResignedBlack | EndReason::Declared)
        ) {
            game.declare(result);
        }
        let end_reason =
            end_reason.or_else(|| game.position().is_game_over().then_some(EndReason::NoMoves));
        Ok(LiveGame {
            id: self.id,
            created_at: self.created_at,
            updated_at: self.updated_at,
            mode,
            seed: self.seed.and_then(|s| s.parse().ok()),
            engine,
            white_token: hash(self.white_token)?,
            black_token: hash(self.black_token)?,
            join_code: hash(self.join_code)?,
            game,
            epoch: u32::try_from(self.epoch).unwrap_or(0),
            end_reason,
            rematch_id: self.rematch_id,
            hints: [
                u32::try_from(self.white_hints).unwrap_or(0),
                u32::try_from(self.black_hints).unwrap_or(0),
            ],
            rematch_of: self.rematch_of,
            undo_offer: None,
            pair,
            pair_first: None,
        })
    }
}

/// One write, as queued for the writer task.
#[derive(Clone, Debug)]
pub enum WriteOp {
    /// A new game with its moves (an import has some).
    InsertGame(Box<StoredGame>),
    /// Move number `ply + 1` was played.
    AppendMove {
        /// Game id.
        id: String,
        /// 0-based index of the move.
        ply: u32,
        /// The move's notation.
        notation: String,
        /// The game row afterwards.
        progress: Progress,
    },
    /// Moves were taken back: keep the first `keep`.
    Truncate {
        /// Game id.
        id: String,
        /// How many moves remain.
        keep: u32,
        /// The game row afterwards.
        progress: Progress,
    },
    /// The game row changed without a move (resignation).
    Update {
        /// Game id.
        id: String,
        /// The game row afterwards.
        progress: Progress,
    },
    /// A free seat is claimed; succeeds only if it is still free (the outcome says). The join
    /// code stays, so a second use can be told apart from a wrong code.
    ClaimSeat {
        /// Game id.
        id: String,
        /// The seat.
        color: Side,
        /// The new token's hash.
        token: TokenHash,
    },
    /// The rematch game of a game; succeeds only if there was none (the outcome says).
    SetRematch {
        /// The old game.
        id: String,
        /// The new game.
        rematch_id: String,
    },
}

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

/// A storage backend. Every method is one unit of work; [`Backend::apply`] runs all its writes in
/// one transaction and answers, per write, whether it changed a row.
pub trait Backend: Send + Sync + 'static {
    /// `"sqlite"` or `"postgres"`.
    fn kind(&self) -> &'static str;
    /// Applies `ops` in one transaction, all or nothing.
    fn apply<'a>(&'a self, ops: &'a [WriteOp]) -> BoxFuture<'a, Result<Vec<bool>, StoreError>>;
    /// Loads a game with its moves.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>>;
    /// Lists games, most recently changed first.
    fn list(
        &self,
        filter: ListFilter,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameSummary>, StoreError>>;
    /// Ids of unfinished engine games where the engine is to move (to resume after a restart).
    fn engine_pending(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// Closes the connections (SQLite checkpoints its log).
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// A queued write and where to send its outcome.
struct Pending {
    op: WriteOp,
    reply: oneshot::Sender<Result<bool, StoreError>>,
}

/// The most writes grouped in one transaction.
const MAX_BATCH: usize = 512;

/// The storage the server uses: a backend plus the group-commit writer in front of it.
pub struct Store {
    backend: Arc<dyn Backend>,
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
        Store {
            backend,
            queue: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(writer)),
        }
    }

    /// Opens the database at `url` (see [`open_backend`]) and migrates it.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Ok(Store::new(open_backend(url).await?))
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn kind(&self) -> &'static str {
        self.backend.kind()
    }

    /// Queues a write and waits until it is committed.
    pub async fn write(&self, op: WriteOp) -> Result<bool, StoreError> {
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
        self.backend.load(id).await
    }

    /// Lists games.
    pub async fn list(
        &self,
        filter: ListFilter,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        self.backend.list(filter, limit).await
    }

    /// Unfinished engine games waiting for the engine.
    pub async fn engine_pending(&self) -> Result<Vec<String>, StoreError> {
        self.backend.engine_pending().await
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
        match backend.apply(&ops).await {
            Ok(outcomes) => {
                for (p, outcome) in batch.drain(..).zip(outcomes) {
                    let _ = p.reply.send(Ok(outcome));
                }
            }
            Err(err) if batch.len() == 1 => {
                let _ = batch.remove(0).reply.send(Err(err));
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
/// - `sqlite://PATH`, `sqlite:PATH` or a plain file path: a SQLite file, created if missing;
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

/// Builds a [`GameSummary`] from list columns (shared by both backends).
#[allow(clippy::too_many_arguments)]
pub(crate) fn summary(
    id: String,
    mode: String,
    scoring: String,
    engine_level: Option<i64>,
    position: String,
    to_move: Option<String>,
    move_count: i64,
    result: String,
    end_reason: Option<String>,
    created_at: i64,
    updated_at: i64,
) -> GameSummary {
    let finished = result != "*" || to_move.is_none();
    GameSummary {
        id,
        mode: Mode::parse(&mode).unwrap_or(Mode::Local),
        scoring,
        engine_level: engine_level.and_then(|l| u8::try_from(l).ok()),
        status: if finished {
            "finished".into()
        } else {
            "playing".into()
        },
        result,
        end_reason: end_reason.and_then(|r| EndReason::parse(&r)),
        move_count: u32::try_from(move_count).unwrap_or(0),
        to_move: to_move.and_then(|s| parse_side(&s)),
        position,
        created_at,
        updated_at,
    }
}

/// The `to_move` column value.
pub(crate) fn to_move_text(p: &Progress) -> Option<&'static str> {
    p.to_move.map(side_name)
}

/// The `end_reason` column value.
pub(crate) fn end_reason_text(p: &Progress) -> Option<&'static str> {
    p.end_reason.map(EndReason::name)
}
