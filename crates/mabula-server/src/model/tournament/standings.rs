//! The standings: points, tie-breaks and ranks.
//!
//! Byes in the Swiss tie-breaks: a bye is a game against a virtual opponent who has as many
//! points as the player (the simple rule of FIDE's tie-break regulations for unplayed games).
//! So a bye adds the player's own points to their Buchholz and, being a win, to their
//! Sonneborn-Berger too.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::score::{arena_points, points_of};
use super::{Entrant, Pairing};

/// A player's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The account's key.
    pub key: String,
    /// Points.
    pub points: f64,
    /// Swiss: Buchholz (the sum of the opponents' points), then Sonneborn-Berger (the sum of the
    /// points of the opponents one beat, plus half of those one drew). Arena: the performance
    /// (the average rating of the opponents, plus 500 a win and minus 500 a loss, over the games).
    pub tiebreaks: Vec<f64>,
    /// Pairings played (a bye counts).
    pub played: u32,
    /// Arena: on a streak.
    pub streak: bool,
    /// 1 for the leader; players equal in points and every tie-break share a rank.
    pub rank: u32,
}

/// The Swiss points of everyone who appears in `entrants` or in a decided pairing.
pub(super) fn swiss_totals(entrants: &[Entrant], pairings: &[Pairing]) -> HashMap<String, f64> {
    let mut totals: HashMap<String, f64> = entrants.iter().map(|e| (e.key.clone(), 0.0)).collect();
    for p in pairings {
        for key in std::iter::once(p.white.as_str()).chain(p.black.as_deref()) {
            if let Some(points) = points_of(key, p) {
                *totals.entry(key.to_owned()).or_insert(0.0) += points;
            }
        }
    }
    totals
}

/// The standings of a Swiss tournament from its decided pairings, best first (ties by rating,
/// then key, so that the order is the same everywhere). Undecided pairings are ignored.
pub fn swiss(entrants: &[Entrant], pairings: &[Pairing]) -> Vec<Standing> {
    let totals = swiss_totals(entrants, pairings);
    let mut lines: Vec<(Standing, i32)> = entrants
        .iter()
        .map(|e| {
            let own = totals[&e.key];
            let (mut buchholz, mut sb, mut played) = (0.0, 0.0, 0);
            for p in pairings.iter().filter(|p| p.has(&e.key)) {
                let Some(scored) = points_of(&e.key, p) else {
                    continue;
                };
                played += 1;
                let opponent = match p.opponent_of(&e.key) {
                    Some(o) => totals.get(o).copied().unwrap_or(0.0),
                    None => own,
                };
                buchholz += opponent;
                sb += scored * opponent;
            }
            let line = Standing {
                key: e.key.clone(),
                points: own,
                tiebreaks: vec![buchholz, sb],
                played,
                streak: false,
                rank: 0,
            };
            (line, e.rating)
        })
        .collect();
    rank(&mut lines);
    lines.into_iter().map(|(s, _)| s).collect()
}

/// The standings of an arena, best first: points, then the performance (see
/// [`Standing::tiebreaks`]; 0 before a first game), ties by rating, then key.
pub fn arena(entrants: &[Entrant], pairings: &[Pairing]) -> Vec<Standing> {
    let ratings: HashMap<&str, i32> = entrants
        .iter()
        .map(|e| (e.key.as_str(), e.rating))
        .collect();
    let mut lines: Vec<(Standing, i32)> = entrants
        .iter()
        .map(|e| {
            let own: Vec<&Pairing> = pairings.iter().filter(|p| p.has(&e.key)).collect();
            let (points, streak) = arena_points(&e.key, &own);
            let (mut sum, mut games, mut played) = (0.0, 0u32, 0u32);
            for p in &own {
                let Some(scored) = points_of(&e.key, p) else {
                    continue;
                };
                played += 1;
                let Some(opponent) = p.opponent_of(&e.key) else {
                    continue;
                };
                let rating = f64::from(ratings.get(opponent).copied().unwrap_or(0));
                sum += rating + 1000.0 * (scored - 0.5);
                games += 1;
            }
            let performance = if games == 0 {
                0.0
            } else {
                sum / f64::from(games)
            };
            let line = Standing {
                key: e.key.clone(),
                points,
                tiebreaks: vec![performance],
                played,
                streak,
                rank: 0,
            };
            (line, e.rating)
        })
        .collect();
    rank(&mut lines);
    lines.into_iter().map(|(s, _)| s).collect()
}

/// Orders by points and tie-breaks (higher first), then rating (higher first), then key, and
/// gives ranks shared by exact ties in points and every tie-break.
fn rank(lines: &mut [(Standing, i32)]) {
    fn by_score(a: &Standing, b: &Standing) -> Ordering {
        b.points.total_cmp(&a.points).then_with(|| {
            b.tiebreaks
                .iter()
                .zip(&a.tiebreaks)
                .map(|(x, y)| x.total_cmp(y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    }
    lines.sort_by(|(a, ra), (b, rb)| {
        by_score(a, b)
            .then(rb.cmp(ra))
            .then_with(|| a.key.cmp(&b.key))
    });
    for i in 0..lines.len() {
        lines[i].0.rank = if i > 0 && by_score(&lines[i - 1].0, &lines[i].0).is_eq() {
            lines[i - 1].0.rank
        } else {
            i as u32 + 1
        };
    }
}

#[cfg(test)]
mod tests {
    use mabula::GameResult::{self, BlackWins, Draw, Unfinished, WhiteWins};

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

    fn line(s: &Standing) -> (&str, f64, Vec<f64>, u32) {
        (s.key.as_str(), s.points, s.tiebreaks.clone(), s.rank)
    }

    #[test]
    fn buchholz_and_sonneborn_berger_by_hand_with_shared_ranks() {
        // Four players, two rounds of single games:
        //   round 1: Ann beats Ben, Cat draws Dan;
        //   round 2: Ann draws Cat, Ben beats Dan; round 3 is being played (ignored).
        // Points: Ann 1½, Ben 1, Cat 1, Dan ½.
        // Buchholz: Ann = Ben 1 + Cat 1 = 2;  Ben = Ann 1½ + Dan ½ = 2;
        //           Cat = Dan ½ + Ann 1½ = 2; Dan = Cat 1 + Ben 1 = 2.
        // Sonneborn-Berger: Ann = Ben 1 + ½·Cat 1 = 1½;  Ben = Dan ½ = ½;
        //           Cat = ½·Dan ½ + ½·Ann 1½ = 1;       Dan = ½·Cat 1 = ½.
        // Cat is ahead of Ben on Sonneborn-Berger.
        let field = entrants(&[("ann", 1500), ("ben", 1600), ("cat", 1400), ("dan", 1700)]);
        let history = vec![
            game(1, "ann", "ben", WhiteWins),
            game(1, "cat", "dan", Draw),
            game(2, "cat", "ann", Draw),
            game(2, "dan", "ben", BlackWins),
            game(3, "ann", "dan", Unfinished),
        ];
        let table = swiss(&field, &history);
        let got: Vec<_> = table.iter().map(line).collect();
        assert_eq!(
            got,
            vec![
                ("ann", 1.5, vec![2.0, 1.5], 1),
                ("cat", 1.0, vec![2.0, 1.0], 2),
                ("ben", 1.0, vec![2.0, 0.5], 3),
                ("dan", 0.5, vec![2.0, 0.5], 4),
            ]
        );
        assert!(table.iter().all(|s| s.played == 2));

        // Exact ties share a rank; the order among them is by rating, then key.
        let field = entrants(&[("ann", 1500), ("ben", 1600), ("cat", 1600), ("dan", 1400)]);
        let history = vec![game(1, "ann", "ben", Draw), game(1, "cat", "dan", Draw)];
        let got: Vec<_> = swiss(&field, &history)
            .iter()
            .map(|s| (s.key.clone(), s.rank))
            .collect();
        assert_eq!(
            got,
            vec![
                ("ben".to_owned(), 1),
                ("cat".to_owned(), 1),
                ("ann".to_owned(), 1),
                ("dan".to_owned(), 1)
            ]
        );
    }

    #[test]
    fn arena_standings_count_streaks_and_rank_equal_points_by_performance() {
        // Ann beats Ben, Cat and Dan in a row: 2 + 2 + 4 = 8, on a streak.
        // Ben beats Cat (2), loses to Ann: 2. Cat beats Dan (2), loses to Ann and Ben: 2.
        // Dan lost both: 0.
        // Performance (opponent's rating ± 500), averaged over the games:
        //   Ben: (Ann 1800 - 500 + Cat 1400 + 500) / 2 = 1600
        //   Cat: (Ben 1600 - 500 + Dan 1200 + 500 + Ann 1800 - 500) / 3 = 1366.67
        // so Ben ranks above Cat with equal points.
        let field = entrants(&[("ann", 1800), ("ben", 1600), ("cat", 1400), ("dan", 1200)]);
        let history = vec![
            game(1, "ann", "ben", WhiteWins),
            game(2, "ben", "cat", WhiteWins),
            game(2, "cat", "dan", WhiteWins),
            game(3, "cat", "ann", BlackWins),
            game(4, "ann", "dan", WhiteWins),
        ];
        let table = arena(&field, &history);
        let keys: Vec<(&str, f64, bool, u32, u32)> = table
            .iter()
            .map(|s| (s.key.as_str(), s.points, s.streak, s.played, s.rank))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("ann", 8.0, true, 3, 1),
                ("ben", 2.0, false, 2, 2),
                ("cat", 2.0, false, 3, 3),
                ("dan", 0.0, false, 2, 4),
            ]
        );
        assert_eq!(table[1].tiebreaks, vec![1600.0]);
        assert!((table[2].tiebreaks[0] - 4100.0 / 3.0).abs() < 1e-9);
    }
}
