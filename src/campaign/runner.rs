//! Running a campaign: turn discovered runs into score jobs, score them in parallel (rayon)
//! with the injected scorer, write every per-run output, the ranking files, the Markdown
//! summary and the HTML leaderboard. Results are collected in job order before anything is
//! aggregated, so the bytes written do not depend on the thread count.
//!
//! Layout of OUTDIR: `runs/` (per-run outputs, named by the scorer), `rankings/`
//! (`ranking-DATASET-LANG-KIND-all.tsv`), `leaderboard.md`, `leaderboard.tex`, `index.html`. Per-run outputs and
//! ranking files of earlier invocations that this one did not write are removed, so the
//! directory holds what the reports describe.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::config::Campaign;
use super::confusion::ConfusionMatrix;
use super::discover::RunInfo;
use super::hipe_report::{prepare, write_reports, Parts, Planned, Progress};
use super::job::{CampaignDirs, ScoreJob, Scorer};
use super::outcome::{CampaignReport, FailedRun, ScoredRun};
use super::rows::ScoreRow;
use crate::io::write_atomic;
use crate::{Error, Result};

/// Knobs of [`run_campaign_with`].
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Worker threads (rayon's default when `None`).
    pub threads: Option<usize>,
    /// Called from the worker threads after each job.
    pub progress: Option<&'a (dyn Fn(&Progress<'_>) + Sync)>,
    /// The directory a replaying scorer reads, so that the reports name its files relative
    /// to it.
    pub replay_dir: Option<PathBuf>,
}

/// Scores a campaign with default options. See [`run_campaign_with`].
pub fn run_campaign(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    scorer: &Scorer<'_>,
) -> Result<CampaignReport> {
    run_campaign_with(cfg, dirs, scorer, &RunOptions::default())
}

/// Finds the runs, scores each for the outputs of its bundle, writes every output and returns
/// the report. A run that does not fit or fails to score is reported, not fatal; an output
/// whose gold file or map is missing is reported once and not scored, the others are; missing
/// directories, a missing campaign tagset and unwritable outputs are errors.
pub fn run_campaign_with(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    scorer: &Scorer<'_>,
    opts: &RunOptions<'_>,
) -> Result<CampaignReport> {
    let (
        Planned {
            found,
            mut unnamable,
            evaluated,
            not_evaluated,
            ..
        },
        runs_out,
    ) = prepare(cfg, dirs)?;
    let mut jobs: Vec<(usize, ScoreJob)> = found
        .runs
        .iter()
        .enumerate()
        .flat_map(|(i, run)| {
            jobs_for_run(cfg, dirs, run)
                .into_iter()
                .filter(|j| {
                    !not_evaluated
                        .iter()
                        .any(|n| n.dataset == j.dataset && n.lang == j.lang && n.output == j.output)
                })
                .map(move |j| (i, j))
        })
        .collect();
    // Replaying: a run whose replayed output file is missing keeps its other outputs (only the
    // tables that need the missing one lack it, as when an output cannot be scored).
    let mut unreplayed: Vec<(usize, String)> = Vec::new();
    if let Some(dir) = &opts.replay_dir {
        jobs.retain(|(i, j)| match missing_replay(dir, j) {
            Some(why) => {
                unreplayed.push((*i, format!("{}: {why}", j.output)));
                false
            }
            None => true,
        });
    }
    let order = plan(&mut jobs);
    let mut golds: Vec<PathBuf> = jobs.iter().map(|(_, j)| j.gold_path.clone()).collect();
    golds.sort();
    golds.dedup();

    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let score_one = |(_, job): &(usize, ScoreJob)| -> Result<JobResult> {
        let result = score_and_write(job, scorer, &runs_out);
        if let Some(p) = opts.progress {
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            p(&Progress {
                done: n,
                total,
                job: &job.output_stem(),
            });
        }
        result
    };
    // Scored in `order`, collected back in job order.
    let score_all = || -> Vec<(usize, Result<JobResult>)> {
        order
            .par_iter()
            .map(|&i| (i, score_one(&jobs[i])))
            .collect()
    };
    let mut scored_jobs = match opts.threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::usage(format!("cannot start {n} threads: {e}")))?
            .install(score_all),
        None => score_all(),
    };
    scored_jobs.sort_by_key(|(i, _)| *i);
    let results = scored_jobs.into_iter().map(|(_, r)| r);

    // Output errors are fatal; anything else fails only its run.
    let mut written: HashSet<String> = HashSet::new();
    let mut per_run: Vec<RunSlot> = found.runs.iter().map(|_| RunSlot::default()).collect();
    for (i, why) in unreplayed {
        per_run[i].missing.push(why);
    }
    for ((run_idx, job), result) in jobs.iter().zip(results) {
        let slot = &mut per_run[*run_idx];
        match result {
            Ok(r) => {
                written.extend(r.files);
                slot.outputs.push((job.output.clone(), r.rows));
                if let Some(f) = r.fair {
                    slot.fair.push((job.output.clone(), f));
                }
            }
            Err(e @ Error::Output { .. }) => return Err(e),
            Err(e) => slot.errors.push(format!("{}: {e}", job.output)),
        }
    }
    let mut scored = Vec::new();
    let mut failed = Vec::new();
    for (run, mut slot) in found.runs.into_iter().zip(per_run) {
        // A run none of whose outputs could be replayed has nothing to show: it failed (and a
        // failed run lists what it lacks with its errors).
        if slot.outputs.is_empty() || !slot.errors.is_empty() {
            slot.errors.append(&mut slot.missing);
        }
        if slot.errors.is_empty() {
            scored.push(ScoredRun {
                run,
                outputs: slot.outputs,
                fair: slot.fair,
                missing: slot.missing,
            });
        } else {
            failed.push(FailedRun {
                run,
                errors: slot.errors,
            });
        }
    }

    failed.append(&mut unnamable);
    let parts = Parts {
        rejected: found.rejected,
        ignored: found.ignored,
        scored,
        failed,
        not_evaluated,
        evaluated,
        written,
        jobs: total,
        golds,
    };
    write_reports(
        cfg,
        dirs,
        opts.replay_dir.as_deref(),
        parts,
        &crate::family::sign::file_hash,
    )
}

#[derive(Default)]
struct RunSlot {
    outputs: Vec<(String, Vec<ScoreRow>)>,
    fair: Vec<(String, ConfusionMatrix)>,
    errors: Vec<String>,
    missing: Vec<String>,
}

/// Why a job cannot be replayed from `dir`: its `.tsv` or `.json` is not a regular file there
/// (what [`super::job::replay_scorer`] reads).
fn missing_replay(dir: &Path, job: &ScoreJob) -> Option<String> {
    let stem = job.output_stem();
    ["tsv", "json"].into_iter().find_map(|ext| {
        let p = dir.join(format!("{stem}.{ext}"));
        match std::fs::metadata(&p) {
            Ok(m) if m.is_file() => None,
            Ok(_) => Some(format!("{} is not a regular file", p.display())),
            Err(_) => Some(format!("{} not found", p.display())),
        }
    })
}

struct JobResult {
    rows: Vec<ScoreRow>,
    fair: Option<ConfusionMatrix>,
    /// Names of the files written.
    files: Vec<String>,
}

fn score_and_write(job: &ScoreJob, scorer: &Scorer<'_>, out: &Path) -> Result<JobResult> {
    let output = scorer(job)?;
    for (name, _) in &output.files {
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return Err(Error::output(
                &out.join(name),
                "the scorer returned a file name that is not a plain file name",
            ));
        }
    }
    for (name, bytes) in &output.files {
        write_atomic(&out.join(name), bytes)?;
    }
    Ok(JobResult {
        rows: output.rows,
        fair: output.fair.map(|m| m.compact(super::confusion::TOP_LABELS)),
        files: output.files.into_iter().map(|(n, _)| n).collect(),
    })
}

/// The jobs of a run, in its bundle's order.
pub fn jobs_for_run(cfg: &Campaign, dirs: &CampaignDirs, run: &RunInfo) -> Vec<ScoreJob> {
    let map = cfg
        .datasets
        .get(run.dataset.as_str())
        .and_then(|d| d.map.as_ref());
    cfg.outputs_of(&run.bundle)
        .map(|(name, spec)| ScoreJob {
            run_path: run.path.clone(),
            run_name: run.name.clone(),
            output: name.to_string(),
            dataset: run.dataset.clone(),
            lang: run.lang.clone(),
            gold_path: dirs.gold.join(cfg.gold_file(spec, &run.dataset, &run.lang)),
            task: spec.task,
            suffix: spec.suffix.as_ref().map(|s| s.to_string()),
            n_best: spec.n_best.clone(),
            tagset: cfg
                .tagset_file(spec)
                .map(|t| dirs.resources.join(t.as_str())),
            edition: cfg.edition,
            normalize_map: map
                .filter(|_| spec.normalize)
                .map(|m| dirs.resources.join(m.as_str())),
            fair: cfg.fair,
            run_uses: 0,
            gold_uses: 0,
        })
        .collect()
}

/// Fills each job's `run_uses` and `gold_uses` (how many jobs read its run as it is, and its
/// gold file),
/// and returns the order to score them in: by gold file, then in job order, so that a gold
/// and the runs scored against it are needed for a short stretch only.
fn plan(jobs: &mut [(usize, ScoreJob)]) -> Vec<usize> {
    let mut runs: std::collections::HashMap<PathBuf, usize> = Default::default();
    let mut golds: std::collections::HashMap<PathBuf, usize> = Default::default();
    // A run normalized for its job is read for that job alone: not counted.
    for (_, j) in jobs.iter() {
        if j.normalize_map.is_none() {
            *runs.entry(j.run_path.clone()).or_default() += 1;
        }
        *golds.entry(j.gold_path.clone()).or_default() += 1;
    }
    for (_, j) in jobs.iter_mut() {
        j.run_uses = match j.normalize_map {
            None => runs.get(&j.run_path).copied().unwrap_or(0),
            Some(_) => 0,
        };
        j.gold_uses = golds.get(&j.gold_path).copied().unwrap_or(0);
    }
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| {
        jobs[a]
            .1
            .gold_path
            .cmp(&jobs[b].1.gold_path)
            .then(a.cmp(&b))
    });
    order
}
