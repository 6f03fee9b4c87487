//! Breakdowns of the muc family (docs/breakdown.md, "The muc family"): the judged tokens of
//! every gold entity fall in the bucket of that entity's value (the recall side: COR-gold,
//! INC-gold, PAR-gold, MIS), the judged tokens of every run entity in the bucket of that
//! entity's value (the precision side: COR-run, INC-run, PAR-run, SPU); each bucket's P and R
//! come from its two sides by MUC-7's formulas, half a point for a partial token.

use super::{buckets, join, splice, Asked, Breakdown, Caps, Facts, KeyBuckets, Layout, Train};
use crate::corpus::{Corpus, Document};
use crate::error::{Error, Result};
use crate::family::Statistics;
use crate::metrics::prf::fbeta;
use crate::spans::Spans;

/// Numbers per bucket in a unit: COR, INC, PAR, MIS of the gold side, then COR, INC, PAR, SPU
/// of the run side.
pub(super) const PER_BUCKET: usize = 8;

/// The columns of a bucket's counts, in [`PER_BUCKET`] order.
pub(super) const COUNTS: [&str; PER_BUCKET] = [
    "COR-gold", "INC-gold", "PAR-gold", "MIS", "COR-run", "INC-run", "PAR-run", "SPU",
];

/// The judgement of a token as a slot of either side: 0 correct, 1 incorrect, 2 partial, 3
/// missing (gold side) or spurious (run side).
pub(crate) type Slot = usize;

/// MUC P, R and F-beta of a bucket's [`PER_BUCKET`] counts: P = (COR-run + PAR-run/2) /
/// (COR-run + INC-run + PAR-run + SPU), R = (COR-gold + PAR-gold/2) / (COR-gold + INC-gold +
/// PAR-gold + MIS), F-beta of the two (each 0 when its denominator is 0).
pub(super) fn prf(c: &[f64], beta: f64) -> (f64, f64, f64) {
    let get = |i: usize| c.get(i).copied().unwrap_or(0.0);
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let side = |at: usize| {
        ratio(
            get(at) + 0.5 * get(at + 2),
            get(at) + get(at + 1) + get(at + 2) + get(at + 3),
        )
    };
    let (r, p) = (side(0), side(4));
    (p, r, fbeta(p, r, beta))
}

/// The caption of the muc breakdown by `key`, F with `beta`.
pub(super) fn caption(key: &str, beta: f64) -> String {
    format!(
        "MUC-7 breakdown by {key} (the judged tokens of gold entities by the entity's value: COR-gold, INC-gold, PAR-gold, MIS, R; of run entities by theirs: COR-run, INC-run, PAR-run, SPU, P; PAR counts half; F with beta {beta})"
    )
}

/// The entities of one side with their judged tokens per slot.
#[derive(Debug, Default)]
struct Side {
    facts: Vec<Facts>,
    counts: Vec<[u32; 4]>,
    /// Per span of the current unit: its index in `facts` (`u32::MAX` for an untyped span).
    index: Vec<u32>,
}

/// The entities of gold and run of a muc evaluation of token files, with what the keys read
/// and their judged tokens, gathered unit by unit as the evaluation judges them.
#[derive(Debug)]
pub(crate) struct MucSpans<'t> {
    train: Option<&'t Train>,
    sides: [Side; 2],
    sentence_of: Vec<u32>,
    starts: Vec<u32>,
    lens: Vec<u32>,
    entities_in: Vec<u32>,
}

/// A unit of the evaluation as [`MucSpans::unit`] reads it.
pub(crate) struct UnitSpans<'a, 'c> {
    /// The unit of the statistics it counts in.
    pub unit: usize,
    /// The name of its document (of the unit itself when units are sentences).
    pub document: &'a str,
    /// Its first position's place in the document given to [`MucSpans::document`].
    pub offset: usize,
    /// The gold and its tokens, in order.
    pub gold: (&'c Corpus, &'a [usize]),
    /// The run and its tokens, in order.
    pub run: (&'c Corpus, &'a [usize]),
}

impl<'t> MucSpans<'t> {
    /// An empty gathering.
    pub fn new(train: Option<&'t Train>) -> Self {
        MucSpans {
            train,
            sides: Default::default(),
            sentence_of: Vec::new(),
            starts: Vec::new(),
            lens: Vec::new(),
            entities_in: Vec::new(),
        }
    }

    /// Starts a gold document: its sentences (segments, cut after `EndOfSentence`).
    pub fn document(&mut self, gold: &Corpus, d: &Document) {
        super::tokens::sentences(
            gold,
            d,
            &mut self.sentence_of,
            &mut self.starts,
            &mut self.lens,
        );
        self.entities_in.clear();
        self.entities_in.resize(self.lens.len(), 0);
    }

    /// Adds the entities `gsp` and `psp` of a unit (before its tokens are judged).
    pub fn unit(&mut self, u: &UnitSpans<'_, '_>, gsp: &Spans<'_>, psp: &Spans<'_>) {
        let typed = |sp: &Spans<'_>, x: &crate::spans::Span| !sp.label(x).is_empty();
        for g in gsp.spans.iter().filter(|x| typed(gsp, x)) {
            if let Some(&k) = self.sentence_of.get(u.offset + g.start as usize) {
                if let Some(n) = self.entities_in.get_mut(k as usize) {
                    *n += 1;
                }
            }
        }
        let (gold, gseq) = u.gold;
        for (side, (sp, (corpus, seq))) in [(gsp, u.gold), (psp, u.run)].into_iter().enumerate() {
            let mut index = std::mem::take(&mut self.sides[side].index);
            index.clear();
            for x in &sp.spans {
                if !typed(sp, x) {
                    index.push(u32::MAX);
                    continue;
                }
                let (a, b) = (x.start as usize, x.end as usize);
                let words = seq
                    .get(a..=b)
                    .unwrap_or(&[])
                    .iter()
                    .map(|&t| corpus.token_text(t));
                let mut f = self.facts(u, sp.label(x), a, b, words.clone());
                f.line = seq.get(a).map_or(0, |&t| corpus.line(t));
                // The gold's metadata at the span's positions.
                let at = gseq.get(a..=b).unwrap_or(&[]);
                f.noise = at.iter().filter_map(|&t| gold.led(t)).fold(0.0, f64::max);
                f.year = at
                    .first()
                    .and_then(|&t| gold.date(t))
                    .map_or(0.0, |d| f64::from(d.year));
                if let Some(t) = self.train {
                    f.set_train(t, words);
                }
                let s = &mut self.sides[side];
                index.push(s.facts.len() as u32);
                s.facts.push(f);
                s.counts.push([0; 4]);
            }
            self.sides[side].index = index;
        }
    }

    /// The facts of a span of positions `a..=b` of unit `u`.
    fn facts<'w>(
        &self,
        u: &UnitSpans<'_, '_>,
        label: &str,
        a: usize,
        b: usize,
        words: impl Iterator<Item = &'w str> + Clone,
    ) -> Facts {
        let k = self.sentence_of.get(u.offset + a).copied().unwrap_or(0) as usize;
        let first = self.starts.get(k).copied().unwrap_or(0) as usize;
        let text = join(words.clone());
        Facts {
            unit: u.unit,
            correct: false,
            label: label.to_string(),
            tokens: u32::try_from(b - a + 1).unwrap_or(u32::MAX),
            chars: u32::try_from(text.chars().count()).unwrap_or(u32::MAX),
            sentence_tokens: self.lens.get(k).copied().unwrap_or(0),
            sentence_entities: self.entities_in.get(k).copied().unwrap_or(0),
            start_in_sentence: u32::try_from((u.offset + a).saturating_sub(first))
                .unwrap_or(u32::MAX),
            caps: Caps::of(words),
            document: u.document.to_string(),
            oov: false,
            train_freq: 0,
            train_same_label: 0,
            noise: 0.0,
            year: 0.0,
            id: String::new(),
            line: 0,
        }
    }

    /// The training file's vocabulary and entities, with a training key.
    pub fn train(&self) -> Option<&'t Train> {
        self.train
    }

    /// Adds the entities of a standoff document pair: the facts of its gold's and its run's
    /// spans (`super::standoff::Doc::facts`); the judged tokens that follow count by the
    /// spans' indexes in those lists.
    pub fn standoff_doc(&mut self, facts: (Vec<Facts>, Vec<Facts>)) {
        for (side, f) in [facts.0, facts.1].into_iter().enumerate() {
            let s = &mut self.sides[side];
            s.index.clear();
            for x in f {
                s.index.push(s.facts.len() as u32);
                s.facts.push(x);
                s.counts.push([0; 4]);
            }
        }
    }

    /// Counts a judged token of the current unit: `slot` on the gold side when it is inside
    /// gold span `gold`, on the run side when inside run span `run`.
    #[inline]
    pub fn judged(&mut self, gold: Option<usize>, run: Option<usize>, slot: Slot) {
        for (side, span) in [gold, run].into_iter().enumerate() {
            let s = &mut self.sides[side];
            let at = span.and_then(|i| s.index.get(i)).copied();
            if let Some(c) = at.and_then(|i| s.counts.get_mut(i as usize)) {
                if let Some(n) = c.get_mut(slot) {
                    *n += 1;
                }
            }
        }
    }
}

/// Adds the muc breakdown of `asked` keys over `spans` to `stats` (F with `beta`).
pub(crate) fn attach(
    stats: &mut Statistics,
    asked: &[Asked],
    spans: &MucSpans<'_>,
    beta: f64,
) -> Result<()> {
    let n_units = stats.len();
    let [gold, run] = &spans.sides;
    let mut keys = Vec::with_capacity(asked.len());
    let mut blocks: Vec<(usize, Vec<f64>)> = Vec::with_capacity(asked.len());
    for a in asked {
        let b = buckets::Bucketing::new(a, &gold.facts, &run.facts);
        let nb = b.names.len();
        let mut per_unit = vec![0.0; n_units * PER_BUCKET * nb];
        for (side, s) in [gold, run].into_iter().enumerate() {
            for (f, c) in s.facts.iter().zip(&s.counts) {
                if f.unit >= n_units {
                    return Err(Error::usage(format!(
                        "breakdown: a span of unit {} beyond the {} units scored",
                        f.unit + 1,
                        n_units
                    )));
                }
                let at = (f.unit * nb + b.bucket(a.key, f)) * PER_BUCKET + side * 4;
                for (slot, &n) in c.iter().enumerate() {
                    per_unit[at + slot] += f64::from(n);
                }
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
        regime: "muc",
        keys,
        layout: Layout::Muc(beta),
    };
    splice(stats, layout, &blocks);
    Ok(())
}
