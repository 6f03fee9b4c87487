//! Output of a fair evaluation: readable tables (laid out like the reference implementation's
//! evaluation file), JSON with fractions, and a TSV listing every target and system span with
//! its error type.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{json, Map, Value};

use crate::escape::{cell, terminal};
use crate::eval::fair::FairReport;
use crate::matching::fair::{
    fair_prf, traditional_prf, ErrorType, FairCounts, LabelCounts, Prf, Weights,
};
use crate::Result;

/// The name of F-beta in JSON keys and table headers: `F0.5`, `F2`; `None` for β = 1 (F1 is
/// always given).
pub fn f_beta_name(beta: Option<f64>) -> Option<String> {
    beta.filter(|&b| b != 1.0).map(|b| format!("F{b}"))
}

fn prf_into(m: &mut Map<String, Value>, p: Prf, beta: Option<f64>) {
    m.insert("P".into(), json!(p.p));
    m.insert("R".into(), json!(p.r));
    m.insert("F1".into(), json!(p.f1));
    if let (Some(k), Some(b)) = (f_beta_name(beta), beta) {
        m.insert(k, json!(crate::metrics::prf::fbeta(p.p, p.r, b)));
    }
}

/// The traditional / fair / weighted block of one label (or overall).
fn block(c: &LabelCounts, weights: &Weights, beta: Option<f64>) -> Value {
    let mut trad = Map::new();
    trad.insert("TP".into(), json!(c.traditional.tp));
    trad.insert("FP".into(), json!(c.traditional.fp));
    trad.insert("FN".into(), json!(c.traditional.fn_));
    prf_into(&mut trad, traditional_prf(&c.traditional), beta);

    let f = &c.fair;
    let mut fair = Map::new();
    for (k, v) in [
        ("TP", f.tp),
        ("FP", f.fp),
        ("LE", f.le),
        ("BE", f.be()),
        ("BES", f.bes),
        ("BEL", f.bel),
        ("BEO", f.beo),
        ("LBE", f.lbe),
        ("FN", f.fn_),
    ] {
        fair.insert(k.into(), json!(v));
    }
    prf_into(&mut fair, fair_prf(f), beta);

    let mut weighted = Map::new();
    for name in weights.categories() {
        weighted.insert(name.into(), json!(f.get(name).unwrap_or(0)));
    }
    prf_into(&mut weighted, weights.prf(f), beta);

    json!({ "traditional": trad, "fair": fair, "weighted": weighted })
}

/// The JSON document: `overall`, `per_label`, `confusion` (target → system → count, `_` for
/// none, all cells), `target_stats` and `settings`. P/R/F1 are fractions.
pub fn to_json(report: &FairReport) -> Value {
    to_json_beta(report, None)
}

/// [`to_json`] with `F<β>` (e.g. `F0.5`, `F2`) after every `F1` when a β other than 1 is
/// given (`fair --beta`).
pub fn to_json_beta(report: &FairReport, beta: Option<f64>) -> Value {
    let t = &report.tally;
    let mut per_label = Map::new();
    for (label, c) in &t.per_label {
        per_label.insert(label.clone(), block(c, &report.weights, beta));
    }
    let mut confusion = Map::new();
    for row in &t.confusion_labels {
        let mut r = Map::new();
        for col in &t.confusion_labels {
            r.insert(col.clone(), json!(t.confusion_count(row, col)));
        }
        confusion.insert(row.clone(), Value::Object(r));
    }
    let mut stats = Map::new();
    for (label, n) in &t.target_stats {
        stats.insert(label.clone(), json!(n));
    }
    json!({
        "overall": block(&t.overall, &report.weights, beta),
        "per_label": per_label,
        "confusion": confusion,
        "target_stats": stats,
        "settings": {
            "focus": report.focus.as_str(),
            "weights": crate::eval::weights::format_weights(&report.weights),
            "units": t.units,
        },
    })
}

fn pct(x: f64) -> String {
    format!("{:04.2}", x * 100.0)
}

fn fair_cells(f: &FairCounts, cats: &[&str]) -> String {
    cats.iter()
        .map(|c| f.get(c).unwrap_or(0).to_string())
        .collect::<Vec<_>>()
        .join("\t")
}

/// Readable tables: traditional, fair and (if weights were given) weighted evaluation per label
/// and overall, a comparison, the confusion matrix and target label statistics. Percentages
/// with two decimals, tab-separated, as the reference prints them.
pub fn tables(report: &FairReport) -> String {
    tables_beta(report, None)
}

/// [`tables`] with an `F<β>` column after every `F1` column when a β other than 1 is given
/// (`fair --beta`).
pub fn tables_beta(report: &FairReport, beta: Option<f64>) -> String {
    let t = &report.tally;
    let mut out = String::new();
    let fb = f_beta_name(beta);
    let f1h = match &fb {
        Some(k) => format!("F1\t{k}"),
        None => "F1".to_string(),
    };
    let row3 = |p: Prf| {
        let mut r = format!("{}\t{}\t{}", pct(p.p), pct(p.r), pct(p.f1));
        if let (Some(_), Some(b)) = (&fb, beta) {
            r.push('\t');
            r.push_str(&pct(crate::metrics::prf::fbeta(p.p, p.r, b)));
        }
        r
    };

    let _ = writeln!(out, "### Traditional evaluation:");
    let _ = writeln!(out, "Label\tTP\tFP\tFN\tPrec\tRec\t{f1h}");
    let trad_row = |out: &mut String, name: &str, c: &LabelCounts| {
        let tc = &c.traditional;
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            terminal(name),
            tc.tp,
            tc.fp,
            tc.fn_,
            row3(traditional_prf(tc))
        );
    };
    for (label, c) in &t.per_label {
        trad_row(&mut out, label, c);
    }
    trad_row(&mut out, "overall", &t.overall);

    let fair_cats = ["TP", "FP", "LE", "BE", "LBE", "FN"];
    let _ = writeln!(out, "\n### Fair evaluation:");
    let _ = writeln!(out, "Label\t{}\tPrec\tRec\t{f1h}", fair_cats.join("\t"));
    for (name, c) in t
        .per_label
        .iter()
        .map(|(l, c)| (l.as_str(), c))
        .chain([("overall", &t.overall)])
    {
        let _ = writeln!(
            out,
            "{}\t{}\t{}",
            terminal(name),
            fair_cells(&c.fair, &fair_cats),
            row3(fair_prf(&c.fair))
        );
    }

    if report.weights_given {
        let cats = report.weights.categories();
        let _ = writeln!(out, "\n### Weighted evaluation:");
        let _ = writeln!(out, "Label\t{}\tPrec\tRec\t{f1h}", cats.join("\t"));
        for (name, c) in t
            .per_label
            .iter()
            .map(|(l, c)| (l.as_str(), c))
            .chain([("overall", &t.overall)])
        {
            let _ = writeln!(
                out,
                "{}\t{}\t{}",
                terminal(name),
                fair_cells(&c.fair, &cats),
                row3(report.weights.prf(&c.fair))
            );
        }
    }

    let _ = writeln!(out, "\n### Comparison:");
    let _ = writeln!(out, "Version\tPrec\tRec\t{f1h}");
    let _ = writeln!(
        out,
        "Traditional\t{}",
        row3(traditional_prf(&t.overall.traditional))
    );
    let _ = writeln!(out, "Fair\t{}", row3(fair_prf(&t.overall.fair)));
    if report.weights_given {
        let _ = writeln!(
            out,
            "Weighted\t{}",
            row3(report.weights.prf(&t.overall.fair))
        );
    }

    let _ = writeln!(out, "\n### Confusion matrix:");
    let labels: Vec<&str> = t.confusion_labels.iter().map(String::as_str).collect();
    let shown: Vec<String> = labels.iter().map(|l| terminal(l)).collect();
    let _ = writeln!(out, "Target\\System\t{}", shown.join("\t"));
    for row in &labels {
        let cells: Vec<String> = labels
            .iter()
            .map(|col| t.confusion_count(row, col).to_string())
            .collect();
        let _ = writeln!(out, "{}\t{}", terminal(row), cells.join("\t"));
    }

    let _ = writeln!(out, "\n### Target data stats:");
    let _ = writeln!(out, "Label\tFreq\t%");
    let total: u64 = t.target_stats.values().sum();
    for (label, n) in &t.target_stats {
        let share = if total == 0 {
            0.0
        } else {
            *n as f64 / total as f64
        };
        let _ = writeln!(out, "{}\t{n}\t{}", terminal(label), pct(share));
    }
    out
}

/// Header of the error listing.
pub const ERRORS_HEADER: &str =
    "unit\tside\tline\tbegin\tend\tlabel\ttype\ttraditional\tpartners\ttext";

/// Header of the error listing of standoff documents: spans by character offsets.
pub const STANDOFF_ERRORS_HEADER: &str =
    "unit\tside\tline\tstart\tend\tlabel\ttype\ttraditional\tpartners\ttext";

/// One line per target and per system span: unit id, side (`target`/`system`), the line in its
/// file, token range, label, fair error type (the type the span was first counted with),
/// traditional type, partners (`LABEL[begin-end]` of the spans it was paired with) and the
/// span's text where the tokens are known. For standoff documents the ranges are `[start,
/// end)` character offsets ([`STANDOFF_ERRORS_HEADER`]) and the text is the document's.
pub fn errors_tsv(report: &FairReport) -> String {
    let mut out = String::new();
    let standoff = report.units.iter().any(|u| u.target.chars.is_some());
    let header = if standoff {
        STANDOFF_ERRORS_HEADER
    } else {
        ERRORS_HEADER
    };
    let _ = writeln!(out, "{header}");
    for u in &report.units {
        let o = &u.outcome;
        let sides = [
            (
                "target",
                &u.target,
                &u.system,
                &o.target_types,
                &o.target_traditional_tp,
                ErrorType::FN,
            ),
            (
                "system",
                &u.system,
                &u.target,
                &o.system_types,
                &o.system_traditional_tp,
                ErrorType::FP,
            ),
        ];
        // All partner lists in one walk over the assignments.
        let (t_partners, s_partners) = o.partner_lists();
        for (side, unit, other, types, trad, miss) in sides {
            let lists = if side == "target" {
                &t_partners
            } else {
                &s_partners
            };
            for (i, sp) in unit.spans.iter().enumerate() {
                let partners: Vec<String> = lists
                    .get(i)
                    .into_iter()
                    .flatten()
                    .filter_map(|&k| other.spans.get(k))
                    .map(|p| {
                        let (a, b) = other.extent(p);
                        format!("{}[{a}-{b}]", p.label)
                    })
                    .collect();
                let trad_type = if trad.get(i).copied().unwrap_or(false) {
                    ErrorType::TP
                } else {
                    miss
                };
                let text = unit.text_of(sp).unwrap_or_default();
                let (begin, end) = unit.extent(sp);
                let _ = writeln!(
                    out,
                    "{}\t{side}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    cell(&u.target.id),
                    unit.span_lines.get(i).copied().unwrap_or(0),
                    begin,
                    end,
                    cell(&sp.label),
                    types.get(i).map_or("", |t| t.as_str()),
                    trad_type.as_str(),
                    cell(&partners.join(" ")),
                    cell(&text.replace(['\t', '\n'], " "))
                );
            }
        }
    }
    out
}

/// Writes text to a file atomically ([`crate::io::write_atomic`]); a failure is an output
/// error.
pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    crate::io::write_atomic(path, contents.as_bytes())
}
