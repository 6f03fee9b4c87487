//! Which run of a Codabench submission is which leaderboard column's: names matched as
//! `leaderboard --campaign` matches them ([`run_stem`]), brat runs found by the places of the
//! golds' documents ([`brat_layouts`]), and what is wrong with the submission as a whole (no
//! run, two runs for a column, a file fitting no pattern, a run without gold).

use std::path::Path;

use super::files::Found;
use super::LeaderboardColumn;
use crate::campaign::families::FamilyCampaign;
use crate::campaign::names::{run_stem, Placeholder, GOLD_PLACEHOLDERS};

/// The folders, relative to a brat gold's top (`/`-separated; empty: the top), holding the
/// `.ann` files of the campaign's brat golds: a submission's brat run has its documents at
/// the same places below its own folder.
pub(super) fn brat_layouts(cols: &[LeaderboardColumn], gold_dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = cols
        .iter()
        .map(|c| gold_dir.join(&c.gold))
        .filter(|g| g.is_dir())
        .filter_map(|g| crate::formats::brat::ann_files(&g).ok())
        .flatten()
        .map(|a| a.rsplit_once('/').map_or("", |(d, _)| d).to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The extension of a run pattern (`.txt`), if any, in lower case.
fn extension(p: &crate::campaign::names::Pattern) -> Option<String> {
    crate::campaign::names::pattern_extension(p).map(str::to_ascii_lowercase)
}

/// The runs of the submission per column (`None`: no run), the ignored files, or what is
/// wrong with the submission.
pub(super) type Assignment = (Vec<Option<Found>>, Vec<String>);

pub(super) fn assign(
    cfg: &FamilyCampaign,
    cols: &[LeaderboardColumn],
    files: Vec<Found>,
    folders: Vec<Found>,
) -> std::result::Result<Assignment, Vec<String>> {
    let mut per: Vec<Vec<Found>> = vec![Vec::new(); cols.len()];
    let (mut problems, mut unfit, mut ignored) = (Vec::new(), Vec::new(), Vec::new());
    let exts: Vec<String> = cfg
        .tasks
        .iter()
        .filter_map(|t| extension(&t.runs))
        .collect();
    let n_files = files.len() + folders.len();
    let items = files
        .into_iter()
        .map(|f| (f, false))
        .chain(folders.into_iter().map(|f| (f, true)));
    for ((shown, path), folder) in items {
        let name = shown.rsplit('/').next().unwrap_or(&shown).to_string();
        let mut fitted = false;
        for (k, t) in cfg.tasks.iter().enumerate() {
            let Some(m) = t.fit(run_stem(&t.runs, &name, folder).0) else {
                continue;
            };
            fitted = true;
            let group: Vec<(Placeholder, String)> = GOLD_PLACEHOLDERS
                .iter()
                .filter(|p| t.gold.has(**p))
                .filter_map(|p| {
                    m.iter()
                        .find(|(q, _)| q == p)
                        .map(|(_, v)| (*p, v.to_string()))
                })
                .collect();
            match cols.iter().position(|c| c.task == k && c.group == group) {
                Some(i) => per[i].push((shown.clone(), path.clone())),
                None => problems.push(format!(
                    "{shown}: a run of task {} for {}, which has no gold file here",
                    t.name,
                    t.gold.fill(
                        &group
                            .iter()
                            .map(|(p, v)| (*p, v.as_str()))
                            .collect::<Vec<_>>()
                    )
                )),
            }
        }
        if !fitted {
            let lower = name.to_ascii_lowercase();
            if !folder && exts.iter().any(|e| lower.ends_with(e.as_str())) {
                unfit.push((shown, path));
            } else {
                // A folder is shown as one (`notes/`).
                ignored.push((if folder { format!("{shown}/") } else { shown }, path));
            }
        }
    }
    // Each pattern once, with the tasks that share it.
    let mut by_pattern: Vec<(&str, Vec<&str>)> = Vec::new();
    for t in &cfg.tasks {
        match by_pattern.iter_mut().find(|(p, _)| *p == t.runs.as_str()) {
            Some((_, names)) => names.push(&t.name),
            None => by_pattern.push((t.runs.as_str(), vec![&t.name])),
        }
    }
    let patterns: Vec<String> = by_pattern
        .iter()
        .map(|(p, names)| {
            let s = if names.len() == 1 { "" } else { "s" };
            format!("{p} (task{s} {})", names.join(", "))
        })
        .collect();
    if per.iter().all(Vec::is_empty) && problems.is_empty() {
        // One column and one file (or brat folder): the run, whatever its name.
        if cols.len() == 1 && n_files == 1 {
            if let Some(f) = unfit.pop().or_else(|| ignored.pop()) {
                return Ok((vec![Some(f)], Vec::new()));
            }
        }
        let listed: Vec<&str> = unfit
            .iter()
            .chain(&ignored)
            .map(|(s, _)| s.as_str())
            .collect();
        problems.push(format!(
            "no run found in the submission ({}); name each run file (a brat run: its folder of .ann and .txt files) as {}",
            if listed.is_empty() {
                "it holds no file".to_string()
            } else {
                format!("files: {}", listed.join(", "))
            },
            patterns.join(", or ")
        ));
        return Err(problems);
    }
    for (shown, _) in &unfit {
        problems.push(format!(
            "{shown}: fits no run pattern ({})",
            patterns.join(", ")
        ));
    }
    for (c, runs) in cols.iter().zip(&per) {
        if runs.len() > 1 {
            let names: Vec<&str> = runs.iter().map(|(s, _)| s.as_str()).collect();
            problems.push(format!(
                "{} runs for the column {} ({}): submit one",
                runs.len(),
                c.key,
                names.join(", ")
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let runs = per.into_iter().map(|mut v| v.pop()).collect();
    Ok((runs, ignored.into_iter().map(|(s, _)| s).collect()))
}
