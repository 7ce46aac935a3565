//! With the `serde` feature: every text type serialises as its canonical text and deserialises
//! through its parser, so JSON carries `"b1-b4"`, `"white"`, `"largest"`, `"1-0"`, position
//! strings and records, and a bad value is refused with the parser's message.

use crate::{Color, Game, GameResult, Move, Position, Scoring, Square};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Implements both traits for a type with `Display` (or the given way to write it) and a parser.
macro_rules! as_text {
    ($ty:ty, $parse:expr) => {
        as_text!($ty, $parse, |value: &$ty, s: S| s.collect_str(value));
    };
    ($ty:ty, $parse:expr, $write:expr) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let write = $write;
                write(self, s)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let text = String::deserialize(d)?;
                let parse: fn(&str) -> Result<$ty, String> = $parse;
                parse(&text).map_err(D::Error::custom)
            }
        }
    };
}

as_text!(
    Position,
    |t| t.parse().map_err(|e| format!("{e}")),
    |pos: &Position, s: S| s.serialize_str(pos.text().as_str())
);
as_text!(Move, |t| t.parse().map_err(|e| format!("{e}")));
as_text!(
    Square,
    |t| t.parse().map_err(|e| format!("{e}")),
    |square: &Square, s: S| s.serialize_str(square.name())
);
as_text!(Scoring, |t| t.parse().map_err(|e| format!("{e}")));
as_text!(Game, |t| t.parse().map_err(|e| format!("{e}")));
as_text!(Color, |t| Color::parse(t).ok_or_else(|| format!(
    "'{t}' is not a colour: use white or black"
)));
as_text!(GameResult, |t| GameResult::parse(t).ok_or_else(|| format!(
    "'{t}' is not a result: use 1-0, 0-1, 1/2-1/2 or *"
)));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_types_go_to_json_as_their_canonical_text_and_back() {
        let pos = crate::deal::random(3, Color::Black);
        let json = serde_json::to_string(&pos).expect("serialised");
        assert_eq!(json, format!("\"{pos}\""));
        assert_eq!(serde_json::from_str::<Position>(&json).expect("read"), pos);
        let mv: Move = "b1-b4".parse().expect("notation");
        assert_eq!(serde_json::to_string(&mv).expect("serialised"), "\"b1-b4\"");
        let values = (Color::White, Scoring::Product, GameResult::Draw, Square::C3);
        let json = serde_json::to_string(&values).expect("serialised");
        assert_eq!(json, r#"["white","product","1/2-1/2","c3"]"#);
        assert_eq!(
            serde_json::from_str::<(Color, Scoring, GameResult, Square)>(&json).expect("read"),
            values
        );
        let mut game = Game::new(pos, Scoring::Largest);
        game.play(pos.legal_moves()[0]).expect("legal");
        let json = serde_json::to_string(&game).expect("serialised");
        assert_eq!(serde_json::from_str::<Game>(&json).expect("read"), game);
    }

    #[test]
    fn a_bad_value_is_refused_with_the_parsers_message() {
        let err = serde_json::from_str::<Move>("\"b1-b8\"").expect_err("not a move");
        assert!(err.to_string().contains("can only stop on"), "{err}");
        let err = serde_json::from_str::<Color>("\"green\"").expect_err("not a colour");
        assert!(err.to_string().contains("not a colour"), "{err}");
    }
}
