//! Whole evaluations: inputs and options in, typed results out (never text).
//!
//! [`score`] is the official HIPE evaluation of one run, [`fair`] Ortmann's fair evaluation of
//! two files (MUC-7 judgement, word segmentation and tagging live whole in their families:
//! `crate::family::muc`, `crate::family::segmentation`, `crate::family::tagging`);
//! [`options`] and [`weights`] parse what shapes them, `read` reads HIPE files for them. `labels` finds run labels a scoring
//! ignores; `listing` makes the per-span records of `score --errors`. [`bootstrap`] adds
//! confidence intervals to a scoring, `compare` tests the difference between two runs
//! (issue 14). [`tags`] scores tag sequences held in memory (the Python package's `evaluate`
//! and `classification_report`).

pub mod agree;
pub mod bootstrap;
pub(crate) mod compare;
pub mod fair;
pub(crate) mod labels;
mod listing;
pub mod options;
pub(crate) mod read;
pub mod score;
pub(crate) mod standoff;
pub mod tags;
pub(crate) mod units;
pub mod weights;
