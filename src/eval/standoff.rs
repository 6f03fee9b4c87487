//! Character-offset scoring of standoff documents (brat, doccano, Label Studio, Prodigy) in
//! the spans and fair families.
//!
//! Gold and run documents are paired by name (brat: the relative path; JSON: the `id`, else
//! the line) and must have the same text. Spans are scored over *positions*: the maximal runs
//! of non-whitespace characters of the text, cut again at every fragment boundary of either
//! side. A span covers the positions inside its fragments. Where every span starts and ends
//! on whitespace-token boundaries, the positions are the whitespace tokens, so the scores
//! equal those of the same spans as IOB tags over those tokens; a span boundary inside a
//! token cuts it, so such spans are still scored exactly (whitespace at a span's edges does
//! not count). Discontinuous spans: the spans family pairs spans by the range from their
//! first to their last position, and strict and exact correctness also require the same
//! positions (fragment by fragment); the fair family reads the span as its positions (the
//! fair algorithm's discontinuous span).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::corpus::standoff::{is_py_space, StandoffDoc, StandoffSpan};
use crate::error::{snippet, Error, Result};
use crate::eval::fair::{evaluate_units, FairOptions, FairReport, Unit};
use crate::formats::{brat, jsonl, read_standoff};
use crate::matching::span_count::{count, Counts, Scratch};
use crate::matching::PerRegime;
use crate::spans::{LabeledSpan, Spans};

/// Whether `path` holds standoff annotation: a directory (of brat pairs), an `.ann` file, a
/// file whose first line is a brat annotation, or a JSON export (an array of objects, or an
/// object a line with `text` and spans). Pipes and other non-regular files are never looked
/// into (they can be read once only).
pub fn is_standoff(path: &Path) -> bool {
    if path.is_dir() {
        return true;
    }
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    if path.extension().is_some_and(|x| x == "ann") {
        return true;
    }
    // The head of the file decides (a large HIPE run is not read twice).
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 20), &mut head));
    if read.is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') && !t.contains('\n') {
        // One JSON line longer than the head.
        return true;
    }
    if let Some(rest) = t.strip_prefix('[') {
        let rest = rest.trim_start();
        return rest.starts_with('{') || rest.starts_with(']');
    }
    brat::looks_like_ann(&text) || jsonl::detect(&text).is_some()
}

/// The paired documents of a gold and a run, in the gold's order, with a warning for each
/// span left out.
pub struct Pairs {
    /// (gold, run) documents with the same name and text.
    pub docs: Vec<(StandoffDoc, StandoffDoc)>,
    /// Warnings (one line each).
    pub warnings: Vec<String>,
}

/// The name documents are paired by: a brat document's relative path without `.ann`, a
/// JSON document's id (or line), so that a brat gold pairs with a JSON run.
fn key(d: &StandoffDoc) -> &str {
    d.name.strip_suffix(".ann").unwrap_or(&d.name)
}

/// Reads both sides and pairs their documents by name; every gold document needs its run
/// document and the reverse, with the same text.
pub fn pair(gold: &Path, pred: &Path) -> Result<Pairs> {
    // One side may be CoNLL: its tokens are aligned through the other side's texts.
    let (g, p_docs) = if is_standoff(gold) {
        let g = read_standoff(gold, None)?;
        let p = if is_standoff(pred) {
            read_standoff(pred, None)?
        } else {
            conll_onto(pred, &g)?
        };
        (g, p)
    } else {
        let p = read_standoff(pred, None)?;
        (conll_onto(gold, &p)?, p)
    };
    let mut p: BTreeMap<String, StandoffDoc> = BTreeMap::new();
    for d in p_docs {
        if p.contains_key(key(&d)) {
            return Err(Error::input(
                &d.path,
                0,
                format!("document {} is given twice", snippet(key(&d))),
            ));
        }
        p.insert(key(&d).to_string(), d);
    }
    let mut docs = Vec::with_capacity(g.len());
    let mut seen = BTreeSet::new();
    for gd in g {
        let name = key(&gd).to_string();
        if !seen.insert(name.clone()) {
            return Err(Error::input(
                &gd.path,
                0,
                format!("document {} is given twice", snippet(&name)),
            ));
        }
        let Some(pd) = p.remove(&name) else {
            return Err(Error::input(
                pred,
                0,
                format!(
                    "the run has no document {} (the gold's {})",
                    snippet(&name),
                    gd.path.display()
                ),
            ));
        };
        if pd.text != gd.text {
            let at = gd
                .text
                .chars()
                .zip(pd.text.chars())
                .take_while(|(a, b)| a == b)
                .count();
            return Err(Error::input(
                &pd.path,
                0,
                format!(
                    "document {}: the run's text differs from the gold's ({}) from character {at}",
                    snippet(&name),
                    gd.path.display()
                ),
            ));
        }
        docs.push((gd, pd));
    }
    if let Some((name, d)) = p.into_iter().next() {
        return Err(Error::input(
            &d.path,
            0,
            format!("document {} of the run is not in the gold", snippet(&name)),
        ));
    }
    Ok(Pairs {
        docs,
        warnings: Vec::new(),
    })
}

/// A CoNLL file read onto the texts of `texts`, in their order: its tokens must be found in
/// order in the texts, whitespace skipped between them (an error names the first token that
/// does not match); its IOB entities become spans of the document they fall in.
pub fn conll_onto(path: &Path, texts: &[StandoffDoc]) -> Result<Vec<StandoffDoc>> {
    use crate::formats::Format;
    let c = crate::formats::read(path, Some(Format::Conll), &Default::default())?;
    let col = c
        .column("TAG")
        .ok_or_else(|| Error::input(path, 0, "no tag column"))?;
    let chars: Vec<Vec<char>> = texts.iter().map(|d| d.text.chars().collect()).collect();
    // Each token's document and [start, end) in characters.
    let mut at: Vec<(usize, usize, usize)> = Vec::with_capacity(c.n_tokens());
    let (mut d, mut i) = (0usize, 0usize);
    for t in 0..c.n_tokens() {
        let tok: Vec<char> = c.token_text(t).chars().collect();
        loop {
            while chars
                .get(d)
                .is_some_and(|x| i < x.len() && is_py_space(x[i]))
            {
                i += 1;
            }
            if chars.get(d).is_some_and(|x| i >= x.len()) && d + 1 < chars.len() {
                d += 1;
                i = 0;
            } else {
                break;
            }
        }
        let here = chars.get(d).map(|x| &x[i.min(x.len())..]).unwrap_or(&[]);
        if !here.starts_with(&tok) {
            let found: String = here.iter().take(tok.len().max(1) + 10).collect();
            let doc = texts.get(d).map_or("", |x| key(x));
            return Err(Error::input(
                path,
                c.line(t),
                format!(
                    "token {} does not match the text of document {} at character {i} (the text has {})",
                    snippet(c.token_text(t)),
                    snippet(doc),
                    snippet(&found)
                ),
            ));
        }
        at.push((d, i, i + tok.len()));
        i += tok.len();
    }
    // The rest of the text must be whitespace: the tokens reproduce all of it.
    for (k, x) in chars.iter().enumerate().skip(d) {
        let from = if k == d { i } else { 0 };
        if let Some(j) = (from..x.len()).find(|&j| !is_py_space(x[j])) {
            return Err(Error::input(
                path,
                0,
                format!(
                    "the tokens end before the text of document {} does (character {j})",
                    snippet(texts.get(k).map_or("", key))
                ),
            ));
        }
    }
    let mut out: Vec<StandoffDoc> = texts
        .iter()
        .map(|x| StandoffDoc {
            name: key(x).to_string(),
            path: path.to_path_buf(),
            text: x.text.clone(),
            spans: Vec::new(),
        })
        .collect();
    let mut ents = Spans::default();
    for doc in &c.docs {
        let mut start = doc.start;
        for &n in &doc.segments {
            let seq: Vec<usize> = (start..start + n).collect();
            start += n;
            crate::spans::entities(&c, col, &seq, &mut ents);
            for e in &ents.spans {
                let (a, b) = (seq[e.start as usize], seq[e.end as usize]);
                let (da, sa, _) = at[a];
                let (_, _, eb) = at[b];
                if at[b].0 != da {
                    return Err(Error::input(
                        path,
                        c.line(a),
                        "an entity runs across two documents of the text",
                    ));
                }
                out[da].spans.push(StandoffSpan {
                    id: format!("line {}", c.line(a)),
                    label: ents.label(e).to_string(),
                    fragments: vec![(sa, eb)],
                    line: c.line(a),
                });
            }
        }
    }
    Ok(out)
}

/// The positions of a document pair: `[start, end)` character ranges of non-whitespace text,
/// cut at every fragment boundary of either side.
pub fn positions(text: &str, a: &[StandoffSpan], b: &[StandoffSpan]) -> Vec<(usize, usize)> {
    let cuts: BTreeSet<usize> = a
        .iter()
        .chain(b)
        .flat_map(|s| s.fragments.iter().flat_map(|&(x, y)| [x, y]))
        .collect();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut n = 0;
    for (i, c) in text.chars().enumerate() {
        n = i + 1;
        let space = is_py_space(c);
        if let Some(s) = start {
            if space || cuts.contains(&i) {
                out.push((s, i));
                start = None;
            }
        }
        if !space && start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, n));
    }
    out
}

/// The 0-based positions a span covers, ascending.
fn covered(span: &StandoffSpan, pos: &[(usize, usize)]) -> Vec<usize> {
    let mut out = Vec::new();
    for &(s, e) in &span.fragments {
        let lo = pos.partition_point(|p| p.0 < s);
        let hi = pos.partition_point(|p| p.1 <= e);
        out.extend(lo..hi.max(lo));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A span over positions: label, covered positions, file line.
type PosSpan<'a> = (&'a str, Vec<usize>, usize);

/// The spans of one side over `pos`, by first position, then last, then label; spans that
/// cover no position (empty, or only whitespace) are left out with a warning.
fn on_positions<'a>(
    doc: &'a StandoffDoc,
    pos: &[(usize, usize)],
    warnings: &mut Vec<String>,
) -> Vec<PosSpan<'a>> {
    let mut out = Vec::with_capacity(doc.spans.len());
    for s in &doc.spans {
        let c = covered(s, pos);
        if c.is_empty() {
            warnings.push(format!(
                "{}:{}: span {} ({}) covers no character but whitespace: not scored",
                doc.path.display(),
                s.line,
                snippet(&s.id),
                snippet(&s.label)
            ));
            continue;
        }
        out.push((s.label.as_str(), c, s.line));
    }
    out.sort_by(|a, b| {
        let key = |x: &PosSpan| (x.1[0], x.1[x.1.len() - 1]);
        key(a).cmp(&key(b)).then_with(|| a.0.cmp(b.0))
    });
    out
}

/// Range-position spans of one side, and the positions of the spans at each range.
type Built<'a> = (Spans<'a>, HashMap<(u32, u32), Vec<Vec<usize>>>);

fn build<'a>(v: &[PosSpan<'a>]) -> Built<'a> {
    let mut spans = Spans::default();
    let mut frags: HashMap<(u32, u32), Vec<Vec<usize>>> = HashMap::new();
    for (label, c, _) in v {
        let (a, b) = (c[0], c[c.len() - 1]);
        spans.push_labeled(a, b, label);
        frags
            .entry((a as u32, b as u32))
            .or_default()
            .push(c.clone());
    }
    (spans, frags)
}

/// The counts of the four span regimes of one document: over all labels and per label.
#[derive(Debug, Clone, Default)]
pub struct DocCounts {
    /// Over all labels.
    pub all: PerRegime<Counts>,
    /// Per label (labels never touched in the document are absent).
    pub per_label: BTreeMap<String, PerRegime<Counts>>,
}

/// Span-regime counts of standoff documents, one entry per document.
pub struct SpanCounts {
    /// Every label of gold and run, sorted.
    pub labels: Vec<String>,
    /// Per document, in the gold's order.
    pub docs: Vec<DocCounts>,
    /// Warnings (one line each).
    pub warnings: Vec<String>,
}

/// Counts gold against run in the four regimes of the spans family, document by document.
pub fn span_counts(gold: &Path, pred: &Path) -> Result<SpanCounts> {
    let Pairs { docs, mut warnings } = pair(gold, pred)?;
    let tags: BTreeSet<String> = docs
        .iter()
        .flat_map(|(g, p)| g.spans.iter().chain(&p.spans))
        .map(|s| s.label.clone())
        .collect();
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(docs.len());
    for (g, p) in &docs {
        let pos = positions(&g.text, &g.spans, &p.spans);
        let gs = on_positions(g, &pos, &mut warnings);
        let ps = on_positions(p, &pos, &mut warnings);
        let (gspans, gfrags) = build(&gs);
        let (pspans, pfrags) = build(&ps);
        // Same range: correct in strict and exact only with the same positions.
        let same = |a: u32, b: u32| match (gfrags.get(&(a, b)), pfrags.get(&(a, b))) {
            (Some(x), Some(y)) => x.iter().any(|f| y.contains(f)),
            _ => false,
        };
        let uc = count(&gspans, &pspans, &tags, same, &mut scratch);
        out.push(DocCounts {
            all: uc.all,
            per_label: uc
                .per_label
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        });
    }
    Ok(SpanCounts {
        labels: tags.into_iter().collect(),
        docs: out,
        warnings,
    })
}

/// The fair evaluation of standoff documents: one unit per document, the positions as its
/// tokens.
pub fn fair_report(gold: &Path, pred: &Path, opts: &FairOptions) -> Result<FairReport> {
    if opts.read.ignore_punct {
        return Err(Error::usage(
            "ignore-punct: not available for standoff files (brat, doccano, Label Studio, Prodigy)",
        ));
    }
    let Pairs { docs, mut warnings } = pair(gold, pred)?;
    let mut t_units = Vec::with_capacity(docs.len());
    let mut s_units = Vec::with_capacity(docs.len());
    for (g, p) in &docs {
        let pos = positions(&g.text, &g.spans, &p.spans);
        let tokens: Vec<String> = pos
            .iter()
            .map(|&(s, e)| crate::corpus::standoff::slice_chars(&g.text, s, e).to_string())
            .collect();
        for (doc, units) in [(g, &mut t_units), (p, &mut s_units)] {
            let v = on_positions(doc, &pos, &mut warnings);
            let mut spans = Vec::with_capacity(v.len());
            let mut lines = Vec::with_capacity(v.len());
            for (label, c, line) in v {
                let (a, b) = (c[0] + 1, c[c.len() - 1] + 1);
                spans.push(LabeledSpan::new(label, a, b).with_tokens(c.iter().map(|x| x + 1)));
                lines.push(line);
            }
            units.push(Unit {
                id: doc.name.clone(),
                line: 0,
                spans,
                span_lines: lines,
                tokens: Some(tokens.clone()),
            });
        }
    }
    let mut report = evaluate_units(gold, t_units, pred, s_units, opts)?;
    warnings.append(&mut report.warnings);
    report.warnings = warnings;
    Ok(report)
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
        assert_eq!(positions(text, &[], &[]), vec![(0, 4), (6, 16), (17, 18)]);
        let a = [span("LOC", &[(6, 11)])];
        let b = [span("PER", &[(0, 6)])];
        let pos = positions(text, &a, &b);
        assert_eq!(pos, vec![(0, 4), (6, 11), (11, 16), (17, 18)]);
        assert_eq!(covered(&a[0], &pos), vec![1]);
        assert_eq!(covered(&b[0], &pos), vec![0]);
        assert_eq!(covered(&span("X", &[(0, 4), (17, 18)]), &pos), vec![0, 3]);
        assert!(covered(&span("X", &[(4, 6)]), &pos).is_empty());
    }
}
