//! CoNLL input gives the same entity counts as HIPE input: every HIPE-2022 NERC run in
//! ../shared and its gold are written as CoNLL (token and NE-COARSE-LIT tag, one `-DOCSTART-`
//! block per document, no sentence breaks inside a document), then `score --format conll` must
//! give the strict, partial, exact and ent_type micro counts of `score` on the HIPE files, and
//! `fair --format conll` the traditional counts of `fair --format hipe`.

use fairscore::corpus::{Corpus, ReadOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The CoNLL text of a parsed HIPE file: `TOKEN TAG` lines, a `-DOCSTART-` line per document.
/// White space inside a token becomes `_` (CoNLL cells cannot hold it).
fn to_conll(c: &Corpus, col: usize) -> String {
    let mut out = String::new();
    for d in &c.docs {
        out.push_str("-DOCSTART- O\n\n");
        for t in d.range() {
            let tok: String = c
                .token_text(t)
                .chars()
                .map(|ch| if ch.is_whitespace() { '_' } else { ch })
                .collect();
            let tok = if tok.is_empty() { "_".to_string() } else { tok };
            let tag = match c.cell(t, col) {
                "_" | "-" | "" => "O",
                other => other,
            };
            out.push_str(&format!("{tok} {tag}\n"));
        }
        out.push('\n');
    }
    out
}

fn write_conll(src: &Path, dst: &Path) {
    let c = fairscore::formats::hipe::read(src, &ReadOptions::default()).expect("read HIPE");
    let col = c.column("NE-COARSE-LIT").expect("NE-COARSE-LIT column");
    std::fs::write(dst, to_conll(&c, col)).expect("write CoNLL");
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read JSON")).expect("parse JSON")
}

/// (regime, correct, incorrect, partial, missed, spurious) of the ALL block of a score JSON.
fn counts(v: &Value, column: &str) -> Vec<(String, Vec<u64>)> {
    let all = &v[column]["TIME-ALL"]["LED-ALL"]["ALL"];
    ["strict", "partial", "exact", "ent_type"]
        .iter()
        .map(|r| {
            let b = &all[*r];
            let vals = ["correct", "incorrect", "partial", "missed", "spurious"]
                .iter()
                .map(|k| b[*k].as_u64().unwrap_or(u64::MAX))
                .collect();
            (r.to_string(), vals)
        })
        .collect()
}

fn gold_for(data: &Path, run: &str) -> Option<PathBuf> {
    let parts: Vec<&str> = run.trim_end_matches(".tsv").split('_').collect();
    if parts.len() != 5 {
        return None;
    }
    let g = data.join(format!(
        "hipe2022/gold/HIPE-2022-v2.1-{}-test-{}.tsv",
        parts[2], parts[3]
    ));
    g.is_file().then_some(g)
}

#[test]
fn conll_input_gives_the_hipe_counts() {
    let Some(data) = crate::common::shared_data("conll_parity") else {
        return;
    };
    let tmp = crate::common::temp_dir("conll_parity");
    let mut runs: Vec<String> = std::fs::read_dir(data.join("hipe2022/submissions"))
        .expect("submissions")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tsv") && !n.contains("_bundle5_"))
        .collect();
    runs.sort();
    let (mut same_score, mut same_fair, mut total) = (0, 0, 0);
    let mut failures = Vec::new();
    for run in &runs {
        let Some(gold) = gold_for(&data, run) else {
            continue;
        };
        total += 1;
        let pred = data.join("hipe2022/submissions").join(run);
        let dir = tmp.join(run.trim_end_matches(".tsv"));
        std::fs::create_dir_all(&dir).expect("dir");
        let (gc, pc) = (dir.join("gold.conll"), dir.join("run.conll"));
        write_conll(&gold, &gc);
        write_conll(&pred, &pc);
        let (hipe_out, conll_out) = (dir.join("hipe"), dir.join("conll"));
        let a = crate::common::fairscore(&[
            "score",
            "--ref",
            gold.to_str().unwrap_or_default(),
            "--pred",
            pred.to_str().unwrap_or_default(),
            "-t",
            "nerc_coarse",
            "-e",
            "hipe-2022",
            "-o",
            hipe_out.to_str().unwrap_or_default(),
        ]);
        let b = crate::common::fairscore(&[
            "score",
            "--ref",
            gc.to_str().unwrap_or_default(),
            "--pred",
            pc.to_str().unwrap_or_default(),
            "-t",
            "nerc_coarse",
            "--format",
            "conll",
            "-o",
            conll_out.to_str().unwrap_or_default(),
        ]);
        assert!(
            a.status.success() && b.status.success(),
            "{run}: {a:?} {b:?}"
        );
        let ja = json(&hipe_out.join(run.replace(".tsv", "_nerc_coarse.json")));
        let jb = json(&conll_out.join("run_nerc_coarse.json"));
        let (ca, cb) = (counts(&ja, "NE-COARSE-LIT"), counts(&jb, "TAG"));
        assert!(
            ca.iter().all(|(_, v)| !v.contains(&u64::MAX)),
            "{run}: {ca:?}"
        );
        if ca == cb {
            same_score += 1;
        } else {
            failures.push(format!("{run}: score hipe {ca:?} conll {cb:?}"));
        }

        let fair = |t: &Path, s: &Path, format: &str, out: &Path| {
            let o = crate::common::fairscore(&[
                "fair",
                "--target",
                t.to_str().unwrap_or_default(),
                "--system",
                s.to_str().unwrap_or_default(),
                "--format",
                format,
                "--json",
                out.to_str().unwrap_or_default(),
            ]);
            assert!(o.status.success(), "{run}: fair {format}: {o:?}");
            let v = json(out);
            ["TP", "FP", "FN"]
                .iter()
                .map(|k| crate::common::json_cell(&v, "traditional", &["ALL"], k).unwrap_or(-1.0))
                .collect::<Vec<f64>>()
        };
        let fa = fair(&gold, &pred, "hipe", &dir.join("fair_hipe.json"));
        let fb = fair(&gc, &pc, "conll", &dir.join("fair_conll.json"));
        assert!(fa.iter().all(|x| *x >= 0.0), "{run}: {fa:?}");
        if fa == fb {
            same_fair += 1;
        } else {
            failures.push(format!("{run}: fair hipe {fa:?} conll {fb:?}"));
        }
    }
    eprintln!("conll_parity: score {same_score}/{total}, fair {same_fair}/{total} runs with identical counts");
    assert!(
        total >= 31,
        "expected the 31 HIPE-2022 NERC runs, found {total}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
