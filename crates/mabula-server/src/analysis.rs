//! The analysis service behind the analysis board: the engine's view of a position, computed on
//! the engine pool with [`mabula_engine::annotate`] (the code `mabula analyze` runs too), within a
//! bounded time per position, and cached per position and scoring mode so that no position is
//! analysed twice.
//!
//! A position's analysis is a [`watch`] channel: the first request starts the work, which
//! publishes a report after every step; later requests for the same position (while it runs or
//! after) subscribe to the same channel, and are counted as cache hits. The JSON shapes the API
//! answers with ([`PositionAnalysis`], [`GameAnalysis`]) are the crate `mabula-api`'s; the
//! functions that fill them from the engine's reports are here.
//!
//! # Bounds and priorities
//!
//! The analysis board's requests ([`Analyst::subscribe`], [`Analyst::analyse`]) are queued in the
//! engine pool's board lane under the client's key, within [`AnalysisBounds`]: a client may have
//! at most `per_client` analyses queued or running, and at most `queued` analyses may wait in all.
//! A request beyond them is refused at once: `429 rate_limited` past the client's share, `503
//! busy` when the queue is full, both with a `Retry-After`. A request that needs no new work (the
//! position is cached, or being analysed already) is always answered.
//!
//! Hints ([`Analyst::hint`]) go to the pool's play lane, before any analysis-board work, and are
//! not bounded here (the games service gives a hint only on the player's turn). A hint for a position
//! whose analysis is still waiting in the board lane moves that analysis to the play lane.

use crate::engine::{Bounds, EnginePool, Refused, Slot, Ticket, Work};
use crate::error::{ApiError, ErrorCode};
use crate::store::analyses;
use crate::store::analyses::ClaimsRepo;
use mabula::{Color, Move, Position, Scoring};
use mabula_engine::annotate::{self, Deepening, Judgement, Note, Report, Settings, Verdict};
use mabula_engine::{MoveAnalysis, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

pub use mabula_api::analysis::{
    Counts, GameAnalysis, LineView, NoteView, PositionAnalysis, SideCounts, ValueView, VerdictView,
};

/// The most positions kept in the cache; past it, finished analyses are dropped.
const CACHE_LIMIT: usize = 50_000;

/// Where a position's analysis stands.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// The latest report, once the first step is over.
    pub report: Option<Arc<Report>>,
    /// No further report follows.
    pub done: bool,
    /// The work could not run (the pool closed, or it panicked).
    pub failed: bool,
}

/// How much analysis-board work is accepted (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AnalysisBounds {
    /// The most analyses one client may have queued or running.
    pub per_client: usize,
    /// The most analyses waiting for the pool, from all clients.
    pub queued: usize,
}

impl AnalysisBounds {
    /// Analyses one client may have queued or running by default: enough for a board page and
    /// a game's analysis side by side.
    pub const PER_CLIENT: usize = 4;
    /// Analyses allowed to wait per engine thread by default: a full queue drains in about this
    /// many analysis times.
    pub const QUEUED_PER_THREAD: usize = 8;

    /// The default bounds for a pool of `threads`.
    pub fn for_threads(threads: usize) -> AnalysisBounds {
        AnalysisBounds {
            per_client: AnalysisBounds::PER_CLIENT,
            queued: AnalysisBounds::QUEUED_PER_THREAD * threads.max(1),
        }
    }
}

type Key = (String, Scoring);

/// A position's analysis in the cache.
struct Entry {
    /// Its reports.
    tx: watch::Sender<Snapshot>,
    /// A hint's key, sent while the analysis waits in the board lane: it moves to the play lane.
    hurry: watch::Sender<Option<String>>,
}

/// The analysis service.
pub struct Analyst {
    /// Shared with engine moves, which it yields to.
    pool: EnginePool,
    /// The time bound, and one search thread per analysis (the pool's slots are the parallelism).
    settings: Settings,
    /// What the analysis board may queue, so that a flood is refused instead of waiting for ever.
    bounds: AnalysisBounds,
    /// Every position asked for, finished or not, so that none is analysed twice; a std mutex,
    /// never held across an await.
    cache: Mutex<HashMap<Key, Entry>>,
    /// Requests answered by an entry already there (`/api/analysis/stats`).
    hits: AtomicU64,
    /// Analyses that got a slot (`/api/analysis/stats`).
    runs: AtomicU64,
    /// Where analyses are claimed when instances share a database (PostgreSQL).
    claims: Option<Claims>,
}

/// The time a game's quick pass ([`Analyst::quick_pass`]) spends on a position: a thirtieth of
/// the full analysis, within these bounds.
const QUICK_MIN: Duration = Duration::from_millis(10);
const QUICK_MAX: Duration = Duration::from_millis(50);

/// One position's report in a game's quick pass: its index in the game and the report.
pub type QuickReport = (usize, Arc<Report>);

/// The shared database of several instances, where each position's analysis is claimed by one.
pub struct Claims {
    /// The claims' repository.
    pub repo: ClaimsRepo,
    /// This instance's id (its row in `instances`).
    pub instance: String,
    /// An instance not heard from for this long is taken for dead and its claims taken over.
    pub timeout: Duration,
}

/// A client's analysis request in progress, counted in the shared database while it lives (see
/// [`Analyst::admit`]); closed when dropped.
pub struct Admission {
    open: Option<(ClaimsRepo, String, Duration)>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        let Some((repo, id, timeout)) = self.open.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let alive_since = crate::model::now_ms() - timeout.as_millis() as i64;
            if let Err(e) = repo.close_request(&id, alive_since).await {
                // It stops counting after ten minutes in any case.
                tracing::warn!("analysis request {id} not closed: {e}");
            }
        });
    }
}

/// How often an instance that waits for another's analysis looks at the database.
const CLAIM_POLL: Duration = Duration::from_millis(250);

impl Analyst {
    /// A service running on `pool`, spending at most about `time` on a position, with the
    /// default bounds for `threads` engine threads.
    pub fn new(pool: EnginePool, threads: usize, time: Duration) -> Analyst {
        Analyst::with_bounds(pool, time, AnalysisBounds::for_threads(threads))
    }

    /// A service running on `pool`, spending at most about `time` on a position, accepting work
    /// within `bounds`.
    pub fn with_bounds(pool: EnginePool, time: Duration, bounds: AnalysisBounds) -> Analyst {
        Analyst {
            pool,
            settings: Settings {
                time,
                threads: 1,
                ..Settings::default()
            },
            bounds,
            cache: Mutex::new(HashMap::new()),
            hits: AtomicU64::new(0),
            runs: AtomicU64::new(0),
            claims: None,
        }
    }

    /// The same service claiming each analysis in `claims` (several instances, one database):
    /// one instance computes a position, the others wait for its report.
    pub fn with_claims(self, claims: Claims) -> Analyst {
        Analyst {
            claims: Some(claims),
            ..self
        }
    }

    /// The bounds on analysis-board work.
    pub fn bounds(&self) -> AnalysisBounds {
        self.bounds
    }

    /// Admits a request of `client` that may start analysis-board work, for as long as the
    /// answer is held. With instances sharing a database, at most `per_client` requests of a
    /// client are in progress on all of them together (`429 rate_limited` beyond: issue 51 saw
    /// the bound hold per instance only); alone, the engine pool's bound per client is the whole
    /// bound and nothing is stored.
    pub async fn admit(&self, client: &str) -> Result<Admission, ApiError> {
        let Some(claims) = &self.claims else {
            return Ok(Admission { open: None });
        };
        let id = crate::auth::new_secret(8);
        let now = crate::model::now_ms();
        let alive_since = now - claims.timeout.as_millis() as i64;
        let most = self.bounds.per_client;
        let opened = claims
            .repo
            .open_request(&id, client, &claims.instance, now, alive_since, most as u32)
            .await?;
        if !opened {
            let mut e = ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "{most} analyses of yours are in progress already, on this site's servers \
                     together: wait for one to finish"
                ),
            );
            e.retry_after = Some(self.settings.time.as_secs_f64().ceil().max(1.0) as u64);
            return Err(e);
        }
        Ok(Admission {
            open: Some((claims.repo.clone(), id, claims.timeout)),
        })
    }

    /// The finished analysis of `pos`, if it is in the cache (never starts one).
    pub fn peek(&self, pos: &Position, scoring: Scoring) -> Option<Arc<Report>> {
        let cache = self.cache.lock().ok()?;
        let snapshot = cache.get(&(pos.to_string(), scoring))?.tx.borrow().clone();
        if snapshot.done && !snapshot.failed {
            snapshot.report
        } else {
            None
        }
    }

    /// Requests answered from the cache (a position analysed or being analysed already).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Analyses run (not counting those dropped before they started).
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Follows the analysis of `pos` for the analysis board, starting it for `client` unless it is
    /// cached; the flag says whether it was. Refused (`rate_limited`, `busy`) when it would start
    /// work beyond the bounds.
    pub fn subscribe(
        self: &Arc<Self>,
        pos: Position,
        scoring: Scoring,
        client: &str,
    ) -> Result<(watch::Receiver<Snapshot>, bool), ApiError> {
        self.follow(pos, scoring, Work::Analysis, client)
    }

    /// The finished analysis of `pos` for the analysis board, and whether it came from the cache.
    pub async fn analyse(
        self: &Arc<Self>,
        pos: Position,
        scoring: Scoring,
        client: &str,
    ) -> Result<(Arc<Report>, bool), ApiError> {
        let (rx, cached) = self.subscribe(pos, scoring, client)?;
        Ok((finished(rx).await?, cached))
    }

    /// A game's quick pass: a shallow analysis of every position of `positions` (a thirtieth of
    /// the full time each, at most [`QUICK_MAX`]), one after another in one job of the board lane
    /// queued under `client` (so within the client's bounds, and counted as one analysis), sent
    /// on the answered channel as each is done. A position whose full analysis is cached is sent
    /// as that. Nothing of it is cached or stored: the full analyses that follow are. Refused like
    /// [`Analyst::subscribe`]; the job stops between positions once the receiver is dropped.
    pub fn quick_pass(
        self: &Arc<Self>,
        positions: Vec<Position>,
        scoring: Scoring,
        client: &str,
    ) -> Result<tokio::sync::mpsc::UnboundedReceiver<QuickReport>, ApiError> {
        let bounds = Bounds {
            per_key: self.bounds.per_client,
            queued: self.bounds.queued,
        };
        let ticket = self
            .pool
            .queue(Work::Analysis, client, Some(bounds))
            .map_err(|r| self.refusal(r))?;
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let settings = Settings {
            time: (self.settings.time / 30).clamp(QUICK_MIN, QUICK_MAX),
            ..self.settings.clone()
        };
        let cached: Vec<Option<Arc<Report>>> =
            positions.iter().map(|p| self.peek(p, scoring)).collect();
        tokio::spawn(async move {
            let slot = tokio::select! {
                slot = ticket => slot,
                () = tx.closed() => return,
            };
            let Some(slot) = slot else { return };
            slot.run(move || {
                let mut deepening = Deepening::new(scoring, &settings);
                for (index, (pos, cached)) in positions.iter().zip(cached).enumerate() {
                    if tx.is_closed() {
                        return;
                    }
                    let report = cached.unwrap_or_else(|| Arc::new(deepening.run(pos, |_| {})));
                    if tx.send((index, report)).is_err() {
                        return;
                    }
                }
            })
            .await;
        });
        Ok(rx)
    }

    /// A finished game's judging pass (its players' accuracy, issue 51): every position of
    /// `positions` analysed under `settings` (a budget of work with one thread: see
    /// [`judging_settings`]), each by a search of its own so that the reports are reproducible
    /// (nothing cached is used and nothing is cached), in one job of the board lane queued under
    /// `key` within the analysis board's bounds. Refused like [`Analyst::subscribe`] when the
    /// engine is busy (the caller tries again later); `stopping` if the pool closed.
    pub async fn judge(
        &self,
        positions: Vec<Position>,
        scoring: Scoring,
        settings: Settings,
        key: &str,
    ) -> Result<Vec<Report>, ApiError> {
        let bounds = Bounds {
            per_key: self.bounds.per_client,
            queued: self.bounds.queued,
        };
        let ticket = self
            .pool
            .queue(Work::Analysis, key, Some(bounds))
            .map_err(|r| self.refusal(r))?;
        let slot = ticket.await.ok_or_else(stopping)?;
        self.runs.fetch_add(1, Ordering::Relaxed);
        slot.run(move || {
            positions
                .iter()
                .map(|pos| Deepening::new(scoring, &settings).run(pos, |_| {}))
                .collect()
        })
        .await
        .ok_or_else(stopping)
    }

    /// The finished analysis of `pos` for a hint, computed before any analysis-board work and
    /// queued under `key` (the client, or the game's id); never refused for being busy.
    pub async fn hint(
        self: &Arc<Self>,
        pos: Position,
        scoring: Scoring,
        key: &str,
    ) -> Result<(Arc<Report>, bool), ApiError> {
        let (rx, cached) = self.follow(pos, scoring, Work::Hint, key)?;
        Ok((finished(rx).await?, cached))
    }

    /// Subscribes to the analysis of `pos`, or starts it as `work` queued under `key`.
    fn follow(
        self: &Arc<Self>,
        pos: Position,
        scoring: Scoring,
        work: Work,
        key: &str,
    ) -> Result<(watch::Receiver<Snapshot>, bool), ApiError> {
        let cache_key = (pos.to_string(), scoring);
        let mut cache = self.cache.lock().map_err(ApiError::internal)?;
        if let Some(entry) = cache.get(&cache_key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            let rx = entry.tx.subscribe();
            if work != Work::Analysis {
                // Ignored once the analysis has its slot.
                entry.hurry.send_replace(Some(key.to_string()));
            }
            return Ok((rx, true));
        }
        let bounds = (work == Work::Analysis).then_some(Bounds {
            per_key: self.bounds.per_client,
            queued: self.bounds.queued,
        });
        let ticket = self
            .pool
            .queue(work, key, bounds)
            .map_err(|r| self.refusal(r))?;
        if cache.len() >= CACHE_LIMIT {
            cache.retain(|_, e| !e.tx.borrow().done);
        }
        let (tx, rx) = watch::channel(Snapshot::default());
        let (hurry, hurried) = watch::channel(None);
        cache.insert(
            cache_key.clone(),
            Entry {
                tx: tx.clone(),
                hurry,
            },
        );
        drop(cache);
        let me = Arc::clone(self);
        let hurried = (work == Work::Analysis).then_some(hurried);
        let queue = (work, key.to_string());
        tokio::spawn(async move { me.run(cache_key, pos, queue, ticket, hurried, tx).await });
        Ok((rx, false))
    }

    /// Waits for the analysis's turn (queued as `queue`: the work and its key), runs it, and
    /// publishes its reports on `tx`. With claims, the analysis is computed here only if this
    /// instance holds its claim; otherwise the slot goes back to the pool and the other
    /// instance's report is awaited (and the claim taken over if that instance dies).
    async fn run(
        self: Arc<Self>,
        key: Key,
        pos: Position,
        queue: (Work, String),
        ticket: Ticket,
        hurried: Option<watch::Receiver<Option<String>>>,
        tx: watch::Sender<Snapshot>,
    ) {
        let give_up = |tx: &watch::Sender<Snapshot>| {
            // Everyone who asked has gone while it waited (then it is forgotten already), or the
            // pool closed: forget it, so that a later request starts afresh.
            self.forget(&key, tx);
            tx.send_modify(|s| {
                s.done = true;
                s.failed = true;
            });
        };
        let Some(mut slot) = self.turn(&key, ticket, hurried, &tx).await else {
            return give_up(&tx);
        };
        if let Some(claims) = &self.claims {
            loop {
                match self.claim(claims, &key).await {
                    Some(Claim::Theirs) => {}
                    Some(Claim::Done(report)) => return publish_final(&tx, report),
                    Some(Claim::Mine) | None => break,
                }
                drop(slot);
                if let Some(report) = self.await_theirs(claims, &key, &tx).await {
                    return publish_final(&tx, report);
                }
                if tx.receiver_count() == 0 {
                    return give_up(&tx);
                }
                // Their instance died: queue again, and claim it.
                let Ok(ticket) = self.pool.queue(queue.0, &queue.1, None) else {
                    return give_up(&tx);
                };
                match self.turn(&key, ticket, None, &tx).await {
                    Some(s) => slot = s,
                    None => return give_up(&tx),
                }
            }
        }
        self.runs.fetch_add(1, Ordering::Relaxed);
        let settings = self.settings.clone();
        let scoring = key.1;
        let publish = tx.clone();
        let ran = slot
            .run(move || {
                Deepening::new(scoring, &settings).run(&pos, |r| {
                    if r.done {
                        // Published below, as the final snapshot.
                        return;
                    }
                    publish.send_replace(Snapshot {
                        report: Some(Arc::new(r.clone())),
                        done: false,
                        failed: false,
                    });
                })
            })
            .await;
        match ran {
            Some(report) => {
                if let Some(claims) = &self.claims {
                    let stored = claims
                        .repo
                        .finish_analysis(&key.0, key.1.name(), &encode(&report))
                        .await;
                    if let Err(e) = stored {
                        tracing::warn!("analysis of {} not stored: {e}", key.0);
                    }
                }
                publish_final(&tx, report);
            }
            None => {
                if let Some(claims) = &self.claims {
                    let released = claims
                        .repo
                        .release_analysis(&key.0, key.1.name(), &claims.instance)
                        .await;
                    if let Err(e) = released {
                        tracing::warn!("claim of the analysis of {} not released: {e}", key.0);
                    }
                }
                // Forget it, so that a later request tries again.
                give_up(&tx);
            }
        }
    }

    /// Claims the analysis of `key`; `None` when the database cannot say (then it is computed
    /// here).
    async fn claim(&self, claims: &Claims, key: &Key) -> Option<Claim<Report>> {
        let now = crate::model::now_ms();
        let alive_since = now - claims.timeout.as_millis() as i64;
        let claim = claims
            .repo
            .claim_analysis(&key.0, key.1.name(), &claims.instance, now, alive_since)
            .await;
        match claim {
            Ok(analyses::Claim::Mine) => Some(Claim::Mine),
            Ok(analyses::Claim::Theirs) => Some(Claim::Theirs),
            Ok(analyses::Claim::Done(text)) => match decode(&text) {
                Some(report) => Some(Claim::Done(report)),
                None => {
                    tracing::warn!("stored analysis of {} unreadable: computed again", key.0);
                    None
                }
            },
            Err(e) => {
                tracing::warn!("analysis of {} not claimed: {e}", key.0);
                None
            }
        }
    }

    /// Waits for another instance's report on `key`; `None` once that instance is taken for
    /// dead (the claim can be taken over) or nobody waits any more.
    async fn await_theirs(
        &self,
        claims: &Claims,
        key: &Key,
        tx: &watch::Sender<Snapshot>,
    ) -> Option<Report> {
        loop {
            tokio::select! {
                () = tokio::time::sleep(CLAIM_POLL) => {}
                () = tx.closed() => return None,
            }
            match self.claim(claims, key).await {
                Some(Claim::Theirs) => {}
                Some(Claim::Done(report)) => return Some(report),
                Some(Claim::Mine) | None => return None,
            }
        }
    }

    /// The slot of an analysis, once its turn comes; `None` if everyone who asked has gone first
    /// (the analysis is forgotten then), or the pool closed. A hint's key on `hurried` moves it
    /// to the play lane.
    async fn turn(
        &self,
        key: &Key,
        mut ticket: Ticket,
        mut hurried: Option<watch::Receiver<Option<String>>>,
        tx: &watch::Sender<Snapshot>,
    ) -> Option<Slot> {
        loop {
            tokio::select! {
                slot = &mut ticket => return slot,
                () = tx.closed() => {
                    // A request may have joined since: receivers are added under the cache's
                    // lock, so this check under it is final.
                    let Ok(mut cache) = self.cache.lock() else {
                        return None;
                    };
                    if tx.receiver_count() == 0 {
                        if cache.get(key).is_some_and(|e| e.tx.same_channel(tx)) {
                            cache.remove(key);
                        }
                        return None;
                    }
                }
                Some(hint) = next_hurry(&mut hurried) => {
                    // Queued again in the play lane; leaving the board lane frees the client's
                    // place there.
                    ticket = self.pool.queue(Work::Hint, &hint, None).ok()?;
                    hurried = None;
                }
            }
        }
    }

    /// Drops the cache entry of `key` if it is still the one published on `tx`.
    fn forget(&self, key: &Key, tx: &watch::Sender<Snapshot>) {
        if let Ok(mut cache) = self.cache.lock()
            && cache.get(key).is_some_and(|e| e.tx.same_channel(tx))
        {
            cache.remove(key);
        }
    }

    /// The API's answer to work the pool refused.
    fn refusal(&self, refused: Refused) -> ApiError {
        let time = self.settings.time.as_secs_f64();
        match refused {
            Refused::KeyFull { held } => {
                let mut e = ApiError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "{held} analyses of yours are queued or running already (at most {}): \
                         wait for one to finish",
                        self.bounds.per_client
                    ),
                );
                e.retry_after = Some(time.ceil().max(1.0) as u64);
                e
            }
            Refused::QueueFull { queued } => {
                let threads = self.pool.board_threads() as f64;
                let secs = (time * (queued as f64 / threads + 1.0)).ceil().max(1.0) as u64;
                let mut e = ApiError::new(
                    ErrorCode::Busy,
                    format!("{queued} analyses are waiting already: try again in {secs} s"),
                );
                e.retry_after = Some(secs);
                e
            }
            Refused::Closed => stopping(),
        }
    }
}

/// The next hint key sent on `hurried`; pending for ever when there is none to wait for.
async fn next_hurry(hurried: &mut Option<watch::Receiver<Option<String>>>) -> Option<String> {
    let Some(rx) = hurried.as_mut() else {
        return std::future::pending().await;
    };
    if rx.changed().await.is_err() {
        // The cache entry is gone: no hint will come.
        return std::future::pending().await;
    }
    rx.borrow_and_update().clone()
}

/// Where a position's analysis stands, with its report decoded.
enum Claim<R> {
    Mine,
    Theirs,
    Done(R),
}

/// Publishes the final `report` on `tx`.
fn publish_final(tx: &watch::Sender<Snapshot>, report: Report) {
    tx.send_replace(Snapshot {
        report: Some(Arc::new(report)),
        done: true,
        failed: false,
    });
}

/// A report as stored for the other instances: JSON of its moves (notation, value, visits,
/// line), verdict, White's expected score, playouts, time and step.
pub fn encode(r: &Report) -> String {
    let value = |v: Value| match v {
        Value::Estimate(p) => serde_json::json!({ "p": p }),
        Value::Exact { result, margin } => serde_json::json!({ "r": result, "m": margin }),
    };
    let moves: Vec<_> = r
        .moves
        .iter()
        .map(|m| {
            serde_json::json!({
                "mv": m.mv.to_string(),
                "v": value(m.value),
                "n": m.visits,
                "pv": m.pv.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "moves": moves,
        "verdict": r.verdict.map(|v| serde_json::json!({ "white": v.white, "exact": v.exact_margin })),
        "white": r.white,
        "playouts": r.playouts,
        "ms": r.elapsed.as_millis() as u64,
        "step": r.step,
    })
    .to_string()
}

/// Reads a report written by [`encode`] (a final one); `None` if it is not one.
pub fn decode(text: &str) -> Option<Report> {
    let j: serde_json::Value = serde_json::from_str(text).ok()?;
    let mv = |v: &serde_json::Value| v.as_str()?.parse::<Move>().ok();
    let value = |v: &serde_json::Value| {
        if let Some(p) = v.get("p") {
            return Some(Value::Estimate(p.as_f64()?));
        }
        Some(Value::Exact {
            result: i8::try_from(v.get("r")?.as_i64()?).ok()?,
            margin: match v.get("m")? {
                serde_json::Value::Null => None,
                m => Some(i32::try_from(m.as_i64()?).ok()?),
            },
        })
    };
    let mut moves = Vec::new();
    for m in j.get("moves")?.as_array()? {
        moves.push(MoveAnalysis {
            mv: mv(m.get("mv")?)?,
            value: value(m.get("v")?)?,
            visits: m.get("n")?.as_u64()?,
            pv: m
                .get("pv")?
                .as_array()?
                .iter()
                .map(mv)
                .collect::<Option<Vec<_>>>()?,
        });
    }
    let verdict = match j.get("verdict")? {
        serde_json::Value::Null => None,
        v => Some(Verdict {
            white: i32::try_from(v.get("white")?.as_i64()?).ok()?,
            exact_margin: v.get("exact")?.as_bool()?,
        }),
    };
    Some(Report {
        moves,
        verdict,
        white: j.get("white")?.as_f64()?,
        playouts: j.get("playouts")?.as_u64()?,
        elapsed: Duration::from_millis(j.get("ms")?.as_u64()?),
        step: u32::try_from(j.get("step")?.as_u64()?).ok()?,
        done: true,
    })
}

/// The settings of a judging pass ([`Analyst::judge`]): one thread, the default seed, and a
/// budget of `playouts` playouts' worth of work per position (the solver's nodes count against
/// it too), so that the same position always gets the same report; the time bound is only a
/// safety net far beyond what the budget takes.
pub fn judging_settings(playouts: u64) -> Settings {
    Settings {
        time: Duration::from_secs(120),
        work: Some(playouts.max(1).saturating_mul(annotate::PLAYOUT_WORK)),
        threads: 1,
        ..Settings::default()
    }
}

/// The final report published on `rx`.
pub async fn finished(mut rx: watch::Receiver<Snapshot>) -> Result<Arc<Report>, ApiError> {
    let snapshot = rx
        .wait_for(|s| s.done)
        .await
        .map_err(|_| stopping())?
        .clone();
    match snapshot.report {
        Some(r) if !snapshot.failed => Ok(r),
        _ => Err(stopping()),
    }
}

fn stopping() -> ApiError {
    ApiError::new(
        ErrorCode::ShuttingDown,
        "the analysis could not run: the server is stopping",
    )
}

// ---- JSON ----------------------------------------------------------------------------------
//
// The shapes are the crate `mabula-api`'s; these functions fill them from the engine's reports.

/// The view of a value for the side to move.
pub fn value_view(v: Value) -> ValueView {
    let (exact, result, margin) = match v {
        Value::Estimate(_) => (false, None, None),
        Value::Exact { result, margin } => (true, Some(result), margin),
    };
    ValueView {
        expected: v.expected(),
        exact,
        result,
        margin,
        text: v.to_string(),
    }
}

/// The view of one of the best moves of a position.
pub fn line_view(m: &MoveAnalysis) -> LineView {
    LineView {
        mv: m.mv.to_string(),
        value: value_view(m.value),
        visits: m.visits,
        pv: m.pv.iter().map(Move::to_string).collect(),
    }
}

/// The view of the exact outcome with best play.
pub fn verdict_view(v: Verdict) -> VerdictView {
    VerdictView {
        winner: v.winner(),
        white_margin: v.white,
        text: v.to_string(),
    }
}

/// The view of `report` for `pos`.
pub fn position_analysis(
    pos: &Position,
    scoring: Scoring,
    report: &Report,
    cached: bool,
) -> PositionAnalysis {
    PositionAnalysis {
        position: *pos,
        scoring: scoring.to_string(),
        to_move: pos.side_to_move(),
        white: report.white,
        verdict: report.verdict.map(verdict_view),
        moves: report.moves.iter().map(line_view).collect(),
        playouts: report.playouts,
        elapsed_ms: report.elapsed.as_millis() as u64,
        step: report.step,
        done: report.done,
        cached,
    }
}

/// The view of the engine's note on one move of a game.
pub fn note_view(n: &Note) -> NoteView {
    NoteView {
        index: n.index,
        mv: n.played.to_string(),
        mover: n.mover,
        value: value_view(n.value),
        best: n.best.as_ref().map(line_view),
        loss: n.loss,
        judgement: n.judgement.name().to_string(),
        comment: n.comment(),
    }
}

/// The graph and notes of a game from its positions' reports.
pub fn game_analysis(
    positions: &[Position],
    moves: &[Move],
    reports: &[Report],
    scoring: Scoring,
) -> GameAnalysis {
    let notes = annotate::annotate(positions, moves, reports, scoring);
    let mut counts = Counts::default();
    for n in &notes {
        let side = match n.mover {
            Color::White => &mut counts.white,
            Color::Black => &mut counts.black,
        };
        match n.judgement {
            Judgement::Blunder => side.blunders += 1,
            Judgement::Mistake => side.mistakes += 1,
            _ => {}
        }
    }
    GameAnalysis {
        scoring: scoring.to_string(),
        values: annotate::white_values(reports),
        margins: reports
            .iter()
            .map(|r| r.verdict.filter(|v| v.exact_margin).map(|v| v.white))
            .collect(),
        notes: notes.iter().map(note_view).collect(),
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_report_reads_back_the_same() {
        let pos = mabula::deal::random(7, Color::White);
        let settings = Settings {
            time: Duration::from_millis(50),
            threads: 1,
            ..Settings::default()
        };
        let mut report = Deepening::new(Scoring::Product, &settings).run(&pos, |_| {});
        report.moves[0].value = Value::Exact {
            result: -1,
            margin: Some(-3),
        };
        report.moves[1].value = Value::Exact {
            result: 1,
            margin: None,
        };
        report.verdict = Some(Verdict {
            white: -3,
            exact_margin: true,
        });
        // Times are kept to the millisecond.
        report.elapsed = Duration::from_millis(report.elapsed.as_millis() as u64);
        assert_eq!(decode(&encode(&report)), Some(report));
        assert_eq!(decode("{}"), None);
        assert_eq!(decode("not json"), None);
    }
}
