//! The fuzzy step's index (`align.rs`, docs/generative.md, "Alignment"): the stretches of a
//! unit's text that may hold a window within a string's bound, found from the text's
//! bigrams instead of a pass over every position; and the places taken in a unit, with the
//! characters they cover, so that a window meeting one is refused without a scan.

use std::collections::{BTreeMap, HashMap, HashSet};

/// The places taken in one unit by one side (or one query): each place as given, the
/// characters they cover (merged runs, start → end; made at the first question about them,
/// which only the fuzzy step asks), and the strings that found no place (by placing mode):
/// places are only ever added, so those never will.
#[derive(Debug, Default, Clone)]
pub struct Taken {
    places: HashSet<(usize, usize)>,
    covered: Option<BTreeMap<usize, usize>>,
    placeless: [HashSet<String>; 3],
}

impl Taken {
    /// Records `place` (`[start, end)` in characters); false when it was taken already.
    pub fn insert(&mut self, place: (usize, usize)) -> bool {
        if !self.places.insert(place) {
            return false;
        }
        if let Some(c) = &mut self.covered {
            cover(c, place);
        }
        true
    }

    /// Whether exactly this place is taken.
    pub fn contains(&self, place: (usize, usize)) -> bool {
        self.places.contains(&place)
    }

    /// Whether `needle` found no place before, placed by `mode` (0, 1, 2: exact, case, fuzzy).
    pub fn placeless(&self, mode: usize, needle: &str) -> bool {
        self.placeless[mode].contains(needle)
    }

    /// Records that `needle` found no place, placed by `mode`.
    pub fn no_place(&mut self, mode: usize, needle: &str) {
        self.placeless[mode].insert(needle.to_string());
    }

    /// Whether the characters `[s, e)` meet a place taken (runs are disjoint and sorted, so
    /// the last one starting before `e` ends furthest).
    pub fn overlaps(&mut self, s: usize, e: usize) -> bool {
        let places = &self.places;
        let covered = self.covered.get_or_insert_with(|| {
            let mut c = BTreeMap::new();
            for &p in places {
                cover(&mut c, p);
            }
            c
        });
        covered
            .range(..e)
            .next_back()
            .is_some_and(|(_, &end)| end > s)
    }
}

/// Adds the characters of `[a, b)` to the merged runs `c`.
fn cover(c: &mut BTreeMap<usize, usize>, (a, b): (usize, usize)) {
    if a >= b {
        return;
    }
    let (mut lo, mut hi) = (a, b);
    if let Some((&s, &e)) = c.range(..=lo).next_back() {
        if e >= lo {
            lo = s;
            hi = hi.max(e);
        }
    }
    let within: Vec<usize> = c.range(lo..=hi).map(|(&s, _)| s).collect();
    for s in within {
        if let Some(e) = c.remove(&s) {
            hi = hi.max(e);
        }
    }
    c.insert(lo, hi);
}

/// Where each pair of consecutive characters occurs in a text: positions grouped by pair
/// (one array of the text's length).
pub struct Bigrams {
    at: HashMap<(char, char), (u32, u32)>,
    pos: Vec<u32>,
}

impl Bigrams {
    /// The index of `text`.
    pub fn new(text: &[char]) -> Bigrams {
        let mut at: HashMap<(char, char), (u32, u32)> = HashMap::new();
        for w in text.windows(2) {
            at.entry((w[0], w[1])).or_insert((0, 0)).1 += 1;
        }
        let mut off = 0;
        for v in at.values_mut() {
            (v.0, off, v.1) = (off, off + v.1, 0);
        }
        let mut pos = vec![0u32; text.len().saturating_sub(1)];
        for (i, w) in text.windows(2).enumerate() {
            if let Some(v) = at.get_mut(&(w[0], w[1])) {
                pos[(v.0 + v.1) as usize] = i as u32;
                v.1 += 1;
            }
        }
        Bigrams { at, pos }
    }

    fn of(&self, a: char, b: char) -> &[u32] {
        self.at
            .get(&(a, b))
            .map_or(&[], |&(o, n)| &self.pos[o as usize..(o + n) as usize])
    }

    /// The stretches `[lo, hi]` of a text of `n` characters (windows starting at `lo` or
    /// later and ending at `hi` or earlier), sorted and apart, that may hold a window within
    /// `limit` insertions and deletions of `p`. Such a window keeps at least
    /// `|p| − 1 − 2 × limit` of p's bigrams, each on a diagonal (text position − position in
    /// `p`) within `limit` of the window's start (a deleted character breaks two bigrams, an
    /// inserted one one); the diagonals are counted in buckets of `2 × limit + 1`, and only
    /// where two neighbouring buckets hold that many is there a window to look for. `None`
    /// when the bound leaves no bigram to require (the whole text is searched). `counts` is
    /// scratch space, left zeroed.
    pub fn regions(
        &self,
        p: &[char],
        limit: usize,
        n: usize,
        counts: &mut Vec<u32>,
    ) -> Option<Vec<(usize, usize)>> {
        let m = p.len();
        let need = m
            .checked_sub(1 + 2 * limit)
            .filter(|&x| x >= 1)
            .map(|x| x as u32)?;
        let w = 2 * limit + 1;
        if counts.len() < (n + m) / w + 2 {
            counts.resize((n + m) / w + 2, 0);
        }
        let mut touched = Vec::new();
        for (j, pair) in p.windows(2).enumerate() {
            for &t in self.of(pair[0], pair[1]) {
                // The diagonal shifted by m, never negative.
                let b = (t as usize + m - j) / w;
                if counts[b] == 0 {
                    touched.push(b);
                }
                counts[b] += 1;
            }
        }
        // The pairs of buckets (c, c + 1) holding enough: starts s with
        // c·w ≤ s + m − limit < (c + 1)·w, windows ending by s + m + limit.
        let mut out: Vec<(usize, usize)> = Vec::new();
        for &b in &touched {
            for c in [b.checked_sub(1), Some(b)].into_iter().flatten() {
                if counts[c] + counts[c + 1] < need {
                    continue;
                }
                let lo = (c * w + limit).saturating_sub(m);
                let hi = (c * w + w - 1 + 2 * limit).min(n);
                if lo < hi {
                    out.push((lo, hi));
                }
            }
        }
        for &b in &touched {
            counts[b] = 0;
        }
        out.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(out.len());
        for (lo, hi) in out {
            match merged.last_mut() {
                Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        Some(merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taken_places_cover_their_characters() {
        let mut t = Taken::default();
        assert!(t.insert((2, 5)) && t.insert((8, 10)) && !t.insert((2, 5)));
        assert!(t.overlaps(4, 6) && t.overlaps(0, 3) && t.overlaps(9, 20));
        assert!(!t.overlaps(5, 8) && !t.overlaps(0, 2) && !t.overlaps(10, 12));
        // A place joining both runs.
        assert!(t.insert((4, 9)));
        assert!(t.overlaps(6, 7) && t.contains((4, 9)) && !t.contains((2, 10)));
        assert!(!t.overlaps(10, 11));
    }

    #[test]
    fn regions_hold_every_close_window() {
        let text: Vec<char> = "xx Jean-Paul Sartre yy Jean Paul zz".chars().collect();
        let ix = Bigrams::new(&text);
        let p: Vec<char> = "jean paul sartre".chars().collect();
        let lower: Vec<char> = text.iter().flat_map(|c| c.to_lowercase()).collect();
        let ix_lower = Bigrams::new(&lower);
        let mut counts = Vec::new();
        let r = ix_lower.regions(&p, 4, text.len(), &mut counts).unwrap();
        // The window `Jean-Paul Sartre` (3..19) lies in one region.
        assert!(r.iter().any(|&(lo, hi)| lo <= 3 && 19 <= hi), "{r:?}");
        assert!(counts.iter().all(|&c| c == 0));
        // A string sharing no bigram: nothing to search; a loose bound: no filter.
        let q: Vec<char> = "qqqqqq".chars().collect();
        assert_eq!(ix.regions(&q, 1, text.len(), &mut counts), Some(vec![]));
        assert_eq!(ix.regions(&q, 3, text.len(), &mut counts), None);
    }
}
