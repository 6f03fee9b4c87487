//! Where things are in a campaign file of family tasks: TOML errors at their line, the lines
//! of top-level and task keys (toml's spans), so that every error names file and line; a key's TOML
//! value as a setting.

use std::path::Path;

use crate::error::Error;

/// A TOML error as an input error at its line.
pub(super) fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> Error {
    let line = e.span().map_or(0, |s| line_at(text, s.start));
    Error::input(
        path,
        line,
        format!("invalid campaign: {}", crate::error::one_line(e.message())),
    )
}

/// The 1-based line of a byte offset.
pub(super) fn line_at(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(0, |before| before.matches('\n').count() + 1)
}

/// An error's message without the `usage: ` of usage errors (it becomes part of an input
/// error about the campaign file).
pub(super) fn plain(e: &Error) -> String {
    match e {
        Error::Usage(m) => m.clone(),
        e => e.to_string(),
    }
}

/// Where the keys of a campaign file are: its top-level keys and each task's keys.
pub(super) type KeyPlaces = indexmap::IndexMap<toml::Spanned<String>, toml::Value>;

#[derive(serde::Deserialize)]
pub(super) struct TaskPlaces {
    #[serde(default)]
    pub(super) task: Vec<KeyPlaces>,
}

/// A campaign file's text with where its lines and `[[task]]` headers start, found once: the
/// line of any offset is then a binary search, not a count from the file's start (which made
/// a campaign of n tasks cost n² to read).
pub(super) struct Places<'a> {
    text: &'a str,
    newlines: Vec<usize>,
    headers: Vec<usize>,
    spaced_headers: Vec<usize>,
}

impl<'a> Places<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        let find = |what: &str| memchr::memmem::find_iter(text.as_bytes(), what).collect();
        Places {
            text,
            newlines: memchr::memchr_iter(b'\n', text.as_bytes()).collect(),
            headers: find("[[task]]"),
            spaced_headers: find("[[ task ]]"),
        }
    }

    /// The 1-based line of a byte offset (0 for one that is not inside the text), as
    /// [`line_at`].
    pub(super) fn line_at(&self, offset: usize) -> usize {
        if !self.text.is_char_boundary(offset) {
            return 0;
        }
        self.newlines.partition_point(|&n| n < offset) + 1
    }

    /// The start of the last of `found` (occurrences of a text `len` bytes long) that ends
    /// by `end`.
    fn last_before(found: &[usize], len: usize, end: usize) -> Option<usize> {
        let n = found.partition_point(|&i| i + len <= end);
        n.checked_sub(1).map(|k| found[k])
    }
}

/// The line of `key` among `keys`, if it is there.
pub(super) fn key_line(at: &Places, keys: Option<&KeyPlaces>, key: &str) -> Option<usize> {
    keys?
        .keys()
        .find(|k| k.get_ref() == key)
        .map(|k| at.line_at(k.span().start))
}

/// The line of a task's `[[task]]` header (else of its first key).
pub(super) fn task_line(at: &Places, keys: Option<&KeyPlaces>) -> usize {
    let Some(first) = keys.and_then(|k| k.keys().map(|k| k.span().start).min()) else {
        return 0;
    };
    if !at.text.is_char_boundary(first) {
        return 0;
    }
    match Places::last_before(&at.headers, "[[task]]".len(), first)
        .or_else(|| Places::last_before(&at.spaced_headers, "[[ task ]]".len(), first))
    {
        Some(i) => at.line_at(i),
        None => at.line_at(first),
    }
}

/// The line an option error is about: the task key it starts with (`colour: not an option`,
/// `beta 0: …`), else the task's header.
pub(super) fn option_line(at: &Places, keys: Option<&KeyPlaces>, message: &str) -> usize {
    let word: String = message
        .trim_start_matches('-')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let wanted = crate::api::key(&word);
    keys.and_then(|ks| {
        ks.keys()
            .find(|k| !word.is_empty() && crate::api::key(k.get_ref()) == wanted)
            .map(|k| at.line_at(k.span().start))
    })
    .unwrap_or_else(|| task_line(at, keys))
}

/// A TOML value of a campaign key as a setting: text, a switch or a list (`None`: a table or
/// a list of those).
pub(super) fn value_text(v: &toml::Value) -> Option<crate::api::Setting> {
    match v {
        toml::Value::String(s) => Some(crate::api::Setting::Text(s.clone())),
        toml::Value::Integer(n) => Some(crate::api::Setting::Text(n.to_string())),
        toml::Value::Float(x) => Some(crate::api::Setting::Text(x.to_string())),
        toml::Value::Boolean(b) => Some(crate::api::Setting::Flag(*b)),
        toml::Value::Array(a) => a
            .iter()
            .map(|x| match x {
                toml::Value::String(s) => Some(s.clone()),
                toml::Value::Integer(n) => Some(n.to_string()),
                toml::Value::Float(f) => Some(f.to_string()),
                _ => None,
            })
            .collect::<Option<Vec<String>>>()
            .map(crate::api::Setting::List),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_give_the_lines_line_at_counts() {
        let text = "name = \"x\"\n[[task]]\nname = \"é\"\n[[ task ]]\nfamily = \"fair\"\n";
        let at = Places::new(text);
        for i in 0..=text.len() + 2 {
            assert_eq!(at.line_at(i), line_at(text, i), "offset {i}");
        }
        // Headers: the last one before an offset, of either spelling.
        assert_eq!(Places::last_before(&at.headers, 8, text.len()), Some(11));
        assert_eq!(Places::last_before(&at.headers, 8, 18), None);
        assert_eq!(
            Places::last_before(&at.spaced_headers, 10, text.len()),
            Some(32)
        );
    }
}
