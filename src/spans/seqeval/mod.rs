//! seqeval 1.2.2's reading of tag sequences and its counting, the one copy the library, the
//! CLI's callers and the Python drop-in (`fairscore.seqeval`, `fairscore.evaluate`) share.
//!
//! Tags are ids into a list of distinct tag texts; what seqeval reads in a tag (prefix, type,
//! whether it warns, whether it rejects it) is worked out once per distinct tag ([`Vocab`]),
//! then each token costs a table lookup. Two modes ([`Mode`]):
//!
//! - the **default mode** (`get_entities`, conlleval-like): the sentences are read as one list
//!   with an `O` after each (and one more at the end); a chunk ends after `E`/`S`, before
//!   `B`/`S`/`O` after `B`/`I`, and at a type change; it starts at `B`/`S`, at `E`/`I` after
//!   `E`/`S`/`O`, and at a type change (`.` never ends nor starts one by a type change);
//! - the **strict mode** with a [`Scheme`] (seqeval's `v1`): per sentence, an entity starts,
//!   goes on and ends by the scheme's patterns, and is kept only if properly ended.
//!
//! [`Vocab::counts`] gives per type the true positives (an entity of the same type and extent
//! on both sides), the predicted and the true entities, types sorted. docs/seqeval.md
//! describes every rule; what seqeval rejects (an empty tag, a prefix outside `IOBESUL` or
//! outside the scheme) is a [`Rejected`] carrying seqeval's exception and message.

use crate::error::{snippet, Error};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::Path;

mod scheme;

pub use scheme::Scheme;
use scheme::{patterns, prefix_bit, Patterns, Token};

/// How entities are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// seqeval's default (conlleval-like) mode.
    Default,
    /// seqeval's strict mode with a scheme.
    Strict(Scheme),
}

/// An entity: its type (an index into [`Vocab::type_name`]) and tokens `start..end`. Offsets
/// count the tokens of one side as the default mode reads them: the sentences one after the
/// other, one slot for the `O` after each (so token `j` of sentence `k` is at `j + k` plus the
/// lengths of the sentences before it), in both modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entity {
    /// First token.
    pub start: usize,
    /// One past the last token.
    pub end: usize,
    /// Type id.
    pub ty: u32,
}

/// Per-type counts of two sides, types sorted (by code points, as Python sorts them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// The types found on either side.
    pub types: Vec<String>,
    /// Entities of the type found on both sides with the same extent.
    pub tp: Vec<u64>,
    /// Predicted entities of the type.
    pub pred: Vec<u64>,
    /// True entities of the type (support).
    pub gold: Vec<u64>,
    /// Tag ids seqeval warns about ("seems not to be NE tag", default mode only), in order of
    /// first appearance (gold side first).
    pub odd: Vec<u32>,
}

/// What seqeval rejects in a tag, with the Python exception it raises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// An empty tag: `IndexError('string index out of range')`.
    EmptyTag,
    /// Strict mode: a prefix outside `IOBESUL`: `KeyError(prefix)`.
    UnknownPrefix(char),
    /// Strict mode: a prefix the scheme does not allow: `ValueError('Invalid token is found:
    /// {tag}. Allowed prefixes are: {allowed}.')`.
    NotAllowed {
        /// The tag.
        tag: String,
        /// The allowed prefixes as seqeval prints them (`I|O|B`).
        allowed: &'static str,
    },
}

impl Rejection {
    /// The name of the Python exception seqeval raises.
    pub fn exception(&self) -> &'static str {
        match self {
            Rejection::EmptyTag => "IndexError",
            Rejection::UnknownPrefix(_) => "KeyError",
            Rejection::NotAllowed { .. } => "ValueError",
        }
    }

    /// The argument of that exception (for `KeyError`, the prefix).
    pub fn message(&self) -> String {
        match self {
            Rejection::EmptyTag => "string index out of range".to_string(),
            Rejection::UnknownPrefix(c) => c.to_string(),
            Rejection::NotAllowed { tag, allowed } => {
                format!("Invalid token is found: {tag}. Allowed prefixes are: {allowed}.")
            }
        }
    }
}

/// A tag seqeval rejects, and where: side, 0-based sentence and token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// Whether the tag is on the gold (`y_true`) side.
    pub gold: bool,
    /// The sentence (0-based).
    pub sentence: usize,
    /// The token within it (0-based).
    pub token: usize,
    /// What seqeval raises.
    pub rejection: Rejection,
    /// The tags seqeval warns about before it fails (see [`Counts::odd`]).
    pub odd: Vec<u32>,
}

impl From<Rejected> for Error {
    fn from(r: Rejected) -> Error {
        let side = if r.gold { "y_true" } else { "y_pred" };
        let what = match &r.rejection {
            Rejection::EmptyTag => "an empty tag".to_string(),
            Rejection::UnknownPrefix(c) => {
                format!("prefix {} is none of IOBESUL", snippet(&c.to_string()))
            }
            Rejection::NotAllowed { tag, allowed } => {
                format!(
                    "tag {}: the scheme allows the prefixes {allowed}",
                    snippet(tag)
                )
            }
        };
        Error::input(
            Path::new(side),
            r.sentence + 1,
            format!(
                "token {}: {what} (seqeval: {})",
                r.token + 1,
                r.rejection.exception()
            ),
        )
    }
}

/// Distinct tag texts and their ids, for callers holding `&str` tags.
#[derive(Debug, Clone, Default)]
pub struct TagIds {
    /// The tag texts, by id.
    pub names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl TagIds {
    /// The id of a tag text (a new one if unseen).
    pub fn id(&mut self, tag: &str) -> u32 {
        if let Some(&k) = self.ids.get(tag) {
            return k;
        }
        let k = self.names.len() as u32;
        self.names.push(tag.to_string());
        self.ids.insert(tag.to_string(), k);
        k
    }

    /// Sequences of tags as sequences of ids.
    pub fn seqs<S: AsRef<str>>(&mut self, seqs: &[Vec<S>]) -> Vec<Vec<u32>> {
        seqs.iter()
            .map(|s| s.iter().map(|t| self.id(t.as_ref())).collect())
            .collect()
    }
}

/// What one mode reads in each distinct tag.
enum Reading {
    /// (prefix, type), `None` for an empty tag; whether seqeval warns about the tag.
    Default {
        read: Vec<Option<(char, u32)>>,
        odd: Vec<bool>,
    },
    /// (prefix bit, type), or what seqeval rejects.
    Strict {
        read: Vec<Result<Token, Rejection>>,
        patterns: Patterns,
    },
}

/// The distinct tags of both sides as seqeval reads them in one mode (see the module's
/// documentation); built once, then every sequence of ids costs a lookup per token.
pub struct Vocab {
    reading: Reading,
    names: Vec<String>,
    types: Vec<String>,
    type_ids: HashMap<String, u32>,
    outside_tag: Option<u32>,
}

/// Prefix and type of a tag in the default mode (`None`: an empty tag).
fn default_split(tag: &str, suffix: bool) -> Option<(char, &str)> {
    let (prefix, ty) = if suffix {
        let p = tag.chars().next_back()?;
        let body = &tag[..tag.len() - p.len_utf8()];
        (p, body.rsplit_once('-').map_or(body, |(a, _)| a))
    } else {
        let p = tag.chars().next()?;
        let body = &tag[p.len_utf8()..];
        (p, body.split_once('-').map_or(body, |(_, b)| b))
    };
    Some((prefix, if ty.is_empty() { "_" } else { ty }))
}

/// Whether the default mode warns that the tag "seems not to be NE tag".
fn odd_tag(tag: &str, suffix: bool) -> bool {
    if matches!(tag, "O" | "B" | "I" | "E" | "S") {
        return false;
    }
    if suffix {
        !["-B", "-I", "-E", "-S"].iter().any(|s| tag.ends_with(s))
    } else {
        !["B-", "I-", "E-", "S-"].iter().any(|s| tag.starts_with(s))
    }
}

/// What the strict mode reads in a tag: prefix bit and type text, or the rejection.
fn strict_split(tag: &str, suffix: bool) -> Result<(u8, &str), Rejection> {
    let p = if suffix {
        tag.chars().next_back()
    } else {
        tag.chars().next()
    };
    let p = p.ok_or(Rejection::EmptyTag)?;
    let bit = prefix_bit(p).ok_or(Rejection::UnknownPrefix(p))?;
    let body = if suffix {
        &tag[..tag.len() - p.len_utf8()]
    } else {
        &tag[p.len_utf8()..]
    };
    let ty = body.trim_matches('-');
    Ok((bit, if ty.is_empty() { "_" } else { ty }))
}

impl Vocab {
    /// The reading of the distinct tags `names` (ids are indices into it) in `mode`; `suffix`:
    /// the prefix is the tag's last character (`PER-B`), as seqeval's `suffix=True`.
    pub fn new<S: AsRef<str>>(names: &[S], mode: Mode, suffix: bool) -> Vocab {
        let mut v = Vocab {
            reading: Reading::Default {
                read: Vec::new(),
                odd: Vec::new(),
            },
            names: names.iter().map(|n| n.as_ref().to_string()).collect(),
            types: Vec::new(),
            type_ids: HashMap::new(),
            outside_tag: names
                .iter()
                .position(|n| n.as_ref() == "O")
                .map(|k| k as u32),
        };
        // The type of `O`, which closes every sentence: id 0.
        v.type_id("_");
        v.reading = match mode {
            Mode::Default => {
                let read = names
                    .iter()
                    .map(|t| default_split(t.as_ref(), suffix).map(|(p, ty)| (p, v.type_id(ty))))
                    .collect();
                let odd = names.iter().map(|t| odd_tag(t.as_ref(), suffix)).collect();
                Reading::Default { read, odd }
            }
            Mode::Strict(scheme) => {
                let read = names
                    .iter()
                    .map(|t| strict_split(t.as_ref(), suffix).map(|(p, ty)| (p, v.type_id(ty))))
                    .collect();
                Reading::Strict {
                    read,
                    patterns: patterns(scheme),
                }
            }
        };
        v
    }

    fn type_id(&mut self, name: &str) -> u32 {
        if let Some(&k) = self.type_ids.get(name) {
            return k;
        }
        let k = self.types.len() as u32;
        self.types.push(name.to_string());
        self.type_ids.insert(name.to_string(), k);
        k
    }

    /// The name of a type id.
    pub fn type_name(&self, ty: u32) -> &str {
        self.types.get(ty as usize).map_or("", String::as_str)
    }

    /// The entities of one side's sentences (see [`Entity`] for the offsets); `gold` says
    /// which side a rejection names. The tags warned about are added to `odd` once each
    /// (`warned`, by tag id, records them across sides).
    fn read_side<'s>(
        &self,
        sentences: impl IntoIterator<Item = &'s [u32]>,
        gold: bool,
        warned: &mut [bool],
        odd: &mut Vec<u32>,
    ) -> Result<Vec<Entity>, Rejected> {
        let reject = |sentence, token, rejection, odd: &Vec<u32>| Rejected {
            gold,
            sentence,
            token,
            rejection,
            odd: odd.clone(),
        };
        match &self.reading {
            Reading::Default { read, odd: is_odd } => {
                let mut reader = DefaultReader::default();
                for (k, seq) in sentences.into_iter().enumerate() {
                    for (j, &tag) in seq.iter().enumerate() {
                        let t = tag as usize;
                        if is_odd.get(t).copied().unwrap_or(false) && !warned[t] {
                            warned[t] = true;
                            odd.push(tag);
                        }
                        let Some(&Some((p, ty))) = read.get(t) else {
                            return Err(reject(k, j, Rejection::EmptyTag, odd));
                        };
                        reader.step(p, ty);
                    }
                    reader.step('O', 0);
                }
                // The O seqeval appends to close the last chunk.
                reader.step('O', 0);
                Ok(reader.out)
            }
            Reading::Strict { read, patterns } => {
                let mut out = Vec::new();
                let mut toks: Vec<Token> = Vec::new();
                let mut base = 0usize;
                for (k, seq) in sentences.into_iter().enumerate() {
                    toks.clear();
                    for (j, &tag) in seq.iter().enumerate() {
                        match read.get(tag as usize) {
                            Some(Ok(tok)) => toks.push(*tok),
                            Some(Err(r)) => return Err(reject(k, j, r.clone(), odd)),
                            None => return Err(reject(k, j, Rejection::EmptyTag, odd)),
                        }
                    }
                    let push = |start, end, ty| {
                        out.push(Entity {
                            start: base + start,
                            end: base + end,
                            ty,
                        });
                    };
                    scheme::sentence(&toks, patterns, push).map_err(|j| {
                        let tag = seq.get(j).and_then(|&t| self.names.get(t as usize));
                        let tag = tag.map_or("O", String::as_str).to_string();
                        let allowed = patterns.allowed_text;
                        reject(k, j, Rejection::NotAllowed { tag, allowed }, odd)
                    })?;
                    base += seq.len() + 1;
                }
                Ok(out)
            }
        }
    }

    /// The entities of one side's sentences (ids into this vocabulary), and the tags seqeval
    /// warns about; `gold` tells which side a [`Rejected`] names.
    pub fn entities<'s>(
        &self,
        sentences: impl IntoIterator<Item = &'s [u32]>,
        gold: bool,
    ) -> Result<(Vec<Entity>, Vec<u32>), Rejected> {
        let mut warned = vec![false; self.names.len()];
        let mut odd = Vec::new();
        let e = self.read_side(sentences, gold, &mut warned, &mut odd)?;
        Ok((e, odd))
    }

    /// seqeval's per-type counts of `y_pred` against `y_true` (sentences of ids into this
    /// vocabulary): a predicted entity is a true positive when the gold side has one of the
    /// same type and extent, and counts for its own type.
    pub fn counts<'t, 'p>(
        &self,
        y_true: impl IntoIterator<Item = &'t [u32]>,
        y_pred: impl IntoIterator<Item = &'p [u32]>,
    ) -> Result<Counts, Rejected> {
        let mut warned = vec![false; self.names.len()];
        let mut odd = Vec::new();
        let t = self.read_side(y_true, true, &mut warned, &mut odd)?;
        let p = self.read_side(y_pred, false, &mut warned, &mut odd)?;
        Ok(self.tally(&t, &p, odd))
    }

    /// Both sides' entities paired by a merge: each side's entities are in order of (start,
    /// end), and no two of one side have the same extent.
    fn tally(&self, t: &[Entity], p: &[Entity], odd: Vec<u32>) -> Counts {
        let n = self.types.len();
        let (mut tp, mut np, mut nt) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
        for e in t {
            nt[e.ty as usize] += 1;
        }
        for e in p {
            np[e.ty as usize] += 1;
        }
        let (mut i, mut j) = (0, 0);
        while i < t.len() && j < p.len() {
            match (t[i].start, t[i].end).cmp(&(p[j].start, p[j].end)) {
                Ordering::Less => i += 1,
                Ordering::Greater => j += 1,
                Ordering::Equal => {
                    if t[i].ty == p[j].ty {
                        tp[t[i].ty as usize] += 1;
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        let mut order: Vec<usize> = (0..n).filter(|&k| nt[k] + np[k] > 0).collect();
        order.sort_by(|&a, &b| self.types[a].cmp(&self.types[b]));
        Counts {
            types: order.iter().map(|&k| self.types[k].clone()).collect(),
            tp: order.iter().map(|&k| tp[k]).collect(),
            pred: order.iter().map(|&k| np[k]).collect(),
            gold: order.iter().map(|&k| nt[k]).collect(),
            odd,
        }
    }

    /// seqeval's token counts of two sides of one shape (flat ids): see [`TokenCounts`].
    pub fn token_counts(&self, y_true: &[u32], y_pred: &[u32]) -> TokenCounts {
        let o = self.outside_tag;
        let mut c = TokenCounts {
            tokens: y_true.len() as u64,
            ..TokenCounts::default()
        };
        for (&a, &b) in y_true.iter().zip(y_pred) {
            let (ao, bo) = (Some(a) == o, Some(b) == o);
            c.equal += u64::from(a == b);
            c.tp += u64::from(a == b && !ao);
            c.fp += u64::from(a != b && !bo);
            c.fn_ += u64::from(!ao && bo);
            c.tn += u64::from(a == b && ao);
        }
        c
    }
}

/// Token counts: `accuracy_score` is equal / tokens; `performance_measure` TP (equal, not
/// `O`), FP (different, predicted not `O`), FN (gold not `O`, predicted `O`), TN (both `O`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenCounts {
    /// Tokens whose tags are equal.
    pub equal: u64,
    /// Tokens.
    pub tokens: u64,
    /// See the type's documentation.
    pub tp: u64,
    /// See the type's documentation.
    pub fp: u64,
    /// See the type's documentation.
    pub fn_: u64,
    /// See the type's documentation.
    pub tn: u64,
}

/// The default mode's chunking state over the flat list of one side.
struct DefaultReader {
    prev: (char, u32),
    begin: usize,
    i: usize,
    out: Vec<Entity>,
}

impl Default for DefaultReader {
    fn default() -> Self {
        // seqeval starts with prev_type '' (no type id): u32::MAX.
        DefaultReader {
            prev: ('O', u32::MAX),
            begin: 0,
            i: 0,
            out: Vec::new(),
        }
    }
}

impl DefaultReader {
    #[inline]
    fn step(&mut self, tag: char, ty: u32) {
        let (prev_tag, prev_type) = self.prev;
        let end = matches!(prev_tag, 'E' | 'S')
            || (matches!(prev_tag, 'B' | 'I') && matches!(tag, 'B' | 'S' | 'O'))
            || (prev_tag != 'O' && prev_tag != '.' && prev_type != ty);
        if end {
            self.out.push(Entity {
                start: self.begin,
                end: self.i,
                ty: prev_type,
            });
        }
        let start = matches!(tag, 'B' | 'S')
            || (matches!(prev_tag, 'E' | 'S' | 'O') && matches!(tag, 'E' | 'I'))
            || (tag != 'O' && tag != '.' && prev_type != ty);
        if start {
            self.begin = self.i;
        }
        self.prev = (tag, ty);
        self.i += 1;
    }
}

#[cfg(test)]
mod tests;
