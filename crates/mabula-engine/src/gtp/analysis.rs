//! The analyses of the protocol: `analyze` and `analyze_info` read their options here, and
//! [`AnalysisState`] searches in steps (the exact solver first, late in the game, then the tree
//! search, kept between steps) and renders each [`Update`] in either format.

use super::Gtp;
use crate::annotate::{ExactMoves, exact_moves};
use crate::limits::Limits;
use crate::search::{Engine, MoveAnalysis, Value};
use mabula::{Move, Position, Scoring};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The solver is asked for the exact margin of every move when at most this many marbles are on
/// edge spaces (the solver needs milliseconds there).
const SOLVE_EDGES: u32 = 14;

/// The least time the solver gets in an analysis when the position is late enough.
const SOLVER_FLOOR: Duration = Duration::from_millis(250);

/// How an analysis is asked for: `analyze [lines N]`, `analyze_info [lines N] [interval MS]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct AnalysisRequest {
    /// The best moves to list (multi-PV); all when `None`.
    pub(super) lines: Option<usize>,
    /// Stream an update this often until the next command.
    pub(super) interval: Option<Duration>,
    /// The `analyze_info` format (key-value lines with visits and estimates).
    pub(super) info: bool,
}

/// Reads `analyze [lines N]` or `analyze_info [lines N] [interval MS]`.
pub(super) fn analysis_request(args: &str, info: bool) -> Result<AnalysisRequest, String> {
    let mut request = AnalysisRequest {
        lines: None,
        interval: None,
        info,
    };
    let usage = if info {
        "analyze_info [lines N] [interval MS]"
    } else {
        "analyze [lines N]"
    };
    let words: Vec<&str> = args.split_whitespace().collect();
    for pair in words.chunks(2) {
        let [key, value] = pair else {
            return Err(format!("use {usage}"));
        };
        let n: u64 = value
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("'{value}' is not a {key}: give a whole number from 1"))?;
        match *key {
            "lines" => request.lines = Some(n as usize),
            "interval" if info => request.interval = Some(Duration::from_millis(n)),
            _ => return Err(format!("unknown option '{key}': use {usage}")),
        }
    }
    Ok(request)
}

/// An analysis in progress: the tree search (kept between steps) and the solver's exact values.
pub(super) struct AnalysisState {
    engine: Engine,
    scoring: Scoring,
    table_mb: usize,
    pos: Position,
    exact: Option<ExactMoves>,
    /// Whether the solver is worth asking (few marbles left on edge spaces).
    solvable: bool,
    started: Instant,
    updates: u32,
    playouts: u64,
}

/// One update of an analysis.
pub(super) struct Update {
    number: u32,
    elapsed: Duration,
    playouts: u64,
    moves: Vec<MoveAnalysis>,
    /// The tree's own estimate of each move (expected score), beside the exact values.
    estimates: Vec<(Move, Option<f64>)>,
    solved: bool,
    /// Nothing more will change: every move is exact, or the game is over.
    pub(super) final_: bool,
}

impl AnalysisState {
    pub(super) fn new(gtp: &Gtp, pos: &Position) -> AnalysisState {
        let edges = pos.edges_left();
        AnalysisState {
            engine: gtp.analysis_engine(),
            scoring: gtp.scoring,
            table_mb: gtp.table_mb.unwrap_or(64).min(64),
            pos: *pos,
            exact: None,
            solvable: edges <= SOLVE_EDGES,
            started: Instant::now(),
            updates: 0,
            playouts: 0,
        }
    }

    /// Searches for about `time` (the solver first, with `solver_time` at least
    /// [`SOLVER_FLOOR`], while no exact values are known) and gives the update.
    pub(super) fn step(
        &mut self,
        time: Duration,
        solver_time: Duration,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Update {
        let with_stop = |limits: Limits| match stop {
            Some(s) => limits.with_stop(Arc::clone(s)),
            None => limits,
        };
        let began = Instant::now();
        if self.solvable && self.exact.is_none() {
            let limits = with_stop(Limits::time(solver_time.max(SOLVER_FLOOR)));
            self.exact = exact_moves(&self.pos, self.scoring, self.table_mb, &limits);
        }
        let left = time
            .saturating_sub(began.elapsed())
            .max(Duration::from_millis(1));
        let tree_time = if self.exact.is_some() {
            left.min(Duration::from_millis(100))
        } else {
            left
        };
        let analysis = self
            .engine
            .analyze(&self.pos, &with_stop(Limits::time(tree_time)));
        self.updates += 1;
        // The engine's playouts are those of this step; its visits count the whole tree.
        self.playouts += analysis.playouts;
        let estimates = analysis
            .moves
            .iter()
            .map(|m| {
                let e = match m.value {
                    Value::Estimate(p) if m.visits > 0 => Some(p),
                    Value::Estimate(_) => None,
                    Value::Exact { .. } => Some(m.value.expected()),
                };
                (m.mv, e)
            })
            .collect();
        let mut moves = analysis.moves;
        let solved = self.exact.is_some() || analysis.solved.is_some();
        if let Some(exact) = &self.exact {
            for m in &mut moves {
                if let Some(&(_, margin)) = exact.margins.iter().find(|(mv, _)| *mv == m.mv) {
                    m.value = Value::from_margin(margin);
                }
            }
            // Best margin first; among equals, more visits first.
            moves.sort_by_key(|m| {
                let margin = match m.value {
                    Value::Exact {
                        margin: Some(x), ..
                    } => x,
                    _ => i32::MIN,
                };
                (std::cmp::Reverse(margin), std::cmp::Reverse(m.visits))
            });
            if let Some(first) = moves.first_mut()
                && exact.pv.first() == Some(&first.mv)
            {
                first.pv = exact.pv.clone();
            }
        }
        Update {
            number: self.updates,
            elapsed: self.started.elapsed(),
            playouts: self.playouts,
            final_: self.exact.is_some() || moves.is_empty(),
            moves,
            estimates,
            solved,
        }
    }
}

impl Update {
    /// The lines of this update: the RULES.md format (`MOVE VALUE LINE...`), or with `info` a
    /// header line and one key-value line per move.
    pub(super) fn render(&self, request: AnalysisRequest, pos: &Position) -> String {
        let count = request.lines.unwrap_or(usize::MAX).min(self.moves.len());
        let moves = &self.moves[..count];
        let line = |m: &MoveAnalysis| {
            m.pv.iter()
                .map(Move::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !request.info {
            return moves
                .iter()
                .map(|m| format!("{} {} {}", m.mv, m.value.token(), line(m)))
                .collect::<Vec<_>>()
                .join("\n");
        }
        let mut out = vec![format!(
            "update {} time {:.3} playouts {} moves {} solved {} to_move {}",
            self.number,
            self.elapsed.as_secs_f64(),
            self.playouts,
            self.moves.len(),
            if self.solved { "yes" } else { "no" },
            pos.side_to_move()
        )];
        for (rank, m) in moves.iter().enumerate() {
            let estimate = self
                .estimates
                .iter()
                .find(|(mv, _)| *mv == m.mv)
                .and_then(|(_, e)| *e)
                .map_or("-".to_string(), |e| format!("{e:.3}"));
            let exact = match m.value {
                Value::Exact { .. } => m.value.token(),
                Value::Estimate(_) => "-".into(),
            };
            out.push(format!(
                "info move {} order {rank} value {} exact {exact} estimate {estimate} visits {} pv {}",
                m.mv,
                m.value.token(),
                m.visits,
                line(m)
            ));
        }
        out.join("\n")
    }
}
