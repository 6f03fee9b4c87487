//! Reading span files (the format of Ortmann's FairEval reference implementation) into a
//! [`Corpus`] that holds no tokens, only [`Annotation`]s.
//!
//! One span a line, `LABEL<TAB>begin<TAB>end[<TAB>tok, tok, …]`, positions 1-based and
//! inclusive; a blank line ends a unit (sentence), which becomes a document of the corpus.
//! A fourth column lists the covered positions of a discontinuous span (if any of its items is
//! not a whole number the whole range is used, as the reference does). Positions are bounded
//! by [`MAX_POSITION`], and an end before its begin is an error: work never depends on the size
//! of a number written in the file. A span given twice in one unit (same label, positions
//! and tokens) is an error naming both lines: it would be counted twice.

use crate::corpus::{Annotation, Builder, Corpus};
use crate::error::{snippet, Error, Result};
use std::collections::HashMap;
use std::path::Path;

/// Largest token position accepted in a span file.
pub const MAX_POSITION: usize = 1 << 32;

/// What makes two spans of a unit the same: label, begin, end and covered tokens.
type SpanKey = (String, usize, usize, Option<Vec<usize>>);

/// Parses the text of a span file.
pub fn parse(path: &Path, text: &str) -> Result<Corpus> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut b = Builder::new(path, vec!["TOKEN".to_string()]);
    let mut in_unit = false;
    // The spans of the current unit → the line each is on.
    let mut unit: HashMap<SpanKey, usize> = HashMap::new();
    for (i, raw) in text.split('\n').enumerate() {
        let ln = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            in_unit = false;
            unit.clear();
            continue;
        }
        if !in_unit {
            b.document(None, ln);
            in_unit = true;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 3 {
            return Err(Error::input(
                path,
                ln,
                format!(
                    "expected LABEL<TAB>begin<TAB>end<TAB>tokens, found {} field(s)",
                    fields.len()
                ),
            ));
        }
        let label = fields[0].trim();
        if label.is_empty() {
            return Err(Error::input(path, ln, "missing label in column 1"));
        }
        let index = |col: usize, what: &str| -> Result<usize> {
            let v = fields[col].trim();
            match v.parse::<usize>() {
                Ok(x) if (1..=MAX_POSITION).contains(&x) => Ok(x),
                Ok(x) if x > MAX_POSITION => Err(Error::input(
                    path,
                    ln,
                    format!(
                        "token index {x} as {what} (column {}) is beyond the limit {MAX_POSITION}",
                        col + 1
                    ),
                )),
                _ => Err(Error::input(
                    path,
                    ln,
                    format!(
                        "expected a token index >= 1 as {what} (column {}), found {}",
                        col + 1,
                        snippet(v)
                    ),
                )),
            }
        };
        let begin = index(1, "begin")?;
        let end = index(2, "end")?;
        if end < begin {
            return Err(Error::input(
                path,
                ln,
                format!("the span ends (column 3: {end}) before it begins (column 2: {begin})"),
            ));
        }
        let mut tokens = None;
        if fields.len() >= 4 {
            let toks: std::result::Result<Vec<usize>, _> = fields[fields.len() - 1]
                .split(',')
                .map(|v| v.trim().parse::<usize>())
                .collect();
            if let Ok(mut toks) = toks {
                toks.retain(|&t| t >= begin && t <= end);
                toks.sort_unstable();
                toks.dedup();
                if !toks.is_empty() && toks.len() != end - begin + 1 {
                    tokens = Some(toks);
                }
            }
        }
        let key = (label.to_string(), begin, end, tokens.clone());
        if let Some(first) = unit.insert(key, ln) {
            return Err(Error::input(
                path,
                ln,
                format!(
                    "span {} {begin}-{end} is given twice in this unit (lines {first} and {ln}): \
                     it would be counted twice; remove one",
                    snippet(label)
                ),
            ));
        }
        b.annotation(Annotation {
            doc: 0,
            label: label.to_string(),
            begin,
            end,
            tokens,
            line: ln,
        });
    }
    b.format("spans");
    Ok(b.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("t.spans")
    }

    #[test]
    fn units_and_lines() {
        let c = parse(
            p(),
            "PER\t2\t3\t2, 3\nLOC\t5\t7\t5, 7\n\n\nNONE\t999\t999\t999\n",
        )
        .unwrap();
        assert_eq!(c.docs.len(), 2);
        assert_eq!(c.annotations.len(), 3);
        assert_eq!(c.annotations[1].tokens, Some(vec![5, 7]));
        assert_eq!(c.annotations[0].tokens, None);
        assert_eq!(c.annotations[2].doc, 1);
        assert_eq!(c.annotations[2].line, 5);
    }

    #[test]
    fn bad_positions_are_errors() {
        let e = parse(p(), "PER\t2\t3\nLOC\tx\t5\t5\n").unwrap_err();
        assert_eq!(
            e,
            Error::input(
                p(),
                2,
                "expected a token index >= 1 as begin (column 2), found \"x\""
            )
        );
        assert!(parse(p(), "PER\t1\t3000000000000\n")
            .unwrap_err()
            .to_string()
            .contains("beyond the limit"));
        assert!(parse(p(), "PER\t5\t3\n")
            .unwrap_err()
            .to_string()
            .contains("before it begins"));
    }

    #[test]
    fn a_span_given_twice_in_a_unit_is_an_error_naming_both_lines() {
        let e = parse(p(), "PER\t1\t2\nLOC\t4\t5\nPER\t1\t2\n").unwrap_err();
        assert_eq!(
            e,
            Error::input(
                p(),
                3,
                "span \"PER\" 1-2 is given twice in this unit (lines 1 and 3): it would be counted twice; remove one"
            )
        );
        // The same span in two units, another label or other tokens: fine.
        parse(
            p(),
            "PER\t1\t2\n\nPER\t1\t2\nLOC\t1\t2\nPER\t1\t3\t1, 3\nPER\t1\t3\n",
        )
        .unwrap();
    }
}
