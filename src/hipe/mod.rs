//! The HIPE vocabulary, a leaf every layer may use: tasks, editions and the columns they
//! score, and the file-name rules of the campaigns.

use crate::error::{Error, Result};
use std::path::Path;

/// The evaluation task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// Coarse-grained named-entity recognition and classification (`nerc_coarse`).
    NercCoarse,
    /// Fine-grained named-entity recognition and classification (`nerc_fine`).
    NercFine,
    /// Named-entity linking (`nel`).
    Nel,
}

impl Task {
    /// The task's name as on the command line and in file names: `nerc_coarse`, `nerc_fine`
    /// or `nel`.
    pub fn as_str(self) -> &'static str {
        match self {
            Task::NercCoarse => "nerc_coarse",
            Task::NercFine => "nerc_fine",
            Task::Nel => "nel",
        }
    }

    /// The task named `s` (exactly as [`Task::as_str`] spells it); a usage error otherwise.
    pub fn parse(s: &str) -> Result<Task> {
        match s {
            "nerc_coarse" => Ok(Task::NercCoarse),
            "nerc_fine" => Ok(Task::NercFine),
            "nel" => Ok(Task::Nel),
            _ => Err(Error::usage(format!(
                "unknown task {s:?}; use one of nerc_coarse, nerc_fine, nel"
            ))),
        }
    }
}

/// The HIPE edition: decides the columns and the file-name convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edition {
    /// HIPE 2020 (CLEF 2020).
    Hipe2020,
    /// HIPE 2022 (CLEF 2022).
    Hipe2022,
}

impl Edition {
    /// The edition named `s` (`hipe-2020` or `hipe-2022`, any case); a usage error otherwise.
    pub fn parse(s: &str) -> Result<Edition> {
        match s.to_ascii_uppercase().as_str() {
            "HIPE-2020" => Ok(Edition::Hipe2020),
            "HIPE-2022" => Ok(Edition::Hipe2022),
            _ => Err(Error::usage(format!(
                "unknown HIPE edition {s:?}; use hipe-2020 or hipe-2022"
            ))),
        }
    }

    /// The edition's lower-case name: `hipe-2020` or `hipe-2022`.
    pub fn name(self) -> &'static str {
        match self {
            Edition::Hipe2020 => "hipe-2020",
            Edition::Hipe2022 => "hipe-2022",
        }
    }

    /// The other edition (there are two).
    pub fn other(self) -> Edition {
        match self {
            Edition::Hipe2020 => Edition::Hipe2022,
            Edition::Hipe2022 => Edition::Hipe2020,
        }
    }

    /// The columns a task scores, and for NEL the NE column bounding each link column.
    pub fn columns(self, task: Task) -> &'static [(&'static str, &'static str)] {
        match (self, task) {
            (Edition::Hipe2020, Task::NercCoarse) => {
                &[("NE-COARSE-LIT", ""), ("NE-COARSE-METO", "")]
            }
            (Edition::Hipe2020, Task::NercFine) => &[
                ("NE-FINE-LIT", ""),
                ("NE-FINE-METO", ""),
                ("NE-FINE-COMP", ""),
                ("NE-NESTED", ""),
            ],
            (Edition::Hipe2020, Task::Nel) => {
                &[("NEL-LIT", "NE-COARSE-LIT"), ("NEL-METO", "NE-COARSE-METO")]
            }
            (Edition::Hipe2022, Task::NercCoarse) => &[("NE-COARSE-LIT", "")],
            (Edition::Hipe2022, Task::NercFine) => &[("NE-FINE-LIT", ""), ("NE-NESTED", "")],
            (Edition::Hipe2022, Task::Nel) => &[("NEL-LIT", "NE-COARSE-LIT")],
        }
    }
}

/// Checks the run's file name against the edition's convention and returns the System name
/// (the lower-cased file stem).
pub fn check_file_name(pred: &str, edition: Edition) -> Result<String> {
    let lower = pred.to_lowercase();
    let path = Path::new(&lower);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parts: Vec<&str> = stem.split('_').collect();
    let py_int = |s: &str| s.trim().parse::<i64>().ok();
    let bundle_ok = |b: &str| {
        py_int(b.trim_start_matches(['b', 'u', 'n', 'd', 'l', 'e']))
            .is_some_and(|n| (1..=5).contains(&n))
    };
    let rule = |edition: Edition| match edition {
        Edition::Hipe2020 => (
            ext == "tsv"
                && parts.len() == 4
                && bundle_ok(parts[1])
                && ["de", "fr", "en"].contains(&parts[2]),
            "TEAMNAME_TASKBUNDLEID_LANG_RUNNUMBER.tsv",
            "HIPE 2020",
        ),
        Edition::Hipe2022 => (
            ext == "tsv"
                && parts.len() == 5
                && bundle_ok(parts[1])
                && HIPE2022_DATASETS.contains(&parts[2])
                && HIPE2022_LANGS.contains(&parts[3])
                && py_int(parts[4]).is_some_and(|n| (1..=2).contains(&n)),
            "TEAMNAME_TASKBUNDLEID_DATASETALIAS_LANG_RUNNUMBER.tsv",
            "HIPE 2022",
        ),
    };
    let (ok, scheme, edition_name) = rule(edition);
    if !ok {
        let other = edition.other();
        let (other_ok, other_scheme, _) = rule(other);
        let message = if other_ok {
            format!(
                "this looks like a {} run (its name follows that edition's convention {other_scheme}, not the {edition_name} one): add --hipe_edition {}",
                other.name(),
                other.name()
            )
        } else {
            format!(
                "the file name does not follow the {edition_name} convention {scheme}; rename the file or pass --skip-check"
            )
        };
        return Err(Error::input(Path::new(pred), 0, message));
    }
    Ok(stem)
}

/// The official output file name: `.tsv` in the run's file name replaced by
/// `_<task>[_<suffix>].<ext>` (appended when the name has no `.tsv`).
pub fn output_name(pred: &str, task: Task, suffix: Option<&str>, ext: &str) -> String {
    let name = Path::new(pred)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| pred.to_string());
    let tail = match suffix {
        Some(s) if !s.is_empty() => format!("_{}_{s}.{ext}", task.as_str()),
        _ => format!("_{}.{ext}", task.as_str()),
    };
    if name.contains(".tsv") {
        name.replace(".tsv", &tail)
    } else {
        format!("{name}{tail}")
    }
}

/// The data set aliases of the HIPE-2022 file-name convention.
pub const HIPE2022_DATASETS: [&str; 6] = [
    "ajmc",
    "newseye",
    "hipe2020",
    "topres19th",
    "sonar",
    "letemps",
];

/// The languages of the HIPE-2022 file-name convention.
pub const HIPE2022_LANGS: [&str; 5] = ["de", "fr", "en", "sv", "fi"];

/// Checks a value that becomes part of an output file name (`--suffix`, a campaign's task
/// suffix or run name): no path separators, no `..`, no control characters, not empty.
pub fn check_name_part(option: &str, value: &str) -> Result<()> {
    let bad = if value.is_empty() {
        Some("is empty")
    } else if value.contains(['/', '\\']) {
        Some("contains a path separator")
    } else if value.contains("..") {
        Some("contains `..`")
    } else if value.chars().any(char::is_control) {
        Some("contains a control character")
    } else {
        None
    };
    match bad {
        Some(why) => Err(Error::usage(format!(
            "{option} {:?} {why}: it becomes part of output file names; use letters, digits, `-` and `_`",
            value
        ))),
        None => Ok(()),
    }
}
