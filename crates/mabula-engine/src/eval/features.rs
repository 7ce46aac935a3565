//! Whole-board features of a position, seen from the side to move.
//!
//! The score of Mabula is global (the largest group, or the product of all groups), so the
//! features describe groups and what can still join them: for each side the three largest
//! groups, how many groups there are and of what sizes, the product score, the marbles in the
//! field and on edge spaces, how many edge marbles can still move and how far, pairs of
//! neighbouring marbles, and how many edge marbles could land next to a marble of their own
//! colour, and one push ahead: the best each side can do for itself with its next push, and the
//! worst it can do to the other (a push shifts marbles and can split groups). Then the clock:
//! marbles left on edge spaces, and whether the count is odd (with no passes, the side to move
//! makes the last push exactly when it is); hinges on the differences in largest group and
//! product; and the share of wins and draws in a few random and greedy playouts (seeded by the
//! position), which see how the rest of the game tends to go. The playouts are most of the cost
//! of the features, and roughly doubled the model's agreement with the solver over the majority
//! guess.
//!
//! Every feature is scaled to about 0..1, so that one learning rate suits them all.

use crate::playout::{Policy, playout};
use crate::rng::Rng;
use mabula::{Bitboard, Color, Move, MoveList, Outcome, Position, Scoring, Square};

/// Features per side.
pub const SIDE_FEATURES: usize = 18;

/// The number of features (the first is a constant 1).
pub const FEATURES: usize = 1 + 2 * SIDE_FEATURES + GLOBAL_FEATURES;

/// Features of the whole position (the clock, and differences between the sides).
pub const GLOBAL_FEATURES: usize = 11;

/// Playouts of each policy behind the playout features.
pub const PLAYOUTS: u32 = 128;

/// The names of the features, in order (for reports).
pub fn names() -> Vec<String> {
    const SIDE: [&str; SIDE_FEATURES] = [
        "largest",
        "second",
        "third",
        "groups",
        "singles",
        "threes",
        "fours_up",
        "ln_product",
        "field",
        "edge",
        "movable",
        "mobility",
        "pairs",
        "joinable",
        "best_largest",
        "best_ln_product",
        "their_least_largest",
        "their_least_ln_product",
    ];
    let mut out = vec!["bias".to_string()];
    for side in ["me", "them"] {
        out.extend(SIDE.iter().map(|n| format!("{side}.{n}")));
    }
    out.extend(
        [
            "left",
            "left_odd",
            "edge_diff",
            "largest_ahead",
            "largest_behind",
            "ln_product_ahead",
            "ln_product_behind",
            "random_wins",
            "random_draws",
            "greedy_wins",
            "greedy_draws",
        ]
        .map(String::from),
    );
    out
}

/// The feature vector of a position.
pub type Features = [f32; FEATURES];

/// Field squares not on file `a` (so that a shift west does not wrap).
const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;

/// The field squares an edge marble on `sq` can land on right now (squares 1 to its room of
/// its line).
fn landing(pos: &Position, sq: Square) -> Bitboard {
    let room = pos.room_at(sq) as usize;
    match Move::push(sq, 1).and_then(Move::line) {
        Some(line) if room > 0 => line[..room].iter().copied().collect(),
        _ => Bitboard::EMPTY,
    }
}

/// The natural logarithm of a product score (0 for no marble in the field, like a score of 1).
fn ln_product(marbles: Bitboard) -> f32 {
    (Scoring::Product.score_of(marbles).max(1) as f32).ln()
}

/// One push ahead for `color` (as if it were to move): its best largest group and product
/// after one of its pushes, and the smallest largest group and product it can leave the other
/// side with (a push shifts the marbles in its line, and can split groups). Without a push,
/// the position as it stands.
pub fn one_push_ahead(pos: &Position, color: Color) -> [u32; 4] {
    let turn = pos.with_side_to_move(color);
    let mut list = MoveList::new();
    turn.pushes_into(&mut list);
    let (me, them) = (color as usize, color.other() as usize);
    let now = [pos.marbles(color), pos.marbles(color.other())];
    let score = |m: [Bitboard; 2]| {
        [
            Scoring::Largest.score_of(m[0]),
            Scoring::Product.score_of(m[0]),
            Scoring::Largest.score_of(m[1]),
            Scoring::Product.score_of(m[1]),
        ]
    };
    if list.is_empty() {
        return score(now);
    }
    let mut best = [0, 0, u32::MAX, u32::MAX];
    for &mv in list.iter() {
        let after = turn.marbles_after(mv);
        let s = score([after[me], after[them]]);
        best = [
            best[0].max(s[0]),
            best[1].max(s[1]),
            best[2].min(s[2]),
            best[3].min(s[3]),
        ];
    }
    best
}

fn side(pos: &Position, color: Color, out: &mut [f32]) {
    let mine = pos.marbles(color);
    let field = mine & Bitboard::FIELD;
    let edge = mine & Bitboard::EDGE;
    let mut sizes: Vec<u32> = pos.groups(color).map(|g| g.count()).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let size = |i: usize| sizes.get(i).copied().unwrap_or(0) as f32;
    let count = |f: &dyn Fn(u32) -> bool| sizes.iter().filter(|&&s| f(s)).count() as f32;
    let ln_product = ln_product(mine);
    let ahead = one_push_ahead(pos, color);
    let ln = |score: u32| (score.max(1) as f32).ln() / 4.4;
    let (mut movable, mut mobility, mut joinable) = (0, 0, 0);
    for sq in edge {
        let room = pos.room_at(sq);
        if room > 0 {
            movable += 1;
            mobility += room;
            if !(landing(pos, sq).grow() & field).is_empty() {
                joinable += 1;
            }
        }
    }
    let f = field.0;
    let pairs = (f & (f << 1) & NOT_FILE_A).count_ones() + (f & (f << 8)).count_ones();
    let values = [
        size(0) / 12.0,
        size(1) / 12.0,
        size(2) / 12.0,
        sizes.len() as f32 / 12.0,
        count(&|s| s == 1) / 12.0,
        count(&|s| s == 3) / 4.0,
        count(&|s| s >= 4) / 4.0,
        ln_product / 4.4,
        field.count() as f32 / 12.0,
        edge.count() as f32 / 12.0,
        movable as f32 / 12.0,
        mobility as f32 / 36.0,
        pairs as f32 / 16.0,
        joinable as f32 / 12.0,
        ahead[0] as f32 / 12.0,
        ln(ahead[1]),
        ahead[2] as f32 / 12.0,
        ln(ahead[3]),
    ];
    out.copy_from_slice(&values);
}

/// The share of `PLAYOUTS` playouts with `policy` from `pos` that the side to move wins and
/// draws under `scoring`, seeded by the position, so that a position always has the same
/// features.
fn playout_shares(pos: &Position, scoring: Scoring, policy: Policy) -> [f32; 2] {
    let mut rng = Rng::new(pos.hash() ^ u64::from(scoring == Scoring::Product));
    let me = pos.side_to_move();
    let (mut wins, mut draws) = (0, 0);
    for _ in 0..PLAYOUTS {
        match playout(*pos, scoring, policy, &mut rng) {
            Outcome::Draw => draws += 1,
            o if o.winner() == Some(me) => wins += 1,
            _ => {}
        }
    }
    [wins as f32, draws as f32].map(|n| n / PLAYOUTS as f32)
}

/// The features of `pos` for its side to move, under `scoring` (only the playouts depend on
/// it).
pub fn features(pos: &Position, scoring: Scoring) -> Features {
    let mut out = [0f32; FEATURES];
    out[0] = 1.0;
    let me = pos.side_to_move();
    side(pos, me, &mut out[1..1 + SIDE_FEATURES]);
    side(
        pos,
        me.other(),
        &mut out[1 + SIDE_FEATURES..1 + 2 * SIDE_FEATURES],
    );
    let left = pos.edges_left();
    let mine = (pos.marbles(me) & Bitboard::EDGE).count() as f32;
    let theirs = (pos.marbles(me.other()) & Bitboard::EDGE).count() as f32;
    let g = 1 + 2 * SIDE_FEATURES;
    out[g] = left as f32 / 24.0;
    out[g + 1] = (left % 2) as f32;
    out[g + 2] = (mine - theirs) / 12.0;
    // Linear in the features, the model cannot see how far apart two sides are in either
    // direction: hinges can.
    let (m, t) = (1, 1 + SIDE_FEATURES);
    out[g + 3] = (out[m] - out[t]).max(0.0);
    out[g + 4] = (out[t] - out[m]).max(0.0);
    out[g + 5] = (out[m + 7] - out[t + 7]).max(0.0);
    out[g + 6] = (out[t + 7] - out[m + 7]).max(0.0);
    let random = playout_shares(pos, scoring, Policy::Random);
    let greedy = playout_shares(pos, scoring, Policy::Greedy { candidates: 3 });
    out[g + 7..g + 11].copy_from_slice(&[random[0], random[1], greedy[0], greedy[1]]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula::Position;

    /// Group sizes by a plain flood fill over a grid read from the position string: an
    /// independent computation of what the bitboards give.
    fn sizes_by_flood_fill(pos: &Position, color: char) -> Vec<u32> {
        let text = pos.to_string();
        let board = text.split(' ').next().unwrap();
        let mut grid = [['.'; 8]; 8];
        for (row, rank) in board.split('/').enumerate() {
            let mut file = 0;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    grid[7 - row][file] = c;
                    file += 1;
                }
            }
        }
        let mut seen = [[false; 8]; 8];
        let mut sizes = Vec::new();
        for r in 1..7 {
            for f in 1..7 {
                if grid[r][f] != color || seen[r][f] {
                    continue;
                }
                let mut stack = vec![(r, f)];
                seen[r][f] = true;
                let mut n = 0;
                while let Some((r, f)) = stack.pop() {
                    n += 1;
                    for (dr, df) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
                        let (nr, nf) = ((r as i32 + dr) as usize, (f as i32 + df) as usize);
                        if (1..7).contains(&nr)
                            && (1..7).contains(&nf)
                            && grid[nr][nf] == color
                            && !seen[nr][nf]
                        {
                            seen[nr][nf] = true;
                            stack.push((nr, nf));
                        }
                    }
                }
                sizes.push(n);
            }
        }
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    #[test]
    fn group_features_agree_with_a_flood_fill_over_the_position_string() {
        let mut rng = crate::rng::Rng::new(11);
        for game in 0..200 {
            let mut pos = mabula::deal::random(game, Color::White);
            for _ in 0..rng.below(25) {
                let n = pos.count_moves();
                if n == 0 {
                    break;
                }
                pos.play_unchecked(pos.nth_move(rng.below(n)));
            }
            let f = features(&pos, Scoring::Largest);
            let me = pos.side_to_move().char();
            let them = pos.side_to_move().other().char();
            for (offset, c) in [(1, me), (1 + SIDE_FEATURES, them)] {
                let sizes = sizes_by_flood_fill(&pos, c);
                let at = |i: usize| sizes.get(i).copied().unwrap_or(0) as f32 / 12.0;
                assert_eq!(f[offset], at(0), "{pos}");
                assert_eq!(f[offset + 1], at(1), "{pos}");
                assert_eq!(f[offset + 2], at(2), "{pos}");
                assert_eq!(f[offset + 3], sizes.len() as f32 / 12.0);
                let singles = sizes.iter().filter(|&&s| s == 1).count() as f32;
                assert_eq!(f[offset + 4], singles / 12.0);
                let product: u32 = sizes.iter().product();
                assert!((f[offset + 7] * 4.4 - (product as f32).ln()).abs() < 1e-4);
                assert_eq!(f[offset + 8], sizes.iter().sum::<u32>() as f32 / 12.0);
            }
        }
    }

    #[test]
    fn mobility_counts_the_pushes_of_each_side() {
        let mut rng = crate::rng::Rng::new(12);
        for game in 0..100 {
            let mut pos = mabula::deal::random(game, Color::Black);
            for _ in 0..rng.below(24) {
                let n = pos.count_moves();
                if n == 0 {
                    break;
                }
                pos.play_unchecked(pos.nth_move(rng.below(n)));
            }
            let f = features(&pos, Scoring::Largest);
            let mover_pushes = pos.count_pushes();
            let other = pos.with_side_to_move(pos.side_to_move().other());
            assert_eq!(f[12], mover_pushes as f32 / 36.0);
            assert_eq!(f[12 + SIDE_FEATURES], other.count_pushes() as f32 / 36.0);
            assert_eq!(f.len(), names().len());
        }
    }

    #[test]
    fn one_push_ahead_agrees_with_playing_every_push() {
        let mut rng = crate::rng::Rng::new(13);
        for game in 0..100 {
            let mut pos = mabula::deal::random(game, Color::White);
            for _ in 0..rng.below(24) {
                let n = pos.count_moves();
                if n == 0 {
                    break;
                }
                pos.play_unchecked(pos.nth_move(rng.below(n)));
            }
            for color in Color::BOTH {
                let turn = pos.with_side_to_move(color);
                let children: Vec<Position> = turn
                    .legal_moves()
                    .iter()
                    .filter(|m| !m.is_pass())
                    .map(|&m| turn.play(m).unwrap())
                    .collect();
                let mut expected = [
                    pos.score(color, Scoring::Largest),
                    pos.score(color, Scoring::Product),
                    pos.score(color.other(), Scoring::Largest),
                    pos.score(color.other(), Scoring::Product),
                ];
                if !children.is_empty() {
                    let of = |c: Color, s: Scoring| children.iter().map(move |p| p.score(c, s));
                    expected = [
                        of(color, Scoring::Largest).max().unwrap(),
                        of(color, Scoring::Product).max().unwrap(),
                        of(color.other(), Scoring::Largest).min().unwrap(),
                        of(color.other(), Scoring::Product).min().unwrap(),
                    ];
                }
                assert_eq!(one_push_ahead(&pos, color), expected, "{pos}");
            }
        }
    }

    #[test]
    fn the_opening_setup_has_no_groups_and_all_marbles_on_edges() {
        let pos: Position = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"
            .parse()
            .unwrap();
        let f = features(&pos, Scoring::Largest);
        assert_eq!(f[0], 1.0);
        assert_eq!(f[1], 0.0);
        assert_eq!(f[10], 1.0);
        let g = 1 + 2 * SIDE_FEATURES;
        assert_eq!(f[g], 1.0);
        assert_eq!(f[g + 1], 0.0);
    }
}
