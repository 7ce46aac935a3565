//! The analysis service behind the analysis board: the engine's view of a position, computed on
//! the engine pool with [`mabula_engine::annotate`] (the code `mabula analyze` runs too), within a
//! bounded time per position, and cached per position and scoring mode so that no position is
//! analysed twice.
//!
//! A position's analysis is a [`watch`] channel: the first request starts the work, which
//! publishes a report after every step; later requests for the same position (while it runs or
//! after) subscribe to the same channel, and are counted as cache hits. The JSON shapes the API
//! answers with are here too ([`PositionAnalysis`], [`GameAnalysis`]).

use crate::engine::EnginePool;
use crate::error::{ApiError, ErrorCode};
use mabula::{Color, Move, Position, Scoring};
use mabula_engine::MoveAnalysis;
use mabula_engine::annotate::{self, Deepening, Judgement, Note, Report, Settings, Verdict};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Semaphore, watch};
use utoipa::ToSchema;

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

type Key = (String, Scoring);

/// The analysis service.
pub struct Analyst {
    pool: EnginePool,
    /// Analyses running or waiting for the pool at once: one fewer than the pool's slots (at
    /// least one), so that analyses never hold every slot and engine moves keep a free one.
    slots: Arc<Semaphore>,
    settings: Settings,
    cache: Mutex<HashMap<Key, watch::Sender<Snapshot>>>,
    hits: AtomicU64,
    runs: AtomicU64,
}

impl Analyst {
    /// A service running on `pool`, spending at most about `time` on a position.
    pub fn new(pool: EnginePool, threads: usize, time: Duration) -> Analyst {
        Analyst {
            pool,
            slots: Arc::new(Semaphore::new(threads.saturating_sub(1).max(1))),
            settings: Settings {
                time,
                // One thread per analysis: the pool's slots are the parallelism.
                threads: 1,
                ..Settings::default()
            },
            cache: Mutex::new(HashMap::new()),
            hits: AtomicU64::new(0),
            runs: AtomicU64::new(0),
        }
    }

    /// The finished analysis of `pos`, if it is in the cache (never starts one).
    pub fn peek(&self, pos: &Position, scoring: Scoring) -> Option<Arc<Report>> {
        let cache = self.cache.lock().ok()?;
        let snapshot = cache.get(&(pos.to_string(), scoring))?.borrow().clone();
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

    /// Follows the analysis of `pos`, starting it unless it is cached; the flag says whether it
    /// was.
    pub fn subscribe(
        self: &Arc<Self>,
        pos: Position,
        scoring: Scoring,
    ) -> Result<(watch::Receiver<Snapshot>, bool), ApiError> {
        let key = (pos.to_string(), scoring);
        let mut cache = self.cache.lock().map_err(ApiError::internal)?;
        if let Some(tx) = cache.get(&key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok((tx.subscribe(), true));
        }
        if cache.len() >= CACHE_LIMIT {
            cache.retain(|_, tx| !tx.borrow().done);
        }
        let (tx, rx) = watch::channel(Snapshot::default());
        cache.insert(key.clone(), tx.clone());
        drop(cache);
        let me = Arc::clone(self);
        tokio::spawn(async move {
            let settings = me.settings.clone();
            let publish = tx.clone();
            let slot = me.slots.clone().acquire_owned().await.ok();
            if tx.receiver_count() == 0 {
                // Everyone who asked has gone while it waited (a page stepped on): skip it, and
                // forget it, so that a later request starts afresh.
                if let Ok(mut cache) = me.cache.lock() {
                    cache.remove(&key);
                }
                return;
            }
            me.runs.fetch_add(1, Ordering::Relaxed);
            let ran = me
                .pool
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
            drop(slot);
            match ran {
                Some(report) => {
                    tx.send_replace(Snapshot {
                        report: Some(Arc::new(report)),
                        done: true,
                        failed: false,
                    });
                }
                None => {
                    // Forget it, so that a later request tries again.
                    if let Ok(mut cache) = me.cache.lock() {
                        cache.remove(&key);
                    }
                    tx.send_modify(|s| {
                        s.done = true;
                        s.failed = true;
                    });
                }
            }
        });
        Ok((rx, false))
    }

    /// The finished analysis of `pos`, and whether it came from the cache.
    pub async fn analyse(
        self: &Arc<Self>,
        pos: Position,
        scoring: Scoring,
    ) -> Result<(Arc<Report>, bool), ApiError> {
        let (mut rx, cached) = self.subscribe(pos, scoring)?;
        let snapshot = rx
            .wait_for(|s| s.done)
            .await
            .map_err(|_| stopping())?
            .clone();
        match snapshot.report {
            Some(r) if !snapshot.failed => Ok((r, cached)),
            _ => Err(stopping()),
        }
    }
}

fn stopping() -> ApiError {
    ApiError::new(
        ErrorCode::ShuttingDown,
        "the analysis could not run: the server is stopping",
    )
}

// ---- JSON ----------------------------------------------------------------------------------

/// A value for the side to move (of a move, or of the position a move led to).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ValueView {
    /// The expected score: 1 a win, 0.5 a draw, 0 a loss.
    pub expected: f64,
    /// Whether the value is proven (`result` then set).
    pub exact: bool,
    /// -1, 0 or 1 when proven.
    pub result: Option<i8>,
    /// The final margin with best play, when the solver computed it.
    pub margin: Option<i32>,
    /// For people: `63.4%`, `win`, `wins by 2`, `draw`, `loses by 3`.
    pub text: String,
}

impl From<mabula_engine::Value> for ValueView {
    fn from(v: mabula_engine::Value) -> ValueView {
        let (exact, result, margin) = match v {
            mabula_engine::Value::Estimate(_) => (false, None, None),
            mabula_engine::Value::Exact { result, margin } => (true, Some(result), margin),
        };
        ValueView {
            expected: v.expected(),
            exact,
            result,
            margin,
            text: v.to_string(),
        }
    }
}

/// One of the best moves of a position.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LineView {
    /// The move, e.g. `c8-c5` (or `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the side to move.
    pub value: ValueView,
    /// Playouts through it.
    pub visits: u64,
    /// The principal line, this move first.
    pub pv: Vec<String>,
}

impl From<&MoveAnalysis> for LineView {
    fn from(m: &MoveAnalysis) -> LineView {
        LineView {
            mv: m.mv.to_string(),
            value: m.value.into(),
            visits: m.visits,
            pv: m.pv.iter().map(Move::to_string).collect(),
        }
    }
}

/// The exact outcome with best play.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct VerdictView {
    /// `white`, `black`, or null for a draw.
    pub winner: Option<String>,
    /// The final margin for White (White's score minus Black's).
    pub white_margin: i32,
    /// `White wins by 2 with best play` (English; the page words it itself).
    pub text: String,
}

impl From<Verdict> for VerdictView {
    fn from(v: Verdict) -> VerdictView {
        VerdictView {
            winner: v.winner().map(color_name),
            white_margin: v.white,
            text: v.to_string(),
        }
    }
}

fn color_name(c: Color) -> String {
    match c {
        Color::White => "white".into(),
        Color::Black => "black".into(),
    }
}

/// The engine's view of a position (`docs/api.md`, section 4).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PositionAnalysis {
    /// The position string.
    pub position: String,
    /// `largest` or `product`.
    pub scoring: String,
    /// `white` or `black`.
    pub to_move: String,
    /// The expected score of White with best play as far as the engine sees (1 win, 0 loss).
    pub white: f64,
    /// The solver's exact outcome, once found.
    pub verdict: Option<VerdictView>,
    /// The best moves, best first (at most five).
    pub moves: Vec<LineView>,
    /// Playouts made.
    pub playouts: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    /// The step of the deepening (1 first).
    pub step: u32,
    /// No deeper report follows.
    pub done: bool,
    /// Whether the position was analysed before (the cache answered).
    pub cached: bool,
}

impl PositionAnalysis {
    /// The view of `report` for `pos`.
    pub fn new(pos: &Position, scoring: Scoring, report: &Report, cached: bool) -> Self {
        PositionAnalysis {
            position: pos.to_string(),
            scoring: scoring.to_string(),
            to_move: color_name(pos.side_to_move()),
            white: report.white,
            verdict: report.verdict.map(Into::into),
            moves: report.moves.iter().map(Into::into).collect(),
            playouts: report.playouts,
            elapsed_ms: report.elapsed.as_millis() as u64,
            step: report.step,
            done: report.done,
            cached,
        }
    }
}

/// What the engine says about one move of a game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NoteView {
    /// The move's index (0 first).
    pub index: usize,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// `white` or `black`.
    pub mover: String,
    /// The move's value for the mover.
    pub value: ValueView,
    /// The engine's preferred move, when another.
    pub best: Option<LineView>,
    /// The expected score lost against the best move.
    pub loss: f64,
    /// `best`, `good`, `mistake` or `blunder`.
    pub judgement: String,
    /// The comment `mabula analyze` writes into the record for this move.
    pub comment: String,
}

impl From<&Note> for NoteView {
    fn from(n: &Note) -> NoteView {
        NoteView {
            index: n.index,
            mv: n.played.to_string(),
            mover: color_name(n.mover),
            value: n.value.into(),
            best: n.best.as_ref().map(Into::into),
            loss: n.loss,
            judgement: n.judgement.name().to_string(),
            comment: n.comment(),
        }
    }
}

/// The evaluation graph of a game and the notes on its moves.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameAnalysis {
    /// The scoring mode analysed for.
    pub scoring: String,
    /// The expected score of White at the start and after every move.
    pub values: Vec<f64>,
    /// The exact margin for White where the solver found it, per position (null elsewhere).
    pub margins: Vec<Option<i32>>,
    /// One note per move.
    pub notes: Vec<NoteView>,
    /// Blunders and mistakes of each side: `{white: {blunders, mistakes}, black: ...}`.
    pub counts: Counts,
}

/// Blunders and mistakes, per side.
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct Counts {
    /// White's.
    pub white: SideCounts,
    /// Black's.
    pub black: SideCounts,
}

/// One side's blunders and mistakes.
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct SideCounts {
    /// Blunders.
    pub blunders: u32,
    /// Mistakes.
    pub mistakes: u32,
}

impl GameAnalysis {
    /// The graph and notes of a game from its positions' reports.
    pub fn new(
        positions: &[Position],
        moves: &[Move],
        reports: &[Report],
        scoring: Scoring,
    ) -> Self {
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
            notes: notes.iter().map(Into::into).collect(),
            counts,
        }
    }
}
