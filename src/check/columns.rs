//! `check --format conll|conllu|tsv|text`: the participant self-check of column files. Gold
//! and run are read as the families read them and compared token by token: tokens that
//! differ, sentence breaks that differ, missing or extra lines (each located at the line of
//! both files), tags outside the IOB scheme, labels the gold does not know and tag values
//! outside the tag set (each with the closest valid one).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::findings::{at, Findings};
use super::labels::{check_tags, iob_type, read_label_list, Known};
use super::{CheckReport, Code};
use crate::error::{snippet, Error, Result};
use crate::eval::labels::closest;
use crate::family::tagging::Tagset;
use crate::formats::{conll, conllu::Conllu, plain, tagged::Tagged, InputFormat};

/// What `check` of a column file is told.
#[derive(Debug, Clone, Default)]
pub struct ColumnCheck {
    /// The tag column (as the family names it; default per format).
    pub column: Option<String>,
    /// A tag set (file or `nkjp`) whose values run tags must use.
    pub tagset: Option<String>,
    /// A label list (one label a line): CoNLL entity types, or whole tags of CoNLL-U and TSV
    /// files, checked instead of the gold's (and against a blind gold).
    pub labels: Option<std::path::PathBuf>,
}

mod alignment;
use alignment::alignment;

/// One token of a column file.
struct Tok<'a> {
    form: &'a str,
    tag: Option<&'a str>,
    line: usize,
}

/// A file as sentences of tokens.
struct Seq<'a> {
    sentences: Vec<Vec<Tok<'a>>>,
}

fn read<'a>(
    path: &Path,
    text: &'a str,
    format: InputFormat,
    opts: &ColumnCheck,
    conll_corpus: &'a Option<crate::corpus::Corpus>,
) -> Result<Seq<'a>> {
    let mut sentences = Vec::new();
    match format {
        InputFormat::Text => {
            for s in plain::sentences(text) {
                if s.is_blank() {
                    continue;
                }
                // One token per sentence: its characters without white space (segmentation
                // runs split words differently, but keep the characters).
                sentences.push(vec![Tok {
                    form: s.text,
                    tag: None,
                    line: s.line,
                }]);
            }
        }
        InputFormat::Conllu => {
            let col = match &opts.column {
                Some(c) => crate::family::tagging::column_index(
                    c,
                    crate::family::tagging::TaggingFormat::Conllu,
                )?,
                None => crate::formats::conllu::XPOS,
            };
            let doc = Conllu::parse(path, text)?;
            for s in &doc.sentences {
                sentences.push(
                    doc.words_of(s)
                        .iter()
                        .map(|w| Tok {
                            form: w.form(),
                            tag: Some(w.cell(col)),
                            line: w.line,
                        })
                        .collect(),
                );
            }
        }
        InputFormat::Tsv => {
            let col = match &opts.column {
                Some(c) => crate::family::tagging::column_index(
                    c,
                    crate::family::tagging::TaggingFormat::Tsv,
                )?,
                None => 1,
            };
            let doc = Tagged::parse(path, text, col)?;
            for s in &doc.sentences {
                sentences.push(
                    doc.rows_of(s)
                        .iter()
                        .map(|r| Tok {
                            form: r.token,
                            tag: Some(r.tags),
                            line: r.line,
                        })
                        .collect(),
                );
            }
        }
        InputFormat::Conll => {
            let Some(c) = conll_corpus else {
                return Err(Error::usage("check: internal: the CoNLL corpus is missing"));
            };
            let col = conll_column(c, opts.column.as_deref())?;
            for d in &c.docs {
                let mut t = d.start;
                for &n in &d.segments {
                    sentences.push(
                        (t..t + n)
                            .map(|k| Tok {
                                form: c.token_text(k),
                                tag: Some(c.cell(k, col)),
                                line: c.line(k),
                            })
                            .collect(),
                    );
                    t += n;
                }
            }
        }
        f => {
            return Err(Error::usage(format!(
                "format {f}: check reads hipe, conll, conllu, tsv or text"
            )))
        }
    }
    Ok(Seq { sentences })
}

pub(super) fn conll_column(c: &crate::corpus::Corpus, column: Option<&str>) -> Result<usize> {
    let name = column.unwrap_or("TAG");
    let by_number = name
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|&i| i < c.columns.len());
    by_number.or_else(|| c.column(name)).ok_or_else(|| {
        Error::usage(format!(
            "column {}: the file has {} columns ({})",
            snippet(name),
            c.columns.len(),
            c.columns.join(", ")
        ))
    })
}

/// Checks a run in a column format against the gold.
pub fn check_columns(
    gold: &Path,
    pred: &Path,
    format: InputFormat,
    opts: &ColumnCheck,
) -> Result<CheckReport> {
    let gtext = crate::io::read_text(gold)?;
    let ptext = crate::io::read_text(pred)?;
    let mut f = Findings::default();
    let (gc, pc) = if format == InputFormat::Conll {
        (
            Some(conll::parse(gold, &gtext)?),
            conll::parse(pred, &ptext).map(Some),
        )
    } else {
        (None, Ok(None))
    };
    let g = read(gold, &gtext, format, opts, &gc)?;
    let pc = match pc {
        Ok(p) => p,
        Err(e) => return Ok(unreadable(gold, pred, format, e)),
    };
    let p = match read(pred, &ptext, format, opts, &pc) {
        Ok(p) => p,
        Err(e) => return Ok(unreadable(gold, pred, format, e)),
    };
    let tagset = opts.tagset.as_deref().map(Tagset::load).transpose()?;
    let list = opts
        .labels
        .as_deref()
        .map(|p| read_label_list(p).map(|l| (p, l)))
        .transpose()?;
    alignment(gold, pred, format, &g, &p, &mut f);
    if format != InputFormat::Text {
        let against = Against {
            gold,
            tagset: tagset.as_ref(),
            list: list.as_ref().map(|(p, l)| (*p, l)),
        };
        tags(pred, format, &g, &p, &against, &mut f);
    }
    Ok(CheckReport {
        gold: gold.to_path_buf(),
        run: pred.to_path_buf(),
        tasks: Vec::new(),
        format: Some(format.name().to_string()),
        findings: f.into_sorted(),
    })
}

fn unreadable(gold: &Path, pred: &Path, format: InputFormat, e: Error) -> CheckReport {
    let mut f = Findings::default();
    let (file, line, msg) = match &e {
        Error::Input {
            path,
            line,
            message,
        } => (path.clone(), *line, message.clone()),
        other => (pred.to_path_buf(), 0, other.to_string()),
    };
    f.push(Code::Unreadable, at(&file, line).message(msg));
    CheckReport {
        gold: gold.to_path_buf(),
        run: pred.to_path_buf(),
        tasks: Vec::new(),
        format: Some(format.name().to_string()),
        findings: f.into_sorted(),
    }
}

/// What the run's tags are checked against besides the gold's.
struct Against<'a> {
    gold: &'a Path,
    tagset: Option<&'a Tagset>,
    list: Option<(&'a Path, &'a BTreeSet<String>)>,
}

/// Tag syntax, transitions and labels of CoNLL runs (as against any gold: `labels`), tags the
/// gold (or the label list) does not know, values outside the tag set.
fn tags(pred: &Path, format: InputFormat, g: &Seq, p: &Seq, against: &Against, f: &mut Findings) {
    let Against { gold, tagset, list } = *against;
    let all = |s: &Seq| -> Vec<(String, usize)> {
        s.sentences
            .iter()
            .flatten()
            .filter_map(|t| t.tag.map(|x| (x.to_string(), t.line)))
            .collect()
    };
    let (gt, pt) = (all(g), all(p));
    if format == InputFormat::Conll {
        let labels: BTreeSet<String> = gt
            .iter()
            .filter_map(|(t, _)| iob_type(t).flatten().map(str::to_string))
            .collect();
        let known = Known::of(list, labels);
        known.blind_note(f, gold);
        let sentences: Vec<Vec<(&str, usize)>> = p
            .sentences
            .iter()
            .map(|s| {
                s.iter()
                    .filter_map(|t| t.tag.map(|x| (x, t.line)))
                    .collect()
            })
            .collect();
        check_tags(pred, &sentences, &known, f);
        return;
    }
    // Tagging files: values outside the tag set, or tags the gold never uses.
    match tagset {
        Some(ts) => {
            let known: BTreeSet<String> = ts_values(ts);
            let parts: BTreeSet<String> = ts.parts_of_speech.clone().unwrap_or_default();
            for (cell, line) in &pt {
                for tag in cell.split('|') {
                    let mut pieces = tag.split(ts.separator.as_str());
                    let pos = pieces.next().unwrap_or("");
                    if ts
                        .parts_of_speech
                        .as_ref()
                        .is_some_and(|l| !l.contains(pos))
                    {
                        let hint = match closest(pos, &parts) {
                            Some(c) => format!("the closest part of speech of the tag set is {c}"),
                            None => "no part of speech of the tag set is close to it".to_string(),
                        };
                        f.push(
                            Code::UnknownTag,
                            at(pred, *line)
                                .key(format!("{pos}{}", ts.separator))
                                .message(format!(
                                    "part of speech {} of tag {} is not in the tag set",
                                    snippet(pos),
                                    snippet(tag)
                                ))
                                .hint(hint),
                        );
                    }
                    if ts.categories.is_empty() {
                        continue;
                    }
                    for v in pieces {
                        if ts.category_of(v).is_none() {
                            let hint = match closest(v, &known) {
                                Some(c) => format!("the closest value of the tag set is {c}"),
                                None => "no value of the tag set is close to it".to_string(),
                            };
                            f.push(
                                Code::UnknownTag,
                                at(pred, *line)
                                    .key(v.to_string())
                                    .message(format!(
                                        "value {} of tag {} is not in the tag set",
                                        snippet(v),
                                        snippet(tag)
                                    ))
                                    .hint(hint),
                            );
                        }
                    }
                }
            }
        }
        None => {
            let known: BTreeSet<String> = match list {
                Some((_, l)) => l.clone(),
                None => gt
                    .iter()
                    .flat_map(|(c, _)| c.split('|').map(str::to_string))
                    .collect(),
            };
            let whose = match list {
                Some((p, _)) => format!("the label list {}", p.display()),
                None => "the gold".to_string(),
            };
            let mut unknown: BTreeMap<String, (usize, usize)> = BTreeMap::new();
            for (cell, line) in &pt {
                for tag in cell.split('|') {
                    if !known.contains(tag) {
                        let e = unknown.entry(tag.to_string()).or_insert((*line, 0));
                        e.1 += 1;
                    }
                }
            }
            for (tag, (line, n)) in unknown {
                let hint = match closest(&tag, &known) {
                    Some(c) => format!(
                        "the closest tag of {whose} is {c}; pass --tagset to check against the tag set"
                    ),
                    None => "pass --tagset to check against the tag set".to_string(),
                };
                f.push(
                    Code::UnknownLabel,
                    at(pred, line)
                        .key(tag.clone())
                        .message(format!(
                            "tag {} never occurs in {whose} ({n} tokens)",
                            snippet(&tag)
                        ))
                        .hint(hint),
                );
            }
        }
    }
}

fn ts_values(ts: &Tagset) -> BTreeSet<String> {
    ts.values().map(str::to_string).collect()
}
