//! The hipe family: a HIPE run scored as the official HIPE scorer v2.0 scores it (`fairscore
//! score`), through the family interface. Its options are those of `score` that change the
//! numbers: `task` (nerc_coarse, the default, nerc_fine or nel), `hipe_edition` (hipe-2020,
//! the default, or hipe-2022), `tagset`, `n_best`, `glue`, `original_nel`, `relaxed` (a QID
//! map: gold and run normalized), `normalize_run` (a QID map: the run alone normalized, as a
//! campaign's relaxed NEL against a normalized gold), `noise_level`, `time_period` and `beta`;
//! and, for the NERC tasks, `breakdown` and `train` (the spans family's breakdowns of the
//! task's first column in the strict regime; docs/breakdown.md).
//!
//! Its tables are the official micro scores: `micro` (and `micro@K` for each NEL cutoff K
//! other than 1), rows keyed by column, filter (only with noise levels or time periods),
//! regime (`fuzzy`, `strict`) and label (`ALL` first), with P, R, F1 and TP, FP, FN as the
//! official JSON has them. The headline is F1 of `ALL` in the task's first column: strict for
//! NERC, fuzzy for NEL, at the first cutoff. Unit: the gold's documents.

mod breakdown;
mod read;

use std::path::Path;

use super::{Family, Headline, Inputs, Options, Statistics};
use crate::error::Result;
use crate::hipe::Task;
use crate::metrics::resample::{micro, DocCounts};
use crate::table::{Column, KeyKind, Kind, Table, Value};

pub use read::OWN_OPTIONS;
use read::{HipeOptions, PER_REGIME, REGIMES, SEP};

const FORMATS: &[&str] = &["hipe"];

/// The labels of one evaluation (column and filter): its key parts, and each label's index
/// in the statistics with its name.
type Group = (Vec<String>, Vec<(usize, String)>);

/// HIPE NERC and NEL, as the official scorer counts them.
#[derive(Debug, Clone)]
pub struct HipeFamily {
    hipe: HipeOptions,
    breakdown: breakdown::HipeBreakdown,
    beta: f64,
    options: Options,
}

impl HipeFamily {
    /// The family with `opts` (its own options, `tagset`, `beta`, `format` hipe).
    pub fn new(opts: &Options) -> Result<Self> {
        let mut allowed: Vec<&str> = vec!["format", "tagset", "beta"];
        allowed.extend_from_slice(OWN_OPTIONS);
        opts.refuse_except("hipe", &allowed)?;
        opts.format_of("hipe", FORMATS)?;
        let mut hipe = HipeOptions::parse(opts)?;
        let breakdown = breakdown::HipeBreakdown::parse(opts, &hipe.score)?;
        // The breakdown reads the entities as scored.
        hipe.score.keep_entities = breakdown.wanted();
        Ok(HipeFamily {
            breakdown,
            hipe,
            beta: opts.beta(),
            options: opts.clone(),
        })
    }

    /// The name of the table of cutoff `n`: `micro` for 1, else `micro@n`.
    fn table_name(n: usize) -> String {
        if n == 1 {
            "micro".into()
        } else {
            format!("micro@{n}")
        }
    }
}

/// The signature value of a file option: `file-HASH` of its content, or the text given.
fn file_field(path: &str) -> String {
    match super::sign::file_hash(Path::new(path)) {
        Ok(h) => format!("file-{h}"),
        Err(_) => path.to_string(),
    }
}

impl Family for HipeFamily {
    fn name(&self) -> &str {
        "hipe"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        read::statistics(&self.hipe, &self.breakdown, gold, pred, None)
    }

    fn statistics_in(&self, gold: &Path, pred: &Path, shared: &Inputs) -> Result<Statistics> {
        read::statistics(&self.hipe, &self.breakdown, gold, pred, Some(shared))
    }

    fn tables(&self, stats: &Statistics, sums: &[f64]) -> Vec<Table> {
        let filtered = self.hipe.filtered();
        let mut keys = vec![KeyKind::Column];
        if filtered {
            keys.push(KeyKind::Filter);
        }
        keys.extend([KeyKind::Regime, KeyKind::Label]);
        let mut cols = super::prf_columns(self.beta);
        cols.extend([
            Column::new("TP", Kind::Count),
            Column::errors("FP", Kind::Count),
            Column::errors("FN", Kind::Count),
        ]);
        // The labels of one evaluation (column and filter) follow one another: group them.
        let mut groups: Vec<Group> = Vec::new();
        for (i, l) in stats.labels.iter().enumerate() {
            let mut parts: Vec<String> = l.split(SEP).map(str::to_string).collect();
            let label = parts.pop().unwrap_or_default();
            match groups.last_mut() {
                Some((head, members)) if *head == parts => members.push((i, label)),
                _ => groups.push((parts, vec![(i, label)])),
            }
        }
        let mut out = Vec::new();
        for (k, n) in self.hipe.cutoffs().into_iter().enumerate() {
            let name = Self::table_name(n);
            let title = match self.hipe.score.task {
                Task::Nel => format!("micro scores at n-best {n}"),
                _ => "micro scores".to_string(),
            };
            let mut t = Table::new(&name, &title, keys.clone(), cols.clone());
            for (head, members) in &groups {
                for (r, (regime, _)) in REGIMES.iter().enumerate() {
                    for (i, label) in members {
                        let b = stats.label_block(sums, *i);
                        let at = (k * REGIMES.len() + r) * PER_REGIME;
                        let c = DocCounts::new(b[at], b[at + 1], b[at + 2]);
                        // F1 from P and R, as the official scorer computes it.
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
                        let mut key = head.clone();
                        key.push((*regime).to_string());
                        key.push(label.clone());
                        t.push(key, v);
                    }
                }
            }
            out.push(t);
        }
        out
    }

    fn headline(&self) -> Headline {
        let s = &self.hipe.score;
        let column = s
            .edition
            .columns(s.task)
            .first()
            .map_or("NE-COARSE-LIT", |c| c.0);
        let mut row = vec![column.to_string()];
        if self.hipe.filtered() {
            row.push("TIME-ALL LED-ALL".into());
        }
        row.push(
            if s.task == Task::Nel {
                "fuzzy"
            } else {
                "strict"
            }
            .into(),
        );
        row.push("ALL".into());
        Headline {
            table: Self::table_name(self.hipe.cutoffs().first().copied().unwrap_or(1)),
            row,
            column: "F1".into(),
        }
    }

    fn gold_mentions(&self, stats: &Statistics, sums: &[f64]) -> Option<super::GoldMentions> {
        // NERC only: the labels of the headline's column (and filter), each gold entity a TP
        // or an FN of the strict regime at the first cutoff.
        if self.hipe.score.task == Task::Nel {
            return None;
        }
        let h = self.headline();
        let (_, head) = h.row.split_last()?;
        let (_, prefix) = head.split_last()?;
        let lead: String = prefix.iter().map(|p| format!("{p}{SEP}")).collect();
        let strict = REGIMES.iter().position(|r| r.0 == "strict")? * PER_REGIME;
        let mut labels = Vec::new();
        for (i, l) in stats.labels.iter().enumerate() {
            let Some(label) = l.strip_prefix(&lead).filter(|x| *x != "ALL") else {
                continue;
            };
            let b = stats.label_block(sums, i);
            labels.push((label.to_string(), b[strict] + b[strict + 2]));
        }
        let mut g = super::GoldMentions::of(
            &labels.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
            |i| labels[i].1,
            &h.table,
            &h.column,
        );
        g.prefix = head.to_vec();
        Some(g)
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "HIPE {} of {} as the official HIPE scorer v2.0 counts it: micro P, R, F1 (from P and R) and TP, FP, FN; fuzzy is its ent_type regime",
            self.hipe.score.task.as_str(),
            self.hipe.score.edition.name()
        )]
    }

    fn signature_fields(&self) -> Vec<(String, String)> {
        let s = &self.hipe.score;
        let mut own: Vec<(String, String)> = vec![
            ("task".into(), s.task.as_str().into()),
            ("hipe_edition".into(), s.edition.name().into()),
        ];
        if s.task == Task::Nel {
            let n: Vec<String> = self.hipe.cutoffs().iter().map(|n| n.to_string()).collect();
            own.push(("n_best".into(), n.join(",")));
            own.push(("original_nel".into(), s.original_nel.to_string()));
        }
        for (name, value) in [
            ("glue", self.options.own("glue")),
            ("noise_level", self.options.own("noise_level")),
            ("time_period", self.options.own("time_period")),
        ] {
            if let Some(v) = value {
                own.push((name.into(), v.trim().to_string()));
            }
        }
        if let Some(p) = &self.hipe.relaxed {
            own.push(("relaxed".into(), file_field(p)));
        }
        if let Some(m) = &self.hipe.normalize_run {
            own.push(("normalize_run".into(), file_field(&m.path)));
        }
        own.extend(self.breakdown.signature_fields());
        let mut o = self.options.clone();
        o.format = Some(crate::formats::InputFormat::Hipe);
        super::sign::option_fields(&o, own)
    }
}
