//! Standoff documents written as brat (`NAME.ann` and `NAME.txt` under a directory), doccano
//! JSONL (`{"id", "text", "label": [[start, end, label], …]}`), Prodigy JSONL (`{"id",
//! "text", "spans": [{"start", "end", "label"}]}`) or a Label Studio JSON export (an array of
//! tasks, offsets in UTF-16 code units). Every span is written, in the input's order; the
//! document's name is the brat file's path without `.ann`, or the JSON record's `id`.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::corpus::standoff::{is_py_space, CharSlicer, StandoffDoc, StandoffSpan};
use crate::error::{snippet, Error, Result};
use crate::formats::JsonlLayout;

/// A document's name without a brat `.ann` extension.
fn name(d: &StandoffDoc) -> &str {
    d.name.strip_suffix(".ann").unwrap_or(&d.name)
}

/// The relative path of a document's brat files (without extension): its name, refused when
/// it would leave the output directory or name no file.
fn relative(d: &StandoffDoc) -> Result<PathBuf> {
    let n = name(d);
    let bad = n.is_empty()
        || n.starts_with('/')
        || n.contains('\\')
        || n.contains('\0')
        || n.split('/')
            .any(|c| c.is_empty() || c == "." || c == ".." || c.starts_with('.'));
    if bad {
        return Err(Error::input(
            &d.path,
            0,
            format!(
                "document name {} cannot be a brat file name under the output directory",
                snippet(n)
            ),
        ));
    }
    Ok(n.split('/').collect())
}

fn one_fragment(d: &StandoffDoc, s: &StandoffSpan) -> Result<(usize, usize)> {
    match s.fragments[..] {
        [f] => Ok(f),
        _ => Err(Error::input(
            &d.path,
            s.line,
            format!(
                "span {} {} has {} fragments: a discontinuous span has no place in a JSON \
                 export (only brat keeps it)",
                s.id,
                snippet(&s.label),
                s.fragments.len()
            ),
        )),
    }
}

/// The brat files of `docs` under `dir`. Span ids are kept when every span of the document
/// has a brat id (`T` and a number, each once), else numbered `T1`, `T2`, … in order.
pub fn brat(dir: &Path, docs: &[StandoffDoc]) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut out = Vec::with_capacity(docs.len() * 2);
    let mut seen = std::collections::HashSet::new();
    for d in docs {
        let rel = relative(d)?;
        if !seen.insert(rel.clone()) {
            return Err(Error::input(
                &d.path,
                0,
                format!("document {} is given twice", snippet(name(d))),
            ));
        }
        let mut ids = std::collections::HashSet::new();
        let keep_ids = d.spans.iter().all(|s| {
            s.id.strip_prefix('T')
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                && ids.insert(s.id.as_str())
        });
        let slicer = CharSlicer::new(&d.text);
        let mut ann = String::new();
        for (i, s) in d.spans.iter().enumerate() {
            if s.label.is_empty() || s.label.contains(|c: char| is_py_space(c) || c == ';') {
                return Err(Error::input(
                    &d.path,
                    s.line,
                    format!(
                        "span {}: the label {} cannot be a brat type (no white space or ';')",
                        s.id,
                        snippet(&s.label)
                    ),
                ));
            }
            let id = if keep_ids {
                s.id.clone()
            } else {
                format!("T{}", i + 1)
            };
            let offsets: Vec<String> = s
                .fragments
                .iter()
                .map(|(a, b)| format!("{a} {b}"))
                .collect();
            let covered: Vec<&str> = s
                .fragments
                .iter()
                .map(|&(a, b)| slicer.slice(a, b))
                .collect();
            let covered: String = covered
                .join(" ")
                .chars()
                .map(|c| if is_py_space(c) { ' ' } else { c })
                .collect();
            ann.push_str(&format!(
                "{id}\t{} {}\t{covered}\n",
                s.label,
                offsets.join(";")
            ));
        }
        let base = dir.join(&rel);
        let file = |ext: &str| {
            let mut p = base.clone().into_os_string();
            p.push(ext);
            PathBuf::from(p)
        };
        out.push((file(".ann"), ann.into_bytes()));
        out.push((file(".txt"), d.text.clone().into_bytes()));
    }
    Ok(out)
}

/// UTF-16 offset of each character of `text`, then the total.
fn utf16_offsets(text: &str) -> Vec<usize> {
    let mut v = Vec::with_capacity(text.len() + 1);
    let mut at = 0;
    for c in text.chars() {
        v.push(at);
        at += c.len_utf16();
    }
    v.push(at);
    v
}

/// The JSON export of `docs` in `layout`.
pub fn json(layout: JsonlLayout, docs: &[StandoffDoc]) -> Result<String> {
    let mut out = String::new();
    let mut tasks: Vec<Value> = Vec::new();
    for d in docs {
        let slicer = CharSlicer::new(&d.text);
        let mut spans = Vec::with_capacity(d.spans.len());
        for s in &d.spans {
            spans.push((one_fragment(d, s)?, s.label.as_str()));
        }
        let record = match layout {
            JsonlLayout::Doccano => json!({
                "id": name(d),
                "text": d.text,
                "label": spans.iter().map(|((a, b), l)| json!([a, b, l])).collect::<Vec<_>>(),
            }),
            JsonlLayout::Prodigy => json!({
                "id": name(d),
                "text": d.text,
                "spans": spans
                    .iter()
                    .map(|((a, b), l)| json!({"start": a, "end": b, "label": l}))
                    .collect::<Vec<_>>(),
            }),
            JsonlLayout::LabelStudio => {
                let u = utf16_offsets(&d.text);
                let at = |i: usize| {
                    u.get(i)
                        .copied()
                        .unwrap_or_else(|| u.last().copied().unwrap_or(0))
                };
                let result: Vec<Value> = spans
                    .iter()
                    .enumerate()
                    .map(|(i, ((a, b), l))| {
                        json!({
                            "id": format!("r{}", i + 1),
                            "from_name": "label",
                            "to_name": "text",
                            "type": "labels",
                            "value": {
                                "start": at(*a),
                                "end": at(*b),
                                "text": slicer.slice(*a, *b),
                                "labels": [l],
                            },
                        })
                    })
                    .collect();
                tasks.push(json!({
                    "id": name(d),
                    "data": {"text": d.text},
                    "annotations": [{"result": result}],
                }));
                continue;
            }
        };
        out.push_str(&record.to_string());
        out.push('\n');
    }
    if layout == JsonlLayout::LabelStudio {
        out = serde_json::to_string_pretty(&Value::Array(tasks))
            .map_err(|e| Error::usage(format!("cannot write JSON: {e}")))?;
        out.push('\n');
    }
    Ok(out)
}
