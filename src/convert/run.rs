//! A run's tag repairs and type changes applied as a scoring command reads it (`--repair`,
//! `--map-types`, `--keep-types`, `--remove-types` of `evaluate`, `score --format conll` and
//! campaign tasks): the run's CoNLL text is read as `convert` reads a CoNLL input in BIO
//! (validated, repaired, types changed: [`super::tags`]) and written again in BIO, and that
//! text is what the scorer parses. So scoring with these options is scoring the output of
//! `fairscore convert --repair … --map-types …` (docs/convert.md).

use std::path::Path;
use std::sync::Mutex;

use super::tags;
use super::types::TypeChanges;
use crate::corpus::TextRewrite;
use crate::error::{Error, Result};
use crate::spans::encoding::{Encoding, Repair};

/// The changes of a run as it is read, and the repairs made so far.
#[derive(Debug, Default)]
pub struct RunChanges {
    /// The repair of invalid BIO transitions.
    pub repair: Option<Repair>,
    /// Type map, keep and remove.
    pub types: TypeChanges,
    /// The tag column (a name or a 1-based number; default the last).
    pub column: Option<String>,
    log: Mutex<Vec<String>>,
    warnings: Mutex<Vec<String>>,
}

impl RunChanges {
    /// The changes, `None` when there are none.
    pub fn new(
        repair: Option<Repair>,
        types: &TypeChanges,
        column: Option<&str>,
    ) -> Option<RunChanges> {
        (repair.is_some() || !types.is_empty()).then(|| RunChanges {
            repair,
            types: types.clone(),
            column: column.map(str::to_string),
            log: Mutex::new(Vec::new()),
            warnings: Mutex::new(Vec::new()),
        })
    }

    /// The warnings of the rewrites so far (a type named that no mention of the run has,
    /// `TypeChanges::unseen`), in order, and forgotten.
    pub fn warnings(&self) -> Vec<String> {
        self.warnings
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }
}

/// The fields of the changes in a signature: `repair`, `map-types` (`OLD>NEW` pairs),
/// `keep-types`, `remove-types`, each when given.
pub fn signature_fields(repair: Option<Repair>, t: &TypeChanges) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(r) = repair {
        out.push(("repair".to_string(), r.name().to_string()));
    }
    if !t.map.is_empty() {
        let pairs: Vec<String> = t.map.iter().map(|(o, n)| format!("{o}>{n}")).collect();
        out.push(("map-types".to_string(), pairs.join(",")));
    }
    for (name, set) in [("keep-types", &t.keep), ("remove-types", &t.remove)] {
        if !set.is_empty() {
            let v: Vec<&str> = set.iter().map(String::as_str).collect();
            out.push((name.to_string(), v.join(",")));
        }
    }
    out
}

impl TextRewrite for RunChanges {
    fn rewrite(&self, path: &Path, format: &str, text: &str) -> Result<String> {
        if format != "conll" {
            return Err(Error::usage(format!(
                "repair, map_types, keep_types and remove_types change the tags of a CoNLL run; \
                 {} is read as {format} (convert it first: fairscore convert)",
                crate::io::show_path(path)
            )));
        }
        let c = crate::formats::conll::parse(path, text)?;
        let tagged = tags::from_corpus(
            &c,
            path,
            self.column.as_deref(),
            Encoding::Bio,
            self.repair,
            &self.types,
        )?;
        if let Ok(mut log) = self.log.lock() {
            log.extend(tagged.repairs.iter().cloned());
        }
        let unseen = self
            .types
            .unseen(&tagged.types, &crate::io::show_path(path));
        if let Ok(mut w) = self.warnings.lock() {
            w.extend(unseen);
        }
        Ok(tags::write(&tagged, Encoding::Bio))
    }

    fn log(&self) -> Vec<String> {
        self.log
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default()
    }
}
