//! Where a campaign file's values are: spans turned into line numbers, and the errors of
//! the file's values, each naming the file and the line.

use std::path::Path;

use toml::Spanned as S;

use crate::campaign::names::{Name, Pattern, Placeholder};
use crate::{Error, Result};

/// Turns spans into line numbers for the errors of one campaign file.
pub(super) struct Source<'a> {
    pub(super) text: &'a str,
    pub(super) path: &'a Path,
}

impl Source<'_> {
    pub(super) fn line(&self, offset: usize) -> usize {
        self.text
            .get(..offset)
            .map(|before| before.matches('\n').count() + 1)
            .unwrap_or(0)
    }

    pub(super) fn err<T>(&self, at: &S<T>, msg: impl std::fmt::Display) -> Error {
        Error::input(
            self.path,
            self.line(at.span().start),
            format!("invalid campaign: {msg}"),
        )
    }

    pub(super) fn name(&self, v: &S<String>, what: &str) -> Result<Name> {
        Name::new(v.get_ref()).map_err(|e| self.err(v, format!("{what} {e}")))
    }

    /// A table key (dataset name, bundle id): toml gives keys no place, so the error names
    /// the first line that mentions the key after `from`.
    pub(super) fn key(&self, key: &str, from: usize, what: &str) -> Result<Name> {
        Name::new(key).map_err(|e| {
            let at = self
                .text
                .get(from..)
                .and_then(|rest| rest.find(key))
                .map_or(0, |i| from + i);
            Error::input(
                self.path,
                self.line(at),
                format!("invalid campaign: {what} {e}"),
            )
        })
    }

    /// Refuses a list giving an entry twice, naming it and the line of its second place
    /// (docs/errors.md, "Repeated entries").
    pub(super) fn once(&self, items: &[S<String>], what: &str) -> Result<()> {
        let mut seen = std::collections::HashSet::new();
        match items.iter().find(|x| !seen.insert(x.get_ref())) {
            Some(x) => Err(self.err(x, format!("{what} {:?} is given twice", x.get_ref()))),
            None => Ok(()),
        }
    }

    pub(super) fn pattern(
        &self,
        v: &S<String>,
        what: &str,
        allowed: &[Placeholder],
    ) -> Result<Pattern> {
        Pattern::parse(v.get_ref(), allowed).map_err(|e| self.err(v, format!("{what}: {e}")))
    }
}
