//! A HIPE campaign's breakdowns on its boards (`breakdown` in the campaign file,
//! docs/campaigns.md): the tables of the column an output's breakdown buckets (its first,
//! `NE-COARSE-LIT`, `NE-FINE-LIT`) get each run's buckets in its drill-down and the runs'
//! buckets side by side ([`super::breakdown_grid`], for `leaderboard.tex`), as a family
//! task's board has them; and the outputs left without breakdown because their training
//! file is not in the resources directory are said.

use super::breakdown_grid::{grids as grids_of, GridRun};
use super::config::{Campaign, CampaignDirs};
use super::families::insight::breakdown_tables;
use super::outcome::{CampaignReport, ScoredRun};
use crate::report::board::{BreakdownGrid, DrillPart, Notice, Table};

/// The breakdown of `output` in `column` that a run has, if any.
fn of<'a>(scored: &'a ScoredRun, output: &str, column: &str) -> Option<&'a crate::table::Results> {
    (scored.breakdowns.iter())
        .find(|(o, c, _)| o == output && c == column)
        .map(|(_, _, r)| r)
}

/// A run's breakdown of `output` in `column` as parts of its drill-down, one per key (none
/// when the output has no breakdown or buckets another column).
pub(super) fn drill(scored: &ScoredRun, output: &str, column: &str) -> Vec<DrillPart> {
    of(scored, output, column).map_or_else(Vec::new, |r| {
        (breakdown_tables(r).into_iter())
            .filter_map(|(key, t)| super::drill_part::part(t, key))
            .collect()
    })
}

/// The grids of a table of `column`: its rows (rank, system) with the (run, output) each
/// lists, in ranking order; the runs without breakdown left out.
pub(super) fn grids(
    report: &CampaignReport,
    table: &Table,
    listed: &[(usize, usize)],
    column: &str,
) -> Vec<BreakdownGrid> {
    let runs: Vec<GridRun<'_>> = (table.rows.iter().zip(listed))
        .filter_map(|(row, &(run, output))| {
            let scored = report.scored.get(run)?;
            let (name, _) = scored.outputs.get(output)?;
            Some(GridRun {
                rank: row.rank,
                system: &row.system,
                results: of(scored, name, column)?,
            })
        })
        .collect();
    grids_of(&runs)
}

/// The outputs of each dataset and language evaluated (`pairs`) whose breakdown reads a
/// training file that is not in the resources directory: they were scored without
/// breakdown (`families::hipe`), one notice each, the file's path as `name` names it.
pub(super) fn missing_train(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    pairs: &[(String, String)],
    name: &dyn Fn(&str) -> String,
) -> Vec<Notice> {
    let mut out = Vec::new();
    for (dataset, lang) in pairs {
        for (output, spec) in &cfg.tasks {
            let Some(file) = cfg.train_file(spec, dataset, lang) else {
                continue;
            };
            let path = dirs.resources.join(&file);
            if !path.is_file() {
                out.push(Notice {
                    subject: format!("{dataset} · {lang} · {output}"),
                    reason: format!(
                        "no breakdowns: training file {} not found",
                        name(&path.display().to_string())
                    ),
                });
            }
        }
    }
    out
}
