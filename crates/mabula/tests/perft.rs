//! Perft cases from `tests/data/perft.txt`, checked against both the library and the independent
//! reference implementation in `tests/reference/mod.rs`, which computed the counts.
//!
//! Perft counts the move paths of exactly `depth` moves: a pass is a move, a finished game has no
//! moves (0 at depth 1 or more), and depth 0 counts 1.

mod reference;

use mabula::Position;
use reference::{RefMove, RefPosition, Side};

/// The largest count the slow reference is asked to reproduce in a debug build; deeper cases are
/// left to release builds (`cargo test --release`).
const DEBUG_REFERENCE_MAX_COUNT: u64 = 600_000;
/// The deepest case the reference is asked to reproduce in a debug build (a zero count can still
/// hide a large tree).
const DEBUG_REFERENCE_MAX_DEPTH: u32 = 7;

/// One line of the data file.
struct Case {
    line: usize,
    name: String,
    position: String,
    depth: u32,
    /// `None` when the count field does not parse (only `print_reference_counts` accepts that).
    count: Option<u64>,
}

impl Case {
    fn expected(&self) -> u64 {
        self.count
            .unwrap_or_else(|| panic!("perft.txt line {}: the count is not a number", self.line))
    }

    fn reference_position(&self) -> RefPosition {
        RefPosition::parse(&self.position).unwrap_or_else(|e| {
            panic!(
                "perft.txt line {}: the reference rejects the position: {e}",
                self.line
            )
        })
    }
}

/// Reads `name; position; depth; count` lines, skipping blank lines and `#` comments.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (index, raw) in include_str!("data/perft.txt").lines().enumerate() {
        let line = index + 1;
        let text = raw.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let fields: Vec<&str> = text.split(';').map(str::trim).collect();
        let [name, position, depth, count] = fields[..] else {
            panic!("perft.txt line {line}: expected 4 fields separated by ';', got {raw:?}");
        };
        let depth = depth
            .parse()
            .unwrap_or_else(|_| panic!("perft.txt line {line}: bad depth {depth:?}"));
        cases.push(Case {
            line,
            name: name.to_string(),
            position: position.to_string(),
            depth,
            count: count.parse().ok(),
        });
    }
    cases
}

/// Where the library's and the reference's counts part, move by move, to locate a mismatch.
fn divide_report(case: &Case) -> String {
    if case.depth == 0 {
        return String::new();
    }
    let Ok(pos) = case.position.parse::<Position>() else {
        return String::new();
    };
    let library: Vec<(String, u64)> = mabula::perft::divide(&pos, case.depth)
        .into_iter()
        .map(|(mv, n)| (mv.to_string(), n))
        .collect();
    let reference = case.reference_position().divide(case.depth);
    let mut report = String::from("\n  move: library / reference");
    for (mv, n) in &library {
        let theirs = reference.iter().find(|(m, _)| m == mv).map(|(_, n)| *n);
        if theirs != Some(*n) {
            report += &format!("\n  {mv}: {n} / {theirs:?}");
        }
    }
    for (mv, n) in &reference {
        if !library.iter().any(|(m, _)| m == mv) {
            report += &format!("\n  {mv}: missing / {n}");
        }
    }
    report
}

#[test]
fn the_data_file_has_the_required_kinds_of_case() {
    let cases = cases();
    assert!(cases.len() >= 4, "too few perft cases");
    let mut kinds = [false; 4];
    for case in &cases {
        let pos = case.reference_position();
        // An opening: a valid setup (full ring, empty field) whose perft goes deep enough.
        let field_is_empty =
            pos.groups(Side::White).is_empty() && pos.groups(Side::Black).is_empty();
        if reference::ring_colours(&pos).is_some_and(|ring| reference::ring_is_valid(&ring))
            && field_is_empty
            && case.depth >= 3
        {
            kinds[0] = true;
        }
        // A game under way: marbles in the field and moves left.
        if !field_is_empty && !pos.moves().is_empty() {
            kinds[1] = true;
        }
        // A pass within the counted depth (looked for only late in a game and a few plies deep,
        // where trees are small).
        if !kinds[2] && pos.edge_count() <= 10 && contains_pass(&pos, case.depth.min(5)) {
            kinds[2] = true;
        }
        // A finished game, counted at depth 0 and at a depth of 1 or more.
        let mut depths = cases
            .iter()
            .filter(|c| c.position == case.position)
            .map(|c| c.depth);
        if pos.is_game_over() && depths.clone().any(|d| d == 0) && depths.any(|d| d > 0) {
            kinds[3] = true;
        }
    }
    assert_eq!(
        kinds, [true; 4],
        "perft.txt needs an opening, a midgame, a pass and a finished game"
    );
}

/// Whether any line of at most `depth` moves from `pos` contains a pass.
fn contains_pass(pos: &RefPosition, depth: u32) -> bool {
    depth > 0
        && pos
            .moves()
            .into_iter()
            .any(|mv| mv == RefMove::Pass || contains_pass(&pos.apply(mv), depth - 1))
}

#[test]
fn library_perft_matches_every_count_in_the_data_file() {
    let mut failures = Vec::new();
    for case in cases() {
        let expected = case.expected();
        let pos: Position = match case.position.parse() {
            Ok(pos) => pos,
            Err(e) => {
                failures.push(format!(
                    "line {} {}: the library rejects {:?}: {e}",
                    case.line, case.name, case.position
                ));
                continue;
            }
        };
        let actual = mabula::perft(&pos, case.depth);
        if actual != expected {
            failures.push(format!(
                "line {} {} ({}) depth {}: library {actual}, expected {expected}{}",
                case.line,
                case.name,
                case.position,
                case.depth,
                divide_report(&case)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn reference_perft_matches_every_count_in_the_data_file() {
    let mut failures = Vec::new();
    for case in cases() {
        let expected = case.expected();
        if cfg!(debug_assertions)
            && (expected > DEBUG_REFERENCE_MAX_COUNT || case.depth > DEBUG_REFERENCE_MAX_DEPTH)
        {
            continue;
        }
        let actual = case.reference_position().perft(case.depth);
        if actual != expected {
            failures.push(format!(
                "line {} {} depth {}: reference {actual}, expected {expected}",
                case.line, case.name, case.depth
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

/// Prints the data file's cases with the reference's counts, to fill in or check the file:
/// `cargo test -p mabula --release --test perft -- --ignored --nocapture print_reference_counts`.
#[test]
#[ignore = "prints counts for tests/data/perft.txt; slow in debug builds"]
fn print_reference_counts() {
    for case in cases() {
        let start = std::time::Instant::now();
        let count = case.reference_position().perft(case.depth);
        println!(
            "{}; {}; {}; {count}    # {:.2?}",
            case.name,
            case.position,
            case.depth,
            start.elapsed()
        );
    }
}
