//! Playing strength: levels 1 to 10.
//!
//! A weaker level searches less (a playout budget that roughly triples per level), hands fewer
//! positions to the exact solver, and picks its move by a softmax over the move values with a
//! temperature that shrinks as the level rises: it plays plausible moves, not random blunders.
//! Level 10 is the full engine, limited only by its thinking time.
//!
//! A [`LevelName`] also names frozen players: `10-v1` is level 10 as it stood before the learnt
//! evaluation entered the search (issue 23), with every setting written out here, so that later
//! changes to level 10 (or to the defaults) can be measured against it.

use crate::mcts::MctsConfig;
use crate::playout::Policy;
use crate::search::EngineConfig;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The strongest level.
pub const MAX_LEVEL: u8 = 10;

/// Thinking time of level 10 when none is given.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// The longest thinking time a caller may ask for, in milliseconds: a day (a longer one
/// overflowed the deadline). The protocol's `movetime` and the Python package's times hold to it.
pub const MAX_THINK_MS: u64 = 86_400_000;

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

/// A player of the engine by name: a level as it is now, or a frozen earlier version.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LevelName {
    /// Level 1 to 10 as it is now: `1` .. `10`.
    Current(u8),
    /// Level 10 as it stood on 2026-11-27, before the learnt evaluation (issue 23): `10-v1`.
    TenV1,
}

impl LevelName {
    /// The settings of this player; `seed` seeds its choices.
    pub fn level(self, seed: u64) -> Level {
        match self {
            LevelName::Current(level) => Level::new(level, seed),
            LevelName::TenV1 => Level::ten_v1(seed),
        }
    }
}

/// A level name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a level (1 to {MAX_LEVEL}, or 10-v1)")]
pub struct ParseLevelError(String);

impl FromStr for LevelName {
    type Err = ParseLevelError;

    fn from_str(text: &str) -> Result<LevelName, ParseLevelError> {
        match text.trim() {
            "10-v1" => Ok(LevelName::TenV1),
            s => match s.parse::<u8>() {
                Ok(l) if (1..=MAX_LEVEL).contains(&l) => Ok(LevelName::Current(l)),
                _ => Err(ParseLevelError(text.into())),
            },
        }
    }
}

impl fmt::Display for LevelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelName::Current(level) => write!(f, "{level}"),
            LevelName::TenV1 => f.write_str("10-v1"),
        }
    }
}

impl Level {
    /// Level 10 as it stood on 2026-11-27 (`10-v1`): every setting written out, so that a change
    /// of a default elsewhere does not change it. Thinks with every core, like level 10.
    pub fn ten_v1(seed: u64) -> Level {
        Level {
            level: MAX_LEVEL,
            playouts: None,
            config: EngineConfig {
                threads: std::thread::available_parallelism()
                    .map_or(1, |n| n.get())
                    .min(64),
                tree_mb: 256,
                table_mb: 64,
                mcts: MctsConfig {
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
                },
                root_solve_edges: 16,
                temperature: 0.0,
                reuse: true,
                seed,
                practical: true,
            },
        }
    }

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

    #[test]
    fn level_names_read_and_print() {
        for text in ["1", "7", "10", "10-v1"] {
            let name: LevelName = text.parse().expect("a level");
            assert_eq!(name.to_string(), text);
        }
        assert_eq!(" 10-v1 ".parse(), Ok(LevelName::TenV1));
        for bad in ["0", "11", "9-v1", "10-v2", "ten", ""] {
            assert!(bad.parse::<LevelName>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ten_v1_is_level_ten_as_it_stood() {
        // The frozen copy must stay as it is; this test is the place that says how level 10
        // differs from it.
        let v1 = Level::ten_v1(3);
        assert_eq!(LevelName::TenV1.level(3), v1);
        assert_eq!(v1.level, 10);
        assert_eq!(v1.playouts, None);
        assert_eq!(v1.config.root_solve_edges, 16);
        assert_eq!(v1.config.mcts.solve_edges, 7);
        assert_eq!(v1.config.seed, 3);
        // Level 10 has not moved on from it yet.
        assert_eq!(Level::new(10, 3), v1);
    }
}
