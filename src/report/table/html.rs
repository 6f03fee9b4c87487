//! A standalone HTML page of any family's tables (inline CSS, no script, no network), rendered
//! with Tera from `templates/table.html` with autoescaping on (the HTML rule of
//! [`crate::escape::html`]). On a narrow screen the tables
//! scroll inside their box, so the page is never wider than the screen.

use serde::Serialize;
use tera::Context;

use super::{cell, header, interval, provenance};
use crate::error::Result;
use crate::table::{Kind, Results};

const TEMPLATE: &str = include_str!("../../../templates/table.html");

#[derive(Serialize)]
struct PageCell {
    text: String,
    /// An inline background for heatmap cells (tables named `matrix-…`), else empty.
    style: String,
}

#[derive(Serialize)]
struct PageTable {
    title: String,
    head: Vec<String>,
    n_keys: usize,
    rows: Vec<Vec<PageCell>>,
}

/// The background of a heatmap cell holding the fraction `x` (clamped to [0, 1]): from white
/// (0) to a dark blue (1), with white text on the darker half.
fn heat(x: f64) -> String {
    let x = x.clamp(0.0, 1.0);
    let light = 97.0 - 62.0 * x;
    let text = if light < 60.0 { "#fff" } else { "#1b1b1b" };
    format!("background:hsl(210,70%,{light:.0}%);color:{text}")
}

/// Renders the page.
pub fn render(r: &Results) -> Result<String> {
    let ci = r.resampling.is_some();
    let tables: Vec<PageTable> = r
        .tables
        .iter()
        .map(|t| {
            let mut head: Vec<String> = t.keys.iter().map(|k| k.name().to_string()).collect();
            for c in &t.columns {
                head.push(header(&c.name, c.kind));
                if c.kind == Kind::Ratio && ci {
                    head.push(format!("{} CI", c.name));
                }
            }
            let heatmap = t.name.starts_with("matrix-");
            let plain = |text: String| PageCell {
                text,
                style: String::new(),
            };
            let rows = t
                .rows
                .iter()
                .map(|row| {
                    let mut cells: Vec<PageCell> = row.key.iter().cloned().map(plain).collect();
                    for ((c, v), i) in t.columns.iter().zip(&row.values).zip(&row.ci) {
                        let style = match v.as_f64() {
                            Some(x) if heatmap && c.kind == Kind::Ratio => heat(x),
                            _ => String::new(),
                        };
                        cells.push(PageCell {
                            text: cell(c.kind, *v),
                            style,
                        });
                        if c.kind == Kind::Ratio && ci {
                            cells.push(plain(i.map(interval).unwrap_or_default()));
                        }
                    }
                    cells
                })
                .collect();
            PageTable {
                title: t.title.clone(),
                head,
                n_keys: t.keys.len(),
                rows,
            }
        })
        .collect();
    let fail = |e: tera::Error| crate::report::html::template_error("table.html", &e);
    let mut tera = crate::report::html::tera();
    tera.add_raw_template("table.html", TEMPLATE)
        .map_err(fail)?;
    let mut ctx = Context::new();
    ctx.insert("family", &r.family);
    ctx.insert("provenance", &provenance(r));
    ctx.insert("warnings", &r.warnings);
    ctx.insert("tables", &tables);
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    ctx.insert(
        "signature",
        &r.signature
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default(),
    );
    tera.render("table.html", &ctx).map_err(fail)
}
