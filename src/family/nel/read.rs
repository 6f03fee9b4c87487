//! The nel family's options, its link mentions and the per-document counts of neleval's
//! measures and error labels (`docs/nel.md`), shared by its readers: HIPE TSV and CoNLL with
//! a link column (`tokens.rs`), brat with normalizations (`brat.rs`).

use std::fmt::Write as _;

use super::super::options::switch;
use super::super::{Options, Statistics};
use crate::error::{snippet, Error, Result};
use crate::eval::options::parse_n_best;
use crate::formats::InputFormat;
use crate::spans::{Span, Spans};
use crate::table::Unit;

/// The options the nel family declares of its own (beside the common `column`, `format` and
/// `beta`), named as the hipe family names them where it has them.
pub const OWN_OPTIONS: &[&str] = &["n_best", "original_nel", "ne_column", "link_labels"];
/// neleval's measures, in the order of the tables (`neleval/configs.py`, `MEASURES`).
pub const MEASURES: [&str; 6] = [
    "strong_mention_match",
    "strong_link_match",
    "strong_nil_match",
    "strong_all_match",
    "strong_typed_all_match",
    "entity_match",
];

/// neleval's error labels (`neleval/analyze.py`, `LinkingError.label`), in table order.
pub const LABELS: [&str; 7] = [
    "correct link",
    "correct nil",
    "nil-as-link",
    "link-as-nil",
    "wrong-link",
    "extra",
    "missing",
];

/// Numbers per cutoff in a unit: TP, FP, FN of each measure.
pub const PER_CUTOFF: usize = MEASURES.len() * 3;

/// The header of the mention listing.
pub const LISTING_HEADER: &str =
    "document\tline\tend_line\ttext\tgold_type\tgold_link\trun_type\trun_link\terror\n";

/// The nel family's settings, parsed.
#[derive(Debug, Clone)]
pub struct NelOptions {
    /// The format given (`None`: told from the gold file).
    pub format: Option<InputFormat>,
    /// The link column as given: HIPE `NEL-LIT` (default) or `NEL-METO`; CoNLL a name or a
    /// 1-based number (default the last column).
    pub column: Option<String>,
    /// CoNLL: the NE tag column, a name or a 1-based number (default the one before the link
    /// column).
    pub ne_column: Option<String>,
    /// brat: the labels of the `T` spans that are mentions (`None`: every label).
    pub link_labels: Option<Vec<String>>,
    /// The n-best cutoffs (1 unless `n_best` says otherwise), in the order given.
    pub cutoffs: Vec<usize>,
    /// Links grouped as consecutive tokens with the same link (`--original_nel`).
    pub original_nel: bool,
    /// Make the mention listing.
    pub listing: bool,
}

impl NelOptions {
    /// Parses the family's options.
    pub fn parse(opts: &Options, format: Option<InputFormat>) -> Result<NelOptions> {
        let cutoffs = match opts.own("n_best") {
            Some(n) => parse_n_best(n)?,
            None => vec![1],
        };
        let original_nel = match opts.own("original_nel") {
            Some(v) => switch("original_nel", v)?,
            None => false,
        };
        let link_labels = opts.own("link_labels").map(|v| {
            v.split(',')
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect()
        });
        let o = NelOptions {
            format,
            column: opts.column.as_deref().map(|c| c.trim().to_string()),
            ne_column: opts.own("ne_column").map(|c| c.trim().to_string()),
            link_labels,
            cutoffs,
            original_nel,
            listing: opts.listing,
        };
        if let Some(f) = format {
            o.check_for(f)?;
        }
        Ok(o)
    }

    /// Refuses the options that `format` does not take.
    pub fn check_for(&self, format: InputFormat) -> Result<()> {
        let name = format.name();
        if format == InputFormat::Hipe {
            self.hipe_columns()?;
        }
        if format != InputFormat::Conll && self.ne_column.is_some() {
            return Err(Error::usage(format!(
                "ne_column: names the NE tag column of a CoNLL file; in {name} input the mentions' types come from {}",
                if format == InputFormat::Brat { "the T labels" } else { "the NE column of the link column (NE-COARSE-LIT for NEL-LIT, NE-COARSE-METO for NEL-METO)" }
            )));
        }
        if format != InputFormat::Brat && self.link_labels.is_some() {
            return Err(Error::usage(format!(
                "link_labels: chooses the T labels of brat files that are mentions; {name} input has none"
            )));
        }
        if format == InputFormat::Brat && self.column.is_some() {
            return Err(Error::usage(
                "column: brat files give links in N lines, not in a column",
            ));
        }
        if format == InputFormat::Brat && self.original_nel {
            return Err(Error::usage(
                "original_nel: groups the links of token files; a brat mention is a T span",
            ));
        }
        Ok(())
    }

    /// HIPE TSV: the link column and the NE column bounding its links.
    pub fn hipe_columns(&self) -> Result<(String, String)> {
        let column = self.column.as_deref().unwrap_or("NEL-LIT");
        let ne = match column {
            "NEL-LIT" => "NE-COARSE-LIT",
            "NEL-METO" => "NE-COARSE-METO",
            other => {
                return Err(Error::usage(format!(
                    "column {}: the nel family scores NEL-LIT (bounded by NE-COARSE-LIT) or NEL-METO (by NE-COARSE-METO) of HIPE TSV",
                    snippet(other)
                )))
            }
        };
        Ok((column.to_string(), ne.to_string()))
    }

    /// The largest cutoff.
    pub fn max_n(&self) -> usize {
        self.cutoffs.iter().copied().max().unwrap_or(1).max(1)
    }
}

/// Whether a link is neleval's NIL (`Candidate.is_nil`: the id begins with `NIL`).
#[inline]
pub(super) fn is_nil(link: &str) -> bool {
    link.starts_with("NIL")
}

/// neleval's `kbid`: the link, or `None` for a NIL.
#[inline]
fn kbid(link: &str) -> Option<&str> {
    (!is_nil(link)).then_some(link)
}

/// A cell that gives no link: the mention is not a linking mention.
#[inline]
pub(super) fn no_link(link: &str) -> bool {
    matches!(link, "_" | "-" | "")
}

/// A link mention: its span (token positions of a document; for brat, the rank of its
/// fragments among both sides' mentions), its type (the NE tag of its first token without
/// `B-`/`I-`, `O` outside entities; brat: the T label) and, for brat, the index of its span
/// in the document.
#[derive(Debug, Clone, Copy)]
pub(super) struct Mention<'a> {
    pub span: Span,
    pub ty: &'a str,
    pub at: u32,
}

/// The reusable buffers of one side.
#[derive(Default)]
pub(super) struct Side<'a> {
    /// The token positions of the document (token files).
    pub seq: Vec<usize>,
    pub spans: Spans<'a>,
    pub mentions: Vec<Mention<'a>>,
    kbids: Vec<&'a str>,
}

impl<'a> Side<'a> {
    /// The first candidate of a mention.
    pub fn top(&self, m: &Mention<'a>) -> &'a str {
        self.spans.label(&m.span)
    }
}

/// The run link of a mention at cutoff `k`: the gold's link when one of the first `k`
/// candidates has its KB id (NIL counts as one id), else the first candidate.
fn resolve<'a>(alts: &[&'a str], gold: Option<&'a str>, k: usize) -> &'a str {
    if let Some(g) = gold {
        if alts.iter().take(k.max(1)).any(|a| kbid(a) == kbid(g)) {
            return g;
        }
    }
    alts.first().copied().unwrap_or("")
}

/// The error label (index into [`LABELS`]) of a gold and a run link at the same span.
fn label_of(gold: Option<&str>, run: Option<&str>) -> usize {
    match (gold, run) {
        (Some(_), None) => 6,
        (None, _) => 5,
        (Some(g), Some(r)) => match (kbid(g), kbid(r)) {
            (None, None) => 1,
            (a, b) if a == b => 0,
            (None, Some(_)) => 2,
            (Some(_), None) => 3,
            _ => 4,
        },
    }
}

/// Pairs gold and run mentions with the same span, in span order: (gold, run) indices.
fn pair(g: &[Mention], r: &[Mention], out: &mut Vec<(Option<usize>, Option<usize>)>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < g.len() || j < r.len() {
        let gk = g.get(i).map(|m| (m.span.start, m.span.end));
        let rk = r.get(j).map(|m| (m.span.start, m.span.end));
        match (gk, rk) {
            (Some(a), Some(b)) if a == b => {
                out.push((Some(i), Some(j)));
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                out.push((Some(i), None));
                i += 1;
            }
            (Some(_), None) => {
                out.push((Some(i), None));
                i += 1;
            }
            _ => {
                out.push((None, Some(j)));
                j += 1;
            }
        }
    }
}

/// Counts of one document at cutoff `k` into `out` (TP, FP, FN per measure).
fn count<'a>(
    gs: &mut Side<'a>,
    rs: &mut Side<'a>,
    pairs: &[(Option<usize>, Option<usize>)],
    k: usize,
    out: &mut [f64],
) {
    // Mentions (gold, run) and matches per measure; mentions at the same span (links
    // ignored) for strong_mention_match.
    let (mut link, mut nil, mut all) = ([0u32; 3], [0u32; 3], [0u32; 3]);
    let (mut typed_tp, mut same_span) = (0u32, 0u32);
    gs.kbids.clear();
    rs.kbids.clear();
    for &(gi, ri) in pairs {
        let g = gi.map(|i| (gs.top(&gs.mentions[i]), gs.mentions[i].ty));
        let r = ri.map(|j| {
            let m = &rs.mentions[j];
            (resolve(rs.spans.alts(&m.span), g.map(|x| x.0), k), m.ty)
        });
        for (side, x, kb) in [(0, g, &mut gs.kbids), (1, r, &mut rs.kbids)] {
            if let Some((l, _)) = x {
                all[side] += 1;
                match kbid(l) {
                    Some(id) => {
                        link[side] += 1;
                        kb.push(id);
                    }
                    None => nil[side] += 1,
                }
            }
        }
        if let (Some((gl, gt)), Some((rl, rt))) = (g, r) {
            same_span += 1;
            if kbid(gl) == kbid(rl) {
                all[2] += 1;
                typed_tp += u32::from(gt == rt);
                match kbid(gl) {
                    Some(_) => link[2] += 1,
                    None => nil[2] += 1,
                }
            }
        }
    }
    // entity_match: the sets of KB ids of the document.
    for kb in [&mut gs.kbids, &mut rs.kbids] {
        kb.sort_unstable();
        kb.dedup();
    }
    let shared = {
        let (mut i, mut j, mut n) = (0, 0, 0u32);
        while i < gs.kbids.len() && j < rs.kbids.len() {
            match gs.kbids[i].cmp(rs.kbids[j]) {
                std::cmp::Ordering::Equal => {
                    n += 1;
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
            }
        }
        n
    };
    let ents = [gs.kbids.len() as u32, rs.kbids.len() as u32, shared];
    let typed = [all[0], all[1], typed_tp];
    let mention = [all[0], all[1], same_span];
    for (m, [g, r, tp]) in [mention, link, nil, all, typed, ents]
        .into_iter()
        .enumerate()
    {
        out[m * 3] = f64::from(tp);
        out[m * 3 + 1] = f64::from(r - tp);
        out[m * 3 + 2] = f64::from(g - tp);
    }
}

/// A scoring under way: one unit of statistics per gold document, the listing, and the most
/// candidates a run mention gave.
pub(super) struct Tally {
    st: Statistics,
    ids: Vec<String>,
    listing: Option<String>,
    pairs: Vec<(Option<usize>, Option<usize>)>,
    most: usize,
}

impl Tally {
    /// An empty scoring with `o`'s cutoffs.
    pub fn new(o: &NelOptions) -> Tally {
        let width = o.cutoffs.len() * PER_CUTOFF + LABELS.len();
        Tally {
            st: Statistics::new(Unit::Document, width, 0, vec![]),
            ids: Vec::new(),
            listing: o.listing.then(|| String::from(LISTING_HEADER)),
            pairs: Vec::new(),
            most: 0,
        }
    }

    /// Adds a warning.
    pub fn warn(&mut self, w: String) {
        self.st.warnings.push(w);
    }

    /// Counts one document `id` of gold mentions `gs` and run mentions `rs` (each in span
    /// order); `place` writes a listed mention's first line, last line and text (its side
    /// named by the flag: gold when true).
    pub fn document<'a>(
        &mut self,
        o: &NelOptions,
        id: String,
        gs: &mut Side<'a>,
        rs: &mut Side<'a>,
        place: impl Fn(bool, &Side<'a>, &Mention<'a>, &mut String),
    ) {
        for m in &rs.mentions {
            self.most = self.most.max(rs.spans.alts(&m.span).len());
        }
        pair(&gs.mentions, &rs.mentions, &mut self.pairs);
        let n_cut = o.cutoffs.len();
        let mut unit = vec![0.0; self.st.width()];
        for (ki, &k) in o.cutoffs.iter().enumerate() {
            count(
                gs,
                rs,
                &self.pairs,
                k,
                &mut unit[ki * PER_CUTOFF..][..PER_CUTOFF],
            );
        }
        for &(gi, ri) in &self.pairs {
            let gl = gi.map(|i| gs.top(&gs.mentions[i]));
            let rl = ri.map(|j| rs.top(&rs.mentions[j]));
            let label = label_of(gl, rl);
            unit[n_cut * PER_CUTOFF + label] += 1.0;
            if let Some(out) = self.listing.as_mut() {
                out.push_str(&crate::escape::terminal(&id));
                out.push('\t');
                match (gi, ri) {
                    (Some(i), _) => place(true, gs, &gs.mentions[i], out),
                    (None, Some(j)) => place(false, rs, &rs.mentions[j], out),
                    (None, None) => {}
                }
                for (m, l) in [
                    (gi.map(|i| gs.mentions[i]), gl),
                    (ri.map(|j| rs.mentions[j]), rl),
                ] {
                    let (ty, l) = (m.map_or("", |m| m.ty), l.unwrap_or(""));
                    let (ty, l) = (crate::escape::terminal(ty), crate::escape::terminal(l));
                    let _ = write!(out, "\t{ty}\t{l}");
                }
                let _ = writeln!(out, "\t{}", LABELS[label]);
            }
        }
        self.st.push_unit(unit);
        self.ids.push(id);
    }

    /// The statistics and the documents' ids; a warning when the run (`run`, as messages name
    /// it) gives candidates that only cutoff 1 is asked of.
    pub fn finish(mut self, o: &NelOptions, run: &str) -> (Statistics, Vec<String>) {
        if self.most > 1 && o.cutoffs == [1] {
            let most = self.most;
            self.st.warnings.push(format!(
                "{run}: the run gives up to {most} candidates per mention; n_best 1,{most} also scores them at {most}"
            ));
        }
        self.st.listing = self.listing;
        (self.st, self.ids)
    }
}
