//! Limits of a search: a deadline, a node or playout budget, and a stop flag another thread can
//! raise.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
}

impl Clock {
    /// Whether the deadline has passed or the stop flag is raised (not the node budget, which
    /// the caller counts).
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || self
                .halt
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
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

    /// Time left before the deadline, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The same clock with a deadline no later than `deadline`.
    #[must_use]
    pub fn until(mut self, deadline: Instant) -> Clock {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }
}
