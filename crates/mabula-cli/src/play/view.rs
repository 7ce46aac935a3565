//! Drawing the game with ratatui, and finding the square under a mouse click.
//!
//! The screen at 80x24 (`NO_COLOR`; with colour the marbles are discs on coloured squares):
//!
//! ```text
//!  MABULA  you play white against the engine (level 5) · largest group
//!      a   b   c   d   e   f   g   h     (W) white (you)     ◀ to move
//!   8      W   B   W   B   W   W      8  (B) black (engine)
//!        ┌───────────────────────┐
//!   7  B │ ·   ·   ·   ·   ·   · │ B  7  score   [largest]  product
//!        │                       │       (W) white    2         2
//!   6 [-]│[B]  ·   ·   ·   ·   · │ W  6  (B) black    1         1
//!   ...                                  Moves (6)
//!   1      -   B   -   B  >W<  B      1   1. b1-b4  a2-b2
//!      a   b   c   d   e   f   g   h      2. a3-c3  a4-b4
//!
//!  white (you) to move: the marble on f1 can go 1 to 6 squares.     <- status
//!  black (engine) played a6-b6                                       <- notes
//!  arrows, Tab or a click: pick a marble · 1-6 or Enter: aim · ...  <- keys
//! ```
//!
//! Each square is three columns wide with a column between squares, and each rank has a row
//! below it: the gaps carry the frame around the field and, for the groups, the lines that join
//! the marbles of a group. The field and the edge spaces have their own backgrounds, so marbles
//! read the same on dark and light terminals; without colour (`NO_COLOR`) marbles are `W` and `B`,
//! empty edge spaces `-`, and marks use brackets, angle brackets, underlining and reverse video.

use super::app::{App, BoardView, Mode, NoteKind, group_sizes, scoring_words};
use super::{Player, side_label};
use mabula::{Bitboard, Color, Game, Scoring, Square};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Width of the board drawing: a rank label, eight squares with gaps, a rank label.
pub const BOARD_WIDTH: u16 = 35;
/// Height of the board drawing: file labels, eight ranks with a row under each, file labels.
pub const BOARD_HEIGHT: u16 = 17;
/// Below this width the side panel is left out.
const SIDE_MIN_WIDTH: u16 = 24;

/// Colours and glyphs, with or without colour.
#[derive(Copy, Clone, Debug)]
pub struct Theme {
    /// Whether to use colours.
    pub color: bool,
}

impl Theme {
    fn field(self) -> Style {
        self.bg(Tint::Indexed(137))
    }

    fn edge(self) -> Style {
        self.bg(Tint::Indexed(94))
    }

    fn bg(self, tint: Tint) -> Style {
        if self.color {
            Style::new().bg(tint)
        } else {
            Style::new()
        }
    }

    fn fg(self, tint: Tint) -> Style {
        if self.color {
            Style::new().fg(tint)
        } else {
            Style::new()
        }
    }

    fn marble_tint(color: Color) -> Tint {
        match color {
            Color::White => Tint::Indexed(231),
            Color::Black => Tint::Indexed(16),
        }
    }

    fn marble_glyph(self, color: Color) -> &'static str {
        match (self.color, color) {
            (true, _) => "●",
            (false, Color::White) => "W",
            (false, Color::Black) => "B",
        }
    }

    /// A marble as a three-column span on the field's background (for the side panel).
    fn disc(self, color: Color) -> Span<'static> {
        if self.color {
            Span::styled(
                " ● ",
                self.field()
                    .fg(Theme::marble_tint(color))
                    .add_modifier(Modifier::BOLD),
            )
        } else {
            Span::raw(format!("({})", self.marble_glyph(color)))
        }
    }

    fn error(self) -> Style {
        self.fg(Tint::Red).add_modifier(Modifier::BOLD)
    }
}

/// Where each part of the screen goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Areas {
    /// The title line.
    pub title: Rect,
    /// The board drawing, exactly [`BOARD_WIDTH`] by [`BOARD_HEIGHT`].
    pub board: Rect,
    /// Players, scores and moves, when there is room.
    pub side: Option<Rect>,
    /// What is going on.
    pub status: Rect,
    /// The latest notes.
    pub notes: Rect,
    /// The keys.
    pub keys: Rect,
}

/// The parts of a screen of size `area`; `None` if the board does not fit. Below the board come
/// the status line, up to two lines of notes and up to two lines of keys, as the height allows.
pub fn layout(area: Rect) -> Option<Areas> {
    let spare = area.height.checked_sub(1 + BOARD_HEIGHT)?;
    if area.width < BOARD_WIDTH + 2 || spare < 2 {
        return None;
    }
    let notes_height = (spare - 1).min(2);
    let keys_height = (spare - 1 - notes_height).min(2);
    let bottom = 1 + notes_height + keys_height;
    let main_height = area.height - 1 - bottom;
    let title = Rect::new(area.x, area.y, area.width, 1);
    let main = Rect::new(area.x, area.y + 1, area.width, main_height);
    let board_y = main.y + (main.height - BOARD_HEIGHT) / 2;
    let side_width = area.width.saturating_sub(BOARD_WIDTH + 4);
    let (board_x, side) = if side_width >= SIDE_MIN_WIDTH {
        let side = Rect::new(
            area.x + BOARD_WIDTH + 4,
            board_y,
            side_width.min(60),
            main.bottom() - board_y,
        );
        (area.x + 2, Some(side))
    } else {
        (area.x + (area.width - BOARD_WIDTH) / 2, None)
    };
    let board = Rect::new(board_x, board_y, BOARD_WIDTH, BOARD_HEIGHT);
    let below = main.bottom();
    let line = |dy: u16, h: u16| Rect::new(area.x + 1, below + dy, area.width - 2, h);
    Some(Areas {
        title,
        board,
        side,
        status: line(0, 1),
        notes: line(1, notes_height),
        keys: line(1 + notes_height, keys_height),
    })
}

/// The first of the three columns of file `file`'s squares, and the row of rank `rank`.
fn cell_origin(board: Rect, file: u8, rank: u8) -> (u16, u16) {
    (
        board.x + 2 + 4 * u16::from(file),
        board.y + 1 + 2 * (7 - u16::from(rank)),
    )
}

/// The square drawn at column `x`, row `y` of a screen of size `area`: a square's three
/// columns, the gap to its right and the row under it all count as the square, so clicks need
/// not be precise. Corners and everything off the board give `None`.
pub fn square_at(area: Rect, x: u16, y: u16) -> Option<Square> {
    let board = layout(area)?.board;
    let dx = x.checked_sub(board.x + 2)?;
    let dy = y.checked_sub(board.y + 1)?;
    let (file, row) = (dx / 4, dy / 2);
    if file > 7 || row > 7 {
        return None;
    }
    let sq = Square::from_coords(file as u8, 7 - row as u8)?;
    (!Bitboard::CORNERS.contains(sq)).then_some(sq)
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let theme = Theme {
        color: app.settings().color,
    };
    let area = frame.area();
    let Some(areas) = layout(area) else {
        let text = format!(
            "The board needs a terminal of at least {}x{}; this one is {}x{}. Enlarge it, or \
             press q to quit.",
            BOARD_WIDTH + 2,
            BOARD_HEIGHT + 3,
            area.width,
            area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    };
    frame.render_widget(
        title(app, areas.title.width, areas.side.is_none()),
        areas.title,
    );
    frame.render_widget(
        BoardWidget {
            view: app.board_view(),
            theme,
        },
        areas.board,
    );
    if let Some(side) = areas.side {
        frame.render_widget(Paragraph::new(side_panel(app, theme, side.height)), side);
    }
    let status_style = Style::new().add_modifier(Modifier::BOLD);
    if let Mode::Prompt { text } = app.mode() {
        let line = Line::from(vec![
            Span::styled("> ", status_style),
            Span::raw(text.clone()),
        ]);
        frame.render_widget(Paragraph::new(line), areas.status);
        let x = areas.status.x + 2 + text.chars().count() as u16;
        frame.set_cursor_position((
            x.min(areas.status.right().saturating_sub(1)),
            areas.status.y,
        ));
    } else {
        frame.render_widget(
            Paragraph::new(Span::styled(app.status(), status_style)),
            areas.status,
        );
    }
    frame.render_widget(
        Paragraph::new(notes(app, theme, areas.notes)).wrap(Wrap { trim: true }),
        areas.notes,
    );
    let dim = Style::new().add_modifier(Modifier::DIM);
    let keys: Vec<Line> = keys_lines(app)
        .into_iter()
        .take(usize::from(areas.keys.height))
        .map(|k| Line::styled(k, dim))
        .collect();
    frame.render_widget(Paragraph::new(keys), areas.keys);
}

/// The title: who plays and the scoring mode; on a narrow screen, the scores instead.
fn title(app: &App, width: u16, narrow: bool) -> Paragraph<'static> {
    let style = Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
    let s = app.settings();
    if narrow {
        let game = app.game();
        let scores = game.position().scores(game.scoring());
        let text = format!(
            " white {} · black {} ({})",
            scores.white,
            scores.black,
            scoring_words(game.scoring())
        );
        return Paragraph::new(Line::from(Span::styled(
            format!("{text:<w$}", w = usize::from(width)),
            style,
        )));
    }
    let players = match s.players {
        [Player::Human, Player::Human] => "two players".to_string(),
        [Player::Engine, Player::Engine] => format!("engine against engine, level {}", s.level),
        _ => {
            let engine = if s.player(Color::White) == Player::Engine {
                Color::White
            } else {
                Color::Black
            };
            format!(
                "you play {} against the engine (level {})",
                engine.other(),
                s.level
            )
        }
    };
    let text = format!(
        " MABULA  {players} · {} ",
        scoring_words(app.game().scoring())
    );
    Paragraph::new(Line::from(Span::styled(
        format!("{text:<w$}", w = usize::from(width)),
        style,
    )))
}

/// The latest notes that fit in `area` once wrapped, oldest first.
fn notes(app: &App, theme: Theme, area: Rect) -> Vec<Line<'static>> {
    let width = usize::from(area.width.max(1));
    let mut rows = 0;
    let mut shown: Vec<Line<'static>> = Vec::new();
    for n in app.notes().iter().rev() {
        let line = match n.kind {
            NoteKind::Info => Line::raw(n.text.clone()),
            NoteKind::Error => Line::styled(format!("! {}", n.text), theme.error()),
        };
        rows += line.width().div_ceil(width).max(1);
        if rows > usize::from(area.height) && !shown.is_empty() {
            break;
        }
        shown.insert(0, line);
    }
    shown
}

fn keys_lines(app: &App) -> [&'static str; 2] {
    const COMMON: &str = "u undo · ? hint · o groups · s save · l load · n new game · q quit";
    if matches!(app.mode(), Mode::Prompt { .. }) {
        return [
            "Enter runs it · Esc cancels · a move (b1-b4) or: undo, hint, moves, groups,",
            "save [FILE], load FILE, new, help, quit",
        ];
    }
    if app.is_over() {
        return [
            "n new game · u take back · o groups · s save · l load · q quit",
            "",
        ];
    }
    if app.settings().players == [Player::Engine; 2] {
        return [
            if app.paused() {
                "space go on · o groups · s save · n new game · q quit"
            } else {
                "space pause · o groups · s save · n new game · q quit"
            },
            "",
        ];
    }
    match app.mode() {
        Mode::Aim { .. } => [
            "arrows or 1-6: distance · Enter, space or a click: push · Esc: back",
            COMMON,
        ],
        _ => [
            "arrows, Tab or a click: pick a marble · 1-6 or Enter: aim · a-h: type a move",
            COMMON,
        ],
    }
}

/// The side panel: players and whose turn, both scores, then the moves (or the result).
fn side_panel(app: &App, theme: Theme, height: u16) -> Vec<Line<'static>> {
    let game = app.game();
    let settings = app.settings();
    let pos = game.position();
    let over = pos.is_game_over();
    let mut lines = Vec::new();
    for color in Color::BOTH {
        let mut spans = vec![
            theme.disc(color),
            Span::raw(format!(" {:<16}", side_label(settings, color))),
        ];
        if !over && pos.side_to_move() == color {
            spans.push(Span::styled(
                "◀ to move",
                Style::new().add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.extend(score_table(app, theme));
    lines.push(Line::raw(""));
    if over {
        let scores = pos.scores(game.scoring());
        let result = match scores.outcome().winner() {
            Some(c) => format!("{c} wins {} to {}", scores.of(c), scores.of(c.other())),
            None => format!("a draw, {} to {}", scores.white, scores.black),
        };
        lines.push(Line::styled(
            format!("Game over: {result}"),
            Style::new().add_modifier(Modifier::BOLD),
        ));
        for color in Color::BOTH {
            let sizes: Vec<String> = group_sizes(pos, color)
                .iter()
                .map(ToString::to_string)
                .collect();
            let list = if sizes.is_empty() {
                "none".to_string()
            } else {
                sizes.join(" ")
            };
            lines.push(Line::from(vec![
                theme.disc(color),
                Span::raw(format!(" groups {list}")),
            ]));
        }
        lines.push(Line::raw(""));
    }
    let room = usize::from(height).saturating_sub(lines.len() + 1);
    lines.push(Line::styled(
        format!("Moves ({})", game.moves().len()),
        Style::new().add_modifier(Modifier::UNDERLINED),
    ));
    lines.extend(move_list(game, room));
    lines
}

fn score_table(app: &App, theme: Theme) -> Vec<Line<'static>> {
    let game = app.game();
    let pos = game.position();
    let chosen = game.scoring();
    let header = |mode: Scoring| {
        let name = match mode {
            Scoring::Largest => "largest",
            Scoring::Product => "product",
        };
        if mode == chosen {
            Span::styled(
                format!("[{name}]"),
                Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            )
        } else {
            Span::raw(format!(" {name} "))
        }
    };
    let mut lines = vec![Line::from(vec![
        Span::raw("score   "),
        header(Scoring::Largest),
        Span::raw(" "),
        header(Scoring::Product),
    ])];
    for color in Color::BOTH {
        let cell = |mode: Scoring| {
            let text = format!("{:^9}", pos.score(color, mode));
            if mode == chosen {
                Span::styled(text, Style::new().add_modifier(Modifier::BOLD))
            } else {
                Span::raw(text)
            }
        };
        lines.push(Line::from(vec![
            theme.disc(color),
            Span::raw(format!(" {:<4}", color.name())),
            cell(Scoring::Largest),
            Span::raw(" "),
            cell(Scoring::Product),
        ]));
    }
    lines
}

/// The moves by rounds, two rounds a line when they do not fit one a line; the last move bold.
fn move_list(game: &Game, room: usize) -> Vec<Line<'static>> {
    let moves = game.moves();
    if moves.is_empty() || room == 0 {
        return Vec::new();
    }
    let black_first = game.start().side_to_move() == Color::Black;
    let mut rounds: Vec<[Option<usize>; 2]> = Vec::new();
    for i in 0..moves.len() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 || rounds.is_empty() {
            rounds.push([None, None]);
        }
        if let Some(r) = rounds.last_mut() {
            r[ply % 2] = Some(i);
        }
    }
    let last = moves.len() - 1;
    let round_spans = |n: usize, round: &[Option<usize>; 2]| {
        let mut spans = vec![Span::raw(format!("{:>2}. ", n + 1))];
        for slot in round {
            let (text, style) = match slot {
                Some(i) => (
                    format!("{:<6}", moves[*i].to_string()),
                    if *i == last {
                        Style::new().add_modifier(Modifier::REVERSED)
                    } else {
                        Style::new()
                    },
                ),
                None => ("...   ".to_string(), Style::new()),
            };
            spans.push(Span::styled(text, style));
            spans.push(Span::raw(" "));
        }
        spans
    };
    let numbered: Vec<(usize, &[Option<usize>; 2])> = rounds.iter().enumerate().collect();
    if numbered.len() <= room {
        return numbered
            .iter()
            .map(|(n, r)| Line::from(round_spans(*n, r)))
            .collect();
    }
    // Two rounds a line, the latest ones kept.
    let keep = (room * 2).min(numbered.len());
    let shown = &numbered[numbered.len() - keep..];
    let half = keep.div_ceil(2);
    (0..half)
        .map(|row| {
            let mut spans = round_spans(shown[row].0, shown[row].1);
            if let Some((n, r)) = shown.get(row + half) {
                spans.push(Span::raw(" "));
                spans.extend(round_spans(*n, r));
            }
            Line::from(spans)
        })
        .collect()
}

/// The board drawing.
struct BoardWidget {
    view: BoardView,
    theme: Theme,
}

impl Widget for BoardWidget {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < BOARD_WIDTH || area.height < BOARD_HEIGHT {
            return;
        }
        let board = Rect::new(area.x, area.y, BOARD_WIDTH, BOARD_HEIGHT);
        let theme = self.theme;
        let label = Style::new();
        for file in 0..8u8 {
            let (x, _) = cell_origin(board, file, 0);
            let name = ((b'a' + file) as char).to_string();
            buf.set_string(x + 1, board.y, &name, label);
            buf.set_string(x + 1, board.y + BOARD_HEIGHT - 1, &name, label);
        }
        for rank in 0..8u8 {
            let (_, y) = cell_origin(board, 0, rank);
            let name = ((b'1' + rank) as char).to_string();
            buf.set_string(board.x, y, &name, label);
            buf.set_string(board.x + BOARD_WIDTH - 1, y, &name, label);
        }
        // The field: a framed block from the gap left of b to the gap right of g.
        let (left, top) = (board.x + 5, board.y + 2);
        let (right, bottom) = (board.x + 29, board.y + 14);
        let frame = theme.field().patch(theme.fg(Tint::Indexed(52)));
        buf.set_style(
            Rect::new(left, top, right - left + 1, bottom - top + 1),
            theme.field(),
        );
        for x in left..=right {
            let (t, b) = match x {
                _ if x == left => ("┌", "└"),
                _ if x == right => ("┐", "┘"),
                _ => ("─", "─"),
            };
            buf.set_string(x, top, t, frame);
            buf.set_string(x, bottom, b, frame);
        }
        for y in top + 1..bottom {
            buf.set_string(left, y, "│", frame);
            buf.set_string(right, y, "│", frame);
        }
        let pos = &self.view.position;
        for sq in Square::ALL {
            if Bitboard::CORNERS.contains(sq) {
                continue;
            }
            self.square(buf, board, sq, pos.color_at(sq));
        }
        if self.view.groups {
            self.bonds(buf, board);
        }
    }
}

impl BoardWidget {
    fn square(&self, buf: &mut Buffer, board: Rect, sq: Square, marble: Option<Color>) {
        let theme = self.theme;
        let on_edge = Bitboard::EDGE.contains(sq);
        let (x, y) = cell_origin(board, sq.file(), sq.rank());
        let mut style = if on_edge { theme.edge() } else { theme.field() };
        let glyph = match marble {
            Some(c) => {
                style = style
                    .patch(theme.fg(Theme::marble_tint(c)))
                    .add_modifier(Modifier::BOLD);
                theme.marble_glyph(c)
            }
            None if on_edge => {
                style = style.patch(theme.fg(Tint::Indexed(137)));
                if theme.color { "·" } else { "-" }
            }
            None => {
                style = style.patch(theme.fg(Tint::Indexed(180)));
                "·"
            }
        };
        let view = &self.view;
        let is_cursor = view.cursor == Some(sq);
        let in_line = view.line.contains(sq);
        let is_last = view.last.is_some_and(|(from, to)| sq == from || sq == to);
        if in_line {
            style = if theme.color {
                style.bg(Tint::Indexed(66))
            } else {
                style.add_modifier(Modifier::UNDERLINED)
            };
        }
        if is_cursor {
            style = if theme.color {
                style.bg(Tint::Indexed(25))
            } else {
                style.add_modifier(Modifier::REVERSED)
            };
        }
        let (open, close) = match (is_cursor, is_last) {
            (true, _) => (">", "<"),
            (false, true) => ("[", "]"),
            _ => (" ", " "),
        };
        let pad = if is_cursor || is_last {
            let tint = if is_cursor {
                Tint::Indexed(231)
            } else {
                Tint::Indexed(226)
            };
            style.patch(theme.fg(tint)).add_modifier(Modifier::BOLD)
        } else {
            style
        };
        buf.set_string(x, y, open, pad);
        buf.set_string(x + 1, y, glyph, style);
        buf.set_string(x + 2, y, close, pad);
    }

    /// Joins horizontally and vertically neighbouring marbles of one colour in the field.
    fn bonds(&self, buf: &mut Buffer, board: Rect) {
        let pos = &self.view.position;
        for sq in Bitboard::FIELD {
            let Some(c) = pos.color_at(sq) else { continue };
            let style = self
                .theme
                .field()
                .patch(self.theme.fg(Theme::marble_tint(c)))
                .add_modifier(Modifier::BOLD);
            let (x, y) = cell_origin(board, sq.file(), sq.rank());
            let right = Square::from_coords(sq.file() + 1, sq.rank());
            if let Some(r) = right.filter(|r| Bitboard::FIELD.contains(*r))
                && pos.color_at(r) == Some(c)
            {
                // Through the gap and the blank padding, leaving any mark in place.
                for bx in x + 2..=x + 4 {
                    if buf[(bx, y)].symbol() == " " {
                        buf.set_string(bx, y, "─", style);
                    }
                }
            }
            let below = sq
                .rank()
                .checked_sub(1)
                .and_then(|r| Square::from_coords(sq.file(), r));
            if let Some(b) = below.filter(|b| Bitboard::FIELD.contains(*b))
                && pos.color_at(b) == Some(c)
            {
                buf.set_string(x + 1, y + 1, "│", style);
            }
        }
    }
}

/// The board of `app` as plain text, without colour.
#[cfg(test)]
pub fn board_text(app: &App) -> String {
    let mut buf = Buffer::empty(Rect::new(0, 0, BOARD_WIDTH, BOARD_HEIGHT));
    BoardWidget {
        view: app.board_view(),
        theme: Theme { color: false },
    }
    .render(buf.area, &mut buf);
    let mut out = String::new();
    for y in 0..BOARD_HEIGHT {
        let line: String = (0..BOARD_WIDTH)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
#[path = "view_tests.rs"]
mod tests;
