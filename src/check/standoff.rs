//! `check` of a standoff run (brat, doccano, Label Studio, Prodigy; docs/standoff.md), or of a
//! token run (CoNLL, HIPE TSV) against a standoff gold: the run read and paired with the gold
//! exactly as scoring reads and pairs them, then span by span: labels the gold (or the label
//! list) does not have, spans covering no text, whitespace at span edges, spans given twice. A
//! CoNLL run's tags are checked as against any gold (`labels::check_tags`), and a CoNLL run
//! whose tokens do not reproduce the gold's texts is told where (`onto`), with the codes of a
//! CoNLL gold: the verdict does not depend on the gold's format.

use std::collections::BTreeSet;
use std::path::Path;

use super::code::Code;
use super::findings::{at, Findings};
use super::labels::{check_tags, read_label_list, Known};
use super::CheckReport;
use crate::corpus::standoff::{is_py_space, CharSlicer};
use crate::error::{snippet, Error, Result};
use crate::eval::standoff::{is_standoff, pair_sides, read_sides_with, StandoffRead};
use crate::formats::Format;

/// Checks the standoff run `pred` against `gold`; `format` names the format in the report;
/// `labels`: a label list (one label a line) the run's labels are checked against instead of
/// the gold's (and against a blind gold). A gold that cannot be read is an error of the
/// command; a run that cannot be read or paired is a finding.
pub fn check_standoff(
    gold: &Path,
    pred: &Path,
    read: &StandoffRead,
    format: &str,
    labels: Option<&Path>,
) -> Result<CheckReport> {
    let mut f = Findings::default();
    // A CoNLL run against a standoff gold: its tags are read here as a CoNLL gold would have
    // them read, whatever the gold's format.
    let token_run = read.format.is_none() && is_standoff(gold) && !is_standoff(pred);
    let conll = if token_run {
        crate::formats::read(pred, None, &Default::default())
            .map(|c| Some(c).filter(|c| c.format == Format::Conll.as_str()))
    } else {
        Ok(None)
    };
    let format = match &conll {
        Ok(Some(_)) => "conll",
        _ => format,
    };
    let report = |f: Findings| CheckReport {
        gold: gold.to_path_buf(),
        run: pred.to_path_buf(),
        tasks: Vec::new(),
        format: Some(format.to_string()),
        findings: f.into_sorted(),
    };
    let list = labels
        .map(|p| read_label_list(p).map(|l| (p, l)))
        .transpose()?;
    let list = list.as_ref().map(|(p, l)| (*p, l));
    let conll = match conll {
        Ok(c) => c,
        Err(e) => {
            let (file, line, message) = split(e, pred);
            f.push(Code::Unreadable, at(&file, line).message(message));
            return Ok(report(f));
        }
    };
    // Every refused line or document of a brat run is a finding; the rest is checked.
    let mut refused = |e: Error| {
        let (file, line, message) = split(e, pred);
        f.push(Code::Unreadable, at(&file, line).message(message));
        Ok(())
    };
    let sides = match read_sides_with(gold, pred, read, &mut refused) {
        Ok(s) => s,
        Err(e) => {
            let (file, line, message) = split(e, pred);
            if file.starts_with(gold) {
                return Err(Error::input(&file, line, message));
            }
            match &conll {
                // Tokens that do not reproduce the gold's texts: where, with the codes of a
                // CoNLL gold (missing or extra tokens, a token that differs).
                Some(c) => {
                    let texts = crate::formats::read_standoff(gold, None)?;
                    if !super::onto::diagnose(pred, c, &texts, &mut f) {
                        f.push(Code::Alignment, at(&file, line).message(message));
                    }
                    run_tags(gold, pred, c, read, list, &texts, &mut f);
                }
                None => f.push(Code::Unreadable, at(&file, line).message(message)),
            }
            return Ok(report(f));
        }
    };
    let gold_labels: BTreeSet<String> = sides
        .gold
        .iter()
        .flat_map(|d| d.spans.iter().map(|s| s.label.clone()))
        .collect();
    let known = Known::of(list, gold_labels);
    if let Some(c) = &conll {
        run_tags(gold, pred, c, read, list, &sides.gold, &mut f);
    }
    // Labels need no pairing: a missing document does not hide a bad label (a CoNLL run's
    // labels were checked with its tags).
    if conll.is_none() {
        for run in &sides.run {
            for s in run.spans.iter().filter(|s| !known.knows(&s.label)) {
                known.unknown(&mut f, &run.path, s.line, &s.label, 1);
            }
        }
    }
    let pairs = match pair_sides(pred, sides) {
        Ok(p) => p,
        Err(e) => {
            let (file, line, message) = split(e, pred);
            f.push(Code::Alignment, at(&file, line).message(message));
            return Ok(report(f));
        }
    };
    if conll.is_none() {
        known.blind_note(&mut f, gold);
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
        }
    }
    Ok(report(f))
}

/// The tags of a CoNLL run against a standoff gold, checked as against a CoNLL gold: the
/// scored column's tags sentence by sentence, its labels against the list or the gold's
/// (`texts`: the gold's documents as read).
fn run_tags(
    gold: &Path,
    pred: &Path,
    c: &crate::corpus::Corpus,
    read: &StandoffRead,
    list: Option<(&Path, &BTreeSet<String>)>,
    texts: &[crate::corpus::standoff::StandoffDoc],
    f: &mut Findings,
) {
    let col = match super::columns::conll_column(c, read.column.as_deref()) {
        Ok(col) => col,
        Err(e) => {
            let (file, line, message) = split(e, pred);
            f.push(Code::Unreadable, at(&file, line).message(message));
            return;
        }
    };
    let gold_labels: BTreeSet<String> = texts
        .iter()
        .flat_map(|d| d.spans.iter().map(|s| s.label.clone()))
        .collect();
    let known = Known::of(list, gold_labels);
    known.blind_note(f, gold);
    let mut sentences = Vec::new();
    for d in &c.docs {
        let mut t = d.start;
        for &n in &d.segments {
            sentences.push((t..t + n).map(|k| (c.cell(k, col), c.line(k))).collect());
            t += n;
        }
    }
    check_tags(pred, &sentences, &known, f);
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
