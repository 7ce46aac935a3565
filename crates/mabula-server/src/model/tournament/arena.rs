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
