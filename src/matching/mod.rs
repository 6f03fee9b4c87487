//! Pairing gold and run annotations into counts (no P/R/F).
//!
//! `hipe` reproduces the official HIPE scorer's counting in the four regimes named by
//! `regime`; `fair` implements Ortmann's (2022) fair evaluation with error types counted once;
//! `segmentation` pairs words by character spans and boundaries; `tagset` reads the tag sets
//! (categories and weights) that tagging evaluation scores with (`metrics::tagging`); `muc`
//! judges tokens as MUC-7 (correct, incorrect, partial, missing, spurious).

pub mod fair;
pub mod hipe;
pub mod muc;
pub mod regime;
pub mod segmentation;
pub mod tagset;

pub use regime::{HipeRegime, PerRegime};
