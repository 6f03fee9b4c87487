//! Confidence intervals and significance tests by resampling documents (issue 14).
//!
//! Everything here works on per-document sufficient statistics ([`DocCounts`]: TP, FP, FN as
//! `f64`, so fair and weighted counts fit): a resample draws document indices and sums counts,
//! it never re-scores a document. The micro scores of a set of counts are
//! P = ΣTP / (ΣTP + ΣFP), R = ΣTP / (ΣTP + ΣFN) and F_β = (1 + β²)·P·R / (β²·P + R), each 0 when
//! its denominator is 0 (see [`micro`]).
//!
//! - [`bootstrap_ci`]: percentile bootstrap over documents (Efron & Tibshirani 1993, ch. 13),
//!   with the same quantile rule as `scipy.stats.bootstrap(method='percentile')`.
//! - [`paired_permutation`]: paired approximate randomization (Noreen 1989; Riezler & Maxwell
//!   2005), two-sided, p = (#{|δ*| ≥ |δ|} + 1) / (samples + 1).
//! - [`paired_bootstrap`]: paired bootstrap (Koehn 2004; Berg-Kirkpatrick et al. 2012): the
//!   percentile interval of the difference and the two-sided shifted-null p-value
//!   p = (#{|δ* − δ| ≥ |δ|} + 1) / (samples + 1).
//!
//! Results are deterministic: resample `i` belongs to block `i / BLOCK`, every block draws from
//! its own xoshiro256** stream derived from (seed, method, block index) by SplitMix64, blocks run
//! in parallel (rayon) and are combined in block order, so the same seed gives the same bits for
//! any number of threads. `docs/statistics.md` gives the definitions and their assumptions.

use crate::error::{Error, Result};
use rayon::prelude::*;

/// Resamples per block: the unit of parallel work and of random streams. Part of the
/// definition of the results (changing it changes the draws).
pub const BLOCK: usize = 256;

/// The largest number of resamples accepted (the bootstrap keeps every resampled score).
pub const MAX_SAMPLES: usize = 10_000_000;

/// Two scores closer than this count as equal when a resampled difference is compared with the
/// observed one (it only decides exact ties that floating-point rounding would otherwise split).
pub const TIE_EPSILON: f64 = 1e-12;

/// The counts of one document.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DocCounts {
    /// True positives (possibly weighted).
    pub tp: f64,
    /// False positives (possibly weighted).
    pub fp: f64,
    /// False negatives (possibly weighted).
    pub fn_: f64,
}

impl DocCounts {
    /// The counts TP, FP and FN.
    pub fn new(tp: f64, fp: f64, fn_: f64) -> Self {
        DocCounts { tp, fp, fn_ }
    }

    /// Adds `o`'s counts to these.
    #[inline]
    pub fn add(&mut self, o: &DocCounts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }

    /// The counts of all documents, summed in order.
    pub fn total(docs: &[DocCounts]) -> DocCounts {
        let mut t = DocCounts::default();
        for d in docs {
            t.add(d);
        }
        t
    }
}

/// A micro score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Measure {
    /// Micro precision.
    P,
    /// Micro recall.
    R,
    /// F_β (F1 with the default β = 1).
    F1,
}

impl Measure {
    /// The three measures, in the order P, R, F1.
    pub const ALL: [Measure; 3] = [Measure::P, Measure::R, Measure::F1];

    /// `P`, `R` or `F1`, as in the JSON keys of issue 14.
    pub fn name(self) -> &'static str {
        match self {
            Measure::P => "P",
            Measure::R => "R",
            Measure::F1 => "F1",
        }
    }
}

/// One value per [`Measure`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ByMeasure<T> {
    /// The value for P.
    pub p: T,
    /// The value for R.
    pub r: T,
    /// The value for F_β (F1 by default).
    pub f1: T,
}

impl<T> ByMeasure<T> {
    /// The value for `m`.
    pub fn get(&self, m: Measure) -> &T {
        match m {
            Measure::P => &self.p,
            Measure::R => &self.r,
            Measure::F1 => &self.f1,
        }
    }

    /// The values with their measures, in the order P, R, F1.
    pub fn iter(&self) -> impl Iterator<Item = (Measure, &T)> {
        Measure::ALL.into_iter().map(move |m| (m, self.get(m)))
    }

    /// `f(P)`, `f(R)`, `f(F1)`, called in that order.
    pub fn from_fn(mut f: impl FnMut(Measure) -> T) -> Self {
        ByMeasure {
            p: f(Measure::P),
            r: f(Measure::R),
            f1: f(Measure::F1),
        }
    }

    /// The values transformed one by one, in the order P, R, F1.
    pub fn map<U>(&self, mut f: impl FnMut(Measure, &T) -> U) -> ByMeasure<U> {
        ByMeasure::from_fn(|m| f(m, self.get(m)))
    }
}

/// A closed interval `[lo, hi]`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Interval {
    /// Lower bound (inclusive).
    pub lo: f64,
    /// Upper bound (inclusive).
    pub hi: f64,
}

impl Interval {
    /// `hi − lo`.
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }

    /// Whether `lo ≤ x ≤ hi`.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// `[lo, hi]`, as written in JSON.
    pub fn to_array(self) -> [f64; 2] {
        [self.lo, self.hi]
    }
}

/// The paired approximate-randomization test of one measure.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Permutation {
    /// The micro score of run A.
    pub a: f64,
    /// The micro score of run B.
    pub b: f64,
    /// `a - b`.
    pub diff: f64,
    /// Two-sided p-value, (#{|δ*| ≥ |δ|} + 1) / (samples + 1).
    pub p: f64,
}

/// The paired bootstrap of one measure.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PairedBootstrap {
    /// The micro score of run A.
    pub a: f64,
    /// The micro score of run B.
    pub b: f64,
    /// `a - b`.
    pub diff: f64,
    /// Percentile interval of the resampled differences.
    pub ci: Interval,
    /// Two-sided shifted-null p-value, (#{|δ* − δ| ≥ |δ|} + 1) / (samples + 1).
    pub p: f64,
}

/// Micro P, R and F_β of summed counts; each is 0 (never NaN) when its denominator is 0.
/// F_β is computed from P and R as `(1 + β²)·(P·R) / (β²·P + R)`, which for β = 1 is the
/// official `2·(P·R) / (P + R)` bit for bit.
pub fn micro(c: &DocCounts, beta: f64) -> ByMeasure<f64> {
    scores(c, beta * beta)
}

#[inline]
fn scores(c: &DocCounts, b2: f64) -> ByMeasure<f64> {
    let p = ratio(c.tp, c.tp + c.fp);
    let r = ratio(c.tp, c.tp + c.fn_);
    let den = b2 * p + r;
    let f1 = if den > 0.0 {
        let f = (1.0 + b2) * (p * r) / den;
        if f.is_finite() {
            f
        } else {
            0.0
        }
    } else {
        0.0
    };
    ByMeasure { p, r, f1 }
}

#[inline]
fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        num / den
    } else {
        0.0
    }
}

/// The settings of a resampling: number of resamples, seed, confidence level of the intervals
/// and β of the F measure. The free functions [`bootstrap_ci`], [`paired_permutation`] and
/// [`paired_bootstrap`] use β = 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resampler {
    /// Number of resamples, 1 to [`MAX_SAMPLES`] (checked when a method runs).
    pub samples: usize,
    /// Seed of the random streams: the same seed gives the same results.
    pub seed: u64,
    /// In (0, 1); the interval leaves (1 − confidence) / 2 out on each side.
    pub confidence: f64,
    /// β of F_β, finite and > 0 (with β² finite and non-zero).
    pub beta: f64,
}

impl Resampler {
    /// `samples` resamples from `seed`, 95 % intervals, F1.
    pub fn new(samples: usize, seed: u64) -> Self {
        Resampler {
            samples,
            seed,
            confidence: 0.95,
            beta: 1.0,
        }
    }

    /// Percentile bootstrap intervals of micro P, R and F_β over documents: `samples` times,
    /// draw `docs.len()` documents with replacement, sum their counts and score the sums; the
    /// interval is the `α` and `1 − α` quantiles (α = (1 − confidence) / 2, linear
    /// interpolation, as `scipy.stats.bootstrap(method='percentile')`) of the resampled scores.
    /// No documents give `[0, 0]`.
    pub fn bootstrap_ci(&self, docs: &[DocCounts]) -> Result<ByMeasure<Interval>> {
        let b2 = self.check(true)?;
        check_docs(docs, "")?;
        let n = docs.len();
        let blocks = self.blocks(Domain::Bootstrap, |rng, count| {
            let mut out = Vec::with_capacity(count);
            for _ in 0..count {
                let mut sum = DocCounts::default();
                for _ in 0..n {
                    sum.add(&docs[rng.below(n)]);
                }
                let s = scores(&sum, b2);
                out.push([s.p, s.r, s.f1]);
            }
            out
        });
        let mut dists = by_measure_columns(&blocks, self.samples);
        let alpha = (1.0 - self.confidence) / 2.0;
        Ok(ByMeasure::from_fn(|m| {
            percentile_interval(&mut dists[measure_index(m)], alpha)
        }))
    }

    /// Paired approximate randomization of A against B, document by document: `samples` times,
    /// swap each document's counts between A and B with probability ½ and score both sums;
    /// p = (#{|δ*| ≥ |δ|} + 1) / (samples + 1), two-sided, where δ = score(A) − score(B) and
    /// ties within [`TIE_EPSILON`] count as reaching |δ|.
    pub fn paired_permutation(
        &self,
        a: &[DocCounts],
        b: &[DocCounts],
    ) -> Result<ByMeasure<Permutation>> {
        let b2 = self.check(false)?;
        check_pair(a, b)?;
        let (sa, sb, observed) = observed_difference(a, b, b2);
        let n = a.len();
        let blocks = self.blocks(Domain::Permutation, |rng, count| {
            let mut hits = [0u64; 3];
            for _ in 0..count {
                let (mut xa, mut xb) = (DocCounts::default(), DocCounts::default());
                let mut i = 0;
                while i < n {
                    let mut coins = rng.next_u64();
                    let end = (i + 64).min(n);
                    while i < end {
                        let (da, db) = (&a[i], &b[i]);
                        if coins & 1 == 1 {
                            xa.add(db);
                            xb.add(da);
                        } else {
                            xa.add(da);
                            xb.add(db);
                        }
                        coins >>= 1;
                        i += 1;
                    }
                }
                let (ra, rb) = (scores(&xa, b2), scores(&xb, b2));
                let diffs = [ra.p - rb.p, ra.r - rb.r, ra.f1 - rb.f1];
                for k in 0..3 {
                    if diffs[k].abs() >= observed[k].abs() - TIE_EPSILON {
                        hits[k] += 1;
                    }
                }
            }
            vec![hits]
        });
        let hits = sum_hits(&blocks);
        Ok(ByMeasure::from_fn(|m| {
            let k = measure_index(m);
            Permutation {
                a: *sa.get(m),
                b: *sb.get(m),
                diff: observed[k],
                p: p_value(hits[k], self.samples),
            }
        }))
    }

    /// Paired bootstrap of A against B: `samples` times, draw `n` document indices with
    /// replacement, sum A's and B's counts of those documents and take δ* = score(A*) −
    /// score(B*). The interval is the percentile interval of δ* (as [`Self::bootstrap_ci`]);
    /// the p-value is the two-sided shifted-null one of Berg-Kirkpatrick et al. (2012),
    /// p = (#{|δ* − δ| ≥ |δ|} + 1) / (samples + 1), ties within [`TIE_EPSILON`] included.
    pub fn paired_bootstrap(
        &self,
        a: &[DocCounts],
        b: &[DocCounts],
    ) -> Result<ByMeasure<PairedBootstrap>> {
        let b2 = self.check(true)?;
        check_pair(a, b)?;
        let (sa, sb, observed) = observed_difference(a, b, b2);
        let n = a.len();
        let blocks = self.blocks(Domain::PairedBootstrap, |rng, count| {
            let mut out = Vec::with_capacity(count);
            for _ in 0..count {
                let (mut xa, mut xb) = (DocCounts::default(), DocCounts::default());
                for _ in 0..n {
                    let i = rng.below(n);
                    xa.add(&a[i]);
                    xb.add(&b[i]);
                }
                let (ra, rb) = (scores(&xa, b2), scores(&xb, b2));
                out.push([ra.p - rb.p, ra.r - rb.r, ra.f1 - rb.f1]);
            }
            out
        });
        let mut dists = by_measure_columns(&blocks, self.samples);
        let alpha = (1.0 - self.confidence) / 2.0;
        Ok(ByMeasure::from_fn(|m| {
            let k = measure_index(m);
            let d = observed[k];
            let hits = dists[k]
                .iter()
                .filter(|x| (**x - d).abs() >= d.abs() - TIE_EPSILON)
                .count() as u64;
            PairedBootstrap {
                a: *sa.get(m),
                b: *sb.get(m),
                diff: d,
                ci: percentile_interval(&mut dists[k], alpha),
                p: p_value(hits, self.samples),
            }
        }))
    }

    /// Validates the settings; returns β².
    fn check(&self, uses_confidence: bool) -> Result<f64> {
        if self.samples == 0 {
            return Err(Error::usage("resampling needs at least one sample"));
        }
        if self.samples > MAX_SAMPLES {
            return Err(Error::usage(format!(
                "{} resamples is more than the maximum of {MAX_SAMPLES}",
                self.samples
            )));
        }
        if uses_confidence && !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Err(Error::usage(format!(
                "confidence level {} is not strictly between 0 and 1",
                self.confidence
            )));
        }
        let b2 = self.beta * self.beta;
        if !(self.beta > 0.0 && b2.is_normal()) {
            return Err(Error::usage(format!(
                "beta {} of the F measure must be a positive number",
                self.beta
            )));
        }
        Ok(b2)
    }

    /// Runs `work(stream, count)` for every block of resamples (in parallel) and returns the
    /// block results in block order.
    fn blocks<T: Send>(
        &self,
        domain: Domain,
        work: impl Fn(&mut Xoshiro256, usize) -> Vec<T> + Sync,
    ) -> Vec<Vec<T>> {
        let n_blocks = self.samples.div_ceil(BLOCK);
        (0..n_blocks)
            .into_par_iter()
            .map(|k| {
                let count = BLOCK.min(self.samples - k * BLOCK);
                let mut rng = Xoshiro256::stream(self.seed, domain as u64, k as u64);
                work(&mut rng, count)
            })
            .collect()
    }
}

/// Percentile bootstrap intervals of micro P, R and F1 over documents (see
/// [`Resampler::bootstrap_ci`]).
pub fn bootstrap_ci(
    docs: &[DocCounts],
    samples: usize,
    seed: u64,
    confidence: f64,
) -> Result<ByMeasure<Interval>> {
    Resampler {
        confidence,
        ..Resampler::new(samples, seed)
    }
    .bootstrap_ci(docs)
}

/// Paired approximate randomization of micro P, R and F1 (see
/// [`Resampler::paired_permutation`]).
pub fn paired_permutation(
    a_docs: &[DocCounts],
    b_docs: &[DocCounts],
    samples: usize,
    seed: u64,
) -> Result<ByMeasure<Permutation>> {
    Resampler::new(samples, seed).paired_permutation(a_docs, b_docs)
}

/// Paired bootstrap of the difference in micro P, R and F1 (see
/// [`Resampler::paired_bootstrap`]).
pub fn paired_bootstrap(
    a_docs: &[DocCounts],
    b_docs: &[DocCounts],
    samples: usize,
    seed: u64,
    confidence: f64,
) -> Result<ByMeasure<PairedBootstrap>> {
    Resampler {
        confidence,
        ..Resampler::new(samples, seed)
    }
    .paired_bootstrap(a_docs, b_docs)
}

/// Separates the random streams of the three methods (same seed, unrelated draws).
#[derive(Clone, Copy)]
enum Domain {
    Bootstrap = 1,
    Permutation = 2,
    PairedBootstrap = 3,
}

fn measure_index(m: Measure) -> usize {
    match m {
        Measure::P => 0,
        Measure::R => 1,
        Measure::F1 => 2,
    }
}

/// Counts must be finite and non-negative, and small enough that no resampled sum overflows.
fn check_docs(docs: &[DocCounts], side: &str) -> Result<()> {
    let mut max = 0.0f64;
    for (i, d) in docs.iter().enumerate() {
        for v in [d.tp, d.fp, d.fn_] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::usage(format!(
                    "resampling: document {}{side} has a count {v} that is negative or not finite",
                    i + 1
                )));
            }
            max = max.max(v);
        }
    }
    if !(max * docs.len() as f64 * 2.0).is_finite() {
        return Err(Error::usage("resampling: counts too large to be summed"));
    }
    Ok(())
}

/// The scores of A and B on all documents and δ = score(A) − score(B), for P, R and F-beta.
fn observed_difference(
    a: &[DocCounts],
    b: &[DocCounts],
    beta2: f64,
) -> (ByMeasure<f64>, ByMeasure<f64>, [f64; 3]) {
    let (sa, sb) = (
        scores(&DocCounts::total(a), beta2),
        scores(&DocCounts::total(b), beta2),
    );
    let delta = [sa.p - sb.p, sa.r - sb.r, sa.f1 - sb.f1];
    (sa, sb, delta)
}

fn check_pair(a: &[DocCounts], b: &[DocCounts]) -> Result<()> {
    if a.len() != b.len() {
        return Err(Error::usage(format!(
            "paired comparison of runs with {} and {} documents; both must have the gold's documents",
            a.len(),
            b.len()
        )));
    }
    check_docs(a, " of run A")?;
    check_docs(b, " of run B")
}

/// The three columns of `[P, R, F]` rows.
fn by_measure_columns(blocks: &[Vec<[f64; 3]>], samples: usize) -> [Vec<f64>; 3] {
    let mut cols: [Vec<f64>; 3] = std::array::from_fn(|_| Vec::with_capacity(samples));
    for row in blocks.iter().flatten() {
        for (col, v) in cols.iter_mut().zip(row) {
            col.push(*v);
        }
    }
    cols
}

fn sum_hits(blocks: &[Vec<[u64; 3]>]) -> [u64; 3] {
    let mut total = [0u64; 3];
    for h in blocks.iter().flatten() {
        for (t, x) in total.iter_mut().zip(h) {
            *t += x;
        }
    }
    total
}

fn p_value(hits: u64, samples: usize) -> f64 {
    (hits as f64 + 1.0) / (samples as f64 + 1.0)
}

mod quantile;
mod rng;
mod vector;

use quantile::percentile_interval;
pub use quantile::{quantile, quantile_select};
pub use rng::{SplitMix64, Xoshiro256};
pub use vector::{Paired, PairedTest, Score, Units};

#[cfg(test)]
mod tests;
