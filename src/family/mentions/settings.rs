//! The mentions family's options, parsed: what a unit is, how strings are normalised and
//! matched, how raw answers are parsed, and the presets that reproduce the scorers of
//! UniversalNER, GoLLIE and InstructUIE (`docs/generative.md`).

use super::super::options::{shown, switch};
use super::super::Options;
use crate::error::{Error, Result};

/// The options the mentions family declares of its own.
pub const OWN_OPTIONS: &[&str] = &[
    "preset",
    "unit",
    "match",
    "normalize",
    "typed",
    "align",
    "parser",
    "schema",
    "unfound",
    "kb",
    "align-threshold",
];

/// The options of a generative run read by the spans, fair and muc families (its mentions
/// placed on the gold's texts, [`super::onto`]).
pub const RUN_OPTIONS: [&str; 4] = ["align", "align-threshold", "parser", "unit"];

/// The default share of a string's characters a fuzzy placement may insert or delete, in
/// thousandths: 250, one in four (rounded down), so that strings of fewer than 4 characters
/// are placed exactly or not at all (`align-threshold`).
pub const FUZZY_PERMILLE: u32 = 250;

/// What one scored set of mentions is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// A sentence (a segment of a token file, a record of a JSONL file, a standoff document).
    Sentence,
    /// A document (all the segments of a document of a token file).
    Document,
    /// A sentence and one type of the schema: one query, as UniversalNER asks.
    SentenceType,
}

/// How a mention's text is normalised before it is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    /// As written.
    None,
    /// Lower-cased, outer white space stripped (GoLLIE's `Entity.__eq__`).
    Case,
    /// White-space runs made one space, outer white space stripped.
    Whitespace,
    /// SQuAD's `normalize_answer`: lower-cased, ASCII punctuation removed, the articles
    /// a, an, the removed, white space collapsed.
    Squad,
    /// InstructUIE's `_format` of a whole `type:name` item.
    Instructuie,
}

/// How predicted strings are placed in the unit's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Not placed: strings are compared.
    Off,
    /// The first unused occurrence, exactly as written.
    Exact,
    /// The first unused occurrence, ignoring case.
    Case,
    /// Exactly, then ignoring case, then the closest window within a bound (`align.rs`).
    Fuzzy,
}

/// How a raw answer (`output` text) is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parser {
    /// JSON, JSON inside prose, `type: name` items, or one name a line.
    Auto,
    /// UniversalNER's: a JSON list at the very start, up to the first `]` on the first line.
    JsonList,
    /// InstructUIE's: `type: name` items separated by `;`.
    Pairs,
    /// GoLLIE's: a Python list of `Type(span="…")` calls.
    Python,
}

/// What happens to a predicted string found nowhere in its unit's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfound {
    /// Scored (a false positive), and counted as hallucinated.
    Keep,
    /// Dropped before scoring, as GoLLIE's `filter_hallucinations` drops it.
    Drop,
}

/// How P, R and F1 are computed from the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formula {
    /// fairscore's: F1 = 2 TP / (2 TP + FP + FN); 0 for a zero denominator.
    Counts,
    /// UniversalNER's: 1e-10 added to every denominator, F1 = 2 P R / (P + R + 1e-10).
    Epsilon,
    /// GoLLIE's: F1 = 2 P R / (P + R), 0 when P + R is 0.
    PrecisionFirst,
    /// InstructUIE's: F1 = 2 R P / (R + P), 0 when R + P is 0.
    RecallFirst,
}

/// A scorer reproduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// UniversalNER `src/eval/evaluate.py`.
    UniversalNer,
    /// GoLLIE `src/tasks/utils_scorer.py` (`SpanScorer`).
    Gollie,
    /// InstructUIE `src/evaluation/evaluator.py` (`EvaluatorNER`).
    InstructUie,
}

impl Preset {
    /// The preset's name.
    pub fn name(self) -> &'static str {
        match self {
            Preset::UniversalNer => "universalner",
            Preset::Gollie => "gollie",
            Preset::InstructUie => "instructuie",
        }
    }
}

/// The mentions family's settings, every choice resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The preset the choices start from.
    pub preset: Option<Preset>,
    /// What a unit is.
    pub unit: UnitKind,
    /// Multiset matching (each gold mention consumed once) rather than sets.
    pub multiset: bool,
    /// Normalisation of the mentions' text.
    pub norm: Norm,
    /// Whether a mention's type is part of what is compared.
    pub typed: bool,
    /// Placement in the unit's text.
    pub align: Align,
    /// The parser of raw answers.
    pub parser: Parser,
    /// Predictions of types outside the schema dropped before scoring.
    pub schema: bool,
    /// Strings found nowhere in the unit's text: kept or dropped.
    pub unfound: Unfound,
    /// The formula of P, R and F1.
    pub formula: Formula,
    /// Whether a mention's knowledge-base id is part of what is compared.
    pub kb: bool,
    /// The fuzzy step's bound: the share of a string's characters it may insert or delete,
    /// in thousandths (`align-threshold`, default 250: one in four).
    pub threshold: u32,
}

/// An `align-threshold` value: a share from 0 to 1 with at most three decimals, in
/// thousandths.
fn parse_threshold(value: &str) -> Result<u32> {
    let bad = || {
        Error::usage(format!(
            "align-threshold {}: expected a share from 0 to 1 with at most three decimals (default 0.25)",
            shown(value)
        ))
    };
    let v: f64 = value.trim().parse().map_err(|_| bad())?;
    if !(0.0..=1.0).contains(&v) {
        return Err(bad());
    }
    let k = (v * 1000.0).round();
    if (k / 1000.0 - v).abs() > 1e-12 {
        return Err(bad());
    }
    Ok(k as u32)
}

fn pick<T: Copy>(name: &str, value: &str, choices: &[(&str, T)]) -> Result<T> {
    let v = value.trim().to_ascii_lowercase();
    choices
        .iter()
        .find(|(n, _)| *n == v)
        .map(|(_, x)| *x)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            Error::usage(format!("{name} {}: use {}", shown(value), names.join(", ")))
        })
}

impl Settings {
    /// The defaults of a preset (or fairscore's own, without one).
    pub fn of_preset(preset: Option<Preset>) -> Settings {
        let base = Settings {
            preset,
            unit: UnitKind::Sentence,
            multiset: false,
            norm: Norm::Whitespace,
            typed: true,
            align: Align::Off,
            parser: Parser::Auto,
            schema: false,
            unfound: Unfound::Keep,
            formula: Formula::Counts,
            kb: false,
            threshold: FUZZY_PERMILLE,
        };
        match preset {
            None => base,
            Some(Preset::UniversalNer) => Settings {
                unit: UnitKind::SentenceType,
                norm: Norm::Squad,
                parser: Parser::JsonList,
                formula: Formula::Epsilon,
                ..base
            },
            Some(Preset::Gollie) => Settings {
                multiset: true,
                norm: Norm::Case,
                parser: Parser::Python,
                schema: true,
                formula: Formula::PrecisionFirst,
                ..base
            },
            Some(Preset::InstructUie) => Settings {
                norm: Norm::Instructuie,
                parser: Parser::Pairs,
                formula: Formula::RecallFirst,
                ..base
            },
        }
    }

    /// Parses the family's own options: a preset's choices first, then each option given.
    pub fn parse(opts: &Options) -> Result<Settings> {
        let preset = match opts.own("preset") {
            None => None,
            Some(v) => match v.trim().to_ascii_lowercase().as_str() {
                "" | "none" | "fairscore" => None,
                _ => Some(pick(
                    "preset",
                    v,
                    &[
                        ("universalner", Preset::UniversalNer),
                        ("gollie", Preset::Gollie),
                        ("instructuie", Preset::InstructUie),
                    ],
                )?),
            },
        };
        let mut s = Settings::of_preset(preset);
        if let Some(v) = opts.own("unit") {
            s.unit = pick(
                "unit",
                v,
                &[
                    ("sentence", UnitKind::Sentence),
                    ("document", UnitKind::Document),
                    ("sentence-type", UnitKind::SentenceType),
                    ("sentence_type", UnitKind::SentenceType),
                    ("query", UnitKind::SentenceType),
                ],
            )?;
        }
        if let Some(v) = opts.own("match") {
            s.multiset = pick("match", v, &[("set", false), ("multiset", true)])?;
        }
        if let Some(v) = opts.own("normalize") {
            s.norm = pick(
                "normalize",
                v,
                &[
                    ("none", Norm::None),
                    ("case", Norm::Case),
                    ("whitespace", Norm::Whitespace),
                    ("squad", Norm::Squad),
                    ("instructuie", Norm::Instructuie),
                ],
            )?;
        }
        if let Some(v) = opts.own("typed") {
            s.typed = switch("typed", v)?;
        }
        if let Some(v) = opts.own("align") {
            s.align = pick(
                "align",
                v,
                &[
                    ("off", Align::Off),
                    ("exact", Align::Exact),
                    ("case", Align::Case),
                    ("fuzzy", Align::Fuzzy),
                ],
            )?;
        }
        if let Some(v) = opts.own("parser") {
            s.parser = pick(
                "parser",
                v,
                &[
                    ("auto", Parser::Auto),
                    ("json-list", Parser::JsonList),
                    ("pairs", Parser::Pairs),
                    ("python", Parser::Python),
                ],
            )?;
        }
        if let Some(v) = opts.own("schema") {
            s.schema = pick("schema", v, &[("count", false), ("drop", true)])?;
        }
        if let Some(v) = opts.own("unfound") {
            s.unfound = pick(
                "unfound",
                v,
                &[("keep", Unfound::Keep), ("drop", Unfound::Drop)],
            )?;
        }
        if let Some(v) = opts.own("kb") {
            s.kb = switch("kb", v)?;
        }
        if let Some(v) = opts.own("align-threshold") {
            s.threshold = parse_threshold(v)?;
            if s.align != Align::Fuzzy {
                return Err(Error::usage(
                    "align-threshold: bounds the fuzzy step; it goes with align fuzzy",
                ));
            }
        }
        if s.kb && s.norm == Norm::Instructuie {
            return Err(Error::usage(
                "kb: normalize instructuie compares `type:name` strings, which carry no id",
            ));
        }
        if s.norm == Norm::Instructuie && !s.typed {
            return Err(Error::usage(
                "normalize instructuie compares whole `type:name` items: it needs typed on",
            ));
        }
        if s.align != Align::Off && s.norm == Norm::Instructuie {
            return Err(Error::usage(
                "align: aligned mentions are compared by offsets; normalize instructuie compares strings",
            ));
        }
        Ok(s)
    }

    /// The choices as the signature names them, in a fixed order.
    pub fn fields(&self) -> Vec<(String, String)> {
        let unit = match self.unit {
            UnitKind::Sentence => "sentence",
            UnitKind::Document => "document",
            UnitKind::SentenceType => "sentence-type",
        };
        let norm = match self.norm {
            Norm::None => "none",
            Norm::Case => "case",
            Norm::Whitespace => "whitespace",
            Norm::Squad => "squad",
            Norm::Instructuie => "instructuie",
        };
        let align = match self.align {
            Align::Off => "off",
            Align::Exact => "exact",
            Align::Case => "case",
            Align::Fuzzy => "fuzzy",
        };
        let parser = match self.parser {
            Parser::Auto => "auto",
            Parser::JsonList => "json-list",
            Parser::Pairs => "pairs",
            Parser::Python => "python",
        };
        let formula = match self.formula {
            Formula::Counts => "counts",
            Formula::Epsilon => "epsilon-1e-10",
            Formula::PrecisionFirst => "f1-from-pr",
            Formula::RecallFirst => "f1-from-rp",
        };
        let v = [
            ("preset", self.preset.map_or("none", Preset::name)),
            ("unit", unit),
            ("match", if self.multiset { "multiset" } else { "set" }),
            ("normalize", norm),
            ("typed", if self.typed { "true" } else { "false" }),
            ("align", align),
        ];
        let threshold = format!("{}", f64::from(self.threshold) / 1000.0);
        let rest = [
            ("parser", parser),
            ("schema", if self.schema { "drop" } else { "count" }),
            (
                "unfound",
                if self.unfound == Unfound::Drop {
                    "drop"
                } else {
                    "keep"
                },
            ),
            ("kb", if self.kb { "true" } else { "false" }),
            ("formula", formula),
        ];
        let mut out: Vec<(String, String)> = v
            .iter()
            .map(|(n, x)| ((*n).to_string(), (*x).to_string()))
            .collect();
        // The fuzzy step's bound, named where it applies.
        if self.align == Align::Fuzzy {
            out.push(("align-threshold".to_string(), threshold));
        }
        out.extend(
            rest.iter()
                .map(|(n, x)| ((*n).to_string(), (*x).to_string())),
        );
        out
    }
}
