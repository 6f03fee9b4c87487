//! The tagging family: exact, PoS, positional and weighted scores with P, R, F1, weak and
//! strong correctness (`read` aligns the segments, `score` scores them, `tagset` reads tag
//! sets). Unit: the sentence.

use std::path::Path;

mod read;
mod score;
mod tagset;

pub use read::{column_index, sentence_totals, TaggingFormat, TaggingOptions};
pub use score::*;
pub use tagset::*;

use super::{Family, Headline, Options, Statistics};
use crate::error::Result;
use crate::formats::InputFormat;
use crate::metrics::prf::{fbeta, ratio};
use crate::table::{Column, KeyKind, Kind, Table, Unit, Value};

const FORMATS: &[&str] = &["conllu", "tsv"];

/// Tagging of a run against the gold, token by token.
#[derive(Debug, Clone)]
pub struct TaggingFamily {
    format: Option<TaggingFormat>,
    column: Option<String>,
    tagset: Option<Tagset>,
    tagset_name: Option<String>,
    beta: f64,
    options: Options,
}

impl TaggingFamily {
    /// The family with `opts` (format, column, tagset, beta).
    pub fn new(opts: &Options) -> Result<Self> {
        opts.refuse_except("tagging", &["format", "column", "tagset", "beta"])?;
        let format = opts.format_of("tagging", FORMATS)?.map(|f| match f {
            InputFormat::Conllu => TaggingFormat::Conllu,
            _ => TaggingFormat::Tsv,
        });
        let tagset = opts.tagset.as_deref().map(Tagset::load).transpose()?;
        Ok(TaggingFamily {
            format,
            column: opts.column.clone(),
            tagset,
            tagset_name: opts.tagset.clone(),
            beta: opts.beta(),
            options: opts.clone(),
        })
    }

    fn options(&self, gold: &Path) -> Result<TaggingOptions> {
        let format = self
            .format
            .unwrap_or_else(|| TaggingFormat::from_path(gold));
        let mut o = TaggingOptions::new(format);
        if let Some(c) = &self.column {
            o.column = column_index(c, format)?;
        }
        o.tagset = self.tagset.clone();
        Ok(o)
    }
}

// Per unit: segments, pred tags, gold tags, then p_sum, r_sum, wc, sc per function.
const WIDTH: usize = 3 + 4 * 4;

fn to_vec(t: &TagTotals, weighted: bool) -> Vec<f64> {
    let mut v = vec![t.segments as f64, t.pred_tags as f64, t.gold_tags as f64];
    for a in [t.p_sum, t.r_sum, t.wc_sum, t.sc_sum] {
        v.extend(a);
    }
    // The weighted function's slot of a tag set without weights is never shown.
    if !weighted {
        for k in 0..4 {
            v[3 + k * 4 + Function::Weighted as usize] = 0.0;
        }
    }
    v
}

impl Family for TaggingFamily {
    fn signature_fields(&self) -> Vec<(String, String)> {
        super::sign::option_fields(&self.options, Vec::new())
    }

    fn name(&self) -> &str {
        "tagging"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        if self.format.is_none() {
            super::refuse_standoff("tagging", gold, pred)?;
        }
        let opts = self.options(gold)?;
        let g = crate::io::read_text(gold)?;
        let p = crate::io::read_text(pred)?;
        let (units, weighted, warnings) = sentence_totals(gold, &g, pred, &p, &opts)?;
        // The weighted function is listed when the tag set has weights.
        let labels = if weighted {
            vec!["weighted".to_string()]
        } else {
            Vec::new()
        };
        let mut s = Statistics::new(Unit::Sentence, WIDTH, 0, labels);
        for u in &units {
            s.push_unit(to_vec(u, weighted));
        }
        s.warnings = warnings;
        Ok(s)
    }

    fn tables(&self, stats: &Statistics, x: &[f64]) -> Vec<Table> {
        let mut cols = vec![
            Column::new("P", Kind::Ratio),
            Column::new("R", Kind::Ratio),
            Column::new("F1", Kind::Ratio),
        ];
        if self.beta != 1.0 {
            cols.push(Column::new(format!("F{}", self.beta), Kind::Ratio));
        }
        cols.push(Column::new("WC", Kind::Ratio));
        cols.push(Column::new("SC", Kind::Ratio));
        let mut t = Table::new("tagging", "Tagging", vec![KeyKind::Level], cols);
        let (n, pred, gold) = (x[0], x[1], x[2]);
        let weighted = !stats.labels.is_empty();
        for f in Function::ALL {
            if f == Function::Weighted && !weighted {
                continue;
            }
            let i = f as usize;
            let p = ratio(x[3 + i], pred);
            let r = ratio(x[7 + i], gold);
            let mut v = vec![
                Value::ratio(p),
                Value::ratio(r),
                Value::ratio(fbeta(p, r, 1.0)),
            ];
            if self.beta != 1.0 {
                v.push(Value::ratio(fbeta(p, r, self.beta)));
            }
            v.push(Value::ratio(ratio(x[11 + i], n)));
            v.push(Value::ratio(ratio(x[15 + i], n)));
            t.push(vec![f.name().to_string()], v);
        }
        let totals =
            super::totals_table(&[("segments", n), ("gold tags", gold), ("run tags", pred)]);
        vec![t, totals]
    }

    fn headline(&self) -> Headline {
        Headline {
            table: "tagging".into(),
            row: vec!["exact".into()],
            column: "F1".into(),
        }
    }

    fn notes(&self) -> Vec<String> {
        let mut v = vec!["P = scored run tags / run tags, R = scored gold tags / gold tags; WC and SC: mean best and worst score per token; with one tag on each side all equal accuracy".to_string()];
        if let Some(t) = &self.tagset_name {
            v.push(format!("tag set: {t}"));
        }
        v
    }
}
