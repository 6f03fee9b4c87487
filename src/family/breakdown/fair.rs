//! Breakdowns of the fair family (docs/breakdown.md, "The fair family"): every gold span
//! falls in the bucket of its own value with the fair type it was first counted with (TP, FN,
//! LE, BE, LBE: the recall side), every run span in the bucket of its own value with its type
//! (TP, FP, LE, BE, LBE: the precision side); each bucket's fair P and R come from its two
//! sides as the fair table's come from its counts (LE, BE and LBE as half an FP or FN).

use super::{buckets, join, splice, Asked, Breakdown, Caps, Facts, KeyBuckets, Train};
use crate::corpus::{Corpus, Document};
use crate::error::{Error, Result};
use crate::family::Statistics;
use crate::matching::fair::ErrorType;

/// Numbers per bucket in a unit: TP, FN, LE, BE, LBE of the gold side, then TP, FP, LE, BE,
/// LBE of the run side.
pub(super) const PER_BUCKET: usize = 10;

/// The columns of a bucket's counts, in [`PER_BUCKET`] order.
pub(super) const COUNTS: [&str; PER_BUCKET] = [
    "TP-gold", "FN", "LE-gold", "BE-gold", "LBE-gold", "TP-run", "FP", "LE-run", "BE-run",
    "LBE-run",
];

/// The slot of a span of `side` (0 gold, 1 run) counted with `kind`.
fn slot(side: usize, kind: ErrorType) -> usize {
    let k = match kind {
        ErrorType::TP => 0,
        ErrorType::FN | ErrorType::FP => 1,
        ErrorType::LE => 2,
        ErrorType::BES | ErrorType::BEL | ErrorType::BEO => 3,
        ErrorType::LBE => 4,
    };
    side * 5 + k
}

/// Fair P, R and F1 of a bucket's [`PER_BUCKET`] counts: P is TP-run over TP-run, FP and half
/// of LE-run, BE-run and LBE-run; R is TP-gold over TP-gold, FN and half of LE-gold, BE-gold and
/// LBE-gold; F1 their harmonic mean (each 0 when its denominator is 0).
pub(super) fn prf(c: &[f64]) -> (f64, f64, f64) {
    let get = |i: usize| c.get(i).copied().unwrap_or(0.0);
    let half = |from: usize| 0.5 * (get(from) + get(from + 1) + get(from + 2));
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let r = ratio(get(0), get(0) + get(1) + half(2));
    let p = ratio(get(5), get(5) + get(6) + half(7));
    (p, r, ratio(2.0 * p * r, p + r))
}

/// Adds the fair breakdown of `asked` keys to `stats`: `gold` and `run` are the spans, each
/// with the fair type it was first counted with (`gold_types`, `run_types`, parallel).
pub(crate) fn attach(
    stats: &mut Statistics,
    asked: &[Asked],
    gold: &[Facts],
    gold_types: &[ErrorType],
    run: &[Facts],
    run_types: &[ErrorType],
) -> Result<()> {
    let n_units = stats.len();
    let mut keys = Vec::with_capacity(asked.len());
    let mut blocks: Vec<(usize, Vec<f64>)> = Vec::with_capacity(asked.len());
    for a in asked {
        let b = buckets::Bucketing::new(a, gold, run);
        let nb = b.names.len();
        let mut per_unit = vec![0.0; n_units * PER_BUCKET * nb];
        for (side, (spans, types)) in [(gold, gold_types), (run, run_types)]
            .into_iter()
            .enumerate()
        {
            for (s, &kind) in spans.iter().zip(types) {
                if s.unit >= n_units {
                    return Err(Error::usage(format!(
                        "breakdown: a span of unit {} beyond the {} units scored",
                        s.unit + 1,
                        n_units
                    )));
                }
                let k = b.bucket(a.key, s);
                per_unit[(s.unit * nb + k) * PER_BUCKET + slot(side, kind)] += 1.0;
            }
        }
        blocks.push((nb * PER_BUCKET, per_unit));
        keys.push(KeyBuckets {
            key: a.key,
            names: b.names,
        });
    }
    let layout = Breakdown {
        offset: stats.fixed,
        regime: "fair",
        keys,
        layout: super::Layout::Fair,
    };
    splice(stats, layout, &blocks);
    Ok(())
}

/// The caption of the fair breakdown by `key`.
pub(super) fn caption(key: &str) -> String {
    format!(
        "Fair breakdown by {key} (gold spans by their value and first fair type: TP-gold, FN, LE-gold, BE-gold, LBE-gold, R; run spans by theirs: TP-run, FP, LE-run, BE-run, LBE-run, P; LE, BE and LBE count half)"
    )
}

/// What the fair breakdown reads beyond the units' spans.
pub(crate) struct Context<'a> {
    /// The gold as read when the units are its HIPE TSV documents (unit k its k-th
    /// document): their sentences (`# segment`, MISC `EndOfSentence`) and metadata (noise
    /// levels, dates), which the units do not carry.
    pub hipe: Option<&'a Corpus>,
    /// The report's sentences per document (CoNLL with `-DOCSTART-`), else empty.
    pub document_sentences: &'a [usize],
    /// The training file's vocabulary and entities, with a training key.
    pub train: Option<&'a Train>,
}

/// The spans of a fair evaluation as the breakdown reads them: per side (gold, run) the facts
/// of every span and the fair type it was first counted with. `units` are the evaluation's
/// units with the index of the statistics' unit each belongs to. A span's words are its
/// tokens' forms (token files) or the text of its positions (standoff files); its sentence is
/// its unit (a CoNLL sentence), the sentence of the gold's HIPE document its first token is
/// in (`# segment`, MISC `EndOfSentence`), or the line of the text its first position starts
/// on (standoff); its document the unit's (HIPE, standoff) or the CoNLL document of its
/// sentence, `#LINE` of its first token (of the sentence in a file without documents). On
/// HIPE TSV its noise level and year are the gold's at its positions.
pub(crate) fn facts<'a>(
    units: impl Iterator<Item = (usize, &'a crate::eval::fair::UnitResult)>,
    ctx: &Context<'_>,
) -> [(Vec<Facts>, Vec<ErrorType>); 2] {
    let mut out: [(Vec<Facts>, Vec<ErrorType>); 2] = Default::default();
    // The CoNLL document of every sentence unit: the index of its first unit.
    let mut doc_first: Vec<usize> = Vec::new();
    for &n in ctx.document_sentences {
        let first = doc_first.len();
        doc_first.extend(std::iter::repeat_n(first, n));
    }
    let all: Vec<(usize, &crate::eval::fair::UnitResult)> = units.collect();
    let mut sentences = Sentences::default();
    for (k, &(unit, u)) in all.iter().enumerate() {
        // The unit's HIPE document in the gold, when it has as many tokens.
        let hipe_doc = ctx.hipe.and_then(|g| {
            let d = g.docs.get(k)?;
            let n = u.target.tokens.as_ref().map_or(0, Vec::len);
            (d.len() == n).then_some((g, d))
        });
        sentences.fill(&u.target, hipe_doc);
        let document = if u.target.chars.is_some() || ctx.hipe.is_some() {
            u.target.id.clone()
        } else {
            let first = doc_first.get(k).copied().unwrap_or(k);
            let line = all.get(first).map_or(u.target.line, |x| x.1.target.line);
            format!("#{line}")
        };
        let sides = [
            (&u.target, &u.outcome.target_types),
            (&u.system, &u.outcome.system_types),
        ];
        for ((side, types), (facts, kinds)) in sides.into_iter().zip(out.iter_mut()) {
            for (i, (s, &kind)) in side.spans.iter().zip(types).enumerate() {
                let words: Vec<&str> = s
                    .token_list()
                    .into_iter()
                    .filter_map(|t| word(side, t).or_else(|| word(&u.target, t)))
                    .collect();
                let text = join(words.iter().copied());
                let first = s.begin.saturating_sub(1);
                let (sentence_tokens, sentence_entities, start_in_sentence) = sentences.at(first);
                let mut f = Facts {
                    unit,
                    correct: kind == ErrorType::TP,
                    label: s.label.clone(),
                    tokens: u32::try_from(s.end.saturating_sub(s.begin) + 1).unwrap_or(u32::MAX),
                    chars: u32::try_from(text.chars().count()).unwrap_or(u32::MAX),
                    sentence_tokens,
                    sentence_entities,
                    start_in_sentence,
                    caps: Caps::of(words.iter().copied()),
                    document: document.clone(),
                    oov: false,
                    train_freq: 0,
                    train_same_label: 0,
                    noise: 0.0,
                    year: 0.0,
                    id: String::new(),
                    line: side.span_lines.get(i).copied().unwrap_or(0),
                };
                if let Some((g, d)) = hipe_doc {
                    (f.noise, f.year) = metadata(g, d, s.begin, s.end);
                }
                if let Some(t) = ctx.train {
                    f.set_train(t, words.iter().copied());
                }
                facts.push(f);
                kinds.push(kind);
            }
        }
    }
    out
}

/// The form of token `t` (1-based) of a unit: its token's form, or its position's text in a
/// standoff document.
fn word(u: &crate::eval::fair::Unit, t: usize) -> Option<&str> {
    let k = t.checked_sub(1)?;
    if let Some(toks) = &u.tokens {
        return toks.get(k).map(String::as_str);
    }
    let c = u.chars.as_ref()?;
    let (s, e) = c.bytes(k)?;
    c.text.get(s..e)
}

/// Whether every unit has its tokens' text (token files, standoff files; span files do not).
pub(crate) fn has_text(units: &[crate::eval::fair::UnitResult]) -> bool {
    units
        .iter()
        .all(|u| u.target.tokens.is_some() || u.target.chars.is_some())
}

/// The gold's metadata at a span's positions `begin..=end` (1-based) of its HIPE document `d`:
/// the largest noise level (MISC `LED…`) of its tokens, 0 when none has one, and the year of
/// the date at its first token, 0 without one.
fn metadata(g: &Corpus, d: &Document, begin: usize, end: usize) -> (f64, f64) {
    let Some(first) = begin.checked_sub(1).map(|b| d.start + b) else {
        return (0.0, 0.0);
    };
    let last = d.start + end.saturating_sub(1);
    let noise = (first..=last).filter_map(|t| g.led(t)).fold(0.0, f64::max);
    let year = g.date(first).map_or(0.0, |x| f64::from(x.year));
    (noise, year)
}

/// A unit's HIPE TSV document: the gold corpus (its sentence ends flagged by the reader, MISC
/// `EndOfSentence`) and the document in it.
type HipeDoc<'a> = (&'a Corpus, &'a Document);

/// The sentences of a unit: one per CoNLL sentence unit, those of a HIPE document, one per
/// line of a standoff text. Its buffers are reused from unit to unit.
#[derive(Default)]
struct Sentences {
    /// Per position (0-based): its sentence.
    of: Vec<u32>,
    /// Per sentence: its first position, its positions, the gold spans starting in it.
    first: Vec<u32>,
    len: Vec<u32>,
    entities: Vec<u32>,
}

impl Sentences {
    /// The sentences of `u`; `hipe`: the gold corpus and the unit's document in it when `u`
    /// is a HIPE TSV document.
    fn fill(&mut self, u: &crate::eval::fair::Unit, hipe: Option<HipeDoc<'_>>) {
        self.of.clear();
        self.first.clear();
        self.len.clear();
        self.entities.clear();
        if let Some((g, d)) = hipe {
            super::tokens::sentences(g, d, &mut self.of, &mut self.first, &mut self.len);
        } else if let Some(c) = &u.chars {
            // The line of every position: the line breaks before its first byte.
            let mut line = 0u32;
            let mut last = 0usize;
            for (b, _) in c.byte_ranges() {
                line += c.text.get(last..b).map_or(0, |t| t.matches('\n').count()) as u32;
                last = b.max(last);
                self.of.push(line);
            }
            let n = self.of.last().map_or(0, |l| *l as usize + 1);
            self.first.resize(n, u32::MAX);
            self.len.resize(n, 0);
            for (k, &l) in self.of.iter().enumerate() {
                self.len[l as usize] += 1;
                self.first[l as usize] = self.first[l as usize].min(k as u32);
            }
        } else if let Some(t) = &u.tokens {
            self.of.resize(t.len(), 0);
            self.first.push(0);
            self.len.push(t.len() as u32);
        }
        self.entities.resize(self.len.len(), 0);
        for g in &u.spans {
            if let Some(&l) = self.of.get(g.begin.saturating_sub(1)) {
                if let Some(e) = self.entities.get_mut(l as usize) {
                    *e += 1;
                }
            }
        }
    }
    /// Tokens of the sentence of position `k`, its gold entities, `k`'s place in it.
    fn at(&self, k: usize) -> (u32, u32, u32) {
        match self.of.get(k) {
            Some(&l) => {
                let l = l as usize;
                let first = self.first.get(l).copied().unwrap_or(0);
                (
                    self.len.get(l).copied().unwrap_or(0),
                    self.entities.get(l).copied().unwrap_or(0),
                    (k as u32).saturating_sub(first),
                )
            }
            None => (0, 0, 0),
        }
    }
}
