//! Spans given twice in a standoff document (the same label over the same characters): one
//! annotation, counted once. Pairing leaves the repeats out of both sides
//! ([`super::pair_sides`]) and says so in a warning; `check` reports those of a run.

use crate::corpus::standoff::{CharSlicer, Duplicate, StandoffDoc};
use crate::error::snippet;

/// A span given twice in a document (the same label over the same characters), left out of
/// scoring: one annotation counts once, whichever side repeats it.
#[derive(Debug, Clone)]
pub struct Repeat {
    /// Whether the run repeats it (else the gold).
    pub run: bool,
    /// The file.
    pub path: std::path::PathBuf,
    /// The document's name.
    pub document: String,
    /// The span left out, with the span it repeats.
    pub duplicate: Duplicate,
    /// The text it covers (fragments joined by ` … `).
    pub covered: String,
}

impl Repeat {
    /// The span as messages name it: `span "T2" ("PER") over "Anna" is given twice (first as
    /// span "T1", line 1)`.
    pub fn describe(&self) -> String {
        let (s, d) = (&self.duplicate.span, &self.duplicate);
        let first_line = match d.first_line {
            0 => String::new(),
            n => format!(", line {n}"),
        };
        format!(
            "span {} ({}) over {} is given twice (first as span {}{first_line})",
            snippet(&s.id),
            snippet(&s.label),
            snippet(&self.covered),
            snippet(&d.first_id)
        )
    }

    /// The warning of scoring: file, line, document, the span, and that it counts once.
    pub fn warning(&self) -> String {
        format!(
            "{}:{}: document {}: {}: counted once",
            self.path.display(),
            self.duplicate.span.line,
            snippet(&self.document),
            self.describe()
        )
    }
}

/// Leaves out every span `doc` gives twice, as [`Repeat`]s of side `run`.
pub(super) fn repeats_of(doc: &mut StandoffDoc, run: bool, out: &mut Vec<Repeat>) {
    let dups = doc.remove_duplicates();
    if dups.is_empty() {
        return;
    }
    let text = CharSlicer::new(&doc.text);
    for d in dups {
        let pieces: Vec<&str> = d
            .span
            .fragments
            .iter()
            .map(|&(a, b)| text.slice(a, b))
            .collect();
        out.push(Repeat {
            run,
            path: doc.path.clone(),
            document: doc.id().to_string(),
            covered: pieces.join(" … "),
            duplicate: d,
        });
    }
}
