//! `check` of a standoff run (brat, doccano, Label Studio, Prodigy; docs/standoff.md): the run
//! read and paired with the gold exactly as scoring reads and pairs them, then span by span:
//! labels the gold does not have, spans covering no text, whitespace at span edges, spans
//! given twice.

use std::collections::BTreeSet;
use std::path::Path;

use super::code::Code;
use super::findings::{at, Findings};
use super::CheckReport;
use crate::corpus::standoff::{is_py_space, CharSlicer};
use crate::error::{snippet, Error, Result};
use crate::eval::standoff::{pair_sides, read_sides, StandoffRead};

/// Checks the standoff run `pred` against `gold`; `format` names the format in the report.
/// A gold that cannot be read is an error of the command; a run that cannot be read or paired
/// is a finding.
pub fn check_standoff(
    gold: &Path,
    pred: &Path,
    read: &StandoffRead,
    format: &str,
) -> Result<CheckReport> {
    let mut f = Findings::default();
    let report = |f: Findings| CheckReport {
        gold: gold.to_path_buf(),
        run: pred.to_path_buf(),
        tasks: Vec::new(),
        format: Some(format.to_string()),
        findings: f.into_sorted(),
    };
    let sides = match read_sides(gold, pred, read) {
        Ok(s) => s,
        Err(e) => {
            let (file, line, message) = split(e, pred);
            if file.starts_with(gold) {
                return Err(Error::input(&file, line, message));
            }
            f.push(Code::Unreadable, at(&file, line).message(message));
            return Ok(report(f));
        }
    };
    let gold_labels: BTreeSet<String> = sides
        .gold
        .iter()
        .flat_map(|d| d.spans.iter().map(|s| s.label.clone()))
        .collect();
    let pairs = match pair_sides(pred, sides) {
        Ok(p) => p,
        Err(e) => {
            let (file, line, message) = split(e, pred);
            f.push(Code::Alignment, at(&file, line).message(message));
            return Ok(report(f));
        }
    };
    if gold_labels.is_empty() {
        f.push(
            Code::MaskedGold,
            at(gold, 0)
                .message("the gold has no spans: only the run's files and texts are checked"),
        );
    }
    // Spans given twice: scoring counts them once (pairing left the repeats out).
    for r in pairs.repeats.iter().filter(|r| r.run) {
        f.push(
            Code::DuplicateSpan,
            at(&r.path, r.duplicate.span.line)
                .message(format!("{}: it is counted once", r.describe())),
        );
    }
    for (_, run) in &pairs.docs {
        let text = CharSlicer::new(&run.text);
        for s in &run.spans {
            let here = || at(&run.path, s.line);
            let pieces: Vec<&str> = s.fragments.iter().map(|&(a, b)| text.slice(a, b)).collect();
            let span = format!("span {} ({})", snippet(&s.id), snippet(&s.label));
            let covered = snippet(&pieces.join(" … "));
            if pieces.iter().all(|p| p.chars().all(is_py_space)) {
                f.push(
                    Code::EmptySpan,
                    here().message(format!(
                        "{span} covers {}: it is not scored",
                        if pieces.iter().all(|p| p.is_empty()) {
                            "no text"
                        } else {
                            "only whitespace"
                        }
                    )),
                );
                continue;
            }
            let edge = |p: &&str| {
                p.starts_with(|c: char| is_py_space(c)) || p.ends_with(|c: char| is_py_space(c))
            };
            if pieces.iter().any(edge) {
                f.push(
                    Code::SpanWhitespace,
                    here().message(format!("{span} has whitespace at an edge: {covered}")),
                );
            }
            if !gold_labels.is_empty() && !gold_labels.contains(&s.label) {
                f.push(
                    Code::UnknownLabel,
                    here()
                        .key(s.label.clone())
                        .message(format!(
                            "label {} is not a gold label: its spans count against the gold (false positives, or incorrect where they overlap a gold span)",
                            snippet(&s.label)
                        ))
                        .hint("use the gold's labels, spelled as the gold spells them"),
                );
            }
        }
    }
    Ok(report(f))
}

/// The file, line and message of an error (the run, line 0, for one without a place).
fn split(e: Error, pred: &Path) -> (std::path::PathBuf, usize, String) {
    match e {
        Error::Input {
            path,
            line,
            message,
        } => (path, line, message),
        other => (pred.to_path_buf(), 0, other.to_string()),
    }
}
