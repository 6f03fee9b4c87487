//! The run's own tags and labels, checked the same way whatever the gold's format: the label
//! list (`--labels FILE`, one label a line), the labels a run's labels are checked against
//! ([`Known`]: the list, the gold's, or none for a blind gold), and the pass over a CoNLL run's
//! tags (syntax, transitions, labels) that `check` runs against a CoNLL, brat, doccano, Label
//! Studio or Prodigy gold alike.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::code::Code;
use super::findings::{at, Findings};
use crate::error::{snippet, Error, Result};
use crate::eval::labels::closest;

/// Reads a label list: one label a line, as written (case kept); blank lines are skipped, a
/// label with white space inside or given twice is an input error naming the file and line.
pub fn read_label_list(path: &Path) -> Result<BTreeSet<String>> {
    let text = crate::io::read_text(path)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let label = raw.trim();
        if label.is_empty() {
            continue;
        }
        if label.contains(char::is_whitespace) {
            return Err(Error::input(
                path,
                i + 1,
                format!(
                    "label {} has white space inside: give one label a line",
                    snippet(label)
                ),
            ));
        }
        if let Some(first) = seen.insert(label.to_string(), i + 1) {
            return Err(Error::input(
                path,
                i + 1,
                format!(
                    "label {} is given twice (first at line {first})",
                    snippet(label)
                ),
            ));
        }
    }
    if seen.is_empty() {
        return Err(Error::input(path, 0, "the label list has no label"));
    }
    Ok(seen.into_keys().collect())
}

/// What a run's labels are checked against.
#[derive(Debug, Clone)]
pub enum Known {
    /// A label list given to the check (`--labels`, or the campaign's), checked whatever the
    /// gold holds; whether the gold is blind.
    List(PathBuf, BTreeSet<String>, bool),
    /// The labels of an annotated gold.
    Gold(BTreeSet<String>),
    /// A blind gold (texts without annotations) and no label list: labels are not checked.
    Unchecked,
}

impl Known {
    /// The run's labels are checked against `list` when given, else against the gold's
    /// labels, else (a blind gold) not at all.
    pub fn of(list: Option<(&Path, &BTreeSet<String>)>, gold: BTreeSet<String>) -> Known {
        match list {
            Some((p, l)) => Known::List(p.to_path_buf(), l.clone(), gold.is_empty()),
            None if gold.is_empty() => Known::Unchecked,
            None => Known::Gold(gold),
        }
    }

    /// Whether `label` is known (always, when labels are not checked).
    pub fn knows(&self, label: &str) -> bool {
        match self {
            Known::List(_, l, _) | Known::Gold(l) => l.contains(label),
            Known::Unchecked => true,
        }
    }

    /// The finding of a run label that is not known, at `file:line`, `n` occurrences (`what`:
    /// tokens or spans).
    pub fn unknown(&self, f: &mut Findings, file: &Path, line: usize, label: &str, n: usize) {
        let (set, whose) = match self {
            Known::List(p, l, _) => (l, format!("the label list {}", p.display())),
            Known::Gold(l) => (l, "the gold".to_string()),
            Known::Unchecked => return,
        };
        let all = set.iter().cloned().collect::<Vec<_>>().join(", ");
        let hint = match closest(label, set) {
            Some(c) => format!("did you mean {c}? the labels of {whose} are {all}"),
            None => format!("the labels of {whose} are {all}"),
        };
        let what = match self {
            Known::List(..) => "is not in the label list",
            _ => "is not a gold label",
        };
        f.push(
            Code::UnknownLabel,
            at(file, line)
                .key(label.to_string())
                .message(format!(
                    "label {} {what}: its entities count against the gold (false positives, or incorrect where they overlap a gold entity)",
                    snippet(label)
                ))
                .hint(hint)
                .count(n),
        );
    }

    /// The note of a blind gold: labels were not checked (or only against the list).
    pub fn blind_note(&self, f: &mut Findings, gold: &Path) {
        let message = match self {
            Known::Unchecked => "the gold carries no annotations (texts only): the run's labels were not checked; pass the campaign's label list with --labels FILE to check them".to_string(),
            Known::List(p, _, true) => format!(
                "the gold carries no annotations (texts only): the run's labels were checked against the label list {} only",
                p.display()
            ),
            Known::List(_, _, false) | Known::Gold(_) => return,
        };
        let mut a = at(gold, 0).message(message);
        if let Known::List(..) = self {
            // The list was given: the hint to pass one is not.
            a = a.hint(super::code::MASKED_WITH_LIST);
        }
        f.push(Code::MaskedGold, a);
    }
}

/// The type of an IOB tag: `Some(None)` for `O`, `Some(Some(type))` for `B-`/`I-`/`E-`/`S-TYPE`,
/// `None` for anything else.
pub fn iob_type(tag: &str) -> Option<Option<&str>> {
    if tag == "O" {
        return Some(None);
    }
    let (prefix, ty) = tag.split_at_checked(2)?;
    if matches!(prefix, "B-" | "I-" | "E-" | "S-")
        && !ty.is_empty()
        && !ty.contains(char::is_whitespace)
    {
        Some(Some(ty))
    } else {
        None
    }
}

/// The run's tags, sentence by sentence (each tag with its line), checked for syntax
/// (`tag-syntax`), transitions (`i-without-b`: an `I-X` that continues no `X` entity) and
/// labels (`unknown-label`, against `known`). Nothing here looks at the gold's format.
pub fn check_tags(pred: &Path, sentences: &[Vec<(&str, usize)>], known: &Known, f: &mut Findings) {
    let mut unknown: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for sentence in sentences {
        // The type of the entity the previous tag is in (None after O or a bad tag).
        let mut open: Option<&str> = None;
        for &(tag, line) in sentence {
            // `_` is read as `O`, as the CoNLL reader reads it (docs/conll.md).
            let tag = if tag == "_" { "O" } else { tag };
            let Some(ty) = iob_type(tag) else {
                f.push(
                    Code::TagSyntax,
                    at(pred, line)
                        .key("syntax")
                        .message(format!("tag {} is not O or B-/I-/E-/S-TYPE", snippet(tag))),
                );
                open = None;
                continue;
            };
            if let Some(ty) = ty {
                if tag.starts_with("I-") && open != Some(ty) {
                    f.push(
                        Code::IWithoutB,
                        at(pred, line).key("transition").message(format!(
                            "{} continues no {ty} entity{}: it starts one, as B-{ty} would",
                            snippet(tag),
                            match open {
                                Some(o) => format!(" (after an {o} entity)"),
                                None => String::new(),
                            }
                        )),
                    );
                }
                if !known.knows(ty) {
                    unknown.entry(ty).or_insert((line, 0)).1 += 1;
                }
            }
            open = ty.filter(|_| !tag.starts_with("E-") && !tag.starts_with("S-"));
        }
    }
    for (ty, (line, n)) in unknown {
        known.unknown(f, pred, line, ty, n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(tags: &[&str], known: &Known) -> Vec<(&'static str, usize, usize)> {
        let sentence: Vec<(&str, usize)> =
            tags.iter().enumerate().map(|(i, &t)| (t, i + 1)).collect();
        let mut f = Findings::default();
        check_tags(Path::new("r.conll"), &[sentence], known, &mut f);
        f.into_sorted()
            .iter()
            .map(|x| (x.code, x.line, x.count))
            .collect()
    }

    #[test]
    fn syntax_transitions_and_labels_are_found_once_with_counts() {
        let gold = Known::Gold(["LOC".to_string(), "PER".to_string()].into());
        assert_eq!(
            codes(
                &["B_PER", "I_PER", "O", "I-LOC", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "I-PER"],
                &gold
            ),
            vec![
                ("tag-syntax", 1, 2),
                ("unknown-label", 7, 2),
                ("i-without-b", 4, 2)
            ]
        );
        assert_eq!(codes(&["B-ORG", "I-ORG"], &Known::Unchecked), vec![]);
        assert_eq!(
            codes(&["B-PER", "I-PER", "S-LOC", "I-LOC", "O"], &gold),
            vec![("i-without-b", 4, 1)]
        );
    }

    #[test]
    fn a_label_list_is_read_one_label_a_line_and_refuses_repeats() {
        let dir = std::env::temp_dir().join(format!("fairscore-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("labels.txt");
        std::fs::write(&p, "\u{feff}PER\r\n\nLOC\n").unwrap();
        assert_eq!(read_label_list(&p).unwrap().len(), 2);
        std::fs::write(&p, "PER\nLOC\nPER\n").unwrap();
        let e = read_label_list(&p).unwrap_err().to_string();
        assert!(e.contains(":3:") && e.contains("first at line 1"), "{e}");
        std::fs::write(&p, "B PER\n").unwrap();
        assert!(read_label_list(&p).unwrap_err().to_string().contains(":1:"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
