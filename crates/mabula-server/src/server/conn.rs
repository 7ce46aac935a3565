//! One HTTP connection, from accept to close.
//!
//! hyper speaks HTTP/1.1 on a [`Socket`]: the TCP stream wrapped so that a client that is slow to
//! send a request head, or that keeps an idle connection open, is cut off, and so that the
//! answers hyper writes by itself when it cannot parse a request (400, 414, 431, with empty
//! bodies) go out with the API's JSON body instead. Each request goes through [`ConnService`],
//! which stamps it with its [`ClientAddr`], refuses an oversized head, gives its body a deadline
//! ([`TimedBody`]), counts it for its client when it came through a trusted proxy, and tells the
//! socket when requests begin and end. Both share the connection's [`Activity`].

use crate::api::limits::{Slot, Slots};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::{ClientAddr, TrustedProxies};
use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker, ready};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{Semaphore, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// What every connection shares: the application and the limits of the edge.
pub(super) struct Edge {
    /// The application.
    pub router: Router,
    /// Whose `X-Forwarded-For` is believed.
    pub proxies: TrustedProxies,
    /// The time a client has to send a whole request head.
    pub header_timeout: Duration,
    /// The time a client has to send a request's body once its head is in.
    pub body_timeout: Duration,
    /// The time a connection may stay open with no request in flight.
    pub idle_timeout: Duration,
    /// The longest request target, in bytes.
    pub max_uri_bytes: usize,
    /// The most bytes of request headers.
    pub max_header_bytes: usize,
    /// Permits for connections being closed gently (see [`close_gently`]).
    pub lingering: Arc<Semaphore>,
    /// Requests in flight through a trusted proxy, counted for the client it names: a proxy's
    /// connections are not capped per address, so a client behind it is capped this way.
    pub proxied: Arc<Slots>,
}

impl Edge {
    /// hyper's read buffer: room for the largest head we accept and then some, so that most
    /// oversized heads reach [`ConnService`], which names the limit that was passed. Beyond it
    /// hyper gives up by itself (and [`Socket`] makes its answer JSON).
    fn read_buffer(&self) -> usize {
        (self.max_uri_bytes + self.max_header_bytes + 8 * 1024).max(16 * 1024)
    }

    /// `414` or `431` if the head of `req` is larger than we accept.
    fn check_head<B>(&self, req: &Request<B>) -> Option<ApiError> {
        let uri = req.uri();
        let target = uri.scheme_str().map_or(0, str::len)
            + uri.authority().map_or(0, |a| a.as_str().len())
            + uri.path_and_query().map_or(0, |p| p.as_str().len());
        if target > self.max_uri_bytes {
            return Some(ApiError::new(
                ErrorCode::UriTooLong,
                format!(
                    "the request target is longer than {} bytes",
                    self.max_uri_bytes
                ),
            ));
        }
        // As sent: name, ": ", value, CRLF.
        let headers: usize = req
            .headers()
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum();
        if headers > self.max_header_bytes {
            return Some(ApiError::new(
                ErrorCode::HeadersTooLarge,
                format!(
                    "the request headers are larger than {} bytes",
                    self.max_header_bytes
                ),
            ));
        }
        None
    }
}

/// Serves one accepted connection until it closes, it times out, or the server stops (`stop`
/// turns true). `slot` is the connection's place under the connection caps; it goes with the
/// socket, into a WebSocket if the connection is upgraded, and is given back when the socket is
/// dropped.
pub(super) async fn serve(
    edge: Arc<Edge>,
    stream: TcpStream,
    peer: SocketAddr,
    slot: Slot,
    mut stop: watch::Receiver<bool>,
) {
    let activity = Arc::new(Activity::new(
        Instant::now() + edge.header_timeout,
        edge.idle_timeout,
    ));
    let socket = Socket {
        stream: Some(stream),
        edge: Arc::clone(&edge),
        activity: Arc::clone(&activity),
        timer: Box::pin(tokio::time::sleep(Duration::ZERO)),
        timer_at: None,
        substitute: None,
        answered_error: false,
        _slot: slot,
    };
    let service = ConnService {
        edge: Arc::clone(&edge),
        peer: peer.ip(),
        activity: Arc::clone(&activity),
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The socket keeps the time itself: hyper's own timer would treat an idle connection like a
    // slow head, and it cannot answer 408.
    builder
        .header_read_timeout(None)
        .max_buf_size(edge.read_buffer());
    let conn = builder
        .serve_connection(TokioIo::new(socket), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut stopping = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(%peer, "connection ended: {e}");
                }
                break;
            }
            _ = stop.wait_for(|stop| *stop), if !stopping => {
                stopping = true;
                if activity.is_waiting() {
                    // No request to finish; a half-sent head is not worth waiting for.
                    break;
                }
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Answers a connection that is over a cap with `err` (a 429) and closes it, without reading
/// the request.
pub(super) fn refuse(
    stream: TcpStream,
    peer: SocketAddr,
    err: ApiError,
    lingering: &Arc<Semaphore>,
) {
    tracing::debug!(%peer, "connection refused: {}", err.message);
    close_gently(stream, raw_answer(err.code, &err.message), lingering);
}

/// Writes `last_words` and closes `stream` so that the client can read them.
///
/// Closing a socket whose client is still sending makes the kernel reset the connection, and a
/// reset can overtake the answer. So the write side is shut first and what the client still
/// sends is read and thrown away, for a second at most. Only `lingering`'s number of such
/// goodbyes run at once; beyond that, the connection is closed without a word.
fn close_gently(stream: TcpStream, last_words: Vec<u8>, lingering: &Arc<Semaphore>) {
    let Ok(permit) = Arc::clone(lingering).try_acquire_owned() else {
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let mut stream = stream;
        let goodbye = async {
            stream.write_all(&last_words).await?;
            let _ = stream.shutdown().await;
            let mut sink = [0u8; 4096];
            while stream.read(&mut sink).await? > 0 {}
            io::Result::Ok(())
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), goodbye).await;
    });
}

/// A whole HTTP/1.1 answer with the JSON error body, for when there is no hyper to write it;
/// it closes the connection.
fn raw_answer(code: ErrorCode, message: &str) -> Vec<u8> {
    let status = crate::error::status_of(code);
    let body = serde_json::to_vec(&ErrorBody::new(code, message)).unwrap_or_default();
    let retry = if status == StatusCode::TOO_MANY_REQUESTS {
        "retry-after: 1\r\n"
    } else {
        ""
    };
    let mut answer = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{retry}connection: close\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    answer
}

/// Where a connection stands, as far as its deadline is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No request in flight and no byte of the next head yet; closed quietly at `until`.
    Waiting {
        until: Instant,
        /// Nothing was ever asked on this connection: its first head is due at `until` too.
        fresh: bool,
    },
    /// Part of a request head has come; closed with a 408 at `until`.
    Head { until: Instant },
    /// A request is being answered: no deadline (handlers and streams bound themselves).
    Busy { requests: usize },
    /// Handed over to another protocol (WebSocket), which keeps its own time.
    Upgraded,
}

/// A connection's [`Phase`], shared by its socket, which sees bytes come in and keeps the time,
/// and its service, which sees requests begin and end.
#[derive(Debug)]
struct Activity {
    /// A `std` mutex: held for a few instructions, never across an await.
    state: Mutex<ActivityState>,
    /// How long the connection may wait for its next request after a response.
    idle_timeout: Duration,
}

#[derive(Debug)]
struct ActivityState {
    phase: Phase,
    /// The task that waits for bytes while a request is in flight. When the request ends a
    /// deadline starts, and the reader must wake to arm its timer: no byte may ever come.
    reader: Option<Waker>,
}

impl Activity {
    fn new(first_head_due: Instant, idle_timeout: Duration) -> Activity {
        let phase = Phase::Waiting {
            until: first_head_due,
            fresh: true,
        };
        Activity {
            state: Mutex::new(ActivityState {
                phase,
                reader: None,
            }),
            idle_timeout,
        }
    }

    fn state(&self) -> MutexGuard<'_, ActivityState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes came in: if they start a head, the head is now due.
    fn bytes_arrived(&self, header_timeout: Duration) {
        let mut state = self.state();
        if let Phase::Waiting { until, fresh } = state.phase {
            let until = if fresh {
                until
            } else {
                Instant::now() + header_timeout
            };
            state.phase = Phase::Head { until };
        }
    }

    /// hyper read a whole head and calls the application.
    fn request_started(&self) {
        let mut state = self.state();
        state.phase = match state.phase {
            Phase::Busy { requests } => Phase::Busy {
                requests: requests + 1,
            },
            Phase::Upgraded => Phase::Upgraded,
            Phase::Waiting { .. } | Phase::Head { .. } => Phase::Busy { requests: 1 },
        };
    }

    /// A response was sent whole (or given up): with none left, the idle time starts.
    fn request_done(&self) {
        let mut state = self.state();
        if let Phase::Busy { requests } = state.phase {
            state.phase = if requests > 1 {
                Phase::Busy {
                    requests: requests - 1,
                }
            } else {
                Phase::Waiting {
                    until: Instant::now() + self.idle_timeout,
                    fresh: false,
                }
            };
            if let Some(reader) = state.reader.take() {
                reader.wake();
            }
        }
    }

    fn upgraded(&self) {
        self.state().phase = Phase::Upgraded;
    }

    fn is_upgraded(&self) -> bool {
        self.state().phase == Phase::Upgraded
    }

    /// No request is in flight (a head may be coming).
    fn is_waiting(&self) -> bool {
        matches!(
            self.state().phase,
            Phase::Waiting { .. } | Phase::Head { .. }
        )
    }

    /// When the connection must be closed, and whether a head is then late (so a 408 is owed).
    /// Without a deadline, `reader` is woken when one starts.
    fn deadline(&self, reader: &Waker) -> Option<(Instant, bool)> {
        let mut state = self.state();
        match state.phase {
            Phase::Waiting { until, .. } => Some((until, false)),
            Phase::Head { until } => Some((until, true)),
            Phase::Busy { .. } => {
                if !state.reader.as_ref().is_some_and(|w| w.will_wake(reader)) {
                    state.reader = Some(reader.clone());
                }
                None
            }
            Phase::Upgraded => None,
        }
    }
}

/// The TCP stream as hyper (and, after an upgrade, the WebSocket) sees it.
struct Socket {
    /// Always there until the socket is dropped, when it may be handed to [`close_gently`].
    stream: Option<TcpStream>,
    edge: Arc<Edge>,
    activity: Arc<Activity>,
    /// Fires at the connection's deadline; only polled while hyper waits for bytes, which is
    /// exactly when a deadline runs.
    timer: Pin<Box<Sleep>>,
    /// The deadline `timer` is set to.
    timer_at: Option<Instant>,
    /// hyper's own error answer, being replaced by a JSON one.
    substitute: Option<Substitute>,
    /// An error answer went out and the connection is closing: close it gently.
    answered_error: bool,
    /// The connection's place under the caps, given back when the socket is dropped.
    _slot: Slot,
}

/// A JSON error answer written in place of the `replaces` bytes hyper asked to write.
struct Substitute {
    bytes: Vec<u8>,
    written: usize,
    replaces: usize,
}

impl AsyncRead for Socket {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let Some(stream) = this.stream.as_mut() else {
            return Poll::Ready(Err(io::ErrorKind::NotConnected.into()));
        };
        let before = buf.filled().len();
        if let Poll::Ready(result) = Pin::new(&mut *stream).poll_read(cx, buf) {
            if buf.filled().len() > before {
                this.activity.bytes_arrived(this.edge.header_timeout);
            }
            return Poll::Ready(result);
        }
        let Some((until, head_is_late)) = this.activity.deadline(cx.waker()) else {
            return Poll::Pending;
        };
        if this.timer_at != Some(until) {
            this.timer.as_mut().reset(until);
            this.timer_at = Some(until);
        }
        ready!(this.timer.as_mut().poll(cx));
        if head_is_late {
            // Best effort: the answer is small and nothing else is waiting to be sent.
            let answer = raw_answer(
                ErrorCode::RequestTimeout,
                "the request head was not sent in time",
            );
            let _ = stream.try_write(&answer);
            this.answered_error = true;
        }
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            if head_is_late {
                "the request head was not sent in time"
            } else {
                "the connection was idle too long"
            },
        )))
    }
}

impl AsyncWrite for Socket {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let Some(stream) = this.stream.as_mut() else {
            return Poll::Ready(Err(io::ErrorKind::NotConnected.into()));
        };
        if this.substitute.is_none()
            && let Some(code) = hyper_error_answer(buf)
            && !this.activity.is_upgraded()
        {
            let message = match code {
                ErrorCode::UriTooLong => "the request target is too long",
                ErrorCode::HeadersTooLarge => "the request head is too large",
                _ => "the request is not valid HTTP/1.1",
            };
            this.substitute = Some(Substitute {
                bytes: raw_answer(code, message),
                written: 0,
                replaces: buf.len(),
            });
            this.answered_error = true;
        }
        let Some(sub) = &mut this.substitute else {
            return Pin::new(stream).poll_write(cx, buf);
        };
        while sub.written < sub.bytes.len() {
            let n = ready!(Pin::new(&mut *stream).poll_write(cx, &sub.bytes[sub.written..]))?;
            if n == 0 {
                return Poll::Ready(Ok(0));
            }
            sub.written += n;
        }
        let replaced = sub.replaces;
        this.substitute = None;
        Poll::Ready(Ok(replaced))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().stream.as_mut() {
            Some(stream) => Pin::new(stream).poll_flush(cx),
            None => Poll::Ready(Ok(())),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().stream.as_mut() {
            Some(stream) => Pin::new(stream).poll_shutdown(cx),
            None => Poll::Ready(Ok(())),
        }
    }

    // Without vectored writes hyper hands over each answer's head in one buffer, whole, which is
    // what `hyper_error_answer` needs to recognise its error answers.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        if self.answered_error
            && let Some(stream) = self.stream.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            close_gently(stream, Vec::new(), &self.edge.lingering);
        }
    }
}

/// The code of an error answer that hyper wrote by itself, if `buf` is one.
///
/// hyper answers a request it cannot parse with a bare head: status 400, 414 or 431,
/// `content-length: 0` and no content type. Every error the application answers has a JSON body
/// and says so, so it never looks like this.
fn hyper_error_answer(buf: &[u8]) -> Option<ErrorCode> {
    let status = buf
        .strip_prefix(b"HTTP/1.1 ")
        .or_else(|| buf.strip_prefix(b"HTTP/1.0 "))?;
    let code = match status.get(..4)? {
        b"400 " => ErrorCode::BadRequest,
        b"414 " => ErrorCode::UriTooLong,
        b"431 " => ErrorCode::HeadersTooLarge,
        _ => return None,
    };
    let head_end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    if head_end + 4 != buf.len() {
        return None;
    }
    let head = buf.to_ascii_lowercase();
    let contains = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    (contains(b"\r\ncontent-length: 0\r\n") && !contains(b"\r\ncontent-type:")).then_some(code)
}

/// The per-connection service in front of the application.
#[derive(Clone)]
struct ConnService {
    edge: Arc<Edge>,
    /// The TCP peer.
    peer: IpAddr,
    activity: Arc<Activity>,
}

impl hyper::service::Service<Request<Incoming>> for ConnService {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        self.activity.request_started();
        let client = self.edge.proxies.client_addr(self.peer, req.headers());
        let proxied = self.edge.proxies.contains(self.peer);
        let (slot, over_cap) = match proxied.then(|| self.edge.proxied.take(client, true)) {
            Some(Err(err)) => (None, Some(err)),
            slot => (slot.and_then(Result::ok), None),
        };
        let done = RequestDone {
            activity: Arc::clone(&self.activity),
            _slot: slot,
        };
        // Set when the request's body did not come in time (requests without one have none).
        let late = (!req.body().is_end_stream()).then(|| Arc::new(AtomicBool::new(false)));
        let mut req = match &late {
            None => req.map(Body::new),
            Some(late) => {
                let deadline = Box::pin(tokio::time::sleep(self.edge.body_timeout));
                let late = Arc::clone(late);
                req.map(|body| {
                    Body::new(TimedBody {
                        body,
                        deadline,
                        late,
                    })
                })
            }
        };
        if !proxied {
            // Only our own proxy may say the request came over HTTPS (it makes the session
            // cookie `Secure`); anyone else's word on it is dropped here.
            req.headers_mut().remove("x-forwarded-proto");
        }
        req.extensions_mut().insert(ClientAddr(client));
        let refusal = self.edge.check_head(&req).or(over_cap);
        let router = self.edge.router.clone();
        let activity = Arc::clone(&self.activity);
        Box::pin(async move {
            let mut response = match refusal {
                Some(err) => {
                    tracing::debug!(%client, "request refused: {}", err.message);
                    closing(err.into_response())
                }
                None => match router.oneshot(req).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                },
            };
            if late.is_some_and(|late| late.load(Ordering::Relaxed)) {
                tracing::debug!(%client, "request body not sent in time");
                response = closing(
                    ApiError::new(
                        ErrorCode::RequestTimeout,
                        "the request body was not sent in time",
                    )
                    .into_response(),
                );
            }
            if response.status() == StatusCode::SWITCHING_PROTOCOLS {
                activity.upgraded();
            }
            Ok(response.map(|body| Body::new(TrackedBody { body, _done: done })))
        })
    }
}

/// `response`, asking hyper to close the connection after it: the rest of the request is not
/// worth reading.
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A request body that must come whole before its deadline. Past it, reading fails and `late`
/// is set, so that the answer becomes a `408` and the connection closes; a body that is never
/// read costs nothing.
struct TimedBody {
    body: Incoming,
    deadline: Pin<Box<Sleep>>,
    late: Arc<AtomicBool>,
}

impl HttpBody for TimedBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.body).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        ready!(this.deadline.as_mut().poll(cx));
        this.late.store(true, Ordering::Relaxed);
        Poll::Ready(Some(Err("the request body was not sent in time".into())))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Tells the connection's [`Activity`] that a request is over when dropped: when hyper has sent
/// the response's body whole, or gave up on it. A request through a trusted proxy holds its
/// client's place under the caps until then.
struct RequestDone {
    activity: Arc<Activity>,
    _slot: Option<Slot>,
}

impl Drop for RequestDone {
    fn drop(&mut self) {
        self.activity.request_done();
    }
}

/// A response body that carries its request's [`RequestDone`].
struct TrackedBody {
    body: Body,
    _done: RequestDone,
}

impl HttpBody for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_bare_error_heads_are_recognised() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT\r\n\r\n";
        assert_eq!(hyper_error_answer(bare), Some(ErrorCode::HeadersTooLarge));
        let bad = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_answer(bad), Some(ErrorCode::BadRequest));
    }

    #[test]
    fn the_applications_own_answers_are_left_alone() {
        let json = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_answer(json), None);
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(hyper_error_answer(with_body), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_answer(ok), None);
        assert_eq!(hyper_error_answer(b"\x81\x05hello"), None);
    }

    #[test]
    fn a_raw_answer_is_a_whole_json_response() {
        let answer = raw_answer(ErrorCode::TooManyConnections, "too many");
        let text = String::from_utf8(answer).expect("ascii");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head");
        assert!(head.starts_with("HTTP/1.1 429 Too Many Requests\r\n"));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let body: ErrorBody = serde_json::from_str(body).expect("JSON");
        assert_eq!(body.code, ErrorCode::TooManyConnections);
    }
}
