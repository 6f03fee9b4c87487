//! A HIPE campaign (a preset or a HIPE campaign file) as a campaign of `hipe` family tasks:
//! what lets it run as a Codabench scoring program.
//!
//! Every output of the campaign (`nerc_coarse`, `nel_relaxed`, …) on every dataset and
//! language whose gold file is in the gold directory is one task, named
//! `OUTPUT-DATASET-LANG`, scored as the campaign's scorer scores it: the edition, the
//! output's task, cutoffs and tag set, and for a normalized output (relaxed NEL) the run
//! normalized with the dataset's QID map. Its runs are the files named by the campaign's run
//! pattern for that dataset and language, of a bundle that has the output. A NERC output
//! with breakdown keys (the campaign file's `breakdown`) gets the family's `breakdown` and, for
//! the keys that read one, its `train` file of the dataset and language from the resources
//! directory (shipped with the tag sets and maps: `FamilyCampaign::resources`).

use std::path::{Path, PathBuf};

use super::{FamilyCampaign, FamilyTask, Placeholder, GOLD_PLACEHOLDERS, RUN_PLACEHOLDERS};
use crate::campaign::config::{Campaign, Name, Pattern};
use crate::error::{Error, Result};
use crate::family::{build, Options};

/// A file of the resources directory a task reads: its option value (the path) and, once,
/// its place in the campaign's resources.
fn resource(resources: &Path, name: &str, used: &mut Vec<(String, PathBuf)>) -> Result<String> {
    let path = resources.join(name);
    if !path.is_file() {
        return Err(Error::input(
            &path,
            0,
            "no such file in the resources directory (the campaign names it)",
        ));
    }
    if !used.iter().any(|(n, _)| n == name) {
        used.push((name.to_string(), path.clone()));
    }
    Ok(path.to_string_lossy().into_owned())
}

/// A HIPE campaign's output as a task scores it: what the official per-run files of its runs
/// are made with (`RUN_OUTPUT.tsv` and `.json`, as the official scorer names them).
#[derive(Debug, Clone, PartialEq)]
pub struct OfficialOutput {
    /// The output's name (`nel_relaxed`).
    pub output: String,
    /// Its HIPE task.
    pub task: crate::hipe::Task,
    /// Its suffix (`relaxed`), if any.
    pub suffix: Option<String>,
    /// The regimes of its rows (the scorer's defaults).
    pub regimes: Vec<crate::eval::options::Regime>,
}

/// The regimes of an output's rows: the scorer's defaults, and fair with `fair = true`.
fn regimes(task: crate::hipe::Task, cfg: &Campaign) -> Vec<crate::eval::options::Regime> {
    let mut r = crate::eval::options::ScoreOptions::new(task, cfg.edition).regimes;
    if cfg.fair {
        r.push(crate::eval::options::Regime::Fair);
    }
    r
}

/// Sets the breakdown of an output on a dataset and language (`cfg.breakdown_of`; NERC
/// only), with its training file from the resources directory when its keys read one. A
/// training file that is not there (`lenient`): the output is scored without breakdown (the
/// leaderboard says so); else an input error.
fn breakdown(
    cfg: &Campaign,
    spec: &crate::campaign::config::TaskSpec,
    (dataset, lang): (&Name, &Name),
    (resources, lenient): (&Path, bool),
    o: &mut Options,
    used: &mut Vec<(String, PathBuf)>,
) -> Result<()> {
    let keys = cfg.breakdown_of(spec);
    if keys.is_empty() {
        return Ok(());
    }
    let train = cfg.train_file(spec, dataset.as_str(), lang.as_str());
    if lenient && train.as_ref().is_some_and(|t| !resources.join(t).is_file()) {
        return Ok(());
    }
    o.set("breakdown", &keys.join(","))?;
    if let Some(t) = train {
        o.set("train", &resource(resources, &t, used)?)?;
    }
    Ok(())
}

fn pattern(text: &str, allowed: &[Placeholder], what: &str) -> Result<Pattern> {
    Pattern::parse(text, allowed)
        .map_err(|e| Error::usage(format!("campaign: the {what} pattern {text:?}: {e}")))
}

impl FamilyCampaign {
    /// The campaign of `hipe` family tasks of the HIPE campaign `cfg` (see the module
    /// documentation), its tag sets and QID maps read from `resources`, its tasks those
    /// whose gold file is in `gold_dir`. `file` names the campaign in messages.
    pub fn from_hipe(
        cfg: &Campaign,
        file: &Path,
        resources: &Path,
        gold_dir: &Path,
    ) -> Result<FamilyCampaign> {
        let fam = FamilyCampaign::hipe_tasks(cfg, file, resources, gold_dir, false)?;
        if fam.tasks.is_empty() {
            return Err(Error::input(
                gold_dir,
                0,
                format!(
                    "no gold file of campaign {} is here (it names them as {})",
                    cfg.name, cfg.gold_pattern
                ),
            ));
        }
        Ok(fam)
    }

    /// [`FamilyCampaign::from_hipe`], with no task when no gold file is here; `lenient`: an
    /// output whose tag set or QID map is missing has no task (instead of an error).
    pub(crate) fn hipe_tasks(
        cfg: &Campaign,
        file: &Path,
        resources: &Path,
        gold_dir: &Path,
        lenient: bool,
    ) -> Result<FamilyCampaign> {
        let mut tasks = Vec::new();
        let mut used: Vec<(String, PathBuf)> = Vec::new();
        for (output, spec) in &cfg.tasks {
            let bundles: Vec<String> = cfg
                .bundles
                .iter()
                .filter(|(_, outs)| outs.iter().any(|o| o.as_str() == output.as_str()))
                .map(|(b, _)| b.as_str().to_string())
                .collect();
            for (dataset, ds) in &cfg.datasets {
                for lang in &ds.languages {
                    let gold = cfg.gold_file(spec, dataset.as_str(), lang.as_str());
                    if !gold_dir.join(&gold).is_file() {
                        continue;
                    }
                    let mut o = Options::default();
                    o.set("task", spec.task.as_str())?;
                    o.set("hipe_edition", cfg.edition.name())?;
                    if spec.task == crate::hipe::Task::Nel {
                        let n: Vec<String> = spec.n_best.iter().map(|k| k.to_string()).collect();
                        if !n.is_empty() {
                            o.set("n_best", &n.join(","))?;
                        }
                    }
                    if cfg.fair {
                        o.set("fair", "true")?;
                    }
                    let tagset = cfg.tagset_file(spec).map(|t| t.as_str());
                    let map = ds
                        .map
                        .as_ref()
                        .filter(|_| spec.normalize)
                        .map(|m| m.as_str());
                    if lenient
                        && [tagset, map]
                            .into_iter()
                            .flatten()
                            .any(|f| !resources.join(f).is_file())
                    {
                        continue;
                    }
                    if let Some(t) = tagset {
                        o.set("tagset", &resource(resources, t, &mut used)?)?;
                    }
                    if let Some(m) = map {
                        o.set("normalize_run", &resource(resources, m, &mut used)?)?;
                    }
                    breakdown(
                        cfg,
                        spec,
                        (dataset, lang),
                        (resources, lenient),
                        &mut o,
                        &mut used,
                    )?;
                    let family = build("hipe", &o)?;
                    let values = [
                        (Placeholder::Dataset, dataset.as_str()),
                        (Placeholder::Lang, lang.as_str()),
                    ];
                    let runs = format!("{}.tsv", cfg.run_pattern.fill(&values));
                    let headline = family.headline();
                    tasks.push(FamilyTask {
                        name: format!("{output}-{dataset}-{lang}"),
                        family,
                        gold: pattern(&gold, GOLD_PLACEHOLDERS, "gold")?,
                        runs: pattern(&runs, RUN_PLACEHOLDERS, "run")?,
                        headline,
                        options: o,
                        rank_by_line: 0,
                        name_line: 0,
                        bundles: Some(bundles.clone()),
                        label_list: None,
                        insight: super::Insight {
                            inspect: cfg.inspect && spec.task != crate::hipe::Task::Nel,
                            ..Default::default()
                        },
                        official: Some(OfficialOutput {
                            output: output.to_string(),
                            task: spec.task,
                            suffix: spec.suffix.as_ref().map(|s| s.as_str().to_string()),
                            regimes: regimes(spec.task, cfg),
                        }),
                    });
                }
            }
        }
        Ok(FamilyCampaign {
            name: cfg.name.clone(),
            file: file.to_path_buf(),
            bootstrap: cfg.bootstrap,
            tasks,
            resources: used,
            detailed_results_public: cfg.detailed_results_public,
            reveal_gold: cfg.reveal_gold,
        })
    }
}
