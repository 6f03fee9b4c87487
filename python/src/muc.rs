//! `fairscore.muc`: MUC-7 token-by-token judgement with F-beta, as `fairscore muc --json`.

use std::path::PathBuf;

use fairscore::eval::muc::{evaluate_files, MucOptions};
use fairscore::formats::Format;
use fairscore::Edition;
use pyo3::prelude::*;

use crate::files::{check_beta, to_usage, warn_all};
use crate::{lift, loads};

/// MUC-7 judgement of a run against the gold: returns what `fairscore muc --json` writes
/// (`beta`, `overall`, `per_type`, `macro`); `judgements=PATH` also writes the per-token
/// listing there, as `--judgements`.
#[pyfunction]
#[pyo3(signature = (reference, pred, *, format = "hipe", column = None, edition = "hipe-2020", beta = None, judgements = None))]
#[allow(clippy::too_many_arguments)]
fn muc(
    py: Python<'_>,
    reference: PathBuf,
    pred: PathBuf,
    format: &str,
    column: Option<String>,
    edition: &str,
    beta: Option<f64>,
    judgements: Option<PathBuf>,
) -> PyResult<PyObject> {
    let beta = check_beta(py, beta)?.unwrap_or(1.0);
    let format = match format {
        "hipe" => Format::Hipe,
        "conll" => Format::Conll,
        other => {
            return Err(to_usage(
                py,
                format!("format: {other:?} is not one of hipe, conll"),
            ))
        }
    };
    let edition = lift(py, Edition::parse(edition))?;
    if let Some(out) = &judgements {
        lift(
            py,
            fairscore::io::check_outputs(
                &[("reference", reference.as_path()), ("pred", pred.as_path())],
                &[("judgements", out.as_path())],
                &[],
            ),
        )?;
    }
    let opts = MucOptions {
        format,
        column,
        edition,
        beta,
        judgements: judgements.is_some(),
    };
    let r = py.allow_threads(|| evaluate_files(&reference, &pred, &opts));
    let r = lift(py, r)?;
    warn_all(py, &r.warnings)?;
    if let Some(out) = &judgements {
        let listing = fairscore::report::muc::judgements_tsv(&r);
        lift(py, fairscore::io::write_atomic(out, listing.as_bytes()))?;
    }
    loads(py, &fairscore::report::muc::json_text(&r))
}

/// Adds `muc` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(muc, m)?)?;
    Ok(())
}
