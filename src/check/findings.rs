//! One finding ([`Finding`]) and how the passes build them: `f.push(code, at(file, line)
//! .column(col).message(…))`, repeats of the same code, column and key folded into one
//! finding with a count and its first places.
//!
//! The report is bounded whatever the run: each finding keeps its first [`MAX_PLACES`]
//! places, and each code and column at most [`MAX_KEYS`] distinct keys (labels, …); the
//! occurrences of further keys are folded into one more finding of that code, counted.

use super::code::{Code, Severity};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The places kept per finding (the count says how many there are).
pub const MAX_PLACES: usize = 5;
/// The distinct keys (e.g. unknown labels) reported one by one per code and column.
pub const MAX_KEYS: usize = 10;

/// Where one occurrence of a finding is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    /// The file (the gold or the run, or a document of a standoff run).
    pub file: PathBuf,
    /// 1-based line; 0 for the file as a whole.
    pub line: usize,
}

/// One problem, reported once: where it first occurs and how often.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Finding {
    /// The severity of its code.
    pub severity: Severity,
    /// A stable short name of the kind of problem (`kind.as_str()`, listed in
    /// `docs/errors.md`).
    pub code: &'static str,
    /// The file it is in (the gold or the run, as named to the check).
    pub file: PathBuf,
    /// 1-based line of the first occurrence; 0 for the file as a whole.
    pub line: usize,
    /// The TSV column concerned, if any.
    pub column: Option<String>,
    /// What is wrong, at the first occurrence.
    pub message: String,
    /// How to fix it (the code's default hint unless the finding has its own); empty when
    /// there is nothing to do.
    pub hint: String,
    /// Number of occurrences (lines, cells or entities) folded into this finding.
    pub count: usize,
    /// The first places of its occurrences (at most five, in the order found; the
    /// first is `file:line`).
    pub places: Vec<Place>,
    /// The kind of problem.
    #[serde(skip)]
    pub kind: Code,
}

/// Where a finding occurs and what it says; made by [`at`], given to [`Findings::push`].
#[derive(Debug, Clone)]
pub(crate) struct At {
    file: PathBuf,
    line: usize,
    column: Option<String>,
    key: String,
    message: String,
    hint: Option<String>,
    count: usize,
}

/// A finding at `line` of `file` (0: the file as a whole).
pub(crate) fn at(file: &Path, line: usize) -> At {
    At {
        file: file.to_path_buf(),
        line,
        column: None,
        key: String::new(),
        message: String::new(),
        hint: None,
        count: 1,
    }
}

impl At {
    /// The TSV column concerned.
    pub fn column(mut self, column: &str) -> Self {
        self.column = Some(column.to_string());
        self
    }

    /// What tells distinct problems of one code and column apart (e.g. the unknown label):
    /// findings of equal code, column and key are folded into one.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = key.into();
        self
    }

    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// A hint of its own instead of the code's.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Occurrences this finding stands for (already folded, e.g. by the reader).
    pub fn count(mut self, count: usize) -> Self {
        self.count = count;
        self
    }
}

/// Collects findings, folding repeats of the same (code, column, key) into one.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    list: Vec<Finding>,
    index: HashMap<(Code, Option<String>, String), usize>,
    /// Distinct keys seen per code and column.
    keys: HashMap<(Code, Option<String>), usize>,
}

/// The key of the finding that holds the occurrences of keys beyond [`MAX_KEYS`].
const MORE: &str = "\u{0}more";

impl Findings {
    /// Adds a finding, or raises the count of the one with the same code, column and key
    /// (keeping its first places).
    pub fn push(&mut self, code: Code, mut at: At) {
        let mut k = (code, at.column.clone(), at.key);
        if !self.index.contains_key(&k) {
            let n = self.keys.entry((code, k.1.clone())).or_default();
            if *n >= MAX_KEYS {
                k.2 = MORE.to_string();
                at.message = format!(
                    "more of the same kind ({MAX_KEYS} are listed one by one above); the \
                     first here: {}",
                    at.message
                );
            } else {
                *n += 1;
            }
        }
        if let Some(&i) = self.index.get(&k) {
            if let Some(f) = self.list.get_mut(i) {
                f.count += at.count;
                let place = Place {
                    file: at.file,
                    line: at.line,
                };
                if f.places.len() < MAX_PLACES && !f.places.contains(&place) {
                    f.places.push(place);
                }
            }
            return;
        }
        let place = Place {
            file: at.file.clone(),
            line: at.line,
        };
        self.index.insert(k, self.list.len());
        self.list.push(Finding {
            severity: code.severity(),
            code: code.as_str(),
            file: at.file,
            line: at.line,
            column: at.column,
            message: at.message,
            hint: at.hint.unwrap_or_else(|| code.hint().to_string()),
            count: at.count,
            places: vec![place],
            kind: code,
        });
    }

    pub fn has_error(&self) -> bool {
        self.list.iter().any(|f| f.severity == Severity::Error)
    }

    /// The findings, most serious first, then the file as a whole before lines, then by line
    /// (in the order found where these are equal).
    pub fn into_sorted(self) -> Vec<Finding> {
        let mut list = self.list;
        list.sort_by_key(|f| (f.severity, f.line > 0, f.line));
        list
    }
}
