//! Games and their records.
//!
//! A [`Game`] is a starting position, a scoring mode and the moves played, with tags and comments.
//! Its record is PGN-shaped text:
//!
//! ```text
//! [Event "Casual game"]
//! [Setup "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"]
//! [Scoring "largest"]
//! [Result "*"]
//!
//! 1. b1-b4 {a quiet start} 1... e8-e6 2. a3-d3 *
//! ```
//!
//! Tag pairs come first, one per line; `Setup` is required, `Scoring` defaults to `largest` and
//! `Result` to `*`. Then the moves, numbered per round (White's move opens a round; a game that
//! Black starts begins `1...`), each optionally followed by a `{comment}`, and the result token.
//! Inside a comment a backslash escapes: `\}` is a `}` that does not close it, `\\` a backslash,
//! `\n` and `\r` line breaks ([`escape_comment`]); so every comment reads back as it was set.
//! The reader checks every move and names the first illegal one by its number; it also refuses a
//! finished game whose result contradicts its final score, move numbers that do not count the
//! moves, and a record cut short (no result token at the end).
//!
//! What the reader accepts besides the canonical form: a UTF-8 byte-order mark, Windows line ends
//! (CRLF), tags without the blank line after them, move numbers left out, and comments over
//! several lines. A text holding several records one after another (as `mabula match --records`
//! writes them) is read with [`parse_all`], or split with [`split`]; [`Game::parse`] reads
//! exactly one.

use crate::fen::ParsePositionError;
use crate::moves::{Move, ParseMoveError};
use crate::position::{Illegal, PlayError, Position};
use crate::scoring::{GameResult, Scoring};
use crate::square::Color;
use std::fmt;
use std::str::FromStr;

/// A game: where it started, how it is scored, what was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    tags: Vec<(String, String)>,
    start: Position,
    scoring: Scoring,
    moves: Vec<Move>,
    comments: Vec<Option<String>>,
    /// The position after the last move (derived, kept to avoid replaying).
    current: Position,
    /// A result set by hand (resignation, agreement); the rules' result wins once the game is over.
    declared: GameResult,
}

/// Why a game record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A tag line is not of the form `[Name "value"]`.
    #[error("line {line}: '{text}' is not a tag pair: write [Name \"value\"]")]
    Tag {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// No `Setup` tag.
    #[error("the record has no Setup tag, so its starting position is unknown")]
    MissingSetup,
    /// The `Setup` tag is not a position string.
    #[error("the Setup tag is not a valid position: {0}")]
    Setup(ParsePositionError),
    /// The `Scoring` tag is neither `largest` nor `product`.
    #[error("the Scoring tag is '{0}': use largest or product")]
    Scoring(String),
    /// The `Result` tag is no result token.
    #[error("the Result tag is '{0}': use 1-0, 0-1, 1/2-1/2 or *")]
    Result(String),
    /// A move token that is not a move.
    #[error("line {line}, move {number}: {error}")]
    Notation {
        /// 1-based line number.
        line: usize,
        /// The move number as written in records (`3.` or `3...`).
        number: String,
        /// What is wrong with the token (part of the message, so not a separate source).
        error: ParseMoveError,
    },
    /// A move that is not legal where it stands.
    #[error("line {line}, move {number}: {error}")]
    Illegal {
        /// 1-based line number.
        line: usize,
        /// The move number as written in records (`3.` or `3...`).
        number: String,
        /// Why it is illegal (part of the message, so not a separate source).
        error: PlayError,
    },
    /// A move number that does not count the moves before it.
    #[error("line {line}: the move number '{found}' should be '{expected}' here")]
    Numbering {
        /// 1-based line number.
        line: usize,
        /// The number as written.
        found: String,
        /// The number of the next move (`3.` or `3...`).
        expected: String,
    },
    /// The moves stop without a result token: the record was probably cut short.
    #[error(
        "the record ends after {moves} move{} without a result token (1-0, 0-1, 1/2-1/2 or *): \
         it may be cut short",
        if *moves == 1 { "" } else { "s" }
    )]
    MissingResult {
        /// The moves read.
        moves: usize,
    },
    /// [`Game::parse`] was given a text that holds more than one record.
    #[error("the text holds {0} records, not one: choose one of them")]
    Several(usize),
    /// A `{` comment that never closes.
    #[error("line {0}: a comment opened with '{{' is never closed")]
    OpenComment(usize),
    /// The result token and the `Result` tag disagree, or the result contradicts the final
    /// position.
    #[error("the result does not fit the game: {0}")]
    Mismatch(String),
    /// Text after the result token.
    #[error("line {line}: '{text}' after the result token; the record ends with its result")]
    Trailing {
        /// 1-based line number.
        line: usize,
        /// The extra text.
        text: String,
    },
}

impl Game {
    /// A new game from `start`, scored with `scoring`.
    pub fn new(start: Position, scoring: Scoring) -> Game {
        Game {
            tags: Vec::new(),
            start,
            scoring,
            moves: Vec::new(),
            comments: Vec::new(),
            current: start,
            declared: GameResult::Unfinished,
        }
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The scoring mode.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after the first `n` moves (`n` at most the number of moves).
    pub fn position_after(&self, n: usize) -> Position {
        let mut pos = self.start;
        for &mv in &self.moves[..n.min(self.moves.len())] {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &mv in &self.moves {
            pos.play_unchecked(mv);
            out.push(pos);
        }
        out
    }

    /// Plays a move; refused (and nothing changes) if it is illegal or the result is decided.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if self.declared != GameResult::Unfinished {
            return Err(PlayError {
                mv,
                reason: Illegal::Decided(self.declared),
            });
        }
        self.current = self.current.play(mv)?;
        self.moves.push(mv);
        self.comments.push(None);
        Ok(())
    }

    /// Takes back the last move; `None` if there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.comments.pop();
        self.declared = GameResult::Unfinished;
        self.current = self.position_after(self.moves.len());
        Some(mv)
    }

    /// The result: by the rules once the game is over, else what was declared (`*` by default).
    pub fn result(&self) -> GameResult {
        match self.current.outcome(self.scoring) {
            Some(outcome) => outcome.into(),
            None => self.declared,
        }
    }

    /// Ends an unfinished game with a result, as when a player resigns.
    pub fn declare(&mut self, result: GameResult) {
        self.declared = result;
    }

    /// Whether no more moves will be played: the game is over or a result was declared.
    pub fn is_finished(&self) -> bool {
        self.result() != GameResult::Unfinished
    }

    /// The value of a tag other than `Setup`, `Scoring` and `Result`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag (other than `Setup`, `Scoring` and `Result`, which come from the game).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The comment after move `index` (0-based).
    pub fn comment(&self, index: usize) -> Option<&str> {
        self.comments.get(index)?.as_deref()
    }

    /// Sets the comment after move `index` (0-based); ignored past the last move. Spaces around
    /// the text are dropped (a reader could not tell them from the record's own); everything
    /// else is kept, `}` and line breaks included (the record escapes them, see
    /// [`escape_comment`]).
    pub fn set_comment(&mut self, index: usize, text: &str) {
        if let Some(c) = self.comments.get_mut(index) {
            *c = Some(text.trim().to_string());
        }
    }

    /// The record number of move `index` (0-based): `3.` for White's, `3...` for Black's.
    pub fn move_number(&self, index: usize) -> String {
        move_number(self.start.side_to_move(), index)
    }

    /// Reads a record (see the [module documentation](self)); a text holding several records
    /// is refused with [`RecordError::Several`] (read those with [`parse_all`]).
    pub fn parse(text: &str) -> Result<Game, RecordError> {
        let records = split(text);
        match records.as_slice() {
            [] => Err(RecordError::MissingSetup),
            [one] => one.parse(),
            several => Err(RecordError::Several(several.len())),
        }
    }
}

/// One record of a text that may hold several: its text and where it starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecordText<'a> {
    /// The record's lines.
    pub text: &'a str,
    /// How many lines of the whole text come before it, so that errors name lines of the whole
    /// text.
    pub line_offset: usize,
}

impl RecordText<'_> {
    /// Reads this record; line numbers in errors count from the start of the whole text.
    pub fn parse(&self) -> Result<Game, RecordError> {
        Reader {
            tags: Vec::new(),
            line_offset: self.line_offset,
        }
        .read(self.text)
    }
}

/// Splits a text into its records: a record starts at a tag line that follows the moves of the
/// record before (a `[` inside a `{comment}` does not count). A leading byte-order mark is
/// skipped; a text with nothing but blank lines holds no record.
///
/// ```
/// let one = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n1. b1-b4 *\n";
/// let two = format!("{one}\n{one}");
/// assert_eq!(mabula::record::split(&two).len(), 2);
/// assert_eq!(mabula::record::split(&two)[1].line_offset, 4);
/// ```
pub fn split(text: &str) -> Vec<RecordText<'_>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    // (byte offset, line offset) of the record being gathered.
    let mut start: Option<(usize, usize)> = None;
    let mut in_body = false;
    let mut in_comment = false;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if !in_comment && t.starts_with('[') && in_body {
            if let Some((b, l)) = start {
                out.push(RecordText {
                    text: &text[b..offset],
                    line_offset: l,
                });
            }
            start = None;
            in_body = false;
        }
        if !t.is_empty() {
            if start.is_none() {
                start = Some((offset, i));
            }
            if in_comment || !t.starts_with('[') {
                in_body = true;
                let mut escaped = false;
                for c in t.chars() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' if in_comment => escaped = true,
                        '{' => in_comment = true,
                        '}' => in_comment = false,
                        _ => {}
                    }
                }
            }
        }
        offset += line.len();
    }
    if let Some((b, l)) = start {
        out.push(RecordText {
            text: &text[b..],
            line_offset: l,
        });
    }
    out
}

/// Reads every record of a text that holds one or more, each on its own: one result per record,
/// in order.
pub fn parse_all(text: &str) -> Vec<Result<Game, RecordError>> {
    split(text).iter().map(RecordText::parse).collect()
}

/// The record number of move `index` of a game that `first` starts.
fn move_number(first: Color, index: usize) -> String {
    let ply = index + usize::from(first == Color::Black);
    let round = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("{round}.")
    } else {
        format!("{round}...")
    }
}

/// A comment as a record writes it between `{` and `}`: a backslash is written `\\`, a `}`
/// `\}`, a line feed `\n` and a carriage return `\r`, so that every comment reads back as it was
/// (PGN has no escape in comments; a reader of plain PGN sees the backslashes).
pub fn escape_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '}' => out.push_str("\\}"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// Reads a comment [`escape_comment`] wrote. A backslash before anything else than `\\`, `}`,
/// `n` or `r` is kept as it is (records written before comments were escaped).
pub fn unescape_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('\\') => out.push('\\'),
            Some('}') => out.push('}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            _ => {
                out.push('\\');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// Where the comment that starts `text` (just after its `{`) ends: the byte offset of the first
/// `}` that no backslash escapes.
fn comment_end(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '}' => return Some(i),
            _ => {}
        }
    }
    None
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f, "[Setup \"{}\"]", self.start)?;
        writeln!(f, "[Scoring \"{}\"]", self.scoring)?;
        writeln!(f, "[Result \"{}\"]", self.result())?;
        writeln!(f)?;
        let mut tokens = Vec::new();
        let first = self.start.side_to_move();
        let mut after_comment = false;
        for (i, mv) in self.moves.iter().enumerate() {
            let number = move_number(first, i);
            if number.ends_with("...") {
                if i == 0 || after_comment {
                    tokens.push(number);
                }
            } else {
                tokens.push(number);
            }
            tokens.push(mv.to_string());
            after_comment = false;
            if let Some(c) = &self.comments[i] {
                tokens.push(format!("{{{}}}", escape_comment(c)));
                after_comment = true;
            }
        }
        tokens.push(self.result().to_string());
        let mut width = 0;
        for (i, token) in tokens.iter().enumerate() {
            if i > 0 {
                if width + 1 + token.len() > 80 {
                    writeln!(f)?;
                    width = 0;
                } else {
                    f.write_str(" ")?;
                    width += 1;
                }
            }
            f.write_str(token)?;
            width += token.len();
        }
        writeln!(f)
    }
}

impl FromStr for Game {
    type Err = RecordError;
    fn from_str(s: &str) -> Result<Game, RecordError> {
        Game::parse(s)
    }
}

/// The state of reading one record.
struct Reader {
    tags: Vec<(String, String)>,
    /// Lines of the whole text before this record, added to the line numbers of errors.
    line_offset: usize,
}

impl Reader {
    fn read(mut self, text: &str) -> Result<Game, RecordError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let lines: Vec<&str> = text.lines().collect();
        let off = self.line_offset;
        let mut body_start = lines.len();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if !t.starts_with('[') {
                body_start = i;
                break;
            }
            let tag = parse_tag(t).ok_or_else(|| RecordError::Tag {
                line: off + i + 1,
                text: t.into(),
            })?;
            self.tags.push(tag);
        }
        let take = |tags: &mut Vec<(String, String)>, name: &str| {
            let at = tags.iter().position(|(n, _)| n == name)?;
            Some(tags.remove(at).1)
        };
        let setup = take(&mut self.tags, "Setup").ok_or(RecordError::MissingSetup)?;
        let start = Position::parse(&setup).map_err(RecordError::Setup)?;
        let scoring = match take(&mut self.tags, "Scoring") {
            Some(s) => s.parse::<Scoring>().map_err(|_| RecordError::Scoring(s))?,
            None => Scoring::Largest,
        };
        let tag_result = match take(&mut self.tags, "Result") {
            Some(r) => Some(GameResult::parse(&r).ok_or(RecordError::Result(r))?),
            None => None,
        };
        let mut game = Game::new(start, scoring);
        game.tags = self.tags;

        let mut end_result = None;
        let mut comment: Option<(usize, String)> = None;
        for (i, line) in lines.iter().enumerate().skip(body_start) {
            let line_no = off + i + 1;
            let mut rest = *line;
            while !rest.is_empty() {
                if let Some((_, text)) = comment.as_mut() {
                    match comment_end(rest) {
                        Some(end) => {
                            text.push_str(&rest[..end]);
                            let text = comment.take().map(|c| c.1).unwrap_or_default();
                            if let Some(last) = game.moves.len().checked_sub(1) {
                                game.set_comment(last, &unescape_comment(text.trim()));
                            }
                            rest = &rest[end + 1..];
                        }
                        None => {
                            text.push_str(rest);
                            text.push(' ');
                            rest = "";
                        }
                    }
                    continue;
                }
                rest = rest.trim_start();
                if rest.is_empty() {
                    break;
                }
                if let Some(after) = rest.strip_prefix('{') {
                    comment = Some((line_no, String::new()));
                    rest = after;
                    continue;
                }
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(rest.len());
                let token = &rest[..end];
                rest = &rest[end..];
                if let Some(r) = end_result {
                    let _: GameResult = r;
                    return Err(RecordError::Trailing {
                        line: line_no,
                        text: token.into(),
                    });
                }
                if let Some(r) = GameResult::parse(token) {
                    end_result = Some(r);
                    continue;
                }
                let number = game.move_number(game.moves.len());
                let (written, token) = split_number(token);
                if let Some(written) = written
                    && !number_fits(written, &number)
                {
                    return Err(RecordError::Numbering {
                        line: line_no,
                        found: written.into(),
                        expected: number,
                    });
                }
                if token.is_empty() {
                    continue;
                }
                let mv = token
                    .parse::<Move>()
                    .map_err(|error| RecordError::Notation {
                        line: line_no,
                        number: number.clone(),
                        error,
                    })?;
                game.play(mv).map_err(|error| RecordError::Illegal {
                    line: line_no,
                    number,
                    error,
                })?;
            }
        }
        if let Some((line, _)) = comment {
            return Err(RecordError::OpenComment(line));
        }
        if end_result.is_none() {
            return Err(RecordError::MissingResult {
                moves: game.moves.len(),
            });
        }
        let claimed = match (tag_result, end_result) {
            (Some(a), Some(b)) if a != b => {
                return Err(RecordError::Mismatch(format!(
                    "the Result tag says {a} but the moves end with {b}"
                )));
            }
            (a, b) => a.or(b).unwrap_or(GameResult::Unfinished),
        };
        let by_rules = game.result();
        if by_rules != GameResult::Unfinished {
            if claimed != by_rules && claimed != GameResult::Unfinished {
                let scores = game.position().scores(scoring);
                return Err(RecordError::Mismatch(format!(
                    "it says {claimed}, but the game is over and scores {scores} ({by_rules})"
                )));
            }
        } else {
            game.declare(claimed);
        }
        Ok(game)
    }
}

/// Splits a leading move number (`12.` or `12...`) off a token: the number as written, if any,
/// and the rest.
fn split_number(token: &str) -> (Option<&str>, &str) {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && token[digits..].starts_with('.') {
        let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
        let (number, rest) = token.split_at(digits + dots);
        (Some(number), rest)
    } else {
        (None, token)
    }
}

/// Whether a written move number (`3.`, `3...`, also `3..`) names the move numbered `expected`.
fn number_fits(written: &str, expected: &str) -> bool {
    let round = |s: &str| s.trim_end_matches('.').to_string();
    let black = |s: &str| s.ends_with("..");
    round(written) == round(expected) && black(written) == black(expected)
}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Game {
        let start = crate::deal::random(11, Color::Black);
        let mut game = Game::new(start, Scoring::Product);
        game.set_tag("Event", "Test \"quoted\" game");
        game.set_tag("White", "Ada");
        for i in 0..9 {
            let mv = game.position().legal_moves()[i % 3];
            game.play(mv).expect("legal");
        }
        game.set_comment(3, "a comment {with} braces");
        game
    }

    #[test]
    fn every_comment_reads_back_as_it_was_set() {
        let texts = [
            "a } closes nothing",
            "}{}{ \\} \\ \\n back\\",
            "two\nlines\r\nand CRLF",
            "[Setup \"x\"] 1. b1-b4 0-1 {",
            "\\",
            "é ✓ tab\there",
        ];
        let start = crate::deal::random(3, Color::White);
        let mut game = Game::new(start, Scoring::Largest);
        for _ in 0..texts.len() {
            let mv = game.position().legal_moves()[0];
            game.play(mv).expect("legal");
        }
        for (i, t) in texts.iter().enumerate() {
            game.set_comment(i, t);
        }
        let text = game.to_string();
        let back = Game::parse(&text).expect("reads back");
        for (i, t) in texts.iter().enumerate() {
            assert_eq!(back.comment(i), Some(*t), "{text}");
        }
        assert_eq!(back, game);
        let two = format!("{text}\n{text}");
        assert_eq!(parse_all(&two), vec![Ok(game.clone()), Ok(game)]);
        // A backslash before another letter, as older records hold it, stays.
        assert_eq!(unescape_comment("C:\\temp \\x"), "C:\\temp \\x");
    }

    #[test]
    fn a_written_record_reads_back_to_the_same_game() {
        let game = sample();
        let text = game.to_string();
        assert!(text.contains("\n\n1... "), "{text}");
        assert_eq!(Game::parse(&text), Ok(game));
    }

    #[test]
    fn a_finished_game_records_its_result() {
        let mut game = Game::new(crate::deal::random(5, Color::White), Scoring::Largest);
        while let Some(&mv) = game.position().legal_moves().first() {
            game.play(mv).expect("legal");
        }
        let text = game.to_string();
        assert_ne!(game.result(), GameResult::Unfinished);
        assert!(text.trim_end().ends_with(game.result().token()));
        assert_eq!(Game::parse(&text), Ok(game));
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_number() {
        let setup = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n\n";
        let err = Game::parse(&format!("{setup}1. b1-b4 a4-g4 *")).expect_err("illegal");
        assert_eq!(
            err.to_string(),
            "line 3, move 1...: illegal move a4-g4: the marble on a4 may travel at most 5 squares \
             here; further would push a marble onto an edge space"
        );
        let err = Game::parse(&format!("{setup}1. b1-b4 c8-c6 2. x9 *")).expect_err("bad token");
        assert!(
            err.to_string()
                .starts_with("line 3, move 2.: 'x9' is not a move"),
            "{err}"
        );
        let err = Game::parse(&format!("{setup}1. b1-b4 d1-d2 *")).expect_err("own marble");
        assert!(
            err.to_string()
                .contains("d1 is white's, and it is black's turn"),
            "{err}"
        );
    }

    #[test]
    fn malformed_records_say_what_is_wrong() {
        let err = |s: &str| Game::parse(s).expect_err(s).to_string();
        assert!(err("1. b1-b4 *").contains("no Setup tag"));
        assert!(err("[Setup \"8/8 w\"]").contains("Setup tag is not a valid position"));
        assert!(err("[Setup 8/8/8/8/8/8/8/8 w]").contains("line 1"));
        let base = "[Setup \"1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w\"]\n";
        assert!(err(&format!("{base}[Scoring \"sum\"]")).contains("'sum'"));
        assert!(err(&format!("{base}[Result \"1-0\"]\n1. b1-b4 0-1")).contains("Result tag says"));
        assert!(err(&format!("{base}1. b1-b4 {{ open")).contains("never closed"));
        assert!(err(&format!("{base}1. b1-b4 * b8-b7")).contains("after the result"));
    }
}
