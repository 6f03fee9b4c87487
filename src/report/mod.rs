//! Writing results: the official per-run JSON and TSV layouts.

pub mod json;
pub mod tsv;
