//! Pairing gold and run annotations into counts (no P/R/F).
//!
//! `span_count` counts run spans against gold spans in the four regimes named by `regime`
//! (strict, ent_type, partial, exact: nervaluate's names), exactly as the official HIPE
//! scorer counts them; `fair` implements Ortmann's (2022) fair evaluation with error types counted once;
//! `segmentation` pairs words by character spans and boundaries; `tagset` reads the tag sets
//! (categories and weights) that tagging evaluation scores with (`metrics::tagging`); `muc`
//! judges tokens as MUC-7 (correct, incorrect, partial, missing, spurious).

pub mod fair;
pub mod muc;
pub mod regime;
pub mod segmentation;
pub mod span_count;
pub mod tagset;

pub use regime::{PerRegime, SpanRegime};
