//! The hipe family's options and its reading-to-counts: both files read as `fairscore score`
//! reads them ([`crate::eval::read`]), scored by the HIPE scorer's own evaluation
//! ([`crate::eval::score::evaluate`]), and its per-document counts laid out as unit
//! statistics.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use super::super::breakdown::Train;
use super::super::options::switch;
use super::super::{Inputs, Options, Statistics};
use super::breakdown::Scored;
use crate::corpus::align;
use crate::corpus::Corpus;
use crate::error::{Error, Result};
use crate::eval::options::{
    parse_glue, parse_n_best, parse_noise_levels, parse_time_periods, read_tagset, ScoreOptions,
};
use crate::eval::read::{read_hipe, read_side, task_columns, LinkNorm};
use crate::eval::score::{evaluate_aligned, ColumnResult};
use crate::hipe::{Edition, Task};
use crate::matching::SpanRegime;
use crate::table::Unit;

/// The options the hipe family declares of its own (beside the common `tagset` and `beta`),
/// as `fairscore score` names them.
pub const OWN_OPTIONS: &[&str] = &[
    "task",
    "hipe_edition",
    "n_best",
    "glue",
    "original_nel",
    "relaxed",
    "normalize_run",
    "noise_level",
    "time_period",
    "fair",
    "breakdown",
    "train",
];

/// The regimes of the tables, in the official TSV's order: `fuzzy` (the `ent_type`
/// counting) and `strict`.
pub const REGIMES: [(&str, SpanRegime); 2] = [
    ("fuzzy", SpanRegime::EntType),
    ("strict", SpanRegime::Strict),
];

/// Numbers per regime in a label block: TP, FP, FN.
pub const PER_REGIME: usize = 3;

/// Separates the parts of a statistics label (column, filter, label).
pub const SEP: char = '\t';

/// A QID map given as an option: its file (for the signature) and its content.
#[derive(Debug, Clone)]
pub struct Map {
    /// The file as given.
    pub path: String,
    /// Alternative QID → main QID.
    pub map: HashMap<String, String>,
}

/// The hipe family's settings, parsed.
#[derive(Debug, Clone)]
pub struct HipeOptions {
    /// The scoring as `fairscore score` would do it (task, edition, tag set, cutoffs, glue,
    /// link grouping, filters, relaxed map).
    pub score: ScoreOptions,
    /// The `relaxed` map's file (gold and run normalized).
    pub relaxed: Option<String>,
    /// `normalize_run`: only the run is normalized (`--norm-time --norm-histo`), as a
    /// campaign's relaxed NEL scores runs against a normalized gold.
    pub normalize_run: Option<Map>,
}

fn map(name: &str, value: &str) -> Result<Map> {
    let path = value.trim();
    if path.is_empty() {
        return Err(Error::usage(format!("{name}: expected a QID map file")));
    }
    Ok(Map {
        path: path.to_string(),
        map: crate::normalize::read_map(Path::new(path))?,
    })
}

impl HipeOptions {
    /// Parses the family's options (its own, `tagset` and `format` hipe).
    pub fn parse(opts: &Options) -> Result<HipeOptions> {
        let task = Task::parse(opts.own("task").unwrap_or("nerc_coarse").trim())?;
        let edition = Edition::parse(opts.own("hipe_edition").unwrap_or("hipe-2020").trim())?;
        let mut s = ScoreOptions::new(task, edition);
        s.skip_check = true;
        if let Some(ts) = &opts.tagset {
            s.tagset = Some(read_tagset(Path::new(ts))?);
        }
        if let Some(n) = opts.own("n_best") {
            s.n_best = parse_n_best(n)?;
            if task != Task::Nel {
                return Err(Error::usage("n_best applies to task nel only"));
            }
        }
        if let Some(g) = opts.own("glue") {
            s.glue = parse_glue(g)?;
        }
        if let Some(v) = opts.own("original_nel") {
            s.original_nel = switch("original_nel", v)?;
        }
        if let Some(n) = opts.own("noise_level") {
            s.noise_levels = parse_noise_levels(n)?;
        }
        if let Some(t) = opts.own("time_period") {
            s.time_periods = parse_time_periods(t)?;
        }
        // `fair`: the tables' fair rows and the fair confusion matrix too (a HIPE campaign's
        // `fair = true`).
        if let Some(v) = opts.own("fair") {
            if switch("fair", v)? {
                s.regimes.push(crate::eval::options::Regime::Fair);
            }
        }
        let relaxed = opts.own("relaxed").map(|v| map("relaxed", v)).transpose()?;
        let normalize_run = opts
            .own("normalize_run")
            .map(|v| map("normalize_run", v))
            .transpose()?;
        if (relaxed.is_some() || normalize_run.is_some()) && task != Task::Nel {
            return Err(Error::usage(
                "relaxed and normalize_run apply to task nel only",
            ));
        }
        if relaxed.is_some() && normalize_run.is_some() {
            return Err(Error::usage(
                "relaxed normalizes gold and run, normalize_run the run alone: give one",
            ));
        }
        s.validate()?;
        let relaxed_path = relaxed.as_ref().map(|m| m.path.clone());
        s.relaxed_map = relaxed.map(|m| m.map);
        Ok(HipeOptions {
            score: s,
            relaxed: relaxed_path,
            normalize_run,
        })
    }

    /// The n-best cutoffs the tables are made for (a single 1 but for NEL).
    pub fn cutoffs(&self) -> Vec<usize> {
        if self.score.task == Task::Nel && !self.score.n_best.is_empty() {
            self.score.n_best.clone()
        } else {
            vec![1]
        }
    }

    /// Whether rows are also keyed by a filter (noise levels or time periods were given).
    pub fn filtered(&self) -> bool {
        !self.score.noise_levels.is_empty() || !self.score.time_periods.is_empty()
    }
}

/// The statistics label of a result's label: column, filter (when filtered) and label,
/// joined by [`SEP`].
fn key(c: &ColumnResult, filtered: bool, label: &str) -> String {
    if filtered {
        format!("{}{SEP}{} {}{SEP}{label}", c.column, c.time, c.noise)
    } else {
        format!("{}{SEP}{label}", c.column)
    }
}

/// Reads and scores `gold` and `pred`: per gold document, for each cutoff, each regime of
/// [`REGIMES`] and each (column, filter, label) of the statistics' labels (`ALL` first, then
/// the labels in byte order), the document's TP, FP and FN. With `shared`, both files are
/// read through it, keeping the columns of every HIPE task, so that the tasks of a campaign
/// (nerc_coarse, nerc_fine, nel of one run and gold) parse each file once. The breakdown
/// `bd` asked for, if any, is added to the statistics.
pub fn statistics(
    o: &HipeOptions,
    bd: &super::breakdown::HipeBreakdown,
    gold: &Path,
    pred: &Path,
    shared: Option<&Inputs>,
) -> Result<Statistics> {
    if !bd.reads_train() {
        return scored(o, bd, gold, pred, shared, || Ok(None));
    }
    // The training file is read beside the gold and the run, in a thread of its own, as the
    // spans family reads it: its reading is most of what the training keys cost
    // (docs/performance.md).
    std::thread::scope(|sc| {
        let reading = sc.spawn(|| bd.read_train(&o.score));
        let train = move || {
            reading
                .join()
                .unwrap_or_else(|_| Err(Error::usage("train: the training file's reader stopped")))
        };
        scored(o, bd, gold, pred, shared, train)
    })
}

/// [`statistics`] with `train` giving the training file read (called once both sides are
/// scored).
fn scored(
    o: &HipeOptions,
    bd: &super::breakdown::HipeBreakdown,
    gold: &Path,
    pred: &Path,
    shared: Option<&Inputs>,
    train: impl FnOnce() -> Result<Option<Train>>,
) -> Result<Statistics> {
    let s = &o.score;
    let tasks = [s.task];
    let Some(shared) = shared else {
        let g = read_side(gold, s, &tasks, false)?;
        let p = match &o.normalize_run {
            None => read_side(pred, s, &tasks, true)?,
            Some(m) => normalized_run(o, m, pred, &tasks)?,
        };
        let (mut st, scored) = counts(o, &g, &p)?;
        bd.attach(&mut st, (&g, &p), &scored, train()?.as_ref())?;
        return Ok(st);
    };
    let all = [Task::NercCoarse, Task::NercFine, Task::Nel];
    let key = |side: &str| {
        format!(
            "hipe {side} {} {:?} {:?}",
            s.edition.name(),
            s.glue,
            o.relaxed
        )
    };
    let g = shared.get(gold, &key("gold"), || read_side(gold, s, &all, false))?;
    let p = match &o.normalize_run {
        None => shared.get(pred, &key("run"), || read_side(pred, s, &all, true))?,
        Some(m) => {
            let k = format!("{} normalized {}", key("run"), m.path);
            shared.get(pred, &k, || normalized_run(o, m, pred, &all))?
        }
    };
    let (mut st, scored) = counts(o, &g, &p)?;
    bd.attach(&mut st, (&g, &p), &scored, train()?.as_ref())?;
    Ok(st)
}

/// A run read with its links normalized by the `normalize_run` map (`--norm-time`).
fn normalized_run(o: &HipeOptions, m: &Map, pred: &Path, tasks: &[Task]) -> Result<Corpus> {
    let s = &o.score;
    read_hipe(
        pred,
        s.edition,
        s.read_options(),
        Some(task_columns(s.edition, tasks)),
        Some(LinkNorm {
            map: &m.map,
            norm_time: true,
        }),
    )
}

/// The unit statistics of a gold and a run read, and what a breakdown reads of the scoring.
fn counts(o: &HipeOptions, g: &Corpus, p: &Corpus) -> Result<(Statistics, Scored)> {
    let s = &o.score;
    let al = align(g, p)?;
    let mut res = evaluate_aligned(g, p, s, &al)?;
    let scored = Scored {
        run_docs: al.pred_docs,
        entities: res.entities.first_mut().map(std::mem::take),
    };
    let filtered = o.filtered();
    // The labels: per evaluation (column, filter), ALL then the labels any cutoff met.
    let mut labels: Vec<String> = Vec::new();
    let first = res
        .results
        .first()
        .map(|(_, c)| c.as_slice())
        .unwrap_or(&[]);
    for (i, c) in first.iter().enumerate() {
        let mut met: BTreeSet<&str> = BTreeSet::new();
        for (_, cols) in &res.results {
            if let Some(ci) = cols.get(i) {
                met.extend(ci.eval.per_label.keys().map(String::as_str));
            }
        }
        labels.push(key(c, filtered, "ALL"));
        labels.extend(met.into_iter().map(|l| key(c, filtered, l)));
    }
    let index: HashMap<&str, usize> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let n_cut = res.results.len();
    let block = n_cut * REGIMES.len() * PER_REGIME;
    let n_docs = g.docs.len();
    let mut st = Statistics::new(Unit::Document, 0, block, Vec::new());
    let width = block * labels.len();
    let mut units = vec![vec![0.0; width]; n_docs];
    for (k, (_, cols)) in res.results.iter().enumerate() {
        for c in cols {
            let mut put = |label: &str, scores: &crate::matching::PerRegime<_>| {
                let Some(&li) = index.get(key(c, filtered, label).as_str()) else {
                    return;
                };
                for (r, (_, regime)) in REGIMES.iter().enumerate() {
                    let rs: &crate::metrics::RegimeScores = &scores[*regime];
                    let at = li * block + (k * REGIMES.len() + r) * PER_REGIME;
                    for &(d, dc) in rs.docs.nonzero() {
                        if let Some(u) = units.get_mut(d) {
                            u[at] = dc.tp;
                            u[at + 1] = dc.fp;
                            u[at + 2] = dc.fn_;
                        }
                    }
                }
            };
            put("ALL", &c.eval.all);
            for (l, scores) in &c.eval.per_label {
                put(l, scores);
            }
        }
    }
    st.labels = labels;
    for u in units {
        st.push_unit(u);
    }
    st.warnings = std::mem::take(&mut res.warnings);
    // The whole result, for the official per-run files of a HIPE campaign.
    st.full = crate::family::Full::new(res);
    Ok((st, scored))
}
