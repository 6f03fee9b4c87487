//! The MUC-7 family: token-by-token judgement of a NERC run (correct, incorrect, partial,
//! missing, spurious), micro, per type and macro P/R/F-beta (reading in `read`, judging in `judge`, standoff files in `standoff`). Unit: the
//! document (the sentence for a CoNLL file without documents).

use std::path::Path;

mod judge;
mod read;
mod standoff;

pub use judge::MucCounts;
pub use read::{evaluate_files, judgements_tsv, MucOptions, MucResult, JUDGEMENTS_HEADER};

use super::{Family, Headline, Options, Statistics};
use crate::error::Result;
use crate::formats::{Format, InputFormat};
use crate::metrics::prf::{fbeta, prf_beta};
use crate::table::{Column, KeyKind, Kind, Table, Unit, Value};

const FORMATS: &[&str] = &["hipe", "conll", "brat", "doccano", "labelstudio", "prodigy"];

/// MUC-7 token judgement of a run against the gold.
#[derive(Debug, Clone)]
pub struct MucFamily {
    input_format: Option<InputFormat>,
    format: Option<Format>,
    column: Option<String>,
    beta: f64,
    listing: bool,
    /// The reader of a generative run placed on the gold's texts (`align`).
    docs: Option<crate::corpus::standoff::DocsReader>,
    breakdown: Vec<super::breakdown::Asked>,
    /// The training file of the training keys, and its content hash once read.
    train: Option<std::path::PathBuf>,
    train_hash: std::sync::OnceLock<String>,
    options: Options,
}

/// The options the muc family declares of its own.
pub const OWN_OPTIONS: &[&str] = &["breakdown", "train"];

impl MucFamily {
    /// The family with `opts` (format, column, beta).
    pub fn new(opts: &Options) -> Result<Self> {
        let mut allowed = vec!["format", "column", "beta"];
        allowed.extend(super::options::RUN_CHANGES);
        allowed.extend(super::mentions::RUN_OPTIONS);
        allowed.extend(OWN_OPTIONS);
        opts.refuse_except("muc", &allowed)?;
        let breakdown = match opts.own("breakdown") {
            Some(v) => super::breakdown::parse_keys(v)?,
            None => Vec::new(),
        };
        let train = opts.own("train").map(std::path::PathBuf::from);
        super::breakdown::check_train(&breakdown, train.as_deref())?;
        let input_format = opts.format_of("muc", FORMATS)?;
        Ok(MucFamily {
            input_format,
            format: input_format.and_then(InputFormat::corpus_format),
            column: opts.column.clone(),
            beta: opts.beta(),
            listing: opts.listing,
            docs: super::mentions::aligned_run("muc", opts)?,
            breakdown,
            train,
            train_hash: std::sync::OnceLock::new(),
            options: opts.clone(),
        })
    }
}

impl MucFamily {
    /// The training file's vocabulary and entities (with a training key), read in the gold's
    /// format and column.
    fn train_set(
        &self,
        g: &crate::corpus::Corpus,
        opts: &MucOptions,
    ) -> Result<Option<super::breakdown::Train>> {
        let Some(path) = &self.train else {
            return Ok(None);
        };
        let (hash, t) = if opts.format == Format::Hipe {
            let col = read::column_name(g, opts)?;
            super::breakdown::train::read(path, Some(Format::Hipe), Some(&col), None)?
        } else {
            super::breakdown::train::read(path, Some(opts.format), None, self.column.as_deref())?
        };
        let _ = self.train_hash.set(hash);
        Ok(Some(t))
    }
}

/// The statistics of per-unit counts per type: the five judgements of every type of any
/// unit, then the gold's entities of the type (for the adequacy table), types in order.
fn unit_statistics(
    unit: Unit,
    units: &[std::collections::BTreeMap<String, MucCounts>],
    entities: &[std::collections::BTreeMap<String, u64>],
) -> Statistics {
    let labels: std::collections::BTreeSet<&String> = units
        .iter()
        .flat_map(|u| u.keys())
        .chain(entities.iter().flat_map(|u| u.keys()))
        .collect();
    let labels: Vec<String> = labels.into_iter().cloned().collect();
    let mut s = Statistics::new(unit, 0, 6, labels);
    for (k, u) in units.iter().enumerate() {
        let mut v = Vec::with_capacity(s.width());
        for l in &s.labels {
            let c = u.get(l).copied().unwrap_or_default();
            let e = entities.get(k).and_then(|e| e.get(l)).copied().unwrap_or(0);
            v.extend(
                [c.correct, c.incorrect, c.partial, c.missing, c.spurious, e].map(|x| x as f64),
            );
        }
        s.push_unit(v);
    }
    s
}

fn counts(b: &[f64]) -> MucCounts {
    MucCounts {
        correct: b[0] as u64,
        incorrect: b[1] as u64,
        partial: b[2] as u64,
        missing: b[3] as u64,
        spurious: b[4] as u64,
    }
}

impl Family for MucFamily {
    fn name(&self) -> &str {
        "muc"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        if self.docs.is_some() || crate::eval::standoff::applies(gold, pred, self.input_format) {
            if self.listing {
                return Err(crate::error::Error::usage(
                    "judgements: the judged tokens are listed for token files (HIPE TSV, \
                     CoNLL), not for standoff files",
                ));
            }
            let read = crate::eval::standoff::StandoffRead {
                format: self.input_format.and_then(InputFormat::standoff),
                column: self.column.clone(),
                docs: self.docs.clone(),
            };
            self.options.refuse_standoff_changes()?;
            if let Some(a) = self.breakdown.iter().find(|a| a.key.needs_metadata()) {
                return Err(crate::error::Error::usage(format!(
                    "breakdown: {} reads the gold's HIPE TSV metadata, which standoff files do \
                     not carry",
                    a.key.name()
                )));
            }
            let train = match &self.train {
                None => None,
                Some(path) => {
                    let (hash, t) =
                        super::breakdown::train::read(path, None, None, self.column.as_deref())?;
                    let _ = self.train_hash.set(hash);
                    Some(t)
                }
            };
            let mut spans = (!self.breakdown.is_empty())
                .then(|| super::breakdown::muc::MucSpans::new(train.as_ref()));
            let (units, entities, warnings) =
                standoff::muc_units(gold, pred, &read, spans.as_mut())?;
            let mut s = unit_statistics(Unit::Document, &units, &entities);
            if let Some(spans) = &spans {
                super::breakdown::muc::attach(&mut s, &self.breakdown, spans, self.beta)?;
            }
            s.warnings = warnings;
            return Ok(s);
        }
        let format = match self.format {
            Some(f) => f,
            None => {
                let text = crate::io::read_text(gold)?;
                crate::formats::detect(gold, &text)?
            }
        };
        let opts = MucOptions {
            format,
            column: self.column.clone(),
            judgements: self.listing,
        };
        let (run_read, changes) = self.options.run_read();
        let (g, p) = read::read_both(gold, pred, opts.format, &run_read)?;
        let train = if self.breakdown.is_empty() {
            None
        } else {
            super::breakdown::tokens::metadata(&self.breakdown, &g)?;
            self.train_set(&g, &opts)?
        };
        let mut spans = (!self.breakdown.is_empty())
            .then(|| super::breakdown::muc::MucSpans::new(train.as_ref()));
        let r = read::evaluate_gathering(&g, &p, &opts, spans.as_mut())?;
        let unit = if r.units_are_sentences {
            Unit::Sentence
        } else {
            Unit::Document
        };
        let mut s = unit_statistics(unit, &r.units, &r.gold_entities);
        if let Some(spans) = &spans {
            super::breakdown::muc::attach(&mut s, &self.breakdown, spans, self.beta)?;
        }
        s.listing = self.listing.then(|| judgements_tsv(&r));
        s.warnings = r.warnings;
        s.warnings
            .extend(super::options::repair_warnings(changes.as_deref()));
        Ok(s)
    }

    fn tables(&self, stats: &Statistics, sums: &[f64]) -> Vec<Table> {
        // Incorrect, partial, missing and spurious tokens are errors: lower is better.
        let mut cols: Vec<Column> = ["COR", "INC", "PAR", "MIS", "SPU", "POS", "ACT"]
            .into_iter()
            .map(|n| match n {
                "INC" | "PAR" | "MIS" | "SPU" => Column::errors(n, Kind::Count),
                _ => Column::new(n, Kind::Count),
            })
            .collect();
        cols.push(Column::new("P", Kind::Ratio));
        cols.push(Column::new("R", Kind::Ratio));
        cols.push(Column::new("F", Kind::Ratio));
        let mut t = Table::new("muc", "MUC-7 token judgement", vec![KeyKind::Label], cols);
        let row = |c: &MucCounts| {
            let (p, r, f) = prf_beta(
                c.credit(),
                c.actual() as f64,
                c.possible() as f64,
                self.beta,
            );
            let mut v: Vec<Value> = [
                c.correct,
                c.incorrect,
                c.partial,
                c.missing,
                c.spurious,
                c.possible(),
                c.actual(),
            ]
            .into_iter()
            .map(Value::Count)
            .collect();
            v.extend([Value::ratio(p), Value::ratio(r), Value::ratio(f)]);
            (v, p, r)
        };
        let mut all = MucCounts::default();
        let mut per: Vec<(String, Vec<Value>)> = Vec::new();
        let (mut sp, mut sr) = (0.0, 0.0);
        for (i, l) in stats.labels.iter().enumerate() {
            let c = counts(stats.label_block(sums, i));
            all.merge(&c);
            let (v, p, r) = row(&c);
            sp += p;
            sr += r;
            per.push((l.clone(), v));
        }
        t.push(vec!["ALL".into()], row(&all).0);
        for (l, v) in per {
            t.push(vec![l], v);
        }
        let n = stats.labels.len() as f64;
        let (mp, mr) = if n > 0.0 {
            (sp / n, sr / n)
        } else {
            (0.0, 0.0)
        };
        let mut macro_row = vec![Value::Missing; 7];
        macro_row.extend([
            Value::ratio(mp),
            Value::ratio(mr),
            Value::ratio(fbeta(mp, mr, self.beta)),
        ]);
        t.push(vec!["macro".into()], macro_row);
        vec![t]
    }

    fn headline(&self) -> Headline {
        Headline {
            table: "muc".into(),
            row: vec!["ALL".into()],
            column: "F".into(),
        }
    }

    fn listing_name(&self) -> Option<&'static str> {
        Some("judgements")
    }

    fn gold_mentions(&self, stats: &Statistics, sums: &[f64]) -> Option<super::GoldMentions> {
        // The gold's entities (not its judged tokens), the last number of a type's block.
        let gold = |i: usize| stats.label_block(sums, i)[5];
        Some(super::GoldMentions::of(&stats.labels, gold, "muc", "F"))
    }

    fn signature_fields(&self) -> Vec<(String, String)> {
        let mut own = super::breakdown::signature_fields(
            &self.breakdown,
            self.train.as_deref(),
            self.train_hash.get().map(String::as_str),
        );
        own.extend(super::mentions::run_fields(&self.options));
        super::sign::option_fields(&self.options, own)
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "P = (COR + PAR/2) / ACT, R = (COR + PAR/2) / POS, F with beta {}; macro: mean P and R over types",
            self.beta
        )]
    }
}
