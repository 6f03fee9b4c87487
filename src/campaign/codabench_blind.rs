//! A gold made blind for a Codabench bundle's public data, in its own format, and what each
//! blind file still shows (docs/codabench.md, "Blind golds"). Blind data keeps nothing that a
//! gold annotation determines:
//!
//! - a brat folder: the `.txt` of each document (each `.ann` of the folder, at any depth, and
//!   its text: what the brat reader reads) with an empty `.ann` beside it; nothing else of the
//!   folder (README, `annotation.conf`, …);
//! - CoNLL: every line and cell but the tag column(s) its tasks score, which become `O`;
//! - HIPE TSV: the header, comments, blank lines and tokens; the `NE-*` columns `O`, every
//!   other column `_` but `MISC`, which keeps only the flags of the text's layout
//!   ([`LAYOUT_FLAGS`]) and of those only the ones found on some token that no annotation
//!   covers (a layout flag seen on annotated tokens only would say where they are);
//! - doccano, Label Studio, Prodigy: each document's id and text, no span
//!   (`convert::without_spans`).
//!
//! Other golds (span files, the texts of segmentation, the tags of tagging) get no blind
//! version.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::families::FamilyTask;
use crate::error::{Error, Result};
use crate::formats::{InputFormat, JsonlLayout};

/// The `MISC` flags that describe the layout of a HIPE text (spacing, line, sentence and
/// paragraph ends, sentence segments), which a participant reads from the text itself.
pub const LAYOUT_FLAGS: &[&str] = &[
    "NoSpaceAfter",
    "EndOfLine",
    "EndOfSentence",
    "EndOfParagraph",
    "PySBDSegment",
];

/// Files of blind data: (path inside the gold directory, bytes).
pub type BlindFiles = Vec<(String, Vec<u8>)>;

/// What a blind gold shows participants and what it hides, for the bundle's report and the
/// starting kit's README.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reveal {
    /// The gold's name in the gold directory (its path under `public_data/`).
    pub gold: String,
    /// What the blind version keeps.
    pub shows: String,
    /// What it removed.
    pub hides: String,
}

/// The files of one gold, `name` in the gold directory, that the scoring reads: the file
/// itself, or the documents of a brat folder (each `.ann` file under it, at any depth, hidden
/// ones left out and links to folders not followed, as the brat reader finds them, and the
/// `.txt` beside it; the folder's other files, a README or `annotation.conf`, are no part of
/// the gold), as (path inside the gold directory, path), in name order.
pub fn gold_files(path: &Path, name: &str) -> Result<Vec<(String, PathBuf)>> {
    if !path.is_dir() {
        return Ok(vec![(name.to_string(), path.to_path_buf())]);
    }
    let mut out = Vec::new();
    for ann in crate::formats::brat::ann_files(path)? {
        if ann.contains('\u{fffd}') {
            return Err(Error::input(
                &path.join(&ann),
                0,
                "a gold file's name is not UTF-8; rename it in UTF-8",
            ));
        }
        let txt = format!("{}.txt", ann.strip_suffix(".ann").unwrap_or(&ann));
        out.push((format!("{name}/{ann}"), path.join(&ann)));
        out.push((format!("{name}/{txt}"), path.join(&txt)));
    }
    out.sort();
    Ok(out)
}

/// How a gold is made blind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blind {
    /// A brat folder.
    Brat,
    /// A CoNLL file.
    Conll,
    /// A HIPE TSV file.
    Hipe,
    /// A JSON export of an annotation tool.
    Json(JsonlLayout),
}

impl Blind {
    /// The `--format` of `fairscore check` for a run in this format (`None`: check's default,
    /// HIPE TSV).
    pub fn check_format(self) -> Option<&'static str> {
        match self {
            Blind::Brat => Some(InputFormat::Brat.name()),
            Blind::Conll => Some(InputFormat::Conll.name()),
            Blind::Hipe => None,
            Blind::Json(JsonlLayout::Doccano) => Some(InputFormat::Doccano.name()),
            Blind::Json(JsonlLayout::LabelStudio) => Some(InputFormat::LabelStudio.name()),
            Blind::Json(JsonlLayout::Prodigy) => Some(InputFormat::Prodigy.name()),
        }
    }
}

/// How the gold `path` is made blind for the tasks that read it, if it can be.
pub fn blind_kind(path: &Path, tasks: &[&FamilyTask]) -> Result<Option<Blind>> {
    let spans = |t: &&FamilyTask| matches!(t.family.name(), "spans" | "fair" | "muc" | "hipe");
    if !tasks.iter().all(spans) {
        return Ok(None);
    }
    if path.is_dir() {
        return Ok(Some(Blind::Brat));
    }
    if path.extension().is_some_and(|x| x == "ann") {
        return Ok(None);
    }
    let text = crate::io::read_text(path)?;
    if let Some(layout) = crate::formats::detect_jsonl(&text) {
        return Ok(Some(Blind::Json(layout)));
    }
    Ok(match crate::formats::detect(path, &text)? {
        crate::formats::Format::Hipe => Some(Blind::Hipe),
        crate::formats::Format::Conll => Some(Blind::Conll),
        crate::formats::Format::Spans => None,
    })
}

/// The cells of a line as byte ranges (runs of non-white-space).
fn cells(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, line.len()));
    }
    out
}

/// `line` with the cells at `blank` (`usize::MAX`: the last) replaced by `value`, the
/// separators kept.
fn replace_cells(line: &str, blank: &[usize], value: &str) -> String {
    let cs = cells(line);
    let last = cs.len().saturating_sub(1);
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for (k, (a, b)) in cs.iter().enumerate() {
        if blank
            .iter()
            .any(|&x| x == k || (x == usize::MAX && k == last))
        {
            out.push_str(&line[at..*a]);
            out.push_str(value);
            at = *b;
        }
    }
    out.push_str(&line[at..]);
    out
}

/// A CoNLL gold with the tag columns its tasks score set to `O` (`column` as the scoring reads
/// it: a 1-based number or a name of `formats::conll::column_names`, else the last), and
/// those columns (0-based; `usize::MAX`: the last); `-DOCSTART-` lines, blank lines and line
/// ends kept. Every line of a CoNLL file has the same number of cells (the reader refuses
/// others), so the columns are resolved on the first line.
fn blind_conll(text: &str, tasks: &[&FamilyTask]) -> (String, Vec<usize>) {
    let mut blank: Option<Vec<usize>> = None;
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive('\n') {
        let cs = cells(piece);
        let keep = cs.len() < 2 || piece[cs[0].0..cs[0].1].starts_with("-DOCSTART-");
        if keep {
            out.push_str(piece);
            continue;
        }
        let blank = blank.get_or_insert_with(|| {
            let names = crate::formats::conll::column_names(cs.len());
            let mut b: Vec<usize> = tasks
                .iter()
                .map(|t| {
                    let given = t.options.column.as_deref();
                    given
                        .and_then(|c| match c.parse::<usize>() {
                            Ok(n) => n.checked_sub(1),
                            Err(_) => names.iter().position(|x| x == c),
                        })
                        .unwrap_or(usize::MAX)
                })
                .collect();
            b.sort_unstable();
            b.dedup();
            b
        });
        out.push_str(&replace_cells(piece, blank, "O"));
    }
    (out, blank.unwrap_or_default())
}

/// The name of a `MISC` flag: its leading letters (`LED0.00` is `LED`, `Partial-0:3`
/// `Partial`).
fn flag_name(flag: &str) -> &str {
    let end = flag
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(flag.len());
    &flag[..end]
}

/// `names` with their counts, as `A (3), B (1)`.
fn counted(names: &BTreeMap<String, usize>) -> String {
    let v: Vec<String> = names.iter().map(|(n, c)| format!("{n} ({c})")).collect();
    v.join(", ")
}

/// A HIPE TSV gold blind (see the module documentation), with what it shows and hides.
fn blind_hipe(text: &str) -> (String, String, String) {
    // The lines, each with its cells when it is a token line; the header's names.
    let mut names: Vec<&str> = Vec::new();
    let mut lines: Vec<(&str, Option<Vec<&str>>)> = Vec::new();
    for piece in text.split_inclusive('\n') {
        let body = piece.trim_end_matches(['\n', '\r']);
        // A comment has no cells; a row whose first cell starts with `#` (a token `#`) is
        // skipped by the readers but still shows its annotation, so it is made blind too.
        let comment = body.starts_with('#') && !body.contains('\t');
        if body.trim().is_empty() || comment || names.is_empty() {
            if names.is_empty() && !body.trim().is_empty() && !comment {
                names = body.trim_start_matches('\u{feff}').split('\t').collect();
            }
            lines.push((piece, None));
        } else {
            lines.push((piece, Some(body.split('\t').collect())));
        }
    }
    let misc = names.iter().position(|n| *n == "MISC");
    let annotated = |cells: &[&str]| {
        cells.iter().enumerate().any(|(k, c)| {
            Some(k) != misc
                && names.get(k).is_none_or(|n| *n != "TOKEN")
                && !matches!(c.trim(), "" | "_" | "O")
        })
    };
    // The layout flags found on a token no annotation covers.
    let mut free: Vec<&str> = Vec::new();
    for cells in lines.iter().filter_map(|(_, c)| c.as_ref()) {
        if let Some(m) = misc
            .and_then(|m| cells.get(m))
            .filter(|_| !annotated(cells))
        {
            for f in m.split('|') {
                if LAYOUT_FLAGS.contains(&f) && !free.contains(&f) {
                    free.push(f);
                }
            }
        }
    }
    let (mut kept, mut removed) = (BTreeMap::new(), BTreeMap::new());
    let mut out = String::with_capacity(text.len());
    for (piece, cells) in &lines {
        let Some(cells) = cells else {
            out.push_str(piece);
            continue;
        };
        let blind: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(k, c)| match names.get(k) {
                Some(&"TOKEN") => c.to_string(),
                Some(n) if n.starts_with("NE-") => "O".into(),
                _ if Some(k) == misc => {
                    let mut keep = Vec::new();
                    for f in c.split('|').filter(|f| !matches!(*f, "" | "_")) {
                        let tally = if free.contains(&f) {
                            keep.push(f);
                            &mut kept
                        } else {
                            &mut removed
                        };
                        *tally.entry(flag_name(f).to_string()).or_insert(0) += 1;
                    }
                    if keep.is_empty() {
                        "_".into()
                    } else {
                        keep.join("|")
                    }
                }
                _ => "_".into(),
            })
            .collect();
        out.push_str(&blind.join("\t"));
        out.push_str(&piece[piece.trim_end_matches(['\n', '\r']).len()..]);
    }
    let mut shows = String::from("the header, comments and tokens");
    if !kept.is_empty() {
        shows.push_str(&format!("; MISC layout flags {}", counted(&kept)));
    }
    let mut hides = String::from("NE-* columns (now O), NEL-* and other columns (now _)");
    if !removed.is_empty() {
        hides.push_str(&format!("; MISC flags {}", counted(&removed)));
    }
    (out, shows, hides)
}

/// The blind files of the gold `name` (paths inside the gold directory), made as `kind` says,
/// and what they show.
pub fn blind_files(
    gold_dir: &Path,
    name: &str,
    kind: Blind,
    tasks: &[&FamilyTask],
) -> Result<(BlindFiles, Reveal)> {
    let path = gold_dir.join(name);
    let reveal = |shows: String, hides: String| Reveal {
        gold: name.to_string(),
        shows,
        hides,
    };
    Ok(match kind {
        Blind::Brat => {
            let mut out = Vec::new();
            for (inside, p) in gold_files(&path, name)? {
                if let Some(stem) = inside.strip_suffix(".txt") {
                    out.push((inside.clone(), crate::io::read_input(&p)?));
                    out.push((format!("{stem}.ann"), Vec::new()));
                }
            }
            out.sort();
            let n = out.len() / 2;
            let r = reveal(
                format!("the text (.txt) of its {n} documents, each with an empty .ann"),
                "the annotations (.ann) and every other file of the folder".into(),
            );
            (out, r)
        }
        Blind::Conll => {
            let (text, cols) = blind_conll(&crate::io::read_text(&path)?, tasks);
            let cols: Vec<String> = cols
                .iter()
                .map(|&c| match c {
                    usize::MAX => "the last column".to_string(),
                    c => format!("column {}", c + 1),
                })
                .collect();
            let r = reveal(
                "every line and cell but the tags scored".into(),
                format!("the tags of {} (now O)", cols.join(" and ")),
            );
            (vec![(name.to_string(), text.into_bytes())], r)
        }
        Blind::Hipe => {
            let (text, shows, hides) = blind_hipe(&crate::io::read_text(&path)?);
            (
                vec![(name.to_string(), text.into_bytes())],
                reveal(shows, hides),
            )
        }
        Blind::Json(layout) => {
            let bytes = crate::convert::without_spans(&path, layout)?;
            let r = reveal("each document's id and text".into(), "the spans".into());
            (vec![(name.to_string(), bytes)], r)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hipe_keeps_layout_flags_found_off_the_annotations() {
        let gold = "TOKEN\tNE-COARSE-LIT\tNEL-LIT\tMISC\n# id = 1\n\
                    Ada\tB-pers\tQ7259\tLED0.00|NoSpaceAfter\n,\tO\t_\tNoSpaceAfter|EndOfLine\n\
                    Rom\tB-loc\tNIL\tEndOfSentence\n\nfin\tO\t_\tInPrimaryReference\n";
        let (blind, shows, hides) = blind_hipe(gold);
        assert_eq!(
            blind,
            "TOKEN\tNE-COARSE-LIT\tNEL-LIT\tMISC\n# id = 1\n\
             Ada\tO\t_\tNoSpaceAfter\n,\tO\t_\tNoSpaceAfter|EndOfLine\n\
             Rom\tO\t_\t_\n\nfin\tO\t_\t_\n"
        );
        assert!(shows.contains("NoSpaceAfter (2)") && shows.contains("EndOfLine (1)"));
        for f in ["LED (1)", "EndOfSentence (1)", "InPrimaryReference (1)"] {
            assert!(hides.contains(f), "{f}: {hides}");
        }
    }

    #[test]
    fn a_token_hash_row_is_made_blind_like_any_token_row() {
        let gold =
            "TOKEN\tNE-COARSE-LIT\tMISC\n# id = 1\n#\tI-PER\tNoSpaceAfter\nx\tO\tNoSpaceAfter\n";
        let (blind, _, _) = blind_hipe(gold);
        assert_eq!(
            blind,
            "TOKEN\tNE-COARSE-LIT\tMISC\n# id = 1\n#\tO\tNoSpaceAfter\nx\tO\tNoSpaceAfter\n"
        );
    }
}
