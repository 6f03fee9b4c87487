//! GitHub Markdown: a heading per table, ratios in percent, intervals as `lo–hi`; every text
//! (provenance, titles, headers, keys) escaped by [`crate::escape::markdown`].

use std::fmt::Write as _;

use super::{cell, header, interval, provenance};
use crate::escape::markdown as esc;
use crate::table::{Kind, Results};

/// The Markdown of all tables, provenance first.
pub fn render(r: &Results) -> String {
    let mut out = String::new();
    for line in provenance(r) {
        let _ = writeln!(out, "{}  ", esc(&line));
    }
    let ci = r.resampling.is_some();
    for t in &r.tables {
        let _ = writeln!(out, "\n### {}\n", esc(&t.title));
        let mut head: Vec<String> = t.keys.iter().map(|k| k.name().to_string()).collect();
        let mut align: Vec<&str> = vec![":--"; head.len()];
        for c in &t.columns {
            head.push(header(&c.name, c.kind));
            align.push("--:");
            if c.kind == Kind::Ratio && ci {
                head.push(format!("{} CI", c.name));
                align.push("--:");
            }
        }
        let _ = writeln!(
            out,
            "| {} |",
            head.iter().map(|h| esc(h)).collect::<Vec<_>>().join(" | ")
        );
        let _ = writeln!(out, "|{}|", align.join("|"));
        for row in &t.rows {
            let mut cells: Vec<String> = row.key.iter().map(|k| esc(k)).collect();
            for ((c, v), i) in t.columns.iter().zip(&row.values).zip(&row.ci) {
                cells.push(cell(c.kind, *v));
                if c.kind == Kind::Ratio && ci {
                    cells.push(i.map(interval).unwrap_or_default());
                }
            }
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
    }
    if let Some(sig) = &r.signature {
        let _ = writeln!(
            out,
            "\nSignature: `{}`",
            crate::escape::terminal(&sig.to_string()).replace('`', "'")
        );
    }
    out
}
