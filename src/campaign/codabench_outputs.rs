//! The outputs of the Codabench scoring program ([`super::codabench`]): `scores.json` (every
//! leaderboard column's key and value) and `detailed_results.html` (the submission's page),
//! written together and atomically.

use std::path::Path;

use super::codabench::{Scored, DETAILED_FILE, SCORES_FILE, SIGNATURE_SPOT};
use super::families::{insight, FamilyCampaign};
use crate::error::{Error, Result};
use crate::escape::html as escape;
use crate::table::{Column, KeyKind, Kind, Results, Table, Unit, Value};

/// `scores.json`: a flat object of every column's key and value (a fraction), in leaderboard
/// order.
pub fn scores_json(s: &Scored) -> String {
    let mut m = serde_json::Map::new();
    for c in &s.scores {
        let n =
            serde_json::Number::from_f64(c.value).unwrap_or_else(|| serde_json::Number::from(0));
        m.insert(c.column.key.clone(), serde_json::Value::Number(n));
    }
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(m)).unwrap_or_default();
    text.push('\n');
    text
}

/// The page's results: the leaderboard columns (key, run, value), then every run's tables
/// titled by its column.
pub fn page_results(cfg: &FamilyCampaign, s: &Scored) -> Results {
    let mut out = Results::new(&cfg.name, Unit::Document, 0);
    let mut t = Table::new(
        "scores",
        "Leaderboard columns (scores.json)",
        vec![KeyKind::Column, KeyKind::System],
        vec![Column::new("score", Kind::Ratio)],
    );
    for c in &s.scores {
        t.push(
            vec![
                c.column.key.clone(),
                c.run.clone().unwrap_or_else(|| "(no run: 0)".into()),
            ],
            vec![Value::ratio(c.value)],
        );
    }
    out.tables.push(t);
    for c in &s.scores {
        let Some(r) = &c.results else { continue };
        for tb in &r.tables {
            let mut tb = tb.clone();
            tb.name = format!("{}-{}", c.column.key, tb.name);
            tb.title = format!("{} ({}): {}", c.column.title, r.family, tb.title);
            out.tables.push(tb);
        }
        for n in &r.notes {
            let n = format!("{} ({}): {n}", cfg.tasks[c.column.task].name, r.family);
            if !out.notes.contains(&n) {
                out.notes.push(n);
            }
        }
    }
    out.notes.extend(s.notes.iter().cloned());
    if !s.ignored.is_empty() {
        out.notes.push(format!(
            "files that are no runs, ignored: {}",
            s.ignored.join(", ")
        ));
    }
    out
}

/// The `inspect` page of a column's run beside the detailed results: `inspect_KEY.html` (the
/// key is sanitized: letters, digits and `_`).
pub fn inspect_name(key: &str) -> String {
    format!("inspect_{key}.html")
}

/// `detailed_results.html`: [`page_results`] as a standalone page, with the signature of each
/// column's scoring (marked by [`SIGNATURE_SPOT`]) and the links to the columns' `inspect`
/// pages (`pages`: column key, page file; or why it is missing) before `</body>`.
pub fn detailed_html(
    cfg: &FamilyCampaign,
    s: &Scored,
    pages: &[(String, std::result::Result<String, String>)],
) -> Result<String> {
    let r = page_results(cfg, s);
    #[cfg(feature = "html")]
    let page = crate::report::table::html::render(&r)?;
    #[cfg(not(feature = "html"))]
    let page = format!(
        "<!DOCTYPE html>\n<html><body><pre>{}</pre></body></html>\n",
        escape(&crate::report::table::render(
            &r,
            crate::table::TableFormat::Markdown
        )?)
    );
    let mut signed =
        format!("{SIGNATURE_SPOT}\n<section class=\"signatures\"><h2>Signatures</h2>\n");
    for c in &s.scores {
        if let Some(sig) = c.results.as_ref().and_then(|r| r.signature.as_ref()) {
            signed.push_str(&format!(
                "<p><code>{}</code>: <code style=\"overflow-wrap:anywhere\">{}</code></p>\n",
                escape(&c.column.key),
                escape(&sig.to_string())
            ));
        }
    }
    signed.push_str("</section>\n");
    if !pages.is_empty() {
        signed.push_str("<section class=\"inspect\"><h2>Errors in their text</h2>\n<ul>\n");
        for (key, page) in pages {
            match page {
                Ok(file) => signed.push_str(&format!(
                    "<li><a href=\"{}\">{}</a>: each document of the gold with this run's spans marked by error type</li>\n",
                    escape(&crate::escape::url_path(file)),
                    escape(key)
                )),
                Err(why) => signed.push_str(&format!(
                    "<li>{}: no page ({})</li>\n",
                    escape(key),
                    escape(why)
                )),
            }
        }
        signed.push_str("</ul>\n</section>\n");
    }
    Ok(match page.rfind("</body>") {
        Some(i) => format!("{}{signed}{}", &page[..i], &page[i..]),
        None => format!("{page}{signed}"),
    })
}

/// Writes `scores.json` and `detailed_results.html` into `output` (created if needed), both
/// or neither, each atomically (the worker uploads the page whenever it changes). Never
/// writes `metadata`, the worker's own file.
pub fn write_outputs(cfg: &FamilyCampaign, s: &Scored, output: &Path) -> Result<()> {
    std::fs::create_dir_all(output)
        .map_err(|e| Error::output(output, format!("cannot create the directory: {e}")))?;
    let scores = scores_json(s);
    // One page at a time, written and dropped before the next.
    let mut pages = Vec::new();
    // A campaign that asks for pages lists the runs that have none (a HIPE campaign's NEL
    // columns) with the reason.
    let asked = cfg.tasks.iter().any(|t| t.insight.inspect);
    for c in &s.scores {
        let t = &cfg.tasks[c.column.task];
        let Some((gold, run)) = &c.inspect else {
            if let Some(why) = insight::no_page(t).filter(|_| asked && c.run.is_some()) {
                pages.push((c.column.key.clone(), Err(why.to_string())));
            }
            continue;
        };
        let name = inspect_name(&c.column.key);
        let html = insight::page(t, gold, run);
        pages.push((
            c.column.key.clone(),
            match html {
                Ok(html) => {
                    crate::io::write_atomic(&output.join(&name), html.as_bytes())?;
                    Ok(name)
                }
                Err(e) => Err(e.to_string()),
            },
        ));
    }
    let page = detailed_html(cfg, s, &pages)?;
    let (a, b) = (output.join(SCORES_FILE), output.join(DETAILED_FILE));
    crate::io::write_atomic_all(&[
        (a.as_path(), scores.as_bytes()),
        (b.as_path(), page.as_bytes()),
    ])
}
