//! Placing a predicted string in its unit's text (`align`, `docs/generative.md`,
//! "Alignment"): the first unused occurrence at word boundaries, exactly, then ignoring case,
//! then (`fuzzy`) the window of the text closest to the string by the number of characters
//! inserted or deleted (its longest common subsequence), within a documented bound.

use std::collections::HashSet;

use super::settings::{Align, FUZZY_PERMILLE};
use crate::corpus::standoff::is_py_space;

/// Whether `c` is a word character for the boundaries of a placement.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A character lower-cased where its lower case is one character (else itself), so that
/// positions stay those of the text.
fn lower1(c: char) -> char {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

/// One unit's text, held once for every placement in it.
pub struct Placer {
    chars: Vec<char>,
    lower: Vec<char>,
    /// The fuzzy search's columns (cost, start), reused from one string to the next.
    cost: Vec<usize>,
    start: Vec<usize>,
    next_cost: Vec<usize>,
    next_start: Vec<usize>,
    /// The cells the fuzzy search computed (its work, for the bound's test).
    pub work: u64,
    /// The share of a string's characters the fuzzy step may insert or delete, in
    /// thousandths ([`FUZZY_PERMILLE`] unless set).
    pub permille: u32,
}

impl Placer {
    /// The placer of `text`.
    pub fn new(text: &str) -> Placer {
        let chars: Vec<char> = text.chars().collect();
        let lower = chars.iter().map(|&c| lower1(c)).collect();
        Placer {
            chars,
            lower,
            cost: Vec::new(),
            start: Vec::new(),
            next_cost: Vec::new(),
            next_start: Vec::new(),
            work: 0,
            permille: FUZZY_PERMILLE,
        }
    }

    /// Whether a placement may begin at character `s`: not white space, and not inside a word.
    fn may_start(&self, s: usize) -> bool {
        let h = &self.chars;
        s < h.len() && !h[s].is_whitespace() && (s == 0 || !(is_word(h[s - 1]) && is_word(h[s])))
    }

    /// Whether a placement may end before character `e`: not after white space, and not inside
    /// a word.
    fn may_end(&self, e: usize) -> bool {
        let h = &self.chars;
        e > 0
            && e <= h.len()
            && !h[e - 1].is_whitespace()
            && (e == h.len() || !(is_word(h[e - 1]) && is_word(h[e])))
    }

    /// Places `needle` (outer white space stripped) by `align`, refusing places already
    /// `used` and recording the one taken; offsets in characters. `from`: where the previous
    /// placed mention of the answer ended (the search goes on from there, then from the
    /// start).
    pub fn place(
        &mut self,
        needle: &str,
        align: Align,
        used: &mut HashSet<(usize, usize)>,
        from: usize,
    ) -> Option<(usize, usize)> {
        let needle: Vec<char> = needle.trim_matches(is_py_space).chars().collect();
        match align {
            Align::Off => None,
            Align::Exact => self.scan(&needle, false, used, from),
            Align::Case => self.scan(&needle, true, used, from),
            Align::Fuzzy => self
                .scan(&needle, false, used, from)
                .or_else(|| self.scan(&needle, true, used, from))
                .or_else(|| self.fuzzy(&needle, used, from)),
        }
    }

    /// The first occurrence, left to right from character `from` (then from the text's
    /// start), that begins and ends at word boundaries and is not `used` yet (exactly, or
    /// ignoring case).
    fn scan(
        &self,
        needle: &[char],
        ignore_case: bool,
        used: &mut HashSet<(usize, usize)>,
        from: usize,
    ) -> Option<(usize, usize)> {
        let hay = &self.chars;
        let (n, m) = (hay.len(), needle.len());
        if m == 0 || m > n {
            return None;
        }
        let same =
            |a: char, b: char| a == b || (ignore_case && a.to_lowercase().eq(b.to_lowercase()));
        let last = n - m;
        for start in (from.min(last + 1)..=last).chain(0..from.min(last + 1)) {
            let end = start + m;
            if !hay[start..end]
                .iter()
                .zip(needle)
                .all(|(&a, &b)| same(a, b))
            {
                continue;
            }
            let left = start == 0 || !(is_word(hay[start - 1]) && is_word(needle[0]));
            let right = end == n || !(is_word(hay[end]) && is_word(needle[m - 1]));
            if left && right && used.insert((start, end)) {
                return Some((start, end));
            }
        }
        None
    }

    /// The bounded fuzzy step: among the windows of the text that begin and end at word
    /// boundaries, the one whose lower-cased characters are closest to the lower-cased
    /// string, by the number of characters inserted or deleted to turn one into the other
    /// (the string's length plus the window's less twice their longest common subsequence);
    /// accepted when at most [`Placer::permille`] thousandths of the string's characters. Ties: from
    /// `from` on before the text's start, then the leftmost start, then the leftmost end.
    /// For each end only the window the search keeps (the closest; among equals, a matched
    /// character before an extra one) is a candidate; a window overlapping a place already
    /// `used` is refused (an exact or case placement only refuses the same place). One pass over the text
    /// with a column of the string's length: (text + 1) × (string + 1) cells.
    fn fuzzy(
        &mut self,
        needle: &[char],
        used: &mut HashSet<(usize, usize)>,
        from: usize,
    ) -> Option<(usize, usize)> {
        let m = needle.len();
        let limit = m * self.permille as usize / 1000;
        if limit == 0 {
            return None;
        }
        let p: Vec<char> = needle.iter().map(|&c| lower1(c)).collect();
        let n = self.chars.len();
        const INF: usize = usize::MAX / 2;
        // cost[j]: the fewest insertions and deletions turning p[..j] into a window t[s..i)
        // with s a permitted start; start[j]: that s.
        let (mut cost, mut start) = (
            std::mem::take(&mut self.cost),
            std::mem::take(&mut self.start),
        );
        let (mut nc, mut ns) = (
            std::mem::take(&mut self.next_cost),
            std::mem::take(&mut self.next_start),
        );
        for v in [&mut cost, &mut nc] {
            v.clear();
            v.resize(m + 1, INF);
        }
        for v in [&mut start, &mut ns] {
            v.clear();
            v.resize(m + 1, 0);
        }
        let mut best: Option<(usize, bool, usize, usize)> = None;
        for i in 0..=n {
            if i == 0 {
                if self.may_start(0) {
                    nc[0] = 0;
                    ns[0] = 0;
                }
            } else if self.may_start(i) {
                nc[0] = 0;
                ns[0] = i;
            } else {
                nc[0] = cost[0].saturating_add(1).min(INF);
                ns[0] = start[0];
            }
            let t = if i > 0 { Some(self.lower[i - 1]) } else { None };
            for j in 1..=m {
                // The text's character matched, the text's character extra, the string's
                // character missing: in this order among equals.
                let mut c = INF;
                let mut s = 0;
                if t == Some(p[j - 1]) && cost[j - 1] < c {
                    c = cost[j - 1];
                    s = start[j - 1];
                }
                if i > 0 && cost[j] + 1 < c {
                    c = cost[j] + 1;
                    s = start[j];
                }
                if nc[j - 1] + 1 < c {
                    c = nc[j - 1] + 1;
                    s = ns[j - 1];
                }
                nc[j] = c.min(INF);
                ns[j] = s;
            }
            self.work += (m + 1) as u64;
            if nc[m] <= limit && ns[m] < i && self.may_end(i) {
                let cand = (nc[m], ns[m] < from, ns[m], i);
                let overlaps = |s: usize| used.iter().any(|&(a, b)| a < i && s < b);
                if best.is_none_or(|b| cand < b) && !overlaps(ns[m]) {
                    best = Some(cand);
                }
            }
            std::mem::swap(&mut cost, &mut nc);
            std::mem::swap(&mut start, &mut ns);
            nc[0] = INF;
        }
        self.cost = cost;
        self.start = start;
        self.next_cost = nc;
        self.next_start = ns;
        let (_, _, s, e) = best?;
        used.insert((s, e));
        Some((s, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str, align: Align) -> Option<(usize, usize)> {
        Placer::new(text).place(needle, align, &mut HashSet::new(), 0)
    }

    /// The slice of `text` between character offsets.
    fn slice(text: &str, (a, b): (usize, usize)) -> String {
        text.chars().skip(a).take(b - a).collect()
    }

    #[test]
    fn each_step_in_turn() {
        let t = "The president Barack Obama, Jr. met BARACK OBAMA in Honolulu.";
        // Exact first, even when a case variant comes earlier.
        let p = at(t, "BARACK OBAMA", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "BARACK OBAMA");
        // Case-insensitive next: the first occurrence ignoring case.
        let p = at(t, "barack obama", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "Barack Obama");
        // Fuzzy: the comma and full stop dropped by the model (2 of 15 characters).
        let p = at(t, "Barack Obama Jr", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "Barack Obama, Jr");
        assert_eq!(at(t, "Barack Obama Jr", Align::Case), None);
        // A subsequence: the text adds characters (one in four at most).
        let p = at(t, "Honolul", Align::Fuzzy);
        assert_eq!(p.map(|p| slice(t, p)), Some("Honolulu".to_string()));
        // Too far: 5 characters inserted or deleted, 3 allowed for 13.
        assert_eq!(at(t, "Barak Osama X", Align::Fuzzy), None);
        // Strings of fewer than 4 characters are placed exactly or not at all; 4 may lose one.
        assert_eq!(at(t, "Oba", Align::Fuzzy), None);
        let p = at(t, "Obam", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "Obama");
        // A hallucination stays unplaced.
        assert_eq!(at(t, "Zorglub of Xantippe", Align::Fuzzy), None);
    }

    #[test]
    fn fuzzy_keeps_to_word_boundaries_and_unicode_offsets() {
        // "Zürich" misspelt; offsets in characters, not bytes.
        let t = "Émile reçut à Zürichberg puis à Zuerich-Stadt.";
        let p = at(t, "Zurich Stadt", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "Zuerich-Stadt");
        assert_eq!(p, (32, 45));
        // Never inside a word: exact placement refuses a word's beginning, fuzzy placement
        // takes the whole word.
        assert_eq!(at(t, "Zürichbe", Align::Case), None);
        let p = at(t, "Zürichbe", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "Zürichberg");
        // A changed letter costs two (one deleted, one inserted): 2 allowed for 11.
        let p = at(t, "emile reçut", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "Émile reçut");
        assert_eq!(at(t, "emile recut", Align::Fuzzy), None);
    }

    #[test]
    fn a_string_twice_takes_both_places_then_none() {
        let t = "New-York and New York; then Newark";
        let mut pl = Placer::new(t);
        let mut used = HashSet::new();
        let a = pl.place("New York", Align::Fuzzy, &mut used, 0).unwrap();
        let b = pl.place("New York", Align::Fuzzy, &mut used, a.1).unwrap();
        let c = pl.place("New York", Align::Fuzzy, &mut used, b.1);
        assert_eq!(slice(t, a), "New York");
        assert_eq!(slice(t, b), "New-York");
        assert_eq!(c, None);
        // Never overlapping a place taken: `New York;` is refused after `New York`.
        // Ties go to the leftmost window from `from` on: two equally close places.
        let t = "Jean-Paul met Jean Paul";
        let mut pl = Placer::new(t);
        let p = pl.place("Jean_Paul", Align::Fuzzy, &mut HashSet::new(), 0);
        assert_eq!(p, Some((0, 9)));
        let p = pl.place("Jean_Paul", Align::Fuzzy, &mut HashSet::new(), 10);
        assert_eq!(p, Some((14, 23)));
    }

    #[test]
    fn the_fuzzy_work_is_bounded_by_text_times_string() {
        // A long unit with many strings found nowhere: each costs one pass of
        // (text + 1) × (string + 1) cells, whatever the text holds.
        let mut text = String::new();
        for i in 0..2000 {
            text.push_str(&format!("word{} Paris ", i % 37));
        }
        let n = text.chars().count() as u64;
        let mut pl = Placer::new(&text);
        let mut used = HashSet::new();
        let mut want = 0u64;
        for k in 0..50 {
            let s = format!("Zorglub number {k}");
            let m = s.chars().count() as u64;
            assert_eq!(pl.place(&s, Align::Fuzzy, &mut used, 0), None);
            want += (n + 1) * (m + 1);
        }
        assert_eq!(pl.work, want);
        assert!(used.is_empty());
    }
}
