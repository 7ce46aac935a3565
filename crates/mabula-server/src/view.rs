//! The JSON shapes of the API (requests and answers; the WebSocket's messages, in
//! [`protocol`](crate::protocol), carry these) and how a game becomes its public state.
//! `docs/api.md` describes the same shapes for people; the OpenAPI document is generated from
//! these types.

use crate::model::{
    EndReason, EngineSettings, LiveGame, Mode, PairHalf, Seats, SideSchema, TimeControl, UndoOffer,
};
use crate::store::{GameRow, PresenceCounts};
use mabula::{Bitboard, Color, GameResult, Move, Position, Scoring, Square};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The public state of a game (`docs/api.md`, section 3).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameState {
    /// Game id.
    pub id: String,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// The game's settings.
    pub settings: SettingsView,
    /// The starting position string.
    #[schema(value_type = String)]
    pub start: Position,
    /// The current position string.
    #[schema(value_type = String)]
    pub position: Position,
    /// How many times moves were taken back.
    pub epoch: u32,
    /// Every move so far.
    pub moves: Vec<MoveView>,
    /// `playing` or `finished`.
    pub status: String,
    /// The side to move; `null` when finished.
    #[schema(value_type = Option<SideSchema>)]
    pub to_move: Option<Color>,
    /// The side to move can only pass.
    pub must_pass: bool,
    /// Every legal move with the position after it.
    pub legal_moves: Vec<LegalMoveView>,
    /// Both scores under both modes.
    pub scores: AllScores,
    /// Each colour's groups, largest first.
    pub groups: GroupsView,
    /// `*`, `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The winner, if any.
    #[schema(value_type = Option<SideSchema>)]
    pub winner: Option<Color>,
    /// Why the game ended.
    pub end_reason: Option<EndReason>,
    /// Who holds the seats and who is connected.
    pub seats: SeatsView,
    /// Open WebSockets without a token.
    pub spectators: u32,
    /// The engine is computing or queued.
    pub engine_thinking: bool,
    /// A pending undo request.
    pub undo_offer: Option<UndoOffer>,
    /// Hints asked for by each side (games against the engine).
    pub hints: HintCounts,
    /// The rematch game's id.
    pub rematch: Option<String>,
    /// The duplicate pair this game ends (its second game only; `null` otherwise).
    pub pair: Option<PairView>,
    /// The players with accounts in each seat (`null`: a guest, or the engine).
    pub players: PlayersView,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The clock, in timed games.
    pub clock: Option<ClockView>,
    /// The seats of the request's token (HTTP answers and `sync` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<SideSchema>>)]
    pub you: Option<Vec<Color>>,
}

/// A player with an account, as a game shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerView {
    /// The account's name.
    pub name: String,
    /// The rating when the game began (rated games).
    pub rating: Option<i32>,
    /// Whether that rating was provisional.
    pub provisional: bool,
    /// How much the game moved the rating, once the game is rated.
    pub rating_diff: Option<i32>,
}

/// The players of both seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayersView {
    /// White's player.
    pub white: Option<PlayerView>,
    /// Black's player.
    pub black: Option<PlayerView>,
}

/// A game's clock when the state was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    /// The time control.
    pub control: TimeControl,
    /// `3+2`, `2 days`.
    pub label: String,
    /// White's time left (ms), counted down to when the state was made.
    pub white_ms: i64,
    /// Black's time left (ms).
    pub black_ms: i64,
    /// The side whose time runs (`null` before the clocks start, and once the game is over).
    #[schema(value_type = Option<SideSchema>)]
    pub running: Option<Color>,
    /// When the side to move runs out of time or, for the first two moves, when the game is
    /// aborted if no move comes (ms since the epoch).
    pub deadline: Option<i64>,
    /// When the state was made (ms since the epoch), to count down from.
    pub now: i64,
}

/// The settings part of the state.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SettingsView {
    /// `engine`, `friend` or `local`.
    pub mode: Mode,
    /// `largest` or `product`.
    pub scoring: String,
    /// The deal's seed in decimal, or `null`.
    pub seed: Option<String>,
    /// The engine's seat, in engine games.
    pub engine: Option<EngineSettings>,
    /// The game is part of a duplicate pair.
    pub duplicate: bool,
    /// Which game of the pair: `first` or `second`; `null` outside a pair.
    pub pair_half: Option<PairHalf>,
}

/// The combined result of a duplicate pair, in the state of its second game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PairView {
    /// The first game's id.
    pub first: String,
    /// The second game's id (this game).
    pub second: String,
    /// The result tokens of the first and the second game.
    pub results: [String; 2],
    /// Both games are over.
    pub complete: bool,
    /// Points over both games (win 1, draw ½) of each person, named by the colours they played;
    /// `null` until both games are over.
    pub points: Option<PairPoints>,
}

/// The points of the two people of a duplicate pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PairPoints {
    /// Who played White in the first game and Black in the second.
    pub white_then_black: f64,
    /// Who played Black in the first game and White in the second.
    pub black_then_white: f64,
}

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

/// A move played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveView {
    /// 1, 2, 3, …
    pub number: u32,
    /// `3.` or `3...`.
    pub record_number: String,
    /// Who made it.
    #[schema(value_type = SideSchema)]
    pub side: Color,
    /// `b1-b4` or `pass`.
    pub notation: String,
    /// The edge space left; `null` for a pass.
    pub from: Option<String>,
    /// The field square reached; `null` for a pass.
    pub to: Option<String>,
    /// `[from, to]` of every marble that moved, the pusher first.
    pub slides: Vec<[String; 2]>,
    /// The position after the move.
    #[schema(value_type = String)]
    pub position: Position,
}

/// Hints asked for by each side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HintCounts {
    /// White's.
    pub white: u32,
    /// Black's.
    pub black: u32,
}

/// A legal move and its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LegalMoveView {
    /// `b1-b4` or `pass`.
    pub notation: String,
    /// The edge space left; `null` for a pass.
    pub from: Option<String>,
    /// The field square reached; `null` for a pass.
    pub to: Option<String>,
    /// `[from, to]` of every marble that would move, the pusher first.
    pub slides: Vec<[String; 2]>,
    /// The position after the move.
    #[schema(value_type = String)]
    pub position: Position,
}

/// Scores of both sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ScoresView {
    /// White's score.
    pub white: u32,
    /// Black's score.
    pub black: u32,
}

/// Scores under both modes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AllScores {
    /// Largest group.
    pub largest: ScoresView,
    /// Product of the groups.
    pub product: ScoresView,
}

/// Groups of both colours.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GroupsView {
    /// White's groups, largest first.
    pub white: Vec<Vec<String>>,
    /// Black's groups, largest first.
    pub black: Vec<Vec<String>>,
}

/// One seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    /// `person` or `engine`.
    pub kind: SeatKind,
    /// A person holds the seat.
    pub claimed: bool,
    /// A WebSocket with this seat's token is open (always true for the engine).
    pub connected: bool,
}

/// Who sits in a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person with a token.
    Person,
    /// The engine.
    Engine,
}

/// Both seats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatsView {
    /// White's seat.
    pub white: SeatView,
    /// Black's seat.
    pub black: SeatView,
}

/// A game in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// `engine`, `friend` or `local`.
    pub mode: Mode,
    /// `largest` or `product`.
    pub scoring: String,
    /// The engine's level in engine games.
    pub engine_level: Option<u8>,
    /// `playing` or `finished`.
    pub status: String,
    /// Result token.
    pub result: String,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// Number of moves.
    pub move_count: u32,
    /// Side to move, `null` when finished.
    #[schema(value_type = Option<SideSchema>)]
    pub to_move: Option<Color>,
    /// Current position string.
    pub position: String,
    /// Creation time (ms).
    pub created_at: i64,
    /// Last change (ms).
    pub updated_at: i64,
}

/// The answer of `GET /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    /// The games, newest activity first.
    pub games: Vec<GameSummary>,
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

/// A seat grant: the answer that hands out a token (create, join, rematch, import).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatGrant {
    /// The game.
    pub game_id: String,
    /// The secret seat token, shown only here.
    pub token: String,
    /// The seats it holds.
    #[schema(value_type = Vec<SideSchema>)]
    pub seats: Vec<Color>,
    /// The friend's join code (friend games, creator only).
    pub join_code: Option<String>,
    /// The link to send to the friend.
    pub join_path: Option<String>,
    /// The public link to watch the game.
    pub watch_path: String,
    /// The game state.
    pub state: GameState,
}

/// A seed: a decimal string, or a JSON number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum SeedInput {
    /// A JSON number.
    Number(u64),
    /// A decimal string.
    Text(String),
}

/// `random`, or a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn by lot.
    Random,
}

/// Request of `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// `engine`, `friend` or `local`.
    pub mode: Mode,
    /// `largest` (default) or `product`.
    pub scoring: Option<String>,
    /// Who moves first (default white); not with `setup`.
    pub first: Option<ColorChoice>,
    /// The deal's seed; not with `setup`.
    pub seed: Option<SeedInput>,
    /// A starting position string instead of a deal.
    pub setup: Option<String>,
    /// The creator's colour (engine and friend games; default white).
    pub color: Option<ColorChoice>,
    /// The engine's level, 1 to 10 (default 3).
    pub engine_level: Option<u8>,
    /// The engine's thinking time per move, 10 to 10000 ms.
    pub engine_movetime_ms: Option<u32>,
    /// The first game of a duplicate pair: its rematch replays the same start with the colours
    /// swapped (default false).
    pub duplicate: Option<bool>,
}

impl CreateGame {
    /// A request with every optional field left out.
    pub fn new(mode: Mode) -> CreateGame {
        CreateGame {
            mode,
            scoring: None,
            first: None,
            seed: None,
            setup: None,
            color: None,
            engine_level: None,
            engine_movetime_ms: None,
            duplicate: None,
        }
    }
}

/// Request of `POST /api/games/{id}/moves`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move, `b1-b4` or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The number this move will get; refused with `stale_state` if the game moved on.
    pub number: Option<u32>,
}

/// Request of `POST /api/games/{id}/resign`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// The side that resigns (local games; default: the side to move).
    #[schema(value_type = Option<SideSchema>)]
    pub side: Option<Color>,
}

/// An empty request body (`{}` or nothing).
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Request of `POST /api/games/{id}/join`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The join code.
    pub code: String,
}

/// Request of `POST /api/games/import`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The game record text.
    pub record: String,
}

/// The answer of `GET /healthz`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: String,
}

/// `[from, to]` of every marble that `mv` moves from `pos` to `after`, the pusher first.
pub fn slides(pos: &Position, mv: Move, after: &Position) -> Vec<[String; 2]> {
    let (Some(from), Some(line)) = (mv.from(), mv.line()) else {
        return Vec::new();
    };
    let path: Vec<Square> = std::iter::once(from).chain(line).collect();
    let before_at: Vec<Square> = path
        .iter()
        .copied()
        .filter(|&s| pos.color_at(s).is_some())
        .collect();
    let after_at: Vec<Square> = path
        .iter()
        .copied()
        .filter(|&s| after.color_at(s).is_some())
        .collect();
    before_at
        .iter()
        .zip(&after_at)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| [a.to_string(), b.to_string()])
        .collect()
}

fn squares(bb: Bitboard) -> Vec<String> {
    bb.map(|s| s.to_string()).collect()
}

fn groups(pos: &Position, color: Color) -> Vec<Vec<String>> {
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
        from: mv.from().map(|s| s.to_string()),
        to: mv.to().map(|s| s.to_string()),
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
                from: mv.from().map(|s| s.to_string()),
                to: mv.to().map(|s| s.to_string()),
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
        settings: SettingsView {
            mode: g.mode,
            scoring: game.scoring().name().to_string(),
            seed: g.seed.map(|s| s.to_string()),
            engine: g.engine,
            duplicate: g.pair.is_some(),
            pair_half: g.pair,
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
        let pair = |a: &str, b: &str| [a.to_string(), b.to_string()];
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
