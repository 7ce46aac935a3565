//! Every main shape reads back what it writes, and what the server writes on a game's socket
//! (the borrowed `ServerMessage`) reads as the client's `OwnedServerMessage`.

use mabula::{Color, Position, Square};
use mabula_api::analysis::{
    Counts, GameAnalysis, HintAnswer, LineView, NoteView, PositionAnalysis, SideCounts, ValueView,
    VerdictView,
};
use mabula_api::clock::{Speed, TimeControl};
use mabula_api::error::{ErrorBody, ErrorCode};
use mabula_api::game::{EndReason, EngineSettings, Mode, PairHalf, UndoOffer};
use mabula_api::lobby::{LobbyMessage, OwnedLobbyMessage, SeekRequest, SeekView};
use mabula_api::players::{PlayerGame, Profile, RatingView, Record3, ResultsView};
use mabula_api::protocol::{ClientMessage, OwnedServerMessage, ServerMessage};
use mabula_api::social::{ChatLine, ChatRoom};
use mabula_api::view::{
    AllScores, ClockView, CreateGame, GameState, GroupsView, HintCounts, LegalMoveView, MoveView,
    PairPoints, PairView, PlayerView, PlayersView, ScoresView, SeatGrant, SeatKind, SeatView,
    SeatsView, SeedInput, SettingsView,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

const START: &str = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w";
const AFTER: &str = "1wbwbww1/b6b/b6w/w6b/bw5w/w6b/b6w/2bwbwb1 b";

fn position(text: &str) -> Position {
    text.parse().expect("a position string")
}

/// Writes `value`, reads it back, and checks that nothing changed.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) -> String {
    let text = serde_json::to_string(value).expect("serializable");
    let back: T = serde_json::from_str(&text).expect("reads back");
    assert_eq!(&back, value, "{text}");
    text
}

fn a_move() -> MoveView {
    MoveView {
        number: 1,
        record_number: "1.".into(),
        side: Color::White,
        notation: "b1-b4".into(),
        from: Some(Square::B1),
        to: Some(Square::B4),
        slides: vec![[Square::B1, Square::B4]],
        position: position(AFTER),
    }
}

/// A state with every optional part present.
fn a_state() -> GameState {
    let seat = |kind| SeatView {
        kind,
        claimed: true,
        connected: false,
    };
    let player = |name: &str| PlayerView {
        name: name.into(),
        rating: Some(1500),
        provisional: true,
        rating_diff: Some(-7),
        bot: false,
        accuracy: None,
    };
    GameState {
        id: "k7w2q9xm4d".into(),
        created_at: 1_767_225_600_000,
        updated_at: 1_767_225_612_345,
        version: 3,
        settings: SettingsView {
            mode: Mode::Engine,
            scoring: "largest".into(),
            seed: Some("42".into()),
            engine: Some(EngineSettings {
                color: Color::Black,
                level: 3,
                movetime_ms: 1000,
            }),
            duplicate: true,
            pair_half: Some(PairHalf::Second),
            tournament: None,
        },
        start: position(START),
        position: position(AFTER),
        epoch: 2,
        moves: vec![a_move()],
        status: "finished".into(),
        to_move: None,
        must_pass: false,
        legal_moves: vec![LegalMoveView {
            notation: "pass".into(),
            from: None,
            to: None,
            slides: vec![],
            position: position(AFTER),
        }],
        scores: AllScores {
            largest: ScoresView { white: 1, black: 0 },
            product: ScoresView { white: 1, black: 0 },
        },
        groups: GroupsView {
            white: vec![vec![Square::B4]],
            black: vec![],
        },
        result: "0-1".into(),
        winner: Some(Color::Black),
        end_reason: Some(EndReason::TimeoutWhite),
        seats: SeatsView {
            white: seat(SeatKind::Person),
            black: seat(SeatKind::Engine),
        },
        spectators: 3,
        engine_thinking: false,
        undo_offer: Some(UndoOffer {
            by: Color::White,
            moves: 2,
        }),
        draw_offer: Some(Color::Black),
        hints: HintCounts { white: 1, black: 0 },
        rematch: Some("m3rq8v2zpa".into()),
        pair: Some(PairView {
            first: "a1b2c3d4e5".into(),
            second: "k7w2q9xm4d".into(),
            results: ["1-0".into(), "0-1".into()],
            complete: true,
            points: Some(PairPoints {
                white_then_black: 2.0,
                black_then_white: 0.0,
            }),
        }),
        players: PlayersView {
            white: Some(player("ada")),
            black: None,
        },
        rated: true,
        clock: Some(ClockView {
            control: TimeControl::Clock {
                initial_s: 180,
                increment_s: 2,
            },
            label: "3+2".into(),
            white_ms: 0,
            black_ms: 95_000,
            running: None,
            deadline: None,
            now: 1_767_225_612_345,
        }),
        you: Some(vec![Color::White]),
    }
}

fn an_analysis() -> PositionAnalysis {
    let value = ValueView {
        expected: 1.0,
        exact: true,
        result: Some(1),
        margin: Some(2),
        text: "wins by 2".into(),
    };
    PositionAnalysis {
        position: position(START),
        scoring: "largest".into(),
        to_move: Color::White,
        white: 1.0,
        verdict: Some(VerdictView {
            winner: Some(Color::White),
            white_margin: 2,
            text: "White wins by 2 with best play".into(),
        }),
        moves: vec![LineView {
            mv: "b1-b4".into(),
            value,
            visits: 1234,
            pv: vec!["b1-b4".into(), "pass".into()],
        }],
        playouts: 5000,
        elapsed_ms: 250,
        step: 3,
        done: true,
        cached: false,
    }
}

#[test]
fn a_game_state_with_every_part_reads_back_the_same() {
    let text = round_trip(&a_state());
    assert!(text.contains(r#""end_reason":"timeout_white""#), "{text}");
    // `you` is left out, not written as null, when the answer has no token.
    let state = GameState {
        you: None,
        ..a_state()
    };
    assert!(!round_trip(&state).contains(r#""you""#));
}

#[test]
fn requests_and_grants_read_back_the_same() {
    let create = CreateGame {
        seed: Some(SeedInput::Number(7)),
        setup: Some(START.into()),
        ..CreateGame::new(Mode::Friend)
    };
    round_trip(&create);
    round_trip(&SeedInput::Text("42".into()));
    round_trip(&SeatGrant {
        game_id: "k7w2q9xm4d".into(),
        token: "secret".into(),
        seats: vec![Color::White, Color::Black],
        join_code: None,
        join_path: Some("/join/k7w2q9xm4d".into()),
        watch_path: "/game/k7w2q9xm4d".into(),
        state: a_state(),
    });
    round_trip(&HintAnswer {
        state: a_state(),
        analysis: an_analysis(),
    });
    round_trip(&ErrorBody::new(ErrorCode::IllegalMove, "illegal move"));
    round_trip(&ErrorBody {
        rule: Some(mabula_api::error::Rule::PasswordCommon),
        ..ErrorBody::new(ErrorCode::InvalidAccount, "common")
    });
}

#[test]
fn analyses_read_back_the_same() {
    round_trip(&an_analysis());
    let value = an_analysis().moves[0].value.clone();
    round_trip(&GameAnalysis {
        scoring: "product".into(),
        values: vec![0.5, 0.75],
        margins: vec![None, Some(3)],
        notes: vec![NoteView {
            index: 0,
            mv: "b1-b4".into(),
            mover: Color::White,
            value,
            best: Some(an_analysis().moves[0].clone()),
            loss: 0.25,
            judgement: "mistake".into(),
            comment: "b1-b4 loses 25%".into(),
        }],
        counts: Counts {
            white: SideCounts {
                blunders: 0,
                mistakes: 1,
            },
            black: SideCounts::default(),
        },
    });
}

#[test]
fn players_and_lobby_shapes_read_back_the_same() {
    let record = Record3 {
        wins: 3,
        draws: 1,
        losses: 2,
    };
    round_trip(&Profile {
        bot: false,
        name: "ada".into(),
        created_at: 1,
        ratings: vec![RatingView {
            scoring: "largest".into(),
            speed: Speed::Correspondence,
            rating: 1612,
            deviation: 80,
            provisional: false,
            games: 40,
        }],
        results: ResultsView {
            first: record.clone(),
            second: record,
        },
    });
    round_trip(&PlayerGame {
        id: "k7w2q9xm4d".into(),
        scoring: "largest".into(),
        white: Some("ada".into()),
        black: None,
        side: Some(Color::White),
        result: "1-0".into(),
        outcome: Some("win".into()),
        end_reason: Some("no_moves".into()),
        rated: false,
        control: Some(TimeControl::Days { days: 2 }),
        move_count: 31,
        playing: false,
        created_at: 5,
        white_rating: Some(1610),
        black_rating: None,
        rating_diff: Some(-7),
        scores: [9, 4],
    });
    round_trip(&SeekRequest {
        scoring: "product".into(),
        rated: true,
        clock: None,
        days: Some(3),
        color: Some("random".into()),
        rating_min: Some(1400),
        rating_max: None,
        to: Some("bob".into()),
        bots: Some(false),
    });
}

/// What the server writes for `message` reads as an owned message that writes the same text.
fn sent_and_read(message: ServerMessage<'_>) -> OwnedServerMessage {
    let text: String = message.to_text();
    let read: OwnedServerMessage = serde_json::from_str(&text).expect("the client reads it");
    assert_eq!(read.as_message().to_text::<String>(), text);
    read
}

#[test]
fn every_message_the_server_writes_on_a_game_socket_reads_as_the_clients_type() {
    let state = a_state();
    let mv = a_move();
    let read = sent_and_read(ServerMessage::Sync {
        after: 0,
        moves: &state.moves,
        state: &state,
        you: vec![Color::White],
    });
    assert_eq!(
        read,
        OwnedServerMessage::Sync {
            after: 0,
            moves: vec![mv.clone()],
            state: Box::new(state.clone()),
            you: vec![Color::White],
        }
    );
    let read = sent_and_read(ServerMessage::Move {
        mv: &mv,
        state: &state,
    });
    assert!(matches!(read, OwnedServerMessage::Move { mv: m, .. } if m == mv));
    sent_and_read(ServerMessage::Undo { state: &state });
    sent_and_read(ServerMessage::End {
        result: &state.result,
        winner: state.winner,
        reason: state.end_reason,
        state: &state,
    });
    sent_and_read(ServerMessage::Update {
        reason: "seats",
        state: &state,
    });
    sent_and_read(ServerMessage::Presence {
        seats: state.seats,
        spectators: 4,
    });
    let read = sent_and_read(ServerMessage::Error {
        code: ErrorCode::RateLimited,
        message: "too many messages: closing",
    });
    assert_eq!(
        read,
        OwnedServerMessage::Error {
            code: ErrorCode::RateLimited,
            message: "too many messages: closing".into(),
        }
    );
    assert_eq!(sent_and_read(ServerMessage::Pong), OwnedServerMessage::Pong);
    let line = ChatLine {
        id: 7,
        room: ChatRoom::Spectators,
        name: "Alice".into(),
        side: Some(Color::Black),
        text: "<b>well played</b>".into(),
        at: 1_767_225_600_000,
    };
    assert_eq!(
        sent_and_read(ServerMessage::Chat { line: &line }),
        OwnedServerMessage::Chat { line }
    );
}

#[test]
fn the_message_texts_keep_their_type_tags() {
    let text: String = ServerMessage::Pong.to_text();
    assert_eq!(text, r#"{"type":"pong"}"#);
    let hello: ClientMessage =
        serde_json::from_str(r#"{"type":"hello","since":3,"epoch":0}"#).expect("a hello");
    assert_eq!(
        hello,
        ClientMessage::Hello {
            since: Some(3),
            epoch: Some(0),
            token: None,
        }
    );
    round_trip(&hello);
    round_trip(&ClientMessage::Ping);
}

#[test]
fn every_lobby_message_reads_as_the_clients_type() {
    let seek = SeekView {
        id: "s1".into(),
        name: "ada".into(),
        rating: 1500,
        provisional: true,
        to: None,
        scoring: "largest".into(),
        rated: true,
        control: TimeControl::Clock {
            initial_s: 300,
            increment_s: 0,
        },
        label: "5+0".into(),
        speed: Speed::Realtime,
        color: "random".into(),
        rating_min: None,
        rating_max: Some(1800),
        created_at: 9,
        bot: true,
        bots: false,
    };
    let seeks = [seek];
    let removed = ["s0".to_string()];
    for message in [
        LobbyMessage::Seeks { seeks: &seeks },
        LobbyMessage::SeeksChanged {
            added: &seeks,
            removed: &removed,
        },
        LobbyMessage::Game {
            game_id: "g1",
            tournament: None,
        },
        LobbyMessage::Game {
            game_id: "g3",
            tournament: Some("t1"),
        },
        LobbyMessage::Turn { game_id: "g2" },
        LobbyMessage::Declined {
            seek_id: "s1",
            by: "Pia",
        },
        LobbyMessage::Error {
            code: ErrorCode::Unavailable,
            message: "later",
        },
    ] {
        let text: String = message.to_text();
        let read: OwnedLobbyMessage = serde_json::from_str(&text).expect("the client reads it");
        assert_eq!(read.as_message().to_text::<String>(), text);
    }
}

#[test]
fn an_error_code_is_written_in_snake_case_with_its_status() {
    let text = serde_json::to_string(&ErrorCode::MalformedJson).expect("serializable");
    assert_eq!(text, r#""malformed_json""#);
    assert_eq!(ErrorCode::IllegalMove.http_status(), 422);
    assert_eq!(ErrorCode::ShuttingDown.http_status(), 503);
}
