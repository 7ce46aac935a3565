//! Playing strength: levels 1 to 10.
//!
//! A weaker level searches less (a playout budget that roughly triples per level), hands fewer
//! positions to the exact solver, and picks its move by a softmax over the move values with a
//! temperature that shrinks as the level rises: it plays plausible moves, not random blunders.
//! Level 10 is the full engine, limited only by its thinking time.

use crate::mcts::MctsConfig;
use crate::playout::Policy;
use crate::search::EngineConfig;
use std::time::Duration;

/// The strongest level.
pub const MAX_LEVEL: u8 = 10;

/// Thinking time of level 10 when none is given.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// What a level means.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The level, 1 to 10.
    pub level: u8,
    /// Playouts per move (`None`: as many as the thinking time allows).
    pub playouts: Option<u64>,
    /// The engine settings.
    pub config: EngineConfig,
}

/// (playouts, temperature, leaf hand-over edges, root solve edges) per level.
const TABLE: [(u64, f64, u32, u32); 9] = [
    (3, 1.0, 0, 0),
    (40, 0.12, 0, 0),
    (120, 0.08, 0, 0),
    (400, 0.05, 3, 4),
    (1_200, 0.03, 4, 6),
    (4_000, 0.02, 5, 8),
    (9_000, 0.01, 6, 10),
    (25_000, 0.005, 7, 11),
    (60_000, 0.0, 7, 12),
];

impl Level {
    /// The settings of `level` (clamped to 1..=10); `seed` seeds its choices.
    pub fn new(level: u8, seed: u64) -> Level {
        let level = level.clamp(1, MAX_LEVEL);
        let full = EngineConfig {
            seed,
            ..EngineConfig::default()
        };
        if level == MAX_LEVEL {
            return Level {
                level,
                playouts: None,
                config: full,
            };
        }
        let (playouts, temperature, solve_edges, root_solve_edges) = TABLE[level as usize - 1];
        let config = EngineConfig {
            threads: 1,
            tree_mb: 64,
            table_mb: if solve_edges > 0 { 16 } else { 1 },
            mcts: MctsConfig {
                solve_edges,
                policy: if level <= 2 {
                    Policy::Random
                } else {
                    MctsConfig::default().policy
                },
                ..MctsConfig::default()
            },
            root_solve_edges,
            temperature,
            ..full
        };
        Level {
            level,
            playouts: Some(playouts),
            config,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_grows_and_noise_shrinks_with_the_level() {
        let levels: Vec<Level> = (1..=10).map(|l| Level::new(l, 0)).collect();
        for pair in levels.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(b.playouts.unwrap_or(u64::MAX) > a.playouts.unwrap_or(u64::MAX));
            assert!(b.config.temperature <= a.config.temperature);
        }
        assert_eq!(Level::new(0, 0).level, 1);
        assert_eq!(Level::new(99, 0).level, 10);
        assert_eq!(levels[9].config.temperature, 0.0);
    }
}
