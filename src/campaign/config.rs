//! Campaign configuration: the TOML data that describes a shared task (edition, datasets,
//! languages, run-name pattern, gold-file pattern, bundles → outputs, QID maps, ranking
//! recipes) and the embedded presets (`presets/*.toml`).
//!
//! A campaign is validated as a whole when it is loaded: the edition, every name that ends up
//! in a file name ([`Name`]) and both patterns ([`Pattern`]) are parsed into typed values, and
//! any problem is an input error naming the campaign file and the line.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

pub use super::names::{Name, Pattern, Placeholder};
use super::names::{GOLD_PLACEHOLDERS, RUN_PLACEHOLDERS};
use crate::hipe::{Edition, Task};
use crate::metrics::resample::Resampler;
use crate::{Error, Result};
use breakdown::Keys;
use source::Source;

mod breakdown;
mod source;

/// Names of the embedded presets, in the order they are listed to the user.
pub const PRESETS: &[(&str, &str)] = &[
    ("hipe-2022", include_str!("../../presets/hipe-2022.toml")),
    ("hipe-2020", include_str!("../../presets/hipe-2020.toml")),
];

/// Where a campaign's inputs are and where its outputs go.
#[derive(Debug, Clone)]
pub struct CampaignDirs {
    /// Gold files, named by the campaign's gold pattern.
    pub gold: PathBuf,
    /// Run files, named by the campaign's run pattern + `.tsv`.
    pub runs: PathBuf,
    /// Tagset and QID map files.
    pub resources: PathBuf,
    /// Output directory (`runs/`, `rankings/`, the reports).
    pub outdir: PathBuf,
}

/// A validated campaign. `tasks` is keyed by output name (`TASK` or `TASK_SUFFIX`), in file
/// order; `datasets` and `bundles` keep file order too.
#[derive(Debug, Clone)]
pub struct Campaign {
    /// The campaign's name (title of the reports).
    pub name: String,
    /// The HIPE edition whose scoring rules apply.
    pub edition: Edition,
    /// Run file names are this pattern + `.tsv`.
    pub run_pattern: Pattern,
    /// Gold file name in the gold directory.
    pub gold_pattern: Pattern,
    /// Tagset file in the resources directory, given to every output that does not override it.
    pub tagset: Option<Name>,
    /// Ask the scorer for the fair (Ortmann 2022) regime too.
    pub fair: bool,
    /// Write an `inspect` page per run and NERC output (`inspect = true`, or `leaderboard
    /// --inspect`): the output's first column, linked from the boards.
    pub inspect: bool,
    /// `detailed_results_public = true`: the Codabench bundle lets every leaderboard viewer
    /// open a submission's detailed results (default: its participant only).
    pub detailed_results_public: bool,
    /// `reveal_gold = true`: the Codabench scoring program's participant-visible outputs may
    /// show gold (docs/codabench.md); default false.
    pub reveal_gold: bool,
    /// `bootstrap = N` (with `bootstrap_seed`, `bootstrap_confidence`): intervals and
    /// significance marks in the leaderboard (see `super::marks`).
    pub bootstrap: Option<Resampler>,
    /// `breakdown = [KEY, …]`: the breakdown keys of every NERC output that does not give
    /// its own (the hipe family's `breakdown`; empty: none).
    pub breakdown: Vec<String>,
    /// `train`: the training file of each dataset and language (the gold pattern's
    /// placeholders), in the resources directory, for the keys that read one.
    pub train: Option<Pattern>,
    /// Datasets by name, each with its languages and QID map.
    pub datasets: IndexMap<Name, Dataset>,
    /// Per-run outputs by output name (`TASK` or `TASK_SUFFIX`).
    pub tasks: IndexMap<Name, TaskSpec>,
    /// Bundle id → output names.
    pub bundles: IndexMap<Name, Vec<Name>>,
    /// Ranking files to write for every dataset and language, in file order.
    pub rankings: Vec<RankingSpec>,
}

/// One dataset of a campaign.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// Languages the dataset is evaluated in.
    pub languages: Vec<Name>,
    /// QID mapping file (in the resources directory) used to normalize runs for relaxed NEL.
    pub map: Option<Name>,
}

/// One per-run output: a task, optionally with a suffix and its own gold pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSpec {
    /// The task scored (`nerc_coarse`, `nerc_fine` or `nel`).
    pub task: Task,
    /// `--suffix`; the output is then named `TASK_SUFFIX`.
    pub suffix: Option<Name>,
    /// `--n_best` cutoffs (NEL), each ≥ 1.
    pub n_best: Vec<usize>,
    /// Gold pattern for this output instead of the campaign's.
    pub gold_pattern: Option<Pattern>,
    /// Normalize the run with the dataset's map (`--norm-time --norm-histo`) before scoring.
    pub normalize: bool,
    /// Tagset override: `None` takes the campaign's, `Some(None)` means no tagset (`""`).
    pub tagset: Option<Option<Name>>,
    /// The output's own breakdown keys (`Some(empty)`: none); `None` takes the campaign's.
    pub breakdown: Option<Vec<String>>,
}

impl TaskSpec {
    /// The output's name: `TASK` or `TASK_SUFFIX` (as in the per-run file names).
    pub fn output_name(&self) -> String {
        match &self.suffix {
            Some(s) => format!("{}_{s}", self.task.as_str()),
            None => self.task.as_str().to_string(),
        }
    }
}

/// A sort key of a ranking.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SortKey {
    /// The System cell (quoted as in the file), byte order.
    System,
    /// The Evaluation cell (quoted as in the file), byte order.
    Evaluation,
    /// The Label cell (quoted as in the file), byte order.
    Label,
    /// F1 compared as text, descending.
    F1Desc,
}

/// How one ranking file is made from the per-run score rows of a dataset and language.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingSpec {
    /// Part of the file name `ranking-DATASET-LANG-KIND-all.tsv`.
    pub kind: Name,
    /// Output names (`nerc_coarse`, `nel_relaxed`, …) whose rows feed the ranking.
    pub outputs: Vec<Name>,
    /// Evaluation must start with one of these.
    pub prefixes: Vec<String>,
    /// Evaluation must contain every one of these.
    pub contains: Vec<String>,
    /// Evaluation must contain none of these.
    pub excludes: Vec<String>,
    /// Evaluation must end with this.
    pub suffix: Option<String>,
    /// Only runs of these bundles (all when absent).
    pub bundles: Option<Vec<Name>>,
    /// Sort keys, most significant first; the whole line breaks remaining ties.
    pub order: Vec<SortKey>,
}

// The file as written; every value that is checked after parsing keeps its place (span).
type S<T> = Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignFile {
    name: String,
    edition: S<String>,
    run_pattern: S<String>,
    gold_pattern: S<String>,
    #[serde(default)]
    tagset: Option<S<String>>,
    #[serde(default)]
    fair: bool,
    #[serde(default)]
    inspect: bool,
    #[serde(default)]
    detailed_results_public: bool,
    #[serde(default)]
    reveal_gold: bool,
    #[serde(default)]
    bootstrap: Option<S<usize>>,
    #[serde(default)]
    bootstrap_seed: Option<S<u64>>,
    #[serde(default)]
    bootstrap_confidence: Option<S<f64>>,
    #[serde(default)]
    breakdown: Option<S<Keys>>,
    #[serde(default)]
    train: Option<S<String>>,
    datasets: IndexMap<String, DatasetFile>,
    #[serde(rename = "task")]
    tasks: Vec<S<TaskFile>>,
    bundles: IndexMap<String, Vec<S<String>>>,
    #[serde(default, rename = "ranking")]
    rankings: Vec<S<RankingFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DatasetFile {
    languages: S<Vec<S<String>>>,
    #[serde(default)]
    map: Option<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskFile {
    task: Task,
    #[serde(default)]
    suffix: Option<S<String>>,
    #[serde(default)]
    n_best: Option<S<Vec<usize>>>,
    #[serde(default)]
    gold_pattern: Option<S<String>>,
    #[serde(default)]
    normalize: bool,
    #[serde(default)]
    tagset: Option<S<String>>,
    #[serde(default)]
    breakdown: Option<S<Keys>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RankingFile {
    kind: S<String>,
    outputs: Vec<S<String>>,
    prefixes: Vec<String>,
    #[serde(default)]
    contains: Vec<String>,
    #[serde(default)]
    excludes: Vec<String>,
    #[serde(default)]
    suffix: Option<String>,
    #[serde(default)]
    bundles: Option<Vec<S<String>>>,
    order: Vec<SortKey>,
}

impl Campaign {
    /// The embedded preset of that name.
    pub fn preset(name: &str) -> Result<Campaign> {
        match PRESETS.iter().find(|(n, _)| *n == name) {
            Some((n, text)) => Campaign::from_toml(text, Path::new(&format!("presets/{n}.toml"))),
            None => {
                let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
                Err(Error::usage(format!(
                    "unknown preset {name:?} (known: {})",
                    names.join(", ")
                )))
            }
        }
    }

    /// Reads (through the input guard) and validates a campaign file.
    pub fn from_file(path: &Path) -> Result<Campaign> {
        let text = crate::io::read_text(path)?;
        Campaign::from_toml(&text, path)
    }

    /// Parses and validates campaign TOML; `path` is only used in error messages.
    pub fn from_toml(text: &str, path: &Path) -> Result<Campaign> {
        let src = Source { text, path };
        let file: CampaignFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| src.line(s.start)).unwrap_or(0);
            Error::input(
                path,
                line,
                format!("invalid campaign: {}", crate::error::one_line(e.message())),
            )
        })?;
        Campaign::validate(file, &src)
    }

    fn validate(file: CampaignFile, src: &Source<'_>) -> Result<Campaign> {
        let edition = Edition::parse(file.edition.get_ref()).map_err(|_| {
            src.err(
                &file.edition,
                format!(
                    "unknown edition {:?} (known: hipe-2020, hipe-2022)",
                    file.edition.get_ref()
                ),
            )
        })?;
        let bootstrap = Campaign::bootstrap(&file, src)?;
        let run_pattern = src.pattern(&file.run_pattern, "run_pattern", RUN_PLACEHOLDERS)?;
        let gold_pattern = src.pattern(&file.gold_pattern, "gold_pattern", GOLD_PLACEHOLDERS)?;
        for needed in [Placeholder::Bundle, Placeholder::Lang] {
            if !run_pattern.has(needed) {
                return Err(src.err(
                    &file.run_pattern,
                    format!("run_pattern lacks {{{}}}", needed.as_str()),
                ));
            }
        }
        let tagset = file
            .tagset
            .as_ref()
            .filter(|t| !t.get_ref().is_empty())
            .map(|t| src.name(t, "tagset"))
            .transpose()?;
        if file.datasets.is_empty() {
            return Err(Error::input(src.path, 0, "invalid campaign: no datasets"));
        }
        if !run_pattern.has(Placeholder::Dataset) && file.datasets.len() > 1 {
            return Err(src.err(
                &file.run_pattern,
                "run_pattern lacks {dataset} but there are several datasets",
            ));
        }
        let mut datasets = IndexMap::new();
        let from = text_offset(src.text, "[datasets").max(text_offset(src.text, "datasets"));
        for (name, ds) in file.datasets {
            let key = src.key(&name, from, "dataset name")?;
            if ds.languages.get_ref().is_empty() {
                return Err(src.err(&ds.languages, format!("dataset {key} has no languages")));
            }
            src.once(ds.languages.get_ref(), &format!("dataset {key}: language"))?;
            let mut languages = Vec::new();
            for l in ds.languages.get_ref() {
                languages.push(src.name(l, &format!("dataset {key}: language"))?);
            }
            let map = ds
                .map
                .as_ref()
                .map(|m| src.name(m, &format!("dataset {key}: map")))
                .transpose()?;
            datasets.insert(key, Dataset { languages, map });
        }
        let mut tasks = IndexMap::new();
        for t in &file.tasks {
            let spec = Campaign::task(t, src, &datasets)?;
            let name = Name::new(&spec.output_name())
                .map_err(|e| src.err(t, format!("output name {e}")))?;
            if tasks.contains_key(&name) {
                return Err(src.err(t, format!("output {name} is defined twice")));
            }
            tasks.insert(name, spec);
        }
        let written = breakdown::Written {
            top: file.breakdown.as_ref(),
            train: file.train.as_ref(),
            outputs: (tasks.iter().zip(&file.tasks))
                .map(|((n, spec), t)| (n, spec.task, t.get_ref().breakdown.as_ref()))
                .collect(),
        };
        let own = tasks.iter().map(|(n, t)| (n.clone(), t.breakdown.clone()));
        let (breakdown, train) = breakdown::campaign(src, &written, &own.collect())?;
        let mut bundles = IndexMap::new();
        for (bundle, outs) in &file.bundles {
            let id = src.key(bundle, 0, "bundle id")?;
            src.once(outs, &format!("bundle {id}: output"))?;
            let mut names = Vec::new();
            for o in outs {
                match tasks.get_key_value(o.get_ref().as_str()) {
                    Some((n, _)) => names.push(n.clone()),
                    None => {
                        return Err(src.err(
                            o,
                            format!("bundle {id} names unknown output {:?}", o.get_ref()),
                        ))
                    }
                }
            }
            bundles.insert(id, names);
        }
        let mut rankings = Vec::new();
        for r in &file.rankings {
            let spec = Campaign::ranking(r, src, &tasks, &bundles)?;
            if rankings.iter().any(|o: &RankingSpec| o.kind == spec.kind) {
                return Err(src.err(r, format!("ranking kind {} is given twice", spec.kind)));
            }
            rankings.push(spec);
        }
        Ok(Campaign {
            name: file.name,
            edition,
            run_pattern,
            gold_pattern,
            tagset,
            fair: file.fair,
            inspect: file.inspect,
            detailed_results_public: file.detailed_results_public,
            reveal_gold: file.reveal_gold,
            bootstrap,
            breakdown,
            train,
            datasets,
            tasks,
            bundles,
            rankings,
        })
    }

    /// `bootstrap = N`, `bootstrap_seed = S`, `bootstrap_confidence = C`; seed and confidence
    /// only with `bootstrap`.
    fn bootstrap(file: &CampaignFile, src: &Source<'_>) -> Result<Option<Resampler>> {
        let (seed, conf) = (&file.bootstrap_seed, &file.bootstrap_confidence);
        let Some(n) = &file.bootstrap else {
            return match (seed, conf) {
                (Some(s), _) => Err(src.err(s, "bootstrap_seed goes with bootstrap = N")),
                (_, Some(c)) => Err(src.err(c, "bootstrap_confidence goes with bootstrap = N")),
                _ => Ok(None),
            };
        };
        if let Some(c) = conf
            .as_ref()
            .filter(|c| !(*c.get_ref() > 0.0 && *c.get_ref() < 1.0))
        {
            let msg = format!(
                "bootstrap_confidence {} is not strictly between 0 and 1",
                c.get_ref()
            );
            return Err(src.err(c, msg));
        }
        let (seed, conf) = (
            seed.as_ref().map(|s| *s.get_ref()),
            conf.as_ref().map(|c| *c.get_ref()),
        );
        crate::eval::bootstrap::resampler("bootstrap", *n.get_ref(), seed, conf)
            .map(Some)
            .map_err(|e| src.err(n, e.to_string().trim_start_matches("usage: ")))
    }

    fn task(
        t: &S<TaskFile>,
        src: &Source<'_>,
        datasets: &IndexMap<Name, Dataset>,
    ) -> Result<TaskSpec> {
        let f = t.get_ref();
        let suffix = f
            .suffix
            .as_ref()
            .map(|s| src.name(s, "suffix"))
            .transpose()?;
        let n_best = match &f.n_best {
            Some(n) if n.get_ref().is_empty() || n.get_ref().contains(&0) => {
                return Err(src.err(n, "n_best must be a list of numbers ≥ 1"))
            }
            Some(n) => match crate::eval::options::first_repeat(n.get_ref().iter()) {
                Some(x) => return Err(src.err(n, format!("n_best: {x} is given twice"))),
                None => n.get_ref().clone(),
            },
            None => vec![1],
        };
        let gold_pattern = f
            .gold_pattern
            .as_ref()
            .map(|g| src.pattern(g, "gold_pattern", GOLD_PLACEHOLDERS))
            .transpose()?;
        let tagset = match &f.tagset {
            None => None,
            Some(s) if s.get_ref().is_empty() => Some(None),
            Some(s) => Some(Some(src.name(s, "tagset")?)),
        };
        let mut spec = TaskSpec {
            task: f.task,
            suffix,
            n_best,
            gold_pattern,
            normalize: f.normalize,
            tagset,
            breakdown: None,
        };
        let what = format!("{}: breakdown: ", spec.output_name());
        spec.breakdown = (f.breakdown.as_ref())
            .map(|b| breakdown::keys(src, b, &what))
            .transpose()?;
        if spec.normalize {
            if let Some((d, _)) = datasets.iter().find(|(_, d)| d.map.is_none()) {
                return Err(src.err(
                    t,
                    format!(
                        "{} normalizes runs but dataset {d} has no map",
                        spec.output_name()
                    ),
                ));
            }
        }
        Ok(spec)
    }

    fn ranking(
        r: &S<RankingFile>,
        src: &Source<'_>,
        tasks: &IndexMap<Name, TaskSpec>,
        bundles: &IndexMap<Name, Vec<Name>>,
    ) -> Result<RankingSpec> {
        let f = r.get_ref();
        let kind = src.name(&f.kind, "ranking kind")?;
        if f.order.is_empty() || f.prefixes.is_empty() || f.outputs.is_empty() {
            return Err(src.err(
                r,
                format!("ranking {kind} needs outputs, prefixes and an order"),
            ));
        }
        src.once(&f.outputs, &format!("ranking {kind}: output"))?;
        let mut outputs = Vec::new();
        for o in &f.outputs {
            match tasks.get_key_value(o.get_ref().as_str()) {
                Some((n, _)) => outputs.push(n.clone()),
                None => {
                    return Err(src.err(
                        o,
                        format!("ranking {kind} names unknown output {:?}", o.get_ref()),
                    ))
                }
            }
        }
        let mut only = None;
        if let Some(bs) = &f.bundles {
            src.once(bs, &format!("ranking {kind}: bundle"))?;
            let mut names = Vec::new();
            for b in bs {
                match bundles.get_key_value(b.get_ref().as_str()) {
                    Some((n, _)) => names.push(n.clone()),
                    None => {
                        return Err(src.err(
                            b,
                            format!("ranking {kind} names unknown bundle {:?}", b.get_ref()),
                        ))
                    }
                }
            }
            only = Some(names);
        }
        Ok(RankingSpec {
            kind,
            outputs,
            prefixes: f.prefixes.clone(),
            contains: f.contains.clone(),
            excludes: f.excludes.clone(),
            suffix: f.suffix.clone(),
            bundles: only,
            order: f.order.clone(),
        })
    }

    /// Gold file name of an output for a dataset and language.
    pub fn gold_file(&self, output: &TaskSpec, dataset: &str, lang: &str) -> String {
        let pattern = output.gold_pattern.as_ref().unwrap_or(&self.gold_pattern);
        fill_gold(pattern, dataset, lang)
    }

    /// Tagset file name of an output, if any.
    pub fn tagset_file<'a>(&'a self, output: &'a TaskSpec) -> Option<&'a Name> {
        match &output.tagset {
            Some(over) => over.as_ref(),
            None => self.tagset.as_ref(),
        }
    }

    /// The breakdown keys of an output: its own, else the campaign's; none for NEL.
    pub fn breakdown_of<'a>(&'a self, output: &'a TaskSpec) -> &'a [String] {
        match (output.task, &output.breakdown) {
            (Task::Nel, _) => &[],
            (_, Some(own)) => own,
            (_, None) => &self.breakdown,
        }
    }

    /// The training file (in the resources directory) an output reads for a dataset and
    /// language: when its breakdown keys read one.
    pub fn train_file(&self, output: &TaskSpec, dataset: &str, lang: &str) -> Option<String> {
        let keys = self.breakdown_of(output);
        (breakdown::reads_train(keys))
            .then(|| self.train.as_ref().map(|t| fill_gold(t, dataset, lang)))
            .flatten()
    }

    /// The outputs of a bundle with their specs, in the bundle's order.
    pub fn outputs_of(&self, bundle: &str) -> impl Iterator<Item = (&Name, &TaskSpec)> {
        self.bundles
            .get(bundle)
            .into_iter()
            .flatten()
            .filter_map(|n| self.tasks.get_key_value(n.as_str()))
    }
}

/// Where `needle` first occurs in `text` (0 when it does not).
fn text_offset(text: &str, needle: &str) -> usize {
    text.find(needle).unwrap_or(0)
}

/// A gold file name from a gold pattern.
pub fn fill_gold(pattern: &Pattern, dataset: &str, lang: &str) -> String {
    pattern.fill(&[(Placeholder::Dataset, dataset), (Placeholder::Lang, lang)])
}

#[cfg(test)]
mod tests;
