//! The compact summary `score` prints on a terminal (or with `--summary`): per n-best cutoff
//! and column, the micro strict and fuzzy P, R, F1 with TP, FP and FN over all labels, for all
//! documents (no period or noise filter). Batch use, where stdout is not a terminal, stays
//! silent unless asked.

use crate::eval::score::ColumnResult;
use crate::hipe::Task;
use std::fmt::Write;

/// The summary table of one scoring; `run` names the run in the title line.
pub fn table(run: &str, task: Task, results: &[(usize, Vec<ColumnResult>)]) -> String {
    let mut rows: Vec<[String; 8]> = Vec::new();
    for (k, cols) in results {
        for c in cols
            .iter()
            .filter(|c| c.time == "TIME-ALL" && c.noise == "LED-ALL")
        {
            let name = if results.len() > 1 || task == Task::Nel {
                format!("{}@{k}", c.column)
            } else {
                c.column.clone()
            };
            for (regime, s) in [
                ("strict", &c.eval.all.strict),
                ("fuzzy", &c.eval.all.ent_type),
            ] {
                rows.push([
                    name.clone(),
                    regime.to_string(),
                    format!("{:.3}", s.p_micro.as_f64()),
                    format!("{:.3}", s.r_micro.as_f64()),
                    format!("{:.3}", s.f1_micro.as_f64()),
                    s.tp().to_string(),
                    s.fp().to_string(),
                    s.fn_().to_string(),
                ]);
            }
        }
    }
    let head = ["column", "regime", "P", "R", "F1", "TP", "FP", "FN"];
    let mut width = head.map(str::len);
    for r in &rows {
        for (w, cell) in width.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = format!(
        "{} ({}, micro over all labels)\n",
        crate::escape::terminal(run),
        task.as_str()
    );
    let mut line = |cells: &[&str]| {
        let mut l = String::new();
        for (i, (cell, w)) in cells.iter().zip(width).enumerate() {
            // Text left-aligned, numbers right-aligned.
            let _ = if i < 2 {
                write!(l, "{cell:<w$}  ")
            } else {
                write!(l, "{cell:>w$}  ")
            };
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&head);
    let mut last = String::new();
    for r in &rows {
        let col = if r[0] == last { "" } else { r[0].as_str() };
        let cells: Vec<&str> = std::iter::once(col)
            .chain(r[1..].iter().map(String::as_str))
            .collect();
        line(&cells);
        last.clone_from(&r[0]);
    }
    out
}
