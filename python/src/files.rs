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

/// The family table of `name` as a dict (`fairscore evaluate --family NAME --json -`), with
/// the family's listing written where the settings ask for it (`errors=PATH` for fair,
/// `judgements=PATH` for muc).
fn family_json(
    py: Python<'_>,
    name: &str,
    s: &Settings,
    gold: &Path,
    pred: &Path,
) -> PyResult<PyObject> {
    let plan = lift(py, api::family_plan(name, s))?;
    let listing = plan.listing().map(|(n, p)| (n, p.to_path_buf()));
    if let Some((n, out)) = &listing {
        lift(
            py,
            fairscore::io::check_outputs(
                &[("gold", gold), ("pred", pred)],
                &[(*n, out.as_path())],
                &[],
            ),
        )?;
    }
    let (g, p) = (gold.to_path_buf(), pred.to_path_buf());
    let run = crate::interruptible(py, move || api::run_family_plan(&plan, &g, &p))?;
    let run = lift(py, run)?;
    warn_all(py, &run.results.warnings)?;
    if let (Some((_, out)), Some(text)) = (&listing, &run.listing) {
        lift(py, fairscore::io::write_atomic(out, text.as_bytes()))?;
    }
    loads(py, &fairscore::report::render_json(&run.results))
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

/// Fair evaluation (Ortmann 2022) as `fairscore fair --json -`: the fair family's tables
/// (`bootstrap=N` adds intervals); `errors=PATH` also writes the span listing there.
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
    family_json(py, "fair", &s, &target, &system)
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
    let text = crate::interruptible(py, move || fairscore::normalize_file(&src, &opts))?;
    let text = lift(py, text)?;
    if let Some(out) = &output {
        lift(py, fairscore::io::write_atomic(out, text.as_bytes()))?;
    }
    Ok(text)
}

/// Word segmentation (Shao et al. 2017) as `fairscore segmentation --json -`: the
/// segmentation family's tables (`bootstrap=N` adds intervals over sentences).
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
    family_json(py, "segmentation", &s, &gold, &pred)
}

/// Tagging beyond accuracy as `fairscore tagging --json -`: the tagging family's tables
/// (`bootstrap=N` adds intervals over sentences).
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
    family_json(py, "tagging", &s, &gold, &pred)
}

/// MUC-7 judgement of a run against the gold as `fairscore muc --json -`: the muc family's
/// table (`bootstrap=N` adds intervals); `judgements=PATH` also writes the per-token listing.
#[pyfunction]
#[pyo3(signature = (reference, pred, **options))]
fn muc(
    py: Python<'_>,
    reference: PathBuf,
    pred: PathBuf,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let s = settings(options)?;
    family_json(py, "muc", &s, &reference, &pred)
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
        let head = fairscore::family::signature_head(fam.as_ref());
        let (g, ra, rb) = (gold.clone(), a.clone(), b.clone());
        let r = crate::interruptible(py, move || {
            fairscore::family::compare(fam.as_ref(), &g, &ra, &rb, &rs, test)
        })?;
        let mut r = lift(py, r)?;
        let resampled = fairscore::family::Resampled {
            resampler: &rs,
            unit: r.unit,
            test: Some(test),
        };
        let mut sig = head;
        fairscore::family::resampling_fields(Some(resampled), &mut sig);
        lift(
            py,
            fairscore::family::input_fields(&gold, &[a.as_path(), b.as_path()], &mut sig),
        )?;
        r.signature = Some(sig);
        warn_all(py, &r.warnings)?;
        return loads(py, &fairscore::report::render_json(&r));
    }
    let (opts, copts) = lift(py, api::compare_options(&s))?;
    lift(py, s.finish("compare"))?;
    let sig = lift(
        py,
        api::hipe_signature(
            &s,
            &gold,
            &[a.as_path(), b.as_path()],
            Some(10_000),
            Some(copts.test),
        ),
    )?;
    let r = crate::interruptible(py, move || {
        fairscore::compare_paths(&gold, &a, &b, &opts, &copts)
    })?;
    let r = lift(py, r)?;
    warn_all(py, &r.warnings)?;
    let mut results = fairscore::report::compare_results(&r);
    results.signature = Some(sig);
    loads(py, &fairscore::report::render_json(&results))
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
    use fairscore::campaign::{self as c, Campaign, CampaignDirs};
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
    // `inspect=True`, as `leaderboard --inspect`: a page per run and NERC output.
    cfg.inspect |= lift(py, s.switch("inspect"))?;
    lift(py, s.finish("leaderboard"))?;
    let dirs = CampaignDirs {
        gold: gold_dir,
        runs: runs_dir,
        resources,
        outdir,
    };
    let name = match (&campaign, preset) {
        (Some(file), _) => file.clone(),
        (None, p) => PathBuf::from(p.unwrap_or("hipe-2022")),
    };
    // Scored on the family engine, as `fairscore leaderboard` scores it.
    let report = crate::interruptible(py, move || {
        let score = || c::score_official(&cfg, &name, &dirs, None);
        match threads {
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| fairscore::Error::usage(format!("cannot start {n} threads: {e}")))
                .and_then(|pool| pool.install(score)),
            None => score(),
        }
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
    let pages: Vec<&str> = report.inspect.links.values().map(String::as_str).collect();
    d.set_item("inspect", pages)?;
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
