//! Record files as other programs and other systems write them: a byte-order mark, Windows line
//! ends, several games in one file, a file cut short, wrong move numbers. The files are in
//! `tests/data/records/`.

use mabula::record::{parse_all, split};
use mabula::{Color, Game, GameResult, RecordError, Scoring};
use std::error::Error;

fn file(name: &str) -> String {
    let path = format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).expect("a test record")
}

#[test]
fn a_byte_order_mark_before_the_tags_is_skipped() {
    let text = file("bom.pgn");
    assert!(text.starts_with('\u{feff}'));
    let game = Game::parse(&text).expect("a record with a byte-order mark");
    assert_eq!(game.moves().len(), 3);
    assert_eq!(game.tag("Event"), Some("A file saved by a Windows editor"));
}

#[test]
fn windows_line_ends_are_read_and_a_comment_may_span_them() {
    let text = file("crlf.pgn");
    assert!(text.contains("\r\n"));
    let game = Game::parse(&text).expect("a record with CRLF line ends");
    assert_eq!(game.scoring(), Scoring::Product);
    assert_eq!(game.moves().len(), 3);
    assert_eq!(game.comment(0), Some("a comment over two lines"));
}

#[test]
fn a_file_of_several_games_is_split_and_each_is_read_on_its_own() {
    let text = file("three_games.pgn");
    let parts = split(&text);
    assert_eq!(parts.len(), 3);
    let games = parse_all(&text);
    let first = games[0].as_ref().expect("game 1");
    assert_eq!(first.moves().len(), 2);
    let second = games[1].as_ref().expect("game 2");
    assert_eq!(second.start().side_to_move(), Color::Black);
    assert_eq!(second.tag("Round"), Some("2"));
    assert_eq!(second.moves().len(), 3);
    // The third game's error names its line in the whole file, not in the game.
    let err = games[2].as_ref().expect_err("game 3 has an illegal move");
    let line = text
        .lines()
        .position(|l| l.contains("a4-g4"))
        .expect("the line")
        + 1;
    assert!(
        err.to_string()
            .starts_with(&format!("line {line}, move 1...: illegal move a4-g4")),
        "{err}"
    );
}

#[test]
fn reading_one_game_from_a_file_of_several_says_how_many_there_are() {
    let err = Game::parse(&file("three_games.pgn")).expect_err("three records");
    assert_eq!(err, RecordError::Several(3));
    assert!(err.to_string().contains("3 records"), "{err}");
}

#[test]
fn a_record_cut_short_is_refused_and_says_so() {
    let err = Game::parse(&file("truncated.pgn")).expect_err("no result token");
    assert_eq!(err, RecordError::MissingResult { moves: 3 });
    assert!(err.to_string().contains("cut short"), "{err}");
    let one = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n1. b1-b4\n";
    let err = Game::parse(one).expect_err("no result token");
    assert!(err.to_string().contains("after 1 move "), "{err}");
}

#[test]
fn a_move_number_that_does_not_count_the_moves_is_refused() {
    let err = Game::parse(&file("numbering.pgn")).expect_err("3. where 2. belongs");
    assert_eq!(
        err.to_string(),
        "line 4: the move number '3.' should be '2.' here"
    );
    let setup = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n";
    // White's number on Black's move, and Black's on White's.
    for body in ["1. b1-b4 2. c8-c6 *", "1... b1-b4 *"] {
        let err = Game::parse(&format!("{setup}{body}")).expect_err(body);
        assert!(
            matches!(err, RecordError::Numbering { .. }),
            "{body}: {err}"
        );
    }
    // Numbers written out in full for Black, or left out, are fine.
    for body in ["1. b1-b4 1... c8-c6 2. d1-d3 *", "b1-b4 c8-c6 d1-d3 *"] {
        let game = Game::parse(&format!("{setup}{body}")).expect(body);
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.result(), GameResult::Unfinished);
    }
}

#[test]
fn the_reason_of_an_illegal_move_is_said_once() {
    let setup = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n";
    let err = Game::parse(&format!("{setup}1. b1-b4 a4-g4 *")).expect_err("illegal");
    // The reason is in the message; it is not also the error's source, which would print it
    // twice in a chain of causes.
    assert!(err.source().is_none());
    assert_eq!(err.to_string().matches("at most 5 squares").count(), 1);
}

#[test]
fn an_illegal_move_carries_a_reason_callers_can_match_on() {
    use mabula::{Illegal, Move, Position, Square};
    let pos: Position = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"
        .parse()
        .expect("a position");
    let err = pos
        .play("c1-c3".parse::<Move>().expect("notation"))
        .expect_err("black's marble");
    assert_eq!(
        err.reason,
        Illegal::NotYours {
            from: Square::C1,
            owner: Color::Black,
            turn: Color::White
        }
    );
    let err = pos.play(Move::PASS).expect_err("white can move");
    assert_eq!(err.reason, Illegal::MustPush(Color::White));
    let mut game = Game::new(pos, Scoring::Largest);
    game.declare(GameResult::BlackWins);
    let err = game
        .play("b1-b4".parse().expect("notation"))
        .expect_err("decided");
    assert_eq!(err.reason, Illegal::Decided(GameResult::BlackWins));
    assert_eq!(
        err.to_string(),
        "illegal move b1-b4: the game is over (0-1)"
    );
}
