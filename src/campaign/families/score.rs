//! Scoring every run of a family campaign with each input file read once: the scorings are
//! grouped by run file (a HIPE run is scored for nerc_coarse, nerc_fine and nel, each a task),
//! each run file's scorings done one after the other on one thread, the run files in parallel
//! in the order of their gold files. Parsed golds and runs are shared through
//! [`crate::family::Inputs`] and dropped after their last scoring, so memory follows the files
//! in use, not the campaign's size; content hashes are computed once per file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{FamilyTask, Groups, Placeholder, GOLD_PLACEHOLDERS};
use crate::campaign::family::RunScores;
use crate::error::Result;
use crate::family::Inputs;

/// The inputs' cache and what is done with each run's statistics as it is scored.
pub(super) struct Hooks<'a> {
    pub shared: &'a Inputs,
    pub on_scored: &'a super::OnScored<'a>,
    /// The campaign's resampling: each run's results are made as it is scored, its
    /// statistics kept only for the paired tests.
    pub resampler: Option<&'a crate::metrics::resample::Resampler>,
    /// Where each run's results are written as it is scored (then cut to what the reports
    /// read: [`crate::campaign::family_board::write_run_results`]).
    pub outdir: Option<&'a Path>,
    /// Each run's results cut to the headline row ([`super::CampaignHooks::headline_only`]).
    pub headline_only: bool,
}

/// One run of a task and group scored: (system, run file, its scores and content hash).
pub(super) type Scored = (String, PathBuf, ScoredJob);

/// A run's scores and content hash, or why its scoring failed.
pub(super) type ScoredJob = Result<(RunScores, String)>;

/// The gold file of task `t` for a group of placeholder values.
pub(super) fn gold_path(t: &FamilyTask, gold_dir: &Path, group: &[(String, String)]) -> PathBuf {
    let values: Vec<(Placeholder, &str)> = GOLD_PLACEHOLDERS
        .iter()
        .filter_map(|p| {
            group
                .iter()
                .find(|(n, _)| n == p.as_str())
                .map(|(_, v)| (*p, v.as_str()))
        })
        .collect();
    gold_dir.join(t.gold.fill(&values))
}

/// One scoring: a run of a task's group, against the group's gold.
struct Job<'a> {
    task: &'a FamilyTask,
    /// The task-and-group it belongs to (an index of `at` in [`score_all`]).
    tg: usize,
    /// The stem of the task-and-group's ranking (its runs' result files).
    stem: String,
    gold: PathBuf,
    system: &'a str,
    run: &'a Path,
}

/// A run's results from its statistics, written to the output directory (and cut) when
/// there is one.
fn score_run(j: &Job<'_>, st: crate::family::Statistics, hooks: &Hooks<'_>) -> Result<RunScores> {
    let fam = j.task.family.as_ref();
    let mut run = RunScores::new(fam, j.system.to_string(), st, hooks.resampler)?;
    if let Some(dir) = hooks.outdir {
        crate::campaign::family_board::write_run_results(
            dir,
            j.system,
            &j.stem,
            &mut run.results,
            &j.task.headline,
        )?;
    }
    if hooks.headline_only {
        crate::campaign::family_board::keep_headline(&mut run.results, &j.task.headline);
    }
    Ok(run)
}

/// The root of `i` in a union-find forest.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Scores the runs of every task and non-empty group of `per_task` and hands each task and
/// group to `rank` as soon as its runs are scored: (task, index among the task's non-empty
/// groups, one [`Scored`] per run in the group's order). Tasks and groups that share run files
/// (a HIPE run's nerc_coarse, nerc_fine and nel) are scored together, each run file's
/// scorings one after the other, so that each file is read once; only one such cluster's
/// statistics are held at a time.
pub(super) fn score_all(
    tasks: &[FamilyTask],
    per_task: &[Groups],
    gold_dir: &Path,
    hooks: &Hooks<'_>,
    mut rank: impl FnMut(usize, usize, Vec<Scored>) -> Result<()>,
) -> Result<()> {
    let shared = hooks.shared;
    let mut jobs: Vec<Job<'_>> = Vec::new();
    // Per task and group: (task, index among the task's non-empty groups).
    let mut at: Vec<(usize, usize)> = Vec::new();
    for (k, (t, groups)) in tasks.iter().zip(per_task).enumerate() {
        for (j, (group, runs)) in groups.iter().filter(|(_, r)| !r.is_empty()).enumerate() {
            let gold = gold_path(t, gold_dir, group);
            let stem = super::stem(&t.name, group);
            let tg = at.len();
            at.push((k, j));
            for (system, path, _) in runs {
                jobs.push(Job {
                    task: t,
                    tg,
                    stem: stem.clone(),
                    gold: gold.clone(),
                    system,
                    run: path,
                });
            }
        }
    }
    let mut by_run: BTreeMap<&Path, Vec<usize>> = BTreeMap::new();
    let mut golds: BTreeMap<&Path, usize> = BTreeMap::new();
    for (i, j) in jobs.iter().enumerate() {
        by_run.entry(j.run).or_default().push(i);
        *golds.entry(&j.gold).or_default() += 1;
    }
    for (gold, uses) in golds {
        shared.expect(gold, uses);
    }
    // Clusters: tasks and groups joined by a run file they share.
    let mut parent: Vec<usize> = (0..at.len()).collect();
    for ids in by_run.values() {
        let mut first = root(&mut parent, jobs[ids[0]].tg);
        for &i in &ids[1..] {
            let r = root(&mut parent, jobs[i].tg);
            let (low, high) = (r.min(first), r.max(first));
            parent[high] = low;
            first = low;
        }
    }
    let mut clusters: BTreeMap<usize, Vec<(&Path, Vec<usize>)>> = BTreeMap::new();
    for (run, ids) in by_run {
        shared.expect(run, ids.len());
        let c = root(&mut parent, jobs[ids[0]].tg);
        clusters.entry(c).or_default().push((run, ids));
    }
    let clusters: Vec<Vec<(&Path, Vec<usize>)>> = clusters
        .into_values()
        .map(|mut files| {
            // In the order of their first gold, so that a gold is needed for a short stretch.
            files.sort_by(|a, b| jobs[a.1[0]].gold.cmp(&jobs[b.1[0]].gold).then(a.0.cmp(b.0)));
            files
        })
        .collect();
    // Per job: the run's scoring (an error fails the run) and, inside, its results (an error
    // there, an output or a resampling refused, stops the campaign).
    let score_cluster = |files: &[(&Path, Vec<usize>)]| -> Vec<(usize, Result<ScoredJob>)> {
        files
            .par_iter()
            .flat_map_iter(|(run, ids)| {
                ids.iter()
                    .map(|&i| {
                        let j = &jobs[i];
                        let st = j
                            .task
                            .family
                            .statistics_in(&j.gold, j.run, shared)
                            .and_then(|mut st| {
                                (hooks.on_scored)(j.task, j.system, [&j.gold, j.run], &mut st)
                                    .map(|()| st)
                            })
                            .and_then(|st| shared.file_hash(j.run).map(|h| (st, h)));
                        shared.done(&j.gold);
                        shared.done(run);
                        let out = match st {
                            Ok((st, h)) => score_run(j, st, hooks).map(|r| Ok((r, h))),
                            Err(e) => Ok(Err(e)),
                        };
                        (i, out)
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let mut finish = |outcomes: Vec<(usize, Result<ScoredJob>)>| -> Result<()> {
        let mut scored = Vec::with_capacity(outcomes.len());
        for (i, out) in outcomes {
            scored.push((i, out?));
        }
        // An output error (a file that could not be written) stops the campaign.
        let output_error = scored.iter().position(|(_, st)| {
            st.as_ref()
                .is_err_and(|e| e.class() == crate::error::ErrorClass::Output)
        });
        if let Some(at) = output_error {
            if let (_, Err(e)) = scored.swap_remove(at) {
                return Err(e);
            }
        }
        scored.sort_by_key(|(i, _)| *i);
        // Job indices ascend with the task and group, and within it with the run's order.
        let mut scored = scored.into_iter().peekable();
        while let Some(&(first, _)) = scored.peek() {
            let tg = jobs[first].tg;
            let (k, g) = at[tg];
            let mut runs = Vec::new();
            while let Some((i, st)) = scored.next_if(|(i, _)| jobs[*i].tg == tg) {
                runs.push((jobs[i].system.to_string(), jobs[i].run.to_path_buf(), st));
            }
            rank(k, g, runs)?;
        }
        Ok(())
    };
    if hooks.resampler.is_some() {
        // Resampled runs keep their statistics until their group is ranked: one cluster at a
        // time, so that only its statistics are held.
        for files in &clusters {
            finish(score_cluster(files))?;
        }
    } else {
        // Without resampling a run's statistics end with its scoring: the clusters are scored
        // side by side (a cluster of one run file would leave the other threads idle), then
        // ranked in order.
        let all: Vec<_> = clusters.par_iter().map(|f| score_cluster(f)).collect();
        for outcomes in all {
            finish(outcomes)?;
        }
    }
    Ok(())
}
