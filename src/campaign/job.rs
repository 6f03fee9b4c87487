//! Score jobs: where a campaign's inputs are ([`CampaignDirs`]), one scorer invocation
//! ([`ScoreJob`]), what the scorer returns ([`JobOutput`]), the scorer's type ([`Scorer`]) and
//! a scorer that replays outputs computed earlier ([`replay_scorer`]).

use std::path::{Path, PathBuf};

use super::confusion::ConfusionMatrix;
use super::rows::{parse_table, ScoreRow};
use crate::hipe::{Edition, Task};
use crate::{Error, Result};

/// Where a campaign's inputs are and where its outputs go.
#[derive(Debug, Clone)]
pub struct CampaignDirs {
    /// Gold files, named by the campaign's gold pattern.
    pub gold: PathBuf,
    /// Run files, named by the campaign's run pattern + `.tsv`.
    pub runs: PathBuf,
    /// Tagset and QID map files.
    pub resources: PathBuf,
    /// Output directory (`runs/`, `rankings/`, the reports).
    pub outdir: PathBuf,
}

/// One scorer invocation: what `fairscore score` (or `clef_evaluation.py`) is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreJob {
    /// The run file to score.
    pub run_path: PathBuf,
    /// The run's file stem.
    pub run_name: String,
    /// The output's name, `TASK` or `TASK_SUFFIX` (e.g. `nel_relaxed`).
    pub output: String,
    /// The run's dataset.
    pub dataset: String,
    /// The run's language.
    pub lang: String,
    /// The gold file (in the gold directory) for this dataset, language and output.
    pub gold_path: PathBuf,
    /// The task scored.
    pub task: Task,
    /// `--suffix` (e.g. `relaxed`).
    pub suffix: Option<String>,
    /// `--n_best` cutoffs (NEL), each ≥ 1.
    pub n_best: Vec<usize>,
    /// Tagset file (in the resources directory), if any.
    pub tagset: Option<PathBuf>,
    /// The HIPE edition whose scoring rules apply.
    pub edition: Edition,
    /// Relaxed NEL: normalize the run with `--norm-time --norm-histo MAP` before scoring.
    pub normalize_map: Option<PathBuf>,
    /// Also compute the fair (Ortmann 2022) regime and return its confusion matrix.
    pub fair: bool,
    /// How many jobs of the campaign read this run file as it is, not normalized (0: unknown,
    /// or a normalized run). A scorer that keeps parsed runs between jobs frees this one after
    /// that many.
    pub run_uses: usize,
    /// How many jobs of the campaign read this gold file (0: unknown); as `run_uses`.
    pub gold_uses: usize,
}

impl ScoreJob {
    /// `RUN_TASK[_SUFFIX]`, the stem of the official per-run outputs.
    pub fn output_stem(&self) -> String {
        format!("{}_{}", self.run_name, self.output)
    }
}

/// What the scorer returns for a job.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JobOutput {
    /// Every file the official evaluation writes for the job (plain file names), written
    /// as-is to `OUTDIR/runs/`.
    pub files: Vec<(String, Vec<u8>)>,
    /// The per-run score table, typed: what rankings and the leaderboard tables are made of.
    pub rows: Vec<ScoreRow>,
    /// The fair regime's confusion matrix, when the job asked for it.
    pub fair: Option<ConfusionMatrix>,
}

/// The scorer the campaign runner calls, once per job, from several threads.
pub type Scorer<'a> = dyn Fn(&ScoreJob) -> Result<JobOutput> + Sync + 'a;

/// A scorer that serves outputs computed earlier: `DIR/RUN_OUTPUT.tsv` and `.json` (e.g. the
/// official scorer's per-run outputs), read through the input guard. The table is parsed once
/// into typed rows and the JSON checked before anything is written; a missing or invalid file
/// fails the job, with a message naming the file in `DIR`.
pub fn replay_scorer(dir: &Path) -> impl Fn(&ScoreJob) -> Result<JobOutput> + Sync + '_ {
    move |job: &ScoreJob| {
        let stem = job.output_stem();
        let tsv_path = dir.join(format!("{stem}.tsv"));
        let json_path = dir.join(format!("{stem}.json"));
        let tsv_bytes = crate::io::read_input(&tsv_path)?;
        let text = crate::io::into_utf8(&tsv_path, tsv_bytes.clone())?;
        let rows = parse_table(&text, &tsv_path)?;
        let json_bytes = crate::io::read_input(&json_path)?;
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&json_bytes) {
            return Err(Error::input(&json_path, e.line(), format!("not JSON: {e}")));
        }
        Ok(JobOutput {
            files: vec![
                (format!("{stem}.json"), json_bytes),
                (format!("{stem}.tsv"), tsv_bytes),
            ],
            rows,
            fair: None,
        })
    }
}
