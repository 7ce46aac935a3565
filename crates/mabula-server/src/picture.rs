//! Pictures of positions, to show a game where people talk about it: an SVG drawing of the board
//! (the browser's wooden board, flat: trays, dimples, glass marbles, the last move ringed), the
//! same drawing as a PNG (rasterised with tiny-skia, the wood in flat colours so that it packs
//! small), and a whole game as an animated PNG.
//!
//! One geometry serves all three: a 900-unit square, 100 units a square, a 50-unit rim, rank 8 at
//! the top (or rank 1, when the board is turned for Black).

use mabula::{Color, Move, Position, Square};
use std::fmt::Write;
use tiny_skia::{
    Color as Rgba, FillRule, GradientStop, Paint, PathBuilder, Pixmap, Point, RadialGradient,
    SpreadMode, Stroke, Transform,
};

const VIEW: f32 = 900.0;
const CELL: f32 = 100.0;
const MARGIN: f32 = 50.0;
const MARBLE_R: f32 = 40.0;

/// One picture: a position, the move that led to it, and which way up the board is.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// What is on the board.
    pub position: Position,
    /// The move that led here, ringed (none at the start or after a pass).
    pub last: Option<Move>,
    /// Black's side at the bottom.
    pub flipped: bool,
}

/// The four trays of edge spaces: x, y, width, height.
const TRAYS: [(f32, f32, f32, f32); 4] = [
    (154.0, 758.0, 592.0, 84.0),
    (154.0, 58.0, 592.0, 84.0),
    (58.0, 154.0, 84.0, 592.0),
    (758.0, 154.0, 84.0, 592.0),
];

fn is_corner(sq: Square) -> bool {
    matches!((sq.file(), sq.rank()), (0 | 7, 0 | 7))
}

fn squares() -> impl Iterator<Item = Square> {
    (0..64u8)
        .filter_map(Square::from_index)
        .filter(|&s| !is_corner(s))
}

/// A square's centre in picture units.
fn center(sq: Square, flipped: bool) -> (f32, f32) {
    let (f, r) = (f32::from(sq.file()), f32::from(sq.rank()));
    let (col, row) = if flipped { (7.0 - f, r) } else { (f, 7.0 - r) };
    (
        MARGIN + col * CELL + CELL / 2.0,
        MARGIN + row * CELL + CELL / 2.0,
    )
}

/// The squares a move leaves and reaches (none for a pass).
fn ends(mv: Option<Move>) -> Option<(Square, Square)> {
    let mv = mv?;
    Some((mv.from()?, mv.to()?))
}

/// The position as an SVG document, `size` pixels wide.
pub fn svg(frame: &Frame, size: u32) -> String {
    let mut out = String::with_capacity(16_000);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 900" width="{size}" height="{size}" role="img"><title>Mabula: {}</title>"##,
        frame.position
    );
    out.push_str(concat!(
        r##"<defs><linearGradient id="wood" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e2b27a"/><stop offset=".45" stop-color="#cf9659"/><stop offset="1" stop-color="#b97b40"/></linearGradient>"##,
        r##"<linearGradient id="field" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#b67b43"/><stop offset="1" stop-color="#c99058"/></linearGradient>"##,
        r##"<linearGradient id="tray" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#a9703b"/><stop offset="1" stop-color="#c58c55"/></linearGradient>"##,
        r##"<radialGradient id="w" fx=".36" fy=".3"><stop offset="0" stop-color="#fff"/><stop offset=".35" stop-color="#f6f2ea"/><stop offset=".78" stop-color="#d8d0c2"/><stop offset="1" stop-color="#a9a091"/></radialGradient>"##,
        r##"<radialGradient id="b" fx=".36" fy=".3"><stop offset="0" stop-color="#7d7f8c"/><stop offset=".3" stop-color="#34353f"/><stop offset=".8" stop-color="#131318"/><stop offset="1" stop-color="#050507"/></radialGradient></defs>"##,
        r##"<rect width="900" height="900" rx="44" fill="url(#wood)"/>"##,
        r##"<rect x="146" y="146" width="608" height="608" rx="22" fill="url(#field)" stroke="#3c1e0a" stroke-opacity=".45" stroke-width="4"/>"##,
    ));
    for (x, y, w, h) in TRAYS {
        let _ = write!(
            out,
            r##"<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="42" fill="url(#tray)" stroke="#3c1e0a" stroke-opacity=".5" stroke-width="3"/>"##
        );
    }
    for sq in squares() {
        let (x, y) = center(sq, frame.flipped);
        let _ = write!(
            out,
            r##"<circle cx="{x}" cy="{y}" r="31" fill="#5a300f" fill-opacity=".32" stroke="#32190a" stroke-opacity=".35" stroke-width="2"/>"##
        );
    }
    if let Some((from, to)) = ends(frame.last) {
        let (x1, y1) = center(from, frame.flipped);
        let (x2, y2) = center(to, frame.flipped);
        let _ = write!(
            out,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#0f7d70" stroke-opacity=".55" stroke-width="12" stroke-linecap="round"/><circle cx="{x2}" cy="{y2}" r="47" fill="none" stroke="#0f7d70" stroke-width="7"/>"##
        );
    }
    for sq in squares() {
        let Some(color) = frame.position.color_at(sq) else {
            continue;
        };
        let (x, y) = center(sq, frame.flipped);
        let id = match color {
            Color::White => "w",
            Color::Black => "b",
        };
        let _ = write!(
            out,
            r##"<circle cx="{x}" cy="{}" r="{MARBLE_R}" fill="#2b1405" fill-opacity=".3"/><circle cx="{x}" cy="{y}" r="{MARBLE_R}" fill="url(#{id})"/>"##,
            y + 4.0
        );
    }
    out.push_str("</svg>");
    out
}

fn rgba(hex: u32, alpha: f32) -> Rgba {
    let [_, r, g, b] = hex.to_be_bytes();
    Rgba::from_rgba8(r, g, b, (alpha.clamp(0.0, 1.0) * 255.0).round() as u8)
}

fn solid(hex: u32, alpha: f32) -> Paint<'static> {
    let mut paint = Paint {
        anti_alias: true,
        ..Paint::default()
    };
    paint.set_color(rgba(hex, alpha));
    paint
}

fn rounded(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    let k = 0.552_284_8 * r;
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    pb.finish()
}

/// The position drawn into a `size` x `size` pixmap (the SVG's drawing, with flat wood).
fn draw(frame: &Frame, size: u32) -> Option<Pixmap> {
    let mut pix = Pixmap::new(size, size)?;
    let scale = size as f32 / VIEW;
    let t = Transform::from_scale(scale, scale);
    // Flat wood (the SVG's gradients at their middle): a PNG of flat colours is a fraction of
    // the size, which matters most for the animation's many frames.
    let wood = solid(0xcf9659, 1.0);
    pix.fill_path(
        &rounded(0.0, 0.0, VIEW, VIEW, 44.0)?,
        &wood,
        FillRule::Winding,
        t,
        None,
    );
    let field = rounded(146.0, 146.0, 608.0, 608.0, 22.0)?;
    pix.fill_path(&field, &solid(0xbf854d, 1.0), FillRule::Winding, t, None);
    let edge = |width: f32| Stroke {
        width,
        ..Stroke::default()
    };
    pix.stroke_path(&field, &solid(0x3c1e0a, 0.45), &edge(4.0), t, None);
    for (x, y, w, h) in TRAYS {
        let tray = rounded(x, y, w, h, 42.0)?;
        pix.fill_path(&tray, &solid(0xb77e48, 1.0), FillRule::Winding, t, None);
        pix.stroke_path(&tray, &solid(0x3c1e0a, 0.5), &edge(3.0), t, None);
    }
    for sq in squares() {
        let (x, y) = center(sq, frame.flipped);
        let dimple = PathBuilder::from_circle(x, y, 31.0)?;
        pix.fill_path(&dimple, &solid(0x5a300f, 0.32), FillRule::Winding, t, None);
        pix.stroke_path(&dimple, &solid(0x32190a, 0.35), &edge(2.0), t, None);
    }
    if let Some((from, to)) = ends(frame.last) {
        let (x1, y1) = center(from, frame.flipped);
        let (x2, y2) = center(to, frame.flipped);
        let mut pb = PathBuilder::new();
        pb.move_to(x1, y1);
        pb.line_to(x2, y2);
        let line = Stroke {
            width: 12.0,
            line_cap: tiny_skia::LineCap::Round,
            ..Stroke::default()
        };
        pix.stroke_path(&pb.finish()?, &solid(0x0f7d70, 0.55), &line, t, None);
        pix.stroke_path(
            &PathBuilder::from_circle(x2, y2, 47.0)?,
            &solid(0x0f7d70, 1.0),
            &edge(7.0),
            t,
            None,
        );
    }
    for sq in squares() {
        let Some(color) = frame.position.color_at(sq) else {
            continue;
        };
        let (x, y) = center(sq, frame.flipped);
        pix.fill_path(
            &PathBuilder::from_circle(x, y + 4.0, MARBLE_R)?,
            &solid(0x2b1405, 0.3),
            FillRule::Winding,
            t,
            None,
        );
        let stops: &[(f32, u32)] = match color {
            Color::White => &[
                (0.0, 0xffffff),
                (0.35, 0xf6f2ea),
                (0.78, 0xd8d0c2),
                (1.0, 0xa9a091),
            ],
            Color::Black => &[
                (0.0, 0x7d7f8c),
                (0.3, 0x34353f),
                (0.8, 0x131318),
                (1.0, 0x050507),
            ],
        };
        let mut paint = solid(0, 1.0);
        // The light falls from the top left, as in the SVG: the focus is up and left of the centre.
        let focus = Point::from_xy(x - 0.28 * MARBLE_R, y - 0.4 * MARBLE_R);
        if let Some(shader) = RadialGradient::new(
            focus,
            Point::from_xy(x, y),
            MARBLE_R,
            stops
                .iter()
                .map(|&(o, c)| GradientStop::new(o, rgba(c, 1.0)))
                .collect(),
            SpreadMode::Pad,
            Transform::identity(),
        ) {
            paint.shader = shader;
        }
        pix.fill_path(
            &PathBuilder::from_circle(x, y, MARBLE_R)?,
            &paint,
            FillRule::Winding,
            t,
            None,
        );
    }
    Some(pix)
}

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// tiny-skia could not make a canvas of that size.
    #[error("the picture size {0} is out of range")]
    Size(u32),
    /// The PNG encoder refused.
    #[error("the PNG encoder failed: {0}")]
    Encode(#[from] png::EncodingError),
    /// No frame to draw.
    #[error("a game needs at least one position")]
    Empty,
}

/// The position as a PNG, `size` pixels square.
pub fn png(frame: &Frame, size: u32) -> Result<Vec<u8>, PictureError> {
    animated(std::slice::from_ref(frame), size, 0)
}

/// Positions as an animated PNG (a still PNG for one frame), `delay_ms` each, the last one held
/// three times as long; viewers that know no APNG show the first frame. After the first frame,
/// each frame is only the part of the board that changed (the pushed line and the rings of the
/// last moves), drawn over the one before.
pub fn animated(frames: &[Frame], size: u32, delay_ms: u16) -> Result<Vec<u8>, PictureError> {
    if frames.is_empty() {
        return Err(PictureError::Empty);
    }
    let count = u32::try_from(frames.len()).map_err(|_| PictureError::Empty)?;
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, size, size);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // The wood is smooth gradients: filtering each row by its best predictor halves the size.
        encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
        encoder.set_compression(png::Compression::Default);
        if count > 1 {
            encoder.set_animated(count, 0)?;
            encoder.set_frame_delay(delay_ms, 1000)?;
        }
        let mut writer = encoder.write_header()?;
        for (i, frame) in frames.iter().enumerate() {
            let pix = draw(frame, size).ok_or(PictureError::Size(size))?;
            let (x, y, w, h) = match i.checked_sub(1).map(|p| &frames[p]) {
                None => (0, 0, size, size),
                Some(before) => changed(before, frame, size),
            };
            if count > 1 {
                if i + 1 == frames.len() {
                    writer.set_frame_delay(delay_ms.saturating_mul(3), 1000)?;
                }
                writer.reset_frame_position()?;
                writer.set_frame_dimension(w, h)?;
                writer.set_frame_position(x, y)?;
                writer.set_blend_op(png::BlendOp::Source)?;
                writer.set_dispose_op(png::DisposeOp::None)?;
            }
            writer.write_image_data(&straight(&pix, x, y, w, h))?;
        }
        writer.finish()?;
    }
    Ok(out)
}

/// The pixels of a region, with straight alpha (tiny-skia keeps premultiplied colours).
fn straight(pix: &Pixmap, x: u32, y: u32, w: u32, h: u32) -> Vec<u8> {
    let width = pix.width() as usize;
    let pixels = pix.pixels();
    let mut data = Vec::with_capacity(w as usize * h as usize * 4);
    for row in y as usize..(y + h) as usize {
        for p in &pixels[row * width + x as usize..row * width + (x + w) as usize] {
            let c = p.demultiply();
            data.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
        }
    }
    data
}

/// The pixel region (x, y, width, height) that differs between two pictures: the squares whose
/// marble changed and the last moves' lines and rings of both.
fn changed(before: &Frame, after: &Frame, size: u32) -> (u32, u32, u32, u32) {
    let mut squares: Vec<Square> = squares()
        .filter(|&s| before.position.color_at(s) != after.position.color_at(s))
        .collect();
    for f in [before, after] {
        if let Some((from, to)) = ends(f.last) {
            squares.extend([from, to]);
        }
    }
    if squares.is_empty() || before.flipped != after.flipped {
        return if squares.is_empty() {
            (0, 0, 1, 1)
        } else {
            (0, 0, size, size)
        };
    }
    // Half a square and the ring's stroke around each square's centre.
    let reach = CELL / 2.0 + 5.0;
    let (mut x0, mut y0, mut x1, mut y1) = (VIEW, VIEW, 0.0f32, 0.0f32);
    for s in squares {
        let (x, y) = center(s, after.flipped);
        x0 = x0.min(x - reach);
        y0 = y0.min(y - reach);
        x1 = x1.max(x + reach);
        y1 = y1.max(y + reach);
    }
    let scale = size as f32 / VIEW;
    let px = |v: f32| ((v * scale).max(0.0) as u32).min(size);
    let (x, y) = (px(x0), px(y0));
    let (right, bottom) = (px(x1.ceil()) + 1, px(y1.ceil()) + 1);
    let w = right.min(size).saturating_sub(x).max(1);
    let h = bottom.min(size).saturating_sub(y).max(1);
    (x.min(size - 1), y.min(size - 1), w, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Frame {
        let position: Position = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"
            .parse()
            .expect("a position");
        Frame {
            position,
            last: None,
            flipped: false,
        }
    }

    #[test]
    fn the_svg_draws_every_marble_once() {
        let text = svg(&frame(), 600);
        assert!(text.starts_with("<svg"));
        assert_eq!(text.matches(r##"fill="url(#w)""##).count(), 12);
        assert_eq!(text.matches(r##"fill="url(#b)""##).count(), 12);
    }

    #[test]
    fn a_png_is_a_png_of_the_size_asked() {
        let bytes = png(&frame(), 120).expect("a png");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let decoder = png::Decoder::new(bytes.as_slice());
        let reader = decoder.read_info().expect("readable");
        assert_eq!((reader.info().width, reader.info().height), (120, 120));
        assert!(reader.info().animation_control.is_none());
    }

    #[test]
    fn a_game_is_an_animated_png_with_a_frame_per_position() {
        let first = frame();
        let mv = first.position.legal_moves().as_slice()[0];
        let second = Frame {
            position: first.position.play(mv).expect("legal"),
            last: Some(mv),
            flipped: true,
        };
        let bytes = animated(&[first, second], 100, 500).expect("an apng");
        let reader = png::Decoder::new(bytes.as_slice())
            .read_info()
            .expect("readable");
        assert_eq!(
            reader.info().animation_control.map(|a| a.num_frames),
            Some(2)
        );
    }
}
