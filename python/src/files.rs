//! Functions on files: `score`, `fair`, `check`, `normalize`, `segmentation`, `tagging` and
//! `leaderboard`, their keyword options named as the CLI's flags (`skip_check=True`,
//! `n_best=[1, 3]`, …) and turned into the library's options as the CLI turns its flags.

use crate::{lift, loads};
use fairscore::eval::options::{self as sopts, Regime};
use fairscore::{Edition, Error, ScoreOptions, Task};
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::path::PathBuf;

/// A comma-separated list given as a string or as a list of strings (or numbers).
fn list_arg(name: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if v.is_instance_of::<PyString>() {
        return v.extract::<String>();
    }
    if let Ok(n) = v.extract::<i64>() {
        return Ok(n.to_string());
    }
    match v.extract::<Vec<Bound<'_, PyAny>>>() {
        Ok(items) => {
            let parts: PyResult<Vec<String>> =
                items.iter().map(|x| Ok(x.str()?.to_string())).collect();
            Ok(parts?.join(","))
        }
        Err(_) => Err(to_usage(
            v.py(),
            format!(
                "{name}: expected a string or a list, found {}",
                v.get_type().name()?
            ),
        )),
    }
}

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

fn parse_glue(s: &str) -> fairscore::Result<Vec<(String, String)>> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('+')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| Error::usage(format!("glue: {p:?} is not a pair COL_A+COL_B")))
        })
        .collect()
}

/// The keyword options of `score`, as the CLI's flags.
struct ScoreArgs<'py> {
    task: String,
    edition: String,
    skip_check: bool,
    original_nel: bool,
    n_best: Option<Bound<'py, PyAny>>,
    noise_level: Option<Bound<'py, PyAny>>,
    time_period: Option<Bound<'py, PyAny>>,
    glue: Option<Bound<'py, PyAny>>,
    tagset: Option<PathBuf>,
    suffix: Option<String>,
    relaxed: Option<PathBuf>,
    regimes: Option<Bound<'py, PyAny>>,
    weights: Option<String>,
    format: String,
    column: Option<Bound<'py, PyAny>>,
    bootstrap: Option<usize>,
    seed: Option<u64>,
    confidence: Option<f64>,
}

fn score_options(py: Python<'_>, a: &ScoreArgs<'_>) -> PyResult<ScoreOptions> {
    let task = lift(py, Task::parse(&a.task))?;
    let edition = lift(py, Edition::parse(&a.edition))?;
    let mut opts = ScoreOptions::new(task, edition);
    opts.format = match lift(py, fairscore::formats::Format::parse(&a.format))? {
        Some(f @ (fairscore::formats::Format::Hipe | fairscore::formats::Format::Conll)) => f,
        _ => {
            return Err(to_usage(
                py,
                format!("format: {:?} cannot be scored; use hipe or conll", a.format),
            ))
        }
    };
    let conll = opts.format == fairscore::formats::Format::Conll;
    if conll && task == Task::Nel {
        return Err(to_usage(py, "format=\"conll\": the nel task needs HIPE TSV input (link columns); use nerc_coarse or nerc_fine".into()));
    }
    if let Some(c) = &a.column {
        if !conll {
            return Err(to_usage(py, "column goes with format=\"conll\"; for HIPE input the edition and task decide the columns".into()));
        }
        opts.column = Some(list_arg("column", c)?);
    }
    if let Some(n) = &a.n_best {
        let s = list_arg("n_best", n)?;
        opts.n_best = s
            .split(',')
            .map(|n| {
                n.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| {
                        to_usage(py, format!("n_best: {n:?} is not a positive whole number"))
                    })
            })
            .collect::<PyResult<_>>()?;
    }
    if let Some(n) = &a.noise_level {
        opts.noise_levels = lift(py, sopts::parse_noise_levels(&list_arg("noise_level", n)?))?;
    }
    if let Some(t) = &a.time_period {
        opts.time_periods = lift(py, sopts::parse_time_periods(&list_arg("time_period", t)?))?;
    }
    if let Some(g) = &a.glue {
        opts.glue = lift(py, parse_glue(&list_arg("glue", g)?))?;
    }
    if let Some(ts) = &a.tagset {
        opts.tagset = Some(lift(py, sopts::read_tagset(ts))?);
    }
    if let Some(s) = &a.suffix {
        lift(py, fairscore::hipe::check_name_part("suffix", s))?;
    }
    opts.suffix = a.suffix.clone();
    let regimes = match &a.regimes {
        Some(r) => list_arg("regimes", r)?,
        None => "fuzzy,strict".to_string(),
    };
    opts.regimes = lift(py, Regime::parse_list(&regimes))?;
    if let Some(w) = &a.weights {
        opts.weights = Some(lift(py, fairscore::eval::weights::parse_weights(w))?);
        if !opts.regimes.contains(&Regime::Weighted) {
            opts.regimes.push(Regime::Weighted);
        }
    } else if opts.regimes.contains(&Regime::Weighted) {
        return Err(to_usage(
            py,
            "regimes weighted needs weights=FORMULA".into(),
        ));
    }
    if let Some(map) = &a.relaxed {
        if task != Task::Nel {
            return Err(to_usage(py, "relaxed applies to task=\"nel\" only".into()));
        }
        opts.relaxed_map = Some(lift(py, fairscore::normalize::read_map(map))?);
        if opts.suffix.is_none() {
            opts.suffix = Some("relaxed".to_string());
        }
    }
    opts.skip_check = a.skip_check;
    opts.original_nel = a.original_nel;
    opts.bootstrap = match a.bootstrap {
        Some(n) => Some(lift(
            py,
            fairscore::eval::bootstrap::resampler("bootstrap", n, a.seed, a.confidence),
        )?),
        None if a.seed.is_some() => return Err(to_usage(py, "seed goes with bootstrap=N".into())),
        None if a.confidence.is_some() => {
            return Err(to_usage(py, "confidence goes with bootstrap=N".into()))
        }
        None => None,
    };
    Ok(opts)
}

/// Scores one run as `fairscore score` and returns the JSON it writes, as Python objects.
#[pyfunction]
#[pyo3(signature = (r#ref, pred, task, edition = "hipe-2020", *, skip_check = false,
    original_nel = false, n_best = None, noise_level = None, time_period = None, glue = None,
    tagset = None, suffix = None, relaxed = None, regimes = None, weights = None,
    format = "hipe", column = None, bootstrap = None, seed = None, confidence = None))]
#[allow(clippy::too_many_arguments)]
fn score<'py>(
    py: Python<'py>,
    r#ref: PathBuf,
    pred: PathBuf,
    task: String,
    edition: &str,
    skip_check: bool,
    original_nel: bool,
    n_best: Option<Bound<'py, PyAny>>,
    noise_level: Option<Bound<'py, PyAny>>,
    time_period: Option<Bound<'py, PyAny>>,
    glue: Option<Bound<'py, PyAny>>,
    tagset: Option<PathBuf>,
    suffix: Option<String>,
    relaxed: Option<PathBuf>,
    regimes: Option<Bound<'py, PyAny>>,
    weights: Option<String>,
    format: &str,
    column: Option<Bound<'py, PyAny>>,
    bootstrap: Option<usize>,
    seed: Option<u64>,
    confidence: Option<f64>,
) -> PyResult<PyObject> {
    let args = ScoreArgs {
        task,
        edition: edition.to_string(),
        skip_check,
        original_nel,
        n_best,
        noise_level,
        time_period,
        glue,
        tagset,
        suffix,
        relaxed,
        regimes,
        weights,
        format: format.to_string(),
        column,
        bootstrap,
        seed,
        confidence,
    };
    let opts = score_options(py, &args)?;
    let out = py.allow_threads(|| fairscore::score_paths(&r#ref, &pred, &opts));
    let out = lift(py, out)?;
    warn_all(py, &out.warnings)?;
    loads(py, &out.json)
}

fn words(s: &str) -> Vec<String> {
    s.split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

/// Fair evaluation (Ortmann 2022) as `fairscore fair --json`.
#[pyfunction]
#[pyo3(signature = (target, system, format = "auto", *, column = None, focus = "target",
    weights = None, labels = None, exclude = None, ignore_punct = false,
    continuation = "conlleval"))]
#[allow(clippy::too_many_arguments)]
fn fair<'py>(
    py: Python<'py>,
    target: PathBuf,
    system: PathBuf,
    format: &str,
    column: Option<Bound<'py, PyAny>>,
    focus: &str,
    weights: Option<String>,
    labels: Option<Bound<'py, PyAny>>,
    exclude: Option<Bound<'py, PyAny>>,
    ignore_punct: bool,
    continuation: &str,
) -> PyResult<PyObject> {
    use fairscore::eval::fair::{self as f, Continuation, FairOptions, Format, ReadOptions};
    use fairscore::matching::fair::Focus;
    let bad =
        |what: &str, v: &str, ok: &str| to_usage(py, format!("{what}: {v:?} is not one of {ok}"));
    let format = match format {
        "auto" => None,
        "spans" => Some(Format::Spans),
        "conll" => Some(Format::Conll),
        "hipe" => Some(Format::Hipe),
        other => return Err(bad("format", other, "auto, spans, conll, hipe")),
    };
    let columns = match &column {
        Some(c) => words(&list_arg("column", c)?),
        None => vec!["NE-COARSE-LIT".to_string()],
    };
    if columns.is_empty() {
        return Err(to_usage(
            py,
            "column: expected at least one column name".into(),
        ));
    }
    let labels = labels
        .as_ref()
        .map(|l| list_arg("labels", l).map(|s| words(&s)))
        .transpose()?;
    if labels.as_ref().is_some_and(Vec::is_empty) {
        return Err(to_usage(py, "labels: expected at least one label".into()));
    }
    let opts = FairOptions {
        read: ReadOptions {
            format,
            columns,
            ignore_punct,
            continuation: match continuation {
                "conlleval" => Continuation::Conlleval,
                "reference" => Continuation::Reference,
                other => return Err(bad("continuation", other, "conlleval, reference")),
            },
        },
        focus: match focus {
            "target" => Focus::Target,
            "system" => Focus::System,
            other => return Err(bad("focus", other, "target, system")),
        },
        weights: weights
            .as_deref()
            .map(f::parse_weights)
            .transpose()
            .map_err(|e| crate::to_py(py, e))?,
        labels,
        exclude: match &exclude {
            Some(e) => words(&list_arg("exclude", e)?),
            None => Vec::new(),
        },
    };
    let report = py.allow_threads(|| f::evaluate_files(&target, &system, &opts));
    let report = lift(py, report)?;
    let json = fairscore::report::fair::to_json(&report).to_string();
    loads(py, &json)
}

/// The participant self-check: the findings `fairscore check --json` lists.
#[pyfunction]
#[pyo3(signature = (r#ref, pred, task = None, edition = "hipe-2020", *, tagset = None,
    skip_check = false))]
fn check(
    py: Python<'_>,
    r#ref: PathBuf,
    pred: PathBuf,
    task: Option<&str>,
    edition: &str,
    tagset: Option<PathBuf>,
    skip_check: bool,
) -> PyResult<PyObject> {
    use fairscore::check::{check as run_check, CheckOptions};
    let edition = lift(py, Edition::parse(edition))?;
    let mut opts = CheckOptions::new(edition);
    opts.task = lift(py, task.map(Task::parse).transpose())?;
    opts.skip_name_check = skip_check;
    if let Some(ts) = &tagset {
        opts.tagset = Some(lift(py, sopts::read_tagset(ts))?);
    }
    let report = py.allow_threads(|| run_check(&r#ref, &pred, &opts));
    let report = lift(py, report)?;
    let json = report.to_json();
    loads(py, &json["findings"].to_string())
}

/// Entity-link normalization as `fairscore normalize`; returns the normalized text and, when
/// `output` is given, also writes it there (atomically; never over the map).
#[pyfunction]
#[pyo3(signature = (input, output = None, *, norm_time = false, norm_histo = false, map = None,
    union_interleave = false, edition = "hipe-2020"))]
#[allow(clippy::too_many_arguments)]
fn normalize(
    py: Python<'_>,
    input: PathBuf,
    output: Option<PathBuf>,
    norm_time: bool,
    norm_histo: bool,
    map: Option<PathBuf>,
    union_interleave: bool,
    edition: &str,
) -> PyResult<String> {
    use fairscore::normalize::{normalize_file, read_map, NormalizeOptions};
    let edition = lift(py, Edition::parse(edition))?;
    if let Some(out) = &output {
        let mut inputs = vec![("input", input.as_path())];
        inputs.extend(map.as_deref().map(|p| ("map", p)));
        lift(
            py,
            fairscore::io::check_outputs(&inputs, &[("output", out.as_path())], &["input"]),
        )?;
    }
    let mut opts = NormalizeOptions::for_edition(edition);
    opts.norm_time = norm_time;
    opts.union_interleave = union_interleave;
    match (&map, norm_histo) {
        (Some(m), true) => opts.map = Some(lift(py, read_map(m))?),
        (None, true) => return Err(to_usage(py, "norm_histo needs map=MAP".into())),
        (Some(_), false) => {
            return Err(to_usage(
                py,
                "map is used with norm_histo; add norm_histo=True".into(),
            ))
        }
        (None, false) => {}
    }
    let text = py.allow_threads(|| normalize_file(&input, &opts));
    let text = lift(py, text)?;
    if let Some(out) = &output {
        lift(py, fairscore::io::write_atomic(out, text.as_bytes()))?;
    }
    Ok(text)
}

pub(crate) fn check_beta(py: Python<'_>, beta: Option<f64>) -> PyResult<Option<f64>> {
    match beta {
        Some(b) if !(b.is_finite() && b > 0.0 && b <= 1e6) => Err(to_usage(
            py,
            format!("beta {b}: expected a number greater than 0 (at most 1e6)"),
        )),
        _ => Ok(beta),
    }
}

/// Word segmentation (Shao et al. 2017) as `fairscore segmentation --json`.
#[pyfunction]
#[pyo3(signature = (gold, pred, format = "auto", *, beta = None))]
fn segmentation(
    py: Python<'_>,
    gold: PathBuf,
    pred: PathBuf,
    format: &str,
    beta: Option<f64>,
) -> PyResult<PyObject> {
    use fairscore::eval::segmentation::{evaluate_files, SegmentationFormat, SegmentationOptions};
    let beta = check_beta(py, beta)?;
    let format = match format {
        "auto" => SegmentationFormat::from_path(&gold),
        "text" => SegmentationFormat::Text,
        "conllu" => SegmentationFormat::Conllu,
        other => {
            return Err(to_usage(
                py,
                format!("format: {other:?} is not one of auto, text, conllu"),
            ))
        }
    };
    let opts = SegmentationOptions { format, beta };
    let r = py.allow_threads(|| evaluate_files(&gold, &pred, &opts));
    let r = lift(py, r)?;
    loads(py, &fairscore::report::segmentation::json_text(&r))
}

fn tagging_column(
    py: Python<'_>,
    spec: Option<&str>,
    format: fairscore::eval::tagging::TaggingFormat,
) -> PyResult<usize> {
    use fairscore::eval::tagging::TaggingFormat;
    use fairscore::formats::conllu;
    match (format, spec) {
        (TaggingFormat::Conllu, None) => Ok(conllu::XPOS),
        (TaggingFormat::Tsv, None) => Ok(1),
        (TaggingFormat::Conllu, Some(s)) => conllu::column_index(s).ok_or_else(|| {
            to_usage(py, format!(
                "column {s:?}: expected a CoNLL-U column name ({}) or a number 1-10",
                conllu::COLUMNS.join(", ")
            ))
        }),
        (TaggingFormat::Tsv, Some(s)) => match s.parse::<usize>() {
            Ok(n) if n >= 2 => Ok(n - 1),
            _ => Err(to_usage(py, format!(
                "column {s:?}: for TSV expected the number of the tags column (2 or more; 1 is the token)"
            ))),
        },
    }
}

/// Tagging beyond accuracy as `fairscore tagging --json`.
#[pyfunction]
#[pyo3(signature = (gold, pred, format = "auto", *, column = None, tagset = None, beta = None))]
fn tagging<'py>(
    py: Python<'py>,
    gold: PathBuf,
    pred: PathBuf,
    format: &str,
    column: Option<Bound<'py, PyAny>>,
    tagset: Option<String>,
    beta: Option<f64>,
) -> PyResult<PyObject> {
    use fairscore::eval::tagging::{evaluate_files, TaggingFormat, TaggingOptions};
    use fairscore::matching::tagset::Tagset;
    let beta = check_beta(py, beta)?;
    let format = match format {
        "auto" => TaggingFormat::from_path(&gold),
        "conllu" => TaggingFormat::Conllu,
        "tsv" => TaggingFormat::Tsv,
        other => {
            return Err(to_usage(
                py,
                format!("format: {other:?} is not one of auto, conllu, tsv"),
            ))
        }
    };
    let column = match &column {
        Some(c) => Some(list_arg("column", c)?),
        None => None,
    };
    let column = tagging_column(py, column.as_deref(), format)?;
    let tagset = lift(py, tagset.as_deref().map(Tagset::load).transpose())?;
    let opts = TaggingOptions {
        format,
        column,
        tagset,
        beta,
    };
    let r = py.allow_threads(|| evaluate_files(&gold, &pred, &opts));
    let r = lift(py, r)?;
    loads(py, &fairscore::report::tagging::json_text(&r))
}

/// Scores a whole campaign as `fairscore leaderboard` (writing the same files under `outdir`)
/// and returns a summary of what was scored, failed, rejected and ranked.
#[pyfunction]
#[pyo3(signature = (gold_dir, runs_dir, resources, outdir, *, preset = None, campaign = None,
    threads = None))]
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
) -> PyResult<Bound<'py, PyDict>> {
    use fairscore::campaign::{self as c, Campaign, CampaignDirs, RunOptions};
    let cfg = match (&campaign, preset) {
        (Some(_), Some(_)) => return Err(to_usage(py, "give campaign or preset, not both".into())),
        (Some(file), None) => lift(py, Campaign::from_file(file))?,
        (None, p) => lift(py, Campaign::preset(p.unwrap_or("hipe-2022")))?,
    };
    if threads == Some(0) {
        return Err(to_usage(py, "threads: expected 1 or more".into()));
    }
    let dirs = CampaignDirs {
        gold: gold_dir,
        runs: runs_dir,
        resources,
        outdir,
    };
    let report = py.allow_threads(|| {
        let scorer = c::scorer::JobScorer::new();
        let opts = RunOptions {
            threads,
            progress: None,
            replay_dir: None,
        };
        c::run_campaign_with(&cfg, &dirs, &|job: &c::ScoreJob| scorer.score(job), &opts)
    });
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
    let not_evaluated = PyList::empty_bound(py);
    for n in &report.not_evaluated {
        let x = PyDict::new_bound(py);
        x.set_item("dataset", &n.dataset)?;
        x.set_item("lang", &n.lang)?;
        x.set_item("output", &n.output)?;
        x.set_item("what", &n.what)?;
        x.set_item("path", n.path.to_string_lossy().as_ref())?;
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
    m.add_function(wrap_pyfunction!(leaderboard, m)?)?;
    Ok(())
}
