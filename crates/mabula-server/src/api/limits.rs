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
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;
use tokio::sync::Notify;

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
///
/// WebSockets also have places kept for seat holders (issue 51: spectators from a few addresses
/// filled every place, a player's own game socket was refused and the opponent claimed the game
/// as abandoned). A seat holder's game socket takes a seat place ([`Slots::take_seat`]), counted
/// apart from the others and never against its address; when the seat places are all taken it
/// sheds the oldest spectator and takes that place instead. A spectator's place
/// ([`Slots::take_spectator`]) can be shed that way; other places (the lobby's, a tournament's,
/// the bots' streams) are not. A game socket refused an ordinary place may still come in on
/// trial ([`Slots::take_on_trial`]): a seat place it keeps only if its `hello` proves a seat.
#[derive(Debug)]
pub struct Slots {
    /// What is counted, plural, for the refusal's message ("connections").
    what: &'static str,
    /// The most open at once from one address (0: no cap). Seat places are not counted here.
    per_address: usize,
    /// The most open at once in all, seat places aside (0: no cap).
    total: usize,
    /// The seat places, kept apart from `total` (0: none: every place is an ordinary one).
    seats: usize,
    /// The most seat places one seat of a game may hold at once (0: no cap).
    per_seat: usize,
    /// The counts. A `std` mutex: it is held for a hash lookup and never across an await.
    open: Mutex<OpenCounts>,
}

/// The most game sockets on trial from one address at once: a few are enough for the players
/// behind one address, and an address cannot hold many seat places with mere handshakes.
pub const ON_TRIAL_PER_ADDRESS: usize = 2;

#[derive(Debug, Default)]
struct OpenCounts {
    /// Ordinary places open (spectators' included).
    total: usize,
    by_address: HashMap<IpAddr, usize>,
    /// Seat places open (on trial included).
    seats: usize,
    /// Seat places per seat (a game's id and the seats).
    by_seat: HashMap<String, usize>,
    /// Places on trial per address.
    on_trial: HashMap<IpAddr, usize>,
    /// The spectators' places that can be shed, oldest first, with what tells their socket.
    spectators: BTreeMap<u64, (Option<IpAddr>, Arc<Notify>)>,
    /// The number of the next spectator's place.
    next_spectator: u64,
}

impl OpenCounts {
    /// Gives back an ordinary place counted under `key`.
    fn release(&mut self, key: Option<IpAddr>) {
        self.total = self.total.saturating_sub(1);
        if let Some(key) = key
            && let Some(count) = self.by_address.get_mut(&key)
        {
            *count -= 1;
            if *count == 0 {
                self.by_address.remove(&key);
            }
        }
    }
}

/// Takes one off `key`'s count in `map`, forgetting the key at zero.
fn decrement<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
    if let Some(count) = map.get_mut(key) {
        *count = count.saturating_sub(1);
        if *count == 0 {
            map.remove(key);
        }
    }
}

/// Which count a seat's place is in.
#[derive(Debug)]
enum Held {
    /// A seat place.
    Seat,
    /// An ordinary place (a spectator's that was shed for it or that proved a seat), counted
    /// per address under the key, if any.
    Ordinary(Option<IpAddr>),
}

/// What a [`Slot`]'s place is.
#[derive(Debug)]
enum Place {
    /// An ordinary place, counted per address under the key (if any).
    Ordinary(Option<IpAddr>),
    /// A spectator's ordinary place, which a seat may shed: its number, its address key, and
    /// what tells its socket.
    Spectator(u64, Option<IpAddr>, Arc<Notify>),
    /// A seat's place: the seat's key and the count it is in.
    Seat(String, Held),
    /// A seat place on trial, taken by the address key.
    OnTrial(IpAddr),
}

/// One open thing's place in its [`Slots`]; dropping it gives the place back.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    place: Place,
}

impl Slots {
    /// Counts of `what`, with at most `per_address` from one address and `total` in all
    /// (0: no cap), and no seat places.
    pub fn new(what: &'static str, per_address: usize, total: usize) -> Slots {
        Slots::with_seats(what, per_address, total, 0, 0)
    }

    /// [`Slots::new`] with `seats` places kept for seat holders beside the `total`, at most
    /// `per_seat` for one seat of a game (0: no cap).
    pub fn with_seats(
        what: &'static str,
        per_address: usize,
        total: usize,
        seats: usize,
        per_seat: usize,
    ) -> Slots {
        Slots {
            what,
            per_address,
            total,
            seats,
            per_seat,
            open: Mutex::new(OpenCounts::default()),
        }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, OpenCounts> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a place for something opened by `ip`; `per_address` false counts it only in the
    /// total (a trusted proxy speaks for many clients). Over a cap: `429 too_many_connections`.
    pub fn take(self: &Arc<Self>, ip: IpAddr, per_address: bool) -> Result<Slot, ApiError> {
        let key = self.take_ordinary(&mut self.counts(), ip, per_address)?;
        Ok(Slot {
            slots: Arc::clone(self),
            place: Place::Ordinary(key),
        })
    }

    /// Takes a place for a spectator's game socket opened by `ip`, as [`Slots::take`] does; a
    /// seat holder may shed it later ([`Slot::shed`] then completes).
    pub fn take_spectator(
        self: &Arc<Self>,
        ip: IpAddr,
        per_address: bool,
    ) -> Result<Slot, ApiError> {
        let mut open = self.counts();
        let key = self.take_ordinary(&mut open, ip, per_address)?;
        let number = open.next_spectator;
        open.next_spectator += 1;
        let shed = Arc::new(Notify::new());
        open.spectators.insert(number, (key, Arc::clone(&shed)));
        Ok(Slot {
            slots: Arc::clone(self),
            place: Place::Spectator(number, key, shed),
        })
    }

    /// Takes a place for a game socket of the holder of `seat` (a game's id and its seats):
    /// a seat place, else the place of the oldest spectator, who is shed. Refused only when
    /// that seat holds `per_seat` places already, or every place is a seat's.
    pub fn take_seat(self: &Arc<Self>, seat: &str) -> Result<Slot, ApiError> {
        let place = self.seat_place(&mut self.counts(), seat)?;
        Ok(Slot {
            slots: Arc::clone(self),
            place,
        })
    }

    /// Takes a seat place on trial for a game socket of `ip`'s that the ordinary places
    /// refused: it must become a seat's ([`Slot::prove`]) or be closed soon. At most
    /// [`ON_TRIAL_PER_ADDRESS`] from one address, and only while a seat place is free.
    pub fn take_on_trial(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, ApiError> {
        let mut open = self.counts();
        let key = address_key(ip);
        let from_address = open.on_trial.get(&key).copied().unwrap_or(0);
        if open.seats >= self.seats || from_address >= ON_TRIAL_PER_ADDRESS {
            return Err(self.refusal(format!(
                "the server has too many open {} for spectators; try again later",
                self.what
            )));
        }
        open.seats += 1;
        *open.on_trial.entry(key).or_insert(0) += 1;
        Ok(Slot {
            slots: Arc::clone(self),
            place: Place::OnTrial(key),
        })
    }

    fn take_ordinary(
        &self,
        open: &mut OpenCounts,
        ip: IpAddr,
        per_address: bool,
    ) -> Result<Option<IpAddr>, ApiError> {
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
        Ok(key)
    }

    fn seat_place(&self, open: &mut OpenCounts, seat: &str) -> Result<Place, ApiError> {
        let held = open.by_seat.get(seat).copied().unwrap_or(0);
        if self.per_seat > 0 && held >= self.per_seat {
            return Err(self.refusal(format!(
                "this seat has too many open {} (at most {})",
                self.what, self.per_seat
            )));
        }
        let shed = if open.seats < self.seats {
            open.seats += 1;
            false
        } else if let Some((_, (key, shed))) = open.spectators.pop_first() {
            // The spectator's place passes to the seat at once (no longer its address's), and
            // its socket is told to close.
            if let Some(key) = key {
                decrement(&mut open.by_address, &key);
            }
            shed.notify_one();
            true
        } else {
            return Err(self.refusal(format!(
                "every place for open {} is a player's; try again later",
                self.what
            )));
        };
        *open.by_seat.entry(seat.to_string()).or_insert(0) += 1;
        let held = if shed {
            Held::Ordinary(None)
        } else {
            Held::Seat
        };
        Ok(Place::Seat(seat.to_string(), held))
    }

    /// How many are open now.
    pub fn open(&self) -> usize {
        let open = self.counts();
        open.total + open.seats
    }

    fn refusal(&self, message: String) -> ApiError {
        let mut err = ApiError::new(ErrorCode::TooManyConnections, message);
        err.retry_after = Some(1);
        err
    }
}

impl Slot {
    /// Completes when a seat holder has taken this spectator's place: its socket should close.
    /// Never completes for other places.
    pub async fn shed(&self) {
        match &self.place {
            Place::Spectator(_, _, shed) => shed.notified().await,
            _ => std::future::pending().await,
        }
    }

    /// Whether this place is on trial (see [`Slots::take_on_trial`]).
    pub fn on_trial(&self) -> bool {
        matches!(self.place, Place::OnTrial(_))
    }

    /// Makes this place a seat's, for the holder of `seat`, once its socket proved it holds
    /// it: a spectator's place is never shed after, a place on trial is kept. A spectator's
    /// place stays a spectator's while the seat holds its share of places; a place on trial is
    /// then refused, as is a spectator's that a seat holder took meanwhile.
    pub fn prove(&mut self, seat: &str) -> Result<(), ApiError> {
        let slots = Arc::clone(&self.slots);
        let mut open = slots.counts();
        let full =
            slots.per_seat > 0 && open.by_seat.get(seat).copied().unwrap_or(0) >= slots.per_seat;
        let place = match &self.place {
            Place::Seat(..) | Place::Ordinary(_) => return Ok(()),
            Place::Spectator(number, ..) if !open.spectators.contains_key(number) => {
                return Err(slots.refusal(format!(
                    "this socket's place was given to a player; open {} again",
                    slots.what
                )));
            }
            Place::Spectator(..) if full => return Ok(()),
            Place::OnTrial(_) if full => {
                return Err(slots.refusal(format!(
                    "this seat has too many open {} (at most {})",
                    slots.what, slots.per_seat
                )));
            }
            Place::Spectator(number, key, _) => {
                open.spectators.remove(number);
                Place::Seat(seat.to_string(), Held::Ordinary(*key))
            }
            Place::OnTrial(key) => {
                decrement(&mut open.on_trial, key);
                Place::Seat(seat.to_string(), Held::Seat)
            }
        };
        *open.by_seat.entry(seat.to_string()).or_insert(0) += 1;
        drop(open);
        self.place = place;
        Ok(())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.slots.counts();
        match &self.place {
            Place::Ordinary(key) => open.release(*key),
            Place::Spectator(number, key, _) => {
                // A shed spectator's place is a seat's already.
                if open.spectators.remove(number).is_some() {
                    open.release(*key);
                }
            }
            Place::Seat(seat, held) => {
                decrement(&mut open.by_seat, seat);
                match held {
                    Held::Seat => open.seats = open.seats.saturating_sub(1),
                    Held::Ordinary(key) => open.release(*key),
                }
            }
            Place::OnTrial(key) => {
                decrement(&mut open.on_trial, key);
                open.seats = open.seats.saturating_sub(1);
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
    fn a_seat_takes_a_kept_place_then_sheds_the_oldest_spectator() {
        let slots = Arc::new(Slots::with_seats("WebSockets", 0, 2, 1, 0));
        let guest: IpAddr = [127, 0, 0, 2].into();
        let oldest = slots.take_spectator(guest, true).expect("a spectator");
        let _newer = slots.take_spectator(guest, true).expect("another");
        assert!(
            slots.take_spectator(guest, true).is_err(),
            "spectators are full"
        );
        assert!(slots.take(guest, true).is_err(), "so is the lobby");
        let _kept = slots.take_seat("g white").expect("a kept place");
        let _shed = slots.take_seat("g black").expect("a spectator's place");
        let shed = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime")
            .block_on(async {
                tokio::time::timeout(std::time::Duration::from_secs(1), oldest.shed())
                    .await
                    .is_ok()
            });
        assert!(shed, "the oldest spectator is told to go");
        drop(oldest);
        assert_eq!(slots.open(), 3, "its place is the seat's");
        assert!(slots.take_spectator(guest, true).is_err());
        let _third = slots
            .take_seat("h white")
            .expect("the newer spectator's place");
        let err = slots
            .take_seat("h black")
            .expect_err("every place is a seat's");
        assert_eq!(err.code, ErrorCode::TooManyConnections);
    }

    #[test]
    fn a_socket_on_trial_keeps_its_place_only_as_a_seat_and_a_seat_holds_few() {
        let slots = Arc::new(Slots::with_seats("WebSockets", 0, 1, 4, 2));
        let guest: IpAddr = [127, 0, 0, 2].into();
        let _spectator = slots.take_spectator(guest, true).expect("a spectator");
        let mut trial = slots.take_on_trial(guest).expect("on trial");
        let second = slots.take_on_trial(guest).expect("on trial too");
        assert!(
            slots.take_on_trial(guest).is_err(),
            "two on trial per address"
        );
        assert!(trial.on_trial());
        trial.prove("g white").expect("a seat");
        assert!(!trial.on_trial());
        drop(second);
        let _again = slots
            .take_on_trial(guest)
            .expect("a place on trial given back");
        let _other = slots
            .take_seat("g white")
            .expect("a second socket of the seat");
        let err = slots.take_seat("g white").expect_err("two a seat");
        assert_eq!(err.code, ErrorCode::TooManyConnections);
        assert_eq!(slots.open(), 4);
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
