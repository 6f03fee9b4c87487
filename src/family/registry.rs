//! The registry of families: each is a [`Registration`] (name, options of its own,
//! constructor); the crate's own are there from the start, [`register`] adds one.

use super::options::{Options, OPTION_NAMES};
use super::{fair, hipe, mentions, muc, nel, segmentation, spans, tagging, Family};
use crate::error::{Error, Result};

/// How a family is made: its name, the options it declares of its own (beyond the common
/// ones of [`Options`]; campaign files, Python keywords and [`Options::set`] then take them by
/// name) and its constructor. The crate's families are registered from the start; a family
/// defined elsewhere (a test, another crate) is added with [`register`] and then reaches
/// every front end that takes a family by name, with no edit elsewhere.
#[derive(Debug, Clone, Copy)]
pub struct Registration {
    /// The family's name (`segmentation`).
    pub name: &'static str,
    /// The options of its own, by name.
    pub options: &'static [&'static str],
    /// Makes the family from its options (a usage error for an option it does not take).
    pub build: fn(&Options) -> Result<Box<dyn Family>>,
}

/// The crate's families, in the order `--help` and messages list them.
const BUILT_IN: [Registration; 8] = [
    Registration {
        name: "spans",
        options: spans::OWN_OPTIONS,
        build: |o| Ok(Box::new(spans::SpanFamily::new(o)?)),
    },
    Registration {
        name: "fair",
        options: fair::OWN_OPTIONS,
        build: |o| Ok(Box::new(fair::FairFamily::new(o)?)),
    },
    Registration {
        name: "muc",
        options: muc::OWN_OPTIONS,
        build: |o| Ok(Box::new(muc::MucFamily::new(o)?)),
    },
    Registration {
        name: "segmentation",
        options: &[],
        build: |o| Ok(Box::new(segmentation::SegmentationFamily::new(o)?)),
    },
    Registration {
        name: "tagging",
        options: &[],
        build: |o| Ok(Box::new(tagging::TaggingFamily::new(o)?)),
    },
    Registration {
        name: "hipe",
        options: hipe::OWN_OPTIONS,
        build: |o| Ok(Box::new(hipe::HipeFamily::new(o)?)),
    },
    Registration {
        name: "nel",
        options: nel::OWN_OPTIONS,
        build: |o| Ok(Box::new(nel::NelFamily::new(o)?)),
    },
    Registration {
        name: "mentions",
        options: mentions::OWN_OPTIONS,
        build: |o| Ok(Box::new(mentions::MentionsFamily::new(o)?)),
    },
];

fn registry() -> &'static std::sync::RwLock<Vec<Registration>> {
    static REGISTRY: std::sync::OnceLock<std::sync::RwLock<Vec<Registration>>> =
        std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| std::sync::RwLock::new(BUILT_IN.to_vec()))
}

fn registered() -> Vec<Registration> {
    match registry().read() {
        Ok(r) => r.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    }
}

/// Adds a family to the registry; a usage error when its name is taken or one of its own
/// options is a common option's name. Registering the same registration again is a no-op.
pub fn register(r: Registration) -> Result<()> {
    let mut reg = match registry().write() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(old) = reg.iter().find(|x| x.name == r.name) {
        if old.options == r.options && std::ptr::fn_addr_eq(old.build, r.build) {
            return Ok(());
        }
        return Err(Error::usage(format!(
            "family: {} is registered already",
            crate::error::snippet(r.name)
        )));
    }
    if let Some(o) = r.options.iter().find(|o| OPTION_NAMES.contains(o)) {
        return Err(Error::usage(format!(
            "family {}: its own option {o} is a common option",
            r.name
        )));
    }
    reg.push(r);
    Ok(())
}

/// The names of the registered families, the crate's first.
pub fn names() -> Vec<&'static str> {
    registered().iter().map(|r| r.name).collect()
}

/// The options registered families declare of their own.
pub fn own_option_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for r in registered() {
        for o in r.options {
            if !v.contains(o) {
                v.push(o);
            }
        }
    }
    v
}

/// Other names of the crate's families: `ner` is the NER family `spans`.
pub const ALIASES: &[(&str, &str)] = &[("ner", "spans")];

/// The registered name of `name` (itself, or the family an alias stands for).
pub fn canonical(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, real)| real)
}

/// The family named `name` (or an alias of it: `ner` for `spans`) with `opts` (a usage error for
/// an unknown name or an option the family does not take).
pub fn build(name: &str, opts: &Options) -> Result<Box<dyn Family>> {
    let name = canonical(name);
    let reg = registered();
    let Some(r) = reg.iter().find(|r| r.name == name) else {
        return Err(Error::usage(format!(
            "family: unknown family {}; use one of {} (ner: spans)",
            crate::error::snippet(name),
            reg.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
        )));
    };
    (r.build)(opts)
}
