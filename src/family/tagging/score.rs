//! Scoring functions for morphosyntactic tags and the scored metrics of a segment (the tagging
//! paper, seed 002: §2.1 full tags and PoS, §2.2 positional accuracy, §2.3 weighted positional
//! accuracy, §2.4 conditional weights, §3.1 scored P/R/F/WC/SC).
//!
//! A tag is a part of speech followed by values, split on the tagset's separator (`:` without
//! a tagset): `subst:sg:nom:n` has the components (pos, subst), (number, sg), (case, nom),
//! (gender, n). With a tagset each value is keyed by the category that lists it (a value no
//! category lists is keyed by itself); without one, by its position (1, 2, …). Two components
//! agree when both tags have the same key with the same value.
//!
//! * `exact`: 1 if the tags are equal strings, else 0;
//! * `pos`: 1 if the parts of speech are equal, else 0;
//! * `positional`: P = agreeing components of t / components of t, R = agreeing components of
//!   g / components of g, score = 2PR/(P + R);
//! * `weighted`: the same with each component weighted (the part of speech by `pos`, a value
//!   by its category's weight), weights taken from the table of the tag's own part of speech
//!   (conditional weights, §2.4: P with the weights of t's PoS, R with those of g's PoS).
//!   Equal tags score 1; a side whose weights sum to 0 has P (or R) 0 otherwise.
//!
//! Components are sorted once per distinct tag, so two tags compare in linear time; tags and
//! cells are interned, and a (gold cell, run cell) pair is scored once and remembered.

use std::collections::HashMap;
use std::ops::Range;

use super::tagset::{Tagset, WeightTable};
use crate::metrics::prf::{fbeta, ratio};

/// The scoring functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// 1 if the tags are equal strings, else 0 (§2.1, full tags).
    Exact,
    /// 1 if the parts of speech are equal, else 0 (§2.1, PoS only).
    Pos,
    /// F of the agreeing components of both tags, keyed by position or category (§2.2).
    Positional,
    /// [`Function::Positional`] with weighted, conditional components (§2.3, §2.4); needs a
    /// tagset with weights.
    Weighted,
}

impl Function {
    /// Every function, in index order (the order of the `[f64; 4]` arrays).
    pub const ALL: [Function; 4] = [
        Function::Exact,
        Function::Pos,
        Function::Positional,
        Function::Weighted,
    ];

    /// The name in reports and JSON: `exact`, `pos`, `positional` or `weighted`.
    pub fn name(self) -> &'static str {
        match self {
            Function::Exact => "exact",
            Function::Pos => "pos",
            Function::Positional => "positional",
            Function::Weighted => "weighted",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Most distinct tags in one cell.
pub const MAX_TAGS: usize = 256;
/// Most components (part of speech included) in one tag.
pub const MAX_COMPONENTS: usize = 64;

/// Why a cell cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellError {
    /// An empty tag (`a||b`, a leading or trailing `|`).
    EmptyTag,
    /// More than [`MAX_TAGS`] distinct tags.
    TooManyTags(usize),
    /// A tag of more than [`MAX_COMPONENTS`] components.
    TooManyComponents(usize),
}

impl std::fmt::Display for CellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellError::EmptyTag => write!(f, "an empty tag (tags are separated by |)"),
            CellError::TooManyTags(n) => {
                write!(f, "{n} distinct tags in one cell (at most {MAX_TAGS})")
            }
            CellError::TooManyComponents(n) => {
                write!(f, "a tag of {n} components (at most {MAX_COMPONENTS})")
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Key<'a> {
    Pos,
    Position(u32),
    Category(u32),
    Value(&'a str),
}

#[derive(Debug, Clone, Copy)]
struct Component<'a> {
    key: Key<'a>,
    value: &'a str,
    weight: f64,
}

impl<'a> Component<'a> {
    fn kv(&self) -> (Key<'a>, &'a str) {
        (self.key, self.value)
    }
}

#[derive(Debug, Clone)]
struct TagInfo<'a> {
    pos: &'a str,
    /// The tag set does not know its part of speech or one of its values.
    outside: bool,
    comps: Range<usize>,
    total_weight: f64,
}

/// Tags split into components, interned by their text.
#[derive(Debug)]
pub struct TagScorer<'a, 't> {
    tagset: Option<&'t Tagset>,
    separator: &'t str,
    tags: Vec<TagInfo<'a>>,
    comps: Vec<Component<'a>>,
    ids: HashMap<&'a str, u32>,
    /// Values (components after the part of speech) of the distinct tags, and how many of
    /// them a category of the tagset lists.
    values: (u64, u64),
}

/// Agreement of two tags.
struct Agreement {
    /// Agreeing components of t and of g (counted on each side).
    at: u32,
    ag: u32,
    /// Their weights (t's weights for t, g's for g).
    xt: f64,
    xg: f64,
}

impl<'a, 't> TagScorer<'a, 't> {
    /// Without a tagset tags split on `:` and values are keyed by position.
    pub fn new(tagset: Option<&'t Tagset>) -> Self {
        TagScorer {
            tagset,
            separator: tagset.map_or(":", |t| t.separator.as_str()),
            tags: Vec::new(),
            comps: Vec::new(),
            ids: HashMap::new(),
            values: (0, 0),
        }
    }

    /// The values of the distinct tags interned so far (the components after the part of
    /// speech), and how many of them a category of the tagset lists (0 without a tagset).
    pub fn values_listed(&self) -> (u64, u64) {
        self.values
    }

    /// True when the tagset gives weights (and so the `weighted` function).
    pub fn has_weights(&self) -> bool {
        self.tagset.is_some_and(|t| t.weights.is_some())
    }

    /// The id of a tag (split into components on first sight). Errs on an empty tag or one of
    /// more than `MAX_COMPONENTS` components.
    pub fn intern(&mut self, tag: &'a str) -> Result<u32, CellError> {
        if let Some(&id) = self.ids.get(tag) {
            return Ok(id);
        }
        if tag.is_empty() {
            return Err(CellError::EmptyTag);
        }
        let mut parts = tag.split(self.separator);
        let pos = parts.next().unwrap_or("");
        let weights = self.tagset.and_then(|t| t.weights.as_ref());
        let table: Option<&WeightTable> = weights.map(|w| w.for_pos(pos));
        // Weights are summed at the unit scale, so that no sum overflows.
        let scale = weights.map_or(1.0, |w| w.scale());
        let start = self.comps.len();
        self.comps.push(Component {
            key: Key::Pos,
            value: pos,
            weight: table.map_or(1.0, |t| t.pos * scale),
        });
        for (i, value) in parts.enumerate() {
            if i + 2 > MAX_COMPONENTS {
                let n = 2 + i + tag.split(self.separator).skip(i + 2).count();
                self.comps.truncate(start);
                return Err(CellError::TooManyComponents(n));
            }
            let (key, weight) = match self.tagset {
                None => (Key::Position(i as u32 + 1), 1.0),
                Some(ts) => match ts.category_of(value) {
                    Some(c) => (
                        Key::Category(c),
                        table.map_or(1.0, |t| t.categories[c as usize] * scale),
                    ),
                    None => (Key::Value(value), table.map_or(1.0, |t| t.default * scale)),
                },
            };
            self.comps.push(Component { key, value, weight });
        }
        let comps = &mut self.comps[start..];
        self.values.0 += comps.len() as u64 - 1;
        self.values.1 += comps
            .iter()
            .filter(|c| matches!(c.key, Key::Category(_)))
            .count() as u64;
        comps.sort_by(|a, b| a.kv().cmp(&b.kv()));
        let total_weight = comps.iter().map(|c| c.weight).sum();
        let id = self.tags.len() as u32;
        self.tags.push(TagInfo {
            pos,
            outside: self.tagset.is_some_and(|ts| ts.outside(tag).is_some()),
            comps: start..self.comps.len(),
            total_weight,
        });
        self.ids.insert(tag, id);
        Ok(id)
    }

    fn agreement(&self, t: u32, g: u32) -> Agreement {
        let a = &self.comps[self.tags[t as usize].comps.clone()];
        let b = &self.comps[self.tags[g as usize].comps.clone()];
        let mut r = Agreement {
            at: 0,
            ag: 0,
            xt: 0.0,
            xg: 0.0,
        };
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].kv().cmp(&b[j].kv()) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let kv = a[i].kv();
                    while i < a.len() && a[i].kv() == kv {
                        r.at += 1;
                        r.xt += a[i].weight;
                        i += 1;
                    }
                    while j < b.len() && b[j].kv() == kv {
                        r.ag += 1;
                        r.xg += b[j].weight;
                        j += 1;
                    }
                }
            }
        }
        r
    }

    /// Precision and recall of tag `t` (assigned) against tag `g` (gold) under a function.
    /// For `exact` and `pos` both are the score.
    pub fn pr(&self, f: Function, t: u32, g: u32) -> (f64, f64) {
        if t == g {
            return (1.0, 1.0);
        }
        let (ti, gi) = (&self.tags[t as usize], &self.tags[g as usize]);
        match f {
            Function::Exact => (0.0, 0.0),
            Function::Pos => {
                let s = if ti.pos == gi.pos { 1.0 } else { 0.0 };
                (s, s)
            }
            Function::Positional => {
                let a = self.agreement(t, g);
                (
                    ratio(a.at as f64, ti.comps.len() as f64),
                    ratio(a.ag as f64, gi.comps.len() as f64),
                )
            }
            Function::Weighted => {
                let a = self.agreement(t, g);
                (ratio(a.xt, ti.total_weight), ratio(a.xg, gi.total_weight))
            }
        }
    }

    /// The score of `t` against `g` under every function, indexed like [`Function::ALL`]
    /// (`weighted` is 0 without weights, unless the tags are equal).
    pub fn scores(&self, t: u32, g: u32) -> [f64; 4] {
        if t == g {
            return [1.0; 4];
        }
        let (ti, gi) = (&self.tags[t as usize], &self.tags[g as usize]);
        let pos = if ti.pos == gi.pos { 1.0 } else { 0.0 };
        let a = self.agreement(t, g);
        // F of P = at/|t| and R = ag/|g| in one division: 2·at·ag / (at·|g| + ag·|t|).
        let (at, ag) = (a.at as f64, a.ag as f64);
        let positional = ratio(
            2.0 * at * ag,
            at * gi.comps.len() as f64 + ag * ti.comps.len() as f64,
        );
        let weighted = if self.has_weights() {
            fbeta(
                ratio(a.xt, ti.total_weight),
                ratio(a.xg, gi.total_weight),
                1.0,
            )
        } else {
            0.0
        };
        [0.0, pos, positional, weighted]
    }

    /// The score of `t` against `g` under one function.
    pub fn score(&self, f: Function, t: u32, g: u32) -> f64 {
        self.scores(t, g)[f.index()]
    }
}

/// The contribution of one segment (i) to the §3.1 metrics, per function (indexed like
/// [`Function::ALL`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SegmentScores {
    /// |T_i|: distinct tags of the run cell.
    pub pred_tags: u32,
    /// |G_i|: distinct tags of the gold cell.
    pub gold_tags: u32,
    /// Σ_{t∈T_i} score(t, G_i).
    pub p_sum: [f64; 4],
    /// Σ_{g∈G_i} score(g, T_i).
    pub r_sum: [f64; 4],
    /// max_{t∈T_i} score(t, G_i).
    pub wc: [f64; 4],
    /// min({score(t, G_i)} ∪ {score(g, T_i)}).
    pub sc: [f64; 4],
}

/// Sums over segments.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TagTotals {
    /// Segments added (n).
    pub segments: u64,
    /// Σ_i |T_i|.
    pub pred_tags: u64,
    /// Σ_i |G_i|.
    pub gold_tags: u64,
    /// Σ_i of [`SegmentScores::p_sum`], per function.
    pub p_sum: [f64; 4],
    /// Σ_i of [`SegmentScores::r_sum`], per function.
    pub r_sum: [f64; 4],
    /// Σ_i of [`SegmentScores::wc`], per function.
    pub wc_sum: [f64; 4],
    /// Σ_i of [`SegmentScores::sc`], per function.
    pub sc_sum: [f64; 4],
}

impl TagTotals {
    /// Adds one segment.
    pub fn add(&mut self, s: &SegmentScores) {
        self.segments += 1;
        self.pred_tags += u64::from(s.pred_tags);
        self.gold_tags += u64::from(s.gold_tags);
        let add =
            |sum: &mut [f64; 4], x: &[f64; 4]| sum.iter_mut().zip(x).for_each(|(a, b)| *a += b);
        add(&mut self.p_sum, &s.p_sum);
        add(&mut self.r_sum, &s.r_sum);
        add(&mut self.wc_sum, &s.wc);
        add(&mut self.sc_sum, &s.sc);
    }
}

/// Which cell of a segment a [`CellError`] is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellSide {
    /// The gold cell.
    Gold,
    /// The run's cell.
    Pred,
}

/// Scores segments given as cells (`tag|tag|…`), remembering cells and cell pairs.
#[derive(Debug)]
pub struct CellScorer<'a, 't> {
    /// The tags of every cell seen so far.
    pub tags: TagScorer<'a, 't>,
    cell_ids: HashMap<&'a str, u32>,
    cell_tags: Vec<u32>,
    cells: Vec<Range<usize>>,
    /// Per cell: one of its tags is outside the tag set.
    cell_outside: Vec<bool>,
    /// Whether the gold and the run cell of the last segment had a tag outside the tag set.
    last_outside: (bool, bool),
    memo: HashMap<(u32, u32), SegmentScores>,
    /// Scores of the current pair matrix, row-major (t, g).
    scratch: Vec<[f64; 4]>,
}

impl<'a, 't> CellScorer<'a, 't> {
    /// An empty scorer; `tagset` as for [`TagScorer::new`].
    pub fn new(tagset: Option<&'t Tagset>) -> Self {
        CellScorer {
            tags: TagScorer::new(tagset),
            cell_ids: HashMap::new(),
            cell_tags: Vec::new(),
            cells: Vec::new(),
            cell_outside: Vec::new(),
            last_outside: (false, false),
            memo: HashMap::new(),
            scratch: Vec::new(),
        }
    }

    /// The id of a cell: its distinct tags, in order of first appearance. Errs like
    /// [`TagScorer::intern`] on any tag, or on more than [`MAX_TAGS`] distinct tags.
    pub fn intern_cell(&mut self, cell: &'a str) -> Result<u32, CellError> {
        if let Some(&id) = self.cell_ids.get(cell) {
            return Ok(id);
        }
        let start = self.cell_tags.len();
        for tag in cell.split('|') {
            let id = match self.tags.intern(tag) {
                Ok(id) => id,
                Err(e) => {
                    self.cell_tags.truncate(start);
                    return Err(e);
                }
            };
            if !self.cell_tags[start..].contains(&id) {
                if self.cell_tags.len() - start >= MAX_TAGS {
                    let mut distinct: Vec<&str> = cell.split('|').collect();
                    distinct.sort_unstable();
                    distinct.dedup();
                    self.cell_tags.truncate(start);
                    return Err(CellError::TooManyTags(distinct.len()));
                }
                self.cell_tags.push(id);
            }
        }
        let id = self.cells.len() as u32;
        let outside = self.cell_tags[start..]
            .iter()
            .any(|&t| self.tags.tags[t as usize].outside);
        self.cell_outside.push(outside);
        self.cells.push(start..self.cell_tags.len());
        self.cell_ids.insert(cell, id);
        Ok(id)
    }

    /// Whether the gold cell and the run cell of the last [`CellScorer::segment`] hold a tag
    /// outside the tag set ([`Tagset::outside`]; never without a tag set).
    pub fn last_outside(&self) -> (bool, bool) {
        self.last_outside
    }

    /// The scores of one segment: gold cell against run cell (computed once per distinct
    /// pair). Errs with the side of the first bad cell, the gold checked first.
    pub fn segment(
        &mut self,
        gold: &'a str,
        pred: &'a str,
    ) -> Result<SegmentScores, (CellSide, CellError)> {
        let g = self.intern_cell(gold).map_err(|e| (CellSide::Gold, e))?;
        let p = self.intern_cell(pred).map_err(|e| (CellSide::Pred, e))?;
        self.last_outside = (self.cell_outside[g as usize], self.cell_outside[p as usize]);
        if let Some(s) = self.memo.get(&(g, p)) {
            return Ok(*s);
        }
        let s = self.compute(g, p);
        self.memo.insert((g, p), s);
        Ok(s)
    }

    fn compute(&mut self, g: u32, p: u32) -> SegmentScores {
        let gt = &self.cell_tags[self.cells[g as usize].clone()];
        let pt = &self.cell_tags[self.cells[p as usize].clone()];
        let (nt, ng) = (pt.len(), gt.len());
        self.scratch.clear();
        for &t in pt {
            for &gg in gt {
                self.scratch.push(self.tags.scores(t, gg));
            }
        }
        let m = &self.scratch;
        let mut s = SegmentScores {
            pred_tags: nt as u32,
            gold_tags: ng as u32,
            ..SegmentScores::default()
        };
        for f in Function::ALL {
            let (p_sum, r_sum, wc, sc) = reduce(m, nt, ng, f as usize);
            let i = f as usize;
            s.p_sum[i] = p_sum;
            s.r_sum[i] = r_sum;
            s.wc[i] = wc;
            s.sc[i] = sc;
        }
        s
    }
}

/// Σ_t score(t, G), Σ_g score(g, T), max_t score(t, G) and the minimum of all these best
/// scores, for function `f` of a row-major |T| × |G| score matrix.
fn reduce(m: &[[f64; 4]], nt: usize, ng: usize, f: usize) -> (f64, f64, f64, f64) {
    let (mut p_sum, mut r_sum, mut wc) = (0.0f64, 0.0f64, 0.0f64);
    let mut sc = f64::INFINITY;
    for i in 0..nt {
        let best = m[i * ng..(i + 1) * ng]
            .iter()
            .map(|x| x[f])
            .fold(0.0, f64::max);
        p_sum += best;
        wc = wc.max(best);
        sc = sc.min(best);
    }
    for j in 0..ng {
        let best = (0..nt).map(|i| m[i * ng + j][f]).fold(0.0, f64::max);
        r_sum += best;
        sc = sc.min(best);
    }
    (p_sum, r_sum, wc, if sc.is_finite() { sc } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn positional_by_position_and_by_category() {
        let mut s = TagScorer::new(None);
        let t = s.intern("siebie:acc").unwrap();
        let g = s.intern("subst:sg:acc:m1").unwrap();
        assert_eq!(s.pr(Function::Positional, t, g), (0.0, 0.0));
        let ts = Tagset::preset("nkjp").unwrap();
        let mut s = TagScorer::new(Some(&ts));
        let t = s.intern("siebie:acc").unwrap();
        let g = s.intern("subst:sg:acc:m1").unwrap();
        assert_eq!(s.pr(Function::Positional, t, g), (0.5, 0.25));
        assert_eq!(s.score(Function::Positional, t, g), 1.0 / 3.0);
    }

    #[test]
    fn segment_metrics() {
        let ts = Tagset::parse(Path::new("t.toml"), "").unwrap();
        let mut c = CellScorer::new(Some(&ts));
        // Gold two tags, run one of them and another.
        let s = c.segment("a:x|b:y", "a:x|c:y|a:x").unwrap();
        assert_eq!((s.pred_tags, s.gold_tags), (2, 2));
        let exact = Function::Exact as usize;
        assert_eq!(s.p_sum[exact], 1.0);
        assert_eq!(s.r_sum[exact], 1.0);
        assert_eq!(s.wc[exact], 1.0);
        assert_eq!(s.sc[exact], 0.0);
        let pos = Function::Positional as usize;
        // c:y against b:y: value y keyed by itself agrees: P = R = 1/2.
        assert_eq!(s.p_sum[pos], 1.5);
        assert_eq!(s.sc[pos], 0.5);
        assert_eq!(
            c.segment("a||b", "a"),
            Err((CellSide::Gold, CellError::EmptyTag))
        );
    }
}
