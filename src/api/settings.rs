//! Named option values as the front ends give them: the CLI's flags, Python's keyword
//! arguments, a campaign file's keys. Names are compared with `-` and `_` alike; every value
//! is text (a list comma-separated, a switch `true`/`false`), and is parsed once, in the
//! library. A setting no parser took is an error naming it ([`Settings::finish`]).

use std::cell::RefCell;
use std::collections::BTreeSet;

use indexmap::IndexMap;

use crate::error::{snippet, Error, Result};

/// One named value.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    /// A text value.
    Text(String),
    /// A switch.
    Flag(bool),
    /// A list of values (written comma-separated to the parsers).
    List(Vec<String>),
}

/// The settings of one command.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    items: IndexMap<String, Setting>,
    taken: RefCell<BTreeSet<String>>,
}

/// The canonical form of an option name: `-` as `_`, no leading dashes.
pub fn key(name: &str) -> String {
    name.trim_start_matches('-').replace('-', "_")
}

impl Settings {
    /// No settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` (replacing an earlier value).
    pub fn set(&mut self, name: &str, value: Setting) -> &mut Self {
        self.items.insert(key(name), value);
        self
    }

    /// Sets a text value when there is one.
    pub fn text(&mut self, name: &str, value: Option<impl ToString>) -> &mut Self {
        if let Some(v) = value {
            self.set(name, Setting::Text(v.to_string()));
        }
        self
    }

    /// Sets a switch when it is on.
    pub fn flag(&mut self, name: &str, on: bool) -> &mut Self {
        if on {
            self.set(name, Setting::Flag(true));
        }
        self
    }

    /// Whether `name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.items.contains_key(&key(name))
    }

    /// The names given, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.items.keys().map(String::as_str)
    }

    /// The text of `name` (a list joined with commas, a switch as `true`/`false`), marking it
    /// taken.
    pub fn get(&self, name: &str) -> Option<String> {
        let k = key(name);
        let v = self.items.get(&k)?;
        self.taken.borrow_mut().insert(k);
        Some(match v {
            Setting::Text(s) => s.clone(),
            Setting::Flag(b) => b.to_string(),
            Setting::List(l) => l.join(","),
        })
    }

    /// A switch: given as a flag, or as text `true`/`false`/`1`/`0`/`yes`/`no`.
    pub fn switch(&self, name: &str) -> Result<bool> {
        let k = key(name);
        let Some(v) = self.items.get(&k) else {
            return Ok(false);
        };
        self.taken.borrow_mut().insert(k.clone());
        match v {
            Setting::Flag(b) => Ok(*b),
            Setting::Text(s) => match s.trim().to_ascii_lowercase().as_str() {
                "" | "true" | "1" | "yes" => Ok(true),
                "false" | "0" | "no" => Ok(false),
                _ => Err(Error::usage(format!(
                    "{k}: {} is not true or false",
                    snippet(s)
                ))),
            },
            Setting::List(_) => Err(Error::usage(format!(
                "{k}: expected true or false, not a list"
            ))),
        }
    }

    /// A number of type `T` (a usage error naming the option when it does not parse).
    pub fn number<T: std::str::FromStr>(&self, name: &str, what: &str) -> Result<Option<T>> {
        match self.get(name) {
            None => Ok(None),
            Some(s) => {
                s.trim().parse::<T>().map(Some).map_err(|_| {
                    Error::usage(format!("{}: {} is not {what}", key(name), snippet(&s)))
                })
            }
        }
    }

    /// Marks `name` taken without reading it (an option the caller handles itself).
    pub fn take(&self, name: &str) {
        self.taken.borrow_mut().insert(key(name));
    }

    /// A usage error for the first setting no parser took: `command` does not have it.
    pub fn finish(&self, command: &str) -> Result<()> {
        let taken = self.taken.borrow();
        match self.items.keys().find(|k| !taken.contains(*k)) {
            None => Ok(()),
            Some(k) => Err(Error::usage(format!("{k}: not an option of {command}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_with_either_spelling_and_unused_ones_are_refused() {
        let mut s = Settings::new();
        s.text("noise-level", Some("0-0.1"))
            .flag("skip_check", true);
        s.set("n_best", Setting::List(vec!["1".into(), "3".into()]));
        assert_eq!(s.get("noise_level").as_deref(), Some("0-0.1"));
        assert!(s.switch("--skip-check").unwrap());
        assert!(s.finish("score").is_err());
        assert_eq!(s.get("n-best").as_deref(), Some("1,3"));
        assert!(s.finish("score").is_ok());
        let mut t = Settings::new();
        t.text("seed", Some("x"));
        assert!(t.number::<u64>("seed", "a whole number").is_err());
    }
}
