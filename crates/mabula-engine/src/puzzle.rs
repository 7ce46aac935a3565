//! Puzzles proven by the solver (issue 39): a position where the side to move has exactly one
//! move that keeps the best result it can reach (a win, or a draw when every other move loses),
//! continued through the opponent's best defence while the player's next move is again the only
//! one; every position of the line is solved exactly. Each puzzle is tagged by what it teaches
//! and gets a starting rating.
//!
//! [`find`] looks at one position; [`Puzzle::line`] and [`Puzzle::to_line`] read and write the
//! shipped file's lines; [`verify`] proves a puzzle again.

use crate::limits::Limits;
use crate::solver::{SolveMode, Solver};
use mabula::{Bitboard, Color, Move, Position, Scoring};
use std::fmt;

/// The shipped puzzles, one line each ([`Puzzle::line`]): `data/puzzles.tsv`, made by
/// `mabula puzzles generate --games 2000 --level 3 --seed 1 --threads 1` (self-play at level 3,
/// both scoring modes), stopped after its 5,001st puzzle.
pub const SHIPPED: &str = include_str!("../data/puzzles.tsv");

/// Puzzles are looked for at most this many marbles from the end: the exact value of every
/// move of a position takes the solver well under a second there.
pub const MAX_EDGES: u32 = 12;

/// What a puzzle teaches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    /// The line reaches the end of the game.
    LastPush,
    /// A move of the player leaves an opponent's marble on the edge unable to move.
    Block,
    /// A move of the player breaks an opponent's group in two.
    Split,
    /// A move of the player joins two of its own groups.
    Join,
    /// Product scoring: a move of the player makes a group of exactly three.
    GroupsOfThree,
    /// A move of the player leaves the opponent with nothing but a pass.
    ForcedPass,
    /// The best the player can reach is a draw, and only one move keeps it.
    SaveTheDraw,
}

impl Theme {
    /// Every theme, in order.
    pub const ALL: [Theme; 7] = [
        Theme::LastPush,
        Theme::Block,
        Theme::Split,
        Theme::Join,
        Theme::GroupsOfThree,
        Theme::ForcedPass,
        Theme::SaveTheDraw,
    ];

    /// The name used in files and in the API.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::LastPush => "last_push",
            Theme::Block => "block",
            Theme::Split => "split",
            Theme::Join => "join",
            Theme::GroupsOfThree => "groups_of_three",
            Theme::ForcedPass => "forced_pass",
            Theme::SaveTheDraw => "save_the_draw",
        }
    }

    /// Reads a name written by [`Theme::name`].
    pub fn parse(s: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// A puzzle: a start, the whole solution line (the player's moves at even indices, the
/// opponent's defences between them; it ends with a move of the player), the result it keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, the player to move.
    pub start: Position,
    /// The scoring mode the puzzle is solved in.
    pub scoring: Scoring,
    /// The solution, both sides.
    pub line: Vec<Move>,
    /// The result the player keeps: 1 a win, 0 a draw.
    pub result: i32,
    /// What it teaches, sorted.
    pub themes: Vec<Theme>,
    /// Its starting rating.
    pub rating: i32,
}

/// Why a line of the puzzles file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePuzzleError(pub String);

impl fmt::Display for ParsePuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParsePuzzleError {}

impl Puzzle {
    /// The player's moves in the line.
    pub fn player_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.line.iter().copied().step_by(2)
    }

    /// A stable id: the first 40 bits of a hash of the start, the scoring and the line, in
    /// base 36 (the same puzzle gets the same id in every run).
    pub fn id(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for b in self.start.to_string().bytes() {
            eat(b);
        }
        eat(self.scoring as u8);
        for mv in &self.line {
            eat(mv.code());
        }
        let mut n = h >> 24;
        let mut s = String::new();
        for _ in 0..8 {
            let d = (n % 36) as u32;
            s.push(char::from_digit(d, 36).unwrap_or('0'));
            n /= 36;
        }
        s
    }

    /// The puzzle as one line of the shipped file, fields separated by tabs: id, position,
    /// scoring, the line's moves (spaces between), result, themes (commas between, `-` for
    /// none), rating.
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.line.iter().map(|m| m.to_string()).collect();
        let themes: Vec<&str> = self.themes.iter().map(|t| t.name()).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.id(),
            self.start,
            self.scoring,
            moves.join(" "),
            self.result,
            if themes.is_empty() {
                "-".to_string()
            } else {
                themes.join(",")
            },
            self.rating
        )
    }

    /// Reads a line written by [`Puzzle::to_line`] (its moves checked against the rules; the
    /// id must match the content).
    pub fn line(text: &str) -> Result<Puzzle, ParsePuzzleError> {
        let bad = |what: &str| ParsePuzzleError(format!("{what} in puzzle line {text:?}"));
        let f: Vec<&str> = text.trim_end_matches(['\r', '\n']).split('\t').collect();
        let [id, position, scoring, moves, result, themes, rating] = f[..] else {
            return Err(bad("not 7 tab-separated fields"));
        };
        let start: Position = position.parse().map_err(|_| bad("a bad position"))?;
        let scoring: Scoring = scoring.parse().map_err(|_| bad("a bad scoring"))?;
        let mut pos = start;
        let mut line = Vec::new();
        for m in moves.split(' ') {
            let mv: Move = m.parse().map_err(|_| bad("a bad move"))?;
            pos = pos.play(mv).map_err(|_| bad("an illegal move"))?;
            line.push(mv);
        }
        if line.len() % 2 == 0 {
            return Err(bad("a line that ends with the opponent's move"));
        }
        let result: i32 = result.parse().map_err(|_| bad("a bad result"))?;
        if !(0..=1).contains(&result) {
            return Err(bad("a result that is neither 0 nor 1"));
        }
        let themes = if themes == "-" {
            Vec::new()
        } else {
            themes
                .split(',')
                .map(|t| Theme::parse(t).ok_or_else(|| bad("an unknown theme")))
                .collect::<Result<Vec<_>, _>>()?
        };
        let rating: i32 = rating.parse().map_err(|_| bad("a bad rating"))?;
        let p = Puzzle {
            start,
            scoring,
            line,
            result,
            themes,
            rating,
        };
        if p.id() != id {
            return Err(bad("an id that does not match its content"));
        }
        Ok(p)
    }
}

/// The only move of `pos` that keeps the best result its side can reach, with that result,
/// when there is exactly one such move among at least two pushes and the result is a draw or a
/// win. `Err(())` when the solver ran out of its limits.
fn only_move(
    solver: &mut Solver,
    pos: &Position,
    limits: &Limits,
) -> Result<Option<(Move, i32)>, ()> {
    if pos.count_pushes() < 2 {
        return Ok(None);
    }
    let values = solver
        .solve_moves(pos, SolveMode::Result, limits)
        .ok_or(())?;
    let best = values.first().map_or(-1, |&(_, v)| v);
    let keeping: Vec<Move> = values
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(m, _)| m)
        .collect();
    Ok((best >= 0 && keeping.len() == 1).then(|| (keeping[0], best)))
}

/// The opponent's best defence in `pos` (their side to move): the move that leaves them the
/// greatest final margin. `None` when the limits ran out.
fn best_defence(solver: &mut Solver, pos: &Position, limits: &Limits) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.len() == 1 {
        return Some(moves[0]);
    }
    let values = solver.solve_moves(pos, SolveMode::Margin, limits)?;
    values.first().map(|&(m, _)| m)
}

/// Looks for a puzzle starting at `pos` (at most [`MAX_EDGES`] marbles on the edge), solved in
/// `scoring` with `solver` (whose scoring must be the same), each solve within `limits`.
/// `None` when there is none, or the limits ran out.
pub fn find(solver: &mut Solver, pos: &Position, limits: &Limits) -> Option<Puzzle> {
    if pos.edges_left() > MAX_EDGES || pos.is_game_over() {
        return None;
    }
    let scoring = solver.scoring();
    let (first, result) = only_move(solver, pos, limits).ok()??;
    let mut line = vec![first];
    let mut here = pos.play(first).ok()?;
    // Go on while the opponent can answer and the player must find the only move again.
    while !here.is_game_over() {
        let defence = best_defence(solver, &here, limits)?;
        let after = here.play(defence).ok()?;
        if after.is_game_over() || after.side_to_move() != pos.side_to_move() {
            break;
        }
        match only_move(solver, &after, limits) {
            Ok(Some((mv, r))) if r == result => {
                line.push(defence);
                line.push(mv);
                here = after.play(mv).ok()?;
            }
            Ok(_) => break,
            Err(()) => return None,
        }
    }
    let mut p = Puzzle {
        start: *pos,
        scoring,
        line,
        result,
        themes: Vec::new(),
        rating: 0,
    };
    p.themes = themes(&p);
    p.rating = starting_rating(&p);
    Some(p)
}

/// The groups of `color` in `pos`.
fn group_sizes(pos: &Position, color: Color) -> Vec<u32> {
    pos.groups(color).map(Bitboard::count).collect()
}

/// Marbles of `color` on the edge that can move in `pos`.
fn movable(pos: &Position, color: Color) -> usize {
    (pos.marbles(color) & Bitboard::EDGE)
        .filter(|&sq| pos.room_at(sq) > 0)
        .count()
}

/// What the puzzle teaches, read from its start and line.
pub fn themes(p: &Puzzle) -> Vec<Theme> {
    let me = p.start.side_to_move();
    let them = me.other();
    let mut out = Vec::new();
    let mut pos = p.start;
    for (i, &mv) in p.line.iter().enumerate() {
        let Ok(next) = pos.play(mv) else { break };
        if i % 2 == 0 {
            if movable(&next, them) < movable(&pos, them)
                && (pos.marbles(them) & Bitboard::EDGE).count()
                    == (next.marbles(them) & Bitboard::EDGE).count()
            {
                out.push(Theme::Block);
            }
            if group_sizes(&next, them).len() > group_sizes(&pos, them).len() {
                out.push(Theme::Split);
            }
            if group_sizes(&next, me).len() < group_sizes(&pos, me).len() {
                out.push(Theme::Join);
            }
            let threes = |q: &Position| group_sizes(q, me).iter().filter(|&&s| s == 3).count();
            if p.scoring == Scoring::Product && threes(&next) > threes(&pos) {
                out.push(Theme::GroupsOfThree);
            }
            if !next.is_game_over() && next.count_pushes() == 0 {
                out.push(Theme::ForcedPass);
            }
        }
        pos = next;
    }
    if pos.is_game_over() {
        out.push(Theme::LastPush);
    }
    if p.result == 0 {
        out.push(Theme::SaveTheDraw);
    }
    out.sort();
    out.dedup();
    out
}

/// A starting rating: 1000, more for each move the player must find, for the choices at each
/// (the pushes that were not the answer), and when the answer is not the move that looks best
/// at once (the greatest lead on the board after it).
pub fn starting_rating(p: &Puzzle) -> i32 {
    let me = p.start.side_to_move();
    let mut rating = 1000;
    let mut pos = p.start;
    for (i, &mv) in p.line.iter().enumerate() {
        if i % 2 == 0 {
            rating += 120 + 12 * pos.count_pushes() as i32;
            let lead = |m: Move| {
                let q = pos.play(m).unwrap_or(pos);
                let s = q.scores(p.scoring);
                let (mine, theirs) = match me {
                    Color::White => (s.white, s.black),
                    Color::Black => (s.black, s.white),
                };
                i64::from(mine) - i64::from(theirs)
            };
            let looks_best = pos.legal_moves().into_iter().max_by_key(|&m| lead(m));
            if looks_best.is_some_and(|m| lead(m) > lead(mv)) {
                rating += 150;
            }
        }
        let Ok(next) = pos.play(mv) else { break };
        pos = next;
    }
    rating.clamp(600, 2600)
}

/// Proves `p` again: every move of the player is the only one that keeps `p.result`, and every
/// defence is a best one. `Some(false)` when it does not hold, `None` when the limits ran out.
pub fn verify(solver: &mut Solver, p: &Puzzle, limits: &Limits) -> Option<bool> {
    let mut pos = p.start;
    for (i, &mv) in p.line.iter().enumerate() {
        if i % 2 == 0 {
            match only_move(solver, &pos, limits) {
                Ok(Some((m, r))) if m == mv && r == p.result => {}
                Ok(_) => return Some(false),
                Err(()) => return None,
            }
        } else {
            let values = solver.solve_moves(&pos, SolveMode::Margin, limits)?;
            let best = values.first().map(|&(_, v)| v);
            if values.iter().find(|&&(m, _)| m == mv).map(|&(_, v)| v) != best {
                return Some(false);
            }
        }
        pos = pos.play(mv).ok()?;
    }
    Some(true)
}
