//! The four span regimes (nervaluate's names, counted as the official HIPE scorer counts), as a
//! type: [`SpanRegime`] names one,
//! [`PerRegime`] holds one value for each; [`Counts`] are the five outcome counts of one
//! regime, whichever attribution pairs the spans. Names are only strings at the edges (JSON
//! keys, `--regimes`, TSV rows).

use std::ops::{Index, IndexMut};

/// A span counting regime (nervaluate's, as the official HIPE scorer counts it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpanRegime {
    /// Same offsets and same label.
    Strict,
    /// Overlap with the same label (reported as "fuzzy" in the TSV rows).
    EntType,
    /// Overlap, half credit for partial matches; labels ignored.
    Partial,
    /// Same offsets; labels ignored.
    Exact,
}

impl SpanRegime {
    /// Every regime, in the order the counts are kept.
    pub const ALL: [SpanRegime; 4] = [
        SpanRegime::Strict,
        SpanRegime::EntType,
        SpanRegime::Partial,
        SpanRegime::Exact,
    ];

    /// The official JSON key (`strict`, `ent_type`, `partial`, `exact`).
    pub fn json_name(self) -> &'static str {
        match self {
            SpanRegime::Strict => "strict",
            SpanRegime::EntType => "ent_type",
            SpanRegime::Partial => "partial",
            SpanRegime::Exact => "exact",
        }
    }
}

/// One value per regime.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PerRegime<T> {
    /// The strict regime's value.
    pub strict: T,
    /// The ent_type ("fuzzy") regime's value.
    pub ent_type: T,
    /// The partial regime's value.
    pub partial: T,
    /// The exact regime's value.
    pub exact: T,
}

impl<T> PerRegime<T> {
    /// Builds each value from its regime.
    pub fn from_fn(mut f: impl FnMut(SpanRegime) -> T) -> Self {
        PerRegime {
            strict: f(SpanRegime::Strict),
            ent_type: f(SpanRegime::EntType),
            partial: f(SpanRegime::Partial),
            exact: f(SpanRegime::Exact),
        }
    }

    /// The regimes with their values, in [`SpanRegime::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (SpanRegime, &T)> {
        SpanRegime::ALL.into_iter().map(move |r| (r, &self[r]))
    }

    /// The regimes with mutable values, in [`SpanRegime::ALL`] order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (SpanRegime, &mut T)> {
        [
            (SpanRegime::Strict, &mut self.strict),
            (SpanRegime::EntType, &mut self.ent_type),
            (SpanRegime::Partial, &mut self.partial),
            (SpanRegime::Exact, &mut self.exact),
        ]
        .into_iter()
    }
}

impl<T> Index<SpanRegime> for PerRegime<T> {
    type Output = T;
    fn index(&self, r: SpanRegime) -> &T {
        match r {
            SpanRegime::Strict => &self.strict,
            SpanRegime::EntType => &self.ent_type,
            SpanRegime::Partial => &self.partial,
            SpanRegime::Exact => &self.exact,
        }
    }
}

impl<T> IndexMut<SpanRegime> for PerRegime<T> {
    fn index_mut(&mut self, r: SpanRegime) -> &mut T {
        match r {
            SpanRegime::Strict => &mut self.strict,
            SpanRegime::EntType => &mut self.ent_type,
            SpanRegime::Partial => &mut self.partial,
            SpanRegime::Exact => &mut self.exact,
        }
    }
}

/// The five outcome counts of one regime.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// System spans that match a gold span as the regime requires.
    pub correct: u64,
    /// System spans paired with a gold span that they do not match in this regime.
    pub incorrect: u64,
    /// System spans paired with an overlapping gold span they do not match exactly (counted in
    /// the partial regime only).
    pub partial: u64,
    /// Gold spans no system span was paired with.
    pub missed: u64,
    /// System spans paired with no gold span.
    pub spurious: u64,
}

impl Counts {
    /// The official `possible` (gold side): correct + incorrect + partial + missed.
    pub fn possible(&self) -> u64 {
        self.correct + self.incorrect + self.partial + self.missed
    }
    /// The official `actual` (system side): correct + incorrect + partial + spurious.
    pub fn actual(&self) -> u64 {
        self.correct + self.incorrect + self.partial + self.spurious
    }
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: &Counts) {
        self.correct += o.correct;
        self.incorrect += o.incorrect;
        self.partial += o.partial;
        self.missed += o.missed;
        self.spurious += o.spurious;
    }
}
