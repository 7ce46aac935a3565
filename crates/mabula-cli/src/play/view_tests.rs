//! The screen, drawn on ratatui's test backend and compared with snapshots (`cargo insta review`
//! after a deliberate change).

use super::*;
use crate::play_cmds::play::app::{Effect, Input, Key};
use crate::play_cmds::play::{Player, Settings};
use mabula::{Move, deal};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const VS_ENGINE: [Player; 2] = [Player::Human, Player::Engine];

fn opening() -> Game {
    let start = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w";
    Game::new(start.parse().expect("position"), Scoring::Largest)
}

fn app_with(players: [Player; 2], game: Game, color: bool) -> App {
    let mut settings = Settings::quick(players);
    settings.color = color;
    let mut app = App::new(settings, game);
    settle(&mut app);
    app
}

/// Answers the engine's requests with the first legal move in notation order, so that the
/// snapshots do not change when the engine does.
fn settle(app: &mut App) {
    loop {
        let effects = app.take_effects();
        if effects.is_empty() {
            return;
        }
        for effect in effects {
            if let Effect::Think(request) = effect {
                let mut moves = request.position.legal_moves();
                moves.sort_unstable();
                let mv = moves.first().copied().unwrap_or(Move::PASS);
                app.handle(Input::Engine { id: request.id, mv });
            }
        }
    }
}

fn press(app: &mut App, keys: &[Key]) {
    for &key in keys {
        app.handle(Input::Key(key));
        settle(app);
    }
}

fn screen(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal.draw(|f| draw(f, app)).expect("draw");
    terminal
}

#[test]
fn the_start_of_a_game_against_the_engine_at_80x24() {
    let app = app_with(VS_ENGINE, opening(), true);
    insta::assert_snapshot!(screen(&app, 80, 24).backend());
}

#[test]
fn without_colour_marbles_are_letters_and_no_cell_is_coloured() {
    let app = app_with(VS_ENGINE, opening(), false);
    let terminal = screen(&app, 80, 24);
    for cell in terminal.backend().buffer().content() {
        assert_eq!((cell.fg, cell.bg), (Tint::Reset, Tint::Reset), "{cell:?}");
    }
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn in_colour_marbles_and_the_two_kinds_of_space_have_fixed_colours() {
    let app = app_with(VS_ENGINE, opening(), true);
    let terminal = screen(&app, 80, 24);
    let buffer = terminal.backend().buffer();
    let areas = layout(Rect::new(0, 0, 80, 24)).expect("fits");
    let at = |sq: &str| {
        let sq: Square = sq.parse().expect("square");
        let (x, y) = cell_origin(areas.board, sq.file(), sq.rank());
        buffer[(x + 1, y)].clone()
    };
    let white_on_edge = at("d1");
    assert_eq!(white_on_edge.symbol(), "●");
    assert_eq!(white_on_edge.fg, Tint::Indexed(231));
    assert_eq!(white_on_edge.bg, Tint::Indexed(94));
    let black_on_edge = at("c1");
    assert_eq!(black_on_edge.fg, Tint::Indexed(16));
    let empty_field = at("d4");
    assert_eq!(empty_field.bg, Tint::Indexed(137));
    let corner = at("a1");
    assert_eq!((corner.symbol(), corner.bg), (" ", Tint::Reset));
}

#[test]
fn aiming_shows_the_line_after_the_push() {
    let mut app = app_with(VS_ENGINE, opening(), false);
    press(&mut app, &[Key::Enter, Key::Up, Key::Up]);
    insta::assert_snapshot!(screen(&app, 80, 24).backend());
}

#[test]
fn the_last_move_is_marked_and_the_moves_are_listed() {
    let mut app = app_with(VS_ENGINE, opening(), false);
    for mv in ["b1-b4", "a3-c3", "d1-d2"] {
        app.handle(Input::Line(mv.to_string()));
        settle(&mut app);
    }
    insta::assert_snapshot!(screen(&app, 80, 24).backend());
}

#[test]
fn the_prompt_shows_what_is_typed() {
    let mut app = app_with(VS_ENGINE, opening(), false);
    press(&mut app, &[Key::Char('b'), Key::Char('1'), Key::Char('-')]);
    let terminal = screen(&app, 80, 24);
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn the_end_screen_joins_each_group_and_gives_the_result() {
    let game = Game::new(deal::random(3, Color::White), Scoring::Product);
    let app = app_with([Player::Engine, Player::Engine], game, false);
    assert!(app.is_over());
    insta::assert_snapshot!(screen(&app, 80, 24).backend());
}

#[test]
fn a_narrow_terminal_leaves_out_the_side_panel() {
    let app = app_with(VS_ENGINE, opening(), false);
    insta::assert_snapshot!(screen(&app, 50, 24).backend());
}

#[test]
fn the_smallest_screen_keeps_the_board_the_status_and_a_note() {
    let app = app_with(VS_ENGINE, opening(), false);
    insta::assert_snapshot!(screen(&app, 37, 20).backend());
}

#[test]
fn a_terminal_too_small_for_the_board_says_so() {
    let app = app_with(VS_ENGINE, opening(), false);
    insta::assert_snapshot!(screen(&app, 30, 12).backend());
}

#[test]
fn a_resize_redraws_to_the_new_size() {
    let app = app_with(VS_ENGINE, opening(), false);
    let mut terminal = screen(&app, 80, 24);
    terminal.backend_mut().resize(110, 30);
    terminal.draw(|f| draw(f, &app)).expect("draw");
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn a_click_anywhere_on_a_square_finds_it_and_corners_find_nothing() {
    for (w, h) in [(80, 24), (50, 24), (120, 40)] {
        let area = Rect::new(0, 0, w, h);
        let board = layout(area).expect("fits").board;
        for sq in Square::ALL {
            let (x, y) = cell_origin(board, sq.file(), sq.rank());
            let expected = (!Bitboard::CORNERS.contains(sq)).then_some(sq);
            for (dx, dy) in [(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)] {
                assert_eq!(square_at(area, x + dx, y + dy), expected, "{sq} at {w}x{h}");
            }
        }
        assert_eq!(square_at(area, 0, 0), None);
    }
    assert_eq!(square_at(Rect::new(0, 0, 20, 10), 5, 5), None);
}

#[test]
fn the_board_text_marks_the_last_move() {
    let mut app = app_with([Player::Human; 2], opening(), false);
    app.handle(Input::Line("b1-b4".into()));
    let text = board_text(&app);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[9], "4  B │[W]  ·   ·   ·   ·   · │ W  4");
    assert_eq!(lines[15], "1     [-] >B<  W   B   W   B      1");
    assert!(app.game().moves() == [Move::push(Square::B1, 3).expect("push")]);
}
