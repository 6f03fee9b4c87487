//! The Markdown summary of a campaign (`leaderboard.md`): counts, one ranked table per
//! dataset, language, output, column and regime (best values in bold), the runs that were not
//! scored with the reason, and the ranking files written. Cell text is escaped so that run
//! names cannot break the table or inject HTML.

use std::fmt::Write as _;

use crate::campaign::board::{Section, COLUMNS};
use crate::campaign::CampaignReport;

/// Renders the summary.
pub fn render(report: &CampaignReport, sections: &[Section]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Leaderboard: {}\n", esc(&report.campaign));
    let _ = writeln!(
        s,
        "Edition `{}`. {} runs scored ({} jobs), {} failed, {} files not taken as runs.\n",
        report.edition.replace('`', "'"),
        report.scored.len(),
        report.jobs,
        report.failed.len(),
        report.rejected.len()
    );
    if !report.failed.is_empty() || !report.rejected.is_empty() {
        s.push_str("## Not scored\n\n");
        for f in &report.failed {
            let _ = writeln!(
                s,
                "- {}: scoring failed: {}",
                esc(&f.run.file_name),
                esc(&f.errors.join("; "))
            );
        }
        for r in &report.rejected {
            let _ = writeln!(s, "- {}: {}", esc(&r.file_name), esc(&r.reason));
        }
        s.push('\n');
    }
    for sec in sections {
        let _ = writeln!(
            s,
            "## {} · {} ({} runs)\n",
            esc(&sec.dataset),
            esc(&sec.lang),
            sec.runs
        );
        if sec.groups.is_empty() {
            s.push_str("No scored runs.\n\n");
        }
        for g in &sec.groups {
            for t in &g.tables {
                let variant = if g.variant.is_empty() {
                    String::new()
                } else {
                    format!(" {}", esc(&g.variant))
                };
                let _ = writeln!(
                    s,
                    "### {} · {}{} · {}\n",
                    esc(&g.output),
                    esc(&g.column),
                    variant,
                    esc(&t.regime)
                );
                let _ = writeln!(s, "| # | System | {} |", COLUMNS.join(" | "));
                let _ = writeln!(s, "|---:|---|{}", "---:|".repeat(COLUMNS.len()));
                for r in &t.rows {
                    let cells: Vec<String> = r
                        .cells
                        .iter()
                        .map(|c| {
                            if c.best {
                                format!("**{}**", esc(&c.text))
                            } else {
                                esc(&c.text)
                            }
                        })
                        .collect();
                    let _ = writeln!(
                        s,
                        "| {} | {} | {} |",
                        r.rank,
                        esc(&r.system),
                        cells.join(" | ")
                    );
                }
                s.push('\n');
            }
        }
    }
    if !report.rankings.is_empty() {
        s.push_str("## Ranking files\n\n");
        for f in &report.rankings {
            let _ = writeln!(s, "- `rankings/{}` ({} rows)", f.file_name, f.rows);
        }
    }
    s
}

/// Escapes text for a Markdown table cell: HTML specials, pipes, `*`, code and link marks,
/// line breaks (`_` is left alone: GFM does not emphasise inside words).
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '|' | '*' | '`' | '[' | ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("a|b<script>*x_1"), "a\\|b&lt;script&gt;\\*x_1");
    }
}
