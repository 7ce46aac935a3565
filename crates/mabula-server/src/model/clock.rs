//! Clocks, kept by the server: a Fischer clock for real-time games (time for the game plus an
//! increment per move) or days per move for correspondence. Everything here is arithmetic on
//! stored values (remaining time per side and when the turn began), so a clock survives a
//! restart and reads the same on every instance.
//!
//! The first move of each side is not timed: instead each of the first two moves must come
//! within [`FIRST_MOVE_MS`] (a day per move in correspondence) or the game is aborted, with no
//! result and no rating change. From the third move on the side to move uses its own time, and
//! loses when it runs out.

use mabula::Color;

// Time controls are written on the wire as they are kept: the API crate owns them.
pub use mabula_api::clock::{MIN_INITIAL_S, Speed, TimeControl};

/// How long each side has for its first move in a real-time game before the game is aborted.
pub const FIRST_MOVE_MS: i64 = 30_000;

/// What the clock says must happen when its deadline passes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Due {
    /// A side did not make its first move in time: the game is called off.
    Abort,
    /// The side ran out of time and loses.
    Flag(Color),
}

/// A game's clock as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// White's and Black's time left at the start of the current turn (ms).
    pub remaining: [i64; 2],
    /// When the current turn began (ms since the epoch).
    pub turn_started_at: i64,
}

fn index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clock {
    /// A clock for a game starting at `now`.
    pub fn new(control: TimeControl, now: i64) -> Clock {
        let t = control.initial_ms();
        Clock {
            control,
            remaining: [t, t],
            turn_started_at: now,
        }
    }

    /// `color`'s time left at the start of the current turn.
    pub fn left(&self, color: Color) -> i64 {
        self.remaining[index(color)]
    }

    /// When the turn of `to_move` ends and what happens then; `moves` have been played.
    pub fn deadline(&self, to_move: Color, moves: usize) -> (i64, Due) {
        match self.control {
            TimeControl::Clock { .. } if moves < 2 => {
                (self.turn_started_at + FIRST_MOVE_MS, Due::Abort)
            }
            TimeControl::Days { .. } if moves < 2 => {
                (self.turn_started_at + self.left(to_move), Due::Abort)
            }
            _ => (
                self.turn_started_at + self.left(to_move),
                Due::Flag(to_move),
            ),
        }
    }

    /// `color`'s time left at `now` if it is to move, else at the start of the turn.
    pub fn left_at(&self, color: Color, to_move: Option<Color>, moves: usize, now: i64) -> i64 {
        let left = self.left(color);
        if to_move != Some(color) || moves < 2 {
            return left;
        }
        (left - (now - self.turn_started_at)).max(0)
    }

    /// The clock after `mover` moved at `now` as move number `moves + 1`: the time used is
    /// taken off (the first two moves are free), the increment added, and the other side's
    /// turn begins. Correspondence resets the mover's time to a full allowance. The caller
    /// checks the deadline first.
    pub fn after_move(&self, mover: Color, moves: usize, now: i64) -> Clock {
        let mut next = *self;
        let i = index(mover);
        match self.control {
            TimeControl::Clock { increment_s, .. } => {
                if moves >= 2 {
                    next.remaining[i] -= now - self.turn_started_at;
                    next.remaining[i] += i64::from(increment_s) * 1000;
                }
            }
            TimeControl::Days { .. } => next.remaining[i] = self.control.initial_ms(),
        }
        next.turn_started_at = now;
        next
    }

    /// The clock after moves were taken back at `now`: the turn begins again.
    pub fn restarted(&self, now: i64) -> Clock {
        Clock {
            turn_started_at: now,
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const THREE_TWO: TimeControl = TimeControl::Clock {
        initial_s: 180,
        increment_s: 2,
    };

    #[test]
    fn the_first_two_moves_are_free_and_then_time_runs_with_an_increment() {
        let c = Clock::new(THREE_TWO, 0);
        assert_eq!(c.deadline(Color::White, 0), (30_000, Due::Abort));
        let c = c.after_move(Color::White, 0, 20_000);
        assert_eq!(c.left(Color::White), 180_000);
        let c = c.after_move(Color::Black, 1, 25_000);
        assert_eq!(c.left(Color::Black), 180_000);
        assert_eq!(
            c.deadline(Color::White, 2),
            (25_000 + 180_000, Due::Flag(Color::White))
        );
        let c = c.after_move(Color::White, 2, 35_000);
        assert_eq!(c.left(Color::White), 180_000 - 10_000 + 2_000);
        assert_eq!(
            c.left_at(Color::Black, Some(Color::Black), 3, 36_000),
            179_000
        );
    }

    #[test]
    fn correspondence_gives_a_full_allowance_per_move() {
        let c = Clock::new(TimeControl::Days { days: 2 }, 0);
        let c = c.after_move(Color::White, 0, 1000);
        let c = c.after_move(Color::Black, 1, 2000);
        let c = c.after_move(Color::White, 2, 86_400_000);
        assert_eq!(c.left(Color::White), 2 * 86_400_000);
        assert_eq!(
            c.deadline(Color::Black, 3),
            (86_400_000 + 2 * 86_400_000, Due::Flag(Color::Black))
        );
    }

    #[test]
    fn controls_are_checked() {
        assert!(THREE_TWO.check().is_ok());
        assert!(
            TimeControl::Clock {
                initial_s: 10,
                increment_s: 0
            }
            .check()
            .is_err()
        );
        assert!(TimeControl::Days { days: 5 }.check().is_err());
        assert_eq!(THREE_TWO.label(), "3+2");
    }
}
