//! `leaderboard.tex` of a HIPE campaign from a [`Board`]: a standalone LaTeX document with one
//! booktabs table per ranked table (dataset, language, evaluated column, scope and regime),
//! the rows and numbers of the ranking files (three decimals, as the Markdown board), the best
//! value of each column in bold and, with resampling, the F1 interval, the p-values and a
//! `$^\dagger$` on the runs sharing first place. Captions name the table and the signature.

use std::fmt::Write as _;

use super::board::{Board, COLUMNS};
use super::table::latex::{booktabs, breakable, document_start, DOCUMENT_END, FIRST_MARK};
use crate::escape::latex as escape;

/// Renders the document.
pub fn render(board: &Board) -> String {
    let mut s = document_start(&format!("Leaderboard: {}", board.title));
    let _ = writeln!(
        s,
        "Edition {}. Tables follow the ranking files (micro scores of label ALL); best value per column in bold.\n",
        escape(&board.edition)
    );
    for sec in &board.sections {
        for g in &sec.groups {
            for t in &g.tables {
                let mut caption = format!(
                    "{} {}, {}",
                    escape(&sec.dataset),
                    escape(&sec.lang),
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
                head.extend(COLUMNS.iter().map(|c| c.to_string()));
                let mut align = String::from("rl");
                align.push_str(&"r".repeat(COLUMNS.len()));
                if t.marked {
                    head.extend(["F1 CI".into(), "p next".into(), "p top".into()]);
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
                        " F1 CI: {}\\,\\% percentile bootstrap interval over documents; p next, p top: paired randomization test against the next and the top run ({} resamples, seed {}).",
                        escape(&r.level),
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
                if !board.signature.is_empty() {
                    let _ = write!(
                        caption,
                        " Signature: \\texttt{{{}}}.",
                        breakable(&board.signature)
                    );
                }
                booktabs(&mut s, &caption, &align, &head, &rows);
            }
        }
    }
    s.push_str(DOCUMENT_END);
    s
}
