//! The Markdown summary of a campaign (`leaderboard.md`) from a [`Board`]: counts, what was
//! not evaluated or not scored, one ranked table per dataset, language, evaluated column and
//! regime (the rows and order of the ranking files, best values in bold), each team's best
//! runs, the tables left out, and the ranking files. With resampling, each table also has
//! the F1 interval, the p-values against the next and the top run, and `=1` on the runs that
//! share first place. Text is escaped for Markdown by
//! [`crate::escape::markdown`] (backslash escapes, no HTML entities), so names cannot break a
//! table or inject markup.

use std::fmt::Write as _;

use super::board::{Board, Notice};
use crate::escape::markdown as esc;

/// Renders the summary.
pub fn render(board: &Board) -> String {
    let mut s = String::new();
    let sum = &board.summary;
    let _ = writeln!(s, "# Leaderboard: {}\n", esc(&board.title));
    if !board.edition.is_empty() {
        let _ = write!(s, "Edition {}. ", esc(&board.edition));
    }
    let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
    let _ = writeln!(
        s,
        "{} scored ({}), {} failed ({}), {} not taken as runs, {} outputs not evaluated. \
         {}; best value per column in bold.\n",
        n(sum.runs, "run"),
        n(sum.jobs, "scoring"),
        n(sum.failed, "run"),
        n(sum.failed_jobs, "scoring"),
        n(sum.rejected, "file"),
        sum.not_evaluated,
        esc(&capitalized(&board.about))
    );
    if let Some(r) = &board.resampling {
        let _ = writeln!(
            s,
            "{m} CI: {level} % percentile bootstrap interval over {units}; p next, p top: paired \
             randomization test of {m} against the next run down and the top run; =1: not \
             significantly different from the top run (p top ≥ {alpha}), sharing first place. \
             {samples} resamples, seed {seed}. The {units} of the test set are what is \
             resampled: the numbers say how much {m} depends on which {units} were tested (with \
             few of them, a rough guide), not how a system would fare on other data or with \
             another training seed.\n",
            m = esc(&board.metric),
            units = esc(&r.units),
            level = esc(&r.level),
            alpha = esc(&r.alpha),
            samples = r.samples,
            seed = r.seed
        );
    }
    notices(&mut s, "Not evaluated", &board.not_evaluated);
    notices(&mut s, "Not scored", &board.not_scored);
    for sec in &board.sections {
        let _ = writeln!(
            s,
            "## {} ({} runs)\n",
            esc(&section_name(&sec.dataset, &sec.lang)),
            sec.runs
        );
        for n in &sec.notes {
            let _ = writeln!(s, "Note: {}\n", esc(n));
        }
        if sec.groups.is_empty() {
            s.push_str("No ranked runs.\n\n");
        }
        for g in &sec.groups {
            let scope = if g.scope.is_empty() {
                String::new()
            } else {
                format!(" · {}", esc(&g.scope))
            };
            for t in &g.tables {
                let _ = writeln!(
                    s,
                    "### {} · {}{scope} · {}\n",
                    esc(&g.title),
                    esc(&g.output),
                    esc(&t.regime)
                );
                let (extra, extra_rule) = if t.marked {
                    (
                        format!(" {} CI | p next | p top | 1st |", esc(&t.metric)),
                        "---|---:|---:|---|",
                    )
                } else {
                    (String::new(), "")
                };
                let heads: Vec<String> = t.columns.iter().map(|c| esc(c)).collect();
                let _ = writeln!(s, "| # | System | {} |{extra}", heads.join(" | "));
                let _ = writeln!(s, "|---:|---|{}{extra_rule}", "---:|".repeat(heads.len()));
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
                    let marks = match (&r.mark, t.marked) {
                        (Some(m), true) => format!(
                            " {}–{} | {} | {} | {} |",
                            m.lo,
                            m.hi,
                            esc(&m.p_next),
                            esc(&m.p_top),
                            if m.shares_first { "=1" } else { "" }
                        ),
                        _ => String::new(),
                    };
                    let system = match &r.inspect {
                        // The link is URL-encoded already (escape::url_path).
                        Some(link) => format!("[{}]({link})", esc(&r.system)),
                        None => esc(&r.system),
                    };
                    let _ = writeln!(
                        s,
                        "| {} | {system} | {} |{marks}",
                        r.rank,
                        cells.join(" | ")
                    );
                }
                s.push('\n');
                if !g.signature.is_empty() {
                    let _ = writeln!(
                        s,
                        "Signature: `{}`\n",
                        crate::escape::terminal(&g.signature).replace('`', "'")
                    );
                }
                for f in &t.folded {
                    let _ = writeln!(s, "- {}: {}", esc(&f.subject), esc(&f.reason));
                }
                if !t.folded.is_empty() {
                    s.push('\n');
                }
            }
            if !g.gold.is_empty() {
                let labels: Vec<String> = g
                    .gold
                    .iter()
                    .map(|l| {
                        let flag = if l.sparse { " (sparse)" } else { "" };
                        format!("{} {}{flag}", esc(&l.label), l.mentions)
                    })
                    .collect();
                let _ = writeln!(
                    s,
                    "Gold mentions per label (MUC-7 guide: at least 100 of each type, ideally 1,000; sparse: below 100, too few to rank systems on): {}\n",
                    labels.join(" · ")
                );
            }
            breakdowns(&mut s, g);
        }
    }
    if !board.teams.is_empty() {
        s.push_str("## By team\n\nEach team's best run per table and the team's rank among the teams of that table.\n\n");
        for card in &board.teams {
            let _ = writeln!(s, "### {}\n", esc(&card.team));
            let _ = writeln!(
                s,
                "| Data | Table | Run | {} | Rank |\n|---|---|---|---:|---:|",
                esc(&board.metric)
            );
            for e in &card.entries {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} of {} |",
                    esc(&e.section),
                    esc(&e.table),
                    esc(&e.system),
                    esc(&e.score),
                    e.rank,
                    e.teams
                );
            }
            s.push('\n');
        }
    }
    notices(&mut s, "Tables left out", &board.skipped);
    if !board.rankings.is_empty() {
        s.push_str("## Ranking files\n\n");
        for f in &board.rankings {
            let _ = writeln!(s, "- rankings/{} ({} rows)", esc(&f.file), f.rows);
        }
    }
    if !board.signature.is_empty() {
        let _ = writeln!(
            s,
            "\nSignature: `{}`",
            crate::escape::terminal(&board.signature).replace('`', "'")
        );
    }
    s
}

/// A section's heading: the dataset, and the language when there is one.
/// Each run's breakdowns of a group: a line naming the run, then one collapsed `<details>` per
/// key with the buckets as a table (the summary, HTML, names only the key; the names are in
/// Markdown).
fn breakdowns(s: &mut String, g: &crate::report::board::Group) {
    for d in g.drill.iter().filter(|d| !d.breakdowns.is_empty()) {
        let _ = writeln!(s, "Breakdowns of {} ({}):\n", esc(&d.system), esc(&g.title));
        for p in &d.breakdowns {
            let _ = writeln!(
                s,
                "<details><summary>breakdown by {}</summary>\n",
                crate::escape::html(&p.regime)
            );
            let heads: Vec<String> = p.columns.iter().map(|c| esc(c)).collect();
            let _ = writeln!(s, "| Bucket | {} |", heads.join(" | "));
            let _ = writeln!(s, "|---|{}", "---:|".repeat(heads.len()));
            for l in &p.labels {
                let cells: Vec<String> = l.cells.iter().map(|c| esc(c)).collect();
                let _ = writeln!(s, "| {} | {} |", esc(&l.label), cells.join(" | "));
            }
            s.push_str("\n</details>\n\n");
        }
    }
}

pub(crate) fn section_name(dataset: &str, lang: &str) -> String {
    if lang.is_empty() {
        dataset.to_string()
    } else {
        format!("{dataset} · {lang}")
    }
}

/// `text` with its first letter upper-cased.
pub(crate) fn capitalized(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn notices(s: &mut String, title: &str, list: &[Notice]) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(s, "## {title}\n");
    for n in list {
        let _ = writeln!(s, "- {}: {}", esc(&n.subject), esc(&n.reason));
    }
    s.push('\n');
}
