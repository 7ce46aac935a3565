//! The solver against positions solved before (`data/solved.txt`, written by the
//! `solved_cases` example with the solver as it was before issue 40's changes): the same
//! margins, the same results, on one thread and on two.

use mabula::{Position, Scoring};
use mabula_engine::Limits;
use mabula_engine::solver::{SolveMode, Solver};

struct Case {
    scoring: Scoring,
    left: u32,
    margin: i32,
    pos: Position,
}

fn cases() -> Vec<Case> {
    include_str!("data/solved.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut words = line.splitn(4, ' ');
            let mut next = || words.next().expect("four fields");
            Case {
                scoring: next().parse().expect("a scoring mode"),
                left: next().parse().expect("marbles left"),
                margin: next().parse().expect("a margin"),
                pos: next().parse().expect("a position"),
            }
        })
        .collect()
}

#[test]
fn the_solver_finds_the_margins_and_results_solved_before() {
    // A debug build takes the first 24 positions of each mode 10 and 11 marbles from the end
    // (a release build, `cargo test --release`, all of them, up to 14).
    let all = cases();
    assert!(all.len() >= 300, "{} cases", all.len());
    let cases: Vec<&Case> = if cfg!(debug_assertions) {
        let mut seen = std::collections::HashMap::new();
        all.iter()
            .filter(|c| {
                let n = seen.entry((c.scoring, c.left)).or_insert(0);
                *n += 1;
                c.left <= 11 && *n <= 24
            })
            .collect()
    } else {
        all.iter().collect()
    };
    for scoring in [Scoring::Largest, Scoring::Product] {
        let mut solver = Solver::new(scoring, 32);
        for (i, c) in cases.iter().filter(|c| c.scoring == scoring).enumerate() {
            let threads = 1 + i % 2;
            for mode in [SolveMode::Margin, SolveMode::Result] {
                let sol = solver
                    .solve_threads(&c.pos, mode, &Limits::none(), threads)
                    .expect("no limit");
                let want = match mode {
                    SolveMode::Margin => c.margin,
                    SolveMode::Result => c.margin.signum(),
                };
                assert_eq!(sol.value, want, "{} {scoring} {mode:?}", c.pos);
                let end = sol
                    .pv
                    .iter()
                    .try_fold(c.pos, |p, &mv| p.play(mv))
                    .expect("a legal line");
                assert!(end.is_game_over(), "{}: the line goes to the end", c.pos);
                if mode == SolveMode::Margin {
                    let me = c.pos.side_to_move();
                    assert_eq!(end.scores(scoring).margin(me), c.margin, "{}", c.pos);
                }
            }
        }
    }
}
