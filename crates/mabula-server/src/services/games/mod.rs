//! The live games: the games being served, kept in memory in front of the store, and every
//! action on them. The database is the truth; memory is a cache of it that any number of
//! instances keep on one PostgreSQL database.
//!
//! Each game in memory has a [`GameHandle`]: its [`LiveGame`] behind an async mutex, which
//! serializes this instance's actions on the game; a broadcast channel for its WebSocket
//! listeners; and its presence counts. Every action follows the same steps under the game's
//! lock ([`Games::transact`]): check the request against the game, compute the new game on a
//! copy, **store it only if the stored row still has the version the copy was made from**,
//! then replace the game in memory, broadcast the change and answer. When another instance
//! changed the game first, the store refuses the write; the game is reloaded, its missed
//! changes are broadcast, and the request is checked again against the latest state (so a move
//! with a move number that is no longer next gets `409 stale_state`, never a fork).
//!
//! A change made elsewhere (another instance, or the ratings and accounts services here) reaches
//! this instance's listeners as if it had been made here: one message per change, with its own
//! reason. A reload reads the latest stored game, which may hold several changes at once, and
//! tells from the difference the moves, undos and ends; the reason of any other change (an
//! offer, a rating, ...) comes with that change's notice (every stored version is announced,
//! in order), so a change reloaded before its notice arrived is *owed* to the listeners
//! ([`Slot::owed`]) and told when its notice comes. Only when notices may have been lost (the
//! listening connection was away) is what changed told as one `update` (clients resync by
//! version).
//!
//! After each stored change the services that follow games hear what happened, as
//! [`GameEvent`]s (a change and its deadline, a move, an end); this service knows none of them:
//! the clocks arm a timer, the ratings rate a rated game that ended, the tournaments pair anew.
//!
//! The parts:
//! - [`actions`]: what clients do (create, move, resign, undo, join, rematch, ...);
//! - [`endings`]: draw offers and the abort before the first moves;
//! - [`engine_moves`]: the engine's moves, computed by the one instance that claimed them in the
//!   database, taken over by another when that instance dies;
//! - [`presence`]: the open WebSockets of a game over every instance, the seats away, and the
//!   other instances' notices about games.

mod actions;
mod endings;
mod engine_moves;
mod presence;

pub use actions::record_text;

use super::cluster::Cluster;
use super::{Config, now_ms};
use crate::analysis::Analyst;
use crate::auth::{self, Caller};
use crate::engine::EnginePool;
use crate::error::{ApiError, ErrorCode};
use crate::model::{EndReason, LiveGame, Refusal, Seats};
use crate::protocol::ServerMessage;
use crate::store::games::GamesRepo;
use crate::store::quotas::Quotas;
use crate::store::ratings::RatingReads;
use crate::store::{MovesChange, PresenceCounts, RowChange, RowState, Store, WriteOp};
use crate::view::{self, GameState, MoveView};
use axum::extract::ws::Utf8Bytes;
use mabula::GameResult;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, mpsc};

/// What happened to a game, for any service that follows games: each says what happened, not
/// who wants to know, so a new follower reads the events it needs and the games service does
/// not change. Sent after the change is stored, in the order of the changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// A change of game `id` was stored (a move, an undo, an offer, the end...).
    Changed {
        /// The game.
        id: String,
        /// Its version now.
        version: u64,
        /// When its clock runs out, if a clock runs (ms since the epoch).
        deadline: Option<i64>,
    },
    /// A move was played in game `id`.
    Moved {
        /// The game.
        id: String,
        /// The number of moves now in the game.
        moves: usize,
    },
    /// Game `id` ended.
    Ended {
        /// The game.
        id: String,
        /// Whether the result moves ratings.
        rated: bool,
        /// The result (`*` for a game called off).
        result: GameResult,
        /// Why it ended.
        reason: Option<EndReason>,
        /// The tournament it belongs to.
        tournament: Option<String>,
    },
}

/// What the games service keeps beside the game rows of the store: its own repository, the
/// read of ratings a rematch needs, and its quota of rated games per pair.
pub struct GamesRepos {
    /// Its repository.
    pub games: GamesRepo,
    /// The ratings' read handle.
    pub ratings: RatingReads,
    /// Rated games per pair of accounts and day (`p:`).
    pub pairs: Quotas,
}

/// The games being served.
pub struct Games {
    /// Where games are kept.
    store: Arc<Store>,
    /// Its repository: seats' absences and signs of life, guest games claimed, flagged pairs.
    repo: GamesRepo,
    /// The players' ratings (a rematch's).
    ratings: RatingReads,
    /// Rated games per pair of accounts and day.
    pairs: Quotas,
    /// Where engine moves are computed.
    engine: EnginePool,
    /// The analysis board's service (the record's deal estimate).
    analyst: Arc<Analyst>,
    /// This instance among the others.
    cluster: Arc<Cluster>,
    /// Settings.
    config: Config,
    /// The games in memory, by id.
    games: Mutex<HashMap<String, Arc<GameHandle>>>,
    /// The services that follow games.
    followers: Mutex<Vec<mpsc::UnboundedSender<GameEvent>>>,
}

/// What a game's lock protects.
pub struct Slot {
    /// The game.
    pub game: LiveGame,
    /// The instance that computes the engine's next move, as stored.
    engine_owner: Option<String>,
    /// Whose request the engine's next move answers (a client address), for the engine queue's
    /// fairness; unknown after a reload.
    engine_client: Option<String>,
    /// The engine computation running here, by the game version it started from; a result whose
    /// version is no longer the game's (after an undo or a resignation) is dropped.
    engine_job: Option<u64>,
    /// The move list's views, kept between answers.
    moves: view::MoveCache,
    /// Versions of the game in memory whose change the listeners here have not been told yet:
    /// made elsewhere and reloaded before the reason of the change was heard (its notice, or
    /// the word of the service that made it). A move, an undo or an end was told by the reload
    /// already; any other change is told when its reason arrives.
    owed: BTreeSet<u64>,
}

/// One game in memory.
pub struct GameHandle {
    /// The game id.
    pub id: String,
    /// The game, locked for every action.
    pub slot: tokio::sync::Mutex<Slot>,
    /// Changes for the WebSocket listeners, as ready-to-send JSON.
    pub events: broadcast::Sender<Utf8Bytes>,
    /// This instance's open WebSockets per seat and spectators.
    local: Mutex<PresenceCounts>,
    /// The open WebSockets of all instances, with the number of the reading they come from.
    totals: Mutex<(u64, PresenceCounts)>,
    /// The number of the next reading of the totals: a reading that began later saw the
    /// database as late or later, so an earlier one that ends last never overwrites it.
    readings: AtomicU64,
    /// The highest version another instance announced; a game nobody watches here is reloaded
    /// only when it is next used.
    announced: AtomicU64,
    /// The latest version whose state this instance's listeners were sent: an owed reason of
    /// an older version comes too late to be told (a later state was shown).
    told: AtomicU64,
    /// A presence message is scheduled (they are coalesced).
    presence_pending: AtomicBool,
    /// Held while this instance's counts are stored.
    storing_presence: tokio::sync::Mutex<()>,
    /// Last use, ms since the epoch (for eviction).
    touched: AtomicI64,
}

/// How many messages a slow listener may fall behind before it is resynced (a resync sends the
/// whole state, so a small buffer loses nothing and keeps an idle game light).
const EVENT_BUFFER: usize = 32;

/// What changed, for the broadcast after a commit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Change {
    Moved,
    Undone,
    Resigned,
    Update(&'static str),
}

impl Change {
    /// The word other instances hear with the change.
    fn reason(self) -> &'static str {
        match self {
            Change::Moved => "move",
            Change::Undone => "undo",
            Change::Resigned => "end",
            Change::Update(r) => r,
        }
    }

    /// The change a notice's reason names (the reverse of [`Change::reason`]).
    fn heard(reason: &str) -> Change {
        match reason {
            "move" => Change::Moved,
            "undo" => Change::Undone,
            "end" => Change::Resigned,
            r => Change::update(r),
        }
    }

    /// An update reason heard from another instance, as one of ours.
    fn update(reason: &str) -> Change {
        Change::Update(match reason {
            "joined" => "joined",
            "rematch" => "rematch",
            "hint" => "hint",
            "undo_offered" => "undo_offered",
            "undo_declined" => "undo_declined",
            "rated" => "rated",
            "claimed" => "claimed",
            "draw_offered" => "draw_offered",
            "draw_declined" => "draw_declined",
            _ => "update",
        })
    }
}

/// A planned change of a game: the game afterwards, what happens to its moves, what to
/// broadcast, and what the action answers besides the state.
struct Plan<T> {
    next: LiveGame,
    moves: MovesChange,
    change: Change,
    out: T,
}

impl<T> Plan<T> {
    fn new(next: LiveGame, change: Change, out: T) -> Plan<T> {
        Plan {
            next,
            moves: MovesChange::None,
            change,
            out,
        }
    }
}

/// Checks the token or the account of a request that acts for a seat.
fn seats_for(g: &LiveGame, caller: &Caller) -> Result<Seats, ApiError> {
    let seats = caller.seats(g)?;
    if seats.is_empty() {
        return Err(ApiError::new(
            ErrorCode::TokenInvalid,
            if caller.token.is_some() {
                "this token holds no seat in this game"
            } else {
                "you hold no seat in this game"
            },
        ));
    }
    Ok(seats)
}

fn stale() -> ApiError {
    ApiError::new(
        ErrorCode::StaleState,
        "the game changed while this request was being checked; reload it and try again",
    )
}

impl Games {
    /// The live games over `store`.
    pub fn new(
        store: Arc<Store>,
        repos: GamesRepos,
        engine: EnginePool,
        analyst: Arc<Analyst>,
        cluster: Arc<Cluster>,
        config: Config,
    ) -> Arc<Games> {
        Arc::new(Games {
            store,
            repo: repos.games,
            ratings: repos.ratings,
            pairs: repos.pairs,
            engine,
            analyst,
            cluster,
            config,
            games: Mutex::new(HashMap::new()),
            followers: Mutex::new(Vec::new()),
        })
    }

    /// The unfinished games where account `key` holds a seat.
    pub async fn unfinished_games(&self, key: &str) -> Result<Vec<String>, ApiError> {
        Ok(self.repo.unfinished_games(key).await?)
    }

    /// Gives the seats of the games listed (each a game id and the hash of a seat token) that
    /// have no account yet to account `key` named `name`; answers the games changed with their
    /// new versions.
    pub async fn claim_guest_games(
        &self,
        key: &str,
        name: &str,
        games: &[(String, [u8; 32])],
    ) -> Result<Vec<(String, u64)>, ApiError> {
        Ok(self.repo.claim_guest_games(key, name, games).await?)
    }

    /// The events of every change stored from now on, in order (for a service that follows
    /// games; read them promptly).
    pub fn subscribe(&self) -> mpsc::UnboundedReceiver<GameEvent> {
        let (tx, rx) = mpsc::unbounded_channel();
        if let Ok(mut f) = self.followers.lock() {
            f.push(tx);
        }
        rx
    }

    /// Tells the followers what happened.
    fn publish(&self, event: GameEvent) {
        if let Ok(mut f) = self.followers.lock() {
            f.retain(|tx| tx.send(event.clone()).is_ok());
        }
    }

    /// The game `id`, from memory or the store.
    pub async fn handle(self: &Arc<Games>, id: &str) -> Result<Arc<GameHandle>, ApiError> {
        if !auth::is_game_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        let cached = self
            .games
            .lock()
            .map_err(ApiError::internal)?
            .get(id)
            .cloned();
        if let Some(h) = cached {
            h.touched.store(now_ms(), Ordering::Relaxed);
            if !self.cluster.is_synced() {
                self.check_version(&h).await?;
            } else if h.announced.load(Ordering::Acquire) > 0 {
                let mut slot = h.slot.lock().await;
                self.catch_up(&h, &mut slot).await?;
            }
            return Ok(h);
        }
        let (game, owner) = self.load(id).await?;
        let fresh = self.make_handle(game, owner);
        let (h, inserted) = {
            let mut games = self.games.lock().map_err(ApiError::internal)?;
            match games.get(id) {
                Some(h) => (h.clone(), false),
                None => {
                    games.insert(id.to_string(), fresh.clone());
                    (fresh, true)
                }
            }
        };
        if inserted && self.cluster.is_shared() {
            // A change announced between the load and the insertion found no handle: look again.
            self.check_version(&h).await?;
            self.publish_presence(&h, None).await;
        }
        let mut slot = h.slot.lock().await;
        self.schedule_engine(&h, &mut slot);
        drop(slot);
        Ok(h)
    }

    /// Loads game `id` from the store, with its engine move's owner.
    async fn load(&self, id: &str) -> Result<(LiveGame, Option<String>), ApiError> {
        let stored = self
            .store
            .load(id)
            .await?
            .ok_or_else(|| ApiError::game_not_found(id))?;
        let owner = stored.engine_owner.clone();
        let mut game = stored.into_live().map_err(ApiError::internal)?;
        if game.pair == Some(crate::model::PairHalf::Second)
            && let Some(first) = &game.rematch_of
        {
            // The first game is over, so its stored result is final.
            game.pair_first = self.store.load(first).await?.map(|f| f.result);
        }
        Ok((game, owner))
    }

    /// Reloads the game in `slot` if another instance announced a newer version of it (a new
    /// listener calls this before it subscribes).
    pub async fn catch_up(
        self: &Arc<Games>,
        h: &Arc<GameHandle>,
        slot: &mut Slot,
    ) -> Result<(), ApiError> {
        if h.announced.load(Ordering::Acquire) > slot.game.version {
            self.refresh(h, slot, None).await?;
        }
        Ok(())
    }

    /// Reloads `h` if the store has a newer version of it.
    async fn check_version(self: &Arc<Games>, h: &Arc<GameHandle>) -> Result<(), ApiError> {
        let mut slot = h.slot.lock().await;
        self.newer_stored(h, &mut slot).await?;
        Ok(())
    }

    /// Reloads the game in `slot` if the store has a newer version of it; says whether it did.
    async fn newer_stored(
        self: &Arc<Games>,
        h: &Arc<GameHandle>,
        slot: &mut Slot,
    ) -> Result<bool, ApiError> {
        let stored = self.store.version(&h.id).await?;
        if stored.is_some_and(|v| v > slot.game.version) {
            self.refresh(h, slot, None).await?;
            return Ok(true);
        }
        Ok(false)
    }

    /// The game `id` at its latest stored version (a read that must see every change already
    /// acknowledged by any instance).
    pub async fn latest(self: &Arc<Games>, id: &str) -> Result<Arc<GameHandle>, ApiError> {
        let h = self.handle(id).await?;
        if self.cluster.is_shared() && self.cluster.is_synced() {
            self.check_version(&h).await?;
        }
        Ok(h)
    }

    /// Replaces the game in `slot` with the stored one and broadcasts what changed in between,
    /// as if the changes had been made here: the moves (each with the state after it), an undo,
    /// an end; then each other change whose reason is known (`known`: a version and the change
    /// that made it, from its notice or the service that made it). The reasons not known yet are
    /// owed ([`Slot::owed`]) and told when heard ([`Games::heard`]), unless notices may have
    /// been missed: then what is left is told as one `update`.
    async fn refresh(
        self: &Arc<Games>,
        h: &Arc<GameHandle>,
        slot: &mut Slot,
        known: Option<(u64, Change)>,
    ) -> Result<(), ApiError> {
        let (mut new, owner) = self.load(&h.id).await?;
        if new.version <= slot.game.version {
            return Ok(());
        }
        if new.pair_first.is_none() {
            new.pair_first = slot.game.pair_first;
        }
        slot.engine_owner = owner;
        slot.engine_job = None;
        let old = std::mem::replace(&mut slot.game, new);
        let from = old.version;
        let seen = old.game.moves().len();
        let stored = slot.game.game.moves();
        let listening = h.events.receiver_count() > 0;
        // The moves, an undo, an end: told from the difference.
        let mut told = true;
        if old.epoch != slot.game.epoch || !stored.starts_with(old.game.moves()) {
            if listening {
                let state = self.state_of(h, slot, None);
                self.broadcast(h, &state, Change::Undone, None);
            }
        } else if stored.len() > seen {
            if listening {
                // Each missed move with the state after it, the last one with the stored state.
                let latest = std::mem::replace(&mut slot.game, old);
                let moves = latest.game.moves();
                for &mv in &moves[seen..moves.len() - 1] {
                    slot.game.apply_move(mv, latest.updated_at)?;
                    self.broadcast_move(h, slot);
                }
                slot.game = latest;
                self.broadcast_move(h, slot);
            }
        } else if slot.game.game.is_finished() && !old.game.is_finished() {
            if listening {
                let state = self.state_of(h, slot, None);
                self.broadcast(h, &state, Change::Resigned, None);
            }
        } else {
            told = false;
        }
        // The other changes: each with its own reason, once it is known.
        if !listening {
            slot.owed.clear();
        } else if self.cluster.is_synced() {
            for version in from + 1..=slot.game.version {
                match known {
                    Some((v, change)) if v == version => self.tell(h, slot, change),
                    _ => {
                        slot.owed.insert(version);
                    }
                }
            }
        } else {
            // Notices may have been missed, and with them the reasons: what is left is told as
            // one update (a client resyncs by version).
            slot.owed.clear();
            match known {
                Some((v, change @ Change::Update(_))) if v == slot.game.version => {
                    self.tell(h, slot, change)
                }
                _ if !told => self.tell(h, slot, Change::Update("update")),
                _ => {}
            }
        }
        self.schedule_engine(h, slot);
        Ok(())
    }

    /// Tells this instance's listeners a change of the game in `slot` made elsewhere, already
    /// in memory, with the current state: only an update (the reload told the moves, undos and
    /// ends).
    fn tell(&self, h: &GameHandle, slot: &mut Slot, change: Change) {
        if matches!(change, Change::Update(_)) {
            let state = self.state_of(h, slot, None);
            self.broadcast(h, &state, change, None);
        }
    }

    /// The reason of version `version` of the game in `h` was heard (`reason`, from its notice,
    /// or the service that made the change here): reloads the game if it is older, else tells
    /// the change if it is owed to the listeners. `in_order` says that the reasons of every
    /// older version were heard before (the notices, in the order of the changes): what is
    /// still owed of them was told already.
    async fn heard(
        self: &Arc<Games>,
        h: &Arc<GameHandle>,
        version: u64,
        reason: &str,
        in_order: bool,
    ) -> Result<(), ApiError> {
        let change = Change::heard(reason);
        let mut slot = h.slot.lock().await;
        if slot.game.version < version {
            return self.refresh(h, &mut slot, Some((version, change))).await;
        }
        if in_order {
            slot.owed = slot.owed.split_off(&version);
        }
        if slot.owed.remove(&version) && version >= h.told.load(Ordering::Acquire) {
            self.tell(h, &mut slot, change);
        }
        Ok(())
    }

    /// Broadcasts the last move of the game in `slot`.
    fn broadcast_move(&self, h: &GameHandle, slot: &mut Slot) {
        let state = self.state_of(h, slot, None);
        let last = state.moves.last().cloned();
        self.broadcast(h, &state, Change::Moved, last.as_ref());
    }

    fn make_handle(&self, game: LiveGame, engine_owner: Option<String>) -> Arc<GameHandle> {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        Arc::new(GameHandle {
            id: game.id.clone(),
            slot: tokio::sync::Mutex::new(Slot {
                game,
                engine_owner,
                engine_client: None,
                engine_job: None,
                moves: view::MoveCache::default(),
                owed: BTreeSet::new(),
            }),
            events,
            local: Mutex::new(PresenceCounts::default()),
            totals: Mutex::new((0, PresenceCounts::default())),
            readings: AtomicU64::new(1),
            announced: AtomicU64::new(0),
            told: AtomicU64::new(0),
            presence_pending: AtomicBool::new(false),
            storing_presence: tokio::sync::Mutex::new(()),
            touched: AtomicI64::new(now_ms()),
        })
    }

    /// The state of a game as seen by the holder of `you`.
    pub fn state_of(&self, h: &GameHandle, slot: &mut Slot, you: Option<Seats>) -> GameState {
        let moves = slot.moves.get(&slot.game).to_vec();
        view::game_state(
            &slot.game,
            moves,
            h.presence(),
            slot.game.engine_to_move(),
            you,
            now_ms(),
        )
    }

    /// Broadcasts a change (only serialized when someone listens).
    fn broadcast(
        &self,
        h: &GameHandle,
        state: &GameState,
        change: Change,
        last: Option<&MoveView>,
    ) {
        if h.events.receiver_count() == 0 {
            return;
        }
        h.told.fetch_max(state.version, Ordering::AcqRel);
        let send = |msg: ServerMessage<'_>| {
            let _ = h.events.send(msg.to_text());
        };
        let end = || ServerMessage::End {
            result: &state.result,
            winner: state.winner,
            reason: state.end_reason,
            state,
        };
        match change {
            Change::Moved => {
                if let Some(mv) = last {
                    send(ServerMessage::Move { mv, state });
                }
                if state.status == "finished" {
                    send(end());
                }
            }
            Change::Resigned => send(end()),
            Change::Undone => send(ServerMessage::Undo { state }),
            Change::Update(reason) => send(ServerMessage::Update { reason, state }),
        }
    }

    /// Plans a change of the game in `slot` with `plan` and stores it if the stored game is
    /// still the one planned from; then swaps it in, broadcasts it and starts the engine if it
    /// is to move. When another instance changed the game first, reloads it (broadcasting what
    /// it missed) and plans again, so that the request is judged on the latest state.
    async fn transact<T>(
        self: &Arc<Games>,
        h: &Arc<GameHandle>,
        slot: &mut Slot,
        mut plan: impl FnMut(&LiveGame) -> Result<Plan<T>, ApiError>,
    ) -> Result<(T, GameState), ApiError> {
        for _ in 0..3 {
            let planned = match plan(&slot.game) {
                Ok(p) => p,
                // Refused by what this instance knows: maybe another one changed the game and
                // its notice is still on the way. Ask the database before saying no.
                Err(e) if self.cluster.is_shared() && self.newer_stored(h, slot).await? => {
                    tracing::debug!("game {} was behind ({}); reloaded", h.id, e.message);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let Plan {
                mut next,
                moves,
                change,
                out,
            } = planned;
            next.version = slot.game.version + 1;
            let owner = next
                .engine_to_move()
                .then(|| self.cluster.instance().to_string());
            let op = RowChange {
                id: h.id.clone(),
                expect: slot.game.version,
                row: RowState::of(&next, owner.clone()),
                moves,
                reason: change.reason(),
            };
            if !self.store.write(WriteOp::Change(Box::new(op))).await? {
                self.refresh(h, slot, None).await?;
                continue;
            }
            let ended = next.is_over() && !slot.game.is_over();
            slot.game = next;
            slot.engine_owner = owner;
            slot.engine_job = None;
            h.touched.store(now_ms(), Ordering::Relaxed);
            self.schedule_engine(h, slot);
            self.publish(GameEvent::Changed {
                id: h.id.clone(),
                version: slot.game.version,
                deadline: slot.game.deadline().map(|(deadline, _)| deadline),
            });
            if change == Change::Moved {
                crate::metrics::move_played();
                self.announce_turn(h, &slot.game);
                self.publish(GameEvent::Moved {
                    id: h.id.clone(),
                    moves: slot.game.game.moves().len(),
                });
            }
            if ended {
                self.publish(GameEvent::Ended {
                    id: h.id.clone(),
                    rated: slot.game.rated,
                    result: slot.game.game.result(),
                    reason: slot.game.end_reason,
                    tournament: slot.game.tournament.clone(),
                });
            }
            let state = self.state_of(h, slot, None);
            let last = match change {
                Change::Moved => state.moves.last().cloned(),
                _ => None,
            };
            self.broadcast(h, &state, change, last.as_ref());
            return Ok((out, state));
        }
        Err(stale())
    }

    /// Tells the player to move in a correspondence game that it is their turn (their open
    /// lobby pages notify them).
    fn announce_turn(self: &Arc<Games>, h: &GameHandle, g: &LiveGame) {
        let correspondence = g
            .clock
            .is_some_and(|c| matches!(c.control, crate::model::TimeControl::Days { .. }));
        let Some(player) = g.to_move().and_then(|c| g.player(c)) else {
            return;
        };
        if !correspondence {
            return;
        }
        let payload = format!("u {} turn {}", player.key, h.id);
        let cluster = self.cluster.clone();
        tokio::spawn(async move {
            if let Err(e) = cluster.announce(&[payload]).await {
                tracing::warn!("turn notice not sent: {e}");
            }
        });
    }

    /// Ends the game in `slot` if its clock ran out (a flag or an abort); says whether it did.
    async fn enforce_clock(
        self: &Arc<Games>,
        h: &Arc<GameHandle>,
        slot: &mut Slot,
    ) -> Result<bool, ApiError> {
        if slot.game.due(now_ms()).is_none() {
            return Ok(false);
        }
        let ended = self
            .transact(h, slot, |g| {
                let now = now_ms();
                let due = g.due(now).ok_or(Refusal::NotDue)?;
                let mut next = g.clone();
                next.apply_due(due, now);
                Ok(Plan::new(next, Change::Resigned, ()))
            })
            .await;
        match ended {
            Ok(_) => {
                crate::metrics::flag_fired();
                Ok(true)
            }
            Err(e) if e.code == ErrorCode::GameOver => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Ends game `id` if its clock ran out; says whether it did.
    pub async fn flag_if_due(self: &Arc<Games>, id: &str) -> Result<bool, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        self.enforce_clock(&h, &mut slot).await
    }

    /// After a change made outside this service (a rating, a claim of guest games, a rename)
    /// stored game `id` at `version`: reloads the game if it is in memory and older, and tells
    /// its listeners the change as `reason`, once (its notice may have come first).
    pub async fn reload_if_cached(self: &Arc<Games>, id: &str, version: u64, reason: &str) {
        let cached = self.games.lock().ok().and_then(|g| g.get(id).cloned());
        let Some(h) = cached else { return };
        if let Err(e) = self.heard(&h, version, reason, false).await {
            tracing::warn!("cannot reload game {id}: {}", e.message);
        }
    }

    /// Drops games nobody used for a while from memory (they stay in the store).
    pub fn evict_idle(&self) -> usize {
        let cutoff = now_ms() - self.config.idle_eviction.as_millis() as i64;
        let Ok(mut games) = self.games.lock() else {
            return 0;
        };
        let before = games.len();
        games.retain(|_, h| {
            Arc::strong_count(h) > 1
                || h.events.receiver_count() > 0
                || h.touched.load(Ordering::Relaxed) > cutoff
        });
        before - games.len()
    }

    /// How many games are in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().map(|g| g.len()).unwrap_or(0)
    }

    /// The games in memory now.
    pub(super) fn handles(&self) -> Vec<Arc<GameHandle>> {
        self.games
            .lock()
            .map(|g| g.values().cloned().collect())
            .unwrap_or_default()
    }

    /// The seats a WebSocket's hello holds: by its token (which must hold one) or its session's
    /// account; none for a spectator.
    pub fn seats_of_hello(
        slot: &Slot,
        token: Option<&str>,
        account: Option<String>,
    ) -> Result<Seats, ApiError> {
        let caller = Caller {
            token: token.map(auth::hash),
            account,
        };
        match (&caller.token, &caller.account) {
            (None, None) => Ok(Seats::default()),
            (Some(_), _) => seats_for(&slot.game, &caller),
            (None, Some(_)) => Ok(caller.seats(&slot.game).unwrap_or_default()),
        }
    }

    /// The `sync` message for a client that has `since` moves of epoch `epoch`.
    pub fn sync_message(
        &self,
        h: &GameHandle,
        slot: &mut Slot,
        since: Option<u32>,
        epoch: Option<u32>,
        you: Seats,
    ) -> Utf8Bytes {
        let state = self.state_of(h, slot, None);
        let count = state.moves.len() as u32;
        let after = match (since, epoch) {
            (Some(s), Some(e)) if e == slot.game.epoch && s <= count => s,
            (Some(s), None) if slot.game.epoch == 0 && s <= count => s,
            _ => 0,
        };
        let moves = &state.moves[after as usize..];
        ServerMessage::Sync {
            after,
            moves,
            state: &state,
            you: you.sides(),
        }
        .to_text()
    }
}

impl GameHandle {
    /// The presence counts now, over all instances.
    pub fn presence(&self) -> PresenceCounts {
        self.totals.lock().map(|p| p.1).unwrap_or_default()
    }
}
