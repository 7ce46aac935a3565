//! A game as a picture: `GET /api/games/{id}/image`, any position of it as SVG or PNG, or the
//! whole game as an animated PNG, so that a game can be shown where people talk about it.

use super::AppState;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::QueryParams;
use crate::picture::{self, Frame};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use mabula::record::Game;
use serde::Deserialize;
use std::sync::{LazyLock, Mutex};
use tokio::sync::Semaphore;
use utoipa::IntoParams;

/// The routes of the picture of a game.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/image", get(image))
}

/// Query of `GET /api/games/{id}/image`.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ImageQuery {
    /// `svg` (default), `png`, or `apng`: every position of the game, one after another.
    pub format: Option<String>,
    /// The position after this many moves, 0 (the start) to the number of moves (default: the
    /// last position). Not with `apng`.
    pub ply: Option<u32>,
    /// `true` to draw the board from Black's side.
    pub flip: Option<bool>,
    /// Width and height in pixels, 64 to 1200 (default 600; for `apng` 64 to 600, default 360).
    pub size: Option<u32>,
}

/// The largest picture, in pixels a side.
const MAX_SIZE: u32 = 1200;
/// The largest animation, in pixels a side: every frame is drawn, so it costs more.
const MAX_ANIMATED: u32 = 600;
/// A frame of the animated game, in milliseconds.
const FRAME_MS: u16 = 900;

/// A picture of the game: a position (SVG or PNG) or the whole game (animated PNG).
#[utoipa::path(get, path = "/api/games/{id}/image", tag = "games",
    params(("id" = String, Path, description = "Game id"), ImageQuery),
    responses(
        (status = 200, description = "The picture", content(
            (String = "image/svg+xml"),
            (Vec<u8> = "image/png"),
        )),
        (status = 400, description = "An unknown format or parameter, a move number past the game's end, a size out of range, or an id that is not valid UTF-8 (`bad_request`)", body = ErrorBody),
        (status = 404, response = super::answers::NoSuchGame),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn image(
    State(app): State<AppState>,
    Path(id): Path<String>,
    QueryParams(q): QueryParams<ImageQuery>,
) -> Result<Response, ApiError> {
    let format = q.format.as_deref().unwrap_or("svg");
    if !matches!(format, "svg" | "png" | "apng") {
        return Err(bad(format!(
            "format '{format}' is unknown: use svg, png or apng"
        )));
    }
    let size = q.size.unwrap_or(if format == "apng" { 360 } else { 600 });
    let max = if format == "apng" {
        MAX_ANIMATED
    } else {
        MAX_SIZE
    };
    if !(64..=max).contains(&size) {
        return Err(bad(format!(
            "size {size} is out of range: 64 to {max} pixels"
        )));
    }
    if format == "apng" && q.ply.is_some() {
        return Err(bad("ply names one position: it does not go with apng"));
    }
    let text = app.games.record(&id).await?;
    let game = Game::parse(&text).map_err(|e| {
        ApiError::new(
            ErrorCode::Internal,
            format!("the game's own record cannot be read: {e}"),
        )
    })?;
    let moves = game.moves().len();
    let flipped = q.flip.unwrap_or(false);
    let frame = |n: usize| Frame {
        position: game.position_after(n),
        last: n.checked_sub(1).map(|i| game.moves()[i]),
        flipped,
    };
    let ply = match q.ply {
        None => moves,
        Some(p) if (p as usize) <= moves => p as usize,
        Some(p) => {
            return Err(bad(format!(
                "ply {p} is past the game's end: it has {moves} moves"
            )));
        }
    };
    let (mime, body) = match format {
        "svg" => (
            "image/svg+xml",
            Bytes::from(picture::svg(&frame(ply), size)),
        ),
        _ => {
            let animated = format == "apng";
            let key = (text.clone(), animated, ply, size, flipped);
            let frames: Vec<Frame> = match animated {
                false => vec![frame(ply)],
                true => (0..=moves).map(frame).collect(),
            };
            let bytes = drawn(key, move || match (animated, frames.as_slice()) {
                (false, [one]) => picture::png(one, size),
                (_, all) => picture::animated(all, size, FRAME_MS),
            })
            .await?;
            ("image/png", bytes)
        }
    };
    // A finished game's pictures never change; an unfinished one's may (a move, a take-back).
    let cache = if game.is_finished() {
        "public, max-age=86400"
    } else {
        "no-cache"
    };
    Ok((
        [(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, cache)],
        body,
    )
        .into_response())
}

/// What a PNG picture is drawn from: the game's record, animated or not, the ply, the size and
/// whether the board is turned (the record alone says what is drawn, so a picture found under
/// its key is always right).
type PictureKey = (String, bool, usize, u32, bool);

/// The PNG pictures drawn lately, kept up to [`CACHE_BYTES`], the least recently asked for
/// dropped first; an animated picture costs a fraction of a second to draw, and a link to one
/// shared where people talk is asked for many times.
struct Pictures {
    drawn: lru::LruCache<PictureKey, Bytes>,
    bytes: usize,
}

/// The most bytes of pictures kept.
const CACHE_BYTES: usize = 64 << 20;

static PICTURES: LazyLock<Mutex<Pictures>> = LazyLock::new(|| {
    Mutex::new(Pictures {
        drawn: lru::LruCache::unbounded(),
        bytes: 0,
    })
});

/// One picture drawn at a time (on a blocking thread), so that pictures take one core at most;
/// the others wait their turn, and those asked for the same picture find it drawn.
static DRAWING: Semaphore = Semaphore::const_new(1);

/// The picture of `key`, from the cache or drawn by `draw`.
async fn drawn(
    key: PictureKey,
    draw: impl FnOnce() -> Result<Vec<u8>, picture::PictureError> + Send + 'static,
) -> Result<Bytes, ApiError> {
    let cached = |key: &PictureKey| {
        let mut p = PICTURES.lock().unwrap_or_else(|e| e.into_inner());
        p.drawn.get(key).cloned()
    };
    if let Some(bytes) = cached(&key) {
        return Ok(bytes);
    }
    let _turn = DRAWING.acquire().await.map_err(internal)?;
    if let Some(bytes) = cached(&key) {
        return Ok(bytes);
    }
    let bytes = Bytes::from(
        tokio::task::spawn_blocking(draw)
            .await
            .map_err(internal)?
            .map_err(internal)?,
    );
    crate::metrics::picture_drawn();
    let mut p = PICTURES.lock().unwrap_or_else(|e| e.into_inner());
    p.bytes += bytes.len();
    if let Some((_, old)) = p.drawn.push(key, bytes.clone()) {
        p.bytes -= old.len();
    }
    while p.bytes > CACHE_BYTES {
        match p.drawn.pop_lru() {
            Some((_, old)) => p.bytes -= old.len(),
            None => break,
        }
    }
    Ok(bytes)
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, message)
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(ErrorCode::Internal, format!("the picture failed: {e}"))
}
