//! An experiment beside the linear model: a small multilayer perceptron (one hidden layer of
//! rectified units, then a softmax over loss, draw and win) over the same features, one network
//! per scoring mode, with the clock as an input instead of weights per phase. It answers whether
//! the linear model's agreement is limited by its form or by its features; it is not shipped.

use super::model::Sample;
use crate::eval::features::{FEATURES, Features};
use crate::rng::Rng;
use mabula::Scoring;

/// Hidden units.
pub const HIDDEN: usize = 32;

/// One network.
#[derive(Clone, Debug)]
struct Net {
    /// Input to hidden weights, `HIDDEN x FEATURES` (the first feature is the constant 1).
    w1: Vec<f32>,
    /// Hidden to output weights, `3 x (HIDDEN + 1)` (the last column is the bias).
    w2: Vec<f32>,
}

/// A network per scoring mode.
#[derive(Clone, Debug)]
pub struct Mlp {
    nets: [Net; 2],
}

impl Net {
    fn new(rng: &mut Rng) -> Net {
        let scale1 = (2.0 / FEATURES as f64).sqrt();
        let scale2 = (1.0 / HIDDEN as f64).sqrt();
        let mut normal = |s: f64| ((rng.unit() + rng.unit() + rng.unit() - 1.5) * 2.0 * s) as f32;
        Net {
            w1: (0..HIDDEN * FEATURES).map(|_| normal(scale1)).collect(),
            w2: (0..3 * (HIDDEN + 1)).map(|_| normal(scale2)).collect(),
        }
    }

    fn forward(&self, x: &Features, hidden: &mut [f32; HIDDEN]) -> [f32; 3] {
        for (h, row) in hidden.iter_mut().zip(self.w1.chunks_exact(FEATURES)) {
            *h = row.iter().zip(x).map(|(w, v)| w * v).sum::<f32>().max(0.0);
        }
        let z: [f32; 3] = std::array::from_fn(|c| {
            let row = &self.w2[c * (HIDDEN + 1)..(c + 1) * (HIDDEN + 1)];
            row[HIDDEN]
                + row[..HIDDEN]
                    .iter()
                    .zip(hidden.iter())
                    .map(|(w, h)| w * h)
                    .sum::<f32>()
        });
        let top = z.iter().copied().fold(f32::MIN, f32::max);
        let e = z.map(|v| (v - top).exp());
        let sum: f32 = e.iter().sum();
        e.map(|v| v / sum)
    }
}

impl Mlp {
    /// Loss, draw and win probabilities.
    pub fn probabilities(&self, x: &Features, scoring: Scoring) -> [f32; 3] {
        let mut hidden = [0f32; HIDDEN];
        self.nets[usize::from(scoring == Scoring::Product)].forward(x, &mut hidden)
    }
}

/// Fits the networks by mini-batch Adam on the cross-entropy with a small L2 penalty.
pub fn fit_mlp(samples: &[Sample], epochs: usize, rate: f32, seed: u64) -> Mlp {
    let mut rng = Rng::new(seed);
    let mut nets = [Net::new(&mut rng), Net::new(&mut rng)];
    for (si, net) in nets.iter_mut().enumerate() {
        let mut data: Vec<&Sample> = samples
            .iter()
            .filter(|s| usize::from(s.scoring == Scoring::Product) == si)
            .collect();
        let sizes = [net.w1.len(), net.w2.len()];
        let mut m = [vec![0f32; sizes[0]], vec![0f32; sizes[1]]];
        let mut v = m.clone();
        let mut step = 0;
        for _ in 0..epochs {
            for i in (1..data.len()).rev() {
                data.swap(i, rng.below(i as u32 + 1) as usize);
            }
            for batch in data.chunks(128) {
                let mut g1 = vec![0f32; sizes[0]];
                let mut g2 = vec![0f32; sizes[1]];
                let mut hidden = [0f32; HIDDEN];
                for s in batch {
                    let p = net.forward(&s.features, &mut hidden);
                    let mut back = [0f32; HIDDEN];
                    for (c, pc) in p.iter().enumerate() {
                        let err = pc - f32::from(c == s.class);
                        let row = c * (HIDDEN + 1);
                        for j in 0..HIDDEN {
                            g2[row + j] += err * hidden[j];
                            back[j] += err * net.w2[row + j];
                        }
                        g2[row + HIDDEN] += err;
                    }
                    for j in 0..HIDDEN {
                        if hidden[j] > 0.0 {
                            let row = &mut g1[j * FEATURES..(j + 1) * FEATURES];
                            for (g, x) in row.iter_mut().zip(&s.features) {
                                *g += back[j] * x;
                            }
                        }
                    }
                }
                step += 1;
                let n = batch.len() as f32;
                let (c1, c2) = (1.0 - 0.9f32.powi(step), 1.0 - 0.999f32.powi(step));
                for (k, (w, g)) in [(&mut net.w1, &g1), (&mut net.w2, &g2)]
                    .into_iter()
                    .enumerate()
                {
                    for i in 0..w.len() {
                        let gi = g[i] / n + 1e-4 * w[i];
                        m[k][i] = 0.9 * m[k][i] + 0.1 * gi;
                        v[k][i] = 0.999 * v[k][i] + 0.001 * gi * gi;
                        w[i] -= rate * (m[k][i] / c1) / ((v[k][i] / c2).sqrt() + 1e-8);
                    }
                }
            }
        }
    }
    Mlp { nets }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::features::features;
    use mabula::Color;

    #[test]
    fn a_network_learns_a_rule_that_is_not_linear_in_the_features() {
        // Wins when the two sides' largest groups differ by at most one, losses otherwise: no
        // linear model separates this, a hidden layer does.
        let mut rng = Rng::new(5);
        let mut samples = Vec::new();
        for game in 0..300 {
            let mut pos = mabula::deal::random(game, Color::White);
            for _ in 0..14 {
                let n = pos.count_moves();
                pos.play_unchecked(pos.nth_move(rng.below(n)));
            }
            let s = pos.scores(Scoring::Largest);
            let close = s.white.abs_diff(s.black) <= 1;
            samples.push(Sample {
                features: features(&pos, Scoring::Largest),
                phase: 0,
                scoring: Scoring::Largest,
                class: if close { 2 } else { 0 },
            });
        }
        let mlp = fit_mlp(&samples, 150, 0.01, 1);
        let agreed = samples
            .iter()
            .filter(|s| {
                let p = mlp.probabilities(&s.features, Scoring::Largest);
                (p[2] > p[0]) == (s.class == 2)
            })
            .count();
        assert!(agreed as f64 > 0.9 * samples.len() as f64, "{agreed}");
    }
}
