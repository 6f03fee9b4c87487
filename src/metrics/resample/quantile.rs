//! Quantiles as SciPy's percentile bootstrap computes them (linear interpolation between
//! order statistics), on sorted values or by selection.

use super::Interval;

/// `[q(α), q(1 − α)]` of the values (reordered), [`quantile`] as SciPy's percentile interval.
pub(super) fn percentile_interval(values: &mut [f64], alpha: f64) -> Interval {
    Interval {
        lo: quantile_select(values, alpha),
        hi: quantile_select(values, 1.0 - alpha),
    }
}

/// Where the linear quantile `p` of `n > 0` values lies: the 0-based ranks `j ≤ k` of the two
/// order statistics (`k` is `j` or `j + 1`) and the weight `g` of the upper one. Computed as
/// `scipy.stats.quantile(method='linear')`: `j + g = p·n + (1 − p)` (1-based), both ranks
/// clipped into the sample, `g = 0` when the lower rank falls below it.
fn quantile_position(n: usize, p: f64) -> (usize, usize, f64) {
    let jg = p * n as f64 + (1.0 - p);
    let jp1 = jg.floor();
    let j = jp1 - 1.0;
    let g = if j < 0.0 { 0.0 } else { jg - jp1 };
    let last = (n - 1) as f64;
    (
        j.clamp(0.0, last) as usize,
        jp1.clamp(0.0, last) as usize,
        g,
    )
}

/// `(1 − g)·lo + g·hi`; equal neighbours give their value exactly (no rounding).
fn lerp(lo: f64, hi: f64, g: f64) -> f64 {
    if lo == hi {
        lo
    } else {
        (1.0 - g) * lo + g * hi
    }
}

#[cfg(test)]
/// The linear (Hyndman & Fan type 7) quantile `p` of sorted values, as `scipy.stats.quantile`
/// and `numpy.percentile` (default method) compute it: `(1 − g)·y[j] + g·y[j + 1]` with
/// `j + g = p·n + (1 − p)` (1-based). An empty sample gives 0.
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let (j, k, g) = quantile_position(sorted.len(), p);
    lerp(sorted[j], sorted[k], g)
}

/// [`quantile`] of unsorted values, by selection in linear time (the values are reordered;
/// order statistics compare by `f64::total_cmp`). An empty sample gives 0.
pub fn quantile_select(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let (j, k, g) = quantile_position(values.len(), p);
    let (_, lo, above) = values.select_nth_unstable_by(j, f64::total_cmp);
    let lo = *lo;
    let hi = if k == j {
        lo
    } else {
        // Rank j + 1 is the smallest value above rank j.
        above.iter().copied().min_by(f64::total_cmp).unwrap_or(lo)
    };
    lerp(lo, hi, g)
}
