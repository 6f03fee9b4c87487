//! The type changes of a conversion, as seqscore's `process` makes them
//! (`seqscore/processing.py`, `_load_type_map` and `_parse_type_list` in
//! `seqscore/scripts/seqscore.py`): a type map first (a JSON object from each new type to the
//! list of types it replaces), then keep or remove (one of the two) on the mapped types.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::corpus::standoff::StandoffDoc;
use crate::error::{snippet, Error, Result};
use crate::spans::encoding::OUTSIDE;

/// Type map, keep and remove.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeChanges {
    /// Old type → new type.
    pub map: BTreeMap<String, String>,
    /// Only these types are kept (after mapping), when not empty.
    pub keep: BTreeSet<String>,
    /// These types are removed (after mapping).
    pub remove: BTreeSet<String>,
}

impl TypeChanges {
    /// Whether nothing changes.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty() && self.keep.is_empty() && self.remove.is_empty()
    }

    /// The type a mention of `label` gets, or `None` when it is removed.
    pub fn apply<'a>(&'a self, label: &'a str) -> Option<&'a str> {
        let t = self.map.get(label).map_or(label, String::as_str);
        let dropped = (!self.keep.is_empty() && !self.keep.contains(t)) || self.remove.contains(t);
        (!dropped).then_some(t)
    }

    /// One warning for each type the changes name that no mention of the input `shown` has
    /// (`seen`: its mentions' types before the changes), so that they change nothing: an old
    /// type of the map, or a type of keep or remove that no mention has once mapped (a
    /// typo, `--keep-types PERS`, would otherwise remove every mention silently).
    pub fn unseen(&self, seen: &BTreeSet<String>, shown: &str) -> Vec<String> {
        let mapped: BTreeSet<String> = seen
            .iter()
            .map(|t| self.map.get(t).unwrap_or(t).clone())
            .collect();
        let mut named: Vec<(&str, &String, &BTreeSet<String>, &str)> = Vec::new();
        named.extend(self.map.keys().map(|t| ("map_types", t, seen, "maps")));
        named.extend(
            self.keep
                .iter()
                .map(|t| ("keep_types", t, &mapped, "keeps")),
        );
        named.extend(
            self.remove
                .iter()
                .map(|t| ("remove_types", t, &mapped, "removes")),
        );
        named
            .into_iter()
            .filter(|(_, t, known, _)| !known.contains(*t))
            .map(|(option, t, known, does)| {
                let hint = crate::eval::labels::closest(t, known)
                    .map(|c| format!("; did you mean {}?", snippet(c)))
                    .unwrap_or_default();
                let types: Vec<&str> = known.iter().map(String::as_str).collect();
                format!(
                    "{option}: no mention of {shown} has the type {} (its types: {}), so it {does} nothing{hint}",
                    snippet(t),
                    if types.is_empty() { "none".to_string() } else { types.join(", ") }
                )
            })
            .collect()
    }

    /// Sets keep and remove from comma-separated lists (`option` names them in messages).
    pub fn set_lists(&mut self, keep: Option<&str>, remove: Option<&str>) -> Result<()> {
        if keep.is_some() && remove.is_some() {
            return Err(Error::usage(
                "keep_types and `remove_types` cannot be given together (seqscore refuses it too)",
            ));
        }
        self.keep = type_list("keep_types", keep.unwrap_or(""))?;
        self.remove = type_list("remove_types", remove.unwrap_or(""))?;
        Ok(())
    }
}

/// A comma-separated list of types, blanks ignored; `O` is refused.
fn type_list(option: &str, s: &str) -> Result<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for t in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if t == OUTSIDE {
            return Err(Error::usage(format!(
                "{option}: {OUTSIDE:?} is the outside label, not a type"
            )));
        }
        out.insert(t.to_string());
    }
    if out.is_empty() && !s.trim().is_empty() {
        return Err(Error::usage(format!("{option}: no type in {}", snippet(s))));
    }
    Ok(out)
}

/// Reads a type map file: `{"NEW": ["OLD", …], …}`; every key and value a non-empty string
/// other than `O`, no old type given twice.
pub fn read_type_map(path: &Path) -> Result<BTreeMap<String, String>> {
    let text = crate::io::read_text(path)?;
    let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| Error::input(path, e.line(), format!("bad JSON: {e}")))?;
    let line_of = |needle: &str| {
        let quoted = format!("{needle:?}");
        text.lines()
            .position(|l| l.contains(&quoted))
            .map_or(0, |i| i + 1)
    };
    let Value::Object(o) = v else {
        return Err(Error::input(
            path,
            1,
            "expected a JSON object from each new type to the list of types it replaces, \
             like {\"MISC\": [\"EVENT\", \"WORK\"]}",
        ));
    };
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    for (to, from) in &o {
        if to.is_empty() || to == OUTSIDE {
            return Err(Error::input(
                path,
                line_of(to),
                format!("key {}: expected a type (not empty, not O)", snippet(to)),
            ));
        }
        // A new type is written as it is into every output: one CoNLL cell, a brat type.
        if let Some(c) = to
            .chars()
            .find(|&c| c.is_whitespace() || c == ';' || c == '|')
        {
            return Err(Error::input(
                path,
                line_of(to),
                format!(
                    "key {}: a type with {c:?} cannot be written as a CoNLL tag (cells are \
                     split at white space, levels at `|`) nor as a brat type (white space, `;`)",
                    snippet(to)
                ),
            ));
        }
        let Value::Array(list) = from else {
            return Err(Error::input(
                path,
                line_of(to),
                format!("the value of {}: expected a list of types", snippet(to)),
            ));
        };
        for f in list {
            let Some(f) = f.as_str().filter(|f| !f.is_empty() && *f != OUTSIDE) else {
                return Err(Error::input(
                    path,
                    line_of(to),
                    format!(
                        "in the list of {}: expected a type (a string, not empty, not O), found {}",
                        snippet(to),
                        snippet(&f.to_string())
                    ),
                ));
            };
            if let Some(before) = map.insert(f.to_string(), to.clone()) {
                return Err(Error::input(
                    path,
                    line_of(to),
                    format!(
                        "type {} is mapped twice (to {} and {})",
                        snippet(f),
                        snippet(&before),
                        snippet(to)
                    ),
                ));
            }
        }
    }
    Ok(map)
}

/// The type changes applied to the spans of a standoff document: labels mapped, spans of
/// removed types left out.
pub fn apply_to_spans(doc: &mut StandoffDoc, t: &TypeChanges) {
    if t.is_empty() {
        return;
    }
    doc.spans
        .retain_mut(|s| match t.apply(&s.label).map(str::to_string) {
            Some(l) => {
                s.label = l;
                true
            }
            None => false,
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_then_keep_or_remove() {
        let mut t = TypeChanges::default();
        t.map.insert("EVENT".into(), "MISC".into());
        t.set_lists(Some("PER, MISC"), None).unwrap();
        assert_eq!(t.apply("EVENT"), Some("MISC"));
        assert_eq!(t.apply("PER"), Some("PER"));
        assert_eq!(t.apply("LOC"), None);
        assert!(t.set_lists(Some("A"), Some("B")).is_err());
        assert!(t.set_lists(Some("O"), None).is_err());
        t.set_lists(None, Some("MISC")).unwrap();
        assert_eq!((t.apply("EVENT"), t.apply("LOC")), (None, Some("LOC")));
    }

    #[test]
    fn types_named_but_never_seen_are_warned_of() {
        let mut t = TypeChanges::default();
        t.map.insert("EVENT".into(), "MISC".into());
        t.map.insert("WORK".into(), "MISC".into());
        t.set_lists(Some("PERS,MISC"), None).unwrap();
        let seen: BTreeSet<String> = ["EVENT", "PER"].iter().map(|s| s.to_string()).collect();
        let w = t.unseen(&seen, "run.conll");
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].starts_with("map_types: no mention of run.conll has the type \"WORK\""));
        assert!(w[1].contains("keep_types") && w[1].ends_with("did you mean \"PER\"?"));
        // Keep and remove read the mapped types: EVENT is gone once mapped to MISC.
        t.set_lists(None, Some("EVENT")).unwrap();
        assert!(t.unseen(&seen, "x")[1].contains("removes nothing"));
    }
}
