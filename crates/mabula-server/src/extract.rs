//! Request extractors whose failures are [`ApiError`]s, so that a malformed body, an oversized
//! body or a bad query string answers the API's JSON error instead of axum's plain text; the seat
//! token and session of a request ([`Caller`]); and the client address of a request ([`ClientAddr`],
//! decided with [`TrustedProxies`]).

use crate::auth::{self, Caller, Session};
use crate::error::{ApiError, ErrorCode};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;
use std::net::{IpAddr, SocketAddr};

/// A JSON body. An empty body reads as `{}` (so `POST …/resign` needs no body); a non-empty one
/// must be sent as `application/json`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        let json_type = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                let mime = v
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                mime == "application/json" || mime.ends_with("+json")
            });
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    ErrorCode::PayloadTooLarge,
                    "the request body is larger than 64 KiB",
                )
            } else {
                ApiError::new(
                    ErrorCode::BadRequest,
                    format!("cannot read the request body: {rejection}"),
                )
            }
        })?;
        let body: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        if body != b"{}" && json_type == Some(false) {
            return Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                "send the body as JSON, with 'Content-Type: application/json'",
            ));
        }
        serde_json::from_slice(body).map(JsonBody).map_err(|e| {
            ApiError::new(
                ErrorCode::MalformedJson,
                format!("the body is not the expected JSON: {e}"),
            )
        })
    }
}

/// A query string.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<QueryParams<T>, ApiError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| QueryParams(q.0))
            .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.body_text()))
    }
}

/// The token is read from `Authorization: Bearer` or `X-Mabula-Token`, and hashed at once. An
/// empty or malformed header counts as a wrong token, not as none; a personal API token
/// (`mbp_…`) is not a seat token, its account comes through the session. The account is the session's
/// that the API's session layer found for the request's cookie.
impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Caller, ApiError> {
        let headers = &parts.headers;
        let raw = if let Some(v) = headers.get("x-mabula-token") {
            Some(v.to_str().unwrap_or("").trim().to_string())
        } else if let Some(v) = headers.get(axum::http::header::AUTHORIZATION) {
            let text = v.to_str().unwrap_or("").trim();
            let token = text
                .split_once(' ')
                .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
                .map(|(_, t)| t.trim())
                .unwrap_or("");
            Some(token.to_string())
        } else {
            None
        };
        // A personal API token (issue 38) is no seat token: the session layer found its account.
        let raw = raw.filter(|t| !auth::is_personal(t));
        Ok(Caller {
            token: raw.map(|t| auth::hash(&t)),
            // A bot plays through the API only: its cookie session holds no seat.
            account: parts
                .extensions
                .get::<Session>()
                .filter(|s| !s.bot || s.grant.is_some())
                .map(|s| s.key.clone()),
        })
    }
}

/// The session of a request, as the API's session layer found it; `not_logged_in` without one.
impl<S: Send + Sync> FromRequestParts<S> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Session, ApiError> {
        parts.extensions.get::<Session>().cloned().ok_or_else(|| {
            ApiError::new(
                ErrorCode::NotLoggedIn,
                "this needs an account: log in first (POST /api/session)",
            )
        })
    }
}

/// The session of a request, if it has one.
pub struct MaybeSession(pub Option<Session>);

impl<S: Send + Sync> FromRequestParts<S> for MaybeSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<MaybeSession, ApiError> {
        Ok(MaybeSession(parts.extensions.get::<Session>().cloned()))
    }
}

/// The address of the client that sent a request.
///
/// This is the TCP peer's address, unless the peer is one of the [`TrustedProxies`]: then it is
/// the address that proxy reports in `X-Forwarded-For`. The connection layer (`server`) decides
/// it once for every request and stores it in the request's extensions; the rate limit, the
/// WebSocket caps and the request logs all read it from there, so they never disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<ClientAddr, ApiError> {
        parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .ok_or_else(|| {
                // Only a request that did not come through `server::run` lacks it: a bug.
                tracing::error!("a request reached a handler without its client address");
                ApiError::new(ErrorCode::Internal, "the client address is unknown")
            })
    }
}

/// Whether a request (a WebSocket handshake) comes from a page of another site: its `Origin`
/// is not this site's scheme, host and port, as the request itself says (`Host`, and the scheme
/// from the trusted proxy's `X-Forwarded-Proto`, else plain HTTP; a port left out is the
/// scheme's own). A client that is not a browser sends no `Origin` and is let through; a
/// browser always sends it with a handshake, so another site's page, or a page of another port
/// or of plain HTTP on the same host, cannot open a socket with this site's cookie.
pub fn from_another_site(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(axum::http::header::ORIGIN) else {
        return false;
    };
    let scheme = if over_https(headers) { "https" } else { "http" };
    let origin = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .and_then(|(scheme, rest)| site(scheme, rest));
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| site(scheme, h));
    match (origin, host) {
        (Some(o), Some(h)) => o != h,
        _ => true,
    }
}

/// Whether the request came over HTTPS, as its trusted proxy says (the edge removes the
/// header from anyone else).
pub fn over_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.eq_ignore_ascii_case("https"))
}

/// A site's scheme, host (lower case) and port (the scheme's own when left out) from `scheme`
/// and an authority `host[:port]` (anything after it ignored); `None` if it is not one.
fn site(scheme: &str, authority: &str) -> Option<(String, String, u16)> {
    let scheme = scheme.to_ascii_lowercase();
    let default = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let authority = authority.trim().split('/').next().unwrap_or("");
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (host, rest) = v6.split_once(']')?;
            (host, rest.strip_prefix(':'))
        }
        None => match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return None;
    }
    let port = match port {
        Some(p) => p.parse().ok()?,
        None => default,
    };
    Some((scheme, host.to_ascii_lowercase(), port))
}

/// The proxies whose `X-Forwarded-For` header is believed (`mabula serve --trusted-proxy`).
///
/// Anyone can send the header, so it says nothing unless the connection comes from a proxy we
/// run, and only its rightmost entries, the ones our own proxies appended, can be believed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpAddr>);

impl TrustedProxies {
    /// The proxies at `addrs` (IPv4 addresses written as IPv6 count as IPv4).
    pub fn new(addrs: impl IntoIterator<Item = IpAddr>) -> TrustedProxies {
        let mut addrs: Vec<IpAddr> = addrs.into_iter().map(|a| a.to_canonical()).collect();
        addrs.sort_unstable();
        addrs.dedup();
        TrustedProxies(addrs)
    }

    /// Whether `ip` is one of the proxies.
    pub fn contains(&self, ip: IpAddr) -> bool {
        // A handful of addresses at most: a scan beats a hash.
        self.0.contains(&ip.to_canonical())
    }

    /// The client behind a connection from `peer` that sent `headers`.
    ///
    /// From a proxy, this is the rightmost `X-Forwarded-For` entry that is not itself a trusted
    /// proxy. Where an entry cannot be read, the last proxy that was passed stands for the client:
    /// what lies to the left of garbage cannot be trusted.
    pub fn client_addr(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.contains(peer) {
            return peer;
        }
        let mut client = peer;
        for value in headers.get_all(X_FORWARDED_FOR).iter().rev() {
            let Ok(value) = value.to_str() else {
                return client;
            };
            for hop in value.rsplit(',') {
                let Some(ip) = parse_hop(hop) else {
                    return client;
                };
                client = ip;
                if !self.contains(ip) {
                    return ip;
                }
            }
        }
        client
    }
}

/// The de facto standard header of proxies, absent from the `http` crate's list.
const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// One `X-Forwarded-For` entry: an address, possibly with a port, IPv6 possibly in brackets.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    let ip = hop
        .parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| hop.strip_prefix('[')?.strip_suffix(']')?.parse().ok())?;
    Some(ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append(X_FORWARDED_FOR, HeaderValue::from_str(v).expect("header"));
        }
        headers
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("ip")
    }

    #[test]
    fn a_socket_from_another_sites_page_is_told_apart_from_this_sites() {
        let with = |origin: Option<&str>, host: &str| {
            let mut headers = HeaderMap::new();
            headers.insert("host", HeaderValue::from_str(host).expect("header"));
            if let Some(o) = origin {
                headers.insert("origin", HeaderValue::from_str(o).expect("header"));
            }
            from_another_site(&headers)
        };
        assert!(!with(None, "mabula.example"), "not a browser");
        assert!(!with(Some("http://mabula.example"), "mabula.example"));
        assert!(!with(Some("http://127.0.0.1:8080"), "127.0.0.1:8080"));
        assert!(!with(Some("http://Mabula.Example:80"), "mabula.example"));
        assert!(!with(Some("http://[::1]:8080"), "[::1]:8080"));
        // Another port or scheme of the same host is another site.
        assert!(with(Some("http://127.0.0.1:8081"), "127.0.0.1:8080"));
        assert!(with(Some("http://[::1]:8081"), "[::1]:8080"));
        assert!(
            with(Some("https://mabula.example"), "mabula.example"),
            "not over HTTPS"
        );
        assert!(with(Some("http://mabula.example:8080"), "mabula.example"));
        assert!(with(Some("http://mabula.example"), "mabula.example:x"));
        assert!(with(Some("https://evil.example"), "mabula.example"));
        assert!(with(Some("null"), "mabula.example"));
        assert!(with(
            Some("https://mabula.example.evil.example"),
            "mabula.example"
        ));
        // Behind a proxy that speaks HTTPS to the browser (and says so).
        let mut headers = HeaderMap::new();
        headers.insert("host", HeaderValue::from_static("mabula.example"));
        headers.insert("origin", HeaderValue::from_static("https://mabula.example"));
        headers.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert!(!from_another_site(&headers));
        headers.insert("origin", HeaderValue::from_static("http://mabula.example"));
        assert!(from_another_site(&headers));
    }

    #[test]
    fn the_header_is_ignored_unless_the_peer_is_a_trusted_proxy() {
        let proxies = TrustedProxies::new([ip("10.0.0.1")]);
        let headers = forwarded(&["1.2.3.4"]);
        assert_eq!(proxies.client_addr(ip("5.6.7.8"), &headers), ip("5.6.7.8"));
        assert_eq!(
            TrustedProxies::default().client_addr(ip("10.0.0.1"), &headers),
            ip("10.0.0.1")
        );
        assert_eq!(proxies.client_addr(ip("10.0.0.1"), &headers), ip("1.2.3.4"));
    }

    #[test]
    fn the_client_is_the_rightmost_entry_that_is_not_a_trusted_proxy() {
        let proxies = TrustedProxies::new([ip("10.0.0.1"), ip("10.0.0.2")]);
        // The client made up the first entry; our proxies appended the others.
        let headers = forwarded(&["6.6.6.6, 1.2.3.4", "10.0.0.2"]);
        assert_eq!(proxies.client_addr(ip("10.0.0.1"), &headers), ip("1.2.3.4"));
    }

    #[test]
    fn an_unreadable_entry_leaves_the_last_proxy_as_the_client() {
        let proxies = TrustedProxies::new([ip("10.0.0.1"), ip("10.0.0.2")]);
        let headers = forwarded(&["1.2.3.4, unknown, 10.0.0.2"]);
        assert_eq!(
            proxies.client_addr(ip("10.0.0.1"), &headers),
            ip("10.0.0.2")
        );
        assert_eq!(
            proxies.client_addr(ip("10.0.0.1"), &HeaderMap::new()),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn entries_may_carry_ports_and_brackets() {
        let proxies = TrustedProxies::new([ip("::1")]);
        for (entry, want) in [
            ("1.2.3.4:5678", "1.2.3.4"),
            ("[2001:db8::1]:443", "2001:db8::1"),
            ("[2001:db8::1]", "2001:db8::1"),
            (" ::ffff:1.2.3.4 ", "1.2.3.4"),
        ] {
            let headers = forwarded(&[entry]);
            assert_eq!(
                proxies.client_addr(ip("::1"), &headers),
                ip(want),
                "{entry}"
            );
        }
    }
}
