//! The official ranking files of a HIPE campaign run on the family engine
//! ([`super::FamilyCampaign::from_hipe`] + [`super::run_family_campaign`]): the first part of
//! the official renderer that lets HIPE campaigns leave their own engine (issue 32).
//!
//! Every run's `hipe` family results hold the official micro counts (TP, FP, FN of every
//! column, regime, label and n-best cutoff); from them this module rebuilds the micro rows of
//! the official per-run table (P, R and F1 from the counts with the official scorer's
//! int/float distinction, so `0` and `0.0` print as it prints them) and ranks them with the
//! campaign's `[[ranking]]` specifications, as the HIPE engine ranks the per-run tables it
//! scored: the same file names and the same bytes.

use super::config::Campaign;
use super::families::{FamilyCampaign, FamilyReport, TaskRanking};
use super::names::Placeholder;
use super::num::Num;
use super::ranking::{build_ranking, ranking_file_name, RankingInput};
use super::rows::{EvalKey, ScoreRow};
use crate::hipe::Task;
use crate::metrics::PyNum;
use crate::table::{KeyKind, Results, Value};

/// One run of one dataset and language: its name, bundle and per-output rows.
struct RunRows {
    name: String,
    bundle: String,
    outputs: Vec<(String, Vec<ScoreRow>)>,
}

/// The official ranking files of the HIPE campaign `cfg` from the report of its family
/// campaign `fam` (built by [`FamilyCampaign::from_hipe`] from `cfg`): (file name, text), in
/// dataset, language and ranking order. A dataset and language get the rankings one of whose
/// outputs has a task there (its gold file was found).
pub fn official_rankings(
    cfg: &Campaign,
    fam: &FamilyCampaign,
    report: &FamilyReport,
) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (dataset, ds) in &cfg.datasets {
        for lang in &ds.languages {
            let task_name =
                |output: &str| format!("{output}-{}-{}", dataset.as_str(), lang.as_str());
            let mut runs: Vec<RunRows> = Vec::new();
            let mut has_task: Vec<&str> = Vec::new();
            for (output, spec) in &cfg.tasks {
                let name = task_name(output.as_str());
                let Some(task) = fam.tasks.iter().find(|t| t.name == name) else {
                    continue;
                };
                has_task.push(output.as_str());
                let Some(ranking) = report.rankings.iter().find(|r| r.task == name) else {
                    continue;
                };
                add_rows(&mut runs, output.as_str(), spec, task, ranking);
            }
            if has_task.is_empty() {
                continue;
            }
            runs.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
            let inputs: Vec<RankingInput<'_>> = runs
                .iter()
                .map(|r| RankingInput {
                    run_name: &r.name,
                    bundle: &r.bundle,
                    outputs: &r.outputs,
                })
                .collect();
            for spec in &cfg.rankings {
                if !spec.outputs.iter().any(|o| has_task.contains(&o.as_str())) {
                    continue;
                }
                files.push((
                    ranking_file_name(dataset.as_str(), lang.as_str(), &spec.kind),
                    build_ranking(spec, &inputs),
                ));
            }
        }
    }
    files
}

/// Adds the rows of output `output` of every run ranked in `ranking` to `runs`.
fn add_rows(
    runs: &mut Vec<RunRows>,
    output: &str,
    spec: &super::config::TaskSpec,
    task: &super::families::FamilyTask,
    ranking: &TaskRanking,
) {
    for run in &ranking.ranking.runs {
        let file = format!("{}.tsv", run.system);
        let bundle = task
            .fit(&file)
            .and_then(|m| {
                m.into_iter()
                    .find(|(p, _)| *p == Placeholder::Bundle)
                    .map(|(_, v)| v.to_string())
            })
            .unwrap_or_default();
        let at = match runs.iter().position(|r| r.name == run.system) {
            Some(i) => i,
            None => {
                runs.push(RunRows {
                    name: run.system.clone(),
                    bundle,
                    outputs: Vec::new(),
                });
                runs.len() - 1
            }
        };
        let system = run.system.to_lowercase();
        let rows = micro_rows(&run.results, &system, spec);
        runs[at].outputs.push((output.to_string(), rows));
    }
}

/// The micro rows of the official per-run table of one run's `hipe` family results.
fn micro_rows(results: &Results, system: &str, spec: &super::config::TaskSpec) -> Vec<ScoreRow> {
    let mut out = Vec::new();
    let suffix = spec
        .suffix
        .as_ref()
        .map(|s| format!("{}-", s.as_str()))
        .unwrap_or_default();
    for table in &results.tables {
        let n_best = match table.name.strip_prefix("micro") {
            Some("") => 1,
            Some(rest) => match rest.strip_prefix('@').and_then(|n| n.parse().ok()) {
                Some(n) => n,
                None => continue,
            },
            None => continue,
        };
        let has_filter = table.keys.contains(&KeyKind::Filter);
        let cols = ["TP", "FP", "FN"].map(|c| table.column(c));
        let [Some(tp), Some(fp), Some(fn_)] = cols else {
            continue;
        };
        for row in &table.rows {
            let (column, filter, regime, label) = match (has_filter, row.key.as_slice()) {
                (false, [c, r, l]) => (c, None, r, l),
                (true, [c, f, r, l]) => (c, Some(f), r, l),
                _ => continue,
            };
            if spec.task == Task::Nel && label != "ALL" {
                continue;
            }
            let filter =
                filter.map_or_else(|| "TIME-ALL-LED-ALL".to_string(), |f| f.replace(' ', "-"));
            let at = if column.contains("NEL") {
                format!("-@{n_best}")
            } else {
                String::new()
            };
            let evaluation = format!("{column}-micro-{regime}-{suffix}{filter}{at}");
            let Some(key) = EvalKey::parse(&evaluation) else {
                continue;
            };
            let count = |i: usize| match row.values.get(i) {
                Some(Value::Count(n)) => *n,
                _ => 0,
            };
            let (t, f, n) = (count(tp), count(fp), count(fn_));
            let (p, r, f1) = official_prf(t, f, n);
            out.push(ScoreRow {
                system: system.to_string(),
                evaluation,
                key,
                label: label.clone(),
                p: Num::score(p),
                r: Num::score(r),
                f1: Num::score(f1),
                f1_std: Num::default(),
                p_std: Num::default(),
                r_std: Num::default(),
                tp: Num::count(t),
                fp: Num::count(f),
                fn_: Num::count(n),
                docs: None,
            });
        }
    }
    out
}

/// Micro P, R and F1 of counts as the official scorer holds them: an integer `0` when there is
/// nothing to divide by (no prediction, no gold, P + R = 0), F1 from P and R.
fn official_prf(tp: u64, fp: u64, fn_: u64) -> (PyNum, PyNum, PyNum) {
    let ratio = |den: u64| {
        if den > 0 {
            PyNum::Float(tp as f64 / den as f64)
        } else {
            PyNum::Int(0)
        }
    };
    let (p, r) = (ratio(tp + fp), ratio(tp + fn_));
    let (pf, rf) = (p.as_f64(), r.as_f64());
    let f1 = if pf + rf > 0.0 {
        PyNum::Float(2.0 * (pf * rf) / (pf + rf))
    } else {
        PyNum::Int(0)
    };
    (p, r, f1)
}
