//! One test per rule of RULES.md sections 1 to 5, on positions built by hand.

use mabula::{Bitboard, Color, Move, Outcome, Position, Scores, Scoring, Square};

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn sorted_moves(p: &Position) -> Vec<String> {
    let mut moves = p.legal_moves();
    moves.sort_unstable();
    moves.iter().map(ToString::to_string).collect()
}

/// The b-file from b2 to b7 as a line string like `. b . w . .`.
fn b_file(p: &Position) -> String {
    let cells: Vec<&str> = [
        Square::B2,
        Square::B3,
        Square::B4,
        Square::B5,
        Square::B6,
        Square::B7,
    ]
    .iter()
    .map(|&sq| match p.color_at(sq) {
        Some(Color::White) => "w",
        Some(Color::Black) => "b",
        None => ".",
    })
    .collect();
    cells.join(" ")
}

/// White on b1 facing `. b . w . .` up the b-file.
const LINE: &str = "8/8/8/1w6/8/1b6/8/1w6 w";

#[test]
fn the_worked_line_example_pushes_the_chain_only_as_far_as_it_must() {
    let start = pos(LINE);
    assert_eq!(b_file(&start), ". b . w . .");
    for (to, line) in [
        ("b2", "w b . w . ."),
        ("b3", ". w b w . ."),
        ("b4", ". . w b w ."),
        ("b5", ". . . w b w"),
    ] {
        let after = start.play(mv(&format!("b1-{to}"))).expect("legal");
        assert_eq!(b_file(&after), line, "b1-{to}");
        assert!(!after.occupied().contains(Square::B1));
    }
    let err = start
        .play(mv("b1-b6"))
        .expect_err("would push a marble onto b8");
    assert!(err.to_string().contains("at most 4 squares"), "{err}");
}

#[test]
fn a_marble_waiting_on_the_far_edge_space_neither_moves_nor_allows_a_longer_push() {
    let start = pos("1b6/8/8/1w6/8/1b6/8/1w6 w");
    assert!(start.is_legal(mv("b1-b5")));
    assert!(!start.is_legal(mv("b1-b6")));
    let after = start.play(mv("b1-b5")).expect("legal");
    assert_eq!(b_file(&after), ". . . w b w");
    assert_eq!(after.color_at(Square::B8), Some(Color::Black));
    // The waiting marble pushes the other way, into whatever room is left.
    assert_eq!(sorted_moves(&after), ["b8-b5", "b8-b6", "b8-b7"]);
    let black = pos("1b6/8/8/1w6/8/1b6/8/1w6 b");
    assert_eq!(sorted_moves(&black), ["b8-b4", "b8-b5", "b8-b6", "b8-b7"]);
}

#[test]
fn a_full_line_blocks_the_marbles_at_both_of_its_ends() {
    let full = pos("1b6/1w6/1b6/1w6/1b6/1w6/1b6/1ww5 w");
    let moves = sorted_moves(&full);
    assert!(moves.iter().all(|m| !m.starts_with("b1")), "{moves:?}");
    assert_eq!(
        moves,
        ["c1-c2", "c1-c3", "c1-c4", "c1-c5", "c1-c6", "c1-c7"]
    );
    assert_eq!(full.room_at(Square::B1), 0);
    assert_eq!(full.with_side_to_move(Color::Black).room_at(Square::B8), 0);
    let err = full.play(mv("b1-b2")).expect_err("blocked");
    assert!(err.to_string().contains("the line of b1 is full"), "{err}");
}

#[test]
fn a_player_without_a_push_passes_and_must_move_again_once_a_crossing_push_opens_the_line() {
    let start = pos("8/1w6/1b6/1w6/1b6/bw6/1b6/1w6 w");
    assert_eq!(sorted_moves(&start), ["pass"]);
    assert!(start.play(mv("b1-b2")).is_err());
    let passed = start.play(Move::PASS).expect("white must pass");
    assert_eq!(passed.side_to_move(), Color::Black);
    // Black pushes along rank 3 far enough to shift b3 out of the b-file.
    let opened = passed.play(mv("a3-c3")).expect("legal");
    assert_eq!(opened.color_at(Square::B3), None);
    assert_eq!(opened.color_at(Square::D3), Some(Color::White));
    assert_eq!(sorted_moves(&opened), ["b1-b2"]);
    let err = opened.play(Move::PASS).expect_err("white can move now");
    assert!(
        err.to_string().contains("a player who can move must"),
        "{err}"
    );
}

#[test]
fn a_game_can_end_with_marbles_stuck_on_edge_spaces_which_score_nothing() {
    let end = pos("8/1w6/1b6/1w6/1b6/1w6/1b6/1w6 b");
    assert!(end.is_game_over());
    assert!(end.legal_moves().is_empty());
    assert_eq!(end.color_at(Square::B1), Some(Color::White));
    assert_eq!(end.scores(Scoring::Largest), Scores { white: 1, black: 1 });
    assert_eq!(end.outcome(Scoring::Largest), Some(Outcome::Draw));
    assert!(end.play(Move::PASS).is_err());
}

#[test]
fn the_rule_books_scoring_example_goes_to_white_by_largest_group_and_black_by_product() {
    let field = pos("8/1wwww1b1/1w2b1b1/1w1bw1b1/1w1b1wb1/1w1b2b1/1bb1wwb1/8 w");
    let mut white: Vec<u32> = field.groups(Color::White).map(Bitboard::count).collect();
    let mut black: Vec<u32> = field.groups(Color::Black).map(Bitboard::count).collect();
    white.sort_unstable_by(|a, b| b.cmp(a));
    black.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(white, [8, 2, 1, 1]);
    assert_eq!(black, [6, 3, 2, 1]);
    assert_eq!(
        field.scores(Scoring::Largest),
        Scores { white: 8, black: 6 }
    );
    assert_eq!(
        field.scores(Scoring::Product),
        Scores {
            white: 16,
            black: 36
        }
    );
    assert_eq!(
        field.outcome(Scoring::Largest),
        Some(Outcome::Win(Color::White))
    );
    assert_eq!(
        field.outcome(Scoring::Product),
        Some(Outcome::Win(Color::Black))
    );
}

#[test]
fn diagonal_neighbours_are_not_connected() {
    let p = pos("8/8/8/3w4/2w1w3/3w4/8/8 w");
    assert_eq!(p.groups(Color::White).count(), 4);
    assert_eq!(p.scores(Scoring::Largest).white, 1);
    assert_eq!(p.scores(Scoring::Product).white, 1);
}

#[test]
fn a_player_with_no_marble_in_the_field_scores_zero_in_both_modes() {
    let p = pos("1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w");
    assert_eq!(p.scores(Scoring::Largest), Scores { white: 0, black: 0 });
    assert_eq!(p.scores(Scoring::Product), Scores { white: 0, black: 0 });
    let one = p.play(mv("b1-b4")).expect("legal");
    assert_eq!(one.scores(Scoring::Product), Scores { white: 1, black: 0 });
}

#[test]
fn the_best_product_score_is_81_from_four_groups_of_three() {
    let p = pos("8/1www4/8/1www1w2/5w2/1www1w2/8/8 w");
    assert_eq!(p.scores(Scoring::Product).white, 81);
}

#[test]
fn only_marbles_on_edge_spaces_move_and_only_straight_in() {
    let p = pos("8/8/8/3w4/8/8/8/1w6 w");
    assert_eq!(
        sorted_moves(&p),
        ["b1-b2", "b1-b3", "b1-b4", "b1-b5", "b1-b6", "b1-b7"]
    );
    assert!("d5-d6".parse::<Move>().is_err());
    let err = p.play(mv("c1-c2")).expect_err("no marble there");
    assert!(err.to_string().contains("there is no marble on c1"));
}

#[test]
fn a_player_moves_only_their_own_marbles() {
    let p = pos("8/8/8/8/8/8/8/1wb5 w");
    let err = p.play(mv("c1-c4")).expect_err("black's marble");
    assert_eq!(
        err.to_string(),
        "illegal move c1-c4: the marble on c1 is black's, and it is white's turn"
    );
}

#[test]
fn pushes_from_every_side_travel_towards_the_far_edge() {
    let p = pos("4b3/8/8/7w/b7/8/8/8 w");
    assert_eq!(
        p.play(mv("h5-c5")).expect("legal").color_at(Square::C5),
        Some(Color::White)
    );
    let b = p.with_side_to_move(Color::Black);
    assert_eq!(
        b.play(mv("e8-e7")).expect("legal").color_at(Square::E7),
        Some(Color::Black)
    );
    assert_eq!(
        b.play(mv("a4-g4")).expect("legal").color_at(Square::G4),
        Some(Color::Black)
    );
}
