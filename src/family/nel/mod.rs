//! The nel family: entity-linking diagnostics of a run as neleval 3.1.1 defines them
//! (`docs/nel.md`). In HIPE TSV and CoNLL with a link column (`tokens.rs`) links are grouped
//! into mentions as the official HIPE scorer groups them (bounded by the NE column, or
//! consecutive tokens with `original_nel`); the HIPE link column is `NEL-LIT` unless `column`
//! says `NEL-METO`, the CoNLL one the last unless `column` names it (its NE tags the column
//! before, or `ne_column`). In brat (`brat.rs`) a mention is a `T` span, linked by its `N`
//! lines.
//!
//! Tables: `micro` (and `micro@K` for each further `n_best` cutoff K) with neleval's
//! `strong_mention_match` (mention detection, links ignored), `strong_link_match` (KB
//! mentions only), `strong_nil_match` (NIL detection),
//! `strong_all_match`, `strong_typed_all_match` (type from the NE column) and `entity_match`
//! (the set of KB ids per document): P, R, F1 (from P and R) and TP, FP, FN; `errors`: the
//! count of each mention's error label (neleval's `analyze`); then, not resampled, the same
//! measures per document (`documents`, `documents@K`). The listing (`errors`) gives every
//! gold and run mention with its label. Unit: the gold's documents. The official HIPE NEL
//! scores stay those of the `hipe` family and `fairscore score`.

mod brat;
mod read;
mod tokens;

use std::path::Path;

use super::{Family, Headline, Options, Statistics};
use crate::error::{Error, Result};
use crate::formats::InputFormat;
use crate::metrics::resample::{micro, DocCounts};
use crate::table::{Column, KeyKind, Kind, Table, Value};

use read::{NelOptions, PER_CUTOFF};
pub use read::{LABELS, MEASURES, OWN_OPTIONS};

const FORMATS: &[&str] = &["hipe", "conll", "brat"];

/// neleval's measures and error labels of entity linking.
#[derive(Debug, Clone)]
pub struct NelFamily {
    nel: NelOptions,
    beta: f64,
    options: Options,
}

impl NelFamily {
    /// The family with `opts` (its own options, `column`, `beta`, `format` hipe, conll or
    /// brat).
    pub fn new(opts: &Options) -> Result<Self> {
        let mut allowed: Vec<&str> = vec!["format", "column", "beta"];
        allowed.extend_from_slice(OWN_OPTIONS);
        opts.refuse_except("nel", &allowed)?;
        let format = opts.format_of("nel", FORMATS)?;
        Ok(NelFamily {
            nel: NelOptions::parse(opts, format)?,
            beta: opts.beta(),
            options: opts.clone(),
        })
    }

    fn suffix(n: usize, k: usize) -> String {
        if k == 0 && n == 1 {
            String::new()
        } else {
            format!("@{n}")
        }
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = super::prf_columns(self.beta);
        cols.extend([
            Column::new("TP", Kind::Count),
            Column::errors("FP", Kind::Count),
            Column::errors("FN", Kind::Count),
        ]);
        cols
    }

    /// The values of one measure's row from its TP, FP and FN (F1 from P and R, as neleval).
    fn values(&self, b: &[f64]) -> Vec<Value> {
        let c = DocCounts::new(b[0], b[1], b[2]);
        let m = micro(&c, 1.0);
        let mut v = vec![Value::ratio(m.p), Value::ratio(m.r), Value::ratio(m.f1)];
        if self.beta != 1.0 {
            v.push(Value::ratio(micro(&c, self.beta).f1));
        }
        v.extend([
            Value::Count(c.tp as u64),
            Value::Count(c.fp as u64),
            Value::Count(c.fn_ as u64),
        ]);
        v
    }

    /// The per-document tables (one per cutoff) of `stats`, point values only.
    fn documents(&self, stats: &Statistics, ids: &[String]) -> Vec<Table> {
        let w = stats.width();
        let mut out = Vec::new();
        for (k, &n) in self.nel.cutoffs.iter().enumerate() {
            let mut t = Table::new(
                &format!("documents{}", Self::suffix(n, k)),
                &format!("neleval's measures per document at n-best {n} (not resampled)"),
                vec![KeyKind::Document, KeyKind::Level],
                self.columns(),
            );
            for (u, id) in stats.data.chunks_exact(w.max(1)).zip(ids) {
                for (m, name) in MEASURES.iter().enumerate() {
                    let b = &u[k * PER_CUTOFF + m * 3..][..3];
                    t.push(vec![id.clone(), (*name).to_string()], self.values(b));
                }
            }
            out.push(t);
        }
        out
    }
}

impl Family for NelFamily {
    fn name(&self) -> &str {
        "nel"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        let format = match self.nel.format {
            Some(f) => f,
            None => detect(gold)?,
        };
        self.nel.check_for(format)?;
        let (mut st, ids) = match format {
            InputFormat::Brat => brat::statistics(&self.nel, gold, pred)?,
            f => tokens::statistics(&self.nel, f, gold, pred)?,
        };
        st.details = self.documents(&st, &ids);
        Ok(st)
    }

    fn tables(&self, _stats: &Statistics, sums: &[f64]) -> Vec<Table> {
        let mut out = Vec::new();
        for (k, &n) in self.nel.cutoffs.iter().enumerate() {
            let mut t = Table::new(
                &format!("micro{}", Self::suffix(n, k)),
                &format!("neleval's measures, micro, at n-best {n}"),
                vec![KeyKind::Level],
                self.columns(),
            );
            for (m, name) in MEASURES.iter().enumerate() {
                let b = &sums[k * PER_CUTOFF + m * 3..][..3];
                t.push(vec![(*name).to_string()], self.values(b));
            }
            out.push(t);
        }
        let mut e = Table::new(
            "errors",
            "Error labels of the mentions (neleval analyze), at the first candidate",
            vec![KeyKind::Label],
            vec![Column::new("count", Kind::Count)],
        );
        let at = self.nel.cutoffs.len() * PER_CUTOFF;
        for (i, l) in LABELS.iter().enumerate() {
            e.push(
                vec![(*l).to_string()],
                vec![Value::Count(sums[at + i] as u64)],
            );
        }
        out.push(e);
        out
    }

    fn headline(&self) -> Headline {
        let n = self.nel.cutoffs.first().copied().unwrap_or(1);
        Headline {
            table: format!("micro{}", Self::suffix(n, 0)),
            row: vec!["strong_all_match".into()],
            column: "F1".into(),
        }
    }

    fn notes(&self) -> Vec<String> {
        let mentions = if self.nel.format == Some(InputFormat::Brat) {
            "mentions are the T spans, linked by their N lines (a span without one is NIL), matched by exact character span".to_string()
        } else {
            let column = self
                .nel
                .column
                .as_deref()
                .unwrap_or("NEL-LIT (HIPE) or the last column (CoNLL)");
            format!(
                "links of {column}; mentions are the official HIPE scorer's link objects ({}), a mention whose link is _ or - is left out",
                if self.nel.original_nel {
                    "consecutive tokens with the same link"
                } else {
                    "bounded by the NE column"
                }
            )
        };
        vec![format!(
            "entity linking as neleval 3.1.1 measures it: {mentions}; NIL is a link beginning with NIL; at n-best K a run mention takes the gold's link when one of its first K candidates has it"
        )]
    }

    fn signature_fields(&self) -> Vec<(String, String)> {
        let n: Vec<String> = self.nel.cutoffs.iter().map(|n| n.to_string()).collect();
        let mut own = vec![
            ("n_best".into(), n.join(",")),
            ("original_nel".into(), self.nel.original_nel.to_string()),
        ];
        if let Some(c) = &self.nel.ne_column {
            own.push(("ne_column".into(), c.clone()));
        }
        if let Some(l) = &self.nel.link_labels {
            own.push(("link_labels".into(), l.join(",")));
        }
        // The format as given (`auto` when told from the gold); HIPE's default link column
        // named.
        let mut o = self.options.clone();
        if o.format == Some(InputFormat::Hipe) && o.column.is_none() {
            o.column = Some("NEL-LIT".into());
        }
        super::sign::option_fields(&o, own)
    }

    fn listing_name(&self) -> Option<&'static str> {
        Some("errors")
    }
}

/// The format of a gold file given without `format`: brat when it is standoff annotation,
/// else HIPE TSV or CoNLL as its first line tells.
fn detect(gold: &Path) -> Result<InputFormat> {
    if crate::eval::standoff::is_standoff(gold) {
        return Ok(InputFormat::Brat);
    }
    let text = crate::io::into_utf8(gold, crate::io::read_input(gold)?)?;
    match crate::formats::detect(gold, &text)? {
        crate::formats::Format::Hipe => Ok(InputFormat::Hipe),
        crate::formats::Format::Conll => Ok(InputFormat::Conll),
        crate::formats::Format::Spans => Err(Error::usage(format!(
            "{}: a span file; the nel family reads {}",
            gold.display(),
            FORMATS.join(", ")
        ))),
    }
}
