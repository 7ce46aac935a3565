//! The engine pool: engine moves, hints and the analysis board's analyses are computed off the
//! async workers (hints and analyses on Tokio's blocking threads, engine moves on threads of their
//! own), at most `threads` at a time, so the server keeps answering while engines think.
//!
//! # The queue
//!
//! Work that finds no free slot waits in a [`FairQueue`], one per lane:
//!
//! - the **play** lane holds engine moves ([`Work::Move`]) and hints ([`Work::Hint`]): people
//!   waiting at a board;
//! - the **board** lane holds the analysis board's work ([`Work::Analysis`]).
//!
//! A free slot goes to the play lane first; the board lane gets it only when the play lane is
//! empty. Analyses also never hold more than `threads - 1` slots (one when there is only one), so
//! with two threads or more a hint or an engine move always finds a slot that no analysis can
//! take; with a single thread it waits at most for the one analysis running, which the analysis
//! time bounds. A steady stream of engine moves can hold the board lane back indefinitely: that is
//! the intended order, and the analysis service bounds its own queue (see [`crate::analysis`]).
//!
//! Within a lane, jobs are queued per *key* (the client: an address or an account, or a game id
//! when no client is known) and served round-robin across keys: a key's next job joins the round
//! being served, and each key gets one job per round. So a key that queued many jobs delays
//! another key's job by at most the job that holds the slot now plus one job per other waiting
//! key, however long its own queue.
//!
//! # Turns
//!
//! Jobs are counted, not timed, so an engine move takes its slot in turns ([`Slot::run_in_turns`],
//! [`mabula_engine::Turns`]): after each [`SLICE`] of computing it queues again under its key and
//! hands its slot on, and its search waits, paused with its tree, until its next turn. A short
//! move queued behind long ones therefore waits for one slice per other waiting key, not for
//! their whole moves. A search counts only the time it ran against its thinking time, so waiting
//! does not weaken its move; it finishes later instead. Paused searches keep their memory and a
//! thread each: the cap on engine games per client address (the games service) bounds how many
//! one client can hold. So that memory stays bounded in all, at most [`LONG_PER_THREAD`] long
//! searches (level 10, limited by its time alone) per thread are started at once; the next long
//! search waits in its place in the queue until one ends, while shorter work passes it. Hints and
//! analyses still hold their slot to the end, bounded by the analysis time.
//!
//! # Bounds
//!
//! [`EnginePool::queue`] takes optional [`Bounds`]: how many jobs one key may have queued or
//! running in the lane, and how many may wait in the lane in all; beyond either the work is
//! refused at once ([`Refused`]). The analysis service uses them. Engine moves are never refused:
//! [`EnginePool::choose_for`] queues without bounds, and a key's queued moves are bounded by its
//! engine games waiting for a move, since the games service runs one engine computation per game at a time.
//!
//! Queued work that is dropped (its [`Ticket`] dropped: the client left) leaves the queue at once
//! and frees its place for the key.

use mabula::{Move, Position, Scoring};
use mabula_engine::Turns;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How long an engine move computes before it hands its slot on (see the module docs): long enough
/// that handing on costs little (a few microseconds, and caches warmed again), short enough that a
/// job queued behind ten other clients starts within about half a second even when its own key
/// was served in this round already (two rounds of ten turns).
pub const SLICE: Duration = Duration::from_millis(25);

// ---- the fair queue --------------------------------------------------------------------------

/// Where a job stands in a [`FairQueue`]: its round, then its arrival.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JobId {
    round: u64,
    arrival: u64,
}

/// Jobs waiting their turn, served round-robin across keys.
///
/// Every job gets a round when it is queued: the round being served now, or the round after the
/// key's previous job if that one is later. Jobs leave in order of round, and within a round in
/// order of arrival. A key with many jobs spreads them over as many rounds, while a key that
/// arrives later joins the current round and goes before the first key's second job. A key whose
/// job was just served has its next job in the next round, behind the keys that still wait in this
/// one. (This is start-time fair queuing with every job costing the same.)
#[derive(Debug)]
pub struct FairQueue<T> {
    /// The waiting jobs in serving order.
    jobs: BTreeMap<JobId, (String, T)>,
    /// The earliest round each key's next job may take: one past its latest job. Keys whose entry
    /// is not past `round` are dropped from time to time, as their entry no longer matters.
    next_round: HashMap<String, u64>,
    /// The round of the job served last.
    round: u64,
    /// Jobs queued so far, to order the jobs of one round.
    arrivals: u64,
}

impl<T> Default for FairQueue<T> {
    fn default() -> Self {
        FairQueue {
            jobs: BTreeMap::new(),
            next_round: HashMap::new(),
            round: 0,
            arrivals: 0,
        }
    }
}

impl<T> FairQueue<T> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `job` under `key`; the id names it for [`FairQueue::remove`].
    pub fn push(&mut self, key: &str, job: T) -> JobId {
        let round = match self.next_round.get_mut(key) {
            Some(next) => {
                let round = (*next).max(self.round);
                *next = round + 1;
                round
            }
            None => {
                self.next_round.insert(key.to_string(), self.round + 1);
                self.round
            }
        };
        let id = JobId {
            round,
            arrival: self.arrivals,
        };
        self.arrivals += 1;
        self.jobs.insert(id, (key.to_string(), job));
        id
    }

    /// Takes the next job to serve, with its key.
    pub fn pop(&mut self) -> Option<(String, T)> {
        self.pop_where(|_| true)
    }

    /// Takes the first job in serving order that `fits`, with its key; the jobs passed over keep
    /// their places.
    pub fn pop_where(&mut self, fits: impl Fn(&T) -> bool) -> Option<(String, T)> {
        let id = *self.jobs.iter().find(|(_, (_, job))| fits(job))?.0;
        let job = self.jobs.remove(&id)?;
        self.round = self.round.max(id.round);
        if self.next_round.len() > 2 * self.jobs.len() + 64 {
            let round = self.round;
            self.next_round.retain(|_, next| *next > round);
        }
        Some(job)
    }

    /// Takes a queued job out (its client left); `None` if it is no longer queued.
    pub fn remove(&mut self, id: JobId) -> Option<(String, T)> {
        let (key, job) = self.jobs.remove(&id)?;
        // If it was the key's latest job, the key's next job may take its round.
        if let Some(next) = self.next_round.get_mut(&key)
            && *next == id.round + 1
        {
            *next = id.round;
        }
        Some((key, job))
    }

    /// The number of waiting jobs.
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// Whether no job waits.
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }
}

// ---- the pool --------------------------------------------------------------------------------

/// What a computation is for; it decides the lane.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// The engine's move in a game.
    Move,
    /// A hint for a player in a game against the engine.
    Hint,
    /// An analysis for the analysis board (or a game's analysis).
    Analysis,
}

impl Work {
    fn lane(self) -> Lane {
        match self {
            Work::Move | Work::Hint => Lane::Play,
            Work::Analysis => Lane::Board,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Lane {
    /// Engine moves and hints: served first.
    Play = 0,
    /// The analysis board: served when no play work waits.
    Board = 1,
}

/// Limits on queueing one piece of work (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The most jobs one key may have queued or running in the lane, this one included.
    pub per_key: usize,
    /// The most jobs that may wait in the lane (not counting those that start at once).
    pub queued: usize,
}

/// Why work was not queued.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The key has as many jobs queued or running as it may.
    #[error("{held} jobs of this client are queued or running already")]
    KeyFull {
        /// Its jobs queued or running.
        held: usize,
    },
    /// The lane's queue is full.
    #[error("{queued} jobs are waiting already")]
    QueueFull {
        /// The jobs waiting in the lane.
        queued: usize,
    },
    /// The pool was closed (the server is stopping).
    #[error("the engine pool is closed")]
    Closed,
}

/// A queued job's way to its slot: the pool sends the slot when its turn comes.
struct Waiter {
    tx: oneshot::Sender<Slot>,
    /// It starts a long search (see [`LONG_PER_THREAD`]).
    starts_long: bool,
}

/// Long searches (level 10, limited by time alone) started and not finished, per engine thread.
/// A paused search keeps its memory (level 10: up to a few hundred MB of tree and table), so more
/// wait in the queue without starting; shorter searches pass them.
pub const LONG_PER_THREAD: usize = 4;

/// The pool's state, behind one lock.
struct State {
    /// The waiting jobs, by lane.
    lanes: [FairQueue<Waiter>; 2],
    /// Computations running, by lane.
    running: [usize; 2],
    /// Jobs queued or running per lane and key, for [`Bounds::per_key`]; keys at zero are removed.
    held: HashMap<(Lane, String), usize>,
    /// Set by [`EnginePool::close`]: nothing new is queued.
    closed: bool,
    /// Long searches started and not finished, at most `threads * LONG_PER_THREAD`.
    long: usize,
}

struct Shared {
    /// Computations allowed at once.
    threads: usize,
    /// Of those, the most the board lane may hold, so that play work keeps a slot.
    board_threads: usize,
    /// Numbers the jobs of [`EnginePool::choose`], which has no key of its own.
    anonymous: AtomicU64,
    /// A std mutex, never held across an await: every critical section is a few map operations.
    state: Mutex<State>,
}

impl State {
    fn hold(&mut self, lane: Lane, key: &str) -> usize {
        let held = self.held.entry((lane, key.to_string())).or_insert(0);
        *held += 1;
        *held
    }

    fn unhold(&mut self, lane: Lane, key: &str) {
        let k = (lane, key.to_string());
        if let Some(held) = self.held.get_mut(&k) {
            *held -= 1;
            if *held == 0 {
                self.held.remove(&k);
            }
        }
    }

    fn held(&self, lane: Lane, key: &str) -> usize {
        self.held
            .get(&(lane, key.to_string()))
            .copied()
            .unwrap_or(0)
    }

    /// Hands free slots to waiting jobs; the caller delivers them once the lock is released (a
    /// slot whose job has gone is dropped then, and its drop takes the lock again).
    fn dispatch(&mut self, shared: &Arc<Shared>) -> Vec<(Waiter, Slot)> {
        let mut grants = Vec::new();
        while self.running[0] + self.running[1] < shared.threads {
            let room = self.long < shared.threads * LONG_PER_THREAD;
            let board = self.running[Lane::Board as usize] < shared.board_threads;
            let next = match self.lanes[Lane::Play as usize].pop_where(|w| room || !w.starts_long) {
                Some(job) => (Lane::Play, job),
                None if board => match self.lanes[Lane::Board as usize].pop() {
                    Some(job) => (Lane::Board, job),
                    None => break,
                },
                None => break,
            };
            let (lane, (key, waiter)) = next;
            self.running[lane as usize] += 1;
            if waiter.starts_long {
                self.long += 1;
            }
            let slot = Slot {
                shared: Arc::clone(shared),
                lane,
                key,
                long: waiter.starts_long.then(|| Long(Arc::clone(shared))),
            };
            grants.push((waiter, slot));
        }
        grants
    }
}

fn deliver(grants: Vec<(Waiter, Slot)>) {
    for (waiter, slot) in grants {
        // A job that has gone hands its slot back here, as the slot drops.
        let _ = waiter.tx.send(slot);
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent even if a holder panicked: each section finishes its edits
        // before anything that could panic.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A bounded pool of engine computations with a fair queue (see the module docs).
#[derive(Clone)]
pub struct EnginePool {
    shared: Arc<Shared>,
}

impl EnginePool {
    /// A pool running at most `threads` computations at once (at least one).
    pub fn new(threads: usize) -> EnginePool {
        let threads = threads.max(1);
        EnginePool {
            shared: Arc::new(Shared {
                threads,
                board_threads: threads.saturating_sub(1).max(1),
                anonymous: AtomicU64::new(0),
                state: Mutex::new(State {
                    lanes: [FairQueue::new(), FairQueue::new()],
                    running: [0, 0],
                    held: HashMap::new(),
                    closed: false,
                    long: 0,
                }),
            }),
        }
    }

    /// Computations allowed at once.
    pub fn threads(&self) -> usize {
        self.shared.threads
    }

    /// Of those, the most that analyses may hold.
    pub fn board_threads(&self) -> usize {
        self.shared.board_threads
    }

    /// Queues `work` under `key`, within `bounds` if given. The ticket resolves to a [`Slot`]
    /// when the job's turn comes (at once if a slot is free); dropping it leaves the queue.
    pub fn queue(&self, work: Work, key: &str, bounds: Option<Bounds>) -> Result<Ticket, Refused> {
        self.queue_in(work.lane(), key, bounds, false)
    }

    /// [`EnginePool::queue`] in `lane`; `starts_long` if the job starts a long search.
    fn queue_in(
        &self,
        lane: Lane,
        key: &str,
        bounds: Option<Bounds>,
        starts_long: bool,
    ) -> Result<Ticket, Refused> {
        let mut state = self.shared.lock();
        if state.closed {
            return Err(Refused::Closed);
        }
        if let Some(b) = bounds {
            let held = state.held(lane, key);
            if held >= b.per_key {
                return Err(Refused::KeyFull { held });
            }
        }
        let (tx, rx) = oneshot::channel();
        let id = state.lanes[lane as usize].push(key, Waiter { tx, starts_long });
        state.hold(lane, key);
        let grants = state.dispatch(&self.shared);
        let mut ticket = Ticket {
            shared: Arc::clone(&self.shared),
            lane,
            queued: Some(id),
            queued_at: Instant::now(),
            rx,
        };
        if let Some(b) = bounds {
            let waiting = state.lanes[lane as usize].len();
            if waiting > b.queued && state.lanes[lane as usize].remove(id).is_some() {
                state.unhold(lane, key);
                ticket.queued = None;
                drop(state);
                deliver(grants);
                return Err(Refused::QueueFull {
                    queued: waiting - 1,
                });
            }
        }
        drop(state);
        deliver(grants);
        Ok(ticket)
    }

    /// Chooses a move for the side to move of `pos`, queued under `key` (the client the game
    /// belongs to, or the game's id) in the play lane. Never refused for being busy; `None` only
    /// if the pool was closed or the computation panicked.
    pub async fn choose_for(
        &self,
        key: &str,
        pos: Position,
        scoring: Scoring,
        level: u8,
        movetime: Duration,
        seed: u64,
    ) -> Option<Move> {
        let long = level >= mabula_engine::MAX_LEVEL;
        let slot = self.queue_in(Lane::Play, key, None, long).ok()?.await?;
        slot.run_in_turns(move |turns| {
            let mv = mabula_engine::choose_move_in_turns(
                &pos,
                scoring,
                level,
                Some(movetime),
                seed,
                Some(turns.clone()),
            );
            // Cut short because the pool closed: not the move of its level.
            (!turns.ended()).then_some(mv)
        })
        .await
        .flatten()
    }

    /// [`EnginePool::choose_for`] under a key of its own: first come, first served among the
    /// calls without a key.
    pub async fn choose(
        &self,
        pos: Position,
        scoring: Scoring,
        level: u8,
        movetime: Duration,
        seed: u64,
    ) -> Option<Move> {
        let n = self.shared.anonymous.fetch_add(1, Ordering::Relaxed);
        let key = format!("anonymous:{n}");
        self.choose_for(&key, pos, scoring, level, movetime, seed)
            .await
    }

    /// How many computations could start right now.
    pub fn available(&self) -> usize {
        let state = self.shared.lock();
        self.shared.threads - (state.running[0] + state.running[1])
    }

    /// Jobs waiting for a slot, in all.
    pub fn waiting(&self) -> usize {
        let state = self.shared.lock();
        state.lanes.iter().map(FairQueue::len).sum()
    }

    /// Refuses new work; queued jobs give up (their tickets resolve to `None`). Running ones
    /// finish.
    pub fn close(&self) {
        let mut state = self.shared.lock();
        state.closed = true;
        for lane in [Lane::Play, Lane::Board] {
            while let Some((key, waiter)) = state.lanes[lane as usize].pop() {
                state.unhold(lane, &key);
                drop(waiter);
            }
        }
    }
}

/// A queued job: resolves to its [`Slot`] when its turn comes, or to `None` if the pool closed.
/// Dropped before that, it leaves the queue.
#[must_use = "a ticket leaves the queue when dropped"]
pub struct Ticket {
    shared: Arc<Shared>,
    lane: Lane,
    /// Its place in the queue until a slot was handed to it.
    queued: Option<JobId>,
    /// When it was queued, for the metric of the time spent waiting.
    queued_at: Instant,
    rx: oneshot::Receiver<Slot>,
}

impl Future for Ticket {
    type Output = Option<Slot>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Slot>> {
        match Pin::new(&mut self.rx).poll(cx) {
            Poll::Ready(slot) => {
                self.queued = None;
                if slot.is_ok() {
                    crate::metrics::engine_waited(self.queued_at.elapsed());
                }
                Poll::Ready(slot.ok())
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Ticket {
    /// Blocks the thread until the slot comes; `None` if the pool closed. Only for blocking
    /// threads, never in async code.
    fn wait(mut self) -> Option<Slot> {
        let rx = std::mem::replace(&mut self.rx, oneshot::channel().1);
        let slot = rx.blocking_recv().ok();
        self.queued = None;
        slot
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Some(id) = self.queued.take() {
            let mut state = self.shared.lock();
            if let Some((key, _)) = state.lanes[self.lane as usize].remove(id) {
                state.unhold(self.lane, &key);
            }
            // Otherwise a slot was handed to it already: it sits in `rx`, and goes back to the
            // pool when `rx` drops, after this.
        }
    }
}

/// One computation's place in the pool; the place is free again when the slot drops.
pub struct Slot {
    shared: Arc<Shared>,
    lane: Lane,
    key: String,
    /// The first slot of a long search carries its place among the long searches, which the
    /// search keeps across its turns.
    long: Option<Long>,
}

/// A long search's place among those started; given back when dropped.
struct Long(Arc<Shared>);

impl Drop for Long {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.long -= 1;
        let grants = state.dispatch(&self.0);
        drop(state);
        deliver(grants);
    }
}

impl Slot {
    /// Runs `work` on a blocking thread, holding the slot until it ends. `None` if it panicked.
    pub async fn run<T: Send + 'static>(
        self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        tokio::task::spawn_blocking(move || {
            let _slot = self;
            work()
        })
        .await
        .ok()
    }

    /// Runs `work` on a thread of its own in [`Turns`] of [`SLICE`]: between slices the slot
    /// goes back to the pool and the work queues again under its key, behind the keys waiting
    /// now, while it stays paused where it was. `None` if it panicked or no thread could be
    /// started.
    ///
    /// Not on Tokio's blocking threads: paused work holds its thread, and enough of it would
    /// leave none for the others there (password hashes, pictures), nor for a job given a slot.
    pub async fn run_in_turns<T: Send + 'static>(
        mut self,
        work: impl FnOnce(Turns) -> T + Send + 'static,
    ) -> Option<T> {
        let long = self.long.take();
        let pool = EnginePool {
            shared: Arc::clone(&self.shared),
        };
        let (lane, key) = (self.lane, self.key.clone());
        // The slot while the work runs; empty while it waits for its next turn.
        let held = Arc::new(Mutex::new(Some(self)));
        let holder = Arc::clone(&held);
        let turns = Turns::new(SLICE, move || {
            // Queued before the slot is given up, so that the key's place is kept.
            let ticket = pool.queue_in(lane, &key, None, false);
            drop(lock(&holder).take());
            match ticket.ok().and_then(Ticket::wait) {
                Some(slot) => {
                    *lock(&holder) = Some(slot);
                    true
                }
                None => false,
            }
        });
        let (tx, rx) = oneshot::channel();
        let thread = std::thread::Builder::new()
            .name("mabula-engine".into())
            .spawn(move || {
                let out = work(turns);
                drop(lock(&held).take());
                drop(long);
                let _ = tx.send(out);
            });
        if let Err(e) = thread {
            // The work, and the slot with it, was dropped.
            tracing::error!("no thread for an engine computation: {e}");
            return None;
        }
        rx.await.ok()
    }
}

/// Locks `m`, which stays consistent even if a holder panicked (it only holds a slot).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.running[self.lane as usize] -= 1;
        state.unhold(self.lane, &self.key);
        let grants = state.dispatch(&self.shared);
        drop(state);
        deliver(grants);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    fn drain(q: &mut FairQueue<&'static str>) -> Vec<&'static str> {
        std::iter::from_fn(|| q.pop().map(|(_, job)| job)).collect()
    }

    #[test]
    fn a_key_with_many_jobs_lets_a_later_key_in_after_one_of_them() {
        let mut q = FairQueue::new();
        for job in ["a1", "a2", "a3", "a4", "a5"] {
            q.push("a", job);
        }
        assert_eq!(q.pop().map(|(_, j)| j), Some("a1"));
        q.push("b", "b1");
        assert_eq!(drain(&mut q), ["b1", "a2", "a3", "a4", "a5"]);
    }

    #[test]
    fn keys_with_jobs_waiting_take_turns() {
        let mut q = FairQueue::new();
        for job in ["a1", "a2", "a3"] {
            q.push("a", job);
        }
        for job in ["b1", "b2"] {
            q.push("b", job);
        }
        for job in ["c1", "c2", "c3"] {
            q.push("c", job);
        }
        assert_eq!(
            drain(&mut q),
            ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "c3"]
        );
    }

    #[test]
    fn a_key_just_served_waits_behind_the_keys_of_the_same_round() {
        let mut q = FairQueue::new();
        q.push("a", "a1");
        q.push("b", "b1");
        assert_eq!(q.pop().map(|(_, j)| j), Some("a1"));
        q.push("a", "a2");
        q.push("c", "c1");
        assert_eq!(drain(&mut q), ["b1", "c1", "a2"]);
    }

    #[test]
    fn an_idle_key_earns_no_credit_for_later() {
        let mut q = FairQueue::new();
        q.push("b", "b1");
        assert_eq!(drain(&mut q), ["b1"]);
        for job in ["a1", "a2", "a3", "a4"] {
            q.push("a", job);
        }
        for _ in 0..3 {
            q.pop();
        }
        // b was idle for three rounds: it joins the round being served, and takes turns with a
        // from there, with no extra turns for the rounds it missed.
        q.push("b", "b2");
        q.push("b", "b3");
        q.push("a", "a5");
        assert_eq!(drain(&mut q), ["b2", "a4", "b3", "a5"]);
    }

    #[test]
    fn without_keys_in_common_the_queue_is_first_come_first_served() {
        let mut q = FairQueue::new();
        for (key, job) in [("x", "1"), ("y", "2"), ("z", "3"), ("w", "4")] {
            q.push(key, job);
        }
        assert_eq!(drain(&mut q), ["1", "2", "3", "4"]);
    }

    #[test]
    fn a_removed_job_leaves_the_others_in_order_and_gives_back_its_round() {
        let mut q = FairQueue::new();
        q.push("a", "a1");
        let a2 = q.push("a", "a2");
        q.push("b", "b1");
        assert_eq!(q.remove(a2), Some(("a".into(), "a2")));
        assert!(q.remove(a2).is_none());
        q.push("a", "a3");
        q.push("b", "b2");
        assert_eq!(drain(&mut q), ["a1", "b1", "a3", "b2"]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_job_passed_over_keeps_its_place() {
        let mut q = FairQueue::new();
        for (key, job) in [("a", "a1"), ("b", "b1"), ("c", "c1")] {
            q.push(key, job);
        }
        assert_eq!(q.pop_where(|j| *j != "a1").map(|(_, j)| j), Some("b1"));
        assert_eq!(drain(&mut q), ["a1", "c1"]);
    }

    /// Whether a ticket has its slot now (without a runtime: the pool hands slots out as plain
    /// messages).
    fn granted(ticket: &mut Ticket) -> Option<Slot> {
        ticket.now_or_never().flatten()
    }

    fn queue(pool: &EnginePool, work: Work, key: &str) -> Ticket {
        pool.queue(work, key, None).expect("queued")
    }

    #[test]
    fn slots_go_round_robin_across_keys_one_at_a_time() {
        let pool = EnginePool::new(1);
        let mut a: Vec<Ticket> = (0..4).map(|_| queue(&pool, Work::Move, "a")).collect();
        let mut b = queue(&pool, Work::Move, "b");
        let first = granted(&mut a[0]).expect("a free slot");
        assert!(granted(&mut a[1]).is_none());
        assert!(granted(&mut b).is_none());
        assert_eq!(pool.available(), 0);
        drop(first);
        let second = granted(&mut b).expect("b's turn comes next");
        assert!(granted(&mut a[1]).is_none());
        drop(second);
        assert!(granted(&mut a[1]).is_some());
    }

    #[test]
    fn play_work_is_served_before_analyses_queued_earlier() {
        let pool = EnginePool::new(1);
        let mut running = queue(&pool, Work::Analysis, "x");
        let slot = granted(&mut running).expect("a free slot");
        let mut analysis = queue(&pool, Work::Analysis, "y");
        let mut hint = queue(&pool, Work::Hint, "game:1");
        let mut mv = queue(&pool, Work::Move, "z");
        drop(slot);
        let hint_slot = granted(&mut hint).expect("the hint goes first");
        assert!(granted(&mut analysis).is_none());
        drop(hint_slot);
        let move_slot = granted(&mut mv).expect("then the move");
        assert!(granted(&mut analysis).is_none());
        drop(move_slot);
        assert!(granted(&mut analysis).is_some());
    }

    #[test]
    fn analyses_leave_a_slot_for_hints_and_moves() {
        let pool = EnginePool::new(2);
        assert_eq!(pool.board_threads(), 1);
        let mut first = queue(&pool, Work::Analysis, "x");
        let mut second = queue(&pool, Work::Analysis, "y");
        let _running = granted(&mut first).expect("a free slot");
        assert!(granted(&mut second).is_none(), "one slot for analyses");
        assert_eq!(pool.available(), 1);
        let mut hint = queue(&pool, Work::Hint, "game:1");
        assert!(
            granted(&mut hint).is_some(),
            "the other slot is free for a hint"
        );
    }

    #[test]
    fn bounds_refuse_a_key_over_its_share_and_a_full_queue() {
        let pool = EnginePool::new(1);
        let bounds = Bounds {
            per_key: 2,
            queued: 2,
        };
        let a1 = pool.queue(Work::Analysis, "a", Some(bounds)).expect("runs");
        let a2 = pool
            .queue(Work::Analysis, "a", Some(bounds))
            .expect("waits");
        assert_eq!(
            pool.queue(Work::Analysis, "a", Some(bounds)).err(),
            Some(Refused::KeyFull { held: 2 })
        );
        let _b1 = pool
            .queue(Work::Analysis, "b", Some(bounds))
            .expect("waits");
        assert_eq!(
            pool.queue(Work::Analysis, "c", Some(bounds)).err(),
            Some(Refused::QueueFull { queued: 2 })
        );
        // Moves are not analyses: their lane is not bounded by these.
        let _mv = queue(&pool, Work::Move, "a");
        // A job that leaves the queue gives its place back.
        drop(a2);
        let _c1 = pool
            .queue(Work::Analysis, "c", Some(bounds))
            .expect("room again");
        let _a3 = pool
            .queue(
                Work::Analysis,
                "a",
                Some(Bounds {
                    queued: 3,
                    ..bounds
                }),
            )
            .expect("a holds one again");
        drop(a1);
    }

    #[test]
    fn work_that_can_start_at_once_is_never_refused_for_a_full_queue() {
        let pool = EnginePool::new(1);
        let bounds = Bounds {
            per_key: 1,
            queued: 0,
        };
        let mut t = pool
            .queue(Work::Analysis, "a", Some(bounds))
            .expect("starts");
        assert!(granted(&mut t).is_some());
    }

    #[test]
    fn a_closed_pool_refuses_work_and_lets_queued_work_go() {
        let pool = EnginePool::new(1);
        let mut running = queue(&pool, Work::Move, "a");
        let _slot = granted(&mut running).expect("a free slot");
        let waiting = queue(&pool, Work::Move, "b");
        pool.close();
        assert!(matches!(waiting.now_or_never(), Some(None)));
        assert_eq!(
            pool.queue(Work::Move, "c", None).err(),
            Some(Refused::Closed)
        );
        assert_eq!(pool.waiting(), 0);
    }

    /// Three jobs of one key that compute until `stop`, taking turns, on a pool of one thread.
    fn long_jobs(
        pool: &EnginePool,
        stop: &Arc<std::sync::atomic::AtomicBool>,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        searches(pool, stop, 3, false)
    }

    /// `n` jobs of one key that compute until `stop`, taking turns; `long` searches if `long`.
    fn searches(
        pool: &EnginePool,
        stop: &Arc<std::sync::atomic::AtomicBool>,
        n: usize,
        long: bool,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        (0..n)
            .map(|_| {
                let (pool, stop) = (pool.clone(), Arc::clone(stop));
                tokio::spawn(async move {
                    let ticket = pool.queue_in(Lane::Play, "long", None, long);
                    let slot = ticket.expect("queued").await.expect("a slot");
                    slot.run_in_turns(move |turns| {
                        let clock = mabula_engine::Limits {
                            turns: Some(turns),
                            ..mabula_engine::Limits::none()
                        }
                        .start();
                        while !stop.load(Ordering::Relaxed) && !clock.expired() {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    })
                    .await;
                })
            })
            .collect()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_short_job_gets_a_slot_between_the_slices_of_long_ones() {
        let pool = EnginePool::new(1);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let long = long_jobs(&pool, &stop);
        tokio::time::sleep(SLICE * 4).await;
        let asked = Instant::now();
        let slot = tokio::time::timeout(Duration::from_secs(20), queue(&pool, Work::Move, "short"))
            .await
            .expect("a turn between the long jobs' slices, not after them")
            .expect("a slot");
        let waited = asked.elapsed();
        assert_eq!(slot.run(|| 7).await, Some(7));
        stop.store(true, Ordering::Relaxed);
        for job in long {
            job.await.expect("the long job ends");
        }
        // One slice, normally; the bound leaves room for a loaded machine.
        assert!(waited < Duration::from_secs(5), "waited {waited:?}");
        assert_eq!(pool.available(), 1);
        assert_eq!(pool.waiting(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_paused_job_ends_when_the_pool_closes() {
        let pool = EnginePool::new(1);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let long = long_jobs(&pool, &stop);
        tokio::time::sleep(SLICE * 4).await;
        pool.close();
        for job in long {
            tokio::time::timeout(Duration::from_secs(20), job)
                .await
                .expect("a paused job gives up")
                .expect("it ends");
        }
        assert_eq!(pool.available(), 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn only_a_few_long_searches_start_and_short_ones_pass_the_others() {
        let pool = EnginePool::new(1);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let long = searches(&pool, &stop, LONG_PER_THREAD + 2, true);
        let started = Instant::now();
        while pool.shared.lock().long < LONG_PER_THREAD {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the first ones start"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(SLICE * 8).await;
        assert_eq!(pool.shared.lock().long, LONG_PER_THREAD, "and no more");
        let slot = tokio::time::timeout(Duration::from_secs(20), queue(&pool, Work::Move, "short"))
            .await
            .expect("a short job passes the long searches that have not started")
            .expect("a slot");
        drop(slot);
        stop.store(true, Ordering::Relaxed);
        for job in long {
            tokio::time::timeout(Duration::from_secs(20), job)
                .await
                .expect("every long search starts in the end")
                .expect("and ends");
        }
        assert_eq!(pool.shared.lock().long, 0);
        assert_eq!(pool.available(), 1);
    }
}
