//! Positions: where the marbles are and who moves, with the rules of play.
//!
//! [`Setup`] is an unvalidated arrangement with public fields; [`Position`] has private fields and
//! is only obtained through a checked conversion ([`Position::from_setup`]), a position string, or
//! a deal (see [`crate::deal`]). Once built, a position can only change by legal moves, so every
//! position in the program keeps the invariants: no marble on a corner, at most 12 of a colour,
//! and a Zobrist hash that matches the contents.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::scoring::{GameResult, Outcome, Scores, Scoring};
use crate::square::{Color, Square};
use crate::tables::{
    BLACK_TO_MOVE, CODE_BASE, EDGE_OF, KEYS, LINE_MASK, LINE_OF, MASK_KEYS, NONE, PUSH, PUSHES,
    PushInfo, REVERSED_EDGES, deposit, extract, state,
};
use std::fmt;

/// An unvalidated arrangement: anything goes until it becomes a [`Position`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Squares holding a white marble.
    pub white: Bitboard,
    /// Squares holding a black marble.
    pub black: Bitboard,
    /// The side to move.
    pub turn: Color,
}

/// Why a [`Setup`] is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A square holds a white and a black marble.
    #[error("{0} holds both a white and a black marble")]
    Overlap(Square),
    /// A corner holds a marble.
    #[error("{0} is a corner, and nothing is ever placed on a corner")]
    MarbleOnCorner(Square),
    /// More than 12 marbles of one colour.
    #[error("there are {count} {color} marbles, but a player has only 12")]
    TooMany {
        /// The colour.
        color: Color,
        /// How many marbles of it were given.
        count: u32,
    },
}

/// A legal arrangement of marbles with the side to move; 32 bytes, cheap to copy.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// The marbles of each colour, indexed by `Color as usize`.
    marbles: [Bitboard; 2],
    /// Zobrist hash of the marbles and the side to move, kept up to date by every move.
    hash: u64,
    turn: Color,
}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct PlayError {
    /// The move that was refused.
    pub mv: Move,
    /// What is wrong with it (its `Display` says it in words).
    pub reason: Illegal,
}

/// What makes a move illegal, for callers to match on; `Display` says it in words.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// Neither side can move.
    #[error("the game is over")]
    GameOver,
    /// A result was declared (a resignation, an agreement), so the game takes no more moves.
    #[error("the game is over ({0})")]
    Decided(GameResult),
    /// A pass by a player who can push.
    #[error("{0} can push a marble, and a player who can move must")]
    MustPush(Color),
    /// A push by a player who has none and must pass.
    #[error("{0} has no marble that can move and must pass")]
    MustPass(Color),
    /// A push from an empty edge space.
    #[error("there is no marble on {0}")]
    NoMarble(Square),
    /// A push of the opponent's marble.
    #[error("the marble on {from} is {owner}'s, and it is {turn}'s turn")]
    NotYours {
        /// The edge space.
        from: Square,
        /// Whose marble is there.
        owner: Color,
        /// Whose turn it is.
        turn: Color,
    },
    /// A push along a line whose six field squares are full.
    #[error("the line of {0} is full, so that marble cannot move")]
    LineFull(Square),
    /// A push further than the marbles on the line leave room for.
    #[error(
        "the marble on {from} may travel at most {room} square{} here; further would push a \
         marble onto an edge space",
        if *room == 1 { "" } else { "s" }
    )]
    TooFar {
        /// The edge space.
        from: Square,
        /// The farthest it may go.
        room: u32,
    },
}

impl Position {
    /// Checks a setup and makes it a position.
    pub fn from_setup(setup: Setup) -> Result<Position, SetupError> {
        if let Some(sq) = (setup.white & setup.black).first() {
            return Err(SetupError::Overlap(sq));
        }
        if let Some(sq) = ((setup.white | setup.black) & Bitboard::CORNERS).first() {
            return Err(SetupError::MarbleOnCorner(sq));
        }
        for (color, bb) in [(Color::White, setup.white), (Color::Black, setup.black)] {
            if bb.count() > 12 {
                return Err(SetupError::TooMany {
                    color,
                    count: bb.count(),
                });
            }
        }
        let mut pos = Position {
            marbles: [setup.white, setup.black],
            hash: 0,
            turn: setup.turn,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The position as an unvalidated setup.
    pub const fn to_setup(&self) -> Setup {
        Setup {
            white: self.marbles[0],
            black: self.marbles[1],
            turn: self.turn,
        }
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    fn compute_hash(&self) -> u64 {
        let mut h = if self.turn == Color::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for (c, marbles) in self.marbles.iter().enumerate() {
            for sq in *marbles {
                h ^= KEYS[c * 64 + sq as usize];
            }
        }
        h
    }

    /// Squares holding a white marble.
    pub const fn white(&self) -> Bitboard {
        self.marbles[0]
    }

    /// Squares holding a black marble.
    pub const fn black(&self) -> Bitboard {
        self.marbles[1]
    }

    /// Squares holding a marble of `color`.
    pub const fn marbles(&self, color: Color) -> Bitboard {
        self.marbles[color as usize]
    }

    /// Squares holding any marble.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.marbles[0].0 | self.marbles[1].0)
    }

    /// Marbles of either colour still on edge spaces: the game's clock. Every push brings one
    /// edge marble into the field and none ever goes back, so it falls by one with each push,
    /// stays with a pass, and bounds the pushes still to come.
    ///
    /// ```
    /// use mabula::{Color, deal};
    /// let mut pos = deal::random(1, Color::White);
    /// assert_eq!(pos.edges_left(), 24);
    /// pos.play_unchecked(pos.legal_moves()[0]);
    /// assert_eq!(pos.edges_left(), 23);
    /// ```
    pub const fn edges_left(&self) -> u32 {
        (self.occupied().0 & Bitboard::EDGE.0).count_ones()
    }

    /// The colour of the marble on `sq`, if any.
    pub const fn color_at(&self, sq: Square) -> Option<Color> {
        if self.marbles[0].contains(sq) {
            Some(Color::White)
        } else if self.marbles[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash of the marbles and the side to move.
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The same marbles with the other side to move.
    #[must_use]
    pub const fn with_side_to_move(mut self, turn: Color) -> Position {
        if turn as u8 != self.turn as u8 {
            self.turn = turn;
            self.hash ^= BLACK_TO_MOVE;
        }
        self
    }

    /// How far the marble on edge space `sq` may travel.
    #[inline(always)]
    fn room(occupied: u64, sq: usize) -> u32 {
        6 - (occupied & LINE_OF[sq & 63]).count_ones()
    }

    /// The square indices of the marbles of `color` on edge spaces.
    #[inline(always)]
    fn edge_marbles(&self, color: Color) -> impl Iterator<Item = usize> {
        let mut bits = (self.marbles(color) & Bitboard::EDGE).0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(sq)
        })
    }

    /// Whether `color` has a push (ignores whose turn it is).
    pub fn can_push(&self, color: Color) -> bool {
        let occ = self.occupied().0;
        self.edge_marbles(color)
            .any(|sq| Position::room(occ, sq) > 0)
    }

    /// Whether the game is over: neither side can push.
    pub fn is_game_over(&self) -> bool {
        !self.can_push(Color::White) && !self.can_push(Color::Black)
    }

    /// The number of pushes of the side to move (0 when it must pass or the game is over).
    #[inline]
    pub fn count_pushes(&self) -> u32 {
        let occ = self.occupied().0;
        let mut n = 0;
        for sq in self.edge_marbles(self.turn) {
            n += Position::room(occ, sq);
        }
        n
    }

    /// The number of legal moves: the pushes, or 1 for a forced pass, or 0 at the end.
    #[inline]
    pub fn count_moves(&self) -> u32 {
        match self.count_pushes() {
            0 => u32::from(self.can_push(self.turn.other())),
            n => n,
        }
    }

    /// The code of the first of the side to move's pushes from edge space `sq` that has `room`
    /// squares to travel (the pushes from `sq` have consecutive codes).
    #[inline(always)]
    fn first_push(sq: usize, room: u32) -> u8 {
        let reversed = REVERSED_EDGES >> sq & 1 != 0;
        CODE_BASE[sq & 63] + if reversed { 6 - room as u8 } else { 0 }
    }

    /// Appends the pushes of the side to move to `list`.
    #[inline]
    pub fn pushes_into(&self, list: &mut MoveList) {
        let occ = self.occupied().0;
        for sq in self.edge_marbles(self.turn) {
            let room = Position::room(occ, sq);
            list.push_run(Position::first_push(sq, room), room as u8);
        }
    }

    /// The legal moves of the side to move: its pushes; or exactly [`Move::PASS`] when it cannot
    /// push but the opponent can; or nothing when the game is over. Not sorted: sort the list to
    /// get notation order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pushes_into(&mut list);
        if list.is_empty() && self.can_push(self.turn.other()) {
            list.push(Move::PASS);
        }
        list
    }

    /// The `index`-th legal move in the order of [`Position::legal_moves`], without building the
    /// list (for random playouts): a pass when passing is the only move. `index` must be below
    /// [`Position::count_moves`].
    #[inline]
    pub fn nth_move(&self, mut index: u32) -> Move {
        let occ = self.occupied().0;
        for sq in self.edge_marbles(self.turn) {
            let room = Position::room(occ, sq);
            if index < room {
                return Move::from_code(Position::first_push(sq, room) + index as u8)
                    .unwrap_or(Move::PASS);
            }
            index -= room;
        }
        Move::PASS
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn check(&self, mv: Move) -> Result<(), Illegal> {
        let own_pushes = self.count_pushes();
        if mv.is_pass() {
            return match (own_pushes, self.can_push(self.turn.other())) {
                (0, true) => Ok(()),
                (0, false) => Err(Illegal::GameOver),
                _ => Err(Illegal::MustPush(self.turn)),
            };
        }
        if own_pushes == 0 {
            return Err(if self.can_push(self.turn.other()) {
                Illegal::MustPass(self.turn)
            } else {
                Illegal::GameOver
            });
        }
        let from = mv.from().expect("a push has a start");
        match self.color_at(from) {
            None => return Err(Illegal::NoMarble(from)),
            Some(owner) if owner != self.turn => {
                return Err(Illegal::NotYours {
                    from,
                    owner,
                    turn: self.turn,
                });
            }
            Some(_) => {}
        }
        let room = Position::room(self.occupied().0, from as usize);
        if u32::from(mv.distance()) > room {
            return Err(match room {
                0 => Illegal::LineFull(from),
                _ => Illegal::TooFar { from, room },
            });
        }
        Ok(())
    }

    /// Plays a move after checking it; the error says why it is illegal.
    pub fn play(&self, mv: Move) -> Result<Position, PlayError> {
        self.check(mv).map_err(|reason| PlayError { mv, reason })?;
        let mut next = *self;
        next.play_unchecked(mv);
        Ok(next)
    }

    /// Plays a move known to be legal (the fast path for search). An illegal move leaves the
    /// position in an unspecified but memory-safe state.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        self.hash ^= BLACK_TO_MOVE;
        let mover = self.turn as usize;
        self.turn = self.turn.other();
        if mv.is_pass() {
            return;
        }
        let push = &PUSHES[mv.code() as usize];
        let (w, b, new) = self.pushed_line(push, mover);
        self.marbles = self.with_line(push, new, mover);
        let keys = &MASK_KEYS[push.line as usize];
        self.hash ^= KEYS[mover * 64 + push.from as usize]
            ^ keys[((w ^ new[0]) & 63) as usize]
            ^ keys[64 + ((b ^ new[1]) & 63) as usize];
    }

    /// The marbles of each colour (indexed by `Color as usize`) after the side to move plays
    /// `mv`, a legal move, without making the new position or its hash: the cheap way for a
    /// search to score the last push of a game.
    #[inline]
    pub fn marbles_after(&self, mv: Move) -> [Bitboard; 2] {
        if mv.is_pass() {
            return self.marbles;
        }
        let push = &PUSHES[mv.code() as usize];
        let mover = self.turn as usize;
        let (_, _, new) = self.pushed_line(push, mover);
        self.with_line(push, new, mover)
    }

    /// The white and black marbles of the push's line, as natural-order masks, before and after
    /// the push (after: with the pusher where it stops).
    #[inline(always)]
    fn pushed_line(&self, push: &PushInfo, mover: usize) -> (u32, u32, [u32; 2]) {
        let w = extract(self.marbles[0].0, push.line);
        let b = extract(self.marbles[1].0, push.line);
        let after = u32::from(PUSH[push.table as usize + state(w, b)]);
        // Selects, not an indexed write: a write into one half of a small array that is then
        // read whole stalls the processor.
        let stop = 1 << push.bit;
        let (white_stop, black_stop) = if mover == 0 { (stop, 0) } else { (0, stop) };
        (w, b, [after & 0xff | white_stop, after >> 8 | black_stop])
    }

    /// The marbles with the push's line replaced by `new` and the pusher gone from its edge
    /// space.
    #[inline(always)]
    fn with_line(&self, push: &PushInfo, new: [u32; 2], mover: usize) -> [Bitboard; 2] {
        let keep = !LINE_MASK[push.line as usize];
        let from = 1 << push.from;
        let (white_from, black_from) = if mover == 0 { (from, 0) } else { (0, from) };
        [
            Bitboard((self.marbles[0].0 & keep & !white_from) | deposit(new[0], push.line)),
            Bitboard((self.marbles[1].0 & keep & !black_from) | deposit(new[1], push.line)),
        ]
    }

    /// The groups of `color`: sets of its orthogonally connected marbles in the field.
    pub fn groups(&self, color: Color) -> Groups {
        Groups {
            rest: self.marbles(color) & Bitboard::FIELD,
        }
    }

    /// Both scores of the current field under `scoring`.
    pub fn scores(&self, scoring: Scoring) -> Scores {
        Scores {
            white: self.score(Color::White, scoring),
            black: self.score(Color::Black, scoring),
        }
    }

    /// The score of one side under `scoring`.
    #[inline]
    pub fn score(&self, color: Color, scoring: Scoring) -> u32 {
        scoring.score_of(self.marbles(color))
    }

    /// The outcome once the game is over; `None` while it goes on.
    pub fn outcome(&self, scoring: Scoring) -> Option<Outcome> {
        self.is_game_over().then(|| self.scores(scoring).outcome())
    }

    /// The marble on edge space `sq` can travel this far right now (0 if blocked or not a marble
    /// of an edge space).
    pub fn room_at(&self, sq: Square) -> u32 {
        match EDGE_OF[sq as usize] {
            NONE => 0,
            _ if !self.occupied().contains(sq) => 0,
            _ => Position::room(self.occupied().0, sq as usize),
        }
    }
}

impl Scoring {
    /// The score of a player whose marbles are `marbles` (only those in the field count).
    #[inline]
    pub fn score_of(self, marbles: Bitboard) -> u32 {
        let field = (marbles & Bitboard::FIELD).0;
        if field == 0 {
            return 0;
        }
        let rest = not_lone(field);
        match self {
            Scoring::Largest => {
                let mut best = if rest == 0 { 1 } else { 2 };
                for_each_group(rest, |group, left| {
                    best = best.max(group.count_ones());
                    left.count_ones() > best
                });
                best
            }
            Scoring::Product => {
                let mut product = 1;
                for_each_group(rest, |group, _| {
                    product *= group.count_ones();
                    true
                });
                product
            }
        }
    }

    /// How the score of `marbles` compares with `score`: the same as comparing
    /// [`Scoring::score_of`] with it, but in largest-group scoring it stops growing groups as
    /// soon as the answer is known.
    #[inline]
    pub fn compare_score(self, marbles: Bitboard, score: u32) -> std::cmp::Ordering {
        let field = (marbles & Bitboard::FIELD).0;
        if self == Scoring::Product || field == 0 {
            return self.score_of(marbles).cmp(&score);
        }
        let rest = not_lone(field);
        let mut best = if rest == 0 { 1 } else { 2 };
        if best <= score {
            // Only a group bigger than `best` and at least `score` can change the answer.
            for_each_group(rest, |group, left| {
                best = best.max(group.count_ones());
                best <= score && left.count_ones() > best.max(score.saturating_sub(1))
            });
        }
        best.cmp(&score)
    }
}

/// The marbles of `field` with an orthogonal neighbour in it. Lone marbles are groups of one,
/// and most sets have some: they are found all at once, and only the other groups are grown one
/// at a time.
#[inline(always)]
fn not_lone(field: u64) -> u64 {
    (field << 1 | field >> 1 | field << 8 | field >> 8) & field
}

/// Calls `f` with each group of `rest` (field squares only, so no shift wraps around a side of
/// the board) and the marbles not yet in a group, until it returns `false`.
#[inline(always)]
fn for_each_group(mut rest: u64, mut f: impl FnMut(u64, u64) -> bool) {
    while rest != 0 {
        let mut group = rest & rest.wrapping_neg();
        loop {
            let grown = (group | group << 1 | group >> 1 | group << 8 | group >> 8) & rest;
            if grown == group {
                break;
            }
            group = grown;
        }
        rest ^= group;
        if !f(group, rest) {
            break;
        }
    }
}

/// Iterator over the groups of one colour (see [`Position::groups`]).
pub struct Groups {
    rest: Bitboard,
}

impl Iterator for Groups {
    type Item = Bitboard;

    #[inline]
    fn next(&mut self) -> Option<Bitboard> {
        let seed = self.rest.first()?;
        let mut group = Bitboard::from_square(seed);
        loop {
            let grown = group.grow() & self.rest;
            if grown == group {
                break;
            }
            group = grown;
        }
        self.rest ^= group;
        Some(group)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl TryFrom<Setup> for Position {
    type Error = SetupError;
    fn try_from(setup: Setup) -> Result<Position, SetupError> {
        Position::from_setup(setup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_fits_in_32_bytes() {
        assert!(std::mem::size_of::<Position>() <= 32);
    }

    #[test]
    fn the_edge_clock_falls_by_one_with_each_push_and_stays_with_a_pass() {
        for seed in 0..20 {
            let mut pos = crate::deal::random(seed, Color::Black);
            assert_eq!(pos.edges_left(), 24);
            let mut k = seed as usize;
            loop {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[k % moves.len()];
                k = (k * 31 + 7) % 1009;
                let before = pos.edges_left();
                pos.play_unchecked(mv);
                let fall = u32::from(!mv.is_pass());
                assert_eq!(pos.edges_left(), before - fall, "after {mv} in {pos}");
                assert_eq!(pos.edges_left(), pos.edges_left());
            }
        }
    }

    #[test]
    fn the_incremental_hash_matches_a_fresh_one_after_every_move() {
        let mut pos = crate::deal::random(7, Color::White);
        while let Some(&mv) = pos.legal_moves().first() {
            pos.play_unchecked(mv);
            assert_eq!(pos.hash(), pos.compute_hash(), "after {mv} in {pos}");
        }
    }
}
