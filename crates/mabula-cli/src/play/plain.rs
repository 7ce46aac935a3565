//! The line mode (`mabula play --plain`): the same game as the full screen, as lines of text.
//!
//! After each move it prints the news ("black (engine) played e8-e6", passes, the end), the board
//! as text, both scores and the position string; when a person is to move it prints a prompt
//! ending in `> ` and reads one line: a move in notation or a command (`help` lists them). The
//! engine thinks on the calling thread. Input ends with `quit` or the end of the input. Every
//! line of output is plain text, for screen readers, scripts and pipes.

use super::app::{App, Effect, NoteKind, scoring_words};
use super::{perform_file_effect, side_label, think};
use anyhow::Result;
use mabula::diagram::diagram;
use mabula::{Bitboard, Color, Game, Scoring};
use std::io::{BufRead, Write};

/// Plays `game` reading lines from `input` and writing to `out`; with `echo`, each line read is
/// printed after its prompt (for input that a terminal does not echo, as from a pipe).
pub fn run(
    settings: super::Settings,
    game: Game,
    mut input: impl BufRead,
    mut out: impl Write,
    echo: bool,
) -> Result<()> {
    let mut app = App::new(settings, game);
    let mut printed: Option<(usize, u64)> = None;
    loop {
        settle(&mut app, &mut out, &mut printed)?;
        if app.wants_quit() {
            break;
        }
        let prompt = if app.is_over() {
            "game over (new, undo, save, quit)> ".to_string()
        } else {
            let side = app.game().position().side_to_move();
            format!("{} to move> ", side_label(app.settings(), side))
        };
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            if !app.is_over() {
                let n = app.game().moves().len();
                writeln!(
                    out,
                    "end of input: the game is left unfinished after {n} move{}",
                    if n == 1 { "" } else { "s" }
                )?;
            }
            break;
        }
        if echo {
            writeln!(out, "{}", line.trim_end())?;
        }
        if line.trim().eq_ignore_ascii_case("board") {
            printed = None;
            continue;
        }
        app.handle(super::app::Input::Line(line));
    }
    out.flush()?;
    Ok(())
}

/// Carries out the effects (the engine's moves included) until the game waits for a person,
/// printing the news and the board after every move.
fn settle(app: &mut App, out: &mut impl Write, printed: &mut Option<(usize, u64)>) -> Result<()> {
    loop {
        report(app, out, printed)?;
        let effects = app.take_effects();
        if effects.is_empty() {
            return Ok(());
        }
        for effect in effects {
            match effect {
                Effect::Think(request) => {
                    let side = request.position.side_to_move();
                    writeln!(out, "{} is thinking...", side_label(app.settings(), side))?;
                    out.flush()?;
                    app.handle(think(&request, false));
                }
                other => {
                    if let Some(input) = perform_file_effect(other) {
                        app.handle(input);
                    }
                }
            }
            report(app, out, printed)?;
        }
    }
}

/// Prints the notes not yet printed, then the board if the position changed since it was last
/// printed.
fn report(app: &mut App, out: &mut impl Write, printed: &mut Option<(usize, u64)>) -> Result<()> {
    for note in app.take_log() {
        match note.kind {
            NoteKind::Info => writeln!(out, "{}", note.text)?,
            NoteKind::Error => writeln!(out, "error: {}", note.text)?,
        }
    }
    let game = app.game();
    let now = (game.moves().len(), game.position().hash());
    if *printed != Some(now) {
        *printed = Some(now);
        write!(out, "{}", board(game))?;
    }
    out.flush()?;
    Ok(())
}

/// The board as text with the last move in brackets, the scores and the position string.
pub fn board(game: &Game) -> String {
    let pos = game.position();
    let marked = game
        .moves()
        .iter()
        .rev()
        .find(|m| !m.is_pass())
        .map_or(Bitboard::EMPTY, |m| {
            [m.from(), m.to()]
                .into_iter()
                .flatten()
                .fold(Bitboard::EMPTY, |b, s| b.with(s))
        });
    let mut text = diagram(pos, marked);
    if pos.is_game_over()
        && let Some((board, _side_to_move)) = text.rsplit_once('\n')
    {
        text = format!("{board}\nno one can move: the game is over");
    }
    text.push('\n');
    let chosen = game.scoring();
    let other = match chosen {
        Scoring::Largest => Scoring::Product,
        Scoring::Product => Scoring::Largest,
    };
    let scores = |mode: Scoring| {
        let s = pos.scores(mode);
        format!("{} {}, {} {}", Color::White, s.white, Color::Black, s.black)
    };
    text.push_str(&format!(
        "score by the {} (this game): {}; by the {}: {}\n",
        scoring_words(chosen),
        scores(chosen),
        scoring_words(other),
        scores(other)
    ));
    text.push_str(&format!("position {pos}\n"));
    text
}
