//! `leaderboard.tex` of a HIPE campaign from a [`Board`]: a standalone LaTeX document with one
//! booktabs table per ranked table (dataset, language, evaluated column, scope and regime),
//! the rows and numbers of the ranking files (three decimals, as the Markdown board), the best
//! value of each column in bold and, with resampling, the F1 interval, the p-values and a
//! `$^\dagger$` on the runs sharing first place. Captions name the table and the signature.
//! A family task's breakdowns follow its table: one table per key, the runs as rows in
//! ranking order and the buckets as columns (at most [`BUCKETS`] per table), each cell the
//! run's F1 in the bucket, the best of each bucket in bold, the gold's mentions of each bucket
//! under its name.

use std::fmt::Write as _;

use super::board::{Board, BreakdownGrid, Group, Section};
use super::table::latex::{
    booktabs, booktabs_heads, breakable, document_start, DOCUMENT_END, FIRST_MARK,
};
use crate::escape::latex as escape;

/// The most buckets of one breakdown table: more are split into tables of this many, so that a
/// table fits a page's width.
pub const BUCKETS: usize = 6;

/// Renders the document.
pub fn render(board: &Board) -> String {
    let mut s = document_start(&format!("Leaderboard: {}", board.title));
    if !board.edition.is_empty() {
        let _ = write!(s, "Edition {}. ", escape(&board.edition));
    }
    let _ = writeln!(
        s,
        "{}; best value per column in bold.\n",
        escape(&super::markdown::capitalized(&board.about))
    );
    for sec in &board.sections {
        for g in &sec.groups {
            for t in &g.tables {
                let mut caption = format!(
                    "{}, {}",
                    escape(&super::markdown::section_name(&sec.dataset, &sec.lang)),
                    escape(&g.title)
                );
                if !g.scope.is_empty() {
                    let _ = write!(caption, ", {}", escape(&g.scope));
                }
                let _ = write!(
                    caption,
                    ", {}, {} (ranking file \\texttt{{{}}}).",
                    escape(&g.output),
                    escape(&t.regime),
                    breakable(&t.ranking)
                );
                let mut head: Vec<String> = vec!["\\#".into(), "System".into()];
                head.extend(t.columns.iter().map(|c| escape(c)));
                let mut align = String::from("rl");
                align.push_str(&"r".repeat(t.columns.len()));
                if t.marked {
                    head.extend([
                        format!("{} CI", escape(&t.metric)),
                        "p next".into(),
                        "p top".into(),
                    ]);
                    align.push_str("rrr");
                }
                let mut any_first = false;
                let rows: Vec<Vec<String>> = t
                    .rows
                    .iter()
                    .map(|r| {
                        let mut system = escape(&r.system);
                        let mut cells = vec![r.rank.to_string()];
                        let first = t.marked && r.mark.as_ref().is_some_and(|m| m.shares_first);
                        if first {
                            any_first = true;
                            system.push_str(FIRST_MARK);
                        }
                        cells.push(system);
                        for c in &r.cells {
                            let text = escape(&c.text);
                            cells.push(if c.best {
                                format!("\\textbf{{{text}}}")
                            } else {
                                text
                            });
                        }
                        if let (true, Some(m)) = (t.marked, &r.mark) {
                            cells.push(format!("[{}, {}]", escape(&m.lo), escape(&m.hi)));
                            cells.push(escape(&m.p_next));
                            cells.push(escape(&m.p_top));
                        }
                        cells
                    })
                    .collect();
                if let Some(r) = &board.resampling {
                    let _ = write!(
                        caption,
                        " {} CI: {}\\,\\% percentile bootstrap interval over {}; p next, p top: paired randomization test against the next and the top run ({} resamples, seed {}).",
                        escape(&t.metric),
                        escape(&r.level),
                        escape(&r.units),
                        r.samples,
                        r.seed
                    );
                }
                if any_first {
                    let _ = write!(
                        caption,
                        " {FIRST_MARK}: shares first place (not significantly different from the top run)."
                    );
                }
                signed(&mut caption, board, g);
                booktabs(&mut s, &caption, &align, &head, &rows);
            }
            for grid in &g.breakdowns {
                breakdown(&mut s, board, sec, g, grid);
            }
        }
    }
    s.push_str(DOCUMENT_END);
    s
}

/// Adds the signature of a group's numbers (its own, else the board's) to a caption.
fn signed(caption: &mut String, board: &Board, g: &Group) {
    let signature = if g.signature.is_empty() {
        &board.signature
    } else {
        &g.signature
    };
    if !signature.is_empty() {
        let _ = write!(caption, " Signature: \\texttt{{{}}}.", breakable(signature));
    }
}

/// The tables of one breakdown key of a group.
fn breakdown(s: &mut String, board: &Board, sec: &Section, g: &Group, grid: &BreakdownGrid) {
    let parts = grid.buckets.len().div_ceil(BUCKETS);
    for part in 0..parts {
        let from = part * BUCKETS;
        let to = grid.buckets.len().min(from + BUCKETS);
        let buckets = &grid.buckets[from..to];
        let mut caption = format!(
            "{}, {}, {}: {} by {}",
            escape(&super::markdown::section_name(&sec.dataset, &sec.lang)),
            escape(&g.title),
            escape(&g.output),
            escape(&grid.metric),
            escape(&grid.key)
        );
        if parts > 1 {
            let _ = write!(caption, " ({} of {})", part + 1, parts);
        }
        let _ = write!(
            caption,
            ", one column per bucket. A gold span counts in the bucket of its own value (recall), \
             a run span in the bucket of its own (precision); gold: the gold's mentions in the \
             bucket; best value per bucket in bold; –: the run has no such bucket."
        );
        signed(&mut caption, board, g);
        let mut names = vec!["\\#".to_string(), "System".to_string()];
        names.extend(buckets.iter().map(|b| escape(&b.name)));
        let mut golds = vec![String::new(), "gold".to_string()];
        golds.extend(buckets.iter().map(|b| escape(&b.gold)));
        let rows: Vec<Vec<String>> = grid
            .rows
            .iter()
            .map(|r| {
                let mut cells = vec![r.rank.to_string(), escape(&r.system)];
                cells.extend(r.cells.iter().skip(from).take(to - from).map(|c| {
                    let text = escape(&c.text);
                    if c.best {
                        format!("\\textbf{{{text}}}")
                    } else {
                        text
                    }
                }));
                cells
            })
            .collect();
        let align = format!("rl{}", "r".repeat(buckets.len()));
        booktabs_heads(s, &caption, &align, &[names, golds], &rows);
    }
}
