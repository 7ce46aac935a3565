//! What the site shows of a player (the [players service](crate::services::players)'s
//! repository, read only): the tally of their results, pages of their games, the games they
//! are playing and those where it is their turn.

use super::StoreError;
use super::conn::{Conn, control_of, corrupt, on_db};
use crate::model::TimeControl;
use mabula::{Color, GameResult, Scoring};
use sqlx::Row;

/// The players' repository (read only).
#[derive(Clone, Debug)]
pub struct PlayersRepo {
    conn: Conn,
}

impl PlayersRepo {
    pub(super) fn new(conn: Conn) -> PlayersRepo {
        PlayersRepo { conn }
    }
}

/// A player's finished games counted by the side they played, whether that side moved first,
/// and the result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins, draws and losses when the player moved first.
    pub first: [u32; 3],
    /// Wins, draws and losses when the player moved second.
    pub second: [u32; 3],
}

/// Which of a player's games a history shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryFilter {
    /// `win`, `draw` or `loss` (from the player's side), or all.
    pub result: Option<String>,
    /// One scoring mode, or all.
    pub scoring: Option<Scoring>,
}

/// A game in a player's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryGame {
    /// The game id.
    pub id: String,
    /// The scoring mode.
    pub scoring: Scoring,
    /// White's and Black's names (`None`: a guest or the engine).
    pub names: [Option<String>; 2],
    /// The result token.
    pub result: GameResult,
    /// Why it ended.
    pub end_reason: Option<String>,
    /// Whether it was rated.
    pub rated: bool,
    /// The time control, if any.
    pub control: Option<TimeControl>,
    /// Number of moves.
    pub move_count: u32,
    /// Still being played.
    pub playing: bool,
    /// Creation time (ms).
    pub created_at: i64,
    /// White's and Black's ratings when it began.
    pub ratings: [Option<i32>; 2],
    /// How it moved White's and Black's ratings, once rated.
    pub diffs: [Option<i32>; 2],
    /// The position now (the final one once it is over).
    pub position: String,
}

/// A game an account is playing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayingRow {
    /// The game id.
    pub id: String,
    /// The account's side.
    pub color: Color,
    /// The opponent's name, rating and whether it is provisional (`None`: a guest, or the
    /// engine).
    pub opponent: (Option<String>, Option<i64>, bool),
    /// The engine's level, when the opponent is the engine.
    pub engine_level: Option<i64>,
    /// The side to move.
    pub to_move: Option<Color>,
    /// The time control, if any.
    pub control: Option<TimeControl>,
    /// White's and Black's time left at the start of the turn (ms), on a clock.
    pub clocks: [Option<i64>; 2],
    /// When the side to move must have moved (ms).
    pub deadline_at: Option<i64>,
    /// The tournament it belongs to.
    pub tournament: Option<String>,
    /// The position now.
    pub position: String,
    /// The scoring mode.
    pub scoring: Scoring,
    /// Whether it is rated.
    pub rated: bool,
    /// Moves played.
    pub move_count: u32,
}

/// The most games one answer lists of those an account is playing.
pub const PLAYING_LIMIT: i64 = 200;

impl PlayersRepo {
    /// The finished games of `key` counted by side, order and result (aborted games left out).
    pub async fn tally(&self, key: &str) -> Result<Tally, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT white_account, substr(start, length(start)), result, \
                 CAST(COUNT(*) AS BIGINT) FROM games \
                 WHERE (white_account = $1 OR black_account = $1) AND finished = TRUE \
                 AND COALESCE(end_reason, '') <> 'aborted' GROUP BY 1, 2, 3",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            let mut t = Tally::default();
            for r in &rows {
                let white: Option<String> = r.try_get(0)?;
                let first: String = r.try_get(1)?;
                let result: String = r.try_get(2)?;
                let n = u32::try_from(r.try_get::<i64, _>(3)?).unwrap_or(0);
                let as_white = white.as_deref() == Some(key);
                let moved_first = (first == "w") == as_white;
                let slot = match (GameResult::parse(&result), as_white) {
                    (Some(GameResult::WhiteWins), true) | (Some(GameResult::BlackWins), false) => 0,
                    (Some(GameResult::Draw), _) => 1,
                    (Some(GameResult::WhiteWins | GameResult::BlackWins), _) => 2,
                    _ => continue,
                };
                let side = if moved_first {
                    &mut t.first
                } else {
                    &mut t.second
                };
                side[slot] += n;
            }
            Ok(t)
        })
    }

    /// A page of the games of `key`, newest first.
    pub async fn player_games(
        &self,
        key: &str,
        filter: &HistoryFilter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<HistoryGame>, StoreError> {
        let result_sql = match filter.result.as_deref() {
            Some("win") => {
                " AND ((white_account = $1 AND result = '1-0') OR (black_account = $1 AND result = '0-1'))"
            }
            Some("loss") => {
                " AND ((white_account = $1 AND result = '0-1') OR (black_account = $1 AND result = '1-0'))"
            }
            Some("draw") => " AND result = '1/2-1/2'",
            _ => "",
        };
        let sql = format!(
            "SELECT id, scoring, white_name, black_name, result, end_reason, rated, \
             clock_initial_s, clock_increment_s, clock_days, move_count, finished, created_at, \
             white_rating, black_rating, white_rating_diff, black_rating_diff, position \
             FROM games WHERE (white_account = $1 OR black_account = $1){result_sql} \
             AND ($2 = '' OR scoring = $2) ORDER BY created_at DESC LIMIT $3 OFFSET $4"
        );
        let scoring = filter.scoring.map(|s| s.name()).unwrap_or("");
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
                .bind(key)
                .bind(scoring)
                .bind(i64::from(limit))
                .bind(i64::from(offset))
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| {
                    let id: String = r.try_get(0)?;
                    let scoring: String = r.try_get(1)?;
                    let result: String = r.try_get(4)?;
                    Ok(HistoryGame {
                        scoring: scoring
                            .parse()
                            .map_err(|_| corrupt(&id, format!("scoring {scoring}")))?,
                        names: [r.try_get(2)?, r.try_get(3)?],
                        result: GameResult::parse(&result)
                            .ok_or_else(|| corrupt(&id, format!("result {result}")))?,
                        end_reason: r.try_get(5)?,
                        rated: r.try_get(6)?,
                        control: control_of(r.try_get(7)?, r.try_get(8)?, r.try_get(9)?),
                        move_count: u32::try_from(r.try_get::<i64, _>(10)?).unwrap_or(0),
                        playing: !r.try_get::<bool, _>(11)?,
                        created_at: r.try_get(12)?,
                        ratings: [small(r.try_get(13)?), small(r.try_get(14)?)],
                        diffs: [small(r.try_get(15)?), small(r.try_get(16)?)],
                        position: r.try_get(17)?,
                        id,
                    })
                })
                .collect()
        })
    }

    /// The unfinished games where `key` holds a seat: those where it is their turn first, the
    /// soonest deadline first; then the latest moved.
    pub async fn playing(&self, key: &str) -> Result<Vec<PlayingRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id, white_account = $1, white_name, black_name, white_rating, \
                 black_rating, mode, engine_level, to_move, clock_initial_s, clock_increment_s, \
                 clock_days, white_clock_ms, black_clock_ms, deadline_at, tournament, scoring, \
                 rated, move_count, position, white_provisional, black_provisional FROM games WHERE finished = FALSE \
                 AND (white_account = $1 OR black_account = $1) \
                 ORDER BY CASE WHEN to_move = CASE WHEN white_account = $1 THEN 'white' \
                   ELSE 'black' END THEN 0 ELSE 1 END, \
                 COALESCE(deadline_at, 9223372036854775807), updated_at DESC LIMIT $2",
            )
            .bind(key)
            .bind(PLAYING_LIMIT)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let id: String = r.try_get(0)?;
                    let white: bool = r.try_get(1)?;
                    let color = if white { Color::White } else { Color::Black };
                    let them = usize::from(white);
                    let to_move: Option<String> = r.try_get(8)?;
                    let scoring: String = r.try_get(16)?;
                    Ok(PlayingRow {
                        color,
                        opponent: (
                            r.try_get(2 + them)?,
                            r.try_get(4 + them)?,
                            r.try_get(20 + them)?,
                        ),
                        engine_level: match r.try_get::<String, _>(6)?.as_str() {
                            "engine" => r.try_get(7)?,
                            _ => None,
                        },
                        to_move: to_move.as_deref().and_then(Color::parse),
                        control: control_of(r.try_get(9)?, r.try_get(10)?, r.try_get(11)?),
                        clocks: [r.try_get(12)?, r.try_get(13)?],
                        deadline_at: r.try_get(14)?,
                        tournament: r.try_get(15)?,
                        position: r.try_get(19)?,
                        scoring: scoring
                            .parse()
                            .map_err(|_| corrupt(&id, format!("scoring {scoring}")))?,
                        rated: r.try_get(17)?,
                        move_count: u32::try_from(r.try_get::<i64, _>(18)?).unwrap_or(0),
                        id,
                    })
                })
                .collect()
        })
    }

    /// The unfinished games of `key` where it is their turn (correspondence first).
    pub async fn my_turn(&self, key: &str) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE finished = FALSE AND \
                 ((white_account = $1 AND to_move = 'white') OR \
                  (black_account = $1 AND to_move = 'black')) \
                 ORDER BY COALESCE(deadline_at, 0) LIMIT 100",
            )
            .bind(key)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }
}

/// A stored rating or rating change, as the API gives it.
fn small(v: Option<i64>) -> Option<i32> {
    v.and_then(|n| i32::try_from(n).ok())
}
