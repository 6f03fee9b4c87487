//! Typed per-run score rows: what rankings and leaderboard tables are made of.
//!
//! A [`ScoreRow`] is one row of the official per-run table (System, Evaluation, Label, P, R,
//! F1, F1_std, P_std, R_std, TP, FP, FN) with the Evaluation cell split into its parts and
//! every number typed. The real scorer's rows are made from its typed results
//! ([`rows_from_results`]); replayed per-run files are parsed once into the same rows
//! ([`parse_table`]). Numbers keep the text the official file shows ([`Num`]): rankings compare
//! and print that text, as the organisers' pipeline did. The real scorer's label-`ALL` micro
//! rows also carry their per-document counts ([`ScoreRow::docs`]), which the leaderboard's
//! intervals and tests resample (issue 14).

use std::path::Path;

use crate::eval::options::Regime;
use crate::eval::score::ColumnResult;
use crate::hipe::Task;
use crate::metrics::docs::DocSeries;
use crate::metrics::fair::WeightedScores;
use crate::metrics::{PyNum, RegimeScores};
use crate::report::official::{results_in_row_order, row_scores, RowScores};
use crate::{Error, Result};

pub use super::num::Num;

/// How a row aggregates over documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// Counts summed over all documents (`micro`).
    Micro,
    /// Averaged over documents (`macro_doc`).
    MacroDoc,
}

impl Aggregation {
    /// As written in Evaluation.
    pub fn as_str(self) -> &'static str {
        match self {
            Aggregation::Micro => "micro",
            Aggregation::MacroDoc => "macro_doc",
        }
    }
}

/// The parts of an Evaluation cell `COLUMN-AGGREGATION-REGIME-VARIANT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalKey {
    /// The scored column, e.g. `NE-COARSE-LIT`.
    pub column: String,
    /// How the row aggregates (`micro` or `macro_doc`).
    pub aggregation: Aggregation,
    /// The evaluation regime (`strict`, `fuzzy`, `fair`, `weighted`).
    pub regime: Regime,
    /// The rest: suffix, period, noise level and n-best cutoff, e.g.
    /// `relaxed-TIME-ALL-LED-ALL-@3`.
    pub variant: String,
}

impl EvalKey {
    /// Splits an Evaluation cell; `None` when it does not have that shape.
    pub fn parse(evaluation: &str) -> Option<EvalKey> {
        for aggregation in [Aggregation::Micro, Aggregation::MacroDoc] {
            let sep = format!("-{}-", aggregation.as_str());
            let Some((column, rest)) = evaluation.split_once(&sep) else {
                continue;
            };
            let (regime, variant) = rest.split_once('-').unwrap_or((rest, ""));
            let regime = match regime {
                "fuzzy" => Regime::Fuzzy,
                "strict" => Regime::Strict,
                "fair" => Regime::Fair,
                "weighted" => Regime::Weighted,
                _ => return None,
            };
            return Some(EvalKey {
                column: column.to_string(),
                aggregation,
                regime,
                variant: variant.to_string(),
            });
        }
        None
    }
}

/// One row of a per-run score table. Rows are equal when their cells are: the per-document
/// counts ([`ScoreRow::docs`]) are not part of the table and are not compared.
#[derive(Debug, Clone)]
pub struct ScoreRow {
    /// The System cell (unquoted).
    pub system: String,
    /// The Evaluation cell.
    pub evaluation: String,
    /// Its parts.
    pub key: EvalKey,
    /// The Label cell (unquoted): an entity type or `ALL`.
    pub label: String,
    /// Precision.
    pub p: Num,
    /// Recall.
    pub r: Num,
    /// F1 score.
    pub f1: Num,
    /// Standard deviation of F1 over documents (empty on micro rows).
    pub f1_std: Num,
    /// Standard deviation of P over documents (empty on micro rows).
    pub p_std: Num,
    /// Standard deviation of R over documents (empty on micro rows).
    pub r_std: Num,
    /// True positives (weighted counts may be fractional).
    pub tp: Num,
    /// False positives.
    pub fp: Num,
    /// False negatives.
    pub fn_: Num,
    /// The TP, FP and FN of every gold document (label `ALL`, micro rows of the real scorer
    /// only; `None` on other rows and on parsed tables, which have no per-document counts).
    pub docs: Option<DocSeries>,
}

impl PartialEq for ScoreRow {
    fn eq(&self, o: &Self) -> bool {
        (&self.system, &self.evaluation, &self.key, &self.label)
            == (&o.system, &o.evaluation, &o.key, &o.label)
            && [
                &self.p,
                &self.r,
                &self.f1,
                &self.f1_std,
                &self.p_std,
                &self.r_std,
            ] == [&o.p, &o.r, &o.f1, &o.f1_std, &o.p_std, &o.r_std]
            && [&self.tp, &self.fp, &self.fn_] == [&o.tp, &o.fp, &o.fn_]
    }
}

impl ScoreRow {
    /// Is this the row over all labels?
    pub fn is_all(&self) -> bool {
        self.label == "ALL"
    }
}

/// The rows of the official per-run table of a scoring's typed results, in the official
/// order: columns sorted, then periods and noise levels, aggregation (micro, macro_doc),
/// regime (as asked), label (sorted, `ALL` among them; NEL: `ALL` only).
pub fn rows_from_results(
    system: &str,
    results: &[(usize, Vec<ColumnResult>)],
    task: Task,
    suffix: Option<&str>,
    regimes: &[Regime],
) -> Vec<ScoreRow> {
    let mut out = Vec::new();
    for (n_best, cols) in results {
        for res in results_in_row_order(cols) {
            let (col, time, noise) = (
                &res.column.as_str(),
                &res.time.as_str(),
                &res.noise.as_str(),
            );
            let at = if col.contains("NEL") {
                format!("-@{n_best}")
            } else {
                String::new()
            };
            let sfx = suffix.map(|s| format!("{s}-")).unwrap_or_default();
            let variant = format!("{sfx}{time}-{noise}{at}");
            push_rows(&mut out, system, res, col, &variant, task, regimes);
        }
    }
    out
}

fn push_rows(
    out: &mut Vec<ScoreRow>,
    system: &str,
    res: &ColumnResult,
    column: &str,
    variant: &str,
    task: Task,
    regimes: &[Regime],
) {
    let mut labels: Vec<&str> = res
        .eval
        .per_label
        .keys()
        .map(String::as_str)
        .filter(|l| *l != "ALL")
        .collect();
    labels.push("ALL");
    labels.sort();
    if task == Task::Nel {
        labels.retain(|l| *l == "ALL");
    }
    let n_docs = res.eval.all[crate::matching::SpanRegime::Strict].docs.len();
    for aggregation in [Aggregation::Micro, Aggregation::MacroDoc] {
        for &regime in regimes {
            let key = EvalKey {
                column: column.to_string(),
                aggregation,
                regime,
                variant: variant.to_string(),
            };
            let evaluation = format!(
                "{column}-{}-{}-{variant}",
                aggregation.as_str(),
                regime.as_str()
            );
            for label in &labels {
                let scores = row_scores(res, regime, label);
                let nums = match scores {
                    None => continue,
                    Some(RowScores::Official(s)) => official_nums(s, aggregation),
                    Some(RowScores::Fair(ws)) => fair_nums(ws, aggregation),
                };
                let docs = match (scores, aggregation, *label == "ALL") {
                    (Some(RowScores::Official(s)), Aggregation::Micro, true) => {
                        Some(s.docs.clone())
                    }
                    (Some(RowScores::Fair(ws)), Aggregation::Micro, true) => {
                        Some(ws.map_or_else(|| DocSeries::zeros(n_docs), |w| w.docs.clone()))
                    }
                    _ => None,
                };
                let [p, r, f1, f1_std, p_std, r_std, tp, fp, fn_] = nums;
                out.push(ScoreRow {
                    system: system.to_string(),
                    evaluation: evaluation.clone(),
                    key: key.clone(),
                    label: label.to_string(),
                    p,
                    r,
                    f1,
                    f1_std,
                    p_std,
                    r_std,
                    tp,
                    fp,
                    fn_,
                    docs,
                });
            }
        }
    }
}

fn official_nums(s: &RegimeScores, aggregation: Aggregation) -> [Num; 9] {
    match aggregation {
        Aggregation::Micro => [
            Num::score(s.p_micro),
            Num::score(s.r_micro),
            Num::score(s.f1_micro),
            Num::default(),
            Num::default(),
            Num::default(),
            Num::count(s.tp()),
            Num::count(s.fp()),
            Num::count(s.fn_()),
        ],
        Aggregation::MacroDoc => macro_nums(
            [s.p_macro_doc, s.r_macro_doc, s.f1_macro_doc],
            [s.p_macro_doc_std, s.r_macro_doc_std, s.f1_macro_doc_std],
        ),
    }
}

fn macro_nums(means: [PyNum; 3], stds: [PyNum; 3]) -> [Num; 9] {
    let [p, r, f1] = means;
    let [ps, rs, f1s] = stds;
    [
        Num::score(p),
        Num::score(r),
        Num::score(f1),
        Num::score(f1s),
        Num::score(ps),
        Num::score(rs),
        Num::default(),
        Num::default(),
        Num::default(),
    ]
}

fn fair_nums(s: Option<&WeightedScores>, aggregation: Aggregation) -> [Num; 9] {
    let f = |x: f64| Num::score(PyNum::Float(x));
    match (s, aggregation) {
        (Some(s), Aggregation::Micro) => [
            f(s.p_micro),
            f(s.r_micro),
            f(s.f1_micro),
            Num::default(),
            Num::default(),
            Num::default(),
            Num::weighted(s.tp),
            Num::weighted(s.fp),
            Num::weighted(s.fn_),
        ],
        (None, Aggregation::Micro) => [
            f(0.0),
            f(0.0),
            f(0.0),
            Num::default(),
            Num::default(),
            Num::default(),
            Num::weighted(0.0),
            Num::weighted(0.0),
            Num::weighted(0.0),
        ],
        (Some(s), Aggregation::MacroDoc) => macro_nums(
            [s.p_macro_doc, s.r_macro_doc, s.f1_macro_doc],
            [s.p_macro_doc_std, s.r_macro_doc_std, s.f1_macro_doc_std],
        ),
        (None, Aggregation::MacroDoc) => macro_nums([PyNum::None; 3], [PyNum::None; 3]),
    }
}

/// Number of columns of a per-run score table.
const COLUMNS: usize = 12;

/// Parses a per-run score table (the official `.tsv`: header, then one row per line, fields
/// quoted as Python's csv module quotes them, CRLF or LF). Every problem is an input error
/// naming `path` and the line.
pub fn parse_table(text: &str, path: &Path) -> Result<Vec<ScoreRow>> {
    let records = split_records(text);
    let mut records = records.into_iter();
    let header = records.next().map(|(_, r)| r).unwrap_or_default();
    if header.len() < 3 || header[..3] != ["System", "Evaluation", "Label"] {
        return Err(Error::input(
            path,
            1,
            "not a per-run score table (header does not start with System, Evaluation, Label)",
        ));
    }
    let mut rows = Vec::new();
    for (line, cells) in records {
        if cells.len() == 1 && cells[0].is_empty() {
            continue;
        }
        if cells.len() < COLUMNS {
            return Err(Error::input(
                path,
                line,
                format!(
                    "{} columns where the score table has {COLUMNS}",
                    cells.len()
                ),
            ));
        }
        let key = EvalKey::parse(&cells[1]).ok_or_else(|| {
            Error::input(
                path,
                line,
                format!(
                    "Evaluation {} is not COLUMN-micro|macro_doc-REGIME-…",
                    crate::error::snippet(&cells[1])
                ),
            )
        })?;
        let mut nums = Vec::with_capacity(9);
        for (i, c) in cells[3..COLUMNS].iter().enumerate() {
            let n = Num::parse(c).filter(|n| n.value().is_none_or(|v| in_range(i, v, &key)));
            nums.push(n.ok_or_else(|| {
                let what = match (i, key.regime) {
                    (0..=5, _) => "a ratio from 0 to 1",
                    (_, Regime::Fair | Regime::Weighted) => "a count from 0 to 2^53",
                    _ => "a whole count from 0 to 2^53",
                };
                Error::input(
                    path,
                    line,
                    format!(
                        "column {} ({}): {} is not {what}",
                        i + 4,
                        NUMBER_COLUMNS[i],
                        crate::error::snippet(c)
                    ),
                )
            })?);
        }
        let mut it = cells.into_iter();
        let mut next = || it.next().unwrap_or_default();
        let (system, evaluation, label) = (next(), next(), next());
        let mut nums = nums.into_iter();
        let mut num = || nums.next().unwrap_or_default();
        rows.push(ScoreRow {
            system,
            evaluation,
            key,
            label,
            p: num(),
            r: num(),
            f1: num(),
            f1_std: num(),
            p_std: num(),
            r_std: num(),
            tp: num(),
            fp: num(),
            fn_: num(),
            docs: None,
        });
    }
    Ok(rows)
}

/// The number columns of a per-run score table, in order.
const NUMBER_COLUMNS: [&str; 9] = ["P", "R", "F1", "F1_std", "P_std", "R_std", "TP", "FP", "FN"];

/// Whether `v` can be the value of number column `i` of a row of `key`, as a scorer writes
/// it: P, R, F1 and their standard deviations from 0 to 1; TP, FP and FN from 0 to 2^53
/// (exact in a double), whole but in the fair and weighted regimes (weighted counts).
fn in_range(i: usize, v: f64, key: &EvalKey) -> bool {
    if i < 6 {
        return (0.0..=1.0).contains(&v);
    }
    let whole = v.fract() == 0.0 || matches!(key.regime, Regime::Fair | Regime::Weighted);
    (0.0..=9_007_199_254_740_992.0).contains(&v) && whole
}

/// Splits text into records of fields (tab-separated, `"`-quoted fields may hold tabs, quotes
/// doubled and line breaks), each with the line it starts on. A CR before a line break is
/// dropped.
fn split_records(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut line = 1;
    let mut start_line = 1;
    let mut quoted = false;
    let mut at_field_start = true;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if at_field_start => {
                quoted = true;
                at_field_start = false;
            }
            '\t' => {
                fields.push(std::mem::take(&mut field));
                at_field_start = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                fields.push(std::mem::take(&mut field));
                out.push((start_line, std::mem::take(&mut fields)));
                line += 1;
                start_line = line;
                at_field_start = true;
            }
            _ => {
                field.push(c);
                at_field_start = false;
            }
        }
    }
    if !field.is_empty() || !fields.is_empty() {
        fields.push(field);
        out.push((start_line, fields));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_parts() {
        let k = EvalKey::parse("NEL-LIT-micro-fuzzy-relaxed-TIME-ALL-LED-ALL-@3").unwrap();
        assert_eq!(
            (
                k.column.as_str(),
                k.aggregation,
                k.regime,
                k.variant.as_str()
            ),
            (
                "NEL-LIT",
                Aggregation::Micro,
                Regime::Fuzzy,
                "relaxed-TIME-ALL-LED-ALL-@3"
            )
        );
        let k = EvalKey::parse("NE-COARSE-LIT-macro_doc-strict-TIME-ALL-LED-ALL").unwrap();
        assert_eq!(k.aggregation, Aggregation::MacroDoc);
        assert!(EvalKey::parse("NE-COARSE-LIT-micro-loose-TIME-ALL").is_none());
        assert!(EvalKey::parse("whatever").is_none());
    }

    #[test]
    fn numbers_keep_their_text() {
        for t in ["0", "0.0", "0.8", "1.0", "0.123", ""] {
            assert_eq!(Num::parse(t).unwrap().text(), t);
        }
        assert!(Num::parse("nan").is_none() && Num::parse("x").is_none());
        assert_eq!(Num::score(PyNum::Float(0.79996)).text(), "0.8");
        assert_eq!(Num::score(PyNum::Int(0)).text(), "0");
        assert_eq!(Num::weighted(2.5).text(), "2.5");
        assert_eq!(Num::weighted(3.0).text(), "3");
    }

    /// The typed rows of a scoring equal its official table parsed back, row for row, for
    /// every task, with the fair regime, a suffix and several n-best cutoffs.
    #[test]
    fn typed_rows_equal_the_official_table() {
        use crate::hipe::Edition;
        use crate::ScoreOptions;
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference_runs");
        let gold = dir.join("HIPE-2022-demo-test-en.tsv");
        let run = dir.join("demo_bundle4_newseye_en_1.tsv");
        for task in [Task::NercCoarse, Task::NercFine, Task::Nel] {
            let mut opts = ScoreOptions::new(task, Edition::Hipe2022);
            opts.regimes = vec![Regime::Fuzzy, Regime::Strict, Regime::Fair];
            opts.n_best = vec![1, 3];
            opts.suffix = Some("x".into());
            let out = crate::score::score_paths(&gold, &run, &opts).unwrap();
            let typed =
                rows_from_results(&out.system, &out.results, task, Some("x"), &opts.regimes);
            let parsed = parse_table(&out.tsv, Path::new("x.tsv")).unwrap();
            assert!(typed.len() > 3, "{task:?}");
            // Label-ALL micro rows, and only they, carry per-document counts that sum to the
            // row's counts.
            for r in &typed {
                let want = r.is_all() && r.key.aggregation == Aggregation::Micro;
                assert_eq!(r.docs.is_some(), want, "{task:?} {}", r.evaluation);
                if let Some(d) = &r.docs {
                    assert_eq!(Some(d.total().tp), r.tp.value(), "{}", r.evaluation);
                }
            }
            assert_eq!(typed, parsed, "{task:?}");
        }
    }

    #[test]
    fn tables_parse_with_quotes_and_line_numbers() {
        let text = "System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n\
            \"a\"\"b\tc\"\tNE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL\tALL\t0.5\t1.0\t0.667\t\t\t\t1\t1\t0\r\n";
        let rows = parse_table(text, Path::new("x.tsv")).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].system, "a\"b\tc");
        assert_eq!(rows[0].f1.value(), Some(0.667));
        assert_eq!(rows[0].tp.text(), "1");
        let bad = text.replace("0.667", "zero");
        let e = parse_table(&bad, Path::new("x.tsv")).unwrap_err();
        assert!(e.to_string().starts_with("x.tsv:2:"), "{e}");
        let short = "System\tEvaluation\tLabel\tP\r\nx\tNE-COARSE-micro-fuzzy\tALL\r\n";
        let e = parse_table(short, Path::new("x.tsv")).unwrap_err();
        assert!(e.to_string().contains("x.tsv:2"), "{e}");
        assert!(parse_table("", Path::new("x.tsv")).is_err());
        // Issue 47.3: every number within what a scorer writes, else an error naming the line.
        for (from, to, what) in [
            (
                "\t1\t1\t0\r",
                "\t-3\t1\t0\r",
                "column 10 (TP): \"-3\" is not a whole count",
            ),
            (
                "\t1\t1\t0\r",
                "\t1\t1e300\t0\r",
                "column 11 (FP): \"1e300\"",
            ),
            ("\t1\t1\t0\r", "\t1\t1\t0.5\r", "column 12 (FN): \"0.5\""),
            (
                "0.667",
                "7.5",
                "column 6 (F1): \"7.5\" is not a ratio from 0 to 1",
            ),
            ("\t0.5\t", "\t-0.1\t", "column 4 (P)"),
        ] {
            let bad = text.replacen(from, to, 1);
            let e = parse_table(&bad, Path::new("x.tsv"))
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("x.tsv:2:") && e.contains(what), "{e}");
        }
        let weighted = text
            .replace("micro-fuzzy", "micro-weighted")
            .replace("\t1\t1\t0\r", "\t1.5\t1\t0\r");
        assert_eq!(
            parse_table(&weighted, Path::new("x.tsv")).unwrap()[0]
                .tp
                .value(),
            Some(1.5)
        );
    }
}
