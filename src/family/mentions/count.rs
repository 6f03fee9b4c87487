//! One unit scored: its answers' mentions filtered (schema, strings found nowhere), keyed
//! (normalised text, or offsets when aligned), matched against the gold's as sets or
//! multisets, and every answer and mention counted in the diagnostics.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::align::{Placer, Taken};
use super::answer::{self, Mention};
use super::norm::{
    format_item, instructuie_items, lower_into, normalize, probe_key, render, repeats_thrice,
};
use super::read::{GoldUnit, Record};
use super::settings::{Align, Norm, Parser, Settings, Unfound, UnitKind};
use crate::corpus::standoff::is_py_space;

/// The diagnostics, in the order of the fixed numbers after TP, FP, FN.
pub const DIAGNOSTICS: [&str; 17] = [
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
    "long",
    "repetitive",
    "zero_tp",
];

/// InstructUIE's audits (`AuditLong`, `AuditRepeat`, `AuditRetard`), counted and shown under
/// its normalisation only.
pub const AUDITS: [&str; 3] = ["long", "repetitive", "zero_tp"];

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
const LONG: usize = 17;
const REPETITIVE: usize = 18;
const ZERO_TP: usize = 19;

/// The counts of one unit: the fixed numbers and TP, FP, FN per label id.
#[derive(Debug, Clone, Default)]
pub struct UnitCounts {
    /// TP, FP, FN and the diagnostics.
    pub fixed: Vec<f64>,
    /// TP, FP, FN by label id ([`Counter::labels`]).
    pub labels: HashMap<u32, [f64; 3]>,
}

/// What a mention is compared by: its label (or none, [`NO_LABEL`]; [`UNTYPED`] for all when
/// the type is not compared), the kind of body and the body (interned strings, or offsets),
/// and its knowledge-base id (interned; `u64::MAX` when ids are not compared). Interning
/// keeps the loop over mentions free of allocation but for strings not seen before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    label: u32,
    kind: u8,
    a: u64,
    b: u64,
    kb: u64,
}

const UNTYPED: u32 = u32::MAX;
const NO_LABEL: u32 = u32::MAX - 1;
/// Body kinds: normalised text, a UniversalNER tuple, offsets, a mention placed nowhere (its
/// text, and how many of the same came before it on its side), an InstructUIE item.
const TEXT: u8 = 0;
const TUPLE: u8 = 1;
const PLACED: u8 = 2;
const UNPLACED: u8 = 3;
const ITEM: u8 = 4;

/// A prediction as read: its label, InstructUIE's name (the mention's text is lower-cased
/// when its turn comes), the mention.
type Pred<'a> = (Option<Cow<'a, str>>, Option<String>, Option<&'a Mention>);

/// A mention keyed for matching.
struct Item {
    label: Option<u32>,
    key: Key,
}

/// The id of `s` in `table`, added when new.
fn intern(table: &mut HashMap<String, u64>, s: &str) -> u64 {
    if let Some(&i) = table.get(s) {
        return i;
    }
    let i = table.len() as u64;
    table.insert(s.to_string(), i);
    i
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
    /// The lower-cased text of a prediction, looked for in its unit's text.
    probe: String,
    /// Every string compared, interned.
    strings: HashMap<String, u64>,
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
            probe: String::new(),
            strings: HashMap::new(),
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
            _ => text.map(|t| {
                let mut p = Placer::new(t);
                p.permille = self.s.threshold;
                p
            }),
        };
        // The gold's items.
        let mut g_items: Vec<Item> = Vec::new();
        let mut g_used = Taken::default();
        // Mentions without a place, by (label, text, kb): the k-th of each side are one.
        let (mut g_unplaced, mut p_unplaced) = (HashMap::new(), HashMap::new());
        let mut g_from = 0usize;
        if instructuie {
            for it in instructuie_items(&render(gold)) {
                let label = it.split_once(':').map(|(l, _)| self.id(l));
                let key = self.item_key(&it);
                g_items.push(Item { label, key });
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
                let key = self.key(m, pos, label, &mut g_unplaced);
                g_items.push(Item { label, key });
            }
        }
        // The answers' items, filtered. InstructUIE reads a missing answer as an empty
        // output (its one item is the empty string).
        let mut p_items: Vec<Item> = Vec::new();
        if instructuie && answers.is_empty() {
            for it in instructuie_items("") {
                let key = self.item_key(&it);
                p_items.push(Item { label: None, key });
            }
            f[PREDICTED] += p_items.len() as f64;
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut used = Taken::default();
        let hay_chars = haystack.as_ref().map_or(0, |h| h.chars().count());
        let mut from = 0usize;
        let mut placed: HashSet<(Option<u32>, u64)> = HashSet::new();
        // The lower-cased text of each prediction, written into one buffer.
        let mut probe_buf = std::mem::take(&mut self.probe);
        for r in answers {
            let a = &r.answer;
            f[ANSWERS] += 1.0;
            f[MALFORMED] += f64::from(u8::from(a.malformed));
            f[PROSE] += f64::from(u8::from(a.prose));
            f[EMPTY] += f64::from(u8::from(a.mentions.is_empty() && !a.malformed));
            // (label, InstructUIE's name, mention) of every prediction; a mention's text is
            // lower-cased into `probe_buf` when its turn comes.
            let preds: Vec<Pred<'_>> = if instructuie {
                let raw = a
                    .raw
                    .clone()
                    .unwrap_or_else(|| render(&a.mentions.iter().collect::<Vec<_>>()));
                // InstructUIE's audits of the answer: 512 characters or more, a word of 5
                // or more characters three times in a row.
                f[LONG] += f64::from(u8::from(raw.chars().nth(511).is_some()));
                f[REPETITIVE] += f64::from(u8::from(repeats_thrice(&raw)));
                instructuie_items(&raw)
                    .into_iter()
                    .map(|it| match it.split_once(':') {
                        Some((l, n)) => {
                            (Some(Cow::Owned(l.to_string())), Some(n.to_string()), None)
                        }
                        None => (None, Some(it), None),
                    })
                    .collect()
            } else {
                a.mentions
                    .iter()
                    .map(|m| (m.label.as_deref().map(Cow::Borrowed), None, Some(m)))
                    .collect()
            };
            for (label, name, m) in preds {
                f[PREDICTED] += 1.0;
                // A string longer than the text (in characters, which lower-casing never
                // lessens) is found nowhere, and not lower-cased.
                let mut longer = false;
                let probe: &str = match (&name, m) {
                    (Some(n), _) => n,
                    (None, Some(m)) => {
                        let t = m.text.trim_matches(is_py_space);
                        longer = t.chars().nth(hay_chars).is_some();
                        probe_buf.clear();
                        if !longer {
                            lower_into(t, &mut probe_buf);
                        }
                        &probe_buf
                    }
                    (None, None) => "",
                };
                let tuple = m.is_some_and(|m| m.tuple);
                let oos = self.s.typed && label.as_deref().is_some_and(|l| !self.in_schema(l));
                f[OUT_OF_SCHEMA] += f64::from(u8::from(oos));
                let found = match (&haystack, tuple) {
                    (Some(h), false) => Some(!longer && h.contains(probe)),
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
                        let key = m.map_or(probe.to_string(), |m| m.text.to_lowercase());
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
                    None => {
                        let item = probe_key(label.as_deref(), probe);
                        self.item_key(&item)
                    }
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
                        let said = match pos {
                            Some(_) => (
                                lid,
                                intern(&mut self.strings, m.text.trim_matches(is_py_space)),
                            ),
                            None => (lid, 0),
                        };
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
                        self.key(m, pos, lid, &mut p_unplaced)
                    }
                };
                p_items.push(Item { label: lid, key });
            }
        }
        f[GOLD] += g_items.len() as f64;
        g_items.sort_by_key(|x| x.key);
        p_items.sort_by_key(|x| x.key);
        if !self.s.multiset {
            let n = g_items.len();
            g_items.dedup_by(|a, b| a.key == b.key);
            f[GOLD_DUPLICATES] += (n - g_items.len()) as f64;
            let n = p_items.len();
            p_items.dedup_by(|a, b| a.key == b.key);
            f[DUPLICATES] += (n - p_items.len()) as f64;
        }
        self.probe = probe_buf;
        let tp = out.fixed[0];
        merge(&g_items, &p_items, self.s.typed, out);
        // InstructUIE's AuditRetard: both sides said something, nothing matched.
        let zero = instructuie && !g_items.is_empty() && !p_items.is_empty() && out.fixed[0] == tp;
        out.fixed[ZERO_TP] += f64::from(u8::from(zero));
    }

    /// Whether `label` is a type of the schema (compared as written, or formatted for
    /// InstructUIE).
    fn in_schema(&self, label: &str) -> bool {
        if self.s.norm == Norm::Instructuie {
            self.schema_set.contains(&schema_key(self.s, label))
        } else {
            self.schema_set.contains(label)
        }
    }

    /// The key of an InstructUIE item (already formatted; the type is part of the string).
    fn item_key(&mut self, item: &str) -> Key {
        Key {
            label: UNTYPED,
            kind: ITEM,
            a: intern(&mut self.strings, item),
            b: 0,
            kb: u64::MAX,
        }
    }

    /// The matching key of a mention: its normalised text (with its type when typed), or its
    /// placement (`Some(None)`: not placed: its text and how many of the same `unplaced` on
    /// its side came before it, so that the k-th of each side match whatever the lists' order).
    fn key(
        &mut self,
        m: &Mention,
        pos: Option<Option<(usize, usize)>>,
        label: Option<u32>,
        unplaced: &mut HashMap<(u32, u64, u64), u64>,
    ) -> Key {
        let (kind, a, b) = match pos {
            Some(Some((x, y))) => (PLACED, x as u64, y as u64),
            Some(None) => {
                let t = m.text.trim_matches(is_py_space);
                (UNPLACED, intern(&mut self.strings, t), 0)
            }
            None if m.tuple => {
                let mut joined = String::new();
                for (i, p) in m.text.split('\u{0}').enumerate() {
                    if i > 0 {
                        joined.push('\u{0}');
                    }
                    normalize(self.s.norm, p, &mut self.buf);
                    joined.push_str(&self.buf);
                }
                (TUPLE, intern(&mut self.strings, &joined), 0)
            }
            None => {
                normalize(self.s.norm, &m.text, &mut self.buf);
                (TEXT, intern(&mut self.strings, &self.buf), 0)
            }
        };
        let kb = if self.s.kb {
            intern(&mut self.strings, m.kb.as_deref().unwrap_or("NIL"))
        } else {
            u64::MAX
        };
        let label = match (self.s.typed, label) {
            (true, Some(l)) => l,
            (true, None) => NO_LABEL,
            (false, _) => UNTYPED,
        };
        let b = match kind {
            UNPLACED => {
                let n = unplaced.entry((label, a, kb)).or_insert(0);
                *n += 1;
                *n - 1
            }
            _ => b,
        };
        Key {
            label,
            kind,
            a,
            b,
            kb,
        }
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

/// TP, FP, FN of sorted gold and run items: for each key, the smaller count matched.
fn merge(gold: &[Item], pred: &[Item], typed: bool, out: &mut UnitCounts) {
    let (mut i, mut j) = (0, 0);
    while i < gold.len() || j < pred.len() {
        let key = match (gold.get(i), pred.get(j)) {
            (Some(g), Some(p)) => g.key.min(p.key),
            (Some(g), None) => g.key,
            (None, Some(p)) => p.key,
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
