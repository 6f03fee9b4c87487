//! The official per-run outputs of `clef_evaluation.py`: the TSV rows and the JSON tree,
//! written from typed results with Python's number formatting.

use crate::eval::options::Regime;
use crate::eval::score::ColumnResult;
use crate::hipe::Task;
use crate::matching::{PerRegime, SpanRegime};
use crate::metrics::fair::WeightedScores;
use crate::metrics::resample::{ByMeasure, Interval};
use crate::metrics::{Evaluation, PyNum, RegimeScores};
use crate::report::json::Writer;
use crate::report::tsv as tsvout;

/// [`outputs`], with `F<β>_micro` (e.g. `F0.5_micro`, `F2_micro`) right after every
/// `F1_micro` of the JSON when a β other than 1 is given (`score --beta`): in every regime
/// of every label, fair and weighted blocks too, `(1 + β²)·P·R / (β²·P + R)` of that block's
/// micro P and R, `0` (an integer, as `F1_micro`) when both are 0. The TSV is the official
/// one either way.
pub fn outputs_beta(
    system: &str,
    results: &[(usize, Vec<ColumnResult>)],
    task: Task,
    suffix: Option<&str>,
    regimes: &[Regime],
    beta: Option<f64>,
    names: RowNames,
) -> (String, String) {
    let mut tsv = String::new();
    tsvout::push_row(&mut tsv, &tsvout::FIELDS);
    for (n, cols) in results {
        let only_all = task == Task::Nel;
        let how = RowsOf {
            n_best: *n,
            only_all,
            suffix,
            regimes,
            names,
        };
        write_tsv_rows(&mut tsv, system, cols, &how);
    }
    // As a Python dict: NEL results keyed by cutoff (a repeated cutoff keeps its first place
    // and its last value); other tasks' JSON is the last result's tree.
    let mut trees: Vec<(Option<String>, &[ColumnResult])> = Vec::new();
    for (n, cols) in results {
        if task == Task::Nel {
            let key = n.to_string();
            match trees
                .iter_mut()
                .find(|(k, _)| k.as_deref() == Some(key.as_str()))
            {
                Some(slot) => slot.1 = cols,
                None => trees.push((Some(key), cols)),
            }
        } else {
            trees = vec![(None, cols)];
        }
    }
    let beta = beta.filter(|&b| b != 1.0).map(FBeta::new);
    let mut json = String::with_capacity(4096);
    let mut w = Writer::new(&mut json);
    w.open(None);
    for (key, cols) in &trees {
        match key {
            Some(k) => {
                w.open(Some(k));
                write_tree(&mut w, cols, beta.as_ref());
                w.close();
            }
            None => write_tree(&mut w, cols, beta.as_ref()),
        }
    }
    w.close();
    (tsv, json)
}

/// The `F<β>_micro` key and its β.
#[derive(Debug)]
struct FBeta {
    beta: f64,
    key: String,
}

impl FBeta {
    fn new(beta: f64) -> Self {
        FBeta {
            beta,
            key: format!("F{beta}_micro"),
        }
    }

    /// Writes `F<β>_micro` of micro `p` and `r`.
    fn write(&self, w: &mut Writer, p: f64, r: f64) {
        let f = if p.is_finite() && r.is_finite() && p + r > 0.0 {
            PyNum::Float(crate::metrics::prf::fbeta(p, r, self.beta))
        } else {
            PyNum::Int(0)
        };
        w.num(&self.key, f);
    }
}

/// The regimes of a JSON label block, in the official key order.
const JSON_REGIMES: [SpanRegime; 4] = [
    SpanRegime::Partial,
    SpanRegime::Strict,
    SpanRegime::EntType,
    SpanRegime::Exact,
];

/// The official per-label JSON of one evaluation: every label, then `ALL`.
pub fn evaluation_json(eval: &Evaluation) -> String {
    let mut out = String::new();
    let mut w = Writer::new(&mut out);
    w.open(None);
    write_evaluation(&mut w, eval, None);
    w.close();
    out
}

/// The label blocks of one evaluation into the open object (a label named twice, or `ALL`,
/// keeps its first place and its last block, as in a Python dict).
fn write_evaluation(w: &mut Writer, eval: &Evaluation, beta: Option<&FBeta>) {
    let fair = eval.fair.as_ref();
    let all = ("ALL", &eval.all, fair.map(|f| &f.all));
    let has_all = eval.per_label.iter().any(|(l, _)| l == "ALL");
    for (label, s) in &eval.per_label {
        let block = if label == "ALL" {
            all
        } else {
            (label.as_str(), s, fair.and_then(|f| f.per_label.get(label)))
        };
        w.open(Some(block.0));
        write_label(w, block.1, block.2, beta);
        w.close();
    }
    if !has_all {
        w.open(Some(all.0));
        write_label(w, all.1, all.2, beta);
        w.close();
    }
}

fn write_regime(w: &mut Writer, s: &RegimeScores, beta: Option<&FBeta>) {
    let c = &s.counts;
    let int = |v: u64| PyNum::Int(v as i64);
    for (k, v) in [
        ("correct", c.correct),
        ("incorrect", c.incorrect),
        ("partial", c.partial),
        ("missed", c.missed),
        ("spurious", c.spurious),
        ("possible", c.possible()),
        ("actual", c.actual()),
        ("TP", s.tp()),
        ("FP", s.fp()),
        ("FN", s.fn_()),
    ] {
        w.num(k, int(v));
    }
    w.num("P_micro", s.p_micro);
    w.num("R_micro", s.r_micro);
    w.num("F1_micro", s.f1_micro);
    if let Some(b) = beta {
        b.write(w, s.p_micro.as_f64(), s.r_micro.as_f64());
    }
    if let Some(ci) = &s.ci {
        write_intervals(w, ci);
    }
    write_macro_doc(
        w,
        [
            s.p_macro_doc,
            s.r_macro_doc,
            s.f1_macro_doc,
            s.p_macro_doc_std,
            s.r_macro_doc_std,
            s.f1_macro_doc_std,
        ],
    );
    if let Some(m) = s.type_macro {
        w.num("P_macro", m[0]);
        w.num("R_macro", m[1]);
        w.num("F1_macro", m[2]);
        w.num("F1_macro (recomputed from P & R)", m[3]);
    }
}

/// The document-macro scores and their standard deviations, in the official key order.
fn write_macro_doc(w: &mut Writer, values: [PyNum; 6]) {
    const KEYS: [&str; 6] = [
        "P_macro_doc",
        "R_macro_doc",
        "F1_macro_doc",
        "P_macro_doc_std",
        "R_macro_doc_std",
        "F1_macro_doc_std",
    ];
    for (k, v) in KEYS.into_iter().zip(values) {
        w.num(k, v);
    }
}

fn write_label(
    w: &mut Writer,
    s: &PerRegime<RegimeScores>,
    fair: Option<&crate::metrics::fair::FairLabelScores>,
    beta: Option<&FBeta>,
) {
    for r in JSON_REGIMES {
        w.open(Some(r.json_name()));
        write_regime(w, &s[r], beta);
        w.close();
    }
    if let Some(f) = fair {
        w.open(Some("fair"));
        write_fair(w, Some(&f.counts), &f.fair, beta);
        w.close();
        if let Some(wt) = &f.weighted {
            w.open(Some("weighted"));
            write_fair(w, None, wt, beta);
            w.close();
        }
    }
}

fn write_fair(
    w: &mut Writer,
    counts: Option<&crate::matching::fair::FairCounts>,
    s: &WeightedScores,
    beta: Option<&FBeta>,
) {
    if let Some(c) = counts {
        for (k, v) in [
            ("TP", c.tp),
            ("FP", c.fp),
            ("FN", c.fn_),
            ("LE", c.le),
            ("BE", c.be()),
            ("BES", c.bes),
            ("BEL", c.bel),
            ("BEO", c.beo),
            ("LBE", c.lbe),
        ] {
            w.num(k, PyNum::Int(v as i64));
        }
    }
    for (k, v) in [
        ("TP_weighted", s.tp),
        ("FP_weighted", s.fp),
        ("FN_weighted", s.fn_),
        ("P_micro", s.p_micro),
        ("R_micro", s.r_micro),
        ("F1_micro", s.f1_micro),
    ] {
        w.num(k, PyNum::Float(v));
    }
    if let Some(b) = beta {
        b.write(w, s.p_micro, s.r_micro);
    }
    if let Some(ci) = &s.ci {
        write_intervals(w, ci);
    }
    write_macro_doc(
        w,
        [
            s.p_macro_doc,
            s.r_macro_doc,
            s.f1_macro_doc,
            s.p_macro_doc_std,
            s.r_macro_doc_std,
            s.f1_macro_doc_std,
        ],
    );
}

/// `P_micro_ci`, `R_micro_ci`, `F1_micro_ci` as `[lo, hi]`, right after `F1_micro` (and
/// `F<β>_micro`) (`score --bootstrap`).
fn write_intervals(w: &mut Writer, ci: &ByMeasure<Interval>) {
    for (k, iv) in [
        ("P_micro_ci", &ci.p),
        ("R_micro_ci", &ci.r),
        ("F1_micro_ci", &ci.f1),
    ] {
        w.nums(k, &[PyNum::Float(iv.lo), PyNum::Float(iv.hi)]);
    }
}

/// The results of one scoring into the open object: column, then date period, then noise
/// level, each key in first-seen order (a repeated triple keeps its last evaluation).
fn write_tree(w: &mut Writer, cols: &[ColumnResult], beta: Option<&FBeta>) {
    type Noises<'c> = Vec<(&'c str, &'c Evaluation)>;
    let mut tree: Vec<(&str, Vec<(&str, Noises)>)> = Vec::new();
    for c in cols {
        let i = tree.iter().position(|(k, _)| *k == c.column);
        let i = i.unwrap_or_else(|| {
            tree.push((&c.column, Vec::new()));
            tree.len() - 1
        });
        let col = &mut tree[i].1;
        let j = col.iter().position(|(k, _)| *k == c.time);
        let j = j.unwrap_or_else(|| {
            col.push((&c.time, Vec::new()));
            col.len() - 1
        });
        let time = &mut col[j].1;
        match time.iter_mut().find(|(k, _)| *k == c.noise) {
            Some(slot) => slot.1 = &c.eval,
            None => time.push((&c.noise, &c.eval)),
        }
    }
    for (col, times) in &tree {
        w.open(Some(col));
        for (time, noises) in times {
            w.open(Some(time));
            for (noise, eval) in noises {
                w.open(Some(noise));
                write_evaluation(w, eval, beta);
                w.close();
            }
            w.close();
        }
        w.close();
    }
}

/// How the rows of the TSV's `Evaluation` column are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowNames {
    /// The official HIPE names, byte for byte: `COLUMN-AGGR-REGIME-[SUFFIX-]TIME-NOISE[-@N]`
    /// (`NE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL`).
    Hipe,
    /// CoNLL input, which has no dates and no OCR noise: `COLUMN-AGGR-REGIME[-SUFFIX]`
    /// (`TAG-micro-fuzzy`), a period or noise level only when one was chosen.
    Conll,
}

/// The `Evaluation` name of a row.
fn evaluation_name(
    names: RowNames,
    res: &ColumnResult,
    aggr: &str,
    regime: Regime,
    suffix: Option<&str>,
    n_best: usize,
) -> String {
    let col = res.column.as_str();
    let nb = if col.contains("NEL") {
        format!("-@{n_best}")
    } else {
        String::new()
    };
    match names {
        RowNames::Hipe => {
            let sfx = suffix.map(|s| format!("{s}-")).unwrap_or_default();
            format!(
                "{col}-{aggr}-{}-{sfx}{}-{}{nb}",
                regime.as_str(),
                res.time,
                res.noise
            )
        }
        RowNames::Conll => {
            let mut parts = vec![col, aggr, regime.as_str()];
            parts.extend(suffix);
            if res.time != "TIME-ALL" {
                parts.push(&res.time);
            }
            if res.noise != "LED-ALL" {
                parts.push(&res.noise);
            }
            format!("{}{nb}", parts.join("-"))
        }
    }
}

/// What the rows of one cutoff are made of.
struct RowsOf<'a> {
    n_best: usize,
    only_all: bool,
    suffix: Option<&'a str>,
    regimes: &'a [Regime],
    names: RowNames,
}

fn write_tsv_rows(out: &mut String, system: &str, cols: &[ColumnResult], how: &RowsOf<'_>) {
    let RowsOf {
        n_best,
        only_all,
        suffix,
        regimes,
        names,
    } = *how;
    // Columns sorted; periods and noise levels in the order of the first column's results.
    for res in results_in_row_order(cols) {
        let mut labels: Vec<&str> = res
            .eval
            .per_label
            .keys()
            .map(|l| l.as_str())
            .filter(|l| *l != "ALL")
            .collect();
        labels.push("ALL");
        labels.sort();
        if only_all {
            labels.retain(|l| *l == "ALL");
        }
        for aggr in ["micro", "macro_doc"] {
            for &regime in regimes {
                let evaluation = evaluation_name(names, res, aggr, regime, suffix, n_best);
                for label in &labels {
                    let mut row = vec![system.to_string(), evaluation.clone(), label.to_string()];
                    let cells = match row_scores(res, regime, label) {
                        None => continue,
                        Some(RowScores::Official(s)) => official_cells(s, aggr),
                        Some(RowScores::Fair(Some(ws))) => fair_cells(ws, aggr),
                        Some(RowScores::Fair(None)) => fair_cells(&empty_fair_scores(), aggr),
                    };
                    row.extend(cells);
                    tsvout::push_row(out, &row);
                }
            }
        }
    }
}

/// The results of one cutoff in the order of the official TSV rows: columns sorted by name,
/// then periods and noise levels in the order of the first column's results.
pub fn results_in_row_order(cols: &[ColumnResult]) -> Vec<&ColumnResult> {
    let mut names: Vec<&str> = cols.iter().map(|c| c.column.as_str()).collect();
    names.sort();
    names.dedup();
    let first = names.first().copied().unwrap_or("");
    let mut times: Vec<&str> = Vec::new();
    let mut noises: Vec<&str> = Vec::new();
    for c in cols.iter().filter(|c| c.column == first) {
        if !times.contains(&c.time.as_str()) {
            times.push(&c.time);
        }
        if !noises.contains(&c.noise.as_str()) {
            noises.push(&c.noise);
        }
    }
    let mut out = Vec::new();
    for col in &names {
        for time in &times {
            for noise in &noises {
                if let Some(res) = cols
                    .iter()
                    .find(|c| c.column == *col && c.time == *time && c.noise == *noise)
                {
                    out.push(res);
                }
            }
        }
    }
    out
}

/// The scores behind one row of the TSV layout (also read by the leaderboard's typed rows).
#[derive(Debug, Clone, Copy)]
pub enum RowScores<'a> {
    /// An official regime (fuzzy, strict) of a label or `ALL`.
    Official(&'a RegimeScores),
    /// A fair or weighted regime; `None` when the label has no fair scores (written as zeros).
    Fair(Option<&'a WeightedScores>),
}

/// The scores of `label` (or `ALL`) in `regime`, or `None` when the evaluation has no such row.
pub fn row_scores<'a>(res: &'a ColumnResult, regime: Regime, label: &str) -> Option<RowScores<'a>> {
    match regime.counting() {
        Some(r) => {
            let s = if label == "ALL" {
                &res.eval.all[r]
            } else {
                &res.eval.per_label.get(label)?[r]
            };
            Some(RowScores::Official(s))
        }
        None => {
            let fair = res.eval.fair.as_ref()?;
            let ls = if label == "ALL" {
                Some(&fair.all)
            } else {
                fair.per_label.get(label)
            };
            Some(RowScores::Fair(match (ls, regime) {
                (Some(ls), Regime::Fair) => Some(&ls.fair),
                (Some(ls), _) => ls.weighted.as_ref(),
                (None, _) => None,
            }))
        }
    }
}

/// P, R, F1, F1_std, P_std, R_std, TP, FP, FN cells of an official regime.
fn official_cells(s: &RegimeScores, aggr: &str) -> [String; 9] {
    if aggr == "micro" {
        [
            s.p_micro.round3(),
            s.r_micro.round3(),
            s.f1_micro.round3(),
            String::new(),
            String::new(),
            String::new(),
            s.tp().to_string(),
            s.fp().to_string(),
            s.fn_().to_string(),
        ]
    } else {
        macro_cells(
            [s.p_macro_doc, s.r_macro_doc, s.f1_macro_doc],
            [s.p_macro_doc_std, s.r_macro_doc_std, s.f1_macro_doc_std],
        )
    }
}

/// Cells of a macro_doc row: P, R, F1, then the standard deviations in the official column
/// order F1_std, P_std, R_std; no counts.
fn macro_cells(means: [PyNum; 3], stds: [PyNum; 3]) -> [String; 9] {
    let [p, r, f1] = means;
    let [ps, rs, f1s] = stds;
    [
        p.round3(),
        r.round3(),
        f1.round3(),
        f1s.round3(),
        ps.round3(),
        rs.round3(),
        String::new(),
        String::new(),
        String::new(),
    ]
}

fn empty_fair_scores() -> crate::metrics::fair::WeightedScores {
    crate::metrics::fair::WeightedScores {
        tp: 0.0,
        fp: 0.0,
        fn_: 0.0,
        p_micro: 0.0,
        r_micro: 0.0,
        f1_micro: 0.0,
        p_macro_doc: PyNum::None,
        r_macro_doc: PyNum::None,
        f1_macro_doc: PyNum::None,
        p_macro_doc_std: PyNum::None,
        r_macro_doc_std: PyNum::None,
        f1_macro_doc_std: PyNum::None,
        docs: Default::default(),
        ci: None,
    }
}

/// A weighted count: whole numbers without a decimal point, others as Python prints
/// `round(x, 3)`.
fn count_cell(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        crate::metrics::py::round3_repr(x)
    }
}

fn fair_cells(s: &crate::metrics::fair::WeightedScores, aggr: &str) -> [String; 9] {
    let f = |x: f64| PyNum::Float(x).round3();
    if aggr == "micro" {
        [
            f(s.p_micro),
            f(s.r_micro),
            f(s.f1_micro),
            String::new(),
            String::new(),
            String::new(),
            count_cell(s.tp),
            count_cell(s.fp),
            count_cell(s.fn_),
        ]
    } else {
        macro_cells(
            [s.p_macro_doc, s.r_macro_doc, s.f1_macro_doc],
            [s.p_macro_doc_std, s.r_macro_doc_std, s.f1_macro_doc_std],
        )
    }
}
