//! Puzzles (issue 39): the shipped puzzles (`mabula_engine::puzzle::SHIPPED`, proven by the
//! solver) offered near a player's puzzle rating, judged move by move, and rated: a player's
//! first attempt at a puzzle moves both the player's puzzle rating and the puzzle's (Glicko-2,
//! apart from game ratings), once, in one transaction of the store. Guests play unrated.
//!
//! The file is the truth for a puzzle's line and the database for its rating: every instance
//! loads the file at start ([`Puzzles::load`], an upsert by id, skipped once the file's hash is
//! marked loaded). The puzzle of the day is derived from the date and the file alone, so every
//! instance gives the same one.

use super::accounts::lookup_key;
use super::now_ms;
use super::players::player_not_found;
use crate::auth::{Session, hex};
use crate::engine::{Bounds, EnginePool, Work};
use crate::error::{ApiError, ErrorCode};
use crate::model::rating::{Glicko2, Rating};
use crate::store::accounts::AccountReads;
use crate::store::puzzles::{PuzzleSeed, PuzzlesRepo, Recorded};
use mabula::{Move, Position, Scoring};
use mabula_api::puzzles::{
    AttemptAnswer, PuzzleAttemptView, PuzzleHint, PuzzleHistory, PuzzleView, ThemeCount, ThemeList,
};
use mabula_engine::puzzle::{Puzzle, SHIPPED, Theme};
use mabula_engine::{Limits, SolveMode, Solver};
use rand::RngExt as _;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The most moves an attempt may carry (the longest shipped line has far fewer).
pub const MAX_ATTEMPT_MOVES: usize = 16;

/// How many of the nearest puzzles one is drawn from, so that two players of one rating do not
/// get the same sequence.
const NEAREST: u32 = 12;

/// The rating a streak starts at, and what each puzzle solved in it adds.
pub const STREAK_START: f64 = 1100.0;
/// See [`STREAK_START`].
pub const STREAK_STEP: f64 = 50.0;

/// The player's history lists this many attempts.
const HISTORY: u32 = 50;

/// An export of an account's data lists this many (every attempt, in practice).
const EXPORTED: u32 = 100_000;

/// The most nodes the proof of why a wrong move is wrong may take (about a second; a puzzle
/// starts at most 12 marbles from the end, so most take a few milliseconds).
const WHY_NODES: u64 = 3_000_000;

/// A client may have one such proof queued or running, and this many wait in all: beyond, the
/// answer goes without it.
const WHY_BOUNDS: Bounds = Bounds {
    per_key: 1,
    queued: 16,
};

/// The shipped puzzles, parsed once per process.
struct Shipped {
    /// Sorted by id, so that the puzzle of the day's index means the same everywhere.
    list: Vec<(String, Puzzle)>,
    by_id: HashMap<String, usize>,
    /// The SHA-256 of the file's text, in hex: a new file is loaded again.
    hash: String,
}

fn shipped() -> &'static Shipped {
    static SHIPPED_SET: OnceLock<Shipped> = OnceLock::new();
    SHIPPED_SET.get_or_init(|| {
        let mut list: Vec<(String, Puzzle)> = SHIPPED
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| match Puzzle::line(l) {
                Ok(p) => Some((p.id(), p)),
                Err(e) => {
                    tracing::error!("shipped puzzle skipped: {e}");
                    None
                }
            })
            .collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        list.dedup_by(|a, b| a.0 == b.0);
        let by_id = list
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (id.clone(), i))
            .collect();
        Shipped {
            list,
            by_id,
            hash: hex(&Sha256::digest(SHIPPED.as_bytes())),
        }
    })
}

/// The themes as the store keeps them: `,a,b,`.
fn stored_themes(themes: &[Theme]) -> String {
    let mut s = String::from(",");
    for t in themes {
        s.push_str(t.name());
        s.push(',');
    }
    s
}

/// `YYYY-MM-DD` of UTC day `day` (days since the epoch).
fn day_name(day: i64) -> String {
    super::record_date(day * 86_400_000).replace('.', "-")
}

/// The index of the puzzle of UTC day `day` among `n` (SplitMix64 of the day).
fn daily_index(day: i64, n: usize) -> usize {
    let mut z = (day as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % n.max(1) as u64) as usize
}

fn not_found(id: &str) -> ApiError {
    ApiError::new(
        ErrorCode::PuzzleNotFound,
        format!("there is no puzzle {id:?}"),
    )
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::InvalidAttempt, message)
}

/// What the choice of the next puzzle asks for.
#[derive(Clone, Debug, Default)]
pub struct Choice {
    /// A theme's name.
    pub theme: Option<String>,
    /// `largest` or `product`.
    pub scoring: Option<String>,
    /// Puzzles solved so far in a streak: the next is harder by [`STREAK_STEP`] each.
    pub streak: Option<u32>,
}

/// Where an attempt's moves lead.
enum Judged {
    /// Every move right, more to find: the opponent's reply to the last.
    Going(Move),
    /// Every move right and none left.
    Solved,
    /// The move at this index is wrong; the position after it.
    Wrong(usize, Position),
}

/// The puzzles service.
pub struct Puzzles {
    /// The accounts, read.
    accounts: AccountReads,
    /// Its repository.
    repo: PuzzlesRepo,
    /// Proves why a wrong move is wrong, in the analysis board's lane.
    engine: EnginePool,
    /// Plain Glicko-2: no side moves first in a puzzle.
    system: Glicko2,
}

impl Puzzles {
    /// The service over its repository.
    pub fn new(repo: PuzzlesRepo, accounts: AccountReads, engine: EnginePool) -> Puzzles {
        Puzzles {
            accounts,
            repo,
            engine,
            system: Glicko2 {
                advantage: 0.0,
                ..Glicko2::default()
            },
        }
    }

    /// Loads the shipped puzzles into the database unless this file was loaded already (every
    /// instance calls it at start; two at once write the same rows).
    pub async fn load(&self) -> Result<usize, ApiError> {
        let set = shipped();
        let db = &self.repo;
        if db.puzzle_set_loaded(&set.hash).await? {
            return Ok(0);
        }
        let seeds: Vec<PuzzleSeed> = set
            .list
            .iter()
            .map(|(id, p)| PuzzleSeed {
                id: id.clone(),
                position: p.start.to_string(),
                scoring: p.scoring.to_string(),
                line: p
                    .line
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                result: i64::from(p.result),
                themes: stored_themes(&p.themes),
                rating: i64::from(p.rating),
            })
            .collect();
        db.load_puzzles(&set.hash, &seeds, now_ms()).await?;
        Ok(seeds.len())
    }

    fn puzzle(&self, id: &str) -> Result<&'static Puzzle, ApiError> {
        let set = shipped();
        set.by_id
            .get(id)
            .map(|&i| &set.list[i].1)
            .ok_or_else(|| not_found(id))
    }

    async fn view(&self, id: &str, day: Option<String>) -> Result<PuzzleView, ApiError> {
        let p = self.puzzle(id)?;
        let rating = self
            .repo
            .puzzle_rating(id)
            .await?
            .map_or(f64::from(p.rating), |r| r.rating.rating);
        Ok(PuzzleView {
            id: id.to_string(),
            position: p.start,
            scoring: p.scoring.to_string(),
            rating: rating.round() as i64,
            themes: p.themes.iter().map(|t| t.name().to_string()).collect(),
            moves: p.line.len().div_ceil(2) as u32,
            goal: if p.result > 0 { "win" } else { "draw" }.to_string(),
            day,
        })
    }

    /// Puzzle `id`, without its solution.
    pub async fn show(&self, id: &str) -> Result<PuzzleView, ApiError> {
        self.view(id, None).await
    }

    /// The puzzle of today (UTC): the same for everyone on every instance.
    pub async fn daily(&self) -> Result<PuzzleView, ApiError> {
        let set = shipped();
        if set.list.is_empty() {
            return Err(not_found("of the day"));
        }
        let day = now_ms().div_euclid(86_400_000);
        let id = set.list[daily_index(day, set.list.len())].0.clone();
        self.view(&id, Some(day_name(day))).await
    }

    /// A puzzle for the caller near their puzzle rating (a streak's: rising with the streak),
    /// of the theme and scoring asked for, not one they attempted already.
    pub async fn next(
        &self,
        session: Option<&Session>,
        choice: &Choice,
    ) -> Result<PuzzleView, ApiError> {
        let theme = match choice.theme.as_deref().filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => match Theme::parse(t) {
                Some(t) => Some(format!("%,{},%", t.name())),
                None => {
                    let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
                    return Err(ApiError::new(
                        ErrorCode::BadRequest,
                        format!("unknown theme {t:?}: the themes are {}", names.join(", ")),
                    ));
                }
            },
        };
        let scoring = match choice.scoring.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => match s.parse::<Scoring>() {
                Ok(s) => Some(s.to_string()),
                Err(_) => {
                    return Err(ApiError::new(
                        ErrorCode::BadRequest,
                        format!("unknown scoring {s:?}: largest or product"),
                    ));
                }
            },
        };
        let db = &self.repo;
        let account = session.map(|s| s.key.as_str());
        let target = match (choice.streak, account) {
            (Some(n), _) => STREAK_START + STREAK_STEP * f64::from(n.min(40)),
            (None, Some(key)) => db
                .player_puzzle_rating(key)
                .await?
                .map_or(Rating::default().rating, |r| r.rating.rating),
            (None, None) => Rating::default().rating,
        };
        // A puzzle a newer file dropped stays in the table (its attempts refer to it) but is
        // not offered.
        let set = shipped();
        let near: Vec<(String, f64)> = db
            .puzzles_near(
                account,
                scoring.as_deref(),
                theme.as_deref(),
                target,
                if choice.streak.is_some() { 4 } else { NEAREST },
            )
            .await?
            .into_iter()
            .filter(|(id, _)| set.by_id.contains_key(id))
            .collect();
        if near.is_empty() {
            return Err(ApiError::new(
                ErrorCode::PuzzleNotFound,
                "no puzzle is left with these choices",
            ));
        }
        let pick = rand::rng().random_range(0..near.len());
        self.view(&near[pick].0, None).await
    }

    /// Reads and checks an attempt's moves against puzzle `p`: each a move, legal where it is
    /// played, no more than the player's moves.
    fn judge(p: &Puzzle, moves: &[String]) -> Result<Judged, ApiError> {
        let wanted = p.line.len().div_ceil(2);
        if moves.is_empty() {
            return Err(invalid("an attempt has at least one move"));
        }
        if moves.len() > wanted.min(MAX_ATTEMPT_MOVES) {
            return Err(invalid(format!(
                "this puzzle has {wanted} moves of the player, the attempt has {}",
                moves.len()
            )));
        }
        let mut pos: Position = p.start;
        for (i, text) in moves.iter().enumerate() {
            let mv: Move = text
                .parse()
                .map_err(|_| invalid(format!("{text:?} is not a move")))?;
            if !pos.legal_moves().contains(&mv) {
                return Err(invalid(format!(
                    "{mv} is not legal in {pos} (move {} of the attempt)",
                    i + 1
                )));
            }
            if mv != p.line[2 * i] {
                let after = pos
                    .play(mv)
                    .map_err(|_| invalid(format!("{mv} is not legal in {pos}")))?;
                return Ok(Judged::Wrong(i, after));
            }
            if 2 * i + 1 >= p.line.len() {
                return Ok(Judged::Solved);
            }
            let reply = p.line[2 * i + 1];
            if i + 1 == moves.len() {
                return Ok(Judged::Going(reply));
            }
            pos = pos
                .play(mv)
                .and_then(|q| q.play(reply))
                .map_err(|_| invalid("the puzzle's line is broken"))?;
        }
        Ok(Judged::Solved)
    }

    /// The exact final margin for the player who left `after` to the opponent, queued under
    /// `client`; `None` when the engine is too busy for it or the proof too long.
    async fn margin_after(&self, after: Position, scoring: Scoring, client: &str) -> Option<i32> {
        let slot = self
            .engine
            .queue(Work::Analysis, client, Some(WHY_BOUNDS))
            .ok()?
            .await?;
        slot.run(move || {
            let mut solver = Solver::new(scoring, 16);
            solver
                .solve(&after, SolveMode::Margin, &Limits::nodes(WHY_NODES))
                .map(|s| -s.value)
        })
        .await
        .flatten()
    }

    /// Judges an attempt at puzzle `id` by the client keyed `client`; once it is complete,
    /// records it for an account (the first one rated).
    pub async fn attempt(
        &self,
        session: Option<&Session>,
        client: &str,
        id: &str,
        moves: &[String],
        streak: Option<u32>,
    ) -> Result<AttemptAnswer, ApiError> {
        let p = self.puzzle(id)?;
        let db = &self.repo;
        let (correct, wrong, wrong_margin) = match Self::judge(p, moves)? {
            Judged::Going(reply) => {
                let rating = db
                    .puzzle_rating(id)
                    .await?
                    .map_or(f64::from(p.rating), |r| r.rating.rating);
                return Ok(AttemptAnswer {
                    correct: true,
                    complete: false,
                    reply: Some(reply.to_string()),
                    solution: Vec::new(),
                    wrong: None,
                    wrong_margin: None,
                    rating_change: None,
                    rating: None,
                    puzzle_rating: rating.round() as i64,
                    puzzle_rating_change: None,
                    streak: None,
                    best_streak: None,
                });
            }
            Judged::Solved => (true, None, None),
            Judged::Wrong(i, after) => (
                false,
                Some(i as u32),
                self.margin_after(after, p.scoring, client).await,
            ),
        };
        let mut answer = AttemptAnswer {
            correct,
            complete: true,
            reply: None,
            solution: p.line.iter().map(|m| m.to_string()).collect(),
            wrong,
            wrong_margin,
            rating_change: None,
            rating: None,
            puzzle_rating: 0,
            puzzle_rating_change: None,
            streak: None,
            best_streak: None,
        };
        // A streak's attempt moves the account's streak on, or ends it.
        if let (Some(s), Some(before)) = (session, streak) {
            let (now, best) = db.record_streak(&s.key, before, correct, now_ms()).await?;
            answer.streak = Some(now);
            answer.best_streak = Some(best);
        }
        let recorded = match session {
            Some(s) => {
                db.record_attempt(&s.key, id, correct, true, &self.system, now_ms())
                    .await?
            }
            None => Recorded::Again,
        };
        let diff = |after: &Rating, before: &Rating| {
            after.rating.round() as i64 - before.rating.round() as i64
        };
        if let Recorded::Rated {
            player_before,
            player_after,
            puzzle_before,
            puzzle_after,
        } = recorded
        {
            answer.rating_change = Some(diff(&player_after, &player_before));
            answer.rating = Some(player_after.rating.round() as i64);
            answer.puzzle_rating = puzzle_after.rating.round() as i64;
            answer.puzzle_rating_change = Some(diff(&puzzle_after, &puzzle_before));
            return Ok(answer);
        }
        answer.puzzle_rating = db
            .puzzle_rating(id)
            .await?
            .map_or(f64::from(p.rating), |r| r.rating.rating)
            .round() as i64;
        if let Some(s) = session {
            answer.rating = Some(
                db.player_puzzle_rating(&s.key)
                    .await?
                    .map_or(Rating::default().rating, |r| r.rating.rating)
                    .round() as i64,
            );
        }
        Ok(answer)
    }

    /// The marble to push next, after the player's right `moves` so far. For an account that
    /// has not attempted the puzzle yet, a hint makes its attempt unrated (recorded now).
    pub async fn hint(
        &self,
        session: Option<&Session>,
        id: &str,
        moves: &[String],
    ) -> Result<PuzzleHint, ApiError> {
        let p = self.puzzle(id)?;
        let next = if moves.is_empty() {
            p.line[0]
        } else {
            match Self::judge(p, moves)? {
                Judged::Going(_) => p.line[2 * moves.len()],
                Judged::Solved => return Err(invalid("the puzzle is solved: no hint is left")),
                Judged::Wrong(..) => return Err(invalid("a move of the attempt is wrong")),
            }
        };
        if let Some(s) = session {
            self.repo
                .record_attempt(&s.key, id, false, false, &self.system, now_ms())
                .await?;
        }
        let square = next
            .from()
            .map(|sq| sq.to_string())
            .ok_or_else(|| invalid("the next move is a pass"))?;
        Ok(PuzzleHint { square })
    }

    /// The themes, with how many puzzles teach each.
    pub fn themes(&self) -> ThemeList {
        let set = shipped();
        let themes = Theme::ALL
            .iter()
            .map(|&t| {
                let count = |s: Scoring| {
                    set.list
                        .iter()
                        .filter(|(_, p)| p.scoring == s && p.themes.contains(&t))
                        .count() as u64
                };
                ThemeCount {
                    theme: t.name().to_string(),
                    largest: count(Scoring::Largest),
                    product: count(Scoring::Product),
                }
            })
            .collect();
        ThemeList {
            themes,
            total: set.list.len() as u64,
        }
    }

    /// The puzzle rating and latest attempts of the player named `name`.
    pub async fn history(&self, name: &str) -> Result<PuzzleHistory, ApiError> {
        self.attempts_of(name, HISTORY).await
    }

    /// The puzzle rating and every attempt of the player named `name`, for the export of their
    /// data.
    pub async fn export(&self, name: &str) -> Result<PuzzleHistory, ApiError> {
        self.attempts_of(name, EXPORTED).await
    }

    async fn attempts_of(&self, name: &str, limit: u32) -> Result<PuzzleHistory, ApiError> {
        let db = &self.repo;
        let account = self
            .accounts
            .account(&lookup_key(name)?)
            .await?
            .ok_or_else(|| player_not_found(name))?;
        let rating = db.player_puzzle_rating(&account.key).await?;
        let r = rating.map_or(Rating::default(), |r| r.rating);
        let recent = db
            .puzzle_attempts(&account.key, limit)
            .await?
            .into_iter()
            .map(|a| PuzzleAttemptView {
                puzzle: a.puzzle,
                at: a.at,
                correct: a.correct,
                rated: a.rated,
                rating_change: match (a.before, a.after) {
                    (Some(b), Some(af)) => Some(af.round() as i64 - b.round() as i64),
                    _ => None,
                },
                rating_after: a.after.map(|x| x.round() as i64),
            })
            .collect();
        Ok(PuzzleHistory {
            name: account.name,
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            provisional: r.provisional(),
            attempts: rating.map_or(0, |r| r.attempts.max(0) as u64),
            solved: rating.map_or(0, |r| r.solved.max(0) as u64),
            best_streak: db.best_streak(&account.key).await?,
            recent,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_puzzle_is_read() {
        assert!(shipped().list.len() >= 5000);
    }

    #[test]
    fn the_puzzle_of_the_day_depends_on_the_day_only() {
        let n = shipped().list.len();
        assert_eq!(daily_index(20_000, n), daily_index(20_000, n));
        let days: std::collections::HashSet<usize> =
            (20_000..20_030).map(|d| daily_index(d, n)).collect();
        assert!(days.len() > 25);
        assert_eq!(day_name(0), "1970-01-01");
    }
}
