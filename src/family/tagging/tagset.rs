//! Tagsets for tagging evaluation (TOML): how a tag splits into a part of speech and values,
//! which category each value belongs to, and the weights of weighted positional accuracy.
//!
//! ```toml
//! separator = ":"            # between the part of speech and the values (default ":")
//! [categories]               # category name → its values
//! number = ["sg", "pl"]
//! case = ["nom", "gen", "acc"]
//! [weights]                  # optional: gives the `weighted` scoring function
//! pos = 2.0                  # the part of speech
//! case = 2.0                 # a category
//! default = 0.5              # categories without a weight, and values no category lists
//! [weights.ger]              # conditional weights for the part of speech `ger` (CWPA)
//! case = 1.0
//! ```
//!
//! Resolution: a weight of the base table is its own entry, else `default`, else 0 (`pos`
//! too). In a conditional table `[weights.CLASS]`: the category's entry, else the table's
//! `default`, else the base table's weight; `pos` is the table's entry, else the base `pos`;
//! values no category lists weigh the table's `default`, else the base `default`.
//!
//! Validation (an input error naming the file and line): TOML syntax, unknown keys, a value
//! listed twice (in one category or two), an empty value or one holding the separator, a
//! category named `pos` or `default`, a weight that is negative or not finite, an empty
//! separator or one holding `|` (which separates alternative tags in a cell).

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::Path;

use indexmap::IndexMap;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use crate::{Error, Result};

/// The bundled NKJP preset (`presets/nkjp.toml`).
pub const NKJP: &str = include_str!("../../../presets/nkjp.toml");

/// Names of the bundled presets.
pub const PRESETS: &[&str] = &["nkjp"];

/// Weights of the part of speech and of every category, resolved (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct WeightTable {
    /// For the part of speech.
    pub pos: f64,
    /// For values that no category lists.
    pub default: f64,
    /// Indexed like [`Tagset::categories`].
    pub categories: Vec<f64>,
}

/// The weights of a tagset: a base table and conditional tables by part of speech.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// The `[weights]` table, for parts of speech without a conditional table.
    pub base: WeightTable,
    /// `[weights.CLASS]` tables, in file order.
    pub conditional: Vec<(String, WeightTable)>,
    by_class: HashMap<String, usize>,
    scale: f64,
}

impl Weights {
    /// The table for a tag of this part of speech.
    pub fn for_pos(&self, pos: &str) -> &WeightTable {
        match self.by_class.get(pos) {
            Some(&i) => &self.conditional[i].1,
            None => &self.base,
        }
    }

    /// The factor every weight is multiplied by before weights are summed: a power of two
    /// that brings the largest weight of all tables into [0.5, 1] ([`crate::matching::unit_scale`]), so
    /// that sums cannot overflow and scaling all weights alike changes no score.
    pub fn scale(&self) -> f64 {
        self.scale
    }
}

/// What a tag set does not know about a tag ([`Tagset::outside`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outside<'x> {
    /// A part of speech the tag set does not list.
    PartOfSpeech(&'x str),
    /// A value no category lists.
    Value(&'x str),
}

impl std::fmt::Display for Outside<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outside::PartOfSpeech(p) => write!(f, "part of speech {p:?}"),
            Outside::Value(v) => write!(f, "value {v:?}"),
        }
    }
}

/// A parsed, validated tagset.
#[derive(Debug, Clone, PartialEq)]
pub struct Tagset {
    /// Separator of the part of speech and the values.
    pub separator: String,
    /// Category names, in file order.
    pub categories: Vec<String>,
    value_category: HashMap<String, u32>,
    /// The parts of speech, when the file lists them (`parts_of_speech = [...]`).
    pub parts_of_speech: Option<std::collections::BTreeSet<String>>,
    /// Present when the file has a `[weights]` table.
    pub weights: Option<Weights>,
}

impl Tagset {
    /// A tagset with this separator, no categories and no weights.
    pub fn plain(separator: &str) -> Tagset {
        Tagset {
            separator: separator.to_string(),
            categories: Vec::new(),
            value_category: HashMap::new(),
            parts_of_speech: None,
            weights: None,
        }
    }

    /// The bundled preset of that name.
    pub fn preset(name: &str) -> Option<Tagset> {
        match name {
            "nkjp" => Tagset::parse(Path::new("presets/nkjp.toml"), NKJP).ok(),
            _ => None,
        }
    }

    /// Reads a tagset file, or names a bundled preset (`nkjp`).
    pub fn load(spec: &str) -> Result<Tagset> {
        if let Some(t) = Tagset::preset(spec) {
            return Ok(t);
        }
        let path = Path::new(spec);
        let text = crate::io::read_text(path)?;
        Tagset::parse(path, &text)
    }

    /// Every value a category lists.
    pub fn values(&self) -> impl Iterator<Item = &str> {
        self.value_category.keys().map(String::as_str)
    }

    /// The index of the category that lists `value`.
    pub fn category_of(&self, value: &str) -> Option<u32> {
        self.value_category.get(value).copied()
    }

    /// The first piece of `tag` the tag set does not know: its part of speech when the tag set
    /// lists parts of speech and not this one, else its first value that no category lists
    /// (when the tag set has categories). `None` for a tag inside the tag set.
    pub fn outside<'x>(&self, tag: &'x str) -> Option<Outside<'x>> {
        let mut parts = tag.split(self.separator.as_str());
        let pos = parts.next().unwrap_or("");
        if self
            .parts_of_speech
            .as_ref()
            .is_some_and(|l| !l.contains(pos))
        {
            return Some(Outside::PartOfSpeech(pos));
        }
        if self.categories.is_empty() {
            return None;
        }
        parts
            .find(|v| self.category_of(v).is_none())
            .map(Outside::Value)
    }

    /// Parses and validates TOML text; `path` is only used in messages.
    pub fn parse(path: &Path, text: &str) -> Result<Tagset> {
        // Line numbers by binary search over the newline offsets, found once: a message or
        // a value's line costs log n, so loading stays n log n however many values there are.
        let newlines: Vec<usize> = memchr::memchr_iter(b'\n', text.as_bytes()).collect();
        let line_of = |span: Range<usize>| 1 + newlines.partition_point(|&nl| nl < span.start);
        let raw: RawTagset = toml::from_str(text).map_err(|e| {
            let line = e.span().map(&line_of).unwrap_or(0);
            Error::input(
                path,
                line,
                format!("invalid tagset: {}", crate::error::one_line(e.message())),
            )
        })?;
        let err = |span: Range<usize>, msg: String| Error::input(path, line_of(span), msg);

        let separator = match raw.separator {
            None => ":".to_string(),
            Some(s) => {
                if s.get_ref().is_empty() || s.get_ref().contains('|') {
                    return Err(err(
                        s.span(),
                        "separator: expected a non-empty string without `|` (which separates alternative tags)".into(),
                    ));
                }
                s.into_inner()
            }
        };

        let mut categories: Vec<String> = Vec::new();
        // value → (category, line where it is listed)
        let mut listed: HashMap<String, (u32, usize)> = HashMap::new();
        for (name, values) in raw.categories.unwrap_or_default() {
            let n = name.get_ref();
            if n == "pos" || n == "default" {
                return Err(err(
                    name.span(),
                    format!("category {n:?}: the name is reserved for [weights] (choose another)"),
                ));
            }
            let idx = categories.len() as u32;
            for v in values {
                let value = v.get_ref();
                if value.is_empty() || value.contains(separator.as_str()) || value.contains('|') {
                    return Err(err(
                        v.span(),
                        format!(
                            "category {n}: value {value:?}: expected a non-empty value without the separator {separator:?} or `|`"
                        ),
                    ));
                }
                if let Some(&(other, line)) = listed.get(value) {
                    let other_name: &str = match categories.get(other as usize) {
                        Some(c) => c,
                        None => n,
                    };
                    return Err(err(
                        v.span(),
                        format!(
                            "duplicate value {value:?} in category {n}: already listed under {other_name} (line {line}); a value belongs to one category"
                        ),
                    ));
                }
                listed.insert(value.clone(), (idx, line_of(v.span())));
            }
            categories.push(n.clone());
        }
        let value_category = listed.into_iter().map(|(v, (c, _))| (v, c)).collect();

        let weights = match raw.weights {
            None => None,
            Some(w) => Some(build_weights(&categories, w, &err)?),
        };
        let parts_of_speech = match raw.parts_of_speech {
            None => None,
            Some(list) => {
                let mut set = std::collections::BTreeSet::new();
                for v in list {
                    let value = v.get_ref();
                    if value.is_empty() || value.contains(separator.as_str()) || value.contains('|')
                    {
                        return Err(err(
                            v.span(),
                            format!(
                                "parts_of_speech: {value:?}: expected a non-empty name without the separator {separator:?} or `|`"
                            ),
                        ));
                    }
                    if !set.insert(value.clone()) {
                        return Err(err(
                            v.span(),
                            format!("parts_of_speech: {value:?} is listed twice"),
                        ));
                    }
                }
                Some(set)
            }
        };
        Ok(Tagset {
            separator,
            categories,
            value_category,
            parts_of_speech,
            weights,
        })
    }
}

/// Checks a weight: finite and not negative.
fn check_weight(
    key: &str,
    w: &Spanned<f64>,
    err: &dyn Fn(Range<usize>, String) -> Error,
) -> Result<f64> {
    let v = *w.get_ref();
    if !v.is_finite() || v < 0.0 {
        return Err(err(
            w.span(),
            format!("weight {key} = {v}: expected a finite number ≥ 0"),
        ));
    }
    Ok(v)
}

/// Entries of one weights table: `pos`, `default` and categories.
struct Entries {
    pos: Option<f64>,
    default: Option<f64>,
    categories: Vec<Option<f64>>,
}

fn entry(
    categories: &HashMap<&str, usize>,
    e: &mut Entries,
    key: &Spanned<String>,
    w: &Spanned<f64>,
    table: &str,
    err: &dyn Fn(Range<usize>, String) -> Error,
) -> Result<()> {
    let k = key.get_ref().as_str();
    let v = check_weight(k, w, err)?;
    match k {
        "pos" => e.pos = Some(v),
        "default" => e.default = Some(v),
        _ => match categories.get(k) {
            Some(&i) => e.categories[i] = Some(v),
            None => {
                return Err(err(
                    key.span(),
                    format!(
                        "unknown key {k:?} in {table}: expected pos, default or a category of [categories]{}",
                        if table == "[weights]" {
                            " (a table [weights.CLASS] gives conditional weights)"
                        } else {
                            ""
                        }
                    ),
                ))
            }
        },
    }
    Ok(())
}

fn build_weights(
    categories: &[String],
    raw: IndexMap<Spanned<String>, Spanned<WeightItem>>,
    err: &dyn Fn(Range<usize>, String) -> Error,
) -> Result<Weights> {
    let empty = || Entries {
        pos: None,
        default: None,
        categories: vec![None; categories.len()],
    };
    let index: HashMap<&str, usize> = categories
        .iter()
        .enumerate()
        .map(|(i, c)| (c.as_str(), i))
        .collect();
    let mut base = empty();
    let mut tables: Vec<(String, Entries)> = Vec::new();
    for (key, item) in &raw {
        let span = item.span();
        match item.get_ref() {
            WeightItem::Num(v) => {
                let w = Spanned::new(span, *v);
                entry(&index, &mut base, key, &w, "[weights]", err)?;
            }
            WeightItem::Table(entries) => {
                let table = format!("[weights.{}]", key.get_ref());
                let mut e = empty();
                for (k, w) in entries {
                    entry(&index, &mut e, k, w, &table, err)?;
                }
                tables.push((key.get_ref().clone(), e));
            }
        }
    }
    let base_default = base.default.unwrap_or(0.0);
    let base_table = WeightTable {
        pos: base.pos.unwrap_or(base_default),
        default: base_default,
        categories: base
            .categories
            .iter()
            .map(|w| w.unwrap_or(base_default))
            .collect(),
    };
    let mut conditional = Vec::new();
    let mut by_class = HashMap::new();
    for (class, e) in tables {
        let t = WeightTable {
            pos: e.pos.unwrap_or(base_table.pos),
            default: e.default.unwrap_or(base_table.default),
            categories: e
                .categories
                .iter()
                .zip(&base_table.categories)
                .map(|(w, b)| w.or(e.default).unwrap_or(*b))
                .collect(),
        };
        by_class.insert(class.clone(), conditional.len());
        conditional.push((class, t));
    }
    let max = std::iter::once(&base_table)
        .chain(conditional.iter().map(|(_, t)| t))
        .flat_map(|t| {
            [t.pos, t.default]
                .into_iter()
                .chain(t.categories.iter().copied())
        })
        .fold(0.0, f64::max);
    Ok(Weights {
        base: base_table,
        conditional,
        by_class,
        scale: crate::matching::unit_scale(max),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTagset {
    separator: Option<Spanned<String>>,
    parts_of_speech: Option<Vec<Spanned<String>>>,
    categories: Option<IndexMap<Spanned<String>, Vec<Spanned<String>>>>,
    weights: Option<IndexMap<Spanned<String>, Spanned<WeightItem>>>,
}

/// A `[weights]` entry: a weight, or a conditional table.
enum WeightItem {
    Num(f64),
    Table(Vec<(Spanned<String>, Spanned<f64>)>),
}

impl<'de> Deserialize<'de> for WeightItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = WeightItem;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a weight (a number) or a table of weights [weights.CLASS]")
            }
            fn visit_i64<E>(self, v: i64) -> std::result::Result<WeightItem, E> {
                Ok(WeightItem::Num(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> std::result::Result<WeightItem, E> {
                Ok(WeightItem::Num(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> std::result::Result<WeightItem, E> {
                Ok(WeightItem::Num(v))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<WeightItem, A::Error> {
                let mut entries = Vec::new();
                while let Some(k) = m.next_key::<Spanned<String>>()? {
                    let v = m.next_value::<Spanned<f64>>()?;
                    entries.push((k, v));
                }
                Ok(WeightItem::Table(entries))
            }
        }
        d.deserialize_any(V)
    }
}
