//! `fairscore convert`: annotations from one format or tag encoding to another
//! (docs/convert.md).
//!
//! - CoNLL → CoNLL between the tag encodings of seqscore 0.9 ([`Encoding`]), with its
//!   repairs of invalid transitions and its type changes: the output is the bytes seqscore's
//!   `convert`, `repair` and `process` write (tab-separated cells, a blank line after every
//!   sentence, `-DOCSTART-` lines only when there are several documents);
//! - standoff (brat, doccano, Label Studio, Prodigy) → CoNLL: the text's whitespace tokens,
//!   cut at every span boundary (`tokens.rs`); overlapping spans are refused;
//! - CoNLL → standoff: the text is the tokens joined by spaces, a line a sentence;
//! - standoff → standoff: every span kept (a discontinuous brat span cannot go into a JSON
//!   export and is refused there).
//!
//! The library returns the files to write and the repair log; the caller writes them.

mod run;
mod tags;
mod tokens;
mod types;
mod write;

use std::path::{Path, PathBuf};

use crate::corpus::standoff::StandoffDoc;
use crate::error::{Error, Result};
use crate::formats::{InputFormat, StandoffFormat};
use crate::spans::encoding::{Encoding, Repair};

pub use run::{signature_fields, RunChanges};
pub use types::{read_type_map, TypeChanges};

/// The options of a conversion.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    /// The input's format (`None`: detected).
    pub input_format: Option<InputFormat>,
    /// The output's format (`None`: the input's).
    pub output_format: Option<InputFormat>,
    /// The input's tag encoding (CoNLL input; default BIO).
    pub from: Option<Encoding>,
    /// The output's tag encoding (CoNLL output; default the input's, or BIO).
    pub to: Option<Encoding>,
    /// The tag column of a CoNLL input: a name or a 1-based number (default the last).
    pub column: Option<String>,
    /// The repair of invalid transitions (CoNLL input).
    pub repair: Option<Repair>,
    /// Type map, keep and remove.
    pub types: TypeChanges,
    /// A generative run (JSONL entity lists) placed on a gold's texts: the gold and the
    /// reader of both sides (`align`, docs/generative.md); the input is then the run.
    pub aligned: Option<(PathBuf, crate::corpus::standoff::DocsReader)>,
}

/// What a conversion gives: the files to write and what was changed on the way.
#[derive(Debug, Clone, Default)]
pub struct Converted {
    /// Each output file and its bytes (a brat output: two files a document under the output
    /// directory).
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// One line per repaired label: `FILE:LINE: OLD -> NEW (REPAIR)`.
    pub repairs: Vec<String>,
    /// Notes for the user (spans given twice and merged, …).
    pub notes: Vec<String>,
    /// Warnings: the types a type change names that no mention of the input has
    /// (`TypeChanges::unseen`).
    pub warnings: Vec<String>,
    /// The output directory of a brat output (created when written).
    pub dir: Option<PathBuf>,
}

/// Refuses a brat output directory that is a file, or that holds `.ann` files this
/// conversion does not write: they would be read as documents of the output.
fn check_brat_dir(dir: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::usage(format!(
            "out: {} is a file; a brat output is a directory",
            crate::io::show_path(dir)
        )));
    }
    if !dir.is_dir() {
        return Ok(());
    }
    let ours: std::collections::HashSet<&Path> = files.iter().map(|(p, _)| p.as_path()).collect();
    let stale: Vec<String> = crate::formats::brat::ann_files(dir)?
        .into_iter()
        .filter(|rel| !ours.contains(dir.join(rel).as_path()))
        .collect();
    if let Some(first) = stale.first() {
        return Err(Error::usage(format!(
            "out: {} already holds {} .ann file(s) this conversion does not write ({}…), which \
             would be read as documents of the output; choose a new or empty directory",
            crate::io::show_path(dir),
            stale.len(),
            crate::error::snippet(first)
        )));
    }
    Ok(())
}

/// Writes a conversion's files, with the repair log to `log` when given, all or none
/// ([`crate::io::write_atomic_all`]), creating the directories of a brat output first.
pub fn write(c: &Converted, log: Option<&Path>) -> Result<()> {
    for (p, _) in &c.files {
        if let Some(parent) = p.parent().filter(|p| !p.as_os_str().is_empty()) {
            if c.dir.is_some() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| Error::output(parent, crate::io::io_reason(&e)))?;
            }
        }
    }
    let log_text: String = c.repairs.iter().map(|r| format!("{r}\n")).collect();
    let mut files: Vec<(&Path, &[u8])> = c
        .files
        .iter()
        .map(|(p, b)| (p.as_path(), b.as_slice()))
        .collect();
    if let Some(l) = log {
        files.push((l, log_text.as_bytes()));
    }
    crate::io::write_atomic_all(&files)
}

/// The formats convert reads and writes.
const FORMATS: &str = "conll, brat, doccano, labelstudio or prodigy";

fn usable(f: InputFormat, side: &str) -> Result<InputFormat> {
    if f == InputFormat::Conll || f.standoff().is_some() {
        Ok(f)
    } else {
        Err(Error::usage(format!(
            "{side}: convert reads and writes {FORMATS}, not {f}"
        )))
    }
}

/// The input's format: given, or by its content (a directory or a `.ann` file is brat, a JSON
/// export is told by its layout, anything else is CoNLL).
fn detect(input: &Path) -> Result<InputFormat> {
    if input.is_dir() || input.extension().is_some_and(|x| x == "ann") {
        return Ok(InputFormat::Brat);
    }
    let text = crate::io::read_text(input)?;
    if crate::formats::brat::looks_like_ann(&text) {
        return Ok(InputFormat::Brat);
    }
    Ok(match crate::formats::detect_jsonl(&text) {
        Some(crate::formats::JsonlLayout::Doccano) => InputFormat::Doccano,
        Some(crate::formats::JsonlLayout::LabelStudio) => InputFormat::LabelStudio,
        Some(crate::formats::JsonlLayout::Prodigy) => InputFormat::Prodigy,
        None => InputFormat::Conll,
    })
}

/// Converts `input` for writing to `output` (a file, or the directory of a brat output).
pub fn convert(input: &Path, output: &Path, opts: &ConvertOptions) -> Result<Converted> {
    if let Some((gold, reader)) = &opts.aligned {
        return aligned(input, output, gold, reader, opts);
    }
    let from_format = match opts.input_format {
        Some(f) => usable(f, "format")?,
        None => usable(detect(input)?, "format")?,
    };
    let to_format = usable(opts.output_format.unwrap_or(from_format), "out_format")?;
    let tag_in = from_format == InputFormat::Conll;
    let tag_out = to_format == InputFormat::Conll;
    if !tag_in {
        for (given, name) in [
            (opts.from.is_some(), "from"),
            (opts.repair.is_some(), "repair"),
            (opts.column.is_some(), "column"),
        ] {
            if given {
                return Err(Error::usage(format!(
                    "{name}: goes with a CoNLL input (tags); a {from_format} input has spans"
                )));
            }
        }
    }
    if !tag_out && opts.to.is_some() {
        return Err(Error::usage(format!(
            "to: goes with a CoNLL output (tags); a {to_format} output has spans"
        )));
    }
    let mut out = Converted::default();
    if tag_in {
        let from = opts.from.unwrap_or(Encoding::Bio);
        if let Some(r) = opts.repair {
            if !from.repairs().contains(&r) {
                return Err(Error::usage(format!(
                    "repair: seqscore defines no {} repair for {from} (it repairs BIO with \
                     conlleval or discard, IOB with conlleval)",
                    r.name()
                )));
            }
        }
        let tagged = tags::read(
            input,
            opts.column.as_deref(),
            from,
            opts.repair,
            &opts.types,
        )?;
        out.repairs = tagged.repairs.clone();
        let shown = crate::io::show_path(input);
        out.warnings = opts.types.unseen(&tagged.types, &shown);
        if tag_out {
            let to = opts.to.unwrap_or(from);
            out.files
                .push((output.to_path_buf(), tags::write(&tagged, to).into_bytes()));
        } else {
            let docs = tokens::to_standoff(input, &tagged);
            standoff_files(&docs, to_format, output, &mut out)?;
        }
    } else {
        let format = from_format.standoff();
        let mut docs = crate::formats::read_standoff(input, format)?;
        out.warnings = unseen_in(&docs, &opts.types, input);
        for d in &mut docs {
            types::apply_to_spans(d, &opts.types);
        }
        if tag_out {
            let mut tagged = tags::Tagged::default();
            for d in &mut docs {
                let dups = d.remove_duplicates();
                for x in &dups {
                    out.notes.push(format!(
                        "{}:{}: span {} repeats {} (line {}): written once",
                        crate::io::show_path(&d.path),
                        x.span.line,
                        x.span.id,
                        x.first_id,
                        x.first_line
                    ));
                }
                tagged.docs.push(tokens::tokenize(d)?);
            }
            tagged.tag = 1;
            let to = opts.to.unwrap_or(Encoding::Bio);
            out.files
                .push((output.to_path_buf(), tags::write(&tagged, to).into_bytes()));
        } else {
            standoff_files(&docs, to_format, output, &mut out)?;
        }
    }
    Ok(out)
}

/// Converts a generative run placed on the texts of `gold` ([`ConvertOptions::aligned`]): the
/// run's documents (the gold's texts, the placed mentions) in the output format, which must
/// be given.
fn aligned(
    input: &Path,
    output: &Path,
    gold: &Path,
    reader: &crate::corpus::standoff::DocsReader,
    opts: &ConvertOptions,
) -> Result<Converted> {
    let Some(to_format) = opts.output_format else {
        return Err(Error::usage(
            "out_format: give the output's format (brat, doccano, labelstudio, prodigy or \
             conll) for a generative run",
        ));
    };
    let to_format = usable(to_format, "out_format")?;
    for (given, name) in [
        (opts.from.is_some(), "from"),
        (opts.repair.is_some(), "repair"),
    ] {
        if given {
            return Err(Error::usage(format!(
                "{name}: goes with a CoNLL input (tags); a generative run has entity lists"
            )));
        }
    }
    if to_format != InputFormat::Conll && opts.to.is_some() {
        return Err(Error::usage(format!(
            "to: goes with a CoNLL output (tags); a {to_format} output has spans"
        )));
    }
    let (_, mut docs, notes) = (reader.0)(gold, input)?;
    let mut out = Converted {
        notes,
        warnings: unseen_in(&docs, &opts.types, input),
        ..Converted::default()
    };
    for d in &mut docs {
        types::apply_to_spans(d, &opts.types);
    }
    if to_format == InputFormat::Conll {
        let mut tagged = tags::Tagged::default();
        for d in &mut docs {
            d.remove_duplicates();
            tagged.docs.push(tokens::tokenize(d)?);
        }
        tagged.tag = 1;
        let to = opts.to.unwrap_or(Encoding::Bio);
        out.files
            .push((output.to_path_buf(), tags::write(&tagged, to).into_bytes()));
    } else {
        standoff_files(&docs, to_format, output, &mut out)?;
    }
    Ok(out)
}

/// [`TypeChanges::unseen`] of the standoff documents of `input`.
fn unseen_in(docs: &[StandoffDoc], t: &TypeChanges, input: &Path) -> Vec<String> {
    if t.is_empty() {
        return Vec::new();
    }
    let seen = docs
        .iter()
        .flat_map(|d| &d.spans)
        .map(|s| s.label.clone())
        .collect();
    t.unseen(&seen, &crate::io::show_path(input))
}

/// The JSON export (doccano, Label Studio or Prodigy) of `input` with every span removed: the
/// documents' names and texts alone, as written by `convert` (the blind data of a campaign,
/// docs/codabench.md).
pub fn without_spans(input: &Path, layout: crate::formats::JsonlLayout) -> Result<Vec<u8>> {
    let mut docs = crate::formats::read_standoff(input, Some(StandoffFormat::Json(layout)))?;
    for d in &mut docs {
        d.spans.clear();
    }
    Ok(write::json(layout, &docs)?.into_bytes())
}

/// The files of standoff documents in `format` at `output`.
fn standoff_files(
    docs: &[StandoffDoc],
    format: InputFormat,
    output: &Path,
    out: &mut Converted,
) -> Result<()> {
    match format.standoff() {
        Some(StandoffFormat::Brat) => {
            out.files.extend(write::brat(output, docs)?);
            check_brat_dir(output, &out.files)?;
            out.dir = Some(output.to_path_buf());
        }
        Some(StandoffFormat::Json(layout)) => out.files.push((
            output.to_path_buf(),
            write::json(layout, docs)?.into_bytes(),
        )),
        None => {}
    }
    Ok(())
}
