//! Pairing a Swiss round: players with equal points meet, nobody meets the same opponent twice,
//! a bye for an odd player (the lowest who has not had one).

use super::{Entrant, Pairing};

/// The pairings of round `round` (from 1) among the entrants who have not withdrawn, given the
/// pairings of the rounds before: `(white, black)`, `black` `None` for the bye, by board (best
/// first). Deterministic: the same arguments give the same pairings on every instance. In a
/// single-game tournament (`duplicate` false) colours alternate: White goes to the player who
/// has had White less often, then to the one who had Black last.
pub fn pair_round(
    entrants: &[Entrant],
    pairings: &[Pairing],
    round: u32,
    duplicate: bool,
) -> Vec<(String, Option<String>)> {
    let _ = (entrants, pairings, round, duplicate);
    todo!()
}
