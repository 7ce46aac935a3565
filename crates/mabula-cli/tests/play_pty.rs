//! `mabula play` full screen, driven in a pseudo-terminal: the real binary, real keys and mouse
//! clicks, and the screen read back through a terminal emulator (vt100).

use mabula::{Color, Game, GameResult, Move, Square, deal};
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The binary running in a pseudo-terminal, with the screen it draws.
struct Session {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
}

impl Session {
    fn start(args: &[&str], dir: &Path, envs: &[(&str, &str)]) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 24,
                cols: 80,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_mabula"));
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn mabula");
        drop(pair.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(24, 80, 0)));
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let feed = Arc::clone(&parser);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                feed.lock().expect("parser").process(&buf[..n]);
            }
        });
        let writer = pair.master.take_writer().expect("writer");
        Session {
            parser,
            writer,
            child,
            master: pair.master,
        }
    }

    fn screen(&self) -> String {
        self.parser.lock().expect("parser").screen().contents()
    }

    /// Waits until the screen satisfies `ok`, and returns it.
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited in vain for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, bytes: &str) {
        self.writer.write_all(bytes.as_bytes()).expect("write");
        self.writer.flush().expect("flush");
    }

    /// A left click on screen cell (`x`, `y`), counted from 0, in the SGR mouse encoding.
    fn click(&mut self, (x, y): (u16, u16)) {
        self.send(&format!(
            "\x1b[<0;{};{}M\x1b[<0;{};{}m",
            x + 1,
            y + 1,
            x + 1,
            y + 1
        ));
    }

    fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.success();
            }
            assert!(Instant::now() < deadline, "mabula did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// The screen cell of the middle of `sq`'s drawing at 80x24 (the board's top left is at 2, 1).
fn cell_of(sq: Square) -> (u16, u16) {
    let (file, rank) = (u16::from(sq.file()), u16::from(sq.rank()));
    (2 + 2 + 4 * file + 1, 1 + 1 + 2 * (7 - rank))
}

/// The number in "Moves (N)" on the side panel.
fn moves_shown(screen: &str) -> Option<usize> {
    let at = screen.find("Moves (")? + "Moves (".len();
    screen[at..].split(')').next()?.parse().ok()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mabula-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_whole_game_against_the_engine_in_a_pseudo_terminal() {
    let dir = temp_dir("play-pty");
    let args = [
        "play",
        "--seed",
        "5",
        "--level",
        "1",
        "--movetime",
        "20",
        "--save",
        "auto.txt",
    ];
    let mut s = Session::start(&args, &dir, &[]);
    let first = s.wait_for("the first move", |t| {
        t.contains("white (you) to move: the marble on")
    });
    assert!(first.contains("MABULA"), "{first}");
    assert!(first.contains("[largest]"), "{first}");
    assert!(first.contains("┌───────────────────────┐"), "{first}");

    // Bad input: a message, and the game goes on.
    s.send(":zz\r");
    s.wait_for("the error", |t| t.contains("! 'zz' is not a move"));

    // The first move with the mouse: the marble, then twice the square where it stops.
    let mut moves = deal::random(5, Color::White).legal_moves();
    moves.sort_unstable();
    let mv: Move = moves[1];
    let (from, to) = (mv.from().expect("push"), mv.to().expect("push"));
    s.click(cell_of(from));
    s.wait_for("the pick", |t| t.contains(&format!("{from} picked")));
    s.click(cell_of(to));
    s.wait_for("the preview", |t| t.contains("shown after the push"));
    s.click(cell_of(to));
    s.wait_for("the engine's answer", |t| {
        t.contains(&format!("white (you) played {mv}")) && moves_shown(t) == Some(2)
    });

    // The screen follows a resize. The new parser comes first, so that the whole redraw after
    // the resize lands in it.
    *s.parser.lock().expect("parser") = vt100::Parser::new(30, 100, 0);
    s.master
        .resize(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("resize");
    let big = s.wait_for("a redraw at 100x30", |t| {
        t.contains("MABULA") && t.contains("Moves (2)") && t.lines().count() == 30
    });
    assert_eq!(big.lines().count(), 30, "{big}");

    // Then the keyboard: Enter aims one square, Enter pushes; until the end.
    loop {
        let screen = s.wait_for("a turn or the end", |t| {
            t.contains("Game over") || t.contains("white (you) to move: the marble on")
        });
        if screen.contains("Game over") {
            break;
        }
        let before = moves_shown(&screen);
        s.send("\r\r");
        s.wait_for("the move", |t| moves_shown(t) != before);
    }
    let end = s.wait_for("the end screen", |t| {
        t.contains("groups") && t.contains("n new game")
    });
    assert!(end.contains("Game over: "), "{end}");

    s.send("s");
    s.wait_for("the save prompt", |t| t.contains("> save auto.txt"));
    s.send("\r");
    s.wait_for("the save", |t| t.contains("saved the record to auto.txt"));
    s.send("q");
    assert!(s.wait_exit());
    let parser = s.parser.lock().expect("parser");
    let screen = parser.screen();
    assert!(!screen.alternate_screen(), "back on the main screen");
    assert!(
        screen.contents().contains("Game over: "),
        "{}",
        screen.contents()
    );
    drop(parser);
    let game = Game::parse(&std::fs::read_to_string(dir.join("auto.txt")).expect("record"))
        .expect("a valid record");
    assert_ne!(game.result(), GameResult::Unfinished);
    assert_eq!(game.moves()[0], mv);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_gives_the_terminal_back() {
    let dir = temp_dir("play-ctrl-c");
    let mut s = Session::start(&["play", "--vs", "human", "--seed", "1"], &dir, &[]);
    s.wait_for("the board", |t| t.contains("to move: the marble on"));
    {
        let parser = s.parser.lock().expect("parser");
        assert!(parser.screen().alternate_screen());
        assert_ne!(
            parser.screen().mouse_protocol_mode(),
            vt100::MouseProtocolMode::None
        );
    }
    s.send("\x03");
    assert!(s.wait_exit());
    // The last output may still be on its way from the terminal to the parser.
    s.wait_for("the farewell", |t| {
        t.contains("Game left unfinished after 0 moves.")
    });
    let parser = s.parser.lock().expect("parser");
    let screen = parser.screen();
    assert!(!screen.alternate_screen());
    assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    assert!(!screen.hide_cursor());
    assert!(
        screen
            .contents()
            .contains("Game left unfinished after 0 moves.")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_panic_gives_the_terminal_back_before_its_message() {
    let dir = temp_dir("play-panic");
    let mut s = Session::start(
        &["play", "--vs", "human", "--seed", "1"],
        &dir,
        &[("MABULA_PLAY_PANIC", "1")],
    );
    assert!(!s.wait_exit(), "a panic is a failure");
    let parser = s.parser.lock().expect("parser");
    let screen = parser.screen();
    assert!(!screen.alternate_screen());
    assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    assert!(!screen.hide_cursor());
    assert!(
        screen.contents().contains("MABULA_PLAY_PANIC"),
        "the panic message is readable: {}",
        screen.contents()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
