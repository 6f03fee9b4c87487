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
use crate::error::Result;
use crate::family::{Inputs, Statistics};

/// One run of a task and group scored: (system, run file, its statistics and content hash).
pub(super) type Scored = (String, PathBuf, Result<(Statistics, String)>);

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
    gold: PathBuf,
    system: &'a str,
    run: &'a Path,
}

/// Scores the runs of every task and non-empty group of `per_task` (the task's groups in
/// their order, the runs in theirs): `out[task][group]`, one [`Scored`] per run.
pub(super) fn score_all(
    tasks: &[FamilyTask],
    per_task: &[Groups],
    gold_dir: &Path,
    shared: &Inputs,
) -> Vec<Vec<Vec<Scored>>> {
    let mut jobs: Vec<Job<'_>> = Vec::new();
    // Where each (task, group) starts in `jobs`, and how many runs it has.
    let mut at: Vec<Vec<(usize, usize)>> = Vec::with_capacity(tasks.len());
    for (t, groups) in tasks.iter().zip(per_task) {
        let mut spans = Vec::new();
        for (group, runs) in groups.iter().filter(|(_, r)| !r.is_empty()) {
            let gold = gold_path(t, gold_dir, group);
            spans.push((jobs.len(), runs.len()));
            for (system, path, _) in runs {
                jobs.push(Job {
                    task: t,
                    gold: gold.clone(),
                    system,
                    run: path,
                });
            }
        }
        at.push(spans);
    }
    // The scorings of each run file, in job order; the files ordered by their first gold.
    let mut by_run: BTreeMap<&Path, Vec<usize>> = BTreeMap::new();
    let mut golds: BTreeMap<&Path, usize> = BTreeMap::new();
    for (i, j) in jobs.iter().enumerate() {
        by_run.entry(j.run).or_default().push(i);
        *golds.entry(&j.gold).or_default() += 1;
    }
    for (gold, uses) in golds {
        shared.expect(gold, uses);
    }
    let mut files: Vec<(&Path, Vec<usize>)> = by_run.into_iter().collect();
    files.sort_by(|a, b| jobs[a.1[0]].gold.cmp(&jobs[b.1[0]].gold).then(a.0.cmp(b.0)));
    for (run, ids) in &files {
        shared.expect(run, ids.len());
    }
    let mut done: Vec<(usize, Result<(Statistics, String)>)> = files
        .par_iter()
        .flat_map_iter(|(run, ids)| {
            ids.iter()
                .map(|&i| {
                    let j = &jobs[i];
                    let st = j
                        .task
                        .family
                        .statistics_in(&j.gold, j.run, shared)
                        .and_then(|st| shared.file_hash(j.run).map(|h| (st, h)));
                    shared.done(&j.gold);
                    shared.done(run);
                    (i, st)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    done.sort_by_key(|(i, _)| *i);
    let mut results = done.into_iter().map(|(_, r)| r);
    let mut jobs = jobs.into_iter();
    at.into_iter()
        .map(|spans| {
            spans
                .into_iter()
                .map(|(_, n)| {
                    jobs.by_ref()
                        .zip(results.by_ref())
                        .take(n)
                        .map(|(j, r)| (j.system.to_string(), j.run.to_path_buf(), r))
                        .collect()
                })
                .collect()
        })
        .collect()
}
