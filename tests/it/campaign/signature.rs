//! Signatures (docs/signatures.md) and LaTeX tables: the same scoring gives the same
//! signature, any option or input byte changes it, it reads back field by field, every JSON
//! output carries it; `--table latex` and `leaderboard.tex` (family campaigns, the HIPE-2022
//! campaign) compile with pdflatex and hold the ranking files' numbers.

use super::fixtures::{compile, leaderboard, pdflatex};
use crate::common::{fairscore, segmented, temp_dir};
use fairscore::table::Signature;
use std::path::Path;

/// CoNLL NER of four documents; run `k` drops an entity in every k-th sentence.
fn conll(k: usize) -> String {
    let mut s = String::new();
    for d in 0..4usize {
        s.push_str("-DOCSTART- -X- O\n\n");
        for i in 0..3 {
            let n = d * 3 + i;
            let drop = k > 0 && n.is_multiple_of(k);
            let loc = if drop { "O" } else { "B-LOC" };
            s.push_str(&format!(
                "Anna B-PER\nSchmidt I-PER\nlebt O\nin O\nBerlin {loc}\nbei O\nSiemens B-ORG\n\n"
            ));
        }
    }
    s
}

fn tagged(k: usize) -> String {
    (0..20usize)
        .map(|i| {
            let noun = if k > 0 && i.is_multiple_of(k) {
                "NOUN:acc"
            } else {
                "NOUN:nom"
            };
            format!("zadanie\t{noun}\njest\tVERB\n\n")
        })
        .collect()
}

fn run(args: &[&str]) -> String {
    let o = fairscore(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `--signature` of `evaluate` with `extra` flags.
fn signature(gold: &Path, pred: &Path, extra: &[&str]) -> String {
    let (g, p) = (gold.display().to_string(), pred.display().to_string());
    let mut args = vec!["evaluate", "--gold", &g, "--pred", &p, "--signature"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--family") {
        args.extend(["--family", "spans"]);
    }
    let out = run(&args);
    assert_eq!(out.lines().count(), 1, "{out}");
    out.trim_end().to_string()
}

#[test]
fn the_signature_is_stable_and_every_option_and_byte_changes_it() {
    let dir = temp_dir("signature_options");
    let (gold, pred) = (dir.join("gold.conll"), dir.join("run.conll"));
    std::fs::write(&gold, conll(0)).unwrap();
    std::fs::write(&pred, conll(2)).unwrap();
    let base_flags = ["--bootstrap", "50", "--seed", "1"];
    let base = signature(&gold, &pred, &base_flags);
    assert_eq!(base, signature(&gold, &pred, &base_flags));
    let sig = Signature::parse(&base).unwrap();
    assert_eq!(sig.to_string(), base);
    assert_eq!(sig.get("family"), Some("spans"));
    assert_eq!(sig.get("regimes"), Some("strict,ent_type,partial,exact"));
    assert_eq!(sig.get("n"), Some("50"));
    assert_eq!(sig.get("seed"), Some("1"));
    assert_eq!(sig.get("conf"), Some("0.95"));
    assert_eq!(sig.get("resample-unit"), Some("document"));
    assert_eq!(sig.get("beta"), Some("1"));
    assert_eq!(sig.get("version"), Some(env!("CARGO_PKG_VERSION")));
    assert_eq!(sig.get("gold").map(str::len), Some(8));
    let mut seen = vec![base.clone()];
    let variants: [&[&str]; 8] = [
        &["--bootstrap", "50", "--seed", "1", "--beta", "2"],
        &["--bootstrap", "50", "--seed", "1", "--regimes", "strict"],
        &["--bootstrap", "50", "--seed", "1", "--format", "conll"],
        &["--bootstrap", "50", "--seed", "2"],
        &["--bootstrap", "60", "--seed", "1"],
        &["--bootstrap", "50", "--seed", "1", "--confidence", "0.9"],
        &[],
        &["--family", "fair", "--continuation", "reference"],
    ];
    for v in variants {
        let s = signature(&gold, &pred, v);
        assert!(!seen.contains(&s), "{v:?}: {s}");
        seen.push(s);
    }
    // One byte of the gold, then of the run.
    for (file, text) in [(&gold, conll(0)), (&pred, conll(2))] {
        std::fs::write(file, text.replacen("lebt", "lebT", 1)).unwrap();
        let s = signature(&gold, &pred, &base_flags);
        assert!(!seen.contains(&s), "{s}");
        seen.push(s);
        std::fs::write(file, text).unwrap();
    }
    assert_eq!(signature(&gold, &pred, &base_flags), base);
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// The two keys every JSON output has, agreeing with each other.
fn check_signed(v: &serde_json::Value, family: &str, what: &str) {
    let text = v["signature"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: {v}"));
    let sig = Signature::parse(text).unwrap();
    assert_eq!(sig.get("family"), Some(family), "{what}");
    let fields = v["signature_fields"].as_object().unwrap();
    assert_eq!(fields.len(), sig.fields().len(), "{what}");
    for (n, val) in sig.fields() {
        assert_eq!(fields[n].as_str(), Some(val.as_str()), "{what}: {n}");
    }
}

#[test]
fn every_json_output_carries_its_signature() {
    let dir = temp_dir("signature_json");
    let files = [
        ("gold.conll", conll(0)),
        ("a.conll", conll(2)),
        ("b.conll", conll(3)),
        ("gold.txt", segmented(0)),
        ("a.txt", segmented(3)),
        ("gold.tsv", tagged(0)),
        ("a.tsv", tagged(3)),
    ];
    for (n, t) in &files {
        std::fs::write(dir.join(n), t).unwrap();
    }
    let p = |n: &str| dir.join(n).display().to_string();
    let (g, a, b) = (p("gold.conll"), p("a.conll"), p("b.conll"));
    let table = run(&[
        "evaluate", "--family", "spans", "--gold", &g, "--pred", &a, "--table", "json",
    ]);
    let v = json(&table);
    check_signed(&v, "spans", "evaluate --table json");
    let alone = run(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &a,
        "--signature",
    ]);
    assert_eq!(v["signature"].as_str(), Some(alone.trim_end()));
    let text = run(&["evaluate", "--family", "spans", "--gold", &g, "--pred", &a]);
    assert_eq!(
        text.lines().last(),
        Some(format!("signature: {}", alone.trim_end()).as_str())
    );
    for (cmd, family, gold, pred, extra) in [
        ("fair", "fair", &g, &a, &["--format", "conll"][..]),
        ("muc", "muc", &g, &a, &["--format", "conll"][..]),
        (
            "segmentation",
            "segmentation",
            &p("gold.txt"),
            &p("a.txt"),
            &[][..],
        ),
        (
            "tagging",
            "tagging",
            &p("gold.tsv"),
            &p("a.tsv"),
            &["--format", "tsv"][..],
        ),
    ] {
        let mut args = vec![cmd, "--gold", gold, "--pred", pred, "--json"];
        args.extend_from_slice(extra);
        check_signed(&json(&run(&args)), family, cmd);
        // The family table of the same command too.
        let mut args = vec![cmd, "--gold", gold, "--pred", pred, "--table", "json"];
        args.extend_from_slice(extra);
        check_signed(&json(&run(&args)), family, cmd);
    }
    let cmp = run(&[
        "compare",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &a,
        "--pred",
        &b,
        "--bootstrap",
        "200",
        "--json",
    ]);
    let v = json(&cmp);
    check_signed(&v, "spans", "compare");
    let sig = Signature::parse(v["signature"].as_str().unwrap()).unwrap();
    assert_eq!(sig.get("test"), Some("permutation"));
    assert_eq!(sig.get("run").map(|r| r.split(',').count()), Some(2));
    let alone = run(&[
        "compare",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &a,
        "--pred",
        &b,
        "--bootstrap",
        "200",
        "--signature",
    ]);
    assert_eq!(v["signature"].as_str(), Some(alone.trim_end()));
}

/// The body rows of a LaTeX document: cells of lines ending in `\\` (headers included).
fn tex_rows(tex: &str) -> Vec<Vec<String>> {
    tex.lines()
        .filter_map(|l| l.strip_suffix(" \\\\"))
        .map(|l| {
            l.split(" & ")
                .map(|c| {
                    c.replace("$^\\dagger$", "")
                        .replace("\\textbf{", "")
                        .replace('}', "")
                        .replace("\\_", "_")
                })
                .collect()
        })
        .collect()
}

#[test]
fn latex_tables_compile_with_escapes_bold_and_intervals() {
    let dir = temp_dir("signature_latex");
    let (gold, pred) = (dir.join("gold_&_%.conll"), dir.join("run#1.conll"));
    std::fs::write(&gold, conll(0)).unwrap();
    std::fs::write(&pred, conll(2)).unwrap();
    let (g, p) = (gold.display().to_string(), pred.display().to_string());
    let tex = run(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &p,
        "--bootstrap",
        "100",
        "--table",
        "latex",
    ]);
    assert!(
        tex.contains("\\toprule") && tex.contains("\\bottomrule"),
        "{tex}"
    );
    assert!(
        tex.contains("\\textbf{") && tex.contains("{\\scriptsize ["),
        "{tex}"
    );
    assert!(tex.contains("Signature: \\texttt{fairscore"), "{tex}");
    if !pdflatex("latex_tables_compile_with_escapes_bold_and_intervals") {
        return;
    }
    let file = dir.join("table.tex");
    std::fs::write(&file, tex).unwrap();
    compile(&file);
}

#[test]
fn family_campaign_leaderboard_tex_compiles_and_holds_the_rankings() {
    let dir = temp_dir("signature_family_campaign");
    let (gold, runs, out) = (dir.join("gold"), dir.join("runs"), dir.join("out"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(gold.join("test.conll"), conll(0)).unwrap();
    std::fs::write(gold.join("test.txt"), segmented(0)).unwrap();
    std::fs::write(gold.join("test.tsv"), tagged(0)).unwrap();
    for (k, name) in ["alpha_1", "beta_x_2", "gamma_3"].iter().enumerate() {
        std::fs::write(runs.join(format!("{name}.conll")), conll(k + 2)).unwrap();
        std::fs::write(runs.join(format!("{name}.txt")), segmented(k + 2)).unwrap();
        std::fs::write(runs.join(format!("{name}.tsv")), tagged(k + 2)).unwrap();
    }
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        crate::common::five_family_campaign("latex_&_signatures #1", None),
    )
    .unwrap();
    leaderboard(
        &campaign,
        &gold,
        &runs,
        &out,
        &["--quiet", "--bootstrap", "100"],
    );
    let board = json(&std::fs::read_to_string(out.join("leaderboard.json")).unwrap());
    let tables = board["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 5);
    for t in tables {
        check_signed(t, t["family"].as_str().unwrap(), "leaderboard.json");
        assert_eq!(t["signature_fields"]["runs"], "3");
        for r in t["rows"].as_array().unwrap() {
            assert_eq!(r["run_hash"].as_str().map(str::len), Some(8), "{r}");
        }
    }
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    assert!(
        md.contains("Signature: `fairscore|family:segmentation|"),
        "{md}"
    );
    let tex = std::fs::read_to_string(out.join("leaderboard.tex")).unwrap();
    let rows = tex_rows(&tex);
    // Every ranked run of every task: its rank and headline value as the TSV gives them.
    for task in ["ner", "fair", "muc", "seg", "tags"] {
        let tsv = std::fs::read_to_string(out.join(format!("rankings/{task}.tsv"))).unwrap();
        for line in tsv.lines().skip(1) {
            let c: Vec<&str> = line.split('\t').collect();
            let value = format!("{:.3}", c[2].parse::<f64>().unwrap());
            let found = rows
                .iter()
                .any(|r| r.len() > 2 && r[0] == c[0] && r[1] == c[1] && r[2..].contains(&value));
            assert!(found, "{task}: {line} not in leaderboard.tex");
        }
    }
    assert!(tex.contains("$^\\dagger$") && tex.contains("shares first place"));
    if !pdflatex("family_campaign_leaderboard_tex_compiles_and_holds_the_rankings") {
        return;
    }
    compile(&out.join("leaderboard.tex"));
}

#[test]
fn hipe_campaign_leaderboard_tex_compiles_and_holds_the_rankings() {
    let Some(data) = crate::common::shared_data("signature") else {
        return;
    };
    let data = data.join("hipe2022");
    let out = temp_dir("signature_hipe");
    run(&[
        "leaderboard",
        "--quiet",
        "--gold-dir",
        data.join("gold").to_str().unwrap(),
        "--runs-dir",
        data.join("submissions").to_str().unwrap(),
        "--resources",
        data.join("resources").to_str().unwrap(),
        "--outdir",
        out.to_str().unwrap(),
    ]);
    // The official rankings are untouched (leaderboard_official checks them byte for byte).
    for entry in std::fs::read_dir(data.join("rankings")).unwrap() {
        let e = entry.unwrap();
        let ours = std::fs::read_to_string(out.join("rankings").join(e.file_name())).unwrap();
        assert!(!ours.contains("fairscore|"), "{:?}", e.file_name());
    }
    let tex = std::fs::read_to_string(out.join("leaderboard.tex")).unwrap();
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    let sig = md
        .lines()
        .find_map(|l| l.strip_prefix("Signature: `"))
        .and_then(|l| l.strip_suffix('`'))
        .expect("leaderboard.md has the signature");
    let sig = Signature::parse(sig).unwrap();
    assert_eq!(sig.get("family"), Some("hipe"));
    assert_eq!(sig.get("edition"), Some("hipe-2022"));
    // Every row of leaderboard.tex is a label-ALL row of a ranking file: P, R, F1 as there.
    let mut all = std::collections::HashSet::new();
    for entry in std::fs::read_dir(out.join("rankings")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".tsv") || name.ends_with(".ci.tsv") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines().skip(1) {
            let c: Vec<&str> = line.split('\t').collect();
            if c.len() >= 6 && c[2] == "ALL" {
                let f = |s: &str| format!("{:.3}", s.parse::<f64>().unwrap());
                all.insert((c[0].to_string(), f(c[3]), f(c[4]), f(c[5])));
            }
        }
    }
    let rows: Vec<Vec<String>> = tex_rows(&tex)
        .into_iter()
        .filter(|r| r.len() >= 8 && r[0] != "\\#")
        .collect();
    assert!(rows.len() > 100, "{} rows", rows.len());
    for r in &rows {
        let key = (r[1].clone(), r[2].clone(), r[3].clone(), r[4].clone());
        assert!(all.contains(&key), "{r:?} is in no ranking file");
    }
    if !pdflatex("hipe_campaign_leaderboard_tex_compiles_and_holds_the_rankings") {
        return;
    }
    compile(&out.join("leaderboard.tex"));
}

/// `score --signature` prints the signature and writes nothing: the official outputs of a
/// scoring stay byte-identical to the official scorer's, with or without it; `compare
/// --signature` (HIPE runs) names both runs and the test.
#[test]
fn hipe_score_and_compare_signatures_leave_the_official_outputs_alone() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hipe2022-ajmc-en");
    let dir = temp_dir("signature_score");
    let gold = data
        .join("HIPE-2022-v2.1-ajmc-test-en.tsv")
        .display()
        .to_string();
    let run_a = data
        .join("team2_bundle1_ajmc_en_1.tsv")
        .display()
        .to_string();
    let run_b = data
        .join("neurbsl_bundle3_ajmc_en_1.tsv")
        .display()
        .to_string();
    let tagset = data.join("tagset-hipe2022-all.txt").display().to_string();
    let out = dir.display().to_string();
    let base = [
        "score",
        "--ref",
        &gold,
        "--pred",
        &run_a,
        "--task",
        "nerc_coarse",
        "--hipe_edition",
        "hipe-2022",
        "--tagset",
        &tagset,
        "--outdir",
        &out,
    ];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        run(&a)
    };
    let sig = with(&["--signature"]);
    assert_eq!(sig, with(&["--signature"]));
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "--signature wrote files"
    );
    let s = Signature::parse(sig.trim_end()).unwrap();
    assert_eq!(s.get("family"), Some("hipe"));
    assert_eq!(s.get("task"), Some("nerc_coarse"));
    assert_eq!(s.get("edition"), Some("hipe-2022"));
    assert_eq!(s.get("tagset").map(|t| t.starts_with("file-")), Some(true));
    assert_ne!(
        sig,
        with(&["--signature", "--n_best", "1", "--original_nel"])
    );
    with(&[]);
    for ext in ["tsv", "json"] {
        let name = format!("team2_bundle1_ajmc_en_1_nerc_coarse.{ext}");
        assert_eq!(
            std::fs::read(dir.join(&name)).unwrap(),
            std::fs::read(data.join("official").join(&name)).unwrap(),
            "{name}"
        );
    }
    let cmp = run(&[
        "compare",
        "--gold",
        &gold,
        "--pred",
        &run_a,
        "--pred",
        &run_b,
        "--hipe_edition",
        "hipe-2022",
        "--bootstrap",
        "100",
        "--signature",
    ]);
    let c = Signature::parse(cmp.trim_end()).unwrap();
    assert_eq!(c.get("test"), Some("permutation"));
    assert_eq!(c.get("n"), Some("100"));
    assert_eq!(c.get("run").map(|r| r.split(',').count()), Some(2));
}
