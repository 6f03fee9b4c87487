//! Attribution of predicted spans to gold spans by *closest overlap with a minimum overlap*:
//! nervaluate 1.2.1's rules (its `strategies.py`), beside the first-overlap rule of
//! [`super::span_count`]. Each regime is its own pass over the predicted spans, in order, with
//! its own record of the gold spans already taken; a predicted span takes at most one gold
//! span not taken yet, looked for in gold order:
//!
//! - strict: the first gold span with its offsets and label → correct; otherwise the first one
//!   it overlaps enough → incorrect; none → spurious;
//! - exact: the same with offsets only;
//! - partial: among the gold spans it overlaps enough, the first with its offsets → correct;
//!   otherwise the first → partial; none → spurious;
//! - ent_type: among the gold spans it overlaps enough, the one of its label with the least
//!   |start difference| + |end difference| (the first on ties) → correct; otherwise the first
//!   of another label → incorrect; none → spurious.
//!
//! Gold spans never taken are missed. "Overlaps enough": `(shared / gold length) * 100 >= min`
//! computed as nervaluate computes it in Python (offsets inclusive, the quotient of two
//! integers correctly rounded to a double, then times 100.0), so that every threshold gives
//! its numbers; offsets are taken as given, `end < start` included. A gold span of length 0
//! (`end == start - 1`) that a predicted span reaches across divides by zero, which Python
//! raises: that pass is then an [`AttributionError`].
//!
//! Besides the counts, each outcome lists which spans had it (predicted spans by index; missed:
//! gold spans by index), as nervaluate reports them.

use super::regime::Counts;
use super::PerRegime;
use std::fmt;

/// A labeled span: its label (any id: only equality matters) and its first and last offset,
/// both inclusive, as given (`end` may be below `start`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entity {
    /// The label's id.
    pub label: u32,
    /// The first offset.
    pub start: i64,
    /// The last offset (inclusive).
    pub end: i64,
}

/// The outcome of one regime: the counts and, for each outcome, the spans that had it in
/// order (predicted spans' indices; `missed`: gold spans' indices).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// The five counts.
    pub counts: Counts,
    /// Predicted spans counted correct.
    pub correct: Vec<usize>,
    /// Predicted spans counted incorrect.
    pub incorrect: Vec<usize>,
    /// Predicted spans counted partial.
    pub partial: Vec<usize>,
    /// Gold spans never taken.
    pub missed: Vec<usize>,
    /// Predicted spans that took no gold span.
    pub spurious: Vec<usize>,
}

impl Outcomes {
    /// No outcome (the lists keep their capacity).
    pub fn clear(&mut self) {
        self.counts = Counts::default();
        for v in [
            &mut self.correct,
            &mut self.incorrect,
            &mut self.partial,
            &mut self.missed,
            &mut self.spurious,
        ] {
            v.clear();
        }
    }
}

/// Why a pass could not count: a gold span of length 0 that a predicted span reaches across
/// (the overlap share divides by zero; nervaluate raises `ZeroDivisionError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttributionError {
    /// The gold span's index.
    pub gold: usize,
    /// The predicted span's index.
    pub pred: usize,
}

impl fmt::Display for AttributionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "division by zero: gold span {} has length 0 and predicted span {} reaches across it",
            self.gold, self.pred
        )
    }
}

impl std::error::Error for AttributionError {}

/// The result of each regime's pass (each may fail on its own, as each nervaluate strategy
/// does).
pub type Attributed = PerRegime<Result<Outcomes, AttributionError>>;

/// Attributes `preds` to `golds` by closest overlap, each regime in its own pass (the module's
/// documentation has the rules), listing the spans of each outcome. `min_pct` is the share of
/// a gold span's positions a predicted span must cover (nervaluate's
/// `min_overlap_percentage`; any value, NaN included, compares as in Python).
pub fn closest_overlap(golds: &[Entity], preds: &[Entity], min_pct: f64) -> Attributed {
    let mut a = Attributor::default();
    let mut out = PerRegime::from_fn(|_| Ok(Outcomes::default()));
    a.each_regime(golds, preds, min_pct, true, |r, o| out[r] = o.cloned());
    out
}

use super::SpanRegime;

/// Reusable buffers: attributes document after document without allocating once they have
/// grown (index lists aside, when asked for).
#[derive(Debug, Default)]
pub struct Attributor {
    taken: Vec<bool>,
    near: Vec<usize>,
    /// Gold spans by start (the window), and their starts.
    order: Vec<usize>,
    starts: Vec<i64>,
    /// One label's spans (per-label passes), and the labels of a document.
    golds: Vec<Entity>,
    preds: Vec<Entity>,
    labels: Vec<u32>,
    out: Outcomes,
}

impl Attributor {
    /// Every regime's pass of `preds` against `golds`, in [`SpanRegime::ALL`] order, each
    /// outcome handed to `visit`; the index lists are filled only when `indices` is set.
    pub fn each_regime(
        &mut self,
        golds: &[Entity],
        preds: &[Entity],
        min_pct: f64,
        indices: bool,
        mut visit: impl FnMut(SpanRegime, Result<&Outcomes, AttributionError>),
    ) {
        let longest = window(golds, preds, min_pct, &mut self.order, &mut self.starts);
        for r in SpanRegime::ALL {
            let w = longest.map(|l| Window {
                order: &self.order,
                starts: &self.starts,
                longest: l,
            });
            let res = pass(
                r,
                golds,
                preds,
                min_pct,
                w.as_ref(),
                indices,
                &mut self.taken,
                &mut self.near,
                &mut self.out,
            );
            visit(r, res.map(|()| &self.out));
        }
    }

    /// nervaluate's `Evaluator.evaluate` on one document: every regime over all the entities
    /// given (`visit(None, …)`), then, for each label that some entity of either side has and
    /// `per_label` accepts, every regime over that label's entities alone (`visit(Some(label),
    /// …)`, indices counted among that label's entities). As in nervaluate, the per-label
    /// counts are their own attributions, not a breakdown of the overall ones: a predicted
    /// span that takes a gold span of another label overall may take one of its own label
    /// (or none) in its label's pass.
    pub fn document(
        &mut self,
        golds: &[Entity],
        preds: &[Entity],
        min_pct: f64,
        indices: bool,
        per_label: impl Fn(u32) -> bool,
        mut visit: impl FnMut(Option<u32>, SpanRegime, Result<&Outcomes, AttributionError>),
    ) {
        self.each_regime(golds, preds, min_pct, indices, |r, o| visit(None, r, o));
        let mut labels = std::mem::take(&mut self.labels);
        labels.clear();
        labels.extend(golds.iter().chain(preds).map(|e| e.label));
        labels.sort_unstable();
        labels.dedup();
        let (mut g, mut p) = (
            std::mem::take(&mut self.golds),
            std::mem::take(&mut self.preds),
        );
        for &label in labels.iter().filter(|&&l| per_label(l)) {
            g.clear();
            g.extend(golds.iter().filter(|e| e.label == label));
            p.clear();
            p.extend(preds.iter().filter(|e| e.label == label));
            self.each_regime(&g, &p, min_pct, indices, |r, o| visit(Some(label), r, o));
        }
        (self.golds, self.preds, self.labels) = (g, p, labels);
    }
}

/// The gold spans sorted by start (into `order`, their starts into `starts`) and the longest
/// gold span's length less one, when every span of both sides is well formed (start ≤ end)
/// and `min_pct > 0`: the only gold spans a predicted span can overlap or equal then start in
/// `[p.start - longest, p.end]` (the others never overlap enough, as 0 % is not enough, and
/// never divide by zero). None otherwise: every gold span is looked at.
fn window(
    golds: &[Entity],
    preds: &[Entity],
    min_pct: f64,
    order: &mut Vec<usize>,
    starts: &mut Vec<i64>,
) -> Option<i128> {
    let well_formed = |e: &Entity| e.start <= e.end;
    // (False for NaN too, as Python's `min_pct > 0` is.)
    let positive = min_pct > 0.0;
    if !positive || !golds.iter().chain(preds).all(well_formed) {
        return None;
    }
    order.clear();
    order.extend(0..golds.len());
    order.sort_by_key(|&i| golds[i].start);
    starts.clear();
    starts.extend(order.iter().map(|&i| golds[i].start));
    Some(
        golds
            .iter()
            .map(|g| i128::from(g.end) - i128::from(g.start))
            .max()
            .unwrap_or(0),
    )
}

/// A built [`window`].
struct Window<'w> {
    order: &'w [usize],
    starts: &'w [i64],
    longest: i128,
}

impl Window<'_> {
    /// The gold spans `p` may overlap, in gold order, into `out`.
    fn near(&self, p: &Entity, out: &mut Vec<usize>) {
        let from = i128::from(p.start) - self.longest;
        let lo = self.starts.partition_point(|&s| i128::from(s) < from);
        let hi = lo + self.starts[lo..].partition_point(|&s| s <= p.end);
        out.clear();
        out.extend_from_slice(&self.order[lo..hi]);
        out.sort_unstable();
    }
}

/// Whether `p` covers at least `min_pct` % of `g`'s positions, as nervaluate computes it.
fn overlaps_enough(p: &Entity, g: &Entity, min_pct: f64) -> Option<bool> {
    if p.start > g.end || p.end < g.start {
        return Some(0.0 >= min_pct);
    }
    let shared = i128::from(p.end.min(g.end)) - i128::from(p.start.max(g.start)) + 1;
    let len = i128::from(g.end) - i128::from(g.start) + 1;
    Some(true_div(shared, len)? * 100.0 >= min_pct)
}

/// `a / b` correctly rounded to a double, as Python divides two integers; None when `b` is 0.
/// (`|a|, |b| < 2^66` here.)
fn true_div(a: i128, b: i128) -> Option<f64> {
    if b == 0 {
        return None;
    }
    const EXACT: u128 = 1 << 53;
    let (ua, ub) = (a.unsigned_abs(), b.unsigned_abs());
    let sign = if (a < 0) != (b < 0) { -1.0 } else { 1.0 };
    if ua <= EXACT && ub <= EXACT {
        // Both exact as doubles: one rounding, as Python does for such operands.
        return Some(a as f64 / b as f64);
    }
    if ua == 0 {
        return Some(0.0 * sign);
    }
    // Scale so the integer quotient has at least 55 bits, fold the remainder into its last
    // bit (a sticky bit below the rounding bit), and let the conversion round to nearest even.
    let bits = |x: u128| 128 - x.leading_zeros() as i32;
    let shift = (55 + bits(ub) - bits(ua)).max(0);
    let num = ua << shift; // at most 55 + 66 bits
    let (q, r) = (num / ub, num % ub);
    let q = if r != 0 { q | 1 } else { q };
    Some(sign * (q as f64) * 2f64.powi(-shift))
}

/// One regime's pass into `out` (cleared first; its index lists filled when `indices`).
#[allow(clippy::too_many_arguments)]
fn pass(
    regime: SpanRegime,
    golds: &[Entity],
    preds: &[Entity],
    min_pct: f64,
    window: Option<&Window<'_>>,
    indices: bool,
    taken: &mut Vec<bool>,
    near: &mut Vec<usize>,
    out: &mut Outcomes,
) -> Result<(), AttributionError> {
    out.clear();
    taken.clear();
    taken.resize(golds.len(), false);
    let note = |list: &mut Vec<usize>, k: usize| {
        if indices {
            list.push(k);
        }
    };
    for (j, p) in preds.iter().enumerate() {
        match window {
            Some(w) => w.near(p, near),
            None => {
                near.clear();
                near.extend(0..golds.len());
            }
        }
        let enough = |i: usize| {
            overlaps_enough(p, &golds[i], min_pct).ok_or(AttributionError { gold: i, pred: j })
        };
        let same_offsets = |g: &Entity| g.start == p.start && g.end == p.end;
        let (mut hit, mut alt) = (None, None);
        match regime {
            SpanRegime::EntType => {
                let mut best: Option<i128> = None;
                for &i in near.iter() {
                    let g = &golds[i];
                    if taken[i] || !enough(i)? {
                        continue;
                    }
                    if p.label == g.label {
                        let d = (i128::from(p.start) - i128::from(g.start)).abs()
                            + (i128::from(p.end) - i128::from(g.end)).abs();
                        if best.is_none_or(|b| d < b) {
                            hit = Some(i);
                            best = Some(d);
                        }
                    } else if alt.is_none() {
                        alt = Some(i);
                    }
                }
            }
            SpanRegime::Partial => {
                for &i in near.iter() {
                    if taken[i] || !enough(i)? {
                        continue;
                    }
                    if same_offsets(&golds[i]) {
                        hit = Some(i);
                        break;
                    }
                    if alt.is_none() {
                        alt = Some(i);
                    }
                }
            }
            SpanRegime::Strict | SpanRegime::Exact => {
                let labeled = regime == SpanRegime::Strict;
                for &i in near.iter() {
                    let g = &golds[i];
                    if taken[i] {
                        continue;
                    }
                    if same_offsets(g) && (!labeled || p.label == g.label) {
                        hit = Some(i);
                        break;
                    }
                    // (Evaluated even once an alternative is found, as nervaluate does: it
                    // may divide by zero.)
                    if enough(i)? && alt.is_none() {
                        alt = Some(i);
                    }
                }
            }
        }
        if let Some(i) = hit {
            taken[i] = true;
            out.counts.correct += 1;
            note(&mut out.correct, j);
        } else if let Some(i) = alt {
            taken[i] = true;
            if regime == SpanRegime::Partial {
                out.counts.partial += 1;
                note(&mut out.partial, j);
            } else {
                out.counts.incorrect += 1;
                note(&mut out.incorrect, j);
            }
        } else {
            out.counts.spurious += 1;
            note(&mut out.spurious, j);
        }
    }
    for (i, &t) in taken.iter().enumerate() {
        if !t {
            out.counts.missed += 1;
            note(&mut out.missed, i);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(label: u32, start: i64, end: i64) -> Entity {
        Entity { label, start, end }
    }

    fn ok(r: &Result<Outcomes, AttributionError>) -> &Outcomes {
        r.as_ref().expect("no division by zero here")
    }

    #[test]
    fn ent_type_takes_the_closest_gold_span_of_its_label() {
        // gold LOC(0,0) PER(1,2); predicted PER(0,2) (docs/nervaluate.md's example)
        let (loc, per) = (0, 1);
        let golds = [e(loc, 0, 0), e(per, 1, 2)];
        let preds = [e(per, 0, 2)];
        let a = closest_overlap(&golds, &preds, 1.0);
        let t = ok(&a.ent_type);
        assert_eq!(
            (t.correct.as_slice(), t.missed.as_slice()),
            (&[0][..], &[0][..])
        );
        let s = ok(&a.strict);
        assert_eq!((s.counts.incorrect, s.counts.missed), (1, 1));
        assert_eq!(ok(&a.exact).counts, s.counts);
        let p = ok(&a.partial);
        assert_eq!((p.counts.partial, p.missed.as_slice()), (1, &[1][..]));
        // Ties go to the first; another label only when none of its own overlaps enough.
        let golds = [e(per, 0, 1), e(per, 2, 3), e(loc, 1, 2)];
        let t = closest_overlap(&golds, &[e(per, 1, 2)], 1.0).ent_type;
        assert_eq!(ok(&t).missed, [1, 2]);
        let t = closest_overlap(&golds, &[e(loc + 7, 1, 2)], 1.0).ent_type;
        assert_eq!(
            (ok(&t).incorrect.len(), ok(&t).missed.as_slice()),
            (1, &[1, 2][..])
        );
    }

    #[test]
    fn the_minimum_overlap_is_a_share_of_the_gold_span() {
        let golds = [e(0, 0, 2)];
        for (min, enough) in [(33.3, true), (33.4, false), (100.0, false)] {
            let a = closest_overlap(&golds, &[e(0, 0, 0)], min);
            assert_eq!(ok(&a.partial).counts.partial == 1, enough, "{min}");
            assert_eq!(ok(&a.strict).counts.spurious == 1, !enough, "{min}");
        }
        // 0 % is enough only for a threshold of at most 0; NaN is never enough.
        let far = [e(0, 10, 11)];
        assert_eq!(
            ok(&closest_overlap(&golds, &far, 0.0).exact)
                .counts
                .incorrect,
            1
        );
        assert_eq!(
            ok(&closest_overlap(&golds, &far, f64::NAN).exact)
                .counts
                .spurious,
            1
        );
    }

    #[test]
    fn a_gold_span_of_length_0_reached_across_divides_by_zero() {
        let a = closest_overlap(&[e(0, 3, 2)], &[e(0, 2, 3)], 1.0);
        for (_, r) in a.iter() {
            assert_eq!(
                r.as_ref().err(),
                Some(&AttributionError { gold: 0, pred: 0 })
            );
        }
        // Not reached across: counted (end < start spans overlap by the same test).
        let a = closest_overlap(&[e(0, 3, 1)], &[e(0, 5, 6), e(0, 3, 1)], 1.0);
        assert_eq!(ok(&a.strict).correct, [1]);
    }

    #[test]
    fn integer_division_is_correctly_rounded_as_in_python() {
        assert_eq!(true_div(1, 3), Some(1.0 / 3.0));
        assert_eq!(true_div(-7, 2), Some(-3.5));
        assert_eq!(true_div(5, 0), None);
        // (2^54 + 1) / 3 = 6004799503160661.67 (rounding 2^54 + 1 first gives ...661).
        assert_eq!(true_div((1 << 54) + 1, 3), Some(6004799503160662.0));
        assert_eq!(true_div(-(1 << 65), 1 << 64), Some(-2.0));
        assert_eq!(
            true_div(1, (1 << 65) + 1),
            Some(1.0 / 36893488147419103232.0)
        );
        let big = i128::from(i64::MAX) - i128::from(i64::MIN) + 1;
        assert_eq!(true_div(big, big), Some(1.0));
    }

    #[test]
    fn the_window_finds_what_trying_every_gold_span_finds() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n) as i64
        };
        let (mut order, mut starts) = (Vec::new(), Vec::new());
        let (mut taken, mut near) = (Vec::new(), Vec::new());
        let (mut a, mut b) = (Outcomes::default(), Outcomes::default());
        for case in 0..400 {
            let side = |next: &mut dyn FnMut(u64) -> i64| -> Vec<Entity> {
                let k = next(25);
                (0..k)
                    .map(|_| {
                        let start = next(40);
                        e(next(3) as u32, start, start + next(1 + case % 9))
                    })
                    .collect()
            };
            let (golds, preds) = (side(&mut next), side(&mut next));
            for min in [1.0, 30.0, 50.0, 100.0] {
                let longest = window(&golds, &preds, min, &mut order, &mut starts);
                let w = longest.map(|longest| Window {
                    order: &order,
                    starts: &starts,
                    longest,
                });
                assert!(w.is_some());
                for r in SpanRegime::ALL {
                    let near_ok = pass(
                        r,
                        &golds,
                        &preds,
                        min,
                        w.as_ref(),
                        true,
                        &mut taken,
                        &mut near,
                        &mut a,
                    );
                    let all_ok = pass(
                        r, &golds, &preds, min, None, true, &mut taken, &mut near, &mut b,
                    );
                    assert_eq!((near_ok, &a), (all_ok, &b), "case {case}, {r:?}, {min}");
                }
            }
        }
    }

    #[test]
    fn huge_offsets_neither_overflow_nor_panic() {
        let (lo, hi) = (i64::MIN, i64::MAX);
        let golds = [e(0, lo, hi), e(0, hi, hi), e(1, lo, lo), e(0, hi, lo)];
        let preds = [e(0, lo, hi), e(0, 0, hi), e(1, hi, lo), e(0, lo, lo)];
        for min in [1.0, 50.0, 100.0] {
            let a = closest_overlap(&golds, &preds, min);
            assert_eq!(ok(&a.strict).correct, [0]);
        }
    }
}
