//! CSV and TSV in long form, one line per cell: `table, <key columns…>, metric, value, lo, hi`.
//! The key columns are every key kind used by any table, in order of first use (empty where a
//! table does not have it); values are as in JSON (fractions), quoting by the csv crate. Every
//! text cell (table, keys, metric) goes through [`crate::escape::cell`]: no tab or line break
//! inside a cell, no cell a spreadsheet would run as a formula.

use crate::error::{Error, Result};
use crate::escape::cell;
use crate::table::{KeyKind, Results};
use std::path::Path;

/// All tables as delimited text (`delimiter` `b','` or `b'\t'`).
pub fn render(r: &Results, delimiter: u8) -> Result<String> {
    let mut kinds: Vec<KeyKind> = Vec::new();
    for t in &r.tables {
        for k in &t.keys {
            if !kinds.contains(k) {
                kinds.push(*k);
            }
        }
    }
    let fail = |e: csv::Error| Error::output(Path::new("<table>"), e.to_string());
    let mut w = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .from_writer(Vec::new());
    let mut head = vec!["table".to_string()];
    head.extend(kinds.iter().map(|k| k.name().to_string()));
    head.extend(["metric", "value", "lo", "hi"].map(String::from));
    w.write_record(&head).map_err(fail)?;
    let num = |x: f64| {
        if x.is_finite() {
            x.to_string()
        } else {
            String::new()
        }
    };
    for t in &r.tables {
        for row in &t.rows {
            for ((c, v), ci) in t.columns.iter().zip(&row.values).zip(&row.ci) {
                let mut rec = vec![cell(&t.name)];
                for k in &kinds {
                    let i = t.keys.iter().position(|x| x == k);
                    rec.push(
                        i.and_then(|i| row.key.get(i))
                            .map_or_else(String::new, |k| cell(k)),
                    );
                }
                rec.push(cell(&c.name));
                rec.push(v.as_f64().map(num).unwrap_or_default());
                let [lo, hi] = ci.map_or([String::new(), String::new()], |[a, b]| [num(a), num(b)]);
                rec.push(lo);
                rec.push(hi);
                w.write_record(&rec).map_err(fail)?;
            }
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::output(Path::new("<table>"), e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| Error::output(Path::new("<table>"), e.to_string()))
}
