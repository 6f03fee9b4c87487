//! JSON exports of annotation tools, read into [`StandoffDoc`]s:
//! - doccano JSONL: `{"text", "labels": [[start, end, label], …]}` (or `"label"`), or the
//!   `entities` variant `{"text", "entities": [{"start_offset", "end_offset", "label"}]}`;
//! - Prodigy / spaCy-style JSONL: `{"text", "spans": [{"start", "end", "label"}]}`;
//! - Label Studio JSON export: an array of tasks `{"data": {"text"}, "annotations":
//!   [{"result": [{"value": {"start", "end", "labels": [label]}}]}]}` (the first annotation
//!   that is not cancelled; offsets in UTF-16 code units, as JavaScript counts).
//!
//! One document a line (a task for Label Studio), named `line N` (`task N`) or by its `id`.
//! Every offset is checked against the text: an error names the file and line (the task for
//! Label Studio, whose export is one JSON value).

use std::path::Path;

use serde_json::Value;

use crate::corpus::standoff::{OffsetIndex, OffsetUnit, StandoffDoc, StandoffSpan};
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

/// The layout of a text by its content: a JSON array is Label Studio; otherwise the first
/// line's object decides (`spans`: Prodigy; `labels`, `label` or `entities`: doccano;
/// `annotations`: Label Studio tasks, one a line).
pub fn detect(text: &str) -> Option<Layout> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('[') {
        return Some(Layout::LabelStudio);
    }
    let first = t.lines().next()?;
    let v: Value = serde_json::from_str(first).ok()?;
    let o = v.as_object()?;
    if o.contains_key("spans") {
        Some(Layout::Prodigy)
    } else if o.contains_key("annotations") {
        Some(Layout::LabelStudio)
    } else if o.contains_key("labels") || o.contains_key("label") || o.contains_key("entities") {
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

/// One document's spans from `(start, end, label)` triples, checked against the text.
fn document(
    path: &Path,
    ln: usize,
    name: String,
    text: &str,
    unit: OffsetUnit,
    triples: Vec<(usize, usize, String)>,
) -> Result<StandoffDoc> {
    let index = OffsetIndex::new(text, unit);
    let mut spans = Vec::with_capacity(triples.len());
    for (i, (s, e, label)) in triples.into_iter().enumerate() {
        let frag = index.check(path, ln, s, e)?;
        spans.push(StandoffSpan {
            id: format!("{}", i + 1),
            label,
            fragments: vec![frag],
            line: ln,
        });
    }
    Ok(StandoffDoc {
        name,
        path: path.to_path_buf(),
        text: text.to_string(),
        spans,
    })
}

fn name_of(o: &serde_json::Map<String, Value>, fallback: String) -> String {
    match o.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => fallback,
    }
}

/// One JSONL line of doccano or Prodigy.
fn line_doc(
    path: &Path,
    ln: usize,
    o: &serde_json::Map<String, Value>,
    layout: Layout,
) -> Result<StandoffDoc> {
    let text = text_of(path, ln, o.get("text"))?;
    let mut triples = Vec::new();
    let list = |key: &str| o.get(key).and_then(Value::as_array);
    match layout {
        Layout::Prodigy => {
            for s in list("spans").into_iter().flatten() {
                triples.push((
                    num(path, ln, s.get("start"), "span start")?,
                    num(path, ln, s.get("end"), "span end")?,
                    label_of(path, ln, s.get("label"))?,
                ));
            }
        }
        _ => {
            if let Some(ents) = list("entities") {
                for s in ents {
                    triples.push((
                        num(path, ln, s.get("start_offset"), "start_offset")?,
                        num(path, ln, s.get("end_offset"), "end_offset")?,
                        label_of(path, ln, s.get("label"))?,
                    ));
                }
            } else {
                for s in list("labels")
                    .or_else(|| list("label"))
                    .into_iter()
                    .flatten()
                {
                    let a = s.as_array().filter(|a| a.len() == 3).ok_or_else(|| {
                        Error::input(path, ln, "expected a label as [start, end, label]")
                    })?;
                    triples.push((
                        num(path, ln, a.first(), "start")?,
                        num(path, ln, a.get(1), "end")?,
                        label_of(path, ln, a.get(2))?,
                    ));
                }
            }
        }
    }
    let name = name_of(o, format!("line {ln}"));
    document(path, ln, name, text, OffsetUnit::CodePoint, triples)
}

/// One Label Studio task.
fn task_doc(path: &Path, ln: usize, n: usize, task: &Value) -> Result<StandoffDoc> {
    let o = task
        .as_object()
        .ok_or_else(|| Error::input(path, ln, format!("task {n}: expected an object")))?;
    let data = o.get("data").and_then(Value::as_object);
    let text = data
        .and_then(|d| d.get("text").or_else(|| d.values().find(|v| v.is_string())))
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input(path, ln, format!("task {n}: expected data.text")))?;
    let ann = o
        .get("annotations")
        .and_then(Value::as_array)
        .and_then(|a| {
            a.iter()
                .find(|x| x.get("was_cancelled") != Some(&Value::Bool(true)))
        });
    let mut triples = Vec::new();
    for r in ann
        .and_then(|a| a.get("result"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(v) = r.get("value") else { continue };
        // Results without offsets (choices, ratings, relations) are not spans.
        if v.get("start").is_none() && v.get("end").is_none() {
            continue;
        }
        let at = |what: &str| format!("task {n}: {what}");
        triples.push((
            num(path, ln, v.get("start"), &at("value.start"))?,
            num(path, ln, v.get("end"), &at("value.end"))?,
            label_of(
                path,
                ln,
                v.get("labels").or_else(|| v.get("hypertextlabels")),
            )?,
        ));
    }
    let name = name_of(o, format!("task {n}"));
    document(path, ln, name, text, OffsetUnit::Utf16, triples)
}

/// Parses a file's text in `layout` (`None`: detect it).
pub fn parse(path: &Path, text: &str, layout: Option<Layout>) -> Result<Vec<StandoffDoc>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
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
    if text.trim_start().starts_with('[') {
        let v: Value = serde_json::from_str(text).map_err(|e| bad_json(e.line(), e))?;
        let tasks = v.as_array().map(Vec::as_slice).unwrap_or(&[]);
        return tasks
            .iter()
            .enumerate()
            .map(|(i, t)| task_doc(path, 0, i + 1, t))
            .collect();
    }
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let ln = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| bad_json(ln, e))?;
        let doc = match (layout, v.as_object()) {
            (Layout::LabelStudio, _) => task_doc(path, ln, out.len() + 1, &v)?,
            (_, Some(o)) => line_doc(path, ln, o, layout)?,
            (_, None) => return Err(Error::input(path, ln, "expected a JSON object")),
        };
        out.push(doc);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Result<Vec<(String, usize, usize)>> {
        Ok(parse(Path::new("x.jsonl"), text, None)?
            .into_iter()
            .flat_map(|d| d.spans)
            .map(|s| (s.label, s.fragments[0].0, s.fragments[0].1))
            .collect())
    }

    #[test]
    fn three_layouts_give_the_same_spans() {
        let want = vec![("PER".to_string(), 0, 4)];
        let d = r#"{"text": "Anna met Bob", "labels": [[0, 4, "PER"]]}"#;
        let e = r#"{"text": "Anna met Bob", "entities": [{"id": 1, "start_offset": 0, "end_offset": 4, "label": "PER"}]}"#;
        let p = r#"{"text": "Anna met Bob", "spans": [{"start": 0, "end": 4, "label": "PER"}]}"#;
        let l = r#"[{"data": {"text": "Anna met Bob"}, "annotations": [{"result": [{"value": {"start": 0, "end": 4, "text": "Anna", "labels": ["PER"]}}]}]}]"#;
        for t in [d, e, p, l] {
            assert_eq!(spans(t).ok(), Some(want.clone()), "{t}");
        }
    }

    #[test]
    fn refuses_bad_offsets_and_json() {
        for (t, needle) in [
            (
                r#"{"text": "Anna", "labels": [[0, 9, "PER"]]}"#,
                "x.jsonl:1: span 0-9 is beyond",
            ),
            (
                r#"{"text": "Anna", "labels": [[3, 1, "PER"]]}"#,
                "before its start",
            ),
            (
                "{\"text\": \"Anna\", \"labels\": []}\n{\"text\": ",
                "x.jsonl:2: bad JSON",
            ),
            (
                r#"[{"data": {"text": "a😀"}, "annotations": [{"result": [{"value": {"start": 0, "end": 2, "labels": ["X"]}}]}]}]"#,
                "inside a character",
            ),
        ] {
            let e = spans(t).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains(needle), "{t}: {e}");
        }
    }
}
