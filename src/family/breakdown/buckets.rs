//! The buckets of a key: one per value of a discrete key (at most [`super::MAX_VALUES`]
//! shown), quantile buckets of the gold values for a continuous key.

use std::collections::BTreeMap;

use super::{Asked, Caps, Facts, Key, MAX_VALUES, OTHER};

/// A key's value for a span.
enum KeyValue<'a> {
    Text(&'a str),
    Number(f64),
}

fn value(key: Key, s: &Facts) -> KeyValue<'_> {
    let ratio = |a: u32, b: u32| {
        if b > 0 {
            f64::from(a) / f64::from(b)
        } else {
            0.0
        }
    };
    match key {
        Key::Label => KeyValue::Text(&s.label),
        Key::Capitalisation => KeyValue::Text(s.caps.name()),
        Key::Document => KeyValue::Text(&s.document),
        Key::Oov => KeyValue::Text(if s.oov { "yes" } else { "no" }),
        Key::Length => KeyValue::Number(f64::from(s.tokens)),
        Key::Chars => KeyValue::Number(f64::from(s.chars)),
        Key::SentenceLength => KeyValue::Number(f64::from(s.sentence_tokens)),
        Key::Density => KeyValue::Number(ratio(s.sentence_entities, s.sentence_tokens)),
        Key::Position => KeyValue::Number(ratio(s.start_in_sentence, s.sentence_tokens)),
        Key::TrainFreq => KeyValue::Number(f64::from(s.train_freq)),
        Key::TrainConsistency => KeyValue::Number(ratio(s.train_same_label, s.train_freq)),
        Key::Noise => KeyValue::Number(s.noise),
        Key::Period => KeyValue::Number(s.year),
    }
}

/// The buckets of one key over the spans of a gold and a run.
pub struct Bucketing {
    /// The buckets' names, in table order.
    pub names: Vec<String>,
    /// A discrete key: value → bucket (values not listed go to the last, [`OTHER`]).
    values: BTreeMap<String, usize>,
    /// A continuous key: the upper ends of every bucket but the last (a value `v` is in the
    /// bucket of the first cut `c` with `v <= c`, else in the last).
    cuts: Vec<f64>,
}

impl Bucketing {
    /// The buckets of `asked` over the spans `gold` and `run`.
    pub fn new(asked: &Asked, gold: &[Facts], run: &[Facts]) -> Self {
        let all = || gold.iter().chain(run);
        if asked.key.continuous() {
            let mut gv: Vec<f64> = gold.iter().map(|s| number(asked.key, s)).collect();
            gv.sort_by(f64::total_cmp);
            let cuts = cuts(&gv, asked.buckets);
            // Named by the cuts alone (the gold's), so two runs of one gold have the same
            // buckets.
            let mut names = Vec::with_capacity(cuts.len() + 1);
            match (cuts.first(), cuts.last()) {
                (Some(first), Some(last)) => {
                    names.push(format!("<= {}", shown(*first)));
                    for w in cuts.windows(2) {
                        names.push(format!("({}, {}]", shown(w[0]), shown(w[1])));
                    }
                    names.push(format!("> {}", shown(*last)));
                }
                _ => names.push("all".into()),
            }
            return Bucketing {
                names,
                values: BTreeMap::new(),
                cuts,
            };
        }
        // Discrete: every value of gold and run (every class of the closed keys), and the
        // gold's spans per value.
        let mut n: BTreeMap<&str, usize> = BTreeMap::new();
        match asked.key {
            Key::Capitalisation => n.extend(Caps::ALL.map(|c| (c.name(), 0))),
            Key::Oov => n.extend([("no", 0), ("yes", 0)]),
            _ => {}
        }
        for s in all() {
            if let KeyValue::Text(t) = value(asked.key, s) {
                n.entry(t).or_default();
            }
        }
        for s in gold {
            if let KeyValue::Text(t) = value(asked.key, s) {
                *n.entry(t).or_default() += 1;
            }
        }
        let mut kept: Vec<&str> = n.keys().copied().collect();
        let other = kept.len() > MAX_VALUES;
        if other {
            // The values with the most gold spans, ties by name.
            let mut by_count: Vec<(&str, usize)> = n.iter().map(|(k, v)| (*k, *v)).collect();
            by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            kept = by_count[..MAX_VALUES - 1].iter().map(|x| x.0).collect();
        }
        if asked.key == Key::Capitalisation {
            kept.sort_by_key(|k| Caps::ALL.iter().position(|c| c.name() == *k));
        } else {
            kept.sort_unstable();
        }
        let mut names: Vec<String> = kept.iter().map(|k| k.to_string()).collect();
        if other {
            names.push(OTHER.into());
        }
        let values = names
            .iter()
            .enumerate()
            .filter(|(i, _)| !other || *i + 1 < names.len())
            .map(|(i, k)| (k.clone(), i))
            .collect();
        Bucketing {
            names,
            values,
            cuts: Vec::new(),
        }
    }

    /// The bucket of a span.
    pub fn bucket(&self, key: Key, s: &Facts) -> usize {
        match value(key, s) {
            KeyValue::Number(v) => self.cuts.partition_point(|&c| c < v),
            KeyValue::Text(t) => self
                .values
                .get(t)
                .copied()
                .unwrap_or(self.names.len().saturating_sub(1)),
        }
    }
}

fn number(key: Key, s: &Facts) -> f64 {
    match value(key, s) {
        KeyValue::Number(v) => v,
        KeyValue::Text(_) => 0.0,
    }
}

/// The cuts of `n` near-equal-size buckets of the sorted values `v` (N of them): for k = 1 …
/// n − 1 the value at 1-based rank ⌈k·N/n⌉, each kept when above the previous cut and below
/// the largest value (ties stay in one bucket, so there may be fewer than `n` buckets).
pub fn cuts(v: &[f64], n: usize) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    let Some(&max) = v.last() else {
        return out;
    };
    for k in 1..n {
        let rank = (k * v.len()).div_ceil(n);
        let c = v[rank.max(1) - 1];
        if out.last().is_none_or(|&l| c > l) && c < max {
            out.push(c);
        }
    }
    out
}

/// A bucket bound as a name shows it: an integer as one, else at most 4 decimals.
fn shown(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_cuts_keep_ties_together() {
        assert_eq!(cuts(&[1., 2., 3., 4., 5., 6., 7., 8.], 4), vec![2., 4., 6.]);
        assert_eq!(cuts(&[1., 1., 1., 1., 2., 3.], 4), vec![1., 2.]);
        assert_eq!(cuts(&[5., 5., 5.], 4), Vec::<f64>::new());
        assert_eq!(cuts(&[], 4), Vec::<f64>::new());
        assert_eq!(cuts(&[1., 2.], 1), Vec::<f64>::new());
        assert_eq!(shown(0.333333), "0.3333");
        assert_eq!(shown(3.0), "3");
    }
}
