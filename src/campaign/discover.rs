//! Finding the runs of a campaign: run-name pattern matching and the listing of the runs
//! directory (sorted by file name, byte order). Files that do not fit are kept with a reason.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::config::{Campaign, Name, Placeholder};
use crate::{Error, Result};

/// A run file whose name fits the campaign's pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunInfo {
    /// Path of the run file in the runs directory.
    pub path: PathBuf,
    /// File name, e.g. `team1_bundle4_ajmc_de_1.tsv`.
    pub file_name: String,
    /// File stem, e.g. `team1_bundle4_ajmc_de_1`.
    pub name: String,
    /// The `{team}` part of the name (empty when the pattern has none).
    pub team: String,
    /// The `{bundle}` part of the name: one of the campaign's bundle ids.
    pub bundle: String,
    /// The `{dataset}` part of the name, or the campaign's only dataset when the pattern has none.
    pub dataset: String,
    /// The `{lang}` part of the name: one of the dataset's languages.
    pub lang: String,
    /// The `{run}` part of the name (empty when the pattern has none).
    pub run: String,
}

/// A file of the runs directory that is not scored, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejected {
    /// The file's name (lossily converted when not UTF-8).
    pub file_name: String,
    /// Why it is not scored, in a sentence for the user.
    pub reason: String,
    /// How close the name came to being a run.
    pub closeness: Closeness,
}

/// Runs and rejected files of a runs directory, both sorted by file name (byte order).
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    /// Files that fit the campaign, sorted by file name (byte order).
    pub runs: Vec<RunInfo>,
    /// Files that do not, sorted by file name (byte order).
    pub rejected: Vec<Rejected>,
    /// Files of another extension than the runs' (manifests, key files, READMEs): not runs,
    /// and not an error.
    pub ignored: Vec<String>,
}

/// Lists `runs_dir` (not recursively; hidden files and directories are ignored) and sorts its
/// files into runs and rejected files.
pub fn discover(cfg: &Campaign, runs_dir: &Path) -> Result<Discovery> {
    let entries = std::fs::read_dir(runs_dir)
        .map_err(|e| Error::input(runs_dir, 0, format!("cannot list runs directory: {e}")))?;
    let mut names: Vec<(String, PathBuf)> = Vec::new();
    let mut out = Discovery::default();
    for entry in entries {
        let entry =
            entry.map_err(|e| Error::input(runs_dir, 0, format!("cannot list directory: {e}")))?;
        let path = entry.path();
        if path.is_dir() {
            continue;
        }
        match entry.file_name().into_string() {
            Ok(n) if n.starts_with('.') => {}
            Ok(n) => names.push((n, path)),
            Err(raw) => out.rejected.push(Rejected {
                file_name: raw.to_string_lossy().into_owned(),
                reason: "file name is not UTF-8".into(),
                closeness: Closeness::Foreign,
            }),
        }
    }
    names.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (file_name, path) in names {
        // A FIFO or device named like a run would block or flood the scorer: never opened.
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            out.rejected.push(Rejected {
                file_name,
                reason: "not a regular file".into(),
                closeness: Closeness::Foreign,
            });
            continue;
        }
        match classify(cfg, &file_name) {
            Ok(mut run) => {
                run.path = path;
                out.runs.push(run);
            }
            // Another extension: a manifest, key file or README beside the runs.
            Err((_, Closeness::Foreign)) if !file_name.to_ascii_lowercase().ends_with(".tsv") => {
                out.ignored.push(file_name)
            }
            Err((reason, closeness)) => out.rejected.push(Rejected {
                file_name,
                reason,
                closeness,
            }),
        }
    }
    out.rejected
        .sort_by(|a, b| a.file_name.as_bytes().cmp(b.file_name.as_bytes()));
    refuse_case_twins(&out.runs, runs_dir)?;
    Ok(out)
}

/// Two runs whose names differ only in case would write outputs that collide on a
/// case-insensitive file system (and be ranked under one name there): an input error naming
/// both files.
fn refuse_case_twins(runs: &[RunInfo], dir: &Path) -> Result<()> {
    let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for r in runs {
        if let Some(first) = seen.insert(r.name.to_lowercase(), &r.file_name) {
            return Err(Error::input(
                dir,
                0,
                format!(
                    "runs {first} and {} differ only in case: their outputs would collide on a \
                     case-insensitive file system; rename one",
                    r.file_name
                ),
            ));
        }
    }
    Ok(())
}

/// How close a rejected file name came to being a run (higher is closer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Closeness {
    /// Not a `.tsv` file (or a name that is not UTF-8).
    Foreign,
    /// A `.tsv` file whose name does not fit the run pattern.
    OtherName,
    /// Fits the pattern, but names a dataset, language or bundle the campaign does not have.
    Fits,
}

/// Matches one file name against the campaign (`path` is left empty). The error is the
/// reason shown to the user and how close the name came.
pub fn classify(
    cfg: &Campaign,
    file_name: &str,
) -> std::result::Result<RunInfo, (String, Closeness)> {
    let Some(stem) = file_name.strip_suffix(".tsv") else {
        return Err(("not a .tsv file".into(), Closeness::Foreign));
    };
    let matches = cfg.run_pattern.matches(stem);
    if matches.is_empty() {
        return Err((
            format!("name does not fit the pattern {}.tsv", cfg.run_pattern),
            Closeness::OtherName,
        ));
    }
    let mut first_reason = None;
    for m in &matches {
        match to_run(cfg, file_name, stem, m) {
            Ok(run) => return Ok(run),
            Err(reason) => {
                first_reason.get_or_insert(reason);
            }
        }
    }
    Err((first_reason.unwrap_or_default(), Closeness::Fits))
}

fn to_run(
    cfg: &Campaign,
    file_name: &str,
    stem: &str,
    m: &[(Placeholder, &str)],
) -> std::result::Result<RunInfo, String> {
    let get = |k: Placeholder| m.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
    let dataset = match get(Placeholder::Dataset) {
        Some(d) => d,
        None => cfg
            .datasets
            .keys()
            .next()
            .map(|d| d.to_string())
            .unwrap_or_default(),
    };
    let Some(ds) = cfg.datasets.get(dataset.as_str()) else {
        return Err(format!(
            "dataset {dataset:?} is not one of the campaign's ({})",
            join(cfg.datasets.keys())
        ));
    };
    let lang = get(Placeholder::Lang).unwrap_or_default();
    if !ds.languages.iter().any(|l| *l == lang.as_str()) {
        return Err(format!(
            "language {lang:?} is not one of dataset {dataset}'s ({})",
            join(ds.languages.iter())
        ));
    }
    let bundle = get(Placeholder::Bundle).unwrap_or_default();
    if !cfg.bundles.contains_key(bundle.as_str()) {
        return Err(format!(
            "bundle {bundle:?} is not one of the campaign's ({})",
            join(cfg.bundles.keys())
        ));
    }
    Ok(RunInfo {
        path: PathBuf::new(),
        file_name: file_name.to_string(),
        name: stem.to_string(),
        team: get(Placeholder::Team).unwrap_or_default(),
        bundle,
        dataset,
        lang,
        run: get(Placeholder::Run).unwrap_or_default(),
    })
}

fn join<'a>(names: impl Iterator<Item = &'a Name>) -> String {
    names.map(Name::as_str).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hipe() -> Campaign {
        Campaign::preset("hipe-2022").unwrap()
    }

    #[test]
    fn manifests_and_key_files_are_ignored_not_rejected() {
        let dir = std::env::temp_dir().join(format!("fairscore-discover-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for f in [
            "team1_bundle1_ajmc_en_1.tsv",
            "TEAM_KEYS.txt",
            "team1_manifest.txt",
            "notes.tsv",
        ] {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        let d = discover(&hipe(), &dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(d.runs.len(), 1);
        assert_eq!(d.ignored, vec!["TEAM_KEYS.txt", "team1_manifest.txt"]);
        // A .tsv that fits no run name is still a problem.
        assert_eq!(d.rejected.len(), 1);
        assert_eq!(d.rejected[0].file_name, "notes.tsv");
    }

    #[test]
    fn classifies_hipe_names() {
        let c = hipe();
        let r = classify(&c, "team_x_bundle1_ajmc_en_2.tsv").unwrap();
        assert_eq!(
            (
                r.team.as_str(),
                r.bundle.as_str(),
                r.dataset.as_str(),
                r.lang.as_str(),
                r.run.as_str()
            ),
            ("team_x", "1", "ajmc", "en", "2")
        );
        assert_eq!(r.name, "team_x_bundle1_ajmc_en_2");
        let e = classify(&c, "team1_bundle9_ajmc_en_1.tsv").unwrap_err().0;
        assert!(e.contains("bundle \"9\""), "{e}");
        let e = classify(&c, "team1_bundle1_ajmc_sv_1.tsv").unwrap_err().0;
        assert!(e.contains("language \"sv\""), "{e}");
        let e = classify(&c, "team1_bundle1_hipe_en_1.tsv").unwrap_err().0;
        assert!(e.contains("dataset \"hipe\""), "{e}");
        assert!(classify(&c, "readme.txt").unwrap_err().0.contains(".tsv"));
        let (reason, closeness) = classify(&c, "foo.tsv").unwrap_err();
        assert!(reason.contains("pattern"));
        assert_eq!(closeness, Closeness::OtherName);
    }

    #[test]
    fn single_dataset_campaign_without_dataset_in_names() {
        let c = Campaign::preset("hipe-2020").unwrap();
        let r = classify(&c, "l3i_bundle1_de_1.tsv").unwrap();
        assert_eq!((r.dataset.as_str(), r.lang.as_str()), ("hipe2020", "de"));
    }
}
