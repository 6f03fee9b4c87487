//! fairscore: scoring of named-entity recognition (NERC) and entity-linking (NEL) runs in the
//! HIPE TSV format, fair evaluation (Ortmann 2022) of labeled spans, and whole campaigns.
//!
//! Data flows one way (see `docs/architecture.md`): [`io`] reads and writes files,
//! [`formats`] parses them into the one [`corpus`] model, [`spans`] turns tag columns into
//! entities and link objects, [`matching`] pairs and counts them (the official HIPE counting,
//! Ortmann's algorithm), [`metrics`] turns counts into scores, [`eval`] runs whole evaluations
//! into typed results, and [`report`] writes them. [`check`] and [`campaign`] sit on top.
//!
//! The entry points most callers need are re-exported here: [`score_paths`] (one run from
//! files to the official TSV and JSON), [`ScoreOptions`], [`Task`], [`Edition`], [`Regime`] and
//! the typed [`Error`]. Fair evaluation is [`eval::fair::evaluate_files`], the self-check
//! [`check::check`], a campaign [`campaign::run_campaign`]. The library builds without the
//! binary's dependencies (`default-features = false`; feature `html` adds the HTML page).

#![deny(missing_docs)]

pub mod api;
pub mod campaign;
pub mod check;
pub mod corpus;
pub mod error;
pub mod escape;
pub mod eval;
pub mod family;
pub mod formats;
pub mod hipe;
pub mod io;
pub mod matching;
pub mod metrics;
pub mod normalize;
pub mod report;
pub mod score;
pub mod spans;
pub mod table;
pub mod zip;

pub use error::{Error, ErrorClass, Result};

pub use eval::options::{Regime, ScoreOptions};
pub use hipe::{Edition, Task};
pub use score::{score_files, score_paths, score_paths_tasks, ScoreOutput};
