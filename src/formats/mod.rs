//! Readers: every input format is parsed here into the one [`crate::corpus`] model.
//!
//! [`hipe`] reads HIPE TSV files, `conll` CoNLL-style column files (BIO tags, `-DOCSTART-`
//! documents, blank-line sentences), `spanfile` the span files of the FairEval reference,
//! `conllu` CoNLL-U, `plain` one sentence a line of white-space separated words, and
//! `tagged` token-TAB-tags files (segmentation and tagging).
//! A new format is a new file here with a `parse(path, text) -> Result<Corpus>` and a
//! [`Format`] variant.

pub(crate) mod brat;
pub(crate) mod conll;
pub(crate) mod conllu;
pub mod hipe;
pub(crate) mod jsonl;
pub(crate) mod plain;
pub(crate) mod spanfile;
pub(crate) mod split;
pub(crate) mod tagged;
pub use brat::read_dir as read_brat_dir;
pub use conll::parse as parse_conll;
pub use jsonl::{detect as detect_jsonl, parse as parse_jsonl, Layout as JsonlLayout};
pub use spanfile::{parse as parse_spanfile, MAX_POSITION as MAX_SPAN_POSITION};
pub use split::count_cells;

use crate::corpus::{Corpus, ReadOptions};
use crate::error::{Error, Result};
use std::path::Path;

/// An input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// HIPE TSV with a header line; documents from `# document_id` comments.
    Hipe,
    /// CoNLL columns (FORM [POS …] TAG), blank-line sentences, `-DOCSTART-` documents.
    Conll,
    /// Span files: `LABEL<TAB>begin<TAB>end[<TAB>tokens]`, blank-line units.
    Spans,
}

impl Format {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Hipe => "hipe",
            Format::Conll => "conll",
            Format::Spans => "spans",
        }
    }

    /// Parses a `--format` value (`auto` is `None`).
    pub fn parse(s: &str) -> Result<Option<Format>> {
        match s {
            "auto" => Ok(None),
            "hipe" => Ok(Some(Format::Hipe)),
            "conll" => Ok(Some(Format::Conll)),
            "spans" => Ok(Some(Format::Spans)),
            _ => Err(Error::usage(format!(
                "--format: unknown format {s:?}; use auto, hipe, conll or spans"
            ))),
        }
    }
}

/// Every input format by its `--format` name: the corpus readers of [`Format`] and the
/// readers of the segmentation and tagging families (CoNLL-U, plain text, token-tag TSV).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputFormat {
    /// HIPE TSV.
    Hipe,
    /// CoNLL columns with BIO tags.
    Conll,
    /// CoNLL-U.
    Conllu,
    /// One sentence a line, words separated by whitespace.
    Text,
    /// `token TAB tags`, a blank line between sentences.
    Tsv,
    /// Span files of the FairEval reference.
    Spans,
    /// brat standoff: `.ann` beside `.txt`, or a directory of such pairs.
    Brat,
    /// doccano JSONL.
    Doccano,
    /// Label Studio's JSON export.
    LabelStudio,
    /// Prodigy (and spaCy) JSONL.
    Prodigy,
}

impl InputFormat {
    /// Every format, in the order messages list them.
    pub const ALL: [InputFormat; 10] = [
        InputFormat::Hipe,
        InputFormat::Conll,
        InputFormat::Conllu,
        InputFormat::Text,
        InputFormat::Tsv,
        InputFormat::Spans,
        InputFormat::Brat,
        InputFormat::Doccano,
        InputFormat::LabelStudio,
        InputFormat::Prodigy,
    ];

    /// The standoff formats (character offsets into a text), by their `--format` names.
    pub const STANDOFF: [&'static str; 4] = ["brat", "doccano", "labelstudio", "prodigy"];

    /// The `--format` name.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Hipe => "hipe",
            InputFormat::Conll => "conll",
            InputFormat::Conllu => "conllu",
            InputFormat::Text => "text",
            InputFormat::Tsv => "tsv",
            InputFormat::Spans => "spans",
            InputFormat::Brat => "brat",
            InputFormat::Doccano => "doccano",
            InputFormat::LabelStudio => "labelstudio",
            InputFormat::Prodigy => "prodigy",
        }
    }

    /// The standoff reader of this format, if it is one.
    pub fn standoff(self) -> Option<StandoffFormat> {
        match self {
            InputFormat::Brat => Some(StandoffFormat::Brat),
            InputFormat::Doccano => Some(StandoffFormat::Json(jsonl::Layout::Doccano)),
            InputFormat::LabelStudio => Some(StandoffFormat::Json(jsonl::Layout::LabelStudio)),
            InputFormat::Prodigy => Some(StandoffFormat::Json(jsonl::Layout::Prodigy)),
            _ => None,
        }
    }

    /// The corpus reader of this format, if it has one.
    pub fn corpus_format(self) -> Option<Format> {
        match self {
            InputFormat::Hipe => Some(Format::Hipe),
            InputFormat::Conll => Some(Format::Conll),
            InputFormat::Spans => Some(Format::Spans),
            _ => None,
        }
    }
}

impl std::fmt::Display for InputFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for InputFormat {
    type Err = Error;
    /// A `--format` name (any case); `auto` is not a format (callers treat it as none).
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.to_ascii_lowercase();
        let lower = if lower == "label-studio" {
            "labelstudio".to_string()
        } else {
            lower
        };
        InputFormat::ALL
            .into_iter()
            .find(|f| f.name() == lower)
            .ok_or_else(|| {
                Error::usage(format!(
                    "format: unknown format {}; use auto, hipe, conll, conllu, text, tsv, spans, \
                     brat, doccano, labelstudio or prodigy",
                    crate::error::snippet(s)
                ))
            })
    }
}

/// Detects the format from the first non-blank line: a HIPE header starts with `TOKEN`, a span
/// line has 3 or 4 tab-separated fields with a number as begin or end (so that a three-column
/// CoNLL line `FORM POS TAG` is not taken for one), anything else with two or more cells is
/// CoNLL.
pub fn detect(path: &Path, text: &str) -> Result<Format> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some((n, line)) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
        return Err(Error::input(path, 0, "the file is empty"));
    };
    let fields: Vec<&str> = line.trim().split('\t').collect();
    if brat::looks_like_ann(line) {
        return Err(Error::input(
            path,
            n + 1,
            "this is a brat .ann file (character offsets); token-based commands do not read \
             it (its ids would be taken for tokens): score it with `fairscore evaluate --family \
             spans|fair` or `fairscore fair`, compare annotators with `fairscore agree` \
             (docs/standoff.md)",
        ));
    }
    if fields[0] == "TOKEN" {
        Ok(Format::Hipe)
    } else if (fields.len() == 4 || fields.len() == 3)
        && fields[1..3]
            .iter()
            .any(|f| !f.trim().is_empty() && f.trim().bytes().all(|b| b.is_ascii_digit()))
    {
        Ok(Format::Spans)
    } else if line.split_whitespace().count() >= 2 {
        Ok(Format::Conll)
    } else {
        Err(Error::input(
            path,
            n + 1,
            "cannot tell the format: expected a span line (LABEL<TAB>begin<TAB>end<TAB>tokens), \
             a CoNLL line (FORM POS TAG) or a HIPE header starting with TOKEN; use --format",
        ))
    }
}

/// The format [`detect`] finds in the head of the regular file at `path`, without reading the
/// rest: `None` for a file that is not regular (a pipe can be read once only) or whose first
/// non-blank line does not end within the head.
pub fn detect_head(path: &Path) -> Result<Option<Format>> {
    const HEAD: usize = 1 << 16;
    let Some(head) = crate::io::read_head(path, HEAD)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&head);
    let t = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let blank = t.len() - t.trim_start().len();
    let whole = head.len() < HEAD;
    if !whole && !t[blank..].contains('\n') {
        return Ok(None);
    }
    detect(path, t).map(Some)
}

/// Parses a file's text in the given format (`None`: detect it).
pub fn parse_text(
    path: &Path,
    text: String,
    format: Option<Format>,
    opts: &ReadOptions,
) -> Result<Corpus> {
    let format = match format {
        Some(f) => f,
        None => detect(path, &text)?,
    };
    refuse_json(path, &text, format)?;
    let text = match &opts.text {
        Some(r) => r.rewrite(path, format.as_str(), &text)?,
        None => text,
    };
    match format {
        Format::Hipe => hipe::parse_owned(path, text, opts),
        Format::Conll => conll::parse(path, &text),
        Format::Spans => spanfile::parse(path, &text),
    }
}

/// A file of JSON lines (or a JSON array) read as a token or span file (a run read in its
/// gold's format): an input error at its first line saying what it is, rather than the
/// token reader's complaint about its cells (issue 46.11).
fn refuse_json(path: &Path, text: &str, format: Format) -> Result<()> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some((n, line)) = t.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
        return Ok(());
    };
    let json = matches!(
        serde_json::from_str::<serde_json::Value>(line.trim()),
        Ok(serde_json::Value::Object(_) | serde_json::Value::Array(_))
    );
    if !json {
        return Ok(());
    }
    let what = match format {
        Format::Hipe => "a HIPE TSV file",
        Format::Conll => "a CoNLL file",
        Format::Spans => "a span file",
    };
    Err(Error::input(
        path,
        n + 1,
        format!(
            "this is JSON, not {what} like the gold: a generative run's entity lists are placed \
             on the gold's texts with --align exact|case|fuzzy (docs/generative.md); an \
             annotation tool's export is read against a standoff gold (--format doccano, \
             labelstudio or prodigy)"
        ),
    ))
}

/// Reads a file (through the input guard) in the given format (`None`: detect it).
pub fn read(path: &Path, format: Option<Format>, opts: &ReadOptions) -> Result<Corpus> {
    let text = crate::io::into_utf8(path, crate::io::read_input(path)?)?;
    parse_text(path, text, format, opts)
}

/// A standoff (character-offset) format: brat, or a JSON export of doccano, Label Studio or
/// Prodigy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StandoffFormat {
    /// brat `.ann` beside `.txt` (a file or a directory).
    Brat,
    /// A JSON layout.
    Json(jsonl::Layout),
}

impl StandoffFormat {
    /// The format's `--format` name.
    pub fn name(self) -> &'static str {
        match self {
            StandoffFormat::Brat => "brat",
            StandoffFormat::Json(jsonl::Layout::Doccano) => "doccano",
            StandoffFormat::Json(jsonl::Layout::LabelStudio) => "labelstudio",
            StandoffFormat::Json(jsonl::Layout::Prodigy) => "prodigy",
        }
    }

    /// Parses a `--format` value for standoff inputs (`auto` is `None`).
    pub fn parse(s: &str) -> Result<Option<StandoffFormat>> {
        Ok(Some(match s.to_ascii_lowercase().as_str() {
            "auto" => return Ok(None),
            "brat" => StandoffFormat::Brat,
            "doccano" => StandoffFormat::Json(jsonl::Layout::Doccano),
            "labelstudio" | "label-studio" => StandoffFormat::Json(jsonl::Layout::LabelStudio),
            "prodigy" => StandoffFormat::Json(jsonl::Layout::Prodigy),
            _ => {
                return Err(Error::usage(format!(
                    "format: unknown standoff format {}; use auto, brat, doccano, labelstudio \
                     or prodigy",
                    crate::error::snippet(s)
                )))
            }
        }))
    }
}

/// Reads standoff documents from `path` (`None`: detect by content: a directory or a file
/// whose first line is a brat annotation is brat, else a JSON layout).
pub fn read_standoff(
    path: &Path,
    format: Option<StandoffFormat>,
) -> Result<Vec<crate::corpus::standoff::StandoffDoc>> {
    read_standoff_with(path, format, &mut Err)
}

/// [`read_standoff`], the refused lines and documents of a brat file or folder given to
/// `on_error` (`brat::OnError`); the other formats stop at their first error.
pub fn read_standoff_with(
    path: &Path,
    format: Option<StandoffFormat>,
    on_error: brat::OnError<'_>,
) -> Result<Vec<crate::corpus::standoff::StandoffDoc>> {
    if path.is_dir() || format == Some(StandoffFormat::Brat) {
        return brat::read_with(path, on_error);
    }
    let text = crate::io::read_text(path)?;
    match format {
        Some(StandoffFormat::Json(l)) => jsonl::parse(path, &text, Some(l)),
        _ if path.extension().is_some_and(|x| x == "ann") || brat::looks_like_ann(&text) => {
            brat::read_with(path, on_error)
        }
        _ => jsonl::parse(path, &text, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> Option<Format> {
        detect(Path::new("x"), text).ok()
    }

    #[test]
    fn detection_tells_span_lines_from_three_column_conll() {
        assert_eq!(fmt("TOKEN\tNE-COARSE-LIT\n"), Some(Format::Hipe));
        assert_eq!(fmt("\nPER\t1\t2\n"), Some(Format::Spans));
        assert_eq!(fmt("PER\t1\t2\t1, 2\n"), Some(Format::Spans));
        // A reversed or damaged span line is still a span line (its reader says what is wrong).
        assert_eq!(fmt("PER\tone\t2\n"), Some(Format::Spans));
        assert_eq!(fmt("Paris\tNE\tB-LOC\n"), Some(Format::Conll));
        assert_eq!(fmt("Paris\tNE\tx\tB-LOC\n"), Some(Format::Conll));
        assert_eq!(fmt("Paris B-LOC\n"), Some(Format::Conll));
        assert_eq!(fmt("Paris\n"), None);
        assert_eq!(fmt("  \n"), None);
        // A brat file is refused, not read as CoNLL with ids for tokens.
        assert_eq!(fmt("T1\tPER 0 4\tAnna\n"), None);
    }

    #[test]
    fn the_head_tells_the_format_when_its_first_line_ends_in_it() {
        let dir = std::env::temp_dir().join(format!("fairscore-head-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, text: &str| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        // As `detect` tells it from the whole text, past blank lines and a byte-order mark.
        let hipe = file("a.tsv", "\u{feff}\n\nTOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n");
        assert_eq!(detect_head(&hipe).unwrap(), Some(Format::Hipe));
        let conll = file("b.conll", "Paris NNP B-LOC\n");
        assert_eq!(detect_head(&conll).unwrap(), Some(Format::Conll));
        // A first line longer than the head is not judged by its beginning.
        let long = format!("TOKEN\t{}\tNE-COARSE-LIT\n", "X".repeat(1 << 16));
        let long = file("c.tsv", &long);
        assert_eq!(detect_head(&long).unwrap(), None);
        assert_eq!(
            fmt(&std::fs::read_to_string(&long).unwrap()),
            Some(Format::Hipe)
        );
        // Not a regular file: nothing is read.
        assert_eq!(detect_head(&dir).unwrap(), None);
        // An empty file is `detect`'s error.
        assert!(detect_head(&file("d.tsv", "")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
