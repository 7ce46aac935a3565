//! The server's game: settings, seats and the rules of acting on a game (who may move, resign,
//! take back), with no I/O. [`LiveGame`] is what the [`games`](crate::services::games) service
//! keeps in memory for each game it serves, and what the [`store`](crate::store) saves and loads.
//!
//! This is the bottom layer of the server: it uses the rules crate (and the words of a game
//! that its JSON shows too, from `mabula-api`) and nothing else of this one. An action the rules of acting forbid is answered with a [`Refusal`]; [`Seats`] says which
//! sides a caller holds.

pub mod clock;
pub mod fair_play;
pub mod rating;
mod refusal;
mod seats;
pub mod tournament;

pub use clock::{Clock, Due, Speed, TimeControl};
pub use refusal::Refusal;
pub use seats::{Seats, TokenHash};

// The words of a game that its JSON shows too are the API crate's (the model keeps them as
// they are written on the wire); `Side` is how the OpenAPI document names a colour.
pub use mabula_api::game::{EndReason, EngineSettings, Mode, PairHalf, SideSchema, UndoOffer};

use mabula::{Color, Game, GameResult, Move};

/// How long a player of a real-time game must be away, on their own turn, before the other
/// player may claim the win (ms).
pub const CLAIM_AFTER_MS: i64 = 30_000;

/// Moves (plies) to be played after a side's draw offer was declined before that side may offer
/// again: two moves each.
pub const DRAW_AGAIN_AFTER: u32 = 4;

/// The index of `color` in per-side arrays (White 0, Black 1).
const fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub use crate::clock::now_ms;

/// A player with an account in one seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The account's key: its name in lower case.
    pub key: String,
    /// The name as its owner wrote it.
    pub name: String,
    /// The rating when the game began (rated games).
    pub rating: Option<i32>,
    /// Whether that rating was provisional.
    pub provisional: bool,
    /// How much the game moved the rating, once it is rated.
    pub diff: Option<i32>,
    /// A bot account (issue 38; for ever once made, so read from the account, never stored).
    pub bot: bool,
}

/// A game as the server keeps it: settings, seats, the moves and the state around them.
#[derive(Clone, Debug)]
pub struct LiveGame {
    /// Public id, 10 characters `[a-z0-9]`.
    pub id: String,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// Who plays.
    pub mode: Mode,
    /// The deal's seed; `None` for a given setup or an import.
    pub seed: Option<u64>,
    /// The engine's seat, in engine games.
    pub engine: Option<EngineSettings>,
    /// Hash of the token holding white's seat (`None`: the engine's, or free).
    pub white_token: Option<TokenHash>,
    /// Hash of the token holding black's seat.
    pub black_token: Option<TokenHash>,
    /// Hash of the join code of a friend game's free seat, until it is used.
    pub join_code: Option<TokenHash>,
    /// The rules' record of the game: start, scoring, moves, declared result.
    pub game: Game,
    /// How many times moves were taken back (clients resync on a change).
    pub epoch: u32,
    /// The stored row's version: every change adds one, and is stored only if the row still has
    /// the version it was computed from.
    pub version: u64,
    /// Why the game ended, once it did.
    pub end_reason: Option<EndReason>,
    /// The rematch game, once asked for.
    pub rematch_id: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// A pending undo request (friend games).
    pub undo_offer: Option<UndoOffer>,
    /// The side whose draw offer stands: until the other side moves, accepts or declines.
    pub draw_offer: Option<Color>,
    /// For White and Black, the move count when their last draw offer was declined: they may
    /// offer again [`DRAW_AGAIN_AFTER`] moves later (so a declined offer is not repeated at
    /// every move).
    pub draw_refused: [Option<u32>; 2],
    /// Hints asked for by White and by Black (games against the engine).
    pub hints: [u32; 2],
    /// The game's place in a duplicate pair, if it is part of one.
    pub pair: Option<PairHalf>,
    /// The first game's result, in the second game of a pair (not stored: read from the first
    /// game, whose result no longer changes).
    pub pair_first: Option<GameResult>,
    /// The players with accounts in White's and Black's seats.
    pub players: [Option<Player>; 2],
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The clock, in timed games.
    pub clock: Option<Clock>,
    /// The tournament the game belongs to (issue 37): no abort and no rematch in it. A side that
    /// does not make its first move in time calls it off, as in any game; the tournament counts
    /// that as a missed game (a loss in a Swiss tournament, a pause in an arena).
    pub tournament: Option<String>,
}

impl LiveGame {
    /// Whether the game is over: finished by the rules or a result, or aborted.
    pub fn is_over(&self) -> bool {
        self.game.is_finished() || self.end_reason == Some(EndReason::Aborted)
    }

    /// The side to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<Color> {
        (!self.is_over()).then(|| self.game.position().side_to_move())
    }

    /// The player with an account in `color`'s seat.
    pub fn player(&self, color: Color) -> Option<&Player> {
        self.players[match color {
            Color::White => 0,
            Color::Black => 1,
        }]
        .as_ref()
    }

    /// The seats the account `key` holds.
    pub fn seats_of_account(&self, key: &str) -> Seats {
        let holds = |c| self.player(c).is_some_and(|p| p.key == key);
        Seats {
            white: holds(Color::White),
            black: holds(Color::Black),
        }
    }

    /// When the clock runs out next and what happens then (`None`: no clock, or the game is
    /// over).
    pub fn deadline(&self) -> Option<(i64, Due)> {
        let clock = self.clock.as_ref()?;
        let turn = self.to_move()?;
        Some(clock.deadline(turn, self.game.moves().len()))
    }

    /// Whether the clock has run out at `now`, and what that means.
    pub fn due(&self, now: i64) -> Option<Due> {
        self.deadline().filter(|&(at, _)| at <= now).map(|(_, d)| d)
    }

    /// Applies what the clock says at `now`: a timed-out side loses, a game not begun in time is
    /// aborted.
    pub fn apply_due(&mut self, due: Due, now: i64) {
        match due {
            Due::Abort => self.end_reason = Some(EndReason::Aborted),
            Due::Flag(color) => {
                self.game.declare(match color {
                    Color::White => GameResult::BlackWins,
                    Color::Black => GameResult::WhiteWins,
                });
                self.end_reason = Some(match color {
                    Color::White => EndReason::TimeoutWhite,
                    Color::Black => EndReason::TimeoutBlack,
                });
            }
        }
        if let Some(c) = &mut self.clock
            && let Due::Flag(color) = due
        {
            let i = usize::from(color == Color::Black);
            c.remaining[i] = 0;
        }
        self.undo_offer = None;
        self.draw_offer = None;
        self.updated_at = now;
    }

    /// The seat kind: whether `color` is the engine's.
    pub fn is_engine(&self, color: Color) -> bool {
        self.engine.is_some_and(|e| e.color == color)
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        self.to_move().is_some_and(|c| self.is_engine(c))
    }

    /// The token hash of a seat.
    pub fn token_of(&self, color: Color) -> Option<&TokenHash> {
        match color {
            Color::White => self.white_token.as_ref(),
            Color::Black => self.black_token.as_ref(),
        }
    }

    /// The end reason the current state implies (the rules' end wins over nothing).
    fn refresh_end(&mut self) {
        if self.end_reason.is_none() && self.game.position().is_game_over() {
            self.end_reason = Some(EndReason::NoMoves);
        }
    }

    /// Checks that the holder of `seats` may play `text` at `now` (ms) as move number `number`
    /// and returns the move. Nothing changes.
    pub fn check_move(
        &self,
        seats: Seats,
        text: &str,
        number: Option<u32>,
        now: i64,
    ) -> Result<Move, Refusal> {
        if self.is_over() {
            return Err(Refusal::MoveAfterEnd(self.game.result()));
        }
        if self.due(now).is_some() {
            return Err(Refusal::OutOfTime);
        }
        let next = self.game.moves().len() as u32 + 1;
        if let Some(sent) = number
            && sent != next
        {
            return Err(Refusal::StaleMoveNumber { next, sent });
        }
        let turn = self.game.position().side_to_move();
        if !seats.holds(turn) {
            return Err(Refusal::NotYourTurn {
                turn,
                engine: self.is_engine(turn),
            });
        }
        let mv: Move = text.parse().map_err(Refusal::BadNotation)?;
        if let Err(e) = self.game.position().play(mv) {
            return Err(Refusal::IllegalMove(e));
        }
        Ok(mv)
    }

    /// Plays a checked move (see [`LiveGame::check_move`]); withdraws any undo offer and runs
    /// the clock.
    pub fn apply_move(&mut self, mv: Move, now: i64) -> Result<(), Refusal> {
        let mover = self.game.position().side_to_move();
        let played = self.game.moves().len();
        self.game.play(mv).map_err(Refusal::IllegalMove)?;
        if let Some(c) = &mut self.clock {
            *c = c.after_move(mover, played, now);
        }
        self.undo_offer = None;
        // A move of the side an offer was made to answers it: declined by playing on.
        if self.draw_offer.is_some_and(|by| by != mover) {
            self.draw_offer = None;
        }
        self.updated_at = now;
        self.refresh_end();
        Ok(())
    }

    /// Checks a resignation and says who resigns: `side` if given, else the only seat held,
    /// else (a local game) the side to move.
    pub fn check_resign(&self, seats: Seats, side: Option<Color>) -> Result<Color, Refusal> {
        if self.is_over() {
            return Err(Refusal::ResignAfterEnd);
        }
        let color = match (side, seats.only()) {
            (Some(c), _) => c,
            (None, Some(c)) => c,
            (None, None) => self.game.position().side_to_move(),
        };
        if !seats.holds(color) {
            return Err(Refusal::NotYourSeat(color));
        }
        Ok(color)
    }

    /// Ends the game by `color`'s resignation.
    pub fn resign(&mut self, color: Color, now: i64) {
        self.forfeit(color, EndReason::resigned(color), now);
    }

    /// Ends the game as lost by `color`, for `reason`.
    fn forfeit(&mut self, color: Color, reason: EndReason, now: i64) {
        let result = match color {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        };
        self.end_with(result, reason, now);
    }

    /// Ends the game with `result` for `reason` (a declared end: resignation, claim, draw).
    fn end_with(&mut self, result: GameResult, reason: EndReason, now: i64) {
        // The side to move used its time until now: the stopped clock shows what it has left.
        let (turn, moves) = (self.to_move(), self.game.moves().len());
        if let (Some(c), Some(turn)) = (&mut self.clock, turn) {
            c.remaining[usize::from(turn == Color::Black)] =
                c.left_at(turn, Some(turn), moves, now);
            c.turn_started_at = now;
        }
        self.game.declare(result);
        self.end_reason = Some(reason);
        self.undo_offer = None;
        self.draw_offer = None;
        self.updated_at = now;
    }

    /// Checks a draw offer (`POST /draw`) of the holder of `seats`: answers their side and
    /// whether the request accepts the other side's standing offer (else it is a new offer).
    /// Only a game between two people, each holding one seat, has draw offers; a side may not
    /// offer while its offer stands, nor for [`DRAW_AGAIN_AFTER`] moves after one was declined.
    pub fn check_draw(&self, seats: Seats) -> Result<(Color, bool), Refusal> {
        if self.is_over() {
            return Err(Refusal::DrawAfterEnd);
        }
        let me = match seats.only() {
            Some(c) if self.mode == Mode::Friend && !self.is_engine(c.other()) => c,
            _ => return Err(Refusal::DrawNotBetweenPlayers),
        };
        match self.draw_offer {
            Some(by) if by != me => return Ok((me, true)),
            Some(_) => return Err(Refusal::DrawOfferPending),
            None => {}
        }
        let played = self.game.moves().len() as u32;
        if let Some(at) = self.draw_refused[side_index(me)]
            && played < at + DRAW_AGAIN_AFTER
        {
            return Err(Refusal::DrawTooSoon {
                moves: at + DRAW_AGAIN_AFTER - played,
            });
        }
        Ok((me, false))
    }

    /// `by` offers a draw (checked with [`LiveGame::check_draw`]).
    pub fn offer_draw(&mut self, by: Color) {
        self.draw_offer = Some(by);
    }

    /// Ends the game as a draw agreed by both sides.
    pub fn agree_draw(&mut self, now: i64) {
        self.end_with(GameResult::Draw, EndReason::DrawAgreed, now);
    }

    /// Checks that the holder of `seats` may decline the other side's draw offer; answers the
    /// side that offered.
    pub fn check_decline_draw(&self, seats: Seats) -> Result<Color, Refusal> {
        if self.is_over() {
            return Err(Refusal::DrawAfterEnd);
        }
        let me = seats.only().ok_or(Refusal::DrawNotBetweenPlayers)?;
        match self.draw_offer {
            Some(by) if by != me => Ok(by),
            _ => Err(Refusal::NoDrawOffer),
        }
    }

    /// Declines `by`'s draw offer: it is withdrawn, and `by` waits [`DRAW_AGAIN_AFTER`] moves
    /// before offering again.
    pub fn decline_draw(&mut self, by: Color) {
        self.draw_offer = None;
        self.draw_refused[side_index(by)] = Some(self.game.moves().len() as u32);
    }

    /// Checks that the holder of `seats` may abort the game: a player (of any seat) while fewer
    /// than two moves have been played, that is before each side has made its first move (as on
    /// lichess; a pass counts as a move).
    pub fn check_abort(&self, seats: Seats) -> Result<(), Refusal> {
        if self.tournament.is_some() {
            return Err(Refusal::InTournament);
        }
        if self.is_over() {
            return Err(Refusal::AbortAfterEnd);
        }
        if seats.is_empty() {
            return Err(Refusal::NotYourSeat(self.game.position().side_to_move()));
        }
        if self.game.moves().len() >= 2 {
            return Err(Refusal::AbortTooLate);
        }
        Ok(())
    }

    /// Aborts the game: it ends with no result (`aborted`), and a rated game is not rated.
    pub fn abort(&mut self, now: i64) {
        self.end_reason = Some(EndReason::Aborted);
        self.undo_offer = None;
        self.draw_offer = None;
        self.updated_at = now;
    }

    /// Whether a player who leaves this game may be claimed against: it is on a real-time
    /// clock and not over.
    pub fn is_claimable(&self) -> bool {
        !self.is_over()
            && self
                .clock
                .is_some_and(|c| c.control.speed() == Speed::Realtime)
    }

    /// Checks that the holder of `seats` may claim the win because the other side left: a game
    /// on a real-time clock past its first two moves, the other side to move and away since
    /// `away_since` (ms; `None`: not known to be away) for [`CLAIM_AFTER_MS`] at `now`. Answers
    /// the side that left.
    pub fn check_claim(
        &self,
        seats: Seats,
        away_since: Option<i64>,
        now: i64,
    ) -> Result<Color, Refusal> {
        if self.is_over() {
            return Err(Refusal::ClaimAfterEnd);
        }
        if !self.is_claimable() || self.game.moves().len() < 2 {
            return Err(Refusal::ClaimNotOnClock);
        }
        let Some(me) = seats.only() else {
            return Err(Refusal::ClaimNotOnClock);
        };
        let away = me.other();
        if self.to_move() != Some(away) {
            return Err(Refusal::ClaimOnOwnTurn);
        }
        let Some(since) = away_since else {
            return Err(Refusal::ClaimOpponentHere);
        };
        let wait = since + CLAIM_AFTER_MS - now;
        if wait > 0 {
            return Err(Refusal::ClaimTooEarly {
                seconds: (wait + 999) / 1000,
            });
        }
        Ok(away)
    }

    /// Ends the game as lost by `color`, who left it (see [`LiveGame::check_claim`]).
    pub fn abandon(&mut self, color: Color, now: i64) {
        let reason = match color {
            Color::White => EndReason::AbandonedWhite,
            Color::Black => EndReason::AbandonedBlack,
        };
        self.forfeit(color, reason, now);
    }

    /// How many moves to take back so that it is `seats`' turn again before their last move.
    /// In a local game (both seats held) that is just the last move.
    pub fn undo_count(&self, seats: Seats) -> Result<u32, Refusal> {
        if self.is_over() {
            return Err(Refusal::UndoAfterEnd);
        }
        if self.clock.is_some() {
            return Err(Refusal::UndoOnTheClock);
        }
        let moves = self.game.moves().len();
        if seats.white && seats.black {
            return match moves {
                0 => Err(Refusal::NothingPlayed),
                _ => Ok(1),
            };
        }
        let positions = self.game.positions();
        let last_own = (0..moves)
            .rev()
            .find(|&i| seats.holds(positions[i].side_to_move()));
        match last_own {
            Some(i) => Ok((moves - i) as u32),
            None => Err(Refusal::NoOwnMove),
        }
    }

    /// Checks that the holder of `seats` may ask for a hint now: in a game against the engine,
    /// on their own turn. Answers the side asking.
    pub fn check_hint(&self, seats: Seats) -> Result<Color, Refusal> {
        if self.mode != Mode::Engine {
            return Err(Refusal::HintNotAgainstEngine);
        }
        let Some(color) = self.to_move() else {
            return Err(Refusal::HintAfterEnd(self.game.result()));
        };
        if !seats.holds(color) || self.is_engine(color) {
            return Err(Refusal::HintNotYourTurn);
        }
        Ok(color)
    }

    /// Checks that a new undo offer may be made (none is pending).
    pub fn check_undo_offer(&self) -> Result<(), Refusal> {
        if self.tournament.is_some() {
            return Err(Refusal::InTournament);
        }
        match self.undo_offer {
            Some(_) => Err(Refusal::UndoOfferPending),
            None => Ok(()),
        }
    }

    /// Checks that the holder of `seats` may accept the pending undo offer, and answers it.
    pub fn check_accept_undo(&self, seats: Seats) -> Result<UndoOffer, Refusal> {
        let offer = self.undo_offer.ok_or(Refusal::NoUndoOffer)?;
        if seats.holds(offer.by) {
            return Err(Refusal::OwnUndoOffer);
        }
        Ok(offer)
    }

    /// Checks that an undo offer is pending (to decline or withdraw it).
    pub fn check_decline_undo(&self) -> Result<(), Refusal> {
        self.undo_offer.map(|_| ()).ok_or(Refusal::NoUndoOffer)
    }

    /// Checks a join code (`code_ok`: it matches this game's) and answers the free seat it opens
    /// in a friend game.
    pub fn check_join(&self, code_ok: bool) -> Result<Color, Refusal> {
        if self.mode != Mode::Friend || !code_ok {
            return Err(Refusal::JoinCodeInvalid);
        }
        let free = |c: Color| self.token_of(c).is_none() && self.player(c).is_none();
        Color::BOTH
            .into_iter()
            .find(|&c| free(c))
            .ok_or(Refusal::SeatTaken)
    }

    /// Checks that a rematch may be asked for (the game is over).
    pub fn check_rematch(&self) -> Result<(), Refusal> {
        if self.tournament.is_some() {
            return Err(Refusal::InTournament);
        }
        if self.game.is_finished() {
            Ok(())
        } else {
            Err(Refusal::RematchBeforeEnd)
        }
    }

    /// Checks that `color`'s seat of this game (a rematch) is still to be handed out.
    pub fn check_rematch_seat(&self, color: Color) -> Result<(), Refusal> {
        match self.token_of(color) {
            Some(_) => Err(Refusal::RematchTaken),
            None => Ok(()),
        }
    }

    /// Takes back the last `count` moves; the epoch grows by one.
    pub fn take_back(&mut self, count: u32, now: i64) {
        for _ in 0..count {
            self.game.undo();
        }
        self.epoch += 1;
        self.undo_offer = None;
        self.draw_offer = None;
        self.end_reason = None;
        self.updated_at = now;
    }
}

/// Games for unit tests.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;

    /// A local game from deal 3, white to move.
    pub(crate) fn local_game() -> LiveGame {
        let start = mabula::deal::random(3, Color::White);
        LiveGame {
            id: "abcdefghij".into(),
            created_at: 0,
            updated_at: 0,
            mode: Mode::Local,
            seed: Some(3),
            engine: None,
            white_token: Some([1; 32]),
            black_token: Some([1; 32]),
            join_code: None,
            game: Game::new(start, mabula::Scoring::Largest),
            epoch: 0,
            version: 0,
            end_reason: None,
            rematch_id: None,
            rematch_of: None,
            undo_offer: None,
            draw_offer: None,
            draw_refused: [None, None],
            hints: [0, 0],
            pair: None,
            pair_first: None,
            players: [None, None],
            rated: false,
            clock: None,
            tournament: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::local_game;
    use super::*;

    #[test]
    fn a_move_out_of_turn_is_refused_before_its_legality_is_checked() {
        let g = local_game();
        let black_only = Seats {
            white: false,
            black: true,
        };
        let err = g
            .check_move(black_only, "zz", None, 0)
            .expect_err("not black's turn");
        assert_eq!(
            err,
            Refusal::NotYourTurn {
                turn: Color::White,
                engine: false
            }
        );
    }

    #[test]
    fn a_stale_move_number_is_refused() {
        let g = local_game();
        let both = Seats {
            white: true,
            black: true,
        };
        let mv = g.game.position().legal_moves()[0].to_string();
        assert_eq!(
            g.check_move(both, &mv, Some(2), 0).expect_err("stale"),
            Refusal::StaleMoveNumber { next: 1, sent: 2 }
        );
        assert!(g.check_move(both, &mv, Some(1), 0).is_ok());
    }

    #[test]
    fn undo_takes_back_to_before_the_callers_last_move() {
        let mut g = local_game();
        for _ in 0..3 {
            let mv = g.game.position().legal_moves()[0];
            g.apply_move(mv, 1).expect("legal");
        }
        let white = Seats {
            white: true,
            black: false,
        };
        let black = Seats {
            white: false,
            black: true,
        };
        assert_eq!(g.undo_count(white).expect("white moved"), 1);
        assert_eq!(g.undo_count(black).expect("black moved"), 2);
        g.take_back(2, 2);
        assert_eq!((g.game.moves().len(), g.epoch), (1, 1));
    }

    #[test]
    fn resigning_ends_the_game_for_the_other_side() {
        let mut g = local_game();
        let both = Seats {
            white: true,
            black: true,
        };
        let color = g.check_resign(both, None).expect("may resign");
        assert_eq!(color, Color::White);
        g.resign(color, 5);
        assert_eq!(g.game.result(), GameResult::BlackWins);
        assert_eq!(
            g.check_resign(both, None).expect_err("over"),
            Refusal::ResignAfterEnd
        );
    }

    #[test]
    fn a_player_away_on_their_turn_is_claimed_against_after_the_wait() {
        let mut g = local_game();
        let white = Seats {
            white: true,
            black: false,
        };
        let black = Seats {
            white: false,
            black: true,
        };
        // No clock: no claim.
        assert_eq!(
            g.check_claim(white, Some(0), CLAIM_AFTER_MS),
            Err(Refusal::ClaimNotOnClock)
        );
        let control = TimeControl::Clock {
            initial_s: 180,
            increment_s: 2,
        };
        g.clock = Some(Clock::new(control, 0));
        let play = |g: &mut LiveGame| {
            let mv = g.game.position().legal_moves()[0];
            g.apply_move(mv, 1).expect("legal");
        };
        play(&mut g);
        // Before two moves the abort rule applies, not a claim.
        assert_eq!(
            g.check_claim(white, Some(0), CLAIM_AFTER_MS),
            Err(Refusal::ClaimNotOnClock)
        );
        play(&mut g);
        play(&mut g);
        // Black to move: White may claim once Black has been away long enough.
        assert_eq!(
            g.check_claim(black, Some(0), CLAIM_AFTER_MS),
            Err(Refusal::ClaimOnOwnTurn)
        );
        assert_eq!(
            g.check_claim(white, None, CLAIM_AFTER_MS),
            Err(Refusal::ClaimOpponentHere)
        );
        assert_eq!(
            g.check_claim(white, Some(1000), 1000 + CLAIM_AFTER_MS - 1500),
            Err(Refusal::ClaimTooEarly { seconds: 2 })
        );
        let away = g
            .check_claim(white, Some(1000), 1000 + CLAIM_AFTER_MS)
            .expect("claimable");
        assert_eq!(away, Color::Black);
        g.abandon(away, 1000 + CLAIM_AFTER_MS);
        assert_eq!(g.game.result(), GameResult::WhiteWins);
        let clock = g.clock.expect("clock");
        assert_eq!(
            clock.left(Color::Black),
            180_000 - (1000 + CLAIM_AFTER_MS - 1),
            "the time Black used until the claim is charged"
        );
        assert_eq!(g.end_reason, Some(EndReason::AbandonedBlack));
        assert_eq!(
            g.check_claim(white, Some(0), CLAIM_AFTER_MS),
            Err(Refusal::ClaimAfterEnd)
        );
    }
}
