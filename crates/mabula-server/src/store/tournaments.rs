//! The tournaments' side of the store (issue 37): tournaments, their players and their
//! pairings, written once and run on either database through [`on_db!`].
//!
//! Every change of a tournament is one transaction that moves its `version` on by one, and its
//! pairing decisions (a round, an arena's wave, withdrawals by the rule, the end) are
//! conditional on the version they were decided from: zero rows updated means another instance
//! decided first, and the caller reads the tournament again. Each change announces `t ID` with
//! `NOTIFY` in its own transaction (PostgreSQL); on SQLite the caller delivers the notice.

use super::StoreError;
use super::conn::{Announce, Conn, on_db};
use sqlx::Row;

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `swiss` or `arena`.
    pub format: String,
    /// `largest` or `product`.
    pub scoring: String,
    /// The games' clock: seconds for the game.
    pub initial_s: u32,
    /// The games' clock: seconds added per move.
    pub increment_s: u32,
    /// A Swiss tournament's rounds.
    pub rounds: Option<u32>,
    /// An arena's minutes.
    pub minutes: Option<u32>,
    /// Each pairing plays two games on one deal, colours swapped.
    pub duplicate: bool,
    /// A duplicate match's games one after the other.
    pub sequential: bool,
    /// Rated games.
    pub rated: bool,
    /// When it starts (ms).
    pub starts_at: i64,
    /// The least rating to join.
    pub min_rating: Option<i32>,
    /// The password's argon2id hash.
    pub password_hash: Option<String>,
    /// The creator's account key (`None`: the site's schedule).
    pub creator: Option<String>,
    /// `created`, `running` or `finished`.
    pub status: String,
    /// The seed of its deals.
    pub seed: u64,
    /// Moves on by one with every change.
    pub version: u64,
    /// When it was created (ms).
    pub created_at: i64,
    /// When it finished (ms).
    pub finished_at: Option<i64>,
    /// The occurrence of a schedule it is (`daily 2026-11-29`).
    pub schedule_key: Option<String>,
    /// The winner's account key, once finished.
    pub winner: Option<String>,
    /// The creator's name (read, not written).
    pub creator_name: Option<String>,
    /// The winner's name (read, not written).
    pub winner_name: Option<String>,
    /// Players who take or took part: joined and did not withdraw, or were paired (read, not
    /// written).
    pub players: u32,
}

/// A player of a tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// The account's key.
    pub account: String,
    /// The account's name.
    pub name: String,
    /// The rating when they joined.
    pub rating: i32,
    /// When they joined (ms).
    pub joined_at: i64,
    /// Withdrawn (by themselves or by the rule).
    pub withdrawn: bool,
    /// When their account last read the tournament (ms; see [`TournamentsRepo::seen`]).
    pub seen_at: i64,
    /// Paused (an arena's player, by themselves or by a missed first move) until they join
    /// again.
    pub paused: bool,
}

/// How one game of a pairing ended, as the pairing row keeps it once it is first seen over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutcomeRow {
    /// The result token (`1-0`, `0-1`, `1/2-1/2`); `None` while not recorded.
    pub result: Option<String>,
    /// White's score minus Black's on the final board, when it ended on the board.
    pub margin: Option<i64>,
    /// The side that lost by the clock without a move.
    pub no_show: Option<String>,
}

/// A game of a pairing as the games table has it now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedGame {
    /// The result token (`*` while it is played).
    pub result: String,
    /// Whether it is over (aborted counts as over; tournament games are never aborted).
    pub finished: bool,
}

/// A pairing as stored, with its games as they are now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    /// The round or wave, from 1.
    pub round: u32,
    /// The board, from 1.
    pub board: u32,
    /// White of the first game (account key).
    pub white: String,
    /// Black of the first game; `None` for a bye.
    pub black: Option<String>,
    /// The games' ids (derived; the second only in a duplicate match).
    pub game_ids: [Option<String>; 2],
    /// The games as they are now (`None`: not created yet).
    pub games: [Option<PairedGame>; 2],
    /// The outcomes recorded so far.
    pub outcomes: [OutcomeRow; 2],
    /// When it was paired (ms).
    pub created_at: i64,
}

/// A new pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPairing {
    /// The round or wave.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// White of the first game.
    pub white: String,
    /// Black of the first game (`None`: a bye).
    pub black: Option<String>,
    /// The games' ids.
    pub game_ids: [Option<String>; 2],
}

/// A change of a tournament decided from one version of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentChange {
    /// The new status, if it changes.
    pub status: Option<&'static str>,
    /// The winner (with `status` `finished`).
    pub winner: Option<String>,
    /// Players withdrawn by the rule.
    pub withdraw: Vec<String>,
    /// New pairings.
    pub pairings: Vec<NewPairing>,
    /// When (ms).
    pub now: i64,
}

impl TournamentChange {
    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        self.status.is_none() && self.withdraw.is_empty() && self.pairings.is_empty()
    }
}

/// What became of a request to join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// In (or back in).
    Joined,
    /// The tournament is finished or gone.
    Closed,
    /// It has as many players as it may.
    Full,
}

/// The notice of a change of tournament `id`.
pub fn tournament_notice(id: &str) -> String {
    format!("t {id}")
}

/// The columns [`tournament_row!`] reads, from `tournaments t`.
const TOURNAMENT_COLUMNS: &str = "t.id, t.name, t.format, t.scoring, t.clock_initial_s, \
    t.clock_increment_s, t.rounds, t.minutes, t.duplicate, t.sequential, t.rated, t.starts_at, \
    t.min_rating, t.password_hash, t.creator, t.status, t.seed, t.version, t.created_at, \
    t.finished_at, t.schedule_key, t.winner, \
    (SELECT a.name FROM accounts a WHERE a.key = t.creator), \
    (SELECT p.name FROM tournament_players p WHERE p.tournament = t.id AND p.account = t.winner), \
    (SELECT CAST(count(*) AS BIGINT) FROM tournament_players p \
        WHERE p.tournament = t.id AND (p.withdrawn = FALSE OR EXISTS (SELECT 1 \
        FROM tournament_pairings q WHERE q.tournament = t.id \
        AND (q.white = p.account OR q.black = p.account))))";

fn small(v: Option<i64>) -> Option<u32> {
    v.and_then(|v| u32::try_from(v).ok())
}

macro_rules! tournament_row {
    ($r:expr) => {{
        let r = $r;
        let seed: String = r.try_get(16)?;
        Ok::<_, StoreError>(TournamentRow {
            id: r.try_get(0)?,
            name: r.try_get(1)?,
            format: r.try_get(2)?,
            scoring: r.try_get(3)?,
            initial_s: small(r.try_get(4)?).unwrap_or(0),
            increment_s: small(r.try_get(5)?).unwrap_or(0),
            rounds: small(r.try_get(6)?),
            minutes: small(r.try_get(7)?),
            duplicate: r.try_get(8)?,
            sequential: r.try_get(9)?,
            rated: r.try_get(10)?,
            starts_at: r.try_get(11)?,
            min_rating: r
                .try_get::<Option<i64>, _>(12)?
                .and_then(|v| i32::try_from(v).ok()),
            password_hash: r.try_get(13)?,
            creator: r.try_get(14)?,
            status: r.try_get(15)?,
            seed: seed.parse().unwrap_or(0),
            version: r.try_get::<i64, _>(17)? as u64,
            created_at: r.try_get(18)?,
            finished_at: r.try_get(19)?,
            schedule_key: r.try_get(20)?,
            winner: r.try_get(21)?,
            creator_name: r.try_get(22)?,
            winner_name: r.try_get(23)?,
            players: small(r.try_get(24)?).unwrap_or(0),
        })
    }};
}

macro_rules! pairing_row {
    ($r:expr) => {{
        let r = $r;
        let game = |id: Option<String>, result: Option<String>, finished: Option<bool>| {
            id.map(|_| PairedGame {
                result: result.unwrap_or_else(|| "*".to_string()),
                finished: finished.unwrap_or(false),
            })
        };
        Ok::<_, StoreError>(PairingRow {
            round: small(r.try_get(0)?).unwrap_or(0),
            board: small(r.try_get(1)?).unwrap_or(0),
            white: r.try_get(2)?,
            black: r.try_get(3)?,
            game_ids: [r.try_get(4)?, r.try_get(5)?],
            outcomes: [
                OutcomeRow {
                    result: r.try_get(6)?,
                    margin: r.try_get(7)?,
                    no_show: r.try_get(8)?,
                },
                OutcomeRow {
                    result: r.try_get(9)?,
                    margin: r.try_get(10)?,
                    no_show: r.try_get(11)?,
                },
            ],
            created_at: r.try_get(12)?,
            games: [
                game(r.try_get(13)?, r.try_get(14)?, r.try_get(15)?),
                game(r.try_get(16)?, r.try_get(17)?, r.try_get(18)?),
            ],
        })
    }};
}

/// The tournaments' repository (the [tournaments service](crate::services::tournaments)'s): tournaments, their players and pairings.
#[derive(Clone, Debug)]
pub struct TournamentsRepo {
    conn: Conn,
}

impl TournamentsRepo {
    pub(super) fn new(conn: Conn) -> TournamentsRepo {
        TournamentsRepo { conn }
    }

    /// Stores tournament `t` unless its creator has `max_open` tournaments not finished
    /// already, or its schedule key is taken (another instance made that occurrence): whether
    /// it was stored. `creator_settled`: made by the site or by a player whose rating is settled
    /// (listed first, see [`TournamentsRepo::tournaments`]).
    pub async fn insert_tournament(
        &self,
        t: &TournamentRow,
        max_open: u32,
        creator_settled: bool,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, pg| {
            let mut tx = pool.begin().await?;
            if pg && let Some(creator) = &t.creator {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                    .bind(format!("tournaments:{creator}"))
                    .execute(&mut *tx)
                    .await?;
            }
            let done = sqlx::query(
                "INSERT INTO tournaments (id, name, format, scoring, clock_initial_s, \
                 clock_increment_s, rounds, minutes, duplicate, sequential, rated, starts_at, \
                 min_rating, password_hash, creator, status, seed, version, created_at, \
                 finished_at, schedule_key, creator_settled) \
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
                 $17, $18, $19, NULL, $20, $22 \
                 WHERE $15 IS NULL OR (SELECT count(*) FROM tournaments \
                 WHERE creator = $15 AND status <> 'finished') < $21 \
                 ON CONFLICT DO NOTHING",
            )
            .bind(&t.id)
            .bind(&t.name)
            .bind(&t.format)
            .bind(&t.scoring)
            .bind(i64::from(t.initial_s))
            .bind(i64::from(t.increment_s))
            .bind(t.rounds.map(i64::from))
            .bind(t.minutes.map(i64::from))
            .bind(t.duplicate)
            .bind(t.sequential)
            .bind(t.rated)
            .bind(t.starts_at)
            .bind(t.min_rating.map(i64::from))
            .bind(t.password_hash.as_deref())
            .bind(t.creator.as_deref())
            .bind(&t.status)
            .bind(t.seed.to_string())
            .bind(t.version as i64)
            .bind(t.created_at)
            .bind(t.schedule_key.as_deref())
            .bind(i64::from(max_open))
            .bind(creator_settled)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            tx.announce(&[tournament_notice(&t.id)]).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Tournament `id`.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t WHERE t.id = $1"
            )))
            .bind(id)
            .fetch_optional(pool)
            .await?;
            row.map(|r| tournament_row!(&r)).transpose()
        })
    }

    /// The tournaments of status `status`: `created` soonest first, the others latest first;
    /// at most `limit`, those of the site and of creators with a settled rating taken first, so
    /// that no number of new accounts' tournaments pushes them off the list.
    pub async fn tournaments(
        &self,
        status: &str,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let order = if status == "created" {
            "t.starts_at ASC"
        } else {
            "t.starts_at DESC"
        };
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t WHERE t.status = $1 \
                 ORDER BY t.creator_settled DESC, {order}, t.id LIMIT $2"
            )))
            .bind(status)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| tournament_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })
        .map(|mut rows| {
            rows.sort_by(|a, b| {
                let soonest = a.starts_at.cmp(&b.starts_at).then_with(|| a.id.cmp(&b.id));
                if status == "created" {
                    soonest
                } else {
                    soonest.reverse()
                }
            });
            rows
        })
    }

    /// The tournaments account `key` joined, latest first (at most `limit`).
    pub async fn tournaments_of(
        &self,
        key: &str,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t \
                 JOIN tournament_players tp ON tp.tournament = t.id AND tp.account = $1 \
                 ORDER BY t.starts_at DESC, t.id LIMIT $2"
            )))
            .bind(key)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| tournament_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })
    }

    /// The ids of the tournaments to look after at `now`: created and due to start, or running.
    pub async fn due_tournaments(&self, now: i64) -> Result<Vec<String>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT id FROM tournaments WHERE status = 'running' \
                 OR (status = 'created' AND starts_at <= $1) ORDER BY starts_at, id LIMIT 200",
            )
            .bind(now)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    /// The players of tournament `id`, in the order they joined.
    pub async fn tournament_entrants(&self, id: &str) -> Result<Vec<EntrantRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT account, name, rating, joined_at, withdrawn, seen_at, paused \
                 FROM tournament_players WHERE tournament = $1 ORDER BY joined_at, account",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(EntrantRow {
                        account: r.try_get(0)?,
                        name: r.try_get(1)?,
                        rating: i32::try_from(r.try_get::<i64, _>(2)?).unwrap_or(0),
                        joined_at: r.try_get(3)?,
                        withdrawn: r.try_get(4)?,
                        seen_at: r.try_get(5)?,
                        paused: r.try_get(6)?,
                    })
                })
                .collect()
        })
    }

    /// The pairings of tournament `id` by round and board, with their games as they are now.
    pub async fn tournament_pairings(&self, id: &str) -> Result<Vec<PairingRow>, StoreError> {
        on_db!(&self.conn, read, |pool, _pg| {
            let rows = sqlx::query(
                "SELECT p.round, p.board, p.white, p.black, p.game1, p.game2, p.result1, \
                 p.margin1, p.no_show1, p.result2, p.margin2, p.no_show2, p.created_at, \
                 g1.id, g1.result, g1.finished, g2.id, g2.result, g2.finished \
                 FROM tournament_pairings p \
                 LEFT JOIN games g1 ON g1.id = p.game1 \
                 LEFT JOIN games g2 ON g2.id = p.game2 \
                 WHERE p.tournament = $1 ORDER BY p.round, p.board",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| pairing_row!(r))
                .collect::<Result<Vec<_>, _>>()
        })
    }

    /// Adds (or brings back, from a withdrawal or a pause) `e` to tournament `id` unless it is
    /// finished or has `max_players`.
    pub async fn join_tournament(
        &self,
        id: &str,
        e: &EntrantRow,
        max_players: u32,
    ) -> Result<Joined, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            // The tournament's row first: on PostgreSQL it is locked until the commit, so the
            // count below is the count of everyone.
            let open = sqlx::query(
                "UPDATE tournaments SET version = version + 1 \
                 WHERE id = $1 AND status <> 'finished'",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if open.rows_affected() != 1 {
                return Ok(Joined::Closed);
            }
            let done = sqlx::query(
                "INSERT INTO tournament_players (tournament, account, name, rating, joined_at, \
                 withdrawn, seen_at, paused) SELECT $1, $2, $3, $4, $5, FALSE, $5, FALSE \
                 WHERE (SELECT count(*) FROM tournament_players WHERE tournament = $1) < $6 \
                 ON CONFLICT (tournament, account) DO UPDATE SET withdrawn = FALSE, \
                 paused = FALSE, seen_at = EXCLUDED.seen_at",
            )
            .bind(id)
            .bind(&e.account)
            .bind(&e.name)
            .bind(i64::from(e.rating))
            .bind(e.joined_at)
            .bind(i64::from(max_players))
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(Joined::Full);
            }
            tx.announce(&[tournament_notice(id)]).await?;
            tx.commit().await?;
            Ok(Joined::Joined)
        })
    }

    /// Withdraws `account` from tournament `id` (not finished): whether they were in it and had
    /// not withdrawn.
    pub async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: &str,
    ) -> Result<bool, StoreError> {
        self.set_entrant(id, account, "withdrawn = TRUE", "withdrawn = FALSE")
            .await
    }

    /// Pauses `account` in tournament `id` (not finished): whether they were in it, neither
    /// withdrawn nor paused.
    pub async fn pause_in_tournament(&self, id: &str, account: &str) -> Result<bool, StoreError> {
        self.set_entrant(
            id,
            account,
            "paused = TRUE",
            "withdrawn = FALSE AND paused = FALSE",
        )
        .await
    }

    /// Sets `set` on `account`'s row of tournament `id` (not finished) if it holds `only`:
    /// whether it did (the tournament's version then moves on, and its listeners hear of it).
    async fn set_entrant(
        &self,
        id: &str,
        account: &str,
        set: &'static str,
        only: &'static str,
    ) -> Result<bool, StoreError> {
        let sql = format!(
            "UPDATE tournament_players SET {set} WHERE tournament = $1 AND account = $2 AND {only}"
        );
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let open = sqlx::query(
                "UPDATE tournaments SET version = version + 1 \
                 WHERE id = $1 AND status <> 'finished'",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if open.rows_affected() != 1 {
                return Ok(false);
            }
            // Both parts are constants of this file's callers.
            let done = sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
                .bind(id)
                .bind(account)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            tx.announce(&[tournament_notice(id)]).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Notes that `account` read tournament `id` at `now`, unless it did less than `every` ago
    /// (a player who is there writes once in that time, whatever they read).
    pub async fn seen(
        &self,
        id: &str,
        account: &str,
        now: i64,
        every: i64,
    ) -> Result<(), StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            sqlx::query(
                "UPDATE tournament_players SET seen_at = $3 \
                 WHERE tournament = $1 AND account = $2 AND seen_at <= $4",
            )
            .bind(id)
            .bind(account)
            .bind(now)
            .bind(now - every)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Moves the start of tournament `id` to `now` if `creator` created it and it has not
    /// started, nor been started already (its start is still to come): whether it did. Of two
    /// starts at once, one does.
    pub async fn start_tournament_now(
        &self,
        id: &str,
        creator: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE tournaments SET starts_at = $3, started_early = TRUE, \
                 version = version + 1 WHERE id = $1 AND creator = $2 AND status = 'created' \
                 AND starts_at > $3 AND started_early = FALSE",
            )
            .bind(id)
            .bind(creator)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            tx.announce(&[tournament_notice(id)]).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Applies `change` to tournament `id` if it still has version `expect`: whether it did (if
    /// not, another instance changed it first). One transaction, with its notice.
    pub async fn change_tournament(
        &self,
        id: &str,
        expect: u64,
        change: &TournamentChange,
    ) -> Result<bool, StoreError> {
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE tournaments SET version = version + 1, status = COALESCE($3, status), \
                 finished_at = CASE WHEN $3 = 'finished' THEN $4 ELSE finished_at END, \
                 winner = COALESCE($5, winner) WHERE id = $1 AND version = $2",
            )
            .bind(id)
            .bind(expect as i64)
            .bind(change.status)
            .bind(change.now)
            .bind(change.winner.as_deref())
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            for account in &change.withdraw {
                sqlx::query(
                    "UPDATE tournament_players SET withdrawn = TRUE \
                     WHERE tournament = $1 AND account = $2",
                )
                .bind(id)
                .bind(account)
                .execute(&mut *tx)
                .await?;
            }
            for p in &change.pairings {
                sqlx::query(
                    "INSERT INTO tournament_pairings (tournament, round, board, white, black, \
                     game1, game2, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(id)
                .bind(i64::from(p.round))
                .bind(i64::from(p.board))
                .bind(&p.white)
                .bind(p.black.as_deref())
                .bind(p.game_ids[0].as_deref())
                .bind(p.game_ids[1].as_deref())
                .bind(change.now)
                .execute(&mut *tx)
                .await?;
            }
            tx.announce(&[tournament_notice(id)]).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Records the outcome of game `half` (0 or 1) of pairing (`round`, `board`) of tournament
    /// `id`, unless it is recorded already, and then pauses the player `pause` (who missed an
    /// arena game's first move): whether it was (then the tournament's version moves on and its
    /// notice goes out, since its standings changed).
    pub async fn record_tournament_outcome(
        &self,
        id: &str,
        round: u32,
        board: u32,
        half: usize,
        outcome: &OutcomeRow,
        pause: Option<&str>,
    ) -> Result<bool, StoreError> {
        let sql = if half == 0 {
            "UPDATE tournament_pairings SET result1 = $4, margin1 = $5, no_show1 = $6 \
             WHERE tournament = $1 AND round = $2 AND board = $3 AND result1 IS NULL"
        } else {
            "UPDATE tournament_pairings SET result2 = $4, margin2 = $5, no_show2 = $6 \
             WHERE tournament = $1 AND round = $2 AND board = $3 AND result2 IS NULL"
        };
        on_db!(&self.conn, write, |pool, _pg| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(sql)
                .bind(id)
                .bind(i64::from(round))
                .bind(i64::from(board))
                .bind(outcome.result.as_deref())
                .bind(outcome.margin)
                .bind(outcome.no_show.as_deref())
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            if let Some(account) = pause {
                sqlx::query(
                    "UPDATE tournament_players SET paused = TRUE \
                     WHERE tournament = $1 AND account = $2",
                )
                .bind(id)
                .bind(account)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.announce(&[tournament_notice(id)]).await?;
            tx.commit().await?;
            Ok(true)
        })
    }
}
