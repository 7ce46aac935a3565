//! `mabula analysis-server`: the analysis as a service for GUIs and data pipelines, like
//! KataGo's analysis engine. JSON queries, one a line, come in on stdin; JSON lines come out on
//! stdout, each carrying the id of the query it answers. Several queries are analysed at once
//! on a pool of `--threads` workers; a query can be cancelled; a line that is not a valid query
//! is answered with an error and the service goes on; at the end of stdin the queries in flight
//! are finished, then the service exits. docs/analysis-server.md documents every message, and
//! `docs/schemas/analysis-server/` holds their JSON Schemas.

use crate::engine_cmds::report_json;
use anyhow::Result;
use mabula::{Game, Move, Position, Scoring};
use mabula_engine::Limits;
use mabula_engine::annotate::{Deepening, Settings};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The analysis service's command.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Answer analysis queries given as JSON lines on stdin with JSON lines on stdout, several
    /// at once (see docs/analysis-server.md).
    ///
    /// A query: {"id": "q1", "position": "POSITION", "scoring": "largest", "time_ms": 200}.
    /// Cancel one with {"id": "c1", "action": "terminate", "terminate_id": "q1"}.
    AnalysisServer {
        /// Queries analysed at the same time (default: every core).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Search threads of each query's analysis.
        #[arg(long, default_value_t = 1, value_name = "N")]
        search_threads: usize,
    },
}

/// The longest query line, in bytes (a record of a long game fits many times over).
pub const MAX_QUERY: usize = 1 << 20;
/// The default thinking time of a query's position.
const DEFAULT_TIME_MS: u64 = 1000;
/// The longest thinking time a query may ask for one position.
const MAX_TIME_MS: u64 = 3_600_000;
/// The shortest interval between interim lines.
const MIN_INTERVAL_MS: u64 = 10;

/// Runs the service.
pub fn run(cmd: Command) -> Result<()> {
    let Command::AnalysisServer {
        threads,
        search_threads,
    } = cmd;
    let workers = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 1024);
    let server = Server {
        out: Mutex::new(std::io::stdout()),
        flights: Mutex::new(HashMap::new()),
        search_threads: search_threads.clamp(1, 1024),
    };
    serve(&server, std::io::stdin().lock(), workers);
    Ok(())
}

/// What the workers share.
struct Server<W: Write + Send> {
    out: Mutex<W>,
    /// The stop flag of every query queued or running, by id.
    flights: Mutex<HashMap<String, Arc<AtomicBool>>>,
    search_threads: usize,
}

/// A query read and checked, waiting for a worker.
struct Query {
    id: Value,
    key: String,
    start: Position,
    moves: Vec<Move>,
    turns: Vec<usize>,
    scoring: Scoring,
    time: Duration,
    playouts: Option<u64>,
    lines: usize,
    interval: Option<Duration>,
    stop: Arc<AtomicBool>,
}

/// Reads queries until the end of `input`, answering them on a pool of `workers` threads; then
/// waits for the queries in flight.
fn serve<W: Write + Send>(server: &Server<W>, mut input: impl BufRead, workers: usize) {
    let (tx, rx) = mpsc::channel::<Query>();
    let rx = Mutex::new(rx);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let rx: &Mutex<Receiver<Query>> = &rx;
            scope.spawn(move || {
                loop {
                    let next = rx.lock().map(|r| r.recv());
                    let Ok(Ok(query)) = next else {
                        return;
                    };
                    server.answer(query);
                }
            });
        }
        // The end of stdin (or a failure to read it) ends the loop.
        while let Ok(Some(line)) = read_query_line(&mut input) {
            let Some(text) = line else {
                server.write(&error_line(
                    None,
                    &format!("line too long: at most {MAX_QUERY} bytes"),
                ));
                continue;
            };
            if text.trim().is_empty() {
                continue;
            }
            if let Some(query) = server.take(&text) {
                let _ = tx.send(query);
            }
        }
        drop(tx);
    });
}

impl<W: Write + Send> Server<W> {
    /// Writes one JSON line and flushes it; a closed stdout ends the program quietly.
    fn write(&self, value: &Value) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = writeln!(out, "{value}").and_then(|()| out.flush()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                crate::stdout_closed();
            }
            eprintln!("mabula: cannot write to stdout: {e}");
            std::process::exit(1);
        }
    }

    /// Reads one line: a query to queue, or an action or an error answered at once.
    fn take(&self, text: &str) -> Option<Query> {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.write(&error_line(None, &format!("the line is not JSON: {e}")));
                return None;
            }
        };
        let Some(obj) = value.as_object() else {
            self.write(&error_line(None, "a query is a JSON object"));
            return None;
        };
        let id = match obj.get("id") {
            Some(id) if valid_id(id) => id.clone(),
            Some(_) => {
                self.write(&error_line(None, "id must be a string or a whole number"));
                return None;
            }
            None => {
                self.write(&error_line(None, "a query needs an id"));
                return None;
            }
        };
        match obj.get("action").map(|a| a.as_str()) {
            None => {}
            Some(Some("terminate")) => {
                self.terminate(&id, obj);
                return None;
            }
            Some(Some("terminate_all")) => {
                if let Some(field) = unknown_field(obj, &["id", "action"]) {
                    self.write(&error_line(Some(&id), &field));
                    return None;
                }
                let flights = self.flights.lock().unwrap_or_else(|e| e.into_inner());
                let mut ids: Vec<&String> = flights.keys().collect();
                ids.sort();
                for flag in flights.values() {
                    flag.store(true, Ordering::Relaxed);
                }
                self.write(&json!({
                    "type": "terminated",
                    "id": id,
                    "terminated": ids,
                }));
                return None;
            }
            Some(Some("query_version")) => {
                if let Some(field) = unknown_field(obj, &["id", "action"]) {
                    self.write(&error_line(Some(&id), &field));
                    return None;
                }
                self.write(&json!({
                    "type": "version",
                    "id": id,
                    "version": env!("CARGO_PKG_VERSION"),
                }));
                return None;
            }
            Some(_) => {
                self.write(&error_line(
                    Some(&id),
                    "unknown action: the actions are terminate, terminate_all and query_version",
                ));
                return None;
            }
        }
        let key = id_key(&id);
        let stop = Arc::new(AtomicBool::new(false));
        let query = match parse_query(obj, id.clone(), key.clone(), Arc::clone(&stop)) {
            Ok(q) => q,
            Err(e) => {
                self.write(&error_line(Some(&id), &e));
                return None;
            }
        };
        let mut flights = self.flights.lock().unwrap_or_else(|e| e.into_inner());
        if flights.contains_key(&key) {
            drop(flights);
            self.write(&error_line(
                Some(&id),
                "a query with this id is in flight: give each query its own id",
            ));
            return None;
        }
        flights.insert(key, stop);
        Some(query)
    }

    /// `{"id": ..., "action": "terminate", "terminate_id": ...}`.
    fn terminate(&self, id: &Value, obj: &Map<String, Value>) {
        if let Some(field) = unknown_field(obj, &["id", "action", "terminate_id"]) {
            self.write(&error_line(Some(id), &field));
            return;
        }
        let target = match obj.get("terminate_id") {
            Some(t) if valid_id(t) => t.clone(),
            _ => {
                self.write(&error_line(
                    Some(id),
                    "terminate needs terminate_id, the id of the query to end",
                ));
                return;
            }
        };
        let found = {
            let flights = self.flights.lock().unwrap_or_else(|e| e.into_inner());
            match flights.get(&id_key(&target)) {
                Some(flag) => {
                    flag.store(true, Ordering::Relaxed);
                    true
                }
                None => false,
            }
        };
        let ids: Vec<Value> = if found { vec![target] } else { Vec::new() };
        self.write(&json!({
            "type": "terminated",
            "id": id,
            "terminated": ids,
        }));
    }

    /// Analyses the positions of a query and writes its lines; the last is final.
    fn answer(&self, q: Query) {
        let settings = Settings {
            time: q.time,
            work: q
                .playouts
                .map(|p| p.saturating_mul(mabula_engine::annotate::PLAYOUT_WORK)),
            threads: self.search_threads,
            lines: q.lines,
            ..Settings::default()
        };
        let mut deepening = Deepening::new(q.scoring, &settings);
        let positions = positions(&q.start, &q.moves);
        let count = q.turns.len();
        for (k, &turn) in q.turns.iter().enumerate() {
            let pos = positions[turn];
            let last_turn = k + 1 == count;
            deepening.start(&pos);
            let limits = Limits {
                time: Some(q.time),
                nodes: settings.work,
                stop: Some(Arc::clone(&q.stop)),
                turns: None,
            };
            let mut last_interim = Instant::now();
            let report = deepening.advance(&limits, |r| {
                if let Some(every) = q.interval
                    && !r.done
                    && last_interim.elapsed() >= every
                {
                    last_interim = Instant::now();
                    self.write(&analysis_line(&q, turn, &pos, r, false, false));
                }
            });
            let stopped = q.stop.load(Ordering::Relaxed);
            let fin = last_turn || stopped;
            if fin {
                // The id is free again before the final line is read.
                self.flights
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&q.key);
            }
            self.write(&analysis_line(&q, turn, &pos, &report, fin, stopped));
            if fin {
                return;
            }
        }
    }
}

/// One analysis line of a query.
fn analysis_line(
    q: &Query,
    turn: usize,
    pos: &Position,
    r: &mabula_engine::annotate::Report,
    fin: bool,
    terminated: bool,
) -> Value {
    let mut line = report_json(pos, q.scoring, r);
    if let Some(obj) = line.as_object_mut() {
        obj.insert("id".into(), q.id.clone());
        obj.insert("turn".into(), json!(turn));
        obj.insert("final".into(), json!(fin));
        obj.insert("terminated".into(), json!(terminated));
    }
    line
}

/// The positions of a game: the start and after each move.
fn positions(start: &Position, moves: &[Move]) -> Vec<Position> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut pos = *start;
    out.push(pos);
    for &mv in moves {
        pos.play_unchecked(mv);
        out.push(pos);
    }
    out
}

/// An error line, with the query's id when it could be read.
fn error_line(id: Option<&Value>, message: &str) -> Value {
    json!({
        "type": "error",
        "id": id.cloned().unwrap_or(Value::Null),
        "error": message,
    })
}

/// Whether a value can be an id: a string or a whole number.
fn valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    }
}

/// The key of an id in the table of queries in flight (`"1"` and `1` are different ids).
fn id_key(id: &Value) -> String {
    id.to_string()
}

/// The message for a field that is not among `known`, if there is one.
fn unknown_field(obj: &Map<String, Value>, known: &[&str]) -> Option<String> {
    let mut names: Vec<&String> = obj
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .collect();
    names.sort();
    names.first().map(|name| {
        format!(
            "unknown field '{name}': the fields here are {}",
            known.join(", ")
        )
    })
}

const QUERY_FIELDS: [&str; 12] = [
    "id",
    "position",
    "record",
    "game",
    "start",
    "moves",
    "turns",
    "scoring",
    "time_ms",
    "playouts",
    "lines",
    "interval_ms",
];

/// A whole number field in `lo..=hi`, if given.
fn number(obj: &Map<String, Value>, name: &str, lo: u64, hi: u64) -> Result<Option<u64>, String> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|n| (lo..=hi).contains(n))
            .map(Some)
            .ok_or_else(|| format!("{name} must be a whole number from {lo} to {hi}")),
    }
}

fn string<'a>(obj: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("{name} must be a string")),
    }
}

/// Checks a query and turns it into what a worker needs.
fn parse_query(
    obj: &Map<String, Value>,
    id: Value,
    key: String,
    stop: Arc<AtomicBool>,
) -> Result<Query, String> {
    if let Some(field) = unknown_field(obj, &QUERY_FIELDS) {
        return Err(field);
    }
    let scoring: Option<Scoring> = string(obj, "scoring")?
        .map(|s| {
            s.parse()
                .map_err(|e: mabula::scoring::ParseScoringError| e.to_string())
        })
        .transpose()?;
    let given = ["position", "record", "start"]
        .iter()
        .filter(|f| obj.get(**f).is_some_and(|v| !v.is_null()))
        .count();
    if given != 1 {
        return Err("a query gives exactly one of position, record, or start (with moves)".into());
    }
    let (start, moves, own_scoring) = if let Some(text) = string(obj, "position")? {
        for f in ["moves", "turns", "game"] {
            if obj.contains_key(f) {
                return Err(format!("{f} goes with record or start, not with position"));
            }
        }
        let pos: Position = text.parse().map_err(|e| format!("bad position: {e}"))?;
        (pos, Vec::new(), None)
    } else if let Some(text) = string(obj, "record")? {
        if obj.contains_key("moves") {
            return Err("moves goes with start: a record holds its own moves".into());
        }
        let records = mabula::record::split(text);
        let n = number(obj, "game", 1, u64::MAX)?.unwrap_or(1) as usize;
        let count = records.len();
        if count == 0 {
            return Err("the record holds no game".into());
        }
        if n > count {
            return Err(format!("game {n} asked, and the record holds {count}"));
        }
        let game: Game = records[n - 1]
            .parse()
            .map_err(|e| format!("bad record: {e}"))?;
        (*game.start(), game.moves().to_vec(), Some(game.scoring()))
    } else {
        if obj.contains_key("game") {
            return Err("game goes with record".into());
        }
        let text = string(obj, "start")?.unwrap_or_default();
        let start: Position = text.parse().map_err(|e| format!("bad start: {e}"))?;
        let words: Vec<String> = match obj.get("moves") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .map(|m| {
                    m.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| "moves is a list of moves as strings".to_string())
                })
                .collect::<Result<_, _>>()?,
            Some(Value::String(s)) => s
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect(),
            Some(_) => return Err("moves is a list of moves as strings".into()),
        };
        let mut pos = start;
        let mut moves = Vec::with_capacity(words.len());
        for (i, w) in words.iter().enumerate() {
            let mv: Move = w.parse().map_err(|e| format!("move {}: {e}", i + 1))?;
            pos = pos.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
            moves.push(mv);
        }
        (start, moves, None)
    };
    let turns = match obj.get("turns") {
        None | Some(Value::Null) => vec![moves.len()],
        Some(Value::String(s)) if s == "all" => (0..=moves.len()).collect(),
        Some(Value::Array(list)) if !list.is_empty() => {
            let mut turns = Vec::with_capacity(list.len());
            for t in list {
                match t.as_u64() {
                    Some(t) if t as usize <= moves.len() => turns.push(t as usize),
                    _ => {
                        return Err(format!(
                            "turns are whole numbers from 0 (the start) to {} (after the last move)",
                            moves.len()
                        ));
                    }
                }
            }
            turns
        }
        Some(_) => {
            return Err("turns is \"all\" or a list of turns (positions after N moves)".into());
        }
    };
    let time_ms = number(obj, "time_ms", 1, MAX_TIME_MS)?.unwrap_or(DEFAULT_TIME_MS);
    let playouts = number(obj, "playouts", 1, u64::MAX / 16)?;
    let lines = number(obj, "lines", 1, 1000)?.map_or(usize::MAX, |n| n as usize);
    let interval =
        number(obj, "interval_ms", MIN_INTERVAL_MS, MAX_TIME_MS)?.map(Duration::from_millis);
    Ok(Query {
        id,
        key,
        start,
        moves,
        turns,
        scoring: scoring.or(own_scoring).unwrap_or(Scoring::Largest),
        time: Duration::from_millis(time_ms),
        playouts,
        lines,
        interval,
        stop,
    })
}

/// One line of at most [`MAX_QUERY`] bytes: `Some(None)` for a longer one (skipped without
/// being kept), `None` at the end of the input.
fn read_query_line(input: &mut impl BufRead) -> std::io::Result<Option<Option<String>>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let used = chunk.len();
        if !too_long {
            line.extend_from_slice(chunk);
            if line.len() > MAX_QUERY + 2 {
                too_long = true;
                line = Vec::new();
            }
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(None));
    }
    Ok(Some(Some(String::from_utf8_lossy(&line).into_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_with_two_sources_or_an_unknown_field_is_refused() {
        let stop = Arc::new(AtomicBool::new(false));
        let obj = |v: Value| v.as_object().cloned().expect("an object");
        let both = obj(json!({"id": 1, "position": "x", "start": "y"}));
        assert!(parse_query(&both, json!(1), "1".into(), Arc::clone(&stop)).is_err());
        let unknown = obj(json!({"id": 1, "positon": "x"}));
        let e = parse_query(&unknown, json!(1), "1".into(), stop)
            .err()
            .expect("an error");
        assert!(e.starts_with("unknown field 'positon'"), "{e}");
    }
}
