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
use super::discover::{discover, RunInfo};
use super::job::{CampaignDirs, ScoreJob, Scorer};
use super::outcome::{CampaignReport, FailedRun, NotEvaluated, RankingFile, ScoredRun};
use super::outdir;
use super::ranking::{rank, ranking_file_name, ranking_text, RankingInput};
use super::rows::ScoreRow;
use crate::io::write_atomic;
use crate::{Error, Result};

/// Progress of the scoring, reported after each job.
#[derive(Debug, Clone)]
pub struct Progress<'a> {
    /// Jobs finished so far.
    pub done: usize,
    /// Jobs in all.
    pub total: usize,
    /// The output stem of the job just finished.
    pub job: &'a str,
}

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
    for (dir, what) in [(&dirs.gold, "gold"), (&dirs.resources, "resources")] {
        if !dir.is_dir() {
            return Err(Error::input(dir, 0, format!("{what} directory not found")));
        }
    }
    if let Some(t) = &cfg.tagset {
        let p = dirs.resources.join(t.as_str());
        if !p.is_file() {
            return Err(Error::input(&p, 0, "resource file not found"));
        }
    }
    let mut found = discover(cfg, &dirs.runs)?;
    // An output directory that is the runs directory: its own reports are not runs.
    if same_dir(&dirs.runs, &dirs.outdir) {
        found.rejected.retain(|r| {
            !matches!(
                r.file_name.as_str(),
                "leaderboard.md" | "leaderboard.tex" | "index.html"
            )
        });
        found.ignored.retain(|n| {
            !matches!(
                n.as_str(),
                "leaderboard.md" | "leaderboard.tex" | "index.html"
            )
        });
    }
    // A run whose name cannot become the name of its output files (a `\\`, a control
    // character, too long) fails alone, before anything of it is scored or written.
    let mut unnamable: Vec<FailedRun> = Vec::new();
    found
        .runs
        .retain(|run| match super::names::check_plain(&run.name, false) {
            Ok(()) => true,
            Err(why) => {
                unnamable.push(FailedRun {
                    run: run.clone(),
                    errors: vec![format!(
                        "the run's name {why}: it cannot become the name of its output files; \
                     rename the file"
                    )],
                });
                false
            }
        });
    let evaluated = evaluated_pairs(cfg, dirs, &found.runs);
    let mut not_evaluated = missing_inputs(cfg, dirs, &evaluated, &found.runs);
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
    let runs_out = dirs.outdir.join("runs");
    outdir::create_dir(&runs_out)?;
    // Temporary files of an earlier campaign that was killed (SIGKILL leaves them): removed
    // as `score` removes them from its output directory.
    for d in [&dirs.outdir, &runs_out, &dirs.outdir.join("rankings")] {
        crate::io::remove_stale_temp_files(d);
    }

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
    failed.sort_by(|a, b| a.run.file_name.as_bytes().cmp(b.run.file_name.as_bytes()));
    let rankings_dir = dirs.outdir.join("rankings");
    let rankings = write_rankings(cfg, &evaluated, &scored, &mut not_evaluated, &rankings_dir)?;
    let mut removed = outdir::remove_stale_runs(cfg, &runs_out, &written)?;
    let ranking_names: HashSet<String> = rankings.iter().map(|r| r.file_name.clone()).collect();
    removed.extend(outdir::remove_stale_rankings(
        &rankings_dir,
        &ranking_names,
    )?);
    let report = CampaignReport {
        campaign: cfg.name.clone(),
        edition: cfg.edition,
        scored,
        failed,
        rejected: found.rejected,
        ignored: found.ignored,
        not_evaluated,
        rankings,
        jobs: total,
        run_files: written.len(),
        removed,
    };
    let names = super::board::InputNames::new(dirs, opts.replay_dir.as_deref());
    let mut board = super::board::build_and_write_marks(cfg, &report, &names, &rankings_dir)?;
    board.signature = super::sign::hipe_signature(cfg, &report, &golds)?.to_string();
    let md = crate::report::markdown::render(&board);
    write_atomic(&dirs.outdir.join("leaderboard.md"), md.as_bytes())?;
    let tex = crate::report::latex::render(&board);
    write_atomic(&dirs.outdir.join("leaderboard.tex"), tex.as_bytes())?;
    // The HTML page needs the template engine (feature `html`, on by default).
    #[cfg(feature = "html")]
    {
        let html = crate::report::html::render(&board)?;
        write_atomic(&dirs.outdir.join("index.html"), html.as_bytes())?;
    }
    Ok(report)
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

fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
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

/// The datasets and languages evaluated here, in campaign order: those whose gold file is
/// present or that have runs. (A preset names every dataset of its campaign; a gold directory
/// may hold only some of them.)
fn evaluated_pairs(cfg: &Campaign, dirs: &CampaignDirs, runs: &[RunInfo]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (dataset, ds) in &cfg.datasets {
        for lang in &ds.languages {
            let gold = super::config::fill_gold(&cfg.gold_pattern, dataset, lang);
            let submitted = runs
                .iter()
                .any(|r| r.dataset == dataset.as_str() && r.lang == lang.as_str());
            if submitted || dirs.gold.join(&gold).is_file() {
                out.push((dataset.to_string(), lang.to_string()));
            }
        }
    }
    out
}

/// Outputs that some run needs but that cannot be evaluated for a dataset and language: an
/// input of theirs (gold file, QID map, per-output tagset) is missing or not a regular file.
/// One entry each, however many runs need it.
fn missing_inputs(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    pairs: &[(String, String)],
    runs: &[RunInfo],
) -> Vec<NotEvaluated> {
    let mut out = Vec::new();
    for (dataset, lang) in pairs {
        let map = cfg
            .datasets
            .get(dataset.as_str())
            .and_then(|d| d.map.as_ref());
        for (name, spec) in &cfg.tasks {
            let mut inputs = vec![(
                "gold file",
                dirs.gold.join(cfg.gold_file(spec, dataset, lang)),
            )];
            if let (true, Some(m)) = (spec.normalize, map) {
                inputs.push(("QID map", dirs.resources.join(m.as_str())));
            }
            if let Some(t) = cfg.tagset_file(spec) {
                inputs.push(("tagset", dirs.resources.join(t.as_str())));
            }
            let missing = inputs.into_iter().find_map(|(what, p)| {
                let reason = match std::fs::metadata(&p) {
                    Ok(m) if m.is_file() => return None,
                    Ok(_) => "not a regular file",
                    Err(_) => "not found",
                };
                Some((what, p, reason))
            });
            let needed = runs
                .iter()
                .filter(|r| r.dataset == *dataset && r.lang == *lang)
                .filter(|r| cfg.outputs_of(&r.bundle).any(|(n, _)| n == name))
                .count();
            // Nothing is lost when no run needs the output (its ranking is empty anyway).
            if let (Some((what, path, reason)), true) = (missing, needed > 0) {
                let runs = needed;
                out.push(NotEvaluated {
                    dataset: dataset.clone(),
                    lang: lang.clone(),
                    output: name.to_string(),
                    what: what.to_string(),
                    path,
                    reason: reason.to_string(),
                    runs,
                    rankings: Vec::new(),
                });
            }
        }
    }
    out
}

/// Ranking files for every evaluated dataset and language, except those whose outputs were
/// all not evaluated there (they are named in the [`NotEvaluated`] entries instead).
fn write_rankings(
    cfg: &Campaign,
    pairs: &[(String, String)],
    scored: &[ScoredRun],
    not_evaluated: &mut [NotEvaluated],
    dir: &Path,
) -> Result<Vec<RankingFile>> {
    // A ranking whose filter keeps none of its outputs' rows anywhere: refused before any
    // ranking file is written (it would be header-only everywhere).
    let all: Vec<RankingInput<'_>> = scored
        .iter()
        .map(|r| RankingInput {
            run_name: &r.run.name,
            bundle: &r.run.bundle,
            outputs: &r.outputs,
        })
        .collect();
    for spec in &cfg.rankings {
        if let Some((n, example)) = super::ranking::keeps_nothing(spec, &all) {
            return Err(Error::usage(format!(
                "campaign: ranking {} keeps no row: none of the {n} rows of {} has an Evaluation \
                 that starts with {} and fits its contains/excludes/suffix (a row's Evaluation is \
                 e.g. {}); fix the ranking's filter",
                spec.kind,
                spec.outputs
                    .iter()
                    .map(|o| o.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                spec.prefixes.join(" or "),
                crate::error::snippet(&example),
            )));
        }
    }
    outdir::create_dir(dir)?;
    let mut files = Vec::new();
    for (dataset, lang) in pairs {
        let ids: Vec<usize> = (0..scored.len())
            .filter(|&i| scored[i].run.dataset == *dataset && scored[i].run.lang == *lang)
            .collect();
        let inputs: Vec<RankingInput<'_>> = ids
            .iter()
            .map(|&i| RankingInput {
                run_name: &scored[i].run.name,
                bundle: &scored[i].run.bundle,
                outputs: &scored[i].outputs,
            })
            .collect();
        for (spec_idx, spec) in cfg.rankings.iter().enumerate() {
            let file_name = ranking_file_name(dataset, lang, &spec.kind);
            let missing: Vec<usize> = (0..not_evaluated.len())
                .filter(|&i| {
                    let n = &not_evaluated[i];
                    n.dataset == *dataset
                        && n.lang == *lang
                        && spec.outputs.iter().any(|o| *o == n.output.as_str())
                })
                .collect();
            if !spec.outputs.is_empty() && missing.len() == spec.outputs.len() {
                for i in missing {
                    not_evaluated[i].rankings.push(file_name.clone());
                }
                continue;
            }
            let mut rows = rank(spec, &inputs);
            let text = ranking_text(&inputs, &rows);
            write_atomic(&dir.join(&file_name), text.as_bytes())?;
            for r in &mut rows {
                r.run = ids[r.run];
            }
            files.push(RankingFile {
                dataset: dataset.clone(),
                lang: lang.clone(),
                spec: spec_idx,
                kind: spec.kind.to_string(),
                file_name,
                rows,
            });
        }
    }
    Ok(files)
}
