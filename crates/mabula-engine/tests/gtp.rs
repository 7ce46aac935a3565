//! The engine protocol, driven in-process with scripted transcripts.
//!
//! A transcript in `tests/data/gtp/` holds the commands (lines starting with `> `) and, after
//! each, the exact answer expected. Lines starting with `#!` describe the file.

use mabula::{Color, Move, Position, deal};
use mabula_engine::gtp::Gtp;
use std::path::Path;

/// The commands and the expected output of a transcript.
fn read_transcript(path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).expect("a transcript");
    let (mut input, mut expected) = (String::new(), String::new());
    for line in text.lines() {
        if line.starts_with("#!") {
            continue;
        }
        match line.strip_prefix(">") {
            Some(cmd) => {
                input.push_str(cmd.strip_prefix(' ').unwrap_or(cmd));
                input.push('\n');
            }
            None => {
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    (input, expected)
}

fn run(input: &str) -> String {
    let mut out = Vec::new();
    Gtp::new()
        .run(input.as_bytes(), &mut out)
        .expect("in-memory I/O");
    String::from_utf8(out).expect("UTF-8 answers")
}

#[test]
fn every_transcript_gets_exactly_its_answers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gtp");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the transcripts")
        .flatten()
        .collect();
    files.sort_by_key(|f| f.path());
    assert!(files.len() >= 4);
    for file in files {
        let (input, expected) = read_transcript(&file.path());
        assert_eq!(run(&input), expected, "{}", file.path().display());
    }
}

#[test]
fn genmove_plays_a_legal_move_for_the_side_to_move_and_undo_takes_it_back() {
    let start = deal::random(3, Color::White);
    let script = format!("setup {start}\nlevel 2\ngenmove\nposition\nundo\nposition\n");
    let out = run(&script);
    let answers: Vec<&str> = out.split("\n\n").collect();
    let mv: Move = answers[2]
        .strip_prefix("= ")
        .expect("a move")
        .parse()
        .expect("notation");
    let after: Position = answers[3]
        .strip_prefix("= ")
        .expect("a position")
        .parse()
        .expect("fen");
    assert_eq!(start.play(mv), Ok(after));
    assert_eq!(answers[4], "=");
    assert_eq!(answers[5], format!("= {start}"));
}

#[test]
fn a_whole_game_of_genmoves_ends_with_the_result_of_its_scores() {
    let mut script = String::from("newgame 5\nlevel 1\nscoring product\n");
    for _ in 0..60 {
        script.push_str("genmove\n");
    }
    script.push_str("result\nscore\nposition\n");
    let out = run(&script);
    let answers: Vec<&str> = out.trim_end().split("\n\n").collect();
    let refused = answers
        .iter()
        .filter(|a| **a == "? the game is over")
        .count();
    assert!(refused > 0, "genmove after the end is refused");
    let played = answers[3..]
        .iter()
        .filter(|a| a.starts_with("= ") && a.len() <= 9)
        .count();
    assert!((24..=48).contains(&played), "{played} moves");
    let n = answers.len();
    let pos: Position = answers[n - 1]
        .strip_prefix("= ")
        .expect("fen")
        .parse()
        .expect("fen");
    assert!(pos.is_game_over());
    let scores = pos.scores(mabula::Scoring::Product);
    assert_eq!(answers[n - 2], format!("= {scores}"));
    let result: mabula::GameResult = scores.outcome().into();
    assert_eq!(answers[n - 3], format!("= {result}"));
}

#[test]
fn analyze_lists_every_legal_move_once_with_a_value_and_a_line() {
    let mut pos = deal::random(8, Color::Black);
    for _ in 0..6 {
        let mv = pos.legal_moves()[0];
        pos.play_unchecked(mv);
    }
    let out = run(&format!("setup {pos}\nmovetime 200\n7 analyze\nposition\n"));
    let answers: Vec<&str> = out.split("\n\n").collect();
    let body = answers[2].strip_prefix("=7 ").expect("an answer");
    let mut listed = Vec::new();
    for line in body.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        let mv: Move = words[0].parse().expect("a move");
        let value = words[1];
        assert!(
            value.parse::<f64>().is_ok_and(|v| (0.0..=1.0).contains(&v))
                || ["win", "draw", "loss"].iter().any(|w| value.starts_with(w)),
            "{line}"
        );
        assert_eq!(words[2], words[0], "the line starts with the move: {line}");
        let mut p = pos;
        for w in &words[2..] {
            p = p.play(w.parse().expect("a move")).expect("a legal line");
        }
        listed.push(mv);
    }
    listed.sort();
    let mut legal = pos.legal_moves().to_vec();
    legal.sort();
    assert_eq!(listed, legal);
    assert_eq!(answers[3], format!("= {pos}"), "analyze plays nothing");
}

#[test]
fn list_commands_names_every_known_command_and_nothing_else() {
    let out = run("list_commands\n");
    let body = out.strip_prefix("= ").expect("an answer").trim_end();
    for name in body.lines() {
        assert_eq!(
            run(&format!("known_command {name}\n")),
            "= true\n\n",
            "{name}"
        );
    }
    assert_eq!(body.lines().count(), 20);
}

#[test]
fn an_answer_keeps_the_id_of_its_command() {
    assert_eq!(run("42 protocol_version\n"), "=42 2\n\n");
    assert_eq!(run("7 nonsense\n"), "?7 unknown command 'nonsense'\n\n");
    assert_eq!(run("   \n# nothing\n9 quit\nname\n"), "=9\n\n");
}
