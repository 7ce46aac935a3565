//! Limits of a search: a deadline, a node or playout budget, a stop flag another thread can
//! raise, and [`Turns`]: a processor shared with other searches, in slices.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// When a search must end. Every limit is optional; with none, a search runs until it is done
/// (the solver) or until its stop flag is raised.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Thinking time, counted from the call.
    pub time: Option<Duration>,
    /// The most nodes (solver) or playouts (tree search), over all threads.
    pub nodes: Option<u64>,
    /// Raised by another thread to end the search early.
    pub stop: Option<Arc<AtomicBool>>,
    /// Turns taken with other searches: the search pauses between slices, and its time counts
    /// only while it runs.
    pub turns: Option<Turns>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A time limit.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// A node or playout limit.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// The same limits with a stop flag.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }

    /// Starts the clock: the limits as checked during a search.
    pub fn start(&self) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            deadline: self.time.map(|t| start + t),
            nodes: self.nodes.unwrap_or(u64::MAX),
            stop: self.stop.clone(),
            halt: None,
            turns: self.turns.clone(),
            waited_before: self.turns.as_ref().map_or(Duration::ZERO, Turns::waited),
        }
    }
}

/// The limits of a running search.
#[derive(Clone, Debug)]
pub struct Clock {
    /// When the search started.
    pub start: Instant,
    /// When it must end.
    pub deadline: Option<Instant>,
    /// The node budget.
    pub nodes: u64,
    /// The stop flag.
    pub stop: Option<Arc<AtomicBool>>,
    /// A second flag, raised by the search itself (say, when the root is solved and the tree
    /// search may end).
    pub halt: Option<Arc<AtomicBool>>,
    /// The turns it takes with other searches; the deadline is pushed back by the time spent
    /// waiting for them.
    pub turns: Option<Turns>,
    /// The time the turns had waited before this clock started (a clock made within a longer
    /// search shares its turns).
    waited_before: Duration,
}

impl Clock {
    /// Whether the deadline has passed or the stop flag is raised (not the node budget, which
    /// the caller counts).
    ///
    /// With [`Turns`], this is where the search pauses when its slice is over.
    pub fn expired(&self) -> bool {
        let over = self.deadline.is_some_and(|d| self.now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || self
                .halt
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
        over || self.turns.as_ref().is_some_and(|t| !t.take_turn())
    }

    /// Whether the stop flag (not the deadline) is raised.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The same clock with another node budget.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Clock {
        self.nodes = nodes;
        self
    }

    /// The same clock with a halt flag.
    #[must_use]
    pub fn with_halt(mut self, halt: Arc<AtomicBool>) -> Clock {
        self.halt = Some(halt);
        self
    }

    /// Now on the search's clock: the time spent waiting for turns does not count.
    fn now(&self) -> Instant {
        let now = Instant::now();
        match &self.turns {
            Some(turns) => now
                .checked_sub(turns.waited().saturating_sub(self.waited_before))
                .unwrap_or(self.start),
            None => now,
        }
    }

    /// Time left before the deadline, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        let now = self.now();
        self.deadline.map(|d| d.saturating_duration_since(now))
    }

    /// Time since the start, without the time spent waiting for turns.
    pub fn elapsed(&self) -> Duration {
        self.now().saturating_duration_since(self.start)
    }

    /// The same clock with a deadline no later than `deadline`.
    #[must_use]
    pub fn until(mut self, deadline: Instant) -> Clock {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }
}

/// A search's turns on a processor it shares with other searches (the server's engine pool).
///
/// The search runs for a slice, then at its next check of the clock ([`Clock::expired`]) calls
/// the wait given to [`Turns::new`], which hands the processor on and blocks until the search's
/// turn comes again: the search (its tree, its table, its threads) stays where it was, paused.
/// The time spent waiting is added to the search's deadline, so a search that waits is not
/// weaker. With several threads, one of them waits and the others stop at their next check
/// behind it.
#[derive(Clone)]
pub struct Turns(Arc<TurnsInner>);

struct TurnsInner {
    /// How long the search runs before it hands on the processor.
    slice: Duration,
    /// Hands the processor on and blocks until the next turn; `false` when no turn will come
    /// (then the search ends).
    wait: Box<dyn Fn() -> bool + Send + Sync>,
    /// When the turns began: the origin of `slice_end`.
    origin: Instant,
    /// When the running slice ends, in nanoseconds since `origin` (an atomic, so that the
    /// frequent check takes no lock).
    slice_end: AtomicU64,
    /// Time spent waiting for turns, in nanoseconds.
    waited: AtomicU64,
    /// Held by the thread that waits for the next turn; the search's other threads queue on it.
    waiting: Mutex<()>,
    /// Set when a wait said that no turn will come.
    ended: AtomicBool,
}

impl Turns {
    /// Turns of `slice` each; `wait` hands the processor on and blocks until the next turn,
    /// answering `false` when none will come.
    pub fn new(slice: Duration, wait: impl Fn() -> bool + Send + Sync + 'static) -> Turns {
        Turns(Arc::new(TurnsInner {
            slice,
            wait: Box::new(wait),
            origin: Instant::now(),
            slice_end: AtomicU64::new(nanos(slice)),
            waited: AtomicU64::new(0),
            waiting: Mutex::new(()),
            ended: AtomicBool::new(false),
        }))
    }

    /// Waits for the next turn if the slice is over; `false` if no turn will come.
    fn take_turn(&self) -> bool {
        let t = &self.0;
        let over = || nanos(t.origin.elapsed()) >= t.slice_end.load(Ordering::Acquire);
        if t.ended.load(Ordering::Relaxed) {
            return false;
        }
        if !over() {
            return true;
        }
        let _waiting = t.waiting.lock().unwrap_or_else(|e| e.into_inner());
        // Another thread of the search may have waited meanwhile, and the new slice begun.
        if over() && !t.ended.load(Ordering::Relaxed) {
            let began = Instant::now();
            if !(t.wait)() {
                t.ended.store(true, Ordering::Relaxed);
            }
            t.waited
                .fetch_add(nanos(began.elapsed()), Ordering::Relaxed);
            t.slice_end
                .store(nanos(t.origin.elapsed() + t.slice), Ordering::Release);
        }
        !t.ended.load(Ordering::Relaxed)
    }

    /// The time spent waiting for turns so far.
    pub fn waited(&self) -> Duration {
        Duration::from_nanos(self.0.waited.load(Ordering::Relaxed))
    }

    /// Whether a wait said that no turn would come (the search was cut short).
    pub fn ended(&self) -> bool {
        self.0.ended.load(Ordering::Relaxed)
    }
}

impl fmt::Debug for Turns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turns")
            .field("slice", &self.0.slice)
            .field("waited", &self.waited())
            .finish_non_exhaustive()
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn time_spent_waiting_for_turns_does_not_count_against_the_deadline() {
        let waits = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&waits);
        let turns = Turns::new(Duration::from_millis(5), move || {
            counted.fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(30));
            true
        });
        let limits = Limits {
            turns: Some(turns.clone()),
            ..Limits::time(Duration::from_millis(60))
        };
        let clock = limits.start();
        let started = Instant::now();
        while !clock.expired() {
            std::hint::spin_loop();
        }
        let wall = started.elapsed();
        assert!(
            waits.load(Ordering::Relaxed) >= 5,
            "it waited between slices"
        );
        assert!(turns.waited() >= Duration::from_millis(150));
        assert!(clock.elapsed() >= Duration::from_millis(60));
        assert!(clock.elapsed() < wall);
    }

    #[test]
    fn a_search_whose_turn_will_not_come_ends() {
        let limits = Limits {
            turns: Some(Turns::new(Duration::ZERO, || false)),
            ..Limits::none()
        };
        let clock = limits.start();
        assert!(clock.expired());
        assert!(clock.turns.as_ref().is_some_and(Turns::ended));
    }
}
