//! fairscore: scoring of named-entity recognition (NERC) and entity-linking (NEL) runs in the
//! HIPE TSV format, fair evaluation (Ortmann 2022) of labeled spans, and whole campaigns.
//!
//! Data flows one way (see `docs/architecture.md`): [`io`] reads and writes files,
//! [`formats`] parses them into the one [`corpus`] model, [`spans`] turns tag columns into
//! entities and link objects, [`matching`] pairs and counts them (the official HIPE counting,
//! Ortmann's algorithm), [`metrics`] turns counts into scores, [`eval`] runs whole evaluations
//! into typed results, and [`report`] writes them. [`check`] and [`campaign`] sit on top.
//!
//! # The facade
//!
//! The entry points a Rust caller needs are re-exported at the crate root; the modules
//! beneath hold the rest.
//!
//! | task | entry points |
//! |---|---|
//! | evaluate a run with a metric family | [`build_family`], [`evaluate`], [`Options`], [`Family`] |
//! | intervals and paired tests | [`Resampler`], [`compare`], [`PairedTest`] |
//! | the results and their rendering | [`Results`], [`render`], [`TableFormat`] |
//! | what a number depends on | [`Signature`], [`signature`], [`Resampled`] |
//! | rank a campaign of family tasks | [`FamilyCampaign`], [`run_family_campaign`] |
//! | HIPE's official scoring | [`score_paths`], [`ScoreOptions`], [`Task`], [`Edition`], [`Regime`] |
//! | a new family | [`Family`], [`Statistics`], [`register`], [`Registration`] |
//! | errors | [`Error`], [`ErrorClass`], [`Result`] |
//!
//! Scoring a CoNLL run with the `spans` family, with a bootstrap interval over its
//! documents, and printing the result tables as Markdown:
//!
//! ```
//! # fn main() -> fairscore::Result<()> {
//! # let dir = std::env::temp_dir().join(format!("fairscore-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! # let (gold, run) = (dir.join("gold.conll"), dir.join("run.conll"));
//! # std::fs::write(&gold, "Paris B-LOC\nis O\n\nAnna B-PER\nreads O\n").unwrap();
//! # std::fs::write(&run, "Paris B-LOC\nis O\n\nAnna B-ORG\nreads O\n").unwrap();
//! use fairscore::{build_family, evaluate, render, Options, Resampler, TableFormat};
//!
//! let spans = build_family("spans", &Options::default())?;
//! let results = evaluate(spans.as_ref(), &gold, &run, Some(&Resampler::new(200, 42)))?;
//! let strict = results.table("strict").expect("the spans family has a strict table");
//! let all = strict.row(&["ALL"]).expect("and a row of all labels");
//! assert_eq!(all.values[0].as_f64(), Some(1.0)); // TP: Paris
//! println!("{}", render(&results, TableFormat::Markdown)?);
//! # Ok(())
//! # }
//! ```
//!
//! The library builds without the binary's dependencies (`default-features = false`;
//! feature `html` adds the HTML page).

#![deny(missing_docs)]

pub mod api;
pub mod campaign;
pub mod check;
mod convert;
pub mod corpus;
mod error;
mod escape;
pub mod eval;
pub mod family;
pub mod formats;
pub mod hipe;
pub mod io;
pub mod matching;
pub mod metrics;
mod normalize;
pub mod report;
mod score;
pub mod spans;
pub mod table;
mod zip;

pub use error::{Error, ErrorClass, Result};

pub use campaign::{run_family_campaign, FamilyCampaign, FamilyReport};
pub use family::{
    build as build_family, compare, evaluate, register, Family, Options, Registration, Statistics,
};
pub use family::{signature, Resampled};
pub use metrics::{PairedTest, Resampler};
pub use report::render;
pub use table::{Results, Signature, TableFormat};

pub use eval::options::{Regime, ScoreOptions};
pub use hipe::{Edition, Task};
pub use normalize::{normalize_file, normalize_text, parse_map, read_map, NormalizeOptions};
pub use score::{
    compare_paths, score_files, score_paths, score_paths_tasks, task_columns, ScoreOutput,
};
