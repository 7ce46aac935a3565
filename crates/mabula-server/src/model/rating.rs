//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"), with one addition: the
//! expected score of a game depends on who moved first.
//!
//! Mabula favours the second player: between equal engines the first player scores about 30%.
//! A rating system that ignores this would take every first-player loss as news. So, as
//! lichess does for White in chess, the expected score is computed as if the second player's
//! rating were [`Glicko2::advantage`] points higher than it is (the first player's opponent is
//! "stronger" by that much). With the advantage at 0 this is plain Glicko-2, which the tests
//! check against the published worked example.
//!
//! Each game is rated at once, as a rating period of one game (as lichess does), so a rating
//! moves after every rated game instead of at the end of a period.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The scale factor between the Glicko and the Glicko-2 scales.
const SCALE: f64 = 173.7178;

/// A player's rating: the estimate, its deviation and the volatility.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Rating {
    /// The rating, on the Glicko scale (a new player has 1500).
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is (350 for a new player).
    pub deviation: f64,
    /// How much the player's strength seems to vary.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// The largest deviation of a rating that is not provisional.
pub const SETTLED_DEVIATION: f64 = 110.0;

impl Rating {
    /// Whether the rating is still uncertain (shown with a question mark).
    pub fn provisional(&self) -> bool {
        self.deviation > SETTLED_DEVIATION
    }

    /// A rating known only as a game showed it (`rating`, or none, and whether it was
    /// provisional): the opponent's side of a game whose player deleted the account before the
    /// game was rated. Its deviation is the largest its kind has (a new player's when it was
    /// provisional, else [`SETTLED_DEVIATION`]), so the game weighs the least it could have.
    pub fn as_shown(rating: Option<i64>, provisional: bool) -> Rating {
        let Some(rating) = rating else {
            return Rating::default();
        };
        Rating {
            rating: rating as f64,
            deviation: if provisional {
                Rating::default().deviation
            } else {
                SETTLED_DEVIATION
            },
            ..Rating::default()
        }
    }

    /// The rating as a game shows it: rounded, and whether it is provisional.
    pub fn shown(&self) -> (i32, bool) {
        (self.rating.round() as i32, self.provisional())
    }
}

/// The system's constants.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Glicko2 {
    /// τ, which bounds how fast the volatility changes.
    pub tau: f64,
    /// Rating points added to the second player's rating when the expected score is computed.
    pub advantage: f64,
    /// The smallest deviation a rating keeps (so a rating never freezes).
    pub min_deviation: f64,
    /// The largest deviation.
    pub max_deviation: f64,
}

/// The advantage of moving second, in rating points, used until rated games say otherwise: a
/// first player's expected score of 30% against an equal opponent (see `docs/ratings.md`).
pub const SECOND_PLAYER_ADVANTAGE: f64 = 147.0;

impl Default for Glicko2 {
    fn default() -> Glicko2 {
        Glicko2 {
            tau: 0.75,
            advantage: SECOND_PLAYER_ADVANTAGE,
            min_deviation: 45.0,
            max_deviation: 350.0,
        }
    }
}

/// One game of the period being rated: the opponent's rating, the score (1, 0.5 or 0) and
/// whether the player being rated moved first.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The opponent before the game.
    pub opponent: Rating,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
    /// Whether the player being rated moved first; `None` when the order does not count (the
    /// published example).
    pub first: Option<bool>,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

impl Glicko2 {
    /// The expected score of a player rated `mu` (Glicko-2 scale) against `opponent`, shifted
    /// for the order of play.
    fn expected(&self, mu: f64, o: &Outcome) -> f64 {
        let mu_j = (o.opponent.rating - 1500.0) / SCALE;
        let shift = match o.first {
            Some(true) => -self.advantage / SCALE,
            Some(false) => self.advantage / SCALE,
            None => 0.0,
        };
        let phi_j = o.opponent.deviation / SCALE;
        1.0 / (1.0 + (-g(phi_j) * (mu + shift - mu_j)).exp())
    }

    /// The expected score of `player` against `opponent`, `first` saying whether `player` moves
    /// first.
    pub fn expected_score(&self, player: &Rating, opponent: &Rating, first: bool) -> f64 {
        let o = Outcome {
            opponent: *opponent,
            score: 0.0,
            first: Some(first),
        };
        self.expected((player.rating - 1500.0) / SCALE, &o)
    }

    /// The player's rating after the games of one period (steps 2 to 8 of the paper). With no
    /// games only the deviation grows.
    pub fn rate(&self, player: &Rating, games: &[Outcome]) -> Rating {
        let mu = (player.rating - 1500.0) / SCALE;
        let phi = player.deviation / SCALE;
        let sigma = player.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return self.bounded(Rating {
                deviation: phi_star * SCALE,
                ..*player
            });
        }
        // Step 3: the estimated variance; step 4: the estimated improvement.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for o in games {
            let gj = g(o.opponent.deviation / SCALE);
            let e = self.expected(mu, o);
            inv_v += gj * gj * e * (1.0 - e);
            sum += gj * (o.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let tau2 = self.tau * self.tau;
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * self.tau) < 0.0 {
                k += 1.0;
            }
            a - k * self.tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        for _ in 0..100 {
            if (big_b - big_a).abs() <= 1e-6 {
                break;
            }
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Steps 6 to 8.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        self.bounded(Rating {
            rating: mu_new * SCALE + 1500.0,
            deviation: phi_new * SCALE,
            volatility: sigma_new,
        })
    }

    fn bounded(&self, r: Rating) -> Rating {
        Rating {
            deviation: r.deviation.clamp(self.min_deviation, self.max_deviation),
            ..r
        }
    }

    /// Rates one game between `first` (who moved first) and `second`; `score` is the first
    /// player's (1, 0.5 or 0). Answers both new ratings.
    pub fn rate_game(&self, first: &Rating, second: &Rating, score: f64) -> (Rating, Rating) {
        let a = self.rate(
            first,
            &[Outcome {
                opponent: *second,
                score,
                first: Some(true),
            }],
        );
        let b = self.rate(
            second,
            &[Outcome {
                opponent: *first,
                score: 1.0 - score,
                first: Some(false),
            }],
        );
        (a, b)
    }
}

/// Moves a game needs before a resignation, a flag or a claim ends it for real (ten each): a
/// game resigned after two moves says nothing about who moves first.
pub const REAL_END_MOVES: u32 = 20;

/// The most games' worth that one pair of accounts brings to the advantage's estimate, however
/// many games they played: two accounts of one person cannot outweigh everyone else.
pub const PAIR_WEIGHT: f64 = 10.0;

/// The most games' worth that one account brings to the advantage's estimate, over all its
/// opponents: a ring of accounts that play each other counts as a few games each.
pub const ACCOUNT_WEIGHT: f64 = 30.0;

/// The distinct opponents in rated games an account needs before its games count toward the
/// advantage: a ring of a few accounts of one person never gets there by itself.
pub const ESTABLISHED_OPPONENTS: usize = 10;

/// Rated games one pair of accounts may begin in a day; further games of the pair that day are
/// casual (and the pair is flagged for the moderators).
pub const PAIR_RATED_PER_DAY: u32 = 10;

/// Whether a game that ended for `reason` (its name, as stored) after `moves` moves ended for
/// real: by the board (no moves left), or resigned, flagged or claimed after
/// [`REAL_END_MOVES`]. An imported result or an abort never is.
pub fn real_end(reason: &str, moves: u32) -> bool {
    match reason {
        "no_moves" => true,
        r if r.starts_with("resigned_")
            || r == "draw_agreed"
            || r.starts_with("timeout_")
            || r.starts_with("abandoned_") =>
        {
            moves >= REAL_END_MOVES
        }
        _ => false,
    }
}

/// A rated game as the advantage sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstPlayerGame {
    /// The first player's rating minus the second's, from the ratings stored in the game.
    pub diff: f64,
    /// The first player's score.
    pub score: f64,
    /// The two accounts, in order, whichever moved first.
    pub pair: (String, String),
    /// Whether the game ended for real ([`real_end`]).
    pub real_end: bool,
}

/// The games that count toward the advantage, as (difference, score, weight): only those that
/// ended for real between established accounts (each with [`ESTABLISHED_OPPONENTS`] distinct
/// opponents in `games`); each pair's games weigh [`PAIR_WEIGHT`] games at most in all, and each
/// account's [`ACCOUNT_WEIGHT`].
pub fn weigh_games(games: &[FirstPlayerGame]) -> Vec<(f64, f64, f64)> {
    use std::collections::{HashMap, HashSet};
    let mut opponents: HashMap<&str, HashSet<&str>> = HashMap::new();
    for g in games {
        let (a, b) = (g.pair.0.as_str(), g.pair.1.as_str());
        opponents.entry(a).or_default().insert(b);
        opponents.entry(b).or_default().insert(a);
    }
    let established = |a: &str| opponents.get(a).map_or(0, HashSet::len) >= ESTABLISHED_OPPONENTS;
    let counted: Vec<&FirstPlayerGame> = games
        .iter()
        .filter(|g| g.real_end && established(&g.pair.0) && established(&g.pair.1))
        .collect();
    let mut per_pair: HashMap<&(String, String), f64> = HashMap::new();
    let mut per_account: HashMap<&str, f64> = HashMap::new();
    for g in &counted {
        *per_pair.entry(&g.pair).or_default() += 1.0;
        *per_account.entry(&g.pair.0).or_default() += 1.0;
        *per_account.entry(&g.pair.1).or_default() += 1.0;
    }
    counted
        .iter()
        .map(|g| {
            let weight = (PAIR_WEIGHT / per_pair[&g.pair])
                .min(ACCOUNT_WEIGHT / per_account[g.pair.0.as_str()])
                .min(ACCOUNT_WEIGHT / per_account[g.pair.1.as_str()])
                .min(1.0);
            (g.diff, g.score, weight)
        })
        .collect()
}

/// The advantage of the second player, in rating points, that makes the expected scores of
/// `games` (each: the first player's rating minus the second's, the first player's score and
/// the game's weight) add up to the scores the first players made: the maximum-likelihood
/// estimate under the logistic model. `None` with no games, or when one side scored everything.
pub fn estimate_advantage(games: &[(f64, f64, f64)]) -> Option<f64> {
    let weight: f64 = games.iter().map(|g| g.2).sum();
    let total: f64 = games.iter().map(|g| g.1 * g.2).sum();
    if games.is_empty() || total <= 0.0 || total >= weight {
        return None;
    }
    // The expected total falls as the advantage grows: bisect.
    let expected = |adv: f64| -> f64 {
        games
            .iter()
            .map(|&(diff, _, w)| w / (1.0 + (-(diff - adv) / SCALE).exp()))
            .sum()
    };
    let (mut lo, mut hi) = (-2000.0, 2000.0);
    for _ in 0..80 {
        let mid = (lo + hi) / 2.0;
        if expected(mid) > total {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// The worked example of Glickman's "Example of the Glicko-2 system": a player rated 1500
    /// (RD 200, volatility 0.06) plays three opponents with τ = 0.5, and ends at 1464.06, RD
    /// 151.52, volatility 0.05999.
    #[test]
    fn the_published_worked_example() {
        let system = Glicko2 {
            tau: 0.5,
            advantage: 0.0,
            min_deviation: 0.0,
            max_deviation: 350.0,
        };
        let games = [
            (r(1400.0, 30.0), 1.0),
            (r(1550.0, 100.0), 0.0),
            (r(1700.0, 300.0), 0.0),
        ]
        .map(|(opponent, score)| Outcome {
            opponent,
            score,
            first: None,
        });
        let new = system.rate(&r(1500.0, 200.0), &games);
        // The paper works on the Glicko-2 scale to four decimals (mu' = -0.2069, phi' = 0.8722)
        // and converts those rounded values; so compare there, and on the Glicko scale within
        // what four decimals allow (0.0001 x 173.7 = 0.02). It also rounds v and delta before
        // step 5, which moves the volatility in its fifth decimal: one unit there is allowed.
        let round4 = |x: f64| (x * 1e4).round() / 1e4;
        assert_eq!(round4((new.rating - 1500.0) / SCALE), -0.2069, "{new:?}");
        assert_eq!(round4(new.deviation / SCALE), 0.8722, "{new:?}");
        assert!((new.rating - 1464.06).abs() < 0.02, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.02, "{new:?}");
        assert!((new.volatility - 0.05999).abs() <= 0.00001, "{new:?}");
    }

    #[test]
    fn the_first_player_expects_less_against_an_equal_opponent() {
        let system = Glicko2::default();
        let e = system.expected_score(&r(1500.0, 45.0), &r(1500.0, 45.0), true);
        assert!((0.28..0.32).contains(&e), "{e}");
        let e2 = system.expected_score(&r(1500.0, 45.0), &r(1500.0, 45.0), false);
        assert!((e + e2 - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_first_player_win_gains_more_than_a_second_player_win() {
        let system = Glicko2::default();
        let (a, b) = (r(1500.0, 100.0), r(1500.0, 100.0));
        let (first_won, _) = system.rate_game(&a, &b, 1.0);
        let (_, second_won) = system.rate_game(&a, &b, 0.0);
        assert!(first_won.rating - 1500.0 > second_won.rating - 1500.0);
        assert!(second_won.rating > 1500.0);
    }

    #[test]
    fn the_advantage_is_found_back_from_games() {
        // Equal players, the first scoring 30%: the advantage is ln(7/3) on the Glicko-2 scale.
        let mut games = vec![(0.0, 0.0, 1.0); 70];
        games.extend(vec![(0.0, 1.0, 1.0); 30]);
        let adv = estimate_advantage(&games).expect("mixed results");
        assert!((adv - (7.0f64 / 3.0).ln() * SCALE).abs() < 0.01, "{adv}");
        assert_eq!(estimate_advantage(&[(0.0, 1.0, 1.0)]), None);
    }

    fn game(a: &str, b: &str, score: f64, real_end: bool) -> FirstPlayerGame {
        FirstPlayerGame {
            diff: 0.0,
            score,
            pair: (a.to_string(), b.to_string()),
            real_end,
        }
    }

    /// 40 honest accounts, each playing the 12 after it (in a ring) once: 480 games, 24
    /// opponents each, the first player scoring 30%.
    fn honest() -> Vec<FirstPlayerGame> {
        let mut games = Vec::new();
        for i in 0..40 {
            for k in 1..=12 {
                let score = if games.len() % 10 < 3 { 1.0 } else { 0.0 };
                games.push(game(
                    &format!("h{i}"),
                    &format!("h{}", (i + k) % 40),
                    score,
                    true,
                ));
            }
        }
        games
    }

    /// `n` accounts of one person, each pair playing `per_pair` games the first player wins.
    fn ring(n: usize, per_pair: usize) -> Vec<FirstPlayerGame> {
        let mut games = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for _ in 0..per_pair {
                    games.push(game(&format!("r{i}"), &format!("r{j}"), 1.0, true));
                }
            }
        }
        games
    }

    #[test]
    fn farming_accounts_move_the_advantage_little_or_not_at_all() {
        let honest_games = honest();
        let honest = estimate_advantage(&weigh_games(&honest_games)).expect("mixed");
        assert!(
            (honest - (7.0f64 / 3.0).ln() * SCALE).abs() < 1.0,
            "{honest}"
        );

        // Seven accounts, 21 pairs of 10 games (the review's farm): none is established, no
        // game of theirs counts.
        let mut games = honest_games.clone();
        games.extend(ring(7, 10));
        assert_eq!(weigh_games(&games).len(), honest_games.len());

        // Twelve accounts get established among themselves; each weighs 30 games at most.
        let mut games = honest_games.clone();
        games.extend(ring(12, 10));
        let weighed = weigh_games(&games);
        let farmed: f64 = weighed[honest_games.len()..].iter().map(|g| g.2).sum();
        assert!(
            (farmed - 12.0 * ACCOUNT_WEIGHT / 2.0).abs() < 1e-6,
            "{farmed}"
        );
        let adv = estimate_advantage(&weighed).expect("mixed");
        assert!(adv < honest && adv > honest - 150.0, "{adv} vs {honest}");

        // One pair's thousand games weigh ten; games that did not end for real, nothing.
        let mut games = honest_games.clone();
        games.extend((0..1000).map(|_| game("h0", "h20", 1.0, true)));
        games.extend((0..500).map(|_| game("h1", "h21", 1.0, false)));
        let weighed = weigh_games(&games);
        let pair: f64 = weighed[honest_games.len()..].iter().map(|g| g.2).sum();
        assert!((pair - PAIR_WEIGHT).abs() < 1e-6, "{pair}");
        assert_eq!(weighed.len(), honest_games.len() + 1000);
    }

    #[test]
    fn a_real_end_is_the_boards_or_comes_after_twenty_moves() {
        assert!(real_end("no_moves", 3));
        assert!(!real_end("resigned_white", 2));
        assert!(real_end("resigned_black", 20));
        assert!(!real_end("timeout_white", 19));
        assert!(real_end("abandoned_black", 40));
        assert!(!real_end("declared", 60));
        assert!(!real_end("aborted", 0));
    }
}
