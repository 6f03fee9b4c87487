//! The real scorer behind `leaderboard`: turns a [`ScoreJob`] into a `score` call, with gold
//! files, tag sets and QID maps read once per campaign and shared between worker threads
//! through [`crate::family::Inputs`], as family campaigns share them. A parsed gold or run is
//! dropped after the last job that reads it ([`ScoreJob::run_uses`],
//! [`ScoreJob::gold_uses`]), so memory follows the files in use, not the campaign's size.

use super::job::{JobOutput, ScoreJob};
use super::rows::rows_from_results;
use crate::corpus::{Corpus, ReadOptions};
use crate::eval::options::{read_tagset, ScoreOptions};
use crate::eval::read::{read_hipe, task_columns, LinkNorm};
use crate::family::Inputs;
use crate::hipe::Task;
use crate::normalize::read_map;
use crate::score::score_files;
use crate::Result;
use std::path::Path;

/// Scores campaign jobs; create one per campaign and share it between threads.
#[derive(Default)]
pub struct JobScorer {
    inputs: Inputs,
}

impl JobScorer {
    /// A scorer with nothing read yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Scores one job as `fairscore score` would (relaxed NEL: the run's links are normalized
    /// with `--norm-time --norm-histo MAP` as it is read).
    pub fn score(&self, job: &ScoreJob) -> Result<JobOutput> {
        // A normalized run is read for its job alone (`run_uses` 0: not announced).
        self.inputs.expect(&job.run_path, job.run_uses);
        self.inputs.expect(&job.gold_path, job.gold_uses);
        let out = self.score_job(job);
        if job.run_uses > 0 {
            self.inputs.done(&job.run_path);
        }
        self.inputs.done(&job.gold_path);
        out
    }

    fn score_job(&self, job: &ScoreJob) -> Result<JobOutput> {
        let edition = job.edition;
        let mut opts = ScoreOptions::new(job.task, edition);
        opts.n_best = job.n_best.clone();
        opts.suffix = job.suffix.clone();
        if job.fair {
            opts.regimes.push(crate::eval::options::Regime::Fair);
        }
        if let Some(ts) = &job.tagset {
            opts.tagset = Some((*self.inputs.kept(ts, "tagset", || read_tagset(ts))?).clone());
        }
        // Runs are shared between the tasks of a bundle: keep what any task reads.
        let columns = || {
            Some(task_columns(
                edition,
                &[Task::NercCoarse, Task::NercFine, Task::Nel],
            ))
        };
        let read = |path: &Path, norm: Option<LinkNorm<'_>>| {
            read_hipe(path, edition, ReadOptions::default(), columns(), norm)
        };
        let key = format!("campaign {}", edition.name());
        let gold = self
            .inputs
            .get(&job.gold_path, &key, || read(&job.gold_path, None))?;
        let pred_arg = job.run_path.to_string_lossy().into_owned();
        // The campaign's run pattern is the naming convention here (a campaign may name other
        // datasets than the official check knows); System is the lower-cased file stem, as
        // the official scorer's.
        let system = job.run_name.to_lowercase();
        let pred = match &job.normalize_map {
            None => {
                // A run is scored for several tasks: parse it once.
                let run = self
                    .inputs
                    .get(&job.run_path, &key, || read(&job.run_path, None))?;
                return self.finish(&gold, &run, &pred_arg, &system, &opts);
            }
            Some(map_path) => {
                let map = self.inputs.kept(map_path, "map", || read_map(map_path))?;
                let norm = LinkNorm {
                    map: &map,
                    norm_time: true,
                };
                read(&job.run_path, Some(norm))?
            }
        };
        self.finish(&gold, &pred, &pred_arg, &system, &opts)
    }

    fn finish(
        &self,
        gold: &Corpus,
        pred: &Corpus,
        pred_arg: &str,
        system: &str,
        opts: &ScoreOptions,
    ) -> Result<JobOutput> {
        let out = score_files(gold, pred, pred_arg, system, opts)?;
        let suffix = opts.suffix.as_deref().filter(|s| !s.is_empty());
        let rows = rows_from_results(&out.system, &out.results, opts.task, suffix, &opts.regimes);
        let fair = super::confusion::of_results(&out.results);
        Ok(JobOutput {
            files: vec![
                (out.tsv_name, out.tsv.into_bytes()),
                (out.json_name, out.json.into_bytes()),
            ],
            rows,
            fair,
        })
    }
}
