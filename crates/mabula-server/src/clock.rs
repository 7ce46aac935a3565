//! The server's time, as an input: every "now" a service stamps or compares, every deadline and
//! grace period it waits for, is read from one [`Clock`].
//!
//! `mabula serve` runs on [`Clock::real`]. A test runs on a controlled clock, the real time plus
//! an offset that only the test moves: [`Clock::manual`] in the test's own process (moved with
//! [`Clock::advance`]), or [`Clock::from_file`] for the real `mabula serve` processes of a test
//! (`--clock-file PATH`): the offset is the number of milliseconds written in that file, which
//! every instance of the test reads, so that a whole cluster moves on at once
//! ([`advance_file`]). A test that needs "30 s later" moves the clock instead of sleeping.
//!
//! The waits ([`Clock::sleep_until`], [`Clock::interval`]) end when the clock reaches them,
//! whether the real time passed or the offset moved. What is kept on the real time is the
//! machinery, not the game: timeouts of slow clients, database connections and the listener.
//! The instances' heartbeats follow the clock (their liveness is judged on it).
//!
//! A controlled clock also knows when what it woke is done ([`Clock::settled`]): a wait that
//! has come due and not yet ended, or a job that a tick or a wait started and that has not yet
//! waited again ([`Busy`]), keeps it unsettled. A test moves the clock on in steps and waits for
//! every instance to settle after each, so that what happens at one time happens before the
//! clock moves on, however busy the machine is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// How often the instances on a clock file look for a new offset (their waits end this late at
/// worst after the file changed; a reading of "now" always sees the file as it is).
const FILE_POLL: Duration = Duration::from_millis(10);

/// The time of one instance; clones share it.
#[derive(Clone, Debug)]
pub struct Clock(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    /// Milliseconds added to the real time.
    offset: AtomicI64,
    /// Where the offset is read from, for a controlled clock shared by processes.
    file: Option<PathBuf>,
    /// Tells the waits that the offset moved.
    moved: watch::Sender<i64>,
    /// Whether a test moves it (a real clock is never moved).
    controlled: bool,
    /// What a controlled clock's test waits for (see [`Clock::settled`]).
    pending: Mutex<Pending>,
    /// Told of every change of `pending`.
    changed: Notify,
}

/// The waits in progress and the jobs they started, on a controlled clock.
#[derive(Debug, Default)]
struct Pending {
    /// How many waits end at each time (ms).
    waits: BTreeMap<i64, usize>,
    /// Jobs started by a wait or a tick and still running.
    busy: usize,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::real()
    }
}

impl Clock {
    /// The real time.
    pub fn real() -> Clock {
        Clock::with(None, false)
    }

    /// A controlled clock at the real time, moved on only by [`Clock::advance`].
    pub fn manual() -> Clock {
        Clock::with(None, true)
    }

    /// A controlled clock whose offset (in ms) is the number written in `path` (none or an
    /// unreadable file: 0), shared by every process given the same file.
    pub fn from_file(path: &Path) -> Clock {
        let clock = Clock::with(Some(path.to_path_buf()), true);
        let weak = Arc::downgrade(&clock.0);
        // A thread, not a task: the clock may be made before the runtime.
        std::thread::Builder::new()
            .name("clock-file".into())
            .spawn(move || {
                while let Some(inner) = weak.upgrade() {
                    let offset = read_offset(inner.file.as_deref());
                    if inner.offset.swap(offset, Ordering::SeqCst) != offset {
                        inner.moved.send_replace(offset);
                    }
                    drop(inner);
                    std::thread::sleep(FILE_POLL);
                }
            })
            .expect("a thread for the clock file");
        clock
    }

    fn with(file: Option<PathBuf>, controlled: bool) -> Clock {
        let offset = read_offset(file.as_deref());
        Clock(Arc::new(Inner {
            offset: AtomicI64::new(offset),
            file,
            moved: watch::channel(offset).0,
            controlled,
            pending: Mutex::default(),
            changed: Notify::new(),
        }))
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        let offset = match &self.0.file {
            Some(path) => read_offset(Some(path)),
            None => self.0.offset.load(Ordering::SeqCst),
        };
        real_ms() + offset
    }

    /// Moves the clock on by `by` (a manual clock; on a clock file, [`advance_file`]).
    pub fn advance(&self, by: Duration) {
        assert!(self.0.controlled, "the real clock is never moved");
        let offset = self
            .0
            .offset
            .fetch_add(by.as_millis() as i64, Ordering::SeqCst);
        self.0.moved.send_replace(offset + by.as_millis() as i64);
    }

    /// Waits until the clock reads at least `at` (ms since the epoch); what the caller does then
    /// is a job of the clock's as long as it holds the answer.
    pub async fn sleep_until(&self, at: i64) -> Busy {
        let _waiting = Waiting::new(self, at);
        self.wait_until(at).await;
        Busy::new(self)
    }

    /// Waits until the clock reads at least `at`, unknown to [`Clock::settled`].
    async fn wait_until(&self, at: i64) {
        let mut moved = self.0.moved.subscribe();
        loop {
            moved.borrow_and_update();
            let left = at - self.now_ms();
            if left <= 0 {
                return;
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(left as u64)) => {}
                changed = moved.changed() => {
                    if changed.is_err() {
                        // The clock is gone with its instance: nothing will move it again.
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }

    /// A job started now that the clock is not settled without (work spawned apart from the
    /// request that asked for it, which a test must see done before the time moves on).
    pub fn job(&self) -> Busy {
        Busy::new(self)
    }

    /// Whether a test moves this clock.
    pub fn is_controlled(&self) -> bool {
        self.0.controlled
    }

    /// Waits until nothing is due on this clock: no wait whose time has come is still to end,
    /// and every job that a wait or a tick started has waited again or ended. A real clock is
    /// always settled.
    pub async fn settled(&self) {
        if !self.0.controlled {
            return;
        }
        loop {
            let changed = self.0.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            // A file's move is seen here at once, not at the next poll.
            if self.0.file.is_some() {
                let offset = read_offset(self.0.file.as_deref());
                if self.0.offset.swap(offset, Ordering::SeqCst) != offset {
                    self.0.moved.send_replace(offset);
                }
            }
            let now = self.now_ms();
            {
                let pending = self.0.pending.lock().unwrap_or_else(|e| e.into_inner());
                let due = pending.waits.range(..=now).next().is_some();
                if !due && pending.busy == 0 {
                    return;
                }
            }
            // A wait wakes by itself when its time comes, without a change to hear of.
            tokio::select! {
                () = changed => {}
                () = tokio::time::sleep(FILE_POLL) => {}
            }
        }
    }

    fn note(&self, change: impl FnOnce(&mut Pending)) {
        if self.0.controlled {
            change(&mut self.0.pending.lock().unwrap_or_else(|e| e.into_inner()));
            self.0.changed.notify_waiters();
        }
    }

    /// Ticks every `period` of this clock, the first tick at once; a tick missed (the clock
    /// moved on by several periods, or the work took long) is not made up: the next one is a
    /// period after the last.
    pub fn interval(&self, period: Duration) -> Ticker {
        Ticker {
            due: Waiting::new(self, self.now_ms()),
            clock: self.clone(),
            period: period.as_millis().max(1) as i64,
            job: None,
        }
    }
}

/// A wait in progress, known to its clock until it ends or is dropped.
#[derive(Debug)]
struct Waiting {
    clock: Clock,
    at: i64,
}

impl Waiting {
    fn new(clock: &Clock, at: i64) -> Waiting {
        clock.note(|p| *p.waits.entry(at).or_default() += 1);
        Waiting {
            clock: clock.clone(),
            at,
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let at = self.at;
        self.clock.note(|p| {
            if let Some(n) = p.waits.get_mut(&at) {
                *n -= 1;
                if *n == 0 {
                    p.waits.remove(&at);
                }
            }
        });
    }
}

/// A job that a wait or a tick of a controlled clock started: the clock is not settled while it
/// is held.
#[derive(Debug)]
#[must_use = "the job is done when this is dropped"]
pub struct Busy(Option<Clock>);

impl Busy {
    fn new(clock: &Clock) -> Busy {
        clock.note(|p| p.busy += 1);
        Busy(clock.0.controlled.then(|| clock.clone()))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(clock) = self.0.take() {
            clock.note(|p| p.busy -= 1);
        }
    }
}

/// Regular ticks of a [`Clock`]. Its next tick is known to the clock from the start, whether
/// or not someone waits for it: a tick whose time has come keeps the clock unsettled until it
/// is taken, and the work after it until the next call of [`Ticker::tick`] (or the ticker's
/// end).
#[derive(Debug)]
pub struct Ticker {
    clock: Clock,
    period: i64,
    /// The next tick.
    due: Waiting,
    job: Option<Busy>,
}

impl Ticker {
    /// Waits for the next tick.
    pub async fn tick(&mut self) {
        self.job = None;
        self.clock.wait_until(self.due.at).await;
        self.job = Some(Busy::new(&self.clock));
        self.due = Waiting::new(&self.clock, self.clock.now_ms() + self.period);
    }
}

/// Moves the clock of every instance on clock file `path` on by `by`.
pub fn advance_file(path: &Path, by: Duration) -> std::io::Result<()> {
    let offset = read_offset(Some(path)) + by.as_millis() as i64;
    // Written beside and renamed over it, so that no reader sees half a number.
    let next = path.with_extension("next");
    std::fs::write(&next, offset.to_string())?;
    std::fs::rename(&next, path)
}

fn read_offset(path: Option<&Path>) -> i64 {
    path.and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(0)
}

/// The clock of this process's services: the real one until [`install`] says otherwise.
static INSTALLED: std::sync::RwLock<Option<Clock>> = std::sync::RwLock::new(None);

/// Makes `clock` the one [`now_ms`] reads (the services install theirs when they are made).
pub fn install(clock: &Clock) {
    *INSTALLED.write().unwrap_or_else(|e| e.into_inner()) = Some(clock.clone());
}

/// The installed clock (the real one when none is).
pub fn installed() -> Clock {
    INSTALLED
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_default()
}

/// Milliseconds since the Unix epoch on the installed clock.
pub fn now_ms() -> i64 {
    match &*INSTALLED.read().unwrap_or_else(|e| e.into_inner()) {
        Some(clock) => clock.now_ms(),
        None => real_ms(),
    }
}

fn real_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_controlled_clock_settles_once_what_it_woke_is_done() {
        let clock = Clock::manual();
        let (done_tx, mut done) = tokio::sync::mpsc::unbounded_channel();
        let (go_tx, go) = tokio::sync::oneshot::channel::<()>();
        let (ready_tx, ready) = tokio::sync::oneshot::channel::<()>();
        let job = tokio::spawn({
            let clock = clock.clone();
            async move {
                let mut ticks = clock.interval(Duration::from_secs(60));
                ticks.tick().await;
                ready_tx.send(()).expect("ready");
                ticks.tick().await;
                // The tick's work: it lasts until it is told to finish.
                go.await.expect("go");
                done_tx.send(()).expect("sent");
                ticks.tick().await;
            }
        });
        // Once the first tick's work is done, nothing is due before the clock moves.
        ready.await.expect("ready");
        tokio::time::timeout(Duration::from_secs(5), clock.settled())
            .await
            .expect("settled before");
        clock.advance(Duration::from_secs(61));
        let mut settled = std::pin::pin!(clock.settled());
        assert!(
            tokio::time::timeout(Duration::from_millis(50), settled.as_mut())
                .await
                .is_err(),
            "the tick's work is not done"
        );
        go_tx.send(()).expect("go");
        done.recv().await.expect("done");
        tokio::time::timeout(Duration::from_secs(5), settled)
            .await
            .expect("settled once the work waits again");
        job.abort();
    }

    #[tokio::test]
    async fn a_wait_ends_when_the_clock_is_moved_past_it() {
        let clock = Clock::manual();
        let at = clock.now_ms() + 3_600_000;
        let waiting = tokio::spawn({
            let clock = clock.clone();
            async move { drop(clock.sleep_until(at).await) }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        clock.advance(Duration::from_secs(3_601));
        waiting.await.expect("woke");
        assert!(clock.now_ms() >= at);
    }

    #[tokio::test]
    async fn every_process_on_one_file_reads_the_same_offset() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("clock");
        let (a, b) = (Clock::from_file(&path), Clock::from_file(&path));
        let before = a.now_ms();
        advance_file(&path, Duration::from_secs(30)).expect("written");
        assert!(a.now_ms() >= before + 30_000);
        assert!(b.now_ms() >= before + 30_000);
        // A wait on the file ends once the poll has seen the move.
        let woke = tokio::time::timeout(Duration::from_secs(5), b.sleep_until(before + 29_000));
        drop(woke.await.expect("woke"));
    }

    #[tokio::test]
    async fn an_interval_ticks_at_once_then_once_a_period() {
        let clock = Clock::manual();
        let mut ticks = clock.interval(Duration::from_secs(60));
        ticks.tick().await;
        let start = clock.now_ms();
        clock.advance(Duration::from_secs(600));
        ticks.tick().await;
        assert!(clock.now_ms() >= start + 600_000);
    }
}
