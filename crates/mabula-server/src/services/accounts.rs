//! Accounts and sessions: signing up, logging in and out, and taking a guest's games into an
//! account. Guests keep playing with seat tokens as before; an account adds a name, ratings and
//! the right to act in one's games with the session alone.
//!
//! Passwords are hashed with argon2id (the `argon2` crate's defaults: 19 MiB, 2 passes) on a
//! blocking thread. A session is a random 256-bit secret in an HTTP-only cookie; only its
//! SHA-256 hash is stored, with the CSRF token that every write of the session must carry.
//! Failed log-ins are stored per name and per address, so the limit holds across instances.
//!
//! A device that logged in before holds a device cookie (OWASP's "device cookies"): a random
//! secret whose hash the store ties to the account. A log-in that brings the cookie of a device
//! trusted for that name is counted against that device alone, so strangers' failures, which
//! lock the name for every other client, never lock its owner out.
//!
//! Sign-ups are counted per client address in the store, and refused past
//! [`SIGNUPS_PER_ADDRESS_HOUR`] an hour before the password is hashed.

use super::cluster::Cluster;
use super::{Games, now_ms};
use crate::auth::{self, Caller, Session};
use crate::error::{ApiError, ErrorCode, Rule};
use crate::store::Notice;
use crate::store::StoreError;
use crate::store::accounts::{AccountRow, AccountsRepo};
use crate::store::quotas::Quotas;
use crate::store::sessions::SessionsRepo;
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use mabula_api::accounts::SessionInfo;
use std::sync::Arc;

/// The window over which failed log-ins are counted (ms).
const FAILURE_WINDOW_MS: i64 = 15 * 60 * 1000;

/// Failed log-ins allowed per name within the window.
const FAILURES_PER_NAME: u32 = 5;

/// How often a session's use is noted (ms): its last use and its account's sign of life.
pub const SEEN_EVERY_MS: i64 = 60 * 1000;

/// Failed log-ins allowed per address within the window.
const FAILURES_PER_ADDRESS: u32 = 20;

/// Failed log-ins allowed per trusted device within the window.
const FAILURES_PER_DEVICE: u32 = 5;

/// Accounts one client address may make in an hour, unless the operator says otherwise
/// (`mabula serve --signups-per-address-hour`).
pub const SIGNUPS_PER_ADDRESS_HOUR: u32 = 5;

/// The window over which sign-ups are counted (ms).
const SIGNUP_WINDOW_MS: i64 = 60 * 60 * 1000;

/// Names nobody may take: they read as something other than a person.
const RESERVED: &[&str] = &[
    "admin",
    "anonymous",
    "engine",
    "guest",
    "mabula",
    "player",
    "root",
    "system",
];

/// Passwords so common that they protect nothing.
const COMMON: &[&str] = &[
    "password",
    "password1",
    "12345678",
    "123456789",
    "1234567890",
    "qwertyuiop",
    "iloveyou",
    "11111111",
    "00000000",
    "abcdefgh",
    "letmein1",
    "sunshine",
    "football",
    "baseball",
    "princess",
    "passw0rd",
    "qwerty123",
    "mabula123",
];

/// The prefix of the names that replace deleted accounts' in their games; no new name has it.
pub const DELETED_PREFIX: &str = "deleted-";

/// The key of a name given to find an account (a login, a profile, a challenge), or `422
/// invalid_account` when it holds control characters: no account has them, and PostgreSQL
/// refuses NUL in text.
pub fn lookup_key(name: &str) -> Result<String, ApiError> {
    if name.chars().any(char::is_control) {
        return Err(ApiError::broken_rule(
            Rule::NameControl,
            "a name has no control characters",
        ));
    }
    Ok(auth::account_key(name.trim()))
}

/// Checks a new name: 3 to 20 letters, digits, `_` or `-`, starting with a letter, not
/// reserved. The error names the rule broken.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let n = name.chars().count();
    if !(3..=20).contains(&n) {
        return Err(ApiError::broken_rule(
            Rule::NameLength,
            "a name has 3 to 20 characters",
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(ApiError::broken_rule(
            Rule::NameStart,
            "a name starts with a letter",
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(ApiError::broken_rule(
            Rule::NameCharacters,
            "a name has only letters a-z, digits, '_' and '-'",
        ));
    }
    let key = auth::account_key(name);
    if RESERVED.contains(&key.as_str()) || key.starts_with(DELETED_PREFIX) {
        return Err(reserved(name));
    }
    Ok(())
}

fn reserved(name: &str) -> ApiError {
    ApiError::broken_rule(Rule::NameReserved, format!("the name '{name}' is reserved"))
}

/// Checks a new password: 8 to 128 characters, not containing the name, not one of the most
/// common ones, not one character repeated. The error names the rule broken.
pub fn check_password(name: &str, password: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if n < 8 {
        return Err(ApiError::broken_rule(
            Rule::PasswordShort,
            "a password has at least 8 characters",
        ));
    }
    if n > 128 {
        return Err(ApiError::broken_rule(
            Rule::PasswordLong,
            "a password has at most 128 characters",
        ));
    }
    let lower = password.to_lowercase();
    if lower.contains(&auth::account_key(name)) {
        return Err(ApiError::broken_rule(
            Rule::PasswordHasName,
            "the password must not contain the name",
        ));
    }
    if COMMON.contains(&lower.as_str()) {
        return Err(ApiError::broken_rule(
            Rule::PasswordCommon,
            "this password is among the most common ones: choose another",
        ));
    }
    let first = password.chars().next();
    if password.chars().all(|c| Some(c) == first) {
        return Err(ApiError::broken_rule(
            Rule::PasswordRepeated,
            "a password of one repeated character is too easy to guess",
        ));
    }
    Ok(())
}

/// A short label of the device a User-Agent names: `Firefox on Linux`, `Safari on iPhone`, or
/// the program's name (`curl`), at most 60 characters.
pub fn device_label(user_agent: &str) -> String {
    let ua = user_agent;
    let has = |s: &str| ua.contains(s);
    let browser = if has("Firefox/") {
        Some("Firefox")
    } else if has("Edg/") {
        Some("Edge")
    } else if has("OPR/") || has("Opera") {
        Some("Opera")
    } else if has("Chromium/") {
        Some("Chromium")
    } else if has("Chrome/") {
        Some("Chrome")
    } else if has("Safari/") {
        Some("Safari")
    } else {
        None
    };
    let system = if has("iPhone") {
        Some("iPhone")
    } else if has("iPad") {
        Some("iPad")
    } else if has("Android") {
        Some("Android")
    } else if has("CrOS") {
        Some("ChromeOS")
    } else if has("Windows") {
        Some("Windows")
    } else if has("Mac OS X") || has("Macintosh") {
        Some("macOS")
    } else if has("Linux") {
        Some("Linux")
    } else {
        None
    };
    let label = match (browser, system) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.to_string(),
        (None, Some(s)) => s.to_string(),
        // A program: the first word of its User-Agent, such as `curl/8.5.0`.
        (None, None) => ua
            .split_whitespace()
            .next()
            .map(|w| w.split('/').next().unwrap_or(w))
            .filter(|w| !w.is_empty())
            .unwrap_or("unknown device")
            .to_string(),
    };
    label.chars().filter(|c| !c.is_control()).take(60).collect()
}

/// The argon2id hash of `password` (PHC string), on a blocking thread.
pub async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        rand::Rng::fill_bytes(&mut rand::rng(), &mut salt);
        let salt = SaltString::encode_b64(&salt).map_err(ApiError::internal)?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(ApiError::internal)
    })
    .await
    .map_err(ApiError::internal)?
}

/// Whether `password` matches the stored hash (a tournament's password).
pub async fn password_matches(password: String, stored: String) -> bool {
    verify_password(password, stored).await
}

/// Whether `password` matches the stored hash (a malformed hash matches nothing), on a
/// blocking thread.
async fn verify_password(password: String, stored: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false)
}

/// A hash to check against when the name is unknown, so that an unknown name takes as long to
/// refuse as a wrong password.
static DUMMY_HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn dummy_hash() -> String {
    DUMMY_HASH
        .get_or_init(|| {
            let salt = SaltString::encode_b64(&[7u8; 16]).expect("16 bytes encode");
            Argon2::default()
                .hash_password(b"not a password of anyone", &salt)
                .map(|h| h.to_string())
                .unwrap_or_default()
        })
        .clone()
}

/// A new session: its cookie's secret and what the API answers.
pub struct NewSession {
    /// The secret for the cookie.
    pub secret: String,
    /// The session.
    pub session: Session,
    /// The secret of a new device cookie, when the client brought none trusted for this
    /// account.
    pub device: Option<String>,
}

/// `429 rate_limited` with a message and the seconds to wait.
fn limited(message: &str, retry_after_s: i64) -> ApiError {
    let mut e = ApiError::new(ErrorCode::RateLimited, message);
    e.retry_after = Some(retry_after_s.max(1) as u64);
    e
}

fn name_taken(name: &str) -> ApiError {
    ApiError::new(
        ErrorCode::NameTaken,
        format!("the name '{name}' is taken (names are the same whatever their case)"),
    )
}

/// Accounts and sessions.
pub struct Accounts {
    /// Accounts, failed log-ins, trusted devices.
    repo: AccountsRepo,
    /// Sessions.
    sessions: SessionsRepo,
    /// Sign-ups per address.
    signups: Quotas,
    games: Arc<Games>,
    /// Delivers the lobby's notices on SQLite when a deleted account's seeks go.
    cluster: Arc<Cluster>,
    /// Accounts one client address may make in an hour (0: no limit).
    signups_per_address_hour: u32,
}

impl Accounts {
    /// The accounts, whose guest games are taken from `games`, with at most
    /// `signups_per_address_hour` new ones per client address and hour (0: no limit).
    pub fn new(
        repo: AccountsRepo,
        sessions: SessionsRepo,
        signups: Quotas,
        games: Arc<Games>,
        cluster: Arc<Cluster>,
        signups_per_address_hour: u32,
    ) -> Accounts {
        Accounts {
            repo,
            sessions,
            signups,
            games,
            cluster,
            signups_per_address_hour,
        }
    }

    /// Creates an account for a client at `address` on the device `user_agent` names, and logs
    /// it in. The limit of sign-ups per address is taken before the password is hashed, so a
    /// flood of sign-ups costs no hashing.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        address: &str,
        user_agent: &str,
    ) -> Result<NewSession, ApiError> {
        let name = name.trim();
        check_name(name)?;
        check_password(name, password)?;
        let key = auth::account_key(name);
        if self.repo.read().account(&key).await?.is_some() {
            return Err(name_taken(name));
        }
        if self.repo.is_retired(&key).await? {
            return Err(ApiError::broken_rule(
                Rule::NameReserved,
                format!("the name '{name}' belonged to a deleted account and is not given again"),
            ));
        }
        if self.signups_per_address_hour > 0 {
            let now = now_ms();
            let since = now - SIGNUP_WINDOW_MS;
            let signups = &self.signups;
            if !signups
                .take(address, now, since, self.signups_per_address_hour)
                .await?
            {
                let oldest = signups.oldest(address, since).await?.unwrap_or(now);
                crate::metrics::refused("signup");
                return Err(limited(
                    &format!(
                        "at most {} accounts an hour are made from one address: try again later",
                        self.signups_per_address_hour
                    ),
                    (oldest + SIGNUP_WINDOW_MS - now + 999) / 1000,
                ));
            }
        }
        let password_hash = hash_password(password.to_string()).await?;
        let row = AccountRow {
            key: key.clone(),
            name: name.to_string(),
            password_hash,
            created_at: now_ms(),
        };
        if !self.repo.create_account(&row).await? {
            return Err(name_taken(name));
        }
        self.new_session(key, name.to_string(), true, user_agent)
            .await
    }

    /// A new session of `key` on the device `user_agent` names, with a new trusted device when
    /// `new_device`.
    async fn new_session(
        &self,
        key: String,
        name: String,
        new_device: bool,
        user_agent: &str,
    ) -> Result<NewSession, ApiError> {
        let secret = auth::new_token();
        let id_hash = auth::hash(&secret);
        let csrf = auth::new_secret(16);
        self.sessions
            .create_session(&id_hash, &key, &csrf, &device_label(user_agent), now_ms())
            .await?;
        // A log-in is a sign of life (the session's own uses are noted from a minute on).
        let now = now_ms();
        self.repo.touch_account(&key, now, now).await?;
        let device = if new_device {
            let device = auth::new_token();
            self.repo
                .add_device(&auth::hash(&device), &key, now_ms())
                .await?;
            Some(device)
        } else {
            None
        };
        Ok(NewSession {
            device,
            secret,
            session: Session {
                id_hash,
                key,
                name,
                csrf,
                bot: false,
                grant: None,
            },
        })
    }

    /// Logs in, within the limits on failed attempts. A client that brings `device`, the
    /// cookie of a device that logged this name in before, is held to that device's own
    /// failures; any other is held to the name's and its address's (`address`), so that
    /// strangers' failures lock the name for strangers only.
    pub async fn log_in(
        &self,
        name: &str,
        password: &str,
        address: &str,
        device: Option<&str>,
        user_agent: &str,
    ) -> Result<NewSession, ApiError> {
        let key = lookup_key(name)?;
        let now = now_ms();
        let since = now - FAILURE_WINDOW_MS;
        let db = &self.repo;
        // The counts this attempt is held to, and its failure would add to.
        let trusted_device = match device.map(auth::hash) {
            Some(hash) if db.device_account(&hash).await?.as_deref() == Some(key.as_str()) => {
                Some(hash)
            }
            _ => None,
        };
        let counts: Vec<(String, u32)> = match &trusted_device {
            Some(hash) => vec![(format!("d:{}", auth::hex(hash)), FAILURES_PER_DEVICE)],
            None => vec![
                (format!("n:{key}"), FAILURES_PER_NAME),
                (format!("a:{address}"), FAILURES_PER_ADDRESS),
            ],
        };
        for (count, cap) in &counts {
            if db.login_failures(count, since).await? >= *cap {
                crate::metrics::refused("login");
                return Err(limited(
                    "too many failed log-ins: wait a quarter of an hour and try again",
                    FAILURE_WINDOW_MS / 1000,
                ));
            }
        }
        let account = db.read().account(&key).await?;
        let stored = account
            .as_ref()
            .map(|a| a.password_hash.clone())
            .unwrap_or_else(dummy_hash);
        let ok = verify_password(password.to_string(), stored).await && account.is_some();
        let Some(account) = account.filter(|_| ok) else {
            let keys: Vec<String> = counts.into_iter().map(|(count, _)| count).collect();
            db.add_login_failure(&keys, now, since).await?;
            return Err(ApiError::new(
                ErrorCode::LoginFailed,
                "this name and password do not match an account",
            ));
        };
        // Moderation (issue 36): a closed account does not log in.
        if db
            .read()
            .account_flags(&account.key)
            .await?
            .is_some_and(|f| f.closed_at.is_some())
        {
            return Err(ApiError::new(
                ErrorCode::AccountClosed,
                "a moderator closed this account",
            ));
        }
        let new_device = trusted_device.is_none();
        self.new_session(account.key, account.name, new_device, user_agent)
            .await
    }

    /// Ends one session.
    pub async fn log_out(&self, session: &Session) -> Result<(), ApiError> {
        self.sessions.delete_session(&session.id_hash).await?;
        self.cluster.signed_out(&session.key).await;
        Ok(())
    }

    /// Ends every session of the account, on every device, revokes its personal tokens and
    /// forgets the devices trusted to log it in (a device that logs in again is trusted anew).
    pub async fn log_out_everywhere(&self, session: &Session) -> Result<u64, ApiError> {
        let ended = self.repo.sign_out_everywhere(&session.key).await?;
        self.cluster.signed_out(&session.key).await;
        Ok(ended)
    }

    /// Whether the cookie session whose secret hashes to `id_hash` still stands (not ended, its
    /// account not closed nor deleted).
    pub async fn stands(&self, id_hash: &[u8; 32]) -> Result<bool, StoreError> {
        Ok(self.sessions.session(id_hash).await?.is_some())
    }

    /// The session whose cookie holds `secret`, if it is valid. Its use is noted, at most once
    /// a minute, as the session's last use and the account's sign of life (who is online).
    pub async fn session(&self, secret: &str) -> Result<Option<Session>, StoreError> {
        let id_hash = auth::hash(secret);
        let Some(s) = self.sessions.session(&id_hash).await? else {
            return Ok(None);
        };
        let now = now_ms();
        if s.seen_at < now - SEEN_EVERY_MS {
            let db = &self.sessions;
            if let Err(e) = db
                .touch_session(&id_hash, &s.key, now, now - SEEN_EVERY_MS)
                .await
            {
                tracing::debug!("cannot note the use of a session: {e}");
            }
        }
        Ok(Some(Session {
            id_hash,
            key: s.key,
            name: s.name,
            csrf: s.csrf,
            bot: s.bot,
            grant: None,
        }))
    }

    /// Checks `password` against the account of `session`, within the limit on wrong ones
    /// (counted per account, so a stolen session cannot try passwords fast); the account's
    /// stored hash when it matches.
    async fn confirm(&self, session: &Session, password: &str) -> Result<AccountRow, ApiError> {
        let db = &self.repo;
        let now = now_ms();
        let since = now - FAILURE_WINDOW_MS;
        let count = format!("c:{}", session.key);
        if db.login_failures(&count, since).await? >= FAILURES_PER_NAME {
            crate::metrics::refused("login");
            return Err(limited(
                "too many wrong passwords: wait a quarter of an hour and try again",
                FAILURE_WINDOW_MS / 1000,
            ));
        }
        let account = db.read().account(&session.key).await?.ok_or_else(|| {
            ApiError::new(ErrorCode::NotLoggedIn, "this session's account is gone")
        })?;
        if !verify_password(password.to_string(), account.password_hash.clone()).await {
            db.add_login_failure(&[count], now, since).await?;
            return Err(ApiError::new(
                ErrorCode::WrongPassword,
                "this is not the account's password",
            ));
        }
        Ok(account)
    }

    /// Changes the password of the account of `session` from `current` to `new` (held to the
    /// sign-up rules), ends every other session of the account and revokes its personal tokens;
    /// this session stays.
    pub async fn change_password(
        &self,
        session: &Session,
        current: &str,
        new: &str,
    ) -> Result<(), ApiError> {
        check_password(&session.name, new)?;
        let account = self.confirm(session, current).await?;
        let hash = hash_password(new.to_string()).await?;
        if !self
            .repo
            .change_password(
                &session.key,
                &account.password_hash,
                &hash,
                &session.id_hash,
            )
            .await?
        {
            return Err(ApiError::new(
                ErrorCode::WrongPassword,
                "the password was changed meanwhile: try again with the new one",
            ));
        }
        self.cluster.signed_out(&session.key).await;
        Ok(())
    }

    /// The sessions of the account of `session`, the latest used first (`current`: this one).
    pub async fn sessions(&self, session: &Session) -> Result<Vec<SessionInfo>, ApiError> {
        Ok(self
            .sessions
            .sessions_of(&session.key)
            .await?
            .into_iter()
            .map(|s| SessionInfo {
                current: s.id_hash.as_slice() == session.id_hash.as_slice(),
                id: auth::hex(&s.id_hash),
                created_at: s.created_at,
                last_used_at: s.seen_at,
                device: s.device,
            })
            .collect())
    }

    /// Ends the session with id `id` (the hex of its hash) of the account of `session`.
    pub async fn end_session(&self, session: &Session, id: &str) -> Result<(), ApiError> {
        let gone = || {
            ApiError::new(
                ErrorCode::SessionNotFound,
                format!("your account has no session '{id}'"),
            )
        };
        let hash = auth::unhex(id).filter(|h| h.len() == 32).ok_or_else(gone)?;
        if !self.sessions.delete_session_of(&session.key, &hash).await? {
            return Err(gone());
        }
        self.cluster.signed_out(&session.key).await;
        Ok(())
    }

    /// Ends every session of the account of `session` but this one; answers how many.
    pub async fn end_other_sessions(&self, session: &Session) -> Result<u64, ApiError> {
        let ended = self
            .sessions
            .delete_other_sessions(&session.key, &session.id_hash)
            .await?;
        self.cluster.signed_out(&session.key).await;
        Ok(ended)
    }

    /// Deletes the account of `session`, confirmed by its `password`: its unfinished games are
    /// resigned, its games stay under a new name (`deleted-` and six hex digits, stored in
    /// the games), and its name is never given again (see [`AccountsRepo::delete_account`]).
    /// Answers the name its games show now.
    pub async fn delete_account(
        &self,
        session: &Session,
        password: &str,
    ) -> Result<String, ApiError> {
        let account = self.confirm(session, password).await?;
        let db = &self.repo;
        let caller = Caller {
            token: None,
            account: Some(session.key.clone()),
        };
        for id in self.games.unfinished_games(&session.key).await? {
            if let Err(e) = self.games.resign(&id, &caller, None).await {
                tracing::debug!("game {id} of a deleted account not resigned: {}", e.message);
            }
        }
        let label = format!("{DELETED_PREFIX}{}", auth::new_secret(3));
        let deleted = db
            .delete_account(&session.key, &account.password_hash, &label, now_ms())
            .await?
            .ok_or_else(|| {
                ApiError::new(
                    ErrorCode::WrongPassword,
                    "the password was changed meanwhile: try again with the new one",
                )
            })?;
        for (id, version) in &deleted.games {
            self.games.reload_if_cached(id, *version, "renamed").await;
        }
        self.cluster
            .deliver(deleted.notices.iter().filter_map(|n| Notice::parse(n)));
        self.cluster.signed_out(&session.key).await;
        Ok(label)
    }

    /// Notes a sign of life of account `key` at `now`, if its last one is older than `before`
    /// (the follows' lobby sockets, the house bots).
    pub async fn touch(&self, key: &str, now: i64, before: i64) -> Result<(), ApiError> {
        Ok(self.repo.touch_account(key, now, before).await?)
    }

    /// Makes account `row` unless its name is taken (a house bot's); whether it was made.
    pub async fn create_unless_taken(&self, row: &AccountRow) -> Result<bool, ApiError> {
        Ok(self.repo.create_account(row).await?)
    }

    /// Takes the seats that guest tokens hold in the games listed (id, token) into the account
    /// of `session`, where those seats have no account yet; answers the games taken.
    pub async fn claim_guest_games(
        &self,
        session: &Session,
        games: &[(String, String)],
    ) -> Result<Vec<String>, ApiError> {
        let hashed: Vec<(String, [u8; 32])> = games
            .iter()
            .filter(|(id, _)| auth::is_game_id(id))
            .map(|(id, token)| (id.clone(), auth::hash(token)))
            .take(500)
            .collect();
        let changed = self
            .games
            .claim_guest_games(&session.key, &session.name, &hashed)
            .await?;
        for (id, version) in &changed {
            self.games.reload_if_cached(id, *version, "claimed").await;
        }
        Ok(changed.into_iter().map(|(id, _)| id).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_passwords_follow_the_rules() {
        assert!(check_name("alice_1").is_ok());
        assert!(check_name("al").is_err());
        assert!(check_name("1alice").is_err());
        assert!(check_name("Engine").is_err());
        assert!(check_name("a b c").is_err());
        assert!(check_password("alice", "correct horse").is_ok());
        assert!(check_password("alice", "short").is_err());
        assert!(check_password("alice", "Password").is_err());
        assert!(check_password("alice", "xxALICExx").is_err());
        assert!(check_password("alice", "aaaaaaaaaa").is_err());
    }

    #[test]
    fn each_refusal_names_the_rule_it_breaks() {
        let rule = |r: Result<(), ApiError>| r.err().and_then(|e| e.rule);
        assert_eq!(rule(check_name("al")), Some(Rule::NameLength));
        assert_eq!(rule(check_name("1alice")), Some(Rule::NameStart));
        assert_eq!(rule(check_name("a b c")), Some(Rule::NameCharacters));
        assert_eq!(rule(check_name("Admin")), Some(Rule::NameReserved));
        assert_eq!(rule(check_name("deleted-1a2b3c")), Some(Rule::NameReserved));
        assert_eq!(
            rule(check_password("bob", "short")),
            Some(Rule::PasswordShort)
        );
        assert_eq!(
            rule(check_password("bob", "password1")),
            Some(Rule::PasswordCommon)
        );
        assert_eq!(
            rule(check_password("bobby", "xxBobbyxx")),
            Some(Rule::PasswordHasName)
        );
        assert_eq!(
            rule(check_password("bob", "zzzzzzzzz")),
            Some(Rule::PasswordRepeated)
        );
    }

    #[test]
    fn a_device_is_named_by_its_browser_and_system() {
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
        assert_eq!(device_label(firefox), "Firefox on Linux");
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 \
                      (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
        assert_eq!(device_label(iphone), "Safari on iPhone");
        let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like \
                      Gecko) Chrome/126.0.0.0 Safari/537.36";
        assert_eq!(device_label(chrome), "Chrome on Windows");
        assert_eq!(device_label("curl/8.5.0"), "curl");
        assert_eq!(device_label(""), "unknown device");
    }
}
