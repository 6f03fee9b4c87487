//! The real scorer behind `leaderboard`: turns a [`ScoreJob`] into a `score` call, with gold
//! files, tag sets and QID maps read once per campaign and shared between worker threads.
//! A parsed gold or run is dropped after the last job that reads it ([`ScoreJob::run_uses`],
//! [`ScoreJob::gold_uses`]), so memory follows the files in use, not the campaign's size.

use super::confusion::{ConfusionMatrix, TOP_LABELS};
use super::job::{JobOutput, ScoreJob};
use super::rows::rows_from_results;
use crate::corpus::{Corpus, ReadOptions};
use crate::eval::options::{read_tagset, ScoreOptions};
use crate::eval::read::{read_hipe, task_columns, LinkNorm};
use crate::hipe::Task;
use crate::normalize::read_map;
use crate::score::score_files;
use crate::Result;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

type Cell<T> = Arc<OnceLock<Result<Arc<T>>>>;

/// A map from path to a value computed once, even when several threads ask at once, with
/// the number of jobs done with it.
struct Cache<T> {
    cells: Mutex<HashMap<PathBuf, (Cell<T>, usize)>>,
}

impl<T> Cache<T> {
    fn new() -> Self {
        Cache {
            cells: Mutex::new(HashMap::new()),
        }
    }

    fn get(&self, path: &Path, load: impl FnOnce() -> Result<T>) -> Result<Arc<T>> {
        let cell = {
            let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
            cells.entry(path.to_path_buf()).or_default().0.clone()
        };
        cell.get_or_init(|| load().map(Arc::new)).clone()
    }

    /// Notes that a job is done with `path`: after `uses` jobs (0: never) the value is
    /// forgotten (and freed once no job holds it).
    fn release(&self, path: &Path, uses: usize) {
        if uses == 0 {
            return;
        }
        let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
        let entry = cells.entry(path.to_path_buf()).or_default();
        entry.1 += 1;
        if entry.1 >= uses {
            cells.remove(path);
        }
    }
}

/// Scores campaign jobs; create one per campaign and share it between threads.
pub struct JobScorer {
    golds: Cache<Corpus>,
    runs: Cache<Corpus>,
    tagsets: Cache<BTreeSet<String>>,
    maps: Cache<HashMap<String, String>>,
}

impl Default for JobScorer {
    fn default() -> Self {
        Self::new()
    }
}

impl JobScorer {
    /// A scorer with empty caches.
    pub fn new() -> Self {
        JobScorer {
            golds: Cache::new(),
            runs: Cache::new(),
            tagsets: Cache::new(),
            maps: Cache::new(),
        }
    }

    /// Scores one job as `fairscore score` would (relaxed NEL: the run's links are normalized
    /// with `--norm-time --norm-histo MAP` as it is read).
    pub fn score(&self, job: &ScoreJob) -> Result<JobOutput> {
        let out = self.score_job(job);
        self.runs.release(&job.run_path, job.run_uses);
        self.golds.release(&job.gold_path, job.gold_uses);
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
            opts.tagset = Some((*self.tagsets.get(ts, || read_tagset(ts))?).clone());
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
        let gold = self
            .golds
            .get(&job.gold_path, || read(&job.gold_path, None))?;
        let pred_arg = job.run_path.to_string_lossy().into_owned();
        // The campaign's run pattern is the naming convention here (a campaign may name other
        // datasets than the official check knows); System is the lower-cased file stem, as
        // the official scorer's.
        let system = job.run_name.to_lowercase();
        let pred = match &job.normalize_map {
            None => {
                // A run is scored for several tasks: parse it once.
                let run = self.runs.get(&job.run_path, || read(&job.run_path, None))?;
                return self.finish(&gold, &run, &pred_arg, &system, &opts);
            }
            Some(map_path) => {
                let map = self.maps.get(map_path, || read_map(map_path))?;
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
        let fair = confusion_matrix(&out);
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

/// The fair confusion matrix of the first column's all-data evaluation (first n-best cutoff),
/// if fair was scored, compacted from the sparse counts (never a full label × label grid).
fn confusion_matrix(out: &crate::score::ScoreOutput) -> Option<ConfusionMatrix> {
    let (_, cols) = out.results.first()?;
    let first = cols
        .iter()
        .find(|c| c.time == "TIME-ALL" && c.noise == "LED-ALL")?;
    let fair = first.eval.fair.as_ref()?;
    Some(ConfusionMatrix::from_sparse(
        &fair.confusion_labels,
        &fair.confusion,
        Some(&fair.all.counts),
        TOP_LABELS,
    ))
}
