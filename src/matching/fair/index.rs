//! An interval index over the spans of one side of a unit (issue 13): which live spans overlap a
//! range, in `O((k + 1) log n)` for `k` answers, with spans entering and leaving in
//! `O(log n)`.
//!
//! Spans are laid out once by begin; a max-end segment tree over that order answers "begin <=
//! e and end >= b" by descending only into subtrees whose largest live end reaches `b`.
//! Removal is a tombstone (the leaf's end becomes `None`), so no list is ever shifted. One
//! tree per pool: the spans not yet matched (`Fresh`) and the matched spans that still have
//! tokens (`Counted`); a pool is only kept once set up with [`IntervalIndex::fill`].

/// The two candidate pools of the boundary and labeling-boundary passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pool {
    /// Spans not matched yet (pass a).
    Fresh,
    /// Matched spans that still have unmatched tokens (passes b and c).
    Counted,
}

pub(super) struct IntervalIndex {
    /// Span ids in order of begin (ties as the constructor's order gives them).
    ids: Vec<usize>,
    /// Begins in that order (ascending).
    begins: Vec<usize>,
    /// Position of each span id in that order.
    leaf_of: Vec<usize>,
    ends: Vec<usize>,
    /// The longest range held (`end - begin`): spans that begin further before a query's
    /// begin cannot reach it.
    max_len: usize,
    /// Number of leaves: a power of two, at least the number of spans.
    size: usize,
    /// Per pool: a segment tree (root 1, leaves `size..2 size`) of the largest live end.
    trees: [Vec<Option<usize>>; 2],
}

impl IntervalIndex {
    /// Queries whose window of possible spans holds at most this many read it in order
    /// instead of descending the tree (a bound: no query reads more).
    const SCAN_MAX: usize = 32;

    /// An index over spans with these `(begin, end)` ranges (`begin <= end`), with no pool yet.
    #[cfg(test)]
    pub(super) fn new(ranges: impl ExactSizeIterator<Item = (usize, usize)>) -> Self {
        let ranges: Vec<(usize, usize)> = ranges.collect();
        let mut order: Vec<usize> = (0..ranges.len()).collect();
        order.sort_unstable_by_key(|&id| (ranges[id], id));
        Self::in_order(&ranges, &order)
    }

    /// An index over spans with these `(begin, end)` ranges (`begin <= end`), `order` the ids
    /// of the spans it holds (all or some) sorted by begin (ties in any order: a query visits
    /// the same candidates, and `Side::most_similar` picks among them by a key of their own),
    /// with no pool yet. A span it does not hold never enters a pool.
    pub(super) fn in_order(ranges: &[(usize, usize)], order: &[usize]) -> Self {
        let mut leaf_of = vec![usize::MAX; ranges.len()];
        for (pos, &id) in order.iter().enumerate() {
            if let Some(slot) = leaf_of.get_mut(id) {
                *slot = pos;
            }
        }
        IntervalIndex {
            ids: order.to_vec(),
            begins: order
                .iter()
                .map(|&id| ranges.get(id).map_or(usize::MAX, |r| r.0))
                .collect(),
            ends: ranges.iter().map(|r| r.1).collect(),
            max_len: (order.iter())
                .filter_map(|&id| ranges.get(id).map(|r| r.1.saturating_sub(r.0)))
                .max()
                .unwrap_or(0),
            leaf_of,
            size: order.len().max(1).next_power_of_two(),
            trees: [Vec::new(), Vec::new()],
        }
    }

    /// Sets up `pool` with the spans for which `live` holds, in `O(n)`.
    pub(super) fn fill(&mut self, pool: Pool, live: impl Fn(usize) -> bool) {
        let size = self.size;
        let mut tree = vec![None; 2 * size];
        for (pos, &id) in self.ids.iter().enumerate() {
            if live(id) {
                tree[size + pos] = self.ends.get(id).copied();
            }
        }
        for node in (1..size).rev() {
            tree[node] = tree[2 * node].max(tree[2 * node + 1]);
        }
        self.trees[pool as usize] = tree;
    }

    /// Makes span `id` live or dead in `pool` (if the pool is set up).
    pub(super) fn set(&mut self, pool: Pool, id: usize, live: bool) {
        let (Some(&pos), Some(&end)) = (self.leaf_of.get(id), self.ends.get(id)) else {
            return;
        };
        if pos == usize::MAX {
            // Not held (a span matched before the index was made).
            return;
        }
        let tree = &mut self.trees[pool as usize];
        if tree.is_empty() {
            return;
        }
        let mut node = self.size + pos;
        tree[node] = live.then_some(end);
        while node > 1 {
            node /= 2;
            tree[node] = tree[2 * node].max(tree[2 * node + 1]);
        }
    }

    /// Calls `f` with every span live in `pool` whose range overlaps `begin..=end`.
    pub(super) fn overlapping(
        &self,
        pool: Pool,
        begin: usize,
        end: usize,
        f: &mut impl FnMut(usize),
    ) {
        let tree = &self.trees[pool as usize];
        if !tree.is_empty() {
            let hi = self.begins.partition_point(|&b| b <= end);
            // Short spans (the usual case): the few that begin close enough before `begin`
            // are read in order, as the descent would visit them; else the descent.
            let lo =
                (self.begins[..hi]).partition_point(|&b| b.saturating_add(self.max_len) < begin);
            if hi - lo <= Self::SCAN_MAX {
                for pos in lo..hi {
                    let live = tree.get(self.size + pos).copied().flatten();
                    if let (Some(e), Some(&id)) = (live, self.ids.get(pos)) {
                        if e >= begin {
                            f(id);
                        }
                    }
                }
                return;
            }
            self.visit(tree, 1, 0, self.size, hi, begin, f);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn visit(
        &self,
        tree: &[Option<usize>],
        node: usize,
        lo: usize,
        width: usize,
        hi: usize,
        begin: usize,
        f: &mut impl FnMut(usize),
    ) {
        if lo >= hi || tree[node].is_none_or(|e| e < begin) {
            return;
        }
        if width == 1 {
            if let Some(&id) = self.ids.get(lo) {
                f(id);
            }
            return;
        }
        let half = width / 2;
        self.visit(tree, 2 * node, lo, half, hi, begin, f);
        self.visit(tree, 2 * node + 1, lo + half, half, hi, begin, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_live_overlapping_spans() {
        let ranges = [
            (1, 3),
            (2, 2),
            (5, 9),
            (0, 100),
            (7, 7),
            (4, 4),
            (usize::MAX - 1, usize::MAX),
        ];
        let mut ix = IntervalIndex::new(ranges.iter().copied());
        ix.fill(Pool::Fresh, |id| id != 3);
        ix.fill(Pool::Counted, |_| false);
        ix.set(Pool::Counted, 3, true);
        for (b, e) in [
            (0, 0),
            (2, 4),
            (6, 6),
            (10, 50),
            (8, usize::MAX),
            (usize::MAX, usize::MAX),
        ] {
            let mut got = Vec::new();
            ix.overlapping(Pool::Fresh, b, e, &mut |id| got.push(id));
            got.sort_unstable();
            let want: Vec<usize> = (0..ranges.len())
                .filter(|&id| id != 3 && ranges[id].0 <= e && ranges[id].1 >= b)
                .collect();
            assert_eq!(got, want, "query {b}..={e}");
            let mut counted = Vec::new();
            ix.overlapping(Pool::Counted, b, e, &mut |id| counted.push(id));
            assert_eq!(counted, if b <= 100 { vec![3] } else { vec![] });
        }
        ix.set(Pool::Fresh, 2, false);
        let mut got = Vec::new();
        ix.overlapping(Pool::Fresh, 6, 6, &mut |id| got.push(id));
        assert!(got.is_empty());
    }

    #[test]
    fn reads_short_windows_and_descends_into_long_ones_alike() {
        // 300 short spans and, in the second set, a long one: queries read the window of
        // short spans in order, or descend the tree where the long span widens it; both
        // find what a scan of every span finds, in order of begin.
        for long in [false, true] {
            let mut ranges: Vec<(usize, usize)> = (0..300)
                .map(|i| (7 * i % 1000, 7 * i % 1000 + i % 5))
                .collect();
            if long {
                ranges.push((10, 900));
            }
            let mut ix = IntervalIndex::new(ranges.iter().copied());
            ix.fill(Pool::Fresh, |id| id % 3 != 0);
            ix.fill(Pool::Counted, |_| false);
            for b in (0..1010).step_by(3) {
                for e in [b, b + 4, b + 40] {
                    let mut got = Vec::new();
                    ix.overlapping(Pool::Fresh, b, e, &mut |id| got.push(id));
                    let mut want: Vec<usize> = (0..ranges.len())
                        .filter(|&id| id % 3 != 0 && ranges[id].0 <= e && ranges[id].1 >= b)
                        .collect();
                    want.sort_by_key(|&id| (ranges[id].0, ranges[id].1, id));
                    let key = |id: &usize| ranges[*id].0;
                    assert!(got.iter().map(key).is_sorted(), "{b}..={e}");
                    got.sort_by_key(|&id| (ranges[id].0, ranges[id].1, id));
                    assert_eq!(got, want, "query {b}..={e}, long span {long}");
                }
            }
        }
    }
}
