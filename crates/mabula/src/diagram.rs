//! Boards drawn as text, for terminals, logs and the engine protocol's `showboard`.
//!
//! ```text
//!    a   b   c   d   e   f   g   h
//! 8      W   B   W   B   W   W      8
//!      +-----------------------+
//! 7  B | .   .   .   .   .   . | B  7
//! ```
//!
//! The field sits inside the frame; the edge spaces around it; corners stay blank. `W` is a white
//! marble and `B` a black one, so the drawing reads the same with or without colour.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::square::{Color, Square};
use std::fmt::Write;

/// The board of `pos` as lines of text (no trailing newline), with `marked` squares drawn in
/// brackets (the last move, say).
pub fn diagram(pos: &Position, marked: Bitboard) -> String {
    const FILES: &str = "   a   b   c   d   e   f   g   h";
    const FRAME: &str = "     +-----------------------+";
    let mut out = String::new();
    out.push_str(FILES);
    out.push('\n');
    for rank in (0..8u8).rev() {
        let cell = |file: u8| {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let body = match pos.color_at(sq) {
                Some(Color::White) => 'W',
                Some(Color::Black) => 'B',
                None if Bitboard::FIELD.contains(sq) => '.',
                None if Bitboard::EDGE.contains(sq) => '-',
                None => ' ',
            };
            if marked.contains(sq) {
                format!("[{body}]")
            } else {
                format!(" {body} ")
            }
        };
        let sep = if (1..7).contains(&rank) { '|' } else { ' ' };
        let field: Vec<String> = (1..7).map(cell).collect();
        let _ = writeln!(
            out,
            "{n} {a}{sep}{field}{sep}{h} {n}",
            n = rank + 1,
            a = cell(0),
            field = field.join(" "),
            h = cell(7),
        );
        if rank == 7 || rank == 1 {
            out.push_str(FRAME);
            out.push('\n');
        }
    }
    out.push_str(FILES);
    let _ = write!(out, "\n{} to move", pos.side_to_move());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diagram_frames_the_field_and_marks_squares() {
        let pos: Position = "1wbwbww1/b6b/b6w/w6b/bw5w/w6b/b6w/2bwbwb1 b"
            .parse()
            .expect("valid");
        let text = diagram(&pos, Bitboard::from_square(Square::B4));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   a   b   c   d   e   f   g   h");
        assert_eq!(lines[1], "8      W   B   W   B   W   W      8");
        assert_eq!(lines[2], "     +-----------------------+");
        assert_eq!(lines[6], "4  B |[W]  .   .   .   .   . | W  4");
        assert_eq!(lines[9], "     +-----------------------+");
        assert_eq!(lines[10], "1      -   B   W   B   W   B      1");
        assert_eq!(lines[12], "black to move");
    }
}
