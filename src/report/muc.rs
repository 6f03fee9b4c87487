//! MUC results as a readable table, as JSON (`{"beta", "overall": {"correct", …, "P", "R",
//! "F"}, "per_type": {TYPE: …}, "macro": {"P", "R", "F"}}`, scores as fractions) and as the
//! `--judgements` TSV listing every judged token.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::eval::muc::{MucResult, MucScores};
use crate::report::segmentation::{num, pct};

fn scores_json(s: &MucScores) -> Value {
    let c = &s.counts;
    let mut m = Map::new();
    for (k, v) in [
        ("correct", c.correct),
        ("incorrect", c.incorrect),
        ("partial", c.partial),
        ("missing", c.missing),
        ("spurious", c.spurious),
        ("possible", c.possible()),
        ("actual", c.actual()),
    ] {
        m.insert(k.into(), Value::from(v));
    }
    m.insert("P".into(), num(s.p));
    m.insert("R".into(), num(s.r));
    m.insert("F".into(), num(s.f));
    Value::Object(m)
}

/// The JSON document.
pub fn to_json(r: &MucResult) -> Value {
    let mut m = Map::new();
    m.insert("beta".into(), num(r.beta));
    m.insert("overall".into(), scores_json(&r.overall));
    let per: Map<String, Value> = r
        .per_type
        .iter()
        .map(|(t, s)| (t.clone(), scores_json(s)))
        .collect();
    m.insert("per_type".into(), Value::Object(per));
    let (p, rr, f) = r.macro_prf;
    let mut mac = Map::new();
    mac.insert("P".into(), num(p));
    mac.insert("R".into(), num(rr));
    mac.insert("F".into(), num(f));
    m.insert("macro".into(), Value::Object(mac));
    Value::Object(m)
}

/// The JSON document as pretty text with a final newline.
pub fn json_text(r: &MucResult) -> String {
    let mut s = serde_json::to_string_pretty(&to_json(r)).unwrap_or_default();
    s.push('\n');
    s
}

/// The name of F in headers: `F1`, `F0.5`, `F2`.
fn f_name(beta: f64) -> String {
    format!("F{beta}")
}

/// The readable table: one row per type, then the micro (`ALL`) and macro rows.
pub fn table(r: &MucResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "MUC-7 token judgement of {}: {} documents, {} tokens",
        r.column, r.documents, r.tokens
    );
    let _ = writeln!(out);
    let width = r
        .per_type
        .keys()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(0)
        .max(5)
        + 2;
    let _ = writeln!(
        out,
        "{:<width$}{:>9}{:>10}{:>9}{:>9}{:>9}{:>10}{:>9}{:>8}{:>8}{:>8}",
        "type",
        "correct",
        "incorrect",
        "partial",
        "missing",
        "spurious",
        "possible",
        "actual",
        "P %",
        "R %",
        format!("{} %", f_name(r.beta)),
    );
    let row = |out: &mut String, name: &str, s: &MucScores| {
        let c = &s.counts;
        let _ = writeln!(
            out,
            "{name:<width$}{:>9}{:>10}{:>9}{:>9}{:>9}{:>10}{:>9}{:>8}{:>8}{:>8}",
            c.correct,
            c.incorrect,
            c.partial,
            c.missing,
            c.spurious,
            c.possible(),
            c.actual(),
            pct(s.p),
            pct(s.r),
            pct(s.f)
        );
    };
    for (t, s) in &r.per_type {
        row(&mut out, &crate::error::escape_controls(t), s);
    }
    row(&mut out, "ALL", &r.overall);
    let (p, rr, f) = r.macro_prf;
    let _ = writeln!(
        out,
        "{:<width$}{:>73}{:>8}{:>8}",
        "macro",
        pct(p),
        pct(rr),
        pct(f)
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "P = (correct + partial/2) / actual, R = (correct + partial/2) / possible; macro: mean \
         of the per-type P and R, {} of the means.",
        f_name(r.beta)
    );
    out
}

/// Header of the `--judgements` listing.
pub const JUDGEMENTS_HEADER: &str = "document\tline\ttoken\tgold\trun\tjudgement\ttype";

fn cell(s: &str) -> String {
    crate::error::escape_controls(s)
}

/// The `--judgements` TSV: a header, then one line per judged token in file order (empty
/// when the result kept no judgements).
pub fn judgements_tsv(r: &MucResult) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{JUDGEMENTS_HEADER}");
    for j in r.judgements.iter().flatten() {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            cell(&j.document),
            j.line,
            cell(&j.token),
            cell(&j.gold_tag),
            cell(&j.run_tag),
            j.judgement.as_str(),
            cell(&j.counted_type)
        );
    }
    out
}
