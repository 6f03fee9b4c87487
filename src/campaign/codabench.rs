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
//! gold its `{dataset}`/`{lang}` name, and so is every brat folder (one holding `.ann` files,
//! at any depth; its files are its run's); names are matched as `leaderboard --campaign`
//! matches them ([`super::names::run_stem`]: a pattern without an extension takes a file of
//! any extension). A campaign of one column also takes a submission of exactly one file or
//! brat folder (the top of the submission included) whatever its name. A column without a run scores 0, or the largest number
//! for a metric that counts errors, so it ranks last (Codabench needs a
//! number for every column), and the page says so; a submission with no run at all, two runs
//! for one column, or a file with a run extension that fits no pattern is refused. The
//! submission is hostile: links are refused, never followed, and whatever the participant got
//! wrong (names, nesting, sizes, unreadable runs) is a refusal, never an error
//! ([`submission_files`]).
//!
//! **Check.** Each run is checked as `fairscore check --format F` checks it (formats conll,
//! conllu, tsv and text, given or as the family detects them, and standoff runs of span
//! families: `codabench/check.rs`); a run that fails (errors or warnings) refuses the submission with
//! the check's findings. Other formats are refused only
//! when they cannot be scored.

use std::path::Path;

mod check;
mod files;

pub use files::submission_files;
use files::Found;

use super::families::{FamilyCampaign, FamilyTask};
use super::names::{run_stem, Placeholder, GOLD_PLACEHOLDERS};
use crate::check::CheckReport;
use crate::error::{Error, Result};
use crate::table::Results;
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
    /// family has scored: [`check_rank_by`] sets it for the bundle's leaderboard).
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

/// The score of one column.
#[derive(Debug, Clone)]
pub struct ColumnScore {
    /// The column.
    pub column: LeaderboardColumn,
    /// Its value (0 without a run; the largest number for a metric that counts errors).
    pub value: f64,
    /// The run scored, as named in the submission; `None`: the submission has none.
    pub run: Option<String>,
    /// The run's result tables.
    pub results: Option<Results>,
    /// The gold and the run, when the task asks for an `inspect` page (written beside the
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

/// The extension of a run pattern (`.txt`), if any, in lower case.
fn extension(p: &super::names::Pattern) -> Option<String> {
    super::names::pattern_extension(p).map(str::to_ascii_lowercase)
}

/// The runs of the submission per column (`None`: no run), the ignored files, or what is
/// wrong with the submission.
type Assignment = (Vec<Option<Found>>, Vec<String>);

fn assign(
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

/// Refuses a task whose `rank_by` names no column of its family's headline table (an input
/// error at the line of `rank_by`, listing the columns there are).
fn ranked_column(cfg: &FamilyCampaign, t: &FamilyTask, results: &Results) -> Result<()> {
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
        let gold = gold_dir.join(&c.gold);
        let results = crate::family::evaluate(t.family.as_ref(), &gold, &gold, None)?;
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

/// Scores the submission in `input/res` against the gold in `input/ref` (see the module
/// documentation). Errors of the gold or the campaign are errors; what is wrong with the
/// submission is a [`Verdict::Refused`].
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
    let listing = submission_files(&res)?;
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
    // A file that is the run of several tasks (spans, fair and muc of one CoNLL file) is
    // checked once per way of checking it.
    let mut checked: Vec<(CheckKey, bool)> = Vec::new();
    let mut scores = Vec::with_capacity(cols.len());
    let mut notes = Vec::new();
    for (c, run) in cols.iter().zip(runs) {
        let t = &cfg.tasks[c.task];
        let Some((shown, path)) = run else {
            // Ranked last: 0, or the largest number for a metric that counts errors.
            let gold = gold_dir.join(&c.gold);
            let own = crate::family::evaluate(t.family.as_ref(), &gold, &gold, None)?;
            let (value, said) = match lower_is_better(t, &own) {
                true => (f64::MAX, "the largest number (its metric counts errors)"),
                false => (0.0, "0"),
            };
            notes.push(format!(
                "{}: no run in the submission, scored {said}",
                c.key
            ));
            scores.push(ColumnScore {
                column: c.clone(),
                value,
                run: None,
                results: None,
                inspect: None,
            });
            continue;
        };
        let gold = gold_dir.join(&c.gold);
        let how = check_key(t, &gold, &path);
        let passed = match checked.iter().find(|(k, _)| *k == how) {
            Some((_, ok)) => *ok,
            None => {
                // A run the check cannot read (not UTF-8, …) is the participant's: refused.
                let ok = match check_run(t, &gold, &path) {
                    Ok(Some(report)) if !report.ok() => {
                        refusal.reports.push(report);
                        false
                    }
                    Ok(_) => true,
                    Err(e) if about(&e, &path) => {
                        refusal.problems.push(format!("{shown}: {e}"));
                        false
                    }
                    Err(e) => return Err(e),
                };
                checked.push((how, ok));
                ok
            }
        };
        if !passed {
            continue;
        }
        let results = match crate::family::evaluate(t.family.as_ref(), &gold, &path, None) {
            Ok(mut r) => {
                r.signature = Some(crate::family::sign::signature(
                    t.family.as_ref(),
                    None,
                    &gold,
                    &[path.as_path()],
                )?);
                r
            }
            Err(e) => {
                refusal.problems.push(format!("{shown}: {e}"));
                continue;
            }
        };
        let h = &t.headline;
        ranked_column(cfg, t, &results)?;
        let value = crate::family::headline_value(&results, h);
        for w in &results.warnings {
            notes.push(format!("{}: {w}", c.key));
        }
        let inspect = t.insight.inspect.then(|| (gold.clone(), path.clone()));
        scores.push(ColumnScore {
            inspect,
            column: c.clone(),
            value: if value.is_finite() { value } else { 0.0 },
            run: Some(shown),
            results: Some(results),
        });
    }
    if !refusal.problems.is_empty() || !refusal.reports.is_empty() {
        return Ok(Verdict::Refused(refusal));
    }
    Ok(Verdict::Scored(Scored {
        scores,
        ignored,
        notes,
    }))
}
