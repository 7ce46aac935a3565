//! Monte Carlo tree search with a solver (the tree internals; the facade is [`crate::search`]).
//!
//! One [`Worker`] owns one [`Tree`] and searches it alone; the engine runs one worker per
//! thread on the same root (root parallelism) and adds their root statistics up. That keeps each
//! tree lock-free and the search deterministic for a given seed and playout budget.
//!
//! - **Selection**: UCT over the children that can still matter (see below); with a
//!   [`MovePrior`], plus a bonus for the moves the learnt prior favours that fades with visits.
//! - **Expansion**: a leaf gets all its children once it has been visited
//!   [`MctsConfig::expand_after`] times, if the tree has room ([`MctsConfig::capacity`] nodes at
//!   most: memory is bounded); a full tree keeps running playouts from its leaves. With a
//!   [`MovePrior`] the children are tried in the prior's order; with a [`ValuePrior`] each
//!   starts with a few visits' head start at the learnt value ([`crate::eval::value`]).
//! - **Playouts**: [`crate::playout`]; or, with a [`LeafModel`], the learnt evaluation
//!   ([`crate::eval::model`]) on a node's first visit, when its position is in the model's range.
//! - **Solver**: every node keeps bounds `pess..=opt` of its exact result (-1, 0 or 1 for the
//!   player who moved into it); terminal positions are exact, and positions with few marbles left
//!   on edge spaces are handed to the exact solver ([`Solver::prove`]) under a small node
//!   budget. Bounds are propagated to the root (score-bounded MCTS): a node is proven when its
//!   bounds meet, and a child whose best case is no better than a sibling's guaranteed value is
//!   never selected again. A proven node counts as a playout with its exact result.
//! - **Tree reuse**: [`Tree::advance`] keeps the subtree of the position actually reached.

use crate::eval::model::Model;
use crate::eval::prior::{Inputs, Prior, softmax};
use crate::eval::value::ValueModel;
use crate::limits::Clock;
use crate::playout::{Policy, playout};
use crate::rng::Rng;
use crate::solver::Solver;
use mabula::{Color, Move, Outcome, Position, Scoring};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// The settings of the tree search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant (rewards are in 0..=1).
    pub exploration: f32,
    /// Visits a leaf needs before it is expanded (1: at once).
    pub expand_after: u32,
    /// How playouts pick moves.
    pub policy: Policy,
    /// Playouts run from a leaf each time the search reaches it (more spreads the cost of
    /// walking the tree over more playouts).
    pub leaf_playouts: u32,
    /// Whether exact results are proven and propagated (MCTS-Solver); off for plain UCT.
    pub prove: bool,
    /// Hand a leaf to the exact solver when at most this many marbles are left on edge spaces
    /// (0: never).
    pub solve_edges: u32,
    /// The solver's node budget per hand-over.
    pub solve_nodes: u64,
    /// The most nodes the tree may hold ([`MctsConfig::node_bytes`] each).
    pub capacity: usize,
    /// The learnt evaluation at the leaves (none: playouts only).
    pub leaf_model: Option<LeafModel>,
    /// The learnt move prior on expansions (none: moves in generation order, no bias).
    pub move_prior: Option<MovePrior>,
    /// The learnt value on expansions (none: new children start without visits).
    pub value_prior: Option<ValuePrior>,
}

/// The learnt move prior in the tree. When a node whose position has a number of marbles on
/// edge spaces in `edges` is expanded, the prior scores its moves: they are tried in that order,
/// and selection adds `bias x prior / visits` to each move's score, so that the moves a long
/// search would look at get looked at first and longer.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePrior {
    /// The prior.
    pub prior: Arc<Prior>,
    /// How much the prior counts in selection.
    pub bias: f32,
    /// Marbles left on edge spaces where the prior is used.
    pub edges: RangeInclusive<u32>,
}

/// The learnt value in the tree. When a node whose position has a number of marbles on edge
/// spaces in `edges` is expanded, each new child starts with `weight` visits at the value's
/// expected score for its move, as if that many playouts had already gone through it; later
/// playouts outweigh it. The head start does not count towards expanding the child.
#[derive(Clone, Debug, PartialEq)]
pub struct ValuePrior {
    /// The value.
    pub value: Arc<ValueModel>,
    /// Visits the value counts as.
    pub weight: u8,
    /// Marbles left on edge spaces where the value is used.
    pub edges: RangeInclusive<u32>,
}

/// The learnt evaluation at the leaves of the tree. The first visit of a node whose position has
/// a number of marbles on edge spaces in `edges` backs up the model's expected score for it,
/// counted as `weight` playouts, instead of one playout; later visits expand the node as usual.
/// One evaluation costs a few hundred playouts (its features run playouts of their own), so the
/// range should be where the model knows more than playouts do.
#[derive(Clone, Debug, PartialEq)]
pub struct LeafModel {
    /// The model.
    pub model: Arc<Model>,
    /// Playouts one evaluation counts as.
    pub weight: u32,
    /// Marbles left on edge spaces where the model is used (where it was fitted).
    pub edges: RangeInclusive<u32>,
    /// The deepest node, counted in moves from the root, that the model evaluates (deeper ones
    /// get playouts): a small depth makes the model a prior on the first moves of the tree.
    pub max_depth: u32,
}

impl MovePrior {
    /// The prior built into the engine (`weights/prior.bin`, both scoring modes)
    /// where it was fitted, 17 to 24 marbles left, with a bias of 4.
    pub fn embedded() -> MovePrior {
        static PRIOR: std::sync::OnceLock<Arc<Prior>> = std::sync::OnceLock::new();
        MovePrior {
            prior: PRIOR.get_or_init(|| Arc::new(Prior::embedded())).clone(),
            bias: 4.0,
            edges: 17..=24,
        }
    }
}

impl ValuePrior {
    /// The value built into the engine (`weights/value.bin`) where it was fitted, 17 to 24
    /// marbles left, worth 8 visits.
    pub fn embedded() -> ValuePrior {
        static VALUE: std::sync::OnceLock<Arc<ValueModel>> = std::sync::OnceLock::new();
        ValuePrior {
            value: VALUE
                .get_or_init(|| Arc::new(ValueModel::embedded()))
                .clone(),
            weight: 8,
            edges: 17..=24,
        }
    }
}

impl LeafModel {
    /// The model built into the engine, where its labels are (10 to 14 marbles left).
    pub fn embedded() -> LeafModel {
        LeafModel {
            model: Arc::new(Model::embedded()),
            weight: 4,
            edges: 10..=14,
            max_depth: u32::MAX,
        }
    }
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            exploration: 0.25,
            expand_after: 2,
            policy: Policy::Greedy { candidates: 2 },
            leaf_playouts: 1,
            prove: true,
            solve_edges: 7,
            solve_nodes: 20_000,
            capacity: 1 << 22,
            leaf_model: None,
            move_prior: None,
            value_prior: None,
        }
    }
}

impl MctsConfig {
    /// The memory one tree node takes: [`NODE_BYTES`], and [`LEARNT_BYTES`] more when the
    /// tree keeps what a move prior or a value gave its nodes.
    pub fn node_bytes(&self) -> usize {
        NODE_BYTES + if self.keeps_learnt() { LEARNT_BYTES } else { 0 }
    }

    /// Whether the tree keeps a [`Learnt`] beside each node (only a move prior or a value
    /// gives nodes anything to keep).
    fn keeps_learnt(&self) -> bool {
        self.move_prior.is_some() || self.value_prior.is_some()
    }

    /// Plain UCT: uniformly random playouts, no solver, expansion at once, exploration
    /// constant √2 (the textbook baseline).
    pub fn baseline() -> MctsConfig {
        MctsConfig {
            exploration: std::f32::consts::SQRT_2,
            expand_after: 1,
            policy: Policy::Random,
            leaf_playouts: 1,
            prove: false,
            solve_edges: 0,
            solve_nodes: 0,
            capacity: 1 << 22,
            leaf_model: None,
            move_prior: None,
            value_prior: None,
        }
    }
}

/// The size of one tree node in bytes.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// The size of what a move prior and a value give one node, kept beside the nodes.
pub const LEARNT_BYTES: usize = std::mem::size_of::<Learnt>();

// Level 10 uses no prior or value: its nodes are the 16 bytes below, four to a cache line.
const _: () = assert!(NODE_BYTES == 16);

/// One node: the move into it, statistics for the player who made that move, bounds of its exact
/// result, and where its children are.
#[derive(Copy, Clone, Debug)]
struct Node {
    visits: u32,
    /// Half points won by the player who moved into this node (win 2, draw 1).
    wins: u32,
    /// Index of the first child; 0 while the node is a leaf (the root is never a child).
    first: u32,
    count: u8,
    mv: u8,
    /// The exact result is at least this (-1 loss, 0 draw, 1 win, for the player who moved).
    pess: i8,
    /// The exact result is at most this.
    opt: i8,
}

/// What the learnt move prior and value gave one node, in an array beside the nodes that only a
/// tree searched with a prior or a value has (so that a node stays 16 bytes without them).
#[derive(Copy, Clone, Debug, Default)]
struct Learnt {
    /// The move prior's share for this move, out of 255 (0 without a prior).
    prior: u8,
    /// Visits the learnt value gave this node when it was created (included in its `visits`).
    head_start: u8,
}

impl Node {
    const fn new(mv: Move) -> Node {
        Node {
            visits: 0,
            wins: 0,
            first: 0,
            count: 0,
            mv: mv.code(),
            pess: -1,
            opt: 1,
        }
    }

    fn is_proven(&self) -> bool {
        self.pess == self.opt
    }

    fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.count as usize
    }

    fn mv(&self) -> Move {
        Move::from_code(self.mv).unwrap_or(Move::PASS)
    }
}

/// What the search knows about one move of the root.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStats {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u64,
    /// Half points won by the side to move at the root (win 2, draw 1).
    pub wins: u64,
    /// Its exact result for the side to move is at least this (-1, 0, 1).
    pub pess: i8,
    /// And at most this.
    pub opt: i8,
    /// The most visited line after it (the move itself first).
    pub pv: Vec<Move>,
}

/// A search tree for one root position.
pub struct Tree {
    nodes: Vec<Node>,
    /// What the prior and the value gave each node, index for index with `nodes`; `None` when
    /// the search uses neither.
    learnt: Option<Vec<Learnt>>,
    root: Position,
    scoring: Scoring,
    capacity: usize,
}

impl Tree {
    /// An empty tree for `root`.
    pub fn new(root: Position, scoring: Scoring, capacity: usize) -> Tree {
        Tree::with_learnt(root, scoring, capacity, false)
    }

    /// An empty tree for `root` that keeps a [`Learnt`] beside each node when `learnt`.
    fn with_learnt(root: Position, scoring: Scoring, capacity: usize, learnt: bool) -> Tree {
        let capacity = capacity.max(1 << 8);
        let mut nodes = Vec::with_capacity(capacity.min(1 << 16));
        nodes.push(Node::new(Move::PASS));
        Tree {
            nodes,
            learnt: learnt.then(|| vec![Learnt::default()]),
            root,
            scoring,
            capacity,
        }
    }

    /// The root position.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Playouts through the root.
    pub fn visits(&self) -> u64 {
        u64::from(self.nodes[0].visits)
    }

    /// Bounds `(pess, opt)` of the root's exact result for the side to move.
    pub fn root_bounds(&self) -> (i8, i8) {
        let r = &self.nodes[0];
        (-r.opt, -r.pess)
    }

    /// Moves the root to `pos`, keeping the subtree below it when `pos` is at most three moves
    /// below the current root and the subtree has at most `max_copy` nodes; otherwise starts an
    /// empty tree. Returns whether anything was kept.
    pub fn advance(&mut self, pos: &Position, scoring: Scoring, max_copy: usize) -> bool {
        let learnt = self.learnt.is_some();
        if scoring != self.scoring {
            *self = Tree::with_learnt(*pos, scoring, self.capacity, learnt);
            return false;
        }
        if *pos == self.root {
            return true;
        }
        let found = self.find(0, self.root, pos, 3);
        match found.and_then(|idx| self.copy_subtree(idx, max_copy)) {
            Some((nodes, learnt)) => {
                self.nodes = nodes;
                self.learnt = learnt;
                self.root = *pos;
                true
            }
            None => {
                *self = Tree::with_learnt(*pos, scoring, self.capacity, learnt);
                false
            }
        }
    }

    fn find(&self, idx: usize, at: Position, target: &Position, depth: u32) -> Option<usize> {
        if at == *target {
            return Some(idx);
        }
        if depth == 0 {
            return None;
        }
        for c in self.nodes[idx].children() {
            let mut next = at;
            next.play_unchecked(self.nodes[c].mv());
            if let Some(found) = self.find(c, next, target, depth - 1) {
                return Some(found);
            }
        }
        None
    }

    /// The subtree under `idx` (and what was learnt of its nodes), renumbered into a fresh
    /// arena (breadth first), if it has at most `max_copy` nodes.
    fn copy_subtree(
        &self,
        idx: usize,
        max_copy: usize,
    ) -> Option<(Vec<Node>, Option<Vec<Learnt>>)> {
        let mut out = Vec::with_capacity(self.capacity.min(1 << 16));
        let mut learnt = self.learnt.as_ref().map(|l| vec![l[idx]]);
        let mut root = self.nodes[idx];
        root.mv = Move::PASS.code();
        out.push(root);
        let mut next = 0;
        while next < out.len() {
            let node = out[next];
            if node.count > 0 {
                if out.len() + node.count as usize > max_copy {
                    return None;
                }
                let first = out.len();
                out.extend_from_slice(&self.nodes[node.children()]);
                if let (Some(to), Some(from)) = (learnt.as_mut(), self.learnt.as_ref()) {
                    to.extend_from_slice(&from[node.children()]);
                }
                out[next].first = first as u32;
            }
            next += 1;
        }
        Some((out, learnt))
    }

    /// Statistics of every move of the root (empty before the first search).
    pub fn root_stats(&self) -> Vec<ChildStats> {
        let root = &self.nodes[0];
        root.children()
            .map(|c| {
                let n = &self.nodes[c];
                ChildStats {
                    mv: n.mv(),
                    visits: u64::from(n.visits),
                    wins: u64::from(n.wins),
                    pess: n.pess,
                    opt: n.opt,
                    pv: self.line_from(c),
                }
            })
            .collect()
    }

    /// The line of most visited (or proven best) children from node `idx`, its own move first.
    fn line_from(&self, mut idx: usize) -> Vec<Move> {
        let mut line = vec![self.nodes[idx].mv()];
        while self.nodes[idx].count > 0 && line.len() < 48 {
            let children = self.nodes[idx].children();
            let key = |&c: &usize| {
                let n = &self.nodes[c];
                (n.pess, n.visits)
            };
            match children.max_by_key(key) {
                Some(c) if self.nodes[c].visits > 0 || self.nodes[c].is_proven() => {
                    line.push(self.nodes[c].mv());
                    idx = c;
                }
                _ => break,
            }
        }
        line
    }
}

/// How an expansion went.
enum Expansion {
    /// The node has children now.
    Children,
    /// The node is proven now.
    Proven,
    /// The game is over here (and proofs are off).
    Over,
    /// No room left in the tree.
    Full,
}

/// A thread's search: a tree, random numbers and a solver for hand-overs.
pub struct Worker {
    /// The tree, kept between searches for reuse.
    pub tree: Tree,
    rng: Rng,
    solver: Option<Solver>,
    config: MctsConfig,
    /// Playouts made by the last [`Worker::run`].
    pub playouts: u64,
    /// Playouts still allowed in the current run.
    left: u64,
    /// `1/n` and `1/sqrt(n)` for small visit counts: selection runs over every child of every
    /// node on the way down, and divisions and square roots would dominate it.
    inverse: Box<[(f32, f32)]>,
}

/// Visit counts below this use the table of inverses.
const INVERSES: usize = 1 << 12;

impl Worker {
    /// A worker for `root`; `solver` takes the hand-overs (none: no hand-over).
    pub fn new(
        root: Position,
        scoring: Scoring,
        config: MctsConfig,
        seed: u64,
        solver: Option<Solver>,
    ) -> Worker {
        Worker {
            tree: Tree::with_learnt(root, scoring, config.capacity, config.keeps_learnt()),
            rng: Rng::new(seed),
            solver,
            config,
            playouts: 0,
            left: 0,
            inverse: (0..INVERSES)
                .map(|n| {
                    let n = n.max(1) as f32;
                    (1.0 / n, 1.0 / n.sqrt())
                })
                .collect(),
        }
    }

    /// Reseeds the random numbers.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Searches until `budget` playouts are made, the clock runs out, or the root is proven.
    pub fn run(&mut self, clock: &Clock, budget: u64) {
        self.playouts = 0;
        let mut descents = 0u64;
        while self.playouts < budget {
            if self.config.prove && self.tree.nodes[0].is_proven() {
                break;
            }
            if descents.is_multiple_of(4) && clock.expired() {
                break;
            }
            descents += 1;
            self.left = budget - self.playouts;
            self.playouts += self.simulate(clock);
        }
    }

    /// One descent: down the tree, maybe expand, play out, back up. Returns the playouts made
    /// (a proven or finished node counts as one).
    fn simulate(&mut self, clock: &Clock) -> u64 {
        let mut path = [0u32; 64];
        let mut len = 1;
        let mut pos = self.tree.root;
        let mut idx = 0;
        let prove = self.config.prove;
        // Half points won by White and by Black, and how many playouts they come from.
        let (points, count) = loop {
            let node = self.tree.nodes[idx];
            if prove && node.is_proven() {
                break (
                    points(proven_outcome(node.pess, pos.side_to_move().other())),
                    1,
                );
            }
            if node.count == 0 {
                if node.visits == 0
                    && idx != 0
                    && let Some(value) = self.model_value(&pos, len as u32 - 1)
                {
                    break value;
                }
                let head_start = self.tree.learnt.as_ref().map_or(0, |l| l[idx].head_start);
                if node.visits - u32::from(head_start) + 1 < self.config.expand_after && idx != 0 {
                    break self.playouts_from(&pos);
                }
                match self.expand(idx, &pos, clock) {
                    Expansion::Children => {}
                    Expansion::Proven => {
                        self.propagate(&path[..len]);
                        continue;
                    }
                    Expansion::Over => break (points(pos.scores(self.tree.scoring).outcome()), 1),
                    Expansion::Full => break self.playouts_from(&pos),
                }
            }
            let c = self.select(idx);
            pos.play_unchecked(self.tree.nodes[c].mv());
            path[len] = c as u32;
            len += 1;
            idx = c;
        };
        let mut mover = self.tree.root.side_to_move().other();
        for &i in &path[..len] {
            let n = &mut self.tree.nodes[i as usize];
            n.visits += count;
            n.wins += points[mover as usize];
            mover = mover.other();
        }
        u64::from(count)
    }

    /// The leaf playouts from `pos`: half points of White and Black, and their number.
    fn playouts_from(&mut self, pos: &Position) -> ([u32; 2], u32) {
        let k = self
            .config
            .leaf_playouts
            .clamp(1, self.left.min(1024) as u32);
        let mut total = [0, 0];
        for _ in 0..k {
            let p = points(playout(
                *pos,
                self.tree.scoring,
                self.config.policy,
                &mut self.rng,
            ));
            total[0] += p[0];
            total[1] += p[1];
        }
        (total, k)
    }

    /// The learnt evaluation of `pos`, `depth` moves below the root, as `weight` playouts (half
    /// points of White and Black, and their number), when a model is set and `pos` is in its
    /// range.
    fn model_value(&self, pos: &Position, depth: u32) -> Option<([u32; 2], u32)> {
        let leaf = self.config.leaf_model.as_ref()?;
        let edges = pos.edges_left();
        if !leaf.edges.contains(&edges) || depth > leaf.max_depth || pos.is_game_over() {
            return None;
        }
        let w = leaf.weight.max(1);
        let expected = leaf.model.expected(pos, self.tree.scoring);
        let mine = ((2 * w) as f32 * expected)
            .round()
            .clamp(0.0, (2 * w) as f32) as u32;
        let mut points = [0; 2];
        points[pos.side_to_move() as usize] = mine;
        points[pos.side_to_move().other() as usize] = 2 * w - mine;
        Some((points, w))
    }

    /// The child of `idx` to descend into.
    fn select(&self, idx: usize) -> usize {
        let nodes = &self.tree.nodes;
        let parent = nodes[idx];
        // The best result the side to move is sure of; children that cannot beat it are skipped.
        let floor = -parent.opt;
        let explore = self.config.exploration * (parent.visits.max(1) as f32).ln().sqrt();
        let bias = self
            .config
            .move_prior
            .as_ref()
            .map_or(0.0, |p| p.bias / 255.0);
        let learnt = self.tree.learnt.as_deref().unwrap_or_default();
        let mut best = parent.first as usize;
        let mut best_score = f32::NEG_INFINITY;
        for i in parent.children() {
            let n = &nodes[i];
            if self.config.prove && n.opt <= floor {
                continue;
            }
            if n.visits == 0 {
                return i;
            }
            let (inv, inv_sqrt) = match self.inverse.get(n.visits as usize) {
                Some(&pair) => pair,
                None => {
                    let v = n.visits as f32;
                    (1.0 / v, 1.0 / v.sqrt())
                }
            };
            let prior = learnt.get(i).map_or(0.0, |l| f32::from(l.prior));
            let score = (0.5 * n.wins as f32 + bias * prior) * inv + explore * inv_sqrt;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    fn expand(&mut self, idx: usize, pos: &Position, clock: &Clock) -> Expansion {
        let moves = pos.legal_moves();
        let mover = pos.side_to_move().other();
        let edges = pos.edges_left();
        if moves.is_empty() {
            if !self.config.prove {
                return Expansion::Over;
            }
            let v = pos.scores(self.tree.scoring).margin(mover).signum() as i8;
            let n = &mut self.tree.nodes[idx];
            (n.pess, n.opt) = (v, v);
            return Expansion::Proven;
        }
        if self.config.prove
            && idx != 0
            && edges <= self.config.solve_edges
            && let Some(solver) = self.solver.as_mut()
        {
            let budget = clock.clone().with_nodes(self.config.solve_nodes);
            if let Some(v) = solver.prove(pos, budget) {
                let n = &mut self.tree.nodes[idx];
                (n.pess, n.opt) = (-v as i8, -v as i8);
                return Expansion::Proven;
            }
        }
        let nodes = &mut self.tree.nodes;
        if nodes.len() + moves.len() > self.tree.capacity {
            return Expansion::Full;
        }
        let first = nodes.len();
        let scoring = self.tree.scoring;
        let prior = (self.config.move_prior.as_ref())
            .filter(|p| p.edges.contains(&edges) && p.prior.knows(scoring));
        let value = (self.config.value_prior.as_ref())
            .filter(|v| v.edges.contains(&edges) && v.value.knows(scoring));
        nodes.extend(moves.iter().map(|&m| Node::new(m)));
        // A worker with a prior or a value has a tree that keeps what they give.
        if let Some(learnt) = self.tree.learnt.as_mut() {
            learnt.resize(nodes.len(), Learnt::default());
        }
        if (prior.is_some() || value.is_some())
            && let Some(learnt) = self.tree.learnt.as_mut()
        {
            let me = pos.side_to_move();
            let inputs: Vec<Inputs> = moves
                .iter()
                .map(|&m| {
                    let mut after = *pos;
                    after.play_unchecked(m);
                    Inputs::of(&after, me, scoring)
                })
                .collect();
            if let Some(v) = value {
                let w = u32::from(v.weight);
                let children = nodes[first..].iter_mut().zip(&mut learnt[first..]);
                for ((n, l), x) in children.zip(&inputs) {
                    n.visits = w;
                    n.wins = ((2 * w) as f32 * v.value.expected(x)).round() as u32;
                    l.head_start = v.weight;
                }
            }
            if let Some(p) = prior {
                let scores: Vec<f32> = inputs.iter().map(|x| p.prior.score(x)).collect();
                for (l, share) in learnt[first..].iter_mut().zip(softmax(&scores)) {
                    l.prior = (255.0 * share).round() as u8;
                }
                // Children in the prior's order (a stable sort: ties keep generation order).
                let mut children: Vec<(Node, Learnt)> = nodes[first..]
                    .iter()
                    .copied()
                    .zip(learnt[first..].iter().copied())
                    .collect();
                children.sort_by_key(|(_, l)| std::cmp::Reverse(l.prior));
                for (k, (n, l)) in children.into_iter().enumerate() {
                    (nodes[first + k], learnt[first + k]) = (n, l);
                }
            }
        }
        nodes[idx].first = first as u32;
        nodes[idx].count = moves.len() as u8;
        Expansion::Children
    }

    /// Recomputes the bounds of the ancestors along `path` after its last node was proven.
    fn propagate(&mut self, path: &[u32]) {
        let nodes = &mut self.tree.nodes;
        for &p in path.iter().rev().skip(1) {
            let p = p as usize;
            let (mut max_pess, mut max_opt) = (-1i8, -1i8);
            for c in nodes[p].children() {
                max_pess = max_pess.max(nodes[c].pess);
                max_opt = max_opt.max(nodes[c].opt);
            }
            let (pess, opt) = (-max_opt, -max_pess);
            if (pess, opt) == (nodes[p].pess, nodes[p].opt) {
                break;
            }
            (nodes[p].pess, nodes[p].opt) = (pess, opt);
        }
    }
}

/// Half points of White and Black for an outcome.
fn points(outcome: Outcome) -> [u32; 2] {
    let mut p = [0; 2];
    match outcome {
        Outcome::Win(c) => p[c as usize] = 2,
        Outcome::Draw => p = [1, 1],
    }
    p
}

/// The outcome of a proven node worth `value` to `mover`, the player who moved into it.
fn proven_outcome(value: i8, mover: Color) -> Outcome {
    match value {
        1 => Outcome::Win(mover),
        0 => Outcome::Draw,
        _ => Outcome::Win(mover.other()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use mabula::deal;

    fn late(seed: u64, left: u32) -> Position {
        let mut pos = deal::random(seed, Color::White);
        let mut rng = Rng::new(seed);
        while pos.edges_left() > left && !pos.is_game_over() {
            let n = pos.count_moves();
            pos.play_unchecked(pos.nth_move(rng.below(n)));
        }
        pos
    }

    #[test]
    fn the_same_seed_and_budget_give_the_same_tree() {
        let pos = deal::random(1, Color::White);
        let run = || {
            let mut w = Worker::new(pos, Scoring::Largest, MctsConfig::default(), 7, None);
            w.run(&Limits::none().start(), 3000);
            w.tree.root_stats()
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn visits_add_up_and_every_root_move_gets_a_child() {
        let pos = deal::random(2, Color::Black);
        let mut w = Worker::new(pos, Scoring::Product, MctsConfig::baseline(), 3, None);
        w.run(&Limits::none().start(), 2000);
        let stats = w.tree.root_stats();
        assert_eq!(stats.len(), pos.legal_moves().len());
        assert_eq!(stats.iter().map(|s| s.visits).sum::<u64>(), w.tree.visits());
        assert!(stats.iter().all(|s| s.wins <= 2 * s.visits));
    }

    #[test]
    fn a_small_endgame_is_proven_and_agrees_with_the_solver() {
        for seed in 0..6 {
            let pos = late(seed, 6);
            let config = MctsConfig {
                solve_edges: 0,
                ..MctsConfig::default()
            };
            let mut w = Worker::new(pos, Scoring::Largest, config, seed, None);
            w.run(&Limits::none().start(), 2_000_000);
            let (pess, opt) = w.tree.root_bounds();
            assert_eq!(pess, opt, "{pos} is proven");
            let mut solver = Solver::new(Scoring::Largest, 4);
            let exact = solver.prove(&pos, Limits::none().start()).expect("solved");
            assert_eq!(i32::from(pess), exact, "{pos}");
        }
    }

    /// A model sure that the side to move wins when an odd number of marbles is left on edge
    /// spaces and loses when an even number is: after a move from an even count, the side that
    /// moved at the root loses at every depth.
    fn parity_decides() -> Model {
        use crate::eval::features::{FEATURES, SIDE_FEATURES};
        let odd = 2 + 2 * SIDE_FEATURES;
        let mut model = Model::default();
        let mut set = |block: usize, feature: usize, w: f32| {
            model.weights[block * FEATURES + feature] = w;
        };
        let blocks = 2 * crate::eval::model::PHASES * 3;
        for block in 0..blocks {
            match block % 3 {
                0 => {
                    set(block, 0, 20.0);
                    set(block, odd, -40.0);
                }
                2 => {
                    set(block, 0, -20.0);
                    set(block, odd, 40.0);
                }
                _ => {}
            }
        }
        model
    }

    #[test]
    fn the_leaf_models_values_reach_the_root_only_in_its_range_and_depth() {
        let pos = late(9, 14);
        let run = |edges: RangeInclusive<u32>, max_depth: u32| {
            let config = MctsConfig {
                solve_edges: 0,
                leaf_model: Some(LeafModel {
                    model: Arc::new(parity_decides()),
                    weight: 3,
                    edges,
                    max_depth,
                }),
                ..MctsConfig::default()
            };
            let mut w = Worker::new(pos, Scoring::Largest, config, 1, None);
            w.run(&Limits::none().start(), 600);
            let stats = w.tree.root_stats();
            let visits: u64 = stats.iter().map(|s| s.visits).sum();
            let wins: u64 = stats.iter().map(|s| s.wins).sum();
            wins as f64 / (2 * visits) as f64
        };
        // Every position below the root is lost for the side that moved at the root.
        assert_eq!(pos.edges_left() % 2, 0);
        assert!(run(0..=24, u32::MAX) < 0.01);
        // Out of range, playouts decide, and they are not that one-sided.
        assert!(run(20..=24, u32::MAX) > 0.1);
        // Below its depth, playouts decide too.
        assert!(run(0..=24, 1) > 0.1);
        assert_eq!(run(0..=24, 0), run(25..=25, u32::MAX));
    }

    // Fitted priors and values need the fitting code.
    #[cfg(feature = "learn")]
    #[test]
    fn the_move_prior_orders_the_moves_and_draws_visits_to_its_favourite() {
        use crate::learn::prior::{Root, fit};
        let pos = deal::random(6, Color::White);
        let moves = pos.legal_moves();
        // A prior fitted to one long search that looked only at the last move.
        let favourite = *moves.iter().last().unwrap();
        let root = Root {
            moves: moves
                .iter()
                .map(|&mv| {
                    let mut after = pos;
                    after.play_unchecked(mv);
                    let x = Inputs::of(&after, Color::White, Scoring::Largest);
                    (x, f32::from(u8::from(mv == favourite)))
                })
                .collect(),
        };
        let prior = Arc::new(fit(&[root], 200, 0.0, |_, _| {}));
        let visits_of_favourite = |bias: Option<f32>| {
            let config = MctsConfig {
                move_prior: bias.map(|bias| MovePrior {
                    prior: prior.clone(),
                    bias,
                    edges: 0..=24,
                }),
                ..MctsConfig::default()
            };
            let mut w = Worker::new(pos, Scoring::Largest, config, 1, None);
            w.run(&Limits::none().start(), 2_000);
            let stats = w.tree.root_stats();
            let top = stats.iter().map(|s| s.visits).max().unwrap();
            let fav = stats.iter().find(|s| s.mv == favourite).unwrap();
            (stats[0].mv, fav.visits, top)
        };
        let score = |mv: Move| {
            let mut after = pos;
            after.play_unchecked(mv);
            prior.score_of(&after, Color::White, Scoring::Largest)
        };
        let (first, plain, _) = visits_of_favourite(None);
        assert!(score(first) < score(favourite));
        let (first, biased, top) = visits_of_favourite(Some(50.0));
        // With the prior its favourite (or a move it cannot tell from it) is tried first, and
        // the favourite is searched far more than without.
        assert!((score(first) - score(favourite)).abs() < 1e-4);
        assert!(biased > 4 * plain.max(1), "{biased} against {plain}");
        assert!(2 * biased > top, "{biased} against {top}");
    }

    #[cfg(feature = "learn")]
    #[test]
    fn the_value_gives_new_children_a_head_start_at_its_score() {
        use crate::learn::value::{Sample, fit};
        let pos = deal::random(4, Color::White);
        let moves = pos.legal_moves();
        // A value fitted to games in which the last move won and every other move lost.
        let favourite = *moves.iter().last().unwrap();
        let samples: Vec<Sample> = moves
            .iter()
            .map(|&mv| {
                let mut after = pos;
                after.play_unchecked(mv);
                Sample {
                    x: Inputs::of(&after, Color::White, Scoring::Largest),
                    target: f32::from(u8::from(mv == favourite)),
                }
            })
            .collect();
        let value = Arc::new(fit(&samples, 300, 0.0, |_, _| {}));
        let config = MctsConfig {
            value_prior: Some(ValuePrior {
                value,
                weight: 20,
                edges: 0..=24,
            }),
            ..MctsConfig::default()
        };
        // The head start does not count towards expansion: after one playout only the root is
        // expanded, as without it.
        let mut w = Worker::new(pos, Scoring::Largest, config.clone(), 1, None);
        w.run(&Limits::none().start(), 1);
        assert_eq!(w.tree.len(), 1 + moves.len());
        let mut w = Worker::new(pos, Scoring::Largest, config, 1, None);
        w.run(&Limits::none().start(), 500);
        let stats = w.tree.root_stats();
        // Every root move got 20 visits ahead of the 500 playouts; the favourite starts as a
        // near-certain win and draws the most of them.
        let head_starts = 20 * stats.len() as u64;
        assert_eq!(
            stats.iter().map(|s| s.visits).sum::<u64>(),
            500 + head_starts
        );
        let best = stats.iter().max_by_key(|s| s.visits).unwrap();
        assert_eq!(best.mv, favourite);
        assert!(stats.iter().all(|s| s.visits >= 20));
    }

    #[test]
    fn what_the_prior_and_the_value_gave_the_nodes_stays_beside_them_through_reuse() {
        assert_eq!(MctsConfig::default().node_bytes(), 16);
        let config = MctsConfig {
            move_prior: Some(MovePrior::embedded()),
            value_prior: Some(ValuePrior::embedded()),
            ..MctsConfig::default()
        };
        assert_eq!(config.node_bytes(), 16 + LEARNT_BYTES);
        let pos = deal::random(4, Color::White);
        let mut w = Worker::new(pos, Scoring::Largest, config, 1, None);
        let kept = |tree: &Tree| tree.learnt.as_ref().map(Vec::len);
        w.run(&Limits::none().start(), 5_000);
        assert_eq!(kept(&w.tree), Some(w.tree.len()));
        // The root's children are in the prior's order, and each has the value's head start.
        let learnt = w.tree.learnt.as_ref().expect("kept");
        let shares: Vec<u8> = w.tree.nodes[0]
            .children()
            .map(|c| learnt[c].prior)
            .collect();
        assert!(shares.windows(2).all(|p| p[0] >= p[1]), "{shares:?}");
        assert!(shares[0] > shares[shares.len() - 1], "{shares:?}");
        let children = w.tree.nodes[0].children();
        assert!(children.clone().all(|c| learnt[c].head_start == 8));
        assert!(children.clone().all(|c| w.tree.nodes[c].visits >= 8));
        // Two moves on, the kept subtree keeps what its nodes were given.
        let best = (w.tree.root_stats().into_iter())
            .max_by_key(|s| s.visits)
            .expect("moves");
        let next = pos.play(best.mv).and_then(|p| p.play(best.pv[1])).unwrap();
        assert!(w.tree.advance(&next, Scoring::Largest, usize::MAX));
        assert_eq!(kept(&w.tree), Some(w.tree.len()));
        let learnt = w.tree.learnt.as_ref().expect("kept");
        assert!(w.tree.nodes[0].children().any(|c| learnt[c].prior > 0));
        w.run(&Limits::none().start(), 2_000);
        assert_eq!(kept(&w.tree), Some(w.tree.len()));
        // A new tree for another position keeps them too; a plain search keeps nothing.
        assert!(
            !w.tree
                .advance(&deal::random(5, Color::White), Scoring::Largest, 0)
        );
        assert_eq!(kept(&w.tree), Some(1));
        let plain = Worker::new(pos, Scoring::Largest, MctsConfig::default(), 1, None);
        assert_eq!(kept(&plain.tree), None);
    }

    #[test]
    fn a_full_tree_stops_growing_but_keeps_searching() {
        let pos = deal::random(3, Color::White);
        let config = MctsConfig {
            capacity: 300,
            ..MctsConfig::default()
        };
        let mut w = Worker::new(pos, Scoring::Largest, config, 1, None);
        w.run(&Limits::none().start(), 5000);
        assert!(w.tree.len() <= 300);
        assert_eq!(w.tree.visits(), 5000);
    }

    #[test]
    fn advancing_keeps_the_subtree_of_the_move_played() {
        let pos = deal::random(4, Color::White);
        let mut w = Worker::new(pos, Scoring::Largest, MctsConfig::default(), 1, None);
        w.run(&Limits::none().start(), 20_000);
        let best = w
            .tree
            .root_stats()
            .into_iter()
            .max_by_key(|s| s.visits)
            .expect("moves");
        let reply = best.pv.get(1).copied().expect("a reply");
        let next = pos
            .play(best.mv)
            .and_then(|p| p.play(reply))
            .expect("legal");
        assert!(w.tree.advance(&next, Scoring::Largest, usize::MAX));
        assert_eq!(w.tree.root(), &next);
        assert!(w.tree.visits() > 0);
        let stats = w.tree.root_stats();
        assert!(stats.iter().map(|s| s.visits).sum::<u64>() <= w.tree.visits());
        let other = deal::random(5, Color::White);
        assert!(!w.tree.advance(&other, Scoring::Largest, usize::MAX));
        assert_eq!(w.tree.visits(), 0);
    }
}
