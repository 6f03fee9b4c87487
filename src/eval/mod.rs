//! Whole evaluations: inputs and options in, typed results out (never text).
//!
//! `score` is the official HIPE evaluation of one run, [`fair`] Ortmann's fair evaluation of
//! two files (MUC-7 judgement, word segmentation and tagging live whole in their families:
//! `crate::family::muc`, `crate::family::segmentation`, `crate::family::tagging`);
//! `options` and `weights` parse what shapes them, `read` reads HIPE files for them. `labels` finds run labels a scoring
//! ignores; `listing` makes the per-span records of `score --errors`. `bootstrap` adds
//! confidence intervals to a scoring, `compare` tests the difference between two runs
//! (issue 14). `tags` scores tag sequences held in memory (the Python package's `evaluate`
//! and `classification_report`).

pub(crate) mod agree;
pub(crate) mod bootstrap;
pub(crate) mod compare;
pub(crate) mod entities;
pub mod fair;
pub(crate) mod labels;
mod listing;
pub(crate) mod options;
pub(crate) mod read;
pub(crate) mod score;
pub(crate) mod standoff;
pub(crate) mod tags;
pub(crate) mod units;
pub(crate) mod weights;
pub use agree::{agreement, annotator_dirs, annotator_files, brat_project};
pub use bootstrap::resampler;
pub use fair::{
    evaluate_files as evaluate_fair_files, FairOptions, Format as FairFormat,
    ReadOptions as FairReadOptions, ERRORS_HEADER,
};
pub use options::{parse_noise_levels, parse_time_periods, read_tagset};
pub use score::{evaluate_one, evaluation_tags};
pub use tags::{evaluate_tags, FairRow, RegimeRow, ReportRow, TagEvaluation};
pub use weights::{format_weights, parse_weights};
