//! The puzzle generator: puzzles found in random games are proven again, a position with two
//! winning moves is refused, the shipped file's lines read back, and the themes are those of the
//! line.

use mabula::{Color, Move, Position, Scoring};
use mabula_engine::Solver;
use mabula_engine::limits::Limits;
use mabula_engine::puzzle::{self, Puzzle, Theme};
use mabula_engine::rng::Rng;
use mabula_engine::solver::SolveMode;

/// The position `edges` marbles from the end of a game of random moves from deal `seed`.
fn late_position(seed: u64, edges: u32) -> Option<Position> {
    let mut pos = mabula::deal::random(seed, Color::White);
    let mut rng = Rng::new(seed);
    while pos.edges_left() > edges {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play_unchecked(moves[rng.below(moves.len() as u32) as usize]);
    }
    (!pos.is_game_over()).then_some(pos)
}

#[test]
fn found_puzzles_are_proven_again_and_read_back() {
    let limits = Limits::none();
    let mut found = 0;
    for scoring in [Scoring::Largest, Scoring::Product] {
        let mut solver = Solver::new(scoring, 16);
        for seed in 0..40 {
            let Some(pos) = late_position(seed, 9) else {
                continue;
            };
            let Some(p) = puzzle::find(&mut solver, &pos, &limits) else {
                continue;
            };
            found += 1;
            assert_eq!(p.line.len() % 2, 1, "{}", p.to_line());
            assert_eq!(
                puzzle::verify(&mut solver, &p, &limits),
                Some(true),
                "{}",
                p.to_line()
            );
            let back = Puzzle::line(&p.to_line()).expect("reads back");
            assert_eq!(back, p);
            // The result the player keeps is the start's exact value.
            let v = solver
                .solve(&p.start, SolveMode::Result, &limits)
                .expect("no limit")
                .value;
            assert_eq!(v, p.result);
            assert!(p.result == 0 || !p.themes.contains(&Theme::SaveTheDraw));
        }
    }
    assert!(found >= 5, "only {found} puzzles in 80 positions");
}

#[test]
fn a_position_with_two_keeping_moves_is_no_puzzle() {
    let limits = Limits::none();
    let mut solver = Solver::new(Scoring::Largest, 16);
    let mut refused = 0;
    for seed in 100..160 {
        let Some(pos) = late_position(seed, 8) else {
            continue;
        };
        let values = solver
            .solve_moves(&pos, SolveMode::Result, &limits)
            .expect("no limit");
        let best = values[0].1;
        let keeping = values.iter().filter(|v| v.1 == best).count();
        if best >= 0 && keeping >= 2 {
            assert_eq!(puzzle::find(&mut solver, &pos, &limits), None);
            refused += 1;
        }
    }
    assert!(
        refused >= 3,
        "only {refused} positions with two keeping moves"
    );
}

#[test]
fn broken_lines_of_the_file_are_refused() {
    let limits = Limits::none();
    let mut solver = Solver::new(Scoring::Largest, 16);
    let p = (0..200)
        .filter_map(|seed| late_position(seed, 8))
        .find_map(|pos| puzzle::find(&mut solver, &pos, &limits))
        .expect("a puzzle");
    let line = p.to_line();
    for broken in [
        line.replacen('\t', " ", 1),
        line.replace("\tlargest\t", "\tproduct\t"),
        format!("{line}\textra"),
        line.replacen(&p.line[0].to_string(), "pass", 1),
    ] {
        assert!(Puzzle::line(&broken).is_err(), "{broken}");
    }
    // A wrong move in the line fails the proof.
    let mut wrong = p.clone();
    let other = p
        .start
        .legal_moves()
        .into_iter()
        .find(|&m| m != p.line[0])
        .expect("two pushes");
    wrong.line = vec![other];
    assert_eq!(puzzle::verify(&mut solver, &wrong, &limits), Some(false));
    assert_ne!(other, Move::PASS);
}

#[test]
fn the_shipped_puzzles_read_back_and_a_sample_is_proven_again() {
    let puzzles: Vec<Puzzle> = puzzle::SHIPPED
        .lines()
        .map(|l| Puzzle::line(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert!(puzzles.len() >= 3000, "{} puzzles", puzzles.len());
    for scoring in [Scoring::Largest, Scoring::Product] {
        assert!(puzzles.iter().filter(|p| p.scoring == scoring).count() >= 1000);
    }
    // `mabula puzzles check` proves them all (a few minutes); here every 97th.
    let limits = Limits::none();
    let mut solvers = [
        Solver::new(Scoring::Largest, 16),
        Solver::new(Scoring::Product, 16),
    ];
    for p in puzzles.iter().step_by(97) {
        let solver = &mut solvers[usize::from(p.scoring == Scoring::Product)];
        assert_eq!(
            puzzle::verify(solver, p, &limits),
            Some(true),
            "{}",
            p.to_line()
        );
    }
}
