//! The hub: the games being served, kept in memory in front of the store, and every action on
//! them.
//!
//! Each game has a [`GameHandle`]: its [`LiveGame`] behind an async mutex, which serializes the
//! game's actions; a broadcast channel for its WebSocket listeners; and its presence counts.
//! Every action follows the same steps under the game's lock: check the request against the
//! game, compute the new game on a copy, **commit it to the store**, only then replace the game
//! in memory, broadcast the change and answer. A failed commit changes nothing and answers
//! `internal`. Because listeners subscribe under the same lock, each of them sees every change
//! after its snapshot exactly once, in order.

use crate::analysis::Analyst;
use crate::auth::{self, MaybeToken, Seats};
use crate::engine::EnginePool;
use crate::error::{ApiError, ErrorCode};
use crate::model::{EndReason, EngineSettings, LiveGame, Mode, PairHalf, Side, UndoOffer};
use crate::store::{ListFilter, Store, StoredGame, WriteOp};
use crate::view::{
    self, ColorChoice, CreateGame, GameState, GameSummary, MoveView, PresenceCounts, SeatGrant,
    SeedInput,
};
use axum::extract::ws::Utf8Bytes;
use mabula::{Color, Game, GameResult, Move, Position, Scoring};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// Settings of the hub that the command line can change.
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// Engine computations allowed at once.
    pub engine_threads: usize,
    /// Thinking time of the engine when a game does not say.
    pub engine_movetime: Duration,
    /// How long an unused game stays in memory.
    pub idle_eviction: Duration,
    /// The bound on the analysis of one position (the analysis board).
    pub analysis_time: Duration,
}

impl Default for HubConfig {
    fn default() -> HubConfig {
        HubConfig {
            engine_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            engine_movetime: Duration::from_millis(1000),
            idle_eviction: Duration::from_secs(120),
            analysis_time: Duration::from_millis(1500),
        }
    }
}

/// The engine's estimate of a start for the record: `White 52.3%`, or the exact verdict.
fn deal_estimate(r: &mabula_engine::annotate::Report) -> String {
    match r.verdict {
        Some(v) => v.to_string(),
        None => format!("White {:.1}%", 100.0 * r.white),
    }
}

/// Where a new game comes from: the game it is a rematch of, and its place in a duplicate pair.
#[derive(Default)]
struct Origin {
    /// The game this one is a rematch of.
    rematch_of: Option<String>,
    /// The new game's place in a duplicate pair.
    pair: Option<PairHalf>,
    /// The first game's result, when the new game is the second of a pair.
    pair_first: Option<GameResult>,
}

/// The games being served.
pub struct Hub {
    /// Where games are kept.
    pub store: Store,
    /// Where engine moves are computed.
    engine: EnginePool,
    /// The analysis board's service (runs on `engine`, caches per position).
    analyst: Arc<Analyst>,
    /// Settings.
    config: HubConfig,
    /// The games in memory, by id.
    games: Mutex<HashMap<String, Arc<GameHandle>>>,
}

/// What a game's lock protects.
pub struct Slot {
    /// The game.
    pub game: LiveGame,
    /// The engine computation in progress, if any; a result whose job is no longer this one
    /// (after an undo or a resignation) is dropped.
    engine_job: Option<u64>,
    /// Counter for `engine_job`.
    jobs: u64,
    /// The move list's views, kept between answers.
    moves: view::MoveCache,
}

/// One game in memory.
pub struct GameHandle {
    /// The game id.
    pub id: String,
    /// The game, locked for every action.
    pub slot: tokio::sync::Mutex<Slot>,
    /// Changes for the WebSocket listeners, as ready-to-send JSON.
    pub events: broadcast::Sender<Utf8Bytes>,
    /// Open WebSockets per seat and spectators.
    presence: Mutex<PresenceCounts>,
    /// A presence message is scheduled (they are coalesced).
    presence_pending: AtomicBool,
    /// Last use, ms since the epoch (for eviction).
    touched: AtomicI64,
}

/// How many messages a slow listener may fall behind before it is resynced.
const EVENT_BUFFER: usize = 512;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The messages the server sends on a game's WebSocket (`docs/api.md`, section 5).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// Answer to `hello`.
    Sync {
        /// The client keeps its moves `1..=after`.
        after: u32,
        /// The moves after `after`.
        moves: &'a [MoveView],
        /// The full state.
        state: &'a GameState,
        /// The seats of the hello's token.
        you: Vec<Side>,
    },
    /// A move was played.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: &'a MoveView,
        /// The state after it.
        state: &'a GameState,
    },
    /// Moves were taken back.
    Undo {
        /// The state after it.
        state: &'a GameState,
    },
    /// The game ended.
    End {
        /// Result token.
        result: &'a str,
        /// The winner, if any.
        winner: Option<Side>,
        /// Why.
        reason: Option<EndReason>,
        /// The final state.
        state: &'a GameState,
    },
    /// Something else changed.
    Update {
        /// What.
        reason: &'a str,
        /// The state after it.
        state: &'a GameState,
    },
    /// Who is connected.
    Presence {
        /// Both seats.
        seats: view::SeatsView,
        /// Spectators.
        spectators: u32,
    },
    /// A bad client message.
    Error {
        /// Stable code.
        code: ErrorCode,
        /// What was wrong.
        message: &'a str,
    },
    /// Answer to `ping`.
    Pong,
}

impl ServerMessage<'_> {
    /// The message as a WebSocket text payload.
    pub fn to_text(&self) -> Utf8Bytes {
        Utf8Bytes::from(serde_json::to_string(self).unwrap_or_else(|_| "{}".into()))
    }
}

/// What changed, for the broadcast after a commit.
enum Change {
    Moved,
    Undone,
    Resigned,
    Update(&'static str),
}

/// Checks the token of a request that acts for a seat.
fn seats_for(g: &LiveGame, token: &MaybeToken) -> Result<Seats, ApiError> {
    let hash = token.required()?;
    let seats = g.seats_of(&hash);
    if seats.is_empty() {
        return Err(ApiError::new(
            ErrorCode::TokenInvalid,
            "this token holds no seat in this game",
        ));
    }
    Ok(seats)
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::InvalidSettings, message)
}

fn pick(choice: Option<ColorChoice>, default: Color) -> Color {
    match choice {
        None => default,
        Some(ColorChoice::White) => Color::White,
        Some(ColorChoice::Black) => Color::Black,
        Some(ColorChoice::Random) => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
    }
}

/// A seat grant for `token` holding `seats` of `g`.
fn grant(
    g: &LiveGame,
    token: String,
    seats: Seats,
    join_code: Option<String>,
    state: GameState,
) -> SeatGrant {
    SeatGrant {
        game_id: g.id.clone(),
        token,
        seats: seats.sides(),
        join_path: join_code
            .as_ref()
            .map(|c| format!("/game/{}#join={c}", g.id)),
        join_code,
        watch_path: format!("/game/{}", g.id),
        state,
    }
}

impl Hub {
    /// A hub over `store`.
    pub fn new(store: Store, config: HubConfig) -> Arc<Hub> {
        let engine = EnginePool::new(config.engine_threads);
        let analyst = Arc::new(Analyst::new(
            engine.clone(),
            config.engine_threads,
            config.analysis_time,
        ));
        Arc::new(Hub {
            store,
            analyst,
            engine,
            config,
            games: Mutex::new(HashMap::new()),
        })
    }

    /// The analysis service.
    pub fn analyst(&self) -> &Arc<Analyst> {
        &self.analyst
    }

    /// The engine pool (for shutdown).
    pub fn engine(&self) -> &EnginePool {
        &self.engine
    }

    /// Loads the unfinished engine games waiting for the engine and starts their engines (after
    /// a restart).
    pub async fn resume_engines(self: &Arc<Hub>) -> Result<usize, ApiError> {
        let ids = self.store.engine_pending().await?;
        for id in &ids {
            // Loading a game whose engine is to move starts the engine.
            if let Err(e) = self.handle(id).await {
                tracing::warn!("cannot resume game {id}: {}", e.message);
            }
        }
        Ok(ids.len())
    }

    /// The game `id`, from memory or the store.
    pub async fn handle(self: &Arc<Hub>, id: &str) -> Result<Arc<GameHandle>, ApiError> {
        if !auth::is_game_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        if let Some(h) = self.games.lock().map_err(ApiError::internal)?.get(id) {
            h.touched.store(now_ms(), Ordering::Relaxed);
            return Ok(h.clone());
        }
        let stored = self
            .store
            .load(id)
            .await?
            .ok_or_else(|| ApiError::game_not_found(id))?;
        let mut game = stored.into_live().map_err(ApiError::internal)?;
        if game.pair == Some(PairHalf::Second)
            && let Some(first) = &game.rematch_of
        {
            // The first game is over, so its stored result is final.
            game.pair_first = self
                .store
                .load(first)
                .await?
                .and_then(|f| GameResult::parse(&f.result));
        }
        let fresh = self.make_handle(game);
        let h = {
            let mut games = self.games.lock().map_err(ApiError::internal)?;
            games.entry(id.to_string()).or_insert(fresh).clone()
        };
        let mut slot = h.slot.lock().await;
        self.schedule_engine(&h, &mut slot);
        drop(slot);
        Ok(h)
    }

    fn make_handle(&self, game: LiveGame) -> Arc<GameHandle> {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        Arc::new(GameHandle {
            id: game.id.clone(),
            slot: tokio::sync::Mutex::new(Slot {
                game,
                engine_job: None,
                jobs: 0,
                moves: view::MoveCache::default(),
            }),
            events,
            presence: Mutex::new(PresenceCounts::default()),
            presence_pending: AtomicBool::new(false),
            touched: AtomicI64::new(now_ms()),
        })
    }

    /// Adds a new game to the store and to memory.
    async fn insert(self: &Arc<Hub>, game: LiveGame) -> Result<Arc<GameHandle>, ApiError> {
        self.store
            .write(WriteOp::InsertGame(Box::new(StoredGame::from_live(&game))))
            .await?;
        let h = self.make_handle(game);
        self.games
            .lock()
            .map_err(ApiError::internal)?
            .insert(h.id.clone(), h.clone());
        let mut slot = h.slot.lock().await;
        self.schedule_engine(&h, &mut slot);
        drop(slot);
        Ok(h)
    }

    /// The state of a game as seen by the holder of `you`.
    pub fn state_of(&self, h: &GameHandle, slot: &mut Slot, you: Option<Seats>) -> GameState {
        let moves = slot.moves.get(&slot.game).to_vec();
        view::game_state(
            &slot.game,
            moves,
            h.presence(),
            slot.engine_job.is_some(),
            you,
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
        let send = |msg: ServerMessage<'_>| {
            let _ = h.events.send(msg.to_text());
        };
        match change {
            Change::Moved => {
                if let Some(mv) = last {
                    send(ServerMessage::Move { mv, state });
                }
                if state.status == "finished" {
                    send(ServerMessage::End {
                        result: &state.result,
                        winner: state.winner,
                        reason: state.end_reason,
                        state,
                    });
                }
            }
            Change::Resigned => send(ServerMessage::End {
                result: &state.result,
                winner: state.winner,
                reason: state.end_reason,
                state,
            }),
            Change::Undone => send(ServerMessage::Undo { state }),
            Change::Update(reason) => send(ServerMessage::Update { reason, state }),
        }
    }

    /// Commits `next` as the new game of `slot` with `op`, then broadcasts `change`, restarts the
    /// engine if it is to move, and answers the state for `you`.
    async fn commit(
        self: &Arc<Hub>,
        h: &Arc<GameHandle>,
        slot: &mut Slot,
        next: LiveGame,
        op: WriteOp,
        change: Change,
        you: Option<Seats>,
    ) -> Result<GameState, ApiError> {
        self.store.write(op).await?;
        slot.game = next;
        h.touched.store(now_ms(), Ordering::Relaxed);
        if matches!(change, Change::Undone | Change::Resigned) {
            slot.engine_job = None;
        }
        self.schedule_engine(h, slot);
        let mut state = self.state_of(h, slot, None);
        let last = match change {
            Change::Moved => state.moves.last().cloned(),
            _ => None,
        };
        self.broadcast(h, &state, change, last.as_ref());
        state.you = you.map(Seats::sides);
        Ok(state)
    }

    /// Creates a game.
    pub async fn create(self: &Arc<Hub>, req: CreateGame) -> Result<SeatGrant, ApiError> {
        let scoring: Scoring = match req.scoring.as_deref() {
            None => Scoring::Largest,
            Some(s) => s
                .parse()
                .map_err(|e: mabula::scoring::ParseScoringError| invalid(e.to_string()))?,
        };
        let (start, seed) = match &req.setup {
            Some(text) => {
                if req.first.is_some() || req.seed.is_some() {
                    return Err(invalid(
                        "give either a setup or a seed and who moves first, not both",
                    ));
                }
                let pos = Position::parse(text)
                    .map_err(|e| ApiError::new(ErrorCode::InvalidSetup, e.to_string()))?;
                mabula::deal::check(&pos).map_err(|e| {
                    ApiError::new(
                        ErrorCode::InvalidSetup,
                        format!("this position is no valid start: {e}"),
                    )
                })?;
                (pos, None)
            }
            None => {
                let seed = match &req.seed {
                    None => rand::random::<u64>(),
                    Some(SeedInput::Number(n)) => *n,
                    Some(SeedInput::Text(t)) => t.trim().parse::<u64>().map_err(|_| {
                        invalid(format!("seed '{t}' is not a whole number from 0 to 2^64-1"))
                    })?,
                };
                (
                    mabula::deal::random(seed, pick(req.first, Color::White)),
                    Some(seed),
                )
            }
        };
        if req.mode != Mode::Engine
            && (req.engine_level.is_some() || req.engine_movetime_ms.is_some())
        {
            return Err(invalid(
                "engine_level and engine_movetime_ms belong to engine games only",
            ));
        }
        if req.mode == Mode::Local && req.color.is_some() {
            return Err(invalid(
                "a game at one screen has no colour to choose: you hold both seats",
            ));
        }
        let level = req.engine_level.unwrap_or(3);
        if !(1..=10).contains(&level) {
            return Err(invalid(format!(
                "engine_level {level} is out of range: use 1 to 10"
            )));
        }
        let movetime = req
            .engine_movetime_ms
            .unwrap_or(self.config.engine_movetime.as_millis() as u32);
        if !(10..=10_000).contains(&movetime) {
            return Err(invalid(format!(
                "engine_movetime_ms {movetime} is out of range: use 10 to 10000"
            )));
        }
        let color = pick(req.color, Color::White);
        let engine = (req.mode == Mode::Engine).then_some(EngineSettings {
            color: Side::from(color.other()),
            level,
            movetime_ms: movetime,
        });
        let seats = match req.mode {
            Mode::Local => Seats {
                white: true,
                black: true,
            },
            _ => Seats::of(color),
        };
        let game = Game::new(start, scoring);
        let origin = Origin {
            pair: req.duplicate.unwrap_or(false).then_some(PairHalf::First),
            ..Origin::default()
        };
        self.create_game(req.mode, seed, engine, game, seats, origin)
            .await
    }

    /// Creates a game whose creator holds `seats`; answers 201's grant.
    async fn create_game(
        self: &Arc<Hub>,
        mode: Mode,
        seed: Option<u64>,
        engine: Option<EngineSettings>,
        game: Game,
        seats: Seats,
        origin: Origin,
    ) -> Result<SeatGrant, ApiError> {
        let Origin {
            rematch_of,
            pair,
            pair_first,
        } = origin;
        let token = auth::new_token();
        let hash = auth::hash(&token);
        let join_code = (mode == Mode::Friend && rematch_of.is_none()).then(auth::new_join_code);
        let now = now_ms();
        let mut live = LiveGame {
            id: auth::new_game_id(),
            created_at: now,
            updated_at: now,
            mode,
            seed,
            engine,
            white_token: seats.white.then_some(hash),
            black_token: seats.black.then_some(hash),
            join_code: join_code.as_deref().map(auth::hash),
            game,
            epoch: 0,
            end_reason: None,
            rematch_id: None,
            rematch_of,
            undo_offer: None,
            hints: [0, 0],
            pair,
            pair_first,
        };
        if live.game.result() != GameResult::Unfinished {
            live.end_reason = Some(if live.game.position().is_game_over() {
                EndReason::NoMoves
            } else {
                EndReason::Declared
            });
        }
        let h = self.insert(live).await?;
        let mut slot = h.slot.lock().await;
        let state = self.state_of(&h, &mut slot, Some(seats));
        Ok(grant(&slot.game, token, seats, join_code, state))
    }

    /// The state of game `id`; a token, when sent, must be valid and fills `you`.
    pub async fn state(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let you = match token.0 {
            None => None,
            Some(_) => Some(seats_for(&slot.game, token)?),
        };
        Ok(self.state_of(&h, &mut slot, you))
    }

    /// Plays a move for the holder of `token`.
    pub async fn play(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
        text: &str,
        number: Option<u32>,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        let mv = slot.game.check_move(seats, text, number)?;
        let mut next = slot.game.clone();
        next.apply_move(mv, now_ms())?;
        let op = move_op(&next, mv);
        self.commit(&h, &mut slot, next, op, Change::Moved, Some(seats))
            .await
    }

    /// Resigns for the holder of `token`.
    pub async fn resign(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
        side: Option<Side>,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        let color = slot.game.check_resign(seats, side)?;
        let mut next = slot.game.clone();
        next.resign(color, now_ms());
        let op = WriteOp::Update {
            id: next.id.clone(),
            progress: next.progress(),
        };
        self.commit(&h, &mut slot, next, op, Change::Resigned, Some(seats))
            .await
    }

    /// Counts a hint for the player to move in a game against the engine and answers the state
    /// with the position and scoring the hint is for (the caller asks the analysis service).
    pub async fn hint(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
    ) -> Result<(GameState, Position, Scoring), ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        let g = &slot.game;
        if g.mode != Mode::Engine {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "hints are only given in games against the engine",
            ));
        }
        let Some(color) = g.to_move() else {
            return Err(ApiError::new(
                ErrorCode::GameOver,
                format!("the game is over ({})", g.game.result()),
            ));
        };
        if !seats.holds(color) || g.is_engine(color) {
            return Err(ApiError::new(
                ErrorCode::NotYourTurn,
                "a hint is for your own turn",
            ));
        }
        let mut next = g.clone();
        next.hints[usize::from(color == Color::Black)] += 1;
        next.updated_at = now_ms();
        let pos = *next.game.position();
        let scoring = next.game.scoring();
        let op = WriteOp::Update {
            id: next.id.clone(),
            progress: next.progress(),
        };
        let state = self
            .commit(&h, &mut slot, next, op, Change::Update("hint"), Some(seats))
            .await?;
        Ok((state, pos, scoring))
    }

    /// Takes back (engine and local games) or offers to take back (friend games).
    pub async fn undo(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        let count = slot.game.undo_count(seats)?;
        let mut next = slot.game.clone();
        if next.mode == Mode::Friend {
            if next.undo_offer.is_some() {
                return Err(ApiError::new(
                    ErrorCode::UndoOfferPending,
                    "an undo is already offered",
                ));
            }
            let by = seats
                .only()
                .ok_or_else(|| ApiError::internal("friend token holding both seats"))?;
            next.undo_offer = Some(UndoOffer {
                by: Side::from(by),
                moves: count,
            });
            // Not stored: an offer is a passing request, not part of the game.
            slot.game = next;
            let state = self.state_of(&h, &mut slot, None);
            self.broadcast(&h, &state, Change::Update("undo_offered"), None);
            return Ok(GameState {
                you: Some(seats.sides()),
                ..state
            });
        }
        next.take_back(count, now_ms());
        let op = truncate_op(&next);
        self.commit(&h, &mut slot, next, op, Change::Undone, Some(seats))
            .await
    }

    /// Accepts the opponent's undo offer.
    pub async fn accept_undo(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        let Some(offer) = slot.game.undo_offer else {
            return Err(ApiError::new(ErrorCode::NoUndoOffer, "no undo is offered"));
        };
        if seats.holds(Color::from(offer.by)) {
            return Err(ApiError::new(
                ErrorCode::NotYourSeat,
                "you offered this undo: the other side accepts or declines it",
            ));
        }
        let mut next = slot.game.clone();
        next.take_back(offer.moves, now_ms());
        let op = truncate_op(&next);
        self.commit(&h, &mut slot, next, op, Change::Undone, Some(seats))
            .await
    }

    /// Declines (or withdraws) an undo offer.
    pub async fn decline_undo(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        if slot.game.undo_offer.is_none() {
            return Err(ApiError::new(ErrorCode::NoUndoOffer, "no undo is offered"));
        }
        slot.game.undo_offer = None;
        let state = self.state_of(&h, &mut slot, None);
        self.broadcast(&h, &state, Change::Update("undo_declined"), None);
        Ok(GameState {
            you: Some(seats.sides()),
            ..state
        })
    }

    /// Claims a friend game's free seat with its join code.
    pub async fn join(self: &Arc<Hub>, id: &str, code: &str) -> Result<SeatGrant, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let g = &slot.game;
        if g.mode != Mode::Friend || !auth::matches(g.join_code.as_ref(), &auth::hash(code)) {
            return Err(ApiError::new(
                ErrorCode::JoinCodeInvalid,
                "this join code does not open a seat in this game",
            ));
        }
        let Some(color) = Color::BOTH.into_iter().find(|&c| g.token_of(c).is_none()) else {
            return Err(ApiError::new(
                ErrorCode::SeatTaken,
                "this join code was used already: the seat is taken",
            ));
        };
        let token = auth::new_token();
        let hash = auth::hash(&token);
        let claimed = self
            .store
            .write(WriteOp::ClaimSeat {
                id: g.id.clone(),
                color: Side::from(color),
                token: hash,
            })
            .await?;
        if !claimed {
            return Err(ApiError::new(
                ErrorCode::SeatTaken,
                "this join code was used already: the seat is taken",
            ));
        }
        set_token(&mut slot.game, color, hash);
        let state = self.state_of(&h, &mut slot, None);
        self.broadcast(&h, &state, Change::Update("joined"), None);
        let seats = Seats::of(color);
        let state = GameState {
            you: Some(seats.sides()),
            ..state
        };
        Ok(grant(&slot.game, token, seats, None, state))
    }

    /// A rematch: the first call creates it, the friend's call claims its other seat.
    pub async fn rematch(
        self: &Arc<Hub>,
        id: &str,
        token: &MaybeToken,
    ) -> Result<SeatGrant, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        if !slot.game.game.is_finished() {
            return Err(ApiError::new(
                ErrorCode::GameNotOver,
                "a rematch can be asked for once the game is over",
            ));
        }
        // The people's colours swap.
        let new_seats = Seats {
            white: seats.black,
            black: seats.white,
        };
        if let Some(new_id) = slot.game.rematch_id.clone() {
            let taken = || {
                ApiError::new(
                    ErrorCode::RematchTaken,
                    "your seat in the rematch was handed out already",
                )
            };
            let color = match (slot.game.mode, new_seats.only()) {
                (Mode::Friend, Some(c)) => c,
                _ => return Err(taken()),
            };
            let nh = self.handle(&new_id).await?;
            let mut ns = nh.slot.lock().await;
            if ns.game.token_of(color).is_some() {
                return Err(taken());
            }
            let token = auth::new_token();
            let hash = auth::hash(&token);
            let claimed = self
                .store
                .write(WriteOp::ClaimSeat {
                    id: new_id.clone(),
                    color: Side::from(color),
                    token: hash,
                })
                .await?;
            if !claimed {
                return Err(taken());
            }
            set_token(&mut ns.game, color, hash);
            let state = self.state_of(&nh, &mut ns, None);
            self.broadcast(&nh, &state, Change::Update("joined"), None);
            let state = GameState {
                you: Some(new_seats.sides()),
                ..state
            };
            return Ok(grant(&ns.game, token, new_seats, None, state));
        }
        let old = &slot.game;
        let start = *old.game.start();
        // The second game of a duplicate pair replays the first one's start; any other rematch
        // of a dealt game gets a new deal (after a pair, the first game of a new pair).
        let pair = match old.pair {
            Some(PairHalf::First) => Some(PairHalf::Second),
            Some(PairHalf::Second) => Some(PairHalf::First),
            None => None,
        };
        let (start, seed) = match old.seed {
            _ if pair == Some(PairHalf::Second) => (start, old.seed),
            Some(_) => {
                let seed = rand::random::<u64>();
                (mabula::deal::random(seed, start.side_to_move()), Some(seed))
            }
            None => (start, None),
        };
        let engine = old.engine.map(|e| EngineSettings {
            color: Side::from(Color::from(e.color).other()),
            ..e
        });
        let game = Game::new(start, old.game.scoring());
        let grant = self
            .create_game(
                old.mode,
                seed,
                engine,
                game,
                new_seats,
                Origin {
                    rematch_of: Some(old.id.clone()),
                    pair,
                    pair_first: (pair == Some(PairHalf::Second)).then(|| old.game.result()),
                },
            )
            .await?;
        self.store
            .write(WriteOp::SetRematch {
                id: old.id.clone(),
                rematch_id: grant.game_id.clone(),
            })
            .await?;
        slot.game.rematch_id = Some(grant.game_id.clone());
        let state = self.state_of(&h, &mut slot, None);
        self.broadcast(&h, &state, Change::Update("rematch"), None);
        Ok(grant)
    }

    /// Imports a record as a new local game.
    pub async fn import(self: &Arc<Hub>, record: &str) -> Result<SeatGrant, ApiError> {
        let parsed = Game::parse(record)
            .map_err(|e| ApiError::new(ErrorCode::InvalidRecord, e.to_string()))?;
        // Keep only what the store keeps (start, scoring, moves, result), so the game is the same
        // before and after a restart.
        let mut game = Game::new(*parsed.start(), parsed.scoring());
        for &mv in parsed.moves() {
            game.play(mv)
                .map_err(|e| ApiError::new(ErrorCode::InvalidRecord, e.to_string()))?;
        }
        if parsed.result() != GameResult::Unfinished && !game.is_finished() {
            game.declare(parsed.result());
        }
        let both = Seats {
            white: true,
            black: true,
        };
        self.create_game(Mode::Local, None, None, game, both, Origin::default())
            .await
    }

    /// The record of a game.
    pub async fn record(self: &Arc<Hub>, id: &str) -> Result<String, ApiError> {
        let h = self.handle(id).await?;
        let slot = h.slot.lock().await;
        let g = &slot.game;
        let mut game = g.game.clone();
        let name = |c: Color| match g.engine {
            Some(e) if Color::from(e.color) == c => format!("Engine level {}", e.level),
            _ => "Player".to_string(),
        };
        game.set_tag("Event", "Mabula");
        game.set_tag("Site", "mabula serve");
        game.set_tag("Date", &record_date(g.created_at));
        game.set_tag("White", &name(Color::White));
        game.set_tag("Black", &name(Color::Black));
        game.set_tag("GameId", &g.id);
        for (tag, n) in [("WhiteHints", g.hints[0]), ("BlackHints", g.hints[1])] {
            if n > 0 {
                game.set_tag(tag, &n.to_string());
            }
        }
        // The engine's estimate of the deal, when the start was analysed (the game page asks for
        // it before move 1).
        if let Some(r) = self.analyst.peek(game.start(), game.scoring()) {
            game.set_tag("DealEstimate", &deal_estimate(&r));
        }
        Ok(game.to_string())
    }

    /// Lists games.
    pub async fn list(&self, filter: ListFilter, limit: u32) -> Result<Vec<GameSummary>, ApiError> {
        Ok(self.store.list(filter, limit).await?)
    }

    /// Starts the engine if it is to move and not computing yet.
    fn schedule_engine(self: &Arc<Hub>, h: &Arc<GameHandle>, slot: &mut Slot) {
        let g = &slot.game;
        let Some(settings) = g.engine else { return };
        if !g.engine_to_move() || slot.engine_job.is_some() {
            return;
        }
        slot.jobs += 1;
        let job = slot.jobs;
        slot.engine_job = Some(job);
        let pos = *g.game.position();
        let scoring = g.game.scoring();
        let seed = engine_seed(&g.id, g.game.moves().len(), g.epoch);
        let (hub, h) = (self.clone(), h.clone());
        tokio::spawn(async move {
            let movetime = Duration::from_millis(u64::from(settings.movetime_ms));
            let mv = hub
                .engine
                .choose(pos, scoring, settings.level, movetime, seed)
                .await;
            hub.engine_moved(&h, job, mv).await;
        });
    }

    /// Plays the engine's move if the game still waits for it.
    async fn engine_moved(self: &Arc<Hub>, h: &Arc<GameHandle>, job: u64, mv: Option<Move>) {
        let mut slot = h.slot.lock().await;
        if slot.engine_job != Some(job) {
            return; // taken back or resigned meanwhile
        }
        slot.engine_job = None;
        let Some(mv) = mv else { return };
        if !slot.game.engine_to_move() || !slot.game.game.position().is_legal(mv) {
            tracing::error!(
                "engine proposed {mv} in game {}, which is not legal there",
                h.id
            );
            return;
        }
        let mut next = slot.game.clone();
        if next.apply_move(mv, now_ms()).is_err() {
            return;
        }
        let op = move_op(&next, mv);
        if let Err(e) = self
            .commit(h, &mut slot, next, op, Change::Moved, None)
            .await
        {
            tracing::warn!(
                "engine move {mv} in game {} not stored: {}",
                h.id,
                e.message
            );
        }
    }

    /// Counts a WebSocket in or out of the presence of a game, and schedules a presence message.
    pub fn presence_change(self: &Arc<Hub>, h: &Arc<GameHandle>, seats: Option<Seats>, delta: i32) {
        if let Ok(mut p) = h.presence.lock() {
            let add = |n: &mut u32| *n = n.saturating_add_signed(delta);
            match seats {
                Some(s) => {
                    if s.white {
                        add(&mut p.white);
                    }
                    if s.black {
                        add(&mut p.black);
                    }
                }
                None => add(&mut p.spectators),
            }
        }
        h.touched.store(now_ms(), Ordering::Relaxed);
        if h.presence_pending.swap(true, Ordering::AcqRel) {
            return;
        }
        let h = h.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            h.presence_pending.store(false, Ordering::Release);
            let slot = h.slot.lock().await;
            let presence = h.presence();
            let seats = view::seats_view(&slot.game, presence);
            drop(slot);
            let msg = ServerMessage::Presence {
                seats,
                spectators: presence.spectators,
            };
            let _ = h.events.send(msg.to_text());
        });
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

    /// The seats `token` holds in the game (for the WebSocket hello).
    pub fn seats_of_token(slot: &Slot, token: &str) -> Result<Seats, ApiError> {
        seats_for(&slot.game, &MaybeToken(Some(auth::hash(token))))
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
    /// The presence counts now.
    pub fn presence(&self) -> PresenceCounts {
        self.presence.lock().map(|p| *p).unwrap_or_default()
    }
}

fn set_token(g: &mut LiveGame, color: Color, hash: auth::TokenHash) {
    match color {
        Color::White => g.white_token = Some(hash),
        Color::Black => g.black_token = Some(hash),
    }
}

fn move_op(next: &LiveGame, mv: Move) -> WriteOp {
    WriteOp::AppendMove {
        id: next.id.clone(),
        ply: next.game.moves().len() as u32 - 1,
        notation: mv.to_string(),
        progress: next.progress(),
    }
}

fn truncate_op(next: &LiveGame) -> WriteOp {
    WriteOp::Truncate {
        id: next.id.clone(),
        keep: next.game.moves().len() as u32,
        progress: next.progress(),
    }
}

/// A reproducible engine seed per game, move and epoch.
fn engine_seed(id: &str, ply: usize, epoch: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(epoch).rotate_left(32)
}

/// `YYYY.MM.DD` (UTC) of a time in ms since the epoch, as records write dates.
pub fn record_date(ms: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_dates_are_utc_calendar_days() {
        assert_eq!(record_date(0), "1970.01.01");
        assert_eq!(record_date(1_767_225_600_000), "2026.01.01");
        assert_eq!(record_date(951_782_400_000), "2000.02.29");
    }
}
