//! Playing Mabula in the terminal.
//!
//! # Layout
//!
//! - [`app`]: the game as the player sees it, a state machine fed with inputs (keys, clicks, typed
//!   lines, the engine's answers) that asks for effects (think, save, load) instead of doing I/O.
//!   Everything the screen and the line mode do is decided here, and tested without a terminal.
//! - [`view`]: draws an [`app::App`] with ratatui, and maps a mouse click back to a square.
//! - [`tui`]: the full-screen runtime: terminal setup and restore, the event loop, the engine on
//!   a background thread.
//! - [`plain`]: the line mode (`--plain`): prints the board after each move and reads lines.

pub mod app;
pub mod plain;
pub mod tui;
pub mod view;

use app::{Effect, Input, Request};
use mabula::Color;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Who makes the moves of one colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The engine.
    Engine,
}

/// How a game is played: set once from the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Who plays white and who plays black, indexed by `Color as usize`.
    pub players: [Player; 2],
    /// The engine's level, 1 to 10.
    pub level: u8,
    /// The engine's thinking time per move; `None` lets the level decide.
    pub movetime: Option<Duration>,
    /// The seed of the deal, also varied into the engine's seeds and used for new deals.
    pub seed: u64,
    /// The least time between two engine moves, so that a person can follow engine-only games.
    pub pause: Duration,
    /// Where `save` writes when no file is named.
    pub save_path: Option<PathBuf>,
    /// Whether the record is rewritten after every move.
    pub autosave: bool,
    /// Whether to use colours (off when `NO_COLOR` is set).
    pub color: bool,
    /// Whether the full screen captures the mouse.
    pub mouse: bool,
    /// Whether the game is played line by line (`--plain`): its help names commands, not keys.
    pub plain: bool,
}

impl Settings {
    /// Settings for tests: the given players, engine level 1 thinking 20 ms, seed 1.
    #[cfg(test)]
    pub fn quick(players: [Player; 2]) -> Settings {
        Settings {
            players,
            level: 1,
            movetime: Some(Duration::from_millis(20)),
            seed: 1,
            pause: Duration::ZERO,
            save_path: None,
            autosave: false,
            color: true,
            mouse: true,
            plain: false,
        }
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> Player {
        self.players[color as usize]
    }
}

/// The name of a side as the screen says it: "white (you)", "black (engine)".
pub fn side_label(settings: &Settings, color: Color) -> String {
    let humans = settings
        .players
        .iter()
        .filter(|p| **p == Player::Human)
        .count();
    match (settings.player(color), humans) {
        (Player::Human, 1) => format!("{color} (you)"),
        (Player::Human, _) => color.to_string(),
        (Player::Engine, _) => format!("{color} (engine)"),
    }
}

/// Asks the engine (on the calling thread) and returns its answer as an input; a panic of the
/// engine becomes [`Input::EngineFailed`]. With `pause`, answers no sooner than the request's
/// pause.
pub fn think(req: &Request, pause: bool) -> Input {
    let start = Instant::now();
    let chosen = std::panic::catch_unwind(|| {
        mabula_engine::choose_move(
            &req.position,
            req.scoring,
            req.level,
            req.movetime,
            req.seed,
        )
    });
    if pause && let Some(rest) = req.pause.checked_sub(start.elapsed()) {
        std::thread::sleep(rest);
    }
    match chosen {
        Ok(mv) => Input::Engine { id: req.id, mv },
        Err(payload) => Input::EngineFailed {
            id: req.id,
            reason: payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "it panicked".to_string()),
        },
    }
}

/// Carries out a file effect (save or load) and returns the result as an input; `None` for
/// [`Effect::Think`], which the runtime handles its own way.
pub fn perform_file_effect(effect: Effect) -> Option<Input> {
    match effect {
        Effect::Save {
            path,
            text,
            announce,
        } => {
            let result = std::fs::write(&path, text).map_err(|e| e.to_string());
            Some(Input::Saved {
                path,
                result,
                announce,
            })
        }
        Effect::Load(path) => {
            let result = std::fs::read_to_string(&path).map_err(|e| e.to_string());
            Some(Input::Loaded { path, result })
        }
        Effect::Think(_) => None,
    }
}

/// Today's date as records write it, `yyyy.mm.dd` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_1970_become_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }
}
