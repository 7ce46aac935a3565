//! Property tests of the invariants that every game keeps, whatever is played.

use mabula::{Bitboard, Color, Game, Position, Scoring, Symmetry, deal};
use proptest::prelude::*;

/// A game from a seeded deal, following `choices` (each picks among the legal moves) to its end
/// or until the choices run out; returns every position, the start first.
fn play_out(seed: u64, first: Color, choices: &[u32]) -> Vec<Position> {
    let mut pos = deal::random(seed, first);
    let mut out = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos
            .play(moves[c as usize % moves.len()])
            .expect("listed moves are legal");
        out.push(pos);
    }
    out
}

fn first() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_position_holds_twelve_marbles_of_each_colour_and_none_on_a_corner(
        seed in any::<u64>(), first in first(), choices in prop::collection::vec(any::<u32>(), 0..60)
    ) {
        for pos in play_out(seed, first, &choices) {
            prop_assert_eq!(pos.white().count(), 12);
            prop_assert_eq!(pos.black().count(), 12);
            prop_assert!((pos.occupied() & Bitboard::CORNERS).is_empty());
            prop_assert!((pos.white() & pos.black()).is_empty());
        }
    }

    #[test]
    fn a_push_takes_exactly_its_own_marble_off_the_edge_and_puts_none_on_it(
        seed in any::<u64>(), first in first(), choices in prop::collection::vec(any::<u32>(), 0..60)
    ) {
        let mut pos = deal::random(seed, first);
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            let mv = moves[c as usize % moves.len()];
            let next = pos.play(mv).expect("legal");
            let before = pos.occupied() & Bitboard::EDGE;
            let after = next.occupied() & Bitboard::EDGE;
            match mv.from() {
                Some(from) => {
                    prop_assert_eq!(after, before.without(from), "{} in {}", mv, pos);
                    prop_assert_eq!(next.color_at(mv.to().expect("a push stops")), Some(pos.side_to_move()));
                }
                None => prop_assert_eq!(after, before),
            }
            // Marbles on the edge never move except the pushed one.
            prop_assert_eq!(next.white() & after, pos.white() & after);
            prop_assert_eq!(next.side_to_move(), pos.side_to_move().other());
            pos = next;
        }
    }

    #[test]
    fn a_game_has_at_most_24_pushes_and_ends_when_neither_side_can_move(
        seed in any::<u64>(), first in first(), choices in prop::collection::vec(any::<u32>(), 80)
    ) {
        let positions = play_out(seed, first, &choices);
        let last = positions.last().expect("a start");
        prop_assert!(last.is_game_over(), "80 choices finish any game");
        let pushes = positions.windows(2).filter(|w| w[0].side_to_move() != w[1].side_to_move()
            && w[0].occupied() != w[1].occupied()).count();
        prop_assert!(pushes <= 24);
        prop_assert!(last.legal_moves().is_empty());
        prop_assert!(last.outcome(Scoring::Largest).is_some());
    }

    #[test]
    fn position_strings_and_hashes_survive_a_round_trip(
        seed in any::<u64>(), first in first(), choices in prop::collection::vec(any::<u32>(), 0..40)
    ) {
        for pos in play_out(seed, first, &choices) {
            let again: Position = pos.to_string().parse().expect("printed positions read back");
            prop_assert_eq!(again, pos);
            prop_assert_eq!(again.hash(), pos.hash());
        }
    }

    #[test]
    fn records_survive_a_round_trip(
        seed in any::<u64>(), first in first(), product in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..60)
    ) {
        let scoring = if product { Scoring::Product } else { Scoring::Largest };
        let mut game = Game::new(deal::random(seed, first), scoring);
        game.set_tag("Event", "property test");
        for (i, c) in choices.iter().enumerate() {
            let moves = game.position().legal_moves();
            if moves.is_empty() { break; }
            game.play(moves[*c as usize % moves.len()]).expect("legal");
            if c % 5 == 0 { game.set_comment(i, "a note"); }
        }
        let text = game.to_string();
        prop_assert_eq!(Game::parse(&text), Ok(game), "{}", text);
    }

    #[test]
    fn symmetric_positions_have_symmetric_moves_and_equal_scores(
        seed in any::<u64>(), choices in prop::collection::vec(any::<u32>(), 0..30), s in 0..8usize
    ) {
        let sym = Symmetry::ALL[s];
        let pos = *play_out(seed, Color::White, &choices).last().expect("a start");
        let image = sym.position(&pos);
        let mut mapped: Vec<_> = pos.legal_moves().iter().map(|&m| sym.apply_move(m)).collect();
        mapped.sort();
        let mut moves = image.legal_moves().to_vec();
        moves.sort();
        prop_assert_eq!(mapped, moves);
        for scoring in [Scoring::Largest, Scoring::Product] {
            prop_assert_eq!(image.scores(scoring), pos.scores(scoring));
        }
        prop_assert_eq!(image.canonical().0, pos.canonical().0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn comparing_a_score_agrees_with_computing_it(
        a in any::<u64>(), b in any::<u64>(), score in 0..40u32
    ) {
        // Half and quarter full boards: big groups and small ones.
        let marbles = Bitboard(if score % 2 == 0 { a } else { a & b });
        for scoring in [Scoring::Largest, Scoring::Product] {
            prop_assert_eq!(
                scoring.compare_score(marbles, score),
                scoring.score_of(marbles).cmp(&score),
                "{:?} {:#x}", scoring, marbles.0
            );
        }
    }
}
