//! The participant self-check (`fairscore check`): validates a run against the gold without
//! scoring it, and reports every problem once, most serious first.
//!
//! This module owns the public API ([`check`], [`check_bytes`], [`CheckOptions`]), the report
//! ([`CheckReport`]: summary, text and JSON) and the order of the passes:
//! 1. `names`: the run's file name, the tasks of its bundle, the data set and language;
//! 2. `read`: the run read by the scorer's own reader: a rejection explained, the header
//!    and columns, and the reader's notices (what it repaired or tolerated) as findings;
//! 3. `lexical`: what the reader does not look at, cell by cell: tag and link syntax, empty
//!    tags and columns;
//! 4. `structural`: with the scorer's alignment, once nothing is an error: documents,
//!    tokens, labels and links against the gold.
//!
//! Every kind of finding is a [`Code`] with its severity (see `docs/errors.md`):
//! - `error`: `fairscore score` (and the official scorer) would reject the run or fail on it;
//! - `warning`: the run would be scored, but not as intended: something would be silently
//!   patched, ignored or read differently from what the file seems to say;
//! - `note`: harmless observations (IOBES read as IOB, CRLF line ends, extra columns, …).
//!
//! A run passes (exit 0) when it has no errors and no warnings.

mod code;
mod columns;
mod findings;
mod labels;
mod lexical;
mod names;
mod onto;
mod read;
mod standoff;
mod structural;

pub use code::{Code, Severity};
pub use columns::{check_columns, ColumnCheck};
pub use findings::Finding;
pub use labels::read_label_list;
pub use standoff::check_standoff;

use crate::corpus::{Corpus, ReadOptions};
use crate::error::Result;
use crate::hipe::{Edition, Task};
use findings::{at, Findings};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What to check against.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The task to check for; `None`: the tasks of the run's bundle (from its file name), or
    /// else every task whose columns the gold has.
    pub task: Option<Task>,
    /// The HIPE edition: decides the columns and the file-name convention.
    pub edition: Edition,
    /// Upper-cased labels of a `--tagset` file.
    pub tagset: Option<BTreeSet<String>>,
    /// Do not check the run's file name (as `score --skip-check`).
    pub skip_name_check: bool,
}

impl CheckOptions {
    /// Options for `edition`: tasks from the file names (or the gold), no tagset, the file
    /// name checked.
    pub fn new(edition: Edition) -> Self {
        CheckOptions {
            task: None,
            edition,
            tagset: None,
            skip_name_check: false,
        }
    }
}

/// The result of a check.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    /// The gold file, as named to the check.
    pub gold: PathBuf,
    /// The run file, as named to the check.
    pub run: PathBuf,
    /// The tasks checked (HIPE runs).
    pub tasks: Vec<Task>,
    /// The format checked, for runs other than HIPE TSV.
    pub format: Option<String>,
    /// Findings, most serious first, then by line.
    pub findings: Vec<Finding>,
}

impl CheckReport {
    /// Number of findings of a severity.
    pub fn count(&self, s: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == s).count()
    }

    /// True when the run would be scored as intended (no errors, no warnings).
    pub fn ok(&self) -> bool {
        self.findings.iter().all(|f| f.severity == Severity::Note)
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let verdict = if self.count(Severity::Error) > 0 {
            "the run would not be scored; fix the errors"
        } else if self.count(Severity::Warning) > 0 {
            "the run would be scored, but not as intended; see the warnings"
        } else {
            "the run would be scored as intended"
        };
        let tasks: Vec<&str> = self.tasks.iter().map(|t| t.as_str()).collect();
        let what = match &self.format {
            Some(f) => format!("format: {f}"),
            None if tasks.is_empty() => "tasks: none".to_string(),
            None => format!("tasks: {}", tasks.join(", ")),
        };
        format!(
            "{}: {}, {}, {} ({what}); {verdict}",
            self.run.display(),
            plural(self.count(Severity::Error), "error"),
            plural(self.count(Severity::Warning), "warning"),
            plural(self.count(Severity::Note), "note"),
        )
    }

    /// Human-readable report: one line per finding and its hint, then the summary line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let loc = if f.line > 0 {
                format!("{}:{}", f.file.display(), f.line)
            } else {
                f.file.display().to_string()
            };
            let col = f
                .column
                .as_deref()
                .map(|c| format!(" [{c}]"))
                .unwrap_or_default();
            let more = if f.count > 1 {
                format!(" ({} occurrences)", f.count)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{}: {loc}{col}: {}{more}\n",
                f.severity.as_str(),
                f.message
            ));
            if f.places.len() > 1 {
                out.push_str(&format!("  at: {}\n", places_text(f)));
            }
            if !f.hint.is_empty() {
                out.push_str(&format!("  hint: {}\n", f.hint));
            }
        }
        out.push_str(&format!("summary: {}\n", self.summary()));
        out
    }

    /// The same findings as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "gold": self.gold.display().to_string(),
            "run": self.run.display().to_string(),
            "tasks": self.tasks.iter().map(|t| t.as_str()).collect::<Vec<_>>(),
            "ok": self.ok(),
            "errors": self.count(Severity::Error),
            "warnings": self.count(Severity::Warning),
            "notes": self.count(Severity::Note),
            "summary": self.summary(),
            "findings": self.findings.iter().map(|f| serde_json::json!({
                "severity": f.severity,
                "code": f.code,
                "file": f.file.display().to_string(),
                "line": f.line,
                "column": f.column,
                "message": f.message,
                "hint": f.hint,
                "count": f.count,
                "places": f.places.iter().map(|p| serde_json::json!({
                    "file": p.file.display().to_string(),
                    "line": p.line,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}

/// A finding's places on one line: `line 1, 2, 3` in its first file, `file:line` in others,
/// then how many more there are.
fn places_text(f: &Finding) -> String {
    let first = f.places.first().map(|p| p.file.as_path());
    let each: Vec<String> = f
        .places
        .iter()
        .map(|p| match Some(p.file.as_path()) == first {
            true => p.line.to_string(),
            false => format!("{}:{}", p.file.display(), p.line),
        })
        .collect();
    let more = f.count.saturating_sub(f.places.len());
    let more = match more {
        0 => String::new(),
        n => format!(", … ({n} more)"),
    };
    format!("line {}{more}", each.join(", "))
}

/// What a checked column holds and why it is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Tags scored by a NERC task.
    Tags,
    /// Tags that only bound the link objects of NEL (their labels do not matter).
    Bounds,
    /// Links (NEL).
    Links,
}

/// A column the checked tasks need.
#[derive(Debug, Clone, Copy)]
struct Checked {
    name: &'static str,
    kind: Kind,
}

/// What every pass needs to know.
struct Ctx<'a> {
    gold: &'a Corpus,
    /// The run's path, named in its findings.
    path: &'a Path,
    opts: &'a CheckOptions,
    tasks: &'a names::Tasks,
    /// The columns to check, in the edition's order.
    checked: Vec<Checked>,
    /// The gold carries no annotations (a masked test file).
    masked: bool,
}

/// Checks the run at `pred` against the gold at `gold`. An unreadable run or gold, or a gold
/// that cannot be parsed, is an error (nothing can be checked); every problem of the run's
/// content is a finding.
pub fn check(gold: &Path, pred: &Path, opts: &CheckOptions) -> Result<CheckReport> {
    let gold_bytes = crate::io::read_input(gold)?;
    let pred_bytes = crate::io::read_input(pred)?;
    check_bytes(gold, &gold_bytes, pred, &pred_bytes, opts)
}

/// [`check`] on file contents (`gold` and `pred` name the files in findings and messages).
pub fn check_bytes(
    gold_path: &Path,
    gold_bytes: &[u8],
    pred_path: &Path,
    pred_bytes: &[u8],
    opts: &CheckOptions,
) -> Result<CheckReport> {
    let gold = crate::formats::hipe::parse(gold_path, gold_bytes, &ReadOptions::default())?;
    let gold_text = std::str::from_utf8(gold_bytes)
        .map_err(|e| crate::io::utf8_error(gold_path, gold_bytes, &e))?;
    let mut f = Findings::default();
    let tasks = names::tasks(&gold, gold_path, pred_path, opts, &mut f);
    let checked = checked_columns(&tasks.tasks, opts.edition);
    for c in &checked {
        if gold.column(c.name).is_none() {
            f.push(
                Code::GoldColumn,
                at(gold_path, 1).column(c.name).message(format!(
                    "the gold has no column {}, needed for the tasks checked",
                    c.name
                )),
            );
        }
    }
    let masked = is_masked(&gold);
    if masked {
        // With a tagset, labels are checked now: nothing to pass (no `--labels` hint).
        let hint = match opts.tagset {
            Some(_) => code::MASKED_WITH_LIST,
            None => Code::MaskedGold.hint(),
        };
        f.push(
            Code::MaskedGold,
            at(gold_path, 0).hint(hint).message(format!(
                "the gold carries no annotations (a masked test file?): only the run's structure and syntax are checked, not its labels{} nor its links against the gold",
                if opts.tagset.is_some() { " (beyond the tagset)" } else { "" }
            )),
        );
    }
    let cx = Ctx {
        gold: &gold,
        path: pred_path,
        opts,
        tasks: &tasks,
        checked,
        masked,
    };
    if let Some(run) = read::run(&cx, gold_text, pred_bytes, &mut f) {
        lexical::check(&cx, &run, &mut f);
        if !f.has_error() {
            structural::check(&cx, &run.corpus, &mut f);
        }
    }
    Ok(CheckReport {
        gold: gold_path.to_path_buf(),
        run: pred_path.to_path_buf(),
        tasks: tasks.tasks,
        format: None,
        findings: f.into_sorted(),
    })
}

/// The columns of the tasks, each once, in the edition's order; an `NE-` column scored by a
/// NERC task and bounding NEL link objects counts as scored.
fn checked_columns(tasks: &[Task], edition: Edition) -> Vec<Checked> {
    let mut checked: Vec<Checked> = Vec::new();
    let mut add = |name: &'static str, kind: Kind| match checked.iter_mut().find(|c| c.name == name)
    {
        Some(c) if c.kind == Kind::Bounds && kind == Kind::Tags => c.kind = Kind::Tags,
        Some(_) => {}
        None => checked.push(Checked { name, kind }),
    };
    for &t in tasks {
        for &(col, ne) in edition.columns(t) {
            add(
                col,
                if t == Task::Nel {
                    Kind::Links
                } else {
                    Kind::Tags
                },
            );
            if !ne.is_empty() {
                add(ne, Kind::Bounds);
            }
        }
    }
    checked
}

/// Whether the gold has `NE-`/`NEL-` columns and tokens, but no tag or link in any of them
/// (what participants have before the deadline).
fn is_masked(gold: &Corpus) -> bool {
    let cols: Vec<usize> = (0..gold.columns.len())
        .filter(|&i| gold.columns[i].starts_with("NE-") || gold.columns[i].starts_with("NEL-"))
        .collect();
    !cols.is_empty()
        && gold.n_tokens() > 0
        && (0..gold.n_tokens()).all(|t| cols.iter().all(|&c| is_blank(gold.cell(t, c))))
}

/// A cell that holds no tag or link.
fn is_blank(cell: &str) -> bool {
    matches!(cell, "_" | "-" | "O" | "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_scored_and_bounding_links_counts_as_scored() {
        let c = checked_columns(&[Task::Nel, Task::NercCoarse], Edition::Hipe2022);
        let got: Vec<(&str, Kind)> = c.iter().map(|c| (c.name, c.kind)).collect();
        assert_eq!(
            got,
            vec![("NEL-LIT", Kind::Links), ("NE-COARSE-LIT", Kind::Tags)]
        );
        let c = checked_columns(&[Task::Nel], Edition::Hipe2020);
        assert_eq!(c[1].kind, Kind::Bounds);
    }

    fn codes(run: &str) -> Vec<(&'static str, usize)> {
        let gold = "TOKEN\tNE-COARSE-LIT\tMISC\na\tB-LOC\t_\nb\tO\t_\n";
        let mut opts = CheckOptions::new(Edition::Hipe2022);
        opts.task = Some(Task::NercCoarse);
        opts.skip_name_check = true;
        check_bytes(
            Path::new("g.tsv"),
            gold.as_bytes(),
            Path::new("r.tsv"),
            run.as_bytes(),
            &opts,
        )
        .map(|r| r.findings.iter().map(|f| (f.code, f.line)).collect())
        .unwrap_or_default()
    }

    #[test]
    fn a_rejected_run_is_explained_and_its_header_still_checked() {
        // The reader stops at the first row with extra cells; the header is still checked.
        assert_eq!(
            codes("TOKEN\tNE-COARSE\tMISC\na\tB-LOC\t_\tx\nb\tO\t_\ty\n"),
            vec![
                ("missing-column", 1),
                ("extra-cells", 2),
                ("extra-columns", 1)
            ]
        );
        // Space-separated names explain the extra cells.
        assert_eq!(
            codes("TOKEN NE-COARSE-LIT MISC\na\tB-LOC\t_\n"),
            vec![("header", 1)]
        );
        assert_eq!(codes(""), vec![("header", 1)]);
        assert_eq!(
            codes("TOKEN\tNE-COARSE-LIT\r\r\na\tO\n"),
            vec![("line-ends", 1)]
        );
        assert_eq!(
            codes("\u{feff}TOKEN\tNE-COARSE-LIT\tMISC\r\na\tb-loc\t_\r\nb\tO\t_\r\n"),
            vec![("bom", 1), ("crlf", 1), ("lower-case", 2)]
        );
    }
}
