//! Where things are in a campaign file of family tasks: TOML errors at their line, the lines
//! of top-level and task keys (toml's spans), so that every error names file and line.

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

/// The line of `key` among `keys`, if it is there.
pub(super) fn key_line(text: &str, keys: Option<&KeyPlaces>, key: &str) -> Option<usize> {
    keys?
        .keys()
        .find(|k| k.get_ref() == key)
        .map(|k| line_at(text, k.span().start))
}

/// The line of a task's `[[task]]` header (else of its first key).
pub(super) fn task_line(text: &str, keys: Option<&KeyPlaces>) -> usize {
    let Some(first) = keys.and_then(|k| k.keys().map(|k| k.span().start).min()) else {
        return 0;
    };
    let before = text.get(..first).unwrap_or("");
    match before
        .rfind("[[task]]")
        .or_else(|| before.rfind("[[ task ]]"))
    {
        Some(i) => line_at(text, i),
        None => line_at(text, first),
    }
}

/// The line an option error is about: the task key it starts with (`colour: not an option`,
/// `beta 0: …`), else the task's header.
pub(super) fn option_line(text: &str, keys: Option<&KeyPlaces>, message: &str) -> usize {
    let word: String = message
        .trim_start_matches('-')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let wanted = crate::api::key(&word);
    keys.and_then(|ks| {
        ks.keys()
            .find(|k| !word.is_empty() && crate::api::key(k.get_ref()) == wanted)
            .map(|k| line_at(text, k.span().start))
    })
    .unwrap_or_else(|| task_line(text, keys))
}
