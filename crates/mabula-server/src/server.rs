//! Starting and stopping: [`run`] serves the application on a bound listener until a shutdown
//! future completes, then stops in order: no new connections, requests in flight finish (their
//! moves are committed), WebSockets are closed, queued writes are committed, the database is
//! closed.
//!
//! `run` accepts connections itself, so that the limits that act before a request is read are
//! ours: the connection caps per client address and in all (checked at accept, where a refused
//! connection costs no more than a short answer), and, in [`conn`], the timeouts on request heads
//! and idle connections, the request head's size, and JSON bodies on protocol errors.

mod conn;

use crate::api::limits::Slots;
use crate::api::{self, AppState};
use crate::extract::TrustedProxies;
use crate::services::{Config, Services};
use crate::store::{Store, StoreError};
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The database URL (see [`crate::store::open_backend`]).
    pub database: String,
    /// Engine and memory settings.
    pub services: Config,
    /// Requests per second allowed per client address (0: no limit).
    pub rate_limit: f64,
    /// Burst size of the rate limit.
    pub rate_burst: f64,
    /// The time a client has to send a request head, from the connection's start or from the
    /// head's first byte; then it is answered `408` (if part of a head came) and disconnected.
    pub header_timeout: Duration,
    /// The time a client has to send a request's body once its head is in; then it is answered
    /// `408` and disconnected.
    pub body_timeout: Duration,
    /// The time a connection may stay open with no request in flight after a response.
    pub idle_timeout: Duration,
    /// Open connections allowed from one client address (0: no cap). Connections from a
    /// trusted proxy are not counted per address; instead each request that comes through one
    /// counts, while it is in flight, for the client the proxy names.
    pub max_connections_per_address: usize,
    /// Open connections allowed in all (0: no cap). Keep it below the process's limit on open
    /// files, or the server fails to accept before it can refuse.
    pub max_connections: usize,
    /// Open WebSockets allowed from one client address (0: no cap).
    pub max_websockets_per_address: usize,
    /// Lobby and tournament sockets one client address may open a minute on this instance, in
    /// bursts of a third of it (0: no limit). Each is sent a whole list at once (140 KB for the
    /// lobby's 500 seeks, uncompressed when the client offers no compression): issue 51 saw one
    /// address reconnecting pull 218 MB in 10 s.
    pub socket_opens_per_minute: u32,
    /// Open WebSockets allowed in all (0: no cap), places for seat holders' game sockets aside.
    /// A spectator's place is taken over by a seat holder when every seat's place is taken.
    pub max_websockets: usize,
    /// Places kept for seat holders' game sockets, beside `max_websockets` (issue 51: spectators
    /// must never keep a player out of their own game).
    pub max_seat_websockets: usize,
    /// Game sockets one seat of a game may hold at once on an instance (0: no cap): a player's
    /// tabs and devices, and no more.
    pub max_websockets_per_seat: usize,
    /// The longest request target (path and query) accepted, in bytes; longer ones get `414`.
    pub max_uri_bytes: usize,
    /// The most bytes of request headers accepted; more get `431`.
    pub max_header_bytes: usize,
    /// Proxies whose `X-Forwarded-For` names the client (empty: the header is ignored).
    pub trusted_proxies: Vec<IpAddr>,
}

impl ServerConfig {
    /// The defaults, on the database `database`.
    pub fn new(database: impl Into<String>) -> ServerConfig {
        ServerConfig {
            database: database.into(),
            services: Config::default(),
            rate_limit: 50.0,
            rate_burst: 100.0,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections_per_address: 256,
            max_connections: 4096,
            max_websockets_per_address: 64,
            socket_opens_per_minute: 60,
            max_websockets: 2048,
            max_seat_websockets: 1024,
            max_websockets_per_seat: 8,
            max_uri_bytes: 8 * 1024,
            max_header_bytes: 32 * 1024,
            trusted_proxies: Vec::new(),
        }
    }
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened or migrated.
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    /// The listener failed.
    #[error("server I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The instance could not register in the database.
    #[error("cannot start: {0}")]
    Start(String),
}

/// Connections being closed gently at once, at most: refused ones and ones that were answered
/// an error (see `conn::close_gently`).
const MAX_LINGERING: usize = 256;

/// Serves Mabula on `listener` until `shutdown` completes.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let store = Store::open(&config.database).await?;
    tracing::info!("database: {} ({})", redact(&config.database), store.kind());
    let services = Services::new(store, config.services.clone());
    warn_if_over_open_files(config.max_connections);
    let (stop_tx, stop_rx) = watch::channel(false);
    if let Err(e) = services.start(stop_rx.clone()).await {
        services.store.close().await;
        return Err(ServerError::Start(e.message));
    }
    let limiter = Arc::new(api::limits::RateLimiter::new(
        config.rate_limit,
        config.rate_burst,
    ));
    let app = api::router(
        AppState::new(
            &services,
            stop_rx.clone(),
            Arc::new(Slots::with_seats(
                "WebSockets",
                config.max_websockets_per_address,
                config.max_websockets,
                config.max_seat_websockets,
                config.max_websockets_per_seat,
            )),
            Arc::new(api::limits::RateLimiter::new(
                f64::from(config.socket_opens_per_minute) / 60.0,
                f64::from(config.socket_opens_per_minute / 3),
            )),
        ),
        limiter,
    );
    let edge = Arc::new(conn::Edge {
        router: app,
        proxies: TrustedProxies::new(config.trusted_proxies.iter().copied()),
        header_timeout: config.header_timeout,
        body_timeout: config.body_timeout,
        idle_timeout: config.idle_timeout,
        max_uri_bytes: config.max_uri_bytes,
        max_header_bytes: config.max_header_bytes,
        lingering: Arc::new(Semaphore::new(MAX_LINGERING)),
        proxied: Arc::new(Slots::new(
            "connections",
            config.max_connections_per_address,
            0,
        )),
    });
    let connections = Arc::new(Slots::new(
        "connections",
        config.max_connections_per_address,
        config.max_connections,
    ));

    // Every connection task holds a clone of `open_rx`; when all are dropped, all have ended.
    let (open_tx, open_rx) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Most likely out of file descriptors: wait for some connections to close.
                tracing::error!("cannot accept a connection: {e}");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(500)) => continue,
                    () = &mut shutdown => break,
                }
            }
        };
        let ip = peer.ip().to_canonical();
        match connections.take(ip, !edge.proxies.contains(ip)) {
            Ok(slot) => {
                let _ = stream.set_nodelay(true);
                let (edge, stop, open) = (Arc::clone(&edge), stop_rx.clone(), open_rx.clone());
                tokio::spawn(async move {
                    conn::serve(edge, stream, peer, slot, stop).await;
                    drop(open);
                });
            }
            Err(err) => conn::refuse(stream, peer, err, &edge.lingering),
        }
    }
    tracing::info!("shutting down");
    drop(listener);
    stop_tx.send_replace(true);
    drop(open_rx);
    open_tx.closed().await;

    services.stop().await;
    tracing::info!("stopped");
    Ok(())
}

/// Errors of one connection that `accept` reports, after which the listener is fine.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Warns when `max_connections` cannot be reached under the process's limit on open files
/// (Linux only: read from `/proc`), since the server then runs out of descriptors before it
/// starts refusing connections.
fn warn_if_over_open_files(max_connections: usize) {
    let Some(limit) = open_files_limit() else {
        return;
    };
    // The database, the listener and the log need a few.
    let usable = limit.saturating_sub(64);
    if max_connections == 0 || max_connections as u64 > usable {
        tracing::warn!(
            "the open files limit ({limit}) is below what --max-connections allows; \
             raise it (ulimit -n) or lower --max-connections under {usable}"
        );
    }
}

/// The soft limit on open files, from `/proc/self/limits`.
fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Completes on Ctrl-C or SIGTERM. The handlers are installed by this call, not when the
/// future is first polled: a SIGTERM that comes as soon as the server answers (the accept loop
/// polls this future only between connections) stops it gracefully rather than killing it.
/// Call it inside the runtime.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (term, int) = (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::interrupt()).ok(),
        );
        async move {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(term) => {}
                () = wait(int) => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The URL without its password, for logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_the_logs() {
        assert_eq!(
            super::redact("postgres://me:secret@localhost:5432/db"),
            "postgres://me:***@localhost:5432/db"
        );
        assert_eq!(super::redact("/tmp/x.sqlite3"), "/tmp/x.sqlite3");
    }
}
