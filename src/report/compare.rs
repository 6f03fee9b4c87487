//! The outputs of `fairscore compare`: a table for reading and the `--json` tree
//! `{COLUMN: {REGIME: {"P"|"R"|"F1": {"a", "b", "diff", "ci": [lo, hi], "p"}}}}`.

use crate::escape::terminal;
use crate::eval::compare::CompareResult;
use crate::metrics::resample::Measure;
use crate::metrics::resample::{Paired, PairedTest};
use crate::metrics::PyNum;
use crate::report::json::Json;
use std::fmt::Write;

/// A number as JSON, with `-0.0` written as `0.0`.
fn num(x: f64) -> Json {
    Json::Num(PyNum::Float(x + 0.0))
}

fn comparison_json(c: &Paired) -> Json {
    let mut o = Json::obj();
    o.set("a", num(c.a));
    o.set("b", num(c.b));
    o.set("diff", num(c.diff));
    o.set("ci", Json::Arr(vec![num(c.ci.lo), num(c.ci.hi)]));
    o.set("p", num(c.p));
    o
}

/// The `--json` text (Python's `indent=4` layout): the micro scores over all labels.
pub fn json(result: &CompareResult) -> String {
    let mut root = Json::obj();
    for col in &result.columns {
        let c = root.entry(&col.column);
        for rc in &col.regimes {
            let r = c.entry(rc.regime.name());
            for (m, cmp) in rc.measures.iter() {
                r.set(m.name(), comparison_json(cmp));
            }
        }
    }
    let mut text = root.to_python_string();
    text.push('\n');
    text
}

/// `x` with a sign and `digits` decimals, never `-0.000…`.
fn signed(x: f64, digits: usize) -> String {
    let s = format!("{:+.*}", digits, x);
    match s.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => format!("+{rest}"),
        _ => s,
    }
}

/// A confidence level as a percentage: `95%`, `99.9%`.
fn percent(level: f64) -> String {
    let s = format!("{:.4}", level * 100.0);
    format!("{}%", s.trim_end_matches('0').trim_end_matches('.'))
}

/// A p-value: four decimals, or two significant digits below 0.001.
fn p_text(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.4}")
    } else {
        format!("{p:.1e}")
    }
}

/// The human-readable table: per column and regime, P, R and F1 of A and B, A − B, its
/// interval and the p-value.
pub fn table(result: &CompareResult) -> String {
    let o = &result.options;
    let rs = &o.resampler;
    let mut out = String::new();
    let test = match o.test {
        PairedTest::Permutation => "paired approximate randomization",
        PairedTest::Bootstrap => "paired bootstrap (shifted null)",
    };
    let level = percent(rs.confidence);
    let _ = writeln!(out, "A: {}", terminal(&result.run_a));
    let _ = writeln!(out, "B: {}", terminal(&result.run_b));
    let _ = writeln!(out, "gold: {}", terminal(&result.gold));
    let _ = writeln!(
        out,
        "p: two-sided, {test}, {} samples, seed {}; CI: {level} paired bootstrap interval of A - B",
        rs.samples, rs.seed
    );
    for col in &result.columns {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{} ({} {})",
            terminal(&col.column),
            col.documents,
            col.unit
        );
        let ci_head = format!("{level} CI of A - B");
        let _ = writeln!(
            out,
            "{:<9} {:<3} {:>7} {:>7} {:>8}  {:<19}  {:>7}",
            "regime", "", "A", "B", "A - B", ci_head, "p"
        );
        for rc in &col.regimes {
            for (i, m) in Measure::ALL.into_iter().enumerate() {
                let c = rc.measures.get(m);
                let regime = if i == 0 { rc.regime.name() } else { "" };
                let ci = format!("[{}, {}]", signed(c.ci.lo, 4), signed(c.ci.hi, 4));
                let mark = if c.p < 0.01 {
                    " **"
                } else if c.p < 0.05 {
                    " *"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "{:<9} {:<3} {:>7.4} {:>7.4} {:>8}  {:<19}  {:>7}{mark}",
                    regime,
                    m.name(),
                    c.a,
                    c.b,
                    signed(c.diff, 4),
                    ci,
                    p_text(c.p)
                );
            }
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "* p < 0.05, ** p < 0.01 (one test per row, not adjusted for multiple comparisons)"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_texts() {
        assert_eq!(signed(-0.00001, 4), "+0.0000");
        assert_eq!(signed(0.0, 4), "+0.0000");
        assert_eq!(signed(-0.25, 4), "-0.2500");
        assert_eq!(p_text(1.0), "1.0000");
        assert_eq!(p_text(0.0001), "1.0e-4");
        assert_eq!(percent(0.95), "95%");
        assert_eq!(percent(0.9), "90%");
        assert_eq!(percent(0.999), "99.9%");
    }
}
