//! The options of every family, parsed in one place: the CLI, campaign files and Python give
//! each option by its name and a text value ([`Options::set`]), or build [`Options`] directly.
//! Messages name the option (`beta: …`); the front ends add their own wording (`--beta`).

use crate::error::{snippet, Error, Result};
use crate::formats::InputFormat;
use crate::matching::fair::Focus;
use crate::matching::span_count::Attribution;
use crate::matching::SpanRegime;
use crate::spans::stacked::Continuation;

/// The option names [`Options::set`] takes (a `-` in a name may also be written `_`).
pub const OPTION_NAMES: [&str; 15] = [
    "format",
    "column",
    "beta",
    "tagset",
    "regimes",
    "weights",
    "labels",
    "exclude",
    "focus",
    "continuation",
    "ignore-punct",
    "repair",
    "map-types",
    "keep-types",
    "remove-types",
];

/// The options that change a run as it is read (spans, fair and muc on CoNLL runs).
pub const RUN_CHANGES: [&str; 4] = ["repair", "map-types", "keep-types", "remove-types"];

/// The options of the families: each family reads those it understands and refuses the
/// others it was given ([`Options::refuse_except`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// Input format of both files (`None`: detect or take the family's default).
    pub format: Option<InputFormat>,
    /// The scored column (a name, or a 1-based number where the format allows).
    pub column: Option<String>,
    /// β of the extra F-beta column (F1 is always given); finite, in (0, 1e6].
    pub beta: Option<f64>,
    /// A tag set: a TOML file or a bundled preset name (`nkjp`).
    pub tagset: Option<String>,
    /// Span regimes to report (default: all four).
    pub regimes: Option<Vec<SpanRegime>>,
    /// A weight formula for the weighted fair scores.
    pub weights: Option<String>,
    /// Only these labels.
    pub labels: Option<Vec<String>>,
    /// Leave out these labels.
    pub exclude: Vec<String>,
    /// Whose label LE and LBE count for (fair).
    pub focus: Option<Focus>,
    /// What an `I-` continues (fair on CoNLL).
    pub continuation: Option<Continuation>,
    /// Drop punctuation tokens from spans (fair on CoNLL).
    pub ignore_punct: bool,
    /// Also make the family's per-annotation listing ([`super::Statistics::listing`]), where
    /// it has one. Not an option of the numbers: set by the front ends when a listing file is
    /// asked for (`errors`, `judgements`), never part of a signature.
    pub listing: bool,
    /// The repair of the run's invalid BIO transitions as it is read (`repair`: conlleval or
    /// discard, seqscore's; docs/convert.md).
    pub repair: Option<crate::spans::encoding::Repair>,
    /// The run's type changes as it is read (`map_types` FILE, `keep_types`, `remove_types`).
    pub types: crate::convert::TypeChanges,
    /// Options a registered family declares of its own ([`super::Registration::options`]),
    /// by name, as text: the family parses them when it is built.
    pub own: indexmap::IndexMap<String, String>,
}

fn list(name: &str, value: &str) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for x in value.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        if out.iter().any(|y| y == x) {
            return Err(Error::usage(format!(
                "{name}: {} is listed twice",
                snippet(x)
            )));
        }
        out.push(x.to_string());
    }
    if out.is_empty() {
        return Err(Error::usage(format!("{name}: expected at least one value")));
    }
    Ok(out)
}

/// A value as a message shows it: as given when short and plain, else quoted and cut to 60
/// characters.
pub fn shown(value: &str) -> String {
    if value.chars().count() <= 60
        && !value.chars().any(|c| c.is_control() || c == ' ')
        && !value.is_empty()
    {
        value.to_string()
    } else {
        snippet(value)
    }
}

/// A `beta` value: a finite number in (0, 1e6].
pub fn parse_beta(value: &str) -> Result<f64> {
    match value.trim().parse::<f64>() {
        Ok(b) if b.is_finite() && b > 0.0 && b <= 1e6 => Ok(b),
        _ => Err(Error::usage(format!(
            "beta {}: expected a number greater than 0 (at most 1e6)",
            shown(value)
        ))),
    }
}

/// A span regime by its name (`strict`, `exact`, `partial`, `ent_type`; `fuzzy` is
/// `ent_type` as the HIPE scorer calls it).
pub fn parse_regime(value: &str) -> Result<SpanRegime> {
    match value.trim().to_ascii_lowercase().as_str() {
        "strict" => Ok(SpanRegime::Strict),
        "exact" => Ok(SpanRegime::Exact),
        "partial" => Ok(SpanRegime::Partial),
        "ent_type" | "ent-type" | "type" | "fuzzy" => Ok(SpanRegime::EntType),
        _ => Err(Error::usage(format!(
            "regimes: unknown regime {}; use strict, exact, partial or ent_type",
            snippet(value)
        ))),
    }
}

impl Options {
    /// Sets option `name` from its text value (a list is comma-separated; a switch takes
    /// `true`/`false`, or an empty value for true). Unknown names and bad values are usage
    /// errors that name the option.
    pub fn set(&mut self, name: &str, value: &str) -> Result<()> {
        let key = name.trim_start_matches('-').replace('_', "-");
        match key.as_str() {
            "format" => {
                self.format = match value.trim() {
                    "auto" => None,
                    v => Some(v.parse()?),
                }
            }
            "column" => {
                let v = value.trim();
                if v.is_empty() {
                    return Err(Error::usage("column: expected a column name or number"));
                }
                self.column = Some(v.to_string());
            }
            "beta" => self.beta = Some(parse_beta(value)?),
            "tagset" => {
                if value.trim().is_empty() {
                    return Err(Error::usage("tagset: expected a file or a preset name"));
                }
                self.tagset = Some(value.to_string());
            }
            "regimes" => {
                let mut rs = Vec::new();
                for r in list("regimes", value)? {
                    let r = parse_regime(&r)?;
                    if rs.contains(&r) {
                        return Err(Error::usage(format!(
                            "regimes: {} is listed twice",
                            r.json_name()
                        )));
                    }
                    rs.push(r);
                }
                self.regimes = Some(rs);
            }
            "weights" => {
                crate::eval::weights::parse_weights(value)?;
                self.weights = Some(value.to_string());
            }
            "labels" => self.labels = Some(list("labels", value)?),
            "exclude" => self.exclude = list("exclude", value)?,
            "focus" => {
                self.focus = Some(match value.trim().to_ascii_lowercase().as_str() {
                    "target" | "gold" => Focus::Target,
                    "system" | "run" | "pred" => Focus::System,
                    _ => {
                        return Err(Error::usage(format!(
                            "focus: {}: use target or system",
                            snippet(value)
                        )))
                    }
                })
            }
            "continuation" => {
                self.continuation = Some(match value.trim().to_ascii_lowercase().as_str() {
                    "conlleval" => Continuation::Conlleval,
                    "reference" => Continuation::Reference,
                    _ => {
                        return Err(Error::usage(format!(
                            "continuation: {}: use conlleval or reference",
                            snippet(value)
                        )))
                    }
                })
            }
            "ignore-punct" => self.ignore_punct = switch("ignore-punct", value)?,
            "repair" => {
                self.repair =
                    Some(crate::spans::encoding::Repair::parse(value).ok_or_else(|| {
                        Error::usage(format!(
                            "repair: unknown repair {}; use conlleval or discard",
                            snippet(value)
                        ))
                    })?)
            }
            "map-types" | "type-map" => {
                self.types.map = crate::convert::read_type_map(std::path::Path::new(value))?
            }
            "keep-types" | "remove-types" => {
                let keep = key == "keep-types";
                let mut t = crate::convert::TypeChanges::default();
                t.set_lists(keep.then_some(value), (!keep).then_some(value))?;
                if (keep && !self.types.remove.is_empty()) || (!keep && !self.types.keep.is_empty())
                {
                    t.set_lists(Some(value), Some(value))?;
                }
                self.types.keep.extend(t.keep);
                self.types.remove.extend(t.remove);
            }
            _ => {
                let own = super::own_option_names();
                match own.iter().find(|n| n.replace('_', "-") == key) {
                    Some(n) => {
                        self.own.insert((*n).to_string(), value.to_string());
                    }
                    None => {
                        let mut all: Vec<&str> = OPTION_NAMES.to_vec();
                        for n in own {
                            if !all.contains(&n) {
                                all.push(n);
                            }
                        }
                        return Err(Error::usage(format!(
                            "unknown option {}; the options are {}",
                            snippet(name),
                            all.join(", ")
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// The β of F-beta (1 when none was given).
    pub fn beta(&self) -> f64 {
        self.beta.unwrap_or(1.0)
    }

    /// The value of a family's own option `name`, when given.
    pub fn own(&self, name: &str) -> Option<&str> {
        self.own.get(name).map(String::as_str)
    }

    /// The names of the options that are set (the common ones, then the families' own).
    pub fn given(&self) -> Vec<&str> {
        let mut v = Vec::new();
        let flags = [
            ("format", self.format.is_some()),
            ("column", self.column.is_some()),
            ("beta", self.beta.is_some()),
            ("tagset", self.tagset.is_some()),
            ("regimes", self.regimes.is_some()),
            ("weights", self.weights.is_some()),
            ("labels", self.labels.is_some()),
            ("exclude", !self.exclude.is_empty()),
            ("focus", self.focus.is_some()),
            ("continuation", self.continuation.is_some()),
            ("ignore-punct", self.ignore_punct),
            ("repair", self.repair.is_some()),
            ("map-types", !self.types.map.is_empty()),
            ("keep-types", !self.types.keep.is_empty()),
            ("remove-types", !self.types.remove.is_empty()),
        ];
        for (n, set) in flags {
            if set {
                v.push(n);
            }
        }
        v.extend(self.own.keys().map(String::as_str));
        v
    }

    /// The run's changes as it is read (`repair`, type changes), as the readers take them;
    /// `None` when there are none.
    pub fn run_changes(&self) -> Option<std::sync::Arc<crate::convert::RunChanges>> {
        crate::convert::RunChanges::new(self.repair, &self.types, self.column.as_deref())
            .map(std::sync::Arc::new)
    }

    /// The read options of the run (its changes as it is read) and the changes, whose log
    /// says what was repaired (`repair_warnings`).
    pub fn run_read(
        &self,
    ) -> (
        crate::corpus::ReadOptions,
        Option<std::sync::Arc<crate::convert::RunChanges>>,
    ) {
        let changes = self.run_changes();
        let read = crate::corpus::ReadOptions {
            text: changes
                .clone()
                .map(|c| c as std::sync::Arc<dyn crate::corpus::TextRewrite>),
            ..Default::default()
        };
        (read, changes)
    }

    /// A usage error when the run is to be changed as it is read but is a standoff file
    /// (its tags are spans: `fairscore convert` changes their types).
    pub fn refuse_standoff_changes(&self) -> Result<()> {
        match self.given().into_iter().find(|n| RUN_CHANGES.contains(n)) {
            Some(n) => Err(Error::usage(format!(
                "{n}: changes the tags of a CoNLL run as it is read; for standoff runs, change                  their types with fairscore convert first"
            ))),
            None => Ok(()),
        }
    }

    /// A usage error when an option outside `allowed` is set (`family` names the family).
    pub fn refuse_except(&self, family: &str, allowed: &[&str]) -> Result<()> {
        if let Some(n) = self.given().into_iter().find(|n| !allowed.contains(n)) {
            let n = n.to_string();
            return Err(Error::usage(format!(
                "{n}: not an option of the {family} family (its options: {})",
                allowed.join(", ")
            )));
        }
        Ok(())
    }

    /// The format, checked against the family's `formats` (`None` when not given).
    pub fn format_of(&self, family: &str, formats: &[&str]) -> Result<Option<InputFormat>> {
        match self.format {
            Some(f) if !formats.contains(&f.name()) => Err(Error::usage(format!(
                "format {}: the {family} family reads {}",
                f.name(),
                formats.join(", ")
            ))),
            f => Ok(f),
        }
    }
}

/// The warnings of the repairs made while a run was read: one line each,
/// `repaired FILE:LINE: OLD -> NEW (REPAIR)`; then the types its type changes name that no
/// mention of the run has.
pub fn repair_warnings(changes: Option<&crate::convert::RunChanges>) -> Vec<String> {
    use crate::corpus::TextRewrite;
    changes
        .map(|c| {
            let repaired = c.log().into_iter().map(|l| format!("repaired {l}"));
            repaired.chain(c.warnings()).collect()
        })
        .unwrap_or_default()
}

/// An on/off option's value: empty, `true`, `yes` or `1` is on; `false`, `no` or `0` off
/// (any case); anything else a usage error naming the option. Every family's switches.
pub(crate) fn switch(name: &str, value: &str) -> Result<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "true" | "yes" | "1" => Ok(true),
        "false" | "no" | "0" => Ok(false),
        _ => Err(Error::usage(format!(
            "{name}: {}: use true or false",
            snippet(value)
        ))),
    }
}

/// The `attribution` and `min-overlap` options: `hipe` (default) or `nervaluate`, and with
/// `nervaluate` a minimum overlap from 1 to 100 (percent; default 1).
pub(crate) fn attribution(opts: &Options) -> Result<Attribution> {
    let nervaluate = match opts
        .own("attribution")
        .map(|v| v.trim().to_ascii_lowercase())
    {
        None => false,
        Some(v) if v == "hipe" => false,
        Some(v) if v == "nervaluate" => true,
        Some(_) => {
            return Err(Error::usage(format!(
                "attribution {}: use hipe or nervaluate",
                shown(opts.own("attribution").unwrap_or_default())
            )))
        }
    };
    let min_overlap = match opts.own("min-overlap") {
        None => 1.0,
        Some(_) if !nervaluate => {
            return Err(Error::usage(
                "min-overlap: a minimum overlap applies to attribution nervaluate only",
            ))
        }
        Some(v) => match v.trim().parse::<f64>() {
            Ok(x) if (1.0..=100.0).contains(&x) => x,
            _ => {
                return Err(Error::usage(format!(
                    "min-overlap {}: expected a percentage from 1 to 100, as nervaluate's min_overlap_percentage",
                    shown(v)
                )))
            }
        },
    };
    Ok(if nervaluate {
        Attribution::Nervaluate { min_overlap }
    } else {
        Attribution::Hipe
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_once_and_errors_name_the_option() {
        let mut o = Options::default();
        o.set("beta", "0.5").unwrap();
        o.set("ignore_punct", "").unwrap();
        o.set("--regimes", "strict,fuzzy").unwrap();
        assert_eq!(o.beta, Some(0.5));
        assert!(o.ignore_punct);
        assert_eq!(
            o.regimes,
            Some(vec![SpanRegime::Strict, SpanRegime::EntType])
        );
        let e = o.set("beta", "1e308").unwrap_err().to_string();
        assert!(e.contains("beta"), "{e}");
        let long = "9".repeat(400);
        assert!(o.set("beta", &long).unwrap_err().to_string().len() < 200);
        assert!(o.set("regimes", "strict,strict").is_err());
        assert!(o.set("labels", "PER,PER").is_err());
        assert!(o.set("colour", "x").is_err());
        o.set("format", "auto").unwrap();
        assert_eq!(o.format, None);
        assert!(o.set("format", "xml").is_err());
        assert!(o.refuse_except("x", &["beta"]).is_err());
    }
}
