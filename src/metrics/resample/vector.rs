//! Resampling of any family's statistics: each unit (document or sentence) is a vector of
//! `width` numbers that add up (counts, weighted sums), and a scoring function maps a summed
//! vector to the `k` values it follows (every ratio of a result table, or the micro P, R and F
//! of `[TP, FP, FN]`). The bootstrap, the paired randomization and the paired bootstrap; random
//! streams as the parent module defines them.

use super::{p_value, percentile_interval, Domain, Interval, Resampler, TIE_EPSILON};
use crate::error::{Error, Result};

/// Per-unit statistics: `len / width` units of `width` numbers each, unit after unit.
#[derive(Debug, Clone, Copy)]
pub struct Units<'a> {
    /// The numbers, unit after unit.
    pub data: &'a [f64],
    /// Numbers per unit (at least 1).
    pub width: usize,
}

impl<'a> Units<'a> {
    /// Units of `width` numbers over `data` (a usage error when `data` is not whole units or a
    /// number is negative or not finite, or the sums could overflow).
    pub fn new(data: &'a [f64], width: usize) -> Result<Self> {
        if width == 0 || !data.len().is_multiple_of(width) {
            return Err(Error::usage(format!(
                "resampling: {} statistics do not make units of {width}",
                data.len()
            )));
        }
        let mut max = 0.0f64;
        for (i, v) in data.iter().enumerate() {
            if !(v.is_finite() && *v >= 0.0) {
                return Err(Error::usage(format!(
                    "resampling: unit {} has a statistic {v} that is negative or not finite",
                    i / width + 1
                )));
            }
            max = max.max(*v);
        }
        if !(max * (data.len() / width) as f64 * 2.0).is_finite() {
            return Err(Error::usage(
                "resampling: statistics too large to be summed",
            ));
        }
        Ok(Units { data, width })
    }

    /// Number of units.
    pub fn len(&self) -> usize {
        self.data.len() / self.width
    }

    /// Whether there are no units.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Unit `i`.
    #[inline]
    pub fn unit(&self, i: usize) -> &'a [f64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// The sum of all units, in unit order.
    pub fn total(&self) -> Vec<f64> {
        let mut sum = vec![0.0; self.width];
        for i in 0..self.len() {
            add_w(Dynamic(self.width), &mut sum, self.unit(i));
        }
        sum
    }
}

/// The number of statistics per unit, known at compile time for the widths that matter most
/// (HIPE's micro `[TP, FP, FN]`: 3), so the hot loops below are unrolled there, and known at
/// run time for any other.
trait Width: Copy + Sync {
    fn get(self) -> usize;
}

#[derive(Clone, Copy)]
struct Fixed<const W: usize>;

impl<const W: usize> Width for Fixed<W> {
    #[inline(always)]
    fn get(self) -> usize {
        W
    }
}

#[derive(Clone, Copy)]
struct Dynamic(usize);

impl Width for Dynamic {
    #[inline(always)]
    fn get(self) -> usize {
        self.0
    }
}

/// Runs `$body` with `$w` bound to the width of `$units` as a [`Width`] (fixed for 3).
macro_rules! with_width {
    ($units:expr, $w:ident => $body:expr) => {
        match $units.width {
            3 => {
                let $w = Fixed::<3>;
                $body
            }
            n => {
                let $w = Dynamic(n);
                $body
            }
        }
    };
}

/// Unit `i` of `u`, `w` numbers wide.
#[inline(always)]
fn unit_of<'a, W: Width>(u: &Units<'a>, w: W, i: usize) -> &'a [f64] {
    let w = w.get();
    &u.data[i * w..(i + 1) * w]
}

/// `sum += x` over the first `w` numbers.
#[inline(always)]
fn add_w<W: Width>(w: W, sum: &mut [f64], x: &[f64]) {
    let w = w.get();
    let (s, x) = (&mut sum[..w], &x[..w]);
    for j in 0..w {
        s[j] += x[j];
    }
}

/// A function from summed statistics to the `k` values followed (written into the slice).
pub type Score<'s> = &'s (dyn Fn(&[f64], &mut [f64]) + Sync);

/// One value of a paired test of A against B.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Paired {
    /// The value of A on all units.
    pub a: f64,
    /// The value of B on all units.
    pub b: f64,
    /// δ = a − b.
    pub diff: f64,
    /// The paired-bootstrap percentile interval of δ.
    pub ci: Interval,
    /// The two-sided p-value of the chosen test.
    pub p: f64,
}

/// The paired test giving the p-values of [`Resampler::paired_vec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairedTest {
    /// Paired approximate randomization (swap each unit's statistics with probability ½).
    Permutation,
    /// Paired bootstrap with the shifted-null p-value.
    Bootstrap,
}

impl PairedTest {
    /// A test by its name: `permutation` (or `randomization`) or `bootstrap`.
    pub fn parse(s: &str) -> Result<PairedTest> {
        match s.trim() {
            "permutation" | "randomization" => Ok(PairedTest::Permutation),
            "bootstrap" => Ok(PairedTest::Bootstrap),
            _ => Err(Error::usage(format!(
                "test: unknown test {}; use permutation or bootstrap",
                crate::error::snippet(s)
            ))),
        }
    }

    /// `permutation` or `bootstrap`.
    pub fn name(self) -> &'static str {
        match self {
            PairedTest::Permutation => "permutation",
            PairedTest::Bootstrap => "bootstrap",
        }
    }
}

/// The observed values of A and B on all units and their differences.
struct Observed {
    a: Vec<f64>,
    b: Vec<f64>,
    diff: Vec<f64>,
}

impl Resampler {
    /// The settings checked. The engine takes any number of units (no units give zero sums,
    /// one unit its own values); the families refuse fewer than two with a message naming
    /// their unit.
    fn check_units(&self, _u: &Units, uses_confidence: bool) -> Result<()> {
        self.check(uses_confidence)?;
        Ok(())
    }

    fn observed(&self, a: &Units, b: &Units, k: usize, score: Score) -> Result<Observed> {
        if a.len() != b.len() || a.width != b.width {
            return Err(Error::usage(format!(
                "paired comparison of runs with {} and {} units; both must have the gold's units",
                a.len(),
                b.len()
            )));
        }
        let (mut va, mut vb) = (vec![0.0; k], vec![0.0; k]);
        score(&a.total(), &mut va);
        score(&b.total(), &mut vb);
        let diff = va.iter().zip(&vb).map(|(x, y)| x - y).collect();
        Ok(Observed { a: va, b: vb, diff })
    }

    /// Percentile bootstrap intervals of `k` values: `samples` times draw `n` units with
    /// replacement, sum them and score the sum. Fewer than two units is a usage error (an
    /// interval over one unit says nothing).
    pub fn bootstrap_vec(&self, units: Units, k: usize, score: Score) -> Result<Vec<Interval>> {
        self.check_units(&units, true)?;
        let blocks = with_width!(units, w => self.bootstrap_blocks(w, &units, k, score));
        let mut cols = columns(&blocks, k, self.samples);
        let alpha = (1.0 - self.confidence) / 2.0;
        Ok(cols
            .iter_mut()
            .map(|c| percentile_interval(c, alpha))
            .collect())
    }

    fn bootstrap_blocks<W: Width>(
        &self,
        w: W,
        units: &Units,
        k: usize,
        score: Score,
    ) -> Vec<Vec<Vec<f64>>> {
        let n = units.len();
        self.blocks(Domain::Bootstrap, |rng, count| {
            let mut out = vec![0.0; count * k];
            let mut sum = vec![0.0; w.get()];
            let sum = &mut sum[..w.get()];
            for j in 0..count {
                sum.iter_mut().for_each(|s| *s = 0.0);
                for _ in 0..n {
                    add_w(w, sum, unit_of(units, w, rng.below(n)));
                }
                score(sum, &mut out[j * k..(j + 1) * k]);
            }
            vec![out]
        })
    }

    /// A paired test of A against B over the same units, for each of `k` values: the
    /// paired-bootstrap interval of δ and the p-value of `test`.
    pub fn paired_vec(
        &self,
        test: PairedTest,
        a: Units,
        b: Units,
        k: usize,
        score: Score,
    ) -> Result<Vec<Paired>> {
        self.check_units(&a, true)?;
        let obs = self.observed(&a, &b, k, score)?;
        // The paired bootstrap's differences (always: they give the interval).
        let mut dists = self.paired_bootstrap_diffs(&a, &b, k, score);
        let hits = match test {
            PairedTest::Bootstrap => shifted_hits(&dists, &obs.diff),
            PairedTest::Permutation => self.permutation_hits(&a, &b, k, score, &obs.diff),
        };
        let alpha = (1.0 - self.confidence) / 2.0;
        Ok((0..k)
            .map(|j| Paired {
                a: obs.a[j],
                b: obs.b[j],
                diff: obs.diff[j],
                ci: percentile_interval(&mut dists[j], alpha),
                p: p_value(hits[j], self.samples),
            })
            .collect())
    }

    /// The p-values alone of [`Resampler::paired_vec`]: a permutation test draws no bootstrap
    /// resamples (the same p-values, half the work).
    pub fn paired_p(
        &self,
        test: PairedTest,
        a: Units,
        b: Units,
        k: usize,
        score: Score,
    ) -> Result<Vec<f64>> {
        self.check_units(&a, test == PairedTest::Bootstrap)?;
        let obs = self.observed(&a, &b, k, score)?;
        let hits = match test {
            PairedTest::Bootstrap => {
                shifted_hits(&self.paired_bootstrap_diffs(&a, &b, k, score), &obs.diff)
            }
            PairedTest::Permutation => self.permutation_hits(&a, &b, k, score, &obs.diff),
        };
        Ok(hits.iter().map(|h| p_value(*h, self.samples)).collect())
    }

    /// The `k` columns of paired-bootstrap differences δ* = score(A*) − score(B*).
    fn paired_bootstrap_diffs(
        &self,
        a: &Units,
        b: &Units,
        k: usize,
        score: Score,
    ) -> Vec<Vec<f64>> {
        let boot = with_width!(a, w => self.paired_bootstrap_blocks(w, a, b, k, score));
        columns(&boot, k, self.samples)
    }

    fn paired_bootstrap_blocks<W: Width>(
        &self,
        w: W,
        a: &Units,
        b: &Units,
        k: usize,
        score: Score,
    ) -> Vec<Vec<Vec<f64>>> {
        let n = a.len();
        self.blocks(Domain::PairedBootstrap, |rng, count| {
            let mut out = vec![0.0; count * k];
            let (mut xa, mut xb) = (vec![0.0; w.get()], vec![0.0; w.get()]);
            let (mut ra, mut rb) = (vec![0.0; k], vec![0.0; k]);
            let (sa, sb) = (&mut xa[..w.get()], &mut xb[..w.get()]);
            for j in 0..count {
                sa.iter_mut().chain(sb.iter_mut()).for_each(|s| *s = 0.0);
                for _ in 0..n {
                    let i = rng.below(n);
                    add_w(w, sa, unit_of(a, w, i));
                    add_w(w, sb, unit_of(b, w, i));
                }
                score(sa, &mut ra);
                score(sb, &mut rb);
                for (o, (x, y)) in out[j * k..(j + 1) * k].iter_mut().zip(ra.iter().zip(&rb)) {
                    *o = x - y;
                }
            }
            vec![out]
        })
    }

    /// For each value, how many paired randomizations (each unit's statistics swapped with
    /// probability ½) give |δ*| ≥ |δ| (ties within [`TIE_EPSILON`] included).
    fn permutation_hits(
        &self,
        a: &Units,
        b: &Units,
        k: usize,
        score: Score,
        observed: &[f64],
    ) -> Vec<u64> {
        let blocks = with_width!(a, w => self.permutation_blocks(w, a, b, k, score, observed));
        let mut total = vec![0u64; k];
        for h in blocks.iter().flatten() {
            for (t, x) in total.iter_mut().zip(h) {
                *t += x;
            }
        }
        total
    }

    fn permutation_blocks<W: Width>(
        &self,
        w: W,
        a: &Units,
        b: &Units,
        k: usize,
        score: Score,
        observed: &[f64],
    ) -> Vec<Vec<Vec<u64>>> {
        let n = a.len();
        self.blocks(Domain::Permutation, |rng, count| {
            let mut hits = vec![0u64; k];
            let (mut xa, mut xb) = (vec![0.0; w.get()], vec![0.0; w.get()]);
            let (mut ra, mut rb) = (vec![0.0; k], vec![0.0; k]);
            let wn = w.get();
            for _ in 0..count {
                let (sa, sb) = (&mut xa[..wn], &mut xb[..wn]);
                sa.iter_mut().chain(sb.iter_mut()).for_each(|s| *s = 0.0);
                let mut pairs = a.data.chunks_exact(wn).zip(b.data.chunks_exact(wn));
                let mut left = n;
                while left > 0 {
                    let mut coins = rng.next_u64();
                    let take = left.min(64);
                    for (ua, ub) in pairs.by_ref().take(take) {
                        let (ta, tb) = if coins & 1 == 1 { (ub, ua) } else { (ua, ub) };
                        add_w(w, sa, ta);
                        add_w(w, sb, tb);
                        coins >>= 1;
                    }
                    left -= take;
                }
                score(sa, &mut ra);
                score(sb, &mut rb);
                for j in 0..k {
                    if (ra[j] - rb[j]).abs() >= observed[j].abs() - TIE_EPSILON {
                        hits[j] += 1;
                    }
                }
            }
            vec![hits]
        })
    }
}

/// For each value, how many paired-bootstrap differences are at least as far from δ as δ is
/// from 0 (the shifted null; ties within [`TIE_EPSILON`] included).
fn shifted_hits(dists: &[Vec<f64>], observed: &[f64]) -> Vec<u64> {
    dists
        .iter()
        .zip(observed)
        .map(|(col, d)| {
            col.iter()
                .filter(|x| (**x - d).abs() >= d.abs() - TIE_EPSILON)
                .count() as u64
        })
        .collect()
}

/// The `k` columns of the row-major resampled values, in block order.
fn columns(blocks: &[Vec<Vec<f64>>], k: usize, samples: usize) -> Vec<Vec<f64>> {
    let mut cols: Vec<Vec<f64>> = (0..k).map(|_| Vec::with_capacity(samples)).collect();
    for block in blocks.iter().flatten() {
        for row in block.chunks_exact(k.max(1)) {
            for (c, v) in cols.iter_mut().zip(row) {
                c.push(*v);
            }
        }
    }
    cols
}

#[cfg(test)]
mod tests {
    use super::super::DocCounts;
    use super::*;

    fn micro(sum: &[f64], out: &mut [f64]) {
        let s = super::super::micro(&DocCounts::new(sum[0], sum[1], sum[2]), 1.0);
        out.copy_from_slice(&[s.p, s.r, s.f1]);
    }

    fn flat(k: usize) -> Vec<f64> {
        (0..k)
            .flat_map(|i| [(i % 7) as f64, (i % 3) as f64, (i % 5) as f64])
            .collect()
    }

    #[test]
    fn p_values_alone_equal_those_of_the_full_test() {
        let a = flat(37);
        let b: Vec<f64> = a
            .chunks(3)
            .flat_map(|c| [c[0] * 0.5, c[1] + 1.0, c[2]])
            .collect();
        let r = Resampler::new(500, 3);
        let (ua, ub) = (Units::new(&a, 3).unwrap(), Units::new(&b, 3).unwrap());
        for test in [PairedTest::Permutation, PairedTest::Bootstrap] {
            let full = r.paired_vec(test, ua, ub, 3, &micro).unwrap();
            let p = r.paired_p(test, ua, ub, 3, &micro).unwrap();
            assert_eq!(full.iter().map(|x| x.p).collect::<Vec<_>>(), p, "{test:?}");
        }
        assert_eq!(
            PairedTest::parse("randomization").unwrap(),
            PairedTest::Permutation
        );
        assert!(PairedTest::parse("t-test").is_err());
    }

    #[test]
    fn no_unit_and_one_unit_give_degenerate_intervals_and_bad_statistics_are_refused() {
        let r = Resampler::new(10, 1);
        let none = r
            .bootstrap_vec(Units::new(&[], 3).unwrap(), 3, &micro)
            .unwrap();
        assert!(none.iter().all(|i| (i.lo, i.hi) == (0.0, 0.0)));
        let one = r
            .bootstrap_vec(Units::new(&[1.0, 1.0, 3.0], 3).unwrap(), 3, &micro)
            .unwrap();
        assert_eq!((one[0].lo, one[0].hi), (0.5, 0.5));
        assert!(Units::new(&[1.0, f64::NAN], 1).is_err());
        assert!(Units::new(&[1.0, 2.0], 3).is_err());
        let (ua, ub) = (
            Units::new(&[1.0, 0.0, 0.0], 3).unwrap(),
            Units::new(&[], 3).unwrap(),
        );
        assert!(r
            .paired_vec(PairedTest::Permutation, ua, ub, 3, &micro)
            .is_err());
    }
}
