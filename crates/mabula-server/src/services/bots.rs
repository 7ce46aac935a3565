//! The bot API's two streams (issue 38), as lines of newline-delimited JSON:
//!
//! - an account's events ([`BotStreams::events`]): the challenges to it and its unfinished games
//!   first, then every change. The stream keeps the sets it has sent and compares them with the
//!   database whenever a user notice of the account arrives (`u KEY …`, carried from every
//!   instance by [`Cluster`]) and each second besides, so it misses nothing whichever instance
//!   made the change, and a program that reconnects is told everything current first.
//! - a game's states ([`BotStreams::game`]): `game_full` first, then a `game_state` at each new
//!   version, heard from the game's broadcast (which carries the other instances' changes to a
//!   watched game) and checked against the stored version each second; the game's chat lines.
//!
//! Each stream holds a place among its account's streams on this instance (at most
//! [`STREAMS_PER_ACCOUNT`]) besides the per-address cap of the caller.

use crate::error::{ApiError, ErrorCode};
use crate::services::chat::Chat;
use crate::services::cluster::Cluster;
use crate::services::games::Games;
use crate::services::lobby::Lobby;
use crate::services::now_ms;
use crate::store::Notice;
use crate::view::GameState;
use mabula::Color;
use mabula_api::bots::{BotEvent, BotGameMessage, BotGameRef, BotGameState, BotPlayer};
use mabula_api::lobby::SeekView;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// The most bot streams (events and games together) one account may hold on one instance.
pub const STREAMS_PER_ACCOUNT: u32 = 16;

/// How often an idle stream sends an empty line.
pub const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// How often a stream compares what it sent with the database, notices aside.
const RECHECK: Duration = Duration::from_secs(1);

/// The streams of the bot API.
pub struct BotStreams {
    /// The lobby: the challenges to the account.
    lobby: Arc<Lobby>,
    games: Arc<Games>,
    cluster: Arc<Cluster>,
    chat: Arc<Chat>,
    open: Arc<Mutex<HashMap<String, u32>>>,
}

/// A place among an account's streams, given back when dropped.
pub struct StreamSlot {
    open: Arc<Mutex<HashMap<String, u32>>>,
    key: String,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// One line of a stream: the JSON text and its newline.
fn line<T: serde::Serialize>(message: &T) -> String {
    let mut text = serde_json::to_string(message).unwrap_or_default();
    text.push('\n');
    text
}

impl BotStreams {
    /// The streams over these services.
    pub fn new(
        lobby: Arc<Lobby>,
        games: Arc<Games>,
        cluster: Arc<Cluster>,
        chat: Arc<Chat>,
    ) -> BotStreams {
        BotStreams {
            lobby,
            games,
            cluster,
            chat,
            open: Arc::default(),
        }
    }

    /// A place for one more stream of `key`, or `too_many_connections`.
    pub fn slot(&self, key: &str) -> Result<StreamSlot, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(key.to_string()).or_insert(0);
        if *n >= STREAMS_PER_ACCOUNT {
            return Err(ApiError::new(
                ErrorCode::TooManyConnections,
                format!("an account holds at most {STREAMS_PER_ACCOUNT} bot streams at once"),
            ));
        }
        *n += 1;
        Ok(StreamSlot {
            open: self.open.clone(),
            key: key.to_string(),
        })
    }

    /// The event stream of account `key` (named `name`): lines sent into the answer until the
    /// client leaves.
    pub fn events(
        self: &Arc<Self>,
        key: String,
        name: String,
        slot: StreamSlot,
    ) -> mpsc::Receiver<String> {
        let (tx, rx) = mpsc::channel(64);
        let me = self.clone();
        let mut notices = self.cluster.notices();
        tokio::spawn(async move {
            let _slot = slot;
            let mut sent = Sent::default();
            let mut recheck = tokio::time::interval(RECHECK);
            let mut alive = tokio::time::interval(KEEP_ALIVE);
            alive.tick().await;
            loop {
                let mut lines = Vec::new();
                match me.compare(&key, &name, &mut sent, &mut lines).await {
                    Ok(()) => {}
                    Err(e) => tracing::debug!("bot event stream of {key}: {}", e.message),
                }
                for l in lines {
                    if tx.send(l).await.is_err() {
                        return;
                    }
                    alive.reset();
                }
                tokio::select! {
                    notice = notices.recv() => match notice {
                        Ok(Notice::User { key: k, what }) if k == key => {
                            let mut words = what.split_whitespace();
                            if words.next() == Some("declined")
                                && let (Some(id), Some(by)) = (words.next(), words.next())
                            {
                                let event = BotEvent::ChallengeDeclined { id: id.into(), by: by.into() };
                                if tx.send(line(&event)).await.is_err() {
                                    return;
                                }
                            }
                        }
                        Ok(_) => continue,
                        Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                    _ = recheck.tick() => {}
                    _ = alive.tick() => {
                        if tx.send("\n".into()).await.is_err() {
                            return;
                        }
                    }
                    _ = tx.closed() => return,
                }
            }
        });
        rx
    }

    /// Compares what the stream sent with the database, and adds the lines of the differences.
    async fn compare(
        &self,
        key: &str,
        name: &str,
        sent: &mut Sent,
        lines: &mut Vec<String>,
    ) -> Result<(), ApiError> {
        let now = now_ms();
        let seeks = self.lobby.own_seek_rows(now, key).await?;
        let names = HashMap::from([(key.to_string(), name.to_string())]);
        let to_me: BTreeMap<String, SeekView> = seeks
            .iter()
            .filter(|s| s.target.as_deref() == Some(key))
            .map(|s| (s.id.clone(), crate::services::lobby::seek_view(s, &names)))
            .collect();
        for (id, seek) in &to_me {
            if !sent.challenges.contains_key(id) {
                lines.push(line(&BotEvent::Challenge {
                    challenge: seek.clone(),
                }));
            }
        }
        for id in sent.challenges.keys() {
            if !to_me.contains_key(id) {
                lines.push(line(&BotEvent::ChallengeCanceled { id: id.clone() }));
            }
        }
        sent.challenges = to_me;
        let mut ids = self.games.unfinished_games(key).await?;
        ids.sort();
        for id in &ids {
            if sent.games.contains_key(id) {
                continue;
            }
            let game = self.game_ref(id, key).await?;
            lines.push(line(&BotEvent::GameStart { game: game.clone() }));
            sent.games.insert(id.clone(), game);
        }
        let gone: Vec<String> = sent
            .games
            .keys()
            .filter(|id| ids.binary_search(id).is_err())
            .cloned()
            .collect();
        for id in gone {
            if let Some(game) = sent.games.remove(&id) {
                lines.push(line(&BotEvent::GameFinish { game }));
            }
        }
        Ok(())
    }

    /// Game `id` as the event stream of `key` names it.
    async fn game_ref(&self, id: &str, key: &str) -> Result<BotGameRef, ApiError> {
        let h = self.games.latest(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = slot.game.seats_of_account(key);
        let state = self.games.state_of(&h, &mut slot, None);
        drop(slot);
        let color = if seats.white {
            Color::White
        } else {
            Color::Black
        };
        let opponent = match color {
            Color::White => &state.players.black,
            Color::Black => &state.players.white,
        };
        let opponent = Self::player(opponent.as_ref());
        Ok(BotGameRef {
            id: id.to_string(),
            color,
            opponent,
            scoring: state.settings.scoring.clone(),
            rated: state.rated,
            clock: state.clock.as_ref().map(|c| c.control),
        })
    }

    /// A player of a game, with whether they are a bot.
    fn player(p: Option<&crate::view::PlayerView>) -> BotPlayer {
        match p {
            Some(p) => BotPlayer {
                name: p.name.clone(),
                rating: p.rating,
                bot: p.bot,
            },
            None => BotPlayer {
                name: String::new(),
                rating: None,
                bot: false,
            },
        }
    }

    /// The stream of game `id` for account `key`: `game_full`, then its states, until it is
    /// over or the client leaves.
    pub async fn game(
        self: &Arc<Self>,
        id: String,
        key: String,
        slot: StreamSlot,
    ) -> Result<mpsc::Receiver<String>, ApiError> {
        let h = self.games.latest(&id).await?;
        let (state, mut events, seated) = {
            let mut s = h.slot.lock().await;
            self.games.catch_up(&h, &mut s).await?;
            let seats = s.game.seats_of_account(&key);
            let events = h.events.subscribe();
            (
                self.games.state_of(&h, &mut s, None),
                events,
                seats.white || seats.black,
            )
        };
        let full = BotGameMessage::GameFull {
            id: id.clone(),
            white: Self::player(state.players.white.as_ref()),
            black: Self::player(state.players.black.as_ref()),
            scoring: state.settings.scoring.clone(),
            rated: state.rated,
            clock: state.clock.as_ref().map(|c| c.control),
            start: position_text(&state),
            state: bot_state(&state),
        };
        let (tx, rx) = mpsc::channel(64);
        let mut chat = self.chat.subscribe(&id);
        let games = self.games.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let mut h = h;
            let mut version = state.version;
            let mut over = state.status == "finished";
            if tx.send(line(&full)).await.is_err() || over {
                return;
            }
            let mut recheck = tokio::time::interval(RECHECK);
            let mut alive = tokio::time::interval(KEEP_ALIVE);
            alive.tick().await;
            loop {
                let mut look = false;
                tokio::select! {
                    ev = events.recv() => match ev {
                        Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => look = true,
                        Err(broadcast::error::RecvError::Closed) => {
                            // The game left memory: take it again.
                            look = true;
                        }
                    },
                    chat_line = chat.recv() => match chat_line {
                        Ok(l) => {
                            // The stream ends with the game: it is being played.
                            if !super::chat::reaches(l.room, seated, true) {
                                continue;
                            }
                            let room = serde_json::to_value(l.room)
                                .ok()
                                .and_then(|v| v.as_str().map(str::to_string))
                                .unwrap_or_default();
                            let msg = BotGameMessage::ChatLine { room, name: l.name.clone(), text: l.text.clone() };
                            if tx.send(line(&msg)).await.is_err() {
                                return;
                            }
                            alive.reset();
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => chat = futures_never(),
                    },
                    _ = recheck.tick() => {
                        // The stored version: a change this instance was not told of.
                        match games.latest(&h.id).await {
                            Ok(fresh) => {
                                if !Arc::ptr_eq(&fresh, &h) {
                                    h = fresh;
                                    events = h.events.subscribe();
                                }
                                look = true;
                            }
                            Err(e) => tracing::debug!("bot game stream {}: {}", h.id, e.message),
                        }
                    }
                    _ = alive.tick() => {
                        if tx.send("\n".into()).await.is_err() {
                            return;
                        }
                    }
                    _ = tx.closed() => return,
                }
                if look {
                    let state = {
                        let mut s = h.slot.lock().await;
                        games.state_of(&h, &mut s, None)
                    };
                    if state.version != version {
                        version = state.version;
                        over = state.status == "finished";
                        let msg = BotGameMessage::GameState(bot_state(&state));
                        if tx.send(line(&msg)).await.is_err() {
                            return;
                        }
                        alive.reset();
                        if over {
                            return;
                        }
                    }
                }
            }
        });
        Ok(rx)
    }
}

/// A chat receiver that never yields (once the chat's sender is gone).
fn futures_never() -> broadcast::Receiver<Arc<mabula_api::social::ChatLine>> {
    let (tx, rx) = broadcast::channel(1);
    std::mem::forget(tx);
    rx
}

/// What an event stream has sent: the challenges to the account and its unfinished games.
#[derive(Default)]
struct Sent {
    challenges: BTreeMap<String, SeekView>,
    games: BTreeMap<String, BotGameRef>,
}

/// The start position as RULES.md writes it.
fn position_text(state: &GameState) -> String {
    match serde_json::to_value(state.start) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => String::new(),
    }
}

/// A game's state on its bot stream.
pub fn bot_state(state: &GameState) -> BotGameState {
    BotGameState {
        moves: state.moves.iter().map(|m| m.notation.clone()).collect(),
        white_ms: state.clock.as_ref().map(|c| c.white_ms),
        black_ms: state.clock.as_ref().map(|c| c.black_ms),
        status: if state.status == "finished" {
            "over".into()
        } else {
            "started".into()
        },
        result: state.result.clone(),
        end_reason: state.end_reason,
        draw_offer: state.draw_offer,
        version: state.version,
    }
}
