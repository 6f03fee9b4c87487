//! `fairscore check` on every real HIPE-2022 run in ../shared: none has an error (each was
//! scored officially), and the check reports what the official evaluation silently patched or
//! ignored, found here independently from the raw files: IOBES tags, tokens that differ from
//! the gold, rows starting with `#` that are read as comments.

/// Whether any token row of a raw run has an `S-`/`E-` tag in the coarse literal column.
fn has_iobes(run: &str) -> bool {
    run.lines().skip(1).any(|l| {
        let mut c = l.split('\t');
        let first = c.next().unwrap_or("");
        !first.starts_with('#')
            && c.next().is_some_and(|t| {
                t.to_uppercase().starts_with("S-") || t.to_uppercase().starts_with("E-")
            })
    })
}

/// Token texts of the token rows (what the scorer reads as tokens).
fn tokens(text: &str) -> Vec<&str> {
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap_or(""))
        .filter(|t| !t.is_empty() && !t.starts_with('#'))
        .collect()
}

#[test]
fn check_reports_what_the_official_evaluation_patched() {
    let Some(data) =
        crate::common::shared_data("check_reports_what_the_official_evaluation_patched")
    else {
        return;
    };
    let dir = data.join("hipe2022");
    let tagset = dir.join("resources/tagset-hipe2022-all.txt");
    let mut runs: Vec<_> = std::fs::read_dir(dir.join("submissions"))
        .expect("submissions")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    runs.sort();
    assert!(runs.len() >= 40, "only {} runs", runs.len());
    let (mut iobes_runs, mut mismatch_runs) = (0, 0);
    for run in &runs {
        let name = run.file_stem().unwrap().to_string_lossy().into_owned();
        let parts: Vec<&str> = name.split('_').collect();
        let gold = dir.join(format!(
            "gold/HIPE-2022-v2.1-{}-test-{}.tsv",
            parts[2], parts[3]
        ));
        let o = crate::common::fairscore(&[
            "check",
            "--ref",
            gold.to_str().unwrap(),
            "--pred",
            run.to_str().unwrap(),
            "--hipe_edition",
            "hipe-2022",
            "--tagset",
            tagset.to_str().unwrap(),
            "--json",
        ]);
        let code = o.status.code();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
            panic!(
                "{name}: not JSON ({e}): {}",
                String::from_utf8_lossy(&o.stderr)
            )
        });
        let findings = v["findings"].as_array().expect("findings");
        let codes: Vec<&str> = findings
            .iter()
            .map(|f| f["code"].as_str().unwrap())
            .collect();
        assert_eq!(v["errors"], 0, "{name}: {findings:#?}");
        // Exit status agrees with the verdict.
        let ok = v["ok"].as_bool().unwrap();
        assert_eq!(code, Some(if ok { 0 } else { 1 }), "{name}");
        assert_eq!(
            ok,
            findings.iter().all(|f| f["severity"] == "note"),
            "{name}"
        );
        // Every finding names the run or the gold, and says how to fix it or what it means.
        for f in findings {
            let file = f["file"].as_str().unwrap();
            assert!(file.ends_with(".tsv"), "{name}: {f}");
            assert!(!f["message"].as_str().unwrap().is_empty());
        }
        // Each problem once: no two findings with the same code, column and message.
        let mut keys: Vec<String> = findings
            .iter()
            .map(|f| format!("{}|{}|{}", f["code"], f["column"], f["message"]))
            .collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "{name}: repeated findings");
        // Most serious first.
        let rank = |s: &str| match s {
            "error" => 0,
            "warning" => 1,
            _ => 2,
        };
        let ranks: Vec<i32> = findings
            .iter()
            .map(|f| rank(f["severity"].as_str().unwrap()))
            .collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{name}: not sorted");

        let raw = std::fs::read_to_string(run).unwrap();
        let gold_raw = std::fs::read_to_string(&gold).unwrap();
        if has_iobes(&raw) {
            iobes_runs += 1;
            assert!(codes.contains(&"iobes"), "{name}: IOBES tags not reported");
        } else {
            assert!(
                !codes.contains(&"iobes"),
                "{name}: IOBES reported without S-/E- tags"
            );
        }
        let (rt, gt) = (tokens(&raw), tokens(&gold_raw));
        let differ = rt.len() == gt.len() && rt.iter().zip(&gt).any(|(a, b)| a != b);
        if differ {
            mismatch_runs += 1;
            let f = findings
                .iter()
                .find(|f| f["code"] == "token-text")
                .unwrap_or_else(|| panic!("{name}: token differences not reported"));
            let n = rt.iter().zip(&gt).filter(|(a, b)| a != b).count();
            assert_eq!(f["count"], n, "{name}: number of differing tokens");
            assert_eq!(f["severity"], "warning");
        } else {
            assert!(!codes.contains(&"token-text"), "{name}");
        }
        let hash_rows = raw
            .lines()
            .any(|l| l.starts_with('#') && l.split('\t').skip(1).any(|c| !c.trim().is_empty()));
        assert_eq!(
            hash_rows,
            codes.contains(&"hash-token") || codes.contains(&"hash-token-gold"),
            "{name}: rows starting with # read as comments"
        );
    }
    // The data set has both kinds of silent patching; the test would be vacuous otherwise.
    assert!(
        iobes_runs > 0 && mismatch_runs > 0,
        "{iobes_runs} {mismatch_runs}"
    );
}
