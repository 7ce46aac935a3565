//! Layers that keep bad input from hurting: a per-address rate limit, a net that turns any error
//! answer that is not yet JSON into the API's `{code, message}` body, and a panic catcher.

use crate::error::{ApiError, ErrorBody, ErrorCode};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A token bucket per client address.
pub struct RateLimiter {
    /// Tokens added per second; 0 turns the limit off.
    per_second: f64,
    /// Bucket size: the largest burst.
    burst: f64,
    /// Each address's tokens and when they were counted.
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    /// A limiter of `per_second` requests with bursts of `burst`; `per_second == 0` is off.
    pub fn new(per_second: f64, burst: f64) -> RateLimiter {
        RateLimiter {
            per_second,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token for `ip`; on refusal, the seconds until one is available.
    pub fn check(&self, ip: IpAddr) -> Result<(), u64> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        let now = Instant::now();
        if buckets.len() > 10_000 {
            // Forget addresses whose bucket has refilled: they lose nothing.
            let (rate, burst) = (self.per_second, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst, now));
        *tokens =
            (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / self.per_second).ceil().max(1.0) as u64)
        }
    }
}

/// Refuses requests beyond the client address's rate with `429 rate_limited`.
pub async fn rate_limit(
    State(limiter): State<Arc<RateLimiter>>,
    req: Request,
    next: Next,
) -> Response {
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(ip) = ip
        && let Err(secs) = limiter.check(ip)
    {
        let mut err = ApiError::new(
            ErrorCode::RateLimited,
            format!("too many requests: retry in {secs} s"),
        );
        err.retry_after = Some(secs);
        return err.into_response();
    }
    next.run(req).await
}

/// Makes every error answer a JSON `{code, message}` (axum's own rejections are plain text).
pub async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let code = match status {
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::PayloadTooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::UnsupportedMediaType,
        StatusCode::TOO_MANY_REQUESTS => ErrorCode::RateLimited,
        s if s.is_client_error() => ErrorCode::BadRequest,
        _ => ErrorCode::Internal,
    };
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let message = String::from_utf8_lossy(&text).trim().to_string();
    let message = if message.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        message
    };
    let body = serde_json::to_vec(&ErrorBody { code, message }).unwrap_or_default();
    let mut response = Response::from_parts(parts, Body::from(body));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response.headers_mut().remove(header::CONTENT_LENGTH);
    response
}

/// The answer when a handler panics (a bug): `500 internal`, and the server goes on.
pub fn panic_response(_err: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request handler panicked");
    ApiError::new(ErrorCode::Internal, "internal error").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_burst_then_is_refused() {
        let limiter = RateLimiter::new(1.0, 3.0);
        let ip: IpAddr = [127, 0, 0, 1].into();
        for _ in 0..3 {
            assert!(limiter.check(ip).is_ok());
        }
        assert_eq!(limiter.check(ip), Err(1));
        let other: IpAddr = [127, 0, 0, 2].into();
        assert!(limiter.check(other).is_ok());
    }

    #[test]
    fn a_zero_rate_turns_the_limit_off() {
        let limiter = RateLimiter::new(0.0, 1.0);
        let ip: IpAddr = [127, 0, 0, 1].into();
        assert!((0..1000).all(|_| limiter.check(ip).is_ok()));
    }
}
