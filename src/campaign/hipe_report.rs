//! The reports of a HIPE campaign: the ranking files, their intervals and marks (`.ci.tsv`),
//! the board, `leaderboard.md`, `leaderboard.tex` and `index.html`, made from the typed rows
//! of each run's outputs that an [`super::OfficialRuns`] kept: as the family engine scored
//! them ([`score_official`], [`official_report`]), or as they were given (`super::replay`:
//! `--replay DIR`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::config::{Campaign, CampaignDirs, Name, TaskSpec};
use super::discover::{discover, Discovery, Rejected, RunInfo};
use super::families::insight::{inspectable, official_pages};
use super::families::{
    run_family_campaign_with, CampaignHooks, FamilyCampaign, FamilyReport, FamilyTask,
};
use super::official::OfficialRuns;
use super::outcome::{
    CampaignReport, FailedRun, NotEvaluated, OfficialPages, RankingFile, ScoredRun,
};
use super::outdir;
use super::ranking::{rank, ranking_file_name, ranking_text, RankingInput};
use crate::family::{Inputs, Statistics};
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

/// What the scoring of a HIPE campaign gave, before the reports are written.
pub(super) struct Parts {
    /// Files of the runs directory that are not runs.
    pub rejected: Vec<Rejected>,
    /// Files of another extension.
    pub ignored: Vec<String>,
    /// Runs scored, by file name.
    pub scored: Vec<ScoredRun>,
    /// Runs that failed (any order: sorted here).
    pub failed: Vec<FailedRun>,
    /// Outputs not evaluated.
    pub not_evaluated: Vec<NotEvaluated>,
    /// The datasets and languages evaluated ([`evaluated_pairs`]).
    pub evaluated: Vec<(String, String)>,
    /// The files written under `runs/`.
    pub written: HashSet<String>,
    /// Score jobs run.
    pub jobs: usize,
    /// The gold files scored against, sorted.
    pub golds: Vec<PathBuf>,
}

/// Writes the ranking files, the marks, `leaderboard.md`, `leaderboard.tex` and `index.html`
/// of a HIPE campaign from `parts`, removes the outputs of earlier invocations that this one
/// did not write, and returns the report; the rows link the runs' `inspect` pages `pages`
/// (written before).
fn write_reports(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    replay: Option<&Path>,
    parts: Parts,
    hash: &super::sign::Hasher<'_>,
    pages: OfficialPages,
) -> Result<CampaignReport> {
    let Parts {
        rejected,
        ignored,
        scored,
        mut failed,
        mut not_evaluated,
        evaluated,
        written,
        jobs,
        golds,
    } = parts;
    failed.sort_by(|a, b| a.run.file_name.as_bytes().cmp(b.run.file_name.as_bytes()));
    let runs_out = dirs.outdir.join("runs");
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
        rejected,
        ignored,
        not_evaluated,
        rankings,
        jobs,
        run_files: written.len(),
        removed,
        inspect: pages,
    };
    let names = super::board::InputNames::new(dirs, replay);
    let mut board = super::board::build_and_write_marks(cfg, &report, &names, &rankings_dir)?;
    board.signature = super::sign::hipe_signature(cfg, &report, &golds, hash)?.to_string();
    for (subject, why) in &report.inspect.failed {
        board.skipped.push(crate::report::board::Notice {
            subject: subject.clone(),
            reason: format!("no inspect page: {why}"),
        });
    }
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

/// Scores the HIPE campaign `cfg` (`file` names it in messages) on the family engine
/// ([`FamilyCampaign::from_hipe`], [`run_family_campaign_with`]) and writes every output of
/// `dirs.outdir`: the official per-run files in `runs/` as each run is scored, then the
/// rankings, marks and pages ([`official_report`]). `progress` is called after each run and
/// output scored. A run that does not fit or fails to score is reported, not fatal; an
/// output whose gold file, QID map or tagset is missing is reported once and not scored;
/// missing directories, a missing campaign tagset and unwritable outputs are errors.
pub fn score_official(
    cfg: &Campaign,
    file: &Path,
    dirs: &CampaignDirs,
    progress: Option<&(dyn Fn(&Progress<'_>) + Sync)>,
) -> Result<CampaignReport> {
    let (planned, runs_out) = prepare(cfg, dirs)?;
    let mut fam = FamilyCampaign::hipe_tasks(cfg, file, &dirs.resources, &dirs.gold, true)?;
    // `inspect`: a page per run of every NERC output (families::insight).
    for t in fam
        .tasks
        .iter_mut()
        .filter(|t| cfg.inspect && inspectable(t))
    {
        t.insight.inspect = true;
    }
    // The intervals and marks are the HIPE tables' (`write_reports`): the family engine's own
    // resampling of each task would be computed for nothing.
    fam.bootstrap = None;
    let official = OfficialRuns::new(Some(&runs_out))?;
    // The files' content hashes, computed once as they are scored, serve the signature too.
    let shared = Inputs::new();
    let done = AtomicUsize::new(0);
    let on_scored = |t: &FamilyTask, s: &str, r: &Path, st: &mut Statistics| {
        let out = official.scored(t, s, r, st);
        if let (Some(p), Some(o)) = (progress, &t.official) {
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            p(&Progress {
                done: n,
                total: planned.jobs.max(n),
                job: &format!("{s}_{}", o.output),
            });
        }
        out
    };
    let hooks = CampaignHooks {
        on_scored: Some(&on_scored),
        headline_only: true,
        inputs: Some(&shared),
        ..CampaignHooks::default()
    };
    let report = match fam.tasks.is_empty() {
        true => FamilyReport::default(),
        false => run_family_campaign_with(&fam, &dirs.gold, &dirs.runs, &hooks)?,
    };
    let hash = |p: &Path| shared.file_hash(p);
    let lack = |run: &RunInfo, _: &str| failed(&report, run);
    let pages = official_pages(&dirs.outdir, &fam, &report)?;
    let outputs = Outputs {
        official: &official,
        lack: &lack,
        pages,
    };
    report_planned(cfg, dirs, None, planned, outputs, &hash)
}

/// The runs' outputs as scored or given: the rows `official` kept, why an output has none
/// (`lack`), and the `inspect` pages written for them.
pub(super) struct Outputs<'a> {
    pub official: &'a OfficialRuns,
    pub lack: &'a dyn Fn(&RunInfo, &str) -> Lack,
    pub pages: OfficialPages,
}

/// Why an output of a run has no rows.
#[derive(Clone)]
pub(super) enum Lack {
    /// Its scoring (or reading) failed: the run fails.
    Failed(String),
    /// Its replayed files are not there: only the tables that need the output lack the run.
    Missing(String),
}

/// Why `run` has no rows in a scored campaign: its scoring failed, or it was not scored.
fn failed(report: &FamilyReport, run: &RunInfo) -> Lack {
    let why = report
        .failed
        .iter()
        .find(|(f, _)| *f == run.file_name)
        .map(|(_, e)| e.as_str())
        .unwrap_or("not scored");
    Lack::Failed(why.to_string())
}

/// The runs of a HIPE campaign as its run pattern finds them, before any scoring.
pub(super) struct Planned {
    pub found: Discovery,
    /// Runs whose name cannot name their output files.
    pub unnamable: Vec<FailedRun>,
    pub evaluated: Vec<(String, String)>,
    pub not_evaluated: Vec<NotEvaluated>,
    /// (run, output) pairs to score.
    pub jobs: usize,
}

impl Planned {
    /// The (run, output name, output) triples to score, in run and bundle order.
    pub fn outputs<'a>(&'a self, cfg: &'a Campaign) -> Vec<(&'a RunInfo, &'a Name, &'a TaskSpec)> {
        self.found
            .runs
            .iter()
            .flat_map(|run| {
                cfg.outputs_of(&run.bundle)
                    .filter(|(name, _)| !skipped(&self.not_evaluated, run, name.as_str()))
                    .map(move |(name, spec)| (run, name, spec))
            })
            .collect()
    }
}

/// What scoring a HIPE campaign and replaying one start from: the input directories and the
/// campaign's tagset checked (missing ones are errors), the runs found ([`Planned`]), then
/// `OUTDIR/runs/` created, returned, and the temporary files an earlier campaign that was
/// killed left there removed (SIGKILL leaves them), as `score` removes them.
pub(super) fn prepare(cfg: &Campaign, dirs: &CampaignDirs) -> Result<(Planned, PathBuf)> {
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
    let planned = plan(cfg, dirs)?;
    let runs_out = dirs.outdir.join("runs");
    outdir::create_dir(&runs_out)?;
    for d in [&dirs.outdir, &runs_out, &dirs.outdir.join("rankings")] {
        crate::io::remove_stale_temp_files(d);
    }
    Ok((planned, runs_out))
}

fn plan(cfg: &Campaign, dirs: &CampaignDirs) -> Result<Planned> {
    let mut found = discover(cfg, &dirs.runs)?;
    drop_own_reports(&mut found, dirs);
    let mut unnamable: Vec<FailedRun> = Vec::new();
    found
        .runs
        .retain(|run| match super::names::check_plain(&run.name, false) {
            Ok(()) => true,
            Err(why) => {
                unnamable.push(FailedRun {
                    run: run.clone(),
                    errors: vec![unnamable_message(&why)],
                });
                false
            }
        });
    let evaluated = evaluated_pairs(cfg, dirs, &found.runs);
    let not_evaluated = missing_inputs(cfg, dirs, &evaluated, &found.runs);
    let mut planned = Planned {
        found,
        unnamable,
        evaluated,
        not_evaluated,
        jobs: 0,
    };
    planned.jobs = planned.outputs(cfg).len();
    Ok(planned)
}

/// Why a run whose name cannot name its output files fails.
fn unnamable_message(why: &str) -> String {
    format!("the run's name {why}: it cannot become the name of its output files; rename the file")
}

/// An output directory that is the runs directory: its own reports are not runs.
fn drop_own_reports(found: &mut Discovery, dirs: &CampaignDirs) {
    let own = |n: &str| matches!(n, "leaderboard.md" | "leaderboard.tex" | "index.html");
    if same_dir(&dirs.runs, &dirs.outdir) {
        found.rejected.retain(|r| !own(&r.file_name));
        found.ignored.retain(|n| !own(n));
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn skipped(not_evaluated: &[NotEvaluated], run: &RunInfo, output: &str) -> bool {
    not_evaluated
        .iter()
        .any(|n| n.dataset == run.dataset && n.lang == run.lang && n.output == output)
}

/// The reports of the HIPE campaign `cfg` run on the family engine: `report` is what its
/// campaign of `hipe` tasks ([`FamilyCampaign::from_hipe`]) gave and `official` the rows
/// (and per-run files) its runs' official outputs had. The runs are those of the campaign's
/// run pattern in `dirs.runs`, each with the outputs of its bundle that could be evaluated;
/// the ranking files, marks, board, `leaderboard.md`, `.tex` and `index.html` are written as
/// [`score_official`] writes them.
pub fn official_report(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    report: &FamilyReport,
    official: &OfficialRuns,
) -> Result<CampaignReport> {
    let planned = plan(cfg, dirs)?;
    let shared = Inputs::new();
    let hash = |p: &Path| shared.file_hash(p);
    let lack = |run: &RunInfo, _: &str| failed(report, run);
    let outputs = Outputs {
        official,
        lack: &lack,
        pages: OfficialPages::default(),
    };
    report_planned(cfg, dirs, None, planned, outputs, &hash)
}

/// The reports of the runs `planned`, each output with the rows `outputs` kept, or without
/// them for the reason they give (`replay`: the directory the outputs were read from, named in
/// the reports; `hash`: the files' content hashes for the signature).
pub(super) fn report_planned(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    replay: Option<&Path>,
    planned: Planned,
    outputs: Outputs<'_>,
    hash: &super::sign::Hasher<'_>,
) -> Result<CampaignReport> {
    let Outputs {
        official,
        lack,
        pages,
    } = outputs;
    if let Some(e) = official.fatal() {
        return Err(e);
    }
    let Planned {
        found,
        unnamable: mut failed,
        evaluated,
        not_evaluated,
        mut jobs,
    } = planned;
    let mut golds: Vec<PathBuf> = Vec::new();
    let mut scored = Vec::new();
    for run in found.runs {
        let mut outputs = Vec::new();
        let mut fair = Vec::new();
        let mut errors: Vec<String> = Vec::new();
        let mut missing: Vec<String> = Vec::new();
        for (name, spec) in cfg.outputs_of(&run.bundle) {
            if skipped(&not_evaluated, &run, name.as_str()) {
                continue;
            }
            let gold = dirs.gold.join(cfg.gold_file(spec, &run.dataset, &run.lang));
            match official.scored_rows(&run.name, name.as_str()) {
                Some(rows) => {
                    golds.push(gold);
                    outputs.push((name.to_string(), rows));
                    if let Some(m) = official.fair(&run.name, name.as_str()) {
                        fair.push((name.to_string(), m));
                    }
                }
                None => match lack(&run, name.as_str()) {
                    Lack::Failed(why) => {
                        golds.push(gold);
                        errors.push(format!("{name}: {why}"));
                    }
                    Lack::Missing(why) => missing.push(format!("{name}: {why}")),
                },
            }
        }
        // An output not there was not scored; a run with none of its outputs has nothing to
        // show: it fails (and a failed run lists what it lacks with its errors).
        jobs -= missing.len();
        if outputs.is_empty() || !errors.is_empty() {
            errors.append(&mut missing);
        }
        if errors.is_empty() {
            scored.push(ScoredRun {
                run,
                outputs,
                fair,
                missing,
            });
        } else {
            failed.push(FailedRun { run, errors });
        }
    }
    golds.sort();
    golds.dedup();
    let parts = Parts {
        rejected: found.rejected,
        ignored: found.ignored,
        scored,
        failed,
        not_evaluated,
        evaluated,
        written: official.files().into_iter().collect(),
        jobs,
        golds,
    };
    write_reports(cfg, dirs, replay, parts, hash, pages)
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
