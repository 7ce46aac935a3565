//! Differential tests: the bitboard library against the independent reference implementation in
//! `tests/reference/mod.rs`, over thousands of seeded random games.
//!
//! The reference deals the setups and chooses the moves (from its own seeded generator), so every
//! run plays the same games. At every position both sides must agree on the position string, the
//! side to move, the sorted legal moves, whether the game is over, and both scores in both
//! scoring modes.

mod reference;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use mabula::{Color, Move, Position, Scoring};
use reference::{RefMove, RefPosition, Side, SplitMix64};

/// How many random games the main test plays.
const GAMES: u64 = 5_000;
/// The seed of game `i` is `SEED + i`.
const SEED: u64 = 0x4d61_6275_6c61;
/// How many mismatches are collected before a test gives up.
const MAX_REPORTED: usize = 10;
/// No game can be longer: 24 pushes, and a pass is always followed by a push.
const MAX_PLIES: usize = 48;

/// One seeded random game, played by the reference alone: the positions it visits (starting
/// setup first, finished position last) and the moves between them.
struct Game {
    positions: Vec<RefPosition>,
    moves: Vec<RefMove>,
}

fn random_game(index: u64) -> Game {
    let mut rng = SplitMix64::new(SEED.wrapping_add(index));
    let first = if rng.below(2) == 0 {
        Side::White
    } else {
        Side::Black
    };
    let mut pos = reference::random_setup(&mut rng, first);
    let mut game = Game {
        positions: vec![pos],
        moves: Vec::new(),
    };
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return game;
        }
        assert!(game.moves.len() < MAX_PLIES, "game {index} does not end");
        let mv = moves[rng.below(moves.len())];
        pos = pos.apply(mv);
        game.moves.push(mv);
        game.positions.push(pos);
    }
}

/// The [`GAMES`] seeded random games, played once by the reference and shared by the tests.
fn games() -> &'static [Game] {
    static CACHE: OnceLock<Vec<Game>> = OnceLock::new();
    CACHE.get_or_init(|| (0..GAMES).map(random_game).collect())
}

fn colour(side: Side) -> Color {
    match side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

fn library_moves(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    moves.sort();
    moves
}

/// Compares everything the two implementations say about one position.
fn compare(library: &Position, reference: &RefPosition) -> Result<(), String> {
    let mut problems = Vec::new();
    let (lib_text, ref_text) = (library.to_string(), reference.to_string());
    if lib_text != ref_text {
        problems.push(format!(
            "position string: library {lib_text}, reference {ref_text}"
        ));
    }
    if library.side_to_move() != colour(reference.to_move) {
        problems.push(format!(
            "side to move: library {:?}, reference {:?}",
            library.side_to_move(),
            reference.to_move
        ));
    }
    let (lib_moves, ref_moves) = (library_moves(library), reference.legal_move_strings());
    if lib_moves != ref_moves {
        problems.push(format!(
            "legal moves:\n    library   {}\n    reference {}",
            lib_moves.join(" "),
            ref_moves.join(" ")
        ));
    }
    if library.count_moves() as usize != ref_moves.len() {
        problems.push(format!(
            "move count: library {}, reference {}",
            library.count_moves(),
            ref_moves.len()
        ));
    }
    if library.is_game_over() != reference.is_game_over() {
        problems.push(format!(
            "game over: library {}, reference {}",
            library.is_game_over(),
            reference.is_game_over()
        ));
    }
    let reference_scores = [
        (
            Scoring::Largest,
            reference.largest_score(Side::White),
            reference.largest_score(Side::Black),
        ),
        (
            Scoring::Product,
            reference.product_score(Side::White),
            reference.product_score(Side::Black),
        ),
    ];
    for (scoring, white, black) in reference_scores {
        let lib = library.scores(scoring);
        if (lib.white, lib.black) != (white, black) {
            problems.push(format!(
                "{scoring:?} scores: library white {} black {}, reference white {white} black {black}",
                lib.white, lib.black
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n  "))
    }
}

/// Plays one move in both implementations.
fn play_both(
    library: &Position,
    reference: &RefPosition,
    mv: RefMove,
) -> Result<(Position, RefPosition), String> {
    let notation = mv.to_string();
    let lib_mv: Move = notation
        .parse()
        .map_err(|e| format!("the library cannot read the move {notation}: {e}"))?;
    if lib_mv.to_string() != notation {
        return Err(format!("the library reads {notation} as {lib_mv}"));
    }
    let next = library
        .play(lib_mv)
        .map_err(|e| format!("the library refuses {notation}: {e}"))?;
    Ok((next, reference.apply(mv)))
}

/// Plays game `index` in both implementations side by side, comparing every position.
fn check_game(index: usize, game: &Game) -> Result<(), String> {
    let start = game.positions[0];
    let mut library: Position = start
        .to_string()
        .parse()
        .map_err(|e| format!("game {index}: the library rejects the setup {start}: {e}"))?;
    let mut reference = start;
    for ply in 0..=game.moves.len() {
        compare(&library, &reference)
            .map_err(|e| format!("game {index} ply {ply}, position {reference}:\n  {e}"))?;
        if let Some(&mv) = game.moves.get(ply) {
            (library, reference) = play_both(&library, &reference, mv).map_err(|e| {
                format!("game {index} ply {ply}, position {reference}, move {mv}:\n  {e}")
            })?;
        }
    }
    Ok(())
}

/// Fails with up to [`MAX_REPORTED`] mismatch reports, if there are any.
fn assert_no_mismatches(what: &str, mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{what}: {} mismatch(es), first ones:\n\n{}",
        mismatches.len(),
        mismatches.join("\n\n")
    );
}

#[test]
fn library_and_reference_agree_over_5000_random_games() {
    let mut mismatches = Vec::new();
    for (index, game) in games().iter().enumerate() {
        if let Err(e) = check_game(index, game) {
            mismatches.push(e);
            if mismatches.len() == MAX_REPORTED {
                break;
            }
        }
    }
    assert_no_mismatches("library vs reference", &mismatches);
}

#[test]
fn the_random_games_reach_passes_stuck_marbles_and_both_first_movers() {
    let (mut passes, mut stuck_endings, mut black_first) = (0, 0, 0);
    for game in games() {
        passes += game.moves.iter().filter(|&&mv| mv == RefMove::Pass).count();
        let last = game.positions.last().expect("a game has a position");
        stuck_endings += usize::from(last.edge_count() > 0);
        black_first += usize::from(game.positions[0].to_move == Side::Black);
    }
    assert!(passes > 100, "only {passes} passes");
    assert!(
        stuck_endings > 100,
        "only {stuck_endings} games end with stuck marbles"
    );
    assert!(
        (2_000..=3_000).contains(&black_first),
        "{black_first} of {GAMES} games start with Black"
    );
}

#[test]
fn library_reprints_every_position_the_games_visit_identically() {
    let mut mismatches = Vec::new();
    'games: for (index, game) in games().iter().enumerate() {
        for pos in &game.positions {
            let text = pos.to_string();
            let reprinted = match text.parse::<Position>() {
                Ok(lib) => lib.to_string(),
                Err(e) => format!("error: {e}"),
            };
            let ref_reprinted = RefPosition::parse(&text).map(|p| p.to_string());
            if reprinted != text || ref_reprinted.as_ref() != Ok(&text) {
                mismatches.push(format!(
                    "game {index}: {text}\n  library reprints {reprinted}\n  reference {ref_reprinted:?}"
                ));
                if mismatches.len() == MAX_REPORTED {
                    break 'games;
                }
            }
        }
    }
    assert_no_mismatches("position strings", &mismatches);
}

/// Every `<square>-<square>` text on the board, and `pass`.
fn every_move_text() -> Vec<String> {
    let squares: Vec<String> = (0..8)
        .flat_map(|rank| (0..8).map(move |file| reference::Sq::new(file, rank).to_string()))
        .collect();
    let mut texts = vec!["pass".to_string()];
    for from in &squares {
        for to in &squares {
            texts.push(format!("{from}-{to}"));
        }
    }
    texts
}

#[test]
fn library_plays_exactly_the_moves_the_reference_allows_in_20_games() {
    let texts = every_move_text();
    let mut mismatches = Vec::new();
    'games: for (index, game) in games().iter().enumerate().take(20) {
        for pos in &game.positions {
            let Ok(library) = pos.to_string().parse::<Position>() else {
                mismatches.push(format!("game {index}: the library rejects {pos}"));
                continue;
            };
            let legal = pos.legal_moves();
            for text in &texts {
                let reference_move = RefMove::parse(text).ok().filter(|mv| legal.contains(mv));
                let played = text.parse::<Move>().ok().map(|mv| library.play(mv));
                let verdict = match (reference_move, played) {
                    (Some(mv), Some(Ok(next))) if next.to_string() == pos.apply(mv).to_string() => {
                        continue;
                    }
                    (None, None | Some(Err(_))) => continue,
                    (Some(mv), Some(Ok(next))) => {
                        format!("library gives {next}, reference {}", pos.apply(mv))
                    }
                    (Some(_), Some(Err(e))) => format!("legal, but the library refuses: {e}"),
                    (Some(_), None) => "legal, but the library cannot read it".to_string(),
                    (None, Some(Ok(next))) => format!("illegal, but the library plays it: {next}"),
                };
                mismatches.push(format!(
                    "game {index}, position {pos}, move {text}: {verdict}"
                ));
                if mismatches.len() == MAX_REPORTED {
                    break 'games;
                }
            }
        }
    }
    assert_no_mismatches("playing every move text", &mismatches);
}

#[test]
fn library_deals_exactly_the_setups_the_reference_accepts() {
    let reference: BTreeSet<String> = reference::all_valid_rings()
        .iter()
        .map(|ring| reference::setup_from_ring(ring, Side::Black).to_string())
        .collect();
    assert_eq!(
        reference.len(),
        40_158,
        "RULES.md section 2 counts 40,158 setups"
    );
    let library: BTreeSet<String> = mabula::deal::all(Color::Black)
        .iter()
        .map(Position::to_string)
        .collect();
    let missing: Vec<&String> = reference.difference(&library).take(5).collect();
    let extra: Vec<&String> = library.difference(&reference).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "library deals {} setups; missing (first 5) {missing:?}; extra (first 5) {extra:?}",
        library.len()
    );
}

#[test]
fn library_random_setups_keep_the_ring_constraint() {
    for seed in 0..500 {
        let first = if seed % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let text = mabula::deal::random(seed, first).to_string();
        let pos = RefPosition::parse(&text)
            .unwrap_or_else(|e| panic!("seed {seed}: the reference rejects {text}: {e}"));
        let ring = reference::ring_colours(&pos)
            .unwrap_or_else(|| panic!("seed {seed}: {text} leaves an edge space empty"));
        assert!(
            reference::ring_is_valid(&ring),
            "seed {seed}: {text} breaks the ring rule"
        );
        assert_eq!(
            pos.edge_count(),
            24,
            "seed {seed}: {text} has marbles in the field"
        );
        assert_eq!(
            colour(pos.to_move),
            first,
            "seed {seed}: {text} has the wrong side to move"
        );
    }
}

#[test]
fn reference_random_setups_keep_the_ring_constraint_and_vary() {
    let mut rng = SplitMix64::new(SEED);
    let mut seen = BTreeSet::new();
    for _ in 0..1_000 {
        let pos = reference::random_setup(&mut rng, Side::White);
        let ring = reference::ring_colours(&pos).expect("a setup fills the ring");
        assert!(
            reference::ring_is_valid(&ring),
            "{pos} breaks the ring rule"
        );
        assert_eq!(pos.count(Side::White), 12);
        assert_eq!(pos.count(Side::Black), 12);
        seen.insert(pos.to_string());
    }
    assert!(
        seen.len() > 980,
        "only {} distinct setups in 1,000",
        seen.len()
    );
}

#[test]
fn reference_sorts_legal_moves_by_their_notation() {
    for game in games().iter().take(200) {
        for pos in &game.positions {
            let in_order: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(in_order, pos.legal_move_strings(), "in {pos}");
        }
    }
}

#[test]
fn the_ring_constraint_runs_across_the_corners() {
    // Pairs around the ring from b1 to a2, valid even across a1.
    let pairs = "wbbwwbbwwbbwwbbwwbbwwbbw";
    let mut ring = [Side::White; 24];
    for (slot, letter) in ring.iter_mut().zip(pairs.chars()) {
        if letter == 'b' {
            *slot = Side::Black;
        }
    }
    assert!(reference::ring_is_valid(&ring));
    let valid: Position = reference::setup_from_ring(&ring, Side::White)
        .to_string()
        .parse()
        .expect("a full ring is a position");
    assert!(
        mabula::deal::check(&valid).is_ok(),
        "the library refuses {valid}"
    );
    // Swap c1 (black) and e1 (white): a2 b1 c1 are now white, three in a row only across a1.
    ring.swap(1, 3);
    assert!(!reference::ring_is_valid(&ring));
    let text = reference::setup_from_ring(&ring, Side::White).to_string();
    let invalid: Position = text.parse().expect("a broken ring is still a position");
    assert!(
        mabula::deal::check(&invalid).is_err(),
        "the library accepts {text} as a deal"
    );
}

#[test]
fn both_follow_the_worked_line_of_section_3() {
    // White pushes from b1 up the b-file into `. b . w . .`.
    let start = "8/8/8/1w6/8/1b6/8/1w6 w";
    let expected = [
        ("b1-b2", "8/8/8/1w6/8/1b6/1w6/8 b"),
        ("b1-b3", "8/8/8/1w6/1b6/1w6/8/8 b"),
        ("b1-b4", "8/8/1w6/1b6/1w6/8/8/8 b"),
        ("b1-b5", "8/1w6/1b6/1w6/8/8/8/8 b"),
    ];
    let reference = RefPosition::parse(start).expect("test position");
    let library: Position = start.parse().expect("test position");
    let moves: Vec<&str> = expected.iter().map(|(mv, _)| *mv).collect();
    assert_eq!(
        reference.legal_move_strings(),
        moves,
        "d = 5 would push w onto b8"
    );
    assert_eq!(library_moves(&library), moves);
    for (mv, after) in expected {
        let ref_mv = RefMove::parse(mv).expect("test move");
        assert_eq!(
            reference.apply(ref_mv).to_string(),
            after,
            "reference after {mv}"
        );
        let lib_mv: Move = mv.parse().expect("test move");
        let next = library.play(lib_mv).expect("legal");
        assert_eq!(next.to_string(), after, "library after {mv}");
    }
}

#[test]
fn both_score_the_rule_book_example() {
    // Black's groups are 6, 3, 2, 1 and White's 8, 2, 1, 1 (RULES.md section 5).
    let text = "8/1wwww1b1/1w1bb1b1/1www1bb1/5bb1/1bbb1w2/1w1ww1b1/8 w";
    let reference = RefPosition::parse(text).expect("test position");
    let mut white = reference.groups(Side::White);
    let mut black = reference.groups(Side::Black);
    white.sort_unstable();
    black.sort_unstable();
    assert_eq!((white, black), (vec![1, 1, 2, 8], vec![1, 2, 3, 6]));
    assert_eq!(reference.largest_score(Side::White), 8);
    assert_eq!(reference.largest_score(Side::Black), 6);
    assert_eq!(reference.product_score(Side::White), 16);
    assert_eq!(reference.product_score(Side::Black), 36);
    let library: Position = text.parse().expect("test position");
    let largest = library.scores(Scoring::Largest);
    let product = library.scores(Scoring::Product);
    assert_eq!((largest.white, largest.black), (8, 6));
    assert_eq!((product.white, product.black), (16, 36));
}

#[test]
fn both_score_zero_without_marbles_in_the_field() {
    let text = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w";
    let reference = RefPosition::parse(text).expect("test position");
    let library: Position = text.parse().expect("test position");
    for scoring in [Scoring::Largest, Scoring::Product] {
        let scores = library.scores(scoring);
        assert_eq!((scores.white, scores.black), (0, 0), "{scoring:?}");
    }
    assert_eq!(reference.largest_score(Side::White), 0);
    assert_eq!(reference.product_score(Side::Black), 0);
}

#[test]
fn both_reject_the_same_malformed_position_strings() {
    let bad = [
        ("", "empty"),
        ("1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w w", "seven ranks"),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1/8 w",
            "nine ranks",
        ),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb2 w",
            "nine squares",
        ),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb w",
            "seven squares",
        ),
        (
            "wwbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w",
            "marble on a8",
        ),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwbb w",
            "marble on h1",
        ),
        (
            "1wwwwww1/w6w/w6w/w6w/w6b/b6b/b6b/1bbbbbb1 w",
            "13 white marbles",
        ),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbxbwb1 w",
            "unknown character",
        ),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1",
            "missing side to move",
        ),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 x",
            "wrong side to move",
        ),
        (
            "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 ",
            "empty side to move",
        ),
    ];
    for (text, why) in bad {
        assert!(
            RefPosition::parse(text).is_err(),
            "reference accepts {why}: {text:?}"
        );
        assert!(
            text.parse::<Position>().is_err(),
            "library accepts {why}: {text:?}"
        );
    }
    // Still positions: few marbles, a broken ring, marbles left in the field.
    let good = [
        "8/8/8/8/8/8/8/8 w",
        "1wwbbww1/8/8/3b4/8/8/8/8 b",
        "8/1wb5/8/8/8/8/8/3w4 w",
    ];
    for text in good {
        let reference = RefPosition::parse(text).map(|p| p.to_string());
        let library = text.parse::<Position>().map(|p| p.to_string());
        assert_eq!(reference.as_deref(), Ok(text), "reference");
        assert_eq!(
            library.as_deref().map_err(ToString::to_string),
            Ok(text),
            "library"
        );
    }
}

#[test]
fn both_read_move_notation_in_any_case_with_spaces() {
    for (text, canonical) in [
        ("b1-b4", "b1-b4"),
        (" B1-B4 ", "b1-b4"),
        ("H5-c5", "h5-c5"),
        ("e8-e7", "e8-e7"),
        ("PASS", "pass"),
        (" pass", "pass"),
    ] {
        let reference = RefMove::parse(text).map(|mv| mv.to_string());
        assert_eq!(
            reference.as_deref(),
            Ok(canonical),
            "reference reads {text:?}"
        );
        let library = text.parse::<Move>().map(|mv| mv.to_string());
        assert_eq!(
            library.as_deref().map_err(ToString::to_string),
            Ok(canonical),
            "library reads {text:?}"
        );
    }
    assert_eq!(Move::PASS.to_string(), "pass");
    for text in [
        "", "b1", "b1b4", "b1-", "i1-i4", "b1-b9", "b1--b4", "b1-b4x", "passe",
    ] {
        assert!(RefMove::parse(text).is_err(), "reference reads {text:?}");
        assert!(text.parse::<Move>().is_err(), "library reads {text:?}");
    }
}
