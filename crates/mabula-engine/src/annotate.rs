//! Annotation: what the engine says about a position and about the moves of a game, shared by
//! `mabula analyze` and the web server's analysis board so that both say the same thing.
//!
//! - [`Deepening`] analyses one position within a time bound, in steps (each step continues the
//!   same search), and reports a [`Report`] after every step; once few enough marbles are left
//!   on edge spaces, the exact solver adds the final margin with best play (a [`Verdict`]).
//! - [`annotate`] turns the reports of a game's positions into one [`Note`] per move: the value
//!   of the move played, the engine's preferred move and how much was lost ([`Judgement`]).
//! - [`white_values`] gives the evaluation graph (value for White after each move); the
//!   command line draws it as a text chart.
//!
//! ```
//! use mabula::{Color, Scoring, deal};
//! use mabula_engine::annotate::{Deepening, Settings};
//! use std::time::Duration;
//! let pos = deal::random(1, Color::White);
//! let settings = Settings { time: Duration::from_millis(40), threads: 1, ..Settings::default() };
//! let report = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
//! assert!(!report.moves.is_empty());
//! assert!((0.0..=1.0).contains(&report.white));
//! ```

use crate::limits::Limits;
use crate::search::{Engine, EngineConfig, MoveAnalysis, Value};
use crate::solver::{SolveMode, Solver};
use mabula::{Color, Move, Position, Scoring};
use std::fmt;
use std::time::{Duration, Instant};

/// How a position is analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The bound on the time spent on one position (all steps and the solver together).
    pub time: Duration,
    /// Tree-search threads.
    pub threads: usize,
    /// Ask the solver for the exact margin when at most this many marbles are on edge spaces.
    pub solve_edges: u32,
    /// The best moves kept in a report.
    pub lines: usize,
    /// The seed of the search.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            time: Duration::from_secs(1),
            threads: EngineConfig::default().threads,
            solve_edges: 12,
            lines: 5,
            seed: 0,
        }
    }
}

/// The exact outcome of a position with best play by both sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The final margin for White (White's score minus Black's) when `exact_margin`, otherwise
    /// only its sign (1 White wins, 0 draw, -1 Black wins).
    pub white: i32,
    /// Whether `white` is the exact margin.
    pub exact_margin: bool,
}

impl Verdict {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self.white.signum() {
            1 => Some(Color::White),
            -1 => Some(Color::Black),
            _ => None,
        }
    }

    /// The expected score of White (1 win, 1/2 draw, 0 loss).
    pub fn white_expected(self) -> f64 {
        (f64::from(self.white.signum()) + 1.0) / 2.0
    }
}

impl fmt::Display for Verdict {
    /// `White wins by 2 with best play`, `Black wins with best play`, `a draw with best play`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self.winner().map(name) {
            None => f.write_str("a draw with best play"),
            Some(c) if self.exact_margin => {
                write!(f, "{c} wins by {} with best play", self.white.abs())
            }
            Some(c) => write!(f, "{c} wins with best play"),
        }
    }
}

/// The engine's view of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The best moves (at most [`Settings::lines`]), best first, valued for the side to move.
    pub moves: Vec<MoveAnalysis>,
    /// The exact outcome, once the solver found it.
    pub verdict: Option<Verdict>,
    /// The expected score of White (1 win, 1/2 draw, 0 loss) with the best move.
    pub white: f64,
    /// Playouts made so far.
    pub playouts: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The step this report ends (1 first).
    pub step: u32,
    /// Whether no further step follows.
    pub done: bool,
}

impl Report {
    /// The report of a finished game: no moves, the final margin as the verdict.
    pub fn game_over(pos: &Position, scoring: Scoring) -> Report {
        let margin = pos.scores(scoring).margin(Color::White);
        let verdict = Verdict {
            white: margin,
            exact_margin: true,
        };
        Report {
            moves: Vec::new(),
            verdict: Some(verdict),
            white: verdict.white_expected(),
            playouts: 0,
            elapsed: Duration::ZERO,
            step: 1,
            done: true,
        }
    }

    /// The value of the position for `color` as an expected score.
    pub fn expected_for(&self, color: Color) -> f64 {
        match color {
            Color::White => self.white,
            Color::Black => 1.0 - self.white,
        }
    }
}

/// Steps of the tree search, as shares of the time (the solver runs between the first two).
const STEP_SHARES: [u32; 3] = [1, 2, 4];

/// The least time the solver gets when the position is late enough to solve.
pub const SOLVER_FLOOR: Duration = Duration::from_millis(250);

/// One position's analysis in steps, each continuing the search of the one before.
pub struct Deepening {
    engine: Engine,
    scoring: Scoring,
    settings: Settings,
}

impl Deepening {
    /// A fresh analysis for games scored with `scoring`.
    pub fn new(scoring: Scoring, settings: &Settings) -> Deepening {
        let config = EngineConfig {
            threads: settings.threads.max(1),
            reuse: true,
            seed: settings.seed,
            tree_mb: 64,
            table_mb: 16,
            ..EngineConfig::default()
        };
        Deepening {
            engine: Engine::new(config, scoring),
            scoring,
            settings: settings.clone(),
        }
    }

    /// Analyses `pos`, calling `on_step` with the report after each step (the last one is also
    /// returned, with `done` set). Never takes much longer than [`Settings::time`] (late in the
    /// game, [`Settings::time`] plus [`SOLVER_FLOOR`] at most).
    pub fn run(&mut self, pos: &Position, mut on_step: impl FnMut(&Report)) -> Report {
        let started = Instant::now();
        if pos.is_game_over() {
            let report = Report::game_over(pos, self.scoring);
            on_step(&report);
            return report;
        }
        self.engine.clear();
        let total: u32 = STEP_SHARES.iter().sum();
        let edges = pos.edges_left();
        let mut solved: Option<Solved> = None;
        let mut report = None;
        let mut playouts = 0;
        for (i, share) in STEP_SHARES.iter().enumerate() {
            let step = (i + 1) as u32;
            let last = i + 1 == STEP_SHARES.len();
            let time = self.settings.time * *share / total;
            let analysis = self.engine.analyze(pos, &Limits::time(time.max(ms(1))));
            playouts += analysis.playouts;
            if i == 0 && edges <= self.settings.solve_edges {
                // The solver gets the second step's share, and at least SOLVER_FLOOR, so that a
                // short bound on a busy machine still solves the last moves of a game.
                let deadline = (self.settings.time * STEP_SHARES[1] / total).max(SOLVER_FLOOR);
                solved = solve_margins(pos, self.scoring, deadline);
            }
            let proof = analysis.solved.map(|sol| sol.value);
            let mut r = self.report(pos, analysis.moves, playouts, solved.as_ref(), proof);
            r.elapsed = started.elapsed();
            r.step = step;
            r.done = last;
            on_step(&r);
            report = Some(r);
            if solved.is_some() {
                // Exact values for every move: searching longer changes nothing.
                if let Some(r) = report.as_mut() {
                    r.done = true;
                }
                break;
            }
        }
        let mut report = report.unwrap_or_else(|| Report::game_over(pos, self.scoring));
        if !report.done {
            report.done = true;
            on_step(&report);
        }
        report
    }

    fn report(
        &self,
        pos: &Position,
        mut moves: Vec<MoveAnalysis>,
        playouts: u64,
        solved: Option<&Solved>,
        proof: Option<i32>,
    ) -> Report {
        let me = pos.side_to_move();
        // Without the solver's margin, a result the engine proved on its own is still exact.
        let mut verdict = proof.map(|result| Verdict {
            white: white_side(me, result.signum()),
            exact_margin: false,
        });
        if let Some(Solved {
            verdict: v,
            margins,
            pv,
        }) = solved
        {
            verdict = Some(*v);
            for m in &mut moves {
                if let Some(&(_, margin)) = margins.iter().find(|(mv, _)| *mv == m.mv) {
                    m.value = Value::from_margin(margin);
                }
            }
            // Best margin first; among equals, the tree's order.
            moves.sort_by_key(|m| match m.value {
                Value::Exact {
                    margin: Some(x), ..
                } => -x,
                _ => i32::MAX,
            });
            if let Some(first) = moves.first_mut()
                && pv.first() == Some(&first.mv)
            {
                first.pv = pv.clone();
            }
        }
        moves.truncate(self.settings.lines.max(1));
        let mine = moves.first().map_or(0.5, |m| m.value.expected());
        let white = match verdict {
            Some(v) => v.white_expected(),
            None if me == Color::White => mine,
            None => 1.0 - mine,
        };
        Report {
            moves,
            verdict,
            white,
            playouts,
            elapsed: Duration::ZERO,
            step: 0,
            done: false,
        }
    }
}

/// A value for `side` seen from White, or (the same sign change) White's value seen from `side`.
fn white_side(side: Color, value: i32) -> i32 {
    match side {
        Color::White => value,
        Color::Black => -value,
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// What the solver found: the verdict, every move's exact margin for the side to move, the
/// principal line.
struct Solved {
    verdict: Verdict,
    margins: Vec<(Move, i32)>,
    pv: Vec<Move>,
}

/// The exact final margin of a position and of each of its moves, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactMoves {
    /// The margin of the position with best play.
    pub value: i32,
    /// Every legal move with the margin it leads to, best first.
    pub margins: Vec<(Move, i32)>,
    /// A principal line from the position to the end.
    pub pv: Vec<Move>,
}

/// Solves `pos` and each of its moves exactly (final margins, with a table of `table_mb` MB);
/// `None` when `limits` ran out first. The engine protocol's analysis and [`Deepening`] use it,
/// so that both agree with `mabula solve`.
pub fn exact_moves(
    pos: &Position,
    scoring: Scoring,
    table_mb: usize,
    limits: &Limits,
) -> Option<ExactMoves> {
    let started = Instant::now();
    let mut solver = Solver::new(scoring, table_mb);
    let sol = solver.solve(pos, SolveMode::Margin, limits)?;
    let rest = Limits {
        time: match limits.time {
            Some(t) => Some(t.checked_sub(started.elapsed())?),
            None => None,
        },
        ..limits.clone()
    };
    let margins = solver.solve_moves(pos, SolveMode::Margin, &rest)?;
    Some(ExactMoves {
        value: sol.value,
        margins,
        pv: sol.pv,
    })
}

/// The exact margin of `pos` and of each of its moves, and the principal line; `None` when
/// `time` ran out first.
fn solve_margins(pos: &Position, scoring: Scoring, time: Duration) -> Option<Solved> {
    let exact = exact_moves(pos, scoring, 16, &Limits::time(time))?;
    let verdict = Verdict {
        white: white_side(pos.side_to_move(), exact.value),
        exact_margin: true,
    };
    Some(Solved {
        verdict,
        margins: exact.margins,
        pv: exact.pv,
    })
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Judgement {
    /// The engine's first choice, or as good.
    Best,
    /// Lost a little or nothing.
    Good,
    /// Lost at least [`MISTAKE`] of an expected score.
    Mistake,
    /// Lost at least [`BLUNDER`] of an expected score, or changed the exact result.
    Blunder,
}

impl Judgement {
    /// The word for it: `best`, `good`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Best => "best",
            Judgement::Good => "good",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A loss of expected score (win 1, draw 1/2) from which a move is a mistake.
pub const MISTAKE: f64 = 0.1;
/// A loss of expected score from which a move is a blunder.
pub const BLUNDER: f64 = 0.25;

/// What the engine says about one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// The move's index in the game (0 first).
    pub index: usize,
    /// The move played.
    pub played: Move,
    /// Who played it.
    pub mover: Color,
    /// Its value for the mover: the value of the position it led to.
    pub value: Value,
    /// The engine's preferred move, with its value and line, when it is another move.
    pub best: Option<MoveAnalysis>,
    /// The expected score the move lost against the best one (0 or more).
    pub loss: f64,
    /// How bad it was.
    pub judgement: Judgement,
}

impl Note {
    /// The comment written into a record: `engine 48.2%; best c8-c5 55.1% (c8-c5 e1-e4 ...);
    /// mistake`, or `engine 55.1%, the engine's choice`.
    pub fn comment(&self) -> String {
        let mut text = match &self.best {
            None => format!("engine {}, the engine's choice", self.value),
            Some(best) => {
                let pv: Vec<String> = best.pv.iter().take(6).map(Move::to_string).collect();
                format!(
                    "engine {}; best {} {} ({})",
                    self.value,
                    best.mv,
                    best.value,
                    pv.join(" ")
                )
            }
        };
        if matches!(self.judgement, Judgement::Mistake | Judgement::Blunder) {
            text.push_str(&format!(
                "; {} (-{:.0}%)",
                self.judgement.name(),
                100.0 * self.loss
            ));
        }
        text
    }
}

/// The value of the position `report` describes for the player who moved into it.
fn value_after(after: &Position, report: &Report, mover: Color, scoring: Scoring) -> Value {
    if after.is_game_over() {
        return Value::from_margin(after.scores(scoring).margin(mover));
    }
    if let Some(v) = report.verdict {
        let margin = white_side(mover, v.white);
        return Value::Exact {
            result: margin.signum() as i8,
            margin: v.exact_margin.then_some(margin),
        };
    }
    match report.moves.first() {
        Some(m) => m.value.flipped(),
        None => Value::Estimate(report.expected_for(mover)),
    }
}

/// One note per move of a game, from the positions (the start and after every move, as
/// [`mabula::Game::positions`] gives them) and their reports. A move that was the only legal one
/// is noted too (as best).
pub fn annotate(
    positions: &[Position],
    moves: &[Move],
    reports: &[Report],
    scoring: Scoring,
) -> Vec<Note> {
    let mut notes = Vec::with_capacity(moves.len());
    for (i, &played) in moves.iter().enumerate() {
        let (Some(before), Some(after), Some(rb), Some(ra)) = (
            positions.get(i),
            positions.get(i + 1),
            reports.get(i),
            reports.get(i + 1),
        ) else {
            break;
        };
        let mover = before.side_to_move();
        let value = value_after(after, ra, mover, scoring);
        let best_for_mover = rb.expected_for(mover);
        let loss = (best_for_mover - value.expected()).max(0.0);
        let engine_best = rb.moves.first().filter(|m| m.mv != played).cloned();
        let exact_drop = matches!(
            (rb.verdict, value),
            (Some(_), Value::Exact { .. }) if loss >= 0.5
        );
        let judgement = if engine_best.is_none() {
            Judgement::Best
        } else if exact_drop || loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else {
            Judgement::Good
        };
        notes.push(Note {
            index: i,
            played,
            mover,
            value,
            best: engine_best,
            loss,
            judgement,
        });
    }
    notes
}

/// The evaluation graph: the expected score of White at the start and after every move.
pub fn white_values(reports: &[Report]) -> Vec<f64> {
    reports.iter().map(|r| r.white).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::deal;

    fn late_position(seed: u64, plies: usize) -> Position {
        let mut pos = deal::random(seed, Color::White);
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let mv = pos.legal_moves()[0];
            pos.play_unchecked(mv);
        }
        pos
    }

    fn quick() -> Settings {
        Settings {
            time: Duration::from_millis(60),
            threads: 1,
            seed: 1,
            ..Settings::default()
        }
    }

    #[test]
    fn deepening_reports_each_step_and_stays_in_time() {
        let pos = deal::random(3, Color::White);
        let mut steps = Vec::new();
        let started = Instant::now();
        let r = Deepening::new(Scoring::Largest, &quick()).run(&pos, |r| steps.push(r.step));
        assert!(started.elapsed() < Duration::from_millis(1000));
        assert_eq!(steps, vec![1, 2, 3]);
        assert!(r.done);
        assert!(r.moves.len() <= 5 && !r.moves.is_empty());
        assert!(r.verdict.is_none(), "no solver so early: {:?}", r.verdict);
    }

    #[test]
    fn a_late_position_gets_the_solvers_exact_margin() {
        let pos = late_position(5, 16);
        assert!(!pos.is_game_over());
        let settings = Settings {
            time: Duration::from_secs(5),
            solve_edges: 32,
            ..quick()
        };
        let r = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
        let v = r.verdict.expect("solved");
        let sol = Solver::new(Scoring::Largest, 16)
            .solve(&pos, SolveMode::Margin, &Limits::none())
            .expect("solved");
        assert_eq!(v.white, white_side(pos.side_to_move(), sol.value));
        assert!(v.exact_margin);
        assert!(matches!(r.moves[0].value, Value::Exact { margin: Some(m), .. } if m == sol.value));
    }

    #[test]
    fn a_result_the_engine_proves_is_a_verdict_without_a_margin() {
        let pos = late_position(5, 16);
        let settings = Settings {
            time: Duration::from_secs(2),
            solve_edges: 0,
            ..quick()
        };
        let r = Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
        let v = r.verdict.expect("proven by the engine's own solver");
        let result = Solver::new(Scoring::Largest, 16)
            .prove(&pos, Limits::none().start())
            .expect("solved");
        assert_eq!(
            v,
            Verdict {
                white: white_side(pos.side_to_move(), result),
                exact_margin: false
            }
        );
        assert_eq!(r.white, v.white_expected());
    }

    #[test]
    fn the_verdict_reads_like_a_sentence() {
        let v = Verdict {
            white: 2,
            exact_margin: true,
        };
        assert_eq!(v.to_string(), "White wins by 2 with best play");
        let v = Verdict {
            white: -1,
            exact_margin: false,
        };
        assert_eq!(v.to_string(), "Black wins with best play");
    }

    #[test]
    fn notes_mark_the_best_move_and_the_loss() {
        let pos = deal::random(1, Color::White);
        let mut deep = Deepening::new(Scoring::Largest, &quick());
        let before = deep.run(&pos, |_| {});
        let best = before.moves[0].mv;
        let after_best = pos.play(best).expect("legal");
        let ra = deep.run(&after_best, |_| {});
        let notes = annotate(
            &[pos, after_best],
            &[best],
            &[before.clone(), ra],
            Scoring::Largest,
        );
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].judgement, Judgement::Best);
        assert!(notes[0].comment().ends_with("the engine's choice"));

        // A made-up report after another move that loses for sure.
        let other = before.moves[1].mv;
        let after_other = pos.play(other).expect("legal");
        let lost = Report {
            verdict: Some(Verdict {
                white: -3,
                exact_margin: true,
            }),
            white: 0.0,
            ..Report::game_over(&after_other, Scoring::Largest)
        };
        let notes = annotate(
            &[pos, after_other],
            &[other],
            &[before, lost],
            Scoring::Largest,
        );
        assert_eq!(notes[0].judgement, Judgement::Blunder);
        let text = notes[0].comment();
        assert!(
            text.starts_with(&format!("engine loses by 3; best {best} ")),
            "{text}"
        );
        assert!(text.contains("; blunder"), "{text}");
    }
}
