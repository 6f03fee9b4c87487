//! `score --bootstrap N`: percentile bootstrap intervals over documents for the micro P, R and
//! F1 of every evaluation, label and regime of a scoring, from the per-document counts kept
//! with the scores (`crate::metrics::docs::DocSeries`); no document is scored again.
//!
//! Every series is resampled with the same settings and seed, so all intervals of a scoring
//! rest on the same document draws (a series of `n` documents draws the same indices whatever
//! its label). Two series with the same counts therefore have the same interval, which is
//! computed once: many links of an NEL evaluation occur in one document with the same counts.

use crate::error::Result;
use crate::metrics::docs::DocSeries;
use crate::metrics::fair::WeightedScores;
use crate::metrics::resample::{ByMeasure, Interval, Resampler};
use crate::metrics::Evaluation;
use std::collections::HashMap;

/// The seed of `score --bootstrap` and `compare` when none is given.
pub const DEFAULT_SEED: u64 = 42;

/// The confidence level of the intervals when none is given.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// The resampling settings of a command line: `samples` (given with option `samples_flag`,
/// e.g. `--bootstrap`), `--seed` and `--confidence`, checked with errors naming the option.
pub fn resampler(
    samples_flag: &str,
    samples: usize,
    seed: Option<u64>,
    confidence: Option<f64>,
) -> Result<Resampler> {
    use crate::error::Error;
    use crate::metrics::resample::MAX_SAMPLES;
    if samples == 0 {
        return Err(Error::usage(format!(
            "{samples_flag}: at least 1 resample is needed (10000 is usual)"
        )));
    }
    if samples > MAX_SAMPLES {
        return Err(Error::usage(format!(
            "{samples_flag}: {samples} resamples is more than the maximum of {MAX_SAMPLES}"
        )));
    }
    let confidence = confidence.unwrap_or(DEFAULT_CONFIDENCE);
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::usage(format!(
            "--confidence: {confidence} is not strictly between 0 and 1 (e.g. 0.95)"
        )));
    }
    Ok(Resampler {
        confidence,
        ..Resampler::new(samples, seed.unwrap_or(DEFAULT_SEED))
    })
}

/// The exact identity of a series: its length and the bits of its non-zero counts.
type SeriesKey = (usize, Vec<(usize, [u64; 3])>);

fn key(s: &DocSeries) -> SeriesKey {
    (
        s.len(),
        s.nonzero()
            .iter()
            .map(|(i, c)| (*i, [c.tp.to_bits(), c.fp.to_bits(), c.fn_.to_bits()]))
            .collect(),
    )
}

/// Intervals of series, computed once per distinct series.
struct Intervals<'r> {
    resampler: &'r Resampler,
    cache: HashMap<SeriesKey, ByMeasure<Interval>>,
}

impl Intervals<'_> {
    fn of(&mut self, s: &DocSeries) -> Result<ByMeasure<Interval>> {
        let k = key(s);
        if let Some(ci) = self.cache.get(&k) {
            return Ok(*ci);
        }
        let ci = if s.nonzero().is_empty() {
            // All counts zero: every resample scores 0.
            ByMeasure::default()
        } else {
            self.resampler.micro_ci(&s.dense())?
        };
        self.cache.insert(k, ci);
        Ok(ci)
    }

    fn fill_weighted(&mut self, w: &mut WeightedScores) -> Result<()> {
        w.ci = Some(self.of(&w.docs)?);
        Ok(())
    }

    fn fill(&mut self, eval: &mut Evaluation) -> Result<()> {
        for scores in eval.per_label.values_mut().chain([&mut eval.all]) {
            for (_, s) in scores.iter_mut() {
                s.ci = Some(self.of(&s.docs)?);
            }
        }
        if let Some(fair) = eval.fair.as_mut() {
            for ls in fair.per_label.values_mut().chain([&mut fair.all]) {
                self.fill_weighted(&mut ls.fair)?;
                if let Some(w) = ls.weighted.as_mut() {
                    self.fill_weighted(w)?;
                }
            }
        }
        Ok(())
    }
}

/// Sets the bootstrap intervals ([`crate::metrics::RegimeScores::ci`] and
/// `WeightedScores::ci`) of every label, ALL and regime of these evaluations.
pub fn add_intervals<'e>(
    evals: impl IntoIterator<Item = &'e mut Evaluation>,
    resampler: &Resampler,
) -> Result<()> {
    let mut iv = Intervals {
        resampler,
        cache: HashMap::new(),
    };
    for eval in evals {
        iv.fill(eval)?;
    }
    Ok(())
}
