//! The participants' check of a submitted run, as `fairscore check` checks it, and which of
//! a run's errors are the participant's.

use std::path::{Path, PathBuf};

use crate::campaign::families::FamilyTask;
use crate::check::{CheckReport, ColumnCheck};
use crate::error::{Error, Result};
use crate::formats::InputFormat;

/// What makes two checks of a run the same: gold, run, format, column, tag set and label
/// list.
pub(super) type CheckKey = (
    PathBuf,
    PathBuf,
    Option<InputFormat>,
    Option<String>,
    Option<String>,
    Option<PathBuf>,
);

/// The key of the check of `run` against `gold` for task `t`.
pub(super) fn check_key(t: &FamilyTask, gold: &Path, run: &Path) -> CheckKey {
    let o = &t.options;
    (
        gold.to_path_buf(),
        run.to_path_buf(),
        o.format,
        o.column.clone(),
        o.tagset.clone(),
        t.label_list.as_ref().map(|l| l.path.clone()),
    )
}

/// The participants' check of a run, for the formats `check` reads as columns and for
/// standoff runs (given or detected) of the spans, fair and muc families; run labels are
/// checked against the task's label list when it has one (`label_list`), else the gold's. A
/// generative run placed on the gold's texts (`align`) is an entity list, which `check` does
/// not read: it is not checked (its scoring says what could not be placed).
pub(super) fn check_run(t: &FamilyTask, gold: &Path, run: &Path) -> Result<Option<CheckReport>> {
    if t.options.own("align").is_some() {
        return Ok(None);
    }
    let labels = t.label_list.as_ref().map(|l| l.path.as_path());
    let spans = matches!(t.family.name(), "spans" | "fair" | "muc");
    if spans && crate::eval::standoff::applies(gold, run, t.options.format) {
        let read = crate::eval::standoff::StandoffRead {
            format: t.options.format.and_then(InputFormat::standoff),
            column: t.options.column.clone(),
            docs: None,
        };
        let name = t.options.format.map_or("auto", InputFormat::name);
        return crate::check::check_standoff(gold, run, &read, name, labels).map(Some);
    }
    match t.options.format.or_else(|| detected_format(t, gold)) {
        Some(
            f @ (InputFormat::Conll | InputFormat::Conllu | InputFormat::Tsv | InputFormat::Text),
        ) => {
            let opts = ColumnCheck {
                column: t.options.column.clone(),
                tagset: t.options.tagset.clone(),
                labels: labels.map(Path::to_path_buf),
            };
            crate::check::check_columns(gold, run, f, &opts).map(Some)
        }
        _ => Ok(None),
    }
}

/// The format a task without `format` reads its gold and runs in, as the family tells it:
/// from the gold's first line (spans, fair, muc: CoNLL, HIPE or span files) or the gold's
/// extension (segmentation, tagging). `None` when it is none of the column formats.
fn detected_format(t: &FamilyTask, gold: &Path) -> Option<InputFormat> {
    use crate::family::segmentation::SegmentationFormat;
    use crate::family::tagging::TaggingFormat;
    match t.family.name() {
        "spans" | "fair" | "muc" => {
            let text = crate::io::read_text(gold).ok()?;
            match crate::formats::detect(gold, &text).ok()? {
                crate::formats::Format::Conll => Some(InputFormat::Conll),
                _ => None,
            }
        }
        "segmentation" => Some(match SegmentationFormat::from_path(gold) {
            SegmentationFormat::Conllu => InputFormat::Conllu,
            _ => InputFormat::Text,
        }),
        "tagging" => Some(match TaggingFormat::from_path(gold) {
            TaggingFormat::Conllu => InputFormat::Conllu,
            _ => InputFormat::Tsv,
        }),
        _ => None,
    }
}

/// Whether `e` is about the file `run` (what the participant sent), or a file in it (a brat
/// run's folder), not the gold.
pub(super) fn about(e: &Error, run: &Path) -> bool {
    matches!(e, Error::Input { path, .. } if path.starts_with(run))
}
