//! Starting and stopping: [`run`] serves the application on a bound listener until a shutdown
//! future completes, then stops in order: no new connections, requests in flight finish (their
//! moves are committed), WebSockets are closed, queued writes are committed, the database is
//! closed.

use crate::api::{self, AppState};
use crate::hub::{Hub, HubConfig};
use crate::store::{Store, StoreError};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The database URL (see [`crate::store::open_backend`]).
    pub database: String,
    /// Engine and memory settings.
    pub hub: HubConfig,
    /// Requests per second allowed per client address (0: no limit).
    pub rate_limit: f64,
    /// Burst size of the rate limit.
    pub rate_burst: f64,
}

impl ServerConfig {
    /// The defaults, on the database `database`.
    pub fn new(database: impl Into<String>) -> ServerConfig {
        ServerConfig {
            database: database.into(),
            hub: HubConfig::default(),
            rate_limit: 50.0,
            rate_burst: 100.0,
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

/// Serves Mabula on `listener` until `shutdown` completes.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let store = Store::open(&config.database).await?;
    tracing::info!("database: {} ({})", redact(&config.database), store.kind());
    let hub = Hub::new(store, config.hub.clone());
    let (stop_tx, stop_rx) = watch::channel(false);
    if let Err(e) = hub.start(stop_rx.clone()).await {
        hub.store.close().await;
        return Err(ServerError::Start(e.message));
    }
    let limiter = Arc::new(api::limits::RateLimiter::new(
        config.rate_limit,
        config.rate_burst,
    ));
    let app = api::router(
        AppState {
            hub: hub.clone(),
            shutdown: stop_rx.clone(),
        },
        limiter,
    );

    let service = app.into_make_service_with_connect_info::<SocketAddr>();
    let served = axum::serve(listener, service)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down");
            let _ = stop_tx.send(true);
        })
        .await;
    hub.engine().close();
    hub.leave().await;
    hub.store.close().await;
    tracing::info!("stopped");
    Ok(served?)
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
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
