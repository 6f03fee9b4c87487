//! The official outputs of a HIPE campaign run on the family engine
//! ([`super::FamilyCampaign::from_hipe`] + [`super::run_family_campaign_with`]).
//!
//! As each run of a `hipe` task is scored, [`OfficialRuns::scored`] takes the family's full
//! result (the `eval::score` result, [`crate::family::Full`]), writes it as the official
//! per-run TSV and JSON (`report::official`, named as the official scorer names them) and
//! keeps only the typed rows of the per-run table, so that memory does not grow with the
//! runs. [`official_rankings`] ranks those rows with the campaign's `[[ranking]]`
//! specifications, as `leaderboard` ranks them: the official file names, and the official
//! rankings row for row.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::config::Campaign;
use super::confusion::{ConfusionMatrix, TOP_LABELS};
use super::families::{FamilyCampaign, FamilyReport, FamilyTask, TaskRanking};
use super::names::Placeholder;
use super::ranking::{build_ranking, ranking_file_name, RankingInput};
use super::rows::{rows_from_results, ScoreRow};
use crate::error::{Error, Result};
use crate::eval::score::ScoreResult;
use crate::family::Statistics;
use crate::metrics::resample::Resampler;
use crate::table::Results;

/// The official per-run outputs of a HIPE campaign's runs, made as they are scored: the files
/// written to a directory (when one is given) and the typed rows of each run's table, by
/// (system, output).
#[derive(Default)]
pub struct OfficialRuns {
    dir: Option<PathBuf>,
    rows: Mutex<BTreeMap<(String, String), Vec<ScoreRow>>>,
    fair: Mutex<BTreeMap<(String, String), ConfusionMatrix>>,
    files: Mutex<Vec<String>>,
    /// Each output's breakdown tables (buckets only), by (system, output).
    breakdowns: Mutex<BTreeMap<(String, String), Results>>,
    /// Where each run's breakdown JSON goes, and the resampling of its intervals.
    breakdown_out: Option<PathBuf>,
    resampler: Option<Resampler>,
    /// The first output error (a file that could not be written): fatal to the campaign.
    fatal: Mutex<Option<Error>>,
}

impl OfficialRuns {
    /// Per-run outputs written into `dir` (created when absent); `None`: rows only.
    pub fn new(dir: Option<&Path>) -> Result<Self> {
        if let Some(d) = dir {
            std::fs::create_dir_all(d)
                .map_err(|e| Error::output(d, format!("cannot create the directory: {e}")))?;
        }
        Ok(OfficialRuns {
            dir: dir.map(Path::to_path_buf),
            ..OfficialRuns::default()
        })
    }

    /// Also the breakdowns of the outputs that have them ([`Self::scored`]): each run's
    /// `breakdown:KEY` tables, with intervals when `resampler` is given, written as
    /// `dir/RUN_OUTPUT.json` (the result-table JSON, examples included) and kept for the
    /// boards (buckets only).
    pub fn with_breakdowns(mut self, dir: &Path, resampler: Option<Resampler>) -> Self {
        self.breakdown_out = Some(dir.to_path_buf());
        self.resampler = resampler;
        self
    }

    /// A run of `task` scored ([`super::OnScored`]): for an output of a HIPE campaign, its
    /// official TSV and JSON are written (as `RUN_OUTPUT.tsv|json`) and its rows kept, and
    /// its breakdown, if any ([`Self::with_breakdowns`]); the full result is dropped here.
    /// Other tasks are left as they are.
    pub fn scored(
        &self,
        task: &FamilyTask,
        system: &str,
        [gold, run]: [&Path; 2],
        st: &mut Statistics,
        inputs: Option<&crate::family::Inputs>,
    ) -> Result<()> {
        let Some(o) = &task.official else {
            return Ok(());
        };
        let Some(res) = st.full.take::<ScoreResult>() else {
            return Ok(());
        };
        // System is the lower-cased file stem, as the official scorer writes it.
        let name = system.to_lowercase();
        // A run whose name cannot name its output files is reported, never written.
        if super::names::check_plain(system, false).is_err() {
            return Ok(());
        }
        let suffix = o.suffix.as_deref();
        if let Some(dir) = &self.dir {
            let (tsv, json) = crate::report::official::outputs_beta(
                &name,
                &res.results,
                o.task,
                suffix,
                &o.regimes,
                None,
                crate::report::official::RowNames::Hipe,
            );
            let run = run.to_string_lossy();
            let mut written = Vec::new();
            for (ext, text) in [("tsv", tsv), ("json", json)] {
                let file = crate::hipe::output_name(&run, o.task, suffix, ext);
                if let Err(e) = crate::io::write_atomic(&dir.join(&file), text.as_bytes()) {
                    let mut fatal = lock(&self.fatal);
                    if fatal.is_none() {
                        *fatal = Some(e.clone());
                    }
                    return Err(e);
                }
                written.push(file);
            }
            lock(&self.files).extend(written);
        }
        let rows = rows_from_results(&name, &res.results, o.task, suffix, &o.regimes);
        if let Some(m) = super::confusion::of_results(&res.results) {
            lock(&self.fair).insert(
                (system.to_string(), o.output.clone()),
                m.compact(TOP_LABELS),
            );
        }
        lock(&self.rows).insert((system.to_string(), o.output.clone()), rows);
        let Some(out) = &self.breakdown_out else {
            return Ok(());
        };
        let fam = task.family.as_ref();
        let Some(mut b) = crate::family::breakdown_scored(fam, st, self.resampler.as_ref())? else {
            return Ok(());
        };
        let resampled = self.resampler.as_ref().map(|rs| crate::family::Resampled {
            resampler: rs,
            unit: st.unit,
            test: None,
        });
        // The inputs by the hashes made as they were read, when `inputs` kept them.
        let hash = |p: &Path| match inputs {
            Some(i) => i.file_hash(p),
            None => crate::family::file_hash(p),
        };
        let (gold, run_hash) = (hash(gold)?, hash(run)?);
        b.signature = Some(crate::family::sign::signature_of(
            fam,
            resampled,
            gold,
            &[run_hash],
        ));
        let text = crate::report::table::json::render(&b);
        let file = out.join(format!("{system}_{}.json", o.output));
        if let Err(e) = std::fs::create_dir_all(out)
            .map_err(|e| Error::output(out, format!("cannot create the directory: {e}")))
            .and_then(|()| crate::io::write_atomic(&file, text.as_bytes()))
        {
            let mut fatal = lock(&self.fatal);
            if fatal.is_none() {
                *fatal = Some(e.clone());
            }
            return Err(e);
        }
        b.tables
            .retain(|t| t.keys == [crate::table::KeyKind::Bucket]);
        lock(&self.breakdowns).insert((system.to_string(), o.output.clone()), b);
        Ok(())
    }

    /// The breakdown tables of `system`'s output `output`, if it has any.
    pub(super) fn breakdown(&self, system: &str, output: &str) -> Option<Results> {
        lock(&self.breakdowns)
            .get(&(system.to_string(), output.to_string()))
            .cloned()
    }

    /// An output of a run had elsewhere (replayed, or given by a test): its `files` (plain
    /// names) written as they are, its rows and fair matrix (compacted) kept as
    /// [`Self::scored`] keeps them. A file that cannot be written is an output error.
    pub fn keep(
        &self,
        system: &str,
        output: &str,
        files: Vec<(String, Vec<u8>)>,
        rows: Vec<ScoreRow>,
        fair: Option<ConfusionMatrix>,
    ) -> Result<()> {
        if let Some(dir) = &self.dir {
            for (name, bytes) in &files {
                if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
                    return Err(Error::output(
                        &dir.join(name),
                        "an output given for a run is not a plain file name",
                    ));
                }
                crate::io::write_atomic(&dir.join(name), bytes)?;
            }
            lock(&self.files).extend(files.into_iter().map(|(n, _)| n));
        }
        let key = (system.to_string(), output.to_string());
        if let Some(m) = fair {
            lock(&self.fair).insert(key.clone(), m.compact(TOP_LABELS));
        }
        lock(&self.rows).insert(key, rows);
        Ok(())
    }

    /// The first file that could not be written, if any.
    pub(super) fn fatal(&self) -> Option<Error> {
        lock(&self.fatal).clone()
    }

    /// The per-run files written, in name order.
    pub fn files(&self) -> Vec<String> {
        let mut f = lock(&self.files).clone();
        f.sort();
        f
    }

    /// The rows of `system`'s output `output`, if it was scored.
    pub(super) fn scored_rows(&self, system: &str, output: &str) -> Option<Vec<ScoreRow>> {
        lock(&self.rows)
            .get(&(system.to_string(), output.to_string()))
            .cloned()
    }

    /// The fair confusion matrix of `system`'s output `output`, if fair was scored.
    pub(super) fn fair(&self, system: &str, output: &str) -> Option<ConfusionMatrix> {
        lock(&self.fair)
            .get(&(system.to_string(), output.to_string()))
            .cloned()
    }

    /// The rows of `system`'s output `output` (none when it was not scored).
    fn rows(&self, system: &str, output: &str) -> Vec<ScoreRow> {
        lock(&self.rows)
            .get(&(system.to_string(), output.to_string()))
            .cloned()
            .unwrap_or_default()
    }
}

/// A lock that a panicking holder did not spoil (the data is plain).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One run of one dataset and language: its name, bundle and per-output rows.
struct RunRows {
    name: String,
    bundle: String,
    outputs: Vec<(String, Vec<ScoreRow>)>,
}

/// The official ranking files of the HIPE campaign `cfg` from the report of its family
/// campaign `fam` (built by [`FamilyCampaign::from_hipe`] from `cfg`) and the rows its runs'
/// official outputs had (`official`): (file name, text), in dataset, language and ranking
/// order. A dataset and language get the rankings one of whose outputs has a task there (its
/// gold file was found).
pub fn official_rankings(
    cfg: &Campaign,
    fam: &FamilyCampaign,
    report: &FamilyReport,
    official: &OfficialRuns,
) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (dataset, ds) in &cfg.datasets {
        for lang in &ds.languages {
            let task_name =
                |output: &str| format!("{output}-{}-{}", dataset.as_str(), lang.as_str());
            let mut runs: Vec<RunRows> = Vec::new();
            let mut has_task: Vec<&str> = Vec::new();
            for output in cfg.tasks.keys() {
                let name = task_name(output.as_str());
                let Some(task) = fam.tasks.iter().find(|t| t.name == name) else {
                    continue;
                };
                has_task.push(output.as_str());
                let Some(ranking) = report.rankings.iter().find(|r| r.task == name) else {
                    continue;
                };
                add_rows(&mut runs, output.as_str(), task, ranking, official);
            }
            if has_task.is_empty() {
                continue;
            }
            runs.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
            let inputs: Vec<RankingInput<'_>> = runs
                .iter()
                .map(|r| RankingInput {
                    run_name: &r.name,
                    bundle: &r.bundle,
                    outputs: &r.outputs,
                })
                .collect();
            for spec in &cfg.rankings {
                if !spec.outputs.iter().any(|o| has_task.contains(&o.as_str())) {
                    continue;
                }
                files.push((
                    ranking_file_name(dataset.as_str(), lang.as_str(), &spec.kind),
                    build_ranking(spec, &inputs),
                ));
            }
        }
    }
    files
}

/// Adds the rows of output `output` of every run ranked in `ranking` to `runs`.
fn add_rows(
    runs: &mut Vec<RunRows>,
    output: &str,
    task: &FamilyTask,
    ranking: &TaskRanking,
    official: &OfficialRuns,
) {
    for run in &ranking.ranking.runs {
        let file = format!("{}.tsv", run.system);
        let bundle = task
            .fit(&file)
            .and_then(|m| {
                m.into_iter()
                    .find(|(p, _)| *p == Placeholder::Bundle)
                    .map(|(_, v)| v.to_string())
            })
            .unwrap_or_default();
        let at = match runs.iter().position(|r| r.name == run.system) {
            Some(i) => i,
            None => {
                runs.push(RunRows {
                    name: run.system.clone(),
                    bundle,
                    outputs: Vec::new(),
                });
                runs.len() - 1
            }
        };
        let rows = official.rows(&run.system, output);
        runs[at].outputs.push((output.to_string(), rows));
    }
}
