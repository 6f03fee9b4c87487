//! Aligned plain text: a title line per table, key columns left-aligned, metric columns
//! right-aligned, ratios in percent; with intervals, a `95 % CI` column after each ratio.
//! Every text (provenance, titles, headers, keys) is shown by [`crate::escape::terminal`], so
//! that a label cannot move the cursor or forge a line.

use std::fmt::Write as _;

use super::{cell, header, interval, provenance};
use crate::escape::terminal;
use crate::table::{Kind, Results, Table};

/// The text of all tables, provenance lines first.
pub fn render(r: &Results) -> String {
    let mut out = String::new();
    for line in provenance(r) {
        let _ = writeln!(out, "{}", terminal(&line));
    }
    for t in &r.tables {
        out.push('\n');
        table(&mut out, t, r.resampling.map(|s| s.confidence));
    }
    if let Some(sig) = &r.signature {
        let _ = writeln!(out, "\nsignature: {}", terminal(&sig.to_string()));
    }
    out
}

fn table(out: &mut String, t: &Table, confidence: Option<f64>) {
    let _ = writeln!(out, "{}", terminal(&t.title));
    let mut head: Vec<String> = t.keys.iter().map(|k| k.name().to_string()).collect();
    let mut right = vec![false; head.len()];
    for c in &t.columns {
        head.push(terminal(&header(&c.name, c.kind)));
        right.push(true);
        if c.kind == Kind::Ratio && confidence.is_some() {
            head.push(terminal(&format!("{} CI", c.name)));
            right.push(true);
        }
    }
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(t.rows.len());
    for r in &t.rows {
        let mut line: Vec<String> = r.key.iter().map(|k| terminal(k)).collect();
        for ((c, v), ci) in t.columns.iter().zip(&r.values).zip(&r.ci) {
            line.push(cell(c.kind, *v));
            if c.kind == Kind::Ratio && confidence.is_some() {
                line.push(ci.map(interval).unwrap_or_default());
            }
        }
        rows.push(line);
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .chain([head[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    for line in std::iter::once(&head).chain(&rows) {
        let mut s = String::new();
        for (i, w) in widths.iter().enumerate() {
            let c = line.get(i).map(String::as_str).unwrap_or("");
            let pad = w.saturating_sub(c.chars().count());
            if i > 0 {
                s.push_str("  ");
            }
            if right[i] {
                s.extend(std::iter::repeat_n(' ', pad));
                s.push_str(c);
            } else {
                s.push_str(c);
                s.extend(std::iter::repeat_n(' ', pad));
            }
        }
        let _ = writeln!(out, "{}", s.trim_end());
    }
}
