//! The full-screen runtime: puts the terminal in raw mode on the alternate screen (with the
//! mouse, unless told not to), runs the event loop, and gives the terminal back as it found it on
//! every way out: a normal quit, an error, Ctrl-C (a key in raw mode) and a panic.
//!
//! The engine thinks on its own thread, one per request, and sends its answer down a channel;
//! the loop never waits for it for longer than a frame, so the screen keeps drawing (and shows
//! that the engine is thinking) and keys keep working (undo cancels the request by forgetting
//! its tag).

use super::app::{App, Effect, Input, Key};
use super::{perform_file_effect, think, view};
use anyhow::Result;
use mabula::Game;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::layout::Rect;
use std::io::stdout;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

/// The name of the engine's threads (their panics are reported on the screen, not printed).
const ENGINE_THREAD: &str = "mabula-engine";

/// How long the loop waits for a key before drawing again.
const FRAME: Duration = Duration::from_millis(50);

/// How often the thinking indicator moves.
const TICK: Duration = Duration::from_millis(150);

/// Plays `game` full screen until the player quits.
pub fn run(settings: super::Settings, game: Game) -> Result<()> {
    let mouse = settings.mouse;
    let guard = Screen::enter(mouse)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    let mut app = App::new(settings, game);
    let outcome = event_loop(&mut terminal, &mut app);
    drop(terminal);
    drop(guard);
    outcome?;
    let game = app.game();
    if app.is_over() {
        println!("Game over: {}.", super::app::result_words(game));
    } else {
        let n = game.moves().len();
        println!(
            "Game left unfinished after {n} move{}.",
            if n == 1 { "" } else { "s" }
        );
    }
    if let Some(path) = &app.settings().save_path
        && app.settings().autosave
    {
        println!("The record is in {}.", path.display());
    }
    Ok(())
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    app: &mut App,
) -> Result<()> {
    let (tx, rx): (Sender<Input>, Receiver<Input>) = mpsc::channel();
    let mut last_tick = Instant::now();
    // The end-to-end tests set this to check that a panic gives the terminal back.
    let panic_test = std::env::var_os("MABULA_PLAY_PANIC").is_some();
    loop {
        for effect in app.take_effects() {
            carry_out(effect, app, &tx);
        }
        if app.wants_quit() {
            return Ok(());
        }
        terminal.draw(|frame| view::draw(frame, app))?;
        if panic_test {
            panic!("MABULA_PLAY_PANIC is set: a deliberate panic, after the first frame");
        }
        if event::poll(FRAME)? {
            match event::read()? {
                Event::Key(key) if key.kind != KeyEventKind::Release => {
                    if let Some(key) = translate(key) {
                        app.handle(Input::Key(key));
                    }
                }
                Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                    let size = terminal.size()?;
                    let area = Rect::new(0, 0, size.width, size.height);
                    if let Some(sq) = view::square_at(area, m.column, m.row) {
                        app.handle(Input::Click(sq));
                    }
                }
                // A resize needs nothing but the next draw, which fits the new size.
                _ => {}
            }
        }
        while let Ok(input) = rx.try_recv() {
            app.handle(input);
        }
        if last_tick.elapsed() >= TICK {
            last_tick = Instant::now();
            app.handle(Input::Tick);
        }
    }
}

fn carry_out(effect: Effect, app: &mut App, tx: &Sender<Input>) {
    match effect {
        Effect::Think(request) => {
            let id = request.id;
            let tx = tx.clone();
            let spawned = std::thread::Builder::new()
                .name(ENGINE_THREAD.to_string())
                .spawn(move || {
                    let _ = tx.send(think(&request, true));
                });
            if let Err(e) = spawned {
                app.handle(Input::EngineFailed {
                    id,
                    reason: format!("cannot start its thread: {e}"),
                });
            }
        }
        other => {
            if let Some(input) = perform_file_effect(other) {
                app.handle(input);
            }
        }
    }
}

/// The state machine's key for a terminal key, if it has one.
pub fn translate(key: KeyEvent) -> Option<Key> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c' | 'C') if ctrl => Key::CtrlC,
        KeyCode::Char('u' | 'U') if ctrl => Key::CtrlU,
        KeyCode::Char(_) if ctrl => return None,
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        _ => return None,
    })
}

/// The terminal in full-screen mode; dropping it (or a panic) gives the terminal back.
struct Screen {
    mouse: bool,
}

impl Screen {
    fn enter(mouse: bool) -> Result<Screen> {
        install_panic_hook(mouse);
        enable_raw_mode()?;
        let screen = Screen { mouse };
        execute!(stdout(), EnterAlternateScreen)?;
        if mouse {
            execute!(stdout(), EnableMouseCapture)?;
        }
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore(self.mouse);
    }
}

/// Gives the terminal back: mouse off, cooked mode, the main screen, a visible cursor. Errors
/// are ignored: there is nothing better to do on the way out.
fn restore(mouse: bool) {
    let mut out = stdout();
    if mouse {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = disable_raw_mode();
    let _ = execute!(out, LeaveAlternateScreen, Show);
}

/// Restores the terminal before a panic message is printed, except for the engine's threads,
/// whose panics the screen reports itself (the game goes on).
fn install_panic_hook(mouse: bool) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some(ENGINE_THREAD) {
            return;
        }
        restore(mouse);
        previous(info);
    }));
}
