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
struct Search<'a> {
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
        if n.is_multiple_of(2) {
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
        if list.len().is_multiple_of(2) {
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
    fn matching(&mut self, players: &[usize], repeats: bool) -> Option<Vec<(usize, usize)>> {
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use mabula::GameResult::{self, BlackWins, Draw, WhiteWins};
    use proptest::prelude::*;

    use super::super::GameOutcome;
    use super::super::standings;
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

    fn game(result: GameResult, margin: i64) -> GameOutcome {
        GameOutcome {
            result,
            margin: Some(margin),
            no_show: None,
            called_off: false,
        }
    }

    /// A duplicate match: `white` is White of the first game (Black of the second).
    fn duplicate(round: u32, white: &str, black: &str, games: [GameOutcome; 2]) -> Pairing {
        Pairing {
            round,
            white: white.into(),
            black: Some(black.into()),
            games: games.to_vec(),
            duplicate: true,
        }
    }

    fn single(round: u32, white: &str, black: &str, result: GameResult) -> Pairing {
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

    fn bye(round: u32, key: &str, duplicate: bool) -> Pairing {
        Pairing {
            round,
            white: key.into(),
            black: None,
            games: vec![],
            duplicate,
        }
    }

    fn pairs(list: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
        list.iter()
            .map(|&(w, b)| (w.to_owned(), b.map(str::to_owned)))
            .collect()
    }

    #[test]
    fn a_worked_five_player_duplicate_swiss_over_three_rounds() {
        // Ann 2000, Ben 1900, Cat 1800, Dan 1700, Eve 1600.
        let field = entrants(&[
            ("ann", 2000),
            ("ben", 1900),
            ("cat", 1800),
            ("dan", 1700),
            ("eve", 1600),
        ]);
        let mut history = Vec::new();

        // Round 1: all on 0, ranked by rating. Five players: the bye to the lowest, Eve.
        // The rest top half against bottom half: Ann-Cat, Ben-Dan. Nobody has a colour yet:
        // board 1's higher player takes White, board 2's lower one (Dan).
        let r1 = pair_round(&field, &history, 1, true);
        assert_eq!(
            r1,
            pairs(&[("ann", Some("cat")), ("dan", Some("ben")), ("eve", None)])
        );
        // Ann wins both games against Cat; Dan and Ben win one each by 4: half each.
        history.push(duplicate(
            1,
            "ann",
            "cat",
            [game(WhiteWins, 3), game(BlackWins, -2)],
        ));
        history.push(duplicate(
            1,
            "dan",
            "ben",
            [game(WhiteWins, 4), game(WhiteWins, 4)],
        ));
        history.push(bye(1, "eve", true));

        // Points: Ann 1, Eve 1, Ben ½, Dan ½, Cat 0. Ranked: Ann, Eve (1600 < 2000 but equal
        // points), Ben, Dan, Cat. The bye goes to the lowest without one: Cat. Groups
        // {Ann, Eve} and {Ben, Dan}: Ben and Dan have met, so there is no pairing within the
        // groups; across groups, Ann's first choice Eve leaves Ben-Dan again, so Ann meets
        // Ben and Eve meets Dan. Colours: Ben has had White 0 times, Ann once: Ben White; Eve
        // 0, Dan once: Eve White.
        let r2 = pair_round(&field, &history, 2, true);
        assert_eq!(
            r2,
            pairs(&[("ben", Some("ann")), ("eve", Some("dan")), ("cat", None)])
        );
        // Ben wins game 1 by 1, Ann wins game 2 by 3: one each, Ann +3 - 1 = +2: Ann's match.
        // Dan wins both against Eve.
        history.push(duplicate(
            2,
            "ben",
            "ann",
            [game(WhiteWins, 1), game(WhiteWins, 3)],
        ));
        history.push(duplicate(
            2,
            "eve",
            "dan",
            [game(BlackWins, -2), game(WhiteWins, 2)],
        ));
        history.push(bye(2, "cat", true));

        // Points: Ann 2, Dan 1½, Cat 1, Eve 1, Ben ½. Ranked: Ann, Dan, Cat (1800), Eve
        // (1600), Ben. The bye to the lowest without one: Ben. Groups {Ann}, {Dan},
        // {Cat, Eve}: Ann floats down and meets Dan (they have not met), Cat meets Eve.
        // Colours: Ann and Dan have had White once each and Black last: board 1, the higher
        // player Ann takes White. Cat has had White 0 times, Eve once: Cat White.
        let r3 = pair_round(&field, &history, 3, true);
        assert_eq!(
            r3,
            pairs(&[("ann", Some("dan")), ("cat", Some("eve")), ("ben", None)])
        );
        // Ann and Dan draw both games; Eve wins both against Cat.
        history.push(duplicate(3, "ann", "dan", [game(Draw, 0), game(Draw, 0)]));
        history.push(duplicate(
            3,
            "cat",
            "eve",
            [game(BlackWins, -1), game(WhiteWins, 1)],
        ));
        history.push(bye(3, "ben", true));

        // Final points: Ann 2½, Dan 2, Eve 2, Ben 1½, Cat 1.
        // Buchholz (a bye counts as an opponent with the player's own points):
        //   Ann: Cat 1 + Ben 1½ + Dan 2 = 4½      SB: 1 + 1½ + ½·2       = 3½
        //   Dan: Ben 1½ + Eve 2 + Ann 2½ = 6       SB: ½·1½ + 2 + ½·2½    = 4
        //   Eve: bye 2 + Dan 2 + Cat 1 = 5         SB: 2 + 0 + 1          = 3
        //   Ben: Dan 2 + Ann 2½ + bye 1½ = 6       SB: ½·2 + 0 + 1½       = 2½
        //   Cat: Ann 2½ + bye 1 + Eve 2 = 5½       SB: 0 + 1 + 0          = 1
        // Dan is ahead of Eve on Buchholz.
        let table = standings::swiss(&field, &history);
        let got: Vec<(&str, f64, Vec<f64>, u32, u32)> = table
            .iter()
            .map(|s| {
                (
                    s.key.as_str(),
                    s.points,
                    s.tiebreaks.clone(),
                    s.played,
                    s.rank,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("ann", 2.5, vec![4.5, 3.5], 3, 1),
                ("dan", 2.0, vec![6.0, 4.0], 3, 2),
                ("eve", 2.0, vec![5.0, 3.0], 3, 3),
                ("ben", 1.5, vec![6.0, 2.5], 3, 4),
                ("cat", 1.0, vec![5.5, 1.0], 3, 5),
            ]
        );
    }

    #[test]
    fn single_games_alternate_colours() {
        // Four players, single games. Round 1: Ann-Cat (Ann White on board 1), Dan-Ben
        // (board 2: the lower player White).
        let field = entrants(&[("ann", 2000), ("ben", 1900), ("cat", 1800), ("dan", 1700)]);
        let mut history = Vec::new();
        let r1 = pair_round(&field, &history, 1, false);
        assert_eq!(r1, pairs(&[("ann", Some("cat")), ("dan", Some("ben"))]));
        history.push(single(1, "ann", "cat", WhiteWins));
        history.push(single(1, "dan", "ben", BlackWins));
        // Ann 1, Ben 1, Cat 0, Dan 0: Ann-Ben and Cat-Dan. Ann had White, Ben Black: Ben
        // White. Cat had Black, Dan White: Cat White.
        let r2 = pair_round(&field, &history, 2, false);
        assert_eq!(r2, pairs(&[("ben", Some("ann")), ("cat", Some("dan"))]));
        history.push(single(2, "ben", "ann", Draw));
        history.push(single(2, "cat", "dan", WhiteWins));
        // Ann 1½, Ben 1½, Cat 1, Dan 0. Ann and Ben have met, so no pairing within the
        // groups; across groups Ann's next choice Cat was her round 1 opponent, so she meets
        // Dan, and Ben meets Cat.
        // Ann (White once, Black last) vs Dan (White once, Black last): board 1, Ann White.
        // Ben (White once, White last) vs Cat (White once, White last): board 2, the lower
        // player, Cat, White.
        let r3 = pair_round(&field, &history, 3, false);
        assert_eq!(r3, pairs(&[("ann", Some("dan")), ("cat", Some("ben"))]));
    }

    #[test]
    fn withdrawn_players_are_not_paired() {
        let mut field = entrants(&[("ann", 2000), ("ben", 1900), ("cat", 1800)]);
        field[0].withdrawn = true;
        assert_eq!(
            pair_round(&field, &[], 1, true),
            pairs(&[("ben", Some("cat"))])
        );
        field[1].withdrawn = true;
        assert_eq!(pair_round(&field, &[], 1, true), pairs(&[("cat", None)]));
        field[2].withdrawn = true;
        assert!(pair_round(&field, &[], 1, true).is_empty());
    }

    #[test]
    fn a_repeat_happens_only_when_nothing_else_is_possible() {
        // Two players who have met must meet again.
        let field = entrants(&[("ann", 2000), ("ben", 1900)]);
        let history = vec![single(1, "ann", "ben", WhiteWins)];
        assert_eq!(
            pair_round(&field, &history, 2, false),
            pairs(&[("ben", Some("ann"))])
        );
    }

    /// Plays a Swiss of `field` where the higher-rated player always wins, checking every
    /// round as the property tests do; returns the history.
    fn play(field: &[Entrant], rounds: u32) -> Vec<Pairing> {
        let rating = |k: &str| field.iter().find(|e| e.key == k).map_or(0, |e| e.rating);
        let mut history = Vec::new();
        for round in 1..=rounds {
            let got = pair_round(field, &history, round, false);
            check(field, &history, &got);
            for (w, b) in got {
                history.push(match b {
                    None => bye(round, &w, false),
                    Some(b) => {
                        let r = if rating(&w) > rating(&b) {
                            WhiteWins
                        } else {
                            BlackWins
                        };
                        single(round, &w, &b, r)
                    }
                });
            }
        }
        history
    }

    fn met_before(history: &[Pairing]) -> HashSet<(String, String)> {
        let mut met = HashSet::new();
        for p in history {
            if let Some(b) = &p.black {
                met.insert((p.white.clone(), b.clone()));
                met.insert((b.clone(), p.white.clone()));
            }
        }
        met
    }

    /// Whether `players` can all be paired (an even number) with nobody meeting again.
    fn matchable(players: &[&str], met: &HashSet<(String, String)>) -> bool {
        let Some((p, rest)) = players.split_first() else {
            return true;
        };
        rest.iter().any(|q| {
            !met.contains(&(p.to_string(), q.to_string())) && {
                let others: Vec<&str> = rest.iter().copied().filter(|r| r != q).collect();
                matchable(&others, met)
            }
        })
    }

    /// Whether a round without a repeat exists, with the bye to someone in `bye_from` when
    /// the number is odd.
    fn repeat_free_exists(
        players: &[&str],
        bye_from: &[&str],
        met: &HashSet<(String, String)>,
    ) -> bool {
        if players.len().is_multiple_of(2) {
            return matchable(players, met);
        }
        bye_from.iter().any(|c| {
            let others: Vec<&str> = players.iter().copied().filter(|p| p != c).collect();
            matchable(&others, met)
        })
    }

    /// The checks of every round: everyone not withdrawn paired exactly once or given the
    /// bye; no repeat when a round without one exists; no second bye while someone without
    /// one could take it without a repeat.
    fn check(field: &[Entrant], history: &[Pairing], got: &[(String, Option<String>)]) {
        let active: Vec<&str> = field
            .iter()
            .filter(|e| !e.withdrawn)
            .map(|e| e.key.as_str())
            .collect();
        let mut seen: Vec<&str> = got
            .iter()
            .flat_map(|(w, b)| std::iter::once(w.as_str()).chain(b.as_deref()))
            .collect();
        seen.sort_unstable();
        let mut expected = active.clone();
        expected.sort_unstable();
        assert_eq!(seen, expected, "everyone exactly once: {got:?}");
        let byes: Vec<&str> = got
            .iter()
            .filter(|(_, b)| b.is_none())
            .map(|(w, _)| w.as_str())
            .collect();
        assert_eq!(byes.len(), active.len() % 2, "{got:?}");

        let met = met_before(history);
        let repeats = got
            .iter()
            .filter(|(w, b)| {
                b.as_ref()
                    .is_some_and(|b| met.contains(&(w.clone(), b.clone())))
            })
            .count();
        if repeat_free_exists(&active, &active, &met) {
            assert_eq!(repeats, 0, "a repeat although none was needed: {got:?}");
        }
        let had_bye: HashSet<&str> = history
            .iter()
            .filter(|p| p.black.is_none())
            .map(|p| p.white.as_str())
            .collect();
        if let Some(b) = byes.first()
            && had_bye.contains(b)
        {
            let fresh: Vec<&str> = active
                .iter()
                .copied()
                .filter(|p| !had_bye.contains(p))
                .collect();
            assert!(
                !repeat_free_exists(&active, &fresh, &met),
                "a second bye for {b} although one of {fresh:?} could take it: {got:?}"
            );
        }
    }

    #[test]
    fn eight_players_over_seven_rounds_never_meet_twice() {
        let field = entrants(&[
            ("a", 2100),
            ("b", 2000),
            ("c", 1900),
            ("d", 1800),
            ("e", 1700),
            ("f", 1600),
            ("g", 1500),
            ("h", 1400),
        ]);
        let history = play(&field, 7);
        let mut met = HashSet::new();
        for p in &history {
            let b = p.black.clone().expect("no byes with eight");
            let pair = if p.white < b {
                (p.white.clone(), b)
            } else {
                (b, p.white.clone())
            };
            assert!(met.insert(pair.clone()), "{pair:?} met twice");
        }
        // Seven rounds of four games: everyone met everyone, a round robin.
        assert_eq!(met.len(), 28);
    }

    #[test]
    fn five_players_over_five_rounds_each_get_one_bye() {
        let field = entrants(&[
            ("a", 2100),
            ("b", 2000),
            ("c", 1900),
            ("d", 1800),
            ("e", 1700),
        ]);
        let history = play(&field, 5);
        let mut byes: Vec<&str> = history
            .iter()
            .filter(|p| p.black.is_none())
            .map(|p| p.white.as_str())
            .collect();
        byes.sort_unstable();
        assert_eq!(byes, ["a", "b", "c", "d", "e"]);
    }

    #[test]
    fn forty_one_players_over_nine_rounds_meet_nobody_twice_and_get_one_bye_at_most() {
        let field: Vec<Entrant> = (0..41)
            .map(|i| Entrant {
                key: format!("p{i:02}"),
                rating: 1200 + 17 * ((i * 7) % 41),
                withdrawn: false,
            })
            .collect();
        let mut history: Vec<Pairing> = Vec::new();
        for round in 1..=9 {
            let got = pair_round(&field, &history, round, true);
            let met = met_before(&history);
            let mut seen = HashSet::new();
            for (board, (w, b)) in got.iter().enumerate() {
                assert!(seen.insert(w.clone()));
                let Some(b) = b else {
                    assert!(
                        !history.iter().any(|p| p.black.is_none() && &p.white == w),
                        "a second bye for {w}"
                    );
                    history.push(bye(round, w, true));
                    continue;
                };
                assert!(seen.insert(b.clone()));
                assert!(
                    !met.contains(&(w.clone(), b.clone())),
                    "{w} and {b} met again"
                );
                // Board by board: White wins both, Black wins both, or one each by 2.
                let games = match board % 3 {
                    0 => [game(WhiteWins, 3), game(BlackWins, -1)],
                    1 => [game(BlackWins, -2), game(WhiteWins, 2)],
                    _ => [game(WhiteWins, 2), game(WhiteWins, 2)],
                };
                history.push(duplicate(round, w, b, games));
            }
            assert_eq!(seen.len(), 41);
        }
    }

    /// A small deterministic generator for the random histories.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            // splitmix64
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn shuffle<T>(&mut self, v: &mut [T]) {
            for i in (1..v.len()).rev() {
                v.swap(i, self.below(i + 1));
            }
        }
    }

    /// A random field and a random history of `rounds` rounds (random pairings, repeats
    /// allowed, random results), some players withdrawn at the end.
    fn random_case(
        n: usize,
        rounds: u32,
        seed: u64,
        duplicate: bool,
    ) -> (Vec<Entrant>, Vec<Pairing>) {
        let mut rng = Rng(seed);
        let mut field: Vec<Entrant> = (0..n)
            .map(|i| Entrant {
                key: format!("p{i}"),
                rating: 1500 + 50 * rng.below(8) as i32,
                withdrawn: false,
            })
            .collect();
        let results = [WhiteWins, BlackWins, Draw];
        let mut history = Vec::new();
        for round in 1..=rounds {
            let mut order: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut order);
            for pair in order.chunks(2) {
                let w = &field[pair[0]].key;
                let p = match pair.get(1) {
                    None => bye(round, w, duplicate),
                    Some(&b) => {
                        let b = &field[b].key;
                        if duplicate {
                            let m = |r: &mut Rng| game(results[r.below(3)], r.below(9) as i64 - 4);
                            duplicate_pairing(round, w, b, [m(&mut rng), m(&mut rng)])
                        } else {
                            single(round, w, b, results[rng.below(3)])
                        }
                    }
                };
                history.push(p);
            }
        }
        for e in &mut field {
            e.withdrawn = rng.below(6) == 0;
        }
        (field, history)
    }

    fn duplicate_pairing(round: u32, w: &str, b: &str, games: [GameOutcome; 2]) -> Pairing {
        duplicate(round, w, b, games)
    }

    proptest! {
        #[test]
        fn random_histories_are_paired_completely_without_needless_repeats_whatever_the_order(
            n in 1usize..=8,
            rounds in 0u32..=7,
            seed in any::<u64>(),
            duplicate in any::<bool>(),
        ) {
            let (field, history) = random_case(n, rounds, seed, duplicate);
            let got = pair_round(&field, &history, rounds + 1, duplicate);
            check(&field, &history, &got);

            let mut rng = Rng(seed ^ 0x5eed);
            let mut field2 = field.clone();
            rng.shuffle(&mut field2);
            let mut history2 = history.clone();
            rng.shuffle(&mut history2);
            prop_assert_eq!(pair_round(&field2, &history2, rounds + 1, duplicate), got);
        }
    }
}
