//! How a game becomes its public state (with move previews), and the query parameters of
//! `/api/games`. The JSON shapes themselves are the crate `mabula-api`'s ([`mabula_api::view`]),
//! shared with the clients; they are re-exported here, where the server has always named them.
//! `docs/api.md` describes the same shapes for people; the OpenAPI document is generated from
//! these types.

use crate::model::{LiveGame, PairHalf, Seats};
use crate::store::{GameRow, PresenceCounts};
use mabula::{Bitboard, Color, GameResult, Move, Position, Scoring, Square};
use serde::Deserialize;
use utoipa::IntoParams;

pub use mabula_api::view::{
    AllScores, ClockView, ColorChoice, CreateGame, Empty, GameList, GameState, GameSummary,
    GroupsView, Health, HintCounts, ImportRequest, JoinRequest, LegalMoveView, MoveRequest,
    MoveView, PairPoints, PairView, PlayerView, PlayersView, ResignRequest, ScoresView, SeatGrant,
    SeatKind, SeatView, SeatsView, SeedInput, SettingsView,
};

/// The pair view of `g`, the second game of a pair.
fn pair_view(g: &LiveGame) -> Option<PairView> {
    if g.pair != Some(PairHalf::Second) {
        return None;
    }
    let first = g.pair_first?;
    let second = g.game.result();
    let complete = second != GameResult::Unfinished && first != GameResult::Unfinished;
    // White's points of a result, and Black's.
    let points = |r: GameResult| match r {
        GameResult::WhiteWins => (1.0, 0.0),
        GameResult::BlackWins => (0.0, 1.0),
        GameResult::Draw => (0.5, 0.5),
        GameResult::Unfinished => (0.0, 0.0),
    };
    let (w1, b1) = points(first);
    let (w2, b2) = points(second);
    Some(PairView {
        first: g.rematch_of.clone()?,
        second: g.id.clone(),
        results: [first.token().to_string(), second.token().to_string()],
        complete,
        points: complete.then_some(PairPoints {
            white_then_black: w1 + b2,
            black_then_white: b1 + w2,
        }),
    })
}

/// Query of `GET /api/games`.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// `recent` (default), `live` or `finished`.
    pub filter: Option<String>,
    /// 1 to 100, default 20.
    pub limit: Option<u32>,
}

/// Query of `GET /api/games/{id}/record`.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    /// `1` to answer as a file download.
    pub download: Option<String>,
}

/// `[from, to]` of every marble that `mv` moves from `pos` to `after`, the pusher first.
pub fn slides(pos: &Position, mv: Move, after: &Position) -> Vec<[Square; 2]> {
    let (Some(from), Some(line)) = (mv.from(), mv.line()) else {
        return Vec::new();
    };
    let path = std::iter::once(from).chain(line);
    let before_at = path.clone().filter(|&s| pos.color_at(s).is_some());
    let after_at = path.filter(|&s| after.color_at(s).is_some());
    before_at
        .zip(after_at)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| [a, b])
        .collect()
}

fn squares(bb: Bitboard) -> Vec<Square> {
    bb.collect()
}

fn groups(pos: &Position, color: Color) -> Vec<Vec<Square>> {
    let mut gs: Vec<Bitboard> = pos.groups(color).collect();
    gs.sort_by_key(|g| std::cmp::Reverse(g.count()));
    gs.into_iter().map(squares).collect()
}

fn scores(pos: &Position, scoring: Scoring) -> ScoresView {
    let s = pos.scores(scoring);
    ScoresView {
        white: s.white,
        black: s.black,
    }
}

/// The view of move `index` (0-based) of `game`, played from `before`.
pub fn move_view(game: &mabula::Game, index: usize, before: &Position) -> MoveView {
    let mv = game.moves()[index];
    let mut after = *before;
    after.play_unchecked(mv);
    MoveView {
        number: index as u32 + 1,
        record_number: game.move_number(index),
        side: before.side_to_move(),
        notation: mv.to_string(),
        from: mv.from(),
        to: mv.to(),
        slides: slides(before, mv, &after),
        position: after,
    }
}

/// The move list of a game.
pub fn move_views(game: &mabula::Game) -> Vec<MoveView> {
    let mut pos = *game.start();
    let mut out = Vec::with_capacity(game.moves().len());
    for (i, &mv) in game.moves().iter().enumerate() {
        out.push(move_view(game, i, &pos));
        pos.play_unchecked(mv);
    }
    out
}

/// A list entry of a stored game.
pub fn summary(r: GameRow) -> GameSummary {
    let finished = r.result != GameResult::Unfinished || r.to_move.is_none();
    GameSummary {
        id: r.id,
        mode: r.mode,
        scoring: r.scoring.name().to_string(),
        engine_level: r.engine_level,
        status: if finished { "finished" } else { "playing" }.to_string(),
        result: r.result.token().to_string(),
        end_reason: r.end_reason,
        move_count: r.move_count,
        to_move: r.to_move,
        position: r.position,
        created_at: r.created_at,
        updated_at: r.updated_at,
        players: PlayersView {
            white: r.players[0].as_ref().map(player_view),
            black: r.players[1].as_ref().map(player_view),
        },
        rated: r.rated,
        time_control: r.time_control.map(|c| c.label()),
    }
}

/// The move views of a game, kept between answers and extended move by move.
#[derive(Clone, Debug, Default)]
pub struct MoveCache {
    /// The epoch the views belong to.
    epoch: u32,
    /// The views, move 1 first.
    views: Vec<MoveView>,
}

impl MoveCache {
    /// The views of every move of `g`, updated at the least cost.
    pub fn get(&mut self, g: &LiveGame) -> &[MoveView] {
        let n = g.game.moves().len();
        if self.epoch != g.epoch || self.views.len() > n {
            self.views = move_views(&g.game);
            self.epoch = g.epoch;
        } else if self.views.len() < n {
            for i in self.views.len()..n {
                let before = g.game.position_after(i);
                self.views.push(move_view(&g.game, i, &before));
            }
        }
        &self.views
    }
}

/// The legal moves of `pos` in notation order, each with the marbles it moves and the position
/// after it; none once the game is `finished`.
pub fn legal_move_views(pos: &Position, finished: bool) -> Vec<LegalMoveView> {
    if finished {
        return Vec::new();
    }
    let mut legal = pos.legal_moves().to_vec();
    legal.sort();
    legal
        .into_iter()
        .map(|mv| {
            let mut after = *pos;
            after.play_unchecked(mv);
            LegalMoveView {
                notation: mv.to_string(),
                from: mv.from(),
                to: mv.to(),
                slides: slides(pos, mv, &after),
                position: after,
            }
        })
        .collect()
}

/// Who holds the seats of `g` and whether they are connected.
pub fn seats_view(g: &LiveGame, presence: PresenceCounts) -> SeatsView {
    let seat = |color: Color| {
        if g.is_engine(color) {
            SeatView {
                kind: SeatKind::Engine,
                claimed: true,
                connected: true,
            }
        } else {
            let count = match color {
                Color::White => presence.white,
                Color::Black => presence.black,
            };
            SeatView {
                kind: SeatKind::Person,
                claimed: g.token_of(color).is_some() || g.player(color).is_some(),
                connected: count > 0,
            }
        }
    };
    SeatsView {
        white: seat(Color::White),
        black: seat(Color::Black),
    }
}

/// The public state of `g` with its move list `moves`, the connection counts `presence`, for a
/// holder of `you`.
pub fn game_state(
    g: &LiveGame,
    moves: Vec<MoveView>,
    presence: PresenceCounts,
    engine_thinking: bool,
    you: Option<Seats>,
    now: i64,
) -> GameState {
    let game = &g.game;
    let pos = game.position();
    let finished = g.is_over();
    let legal_moves = legal_move_views(pos, finished);
    let result = game.result();
    GameState {
        id: g.id.clone(),
        created_at: g.created_at,
        updated_at: g.updated_at,
        version: g.version,
        settings: SettingsView {
            mode: g.mode,
            scoring: game.scoring().name().to_string(),
            seed: g.seed.map(|s| s.to_string()),
            engine: g.engine,
            duplicate: g.pair.is_some(),
            pair_half: g.pair,
            tournament: g.tournament.clone(),
        },
        start: *game.start(),
        position: *pos,
        epoch: g.epoch,
        moves,
        status: if finished { "finished" } else { "playing" }.to_string(),
        to_move: g.to_move(),
        must_pass: !finished && pos.legal_moves().as_slice() == [Move::PASS],
        legal_moves,
        scores: AllScores {
            largest: scores(pos, Scoring::Largest),
            product: scores(pos, Scoring::Product),
        },
        groups: GroupsView {
            white: groups(pos, Color::White),
            black: groups(pos, Color::Black),
        },
        result: result.token().to_string(),
        winner: match result {
            mabula::GameResult::WhiteWins => Some(Color::White),
            mabula::GameResult::BlackWins => Some(Color::Black),
            _ => None,
        },
        end_reason: if finished { g.end_reason } else { None },
        seats: seats_view(g, presence),
        spectators: presence.spectators,
        engine_thinking,
        undo_offer: g.undo_offer,
        draw_offer: g.draw_offer.filter(|_| !finished),
        hints: HintCounts {
            white: g.hints[0],
            black: g.hints[1],
        },
        rematch: g.rematch_id.clone(),
        pair: pair_view(g),
        players: PlayersView {
            white: g.player(Color::White).map(player_view),
            black: g.player(Color::Black).map(player_view),
        },
        rated: g.rated,
        clock: clock_view(g, now),
        you: you.map(Seats::sides),
    }
}

fn player_view(p: &crate::model::Player) -> PlayerView {
    PlayerView {
        name: p.name.clone(),
        rating: p.rating,
        provisional: p.provisional,
        rating_diff: p.diff,
        bot: p.bot,
        accuracy: None,
    }
}

/// The clock of `g` at `now`.
pub fn clock_view(g: &LiveGame, now: i64) -> Option<ClockView> {
    let c = g.clock.as_ref()?;
    let turn = g.to_move();
    let moves = g.game.moves().len();
    Some(ClockView {
        control: c.control,
        label: c.control.label(),
        white_ms: c.left_at(Color::White, turn, moves, now),
        black_ms: c.left_at(Color::Black, turn, moves, now),
        running: turn.filter(|_| moves >= 2),
        deadline: g.deadline().map(|(at, _)| at),
        now,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests_support::local_game;

    #[test]
    fn a_pair_adds_up_wins_and_draws_per_person_once_both_games_are_over() {
        let mut g = local_game();
        g.pair = Some(PairHalf::Second);
        g.pair_first = Some(GameResult::Draw);
        g.rematch_of = Some("firstgame0".into());
        let playing = pair_view(&g).expect("the second game of a pair");
        assert_eq!((playing.complete, playing.points), (false, None));
        assert_eq!(playing.results, ["1/2-1/2".to_string(), "*".to_string()]);
        // White resigns the second game: who played Black in it (White in the first) wins it.
        g.resign(Color::White, 1);
        let done = pair_view(&g).expect("the second game of a pair");
        assert_eq!(
            done.points,
            Some(PairPoints {
                white_then_black: 1.5,
                black_then_white: 0.5,
            })
        );
        g.pair = Some(PairHalf::First);
        assert_eq!(pair_view(&g), None, "only the second game carries the pair");
    }

    #[test]
    fn slides_list_the_pusher_first_and_every_pushed_marble() {
        // The b-file: white on b1, black on b3.
        let pos: Position = "8/8/8/8/8/1b6/8/1w6 w".parse().expect("position");
        let slides_of = |text: &str| {
            let mv: Move = text.parse().expect("move");
            slides(&pos, mv, &pos.play(mv).expect("legal"))
        };
        let pair = |a: &str, b: &str| {
            [
                a.parse::<Square>().expect("square"),
                b.parse().expect("square"),
            ]
        };
        assert_eq!(slides_of("b1-b3"), vec![pair("b1", "b3"), pair("b3", "b4")]);
        assert_eq!(slides_of("b1-b2"), vec![pair("b1", "b2")]);
    }

    #[test]
    fn a_pass_slides_nothing() {
        let pos = mabula::deal::random(1, Color::White);
        assert!(slides(&pos, Move::PASS, &pos).is_empty());
    }

    #[test]
    fn the_move_cache_follows_moves_and_undos() {
        let mut g = crate::model::tests_support::local_game();
        let mut cache = MoveCache::default();
        for _ in 0..4 {
            let mv = g.game.position().legal_moves()[0];
            g.apply_move(mv, 1).expect("legal");
            assert_eq!(cache.get(&g), &move_views(&g.game)[..]);
        }
        g.take_back(2, 2);
        assert_eq!(cache.get(&g), &move_views(&g.game)[..]);
        assert_eq!(cache.get(&g).len(), 2);
    }
}
