//! What a campaign produced: the runs scored (with their typed rows), failed and rejected,
//! the outputs not evaluated, and the ranking files written ([`CampaignReport`]). Plain data,
//! made by `super::hipe_report` and read by [`super::board`].

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::confusion::ConfusionMatrix;
use super::discover::{Rejected, RunInfo};
use super::ranking::Ranked;
use super::rows::ScoreRow;
use crate::hipe::Edition;

/// A run that was scored (every job that could run gave results; with `--replay`, outputs
/// whose files are missing are listed in `missing`).
#[derive(Debug, Clone)]
pub struct ScoredRun {
    /// The run.
    pub run: RunInfo,
    /// (output name, typed score rows), in the bundle's order.
    pub outputs: Vec<(String, Vec<ScoreRow>)>,
    /// (output name, fair confusion matrix) where the scorer gave one.
    pub fair: Vec<(String, ConfusionMatrix)>,
    /// (output name, the column its spans were bucketed in, the `breakdown:KEY` tables) of
    /// the outputs with a breakdown (`breakdown` in the campaign file).
    pub breakdowns: Vec<(String, String, crate::table::Results)>,
    /// Outputs of its bundle that could not be replayed (`--replay`: `OUTPUT: FILE not
    /// found`): only the tables that need them lack the run.
    pub missing: Vec<String>,
}

/// A run some job of which failed; it is left out of rankings and tables.
#[derive(Debug, Clone)]
pub struct FailedRun {
    /// The run.
    pub run: RunInfo,
    /// One line per failed job: `OUTPUT: error`.
    pub errors: Vec<String>,
}

/// An output that could not be evaluated for a dataset and language because an input it needs
/// is missing (e.g. the `_histonorm` gold of relaxed NEL). Other outputs are not affected.
#[derive(Debug, Clone, PartialEq)]
pub struct NotEvaluated {
    /// The dataset concerned.
    pub dataset: String,
    /// The language concerned.
    pub lang: String,
    /// The output not evaluated (`TASK` or `TASK_SUFFIX`).
    pub output: String,
    /// What is missing (`gold file`, `QID map`, `tagset`).
    pub what: String,
    /// Where it was expected.
    pub path: PathBuf,
    /// Why it cannot be read (`not found`, `not a regular file`).
    pub reason: String,
    /// Runs that would have been scored for it.
    pub runs: usize,
    /// Ranking files not written because they take only outputs that were not evaluated.
    pub rankings: Vec<String>,
}

/// A HIPE campaign's `inspect` pages as its board finds them
/// (`families::insight::official_pages`).
#[derive(Debug, Default, Clone)]
pub struct OfficialPages {
    /// (run, output, column) → `inspect/RUN_OUTPUT.html`.
    pub links: BTreeMap<(String, String, String), String>,
    /// (`RUN OUTPUT`, the error) of each page that could not be made.
    pub failed: Vec<(String, String)>,
}

/// A ranking file written, with its rows.
#[derive(Debug, Clone)]
pub struct RankingFile {
    /// The dataset ranked.
    pub dataset: String,
    /// The language ranked.
    pub lang: String,
    /// Index of the spec in the campaign's rankings.
    pub spec: usize,
    /// The spec's ranking kind (part of the file name).
    pub kind: String,
    /// `ranking-DATASET-LANG-KIND-all.tsv`, in `rankings/`.
    pub file_name: String,
    /// The rows in file order; `run` indexes [`CampaignReport::scored`].
    pub rows: Vec<Ranked>,
}

/// Everything a campaign produced, in a stable order (runs by file name).
#[derive(Debug, Clone)]
pub struct CampaignReport {
    /// The campaign's name.
    pub campaign: String,
    /// The HIPE edition scored.
    pub edition: Edition,
    /// Runs scored, by file name.
    pub scored: Vec<ScoredRun>,
    /// Runs some job of which failed, by file name.
    pub failed: Vec<FailedRun>,
    /// Files of the runs directory that are not runs, by file name.
    pub rejected: Vec<Rejected>,
    /// Files of another extension than the runs' (manifests, key files): listed, not an error.
    pub ignored: Vec<String>,
    /// Outputs not evaluated for a dataset and language.
    pub not_evaluated: Vec<NotEvaluated>,
    /// The ranking files written.
    pub rankings: Vec<RankingFile>,
    /// Score jobs run: one per run and output of its bundle, outputs not evaluated excluded.
    pub jobs: usize,
    /// Files written under `runs/`.
    pub run_files: usize,
    /// Files of earlier invocations removed from `runs/` and `rankings/`.
    pub removed: Vec<String>,
    /// The `inspect` pages written (`leaderboard --inspect`, `inspect = true`), linked from
    /// the rows of their run, output and column.
    pub inspect: OfficialPages,
}

impl CampaignReport {
    /// The score row a ranked entry points at.
    pub fn ranked_row(&self, r: &Ranked) -> Option<&ScoreRow> {
        self.scored.get(r.run)?.outputs.get(r.output)?.1.get(r.row)
    }

    /// True when every file of the runs directory was scored for every output of its bundle.
    pub fn all_ok(&self) -> bool {
        self.failed.is_empty()
            && self.rejected.is_empty()
            && self.not_evaluated.is_empty()
            && self.scored.iter().all(|s| s.missing.is_empty())
    }
}
