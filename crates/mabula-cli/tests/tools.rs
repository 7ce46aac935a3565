//! The `mabula` binary as other programs use it: record files from elsewhere (a byte-order
//! mark, CRLF, several games, cut short, misnumbered, missing), JSON lines checked against the
//! schemas in `tests/data/schemas/` (documented in docs/cli.md), the engine protocol on a pipe,
//! external engines that never answer, and the smaller fixes of the command line.

use crate::schema;

use schema::{schema, violations};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn mabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("mabula runs")
}

fn mabula_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mabula starts");
    // A command that fails before it reads its input closes the pipe first: that is its answer,
    // not an error of the test.
    match child.stdin.take().expect("stdin").write_all(input) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("written: {e}"),
        _ => {}
    }
    child.wait_with_output().expect("it ends")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A record file of the rules crate's test data.
fn record(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../mabula/tests/data/records/{name}"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mabula-tools-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

const OPENING: &str = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w";

/// Ten moves left: solved at once.
const LATE: &str = "1w2w1b1/b1w1w3/b2b4/w2b3w/3b1w1b/b1wb1w2/1bw3bb/4ww2 w";

/// Every line of `text` is a JSON value that fits the schema `name`; returns them.
fn json_lines(text: &str, name: &str) -> Vec<Value> {
    let s = schema(name);
    let values: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(!values.is_empty(), "no JSON lines");
    for v in &values {
        let broken = violations(&s, v, "$");
        assert!(broken.is_empty(), "{name}: {broken:#?}");
    }
    values
}

#[test]
fn the_schema_checker_finds_what_is_wrong() {
    let s = schema("legal.json");
    let good: Value = serde_json::json!({"type": "legal", "position": OPENING,
        "to_move": "white", "moves": [], "must_pass": false, "game_over": true});
    assert!(violations(&s, &good, "$").is_empty());
    let mut bad = good.clone();
    bad["to_move"] = "green".into();
    bad["extra"] = 1.into();
    bad.as_object_mut().expect("object").remove("moves");
    assert_eq!(violations(&s, &bad, "$").len(), 3, "{bad}");
}

// ---- JSON output ----

#[test]
fn legal_and_perft_print_json_that_fits_their_schemas() {
    let out = mabula(&["legal", OPENING, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = &json_lines(&stdout(&out), "legal.json")[0];
    let plain = stdout(&mabula(&["legal", OPENING]));
    let listed: Vec<&str> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(listed.join(" "), plain.trim());

    let out = mabula(&["perft", OPENING, "2", "--divide", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = &json_lines(&stdout(&out), "perft.json")[0];
    let sum: u64 = v["divide"]
        .as_array()
        .expect("divide")
        .iter()
        .map(|d| d["count"].as_u64().expect("count"))
        .sum();
    assert_eq!(v["count"].as_u64(), Some(sum));
    let v = &json_lines(
        &stdout(&mabula(&["perft", OPENING, "1", "--json"])),
        "perft.json",
    )[0];
    assert!(v["divide"].is_null());
}

#[test]
fn solve_prints_json_that_fits_its_schema() {
    let out = mabula(&["solve", LATE, "--margin", "--threads", "1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = &json_lines(&stdout(&out), "solution.json")[0];
    assert_eq!(v["solved"], Value::Bool(true));
    assert_eq!(v["mode"], "margin");
    assert_eq!(v["pv"][0], v["best"]);
}

#[test]
fn analyze_prints_a_json_line_per_step_that_fits_its_schema() {
    let out = mabula(&["analyze", LATE, "--time", "0.3", "--threads", "1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out), "analysis.json");
    let last = lines.last().expect("a line");
    assert_eq!(last["done"], Value::Bool(true));
    assert!(last["moves"].as_array().is_some_and(|m| !m.is_empty()));
}

#[test]
fn analyze_of_a_record_prints_a_json_line_per_move_and_one_per_game() {
    let out = mabula(&[
        "analyze",
        record("bom.pgn").to_str().expect("a path"),
        "--time",
        "0.05",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out), "annotation.json");
    assert_eq!(lines.len(), 4, "three moves and the game");
    assert_eq!(lines[3]["type"], "annotated_game");
    assert_eq!(lines[3]["values"].as_array().map(Vec::len), Some(4));
}

#[test]
fn match_prints_a_json_line_per_game_and_a_summary() {
    let out = mabula(&[
        "match", "random", "random", "--games", "2", "--jobs", "1", "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out), "match.json");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[2]["games"], 2);
}

/// Runs `mabula ARGS`, reads `bytes` bytes of its stdout and closes it, as `| head -c` does:
/// the command must end quietly, with status 0 and nothing on stderr.
fn closed_after(args: &[&str], bytes: usize) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mabula starts");
    let mut head = vec![0u8; bytes];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut head)
        .expect("the first bytes");
    // The pipe's reading end is dropped here.
    let out = child.wait_with_output().expect("it ends");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    assert_eq!(stderr(&out), "", "{args:?}");
}

#[test]
fn a_closed_stdout_ends_every_printing_command_quietly() {
    closed_after(
        &[
            "analyze",
            OPENING,
            "--time",
            "1.5",
            "--threads",
            "1",
            "--json",
        ],
        800,
    );
    closed_after(&["analyze", OPENING, "--time", "0.5", "--threads", "1"], 10);
    closed_after(&["perft", OPENING, "3", "--divide", "--json"], 100);
    closed_after(&["legal", OPENING], 5);
    let record = record("bom.pgn");
    let record = record.to_str().expect("a path");
    closed_after(
        &[
            "analyze",
            record,
            "--time",
            "0.3",
            "--threads",
            "1",
            "--json",
        ],
        50,
    );
    closed_after(
        &[
            "match", "random", "random", "--games", "40", "--jobs", "1", "--json",
        ],
        100,
    );
}

#[test]
fn gtp_with_a_closed_stdout_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mabula starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    for _ in 0..1000 {
        if stdin.write_all(b"list_commands\n").is_err() {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().expect("it ends");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn analyze_of_a_record_writes_each_move_as_soon_as_it_is_analysed() {
    let record = record("bom.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["analyze", record.to_str().expect("a path")])
        .args(["--time", "0.5", "--threads", "1", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("mabula starts");
    let started = Instant::now();
    let mut arrivals = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("a line");
        let v: Value = serde_json::from_str(&line).expect("JSON");
        arrivals.push((
            started.elapsed(),
            v["type"].as_str().unwrap_or("").to_string(),
        ));
    }
    assert!(child.wait().expect("it ends").success());
    let types: Vec<&str> = arrivals.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        types,
        [
            "annotated_move",
            "annotated_move",
            "annotated_move",
            "annotated_game"
        ]
    );
    // Four positions at 0.5 s each: the first move's line comes after two of them, long before
    // the game's line after all four.
    let (first, last) = (arrivals[0].0, arrivals[3].0);
    assert!(
        last.saturating_sub(first) >= Duration::from_millis(700),
        "first move at {first:?}, the game at {last:?}"
    );
}

// ---- Records ----

#[test]
fn analyze_reads_records_with_a_byte_order_mark_and_with_crlf() {
    for name in ["bom.pgn", "crlf.pgn"] {
        let path = record(name);
        let out = mabula(&[
            "analyze",
            path.to_str().expect("a path"),
            "--time",
            "0.05",
            "--threads",
            "1",
        ]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let game = mabula::Game::parse(&stdout(&out)).expect("an annotated record");
        assert_eq!(game.moves().len(), 3, "{name}");
    }
}

#[test]
fn a_file_of_several_games_is_annotated_game_by_game_or_one_by_number() {
    let dir = temp_dir("several");
    let text = std::fs::read_to_string(record("three_games.pgn")).expect("records");
    // The first two games: the third has an illegal move.
    let two: String = mabula::record::split(&text)[..2]
        .iter()
        .map(|r| r.text)
        .collect();
    let path = dir.join("two.pgn");
    std::fs::write(&path, two).expect("written");
    let p = path.to_str().expect("a path");
    let out = mabula(&["analyze", p, "--time", "0.05", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let games = mabula::record::parse_all(&stdout(&out));
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(Result::is_ok), "{games:?}");

    let out = mabula(&[
        "analyze",
        p,
        "--game",
        "2",
        "--time",
        "0.05",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let game = mabula::Game::parse(&stdout(&out)).expect("one record");
    assert_eq!(game.tag("Round"), Some("2"));

    let three = record("three_games.pgn");
    let out = mabula(&["analyze", three.to_str().expect("a path"), "--game", "3"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("game 3, is not a valid record: line 22, move 1..."),
        "{err}"
    );
    assert_eq!(
        err.matches("at most 5 squares").count(),
        1,
        "said once: {err}"
    );
    let out = mabula(&["analyze", three.to_str().expect("a path"), "--game", "4"]);
    assert!(
        stderr(&out).contains("holds 3 games: --game takes 1 to 3"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_continues_a_game_chosen_from_a_file_of_several() {
    let three = record("three_games.pgn");
    let p = three.to_str().expect("a path");
    let out = mabula_with_input(
        &["play", "--plain", "--vs", "human", "--load", p],
        b"quit\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("holds 3 games: choose one with --game N (1 to 3)"),
        "{}",
        stderr(&out)
    );
    let out = mabula_with_input(
        &[
            "play", "--plain", "--vs", "human", "--load", p, "--game", "2",
        ],
        b"quit\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("game continued after 3 moves"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_missing_cut_short_or_misnumbered_record_gets_a_clear_error() {
    let out = mabula(&["analyze", "no-such-game.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "mabula: there is no file no-such-game.pgn\n");
    let out = mabula(&["play", "--plain", "--load", "no-such-game.pgn"]);
    assert_eq!(stderr(&out), "mabula: there is no file no-such-game.pgn\n");

    let truncated = record("truncated.pgn");
    let out = mabula(&["analyze", truncated.to_str().expect("a path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("ends after 3 moves without a result token"),
        "{}",
        stderr(&out)
    );
    let numbering = record("numbering.pgn");
    let out = mabula(&["analyze", numbering.to_str().expect("a path")]);
    assert!(
        stderr(&out).contains("line 4: the move number '3.' should be '2.' here"),
        "{}",
        stderr(&out)
    );
}

// ---- The engine protocol on a pipe, and engines that never answer ----

#[test]
fn gtp_answers_a_line_that_is_not_utf8_and_goes_on() {
    let out = mabula_with_input(&["gtp"], b"1 name\n2 play \xff\n3 protocol_version\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "=1 mabula-engine\n\n?2 the line is not UTF-8 text\n\n=3 2\n\n=\n\n"
    );
}

#[test]
fn a_match_against_an_engine_that_never_answers_gives_up_with_a_clear_error() {
    let started = Instant::now();
    let out = mabula(&[
        "match",
        "random",
        "gtp:exec sleep 60",
        "--games",
        "1",
        "--gtp-timeout",
        "0.5",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let err = stderr(&out);
    assert!(
        err.contains("exec sleep 60: no answer within 0.5 s"),
        "{err}"
    );
}

// ---- The terminal game without a terminal ----

#[test]
fn play_without_a_terminal_says_to_use_plain() {
    let out = mabula(&["play", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("use --plain"), "{}", stderr(&out));
}

#[test]
fn the_plain_game_lists_commands_not_keys_and_asks_before_leaving_an_unsaved_game() {
    let out = mabula_with_input(
        &["play", "--plain", "--vs", "human", "--seed", "1"],
        b"help\nmoves\nd1-d2\nquit\nquit\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("type a move like b1-b4"), "{text}");
    assert!(!text.contains("arrows"), "no full-screen keys: {text}");
    assert!(
        text.contains("the game is not saved: type quit again to leave it"),
        "{text}"
    );
}

#[test]
fn a_saved_game_is_left_at_the_first_quit() {
    let dir = temp_dir("saved");
    let file = dir.join("game.pgn");
    let out = mabula_with_input(
        &[
            "play",
            "--plain",
            "--vs",
            "human",
            "--seed",
            "1",
            "--save",
            file.to_str().expect("a path"),
        ],
        b"d1-d2\nquit\n",
    );
    let text = stdout(&out);
    assert!(!text.contains("not saved"), "{text}");
    assert!(!text.contains("end of input"), "left by quit: {text}");
    let game = mabula::Game::parse(&std::fs::read_to_string(&file).expect("saved"));
    assert_eq!(game.expect("a record").moves().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- The command line ----

#[test]
fn help_of_help_and_the_perft_usage_read_right() {
    let out = mabula(&["help", "--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = mabula(&["help", "perft"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Usage: mabula perft [OPTIONS] <POSITION>... <DEPTH>"),
        "{}",
        stdout(&out)
    );
    let out = mabula(&["help", "fly"]);
    assert_eq!(out.status.code(), Some(1));
    let out = mabula(&["--no-such-option"]);
    assert_eq!(out.status.code(), Some(2), "a wrong command line");
}

#[test]
fn apply_plays_moves_from_a_position_and_names_a_bad_one() {
    let out = mabula(&["apply", OPENING, "--moves", "b1-b4 c8-c6,d1-d3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "1w1wbww1/b6b/b1b4w/w6b/bw5w/w2w3b/b6w/2b1bwb1 b"
    );
    let out = mabula(&["apply", OPENING, "--moves", "b1-b4 a4-g4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("move 2: illegal move a4-g4"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn serve_with_an_unreachable_postgres_fails_at_once_with_one_message() {
    // Port 1 on the loopback address: nothing listens there, so the connection is refused.
    let started = Instant::now();
    let out = mabula(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--database",
        "postgres://mabula:secret@127.0.0.1:1/mabula",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(!stdout(&out).contains("served at"), "{}", stdout(&out));
    let err = stderr(&out);
    assert_eq!(err.matches("cannot reach").count(), 1, "{err}");
    assert!(!err.contains("secret"), "the password is not shown: {err}");
}

#[test]
fn logs_to_a_pipe_carry_no_colour_codes() {
    let dir = temp_dir("logs");
    let db = dir.join("mabula.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database"])
        .arg(&db)
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mabula serve starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        ["INFO", "WARN", "ERROR"].iter().any(|l| first.contains(l)),
        "a log line: {first:?}"
    );
    assert!(!first.contains('\u{1b}'), "no escape codes: {first:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hint_in_the_plain_game_names_no_keys() {
    let out = mabula_with_input(
        &[
            "play",
            "--plain",
            "--seed",
            "2",
            "--level",
            "1",
            "--movetime",
            "50",
        ],
        b"hint\nquit\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains("(type it to play it)"), "{text}");
    assert!(!text.contains("Enter"), "{text}");
}

#[test]
fn analyze_json_refuses_the_options_that_write_text() {
    let out = mabula(&["analyze", LATE, "--json", "--chart"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[cfg(not(feature = "learn"))]
#[test]
fn a_build_without_the_learn_feature_says_how_to_get_train() {
    for args in [&["train", "--help"][..], &["train", "fit", "x.mlb"]] {
        let out = mabula(args);
        assert_eq!(out.status.code(), Some(1));
        let text = stderr(&out);
        assert!(text.contains("--features learn"), "{text}");
    }
}

#[cfg(feature = "learn")]
#[test]
fn a_backward_stage_labels_the_solvers_positions_by_search_and_resumes() {
    let dir = temp_dir("backward");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let ok = |out: Output| {
        assert!(out.status.success(), "{}", stderr(&out));
        out
    };
    let label = |left: &str, out: &str, positions: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "label",
            "--left",
            left,
            "--out",
            out,
            "--positions",
            positions,
            "--threads",
            "2",
        ];
        args.extend_from_slice(extra);
        ok(mabula(&args))
    };
    // A later stage, exactly, and a model fitted on it.
    label("6", &path("late.mlb"), "60", &[]);
    let weights = path("late.bin");
    ok(mabula(&[
        "train",
        "fit",
        &path("late.mlb"),
        "--out",
        &weights,
        "--epochs",
        "30",
    ]));
    // The earlier stage by search (in two runs) and by the solver.
    let search = path("search.mlb");
    label("8", &search, "4", &["--backward", &weights]);
    label("8", &search, "6", &["--backward", &weights]);
    label("8", &path("exact.mlb"), "6", &["--result-only"]);
    let out = ok(mabula(&["train", "agree", &search, &path("exact.mlb")]));
    let text = stdout(&out);
    assert!(text.starts_with("6 positions: "), "{text}");
    let bytes = std::fs::read(&search).expect("the labels");
    assert_eq!(bytes.len(), 8 + 6 * 14);
    // Every record says it comes from a search.
    assert!(bytes[8..].chunks(14).all(|r| r[11] >> 2 & 7 == 1));
    // Labels of another run's positions are refused.
    label(
        "8",
        &path("other.mlb"),
        "6",
        &["--result-only", "--seed", "2"],
    );
    let out = mabula(&["train", "agree", &search, &path("other.mlb")]);
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
