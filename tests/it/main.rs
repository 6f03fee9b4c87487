//! The integration tests, one binary grouped by what they test (`cargo test --test it`;
//! `cargo test --test it families::segmentation` runs one file):
//!
//! - `families`: the metric families (spans, fair, muc, segmentation, tagging), the family
//!   interface, comparisons and resampling;
//! - `standoff`: standoff formats (brat, doccano, Label Studio, Prodigy) and annotator
//!   agreement;
//! - `hipe`: HIPE scoring against the official scorer's outputs, `check` of HIPE runs;
//! - `formats`: the readers, `check` of the other formats, the documented finding codes;
//! - `campaign`: leaderboards (HIPE and family campaigns), their pages and LaTeX, Codabench;
//! - `outputs`: command-line flags, progress, broken pipes, JSON schemas, hostile names in
//!   every output language;
//! - `robustness`: bad inputs, mutations, hostile submissions, numbers and bounds;
//! - `layers`: the source tree's layering and file sizes; `data_summary`: how many data tests
//!   ran on `../shared`.
//!
//! The memory bounds have a binary of their own, `tests/bounds/` (see its docs).
//! The memory bounds have a binary of their own, `tests/bounds/` (see its docs).
//! Shared helpers are in `tests/common/` (also used by the benches and examples).

#[path = "../common/mod.rs"]
mod common;

mod campaign;
mod data_summary;
mod families;
mod formats;
mod hipe;
mod layers;
mod outputs;
mod robustness;
mod standoff;
