//! Finding the runs of a campaign: run-name pattern matching and the listing of the runs
//! directory (sorted by file name, byte order). Files that do not fit are kept with a reason.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::config::{pieces, Campaign, Piece};
use crate::{Error, Result};

/// A run file whose name fits the campaign's pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunInfo {
    pub path: PathBuf,
    /// File name, e.g. `team1_bundle4_ajmc_de_1.tsv`.
    pub file_name: String,
    /// File stem, e.g. `team1_bundle4_ajmc_de_1`.
    pub name: String,
    pub team: String,
    pub bundle: String,
    pub dataset: String,
    pub lang: String,
    pub run: String,
}

/// A file of the runs directory that is not scored, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejected {
    pub file_name: String,
    pub reason: String,
}

/// Runs and rejected files of a runs directory, both sorted by file name (byte order).
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    pub runs: Vec<RunInfo>,
    pub rejected: Vec<Rejected>,
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
            }),
        }
    }
    names.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (file_name, path) in names {
        match classify(cfg, &file_name) {
            Ok(mut run) => {
                run.path = path;
                out.runs.push(run);
            }
            Err(reason) => out.rejected.push(Rejected { file_name, reason }),
        }
    }
    out.rejected
        .sort_by(|a, b| a.file_name.as_bytes().cmp(b.file_name.as_bytes()));
    Ok(out)
}

/// Matches one file name against the campaign (`path` is left empty). The error is the
/// reason shown to the user.
pub fn classify(cfg: &Campaign, file_name: &str) -> std::result::Result<RunInfo, String> {
    let Some(stem) = file_name.strip_suffix(".tsv") else {
        return Err("not a .tsv file".into());
    };
    let pattern = pieces(&cfg.run_pattern).map_err(|e| e.to_string())?;
    let mut matches = Vec::new();
    match_pieces(&pattern, stem, &mut Vec::new(), &mut matches);
    if matches.is_empty() {
        return Err(format!(
            "name does not fit the pattern {}.tsv",
            cfg.run_pattern
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
    Err(first_reason.unwrap_or_default())
}

fn to_run(
    cfg: &Campaign,
    file_name: &str,
    stem: &str,
    m: &[(&str, &str)],
) -> std::result::Result<RunInfo, String> {
    let get = |k: &str| m.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
    let dataset = match get("dataset") {
        Some(d) => d,
        None => cfg.datasets.keys().next().cloned().unwrap_or_default(),
    };
    let Some(ds) = cfg.datasets.get(&dataset) else {
        return Err(format!(
            "dataset {dataset:?} is not one of the campaign's ({})",
            cfg.datasets.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    };
    let lang = get("lang").unwrap_or_default();
    if !ds.languages.contains(&lang) {
        return Err(format!(
            "language {lang:?} is not one of dataset {dataset}'s ({})",
            ds.languages.join(", ")
        ));
    }
    let bundle = get("bundle").unwrap_or_default();
    if !cfg.bundles.contains_key(&bundle) {
        return Err(format!(
            "bundle {bundle:?} is not one of the campaign's ({})",
            cfg.bundles.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(RunInfo {
        path: PathBuf::new(),
        file_name: file_name.to_string(),
        name: stem.to_string(),
        team: get("team").unwrap_or_default(),
        bundle,
        dataset,
        lang,
        run: get("run").unwrap_or_default(),
    })
}

/// All ways `text` fits the pattern, each placeholder taking a non-empty value. Bounded: a
/// pattern has a handful of placeholders and names are short.
fn match_pieces<'p, 't>(
    pattern: &[Piece<'p>],
    text: &'t str,
    bound: &mut Vec<(&'p str, &'t str)>,
    out: &mut Vec<Vec<(&'p str, &'t str)>>,
) {
    if out.len() >= 64 {
        return;
    }
    match pattern.split_first() {
        None => {
            if text.is_empty() {
                out.push(bound.clone());
            }
        }
        Some((Piece::Lit(l), rest)) => {
            if let Some(t) = text.strip_prefix(l) {
                match_pieces(rest, t, bound, out);
            }
        }
        Some((Piece::Var(v), rest)) => {
            for (i, _) in text.char_indices().skip(1).chain([(text.len(), ' ')]) {
                bound.push((v, &text[..i]));
                match_pieces(rest, &text[i..], bound, out);
                bound.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hipe() -> Campaign {
        Campaign::preset("hipe-2022").unwrap()
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
        let e = classify(&c, "team1_bundle9_ajmc_en_1.tsv").unwrap_err();
        assert!(e.contains("bundle \"9\""), "{e}");
        let e = classify(&c, "team1_bundle1_ajmc_sv_1.tsv").unwrap_err();
        assert!(e.contains("language \"sv\""), "{e}");
        let e = classify(&c, "team1_bundle1_hipe_en_1.tsv").unwrap_err();
        assert!(e.contains("dataset \"hipe\""), "{e}");
        assert!(classify(&c, "readme.txt").unwrap_err().contains(".tsv"));
        assert!(classify(&c, "foo.tsv").unwrap_err().contains("pattern"));
    }

    #[test]
    fn single_dataset_campaign_without_dataset_in_names() {
        let c = Campaign::preset("hipe-2020").unwrap();
        let r = classify(&c, "l3i_bundle1_de_1.tsv").unwrap();
        assert_eq!((r.dataset.as_str(), r.lang.as_str()), ("hipe2020", "de"));
    }
}
