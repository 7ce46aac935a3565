//! [`Refusal`]: every way the model says no to an action on a game.
//!
//! The model knows nothing of HTTP: the code and status each refusal is answered with are chosen
//! where it is turned into an API error (`impl From<Refusal> for ApiError` in
//! [`error`](crate::error)). The messages are written for people and sent as they are.

use mabula::{Color, GameResult, ParseMoveError, PlayError};

/// Why the model refuses a move, a resignation or a take-back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A move in a game that is over, with the result it ended with.
    #[error("the game is over ({0})")]
    MoveAfterEnd(GameResult),
    /// A resignation in a game that is over.
    #[error("the game is over already")]
    ResignAfterEnd,
    /// A take-back in a game that is over.
    #[error("the game is over: moves can no longer be taken back")]
    UndoAfterEnd,
    /// The move was sent with a number that is no longer the next one.
    #[error("this would be move {next}, not move {sent}: the game has moved on")]
    StaleMoveNumber {
        /// The number the next move gets.
        next: u32,
        /// The number the request gave.
        sent: u32,
    },
    /// The caller does not hold the side to move.
    #[error("it is {} turn", whose(.turn, .engine))]
    NotYourTurn {
        /// The side to move.
        turn: Color,
        /// Whether that side is the engine's.
        engine: bool,
    },
    /// The move text is not a move.
    #[error("{0}")]
    BadNotation(ParseMoveError),
    /// The move is not legal in the game's position.
    #[error("{0}")]
    IllegalMove(PlayError),
    /// A resignation for a side the caller does not hold.
    #[error("your token does not hold {0}'s seat, so it cannot resign for {0}")]
    NotYourSeat(Color),
    /// A take-back at one screen before any move.
    #[error("no move has been played yet")]
    NothingPlayed,
    /// A take-back in a game on a clock.
    #[error("moves cannot be taken back in a game on a clock")]
    UndoOnTheClock,
    /// A take-back by a player who has not moved yet.
    #[error("you have made no move to take back")]
    NoOwnMove,
    /// A move that arrived after the mover's time ran out.
    #[error("the time ran out before this move arrived")]
    OutOfTime,
    /// A hint in a game that is not against the engine.
    #[error("hints are only given in games against the engine")]
    HintNotAgainstEngine,
    /// A hint in a game that is over, with its result.
    #[error("the game is over ({0})")]
    HintAfterEnd(GameResult),
    /// A hint asked for on a turn that is not the caller's.
    #[error("a hint is for your own turn")]
    HintNotYourTurn,
    /// An offer to take back while one is offered already.
    #[error("an undo is already offered")]
    UndoOfferPending,
    /// An answer to an undo offer when none is offered.
    #[error("no undo is offered")]
    NoUndoOffer,
    /// An acceptance of one's own undo offer.
    #[error("you offered this undo: the other side accepts or declines it")]
    OwnUndoOffer,
    /// A join code that opens no seat of this game.
    #[error("this join code does not open a seat in this game")]
    JoinCodeInvalid,
    /// A join code whose seat was taken already.
    #[error("this join code was used already: the seat is taken")]
    SeatTaken,
    /// A rematch asked for before the game ended.
    #[error("a rematch can be asked for once the game is over")]
    RematchBeforeEnd,
    /// A seat in a rematch that was handed out already.
    #[error("your seat in the rematch was handed out already")]
    RematchTaken,
    /// A flag or an abort asked for while the clock still runs.
    #[error("the clock has not run out")]
    NotDue,
    /// A claim of the win in a game that is over.
    #[error("the game is over already")]
    ClaimAfterEnd,
    /// A claim of the win where none can be: no real-time clock, fewer than two moves played, or
    /// not a player of one side.
    #[error(
        "a win can be claimed only by one player of a game on a real-time clock after its first two moves"
    )]
    ClaimNotOnClock,
    /// A claim of the win on the claimant's own turn.
    #[error("it is your turn: the other side is not keeping you waiting")]
    ClaimOnOwnTurn,
    /// A claim of the win while the other side is connected.
    #[error("the other side is connected")]
    ClaimOpponentHere,
    /// A draw offer or answer in a game that is over.
    #[error("the game is over already")]
    DrawAfterEnd,
    /// A draw offer where none can be made.
    #[error("draws are offered only in a game between two people, by the holder of one seat")]
    DrawNotBetweenPlayers,
    /// A second draw offer while the caller's first one stands.
    #[error("your draw offer stands already: the other side accepts or declines it")]
    DrawOfferPending,
    /// A draw offer too soon after the caller's last one was declined.
    #[error("your last draw offer was declined: you may offer again after {moves} more moves")]
    DrawTooSoon {
        /// Moves (plies) still to be played first.
        moves: u32,
    },
    /// A decline where the other side has offered no draw.
    #[error("the other side has not offered a draw")]
    NoDrawOffer,
    /// An abort in a game that is over.
    #[error("the game is over already")]
    AbortAfterEnd,
    /// An abort after both sides have made their first move.
    #[error("a game can be aborted only before each side has made its first move")]
    AbortTooLate,
    /// An abort, a rematch or a take-back in a tournament game (issue 37).
    #[error("a tournament game cannot be aborted, taken back or played again")]
    InTournament,
    /// A claim of the win before the other side was away long enough.
    #[error("the other side left less than {} seconds ago: try again in {seconds} s", super::CLAIM_AFTER_MS / 1000)]
    ClaimTooEarly {
        /// Seconds until the claim may be made.
        seconds: i64,
    },
}

/// The owner of the turn, as the refusal names it.
fn whose(turn: &Color, engine: &bool) -> &'static str {
    if *engine { "the engine's" } else { turn.name() }
}
