//! Fair-regime confusion matrices that stay small whatever the number of labels: the labels
//! most involved in errors are kept (at most [`TOP_LABELS`], plus the "none" label `_` or `O`)
//! and every other label is summed into one `other` row and column. Link columns have a label
//! per Wikidata QID (a thousand and more); a full QID × QID grid would be millions of cells.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::matching::fair::FairCounts;

/// Labels kept on each axis besides "none" and `other`.
pub const TOP_LABELS: usize = 8;

/// Label of the row and column that sum the labels left out.
pub const OTHER: &str = "other";

/// A confusion matrix of the fair regime: `counts[i][j]` entities of gold label `rows[i]`
/// labelled `cols[j]` by the system (`_` or `O` for none), and the error-type totals.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ConfusionMatrix {
    /// Gold labels, one per row.
    pub rows: Vec<String>,
    /// System labels, one per column.
    pub cols: Vec<String>,
    /// `counts[i][j]`: entities of gold label `rows[i]` labelled `cols[j]` by the system.
    pub counts: Vec<Vec<u64>>,
    /// Error-type totals (TP, FP, FN, LE, BE, LBE), when known.
    pub totals: Vec<(String, u64)>,
    /// Number of labels summed into the `other` row or column (0: none left out).
    pub folded: usize,
}

/// "None" (`_`, `O`) and an `other` row from an earlier compaction are always kept.
fn always_kept(l: &str) -> bool {
    matches!(l, "_" | "O" | OTHER)
}

/// The indices of the labels to keep, in display order, and how many were left out. When all
/// fit, all are kept in their order; otherwise the `top` heaviest (ties in label order),
/// heaviest first, then "none" and `other`.
fn keep(labels: &[String], weight: &[u64], top: usize) -> (Vec<usize>, usize) {
    let mut order: Vec<usize> = (0..labels.len())
        .filter(|&i| !always_kept(&labels[i]))
        .collect();
    if order.len() <= top {
        return ((0..labels.len()).collect(), 0);
    }
    let folded = order.len() - top;
    order.sort_by(|&a, &b| weight[b].cmp(&weight[a]).then(labels[a].cmp(&labels[b])));
    order.truncate(top);
    order.extend((0..labels.len()).filter(|&i| always_kept(&labels[i])));
    (order, folded)
}

/// Maps each old index to its new one (left-out labels to `other`, last) and gives the new
/// label list.
fn remap(labels: &[String], kept: &[usize], folded: usize) -> (Vec<usize>, Vec<String>) {
    let mut names: Vec<String> = kept.iter().map(|&i| labels[i].clone()).collect();
    let other = match names.iter().position(|n| n == OTHER) {
        Some(o) => o,
        None if folded > 0 => {
            names.push(OTHER.to_string());
            names.len() - 1
        }
        None => 0,
    };
    let mut index = vec![other; labels.len()];
    for (new, &old) in kept.iter().enumerate() {
        index[old] = new;
    }
    (index, names)
}

impl ConfusionMatrix {
    /// A compact matrix from the sparse counts of the fair evaluation (gold → system →
    /// count) over `labels`, with the error-type totals of `overall`.
    pub fn from_sparse(
        labels: &[String],
        sparse: &BTreeMap<String, BTreeMap<String, u64>>,
        overall: Option<&FairCounts>,
        top: usize,
    ) -> ConfusionMatrix {
        let pos: BTreeMap<&str, usize> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| (l.as_str(), i))
            .collect();
        let mut weight = vec![0u64; labels.len()];
        let cells: Vec<(usize, usize, u64)> = sparse
            .iter()
            .flat_map(|(g, row)| row.iter().map(move |(s, &c)| (g, s, c)))
            .filter_map(|(g, s, c)| Some((*pos.get(g.as_str())?, *pos.get(s.as_str())?, c)))
            .collect();
        for &(g, s, c) in &cells {
            weight[g] += c;
            weight[s] += c;
        }
        let (kept, folded) = keep(labels, &weight, top);
        let (index, names) = remap(labels, &kept, folded);
        let mut counts = vec![vec![0u64; names.len()]; names.len()];
        for (g, s, c) in cells {
            counts[index[g]][index[s]] += c;
        }
        ConfusionMatrix {
            rows: names.clone(),
            cols: names,
            counts,
            totals: overall.map(totals).unwrap_or_default(),
            folded,
        }
    }

    /// The same matrix with at most `top` labels (plus "none" and `other`) on each axis. A
    /// square matrix keeps the same labels on both axes.
    pub fn compact(&self, top: usize) -> ConfusionMatrix {
        let row_sum = |i: usize| self.counts.get(i).map_or(0, |r| r.iter().sum::<u64>());
        let col_sum = |j: usize| self.counts.iter().filter_map(|r| r.get(j)).sum::<u64>();
        let square = self.rows == self.cols;
        let row_weight: Vec<u64> = (0..self.rows.len())
            .map(|i| row_sum(i) + if square { col_sum(i) } else { 0 })
            .collect();
        let col_weight: Vec<u64> = (0..self.cols.len())
            .map(|j| col_sum(j) + if square { row_sum(j) } else { 0 })
            .collect();
        let (rkept, rfolded) = keep(&self.rows, &row_weight, top);
        let (ckept, cfolded) = keep(&self.cols, &col_weight, top);
        let (rindex, rows) = remap(&self.rows, &rkept, rfolded);
        let (cindex, cols) = remap(&self.cols, &ckept, cfolded);
        let mut counts = vec![vec![0u64; cols.len()]; rows.len()];
        for (i, r) in self.counts.iter().enumerate().take(self.rows.len()) {
            for (j, &c) in r.iter().enumerate().take(self.cols.len()) {
                counts[rindex[i]][cindex[j]] += c;
            }
        }
        ConfusionMatrix {
            rows,
            cols,
            counts,
            totals: self.totals.clone(),
            folded: self.folded.max(rfolded).max(cfolded),
        }
    }
}

/// TP, FP, FN, LE, BE, LBE of fair counts.
pub fn totals(c: &FairCounts) -> Vec<(String, u64)> {
    [
        ("TP", c.tp),
        ("FP", c.fp),
        ("FN", c.fn_),
        ("LE", c.le),
        ("BE", c.be()),
        ("LBE", c.lbe),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The fair confusion matrix of the first column's all-data evaluation (first n-best cutoff),
/// if fair was scored, compacted from the sparse counts (never a full label × label grid).
pub(super) fn of_results(
    results: &[(usize, Vec<crate::eval::score::ColumnResult>)],
) -> Option<ConfusionMatrix> {
    let (_, cols) = results.first()?;
    let first = cols
        .iter()
        .find(|c| c.time == "TIME-ALL" && c.noise == "LED-ALL")?;
    let fair = first.eval.fair.as_ref()?;
    Some(ConfusionMatrix::from_sparse(
        &fair.confusion_labels,
        &fair.confusion,
        Some(&fair.all.counts),
        TOP_LABELS,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thousand_labels_fold_into_other() {
        let labels: Vec<String> = (0..1000)
            .map(|i| format!("Q{i}"))
            .chain(["_".to_string()])
            .collect();
        let mut sparse: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
        for i in 0..1000 {
            let row = sparse.entry(format!("Q{i}")).or_default();
            row.insert("_".into(), 1);
            row.insert(format!("Q{}", (i + 1) % 1000), if i < 3 { 50 } else { 1 });
        }
        let m = ConfusionMatrix::from_sparse(&labels, &sparse, None, TOP_LABELS);
        assert_eq!(m.rows.len(), TOP_LABELS + 2);
        assert_eq!(m.rows, m.cols);
        assert_eq!(m.rows.last().map(String::as_str), Some(OTHER));
        assert!(m.rows.contains(&"_".to_string()) && m.rows.contains(&"Q1".to_string()));
        assert_eq!(m.folded, 1000 - TOP_LABELS);
        let total: u64 = m.counts.iter().flatten().sum();
        assert_eq!(total, 1000 + 3 * 50 + 997);
        assert_eq!(m.compact(TOP_LABELS), m);
    }

    #[test]
    fn small_matrices_stay_as_they_are() {
        let m = ConfusionMatrix {
            rows: vec!["PER".into(), "LOC".into()],
            cols: vec!["PER".into(), "O".into()],
            counts: vec![vec![5, 1], vec![0, 2]],
            totals: vec![],
            folded: 0,
        };
        assert_eq!(m.compact(TOP_LABELS), m);
        let cut = m.compact(1);
        assert_eq!(cut.rows, vec!["PER", OTHER]);
        assert_eq!(cut.cols, vec!["PER", "O"]);
        assert_eq!(cut.counts, vec![vec![5, 1], vec![0, 2]]);
    }
}
