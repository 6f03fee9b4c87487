//! The segmentation family (Shao et al. 2017): word and boundary P/R/F1 and the true negative
//! rate, sentence by sentence (`read` pairs the sentences, `count` compares one). Unit: the
//! sentence.

use std::path::Path;

mod count;
mod read;

pub use count::SegCounts;
pub use read::{sentence_counts, SegmentationFormat};

use super::{prf_columns, Family, Headline, Options, Statistics};
use crate::error::Result;
use crate::formats::InputFormat;
use crate::metrics::prf::{prf_beta, ratio};
use crate::table::{Column, KeyKind, Kind, Table, Unit, Value};

const FORMATS: &[&str] = &["text", "conllu"];

/// Word segmentation of a run against the gold.
#[derive(Debug, Clone)]
pub struct SegmentationFamily {
    format: Option<SegmentationFormat>,
    beta: f64,
    options: Options,
}

impl SegmentationFamily {
    /// The family with `opts` (format, beta).
    pub fn new(opts: &Options) -> Result<Self> {
        opts.refuse_except("segmentation", &["format", "beta"])?;
        let format = opts.format_of("segmentation", FORMATS)?.map(|f| match f {
            InputFormat::Conllu => SegmentationFormat::Conllu,
            _ => SegmentationFormat::Text,
        });
        Ok(SegmentationFamily {
            format,
            beta: opts.beta(),
            options: opts.clone(),
        })
    }
}

fn to_vec(c: &SegCounts) -> Vec<f64> {
    [
        c.chars,
        c.tw,
        c.gold_words,
        c.pred_words,
        c.tp_words,
        c.gold_boundaries,
        c.pred_boundaries,
        c.tp_boundaries,
    ]
    .iter()
    .map(|&x| x as f64)
    .collect()
}

impl Family for SegmentationFamily {
    fn signature_fields(&self) -> Vec<(String, String)> {
        super::sign::option_fields(&self.options, Vec::new())
    }

    fn name(&self) -> &str {
        "segmentation"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        if self.format.is_none() {
            super::refuse_standoff("segmentation", gold, pred)?;
        }
        let format = self
            .format
            .unwrap_or_else(|| SegmentationFormat::from_path(gold));
        let g = crate::io::read_text(gold)?;
        let p = crate::io::read_text(pred)?;
        let units = sentence_counts(gold, &g, pred, &p, format)?;
        let mut s = Statistics::new(Unit::Sentence, 8, 0, Vec::new());
        for c in &units {
            s.push_unit(to_vec(c));
        }
        Ok(s)
    }

    fn tables(&self, _stats: &Statistics, x: &[f64]) -> Vec<Table> {
        let mut cols = vec![
            Column::new("TP", Kind::Count),
            Column::new("gold", Kind::Count),
            Column::new("pred", Kind::Count),
        ];
        cols.extend(prf_columns(self.beta));
        cols.push(Column::new("TNR", Kind::Ratio));
        let mut t = Table::new(
            "segmentation",
            "Word segmentation",
            vec![KeyKind::Level],
            cols,
        );
        let (tw, gold_w, pred_w, tp_w) = (x[1], x[2], x[3], x[4]);
        let row = |tp: f64, gold: f64, pred: f64| {
            let mut v = vec![
                Value::Count(tp as u64),
                Value::Count(gold as u64),
                Value::Count(pred as u64),
            ];
            let (p, r, f1) = prf_beta(tp, pred, gold, 1.0);
            v.extend([Value::ratio(p), Value::ratio(r), Value::ratio(f1)]);
            if self.beta != 1.0 {
                v.push(Value::ratio(prf_beta(tp, pred, gold, self.beta).2));
            }
            v
        };
        let mut words = row(tp_w, gold_w, pred_w);
        // TNR = TN / RN, RN = TW − RP, TN = RN − (PP − TP) (Shao et al. 2017, eq. 1).
        let rn = (tw - gold_w).max(0.0);
        let tn = (rn - (pred_w - tp_w).max(0.0)).max(0.0);
        words.push(Value::ratio(ratio(tn, rn)));
        t.push(vec!["words".into()], words);
        let mut b = row(x[7], x[5], x[6]);
        b.push(Value::Missing);
        t.push(vec!["boundaries".into()], b);
        let totals = super::totals_table(&[("characters", x[0]), ("possible words", tw)]);
        vec![t, totals]
    }

    fn headline(&self) -> Headline {
        Headline {
            table: "segmentation".into(),
            row: vec!["words".into()],
            column: "F1".into(),
        }
    }

    fn notes(&self) -> Vec<String> {
        vec![
            "words: a run word is right when a gold word covers the same characters; TNR = 1 - (pred - TP) / (TW - gold) (Shao et al. 2017, eq. 1)".into(),
            "boundaries: the inner word ends of each sentence".into(),
        ]
    }
}
