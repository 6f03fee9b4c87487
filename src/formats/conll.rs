//! Reading CoNLL-style column files (CoNLL-2000 chunks, CoNLL-2002/2003 NER) into a
//! [`Corpus`].
//!
//! One token a line, cells separated by white space; a blank line ends a sentence (a segment
//! of the corpus); a line whose first cell is `-DOCSTART-` starts a new document (a file
//! without one is a single document). Every line of a file must have the same number of
//! cells. The columns are named `TOKEN` (the first), `POS` (the second, when there are three
//! or more) and `TAG` (the last); any others `COL3`, `COL4`, … by position. Tags are read as
//! written (no upper-casing): `B-PER`, `I-PER`, `O`, stacked levels joined by `|`.

use crate::corpus::{Builder, Corpus};
use crate::error::{snippet, Error, Result};
use std::path::Path;

/// The column names of a CoNLL file with `n` cells a line.
pub fn column_names(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i {
            0 => "TOKEN".to_string(),
            _ if i + 1 == n => "TAG".to_string(),
            1 => "POS".to_string(),
            _ => format!("COL{}", i + 1),
        })
        .collect()
}

/// Whether a line starts a new document.
fn is_docstart(first: &str) -> bool {
    first == "-DOCSTART-"
}

/// Checks that column `col` holds one-level IOB/IOBES tags, as `score --format conll` reads
/// them: `O` (or `_`, read as `O`), or `B-`, `I-`, `E-`, `S-` and a type without white space
/// (IOB1, IOB2 and IOBES, each read right by the entity reading of `spans`). Anything else — a
/// bare label, a prefix without a type, stacked levels (which `fair` reads), the `L-`, `U-`,
/// `M-`, `W-` of BILOU, BMES and BMEOW, `B-LOC ` in a HIPE cell — is an input error naming
/// the line, rather than a tag silently read as some other type.
pub fn check_iob(corpus: &Corpus, col: usize) -> Result<()> {
    for tok in 0..corpus.n_tokens() {
        let tag = corpus.cell(tok, col);
        let ok = matches!(tag, "O" | "_")
            || matches!(tag.split_once('-'), Some(("B" | "I" | "E" | "S", ty))
                if !ty.is_empty() && !ty.contains('|') && !ty.contains(char::is_whitespace));
        if !ok {
            let name = corpus.columns.get(col).map_or("TAG", String::as_str);
            let hint = if tag.contains('|') {
                " (stacked levels are read by `fair`, not by `score`)"
            } else if matches!(tag.split_once('-'), Some(("L" | "U" | "M" | "W", _))) {
                " (BILOU, BMES or BMEOW tags: write them as BIO first, `fairscore convert --from ENCODING --to BIO`)"
            } else {
                ""
            };
            return Err(Error::input(
                &corpus.path,
                corpus.line(tok),
                format!(
                    "column {name}: expected an IOB tag (B-TYPE, I-TYPE, E-TYPE, S-TYPE or O), found {}{hint}",
                    snippet(tag)
                ),
            ));
        }
    }
    Ok(())
}

/// Parses the text of a CoNLL file.
pub fn parse(path: &Path, text: &str) -> Result<Corpus> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut builder: Option<Builder> = None;
    let mut width = 0usize;
    let mut fields: Vec<&str> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        fields.clear();
        fields.extend(raw.split_whitespace());
        let Some(&first) = fields.first() else {
            if let Some(b) = builder.as_mut() {
                b.close_segment();
            }
            continue;
        };
        if is_docstart(first) {
            let b = builder.get_or_insert_with(|| Builder::new(path, Vec::new()));
            b.document(None, line);
            continue;
        }
        if width == 0 {
            if fields.len() < 2 {
                return Err(Error::input(
                    path,
                    line,
                    format!(
                        "expected a token and its tag separated by white space (FORM [POS …] TAG), found one cell {}",
                        snippet(first)
                    ),
                ));
            }
            width = fields.len();
            let names = column_names(width);
            match builder.as_mut() {
                Some(b) => b.set_columns(names),
                None => builder = Some(Builder::new(path, names)),
            }
        } else if fields.len() != width {
            return Err(Error::input(
                path,
                line,
                format!(
                    "expected {width} cells like the first token line, found {}",
                    fields.len()
                ),
            ));
        }
        if let Some(b) = builder.as_mut() {
            b.token(line, fields.iter().copied());
            if b.text_len() > u32::MAX as usize / 2 {
                return Err(Error::input(
                    path,
                    line,
                    "file too large (over 2 GiB of cells)",
                ));
            }
        }
    }
    match builder {
        Some(mut b) if width > 0 => {
            b.format("conll");
            Ok(b.finish())
        }
        _ => Err(Error::input(path, 0, "no token lines: the file is empty")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("t.conll")
    }

    #[test]
    fn documents_sentences_and_columns() {
        let c = parse(
            p(),
            "-DOCSTART- -X- O\n\nEU NNP B-ORG\nrejects VBZ O\n\nPeter NNP B-PER\n-DOCSTART- -X- O\nx NN O\n",
        )
        .unwrap();
        assert_eq!(c.columns, vec!["TOKEN", "POS", "TAG"]);
        assert_eq!(c.docs.len(), 2);
        assert_eq!(c.docs[0].segments, vec![2, 1]);
        assert_eq!(c.docs[1].segments, vec![1]);
        assert_eq!(c.cell(0, 2), "B-ORG");
        assert_eq!(c.token_text(2), "Peter");
        assert_eq!(c.line(2), 6);
    }

    #[test]
    fn ragged_lines_are_errors_naming_the_line() {
        let e = parse(p(), "a B-X\nb\n").unwrap_err();
        assert_eq!(
            e,
            Error::input(
                p(),
                2,
                "expected 2 cells like the first token line, found 1"
            )
        );
        assert!(parse(p(), "\n\n").is_err());
    }

    #[test]
    fn two_columns_are_token_and_tag() {
        let c = parse(p(), "a B-X\nb I-X\n").unwrap();
        assert_eq!(c.columns, vec!["TOKEN", "TAG"]);
        assert_eq!(c.docs.len(), 1);
        assert_eq!(c.docs[0].segments, vec![2]);
    }
}
