//! Functions on files: `score`, `fair`, `check`, `normalize`, `segmentation`, `tagging`,
//! `muc`, `family`, `compare` and `leaderboard`. Every option is a keyword argument named as
//! the CLI's flag (`skip_check=True`, `n_best=[1, 3]`, `bootstrap=1000`); the values go as
//! named settings to the library's one option parser (`fairscore::api`), so Python and the
//! CLI accept and refuse the same options with the same messages. Nothing here parses an
//! option value.

use std::path::{Path, PathBuf};

use crate::{lift, loads};
use fairscore::api::{self, Setting, Settings};
use fairscore::Error;
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

pub(crate) fn to_usage(py: Python<'_>, msg: String) -> PyErr {
    crate::to_py(py, Error::usage(msg))
}

pub(crate) fn warn_all(py: Python<'_>, warnings: &[String]) -> PyResult<()> {
    let category = py.get_type_bound::<PyUserWarning>();
    for w in warnings {
        PyErr::warn_bound(py, &category, &format!("fairscore: {w}"), 1)?;
    }
    Ok(())
}

/// One keyword value as text: strings as they are, path-likes through `os.fspath`, numbers
/// and everything else through `str`.
fn text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.extract::<String>() {
        return Ok(s);
    }
    let os = v.py().import_bound("os")?;
    if v.hasattr("__fspath__")? {
        return os.call_method1("fspath", (v,))?.str()?.extract();
    }
    v.str()?.extract()
}

/// Keyword arguments as named settings: `None` left out, `bool` a switch, a list or tuple a
/// list, anything else its text (see [`text`]).
pub(crate) fn settings(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
    let mut s = Settings::new();
    let Some(kw) = kwargs else { return Ok(s) };
    for (k, v) in kw.iter() {
        let name: String = k.extract()?;
        if v.is_none() {
            continue;
        }
        let value = if let Ok(b) = v.downcast::<pyo3::types::PyBool>() {
            Setting::Flag(b.is_true())
        } else if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
            let items: Vec<Bound<'_, PyAny>> = v.extract()?;
            Setting::List(items.iter().map(text).collect::<PyResult<_>>()?)
        } else {
            Setting::Text(text(&v)?)
        };
        s.set(&name, value);
    }
    Ok(s)
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The family table of `name` as a dict (`fairscore family` JSON).
fn family_json(
    py: Python<'_>,
    name: &str,
    s: &Settings,
    gold: &Path,
    pred: &Path,
) -> PyResult<PyObject> {
    let (fam, rs) = lift(py, api::prepare_family(name, s))?;
    let opts = lift(py, api::family_options(s))?;
    let (gold, pred) = (gold.to_path_buf(), pred.to_path_buf());
    let (g, p) = (gold.clone(), pred.clone());
    let r = crate::interruptible(py, move || {
        fairscore::family::evaluate(fam.as_ref(), &g, &p, rs.as_ref())
    })?;
    let mut r = lift(py, r)?;
    // The signature, as `fairscore evaluate --table json` gives it.
    let resampled = rs.as_ref().map(|x| fairscore::family::sign::Resampled {
        resampler: x,
        unit: r.unit,
        test: None,
    });
    r.signature = Some(lift(
        py,
        fairscore::family::sign::signature(name, &opts, resampled, &gold, &[pred.as_path()]),
    )?);
    warn_all(py, &r.warnings)?;
    loads(py, &fairscore::report::table::json::render(&r))
}

/// A command's own JSON document with its signature, as the CLI's `--json` writes it.
fn signed(
    py: Python<'_>,
    name: &str,
    s: &Settings,
    gold: &Path,
    pred: &Path,
    doc: serde_json::Value,
) -> PyResult<PyObject> {
    let sig = lift(py, api::family_signature(name, s, gold, &[pred], None, None))?;
    loads(
        py,
        &fairscore::report::table::json::signed_text(doc, Some(&sig)),
    )
}

/// Scores one run as `fairscore score` and returns the JSON it writes, as Python objects;
/// `errors=PATH` also writes the span listing there.
#[pyfunction]
#[pyo3(signature = (r#ref, pred, task, edition = "hipe-2020", **options))]
fn score(
    py: Python<'_>,
    r#ref: PathBuf,
    pred: PathBuf,
    task: &str,
    edition: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let mut s = settings(options)?;
    s.text("hipe_edition", Some(edition));
    let tasks = lift(py, api::tasks(task))?;
    let [task] = tasks.as_slice() else {
        return Err(to_usage(
            py,
            "task: give one task (the CLI scores several at once)".into(),
        ));
    };
    let opts = lift(py, api::score_options(&s, *task))?;
    let errors = s.get("errors").map(PathBuf::from);
    lift(py, s.finish("score"))?;
    if let Some(out) = &errors {
        lift(
            py,
            fairscore::io::check_outputs(
                &[("ref", r#ref.as_path()), ("pred", pred.as_path())],
                &[("errors", out.as_path())],
                &[],
            ),
        )?;
    }
    let (gold, run) = (r#ref.clone(), pred.clone());
    let out = crate::interruptible(py, move || fairscore::score_paths(&gold, &run, &opts))?;
    let out = lift(py, out)?;
    warn_all(py, &out.warnings)?;
    if let (Some(p), Some(t)) = (&errors, &out.errors) {
        lift(py, fairscore::io::write_atomic(p, t.as_bytes()))?;
    }
    loads(py, &out.json)
}

/// Fair evaluation (Ortmann 2022) as `fairscore fair --json`; with `bootstrap=N` (or
/// `table=…`) the family table with intervals, as `fairscore fair --bootstrap N --json -`.
#[pyfunction]
#[pyo3(signature = (target, system, format = "auto", **options))]
fn fair(
    py: Python<'_>,
    target: PathBuf,
    system: PathBuf,
    format: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let mut s = settings(options)?;
    s.text("format", Some(format));
    if api::wants_family_table(&s) {
        return family_json(py, "fair", &s, &target, &system);
    }
    let (opts, beta) = lift(py, api::fair_options(&s))?;
    let errors = s.get("errors").map(PathBuf::from);
    lift(py, s.finish("fair"))?;
    let (t, sy) = (target.clone(), system.clone());
    let report = crate::interruptible(py, move || {
        fairscore::eval::standoff::fair_files(&t, &sy, &opts)
    })?;
    let report = lift(py, report)?;
    warn_all(py, &report.warnings)?;
    if let Some(p) = &errors {
        let listing = fairscore::report::fair::errors_tsv(&report);
        lift(py, fairscore::report::fair::write_file(p, &listing))?;
    }
    let doc = fairscore::report::fair::to_json_beta(&report, beta);
    signed(py, "fair", &s, &target, &system, doc)
}

/// The participant self-check: the findings `fairscore check --json` lists.
#[pyfunction]
#[pyo3(signature = (r#ref, pred, task = None, edition = "hipe-2020", **options))]
fn check(
    py: Python<'_>,
    r#ref: PathBuf,
    pred: PathBuf,
    task: Option<&str>,
    edition: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let mut s = settings(options)?;
    s.text("task", task).text("hipe_edition", Some(edition));
    let request = lift(py, api::check_plan(&s, &r#ref, &pred))?;
    lift(py, s.finish("check"))?;
    let (gold, run) = (r#ref.clone(), pred.clone());
    let report = crate::interruptible(py, move || api::run_check(request, &gold, &run))?;
    let report = lift(py, report)?;
    let json = report.to_json();
    loads(py, &json["findings"].to_string())
}

/// Entity-link normalization as `fairscore normalize`; returns the normalized text and, when
/// `output` is given, also writes it there (atomically; never over the map).
#[pyfunction]
#[pyo3(signature = (input, output = None, *, edition = "hipe-2020", **options))]
fn normalize(
    py: Python<'_>,
    input: PathBuf,
    output: Option<PathBuf>,
    edition: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let mut s = settings(options)?;
    s.text("hipe_edition", Some(edition));
    let opts = lift(py, api::normalize_options(&s))?;
    lift(py, s.finish("normalize"))?;
    if let Some(out) = &output {
        let map = s.get("map").map(PathBuf::from);
        let mut inputs = vec![("input", input.as_path())];
        inputs.extend(map.as_deref().map(|p| ("map", p)));
        lift(
            py,
            fairscore::io::check_outputs(&inputs, &[("output", out.as_path())], &["input"]),
        )?;
    }
    let src = input.clone();
    let text = crate::interruptible(py, move || {
        fairscore::normalize::normalize_file(&src, &opts)
    })?;
    let text = lift(py, text)?;
    if let Some(out) = &output {
        lift(py, fairscore::io::write_atomic(out, text.as_bytes()))?;
    }
    Ok(text)
}

/// Word segmentation (Shao et al. 2017) as `fairscore segmentation --json`; with
/// `bootstrap=N` (or `table=…`) the family table with intervals over sentences.
#[pyfunction]
#[pyo3(signature = (gold, pred, format = "auto", **options))]
fn segmentation(
    py: Python<'_>,
    gold: PathBuf,
    pred: PathBuf,
    format: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let mut s = settings(options)?;
    s.text("format", Some(format));
    if api::wants_family_table(&s) {
        return family_json(py, "segmentation", &s, &gold, &pred);
    }
    lift(py, api::refuse_standoff(&s, "segmentation", &gold, &pred))?;
    let opts = lift(py, api::segmentation_options(&s, &gold))?;
    lift(py, s.finish("segmentation"))?;
    let (g, p) = (gold.clone(), pred.clone());
    let r = crate::interruptible(py, move || {
        fairscore::eval::segmentation::evaluate_files(&g, &p, &opts)
    })?;
    let r = lift(py, r)?;
    let doc = fairscore::report::segmentation::to_json(&r);
    signed(py, "segmentation", &s, &gold, &pred, doc)
}

/// Tagging beyond accuracy as `fairscore tagging --json`; with `bootstrap=N` (or `table=…`)
/// the family table with intervals over sentences.
#[pyfunction]
#[pyo3(signature = (gold, pred, format = "auto", **options))]
fn tagging(
    py: Python<'_>,
    gold: PathBuf,
    pred: PathBuf,
    format: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let mut s = settings(options)?;
    s.text("format", Some(format));
    if api::wants_family_table(&s) {
        return family_json(py, "tagging", &s, &gold, &pred);
    }
    lift(py, api::refuse_standoff(&s, "tagging", &gold, &pred))?;
    let opts = lift(py, api::tagging_options(&s, &gold))?;
    lift(py, s.finish("tagging"))?;
    let (g, p) = (gold.clone(), pred.clone());
    let r = crate::interruptible(py, move || {
        fairscore::eval::tagging::evaluate_files(&g, &p, &opts)
    })?;
    let r = lift(py, r)?;
    warn_all(py, &r.warnings)?;
    let doc = fairscore::report::tagging::to_json(&r);
    signed(py, "tagging", &s, &gold, &pred, doc)
}

/// MUC-7 judgement of a run against the gold: returns what `fairscore muc --json` writes
/// (`beta`, `overall`, `per_type`, `macro`); `judgements=PATH` also writes the per-token
/// listing there; with `bootstrap=N` (or `table=…`) the family table with intervals.
#[pyfunction]
#[pyo3(signature = (reference, pred, *, edition = "hipe-2020", **options))]
fn muc(
    py: Python<'_>,
    reference: PathBuf,
    pred: PathBuf,
    edition: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let mut s = settings(options)?;
    s.text("hipe_edition", Some(edition));
    if !s.has("format") {
        s.text("format", Some("hipe"));
    }
    if api::wants_family_table(&s) {
        return family_json(py, "muc", &s, &reference, &pred);
    }
    let mut opts = lift(py, api::muc_options(&s))?;
    let judgements = s.get("judgements").map(PathBuf::from);
    opts.judgements = judgements.is_some();
    lift(py, s.finish("muc"))?;
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
    let (gold, run) = (reference.clone(), pred.clone());
    let r = crate::interruptible(py, move || {
        fairscore::eval::muc::evaluate_files(&gold, &run, &opts)
    })?;
    let r = lift(py, r)?;
    warn_all(py, &r.warnings)?;
    if let Some(out) = &judgements {
        let listing = fairscore::report::muc::judgements_tsv(&r);
        lift(py, fairscore::io::write_atomic(out, listing.as_bytes()))?;
    }
    let doc = fairscore::report::muc::to_json(&r);
    signed(py, "muc", &s, &reference, &pred, doc)
}

/// Any metric family on two files, as `fairscore evaluate --family NAME --json -`: the one
/// result table (`tables[].rows[].scores`, `ci` with `bootstrap=N`).
#[pyfunction]
#[pyo3(signature = (name, gold, pred, **options))]
fn family(
    py: Python<'_>,
    name: &str,
    gold: PathBuf,
    pred: PathBuf,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let s = settings(options)?;
    family_json(py, name, &s, &gold, &pred)
}

/// Compares run `a` with run `b` on the same gold, as `fairscore compare --json -`: HIPE or
/// CoNLL runs scored as `score` scores them, or any family's runs with `family="…"`.
/// `bootstrap` is the number of resamples (default 10,000), `test` permutation or bootstrap.
#[pyfunction]
#[pyo3(signature = (gold, a, b, **options))]
fn compare(
    py: Python<'_>,
    gold: PathBuf,
    a: PathBuf,
    b: PathBuf,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let s = settings(options)?;
    if let Some(name) = s.get("family") {
        let fam = lift(
            py,
            api::family_options(&s).and_then(|o| fairscore::family::build(&name, &o)),
        )?;
        let rs = lift(py, api::resampling(&s, "bootstrap", Some(10_000)))?;
        let test = lift(py, api::paired_test(&s))?;
        lift(py, s.finish("compare"))?;
        let rs = rs.ok_or_else(|| to_usage(py, "bootstrap: no resampling".into()))?;
        let opts = lift(py, api::family_options(&s))?;
        let (g, ra, rb) = (gold.clone(), a.clone(), b.clone());
        let r = crate::interruptible(py, move || {
            fairscore::family::compare(fam.as_ref(), &g, &ra, &rb, &rs, test)
        })?;
        let mut r = lift(py, r)?;
        let resampled = fairscore::family::sign::Resampled {
            resampler: &rs,
            unit: r.unit,
            test: Some(test),
        };
        r.signature = Some(lift(
            py,
            fairscore::family::sign::signature(
                &name,
                &opts,
                Some(resampled),
                &gold,
                &[a.as_path(), b.as_path()],
            ),
        )?);
        warn_all(py, &r.warnings)?;
        return loads(py, &fairscore::report::table::json::render(&r));
    }
    let (opts, copts) = lift(py, api::compare_options(&s))?;
    lift(py, s.finish("compare"))?;
    let r = crate::interruptible(py, move || {
        fairscore::score::compare_paths(&gold, &a, &b, &opts, &copts)
    })?;
    let r = lift(py, r)?;
    warn_all(py, &r.warnings)?;
    loads(py, &fairscore::report::compare::json(&r))
}

/// Scores a whole campaign as `fairscore leaderboard` (writing the same files under `outdir`)
/// and returns a summary of what was scored, failed, rejected and ranked.
#[pyfunction]
#[pyo3(signature = (gold_dir, runs_dir, resources, outdir, *, preset = None, campaign = None,
    threads = None, **options))]
#[allow(clippy::too_many_arguments)]
fn leaderboard<'py>(
    py: Python<'py>,
    gold_dir: PathBuf,
    runs_dir: PathBuf,
    resources: PathBuf,
    outdir: PathBuf,
    preset: Option<&str>,
    campaign: Option<PathBuf>,
    threads: Option<usize>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    use fairscore::campaign::{self as c, Campaign, CampaignDirs, RunOptions};
    let mut cfg = match (&campaign, preset) {
        (Some(_), Some(_)) => return Err(to_usage(py, "give campaign or preset, not both".into())),
        (Some(file), None) => lift(py, Campaign::from_file(file))?,
        (None, p) => lift(py, Campaign::preset(p.unwrap_or("hipe-2022")))?,
    };
    if threads == Some(0) {
        return Err(to_usage(py, "threads: expected 1 or more".into()));
    }
    let s = settings(options)?;
    if let Some(rs) = lift(py, api::resampling(&s, "bootstrap", None))? {
        cfg.bootstrap = Some(rs);
    }
    lift(py, s.finish("leaderboard"))?;
    let dirs = CampaignDirs {
        gold: gold_dir,
        runs: runs_dir,
        resources,
        outdir,
    };
    let report = crate::interruptible(py, move || {
        let scorer = c::scorer::JobScorer::new();
        let opts = RunOptions {
            threads,
            progress: None,
            replay_dir: None,
        };
        c::run_campaign_with(&cfg, &dirs, &|job: &c::ScoreJob| scorer.score(job), &opts)
    })?;
    let report = lift(py, report)?;
    let d = PyDict::new_bound(py);
    d.set_item("campaign", &report.campaign)?;
    d.set_item("ok", report.all_ok())?;
    let scored: Vec<&str> = report
        .scored
        .iter()
        .map(|r| r.run.file_name.as_str())
        .collect();
    d.set_item("scored", PyList::new_bound(py, scored))?;
    let failed = PyDict::new_bound(py);
    for f in &report.failed {
        failed.set_item(&f.run.file_name, f.errors.clone())?;
    }
    d.set_item("failed", failed)?;
    let rejected = PyDict::new_bound(py);
    for r in &report.rejected {
        rejected.set_item(&r.file_name, &r.reason)?;
    }
    d.set_item("rejected", rejected)?;
    d.set_item("ignored", report.ignored.clone())?;
    let not_evaluated = PyList::empty_bound(py);
    for n in &report.not_evaluated {
        let x = PyDict::new_bound(py);
        x.set_item("dataset", &n.dataset)?;
        x.set_item("lang", &n.lang)?;
        x.set_item("output", &n.output)?;
        x.set_item("what", &n.what)?;
        x.set_item("path", path(&n.path))?;
        x.set_item("reason", &n.reason)?;
        not_evaluated.append(x)?;
    }
    d.set_item("not_evaluated", not_evaluated)?;
    let rankings: Vec<&str> = report
        .rankings
        .iter()
        .map(|r| r.file_name.as_str())
        .collect();
    d.set_item("rankings", rankings)?;
    d.set_item("jobs", report.jobs)?;
    d.set_item("run_files", report.run_files)?;
    d.set_item("removed", report.removed.len())?;
    Ok(d)
}

/// Adds the file functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(fair, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(segmentation, m)?)?;
    m.add_function(wrap_pyfunction!(tagging, m)?)?;
    m.add_function(wrap_pyfunction!(muc, m)?)?;
    m.add_function(wrap_pyfunction!(family, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(leaderboard, m)?)?;
    Ok(())
}
