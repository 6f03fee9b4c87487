//! JSON exports of annotation tools, read into `StandoffDoc`s:
//! - doccano JSONL: `{"text", "labels": [[start, end, label], …]}` (or `"label"`), or
//!   `{"text", "entities": [{"start_offset", "end_offset", "label"}]}` (or triples); two of
//!   these keys in one record are read only when they give the same spans;
//! - Prodigy / spaCy JSONL: `{"text", "spans": [{"start", "end", "label"}]}` (spaCy's
//!   `Doc.to_json`: `"ents"`); a record answered `reject` or `ignore` is left out;
//! - Label Studio JSON export: an array of tasks `{"data": {"text"}, "annotations":
//!   [{"result": [{"value": {"start", "end", "labels": [label]}}]}]}` (the first annotation
//!   not cancelled; a task without one was never annotated and is refused; offsets in UTF-16 code units; results of another `type` than labels are
//!   not spans; a region of several labels is one span per label).
//!
//! One document a line (a task for Label Studio; a record of a JSON array), named `line N`
//! (`task N`, `record N`) or by its `id`, given once. Every offset is checked against the
//! text, and so is a span's own `text`: an error names the file and line (and the task or
//! record of a JSON array, which is one value). A file without any document is an error.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value};

use crate::corpus::standoff::{
    same_words, CharSlicer, OffsetIndex, OffsetUnit, StandoffDoc, StandoffSpan,
};
use crate::error::{snippet, Error, Result};

/// Which JSON layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// doccano JSONL.
    Doccano,
    /// Label Studio JSON export.
    LabelStudio,
    /// Prodigy / spaCy-style JSONL.
    Prodigy,
}

/// The layout of a text by its content: a JSON array of objects is Label Studio; otherwise the
/// first line's object decides (`spans` or `ents`: Prodigy; `labels`, `label`, or `entities`
/// with a `text` or by offsets: doccano;
/// `annotations`: Label Studio tasks, one a line). A first line that starts as a JSON object
/// but does not parse (a trailing comma, a cut line) is JSON too (doccano), so that reading it
/// names the bad line rather than taking the file for a token file.
pub fn detect(text: &str) -> Option<Layout> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    // An array of tasks (objects); a line that is a list of strings is a generative run's.
    if let Some(rest) = t.strip_prefix('[') {
        let rest = rest.trim_start();
        return (rest.starts_with('{') || rest.starts_with(']')).then_some(Layout::LabelStudio);
    }
    let first = t.lines().next()?;
    match serde_json::from_str::<Value>(first) {
        Ok(v) => layout_of(v.as_object()?),
        Err(_) => {
            let l = first.trim();
            let object = l.starts_with('{') && l[1..].trim_start().starts_with('"');
            (object && l.contains("\":")).then_some(Layout::Doccano)
        }
    }
}

/// Whether a record's `entities` are doccano's spans by offsets (objects with
/// `start_offset`, or `[start, end, label]` triples), not a list of entity strings: the
/// mentions family's gold layout has `entities` too, and a doccano export is read as doccano.
pub fn doccano_entities(o: &Map<String, Value>) -> bool {
    let Some(Value::Array(items)) = o.get("entities") else {
        return false;
    };
    items.first().is_some_and(|e| match e {
        Value::Object(m) => m.contains_key("start_offset") && !m.contains_key("text"),
        Value::Array(t) => t.len() == 3 && t[0].is_u64() && t[1].is_u64(),
        _ => false,
    })
}

/// The layout of one record by its keys.
fn layout_of(o: &Map<String, Value>) -> Option<Layout> {
    if o.contains_key("spans") || o.contains_key("ents") {
        Some(Layout::Prodigy)
    } else if o.contains_key("annotations") || o.contains_key("data") {
        Some(Layout::LabelStudio)
    } else if o.contains_key("labels")
        || o.contains_key("label")
        // `entities` without a text: a generative run's entity lists, unless by offsets.
        || (o.contains_key("entities") && (o.contains_key("text") || doccano_entities(o)))
    {
        Some(Layout::Doccano)
    } else {
        None
    }
}

fn num(path: &Path, ln: usize, v: Option<&Value>, what: &str) -> Result<usize> {
    v.and_then(Value::as_u64)
        .and_then(|x| usize::try_from(x).ok())
        .ok_or_else(|| {
            Error::input(
                path,
                ln,
                format!(
                    "expected a whole number as {what}, found {}",
                    snippet(&v.map(|v| v.to_string()).unwrap_or_else(|| "nothing".into()))
                ),
            )
        })
}

fn text_of<'a>(path: &Path, ln: usize, v: Option<&'a Value>) -> Result<&'a str> {
    v.and_then(Value::as_str)
        .ok_or_else(|| Error::input(path, ln, "expected a \"text\" string"))
}

fn label_of(path: &Path, ln: usize, v: Option<&Value>) -> Result<String> {
    let v = match v {
        Some(Value::Array(a)) => a.first(),
        other => other,
    };
    match v.and_then(Value::as_str) {
        Some(s) if !s.is_empty() => Ok(s.to_string()),
        _ => Err(Error::input(path, ln, "expected a label string")),
    }
}

/// The labels of a Label Studio region (`["PER"]`; several: one span each).
fn labels_of(path: &Path, ln: usize, v: Option<&Value>) -> Result<Vec<String>> {
    match v {
        Some(Value::Array(a)) if !a.is_empty() => a
            .iter()
            .map(|l| label_of(path, ln, Some(l)))
            .collect::<Result<Vec<_>>>(),
        Some(Value::Array(_)) => Err(Error::input(
            path,
            ln,
            "expected a label string: a region without label (value.labels is empty)",
        )),
        other => Ok(vec![label_of(path, ln, other)?]),
    }
}

/// The list under `key`: `None` when absent or null, an error when it is not a list.
fn list<'a>(
    path: &Path,
    ln: usize,
    o: &'a Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<Option<&'a Vec<Value>>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => Ok(Some(a)),
        Some(v) => Err(Error::input(
            path,
            ln,
            format!(
                "expected {key:?} to be a list of {what}, found {}",
                snippet(&v.to_string())
            ),
        )),
    }
}

/// A span as a file gives it: offsets in the file's unit, label, and the text it says it
/// covers, if it says.
struct Raw {
    start: usize,
    end: usize,
    label: String,
    text: Option<String>,
}

/// The message of `e` prefixed by where in the file it is (`task 3`), for a JSON value whose
/// parts have no line of their own.
fn within(at: &str, e: Error) -> Error {
    match e {
        Error::Input {
            path,
            line,
            message,
        } => Error::input(&path, line, format!("{at}: {message}")),
        e => e,
    }
}

/// One document's spans, checked against the text.
fn document(
    path: &Path,
    ln: usize,
    name: String,
    text: &str,
    unit: OffsetUnit,
    raw: Vec<Raw>,
) -> Result<StandoffDoc> {
    let index = OffsetIndex::new(text, unit);
    let slicer = CharSlicer::new(text);
    let mut spans = Vec::with_capacity(raw.len());
    for (i, r) in raw.into_iter().enumerate() {
        let (s, e) = index.check(path, ln, r.start, r.end)?;
        if let Some(given) = &r.text {
            let covered = slicer.slice(s, e);
            if !same_words(given, covered) {
                let utf16 = unit == OffsetUnit::Utf16;
                let unit = if utf16 {
                    "UTF-16 code units"
                } else {
                    "characters"
                };
                return Err(Error::input(
                    path,
                    ln,
                    format!(
                        "text mismatch: the span {}-{} {} says {} but the text has {} there (offsets \
                         count {unit})",
                        r.start,
                        r.end,
                        snippet(&r.label),
                        snippet(given),
                        snippet(covered)
                    ),
                ));
            }
        }
        spans.push(StandoffSpan {
            id: format!("{}", i + 1),
            label: r.label,
            fragments: vec![(s, e)],
            line: ln,
        });
    }
    Ok(StandoffDoc {
        name,
        path: path.to_path_buf(),
        text: text.to_string(),
        spans,
        norms: Vec::new(),
    })
}

fn name_of(o: &Map<String, Value>, fallback: String) -> String {
    match o.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => fallback,
    }
}

/// A doccano `[start, end, label]` triple.
fn triple(path: &Path, ln: usize, s: &Value) -> Result<Raw> {
    let a = s.as_array().filter(|a| a.len() == 3).ok_or_else(|| {
        let hint = match s {
            Value::Object(_) => " (an object: Label Studio's JSON-MIN export is not read)",
            Value::String(_) => " (a text category: doccano's classification has no spans)",
            _ => "",
        };
        let msg = format!("expected a label as [start, end, label]{hint}");
        Error::input(path, ln, msg)
    })?;
    Ok(Raw {
        start: num(path, ln, a.first(), "start")?,
        end: num(path, ln, a.get(1), "end")?,
        label: label_of(path, ln, a.get(2))?,
        text: None,
    })
}

/// The spans of a doccano record: `entities` (objects, or triples as doccano's slot filling
/// writes them), `labels` and `label`; several of them are read only when they agree.
fn doccano_spans(path: &Path, ln: usize, o: &Map<String, Value>) -> Result<Vec<Raw>> {
    let mut found: Vec<(&str, Vec<Raw>)> = Vec::new();
    for key in ["entities", "labels", "label"] {
        let what = if key == "entities" {
            "{start_offset, end_offset, label}"
        } else {
            "[start, end, label]"
        };
        let Some(items) = list(path, ln, o, key, what)? else {
            continue;
        };
        let mut v = Vec::with_capacity(items.len());
        for s in items {
            v.push(if key == "entities" && !s.is_array() {
                Raw {
                    start: num(path, ln, s.get("start_offset"), "start_offset")?,
                    end: num(path, ln, s.get("end_offset"), "end_offset")?,
                    label: label_of(path, ln, s.get("label"))?,
                    text: None,
                }
            } else {
                triple(path, ln, s)?
            });
        }
        if !v.is_empty() {
            found.push((key, v));
        }
    }
    fn sorted(v: &[Raw]) -> Vec<(usize, usize, &str)> {
        let mut k: Vec<_> = v
            .iter()
            .map(|r| (r.start, r.end, r.label.as_str()))
            .collect();
        k.sort();
        k
    }
    if let Some(((k1, a), rest)) = found.split_first() {
        if let Some((k2, _)) = rest.iter().find(|(_, b)| sorted(b) != sorted(a)) {
            return Err(Error::input(
                path,
                ln,
                format!(
                    "both {k1:?} and {k2:?} hold spans, and not the same: keep one (doccano \
                     writes one of them)"
                ),
            ));
        }
    }
    Ok(found.into_iter().next().map(|(_, v)| v).unwrap_or_default())
}

/// The spans of a Prodigy record (`spans`, or spaCy's `ents`).
fn prodigy_spans(path: &Path, ln: usize, o: &Map<String, Value>) -> Result<Vec<Raw>> {
    let what = "{start, end, label}";
    let items = match o.get("spans") {
        // spaCy's `Doc.to_json`: `spans` holds the span groups, `ents` the entities.
        Some(Value::Object(_)) if o.contains_key("ents") => list(path, ln, o, "ents", what)?,
        _ => match list(path, ln, o, "spans", what)? {
            Some(s) => Some(s),
            None => list(path, ln, o, "ents", what)?,
        },
    };
    let mut v = Vec::new();
    for s in items.into_iter().flatten() {
        v.push(Raw {
            start: num(path, ln, s.get("start"), "span start")?,
            end: num(path, ln, s.get("end"), "span end")?,
            label: label_of(path, ln, s.get("label"))?,
            text: s.get("text").and_then(Value::as_str).map(str::to_string),
        });
    }
    Ok(v)
}

/// One JSONL line (or array record) of doccano or Prodigy; `None` for a Prodigy record
/// answered `reject` or `ignore`, which annotates nothing.
fn line_doc(
    path: &Path,
    ln: usize,
    o: &Map<String, Value>,
    layout: Layout,
    fallback: String,
) -> Result<Option<StandoffDoc>> {
    let text = text_of(path, ln, o.get("text"))?;
    // A record of the other layout would be read as one without spans.
    let (mine, theirs): (&[&str], &[&str]) = match layout {
        Layout::Prodigy => (&["spans", "ents"], &["entities", "labels"]),
        _ => (&["entities", "labels", "label"], &["spans", "ents"]),
    };
    let other = theirs
        .iter()
        .find(|k| o.get(**k).is_some_and(Value::is_array));
    if let (false, Some(k)) = (mine.iter().any(|k| o.contains_key(*k)), other) {
        let msg = format!(
            "this record holds its spans under {k:?}, which the file's layout (by its first \
             record or --format) does not have: one layout a file"
        );
        return Err(Error::input(path, ln, msg));
    }
    let raw = match layout {
        Layout::Prodigy => {
            if matches!(
                o.get("answer").and_then(Value::as_str),
                Some("reject" | "ignore")
            ) {
                return Ok(None);
            }
            prodigy_spans(path, ln, o)?
        }
        _ => doccano_spans(path, ln, o)?,
    };
    let name = name_of(o, fallback);
    document(path, ln, name, text, OffsetUnit::CodePoint, raw).map(Some)
}

/// One Label Studio task.
fn task_doc(path: &Path, ln: usize, n: usize, task: &Value) -> Result<StandoffDoc> {
    let o = task
        .as_object()
        .ok_or_else(|| Error::input(path, ln, "expected an object"))?;
    let data = o.get("data").and_then(Value::as_object);
    let text = data
        .and_then(|d| d.get("text").or_else(|| d.values().find(|v| v.is_string())))
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input(path, ln, "expected data.text"))?;
    let all = o
        .get("annotations")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let name = name_of(o, format!("task {n}"));
    // A task nobody annotated (or whose annotations were all cancelled, i.e. skipped) is no
    // document without entities: refused, naming it.
    let Some(ann) = all
        .iter()
        .find(|x| x.get("was_cancelled") != Some(&Value::Bool(true)))
    else {
        let who = match o.get("id") {
            Some(_) => format!(" (id {})", snippet(&name)),
            None => String::new(),
        };
        let what = if all.is_empty() {
            "has no annotation"
        } else {
            "has only cancelled annotations (skipped)"
        };
        return Err(Error::input(
            path,
            ln,
            format!(
                "the task{who} {what}: it was never annotated, which is not a document without \
                 entities; annotate it or leave it out of the export"
            ),
        ));
    };
    let mut raw = Vec::new();
    for r in Some(ann)
        .and_then(|a| a.get("result"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(v) = r.get("value") else { continue };
        // Results without offsets (choices, ratings, relations) are not spans, nor are
        // per-region results of another type (a choice, a rating or a text area given to a
        // region has the region's offsets).
        if v.get("start").is_none() && v.get("end").is_none() {
            continue;
        }
        let kind = r.get("type").and_then(Value::as_str);
        if kind.is_some_and(|k| k != "labels" && k != "hypertextlabels") {
            continue;
        }
        let (start, end) = (
            num(path, ln, v.get("start"), "value.start")?,
            num(path, ln, v.get("end"), "value.end")?,
        );
        let text = v.get("text").and_then(Value::as_str).map(str::to_string);
        for label in labels_of(
            path,
            ln,
            v.get("labels").or_else(|| v.get("hypertextlabels")),
        )? {
            raw.push(Raw {
                start,
                end,
                label,
                text: text.clone(),
            });
        }
    }
    document(path, ln, name, text, OffsetUnit::Utf16, raw)
}

/// Parses a file's text in `layout` (`None`: detect it).
pub fn parse(path: &Path, text: &str, layout: Option<Layout>) -> Result<Vec<StandoffDoc>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(Error::input(path, 0, "the file is empty: no document"));
    }
    let forced = layout;
    let layout = match layout.or_else(|| detect(text)) {
        Some(l) => l,
        None => {
            return Err(Error::input(
                path,
                1,
                "cannot tell the JSON layout: expected doccano (text, labels), Prodigy (text, \
                 spans) or Label Studio (data, annotations); use --format",
            ))
        }
    };
    let bad_json =
        |ln: usize, e: serde_json::Error| Error::input(path, ln, format!("bad JSON: {e}"));
    // (document or None for a record left out, its line, its number as a task or record).
    let mut docs: Vec<(Option<StandoffDoc>, usize, usize)> = Vec::new();
    let what;
    if text.trim_start().starts_with('[') {
        let v: Value = serde_json::from_str(text).map_err(|e| bad_json(e.line(), e))?;
        let items = v.as_array().map(Vec::as_slice).unwrap_or(&[]);
        // An array of doccano or Prodigy records: a forced layout or the first record's keys
        // say so (detection says Label Studio for any array).
        let records = match forced {
            Some(Layout::LabelStudio) => None,
            Some(l) => Some(l),
            None => items
                .first()
                .and_then(Value::as_object)
                .and_then(layout_of)
                .filter(|l| *l != Layout::LabelStudio),
        };
        what = if records.is_some() { "record" } else { "task" };
        for (i, item) in items.iter().enumerate() {
            let n = i + 1;
            let at = format!("{what} {n}");
            let doc = match (records, item.as_object()) {
                (Some(l), Some(o)) => line_doc(path, 0, o, l, at.clone()),
                (Some(_), None) => Err(Error::input(path, 0, "expected an object")),
                (None, _) => task_doc(path, 0, n, item).map(Some),
            };
            docs.push((doc.map_err(|e| within(&at, e))?, 0, n));
        }
    } else {
        what = "line";
        for (i, line) in text.split('\n').enumerate() {
            let ln = i + 1;
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line).map_err(|e| bad_json(ln, e))?;
            let doc = match (layout, v.as_object()) {
                (Layout::LabelStudio, _) => {
                    let n = docs.len() + 1;
                    let doc =
                        task_doc(path, ln, n, &v).map_err(|e| within(&format!("task {n}"), e));
                    Some(doc?)
                }
                (_, Some(o)) => line_doc(path, ln, o, layout, format!("line {ln}"))?,
                (_, None) => return Err(Error::input(path, ln, "expected a JSON object")),
            };
            docs.push((doc, ln, ln));
        }
    }
    let skipped = docs.iter().filter(|d| d.0.is_none()).count();
    let mut out = Vec::with_capacity(docs.len());
    // Where each name was first given.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (doc, ln, at) in docs {
        let Some(doc) = doc else { continue };
        if let Some(first) = seen.insert(doc.name.clone(), at) {
            return Err(Error::input(
                path,
                ln,
                format!(
                    "document {} is given twice ({what}s {first} and {at})",
                    snippet(&doc.name)
                ),
            ));
        }
        out.push(doc);
    }
    if out.is_empty() {
        let why = if skipped > 0 {
            "every record is answered reject or ignore"
        } else {
            "the export holds no task or record"
        };
        return Err(Error::input(path, 0, format!("no document: {why}")));
    }
    Ok(out)
}
