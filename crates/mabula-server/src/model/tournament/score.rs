//! Points: of a game, of a duplicate match (games won, then the total margin), of a Swiss
//! pairing, and of an arena player's games with streaks.

use super::{GameOutcome, Pairing};

/// The points of a duplicate match for the pairing's White (White of the first game, Black of
/// the second) and Black: 1, ½ or 0. The player who won more of the two games wins the match;
/// with as many games won, the one with the greater total margin over both games (their score
/// minus the opponent's on the final boards of the games that ended on the board); with equal
/// margins too, ½ each.
pub fn match_points(first: GameOutcome, second: GameOutcome) -> [f64; 2] {
    let _ = (first, second);
    todo!()
}

/// White's and Black's points from a decided Swiss pairing (1, ½ or 0 each; a bye gives its
/// player 1); `None` while it is undecided.
pub fn swiss_points(p: &Pairing) -> Option<[f64; 2]> {
    let _ = p;
    todo!()
}

/// An arena player's points over their decided pairings in the order played, and whether they
/// are on a streak: a win is worth 2, a draw 1, a loss 0; after two wins in a row each further
/// win is worth 4 and each draw 2, until a game that is not a win. In a duplicate arena each
/// match counts as one game (its winner by [`match_points`]).
pub fn arena_points(key: &str, pairings: &[&Pairing]) -> (f64, bool) {
    let _ = (key, pairings);
    todo!()
}

/// How many of `key`'s last games in a row they missed (lost by the clock without moving): at
/// two, a player is withdrawn.
pub fn missed_in_a_row(key: &str, pairings: &[Pairing]) -> u32 {
    let _ = (key, pairings);
    todo!()
}
