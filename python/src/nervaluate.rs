//! `fairscore.nervaluate`'s counting core: the entities of one document (objects with
//! `label`, `start` and `end`, as `fairscore.nervaluate.Entity`) attributed by the library
//! ([`fairscore::matching::attribution`]: nervaluate 1.2.1's rules), the four strategies at
//! once. Loading, `tags` filtering and reports stay in Python.

use fairscore::matching::attribution::{closest_overlap, Entity, Outcomes};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::collections::HashMap;

/// One strategy's outcome for Python: the five counts, then the five index lists as
/// `(doc, index)` pairs (correct, incorrect, partial, missed, spurious).
type Outcome = (
    u64,
    u64,
    u64,
    u64,
    u64,
    Vec<(PyObject, usize)>,
    Vec<(PyObject, usize)>,
    Vec<(PyObject, usize)>,
    Vec<(PyObject, usize)>,
    Vec<(PyObject, usize)>,
);

/// The entities of one side, labels numbered by their text (shared by both sides).
fn read_side<'py>(
    side: &Bound<'py, PyAny>,
    labels: &mut HashMap<String, u32>,
) -> PyResult<Vec<Entity>> {
    let py = side.py();
    let mut out = Vec::new();
    for item in side.iter()? {
        let item = item?;
        let label = item.getattr(intern!(py, "label"))?;
        let (start, end) = (
            item.getattr(intern!(py, "start"))?,
            item.getattr(intern!(py, "end"))?,
        );
        let odd = || {
            PyValueError::new_err(format!(
                "fairscore.nervaluate counts entities whose label is a str and whose start and end are integers from -2**63 to 2**63 - 1; got {}",
                item.repr().map_or_else(|_| "an entity".to_string(), |r| r.to_string())
            ))
        };
        let text = label.downcast::<PyString>().map_err(|_| odd())?.to_str()?;
        let (Ok(start), Ok(end)) = (start.extract::<i64>(), end.extract::<i64>()) else {
            return Err(odd());
        };
        let next = labels.len() as u32;
        let id = match labels.get(text) {
            Some(&k) => k,
            None => {
                labels.insert(text.to_string(), next);
                next
            }
        };
        out.push(Entity {
            label: id,
            start,
            end,
        });
    }
    Ok(out)
}

fn to_python(py: Python<'_>, doc: &PyObject, o: Outcomes) -> Outcome {
    let pairs = |v: Vec<usize>| -> Vec<(PyObject, usize)> {
        v.into_iter().map(|k| (doc.clone_ref(py), k)).collect()
    };
    let c = o.counts;
    (
        c.correct,
        c.incorrect,
        c.partial,
        c.missed,
        c.spurious,
        pairs(o.correct),
        pairs(o.incorrect),
        pairs(o.partial),
        pairs(o.missed),
        pairs(o.spurious),
    )
}

/// nervaluate's four strategies on one document: a list in the order strict, partial,
/// ent_type, exact, each the strategy's [`Outcome`] or None when it divides by zero (a gold
/// entity of length 0 reached across: nervaluate raises `ZeroDivisionError`). Entities are
/// read by attribute; a label that is not a `str` or an offset that is not an integer of 64
/// bits is a ValueError.
#[pyfunction]
fn _nervaluate_match(
    py: Python<'_>,
    golds: &Bound<'_, PyAny>,
    preds: &Bound<'_, PyAny>,
    min_pct: f64,
    doc: PyObject,
) -> PyResult<Vec<Option<Outcome>>> {
    let mut labels = HashMap::new();
    let g = read_side(golds, &mut labels)?;
    let p = read_side(preds, &mut labels)?;
    let a = py.allow_threads(|| closest_overlap(&g, &p, min_pct));
    Ok([a.strict, a.partial, a.ent_type, a.exact]
        .into_iter()
        .map(|r| r.ok().map(|o| to_python(py, &doc, o)))
        .collect())
}

/// Adds the counting core to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_nervaluate_match, m)?)?;
    Ok(())
}
