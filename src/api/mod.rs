//! The front ends' entry: every command's options built from named text values
//! ([`Settings`]), parsed here once for the CLI, Python and campaign files alike. Messages
//! name options as keys: at the start (`n_best: …`) or in backquotes elsewhere (`` `seed` ``);
//! the CLI words them as flags (`--n_best`), Python as keyword arguments.
//!
//! - [`score_options`]: `score` (the official HIPE scorer's options and fairscore's own);
//! - [`compare_options`]: `compare` of two HIPE or CoNLL runs;
//! - [`check_options`]: the participant self-check;
//! - [`family_options`] and [`resampling`]: any family of [`crate::family`].

mod commands;
mod settings;

pub use commands::{
    convert_options, family_plan, family_signature, hipe_signature, inspect, normalize_options,
    run_family, run_family_plan, run_mentions_in_memory, FamilyPlan, FamilyRun,
};

pub use crate::convert::{convert, write as write_converted, ConvertOptions, Converted};
pub use crate::family::options::parse_beta;
pub use settings::{key, Setting, Settings};

use crate::check::CheckOptions;
use crate::error::{snippet, Error, Result};
use crate::eval::bootstrap::resampler;
use crate::eval::compare::{CompareOptions, CompareRegime};
use crate::eval::options::{
    parse_glue, parse_n_best, parse_noise_levels, parse_time_periods, read_tagset, Regime,
};
use crate::family::{Options, OPTION_NAMES};
use crate::formats::Format;
use crate::hipe::{check_name_part, Edition, Task};
use crate::metrics::resample::PairedTest;
use crate::metrics::resample::Resampler;
use crate::ScoreOptions;

/// The tasks of `task`: one, or several comma-separated, each once.
pub fn tasks(arg: &str) -> Result<Vec<Task>> {
    let mut out: Vec<Task> = Vec::new();
    for part in arg.split(',') {
        let task = Task::parse(part.trim())?;
        if out.contains(&task) {
            return Err(Error::usage(format!(
                "task {}: {} is given twice",
                snippet(arg),
                task.as_str()
            )));
        }
        out.push(task);
    }
    Ok(out)
}

fn edition(s: &Settings) -> Result<Edition> {
    Edition::parse(&s.get("hipe_edition").unwrap_or_else(|| "hipe-2020".into()))
}

/// `format` (hipe or conll; default hipe) and `column` (conll only) of a scoring of `task`.
fn scoring_format(s: &Settings, opts: &mut ScoreOptions) -> Result<()> {
    let format = s.get("format").unwrap_or_else(|| "hipe".into());
    opts.format = match Format::parse(&format)? {
        Some(f @ (Format::Hipe | Format::Conll)) => f,
        _ => {
            return Err(Error::usage(format!(
                "format: {} cannot be scored; use hipe or conll",
                snippet(&format)
            )))
        }
    };
    if opts.format == Format::Conll && opts.task == Task::Nel {
        return Err(Error::usage(
            "format conll: the nel task needs HIPE TSV input (link columns); use nerc_coarse or nerc_fine",
        ));
    }
    if let Some(c) = s.get("column") {
        if opts.format == Format::Hipe {
            return Err(Error::usage(
                "column goes with format conll; for HIPE input the edition and task decide the columns",
            ));
        }
        opts.column = Some(c);
    }
    Ok(())
}

/// The resampling of `samples_key` (`bootstrap`), `seed` and `confidence`; `None` when no
/// number of resamples is given (then a seed or confidence alone is an error), or
/// `default_samples` resamples when there is one.
pub fn resampling(
    s: &Settings,
    samples_key: &str,
    default_samples: Option<usize>,
) -> Result<Option<Resampler>> {
    let n = s
        .number::<usize>(samples_key, "a whole number of resamples")?
        .or(default_samples);
    let seed = s.number::<u64>("seed", "a whole number")?;
    let confidence = s.number::<f64>("confidence", "a number between 0 and 1")?;
    match n {
        Some(n) => Ok(Some(resampler(samples_key, n, seed, confidence)?)),
        None if seed.is_some() => Err(Error::usage(format!("seed goes with `{samples_key}` N"))),
        None if confidence.is_some() => Err(Error::usage(format!(
            "confidence goes with `{samples_key}` N"
        ))),
        None => Ok(None),
    }
}

/// The options of one scoring of `task` by `score`.
pub fn score_options(s: &Settings, task: Task) -> Result<ScoreOptions> {
    let mut opts = ScoreOptions::new(task, edition(s)?);
    // The task is given by the caller (`tasks` splits a list of them).
    s.take("task");
    scoring_format(s, &mut opts)?;
    if let Some(n) = s.get("n_best") {
        opts.n_best = parse_n_best(&n)?;
    }
    if let Some(n) = s.get("noise_level") {
        opts.noise_levels = parse_noise_levels(&n)?;
    }
    if let Some(t) = s.get("time_period") {
        opts.time_periods = parse_time_periods(&t)?;
    }
    if let Some(g) = s.get("glue") {
        opts.glue = parse_glue(&g)?;
    }
    if let Some(ts) = s.get("tagset") {
        opts.tagset = Some(read_tagset(std::path::Path::new(&ts))?);
    }
    if let Some(x) = s.get("suffix") {
        check_name_part("suffix", &x)?;
        opts.suffix = Some(x);
    }
    opts.regimes = Regime::parse_list(&s.get("regimes").unwrap_or_else(|| "fuzzy,strict".into()))?;
    if let Some(w) = s.get("weights") {
        opts.weights = Some(crate::eval::weights::parse_weights(&w)?);
        if !opts.regimes.contains(&Regime::Weighted) {
            opts.regimes.push(Regime::Weighted);
        }
    } else if opts.regimes.contains(&Regime::Weighted) {
        return Err(Error::usage(
            "weights: the weighted regime needs a weight formula (e.g. \"LE = 0.5 FP + 0.5 FN\")",
        ));
    }
    opts.errors = s.has("errors");
    s.take("errors");
    if let Some(map) = s.get("relaxed") {
        if task != Task::Nel {
            return Err(Error::usage("relaxed applies to task nel only"));
        }
        opts.relaxed_map = Some(crate::normalize::read_map(std::path::Path::new(&map))?);
        if opts.suffix.is_none() {
            opts.suffix = Some("relaxed".to_string());
        }
    }
    run_changes(s, &mut opts)?;
    opts.skip_check = s.switch("skip_check")?;
    opts.original_nel = s.switch("original_nel")?;
    opts.bootstrap = resampling(s, "bootstrap", None)?;
    opts.beta = s
        .get("beta")
        .map(|b| crate::family::options::parse_beta(&b))
        .transpose()?;
    Ok(opts)
}

/// The options of `compare` of two runs scored as `score` scores them.
pub fn compare_options(s: &Settings) -> Result<(ScoreOptions, CompareOptions)> {
    let task = Task::parse(&s.get("task").unwrap_or_else(|| "nerc_coarse".into()))?;
    let mut opts = ScoreOptions::new(task, edition(s)?);
    scoring_format(s, &mut opts)?;
    if let Some(ts) = s.get("tagset") {
        opts.tagset = Some(read_tagset(std::path::Path::new(&ts))?);
    }
    opts.skip_check = true;
    opts.original_nel = s.switch("original_nel")?;
    let regimes = CompareRegime::parse_list(
        &s.get("regimes")
            .unwrap_or_else(|| "strict,ent_type,partial,exact".into()),
    )?;
    if let Some(w) = s.get("weights") {
        opts.weights = Some(crate::eval::weights::parse_weights(&w)?);
    } else if regimes.contains(&CompareRegime::Weighted) {
        return Err(Error::usage(
            "weights: the weighted regime needs a weight formula (e.g. \"LE = 0.5 FP + 0.5 FN\")",
        ));
    }
    let test = paired_test(s)?;
    let resampler = resampling(s, "bootstrap", Some(10_000))?
        .unwrap_or_else(|| Resampler::new(10_000, crate::eval::bootstrap::DEFAULT_SEED));
    Ok((
        opts,
        CompareOptions {
            test,
            resampler,
            regimes,
        },
    ))
}

/// The paired test of a comparison: `test` permutation (default, also `randomization`) or
/// bootstrap.
pub fn paired_test(s: &Settings) -> Result<PairedTest> {
    PairedTest::parse(&s.get("test").unwrap_or_else(|| "permutation".into()))
}

/// What `check` checks: a HIPE run (the default, `format` hipe or auto) or a column file
/// (`format` conll, conllu, tsv or text).
#[derive(Debug, Clone)]
pub enum CheckRequest {
    /// A HIPE TSV run.
    Hipe(CheckOptions),
    /// A run in a column format.
    Columns(crate::formats::InputFormat, crate::check::ColumnCheck),
    /// A standoff run (brat, doccano, Label Studio, Prodigy), or a token run against a
    /// standoff gold: the format's name, how the files are read and the label list.
    Standoff(
        String,
        crate::eval::standoff::StandoffRead,
        Option<std::path::PathBuf>,
    ),
}

/// The check of `gold` and `pred` that `s` asks for: with the format left at `auto` (or not
/// given), files holding standoff annotation are checked as standoff (`column`: a token
/// side's scored column), a CoNLL run against a CoNLL gold as CoNLL, anything else as a HIPE
/// run. `labels` (a label list, one label a line) goes with every format; `tagset` is that
/// list too but for CoNLL-U and TSV files (a tag set).
pub fn check_plan(
    s: &Settings,
    gold: &std::path::Path,
    pred: &std::path::Path,
) -> Result<CheckRequest> {
    let auto = matches!(
        s.get("format").as_deref().map(str::trim),
        None | Some("auto")
    );
    if auto && crate::eval::standoff::applies(gold, pred, None) {
        // The edition has a default in Python; the others are given on purpose.
        s.take("hipe_edition");
        for k in ["task", "skip_check"] {
            if s.has(k) {
                return Err(Error::usage(format!(
                    "{k}: goes with HIPE runs, not standoff files"
                )));
            }
        }
        s.take("format");
        return Ok(CheckRequest::Standoff(
            "auto".into(),
            crate::eval::standoff::StandoffRead {
                format: None,
                column: s.get("column"),
                docs: None,
            },
            label_list(s)?,
        ));
    }
    if auto && is_conll(gold) && is_conll(pred) {
        s.take("format");
        return check_format(s, "conll", true);
    }
    check_request(s)
}

/// Whether `path` is a regular file whose first line is CoNLL (not HIPE TSV, not a span file).
fn is_conll(path: &std::path::Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    crate::io::read_text(path)
        .ok()
        .and_then(|t| crate::formats::detect(path, &t).ok())
        == Some(Format::Conll)
}

/// The label list of `check`: `labels`, or `tagset` for the formats whose tagset is a label
/// list (given both: a usage error).
fn label_list(s: &Settings) -> Result<Option<std::path::PathBuf>> {
    match (s.get("labels"), s.get("tagset")) {
        (Some(_), Some(_)) => Err(Error::usage(
            "labels: give the label list once, with --labels (or --tagset), not both",
        )),
        (l, t) => Ok(l.or(t).map(std::path::PathBuf::from)),
    }
}

/// Runs a check ([`check_plan`]).
pub fn run_check(
    request: CheckRequest,
    gold: &std::path::Path,
    pred: &std::path::Path,
) -> Result<crate::check::CheckReport> {
    match request {
        CheckRequest::Hipe(opts) => crate::check::check(gold, pred, &opts),
        CheckRequest::Columns(format, opts) => {
            crate::check::check_columns(gold, pred, format, &opts)
        }
        CheckRequest::Standoff(name, read, labels) => {
            crate::check::check_standoff(gold, pred, &read, &name, labels.as_deref())
        }
    }
}

/// The options of `check`.
pub fn check_request(s: &Settings) -> Result<CheckRequest> {
    match s.get("format").as_deref().map(str::trim) {
        None | Some("hipe") | Some("auto") => Ok(CheckRequest::Hipe(check_options(s)?)),
        Some(f) => check_format(s, f, false),
    }
}

/// The options of `check` of a run in format `f` (not HIPE); `detected`: the format was not
/// given but detected (the edition, which has a default in Python, is then not refused).
fn check_format(s: &Settings, f: &str, detected: bool) -> Result<CheckRequest> {
    use crate::formats::InputFormat;
    let hipe_only: &[&str] = if detected {
        s.take("hipe_edition");
        &["task", "skip_check"]
    } else {
        &["task", "hipe_edition", "skip_check"]
    };
    {
        {
            let format: InputFormat = f.parse()?;
            if let Some(standoff) = format.standoff() {
                for &k in hipe_only {
                    if s.has(k) {
                        return Err(Error::usage(format!(
                            "{k}: goes with HIPE runs, not format {f}"
                        )));
                    }
                }
                return Ok(CheckRequest::Standoff(
                    format.name().to_string(),
                    crate::eval::standoff::StandoffRead {
                        format: Some(standoff),
                        column: s.get("column"),
                        docs: None,
                    },
                    label_list(s)?,
                ));
            }
            if format == InputFormat::Spans {
                return Err(Error::usage(
                    "format spans: check reads hipe, conll, conllu, tsv or text",
                ));
            }
            for &k in hipe_only {
                if s.has(k) {
                    return Err(Error::usage(format!(
                        "{k}: goes with HIPE runs, not format {f}"
                    )));
                }
            }
            // CoNLL: the tag set is the label list; CoNLL-U and TSV: a tag set (its own
            // layout), the label list apart.
            let (tagset, labels) = match format {
                InputFormat::Conllu | InputFormat::Tsv => (s.get("tagset"), s.get("labels")),
                InputFormat::Text => {
                    if let Some(k) = ["labels", "tagset"].into_iter().find(|&k| s.has(k)) {
                        return Err(Error::usage(format!(
                            "{k}: format text has no labels to check"
                        )));
                    }
                    (None, None)
                }
                _ => (None, label_list(s)?.map(|p| p.display().to_string())),
            };
            Ok(CheckRequest::Columns(
                format,
                crate::check::ColumnCheck {
                    column: s.get("column"),
                    tagset,
                    labels: labels.map(std::path::PathBuf::from),
                },
            ))
        }
    }
}

/// The options of `check` of a HIPE run: `labels` is `tagset` (a label list).
pub fn check_options(s: &Settings) -> Result<CheckOptions> {
    let mut opts = CheckOptions::new(edition(s)?);
    opts.task = s.get("task").as_deref().map(Task::parse).transpose()?;
    opts.skip_name_check = s.switch("skip_check")?;
    if let Some(ts) = label_list(s)? {
        opts.tagset = Some(read_tagset(&ts)?);
    }
    s.take("format");
    Ok(opts)
}

/// `repair`, `map_types`, `keep_types`, `remove_types` of `score`: the changes of a CoNLL run
/// as it is read, parsed as the families parse them (one implementation: `convert`).
fn run_changes(s: &Settings, opts: &mut ScoreOptions) -> Result<()> {
    let mut fo = Options::default();
    for name in crate::family::options::RUN_CHANGES {
        if let Some(v) = s.get(&name.replace('-', "_")) {
            fo.set(name, &v)?;
        }
    }
    fo.column = opts.column.clone();
    let Some(changes) = fo.run_changes() else {
        return Ok(());
    };
    if opts.format != Format::Conll {
        fo.refuse_standoff_changes().map_err(|_| {
            Error::usage(format!(
                "repair, map_types, keep_types and remove_types change the tags of a CoNLL run                  (--format conll), not a {} run",
                opts.format.as_str()
            ))
        })?;
    }
    opts.run_text = Some(changes as std::sync::Arc<dyn crate::corpus::TextRewrite>);
    Ok(())
}

/// The family options among `s`: every common option ([`OPTION_NAMES`]) and every option a
/// registered family declares of its own that is given.
pub fn family_options(s: &Settings) -> Result<Options> {
    let mut o = Options::default();
    let own = crate::family::own_option_names();
    for name in OPTION_NAMES.into_iter().chain(own) {
        if let Some(v) = s.get(name) {
            o.set(name, &v)?;
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_settings_give_the_official_defaults_and_refuse_repeats() {
        let s = Settings::new();
        let o = score_options(&s, Task::NercCoarse).unwrap();
        assert_eq!(o.n_best, vec![1]);
        assert_eq!(o.regimes, vec![Regime::Fuzzy, Regime::Strict]);
        let mut s = Settings::new();
        s.set("n_best", Setting::List(vec!["1".into(), "1".into()]));
        let e = score_options(&s, Task::Nel).unwrap_err().to_string();
        assert!(e.contains("n_best"), "{e}");
        let mut s = Settings::new();
        s.text("seed", Some(3));
        assert!(score_options(&s, Task::Nel).is_err());
        assert!(tasks("nel,nel").is_err());
    }
}
