//! What `agree` compares: the annotators, the documents, and each annotator's spans on each
//! document, read from a brat project (one folder per annotator, as bratiaa reads it) or from
//! one span file or directory per annotator.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::corpus::standoff::StandoffDoc;
use crate::error::{Error, Result};
use crate::formats::brat;

/// Annotators × documents.
#[derive(Debug, Clone)]
pub struct Project {
    /// The annotators, in report order.
    pub annotators: Vec<String>,
    /// The documents, by name, sorted.
    pub documents: Vec<String>,
    /// `[document][annotator]`: the annotator's spans on the document, if it annotated it.
    pub docs: Vec<Vec<Option<StandoffDoc>>>,
    /// The labels, sorted.
    pub labels: Vec<String>,
    /// Things the report should say about the inputs.
    pub warnings: Vec<String>,
}

impl Project {
    /// The text of document `d` (every annotator that has it has the same).
    pub fn text(&self, d: usize) -> &str {
        self.docs[d]
            .iter()
            .flatten()
            .next()
            .map(|x| x.text.as_str())
            .unwrap_or("")
    }
}

/// Builds a project from each annotator's documents (`conf_labels`: the labels a
/// configuration declares, if any).
pub fn assemble(
    annotators: Vec<String>,
    per_annotator: Vec<Vec<StandoffDoc>>,
    conf_labels: Option<Vec<String>>,
) -> Result<Project> {
    if annotators.len() < 2 {
        return Err(Error::usage(format!(
            "agree: at least two annotators are needed, found {}",
            annotators.len()
        )));
    }
    let n = annotators.len();
    let mut by_name: BTreeMap<String, Vec<Option<StandoffDoc>>> = BTreeMap::new();
    for (a, docs) in per_annotator.into_iter().enumerate() {
        for d in docs {
            let slot = by_name
                .entry(d.name.clone())
                .or_insert_with(|| vec![None; n]);
            if let Some(prev) = slot.iter().flatten().next() {
                if prev.text != d.text {
                    return Err(Error::input(
                        &d.path,
                        0,
                        format!(
                            "the text of document {} differs from {}'s: annotators must annotate \
                             the same text",
                            d.name,
                            prev.path.display()
                        ),
                    ));
                }
            }
            slot[a] = Some(d);
        }
    }
    let mut warnings = Vec::new();
    let partial: Vec<&String> = by_name
        .iter()
        .filter(|(_, v)| v.iter().any(Option::is_none))
        .map(|(k, _)| k)
        .collect();
    if !partial.is_empty() {
        warnings.push(format!(
            "{} document(s) not annotated by every annotator (pairs count only documents both \
             annotated; Krippendorff's alpha takes the missing labels): {}",
            partial.len(),
            partial
                .iter()
                .take(5)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut seen: Vec<String> = by_name
        .values()
        .flatten()
        .flatten()
        .flat_map(|d| d.spans.iter().map(|s| s.label.clone()))
        .collect();
    seen.sort();
    seen.dedup();
    let labels = match conf_labels {
        Some(mut conf) => {
            let extra: Vec<String> = seen.into_iter().filter(|l| !conf.contains(l)).collect();
            if !extra.is_empty() {
                warnings.push(format!(
                    "label(s) not declared in annotation.conf, counted too: {}",
                    extra.join(", ")
                ));
            }
            conf.extend(extra);
            conf.sort();
            conf
        }
        None => seen,
    };
    let (documents, docs) = by_name.into_iter().unzip();
    Ok(Project {
        annotators,
        documents,
        docs,
        labels,
        warnings,
    })
}

/// A brat project: every sub-directory of `root` (but hidden ones) is an annotator, its
/// `.ann` files (with their `.txt`) the documents, matched by relative path; the labels are
/// the entity types of `root/annotation.conf` when there is one.
pub fn brat_project(root: &Path) -> Result<Project> {
    let annotators = annotator_dirs(root)?;
    let docs = annotators
        .iter()
        .map(|a| brat::read_dir(&root.join(a)))
        .collect::<Result<Vec<_>>>()?;
    let conf = root.join("annotation.conf");
    let labels = match std::fs::symlink_metadata(&conf) {
        Err(_) => None,
        Ok(_) => {
            refuse_irregular(&conf)?;
            Some(brat::entity_types(&conf)?)
        }
    };
    assemble(annotators, docs, labels)
}

/// The annotators of the brat project at `root`, in report order: its sub-directories but
/// hidden ones, sorted by name.
pub fn annotator_dirs(root: &Path) -> Result<Vec<String>> {
    let entries =
        std::fs::read_dir(root).map_err(|e| Error::input(root, 0, crate::io::io_reason(&e)))?;
    let mut annotators: Vec<String> = entries
        .flatten()
        // A symbolic link to a directory is an annotator too (one level: no loop to fear).
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    annotators.sort();
    Ok(annotators)
}

/// Refuses a configuration that is there but is no regular file (a device, a FIFO, a
/// socket, a directory, a link to nothing): it is never silently ignored, nor read (a FIFO
/// would wait for a writer).
fn refuse_irregular(conf: &Path) -> Result<()> {
    let what = match std::fs::metadata(conf) {
        Ok(m) if m.is_file() => return Ok(()),
        Ok(m) if m.is_dir() => "a directory",
        Ok(_) => "a device, FIFO or socket",
        Err(_) => "a link to nothing",
    };
    Err(Error::input(
        conf,
        0,
        format!("{what}, expected a regular file (brat's configuration of the project's labels)"),
    ))
}

/// One annotator per path (a brat `.ann` file or directory, or a JSONL file), named after
/// the file (its stem; a number is added when two share one).
pub fn annotator_files(
    paths: &[PathBuf],
    read: impl Fn(&Path) -> Result<Vec<StandoffDoc>>,
) -> Result<Project> {
    let mut names: Vec<String> = Vec::new();
    let mut docs = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("annotator{}", i + 1));
        let mut name = stem.clone();
        let mut k = 2;
        while names.contains(&name) {
            name = format!("{stem}-{k}");
            k += 1;
        }
        names.push(name);
        docs.push(read(p)?);
    }
    // Files of one document each are matched as one document even when their names differ
    // (`T1` files of two annotators, JSON lines with other ids); otherwise by name.
    if docs.len() == paths.len()
        && paths.iter().all(|p| !p.is_dir())
        && docs.iter().all(|d| d.len() == 1)
    {
        for d in &mut docs {
            d[0].name = "document".to_string();
        }
    }
    assemble(names, docs, None)
}
