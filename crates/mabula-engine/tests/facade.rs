//! The two calls other crates use: `choose_move` and `analyze`.

use mabula::{Color, Move, Position, Scoring, deal};
use mabula_engine::{Limits, Turns, Value, analyze, choose_move, choose_move_in_turns};
use std::time::Duration;

fn after(seed: u64, plies: usize) -> Position {
    let mut pos = deal::random(seed, Color::White);
    for i in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[i * 7 % moves.len()]);
    }
    pos
}

#[test]
fn every_level_chooses_a_legal_move_in_both_scorings() {
    for level in 1..=10 {
        for scoring in [Scoring::Largest, Scoring::Product] {
            let pos = after(u64::from(level), 2 * level as usize);
            let mv = choose_move(&pos, scoring, level, Some(Duration::from_millis(30)), 3);
            assert!(pos.is_legal(mv), "level {level}: {mv} in {pos}");
        }
    }
}

#[test]
fn a_level_below_ten_with_a_seed_repeats_its_choice() {
    let pos = after(4, 5);
    for level in [1, 4, 7] {
        let a = choose_move(&pos, Scoring::Largest, level, None, 11);
        let b = choose_move(&pos, Scoring::Largest, level, None, 11);
        assert_eq!(a, b, "level {level}");
    }
}

#[test]
fn a_search_that_waits_between_its_slices_chooses_the_same_move() {
    // Below level 10 the playout budget decides, so the same seed must give the same move
    // however often the search pauses.
    let pos = after(4, 5);
    for level in [4, 7] {
        let alone = choose_move(&pos, Scoring::Largest, level, None, 11);
        let turns = Turns::new(Duration::from_millis(1), || {
            std::thread::sleep(Duration::from_millis(2));
            true
        });
        let paused =
            choose_move_in_turns(&pos, Scoring::Largest, level, None, 11, Some(turns.clone()));
        assert_eq!(paused, alone, "level {level}");
        assert!(!turns.ended());
    }
}

#[test]
fn a_forced_pass_is_chosen_and_a_finished_game_answers_pass() {
    let stuck: Position = "4b3/8/8/8/wbwbwbw1/8/8/8 w".parse().expect("valid");
    assert_eq!(stuck.legal_moves().as_slice(), [Move::PASS]);
    assert_eq!(
        choose_move(&stuck, Scoring::Largest, 10, None, 0),
        Move::PASS
    );
    let over = after(9, 60);
    assert!(over.is_game_over());
    assert_eq!(choose_move(&over, Scoring::Product, 5, None, 0), Move::PASS);
}

#[test]
fn analysis_lists_every_move_and_proves_a_late_position() {
    let pos = after(2, 16);
    let a = analyze(&pos, Scoring::Largest, &Limits::nodes(5_000_000));
    let mut listed: Vec<Move> = a.moves.iter().map(|m| m.mv).collect();
    listed.sort();
    let mut legal = pos.legal_moves().to_vec();
    legal.sort();
    assert_eq!(listed, legal);
    let sol = a
        .solved
        .as_ref()
        .expect("eight moves left are solved at once");
    let best = &a.moves[0];
    if sol.value >= 0 {
        assert_eq!(best.mv, sol.best);
        assert_eq!(
            best.value,
            Value::Exact {
                result: sol.value as i8,
                margin: None
            }
        );
    }
    let mut p = pos;
    for &mv in &best.pv {
        p = p.play(mv).expect("a legal line");
    }
}
