//! The reports of a HIPE campaign: the ranking files, their intervals and marks (`.ci.tsv`),
//! the board, `leaderboard.md`, `leaderboard.tex` and `index.html`, made from the typed rows
//! of each run's outputs that an [`super::OfficialRuns`] kept: as the family engine scored
//! them ([`score_official`], [`official_report`]), or as they were given (`super::replay`:
//! `--replay DIR`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::config::{Campaign, CampaignDirs};
use super::discover::{Rejected, RunInfo};
use super::families::insight::official_pages;
use super::families::{
    run_family_campaign_with, CampaignHooks, FamilyCampaign, FamilyReport, FamilyTask,
};
use super::hipe_plan::{plan, prepare, skipped, Planned};
use super::official::OfficialRuns;
use super::outcome::{
    CampaignReport, FailedRun, NotEvaluated, OfficialPages, RankingFile, ScoredRun,
};
use super::outdir;
use super::ranking::{rank, ranking_file_name, ranking_text, RankingInput};
use crate::family::{Inputs, Statistics};
use crate::io::write_atomic;
use crate::{Error, Result};

/// The folder of the runs' breakdown JSON (`RUN_OUTPUT.json`) in the output directory.
pub const BREAKDOWNS: &str = "breakdown";

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
    /// The datasets and languages evaluated (`hipe_plan::evaluated_pairs`).
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
    if replay.is_none() {
        let name = |p: &str| names.name(p);
        let unbroken = super::hipe_breakdowns::missing_train(cfg, dirs, &evaluated, &name);
        board.skipped.extend(unbroken);
    }
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
    // `inspect`: a page per run of every NERC output, set by `hipe_tasks` (families::insight).
    let mut fam = FamilyCampaign::hipe_tasks(cfg, file, &dirs.resources, &dirs.gold, true)?;
    // The intervals and marks are the HIPE tables' (`write_reports`): the family engine's own
    // resampling of each task would be computed for nothing; a breakdown's intervals are
    // made as its run is scored (`OfficialRuns::with_breakdowns`).
    fam.bootstrap = None;
    let breakdowns = dirs.outdir.join(BREAKDOWNS);
    let official = OfficialRuns::new(Some(&runs_out))?.with_breakdowns(&breakdowns, cfg.bootstrap);
    // The files' content hashes, computed once as they are scored, serve the signature too.
    let shared = Inputs::new();
    let done = AtomicUsize::new(0);
    let on_scored = |t: &FamilyTask, s: &str, files: [&Path; 2], st: &mut Statistics| {
        let out = official.scored(t, s, files, st, Some(&shared));
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
        .find(|f| f.file == run.file_name)
        .map(|f| f.reason.as_str())
        .unwrap_or("not scored");
    Lack::Failed(why.to_string())
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
        let mut breakdowns = Vec::new();
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
                    let column = cfg.edition.columns(spec.task).first().map(|c| c.0);
                    if let (Some(b), Some(c)) = (official.breakdown(&run.name, name), column) {
                        breakdowns.push((name.to_string(), c.to_string(), b));
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
                breakdowns,
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
