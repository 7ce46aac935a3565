//! The engine commands of the `mabula` binary, run as a user runs them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn mabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(args)
        .output()
        .expect("mabula runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Ten moves left (5 each): solved in well under a second.
const LATE: &str = "1w2w1b1/b1w1w3/b2b4/w2b3w/3b1w1b/b1wb1w2/1bw3bb/4ww2 w";

/// A position with 22 moves left, far beyond the solver in a moment.
const EARLY: &str = "1wbwbww1/b6b/b6w/w6b/bw5w/w6b/b6w/2bwbwb1 b";

#[test]
fn gtp_speaks_on_stdin_and_stdout_until_quit() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mabula gtp starts");
    let script =
        format!("1 protocol_version\nsetup {EARLY}\nlevel 1\ngenmove\nbogus\nquit\nname\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("it ends");
    let text = stdout(&out);
    let answers: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(answers[0], "=1 2");
    assert_eq!(answers[1], "=");
    let mv: mabula::Move = answers[3]
        .strip_prefix("= ")
        .expect("a move")
        .parse()
        .expect("a move");
    assert!(
        EARLY
            .parse::<mabula::Position>()
            .expect("valid")
            .is_legal(mv)
    );
    assert_eq!(answers[4], "? unknown command 'bogus'");
    assert_eq!(answers[5], "=");
    assert_eq!(answers.len(), 7, "nothing after quit: {text}");
}

#[test]
fn solve_prints_the_result_the_best_move_the_line_and_the_nodes() {
    let out = mabula(&["solve", LATE]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("result    white to move "), "{text}");
    assert!(text.contains("best move "), "{text}");
    assert!(text.contains("line      "), "{text}");
    assert!(text.contains("nodes     "), "{text}");
    let margin = stdout(&mabula(&[
        "solve",
        LATE,
        "--margin",
        "--scoring",
        "product",
    ]));
    assert!(margin.contains("(product scoring)"), "{margin}");
}

#[test]
fn a_table_larger_than_the_machine_gives_is_a_one_line_error_not_an_abort() {
    // Issue 56: it aborted with "memory allocation of ... failed", a backtrace and status 134.
    let out = mabula(&["solve", LATE, "--table-mb", "4000000"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert_eq!(text.trim().lines().count(), 1, "{text}");
    assert!(
        text.contains("cannot give a table of 4000000 MB: give a smaller --table-mb"),
        "{text}"
    );
}

#[test]
fn solve_says_plainly_when_time_runs_out() {
    let out = mabula(&["solve", EARLY, "--time", "0.2"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not solved: the time limit ran out"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn analyze_prints_a_row_for_every_legal_move() {
    let out = mabula(&["analyze", LATE, "--time", "0.3", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let pos: mabula::Position = LATE.parse().expect("valid");
    let rows = text
        .lines()
        .skip_while(|l| !l.starts_with("move"))
        .skip(1)
        .count();
    assert_eq!(rows, pos.legal_moves().len(), "{text}");
}

#[test]
fn analyze_annotates_every_move_of_a_record() {
    let dir = std::env::temp_dir().join(format!("mabula-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("game.pgn");
    std::fs::write(
        &record,
        "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n1. b1-b4 {opening} 1... e8-e6 2. a3-d3 *\n",
    )
    .expect("written");
    let annotated = dir.join("annotated.pgn");
    let out = mabula(&[
        "analyze",
        record.to_str().expect("utf-8"),
        "--time",
        "0.1",
        "--threads",
        "1",
        "-o",
        annotated.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&annotated).expect("the annotated record");
    let game = mabula::Game::parse(&text).expect("an annotated record reads back");
    assert_eq!(game.moves().len(), 3);
    for i in 0..3 {
        assert!(
            game.comment(i).is_some_and(|c| c.contains("engine ")),
            "{text}"
        );
    }
    assert!(
        game.comment(0)
            .is_some_and(|c| c.starts_with("opening; engine")),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyze_prints_the_evaluation_chart_of_a_record() {
    let dir = std::env::temp_dir().join(format!("mabula-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("game.pgn");
    std::fs::write(
        &record,
        "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n1. b1-b4 1... e8-e6 2. a3-d3 *\n",
    )
    .expect("written");
    let annotated = dir.join("annotated.pgn");
    let out = mabula(&[
        "analyze",
        record.to_str().expect("utf-8"),
        "--time",
        "0.05",
        "--threads",
        "1",
        "--chart",
        "-o",
        annotated.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("100% |"), "{text}");
    assert!(text.contains(" 50% |"), "{text}");
    // One point per position: the start and after each of the three moves.
    assert_eq!(text.matches('*').count(), 4, "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyze_refuses_a_malformed_record_naming_the_line_and_the_move() {
    let dir = std::env::temp_dir().join(format!("mabula-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("bad.pgn");
    std::fs::write(
        &record,
        "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n1. b1-b4 e8-e6\n2. c1-c4 *\n",
    )
    .expect("written");
    let out = mabula(&["analyze", record.to_str().expect("utf-8")]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("line 4, move 2."), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_match_prints_its_table_and_writes_its_records() {
    let dir = std::env::temp_dir().join(format!("mabula-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let records = dir.join("games.pgn");
    let out = mabula(&[
        "match",
        "level=3",
        "baseline-uct,playouts=30",
        "--games",
        "4",
        "--records",
        records.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("4 games, largest scoring"), "{text}");
    assert!(text.contains("level=3"), "{text}");
    assert!(
        text.contains("Elo difference of the first player"),
        "{text}"
    );
    let games = std::fs::read_to_string(&records).expect("records");
    assert_eq!(games.matches("[Setup ").count(), 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_match_can_play_an_external_engine_over_the_protocol() {
    let external = format!("gtp:{} gtp", env!("CARGO_BIN_EXE_mabula"));
    let out = mabula(&[
        "match",
        "level=2",
        &external,
        "--games",
        "2",
        "--gtp-movetime",
        "20",
        "--scoring",
        "product",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("2 games, product scoring"), "{text}");
    assert!(text.contains("gtp:"), "{text}");
}

#[test]
fn bad_player_specifications_are_refused() {
    let out = mabula(&["match", "level=12", "baseline-uct"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("'12' is not a level (1 to 10, or 10-v1)"),
        "{}",
        stderr(&out)
    );
}

/// `mabula puzzles check` proves a file of puzzles again, on several threads, and names a line
/// that does not hold.
#[test]
fn puzzles_check_proves_a_file_and_names_a_line_that_does_not_hold() {
    use mabula_engine::puzzle::{Puzzle, SHIPPED};
    let dir = tempfile::tempdir().expect("dir");
    let good: Vec<&str> = SHIPPED.lines().take(6).collect();
    let path = dir.path().join("good.tsv");
    std::fs::write(&path, good.join("\n")).expect("write");
    let out = mabula(&[
        "puzzles",
        "check",
        path.to_str().expect("utf-8"),
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("all 6 puzzles hold"),
        "{}",
        stderr(&out)
    );

    // A puzzle that keeps a win, said to keep only a draw: its id matches, its proof does not.
    let mut wrong = SHIPPED
        .lines()
        .filter_map(|l| Puzzle::line(l).ok())
        .find(|p| p.result == 1)
        .expect("a win");
    wrong.result = 0;
    let mut lines = good.clone();
    let forged = wrong.to_line();
    lines.insert(2, &forged);
    std::fs::write(&path, lines.join("\n")).expect("write");
    let out = mabula(&["puzzles", "check", path.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("line 3:"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 of 7 puzzles do not hold"),
        "{}",
        stderr(&out)
    );
}
