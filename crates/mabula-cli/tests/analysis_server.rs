//! `mabula analysis-server` (issue 41, docs/analysis-server.md): JSON queries on stdin, JSON
//! lines on stdout with the queries' ids, several queries in flight, cancellation, errors as
//! JSON, and every line checked against the schemas in `tests/data/schemas/server_*.json`.

use crate::schema;

use schema::{schema, violations};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const OPENING: &str = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w";

/// Ten moves left: solved at once.
const LATE: &str = "1w2w1b1/b1w1w3/b2b4/w2b3w/3b1w1b/b1wb1w2/1bw3bb/4ww2 w";

/// A running service: lines are sent to it, and its lines come back on a channel (each checked
/// against the schema of the service's output).
struct Service {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
}

impl Service {
    fn start(threads: usize) -> Service {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
            .args(["analysis-server", "--threads", &threads.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the service starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let output = schema("server_output.json");
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                let broken = violations(&output, &v, "$");
                assert!(broken.is_empty(), "{broken:#?}\n{line}");
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Service {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("sent");
        stdin.flush().expect("flushed");
    }

    fn query(&mut self, query: &Value) {
        let broken = violations(&schema("server_query.json"), query, "$");
        assert!(broken.is_empty(), "{broken:#?}");
        self.send(&query.to_string());
    }

    /// The next line, within `secs` seconds.
    fn next(&self, secs: u64) -> Value {
        self.lines
            .recv_timeout(Duration::from_secs(secs))
            .expect("a line in time")
    }

    /// Closes stdin and reads every line up to the end; the service must exit with 0.
    fn finish(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let lines: Vec<Value> = self.lines.iter().collect();
        let status = self.child.wait().expect("the service ends");
        assert!(status.success(), "{status}");
        lines
    }
}

/// The legal moves of a position, as `mabula legal --json` gives them.
fn legal(position: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["legal", position, "--json"])
        .output()
        .expect("mabula legal");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut moves: Vec<String> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a move").to_string())
        .collect();
    moves.sort();
    moves
}

fn analysed_moves(line: &Value) -> Vec<String> {
    let mut moves: Vec<String> = line["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().expect("a move").to_string())
        .collect();
    moves.sort();
    moves
}

#[test]
fn the_query_of_the_issue_is_answered_with_its_id_and_a_value_for_every_legal_move() {
    let mut service = Service::start(1);
    service.query(&json!({"id": "q1", "position": OPENING, "scoring": "largest", "time_ms": 200}));
    let lines = service.finish();
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l["id"] == "q1"), "{lines:?}");
    let last = lines.last().expect("a line");
    assert_eq!(last["final"], true);
    assert_eq!(last["terminated"], false);
    assert_eq!(analysed_moves(last), legal(OPENING));
    assert!(
        last["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .all(|m| m["value"].is_string())
    );
}

#[test]
fn fifty_queries_in_flight_are_all_answered_with_their_ids() {
    let mut service = Service::start(2);
    for i in 0..50 {
        let position = if i % 2 == 0 { OPENING } else { LATE };
        let id = if i % 5 == 0 {
            json!(i)
        } else {
            json!(format!("q{i}"))
        };
        service.query(&json!({"id": id, "position": position, "time_ms": 20}));
    }
    let lines = service.finish();
    let mut finals: HashMap<String, usize> = HashMap::new();
    let mut seen_after_final = Vec::new();
    for line in &lines {
        assert_eq!(line["type"], "analysis", "{line}");
        let id = line["id"].to_string();
        if finals.contains_key(&id) {
            seen_after_final.push(id.clone());
        }
        if line["final"] == true {
            *finals.entry(id).or_default() += 1;
        }
    }
    assert!(seen_after_final.is_empty(), "{seen_after_final:?}");
    assert_eq!(finals.len(), 50, "{finals:?}");
    assert!(finals.values().all(|&n| n == 1));
    for i in 0..50 {
        let id = if i % 5 == 0 {
            json!(i)
        } else {
            json!(format!("q{i}"))
        };
        assert!(finals.contains_key(&id.to_string()), "{id}");
    }
    let late = legal(LATE);
    for line in lines.iter().filter(|l| l["position"] == LATE) {
        assert_eq!(analysed_moves(line), late);
    }
}

#[test]
fn a_cancelled_query_ends_with_a_final_terminated_line_and_the_service_goes_on() {
    let mut service = Service::start(2);
    service.query(&json!({
        "id": "long", "position": OPENING, "time_ms": 600_000, "interval_ms": 50,
    }));
    let first = service.next(30);
    assert_eq!(first["id"], "long");
    assert_eq!(first["final"], false, "an interim line first: {first}");
    let asked = Instant::now();
    service.send(r#"{"id": "c1", "action": "terminate", "terminate_id": "long"}"#);
    let mut acknowledged = false;
    let ended = loop {
        let line = service.next(30);
        match line["type"].as_str() {
            Some("terminated") => {
                assert_eq!(line["id"], "c1");
                assert_eq!(line["terminated"], json!(["long"]));
                acknowledged = true;
            }
            Some("analysis") if line["final"] == true => break line,
            Some("analysis") => assert_eq!(line["id"], "long"),
            _ => panic!("unexpected {line}"),
        }
    };
    assert!(acknowledged);
    assert_eq!(ended["id"], "long");
    assert_eq!(ended["terminated"], true);
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    // Terminating what is no longer in flight says so; the id can be used again.
    service.send(r#"{"id": "c2", "action": "terminate", "terminate_id": "long"}"#);
    let again = service.next(10);
    assert_eq!(
        again,
        json!({"type": "terminated", "id": "c2", "terminated": []})
    );
    service.query(&json!({"id": "long", "position": LATE, "time_ms": 50}));
    let lines = service.finish();
    let last = lines.last().expect("a line");
    assert_eq!(
        (&last["id"], &last["final"]),
        (&json!("long"), &json!(true))
    );
}

#[test]
fn malformed_lines_are_answered_with_json_errors_and_the_service_goes_on() {
    let mut service = Service::start(1);
    service.send("{not json");
    service.send("[1, 2]");
    service.send(r#"{"position": "x"}"#);
    service.send(r#"{"id": "bad", "position": "1wbwbww1/b6b w"}"#);
    service.send(r#"{"id": "typo", "positon": "x"}"#);
    service.send(&format!(
        r#"{{"id": "two", "position": "{OPENING}", "start": "{OPENING}"}}"#
    ));
    service.send(&format!(
        r#"{{"id": "slow", "position": "{OPENING}", "time_ms": 0}}"#
    ));
    service.send(&format!(
        r#"{{"id": "moves", "start": "{OPENING}", "moves": ["b1-b4", "b1-b4"]}}"#
    ));
    service.send(r#"{"id": 7, "action": "fly"}"#);
    service.send(&format!(
        "{{\"id\": \"huge\", \"position\": \"{}\"}}",
        "w".repeat(2 << 20)
    ));
    service.send(r#"{"id": "v", "action": "query_version"}"#);
    service.query(&json!({"id": "ok", "position": LATE, "time_ms": 50}));
    let lines = service.finish();
    let errors: Vec<&Value> = lines.iter().filter(|l| l["type"] == "error").collect();
    let ids: Vec<&Value> = errors.iter().map(|e| &e["id"]).collect();
    assert_eq!(
        ids,
        [
            &Value::Null,
            &Value::Null,
            &Value::Null,
            &json!("bad"),
            &json!("typo"),
            &json!("two"),
            &json!("slow"),
            &json!("moves"),
            &json!(7),
            &Value::Null,
        ],
        "{errors:#?}"
    );
    let message = |i: usize| errors[i]["error"].as_str().expect("a message").to_string();
    assert!(
        message(0).starts_with("the line is not JSON"),
        "{}",
        message(0)
    );
    assert_eq!(message(2), "a query needs an id");
    assert!(message(3).starts_with("bad position: "), "{}", message(3));
    assert!(
        message(4).starts_with("unknown field 'positon'"),
        "{}",
        message(4)
    );
    assert!(
        message(6).contains("time_ms must be a whole number"),
        "{}",
        message(6)
    );
    assert!(message(7).starts_with("move 2: "), "{}", message(7));
    assert!(message(9).starts_with("line too long"), "{}", message(9));
    let version = lines
        .iter()
        .find(|l| l["type"] == "version")
        .expect("a version");
    assert_eq!(version["id"], "v");
    let last = lines.last().expect("a line");
    assert_eq!((&last["id"], &last["final"]), (&json!("ok"), &json!(true)));
}

#[test]
fn a_game_is_analysed_at_the_turns_asked_and_a_record_in_its_own_scoring() {
    let mut service = Service::start(2);
    service.query(&json!({
        "id": "g", "start": OPENING, "moves": ["b1-b4", "c8-c6"], "turns": "all",
        "time_ms": 30, "lines": 2,
    }));
    let record = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n[Scoring \"product\"]\n\
                  [Result \"*\"]\n\n1. b1-b4 c8-c6 2. d1-d3 *\n";
    service.query(&json!({"id": "r", "record": record, "turns": [1, 3], "time_ms": 30}));
    let lines = service.finish();
    let of = |id: &str| -> Vec<&Value> { lines.iter().filter(|l| l["id"] == id).collect() };
    let game = of("g");
    let turns: Vec<&Value> = game.iter().map(|l| &l["turn"]).collect();
    assert_eq!(turns, [&json!(0), &json!(1), &json!(2)]);
    assert!(
        game.iter()
            .all(|l| l["moves"].as_array().is_some_and(|m| m.len() == 2))
    );
    let finals: Vec<&Value> = game.iter().map(|l| &l["final"]).collect();
    assert_eq!(finals, [&json!(false), &json!(false), &json!(true)]);
    let rec = of("r");
    let turns: Vec<&Value> = rec.iter().map(|l| &l["turn"]).collect();
    assert_eq!(turns, [&json!(1), &json!(3)]);
    assert!(rec.iter().all(|l| l["scoring"] == "product"));
    assert_eq!(rec[0]["to_move"], "black");
}

#[test]
fn every_message_of_the_docs_fits_its_schema() {
    let action = schema("server_action.json");
    for a in [
        json!({"id": "c1", "action": "terminate", "terminate_id": "q1"}),
        json!({"id": 2, "action": "terminate_all"}),
        json!({"id": "v", "action": "query_version"}),
    ] {
        assert!(violations(&action, &a, "$").is_empty(), "{a}");
    }
    let query = schema("server_query.json");
    assert!(!violations(&query, &json!({"id": "q", "positon": "x"}), "$").is_empty());
}
