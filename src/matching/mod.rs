//! Pairing gold and run annotations into counts (no P/R/F).
//!
//! `span_count` counts run spans against gold spans in the four regimes named by `regime`
//! (strict, ent_type, partial, exact: nervaluate's names), exactly as the official HIPE
//! scorer counts them (each run span takes the *first* gold span it overlaps); `attribution`
//! attributes run spans by nervaluate 1.2.1's rules instead (the closest overlapping gold span
//! of the same label, with a minimum overlap), listing which spans had which outcome; `fair` implements Ortmann's (2022) fair evaluation with error types counted once;
//! MUC-7 judgement, word segmentation and tagging pair and count in their families' folders
//! (`crate::family`).

pub(crate) mod agreement;
pub mod attribution;
pub mod fair;
pub(crate) mod regime;
pub mod span_count;

pub use regime::{PerRegime, SpanRegime};

/// A power of two that brings the largest of some non-negative weights into [0.5, 1] (1 when
/// the largest is 0 or not finite). Weights multiplied by it are exact (no rounding, barring
/// subnormal numbers), so ratios of weighted sums do not change, while sums of many weights
/// can no longer overflow: a score never depends on the scale of its weights.
pub fn unit_scale(max: f64) -> f64 {
    if !(max.is_finite() && max > 0.0) {
        return 1.0;
    }
    let (mut m, mut s) = (max, 1.0f64);
    while m > 1.0 {
        m *= 0.5;
        s *= 0.5;
    }
    // Scale up tiny weights too, while the factor itself stays far from overflowing.
    while m < 0.5 && s < 1e300 {
        m *= 2.0;
        s *= 2.0;
    }
    s
}

/// Sorts `v` ascending, in linear time when it is nearly in order already (spans as
/// annotation files list them: in text order, with a few entered later): the items that keep
/// the order (each no smaller than the last kept and no larger than its successor) form one
/// run, the others are sorted apart and merged in. The result is the sorted sequence whatever
/// the input; equal items are indistinguishable here (every caller sorts tuples whose every
/// field is the key).
pub(crate) fn sort_nearly_sorted<T: Ord + Copy>(v: &mut [T]) {
    if v.is_sorted() {
        return;
    }
    let mut run: Vec<T> = Vec::with_capacity(v.len());
    let mut rest: Vec<T> = Vec::new();
    for (i, &x) in v.iter().enumerate() {
        let fits = run.last().is_none_or(|l| *l <= x) && v.get(i + 1).is_none_or(|n| x <= *n);
        if fits {
            run.push(x);
        } else {
            rest.push(x);
            if 4 * rest.len() > v.len() {
                // Far from sorted: a plain sort.
                v.sort_unstable();
                return;
            }
        }
    }
    rest.sort_unstable();
    let (mut i, mut j) = (0, 0);
    for slot in v.iter_mut() {
        let from_run = match (run.get(i), rest.get(j)) {
            (Some(a), Some(b)) => a <= b,
            (a, _) => a.is_some(),
        };
        if from_run {
            *slot = run[i];
            i += 1;
        } else {
            *slot = rest[j];
            j += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn unit_scale_is_a_power_of_two_into_the_unit_range() {
        for max in [1.0, 0.5, 3.0, 1e308, f64::MAX, 1e-3, 1e-320, 0.75] {
            let s = super::unit_scale(max);
            assert_eq!(s.log2().fract(), 0.0, "{max}: {s}");
            let m = max * s;
            assert!(m <= 1.0 && (m >= 0.5 || max < 1e-290), "{max}: {m}");
        }
        assert_eq!(super::unit_scale(0.0), 1.0);
        assert_eq!(super::unit_scale(1.0), 1.0);
    }

    #[test]
    fn nearly_sorted_sorting_sorts_anything() {
        // Orders of many shapes, each checked against the standard sort: sorted, reversed,
        // sorted with items moved far away, random, with duplicates.
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            (seed >> 33) % n
        };
        for len in [0usize, 1, 2, 3, 10, 100, 1000] {
            for shape in 0..5 {
                let mut v: Vec<(u64, u64)> = (0..len as u64).map(|i| (i / 3, i % 2)).collect();
                match shape {
                    0 => {}
                    1 => v.reverse(),
                    2 => {
                        for _ in 0..len / 20 + 1 {
                            if len > 1 {
                                let (a, b) = (next(len as u64) as usize, next(len as u64) as usize);
                                v.swap(a, b);
                            }
                        }
                    }
                    3 => v.iter_mut().for_each(|x| *x = (next(50), next(3))),
                    _ => {
                        if len > 1 {
                            let x = v.remove(next(len as u64) as usize);
                            v.insert(next(len as u64) as usize, x);
                        }
                    }
                }
                let mut want = v.clone();
                want.sort_unstable();
                super::sort_nearly_sorted(&mut v);
                assert_eq!(v, want, "length {len}, shape {shape}");
            }
        }
    }
}
