//! `mabula match` against outside engines that fail (issue 41): an illegal move, an answer that
//! is not a move, a refusal, an engine that exits or whose pipe is closed all lose the game for
//! that engine, the reason is said in words, and the match goes on with the engine started
//! again. The engines are the small scripts of `tests/data/engines/`.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn mabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("mabula runs")
}

fn engine(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/engines/failing_engine.sh");
    format!("gtp:sh {} {mode}", script.display())
}

/// The JSON lines of a match: its games (by index) and its summary.
fn run_match(second: &str, games: usize, extra: &[&str]) -> (Vec<Value>, Value, String) {
    let games_text = games.to_string();
    let mut args = vec![
        "match",
        "random",
        second,
        "--games",
        &games_text,
        "--jobs",
        "1",
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = mabula(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let mut lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let summary = lines.pop().expect("a summary");
    assert_eq!(summary["type"], "summary");
    lines.sort_by_key(|g| g["index"].as_u64());
    assert_eq!(lines.len(), games, "{lines:?}");
    (lines, summary, stderr)
}

fn termination(game: &Value) -> &str {
    game["termination"]
        .as_str()
        .unwrap_or_else(|| panic!("no termination: {game}"))
}

#[test]
fn an_engine_that_exits_loses_each_game_said_in_words_and_the_match_goes_on() {
    let (games, summary, stderr) = run_match(&engine("exit"), 4, &[]);
    assert_eq!(summary["wins"], 4, "{summary}");
    for g in &games {
        let why = termination(g);
        assert!(why.contains("lost: engine sh "), "{why}");
        assert!(why.contains("exited (with status 3)"), "{why}");
    }
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

#[test]
fn a_closed_pipe_is_reported_as_the_engine_exiting_not_as_broken_pipe() {
    let (games, summary, stderr) = run_match(&engine("exit-play"), 2, &[]);
    assert_eq!(summary["wins"], 2, "{summary}");
    // Game 0: the engine is Black, told White's move, and exits after answering it.
    let why = termination(&games[0]);
    assert!(why.starts_with("black lost: engine sh "), "{why}");
    assert!(why.contains("exited (with status 4)"), "{why}");
    assert!(!why.to_lowercase().contains("broken pipe"), "{why}");
    // Game 1: the engine is White and refuses to move.
    let why = termination(&games[1]);
    assert!(why.starts_with("white lost: "), "{why}");
    assert!(why.contains("refused 'genmove': cannot play"), "{why}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

#[test]
fn an_illegal_move_or_an_answer_that_is_not_a_move_loses_the_game() {
    let (games, summary, _) = run_match(&engine("pass"), 2, &[]);
    assert_eq!(summary["wins"], 2, "{summary}");
    for g in &games {
        let why = termination(g);
        assert!(why.contains("played an illegal move: "), "{why}");
    }
    let (games, summary, _) = run_match(&engine("garbage"), 2, &[]);
    assert_eq!(summary["wins"], 2, "{summary}");
    for g in &games {
        let why = termination(g);
        assert!(
            why.contains("answered genmove with 'banana', which is not a move"),
            "{why}"
        );
    }
}

#[test]
fn without_json_the_reason_goes_to_stderr_and_the_records_keep_it() {
    let dir = std::env::temp_dir().join(format!("mabula-match-failures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let records = dir.join("games.pgn");
    let out = mabula(&[
        "match",
        "random",
        &engine("exit"),
        "--games",
        "2",
        "--jobs",
        "1",
        "--records",
        records.to_str().expect("a path"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("game 1: black lost: engine sh "),
        "{stderr}"
    );
    assert!(
        stderr.contains("game 2: white lost: engine sh "),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&records).expect("the records");
    assert_eq!(text.matches("[Termination \"").count(), 2, "{text}");
    assert!(text.contains("exited (with status 3)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
