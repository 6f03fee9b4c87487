//! Counting of system spans against gold spans in the four span regimes, exactly as the
//! official HIPE scorer counts them.
//!
//! Per document, in system-span order (see `docs/metrics.md` and the official
//! `ner_eval.py::compute_metrics`):
//! 1. a system span one of whose alternatives equals a gold span (label, offsets and covered
//!    text) is `correct` in every regime, counted for the gold label;
//! 2. otherwise the gold spans are walked in order: same offsets but another label (vs the
//!    first alternative) is strict/fuzzy `incorrect`, partial/exact `correct`; else the first
//!    not yet matched overlapping gold span makes it fuzzy `correct` (same label) or
//!    `incorrect`, partial `partial`, strict/exact `incorrect`;
//! 3. a system span that matched nothing is `spurious`, for its own label if that is evaluated
//!    and otherwise for every evaluated label.
//!
//! Gold spans never matched are `missed`.
//!
//! That is [`Attribution::Hipe`]; [`Attribution::Nervaluate`] counts the same four regimes
//! by nervaluate 1.2.x's rules instead ([`super::attribution`]: each regime its own pass, the
//! closest overlapping gold span, a minimum overlap; per label, a pass over that label's
//! spans alone), through [`count_attributed`].

use super::attribution::{AttributionError, Attributor, Entity};
use crate::spans::{Span, Spans};
use indexmap::IndexMap;
use std::collections::{BTreeSet, HashMap};

/// How run spans are paired with gold spans when counting the four regimes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Attribution {
    /// The official HIPE scorer's (the module's rules): one pass for the four regimes, a run
    /// span takes the first gold span it overlaps; per-label counts are a breakdown of the
    /// overall ones.
    #[default]
    Hipe,
    /// nervaluate 1.2.x's ([`super::attribution`]): each regime its own pass; a run span
    /// takes, among the gold spans not taken yet that it covers at least `min_overlap` % of,
    /// the one with its offsets (strict, exact, partial) or the closest one of its label
    /// (ent_type); per label, the spans of that label alone are attributed anew.
    Nervaluate {
        /// The share of a gold span's positions a run span must cover, in percent
        /// (nervaluate's `min_overlap_percentage`, 1 by default).
        min_overlap: f64,
    },
}

impl Attribution {
    /// nervaluate's attribution with its default minimum overlap (1 %).
    pub const NERVALUATE: Attribution = Attribution::Nervaluate { min_overlap: 1.0 };
}

pub use super::regime::{Counts, PerRegime, SpanRegime};

/// Counts of the four regimes.
pub type RegimeCounts = PerRegime<Counts>;

/// Counts of one document (or unit): overall and per label, labels in the order the official
/// scorer first touches them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UnitCounts<'a> {
    /// Counts over all evaluated labels.
    pub all: RegimeCounts,
    /// Counts per evaluated label (a spurious span kept for a non-first alternative is
    /// charged to every label).
    pub per_label: IndexMap<&'a str, RegimeCounts>,
}

#[derive(Clone, Copy)]
enum Outcome {
    Correct,
    Incorrect,
    Partial,
    Missed,
    Spurious,
}

#[inline]
fn bump(rc: &mut RegimeCounts, outcomes: [Outcome; 4]) {
    for ((_, c), o) in rc.iter_mut().zip(outcomes) {
        match o {
            Outcome::Correct => c.correct += 1,
            Outcome::Incorrect => c.incorrect += 1,
            Outcome::Partial => c.partial += 1,
            Outcome::Missed => c.missed += 1,
            Outcome::Spurious => c.spurious += 1,
        }
    }
}

impl<'a> UnitCounts<'a> {
    /// Adds the counts of another unit (labels new to `self` are appended in order).
    pub fn add(&mut self, other: &UnitCounts<'a>) {
        for (r, a) in self.all.iter_mut() {
            a.add(&other.all[r]);
        }
        for (label, rc) in &other.per_label {
            let mine = self.per_label.entry(label).or_default();
            for (r, a) in mine.iter_mut() {
                a.add(&rc[r]);
            }
        }
    }

    /// Records an outcome for `label`, keyed by the tag set's own string (every counted label
    /// is in the tag set).
    fn record(&mut self, tags: &'a BTreeSet<String>, label: &str, outcomes: [Outcome; 4]) {
        bump(&mut self.all, outcomes);
        if let Some(key) = tags.get(label) {
            bump(self.per_label.entry(key.as_str()).or_default(), outcomes);
        }
    }
}

use Outcome::*;
const ALL_CORRECT: [Outcome; 4] = [Correct, Correct, Correct, Correct];
// [strict, ent_type, partial, exact]
const SAME_SPAN_OTHER_LABEL: [Outcome; 4] = [Incorrect, Incorrect, Correct, Correct];
const OVERLAP_SAME_LABEL: [Outcome; 4] = [Incorrect, Correct, Partial, Incorrect];
const OVERLAP_OTHER_LABEL: [Outcome; 4] = [Incorrect, Incorrect, Partial, Incorrect];
const ALL_MISSED: [Outcome; 4] = [Missed, Missed, Missed, Missed];
const ALL_SPURIOUS: [Outcome; 4] = [Spurious, Spurious, Spurious, Spurious];

/// Reusable buffers for [`count`] and [`count_attributed`].
#[derive(Default)]
pub struct Scratch {
    gold: Vec<Span>,
    pred: Vec<Span>,
    matched: Vec<bool>,
    /// nervaluate's attribution: the spans as entities, labels numbered by `ids`.
    attributor: Attributor,
    entities: (Vec<Entity>, Vec<Entity>),
    ids: HashMap<String, u32>,
    names: Vec<String>,
}

/// Counts one unit by `attribution`: [`count`] for [`Attribution::Hipe`]; for
/// [`Attribution::Nervaluate`], the gold spans of the evaluated labels against the run spans
/// whose first alternative is evaluated (nervaluate has no alternatives, nor looks at the
/// covered text), the overall counts by one attribution and each label's by its own over its
/// spans alone. An error only for a gold span of length 0, which spans of tokens never have.
pub fn count_attributed<'a>(
    gold: &Spans<'_>,
    pred: &Spans<'_>,
    tags: &'a BTreeSet<String>,
    same_text: impl Fn(u32, u32) -> bool,
    attribution: Attribution,
    scratch: &mut Scratch,
) -> Result<UnitCounts<'a>, AttributionError> {
    let min_overlap = match attribution {
        Attribution::Hipe => return Ok(count(gold, pred, tags, same_text, scratch)),
        Attribution::Nervaluate { min_overlap } => min_overlap,
    };
    let Scratch {
        attributor,
        entities: (golds, preds),
        ids,
        names,
        ..
    } = scratch;
    let mut id = |label: &str| -> u32 {
        if let Some(&k) = ids.get(label) {
            return k;
        }
        let k = names.len() as u32;
        ids.insert(label.to_string(), k);
        names.push(label.to_string());
        k
    };
    let entity = |label: u32, s: &Span| Entity {
        label,
        start: i64::from(s.start),
        end: i64::from(s.end),
    };
    golds.clear();
    preds.clear();
    for s in &gold.spans {
        let label = gold.label(s);
        if tags.contains(label) {
            golds.push(entity(id(label), s));
        }
    }
    for s in &pred.spans {
        let label = pred.label(s);
        if tags.contains(label) {
            preds.push(entity(id(label), s));
        }
    }
    let mut out = UnitCounts::default();
    let mut failed = None;
    attributor.document(
        golds,
        preds,
        min_overlap,
        false,
        |_| true,
        |label, regime, outcome| match outcome {
            Err(e) => failed = failed.or(Some(e)),
            Ok(o) => match label {
                None => out.all[regime].add(&o.counts),
                Some(k) => {
                    let key = names.get(k as usize).and_then(|n| tags.get(n.as_str()));
                    if let Some(key) = key {
                        out.per_label.entry(key.as_str()).or_default()[regime].add(&o.counts);
                    }
                }
            },
        },
    );
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Counts one unit. `tags` are the evaluated labels; `same_text(start, end)` tells whether the
/// gold and system texts covered by `start..=end` are equal.
pub fn count<'a>(
    gold: &Spans<'_>,
    pred: &Spans<'_>,
    tags: &'a BTreeSet<String>,
    same_text: impl Fn(u32, u32) -> bool,
    scratch: &mut Scratch,
) -> UnitCounts<'a> {
    count_in(
        gold,
        pred,
        tags,
        |g: &Span, _: &Span| same_text(g.start, g.end),
        false,
        scratch,
        true,
    )
}

/// Counts one unit of spans that may be discontinuous: `same(gold, run)` tells whether two
/// spans with the same first and last position cover the same positions. Strict and exact
/// correctness then need the same positions, label aside: a run span over the range of a
/// gold span but other positions overlaps it (strict and exact incorrect, partial partial,
/// ent_type by its label). Spans are told apart by [`Span::key`].
pub fn count_fragments<'a>(
    gold: &Spans<'_>,
    pred: &Spans<'_>,
    tags: &'a BTreeSet<String>,
    same: impl Fn(&Span, &Span) -> bool,
    scratch: &mut Scratch,
) -> UnitCounts<'a> {
    count_in(gold, pred, tags, same, true, scratch, true)
}

/// [`count`], looking only at the gold spans near each run span when `index` is set and the
/// gold spans allow it (tests compare both ways).
fn count_in<'a>(
    gold: &Spans<'_>,
    pred: &Spans<'_>,
    tags: &'a BTreeSet<String>,
    same: impl Fn(&Span, &Span) -> bool,
    same_for_other_labels: bool,
    scratch: &mut Scratch,
    index: bool,
) -> UnitCounts<'a> {
    let mut out = UnitCounts::default();
    scratch.gold.clear();
    scratch
        .gold
        .extend(gold.spans.iter().filter(|s| tags.contains(gold.label(s))));
    scratch.pred.clear();
    scratch.pred.extend(
        pred.spans
            .iter()
            .filter(|s| pred.alts(s).iter().any(|a| tags.contains(*a))),
    );
    scratch.matched.clear();
    scratch.matched.resize(scratch.gold.len(), false);
    let golds = &scratch.gold;
    let matched = &mut scratch.matched;

    // Gold spans built from one column are disjoint and in order: the only ones a run span
    // can pair with (same offsets or overlap) are then a contiguous run found by binary
    // search, and scanning it in order finds what the official scan of every gold span finds.
    // Otherwise every gold span is looked at, as the official scorer does.
    let disjoint = index && golds.windows(2).all(|w| w[0].end < w[1].start);
    for p in &scratch.pred {
        let alts = pred.alts(p);
        let near = if disjoint {
            let lo = golds.partition_point(|g| g.end < p.start);
            lo..lo + golds[lo..].partition_point(|g| g.start <= p.end)
        } else {
            0..golds.len()
        };
        // 1. Exact match of one alternative (label, offsets, text).
        let exact = golds[near.clone()]
            .iter()
            .position(|g| {
                g.start == p.start && g.end == p.end && alts.contains(&gold.label(g)) && same(g, p)
            })
            .map(|i| near.start + i);
        if let Some(gi) = exact {
            matched[gi] = true;
            out.record(tags, gold.label(&golds[gi]), ALL_CORRECT);
            continue;
        }
        // 2. Same offsets with another label, or first unmatched overlap.
        let mut found = false;
        for (gi, g) in golds.iter().enumerate().take(near.end).skip(near.start) {
            let glabel = gold.label(g);
            if g.start == p.start
                && g.end == p.end
                && glabel != alts[0]
                && (!same_for_other_labels || same(g, p))
            {
                matched[gi] = true;
                found = true;
                out.record(tags, glabel, SAME_SPAN_OTHER_LABEL);
                break;
            } else if g.overlaps(p) && !matched[gi] {
                matched[gi] = true;
                found = true;
                if alts.contains(&glabel) {
                    out.record(tags, glabel, OVERLAP_SAME_LABEL);
                } else {
                    out.record(tags, glabel, OVERLAP_OTHER_LABEL);
                }
                break;
            }
        }
        // 3. Spurious.
        if !found {
            bump(&mut out.all, ALL_SPURIOUS);
            match tags.get(alts[0]) {
                Some(own) => bump(out.per_label.entry(own.as_str()).or_default(), ALL_SPURIOUS),
                None => {
                    // A span kept for another alternative: the official scorer charges the
                    // spurious span to every evaluated label.
                    for t in tags {
                        bump(out.per_label.entry(t.as_str()).or_default(), ALL_SPURIOUS);
                    }
                }
            }
        }
    }
    for (gi, g) in golds.iter().enumerate() {
        if !matched[gi] {
            out.record(tags, gold.label(g), ALL_MISSED);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::ReadOptions;
    use crate::spans::{entities, links_ne_bounded};
    use std::path::Path;

    /// A two-column file (NE tags, links) of `n` tokens drawn from `next`.
    fn corpus(n: usize, next: &mut impl FnMut() -> usize) -> crate::corpus::Corpus {
        const TAGS: [&str; 8] = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-PER"];
        const LINKS: [&str; 5] = ["Q1", "Q2", "NIL", "Q1|Q2", "Q3"];
        let mut text = String::from("TOKEN\tNE\tNEL\n");
        for i in 0..n {
            let tag = TAGS[next() % TAGS.len()];
            let link = if tag == "O" {
                "_"
            } else {
                LINKS[next() % LINKS.len()]
            };
            text.push_str(&format!("t{i}\t{tag}\t{link}\n"));
        }
        crate::formats::hipe::parse(Path::new("t.tsv"), text.as_bytes(), &ReadOptions::default())
            .expect("generated file parses")
    }

    #[test]
    fn looking_near_each_run_span_counts_as_scanning_every_gold_span() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let ne_tags: BTreeSet<String> = ["PER", "LOC"].iter().map(|s| s.to_string()).collect();
        let links: BTreeSet<String> = ["Q1", "Q2", "Q3", "NIL"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (mut a, mut b) = (Scratch::default(), Scratch::default());
        for case in 0..300 {
            let n = 1 + next() % 60;
            let (g, p) = (corpus(n, &mut next), corpus(n, &mut next));
            let (mut gsp, mut psp) = (Spans::default(), Spans::default());
            let seq: Vec<usize> = (0..n).collect();
            let same = |g: &Span, _: &Span| g.start % 7 != 3;
            for nel in [false, true] {
                let tags = if nel { &links } else { &ne_tags };
                if nel {
                    links_ne_bounded(&g, 2, 1, &seq, 1, true, &mut gsp);
                    links_ne_bounded(&p, 2, 1, &seq, 1 + case % 3, false, &mut psp);
                } else {
                    entities(&g, 1, &seq, &mut gsp);
                    entities(&p, 1, &seq, &mut psp);
                }
                let near = count_in(&gsp, &psp, tags, same, false, &mut a, true);
                let all = count_in(&gsp, &psp, tags, same, false, &mut b, false);
                assert_eq!(near, all, "case {case}, nel {nel}");
            }
        }
    }
}
