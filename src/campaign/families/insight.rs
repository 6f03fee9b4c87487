//! Where and why the runs of a family campaign differ: a task's `train` file for its breakdowns
//! (`breakdown` is an option of the spans and fair families and needs no code here) and its
//! per-run `inspect` pages ([`crate::report::render_inspection`], the page of `fairscore
//! inspect`), written one at a time after the ranking, each dropped once written, and linked
//! from the leaderboard (docs/campaigns.md, "Breakdowns and error pages").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{FamilyCampaign, FamilyReport, FamilyTask, LabelList};
use crate::campaign::outcome::OfficialPages;
use crate::error::{snippet, Result};
use crate::family::Options;

/// The families whose runs have an `inspect` page: the span families read as the fair family
/// reads them.
pub const INSPECTED: &[&str] = &["spans", "fair"];

/// The folder of the per-run pages in the campaign's output directory.
pub const PAGES: &str = "inspect";

/// A task's breakdown training file and whether its runs get `inspect` pages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Insight {
    /// Write an `inspect` page per run of the task.
    pub inspect: bool,
    /// The `train` file (relative to the campaign file's directory).
    pub train: Option<LabelList>,
}

/// A campaign key's message: (the key it is about, the message).
type KeyError = (&'static str, String);

/// Reads a task's `inspect` and `train` keys (`inspect` defaults to the campaign's, for the
/// families of [`INSPECTED`]). `train` names a file inside the campaign file's directory: no
/// absolute path, no `..`, no hidden part (the Codabench bundle ships it beside the campaign
/// file).
pub(super) fn task_insight(
    task: &toml::Table,
    campaign: &Path,
    family: &str,
    campaign_inspect: bool,
) -> std::result::Result<Insight, KeyError> {
    let inspectable = INSPECTED.contains(&family);
    let inspect = match task.get("inspect") {
        None => campaign_inspect && inspectable,
        Some(toml::Value::Boolean(b)) => {
            if *b && !inspectable {
                return Err((
                    "inspect",
                    format!(
                        "inspect: a page of span errors, for tasks of the {} families, not {}",
                        INSPECTED.join(" and "),
                        snippet(family)
                    ),
                ));
            }
            *b
        }
        Some(_) => return Err(("inspect", "inspect: expected true or false".into())),
    };
    let train = match task.get("train") {
        None => None,
        Some(v) => {
            let written = v.as_str().filter(|w| !w.trim().is_empty()).ok_or((
                "train",
                "train: expected a file name (relative to the campaign file)".to_string(),
            ))?;
            let w = written.replace('\\', "/");
            let inside = !w.starts_with('/')
                && !w.contains(':')
                && w.split('/')
                    .all(|p| !p.is_empty() && p != "." && p != ".." && !p.starts_with('.'));
            if !inside {
                return Err((
                    "train",
                    format!(
                        "train: {} leaves the campaign file's directory; give a path inside it \
                         (no absolute path, no .., no hidden part)",
                        snippet(written)
                    ),
                ));
            }
            let dir = campaign.parent().unwrap_or_else(|| Path::new(""));
            Some(LabelList {
                written: w,
                path: dir.join(written),
            })
        }
    };
    Ok(Insight { inspect, train })
}

/// Whether `--inspect` can apply to a task: a task of the `spans` and `fair` families, or a
/// NERC output of a HIPE campaign.
pub fn inspectable(t: &FamilyTask) -> bool {
    INSPECTED.contains(&t.family.name()) || hipe_column(t).is_some()
}

/// Why a column of task `t` has no `inspect` page in a campaign that asks for them, when its
/// run is listed with the pages (the Codabench detailed page): a HIPE campaign's entity-linking
/// output, whose links are no spans to mark. `None` for every other task.
pub fn no_page(t: &FamilyTask) -> Option<&'static str> {
    (t.official.is_some() && !inspectable(t)).then_some(
        "entity linking: links are not marked in the text; the pages of the NERC columns show \
         the entities",
    )
}

/// The column a HIPE campaign's NERC output's page shows: the first the output scores
/// (`NE-COARSE-LIT`, `NE-FINE-LIT`); `None` for NEL and for tasks of a family campaign.
pub fn hipe_column(t: &FamilyTask) -> Option<&'static str> {
    let o = t
        .official
        .as_ref()
        .filter(|o| o.task != crate::hipe::Task::Nel)?;
    let edition = crate::hipe::Edition::parse(t.options.own("hipe_edition")?).ok()?;
    edition.columns(o.task).first().map(|c| c.0)
}

/// The options of a task's `inspect` page: the task's reading (format, column, run changes,
/// fair's focus, labels and weights), without what only the ranking uses (regimes, β,
/// breakdowns, attribution). A HIPE campaign's NERC output: HIPE TSV in its first column, as
/// `fairscore inspect --format hipe --column COLUMN` reads it.
fn page_options(t: &FamilyTask) -> Result<Options> {
    if let Some(column) = hipe_column(t) {
        let mut o = Options::default();
        o.set("format", "hipe")?;
        o.set("column", column)?;
        return Ok(o);
    }
    let mut o = t.options.clone();
    o.regimes = None;
    o.beta = None;
    o.listing = false;
    // A generative run is placed on the gold's texts as the task places it (`align`, …).
    o.own
        .retain(|k, _| crate::family::ALIGN_OPTIONS.contains(&k.as_str()));
    Ok(o)
}

/// The page of `run` against `gold` for task `t`: the HTML of `fairscore inspect`; with
/// `reveal_gold` false, of the run's own spans only ([`run_only`]).
/// (The HTML is made by the template engine: without the `html` feature, a usage error.)
pub fn page(t: &FamilyTask, gold: &Path, run: &Path, reveal_gold: bool) -> Result<String> {
    let mut ins = crate::family::fair::inspect(&page_options(t)?, gold, run)?;
    if !reveal_gold {
        run_only(&mut ins);
    }
    #[cfg(feature = "html")]
    return crate::report::render_inspection(&ins);
    #[cfg(not(feature = "html"))]
    {
        let _ = ins;
        Err(crate::error::Error::usage(
            "inspect pages need fairscore built with its `html` feature",
        ))
    }
}

/// The inspection as participants may see it when the gold is hidden (a Codabench
/// submission's page without `reveal_gold`): each document's text with the run's own spans,
/// each marked by the fair type it was counted with (correct, spurious, label, boundary,
/// label-boundary) and its own label. No gold span, no missed span (FN) and no gold label
/// shows; the text is cut only where a run span begins or ends; documents are ordered by the
/// run's own errors, and their counts leave out the FN; the labels are the run's. The totals
/// stay: they are the run's scores, as the detailed results give them.
pub fn run_only(ins: &mut crate::eval::fair::Inspection) {
    use crate::eval::fair::{Piece, Side};
    use crate::matching::fair::ErrorType;
    let used: std::collections::BTreeSet<usize> = ins
        .documents
        .iter()
        .flat_map(|d| d.marks.iter())
        .filter(|m| m.side == Side::Run)
        .map(|m| m.label_index)
        .collect();
    let relabel: BTreeMap<usize, usize> = used.iter().enumerate().map(|(n, &o)| (o, n)).collect();
    ins.labels = used
        .iter()
        .filter_map(|&i| ins.labels.get(i).cloned())
        .collect();
    for d in &mut ins.documents {
        let mut kept = vec![None; d.marks.len()];
        let mut marks = Vec::new();
        for (i, mut m) in std::mem::take(&mut d.marks).into_iter().enumerate() {
            if m.side == Side::Run {
                kept[i] = Some(marks.len());
                m.label_index = relabel.get(&m.label_index).copied().unwrap_or(0);
                marks.push(m);
            }
        }
        // Pieces merged where their run marks agree and no run mark begins; `at`: the new
        // piece of each old one.
        let begins: std::collections::BTreeSet<usize> =
            marks.iter().filter_map(|m| m.first_piece).collect();
        let mut at = Vec::with_capacity(d.pieces.len());
        let mut pieces: Vec<Piece> = Vec::new();
        for (o, p) in std::mem::take(&mut d.pieces).into_iter().enumerate() {
            let on: Vec<u32> = p
                .marks
                .iter()
                .filter_map(|&i| kept.get(i as usize).copied().flatten())
                .map(|i| i as u32)
                .collect();
            match pieces.last_mut() {
                Some(last) if last.marks == on && !begins.contains(&o) => {
                    last.text.push_str(&p.text)
                }
                _ => pieces.push(Piece {
                    text: p.text,
                    marks: on,
                }),
            }
            at.push(pieces.len() - 1);
        }
        for m in &mut marks {
            m.first_piece = m.first_piece.and_then(|p| at.get(p).copied());
        }
        (d.marks, d.pieces) = (marks, pieces);
        d.errors.retain(|e| e.kind != ErrorType::FN);
        for e in &mut d.errors {
            e.gold = None;
            e.run = e.run.and_then(|r| kept.get(r).copied().flatten());
        }
        d.counts.fn_ = 0;
        d.traditional.fn_ = 0;
    }
    ins.documents
        .sort_by_key(|d| (std::cmp::Reverse(d.error_count()), d.order));
    keep_run_warnings(&mut ins.warnings, &ins.run);
    ins.warnings.push(
        "the gold is hidden: this page marks the run's own spans only, each by the error type \
         it was counted with; no gold span, missed span or gold label shows (the campaign's \
         reveal_gold = true shows them)"
            .into(),
    );
}

/// The reading's warnings about the gold (a gold span given twice, a gold mention not placed,
/// …) may quote it: only those about the run itself (naming `run`, as every warning about a
/// file begins with its path) are kept, and a line says how many others there were.
fn keep_run_warnings(warnings: &mut Vec<String>, run: &str) {
    let before = warnings.len();
    warnings.retain(|w| !run.is_empty() && w.starts_with(run));
    if warnings.len() < before {
        warnings.push(format!(
            "{} warning(s) of the reading that are not about the run are not shown",
            before - warnings.len()
        ));
    }
}

/// The page's path in the output directory: `inspect/SYSTEM_STEM.html`, named as the run's
/// `runs/SYSTEM_STEM.json`.
pub fn page_name(system: &str, stem: &str) -> String {
    format!("{PAGES}/{system}_{stem}.html")
}

/// The page name of a run of task `t` whose ranking has `stem`: [`page_name`], with a HIPE
/// campaign's output name for the stem (`inspect/RUN_nerc_coarse.html`, named as the run's
/// official `runs/RUN_nerc_coarse.tsv`).
fn task_page_name(t: &FamilyTask, system: &str, stem: &str) -> String {
    match &t.official {
        Some(o) => page_name(system, &o.output),
        None => page_name(system, stem),
    }
}

/// The pages a campaign wrote: by (ranking stem, system), the page's path in the output
/// directory; and the pages that could not be made: (ranking stem, system, why).
#[derive(Debug, Default)]
pub struct Pages {
    /// (stem, system) → `inspect/SYSTEM_STEM.html`.
    pub links: BTreeMap<(String, String), String>,
    /// (stem, system, the error).
    pub failed: Vec<(String, String, String)>,
}

impl Pages {
    /// The page of a run of a ranking, if written.
    pub fn link(&self, stem: &str, system: &str) -> Option<&str> {
        self.links
            .get(&(stem.to_string(), system.to_string()))
            .map(String::as_str)
    }
}

/// Writes the `inspect` page of every ranked run of every task that asks for them into
/// `outdir/inspect/`, each atomically and dropped once written (the threads of the pool build
/// one page each at a time). A page that cannot be made is listed, not an error.
pub fn write_pages(outdir: &Path, cfg: &FamilyCampaign, report: &FamilyReport) -> Result<Pages> {
    let mut jobs: Vec<(&FamilyTask, String, &str, &Path, PathBuf)> = Vec::new();
    for r in &report.rankings {
        let Some(t) = cfg.tasks.iter().find(|t| t.name == r.task) else {
            continue;
        };
        if !t.insight.inspect {
            continue;
        }
        for run in &r.ranking.runs {
            // A HIPE run whose name cannot name its output files fails (official.rs): no page.
            if t.official.is_some()
                && crate::campaign::names::check_plain(&run.system, false).is_err()
            {
                continue;
            }
            if let Some(file) = r.run_files.get(&run.system) {
                jobs.push((t, r.stem(), &run.system, &r.gold, file.clone()));
            }
        }
    }
    let mut pages = Pages::default();
    if jobs.is_empty() {
        return Ok(pages);
    }
    let dir = outdir.join(PAGES);
    std::fs::create_dir_all(&dir).map_err(|e| {
        crate::error::Error::output(&dir, format!("cannot create the directory: {e}"))
    })?;
    let done: Vec<(String, String, Result<String>)> = jobs
        .par_iter()
        .map(|(t, stem, system, gold, run)| {
            let name = task_page_name(t, system, stem);
            let written = page(t, gold, run, true)
                .and_then(|html| crate::io::write_atomic(&outdir.join(&name), html.as_bytes()))
                .map(|()| name);
            (stem.clone(), system.to_string(), written)
        })
        .collect();
    for (stem, system, written) in done {
        match written {
            Ok(name) => {
                pages.links.insert((stem, system), name);
            }
            // An output that cannot be written stops the campaign's outputs.
            Err(e @ crate::error::Error::Output { .. }) => return Err(e),
            Err(e) => pages.failed.push((stem, system, e.to_string())),
        }
    }
    Ok(pages)
}

/// Writes the pages of a HIPE campaign's NERC outputs that ask for them ([`write_pages`];
/// `cfg` as [`FamilyCampaign::from_hipe`] made it) and keys them by run, output and column.
pub fn official_pages(
    outdir: &Path,
    cfg: &FamilyCampaign,
    report: &FamilyReport,
) -> Result<OfficialPages> {
    let pages = write_pages(outdir, cfg, report)?;
    let mut out = OfficialPages::default();
    for r in &report.rankings {
        let Some(t) = cfg.tasks.iter().find(|t| t.name == r.task) else {
            continue;
        };
        let (Some(o), Some(column)) = (&t.official, hipe_column(t)) else {
            continue;
        };
        let stem = r.stem();
        for run in &r.ranking.runs {
            if let Some(link) = pages.link(&stem, &run.system) {
                let key = (run.system.clone(), o.output.clone(), column.to_string());
                out.links.insert(key, link.to_string());
            }
        }
        for (_, system, why) in pages.failed.iter().filter(|(s, _, _)| *s == stem) {
            out.failed
                .push((format!("{system} {}", o.output), why.clone()));
        }
    }
    Ok(out)
}

/// The tables of a run's breakdowns (`breakdown:KEY`, rows keyed by bucket; not their
/// examples), by key.
pub fn breakdown_tables(results: &crate::table::Results) -> Vec<(&str, &crate::table::Table)> {
    results
        .tables
        .iter()
        .filter(|t| t.keys == [crate::table::KeyKind::Bucket])
        .filter_map(|t| Some((t.name.strip_prefix("breakdown:")?, t)))
        .collect()
}

/// A run's breakdowns for `leaderboard.json`: `{KEY: [{"bucket", COLUMN: value, …, "ci":
/// {COLUMN: [lo, hi]}?}]}` (counts whole numbers, scores fractions); `None` without any.
pub fn breakdown_json(results: &crate::table::Results) -> Option<serde_json::Value> {
    use serde_json::{json, Map, Value};
    let num = |x: f64| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number);
    let mut out = Map::new();
    for (key, t) in breakdown_tables(results) {
        let rows: Vec<Value> = t
            .rows
            .iter()
            .map(|r| {
                let mut o = Map::new();
                o.insert("bucket".into(), json!(r.key.first()));
                let mut ci = Map::new();
                for ((c, v), i) in t.columns.iter().zip(&r.values).zip(&r.ci) {
                    let Some(x) = v.as_f64() else { continue };
                    let whole = c.kind != crate::table::Kind::Ratio && x.fract() == 0.0 && x >= 0.0;
                    o.insert(c.name.clone(), if whole { json!(x as u64) } else { num(x) });
                    if let Some([lo, hi]) = i {
                        ci.insert(c.name.clone(), Value::Array(vec![num(*lo), num(*hi)]));
                    }
                }
                if !ci.is_empty() {
                    o.insert("ci".into(), Value::Object(ci));
                }
                Value::Object(o)
            })
            .collect();
        out.insert(key.to_string(), Value::Array(rows));
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_warnings_about_the_run_stay_on_a_page_without_the_gold() {
        let mut w = vec![
            "runs/a_1/d1.ann:3: span T2 (PER) is given twice: counted once".to_string(),
            "ref/d1.ann:5: span T7 (LOC) \"Zanzibar\" is given twice: counted once".to_string(),
            "gold mention \"Zanzibar\" (LOC) of unit 3 is not placed".to_string(),
        ];
        super::keep_run_warnings(&mut w, "runs/a_1");
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].starts_with("runs/a_1/d1.ann:3"));
        assert!(!w.iter().any(|x| x.contains("Zanzibar")), "{w:?}");
        assert!(w[1].contains("2 warning(s)"), "{w:?}");
    }
}
