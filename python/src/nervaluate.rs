//! `fairscore.nervaluate`'s counting: the entities of one document (objects with `label`,
//! `start` and `end`, as `fairscore.nervaluate.Entity`) evaluated as nervaluate 1.2.1's
//! `Evaluator.evaluate` evaluates a document, by the library's attribution
//! ([`fairscore::matching::attribution::Attributor::document`], the same code as
//! `fairscore evaluate --family spans --attribution nervaluate`): the entities of the listed
//! labels overall, then each used label's entities on their own, the four strategies at once.
//! Loading and reports stay in Python.

use fairscore::matching::attribution::{AttributionError, Attributor, Entity, Outcomes};
use fairscore::matching::SpanRegime;
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

/// The four strategies in nervaluate's order (strict, partial, ent_type, exact), each None
/// when it divides by zero.
type Strategies = Vec<Option<Outcome>>;

/// The labels met so far: their ids by text, and for each id the label object, whether the
/// label is among those evaluated (`allowed`) and whether it has results of its own (`used`).
#[derive(Default)]
struct Labels {
    ids: HashMap<String, u32>,
    objects: Vec<PyObject>,
    used: Vec<bool>,
}

fn odd(item: &Bound<'_, PyAny>) -> PyErr {
    PyValueError::new_err(format!(
        "fairscore.nervaluate counts entities whose label is a str and whose start and end are integers from -2**63 to 2**63 - 1; got {}",
        item.repr()
            .map_or_else(|_| "an entity".to_string(), |r| r.to_string())
    ))
}

/// Whether `label` is in `set` (`None`: every label is), as Python's `in` tells.
fn member(set: Option<&Bound<'_, PyAny>>, label: &Bound<'_, PyAny>) -> PyResult<bool> {
    set.map_or(Ok(true), |s| s.contains(label))
}

/// The entities of one side whose label is in `allowed`, read in order (an entity left out
/// is not looked at further, as nervaluate filters before matching).
fn read_side(
    side: &Bound<'_, PyAny>,
    allowed: Option<&Bound<'_, PyAny>>,
    used: Option<&Bound<'_, PyAny>>,
    labels: &mut Labels,
    allowed_ids: &mut Vec<bool>,
) -> PyResult<Vec<Entity>> {
    let py = side.py();
    let mut out = Vec::new();
    for item in side.iter()? {
        let item = item?;
        let label = item.getattr(intern!(py, "label"))?;
        let Ok(text) = label.downcast::<PyString>() else {
            if member(allowed, &label)? {
                return Err(odd(&item));
            }
            continue;
        };
        let text = text.to_str()?;
        let id = match labels.ids.get(text) {
            Some(&k) => k,
            None => {
                let k = labels.objects.len() as u32;
                labels.ids.insert(text.to_string(), k);
                labels.objects.push(label.clone().unbind());
                allowed_ids.push(member(allowed, &label)?);
                labels.used.push(used.is_some() && member(used, &label)?);
                k
            }
        };
        if !allowed_ids[id as usize] {
            continue;
        }
        let (start, end) = (
            item.getattr(intern!(py, "start"))?,
            item.getattr(intern!(py, "end"))?,
        );
        let (Ok(start), Ok(end)) = (start.extract::<i64>(), end.extract::<i64>()) else {
            return Err(odd(&item));
        };
        out.push(Entity {
            label: id,
            start,
            end,
        });
    }
    Ok(out)
}

fn to_python(py: Python<'_>, doc: &PyObject, o: &Outcomes) -> Outcome {
    let pairs = |v: &[usize]| -> Vec<(PyObject, usize)> {
        v.iter().map(|&k| (doc.clone_ref(py), k)).collect()
    };
    let c = o.counts;
    (
        c.correct,
        c.incorrect,
        c.partial,
        c.missed,
        c.spurious,
        pairs(&o.correct),
        pairs(&o.incorrect),
        pairs(&o.partial),
        pairs(&o.missed),
        pairs(&o.spurious),
    )
}

/// The position of a regime among nervaluate's strategies (strict, partial, ent_type, exact).
fn slot(r: SpanRegime) -> usize {
    match r {
        SpanRegime::Strict => 0,
        SpanRegime::Partial => 1,
        SpanRegime::EntType => 2,
        SpanRegime::Exact => 3,
    }
}

/// nervaluate's evaluation of one document: `(overall, per_label)`, `overall` the four
/// strategies (strict, partial, ent_type, exact: each the strategy's [`Outcome`], or None when
/// it divides by zero, a gold entity of length 0 reached across, where nervaluate raises
/// `ZeroDivisionError`) over the entities whose label is `in allowed` (None: all), indices
/// counted among them; `per_label` a list of `(label, strategies)` for each label `in used`
/// (None: no label) that an entity of either side has, in order of appearance (gold first),
/// over that label's entities alone. Entities are read by attribute; an evaluated entity whose
/// label is not a `str` or whose offsets are not integers of 64 bits is a ValueError.
#[pyfunction]
#[pyo3(signature = (golds, preds, allowed, used, min_pct, doc))]
fn _nervaluate_document(
    py: Python<'_>,
    golds: &Bound<'_, PyAny>,
    preds: &Bound<'_, PyAny>,
    allowed: Option<&Bound<'_, PyAny>>,
    used: Option<&Bound<'_, PyAny>>,
    min_pct: f64,
    doc: PyObject,
) -> PyResult<(Strategies, Vec<(PyObject, Strategies)>)> {
    let mut labels = Labels::default();
    let mut allowed_ids = Vec::new();
    let g = read_side(golds, allowed, used, &mut labels, &mut allowed_ids)?;
    let p = read_side(preds, allowed, used, &mut labels, &mut allowed_ids)?;
    // Per label (None: overall), the four strategies' outcomes, in the order `document`
    // gives them (overall, then the labels by id: by appearance, gold first).
    type Found = Vec<(Option<u32>, [Option<Result<Outcomes, AttributionError>>; 4])>;
    let used_ids = &labels.used;
    let found: Found = py.allow_threads(|| {
        let mut found: Found = Vec::new();
        Attributor::default().document(
            &g,
            &p,
            min_pct,
            true,
            |l| used_ids.get(l as usize).copied().unwrap_or(false),
            |label, regime, outcome| {
                if found.last().is_none_or(|(l, _)| *l != label) {
                    found.push((label, Default::default()));
                }
                if let Some((_, slots)) = found.last_mut() {
                    slots[slot(regime)] = Some(outcome.cloned());
                }
            },
        );
        found
    });
    let strategies = |slots: &[Option<Result<Outcomes, AttributionError>>; 4]| -> Strategies {
        slots
            .iter()
            .map(|s| match s {
                Some(Ok(o)) => Some(to_python(py, &doc, o)),
                _ => None,
            })
            .collect()
    };
    let mut overall: Strategies = (0..4).map(|_| None).collect();
    let mut per_label = Vec::new();
    for (label, slots) in &found {
        match label {
            None => overall = strategies(slots),
            Some(k) => {
                if let Some(obj) = labels.objects.get(*k as usize) {
                    per_label.push((obj.clone_ref(py), strategies(slots)));
                }
            }
        }
    }
    Ok((overall, per_label))
}

/// Adds the counting core to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_nervaluate_document, m)?)?;
    Ok(())
}
