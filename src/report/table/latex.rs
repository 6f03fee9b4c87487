//! LaTeX: one booktabs table (`\toprule`, `\midrule`, `\bottomrule`) per result table, in a
//! standalone `article` document that compiles with pdflatex. Ratios in percent with two
//! decimals, the best ratio of each column in bold (tables of several rows; not in
//! comparisons), intervals beside their value in small type (`81.20 {\scriptsize [79.00,
//! 83.10]}`), runs sharing first place marked `$^\dagger$` (the column `first` becomes the
//! mark). Every caption names the table, the family and level, and the signature. Text is
//! escaped ([`crate::escape::latex`]), so names cannot break the document.

use std::fmt::Write as _;

use super::{cell, percent};
use crate::escape::latex as escape;
use crate::table::{KeyKind, Kind, Results, Table, Value};

/// The mark of runs sharing first place.
pub const FIRST_MARK: &str = "$^\\dagger$";

/// A long signature or name in a caption: escaped, with a break allowed after each `|`
/// and `,`.
pub fn breakable(text: &str) -> String {
    escape(text)
        .replace("\\textbar{}", "\\textbar{}\\allowbreak{}")
        .replace(',', ",\\allowbreak{}")
}

/// The head of a standalone document (article, booktabs, small margins).
pub fn document_start(title: &str) -> String {
    format!(
        "\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage[utf8]{{inputenc}}\n\
         \\usepackage{{booktabs}}\n\\usepackage[margin=2cm]{{geometry}}\n\\setlength{{\\tabcolsep}}{{4pt}}\n\
         \\begin{{document}}\n\\section*{{{}}}\n",
        escape(title)
    )
}

/// The end of a standalone document.
pub const DOCUMENT_END: &str = "\\end{document}\n";

/// One booktabs table: `align` (`lrr…`), a header row and body rows of LaTeX text, in a
/// `table` float with `caption` (LaTeX text) above it.
pub fn booktabs(
    out: &mut String,
    caption: &str,
    align: &str,
    head: &[String],
    rows: &[Vec<String>],
) {
    booktabs_heads(out, caption, align, &[head.to_vec()], rows);
}

/// [`booktabs`] with several header rows (above the `\midrule`).
pub fn booktabs_heads(
    out: &mut String,
    caption: &str,
    align: &str,
    heads: &[Vec<String>],
    rows: &[Vec<String>],
) {
    let _ = writeln!(out, "\\begin{{table}}[!htbp]\n\\centering\\small");
    let _ = writeln!(out, "\\caption{{{caption}}}");
    let _ = writeln!(out, "\\begin{{tabular}}{{{align}}}\n\\toprule");
    for head in heads {
        let _ = writeln!(out, "{} \\\\", head.join(" & "));
    }
    out.push_str("\\midrule\n");
    for r in rows {
        let _ = writeln!(out, "{} \\\\", r.join(" & "));
    }
    let _ = writeln!(out, "\\bottomrule\n\\end{{tabular}}\n\\end{{table}}");
    // Floats are flushed every six tables so that many tables never overflow LaTeX's queue.
    // Only the tables since the last flush are counted (every table and every flush of a
    // document is written here): counting the whole document made a document of n tables
    // cost n² (a campaign of many tasks).
    let since = out.rfind("\\clearpage\n").unwrap_or(0);
    if out[since..]
        .matches("\\begin{table}")
        .count()
        .is_multiple_of(6)
    {
        out.push_str("\\clearpage\n");
    }
    out.push('\n');
}

/// A value with its interval in small type: `81.20 {\scriptsize [79.00, 83.10]}`.
pub fn with_interval(value: &str, ci: Option<[f64; 2]>) -> String {
    match ci {
        Some([lo, hi]) => format!(
            "{value} {{\\scriptsize [{}, {}]}}",
            percent(lo),
            percent(hi)
        ),
        None => value.to_string(),
    }
}

/// The standalone document of all tables.
pub fn render(r: &Results) -> String {
    let mut out = document_start(&format!("fairscore: {}", r.family));
    fragment_into(&mut out, r);
    out.push_str(DOCUMENT_END);
    out
}

/// Appends the tables of `r` to `out` (a document being built).
pub fn fragment_into(out: &mut String, r: &Results) {
    for t in &r.tables {
        table(out, r, t);
    }
}

fn caption(r: &Results, t: &Table, marked: bool) -> String {
    let mut c = format!("{} ({}", escape(&t.title), escape(&r.family));
    if r.units > 0 {
        let _ = write!(
            c,
            ", {} {}{}",
            r.units,
            r.unit.name(),
            if r.units == 1 { "" } else { "s" }
        );
    }
    c.push_str("). Scores in percent");
    if let Some(s) = r.resampling {
        let _ = write!(
            c,
            "; in brackets the {:.0}\\,\\% percentile bootstrap interval over {}s ({} resamples, seed {})",
            s.confidence * 100.0,
            r.unit.name(),
            s.samples,
            s.seed
        );
    }
    c.push('.');
    if marked {
        let _ = write!(
            c,
            " {FIRST_MARK}: shares first place (not significantly worse than the top run)."
        );
    }
    if let Some(sig) = &r.signature {
        let _ = write!(
            c,
            " Signature: \\texttt{{{}}}.",
            breakable(&sig.to_string())
        );
    }
    c
}

/// Whether the best value of column `c` is marked: ratios of tables of several rows that are
/// not comparisons (where larger is not better).
fn boldable(t: &Table, kind: Kind) -> bool {
    kind == Kind::Ratio && t.rows.len() > 1 && !t.keys.contains(&KeyKind::Measure)
}

fn table(out: &mut String, r: &Results, t: &Table) {
    let first = t
        .column("first")
        .filter(|&i| t.columns[i].kind == Kind::Count);
    let shown: Vec<usize> = (0..t.columns.len()).filter(|&i| Some(i) != first).collect();
    let best: Vec<Option<String>> = t
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if !boldable(t, c.kind) {
                return None;
            }
            t.rows
                .iter()
                .filter_map(|row| row.values[i].as_f64())
                .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
                .map(percent)
        })
        .collect();
    let mut align: String = "l".repeat(t.keys.len());
    let mut head: Vec<String> = t.keys.iter().map(|k| escape(k.name())).collect();
    for &i in &shown {
        let c = &t.columns[i];
        align.push('r');
        head.push(match c.kind {
            Kind::Ratio => format!("{} (\\%)", escape(&c.name)),
            _ => escape(&c.name),
        });
    }
    let mut marked = false;
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|row| {
            let mut cells: Vec<String> = row.key.iter().map(|k| escape(k)).collect();
            let is_first = first.is_some_and(|i| row.values[i] == Value::Count(1));
            if is_first {
                marked = true;
                if let Some(k) = cells.first_mut() {
                    k.push_str(FIRST_MARK);
                }
            }
            for &i in &shown {
                let kind = t.columns[i].kind;
                let text = cell(kind, row.values[i]);
                let text = match &best[i] {
                    Some(b) if !text.is_empty() && &text == b => format!("\\textbf{{{text}}}"),
                    _ => text,
                };
                cells.push(with_interval(&text, row.ci[i]));
            }
            cells
        })
        .collect();
    booktabs(out, &caption(r, t, marked), &align, &head, &rows);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Column, Unit};

    #[test]
    fn escapes_bolds_and_marks() {
        assert_eq!(
            escape("a_b & 50% #1 {x} ~ ^ \\ $"),
            "a\\_b \\& 50\\% \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} \\$"
        );
        let mut t = Table::new(
            "ranking",
            "Ranking",
            vec![KeyKind::System],
            vec![
                Column::new("F1", Kind::Ratio),
                Column::new("first", Kind::Count),
            ],
        );
        t.push(
            vec!["team_a".into()],
            vec![Value::ratio(0.8), Value::Count(1)],
        );
        t.push(
            vec!["team_b".into()],
            vec![Value::ratio(0.5), Value::Count(0)],
        );
        t.rows[0].ci[0] = Some([0.7, 0.9]);
        let mut r = Results::new("spans", Unit::Document, 3);
        r.tables.push(t);
        let s = render(&r);
        assert!(
            s.contains("team\\_a$^\\dagger$ & \\textbf{80.00} {\\scriptsize [70.00, 90.00]} \\\\"),
            "{s}"
        );
        assert!(s.contains("team\\_b & 50.00 \\\\"), "{s}");
        assert!(s.contains("\\toprule") && s.contains("\\bottomrule") && s.ends_with(DOCUMENT_END));
        assert!(!s.contains("first (") && s.contains("shares first place"));
    }

    /// A page break after every sixth table of a document, counting from its start, as
    /// before the count was limited to the tables since the last break.
    #[test]
    fn a_page_break_every_six_tables() {
        let mut out = document_start("t");
        for _ in 0..20 {
            booktabs(&mut out, "c", "l", &["h".into()], &[vec!["x".into()]]);
        }
        let breaks: Vec<usize> = out
            .split("\\begin{table}")
            .skip(1)
            .enumerate()
            .filter(|(_, t)| t.contains("\\clearpage"))
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(breaks, [6, 12, 18]);
    }
}
