//! The state machine, driven by inputs as the runtimes would, without a terminal. The engine
//! runs at level 1 for 20 ms, on the test's thread.

use super::*;
use crate::play_cmds::play::{Settings, think};
use mabula::GameResult;

const HUMANS: [Player; 2] = [Player::Human, Player::Human];
const VS_ENGINE: [Player; 2] = [Player::Human, Player::Engine];

fn game(position: &str) -> Game {
    Game::new(position.parse().expect("position"), Scoring::Largest)
}

fn opening() -> Game {
    game("1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w")
}

fn app(players: [Player; 2], game: Game) -> App {
    let mut app = App::new(Settings::quick(players), game);
    settle(&mut app);
    app
}

/// Carries out the effects as a runtime would, the engine synchronously; returns the file
/// effects (save and load) for the test to look at.
fn settle(app: &mut App) -> Vec<Effect> {
    let mut files = Vec::new();
    loop {
        let effects = app.take_effects();
        if effects.is_empty() {
            return files;
        }
        for effect in effects {
            match effect {
                Effect::Think(request) => app.handle(think(&request, false)),
                other => files.push(other),
            }
        }
    }
}

fn keys(app: &mut App, keys: &[Key]) {
    for &key in keys {
        app.handle(Input::Key(key));
        settle(app);
    }
}

/// Opens the prompt with `:`, types `text` and Enter.
fn type_line(app: &mut App, text: &str) {
    app.handle(Input::Key(Key::Char(':')));
    for c in text.chars() {
        app.handle(Input::Key(Key::Char(c)));
    }
    app.handle(Input::Key(Key::Enter));
    settle(app);
}

fn sq(name: &str) -> Square {
    name.parse().expect("square")
}

fn mv(text: &str) -> Move {
    text.parse().expect("move")
}

fn last_note(app: &App) -> String {
    app.notes()
        .last()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn has_error(app: &App) -> bool {
    app.notes().iter().any(|n| n.kind == NoteKind::Error)
}

#[test]
fn aiming_shows_the_board_after_the_push_and_only_enter_plays_it() {
    let mut app = app(HUMANS, opening());
    assert_eq!(
        app.cursor(),
        Some(sq("b1")),
        "the first movable marble of the ring"
    );
    keys(&mut app, &[Key::Enter, Key::Up, Key::Up]);
    assert_eq!(app.aimed(), Some(mv("b1-b4")));
    assert!(
        app.game().moves().is_empty(),
        "nothing is played while aiming"
    );
    let view = app.board_view();
    let after = opening().position().play(mv("b1-b4")).expect("legal");
    assert_eq!(view.position, after);
    assert_eq!(view.cursor, Some(sq("b4")));
    assert!(view.line.contains(sq("b2")) && view.line.contains(sq("b7")));
    keys(&mut app, &[Key::Down, Key::Enter]);
    assert_eq!(app.game().moves(), &[mv("b1-b3")]);
    assert_eq!(last_note(&app), "white played b1-b3");
    assert_eq!(app.game().position().side_to_move(), Color::Black);
}

#[test]
fn a_digit_aims_that_far_and_escape_goes_back_to_picking() {
    let mut app = app(HUMANS, opening());
    keys(&mut app, &[Key::Char('5')]);
    assert_eq!(app.aimed(), Some(mv("b1-b6")));
    keys(&mut app, &[Key::Esc]);
    assert_eq!(app.mode(), &Mode::Pick);
    assert_eq!(app.aimed(), None);
    let view = app.board_view();
    assert_eq!(
        view.position,
        *opening().position(),
        "back to the real board"
    );
    assert_eq!(view.line.count(), 6, "the squares b1 can reach are marked");
}

#[test]
fn arrows_go_to_the_nearest_own_marble_that_way_and_tab_goes_round_the_ring() {
    let mut app = app(HUMANS, opening());
    // White's edge marbles, round the ring from b1: b1 d1 f1 h2 h4 h6 g8 f8 d8 b8 a5 a3.
    keys(&mut app, &[Key::Right]);
    assert_eq!(
        app.cursor(),
        Some(sq("d1")),
        "c1 is black: the next white to the right"
    );
    keys(&mut app, &[Key::Up]);
    assert_eq!(
        app.cursor(),
        Some(sq("d8")),
        "straight up the d-file beats a far corner"
    );
    keys(&mut app, &[Key::Left]);
    assert_eq!(app.cursor(), Some(sq("b8")));
    keys(&mut app, &[Key::Tab]);
    assert_eq!(
        app.cursor(),
        Some(sq("a5")),
        "after b8 the ring goes down the a-file"
    );
    keys(&mut app, &[Key::BackTab]);
    assert_eq!(app.cursor(), Some(sq("b8")));
}

#[test]
fn an_arrow_along_the_line_changes_the_distance_and_one_across_it_picks_again() {
    let mut app = app(HUMANS, opening());
    keys(&mut app, &[Key::Enter, Key::Up, Key::Up, Key::Up]);
    assert_eq!(app.aimed(), Some(mv("b1-b5")));
    keys(&mut app, &[Key::Down, Key::Down, Key::Down]);
    assert_eq!(app.aimed(), Some(mv("b1-b2")));
    keys(&mut app, &[Key::Down]);
    assert_eq!(
        app.mode(),
        &Mode::Pick,
        "below one square is back to picking"
    );
    keys(&mut app, &[Key::Enter, Key::Right]);
    assert_eq!(app.mode(), &Mode::Pick);
    assert_eq!(app.cursor(), Some(sq("d1")));
}

#[test]
fn typing_a_move_plays_it() {
    let mut app = app(HUMANS, opening());
    type_line_without_engine(&mut app, "B1-B4");
    assert_eq!(app.game().moves(), &[mv("b1-b4")]);
}

#[test]
fn an_illegal_move_is_refused_with_the_reason_and_the_game_goes_on() {
    let mut app = app(HUMANS, opening());
    type_line(&mut app, "c1-c3");
    assert!(has_error(&app));
    assert!(
        last_note(&app).contains("the marble on c1 is black's"),
        "{}",
        last_note(&app)
    );
    type_line(&mut app, "b1-b9");
    assert!(has_error(&app));
    assert!(
        last_note(&app).contains("is not a move"),
        "{}",
        last_note(&app)
    );
    type_line(&mut app, "xyzzy");
    assert!(last_note(&app).contains("type help"), "{}", last_note(&app));
    assert!(app.game().moves().is_empty());
    type_line(&mut app, "b1-b2");
    assert_eq!(app.game().moves(), &[mv("b1-b2")]);
}

#[test]
fn too_far_a_digit_says_how_far_the_marble_can_go() {
    // Five marbles on the b-file's field squares: b1 may go one square.
    let mut app = app(HUMANS, game("8/1w6/1w6/1w6/8/1w6/1w6/1w6 w"));
    keys(&mut app, &[Key::Char('3')]);
    assert!(has_error(&app));
    assert!(
        last_note(&app).contains("at most 1 square"),
        "{}",
        last_note(&app)
    );
    assert_eq!(app.mode(), &Mode::Pick);
}

#[test]
fn a_click_picks_a_marble_and_two_clicks_on_a_square_push_it_there() {
    let mut app = app(HUMANS, opening());
    app.handle(Input::Click(sq("a4")));
    assert!(has_error(&app), "a4 is black's");
    app.handle(Input::Click(sq("a3")));
    assert_eq!(app.cursor(), Some(sq("a3")));
    app.handle(Input::Click(sq("d3")));
    assert_eq!(app.aimed(), Some(mv("a3-d3")));
    assert!(app.game().moves().is_empty());
    app.handle(Input::Click(sq("d3")));
    assert_eq!(app.game().moves(), &[mv("a3-d3")]);
}

#[test]
fn a_player_without_a_move_passes_and_the_pass_is_announced() {
    // White has no marble on an edge space; Black's b1 can move.
    let app = app(HUMANS, game("8/8/8/8/8/8/2w5/1b6 w"));
    assert_eq!(app.game().moves(), &[Move::PASS]);
    assert!(
        app.notes()
            .iter()
            .any(|n| n.text == "white has no marble that can move, and passes")
    );
    assert_eq!(app.cursor(), Some(sq("b1")));
}

#[test]
fn against_the_engine_it_answers_each_move() {
    let mut app = app(VS_ENGINE, opening());
    type_line(&mut app, "b1-b4");
    assert_eq!(app.game().moves().len(), 2);
    assert!(app.human_to_move());
    assert!(last_note(&app).starts_with("black (engine) played"));
}

#[test]
fn the_engine_moves_first_when_it_has_white() {
    let mut app = App::new(Settings::quick([Player::Engine, Player::Human]), opening());
    let effects = app.take_effects();
    assert!(matches!(&effects[..], [Effect::Think(r)] if r.position == *opening().position()));
    assert_eq!(app.status(), "white (engine) is thinking |");
    app.handle(Input::Tick);
    assert_eq!(app.status(), "white (engine) is thinking /");
}

#[test]
fn undo_against_the_engine_goes_back_to_your_previous_turn() {
    let mut app = app(VS_ENGINE, opening());
    type_line(&mut app, "b1-b4");
    type_line(&mut app, "a3-b3");
    assert_eq!(app.game().moves().len(), 4);
    keys(&mut app, &[Key::Char('u')]);
    assert_eq!(
        app.game().moves().len(),
        2,
        "your move and the engine's reply"
    );
    assert!(app.human_to_move());
    assert!(last_note(&app).starts_with("took back a3-b3 "));
    assert_eq!(
        app.cursor(),
        Some(sq("a3")),
        "the cursor is on the marble taken back"
    );
}

#[test]
fn undo_while_the_engine_thinks_cancels_its_move() {
    let mut app = App::new(Settings::quick(VS_ENGINE), opening());
    type_line_without_engine(&mut app, "b1-b4");
    let effects = app.take_effects();
    let [Effect::Think(request)] = &effects[..] else {
        panic!("the engine is asked: {effects:?}");
    };
    app.handle(Input::Key(Key::Char('u')));
    assert!(app.game().moves().is_empty());
    assert_eq!(app.thinking(), None);
    app.handle(think(request, false));
    assert!(app.game().moves().is_empty(), "a stale answer is ignored");
    assert!(app.human_to_move());
}

fn type_line_without_engine(app: &mut App, text: &str) {
    for c in text.chars() {
        app.handle(Input::Key(Key::Char(c)));
    }
    app.handle(Input::Key(Key::Enter));
}

#[test]
fn keys_for_a_move_wait_while_the_engine_is_to_move() {
    let mut app = App::new(Settings::quick(VS_ENGINE), opening());
    type_line_without_engine(&mut app, "b1-b4");
    app.handle(Input::Key(Key::Enter));
    assert!(last_note(&app).contains("wait"), "{}", last_note(&app));
    assert_eq!(app.game().moves().len(), 1);
}

#[test]
fn undo_between_two_people_takes_back_one_move_with_the_passes_before_it() {
    let mut app = app(HUMANS, game("8/8/8/8/8/8/2w5/1b6 w"));
    type_line(&mut app, "b1-b2");
    assert!(app.is_over());
    keys(&mut app, &[Key::Char('u')]);
    assert_eq!(
        app.game().moves(),
        &[Move::PASS],
        "white's forced pass is played again at once"
    );
    assert_eq!(app.cursor(), Some(sq("b1")));
    let mut fresh = self::app(HUMANS, opening());
    keys(&mut fresh, &[Key::Char('u')]);
    assert!(has_error(&fresh), "nothing to take back");
}

#[test]
fn a_hint_is_shown_aimed_on_the_board() {
    let mut app = app(VS_ENGINE, opening());
    keys(&mut app, &[Key::Char('?')]);
    let hint = app.hint().expect("a hint");
    assert_eq!(app.aimed(), Some(hint));
    assert!(app.game().moves().is_empty());
    keys(&mut app, &[Key::Enter]);
    assert_eq!(app.game().moves()[0], hint);
}

#[test]
fn save_asks_for_the_file_and_writes_the_record() {
    let mut app = app(HUMANS, opening());
    type_line(&mut app, "b1-b4");
    app.handle(Input::Key(Key::Char('s')));
    assert_eq!(
        app.mode(),
        &Mode::Prompt {
            text: "save mabula-game.txt".into()
        }
    );
    for _ in "mabula-game.txt".chars() {
        app.handle(Input::Key(Key::Backspace));
    }
    for c in "here.txt".chars() {
        app.handle(Input::Key(Key::Char(c)));
    }
    app.handle(Input::Key(Key::Enter));
    let files = settle(&mut app);
    let [
        Effect::Save {
            path,
            text,
            announce,
        },
    ] = &files[..]
    else {
        panic!("a save: {files:?}");
    };
    assert_eq!(path, &PathBuf::from("here.txt"));
    assert!(*announce);
    let saved = Game::parse(text).expect("a record the library reads");
    assert_eq!(saved.moves(), &[mv("b1-b4")]);
    app.handle(Input::Saved {
        path: path.clone(),
        result: Ok(()),
        announce: true,
    });
    assert_eq!(last_note(&app), "saved the record to here.txt");
    app.handle(Input::Saved {
        path: path.clone(),
        result: Err("permission denied".into()),
        announce: false,
    });
    assert!(has_error(&app));
}

#[test]
fn with_a_save_file_every_move_rewrites_the_record() {
    let mut settings = Settings::quick(HUMANS);
    settings.save_path = Some(PathBuf::from("auto.txt"));
    settings.autosave = true;
    let mut app = App::new(settings, opening());
    type_line_without_engine(&mut app, "b1-b4");
    let effects = app.take_effects();
    assert!(
        matches!(&effects[..], [Effect::Save { path, announce: false, .. }] if path == &PathBuf::from("auto.txt"))
    );
}

#[test]
fn a_malformed_record_is_refused_and_the_game_goes_on() {
    let mut app = app(HUMANS, opening());
    type_line(&mut app, "b1-b4");
    type_line(&mut app, "load broken.txt");
    app.handle(Input::Loaded {
        path: "broken.txt".into(),
        result: Ok("[Setup \"nonsense\"]\n\n1. b1-b4 *\n".into()),
    });
    assert!(has_error(&app));
    assert!(last_note(&app).contains("broken.txt is not a valid record"));
    assert_eq!(app.game().moves(), &[mv("b1-b4")]);
    app.handle(Input::Loaded {
        path: "missing.txt".into(),
        result: Err("No such file or directory".into()),
    });
    assert!(last_note(&app).contains("could not read missing.txt"));
    type_line(&mut app, "load");
    assert!(last_note(&app).contains("load needs a file name"));
}

#[test]
fn a_loaded_record_is_continued() {
    let mut record = opening();
    record.play(mv("b1-b4")).expect("legal");
    let mut app = app(VS_ENGINE, opening());
    app.handle(Input::Loaded {
        path: "game.txt".into(),
        result: Ok(record.to_string()),
    });
    settle(&mut app);
    assert_eq!(app.game().moves()[0], mv("b1-b4"));
    assert_eq!(
        app.game().moves().len(),
        2,
        "the engine, black, answers at once"
    );
    assert!(app.human_to_move());
}

#[test]
fn new_needs_a_second_press_during_a_game() {
    let mut app = app(HUMANS, opening());
    type_line(&mut app, "b1-b4");
    keys(&mut app, &[Key::Char('n')]);
    assert_eq!(app.game().moves().len(), 1);
    assert!(last_note(&app).contains("press n again"));
    keys(&mut app, &[Key::Char('n')]);
    assert!(app.game().moves().is_empty());
    assert_eq!(app.game().start(), &deal::random(2, Color::White));
}

#[test]
fn a_whole_game_against_the_engine_ends_with_the_result() {
    let mut app = app(VS_ENGINE, deal_game(7));
    let mut guard = 0;
    while !app.is_over() {
        keys(&mut app, &[Key::Enter, Key::Enter]);
        guard += 1;
        assert!(guard < 40, "a game has at most 24 pushes");
    }
    let status = app.status();
    assert!(status.starts_with("Game over: "), "{status}");
    assert!(app.board_view().groups, "the end shows the groups");
    assert!(app.game().result() != GameResult::Unfinished);
    keys(&mut app, &[Key::Enter]);
    assert!(last_note(&app).contains("the game is over"));
}

#[test]
fn engine_against_engine_plays_to_the_end_and_can_pause() {
    let mut app = app([Player::Engine, Player::Engine], deal_game(3));
    assert!(app.is_over());
    keys(&mut app, &[Key::Char('u')]);
    assert!(has_error(&app), "no undo when nobody plays");
    let mut app = App::new(Settings::quick([Player::Engine; 2]), deal_game(3));
    app.handle(Input::Key(Key::Char(' ')));
    assert!(app.paused());
    settle(&mut app);
    assert_eq!(
        app.game().moves().len(),
        1,
        "paused after the move in progress"
    );
    assert!(app.status().starts_with("Paused"), "{}", app.status());
    keys(&mut app, &[Key::Char(' ')]);
    assert!(app.is_over());
}

fn deal_game(seed: u64) -> Game {
    Game::new(deal::random(seed, Color::White), Scoring::Largest)
}

#[test]
fn commands_at_the_prompt_list_moves_and_help_and_quit() {
    let mut app = app(HUMANS, game("8/8/8/8/8/8/8/1w6 w"));
    type_line(&mut app, "moves");
    assert_eq!(
        last_note(&app),
        "legal moves: b1-b2 b1-b3 b1-b4 b1-b5 b1-b6 b1-b7"
    );
    app.handle(Input::Key(Key::Char(':')));
    assert_eq!(
        app.mode(),
        &Mode::Prompt {
            text: String::new()
        }
    );
    app.handle(Input::Key(Key::Esc));
    assert_eq!(app.mode(), &Mode::Pick);
    type_line(&mut app, "help");
    assert_eq!(last_note(&app), HELP);
    app.handle(Input::Line("quit".into()));
    assert!(app.wants_quit());
}

#[test]
fn ctrl_c_quits_even_at_the_prompt() {
    let mut app = app(HUMANS, opening());
    app.handle(Input::Key(Key::Char('b')));
    app.handle(Input::Key(Key::CtrlC));
    assert!(app.wants_quit());
}

#[test]
fn a_panicking_engine_is_reported_and_the_game_goes_on() {
    let mut app = App::new(Settings::quick([Player::Engine, Player::Human]), opening());
    let effects = app.take_effects();
    let [Effect::Think(request)] = &effects[..] else {
        panic!("{effects:?}");
    };
    app.handle(Input::EngineFailed {
        id: request.id,
        reason: "out of cheese".into(),
    });
    assert!(app.notes().iter().any(|n| n.text.contains("out of cheese")));
    assert_eq!(
        app.game().moves().len(),
        1,
        "a legal move was played for it"
    );
    assert!(app.human_to_move());
}

#[test]
fn ctrl_u_clears_the_prompt() {
    let mut app = app(HUMANS, opening());
    app.handle(Input::Key(Key::Char(':')));
    for c in "b1-b9".chars() {
        app.handle(Input::Key(Key::Char(c)));
    }
    app.handle(Input::Key(Key::CtrlU));
    assert_eq!(
        app.mode(),
        &Mode::Prompt {
            text: String::new()
        }
    );
    for c in "b1-b4".chars() {
        app.handle(Input::Key(Key::Char(c)));
    }
    app.handle(Input::Key(Key::Enter));
    assert_eq!(app.game().moves(), &[mv("b1-b4")]);
}

#[test]
fn q_in_an_unsaved_game_asks_first_and_a_second_q_leaves() {
    let mut app = app(HUMANS, opening());
    type_line(&mut app, "b1-b4");
    keys(&mut app, &[Key::Char('q')]);
    assert!(!app.wants_quit());
    assert!(
        last_note(&app).contains("not saved: press q again"),
        "{}",
        last_note(&app)
    );
    // Another key forgets the question.
    keys(&mut app, &[Key::Char('o'), Key::Char('q')]);
    assert!(!app.wants_quit());
    keys(&mut app, &[Key::Char('q')]);
    assert!(app.wants_quit());
}

#[test]
fn q_after_a_save_leaves_at_once() {
    let mut app = app(HUMANS, opening());
    type_line(&mut app, "b1-b4");
    type_line(&mut app, "save /tmp/unused.pgn");
    let effects = app.take_effects();
    assert!(effects.is_empty(), "settled by type_line");
    app.handle(Input::Saved {
        path: "/tmp/unused.pgn".into(),
        result: Ok(()),
        announce: true,
    });
    keys(&mut app, &[Key::Char('q')]);
    assert!(app.wants_quit());
}
