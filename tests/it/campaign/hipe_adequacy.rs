//! Is the gold adequate, on a HIPE board (issue 35): the HIPE-2022 campaign replayed from the
//! official per-run files of ../shared states under every NERC group of `leaderboard.md` and
//! `index.html` the gold's mentions per label, each equal to the entities of that label in the
//! group's column of the gold file (counted here from the tags, upper-cased as the HIPE scorer
//! reads labels)
//! and to every run's strict TP + FN of the label in the per-run files, flagged sparse exactly
//! below 100; NEL groups state none; the page passes page_check.sh at 390 and 1366 px. A
//! hostile label comes out escaped in the page and the Markdown.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::page_layout::page_check;
use crate::common::{chromium, fairscore, shared_data, temp_dir};

const NOTE: &str = "Gold mentions per label (MUC-7 guide: at least 100 of each type, ideally 1,000; sparse: below 100, too few to rank systems on): ";

/// `fairscore leaderboard` over `gold` and `runs` (the resources of `data`, the shared
/// hipe2022 directory) into `out`, with `extra` arguments (the preset or campaign).
fn leaderboard(data: &Path, gold: &Path, runs: &Path, out: &Path, extra: &[&str]) {
    let (g, r, res, o) = (
        gold.display().to_string(),
        runs.display().to_string(),
        data.join("resources").display().to_string(),
        out.display().to_string(),
    );
    let mut args = vec![
        "leaderboard",
        "--gold-dir",
        &g,
        "--runs-dir",
        &r,
        "--resources",
        &res,
        "--outdir",
        &o,
        "--quiet",
    ];
    args.extend(extra);
    let o = fairscore(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The gold notes of `leaderboard.md` by (dataset, lang, column), each label's count and
/// whether it is flagged; also every NERC and NEL column seen with a table.
type Notes = BTreeMap<(String, String, String), Vec<(String, u64, bool)>>;

fn md_notes(md: &str) -> (Notes, Vec<(String, String, String)>) {
    let (mut notes, mut columns) = (Notes::new(), Vec::new());
    let (mut section, mut column) = ((String::new(), String::new()), String::new());
    for line in md.lines() {
        if line == "## By team" {
            break;
        }
        if let Some(h) = line.strip_prefix("## ") {
            let mut p = h.split(" · ");
            let (d, l) = (p.next().unwrap_or(""), p.next().unwrap_or(""));
            section = (d.to_string(), l.split(' ').next().unwrap_or("").to_string());
        } else if let Some(h) = line.strip_prefix("### ") {
            column = h.split(' ').next().unwrap_or("").to_string();
            let key = (section.0.clone(), section.1.clone(), column.clone());
            if !columns.contains(&key) {
                columns.push(key);
            }
        } else if let Some(list) = line.strip_prefix(NOTE) {
            let labels = list
                .split(" · ")
                .map(|item| {
                    let (item, sparse) = match item.strip_suffix(" (sparse)") {
                        Some(i) => (i, true),
                        None => (item, false),
                    };
                    let (label, n) = item.rsplit_once(' ').unwrap();
                    (label.to_string(), n.parse().unwrap(), sparse)
                })
                .collect();
            let key = (section.0.clone(), section.1.clone(), column.clone());
            let before = notes.insert(key.clone(), labels);
            assert!(before.is_none(), "{key:?}: two notes");
        }
    }
    (notes, columns)
}

/// The entities per label of a column of a HIPE TSV gold file, labels upper-cased: a `B-`
/// tag, or an `I-` tag after a token not of its label (the gold has a few such spans, and the
/// HIPE scorer counts them, conlleval-style), opens one.
fn gold_counts(gold: &Path, column: &str) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(gold).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let i = header.iter().position(|h| *h == column).unwrap();
    let mut counts = BTreeMap::new();
    let mut previous = String::new();
    for line in lines {
        // Comment lines inside a document do not close an entity; a new document does.
        if line.starts_with("# hipe2022:document_id") {
            previous.clear();
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let tag = line.split('\t').nth(i).unwrap_or("O");
        let (opens, label) = match (tag.strip_prefix("B-"), tag.strip_prefix("I-")) {
            (Some(l), _) => (true, l),
            (None, Some(l)) => (l != previous, l),
            _ => (false, ""),
        };
        if opens {
            *counts.entry(label.to_uppercase()).or_insert(0) += 1;
        }
        previous = label.to_string();
    }
    counts
}

/// Every run's strict micro TP + FN per label and column in the per-run files of `runs`:
/// (dataset, lang, column) → label → the values the runs give (one when they agree).
fn run_counts(runs: &Path) -> BTreeMap<(String, String, String), BTreeMap<String, Vec<u64>>> {
    let mut out: BTreeMap<_, BTreeMap<String, Vec<u64>>> = BTreeMap::new();
    for e in std::fs::read_dir(runs).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".tsv") || !name.contains("_nerc_") {
            continue;
        }
        // TEAM_bundleN_DATASET_LANG_K_OUTPUT.tsv
        let parts: Vec<&str> = name.split('_').collect();
        let (dataset, lang) = (parts[2].to_string(), parts[3].to_string());
        let text = std::fs::read_to_string(&p).unwrap();
        for line in text.lines().skip(1) {
            let c: Vec<&str> = line.split('\t').collect();
            let Some(column) = c[1].strip_suffix("-micro-strict-TIME-ALL-LED-ALL") else {
                continue;
            };
            if c[2] == "ALL" {
                continue;
            }
            let n = |s: &str| s.parse::<f64>().unwrap();
            let total = (n(c[9]) + n(c[11])).round() as u64;
            let seen = out
                .entry((dataset.clone(), lang.clone(), column.to_string()))
                .or_default()
                .entry(c[2].to_string())
                .or_default();
            if !seen.contains(&total) {
                seen.push(total);
            }
        }
    }
    out
}

#[test]
fn hipe_board_states_the_gold_mentions_of_every_nerc_label() {
    let Some(data) = shared_data("hipe_board_adequacy") else {
        return;
    };
    let h = data.join("hipe2022");
    let out = temp_dir("hipe_board_adequacy").join("out");
    leaderboard(
        &h,
        &h.join("gold"),
        &h.join("submissions"),
        &out,
        &[
            "--preset",
            "hipe-2022",
            "--replay",
            h.join("official").to_str().unwrap(),
        ],
    );
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let (notes, columns) = md_notes(&md);
    let runs = run_counts(&out.join("runs"));
    let mut checked = 0;
    for key in &columns {
        let (dataset, lang, column) = key;
        if column.starts_with("NEL-") {
            assert!(!notes.contains_key(key), "{key:?}: NEL has no note");
            continue;
        }
        let shown = notes.get(key).unwrap_or_else(|| panic!("{key:?}: no note"));
        let gold = h
            .join("gold")
            .join(format!("HIPE-2022-v2.1-{dataset}-test-{lang}.tsv"));
        let want = gold_counts(&gold, column);
        let got: BTreeMap<String, u64> = shown.iter().map(|(l, n, _)| (l.clone(), *n)).collect();
        assert_eq!(got, want, "{key:?}");
        for (label, n, sparse) in shown {
            assert_eq!(*sparse, *n < 100, "{key:?} {label}");
            // Every run's strict TP + FN of the label is the gold's count.
            assert_eq!(runs[key][label], vec![*n], "{key:?} {label}");
            assert!(
                html.contains(&format!("{label} {n}")),
                "{key:?} {label} page"
            );
        }
        checked += 1;
    }
    // 17 NERC groups over the 9 sections; labels on both sides of the mark.
    assert_eq!(checked, 17);
    assert_eq!(html.matches("<p class=\"note gold\">").count(), checked);
    let flags: Vec<bool> = notes.values().flatten().map(|l| l.2).collect();
    assert!(flags.contains(&true) && flags.contains(&false));
    if chromium("hipe_board_adequacy", "layout not checked").is_some() {
        let (ok, text) = page_check(&out.join("index.html"), 400_000);
        assert!(ok, "{text}");
    }
}

/// A hostile label of the ajmc-en gold and run (in place of `scope`) comes out escaped.
#[test]
fn a_hostile_label_of_the_gold_note_is_escaped() {
    let Some(data) = shared_data("hipe_board_adequacy_hostile") else {
        return;
    };
    let h = data.join("hipe2022");
    let dir = temp_dir("hipe_board_adequacy_hostile");
    let (gold, runs): (PathBuf, PathBuf) = (dir.join("gold"), dir.join("runs"));
    let label = "<b>&x[y](javascript:z)";
    for (from, to) in [(h.join("gold"), &gold), (h.join("submissions"), &runs)] {
        std::fs::create_dir_all(to).unwrap();
        let name = match to == &gold {
            true => "HIPE-2022-v2.1-ajmc-test-en.tsv",
            false => "team1_bundle4_ajmc_en_1.tsv",
        };
        let text = std::fs::read_to_string(from.join(name)).unwrap();
        std::fs::write(
            to.join(name),
            text.replace("-scope\t", &format!("-{label}\t")),
        )
        .unwrap();
    }
    // No tag set: the hostile label is not one of HIPE's.
    let c = super::breakdown_hipe::campaign(&dir, "c.toml", "");
    let text = std::fs::read_to_string(&c)
        .unwrap()
        .replace("tagset = \"tagset-hipe2022-all.txt\"", "tagset = \"\"");
    std::fs::write(&c, text).unwrap();
    let out = dir.join("out");
    leaderboard(&h, &gold, &runs, &out, &["--campaign", c.to_str().unwrap()]);
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    let note = md.lines().find(|l| l.starts_with(NOTE)).unwrap();
    let want = gold_counts(
        &gold.join("HIPE-2022-v2.1-ajmc-test-en.tsv"),
        "NE-COARSE-LIT",
    );
    let n = want[&label.to_uppercase()];
    assert!(
        note.contains(&format!("\\<B\\>\\&X\\[Y\\](JAVASCRIPT:Z) {n}")),
        "{note}"
    );
    assert!(!note.contains("<B>") && !note.contains("[Y]("), "{note}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!html.contains("<B>"), "page");
    assert!(
        html.contains(&format!("&lt;B&gt;&amp;X[Y](JAVASCRIPT:Z) {n}")),
        "page"
    );
}
