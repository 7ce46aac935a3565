//! The HTTP side: [`AppState`], one router per resource (games, analysis, ws, docs, assets), merged in [`router`], and the layers
//! every request goes through (body limit, rate limit, JSON errors, panics caught, tracing).

pub mod analysis;
pub mod assets;
pub mod docs;
pub mod games;
pub mod limits;
pub mod ws;

use crate::error::{ApiError, ErrorCode};
use crate::hub::Hub;
use crate::view::Health;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::{Json, Router};
use std::sync::Arc;
use tokio::sync::watch;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The games.
    pub hub: Arc<Hub>,
    /// Turns true when the server stops (WebSocket sessions close then).
    pub shutdown: watch::Receiver<bool>,
}

/// The most bytes a request body may have.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The whole application: the resources, the static UI, and the layers.
pub fn router(state: AppState, limiter: Arc<limits::RateLimiter>) -> Router {
    Router::new()
        .route("/healthz", get(health))
        .merge(games::router())
        .merge(analysis::router())
        .merge(ws::router())
        .merge(docs::router())
        .fallback(assets::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            limiter,
            limits::rate_limit,
        ))
        .layer(axum::middleware::from_fn(limits::json_errors))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            limits::panic_response,
        ))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

/// Liveness.
#[utoipa::path(get, path = "/healthz", tag = "server",
    responses(
        (status = 200, description = "The server is up", body = Health),
        (status = 429, response = docs::Throttled),
    ))]
pub async fn health() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
    })
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        "this endpoint does not take this method",
    )
}
