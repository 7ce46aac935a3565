//! The engine pool: engine moves (and analyses, [`crate::analysis`]) are computed on Tokio's blocking threads, at most `threads` at
//! a time; further requests wait their turn in the semaphore's (fair, first-come) queue, so the
//! async workers never compute and the server keeps answering while engines think.

use mabula::{Move, Position, Scoring};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// A bounded pool of engine computations.
#[derive(Clone)]
pub struct EnginePool {
    /// One permit per computation allowed at once.
    permits: Arc<Semaphore>,
}

impl EnginePool {
    /// A pool running at most `threads` computations at once.
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
        }
    }

    /// Chooses a move for the side to move of `pos`, waiting for a free slot first. `None` only
    /// if the pool was closed or the computation panicked.
    pub async fn choose(
        &self,
        pos: Position,
        scoring: Scoring,
        level: u8,
        movetime: Duration,
        seed: u64,
    ) -> Option<Move> {
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            mabula_engine::choose_move(&pos, scoring, level, Some(movetime), seed)
        });
        handle.await.ok()
    }

    /// Runs `work` on a blocking thread once a slot is free (analysis uses this). `None` only if
    /// the pool was closed or the work panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        });
        handle.await.ok()
    }

    /// How many computations could start right now.
    pub fn available(&self) -> usize {
        self.permits.available_permits()
    }

    /// Refuses new computations (queued ones give up).
    pub fn close(&self) {
        self.permits.close();
    }
}
