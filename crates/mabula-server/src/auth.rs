//! Seat tokens and join codes: making them, hashing them, comparing them; and game ids.
//!
//! A token is 256 random bits from the thread-local CSPRNG (ChaCha seeded by the OS), written as
//! 64 hex digits; a join code is 128 bits. Only their SHA-256 hashes are stored, so a copy of the
//! database grants no seat. Hashes are compared with [`subtle`]'s constant-time equality, always
//! against both seats, so the time taken does not tell which comparison failed.

use crate::model::{LiveGame, Seats, TokenHash};
use rand::Rng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A new secret of `bytes` random bytes, as lower-case hex.
pub fn new_secret(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex(&buf)
}

/// A new seat token: 256 random bits.
pub fn new_token() -> String {
    new_secret(32)
}

/// A new join code: 128 random bits.
pub fn new_join_code() -> String {
    new_secret(16)
}

/// A new public game id: 10 characters `[a-z0-9]` (about 51 bits).
pub fn new_game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..10)
        .map(|_| ALPHABET[(rng.next_u32() % 36) as usize] as char)
        .collect()
}

/// The id of the rematch of game `id`: the same on every instance, so that two players asking
/// for the rematch at once on two instances make one game (the second insert finds it there).
/// Like a new id, 10 characters `[a-z0-9]`; anyone who sees the game sees its rematch anyway.
pub fn rematch_game_id(id: &str) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let digest = Sha256::digest(format!("rematch of {id}").as_bytes());
    digest[..10]
        .iter()
        .map(|b| ALPHABET[(*b % 36) as usize] as char)
        .collect()
}

/// The id of game `half` (0 or 1) of pairing (`round`, `board`) of tournament `tournament`:
/// the same on every instance, so that the instances that create it create one game.
pub fn tournament_game_id(tournament: &str, round: u32, board: u32, half: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let digest = Sha256::digest(format!("tournament {tournament} {round} {board} {half}"));
    digest[..10]
        .iter()
        .map(|b| ALPHABET[(*b % 36) as usize] as char)
        .collect()
}

/// Whether `id` has the shape of a game id (checked before any lookup).
pub fn is_game_id(id: &str) -> bool {
    id.len() == 10
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// The hash under which a secret is stored.
pub fn hash(secret: &str) -> TokenHash {
    Sha256::digest(secret.trim().as_bytes()).into()
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Reads hex written by [`hex`].
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Whether the stored hash `stored` (if any) equals `given`, in constant time.
pub fn matches(stored: Option<&TokenHash>, given: &TokenHash) -> bool {
    match stored {
        Some(s) => bool::from(s.ct_eq(given)),
        None => {
            // Same work for an empty seat, so timing does not reveal which seats are taken.
            let _ = [0u8; 32].ct_eq(given);
            false
        }
    }
}

/// The seats `token` holds in `game`, compared in constant time against both seats.
pub fn seats_of(game: &LiveGame, token: &TokenHash) -> Seats {
    Seats {
        white: matches(game.white_token.as_ref(), token),
        black: matches(game.black_token.as_ref(), token),
    }
}

/// Who sends a request: the seat token it carries (hashed; `None` when none was sent) and the
/// account of its session, if it has a valid one. The API reads both from the request's
/// headers (see [`extract`](crate::extract)).
#[derive(Clone, Debug, Default)]
pub struct Caller {
    /// The seat token's hash.
    pub token: Option<TokenHash>,
    /// The key (lower-case name) of the session's account.
    pub account: Option<String>,
}

impl Caller {
    /// A caller with a token only.
    pub fn with_token(token: &str) -> Caller {
        Caller {
            token: Some(hash(token)),
            account: None,
        }
    }

    /// The seats the caller holds in `game`, by token or by account; [`MissingToken`] when it
    /// brings neither.
    pub fn seats(&self, game: &LiveGame) -> Result<Seats, MissingToken> {
        let mut seats = Seats::default();
        if self.token.is_none() && self.account.is_none() {
            return Err(MissingToken);
        }
        if let Some(t) = &self.token {
            seats = seats_of(game, t);
        }
        if let Some(a) = &self.account {
            let by_account = game.seats_of_account(a);
            seats.white |= by_account.white;
            seats.black |= by_account.black;
        }
        Ok(seats)
    }
}

/// A request's session, found from its cookie (the API puts it in the request's extensions).
#[derive(Clone, Debug)]
pub struct Session {
    /// The hash of the cookie's secret (the session's key in the database).
    pub id_hash: TokenHash,
    /// The account's key.
    pub key: String,
    /// The account's name.
    pub name: String,
    /// The token every write of this session sends in `X-CSRF-Token` (empty for a personal
    /// token).
    pub csrf: String,
    /// Whether the account is a bot (issue 38): a bot's cookie session plays no games.
    pub bot: bool,
    /// Set when the request came with a personal API token instead of the cookie.
    pub grant: Option<Grant>,
}

/// What a personal API token grants a request (issue 38).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    /// The token's id.
    pub id: String,
    /// Its scopes.
    pub scopes: Vec<String>,
}

impl Grant {
    /// Whether the token has `scope`.
    pub fn has(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

/// The prefix of every personal API token; seat tokens are plain hex and never have it.
pub const PERSONAL_PREFIX: &str = "mbp_";

/// A new personal API token: the prefix and 256 random bits.
pub fn new_personal_token() -> String {
    format!("{PERSONAL_PREFIX}{}", new_secret(32))
}

/// Whether `token` is a personal API token (by its prefix).
pub fn is_personal(token: &str) -> bool {
    token.starts_with(PERSONAL_PREFIX)
}

/// An action that needs a seat token was asked for without one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no seat token was sent")]
pub struct MissingToken;

/// The key of an account: its name in lower case (names are unique ignoring case).
pub fn account_key(name: &str) -> String {
    name.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_256_random_bits_and_codes_128() {
        let a = new_token();
        assert_eq!(a.len(), 64);
        assert_ne!(a, new_token());
        assert_eq!(new_join_code().len(), 32);
        assert_eq!(unhex(&a).map(|v| v.len()), Some(32));
    }

    #[test]
    fn a_token_matches_only_its_own_hash() {
        let t = new_token();
        let h = hash(&t);
        assert!(matches(Some(&h), &hash(&t)));
        assert!(!matches(Some(&h), &hash(&new_token())));
        assert!(!matches(None, &h));
    }

    #[test]
    fn game_ids_have_a_fixed_shape() {
        let id = new_game_id();
        assert!(is_game_id(&id), "{id}");
        assert!(!is_game_id("ABCDEFGHIJ"));
        assert!(!is_game_id("abc"));
    }
}
