//! The official per-run outputs of `clef_evaluation.py`: the TSV rows and the JSON tree,
//! written from typed results with Python's number formatting.

use crate::eval::options::Regime;
use crate::eval::score::ColumnResult;
use crate::hipe::Task;
use crate::matching::{HipeRegime, PerRegime};
use crate::metrics::fair::WeightedScores;
use crate::metrics::resample::{ByMeasure, Interval};
use crate::metrics::{Evaluation, PyNum, RegimeScores};
use crate::report::json::Json;
use crate::report::tsv as tsvout;
use std::borrow::Cow;

/// The official TSV (CRLF rows) and JSON texts of a scoring's results.
pub fn outputs(
    system: &str,
    results: &[(usize, Vec<ColumnResult>)],
    task: Task,
    suffix: Option<&str>,
    regimes: &[Regime],
) -> (String, String) {
    outputs_beta(system, results, task, suffix, regimes, None)
}

/// [`outputs`], with `F<β>_micro` after every `F1_micro` of the JSON when a β other than 1
/// is given (`score --beta`, see [`add_f_beta`]); the TSV is the official one either way.
pub fn outputs_beta(
    system: &str,
    results: &[(usize, Vec<ColumnResult>)],
    task: Task,
    suffix: Option<&str>,
    regimes: &[Regime],
    beta: Option<f64>,
) -> (String, String) {
    let mut tsv = String::new();
    tsvout::push_row(&mut tsv, &tsvout::FIELDS);
    let mut json = Json::obj();
    for (n, cols) in results {
        let only_all = task == Task::Nel;
        write_tsv_rows(&mut tsv, system, cols, *n, only_all, suffix, regimes);
        let tree = json_tree(cols);
        if task == Task::Nel {
            json.set(&n.to_string(), tree);
        } else {
            json = tree;
        }
    }
    if let Some(b) = beta.filter(|&b| b != 1.0) {
        add_f_beta(&mut json, b);
    }
    (tsv, json.to_python_string())
}

/// Adds `F<β>_micro` (e.g. `F0.5_micro`, `F2_micro`) right after `F1_micro` in every object
/// of the tree that has `P_micro`, `R_micro` and `F1_micro` (every regime of every label, fair
/// and weighted blocks too): `(1 + β²)·P·R / (β²·P + R)` of that object's micro P and R, `0`
/// (an integer, as `F1_micro`) when both are 0.
pub fn add_f_beta(json: &mut Json, beta: f64) {
    let key = format!("F{beta}_micro");
    add_f_beta_key(json, beta, &key);
}

fn add_f_beta_key(json: &mut Json, beta: f64, key: &str) {
    let Json::Obj(items) = json else {
        return;
    };
    let get = |k: &str| {
        items.iter().find_map(|(n, v)| match v {
            Json::Num(x) if n == k => Some(x.as_f64()),
            _ => None,
        })
    };
    let at = items.iter().position(|(k, _)| k == "F1_micro");
    if let (Some(p), Some(r), Some(at)) = (get("P_micro"), get("R_micro"), at) {
        let f = if p.is_finite() && r.is_finite() && p + r > 0.0 {
            PyNum::Float(crate::metrics::prf::fbeta(p, r, beta))
        } else {
            PyNum::Int(0)
        };
        items.insert(at + 1, (Cow::Owned(key.to_string()), Json::Num(f)));
    }
    for (_, v) in items.iter_mut() {
        add_f_beta_key(v, beta, key);
    }
}

/// The regimes of a JSON label block, in the official key order.
const JSON_REGIMES: [HipeRegime; 4] = [
    HipeRegime::Partial,
    HipeRegime::Strict,
    HipeRegime::EntType,
    HipeRegime::Exact,
];

/// The official per-label JSON of one evaluation: every label, then `ALL`.
pub fn evaluation_json(eval: &Evaluation) -> Json {
    let fair = eval.fair.as_ref();
    let mut labels = Json::obj();
    for (label, s) in &eval.per_label {
        labels.set(
            label,
            label_json(s, fair.and_then(|f| f.per_label.get(label))),
        );
    }
    labels.set("ALL", label_json(&eval.all, fair.map(|f| &f.all)));
    labels
}

fn regime_json(s: &RegimeScores) -> Json {
    let c = &s.counts;
    let int = |v: u64| Json::Num(PyNum::Int(v as i64));
    let num = Json::Num;
    let mut items = vec![
        (Cow::Borrowed("correct"), int(c.correct)),
        (Cow::Borrowed("incorrect"), int(c.incorrect)),
        (Cow::Borrowed("partial"), int(c.partial)),
        (Cow::Borrowed("missed"), int(c.missed)),
        (Cow::Borrowed("spurious"), int(c.spurious)),
        (Cow::Borrowed("possible"), int(c.possible())),
        (Cow::Borrowed("actual"), int(c.actual())),
        (Cow::Borrowed("TP"), int(s.tp())),
        (Cow::Borrowed("FP"), int(s.fp())),
        (Cow::Borrowed("FN"), int(s.fn_())),
        (Cow::Borrowed("P_micro"), num(s.p_micro)),
        (Cow::Borrowed("R_micro"), num(s.r_micro)),
        (Cow::Borrowed("F1_micro"), num(s.f1_micro)),
        (Cow::Borrowed("P_macro_doc"), num(s.p_macro_doc)),
        (Cow::Borrowed("R_macro_doc"), num(s.r_macro_doc)),
        (Cow::Borrowed("F1_macro_doc"), num(s.f1_macro_doc)),
        (Cow::Borrowed("P_macro_doc_std"), num(s.p_macro_doc_std)),
        (Cow::Borrowed("R_macro_doc_std"), num(s.r_macro_doc_std)),
        (Cow::Borrowed("F1_macro_doc_std"), num(s.f1_macro_doc_std)),
    ];
    if let Some(ci) = &s.ci {
        insert_intervals(&mut items, ci);
    }
    if let Some(m) = s.type_macro {
        items.push((Cow::Borrowed("P_macro"), num(m[0])));
        items.push((Cow::Borrowed("R_macro"), num(m[1])));
        items.push((Cow::Borrowed("F1_macro"), num(m[2])));
        items.push((Cow::Borrowed("F1_macro (recomputed from P & R)"), num(m[3])));
    }
    Json::Obj(items)
}

fn label_json(
    s: &PerRegime<RegimeScores>,
    fair: Option<&crate::metrics::fair::FairLabelScores>,
) -> Json {
    let mut items: Vec<(Cow<'static, str>, Json)> = JSON_REGIMES
        .iter()
        .map(|r| (Cow::Borrowed(r.json_name()), regime_json(&s[*r])))
        .collect();
    if let Some(f) = fair {
        items.push((Cow::Borrowed("fair"), fair_json(Some(&f.counts), &f.fair)));
        if let Some(w) = &f.weighted {
            items.push((Cow::Borrowed("weighted"), fair_json(None, w)));
        }
    }
    Json::Obj(items)
}

fn fair_json(
    counts: Option<&crate::matching::fair::FairCounts>,
    s: &crate::metrics::fair::WeightedScores,
) -> Json {
    let int = |v: u64| Json::Num(PyNum::Int(v as i64));
    let fl = |v: f64| Json::Num(PyNum::Float(v));
    let mut items: Vec<(Cow<'static, str>, Json)> = Vec::new();
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
            items.push((Cow::Borrowed(k), int(v)));
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
        items.push((Cow::Borrowed(k), fl(v)));
    }
    for (k, v) in [
        ("P_macro_doc", s.p_macro_doc),
        ("R_macro_doc", s.r_macro_doc),
        ("F1_macro_doc", s.f1_macro_doc),
        ("P_macro_doc_std", s.p_macro_doc_std),
        ("R_macro_doc_std", s.r_macro_doc_std),
        ("F1_macro_doc_std", s.f1_macro_doc_std),
    ] {
        items.push((Cow::Borrowed(k), Json::Num(v)));
    }
    if let Some(ci) = &s.ci {
        insert_intervals(&mut items, ci);
    }
    Json::Obj(items)
}

/// `P_micro_ci`, `R_micro_ci`, `F1_micro_ci` as `[lo, hi]`, right after `F1_micro`
/// (`score --bootstrap`).
fn insert_intervals(items: &mut Vec<(Cow<'static, str>, Json)>, ci: &ByMeasure<Interval>) {
    let at = items
        .iter()
        .position(|(k, _)| k == "F1_micro")
        .map_or(items.len(), |i| i + 1);
    let arr = |iv: &Interval| {
        Json::Arr(vec![
            Json::Num(PyNum::Float(iv.lo)),
            Json::Num(PyNum::Float(iv.hi)),
        ])
    };
    let keys = [
        (Cow::Borrowed("P_micro_ci"), arr(&ci.p)),
        (Cow::Borrowed("R_micro_ci"), arr(&ci.r)),
        (Cow::Borrowed("F1_micro_ci"), arr(&ci.f1)),
    ];
    items.splice(at..at, keys);
}

fn json_tree(cols: &[ColumnResult]) -> Json {
    let mut root = Json::obj();
    for c in cols {
        root.entry(&c.column)
            .entry(&c.time)
            .set(&c.noise, evaluation_json(&c.eval));
    }
    root
}

fn write_tsv_rows(
    out: &mut String,
    system: &str,
    cols: &[ColumnResult],
    n_best: usize,
    only_all: bool,
    suffix: Option<&str>,
    regimes: &[Regime],
) {
    // Columns sorted; periods and noise levels in the order of the first column's results.
    for res in results_in_row_order(cols) {
        let col = &res.column.as_str();
        let (time, noise) = (&res.time.as_str(), &res.noise.as_str());
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
                let nb = if col.contains("NEL") {
                    format!("-@{n_best}")
                } else {
                    String::new()
                };
                let sfx = suffix.map(|s| format!("{s}-")).unwrap_or_default();
                let evaluation =
                    format!("{col}-{aggr}-{}-{sfx}{time}-{noise}{nb}", regime.as_str());
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
