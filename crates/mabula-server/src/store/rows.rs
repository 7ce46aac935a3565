//! The store's own row types, typed: what a `games` row holds ([`StoredGame`]), what a change
//! writes ([`RowChange`]), what a list shows ([`GameRow`]), and how each converts to and from the
//! server's [`LiveGame`]. Text columns are read back into enums here, so a value the code does not
//! know is reported as a corrupt row, never passed on.

use crate::model::fair_play;
use crate::model::{
    Clock, EndReason, EngineSettings, LiveGame, Mode, PairHalf, Player, TimeControl, TokenHash,
    UndoOffer,
};
use mabula::{Color, Game, GameResult, Move, Position, Scoring};

use super::StoreError;

/// A game as stored: the `games` row and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Game id.
    pub id: String,
    /// Creation time (ms).
    pub created_at: i64,
    /// Last change (ms).
    pub updated_at: i64,
    /// Who plays.
    pub mode: Mode,
    /// The scoring mode.
    pub scoring: Scoring,
    /// The deal's seed.
    pub seed: Option<u64>,
    /// The starting position.
    pub start: Position,
    /// The engine's seat.
    pub engine: Option<EngineSettings>,
    /// Token hash of white's seat.
    pub white_token: Option<TokenHash>,
    /// Token hash of black's seat.
    pub black_token: Option<TokenHash>,
    /// Hash of the friend's join code.
    pub join_code: Option<TokenHash>,
    /// Undo count.
    pub epoch: u32,
    /// The row's version (every change adds one).
    pub version: u64,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game.
    pub rematch_id: Option<String>,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Hints asked for by White and by Black.
    pub hints: [u32; 2],
    /// The game's place in a duplicate pair.
    pub pair: Option<PairHalf>,
    /// A pending undo offer.
    pub undo_offer: Option<UndoOffer>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The move counts when White's and Black's last draw offers were declined.
    pub draw_refused: [Option<u32>; 2],
    /// The instance computing the engine's next move.
    pub engine_owner: Option<String>,
    /// The players with accounts in White's and Black's seats.
    pub players: [Option<Player>; 2],
    /// Whether the game is rated.
    pub rated: bool,
    /// The clock.
    pub clock: Option<Clock>,
    /// The tournament the game belongs to.
    pub tournament: Option<String>,
}

impl StoredGame {
    /// The stored form of a new game; `engine_owner` computes its first engine move, if any.
    pub fn from_live(g: &LiveGame, engine_owner: Option<String>) -> StoredGame {
        StoredGame {
            id: g.id.clone(),
            created_at: g.created_at,
            updated_at: g.updated_at,
            mode: g.mode,
            scoring: g.game.scoring(),
            seed: g.seed,
            start: *g.game.start(),
            engine: g.engine,
            white_token: g.white_token,
            black_token: g.black_token,
            join_code: g.join_code,
            epoch: g.epoch,
            version: g.version,
            result: g.game.result(),
            end_reason: g.end_reason,
            rematch_of: g.rematch_of.clone(),
            rematch_id: g.rematch_id.clone(),
            moves: g.game.moves().to_vec(),
            hints: g.hints,
            pair: g.pair,
            undo_offer: g.undo_offer,
            draw_offer: g.draw_offer,
            draw_refused: g.draw_refused,
            engine_owner,
            players: g.players.clone(),
            rated: g.rated,
            clock: g.clock,
            tournament: g.tournament.clone(),
        }
    }

    /// Rebuilds the game, replaying its moves.
    pub fn into_live(self) -> Result<LiveGame, StoreError> {
        let id = self.id.clone();
        let corrupt = |what: String| StoreError::Corrupt {
            id: id.clone(),
            what,
        };
        let mut game = Game::new(self.start, self.scoring);
        for (i, &mv) in self.moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| corrupt(format!("move {}: {e}", i + 1)))?;
        }
        if matches!(
            self.end_reason,
            Some(
                EndReason::ResignedWhite
                    | EndReason::ResignedBlack
                    | EndReason::TimeoutWhite
                    | EndReason::TimeoutBlack
                    | EndReason::AbandonedWhite
                    | EndReason::AbandonedBlack
                    | EndReason::Declared
                    | EndReason::DrawAgreed
            )
        ) {
            game.declare(self.result);
        }
        let end_reason = self
            .end_reason
            .or_else(|| game.position().is_game_over().then_some(EndReason::NoMoves));
        Ok(LiveGame {
            id: self.id,
            created_at: self.created_at,
            updated_at: self.updated_at,
            mode: self.mode,
            seed: self.seed,
            engine: self.engine,
            white_token: self.white_token,
            black_token: self.black_token,
            join_code: self.join_code,
            game,
            epoch: self.epoch,
            version: self.version,
            end_reason,
            rematch_id: self.rematch_id,
            hints: self.hints,
            rematch_of: self.rematch_of,
            undo_offer: self.undo_offer,
            draw_offer: self.draw_offer,
            draw_refused: self.draw_refused,
            pair: self.pair,
            pair_first: None,
            players: self.players,
            rated: self.rated,
            clock: self.clock,
            tournament: self.tournament,
        })
    }
}

/// Every column of a `games` row that changes after the game is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowState {
    /// The current position string (for lists).
    pub position: String,
    /// The side to move, `None` once finished.
    pub to_move: Option<Color>,
    /// Number of moves.
    pub move_count: u32,
    /// Undo count.
    pub epoch: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// Last change (ms).
    pub updated_at: i64,
    /// Hints asked for by White and by Black.
    pub hints: [u32; 2],
    /// Token hash of white's seat.
    pub white_token: Option<TokenHash>,
    /// Token hash of black's seat.
    pub black_token: Option<TokenHash>,
    /// The rematch of this game.
    pub rematch_id: Option<String>,
    /// A pending undo offer.
    pub undo_offer: Option<UndoOffer>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The move counts when White's and Black's last draw offers were declined.
    pub draw_refused: [Option<u32>; 2],
    /// The instance computing the engine's next move.
    pub engine_owner: Option<String>,
    /// The accounts (key and name) in White's and Black's seats.
    pub accounts: [Option<(String, String)>; 2],
    /// The clock.
    pub clock: Option<Clock>,
    /// When the clock runs out next (ms).
    pub deadline: Option<i64>,
    /// Fair play (issue 51): the positions the game keeps from the engine, stored in
    /// `kept_positions` with the row (`None`: not rated, nothing stored; none once over).
    pub kept: Option<Vec<i64>>,
}

impl RowState {
    /// The row of `g`, with `engine_owner` computing its engine's next move.
    pub fn of(g: &LiveGame, engine_owner: Option<String>) -> RowState {
        RowState {
            position: g.game.position().to_string(),
            to_move: g.to_move(),
            move_count: g.game.moves().len() as u32,
            epoch: g.epoch,
            result: g.game.result(),
            end_reason: g.end_reason,
            updated_at: g.updated_at,
            hints: g.hints,
            white_token: g.white_token,
            black_token: g.black_token,
            rematch_id: g.rematch_id.clone(),
            undo_offer: g.undo_offer,
            draw_offer: g.draw_offer,
            draw_refused: g.draw_refused,
            engine_owner,
            accounts: g.players.clone().map(|p| p.map(|p| (p.key, p.name))),
            clock: g.clock,
            deadline: g.deadline().map(|(at, _)| at),
            kept: fair_play::kept(g),
        }
    }
}

/// What a change does to the `moves` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesChange {
    /// Nothing.
    None,
    /// Move number `ply + 1` was played.
    Append {
        /// 0-based index of the move.
        ply: u32,
        /// The move.
        mv: Move,
    },
    /// Moves were taken back: the first `keep` remain.
    Truncate {
        /// How many moves remain.
        keep: u32,
    },
}

/// A change of a game, applied only if the row still has version `expect`; the row then has
/// version `expect + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowChange {
    /// Game id.
    pub id: String,
    /// The version the change was computed from.
    pub expect: u64,
    /// The row afterwards.
    pub row: RowState,
    /// The change to the moves.
    pub moves: MovesChange,
    /// What happened, one word, for the other instances' listeners (see [`super::Notice`]).
    pub reason: &'static str,
}

/// How many WebSockets are open on a game, per seat and for spectators: one instance's, as its
/// `presence` row holds them, or the sum over the instances alive.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PresenceCounts {
    /// Sockets holding white's seat.
    pub white: u32,
    /// Sockets holding black's seat.
    pub black: u32,
    /// Sockets without a token.
    pub spectators: u32,
}

/// A game as lists show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// Who plays.
    pub mode: Mode,
    /// The scoring mode.
    pub scoring: Scoring,
    /// The engine's level in engine games.
    pub engine_level: Option<u8>,
    /// The current position string.
    pub position: String,
    /// The side to move, `None` once finished.
    pub to_move: Option<Color>,
    /// Number of moves.
    pub move_count: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// Creation time (ms).
    pub created_at: i64,
    /// Last change (ms).
    pub updated_at: i64,
    /// The accounts in each seat, White's first (with their ratings when the game began).
    pub players: [Option<Player>; 2],
    /// Whether the result changes the ratings.
    pub rated: bool,
    /// The time control of a game on a clock.
    pub time_control: Option<TimeControl>,
}

// Column texts. Every enum the database keeps as text is written as its `name()` and read back
// here.

/// Reads a text column into a typed value, or says the row is corrupt.
pub(crate) struct Decoder<'a> {
    /// The game the row belongs to.
    pub id: &'a str,
}

impl Decoder<'_> {
    fn corrupt(&self, what: String) -> StoreError {
        StoreError::Corrupt {
            id: self.id.to_string(),
            what,
        }
    }

    pub fn side(&self, s: &str) -> Result<Color, StoreError> {
        Color::parse(s).ok_or_else(|| self.corrupt(format!("side '{s}'")))
    }

    pub fn mode(&self, s: &str) -> Result<Mode, StoreError> {
        Mode::parse(s).ok_or_else(|| self.corrupt(format!("mode '{s}'")))
    }

    pub fn scoring(&self, s: &str) -> Result<Scoring, StoreError> {
        s.parse()
            .map_err(|_| self.corrupt(format!("scoring '{s}'")))
    }

    pub fn result(&self, s: &str) -> Result<GameResult, StoreError> {
        GameResult::parse(s).ok_or_else(|| self.corrupt(format!("result '{s}'")))
    }

    pub fn end_reason(&self, s: Option<String>) -> Result<Option<EndReason>, StoreError> {
        s.map(|r| EndReason::parse(&r).ok_or_else(|| self.corrupt(format!("end reason '{r}'"))))
            .transpose()
    }

    pub fn pair(&self, s: Option<String>) -> Result<Option<PairHalf>, StoreError> {
        s.map(|h| PairHalf::parse(&h).ok_or_else(|| self.corrupt(format!("pair half '{h}'"))))
            .transpose()
    }

    pub fn position(&self, s: &str) -> Result<Position, StoreError> {
        Position::parse(s).map_err(|e| self.corrupt(format!("position: {e}")))
    }

    pub fn token(&self, v: Option<Vec<u8>>) -> Result<Option<TokenHash>, StoreError> {
        v.map(|b| {
            TokenHash::try_from(b.as_slice()).map_err(|_| self.corrupt("token hash length".into()))
        })
        .transpose()
    }

    pub fn seed(&self, s: Option<String>) -> Result<Option<u64>, StoreError> {
        s.map(|t| t.parse().map_err(|_| self.corrupt(format!("seed '{t}'"))))
            .transpose()
    }

    pub fn count(&self, n: i64, what: &str) -> Result<u32, StoreError> {
        u32::try_from(n).map_err(|_| self.corrupt(format!("{what} {n}")))
    }

    pub fn engine(
        &self,
        color: Option<String>,
        level: Option<i64>,
        movetime_ms: Option<i64>,
    ) -> Result<Option<EngineSettings>, StoreError> {
        match (color, level, movetime_ms) {
            (Some(c), Some(l), Some(t)) => Ok(Some(EngineSettings {
                color: self.side(&c)?,
                level: u8::try_from(l).map_err(|_| self.corrupt("engine level".into()))?,
                movetime_ms: self.count(t, "engine movetime")?,
            })),
            _ => Ok(None),
        }
    }

    pub fn undo_offer(
        &self,
        by: Option<String>,
        moves: Option<i64>,
    ) -> Result<Option<UndoOffer>, StoreError> {
        match (by, moves) {
            (Some(by), Some(n)) => Ok(Some(UndoOffer {
                by: self.side(&by)?,
                moves: self.count(n, "undo moves")?,
            })),
            _ => Ok(None),
        }
    }

    /// A move count column (a declined draw offer's).
    pub fn plies(&self, n: Option<i64>) -> Result<Option<u32>, StoreError> {
        n.map(|n| self.count(n, "draw declined at")).transpose()
    }

    /// A side column that may be empty.
    pub fn maybe_side(&self, s: Option<String>) -> Result<Option<Color>, StoreError> {
        s.map(|s| self.side(&s)).transpose()
    }

    /// A seat's player from the game row's columns of that colour.
    pub fn player(
        &self,
        key: Option<String>,
        name: Option<String>,
        rating: Option<i64>,
        provisional: bool,
        diff: Option<i64>,
        bot: bool,
    ) -> Result<Option<Player>, StoreError> {
        match (key, name) {
            (Some(key), Some(name)) => Ok(Some(Player {
                key,
                name,
                rating: rating.and_then(|r| i32::try_from(r).ok()),
                provisional,
                diff: diff.and_then(|r| i32::try_from(r).ok()),
                bot,
            })),
            (None, None) => Ok(None),
            _ => Err(self.corrupt("an account without a name".into())),
        }
    }

    /// The time control from its columns (`None`: no clock).
    pub fn time_control(
        &self,
        initial_s: Option<i64>,
        increment_s: Option<i64>,
        days: Option<i64>,
    ) -> Result<Option<TimeControl>, StoreError> {
        match (initial_s, increment_s, days) {
            (None, None, None) => Ok(None),
            (Some(i), Some(inc), None) => Ok(Some(TimeControl::Clock {
                initial_s: self.count(i, "clock initial")?,
                increment_s: self.count(inc, "clock increment")?,
            })),
            (None, None, Some(d)) => Ok(Some(TimeControl::Days {
                days: self.count(d, "clock days")?,
            })),
            _ => Err(self.corrupt("clock settings".into())),
        }
    }

    /// The clock from its columns.
    #[allow(clippy::too_many_arguments)]
    pub fn clock(
        &self,
        initial_s: Option<i64>,
        increment_s: Option<i64>,
        days: Option<i64>,
        white_ms: Option<i64>,
        black_ms: Option<i64>,
        turn_started_at: Option<i64>,
    ) -> Result<Option<Clock>, StoreError> {
        let Some(control) = self.time_control(initial_s, increment_s, days)? else {
            return Ok(None);
        };
        match (white_ms, black_ms, turn_started_at) {
            (Some(w), Some(b), Some(t)) => Ok(Some(Clock {
                control,
                remaining: [w, b],
                turn_started_at: t,
            })),
            _ => Err(self.corrupt("clock times".into())),
        }
    }

    pub fn moves(&self, texts: Vec<String>) -> Result<Vec<Move>, StoreError> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                t.parse()
                    .map_err(|e| self.corrupt(format!("move {}: {e}", i + 1)))
            })
            .collect()
    }
}
