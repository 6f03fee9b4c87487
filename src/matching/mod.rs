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
}
