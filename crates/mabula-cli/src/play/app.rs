//! The game as the player sees it: a state machine with no terminal and no I/O.
//!
//! [`App::handle`] takes one [`Input`] (a key, a click on a square, a typed line, the engine's
//! answer, a file's contents) and changes the state; what needs the outside world is asked for
//! as an [`Effect`] ([`App::take_effects`]): think about a position, save a record, read a file.
//! The runtime ([`super::tui`] or [`super::plain`]) carries effects out and feeds the results back
//! as inputs, tagged so that a late answer to a cancelled request is ignored.
//!
//! Choosing a move with the keyboard has two steps: *picking* one of your edge marbles (arrows
//! move to the nearest marble that way, Tab goes round the ring) and *aiming* (a distance, shown
//! as the board after the push) before Enter confirms. Typing a move, or a command, opens the
//! prompt. Forced passes are played at once and announced.

use super::{Player, Settings, side_label};
use mabula::deal::RING;
use mabula::{Bitboard, Color, Game, Move, Position, Scoring, Square, deal};
use std::path::PathBuf;
use std::time::Duration;

/// A key, as the state machine knows it (the runtime translates the terminal's keys).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Ctrl-C: leave at once.
    CtrlC,
    /// Ctrl-U: clear the prompt, as in a shell.
    CtrlU,
}

/// Something that happened, for the state machine to react to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A key was pressed.
    Key(Key),
    /// A square was clicked.
    Click(Square),
    /// A whole line was entered (line mode).
    Line(String),
    /// The engine answered request `id` with `mv`.
    Engine {
        /// The request answered.
        id: u64,
        /// The move it chose.
        mv: Move,
    },
    /// The engine failed on request `id` (it panicked): the game must go on without it.
    EngineFailed {
        /// The request.
        id: u64,
        /// What went wrong.
        reason: String,
    },
    /// A save finished.
    Saved {
        /// Where to.
        path: PathBuf,
        /// The error, if it failed.
        result: Result<(), String>,
        /// Whether to say so when it worked (autosaves are silent).
        announce: bool,
    },
    /// A record file was read for `load`.
    Loaded {
        /// From where.
        path: PathBuf,
        /// Its text, or why it could not be read.
        result: Result<String, String>,
    },
    /// Time passed (animates the thinking indicator).
    Tick,
}

/// A request for the engine: choose a move in `position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Tag of the request; the answer must carry it.
    pub id: u64,
    /// The position to move in.
    pub position: Position,
    /// The scoring mode of the game.
    pub scoring: Scoring,
    /// The engine's level.
    pub level: u8,
    /// The engine's thinking time.
    pub movetime: Option<Duration>,
    /// The seed of the engine's choices.
    pub seed: u64,
    /// Answer no sooner than this (so that engine-only games can be followed).
    pub pause: Duration,
}

/// Something the runtime must do for the state machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Ask the engine, then send [`Input::Engine`].
    Think(Request),
    /// Write `text` to `path`, then send [`Input::Saved`].
    Save {
        /// Where.
        path: PathBuf,
        /// The record.
        text: String,
        /// Whether to announce success.
        announce: bool,
    },
    /// Read `path`, then send [`Input::Loaded`].
    Load(PathBuf),
}

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Choosing which marble to push (the cursor is on it).
    Pick,
    /// Choosing how far the marble under the cursor goes; the board shows the result.
    Aim {
        /// Squares to travel, 1 to 6.
        distance: u8,
    },
    /// Typing a move or a command.
    Prompt {
        /// What has been typed.
        text: String,
    },
}

/// How a note is meant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// News: a move, a pass, a save.
    Info,
    /// Something that was refused, and why.
    Error,
}

/// One line of news for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Info or error.
    pub kind: NoteKind,
    /// The words.
    pub text: String,
}

/// Why the engine is thinking.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To play its own move.
    Move,
    /// To suggest a move to a person.
    Hint,
}

/// The engine request in flight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Its tag.
    pub id: u64,
    /// Why.
    pub purpose: Purpose,
}

/// What the board should show right now, with the squares to mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// The position drawn: the game's, or the one after the push being aimed.
    pub position: Position,
    /// The marble being chosen or pushed (where it stands in `position`).
    pub cursor: Option<Square>,
    /// Squares to highlight: where the picked marble may stop, or the line after the push.
    pub line: Bitboard,
    /// The last move's start and end, when no push is being aimed.
    pub last: Option<(Square, Square)>,
    /// Whether to draw the groups (the end of the game, or asked for).
    pub groups: bool,
}

/// The lines of `help`.
pub const HELP: &str = "keys: arrows or Tab pick a marble, 1-6 or Enter aim, Enter pushes, Esc \
    goes back; type a move like b1-b4; u undo, ? hint, o groups, s save, l load, n new game, q \
    quit. Commands at the prompt (: opens it; Ctrl-U clears it): a move, undo, hint, moves, \
    groups, save [FILE], load FILE, new, help, quit";

/// The lines of `help` in the line mode (`--plain`), which has no keys.
pub const PLAIN_HELP: &str = "type a move like b1-b4 (or pass when you must), or a command: \
    undo, hint, moves, groups, board, save [FILE], load FILE, new, help, quit";

/// The state of a game on the screen.
pub struct App {
    /// The game so far, the source of truth for the position, the moves and the record.
    game: Game,
    /// Players, engine options, files.
    settings: Settings,
    /// The marble the keyboard is on (an edge space), if the side to move is a person.
    cursor: Option<Square>,
    /// Picking, aiming or typing.
    mode: Mode,
    /// The engine request whose answer is awaited; answers to any other are stale.
    thinking: Option<Thinking>,
    /// The tag of the next request.
    next_id: u64,
    /// The engine's suggestion, kept until a move is played.
    hint: Option<Move>,
    /// The notes of the latest input, for the screen.
    shown: Vec<Note>,
    /// Every note not yet taken by [`App::take_log`], for the line mode.
    log: Vec<Note>,
    /// Effects asked for and not yet taken.
    effects: Vec<Effect>,
    /// Ticks since the start, for animations.
    ticks: u64,
    /// Whether the groups are drawn during the game.
    show_groups: bool,
    /// Whether an engine-only game is paused.
    paused: bool,
    /// Whether `n` was pressed once during an unfinished game (the second press deals anew).
    confirm_new: bool,
    /// Whether quitting an unsaved game was asked once (the second time leaves).
    confirm_quit: bool,
    /// The number of moves of the game the last save asked for wrote.
    saving: usize,
    /// The number of moves of the game when it was last saved, if it was.
    saved: Option<usize>,
    /// New deals dealt, varied into their seeds.
    deals: u64,
    /// Whether the player asked to leave.
    quit: bool,
}

impl App {
    /// A state machine for `game` played with `settings`; if the engine moves first, its request
    /// is among the effects.
    pub fn new(settings: Settings, game: Game) -> App {
        let mut app = App {
            game,
            settings,
            cursor: None,
            mode: Mode::Pick,
            thinking: None,
            next_id: 1,
            hint: None,
            shown: Vec::new(),
            log: Vec::new(),
            effects: Vec::new(),
            ticks: 0,
            show_groups: false,
            paused: false,
            confirm_new: false,
            confirm_quit: false,
            saving: 0,
            saved: None,
            deals: 0,
            quit: false,
        };
        app.greet();
        app.advance();
        app
    }

    fn greet(&mut self) {
        let pos = *self.game.position();
        let text = if self.game.moves().is_empty() {
            format!(
                "new game, scored by the {}; {} moves first",
                scoring_words(self.game.scoring()),
                side_label(&self.settings, pos.side_to_move())
            )
        } else {
            let n = self.game.moves().len();
            format!(
                "game continued after {n} move{}, scored by the {}",
                plural(n as u32),
                scoring_words(self.game.scoring())
            )
        };
        self.info(text);
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Picking, aiming or typing.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The marble the keyboard is on.
    #[cfg(test)]
    pub fn cursor(&self) -> Option<Square> {
        self.cursor
    }

    /// The engine request in flight.
    #[cfg(test)]
    pub fn thinking(&self) -> Option<Thinking> {
        self.thinking
    }

    /// The engine's latest suggestion.
    #[cfg(test)]
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    /// The notes of the latest input.
    pub fn notes(&self) -> &[Note] {
        &self.shown
    }

    /// Takes the notes not yet taken (the line mode prints them).
    pub fn take_log(&mut self) -> Vec<Note> {
        std::mem::take(&mut self.log)
    }

    /// Takes the effects asked for.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Whether an engine-only game is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the player asked to leave.
    pub fn wants_quit(&self) -> bool {
        self.quit
    }

    /// Whether the game is over (neither side can move).
    pub fn is_over(&self) -> bool {
        self.game.position().is_game_over()
    }

    /// Whether a person is to move now, and may choose.
    pub fn human_to_move(&self) -> bool {
        let pos = self.game.position();
        !pos.is_game_over() && self.settings.player(pos.side_to_move()) == Player::Human
    }

    /// The move being aimed, if any.
    pub fn aimed(&self) -> Option<Move> {
        match (&self.mode, self.cursor) {
            (Mode::Aim { distance }, Some(from)) => Move::push(from, *distance),
            _ => None,
        }
    }

    /// What the board shows.
    pub fn board_view(&self) -> BoardView {
        let pos = *self.game.position();
        let last = self
            .game
            .moves()
            .iter()
            .rev()
            .find(|m| !m.is_pass())
            .and_then(|m| Some((m.from()?, m.to()?)));
        let groups = self.show_groups || self.is_over();
        if let Some(mv) = self.aimed()
            && let Ok(after) = pos.play(mv)
        {
            // The whole line, the edge space the marble left included.
            let line = mv.line().map_or(Bitboard::EMPTY, |l| {
                l.iter().fold(Bitboard::EMPTY, |b, &s| b.with(s))
            });
            let line = mv.from().map_or(line, |from| line.with(from));
            return BoardView {
                position: after,
                cursor: mv.to(),
                line,
                last: None,
                groups,
            };
        }
        let line = match (self.cursor, self.human_to_move()) {
            (Some(from), true) => reachable(&pos, from),
            _ => Bitboard::EMPTY,
        };
        BoardView {
            position: pos,
            cursor: self.cursor.filter(|_| self.human_to_move()),
            line,
            last,
            groups,
        }
    }

    /// One line saying what is going on and what the player can do.
    pub fn status(&self) -> String {
        let pos = self.game.position();
        let side = side_label(&self.settings, pos.side_to_move());
        if pos.is_game_over() {
            return format!("Game over: {}.", result_words(&self.game));
        }
        if let Some(t) = self.thinking {
            let spin = ['|', '/', '-', '\\'][(self.ticks % 4) as usize];
            return match t.purpose {
                Purpose::Move => format!("{side} is thinking {spin}"),
                Purpose::Hint => format!("looking for a hint for {side} {spin}"),
            };
        }
        if self.paused {
            return format!("Paused, {side} to move: space goes on.");
        }
        if !self.human_to_move() {
            return format!("{side} to move.");
        }
        match (&self.mode, self.cursor) {
            (Mode::Prompt { .. }, _) => "Type a move (b1-b4) or a command (help); Enter runs it, \
                                         Esc cancels."
                .to_string(),
            (Mode::Aim { distance }, Some(from)) => {
                let mv = Move::push(from, *distance).map_or(String::new(), |m| m.to_string());
                format!(
                    "{side}: {mv} ({distance} square{}), shown after the push: Enter pushes.",
                    plural(u32::from(*distance))
                )
            }
            (_, Some(from)) => {
                let room = pos.room_at(from);
                let reach = match room {
                    1 => "1 square".to_string(),
                    n => format!("1 to {n} squares"),
                };
                format!("{side} to move: the marble on {from} can go {reach}.")
            }
            (_, None) => format!("{side} to move."),
        }
    }

    /// Reacts to one input.
    pub fn handle(&mut self, input: Input) {
        match input {
            Input::Tick => self.ticks += 1,
            Input::Key(key) => {
                self.shown.clear();
                self.key(key);
            }
            Input::Click(sq) => {
                self.shown.clear();
                self.confirm_new = false;
                self.click(sq);
            }
            Input::Line(text) => {
                self.shown.clear();
                self.submit(&text);
            }
            Input::Engine { id, mv } => self.engine_answer(id, mv),
            Input::EngineFailed { id, reason } => {
                if self.thinking.is_some_and(|t| t.id == id) {
                    self.error(format!("the engine failed ({reason})"));
                    let pos = *self.game.position();
                    match self.thinking.map(|t| t.purpose) {
                        Some(Purpose::Move) => {
                            let first = pos.legal_moves().first().copied().unwrap_or(Move::PASS);
                            self.engine_answer(id, first);
                        }
                        _ => self.thinking = None,
                    }
                }
            }
            Input::Saved {
                path,
                result,
                announce,
            } => match result {
                Ok(()) if announce => {
                    self.saved = Some(self.saving);
                    self.info(format!("saved the record to {}", path.display()))
                }
                Ok(()) => self.saved = Some(self.saving),
                Err(e) => self.error(format!("could not save to {}: {e}", path.display())),
            },
            Input::Loaded { path, result } => {
                self.shown.clear();
                self.loaded(&path, result);
            }
        }
    }

    fn key(&mut self, key: Key) {
        if key == Key::CtrlC {
            self.quit = true;
            return;
        }
        if let Mode::Prompt { text } = &mut self.mode {
            match key {
                Key::Char(c) => text.push(c),
                Key::CtrlU => text.clear(),
                // Backspace on an empty prompt closes it, as Esc does.
                Key::Backspace if text.pop().is_none() => self.mode = Mode::Pick,
                Key::Esc => self.mode = Mode::Pick,
                Key::Enter => {
                    let line = std::mem::take(text);
                    self.mode = Mode::Pick;
                    self.submit(&line);
                }
                _ => {}
            }
            return;
        }
        let confirm_new = std::mem::take(&mut self.confirm_new);
        let confirm_quit = std::mem::take(&mut self.confirm_quit);
        match key {
            Key::Char(c @ ('a'..='h' | 'A'..='H')) => {
                self.mode = Mode::Prompt {
                    text: c.to_ascii_lowercase().to_string(),
                }
            }
            Key::Char(':' | '/') => {
                self.mode = Mode::Prompt {
                    text: String::new(),
                }
            }
            Key::Char('q' | 'Q') => self.ask_quit(confirm_quit),
            Key::Char('u' | 'U') => self.undo(),
            Key::Char('?') => self.ask_hint(),
            Key::Char('o' | 'O') => {
                self.show_groups = !self.show_groups;
                self.info(if self.show_groups {
                    "groups shown: the marbles of a group are joined by lines (o hides them)"
                } else {
                    "groups hidden"
                });
            }
            Key::Char('s' | 'S') => {
                self.mode = Mode::Prompt {
                    text: format!("save {}", self.save_path().display()),
                }
            }
            Key::Char('l' | 'L') => {
                self.mode = Mode::Prompt {
                    text: "load ".to_string(),
                }
            }
            Key::Char('n' | 'N') => {
                if self.is_over() || self.game.moves().is_empty() || confirm_new {
                    self.new_deal();
                } else {
                    self.confirm_new = true;
                    self.info("press n again to leave this game and deal a new one");
                }
            }
            Key::Char(' ') if self.settings.players == [Player::Engine; 2] => {
                self.paused = !self.paused;
                if self.paused {
                    self.info("paused: the engine finishes its move, then waits");
                } else {
                    self.info("going on");
                    if self.thinking.is_none() {
                        self.advance();
                    }
                }
            }
            Key::Char(c @ '1'..='6') => {
                if self.may_choose() {
                    self.aim_at(c as u8 - b'0');
                }
            }
            Key::Char(' ') | Key::Enter => {
                if self.may_choose() {
                    match (&self.mode, self.aimed()) {
                        (Mode::Aim { .. }, Some(mv)) => self.play_human(mv),
                        _ => self.aim_at(1),
                    }
                }
            }
            Key::Esc | Key::Backspace => {
                if matches!(self.mode, Mode::Aim { .. }) {
                    self.mode = Mode::Pick;
                    self.hint = None;
                }
            }
            Key::Tab | Key::BackTab => {
                if self.may_choose() {
                    self.mode = Mode::Pick;
                    self.cycle(key == Key::Tab);
                }
            }
            Key::Up | Key::Down | Key::Left | Key::Right => {
                if self.may_choose() {
                    self.arrow(key);
                }
            }
            Key::Char(c) => self.error(format!(
                "the key '{c}' does nothing here; type help (after :) to see the keys"
            )),
            Key::CtrlC | Key::CtrlU => {}
        }
    }

    /// Leaves, unless a game under way would be lost unsaved: then says so, and leaves when
    /// asked again (`confirmed`).
    fn ask_quit(&mut self, confirmed: bool) {
        let moves = self.game.moves().len();
        if confirmed || self.is_over() || moves == 0 || self.saved == Some(moves) {
            self.quit = true;
            return;
        }
        self.confirm_quit = true;
        self.info(if self.settings.plain {
            "the game is not saved: type quit again to leave it, or save [FILE] first"
        } else {
            "the game is not saved: press q again to leave it, or s to save it first"
        });
    }

    /// Whether a person may choose a move now; if not, says why.
    fn may_choose(&mut self) -> bool {
        let pos = *self.game.position();
        if pos.is_game_over() {
            self.info(if self.settings.plain {
                "the game is over: new deals a new one, undo takes back, save saves, quit quits"
            } else {
                "the game is over: n deals a new one, u takes back, s saves, q quits"
            });
            return false;
        }
        if self.settings.player(pos.side_to_move()) == Player::Engine {
            let person = self.settings.players.contains(&Player::Human);
            self.info(match (person, self.settings.plain) {
                (true, false) => "the engine is to move; wait for it (u takes back your last move)",
                (true, true) => {
                    "the engine is to move; wait for it (undo takes back your last move)"
                }
                (false, false) => "the engine plays both sides here: space pauses, q quits",
                (false, true) => "the engine plays both sides here: quit leaves",
            });
            return false;
        }
        if self.thinking.is_some() {
            self.info("wait: the engine is looking for a hint");
            return false;
        }
        true
    }

    fn aim_at(&mut self, distance: u8) {
        let Some(from) = self.cursor else { return };
        let room = self.game.position().room_at(from);
        if u32::from(distance) > room {
            self.error(format!(
                "the marble on {from} can go at most {room} square{} here: a push may never put \
                 a marble on an edge space",
                plural(room)
            ));
            return;
        }
        self.mode = Mode::Aim { distance };
    }

    fn arrow(&mut self, key: Key) {
        let Some(from) = self.cursor else { return };
        let (dx, dy) = match key {
            Key::Up => (0, 1),
            Key::Down => (0, -1),
            Key::Left => (-1, 0),
            _ => (1, 0),
        };
        if let Mode::Aim { distance } = self.mode {
            let (px, py) = push_direction(from);
            let room = self.game.position().room_at(from) as u8;
            if (dx, dy) == (px, py) {
                self.mode = Mode::Aim {
                    distance: (distance + 1).min(room),
                };
                return;
            }
            if (dx, dy) == (-px, -py) {
                self.mode = if distance <= 1 {
                    Mode::Pick
                } else {
                    Mode::Aim {
                        distance: distance - 1,
                    }
                };
                return;
            }
            self.mode = Mode::Pick;
        }
        let (fx, fy) = (i32::from(from.file()), i32::from(from.rank()));
        let best = self
            .movable()
            .into_iter()
            .filter_map(|sq| {
                let (x, y) = (i32::from(sq.file()) - fx, i32::from(sq.rank()) - fy);
                let along = x * dx + y * dy;
                let across = (x * dy - y * dx).abs();
                (along > 0).then_some((along + 3 * across, sq))
            })
            .min();
        if let Some((_, sq)) = best {
            self.cursor = Some(sq);
        }
    }

    fn cycle(&mut self, forward: bool) {
        let movable = self.movable();
        if movable.is_empty() {
            return;
        }
        let at = self
            .cursor
            .and_then(|c| movable.iter().position(|&s| s == c));
        let n = movable.len();
        let next = match (at, forward) {
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
            (None, _) => 0,
        };
        self.cursor = Some(movable[next]);
    }

    /// The side to move's marbles that can move, in ring order from `b1`.
    fn movable(&self) -> Vec<Square> {
        let pos = self.game.position();
        let side = pos.side_to_move();
        RING.iter()
            .copied()
            .filter(|&sq| pos.color_at(sq) == Some(side) && pos.room_at(sq) > 0)
            .collect()
    }

    fn click(&mut self, sq: Square) {
        if !self.may_choose() {
            return;
        }
        if let Mode::Prompt { .. } = self.mode {
            self.mode = Mode::Pick;
        }
        let pos = *self.game.position();
        let side = pos.side_to_move();
        if Bitboard::EDGE.contains(sq) && pos.color_at(sq) == Some(side) {
            if pos.room_at(sq) == 0 {
                self.error(format!(
                    "the line of {sq} is full, so that marble cannot move"
                ));
                return;
            }
            self.cursor = Some(sq);
            self.mode = Mode::Pick;
            self.info(format!(
                "{sq} picked: click the square where it should stop"
            ));
            return;
        }
        if let Some(from) = self.cursor {
            let room = pos.room_at(from) as usize;
            let line = Move::push(from, 1)
                .and_then(Move::line)
                .unwrap_or([from; 6]);
            if let Some(i) = line[..room].iter().position(|&s| s == sq) {
                let distance = i as u8 + 1;
                if self.mode == (Mode::Aim { distance }) {
                    if let Some(mv) = self.aimed() {
                        self.play_human(mv);
                    }
                } else {
                    self.mode = Mode::Aim { distance };
                    self.info("click the same square again (or press Enter) to push");
                }
                return;
            }
        }
        match pos.color_at(sq) {
            Some(c) if c != side => {
                self.error(format!("{sq} holds a {c} marble; it is {side}'s turn"))
            }
            Some(_) if Bitboard::FIELD.contains(sq) => self.error(format!(
                "{sq} is in the field: only marbles on edge spaces move"
            )),
            _ => self.error(
                "click one of your marbles on the edge, then the square where it should stop",
            ),
        }
    }

    /// Runs a typed line: a move or a command.
    fn submit(&mut self, line: &str) {
        let text = line.trim();
        if text.is_empty() {
            return;
        }
        let (word, rest) = match text.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (text, ""),
        };
        let confirm_quit = std::mem::take(&mut self.confirm_quit);
        match word.to_ascii_lowercase().as_str() {
            "undo" | "u" => self.undo(),
            "hint" | "?" => self.ask_hint(),
            "save" => {
                let path = if rest.is_empty() {
                    self.save_path()
                } else {
                    PathBuf::from(rest)
                };
                self.save(path, true);
            }
            "load" => {
                if rest.is_empty() {
                    self.error("load needs a file name: load FILE");
                } else {
                    self.effects.push(Effect::Load(PathBuf::from(rest)));
                }
            }
            "new" => self.new_deal(),
            "moves" | "legal" => {
                let mut moves = self.game.position().legal_moves();
                moves.sort_unstable();
                let words: Vec<String> = moves.iter().map(ToString::to_string).collect();
                if words.is_empty() {
                    self.info("no legal moves: the game is over");
                } else {
                    self.info(format!("legal moves: {}", words.join(" ")));
                }
            }
            "groups" | "g" => {
                self.show_groups = !self.show_groups;
                self.info(groups_words(self.game.position(), self.game.scoring()));
            }
            "help" | "h" => self.info(if self.settings.plain {
                PLAIN_HELP
            } else {
                HELP
            }),
            "quit" | "exit" | "q" => self.ask_quit(confirm_quit),
            _ => match text.parse::<Move>() {
                Ok(mv) => {
                    if self.may_choose() {
                        self.play_human(mv);
                    }
                }
                Err(e) => self.error(format!("{e}; type help for the commands")),
            },
        }
    }

    fn play_human(&mut self, mv: Move) {
        let side = self.game.position().side_to_move();
        match self.game.play(mv) {
            Ok(()) => {
                self.info(format!("{} played {mv}", side_label(&self.settings, side)));
                self.after_move();
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    fn engine_answer(&mut self, id: u64, mv: Move) {
        let Some(t) = self.thinking.filter(|t| t.id == id) else {
            return;
        };
        self.thinking = None;
        let pos = *self.game.position();
        let side = pos.side_to_move();
        match t.purpose {
            Purpose::Hint => {
                if mv.is_pass() || !pos.is_legal(mv) {
                    self.error(format!("the engine has no hint here ({mv})"));
                    return;
                }
                self.hint = Some(mv);
                self.cursor = mv.from();
                self.mode = Mode::Aim {
                    distance: mv.distance(),
                };
                self.info(if self.settings.plain {
                    format!("hint: {mv} (type it to play it)")
                } else {
                    format!("hint: {mv}, shown on the board: Enter plays it, Esc puts it back")
                });
            }
            Purpose::Move => {
                let mv = if pos.is_legal(mv) {
                    mv
                } else {
                    let fallback = pos.legal_moves().first().copied().unwrap_or(Move::PASS);
                    self.error(format!(
                        "the engine chose an illegal move ({mv}); playing {fallback} instead"
                    ));
                    fallback
                };
                if self.game.play(mv).is_ok() {
                    self.info(format!("{} played {mv}", side_label(&self.settings, side)));
                    self.after_move();
                }
            }
        }
    }

    fn after_move(&mut self) {
        self.hint = None;
        self.mode = Mode::Pick;
        self.advance();
        if self.settings.autosave {
            let path = self.save_path();
            self.save(path, false);
        }
    }

    /// Moves the game on to the next choice: plays forced passes, asks the engine, or hands the
    /// keyboard to a person; announces the end.
    fn advance(&mut self) {
        loop {
            let pos = *self.game.position();
            if pos.is_game_over() {
                self.cursor = None;
                self.mode = Mode::Pick;
                self.info(format!("game over: {}", result_words(&self.game)));
                return;
            }
            let side = pos.side_to_move();
            if pos.count_pushes() == 0 {
                if self.game.play(Move::PASS).is_ok() {
                    self.info(format!(
                        "{} has no marble that can move, and passes",
                        side_label(&self.settings, side)
                    ));
                    continue;
                }
                return;
            }
            match self.settings.player(side) {
                Player::Engine => {
                    self.cursor = None;
                    if !self.paused {
                        self.think(Purpose::Move);
                    }
                }
                Player::Human => {
                    let movable = self.movable();
                    if !self.cursor.is_some_and(|c| movable.contains(&c)) {
                        self.cursor = movable.first().copied();
                    }
                }
            }
            return;
        }
    }

    fn think(&mut self, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        self.thinking = Some(Thinking { id, purpose });
        let ply = self.game.moves().len() as u64;
        self.effects.push(Effect::Think(Request {
            id,
            position: *self.game.position(),
            scoring: self.game.scoring(),
            level: self.settings.level,
            movetime: self.settings.movetime,
            seed: self.settings.seed ^ ply.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            pause: if purpose == Purpose::Move {
                self.settings.pause
            } else {
                Duration::ZERO
            },
        }));
    }

    fn ask_hint(&mut self) {
        if self.hint.is_some() && self.human_to_move() {
            if let Some(mv) = self.hint {
                self.cursor = mv.from();
                self.mode = Mode::Aim {
                    distance: mv.distance(),
                };
                self.info(if self.settings.plain {
                    format!("hint: {mv} (type it to play it)")
                } else {
                    format!("hint: {mv}: Enter plays it, Esc puts it back")
                });
            }
            return;
        }
        if self.may_choose() {
            self.mode = Mode::Pick;
            self.think(Purpose::Hint);
        }
    }

    /// Takes moves back: one person's move with two people, back to your previous turn against
    /// the engine (forced passes go with the move before them).
    fn undo(&mut self) {
        if !self.settings.players.contains(&Player::Human) {
            self.error("there is nothing to take back when the engine plays both sides");
            return;
        }
        let mut taken = Vec::new();
        while let Some(mv) = self.game.undo() {
            taken.push(mv);
            let mover = self.game.position().side_to_move();
            if self.settings.player(mover) == Player::Human && !mv.is_pass() {
                break;
            }
        }
        if taken.is_empty() {
            self.error("there is no move to take back");
            return;
        }
        self.thinking = None;
        self.hint = None;
        self.mode = Mode::Pick;
        taken.reverse();
        let words: Vec<String> = taken.iter().map(ToString::to_string).collect();
        self.info(format!("took back {}", words.join(" ")));
        if let Some(mv) = taken.first() {
            self.cursor = mv.from();
        }
        self.advance();
        if self.settings.autosave {
            let path = self.save_path();
            self.save(path, false);
        }
    }

    fn new_deal(&mut self) {
        self.deals += 1;
        let first = self.game.start().side_to_move();
        let seed = self.settings.seed.wrapping_add(self.deals);
        let mut game = Game::new(deal::random(seed, first), self.game.scoring());
        for name in ["Event", "White", "Black"] {
            if let Some(v) = self.game.tag(name) {
                game.set_tag(name, v);
            }
        }
        game.set_tag("Date", &super::today());
        game.set_tag("Seed", &seed.to_string());
        self.replace_game(game);
    }

    fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.thinking = None;
        self.hint = None;
        self.cursor = None;
        self.mode = Mode::Pick;
        self.greet();
        self.advance();
    }

    fn loaded(&mut self, path: &std::path::Path, result: Result<String, String>) {
        let text = match result {
            Ok(text) => text,
            Err(e) => {
                self.error(format!("could not read {}: {e}", path.display()));
                return;
            }
        };
        match Game::parse(&text) {
            Ok(game) => {
                self.info(format!("loaded {}", path.display()));
                self.replace_game(game);
            }
            Err(e) => self.error(format!(
                "{} is not a valid record ({e}); the game goes on",
                path.display()
            )),
        }
    }

    fn save_path(&self) -> PathBuf {
        self.settings
            .save_path
            .clone()
            .unwrap_or_else(|| PathBuf::from("mabula-game.txt"))
    }

    fn save(&mut self, path: PathBuf, announce: bool) {
        self.saving = self.game.moves().len();
        self.effects.push(Effect::Save {
            path,
            text: self.game.to_string(),
            announce,
        });
    }

    fn info(&mut self, text: impl Into<String>) {
        self.note(NoteKind::Info, text.into());
    }

    fn error(&mut self, text: impl Into<String>) {
        self.note(NoteKind::Error, text.into());
    }

    fn note(&mut self, kind: NoteKind, text: String) {
        let note = Note { kind, text };
        self.shown.push(note.clone());
        self.log.push(note);
    }
}

/// The field squares where the marble on `from` may stop now.
pub fn reachable(pos: &Position, from: Square) -> Bitboard {
    let room = pos.room_at(from) as usize;
    match Move::push(from, 1).and_then(Move::line) {
        Some(line) => line[..room].iter().fold(Bitboard::EMPTY, |b, &s| b.with(s)),
        None => Bitboard::EMPTY,
    }
}

/// The direction a marble on edge space `from` travels, as (files, ranks).
fn push_direction(from: Square) -> (i32, i32) {
    match (from.file(), from.rank()) {
        (0, _) => (1, 0),
        (7, _) => (-1, 0),
        (_, 0) => (0, 1),
        _ => (0, -1),
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "largest group" or "product of the groups".
pub fn scoring_words(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::Largest => "largest group",
        Scoring::Product => "product of the groups",
    }
}

/// The result of a finished game in words: "white wins 8 to 6 (largest group)".
pub fn result_words(game: &Game) -> String {
    let scores = game.position().scores(game.scoring());
    let how = scoring_words(game.scoring());
    match scores.outcome().winner() {
        Some(c) => format!(
            "{c} wins {} to {} ({how})",
            scores.of(c),
            scores.of(c.other())
        ),
        None => format!("a draw, {} to {} ({how})", scores.white, scores.black),
    }
}

/// Each side's group sizes, largest first.
pub fn group_sizes(pos: &Position, color: Color) -> Vec<u32> {
    let mut sizes: Vec<u32> = pos.groups(color).map(Bitboard::count).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// Both sides' groups and scores in words.
pub fn groups_words(pos: &Position, scoring: Scoring) -> String {
    let side = |c: Color| {
        let sizes: Vec<String> = group_sizes(pos, c)
            .iter()
            .map(ToString::to_string)
            .collect();
        format!(
            "{c} groups {} (score {})",
            if sizes.is_empty() {
                "none".to_string()
            } else {
                sizes.join(" ")
            },
            pos.score(c, scoring)
        )
    };
    format!("{}; {}", side(Color::White), side(Color::Black))
}

#[cfg(test)]
#[path = "app_tests.rs"]
mod tests;
