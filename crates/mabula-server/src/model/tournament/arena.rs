//! Pairing an arena: whoever is waiting is paired at once with someone near in points, colours
//! balanced, not the last opponent again when another is free.
//!
//! The waiting players (but the last to begin waiting, with an odd number) are sorted by arena
//! points, then rating, then key, and paired neighbour with neighbour: the highest with the
//! next one who was not their immediate previous opponent (nor had them as theirs), and so on
//! down, backtracking when the last ones would meet again; only when no such pairing exists is
//! a rematch allowed. Colours: the player who has had White more often gets Black; if equal,
//! the one who had White last; if that is equal too, the higher player gets White.

use std::collections::HashMap;

use mabula::Color;

use super::score::arena_points;
use super::{Entrant, Pairing};

/// How many search steps one call may take before rematches are allowed.
const BUDGET: u64 = 100_000;

/// Pairs `waiting` (keys of entrants who have not withdrawn and play in no undecided pairing,
/// in the order they began waiting), given every pairing so far: `(white, black)` pairs; with
/// an odd number one waits (the one who began waiting last). Deterministic.
pub fn pair_waiting(
    waiting: &[String],
    entrants: &[Entrant],
    pairings: &[Pairing],
) -> Vec<(String, String)> {
    let mut keys: Vec<&str> = Vec::with_capacity(waiting.len());
    for k in waiting {
        if !keys.contains(&k.as_str()) {
            keys.push(k);
        }
    }
    if keys.len() % 2 == 1 {
        keys.pop();
    }
    if keys.is_empty() {
        return Vec::new();
    }
    let ratings: HashMap<&str, i32> = entrants
        .iter()
        .map(|e| (e.key.as_str(), e.rating))
        .collect();
    let mut ordered = pairings.iter().collect::<Vec<_>>();
    ordered.sort_by_key(|p| p.round);

    struct Player<'k> {
        key: &'k str,
        points: f64,
        rating: i32,
        whites: u32,
        last_color: Option<Color>,
        last_opponent: Option<&'k str>,
    }
    let mut players: Vec<Player> = keys
        .iter()
        .map(|&key| {
            let own: Vec<&Pairing> = ordered.iter().copied().filter(|p| p.has(key)).collect();
            let (points, _) = arena_points(key, &own);
            let played: Vec<&&Pairing> = own.iter().filter(|p| p.black.is_some()).collect();
            let last = played.last();
            Player {
                key,
                points,
                rating: ratings.get(key).copied().unwrap_or(0),
                whites: played.iter().filter(|p| p.white == key).count() as u32,
                last_color: last.map(|p| {
                    if p.white == key {
                        Color::White
                    } else {
                        Color::Black
                    }
                }),
                last_opponent: last
                    .and_then(|p| p.opponent_of(key))
                    .and_then(|o| keys.iter().copied().find(|&k| k == o)),
            }
        })
        .collect();
    players.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then_with(|| a.key.cmp(b.key))
    });
    let n = players.len();
    let rematch = |a: usize, b: usize| {
        players[a].last_opponent == Some(players[b].key)
            || players[b].last_opponent == Some(players[a].key)
    };

    let mut budget = BUDGET;
    let mut pairs = Vec::with_capacity(n / 2);
    if !extend((0..n).collect(), &rematch, &mut budget, &mut pairs) {
        // Only rematches are left: nearest neighbours, those who did not just meet first.
        pairs.clear();
        let mut unpaired: Vec<usize> = (0..n).collect();
        while let Some((&p, rest)) = unpaired.split_first() {
            let q = rest
                .iter()
                .copied()
                .find(|&q| !rematch(p, q))
                .unwrap_or(rest[0]);
            pairs.push((p, q));
            unpaired.retain(|&r| r != p && r != q);
        }
    }

    pairs
        .into_iter()
        .map(|(a, b)| {
            let (pa, pb) = (&players[a], &players[b]);
            let a_white = if pa.whites != pb.whites {
                pa.whites < pb.whites
            } else if pa.last_color != pb.last_color
                && (pa.last_color == Some(Color::White) || pb.last_color == Some(Color::White))
            {
                pb.last_color == Some(Color::White)
            } else {
                true
            };
            if a_white {
                (pa.key.to_owned(), pb.key.to_owned())
            } else {
                (pb.key.to_owned(), pa.key.to_owned())
            }
        })
        .collect()
}

/// Pairs the `unpaired` (sorted, best first) neighbour with neighbour avoiding `rematch`,
/// backtracking; false when impossible or out of steps.
fn extend(
    unpaired: Vec<usize>,
    rematch: &dyn Fn(usize, usize) -> bool,
    budget: &mut u64,
    out: &mut Vec<(usize, usize)>,
) -> bool {
    let Some((&p, rest)) = unpaired.split_first() else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    for &q in rest {
        if rematch(p, q) {
            continue;
        }
        let next: Vec<usize> = rest.iter().copied().filter(|&r| r != q).collect();
        out.push((p, q));
        if extend(next, rematch, budget, out) {
            return true;
        }
        out.pop();
        if *budget == 0 {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use mabula::GameResult::{self, BlackWins, Draw, WhiteWins};

    use super::super::GameOutcome;
    use super::*;

    fn entrants(list: &[(&str, i32)]) -> Vec<Entrant> {
        list.iter()
            .map(|&(key, rating)| Entrant {
                key: key.into(),
                rating,
                withdrawn: false,
            })
            .collect()
    }

    fn game(round: u32, white: &str, black: &str, result: GameResult) -> Pairing {
        Pairing {
            round,
            white: white.into(),
            black: Some(black.into()),
            games: vec![GameOutcome {
                result,
                margin: None,
                no_show: None,
                called_off: false,
            }],
            duplicate: false,
        }
    }

    fn keys(list: &[&str]) -> Vec<String> {
        list.iter().map(|k| k.to_string()).collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|&(w, b)| (w.to_owned(), b.to_owned()))
            .collect()
    }

    #[test]
    fn players_near_in_points_meet_and_the_last_to_come_waits() {
        // Points: Ann 2 (beat Cat), Dan 2 (beat Ben), Ben 0, Cat 0; Eve came last.
        let field = entrants(&[
            ("ann", 1500),
            ("ben", 1700),
            ("cat", 1600),
            ("dan", 1400),
            ("eve", 2000),
        ]);
        let history = vec![
            game(1, "ann", "cat", WhiteWins),
            game(1, "ben", "dan", BlackWins),
        ];
        // Eve, the fifth to wait, waits. Sorted: Ann (2, 1500), Dan (2, 1400), Ben (0, 1700),
        // Cat (0, 1600). Ann-Dan, Ben-Cat. Colours: Ann had White once, Dan Black once:
        // Dan White. Ben had White, Cat Black: Cat White.
        let waiting = keys(&["cat", "ann", "dan", "ben", "eve"]);
        assert_eq!(
            pair_waiting(&waiting, &field, &history),
            pairs(&[("dan", "ann"), ("cat", "ben")])
        );
    }

    #[test]
    fn the_previous_opponent_is_avoided_when_someone_else_is_waiting() {
        let field = entrants(&[("ann", 1500), ("ben", 1500), ("cat", 1500), ("dan", 1500)]);
        // Ann and Ben drew (1 each) and come back first; Cat and Dan drew too.
        let history = vec![game(1, "ann", "ben", Draw), game(1, "cat", "dan", Draw)];
        // All on 1 point and 1500: sorted by key, Ann, Ben, Cat, Dan. Ann-Ben would be a
        // rematch, so Ann-Cat and Ben-Dan. Colours: Ann and Cat both had White once and last:
        // the higher, Ann, White. Ben and Dan had Black: Ben White.
        let waiting = keys(&["ann", "ben", "cat", "dan"]);
        assert_eq!(
            pair_waiting(&waiting, &field, &history),
            pairs(&[("ann", "cat"), ("ben", "dan")])
        );
        // With only the two of them waiting, they meet again (colours: Ann had White).
        assert_eq!(
            pair_waiting(&keys(&["ann", "ben"]), &field, &history),
            pairs(&[("ben", "ann")])
        );
    }

    #[test]
    fn the_player_who_had_white_more_often_gets_black() {
        let field = entrants(&[("ann", 1500), ("ben", 1500), ("cat", 1400)]);
        // Ann: White, White, Black (White twice). Ben: Black, Black, White (White once).
        let history = vec![
            game(1, "ann", "cat", Draw),
            game(2, "ann", "cat", Draw),
            game(3, "cat", "ann", Draw),
            game(1, "cat", "ben", Draw),
            game(2, "cat", "ben", Draw),
            game(3, "ben", "cat", Draw),
        ];
        assert_eq!(
            pair_waiting(&keys(&["ann", "ben"]), &field, &history),
            pairs(&[("ben", "ann")])
        );
        // Equal counts: the one who had White last gets Black.
        let history = vec![
            game(1, "cat", "ann", Draw),
            game(2, "ann", "cat", Draw),
            game(1, "ben", "cat", Draw),
            game(2, "cat", "ben", Draw),
        ];
        assert_eq!(
            pair_waiting(&keys(&["ann", "ben"]), &field, &history),
            pairs(&[("ben", "ann")])
        );
    }

    #[test]
    fn the_same_waiting_players_in_any_order_give_the_same_pairs_but_who_waits() {
        let field = entrants(&[("ann", 1500), ("ben", 1600), ("cat", 1700), ("dan", 1800)]);
        let a = pair_waiting(&keys(&["ann", "ben", "cat", "dan"]), &field, &[]);
        let b = pair_waiting(&keys(&["dan", "cat", "ben", "ann"]), &field, &[]);
        assert_eq!(a, b);
        // Nobody has played: neighbours in rating, the higher White.
        assert_eq!(a, pairs(&[("dan", "cat"), ("ben", "ann")]));
        assert!(pair_waiting(&keys(&["ann"]), &field, &[]).is_empty());
    }

    /// Whether `players` can all be paired with no pair in `avoid`.
    fn matchable(players: &[usize], avoid: &dyn Fn(usize, usize) -> bool) -> bool {
        let Some((&p, rest)) = players.split_first() else {
            return true;
        };
        rest.iter().any(|&q| {
            !avoid(p, q) && {
                let others: Vec<usize> = rest.iter().copied().filter(|&r| r != q).collect();
                matchable(&others, avoid)
            }
        })
    }

    proptest::proptest! {
        #[test]
        fn random_arenas_pair_every_waiting_player_once_avoiding_needless_rematches(
            n in 2usize..=8,
            waves in proptest::collection::vec(proptest::collection::vec(0usize..8, 2), 0..12),
            results in proptest::collection::vec(0usize..3, 12),
            waiting_mask in proptest::collection::vec(proptest::bool::ANY, 8),
        ) {
            let field: Vec<Entrant> = (0..n)
                .map(|i| Entrant { key: format!("p{i}"), rating: 1500 + 100 * (i as i32 % 3), withdrawn: false })
                .collect();
            let outcomes = [WhiteWins, BlackWins, Draw];
            let history: Vec<Pairing> = waves
                .iter()
                .zip(&results)
                .enumerate()
                .filter(|(_, (w, _))| w[0] % n != w[1] % n)
                .map(|(i, (w, &r))| game(i as u32 + 1, &field[w[0] % n].key, &field[w[1] % n].key, outcomes[r]))
                .collect();
            let waiting: Vec<String> = (0..n).filter(|&i| waiting_mask[i]).map(|i| field[i].key.clone()).collect();
            let got = pair_waiting(&waiting, &field, &history);

            // Everyone waiting is paired once, but the last with an odd number.
            let mut seen: Vec<String> = got.iter().flat_map(|(w, b)| [w.clone(), b.clone()]).collect();
            seen.sort();
            let mut expected = waiting.clone();
            if expected.len() % 2 == 1 {
                expected.pop();
            }
            expected.sort();
            proptest::prop_assert_eq!(&seen, &expected);

            // No rematch of an immediate previous opponent when a pairing without one exists.
            let last_opponent = |k: &str| {
                history.iter().rev().find(|p| p.has(k)).and_then(|p| p.opponent_of(k)).map(str::to_owned)
            };
            let rematch = |a: &str, b: &str| {
                last_opponent(a).as_deref() == Some(b) || last_opponent(b).as_deref() == Some(a)
            };
            let rematches = got.iter().filter(|(w, b)| rematch(w, b)).count();
            let idx: Vec<usize> = (0..expected.len()).collect();
            if matchable(&idx, &|i, j| rematch(&expected[i], &expected[j])) {
                proptest::prop_assert_eq!(rematches, 0, "{:?}", got);
            }

            // The order of the history does not matter (waves are numbered).
            let mut reversed = history.clone();
            reversed.reverse();
            let mut field2 = field.clone();
            field2.reverse();
            proptest::prop_assert_eq!(pair_waiting(&waiting, &field2, &reversed), got);
        }
    }
}
