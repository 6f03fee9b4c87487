//! The outputs of the Codabench scoring program ([`super::codabench`]): `scores.json` (every
//! leaderboard column's key and value) and `detailed_results.html` (the submission's page,
//! with the columns' `inspect` pages embedded: Codabench uploads this one file), written
//! together and atomically. Both are seen by participants (and the page by anyone who can
//! open the leaderboard, as Codabench may publish it): unless the campaign says
//! `reveal_gold = true`, nothing of the gold that the run's own scores do not give shows
//! ([`visible`], [`super::families::insight::run_only`]).

use std::path::Path;

use super::codabench::{Scored, DETAILED_FILE, SCORES_FILE, SIGNATURE_SPOT, WORST_COUNT};
use super::families::{insight, FamilyCampaign};
use crate::error::{Error, Result};
use crate::escape::html as escape;
use crate::table::{Column, KeyKind, Kind, Results, Table, Unit, Value};

/// `scores.json`: a flat object of every column's key and value (a fraction, or a count), in
/// leaderboard order; every value within ±[`WORST_COUNT`], as Codabench stores scores
/// (`numeric(20,10)`: below 10^10).
pub fn scores_json(s: &Scored) -> String {
    let mut m = serde_json::Map::new();
    for c in &s.scores {
        let v = c.value.clamp(-WORST_COUNT, WORST_COUNT);
        let n = serde_json::Number::from_f64(v).unwrap_or_else(|| serde_json::Number::from(0));
        m.insert(c.column.key.clone(), serde_json::Value::Number(n));
    }
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(m)).unwrap_or_default();
    text.push('\n');
    text
}

/// A run's table as participants may see it (`None`: not at all) unless the campaign reveals
/// the gold: no table of the gold alone (its mentions per label, `adequacy`), and of a
/// breakdown's examples only the run's spurious spans (FP), never the gold's missed ones.
/// Every other table holds the run's scores.
pub fn visible(tb: &Table) -> Option<Table> {
    if tb.name == crate::family::ADEQUACY_TABLE {
        return None;
    }
    let level = tb.keys.iter().position(|k| *k == KeyKind::Level);
    match level.filter(|_| tb.name.starts_with("breakdown:") && tb.name.ends_with(":examples")) {
        Some(l) => {
            let mut t = tb.clone();
            t.rows.retain(|r| r.key.get(l).is_some_and(|v| v == "FP"));
            t.title = format!(
                "{} (FP only: the gold is hidden, so are its missed spans)",
                t.title
            );
            Some(t)
        }
        None => Some(tb.clone()),
    }
}

/// The page's results: the leaderboard columns (key, run, value), then every run's tables
/// titled by its column (those participants may see, [`visible`], unless `reveal_gold`).
pub fn page_results(cfg: &FamilyCampaign, s: &Scored) -> Results {
    let mut out = Results::new(&cfg.name, Unit::Document, 0);
    let mut t = Table::new(
        "scores",
        "Leaderboard columns (scores.json)",
        vec![KeyKind::Column, KeyKind::System],
        vec![Column::new("score", Kind::Ratio)],
    );
    for c in &s.scores {
        let run = match (&c.run, &c.unscored) {
            (None, _) => "(no run)".to_string(),
            (Some(r), None) => r.clone(),
            (Some(r), Some(why)) => format!("{r}: not scored ({why})"),
        };
        let value = match c.column.lower_is_better {
            true => Value::amount(c.value),
            false => Value::ratio(c.value),
        };
        t.push(vec![c.column.key.clone(), run], vec![value]);
    }
    out.tables.push(t);
    for c in &s.scores {
        let Some(r) = &c.results else { continue };
        for tb in &r.tables {
            let shown = match cfg.reveal_gold {
                true => Some(tb.clone()),
                false => visible(tb),
            };
            let Some(mut tb) = shown else { continue };
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

/// `detailed_results.html`: [`page_results`] as a standalone page, with the signature of each
/// column's scoring (marked by [`SIGNATURE_SPOT`]) and the columns' `inspect` pages (`pages`:
/// column key, the page's HTML escaped for an attribute, or why there is none), each embedded
/// whole in an `iframe`'s `srcdoc` (Codabench uploads this file alone: a page beside it could
/// never be opened), before `</body>`.
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
        signed.push_str("<section class=\"inspect\"><h2>Errors in their text</h2>\n");
        signed.push_str(match cfg.reveal_gold {
            true => "<p>Each document of the gold with this run's spans and the gold's marked by error type.</p>\n",
            false => "<p>Each document's text with this run's own spans marked by the error type they were counted with; the gold is hidden (no gold span, label or missed span shows).</p>\n",
        });
        for (key, page) in pages {
            match page {
                Ok(srcdoc) => signed.push_str(&format!(
                    "<details id=\"inspect-{k}\"><summary>{k}</summary><iframe title=\"{k}\" style=\"width:100%;height:80vh;border:1px solid #ccc\" srcdoc=\"{srcdoc}\"></iframe></details>\n",
                    k = escape(key)
                )),
                Err(why) => signed.push_str(&format!(
                    "<p>{}: no page ({})</p>\n",
                    escape(key),
                    escape(why)
                )),
            }
        }
        signed.push_str("</section>\n");
    }
    Ok(match page.rfind("</body>") {
        Some(i) => format!("{}{signed}{}", &page[..i], &page[i..]),
        None => format!("{page}{signed}"),
    })
}

/// Writes `scores.json` and `detailed_results.html` into `output` (created if needed), both
/// or neither, each atomically (the worker uploads the page whenever it changes). Never
/// writes `metadata`, the worker's own file, nor any other.
pub fn write_outputs(cfg: &FamilyCampaign, s: &Scored, output: &Path) -> Result<()> {
    std::fs::create_dir_all(output)
        .map_err(|e| Error::output(output, format!("cannot create the directory: {e}")))?;
    let scores = scores_json(s);
    let mut pages = Vec::new();
    // A campaign that asks for pages lists the runs that have none (a HIPE campaign's NEL
    // columns) with the reason.
    let asked = cfg.tasks.iter().any(|t| t.insight.inspect);
    for c in &s.scores {
        let t = &cfg.tasks[c.column.task];
        let Some((gold, run)) = &c.inspect else {
            if let Some(why) = insight::no_page(t).filter(|_| asked && c.results.is_some()) {
                pages.push((c.column.key.clone(), Err(why.to_string())));
            }
            continue;
        };
        // Escaped at once (its lines kept), the page itself dropped.
        let html = insight::page(t, gold, run, cfg.reveal_gold);
        let srcdoc = html.map(|h| crate::escape::html_text(&h));
        pages.push((c.column.key.clone(), srcdoc.map_err(|e| e.to_string())));
    }
    let page = detailed_html(cfg, s, &pages)?;
    let (a, b) = (output.join(SCORES_FILE), output.join(DETAILED_FILE));
    crate::io::write_atomic_all(&[
        (a.as_path(), scores.as_bytes()),
        (b.as_path(), page.as_bytes()),
    ])
}
