//! The chat of a game: two rooms, the players' (only the game's seats write and read it) and the
//! spectators' (logged-in accounts write it, everyone reads it).
//!
//! A line is checked here (plain text, at most [`CHAT_MAX_CHARS`] characters once trimmed, no
//! control characters), then stored by the store only if its writer is not muted, not blocked by
//! a player of the game and within [`RATE`] (all counted in the same transaction, so every
//! instance counts the same lines). The stored line is announced with the notice `c GAME LINE`
//! (`NOTIFY` on PostgreSQL, delivered here on SQLite); every instance hands it to the game's
//! sockets through [`Chat::subscribe`], and the socket forwards a line only where it
//! [`reaches`]: a players' room line to the seats, a spectators' room line to everyone but the
//! seats while the game is played (as on lichess: what spectators say does not reach the players
//! mid-game; they read it afterwards). While it is played, its seats read and write only the
//! players' room.

use crate::auth::{Caller, Session};
use crate::error::{ApiError, ErrorCode};
use crate::services::{Games, cluster::Cluster, now_ms};
use crate::store::chat::{ChatLineRow, ChatRate, ChatRepo, Said, chat_notice};
use mabula::Color;
use mabula_api::social::{
    AccountChatLine, CHAT_MAX_CHARS, ChatLine, ChatLog, ChatRequest, ChatRoom,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Lines one writer may say: five in ten seconds (an account across all games; a guest seat in
/// its game).
pub const RATE: ChatRate = ChatRate {
    lines: 5,
    window_ms: 10_000,
};

/// The lines of each room a reader gets.
const LOG_LINES: u32 = 200;

/// The chat service of one instance.
pub struct Chat {
    /// Its repository.
    repo: ChatRepo,
    games: Arc<Games>,
    cluster: Arc<Cluster>,
    /// The senders of the games whose sockets on this instance follow their chat: a line heard
    /// from any instance goes to this instance's sockets through them. Dropped when no socket
    /// listens any more (checked when the next line comes, and when a socket subscribes).
    rooms: Mutex<HashMap<String, broadcast::Sender<Arc<ChatLine>>>>,
}

impl Chat {
    /// The chat service over its repository, judging seats with the live `games`.
    pub fn new(repo: ChatRepo, games: Arc<Games>, cluster: Arc<Cluster>) -> Chat {
        Chat {
            repo,
            games,
            cluster,
            rooms: Mutex::new(HashMap::new()),
        }
    }

    /// Chat line `id`, as stored (a report names it).
    pub async fn line(&self, id: i64) -> Result<Option<ChatLineRow>, ApiError> {
        Ok(self.repo.chat_line(id).await?)
    }

    /// The latest `limit` lines of game `id` up to line `upto` (all, without it) that the
    /// account `key` could read, oldest first, as stored (the context of a report).
    pub async fn context(
        &self,
        id: &str,
        key: &str,
        upto: Option<i64>,
        limit: u32,
    ) -> Result<Vec<ChatLineRow>, ApiError> {
        Ok(self.repo.chat_context(id, key, upto, limit).await?)
    }

    /// The chat lines of game `id` as they come, for one of this instance's sockets.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<ChatLine>> {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.retain(|_, s| s.receiver_count() > 0);
        rooms
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Hands a line announced by any instance to this instance's sockets of its game.
    pub fn on_notice(&self, game: &str, line: &str) {
        let Ok(line) = serde_json::from_str::<ChatLine>(line) else {
            tracing::warn!("unreadable chat notice for game {game}");
            return;
        };
        self.publish(game, line);
    }

    fn publish(&self, game: &str, line: ChatLine) {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = rooms.get(game)
            && s.send(Arc::new(line)).is_err()
        {
            rooms.remove(game);
        }
    }

    /// The seats `caller` holds in game `id` (none for a spectator), and whether the game is
    /// being played.
    async fn seats(
        &self,
        id: &str,
        caller: &Caller,
    ) -> Result<(crate::model::Seats, bool), ApiError> {
        let handle = self.games.handle(id).await?;
        let slot = handle.slot.lock().await;
        Ok((
            caller.seats(&slot.game).unwrap_or_default(),
            !slot.game.is_over(),
        ))
    }

    /// Says `req` in game `id` for `caller` (with its session, if logged in), asking from
    /// `client` (guests are counted per address).
    pub async fn say(
        &self,
        id: &str,
        caller: &Caller,
        session: Option<&Session>,
        client: &str,
        req: ChatRequest,
    ) -> Result<ChatLine, ApiError> {
        let text = check_text(&req.text)?;
        let (seats, playing) = self.seats(id, caller).await?;
        let room = req.room.unwrap_or(if seats.is_empty() {
            ChatRoom::Spectators
        } else {
            ChatRoom::Players
        });
        let side = seats.only().or(if seats.is_empty() {
            None
        } else {
            Some(Color::White)
        });
        let (author, name) = match (room, session) {
            (ChatRoom::Players, _) if seats.is_empty() => {
                return Err(ApiError::new(
                    ErrorCode::ChatNotAllowed,
                    "only the game's players write in the players' room",
                ));
            }
            (ChatRoom::Spectators, _) if !seats.is_empty() && playing => {
                return Err(ApiError::new(
                    ErrorCode::ChatNotAllowed,
                    "while the game is played, its players write only in the players' room",
                ));
            }
            (ChatRoom::Players, None) => (None, String::new()),
            (ChatRoom::Spectators, None) => {
                return Err(ApiError::new(
                    ErrorCode::NotLoggedIn,
                    "log in to write in the spectators' room",
                ));
            }
            (_, Some(s)) => (Some(s.key.clone()), s.name.clone()),
        };
        let row = ChatLineRow {
            id: 0,
            game_id: id.to_string(),
            room: room.name().to_string(),
            author,
            side: side.map(|c| c.name().to_string()),
            name,
            text,
            at: now_ms(),
        };
        let mut said = None;
        let outcome = self
            .repo
            .say(&row, client, RATE, |stored| {
                let line = line_view(stored);
                let payload = serde_json::to_string(&line).unwrap_or_default();
                said = Some(line);
                chat_notice(id, &payload)
            })
            .await?;
        match outcome {
            Said::Stored(_) => {
                let line = said.ok_or_else(|| ApiError::new(ErrorCode::Internal, "lost line"))?;
                if !self.cluster.is_shared() {
                    self.publish(id, line.clone());
                }
                Ok(line)
            }
            Said::Muted(until) => Err(ApiError::new(
                ErrorCode::Muted,
                if until == i64::MAX {
                    "a moderator muted you: you cannot chat until they unmute you".to_string()
                } else {
                    format!(
                        "a moderator muted you: you can chat again in {} minutes",
                        (until - now_ms()).max(0) / 60_000 + 1
                    )
                },
            )),
            Said::Blocked => Err(ApiError::new(
                ErrorCode::Blocked,
                "a player of this game blocks you: you cannot chat here",
            )),
            Said::TooMany => {
                let mut e = ApiError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "at most {} chat lines in {} seconds: wait a little",
                        RATE.lines,
                        RATE.window_ms / 1000
                    ),
                );
                e.retry_after = Some((RATE.window_ms / 1000) as u64);
                Err(e)
            }
        }
    }

    /// The chat of game `id` that `caller` may read, and the rooms it may write.
    pub async fn log(
        &self,
        id: &str,
        caller: &Caller,
        session: Option<&Session>,
    ) -> Result<ChatLog, ApiError> {
        let (seats, playing) = self.seats(id, caller).await?;
        let seated = !seats.is_empty();
        let mut rooms = Vec::new();
        let mut writable = Vec::new();
        if seated {
            rooms.push(ChatRoom::Players);
            writable.push(ChatRoom::Players);
        }
        if reaches(ChatRoom::Spectators, seated, playing) {
            rooms.push(ChatRoom::Spectators);
            if session.is_some() {
                writable.push(ChatRoom::Spectators);
            }
        }
        let names: Vec<&str> = rooms.iter().map(|r| r.name()).collect();
        let lines = self.repo.chat_lines(id, &names, LOG_LINES).await?;
        Ok(ChatLog {
            lines: lines.iter().map(line_view).collect(),
            rooms,
            writable,
        })
    }

    /// Every line account `key` wrote, in any game, oldest first (the account's data export).
    pub async fn lines_of_account(&self, key: &str) -> Result<Vec<AccountChatLine>, ApiError> {
        let rows = self.repo.chat_lines_of_account(key).await?;
        Ok(rows
            .iter()
            .map(|r| AccountChatLine {
                game: r.game_id.clone(),
                line: line_view(r),
            })
            .collect())
    }
}

/// Whether a line of `room` reaches a reader who holds a seat of the game (`seated`) or not,
/// while the game is being played (`playing`) or after: the players' room reaches the seats
/// only; the spectators' room reaches everyone, except the seats while the game is played.
pub fn reaches(room: ChatRoom, seated: bool, playing: bool) -> bool {
    match room {
        ChatRoom::Players => seated,
        ChatRoom::Spectators => !(seated && playing),
    }
}

/// The text of a chat line as it is kept: trimmed, not empty, at most [`CHAT_MAX_CHARS`]
/// characters, no control characters.
pub fn check_text(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::new(
            ErrorCode::ChatEmpty,
            "a chat line has some text",
        ));
    }
    let n = text.chars().count();
    if n > CHAT_MAX_CHARS {
        return Err(ApiError::new(
            ErrorCode::ChatTooLong,
            format!("a chat line has at most {CHAT_MAX_CHARS} characters (this one has {n})"),
        ));
    }
    if text
        .chars()
        .any(|c| c.is_control() || reorders_or_breaks(c))
    {
        return Err(ApiError::new(
            ErrorCode::ChatInvalid,
            "a chat line is one line of plain text: no control characters, line separators or \
             direction overrides",
        ));
    }
    if text.chars().all(|c| c.is_whitespace() || invisible(c)) {
        return Err(ApiError::new(
            ErrorCode::ChatEmpty,
            "a chat line has some visible text",
        ));
    }
    Ok(text.to_string())
}

/// A character that turns the text after it around or breaks the line: the bidirectional
/// embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), and the line and
/// paragraph separators.
fn reorders_or_breaks(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// A character that shows nothing: Unicode's Default_Ignorable_Code_Point set (DerivedCoreProperties
/// of Unicode 15), and the blank braille pattern U+2800, which fonts draw empty.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// A stored line as clients read it.
pub fn line_view(r: &ChatLineRow) -> ChatLine {
    ChatLine {
        id: r.id,
        room: ChatRoom::from_name(&r.room).unwrap_or(ChatRoom::Spectators),
        name: r.name.clone(),
        side: match r.side.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        },
        text: r.text.clone(),
        at: r.at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectators_lines_reach_the_seats_only_once_the_game_is_over() {
        use ChatRoom::{Players, Spectators};
        assert!(reaches(Players, true, true) && reaches(Players, true, false));
        assert!(!reaches(Players, false, true) && !reaches(Players, false, false));
        assert!(!reaches(Spectators, true, true));
        assert!(reaches(Spectators, true, false));
        assert!(reaches(Spectators, false, true) && reaches(Spectators, false, false));
    }

    #[test]
    fn chat_lines_are_trimmed_and_refused_when_empty_long_or_with_control_characters() {
        assert_eq!(check_text("  gg  ").ok().as_deref(), Some("gg"));
        let code = |t: &str| check_text(t).err().map(|e| e.code);
        assert_eq!(code("   "), Some(ErrorCode::ChatEmpty));
        assert_eq!(code(&"é".repeat(140)), None);
        assert_eq!(code(&"é".repeat(141)), Some(ErrorCode::ChatTooLong));
        assert_eq!(code("a\nb"), Some(ErrorCode::ChatInvalid));
        assert_eq!(code("a\u{7}b"), Some(ErrorCode::ChatInvalid));
        // Nothing to see, or text turned around.
        for blank in [
            "\u{200B}\u{200B}",
            "\u{2800}",
            "\u{3164} \u{FEFF}",
            "\u{E0041}\u{2060}",
        ] {
            assert_eq!(code(blank), Some(ErrorCode::ChatEmpty), "{blank:?}");
        }
        assert_eq!(code("gg \u{202E}gg"), Some(ErrorCode::ChatInvalid));
        assert_eq!(code("gg\u{2066}"), Some(ErrorCode::ChatInvalid));
        assert_eq!(code("a\u{2028}b"), Some(ErrorCode::ChatInvalid));
        // Joiners inside visible text (emoji sequences) stay.
        assert_eq!(code("gg \u{1F44D}\u{200D}\u{1F3FD}"), None);
    }
}
