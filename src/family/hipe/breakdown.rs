//! The hipe family's breakdowns (docs/breakdown.md, "The hipe family"): the spans of the
//! task's first column, read as the official scorer reads them, bucketed by the keys of the
//! spans family and judged in the strict regime, so that the buckets of every key add up to
//! the `strict` `ALL` row of the `micro` table.

use std::path::PathBuf;
use std::sync::OnceLock;

use super::super::breakdown::{self as bd, Asked, Train};
use super::super::{Options, Statistics};
use crate::corpus::Corpus;
use crate::error::{Error, Result};
use crate::eval::options::ScoreOptions;
use crate::formats::Format;
use crate::hipe::Task;

/// The regime a hipe breakdown judges spans in.
const REGIME: &str = "strict";

/// What a breakdown reads of the scoring it breaks down, made once there: the run's documents
/// as the alignment to the gold cut them, and the task's first column's entities as scored.
#[derive(Debug, Default)]
pub struct Scored {
    /// The run's documents, one per gold document ([`crate::corpus::Alignment`]).
    pub run_docs: Vec<crate::corpus::Document>,
    /// The first column's entities of the evaluated labels as scored, when the scoring kept
    /// them ([`crate::eval::options::ScoreOptions::keep_entities`]).
    pub entities: Option<crate::eval::score::Entities>,
}

/// The breakdown asked of the hipe family: its keys, the training file and that file's
/// content hash once read (for the signature).
#[derive(Debug, Clone, Default)]
pub struct HipeBreakdown {
    asked: Vec<Asked>,
    train: Option<PathBuf>,
    hash: OnceLock<String>,
}

impl HipeBreakdown {
    /// The `breakdown` and `train` options; a usage error for the NEL task and with the
    /// `noise_level` and `time_period` filters (whose rows the buckets would not add up to).
    pub fn parse(opts: &Options, score: &ScoreOptions) -> Result<Self> {
        let asked = match opts.own("breakdown") {
            Some(v) => bd::parse_keys(v)?,
            None => Vec::new(),
        };
        let train = opts.own("train").map(PathBuf::from);
        bd::check_train(&asked, train.as_deref())?;
        if !asked.is_empty() {
            if score.task == Task::Nel {
                return Err(Error::usage(
                    "breakdown: the hipe family breaks down the NERC tasks (nerc_coarse, nerc_fine), not nel",
                ));
            }
            if !score.noise_levels.is_empty() || !score.time_periods.is_empty() {
                return Err(Error::usage(
                    "breakdown: the hipe family breaks down the unfiltered scores; instead of noise_level or time_period use the keys noise and period",
                ));
            }
        }
        Ok(HipeBreakdown {
            asked,
            train,
            hash: OnceLock::new(),
        })
    }

    /// Whether a breakdown is asked for.
    pub fn wanted(&self) -> bool {
        !self.asked.is_empty()
    }

    /// The signature fields `breakdown` and `train` (none without a breakdown).
    pub fn signature_fields(&self) -> Vec<(String, String)> {
        bd::signature_fields(
            &self.asked,
            self.train.as_deref(),
            self.hash.get().map(String::as_str),
        )
    }

    /// Whether the breakdown reads a training file (see [`HipeBreakdown::read_train`]).
    pub fn reads_train(&self) -> bool {
        !self.asked.is_empty() && self.train.is_some()
    }

    /// Reads the training file for the training keys (none without a breakdown or `train`),
    /// as HIPE TSV in the task's first column of `o`, keeping its hash for the signature. The
    /// hipe family calls it in a thread of its own, beside the reading of gold and run.
    pub fn read_train(&self, o: &ScoreOptions) -> Result<Option<Train>> {
        let Some(path) = self.train.as_ref().filter(|_| !self.asked.is_empty()) else {
            return Ok(None);
        };
        let (hash, t) = bd::train::read(path, Some(Format::Hipe), Some(first_column(o)?), None)?;
        let _ = self.hash.set(hash);
        Ok(Some(t))
    }

    /// Adds the breakdown asked for (if any) to `s`, the statistics of gold `g` and run `p`
    /// (one unit per gold document) as `scored`; `train`: the training file as
    /// [`HipeBreakdown::read_train`] read it.
    pub fn attach(
        &self,
        s: &mut Statistics,
        (g, p): (&Corpus, &Corpus),
        scored: &Scored,
        train: Option<&Train>,
    ) -> Result<()> {
        if self.asked.is_empty() {
            return Ok(());
        }
        let entities = scored
            .entities
            .as_ref()
            .ok_or_else(|| Error::usage("breakdown: the scoring kept no entities"))?;
        bd::tokens::metadata(&self.asked, g)?;
        let sides = bd::tokens::Sides {
            gold: g,
            run: p,
            run_docs: &scored.run_docs,
            labels_matter: true,
            entities,
        };
        let (gf, rf) = bd::tokens::facts(&sides, train);
        bd::attach(s, &self.asked, &gf, &rf, REGIME)
    }
}

/// The task's first column (`NE-COARSE-LIT`, `NE-FINE-LIT`): the spans a breakdown buckets.
fn first_column(o: &ScoreOptions) -> Result<&'static str> {
    o.edition
        .columns(o.task)
        .first()
        .map(|c| c.0)
        .ok_or_else(|| Error::usage("breakdown: the task has no entity column"))
}
