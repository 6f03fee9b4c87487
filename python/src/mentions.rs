//! `fairscore.mentions`: the mentions family on Python lists in memory, for evaluation inside
//! a generation loop (no files). The gold and the predictions become the JSON values the
//! family's JSONL lines are (dicts, lists, strings, numbers), read by the library's one reader
//! of records (`fairscore::api::run_mentions_in_memory`); options are keywords as for
//! `fairscore.family`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use crate::files::{settings, warn_all};
use crate::{lift, loads};

/// How deep a value may nest (an entity object inside a list inside a record is 3).
const MAX_DEPTH: usize = 32;

/// A Python value as JSON: dicts with string keys, lists and tuples, strings, booleans,
/// integers, finite floats and `None`; anything else is a `TypeError` naming `what`.
fn json_of(v: &Bound<'_, PyAny>, what: &str, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyTypeError::new_err(format!(
            "{what}: nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if v.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(s) = v.downcast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_string()));
    }
    if let Ok(b) = v.downcast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        if let Ok(i) = v.extract::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = v.extract::<u64>() {
            return Ok(Value::Number(u.into()));
        }
    }
    if v.is_instance_of::<PyFloat>() {
        let f: f64 = v.extract()?;
        if let Some(n) = Number::from_f64(f) {
            return Ok(Value::Number(n));
        }
    }
    if let Ok(d) = v.downcast::<PyDict>() {
        let mut m = Map::new();
        for (k, x) in d.iter() {
            let key: String = k.extract().map_err(|_| {
                PyTypeError::new_err(format!("{what}: a dict's keys must be strings"))
            })?;
            m.insert(key, json_of(&x, what, depth + 1)?);
        }
        return Ok(Value::Object(m));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = v.extract()?;
        return items
            .iter()
            .map(|x| json_of(x, what, depth + 1))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array);
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected dicts, lists, strings, numbers or None, not {}",
        v.get_type().name()?
    )))
}

/// The items of a list (or tuple, or any ordered iterable) as JSON values. A set is refused:
/// its order changes with `PYTHONHASHSEED`, and records pair with units by order.
fn items(v: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Value>> {
    if v.is_instance_of::<PyString>() || v.is_instance_of::<PyDict>() {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected a list (one item a unit)"
        )));
    }
    if v.is_instance_of::<PySet>() || v.is_instance_of::<PyFrozenSet>() {
        return Err(PyTypeError::new_err(format!(
            "{what}: a set has no order (it changes with PYTHONHASHSEED), and records pair \
             with the units by order: give a list"
        )));
    }
    let mut out = Vec::new();
    for x in v.iter()? {
        out.push(json_of(&x?, what, 1)?);
    }
    Ok(out)
}

/// The mentions family on lists in memory: `gold` a list of units (dicts with `id`, `text`,
/// `entities`, as the lines of a gold JSONL file) or of entity lists; `predictions` a list of
/// entity lists, raw answer strings, or dicts as the lines of a run's file. Returns the dict
/// `fairscore.family("mentions", …)` returns for the same records in files.
#[pyfunction]
#[pyo3(signature = (gold, predictions, preset = None, **options))]
fn mentions(
    py: Python<'_>,
    gold: &Bound<'_, PyAny>,
    predictions: &Bound<'_, PyAny>,
    preset: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let mut s = settings(options)?;
    if let Some(p) = preset {
        s.text("preset", Some(p));
    }
    let g = items(gold, "gold")?;
    let p = items(predictions, "predictions")?;
    let r = crate::interruptible(py, move || {
        fairscore::api::run_mentions_in_memory(&s, &g, &p)
    })?;
    let r = lift(py, r)?;
    warn_all(py, &r.warnings)?;
    loads(py, &fairscore::report::render_json(&r))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mentions, m)?)?;
    Ok(())
}
