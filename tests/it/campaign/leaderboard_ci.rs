//! Intervals and significance marks in the leaderboard (issue 14), on a hand-made campaign
//! scored by the real scorer: the demo gold repeated into 32 documents, a run, the same run
//! under another team name, the run with half of its documents emptied and an all-empty run.
//! Every ranked row's interval contains its F1; the duplicate is folded into the run it
//! equals, which tops the table and shares first place with p = 1 against itself; the empty
//! run is not in the top group (p < 0.001 against the top); the same seed gives the same bytes
//! with 1 and 2 threads; the official files do not change with bootstrap on; bad settings are
//! refused. On ../shared: every ranked row of the HIPE-2022 campaign gets its marks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{empty_run, fairscore_env, shared_data, temp_dir};

const CAMPAIGN: &str = r#"name = "ci test"
edition = "hipe-2022"
run_pattern = "{team}_bundle{bundle}_{dataset}_{lang}_{run}"
gold_pattern = "gold-{dataset}-{lang}.tsv"
BOOTSTRAP
[datasets.demo]
languages = ["en"]

[[task]]
task = "nerc_coarse"

[bundles]
4 = ["nerc_coarse"]

[[ranking]]
kind = "coarse-micro-fuzzy"
outputs = ["nerc_coarse"]
prefixes = ["NE-COARSE"]
contains = ["micro-fuzzy"]
order = ["label", "f1-desc", "evaluation", "system"]

[[ranking]]
kind = "coarse-micro-strict"
outputs = ["nerc_coarse"]
prefixes = ["NE-COARSE"]
contains = ["micro-strict"]
order = ["label", "f1-desc", "evaluation", "system"]
"#;

const COPIES: usize = 16;

/// The documents of `texts[c]` for copy `c` (same header), ids of copy `c > 0` suffixed
/// `-copyC`: copies of the demo's two documents, each copy taken from the text chosen for it.
fn copies(texts: &[String]) -> String {
    let header = texts[0].lines().next().unwrap_or("");
    let mut out = format!("{header}\n");
    for (c, text) in texts.iter().enumerate() {
        for line in text.lines().skip(1) {
            if c > 0 && line.starts_with("# hipe2022:document_id") {
                out.push_str(&format!("{line}-copy{c}\n"));
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// A campaign directory; `bootstrap` is put into the campaign file as is.
fn setup(name: &str, bootstrap: &str) -> PathBuf {
    let root = temp_dir(name);
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference_runs");
    let gold = std::fs::read_to_string(demo.join("HIPE-2022-demo-test-en.tsv")).unwrap();
    let run = std::fs::read_to_string(demo.join("demo_bundle4_newseye_en_1.tsv")).unwrap();
    let empty = empty_run(&run);
    for d in ["gold", "runs", "resources"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    let write = |path: &str, text: &str| std::fs::write(root.join(path), text).unwrap();
    write("gold/gold-demo-en.tsv", &copies(&vec![gold; COPIES]));
    write(
        "runs/alpha_bundle4_demo_en_1.tsv",
        &copies(&vec![run.clone(); COPIES]),
    );
    write(
        "runs/beta_bundle4_demo_en_1.tsv",
        &copies(&vec![run.clone(); COPIES]),
    );
    let half: Vec<String> = (0..COPIES)
        .map(|c| {
            if c % 2 == 0 {
                run.clone()
            } else {
                empty.clone()
            }
        })
        .collect();
    write("runs/gamma_bundle4_demo_en_1.tsv", &copies(&half));
    write(
        "runs/zeta_bundle4_demo_en_1.tsv",
        &copies(&vec![empty; COPIES]),
    );
    write("campaign.toml", &CAMPAIGN.replace("BOOTSTRAP", bootstrap));
    root
}

/// `fairscore leaderboard` on the campaign of `root` into `root/OUT`, with more arguments.
fn leaderboard(root: &Path, out: &str, extra: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let s = |p: &str| root.join(p).to_string_lossy().into_owned();
    let (gold, runs, res, campaign, outdir) = (
        s("gold"),
        s("runs"),
        s("resources"),
        s("campaign.toml"),
        s(out),
    );
    let mut args = vec![
        "leaderboard",
        "--quiet",
        "--gold-dir",
        &gold,
        "--runs-dir",
        &runs,
        "--resources",
        &res,
        "--campaign",
        &campaign,
        "--outdir",
        &outdir,
    ];
    args.extend_from_slice(extra);
    let o = fairscore_env(&args, env);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Every file under `dir`, by path relative to it.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// One row of a `.ci.tsv`.
#[derive(Debug)]
struct CiRow {
    system: String,
    evaluation: String,
    f1: f64,
    lo: f64,
    hi: f64,
    p_next: Option<f64>,
    p_top: f64,
    shares_first: bool,
}

fn ci_rows(text: &str) -> Vec<CiRow> {
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("System\tEvaluation\tF1\tF1_lo\tF1_hi\tp_next\tp_top\tshares_first")
    );
    lines
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 8, "{l}");
            let num = |s: &str| -> f64 { s.parse().unwrap() };
            CiRow {
                system: c[0].to_string(),
                evaluation: c[1].to_string(),
                f1: num(c[2]),
                lo: num(c[3]),
                hi: num(c[4]),
                p_next: (!c[5].is_empty()).then(|| num(c[5])),
                p_top: num(c[6]),
                shares_first: match c[7] {
                    "yes" => true,
                    "no" => false,
                    x => panic!("shares_first {x}"),
                },
            }
        })
        .collect()
}

/// Checks what holds for every table of a `.ci.tsv`, and returns its rows.
fn check_ci(text: &str) -> Vec<CiRow> {
    let rows = ci_rows(text);
    for (i, r) in rows.iter().enumerate() {
        assert!(r.lo <= r.f1 && r.f1 <= r.hi, "interval misses F1: {r:?}");
        assert!(
            (0.0..=1.0).contains(&r.lo) && (0.0..=1.0).contains(&r.hi),
            "{r:?}"
        );
        let first = i == 0 || rows[i - 1].evaluation != r.evaluation;
        let last = rows.get(i + 1).is_none_or(|n| n.evaluation != r.evaluation);
        if first {
            assert!(r.shares_first && r.p_top == 1.0, "top row: {r:?}");
        }
        assert_eq!(r.p_next.is_none(), last, "{r:?}");
        for p in r.p_next.iter().chain([&r.p_top]) {
            assert!(*p > 0.0 && *p <= 1.0, "{r:?}");
        }
    }
    rows
}

#[test]
fn marks_on_a_small_campaign() {
    let root = setup("ci-marks", "");
    let (code, err) = leaderboard(&root, "out", &["--bootstrap", "2000", "--seed", "7"], &[]);
    assert_eq!(code, 0, "{err}");
    let rankings = root.join("out/rankings");
    for kind in ["fuzzy", "strict"] {
        let name = format!("ranking-demo-en-coarse-micro-{kind}-all");
        let text = std::fs::read_to_string(rankings.join(format!("{name}.ci.tsv"))).unwrap();
        let rows = check_ci(&text);
        // alpha, gamma and zeta are ranked; beta equals alpha and is folded into it.
        let systems: Vec<&str> = rows.iter().map(|r| r.system.as_str()).collect();
        assert_eq!(
            systems,
            [
                "alpha_bundle4_demo_en_1",
                "gamma_bundle4_demo_en_1",
                "zeta_bundle4_demo_en_1"
            ],
            "{kind}"
        );
        let (alpha, gamma, zeta) = (&rows[0], &rows[1], &rows[2]);
        assert!(
            alpha.f1 > gamma.f1 && gamma.f1 > 0.0 && zeta.f1 == 0.0,
            "{rows:?}"
        );
        assert!(!zeta.shares_first && zeta.p_top < 0.001, "{zeta:?}");
        assert_eq!((zeta.lo, zeta.hi), (0.0, 0.0));
        // The second row's test against the top is the top's test against the next.
        assert_eq!(Some(gamma.p_top), alpha.p_next);
        assert!(alpha.hi - alpha.lo > 0.0, "{alpha:?}");
        // The ranking file lists the same rows in the same order.
        let ranking = std::fs::read_to_string(rankings.join(format!("{name}.tsv"))).unwrap();
        let listed: Vec<&str> = ranking
            .lines()
            .skip(1)
            .filter(|l| l.split('\t').nth(2) == Some("ALL"))
            .map(|l| l.split('\t').next().unwrap_or(""))
            .collect();
        assert_eq!(listed, systems, "{kind}");
        let all_lines = ranking
            .lines()
            .filter(|l| l.split('\t').nth(2) == Some("ALL"));
        for (r, line) in rows.iter().zip(all_lines) {
            let f1: f64 = line.split('\t').nth(5).unwrap().parse().unwrap();
            assert!((r.f1 - f1).abs() <= 0.0005 + 1e-12, "{r:?} vs {line}");
        }
    }
    // The duplicate shares the top run's marks: it is folded into it, with a note.
    let md = std::fs::read_to_string(root.join("out/leaderboard.md")).unwrap();
    assert!(
        md.contains("beta_bundle4_demo_en_1: same results as alpha_bundle4_demo_en_1"),
        "{md}"
    );
    assert!(md.contains("| F1 CI | p next | p top | 1st |"), "{md}");
    assert!(md.contains("2000 resamples, seed 7"), "{md}");
    let top = md
        .lines()
        .find(|l| l.starts_with("| 1 | alpha"))
        .unwrap_or_default();
    assert!(top.ends_with("| – | =1 |"), "{top}");
    let last = md
        .lines()
        .find(|l| l.contains("| zeta"))
        .unwrap_or_default();
    assert!(last.ends_with("| \\<0.001 |  |"), "{last}");
    let html = std::fs::read_to_string(root.join("out/index.html")).unwrap();
    assert!(html.contains("<th>F1 CI</th>") && html.contains("vector-effect"));
    assert!(html.contains("class=\"first\""));
    // The published page and file explain the resampling themselves: their readers do not
    // have the project's docs/statistics.md.
    for text in [&md, &html] {
        assert!(!text.contains("docs/statistics.md"));
        assert!(text.contains("documents of the test set are what is resampled"));
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn same_seed_same_bytes_for_one_and_two_threads() {
    let root = setup("ci-threads", "bootstrap = 3000\nbootstrap_seed = 11\n");
    let mut outs = Vec::new();
    for n in ["1", "2"] {
        let out = format!("out{n}");
        let (code, err) = leaderboard(&root, &out, &["--threads", n], &[("RAYON_NUM_THREADS", n)]);
        assert_eq!(code, 0, "{err}");
        outs.push(files(&root.join(out)));
    }
    assert_eq!(
        outs[0].keys().collect::<Vec<_>>(),
        outs[1].keys().collect::<Vec<_>>()
    );
    assert!(outs[0].keys().any(|k| k.ends_with(".ci.tsv")));
    for (k, v) in &outs[0] {
        assert!(outs[1][k] == *v, "{k} differs between 1 and 2 threads");
    }
    // Another seed gives other intervals.
    let (code, err) = leaderboard(&root, "out3", &["--seed", "12"], &[]);
    assert_eq!(code, 0, "{err}");
    let other = files(&root.join("out3"));
    let ci = "rankings/ranking-demo-en-coarse-micro-fuzzy-all.ci.tsv";
    assert_ne!(other[ci], outs[0][ci]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn official_outputs_do_not_change_with_bootstrap() {
    let root = setup("ci-official", "");
    let (code, err) = leaderboard(&root, "plain", &[], &[]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = leaderboard(&root, "boot", &["--bootstrap", "500"], &[]);
    assert_eq!(code, 0, "{err}");
    let (plain, boot) = (files(&root.join("plain")), files(&root.join("boot")));
    assert!(!plain.keys().any(|k| k.ends_with(".ci.tsv")));
    let plain_md = String::from_utf8_lossy(&plain["leaderboard.md"]).into_owned();
    assert!(!plain_md.contains("F1 CI") && !plain_md.contains("resamples"));
    let mut compared = 0;
    for (k, v) in &plain {
        if k == "leaderboard.md" || k == "leaderboard.tex" || k == "index.html" {
            assert_ne!(boot[k], *v, "{k} shows no marks");
            continue;
        }
        assert!(boot[k] == *v, "{k} changed with --bootstrap");
        compared += 1;
    }
    assert!(compared >= 10, "{compared}");
    let extra: Vec<&String> = boot.keys().filter(|k| !plain.contains_key(*k)).collect();
    assert_eq!(
        extra,
        [
            "rankings/ranking-demo-en-coarse-micro-fuzzy-all.ci.tsv",
            "rankings/ranking-demo-en-coarse-micro-strict-all.ci.tsv"
        ]
    );
    // Without bootstrap again, into the same directory: the .ci.tsv files are gone and every
    // output is as it was.
    let (code, err) = leaderboard(&root, "boot", &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(files(&root.join("boot")) == plain);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn bad_settings_are_refused() {
    for (bootstrap, line, what) in [
        ("bootstrap = 0\n", 5, "at least 1 resample"),
        (
            "bootstrap = 100\nbootstrap_confidence = 1.5\n",
            6,
            "strictly between",
        ),
        ("bootstrap_seed = 3\n", 5, "goes with bootstrap"),
    ] {
        let root = setup("ci-bad", bootstrap);
        let (code, err) = leaderboard(&root, "out", &[], &[]);
        assert_eq!(code, 3, "{bootstrap}: {err}");
        assert!(err.contains(&format!("campaign.toml:{line}:")), "{err}");
        assert!(err.contains(what), "{err}");
    }
    let root = setup("ci-bad", "");
    for (args, what) in [
        (&["--seed", "3"][..], "--seed goes with --bootstrap"),
        (
            &["--bootstrap", "10", "--confidence", "0"][..],
            "--confidence",
        ),
        (&["--bootstrap", "10", "--replay", "x"][..], "--replay"),
    ] {
        let (code, err) = leaderboard(&root, "out", args, &[]);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(what), "{err}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The HIPE-2022 campaign with 1,000 resamples: every label-ALL micro row of every ranking
/// file has its marks, in the ranking's order, with an interval that contains its F1; every
/// other output is byte for byte that of the leaderboard without bootstrap.
#[test]
fn hipe2022_rankings_get_marks() {
    let Some(data) = shared_data("hipe2022_rankings_get_marks") else {
        return;
    };
    let data = data.join("hipe2022");
    let root = temp_dir("ci-hipe2022");
    let (out, plain) = (root.join("boot"), root.join("plain"));
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let (gold, runs, res) = (
        s(&data.join("gold")),
        s(&data.join("submissions")),
        s(&data.join("resources")),
    );
    for (dir, extra) in [(&out, &["--bootstrap", "1000"][..]), (&plain, &[][..])] {
        let outdir = s(dir);
        let mut args = vec![
            "leaderboard",
            "--quiet",
            "--gold-dir",
            &gold,
            "--runs-dir",
            &runs,
            "--resources",
            &res,
            "--outdir",
            &outdir,
        ];
        args.extend_from_slice(extra);
        let o = fairscore_env(&args, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let (with, without) = (files(&out), files(&plain));
    let mut same = 0;
    for (k, v) in &without {
        if k != "leaderboard.md" && k != "leaderboard.tex" && k != "index.html" {
            assert!(with[k] == *v, "{k} changed with --bootstrap");
            same += 1;
        }
    }
    assert!(same > 100, "{same}");
    let mut tops = 0;
    for (name, bytes) in files(&out.join("rankings")) {
        let Some(stem) = name.strip_suffix(".ci.tsv") else {
            continue;
        };
        let rows = check_ci(&String::from_utf8_lossy(&bytes));
        let ranking =
            std::fs::read_to_string(out.join("rankings").join(format!("{stem}.tsv"))).unwrap();
        let ranked: Vec<(String, String)> = ranking
            .lines()
            .skip(1)
            .map(|l| l.split('\t').map(str::to_string).collect::<Vec<_>>())
            .filter(|c| c[2] == "ALL" && c[1].contains("-micro-"))
            .map(|c| (c[0].clone(), c[1].clone()))
            .collect();
        let mut by_eval: Vec<(String, String)> = rows
            .iter()
            .map(|r| (r.system.clone(), r.evaluation.clone()))
            .collect();
        // The .ci.tsv groups a file's rows by Evaluation; the ranking may interleave them.
        let mut want = ranked.clone();
        want.sort_by(|a, b| a.1.cmp(&b.1));
        by_eval.sort_by(|a, b| a.1.cmp(&b.1));
        assert_eq!(by_eval, want, "{name}");
        tops += rows
            .iter()
            .filter(|r| r.p_top == 1.0 && r.shares_first)
            .count();
    }
    assert!(tops >= 20, "{tops}");
    let _ = std::fs::remove_dir_all(&root);
}
