//! The analyses of the protocol: `analyze` and `analyze_info` read their options here, and
//! [`AnalysisState`] runs the same analysis as `mabula analyze` ([`Deepening`]: the tree search
//! and, late in the game, the exact solver in turn, each step continuing the last) and renders
//! each [`Update`] in either format.

use super::Gtp;
use crate::annotate::{Deepening, Report, Settings};
use crate::limits::Limits;
use crate::search::{EngineConfig, MoveAnalysis, Value};
use mabula::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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

/// An analysis in progress.
pub(super) struct AnalysisState {
    deepening: Deepening,
    started: Instant,
    updates: u32,
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
        let settings = Settings {
            threads: gtp.threads.unwrap_or(EngineConfig::default().threads),
            table_mb: gtp.table_mb.unwrap_or(64).min(64),
            seed: gtp.seed,
            lines: usize::MAX,
            ..Settings::default()
        };
        let mut deepening = Deepening::new(gtp.scoring, &settings);
        deepening.start(pos);
        AnalysisState {
            deepening,
            started: Instant::now(),
            updates: 0,
        }
    }

    /// Goes on with the analysis for about `time` (or until `stop` is raised) and gives the
    /// update.
    pub(super) fn step(&mut self, time: Duration, stop: Option<&Arc<AtomicBool>>) -> Update {
        let mut limits = Limits::time(time);
        if let Some(s) = stop {
            limits = limits.with_stop(Arc::clone(s));
        }
        let report: Report = self.deepening.advance(&limits, |_| {});
        self.updates += 1;
        Update {
            number: self.updates,
            elapsed: self.started.elapsed(),
            playouts: report.playouts,
            final_: self.deepening.complete() || report.moves.is_empty(),
            solved: report.verdict.is_some(),
            moves: report.moves,
            estimates: self.deepening.estimates(),
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
