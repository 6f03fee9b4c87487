//! The fair family (Ortmann 2022): traditional, fair and weighted P/R/F1 of labeled spans,
//! with labeling (LE), boundary (BE) and labeling-boundary (LBE) errors counted once
//! ([`crate::eval::fair`]). Unit: the evaluation unit of the format (HIPE documents, CoNLL
//! sentences, span-file units).

use std::path::Path;

use super::{file_hash, prf_columns, prf_values, Family, Headline, Options, Statistics};
use crate::error::{Error, Result};
use crate::eval::fair::Inspection;
use crate::eval::fair::{parse_weights, FairOptions, ReadOptions};
use crate::formats::{Format, InputFormat};
use crate::matching::fair::{FairCounts, LabelCounts, Tally, Weights};
use crate::table::{Column, KeyKind, Kind, Table, Unit, Value};

const FORMATS: &[&str] = &[
    "spans",
    "conll",
    "hipe",
    "brat",
    "doccano",
    "labelstudio",
    "prodigy",
];
/// Traditional TP, FP, FN, then fair TP, FP, FN, LE, BES, BEL, BEO, LBE.
const BLOCK: usize = 11;

/// Fair evaluation of labeled spans.
#[derive(Debug, Clone)]
pub struct FairFamily {
    opts: FairOptions,
    beta: f64,
    listing: bool,
    breakdown: Vec<super::breakdown::Asked>,
    /// The training file of the training keys, and its content hash once read.
    train: Option<std::path::PathBuf>,
    train_hash: std::sync::OnceLock<String>,
    options: Options,
}

/// The options the fair family declares of its own.
pub const OWN_OPTIONS: &[&str] = &["breakdown", "train"];

impl FairFamily {
    /// The family with `opts` (format, column, weights, labels, exclude, focus,
    /// continuation, ignore-punct, beta).
    pub fn new(opts: &Options) -> Result<Self> {
        let mut allowed = vec![
            "format",
            "column",
            "weights",
            "labels",
            "exclude",
            "focus",
            "continuation",
            "ignore-punct",
            "beta",
            "breakdown",
            "train",
        ];
        allowed.extend(super::options::RUN_CHANGES);
        allowed.extend(super::mentions::RUN_OPTIONS);
        opts.refuse_except("fair", &allowed)?;
        let breakdown = match opts.own("breakdown") {
            Some(v) => super::breakdown::parse_keys(v)?,
            None => Vec::new(),
        };
        let train = opts.own("train").map(std::path::PathBuf::from);
        super::breakdown::check_train(&breakdown, train.as_deref())?;
        let format = opts.format_of("fair", FORMATS)?;
        let mut read = ReadOptions {
            format: format.and_then(InputFormat::corpus_format),
            standoff: format.and_then(InputFormat::standoff),
            ignore_punct: opts.ignore_punct,
            continuation: opts.continuation.unwrap_or_default(),
            docs: super::mentions::aligned_run("fair", opts)?,
            ..ReadOptions::default()
        };
        if let Some(c) = &opts.column {
            read.columns = c
                .split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect();
        }
        // A HIPE link column holds links, not tags: its "spans" would be labelled by the
        // links' characters (issue 46.11).
        if let Some(c) = read
            .columns
            .iter()
            .find(|c| c.to_ascii_uppercase().starts_with("NEL-"))
        {
            return Err(Error::usage(format!(
                "column {}: a link column (entity links, not tags); fair evaluation and inspect \
                 read the labeled spans of tag columns (NE-COARSE-LIT, NE-COARSE-METO, \
                 NE-FINE-LIT, NE-FINE-METO, NE-FINE-COMP, NE-NESTED; a CoNLL file's tag column); \
                 links are scored by `evaluate --family nel`",
                crate::error::snippet(c)
            )));
        }
        Ok(FairFamily {
            opts: FairOptions {
                read,
                focus: opts.focus.unwrap_or_default(),
                weights: opts.weights.as_deref().map(parse_weights).transpose()?,
                labels: opts.labels.clone(),
                exclude: opts.exclude.clone(),
            },
            beta: opts.beta(),
            listing: opts.listing,
            breakdown,
            train,
            train_hash: std::sync::OnceLock::new(),
            options: opts.clone(),
        })
    }

    /// Reads and evaluates gold and run: standoff files, or token and span files (the gold
    /// kept as read); `standoff`: whether they are standoff files
    /// ([`crate::eval::standoff::fair_applies`]).
    /// `hash`: also hash token and span files from the bytes read, for the signature.
    fn read(&self, gold: &Path, pred: &Path, standoff: bool, hash: bool) -> Result<Read> {
        if standoff {
            self.options.refuse_standoff_changes()?;
            return Ok(Read {
                report: crate::eval::standoff::fair_report(gold, pred, &self.opts)?,
                standoff: true,
                changes: None,
                gold: None,
                hashes: None,
            });
        }
        // The run's changes, their own for each run read (the log is the run's).
        let (run_read, changes) = self.options.run_read();
        let mut opts = self.opts.clone();
        opts.read.run = run_read.text;
        let hasher: crate::eval::fair::Hasher<'_> = &super::sign::bytes_hash;
        let (report, g, hashes) = crate::eval::fair::evaluate_files_keeping_gold(
            gold,
            pred,
            &opts,
            hash.then_some(hasher),
        )?;
        Ok(Read {
            report,
            standoff: false,
            changes,
            gold: Some(g),
            hashes,
        })
    }

    /// Adds the breakdown asked for: the units of `report` are grouped into the statistics'
    /// units by `sizes` (units per statistics unit); `gold` is the gold as read (token and
    /// span files), whose HIPE documents carry sentences and metadata.
    fn attach_breakdown(
        &self,
        s: &mut Statistics,
        report: &crate::eval::fair::FairReport,
        sizes: &[usize],
        format: Option<Format>,
        gold: Option<&crate::corpus::Corpus>,
        train: impl FnOnce() -> Result<Option<super::breakdown::Train>>,
    ) -> Result<()> {
        use super::breakdown::Key;
        let hipe = format == Some(Format::Hipe);
        let refuse = |what: &str, keys: &[Key]| -> Result<()> {
            match self.breakdown.iter().find(|a| keys.contains(&a.key)) {
                Some(a) => Err(crate::error::Error::usage(format!(
                    "breakdown: {} in the fair family {what}",
                    a.key.name()
                ))),
                None => Ok(()),
            }
        };
        // Noise levels and dates are HIPE TSV metadata of the gold.
        match gold {
            Some(g) => super::breakdown::tokens::metadata(&self.breakdown, g)?,
            None => refuse(
                "reads the gold's HIPE metadata (noise levels, document dates), which standoff files do not carry",
                &[Key::Noise, Key::Period],
            )?,
        }
        if !super::breakdown::fair::has_text(&report.units) {
            let text_keys = [
                Key::Chars,
                Key::Capitalisation,
                Key::Oov,
                Key::TrainFreq,
                Key::TrainConsistency,
                Key::SentenceLength,
                Key::Density,
                Key::Position,
            ];
            refuse(
                "reads the tokens' text, which span files do not carry",
                &text_keys,
            )?;
        }
        let train = train()?;
        let ctx = super::breakdown::fair::Context {
            hipe: gold.filter(|_| hipe),
            document_sentences: &report.document_sentences,
            train: train.as_ref(),
        };
        let index = sizes
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(i, n));
        let [(gf, gt), (rf, rt)] = super::breakdown::fair::facts(index.zip(&report.units), &ctx);
        super::breakdown::fair::attach(s, &self.breakdown, &gf, &gt, &rf, &rt)
    }

    /// The statistics of `gold` and `pred` ([`Family::statistics`]): `standoff` whether they
    /// are standoff files, `early` the gold's format when known before reading it (then the
    /// training file is being read by `pending`, else it is read here after them).
    fn statistics_with(
        &self,
        gold: &Path,
        pred: &Path,
        standoff: bool,
        early: Option<Option<Format>>,
        pending: super::breakdown::train::Pending<'_>,
        hash: bool,
    ) -> Result<(Statistics, Option<[String; 2]>)> {
        let Read {
            report,
            standoff,
            changes,
            gold: gold_read,
            hashes,
        } = self.read(gold, pred, standoff, hash)?;
        let labels: Vec<String> = report.tally.per_label.keys().cloned().collect();
        // The gold's format as known before reading it, else as its reader tells.
        let format = match early {
            Some(f) => f,
            None => match gold_read.as_ref().map(|g| Format::parse(g.format)) {
                Some(Ok(Some(f))) => Some(f),
                _ => Some(crate::formats::detect(gold, &crate::io::read_text(gold)?)?),
            },
        };
        // Documents where the file has them (HIPE; CoNLL with -DOCSTART-; standoff files),
        // else sentences: the same units as the spans and muc families of the same files.
        let by_document = !report.document_sentences.is_empty();
        let unit = match format {
            None | Some(Format::Hipe) => Unit::Document,
            _ if by_document => Unit::Document,
            _ => Unit::Sentence,
        };
        let mut s = Statistics::new(unit, BLOCK, BLOCK, labels);
        if standoff {
            s.warnings = report.warnings.clone();
        }
        s.warnings
            .extend(super::options::repair_warnings(changes.as_deref()));
        s.details.push(confusion_table(&report.tally));
        s.listing = self.listing.then(|| crate::eval::fair::errors_tsv(&report));
        // One tally per unit: each sentence, or each document's sentences (a document without
        // a sentence is a unit too).
        let sizes = if by_document {
            report.document_sentences.clone()
        } else {
            vec![1; report.units.len()]
        };
        let mut units = report.units.iter();
        for &n in &sizes {
            let mut t = Tally::new();
            for u in units.by_ref().take(n) {
                t.add(&u.target.spans, &u.system.spans, &u.outcome);
            }
            let mut v = Vec::with_capacity(s.width());
            block(&t.overall, &mut v);
            for l in &s.labels {
                match t.per_label.get(l) {
                    Some(c) => block(c, &mut v),
                    None => v.extend([0.0; BLOCK]),
                }
            }
            s.push_unit(v);
        }
        if !self.breakdown.is_empty() {
            let train = || match early {
                Some(_) => pending.wait(),
                None => self.train_set(format),
            };
            self.attach_breakdown(&mut s, &report, &sizes, format, gold_read.as_ref(), train)?;
        }
        Ok((s, hashes))
    }

    /// [`Family::statistics`]; with `hash`, also the content hashes of the gold and the run
    /// made from the bytes read (token and span files; `None` for standoff files).
    fn read_and_count(
        &self,
        gold: &Path,
        pred: &Path,
        hash: bool,
    ) -> Result<(Statistics, Option<[String; 2]>)> {
        let standoff = crate::eval::standoff::fair_applies(gold, pred, &self.opts);
        // The training file is read beside the gold and the run, in a thread of its own, when
        // the gold's format (which says how to read it) is known before the gold is parsed.
        let wanted = !self.breakdown.is_empty() && self.train.is_some();
        let early = self.early_format(gold, standoff, wanted);
        let reading = early.filter(|_| wanted).map(|f| move || self.train_set(f));
        super::breakdown::train::beside(reading, |pending| {
            self.statistics_with(gold, pred, standoff, early, pending, hash)
        })
    }

    /// The training file's vocabulary and entities (`train`), read in the gold's `format`
    /// (`None` for standoff files; a HIPE TSV file by the gold's first entity column).
    fn train_set(&self, format: Option<Format>) -> Result<Option<super::breakdown::Train>> {
        let Some(path) = &self.train else {
            return Ok(None);
        };
        let col = (format == Some(Format::Hipe))
            .then(|| self.opts.read.columns.first().cloned())
            .flatten();
        let (hash, t) = super::breakdown::train::read(
            path,
            format.filter(|f| *f != Format::Spans),
            col.as_deref(),
            None,
        )?;
        let _ = self.train_hash.set(hash);
        Ok(Some(t))
    }

    /// The gold's format when it is known before the gold is parsed: `Some(None)` for
    /// standoff files, the format given, else (when `sniff`) the one the head of a regular
    /// gold file shows (`None`: not known before).
    fn early_format(&self, gold: &Path, standoff: bool, sniff: bool) -> Option<Option<Format>> {
        match self.opts.read.format {
            _ if standoff => Some(None),
            Some(f) => Some(Some(f)),
            None if sniff => crate::formats::detect_head(gold).ok().flatten().map(Some),
            None => None,
        }
    }

    fn weights(&self) -> Weights {
        self.opts.weights.clone().unwrap_or_else(Weights::fair)
    }
}

/// A fair evaluation as read: the report, whether the files were standoff, the run's tag
/// changes, the gold as read (token and span files).
struct Read {
    report: crate::eval::fair::FairReport,
    standoff: bool,
    changes: Option<std::sync::Arc<crate::convert::RunChanges>>,
    gold: Option<crate::corpus::Corpus>,
    /// The gold's and the run's content hashes, when asked for and made from the bytes read.
    hashes: Option<[String; 2]>,
}

/// The inspection of a run against its gold (`fairscore inspect`): the fair family with
/// `opts` (the options `evaluate --family fair` takes), its evaluation laid out document by
/// document ([`crate::eval::fair::Inspection`]), with the signature `evaluate` prints.
pub fn inspect(opts: &Options, gold: &Path, pred: &Path) -> Result<Inspection> {
    let fam = FairFamily::new(opts)?;
    let standoff = crate::eval::standoff::fair_applies(gold, pred, &fam.opts);
    // The signature first: it reads the files again, better before they are held read.
    let signature = super::sign::signature(&fam, None, gold, &[pred])?.to_string();
    let read = fam.read(gold, pred, standoff, false)?;
    let mut out = crate::eval::fair::inspect::assemble(&read.report, read.gold.as_ref());
    out.warnings
        .extend(super::options::repair_warnings(read.changes.as_deref()));
    out.signature = signature;
    out.gold = gold.display().to_string();
    out.run = pred.display().to_string();
    out.input_bytes = crate::eval::fair::inspect::input_bytes(gold)?
        + crate::eval::fair::inspect::input_bytes(pred)?;
    out.limit = Some(crate::eval::fair::page_limit(out.input_bytes));
    Ok(out)
}

fn block(c: &LabelCounts, out: &mut Vec<f64>) {
    let t = &c.traditional;
    let f = &c.fair;
    out.extend(
        [
            t.tp, t.fp, t.fn_, f.tp, f.fp, f.fn_, f.le, f.bes, f.bel, f.beo, f.lbe,
        ]
        .map(|x| x as f64),
    );
}

fn fair_counts(b: &[f64]) -> FairCounts {
    FairCounts {
        tp: b[3] as u64,
        fp: b[4] as u64,
        fn_: b[5] as u64,
        le: b[6] as u64,
        bes: b[7] as u64,
        bel: b[8] as u64,
        beo: b[9] as u64,
        lbe: b[10] as u64,
    }
}

/// The confusion of labels over the whole input: one row per (target label, system label)
/// pair that an error joined, `_` for no span, with its count (pairs never seen are 0 and
/// left out).
fn confusion_table(t: &crate::matching::fair::Tally) -> Table {
    let mut c = Table::new(
        "confusion",
        "Confusion of labels (errors only; _ for no span)",
        vec![KeyKind::Label, KeyKind::RunLabel],
        vec![Column::new("count", Kind::Count)],
    );
    for (gold, row) in &t.confusion {
        for (run, n) in row {
            if *n > 0 {
                c.push(vec![gold.clone(), run.clone()], vec![Value::Count(*n)]);
            }
        }
    }
    c
}

impl Family for FairFamily {
    fn name(&self) -> &str {
        "fair"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        self.read_and_count(gold, pred, false).map(|(s, _)| s)
    }

    fn statistics_hashed(&self, gold: &Path, pred: &Path) -> Result<(Statistics, [String; 2])> {
        // Token and span files are hashed from the bytes read for scoring.
        match self.read_and_count(gold, pred, true)? {
            (s, Some(h)) => Ok((s, h)),
            (s, None) => Ok((s, [file_hash(gold)?, file_hash(pred)?])),
        }
    }
    fn tables(&self, stats: &Statistics, sums: &[f64]) -> Vec<Table> {
        let weights = self.weights();
        let mut rows: Vec<(String, &[f64])> = vec![("ALL".to_string(), &sums[..BLOCK])];
        for (i, l) in stats.labels.iter().enumerate() {
            rows.push((l.clone(), stats.label_block(sums, i)));
        }
        // Every category but TP counts errors: lower is better.
        let counts = |names: &[&str]| -> Vec<Column> {
            names
                .iter()
                .map(|&n| match n {
                    "TP" => Column::new(n, Kind::Count),
                    _ => Column::errors(n, Kind::Count),
                })
                .collect()
        };
        let mut trad_cols = counts(&["TP", "FP", "FN"]);
        trad_cols.extend(prf_columns(self.beta));
        let mut trad = Table::new(
            "traditional",
            "Traditional evaluation",
            vec![KeyKind::Label],
            trad_cols,
        );
        let mut fair_cols = counts(&crate::matching::fair::CATEGORY_NAMES);
        fair_cols.extend(prf_columns(self.beta));
        let mut fair = Table::new(
            "fair",
            "Fair evaluation (Ortmann 2022)",
            vec![KeyKind::Label],
            fair_cols,
        );
        // The weighted table: the counts of each category the weights name, then the weighted
        // TP, FP and FN and their scores.
        let named = weights.categories();
        let categories: Vec<&str> = crate::matching::fair::CATEGORY_NAMES
            .into_iter()
            .filter(|c| named.contains(c))
            .collect();
        let mut w_cols = counts(&categories);
        w_cols.extend([
            Column::new("wTP", Kind::Amount),
            Column::errors("wFP", Kind::Amount),
            Column::errors("wFN", Kind::Amount),
        ]);
        w_cols.extend(prf_columns(self.beta));
        let mut weighted = Table::new(
            "weighted",
            "Weighted evaluation",
            vec![KeyKind::Label],
            w_cols,
        );
        for (label, b) in rows {
            let (tp, fp, fn_) = (b[0], b[1], b[2]);
            let mut v: Vec<Value> = [tp, fp, fn_]
                .iter()
                .map(|x| Value::Count(*x as u64))
                .collect();
            v.extend(prf_values(tp, fp, fn_, self.beta));
            trad.push(vec![label.clone()], v);
            let c = fair_counts(b);
            let f = Weights::fair().scaled_sums(&c);
            let mut v: Vec<Value> = [c.tp, c.fp, c.fn_, c.le, c.be(), c.bes, c.bel, c.beo, c.lbe]
                .into_iter()
                .map(Value::Count)
                .collect();
            v.extend(prf_values(f.0, f.1, f.2, self.beta));
            fair.push(vec![label.clone()], v);
            let mut v: Vec<Value> = categories
                .iter()
                .map(|n| Value::Count(c.get(n).unwrap_or(0)))
                .collect();
            let w = weights.sums(&c);
            v.extend([Value::amount(w.0), Value::amount(w.1), Value::amount(w.2)]);
            // Scores of the scaled sums: the same numbers for weights scaled alike.
            let ws = weights.scaled_sums(&c);
            v.extend(prf_values(ws.0, ws.1, ws.2, self.beta));
            weighted.push(vec![label], v);
        }
        let mut out = vec![trad, fair];
        if self.opts.weights.is_some() {
            out.push(weighted);
        }
        out
    }

    fn headline(&self) -> Headline {
        Headline {
            table: "fair".into(),
            row: vec!["ALL".into()],
            column: "F1".into(),
        }
    }

    fn listing_name(&self) -> Option<&'static str> {
        Some("errors")
    }

    fn gold_mentions(&self, stats: &Statistics, sums: &[f64]) -> Option<super::GoldMentions> {
        // Every target span is a traditional TP or FN of its label (columns 0, 2).
        let gold = |i: usize| {
            let b = stats.label_block(sums, i);
            b[0] + b[2]
        };
        Some(super::GoldMentions::of(&stats.labels, gold, "fair", "F1"))
    }

    fn signature_fields(&self) -> Vec<(String, String)> {
        let o = &self.options;
        let repair = match o.continuation.unwrap_or_default() {
            crate::spans::stacked::Continuation::Conlleval => "conlleval",
            crate::spans::stacked::Continuation::Reference => "reference",
        };
        let mut own = vec![
            ("focus".into(), o.focus.unwrap_or_default().as_str().into()),
            ("repair".into(), repair.into()),
            (
                "ignore-punct".into(),
                if o.ignore_punct { "yes" } else { "no" }.into(),
            ),
        ];
        own.extend(super::breakdown::signature_fields(
            &self.breakdown,
            self.train.as_deref(),
            self.train_hash.get().map(String::as_str),
        ));
        own.extend(super::mentions::run_fields(o));
        super::sign::option_fields(o, own)
    }

    fn notes(&self) -> Vec<String> {
        let mut v = vec![format!(
            "fair: LE, BE and LBE count as half FP and half FN; LE and LBE per label for the {} span",
            match self.opts.focus {
                crate::matching::fair::Focus::Target => "target",
                crate::matching::fair::Focus::System => "system",
            }
        )];
        if let Some(w) = &self.opts.weights {
            v.push(format!(
                "weights: {}",
                crate::eval::weights::format_weights(w)
            ));
        }
        v
    }
}
