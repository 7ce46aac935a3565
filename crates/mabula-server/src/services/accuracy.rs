//! Accuracy (issue 51, fair play): each finished rated game between two accounts (neither a bot)
//! is analysed once after it ends, and each player's accuracy in it is kept: the share of the
//! player's moves that kept the engine's best value ([`tallies`]). The game page shows it after
//! the game; accounts whose accuracy over their recent rated games is far above that of the
//! players of their rating are flagged to moderators ([`flags`]).
//!
//! The job follows the games' end events (the instance that ended a game starts it at once) and
//! a sweep (every instance, with the other timed jobs) catches the games that ended while no
//! instance listened, those given back and those whose instance died, among the games that
//! ended in the last [`SWEEP_WINDOW_MS`] (a week). A game is analysed by the
//! instance whose conditional claim holds it in the database, and its accuracies are stored
//! with the mark "done" in one transaction on the condition that the claim is still that
//! instance's: once however many instances try ([`AccuracyRepo`]).
//!
//! The cost is bounded: each position is analysed by the [`Analyst`] within a fixed budget of
//! work ([`judging_settings`]), in the analysis board's lane and bounds, and an instance starts
//! at most [`AccuracySettings::games_per_hour`] jobs an hour (on the services' clock). A job the
//! engine is too busy for is given back and tried again after [`BUSY_RETRY_MS`]; one that fails
//! after a wait that doubles with each failure ([`retry_after`]).

use super::cluster::Cluster;
use super::ratings::retry_after;
use super::{GameEvent, now_ms};
use crate::analysis::{Analyst, judging_settings};
use crate::error::{ApiError, ErrorCode};
use crate::store::StoreError;
use crate::store::accuracy::{AccuracyRepo, AccuracyRow, JudgedGame, NamedRow};
use mabula::{Color, Move, Position, Scoring};
use mabula_api::social::{AccuracyFlag, AccuracyFlags};
use mabula_api::view::AccuracyView;
use mabula_engine::Value;
use mabula_engine::annotate::{self, Note, Report};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// A move whose estimated loss of expected score is at most this much kept the best value (the
/// engine's own first choice always does): two moves the search cannot tell apart are equal.
pub const KEPT_LOSS: f64 = 0.02;

/// A position where the mover's expected score with the best move is below this is already lost:
/// every move there loses less than [`KEPT_LOSS`] or little more, so keeping the value shows
/// nothing, and its moves are not counted (else whoever loses to the engine's moves looks as
/// accurate as the engine).
pub const LOST: f64 = 0.1;

/// The recent rated games an account's accuracy is taken over (the latest first).
pub const RECENT_GAMES: usize = 10;

/// The fewest recent games (each with at least [`MIN_MOVES`] counted) for an account to be
/// judged at all.
pub const MIN_GAMES: usize = 5;

/// The fewest counted moves for a game to count towards an account's or a band's accuracy.
pub const MIN_MOVES: u32 = 5;

/// The rating band: the other players' games in which the rating shown for them lies within
/// this much of the account's rating (either side).
pub const BAND_WIDTH: i64 = 400;

/// The fewest games of other players in the band for it to be compared with.
pub const BAND_MIN_GAMES: usize = 10;

/// How far above the band's mean accuracy an account's must be to be flagged (a share: 0.25 is
/// 25 percentage points).
pub const FLAG_MARGIN: f64 = 0.25;

/// The stored accuracies the flags are computed over (the latest games).
const FLAG_ROWS: u32 = 20_000;

/// How long a job the engine was too busy for waits before it is tried again (ms).
pub const BUSY_RETRY_MS: i64 = 60 * 1000;

/// The most jobs one sweep looks for.
const SWEEP_LIMIT: u32 = 4;

/// How long the cap counts a started job (ms).
const HOUR_MS: i64 = 60 * 60 * 1000;

/// How far back the sweep looks for games that ended and were not analysed (ms): a week, so
/// that its query reads only the recent games.
pub const SWEEP_WINDOW_MS: i64 = 7 * 24 * HOUR_MS;

/// The cap on the jobs one instance starts in an hour: when each job of the last hour started.
#[derive(Debug)]
struct HourlyCap {
    per_hour: u32,
    /// Start times (ms), oldest first.
    started: VecDeque<i64>,
}

impl HourlyCap {
    fn new(per_hour: u32) -> HourlyCap {
        HourlyCap {
            per_hour,
            started: VecDeque::new(),
        }
    }

    /// Jobs that may still start in the hour before `now`.
    fn room(&mut self, now: i64) -> u32 {
        while self.started.front().is_some_and(|&t| t <= now - HOUR_MS) {
            self.started.pop_front();
        }
        let used = u32::try_from(self.started.len()).unwrap_or(u32::MAX);
        self.per_hour.saturating_sub(used)
    }

    /// Takes a place for a job starting at `now`, if one is left.
    fn take(&mut self, now: i64) -> bool {
        let free = self.room(now) > 0;
        if free {
            self.started.push_back(now);
        }
        free
    }

    /// Gives back the place taken at `now` (the job did not start after all).
    fn give_back(&mut self, now: i64) {
        if let Some(i) = self.started.iter().rposition(|&t| t == now) {
            self.started.remove(i);
        }
    }
}

/// The settings of the accuracy job (`mabula serve --accuracy-games-per-hour`,
/// `--accuracy-playouts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccuracySettings {
    /// The most games one instance starts to analyse in an hour (0: none).
    pub games_per_hour: u32,
    /// The engine's budget per position, in playouts (see [`judging_settings`]).
    pub playouts: u64,
}

impl Default for AccuracySettings {
    fn default() -> AccuracySettings {
        AccuracySettings {
            games_per_hour: 60,
            playouts: 20_000,
        }
    }
}

/// One player's moves in a game: those counted and those among them that kept the best value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves counted (with more than one legal move to choose from).
    pub moves: u32,
    /// Moves among them that kept the engine's best value.
    pub kept: u32,
}

impl Tally {
    /// The accuracy as a share (0 to 1), `None` when no move was counted.
    pub fn share(self) -> Option<f64> {
        (self.moves > 0).then(|| f64::from(self.kept) / f64::from(self.moves))
    }

    /// The accuracy in whole percent, rounded.
    pub fn percent(self) -> Option<u32> {
        self.share().map(|s| (100.0 * s).round() as u32)
    }
}

/// Whether the move of `note` kept the best value of the position before it, whose report is
/// `before`. Where the solver settled that position (a verdict) and the position after the move
/// too, the move keeps the value iff its exact value equals the best: the same margin when both
/// margins are exact, else the same result. Otherwise it keeps the value iff it is the engine's
/// first choice or its estimated loss is at most [`KEPT_LOSS`].
pub fn keeps(before: &Report, note: &Note) -> bool {
    if let (Some(verdict), Value::Exact { result, margin }) = (before.verdict, note.value) {
        let best = match note.mover {
            Color::White => verdict.white,
            Color::Black => -verdict.white,
        };
        return match margin {
            Some(m) if verdict.exact_margin => m == best,
            _ => i32::from(result) == best.signum(),
        };
    }
    note.best.is_none() || note.loss <= KEPT_LOSS
}

/// Whether a move from the position of `before`, by `mover`, can show skill: not where the
/// mover has already lost, by the solver's result (unless its margin is exact, since a lost
/// game can still be lost by less) or by the engine's estimate (below [`LOST`]).
pub fn counts(before: &Report, mover: Color) -> bool {
    let for_mover = |white: f64| match mover {
        Color::White => white,
        Color::Black => 1.0 - white,
    };
    match before.verdict {
        Some(verdict) => verdict.exact_margin || for_mover(verdict.white_expected()) > 0.0,
        None => for_mover(before.white) >= LOST,
    }
}

/// Each side's tally in a game (White first) from its positions (the start and after every
/// move), its moves and the positions' reports. A move with no choice (the only legal move, or
/// a pass) is not counted, nor one in a position already lost ([`counts`]).
pub fn tallies(
    positions: &[Position],
    moves: &[Move],
    reports: &[Report],
    scoring: Scoring,
) -> [Tally; 2] {
    let mut out = [Tally::default(); 2];
    for note in annotate::annotate(positions, moves, reports, scoring) {
        let (Some(pos), Some(before)) = (positions.get(note.index), reports.get(note.index)) else {
            continue;
        };
        if pos.legal_moves().len() < 2 || !counts(before, note.mover) {
            continue;
        }
        let side = &mut out[usize::from(note.mover == Color::Black)];
        side.moves += 1;
        side.kept += u32::from(keeps(before, &note));
    }
    out
}

/// An account's recent accuracy against its band's, as the flag rule computes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The account.
    pub account: String,
    /// Its name.
    pub name: String,
    /// The mean rating its recent games showed for it.
    pub rating: i64,
    /// Its mean accuracy over them (a share).
    pub accuracy: f64,
    /// The band's mean accuracy (a share).
    pub band_accuracy: f64,
    /// The other players' games in the band.
    pub band_games: usize,
    /// The recent games, the latest first.
    pub games: Vec<String>,
}

/// The flagged accounts among the stored accuracies `rows` (any order), the largest gap first.
///
/// The rule: an account's games are those of its stored accuracies with at least [`MIN_MOVES`]
/// counted moves and a rating shown; its recent games are its latest [`RECENT_GAMES`] of them,
/// and it is judged only with at least [`MIN_GAMES`]. Its accuracy is the mean of its recent
/// games' accuracies (each game weighs the same) and its rating the mean of the ratings those
/// games showed for it. Its band is every game of another account (with at least [`MIN_MOVES`]
/// counted) whose shown rating lies within [`BAND_WIDTH`] of that rating, and needs at least
/// [`BAND_MIN_GAMES`] of them; the band's accuracy is their mean. The account is flagged when
/// its accuracy is at least [`FLAG_MARGIN`] above the band's.
pub fn flags(rows: &[NamedRow]) -> Vec<Judged> {
    let counted: Vec<&NamedRow> = rows
        .iter()
        .filter(|r| r.row.moves >= MIN_MOVES && r.row.rating.is_some())
        .collect();
    let share = |r: &NamedRow| f64::from(r.row.kept) / f64::from(r.row.moves);
    let mut by_account: HashMap<&str, Vec<&NamedRow>> = HashMap::new();
    for r in &counted {
        by_account.entry(&r.row.account).or_default().push(r);
    }
    // Every counted game by rating, with running sums of the shares, so that a band's count
    // and sum are two binary searches (and its own games taken out), not a pass over all.
    let mut by_rating: Vec<(i64, f64)> = counted
        .iter()
        .map(|r| (r.row.rating.unwrap_or(0), share(r)))
        .collect();
    by_rating.sort_by_key(|g| g.0);
    let sums: Vec<f64> = std::iter::once(0.0)
        .chain(by_rating.iter().scan(0.0, |sum, g| {
            *sum += g.1;
            Some(*sum)
        }))
        .collect();
    let mut out = Vec::new();
    for (account, mut games) in by_account {
        games.sort_by(|a, b| {
            (b.row.ended_at, &b.row.game_id).cmp(&(a.row.ended_at, &a.row.game_id))
        });
        let recent = &games[..games.len().min(RECENT_GAMES)];
        if recent.len() < MIN_GAMES {
            continue;
        }
        let n = recent.len() as f64;
        let accuracy = recent.iter().map(|r| share(r)).sum::<f64>() / n;
        let rating = (recent
            .iter()
            .map(|r| r.row.rating.unwrap_or(0))
            .sum::<i64>() as f64
            / n)
            .round() as i64;
        // The band: every game within reach of the rating, less the account's own.
        let lo = by_rating.partition_point(|g| g.0 < rating - BAND_WIDTH);
        let hi = by_rating.partition_point(|g| g.0 <= rating + BAND_WIDTH);
        let (own_games, own_sum) = games
            .iter()
            .filter(|r| {
                r.row
                    .rating
                    .is_some_and(|x| (x - rating).abs() <= BAND_WIDTH)
            })
            .fold((0, 0.0), |(n, sum), r| (n + 1, sum + share(r)));
        let band_games = hi - lo - own_games;
        if band_games < BAND_MIN_GAMES {
            continue;
        }
        let band_accuracy = (sums[hi] - sums[lo] - own_sum) / band_games as f64;
        if accuracy >= band_accuracy + FLAG_MARGIN {
            out.push(Judged {
                account: account.to_string(),
                name: recent[0].name.clone(),
                rating,
                accuracy,
                band_accuracy,
                band_games,
                games: recent.iter().map(|r| r.row.game_id.clone()).collect(),
            });
        }
    }
    out.sort_by(|a, b| {
        (b.accuracy - b.band_accuracy)
            .total_cmp(&(a.accuracy - a.band_accuracy))
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}

/// The accuracies of a game's players as the game's state shows them (White, Black).
pub type GameAccuracy = [Option<AccuracyView>; 2];

/// The accuracy service of one instance.
pub struct Accuracy {
    /// Its repository: the jobs and the accuracies.
    repo: AccuracyRepo,
    /// Where the positions are analysed (the board lane, within its bounds).
    analyst: Arc<Analyst>,
    /// This instance's id (the claims' owner) and which instances are alive.
    cluster: Arc<Cluster>,
    settings: AccuracySettings,
    /// The jobs this instance started in the last hour, for the cap; a std mutex, never held
    /// across an await.
    cap: Mutex<HourlyCap>,
    /// The games this instance is analysing, so that the end event and a sweep do not both
    /// start one (the claim would refuse the second, but only after its query).
    running: Mutex<HashSet<String>>,
}

impl Accuracy {
    /// The service over its repository, analysing with `analyst`.
    pub fn new(
        repo: AccuracyRepo,
        analyst: Arc<Analyst>,
        cluster: Arc<Cluster>,
        settings: AccuracySettings,
    ) -> Accuracy {
        Accuracy {
            repo,
            analyst,
            cluster,
            settings,
            cap: Mutex::new(HourlyCap::new(settings.games_per_hour)),
            running: Mutex::new(HashSet::new()),
        }
    }

    /// Analyses each rated game the games say has ended, as long as they say so.
    pub fn follow(self: &Arc<Accuracy>, mut events: mpsc::UnboundedReceiver<GameEvent>) {
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                if let GameEvent::Ended {
                    id, rated: true, ..
                } = event
                {
                    me.spawn_judge(id);
                }
            }
        });
    }

    /// Looks for games to analyse (every instance runs this with its sweeps) and starts them,
    /// within the cap.
    pub async fn sweep(self: &Arc<Accuracy>) -> Result<(), ApiError> {
        let now = now_ms();
        let room = self.room(now);
        if room == 0 {
            return Ok(());
        }
        let limit = SWEEP_LIMIT.min(room);
        for id in self
            .repo
            .pending(
                limit,
                now - SWEEP_WINDOW_MS,
                now,
                self.cluster.alive_since(),
            )
            .await?
        {
            self.spawn_judge(id);
        }
        Ok(())
    }

    /// Starts the job of game `id` apart, as a job the controlled clock waits for.
    fn spawn_judge(self: &Arc<Accuracy>, id: String) {
        let me = self.clone();
        let job = crate::clock::installed().job();
        tokio::spawn(async move {
            let _job = job;
            if let Err(e) = me.judge(&id).await {
                tracing::warn!("accuracy of game {id} not computed now: {}", e.message);
            }
        });
    }

    /// Jobs this instance may still start in the hour before `now`.
    fn room(&self, now: i64) -> u32 {
        self.cap.lock().map_or(0, |mut cap| cap.room(now))
    }

    /// Takes one of the hour's places for a job at `now`, if one is left.
    fn reserve(&self, now: i64) -> bool {
        self.cap.lock().is_ok_and(|mut cap| cap.take(now))
    }

    /// Gives back the place taken at `now` (the job was not claimed).
    fn unreserve(&self, now: i64) {
        if let Ok(mut cap) = self.cap.lock() {
            cap.give_back(now);
        }
    }

    /// Analyses game `id` if this instance wins its claim and the cap allows, and stores its
    /// players' accuracies; a job the engine is too busy for, or that fails, is given back.
    pub async fn judge(&self, id: &str) -> Result<(), ApiError> {
        {
            let Ok(mut running) = self.running.lock() else {
                return Ok(());
            };
            if !running.insert(id.to_string()) {
                return Ok(());
            }
        }
        let result = self.judge_once(id).await;
        if let Ok(mut running) = self.running.lock() {
            running.remove(id);
        }
        result
    }

    async fn judge_once(&self, id: &str) -> Result<(), ApiError> {
        let now = now_ms();
        if !self.reserve(now) {
            // The sweep comes back to it within the hour.
            return Ok(());
        }
        let me = self.cluster.instance();
        if !self
            .repo
            .claim(id, me, now, self.cluster.alive_since())
            .await?
        {
            self.unreserve(now);
            return Ok(());
        }
        match self.analyse(id).await {
            Ok(rows) => {
                if self.repo.finish(id, me, &rows).await? {
                    crate::metrics::accuracy_analysed();
                }
            }
            Err(e) if e.code == ErrorCode::Busy || e.code == ErrorCode::RateLimited => {
                self.repo
                    .release(id, me, now_ms() + BUSY_RETRY_MS, false)
                    .await?;
            }
            Err(e) => {
                let attempts = self.repo.attempts(id).await? + 1;
                self.repo
                    .release(id, me, now_ms() + retry_after(attempts), true)
                    .await?;
                return Err(e);
            }
        }
        Ok(())
    }

    /// The players' accuracies in game `id` (none if it is not a finished rated game between
    /// two accounts).
    async fn analyse(&self, id: &str) -> Result<Vec<AccuracyRow>, ApiError> {
        let Some(game) = self.repo.game(id).await? else {
            return Ok(Vec::new());
        };
        let positions = replay(&game)?;
        let moves = &game.moves[..positions.len() - 1];
        let reports = self
            .analyst
            .judge(
                positions.clone(),
                game.scoring,
                judging_settings(self.settings.playouts),
                "accuracy",
            )
            .await?;
        let tallies = tallies(&positions, moves, &reports, game.scoring);
        Ok([Color::White, Color::Black]
            .into_iter()
            .zip(tallies)
            .enumerate()
            .map(|(i, (color, t))| AccuracyRow {
                game_id: game.id.clone(),
                color,
                account: game.accounts[i].clone(),
                rating: game.ratings[i],
                moves: t.moves,
                kept: t.kept,
                ended_at: game.ended_at,
            })
            .collect())
    }

    /// The players' accuracies in game `id` (White, Black), once it has been analysed.
    pub async fn of_game(&self, id: &str) -> Result<GameAccuracy, ApiError> {
        let mut out: GameAccuracy = [None, None];
        for r in self.repo.of_game(id).await? {
            let t = Tally {
                moves: r.moves,
                kept: r.kept,
            };
            out[usize::from(r.color == Color::Black)] = Some(AccuracyView {
                percent: t.percent(),
                moves: r.moves,
                kept: r.kept,
            });
        }
        Ok(out)
    }

    /// The accounts flagged for their accuracy (for moderators: the caller checks).
    pub async fn flagged(&self) -> Result<AccuracyFlags, ApiError> {
        Ok(flag_view(&flags_in(&self.repo).await?))
    }
}

/// The flags as the API shows them.
pub fn flag_view(judged: &[Judged]) -> AccuracyFlags {
    let percent = |share: f64| (1000.0 * share).round() / 10.0;
    AccuracyFlags {
        flags: judged
            .iter()
            .map(|j| AccuracyFlag {
                player: j.name.clone(),
                rating: j.rating,
                accuracy: percent(j.accuracy),
                band_accuracy: percent(j.band_accuracy),
                band_games: u32::try_from(j.band_games).unwrap_or(u32::MAX),
                games: j.games.clone(),
            })
            .collect(),
    }
}

/// The flags over the latest stored accuracies of `repo` (`mabula moderation flags`).
pub async fn flags_in(repo: &AccuracyRepo) -> Result<Vec<Judged>, StoreError> {
    Ok(flags(&repo.latest(FLAG_ROWS).await?))
}

/// The positions of `game` (the start and after each move), up to a move that cannot be played
/// (a stored game is never so, but the job must not fail on one).
fn replay(game: &JudgedGame) -> Result<Vec<Position>, ApiError> {
    let mut positions = vec![game.start];
    for &mv in &game.moves {
        let Some(last) = positions.last() else { break };
        match last.play(mv) {
            Ok(next) => positions.push(next),
            Err(_) => break,
        }
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mabula_engine::MoveAnalysis;
    use mabula_engine::annotate::{Judgement, Verdict};
    use std::time::Duration;

    fn report(moves: Vec<(Move, Value)>, verdict: Option<Verdict>) -> Report {
        Report {
            moves: moves
                .into_iter()
                .map(|(mv, value)| MoveAnalysis {
                    mv,
                    value,
                    visits: 10,
                    pv: vec![mv],
                })
                .collect(),
            verdict,
            white: 0.5,
            playouts: 100,
            elapsed: Duration::ZERO,
            step: 1,
            done: true,
        }
    }

    fn note(mover: Color, value: Value, best: Option<MoveAnalysis>, loss: f64) -> Note {
        Note {
            index: 0,
            played: Move::PASS,
            mover,
            value,
            best,
            loss,
            judgement: Judgement::Good,
        }
    }

    fn other() -> MoveAnalysis {
        MoveAnalysis {
            mv: Move::PASS,
            value: Value::Estimate(0.9),
            visits: 1,
            pv: Vec::new(),
        }
    }

    #[test]
    fn the_engines_choice_or_an_estimate_as_good_keeps_the_value_and_a_loss_does_not() {
        let before = report(Vec::new(), None);
        assert!(keeps(
            &before,
            &note(Color::White, Value::Estimate(0.6), None, 0.0)
        ));
        let close = note(Color::White, Value::Estimate(0.6), Some(other()), KEPT_LOSS);
        assert!(keeps(&before, &close));
        let worse = note(Color::White, Value::Estimate(0.5), Some(other()), 0.1);
        assert!(!keeps(&before, &worse));
    }

    #[test]
    fn a_late_move_keeps_the_value_iff_its_exact_value_is_the_best() {
        // White wins by 3 with best play.
        let before = report(
            Vec::new(),
            Some(Verdict {
                white: 3,
                exact_margin: true,
            }),
        );
        let exact = |margin: i32| Value::Exact {
            result: margin.signum() as i8,
            margin: Some(margin),
        };
        // Another move than the engine's first that wins by 3 too keeps it; one that wins by
        // less does not, whatever the estimate says.
        assert!(keeps(
            &before,
            &note(Color::White, exact(3), Some(other()), 0.0)
        ));
        assert!(!keeps(
            &before,
            &note(Color::White, exact(1), Some(other()), 0.0)
        ));
        // Black, losing by 3 at best, keeps the value by losing by 3, not by 5.
        assert!(keeps(
            &before,
            &note(Color::Black, exact(-3), Some(other()), 0.0)
        ));
        assert!(!keeps(&before, &note(Color::Black, exact(-5), None, 0.0)));
        // With only the result proven, the same result keeps it.
        let result = report(
            Vec::new(),
            Some(Verdict {
                white: 1,
                exact_margin: false,
            }),
        );
        let win = Value::Exact {
            result: 1,
            margin: None,
        };
        let draw = Value::Exact {
            result: 0,
            margin: Some(0),
        };
        assert!(keeps(&result, &note(Color::White, win, Some(other()), 0.0)));
        assert!(!keeps(
            &result,
            &note(Color::White, draw, Some(other()), 0.0)
        ));
    }

    #[test]
    fn no_move_counts_where_the_mover_has_already_lost() {
        // By the estimate: White's 5% is lost for White, not for Black.
        let mut lost = report(Vec::new(), None);
        lost.white = 0.05;
        assert!(!counts(&lost, Color::White));
        assert!(counts(&lost, Color::Black));
        lost.white = LOST;
        assert!(counts(&lost, Color::White));
        // By the solver: a loss without its margin is lost whatever is played; with its margin
        // it can still be lost by less, and a draw or a win can be thrown away.
        let verdict = |white, exact_margin| {
            report(
                Vec::new(),
                Some(Verdict {
                    white,
                    exact_margin,
                }),
            )
        };
        assert!(!counts(&verdict(-1, false), Color::White));
        assert!(counts(&verdict(-1, false), Color::Black));
        assert!(counts(&verdict(-3, true), Color::White));
        assert!(counts(&verdict(0, false), Color::White));
    }

    #[test]
    fn a_game_counts_each_sides_moves_with_a_choice() {
        // A short real game, its reports from the judging settings: the moves that are the
        // engine's first choice are all kept.
        let start = mabula::deal::random(5, Color::White);
        let settings = judging_settings(200);
        let mut positions = vec![start];
        let mut moves = Vec::new();
        let mut reports = Vec::new();
        for _ in 0..6 {
            let pos = *positions.last().expect("a position");
            let r = annotate::Deepening::new(Scoring::Largest, &settings).run(&pos, |_| {});
            let mv = r.moves[0].mv;
            reports.push(r);
            moves.push(mv);
            positions.push(pos.play(mv).expect("legal"));
        }
        let last = *positions.last().expect("a position");
        reports.push(annotate::Deepening::new(Scoring::Largest, &settings).run(&last, |_| {}));
        let [white, black] = tallies(&positions, &moves, &reports, Scoring::Largest);
        assert_eq!((white.moves, black.moves), (3, 3));
        assert_eq!((white.kept, black.kept), (3, 3));
        assert_eq!(white.percent(), Some(100));
        // The same reports again: reproducible.
        let again = annotate::Deepening::new(Scoring::Largest, &settings).run(&start, |_| {});
        assert_eq!(again.moves[0].mv, moves[0]);
        assert_eq!(Tally { moves: 3, kept: 2 }.percent(), Some(67));
        assert_eq!(Tally::default().percent(), None);
    }

    #[test]
    fn an_instance_starts_at_most_its_cap_of_jobs_in_any_hour() {
        let mut cap = HourlyCap::new(2);
        assert!(cap.take(0));
        assert!(cap.take(1_000));
        assert!(!cap.take(2_000), "a third job within the hour");
        assert_eq!(cap.room(HOUR_MS - 1), 0);
        // A place given back (the job was not claimed) is free again.
        cap.give_back(1_000);
        assert!(cap.take(3_000));
        // An hour after the first job, its place is free.
        assert_eq!(cap.room(HOUR_MS), 1);
        assert!(cap.take(HOUR_MS));
        assert!(!cap.take(HOUR_MS + 1));
        assert!(!HourlyCap::new(0).take(0), "0: none");
    }

    fn row(game: &str, account: &str, rating: i64, moves: u32, kept: u32, at: i64) -> NamedRow {
        NamedRow {
            row: AccuracyRow {
                game_id: game.into(),
                color: Color::White,
                account: account.into(),
                rating: Some(rating),
                moves,
                kept,
                ended_at: at,
            },
            name: account.to_uppercase(),
        }
    }

    /// `games` games of `account` at `rating`, each `kept` of 20 moves.
    fn games(account: &str, rating: i64, kept: u32, games: usize) -> Vec<NamedRow> {
        (0..games)
            .map(|i| {
                row(
                    &format!("{account}{i}"),
                    account,
                    rating,
                    20,
                    kept,
                    i as i64,
                )
            })
            .collect()
    }

    #[test]
    fn an_account_far_above_its_bands_accuracy_is_flagged_with_its_recent_games() {
        // Ten games at 50% around 1500, and a player at 1700 with 95% in twelve games.
        let mut rows = games("band", 1500, 10, 10);
        rows.extend(games("cheat", 1700, 19, 12));
        let judged = flags(&rows);
        assert_eq!(judged.len(), 1, "{judged:?}");
        let j = &judged[0];
        assert_eq!((j.account.as_str(), j.name.as_str()), ("cheat", "CHEAT"));
        assert_eq!(j.rating, 1700);
        assert!((j.accuracy - 0.95).abs() < 1e-9);
        assert!((j.band_accuracy - 0.5).abs() < 1e-9);
        assert_eq!(j.band_games, 10);
        // Its latest ten games, the latest first.
        assert_eq!(j.games.len(), RECENT_GAMES);
        assert_eq!(j.games[0], "cheat11");
        assert_eq!(j.games[9], "cheat2");
        let view = flag_view(&judged);
        assert_eq!(view.flags[0].accuracy, 95.0);
        assert_eq!(view.flags[0].band_accuracy, 50.0);
    }

    #[test]
    fn no_flag_without_enough_games_a_band_or_a_gap_wide_enough() {
        // Four games only.
        let mut rows = games("band", 1500, 10, 10);
        rows.extend(games("cheat", 1500, 20, 4));
        assert!(flags(&rows).is_empty());
        // A band of nine games.
        let mut rows = games("band", 1500, 10, 9);
        rows.extend(games("cheat", 1500, 20, 5));
        assert!(flags(&rows).is_empty());
        // A band too far away in rating.
        let mut rows = games("band", 1000, 10, 10);
        rows.extend(games("cheat", 1401, 20, 5));
        assert!(flags(&rows).is_empty());
        // Less than 25 points above: 70% against 50%.
        let mut rows = games("band", 1500, 10, 10);
        rows.extend(games("good", 1500, 14, 5));
        assert!(flags(&rows).is_empty());
        // Exactly 25 points above is flagged; games of fewer than five moves do not count.
        let mut rows = games("band", 1500, 10, 10);
        rows.extend(games("good", 1500, 15, 5));
        rows.push(row("short", "good", 1500, 4, 0, 100));
        assert_eq!(flags(&rows).len(), 1);
    }
}
