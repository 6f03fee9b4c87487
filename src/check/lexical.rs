//! What the reader does not look at, cell by cell: the syntax of every tag and link of the
//! checked columns, `I-` tags that start entities, `_` in tag columns, and columns (or whole
//! tasks) left empty.
//!
//! The pass walks the tokens the reader read, in order; a token's raw cells (before
//! upper-casing and IOBES conversion, for messages that quote them) are its line of the file
//! text, split with the reader's own function. Tag context restarts at each document the
//! reader found.

use super::code::Code;
use super::findings::{at, Findings};
use super::read::{Lines, Run};
use super::{is_blank, Ctx, Kind};
use crate::error::snippet;
use crate::formats::split::split_tabs;
use crate::hipe::Task;
use crate::spans;
use std::collections::BTreeSet;
use std::path::Path;

/// What is known of one checked column after the pass.
struct Column {
    /// Index in the run.
    index: usize,
    name: &'static str,
    kind: Kind,
    /// The previous tag (IOB), for `I-` tags.
    prev: String,
    /// Some cell holds a tag or a link.
    filled: bool,
    /// Some cell holds an entity tag (not `O`, `_` or `-`).
    entities: bool,
    /// Line of the first `_` (or `-`) cell.
    first_empty: Option<usize>,
}

pub(super) fn check(cx: &Ctx, run: &Run, f: &mut Findings) {
    let pred = &run.corpus;
    let path = cx.path;
    let mut cols: Vec<Column> = cx
        .checked
        .iter()
        .filter_map(|c| {
            pred.column(c.name).map(|index| Column {
                index,
                name: c.name,
                kind: c.kind,
                prev: "O".into(),
                filled: false,
                entities: false,
                first_empty: None,
            })
        })
        .collect();
    let mut lines = Lines::new(run.text);
    let mut cells: Vec<&str> = Vec::new();
    let mut doc_starts = pred.docs.iter().map(|d| d.start).peekable();
    for t in 0..pred.n_tokens() {
        if doc_starts.next_if(|&s| s <= t).is_some() {
            while doc_starts.next_if(|&s| s <= t).is_some() {}
            for c in cols.iter_mut() {
                c.prev = "O".into();
            }
        }
        let line = pred.line(t);
        split_tabs(lines.get(line).unwrap_or_default(), &mut cells);
        for c in cols.iter_mut() {
            let raw = cells.get(c.index).copied().unwrap_or("_");
            let v = raw.to_uppercase();
            let empty = v == "_" || v == "-";
            if empty {
                c.first_empty.get_or_insert(line);
            } else {
                c.filled = true;
                c.entities |= v != "O";
            }
            if c.kind == Kind::Links {
                check_link(f, path, line, c.name, raw, &v);
                continue;
            }
            check_tag(f, path, line, c.name, raw, &v, &c.prev);
            c.prev = match (v.strip_prefix("S-"), v.strip_prefix("E-")) {
                (Some(r), _) => format!("B-{r}"),
                (_, Some(r)) => format!("I-{r}"),
                _ => v,
            };
        }
    }
    if pred.n_tokens() == 0 {
        f.push(
            Code::NoTokens,
            at(path, 0).message("the run has a header but no token rows"),
        );
        return;
    }
    empty_columns(cx, &cols, f);
    unbounded_links(cx, &cols, f);
    for c in &cols {
        if let (Kind::Tags | Kind::Bounds, Some(line), true) = (c.kind, c.first_empty, c.filled) {
            f.push(
                Code::EmptyTag,
                at(path, line).column(c.name).message(
                    "`_` in a tag column: read as a tag with no type, which ends the current entity",
                ),
            );
        }
    }
}

/// Columns without any tag or link: a task none of whose columns holds anything is a warning
/// (nothing would be scored); a single empty column of a task is a note, and so is a task
/// only inferred from the gold's columns, unless the run holds nothing at all. Columns the
/// gold leaves empty too have nothing to score either way, unless the gold is masked.
fn empty_columns(cx: &Ctx, cols: &[Column], f: &mut Findings) {
    let is_empty = |name: &str| cols.iter().any(|c| c.name == name && !c.filled);
    let whole_run_empty = !cols.is_empty() && cols.iter().all(|c| !c.filled);
    let gold = cx.gold;
    let gold_has = |name: &str| {
        gold.column(name).is_some_and(|gc| {
            cx.masked || (0..gold.n_tokens()).any(|t| !is_blank(gold.cell(t, gc)))
        })
    };
    for &t in &cx.tasks.tasks {
        let names: Vec<&str> = cx.opts.edition.columns(t).iter().map(|(c, _)| *c).collect();
        let empty: Vec<&str> = names
            .iter()
            .copied()
            .filter(|c| is_empty(c) && gold_has(c))
            .collect();
        if empty.is_empty() {
            continue;
        }
        let all = empty.len() == names.iter().filter(|c| gold_has(c)).count();
        let code = if all && (cx.tasks.explicit || whole_run_empty) {
            Code::EmptyColumn
        } else {
            Code::EmptyColumnPartial
        };
        for col in empty {
            let what = if all {
                format!(": nothing of task {} would be scored", t.as_str())
            } else {
                format!(" (scored as predicting nothing for {})", t.as_str())
            };
            f.push(
                code,
                at(cx.path, 0)
                    .column(col)
                    .message(format!("column {col} holds nothing but `_`{what}")),
            );
        }
    }
}

/// A tag column that only bounds NEL link objects (a linking-only run) but holds no entity,
/// while its link column holds links and the gold has entities there: link objects are then
/// single tokens (or runs of `_`-tagged tokens), which can hardly match the gold's.
fn unbounded_links(cx: &Ctx, cols: &[Column], f: &mut Findings) {
    let gold = cx.gold;
    let gold_entities = |name: &str| {
        gold.column(name).is_some_and(|gc| {
            cx.masked || (0..gold.n_tokens()).any(|t| !is_blank(gold.cell(t, gc)))
        })
    };
    for c in cols
        .iter()
        .filter(|c| c.kind == Kind::Bounds && !c.entities)
    {
        let linked = cx
            .opts
            .edition
            .columns(Task::Nel)
            .iter()
            .filter(|(_, ne)| *ne == c.name)
            .any(|(link, _)| cols.iter().any(|l| l.name == *link && l.filled));
        if linked && gold_entities(c.name) {
            f.push(
                Code::EmptyColumn,
                at(cx.path, 0)
                    .column(c.name)
                    .message(format!(
                        "column {} holds no entity, but NEL link objects are bounded by its entities: each linked token would be a link object of its own (and `_` cells join tokens into one), so links can hardly match the gold's",
                        c.name
                    ))
                    .hint(format!(
                        "a linking-only run needs entity boundaries: fill {} from the gold or from a NER system",
                        c.name
                    )),
            );
        }
    }
}

/// One tag cell (`v` upper-cased, `prev` the previous tag of the column, as IOB).
fn check_tag(
    f: &mut Findings,
    path: &Path,
    line: usize,
    col: &str,
    raw: &str,
    v: &str,
    prev: &str,
) {
    if v == "O" || v == "_" || v == "-" {
        return;
    }
    let b = v.as_bytes();
    let prefix = b.first().copied();
    let well_formed = b.len() > 2
        && b[1] == b'-'
        && matches!(prefix, Some(b'B' | b'I' | b'S' | b'E'))
        && v[2..].trim() == &v[2..];
    if !well_formed {
        let key = snippet(raw);
        f.push(
            Code::TagSyntax,
            at(path, line).column(col).key(&key).message(format!(
                "{key} is not an IOB/IOBES tag; it is read as an entity of type {}",
                snippet(spans::skip_chars(v, 2))
            )),
        );
        return;
    }
    // `I-X` (or `E-X`) must continue an entity of type X.
    if prefix == Some(b'I') || prefix == Some(b'E') {
        let ty = &v[2..];
        let continues = prev.strip_prefix("B-").or_else(|| prev.strip_prefix("I-")) == Some(ty);
        if !continues {
            f.push(
                Code::IWithoutB,
                at(path, line).column(col).message(format!(
                    "{} does not continue an entity of its type (previous tag {}); it starts a new entity, as B- would",
                    snippet(v),
                    snippet(prev)
                )),
            );
        }
    }
}

/// One link cell (`v` upper-cased).
fn check_link(f: &mut Findings, path: &Path, line: usize, col: &str, raw: &str, v: &str) {
    if v == "_" || v == "-" || v == "NIL" || is_qid(v) {
        return;
    }
    let cands: Vec<&str> = v.split('|').collect();
    if cands.iter().any(|c| c.is_empty()) {
        f.push(
            Code::EmptyCandidate,
            at(path, line)
                .column(col)
                .message(format!("link cell {} has an empty candidate", snippet(raw))),
        );
        return;
    }
    if let Some(bad) = cands.iter().find(|c| !(is_qid(c) || **c == "NIL")) {
        let key = snippet(bad);
        f.push(
            Code::LinkSyntax,
            at(path, line).column(col).key(&key).message(format!(
                "link {key} (in cell {}) is not a Wikidata QID (Q123), NIL or `_`; it can never match the gold",
                snippet(raw)
            )),
        );
        return;
    }
    let mut seen = BTreeSet::new();
    if cands.iter().any(|c| !seen.insert(*c)) {
        f.push(
            Code::DuplicateCandidate,
            at(path, line).column(col).message(format!(
                "link cell {} lists a candidate twice",
                snippet(raw)
            )),
        );
    }
}

fn is_qid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0] == b'Q' && b[1] != b'0' && b[1..].iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::is_qid;

    #[test]
    fn qids() {
        assert!(is_qid("Q42"));
        assert!(!is_qid("Q042"));
        assert!(!is_qid("Q"));
        assert!(!is_qid("https://www.wikidata.org/wiki/Q42"));
    }
}
