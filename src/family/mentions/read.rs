//! Reading both sides: the gold's units (a token file's sentences or documents, a standoff
//! document, a JSONL record), each with its text and mentions, and the run's JSONL records
//! (paired with the units in `pair.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::answer::{self, Answer, Mention};
use super::settings::{Parser, Settings, UnitKind};
use crate::error::{snippet, Error, Result};
use crate::formats::InputFormat;

/// One gold unit.
#[derive(Debug, Clone, Default)]
pub struct GoldUnit {
    /// Its id, which run records name.
    pub id: String,
    /// Its text, when the gold has text.
    pub text: Option<String>,
    /// Its mentions (offsets in characters of `text` where known).
    pub mentions: Vec<Mention>,
    /// The line of the gold file it begins at (its position in memory; 0: unknown).
    pub line: usize,
}

/// The gold read.
#[derive(Debug, Clone)]
pub struct Gold {
    /// The units in gold order.
    pub units: Vec<GoldUnit>,
    /// Whether units are documents.
    pub documents: bool,
    /// The file read (or the name of the units in memory).
    pub path: PathBuf,
    /// Whether the gold's labels were read upper-cased (HIPE TSV, as the official scorer
    /// reads them): the run's are compared upper-cased too.
    pub upper: bool,
}

/// One run record: the unit it answers, the type it was asked for, the answer.
#[derive(Debug, Clone)]
pub struct Record {
    /// The unit's id, when the record names one.
    pub id: Option<String>,
    /// The queried type (`type` of a UniversalNER query).
    pub query: Option<String>,
    /// The answer read.
    pub answer: Answer,
    /// The line of the run's file it was read from (its position in memory).
    pub line: usize,
}

/// Whether `path` is a mentions JSONL file: its first non-blank line is an object with
/// `entities` or an answer field.
fn is_mentions_jsonl(path: &Path) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = Vec::new();
    if std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 16), &mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    let Some(first) = text
        .trim_start_matches('\u{feff}')
        .lines()
        .find(|l| !l.trim().is_empty())
    else {
        return false;
    };
    match serde_json::from_str::<Value>(first) {
        // doccano's own export (`entities` by offsets) is standoff, read as doccano.
        Ok(Value::Object(m)) => {
            (m.contains_key("entities") && !crate::formats::jsonl::doccano_entities(&m))
                || ANSWER_KEYS.iter().any(|k| m.contains_key(*k))
        }
        _ => false,
    }
}

const ANSWER_KEYS: [&str; 4] = ["output", "answer", "prediction", "response"];

/// Hands each JSON object of a JSONL file to `f` with its 1-based line, one at a time.
fn jsonl(
    path: &Path,
    mut f: impl FnMut(usize, serde_json::Map<String, Value>) -> Result<()>,
) -> Result<()> {
    let text = crate::io::read_text(path)?;
    for (i, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(m)) => f(i + 1, m)?,
            Ok(_) => {
                return Err(Error::input(
                    path,
                    i + 1,
                    "expected a JSON object a line (with id and entities or output)",
                ))
            }
            Err(e) => {
                return Err(Error::input(
                    path,
                    i + 1,
                    format!("expected a JSON object a line: {e}"),
                ))
            }
        }
    }
    Ok(())
}

fn id_of(m: &serde_json::Map<String, Value>) -> Option<String> {
    match m.get("id") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// One run record from its JSON object: a line of the run's file, or an item given in
/// memory; the message of the input error when it is none.
fn record(
    m: &serde_json::Map<String, Value>,
    parser: Parser,
    line: usize,
) -> std::result::Result<Record, &str> {
    let query = m.get("type").and_then(Value::as_str);
    let answer = if let Some(v) = m.get("entities") {
        answer::entities(v, query, parser)
    } else if let Some(s) = ANSWER_KEYS.iter().find_map(|k| m.get(*k)) {
        match s {
            Value::String(s) => answer::raw(s, query, parser),
            other => answer::entities(other, query, parser),
        }
    } else {
        return Err("expected `entities` (a list) or `output` (the model's answer) in the record");
    };
    Ok(Record {
        id: id_of(m),
        query: query.map(str::to_string),
        answer,
        line,
    })
}

/// Reads the run's records.
pub fn records(path: &Path, parser: Parser) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    jsonl(path, |line, m| {
        out.push(record(&m, parser, line).map_err(|e| Error::input(path, line, e))?);
        Ok(())
    })?;
    Ok(out)
}

/// The name errors give the run's records in memory (`fairscore.mentions`), the line being
/// the record's 1-based position.
pub const MEMORY_RUN: &str = "predictions";
/// The name errors give the gold's units in memory.
pub const MEMORY_GOLD: &str = "gold";

/// The run's records given in memory: objects as the lines of a run's file, entity lists (as
/// their `entities`), or raw answers (strings, as their `output`).
pub fn records_in_memory(items: &[Value], parser: Parser) -> Result<Vec<Record>> {
    let path = Path::new(MEMORY_RUN);
    let mut out = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        let r = match v {
            Value::Object(m) => {
                record(m, parser, i + 1).map_err(|e| Error::input(path, i + 1, e))?
            }
            Value::String(s) => Record {
                id: None,
                query: None,
                answer: answer::raw(s, None, parser),
                line: i + 1,
            },
            Value::Array(_) | Value::Null => Record {
                id: None,
                query: None,
                answer: answer::entities(v, None, parser),
                line: i + 1,
            },
            _ => {
                return Err(Error::input(
                    path,
                    i + 1,
                    "expected a dict (as a line of a run's file), a list of entities or an answer string",
                ))
            }
        };
        out.push(r);
    }
    Ok(out)
}

/// The gold's units given in memory: objects as the lines of a gold JSONL file (`id`, `text`,
/// `entities`), or entity lists (units without text, numbered from 1).
pub fn gold_in_memory(items: &[Value]) -> Result<Gold> {
    let path = Path::new(MEMORY_GOLD);
    let mut units = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        let u = match v {
            Value::Object(m) => gold_unit(m, units.len(), i + 1),
            Value::Array(_) => gold_unit(
                &serde_json::Map::from_iter([("entities".to_string(), v.clone())]),
                units.len(),
                i + 1,
            ),
            _ => Err("expected a dict (id, text, entities) or a list of entities"),
        };
        units.push(u.map_err(|e| Error::input(path, i + 1, e))?);
    }
    Ok(Gold {
        units,
        documents: false,
        path: path.to_path_buf(),
        upper: false,
    })
}

/// Reads the gold: a mentions JSONL file, standoff annotation, or a token file (CoNLL, HIPE).
pub fn gold(
    path: &Path,
    s: &Settings,
    format: Option<InputFormat>,
    column: Option<&str>,
) -> Result<Gold> {
    if format.is_none() && is_mentions_jsonl(path) {
        return gold_jsonl(path);
    }
    if crate::eval::standoff::applies(path, path, format) {
        let docs = crate::formats::read_standoff(path, format.and_then(InputFormat::standoff))?;
        let units = docs
            .into_iter()
            .map(|d| {
                // brat's N lines: the first reference of each T line, `DB:ID` read as `ID`.
                let mut kb: HashMap<&str, String> = HashMap::new();
                for n in &d.norms {
                    let id = n
                        .reference
                        .split_once(':')
                        .map_or(n.reference.as_str(), |x| x.1);
                    kb.entry(n.target.as_str())
                        .or_insert_with(|| answer::kb_id(id));
                }
                let chars: Vec<char> = d.text.chars().collect();
                let slice = |a: usize, b: usize| -> String {
                    chars
                        .get(a..b.min(chars.len()))
                        .map_or(String::new(), |c| c.iter().collect())
                };
                let mentions = d
                    .spans
                    .iter()
                    .filter_map(|sp| {
                        let (first, last) = (sp.fragments.first()?, sp.fragments.last()?);
                        let text: Vec<String> =
                            sp.fragments.iter().map(|&(a, b)| slice(a, b)).collect();
                        let mut m = Mention::new(&text.join(" "), Some(&sp.label));
                        m.offsets = Some((first.0, last.1));
                        m.kb = kb.get(sp.id.as_str()).cloned();
                        Some(m)
                    })
                    .collect();
                GoldUnit {
                    // Named as every command names a standoff document (a brat one without
                    // `.ann`).
                    id: d.id().to_string(),
                    text: Some(d.text),
                    mentions,
                    line: 0,
                }
            })
            .collect();
        return Ok(Gold {
            units,
            documents: true,
            path: path.to_path_buf(),
            upper: false,
        });
    }
    gold_tokens(path, s, format, column)
}

/// One gold unit from its JSON object at `line`, the `before`-th unit read (its id when it
/// has none: `before + 1`); the message of the input error when it is none.
fn gold_unit(
    m: &serde_json::Map<String, Value>,
    before: usize,
    line: usize,
) -> std::result::Result<GoldUnit, &'static str> {
    let text = m.get("text").and_then(Value::as_str).map(str::to_string);
    let v = m.get("entities").unwrap_or(&Value::Null);
    let a = answer::entities(v, m.get("type").and_then(Value::as_str), Parser::Auto);
    if a.malformed {
        return Err("gold entities: expected a list of strings, of [text, type] pairs or of objects with text and type");
    }
    Ok(GoldUnit {
        id: id_of(m).unwrap_or_else(|| (before + 1).to_string()),
        text,
        mentions: a.mentions,
        line,
    })
}

fn gold_jsonl(path: &Path) -> Result<Gold> {
    let mut units = Vec::new();
    jsonl(path, |line, m| {
        units.push(gold_unit(&m, units.len(), line).map_err(|e| Error::input(path, line, e))?);
        Ok(())
    })?;
    Ok(Gold {
        units,
        documents: false,
        path: path.to_path_buf(),
        upper: false,
    })
}

fn gold_tokens(
    path: &Path,
    s: &Settings,
    format: Option<InputFormat>,
    column: Option<&str>,
) -> Result<Gold> {
    let c = crate::formats::read(
        path,
        format.and_then(InputFormat::corpus_format),
        &crate::corpus::ReadOptions::default(),
    )?;
    let hipe = c.format == "hipe";
    // CoNLL with knowledge-base ids: the last column holds the links, the tags are in the
    // column before it unless `column` names theirs (`TOKEN … NE LINK`, as the nel family
    // reads it).
    let conll_kb = s.kb && !hipe;
    let before_last = (c.columns.len() >= 3).then(|| (c.columns.len() - 1).to_string());
    let name = match (column, conll_kb) {
        (Some(n), _) => n,
        (None, true) => before_last.as_deref().unwrap_or("TAG"),
        (None, false) if hipe => "NE-COARSE-LIT",
        (None, false) => "TAG",
    };
    let col = c
        .column(name)
        .or_else(|| {
            name.parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .filter(|&i| i < c.columns.len())
        })
        .ok_or_else(|| {
            Error::input(
                path,
                1,
                format!("expected a column {} of entity tags", snippet(name)),
            )
        })?;
    // HIPE's links: the NEL-LIT cell of a mention's first token; CoNLL's: its last column.
    let links = match (hipe, conll_kb) {
        (true, _) => c.column("NEL-LIT"),
        (false, true) => c
            .columns
            .len()
            .checked_sub(1)
            .filter(|&l| l != col && l > 0),
        (false, false) => None,
    };
    let documents = s.unit == UnitKind::Document;
    let mut units = Vec::new();
    let mut spans = crate::spans::Spans::default();
    let mut sentence = 0usize;
    for (d, doc) in c.docs.iter().enumerate() {
        let seq: Vec<usize> = doc.range().collect();
        crate::spans::entities(&c, col, &seq, &mut spans);
        // The unit of each position, its text and the character offset of each token in it.
        let mut bounds = Vec::new();
        if documents {
            bounds.push(seq.len());
        } else {
            let mut at = 0;
            for len in &doc.segments {
                at += len;
                bounds.push(at);
            }
        }
        let mut starts = Vec::with_capacity(seq.len());
        let mut unit_of = Vec::with_capacity(seq.len());
        let mut lo = 0;
        for &hi in &bounds {
            let mut text = String::new();
            let mut chars = 0usize;
            for &tok in &seq[lo..hi] {
                if !text.is_empty() {
                    text.push(' ');
                    chars += 1;
                }
                starts.push(chars);
                unit_of.push(units.len());
                let t = c.token_text(tok);
                text.push_str(t);
                chars += t.chars().count();
            }
            sentence += 1;
            let id = match (&doc.id, documents) {
                (Some(id), true) => id.clone(),
                (None, true) => (d + 1).to_string(),
                _ => sentence.to_string(),
            };
            units.push(GoldUnit {
                id,
                text: Some(text),
                mentions: Vec::new(),
                line: seq.get(lo).map_or(0, |&t| c.line(t)),
            });
            lo = hi;
        }
        for sp in &spans.spans {
            let (a, b) = (sp.start as usize, sp.end as usize);
            let Some(&u) = unit_of.get(a) else { continue };
            let words: Vec<&str> = seq[a..=b].iter().map(|&t| c.token_text(t)).collect();
            let text = words.join(" ");
            let start = starts[a];
            let mut m = Mention::new(&text, Some(spans.label(sp)));
            m.offsets = Some((start, start + text.chars().count()));
            m.kb = links.map(|l| answer::kb_id(c.cell(seq[a], l)));
            units[u].mentions.push(m);
        }
    }
    Ok(Gold {
        units,
        documents,
        path: path.to_path_buf(),
        upper: hipe,
    })
}
