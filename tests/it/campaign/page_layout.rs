//! The published pages read on a 390 px phone and a 1366 px laptop, with and without
//! resampling intervals: `scripts/page_check.sh` (headless Chromium) passes on the page of a
//! campaign of family tasks and on the HIPE leaderboard, and the check itself catches a cell
//! whose text wraps (a fixture). Without Chromium these tests skip with a notice, as
//! page_check.sh does, but under CI (`common::required`) they fail.

use crate::common::{chromium, fairscore, segmented, temp_dir};
use std::path::Path;
use std::process::Command;

/// Runs page_check.sh at 390 and 1366 px: (passed, its output), the output also on stderr.
pub(super) fn page_check(page: &Path, max_bytes: usize) -> (bool, String) {
    let o = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/page_check.sh"))
        .arg(page)
        .args([
            "--widths",
            "390 1366",
            "--max-bytes",
            &max_bytes.to_string(),
        ])
        .output()
        .unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "{}:\n{out}", page.display());
    }
    (o.status.success(), out)
}

/// The check fails a page whose cells wrap where they should not, and names each such cell:
/// an interval in a column too narrow for it, a header broken inside a word, a name one or two
/// letters a line; the cells that wrap as they may (a name at its spaces, an interval on a line
/// of its own after `<br>`) are not reported.
#[test]
fn the_check_catches_cells_that_wrap() {
    if chromium("the_check_catches_cells_that_wrap", "layout not checked").is_none() {
        return;
    }
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/page/wrapping.html");
    let (ok, out) = page_check(&page, 10_000);
    assert!(!ok, "{out}");
    for w in ["390", "1366"] {
        assert!(
            out.contains(&format!(
                "FAIL at {w} px: PAGECHECK width={w} cells=10 values=3 bad=3"
            )),
            "{out}"
        );
    }
    for bad in [
        "value on 4 lines: TD \"0.911–0.952\"",
        "broken inside a word (h|o): TH \"Who\"",
        "3 lines of 5 characters: TD \"a b c d e\"",
    ] {
        assert_eq!(out.matches(bad).count(), 2, "{bad}:\n{out}");
    }
    for fine in ["neurbsl", "74.52", "\"12\""] {
        assert!(!out.contains(fine), "{fine}:\n{out}");
    }
}

/// A CoNLL file of six documents of four sentences with a person, a place and an
/// organisation each; run `k` drops or mislabels some of them.
fn conll(k: usize) -> String {
    let mut s = String::new();
    for d in 0..6 {
        s.push_str("-DOCSTART- -X- O\n\n");
        for i in 0..4 {
            let n = d * 4 + i;
            let drop = k > 0 && (n * 7 + k).is_multiple_of(k + 2);
            let swap = k > 1 && (n + d).is_multiple_of(3);
            let tag = |t: &str| {
                if drop {
                    "O".to_string()
                } else if swap && t.ends_with("ORG") {
                    t.replace("ORG", "LOC")
                } else {
                    t.to_string()
                }
            };
            for (form, t) in [
                ("Anna", "B-PER"),
                ("Schmidt", "I-PER"),
                ("lebt", "O"),
                ("in", "O"),
                ("Berlin", "B-LOC"),
                ("und", "O"),
                ("arbeitet", "O"),
                ("bei", "O"),
                ("Siemens", "B-ORG"),
                (".", "O"),
            ] {
                let t = if form == "Berlin" && k == 2 && n.is_multiple_of(2) {
                    "O".to_string()
                } else {
                    tag(t)
                };
                s.push_str(&format!("{form} {t}\n"));
            }
            s.push('\n');
        }
    }
    s
}

/// 20 sentences of three tagged tokens; run `k` tags the noun wrongly in every k-th sentence.
fn tagged(k: usize) -> String {
    (0..20usize)
        .map(|i| {
            let noun = if k > 0 && i.is_multiple_of(k) {
                "subst:sg:acc:n"
            } else {
                "subst:sg:nom:n"
            };
            format!("zadanie\t{noun}\njest\tfin:sg:ter:imperf\ntrudne\tadj:sg:nom:n:pos\n\n")
        })
        .collect()
}

/// A campaign of every family (CoNLL NER as spans, fair and MUC; segmentation; tagging), run
/// names short and long (underscores, hyphens), published with and without intervals: each
/// page passes at both widths.
#[test]
fn family_campaign_pages_fit_phone_and_laptop() {
    if chromium(
        "family_campaign_pages_fit_phone_and_laptop",
        "layout not checked",
    )
    .is_none()
    {
        return;
    }
    let dir = temp_dir("page_layout_family");
    let (gold, runs) = (dir.join("gold"), dir.join("runs"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(gold.join("test.conll"), conll(0)).unwrap();
    std::fs::write(gold.join("test.txt"), segmented(0)).unwrap();
    std::fs::write(gold.join("test.tsv"), tagged(0)).unwrap();
    let names = [
        "alpha_1",
        "beta-team_2",
        "a_team_with_a_remarkably_long_name_indeed_bundle4_demo_en_1",
        "the-very-long-hyphenated-team-name_baseline-run-2",
    ];
    for (k, name) in names.iter().enumerate() {
        std::fs::write(runs.join(format!("{name}.conll")), conll(k + 1)).unwrap();
        std::fs::write(runs.join(format!("{name}.txt")), segmented(k + 2)).unwrap();
        std::fs::write(runs.join(format!("{name}.tsv")), tagged(k + 2)).unwrap();
    }
    let campaign = dir.join("campaign.toml");
    // The spans task with breakdowns (issue 35): each run's drill-down has a table per key.
    let text = crate::common::five_family_campaign("page-layout-2026", Some("nkjp")).replacen(
        "family = \"spans\"",
        "family = \"spans\"\nbreakdown = [\"label\", \"length\", \"capitalisation\"]",
        1,
    );
    assert!(text.contains("breakdown"));
    std::fs::write(&campaign, text).unwrap();
    let mut failed = Vec::new();
    for (label, extra) in [
        ("plain", &[][..]),
        ("bootstrap", &["--bootstrap", "20"][..]),
    ] {
        let out = dir.join(label);
        let mut args = vec![
            "leaderboard".to_string(),
            "--quiet".into(),
            "--campaign".into(),
            campaign.display().to_string(),
            "--gold-dir".into(),
            gold.display().to_string(),
            "--runs-dir".into(),
            runs.display().to_string(),
            "--outdir".into(),
            out.display().to_string(),
            "--inspect".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = fairscore(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let page = out.join("index.html");
        let html = std::fs::read_to_string(&page).unwrap();
        for (task, family) in [
            ("ner", "spans"),
            ("fair", "fair"),
            ("muc", "muc"),
            ("seg", "segmentation"),
            ("tags", "tagging"),
        ] {
            let head = format!(">{task} <span class=\"out\">· {family}</span>");
            assert!(html.contains(&head), "{label}: {head}");
        }
        // The HIPE page's view: per system P, R and F1 with TP, FP and FN, and per label.
        for c in ["P", "R", "F1", "TP", "FP", "FN"] {
            assert!(
                html.contains(&format!("<th>{c}</th>")),
                "{label}: column {c}"
            );
        }
        assert!(html.contains("· per label</summary>"), "{label}");
        assert!(html.contains("<summary>breakdown by capitalisation</summary>"));
        // Each ranked run of the spans and fair tasks links its page (page_check below opens
        // one: the page of the longest run name).
        assert!(
            html.contains("<a href=\"inspect&#x2F;alpha_1_ner.html\""),
            "{label}"
        );
        assert!(
            html.contains("<a href=\"inspect&#x2F;alpha_1_fair.html\""),
            "{label}"
        );
        if label == "plain" {
            let page = out.join(format!("inspect/{}_ner.html", names[2]));
            let (ok, text) = page_check(&page, 200_000);
            if !ok {
                failed.push(format!("inspect page:\n{text}"));
            }
        }
        assert_eq!(html.contains("F1 CI"), label == "bootstrap");
        // Every run's per-label rows of every table are on the page (closed).
        // The bound: 80 kB before the spans task had three breakdowns (about 12 kB more).
        let (ok, text) = page_check(&page, 100_000);
        if !ok {
            failed.push(format!("{label}:\n{text}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The HIPE-2022 leaderboard of the shared data (41 runs), with and without intervals: the
/// phone cards keep the F1 interval on one line (it took five in a column too narrow for it),
/// and the laptop tables keep "TP" and "FP" whole.
#[test]
fn hipe_leaderboard_page_fits_phone_and_laptop() {
    let Some(data) = crate::common::shared_data("page_layout") else {
        return;
    };
    if chromium(
        "hipe_leaderboard_page_fits_phone_and_laptop",
        "layout not checked",
    )
    .is_none()
    {
        return;
    }
    let data = data.join("hipe2022");
    let dir = temp_dir("page_layout_hipe");
    let mut failed = Vec::new();
    for (label, extra) in [
        ("plain", &[][..]),
        ("bootstrap", &["--bootstrap", "20"][..]),
    ] {
        let out = dir.join(label);
        let mut args: Vec<String> = vec!["leaderboard".into(), "--quiet".into()];
        for (flag, sub) in [
            ("--gold-dir", "gold"),
            ("--runs-dir", "submissions"),
            ("--resources", "resources"),
        ] {
            args.push(flag.into());
            args.push(data.join(sub).display().to_string());
        }
        args.push("--outdir".into());
        args.push(out.display().to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = fairscore(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (ok, text) = page_check(&out.join("index.html"), 400_000);
        if !ok {
            failed.push(format!("{label}:\n{text}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
