//! Whole evaluations: inputs and options in, typed results out (never text).
//!
//! [`score`] is the official HIPE evaluation of one run, [`fair`] Ortmann's fair evaluation of
//! two files; [`segmentation`] word segmentation (Shao et al. 2017), [`tagging`]
//! morphosyntactic tagging beyond accuracy, [`muc`] MUC-7 token judgement with F-beta;
//! [`options`] and [`weights`] parse what shapes them. [`labels`] finds run labels a scoring
//! ignores; `listing` makes the per-span records of `score --errors`. [`bootstrap`] adds
//! confidence intervals to a scoring, [`compare`] tests the difference between two runs
//! (issue 14). [`tags`] scores tag sequences held in memory (the Python package's `evaluate`
//! and `classification_report`).

pub mod agree;
pub mod bootstrap;
pub mod compare;
pub mod fair;
pub mod labels;
mod listing;
pub mod muc;
pub mod options;
mod parting;
pub mod score;
pub mod segmentation;
pub mod standoff;
pub mod tagging;
pub mod tags;
pub mod units;
pub mod weights;
