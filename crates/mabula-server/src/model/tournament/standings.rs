//! The standings: points, tie-breaks and ranks.

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

/// The standings of a Swiss tournament from its decided pairings, best first (ties by rating,
/// then key, so that the order is the same everywhere).
pub fn swiss(entrants: &[Entrant], pairings: &[Pairing]) -> Vec<Standing> {
    let _ = (entrants, pairings);
    todo!()
}

/// The standings of an arena, best first.
pub fn arena(entrants: &[Entrant], pairings: &[Pairing]) -> Vec<Standing> {
    let _ = (entrants, pairings);
    todo!()
}
