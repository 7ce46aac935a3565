//! The answers that read the same for many operations (a missing game, a body too large, too
//! many requests, a server that is stopping), each a reusable response of the OpenAPI document,
//! referenced by the handlers as `response = super::answers::NAME` and listed once among the
//! document's components (`api::docs`). The doc comment of each is its description there.

use crate::error::ErrorBody;
use utoipa::ToResponse;

/// No game has the id in the path (`game_not_found`).
#[derive(ToResponse)]
pub struct NoSuchGame(pub ErrorBody);

/// The action needs a seat token and none was sent (`token_missing`).
#[derive(ToResponse)]
pub struct NoToken(pub ErrorBody);

/// The body is larger than 64 KiB (`payload_too_large`).
#[derive(ToResponse)]
pub struct BodyTooLarge(pub ErrorBody);

/// A body was sent without `Content-Type: application/json` (`unsupported_media_type`).
#[derive(ToResponse)]
pub struct NotJson(pub ErrorBody);

/// Too many requests or connections from this address (`rate_limited`, whose
/// `Retry-After` header says when to try again, or `too_many_connections`); for a new engine
/// game, as many unfinished engine games from this address as it may have (`rate_limited`).
#[derive(ToResponse)]
pub struct Throttled(pub ErrorBody);

/// A rated game is being played in this position, one of its images under the board's
/// symmetries, or one move from it: the engine does not look at it until that game is over
/// (`live_game_position`, fair play).
#[derive(ToResponse)]
pub struct LivePosition(pub ErrorBody);

/// The server is stopping, its database cannot be reached, or its queue of work is full
/// (`shutting_down`, `unavailable`, `busy`); nothing was changed, try again later.
#[derive(ToResponse)]
pub struct Unavailable(pub ErrorBody);
