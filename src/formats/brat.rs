//! brat standoff: an `.ann` file beside the `.txt` it annotates, or a directory of such pairs
//! (matched by relative path), read into `StandoffDoc`s.
//!
//! Lines of an `.ann` file, by the first character of their id:
//! - `T` text-bound annotations, `T1<TAB>LABEL start end[;start end…]<TAB>text`: the spans.
//!   Offsets are code points of the `.txt`; every fragment is checked against the text (in
//!   range, end not before start, sharing no character with another fragment of the span) and
//!   the third column, if not empty, against the text it covers (fragments joined by a space;
//!   runs of whitespace compare as one space, whitespace at either end is ignored). The
//!   fragments are then kept sorted by position, as brat compares them.
//! - `E` events: read; the trigger of an event (`E1<TAB>TYPE:T4 …`) is a `T` line of the
//!   event's type (brat refuses any other), and is not counted as an entity.
//! - `N` normalizations, `N1<TAB>Reference T3 Wikidata:Q42<TAB>Douglas Adams`: kept beside
//!   the spans (`StandoffDoc::norms`: id, target, reference, line) as written; the nel family
//!   reads them as links and checks them (the other readers of brat files ignore them).
//! - `R` relations, `A`/`M` attributes, `*` equivalences, `#` notes: read for their id and
//!   skipped; they are never entities.
//!
//! Any other line, a `T` line of the wrong shape, an event without its trigger and an id given
//! twice are errors naming the file and line; so is an `.ann` file without its `.txt`, and a
//! directory without `.ann` files. Hidden files and directories (`.name`: editor checkpoints,
//! macOS `._name` resource forks) are not read, as brat does not list them.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::corpus::standoff::{
    same_words, CharSlicer, OffsetIndex, OffsetUnit, StandoffDoc, StandoffNorm, StandoffSpan,
};
use crate::error::{snippet, Error, Result};

/// Most `.ann` files read from one directory.
pub const MAX_FILES: usize = 1 << 20;

/// Whether `text` looks like a brat `.ann` file: its first non-blank line starts with an id
/// such as `T1` followed by a tab and an annotation of brat's shape (`TYPE ARG…`, or an event's
/// `TYPE:TRIGGER`), so that a token file whose first token is `M1` or `A1` (a road) is not
/// taken for one.
pub fn looks_like_ann(text: &str) -> bool {
    let Some(line) = text.lines().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let mut fields = line.split('\t');
    let id = fields.next().unwrap_or("");
    let Some(annotation) = fields.next() else {
        return false;
    };
    let kind = id.chars().next();
    matches!(kind, Some('T' | 'R' | 'E' | 'A' | 'M' | 'N' | '#' | '*'))
        && (id == "*" || id[1..].bytes().all(|b| b.is_ascii_digit()) && id.len() > 1)
        && (annotation.trim().contains(' ') || kind == Some('E') && annotation.contains(':'))
}

/// What a lenient reader does with a refused line or document: `Err` stops the reading,
/// `Ok` leaves the line (or document) out and reads on (`check` collects every problem).
pub type OnError<'a> = &'a mut dyn FnMut(Error) -> Result<()>;

/// Parses an `.ann` file's text against the text of its `.txt`, each refused line given to
/// `on_error` (a refused `T` line, or an event whose trigger is refused, is left out when it
/// returns `Ok`; `&mut Err` stops at the first).
pub fn parse_with(
    ann_path: &Path,
    ann: &str,
    text: String,
    name: &str,
    on_error: OnError<'_>,
) -> Result<StandoffDoc> {
    let ann = ann.strip_prefix('\u{feff}').unwrap_or(ann);
    let index = OffsetIndex::new(&text, OffsetUnit::CodePoint);
    let slicer = CharSlicer::new(&text);
    let mut ids: HashMap<&str, usize> = HashMap::new();
    // Events: (line, id, type, trigger id).
    let mut events: Vec<(usize, &str, &str, &str)> = Vec::new();
    let mut spans = Vec::new();
    let mut norms = Vec::new();
    for (i, raw) in ann.split('\n').enumerate() {
        let ln = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.splitn(3, '\t').collect();
        let id = fields[0];
        let kind = id.chars().next().unwrap_or(' ');
        if !matches!(kind, 'T' | 'R' | 'E' | 'A' | 'M' | 'N' | '#' | '*') || fields.len() < 2 {
            on_error(Error::input(
                ann_path,
                ln,
                format!(
                    "expected a brat annotation line (an id T1, R1, E1, A1, M1, N1, #1 or *, a \
                     tab, then the annotation), found {}",
                    snippet(line)
                ),
            ))?;
            continue;
        }
        if kind != '*' {
            if let Some(first) = ids.insert(id, ln) {
                on_error(Error::input(
                    ann_path,
                    ln,
                    format!("duplicate id {} (first on line {first})", snippet(id)),
                ))?;
                continue;
            }
        }
        match kind {
            'T' => match text_bound(ann_path, ln, &fields, &slicer, &index) {
                Ok(span) => spans.push(span),
                Err(e) => on_error(e)?,
            },
            'N' => {
                // `Reference T3 Wikidata:Q42`: kept as written, checked by its reader.
                let mut parts = fields[1].split_whitespace().skip(1);
                let mut next = || parts.next().unwrap_or("").to_string();
                norms.push(StandoffNorm {
                    id: id.to_string(),
                    target: next(),
                    reference: next(),
                    line: ln,
                });
            }
            'E' => {
                // `TYPE:TRIGGER Role:ARG …`: the trigger is the first argument.
                let trigger = fields[1]
                    .split_whitespace()
                    .next()
                    .and_then(|t| t.split_once(':'));
                match trigger {
                    Some((kind, t)) => events.push((ln, id, kind, t)),
                    None => on_error(Error::input(
                        ann_path,
                        ln,
                        format!(
                            "expected an event TYPE:TRIGGER [ROLE:ARG …], found {}",
                            snippet(fields[1])
                        ),
                    ))?,
                }
            }
            _ => {}
        }
    }
    // The trigger of an event is a `T` line of the event's type, as brat requires (an event
    // line of roles only, `E1<TAB>Agent:T1`, would otherwise take an entity for a trigger and
    // drop it). Triggers may be defined after the event.
    let labels: HashMap<&str, &str> = spans
        .iter()
        .map(|s: &StandoffSpan| (s.id.as_str(), s.label.as_str()))
        .collect();
    let mut triggers: HashSet<String> = HashSet::new();
    for &(ln, id, kind, trigger) in &events {
        match labels.get(trigger) {
            Some(&label) if label == kind => {
                triggers.insert(trigger.to_string());
            }
            found => {
                let what = match found {
                    Some(label) => format!("is a {} annotation", snippet(label)),
                    None => "is not a T line of this file".to_string(),
                };
                on_error(Error::input(
                    ann_path,
                    ln,
                    format!(
                        "event {}: its trigger {} {what}; an event line is \
                         E<id><TAB>TYPE:TRIGGER [ROLE:ARG …] with TRIGGER a T line of type {}",
                        snippet(id),
                        snippet(trigger),
                        snippet(kind)
                    ),
                ))?;
            }
        }
    }
    spans.retain(|s| !triggers.contains(&s.id));
    spans.shrink_to_fit();
    Ok(StandoffDoc {
        name: name.to_string(),
        path: ann_path.to_path_buf(),
        text,
        spans,
        norms,
    })
}

/// One `T` line.
fn text_bound(
    path: &Path,
    ln: usize,
    fields: &[&str],
    text: &CharSlicer,
    index: &OffsetIndex,
) -> Result<StandoffSpan> {
    let shape = || {
        Error::input(
            path,
            ln,
            format!(
                "expected T<id><TAB>LABEL start end[;start end…]<TAB>text, found {}",
                snippet(fields.get(1).copied().unwrap_or(""))
            ),
        )
    };
    let (label, offsets) = fields[1].split_once(' ').ok_or_else(shape)?;
    if label.is_empty() {
        return Err(shape());
    }
    let mut fragments = Vec::new();
    for frag in offsets.split(';') {
        let mut it = frag.split_whitespace();
        let (Some(a), Some(b), None) = (it.next(), it.next(), it.next()) else {
            return Err(shape());
        };
        let num = |s: &str| {
            s.parse::<usize>().map_err(|_| {
                Error::input(
                    path,
                    ln,
                    format!("expected a character offset, found {}", snippet(s)),
                )
            })
        };
        fragments.push(index.check(path, ln, num(a)?, num(b)?)?);
    }
    // An empty third column is no text, as brat reads it (it fills the column in).
    if let Some(given) = fields.get(2).filter(|g| !g.trim().is_empty()) {
        let covered: Vec<&str> = fragments.iter().map(|&(s, e)| text.slice(s, e)).collect();
        let covered = covered.join(" ");
        // Line breaks written as one space (`\r\n` too), whitespace at the ends dropped.
        if !same_words(given, &covered) {
            return Err(Error::input(
                path,
                ln,
                format!(
                    "text mismatch: the annotation says {} but the .txt has {} at {}",
                    snippet(given),
                    snippet(&covered),
                    offsets
                ),
            ));
        }
    }
    // Fragments by position, as brat compares them (`16 21;0 4` is `0 4;16 21`); two that
    // share a character are refused, as brat refuses them (the shared tokens would count twice).
    fragments.sort_unstable();
    let mut widest: Option<(usize, usize)> = None;
    for &(s, e) in &fragments {
        if let Some((ws, we)) = widest {
            if s < e && s < we {
                return Err(Error::input(
                    path,
                    ln,
                    format!(
                        "fragments {ws}-{we} and {s}-{e} overlap: the fragments of a \
                         discontinuous span cover distinct characters"
                    ),
                ));
            }
        }
        if widest.is_none_or(|(_, we)| e > we) {
            widest = Some((s, e));
        }
    }
    Ok(StandoffSpan {
        id: fields[0].to_string(),
        label: label.to_string(),
        fragments,
        line: ln,
    })
}

/// The `.txt` beside an `.ann` file.
pub fn text_path(ann: &Path) -> PathBuf {
    ann.with_extension("txt")
}

/// Reads one `.ann` file and the `.txt` beside it, each refused line given to `on_error`.
fn read_pair_with(ann: &Path, name: &str, on_error: OnError<'_>) -> Result<StandoffDoc> {
    let ann_text = crate::io::read_text(ann)?;
    let txt = text_path(ann);
    if !txt.is_file() {
        return Err(Error::input(
            ann,
            0,
            format!(
                "missing text file {}: a brat .ann file is read beside its .txt",
                txt.display()
            ),
        ));
    }
    // The text as brat and Python read it: a byte-order mark, if any, is a character.
    let text = crate::io::into_utf8(&txt, crate::io::read_input(&txt)?)?;
    parse_with(ann, &ann_text, text, name, on_error)
}

/// The `.ann` files under `dir` (any depth, symbolic links to directories not followed,
/// hidden files and directories skipped as brat skips them), as relative paths with `/`
/// separators, sorted.
pub fn ann_files(dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).map_err(|e| Error::input(&d, 0, crate::io::io_reason(&e)))?;
        for e in entries.flatten() {
            // `.ipynb_checkpoints/`, `.git/`, macOS `._a.ann` resource forks: not documents.
            if e.file_name().as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ann") {
                let rel = p.strip_prefix(dir).unwrap_or(&p);
                let parts: Vec<String> = rel
                    .iter()
                    .map(|c| c.to_string_lossy().into_owned())
                    .collect();
                out.push(parts.join("/"));
                if out.len() > MAX_FILES {
                    return Err(Error::input(
                        dir,
                        0,
                        format!("more than {MAX_FILES} .ann files"),
                    ));
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Reads every `.ann`/`.txt` pair under `dir`, named by relative path, in name order. A
/// directory without `.ann` files is an error (it would be read as no document at all).
pub fn read_dir(dir: &Path) -> Result<Vec<StandoffDoc>> {
    read_dir_with(dir, &mut Err)
}

/// [`read_dir`], each refused line or document given to `on_error` (a document it lets go
/// is left out).
fn read_dir_with(dir: &Path, on_error: OnError<'_>) -> Result<Vec<StandoffDoc>> {
    let files = ann_files(dir)?;
    if files.is_empty() {
        return Err(Error::input(
            dir,
            0,
            "no .ann file in this directory: a brat directory holds .ann files, each beside \
             its .txt",
        ));
    }
    let mut docs = Vec::with_capacity(files.len());
    for rel in &files {
        match read_pair_with(&dir.join(rel), rel, on_error) {
            Ok(d) => docs.push(d),
            Err(e) => on_error(e)?,
        }
    }
    Ok(docs)
}

/// Reads a file or a directory of brat annotations, each refused line or document given to
/// `on_error` (`&mut Err` stops at the first).
pub fn read_with(path: &Path, on_error: OnError<'_>) -> Result<Vec<StandoffDoc>> {
    if path.is_dir() {
        read_dir_with(path, on_error)
    } else {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(vec![read_pair_with(path, &name, on_error)?])
    }
}

/// The entity types of a brat `annotation.conf`, as brat reads them: the `[entities]` section
/// (or `[spans]`, its alias); on each line the first whitespace-separated field, of which the
/// first `|`-separated term is the type (the others are display aliases); `!` (an abstract
/// type) removed, and the storage form brat writes into `.ann` files: every character but
/// ASCII letters, digits, `_` and `-` replaced by `_`. Hierarchy indentation, comments (`#`),
/// separators (`---`) and macros (`<NAME>=…`) are skipped.
pub fn entity_types(conf: &Path) -> Result<Vec<String>> {
    let text = crate::io::read_text(conf)?;
    let mut out = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t.starts_with('[') && t.ends_with(']') {
            section = t[1..t.len() - 1].trim().to_string();
            continue;
        }
        if !matches!(section.as_str(), "entities" | "spans")
            || t.starts_with('<')
            || t.chars().all(|c| c == '-')
        {
            continue;
        }
        let terms = t.split_whitespace().next().unwrap_or("");
        let Some(term) = terms.split('|').map(str::trim).find(|x| !x.is_empty()) else {
            continue;
        };
        let name: String = term
            .trim_start_matches('!')
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if !name.is_empty() && !out.iter().any(|x| x == &name) {
            out.push(name);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(ann: &str, text: &str) -> Result<StandoffDoc> {
        parse_with(Path::new("a.ann"), ann, text.to_string(), "a", &mut Err)
    }

    #[test]
    fn reads_entities_and_skips_the_rest() {
        let text = "Anna met Bob in Paris today.";
        let ann = "T1\tPER 0 4\tAnna\nT2\tPER 9 12\tBob\nT3\tMeet 5 8\tmet\n\
                   E1\tMeet:T3 Agent:T1\nR1\tKnows Arg1:T1 Arg2:T2\nA1\tNeg E1\n\
                   M2\tConf T1 High\nN1\tRef T1 Wiki:1\tAnna\n*\tEquiv T1 T2\n\
                   #1\tAnnotatorNotes T1\tnote\nT4\tLOC 16 18;19 21\tPa is\n";
        let d = doc(ann, text).ok().unwrap_or_else(|| panic!("parses"));
        let got: Vec<(&str, &[(usize, usize)])> = d
            .spans
            .iter()
            .map(|s| (s.label.as_str(), s.fragments.as_slice()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("PER", &[(0, 4)][..]),
                ("PER", &[(9, 12)][..]),
                ("LOC", &[(16, 18), (19, 21)][..])
            ]
        );
        let n = &d.norms[0];
        assert_eq!(d.norms.len(), 1);
        assert_eq!(
            (
                n.id.as_str(),
                n.target.as_str(),
                n.reference.as_str(),
                n.line
            ),
            ("N1", "T1", "Wiki:1", 8)
        );
    }

    #[test]
    fn refuses_malformed_lines() {
        let text = "Anna met Bob.";
        for (ann, needle) in [
            ("T1\tPER 0 40\tAnna\n", "beyond the end"),
            ("T1\tPER 4 0\tAnna\n", "before its start"),
            ("T1\tPER 0 4\tAnne\n", "text mismatch"),
            ("T1\tPER 0 4\tAnna\nT1\tPER 9 12\tBob\n", "duplicate id"),
            ("T1\tPER 0 x\tAnna\n", "character offset"),
            ("T1\tPER\tAnna\n", "expected T<id>"),
            ("X1\tfoo\n", "expected a brat annotation line"),
            ("E1\tMeet\n", "expected an event"),
        ] {
            let e = doc(ann, text)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(needle), "{ann:?}: {e}");
            assert!(e.starts_with("a.ann:"), "{e}");
        }
    }

    #[test]
    fn spans_as_brat_reads_them() {
        let text = "Anna met\r\nBob in Paris.";
        let frags = |ann: &str| -> Vec<Vec<(usize, usize)>> {
            doc(ann, text)
                .unwrap_or_else(|e| panic!("{ann:?}: {e}"))
                .spans
                .into_iter()
                .map(|s| s.fragments)
                .collect()
        };
        // Fragments by position; an empty text column; a line break written as one space.
        assert_eq!(
            frags("T1\tLOC 17 22;0 4\tParis Anna\n"),
            vec![vec![(0, 4), (17, 22)]]
        );
        assert_eq!(frags("T1\tPER 0 4\t\n"), vec![vec![(0, 4)]]);
        assert_eq!(frags("T1\tX 5 13\tmet Bob\n"), vec![vec![(5, 13)]]);
        // Touching fragments share no character.
        assert_eq!(
            frags("T1\tX 0 4;4 8\tAnna  met\n"),
            vec![vec![(0, 4), (4, 8)]]
        );
        // A trigger defined after its event.
        let ann = "E1\tMeet:T3 Agent:T1\nT1\tPER 0 4\tAnna\nT3\tMeet 5 8\tmet\n";
        assert_eq!(frags(ann), vec![vec![(0, 4)]]);
        for (ann, needle) in [
            (
                "T1\tX 0 4;2 8\tAnna na met\n",
                "a.ann:1: fragments 0-4 and 2-8 overlap",
            ),
            (
                "T1\tX 0 4;0 4\tAnna Anna\n",
                "fragments 0-4 and 0-4 overlap",
            ),
            (
                "T1\tPER 0 4\tAnna\nE1\tAgent:T1\n",
                "a.ann:2: event \"E1\": its trigger \"T1\" is a \"PER\"",
            ),
            (
                "T1\tPER 0 4\tAnna\nE1\tMeet:T9\n",
                "its trigger \"T9\" is not a T line",
            ),
        ] {
            let e = doc(ann, text)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(needle), "{ann:?}: {e}");
        }
    }

    #[test]
    fn detection() {
        assert!(looks_like_ann("\nT1\tPER 0 4\tAnna\n"));
        assert!(looks_like_ann("E1\tMeet:T3\n"));
        assert!(!looks_like_ann("M1\tB-LOC\n"));
        assert!(!looks_like_ann("A1\tNNP\tB-LOC\n"));
        assert!(looks_like_ann("#1\tAnnotatorNotes T1\tx\n"));
        assert!(!looks_like_ann("PER\t1\t2\n"));
        assert!(!looks_like_ann("TOKEN\tNE-COARSE-LIT\n"));
    }
}
