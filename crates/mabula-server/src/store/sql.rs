//! The SQL of both backends, written once. SQLite binds `$N` placeholders as PostgreSQL does,
//! and both know `TRUE`/`FALSE`, `ON CONFLICT … DO UPDATE` and `IS NOT DISTINCT FROM`, so one
//! text serves both; [`queries!`] expands the functions that run them for one connection type
//! (sqlx's connection types share no trait that would let plain generic functions do it).

use super::rows::RowState;
use crate::model::{Clock, TimeControl};
use mabula::Color;

/// A game row with its moves, in one round trip (the moves as one text, in order, a space
/// between two).
pub(super) const LOAD_GAME: &str = "SELECT id, created_at, updated_at, mode, scoring, seed, \
    start, engine_color, engine_level, engine_movetime_ms, white_token, black_token, join_code, \
    epoch, version, result, end_reason, rematch_of, rematch_id, white_hints, black_hints, \
    pair_half, undo_by, undo_moves, engine_owner, white_account, black_account, white_name, \
    black_name, white_rating, black_rating, white_provisional, black_provisional, \
    white_rating_diff, black_rating_diff, rated, clock_initial_s, clock_increment_s, clock_days, \
    white_clock_ms, black_clock_ms, turn_started_at, draw_offer, white_draw_declined, \
    black_draw_declined, tournament, \
    COALESCE((SELECT bot FROM accounts WHERE key = white_account), FALSE) AS white_bot, \
    COALESCE((SELECT bot FROM accounts WHERE key = black_account), FALSE) AS black_bot, \
    COALESCE((SELECT string_agg(notation, ' ' ORDER BY ply) FROM moves \
        WHERE game_id = games.id), '') AS moves \
    FROM games WHERE id = $1";

/// A list of games; the filter is the same text with a `WHERE`.
macro_rules! list_sql {
    ($filter:literal) => {
        concat!(
            "SELECT id, mode, scoring, engine_level, position, to_move, move_count, result, ",
            "end_reason, created_at, updated_at, white_account, white_name, white_rating, ",
            "white_provisional, black_account, black_name, black_rating, black_provisional, ",
            "rated, clock_initial_s, clock_increment_s, clock_days, ",
            "COALESCE((SELECT bot FROM accounts WHERE key = white_account), FALSE) AS white_bot, ",
            "COALESCE((SELECT bot FROM accounts WHERE key = black_account), FALSE) AS black_bot ",
            "FROM games ",
            $filter,
            " ORDER BY updated_at DESC LIMIT $1"
        )
    };
}

pub(super) const LIST_RECENT: &str = list_sql!("");
/// Games being played: on a clock (the clock ends an abandoned one), or changed in the last
/// [`LIVE_IDLE_MS`](super::LIVE_IDLE_MS) (`$2`: the earliest change time that counts); but not
/// an engine game whose player has not moved yet (no move, or only the engine's first) and that
/// began before `$3`, [`ENGINE_UNSTARTED_MS`](super::ENGINE_UNSTARTED_MS) ago.
pub(super) const LIST_LIVE: &str = list_sql!(
    "WHERE finished = FALSE AND (deadline_at IS NOT NULL OR updated_at >= $2) \
    AND NOT (mode = 'engine' AND created_at < $3 \
        AND move_count <= CASE WHEN engine_color = 'white' THEN 1 ELSE 0 END)"
);
pub(super) const LIST_FINISHED: &str = list_sql!("WHERE finished = TRUE");

/// A new game, unless a game with its id is there already (a rematch made at the same moment
/// on another instance: see `auth::rematch_game_id`), or it is an engine game and its client
/// address has its cap of unfinished engine games (`store::EngineCap`) already, or one of its
/// accounts is (or is no longer) a bot unlike the game thinks ($50, $51: it was upgraded while
/// the game was made; on PostgreSQL [`LOCK_PLAYERS`] went first, so the upgrade and the game
/// wait for each other).
pub(super) const INSERT_GAME: &str = "INSERT INTO games (id, created_at, updated_at, mode, \
    scoring, seed, start, engine_color, engine_level, engine_movetime_ms, white_token, \
    black_token, join_code, position, to_move, move_count, finished, epoch, result, end_reason, \
    rematch_of, rematch_id, pair_half, white_hints, black_hints, undo_by, undo_moves, \
    engine_owner, version, white_account, black_account, white_name, black_name, white_rating, \
    black_rating, white_provisional, black_provisional, rated, clock_initial_s, \
    clock_increment_s, clock_days, white_clock_ms, black_clock_ms, turn_started_at, deadline_at, \
    engine_address, tournament) \
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, \
    $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, \
    $39, $40, $41, $42, $43, $44, $45, $46, $49 \
    WHERE (SELECT count(*) FROM games WHERE engine_address = $46 AND finished = FALSE \
    AND updated_at > $47) < $48 \
    AND COALESCE((SELECT bot FROM accounts WHERE key = $30), $50) = $50 \
    AND COALESCE((SELECT bot FROM accounts WHERE key = $31), $51) = $51 \
    ON CONFLICT (id) DO NOTHING";

/// On PostgreSQL, before [`INSERT_GAME`]: the game's accounts' rows, locked against an upgrade
/// to a bot until the game is stored (see `TokensRepo::upgrade_to_bot`). SQLite writes one
/// transaction at a time and needs no lock.
pub(super) const LOCK_PLAYERS: &str =
    "SELECT 1 FROM accounts WHERE key IN ($1, $2) ORDER BY key FOR SHARE";

pub(super) const INSERT_MOVE: &str =
    "INSERT INTO moves (game_id, ply, notation, played_at) VALUES ($1, $2, $3, $4)";

/// The one statement of every change: all the changing columns, only if the version matches.
pub(super) const CHANGE_GAME: &str = "UPDATE games SET position = $3, to_move = $4, \
    move_count = $5, finished = $6, epoch = $7, result = $8, end_reason = $9, updated_at = $10, \
    white_hints = $11, black_hints = $12, white_token = $13, black_token = $14, \
    rematch_id = $15, undo_by = $16, undo_moves = $17, engine_owner = $18, \
    white_account = $19, white_name = $20, black_account = $21, black_name = $22, \
    white_clock_ms = $23, black_clock_ms = $24, turn_started_at = $25, deadline_at = $26, \
    draw_offer = $27, white_draw_declined = $28, black_draw_declined = $29, \
    version = version + 1 WHERE id = $1 AND version = $2";

/// The first placeholder after [`CHANGE_GAME`]'s (`$1` to `$29`), for statements that extend it.
pub(super) const AFTER_CHANGE: u8 = 30;

/// Engine moves nobody computes: of engine games, and of lobby games against a house bot (issue
/// 38), whose engine side is the house bot's.
pub(super) const ENGINE_ORPHANS: &str = "SELECT id, engine_owner FROM games \
    WHERE finished = FALSE AND to_move = engine_color \
    AND (engine_owner IS NULL OR engine_owner NOT IN \
        (SELECT id FROM instances WHERE heartbeat_at >= $1)) \
    ORDER BY updated_at LIMIT $2";

pub(super) const CLAIM_ENGINE: &str = "UPDATE games SET engine_owner = $1 \
    WHERE id = $2 AND engine_owner IS NOT DISTINCT FROM $3 \
    AND finished = FALSE AND to_move = engine_color";

pub(super) const HEARTBEAT: &str = "INSERT INTO instances (id, started_at, heartbeat_at) \
    VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at";

pub(super) const SET_PRESENCE: &str = "INSERT INTO presence \
    (instance, game_id, white, black, spectators) VALUES ($1, $2, $3, $4, $5) \
    ON CONFLICT (instance, game_id) DO UPDATE SET white = excluded.white, \
    black = excluded.black, spectators = excluded.spectators";

pub(super) const PRESENCE_TOTALS: &str = "SELECT \
    CAST(COALESCE(SUM(p.white), 0) AS BIGINT), CAST(COALESCE(SUM(p.black), 0) AS BIGINT), \
    CAST(COALESCE(SUM(p.spectators), 0) AS BIGINT) \
    FROM presence p JOIN instances i ON i.id = p.instance \
    WHERE p.game_id = $1 AND i.heartbeat_at >= $2";

/// The insert of the `n` keys a game keeps (fair play): `$1` the game, then the keys.
pub(super) fn insert_kept(n: usize) -> String {
    let rows: Vec<String> = (2..n + 2).map(|i| format!("($1, ${i})")).collect();
    format!(
        "INSERT INTO kept_positions (game_id, key) VALUES {}",
        rows.join(", ")
    )
}

/// The `clock_initial_s` column.
pub(super) fn clock_initial(c: Option<Clock>) -> Option<i64> {
    match c?.control {
        TimeControl::Clock { initial_s, .. } => Some(i64::from(initial_s)),
        TimeControl::Days { .. } => None,
    }
}

/// The `clock_increment_s` column.
pub(super) fn clock_increment(c: Option<Clock>) -> Option<i64> {
    match c?.control {
        TimeControl::Clock { increment_s, .. } => Some(i64::from(increment_s)),
        TimeControl::Days { .. } => None,
    }
}

/// The `clock_days` column.
pub(super) fn clock_days(c: Option<Clock>) -> Option<i64> {
    match c?.control {
        TimeControl::Days { days } => Some(i64::from(days)),
        TimeControl::Clock { .. } => None,
    }
}

/// The `to_move` column.
pub(super) fn to_move_text(r: &RowState) -> Option<&'static str> {
    r.to_move.map(Color::name)
}

/// Expands the functions that run the shared SQL on connection type `$conn` and decode rows of
/// type `$row`.
macro_rules! queries {
    ($conn:ty, $row:ty, $pg:expr) => {
        use sqlx::Row;
        use $crate::store::rows::{
            Decoder, GameRow, MovesChange, PresenceCounts, RowChange, RowState, StoredGame,
        };
        use $crate::store::sql::{self as q};
        use $crate::store::{ListFilter, Orphan, StoreError, WriteOp};

        /// Applies one write inside the caller's transaction; whether it was applied.
        async fn apply_one(conn: &mut $conn, op: &WriteOp) -> Result<bool, StoreError> {
            match op {
                WriteOp::Insert(game, row, cap) => insert_game(conn, game, row, cap.as_ref()).await,
                WriteOp::Change(change) => change_game(conn, change).await,
            }
        }

        async fn insert_game(
            conn: &mut $conn,
            g: &StoredGame,
            row: &RowState,
            cap: Option<&$crate::store::EngineCap>,
        ) -> Result<bool, StoreError> {
            let engine = g.engine;
            let key = |i: usize| g.players[i].as_ref().map(|p| p.key.as_str());
            if $pg && (key(0).is_some() || key(1).is_some()) {
                sqlx::query(q::LOCK_PLAYERS)
                    .bind(key(0))
                    .bind(key(1))
                    .execute(&mut *conn)
                    .await?;
            }
            let done = sqlx::query(q::INSERT_GAME)
                .bind(g.id.as_str())
                .bind(g.created_at)
                .bind(g.updated_at)
                .bind(g.mode.name())
                .bind(g.scoring.name())
                .bind(g.seed.map(|s| s.to_string()))
                .bind(g.start.to_string())
                .bind(engine.map(|e| e.color.name()))
                .bind(engine.map(|e| i64::from(e.level)))
                .bind(engine.map(|e| i64::from(e.movetime_ms)))
                .bind(g.white_token.map(|t| t.to_vec()))
                .bind(g.black_token.map(|t| t.to_vec()))
                .bind(g.join_code.map(|t| t.to_vec()))
                .bind(row.position.as_str())
                .bind(q::to_move_text(row))
                .bind(i64::from(row.move_count))
                .bind(row.to_move.is_none())
                .bind(i64::from(row.epoch))
                .bind(row.result.token())
                .bind(row.end_reason.map(|r| r.name()))
                .bind(g.rematch_of.as_deref())
                .bind(g.rematch_id.as_deref())
                .bind(g.pair.map(|p| p.name()))
                .bind(i64::from(row.hints[0]))
                .bind(i64::from(row.hints[1]))
                .bind(row.undo_offer.map(|u| u.by.name()))
                .bind(row.undo_offer.map(|u| i64::from(u.moves)))
                .bind(row.engine_owner.as_deref())
                .bind(g.version as i64)
                .bind(g.players[0].as_ref().map(|p| p.key.as_str()))
                .bind(g.players[1].as_ref().map(|p| p.key.as_str()))
                .bind(g.players[0].as_ref().map(|p| p.name.as_str()))
                .bind(g.players[1].as_ref().map(|p| p.name.as_str()))
                .bind(g.players[0].as_ref().and_then(|p| p.rating).map(i64::from))
                .bind(g.players[1].as_ref().and_then(|p| p.rating).map(i64::from))
                .bind(g.players[0].as_ref().is_some_and(|p| p.provisional))
                .bind(g.players[1].as_ref().is_some_and(|p| p.provisional))
                .bind(g.rated)
                .bind(q::clock_initial(g.clock))
                .bind(q::clock_increment(g.clock))
                .bind(q::clock_days(g.clock))
                .bind(g.clock.map(|c| c.remaining[0]))
                .bind(g.clock.map(|c| c.remaining[1]))
                .bind(g.clock.map(|c| c.turn_started_at))
                .bind(row.deadline)
                .bind(cap.map(|c| c.address.as_str()))
                .bind(cap.map_or(0, |c| c.active_since))
                .bind(cap.map_or(i64::MAX, |c| i64::from(c.most)))
                .bind(g.tournament.as_deref())
                .bind(g.players[0].as_ref().is_some_and(|p| p.bot))
                .bind(g.players[1].as_ref().is_some_and(|p| p.bot))
                .execute(&mut *conn)
                .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            if let Some(kept) = &row.kept {
                keep_positions(conn, &g.id, kept).await?;
            }
            for (ply, mv) in g.moves.iter().enumerate() {
                sqlx::query(q::INSERT_MOVE)
                    .bind(g.id.as_str())
                    .bind(ply as i64)
                    .bind(mv.to_string())
                    .bind(g.updated_at)
                    .execute(&mut *conn)
                    .await?;
            }
            Ok(true)
        }

        /// Statement `sql` (which begins with [`q::CHANGE_GAME`]'s placeholders) with the
        /// values of change `c` bound to `$1` to `$29`.
        fn bind_change<'q>(
            sql: &'static str,
            c: &'q RowChange,
        ) -> sqlx::query::Query<
            'q,
            <$conn as sqlx::Connection>::Database,
            <<$conn as sqlx::Connection>::Database as sqlx::Database>::Arguments,
        > {
            let r = &c.row;
            sqlx::query(sql)
                .bind(c.id.as_str())
                .bind(c.expect as i64)
                .bind(r.position.as_str())
                .bind(q::to_move_text(r))
                .bind(i64::from(r.move_count))
                .bind(r.to_move.is_none())
                .bind(i64::from(r.epoch))
                .bind(r.result.token())
                .bind(r.end_reason.map(|e| e.name()))
                .bind(r.updated_at)
                .bind(i64::from(r.hints[0]))
                .bind(i64::from(r.hints[1]))
                .bind(r.white_token.map(|t| t.to_vec()))
                .bind(r.black_token.map(|t| t.to_vec()))
                .bind(r.rematch_id.as_deref())
                .bind(r.undo_offer.map(|u| u.by.name()))
                .bind(r.undo_offer.map(|u| i64::from(u.moves)))
                .bind(r.engine_owner.as_deref())
                .bind(r.accounts[0].as_ref().map(|a| a.0.as_str()))
                .bind(r.accounts[0].as_ref().map(|a| a.1.as_str()))
                .bind(r.accounts[1].as_ref().map(|a| a.0.as_str()))
                .bind(r.accounts[1].as_ref().map(|a| a.1.as_str()))
                .bind(r.clock.map(|c| c.remaining[0]))
                .bind(r.clock.map(|c| c.remaining[1]))
                .bind(r.clock.map(|c| c.turn_started_at))
                .bind(r.deadline)
                .bind(r.draw_offer.map(|c| c.name()))
                .bind(r.draw_refused[0].map(i64::from))
                .bind(r.draw_refused[1].map(i64::from))
        }

        async fn change_game(conn: &mut $conn, c: &RowChange) -> Result<bool, StoreError> {
            let r = &c.row;
            let done = bind_change(q::CHANGE_GAME, c).execute(&mut *conn).await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            if let Some(kept) = &r.kept {
                keep_positions(conn, &c.id, kept).await?;
            }
            match &c.moves {
                MovesChange::None => {}
                MovesChange::Append { ply, mv } => {
                    sqlx::query(q::INSERT_MOVE)
                        .bind(c.id.as_str())
                        .bind(i64::from(*ply))
                        .bind(mv.to_string())
                        .bind(r.updated_at)
                        .execute(&mut *conn)
                        .await?;
                }
                MovesChange::Truncate { keep } => {
                    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                        .bind(c.id.as_str())
                        .bind(i64::from(*keep))
                        .execute(&mut *conn)
                        .await?;
                }
            }
            Ok(true)
        }

        /// Replaces the positions game `id` keeps from the engine (fair play, issue 51) with
        /// `kept`, in the caller's transaction: one statement to forget, one to store.
        async fn keep_positions(
            conn: &mut $conn,
            id: &str,
            kept: &[i64],
        ) -> Result<(), StoreError> {
            sqlx::query("DELETE FROM kept_positions WHERE game_id = $1")
                .bind(id)
                .execute(&mut *conn)
                .await?;
            if kept.is_empty() {
                return Ok(());
            }
            // Only placeholders are written into the text; the game and the keys are bound.
            let sql = q::insert_kept(kept.len());
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id);
            for k in kept {
                query = query.bind(*k);
            }
            query.execute(&mut *conn).await?;
            Ok(())
        }

        async fn load_game(conn: &mut $conn, id: &str) -> Result<Option<StoredGame>, StoreError> {
            let Some(row) = sqlx::query(q::LOAD_GAME)
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?
            else {
                return Ok(None);
            };
            let moves: String = row.try_get("moves")?;
            let moves = moves.split_whitespace().map(String::from).collect();
            Ok(Some(stored_game(&row, moves)?))
        }

        fn stored_game(row: &$row, moves: Vec<String>) -> Result<StoredGame, StoreError> {
            let id: String = row.try_get("id")?;
            let d = Decoder { id: &id };
            Ok(StoredGame {
                created_at: row.try_get("created_at")?,
                updated_at: row.try_get("updated_at")?,
                mode: d.mode(&row.try_get::<String, _>("mode")?)?,
                scoring: d.scoring(&row.try_get::<String, _>("scoring")?)?,
                seed: d.seed(row.try_get("seed")?)?,
                start: d.position(&row.try_get::<String, _>("start")?)?,
                engine: d.engine(
                    row.try_get("engine_color")?,
                    row.try_get("engine_level")?,
                    row.try_get("engine_movetime_ms")?,
                )?,
                white_token: d.token(row.try_get("white_token")?)?,
                black_token: d.token(row.try_get("black_token")?)?,
                join_code: d.token(row.try_get("join_code")?)?,
                epoch: d.count(row.try_get("epoch")?, "epoch")?,
                version: u64::from(d.count(row.try_get("version")?, "version")?),
                result: d.result(&row.try_get::<String, _>("result")?)?,
                end_reason: d.end_reason(row.try_get("end_reason")?)?,
                rematch_of: row.try_get("rematch_of")?,
                rematch_id: row.try_get("rematch_id")?,
                moves: d.moves(moves)?,
                hints: [
                    d.count(row.try_get("white_hints")?, "hints")?,
                    d.count(row.try_get("black_hints")?, "hints")?,
                ],
                pair: d.pair(row.try_get("pair_half")?)?,
                undo_offer: d.undo_offer(row.try_get("undo_by")?, row.try_get("undo_moves")?)?,
                draw_offer: d.maybe_side(row.try_get("draw_offer")?)?,
                draw_refused: [
                    d.plies(row.try_get("white_draw_declined")?)?,
                    d.plies(row.try_get("black_draw_declined")?)?,
                ],
                engine_owner: row.try_get("engine_owner")?,
                players: [
                    d.player(
                        row.try_get("white_account")?,
                        row.try_get("white_name")?,
                        row.try_get("white_rating")?,
                        row.try_get("white_provisional")?,
                        row.try_get("white_rating_diff")?,
                        row.try_get("white_bot")?,
                    )?,
                    d.player(
                        row.try_get("black_account")?,
                        row.try_get("black_name")?,
                        row.try_get("black_rating")?,
                        row.try_get("black_provisional")?,
                        row.try_get("black_rating_diff")?,
                        row.try_get("black_bot")?,
                    )?,
                ],
                rated: row.try_get("rated")?,
                clock: d.clock(
                    row.try_get("clock_initial_s")?,
                    row.try_get("clock_increment_s")?,
                    row.try_get("clock_days")?,
                    row.try_get("white_clock_ms")?,
                    row.try_get("black_clock_ms")?,
                    row.try_get("turn_started_at")?,
                )?,
                tournament: row.try_get("tournament")?,
                id,
            })
        }

        async fn game_version(conn: &mut $conn, id: &str) -> Result<Option<u64>, StoreError> {
            let row = sqlx::query("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?;
            Ok(row.map(|r| r.get::<i64, _>(0).max(0) as u64))
        }

        async fn list_games(
            conn: &mut $conn,
            filter: ListFilter,
            limit: u32,
        ) -> Result<Vec<GameRow>, StoreError> {
            let sql = match filter {
                ListFilter::Recent => q::LIST_RECENT,
                ListFilter::Live => q::LIST_LIVE,
                ListFilter::Finished => q::LIST_FINISHED,
            };
            let mut query = sqlx::query(sql).bind(i64::from(limit));
            if filter == ListFilter::Live {
                let now = $crate::model::now_ms();
                query = query
                    .bind(now - $crate::store::LIVE_IDLE_MS)
                    .bind(now - $crate::store::ENGINE_UNSTARTED_MS);
            }
            let rows = query.fetch_all(&mut *conn).await?;
            rows.iter()
                .map(|r| {
                    let id: String = r.try_get("id")?;
                    let d = Decoder { id: &id };
                    let to_move: Option<String> = r.try_get("to_move")?;
                    Ok(GameRow {
                        mode: d.mode(&r.try_get::<String, _>("mode")?)?,
                        scoring: d.scoring(&r.try_get::<String, _>("scoring")?)?,
                        engine_level: r
                            .try_get::<Option<i64>, _>("engine_level")?
                            .and_then(|l| u8::try_from(l).ok()),
                        position: r.try_get("position")?,
                        to_move: to_move.map(|s| d.side(&s)).transpose()?,
                        move_count: d.count(r.try_get("move_count")?, "move count")?,
                        result: d.result(&r.try_get::<String, _>("result")?)?,
                        end_reason: d.end_reason(r.try_get("end_reason")?)?,
                        created_at: r.try_get("created_at")?,
                        updated_at: r.try_get("updated_at")?,
                        players: [
                            d.player(
                                r.try_get("white_account")?,
                                r.try_get("white_name")?,
                                r.try_get("white_rating")?,
                                r.try_get("white_provisional")?,
                                None,
                                r.try_get("white_bot")?,
                            )?,
                            d.player(
                                r.try_get("black_account")?,
                                r.try_get("black_name")?,
                                r.try_get("black_rating")?,
                                r.try_get("black_provisional")?,
                                None,
                                r.try_get("black_bot")?,
                            )?,
                        ],
                        rated: r.try_get("rated")?,
                        time_control: d.time_control(
                            r.try_get("clock_initial_s")?,
                            r.try_get("clock_increment_s")?,
                            r.try_get("clock_days")?,
                        )?,
                        id,
                    })
                })
                .collect()
        }

        async fn engine_orphans(
            conn: &mut $conn,
            alive_since: i64,
            limit: u32,
        ) -> Result<Vec<Orphan>, StoreError> {
            let rows = sqlx::query(q::ENGINE_ORPHANS)
                .bind(alive_since)
                .bind(i64::from(limit))
                .fetch_all(&mut *conn)
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(Orphan {
                        id: r.try_get(0)?,
                        owner: r.try_get(1)?,
                    })
                })
                .collect()
        }

        async fn claim_engine(
            conn: &mut $conn,
            orphan: &Orphan,
            me: &str,
        ) -> Result<bool, StoreError> {
            let done = sqlx::query(q::CLAIM_ENGINE)
                .bind(me)
                .bind(orphan.id.as_str())
                .bind(orphan.owner.as_deref())
                .execute(&mut *conn)
                .await?;
            Ok(done.rows_affected() == 1)
        }

        async fn heartbeat(
            conn: &mut $conn,
            me: &str,
            started: i64,
            now: i64,
            dead_before: i64,
        ) -> Result<(), StoreError> {
            sqlx::query(q::HEARTBEAT)
                .bind(me)
                .bind(started)
                .bind(now)
                .execute(&mut *conn)
                .await?;
            sqlx::query(
                "DELETE FROM presence WHERE instance IN \
                 (SELECT id FROM instances WHERE heartbeat_at < $1)",
            )
            .bind(dead_before)
            .execute(&mut *conn)
            .await?;
            sqlx::query("DELETE FROM instances WHERE heartbeat_at < $1")
                .bind(dead_before)
                .execute(&mut *conn)
                .await?;
            Ok(())
        }

        async fn leave(conn: &mut $conn, me: &str) -> Result<(), StoreError> {
            sqlx::query("DELETE FROM presence WHERE instance = $1")
                .bind(me)
                .execute(&mut *conn)
                .await?;
            sqlx::query("DELETE FROM instances WHERE id = $1")
                .bind(me)
                .execute(&mut *conn)
                .await?;
            sqlx::query("UPDATE games SET engine_owner = NULL WHERE engine_owner = $1")
                .bind(me)
                .execute(&mut *conn)
                .await?;
            Ok(())
        }

        async fn set_presence(
            conn: &mut $conn,
            me: &str,
            id: &str,
            mine: Option<PresenceCounts>,
        ) -> Result<(), StoreError> {
            match mine {
                None => {}
                Some(p) if p != PresenceCounts::default() => {
                    sqlx::query(q::SET_PRESENCE)
                        .bind(me)
                        .bind(id)
                        .bind(i64::from(p.white))
                        .bind(i64::from(p.black))
                        .bind(i64::from(p.spectators))
                        .execute(&mut *conn)
                        .await?;
                }
                Some(_) => {
                    sqlx::query("DELETE FROM presence WHERE instance = $1 AND game_id = $2")
                        .bind(me)
                        .bind(id)
                        .execute(&mut *conn)
                        .await?;
                }
            }
            Ok(())
        }

        async fn presence_totals(
            conn: &mut $conn,
            id: &str,
            alive_since: i64,
        ) -> Result<PresenceCounts, StoreError> {
            let row = sqlx::query(q::PRESENCE_TOTALS)
                .bind(id)
                .bind(alive_since)
                .fetch_one(&mut *conn)
                .await?;
            let n = |i: usize| -> Result<u32, StoreError> {
                Ok(u32::try_from(row.try_get::<i64, _>(i)?).unwrap_or(0))
            };
            Ok(PresenceCounts {
                white: n(0)?,
                black: n(1)?,
                spectators: n(2)?,
            })
        }
    };
}

pub(super) use queries;
