//! A campaign of family tasks ([`super::families`]) as a Codabench scoring program: one
//! submission (`INPUT/res`, the participant's zip unpacked, runs possibly in subfolders) scored
//! against the gold (`INPUT/ref`), written as `OUTPUT/scores.json` (one number per leaderboard
//! column) and `OUTPUT/detailed_results.html` (this submission's page). The bundle that
//! declares the same columns is written by [`super::codabench_bundle`], the outputs by
//! [`super::codabench_outputs`].
//!
//! **Columns.** Every task of the campaign, on every gold file its pattern fits (one per
//! `{dataset}`/`{lang}` value), is one leaderboard column holding the task's ranked metric
//! (`rank_by`, else the family's headline). Its key is [`column_key`]: the task name, each
//! group value after `_`, then `__` and the metric, every character other than ASCII letters,
//! digits and `_` turned into `_` (`seg__F1`, `ner_de__F1`). [`columns`] makes the list for
//! both the scores and `competition.yaml`, so the two cannot differ.
//!
//! **Runs.** Every file under `INPUT/res` (hidden files, `__MACOSX/` and the worker's own
//! `metadata` left out) whose name fits a task's `runs` pattern is that task's run for the
//! gold its `{dataset}`/`{lang}` name, and so is every brat run: a folder tree laid out as the
//! brat gold is (the folders holding `.ann` files, at any depth, lifted by the gold's own
//! sub-folders, `alpha_1/esp/` → `alpha_1/`; its files are its run's); names are matched as
//! `leaderboard --campaign` matches them ([`super::names::run_stem`]: a pattern without an
//! extension takes a file of any extension). A campaign of one column also takes a submission
//! of exactly one file or brat folder (the top of the submission included) whatever its name.
//! A column without a score (no run, or a run that cannot be scored) scores 0, or
//! [`WORST_COUNT`] for a metric that counts errors, so it ranks last (Codabench needs a number
//! for every column, below 10^10), and the page says so; a submission with no run at all, two
//! runs for one column, or a file with a run extension that fits no pattern is refused. The
//! submission is hostile: links are refused, never followed, and whatever the participant got
//! wrong in the submission as a whole (names, nesting, sizes) is a refusal, never an error
//! ([`submission_files`]).
//!
//! **Check.** Each run is checked as `fairscore check --format F` checks it (formats conll,
//! conllu, tsv and text, given or as the family detects them, and standoff runs of span
//! families: `codabench/check.rs`; not a generative run placed with `align`). A run that fails
//! (errors or warnings), or cannot be read or scored, costs its own columns only, the check's
//! findings in the notes; a submission none of whose runs scores is refused with them all.

use std::path::Path;

mod assign;
mod check;
mod files;

pub use files::submission_files;

use super::families::{FamilyCampaign, FamilyTask};
use super::names::{Placeholder, GOLD_PLACEHOLDERS};
use crate::check::CheckReport;
use crate::error::{Error, Result};
use crate::table::Results;
use assign::{assign, brat_layouts};
use check::{about, check_key, check_run, CheckKey};

/// The file names of the scoring program's outputs.
pub const SCORES_FILE: &str = "scores.json";
/// The detailed results page Codabench's worker watches for and uploads.
pub const DETAILED_FILE: &str = "detailed_results.html";
/// Marks the signatures of the scores on the HTML page (one line per column).
pub const SIGNATURE_SPOT: &str = "<!-- fairscore:signature -->";

/// One leaderboard column: a task on one gold file, and its ranked metric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderboardColumn {
    /// The key of `scores.json` and of `competition.yaml` ([`column_key`]).
    pub key: String,
    /// The column's title on the leaderboard.
    pub title: String,
    /// The task's position in the campaign.
    pub task: usize,
    /// The placeholder values of its gold file (`lang` = `de`), if any.
    pub group: Vec<(Placeholder, String)>,
    /// The gold file's name.
    pub gold: String,
    /// The metric (a column of the family's headline table).
    pub metric: String,
    /// Whether the metric counts errors, so that lower is better (known once the task's
    /// family has scored: [`check_rank_by`] sets it for the bundle's leaderboard,
    /// [`score_submission`] for each [`ColumnScore`]).
    pub lower_is_better: bool,
}

/// `s` with every character other than ASCII letters, digits and `_` turned into `_`.
pub fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The leaderboard key of a task's metric on one gold file: `TASK[_VALUE…]__METRIC`,
/// sanitized ([`sanitize`]).
pub fn column_key(task: &str, group: &[(Placeholder, String)], metric: &str) -> String {
    let mut k = sanitize(task);
    for (_, v) in group {
        k.push('_');
        k.push_str(&sanitize(v));
    }
    k.push_str("__");
    k.push_str(&sanitize(metric));
    k
}

/// The names of what can be a gold directly in `dir`, sorted: the regular, not hidden files
/// and the brat folders (folders with `.ann` files), as `leaderboard --campaign` takes them.
pub fn gold_names(dir: &Path) -> Result<Vec<String>> {
    let list = std::fs::read_dir(dir)
        .map_err(|e| Error::input(dir, 0, format!("cannot list the directory: {e}")))?;
    let mut names: Vec<String> = list
        .flatten()
        .filter(|e| {
            let p = e.path();
            p.is_file()
                || (p.is_dir() && crate::formats::brat::ann_files(&p).is_ok_and(|v| !v.is_empty()))
        })
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

/// The leaderboard columns of `cfg` with the gold files of `gold_dir`: per task, in campaign
/// order, one column per gold file its pattern fits (in name order). A task no gold file fits,
/// or two columns of the same key, are input errors.
pub fn columns(cfg: &FamilyCampaign, gold_dir: &Path) -> Result<Vec<LeaderboardColumn>> {
    let files = gold_names(gold_dir)?;
    let mut out: Vec<LeaderboardColumn> = Vec::new();
    for (k, t) in cfg.tasks.iter().enumerate() {
        let before = out.len();
        for f in &files {
            let Some(m) = t.gold.matches(f).into_iter().next() else {
                continue;
            };
            let group: Vec<(Placeholder, String)> = GOLD_PLACEHOLDERS
                .iter()
                .filter_map(|p| {
                    m.iter()
                        .find(|(q, _)| q == p)
                        .map(|(_, v)| (*p, v.to_string()))
                })
                .collect();
            let metric = t.headline.column.clone();
            let mut title = t.name.clone();
            for (_, v) in &group {
                title.push('-');
                title.push_str(v);
            }
            title.push(' ');
            title.push_str(&metric);
            let key = column_key(&t.name, &group, &metric);
            if let Some(other) = out.iter().find(|c| c.key == key) {
                return Err(Error::input(
                    gold_dir,
                    0,
                    format!(
                        "task {}: its leaderboard key {key} is also that of task {} (rename a task)",
                        t.name, cfg.tasks[other.task].name
                    ),
                ));
            }
            out.push(LeaderboardColumn {
                key,
                title,
                task: k,
                group,
                gold: f.clone(),
                metric,
                lower_is_better: false,
            });
        }
        if out.len() == before {
            return Err(Error::input(
                gold_dir,
                0,
                format!("task {}: no gold file fits {}", t.name, t.gold),
            ));
        }
    }
    Ok(out)
}

/// The value of a column ranked by a count of errors (lower is better) that has no score (no
/// run, or a run that could not be scored): the largest number below 10^10, so that it fits
/// Codabench's `numeric(20,10)` scores and ranks last. Every value of `scores.json` lies within
/// ±`WORST_COUNT`.
pub const WORST_COUNT: f64 = 9_999_999_999.0;

/// The score of one column.
#[derive(Debug, Clone)]
pub struct ColumnScore {
    /// The column.
    pub column: LeaderboardColumn,
    /// Its value (0 without a score; [`WORST_COUNT`] for a metric that counts errors).
    pub value: f64,
    /// The run scored, as named in the submission; `None`: the submission has none.
    pub run: Option<String>,
    /// The run's result tables.
    pub results: Option<Results>,
    /// Why the column's run was not scored (it fails the participants' check, or cannot be
    /// read or scored): the column alone costs it, scored as without a run.
    pub unscored: Option<String>,
    /// The gold and the run, when the task asks for an `inspect` page (embedded in the
    /// detailed results by [`super::write_codabench_outputs`]).
    pub inspect: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

/// Why a submission was refused: what is wrong with it (one line each), and the reports of
/// the runs that failed the check.
#[derive(Debug, Clone, Default)]
pub struct Refusal {
    /// Problems of the submission as a whole (no run, two runs for a column, …).
    pub problems: Vec<String>,
    /// Check reports of the runs that did not pass.
    pub reports: Vec<CheckReport>,
}

/// What the scoring program made of a submission.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Scored: every column's score and the files to write.
    Scored(Scored),
    /// Refused: nothing is written.
    Refused(Refusal),
}

/// A scored submission.
#[derive(Debug, Clone)]
pub struct Scored {
    /// The columns' scores, in leaderboard order.
    pub scores: Vec<ColumnScore>,
    /// Files of the submission that are no runs (listed, without effect).
    pub ignored: Vec<String>,
    /// Notes for the page (columns without a run, warnings of the scorer).
    pub notes: Vec<String>,
}

/// Refuses a task whose `rank_by` names no column of its family's headline table (an input
/// error at the line of `rank_by`, listing the columns there are).
pub(crate) fn ranked_column(cfg: &FamilyCampaign, t: &FamilyTask, results: &Results) -> Result<()> {
    let h = &t.headline;
    let table = results.table(&h.table);
    if table.and_then(|tb| tb.column(&h.column)).is_some() {
        return Ok(());
    }
    let there: Vec<&str> = table
        .map(|tb| tb.columns.iter().map(|c| c.name.as_str()).collect())
        .unwrap_or_default();
    Err(Error::input(
        &cfg.file,
        t.rank_by_line,
        format!(
            "invalid campaign: task {}: rank_by: the {} family has no column {} in table {} \
             (its columns: {})",
            t.name,
            t.family.name(),
            crate::error::snippet(&h.column),
            h.table,
            there.join(", ")
        ),
    ))
}

/// The tables of task `t` with its gold scored against itself: their shape, which does not
/// depend on the run. A task whose runs are entity lists while its gold is in another format
/// (CoNLL, brat, …) cannot read the gold as a run: a span family placing generative runs
/// (`align`) reads the gold on both sides as it reads a gold, without the run's options; the
/// mentions family scores one empty unit given in memory.
fn own_tables(t: &FamilyTask, gold: &Path) -> Result<Results> {
    let own = crate::family::evaluate(t.family.as_ref(), gold, gold, None);
    let lists = t.family.name() == "mentions" || t.options.own("align").is_some();
    if own.is_ok() || !lists {
        return own;
    }
    let mut o = t.options.clone();
    o.own
        .retain(|k, _| !crate::family::ALIGN_OPTIONS.contains(&k.as_str()));
    if t.family.name() == "mentions" {
        let family = crate::family::MentionsFamily::new(&o)?;
        let unit = serde_json::json!({"id": "1", "text": "", "entities": []});
        let record = serde_json::json!({"id": "1", "entities": []});
        let stats = family.statistics_in_memory(&[unit], &[record])?;
        return crate::family::scored(&family, &stats, None);
    }
    let family = crate::family::build(t.family.name(), &o)?;
    crate::family::evaluate(family.as_ref(), gold, gold, None)
}

/// Checks every task's `rank_by` on the gold of its first column, scored against itself (the
/// tables' shape does not depend on the run): a column the family does not have is an input
/// error at its line, before any bundle is written or submission scored.
pub fn check_rank_by(
    cfg: &FamilyCampaign,
    cols: &mut [LeaderboardColumn],
    gold_dir: &Path,
) -> Result<()> {
    for (k, t) in cfg.tasks.iter().enumerate() {
        let Some(c) = cols.iter().find(|c| c.task == k) else {
            continue;
        };
        let results = own_tables(t, &gold_dir.join(&c.gold))?;
        ranked_column(cfg, t, &results)?;
        let lower = lower_is_better(t, &results);
        for c in cols.iter_mut().filter(|c| c.task == k) {
            c.lower_is_better = lower;
        }
    }
    Ok(())
}

/// Whether the ranked column of task `t` counts errors (lower is better), as `results` of
/// its family have it.
fn lower_is_better(t: &FamilyTask, results: &Results) -> bool {
    crate::family::headline_column(results, &t.headline).is_some_and(|c| c.lower_is_better)
}

/// Why a run could not be scored: the participant's (the column costs it), or an error of
/// the organiser's side.
enum Failed {
    Run(String),
    Organiser(Error),
}

/// Checks (once per way of checking a file: spans, fair and muc of one CoNLL file) and scores
/// the run `path` of task `t` against `gold`. A check that fails adds its report to
/// `reports`.
fn score_run(
    cfg: &FamilyCampaign,
    t: &FamilyTask,
    gold: &Path,
    (shown, path): (&str, &Path),
    checked: &mut Vec<(CheckKey, Option<String>)>,
    reports: &mut Vec<CheckReport>,
) -> std::result::Result<Results, Failed> {
    let how = check_key(t, gold, path);
    let failed = match checked.iter().find(|(k, _)| *k == how) {
        Some((_, why)) => why.clone(),
        None => {
            // A run the check cannot read (not UTF-8, …) is the participant's.
            let why = match check_run(t, gold, path) {
                Ok(Some(report)) if !report.ok() => {
                    reports.push(report);
                    Some(format!(
                        "{shown}: fails the participants' check (see the check's findings, as \
                         fairscore check gives them)"
                    ))
                }
                Ok(_) => None,
                Err(e) if about(&e, path) => Some(format!("{shown}: {e}")),
                Err(e) => return Err(Failed::Organiser(e)),
            };
            checked.push((how, why.clone()));
            why
        }
    };
    if let Some(why) = failed {
        return Err(Failed::Run(why));
    }
    let mut r = crate::family::evaluate(t.family.as_ref(), gold, path, None)
        .map_err(|e| Failed::Run(format!("{shown}: {e}")))?;
    r.signature = Some(
        crate::family::sign::signature(t.family.as_ref(), None, gold, &[path])
            .map_err(Failed::Organiser)?,
    );
    ranked_column(cfg, t, &r).map_err(Failed::Organiser)?;
    Ok(r)
}

/// Scores the submission in `input/res` against the gold in `input/ref` (see the module
/// documentation). Errors of the gold or the campaign are errors; what is wrong with the
/// submission is a [`Verdict::Refused`]; a run that cannot be scored costs its columns only
/// (scored as without a run, `ColumnScore::unscored` says why), unless no column is scored.
pub fn score_submission(cfg: &FamilyCampaign, input: &Path) -> Result<Verdict> {
    let (gold_dir, res) = (input.join("ref"), input.join("res"));
    for d in [&gold_dir, &res] {
        if !d.is_dir() {
            return Err(Error::input(
                d,
                0,
                "no such directory (the Codabench input layout has ref/ and res/)",
            ));
        }
    }
    let cols = columns(cfg, &gold_dir)?;
    let listing = submission_files(&res, &brat_layouts(&cols, &gold_dir))?;
    if !listing.problems.is_empty() {
        return Ok(Verdict::Refused(Refusal {
            problems: listing.problems,
            reports: Vec::new(),
        }));
    }
    let (runs, ignored) = match assign(cfg, &cols, listing.files, listing.folders) {
        Ok(a) => a,
        Err(problems) => {
            return Ok(Verdict::Refused(Refusal {
                problems,
                reports: Vec::new(),
            }))
        }
    };
    let mut refusal = Refusal::default();
    let mut checked: Vec<(CheckKey, Option<String>)> = Vec::new();
    // Per task: whether its metric counts errors, known once its gold is scored.
    let mut lower: Vec<Option<bool>> = vec![None; cfg.tasks.len()];
    let mut scores = Vec::with_capacity(cols.len());
    let mut notes = Vec::new();
    for (c, run) in cols.iter().zip(runs) {
        let t = &cfg.tasks[c.task];
        let gold = gold_dir.join(&c.gold);
        let outcome = match &run {
            None => Err(None),
            Some((shown, path)) => {
                let before = refusal.reports.len();
                let r = score_run(
                    cfg,
                    t,
                    &gold,
                    (shown, path),
                    &mut checked,
                    &mut refusal.reports,
                );
                for rep in &refusal.reports[before..] {
                    notes.extend(rep.to_text().lines().map(|l| format!("{}: {l}", c.key)));
                }
                match r {
                    Ok(r) => Ok(r),
                    Err(Failed::Run(why)) => Err(Some(why)),
                    Err(Failed::Organiser(e)) => return Err(e),
                }
            }
        };
        let results = match outcome {
            Ok(results) => results,
            Err(why) => {
                // Ranked last: 0, or the largest number for a metric that counts errors.
                let lower = match lower[c.task] {
                    Some(l) => l,
                    None => *lower[c.task].insert(lower_is_better(t, &own_tables(t, &gold)?)),
                };
                let (value, said) = match lower {
                    true => (
                        WORST_COUNT,
                        "9999999999, the worst (its metric counts errors)",
                    ),
                    false => (0.0, "0"),
                };
                notes.push(match &why {
                    None => format!("{}: no run in the submission, scored {said}", c.key),
                    Some(w) => format!("{}: not scored, scored {said}: {w}", c.key),
                });
                if let Some(w) = why.as_ref().filter(|w| !refusal.problems.contains(w)) {
                    refusal.problems.push(w.clone());
                }
                scores.push(ColumnScore {
                    column: LeaderboardColumn {
                        lower_is_better: lower,
                        ..c.clone()
                    },
                    value,
                    run: run.map(|(shown, _)| shown),
                    results: None,
                    unscored: why,
                    inspect: None,
                });
                continue;
            }
        };
        let value = crate::family::headline_value(&results, &t.headline);
        for w in &results.warnings {
            notes.push(format!("{}: {w}", c.key));
        }
        let path = run.as_ref().map(|(_, p)| p.clone()).unwrap_or_default();
        let inspect = t.insight.inspect.then(|| (gold.clone(), path));
        scores.push(ColumnScore {
            inspect,
            column: LeaderboardColumn {
                lower_is_better: lower_is_better(t, &results),
                ..c.clone()
            },
            value: if value.is_finite() { value } else { 0.0 },
            run: run.map(|(shown, _)| shown),
            results: Some(results),
            unscored: None,
        });
    }
    // Nothing scored and some run failed: the submission is refused with every reason.
    if scores.iter().all(|s| s.results.is_none()) && !refusal.problems.is_empty() {
        return Ok(Verdict::Refused(refusal));
    }
    Ok(Verdict::Scored(Scored {
        scores,
        ignored,
        notes,
    }))
}
