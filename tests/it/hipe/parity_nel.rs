//! Parity of `fairscore score --task nel` and `fairscore normalize` with the official HIPE
//! scorer on real data (../shared): HIPE-2022 plain and relaxed NEL files, and the NEL cases
//! of the HIPE-2020 synthetic runs, normalized runs made by `fairscore normalize`.

use super::runs::runs_with;
use crate::common::*;

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn map_for(dataset: &str) -> &'static str {
    if dataset == "ajmc" {
        "hipe2022/resources/ajmc-alternatives-QID-mapping-ID-mapping.tsv"
    } else {
        "hipe2022/resources/historico-fuzzy-QID-mapping-ID-mapping.tsv"
    }
}

#[test]
fn hipe2022_official_nel_outputs_are_reproduced() {
    let Some(data) = shared_data("hipe2022_official_nel_outputs_are_reproduced") else {
        return;
    };
    let official = data.join("hipe2022/official");
    let out = temp_dir("parity2022nel");
    let norm = temp_dir("parity2022nel_norm");
    let mut parity = Parity::default();
    let mut relaxed_one_step = 0;
    for run in runs_with(&official, "_nel.tsv") {
        let p: Vec<&str> = run.split('_').collect();
        let gold = format!("hipe2022/gold/HIPE-2022-v2.1-{}-test-{}.tsv", p[2], p[3]);
        let pred = format!("hipe2022/submissions/{run}.tsv");
        let args = s(&[
            "--ref",
            &gold,
            "--pred",
            &pred,
            "--task",
            "nel",
            "--tagset",
            "hipe2022/resources/tagset-hipe2022-all.txt",
            "--hipe_edition",
            "hipe-2022",
        ]);
        parity.record("", run_case(&args, &data, &out, &official));
    }
    for run in runs_with(&official, "_nel_relaxed.tsv") {
        let p: Vec<&str> = run.split('_').collect();
        let gold = format!(
            "hipe2022/gold/HIPE-2022-v2.1-{}-test-{}_histonorm.tsv",
            p[2], p[3]
        );
        // Step 1: our own normalization of the run.
        let normalized = norm.join(format!("{run}.tsv"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
            .current_dir(&data)
            .args([
                "normalize",
                "-i",
                &format!("hipe2022/submissions/{run}.tsv"),
                "-o",
                normalized.to_str().unwrap(),
                "--norm-time",
                "--norm-histo",
                "-m",
                map_for(p[2]),
                "-e",
                "hipe-2022",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // Step 2: score it.
        let args = s(&[
            "--ref",
            &gold,
            "--pred",
            normalized.to_str().unwrap(),
            "--task",
            "nel",
            "--suffix",
            "relaxed",
            "--n_best",
            "1,3,5",
            "--tagset",
            "hipe2022/resources/tagset-hipe2022-all.txt",
            "--hipe_edition",
            "hipe-2022",
        ]);
        parity.record("", run_case(&args, &data, &out, &official));
        // One step: `--relaxed MAP` against the plain gold gives the same files as normalizing
        // gold (--norm-histo) and run (--norm-time --norm-histo) ourselves and scoring.
        let plain_gold = format!("hipe2022/gold/HIPE-2022-v2.1-{}-test-{}.tsv", p[2], p[3]);
        let our_gold = norm.join(format!("gold_{run}.tsv"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
            .current_dir(&data)
            .args([
                "normalize",
                "-i",
                &plain_gold,
                "-o",
                our_gold.to_str().unwrap(),
                "--norm-histo",
                "-m",
                map_for(p[2]),
                "-e",
                "hipe-2022",
            ])
            .output()
            .unwrap();
        assert!(o.status.success());
        let two_step = temp_dir("parity2022nel_two_step");
        let args = s(&[
            "--ref",
            our_gold.to_str().unwrap(),
            "--pred",
            normalized.to_str().unwrap(),
            "--task",
            "nel",
            "--suffix",
            "relaxed",
            "--n_best",
            "1,3,5",
            "--hipe_edition",
            "hipe-2022",
        ]);
        let mut full = vec!["score".to_string()];
        full.extend(args);
        full.extend(s(&["--outdir", two_step.to_str().unwrap()]));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
            .current_dir(&data)
            .args(&full)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let args = s(&[
            "--ref",
            &plain_gold,
            "--pred",
            &format!("hipe2022/submissions/{run}.tsv"),
            "--task",
            "nel",
            "--relaxed",
            map_for(p[2]),
            "--n_best",
            "1,3,5",
            "--hipe_edition",
            "hipe-2022",
        ]);
        match run_case(&args, &data, &out, &two_step) {
            Ok((2, 2)) => relaxed_one_step += 1,
            Ok(other) => parity
                .failures
                .push(format!("--relaxed {run}: {other:?} files/identical")),
            Err(e) => parity.failures.push(format!("--relaxed {run}: {e}")),
        }
    }
    parity.finish("hipe2022 NEL");
    assert_eq!(parity.files, 48, "24 plain and 24 relaxed official files");
    assert_eq!(
        relaxed_one_step, 12,
        "one-step --relaxed checked for every relaxed run"
    );
}

/// `normalize --norm-time --norm-histo` of a HIPE-2022 run with the map `map`; must succeed.
fn normalize_histo(input: &std::path::Path, output: &std::path::Path, map: &std::path::Path) {
    let o = fairscore(&[
        "normalize",
        "-i",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
        "--norm-time",
        "--norm-histo",
        "-m",
        map.to_str().unwrap(),
        "-e",
        "hipe-2022",
    ]);
    assert!(
        o.status.success(),
        "normalize {}: {}",
        input.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `normalize` writes the official normalized runs byte for byte, pandas' padding of blank,
/// comment and short lines to the header's width included.
#[test]
fn normalized_runs_are_byte_identical_to_the_official_ones() {
    let Some(data) = shared_data("normalized_runs_are_byte_identical_to_the_official_ones") else {
        return;
    };
    let d = data.join("hipe2022");
    let out = temp_dir("histonorm_bytes");
    let mut n = 0;
    for e in std::fs::read_dir(d.join("histonorm-submissions"))
        .unwrap()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        let dataset = name.split('_').nth(2).unwrap().to_string();
        let ours = out.join(&name);
        normalize_histo(
            &d.join("submissions").join(&name),
            &ours,
            &data.join(map_for(&dataset)),
        );
        let (a, b) = (
            std::fs::read(&ours).unwrap(),
            std::fs::read(e.path()).unwrap(),
        );
        if a != b {
            let first = a
                .iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            let line = 1 + a[..first].iter().filter(|&&c| c == b'\n').count();
            panic!("{name}: differs from the official normalized run at line {line}");
        }
        n += 1;
    }
    assert_eq!(n, 12, "the 12 official normalized runs");
}

#[test]
fn official_and_own_normalized_runs_score_the_same() {
    let Some(data) = shared_data("official_and_own_normalized_runs_score_the_same") else {
        return;
    };
    let d = data.join("hipe2022");
    let norm = temp_dir("histonorm_equiv");
    let runs = runs_with(&d.join("histonorm-submissions"), ".tsv");
    assert!(!runs.is_empty());
    for run in &runs {
        let p: Vec<&str> = run.split('_').collect();
        let ours = norm.join(format!("{run}.tsv"));
        normalize_histo(
            &d.join(format!("submissions/{run}.tsv")),
            &ours,
            &data.join(map_for(p[2])),
        );
        let gold = d.join(format!(
            "gold/HIPE-2022-v2.1-{}-test-{}_histonorm.tsv",
            p[2], p[3]
        ));
        let score = |pred: &std::path::Path, outdir: &std::path::Path| {
            std::fs::create_dir_all(outdir).unwrap();
            let o = fairscore(&[
                "score",
                "--ref",
                gold.to_str().unwrap(),
                "--pred",
                pred.to_str().unwrap(),
                "--task",
                "nel",
                "--n_best",
                "1,3,5",
                "--hipe_edition",
                "hipe-2022",
                "--outdir",
                outdir.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            std::fs::read_to_string(outdir.join(format!("{run}_nel.json"))).unwrap()
        };
        let a = score(
            &d.join(format!("histonorm-submissions/{run}.tsv")),
            &norm.join("a"),
        );
        let b = score(&ours, &norm.join("b"));
        assert_eq!(
            a, b,
            "{run}: official and own normalization score differently"
        );
    }
}

#[test]
fn hipe2020_synth_nel_cases_are_reproduced() {
    let Some(data) = shared_data("hipe2020_synth_nel_cases_are_reproduced") else {
        return;
    };
    let base = data.join("hipe2020-synth");
    let work = temp_dir("parity2020nel");
    let out = work.join("out");
    std::fs::create_dir_all(work.join("normalized")).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    // Our own normalized runs, at the paths commands.txt names (relative to `work`).
    let map = data.join("hipe2022/resources/historico-fuzzy-QID-mapping-ID-mapping.tsv");
    for i in 1..=4 {
        let run = format!("synth{i}_bundle1_de_1");
        let input = base.join(format!("submissions/{run}.tsv"));
        let o = fairscore(&[
            "normalize",
            "-i",
            input.to_str().unwrap(),
            "-o",
            work.join(format!("normalized/{run}_union.tsv"))
                .to_str()
                .unwrap(),
            "--union-meto-lit",
        ]);
        assert!(o.status.success());
        let o = fairscore(&[
            "normalize",
            "-i",
            input.to_str().unwrap(),
            "-o",
            work.join(format!("normalized/{run}.tsv")).to_str().unwrap(),
            "--norm-time",
            "--norm-histo",
            "--map",
            map.to_str().unwrap(),
        ]);
        assert!(o.status.success());
    }
    // Gold and submissions are read from the shared folder, normalized runs from `work`.
    let abs = |a: &String| -> String {
        if a.starts_with("gold/") || a.starts_with("submissions/") {
            base.join(a).to_string_lossy().into_owned()
        } else {
            a.clone()
        }
    };
    let cases = synth_commands(
        &data,
        &[
            "nel",
            "nel_original",
            "nel_breakdown",
            "nel_union",
            "nel_relaxed",
        ],
    );
    assert_eq!(cases.len(), 20);
    let mut parity = Parity::default();
    for (kind, args) in &cases {
        let args: Vec<String> = args.iter().map(abs).collect();
        parity.record(kind, run_case(&args, &work, &out, &base.join("official")));
    }
    parity.finish("hipe2020-synth NEL");
    assert_eq!(parity.files, 40);
}
