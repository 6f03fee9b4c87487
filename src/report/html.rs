//! The HTML leaderboard (`index.html`): one self-contained page (inline CSS and SVG, no
//! script, no network) rendered with Tera from `templates/leaderboard.html`, embedded in the
//! binary. Autoescaping is on for every value, so run names and labels cannot inject markup.

use std::path::Path;

use serde::Serialize;
use tera::{Context, Tera};

use crate::campaign::board::{Section, COLUMNS};
use crate::campaign::CampaignReport;
use crate::{Error, Result};

const TEMPLATE_NAME: &str = "leaderboard.html";
const TEMPLATE: &str = include_str!("../../templates/leaderboard.html");

#[derive(Serialize)]
struct NotScored<'a> {
    file: &'a str,
    reason: String,
}

/// Renders the page.
pub fn render(report: &CampaignReport, sections: &[Section]) -> Result<String> {
    let fail = |e: tera::Error| {
        // Tera nests the useful message in its source chain.
        let mut msg = e.to_string();
        let mut src = std::error::Error::source(&e);
        while let Some(s) = src {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            src = s.source();
        }
        Error::output(Path::new("index.html"), format!("template: {msg}"))
    };
    let mut tera = Tera::default();
    tera.autoescape_on(vec![".html"]);
    tera.add_raw_template(TEMPLATE_NAME, TEMPLATE)
        .map_err(fail)?;
    let not_scored: Vec<NotScored<'_>> = report
        .failed
        .iter()
        .map(|f| NotScored {
            file: &f.run.file_name,
            reason: format!("scoring failed: {}", f.errors.join("; ")),
        })
        .chain(report.rejected.iter().map(|r| NotScored {
            file: &r.file_name,
            reason: r.reason.clone(),
        }))
        .collect();
    let mut ctx = Context::new();
    ctx.insert("campaign", &report.campaign);
    ctx.insert("edition", &report.edition);
    ctx.insert("scored", &report.scored.len());
    ctx.insert("jobs", &report.jobs);
    ctx.insert("not_scored", &not_scored);
    ctx.insert("sections", sections);
    ctx.insert("columns", &COLUMNS);
    ctx.insert("rankings", &report.rankings);
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    tera.render(TEMPLATE_NAME, &ctx).map_err(fail)
}
