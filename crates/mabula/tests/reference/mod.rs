//! A deliberately simple reference implementation of the Mabula rules, written from
//! `RULES.md` (sections 1 to 6) alone, to check the bitboard library independently.
//!
//! Everything here is plain and slow on purpose: the board is a `[[Cell; 8]; 8]`, a push walks
//! the marble in one square at a time and shoves the touching chain ahead of it, groups are found
//! by flood fill, and the position and move texts have their own parser and printer. Nothing is
//! shared with or copied from the library (no bitboards, no tables), so when the two agree, both
//! read the rules the same way.

// Each test binary that includes this module uses a different part of it.
#![allow(dead_code)]

use std::fmt;

/// One of the two players (and the colour of their marbles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The letter used for this side in position strings.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }
}

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Marble(Side),
}

/// A square given by file (0 = `a`) and rank (0 = `1`). Signed, so that stepping off the board
/// is easy to detect. Ordered by file, then rank: the order of the names `a1`, `a2`, ..., `h8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Sq {
    pub file: i32,
    pub rank: i32,
}

impl Sq {
    pub fn new(file: i32, rank: i32) -> Sq {
        Sq { file, rank }
    }

    /// Reads a square name such as `b4` (either case).
    pub fn parse(name: &str) -> Option<Sq> {
        let mut chars = name.chars();
        let file = chars.next()?.to_ascii_lowercase();
        let rank = chars.next()?;
        if chars.next().is_some() || !('a'..='h').contains(&file) || !('1'..='8').contains(&rank) {
            return None;
        }
        Some(Sq::new(file as i32 - 'a' as i32, rank as i32 - '1' as i32))
    }

    pub fn on_board(self) -> bool {
        (0..8).contains(&self.file) && (0..8).contains(&self.rank)
    }

    pub fn is_corner(self) -> bool {
        (self.file == 0 || self.file == 7) && (self.rank == 0 || self.rank == 7)
    }

    /// One of the 36 inner squares `b2`..`g7`.
    pub fn is_field(self) -> bool {
        (1..=6).contains(&self.file) && (1..=6).contains(&self.rank)
    }

    /// One of the 24 border squares that are not corners.
    pub fn is_edge(self) -> bool {
        self.on_board() && !self.is_field() && !self.is_corner()
    }

    /// The direction a marble on this edge space is pushed in: straight into the field.
    pub fn inward(self) -> Option<(i32, i32)> {
        if !self.is_edge() {
            None
        } else if self.rank == 0 {
            Some((0, 1))
        } else if self.rank == 7 {
            Some((0, -1))
        } else if self.file == 0 {
            Some((1, 0))
        } else {
            Some((-1, 0))
        }
    }

    pub fn step(self, (df, dr): (i32, i32)) -> Sq {
        Sq::new(self.file + df, self.rank + dr)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + self.file as u8);
        let rank = char::from(b'1' + self.rank as u8);
        write!(f, "{file}{rank}")
    }
}

/// The 24 edge spaces in ring order (section 2), the order the setup constraint walks.
pub const RING: [&str; 24] = [
    "b1", "c1", "d1", "e1", "f1", "g1", "h2", "h3", "h4", "h5", "h6", "h7", "g8", "f8", "e8", "d8",
    "c8", "b8", "a7", "a6", "a5", "a4", "a3", "a2",
];

/// A move: a push from an edge space to the field square where the marble stops, or a pass.
/// Pushes are ordered by `from`, then `to`, which is the order of their notation strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefMove {
    Push { from: Sq, to: Sq },
    Pass,
}

impl RefMove {
    /// Reads `b1-b4` or `pass`, in any case, with surrounding spaces. Checks the shape only
    /// (edge space to a field square on its line), not whether the move is legal somewhere.
    pub fn parse(text: &str) -> Result<RefMove, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Ok(RefMove::Pass);
        }
        let (from, to) = text
            .split_once('-')
            .ok_or_else(|| format!("move {text:?} has no '-'"))?;
        let from = Sq::parse(from).ok_or_else(|| format!("bad square {from:?}"))?;
        let to = Sq::parse(to).ok_or_else(|| format!("bad square {to:?}"))?;
        let dir = from
            .inward()
            .ok_or_else(|| format!("{from} is not an edge space"))?;
        let mut sq = from;
        for _ in 0..6 {
            sq = sq.step(dir);
            if sq == to {
                return Ok(RefMove::Push { from, to });
            }
        }
        Err(format!("{to} is not a field square on the line of {from}"))
    }
}

impl fmt::Display for RefMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefMove::Push { from, to } => write!(f, "{from}-{to}"),
            RefMove::Pass => f.write_str("pass"),
        }
    }
}

/// A position: the board and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefPosition {
    /// Indexed `[rank][file]`, rank 0 is rank `1`.
    pub board: [[Cell; 8]; 8],
    pub to_move: Side,
}

impl RefPosition {
    pub fn empty(to_move: Side) -> RefPosition {
        RefPosition {
            board: [[Cell::Empty; 8]; 8],
            to_move,
        }
    }

    pub fn get(&self, sq: Sq) -> Cell {
        self.board[sq.rank as usize][sq.file as usize]
    }

    pub fn set(&mut self, sq: Sq, cell: Cell) {
        self.board[sq.rank as usize][sq.file as usize] = cell;
    }

    fn all_squares() -> impl Iterator<Item = Sq> {
        (0..8).flat_map(|rank| (0..8).map(move |file| Sq::new(file, rank)))
    }

    /// Reads a position string (section 6), rejecting what section 6 says a reader rejects.
    pub fn parse(text: &str) -> Result<RefPosition, String> {
        let (placement, side) = text
            .split_once(' ')
            .ok_or_else(|| "missing side to move".to_string())?;
        let to_move = match side {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(format!("wrong side to move {other:?}")),
        };
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("{} ranks instead of 8", ranks.len()));
        }
        let mut pos = RefPosition::empty(to_move);
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - row as i32;
            let mut file = 0;
            for ch in rank_text.chars() {
                let (cell, count) = match ch {
                    'w' => (Cell::Marble(Side::White), 1),
                    'b' => (Cell::Marble(Side::Black), 1),
                    '1'..='8' => (Cell::Empty, ch as i32 - '0' as i32),
                    other => return Err(format!("unknown character {other:?}")),
                };
                for _ in 0..count {
                    if file >= 8 {
                        return Err(format!("rank {} has more than 8 squares", rank + 1));
                    }
                    let sq = Sq::new(file, rank);
                    if cell != Cell::Empty && sq.is_corner() {
                        return Err(format!("marble on corner {sq}"));
                    }
                    pos.set(sq, cell);
                    file += 1;
                }
            }
            if file != 8 {
                return Err(format!("rank {} has {file} squares", rank + 1));
            }
        }
        for side in [Side::White, Side::Black] {
            let n = pos.count(side);
            if n > 12 {
                return Err(format!("{n} marbles of colour {}", side.letter()));
            }
        }
        Ok(pos)
    }

    /// How many marbles of this colour are on the board.
    pub fn count(&self, side: Side) -> usize {
        Self::all_squares()
            .filter(|&sq| self.get(sq) == Cell::Marble(side))
            .count()
    }

    /// How many marbles are still on edge spaces.
    pub fn edge_count(&self) -> usize {
        Self::all_squares()
            .filter(|&sq| sq.is_edge() && self.get(sq) != Cell::Empty)
            .count()
    }

    /// The six field squares of the line of an edge space, numbered from its own side.
    fn line(from: Sq) -> [Sq; 6] {
        let dir = from.inward().expect("lines start on edge spaces");
        let mut squares = [from; 6];
        let mut sq = from;
        for slot in &mut squares {
            sq = sq.step(dir);
            *slot = sq;
        }
        squares
    }

    /// Every push the given side could make, in no particular order.
    pub fn pushes(&self, side: Side) -> Vec<RefMove> {
        let mut moves = Vec::new();
        for from in Self::all_squares() {
            if !from.is_edge() || self.get(from) != Cell::Marble(side) {
                continue;
            }
            let line = Self::line(from);
            let occupied = line
                .iter()
                .filter(|&&sq| self.get(sq) != Cell::Empty)
                .count();
            for distance in 1..=6 - occupied {
                moves.push(RefMove::Push {
                    from,
                    to: line[distance - 1],
                });
            }
        }
        moves
    }

    /// The legal moves of the side to move, in no particular order: its pushes; else `pass`
    /// when the opponent has a push; else nothing (the game is over).
    pub fn moves(&self) -> Vec<RefMove> {
        let mut moves = self.pushes(self.to_move);
        if moves.is_empty() && !self.pushes(self.to_move.other()).is_empty() {
            moves.push(RefMove::Pass);
        }
        moves
    }

    /// The legal moves of the side to move, sorted by notation.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let mut moves = self.moves();
        moves.sort();
        moves
    }

    /// The legal moves as notation strings, sorted as strings.
    pub fn legal_move_strings(&self) -> Vec<String> {
        let mut moves: Vec<String> = self.moves().iter().map(|m| m.to_string()).collect();
        moves.sort();
        moves
    }

    pub fn is_game_over(&self) -> bool {
        self.moves().is_empty()
    }

    /// Plays a move after checking that it is legal here.
    pub fn play(&self, mv: RefMove) -> Result<RefPosition, String> {
        if !self.moves().contains(&mv) {
            return Err(format!("{mv} is not legal in {self}"));
        }
        Ok(self.apply(mv))
    }

    /// Plays a move known to be legal.
    pub fn apply(&self, mv: RefMove) -> RefPosition {
        let mut next = *self;
        if let RefMove::Push { from, to } = mv {
            next.push(from, to);
        }
        next.to_move = self.to_move.other();
        next
    }

    /// Walks the marble from `from` towards `to` one square at a time. At each step, the
    /// touching chain of marbles in front of it moves one square on.
    fn push(&mut self, from: Sq, to: Sq) {
        let dir = from.inward().expect("pushes start on edge spaces");
        let mut at = from;
        while at != to {
            let next = at.step(dir);
            // Find the first empty square past the chain that starts at `next`.
            let mut end = next;
            while end.is_field() && self.get(end) != Cell::Empty {
                end = end.step(dir);
            }
            assert!(
                end.is_field(),
                "pushing {from}-{to} in {self} would move a marble onto an edge space"
            );
            // Shift the chain one square on, from its far end back.
            let mut sq = end;
            while sq != next {
                let behind = sq.step((-dir.0, -dir.1));
                self.set(sq, self.get(behind));
                sq = behind;
            }
            self.set(next, self.get(at));
            self.set(at, Cell::Empty);
            at = next;
        }
    }

    /// The sizes of the side's groups of orthogonally connected marbles in the field.
    pub fn groups(&self, side: Side) -> Vec<u32> {
        let mut seen = [[false; 8]; 8];
        let mut sizes = Vec::new();
        for start in Self::all_squares() {
            if !start.is_field()
                || self.get(start) != Cell::Marble(side)
                || seen[start.rank as usize][start.file as usize]
            {
                continue;
            }
            let mut size = 0;
            let mut stack = vec![start];
            seen[start.rank as usize][start.file as usize] = true;
            while let Some(sq) = stack.pop() {
                size += 1;
                for dir in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let n = sq.step(dir);
                    if n.is_field()
                        && self.get(n) == Cell::Marble(side)
                        && !seen[n.rank as usize][n.file as usize]
                    {
                        seen[n.rank as usize][n.file as usize] = true;
                        stack.push(n);
                    }
                }
            }
            sizes.push(size);
        }
        sizes
    }

    /// Largest-group score: the size of the side's largest group (0 with no marble in the
    /// field).
    pub fn largest_score(&self, side: Side) -> u32 {
        self.groups(side).into_iter().max().unwrap_or(0)
    }

    /// Product score: the product of the sizes of all the side's groups, 0 with no marble in the
    /// field.
    pub fn product_score(&self, side: Side) -> u32 {
        let groups = self.groups(side);
        if groups.is_empty() {
            0
        } else {
            groups.into_iter().product()
        }
    }

    /// Counts the leaves of the move tree `depth` moves deep. A pass is a move; a finished game
    /// has no moves.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|mv| self.apply(mv).perft(depth - 1))
            .sum()
    }

    /// The perft count below each legal move (`depth >= 1`), sorted by notation: to find where
    /// two perft counts part.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.legal_moves()
            .into_iter()
            .map(|mv| (mv.to_string(), self.apply(mv).perft(depth - 1)))
            .collect()
    }
}

impl fmt::Display for RefPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empties = 0;
            for file in 0..8 {
                match self.get(Sq::new(file, rank)) {
                    Cell::Empty => empties += 1,
                    Cell::Marble(side) => {
                        if empties > 0 {
                            write!(f, "{empties}")?;
                            empties = 0;
                        }
                        write!(f, "{}", side.letter())?;
                    }
                }
            }
            if empties > 0 {
                write!(f, "{empties}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.to_move.letter())
    }
}

/// SplitMix64, a tiny seeded generator, so that every random choice in the tests is
/// reproducible.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), with negligible bias.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// Whether the colours around the ring (in [`RING`] order) never put three of one colour in a
/// row, wrapping around.
pub fn ring_is_valid(colours: &[Side; 24]) -> bool {
    (0..24).all(|i| {
        let (a, b, c) = (colours[i], colours[(i + 1) % 24], colours[(i + 2) % 24]);
        !(a == b && b == c)
    })
}

/// Reads the colours around the ring, or `None` if an edge space is empty.
pub fn ring_colours(pos: &RefPosition) -> Option<[Side; 24]> {
    let mut colours = [Side::White; 24];
    for (slot, name) in colours.iter_mut().zip(RING) {
        match pos.get(Sq::parse(name)?) {
            Cell::Marble(side) => *slot = side,
            Cell::Empty => return None,
        }
    }
    Some(colours)
}

/// The opening position with these colours around the ring (in [`RING`] order) and an empty
/// field.
pub fn setup_from_ring(colours: &[Side; 24], to_move: Side) -> RefPosition {
    let mut pos = RefPosition::empty(to_move);
    for (&side, name) in colours.iter().zip(RING) {
        let sq = Sq::parse(name).expect("ring names are squares");
        pos.set(sq, Cell::Marble(side));
    }
    pos
}

/// A random opening setup: 12 white and 12 black marbles shuffled around the ring, shuffled
/// again until the ring constraint holds (which keeps the draw uniform over valid setups).
pub fn random_setup(rng: &mut SplitMix64, to_move: Side) -> RefPosition {
    let mut colours = [Side::White; 24];
    for slot in &mut colours[12..] {
        *slot = Side::Black;
    }
    loop {
        for i in (1..24).rev() {
            colours.swap(i, rng.below(i + 1));
        }
        if ring_is_valid(&colours) {
            return setup_from_ring(&colours, to_move);
        }
    }
}

/// Every valid colouring of the ring (12 of each colour, no three in a row, wrapping around),
/// found by trying every colouring and pruning as soon as a run of three or a 13th marble of a
/// colour appears.
pub fn all_valid_rings() -> Vec<[Side; 24]> {
    fn extend(colours: &mut Vec<Side>, found: &mut Vec<[Side; 24]>) {
        let n = colours.len();
        if n >= 3 && colours[n - 1] == colours[n - 2] && colours[n - 2] == colours[n - 3] {
            return;
        }
        for side in [Side::White, Side::Black] {
            if colours.iter().filter(|&&c| c == side).count() > 12 {
                return;
            }
        }
        if n == 24 {
            let ring: [Side; 24] = colours.as_slice().try_into().expect("24 colours");
            if ring_is_valid(&ring) {
                found.push(ring);
            }
            return;
        }
        for side in [Side::White, Side::Black] {
            colours.push(side);
            extend(colours, found);
            colours.pop();
        }
    }
    let mut found = Vec::new();
    extend(&mut Vec::with_capacity(24), &mut found);
    found
}
