//! The normalisations of a mention's text, each as the scorer it comes from writes it
//! (`docs/generative.md`): Python's `str.split()` and `str.strip()` white space, SQuAD's
//! `normalize_answer`, InstructUIE's `_format`.

use super::settings::Norm;
use crate::corpus::standoff::is_py_space;

/// `text` normalised by `norm`, written into `out` (cleared first).
pub fn normalize(norm: Norm, text: &str, out: &mut String) {
    out.clear();
    match norm {
        Norm::None => out.push_str(text),
        Norm::Case => out.extend(
            text.trim_matches(is_py_space)
                .chars()
                .flat_map(char::to_lowercase),
        ),
        Norm::Whitespace => collapse(text, out),
        Norm::Squad => squad(text, out),
        Norm::Instructuie => format_item(text, out),
    }
}

/// `' '.join(text.split())`.
fn collapse(text: &str, out: &mut String) {
    for w in text.split(is_py_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
}

/// A character of Python's `\w` (for `str` patterns): alphanumeric or `_`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// SQuAD's `normalize_answer`: lower, remove ASCII punctuation, replace the whole words a,
/// an, the by a space, collapse white space.
fn squad(text: &str, out: &mut String) {
    let lower: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_ascii_punctuation())
        .collect();
    let mut spaced = String::with_capacity(lower.len());
    let mut rest = lower.as_str();
    while let Some(c) = rest.chars().next() {
        let w = is_word(c);
        let end = rest
            .char_indices()
            .find(|&(_, x)| is_word(x) != w)
            .map_or(rest.len(), |(i, _)| i);
        let run = &rest[..end];
        if w && matches!(run, "a" | "an" | "the") {
            spaced.push(' ');
        } else {
            spaced.push_str(run);
        }
        rest = &rest[end..];
    }
    collapse(&spaced, out);
}

/// The characters InstructUIE's `_remove_redundant_space` removes white space around.
fn is_special(c: char) -> bool {
    matches!(c, ',' | ':' | '(' | ')' | '.' | '_' | ';' | '\'' | '-')
}

/// InstructUIE's `_format`: white space collapsed and removed around `, : ( ) . _ ; ' -`,
/// lower-cased, braces removed, runs of `,`, `.` and `;` made one, `’` made `'`, and
/// `location` rewritten `located`.
pub fn format_item(text: &str, out: &mut String) {
    let mut collapsed = String::with_capacity(text.len());
    collapse(text, &mut collapsed);
    let chars: Vec<char> = collapsed.chars().collect();
    let mut s = String::with_capacity(collapsed.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let left = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
            let right = chars.get(i + 1).copied();
            if left.is_some_and(is_special) || right.is_some_and(is_special) {
                continue;
            }
        }
        s.extend(c.to_lowercase());
    }
    let mut prev: Option<char> = None;
    for c in s.chars() {
        let c = if c == '’' { '\'' } else { c };
        if c == '{' || c == '}' {
            continue;
        }
        if matches!(c, ',' | '.' | ';') && prev == Some(c) {
            continue;
        }
        out.push(c);
        prev = Some(c);
    }
    if out.contains("location") {
        *out = out.replace("location", "located");
    }
}

/// InstructUIE's items of an answer: `_format` of the whole, split on `;`, each item
/// `_format`ted again (an empty item is an item, as in its set).
pub fn instructuie_items(raw: &str) -> Vec<String> {
    let mut whole = String::new();
    format_item(raw, &mut whole);
    let mut out = Vec::new();
    for piece in whole.split(';') {
        let mut item = String::new();
        format_item(piece, &mut item);
        out.push(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(norm: Norm, s: &str) -> String {
        let mut o = String::new();
        normalize(norm, s, &mut o);
        o
    }

    #[test]
    fn squad_removes_articles_punctuation_and_space() {
        assert_eq!(n(Norm::Squad, "The  Barack Obama, Jr."), "barack obama jr");
        assert_eq!(n(Norm::Squad, "An anthem of a theory"), "anthem of theory");
        assert_eq!(n(Norm::Squad, "Théâtre"), "théâtre");
        assert_eq!(n(Norm::Case, "  New York \n"), "new york");
    }

    #[test]
    fn instructuie_format_follows_its_regexes() {
        assert_eq!(
            instructuie_items("Person : Barack  Obama ;; location: {Hawaii}. "),
            vec!["person:barack obama", "located:hawaii."]
        );
        assert_eq!(instructuie_items(""), vec![""]);
        assert_eq!(instructuie_items("a ,, b’s"), vec!["a,b's"]);
    }
}
