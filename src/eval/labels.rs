//! Run labels that a scoring ignores: entity types of the run that neither the gold nor the
//! tag set knows. The official scorer drops such entities silently (they are neither correct
//! nor spurious), so renaming `PERS` to `PRS` in a run drops PERS recall to 0 without a word.
//! `score` keeps the official numbers and warns once per unknown label, with its count and the
//! closest evaluated label.

use crate::corpus::{Corpus, Document};
use crate::error::{snippet, Error, Result};
use crate::spans::{entities, Spans};
use std::collections::BTreeSet;

/// A label given on the command line to select or leave out labels (`--labels`, `--exclude`:
/// each option with its labels) that occurs in none of the files read (`seen`: every label of
/// them; `files`: `GOLD nor RUN`, as the message names them) is a usage error naming each such
/// label and the closest that occurs (issue 46.16): it would select or leave out nothing,
/// silently (`--labels PERS,LOC` on PER and LOC scored LOC alone).
pub fn absent_selection(
    given: &[(&str, &[String])],
    seen: &BTreeSet<String>,
    files: &str,
) -> Result<()> {
    let absent: Vec<String> = given
        .iter()
        .flat_map(|(option, labels)| labels.iter().map(move |l| (*option, l)))
        .filter(|(_, l)| !seen.contains(l.as_str()))
        .map(|(option, l)| {
            let hint = match closest(l, seen) {
                Some(c) => format!("did you mean {}?", snippet(c)),
                None if seen.is_empty() => "the files have no labels".to_string(),
                None => format!(
                    "the labels are {}",
                    snippet(&seen.iter().cloned().collect::<Vec<_>>().join(", "))
                ),
            };
            format!(
                "{option}: label {} occurs in neither {files}, so it would {} nothing; {hint}",
                snippet(l),
                if option == "--exclude" {
                    "leave out"
                } else {
                    "select"
                }
            )
        })
        .collect();
    match absent.is_empty() {
        true => Ok(()),
        false => Err(Error::usage(absent.join("; "))),
    }
}

/// One warning line per run entity type of column `pcol` that is not in `tags` (the evaluated
/// labels), in label order: where it first occurs, how many entities carry it, and the closest
/// evaluated label when one is near (edit distance at most a third of the longer label, and
/// at least 1). Cheap when every run label is known: one pass over the distinct run tags.
pub fn unknown_run_labels(
    pred: &Corpus,
    pcol: usize,
    pred_docs: &[Document],
    tags: &BTreeSet<String>,
    column: &str,
    known_by: &str,
) -> Vec<String> {
    let mut seen_unknown = false;
    let mut last = None;
    for t in 0..pred.n_tokens() {
        let cell = pred.cell(t, pcol);
        // `O` and `_` (most cells) have no type: no comparison with the previous cell.
        if matches!(cell.as_bytes(), b"O" | b"_" | b"-" | b"") || last == Some(cell) {
            continue;
        }
        last = Some(cell);
        let ty = entity_type(cell);
        if !ty.is_empty() && !tags.contains(ty) {
            seen_unknown = true;
            break;
        }
    }
    if !seen_unknown {
        return Vec::new();
    }
    // (label) -> (entities, first line)
    let mut unknown: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut sp = Spans::default();
    let mut seq = Vec::new();
    for d in pred_docs {
        seq.clear();
        seq.extend(d.range());
        entities(pred, pcol, &seq, &mut sp);
        for s in &sp.spans {
            let label = sp.label(s);
            if label.is_empty() || tags.contains(label) {
                continue;
            }
            let line = seq.get(s.start as usize).map_or(0, |&t| pred.line(t));
            let e = unknown.entry(label).or_insert((0, line));
            e.0 += 1;
        }
    }
    unknown
        .into_iter()
        .map(|(label, (n, line))| {
            let hint = closest(label, tags)
                .map(|c| format!("; did you mean {c}?"))
                .unwrap_or_default();
            format!(
                "{}:{line}: column {column}: run label {} ({n} entit{}) is not in {known_by}, so these entities are not scored{hint}",
                pred.path.display(),
                crate::error::snippet(label),
                if n == 1 { "y" } else { "ies" },
            )
        })
        .collect()
}

/// The entity type of a NERC cell as the official reader takes it (`B-PERS` → `PERS`); empty
/// for `O`, `_` and `-`.
fn entity_type(cell: &str) -> &str {
    if matches!(cell, "O" | "_" | "-" | "") {
        return "";
    }
    let mut it = cell.char_indices().skip(2);
    it.next().map_or("", |(i, _)| &cell[i..])
}

/// The evaluated label nearest to `label` by edit distance (ties: the first in order), if it
/// is near enough to be a plausible typo.
pub fn closest<'a>(label: &str, tags: &'a BTreeSet<String>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for t in tags {
        let d = edit_distance(label, t);
        let limit = (label.chars().count().max(t.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, t));
        }
    }
    best.map(|(_, t)| t)
}

/// Edit distance over characters (case-insensitive) counting a swap of two neighbours as one
/// edit (optimal string alignment: "subts" is one edit from "subst"), three rows of memory.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            let mut d = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn distances_and_suggestions() {
        assert_eq!(edit_distance("PRS", "PERS"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("subts", "subst"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
        let tags = set(&["LOC", "ORG", "PERS", "PROD", "TIME"]);
        assert_eq!(closest("PRS", &tags), Some("PERS"));
        assert_eq!(closest("pers", &tags), Some("PERS"));
        assert_eq!(closest("LOCATION", &tags), None);
        assert_eq!(closest("XYZ", &tags), None);
        assert_eq!(entity_type("B-PRS"), "PRS");
        assert_eq!(entity_type("O"), "");
    }
}
