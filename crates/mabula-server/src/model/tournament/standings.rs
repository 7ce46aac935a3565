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
