//! The learnt evaluation the search can use: reading the shipped weights and evaluating with
//! them. Fitting them is the work of `learn`, behind the cargo feature `learn`.
//!
//! Level 10 uses none of this yet; player settings do (`prior=on`, `value=on`, `eval=model`,
//! through [`crate::mcts::MovePrior`], [`crate::mcts::ValuePrior`] and
//! [`crate::mcts::LeafModel`]). See `docs/strength.md`.
//!
//! # Layout
//!
//! - [`features`]: whole-board features for the side to move.
//! - [`model`]: a softmax over loss, draw and win from those features, per scoring mode and
//!   phase (`weights/eval.bin`).
//! - [`prior`]: a move prior from n-tuple tables over the twelve lines and a few counts
//!   (`weights/prior.bin`); also the inputs and the weights-file reader both table models share.
//! - [`value`]: a value over the prior's inputs (`weights/value.bin`).
//!
//! Nothing here depends on the search: the tree ([`crate::mcts`]) depends on these modules, never
//! the other way round.

pub mod features;
pub mod model;
pub mod prior;
pub mod value;
