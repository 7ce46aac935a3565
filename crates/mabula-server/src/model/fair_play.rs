//! Fair play (issue 51): the positions a live rated game keeps from the engine, as keys that
//! the store can look up.
//!
//! A position's key ([`key`]) is the Zobrist hash of its canonical image under the board's eight
//! symmetries, so a position and all its images share one key. While a rated game is played it
//! keeps its standing position and every position one move after it ([`kept`]), stored with the
//! game; a position asked about is refused when its key is among them. So the analysis never
//! looks at a live rated position, at its images, nor at any position its player may move to.

use super::LiveGame;
use mabula::Position;

/// The key of `pos`: the Zobrist hash of its canonical image (the same for all eight images),
/// as the store's `BIGINT` holds it.
pub fn key(pos: &Position) -> i64 {
    pos.canonical().0.hash() as i64
}

/// The keys of `standing` and of every position one move after it (a pass included), sorted,
/// each once.
pub fn kept_around(standing: &Position) -> Vec<i64> {
    let mut keys: Vec<i64> = standing
        .legal_moves()
        .iter()
        .filter_map(|&mv| standing.play(mv).ok())
        .map(|p| key(&p))
        .chain([key(standing)])
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// What game `g` keeps from the engine, stored with each of its changes: `None` for a game
/// that is not rated (nothing is stored), no keys once it is over.
pub fn kept(g: &LiveGame) -> Option<Vec<i64>> {
    if !g.rated {
        return None;
    }
    if g.is_over() {
        return Some(Vec::new());
    }
    Some(kept_around(g.game.position()))
}

/// The keys to look up for `positions` (a position, or every position of a game), sorted, each
/// once.
pub fn keys<'a>(positions: impl IntoIterator<Item = &'a Position>) -> Vec<i64> {
    let mut keys: Vec<i64> = positions.into_iter().map(key).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::{Color, Symmetry, deal};

    #[test]
    fn a_position_and_its_images_share_one_key_and_another_position_has_another() {
        let pos = deal::random(7, Color::White);
        for s in Symmetry::ALL {
            assert_eq!(key(&s.position(&pos)), key(&pos), "{s:?}");
        }
        assert_ne!(key(&pos), key(&pos.with_side_to_move(Color::Black)));
        assert_ne!(key(&pos), key(&deal::random(8, Color::White)));
    }

    #[test]
    fn a_standing_position_keeps_itself_and_every_image_of_a_position_one_move_after_it() {
        let pos = deal::random(3, Color::Black);
        let kept = kept_around(&pos);
        assert!(kept.binary_search(&key(&pos)).is_ok());
        for mv in pos.legal_moves().iter() {
            let after = Symmetry::Rotate90.position(&pos.play(*mv).expect("legal"));
            assert!(kept.binary_search(&key(&after)).is_ok(), "{mv}");
        }
        // Two moves on is not kept.
        let first = pos.play(pos.legal_moves()[0]).expect("legal");
        let two = first.play(first.legal_moves()[0]).expect("legal");
        assert!(kept.binary_search(&key(&two)).is_err());
    }
}
