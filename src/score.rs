//! One scoring from files to outputs: read, align, evaluate, then the official TSV and JSON.
//! This is the `score` command's library entry; the evaluation itself is in
//! [`crate::eval::score`], the layouts in [`crate::report::official`].

use crate::corpus::Corpus;
use crate::error::Result;
use crate::eval::compare::{compare, CompareOptions, CompareResult};
use crate::eval::options::ScoreOptions;
use crate::eval::read::read_side;
pub use crate::eval::read::task_columns;
use crate::eval::score::{evaluate, ColumnResult, ScoreResult};
use crate::formats;
use crate::hipe::{check_file_name, output_name};
use crate::report::{self, official};
use std::path::Path;

/// The outputs of one scoring.
#[derive(Debug, Clone)]
pub struct ScoreOutput {
    /// The System cell.
    pub system: String,
    /// File name of the TSV output (see [`crate::hipe::output_name`]).
    pub tsv_name: String,
    /// File name of the JSON output (see [`crate::hipe::output_name`]).
    pub json_name: String,
    /// The TSV text (CRLF line ends).
    pub tsv: String,
    /// The JSON text (Python layout).
    pub json: String,
    /// Results per n_best cutoff (a single entry `1` for NERC), per column, period, noise.
    pub results: Vec<(usize, Vec<ColumnResult>)>,
    /// What the official scorer would have silently patched or ignored.
    pub warnings: Vec<String>,
    /// The per-span error listing (TSV text), when asked for.
    pub errors: Option<String>,
}

/// Reads, aligns and scores a run. `pred_path` is the `--pred` argument as given: it names
/// the outputs and, with `--skip-check` or non-HIPE input, the System. With
/// [`ScoreOptions::relaxed_map`] both files are normalized and read as HIPE TSV.
///
/// ```
/// # fn main() -> fairscore::Result<()> {
/// # let dir = std::env::temp_dir().join(format!("fairscore-doc-{}-{}", "score", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// # let head = "TOKEN\tNE-COARSE-LIT\n# hipe2022:document_id = d1\n";
/// # let gold = dir.join("gold.tsv");
/// # std::fs::write(&gold, format!("{head}Paris\tB-loc\nis\tO\nAnna\tB-pers\n")).unwrap();
/// # let run = dir.join("team_bundle1_hipe2020_en_1.tsv");
/// # std::fs::write(&run, format!("{head}Paris\tB-loc\nis\tO\nAnna\tB-loc\n")).unwrap();
/// use fairscore::{score_paths, Edition, ScoreOptions, Task};
///
/// let opts = ScoreOptions::new(Task::NercCoarse, Edition::Hipe2022);
/// let out = score_paths(&gold, &run, &opts)?;
/// // The official TSV and JSON, byte for byte those of the HIPE scorer v2.0.
/// assert!(out.tsv.starts_with("System\tEvaluation\tLabel\tP\tR\tF1"));
/// assert!(out.json.contains("\"NE-COARSE-LIT\""));
/// # Ok(())
/// # }
/// ```
pub fn score_paths(gold_path: &Path, pred_path: &Path, opts: &ScoreOptions) -> Result<ScoreOutput> {
    opts.validate()?;
    let pred_arg = pred_path.to_string_lossy().into_owned();
    let system = system_name(&pred_arg, opts)?;
    let gold = read_side(gold_path, opts, &[opts.task], false)?;
    let pred = read_side(pred_path, opts, &[opts.task], true)?;
    score_files(&gold, &pred, &pred_arg, &system, opts)
}

/// Scores a run for several tasks, reading each file once (the columns of all of them):
/// the outputs, in the order of `tasks`, are those of [`score_paths`] with
/// [`ScoreOptions::task`] set to each task in turn.
pub fn score_paths_tasks(
    gold_path: &Path,
    pred_path: &Path,
    opts: &ScoreOptions,
    tasks: &[crate::hipe::Task],
) -> Result<Vec<ScoreOutput>> {
    opts.validate()?;
    if let Some(t) = crate::eval::options::first_repeat(tasks.iter().copied()) {
        return Err(crate::Error::usage(format!(
            "task {} is given twice; give each task once",
            t.as_str()
        )));
    }
    let pred_arg = pred_path.to_string_lossy().into_owned();
    let system = system_name(&pred_arg, opts)?;
    let gold = read_side(gold_path, opts, tasks, false)?;
    let pred = read_side(pred_path, opts, tasks, true)?;
    tasks
        .iter()
        .map(|&task| {
            let mut o = opts.clone();
            o.task = task;
            score_files(&gold, &pred, &pred_arg, &system, &o)
        })
        .collect()
}

/// Reads the gold and two runs and compares the runs (`crate::eval::compare`). Run names
/// are not checked (as `score --skip-check`).
pub fn compare_paths(
    gold_path: &Path,
    a_path: &Path,
    b_path: &Path,
    opts: &ScoreOptions,
    copts: &CompareOptions,
) -> Result<CompareResult> {
    let tasks = [opts.task];
    let gold = read_side(gold_path, opts, &tasks, false)?;
    let a = read_side(a_path, opts, &tasks, true)?;
    let b = read_side(b_path, opts, &tasks, true)?;
    compare(&gold, &a, &b, opts, copts)
}

/// The System cell for a run: the file-name check's System name for HIPE input (with
/// `skip_check`, `pred_arg` as given, as the official scorer writes it); for other formats the
/// file's name without its folders and extension (`runs/delta_1.conll` → `delta_1`), as
/// campaigns name runs.
pub fn system_name(pred_arg: &str, opts: &ScoreOptions) -> Result<String> {
    if opts.format != formats::Format::Hipe {
        Ok(plain_stem(pred_arg))
    } else if opts.skip_check {
        Ok(pred_arg.to_string())
    } else {
        check_file_name(pred_arg, opts.edition)
    }
}

/// The file name of `path` without its folders and its last extension.
fn plain_stem(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
}

/// Scores parsed files.
pub fn score_files(
    gold: &Corpus,
    pred: &Corpus,
    pred_arg: &str,
    system: &str,
    opts: &ScoreOptions,
) -> Result<ScoreOutput> {
    let ScoreResult {
        results,
        warnings,
        errors,
        ..
    } = evaluate(gold, pred, opts)?;
    let suffix = opts.suffix.as_deref().filter(|s| !s.is_empty());
    // The official names replace `.tsv` in a HIPE run's name; another format's run is named
    // by its stem (`delta_1.conll` → `delta_1_nerc_coarse.tsv`).
    let base = match opts.format {
        formats::Format::Hipe => pred_arg.to_string(),
        _ => plain_stem(pred_arg),
    };
    let (tsv, json) = official::outputs_beta(
        system,
        &results,
        opts.task,
        suffix,
        &opts.regimes,
        opts.beta,
        match opts.format {
            formats::Format::Conll => official::RowNames::Conll,
            _ => official::RowNames::Hipe,
        },
    );
    Ok(ScoreOutput {
        system: system.to_string(),
        tsv_name: output_name(&base, opts.task, suffix, "tsv"),
        json_name: output_name(&base, opts.task, suffix, "json"),
        tsv,
        json,
        results,
        warnings,
        errors: errors.map(|e| report::errors::listing(&e)),
    })
}
