//! Backward stages: labels for positions earlier than the exact solver reaches cheaply.
//!
//! A [`ShallowSearch`] searches a position a few pushes deep (negamax with alpha-beta over the
//! expected score, win 1, draw 1/2, loss 0) and evaluates its leaves with a model fitted on the
//! later stage; a finished game at a leaf is scored exactly. The label is the most likely result
//! of the leaf at the end of the principal line, seen from the root (so it is a result-only
//! label: -1, 0 or 1), with [`Source::Search`](super::labels::Source::Search). Fitting a model
//! on such labels and searching again from two pushes earlier walks the labels back towards the
//! deal, one stage at a time (as Engel did for Reversi from exact endgames).
//!
//! Like every label, a search label follows from its position alone: the model's features are
//! seeded by the position, and the moves are searched in their fixed order.

use crate::eval::model::{Model, argmax};
use mabula::{Move, Position, Scoring};

/// A search a few pushes deep with a model at its leaves.
pub struct ShallowSearch<'a> {
    model: &'a Model,
    scoring: Scoring,
    /// Pushes searched below the root.
    depth: u32,
    /// Leaves evaluated by the model in the last search.
    pub evaluations: u64,
}

/// What a shallow search says about a position.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchValue {
    /// The expected score of the side to move with best play by both sides (win 1, draw 1/2).
    pub expected: f32,
    /// Loss, draw and win probabilities for the side to move at the end of the principal line.
    pub probabilities: [f32; 3],
    /// The best move ([`Move::PASS`] when passing is forced).
    pub best: Move,
}

impl SearchValue {
    /// The most likely result for the side to move: -1, 0 or 1.
    pub fn result(&self) -> i32 {
        argmax(self.probabilities) as i32 - 1
    }

    /// A result drawn from the probabilities by `u`, uniform in 0..1: over many positions the
    /// drawn results keep the model's uncertainty, where the most likely result would turn a
    /// 60% win into a certain one (and the next stage, fitted on it, more certain still).
    pub fn drawn_result(&self, u: f64) -> i32 {
        let [loss, draw, _] = self.probabilities.map(f64::from);
        if u < loss {
            -1
        } else if u < loss + draw {
            0
        } else {
            1
        }
    }
}

impl<'a> ShallowSearch<'a> {
    /// A search `depth` pushes deep (a forced pass does not count: it does not move the clock)
    /// whose leaves `model` evaluates.
    pub fn new(model: &'a Model, scoring: Scoring, depth: u32) -> ShallowSearch<'a> {
        ShallowSearch {
            model,
            scoring,
            depth,
            evaluations: 0,
        }
    }

    /// Searches `pos` (which must have a move to make).
    pub fn search(&mut self, pos: &Position) -> SearchValue {
        self.evaluations = 0;
        let stop = pos.edges_left().saturating_sub(self.depth);
        self.negamax(pos, stop, 0.0, 1.0)
    }

    fn negamax(&mut self, pos: &Position, stop: u32, mut alpha: f32, beta: f32) -> SearchValue {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let margin = pos.scores(self.scoring).margin(pos.side_to_move());
            let class = (margin.signum() + 1) as usize;
            let mut probabilities = [0.0; 3];
            probabilities[class] = 1.0;
            return SearchValue {
                expected: class as f32 / 2.0,
                probabilities,
                best: Move::PASS,
            };
        }
        if pos.edges_left() <= stop {
            self.evaluations += 1;
            let p = self.model.probabilities(pos, self.scoring);
            return SearchValue {
                expected: p[2] + 0.5 * p[1],
                probabilities: p,
                best: Move::PASS,
            };
        }
        let mut best: Option<SearchValue> = None;
        for &mv in moves.iter() {
            let mut child = *pos;
            child.play_unchecked(mv);
            let v = self.negamax(&child, stop, 1.0 - beta, 1.0 - alpha);
            let mine = SearchValue {
                expected: 1.0 - v.expected,
                probabilities: [v.probabilities[2], v.probabilities[1], v.probabilities[0]],
                best: mv,
            };
            if best.is_none_or(|b| mine.expected > b.expected) {
                best = Some(mine);
                alpha = alpha.max(mine.expected);
                if alpha >= beta {
                    break;
                }
            }
        }
        best.expect("a position with moves has a best one")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use mabula::{Color, deal};

    /// Negamax without pruning, for comparison.
    fn plain(model: &Model, scoring: Scoring, pos: &Position, stop: u32) -> f32 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let margin = pos.scores(scoring).margin(pos.side_to_move());
            return (margin.signum() + 1) as f32 / 2.0;
        }
        if pos.edges_left() <= stop {
            return model.expected(pos, scoring);
        }
        moves
            .iter()
            .map(|&mv| {
                let mut child = *pos;
                child.play_unchecked(mv);
                1.0 - plain(model, scoring, &child, stop)
            })
            .fold(f32::MIN, f32::max)
    }

    #[test]
    fn a_drawn_result_follows_the_probabilities() {
        let value = SearchValue {
            expected: 0.65,
            probabilities: [0.2, 0.3, 0.5],
            best: Move::PASS,
        };
        let results: Vec<i32> = [0.0, 0.19, 0.21, 0.49, 0.51, 0.99]
            .iter()
            .map(|&u| value.drawn_result(u))
            .collect();
        assert_eq!(results, [-1, -1, 0, 0, 1, 1]);
        assert_eq!(value.result(), 1);
    }

    #[test]
    fn pruning_does_not_change_the_value_of_a_search() {
        let model = Model::embedded();
        let mut rng = Rng::new(21);
        for game in 0..3 {
            let mut pos = deal::random(game, Color::White);
            while pos.edges_left() > 13 {
                pos.play_unchecked(pos.nth_move(rng.below(pos.count_moves())));
            }
            let mut search = ShallowSearch::new(&model, Scoring::Largest, 2);
            let v = search.search(&pos);
            let want = plain(&model, Scoring::Largest, &pos, 11);
            assert!((v.expected - want).abs() < 1e-6, "{pos}: {v:?} {want}");
            assert!(pos.is_legal(v.best));
            assert!(search.evaluations > 0);
            let mut child = pos;
            child.play_unchecked(v.best);
            let after = ShallowSearch::new(&model, Scoring::Largest, 1).search(&child);
            assert!((1.0 - after.expected - v.expected).abs() < 1e-6);
        }
    }

    #[test]
    fn a_search_to_the_end_of_the_game_is_exact() {
        let model = Model::default();
        let mut rng = Rng::new(22);
        for game in 0..20 {
            let mut pos = deal::random(game, Color::Black);
            while pos.edges_left() > 3 {
                pos.play_unchecked(pos.nth_move(rng.below(pos.count_moves())));
            }
            if pos.is_game_over() {
                continue;
            }
            let v = ShallowSearch::new(&model, Scoring::Product, 30).search(&pos);
            let exact = crate::solver::Solver::new(Scoring::Product, 1)
                .prove(&pos, crate::limits::Limits::none().start())
                .expect("solved");
            assert_eq!(v.result(), exact, "{pos}");
        }
    }
}
