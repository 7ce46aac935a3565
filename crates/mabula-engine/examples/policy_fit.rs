//! How well a playout policy tells a position's moves apart, and a search for better weights.
//!
//! ```text
//! cargo run --release -p mabula-engine --example policy_fit -- largest|product SIBLINGS.txt...
//! ```
//!
//! `SIBLINGS.txt` come from the `siblings` example (every move of a position with the exact
//! result it keeps). For every position where the moves do not all keep the same result, each
//! move's position is played out `P` times (env, default 32) with the policy, and two measures are
//! taken: `keep`, the share of positions where the move with the best playout score keeps the best
//! result, and `order`, the share of pairs of moves with different results that the playout
//! scores put in the right order. The policy: at each step, the best of `K` random moves (env,
//! default 2) by a linear score `W` (env, comma-separated) over the features of `features`.
//! With `FIT` set, a coordinate search improves `W` on the even positions and reports the odd
//! ones beside it.

use mabula::{Bitboard, Color, Move, Position, Scoring};
use mabula_engine::playout::{contacts, pairs, small_clusters};
use mabula_engine::rng::Rng;

const FEATURES: usize = 9;
/// The features of `pos` for `me`, who just moved.
fn features(pos: &Position, me: Color, scoring: Scoring) -> [i32; FEATURES] {
    let mine = (pos.marbles(me) & Bitboard::FIELD).0;
    let theirs = (pos.marbles(me.other()) & Bitboard::FIELD).0;
    [
        pairs(mine) as i32,
        pairs(theirs) as i32,
        small_clusters(mine),
        small_clusters(theirs),
        contacts(mine, theirs) as i32,
        pos.with_side_to_move(me).count_pushes() as i32,
        pos.with_side_to_move(me.other()).count_pushes() as i32,
        scoring.score_of(pos.marbles(me)) as i32,
        scoring.score_of(pos.marbles(me.other())) as i32,
    ]
}

#[derive(Clone, Copy, Debug)]
struct Policy {
    k: u32,
    w: [i32; FEATURES],
}

fn score(p: &Policy, pos: &Position, me: Color, scoring: Scoring) -> i32 {
    features(pos, me, scoring)
        .iter()
        .zip(&p.w)
        .map(|(f, w)| f * w)
        .sum()
}

/// Plays `pos` out with `p`; the score for `me` (1 win, 1/2 draw, 0 loss).
fn playout(mut pos: Position, me: Color, scoring: Scoring, p: &Policy, rng: &mut Rng) -> f64 {
    loop {
        let n = pos.count_moves();
        if n == 0 {
            break;
        }
        let mover = pos.side_to_move();
        let mut best = pos;
        best.play_unchecked(pos.nth_move(rng.below(n)));
        if n > 1 && p.k > 1 {
            let mut best_score = score(p, &best, mover, scoring);
            for _ in 1..p.k {
                let mut next = pos;
                next.play_unchecked(pos.nth_move(rng.below(n)));
                let s = score(p, &next, mover, scoring);
                if s > best_score {
                    best_score = s;
                    best = next;
                }
            }
        }
        pos = best;
    }
    match pos.scores(scoring).margin(me).signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// A report line for a policy.
type Report<'a> = Box<dyn Fn(&Policy) -> String + 'a>;
/// The measure the fit raises.
type Objective<'a> = Box<dyn Fn(&Policy) -> f64 + 'a>;

struct Case {
    pos: Position,
    moves: Vec<(Move, i32)>,
}

/// (keep, order) over `cases`.
fn measure(cases: &[&Case], scoring: Scoring, p: &Policy, playouts: u32) -> (f64, f64) {
    let per_case = |i: usize, case: &Case| -> (f64, f64) {
        let me = case.pos.side_to_move();
        let values: Vec<f64> = case
            .moves
            .iter()
            .enumerate()
            .map(|(j, &(mv, _))| {
                let mut rng = Rng::new((i as u64) << 16 | j as u64);
                let mut next = case.pos;
                next.play_unchecked(mv);
                if playouts == 0 {
                    return f64::from(score(p, &next, me, scoring));
                }
                (0..playouts)
                    .map(|_| playout(next, me, scoring, p, &mut rng))
                    .sum::<f64>()
            })
            .collect();
        let best = case.moves.iter().map(|m| m.1).max().unwrap();
        let chosen = (0..values.len())
            .max_by(|&a, &b| values[a].total_cmp(&values[b]).then(b.cmp(&a)))
            .unwrap();
        let keep = f64::from(u8::from(case.moves[chosen].1 == best));
        let (mut right, mut all) = (0.0, 0.0);
        for a in 0..values.len() {
            for b in 0..values.len() {
                if case.moves[a].1 > case.moves[b].1 {
                    all += 1.0;
                    right += if values[a] > values[b] {
                        1.0
                    } else if values[a] == values[b] {
                        0.5
                    } else {
                        0.0
                    };
                }
            }
        }
        (keep, right / all)
    };
    let threads = 2;
    let sums: Vec<(f64, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut sum = (0.0, 0.0);
                    for (i, case) in cases.iter().enumerate().skip(t).step_by(threads) {
                        let (k, o) = per_case(i, case);
                        sum.0 += k;
                        sum.1 += o;
                    }
                    sum
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let n = cases.len() as f64;
    (
        sums.iter().map(|s| s.0).sum::<f64>() / n,
        sums.iter().map(|s| s.1).sum::<f64>() / n,
    )
}

/// Label mode: how well the playout score of labelled positions orders them by their exact
/// result (the share of pairs with different results put in the right order), on the even and
/// the odd labels.
fn measure_labels(
    labels: &[(Position, i32)],
    scoring: Scoring,
    p: &Policy,
    playouts: u32,
) -> [f64; 2] {
    let values: Vec<f64> = std::thread::scope(|s| {
        let chunks: Vec<_> = labels
            .chunks(labels.len().div_ceil(2))
            .enumerate()
            .map(|(c, chunk)| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .enumerate()
                        .map(|(i, (pos, _))| {
                            let mut rng = Rng::new((c as u64) << 32 | i as u64);
                            let me = pos.side_to_move();
                            (0..playouts)
                                .map(|_| playout(*pos, me, scoring, p, &mut rng))
                                .sum::<f64>()
                        })
                        .collect::<Vec<f64>>()
                })
            })
            .collect();
        chunks.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut out = [0.0; 2];
    for (half, o) in out.iter_mut().enumerate() {
        let mut by_result: [Vec<f64>; 3] = Default::default();
        for (i, (_, r)) in labels.iter().enumerate().skip(half).step_by(2) {
            by_result[(r + 1) as usize].push(values[i]);
        }
        let (mut right, mut all) = (0.0, 0.0);
        for hi in 1..3 {
            for lo in 0..hi {
                for a in &by_result[hi] {
                    for b in &by_result[lo] {
                        all += 1.0;
                        right += if a > b {
                            1.0
                        } else if a == b {
                            0.5
                        } else {
                            0.0
                        };
                    }
                }
            }
        }
        *o = right / all;
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scoring: Scoring = args[0].parse().expect("scoring");
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    for file in &args[1..] {
        if file.ends_with(".mlb") {
            let read = mabula_engine::learn::labels::read_labels(
                std::fs::File::open(file).expect("labels"),
            )
            .expect("labels");
            labels.extend(
                read.iter()
                    .filter(|l| l.scoring == scoring)
                    .map(|l| (l.position, l.result())),
            );
            continue;
        }
        for line in std::fs::read_to_string(file).expect("siblings").lines() {
            let (pos, moves) = line.split_once('\t').expect("a tab");
            let moves: Vec<(Move, i32)> = moves
                .split(' ')
                .map(|m| {
                    let (mv, r) = m.split_once(':').expect("move:result");
                    (mv.parse().expect("move"), r.parse().expect("result"))
                })
                .collect();
            if moves.iter().any(|m| m.1 != moves[0].1) {
                cases.push(Case {
                    pos: pos.parse().expect("position"),
                    moves,
                });
            }
        }
    }
    let env = |name: &str, default: &str| std::env::var(name).unwrap_or(default.to_string());
    let playouts: u32 = env("P", "32").parse().unwrap();
    let default_w = match scoring {
        Scoring::Largest => "2,-1,0,0,0,0,0,0,0",
        Scoring::Product => "0,0,1,-1,0,0,0,0,0",
    };
    let mut p = Policy {
        k: env("K", "2").parse().unwrap(),
        w: [0; FEATURES],
    };
    for (w, s) in p.w.iter_mut().zip(env("W", default_w).split(',')) {
        *w = s.trim().parse().unwrap();
    }
    let random = Policy {
        k: 1,
        w: [0; FEATURES],
    };
    // Each mode: a report line for a policy, and the objective the search raises (on the first
    // half of the data only).
    let (report, objective): (Report, Objective) = if labels.is_empty() {
        let train: Vec<&Case> = cases.iter().step_by(2).collect();
        let test: Vec<&Case> = cases.iter().skip(1).step_by(2).collect();
        println!(
            "{scoring}: {} positions whose moves differ ({} train, {} test), {playouts} playouts a move",
            cases.len(),
            train.len(),
            test.len()
        );
        let (train2, test2) = (train.clone(), test);
        (
            Box::new(move |p| {
                let a = measure(&train, scoring, p, playouts);
                let b = measure(&test2, scoring, p, playouts);
                format!(
                    "train keep {:.1}% order {:.1}%, test keep {:.1}% order {:.1}%",
                    100.0 * a.0,
                    100.0 * a.1,
                    100.0 * b.0,
                    100.0 * b.1
                )
            }),
            Box::new(move |p| {
                let m = measure(&train2, scoring, p, playouts);
                m.0 + m.1
            }),
        )
    } else {
        println!(
            "{scoring}: {} labelled positions, {playouts} playouts each",
            labels.len()
        );
        let labels2 = labels.clone();
        (
            Box::new(move |p| {
                let [a, b] = measure_labels(&labels, scoring, p, playouts);
                format!("order {:.1}% (even) {:.1}% (odd)", 100.0 * a, 100.0 * b)
            }),
            Box::new(move |p| measure_labels(&labels2, scoring, p, playouts)[0]),
        )
    };
    let show = |p: &Policy| println!("K={} W={:?}: {}", p.k, p.w, report(p));
    show(&random);
    show(&p);
    if std::env::var("FIT").is_err() {
        return;
    }
    // Coordinate search: one step of one weight, or of K, at a time, while it pays.
    let mut best = objective(&p);
    loop {
        let mut steps: Vec<Policy> = Vec::new();
        for f in 0..FEATURES {
            for step in [1, -1] {
                let mut q = p;
                q.w[f] += step;
                steps.push(q);
            }
        }
        steps.push(Policy { k: p.k + 1, ..p });
        steps.push(Policy {
            k: p.k.saturating_sub(1).max(1),
            ..p
        });
        let improved = steps.into_iter().fold(false, |improved, q| {
            let m = objective(&q);
            if m > best {
                best = m;
                p = q;
                show(&p);
                true
            } else {
                improved
            }
        });
        if !improved {
            break;
        }
    }
}
