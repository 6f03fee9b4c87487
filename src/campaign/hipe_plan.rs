//! What a HIPE campaign starts from, before any scoring: the runs its run pattern finds in
//! the runs directory ([`Planned`]), the datasets and languages evaluated, and the outputs an
//! input of which (gold file, QID map, tag set) is missing ([`NotEvaluated`]).

use std::path::{Path, PathBuf};

use super::config::{Campaign, CampaignDirs, Name, TaskSpec};
use super::discover::{discover, Discovery, RunInfo};
use super::outcome::{FailedRun, NotEvaluated};
use super::outdir;
use crate::{Error, Result};

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

pub(super) fn plan(cfg: &Campaign, dirs: &CampaignDirs) -> Result<Planned> {
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

pub(super) fn skipped(not_evaluated: &[NotEvaluated], run: &RunInfo, output: &str) -> bool {
    not_evaluated
        .iter()
        .any(|n| n.dataset == run.dataset && n.lang == run.lang && n.output == output)
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
