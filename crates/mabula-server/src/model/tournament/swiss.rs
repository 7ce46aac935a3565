//! Pairing a Swiss round: players with equal points meet, nobody meets the same opponent twice,
//! a bye for an odd player (the lowest who has not had one).
//!
//! The players who have not withdrawn are ranked by points, then rating, then key. The bye, with
//! an odd number, goes to the lowest-ranked player who has had the fewest byes. The others are
//! paired by the first of these searches that succeeds:
//!
//! 1. **Within score groups**: from the top group down, each group is paired top half against
//!    bottom half (1st against the 1st of the bottom half, and so on; other orders are tried
//!    when that would repeat a game), an odd group floats its lowest player that leaves a
//!    pairing possible down into the next group, where they meet its highest player they have
//!    not met.
//! 2. **Across groups**: the highest unpaired player meets, in this order of preference, the
//!    players of their own score group (top half against bottom half), then the lower players
//!    nearest in rank; never someone they have met.
//! 3. **With a repeat**: only when no pairing without a repeat exists at all, the same order
//!    allowing opponents met before (those not met still first).
//!
//! Searches 1 and 2 are tried for each bye candidate in turn (the lowest-ranked without a bye
//! first, so the bye moves up only when nobody below can be left out without a repeat), before
//! anyone gets a second bye. The searches backtrack over a bounded number of steps, so
//! a pathological history cannot stall the server: past the bound they give up and the next
//! search is tried (search 3 never backtracks, so it always finishes).

use std::collections::HashSet;

use mabula::Color;

use super::standings::swiss_totals;
use super::{Entrant, Pairing};

/// How many search steps one round's pairing may take before falling back to search 3.
const BUDGET: u64 = 200_000;

/// The pairings of round `round` (from 1) among the entrants who have not withdrawn, given the
/// pairings of the rounds before: `(white, black)`, `black` `None` for the bye, by board (best
/// first). Deterministic: the same arguments give the same pairings on every instance. In a
/// single-game tournament (`duplicate` false) colours alternate: White goes to the player who
/// has had White less often, then to the one who had Black last. In a duplicate tournament
/// the same rule chooses who plays White in the first game. Pairings of round `round` or later
/// in `pairings` are ignored.
pub fn pair_round(
    entrants: &[Entrant],
    pairings: &[Pairing],
    round: u32,
    duplicate: bool,
) -> Vec<(String, Option<String>)> {
    let _ = duplicate; // Both modes allocate colours alike (see above).
    let mut before: Vec<&Pairing> = pairings.iter().filter(|p| p.round < round).collect();
    before.sort_by_key(|p| p.round);
    let owned: Vec<Pairing> = before.iter().map(|p| (*p).clone()).collect();
    let totals = swiss_totals(entrants, &owned);

    // Rank the players: points, rating, key.
    let mut players: Vec<&Entrant> = entrants.iter().filter(|e| !e.withdrawn).collect();
    players.sort_by(|a, b| {
        totals[&b.key]
            .total_cmp(&totals[&a.key])
            .then(b.rating.cmp(&a.rating))
            .then_with(|| a.key.cmp(&b.key))
    });
    players.dedup_by(|a, b| a.key == b.key);
    let n = players.len();
    let index_of = |key: &str| players.iter().position(|e| e.key == key);
    let points: Vec<f64> = players.iter().map(|e| totals[&e.key]).collect();

    let mut met = HashSet::new();
    let mut byes = vec![0u32; n];
    let mut whites = vec![0u32; n];
    let mut last = vec![None; n];
    for p in &before {
        let Some(w) = index_of(&p.white) else {
            if let Some(b) = p.black.as_deref().and_then(index_of) {
                last[b] = Some(Color::Black);
            }
            continue;
        };
        match p.black.as_deref() {
            None => byes[w] += 1,
            Some(black) => {
                whites[w] += 1;
                last[w] = Some(Color::White);
                if let Some(b) = index_of(black) {
                    last[b] = Some(Color::Black);
                    met.insert((w.min(b), w.max(b)));
                }
            }
        }
    }

    let mut search = Search {
        points: &points,
        met: &met,
        budget: BUDGET,
    };
    let (pairs, bye) = search.round(n, &byes);

    let mut pairs: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    pairs.sort_unstable();
    let mut out: Vec<(String, Option<String>)> = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| {
            let a_white = if whites[a] != whites[b] {
                whites[a] < whites[b]
            } else if last[a] != last[b]
                && (last[a] == Some(Color::Black) || last[b] == Some(Color::Black))
            {
                last[a] == Some(Color::Black)
            } else {
                board % 2 == 0
            };
            let (w, b) = if a_white { (a, b) } else { (b, a) };
            (players[w].key.clone(), Some(players[b].key.clone()))
        })
        .collect();
    if let Some(b) = bye {
        out.push((players[b].key.clone(), None));
    }
    out
}

/// The pairing search over players by rank index (0 the highest).
pub(super) struct Search<'a> {
    /// Each player's points, by rank.
    points: &'a [f64],
    /// Pairs (lower index first) who have met.
    met: &'a HashSet<(usize, usize)>,
    /// Steps left before the backtracking searches give up.
    budget: u64,
}

impl Search<'_> {
    /// Whether `a` and `b` have met.
    fn met(&self, a: usize, b: usize) -> bool {
        self.met.contains(&(a.min(b), a.max(b)))
    }

    /// The pairs and the bye of a round of `n` players.
    fn round(&mut self, n: usize, byes: &[u32]) -> (Vec<(usize, usize)>, Option<usize>) {
        let everyone: Vec<usize> = (0..n).collect();
        if n % 2 == 0 {
            if let Some(pairs) = self.by_groups_all(&everyone) {
                return (pairs, None);
            }
            if let Some(pairs) = self.matching(&everyone, false) {
                return (pairs, None);
            }
            let pairs = self.repeats(&everyone);
            return (pairs, None);
        }
        // Bye candidates: fewest byes first, then the lowest-ranked.
        let mut candidates: Vec<usize> = (0..n).rev().collect();
        candidates.sort_by_key(|&i| byes[i]);
        let without = |c: usize| -> Vec<usize> { (0..n).filter(|&i| i != c).collect() };
        let mut start = 0;
        while start < candidates.len() {
            let tier = byes[candidates[start]];
            let end = start
                + candidates[start..]
                    .iter()
                    .take_while(|&&c| byes[c] == tier)
                    .count();
            for &c in &candidates[start..end] {
                let others = without(c);
                if let Some(pairs) = self.by_groups_all(&others) {
                    return (pairs, Some(c));
                }
                if let Some(pairs) = self.matching(&others, false) {
                    return (pairs, Some(c));
                }
            }
            start = end;
        }
        let c = candidates[0];
        (self.repeats(&without(c)), Some(c))
    }

    /// Search 1 over `players` (by rank): within score groups, odd players floating down.
    fn by_groups_all(&mut self, players: &[usize]) -> Option<Vec<(usize, usize)>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &p in players {
            match groups.last_mut() {
                Some(g) if self.points[g[0]] == self.points[p] => g.push(p),
                _ => groups.push(vec![p]),
            }
        }
        let mut out = Vec::new();
        self.by_groups(&groups, None, &mut out).then_some(out)
    }

    /// Pairs `groups` from the first, with `floater` come down from the group above.
    fn by_groups(
        &mut self,
        groups: &[Vec<usize>],
        floater: Option<usize>,
        out: &mut Vec<(usize, usize)>,
    ) -> bool {
        let Some((first, later)) = groups.split_first() else {
            return floater.is_none();
        };
        let list: Vec<usize> = floater.into_iter().chain(first.iter().copied()).collect();
        if list.len() % 2 == 0 {
            // The later groups do not depend on how this one is paired.
            let Some(pairs) = self.matching(&list, false) else {
                return false;
            };
            if !self.by_groups(later, None, out) {
                return false;
            }
            out.extend(pairs);
            return true;
        }
        if later.is_empty() {
            return false;
        }
        for &down in list.iter().rev() {
            let rest: Vec<usize> = list.iter().copied().filter(|&p| p != down).collect();
            let Some(pairs) = self.matching(&rest, false) else {
                continue;
            };
            if self.by_groups(later, Some(down), out) {
                out.extend(pairs);
                return true;
            }
            if self.budget == 0 {
                return false;
            }
        }
        false
    }

    /// Search 2 (or, with `repeats`, 3) over `players` (by rank, an even number).
    pub(super) fn matching(
        &mut self,
        players: &[usize],
        repeats: bool,
    ) -> Option<Vec<(usize, usize)>> {
        let mut out = Vec::with_capacity(players.len() / 2);
        self.extend(players.to_vec(), repeats, &mut out)
            .then_some(out)
    }

    /// Search 3: never fails and never backtracks.
    fn repeats(&mut self, players: &[usize]) -> Vec<(usize, usize)> {
        self.budget = u64::MAX;
        self.matching(players, true).unwrap_or_default()
    }

    /// Pairs the `unpaired` (by rank) onto `out`, backtracking; false when impossible (or out
    /// of steps).
    fn extend(
        &mut self,
        unpaired: Vec<usize>,
        repeats: bool,
        out: &mut Vec<(usize, usize)>,
    ) -> bool {
        let Some((&p, rest)) = unpaired.split_first() else {
            return true;
        };
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let mut order = self.preferences(p, rest);
        if repeats {
            order.sort_by_key(|&q| self.met(p, q));
        }
        for q in order {
            if !repeats && self.met(p, q) {
                continue;
            }
            let next: Vec<usize> = rest.iter().copied().filter(|&r| r != q).collect();
            out.push((p, q));
            if self.extend(next, repeats, out) {
                return true;
            }
            out.pop();
            if self.budget == 0 {
                return false;
            }
        }
        false
    }

    /// The opponents of `p`, the highest unpaired, in order of preference among `rest`: its
    /// score group top half against bottom half, then the others by rank.
    fn preferences(&self, p: usize, rest: &[usize]) -> Vec<usize> {
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&q| self.points[q] == self.points[p])
            .collect();
        // With p, the group has g = group.len() + 1 players; p's ideal opponent is the one at
        // g / 2 (counting p as 0), that is group[g / 2 - 1].
        let g = group.len() + 1;
        let mut order = Vec::with_capacity(rest.len());
        if !group.is_empty() {
            let ideal = g / 2 - 1;
            order.extend(group[ideal..].iter().copied());
            order.extend(group[..ideal].iter().rev().copied());
        }
        order.extend(
            rest.iter()
                .copied()
                .filter(|&q| self.points[q] != self.points[p]),
        );
        order
    }
}
