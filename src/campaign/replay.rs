//! HIPE campaigns whose per-run outputs are given instead of scored: `leaderboard --replay
//! DIR` reads each run's official outputs from DIR ([`replay_official`]), and a caller may
//! give them from anywhere else ([`report_given`]: how the tests inject made-up outputs).
//! Either way the outputs are kept by an [`OfficialRuns`] and reported by the same code as
//! scored ones (`super::hipe_report::report_planned`).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::config::{Campaign, CampaignDirs, TaskSpec};
use super::confusion::ConfusionMatrix;
use super::discover::RunInfo;
use super::hipe_plan::prepare;
use super::hipe_report::{report_planned, Lack, Outputs, Progress};
use super::official::OfficialRuns;
use super::outcome::{CampaignReport, OfficialPages};
use super::rows::{parse_table, ScoreRow};
use crate::{Error, Result};

/// One output of one run, as given.
#[derive(Debug, Clone)]
pub enum Given {
    /// Its files (plain names, written to `OUTDIR/runs/` as they are), its typed rows and,
    /// where the fair regime was scored, its confusion matrix.
    Output {
        /// (file name, bytes).
        files: Vec<(String, Vec<u8>)>,
        /// The rows of its score table.
        rows: Vec<ScoreRow>,
        /// The fair regime's confusion matrix.
        fair: Option<ConfusionMatrix>,
    },
    /// Not there, and why: only the tables that need this output lack the run.
    Missing(String),
}

/// Where the outputs come from: called once for each run and output name (with its spec) of
/// the campaign that can be evaluated, from several threads. An error fails the run (an
/// output error, the campaign).
pub type Source<'a> = dyn Fn(&RunInfo, &str, &TaskSpec) -> Result<Given> + Sync + 'a;

/// Reports the HIPE campaign `cfg` from the per-run outputs in `dir` (`RUN_OUTPUT.tsv` and
/// `.json`, e.g. the official scorer's), without scoring: each table is parsed into typed
/// rows and each JSON checked, then both are copied to `OUTDIR/runs/`. An output whose files
/// are not there is missing (the run stays in the other tables; a run with none of its
/// outputs fails); an unreadable or invalid file fails its run, naming the file.
pub fn replay_official(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    dir: &Path,
    progress: Option<&(dyn Fn(&Progress<'_>) + Sync)>,
) -> Result<CampaignReport> {
    let read = |run: &RunInfo, output: &str, _: &TaskSpec| replayed(dir, run, output);
    report_given(cfg, dirs, Some(dir), &read, progress)
}

/// Reports the HIPE campaign `cfg` from the outputs `source` gives for its runs (`replay`:
/// the directory they were read from, named relative in the reports). Writes and returns what
/// [`super::score_official`] does.
pub fn report_given(
    cfg: &Campaign,
    dirs: &CampaignDirs,
    replay: Option<&Path>,
    source: &Source<'_>,
    progress: Option<&(dyn Fn(&Progress<'_>) + Sync)>,
) -> Result<CampaignReport> {
    let (planned, runs_out) = prepare(cfg, dirs)?;
    let official = OfficialRuns::new(Some(&runs_out))?;
    let outputs = planned.outputs(cfg);
    let done = AtomicUsize::new(0);
    let given: Vec<Result<Option<Lack>>> = outputs
        .par_iter()
        .map(|(run, name, spec)| {
            let lack = match source(run, name.as_str(), spec) {
                Ok(Given::Output { files, rows, fair }) => official
                    .keep(&run.name, name.as_str(), files, rows, fair)
                    .map(|()| None),
                Ok(Given::Missing(why)) => Ok(Some(Lack::Missing(why))),
                Err(e @ Error::Output { .. }) => Err(e),
                Err(e) => Ok(Some(Lack::Failed(e.to_string()))),
            };
            if let Some(p) = progress {
                p(&Progress {
                    done: done.fetch_add(1, Ordering::Relaxed) + 1,
                    total: outputs.len(),
                    job: &format!("{}_{name}", run.name),
                });
            }
            lack
        })
        .collect();
    let mut lacks: BTreeMap<(String, String), Lack> = BTreeMap::new();
    for ((run, name, _), g) in outputs.iter().zip(given) {
        if let Some(l) = g? {
            lacks.insert((run.name.clone(), name.to_string()), l);
        }
    }
    drop(outputs);
    let lack = |run: &RunInfo, output: &str| {
        let key = (run.name.clone(), output.to_string());
        let none = || Lack::Failed("not given".into());
        lacks.get(&key).cloned().unwrap_or_else(none)
    };
    let hash = crate::family::sign::file_hash;
    let outputs = Outputs {
        official: &official,
        lack: &lack,
        pages: OfficialPages::default(),
    };
    report_planned(cfg, dirs, replay, planned, outputs, &hash)
}

/// The output `output` of `run` as `dir` holds it (what [`replay_official`] reports):
/// `RUN_OUTPUT.tsv` parsed into rows and `RUN_OUTPUT.json` checked to be JSON, both read
/// through the input guard; missing when either is not a regular file there.
pub fn replayed(dir: &Path, run: &RunInfo, output: &str) -> Result<Given> {
    let stem = format!("{}_{output}", run.name);
    let tsv_path = dir.join(format!("{stem}.tsv"));
    let json_path = dir.join(format!("{stem}.json"));
    for p in [&tsv_path, &json_path] {
        match std::fs::metadata(p) {
            Ok(m) if m.is_file() => {}
            Ok(_) => {
                let why = format!("{} is not a regular file", p.display());
                return Ok(Given::Missing(why));
            }
            Err(_) => return Ok(Given::Missing(format!("{} not found", p.display()))),
        }
    }
    let tsv = crate::io::read_input(&tsv_path)?;
    let text = crate::io::into_utf8(&tsv_path, tsv.clone())?;
    let rows = parse_table(&text, &tsv_path)?;
    let json = crate::io::read_input(&json_path)?;
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&json) {
        return Err(Error::input(&json_path, e.line(), format!("not JSON: {e}")));
    }
    Ok(Given::Output {
        files: vec![(format!("{stem}.json"), json), (format!("{stem}.tsv"), tsv)],
        rows,
        fair: None,
    })
}
