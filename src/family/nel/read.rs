//! The nel family's options, its reading of HIPE TSV into link mentions (grouped as the
//! official HIPE scorer groups links), and the per-document counts of neleval's measures and
//! error labels (`docs/nel.md`).

use std::fmt::Write as _;
use std::path::Path;

use super::super::options::switch;
use super::super::{Options, Statistics};
use crate::corpus::{align, Corpus};
use crate::error::{snippet, Error, Result};
use crate::eval::options::parse_n_best;
use crate::eval::read::read_hipe;
use crate::hipe::Edition;
use crate::spans::{links_consecutive, links_ne_bounded, skip_chars, Span, Spans};
use crate::table::Unit;

/// The options the nel family declares of its own (beside the common `column`, `format` and
/// `beta`), named as the hipe family names them.
pub const OWN_OPTIONS: &[&str] = &["n_best", "original_nel"];

/// neleval's measures, in the order of the tables (`neleval/configs.py`, `MEASURES`).
pub const MEASURES: [&str; 5] = [
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
    /// The link column (`NEL-LIT`, or `NEL-METO`).
    pub column: String,
    /// The NE column bounding its links and giving the mentions' types.
    pub ne_column: String,
    /// The n-best cutoffs (1 unless `n_best` says otherwise), in the order given.
    pub cutoffs: Vec<usize>,
    /// Links grouped as consecutive tokens with the same link (`--original_nel`).
    pub original_nel: bool,
    /// Make the mention listing.
    pub listing: bool,
}

impl NelOptions {
    /// Parses the family's options.
    pub fn parse(opts: &Options) -> Result<NelOptions> {
        let column = opts.column.as_deref().unwrap_or("NEL-LIT").trim();
        let ne_column = match column {
            "NEL-LIT" => "NE-COARSE-LIT",
            "NEL-METO" => "NE-COARSE-METO",
            other => {
                return Err(Error::usage(format!(
                    "column {}: the nel family scores NEL-LIT (bounded by NE-COARSE-LIT) or NEL-METO (by NE-COARSE-METO)",
                    snippet(other)
                )))
            }
        };
        let cutoffs = match opts.own("n_best") {
            Some(n) => parse_n_best(n)?,
            None => vec![1],
        };
        let original_nel = match opts.own("original_nel") {
            Some(v) => switch("original_nel", v)?,
            None => false,
        };
        Ok(NelOptions {
            column: column.to_string(),
            ne_column: ne_column.to_string(),
            cutoffs,
            original_nel,
            listing: opts.listing,
        })
    }
}

/// Whether a link is neleval's NIL (`Candidate.is_nil`: the id begins with `NIL`).
#[inline]
fn is_nil(link: &str) -> bool {
    link.starts_with("NIL")
}

/// neleval's `kbid`: the link, or `None` for a NIL.
#[inline]
fn kbid(link: &str) -> Option<&str> {
    (!is_nil(link)).then_some(link)
}

/// A cell that gives no link: the mention is not a linking mention.
#[inline]
fn no_link(link: &str) -> bool {
    matches!(link, "_" | "-" | "")
}

/// A link mention: its span and the type of its first token in the NE column (`O` outside
/// entities).
#[derive(Debug, Clone, Copy)]
struct Mention<'a> {
    span: Span,
    ty: &'a str,
}

/// The reusable buffers of one side.
#[derive(Default)]
struct Side<'a> {
    seq: Vec<usize>,
    spans: Spans<'a>,
    mentions: Vec<Mention<'a>>,
    kbids: Vec<&'a str>,
}

impl<'a> Side<'a> {
    /// The link mentions of `range` in `file`.
    fn read(
        &mut self,
        file: &'a Corpus,
        (link, ne): (usize, usize),
        range: std::ops::Range<usize>,
        o: &NelOptions,
        max_n: usize,
        gold: bool,
    ) {
        self.seq.clear();
        self.seq.extend(range);
        if o.original_nel {
            links_consecutive(file, link, &self.seq, max_n, &mut self.spans);
        } else {
            links_ne_bounded(file, link, ne, &self.seq, max_n, gold, &mut self.spans);
        }
        self.mentions.clear();
        for s in &self.spans.spans {
            if no_link(self.spans.label(s)) {
                continue;
            }
            let tag = file.cell(self.seq[s.start as usize], ne);
            let ty = if matches!(tag, "O" | "_" | "-") {
                "O"
            } else {
                skip_chars(tag, 2)
            };
            self.mentions.push(Mention { span: *s, ty });
        }
    }

    fn top(&self, m: &Mention<'a>) -> &'a str {
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
    // Mentions (gold, run) and matches per measure.
    let (mut link, mut nil, mut all) = ([0u32; 3], [0u32; 3], [0u32; 3]);
    let mut typed_tp = 0u32;
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
    for (m, [g, r, tp]) in [link, nil, all, typed, ents].into_iter().enumerate() {
        out[m * 3] = f64::from(tp);
        out[m * 3 + 1] = f64::from(r - tp);
        out[m * 3 + 2] = f64::from(g - tp);
    }
}

fn column_of(f: &Corpus, name: &str) -> Result<usize> {
    f.column(name).ok_or_else(|| {
        Error::input(
            &f.path,
            1,
            format!(
                "column {name} is missing from the header ({}); the nel family needs it",
                f.columns.join(", ")
            ),
        )
    })
}

/// A mention's place and text in the listing: first line, last line, covered tokens.
fn place(file: &Corpus, side: &Side, m: &Mention, out: &mut String) {
    let (s, e) = (m.span.start as usize, m.span.end as usize);
    let _ = write!(
        out,
        "{}\t{}\t",
        file.line(side.seq[s]),
        file.line(side.seq[e])
    );
    for (n, &t) in side.seq[s..=e].iter().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(file.token_text(t));
    }
}

/// Reads and counts `gold` and `pred`: per gold document, [`PER_CUTOFF`] numbers per cutoff,
/// then the counts of the [`LABELS`] (at the first candidate).
pub fn statistics(o: &NelOptions, gold: &Path, pred: &Path) -> Result<(Statistics, Vec<String>)> {
    let columns = Some(vec![o.column.clone(), o.ne_column.clone()]);
    // The edition only matters to link normalization, which the family does not do.
    let g = read_hipe(
        gold,
        Edition::Hipe2022,
        Default::default(),
        columns.clone(),
        None,
    )?;
    let p = read_hipe(pred, Edition::Hipe2022, Default::default(), columns, None)?;
    let gcols = (column_of(&g, &o.column)?, column_of(&g, &o.ne_column)?);
    let pcols = (column_of(&p, &o.column)?, column_of(&p, &o.ne_column)?);
    let al = align(&g, &p)?;
    let max_n = o.cutoffs.iter().copied().max().unwrap_or(1).max(1);
    let n_cut = o.cutoffs.len();
    let mut st = Statistics::new(Unit::Document, n_cut * PER_CUTOFF + LABELS.len(), 0, vec![]);
    st.warnings = al.scoring_warnings(&p, "mentions are matched by position only");
    let mut ids = Vec::with_capacity(g.docs.len());
    let mut listing = o.listing.then(|| String::from(LISTING_HEADER));
    let (mut gs, mut rs) = (Side::default(), Side::default());
    let mut pairs = Vec::new();
    let mut most = 0usize;
    for (gd, pd) in g.docs.iter().zip(&al.pred_docs) {
        let id = gd
            .id
            .clone()
            .unwrap_or_else(|| format!("#{}", gd.first_line));
        gs.read(&g, gcols, gd.range(), o, 1, true);
        rs.read(&p, pcols, pd.range(), o, max_n, false);
        for m in &rs.mentions {
            most = most.max(rs.spans.alts(&m.span).len());
        }
        pair(&gs.mentions, &rs.mentions, &mut pairs);
        let mut unit = vec![0.0; st.width()];
        for (ki, &k) in o.cutoffs.iter().enumerate() {
            count(
                &mut gs,
                &mut rs,
                &pairs,
                k,
                &mut unit[ki * PER_CUTOFF..][..PER_CUTOFF],
            );
        }
        for &(gi, ri) in &pairs {
            let gl = gi.map(|i| gs.top(&gs.mentions[i]));
            let rl = ri.map(|j| rs.top(&rs.mentions[j]));
            let label = label_of(gl, rl);
            unit[n_cut * PER_CUTOFF + label] += 1.0;
            if let Some(out) = listing.as_mut() {
                out.push_str(&id);
                out.push('\t');
                match (gi, ri) {
                    (Some(i), _) => place(&g, &gs, &gs.mentions[i], out),
                    (None, Some(j)) => place(&p, &rs, &rs.mentions[j], out),
                    (None, None) => {}
                }
                for (m, l) in [
                    (gi.map(|i| gs.mentions[i]), gl),
                    (ri.map(|j| rs.mentions[j]), rl),
                ] {
                    let _ = write!(out, "\t{}\t{}", m.map_or("", |m| m.ty), l.unwrap_or(""));
                }
                let _ = writeln!(out, "\t{}", LABELS[label]);
            }
        }
        st.push_unit(unit);
        ids.push(id);
    }
    if most > 1 && o.cutoffs == [1] {
        st.warnings.push(format!(
            "{}: the run gives up to {most} candidates per mention; n_best 1,{most} also scores them at {most}",
            p.path.display()
        ));
    }
    st.listing = listing;
    Ok((st, ids))
}
