//! What clients do with games: create, look, move, resign, ask for a hint, take back, join,
//! ask for a rematch, import, read the record, list. Every change goes through
//! [`Games::transact`], so it is judged on the latest stored state.

use super::{Change, Games, Plan, seats_for, stale};
use crate::analysis::Analyst;
use crate::auth::{self, Caller, Session};
use crate::error::{ApiError, ErrorCode};
use crate::model::rating::PAIR_RATED_PER_DAY;
use crate::model::{
    Clock, EndReason, EngineSettings, LiveGame, Mode, PairHalf, Player, Refusal, Seats,
    TimeControl, TokenHash, UndoOffer,
};
use crate::services::{now_ms, record_date};
use crate::store::{EngineCap, ListFilter, MovesChange, RowState, StoredGame, WriteOp};
use crate::view::{self, ColorChoice, CreateGame, GameState, GameSummary, SeatGrant, SeedInput};
use mabula::{Color, Game, GameResult, Position, Scoring};
use std::sync::Arc;

/// A day, over which the rated games of a pair are counted (ms).
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

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
    /// The client asking (its address), whose turn it is in the engine queue.
    client: Option<String>,
    /// The players with accounts in White's and Black's seats.
    players: [Option<Player>; 2],
    /// Whether the game is rated.
    rated: bool,
    /// The time control.
    clock: Option<TimeControl>,
    /// The tournament game's id, derived from its place in the tournament, and the tournament.
    tournament: Option<(String, String)>,
}

/// How long an unfinished engine game nobody moves in still counts against its address's cap
/// (ms): an abandoned game does not lock its address out for ever.
const ENGINE_GAME_IDLE_MS: i64 = 3_600_000;

/// The refusal of an engine game over its address's cap of `most`.
fn too_many_engine_games(most: u32) -> ApiError {
    ApiError::new(
        ErrorCode::RateLimited,
        format!(
            "your address has {most} unfinished engine games already, the most it may have: \
             finish or resign one first (a game left alone for an hour no longer counts)"
        ),
    )
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

/// The account of a logged-in session, as the player of a casual game's seat (no rating).
fn casual_player(session: &Session) -> Player {
    Player {
        key: session.key.clone(),
        name: session.name.clone(),
        rating: None,
        provisional: false,
        diff: None,
        bot: session.bot,
    }
}

fn set_token(g: &mut LiveGame, color: Color, hash: TokenHash) {
    match color {
        Color::White => g.white_token = Some(hash),
        Color::Black => g.black_token = Some(hash),
    }
}

impl Games {
    /// Creates a game; a logged-in creator's account is the player of their seat (engine and
    /// friend games, casual), so that the game is on their profile.
    pub async fn create(
        self: &Arc<Games>,
        req: CreateGame,
        client: &str,
        session: Option<&Session>,
    ) -> Result<SeatGrant, ApiError> {
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
            color: color.other(),
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
        let mut players = [None, None];
        if let (Some(session), Some(color)) = (session, seats.only()) {
            players[usize::from(color == Color::Black)] = Some(casual_player(session));
        }
        let origin = Origin {
            pair: req.duplicate.unwrap_or(false).then_some(PairHalf::First),
            client: Some(client.to_string()),
            players,
            ..Origin::default()
        };
        self.create_game(req.mode, seed, engine, game, seats, origin)
            .await
    }

    /// Creates a game whose creator holds `seats`; answers 201's grant.
    async fn create_game(
        self: &Arc<Games>,
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
            client,
            players,
            rated,
            clock,
            tournament,
        } = origin;
        // A tournament's games are rated as the tournament is: the pair's daily quota does not
        // make them casual (the pairing, not the players, chose the opponent).
        let rated = rated && (tournament.is_some() || self.pair_may_play_rated(&players).await?);
        let token = auth::new_token();
        let hash = auth::hash(&token);
        // A friend game has a join code for its free seat; a game between two accounts (from
        // the lobby) has none.
        let join_code =
            (mode == Mode::Friend && rematch_of.is_none() && players.iter().any(Option::is_none))
                .then(auth::new_join_code);
        let now = now_ms();
        let (id, tournament) = match (tournament, &rematch_of) {
            (Some((id, t)), _) => (id, Some(t)),
            (None, Some(old)) => (auth::rematch_game_id(old), None),
            (None, None) => (auth::new_game_id(), None),
        };
        let mut live = LiveGame {
            id,
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
            version: 0,
            end_reason: None,
            rematch_id: None,
            rematch_of,
            undo_offer: None,
            draw_offer: None,
            draw_refused: [None, None],
            hints: [0, 0],
            pair,
            pair_first,
            players,
            rated,
            clock: clock.map(|c| Clock::new(c, now)),
            tournament,
        };
        if live.game.result() != GameResult::Unfinished {
            live.end_reason = Some(if live.game.position().is_game_over() {
                EndReason::NoMoves
            } else {
                EndReason::Declared
            });
        }
        let owner = live
            .engine_to_move()
            .then(|| self.cluster.instance().to_string());
        let stored = StoredGame::from_live(&live, owner.clone());
        let row = RowState::of(&live, owner.clone());
        // An engine game counts against its client address, a rematch too (the rematches of
        // games finished long ago would add unfinished ones past the cap); the game it follows
        // is finished and no longer counts.
        let most = match self.config.engine_games_per_address {
            0 => u32::MAX,
            most => most,
        };
        let cap = live.engine.and(client.clone()).map(|address| EngineCap {
            address,
            most,
            active_since: now - ENGINE_GAME_IDLE_MS,
        });
        let capped = cap.as_ref().is_some_and(|c| c.most != u32::MAX);
        if !self
            .store
            .write(WriteOp::Insert(Box::new(stored), Box::new(row), cap))
            .await?
        {
            // Its id can be there already: another request made the rematch (or another instance
            // the tournament's game) just now. Else an account of the game became a bot while it
            // was made (issue 51).
            let taken = self.store.version(&live.id).await?.is_some();
            return Err(if taken {
                Refusal::RematchTaken.into()
            } else if capped {
                too_many_engine_games(most)
            } else {
                ApiError::new(
                    ErrorCode::StaleState,
                    "a player of this game has just become a bot: try again",
                )
            });
        }
        let h = self.make_handle(live, owner);
        self.games
            .lock()
            .map_err(ApiError::internal)?
            .insert(h.id.clone(), h.clone());
        let mut slot = h.slot.lock().await;
        slot.engine_client = client;
        self.schedule_engine(&h, &mut slot);
        let state = self.state_of(&h, &mut slot, Some(seats));
        Ok(grant(&slot.game, token, seats, join_code, state))
    }

    /// The state of game `id`; a token, when sent, must be valid and fills `you`.
    pub async fn state(self: &Arc<Games>, id: &str, token: &Caller) -> Result<GameState, ApiError> {
        let h = self.latest(id).await?;
        let mut slot = h.slot.lock().await;
        let you = match (&token.token, &token.account) {
            (None, None) => None,
            (None, Some(_)) => Some(token.seats(&slot.game)?).filter(|s| !s.is_empty()),
            (Some(_), _) => Some(seats_for(&slot.game, token)?),
        };
        // A player who follows the game by asking is there, socket or not.
        if let Some(seats) = you.filter(|_| slot.game.is_claimable()) {
            self.seen(&h, seats, false);
        }
        Ok(self.state_of(&h, &mut slot, you))
    }

    /// Plays a move for the holder of `token`, asking from `client`.
    pub async fn play(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
        text: &str,
        number: Option<u32>,
        client: &str,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        slot.engine_client = Some(client.to_string());
        self.enforce_clock(&h, &mut slot).await?;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let now = now_ms();
                let mv = g.check_move(seats, text, number, now)?;
                let mut next = g.clone();
                next.apply_move(mv, now)?;
                let ply = next.game.moves().len() as u32 - 1;
                let mut plan = Plan::new(next, Change::Moved, seats);
                plan.moves = MovesChange::Append { ply, mv };
                Ok(plan)
            })
            .await?;
        Ok(with_you(state, seats))
    }

    /// Resigns for the holder of `token`.
    pub async fn resign(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
        side: Option<Color>,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let color = g.check_resign(seats, side)?;
                let mut next = g.clone();
                next.resign(color, now_ms());
                Ok(Plan::new(next, Change::Resigned, seats))
            })
            .await?;
        Ok(with_you(state, seats))
    }

    /// Ends the game as won by the holder of `token` because the other side left it (see
    /// [`LiveGame::check_claim`]).
    pub async fn claim_win(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
    ) -> Result<GameState, ApiError> {
        let h = self.latest(id).await?;
        let mut slot = h.slot.lock().await;
        self.enforce_clock(&h, &mut slot).await?;
        let away = seats_for(&slot.game, token)?.only().map(Color::other);
        let since = match away {
            Some(color) => self.away_since(&h, &slot.game, color).await?,
            None => None,
        };
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let now = now_ms();
                let color = g.check_claim(seats, since, now)?;
                let mut next = g.clone();
                next.abandon(color, now);
                Ok(Plan::new(next, Change::Resigned, seats))
            })
            .await?;
        Ok(with_you(state, seats))
    }

    /// Counts a hint for the player to move in a game against the engine and answers the state
    /// with the position and scoring the hint is for (the caller asks the analysis service).
    pub async fn hint(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
    ) -> Result<(GameState, Position, Scoring), ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let color = g.check_hint(seats)?;
                let mut next = g.clone();
                next.hints[usize::from(color == Color::Black)] += 1;
                next.updated_at = now_ms();
                Ok(Plan::new(next, Change::Update("hint"), seats))
            })
            .await?;
        let pos = *slot.game.game.position();
        let scoring = slot.game.game.scoring();
        Ok((with_you(state, seats), pos, scoring))
    }

    /// Takes back (engine and local games) or offers to take back (friend games).
    pub async fn undo(self: &Arc<Games>, id: &str, token: &Caller) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let count = g.undo_count(seats)?;
                let mut next = g.clone();
                if next.mode != Mode::Friend {
                    next.take_back(count, now_ms());
                    let keep = next.game.moves().len() as u32;
                    let mut plan = Plan::new(next, Change::Undone, seats);
                    plan.moves = MovesChange::Truncate { keep };
                    return Ok(plan);
                }
                next.check_undo_offer()?;
                let by = seats
                    .only()
                    .ok_or_else(|| ApiError::internal("friend token holding both seats"))?;
                next.undo_offer = Some(UndoOffer { by, moves: count });
                Ok(Plan::new(next, Change::Update("undo_offered"), seats))
            })
            .await?;
        Ok(with_you(state, seats))
    }

    /// Accepts the opponent's undo offer.
    pub async fn accept_undo(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let offer = g.check_accept_undo(seats)?;
                let mut next = g.clone();
                next.take_back(offer.moves, now_ms());
                let keep = next.game.moves().len() as u32;
                let mut plan = Plan::new(next, Change::Undone, seats);
                plan.moves = MovesChange::Truncate { keep };
                Ok(plan)
            })
            .await?;
        Ok(with_you(state, seats))
    }

    /// Declines (or withdraws) an undo offer.
    pub async fn decline_undo(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                g.check_decline_undo()?;
                let mut next = g.clone();
                next.undo_offer = None;
                Ok(Plan::new(next, Change::Update("undo_declined"), seats))
            })
            .await?;
        Ok(with_you(state, seats))
    }

    /// Claims a friend game's free seat with its join code; a logged-in friend's account becomes
    /// that seat's player (unless it is the account of the other seat).
    pub async fn join(
        self: &Arc<Games>,
        id: &str,
        code: &str,
        session: Option<&Session>,
    ) -> Result<SeatGrant, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let token = auth::new_token();
        let hash = auth::hash(&token);
        let (color, state) = self
            .transact(&h, &mut slot, |g| {
                let color = g.check_join(auth::matches(g.join_code.as_ref(), &auth::hash(code)))?;
                let mut next = g.clone();
                set_token(&mut next, color, hash);
                if let Some(session) = session
                    && g.player(color.other()).is_none_or(|p| p.key != session.key)
                {
                    next.players[usize::from(color == Color::Black)] = Some(casual_player(session));
                }
                Ok(Plan::new(next, Change::Update("joined"), color))
            })
            .await?;
        let seats = Seats::of(color);
        Ok(grant(
            &slot.game,
            token,
            seats,
            None,
            with_you(state, seats),
        ))
    }

    /// A rematch: the first call creates it, the friend's call claims its other seat.
    pub async fn rematch(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
        client: &str,
    ) -> Result<SeatGrant, ApiError> {
        // The stored game, not this instance's copy: the game may have ended on another
        // instance a moment ago, and its notice still be on the way.
        let h = self.latest(id).await?;
        let mut slot = h.slot.lock().await;
        let seats = seats_for(&slot.game, token)?;
        slot.game.check_rematch()?;
        // The people's colours swap.
        let new_seats = Seats {
            white: seats.black,
            black: seats.white,
        };
        if slot.game.rematch_id.is_none() {
            // Two players asking at once (on two instances) both get here: both make the game
            // with the same id, and only the first insert stores it; the other joins it below.
            let created = match self.new_rematch(&slot.game, new_seats, client).await {
                Ok(new) => Some(new),
                Err(e) if e.code == ErrorCode::RematchTaken => None,
                Err(e) => return Err(e),
            };
            let new_id = auth::rematch_game_id(&h.id);
            let set = self
                .transact(&h, &mut slot, |g| {
                    if g.rematch_id.is_some() {
                        return Err(stale());
                    }
                    let mut next = g.clone();
                    next.rematch_id = Some(new_id.clone());
                    Ok(Plan::new(next, Change::Update("rematch"), ()))
                })
                .await;
            match set {
                Ok(_) => {}
                // The other request named the rematch first: the same game.
                Err(e) if e.code == ErrorCode::StaleState && slot.game.rematch_id.is_some() => {}
                Err(e) => return Err(e),
            }
            if let Some(new) = created {
                return Ok(new);
            }
        }
        let new_id = slot.game.rematch_id.clone().unwrap_or_default();
        let color = match (slot.game.mode, new_seats.only()) {
            (Mode::Friend, Some(c)) => c,
            _ => return Err(Refusal::RematchTaken.into()),
        };
        drop(slot);
        let nh = self.handle(&new_id).await?;
        let mut ns = nh.slot.lock().await;
        let token = auth::new_token();
        let hash = auth::hash(&token);
        let ((), state) = self
            .transact(&nh, &mut ns, |g| {
                g.check_rematch_seat(color)?;
                let mut next = g.clone();
                set_token(&mut next, color, hash);
                Ok(Plan::new(next, Change::Update("joined"), ()))
            })
            .await?;
        Ok(grant(
            &ns.game,
            token,
            new_seats,
            None,
            with_you(state, new_seats),
        ))
    }

    /// Creates the rematch game of the finished game `old`, where the caller holds `new_seats`.
    async fn new_rematch(
        self: &Arc<Games>,
        old: &LiveGame,
        new_seats: Seats,
        client: &str,
    ) -> Result<SeatGrant, ApiError> {
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
            color: e.color.other(),
            ..e
        });
        let game = Game::new(start, old.game.scoring());
        // Two accounts play again with the colours swapped, on the same clock, rated or not as
        // before, each with the rating they have now.
        let (players, rated, clock);
        if let ([Some(white), Some(black)], Some(c)) = (&old.players, old.clock) {
            let speed = c.control.speed();
            let rated_now = |p: &Player, r: &crate::model::rating::Rating| {
                let (rating, provisional) = r.shown();
                Player {
                    rating: Some(rating),
                    provisional,
                    diff: None,
                    ..p.clone()
                }
            };
            let scoring = old.game.scoring();
            let (w, b) = (
                self.ratings.rating(&white.key, scoring, speed).await?,
                self.ratings.rating(&black.key, scoring, speed).await?,
            );
            players = [Some(rated_now(black, &b)), Some(rated_now(white, &w))];
            (rated, clock) = (old.rated, Some(c.control));
        } else {
            // A casual game keeps its accounts, in their swapped seats, without ratings.
            let casual = |p: &Option<Player>| {
                p.as_ref().map(|p| Player {
                    rating: None,
                    provisional: false,
                    diff: None,
                    ..p.clone()
                })
            };
            players = [casual(&old.players[1]), casual(&old.players[0])];
            (rated, clock) = (false, old.clock.map(|c| c.control));
        }
        self.create_game(
            old.mode,
            seed,
            engine,
            game,
            new_seats,
            Origin {
                rematch_of: Some(old.id.clone()),
                pair,
                pair_first: (pair == Some(PairHalf::Second)).then(|| old.game.result()),
                client: Some(client.to_string()),
                players,
                rated,
                clock,
                tournament: None,
            },
        )
        .await
    }

    /// Whether the two accounts of a game asked for as rated may begin one more rated game
    /// today: at most [`PAIR_RATED_PER_DAY`] a day, counted in the store (so on every instance
    /// together). Beyond it the game is made casual before it begins, so that its page says so,
    /// and the pair is flagged for the moderators.
    async fn pair_may_play_rated(&self, players: &[Option<Player>; 2]) -> Result<bool, ApiError> {
        let [Some(a), Some(b)] = players else {
            return Ok(true);
        };
        let (low, high) = if a.key <= b.key {
            (&a.key, &b.key)
        } else {
            (&b.key, &a.key)
        };
        let now = now_ms();
        let quota = format!("{low} {high}");
        if self
            .pairs
            .take(&quota, now, now - DAY_MS, PAIR_RATED_PER_DAY)
            .await?
        {
            return Ok(true);
        }
        self.repo.flag_pair(low, high, now).await?;
        crate::metrics::pair_game_made_casual();
        tracing::info!("{low} and {high}: over {PAIR_RATED_PER_DAY} rated games today, casual");
        Ok(false)
    }

    /// Starts a game between two players with accounts (a seek or challenge accepted); answers
    /// its id.
    pub async fn create_player_game(
        self: &Arc<Games>,
        players: [Player; 2],
        scoring: Scoring,
        rated: bool,
        control: TimeControl,
    ) -> Result<String, ApiError> {
        let seed = rand::random::<u64>();
        let start = mabula::deal::random(seed, Color::White);
        let [white, black] = players;
        let grant = self
            .create_game(
                Mode::Friend,
                Some(seed),
                None,
                Game::new(start, scoring),
                Seats::default(),
                Origin {
                    players: [Some(white), Some(black)],
                    rated,
                    clock: Some(control),
                    ..Origin::default()
                },
            )
            .await?;
        Ok(grant.game_id)
    }

    /// Creates game `id` of tournament `tournament` between two accounts, unless a game with
    /// that id is there already (another instance made it): whether this call made it. Its id
    /// is derived from its place in the tournament, so every instance makes the same game.
    #[allow(clippy::too_many_arguments)]
    pub async fn create_tournament_game(
        self: &Arc<Games>,
        id: &str,
        tournament: &str,
        players: [Player; 2],
        seed: u64,
        scoring: Scoring,
        rated: bool,
        control: TimeControl,
        pair: Option<(PairHalf, Option<String>)>,
    ) -> Result<bool, ApiError> {
        let start = mabula::deal::random(seed, Color::White);
        let [white, black] = players;
        let (pair, rematch_of, pair_first) = match pair {
            None => (None, None, None),
            Some((half, first)) => {
                let first_result = match &first {
                    Some(f) => self.store.load(f).await?.map(|g| g.result),
                    None => None,
                };
                (Some(half), first, first_result)
            }
        };
        let made = self
            .create_game(
                Mode::Friend,
                Some(seed),
                None,
                Game::new(start, scoring),
                Seats::default(),
                Origin {
                    players: [Some(white), Some(black)],
                    rated,
                    clock: Some(control),
                    pair,
                    pair_first,
                    rematch_of,
                    tournament: Some((id.to_string(), tournament.to_string())),
                    ..Origin::default()
                },
            )
            .await;
        match made {
            Ok(_) => Ok(true),
            Err(e) if e.code == ErrorCode::RematchTaken => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// A game from the lobby against a house bot (issue 38): the house bot's side is the
    /// engine's, at `level`, so its moves are claimed in the database and computed once across
    /// instances like every engine move.
    pub async fn create_house_game(
        self: &Arc<Games>,
        players: [Player; 2],
        scoring: Scoring,
        rated: bool,
        control: TimeControl,
        engine_color: Color,
        level: u8,
    ) -> Result<String, ApiError> {
        let seed = rand::random::<u64>();
        let start = mabula::deal::random(seed, Color::White);
        let [white, black] = players;
        let engine = EngineSettings {
            color: engine_color,
            level,
            movetime_ms: self.config.engine_movetime.as_millis().clamp(10, 10_000) as u32,
        };
        let grant = self
            .create_game(
                Mode::Friend,
                Some(seed),
                Some(engine),
                Game::new(start, scoring),
                Seats::default(),
                Origin {
                    players: [Some(white), Some(black)],
                    rated,
                    clock: Some(control),
                    ..Origin::default()
                },
            )
            .await?;
        Ok(grant.game_id)
    }

    /// Imports a record as a new local game.
    pub async fn import(self: &Arc<Games>, record: &str) -> Result<SeatGrant, ApiError> {
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
    pub async fn record(self: &Arc<Games>, id: &str) -> Result<String, ApiError> {
        let h = self.latest(id).await?;
        let slot = h.slot.lock().await;
        Ok(record_text(&slot.game, &self.analyst))
    }

    /// Lists games.
    pub async fn list(&self, filter: ListFilter, limit: u32) -> Result<Vec<GameSummary>, ApiError> {
        let rows = self.store.list(filter, limit).await?;
        Ok(rows.into_iter().map(view::summary).collect())
    }
}

/// The record of game `g` with its tags (players, clock, rating, end, hints, and the deal's
/// estimate when `analyst` has it).
pub fn record_text(g: &LiveGame, analyst: &Analyst) -> String {
    let mut game = g.game.clone();
    let name = |c: Color| match (g.engine, g.player(c)) {
        (Some(e), _) if e.color == c => format!("Engine level {}", e.level),
        (_, Some(p)) => p.name.clone(),
        _ => "Player".to_string(),
    };
    game.set_tag("Event", "Mabula");
    game.set_tag("Site", "mabula serve");
    game.set_tag("Date", &record_date(g.created_at));
    game.set_tag("White", &name(Color::White));
    game.set_tag("Black", &name(Color::Black));
    game.set_tag("GameId", &g.id);
    if let Some(c) = &g.clock {
        game.set_tag("TimeControl", &c.control.label());
    }
    if g.rated {
        game.set_tag("Rated", "yes");
    }
    for (tag, c) in [("WhiteRating", Color::White), ("BlackRating", Color::Black)] {
        if let Some(r) = g.player(c).and_then(|p| p.rating) {
            game.set_tag(tag, &r.to_string());
        }
    }
    if let Some(reason) = g.end_reason {
        game.set_tag("Termination", reason.name());
    }
    for (tag, n) in [("WhiteHints", g.hints[0]), ("BlackHints", g.hints[1])] {
        if n > 0 {
            game.set_tag(tag, &n.to_string());
        }
    }
    // The engine's estimate of the deal, when the start was analysed (the game page asks for
    // it before move 1), but not while a rated game is played (fair play, issue 51).
    if (!g.rated || g.is_over())
        && let Some(r) = analyst.peek(game.start(), game.scoring())
    {
        game.set_tag("DealEstimate", &deal_estimate(&r));
    }
    game.to_string()
}

/// The state with the seats of the caller.
pub(super) fn with_you(state: GameState, seats: Seats) -> GameState {
    GameState {
        you: Some(seats.sides()),
        ..state
    }
}
