//! One unit scored: its answers' mentions filtered (schema, strings found nowhere), keyed
//! (normalised text, or offsets when aligned), matched against the gold's as sets or
//! multisets, and every answer and mention counted in the diagnostics.

use std::collections::{HashMap, HashSet};

use super::align::Placer;
use super::answer::{self, Mention};
use super::norm::{format_item, instructuie_items, normalize};
use super::read::{GoldUnit, Record};
use super::settings::{Align, Norm, Parser, Settings, Unfound, UnitKind};
use crate::corpus::standoff::is_py_space;

/// The diagnostics, in the order of the fixed numbers after TP, FP, FN.
pub const DIAGNOSTICS: [&str; 14] = [
    "answers",
    "missing",
    "malformed",
    "prose",
    "empty",
    "predicted",
    "out_of_schema",
    "hallucinated",
    "dropped_schema",
    "dropped_unfound",
    "duplicates",
    "unaligned",
    "gold",
    "gold_duplicates",
];

/// Fixed numbers of a unit: TP, FP, FN, then the diagnostics.
pub const FIXED: usize = 3 + DIAGNOSTICS.len();

const ANSWERS: usize = 3;
const MISSING: usize = 4;
const MALFORMED: usize = 5;
const PROSE: usize = 6;
const EMPTY: usize = 7;
const PREDICTED: usize = 8;
const OUT_OF_SCHEMA: usize = 9;
const HALLUCINATED: usize = 10;
const DROPPED_SCHEMA: usize = 11;
const DROPPED_UNFOUND: usize = 12;
const DUPLICATES: usize = 13;
const UNALIGNED: usize = 14;
const GOLD: usize = 15;
const GOLD_DUPLICATES: usize = 16;

/// The counts of one unit: the fixed numbers and TP, FP, FN per label id.
#[derive(Debug, Clone, Default)]
pub struct UnitCounts {
    /// TP, FP, FN and the diagnostics.
    pub fixed: Vec<f64>,
    /// TP, FP, FN by label id ([`Counter::labels`]).
    pub labels: HashMap<u32, [f64; 3]>,
}

/// A mention keyed for matching.
struct Item {
    label: Option<u32>,
    key: String,
}

/// Scores units one after the other, interning labels.
pub struct Counter<'a> {
    s: &'a Settings,
    schema: Vec<String>,
    schema_set: HashSet<String>,
    ids: HashMap<String, u32>,
    /// The labels by id.
    pub labels: Vec<String>,
    buf: String,
}

impl<'a> Counter<'a> {
    /// A counter for settings `s` and the types of the schema.
    pub fn new(s: &'a Settings, schema: Vec<String>) -> Self {
        let schema_set = schema.iter().map(|l| schema_key(s, l)).collect();
        Counter {
            s,
            schema,
            schema_set,
            ids: HashMap::new(),
            labels: Vec::new(),
            buf: String::new(),
        }
    }

    fn id(&mut self, label: &str) -> u32 {
        if let Some(&i) = self.ids.get(label) {
            return i;
        }
        let i = self.labels.len() as u32;
        self.labels.push(label.to_string());
        self.ids.insert(label.to_string(), i);
        i
    }

    /// The counts of one gold unit and its records.
    pub fn unit(&mut self, g: &GoldUnit, recs: &[Record]) -> UnitCounts {
        let mut out = UnitCounts {
            fixed: vec![0.0; FIXED],
            labels: HashMap::new(),
        };
        if self.s.unit == UnitKind::SentenceType {
            let schema = self.schema.clone();
            for q in &schema {
                let gold: Vec<&Mention> = g
                    .mentions
                    .iter()
                    .filter(|m| m.label.as_deref() == Some(q))
                    .collect();
                let answers: Vec<&Record> = recs
                    .iter()
                    .filter(|r| r.query.as_deref() == Some(q))
                    .collect();
                self.group(g.text.as_deref(), &gold, &answers, &mut out);
            }
            let stray: Vec<&Record> = recs
                .iter()
                .filter(|r| {
                    !r.query
                        .as_deref()
                        .is_some_and(|q| schema.iter().any(|x| x == q))
                })
                .collect();
            if !stray.is_empty() {
                // Queries of types outside the schema (or of none): their mentions are
                // scored against no gold.
                self.group(g.text.as_deref(), &[], &stray, &mut out);
            }
        } else {
            let gold: Vec<&Mention> = g.mentions.iter().collect();
            let answers: Vec<&Record> = recs.iter().collect();
            self.group(g.text.as_deref(), &gold, &answers, &mut out);
        }
        out
    }

    /// One set of gold mentions against the answers given for it.
    fn group(
        &mut self,
        text: Option<&str>,
        gold: &[&Mention],
        answers: &[&Record],
        out: &mut UnitCounts,
    ) {
        let f = &mut out.fixed;
        if answers.is_empty() {
            f[MISSING] += 1.0;
        }
        let instructuie = self.s.norm == Norm::Instructuie;
        let haystack = text.map(|t| {
            if instructuie {
                let mut h = String::new();
                format_item(t, &mut h);
                h
            } else {
                t.to_lowercase()
            }
        });
        // UniversalNER reads a query's gold with its answer parser (a `]` in a gold string
        // empties it): the gold strings as the JSON list it stores, read back.
        let reparsed: Vec<Mention>;
        let gold_refs: Vec<&Mention>;
        let gold: &[&Mention] = if self.s.unit == UnitKind::SentenceType
            && self.s.parser == Parser::JsonList
            && self.s.align == Align::Off
        {
            let texts: Vec<&str> = gold.iter().map(|m| m.text.as_str()).collect();
            let label = gold.first().and_then(|m| m.label.as_deref());
            let list = serde_json::to_string(&texts).unwrap_or_default();
            reparsed = answer::raw(&list, label, Parser::JsonList).mentions;
            gold_refs = reparsed.iter().collect();
            &gold_refs
        } else {
            gold
        };
        // The text's placer, when mentions are placed.
        let mut placer = match self.s.align {
            Align::Off => None,
            _ => text.map(Placer::new),
        };
        // The gold's items.
        let mut g_items: Vec<Item> = Vec::new();
        let mut g_used: HashSet<(usize, usize)> = HashSet::new();
        let mut g_from = 0usize;
        if instructuie {
            for it in instructuie_items(&render(gold)) {
                let label = it.split_once(':').map(|(l, _)| self.id(l));
                g_items.push(Item { label, key: it });
            }
        } else {
            for m in gold {
                let pos = match (self.s.align, m.offsets) {
                    (Align::Off, _) => None,
                    (_, Some(o)) => Some(Some(o)),
                    (_, None) => {
                        let p = placer
                            .as_mut()
                            .and_then(|pl| pl.place(&m.text, Align::Exact, &mut g_used, g_from));
                        g_from = p.map_or(g_from, |x| x.1);
                        Some(p)
                    }
                };
                let label = m.label.as_deref().map(|l| self.id(l));
                let key = self.key(m, pos, label, g_items.len());
                g_items.push(Item { label, key });
            }
        }
        // The answers' items, filtered. InstructUIE reads a missing answer as an empty
        // output (its one item is the empty string).
        let mut p_items: Vec<Item> = Vec::new();
        if instructuie && answers.is_empty() {
            for it in instructuie_items("") {
                p_items.push(Item {
                    label: None,
                    key: it,
                });
            }
            f[PREDICTED] += p_items.len() as f64;
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut used: HashSet<(usize, usize)> = HashSet::new();
        let mut from = 0usize;
        let mut placed: HashSet<(Option<u32>, String)> = HashSet::new();
        for r in answers {
            let a = &r.answer;
            f[ANSWERS] += 1.0;
            f[MALFORMED] += f64::from(u8::from(a.malformed));
            f[PROSE] += f64::from(u8::from(a.prose));
            f[EMPTY] += f64::from(u8::from(a.mentions.is_empty() && !a.malformed));
            // (label, probe for the text, mention) of every prediction.
            let preds: Vec<(Option<String>, String, Option<&Mention>)> = if instructuie {
                let raw = a
                    .raw
                    .clone()
                    .unwrap_or_else(|| render(&a.mentions.iter().collect::<Vec<_>>()));
                instructuie_items(&raw)
                    .into_iter()
                    .map(|it| match it.split_once(':') {
                        Some((l, n)) => (Some(l.to_string()), n.to_string(), None),
                        None => (None, it, None),
                    })
                    .collect()
            } else {
                a.mentions
                    .iter()
                    .map(|m| {
                        let probe = m.text.trim_matches(is_py_space).to_lowercase();
                        (m.label.clone(), probe, Some(m))
                    })
                    .collect()
            };
            for (k, (label, probe, m)) in preds.into_iter().enumerate() {
                f[PREDICTED] += 1.0;
                let tuple = m.is_some_and(|m| m.tuple);
                let oos = self.s.typed
                    && label
                        .as_deref()
                        .is_some_and(|l| !self.schema_set.contains(&schema_key(self.s, l)));
                f[OUT_OF_SCHEMA] += f64::from(u8::from(oos));
                let found = match (&haystack, tuple) {
                    (Some(h), false) => Some(h.contains(probe.as_str())),
                    _ => None,
                };
                f[HALLUCINATED] += f64::from(u8::from(found == Some(false)));
                if oos && self.s.schema {
                    f[DROPPED_SCHEMA] += 1.0;
                    continue;
                }
                if self.s.unfound == Unfound::Drop {
                    if let (Some(h), Some(found)) = (&haystack, found) {
                        // GoLLIE's filter_hallucinations: found, and no more often than the text
                        // holds the (unstripped) lower-cased string.
                        let key = m.map_or(probe.clone(), |m| m.text.to_lowercase());
                        let n = seen.entry(key.clone()).or_insert(0);
                        *n += 1;
                        if !found || h.matches(key.as_str()).count() < *n {
                            f[DROPPED_UNFOUND] += 1.0;
                            continue;
                        }
                    }
                }
                let lid = label.as_deref().map(|l| self.id(l));
                let key = match m {
                    None => probe_key(label.as_deref(), &probe),
                    Some(m) => {
                        let pos = match (self.s.align, m.offsets) {
                            (Align::Off, _) => None,
                            // Offsets the answer gives are kept, not searched for.
                            (_, Some(o)) => {
                                used.insert(o);
                                from = o.1;
                                Some(Some(o))
                            }
                            (al, None) => {
                                let p = placer
                                    .as_mut()
                                    .and_then(|pl| pl.place(&m.text, al, &mut used, from));
                                from = p.map_or(from, |x| x.1);
                                Some(p)
                            }
                        };
                        let said = (lid, m.text.trim_matches(is_py_space).to_string());
                        match pos {
                            // With sets, a string said again after its places ran out is a
                            // duplicate, not a mention placed nowhere.
                            Some(None) if !self.s.multiset && placed.contains(&said) => {
                                f[DUPLICATES] += 1.0;
                                continue;
                            }
                            Some(None) => f[UNALIGNED] += 1.0,
                            Some(Some(_)) => {
                                placed.insert(said);
                            }
                            None => {}
                        }
                        self.key(m, pos, lid, k)
                    }
                };
                p_items.push(Item { label: lid, key });
            }
        }
        f[GOLD] += g_items.len() as f64;
        g_items.sort_by(|a, b| a.key.cmp(&b.key));
        p_items.sort_by(|a, b| a.key.cmp(&b.key));
        if !self.s.multiset {
            let n = g_items.len();
            g_items.dedup_by(|a, b| a.key == b.key);
            f[GOLD_DUPLICATES] += (n - g_items.len()) as f64;
            let n = p_items.len();
            p_items.dedup_by(|a, b| a.key == b.key);
            f[DUPLICATES] += (n - p_items.len()) as f64;
        }
        merge(&g_items, &p_items, self.s.typed, out);
    }

    /// The matching key of a mention: its normalised text (with its type when typed), or its
    /// placement (`Some(None)`: not placed, a key of its own).
    fn key(
        &mut self,
        m: &Mention,
        pos: Option<Option<(usize, usize)>>,
        label: Option<u32>,
        k: usize,
    ) -> String {
        let body = match pos {
            Some(Some((a, b))) => format!("{a}:{b}"),
            Some(None) => format!("\u{3}{k}:{}", m.text),
            None if m.tuple => {
                let mut parts = Vec::new();
                for p in m.text.split('\u{0}') {
                    normalize(self.s.norm, p, &mut self.buf);
                    parts.push(self.buf.clone());
                }
                format!("\u{1}{}", parts.join("\u{0}"))
            }
            None => {
                normalize(self.s.norm, &m.text, &mut self.buf);
                self.buf.clone()
            }
        };
        let body = if self.s.kb {
            format!("{body}\u{4}{}", m.kb.as_deref().unwrap_or("NIL"))
        } else {
            body
        };
        match (self.s.typed, label) {
            (true, Some(l)) => format!("{l}\u{2}{body}"),
            (true, None) => format!("\u{2}{body}"),
            (false, _) => body,
        }
    }
}

/// The key of an InstructUIE item (already formatted).
fn probe_key(label: Option<&str>, name: &str) -> String {
    match label {
        Some(l) => format!("{l}:{name}"),
        None => name.to_string(),
    }
}

/// How a schema type is compared: as written, or formatted for InstructUIE.
fn schema_key(s: &Settings, label: &str) -> String {
    if s.norm == Norm::Instructuie {
        let mut o = String::new();
        format_item(label, &mut o);
        o
    } else {
        label.to_string()
    }
}

/// Mentions as InstructUIE's ground truth writes them: `type: name` items joined by `; `, or
/// `None` without any.
pub fn render(mentions: &[&Mention]) -> String {
    if mentions.is_empty() {
        return "None".to_string();
    }
    let items: Vec<String> = mentions
        .iter()
        .map(|m| format!("{}: {}", m.label.as_deref().unwrap_or(""), m.text))
        .collect();
    items.join("; ")
}

/// TP, FP, FN of sorted gold and run items: for each key, the smaller count matched.
fn merge(gold: &[Item], pred: &[Item], typed: bool, out: &mut UnitCounts) {
    let (mut i, mut j) = (0, 0);
    while i < gold.len() || j < pred.len() {
        let key = match (gold.get(i), pred.get(j)) {
            (Some(g), Some(p)) => g.key.as_str().min(p.key.as_str()),
            (Some(g), None) => g.key.as_str(),
            (None, Some(p)) => p.key.as_str(),
            (None, None) => break,
        };
        let (gi, pj) = (i, j);
        while gold.get(i).is_some_and(|g| g.key == key) {
            i += 1;
        }
        while pred.get(j).is_some_and(|p| p.key == key) {
            j += 1;
        }
        let (cg, cp) = (i - gi, j - pj);
        let tp = cg.min(cp);
        let label = if cg > 0 {
            gold[gi].label
        } else {
            pred[pj].label
        };
        let counts = [tp, cp - tp, cg - tp];
        for (k, n) in counts.into_iter().enumerate() {
            out.fixed[k] += n as f64;
        }
        if let (true, Some(l)) = (typed, label) {
            let b = out.labels.entry(l).or_insert([0.0; 3]);
            for (k, n) in counts.into_iter().enumerate() {
                b[k] += n as f64;
            }
        }
    }
}
