//! Points: of a game, of a duplicate match (games won, then the total margin), of a Swiss
//! pairing, and of an arena player's games with streaks.

use mabula::{Color, GameResult};

use super::{GameOutcome, Pairing};

/// The points of a duplicate match for the pairing's White (White of the first game, Black of
/// the second) and Black: 1, ½ or 0. The player who won more of the two games wins the match;
/// with as many games won, the one with the greater total margin over both games (their score
/// minus the opponent's on the final boards of the games that ended on the board); with equal
/// margins too, ½ each.
pub fn match_points(first: GameOutcome, second: GameOutcome) -> [f64; 2] {
    // Everything from the side of the pairing's White: White in the first game, Black in the
    // second.
    let won = u8::from(first.result == GameResult::WhiteWins)
        + u8::from(second.result == GameResult::BlackWins);
    let lost = u8::from(first.result == GameResult::BlackWins)
        + u8::from(second.result == GameResult::WhiteWins);
    let margin = first.margin.unwrap_or(0) - second.margin.unwrap_or(0);
    let by = won.cmp(&lost).then(margin.cmp(&0));
    match by {
        std::cmp::Ordering::Greater => [1.0, 0.0],
        std::cmp::Ordering::Less => [0.0, 1.0],
        std::cmp::Ordering::Equal => [0.5, 0.5],
    }
}

/// A single game's points for White and Black: 1, ½ or 0 (an unfinished game gives nothing).
pub fn game_points(result: GameResult) -> [f64; 2] {
    match result {
        GameResult::WhiteWins => [1.0, 0.0],
        GameResult::BlackWins => [0.0, 1.0],
        GameResult::Draw => [0.5, 0.5],
        GameResult::Unfinished => [0.0, 0.0],
    }
}

/// White's and Black's points from a decided Swiss pairing (1, ½ or 0 each; a bye gives its
/// player 1); `None` while it is undecided.
pub fn swiss_points(p: &Pairing) -> Option<[f64; 2]> {
    if p.black.is_none() {
        return Some([1.0, 0.0]);
    }
    if !p.is_decided() {
        return None;
    }
    Some(if p.duplicate {
        match_points(p.games[0], p.games[1])
    } else {
        game_points(p.games[0].result)
    })
}

/// The points `key` scored in a decided pairing they play in (a bye gives 1); `None` while it
/// is undecided or when they do not play in it.
pub fn points_of(key: &str, p: &Pairing) -> Option<f64> {
    let [white, black] = swiss_points(p)?;
    if p.white == key {
        Some(white)
    } else if p.black.as_deref() == Some(key) {
        Some(black)
    } else {
        None
    }
}

/// An arena player's points over their decided pairings in the order played, and whether they
/// are on a streak: a win is worth 2, a draw 1, a loss 0; after two wins in a row each further
/// win is worth 4 and each draw 2, until a game that is not a win. In a duplicate arena each
/// match counts as one game (its winner by [`match_points`]). Pairings that are undecided, that
/// `key` does not play in, or that are byes are skipped.
pub fn arena_points(key: &str, pairings: &[&Pairing]) -> (f64, bool) {
    let mut total = 0.0;
    let mut wins_in_a_row = 0u32;
    for p in pairings {
        if p.black.is_none() {
            continue;
        }
        let Some(points) = points_of(key, p) else {
            continue;
        };
        let on_fire = wins_in_a_row >= 2;
        let factor = if on_fire { 2.0 } else { 1.0 };
        total += 2.0 * points * factor;
        if points == 1.0 {
            wins_in_a_row += 1;
        } else {
            wins_in_a_row = 0;
        }
    }
    (total, wins_in_a_row >= 2)
}

/// The colour `key` has in game `index` of pairing `p` (the second game of a duplicate match
/// swaps the colours), if they play in it.
pub fn color_in(key: &str, p: &Pairing, index: usize) -> Option<Color> {
    let first = if p.white == key {
        Color::White
    } else if p.black.as_deref() == Some(key) {
        Color::Black
    } else {
        return None;
    };
    Some(if index % 2 == 0 { first } else { first.other() })
}

/// How many of `key`'s last games in a row they missed (lost by the clock without moving): at
/// two, a player is withdrawn. Games still being played (unfinished, not missed) are skipped,
/// and so are byes; the two games of a duplicate match count as two games.
pub fn missed_in_a_row(key: &str, pairings: &[Pairing]) -> u32 {
    let mut missed = 0;
    for p in pairings.iter().rev() {
        if p.black.is_none() {
            continue;
        }
        for (index, game) in p.games.iter().enumerate().rev() {
            let Some(color) = color_in(key, p, index) else {
                break;
            };
            if game.no_show == Some(color) {
                missed += 1;
            } else if game.result == GameResult::Unfinished {
                continue;
            } else {
                return missed;
            }
        }
    }
    missed
}
