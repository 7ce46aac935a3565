//! Learning what positions are worth (behind the `learn` feature): exact labels, and fitting the
//! models of [`crate::eval`].
//!
//! The pipeline (`mabula train`, see `docs/strength.md`): [`labels`] plays realistic games and
//! has the exact solver label positions late in them; [`model`] fits the evaluation model to
//! them and writes its weights, which the engine then embeds. The table models (the move prior
//! and the value) are fitted by [`prior`] and [`value`] from long searches and self-play games
//! (the `distill`, `prior_fit`, `selfplay` and `value_fit` examples).
//!
//! # Layout
//!
//! - [`labels`]: realistic positions from self-play, labelled by the exact solver, and the
//!   compact file format they are kept in (`data/labels/` in the repository).
//! - [`model`]: fitting the evaluation model, its weights file, agreement with the solver.
//! - [`backward`]: labels for earlier positions from a shallow search whose leaves use a model
//!   fitted on later ones (the backward stages).
//! - [`prior`]: fitting the move prior; Adam and the weights files of both table models.
//! - [`value`]: fitting the value.
//! - [`mlp`]: an experiment, a small neural network over the same features (not shipped).
//!
//! These modules use the search (to play and to solve); the search never uses them.

pub mod backward;
pub mod labels;
pub mod mlp;
pub mod model;
pub mod prior;
pub mod value;
