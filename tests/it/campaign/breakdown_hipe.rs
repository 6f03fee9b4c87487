//! Breakdowns of a HIPE campaign (issue 35): a HIPE-2022 campaign file with `breakdown` and
//! `train` (a pattern of training files in the resources directory) over the real ajmc runs
//! of ../shared. Each run's NERC outputs have their breakdown on the board: every bucket of
//! `leaderboard.md` and of `breakdown/RUN_OUTPUT.json` is that of `fairscore evaluate --family
//! hipe --breakdown … --train …` of the same run (an independent run of the binary), the
//! buckets of every key add up to the run's strict ALL row on the board; the official per-run
//! files and ranking files are byte for byte those of the campaign without breakdown, with and
//! without `bootstrap` (the breakdown's intervals then those of `evaluate --bootstrap`); a
//! language without its training file is scored without breakdown and said so; NEL outputs
//! have none; `leaderboard.tex` compiles and `index.html` passes page_check.sh at 390 and
//! 1366 px; a hostile label comes out escaped in the page, the Markdown and the LaTeX; the
//! campaign's Codabench scoring program shows evaluate's buckets on its detailed page.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::fixtures::{compile, pdflatex};
use super::page_layout::page_check;
use crate::common::{chromium, fairscore, fairscore_json, shared_data, temp_dir};

const KEYS: &str = "label,length,oov";
const TAGSET: &str = "tagset-hipe2022-all.txt";
/// The runs of ajmc-en (bundles 1: NERC and NEL, 3: coarse and fine, 4: coarse) and one of
/// ajmc-de (whose training file is left out).
const RUNS: [&str; 5] = [
    "team1_bundle4_ajmc_en_1",
    "team1_bundle4_ajmc_en_2",
    "team2_bundle1_ajmc_en_1",
    "neurbsl_bundle3_ajmc_en_1",
    "team1_bundle4_ajmc_de_1",
];

/// The campaign's directories: gold, runs, resources (the tag set, the QID map and a training
/// file for ajmc-en only: the ajmc-de test gold stands in for it).
struct Dirs {
    gold: PathBuf,
    runs: PathBuf,
    res: PathBuf,
}

fn setup(data: &Path, dir: &Path, relabel: Option<&str>) -> Dirs {
    let h = data.join("hipe2022");
    let d = Dirs {
        gold: dir.join("gold"),
        runs: dir.join("runs"),
        res: dir.join("res"),
    };
    for p in [&d.gold, &d.runs, &d.res] {
        std::fs::create_dir_all(p).unwrap();
    }
    // A hostile label in place of `scope`, in gold, run and training file alike.
    let copy = |from: PathBuf, to: PathBuf| match relabel {
        None => std::fs::copy(from, to).map(|_| ()).unwrap(),
        Some(l) => {
            let text = std::fs::read_to_string(from).unwrap();
            std::fs::write(to, text.replace("-scope\t", &format!("-{l}\t"))).unwrap()
        }
    };
    for lang in ["en", "de"] {
        for suffix in ["", "_histonorm"] {
            let g = format!("HIPE-2022-v2.1-ajmc-test-{lang}{suffix}.tsv");
            copy(h.join("gold").join(&g), d.gold.join(&g));
        }
    }
    for r in RUNS {
        let f = format!("{r}.tsv");
        copy(h.join("submissions").join(&f), d.runs.join(&f));
    }
    for r in [TAGSET, "ajmc-alternatives-QID-mapping-ID-mapping.tsv"] {
        std::fs::copy(h.join("resources").join(r), d.res.join(r)).unwrap();
    }
    copy(
        h.join("gold/HIPE-2022-v2.1-ajmc-test-de.tsv"),
        d.res.join("train-ajmc-en.tsv"),
    );
    d
}

/// The hipe-2022 preset with `top` lines at its top, written as `name`.
pub(super) fn campaign(dir: &Path, name: &str, top: &str) -> PathBuf {
    let preset = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("presets/hipe-2022.toml"),
    )
    .unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("{top}\n{preset}")).unwrap();
    path
}

/// A fresh directory `name` set up with [`setup`], and the leaderboards of the campaign with
/// `top` and `breakdown = keys` (the training files `train-DATASET-LANG.tsv`) in `out` and of
/// the campaign with `top` alone in `plain`: (directory, inputs, out, plain).
fn with_and_without(
    data: &Path,
    name: &str,
    top: &str,
    keys: &str,
) -> (PathBuf, Dirs, PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let d = setup(data, &dir, None);
    let train = "train = \"train-{dataset}-{lang}.tsv\"";
    let with = campaign(
        &dir,
        "with.toml",
        &format!("{top}\nbreakdown = {keys}\n{train}"),
    );
    let (out, plain) = (dir.join("out"), dir.join("plain"));
    leaderboard(&with, &d, &out);
    leaderboard(&campaign(&dir, "plain.toml", top), &d, &plain);
    (dir, d, out, plain)
}

fn leaderboard(c: &Path, d: &Dirs, out: &Path) {
    let o = fairscore(&[
        "leaderboard",
        "--campaign",
        c.to_str().unwrap(),
        "--gold-dir",
        d.gold.to_str().unwrap(),
        "--runs-dir",
        d.runs.to_str().unwrap(),
        "--resources",
        d.res.to_str().unwrap(),
        "--outdir",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
}

/// `evaluate --family hipe` of a run's NERC output with the campaign's breakdown.
fn evaluate(d: &Dirs, run: &str, task: &str, bootstrap: Option<&str>) -> Value {
    let (gold, pred, tagset, train) = (
        d.gold.join("HIPE-2022-v2.1-ajmc-test-en.tsv"),
        d.runs.join(format!("{run}.tsv")),
        d.res.join(TAGSET),
        d.res.join("train-ajmc-en.tsv"),
    );
    let mut args = vec![
        "evaluate",
        "--family",
        "hipe",
        "--hipe-edition",
        "hipe-2022",
        "--task",
        task,
        "--tagset",
        tagset.to_str().unwrap(),
        "--gold",
        gold.to_str().unwrap(),
        "--pred",
        pred.to_str().unwrap(),
        "--breakdown",
        KEYS,
        "--train",
        train.to_str().unwrap(),
        "--json",
        "-",
    ];
    if let Some(n) = bootstrap {
        args.extend(["--bootstrap", n]);
    }
    fairscore_json(&args)
}

/// The `breakdown:…` tables (buckets and examples) of a result JSON, by name.
fn breakdown_tables(v: &Value) -> BTreeMap<String, Value> {
    v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| {
            let name = t["name"].as_str()?;
            name.starts_with("breakdown:")
                .then(|| (name.to_string(), t.clone()))
        })
        .collect()
}

/// The cells of `run`'s breakdown tables under "Breakdowns of RUN (COLUMN):" in the
/// Markdown, by key: (bucket, cells by column).
type MdKeys = BTreeMap<String, Vec<(String, BTreeMap<String, String>)>>;

fn md_breakdowns(md: &str, run: &str, column: &str) -> MdKeys {
    let head = format!("Breakdowns of {run} ({column}):");
    let mut out = MdKeys::new();
    let Some(at) = md.find(&head) else {
        return out;
    };
    let mut key = None;
    let mut columns: Vec<String> = Vec::new();
    for line in md[at + head.len()..].lines() {
        if line.starts_with("Breakdowns of ") || line.starts_with('#') {
            break;
        }
        if let Some(k) = line.strip_prefix("<details><summary>breakdown by ") {
            key = Some(k.trim_end_matches("</summary>").to_string());
            columns.clear();
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().replace('\\', ""))
            .collect();
        match (&key, line.starts_with("| Bucket")) {
            (Some(_), true) => columns = cells[1..].to_vec(),
            (Some(k), false) if line.starts_with("| ") => {
                let by: BTreeMap<String, String> =
                    columns.iter().cloned().zip(cells[1..].to_vec()).collect();
                out.entry(k.clone())
                    .or_default()
                    .push((cells[0].clone(), by));
            }
            _ => {}
        }
    }
    out
}

/// TP, FP and FN of `run` in the Markdown's strict table of `column`.
fn md_strict(md: &str, column: &str, output: &str, run: &str) -> [u64; 3] {
    let head = format!("### {column} · {output} · strict");
    let at = md.find(&head).expect("the strict table");
    let row = md[at..]
        .lines()
        .find(|l| l.contains(&format!("| {run} |")))
        .expect("the run's row");
    let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
    let n = |i: usize| cells[i].trim_matches('*').parse::<u64>().unwrap();
    [n(5), n(6), n(7)]
}

/// Every run's NERC outputs: (run, task, column).
const OUTPUTS: [(&str, &str, &str); 6] = [
    ("team1_bundle4_ajmc_en_1", "nerc_coarse", "NE-COARSE-LIT"),
    ("team1_bundle4_ajmc_en_2", "nerc_coarse", "NE-COARSE-LIT"),
    ("team2_bundle1_ajmc_en_1", "nerc_coarse", "NE-COARSE-LIT"),
    ("team2_bundle1_ajmc_en_1", "nerc_fine", "NE-FINE-LIT"),
    ("neurbsl_bundle3_ajmc_en_1", "nerc_coarse", "NE-COARSE-LIT"),
    ("neurbsl_bundle3_ajmc_en_1", "nerc_fine", "NE-FINE-LIT"),
];

#[test]
fn hipe_board_breakdowns_are_evaluate_s_and_leave_the_official_files_alone() {
    let Some(data) = shared_data("hipe_board_breakdowns") else {
        return;
    };
    let (dir, d, out, plain) =
        with_and_without(&data, "hipe_board_breakdowns", "", &format!("\"{KEYS}\""));
    // The official files do not change.
    for sub in ["runs", "rankings"] {
        assert_same_files(&out.join(sub), &plain.join(sub));
    }
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    for (run, task, column) in OUTPUTS {
        let v = evaluate(&d, run, task, None);
        let ev = breakdown_tables(&v);
        assert_eq!(ev.len(), 6, "three keys and their examples");
        // The run's breakdown JSON: evaluate's tables, examples included.
        let file = out.join(format!("breakdown/{run}_{task}.json"));
        let ours: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(breakdown_tables(&ours), ev, "{}", file.display());
        // Signed as evaluate signs the same scoring (inputs, options, training file).
        assert!(
            ours["signature"].as_str().is_some_and(
                |x| x.starts_with("fairscore|family:hipe|") && x.contains("|train:file-")
            ),
            "{}: {}",
            file.display(),
            ours["signature"]
        );
        assert_eq!(ours["signature"], v["signature"], "{}", file.display());
        // The board: every bucket with evaluate's counts and scores.
        let board = md_breakdowns(&md, run, column);
        assert_eq!(board.len(), 3, "{run} {task}: three keys on the board");
        let [tp, fp, fn_] = md_strict(&md, column, task, run);
        for (key, rows) in &board {
            let t = &ev[&format!("breakdown:{key}")];
            let buckets = t["rows"].as_array().unwrap();
            assert_eq!(rows.len(), buckets.len(), "{run} {task} {key}");
            let mut sums = [0u64; 4];
            for ((bucket, cells), b) in rows.iter().zip(buckets) {
                assert_eq!(*bucket, b["key"]["bucket"].as_str().unwrap());
                for (i, c) in ["TP-gold", "FN", "TP-run", "FP"].iter().enumerate() {
                    let x = b["scores"][c].as_f64().unwrap();
                    assert_eq!(cells[*c], format!("{x}"), "{run} {key} {bucket} {c}");
                    sums[i] += x as u64;
                }
                for c in ["P", "R", "F1"] {
                    let x = b["scores"][c].as_f64().unwrap();
                    assert_eq!(cells[c], format!("{x:.3}"), "{run} {key} {bucket} {c}");
                }
            }
            // The buckets of a key add up to the strict ALL row (gold side: TP + FN; run
            // side: TP + FP).
            assert_eq!(sums, [tp, fn_, tp, fp], "{run} {task} {key}");
        }
    }
    // No breakdown for NEL, nor for ajmc-de (no training file), which is said.
    let names: Vec<String> = std::fs::read_dir(out.join("breakdown"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), OUTPUTS.len(), "{names:?}");
    assert!(names
        .iter()
        .all(|n| n.contains("_en_") && n.contains("_nerc_")));
    assert!(
        md.contains(
            "ajmc · de · nerc_coarse: no breakdowns: training file res/train-ajmc-de.tsv not found"
        ),
        "{md}"
    );
    // Replayed outputs are not scored again: no breakdown, a usage error.
    let o = fairscore(&[
        "leaderboard",
        "--campaign",
        dir.join("with.toml").to_str().unwrap(),
        "--gold-dir",
        d.gold.to_str().unwrap(),
        "--runs-dir",
        d.runs.to_str().unwrap(),
        "--resources",
        d.res.to_str().unwrap(),
        "--outdir",
        dir.join("replayed").to_str().unwrap(),
        "--replay",
        out.join("runs").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.code() == Some(2) && err.contains("breakdown"),
        "{err}"
    );
    // leaderboard.tex: a grid per key of each NERC column, the document compiles.
    let tex = std::fs::read_to_string(out.join("leaderboard.tex")).unwrap();
    for column in ["NE-COARSE-LIT, nerc\\_coarse", "NE-FINE-LIT, nerc\\_fine"] {
        for key in ["label", "length", "oov"] {
            let caption = format!("ajmc · en, {column}: F1 by {key}");
            assert!(tex.contains(&caption), "{caption}");
        }
    }
    assert!(!tex.contains("ajmc · de, NE-COARSE-LIT, nerc\\_coarse: F1 by"));
    if pdflatex("hipe_board_breakdowns") {
        compile(&out.join("leaderboard.tex"));
    }
    if chromium("hipe_board_breakdowns", "layout not checked").is_some() {
        let (ok, text) = page_check(&out.join("index.html"), 400_000);
        assert!(ok, "{text}");
    }
}

/// The files of two directories are the same, byte for byte.
fn assert_same_files(a: &Path, b: &Path) {
    let list = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let names = list(a);
    assert_eq!(names, list(b), "{}", a.display());
    assert!(!names.is_empty());
    for n in names {
        assert!(
            std::fs::read(a.join(&n)).unwrap() == std::fs::read(b.join(&n)).unwrap(),
            "{n} differs"
        );
    }
}

/// With `bootstrap`, the ranking files and their intervals are those of the campaign without
/// breakdown (the paired tests read no bucket), and each bucket's intervals are those of
/// `evaluate --bootstrap` with the same seed.
#[test]
fn bootstrap_with_breakdowns_keeps_the_rankings_and_gives_evaluate_s_intervals() {
    let Some(data) = shared_data("hipe_board_breakdowns_bootstrap") else {
        return;
    };
    let (_, d, out, plain) = with_and_without(
        &data,
        "hipe_board_breakdowns_bootstrap",
        "bootstrap = 200\nbootstrap_seed = 42",
        "[\"label\", \"length\", \"oov\"]",
    );
    for sub in ["runs", "rankings"] {
        assert_same_files(&out.join(sub), &plain.join(sub));
    }
    let ci_files = std::fs::read_dir(out.join("rankings"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".ci.tsv")
        })
        .count();
    assert!(ci_files > 0, "the marks are written");
    for (run, task, _) in OUTPUTS {
        let ev = breakdown_tables(&evaluate(&d, run, task, Some("200")));
        let file = out.join(format!("breakdown/{run}_{task}.json"));
        let ours: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let ours = breakdown_tables(&ours);
        assert_eq!(ours, ev, "{}", file.display());
        let with_ci = ours["breakdown:label"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["ci"]["F1"].is_array())
            .count();
        assert!(with_ci > 0, "{run} {task}: intervals");
    }
}

/// A hostile label reaches the page, the Markdown and the LaTeX escaped; the LaTeX compiles.
#[test]
fn hostile_labels_of_a_hipe_breakdown_are_escaped() {
    let Some(data) = shared_data("hipe_board_breakdowns_hostile") else {
        return;
    };
    let dir = temp_dir("hipe_board_breakdowns_hostile");
    let label = "<b>&x[y](javascript:z)";
    let d = setup(&data, &dir, Some(label));
    // No tag set: the hostile label is not one of HIPE's.
    let c = campaign(&dir, "c.toml", "breakdown = [\"label\"]");
    let text = std::fs::read_to_string(&c)
        .unwrap()
        .replace("tagset = \"tagset-hipe2022-all.txt\"", "tagset = \"\"");
    std::fs::write(&c, text).unwrap();
    let out = dir.join("out");
    leaderboard(&c, &d, &out);
    // The scorer reads labels upper-cased.
    let shown = label.to_uppercase();
    let json =
        std::fs::read_to_string(out.join("breakdown/team1_bundle4_ajmc_en_1_nerc_coarse.json"))
            .unwrap();
    let v: Value = serde_json::from_str(&json).unwrap();
    let buckets: Vec<&str> = v["tables"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["key"]["bucket"].as_str())
        .collect();
    assert!(buckets.contains(&shown.as_str()), "{buckets:?}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        !html.contains("<B>") && html.contains("&lt;B&gt;&amp;X"),
        "page"
    );
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    // Markup and link syntax backslash-escaped (docs/errors.md): no tag, no link.
    assert!(!md.contains("<B>") && !md.contains("[Y]("), "markdown");
    assert!(
        md.contains("\\<B\\>\\&X\\[Y\\](JAVASCRIPT:Z)"),
        "markdown escapes"
    );
    let tex = std::fs::read_to_string(out.join("leaderboard.tex")).unwrap();
    assert!(!tex.contains("<B>") && tex.contains("\\&X"), "latex");
    assert!(tex.contains("F1 by label"), "the grid");
    if pdflatex("hipe_board_breakdowns_hostile") {
        compile(&out.join("leaderboard.tex"));
    }
}

/// The Codabench scoring program of a HIPE campaign with `breakdown` shows each scored NERC
/// column's breakdown on its detailed page: one table per key, every bucket with the counts of
/// `evaluate --family hipe --breakdown … --train …` of the same run.
#[test]
fn the_codabench_program_of_a_hipe_campaign_shows_evaluate_s_buckets() {
    let Some(data) = shared_data("hipe_codabench_breakdowns") else {
        return;
    };
    let dir = temp_dir("hipe_codabench_breakdowns");
    let d = setup(&data, &dir, None);
    let file = campaign(
        &dir,
        "c.toml",
        &format!("breakdown = \"{KEYS}\"\ntrain = \"train-{{dataset}}-{{lang}}.tsv\""),
    );
    let (input, out) = (dir.join("input"), dir.join("output"));
    let gold = "HIPE-2022-v2.1-ajmc-test-en.tsv";
    let run = "team1_bundle4_ajmc_en_1";
    for (from, to) in [
        (d.gold.join(gold), input.join("ref").join(gold)),
        (
            d.runs.join(format!("{run}.tsv")),
            input.join("res").join(format!("{run}.tsv")),
        ),
    ] {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
    }
    let o = fairscore(&[
        "codabench",
        "--campaign",
        file.to_str().unwrap(),
        "--resources",
        d.res.to_str().unwrap(),
        input.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    let v = evaluate(&d, run, "nerc_coarse", None);
    let mut buckets = 0;
    for key in KEYS.split(',') {
        assert!(
            html.contains(&format!(
                "nerc_coarse-ajmc-en F1 (hipe): Breakdown by {key} "
            )),
            "{key}: no table"
        );
        let t = &breakdown_tables(&v)[&format!("breakdown:{key}")];
        for b in t["rows"].as_array().unwrap() {
            let name = b["key"]["bucket"].as_str().unwrap();
            let name = name
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            let mut row = format!("<td data-label=\"bucket\" class=\"k\">{name}</td>");
            for c in ["TP-gold", "FN", "TP-run", "FP"] {
                let x = b["scores"][c].as_f64().unwrap();
                row.push_str(&format!("<td data-label=\"{c}\">{x}</td>"));
            }
            assert!(html.contains(&row), "{key}: no row {row}");
            buckets += 1;
        }
    }
    assert!(buckets >= 6, "{buckets} buckets");
}
