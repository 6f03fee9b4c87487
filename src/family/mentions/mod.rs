//! The mentions family: entity lists without offsets, as generative models print them,
//! scored per unit against any gold with text (`docs/generative.md`). A run is JSON Lines, one
//! record per unit (or per sentence and type) with an `id` and its `entities` (strings,
//! `[text, type]` pairs, objects, or a raw `output` read by a named parser); the gold is a
//! token file (CoNLL, HIPE TSV), standoff annotation (brat, doccano, Label Studio, Prodigy) or
//! the same JSON shape.
//!
//! Options of its own: `preset` (`universalner`, `gollie`, `instructuie`: each project's
//! scorer reproduced), `unit`, `match`, `normalize`, `typed`, `align`, `parser`, `schema`,
//! `unfound`. Tables: `micro` (TP, FP, FN, P, R, F1 over all and per type) and
//! `diagnostics` (answers malformed, empty, with prose; mentions out of the schema, found
//! nowhere in the text, dropped by each rule, duplicates, unaligned; gold duplicates;
//! InstructUIE's audits under its normalisation: long and repetitive answers, units without a
//! true positive).

mod align;
mod answer;
mod count;
mod norm;
mod onto;
mod pair;
mod read;
mod settings;
mod windows;

use std::collections::BTreeSet;
use std::path::Path;

use super::{Family, Headline, Options, Statistics};
use crate::error::Result;
use crate::table::{Column, KeyKind, Kind, Table, Unit, Value};

use count::{Counter, AUDITS, DIAGNOSTICS, FIXED};
pub use onto::{converter as aligned_converter, reader as aligned_run, run_fields};
use settings::{Formula, Settings};
pub use settings::{OWN_OPTIONS, RUN_OPTIONS};

const FORMATS: &[&str] = &["conll", "hipe", "brat", "doccano", "labelstudio", "prodigy"];

/// Entity lists scored as sets or multisets of (type, text), or of offsets when aligned.
#[derive(Debug, Clone)]
pub struct MentionsFamily {
    s: Settings,
    beta: f64,
    options: Options,
}

impl MentionsFamily {
    /// The family with `opts` (its own options, `format`, `column`, `labels`, `beta`).
    pub fn new(opts: &Options) -> Result<Self> {
        let mut allowed: Vec<&str> = vec!["format", "column", "labels", "beta"];
        allowed.extend_from_slice(OWN_OPTIONS);
        opts.refuse_except("mentions", &allowed)?;
        opts.format_of("mentions", FORMATS)?;
        Ok(MentionsFamily {
            s: Settings::parse(opts)?,
            beta: opts.beta(),
            options: opts.clone(),
        })
    }

    /// P, R, F1 of TP, FP, FN by the settings' formula.
    fn prf(&self, tp: f64, fp: f64, fn_: f64) -> (f64, f64, f64) {
        let (npred, ngold) = (tp + fp, tp + fn_);
        let div = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        match self.s.formula {
            Formula::Counts => super::prf(tp, fp, fn_, 1.0),
            Formula::Epsilon => {
                let p = tp / (npred + 1e-10);
                let r = tp / (ngold + 1e-10);
                (p, r, 2.0 * p * r / (p + r + 1e-10))
            }
            Formula::PrecisionFirst => {
                let (p, r) = (div(tp, npred), div(tp, ngold));
                (p, r, div(2.0 * p * r, p + r))
            }
            Formula::RecallFirst => {
                let (p, r) = (div(tp, npred), div(tp, ngold));
                (p, r, div(2.0 * r * p, r + p))
            }
        }
    }

    /// The statistics of gold units and run records given in memory (`fairscore.mentions`):
    /// each gold unit a JSON object as a line of a gold JSONL file (`id`, `text`, `entities`)
    /// or an entity list; each record an object as a line of a run's file, an entity list or
    /// a raw answer (a string). Records are read by the same code as the files' lines.
    pub fn statistics_in_memory(
        &self,
        gold: &[serde_json::Value],
        run: &[serde_json::Value],
    ) -> Result<Statistics> {
        let g = read::gold_in_memory(gold)?;
        let recs = read::records_in_memory(run, self.s.parser)?;
        self.counted(&g, recs, Path::new(read::MEMORY_RUN))
    }

    /// Pairs the records with the gold's units and counts every unit.
    fn counted(&self, g: &read::Gold, recs: Vec<read::Record>, pred: &Path) -> Result<Statistics> {
        let (paired, warnings) = pair::pair(g, recs, pred, &self.s)?;
        // The schema: the labels asked for (upper-cased against HIPE TSV, as its labels are
        // read), else the gold's types.
        let schema: Vec<String> = match &self.options.labels {
            Some(l) if g.upper => l.iter().map(|x| x.to_uppercase()).collect(),
            Some(l) => l.clone(),
            None => g
                .units
                .iter()
                .flat_map(|u| u.mentions.iter().filter_map(|m| m.label.clone()))
                .collect::<BTreeSet<String>>()
                .into_iter()
                .collect(),
        };
        let mut counter = Counter::new(&self.s, schema);
        let counts: Vec<count::UnitCounts> = g
            .units
            .iter()
            .zip(&paired)
            .map(|(u, r)| counter.unit(u, r))
            .collect();
        // A schema label no unit or record has (a typo: `PERS` for `PER`) is refused.
        if let Some(given) = &self.options.labels {
            let seen: BTreeSet<String> = counter.labels.iter().cloned().collect();
            let files = format!("the gold nor {}", pred.display());
            crate::eval::labels::absent_selection(&[("--labels", given)], &seen, &files)?;
        }
        let mut order: Vec<usize> = (0..counter.labels.len()).collect();
        order.sort_by(|&a, &b| counter.labels[a].cmp(&counter.labels[b]));
        let mut place = vec![0usize; order.len()];
        for (k, &i) in order.iter().enumerate() {
            place[i] = k;
        }
        let labels: Vec<String> = if self.s.typed {
            order.iter().map(|&i| counter.labels[i].clone()).collect()
        } else {
            Vec::new()
        };
        let unit = if g.documents {
            Unit::Document
        } else {
            Unit::Sentence
        };
        let mut st = Statistics::new(unit, FIXED, 3, labels);
        let width = st.width();
        for c in counts {
            let mut v = c.fixed;
            v.resize(width, 0.0);
            if self.s.typed {
                for (l, b) in c.labels {
                    let at = FIXED + place[l as usize] * 3;
                    v[at..at + 3].copy_from_slice(&b);
                }
            }
            st.push_unit(v);
        }
        st.warnings = warnings;
        Ok(st)
    }

    fn row(&self, b: &[f64]) -> Vec<Value> {
        let (tp, fp, fn_) = (b[0], b[1], b[2]);
        let (p, r, f1) = self.prf(tp, fp, fn_);
        let mut v = vec![
            Value::Count(tp as u64),
            Value::Count(fp as u64),
            Value::Count(fn_ as u64),
            Value::ratio(p),
            Value::ratio(r),
            Value::ratio(f1),
        ];
        if self.beta != 1.0 {
            v.push(Value::ratio(super::prf(tp, fp, fn_, self.beta).2));
        }
        v
    }
}

impl Family for MentionsFamily {
    fn name(&self) -> &str {
        "mentions"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        let g = read::gold(
            gold,
            &self.s,
            self.options.format,
            self.options.column.as_deref(),
        )?;
        let recs = read::records(pred, self.s.parser)?;
        self.counted(&g, recs, pred)
    }

    fn tables(&self, stats: &Statistics, sums: &[f64]) -> Vec<Table> {
        let mut cols = vec![
            Column::new("TP", Kind::Count),
            Column::errors("FP", Kind::Count),
            Column::errors("FN", Kind::Count),
        ];
        cols.extend(super::prf_columns(self.beta));
        let mut t = Table::new("micro", "Mentions, micro", vec![KeyKind::Label], cols);
        t.push(vec!["ALL".into()], self.row(&sums[..3]));
        for (i, l) in stats.labels.iter().enumerate() {
            t.push(vec![l.clone()], self.row(stats.label_block(sums, i)));
        }
        let mut d = Table::new(
            "diagnostics",
            "Answers and mentions: malformed, empty, dropped, duplicated, found nowhere",
            vec![KeyKind::Measure],
            vec![
                Column::new("n", Kind::Count),
                Column::new("share", Kind::Ratio),
            ],
        );
        let of = |name: &str| sums[3 + DIAGNOSTICS.iter().position(|x| *x == name).unwrap_or(0)];
        for (k, name) in DIAGNOSTICS.iter().enumerate() {
            // InstructUIE's audits, with its preset's normalisation only.
            if AUDITS.contains(name) && self.s.norm != settings::Norm::Instructuie {
                continue;
            }
            let n = sums[3 + k];
            // Answers are shares of the answers asked for, mentions of the predicted ones, gold
            // duplicates of the gold's mentions.
            let base = match *name {
                "answers" | "missing" | "zero_tp" => of("answers") + of("missing"),
                "malformed" | "prose" | "empty" | "long" | "repetitive" => of("answers"),
                "gold" | "gold_duplicates" => of("gold"),
                _ => of("predicted"),
            };
            let share = if base > 0.0 {
                Value::ratio(n / base)
            } else {
                Value::Missing
            };
            d.push(
                vec![(*name).to_string()],
                vec![Value::Count(n as u64), share],
            );
        }
        vec![t, d]
    }

    fn headline(&self) -> Headline {
        Headline {
            table: "micro".into(),
            row: vec!["ALL".into()],
            column: "F1".into(),
        }
    }

    fn notes(&self) -> Vec<String> {
        let f = self.s.fields();
        let named: Vec<String> = f.iter().map(|(n, v)| format!("{n} {v}")).collect();
        vec![format!(
            "entity mentions compared as {} of {} per {}: {}",
            if self.s.multiset { "multisets" } else { "sets" },
            if self.s.align == settings::Align::Off {
                "normalised strings"
            } else {
                "aligned offsets"
            },
            match self.s.unit {
                settings::UnitKind::SentenceType => "sentence and type",
                settings::UnitKind::Document => "document",
                settings::UnitKind::Sentence => "sentence",
            },
            named.join(", ")
        )]
    }

    fn signature_fields(&self) -> Vec<(String, String)> {
        super::sign::option_fields(&self.options, self.s.fields())
    }
}
