//! Parser for weight formulas in the reference implementation's syntax, e.g.
//! `LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEO = 0.5 TP + 0.25 FP + 0.25 FN`.
//!
//! Each comma-separated formula is `CATEGORY = w WORD + w WORD …` with WORD one of TP, FP, FN
//! and w a non-negative decimal number (`0.5 FP`, `0.5*FP`, `.5 FP`); a word not written has
//! weight 0. TP, FP and FN get weight 1 for themselves unless a formula sets them. The word
//! `default` gives the fair weights.
//!
//! The parser is strict where the reference's regular expression is lenient, so that no
//! formula is silently read as something else: a term without a number, a negative, exponent
//! or non-finite number, text that is not a term, a word given twice, a category given twice,
//! and `BE` together with `BES`, `BEL` or `BEO` are usage errors naming the formula.

use crate::error::snippet;
use crate::matching::fair::{Weight, Weights, CATEGORY_NAMES};
use crate::{Error, Result};

/// Parses a weight formula.
pub fn parse_weights(formula: &str) -> Result<Weights> {
    if formula.trim() == "default" {
        return Ok(Weights::fair());
    }
    let mut entries: Vec<(String, Weight)> = Vec::new();
    for part in formula.split(',') {
        if part.trim().is_empty() {
            continue;
        }
        let name = category_name(part).ok_or_else(|| {
            Error::usage(format!(
                "weights: expected `CATEGORY = w TP + w FP + w FN` in {}",
                snippet(part.trim())
            ))
        })?;
        if !CATEGORY_NAMES.contains(&name) {
            return Err(Error::usage(format!(
                "weights: unknown category {} in {} (expected one of {})",
                snippet(name),
                snippet(part.trim()),
                CATEGORY_NAMES.join(", ")
            )));
        }
        let w = parse_terms(part)?;
        if entries.iter().any(|(n, _)| n == name) {
            return Err(Error::usage(format!(
                "weights: category {name} is given twice in {}",
                snippet(formula.trim())
            )));
        }
        entries.push((name.to_string(), w));
    }
    let has = |n: &str| entries.iter().any(|(e, _)| e == n);
    if has("BE") && (has("BES") || has("BEL") || has("BEO")) {
        return Err(Error::usage(
            "weights: BE sets BES, BEL and BEO at once; give either BE or the three of them",
        ));
    }
    if entries.is_empty() {
        return Err(Error::usage(format!(
            "weights: no formula found in {}",
            snippet(formula)
        )));
    }
    for (name, w) in [
        (
            "TP",
            Weight {
                tp: 1.0,
                ..Weight::default()
            },
        ),
        (
            "FP",
            Weight {
                fp: 1.0,
                ..Weight::default()
            },
        ),
        (
            "FN",
            Weight {
                fn_: 1.0,
                ..Weight::default()
            },
        ),
    ] {
        if !entries.iter().any(|(n, _)| n == name) {
            entries.push((name.to_string(), w));
        }
    }
    Ok(Weights { entries })
}

/// Renders weights back into formula syntax (one formula per category, in order).
pub fn format_weights(w: &Weights) -> String {
    w.entries
        .iter()
        .map(|(name, w)| {
            let mut terms = Vec::new();
            for (x, word) in [(w.tp, "TP"), (w.fp, "FP"), (w.fn_, "FN")] {
                if x != 0.0 {
                    terms.push(format!("{x} {word}"));
                }
            }
            if terms.is_empty() {
                terms.push("0 TP".to_string());
            }
            format!("{name} = {}", terms.join(" + "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The word characters before the first `=` (leading whitespace allowed).
fn category_name(part: &str) -> Option<&str> {
    let s = part.trim_start();
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
        .map_or(s.len(), |(i, _)| i);
    if end == 0 {
        return None;
    }
    let rest = s[end..].trim_start();
    rest.starts_with('=').then_some(&s[..end])
}

/// The weights of the right-hand side of one formula: `w WORD (+ w WORD)*`.
fn parse_terms(part: &str) -> Result<Weight> {
    let bad = |why: &str| {
        Error::usage(format!(
            "weights: {why} in {}; expected CATEGORY = w TP + w FP + w FN with non-negative decimal weights",
            snippet(part.trim())
        ))
    };
    let rhs = part.split_once('=').map(|(_, r)| r).unwrap_or("");
    if rhs.trim().is_empty() {
        return Err(bad("no terms"));
    }
    let mut w = Weight::default();
    let mut seen: Vec<&str> = Vec::new();
    for term in rhs.split('+') {
        let term = term.trim();
        let word_at = term
            .char_indices()
            .rev()
            .find(|&(_, c)| !c.is_ascii_alphabetic())
            .map_or(0, |(i, c)| i + c.len_utf8());
        let (num, word) = term.split_at(word_at);
        let num = num.trim_end();
        let num = num.strip_suffix('*').unwrap_or(num).trim_end();
        if !matches!(word, "TP" | "FP" | "FN") {
            return Err(bad(&format!(
                "{} does not end in TP, FP or FN",
                snippet(term)
            )));
        }
        if seen.contains(&word) {
            return Err(bad(&format!("{word} appears twice")));
        }
        seen.push(word);
        if num.is_empty() {
            return Err(bad(&format!(
                "{} has no weight (write e.g. 1 {word})",
                snippet(term)
            )));
        }
        if num.starts_with('-') {
            return Err(bad(&format!("negative weight {}", snippet(num))));
        }
        if !is_number(num) && !num.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad(&format!("{} is not a decimal number", snippet(num))));
        }
        let x: f64 = num
            .parse()
            .map_err(|_| bad(&format!("{} is not a decimal number", snippet(num))))?;
        if !x.is_finite() {
            return Err(bad(&format!("weight {} is too large", snippet(num))));
        }
        match word {
            "TP" => w.tp = x,
            "FP" => w.fp = x,
            _ => w.fn_ = x,
        }
    }
    Ok(w)
}

/// `\d*\.?\d+` as a whole.
fn is_number(s: &str) -> bool {
    let (int, frac) = s.split_once('.').unwrap_or(("", s));
    let digits = |x: &str| x.bytes().all(|c| c.is_ascii_digit());
    digits(int) && !frac.is_empty() && digits(frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_paper_formula() {
        let w = parse_weights(
            "LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, \
             BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN",
        )
        .unwrap();
        assert_eq!(
            w.categories(),
            vec!["LE", "BES", "BEL", "BEO", "LBE", "TP", "FP", "FN"]
        );
        let beo = &w.entries[3].1;
        assert_eq!((beo.tp, beo.fp, beo.fn_), (0.5, 0.25, 0.25));
        let le = &w.entries[0].1;
        assert_eq!((le.tp, le.fp, le.fn_), (0.0, 0.5, 0.5));
        assert_eq!(w.entries[5].1.tp, 1.0);
    }

    #[test]
    fn accepts_star_and_leading_dot() {
        let w = parse_weights("BE = .5*TP + 2 * FN").unwrap();
        assert_eq!(
            (w.entries[0].1.tp, w.entries[0].1.fp, w.entries[0].1.fn_),
            (0.5, 0.0, 2.0)
        );
    }

    #[test]
    fn rejects_unknown_categories_and_garbage() {
        assert!(parse_weights("XX = 1 TP").is_err());
        assert!(parse_weights("0.5 TP").is_err());
        assert!(parse_weights(" , ").is_err());
    }

    #[test]
    fn refuses_what_it_would_misread() {
        for f in [
            "LE = 0.5 FP + 0.5 FN garbage",
            "LE = -0.5 FP",
            "LE = 1e3 FP",
            "LE = 1FP + 2 FP",
            "LE = FP",
            &format!("LE = {} FP", "9".repeat(400)),
            "BE = 0.5 TP, BES = 0.5 TP",
            "LE = 0.5 FP, LE = 0.5 FN",
            "LE =",
            "LE = 0\u{feff}FP + 0.5 B",
        ] {
            assert!(parse_weights(f).is_err(), "{f}");
        }
        let w = parse_weights("LE = 2 FP + 0.25*FN").unwrap();
        assert_eq!((w.entries[0].1.fp, w.entries[0].1.fn_), (2.0, 0.25));
    }

    #[test]
    fn long_values_are_quoted_short() {
        let long = "9".repeat(400);
        let name = "X".repeat(400);
        for f in [
            format!("LE = {long} FP"),
            format!("{name} = 1 TP"),
            format!("LE = 1 {name}"),
            format!("LE = 0.5 FP, LE = 0.5 FN, {name} = 1 TP"),
        ] {
            let e = parse_weights(&f).unwrap_err().to_string();
            assert!(e.len() < 400, "{} bytes: {e}", e.len());
        }
    }

    #[test]
    fn round_trips_through_format() {
        let w = parse_weights("LE = 0.5 FP + 0.5 FN, TP = 1 TP").unwrap();
        assert_eq!(parse_weights(&format_weights(&w)).unwrap(), w);
    }
}
