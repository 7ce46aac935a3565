//! Learning what positions are worth: exact labels, features and a fitted model.
//!
//! The pipeline (`mabula train`, see `docs/strength.md`): [`labels`] plays realistic games and
//! has the exact solver label positions late in them; [`features`] describes a position by its
//! groups, its edge marbles and the clock; [`model`] fits a softmax over loss, draw and win to
//! those features and ships the weights inside the engine.
//!
//! # Layout
//!
//! - [`labels`]: realistic positions from self-play, labelled by the exact solver, and the
//!   compact file format they are kept in (`data/labels/` in the repository).
//! - [`features`]: whole-board features for the side to move.
//! - [`model`]: the model, its weights file, fitting and agreement with the solver.
//! - [`backward`]: labels for earlier positions from a shallow search whose leaves use a model
//!   fitted on later ones (the backward stages).
//! - [`mlp`]: an experiment, a small neural network over the same features (not shipped).

pub mod backward;
pub mod features;
pub mod labels;
pub mod mlp;
pub mod model;
pub mod prior;
pub mod value;
