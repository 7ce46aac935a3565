//! Pairing an arena: whoever is waiting is paired at once with someone near in points, colours
//! balanced, not the last opponent again when another is free.

use super::{Entrant, Pairing};

/// Pairs `waiting` (keys of entrants who have not withdrawn and play in no undecided pairing,
/// in the order they began waiting), given every pairing so far: `(white, black)` pairs; with
/// an odd number one waits (the one who began waiting last). Deterministic.
pub fn pair_waiting(
    waiting: &[String],
    entrants: &[Entrant],
    pairings: &[Pairing],
) -> Vec<(String, String)> {
    let _ = (waiting, entrants, pairings);
    todo!()
}
