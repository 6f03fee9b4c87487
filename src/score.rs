//! Scoring one run against the gold standard, as the official HIPE scorer's
//! `clef_evaluation.py`: options, the evaluation loop over columns, periods and noise levels,
//! and the assembly of the per-run TSV and JSON outputs.

use crate::error::{Error, Result};
use crate::matching::hipe::{self, Scratch};
use crate::metrics::{Accumulator, Evaluation, PyNum, RegimeScores};
use crate::report::json::Json;
use crate::report::tsv as tsvout;
use crate::spans::{self, Spans};
use crate::tsv::{align, Alignment, Date, HipeFile, ReadOptions};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::Path;

/// The evaluation task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    NercCoarse,
    NercFine,
    Nel,
}

impl Task {
    pub fn as_str(self) -> &'static str {
        match self {
            Task::NercCoarse => "nerc_coarse",
            Task::NercFine => "nerc_fine",
            Task::Nel => "nel",
        }
    }

    pub fn parse(s: &str) -> Result<Task> {
        match s {
            "nerc_coarse" => Ok(Task::NercCoarse),
            "nerc_fine" => Ok(Task::NercFine),
            "nel" => Ok(Task::Nel),
            _ => Err(Error::usage(format!(
                "unknown task {s:?}; use one of nerc_coarse, nerc_fine, nel"
            ))),
        }
    }
}

/// The HIPE edition: decides the columns and the file-name convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edition {
    Hipe2020,
    Hipe2022,
}

impl Edition {
    pub fn parse(s: &str) -> Result<Edition> {
        match s.to_ascii_uppercase().as_str() {
            "HIPE-2020" => Ok(Edition::Hipe2020),
            "HIPE-2022" => Ok(Edition::Hipe2022),
            _ => Err(Error::usage(format!(
                "unknown HIPE edition {s:?}; use hipe-2020 or hipe-2022"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Edition::Hipe2020 => "hipe-2020",
            Edition::Hipe2022 => "hipe-2022",
        }
    }

    /// The columns a task scores, and for NEL the NE column bounding each link column.
    pub fn columns(self, task: Task) -> &'static [(&'static str, &'static str)] {
        match (self, task) {
            (Edition::Hipe2020, Task::NercCoarse) => {
                &[("NE-COARSE-LIT", ""), ("NE-COARSE-METO", "")]
            }
            (Edition::Hipe2020, Task::NercFine) => &[
                ("NE-FINE-LIT", ""),
                ("NE-FINE-METO", ""),
                ("NE-FINE-COMP", ""),
                ("NE-NESTED", ""),
            ],
            (Edition::Hipe2020, Task::Nel) => {
                &[("NEL-LIT", "NE-COARSE-LIT"), ("NEL-METO", "NE-COARSE-METO")]
            }
            (Edition::Hipe2022, Task::NercCoarse) => &[("NE-COARSE-LIT", "")],
            (Edition::Hipe2022, Task::NercFine) => &[("NE-FINE-LIT", ""), ("NE-NESTED", "")],
            (Edition::Hipe2022, Task::Nel) => &[("NEL-LIT", "NE-COARSE-LIT")],
        }
    }
}

/// A regime of the TSV rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Regime {
    /// The official `ent_type` regime.
    Fuzzy,
    Strict,
    /// Ortmann's fair counting (LE, BE, LBE as half FP and half FN).
    Fair,
    /// Fair counting with the `--weights` formula.
    Weighted,
}

impl Regime {
    pub fn as_str(self) -> &'static str {
        match self {
            Regime::Fuzzy => "fuzzy",
            Regime::Strict => "strict",
            Regime::Fair => "fair",
            Regime::Weighted => "weighted",
        }
    }

    /// Parses `--regimes fuzzy,strict,fair,weighted`.
    pub fn parse_list(s: &str) -> Result<Vec<Regime>> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let r = match part {
                "fuzzy" => Regime::Fuzzy,
                "strict" => Regime::Strict,
                "fair" => Regime::Fair,
                "weighted" => Regime::Weighted,
                _ => {
                    return Err(Error::usage(format!(
                        "--regimes: unknown regime {part:?}; use fuzzy, strict, fair, weighted"
                    )))
                }
            };
            if !out.contains(&r) {
                out.push(r);
            }
        }
        if out.is_empty() {
            return Err(Error::usage("--regimes: no regime given"));
        }
        Ok(out)
    }
}

/// Everything that shapes one scoring.
#[derive(Debug, Clone)]
pub struct ScoreOptions {
    pub task: Task,
    pub edition: Edition,
    /// Upper-cased lines of a `--tagset` file.
    pub tagset: Option<BTreeSet<String>>,
    /// `--n_best` cutoffs (NEL).
    pub n_best: Vec<usize>,
    /// `--noise-level` ranges (the all-data evaluation is added first).
    pub noise_levels: Vec<(f64, f64)>,
    /// `--time-period` ranges (the all-data evaluation is added first).
    pub time_periods: Vec<(Date, Date)>,
    /// `--glue` column pairs.
    pub glue: Vec<(String, String)>,
    /// `--suffix`, appended to file names and Evaluation keys.
    pub suffix: Option<String>,
    /// `--skip-check`: no file-name check; System is the `--pred` argument as given.
    pub skip_check: bool,
    /// `--original_nel`: consecutive-link grouping instead of NE-bounded.
    pub original_nel: bool,
    /// Regimes of the TSV rows, in order (default fuzzy, strict: the official outputs). `Fair`
    /// and `Weighted` also add blocks to the JSON.
    pub regimes: Vec<Regime>,
    /// Weights of the `weighted` regime (Ortmann's formula syntax).
    pub weights: Option<crate::matching::fair::Weights>,
    /// Collect a per-span error listing (`--errors`).
    pub errors: bool,
    /// `--relaxed MAP`: normalize the gold (`--norm-histo`) and the run (`--norm-time
    /// --norm-histo`) with this QID map before scoring.
    pub relaxed_map: Option<std::collections::HashMap<String, String>>,
}

impl ScoreOptions {
    pub fn new(task: Task, edition: Edition) -> Self {
        ScoreOptions {
            task,
            edition,
            tagset: None,
            n_best: vec![1],
            noise_levels: Vec::new(),
            time_periods: Vec::new(),
            glue: Vec::new(),
            suffix: None,
            skip_check: false,
            original_nel: false,
            relaxed_map: None,
            regimes: vec![Regime::Fuzzy, Regime::Strict],
            weights: None,
            errors: false,
        }
    }

    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            glue: self.glue.clone(),
        }
    }
}

/// Reads a tag-set file as the official scorer: every line, upper-cased.
pub fn read_tagset(path: &Path) -> Result<BTreeSet<String>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::input(path, 0, crate::tsv::io_reason(&e)))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Ok(text
        .to_uppercase()
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect())
}

/// Parses `--noise-level 0.0-0.1,0.1-1.0`.
pub fn parse_noise_levels(s: &str) -> Result<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let bad = || {
            Error::usage(format!(
                "--noise-level: {part:?} is not a range LOWER-UPPER like 0.0-0.1"
            ))
        };
        let (a, b) = part.split_once('-').ok_or_else(bad)?;
        if b.contains('-') {
            return Err(bad());
        }
        let lo: f64 = a.trim().parse().map_err(|_| bad())?;
        let hi: f64 = b.trim().parse().map_err(|_| bad())?;
        out.push((lo, hi));
    }
    if out.is_empty() {
        return Err(Error::usage("--noise-level: no range given"));
    }
    Ok(out)
}

/// Parses `--time-period 1900-1950,…` (years) or `1900/01/01-1950/12/31,…` (dates).
pub fn parse_time_periods(s: &str) -> Result<Vec<(Date, Date)>> {
    let parts: Vec<(&str, &str)> = s
        .split(',')
        .map(|p| {
            let mut it = p.split('-');
            (it.next().unwrap_or(""), it.next().unwrap_or(""))
        })
        .collect();
    let year = |y: &str| -> Option<Date> {
        if y.is_empty() || y.len() > 4 || !y.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let year: i32 = y.parse().ok()?;
        (year >= 1).then_some(Date {
            year,
            month: 1,
            day: 1,
        })
    };
    let ymd = |s: &str| -> Option<Date> {
        let mut it = s.split('/');
        let y: i32 = it.next()?.parse().ok()?;
        let m: u32 = it.next()?.parse().ok()?;
        let d: u32 = it.next()?.parse().ok()?;
        if it.next().is_some() {
            return None;
        }
        let date = Date {
            year: y,
            month: m,
            day: d,
        };
        crate::tsv::valid_date(date).then_some(date)
    };
    // As the official CLI: all ranges as years, or else all as Y/m/d dates.
    let as_years: Option<Vec<(Date, Date)>> = parts
        .iter()
        .map(|(a, b)| Some((year(a)?, year(b)?)))
        .collect();
    if let Some(v) = as_years {
        return Ok(v);
    }
    parts
        .iter()
        .map(|(a, b)| Some((ymd(a)?, ymd(b)?)))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            Error::usage(format!(
                "--time-period: {s:?} is not a list of ranges like 1900-1950 or 1900/01/01-1950/12/31"
            ))
        })
}

/// Checks the run's file name against the edition's convention and returns the System name
/// (the lower-cased file stem).
pub fn check_file_name(pred: &str, edition: Edition) -> Result<String> {
    let lower = pred.to_lowercase();
    let path = Path::new(&lower);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parts: Vec<&str> = stem.split('_').collect();
    let py_int = |s: &str| s.trim().parse::<i64>().ok();
    let bundle_ok = |b: &str| {
        py_int(b.trim_start_matches(['b', 'u', 'n', 'd', 'l', 'e']))
            .is_some_and(|n| (1..=5).contains(&n))
    };
    let (ok, scheme, edition_name) = match edition {
        Edition::Hipe2020 => (
            ext == "tsv"
                && parts.len() == 4
                && bundle_ok(parts[1])
                && ["de", "fr", "en"].contains(&parts[2]),
            "TEAMNAME_TASKBUNDLEID_LANG_RUNNUMBER.tsv",
            "HIPE 2020",
        ),
        Edition::Hipe2022 => (
            ext == "tsv"
                && parts.len() == 5
                && bundle_ok(parts[1])
                && [
                    "ajmc",
                    "newseye",
                    "hipe2020",
                    "topres19th",
                    "sonar",
                    "letemps",
                ]
                .contains(&parts[2])
                && ["de", "fr", "en", "sv", "fi"].contains(&parts[3])
                && py_int(parts[4]).is_some_and(|n| (1..=2).contains(&n)),
            "TEAMNAME_TASKBUNDLEID_DATASETALIAS_LANG_RUNNUMBER.tsv",
            "HIPE 2022",
        ),
    };
    if !ok {
        return Err(Error::input(
            Path::new(pred),
            0,
            format!(
                "the file name does not follow the {edition_name} convention {scheme}; rename the file or pass --skip-check"
            ),
        ));
    }
    Ok(stem)
}

/// The official output file name: `.tsv` in the run's file name replaced by
/// `_<task>[_<suffix>].<ext>` (appended when the name has no `.tsv`).
pub fn output_name(pred: &str, task: Task, suffix: Option<&str>, ext: &str) -> String {
    let name = Path::new(pred)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| pred.to_string());
    let tail = match suffix {
        Some(s) if !s.is_empty() => format!("_{}_{s}.{ext}", task.as_str()),
        _ => format!("_{}.{ext}", task.as_str()),
    };
    if name.contains(".tsv") {
        name.replace(".tsv", &tail)
    } else {
        format!("{name}{tail}")
    }
}

/// The outputs of one scoring.
#[derive(Debug, Clone)]
pub struct ScoreOutput {
    /// The System cell.
    pub system: String,
    pub tsv_name: String,
    pub json_name: String,
    /// The TSV text (CRLF line ends).
    pub tsv: String,
    /// The JSON text (Python layout).
    pub json: String,
    /// Results per n_best cutoff (a single entry `1` for NERC), per column, period, noise.
    pub results: Vec<(usize, Vec<ColumnResult>)>,
    /// What the official scorer would have silently patched or ignored.
    pub warnings: Vec<String>,
    /// The per-span error listing (TSV text), when asked for.
    pub errors: Option<String>,
}

/// The evaluation of one column for one period and noise level.
#[derive(Debug, Clone)]
pub struct ColumnResult {
    pub column: String,
    pub time: String,
    pub noise: String,
    pub eval: Evaluation,
}

fn noise_label(n: Option<(f64, f64)>) -> String {
    match n {
        None => "LED-ALL".to_string(),
        Some((lo, hi)) => format!(
            "LED-{}-{}",
            crate::metrics::py::py_float_repr(lo),
            crate::metrics::py::py_float_repr(hi)
        ),
    }
}

fn time_label(t: Option<(Date, Date)>) -> String {
    match t {
        None => "TIME-ALL".to_string(),
        Some((a, b)) => format!("TIME-{}-{}", a.year, b.year),
    }
}

/// The evaluated labels of a column (see `docs/metrics.md`).
pub fn evaluation_tags(
    gold: &HipeFile,
    gcol: usize,
    pred: &HipeFile,
    pcol: usize,
    task: Task,
    tagset: Option<&BTreeSet<String>>,
) -> BTreeSet<String> {
    let collect = |f: &HipeFile, col: usize| -> BTreeSet<String> {
        let mut set: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut last = None;
        for t in 0..f.n_tokens() {
            let cell = f.cell(t, col);
            // Most cells repeat the previous one (`O`, `_`, inside entities).
            if last != Some(cell) {
                set.insert(spans::tag_of(cell));
                last = Some(cell);
            }
        }
        set.into_iter()
            .filter(|t| !matches!(*t, "_" | "-" | "O"))
            .map(|t| t.to_string())
            .collect()
    };
    let true_tags = collect(gold, gcol);
    let pred_tags = collect(pred, pcol);
    // The official CLI passes the tag set to NERC evaluations only: NEL always evaluates
    // gold ∪ run links.
    match (task, tagset) {
        (Task::Nel, _) => {
            let mut tags = true_tags;
            tags.extend(pred_tags);
            tags
        }
        (_, Some(ts)) => {
            let mut tags = true_tags;
            tags.extend(pred_tags.into_iter().filter(|t| ts.contains(t)));
            tags
        }
        (_, None) => true_tags,
    }
}

fn column_index(f: &HipeFile, name: &str, other: &HipeFile) -> Result<usize> {
    f.column(name).ok_or_else(|| {
        Error::input(
            &f.path,
            1,
            format!(
                "column {name} is missing from the header ({}); it is needed for this task and present in {}: {}",
                f.columns.join(", "),
                other.path.display(),
                if other.column(name).is_some() { "yes" } else { "no" }
            ),
        )
    })
}

struct ColumnSpec {
    name: &'static str,
    g: usize,
    p: usize,
    /// NE columns bounding the links (NEL, unless --original_nel).
    ne: Option<(usize, usize)>,
    tags: BTreeSet<String>,
}

/// What varies between the evaluations of one column.
#[derive(Debug, Clone, Copy)]
struct EvalParams<'w> {
    task: Task,
    n_best: usize,
    noise: Option<(f64, f64)>,
    time: Option<(Date, Date)>,
    merge_lines: bool,
    /// Count the fair regime too (with these weights for `weighted`).
    fair: Option<&'w Option<crate::matching::fair::Weights>>,
}

/// Keeps the positions of a unit's tokens that pass the noise and period filters (judged on
/// the gold tokens, as the official scorer).
fn filter_unit(
    gold: &HipeFile,
    units: (std::ops::Range<usize>, std::ops::Range<usize>),
    params: &EvalParams,
    gseq: &mut Vec<usize>,
    pseq: &mut Vec<usize>,
) -> Result<()> {
    gseq.clear();
    pseq.clear();
    for (g, p) in units.0.zip(units.1) {
        let tok = &gold.tokens[g];
        if let Some((lo, hi)) = params.noise {
            let keep = match tok.led {
                None => true,
                Some(l) => (lo <= l && l < hi) || (lo == l && l == hi),
            };
            if !keep {
                continue;
            }
        }
        if let Some((a, b)) = params.time {
            let d = tok.date.ok_or_else(|| {
                Error::input(
                    &gold.path,
                    tok.line as usize,
                    "token without a document date, needed by --time-period; add a `# date = YYYY-MM-DD` (or `# hipe2022:date = …`) comment before it",
                )
            })?;
            if !(a <= d && d < b) {
                continue;
            }
        }
        gseq.push(g);
        pseq.push(p);
    }
    Ok(())
}

/// Scores one column of an aligned run.
fn evaluate_column(
    gold: &HipeFile,
    pred: &HipeFile,
    al: &Alignment,
    spec: &ColumnSpec,
    params: &EvalParams,
    mut errors: Option<&mut String>,
) -> Result<Evaluation> {
    use crate::matching::fair as ofair;
    let mut acc = Accumulator::default();
    let mut fair_acc = params
        .fair
        .map(|w| crate::metrics::fair::FairAccumulator::new(w.clone()));
    let mut gseq: Vec<usize> = Vec::new();
    let mut pseq: Vec<usize> = Vec::new();
    let mut gsp = Spans::default();
    let mut psp = Spans::default();
    let mut scratch = Scratch::default();
    let mut units: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    for (gd, pd) in gold.docs.iter().zip(&al.pred_docs) {
        units.clear();
        if params.merge_lines {
            units.push((gd.range(), pd.range()));
        } else {
            let (mut g, mut p) = (gd.start, pd.start);
            for &n in &gd.segments {
                units.push((g..g + n, p..p + n));
                g += n;
                p += n;
            }
        }
        let mut doc = hipe::UnitCounts::default();
        let mut doc_tally = ofair::Tally::new();
        for unit in units.drain(..) {
            filter_unit(gold, unit, params, &mut gseq, &mut pseq)?;
            match (params.task, spec.ne) {
                (Task::Nel, Some((gne, pne))) => {
                    spans::links_ne_bounded(gold, spec.g, gne, &gseq, 1, true, &mut gsp);
                    spans::links_ne_bounded(
                        pred,
                        spec.p,
                        pne,
                        &pseq,
                        params.n_best,
                        false,
                        &mut psp,
                    );
                }
                (Task::Nel, None) => {
                    spans::links_consecutive(gold, spec.g, &gseq, 1, &mut gsp);
                    spans::links_consecutive(pred, spec.p, &pseq, params.n_best, &mut psp);
                }
                _ => {
                    spans::entities(gold, spec.g, &gseq, &mut gsp);
                    spans::entities(pred, spec.p, &pseq, &mut psp);
                }
            }
            let unit = hipe::count(
                &gsp,
                &psp,
                &spec.tags,
                |s, e| spans::same_text(gold, &gseq, pred, &pseq, s, e),
                &mut scratch,
            );
            doc.add(&unit);
            if fair_acc.is_some() || errors.is_some() {
                let t = fair_spans(&gsp, &spec.tags, true);
                let sys = fair_spans(&psp, &spec.tags, false);
                let outcome = ofair::evaluate(&t, &sys, ofair::Focus::Target);
                doc_tally.add(&t, &sys, &outcome);
                if let Some(out) = errors.as_deref_mut() {
                    let ctx = ErrorContext {
                        column: spec.name,
                        doc: gd
                            .id
                            .clone()
                            .unwrap_or_else(|| format!("#{}", gd.first_line)),
                        gold,
                        pred,
                        gseq: &gseq,
                        pseq: &pseq,
                    };
                    write_error_rows(out, &ctx, &t, &sys, &outcome);
                }
            }
        }
        acc.add_doc(&doc);
        if let Some(fa) = fair_acc.as_mut() {
            fa.add_doc(&doc_tally);
        }
    }
    let mut eval = acc.finish();
    eval.fair = fair_acc.map(|fa| fa.finish());
    Ok(eval)
}

/// The evaluated spans of one side as fair-evaluation spans (the system's first candidate as
/// its label), filtered as the official counting filters them.
fn fair_spans(
    sp: &Spans<'_>,
    tags: &BTreeSet<String>,
    gold: bool,
) -> Vec<crate::matching::fair::Span> {
    sp.spans
        .iter()
        .filter(|s| {
            if gold {
                tags.contains(sp.label(s))
            } else {
                sp.alts(s).iter().any(|a| tags.contains(*a))
            }
        })
        .map(|s| crate::matching::fair::Span::new(sp.label(s), s.start as usize, s.end as usize))
        .collect()
}

/// Header of the `--errors` listing.
pub const ERRORS_HEADER: &str =
    "column\tdocument\tside\tline\tstart\tend\ttext\tlabel\tpartner_labels\terror\n";

struct ErrorContext<'a> {
    column: &'a str,
    doc: String,
    gold: &'a HipeFile,
    pred: &'a HipeFile,
    gseq: &'a [usize],
    pseq: &'a [usize],
}

/// One line per gold and run span: where it is, its text, labels and fair error type.
fn write_error_rows(
    out: &mut String,
    ctx: &ErrorContext,
    target: &[crate::matching::fair::Span],
    system: &[crate::matching::fair::Span],
    outcome: &crate::matching::fair::FairOutcome,
) {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut row = |side: &str,
                   file: &HipeFile,
                   seq: &[usize],
                   sp: &crate::matching::fair::Span,
                   partners: Vec<&str>,
                   kind: &str| {
        let text: Vec<&str> = (sp.begin..=sp.end)
            .map(|i| file.token_text(seq[i]))
            .collect();
        let line = file.tokens[seq[sp.begin]].line;
        out.push_str(&format!(
            "{}\t{}\t{side}\t{line}\t{}\t{}\t{}\t{}\t{}\t{kind}\n",
            ctx.column,
            clean(&ctx.doc),
            sp.begin,
            sp.end,
            clean(&text.join(" ")),
            clean(&sp.label),
            clean(&partners.join("|")),
        ));
    };
    for (i, sp) in target.iter().enumerate() {
        let partners = outcome
            .target_partners(i)
            .into_iter()
            .map(|j| system[j].label.as_str())
            .collect();
        row(
            "gold",
            ctx.gold,
            ctx.gseq,
            sp,
            partners,
            outcome.target_types[i].as_str(),
        );
    }
    for (j, sp) in system.iter().enumerate() {
        let partners = outcome
            .system_partners(j)
            .into_iter()
            .map(|i| target[i].label.as_str())
            .collect();
        row(
            "run",
            ctx.pred,
            ctx.pseq,
            sp,
            partners,
            outcome.system_types[j].as_str(),
        );
    }
}

/// Evaluates one column of a run with the official `Evaluator.evaluate` semantics, for tests
/// and tools that need the raw per-label results. `merge_lines == false` scores each segment
/// on its own (the official library default; the CLI merges).
pub fn evaluate_one(
    gold: &HipeFile,
    pred: &HipeFile,
    column: &str,
    task: Task,
    tagset: Option<&BTreeSet<String>>,
    n_best: usize,
    merge_lines: bool,
) -> Result<Evaluation> {
    let al = align(gold, pred)?;
    let g = column_index(gold, column, pred)?;
    let p = column_index(pred, column, gold)?;
    let spec = ColumnSpec {
        name: "",
        g,
        p,
        ne: None,
        tags: evaluation_tags(gold, g, pred, p, task, tagset),
    };
    let params = EvalParams {
        task,
        n_best,
        noise: None,
        time: None,
        merge_lines,
        fair: None,
    };
    evaluate_column(gold, pred, &al, &spec, &params, None)
}

/// The official per-label JSON of one evaluation: every label, then `ALL`.
pub fn evaluation_json(eval: &Evaluation) -> Json {
    let fair = eval.fair.as_ref();
    let mut labels = Json::obj();
    for (label, s) in &eval.per_label {
        labels.set(
            label,
            label_json(s, fair.and_then(|f| f.per_label.get(label))),
        );
    }
    labels.set("ALL", label_json(&eval.all, fair.map(|f| &f.all)));
    labels
}

/// Reads, aligns and scores a run; `pred_arg` is the `--pred` argument as given (it names the
/// outputs and, with `--skip-check`, the System).
pub fn score_paths(gold_path: &Path, pred_path: &Path, opts: &ScoreOptions) -> Result<ScoreOutput> {
    let pred_arg = pred_path.to_string_lossy().into_owned();
    let system = system_name(&pred_arg, opts)?;
    let ropts = opts.read_options();
    let (gold, pred) = match &opts.relaxed_map {
        None => (
            HipeFile::read(gold_path, &ropts)?,
            HipeFile::read(pred_path, &ropts)?,
        ),
        Some(map) => {
            use crate::normalize::{normalize_file, NormalizeOptions};
            let mut nopts = NormalizeOptions::for_edition(opts.edition);
            nopts.map = Some(map.clone());
            let gold_text = normalize_file(gold_path, &nopts)?;
            nopts.norm_time = true;
            let pred_text = normalize_file(pred_path, &nopts)?;
            (
                HipeFile::parse(gold_path, gold_text.as_bytes(), &ropts)?,
                HipeFile::parse(pred_path, pred_text.as_bytes(), &ropts)?,
            )
        }
    };
    score_files(&gold, &pred, &pred_arg, &system, opts)
}

/// The System cell for a run, checking the file name unless `skip_check`.
pub fn system_name(pred_arg: &str, opts: &ScoreOptions) -> Result<String> {
    if opts.skip_check {
        Ok(pred_arg.to_string())
    } else {
        check_file_name(pred_arg, opts.edition)
    }
}

/// Scores parsed files.
pub fn score_files(
    gold: &HipeFile,
    pred: &HipeFile,
    pred_arg: &str,
    system: &str,
    opts: &ScoreOptions,
) -> Result<ScoreOutput> {
    let al = align(gold, pred)?;
    let mut warnings = Vec::new();
    for n in &pred.notices {
        warnings.push(format!("{}:{}: {}", pred.path.display(), n.line, n.message));
    }
    for n in &al.notices {
        warnings.push(format!("{}:{}: {}", pred.path.display(), n.line, n.message));
    }
    if !al.mismatches.is_empty() {
        let m = &al.mismatches[0];
        warnings.push(format!(
            "{}:{}: {} token(s) differ from the gold (first: {:?} where gold line {} has {:?}); entities over them cannot be exact matches",
            pred.path.display(),
            m.pred_line,
            al.mismatches.len(),
            m.pred,
            m.gold_line,
            m.gold
        ));
    }

    let mut specs = Vec::new();
    for &(name, ne) in opts.edition.columns(opts.task) {
        let g = column_index(gold, name, pred)?;
        let p = column_index(pred, name, gold)?;
        let ne = if opts.task == Task::Nel && !opts.original_nel {
            Some((column_index(gold, ne, pred)?, column_index(pred, ne, gold)?))
        } else {
            None
        };
        let tags = evaluation_tags(gold, g, pred, p, opts.task, opts.tagset.as_ref());
        specs.push(ColumnSpec {
            name,
            g,
            p,
            ne,
            tags,
        });
    }

    let noises: Vec<Option<(f64, f64)>> = std::iter::once(None)
        .chain(opts.noise_levels.iter().copied().map(Some))
        .collect();
    let times: Vec<Option<(Date, Date)>> = std::iter::once(None)
        .chain(opts.time_periods.iter().copied().map(Some))
        .collect();
    let n_bests: Vec<usize> = if opts.task == Task::Nel && !opts.n_best.is_empty() {
        opts.n_best.clone()
    } else {
        vec![1]
    };

    let wants_fair = opts
        .regimes
        .iter()
        .any(|r| matches!(r, Regime::Fair | Regime::Weighted));
    let weights = opts.weights.clone();
    let mut errors = opts.errors.then(|| ERRORS_HEADER.to_string());
    let mut results = Vec::new();
    for &n in &n_bests {
        let mut cols = Vec::new();
        for spec in &specs {
            // Official loop order: noise levels outside, periods inside.
            for &noise in &noises {
                for &time in &times {
                    let params = EvalParams {
                        task: opts.task,
                        n_best: n,
                        noise,
                        time,
                        merge_lines: true,
                        fair: wants_fair.then_some(&weights),
                    };
                    // The error listing covers the all-data evaluation at the first cutoff.
                    let sink = if noise.is_none() && time.is_none() && n == n_bests[0] {
                        errors.as_mut()
                    } else {
                        None
                    };
                    let eval = evaluate_column(gold, pred, &al, spec, &params, sink)?;
                    cols.push(ColumnResult {
                        column: spec.name.to_string(),
                        time: time_label(time),
                        noise: noise_label(noise),
                        eval,
                    });
                }
            }
        }
        results.push((n, cols));
    }

    let suffix = opts.suffix.as_deref().filter(|s| !s.is_empty());
    let mut tsv = String::new();
    tsvout::push_row(&mut tsv, &tsvout::FIELDS);
    let mut json = Json::obj();
    for (n, cols) in &results {
        let only_all = opts.task == Task::Nel;
        write_tsv_rows(&mut tsv, system, cols, *n, only_all, suffix, &opts.regimes);
        let tree = json_tree(cols);
        if opts.task == Task::Nel {
            json.set(&n.to_string(), tree);
        } else {
            json = tree;
        }
    }
    Ok(ScoreOutput {
        system: system.to_string(),
        tsv_name: output_name(pred_arg, opts.task, suffix, "tsv"),
        json_name: output_name(pred_arg, opts.task, suffix, "json"),
        tsv,
        json: json.to_python_string(),
        results,
        warnings,
        errors,
    })
}

/// JSON regime order and names (index into the count arrays).
const JSON_REGIMES: [(&str, usize); 4] = [
    ("partial", hipe::PARTIAL),
    ("strict", hipe::STRICT),
    ("ent_type", hipe::ENT_TYPE),
    ("exact", hipe::EXACT),
];

fn regime_json(s: &RegimeScores) -> Json {
    let c = &s.counts;
    let int = |v: u64| Json::Num(PyNum::Int(v as i64));
    let num = Json::Num;
    let mut items = vec![
        (Cow::Borrowed("correct"), int(c.correct)),
        (Cow::Borrowed("incorrect"), int(c.incorrect)),
        (Cow::Borrowed("partial"), int(c.partial)),
        (Cow::Borrowed("missed"), int(c.missed)),
        (Cow::Borrowed("spurious"), int(c.spurious)),
        (Cow::Borrowed("possible"), int(c.possible())),
        (Cow::Borrowed("actual"), int(c.actual())),
        (Cow::Borrowed("TP"), int(s.tp())),
        (Cow::Borrowed("FP"), int(s.fp())),
        (Cow::Borrowed("FN"), int(s.fn_())),
        (Cow::Borrowed("P_micro"), num(s.p_micro)),
        (Cow::Borrowed("R_micro"), num(s.r_micro)),
        (Cow::Borrowed("F1_micro"), num(s.f1_micro)),
        (Cow::Borrowed("P_macro_doc"), num(s.p_macro_doc)),
        (Cow::Borrowed("R_macro_doc"), num(s.r_macro_doc)),
        (Cow::Borrowed("F1_macro_doc"), num(s.f1_macro_doc)),
        (Cow::Borrowed("P_macro_doc_std"), num(s.p_macro_doc_std)),
        (Cow::Borrowed("R_macro_doc_std"), num(s.r_macro_doc_std)),
        (Cow::Borrowed("F1_macro_doc_std"), num(s.f1_macro_doc_std)),
    ];
    if let Some(m) = s.type_macro {
        items.push((Cow::Borrowed("P_macro"), num(m[0])));
        items.push((Cow::Borrowed("R_macro"), num(m[1])));
        items.push((Cow::Borrowed("F1_macro"), num(m[2])));
        items.push((Cow::Borrowed("F1_macro (recomputed from P & R)"), num(m[3])));
    }
    Json::Obj(items)
}

fn label_json(s: &[RegimeScores; 4], fair: Option<&crate::metrics::fair::FairLabelScores>) -> Json {
    let mut items: Vec<(Cow<'static, str>, Json)> = JSON_REGIMES
        .iter()
        .map(|(name, r)| (Cow::Borrowed(*name), regime_json(&s[*r])))
        .collect();
    if let Some(f) = fair {
        items.push((Cow::Borrowed("fair"), fair_json(Some(&f.counts), &f.fair)));
        if let Some(w) = &f.weighted {
            items.push((Cow::Borrowed("weighted"), fair_json(None, w)));
        }
    }
    Json::Obj(items)
}

fn fair_json(
    counts: Option<&crate::matching::fair::FairCounts>,
    s: &crate::metrics::fair::WeightedScores,
) -> Json {
    let int = |v: u64| Json::Num(PyNum::Int(v as i64));
    let fl = |v: f64| Json::Num(PyNum::Float(v));
    let mut items: Vec<(Cow<'static, str>, Json)> = Vec::new();
    if let Some(c) = counts {
        for (k, v) in [
            ("TP", c.tp),
            ("FP", c.fp),
            ("FN", c.fn_),
            ("LE", c.le),
            ("BE", c.be()),
            ("BES", c.bes),
            ("BEL", c.bel),
            ("BEO", c.beo),
            ("LBE", c.lbe),
        ] {
            items.push((Cow::Borrowed(k), int(v)));
        }
    }
    for (k, v) in [
        ("TP_weighted", s.tp),
        ("FP_weighted", s.fp),
        ("FN_weighted", s.fn_),
        ("P_micro", s.p_micro),
        ("R_micro", s.r_micro),
        ("F1_micro", s.f1_micro),
    ] {
        items.push((Cow::Borrowed(k), fl(v)));
    }
    for (k, v) in [
        ("P_macro_doc", s.p_macro_doc),
        ("R_macro_doc", s.r_macro_doc),
        ("F1_macro_doc", s.f1_macro_doc),
        ("P_macro_doc_std", s.p_macro_doc_std),
        ("R_macro_doc_std", s.r_macro_doc_std),
        ("F1_macro_doc_std", s.f1_macro_doc_std),
    ] {
        items.push((Cow::Borrowed(k), Json::Num(v)));
    }
    Json::Obj(items)
}

fn json_tree(cols: &[ColumnResult]) -> Json {
    let mut root = Json::obj();
    for c in cols {
        root.entry(&c.column)
            .entry(&c.time)
            .set(&c.noise, evaluation_json(&c.eval));
    }
    root
}

fn write_tsv_rows(
    out: &mut String,
    system: &str,
    cols: &[ColumnResult],
    n_best: usize,
    only_all: bool,
    suffix: Option<&str>,
    regimes: &[Regime],
) {
    // Columns sorted; periods and noise levels in the order of the first column's results.
    let mut names: Vec<&str> = cols.iter().map(|c| c.column.as_str()).collect();
    names.sort();
    names.dedup();
    let first = names.first().copied().unwrap_or("");
    let mut times: Vec<&str> = Vec::new();
    let mut noises: Vec<&str> = Vec::new();
    for c in cols.iter().filter(|c| c.column == first) {
        if !times.contains(&c.time.as_str()) {
            times.push(&c.time);
        }
        if !noises.contains(&c.noise.as_str()) {
            noises.push(&c.noise);
        }
    }
    for col in &names {
        for time in &times {
            for noise in &noises {
                let Some(res) = cols
                    .iter()
                    .find(|c| c.column == *col && c.time == *time && c.noise == *noise)
                else {
                    continue;
                };
                let mut labels: Vec<&str> = res
                    .eval
                    .per_label
                    .keys()
                    .map(|l| l.as_str())
                    .filter(|l| *l != "ALL")
                    .collect();
                labels.push("ALL");
                labels.sort();
                if only_all {
                    labels.retain(|l| *l == "ALL");
                }
                for aggr in ["micro", "macro_doc"] {
                    for &regime in regimes {
                        let nb = if col.contains("NEL") {
                            format!("-@{n_best}")
                        } else {
                            String::new()
                        };
                        let sfx = suffix.map(|s| format!("{s}-")).unwrap_or_default();
                        let evaluation =
                            format!("{col}-{aggr}-{}-{sfx}{time}-{noise}{nb}", regime.as_str());
                        for label in &labels {
                            let mut row =
                                vec![system.to_string(), evaluation.clone(), label.to_string()];
                            let cells = match regime {
                                Regime::Fuzzy | Regime::Strict => {
                                    let r = if regime == Regime::Fuzzy {
                                        hipe::ENT_TYPE
                                    } else {
                                        hipe::STRICT
                                    };
                                    let s = if *label == "ALL" {
                                        &res.eval.all[r]
                                    } else {
                                        match res.eval.per_label.get(*label) {
                                            Some(s) => &s[r],
                                            None => continue,
                                        }
                                    };
                                    official_cells(s, aggr)
                                }
                                Regime::Fair | Regime::Weighted => {
                                    let Some(fair) = &res.eval.fair else { continue };
                                    let ls = if *label == "ALL" {
                                        Some(&fair.all)
                                    } else {
                                        fair.per_label.get(*label)
                                    };
                                    let ws = match (ls, regime) {
                                        (Some(ls), Regime::Fair) => Some(&ls.fair),
                                        (Some(ls), _) => ls.weighted.as_ref(),
                                        (None, _) => None,
                                    };
                                    match ws {
                                        Some(ws) => fair_cells(ws, aggr),
                                        None => fair_cells(&empty_fair_scores(), aggr),
                                    }
                                }
                            };
                            row.extend(cells);
                            tsvout::push_row(out, &row);
                        }
                    }
                }
            }
        }
    }
}

/// P, R, F1, F1_std, P_std, R_std, TP, FP, FN cells of an official regime.
fn official_cells(s: &RegimeScores, aggr: &str) -> [String; 9] {
    if aggr == "micro" {
        [
            s.p_micro.round3(),
            s.r_micro.round3(),
            s.f1_micro.round3(),
            String::new(),
            String::new(),
            String::new(),
            s.tp().to_string(),
            s.fp().to_string(),
            s.fn_().to_string(),
        ]
    } else {
        macro_cells(
            [s.p_macro_doc, s.r_macro_doc, s.f1_macro_doc],
            [s.p_macro_doc_std, s.r_macro_doc_std, s.f1_macro_doc_std],
        )
    }
}

/// Cells of a macro_doc row: P, R, F1, then the standard deviations in the official column
/// order F1_std, P_std, R_std; no counts.
fn macro_cells(means: [PyNum; 3], stds: [PyNum; 3]) -> [String; 9] {
    let [p, r, f1] = means;
    let [ps, rs, f1s] = stds;
    [
        p.round3(),
        r.round3(),
        f1.round3(),
        f1s.round3(),
        ps.round3(),
        rs.round3(),
        String::new(),
        String::new(),
        String::new(),
    ]
}

fn empty_fair_scores() -> crate::metrics::fair::WeightedScores {
    crate::metrics::fair::WeightedScores {
        tp: 0.0,
        fp: 0.0,
        fn_: 0.0,
        p_micro: 0.0,
        r_micro: 0.0,
        f1_micro: 0.0,
        p_macro_doc: PyNum::None,
        r_macro_doc: PyNum::None,
        f1_macro_doc: PyNum::None,
        p_macro_doc_std: PyNum::None,
        r_macro_doc_std: PyNum::None,
        f1_macro_doc_std: PyNum::None,
    }
}

/// A weighted count: whole numbers without a decimal point, others as Python prints them.
fn count_cell(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        crate::metrics::py::round3_repr(x)
    }
}

fn fair_cells(s: &crate::metrics::fair::WeightedScores, aggr: &str) -> [String; 9] {
    let f = |x: f64| PyNum::Float(x).round3();
    if aggr == "micro" {
        [
            f(s.p_micro),
            f(s.r_micro),
            f(s.f1_micro),
            String::new(),
            String::new(),
            String::new(),
            count_cell(s.tp),
            count_cell(s.fp),
            count_cell(s.fn_),
        ]
    } else {
        macro_cells(
            [s.p_macro_doc, s.r_macro_doc, s.f1_macro_doc],
            [s.p_macro_doc_std, s.r_macro_doc_std, s.f1_macro_doc_std],
        )
    }
}

pub use crate::fsutil::write_atomic;
