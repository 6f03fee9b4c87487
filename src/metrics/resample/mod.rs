//! Confidence intervals and significance tests by resampling units (documents or sentences):
//! one engine for every family and for the HIPE scorer.
//!
//! Everything works on per-unit sufficient statistics ([`Units`]: a vector of numbers per unit
//! that add up, counts or weighted sums): a resample draws unit indices and sums their
//! statistics, it never re-scores a unit; a scoring function ([`Score`]) maps a sum to the
//! values followed. The HIPE scorer's micro scores are the case of `[TP, FP, FN]` units
//! ([`DocCounts`], [`Resampler::micro_ci`], [`Resampler::micro_paired`]):
//! P = ΣTP / (ΣTP + ΣFP), R = ΣTP / (ΣTP + ΣFN) and F_β = (1 + β²)·P·R / (β²·P + R), each 0
//! when its denominator is 0 (see [`micro`]).
//!
//! - [`Resampler::bootstrap_vec`]: percentile bootstrap over units (Efron & Tibshirani 1993,
//!   ch. 13), with the same quantile rule as `scipy.stats.bootstrap(method='percentile')`.
//! - [`Resampler::paired_vec`] with [`PairedTest::Permutation`]: paired approximate
//!   randomization (Noreen 1989; Riezler & Maxwell 2005), two-sided,
//!   p = (#{|δ*| ≥ |δ|} + 1) / (samples + 1); with [`PairedTest::Bootstrap`]: the paired
//!   bootstrap (Koehn 2004; Berg-Kirkpatrick et al. 2012) and its two-sided shifted-null
//!   p-value p = (#{|δ* − δ| ≥ |δ|} + 1) / (samples + 1). Both give the percentile interval of
//!   the paired-bootstrap differences.
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
/// and β of the F measure of [`Resampler::micro_ci`] and [`Resampler::micro_paired`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resampler {
    /// Number of resamples, 1 to `MAX_SAMPLES` (checked when a method runs).
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

    /// Percentile bootstrap intervals of micro P, R and F_β (β of the resampler) over
    /// documents ([`Resampler::bootstrap_vec`] of `[TP, FP, FN]` units): `samples` times, draw
    /// `docs.len()` documents with replacement, sum their counts and score the sums; the
    /// interval is the `α` and `1 − α` quantiles (α = (1 − confidence) / 2, linear
    /// interpolation, as `scipy.stats.bootstrap(method='percentile')`) of the resampled scores.
    /// No documents give `[0, 0]`; one document gives its own scores.
    pub fn micro_ci(&self, docs: &[DocCounts]) -> Result<ByMeasure<Interval>> {
        let b2 = self.check(true)?;
        let flat = flatten(docs);
        let v = self.bootstrap_vec(Units::new(&flat, 3)?, 3, &|s, out| micro_into(s, b2, out))?;
        Ok(by_measure(&v))
    }

    /// A paired test of run A against run B, document by document, for micro P, R and F_β
    /// ([`Resampler::paired_vec`] of `[TP, FP, FN]` units): the scores, δ = A − B, the
    /// paired-bootstrap interval of δ and the p-value of `test`.
    pub fn micro_paired(
        &self,
        test: PairedTest,
        a: &[DocCounts],
        b: &[DocCounts],
    ) -> Result<ByMeasure<Paired>> {
        let b2 = self.check(true)?;
        let (fa, fb) = (flatten(a), flatten(b));
        let (ua, ub) = (Units::new(&fa, 3)?, Units::new(&fb, 3)?);
        let v = self.paired_vec(test, ua, ub, 3, &|s, out| micro_into(s, b2, out))?;
        Ok(by_measure(&v))
    }

    /// The p-values alone of [`Resampler::micro_paired`] (a permutation test draws no
    /// bootstrap resamples then).
    pub fn micro_p(
        &self,
        test: PairedTest,
        a: &[DocCounts],
        b: &[DocCounts],
    ) -> Result<ByMeasure<f64>> {
        let b2 = self.check(false)?;
        let (fa, fb) = (flatten(a), flatten(b));
        let (ua, ub) = (Units::new(&fa, 3)?, Units::new(&fb, 3)?);
        let v = self.paired_p(test, ua, ub, 3, &|s, out| micro_into(s, b2, out))?;
        Ok(by_measure(&v))
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

/// P, R and F of the three values of a micro scoring (`v` holds them in that order).
fn by_measure<T: Copy>(v: &[T]) -> ByMeasure<T> {
    ByMeasure {
        p: v[0],
        r: v[1],
        f1: v[2],
    }
}

/// `[TP, FP, FN]` of every document, one after the other.
fn flatten(docs: &[DocCounts]) -> Vec<f64> {
    docs.iter().flat_map(|d| [d.tp, d.fp, d.fn_]).collect()
}

/// Micro P, R and F_β (`b2` = β²) of summed `[TP, FP, FN]`, written into `out`.
fn micro_into(s: &[f64], b2: f64, out: &mut [f64]) {
    let m = scores(&DocCounts::new(s[0], s[1], s[2]), b2);
    out.copy_from_slice(&[m.p, m.r, m.f1]);
}

/// Separates the random streams of the three methods (same seed, unrelated draws).
#[derive(Clone, Copy)]
enum Domain {
    Bootstrap = 1,
    Permutation = 2,
    PairedBootstrap = 3,
}

fn p_value(hits: u64, samples: usize) -> f64 {
    (hits as f64 + 1.0) / (samples as f64 + 1.0)
}

mod quantile;
mod rng;
mod vector;

use quantile::percentile_interval;
#[cfg(test)]
pub use quantile::{quantile, quantile_select};
#[cfg(test)]
pub use rng::SplitMix64;
pub use rng::Xoshiro256;
pub use vector::{Paired, PairedTest, Units};

#[cfg(test)]
mod tests;
