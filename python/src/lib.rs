//! The `mabula` Python package's native module (`mabula._mabula`): the rules crate's positions,
//! moves, scores, deals and records, and the engine's move choice, analysis and exact solver.
//! The engine calls run on a thread of their own while the calling thread waits without the GIL
//! (so other Python threads keep running) and looks for signals every 50 ms: Ctrl-C stops the
//! search (through its stop flag) and raises KeyboardInterrupt, with or without a time limit.
//!
//! Moves cross the boundary as their notation (`"b1-b4"`, `"pass"`) or, for game frameworks, as
//! action numbers: a push's one-byte code (0 to 143, in notation order) and 144 for a pass.
//! Colours are `"white"` and `"black"`, scoring modes `"largest"` and `"product"`.

use mabula::{Bitboard, Color, Game, GameResult, Move, Position, Scoring, Square};
use mabula_engine::annotate::{Deepening, Report, Settings};
use mabula_engine::{EngineConfig, Level, Limits, SolveMode, Solver, Value};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyStopIteration, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often a waiting engine call looks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own with a stop flag, waiting for it without the GIL and
/// looking for signals every [`SIGNAL_POLL`]: on a signal (KeyboardInterrupt from Ctrl-C) it
/// raises the stop flag, waits for the search to end (promptly: searches poll the flag) and
/// answers the signal's exception. A panic in `work` is carried on to the caller.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel(1);
        // A Receiver cannot be shared with the GIL-free closure; a Mutex can.
        let rx = Mutex::new(rx);
        let flag = Arc::clone(&stop);
        let worker = scope.spawn(move || {
            let _ = tx.send(work(flag));
        });
        loop {
            let got = py.detach(|| match rx.lock() {
                Ok(rx) => rx.recv_timeout(SIGNAL_POLL),
                Err(_) => Err(RecvTimeoutError::Disconnected),
            });
            match got {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        let _ = py.detach(|| worker.join());
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The worker panicked before it could answer: carry the panic on.
                    match worker.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => unreachable!("the worker answers before it ends"),
                    }
                }
            }
        }
    })
}

// Named as `mabula` exports it, so that it pickles (to another process of a ProcessPoolExecutor):
// pickle finds a class by its module and name, and `_mabula` is not a module one can import.
create_exception!(
    mabula,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position (its message says why)."
);

/// The action number of a pass.
const PASS_ACTION: u32 = 144;

/// The longest time any call takes (the engine's limit: a day).
const MAX_MS: i128 = mabula_engine::levels::MAX_THINK_MS as i128;

/// A time in milliseconds given by Python: `ValueError` below 0 or above a day, not an overflow.
fn millis(name: &str, ms: Option<i128>) -> PyResult<Option<Duration>> {
    match ms {
        None => Ok(None),
        Some(ms) if (0..=MAX_MS).contains(&ms) => Ok(Some(Duration::from_millis(ms as u64))),
        Some(ms) => Err(value_error(format!(
            "{name}={ms}: give 0 to {MAX_MS} milliseconds (a day), or None"
        ))),
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn parse_scoring(text: &str) -> PyResult<Scoring> {
    text.parse().map_err(value_error)
}

fn parse_color(text: &str) -> PyResult<Color> {
    Color::parse(text)
        .ok_or_else(|| value_error(format!("'{text}' is not a colour: use white or black")))
}

fn parse_move(text: &str) -> PyResult<Move> {
    text.parse().map_err(value_error)
}

fn action_of(mv: Move) -> u32 {
    if mv.is_pass() {
        PASS_ACTION
    } else {
        u32::from(mv.code())
    }
}

fn move_of(action: u32) -> PyResult<Move> {
    if action == PASS_ACTION {
        return Ok(Move::PASS);
    }
    u8::try_from(action)
        .ok()
        .and_then(Move::from_code)
        .filter(|m| !m.is_pass())
        .ok_or_else(|| value_error(format!("{action} is not an action: use 0 to 144")))
}

/// A position: the board and the side to move. Immutable: `play` answers a new position.
#[pyclass(name = "Position", module = "mabula", frozen)]
#[derive(Clone, Copy)]
struct PyPosition(Position);

#[pymethods]
impl PyPosition {
    /// Reads a position string (RULES.md section 6); raises ValueError saying what is wrong.
    #[new]
    fn new(text: &str) -> PyResult<PyPosition> {
        Position::parse(text).map(PyPosition).map_err(value_error)
    }

    /// The deal of `seed` (the same everywhere), with `first` to move.
    #[staticmethod]
    #[pyo3(signature = (seed, first = "white"))]
    fn deal(seed: u64, first: &str) -> PyResult<PyPosition> {
        Ok(PyPosition(mabula::deal::random(seed, parse_color(first)?)))
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn side_to_move(&self) -> String {
        self.0.side_to_move().to_string()
    }

    /// The legal moves in notation, sorted; `["pass"]` when passing is the only move; empty
    /// when the game is over.
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = self.0.legal_moves();
        moves.sort_unstable();
        moves.iter().map(Move::to_string).collect()
    }

    /// The legal moves as action numbers, ascending (144 is a pass).
    fn legal_actions(&self) -> Vec<u32> {
        let mut actions: Vec<u32> = self.0.legal_moves().iter().map(|&m| action_of(m)).collect();
        actions.sort_unstable();
        actions
    }

    /// Whether `move` (notation) is legal here.
    fn is_legal(&self, r#move: &str) -> bool {
        r#move.parse().is_ok_and(|mv| self.0.is_legal(mv))
    }

    /// The position after `move` (notation); raises IllegalMoveError with the reason.
    fn play(&self, r#move: &str) -> PyResult<PyPosition> {
        let mv = parse_move(r#move)?;
        self.0
            .play(mv)
            .map(PyPosition)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The position after an action number; raises IllegalMoveError with the reason.
    fn play_action(&self, action: u32) -> PyResult<PyPosition> {
        self.0
            .play(move_of(action)?)
            .map(PyPosition)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.0.is_game_over()
    }

    /// Whether the side to move can only pass.
    fn must_pass(&self) -> bool {
        self.0.legal_moves().first() == Some(&Move::PASS)
    }

    /// `(white, black)`: both scores of the field now.
    #[pyo3(signature = (scoring = "largest"))]
    fn scores(&self, scoring: &str) -> PyResult<(u32, u32)> {
        let s = self.0.scores(parse_scoring(scoring)?);
        Ok((s.white, s.black))
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"` once the game is over, else `"*"`.
    #[pyo3(signature = (scoring = "largest"))]
    fn result(&self, scoring: &str) -> PyResult<String> {
        let result = match self.0.outcome(parse_scoring(scoring)?) {
            Some(o) => GameResult::from(o),
            None => GameResult::Unfinished,
        };
        Ok(result.to_string())
    }

    /// Marbles of `color` still on edge spaces.
    fn on_edge(&self, color: &str) -> PyResult<u32> {
        let c = parse_color(color)?;
        Ok((self.0.marbles(c) & mabula::Bitboard::EDGE).count())
    }

    /// The marble on `square` (`"b4"`): `"white"`, `"black"`, or None when it is empty;
    /// raises ValueError for a name that is not a square.
    fn piece_at(&self, square: &str) -> PyResult<Option<String>> {
        let sq: Square = square.parse().map_err(value_error)?;
        Ok(Color::BOTH
            .into_iter()
            .find(|&c| self.0.marbles(c).contains(sq))
            .map(|c| c.to_string()))
    }

    /// The squares of `color`'s marbles, in the field and on the edge, in square order (a1,
    /// b1, ..., h8).
    fn pieces(&self, color: &str) -> PyResult<Vec<String>> {
        Ok(squares(self.0.marbles(parse_color(color)?)))
    }

    /// The groups of `color` (RULES.md section 5: orthogonally connected marbles in the field),
    /// largest first, each as its squares in square order; ties in the order of their first
    /// square.
    fn groups(&self, color: &str) -> PyResult<Vec<Vec<String>>> {
        let mut groups: Vec<Bitboard> = self.0.groups(parse_color(color)?).collect();
        groups.sort_by_key(|g| std::cmp::Reverse(g.count()));
        Ok(groups.into_iter().map(squares).collect())
    }

    /// The sizes of `color`'s groups, largest first (the scores: the first, or the product).
    fn group_sizes(&self, color: &str) -> PyResult<Vec<u32>> {
        let mut sizes: Vec<u32> = self
            .0
            .groups(parse_color(color)?)
            .map(Bitboard::count)
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        Ok(sizes)
    }

    /// The board drawn as text.
    fn diagram(&self) -> String {
        mabula::diagram::diagram(&self.0, mabula::Bitboard::EMPTY)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPosition>()
            .is_ok_and(|o| o.get().0 == self.0)
    }

    fn __hash__(&self) -> u64 {
        self.0.hash()
    }

    fn __copy__(&self) -> PyPosition {
        *self
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        *self
    }

    /// Pickles as the position string.
    fn __reduce__(&self, py: Python<'_>) -> (Py<PyAny>, (String,)) {
        (
            py.get_type::<PyPosition>().into_any().unbind(),
            (self.0.to_string(),),
        )
    }
}

fn squares(board: Bitboard) -> Vec<String> {
    board.map(|sq| sq.name().to_string()).collect()
}

/// Why a tag cannot be set so that the record reads back, if it cannot.
fn check_tag(name: &str, value: &str) -> Result<(), String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "'{name}' is not a tag name: use letters, digits and _"
        ));
    }
    match name {
        "Setup" => {
            return Err(
                "the Setup tag is the game's start: make a new Game(start) instead".to_string(),
            );
        }
        "Scoring" => {
            return Err("the Scoring tag is the game's scoring: give it to Game()".to_string());
        }
        "Result" => return Err("the Result tag comes from the moves or declare()".to_string()),
        _ => {}
    }
    if value.contains(['\n', '\r']) {
        return Err(format!(
            "the {name} tag's value has a line break: a tag is one line"
        ));
    }
    Ok(())
}

/// A game: where it started, its scoring mode, the moves, tags and comments; its text is a
/// record (RULES.md section 6).
#[pyclass(name = "Game", module = "mabula")]
#[derive(Clone, PartialEq)]
struct PyGame(Game);

#[pymethods]
impl PyGame {
    /// A new game from `start`, scored with `scoring`.
    #[new]
    #[pyo3(signature = (start, scoring = "largest"))]
    fn new(start: &PyPosition, scoring: &str) -> PyResult<PyGame> {
        Ok(PyGame(Game::new(start.0, parse_scoring(scoring)?)))
    }

    /// Reads one record; raises ValueError with the line and the reason.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyGame> {
        Game::parse(text).map(PyGame).map_err(value_error)
    }

    /// The starting position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition(*self.0.start())
    }

    /// The position now.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(*self.0.position())
    }

    /// `"largest"` or `"product"`.
    #[getter]
    fn scoring(&self) -> String {
        self.0.scoring().to_string()
    }

    /// The moves played, in notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.0.moves().iter().map(Move::to_string).collect()
    }

    /// The result: by the rules once the game is over, else as declared (`"*"` by default).
    #[getter]
    fn result(&self) -> String {
        self.0.result().to_string()
    }

    /// Every position of the game, the start first.
    fn positions(&self) -> Vec<PyPosition> {
        self.0.positions().into_iter().map(PyPosition).collect()
    }

    /// Plays a move (notation); raises IllegalMoveError and changes nothing if it is illegal.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        let mv = parse_move(r#move)?;
        self.0
            .play(mv)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// Takes back the last move and answers it; None when there is none.
    fn undo(&mut self) -> Option<String> {
        self.0.undo().map(|m| m.to_string())
    }

    /// Ends an unfinished game with a result (`"1-0"`, `"0-1"`, `"1/2-1/2"`).
    fn declare(&mut self, result: &str) -> PyResult<()> {
        let r = GameResult::parse(result)
            .ok_or_else(|| value_error(format!("'{result}' is not a result")))?;
        self.0.declare(r);
        Ok(())
    }

    /// The value of a tag (Setup, Scoring and Result too, as the record writes them); None when
    /// the game has no such tag.
    fn tag(&self, name: &str) -> Option<String> {
        match name {
            "Setup" => Some(self.0.start().to_string()),
            "Scoring" => Some(self.0.scoring().to_string()),
            "Result" => Some(self.0.result().to_string()),
            _ => self.0.tag(name).map(str::to_string),
        }
    }

    /// Every tag as the record writes them, in order: the game's own, then Setup, Scoring and
    /// Result.
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let text = self.0.to_string();
        for line in text.lines().take_while(|l| l.starts_with('[')) {
            if let Some((name, _)) = line[1..].split_once(' ')
                && let Some(value) = self.tag(name)
            {
                dict.set_item(name, value)?;
            }
        }
        Ok(dict)
    }

    /// Sets a tag. Raises ValueError for what a record could not read back: a name that is not
    /// letters, digits and `_`, a value with a line break, and Setup, Scoring and Result, which
    /// come from the game itself (`Game(start, scoring)`, the moves, `declare`).
    fn set_tag(&mut self, name: &str, value: &str) -> PyResult<()> {
        check_tag(name, value).map_err(value_error)?;
        self.0.set_tag(name, value);
        Ok(())
    }

    /// The comment after move `index` (0 first).
    fn comment(&self, index: usize) -> Option<String> {
        self.0.comment(index).map(str::to_string)
    }

    /// Sets the comment after move `index` (0 first); spaces around it are dropped, everything
    /// else reads back from the record (`}` and line breaks are escaped there). Raises
    /// IndexError past the last move.
    fn set_comment(&mut self, index: usize, text: &str) -> PyResult<()> {
        if index >= self.0.moves().len() {
            return Err(PyIndexError::new_err(format!(
                "no move {index}: the game has {} moves",
                self.0.moves().len()
            )));
        }
        self.0.set_comment(index, text);
        Ok(())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGame>().is_ok_and(|o| o.borrow().0 == self.0)
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// Pickles as the record, which reads back to the same game.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let parse = py.get_type::<PyGame>().getattr("parse")?.unbind();
        Ok((parse, (self.0.to_string(),)))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Game from '{}', {} moves, {}>",
            self.0.start(),
            self.0.moves().len(),
            self.0.result()
        )
    }
}

/// Every record of a text holding one or more (as `mabula match --records` writes them);
/// raises ValueError naming the game and line of the first bad one.
#[pyfunction]
fn parse_records(text: &str) -> PyResult<Vec<PyGame>> {
    mabula::record::parse_all(text)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.map(PyGame)
                .map_err(|e| value_error(format!("game {}: {e}", i + 1)))
        })
        .collect()
}

/// The deal of `seed`, with `first` to move (the same as `Position.deal`).
#[pyfunction]
#[pyo3(signature = (seed, first = "white"))]
fn deal(seed: u64, first: &str) -> PyResult<PyPosition> {
    PyPosition::deal(seed, first)
}

/// All 40,158 valid deals with `first` to move, in a fixed order.
#[pyfunction]
#[pyo3(signature = (first = "white"))]
fn all_deals(py: Python<'_>, first: &str) -> PyResult<Vec<PyPosition>> {
    let c = parse_color(first)?;
    Ok(py
        .detach(|| mabula::deal::all(c))
        .into_iter()
        .map(PyPosition)
        .collect())
}

/// None if `position` is a valid opening deal (all 24 marbles on the edge, no three in a row
/// of one colour around the ring), else what is wrong.
#[pyfunction]
fn check_deal(position: &PyPosition) -> Option<String> {
    mabula::deal::check(&position.0)
        .err()
        .map(|e| e.to_string())
}

/// The action number of a move in notation.
#[pyfunction]
fn move_to_action(r#move: &str) -> PyResult<u32> {
    Ok(action_of(parse_move(r#move)?))
}

/// The notation of an action number.
#[pyfunction]
fn action_to_move(action: u32) -> PyResult<String> {
    Ok(move_of(action)?.to_string())
}

/// What the engine thinks of one move.
#[pyclass(name = "MoveAnalysis", module = "mabula", frozen, get_all)]
#[derive(Clone)]
struct PyMoveAnalysis {
    /// The move, in notation.
    #[pyo3(name = "move")]
    mv: String,
    /// The value in one word: `0.634` (an estimate), `win`, `draw`, `loss`, `win+2`, `loss-3`.
    value: String,
    /// Whether the value is proven.
    exact: bool,
    /// When proven: 1 win, 0 draw, -1 loss for the side to move.
    result: Option<i32>,
    /// When proven with its margin: the final score margin for the side to move.
    margin: Option<i32>,
    /// The value as an expected score (win 1, draw 0.5, loss 0).
    expected: f64,
    /// Playouts through the move.
    visits: u64,
    /// The principal line, this move first.
    pv: Vec<String>,
}

#[pymethods]
impl PyMoveAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "<MoveAnalysis {} {} visits={} pv={}>",
            self.mv,
            self.value,
            self.visits,
            self.pv.join(" ")
        )
    }
}

fn move_analysis(m: &mabula_engine::MoveAnalysis) -> PyMoveAnalysis {
    let (exact, result, margin) = match m.value {
        Value::Exact { result, margin } => (true, Some(i32::from(result)), margin),
        Value::Estimate(_) => (false, None, None),
    };
    PyMoveAnalysis {
        mv: m.mv.to_string(),
        value: m.value.token(),
        exact,
        result,
        margin,
        expected: m.value.expected(),
        visits: m.visits,
        pv: m.pv.iter().map(Move::to_string).collect(),
    }
}

/// The exact solution of a position.
#[pyclass(name = "Solution", module = "mabula", frozen, get_all)]
#[derive(Clone)]
struct PySolution {
    /// 1 win, 0 draw, -1 loss for the side to move.
    result: i32,
    /// The final margin for the side to move when solved with `margin=True`, else None.
    margin: Option<i32>,
    /// A best move (`"pass"` when passing is forced), None when the game is over.
    best: Option<String>,
    /// The principal line to the end of the game.
    pv: Vec<String>,
    /// Nodes searched.
    nodes: u64,
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        format!(
            "<Solution result={} margin={:?} best={:?}>",
            self.result, self.margin, self.best
        )
    }
}

/// One step of an analysis: the best moves so far and how far it went.
#[pyclass(name = "AnalysisReport", module = "mabula", frozen, get_all)]
#[derive(Clone)]
struct PyAnalysisReport {
    /// The best moves so far (at most `lines`), best first, valued for the side to move.
    moves: Vec<PyMoveAnalysis>,
    /// White's expected score (1 win, 1/2 draw, 0 loss) with the best move.
    white: f64,
    /// Playouts made so far.
    playouts: u64,
    /// Milliseconds spent so far.
    elapsed_ms: u64,
    /// The step this report ends (1 first).
    step: u32,
    /// Whether this is the last report.
    done: bool,
}

#[pymethods]
impl PyAnalysisReport {
    fn __repr__(&self) -> String {
        format!(
            "<AnalysisReport step={} done={} playouts={} best={}>",
            self.step,
            self.done,
            self.playouts,
            self.moves.first().map_or("-", |m| m.mv.as_str())
        )
    }
}

fn report_of(r: &Report) -> PyAnalysisReport {
    PyAnalysisReport {
        moves: r.moves.iter().map(move_analysis).collect(),
        white: r.white,
        playouts: r.playouts,
        elapsed_ms: u64::try_from(r.elapsed.as_millis()).unwrap_or(u64::MAX),
        step: r.step,
        done: r.done,
    }
}

/// What an analysis needs on its thread.
#[derive(Clone)]
struct AnalysisJob {
    pos: Position,
    scoring: Scoring,
    settings: Settings,
    time: Option<Duration>,
}

impl AnalysisJob {
    fn new(
        position: &PyPosition,
        scoring: &str,
        time_ms: Option<i128>,
        threads: usize,
        lines: Option<usize>,
        seed: u64,
    ) -> PyResult<AnalysisJob> {
        let time = millis("time_ms", time_ms)?.map(|t| t.max(Duration::from_millis(1)));
        Ok(AnalysisJob {
            pos: position.0,
            scoring: parse_scoring(scoring)?,
            settings: Settings {
                time: time.unwrap_or(Duration::MAX),
                threads: threads.max(1),
                lines: lines.unwrap_or(usize::MAX),
                seed,
                ..Settings::default()
            },
            time,
        })
    }

    /// Runs the analysis until its time is up, every value is exact or `stop` is raised,
    /// sending each step's report.
    fn run(self, stop: Arc<AtomicBool>, tx: &SyncSender<Report>) -> Report {
        let mut deepening = Deepening::new(self.scoring, &self.settings);
        deepening.start(&self.pos);
        let limits = Limits {
            time: self.time,
            nodes: None,
            stop: Some(stop),
            turns: None,
        };
        deepening.advance(&limits, |r| {
            let _ = tx.send(r.clone());
        })
    }

    /// Starts the analysis on a thread of its own.
    fn spawn(self, stop: Arc<AtomicBool>) -> (Receiver<Report>, JoinHandle<()>) {
        let (tx, rx) = sync_channel(64);
        let handle = std::thread::spawn(move || {
            self.run(stop, &tx);
        });
        (rx, handle)
    }
}

/// An analysis running on a thread of its own: an iterator of its reports (AnalysisReport),
/// the last one `done`. Waiting for the next report releases the GIL and sees Ctrl-C within
/// 50 ms; `close()` (or leaving a `with` block, or dropping it) stops the search.
#[pyclass(name = "AnalysisStream", module = "mabula")]
struct PyAnalysisStream {
    rx: Mutex<Option<Receiver<Report>>>,
    stop: Arc<AtomicBool>,
    handle: Mutex<Option<JoinHandle<()>>>,
}

impl PyAnalysisStream {
    fn finish(&self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut rx) = self.rx.lock() {
            rx.take();
        }
        let handle = self.handle.lock().ok().and_then(|mut h| h.take());
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

impl Drop for PyAnalysisStream {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[pymethods]
impl PyAnalysisStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<PyAnalysisReport> {
        loop {
            let got = py.detach(|| {
                let rx = self.rx.lock().map_err(|_| RecvTimeoutError::Disconnected)?;
                match rx.as_ref() {
                    Some(rx) => rx.recv_timeout(SIGNAL_POLL),
                    None => Err(RecvTimeoutError::Disconnected),
                }
            });
            match got {
                Ok(report) => return Ok(report_of(&report)),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        py.detach(|| self.finish());
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    py.detach(|| self.finish());
                    return Err(PyStopIteration::new_err(()));
                }
            }
        }
    }

    /// Stops the search and waits for its thread; the iteration then ends.
    fn close(&self, py: Python<'_>) {
        py.detach(|| self.finish());
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.close(py);
        false
    }
}

/// Chooses a move for the side to move at strength `level` (1 to 10) within `movetime_ms` (the
/// level decides when None); `seed` makes it reproducible. Answers `"pass"` when passing is
/// the only move. Runs without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (position, scoring = "largest", level = 10, movetime_ms = None, seed = 0))]
fn choose_move(
    py: Python<'_>,
    position: &PyPosition,
    scoring: &str,
    level: u8,
    movetime_ms: Option<i128>,
    seed: u64,
) -> PyResult<String> {
    let scoring = parse_scoring(scoring)?;
    if !(1..=mabula_engine::MAX_LEVEL).contains(&level) {
        return Err(value_error(format!("level {level}: use 1 to 10")));
    }
    if position.0.is_game_over() {
        return Err(value_error("the game is over"));
    }
    let pos = position.0;
    let movetime = millis("movetime_ms", movetime_ms)?;
    // As mabula_engine::choose_move, with a stop flag.
    let mv = interruptible(py, move |stop| {
        let level = Level::new(level, seed);
        let time = match (movetime, level.playouts) {
            (None, None) => Some(mabula_engine::levels::DEFAULT_MOVETIME),
            (t, _) => t,
        };
        let limits = Limits {
            time,
            nodes: level.playouts,
            stop: Some(stop),
            turns: None,
        };
        let config = EngineConfig {
            reuse: false,
            ..level.config
        };
        mabula_engine::Engine::new(config, scoring).choose(&pos, &limits)
    })?;
    Ok(mv.to_string())
}

/// Analyses a position for about `time_ms` milliseconds (None: until every move's value is
/// exact, or Ctrl-C): the best `lines` moves (all when None), best first, with values (exact,
/// with margins, late in the game), visits and lines. The same analysis as `mabula analyze`.
/// `callback`, when given, is called with an AnalysisReport after every step of the search (the
/// last one `done`); an exception it raises stops the analysis and is raised here. Runs
/// without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (position, scoring = "largest", time_ms = Some(1000), threads = 1, lines = None, seed = 0, callback = None))]
#[allow(clippy::too_many_arguments)]
fn analyze(
    py: Python<'_>,
    position: &PyPosition,
    scoring: &str,
    time_ms: Option<i128>,
    threads: usize,
    lines: Option<usize>,
    seed: u64,
    callback: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<PyMoveAnalysis>> {
    let job = AnalysisJob::new(position, scoring, time_ms, threads, lines, seed)?;
    let stream = analyze_stream_of(job);
    let mut last = None;
    loop {
        match stream.__next__(py) {
            Ok(report) => {
                if let Some(f) = &callback
                    && let Err(e) = f.call1((report.clone(),))
                {
                    stream.close(py);
                    return Err(e);
                }
                last = Some(report);
            }
            Err(e) if e.is_instance_of::<PyStopIteration>(py) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(last.map(|r| r.moves).unwrap_or_default())
}

fn analyze_stream_of(job: AnalysisJob) -> PyAnalysisStream {
    let stop = Arc::new(AtomicBool::new(false));
    let (rx, handle) = job.spawn(Arc::clone(&stop));
    PyAnalysisStream {
        rx: Mutex::new(Some(rx)),
        stop,
        handle: Mutex::new(Some(handle)),
    }
}

/// The analysis of `analyze` as an iterator of AnalysisReport, one per step, the last `done`:
/// `for report in mabula.analyze_stream(pos, time_ms=None): ...` (break, `close()` or a `with`
/// block stop it). The search runs on a thread of its own from the call on.
#[pyfunction]
#[pyo3(signature = (position, scoring = "largest", time_ms = None, threads = 1, lines = None, seed = 0))]
fn analyze_stream(
    position: &PyPosition,
    scoring: &str,
    time_ms: Option<i128>,
    threads: usize,
    lines: Option<usize>,
    seed: u64,
) -> PyResult<PyAnalysisStream> {
    let job = AnalysisJob::new(position, scoring, time_ms, threads, lines, seed)?;
    Ok(analyze_stream_of(job))
}

/// Solves a position exactly: the result (and with `margin=True` the final margin), a best move
/// and the line; None when `time_ms` ran out first. Runs without the GIL; Ctrl-C stops it
/// (KeyboardInterrupt), with or without a time limit.
#[pyfunction]
#[pyo3(signature = (position, scoring = "largest", margin = false, time_ms = None, threads = 1, table_mb = 64))]
fn solve(
    py: Python<'_>,
    position: &PyPosition,
    scoring: &str,
    margin: bool,
    time_ms: Option<i128>,
    threads: usize,
    table_mb: usize,
) -> PyResult<Option<PySolution>> {
    let scoring = parse_scoring(scoring)?;
    if !mabula_engine::tt::Table::fits(table_mb) {
        return Err(value_error(format!(
            "table_mb={table_mb}: this machine cannot give a table that large"
        )));
    }
    let mode = if margin {
        SolveMode::Margin
    } else {
        SolveMode::Result
    };
    let time = millis("time_ms", time_ms)?;
    let pos = position.0;
    let sol = interruptible(py, move |stop| {
        let limits = Limits {
            time,
            stop: Some(stop),
            ..Limits::none()
        };
        Solver::new(scoring, table_mb.max(1)).solve_threads(&pos, mode, &limits, threads.max(1))
    })?;
    Ok(sol.map(|s| PySolution {
        result: s.value.signum(),
        margin: margin.then_some(s.value),
        best: (!pos.is_game_over()).then(|| s.best.to_string()),
        pv: s.pv.iter().map(Move::to_string).collect(),
        nodes: s.nodes,
    }))
}

/// The native module; `mabula/__init__.py` re-exports it.
#[pymodule]
fn _mabula(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyMoveAnalysis>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyAnalysisReport>()?;
    m.add_class::<PyAnalysisStream>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("PASS_ACTION", PASS_ACTION)?;
    m.add("NUM_ACTIONS", PASS_ACTION + 1)?;
    m.add("DEAL_COUNT", 40_158u32)?;
    m.add("MAX_LEVEL", mabula_engine::MAX_LEVEL)?;
    m.add_function(wrap_pyfunction!(parse_records, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(all_deals, m)?)?;
    m.add_function(wrap_pyfunction!(check_deal, m)?)?;
    m.add_function(wrap_pyfunction!(move_to_action, m)?)?;
    m.add_function(wrap_pyfunction!(action_to_move, m)?)?;
    m.add_function(wrap_pyfunction!(choose_move, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_stream, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    Ok(())
}
