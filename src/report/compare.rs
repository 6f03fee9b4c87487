//! The outputs of `fairscore compare` of HIPE or CoNLL runs: a table for reading and the one
//! result table ([`results`]: its JSON and every `--table` format).

use crate::escape::terminal;
use crate::eval::compare::CompareResult;
use crate::metrics::resample::Measure;
use crate::metrics::resample::PairedTest;
use crate::table::{KeyKind, Results, Unit, Value};
use std::fmt::Write;

/// The comparison as the one result table (`docs/results.schema.json`): table `compare`, a
/// row per column, regime and measure (P, R, F1) with `A`, `B`, `A-B`, the interval `lo`,
/// `hi` of A − B and the p-value `p`, as `compare --family` gives them; notes say the runs,
/// the test and the resampling.
pub fn results(result: &CompareResult) -> Results {
    let o = &result.options;
    let rs = &o.resampler;
    let (units, unit) = result.columns.first().map_or((0, Unit::Document), |c| {
        let unit = if c.unit.starts_with("sentence") {
            Unit::Sentence
        } else {
            Unit::Document
        };
        (c.documents, unit)
    });
    let mut r = Results::new("hipe", unit, units);
    r.notes = vec![
        format!("A: {}", result.run_a),
        format!("B: {}", result.run_b),
        format!("gold: {}", result.gold),
        format!(
            "paired {} over {}s, {} resamples, seed {}; interval of A-B: {} paired bootstrap",
            match o.test {
                PairedTest::Permutation => "approximate randomization",
                PairedTest::Bootstrap => "bootstrap (shifted null)",
            },
            unit.name(),
            rs.samples,
            rs.seed,
            percent(rs.confidence)
        ),
    ];
    r.warnings = result.warnings.clone();
    let mut t =
        crate::family::compare_table(vec![KeyKind::Column, KeyKind::Regime, KeyKind::Measure]);
    for col in &result.columns {
        for rc in &col.regimes {
            for (m, c) in rc.measures.iter() {
                // `+ 0.0` writes -0.0 as 0.0.
                t.push(
                    vec![
                        col.column.clone(),
                        rc.regime.name().to_string(),
                        m.name().to_string(),
                    ],
                    vec![
                        Value::ratio(c.a),
                        Value::ratio(c.b),
                        Value::ratio(c.diff + 0.0),
                        Value::ratio(c.ci.lo + 0.0),
                        Value::ratio(c.ci.hi + 0.0),
                        Value::amount(c.p),
                    ],
                );
            }
        }
    }
    r.tables.push(t);
    r
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
