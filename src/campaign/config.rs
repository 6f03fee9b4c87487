//! Campaign configuration: the TOML data that describes a shared task (datasets, languages,
//! run-name pattern, gold-file pattern, bundles → tasks, QID maps, ranking recipes), its
//! validation, and the embedded presets (`presets/*.toml`).

use std::path::Path;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::Task;
use crate::{Error, Result};

/// Names of the embedded presets, in the order they are listed to the user.
pub const PRESETS: &[(&str, &str)] = &[
    ("hipe-2022", include_str!("../../presets/hipe-2022.toml")),
    ("hipe-2020", include_str!("../../presets/hipe-2020.toml")),
];

/// A campaign as written in TOML (see `presets/hipe-2022.toml` for a commented example).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    pub name: String,
    pub edition: String,
    pub run_pattern: String,
    pub gold_pattern: String,
    #[serde(default)]
    pub tagset: Option<String>,
    /// Ask the scorer for the fair (Ortmann 2022) regime too; the HTML then shows its
    /// confusion matrices.
    #[serde(default)]
    pub fair: bool,
    pub datasets: IndexMap<String, Dataset>,
    #[serde(rename = "task")]
    pub tasks: Vec<TaskSpec>,
    pub bundles: IndexMap<String, Vec<String>>,
    #[serde(default, rename = "ranking")]
    pub rankings: Vec<RankingSpec>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Dataset {
    pub languages: Vec<String>,
    /// QID mapping file (in the resources directory) used to normalize runs for relaxed NEL.
    #[serde(default)]
    pub map: Option<String>,
}

/// One per-run output: a task, optionally with a suffix and its own gold pattern.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TaskSpec {
    pub task: Task,
    #[serde(default)]
    pub suffix: Option<String>,
    #[serde(default = "default_n_best")]
    pub n_best: Vec<usize>,
    /// Gold pattern for this output instead of the campaign's.
    #[serde(default)]
    pub gold_pattern: Option<String>,
    /// Normalize the run with the dataset's map (`--norm-time --norm-histo`) before scoring.
    #[serde(default)]
    pub normalize: bool,
    /// Tagset for this output instead of the campaign's; "" means none.
    #[serde(default)]
    pub tagset: Option<String>,
}

fn default_n_best() -> Vec<usize> {
    vec![1]
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
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SortKey {
    System,
    Evaluation,
    Label,
    /// F1 compared as text, descending.
    F1Desc,
}

/// How one ranking file is made from the per-run TSVs of a dataset and language.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RankingSpec {
    pub kind: String,
    /// Output names (`nerc_coarse`, `nel_relaxed`, …) whose TSV rows feed the ranking.
    pub outputs: Vec<String>,
    /// Evaluation must start with one of these.
    pub prefixes: Vec<String>,
    /// Evaluation must contain every one of these.
    #[serde(default)]
    pub contains: Vec<String>,
    /// Evaluation must contain none of these.
    #[serde(default)]
    pub excludes: Vec<String>,
    /// Evaluation must end with this.
    #[serde(default)]
    pub suffix: Option<String>,
    /// Only runs of these bundles (all when absent).
    #[serde(default)]
    pub bundles: Option<Vec<String>>,
    pub order: Vec<SortKey>,
}

/// A validated campaign. `tasks` is keyed by output name, in file order.
#[derive(Debug, Clone)]
pub struct Campaign {
    pub name: String,
    pub edition: String,
    pub run_pattern: String,
    pub gold_pattern: String,
    pub tagset: Option<String>,
    pub fair: bool,
    pub datasets: IndexMap<String, Dataset>,
    pub tasks: IndexMap<String, TaskSpec>,
    pub bundles: IndexMap<String, Vec<String>>,
    pub rankings: Vec<RankingSpec>,
}

const RUN_PLACEHOLDERS: &[&str] = &["team", "bundle", "dataset", "lang", "run"];
const GOLD_PLACEHOLDERS: &[&str] = &["dataset", "lang"];

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

    /// Reads and validates a campaign file.
    pub fn from_file(path: &Path) -> Result<Campaign> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::input(path, 0, format!("cannot read campaign file: {e}")))?;
        Campaign::from_toml(&text, path)
    }

    /// Parses and validates campaign TOML; `path` is only used in error messages.
    pub fn from_toml(text: &str, path: &Path) -> Result<Campaign> {
        let file: CampaignFile = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .and_then(|s| text.get(..s.start))
                .map(|before| before.matches('\n').count() + 1)
                .unwrap_or(0);
            Error::input(path, line, format!("invalid campaign: {}", e.message()))
        })?;
        Campaign::validate(file, path)
    }

    fn validate(file: CampaignFile, path: &Path) -> Result<Campaign> {
        let bad = |msg: String| Error::input(path, 0, format!("invalid campaign: {msg}"));
        check_pattern(&file.run_pattern, RUN_PLACEHOLDERS).map_err(&bad)?;
        check_pattern(&file.gold_pattern, GOLD_PLACEHOLDERS).map_err(&bad)?;
        let run_names = placeholders(&file.run_pattern);
        for needed in ["bundle", "lang"] {
            if !run_names.iter().any(|p| p == needed) {
                return Err(bad(format!("run_pattern lacks {{{needed}}}")));
            }
        }
        if file.datasets.is_empty() {
            return Err(bad("no datasets".into()));
        }
        if !run_names.iter().any(|p| p == "dataset") && file.datasets.len() > 1 {
            return Err(bad(
                "run_pattern lacks {dataset} but there are several datasets".into(),
            ));
        }
        for (name, ds) in &file.datasets {
            if name.is_empty() || ds.languages.is_empty() {
                return Err(bad(format!("dataset {name:?} has no name or no languages")));
            }
        }
        let mut tasks = IndexMap::new();
        for t in file.tasks {
            if let Some(g) = &t.gold_pattern {
                check_pattern(g, GOLD_PLACEHOLDERS).map_err(&bad)?;
            }
            if t.n_best.is_empty() || t.n_best.contains(&0) {
                return Err(bad(format!("{}: n_best must be ≥ 1", t.output_name())));
            }
            if t.normalize {
                if let Some((d, _)) = file.datasets.iter().find(|(_, d)| d.map.is_none()) {
                    return Err(bad(format!(
                        "{} normalizes runs but dataset {d} has no map",
                        t.output_name()
                    )));
                }
            }
            let name = t.output_name();
            if tasks.insert(name.clone(), t).is_some() {
                return Err(bad(format!("output {name} is defined twice")));
            }
        }
        for (bundle, outs) in &file.bundles {
            for o in outs {
                if !tasks.contains_key(o) {
                    return Err(bad(format!("bundle {bundle} names unknown output {o}")));
                }
            }
        }
        for r in &file.rankings {
            if r.kind.is_empty() || r.order.is_empty() || r.prefixes.is_empty() {
                return Err(bad(format!(
                    "ranking {:?} needs a kind, prefixes and an order",
                    r.kind
                )));
            }
            for o in &r.outputs {
                if !tasks.contains_key(o) {
                    return Err(bad(format!("ranking {} names unknown output {o}", r.kind)));
                }
            }
            for b in r.bundles.iter().flatten() {
                if !file.bundles.contains_key(b) {
                    return Err(bad(format!("ranking {} names unknown bundle {b}", r.kind)));
                }
            }
        }
        Ok(Campaign {
            name: file.name,
            edition: file.edition,
            run_pattern: file.run_pattern,
            gold_pattern: file.gold_pattern,
            tagset: file.tagset,
            fair: file.fair,
            datasets: file.datasets,
            tasks,
            bundles: file.bundles,
            rankings: file.rankings,
        })
    }

    /// Gold file name of an output for a dataset and language.
    pub fn gold_file(&self, output: &TaskSpec, dataset: &str, lang: &str) -> String {
        let pattern = output.gold_pattern.as_deref().unwrap_or(&self.gold_pattern);
        fill_gold(pattern, dataset, lang)
    }

    /// Tagset file name of an output, if any.
    pub fn tagset_file<'a>(&'a self, output: &'a TaskSpec) -> Option<&'a str> {
        match output.tagset.as_deref().or(self.tagset.as_deref()) {
            Some("") | None => None,
            Some(t) => Some(t),
        }
    }
}

/// A gold file name from a gold pattern.
pub fn fill_gold(pattern: &str, dataset: &str, lang: &str) -> String {
    fill(pattern, &[("dataset", dataset), ("lang", lang)])
}

/// The pieces of a pattern: literal text and `{name}` placeholders, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    Lit(&'a str),
    Var(&'a str),
}

/// Splits a pattern into pieces. Errors on an unclosed brace.
pub fn pieces(pattern: &str) -> std::result::Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            out.push(Piece::Lit(&rest[..open]));
        }
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed {{ in pattern {pattern:?}"))?;
        out.push(Piece::Var(&rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Lit(rest));
    }
    Ok(out)
}

fn placeholders(pattern: &str) -> Vec<String> {
    pieces(pattern)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| match p {
            Piece::Var(v) => Some(v.to_string()),
            Piece::Lit(_) => None,
        })
        .collect()
}

fn check_pattern(pattern: &str, allowed: &[&str]) -> std::result::Result<(), String> {
    let ps = pieces(pattern)?;
    let mut prev_var = false;
    for p in &ps {
        match p {
            Piece::Var(v) => {
                if !allowed.contains(v) {
                    return Err(format!(
                        "unknown placeholder {{{v}}} in {pattern:?} (allowed: {})",
                        allowed.join(", ")
                    ));
                }
                if prev_var {
                    return Err(format!("two placeholders touch in {pattern:?}"));
                }
                prev_var = true;
            }
            Piece::Lit(_) => prev_var = false,
        }
    }
    Ok(())
}

/// Fills `{name}` placeholders; unknown ones are left as written.
pub fn fill(pattern: &str, values: &[(&str, &str)]) -> String {
    let mut out = pattern.to_string();
    for (k, v) in values {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_validate() {
        let c = Campaign::preset("hipe-2022").unwrap();
        assert_eq!(c.tasks.len(), 4);
        assert_eq!(c.rankings.len(), 8);
        assert_eq!(c.bundles["5"], vec!["nel", "nel_relaxed"]);
        let relaxed = &c.tasks["nel_relaxed"];
        assert_eq!(
            c.gold_file(relaxed, "ajmc", "de"),
            "HIPE-2022-v2.1-ajmc-test-de_histonorm.tsv"
        );
        assert_eq!(c.tagset_file(relaxed), Some("tagset-hipe2022-all.txt"));
        let c20 = Campaign::preset("hipe-2020").unwrap();
        assert_eq!(c20.tagset_file(&c20.tasks["nel"]), None);
        assert_eq!(c20.tagset_file(&c20.tasks["nerc_fine"]), Some("tagset.txt"));
        assert!(Campaign::preset("nope").is_err());
    }

    #[test]
    fn bad_campaigns_are_input_errors_with_line() {
        let text = "name = \"x\"\nedition = 3\n";
        let e = Campaign::from_toml(text, Path::new("c.toml")).unwrap_err();
        match e {
            Error::Input { line, .. } => assert_eq!(line, 2),
            other => panic!("{other:?}"),
        }
        let base = PRESETS[0].1;
        let broken = base.replace("{team}_bundle{bundle}", "{team}{bundle}");
        assert!(Campaign::from_toml(&broken, Path::new("c.toml")).is_err());
        let unknown = base.replace("4 = [\"nerc_coarse\"]", "4 = [\"nerc_mid\"]");
        let e = Campaign::from_toml(&unknown, Path::new("c.toml")).unwrap_err();
        assert!(e.to_string().contains("nerc_mid"), "{e}");
    }

    #[test]
    fn pattern_pieces() {
        assert_eq!(
            pieces("{team}_bundle{bundle}").unwrap(),
            vec![
                Piece::Var("team"),
                Piece::Lit("_bundle"),
                Piece::Var("bundle")
            ]
        );
        assert!(pieces("{team").is_err());
        assert_eq!(fill("a-{lang}-{x}", &[("lang", "de")]), "a-de-{x}");
    }
}
