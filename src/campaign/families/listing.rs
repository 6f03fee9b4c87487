//! The entries of a campaign's runs directory: files and brat run folders, by name.

use std::path::Path;

use crate::error::{Error, Result};

/// A runs directory's entries: each name and whether it is a folder (a brat run).
pub(super) type Entries = Vec<(String, bool)>;

/// The runs directory's entries (name, is a folder), sorted, without hidden ones, and the
/// names that are not UTF-8 (shown lossily, to be listed as rejected, never dropped).
pub(super) fn run_entries(runs_dir: &Path) -> Result<(Entries, Vec<String>)> {
    let mut odd: Vec<String> = Vec::new();
    // Each entry: its name and whether it is a folder (a brat run).
    let mut names: Entries = std::fs::read_dir(runs_dir)
        .map_err(|e| Error::input(runs_dir, 0, format!("cannot list the runs directory: {e}")))?
        .flatten()
        // A run is a file, or a directory of brat `.ann` files (a standoff run).
        .filter_map(|e| {
            let p = e.path();
            let folder = p.is_dir();
            // A FIFO or device is listed (below), never opened.
            let run = (!folder && p.exists())
                || (folder && crate::formats::brat::ann_files(&p).is_ok_and(|v| !v.is_empty()));
            run.then(|| (e.file_name(), folder))
        })
        .filter(|(n, _)| !n.to_string_lossy().starts_with('.'))
        .filter_map(|(n, folder)| match n.into_string() {
            Ok(n) => Some((n, folder)),
            Err(raw) => {
                // Named (lossily), never dropped without a word.
                odd.push(raw.to_string_lossy().into_owned());
                None
            }
        })
        .collect();
    names.sort();
    Ok((names, odd))
}
