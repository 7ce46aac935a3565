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
/// player 1); `None` while it is undecided, or when a game of it was called off (it then counts
/// for nobody).
pub fn swiss_points(p: &Pairing) -> Option<[f64; 2]> {
    if p.black.is_none() {
        return Some([1.0, 0.0]);
    }
    if !p.is_decided() || p.games.iter().any(|g| g.called_off) {
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
    Some(if index.is_multiple_of(2) {
        first
    } else {
        first.other()
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::GameResult::{BlackWins, Draw, Unfinished, WhiteWins};

    /// A game that ended on the board with White's score minus Black's.
    fn board(result: GameResult, margin: i64) -> GameOutcome {
        GameOutcome {
            result,
            margin: Some(margin),
            no_show: None,
            called_off: false,
        }
    }

    /// A game that ended off the board (time, resignation): no margin.
    fn off_board(result: GameResult) -> GameOutcome {
        GameOutcome {
            result,
            margin: None,
            no_show: None,
            called_off: false,
        }
    }

    /// A single-game pairing.
    fn single(round: u32, white: &str, black: &str, game: GameOutcome) -> Pairing {
        Pairing {
            round,
            white: white.into(),
            black: Some(black.into()),
            games: vec![game],
            duplicate: false,
        }
    }

    #[test]
    fn a_duplicate_match_won_two_games_to_nothing_is_a_full_point() {
        // Ann is White in game 1 and wins 9 to 6 (+3); Ben is White in game 2 and loses 7 to
        // 8 (White's margin -1): Ann won both games.
        let points = match_points(board(WhiteWins, 3), board(BlackWins, -1));
        assert_eq!(points, [1.0, 0.0]);
        // The same from Ben's side of the pairing.
        let points = match_points(board(BlackWins, -2), board(WhiteWins, 4));
        assert_eq!(points, [0.0, 1.0]);
    }

    #[test]
    fn a_duplicate_match_won_one_game_each_goes_to_the_greater_total_margin() {
        // Game 1: Ann (White) wins by 5. Game 2: Ben (White) wins by 2.
        // Ann's total margin: +5 - 2 = +3 > 0, so Ann wins the match.
        assert_eq!(
            match_points(board(WhiteWins, 5), board(WhiteWins, 2)),
            [1.0, 0.0]
        );
        // Game 1: Ann wins by 1; game 2: Ben wins by 4. Ann: +1 - 4 = -3: Ben wins.
        assert_eq!(
            match_points(board(WhiteWins, 1), board(WhiteWins, 4)),
            [0.0, 1.0]
        );
    }

    #[test]
    fn a_duplicate_match_with_one_win_each_and_equal_margins_is_half_each() {
        // Each wins their White game by 4: Ann +4 - 4 = 0.
        assert_eq!(
            match_points(board(WhiteWins, 4), board(WhiteWins, 4)),
            [0.5, 0.5]
        );
        // Two draws on the board (margins 0) are also half each.
        assert_eq!(match_points(board(Draw, 0), board(Draw, 0)), [0.5, 0.5]);
    }

    #[test]
    fn a_draw_and_a_win_wins_the_match_whatever_the_margins() {
        // Game 1 drawn; game 2 Ann wins with Black by 1 (White's margin -1): Ann 1 win to 0.
        assert_eq!(
            match_points(board(Draw, 0), board(BlackWins, -1)),
            [1.0, 0.0]
        );
        // Games won come before margins: game 1 drawn by agreement (no margin), game 2 Ben
        // (White) wins by 1; Ann's margin would not matter even if it were larger.
        assert_eq!(
            match_points(off_board(Draw), board(WhiteWins, 1)),
            [0.0, 1.0]
        );
        // Game 1 Ben wins with Black by 1 (margin -1); game 2 drawn: Ben's match.
        assert_eq!(
            match_points(board(BlackWins, -1), board(Draw, 0)),
            [0.0, 1.0]
        );
    }

    #[test]
    fn a_game_lost_on_time_counts_nothing_to_the_margin() {
        // Game 1: Ann (White) wins because Ben's clock ran out: no margin, whatever the board
        // showed. Game 2: Ben (White) wins on the board by 3. One win each; Ann's margin
        // is 0 - 3 = -3, so Ben wins the match.
        assert_eq!(
            match_points(off_board(WhiteWins), board(WhiteWins, 3)),
            [0.0, 1.0]
        );
        // Both games won off the board: margins 0 and 0, half each.
        assert_eq!(
            match_points(off_board(WhiteWins), off_board(WhiteWins)),
            [0.5, 0.5]
        );
    }

    #[test]
    fn swiss_points_score_single_games_matches_and_byes() {
        let bye = Pairing {
            round: 1,
            white: "a".into(),
            black: None,
            games: vec![],
            duplicate: true,
        };
        assert_eq!(swiss_points(&bye), Some([1.0, 0.0]));
        assert_eq!(points_of("a", &bye), Some(1.0));
        assert_eq!(
            swiss_points(&single(1, "a", "b", off_board(BlackWins))),
            Some([0.0, 1.0])
        );
        assert_eq!(
            swiss_points(&single(1, "a", "b", off_board(Draw))),
            Some([0.5, 0.5])
        );
        assert_eq!(
            swiss_points(&single(1, "a", "b", off_board(Unfinished))),
            None
        );
        let half_played = Pairing {
            round: 1,
            white: "a".into(),
            black: Some("b".into()),
            games: vec![board(WhiteWins, 3)],
            duplicate: true,
        };
        assert_eq!(swiss_points(&half_played), None);
        let played = Pairing {
            games: vec![board(WhiteWins, 3), board(WhiteWins, 5)],
            ..half_played
        };
        assert_eq!(swiss_points(&played), Some([0.0, 1.0]));
        assert_eq!(points_of("b", &played), Some(1.0));
        assert_eq!(points_of("c", &played), None);
    }

    #[test]
    fn arena_points_double_after_two_wins_in_a_row_until_a_game_is_not_won() {
        // Ann's games in order and their worth:
        //   win 2, win 2 (now on a streak), win 4, draw 2 (streak ends), win 2, win 2,
        //   win 4, loss 0, win 2  = 20, and she is not on a streak at the end.
        let results = [
            WhiteWins, WhiteWins, WhiteWins, Draw, WhiteWins, WhiteWins, WhiteWins, BlackWins,
            WhiteWins,
        ];
        let pairings: Vec<Pairing> = results
            .iter()
            .enumerate()
            .map(|(i, &r)| single(i as u32 + 1, "ann", "ben", off_board(r)))
            .collect();
        let refs: Vec<&Pairing> = pairings.iter().collect();
        assert_eq!(arena_points("ann", &refs), (20.0, false));
        // After the first three games she is on a streak with 8.
        assert_eq!(arena_points("ann", &refs[..3]), (8.0, true));
        // Ben lost seven, drew one, won one: 1 + 2 = 3.
        assert_eq!(arena_points("ben", &refs), (3.0, false));
        // An unfinished game counts nothing and does not break the streak.
        let going = single(10, "ben", "ann", off_board(Unfinished));
        let mut with = refs[..2].to_vec();
        with.push(&going);
        assert_eq!(arena_points("ann", &with), (4.0, true));
    }

    #[test]
    fn a_duplicate_arena_match_counts_as_one_game() {
        let m = Pairing {
            round: 1,
            white: "ann".into(),
            black: Some("ben".into()),
            games: vec![board(WhiteWins, 2), board(WhiteWins, 1)],
            duplicate: true,
        };
        assert_eq!(arena_points("ann", &[&m]), (2.0, false));
        assert_eq!(arena_points("ben", &[&m]), (0.0, false));
    }

    #[test]
    fn missed_games_are_counted_from_the_last_one_back() {
        let missed_by = |color| GameOutcome {
            result: if color == Color::White {
                BlackWins
            } else {
                WhiteWins
            },
            margin: None,
            no_show: Some(color),
            called_off: false,
        };
        let history = vec![
            single(1, "ann", "ben", missed_by(Color::White)),
            single(2, "ann", "cat", off_board(Draw)),
            single(3, "ben", "ann", missed_by(Color::Black)),
            single(4, "ann", "dan", missed_by(Color::White)),
        ];
        assert_eq!(missed_in_a_row("ann", &history), 2);
        assert_eq!(missed_in_a_row("ann", &history[..3]), 1);
        assert_eq!(missed_in_a_row("ann", &history[..2]), 0);
        // Ben missed nothing (his opponent did), Eve never played.
        assert_eq!(missed_in_a_row("ben", &history), 0);
        assert_eq!(missed_in_a_row("eve", &history), 0);
        // A duplicate match counts as two games: Ann, White of the first game, misses both.
        let both = Pairing {
            round: 5,
            white: "ann".into(),
            black: Some("eve".into()),
            games: vec![missed_by(Color::White), missed_by(Color::Black)],
            duplicate: true,
        };
        assert_eq!(missed_in_a_row("ann", std::slice::from_ref(&both)), 2);
        assert_eq!(missed_in_a_row("eve", &[both]), 0);
        // A game still being played is skipped; a bye breaks nothing.
        let mut going = history.clone();
        going.push(Pairing {
            round: 5,
            white: "ann".into(),
            black: None,
            games: vec![],
            duplicate: false,
        });
        going.push(single(6, "ann", "cat", off_board(Unfinished)));
        assert_eq!(missed_in_a_row("ann", &going), 2);
    }
}
