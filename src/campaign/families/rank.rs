//! A family campaign's ranking of one task on one group's gold, from its runs' scorings, with
//! its signature.

use std::collections::BTreeMap;
use std::path::Path;

use super::super::family::{rank_scored, ranking_results};
use super::{
    best_per_team, clash, score, stem, FamilyCampaign, FamilyReport, FamilyTask, Groups,
    TaskRanking,
};
use crate::error::Result;

/// A scoring of a run for a task that failed (issue 46.12: a run of several tasks fails once
/// per task).
#[derive(Debug, Clone, PartialEq)]
pub struct FailedScoring {
    /// The run's file name.
    pub file: String,
    /// The task's ranking it was left out of (the task's name, then each group value:
    /// `ner-de`, as the ranking file's stem).
    pub task: String,
    /// Why, in one line.
    pub reason: String,
}

impl FamilyReport {
    /// How many runs (files) failed for some task: a run is counted once however many of
    /// its scorings failed.
    pub fn failed_runs(&self) -> usize {
        let files: std::collections::BTreeSet<&str> =
            self.failed.iter().map(|f| f.file.as_str()).collect();
        files.len()
    }

    /// How many runs (systems) are ranked in some table, each once.
    pub fn ranked_runs(&self) -> usize {
        let systems: std::collections::BTreeSet<&str> = self
            .rankings
            .iter()
            .flat_map(|r| r.ranking.runs.iter().map(|x| x.system.as_str()))
            .collect();
        systems.len()
    }
}

/// What became of a task on one group's gold: the runs that failed (file, error) and the
/// ranking of the others, if any.
pub(super) type Outcome = (Vec<FailedScoring>, Option<TaskRanking>);

/// The ranking of task `t` on one group's gold from its runs' scorings, and the runs that
/// failed (file, error): those are reported, the others ranked.
pub(super) fn rank_group(
    cfg: &FamilyCampaign,
    t: &FamilyTask,
    group: &[(String, String)],
    runs: &clash::Runs,
    scored: Vec<score::Scored>,
    gold_dir: &Path,
    shared: &crate::family::Inputs,
) -> Result<Outcome> {
    let gold = score::gold_path(t, gold_dir, group);
    let mut failed = Vec::new();
    let mut ok = Vec::new();
    let mut run_hashes = BTreeMap::new();
    let mut run_files = BTreeMap::new();
    for (system, path, st) in scored {
        match st {
            Ok((s, h)) => {
                run_hashes.insert(system.clone(), h);
                run_files.insert(system, path);
                ok.push(s);
            }
            Err(e) => failed.push(FailedScoring {
                file: path
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                task: stem(&t.name, group),
                reason: e.to_string(),
            }),
        }
    }
    if ok.is_empty() {
        return Ok((failed, None));
    }
    let ranking = rank_scored(
        t.family.as_ref(),
        ok,
        Some(t.headline.clone()),
        cfg.bootstrap.as_ref(),
    )?;
    let teams: BTreeMap<String, String> = runs
        .iter()
        .map(|(system, _, team)| (system.clone(), team.clone()))
        .collect();
    let mut results = ranking_results(t.family.as_ref(), &ranking);
    results.tables.push(best_per_team(&ranking, &teams));
    let signature = task_signature(t, cfg, results.unit, &shared.file_hash(&gold)?, &run_hashes)?;
    results.signature = Some(signature.clone());
    let ranking = TaskRanking {
        task: t.name.clone(),
        family: t.family.name().to_string(),
        group: group.to_vec(),
        gold,
        ranking,
        results,
        teams,
        signature,
        run_hashes,
        run_files,
        results_written: false,
    };
    Ok((failed, Some(ranking)))
}

/// The signature of a family task's ranking: the family signature with `runs` (how many)
/// and `run`, one hash over the runs' names and hashes.
fn task_signature(
    t: &FamilyTask,
    cfg: &FamilyCampaign,
    unit: crate::table::Unit,
    gold_hash: &str,
    run_hashes: &BTreeMap<String, String>,
) -> Result<crate::table::Signature> {
    use crate::family::sign;
    let mut sig = sign::head(t.family.as_ref());
    let resampled = cfg.bootstrap.as_ref().map(|r| sign::Resampled {
        resampler: r,
        unit,
        test: Some(crate::metrics::resample::PairedTest::Permutation),
    });
    sign::resampling_fields(resampled, &mut sig);
    sig.push("gold", gold_hash);
    let items: Vec<(String, String)> = run_hashes
        .iter()
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect();
    sig.push("runs", items.len().to_string());
    sig.push("run", sign::set_hash(&items));
    sig.push("version", env!("CARGO_PKG_VERSION"));
    Ok(sig)
}

/// Refuses, before any run is scored, a task whose `rank_by` names no column of its family's
/// headline table (issue 46.16: with no runs it was never checked): an input error at the
/// line of `rank_by`, listing the columns there are. The table's shape does not depend on
/// the run, so the task's gold (of its first group with runs, else the first gold file its
/// pattern fits) is scored against itself; a task ranked by its family's own headline column
/// needs no check, and a gold that cannot be read is left to the runs to report.
pub(super) fn check_rank_by(
    cfg: &FamilyCampaign,
    gold_dir: &Path,
    per_task: &[Groups],
) -> Result<()> {
    let mut names: Option<Vec<String>> = None;
    for (t, groups) in cfg.tasks.iter().zip(per_task) {
        let h = &t.headline;
        if h.column == t.family.headline().column {
            continue;
        }
        let gold = match groups.keys().next() {
            Some(group) => score::gold_path(t, gold_dir, group),
            None => {
                let names = names.get_or_insert_with(|| {
                    crate::campaign::codabench::gold_names(gold_dir).unwrap_or_default()
                });
                match names.iter().find(|n| !t.gold.matches(n).is_empty()) {
                    Some(n) => gold_dir.join(n),
                    None => continue,
                }
            }
        };
        let Ok(results) = crate::family::evaluate(t.family.as_ref(), &gold, &gold, None) else {
            continue;
        };
        crate::campaign::codabench::ranked_column(cfg, t, &results)?;
    }
    Ok(())
}
