//! Placing a predicted string in its unit's text (`align`, `docs/generative.md`,
//! "Alignment"): the first unused occurrence at word boundaries, exactly, then ignoring case,
//! then (`fuzzy`) the window of the text closest to the string by the number of characters
//! inserted or deleted (its longest common subsequence), within a documented bound; a string
//! found at no word boundary takes its first unused occurrence anywhere. The fuzzy step
//! searches only the stretches of the text its bigrams point to (`windows.rs`), once for each
//! string of a unit.

use std::collections::HashMap;

use super::settings::{Align, FUZZY_PERMILLE};
use super::windows::Bigrams;
pub use super::windows::Taken;
use crate::corpus::standoff::is_py_space;

/// Whether `c` is a word character for the boundaries of a placement.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A character lower-cased where its lower case is one character (else itself), so that
/// positions stay those of the text. Two characters are equal ignoring case when these are.
fn lower1(c: char) -> char {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

/// A window the fuzzy step may take: (distance, start, end).
type Window = (u32, u32, u32);

/// What one pass over the text finds for a string, in the search order: the first unused
/// occurrence at word boundaries (`[0]`) and anywhere (`[1]`), as written and ignoring case.
#[derive(Default)]
struct Found {
    exact: [Option<(usize, usize)>; 2],
    case: [Option<(usize, usize)>; 2],
}

/// One unit's text, held once for every placement in it.
pub struct Placer {
    chars: Vec<char>,
    lower: Vec<char>,
    /// The text's bigrams (lower-cased), made at the first fuzzy search.
    index: Option<Bigrams>,
    /// The windows of each string the fuzzy step searched for (lower-cased): what the text
    /// offers it, whatever is taken; dropped whole when it would hold more windows than the
    /// text has characters.
    seen: HashMap<String, Vec<Window>>,
    seen_windows: usize,
    /// Scratch space: the index's buckets, the search's columns (cost, start).
    counts: Vec<u32>,
    cost: Vec<u32>,
    start: Vec<u32>,
    next_cost: Vec<u32>,
    next_start: Vec<u32>,
    /// The cells the fuzzy search computed (its work, for the bound's tests).
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
            index: None,
            seen: HashMap::new(),
            seen_windows: 0,
            counts: Vec::new(),
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
    /// start). Word boundaries first: exactly, ignoring case, the closest window (`fuzzy`);
    /// then an occurrence anywhere, exactly, then ignoring case. A string longer than the
    /// text (by more than the fuzzy step may delete) is never expanded: it has no place; nor
    /// is a string that found none before in `used` searched again.
    pub fn place(
        &mut self,
        needle: &str,
        align: Align,
        used: &mut Taken,
        from: usize,
    ) -> Option<(usize, usize)> {
        let needle = needle.trim_matches(is_py_space);
        let m = needle.chars().count();
        let slack = match align {
            Align::Fuzzy => m * self.permille as usize / 1000,
            _ => 0,
        };
        let mode = match align {
            Align::Off => return None,
            Align::Exact => 0,
            Align::Case => 1,
            Align::Fuzzy => 2,
        };
        if m == 0 || m > self.chars.len() + slack || used.placeless(mode, needle) {
            return None;
        }
        let chars: Vec<char> = needle.chars().collect();
        let lowered: Vec<char> = match align {
            Align::Exact => Vec::new(),
            _ => chars.iter().map(|&c| lower1(c)).collect(),
        };
        let p = match align {
            Align::Exact => {
                let f = self.scan(&chars, None, true, used, from);
                f.exact[0].or(f.exact[1])
            }
            Align::Case => {
                let f = self.scan(&chars, Some(&lowered), false, used, from);
                f.case[0].or(f.case[1])
            }
            _ => {
                let f = self.scan(&chars, Some(&lowered), true, used, from);
                f.exact[0]
                    .or(f.case[0])
                    .or_else(|| self.fuzzy(&lowered, used, from))
                    .or(f.exact[1])
                    .or(f.case[1])
            }
        };
        match p {
            Some(p) => used.insert(p),
            None => {
                used.no_place(mode, needle);
                false
            }
        };
        p
    }

    /// One pass over the text, from character `from` (then from the text's start): the first
    /// occurrences not `used` yet, as written when `exact`, ignoring case when `lowered` (the
    /// string lower-cased) is given. Stops when nothing better can come.
    fn scan(
        &self,
        needle: &[char],
        lowered: Option<&[char]>,
        exact: bool,
        used: &Taken,
        from: usize,
    ) -> Found {
        let mut f = Found::default();
        let (n, m) = (self.chars.len(), needle.len());
        if m == 0 || m > n {
            return f;
        }
        let last = n - m;
        let from = from.min(last + 1);
        let h = &self.chars;
        for start in (from..=last).chain(0..from) {
            let end = start + m;
            // Equal as written implies equal ignoring case: compared only then.
            let c =
                lowered.is_some_and(|l| self.lower[start] == l[0] && self.lower[start..end] == *l);
            let e = exact
                && (c || lowered.is_none())
                && h[start] == needle[0]
                && h[start..end] == *needle;
            if !(e || c) || used.contains((start, end)) {
                continue;
            }
            let bounded = (start == 0 || !(is_word(h[start - 1]) && is_word(needle[0])))
                && (end == n || !(is_word(h[end]) && is_word(needle[m - 1])));
            let at = Some((start, end));
            if e {
                if bounded {
                    f.exact[0] = f.exact[0].or(at);
                }
                f.exact[1] = f.exact[1].or(at);
            }
            if c {
                if bounded {
                    f.case[0] = f.case[0].or(at);
                }
                f.case[1] = f.case[1].or(at);
            }
            if f.exact[0].is_some() || (!exact && f.case[0].is_some()) {
                break;
            }
        }
        f
    }

    /// The bounded fuzzy step: among the windows of the text that begin and end at word
    /// boundaries, the one whose lower-cased characters are closest to the lower-cased
    /// string `p`, by the number of characters inserted or deleted to turn one into the other
    /// (the string's length plus the window's less twice their longest common subsequence);
    /// accepted when at most [`Placer::permille`] thousandths of the string's characters.
    /// Ties: from `from` on before the text's start, then the leftmost start, then the
    /// leftmost end. For each end only the window the search keeps (the closest; among
    /// equals, a matched character before an extra one) is a candidate; a window overlapping
    /// a place already `used` is refused (an exact or case placement only refuses the same
    /// place). The windows a string may take are searched once per unit, in the stretches the
    /// index points to ([`Bigrams::regions`]).
    fn fuzzy(&mut self, p: &[char], used: &mut Taken, from: usize) -> Option<(usize, usize)> {
        let m = p.len();
        let limit = m * self.permille as usize / 1000;
        if limit == 0 || m > self.chars.len() + limit {
            return None;
        }
        let key: String = p.iter().collect();
        if !self.seen.contains_key(&key) {
            let found = self.windows(p, limit);
            if self.seen_windows + found.len() > self.chars.len() {
                self.seen.clear();
                self.seen_windows = 0;
            }
            self.seen_windows += found.len();
            self.seen.insert(key.clone(), found);
        }
        self.seen
            .get(&key)?
            .iter()
            .filter(|w| !used.overlaps(w.1 as usize, w.2 as usize))
            .min_by_key(|w| (w.0, (w.1 as usize) < from, w.1, w.2))
            .map(|w| (w.1 as usize, w.2 as usize))
    }

    /// Every window of the text within `limit` of `p`, one per end (the search's), in the
    /// stretches the index leaves (the whole text when the bound is too loose to filter).
    fn windows(&mut self, p: &[char], limit: usize) -> Vec<Window> {
        let n = self.chars.len();
        if self.index.is_none() {
            self.index = Some(Bigrams::new(&self.lower));
        }
        let regions = self
            .index
            .as_ref()
            .and_then(|ix| ix.regions(p, limit, n, &mut self.counts))
            .unwrap_or_else(|| vec![(0, n)]);
        let mut out = Vec::new();
        for (lo, hi) in regions {
            self.search(p, limit, lo, hi, &mut out);
        }
        out
    }

    /// The search over characters `[lo, hi)`, windows starting at `lo` or later: one pass
    /// with a column as long as the string, (hi − lo + 1) × (string + 1) cells; each end's
    /// closest window within `limit` goes to `out`.
    fn search(&mut self, p: &[char], limit: usize, lo: usize, hi: usize, out: &mut Vec<Window>) {
        let m = p.len();
        const INF: u32 = u32::MAX / 2;
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
        for i in lo..=hi {
            if i == lo {
                if self.may_start(lo) {
                    nc[0] = 0;
                    ns[0] = lo as u32;
                }
            } else if self.may_start(i) {
                nc[0] = 0;
                ns[0] = i as u32;
            } else {
                nc[0] = cost[0].saturating_add(1).min(INF);
                ns[0] = start[0];
            }
            let t = if i > lo {
                Some(self.lower[i - 1])
            } else {
                None
            };
            for j in 1..=m {
                // The text's character matched, the text's character extra, the string's
                // character missing: in this order among equals.
                let mut c = INF;
                let mut s = 0;
                if t == Some(p[j - 1]) && cost[j - 1] < c {
                    c = cost[j - 1];
                    s = start[j - 1];
                }
                if i > lo && cost[j] + 1 < c {
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
            if nc[m] as usize <= limit && (ns[m] as usize) < i && self.may_end(i) {
                out.push((nc[m], ns[m], i as u32));
            }
            std::mem::swap(&mut cost, &mut nc);
            std::mem::swap(&mut start, &mut ns);
            nc[0] = INF;
        }
        self.cost = cost;
        self.start = start;
        self.next_cost = nc;
        self.next_start = ns;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str, align: Align) -> Option<(usize, usize)> {
        Placer::new(text).place(needle, align, &mut Taken::default(), 0)
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
        // Strings of fewer than 4 characters are placed exactly (inside a word when no word
        // holds them alone) or not at all; 4 may lose one.
        assert_eq!(at(t, "Obx", Align::Fuzzy), None);
        let p = at(t, "Oba", Align::Fuzzy).unwrap();
        assert_eq!(slice(t, p), "Oba");
        assert_eq!(p, (21, 24));
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
        // A word's beginning: exact and case placement take it inside the word (no word
        // holds it alone), fuzzy placement takes the whole word (a window at word boundaries
        // comes first).
        assert_eq!(at(t, "Zürichbe", Align::Case), Some((14, 22)));
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
        let mut used = Taken::default();
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
        let p = pl.place("Jean_Paul", Align::Fuzzy, &mut Taken::default(), 0);
        assert_eq!(p, Some((0, 9)));
        let p = pl.place("Jean_Paul", Align::Fuzzy, &mut Taken::default(), 10);
        assert_eq!(p, Some((14, 23)));
    }

    #[test]
    fn the_index_finds_the_windows_of_a_whole_pass() {
        // Random texts of a small alphabet (many close windows), strings cut from them and
        // changed a little: the stretches the index leaves hold every window a pass over the
        // whole text finds, each end with the same start and distance.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |k: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k as u64) as usize
        };
        let abc: Vec<char> = "ab cdA-é.".chars().collect();
        let mut found = 0;
        for case in 0..4000 {
            let n = 4 + next(80);
            let text: Vec<char> = (0..n).map(|_| abc[next(abc.len())]).collect();
            let a = next(n);
            let mut p: Vec<char> = text[a..(a + 4 + next(20)).min(n)].to_vec();
            for _ in 0..next(4) {
                let i = next(p.len() + 1);
                match next(3) {
                    0 => p.insert(i, abc[next(abc.len())]),
                    1 if i < p.len() => {
                        p.remove(i);
                    }
                    _ if i < p.len() => p[i] = abc[next(abc.len())],
                    _ => {}
                }
            }
            let p: Vec<char> = p.into_iter().map(lower1).collect();
            let permille = [250, 100, 400, 500, 1000][case % 5];
            let limit = p.len() * permille / 1000;
            if limit == 0 {
                continue;
            }
            let text: String = text.into_iter().collect();
            let mut pl = Placer::new(&text);
            let mut got = pl.windows(&p, limit);
            let mut whole = Vec::new();
            pl.search(&p, limit, 0, n, &mut whole);
            got.sort_unstable();
            whole.sort_unstable();
            assert_eq!(got, whole, "{text:?} {p:?} {permille}");
            found += got.len();
        }
        assert!(found > 1000, "{found} windows: too few to test");
    }

    #[test]
    fn invented_strings_cost_a_small_part_of_a_full_pass() {
        // A long unit with many strings found nowhere: the windows the index leaves are
        // searched, not (text + 1) × (string + 1) cells for each string.
        let mut text = String::new();
        for i in 0..2000 {
            text.push_str(&format!("word{} Paris ", i % 37));
        }
        let n = text.chars().count() as u64;
        let mut pl = Placer::new(&text);
        let mut used = Taken::default();
        let mut full = 0u64;
        for k in 0..50 {
            let s = format!("Zorglub number {k}");
            full += (n + 1) * (s.chars().count() as u64 + 1);
            assert_eq!(pl.place(&s, Align::Fuzzy, &mut used, 0), None);
        }
        assert!(pl.work * 20 < full, "{} cells of {full}", pl.work);
        assert!(!used.overlaps(0, usize::MAX));
    }

    #[test]
    fn a_string_said_again_is_not_searched_again() {
        // 200 places within the bound of `Barack Obamma`, said 250 times: the first 200 take
        // them in turn, the 50 others find none; the text is searched once.
        let text = "Barack Obama met Michelle Obama in Chicago. ".repeat(200);
        let mut pl = Placer::new(&text);
        let mut used = Taken::default();
        let mut from = 0;
        let first = pl
            .place("Barack Obamma", Align::Fuzzy, &mut used, from)
            .unwrap();
        let once = pl.work;
        assert!(once > 0);
        from = first.1;
        let mut placed = 1;
        for _ in 1..250 {
            if let Some(p) = pl.place("Barack Obamma", Align::Fuzzy, &mut used, from) {
                assert_eq!(slice(&text, p), "Barack Obama");
                placed += 1;
                from = p.1;
            }
        }
        assert_eq!(placed, 200);
        assert!(
            pl.work <= 2 * once,
            "{} cells after {once} for the first",
            pl.work
        );
    }
}
