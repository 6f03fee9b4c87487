//! Reading the gold and the runs of a HIPE scoring: the columns the tasks read, the `--glue`
//! pairs, and the links normalized while a file is read (`--relaxed MAP`, or a campaign's
//! normalized run). One reader for `score`, `compare`, the campaigns' scorer and the `hipe`
//! family.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::corpus::{Corpus, ReadOptions};
use crate::error::Result;
use crate::eval::options::ScoreOptions;
use crate::formats::{self, Format};
use crate::hipe::{Edition, Task};
use crate::normalize::{LinkRewrite, NormalizeOptions};

/// The HIPE columns the evaluation of `tasks` reads in `edition` (scored columns and the NE
/// columns bounding links); the reader also keeps the token column.
pub fn task_columns(edition: Edition, tasks: &[Task]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &task in tasks {
        for &(col, ne) in edition.columns(task) {
            for name in [col, ne] {
                if !name.is_empty() && !out.iter().any(|c| c == name) {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

/// How the links of a file are normalized as it is read (`normalize --norm-histo` with a QID
/// map, and `--norm-time` when `norm_time`).
#[derive(Debug, Clone, Copy)]
pub struct LinkNorm<'a> {
    /// Alternative QID → main QID.
    pub map: &'a HashMap<String, String>,
    /// Time entities' links become `NIL` (a run's normalization; the gold's is not).
    pub norm_time: bool,
}

/// Reads a HIPE TSV file keeping the columns of `columns` (all when `None`), with `ropts`'s
/// glue pairs, its links normalized by `norm` as it is read.
pub fn read_hipe(
    path: &Path,
    edition: Edition,
    mut ropts: ReadOptions,
    columns: Option<Vec<String>>,
    norm: Option<LinkNorm<'_>>,
) -> Result<Corpus> {
    ropts.columns = columns;
    if let Some(n) = norm {
        let mut nopts = NormalizeOptions::for_edition(edition);
        nopts.map = Some(n.map.clone());
        nopts.norm_time = n.norm_time;
        ropts.rewrite = Some(Arc::new(LinkRewrite::new(nopts)));
    }
    formats::hipe::read(path, &ropts)
}

/// Reads the gold (`run == false`) or a run of a scoring with `opts`: in the options' format,
/// HIPE files keeping only the columns `tasks` read ([`task_columns`]); with
/// [`ScoreOptions::relaxed_map`] the links are normalized while the file is read (the run's
/// also with `--norm-time`).
pub fn read_side(path: &Path, opts: &ScoreOptions, tasks: &[Task], run: bool) -> Result<Corpus> {
    let mut ropts = opts.read_options();
    if opts.format != Format::Hipe && opts.relaxed_map.is_none() {
        if run {
            ropts.text = opts.run_text.clone();
        }
        return formats::read(path, Some(opts.format), &ropts);
    }
    let columns = (opts.format == Format::Hipe).then(|| task_columns(opts.edition, tasks));
    let norm = opts.relaxed_map.as_ref().map(|map| LinkNorm {
        map,
        norm_time: run,
    });
    read_hipe(path, opts.edition, ropts, columns, norm)
}
