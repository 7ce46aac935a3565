//! `mabula play --plain` through pipes: a whole game against the engine, reading each prompt and
//! answering with a legal move worked out from the position the program prints.

use mabula::{Game, GameResult, Position};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The program's output so far, fed by a reader thread.
struct Transcript {
    text: String,
    chunks: Receiver<String>,
}

impl Transcript {
    /// Waits until there is output past `from` that ends with a prompt (`"> "`), and returns
    /// everything since `from`.
    fn until_prompt(&mut self, from: usize) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.text.len() <= from || !self.text.ends_with("> ") {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.text.push_str(&chunk),
                Err(_) => panic!("no prompt in time; output so far:\n{}", self.text),
            }
        }
        self.text[from..].to_string()
    }
}

fn spawn(args: &[&str], dir: &Path) -> (Child, ChildStdin, Transcript) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the mabula binary runs");
    let stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0
                || tx
                    .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                    .is_err()
            {
                break;
            }
        }
    });
    let transcript = Transcript {
        text: String::new(),
        chunks: rx,
    };
    (child, stdin, transcript)
}

fn last_position(text: &str) -> Position {
    let line = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("position "))
        .expect("a position line");
    line.parse().expect("the printed position string is valid")
}

#[test]
fn a_whole_game_against_the_engine_through_a_pipe() {
    let dir = std::env::temp_dir().join(format!("mabula-play-plain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("bad.txt"), "[Setup \"1wbx w\"]\n\n1. b1-b4 *\n").expect("write");
    let args = [
        "play",
        "--plain",
        "--seed",
        "11",
        "--color",
        "black",
        "--level",
        "1",
        "--movetime",
        "20",
    ];
    let (mut child, mut stdin, mut out) = spawn(&args, &dir);
    let mut seen = 0;
    let first = out.until_prompt(seen);
    assert!(
        first.contains("new game, scored by the largest group"),
        "{first}"
    );
    assert!(
        first.contains("white (engine) played"),
        "the engine opens: {first}"
    );
    assert!(
        first.contains("+-----------------------+"),
        "the board is printed: {first}"
    );

    // Bad input gets a message and the game goes on.
    writeln!(stdin, "h9-a1").expect("write");
    seen = out.text.len();
    let answer = out.until_prompt(seen);
    assert!(answer.contains("error: 'h9-a1' is not a move"), "{answer}");
    assert!(answer.ends_with("black (you) to move> "), "{answer}");
    writeln!(stdin, "load bad.txt").expect("write");
    seen = out.text.len();
    let answer = out.until_prompt(seen);
    assert!(
        answer.contains(
            "error: bad.txt is not a valid record (the Setup tag is not a valid position"
        ),
        "{answer}"
    );

    let mut plies = 0;
    loop {
        let text = out.text.clone();
        if text.ends_with("game over (new, undo, save, quit)> ") {
            break;
        }
        let pos = last_position(&text);
        let mut moves = pos.legal_moves();
        moves.sort_unstable();
        let mv = moves
            .first()
            .expect("a person is prompted only with a move to make");
        writeln!(stdin, "{mv}").expect("write");
        seen = out.text.len();
        let answer = out.until_prompt(seen);
        assert!(
            answer.contains(&format!("black (you) played {mv}")),
            "{answer}"
        );
        plies += 1;
        assert!(plies <= 24, "a game has at most 24 pushes");
    }
    let end = out.text.clone();
    assert!(end.contains("game over: "), "{end}");
    writeln!(stdin, "save game.txt").expect("write");
    out.until_prompt(out.text.len());
    assert!(out.text.contains("saved the record to"), "{}", out.text);
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    let status = child.wait().expect("exit");
    assert!(status.success());
    let saved = std::fs::read_to_string(dir.join("game.txt")).expect("saved");
    let game = Game::parse(&saved).expect("a record");
    assert!(game.position().is_game_over());
    assert_ne!(game.result(), GameResult::Unfinished);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_people_by_lines_and_the_end_of_input_leaves_the_game() {
    let dir = std::env::temp_dir();
    let (mut child, mut stdin, mut out) = spawn(
        &[
            "play",
            "--plain",
            "--vs",
            "human",
            "--position",
            "8/8/8/8/8/8/2w5/1b6 w",
        ],
        &dir,
    );
    let first = out.until_prompt(0);
    assert!(
        first.contains("white has no marble that can move, and passes"),
        "{first}"
    );
    assert!(first.ends_with("black to move> "), "{first}");
    writeln!(stdin, "b1-b2").expect("write");
    drop(stdin);
    let mut rest = String::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while let Ok(chunk) = out
        .chunks
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        rest.push_str(&chunk);
    }
    assert!(rest.contains("black played b1-b2"), "{rest}");
    assert!(rest.contains("game over: a draw, 1 to 1"), "{rest}");
    assert!(child.wait().expect("exit").success());
}

#[test]
fn an_unknown_option_is_refused_with_a_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["play", "--plain", "--colour", "white"])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("unexpected argument '--colour'"), "{err}");
    let output = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["play", "--plain", "--position", "1wbx/8 w"])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("bad position string"), "{err}");
}
