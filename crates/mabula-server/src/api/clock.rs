//! For tests on a controlled clock (`mabula serve --clock-file`, see [`crate::clock`]):
//! `POST /api/clock/settled` answers `204` once everything that the clock's last move made due on
//! this instance is done, so that a test moves a cluster's clock on in steps. Not part of the
//! API: it is not in the OpenAPI document, and a server on the real clock answers `404`.

use super::AppState;
use crate::error::{ApiError, ErrorCode};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use std::time::Duration;

/// The route, outside the documented API.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/clock/settled", post(settled))
}

async fn settled(State(app): State<AppState>) -> Result<StatusCode, ApiError> {
    if !app.clock.is_controlled() {
        return Err(ApiError::new(ErrorCode::NotFound, "no such endpoint"));
    }
    match tokio::time::timeout(Duration::from_secs(20), app.clock.settled()).await {
        Ok(()) => Ok(StatusCode::NO_CONTENT),
        Err(_) => Err(ApiError::new(
            ErrorCode::Unavailable,
            "the clock's jobs did not settle within 20 s",
        )),
    }
}
