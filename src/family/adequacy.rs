//! Is the gold adequate? Per label, the gold's mentions against the two marks of the MUC-7
//! evaluation guide (`../shared/seeds/`, step 2, "Balanced": at least 100 instances of each
//! entity type the system should extract, ideally 1,000 or more), the width of the label's F1
//! interval when resampling, and a flag on the labels too sparse to rank systems on (fewer than
//! 100 gold mentions). docs/breakdown.md, "Is the gold adequate?".
//!
//! A family says where its gold counts and its label F1 are ([`GoldMentions`], from
//! [`super::Family::gold_mentions`]); [`table`] makes the `adequacy` table of the one result
//! model after the intervals, so it is never resampled itself.

use crate::table::{Column, KeyKind, Kind, Results, Table, Value};

/// The marks of the MUC-7 guide: at least 100 gold mentions of a type, ideally 1,000.
pub const MARKS: [u64; 2] = [100, 1000];

/// The name of the adequacy table.
pub const TABLE: &str = "adequacy";

/// A family's gold mentions per label and where each label's F1 is.
#[derive(Debug, Clone, PartialEq)]
pub struct GoldMentions {
    /// Every label of the gold (at least one mention), as the family's tables key it, with
    /// its number of gold mentions.
    pub labels: Vec<(String, u64)>,
    /// The table whose rows give each label's F1.
    pub table: String,
    /// The parts of that table's row key before the label (a HIPE column and regime).
    pub prefix: Vec<String>,
    /// The F1 column of that table.
    pub column: String,
}

impl GoldMentions {
    /// The gold mentions of labels whose counts are `gold(i)` for the `i`-th of `labels`
    /// (labels without a gold mention are left out), F1 in `table`'s column `column`.
    pub fn of(
        labels: &[String],
        gold: impl Fn(usize) -> f64,
        table: &str,
        column: &str,
    ) -> GoldMentions {
        GoldMentions {
            labels: labels
                .iter()
                .enumerate()
                .map(|(i, l)| (l.clone(), gold(i).max(0.0).round() as u64))
                .filter(|(_, n)| *n > 0)
                .collect(),
            table: table.to_string(),
            prefix: Vec::new(),
            column: column.to_string(),
        }
    }
}

/// How many of [`MARKS`] `n` gold mentions reach (0, 1 or 2).
pub fn marks_reached(n: u64) -> u64 {
    MARKS.iter().filter(|&&m| n >= m).count() as u64
}

/// Whether a label of `n` gold mentions is too sparse to rank systems on (below 100).
pub fn sparse(n: u64) -> bool {
    n < MARKS[0]
}

/// The `adequacy` table: rows keyed by label, columns `gold` (mentions), `marks` (of 100 and
/// 1,000 reached), with resampling `width` (of the label's F1 interval in `r`; empty when
/// the cell has none) and `sparse` (1 below 100 mentions, else 0).
pub fn table(g: &GoldMentions, r: &Results) -> Table {
    let resampled = r.resampling.is_some();
    let mut columns = vec![
        Column::new("gold", Kind::Count),
        Column::new("marks", Kind::Count),
    ];
    if resampled {
        columns.push(Column::errors("width", Kind::Amount));
    }
    columns.push(Column::errors("sparse", Kind::Count));
    let mut t = Table::new(
        TABLE,
        &format!(
            "Gold adequacy (MUC-7 guide: at least {} mentions of each type, ideally {}): gold mentions, marks reached{}; sparse = 1 below {}, too few to rank systems on",
            MARKS[0],
            MARKS[1],
            if resampled {
                format!(", width of the label's {} interval in {}", g.column, g.table)
            } else {
                String::new()
            },
            MARKS[0]
        ),
        vec![KeyKind::Label],
        columns,
    );
    let source = r.table(&g.table);
    let col = source.and_then(|s| s.column(&g.column));
    for (label, n) in &g.labels {
        let mut key: Vec<&str> = g.prefix.iter().map(String::as_str).collect();
        key.push(label);
        let mut values = vec![Value::Count(*n), Value::Count(marks_reached(*n))];
        if resampled {
            let width = source
                .zip(col)
                .and_then(|(s, c)| s.row(&key)?.ci.get(c).copied().flatten())
                .map_or(Value::Missing, |ci| Value::amount(ci[1] - ci[0]));
            values.push(width);
        }
        values.push(Value::Count(u64::from(sparse(*n))));
        t.push(vec![label.clone()], values);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_flag_flip_at_the_guide_numbers() {
        assert_eq!([0, 99, 100, 999, 1000].map(marks_reached), [0, 0, 1, 1, 2]);
        assert!(sparse(99) && !sparse(100));
    }
}
