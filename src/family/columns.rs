//! The columns and values many families share: P, R, F-beta of weighted counts and the
//! `totals` table.

use crate::table::{Column, KeyKind, Kind, Table, Value};

/// The `totals` table: how much input was scored (`segments`, `characters`, …), one count per
/// row keyed by its measure.
pub fn totals_table(rows: &[(&str, f64)]) -> Table {
    let mut t = Table::new(
        "totals",
        "Totals",
        vec![KeyKind::Measure],
        vec![Column::new("n", Kind::Count)],
    );
    for (name, n) in rows {
        t.push(vec![(*name).to_string()], vec![Value::Count(*n as u64)]);
    }
    t
}

/// P, R and F-beta of weighted TP, FP and FN (each 0 when its denominator is 0).
pub fn prf(tp: f64, fp: f64, fn_: f64, beta: f64) -> (f64, f64, f64) {
    crate::metrics::prf::prf_beta(tp, tp + fp, tp + fn_, beta)
}

/// The metric columns `P`, `R`, `F1` and, for β ≠ 1, `F<β>`.
pub fn prf_columns(beta: f64) -> Vec<Column> {
    let mut c = vec![
        Column::new("P", Kind::Ratio),
        Column::new("R", Kind::Ratio),
        Column::new("F1", Kind::Ratio),
    ];
    if beta != 1.0 {
        c.push(Column::new(format!("F{beta}"), Kind::Ratio));
    }
    c
}

/// The values of [`prf_columns`] for weighted TP, FP and FN.
pub fn prf_values(tp: f64, fp: f64, fn_: f64, beta: f64) -> Vec<Value> {
    let (p, r, f1) = prf(tp, fp, fn_, 1.0);
    let mut v = vec![Value::ratio(p), Value::ratio(r), Value::ratio(f1)];
    if beta != 1.0 {
        v.push(Value::ratio(prf(tp, fp, fn_, beta).2));
    }
    v
}
