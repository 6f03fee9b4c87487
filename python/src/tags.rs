//! Functions on Python data, for training loops: `evaluate` (every regime, per label and
//! overall) and `classification_report` (seqeval's layout), both on lists of tag lists, scored
//! by `fairscore::eval::tags`.

use crate::lift;
use fairscore::eval::evaluate_tags;
use fairscore::eval::FairRow;
use fairscore::eval::RegimeRow;
use fairscore::eval::ReportRow;
use fairscore::eval::TagEvaluation;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn regime_dict<'py>(py: Python<'py>, r: &RegimeRow) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new_bound(py);
    let c = &r.counts;
    d.set_item("correct", c.correct)?;
    d.set_item("incorrect", c.incorrect)?;
    d.set_item("partial", c.partial)?;
    d.set_item("missed", c.missed)?;
    d.set_item("spurious", c.spurious)?;
    d.set_item("possible", c.possible())?;
    d.set_item("actual", c.actual())?;
    d.set_item("P", r.p)?;
    d.set_item("R", r.r)?;
    d.set_item("F1", r.f)?;
    Ok(d)
}

fn fair_dict<'py>(py: Python<'py>, r: &FairRow) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new_bound(py);
    let c = &r.counts;
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
        d.set_item(k, v)?;
    }
    d.set_item("TP_weighted", r.tp)?;
    d.set_item("FP_weighted", r.fp)?;
    d.set_item("FN_weighted", r.fn_)?;
    d.set_item("P", r.p)?;
    d.set_item("R", r.r)?;
    d.set_item("F1", r.f)?;
    Ok(d)
}

fn run(
    py: Python<'_>,
    y_true: Vec<Vec<String>>,
    y_pred: Vec<Vec<String>>,
    scheme: &str,
    beta: f64,
) -> PyResult<TagEvaluation> {
    let scheme = scheme.to_string();
    let r = crate::interruptible(py, move || evaluate_tags(&y_true, &y_pred, &scheme, beta))?;
    lift(py, r)
}

/// Every regime (strict, ent_type, partial, exact, fair) per label and overall (`ALL`).
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, scheme = "IOB2", beta = 1.0))]
fn evaluate<'py>(
    py: Python<'py>,
    y_true: Vec<Vec<String>>,
    y_pred: Vec<Vec<String>>,
    scheme: &str,
    beta: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let e = run(py, y_true, y_pred, scheme, beta)?;
    let out = PyDict::new_bound(py);
    for (regime, rows) in &e.regimes {
        let d = PyDict::new_bound(py);
        for (label, row) in rows {
            d.set_item(label, regime_dict(py, row)?)?;
        }
        out.set_item(regime.json_name(), d)?;
    }
    let d = PyDict::new_bound(py);
    for (label, row) in &e.fair {
        d.set_item(label, fair_dict(py, row)?)?;
    }
    out.set_item("fair", d)?;
    Ok(out)
}

/// seqeval's `StringReporter` layout.
fn report_text(rows: &[ReportRow], averages: &[ReportRow], digits: usize) -> String {
    let width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .chain([
            averages
                .iter()
                .map(|r| r.name.chars().count())
                .max()
                .unwrap_or(0),
            digits,
        ])
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "{:>width$}  {:>9} {:>9} {:>9} {:>9}\n\n",
        "", "precision", "recall", "f1-score", "support"
    );
    let line = |r: &ReportRow| {
        format!(
            "{:>width$}  {:>9.digits$} {:>9.digits$} {:>9.digits$} {:>9}",
            r.name, r.precision, r.recall, r.f, r.support
        )
    };
    let mut buffer: Vec<String> = rows.iter().map(line).collect();
    buffer.push(String::new());
    buffer.extend(averages.iter().map(line));
    buffer.push(String::new());
    out.push_str(&buffer.join("\n"));
    out
}

/// seqeval's classification report (default mode): per type P, R, F1 and support, then micro,
/// macro and support-weighted averages; text, or a dict with `output_dict=True`.
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, digits = 2, output_dict = false, *, scheme = "IOB2", beta = 1.0))]
fn classification_report(
    py: Python<'_>,
    y_true: Vec<Vec<String>>,
    y_pred: Vec<Vec<String>>,
    digits: usize,
    output_dict: bool,
    scheme: &str,
    beta: f64,
) -> PyResult<PyObject> {
    let e = run(py, y_true, y_pred, scheme, beta)?;
    if !output_dict {
        return Ok(report_text(&e.report, &e.averages, digits.min(30)).into_py(py));
    }
    let out = PyDict::new_bound(py);
    for r in e.report.iter().chain(&e.averages) {
        let d = PyDict::new_bound(py);
        d.set_item("precision", r.precision)?;
        d.set_item("recall", r.recall)?;
        d.set_item("f1-score", r.f)?;
        d.set_item("support", r.support)?;
        out.set_item(&r.name, d)?;
    }
    Ok(out.into_py(py))
}

/// Adds the tag-sequence functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(classification_report, m)?)?;
    Ok(())
}
