//! The spans family: entities read from IOB/IOBES tags (CoNLL, or a HIPE TSV column) and
//! counted in the four regimes of nervaluate and the HIPE scorer (strict, exact, partial,
//! ent_type), per label and over all labels. Every run label is evaluated (a run entity of a
//! label the gold lacks is a false positive), as conlleval and seqeval count. Unit: the
//! document (`-DOCSTART-`, `# document_id`), or the sentence for a file without documents.
//!
//! Options of its own: `attribution` (`hipe`, the default: a run entity overlapping several
//! gold entities takes the first, as the HIPE scorer counts; `nervaluate`: nervaluate 1.2.x's
//! closest overlap, each regime and each label attributed on its own) and `min-overlap` (with
//! `nervaluate`: the share of a gold entity a run entity must cover, in percent, 1 to 100;
//! default 1, nervaluate's `min_overlap_percentage`).

use std::collections::BTreeSet;
use std::path::Path;

use super::{prf_columns, prf_values, Family, Headline, Options, Statistics};
use crate::corpus::{Corpus, ReadOptions};
use crate::error::{Error, Result};
use crate::eval::options::{Regime, ScoreOptions};
use crate::eval::score::evaluate_aligned;
use crate::formats::{Format, InputFormat};
use crate::hipe::{Edition, Task};
use crate::matching::span_count::Attribution;
use crate::matching::PerRegime;
use crate::matching::SpanRegime;
use crate::metrics::resample::DocCounts;
use crate::metrics::RegimeScores;
use crate::table::{Column, KeyKind, Kind, Table, Unit, Value};

const FORMATS: &[&str] = &["conll", "hipe", "brat", "doccano", "labelstudio", "prodigy"];

/// Entity spans in the four regimes.
#[derive(Debug, Clone)]
pub struct SpanFamily {
    input_format: Option<InputFormat>,
    format: Option<Format>,
    column: Option<String>,
    regimes: Vec<SpanRegime>,
    beta: f64,
    attribution: Attribution,
    breakdown: Vec<super::breakdown::Asked>,
    train: Option<std::path::PathBuf>,
    /// The training file's content hash, made when it is read (for the signature).
    train_hash: std::sync::OnceLock<String>,
    /// The reader of a generative run placed on the gold's texts (`align`).
    docs: Option<crate::corpus::standoff::DocsReader>,
    options: Options,
}

/// The options the spans family declares of its own.
pub const OWN_OPTIONS: &[&str] = &["attribution", "min-overlap", "breakdown", "train"];

impl SpanFamily {
    /// The family with `opts` (format, column, regimes, beta, attribution, min-overlap).
    pub fn new(opts: &Options) -> Result<Self> {
        let mut allowed = vec![
            "format",
            "column",
            "regimes",
            "beta",
            "attribution",
            "min-overlap",
            "breakdown",
            "train",
        ];
        allowed.extend(super::options::RUN_CHANGES);
        allowed.extend(super::mentions::RUN_OPTIONS);
        opts.refuse_except("spans", &allowed)?;
        let input_format = opts.format_of("spans", FORMATS)?;
        let breakdown = match opts.own("breakdown") {
            Some(v) => super::breakdown::parse_keys(v)?,
            None => Vec::new(),
        };
        let train = opts.own("train").map(std::path::PathBuf::from);
        super::breakdown::check_train(&breakdown, train.as_deref())?;
        Ok(SpanFamily {
            input_format,
            format: input_format.and_then(InputFormat::corpus_format),
            column: opts.column.clone(),
            regimes: opts
                .regimes
                .clone()
                .unwrap_or_else(|| SpanRegime::ALL.to_vec()),
            beta: opts.beta(),
            attribution: super::options::attribution(opts)?,
            breakdown,
            train,
            train_hash: std::sync::OnceLock::new(),
            docs: super::mentions::aligned_run("spans", opts)?,
            options: opts.clone(),
        })
    }
}

/// Writes the per-document TP, FP, FN of the four regimes into columns 0..12 of `out`.
fn series_block(s: &PerRegime<RegimeScores>, out: &mut [Vec<f64>], at: usize) {
    for (k, r) in SpanRegime::ALL.into_iter().enumerate() {
        for &(d, c) in s[r].docs.nonzero() {
            if let Some(u) = out.get_mut(d) {
                u[at + k * 3] = c.tp;
                u[at + k * 3 + 1] = c.fp;
                u[at + k * 3 + 2] = c.fn_;
            }
        }
    }
}

impl Family for SpanFamily {
    fn signature_fields(&self) -> Vec<(String, String)> {
        // The regimes written out: all four when none were chosen.
        let mut o = self.options.clone();
        o.regimes = Some(self.regimes.clone());
        // Named only when not the default: hipe, and 1 % with nervaluate.
        let mut own = Vec::new();
        if let Attribution::Nervaluate { min_overlap } = self.attribution {
            own.push(("attribution".to_string(), "nervaluate".to_string()));
            if min_overlap != 1.0 {
                own.push(("min-overlap".to_string(), format!("{min_overlap}")));
            }
        }
        own.extend(super::breakdown::signature_fields(
            &self.breakdown,
            self.train.as_deref(),
            self.train_hash.get().map(String::as_str),
        ));
        own.extend(super::mentions::run_fields(&o));
        super::sign::option_fields(&o, own)
    }

    fn name(&self) -> &str {
        "spans"
    }

    fn formats(&self) -> &[&'static str] {
        FORMATS
    }

    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        self.read_and_count(gold, pred, None)
    }

    fn statistics_hashed(&self, gold: &Path, pred: &Path) -> Result<(Statistics, [String; 2])> {
        // HIPE TSV and CoNLL files are hashed from the bytes read for scoring.
        let mut made = [None, None];
        let s = self.read_and_count(gold, pred, Some(&mut made))?;
        let [g, r] = made;
        let hash = |h: Option<String>, p: &Path| h.map_or_else(|| super::sign::file_hash(p), Ok);
        Ok((s, [hash(g, gold)?, hash(r, pred)?]))
    }
    fn tables(&self, stats: &Statistics, sums: &[f64]) -> Vec<Table> {
        let mut out = Vec::new();
        for r in &self.regimes {
            let k = SpanRegime::ALL.iter().position(|x| x == r).unwrap_or(0);
            let mut cols = vec![
                Column::new("TP", Kind::Amount),
                Column::errors("FP", Kind::Amount),
                Column::errors("FN", Kind::Amount),
            ];
            cols.extend(prf_columns(self.beta));
            let mut t = Table::new(
                r.json_name(),
                &format!("{} regime", r.json_name()),
                vec![KeyKind::Label],
                cols,
            );
            let row = |b: &[f64]| {
                let c = DocCounts::new(b[k * 3], b[k * 3 + 1], b[k * 3 + 2]);
                let mut v = vec![
                    Value::amount(c.tp),
                    Value::amount(c.fp),
                    Value::amount(c.fn_),
                ];
                v.extend(prf_values(c.tp, c.fp, c.fn_, self.beta));
                v
            };
            t.push(vec!["ALL".into()], row(&sums[..12]));
            for (i, l) in stats.labels.iter().enumerate() {
                t.push(vec![l.clone()], row(stats.label_block(sums, i)));
            }
            out.push(t);
        }
        out
    }

    fn headline(&self) -> Headline {
        Headline {
            table: self
                .regimes
                .first()
                .copied()
                .unwrap_or(SpanRegime::Strict)
                .json_name()
                .into(),
            row: vec!["ALL".into()],
            column: "F1".into(),
        }
    }

    fn gold_mentions(&self, stats: &Statistics, sums: &[f64]) -> Option<super::GoldMentions> {
        // Every gold span is a TP or an FN of its label in the strict regime (columns 0, 2).
        let gold = |i: usize| {
            let b = stats.label_block(sums, i);
            b[0] + b[2]
        };
        let h = self.headline();
        Some(super::GoldMentions::of(
            &stats.labels,
            gold,
            &h.table,
            &h.column,
        ))
    }

    fn notes(&self) -> Vec<String> {
        let how = match self.attribution {
            Attribution::Hipe => "counted as the HIPE scorer counts (ent_type attributes an entity overlapping several gold entities to the first)".to_string(),
            Attribution::Nervaluate { min_overlap } => format!(
                "counted as nervaluate 1.2.x counts (each regime and each label attributed on its own; ent_type takes the closest overlapping gold entity of the same label; an overlap covers at least {min_overlap} % of the gold entity)"
            ),
        };
        vec![format!("regimes as nervaluate names them, {how}; partial: half credit for overlaps; every run label is evaluated")]
    }
}

impl SpanFamily {
    /// [`Family::statistics`]; with `hashes`, the content hashes of the gold and the run made
    /// from the bytes read (HIPE TSV and CoNLL files; left `None` for standoff files).
    fn read_and_count(
        &self,
        gold: &Path,
        pred: &Path,
        mut hashes: Option<&mut [Option<String>; 2]>,
    ) -> Result<Statistics> {
        if self.docs.is_some() || crate::eval::standoff::applies(gold, pred, self.input_format) {
            if self.attribution != Attribution::Hipe {
                return Err(Error::usage(
                    "attribution nervaluate: the spans family attributes nervaluate's way entities read from tags (conll or hipe), not standoff files",
                ));
            }
            self.options.refuse_standoff_changes()?;
            let read = crate::eval::standoff::StandoffRead {
                format: self.input_format.and_then(InputFormat::standoff),
                column: self.column.clone(),
                docs: self.docs.clone(),
            };
            let wanted = !self.breakdown.is_empty() && self.train.is_some();
            let reading = wanted.then_some(|| self.train_set(None));
            return super::breakdown::train::beside(reading, |train| {
                self.standoff_with_breakdown(gold, pred, &read, train)
            });
        }
        let bytes = crate::io::read_input(gold)?;
        if let Some([g, _]) = hashes.as_deref_mut() {
            *g = Some(super::sign::bytes_hash(gold, &bytes)?);
        }
        let text = crate::io::into_utf8(gold, bytes)?;
        let format = match self.format {
            Some(f) => f,
            None => crate::formats::detect(gold, &text)?,
        };
        if format == Format::Spans {
            return Err(Error::usage(
                "format spans: the spans family reads tags (conll or hipe); span files are scored by the fair family",
            ));
        }
        // The entity column: CoNLL's tag column, or a HIPE TSV column by name.
        let col = match format {
            Format::Conll => None,
            _ => Some(
                self.column
                    .clone()
                    .unwrap_or_else(|| "NE-COARSE-LIT".into()),
            ),
        };
        // The training file is read beside the gold and the run, in a thread of its own: its
        // reading is most of what the training keys cost (docs/performance.md).
        let wanted = !self.breakdown.is_empty() && self.train.is_some();
        let reading = wanted.then_some(|| self.train_set(col.as_deref()));
        super::breakdown::train::beside(reading, |train| {
            let run = (pred, hashes.map(|[_, r]| r));
            self.token_statistics(gold, run, text, format, col.as_deref(), train)
        })
    }

    /// The statistics of standoff files read as `read`, with the breakdown asked for (`train`
    /// the training set being read).
    fn standoff_with_breakdown(
        &self,
        gold: &Path,
        pred: &Path,
        read: &crate::eval::standoff::StandoffRead,
        train: super::breakdown::train::Pending<'_>,
    ) -> Result<Statistics> {
        let mut s = standoff_statistics(gold, pred, read)?;
        if let Some(a) = self.breakdown.iter().find(|a| a.key.needs_metadata()) {
            return Err(Error::usage(format!(
            "breakdown: {} reads the gold's HIPE metadata (noise levels, document dates), which standoff files do not carry",
            a.key.name()
        )));
        }
        if !self.breakdown.is_empty() {
            let train = train.wait()?;
            let regime = self.breakdown_regime();
            let (gf, rf) = super::breakdown::standoff::facts(
                gold,
                pred,
                read,
                regime == SpanRegime::Strict,
                train.as_ref(),
            )?;
            super::breakdown::attach(&mut s, &self.breakdown, &gf, &rf, regime.json_name())?;
        }
        Ok(s)
    }

    /// The statistics of token files: the gold's `text` in `format` and the run read alike
    /// (`run`: its path, and where to put its content hash when one is wanted), `col` the HIPE
    /// entity column (`None` for CoNLL), `train` the training file once read.
    fn token_statistics(
        &self,
        gold: &Path,
        run: (&Path, Option<&mut Option<String>>),
        text: String,
        format: Format,
        col: Option<&str>,
        train: super::breakdown::train::Pending<'_>,
    ) -> Result<Statistics> {
        let (pred, run_hash) = run;
        let ropts = ReadOptions::default();
        let mut g = crate::formats::parse_text(gold, text, Some(format), &ropts)?;
        let (run_read, changes) = self.options.run_read();
        let bytes = crate::io::read_input(pred)?;
        if let Some(h) = run_hash {
            *h = Some(super::sign::bytes_hash(pred, &bytes)?);
        }
        let text = crate::io::into_utf8(pred, bytes)?;
        let mut p = crate::formats::parse_text(pred, text, Some(format), &run_read)?;
        let mut warnings = super::options::repair_warnings(changes.as_deref());
        let unit = if g.docs.len() == 1 && p.docs.len() <= 1 {
            let gold_segments = g.docs.first().map(|d| d.segments.clone());
            let run_segments = p.docs.first().map(|d| d.segments.clone());
            if gold_segments != run_segments
                && g.n_tokens() == p.n_tokens()
                && (0..g.n_tokens()).all(|k| g.token_text(k) == p.token_text(k))
            {
                warnings.push(format!(
                    "{}: the run's sentence breaks differ from the gold's ({} sentences in the run, {} in the gold): the run is read with the gold's breaks, as conlleval reads them",
                    p.path.display(),
                    run_segments.map_or(0, |s| s.len()),
                    gold_segments.as_ref().map_or(0, |s| s.len())
                ));
            }
            g.sentences_as_documents(None);
            p.sentences_as_documents(gold_segments.as_deref());
            Unit::Sentence
        } else {
            Unit::Document
        };
        let mut o = match format {
            Format::Conll => {
                let mut o = ScoreOptions::new(Task::NercCoarse, Edition::Hipe2022);
                o.format = Format::Conll;
                o.column = self.column.clone();
                o
            }
            _ => {
                let edition = g
                    .dialect
                    .and_then(|d| Edition::parse(d).ok())
                    .unwrap_or(Edition::Hipe2022);
                let column = self.column.as_deref().unwrap_or("NE-COARSE-LIT");
                let task = [Task::NercCoarse, Task::NercFine]
                    .into_iter()
                    .find(|t| edition.columns(*t).iter().any(|c| c.0 == column))
                    .ok_or_else(|| {
                        Error::usage(format!(
                            "column {}: not an entity column of {} files",
                            crate::error::snippet(column),
                            edition.name()
                        ))
                    })?;
                ScoreOptions::new(task, edition)
            }
        };
        o.skip_check = true;
        o.regimes = vec![Regime::Strict];
        o.attribution = self.attribution;
        // The breakdown reads the entities as scored.
        o.keep_entities = !self.breakdown.is_empty();
        // Every run label is evaluated, as conlleval and seqeval do.
        let tag_col = match col {
            Some(name) => p.column(name),
            None => super::breakdown::tokens::conll_tag_column(&p, self.column.as_deref()),
        };
        let run_labels = tag_col.map(|c| run_labels(&p, c)).unwrap_or_default();
        o.tagset = Some(run_labels.clone());
        // One alignment of the run to the gold, for the scoring and the breakdown.
        o.validate()?;
        let al = crate::corpus::align(&g, &p)?;
        let mut res = evaluate_aligned(&g, &p, &o, &al)?;
        let cols = res
            .results
            .into_iter()
            .next()
            .map(|(_, c)| c)
            .unwrap_or_default();
        // The scored column's place: its results and its entities.
        let at = match col {
            Some(name) => cols.iter().position(|c| c.column == name),
            None => (!cols.is_empty()).then_some(0),
        }
        .ok_or_else(|| Error::usage("spans: the column was not scored"))?;
        let entities = res.entities.get_mut(at).map(std::mem::take);
        let cr = cols
            .into_iter()
            .nth(at)
            .ok_or_else(|| Error::usage("spans: the column was not scored"))?;
        let e = cr.eval;
        // A row for every label of gold and run, as for standoff files: a run label whose
        // spans all count against gold spans of other labels has a row of zeros.
        let labels: Vec<String> = e
            .per_label
            .keys()
            .cloned()
            .chain(run_labels)
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        let n_docs = g.docs.len();
        let mut s = Statistics::new(unit, 12, 12, labels);
        let width = s.width();
        let mut units: Vec<Vec<f64>> = vec![vec![0.0; width]; n_docs];
        series_block(&e.all, &mut units, 0);
        for (i, l) in s.labels.iter().enumerate() {
            if let Some(rc) = e.per_label.get(l) {
                series_block(rc, &mut units, 12 + i * 12);
            }
        }
        for u in units {
            s.push_unit(u);
        }
        warnings.extend(res.warnings);
        s.warnings = warnings;
        if !self.breakdown.is_empty() {
            let entities =
                entities.ok_or_else(|| Error::usage("breakdown: the scoring kept no entities"))?;
            let scored = Scored {
                run_docs: &al.pred_docs,
                entities: &entities,
            };
            self.attach_breakdown(&mut s, (&g, &p), scored, train.wait()?)?;
        }
        Ok(s)
    }

    /// The regime a breakdown judges spans in: exact when it is the first regime asked for,
    /// else strict.
    fn breakdown_regime(&self) -> SpanRegime {
        match self.regimes.first() {
            Some(SpanRegime::Exact) => SpanRegime::Exact,
            _ => SpanRegime::Strict,
        }
    }

    /// The training file's vocabulary and entities (`train`), read as CoNLL or HIPE TSV
    /// (`col` the HIPE column, `None` for CoNLL's tag column).
    fn train_set(&self, col: Option<&str>) -> Result<Option<super::breakdown::Train>> {
        let Some(path) = &self.train else {
            return Ok(None);
        };
        let format = self.format.filter(|f| *f != Format::Spans);
        let (hash, t) = super::breakdown::train::read(path, format, col, self.column.as_deref())?;
        let _ = self.train_hash.set(hash);
        Ok(Some(t))
    }

    /// Adds the breakdown asked for to the statistics of the token files `g` and `p` as
    /// `scored` paired and evaluated them.
    fn attach_breakdown(
        &self,
        s: &mut Statistics,
        (g, p): (&Corpus, &Corpus),
        scored: Scored<'_>,
        train: Option<super::breakdown::Train>,
    ) -> Result<()> {
        super::breakdown::tokens::metadata(&self.breakdown, g)?;
        let regime = self.breakdown_regime();
        let sides = super::breakdown::tokens::Sides {
            gold: g,
            run: p,
            run_docs: scored.run_docs,
            labels_matter: regime == SpanRegime::Strict,
            entities: scored.entities,
        };
        let (gf, rf) = super::breakdown::tokens::facts(&sides, train.as_ref());
        super::breakdown::attach(s, &self.breakdown, &gf, &rf, regime.json_name())
    }
}

/// What the breakdown reads of the scoring it breaks down: the run's documents as the
/// alignment to the gold cut them and the entities the scoring extracted
/// ([`crate::eval::score::ScoreResult::entities`]).
struct Scored<'a> {
    run_docs: &'a [crate::corpus::Document],
    entities: &'a crate::eval::score::Entities,
}

/// The statistics of standoff files (brat, doccano, Label Studio, Prodigy), one unit per
/// document, counted over the positions of [`crate::eval::standoff`].
fn standoff_statistics(
    gold: &Path,
    pred: &Path,
    read: &crate::eval::standoff::StandoffRead,
) -> Result<Statistics> {
    let c = crate::eval::standoff::span_counts(gold, pred, read)?;
    let mut s = Statistics::new(Unit::Document, 12, 12, c.labels);
    let put = |rc: &PerRegime<crate::matching::span_count::Counts>, out: &mut Vec<f64>| {
        for r in SpanRegime::ALL {
            let d = crate::metrics::docs::regime_doc_counts(&rc[r], r);
            out.extend([d.tp, d.fp, d.fn_]);
        }
    };
    for d in &c.docs {
        let mut v = Vec::with_capacity(s.width());
        put(&d.all, &mut v);
        for l in &s.labels {
            match d.per_label.get(l) {
                Some(rc) => put(rc, &mut v),
                None => v.extend([0.0; 12]),
            }
        }
        s.push_unit(v);
    }
    s.warnings = c.warnings;
    Ok(s)
}

/// The labels of a corpus's tag column.
fn run_labels(c: &Corpus, col: usize) -> BTreeSet<String> {
    let hipe = c.format == crate::formats::Format::Hipe.as_str();
    let mut out = BTreeSet::new();
    for t in 0..c.n_tokens() {
        let cell = c.cell(t, col);
        if matches!(cell, "O" | "_" | "-" | "") {
            continue;
        }
        let tag = crate::spans::label_of(cell, hipe);
        if !matches!(tag, "_" | "-" | "O" | "") {
            out.insert(tag.to_string());
        }
    }
    out
}
