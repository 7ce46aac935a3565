//! A quick match between two player specifications, for tuning (the full tool is `mabula match`).
//!
//! ```text
//! cargo run --release -p mabula-engine --example duel -- A B [GAMES=100] [largest|product] [JOBS=2] [SEED=1]
//! ```
//!
//! Prints A's results, over all games, over the games A started and over those it answered.
//! With `FIRST_ONLY` set in the environment, A plays only the first-player games (as White, one at a time).
//! Settings come from the environment (see `tweak`), and `A_SLOW=LOW-HIGH:MS` gives A more time
//! in one phase of the game (see `Phased`); the same with `B_`.

use mabula::{Color, Move, Position, Scoring};
use mabula_engine::arena::{
    EnginePlayer, MatchPlan, MatchStats, Player, PlayerError, PlayerSpec, play_game, run_match,
};
use mabula_engine::eval::model::Model;
use mabula_engine::eval::prior::Prior;
use mabula_engine::eval::value::ValueModel;
use mabula_engine::limits::Limits;
use mabula_engine::mcts::{MovePrior, ValuePrior};
use mabula_engine::playout::Policy;
use mabula_engine::{Engine, EngineConfig};
use std::sync::Mutex;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a: PlayerSpec = args[0].parse().expect("player A");
    let b: PlayerSpec = args[1].parse().expect("player B");
    let games = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(100);
    let scoring: Scoring = args.get(3).and_then(|s| s.parse().ok()).unwrap_or_default();
    let jobs = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(2);
    let seed = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let plan = MatchPlan {
        games,
        scoring,
        seed,
        jobs,
    };
    let make = |spec: &PlayerSpec, prefix: &'static str| -> Make {
        let spec = spec.clone();
        Box::new(move |seed| -> Result<Box<dyn Player>, PlayerError> {
            let (mut config, limits) = spec.engine(seed).ok_or(PlayerError::Io {
                name: "gtp".into(),
                error: std::io::Error::other("no gtp here"),
            })?;
            tweak(&mut config, prefix);
            if let Ok(slow) = std::env::var(format!("{prefix}SLOW")) {
                return Ok(Box::new(Phased::new(config, limits, &slow)));
            }
            Ok(Box::new(EnginePlayer::new(
                spec.to_string(),
                config,
                limits,
            )))
        })
    };
    let started = std::time::Instant::now();
    let (s, first) = if std::env::var("FIRST_ONLY").is_ok() {
        let s = first_only(&plan, make(&a, "A_"), make(&b, "B_"));
        (s, s)
    } else {
        both_colours(&plan, make(&a, "A_"), make(&b, "B_"))
    };
    let (lo, e, hi) = s.elo();
    let second = MatchStats {
        wins: s.wins - first.wins,
        draws: s.draws - first.draws,
        losses: s.losses - first.losses,
    };
    println!(
        "{a} vs {b} ({scoring}, {} games, {:.0} s): +{} ={} -{}  score {:.1}%  Elo {e:+.0} [{lo:+.0}, {hi:+.0}]; moving first +{} ={} -{} ({:.1}%); moving second +{} ={} -{} ({:.1}%)",
        s.games(),
        started.elapsed().as_secs_f64(),
        s.wins,
        s.draws,
        s.losses,
        100.0 * s.score(),
        first.wins,
        first.draws,
        first.losses,
        100.0 * first.score(),
        second.wins,
        second.draws,
        second.losses,
        100.0 * second.score()
    );
}

/// `A_SLOW=LOW-HIGH:MS`: a player that thinks `MS` milliseconds a move in positions with
/// `LOW..=HIGH` marbles on edge spaces and its usual time elsewhere (where does time pay?).
struct Phased {
    engine: Engine,
    usual: Limits,
    slow: Limits,
    edges: std::ops::RangeInclusive<u32>,
}

impl Phased {
    fn new(config: EngineConfig, usual: Limits, spec: &str) -> Phased {
        let (range, ms) = spec.split_once(':').expect("SLOW=LOW-HIGH:MS");
        let (lo, hi) = range.split_once('-').expect("SLOW=LOW-HIGH:MS");
        Phased {
            engine: Engine::new(config, Scoring::Largest),
            usual,
            slow: Limits::time(std::time::Duration::from_millis(ms.parse().expect("MS"))),
            edges: lo.parse().expect("LOW")..=hi.parse().expect("HIGH"),
        }
    }
}

impl Player for Phased {
    fn name(&self) -> String {
        "phased".into()
    }

    fn new_game(&mut self, _start: &Position, scoring: Scoring) -> Result<(), PlayerError> {
        self.engine.set_scoring(scoring);
        self.engine.clear();
        Ok(())
    }

    fn genmove(&mut self, pos: &Position) -> Result<Move, PlayerError> {
        let edges = pos.edges_left();
        let limits = if self.edges.contains(&edges) {
            &self.slow
        } else {
            &self.usual
        };
        Ok(self.engine.choose(pos, limits))
    }

    fn observe(&mut self, _mv: Move) -> Result<(), PlayerError> {
        Ok(())
    }
}

type Make = Box<dyn Fn(u64) -> Result<Box<dyn Player>, PlayerError> + Sync>;

/// A match with colours swapped: A's results over all games, and over the games A started.
fn both_colours(plan: &MatchPlan, a: Make, b: Make) -> (MatchStats, MatchStats) {
    let stats = Mutex::new((MatchStats::default(), MatchStats::default()));
    run_match(plan, a, b, &|r| {
        let (s, first) = &mut *stats.lock().unwrap();
        s.add(r.game.result(), r.first_color);
        if r.first_color == Color::White {
            first.add(r.game.result(), r.first_color);
        }
        progress(s);
    })
    .expect("match");
    stats.into_inner().unwrap()
}

/// With `FIRST_ONLY` set: only the games A starts (as White), one at a time, on the setups of
/// A's first-player games in a full match.
fn first_only(plan: &MatchPlan, a: Make, b: Make) -> MatchStats {
    let mut first = a(plan.seed).expect("player A");
    let mut second = b(plan.seed ^ 1).expect("player B");
    let mut s = MatchStats::default();
    for i in 0..plan.games {
        let start = plan.setup(2 * i);
        let game =
            play_game(first.as_mut(), second.as_mut(), &start, plan.scoring).expect("a game");
        s.add(game.result(), Color::White);
        progress(&s);
    }
    s
}

fn progress(s: &MatchStats) {
    if s.games().is_multiple_of(20) {
        eprintln!(
            "{} games: +{} ={} -{}",
            s.games(),
            s.wins,
            s.draws,
            s.losses
        );
    }
}

/// Tuning overrides from the environment: `A_POLICY=random|greedyN`, `A_C`, `A_EXPAND`,
/// `A_LEAF`, `A_SOLVE`, `A_ROOT`, `A_TEMP`, and for a player with `eval=model` the model's
/// `A_EVAL_WEIGHT` (playouts an evaluation counts as), `A_EVAL_EDGES=LOW-HIGH` (marbles left
/// where it is used), `A_EVAL_DEPTH` (the deepest node it evaluates) and `A_EVAL_FILE` (a
/// weights file instead of the built-in one); a move prior from `A_PRIOR_FILE` (the
/// `prior_fit` example's weights) with `A_PRIOR_BIAS` (its weight in selection, 1) and
/// `A_PRIOR_EDGES=LOW-HIGH` (marbles left where it is used, 17-24); a value from `A_VALUE_FILE`
/// (the `value_fit` example's weights) with `A_VALUE_WEIGHT` (the visits it counts as, 8) and
/// `A_VALUE_EDGES=LOW-HIGH` (17-24); the same with `B_`.
fn tweak(config: &mut EngineConfig, prefix: &str) {
    let var = |name: &str| std::env::var(format!("{prefix}{name}")).ok();
    // A range of marbles left, `LOW-HIGH`, when the variable is set.
    let range = |name: &str| {
        var(name).map(|text| {
            let (lo, hi) = text.split_once('-').expect("LOW-HIGH");
            lo.parse::<u32>().expect("LOW")..=hi.parse::<u32>().expect("HIGH")
        })
    };
    if let Some(p) = var("POLICY") {
        config.mcts.policy = match p.strip_prefix("greedy") {
            Some(n) => Policy::Greedy {
                candidates: n.parse().expect("candidates"),
            },
            None => Policy::Random,
        };
    }
    if let Some(c) = var("C") {
        config.mcts.exploration = c.parse().expect("C");
    }
    if let Some(e) = var("EXPAND") {
        config.mcts.expand_after = e.parse().expect("EXPAND");
    }
    if let Some(l) = var("LEAF") {
        config.mcts.leaf_playouts = l.parse().expect("LEAF");
    }
    if let Some(x) = var("SOLVE") {
        config.mcts.solve_edges = x.parse().expect("SOLVE");
    }
    if let Some(x) = var("ROOT") {
        config.root_solve_edges = x.parse().expect("ROOT");
    }
    if let Some(x) = var("TEMP") {
        config.temperature = x.parse().expect("TEMP");
    }
    if let Some(x) = var("PRIOR_FILE") {
        let bytes = std::fs::read(&x).expect("PRIOR_FILE");
        config.mcts.move_prior = Some(MovePrior {
            prior: std::sync::Arc::new(Prior::from_bytes(&bytes).expect("prior weights")),
            bias: var("PRIOR_BIAS").map_or(1.0, |b| b.parse().expect("PRIOR_BIAS")),
            edges: range("PRIOR_EDGES").unwrap_or(17..=24),
        });
    }
    if let Some(x) = var("VALUE_FILE") {
        let bytes = std::fs::read(&x).expect("VALUE_FILE");
        config.mcts.value_prior = Some(ValuePrior {
            value: std::sync::Arc::new(ValueModel::from_bytes(&bytes).expect("value weights")),
            weight: var("VALUE_WEIGHT").map_or(8, |b| b.parse().expect("VALUE_WEIGHT")),
            edges: range("VALUE_EDGES").unwrap_or(17..=24),
        });
    }
    if let Some(leaf) = config.mcts.leaf_model.as_mut() {
        if let Some(x) = var("EVAL_WEIGHT") {
            leaf.weight = x.parse().expect("EVAL_WEIGHT");
        }
        if let Some(edges) = range("EVAL_EDGES") {
            leaf.edges = edges;
        }
        if let Some(x) = var("EVAL_DEPTH") {
            leaf.max_depth = x.parse().expect("EVAL_DEPTH");
        }
        if let Some(x) = var("EVAL_FILE") {
            let bytes = std::fs::read(&x).expect("EVAL_FILE");
            leaf.model = std::sync::Arc::new(Model::from_bytes(&bytes).expect("weights"));
        }
    }
}
