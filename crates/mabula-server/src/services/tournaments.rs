//! Tournaments (issue 37): Swiss tournaments of duplicate matches or single games, and arenas.
//!
//! The stored tournament is the truth. Every instance runs [`Tournaments::advance`] on each
//! tournament that is due, once a second and at once when one of its games ends: it reads the
//! tournament, its players and its pairings, creates the games of stored pairings that are
//! missing (their ids derived from their place, so they are created once), records the outcome
//! of games first seen over (with the margin on the final board, computed once), then asks the
//! pure core ([`crate::model::tournament`]) what comes next (start, a round or a wave paired,
//! players withdrawn after two missed games, the end), and stores that as one change conditional
//! on the version it was decided from. Another instance deciding first makes the change fail;
//! the tournament is read again and decided again. Every change announces `t ID`, which every
//! instance hands to its live channels of the tournament.

use super::cluster::Cluster;
use super::{Games, now_ms};
use crate::analysis::Analyst;
use crate::auth::{self, Session};
use crate::error::{ApiError, ErrorCode};
use crate::model::tournament::{
    Entrant, Format, GameOutcome, Pairing, arena, score, standings, swiss,
};
use crate::model::{EndReason, PairHalf, Player, TimeControl};
use crate::store::ratings::RatingReads;
use crate::store::tournaments::{
    EntrantRow, Joined, NewPairing, OutcomeRow, PairingRow, TournamentChange, TournamentRow,
    TournamentsRepo,
};
use crate::store::{Notice, Store};
use mabula::{Color, GameResult, Scoring};
use mabula_api::lobby::ClockRequest;
use mabula_api::tournaments::{
    CreateTournament, JoinTournament, PairingView, PlayerTournament, RoundView, StandingView,
    TournamentCreated, TournamentGameView, TournamentList, TournamentSettings, TournamentSummary,
    TournamentView,
};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Tournaments one account may have created and not finished.
pub const MAX_OPEN_PER_ACCOUNT: u32 = 3;
/// The same for an account with no settled rating yet (a new one).
pub const MAX_OPEN_PER_NEW_ACCOUNT: u32 = 1;
/// Players a tournament may have.
pub const MAX_PLAYERS: u32 = 1000;
/// A name's length in characters.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=40;
/// A Swiss tournament's rounds.
pub const ROUNDS: std::ops::RangeInclusive<u32> = 1..=15;
/// An arena pairs only the players whose account read the tournament in this time (ms): its
/// page's socket says so every [`SEEN_EVERY_MS`] while it is open.
pub const PRESENT_MS: i64 = 60_000;

/// How often a player's presence is written (at most), and the page's socket says it (ms).
pub const SEEN_EVERY_MS: i64 = 20_000;

/// An arena's minutes.
pub const MINUTES: std::ops::RangeInclusive<u32> = 10..=720;
/// How far ahead a tournament may start (ms): at least a minute, at most 30 days.
pub const START_AHEAD_MS: std::ops::RangeInclusive<i64> = 60_000..=30 * 24 * 3_600_000;
/// A password's length in characters.
const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 1..=100;
/// Missed games in a row after which a player is withdrawn.
pub const MISSED_TO_WITHDRAW: u32 = 2;

/// The tournaments of one instance.
pub struct Tournaments {
    store: Arc<Store>,
    /// Its repository.
    repo: TournamentsRepo,
    /// The ratings, read (the entrants').
    ratings: RatingReads,
    games: Arc<Games>,
    cluster: Arc<Cluster>,
    analyst: Arc<Analyst>,
    /// The tournaments the site makes by itself.
    schedules: Vec<Schedule>,
    /// The schedule keys known to be stored (so the sweep does not insert them every second).
    scheduled: Mutex<HashSet<String>>,
    /// The tournaments this instance is advancing now: a second call for one of them returns
    /// at once (the first sees what the second would; other instances are kept out by the
    /// stored version, not by this).
    busy: Mutex<HashSet<String>>,
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::InvalidTournament, message)
}

fn not_found(id: &str) -> ApiError {
    ApiError::new(
        ErrorCode::TournamentNotFound,
        format!("no tournament has the id {id}"),
    )
}

fn closed(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::TournamentClosed, message)
}

/// The seed of the deal of pairing (`round`, `board`) of a tournament whose seed is `seed`
/// (splitmix64 of the three): the same on every instance.
pub fn deal_seed(seed: u64, round: u32, board: u32) -> u64 {
    let mut z =
        seed ^ (u64::from(round) << 32 | u64::from(board)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The core's view of a stored pairing: the games whose outcome is recorded count as over. A
/// game called off because a side missed its first move (recorded as `*`) is lost by that side
/// in a Swiss tournament, and counts for nobody in an arena.
fn core_pairing(p: &PairingRow, t: &TournamentRow) -> Pairing {
    let arena = Format::parse(&t.format) == Some(Format::Arena);
    let mut games = Vec::new();
    for half in 0..2 {
        if p.game_ids[half].is_none() || p.games[half].is_none() {
            continue;
        }
        let o = &p.outcomes[half];
        let no_show = match o.no_show.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        let called_off = o.result.as_deref() == Some(GameResult::Unfinished.token());
        let result = match (called_off && !arena, no_show) {
            (true, Some(Color::White)) => GameResult::BlackWins,
            (true, Some(Color::Black)) => GameResult::WhiteWins,
            _ => o
                .result
                .as_deref()
                .and_then(GameResult::parse)
                .unwrap_or(GameResult::Unfinished),
        };
        games.push(GameOutcome {
            result,
            margin: o.margin,
            no_show,
            called_off: called_off && arena,
        });
    }
    Pairing {
        round: p.round,
        white: p.white.clone(),
        black: p.black.clone(),
        games,
        duplicate: t.duplicate && p.black.is_some(),
    }
}

fn entrants_of(rows: &[EntrantRow]) -> Vec<Entrant> {
    rows.iter()
        .map(|e| Entrant {
            key: e.account.clone(),
            rating: e.rating,
            withdrawn: e.withdrawn,
        })
        .collect()
}

/// A tournament read whole: its row, players and pairings.
struct Loaded {
    t: TournamentRow,
    entrants: Vec<EntrantRow>,
    pairings: Vec<PairingRow>,
}

impl Loaded {
    fn format(&self) -> Format {
        Format::parse(&self.t.format).unwrap_or(Format::Swiss)
    }

    fn core(&self) -> (Vec<Entrant>, Vec<Pairing>) {
        (
            entrants_of(&self.entrants),
            self.pairings
                .iter()
                .map(|p| core_pairing(p, &self.t))
                .collect(),
        )
    }

    fn standings(&self) -> Vec<standings::Standing> {
        let (entrants, pairings) = self.core();
        match self.format() {
            Format::Swiss => standings::swiss(&entrants, &pairings),
            Format::Arena => standings::arena(&entrants, &pairings),
        }
    }

    fn ends_at(&self) -> Option<i64> {
        match self.format() {
            Format::Arena => self
                .t
                .minutes
                .map(|m| self.t.starts_at + i64::from(m) * 60_000),
            Format::Swiss => self.t.finished_at,
        }
    }
}

fn settings_of(t: &TournamentRow) -> TournamentSettings {
    let control = TimeControl::Clock {
        initial_s: t.initial_s,
        increment_s: t.increment_s,
    };
    TournamentSettings {
        format: t.format.clone(),
        scoring: t.scoring.clone(),
        clock: ClockRequest {
            initial_s: t.initial_s,
            increment_s: t.increment_s,
        },
        label: control.label(),
        rounds: t.rounds,
        minutes: t.minutes,
        duplicate: t.duplicate,
        sequential: t.sequential,
        rated: t.rated,
        min_rating: t.min_rating,
        password: t.password_hash.is_some(),
    }
}

fn summary_of(t: &TournamentRow) -> TournamentSummary {
    TournamentSummary {
        id: t.id.clone(),
        name: t.name.clone(),
        status: t.status.clone(),
        settings: settings_of(t),
        starts_at: t.starts_at,
        ends_at: match t.format.as_str() {
            "arena" => t.minutes.map(|m| t.starts_at + i64::from(m) * 60_000),
            _ => t.finished_at,
        },
        players: t.players,
        created_by: t.creator_name.clone(),
        winner: t.winner_name.clone(),
    }
}

/// Checks a creation request at `now`; the row to store (without id, seed and password hash).
pub fn check_request(req: &CreateTournament, now: i64) -> Result<TournamentRow, ApiError> {
    let name = req.name.trim();
    let chars = name.chars().count();
    if !NAME_CHARS.contains(&chars) {
        return Err(invalid(format!(
            "a tournament's name has {} to {} characters (this one has {chars})",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(invalid("a tournament's name is one line of plain text"));
    }
    let format =
        Format::parse(&req.format).ok_or_else(|| invalid("the format is `swiss` or `arena`"))?;
    let scoring: Scoring = req
        .scoring
        .parse()
        .map_err(|_| invalid("the scoring is `largest` or `product`"))?;
    let control = TimeControl::Clock {
        initial_s: req.clock.initial_s,
        increment_s: req.clock.increment_s,
    };
    control.check().map_err(invalid)?;
    let (rounds, minutes) = match format {
        Format::Swiss => {
            if req.minutes.is_some() {
                return Err(invalid("a Swiss tournament has `rounds`, not `minutes`"));
            }
            let r = req
                .rounds
                .ok_or_else(|| invalid("a Swiss tournament needs `rounds`"))?;
            if !ROUNDS.contains(&r) {
                return Err(invalid(format!(
                    "a Swiss tournament has {} to {} rounds",
                    ROUNDS.start(),
                    ROUNDS.end()
                )));
            }
            (Some(r), None)
        }
        Format::Arena => {
            if req.rounds.is_some() {
                return Err(invalid("an arena has `minutes`, not `rounds`"));
            }
            let m = req
                .minutes
                .ok_or_else(|| invalid("an arena needs `minutes`"))?;
            if !MINUTES.contains(&m) {
                return Err(invalid(format!(
                    "an arena lasts {} to {} minutes",
                    MINUTES.start(),
                    MINUTES.end()
                )));
            }
            (None, Some(m))
        }
    };
    let duplicate = req.duplicate.unwrap_or(format == Format::Swiss);
    if req.sequential.is_some() && !(format == Format::Swiss && duplicate) {
        return Err(invalid(
            "`sequential` is for duplicate Swiss tournaments only",
        ));
    }
    let ahead = req.starts_at - now;
    if !START_AHEAD_MS.contains(&ahead) {
        return Err(invalid(
            "a tournament starts at least a minute and at most 30 days from now",
        ));
    }
    if let Some(r) = req.min_rating
        && !(0..=4000).contains(&r)
    {
        return Err(invalid("the minimum rating is between 0 and 4000"));
    }
    if let Some(p) = &req.password
        && !PASSWORD_CHARS.contains(&p.chars().count())
    {
        return Err(invalid("a tournament's password has 1 to 100 characters"));
    }
    Ok(TournamentRow {
        id: String::new(),
        name: name.to_string(),
        format: format.name().to_string(),
        scoring: scoring.name().to_string(),
        initial_s: req.clock.initial_s,
        increment_s: req.clock.increment_s,
        rounds,
        minutes,
        duplicate,
        sequential: req.sequential.unwrap_or(false),
        rated: req.rated,
        starts_at: req.starts_at,
        min_rating: req.min_rating,
        password_hash: None,
        creator: None,
        status: "created".to_string(),
        seed: 0,
        version: 0,
        created_at: now,
        finished_at: None,
        schedule_key: None,
        winner: None,
        creator_name: None,
        winner_name: None,
        players: 0,
    })
}

/// How a finished game ended, as a pairing keeps it: its result (`*` for a game called off),
/// the margin on the final board when it ended there, and the side that missed it (the game
/// was called off before its first move).
pub fn outcome_of(g: &crate::model::LiveGame) -> OutcomeRow {
    let result = g.game.result();
    let moves = g.game.moves().len();
    let margin = match g.end_reason {
        Some(EndReason::NoMoves) | None if g.game.position().is_game_over() => {
            let s = g.game.position().scores(g.game.scoring());
            Some(i64::from(s.white) - i64::from(s.black))
        }
        _ => None,
    };
    let no_show = match g.end_reason {
        Some(EndReason::Aborted) if moves == 0 => Some("white"),
        Some(EndReason::Aborted) if moves == 1 => Some("black"),
        _ => None,
    };
    OutcomeRow {
        result: Some(result.token().to_string()),
        margin,
        no_show: no_show.map(str::to_string),
    }
}

impl Tournaments {
    /// The tournaments over `store`, their games among `games`.
    pub fn new(
        store: Arc<Store>,
        repo: TournamentsRepo,
        ratings: RatingReads,
        games: Arc<Games>,
        cluster: Arc<Cluster>,
        analyst: Arc<Analyst>,
        schedules: Vec<Schedule>,
    ) -> Tournaments {
        Tournaments {
            store,
            repo,
            ratings,
            games,
            cluster,
            analyst,
            schedules,
            scheduled: Mutex::new(HashSet::new()),
            busy: Mutex::new(HashSet::new()),
        }
    }

    /// Advances the tournament of each tournament game that ends here, at once.
    pub fn follow(self: &Arc<Tournaments>, mut events: mpsc::UnboundedReceiver<super::GameEvent>) {
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                if let super::GameEvent::Ended {
                    tournament: Some(tournament),
                    ..
                } = event
                {
                    let me = me.clone();
                    tokio::spawn(async move {
                        if let Err(e) = me.advance(&tournament).await {
                            tracing::warn!("cannot advance tournament {tournament}: {}", e.message);
                        }
                    });
                }
            }
        });
    }

    /// Advances every tournament that is due (every instance runs this each second).
    pub async fn sweep(&self) -> Result<(), ApiError> {
        self.make_scheduled().await?;
        for id in self.repo.due_tournaments(now_ms()).await? {
            self.advance(&id).await?;
        }
        Ok(())
    }

    /// Tells this instance's listeners (SQLite; PostgreSQL's notice reaches every instance).
    fn changed(&self, id: &str) {
        self.cluster
            .deliver([Notice::Tournament { id: id.to_string() }]);
    }

    async fn load(&self, id: &str) -> Result<Option<Loaded>, ApiError> {
        let db = &self.repo;
        let Some(t) = db.tournament(id).await? else {
            return Ok(None);
        };
        let entrants = db.tournament_entrants(id).await?;
        let pairings = db.tournament_pairings(id).await?;
        Ok(Some(Loaded {
            t,
            entrants,
            pairings,
        }))
    }

    /// Brings tournament `id` forward as far as it goes now: its missing games created, the
    /// outcomes of its ended games recorded, and the next change decided and stored once.
    pub async fn advance(&self, id: &str) -> Result<(), ApiError> {
        {
            let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
            if !busy.insert(id.to_string()) {
                return Ok(());
            }
        }
        let r = self.advance_now(id).await;
        self.busy
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        r
    }

    async fn advance_now(&self, id: &str) -> Result<(), ApiError> {
        for _ in 0..8 {
            let Some(l) = self.load(id).await? else {
                return Ok(());
            };
            if l.t.status == "finished" {
                return Ok(());
            }
            if self.bring_games(&l).await? {
                continue; // outcomes recorded: read again
            }
            let change = decide(&l, now_ms());
            if change.is_empty() {
                return Ok(());
            }
            if self
                .repo
                .change_tournament(id, l.t.version, &change)
                .await?
            {
                self.changed(id);
                if change.status == Some("finished") {
                    tracing::info!("tournament {id} finished");
                }
                // The new pairings' games, now (every instance's sweep makes any missed).
                if let Some(l) = self.load(id).await? {
                    self.bring_games(&l).await?;
                }
                return Ok(());
            }
            // Another instance changed it first: read it again and decide again.
        }
        Ok(())
    }

    /// Creates the games of stored pairings that are missing, and records the outcomes of
    /// games first seen over; whether an outcome was recorded (the tournament changed).
    async fn bring_games(&self, l: &Loaded) -> Result<bool, ApiError> {
        let mut recorded = false;
        for p in &l.pairings {
            let Some(black) = &p.black else { continue };
            for half in 0..2 {
                let Some(gid) = &p.game_ids[half] else {
                    continue;
                };
                match &p.games[half] {
                    None => {
                        // A sequential match's second game waits for the first to end.
                        let first_over = p.games[0].as_ref().is_some_and(|g| g.finished);
                        if half == 1 && l.t.sequential && !first_over {
                            continue;
                        }
                        self.create_game(l, p, black, half, gid).await?;
                    }
                    Some(g) if g.finished && p.outcomes[half].result.is_none() => {
                        let Some(stored) = self.store.load(gid).await? else {
                            continue;
                        };
                        let live = stored.into_live().map_err(ApiError::internal)?;
                        let outcome = outcome_of(&live);
                        // An arena's player who missed a game's first move is paused: they
                        // are not paired again until they come back.
                        let (white, black) = if half == 0 {
                            (p.white.as_str(), black.as_str())
                        } else {
                            (black.as_str(), p.white.as_str())
                        };
                        let pause = match outcome.no_show.as_deref() {
                            _ if l.format() != Format::Arena => None,
                            Some("white") => Some(white),
                            Some(_) => Some(black),
                            None => None,
                        };
                        if self
                            .repo
                            .record_tournament_outcome(
                                &l.t.id, p.round, p.board, half, &outcome, pause,
                            )
                            .await?
                        {
                            self.changed(&l.t.id);
                            recorded = true;
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        Ok(recorded)
    }

    /// Creates game `half` of pairing `p` (its id `gid`), if nobody did, and tells its players.
    async fn create_game(
        &self,
        l: &Loaded,
        p: &PairingRow,
        black: &str,
        half: usize,
        gid: &str,
    ) -> Result<(), ApiError> {
        let t = &l.t;
        let scoring: Scoring = t.scoring.parse().unwrap_or(Scoring::Largest);
        let control = TimeControl::Clock {
            initial_s: t.initial_s,
            increment_s: t.increment_s,
        };
        let (w, b) = if half == 0 {
            (p.white.as_str(), black)
        } else {
            (black, p.white.as_str())
        };
        let mut players = Vec::new();
        for key in [w, b] {
            let name = l
                .entrants
                .iter()
                .find(|e| e.account == key)
                .map_or_else(|| key.to_string(), |e| e.name.clone());
            let r = self.ratings.rating(key, scoring, control.speed()).await?;
            let (rating, provisional) = r.shown();
            players.push(Player {
                key: key.to_string(),
                name,
                rating: Some(rating),
                provisional,
                diff: None,
                bot: false,
            });
        }
        let players: [Player; 2] = [players[0].clone(), players[1].clone()];
        let pair = match (t.duplicate, half) {
            (false, _) => None,
            (true, 0) => Some((PairHalf::First, None)),
            // The second game of a sequential match follows the first (its page shows both);
            // games played at once stand each alone until both are over.
            (true, _) => Some((
                PairHalf::Second,
                t.sequential.then(|| p.game_ids[0].clone()).flatten(),
            )),
        };
        let made = self
            .games
            .create_tournament_game(
                gid,
                &t.id,
                players,
                deal_seed(t.seed, p.round, p.board),
                scoring,
                t.rated,
                control,
                pair,
            )
            .await?;
        if made {
            let started: Vec<String> = [w, b]
                .iter()
                .map(|key| format!("u {key} game {gid} {}", t.id))
                .collect();
            self.cluster.announce(&started).await?;
        }
        Ok(())
    }

    /// Creates a tournament for `session`.
    pub async fn create(
        &self,
        session: &Session,
        req: CreateTournament,
    ) -> Result<TournamentCreated, ApiError> {
        let now = now_ms();
        let mut row = check_request(&req, now)?;
        row.id = auth::new_game_id();
        row.seed = rand::random::<u64>();
        row.creator = Some(session.key.clone());
        if let Some(p) = req.password {
            row.password_hash = Some(super::accounts::hash_password(p).await?);
        }
        // A new account (no settled rating) makes one at a time, listed after the others.
        let settled = self
            .ratings
            .ratings(&session.key)
            .await?
            .iter()
            .any(|r| !r.rating.provisional());
        let most = if settled {
            MAX_OPEN_PER_ACCOUNT
        } else {
            MAX_OPEN_PER_NEW_ACCOUNT
        };
        if !self.repo.insert_tournament(&row, most, settled).await? {
            let why = if settled {
                ""
            } else {
                " until one of your ratings is settled"
            };
            return Err(ApiError::new(
                ErrorCode::TooManyTournaments,
                format!(
                    "tournaments you made that have not finished: at most {most}{why}; wait \
                     until one finishes"
                ),
            ));
        }
        self.changed(&row.id);
        Ok(TournamentCreated { id: row.id })
    }

    /// Makes the next occurrence of each schedule, if no instance has yet.
    async fn make_scheduled(&self) -> Result<(), ApiError> {
        let now = now_ms();
        for s in &self.schedules {
            let row = s.row(s.next_after(now))?;
            let key = row.schedule_key.clone().unwrap_or_default();
            if self
                .scheduled
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(&key)
            {
                continue;
            }
            if self.create_scheduled(row).await? {
                tracing::info!("scheduled tournament made: {key}");
            }
            self.scheduled
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key);
        }
        Ok(())
    }

    /// Stores the site's own tournament `row` (a schedule's occurrence) unless that occurrence
    /// is there already: whether this call made it.
    pub async fn create_scheduled(&self, mut row: TournamentRow) -> Result<bool, ApiError> {
        if row.id.is_empty() {
            row.id = auth::new_game_id();
        }
        let made = self.repo.insert_tournament(&row, u32::MAX, true).await?;
        if made {
            self.changed(&row.id);
        }
        Ok(made)
    }

    /// The tournaments: upcoming, running, recently finished.
    pub async fn list(&self) -> Result<TournamentList, ApiError> {
        let db = &self.repo;
        let summaries = |rows: Vec<TournamentRow>| rows.iter().map(summary_of).collect::<Vec<_>>();
        Ok(TournamentList {
            upcoming: summaries(db.tournaments("created", 50).await?),
            running: summaries(db.tournaments("running", 50).await?),
            finished: summaries(db.tournaments("finished", 20).await?),
        })
    }

    /// Tournament `id`, whole.
    pub async fn view(&self, id: &str) -> Result<TournamentView, ApiError> {
        let l = self.load(id).await?.ok_or_else(|| not_found(id))?;
        Ok(view_of(&l))
    }

    /// `session` joins tournament `id`.
    pub async fn join(
        &self,
        id: &str,
        session: &Session,
        req: JoinTournament,
    ) -> Result<TournamentView, ApiError> {
        let db = &self.repo;
        let t = db.tournament(id).await?.ok_or_else(|| not_found(id))?;
        if t.status == "finished" {
            return Err(closed("this tournament is finished"));
        }
        if let Some(hash) = &t.password_hash {
            let given = req.password.unwrap_or_default();
            if given.is_empty() || !super::accounts::password_matches(given, hash.clone()).await {
                return Err(ApiError::new(
                    ErrorCode::TournamentPassword,
                    "this tournament's password is not the one given",
                ));
            }
        }
        let scoring: Scoring = t.scoring.parse().unwrap_or(Scoring::Largest);
        let control = TimeControl::Clock {
            initial_s: t.initial_s,
            increment_s: t.increment_s,
        };
        let r = self
            .ratings
            .rating(&session.key, scoring, control.speed())
            .await?;
        let (rating, _) = r.shown();
        if let Some(min) = t.min_rating
            && rating < min
        {
            return Err(ApiError::new(
                ErrorCode::RatingTooLow,
                format!("this tournament asks for a rating of {min} at least; yours is {rating}"),
            ));
        }
        let entrant = EntrantRow {
            account: session.key.clone(),
            name: session.name.clone(),
            rating,
            joined_at: now_ms(),
            withdrawn: false,
            seen_at: now_ms(),
            paused: false,
        };
        match db.join_tournament(id, &entrant, MAX_PLAYERS).await? {
            Joined::Joined => {}
            Joined::Closed => return Err(closed("this tournament is finished")),
            Joined::Full => {
                return Err(closed(format!(
                    "this tournament has {MAX_PLAYERS} players, the most it may have"
                )));
            }
        }
        self.changed(id);
        self.view(id).await
    }

    /// `session` withdraws from tournament `id`: never paired again; games under way stand.
    pub async fn withdraw(&self, id: &str, session: &Session) -> Result<TournamentView, ApiError> {
        let db = &self.repo;
        let t = db.tournament(id).await?.ok_or_else(|| not_found(id))?;
        if t.status == "finished" {
            return Err(closed("this tournament is finished"));
        }
        if !db.withdraw_from_tournament(id, &session.key).await? {
            return Err(closed("you are not playing in this tournament"));
        }
        self.changed(id);
        self.view(id).await
    }

    /// `session` pauses in arena `id`: not paired again until they join again; their game under
    /// way stands.
    pub async fn pause(&self, id: &str, session: &Session) -> Result<TournamentView, ApiError> {
        let db = &self.repo;
        let t = db.tournament(id).await?.ok_or_else(|| not_found(id))?;
        if t.status == "finished" {
            return Err(closed("this tournament is finished"));
        }
        if Format::parse(&t.format) != Some(Format::Arena) {
            return Err(closed(
                "only an arena has a pause; withdraw from a Swiss tournament",
            ));
        }
        if !db.pause_in_tournament(id, &session.key).await? {
            return Err(closed(
                "you are not playing in this arena, or are paused already",
            ));
        }
        self.changed(id);
        self.view(id).await
    }

    /// Notes that `account` is there to play in tournament `id` (it read the tournament: its
    /// page's socket or the API). An arena pairs only the players seen in the last
    /// [`PRESENT_MS`].
    pub async fn seen(&self, id: &str, account: &str) -> Result<(), ApiError> {
        Ok(self.repo.seen(id, account, now_ms(), SEEN_EVERY_MS).await?)
    }

    /// The creator starts tournament `id` now, before its time.
    pub async fn start(&self, id: &str, session: &Session) -> Result<TournamentView, ApiError> {
        let db = &self.repo;
        let t = db.tournament(id).await?.ok_or_else(|| not_found(id))?;
        if t.creator.as_deref() != Some(session.key.as_str()) {
            return Err(ApiError::new(
                ErrorCode::NotTournamentCreator,
                "only the tournament's creator may start it",
            ));
        }
        if !db.start_tournament_now(id, &session.key, now_ms()).await? {
            return Err(closed("this tournament has started already"));
        }
        self.changed(id);
        self.advance(id).await?;
        self.view(id).await
    }

    /// Every game of tournament `id` as one record file, in the order of the pairings.
    pub async fn records(&self, id: &str) -> Result<String, ApiError> {
        let l = self.load(id).await?.ok_or_else(|| not_found(id))?;
        let mut text = String::new();
        for p in &l.pairings {
            for half in 0..2 {
                let (Some(gid), Some(_)) = (&p.game_ids[half], &p.games[half]) else {
                    continue;
                };
                let Some(stored) = self.store.load(gid).await? else {
                    continue;
                };
                let live = stored.into_live().map_err(ApiError::internal)?;
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&super::games::record_text(&live, &self.analyst));
            }
        }
        Ok(text)
    }

    /// The tournaments account `key` played in, latest first, with their results.
    pub async fn of_player(&self, key: &str) -> Result<Vec<PlayerTournament>, ApiError> {
        let rows = self.repo.tournaments_of(key, 50).await?;
        let mut out = Vec::new();
        for t in rows {
            let Some(l) = self.load(&t.id).await? else {
                continue;
            };
            let standings = l.standings();
            let mine = standings.iter().find(|s| s.key == key);
            out.push(PlayerTournament {
                id: t.id.clone(),
                name: t.name.clone(),
                format: t.format.clone(),
                starts_at: t.starts_at,
                rank: (t.status == "finished")
                    .then(|| mine.map(|s| s.rank))
                    .flatten(),
                players: l.entrants.len() as u32,
                points: mine.map_or(0.0, |s| s.points),
            });
        }
        Ok(out)
    }
}

/// The next change of tournament `l` at `now`, decided by the core (empty: nothing to do).
fn decide(l: &Loaded, now: i64) -> TournamentChange {
    let t = &l.t;
    let mut change = TournamentChange {
        now,
        ..TournamentChange::default()
    };
    if t.status == "created" {
        if t.starts_at > now {
            return change;
        }
        change.status = Some("running");
    }
    let (mut entrants, pairings) = l.core();
    // Two missed games in a row: withdrawn.
    for e in entrants.iter_mut().filter(|e| !e.withdrawn) {
        if score::missed_in_a_row(&e.key, &pairings) >= MISSED_TO_WITHDRAW {
            e.withdrawn = true;
            change.withdraw.push(e.key.clone());
        }
    }
    let active = entrants.iter().filter(|e| !e.withdrawn).count();
    let undecided = pairings.iter().any(|p| !p.is_decided());
    let last = pairings.iter().map(|p| p.round).max().unwrap_or(0);
    let finish = |change: &mut TournamentChange| {
        change.status = Some("finished");
        let standings = match l.format() {
            Format::Swiss => standings::swiss(&entrants, &pairings),
            Format::Arena => standings::arena(&entrants, &pairings),
        };
        change.winner = standings.first().map(|s| s.key.clone());
    };
    match l.format() {
        Format::Swiss => {
            if undecided {
                return change;
            }
            if last >= t.rounds.unwrap_or(1) || active < 2 {
                finish(&mut change);
                return change;
            }
            let round = last + 1;
            let pairs = swiss::pair_round(&entrants, &pairings, round, t.duplicate);
            change.pairings = new_pairings(t, round, pairs);
        }
        Format::Arena => {
            let end = t.starts_at + i64::from(t.minutes.unwrap_or(0)) * 60_000;
            if now >= end {
                if !undecided {
                    finish(&mut change);
                }
                return change;
            }
            // Who waits, in the order they became free (the end of their last pairing is not
            // stored: the pairing's start, then when they joined, stand for it).
            let busy: HashSet<&str> = pairings
                .iter()
                .filter(|p| !p.is_decided())
                .flat_map(|p| [Some(p.white.as_str()), p.black.as_deref()])
                .flatten()
                .collect();
            let mut since: HashMap<&str, i64> = HashMap::new();
            for e in &l.entrants {
                since.insert(&e.account, e.joined_at);
            }
            for p in &l.pairings {
                for k in [Some(p.white.as_str()), p.black.as_deref()]
                    .into_iter()
                    .flatten()
                {
                    since.insert(k, p.created_at);
                }
            }
            // Only who is there: not paused, and seen lately (see `Tournaments::seen`).
            let there: HashSet<&str> = l
                .entrants
                .iter()
                .filter(|e| !e.paused && e.seen_at > now - PRESENT_MS)
                .map(|e| e.account.as_str())
                .collect();
            let mut waiting: Vec<&Entrant> = entrants
                .iter()
                .filter(|e| {
                    !e.withdrawn && there.contains(e.key.as_str()) && !busy.contains(e.key.as_str())
                })
                .collect();
            waiting.sort_by_key(|e| {
                (
                    since.get(e.key.as_str()).copied().unwrap_or(0),
                    e.key.clone(),
                )
            });
            let waiting: Vec<String> = waiting.into_iter().map(|e| e.key.clone()).collect();
            if waiting.len() >= 2 {
                let pairs = arena::pair_waiting(&waiting, &entrants, &pairings);
                let pairs = pairs.into_iter().map(|(w, b)| (w, Some(b))).collect();
                change.pairings = new_pairings(t, last + 1, pairs);
            }
        }
    }
    change
}

/// Stored pairings of round (or wave) `round` from the core's pairs, by board from 1.
fn new_pairings(
    t: &TournamentRow,
    round: u32,
    pairs: Vec<(String, Option<String>)>,
) -> Vec<NewPairing> {
    pairs
        .into_iter()
        .enumerate()
        .map(|(i, (white, black))| {
            let board = i as u32 + 1;
            let game = |half: usize| auth::tournament_game_id(&t.id, round, board, half);
            let game_ids = match (&black, t.duplicate) {
                (None, _) => [None, None],
                (Some(_), false) => [Some(game(0)), None],
                (Some(_), true) => [Some(game(0)), Some(game(1))],
            };
            NewPairing {
                round,
                board,
                white,
                black,
                game_ids,
            }
        })
        .collect()
}

/// The whole view of a tournament read from the store.
fn view_of(l: &Loaded) -> TournamentView {
    let t = &l.t;
    let names: HashMap<&str, &EntrantRow> =
        l.entrants.iter().map(|e| (e.account.as_str(), e)).collect();
    let name = |k: &str| {
        names
            .get(k)
            .map_or_else(|| k.to_string(), |e| e.name.clone())
    };
    let standings = l
        .standings()
        .into_iter()
        .map(|s| {
            let e = names.get(s.key.as_str());
            StandingView {
                rank: s.rank,
                name: name(&s.key),
                rating: e.map_or(0, |e| e.rating),
                points: s.points,
                tiebreaks: s.tiebreaks,
                played: s.played,
                streak: s.streak,
                withdrawn: e.is_some_and(|e| e.withdrawn),
                paused: e.is_some_and(|e| e.paused),
            }
        })
        .collect();
    let mut rounds: Vec<RoundView> = Vec::new();
    for p in &l.pairings {
        if rounds.last().is_none_or(|r| r.number != p.round) {
            rounds.push(RoundView {
                number: p.round,
                pairings: Vec::new(),
            });
        }
        let mut games = Vec::new();
        if let Some(black) = &p.black {
            for half in 0..2 {
                let (Some(gid), Some(g)) = (&p.game_ids[half], &p.games[half]) else {
                    continue;
                };
                let (w, b) = if half == 0 {
                    (p.white.as_str(), black.as_str())
                } else {
                    (black.as_str(), p.white.as_str())
                };
                // A game over without a result was called off (a missed first move).
                let called_off = g.finished && g.result == GameResult::Unfinished.token();
                games.push(TournamentGameView {
                    id: gid.clone(),
                    white: name(w),
                    black: name(b),
                    result: if called_off {
                        "aborted".to_string()
                    } else {
                        g.result.clone()
                    },
                });
            }
        }
        let core = core_pairing(p, t);
        let points = score::swiss_points(&core);
        if let Some(r) = rounds.last_mut() {
            r.pairings.push(PairingView {
                white: name(&p.white),
                black: p.black.as_deref().map(name),
                games,
                points,
            });
        }
    }
    TournamentView {
        id: t.id.clone(),
        name: t.name.clone(),
        status: t.status.clone(),
        settings: settings_of(t),
        starts_at: t.starts_at,
        ends_at: l.ends_at(),
        created_by: t.creator_name.clone(),
        round: l.pairings.iter().map(|p| p.round).max().unwrap_or(0),
        standings,
        rounds,
        version: t.version,
    }
}

/// How often a schedule makes a tournament.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Every {
    /// Every day.
    Day,
    /// Every week, on this day (0: Monday … 6: Sunday).
    Week(u32),
}

/// A tournament the site makes by itself (`mabula serve --daily-tournament` and
/// `--weekly-tournament`): `[DAY] HH:MM FORMAT MINUTES+SECONDS LENGTH`, in UTC, LENGTH being
/// the rounds of a Swiss tournament or the minutes of an arena; for example `18:00 arena 3+2
/// 60` or `sunday 17:00 swiss 5+3 5`.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Daily or weekly.
    pub every: Every,
    /// Minutes after midnight (UTC).
    pub minute: u32,
    /// What it makes (its `starts_at` set for each occurrence).
    pub request: CreateTournament,
    /// The spec as written (part of each occurrence's key).
    pub spec: String,
}

const DAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

const DAY_MS: i64 = 86_400_000;

impl Schedule {
    /// Reads a daily (`weekly` false) or weekly spec; the error says what is wrong.
    pub fn parse(spec: &str, weekly: bool) -> Result<Schedule, String> {
        let words: Vec<&str> = spec.split_whitespace().collect();
        let (every, rest) = if weekly {
            let Some((day, rest)) = words.split_first() else {
                return Err("a weekly tournament starts with a day, such as `sunday`".into());
            };
            let d = DAYS
                .iter()
                .position(|d| d.eq_ignore_ascii_case(day) || d[..3].eq_ignore_ascii_case(day))
                .ok_or_else(|| format!("`{day}` is not a day of the week"))?;
            (Every::Week(d as u32), rest)
        } else {
            (Every::Day, &words[..])
        };
        let [time, format, clock, length] = rest else {
            return Err(format!(
                "expected `{}HH:MM FORMAT MINUTES+SECONDS LENGTH`, such as `{}`",
                if weekly { "DAY " } else { "" },
                if weekly {
                    "sunday 17:00 swiss 5+3 5"
                } else {
                    "18:00 arena 3+2 60"
                }
            ));
        };
        let (h, m) = time
            .split_once(':')
            .and_then(|(h, m)| Some((h.parse::<u32>().ok()?, m.parse::<u32>().ok()?)))
            .filter(|&(h, m)| h < 24 && m < 60)
            .ok_or_else(|| format!("`{time}` is not a time HH:MM (UTC)"))?;
        let (minutes, increment) = clock
            .split_once('+')
            .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
            .ok_or_else(|| format!("`{clock}` is not a clock MINUTES+SECONDS such as 3+2"))?;
        let length: u32 = length
            .parse()
            .map_err(|_| format!("`{length}` is not a number of rounds or minutes"))?;
        let format = Format::parse(format).ok_or("the format is `swiss` or `arena`")?;
        let label = format!("{minutes}+{increment}");
        let request = CreateTournament {
            name: match (every, format) {
                (Every::Day, Format::Swiss) => format!("Daily Swiss {label}"),
                (Every::Day, Format::Arena) => format!("Daily arena {label}"),
                (Every::Week(_), Format::Swiss) => format!("Weekly Swiss {label}"),
                (Every::Week(_), Format::Arena) => format!("Weekly arena {label}"),
            },
            format: format.name().to_string(),
            scoring: "largest".to_string(),
            clock: ClockRequest {
                initial_s: minutes * 60,
                increment_s: increment,
            },
            rounds: (format == Format::Swiss).then_some(length),
            minutes: (format == Format::Arena).then_some(length),
            duplicate: None,
            sequential: None,
            rated: true,
            starts_at: 0,
            min_rating: None,
            password: None,
        };
        let schedule = Schedule {
            every,
            minute: h * 60 + m,
            request,
            spec: words.join(" "),
        };
        // The settings are checked as a creation's are.
        let at = schedule.next_after(0);
        schedule.row(at).map_err(|e| e.message)?;
        Ok(schedule)
    }

    /// The first occurrence that starts more than a minute after `now` (ms).
    pub fn next_after(&self, now: i64) -> i64 {
        let earliest = now + START_AHEAD_MS.start();
        let mut day = earliest.div_euclid(DAY_MS);
        loop {
            let at = day * DAY_MS + i64::from(self.minute) * 60_000;
            // 1970-01-01 was a Thursday (3, counting Monday as 0).
            let weekday = (day + 3).rem_euclid(7) as u32;
            let on_day = match self.every {
                Every::Day => true,
                Every::Week(d) => d == weekday,
            };
            if on_day && at >= earliest {
                return at;
            }
            day += 1;
        }
    }

    /// The stored tournament of the occurrence at `at`, with its schedule key.
    pub fn row(&self, at: i64) -> Result<TournamentRow, ApiError> {
        let mut req = self.request.clone();
        req.starts_at = at;
        let mut row = check_request(&req, at - START_AHEAD_MS.start())?;
        row.created_at = now_ms();
        row.seed = rand::random::<u64>();
        let kind = match self.every {
            Every::Day => "daily",
            Every::Week(_) => "weekly",
        };
        row.schedule_key = Some(format!("{kind} {} @{at}", self.spec));
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tournaments::PairedGame;

    #[test]
    fn schedules_read_their_spec_and_find_the_next_occurrence() {
        let d = Schedule::parse("18:00 arena 3+2 60", false).expect("a daily spec");
        assert_eq!(d.request.minutes, Some(60));
        assert_eq!(d.request.clock.initial_s, 180);
        // 2026-01-01 (a Thursday) at noon: today at 18:00.
        let noon = 1_767_225_600_000 + 12 * 3_600_000;
        assert_eq!(d.next_after(noon), 1_767_225_600_000 + 18 * 3_600_000);
        let w = Schedule::parse("sunday 17:00 swiss 5+3 5", true).expect("a weekly spec");
        assert_eq!(w.request.rounds, Some(5));
        // The Sunday after: 2026-01-04.
        assert_eq!(
            w.next_after(noon),
            1_767_225_600_000 + 3 * DAY_MS + 17 * 3_600_000
        );
        assert!(Schedule::parse("25:00 arena 3+2 60", false).is_err());
        assert!(
            Schedule::parse("18:00 arena 3+2 5", false).is_err(),
            "an arena of 5 minutes"
        );
        assert!(Schedule::parse("funday 17:00 swiss 5+3 5", true).is_err());
        assert!(Schedule::parse("18:00 knockout 3+2 5", false).is_err());
    }

    #[test]
    fn deal_seeds_differ_by_round_and_board_and_are_stable() {
        let a = deal_seed(7, 1, 1);
        assert_eq!(a, deal_seed(7, 1, 1));
        assert_ne!(a, deal_seed(7, 1, 2));
        assert_ne!(a, deal_seed(7, 2, 1));
        assert_ne!(a, deal_seed(8, 1, 1));
    }

    #[test]
    fn tournament_game_ids_are_derived_from_their_place() {
        let a = auth::tournament_game_id("t1", 1, 1, 0);
        assert!(auth::is_game_id(&a));
        assert_eq!(a, auth::tournament_game_id("t1", 1, 1, 0));
        assert_ne!(a, auth::tournament_game_id("t1", 1, 1, 1));
        assert_ne!(a, auth::tournament_game_id("t2", 1, 1, 0));
    }

    /// An arena of `keys` that started at 0 and lasts 10 minutes, with `pairings`: `(white,
    /// black, result)`, `*` while the game is played.
    fn arena(keys: &[&str], pairings: &[(&str, &str, &str)]) -> Loaded {
        let mut req = request();
        req.format = "arena".into();
        req.rounds = None;
        req.minutes = Some(10);
        let mut t = check_request(&req, 0).expect("an arena");
        t.starts_at = 0;
        t.status = "running".into();
        let entrants = keys
            .iter()
            .map(|k| EntrantRow {
                account: k.to_string(),
                name: k.to_string(),
                rating: 1500,
                joined_at: 0,
                withdrawn: false,
                // There: seen just before the fifth minute, when the tests decide.
                seen_at: 5 * 60_000 - 1_000,
                paused: false,
            })
            .collect();
        let pairings = pairings
            .iter()
            .enumerate()
            .map(|(i, &(w, b, result))| {
                let over = result != "*";
                PairingRow {
                    round: 1,
                    board: i as u32 + 1,
                    white: w.into(),
                    black: Some(b.into()),
                    game_ids: [Some(format!("g{i}")), None],
                    games: [
                        Some(PairedGame {
                            result: result.into(),
                            finished: over,
                        }),
                        None,
                    ],
                    outcomes: [
                        OutcomeRow {
                            result: over.then(|| result.to_string()),
                            margin: None,
                            no_show: None,
                        },
                        OutcomeRow::default(),
                    ],
                    created_at: 1_000,
                }
            })
            .collect();
        Loaded {
            t,
            entrants,
            pairings,
        }
    }

    #[test]
    fn an_arena_pairs_the_free_players_until_its_end_and_finishes_when_its_last_game_is_over() {
        let minute = 60_000;
        // Before the end: ann and ben are free (their game is over) and paired again; cid and
        // dan still play.
        let l = arena(
            &["ann", "ben", "cid", "dan"],
            &[("ann", "ben", "1-0"), ("cid", "dan", "*")],
        );
        let change = decide(&l, 5 * minute);
        assert_eq!(change.status, None);
        let pairs: Vec<(&str, Option<&str>)> = change
            .pairings
            .iter()
            .map(|p| (p.white.as_str(), p.black.as_deref()))
            .collect();
        assert_eq!(pairs, [("ben", Some("ann"))], "colours balanced");
        // After the end: no new pairing, and no end while a game goes on.
        assert!(decide(&l, 10 * minute).is_empty());
        // Its last game over: finished, won by the player with the most points (a tie of
        // points is broken by performance, then rating and key).
        let l = arena(
            &["ann", "ben", "cid", "dan"],
            &[("ann", "ben", "1-0"), ("cid", "dan", "0-1")],
        );
        let change = decide(&l, 10 * minute + 1);
        assert_eq!(change.status, Some("finished"));
        assert!(change.pairings.is_empty());
        assert!(
            ["ann", "dan"].contains(&change.winner.as_deref().unwrap_or("")),
            "{:?}",
            change.winner
        );
    }

    #[test]
    fn an_arena_pairs_only_who_is_there_and_a_game_called_off_counts_for_nobody() {
        let minute = 60_000;
        // ann and ben are there; cid was last seen more than a minute ago; dan paused.
        let mut l = arena(&["ann", "ben", "cid", "dan"], &[]);
        l.entrants[2].seen_at = 5 * minute - PRESENT_MS;
        l.entrants[3].paused = true;
        let pairs = |change: &TournamentChange| -> Vec<(String, Option<String>)> {
            change
                .pairings
                .iter()
                .map(|p| (p.white.clone(), p.black.clone()))
                .collect()
        };
        let change = decide(&l, 5 * minute);
        assert_eq!(pairs(&change).len(), 1, "{:?}", pairs(&change));
        let (w, b) = &pairs(&change)[0];
        let mut two = [w.as_str(), b.as_deref().unwrap_or("")];
        two.sort_unstable();
        assert_eq!(two, ["ann", "ben"]);
        // cid reads the tournament again: paired too, with one of the others when they are free.
        l.entrants[2].seen_at = 5 * minute - 1;
        assert_eq!(
            pairs(&decide(&l, 5 * minute)).len(),
            1,
            "three there: one pair"
        );

        // ann missed the first move of her game with ben: called off, nobody scores, and both
        // are free again.
        let mut l = arena(&["ann", "ben"], &[("ann", "ben", "*")]);
        l.pairings[0].games[0] = Some(PairedGame {
            result: "*".into(),
            finished: true,
        });
        l.pairings[0].outcomes[0] = OutcomeRow {
            result: Some("*".into()),
            margin: None,
            no_show: Some("white".into()),
        };
        let standings = l.standings();
        assert!(
            standings.iter().all(|s| s.points == 0.0 && s.played == 0),
            "{standings:?}"
        );
        assert_eq!(pairs(&decide(&l, 5 * minute)).len(), 1, "both free again");
        // In a Swiss tournament the same game is lost by who missed it.
        l.t.format = "swiss".into();
        let (_, core) = l.core();
        assert_eq!(core[0].games[0].result, GameResult::BlackWins);
        assert!(!core[0].games[0].called_off);
    }

    fn request() -> CreateTournament {
        CreateTournament {
            name: "Sunday Swiss".into(),
            format: "swiss".into(),
            scoring: "largest".into(),
            clock: ClockRequest {
                initial_s: 180,
                increment_s: 2,
            },
            rounds: Some(4),
            minutes: None,
            duplicate: None,
            sequential: None,
            rated: true,
            starts_at: 120_000,
            min_rating: None,
            password: None,
        }
    }

    #[test]
    fn creation_requests_are_checked_field_by_field() {
        let ok = check_request(&request(), 0).expect("valid");
        assert!(ok.duplicate, "a Swiss tournament is duplicate by default");
        let code = |f: &dyn Fn(&mut CreateTournament)| {
            let mut r = request();
            f(&mut r);
            check_request(&r, 0).err().map(|e| e.code)
        };
        let bad = Some(ErrorCode::InvalidTournament);
        assert_eq!(code(&|r| r.name = "ab".into()), bad);
        assert_eq!(code(&|r| r.name = "x".repeat(41)), bad);
        assert_eq!(code(&|r| r.format = "knockout".into()), bad);
        assert_eq!(code(&|r| r.scoring = "sum".into()), bad);
        assert_eq!(code(&|r| r.rounds = None), bad);
        assert_eq!(code(&|r| r.rounds = Some(16)), bad);
        assert_eq!(code(&|r| r.minutes = Some(30)), bad);
        assert_eq!(code(&|r| r.starts_at = 30_000), bad);
        assert_eq!(code(&|r| r.clock.initial_s = 1), bad);
        assert_eq!(
            code(&|r| {
                r.format = "arena".into();
                r.rounds = None;
                r.minutes = Some(30);
            }),
            None
        );
    }
}
