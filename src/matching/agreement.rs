//! Pairing two annotators' spans on one text into TP/FP/FN counts per label, the two ways
//! bratiaa counts them:
//! - **instance-based**: a span agrees when the other annotator has a span with the same label
//!   and the same fragments (a set: a span annotated twice counts once);
//! - **token-based**: every fragment is cut into the whitespace tokens it overlaps (a token
//!   partly covered counts whole), and the (label, token) pieces are compared as multisets
//!   (a token covered twice with one label counts twice).
//!
//! The first annotator plays the gold: its unmatched pieces are false negatives. F1 is
//! symmetric, so the order only decides which column holds which count.

use std::collections::{BTreeMap, BTreeSet};

use crate::corpus::standoff::StandoffSpan;

/// TP, FP, FN counts per label.
pub type LabelCounts = BTreeMap<String, [u64; 3]>;

/// How pieces are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// Whole spans (label and every fragment).
    Instance,
    /// Whitespace tokens.
    Token,
}

impl Agreement {
    /// `instance` or `token`.
    pub fn name(self) -> &'static str {
        match self {
            Agreement::Instance => "instance",
            Agreement::Token => "token",
        }
    }
}

/// The indexes of the tokens (sorted `[start, end)` ranges) that overlap `[start, end)`.
pub fn overlapping(tokens: &[(usize, usize)], start: usize, end: usize) -> std::ops::Range<usize> {
    // First token ending after start; tokens starting before end.
    let a = tokens.partition_point(|t| t.1 <= start);
    let b = tokens.partition_point(|t| t.0 < end);
    // A zero-width span inside a token overlaps it (start < token end, token start < start).
    a..b.max(a)
}

/// The token pieces of spans: (label, token index) → how many times.
fn token_pieces(
    spans: &[StandoffSpan],
    tokens: &[(usize, usize)],
) -> BTreeMap<(String, usize), u64> {
    let mut out = BTreeMap::new();
    for s in spans {
        for &(a, b) in &s.fragments {
            for t in overlapping(tokens, a, b) {
                *out.entry((s.label.clone(), t)).or_insert(0) += 1;
            }
        }
    }
    out
}

/// Counts of `a` (as gold) against `b` per label, in mode `how` (`tokens`: the whitespace
/// tokens of the text, needed for [`Agreement::Token`]).
pub fn pair_counts(
    a: &[StandoffSpan],
    b: &[StandoffSpan],
    how: Agreement,
    tokens: &[(usize, usize)],
) -> LabelCounts {
    let mut out = LabelCounts::new();
    match how {
        Agreement::Instance => {
            let set = |v: &[StandoffSpan]| -> BTreeSet<(String, Vec<(usize, usize)>)> {
                v.iter()
                    .map(|s| (s.label.clone(), s.fragments.clone()))
                    .collect()
            };
            let (sa, sb) = (set(a), set(b));
            for x in &sa {
                out.entry(x.0.clone()).or_insert([0; 3])[if sb.contains(x) { 0 } else { 2 }] += 1;
            }
            for x in sb.difference(&sa) {
                out.entry(x.0.clone()).or_insert([0; 3])[1] += 1;
            }
        }
        Agreement::Token => {
            let (pa, pb) = (token_pieces(a, tokens), token_pieces(b, tokens));
            for (k, &na) in &pa {
                let nb = pb.get(k).copied().unwrap_or(0);
                let c = out.entry(k.0.clone()).or_insert([0; 3]);
                c[0] += na.min(nb);
                c[2] += na.saturating_sub(nb);
            }
            for (k, &nb) in &pb {
                let na = pa.get(k).copied().unwrap_or(0);
                out.entry(k.0.clone()).or_insert([0; 3])[1] += nb.saturating_sub(na);
            }
        }
    }
    out
}

/// Each token's label for one annotator: the labels of the spans overlapping it, sorted and
/// joined with `|` (a token under two labels gets a label of its own), or `O`.
pub fn token_labels(spans: &[StandoffSpan], tokens: &[(usize, usize)]) -> Vec<String> {
    let mut sets: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); tokens.len()];
    for s in spans {
        for &(a, b) in &s.fragments {
            for t in overlapping(tokens, a, b) {
                sets[t].insert(s.label.as_str());
            }
        }
    }
    sets.into_iter()
        .map(|s| {
            if s.is_empty() {
                "O".to_string()
            } else {
                s.into_iter().collect::<Vec<_>>().join("|")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(label: &str, f: &[(usize, usize)]) -> StandoffSpan {
        StandoffSpan {
            id: String::new(),
            label: label.into(),
            fragments: f.to_vec(),
            line: 1,
        }
    }

    #[test]
    fn instance_and_token_counts() {
        // "Grenoble (Francia)": tokens 0-8, 9-18.
        let tokens = [(0, 8), (9, 18)];
        let a = [span("LOC", &[(0, 8)]), span("LOC", &[(10, 17)])];
        let b = [span("LOC", &[(0, 18)])];
        let i = pair_counts(&a, &b, Agreement::Instance, &tokens);
        assert_eq!(i.get("LOC"), Some(&[0, 1, 2]));
        let t = pair_counts(&a, &b, Agreement::Token, &tokens);
        assert_eq!(t.get("LOC"), Some(&[2, 0, 0]));
        assert_eq!(overlapping(&tokens, 8, 9), 1..1);
        assert_eq!(overlapping(&tokens, 3, 3), 0..1);
        assert_eq!(token_labels(&b, &tokens), vec!["LOC", "LOC"]);
    }
}
