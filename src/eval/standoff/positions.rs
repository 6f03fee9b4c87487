//! The positions of a standoff document pair (the pieces of non-whitespace text, cut at every
//! span boundary of either side) and the positions a span covers, as runs.

use crate::corpus::standoff::{is_py_space, StandoffSpan};

/// A position: `[start, end)` in characters of its text. A text has fewer than 2^32
/// characters: it is read from one input of at most 2 GiB (`io::MAX_INPUT`), an aligned
/// generative run's text from the gold's and the run's strings.
pub type Pos = (u32, u32);

/// `i` as a character offset of a [`Pos`].
pub(super) fn at(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The positions of a document pair: `[start, end)` character ranges of non-whitespace text,
/// cut at every fragment boundary of either side and at `extra` (a token side's tokens).
pub fn positions(text: &str, a: &[StandoffSpan], b: &[StandoffSpan], extra: &[usize]) -> Vec<Pos> {
    let mut cuts: Vec<usize> = a
        .iter()
        .chain(b)
        .flat_map(|s| s.fragments.iter().flat_map(|&(x, y)| [x, y]))
        .chain(extra.iter().copied())
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut next_cut = cuts.iter().copied().peekable();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut n = 0;
    for (i, c) in text.chars().enumerate() {
        n = i + 1;
        let space = is_py_space(c);
        while next_cut.next_if(|&x| x < i).is_some() {}
        let cut = next_cut.peek() == Some(&i);
        if let Some(s) = start {
            if space || cut {
                out.push((at(s), at(i)));
                start = None;
            }
        }
        if !space && start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((at(s), at(n)));
    }
    out.shrink_to_fit();
    out
}

/// The 0-based positions a span covers, as runs of consecutive positions `[first, last]`
/// (inclusive), ascending and apart: a range, not a list, whatever the span's length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Covered {
    /// One run (a span over consecutive positions).
    One([(u32, u32); 1]),
    /// Two runs or more, each after a gap.
    Many(Vec<(u32, u32)>),
}

impl Covered {
    /// The runs, ascending.
    pub fn runs(&self) -> &[(u32, u32)] {
        match self {
            Covered::One(r) => r,
            Covered::Many(v) => v,
        }
    }

    /// The first position.
    pub fn first(&self) -> usize {
        self.runs().first().map_or(0, |r| r.0 as usize)
    }

    /// The last position.
    pub fn last(&self) -> usize {
        self.runs().last().map_or(0, |r| r.1 as usize)
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.runs().iter().map(|&(a, b)| (b - a) as usize + 1).sum()
    }

    /// The positions, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        self.runs()
            .iter()
            .flat_map(|&(a, b)| a as usize..=b as usize)
    }
}

/// The positions a span covers, or `None` for none.
pub(super) fn covered(span: &StandoffSpan, pos: &[Pos]) -> Option<Covered> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &(s, e) in &span.fragments {
        let (s, e) = (at(s), at(e));
        let lo = pos.partition_point(|p| p.0 < s);
        let hi = pos.partition_point(|p| p.1 <= e);
        if hi > lo {
            runs.push((at(lo), at(hi - 1)));
        }
    }
    runs.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(runs.len());
    for (a, b) in runs {
        match merged.last_mut() {
            Some(m) if a <= m.1.saturating_add(1) => m.1 = m.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    match merged.len() {
        0 => None,
        1 => Some(Covered::One([merged[0]])),
        _ => Some(Covered::Many(merged)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(label: &str, fragments: &[(usize, usize)]) -> StandoffSpan {
        StandoffSpan {
            id: "T1".into(),
            label: label.into(),
            fragments: fragments.to_vec(),
            line: 1,
        }
    }

    #[test]
    fn positions_are_whitespace_tokens_cut_at_span_boundaries() {
        let text = "Anna  Paris-Nord x";
        assert_eq!(
            positions(text, &[], &[], &[]),
            vec![(0, 4), (6, 16), (17, 18)]
        );
        let list = |s: &StandoffSpan, pos: &[Pos]| {
            covered(s, pos)
                .map(|c| c.iter().collect::<Vec<_>>())
                .unwrap_or_default()
        };
        let a = [span("LOC", &[(6, 11)])];
        let b = [span("PER", &[(0, 6)])];
        let pos = positions(text, &a, &b, &[]);
        assert_eq!(pos, vec![(0, 4), (6, 11), (11, 16), (17, 18)]);
        assert_eq!(list(&a[0], &pos), vec![1]);
        assert_eq!(list(&b[0], &pos), vec![0]);
        assert_eq!(list(&span("X", &[(0, 4), (17, 18)]), &pos), vec![0, 3]);
        assert!(covered(&span("X", &[(4, 6)]), &pos).is_none());
        // Fragments over adjacent positions are one run.
        let c = covered(&span("X", &[(0, 4), (6, 11)]), &pos);
        assert_eq!(c, Some(Covered::One([(0, 1)])));
        let c = covered(&span("X", &[(0, 4), (11, 18)]), &pos);
        assert_eq!(c.as_ref().map(Covered::runs), Some(&[(0, 0), (2, 3)][..]));
        assert_eq!(c.map(|c| (c.first(), c.last(), c.len())), Some((0, 3, 3)));
    }
}
