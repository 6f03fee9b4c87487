//! The normalisations of a mention's text, each as the scorer it comes from writes it
//! (`docs/generative.md`): Python's `str.split()` and `str.strip()` white space, SQuAD's
//! `normalize_answer`, InstructUIE's `_format` (with its ground truth's rendering and the
//! repetition its `AuditRepeat` looks for).

use super::answer::Mention;
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

/// `text` lower-cased into `out` (cleared first), as `str::to_lowercase` does.
pub fn lower_into(text: &str, out: &mut String) {
    out.clear();
    if text.contains('Σ') {
        // A final sigma depends on its neighbours: the library's rule.
        out.push_str(&text.to_lowercase());
    } else {
        out.extend(text.chars().flat_map(char::to_lowercase));
    }
}

/// The text of an InstructUIE item's key: `type:name`, or the name.
pub fn probe_key(label: Option<&str>, name: &str) -> String {
    match label {
        Some(l) => format!("{l}:{name}"),
        None => name.to_string(),
    }
}

/// Mentions as InstructUIE's ground truth writes them: `type: name` items joined by `; `, or
/// `None` without any.
pub fn render(mentions: &[&Mention]) -> String {
    if mentions.is_empty() {
        return "None".to_string();
    }
    let items: Vec<String> = mentions
        .iter()
        .map(|m| format!("{}: {}", m.label.as_deref().unwrap_or(""), m.text))
        .collect();
    items.join("; ")
}

/// InstructUIE's `AuditRepeat`, `re.search(r'(\w{5,})\1{2,}', answer)`: some 5 or more
/// word characters three times in a row, within one run of word characters.
pub fn repeats_thrice(answer: &str) -> bool {
    let mut rest = answer;
    while let Some(i) = rest.find(is_word) {
        let tail = &rest[i..];
        let end = tail.find(|c| !is_word(c)).unwrap_or(tail.len());
        let run = &tail[..end];
        let found = match run.is_ascii() {
            true => cube(run.as_bytes()),
            false => cube(&run.chars().collect::<Vec<char>>()),
        };
        if found {
            return true;
        }
        rest = &tail[end..];
    }
    false
}

/// Whether `s` holds `x x x` with `x` of 5 or more items. For each length `l`, the positions
/// `k·l` sample every stretch of period `l`: one of length 3·l holds `k·l` and `k·l + l`
/// with at least 2·l matches `s[i] == s[i + l]` around `k·l` (each side counted to 2·l at
/// most), and the reverse.
fn cube<T: PartialEq>(s: &[T]) -> bool {
    let r = s.len();
    for l in 5..=r / 3 {
        let mut q = 0;
        while q + l < r {
            let mut f = 0;
            while f < 2 * l && q + l + f < r && s[q + f] == s[q + l + f] {
                f += 1;
            }
            let mut b = 0;
            while f > 0 && b < 2 * l && b < q && s[q - 1 - b] == s[q + l - 1 - b] {
                b += 1;
            }
            if b + f >= 2 * l {
                return true;
            }
            q += l;
        }
    }
    false
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

    #[test]
    fn repeats_are_instructuies_audit() {
        // Each as Python's `re.search(r'(\w{5,})\1{2,}', s) is not None` answers it.
        for (s, want) in [
            ("XantippeXantippeXantippe", true),
            ("XanXanXanXanXanXan", true),
            ("XanXanXanXanXan", false),
            ("XantippeXantippe", false),
            ("aaaaaaaaaaaaaaa", true),
            ("aaaaaaaaaaaaaa", false),
            ("abababababababababab", true),
            ("ééééééééééééééé", true),
            ("Paris Paris Paris Paris", false),
            ("loc: ZurichZurichZurich; per: Anna", true),
            ("xyzZurichZurichZurichq", true),
            ("ZurichZurich Zurich", false),
        ] {
            assert_eq!(repeats_thrice(s), want, "{s}");
        }
    }
}
