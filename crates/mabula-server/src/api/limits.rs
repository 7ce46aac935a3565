//! What keeps bad input and greedy clients from hurting: a per-address rate limit, caps on open
//! connections and WebSockets ([`Slots`]), a net that turns any error answer that is not yet JSON
//! into the API's `{code, message}` body, and a panic catcher.
//!
//! Every per-address count keys IPv6 clients by their /64 network ([`address_key`]): one host
//! usually has a whole /64 to pick addresses from, so a cap on single IPv6 addresses caps nothing.

use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::ClientAddr;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// The key under which `ip` is counted: IPv4 addresses as they are, IPv6 ones by their /64.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        v4 => v4,
    }
}

/// The key a client's queued work (engine moves, analyses) is counted under: its
/// [`address_key`], as text.
pub fn client_key(client: crate::extract::ClientAddr) -> String {
    address_key(client.0).to_string()
}

/// Open things of one kind (connections, WebSockets), counted per client address and in all,
/// under a cap on each count.
///
/// [`Slots::take`] answers a [`Slot`] that gives its place back when it is dropped, so a count
/// cannot drift from the number of things open, whichever way they end.
#[derive(Debug)]
pub struct Slots {
    /// What is counted, plural, for the refusal's message ("connections").
    what: &'static str,
    /// The most open at once from one address (0: no cap).
    per_address: usize,
    /// The most open at once in all (0: no cap).
    total: usize,
    /// The counts. A `std` mutex: it is held for a hash lookup and never across an await.
    open: Mutex<OpenCounts>,
}

#[derive(Debug, Default)]
struct OpenCounts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// One open thing's place in its [`Slots`]; dropping it gives the place back.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    /// The key it is counted under, if it is counted per address.
    key: Option<IpAddr>,
}

impl Slots {
    /// Counts of `what`, with at most `per_address` from one address and `total` in all
    /// (0: no cap).
    pub fn new(what: &'static str, per_address: usize, total: usize) -> Slots {
        Slots {
            what,
            per_address,
            total,
            open: Mutex::new(OpenCounts::default()),
        }
    }

    /// Takes a place for something opened by `ip`; `per_address` false counts it only in the
    /// total (a trusted proxy speaks for many clients). Over a cap: `429 too_many_connections`.
    pub fn take(self: &Arc<Self>, ip: IpAddr, per_address: bool) -> Result<Slot, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if self.total > 0 && open.total >= self.total {
            return Err(self.refusal(format!(
                "the server has too many open {} (at most {}); try again later",
                self.what, self.total
            )));
        }
        let key = per_address.then(|| address_key(ip));
        if let Some(key) = key {
            let count = open.by_address.entry(key).or_insert(0);
            if self.per_address > 0 && *count >= self.per_address {
                return Err(self.refusal(format!(
                    "too many open {} from your address (at most {})",
                    self.what, self.per_address
                )));
            }
            *count += 1;
        }
        open.total += 1;
        Ok(Slot {
            slots: Arc::clone(self),
            key,
        })
    }

    /// How many are open now.
    pub fn open(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .total
    }

    fn refusal(&self, message: String) -> ApiError {
        let mut err = ApiError::new(ErrorCode::TooManyConnections, message);
        err.retry_after = Some(1);
        err
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self
            .slots
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        if let Some(key) = self.key
            && let Some(count) = open.by_address.get_mut(&key)
        {
            *count -= 1;
            if *count == 0 {
                open.by_address.remove(&key);
            }
        }
    }
}

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

    /// Takes a token for `ip` (IPv6: its /64); on refusal, the seconds until one is available.
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
        let (tokens, at) = buckets.entry(address_key(ip)).or_insert((self.burst, now));
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
    let ip = req.extensions().get::<ClientAddr>().map(|c| c.0);
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

/// A NUL in the path (`%00`) names nothing the server has: answered `404 not_found` before any
/// handler reads it (PostgreSQL refuses a NUL in a text, which reached players as a 500).
pub async fn no_nul_in_path(req: Request, next: Next) -> Response {
    if req.uri().path().contains("%00") {
        return ApiError::new(ErrorCode::NotFound, "no name or id holds a NUL character")
            .into_response();
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
    let body = serde_json::to_vec(&ErrorBody::new(code, message)).unwrap_or_default();
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
    fn an_ipv6_client_is_counted_by_its_network() {
        let limiter = RateLimiter::new(1.0, 2.0);
        for host in 1..=2u16 {
            let ip: IpAddr = [0x2001, 0xdb8, 0, 0, 0, 0, 0, host].into();
            assert!(limiter.check(ip).is_ok());
        }
        let neighbour: IpAddr = [0x2001, 0xdb8, 0, 0, 0, 0, 0, 3].into();
        assert!(limiter.check(neighbour).is_err());
        let other_network: IpAddr = [0x2001, 0xdb8, 0, 1, 0, 0, 0, 1].into();
        assert!(limiter.check(other_network).is_ok());
    }

    #[test]
    fn slots_are_capped_per_address_and_in_all_and_given_back_on_drop() {
        let slots = Arc::new(Slots::new("connections", 2, 3));
        let a: IpAddr = [127, 0, 0, 1].into();
        let b: IpAddr = [127, 0, 0, 2].into();
        let first = slots.take(a, true).expect("first");
        let _second = slots.take(a, true).expect("second");
        let err = slots.take(a, true).expect_err("third from a");
        assert_eq!(err.code, ErrorCode::TooManyConnections);
        let _third = slots.take(b, true).expect("first from b");
        assert!(slots.take(b, false).is_err(), "the total is reached");
        drop(first);
        assert_eq!(slots.open(), 2);
        let _again = slots.take(a, true).expect("a slot was given back");
    }

    #[test]
    fn an_uncounted_address_only_meets_the_total_cap() {
        let slots = Arc::new(Slots::new("connections", 1, 0));
        let proxy: IpAddr = [10, 0, 0, 1].into();
        let held: Vec<Slot> = (0..100)
            .map(|_| slots.take(proxy, false).expect("no per-address cap"))
            .collect();
        assert_eq!(slots.open(), held.len());
        assert!(slots.take(proxy, true).is_ok());
    }

    #[test]
    fn a_zero_rate_turns_the_limit_off() {
        let limiter = RateLimiter::new(0.0, 1.0);
        let ip: IpAddr = [127, 0, 0, 1].into();
        assert!((0..1000).all(|_| limiter.check(ip).is_ok()));
    }
}
