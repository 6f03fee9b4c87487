//! A table of a run's results keyed by one key (a label, a bucket) as a part of the run's
//! drill-down on a board ([`part`]), and how the boards pick and format a table's columns:
//! shared by the family tasks' boards (`family_page`) and a HIPE campaign's breakdowns
//! (`hipe_breakdowns`).

use crate::report::board::{counts_column, fixed3, DrillPart, LabelRow};
use crate::table::{Column, KeyKind, Kind};

/// The columns of a row as the page shows them: the scores (ratios) first, then the counts
/// and amounts, each group in the table's order; p-values are left out.
pub(super) fn shown(columns: &[Column]) -> Vec<usize> {
    let pick = |kinds: &[Kind]| {
        columns
            .iter()
            .enumerate()
            .filter(|(_, c)| kinds.contains(&c.kind))
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    let mut out = pick(&[Kind::Ratio]);
    out.extend(pick(&[Kind::Count, Kind::Amount]));
    out
}

/// Values of one column formatted alike: scores with three decimals, counts as whole numbers
/// (two decimals when some are fractional).
pub(super) fn column_texts(kind: Kind, values: &[Option<f64>]) -> Vec<String> {
    match kind {
        Kind::Ratio => values.iter().map(|v| fixed3(*v)).collect(),
        _ => counts_column(values),
    }
}

/// The rows of a table keyed by one key (a label: row `ALL` left out; a bucket) as a part of a
/// drill-down named `name`; `None` without rows.
pub(super) fn part(t: &crate::table::Table, name: &str) -> Option<DrillPart> {
    let shown = shown(&t.columns);
    let rows: Vec<_> = t
        .rows
        .iter()
        .filter(|x| t.keys != [KeyKind::Label] || x.key.first().is_none_or(|k| k != "ALL"))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let texts: Vec<Vec<String>> = shown
        .iter()
        .map(|&i| {
            let vals: Vec<Option<f64>> = rows
                .iter()
                .map(|x| x.values.get(i).and_then(|v| v.as_f64()))
                .collect();
            column_texts(t.columns[i].kind, &vals)
        })
        .collect();
    Some(DrillPart {
        regime: name.to_string(),
        columns: shown.iter().map(|&i| t.columns[i].name.clone()).collect(),
        labels: rows
            .iter()
            .enumerate()
            .map(|(n, x)| LabelRow {
                label: x.key.first().cloned().unwrap_or_default(),
                cells: texts.iter().map(|c| c[n].clone()).collect(),
            })
            .collect(),
    })
}
