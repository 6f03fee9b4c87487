//! Pairing two annotators' spans on one text into TP/FP/FN counts per label, the two ways
//! bratiaa counts them:
//! - **instance-based**: a span agrees when the other annotator has a span with the same label
//!   and the same fragments (a set: a span annotated twice counts once);
//! - **token-based**: every fragment of every distinct span (label and fragments; a span
//!   entered twice counts once) is cut into the whitespace tokens it overlaps (a token partly
//!   covered counts whole, an empty fragment covers none), and the (label, token) pieces are
//!   compared as multisets (a token covered by two spans with one label counts twice).
//!
//! The first annotator plays the gold: its unmatched pieces are false negatives. F1 is
//! symmetric, so the order only decides which column holds which count.

use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// The indexes of the tokens (sorted `[start, end)` ranges) that overlap `[start, end)`; an
/// empty range overlaps none (as bratiaa's `overlapping_tokens`): the reference of
/// `overlapping_near`, which the counting uses.
#[cfg(test)]
pub fn overlapping(tokens: &[(usize, usize)], start: usize, end: usize) -> std::ops::Range<usize> {
    if start >= end {
        return 0..0;
    }
    // First token ending after start; tokens starting before end.
    let a = tokens.partition_point(|t| t.1 <= start);
    let b = tokens.partition_point(|t| t.0 < end);
    a..b.max(a)
}

/// `overlapping`, searched outward from token `near` (the answer of a span close by, spans
/// mostly come in text order): a few steps instead of two binary searches over the text.
/// `near` becomes the first token of the answer.
fn overlapping_near(
    tokens: &[(usize, usize)],
    start: usize,
    end: usize,
    near: &mut usize,
) -> std::ops::Range<usize> {
    if start >= end {
        return 0..0;
    }
    let a = partition_near(tokens, *near, |t| t.1 <= start);
    let b = partition_near(tokens, a, |t| t.0 < end);
    *near = a;
    a..b.max(a)
}

/// `v.partition_point(pred)` (`pred` true on a prefix of `v`), found by steps doubling outward
/// from `from`, then a binary search within the last step.
fn partition_near<T>(v: &[T], from: usize, pred: impl Fn(&T) -> bool) -> usize {
    let from = from.min(v.len());
    let mut step = 1;
    if from < v.len() && pred(&v[from]) {
        // The answer is after `from`: every index below `lo` satisfies `pred`.
        let mut lo = from + 1;
        loop {
            let probe = lo + step - 1;
            if probe >= v.len() {
                return lo + v[lo..].partition_point(&pred);
            }
            if !pred(&v[probe]) {
                return lo + v[lo..probe].partition_point(&pred);
            }
            lo = probe + 1;
            step *= 2;
        }
    }
    // The answer is at or before `from`: no index from `hi` on satisfies `pred`.
    let mut hi = from;
    loop {
        if hi == 0 {
            return 0;
        }
        let probe = hi.saturating_sub(step);
        if pred(&v[probe]) {
            return probe + 1 + v[probe + 1..hi].partition_point(&pred);
        }
        hi = probe;
        step *= 2;
    }
}

/// The labels of a set of spans as ids: id order is name order, so sorting by id sorts by
/// name and the hot loops compare integers, not strings.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    names: Vec<String>,
}

impl Labels {
    /// Every label of `spans`.
    pub fn new<'a>(spans: impl IntoIterator<Item = &'a StandoffSpan>) -> Self {
        // A short list searched in order while there are few labels (projects have a
        // handful), a set beyond.
        const LIST_MAX: usize = 16;
        let mut list: Vec<&str> = Vec::new();
        let mut set: BTreeSet<&str> = BTreeSet::new();
        for s in spans {
            let l = s.label.as_str();
            if !set.is_empty() {
                set.insert(l);
            } else if !list.contains(&l) {
                list.push(l);
                if list.len() > LIST_MAX {
                    set.extend(list.drain(..));
                }
            }
        }
        set.extend(list);
        Labels {
            names: set.into_iter().map(str::to_string).collect(),
        }
    }

    /// The id of `label` (`None` for a label not among the spans the set was made of).
    pub fn id(&self, label: &str) -> Option<u32> {
        self.names
            .binary_search_by(|n| n.as_str().cmp(label))
            .ok()
            .map(|i| i as u32)
    }

    /// The name of `id`.
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", String::as_str)
    }

    /// How many labels.
    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// One annotator's spans on one text, prepared once for every pair it is in: its instances
/// (label id and fragments, sorted, each once) and its token pieces (label id, token index and
/// how many times, sorted).
#[derive(Debug, Clone, Default)]
pub struct Pieces<'a> {
    instances: Vec<(u32, &'a [(usize, usize)])>,
    tokens: Vec<(u32, usize, u64)>,
}

impl<'a> Pieces<'a> {
    /// The pieces of `spans` over `tokens` (the text's whitespace tokens); every label of
    /// `spans` must be in `labels`.
    pub fn new(spans: &'a [StandoffSpan], tokens: &[(usize, usize)], labels: &Labels) -> Self {
        let id = |s: &StandoffSpan| labels.id(&s.label).unwrap_or(u32::MAX);
        // Sorted by (label, fragments): as plain tuples of the label and the first fragment,
        // then by every fragment within a run of equal keys holding a span of another number
        // of fragments than one (rare).
        let mut keyed: Vec<(u32, (usize, usize), usize)> = spans
            .iter()
            .enumerate()
            .map(|(k, s)| (id(s), s.fragments.first().copied().unwrap_or((0, 0)), k))
            .collect();
        by_label(&mut keyed, labels.len());
        // Each label's spans in file order: mostly in text order already.
        crate::matching::sort_nearly_sorted(&mut keyed);
        let mut instances: Vec<(u32, &[(usize, usize)])> = keyed
            .iter()
            .map(|&(l, _, k)| (l, spans[k].fragments.as_slice()))
            .collect();
        let mut i = 0;
        while i < keyed.len() {
            let head = (keyed[i].0, keyed[i].1);
            let run = keyed[i..].iter().take_while(|x| (x.0, x.1) == head).count();
            let group = &mut instances[i..i + run];
            if group.iter().any(|x| x.1.len() != 1) {
                group.sort_unstable();
            }
            i += run;
        }
        instances.dedup();
        // From the instances: a span entered twice (same label and fragments) is cut into
        // tokens once, as bratiaa reads a set of annotations.
        let mut raw: Vec<(u32, usize)> = Vec::new();
        let mut near = 0;
        for &(l, fragments) in &instances {
            for &(a, b) in fragments {
                raw.extend(overlapping_near(tokens, a, b, &mut near).map(|t| (l, t)));
            }
        }
        // Already in order unless spans of one label overlap.
        crate::matching::sort_nearly_sorted(&mut raw);
        let mut pieces: Vec<(u32, usize, u64)> = Vec::with_capacity(raw.len());
        for (l, t) in raw {
            match pieces.last_mut() {
                Some(last) if last.0 == l && last.1 == t => last.2 += 1,
                _ => pieces.push((l, t, 1)),
            }
        }
        Pieces {
            instances,
            tokens: pieces,
        }
    }
}

/// Orders `keyed` by label id (stable: each label's items keep their order), counting when
/// the labels (ids below `labels`, or `u32::MAX` for none) are fewer than the items.
fn by_label<T: Copy>(keyed: &mut Vec<(u32, T, usize)>, labels: usize) {
    if labels >= keyed.len() {
        return;
    }
    let slot = |l: u32| (l as usize).min(labels);
    let mut start = vec![0usize; labels + 2];
    for x in keyed.iter() {
        start[slot(x.0) + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut out = keyed.clone();
    for &x in keyed.iter() {
        let at = &mut start[slot(x.0)];
        out[*at] = x;
        *at += 1;
    }
    *keyed = out;
}

/// Walks two sorted lists of `(key, weight)` items, calling `both(label, wa, wb)` for every key
/// (a weight 0 where a list lacks it).
fn merge<K: Ord + Copy>(
    a: impl Iterator<Item = (K, u32, u64)>,
    b: impl Iterator<Item = (K, u32, u64)>,
    mut both: impl FnMut(u32, u64, u64),
) {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    loop {
        match (a.peek().copied(), b.peek().copied()) {
            (None, None) => break,
            (Some((_, l, w)), None) => {
                both(l, w, 0);
                a.next();
            }
            (None, Some((_, l, w))) => {
                both(l, 0, w);
                b.next();
            }
            (Some((ka, la, wa)), Some((kb, lb, wb))) => match ka.cmp(&kb) {
                std::cmp::Ordering::Less => {
                    both(la, wa, 0);
                    a.next();
                }
                std::cmp::Ordering::Greater => {
                    both(lb, 0, wb);
                    b.next();
                }
                std::cmp::Ordering::Equal => {
                    both(la, wa, wb);
                    a.next();
                    b.next();
                }
            },
        }
    }
}

/// Counts of `a` (as gold) against `b` per label, in mode `how`. Only the labels the two
/// have are visited (the pieces are sorted by label id first), never the whole label list:
/// a project of thousands of labels costs its pieces, not labels × documents × pairs.
pub fn counts(a: &Pieces, b: &Pieces, how: Agreement, labels: &Labels) -> LabelCounts {
    let mut by_id: Vec<(u32, [u64; 3])> = Vec::new();
    let mut add = |l: u32, na: u64, nb: u64| {
        if l as usize >= labels.len() {
            return;
        }
        let c = match by_id.last_mut() {
            Some((last, c)) if *last == l => c,
            _ => {
                by_id.push((l, [0; 3]));
                match by_id.last_mut() {
                    Some((_, c)) => c,
                    None => return,
                }
            }
        };
        c[0] += na.min(nb);
        c[1] += nb.saturating_sub(na);
        c[2] += na.saturating_sub(nb);
    };
    match how {
        Agreement::Instance => merge(
            a.instances.iter().map(|&(l, f)| ((l, f), l, 1)),
            b.instances.iter().map(|&(l, f)| ((l, f), l, 1)),
            &mut add,
        ),
        Agreement::Token => merge(
            a.tokens.iter().map(|&(l, t, n)| ((l, t), l, n)),
            b.tokens.iter().map(|&(l, t, n)| ((l, t), l, n)),
            &mut add,
        ),
    }
    by_id
        .into_iter()
        .filter(|(_, c)| c.iter().any(|&x| x > 0))
        .map(|(i, c)| (labels.name(i).to_string(), c))
        .collect()
}

/// Counts of `a` (as gold) against `b` per label, in mode `how` (`tokens`: the whitespace
/// tokens of the text, needed for [`Agreement::Token`]).
#[cfg(test)]
pub fn pair_counts(
    a: &[StandoffSpan],
    b: &[StandoffSpan],
    how: Agreement,
    tokens: &[(usize, usize)],
) -> LabelCounts {
    let labels = Labels::new(a.iter().chain(b));
    counts(
        &Pieces::new(a, tokens, &labels),
        &Pieces::new(b, tokens, &labels),
        how,
        &labels,
    )
}

/// Each token's label for one annotator: the labels of the spans overlapping it, sorted and
/// joined with `|` (a token under two labels gets a label of its own), or `O`.
#[cfg(test)]
pub fn token_labels(spans: &[StandoffSpan], tokens: &[(usize, usize)]) -> Vec<String> {
    let labels = Labels::new(spans);
    let mut names = TokenLabelNames::new(&labels);
    let codes = token_label_codes(spans, tokens, &labels);
    (0..tokens.len())
        .map(|t| names.name(&codes.key(t)).to_string())
        .collect()
}

/// A token's label set as a key: `O` (no label), one label id, or several (ids ascending).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TokenKey {
    /// No span overlaps the token.
    O,
    /// One label.
    One(u32),
    /// Several labels, ids ascending.
    Many(Vec<u32>),
}

/// The label set of each token for one annotator, as one `u32` per token (see
/// [`token_label_codes`]): `0` for `O`, `1 + id` for one label, and `1 + labels + k` for a
/// token under several labels, whose ids are `many[k]` (ascending; one entry per such token,
/// rare). Four bytes a token, no allocation but for the tokens under several labels.
#[derive(Debug, Clone, Default)]
pub struct TokenCodes {
    /// One code per token.
    pub codes: Vec<u32>,
    /// The label ids of the tokens under several labels, by code (less `1 + labels`).
    pub many: Vec<Vec<u32>>,
    /// How many labels (codes of single labels are `1..=labels`).
    pub labels: u32,
}

impl TokenCodes {
    /// The key of token `t` (`O` for a token out of range).
    pub fn key(&self, t: usize) -> TokenKey {
        match self.codes.get(t).copied().unwrap_or(0) {
            0 => TokenKey::O,
            c if c <= self.labels => TokenKey::One(c - 1),
            c => self
                .many
                .get((c - self.labels - 1) as usize)
                .map_or(TokenKey::O, |v| TokenKey::Many(v.clone())),
        }
    }
}

/// The label set of each token for one annotator's `spans` (labels as ids of `labels`; a
/// span whose label `labels` lacks is left out: every label of `spans` should be there).
pub fn token_label_codes(
    spans: &[StandoffSpan],
    tokens: &[(usize, usize)],
    labels: &Labels,
) -> TokenCodes {
    // Codes stay below 2^32: labels and tokens of an input under the 2 GiB cap are fewer.
    let n_labels = u32::try_from(labels.len()).unwrap_or(u32::MAX / 2);
    let mut out = TokenCodes {
        codes: vec![0; tokens.len()],
        many: Vec::new(),
        labels: n_labels,
    };
    let mut near = 0;
    for s in spans {
        let Some(l) = labels.id(&s.label) else {
            continue;
        };
        for &(a, b) in &s.fragments {
            for t in overlapping_near(tokens, a, b, &mut near) {
                match out.codes[t] {
                    0 => out.codes[t] = l + 1,
                    c if c == l + 1 => {}
                    c if c <= n_labels => {
                        let x = c - 1;
                        out.codes[t] = n_labels + 1 + out.many.len() as u32;
                        out.many.push(vec![x.min(l), x.max(l)]);
                    }
                    c => {
                        if let Some(v) = out.many.get_mut((c - n_labels - 1) as usize) {
                            if let Err(i) = v.binary_search(&l) {
                                v.insert(i, l);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Names of token label sets: `O`, the label, or the labels joined with `|`, made once each.
pub struct TokenLabelNames<'l> {
    labels: &'l Labels,
    many: HashMap<Vec<u32>, String>,
}

impl<'l> TokenLabelNames<'l> {
    /// Names over `labels`.
    pub fn new(labels: &'l Labels) -> Self {
        TokenLabelNames {
            labels,
            many: HashMap::new(),
        }
    }

    /// The name of `key`.
    pub fn name(&mut self, key: &TokenKey) -> &str {
        match key {
            TokenKey::O => "O",
            TokenKey::One(l) => self.labels.name(*l),
            TokenKey::Many(v) => {
                let labels = self.labels;
                self.many.entry(v.clone()).or_insert_with(|| {
                    v.iter()
                        .map(|&l| labels.name(l))
                        .collect::<Vec<_>>()
                        .join("|")
                })
            }
        }
    }
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
        assert_eq!(overlapping(&tokens, 3, 3), 0..0);
        // The search from a nearby token finds what the binary searches find, from anywhere.
        let many: Vec<(usize, usize)> = (0..40).map(|i| (3 * i, 3 * i + 2)).collect();
        for near in [0, 1, 7, 20, 39, 40, 1000] {
            for start in 0..125 {
                for end in start..start + 9 {
                    let mut at = near;
                    assert_eq!(
                        overlapping_near(&many, start, end, &mut at),
                        overlapping(&many, start, end),
                        "{start}..{end} from {near}"
                    );
                }
            }
        }
        for near in [0, 1, 2, 5] {
            assert_eq!(overlapping_near(&tokens, 8, 9, &mut { near }), 1..1);
            assert_eq!(overlapping_near(&tokens, 0, 18, &mut { near }), 0..2);
            assert_eq!(overlapping_near(&[], 0, 18, &mut { near }), 0..0);
        }
        // A span entered twice counts once, token-based as instance-based.
        let twice = [span("LOC", &[(0, 8)]), span("LOC", &[(0, 8)])];
        let once = [span("LOC", &[(0, 8)])];
        for how in [Agreement::Instance, Agreement::Token] {
            assert_eq!(
                pair_counts(&twice, &once, how, &tokens).get("LOC"),
                Some(&[1, 0, 0])
            );
        }
        // Two spans of one label over one token count twice (a multiset of pieces).
        let nested = [span("LOC", &[(0, 8)]), span("LOC", &[(0, 18)])];
        let t = pair_counts(&nested, &once, Agreement::Token, &tokens);
        assert_eq!(t.get("LOC"), Some(&[1, 0, 2]));
        // An empty span covers no token.
        let empty = [span("PER", &[(3, 3)])];
        assert_eq!(
            pair_counts(&empty, &[], Agreement::Token, &tokens).get("PER"),
            None
        );
        assert_eq!(
            pair_counts(&empty, &[], Agreement::Instance, &tokens).get("PER"),
            Some(&[0, 0, 1])
        );
        assert_eq!(token_labels(&b, &tokens), vec!["LOC", "LOC"]);
    }
}
