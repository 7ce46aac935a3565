//! Tree-search speed: playouts per second from the opening of deal 1, for a few settings.
//!
//! ```text
//! cargo run --release -p mabula-engine --example speed -- [SECONDS=2]
//! ```

use mabula::{Color, Scoring, deal};
use mabula_engine::mcts::MctsConfig;
use mabula_engine::playout::Policy;
use mabula_engine::{Engine, EngineConfig, Limits};
use std::time::Duration;

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let pos = deal::random(1, Color::White);
    let settings = [
        (
            "engine, 2 threads",
            EngineConfig {
                threads: 2,
                ..EngineConfig::default()
            },
        ),
        (
            "engine, 1 thread",
            EngineConfig {
                threads: 1,
                ..EngineConfig::default()
            },
        ),
        (
            "engine with random playouts, 2 threads",
            EngineConfig {
                threads: 2,
                mcts: MctsConfig {
                    policy: Policy::Random,
                    ..MctsConfig::default()
                },
                ..EngineConfig::default()
            },
        ),
        (
            "engine, 4 playouts per leaf, 2 threads",
            EngineConfig {
                threads: 2,
                mcts: MctsConfig {
                    leaf_playouts: 4,
                    ..MctsConfig::default()
                },
                ..EngineConfig::default()
            },
        ),
        ("baseline-uct, 1 thread", EngineConfig::baseline()),
    ];
    for scoring in [Scoring::Largest, Scoring::Product] {
        for (name, config) in &settings {
            let mut engine = Engine::new(config.clone(), scoring);
            let a = engine.analyze(&pos, &Limits::time(Duration::from_secs_f64(secs)));
            println!(
                "{scoring:8} {name:40} {:>9} playouts in {:.2} s = {:>9.0} playouts/s",
                a.playouts,
                a.elapsed.as_secs_f64(),
                a.playouts as f64 / a.elapsed.as_secs_f64()
            );
        }
    }
}
