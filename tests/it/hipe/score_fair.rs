//! The fair and weighted regimes of `fairscore score` (`--regimes`, `--weights`, `--errors`).

use super::runs::{reference_runs, runs_with, score, OUTPUT};
use crate::common::*;

fn rows<'a>(tsv: &'a str, evaluation: &str) -> Vec<Vec<&'a str>> {
    tsv.lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c.len() > 2 && c[1] == evaluation)
        .collect()
}

#[test]
fn fair_rows_and_error_listing_on_the_bundled_example() {
    let out = temp_dir("score_fair_example");
    let errors = out.join("errors.tsv");
    let o = score(
        &out,
        &[
            "--regimes",
            "fuzzy,strict,fair",
            "--weights",
            WEIGHTS,
            "--errors",
            errors.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tsv = std::fs::read_to_string(out.join(format!("{OUTPUT}.tsv"))).unwrap();
    // The official rows are unchanged and come first.
    let expected =
        std::fs::read_to_string(reference_runs("expected").join(format!("{OUTPUT}.tsv"))).unwrap();
    let official: Vec<&str> = tsv
        .split("\r\n")
        .filter(|l| l.contains("-fuzzy-") || l.contains("-strict-") || l.starts_with("System"))
        .collect();
    assert_eq!(official.join("\r\n") + "\r\n", expected);
    // By hand: TP 1 (Paris), FP 1 (Berlin), FN 1 (Zurich), LE 1 (Times), BES 1 (John Smith),
    // LBE 1 (Rome Street): fair FP = FN = 1 + 3 × 0.5 = 2.5, P = R = F1 = 1 / 3.5.
    let fair = rows(&tsv, "NE-COARSE-LIT-micro-fair-TIME-ALL-LED-ALL");
    let all = fair.iter().find(|r| r[2] == "ALL").unwrap();
    assert_eq!(
        &all[3..],
        &["0.286", "0.286", "0.286", "", "", "", "1", "2.5", "2.5"]
    );
    // Weighted: BES counts as 0.5 TP + 0.5 FN: TP 1.5, FP 2, FN 2.5.
    let weighted = rows(&tsv, "NE-COARSE-LIT-micro-weighted-TIME-ALL-LED-ALL");
    let all = weighted.iter().find(|r| r[2] == "ALL").unwrap();
    assert_eq!(&all[3..6], &["0.429", "0.375", "0.4"]);
    assert_eq!(&all[9..], &["1.5", "2", "2.5"]);
    // Document macro: doc 1 has TP 1, FP 1 and a BES (FP 1.5 in all): P = 1/2.5 = 0.4;
    // doc 2 has no TP: P = 0; the mean is 0.2.
    let macro_ = rows(&tsv, "NE-COARSE-LIT-macro_doc-fair-TIME-ALL-LED-ALL");
    assert_eq!(macro_.iter().find(|r| r[2] == "ALL").unwrap()[3], "0.2");
    // JSON blocks.
    let json = schema::read_json(&out.join(format!("{OUTPUT}.json")));
    let all = &json["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"];
    assert_eq!(all["fair"]["LE"], 1);
    assert_eq!(all["fair"]["BES"], 1);
    assert_eq!(all["fair"]["LBE"], 1);
    assert_eq!(all["weighted"]["TP_weighted"], 1.5);
    // One line per span: 5 gold + 5 run spans, with their error types.
    let errs = std::fs::read_to_string(&errors).unwrap();
    let lines: Vec<&str> = errs.lines().collect();
    assert_eq!(lines.len(), 11, "{errs}");
    assert!(
        lines.contains(&"NE-COARSE-LIT\tdemo-2\tgold\t20\t4\t5\tRome Street\tLOC\tPERS\tLBE"),
        "{errs}"
    );
    assert!(
        lines.contains(&"NE-COARSE-LIT\tdemo-1\trun\t11\t7\t7\tBerlin\tORG\t\tFP"),
        "{errs}"
    );
}

#[test]
fn weighted_without_weights_is_a_usage_error() {
    let out = temp_dir("score_fair_usage");
    let o = score(&out, &["--regimes", "fair,weighted"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        std::fs::read_dir(&out).unwrap().next().is_none(),
        "nothing written"
    );
}

/// On real runs, fair TP equals strict TP (both are exact matches) and fair F1 is never below
/// strict F1 (a near miss costs half an FP and half an FN instead of one of each).
#[test]
fn fair_regime_on_hipe2022_runs_is_consistent_with_strict() {
    let Some(data) = shared_data("fair_regime_on_hipe2022_runs_is_consistent_with_strict") else {
        return;
    };
    let d = data.join("hipe2022");
    let out = temp_dir("score_fair_2022");
    let runs = runs_with(&d.join("submissions"), ".tsv");
    let mut checked = 0;
    for run in &runs {
        let p: Vec<&str> = run.split('_').collect();
        if p[1] == "bundle5" {
            continue; // NEL only
        }
        let gold = d.join(format!("gold/HIPE-2022-v2.1-{}-test-{}.tsv", p[2], p[3]));
        let o = fairscore(&[
            "score",
            "--ref",
            gold.to_str().unwrap(),
            "--pred",
            d.join(format!("submissions/{run}.tsv")).to_str().unwrap(),
            "--task",
            "nerc_coarse",
            "--hipe_edition",
            "hipe-2022",
            "--tagset",
            d.join("resources/tagset-hipe2022-all.txt")
                .to_str()
                .unwrap(),
            "--regimes",
            "fuzzy,strict,fair",
            "--outdir",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let tsv = std::fs::read_to_string(out.join(format!("{run}_nerc_coarse.tsv"))).unwrap();
        let strict = rows(&tsv, "NE-COARSE-LIT-micro-strict-TIME-ALL-LED-ALL");
        let fair = rows(&tsv, "NE-COARSE-LIT-micro-fair-TIME-ALL-LED-ALL");
        let s = strict.iter().find(|r| r[2] == "ALL").unwrap();
        let f = fair.iter().find(|r| r[2] == "ALL").unwrap();
        assert_eq!(s[9], f[9], "{run}: TP");
        let (sf, ff): (f64, f64) = (s[5].parse().unwrap(), f[5].parse().unwrap());
        assert!(ff >= sf, "{run}: fair F1 {ff} < strict F1 {sf}");
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}
