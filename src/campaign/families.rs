//! Campaigns of any metric family: a campaign file whose `[[task]]` entries name a `family`
//! (spans, fair, muc, segmentation, tagging), a gold file and a run-name pattern. Every run of
//! every task is scored through [`crate::family::Family`], ranked by the task's metric
//! ([`super::family::rank_runs`], with intervals and paired tests when resampled), and
//! written as ranking TSV files, `leaderboard.json`, `leaderboard.md` and `index.html`
//! ([`super::family_board`]).
//!
//! ```toml
//! name = "zh-seg-2026"
//! bootstrap = 1000                 # optional: intervals, tests, shares-first marks
//! [[task]]
//! name = "seg"                     # names the task's tables and files
//! family = "segmentation"
//! format = "text"
//! gold = "zh_gsd-ud-test.txt"      # in --gold-dir; {dataset} and {lang} allowed
//! runs = "{team}_{run}.txt"        # in --runs-dir; {team} required
//! rank_by = "F1"                   # a column of the family's headline table
//! # any family option as the CLI names it: column, tagset, regimes, beta, weights, …
//! # breakdown = ["label", "length"]; train = "FILE" (relative to this file); inspect = true
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::family::FamilyRanking;
use super::names::{pattern_extension, run_stem, Pattern, Placeholder};
use crate::api::{family_options, Setting, Settings};
use crate::error::{snippet, Error, Result};
use crate::family::{build, Family, Headline};
use crate::metrics::resample::Resampler;
use crate::table::Results;

mod clash;
mod hipe;
mod hooks;
mod index;
pub(crate) mod insight;
mod listing;
mod places;
mod rank;
pub use rank::FailedScoring;
mod score;
mod teams;

pub use hipe::OfficialOutput;
pub use hooks::{CampaignHooks, OnScored};
pub use insight::{Insight, Pages};
pub use teams::best_per_team;

use index::TaskIndex;
use places::{
    key_line, option_line, plain, task_line, toml_error, value_text, KeyPlaces, Places, TaskPlaces,
};

const RUN_PLACEHOLDERS: &[Placeholder] = &[
    Placeholder::Team,
    Placeholder::Bundle,
    Placeholder::Run,
    Placeholder::Dataset,
    Placeholder::Lang,
];
const GOLD_PLACEHOLDERS: &[Placeholder] = &[Placeholder::Dataset, Placeholder::Lang];

/// One task of a family campaign.
pub struct FamilyTask {
    /// The task's name (tables and files).
    pub name: String,
    /// The family, built with the task's options.
    pub family: Box<dyn Family>,
    /// The gold file pattern in the gold directory.
    pub gold: Pattern,
    /// The run file pattern in the runs directory.
    pub runs: Pattern,
    /// The ranked cell.
    pub headline: Headline,
    /// The task's family options (format, column, tag set, …), as the family was built with
    /// (for the participants' check and the signature).
    pub options: crate::family::Options,
    /// The line of the task's `rank_by` in the campaign file (else of the task).
    pub rank_by_line: usize,
    /// The line of the task's `name` in the campaign file (else of the task; 0: the tasks of
    /// a HIPE campaign, made from its outputs).
    pub name_line: usize,
    /// Only runs of these bundles (the `{bundle}` of the run's name) are the task's (a HIPE
    /// campaign's tasks: [`FamilyCampaign::from_hipe`]); `None`: every run its pattern fits.
    pub bundles: Option<Vec<String>>,
    /// The task's label list (`label_list`, one label a line, relative to the campaign
    /// file's directory): the participants' check of a Codabench submission checks run labels
    /// against it (docs/codabench.md). Not fair's `labels`, which selects labels to score.
    pub label_list: Option<LabelList>,
    /// The task's breakdown training file (`train`) and `inspect` pages
    /// ([`insight`]).
    pub insight: Insight,
    /// A HIPE campaign's output (`nel_relaxed`, …) this task scores: its runs get the
    /// official per-run files ([`super::official::OfficialRuns`]). `None` for family tasks.
    pub official: Option<hipe::OfficialOutput>,
}

/// A task's label list: as written in the campaign file, and the file it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelList {
    /// The value of `label_list` (a path relative to the campaign file's directory).
    pub written: String,
    /// The file.
    pub path: PathBuf,
}

impl FamilyTask {
    /// How a run file's name fits the task: the first way it fits the runs pattern with a
    /// bundle the task takes, as (placeholder, value) pairs; `None` when it is not the task's.
    pub fn fit<'t>(&self, name: &'t str) -> Option<Vec<(Placeholder, &'t str)>> {
        self.runs.matches(name).into_iter().find(|m| {
            self.bundles.as_ref().is_none_or(|b| {
                m.iter()
                    .any(|(p, v)| *p == Placeholder::Bundle && b.iter().any(|x| x == v))
            })
        })
    }
}

/// A campaign of family tasks.
pub struct FamilyCampaign {
    /// The campaign's name.
    pub name: String,
    /// The campaign file (for messages).
    pub file: PathBuf,
    /// The resampling of the rankings, if any.
    pub bootstrap: Option<Resampler>,
    /// The tasks, in file order.
    pub tasks: Vec<FamilyTask>,
    /// Files the tasks read besides gold and runs (a HIPE campaign's tag sets and QID maps),
    /// which a Codabench bundle ships; each as (name in the resources directory, path).
    pub resources: Vec<(String, PathBuf)>,
    /// `detailed_results_public = true`: every leaderboard viewer may open a submission's
    /// detailed results on Codabench (default: its participant only).
    pub detailed_results_public: bool,
    /// `reveal_gold = true`: participant-visible outputs of the Codabench scoring program may
    /// show gold (missed spans, gold labels, the gold's own counts); default false.
    pub reveal_gold: bool,
}

fn has_family_tasks(t: &toml::Table) -> bool {
    t.get("task")
        .and_then(|v| v.as_array())
        .is_some_and(|tasks| tasks.iter().any(|t| t.get("family").is_some()))
}

/// Whether a campaign file holds family tasks, after reading it as TOML: a syntax error is an
/// input error naming the file and its line (whatever kind of campaign it was meant to be).
pub fn campaign_kind(path: &Path, text: &str) -> Result<bool> {
    toml::from_str::<toml::Table>(text)
        .map(|t| has_family_tasks(&t))
        .map_err(|e| toml_error(path, text, &e))
}

impl FamilyCampaign {
    /// Reads a family campaign file (usage errors naming the file and the task).
    pub fn from_file(path: &Path) -> Result<FamilyCampaign> {
        let text = crate::io::read_text(path)?;
        Self::parse(path, &text)
    }

    /// Parses a family campaign's text (`path` names it in messages). Every error names the
    /// file and the line of the key (or the task) it is about.
    pub fn parse(path: &Path, text: &str) -> Result<FamilyCampaign> {
        let at =
            |line: usize, msg: String| Error::input(path, line, format!("invalid campaign: {msg}"));
        let table: toml::Table = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
        let top_keys: Option<KeyPlaces> = toml::from_str(text).ok();
        let task_keys: Vec<KeyPlaces> = toml::from_str::<TaskPlaces>(text)
            .map(|t| t.task)
            .unwrap_or_default();
        let places = Places::new(text);
        let top_line = |key: &str| key_line(&places, top_keys.as_ref(), key).unwrap_or(0);
        let mut top = Settings::new();
        let (mut inspect, mut detailed_results_public, mut reveal_gold) = (false, false, false);
        for (k, v) in &table {
            let flag = |key: &str| {
                v.as_bool()
                    .ok_or_else(|| at(top_line(key), format!("{key}: expected true or false")))
            };
            match k.as_str() {
                "name" | "task" => {}
                "inspect" => inspect = flag("inspect")?,
                "detailed_results_public" => detailed_results_public = flag(k)?,
                "reveal_gold" => reveal_gold = flag(k)?,
                "bootstrap" | "bootstrap_seed" | "bootstrap_confidence" => {
                    let name = match k.as_str() {
                        "bootstrap" => "bootstrap",
                        "bootstrap_seed" => "seed",
                        _ => "confidence",
                    };
                    if let Some(s) = value_text(v) {
                        top.set(name, s);
                    }
                }
                other => {
                    return Err(at(
                        top_line(other),
                        format!(
                            "unknown key {} (a campaign of family tasks has name, bootstrap, \
                             bootstrap_seed, bootstrap_confidence, inspect, detailed_results_public, \
                             reveal_gold and [[task]])",
                            snippet(other)
                        ),
                    ))
                }
            }
        }
        let name = table
            .get("name")
            .and_then(|v| v.as_str())
            .unwrap_or("campaign")
            .to_string();
        let bootstrap = crate::api::resampling(&top, "bootstrap", None).map_err(|e| {
            let m = plain(&e);
            let key = ["seed", "confidence"]
                .into_iter()
                .map(|w| format!("bootstrap_{w}"))
                .find(|k| table.contains_key(k) && m.contains(&k[10..]))
                .unwrap_or_else(|| "bootstrap".into());
            at(top_line(&key), m)
        })?;
        let tasks_v = table
            .get("task")
            .and_then(|v| v.as_array())
            .ok_or_else(|| at(0, "no [[task]]".into()))?;
        let mut tasks: Vec<FamilyTask> = Vec::new();
        let mut task_names: std::collections::HashSet<String> = std::collections::HashSet::new();
        for (i, t) in tasks_v.iter().enumerate() {
            let keys = task_keys.get(i);
            let here = task_line(&places, keys);
            let t = t
                .as_table()
                .ok_or_else(|| at(here, format!("task {}: expected a table", i + 1)))?;
            let get = |key: &str| t.get(key).and_then(|v| v.as_str());
            let tname = get("name")
                .map(str::to_string)
                .unwrap_or_else(|| format!("task{}", i + 1));
            let line_of = |key: &str| key_line(&places, keys, key).unwrap_or(here);
            let ctx = |line: usize, m: String| at(line, format!("task {tname}: {m}"));
            if !task_names.insert(tname.clone()) {
                return Err(ctx(line_of("name"), "a second task of this name".into()));
            }
            super::names::check_plain(&tname, false)
                .map_err(|e| ctx(line_of("name"), format!("name: {e}")))?;
            let family = get("family").ok_or_else(|| ctx(here, "family: required".into()))?;
            let gold = Pattern::parse(
                get("gold").ok_or_else(|| ctx(here, "gold: required".into()))?,
                GOLD_PLACEHOLDERS,
            )
            .map_err(|e| ctx(line_of("gold"), format!("gold: {e}")))?;
            let runs = Pattern::parse(
                get("runs").ok_or_else(|| ctx(here, "runs: required".into()))?,
                RUN_PLACEHOLDERS,
            )
            .map_err(|e| ctx(line_of("runs"), format!("runs: {e}")))?;
            if !runs.has(Placeholder::Team) {
                return Err(ctx(
                    line_of("runs"),
                    "runs: the pattern needs {team}".into(),
                ));
            }
            for p in GOLD_PLACEHOLDERS {
                if gold.has(*p) && !runs.has(*p) {
                    return Err(ctx(
                        line_of("gold"),
                        format!(
                            "gold uses {{{}}}, which the runs pattern does not give",
                            p.as_str()
                        ),
                    ));
                }
            }
            let mut s = Settings::new();
            for (k, v) in t {
                if matches!(
                    k.as_str(),
                    "name"
                        | "family"
                        | "gold"
                        | "runs"
                        | "rank_by"
                        | "label_list"
                        | "inspect"
                        | "train"
                ) {
                    continue;
                }
                let value = value_text(v).ok_or_else(|| {
                    ctx(
                        line_of(k),
                        format!("{k}: expected text, a number or a list"),
                    )
                })?;
                s.set(k, value);
            }
            let insight = insight::task_insight(t, path, family, inspect)
                .map_err(|(key, m)| ctx(line_of(key), m))?;
            if let Some(train) = &insight.train {
                s.set("train", Setting::Text(train.path.display().to_string()));
            }
            let option_err = |e: Error| {
                let m = plain(&e);
                ctx(option_line(&places, keys, &m), m)
            };
            let opts = family_options(&s).map_err(option_err)?;
            s.finish(&format!("the {family} family"))
                .map_err(option_err)?;
            // An option the family refuses is said at its own line, else at `family`.
            let fam = build(family, &opts).map_err(|e| {
                let m = plain(&e);
                let line = option_line(&places, keys, &m);
                ctx(
                    if line == here {
                        line_of("family")
                    } else {
                        line
                    },
                    m,
                )
            })?;
            let mut headline = fam.headline();
            if let Some(col) = get("rank_by") {
                headline.column = col.to_string();
            }
            let label_list = match t.get("label_list") {
                None => None,
                Some(v) => {
                    let written = v.as_str().filter(|w| !w.trim().is_empty()).ok_or_else(|| {
                        ctx(
                            line_of("label_list"),
                            "label_list: expected a file name (one label a line)".into(),
                        )
                    })?;
                    let dir = path.parent().unwrap_or_else(|| Path::new(""));
                    Some(LabelList {
                        written: written.to_string(),
                        path: dir.join(written),
                    })
                }
            };
            tasks.push(FamilyTask {
                name: tname,
                family: fam,
                gold,
                runs,
                headline,
                options: opts,
                rank_by_line: key_line(&places, keys, "rank_by").unwrap_or(here),
                name_line: line_of("name"),
                bundles: None,
                label_list,
                insight,
                official: None,
            });
        }
        Ok(FamilyCampaign {
            name,
            file: path.to_path_buf(),
            bootstrap,
            tasks,
            resources: Vec::new(),
            detailed_results_public,
            reveal_gold,
        })
    }
}

/// Per group (placeholder values shared with the gold): the runs as (system, file, team).
type Groups = BTreeMap<Vec<(String, String)>, Vec<(String, PathBuf, String)>>;

/// The file stem of a task's ranking on a group: the task, then each group value.
fn stem(task: &str, group: &[(String, String)]) -> String {
    let mut s = task.to_string();
    for (_, v) in group {
        s.push('-');
        s.push_str(v);
    }
    s
}

/// One ranked table of a family campaign: a task on one gold file.
pub struct TaskRanking {
    /// The task's name.
    pub task: String,
    /// The family's name.
    pub family: String,
    /// The placeholder values shared by the gold and the runs (`lang` = `de`), if any.
    pub group: Vec<(String, String)>,
    /// The gold file.
    pub gold: PathBuf,
    /// The ranking.
    pub ranking: FamilyRanking,
    /// The ranking as result tables: every run, then each team's best run.
    pub results: Results,
    /// The team of every run (system name → team).
    pub teams: BTreeMap<String, String>,
    /// What the numbers depend on: the family, its options, the resampling, the gold, one
    /// hash over the runs ranked and the version.
    pub signature: crate::table::Signature,
    /// Each ranked run's short content hash, by system.
    pub run_hashes: BTreeMap<String, String>,
    /// Each ranked run's file, by system (its `inspect` page reads it again).
    pub run_files: BTreeMap<String, PathBuf>,
    /// Whether the runs' results were written (`runs/`) as the task was ranked and cut to what
    /// the reports read ([`CampaignHooks::outdir`]).
    pub results_written: bool,
}

impl TaskRanking {
    /// The file stem of the ranking: the task, then each group value (`seg`, `ner-de`).
    pub fn stem(&self) -> String {
        stem(&self.task, &self.group)
    }
}

/// What a family campaign did.
#[derive(Default)]
pub struct FamilyReport {
    /// The rankings, in task and group order.
    pub rankings: Vec<TaskRanking>,
    /// Files of the runs directory that are not runs of any task (other extensions): listed,
    /// not an error.
    pub ignored: Vec<String>,
    /// Files with a task's run extension that fit no task's pattern: an error each.
    pub rejected: Vec<(String, String)>,
    /// Scorings that failed, one per run and task (and group) it failed for.
    pub failed: Vec<FailedScoring>,
}

/// Scores every task of `cfg` on the runs of `runs_dir` against the gold files of `gold_dir`.
/// A run that fails to score is reported and left out of its ranking.
///
/// ```
/// # fn main() -> fairscore::Result<()> {
/// # let dir = std::env::temp_dir().join(format!("fairscore-doc-{}-{}", "campaign", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// # let (gold, runs) = (dir.join("gold"), dir.join("runs"));
/// # std::fs::create_dir_all(&gold).unwrap();
/// # std::fs::create_dir_all(&runs).unwrap();
/// # std::fs::write(gold.join("test.txt"), "ab cd ef\ngh ij\n").unwrap();
/// # std::fs::write(runs.join("alpha_1.txt"), "ab cd ef\ngh ij\n").unwrap();
/// # std::fs::write(runs.join("beta_1.txt"), "abcd ef\nghij\n").unwrap();
/// use fairscore::{run_family_campaign, FamilyCampaign};
///
/// let toml = "name = \"demo\"\n[[task]]\nname = \"seg\"\nfamily = \"segmentation\"\n\
///             format = \"text\"\ngold = \"test.txt\"\nruns = \"{team}_{run}.txt\"\n";
/// let cfg = FamilyCampaign::parse(std::path::Path::new("campaign.toml"), toml)?;
/// let report = run_family_campaign(&cfg, &gold, &runs)?;
/// let ranking = &report.rankings[0].ranking;
/// assert_eq!(ranking.runs[0].system, "alpha_1");
/// assert_eq!(ranking.runs[0].rank, 1);
/// # Ok(())
/// # }
/// ```
pub fn run_family_campaign(
    cfg: &FamilyCampaign,
    gold_dir: &Path,
    runs_dir: &Path,
) -> Result<FamilyReport> {
    run_family_campaign_with(cfg, gold_dir, runs_dir, &CampaignHooks::default())
}

/// [`run_family_campaign`] with `hooks`.
pub fn run_family_campaign_with(
    cfg: &FamilyCampaign,
    gold_dir: &Path,
    runs_dir: &Path,
    hooks: &CampaignHooks<'_>,
) -> Result<FamilyReport> {
    let (names, mut odd) = listing::run_entries(runs_dir)?;
    let mut report = FamilyReport::default();
    odd.sort();
    for n in odd {
        report.rejected.push((
            n,
            "the file name is not UTF-8 (shown with \u{fffd}); rename it in UTF-8".into(),
        ));
    }
    let exts: Vec<Option<&str>> = cfg
        .tasks
        .iter()
        .map(|t| pattern_extension(&t.runs))
        .collect();
    // Which files belong to which task (and group).
    let mut per_task: Vec<Groups> = vec![BTreeMap::new(); cfg.tasks.len()];
    let index = TaskIndex::new(cfg.tasks.iter().map(|t| &t.runs));
    let mut candidates = Vec::new();
    for (n, folder) in &names {
        let path = runs_dir.join(n);
        if !folder && !path.is_file() {
            let why = "not a regular file (a FIFO, device or socket): never opened".into();
            report.rejected.push((n.clone(), why));
            continue;
        }
        let mut fitted = false;
        index.candidates(n, &mut candidates);
        for &k in &candidates {
            let t = &cfg.tasks[k];
            let (stem, system) = run_stem(&t.runs, n, *folder);
            let Some(m) = t.fit(stem) else {
                continue;
            };
            fitted = true;
            let group: Vec<(String, String)> = m
                .iter()
                .filter(|(p, _)| t.gold.has(*p))
                .map(|(p, v)| (p.as_str().to_string(), v.to_string()))
                .collect();
            let system = system.to_string();
            let team = m
                .iter()
                .find(|(p, _)| *p == Placeholder::Team)
                .map_or_else(|| system.clone(), |(_, v)| v.to_string());
            per_task[k]
                .entry(group)
                .or_default()
                .push((system, runs_dir.join(n), team));
        }
        if !fitted {
            let ext_of_runs = exts
                .iter()
                .flatten()
                .any(|e| n.to_ascii_lowercase().ends_with(&e.to_ascii_lowercase()));
            if ext_of_runs {
                let patterns: Vec<&str> = cfg.tasks.iter().map(|t| t.runs.as_str()).collect();
                report.rejected.push((
                    n.clone(),
                    format!("fits no run pattern ({})", patterns.join(", ")),
                ));
            } else {
                report.ignored.push(n.clone());
            }
        }
    }
    for (k, t) in cfg.tasks.iter().enumerate() {
        for runs in per_task[k].values_mut() {
            for r in clash::same_systems(runs, &t.name) {
                // A file once, though it is a run of several tasks.
                if !report.rejected.iter().any(|(f, _)| *f == r.0) {
                    report.rejected.push(r);
                }
            }
        }
    }
    rank::check_rank_by(cfg, gold_dir, &per_task)?;
    let own = crate::family::Inputs::new();
    let shared = hooks.inputs.unwrap_or(&own);
    // Per task and non-empty group, in order: the runs that failed and the ranking.
    let mut done: BTreeMap<(usize, usize), rank::Outcome> = BTreeMap::new();
    let none = |_: &FamilyTask, _: &str, _: [&Path; 2], _: &mut crate::family::Statistics| Ok(());
    if let Some(dir) = hooks.outdir {
        let runs = dir.join("runs");
        std::fs::create_dir_all(&runs)
            .map_err(|e| Error::output(&runs, format!("cannot create the directory: {e}")))?;
    }
    let scoring = score::Hooks {
        shared,
        on_scored: hooks.on_scored.unwrap_or(&none),
        resampler: cfg.bootstrap.as_ref(),
        outdir: hooks.outdir,
        headline_only: hooks.headline_only,
    };
    score::score_all(&cfg.tasks, &per_task, gold_dir, &scoring, |k, j, scored| {
        let t = &cfg.tasks[k];
        let Some((group, runs)) = per_task[k].iter().filter(|(_, r)| !r.is_empty()).nth(j) else {
            return Ok(());
        };
        let mut outcome = rank::rank_group(cfg, t, group, runs, scored, gold_dir, shared)?;
        if let Some(r) = outcome.1.as_mut() {
            r.results_written = hooks.outdir.is_some();
        }
        done.insert((k, j), outcome);
        Ok(())
    })?;
    for (failed, ranking) in done.into_values() {
        report.failed.extend(failed);
        report.rankings.extend(ranking);
    }
    report
        .failed
        .sort_by(|a, b| (&a.file, &a.task).cmp(&(&b.file, &b.task)));
    Ok(report)
}
