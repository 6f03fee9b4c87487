//! A family campaign's ranking of one task on one group's gold, from its runs' scorings, with
//! its signature.

use std::collections::BTreeMap;
use std::path::Path;

use super::super::family::{rank_scored, ranking_results};
use super::{
    best_per_team, clash, score, stem, FailedScoring, FamilyCampaign, FamilyTask, TaskRanking,
};
use crate::error::Result;

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
