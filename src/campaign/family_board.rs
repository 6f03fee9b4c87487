//! The outputs of a campaign of family tasks ([`super::families`]): ranking TSV files, the
//! runs' result JSON, `leaderboard.json`, `leaderboard.md`, `leaderboard.tex` and `index.html`,
//! written together.

use std::path::{Path, PathBuf};

use super::families::{insight, FamilyCampaign, FamilyReport, Pages, TaskRanking};
use crate::error::{Error, Result};
use crate::family::Headline;
use crate::table::{Kind, Results};

/// The ratios of a run's headline row, and the ranked column whatever its kind: `(column,
/// value, interval)`.
fn headline_scores(run: &Results, h: &Headline) -> Vec<(String, f64, Option<[f64; 2]>)> {
    let key: Vec<&str> = h.row.iter().map(String::as_str).collect();
    let Some(t) = run.table(&h.table) else {
        return Vec::new();
    };
    let Some(row) = t.row(&key) else {
        return Vec::new();
    };
    t.columns
        .iter()
        .zip(&row.values)
        .zip(&row.ci)
        .filter(|((c, _), _)| c.kind == crate::table::Kind::Ratio || c.name == h.column)
        .filter_map(|((c, v), ci)| v.as_f64().map(|x| (c.name.clone(), x, *ci)))
        .collect()
}

/// The ranking TSV: rank, system, the ranked metric and its interval, the tests and the
/// shares-first mark, then every other score of the headline row (fractions).
pub fn ranking_tsv(r: &TaskRanking) -> Result<String> {
    let h = &r.ranking.headline;
    let others: Vec<String> = r
        .ranking
        .runs
        .first()
        .map(|x| headline_scores(&x.results, h))
        .unwrap_or_default()
        .into_iter()
        .map(|(c, _, _)| c)
        .filter(|c| c != &h.column)
        .collect();
    let mut head: Vec<String> = [
        "rank",
        "system",
        h.column.as_str(),
        "lo",
        "hi",
        "p_next",
        "p_top",
        "shares_first",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    head.extend(others.iter().cloned());
    let mut rows = vec![head];
    for run in &r.ranking.runs {
        let scores = headline_scores(&run.results, h);
        let mut rec = vec![
            run.rank.to_string(),
            run.system.clone(),
            cell(Some(run.value)),
            cell(run.ci.map(|c| c[0])),
            cell(run.ci.map(|c| c[1])),
            cell(run.p_next),
            cell(run.p_top),
            yes_no(r.ranking.resampling.is_some(), run.shares_first),
        ];
        for o in &others {
            rec.push(cell(scores.iter().find(|(c, _, _)| c == o).map(|x| x.1)));
        }
        rows.push(rec);
    }
    tsv(&rows)
}

/// A number of a TSV file: its shortest exact form, empty when absent or not finite.
fn cell(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map(|v| v.to_string())
        .unwrap_or_default()
}

/// `yes`/`no` with resampling, else empty.
fn yes_no(resampled: bool, v: bool) -> String {
    match (resampled, v) {
        (false, _) => String::new(),
        (true, true) => "yes".into(),
        (true, false) => "no".into(),
    }
}

/// Rows (the first is the header) as tab-separated text (csv crate), every cell through
/// [`crate::escape::cell`] (numbers are left as they are).
fn tsv(rows: &[Vec<String>]) -> Result<String> {
    let fail = |e: String| Error::output(Path::new("ranking.tsv"), e);
    let mut w = csv::WriterBuilder::new()
        .delimiter(b'\t')
        .from_writer(Vec::new());
    for r in rows {
        w.write_record(r.iter().map(|c| crate::escape::cell(c)))
            .map_err(|e| fail(e.to_string()))?;
    }
    let bytes = w.into_inner().map_err(|e| fail(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| fail(e.to_string()))
}

/// The teams TSV: `rank`, `team`, `system` (the team's best run), the ranked metric, `lo`,
/// `hi` and `shares_first` (fractions; tab-separated).
pub fn teams_tsv(r: &TaskRanking) -> Result<String> {
    let h = &r.ranking.headline;
    let head = [
        "rank",
        "team",
        "system",
        h.column.as_str(),
        "lo",
        "hi",
        "shares_first",
    ];
    let mut rows = vec![head.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    if let Some(t) = r.results.table("teams") {
        let value = |row: &crate::table::Row, i: usize| row.values.get(i).and_then(|v| v.as_f64());
        for row in &t.rows {
            let ci = row.ci.get(1).copied().flatten();
            rows.push(vec![
                cell(value(row, 0)),
                row.key.first().cloned().unwrap_or_default(),
                row.key.get(1).cloned().unwrap_or_default(),
                cell(value(row, 1)),
                cell(ci.map(|c| c[0])),
                cell(ci.map(|c| c[1])),
                yes_no(
                    r.ranking.resampling.is_some(),
                    value(row, 2).is_some_and(|x| x > 0.0),
                ),
            ]);
        }
    }
    tsv(&rows)
}

/// What was not ranked, in file order within each kind: (file, `failed` or `rejected`, the
/// task of a failed scoring (one row per task a run failed for; empty for a rejected file),
/// the one-line reason).
fn not_scored(report: &FamilyReport) -> Vec<(&str, &'static str, &str, &str)> {
    let failed = (report.failed.iter()).map(|f| {
        (
            f.file.as_str(),
            "failed",
            f.task.as_str(),
            f.reason.as_str(),
        )
    });
    let rejected = (report.rejected.iter()).map(|(f, e)| (f.as_str(), "rejected", "", e.as_str()));
    failed.chain(rejected).collect()
}

/// `rankings/not_scored.tsv`: `file`, `kind` (`failed`: its scoring failed; `rejected`: it
/// fits no task), `task` (of a failed scoring) and `reason`, one row per failed scoring and
/// rejected file.
fn not_scored_tsv(report: &FamilyReport) -> Result<String> {
    let head = ["file", "kind", "task", "reason"]
        .map(String::from)
        .to_vec();
    let mut rows = vec![head];
    for (file, kind, task, reason) in not_scored(report) {
        rows.push([file, kind, task, reason].map(String::from).to_vec());
    }
    tsv(&rows)
}

/// `leaderboard.json`: `{"name", "not_scored": [{"file", "kind", "task"?, "reason"}], "tables": [{"task", "family", "metric", "unit", "group",
/// "gold", "resampling"?, "signature", "signature_fields", "rows": [{"rank", "system",
/// "run_hash", "scores": {METRIC: value}, "ci":
/// {METRIC: [lo, hi]}, "p_next"?, "p_top"?, "shares_first"?}], "teams": [{"rank", "team",
/// "system", "score", "ci"?, "shares_first"?}]}]}`; scores are fractions. A row has its
/// run's breakdowns (`"breakdown": {KEY: [{"bucket", …}]}`, [`insight::breakdown_json`]) when
/// the task asks for them, and its `inspect` page's path when one was written.
pub fn leaderboard_json(cfg: &FamilyCampaign, report: &FamilyReport, pages: &Pages) -> String {
    use serde_json::{json, Map, Value};
    let num = |x: f64| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number);
    let tables: Vec<Value> = report
        .rankings
        .iter()
        .map(|r| {
            let h = &r.ranking.headline;
            let rows: Vec<Value> = r
                .ranking
                .runs
                .iter()
                .map(|run| {
                    let mut scores = Map::new();
                    let mut ci = Map::new();
                    for (c, v, i) in headline_scores(&run.results, h) {
                        // A count (a ranked error count) is a whole number, as in runs/*.json.
                        let whole = v.fract() == 0.0 && r.ranking.column.kind == Kind::Count;
                        let value = if whole && c == h.column {
                            json!(v as u64)
                        } else {
                            num(v)
                        };
                        scores.insert(c.clone(), value);
                        if let Some([lo, hi]) = i {
                            ci.insert(c, Value::Array(vec![num(lo), num(hi)]));
                        }
                    }
                    let mut o = Map::new();
                    o.insert("rank".into(), json!(run.rank));
                    o.insert("system".into(), json!(run.system));
                    o.insert("run_hash".into(), json!(r.run_hashes.get(&run.system)));
                    o.insert("scores".into(), Value::Object(scores));
                    o.insert("ci".into(), Value::Object(ci));
                    if r.ranking.resampling.is_some() {
                        o.insert("p_next".into(), run.p_next.map_or(Value::Null, num));
                        o.insert("p_top".into(), run.p_top.map_or(Value::Null, num));
                        o.insert("shares_first".into(), json!(run.shares_first));
                    }
                    if let Some(b) = insight::breakdown_json(&run.results) {
                        o.insert("breakdown".into(), b);
                    }
                    if let Some(p) = pages.link(&r.stem(), &run.system) {
                        o.insert("inspect".into(), json!(p));
                    }
                    Value::Object(o)
                })
                .collect();
            let group: Map<String, Value> =
                r.group.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            let mut t = Map::new();
            t.insert("task".into(), json!(r.task));
            t.insert("family".into(), json!(r.family));
            t.insert("metric".into(), json!(h.column));
            t.insert("row".into(), json!(h.row.join(" ")));
            if r.ranking.column.lower_is_better {
                // An error count: the lowest value ranks first.
                t.insert("lower_is_better".into(), json!(true));
            }
            t.insert("unit".into(), json!(r.results.unit.name()));
            t.insert("group".into(), Value::Object(group));
            t.insert(
                "gold".into(),
                json!(r.gold.file_name().map(|f| f.to_string_lossy().into_owned())),
            );
            if let Some(s) = r.ranking.resampling {
                t.insert(
                    "resampling".into(),
                    json!({"method": "percentile bootstrap", "samples": s.samples, "seed": s.seed,
                           "confidence": num(s.confidence), "unit": r.results.unit.name(),
                           "test": "paired approximate randomization"}),
                );
            }
            crate::report::table::json::signature_into(&mut t, &r.signature);
            t.insert("rows".into(), Value::Array(rows));
            t.insert("teams".into(), Value::Array(team_rows(r, &num)));
            Value::Object(t)
        })
        .collect();
    let not_scored: Vec<Value> = not_scored(report)
        .into_iter()
        .map(|(file, kind, task, reason)| match kind {
            "failed" => json!({"file": file, "kind": kind, "task": task, "reason": reason}),
            _ => json!({"file": file, "kind": kind, "reason": reason}),
        })
        .collect();
    let doc = json!({"name": cfg.name, "tables": tables, "not_scored": not_scored});
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// The `teams` rows of a table of `leaderboard.json`: each team's best run, as the table
/// `teams` of the ranking holds them.
fn team_rows(r: &TaskRanking, num: &dyn Fn(f64) -> serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::{json, Value};
    let Some(t) = r.results.table("teams") else {
        return Vec::new();
    };
    t.rows
        .iter()
        .map(|row| {
            let mut o = serde_json::Map::new();
            let rank = row
                .values
                .first()
                .and_then(|v| v.as_f64())
                .map(|x| x as u64);
            o.insert("rank".into(), json!(rank));
            o.insert("team".into(), json!(row.key.first()));
            o.insert("system".into(), json!(row.key.get(1)));
            let value = row.values.get(1).and_then(|v| v.as_f64());
            o.insert("score".into(), value.map_or(Value::Null, num));
            if let Some(Some([lo, hi])) = row.ci.get(1) {
                o.insert("ci".into(), Value::Array(vec![num(*lo), num(*hi)]));
            }
            if r.ranking.resampling.is_some() {
                let first = row
                    .values
                    .get(2)
                    .and_then(|v| v.as_f64())
                    .is_some_and(|x| x > 0.0);
                o.insert("shares_first".into(), json!(first));
            }
            Value::Object(o)
        })
        .collect()
}

/// `runs/SYSTEM_TASK[-GROUP].json`: a ranked run's results.
fn run_file(run: &super::family::RankedRun, r: &TaskRanking) -> String {
    run_path(&run.system, &r.stem())
}

/// `runs/SYSTEM_STEM.json`.
fn run_path(system: &str, stem: &str) -> String {
    format!("runs/{system}_{stem}.json")
}

/// Writes a run's results (`runs/SYSTEM_STEM.json`, as [`write_family_outputs`] would, STEM
/// the task's ranking stem) into `outdir` now, and keeps of them only what the reports read:
/// the headline row of the headline table `h`, the tables keyed by label alone (the per-label
/// view), the breakdowns' buckets (`breakdown:KEY`), and the gold's `adequacy` and the fair
/// `confusion` and `fair` tables. The other
/// rows (a HIPE NEL run's rows per QID, say) are dropped: memory does not grow with the
/// campaign's runs.
pub(crate) fn write_run_results(
    outdir: &Path,
    system: &str,
    stem: &str,
    results: &mut Results,
    h: &Headline,
) -> Result<()> {
    let text = crate::report::table::json::render(results);
    crate::io::write_atomic(&outdir.join(run_path(system, stem)), text.as_bytes())?;
    results.tables.retain_mut(|t| {
        if t.keys == [crate::table::KeyKind::Label] {
            true
        } else if t.name == h.table {
            t.rows.retain(|x| x.key == h.row);
            true
        } else if t.keys == [crate::table::KeyKind::Bucket] && t.name.starts_with("breakdown:") {
            // A breakdown's buckets (not its examples): the boards show them.
            true
        } else {
            matches!(t.name.as_str(), "adequacy" | "confusion" | "fair")
        }
    });
    Ok(())
}

/// Keeps of a run's results only the headline row of the headline table `h` (all a ranking
/// reads).
pub(crate) fn keep_headline(results: &mut Results, h: &Headline) {
    results.tables.retain_mut(|t| {
        t.rows.retain(|x| x.key == h.row);
        t.name == h.table
    });
}

/// Writes `rankings/*.tsv` (with `rankings/not_scored.tsv` when a run failed or a file fit no
/// task), `runs/*.json` (unless the campaign wrote them as it ran:
/// [`super::CampaignHooks::outdir`]), `leaderboard.json`, `leaderboard.md`, `leaderboard.tex`
/// and `index.html` (with the `html` feature) into `outdir`, all or none; returns the files
/// written, relative to `outdir` (the runs' results too, whenever they were written). The
/// `inspect` pages of the tasks that ask for them are written first, one at a time
/// (`families::insight::write_pages`).
pub fn write_family_outputs(
    outdir: &Path,
    cfg: &FamilyCampaign,
    report: &FamilyReport,
) -> Result<Vec<String>> {
    let pages = insight::write_pages(outdir, cfg, report)?;
    let mut files: Vec<(String, String)> = Vec::new();
    for r in &report.rankings {
        files.push((format!("rankings/{}.tsv", r.stem()), ranking_tsv(r)?));
        files.push((format!("rankings/{}.teams.tsv", r.stem()), teams_tsv(r)?));
        if !r.results_written {
            for run in &r.ranking.runs {
                files.push((
                    run_file(run, r),
                    crate::report::table::json::render(&run.results),
                ));
            }
        }
    }
    if !report.failed.is_empty() || !report.rejected.is_empty() {
        files.push(("rankings/not_scored.tsv".into(), not_scored_tsv(report)?));
    }
    files.push((
        "leaderboard.json".into(),
        leaderboard_json(cfg, report, &pages),
    ));
    let board = super::family_page::build(cfg, report, &pages);
    files.push((
        "leaderboard.md".into(),
        crate::report::markdown::render(&board),
    ));
    files.push((
        "leaderboard.tex".into(),
        crate::report::latex::render(&board),
    ));
    #[cfg(feature = "html")]
    files.push(("index.html".into(), crate::report::html::render(&board)?));
    for dir in ["rankings", "runs"] {
        std::fs::create_dir_all(outdir.join(dir)).map_err(|e| {
            Error::output(
                &outdir.join(dir),
                format!("cannot create the directory: {e}"),
            )
        })?;
    }
    let paths: Vec<PathBuf> = files.iter().map(|(n, _)| outdir.join(n)).collect();
    let refs: Vec<(&Path, &[u8])> = paths
        .iter()
        .zip(&files)
        .map(|(p, (_, t))| (p.as_path(), t.as_bytes()))
        .collect();
    crate::io::write_atomic_all(&refs)?;
    let mut names: Vec<String> = pages.links.into_values().collect();
    names.extend(files.into_iter().map(|(n, _)| n));
    for r in report.rankings.iter().filter(|r| r.results_written) {
        names.extend(r.ranking.runs.iter().map(|run| run_file(run, r)));
    }
    Ok(names)
}
