//! The body of every error answer, `{"code": ..., "message": ...}`, and its stable codes
//! (`docs/api.md`, section 2), each with the HTTP status that goes with it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The stable codes of API errors (see `docs/api.md`, section 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The body is not JSON of the expected shape.
    MalformedJson,
    /// A query parameter or path segment is malformed.
    BadRequest,
    /// The move text is not a move.
    BadNotation,
    /// The action needs a seat token and none was sent.
    TokenMissing,
    /// The token is not one of this game's.
    TokenInvalid,
    /// The token holds no seat that may do this.
    NotYourSeat,
    /// The join code is wrong.
    JoinCodeInvalid,
    /// No game has this id.
    GameNotFound,
    /// No such endpoint.
    NotFound,
    /// The endpoint exists, but not with this method.
    MethodNotAllowed,
    /// It is the other side's turn.
    NotYourTurn,
    /// The request's move number is not the next one.
    StaleState,
    /// The game is finished.
    GameOver,
    /// A rematch of a game that goes on.
    GameNotOver,
    /// The join code was used already.
    SeatTaken,
    /// No move of the caller to take back.
    NothingToUndo,
    /// No undo offer from the other side.
    NoUndoOffer,
    /// An undo offer is already pending.
    UndoOfferPending,
    /// This seat already has its rematch grant.
    RematchTaken,
    /// Moves cannot be taken back in this game (it is on a clock).
    UndoNotAllowed,
    /// The action needs an account and the request has no session.
    NotLoggedIn,
    /// A write with a session cookie came without the session's `X-CSRF-Token`.
    CsrfFailed,
    /// The name and password do not match an account.
    LoginFailed,
    /// The name is taken (names are unique ignoring case).
    NameTaken,
    /// The name or password breaks the rules for accounts.
    InvalidAccount,
    /// No player has this name.
    PlayerNotFound,
    /// No open seek or challenge has this id.
    SeekNotFound,
    /// The seek is not open to this player (their own, another's challenge, out of rating range).
    SeekNotForYou,
    /// The win cannot be claimed: the other side is not away long enough on its turn in a game
    /// on a real-time clock.
    ClaimNotAllowed,
    /// The body is too large.
    PayloadTooLarge,
    /// The body is not sent as JSON.
    UnsupportedMediaType,
    /// The move is not legal here.
    IllegalMove,
    /// The game settings are inconsistent or out of range.
    InvalidSettings,
    /// The setup position is unreadable or no valid start.
    InvalidSetup,
    /// The imported record cannot be read.
    InvalidRecord,
    /// Too many requests from one address.
    RateLimited,
    /// Too many open connections or WebSockets from one address, or in all.
    TooManyConnections,
    /// The request line's target is too long.
    UriTooLong,
    /// The request's headers are too large.
    HeadersTooLarge,
    /// The request was not sent in time.
    RequestTimeout,
    /// The database failed.
    Internal,
    /// The database cannot be reached now; nothing was changed.
    Unavailable,
    /// A queue of work is full (analysis); try again later.
    Busy,
    /// The server is stopping.
    ShuttingDown,
    /// A draw offer where none can be made: not a game between two people with one seat each.
    DrawNotAllowed,
    /// The caller's draw offer stands already.
    DrawOfferPending,
    /// The caller's last draw offer was declined a few moves ago: not again yet.
    DrawOfferTooSoon,
    /// No draw offer from the other side to decline.
    NoDrawOffer,
    /// An abort after each side has made its first move.
    AbortTooLate,
    /// The password given to confirm an account's change is not the account's.
    WrongPassword,
    /// The account has no session with this id.
    SessionNotFound,
    // Chat, blocks, reports and moderation (issue 36).
    /// The chat line is empty once trimmed.
    ChatEmpty,
    /// The chat line is longer than 140 characters.
    ChatTooLong,
    /// The chat line holds control characters (line breaks, tabs, ...).
    ChatInvalid,
    /// The caller may not write (or read) this room of the game's chat.
    ChatNotAllowed,
    /// The player is blocked by the one they challenge, or by a player of the game they chat in.
    Blocked,
    /// The account is muted by a moderator: it cannot chat for now.
    Muted,
    /// The account was closed by a moderator.
    AccountClosed,
    /// The action is for moderators.
    NotModerator,
    /// No report has this id (or it is resolved already).
    ReportNotFound,
    /// The report is not valid (oneself, a text too long, a chat line of another game).
    InvalidReport,
    // Tournaments (issue 37).
    /// No tournament has this id.
    TournamentNotFound,
    /// A tournament's settings are not valid (name, format, clock, rounds or minutes, start).
    InvalidTournament,
    /// The account has as many tournaments created and not finished as it may (3).
    TooManyTournaments,
    /// The tournament's password is missing or wrong.
    TournamentPassword,
    /// The player's rating is below the tournament's minimum.
    RatingTooLow,
    /// The tournament does not take this now: it is full, finished, or has started (a start
    /// asked for), or the player is not in it (a withdrawal).
    TournamentClosed,
    /// Only the tournament's creator may do this.
    NotTournamentCreator,
    /// An abort, a rematch or a take-back in a tournament game.
    TournamentGame,
    // Tokens and bots (issue 38).
    /// The new token's description or scopes break the rules.
    InvalidToken,
    /// The account has 20 live tokens already: revoke one first.
    TooManyTokens,
    /// A personal token cannot do this: a page for the session cookie only, or outside its scopes.
    TokenNotAllowed,
    /// A bot plays only through the bot API, and not against a seek that refuses bots.
    BotNotAllowed,
    /// The account has played games: it cannot become a bot.
    AccountHasGames,
    // Puzzles (issue 39).
    /// No puzzle has this id, or none is left to offer with these choices.
    PuzzleNotFound,
    /// An attempt's or a hint's moves are not valid: empty, too many, not moves, illegal where
    /// they are played, or a hint asked after a wrong move.
    InvalidAttempt,
    // Fair play (issue 51).
    /// The position stands in a rated game being played, or is one of its images under the
    /// board's symmetries, or one move from it: the engine does not look at it until that game
    /// is over.
    LiveGamePosition,
}

impl ErrorCode {
    /// The HTTP status that goes with the code.
    pub const fn http_status(self) -> u16 {
        use ErrorCode::*;
        match self {
            MalformedJson | BadRequest | BadNotation => 400,
            TokenMissing | NotLoggedIn | LoginFailed => 401,
            TokenInvalid | NotYourSeat | JoinCodeInvalid | CsrfFailed | SeekNotForYou
            | WrongPassword | ChatNotAllowed | Blocked | Muted | AccountClosed | NotModerator
            | TournamentPassword | RatingTooLow | NotTournamentCreator | TokenNotAllowed
            | BotNotAllowed | LiveGamePosition => 403,
            GameNotFound | NotFound | PlayerNotFound | SeekNotFound | SessionNotFound
            | ReportNotFound | TournamentNotFound | PuzzleNotFound => 404,
            MethodNotAllowed => 405,
            NotYourTurn | StaleState | GameOver | GameNotOver | SeatTaken | NothingToUndo
            | NoUndoOffer | UndoOfferPending | RematchTaken | UndoNotAllowed | NameTaken
            | ClaimNotAllowed | DrawNotAllowed | DrawOfferPending | DrawOfferTooSoon
            | NoDrawOffer | AbortTooLate | TooManyTournaments | TournamentClosed
            | TournamentGame | TooManyTokens | AccountHasGames => 409,
            PayloadTooLarge => 413,
            UnsupportedMediaType => 415,
            IllegalMove | InvalidSettings | InvalidSetup | InvalidRecord | InvalidAccount
            | ChatEmpty | ChatTooLong | ChatInvalid | InvalidReport | InvalidTournament
            | InvalidToken | InvalidAttempt => 422,
            RateLimited | TooManyConnections => 429,
            UriTooLong => 414,
            HeadersTooLarge => 431,
            RequestTimeout => 408,
            Internal => 500,
            Unavailable | Busy | ShuttingDown => 503,
        }
    }
}

/// The body of every error answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// Stable, for programs.
    pub code: ErrorCode,
    /// English, for people.
    pub message: String,
    /// With `invalid_account`: which rule the name or password breaks, one of [`Rule`]'s names
    /// (`password_common`, `name_reserved`, ...), so that a page can say it in its language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
}

impl ErrorBody {
    /// A body with a code and a message (and no rule).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            code,
            message: message.into(),
            rule: None,
        }
    }
}

/// The rules of account names and passwords, named in an `invalid_account` error's `rule`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A name has 3 to 20 characters.
    NameLength,
    /// A name starts with a letter.
    NameStart,
    /// A name has only letters a-z, digits, `_` and `-`.
    NameCharacters,
    /// The name is reserved (it reads as something other than a person, or it belonged to a
    /// deleted account).
    NameReserved,
    /// A name has no control characters.
    NameControl,
    /// A password has at least 8 characters.
    PasswordShort,
    /// A password has at most 128 characters.
    PasswordLong,
    /// A password does not contain the name.
    PasswordHasName,
    /// A password is not one of the most common ones.
    PasswordCommon,
    /// A password is not one character repeated.
    PasswordRepeated,
}
