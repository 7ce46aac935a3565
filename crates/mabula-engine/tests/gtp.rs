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
    assert!(files.len() >= 5);
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
    assert_eq!(body.lines().count(), mabula_engine::gtp::COMMANDS.len());
}

#[test]
fn an_answer_keeps_the_id_of_its_command() {
    assert_eq!(run("42 protocol_version\n"), "=42 2\n\n");
    assert_eq!(run("7 nonsense\n"), "?7 unknown command 'nonsense'\n\n");
    assert_eq!(run("   \n# nothing\n9 quit\nname\n"), "=9\n\n");
}

/// A late position: deal `seed`, then moves chosen by a fixed rule until at most `edges` marbles
/// are left on edge spaces.
fn late_position(seed: u64, edges: u32) -> Position {
    let mut pos = deal::random(seed, Color::White);
    let mut i = 0;
    while pos.edges_left() > edges && !pos.is_game_over() {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[(i * 5 + 2) % moves.len()]);
        i += 1;
    }
    pos
}

#[test]
fn analyze_gives_every_move_the_exact_margin_of_the_solver_best_first() {
    use mabula_engine::{Limits, SolveMode, Solver, Value};
    for seed in 0..6 {
        let pos = late_position(seed, 9);
        if pos.is_game_over() {
            continue;
        }
        let scoring = if seed % 2 == 0 {
            mabula::Scoring::Largest
        } else {
            mabula::Scoring::Product
        };
        let out = run(&format!(
            "set_option threads 1\nscoring {scoring}\nsetup {pos}\nmovetime 3000\nanalyze\n"
        ));
        let body = out
            .split("\n\n")
            .nth(4)
            .and_then(|a| a.strip_prefix("= "))
            .expect("an analysis");
        let mut solver = Solver::new(scoring, 16);
        let exact = solver
            .solve_moves(&pos, SolveMode::Margin, &Limits::none())
            .expect("solved");
        let mut previous = i32::MAX;
        for line in body.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            let mv: Move = words[0].parse().expect("a move");
            let margin = exact
                .iter()
                .find(|(m, _)| *m == mv)
                .map(|(_, v)| *v)
                .expect("a legal move");
            assert_eq!(
                words[1],
                Value::from_margin(margin).token(),
                "{pos} ({scoring}): {line}"
            );
            assert!(margin <= previous, "{pos}: not best first at {line}");
            previous = margin;
        }
        assert_eq!(body.lines().count(), exact.len(), "{pos}");
    }
}

#[test]
fn analyze_info_reports_values_visits_and_estimates_in_separate_fields() {
    let pos = late_position(3, 16);
    let out = run(&format!(
        "set_option threads 1\nsetup {pos}\nmovetime 200\n4 analyze_info lines 3\n"
    ));
    let answer = out.split("\n\n").nth(3).expect("an answer");
    let mut lines = answer.lines();
    assert_eq!(lines.next(), Some("=4"));
    let header = lines.next().expect("a header");
    assert!(header.starts_with("update 1 time "), "{header}");
    assert!(header.contains(" playouts "), "{header}");
    let infos: Vec<&str> = lines.collect();
    assert_eq!(infos.len(), 3.min(pos.legal_moves().len()), "{answer}");
    for (rank, info) in infos.iter().enumerate() {
        let words: Vec<&str> = info.split(' ').collect();
        assert_eq!(words[0], "info");
        let keys: Vec<&str> = words.iter().skip(1).step_by(2).copied().take(7).collect();
        assert_eq!(
            keys,
            [
                "move", "order", "value", "exact", "estimate", "visits", "pv"
            ],
            "{info}"
        );
        assert_eq!(words[4], rank.to_string());
        assert!(words[12].parse::<u64>().is_ok(), "{info}");
        assert_eq!(words[14], words[2], "the line starts with the move: {info}");
    }
}

/// Input that hands out its lines one at a time, sleeping before some: a GUI that waits.
struct Paced {
    lines: std::collections::VecDeque<(std::time::Duration, Vec<u8>)>,
}

impl std::io::Read for Paced {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((wait, mut line)) = self.lines.pop_front() else {
            return Ok(0);
        };
        std::thread::sleep(wait);
        let n = line.len().min(buf.len());
        buf[..n].copy_from_slice(&line[..n]);
        if n < line.len() {
            let rest = line.split_off(n);
            self.lines.push_front((std::time::Duration::ZERO, rest));
        }
        Ok(n)
    }
}

fn run_paced(lines: &[(u64, &str)]) -> String {
    let paced = Paced {
        lines: lines
            .iter()
            .map(|(ms, l)| {
                (
                    std::time::Duration::from_millis(*ms),
                    format!("{l}\n").into_bytes(),
                )
            })
            .collect(),
    };
    let mut out = Vec::new();
    Gtp::new()
        .run(std::io::BufReader::new(paced), &mut out)
        .expect("in-memory I/O");
    String::from_utf8(out).expect("UTF-8 answers")
}

#[test]
fn a_streaming_analysis_updates_at_its_interval_until_the_next_command() {
    let start = deal::random(4, Color::White);
    let out = run_paced(&[
        (0, "set_option threads 1"),
        (0, &format!("setup {start}")),
        (0, "9 analyze_info interval 100 lines 2"),
        (900, "10 stop"),
        (0, "11 position"),
    ]);
    let answers: Vec<&str> = out.split("\n\n").collect();
    let stream = answers[2];
    assert!(stream.starts_with("=9\nupdate 1 "), "{stream}");
    let updates = stream.lines().filter(|l| l.starts_with("update ")).count();
    assert!((2..=10).contains(&updates), "{updates} updates: {stream}");
    let infos = stream.lines().filter(|l| l.starts_with("info ")).count();
    assert_eq!(infos, 2 * updates, "two lines per update: {stream}");
    assert_eq!(answers[3], "=10");
    assert_eq!(answers[4], format!("=11 {start}"));
}

/// Output shared with the input's side, so that a line can wait for an answer.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("lock").clone()).expect("UTF-8 answers")
    }
}

/// A line of [`Gated`] input: the check the output must pass first (`None`: none), the pause
/// after it (ms), the line.
type GatedLine = (Option<fn(&str) -> bool>, u64, Vec<u8>);

/// Input whose lines each wait until the output so far passes a check (a GUI that reads the
/// answers), then for a pause.
struct Gated {
    out: Shared,
    lines: std::collections::VecDeque<GatedLine>,
}

impl std::io::Read for Gated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((until, pause, mut line)) = self.lines.pop_front() else {
            return Ok(0);
        };
        if let Some(ready) = until {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
            while !ready(&self.out.text()) {
                assert!(
                    std::time::Instant::now() < deadline,
                    "never ready: {}",
                    self.out.text()
                );
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(pause));
        let n = line.len().min(buf.len());
        buf[..n].copy_from_slice(&line[..n]);
        if n < line.len() {
            let rest = line.split_off(n);
            self.lines.push_front((None, 0, rest));
        }
        Ok(n)
    }
}

#[test]
fn a_stream_of_a_solved_position_ends_its_updates_and_waits_for_the_next_command() {
    let pos = late_position(2, 8);
    let out = Shared::default();
    let setup = format!("setup {pos}\n").into_bytes();
    let input = Gated {
        out: out.clone(),
        lines: [
            (None, 0, b"set_option threads 1\n".to_vec()),
            (None, 0, setup),
            (None, 0, b"analyze_info interval 50\n".to_vec()),
            // Once every move is exact, six more intervals: the stream must stay quiet.
            (
                Some(all_exact as fn(&str) -> bool),
                300,
                b"result\n".to_vec(),
            ),
        ]
        .into(),
    };
    Gtp::new()
        .run(std::io::BufReader::new(input), out.clone())
        .expect("in-memory I/O");
    let out = out.text();
    let answers: Vec<&str> = out.split("\n\n").collect();
    // The solver may need more than one try on a busy machine; once every move is exact, the
    // updates stop.
    let updates: Vec<&str> = answers[2].split("\nupdate ").skip(1).collect();
    let first_exact = updates
        .iter()
        .position(|u| all_exact(&format!("update {u}")))
        .expect("an update with every move exact");
    assert_eq!(first_exact, updates.len() - 1, "{}", answers[2]);
    assert_eq!(answers[3], "= *");
}

/// Whether the last update of a stream (in `out`) has an exact value with a margin for every
/// move.
fn all_exact(out: &str) -> bool {
    let Some((_, last)) = out.rsplit_once("update ") else {
        return false;
    };
    let infos: Vec<&str> = last.lines().filter(|l| l.starts_with("info ")).collect();
    !infos.is_empty()
        && infos.iter().all(|l| {
            l.contains(" exact win") || l.contains(" exact loss") || l.contains(" exact draw")
        })
}

#[test]
fn a_line_that_is_not_utf8_is_answered_with_an_error_and_the_session_goes_on() {
    let mut input = b"1 name\n".to_vec();
    input.extend_from_slice(b"2 play \xff\xfe\n\xc3\n3 protocol_version\n");
    let mut out = Vec::new();
    Gtp::new().run(&input[..], &mut out).expect("in-memory I/O");
    assert_eq!(
        String::from_utf8(out).expect("text"),
        "=1 mabula-engine\n\n?2 the line is not UTF-8 text\n\n? the line is not UTF-8 text\n\n\
         =3 2\n\n"
    );
}

#[test]
fn with_a_clock_genmove_spends_a_share_of_the_time_left_and_counts_it() {
    let start = deal::random(5, Color::White);
    let script = format!(
        "set_option threads 1\nsetup {start}\ntime_settings 2 0.1\ntime_left w 1.5\ngenmove\noptions\n"
    );
    let started = std::time::Instant::now();
    let out = run(&script);
    assert!(
        started.elapsed() < std::time::Duration::from_millis(1400),
        "{:?}",
        started.elapsed()
    );
    let options = out.split("\n\n").nth(5).expect("options");
    let clock = options
        .lines()
        .find(|l| l.starts_with("clock "))
        .expect("a clock line");
    let words: Vec<&str> = clock.split(' ').collect();
    let white: f64 = words[2].parse().expect("seconds");
    assert!(white < 1.6 && white > 0.3, "{clock}");
    assert_eq!(words[4], "2.000", "Black's clock is untouched: {clock}");
}

#[test]
fn load_record_reads_one_game_of_a_file_of_several() {
    let dir = std::env::temp_dir().join(format!("mabula-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("games.pgn");
    let records = format!(
        "{}/../mabula/tests/data/records/three_games.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(records, &path).expect("a copy");
    let p = path.display();
    let out = run(&format!(
        "load_record {p}\nload_record {p} 4\nload_record {p} 3\nload_record {p} 2\nresult\nrecord\n"
    ));
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(
        answers[0],
        format!("? {p} holds 3 games: give the number of one, like load_record {p} 1")
    );
    assert_eq!(answers[1], format!("? {p} holds 3 games: give 1 to 3"));
    assert!(
        answers[2].starts_with(&format!(
            "? {p}, game 3: line 22, move 1...: illegal move a4-g4"
        )),
        "{}",
        answers[2]
    );
    let pos: Position = answers[3]
        .strip_prefix("= ")
        .expect("a position")
        .parse()
        .expect("fen");
    assert_eq!(pos.side_to_move(), Color::White);
    let record = answers[5].strip_prefix("=\n").expect("a record");
    assert!(record.contains("[Round \"2\"]"), "{record}");
    assert!(record.ends_with("1... c8-c6 2. b1-b4 e8-e5 *"), "{record}");
    let game = mabula::Game::parse(record).expect("the record reads back");
    assert_eq!(game.position(), &pos);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_line_longer_than_the_limit_is_refused_and_skipped_and_the_session_goes_on() {
    use mabula_engine::gtp::MAX_LINE;
    let mut input = b"1 name\n7 setup ".to_vec();
    input.extend(std::iter::repeat_n(b'w', 3 * MAX_LINE));
    input.extend_from_slice(b"\n2 protocol_version\n");
    // A line of exactly the limit is still read (and refused as a command of its own).
    input.extend(std::iter::repeat_n(b'x', MAX_LINE));
    input.extend_from_slice(b"\r\n3 name\n");
    let out = {
        let mut out = Vec::new();
        Gtp::new().run(&input[..], &mut out).expect("in-memory I/O");
        String::from_utf8(out).expect("text")
    };
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[0], "=1 mabula-engine");
    assert_eq!(
        answers[1],
        format!("?7 line too long: at most {MAX_LINE} bytes")
    );
    assert_eq!(answers[2], "=2 2");
    assert!(
        answers[3].starts_with("? unknown command 'xxx"),
        "{}",
        &answers[3][..40]
    );
    assert_eq!(answers[4], "=3 mabula-engine");
    assert!(out.len() < 2 * MAX_LINE, "the long line is not echoed");
}

#[test]
fn comments_after_a_command_are_stripped_as_gtp_v2_does() {
    let start = deal::random(0, Color::White);
    let out = run(&format!(
        "1 setup {start} # the usual start\n2 name # who are you?\n# a whole comment line\n   # indented\n3 position#no space\n"
    ));
    assert_eq!(out, format!("=1\n\n=2 mabula-engine\n\n=3 {start}\n\n"));
}

#[test]
fn a_line_with_a_control_character_is_refused_and_changes_nothing() {
    let start = deal::random(0, Color::White);
    let out = run(&format!(
        "setup {start}\n4 play b1\x07-b4\n5 name\x1b[2J\nposition\n6\tname\t\n"
    ));
    assert_eq!(
        out,
        format!(
            "=\n\n?4 the line holds a control character (U+0007): only text and tabs are allowed\n\n\
             ?5 the line holds a control character (U+001B): only text and tabs are allowed\n\n\
             = {start}\n\n=6 mabula-engine\n\n"
        )
    );
}

#[test]
fn play_with_a_colour_is_accepted_for_the_side_to_move_only() {
    let start: Position = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"
        .parse()
        .expect("fen");
    let out = run(&format!(
        "setup {start}\n1 play b b1-b4\n2 play w b1-b4\n3 play black c8-c6\n4 play green c8-c6\n5 play w c8-c6 d1-d2\nmoves\n"
    ));
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[1], "?1 it is white's turn, not black's");
    assert_eq!(answers[2], "=2");
    assert_eq!(answers[3], "=3");
    assert_eq!(
        answers[4],
        "?4 'green' is not a colour: use play MOVE or play COLOUR MOVE, like play w b1-b4"
    );
    assert_eq!(
        answers[5],
        "?5 use play MOVE or play COLOUR MOVE, like play w b1-b4"
    );
}
