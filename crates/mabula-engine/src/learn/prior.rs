//! Fitting the move prior ([`crate::eval::prior`]) to the visit shares of long searches, and what
//! both table models ([`crate::eval::prior::Prior`] and [`crate::eval::value::ValueModel`]) share
//! for fitting: the gradient of their inputs, Adam, and writing their weights files; also the
//! reader of the long-search files the `distill` example writes.

use crate::eval::prior::{COUNTS, Inputs, MAGIC, Prior, VERSION, WEIGHTS, softmax};
use mabula::{Move, Position};

impl Inputs {
    /// Adds `err` times these inputs to `grad` where [`Inputs::dot`] reads its weights.
    pub(super) fn add_to(&self, grad: &mut [f32], mode: usize, at: usize, err: f32) {
        for &i in &self.lines {
            grad[mode + i as usize] += err;
        }
        for (g, c) in grad[at..at + COUNTS].iter_mut().zip(&self.counts) {
            *g += err * c;
        }
    }
}

/// Full-batch Adam (rate 0.02) with an L2 penalty, as both table models ([`Prior`] and
/// [`crate::eval::value::ValueModel`]) are fitted.
pub(super) struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

impl Adam {
    pub(super) fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
        }
    }

    /// One step on `weights` from `grad`, the gradient summed over `n` examples.
    pub(super) fn step(&mut self, weights: &mut [f32], grad: &[f32], n: f32, l2: f32) {
        let (b1, b2, rate) = (0.9f32, 0.999f32, 0.02f32);
        self.steps += 1;
        let (c1, c2) = (1.0 - b1.powi(self.steps), 1.0 - b2.powi(self.steps));
        let (m, v) = (&mut self.m, &mut self.v);
        for i in 0..weights.len() {
            let g = grad[i] / n + l2 * weights[i];
            if g == 0.0 && m[i] == 0.0 {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            weights[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// The weights file of a table model (what `eval::prior::read_weights` reads).
pub(super) fn write_weights(magic: &[u8; 7], weights: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 4 * weights.len());
    out.extend_from_slice(magic);
    out.push(VERSION);
    for w in weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

impl Prior {
    /// The weights file of this prior.
    pub fn to_bytes(&self) -> Vec<u8> {
        write_weights(&MAGIC, &self.weights)
    }
}

/// A long search: the position, and each move with its visits and expected score.
pub type Search = (Position, Vec<(Move, f64, f64)>);

/// One long search of the `distill` example's files: the position, a tab, then every move as
/// `move:visits:score` (the score is the search's expected score for the mover). `None` when
/// the line is not one.
pub fn parse_search(line: &str) -> Option<Search> {
    let (pos, moves) = line.split_once('\t')?;
    let moves = moves
        .split(' ')
        .map(|m| {
            let mut parts = m.split(':');
            let mv = parts.next()?.parse().ok()?;
            let visits = parts.next()?.parse().ok()?;
            let score = parts.next()?.parse().ok()?;
            Some((mv, visits, score))
        })
        .collect::<Option<_>>()?;
    Some((pos.parse().ok()?, moves))
}

/// One root of a long search: the inputs of each move's position and its share of the visits.
#[derive(Clone, Debug)]
pub struct Root {
    /// Each move: its inputs and its share of the root's visits (the shares sum to 1).
    pub moves: Vec<(Inputs, f32)>,
}

/// The mean cross-entropy of the visit shares of `roots` under `prior`.
pub fn cross_entropy(prior: &Prior, roots: &[Root]) -> f64 {
    let mut loss = 0.0;
    for root in roots {
        let scores: Vec<f32> = root.moves.iter().map(|(x, _)| prior.score(x)).collect();
        for (p, (_, share)) in softmax(&scores).iter().zip(&root.moves) {
            loss -= f64::from(*share) * f64::from(p.max(1e-9).ln());
        }
    }
    loss / roots.len().max(1) as f64
}

/// Fits a prior to the visit shares of `roots` by full-batch Adam on the cross-entropy, with an
/// L2 penalty `l2` on every weight; `report(epoch, loss)` is called now and then.
pub fn fit(roots: &[Root], epochs: usize, l2: f32, mut report: impl FnMut(usize, f64)) -> Prior {
    let mut prior = Prior::default();
    let mut adam = Adam::new(WEIGHTS);
    let n = roots.len().max(1) as f32;
    for epoch in 1..=epochs {
        let mut grad = vec![0f32; WEIGHTS];
        for root in roots {
            let scores: Vec<f32> = root.moves.iter().map(|(x, _)| prior.score(x)).collect();
            for (p, (x, share)) in softmax(&scores).iter().zip(&root.moves) {
                let (mode, at) = Prior::offsets(x);
                x.add_to(&mut grad, mode, at, p - share);
            }
        }
        adam.step(&mut prior.weights, &grad, n, l2);
        if epoch == 1 || epoch % 50 == 0 || epoch == epochs {
            report(epoch, cross_entropy(&prior, roots));
        }
    }
    Prior::with_weights(prior.weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::prior::PriorError;
    use mabula::{Color, Scoring, deal};

    #[test]
    fn weights_survive_their_file_and_a_fit_learns_a_preference() {
        let pos = deal::random(9, Color::Black);
        let moves: Vec<Inputs> = pos
            .legal_moves()
            .iter()
            .map(|&mv| {
                let mut after = pos;
                after.play_unchecked(mv);
                Inputs::of(&after, Color::Black, Scoring::Largest)
            })
            .collect();
        // The long search put all its visits on the first move.
        let root = Root {
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, x)| (x.clone(), f32::from(u8::from(i == 0))))
                .collect(),
        };
        let before = cross_entropy(&Prior::default(), std::slice::from_ref(&root));
        let prior = fit(std::slice::from_ref(&root), 100, 0.0, |_, _| {});
        assert!(cross_entropy(&prior, &[root]) < before);
        // Fitted on largest-group roots only: it knows that mode and leaves product alone.
        assert!(prior.knows(Scoring::Largest) && !prior.knows(Scoring::Product));
        assert!(!Prior::default().knows(Scoring::Largest));
        assert_eq!(Prior::from_bytes(&prior.to_bytes()).unwrap(), prior);
        assert_eq!(
            Prior::from_bytes(b"MBPRIOR\x01"),
            Err(PriorError::Length(8))
        );
    }
}
