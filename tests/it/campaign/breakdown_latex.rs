//! Breakdowns in `leaderboard.tex` (issue 35): on a small CoNLL campaign of a `spans` and a
//! `fair` task with `breakdown = "label,length"` and hostile run names and labels, every
//! bucket's F1 and gold mentions in the LaTeX tables are those of `evaluate --family …
//! --breakdown … --json` on the same pair (an independent run of the binary), no bucket is
//! dropped or made up, names are escaped, the document compiles with pdflatex, and the
//! Markdown board shows every key of every run. A resampled campaign whose runs have
//! different buckets (a label only one run uses) ranks them as it does without breakdowns.

use std::collections::BTreeMap;

use super::fixtures::{board_json, compile, hostile, leaderboard, pdflatex};
use crate::common::{fairscore_json, json_table, temp_dir};

/// A LaTeX cell as text: the escapes of `escape::latex` undone, bold dropped.
fn unlatex(cell: &str) -> String {
    let mut s = cell.trim().to_string();
    if let Some(inner) = s
        .strip_prefix("\\textbf{")
        .and_then(|x| x.strip_suffix('}'))
    {
        s = inner.to_string();
    }
    for (from, to) in [
        ("\\textless{}", "<"),
        ("\\textgreater{}", ">"),
        ("\\&", "&"),
        ("\\_", "_"),
        ("\\#", "#"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// A run's buckets of one key, as `evaluate` gives them: bucket → (F1, gold mentions).
type Buckets = BTreeMap<String, (Option<f64>, f64)>;

/// One breakdown table of the document: its bucket names, their gold mentions, and each
/// system's cells (as written, bold kept) by bucket.
struct Grid {
    buckets: Vec<String>,
    gold: Vec<String>,
    rows: BTreeMap<String, Vec<String>>,
}

/// The breakdown tables whose caption says `what` (`…, TASK, FAMILY: F1 by KEY`), in order.
fn grids(tex: &str, what: &str) -> Vec<Grid> {
    let mut out = Vec::new();
    let lines: Vec<&str> = tex.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if !(l.starts_with("\\caption{") && l.contains(what)) {
            continue;
        }
        let row = |k: usize| -> Vec<String> {
            let l = lines[k].strip_suffix(" \\\\").unwrap();
            l.split(" & ").map(str::to_string).collect()
        };
        assert_eq!(
            lines[i + 1],
            format!(
                "\\begin{{tabular}}{{rl{}}}",
                "r".repeat(row(i + 3).len() - 2)
            )
        );
        assert_eq!(lines[i + 2], "\\toprule");
        let names = row(i + 3);
        let gold = row(i + 4);
        assert_eq!(lines[i + 5], "\\midrule");
        assert_eq!(&gold[..2], ["", "gold"]);
        let mut rows = BTreeMap::new();
        let mut k = i + 6;
        while lines[k] != "\\bottomrule" {
            let cells = row(k);
            assert_eq!(cells.len(), names.len(), "{}", lines[k]);
            rows.insert(unlatex(&cells[1]), cells[2..].to_vec());
            k += 1;
        }
        out.push(Grid {
            buckets: names[2..].iter().map(|b| unlatex(b)).collect(),
            gold: gold[2..].to_vec(),
            rows,
        });
    }
    out
}

#[test]
fn leaderboard_tex_shows_every_bucket_as_evaluate_counts_it() {
    let dir = temp_dir("campaign_breakdown_latex");
    let (gold, runs) = hostile(&dir);
    // A third run: Mary's label wrong in the first sentence, York left out of the second.
    let mut mixed = String::from("-DOCSTART- O\n\n");
    for tags in [
        ["B-PER", "O", "B-LOC", "O", "B-LOC", "I-LOC"],
        ["B-PER", "O", "B-<x>&'q", "O", "B-LOC", "O"],
        ["B-PER", "O", "B-<x>&'q", "O", "B-LOC", "I-LOC"],
    ] {
        for (w, t) in ["John", "saw", "<b>Mary</b>", "in", "New", "York"]
            .iter()
            .zip(tags)
        {
            mixed.push_str(&format!("{w} {t}\n"));
        }
        mixed.push('\n');
    }
    std::fs::write(runs.join("mixed_1.conll"), &mixed).unwrap();
    let out = dir.join("site");
    let campaign = dir.join("campaign.toml");
    let task = |name: &str, family: &str| {
        format!(
            "[[task]]\nname = \"{name}\"\nfamily = \"{family}\"\nformat = \"conll\"\n\
             gold = \"test.conll\"\nruns = \"{{team}}_{{run}}.conll\"\nbreakdown = \"label,length\"\n"
        )
    };
    std::fs::write(
        &campaign,
        format!(
            "name = \"latex\"\n{}{}",
            task("ner", "spans"),
            task("nerfair", "fair")
        ) + &task("nermuc", "muc"),
    )
    .unwrap();
    leaderboard(&campaign, &gold, &runs, &out, &[]);
    let tex = std::fs::read_to_string(out.join("leaderboard.tex")).unwrap();
    assert!(
        !tex.contains('<') && !tex.contains('>'),
        "names and buckets escaped: {tex}"
    );
    let systems = ["good_1", "ev<i>l&co_1", "mixed_1"];
    for (name, family, f) in [
        ("ner", "spans", "F1"),
        ("nerfair", "fair", "F1"),
        ("nermuc", "muc", "F"),
    ] {
        // Each system's own buckets, from `evaluate`: key → bucket → (F1, gold mentions).
        let mut want: BTreeMap<(&str, &str), Buckets> = BTreeMap::new();
        for s in systems {
            let v = fairscore_json(&[
                "evaluate",
                "--family",
                family,
                "--format",
                "conll",
                "--gold",
                gold.join("test.conll").to_str().unwrap(),
                "--pred",
                runs.join(format!("{s}.conll")).to_str().unwrap(),
                "--breakdown",
                "label,length",
                "--json",
                "-",
            ]);
            for key in ["label", "length"] {
                let t = json_table(&v, &format!("breakdown:{key}"));
                let buckets = want.entry((s, key)).or_default();
                for r in t["rows"].as_array().unwrap() {
                    let sc = r["scores"].as_object().unwrap();
                    // Every gold span once in its bucket: matched, missed or (fair) one of
                    // the error types of the gold side; muc: every judged gold token.
                    let gold_n: f64 = sc
                        .iter()
                        .filter(|(c, _)| *c == "FN" || *c == "MIS" || c.ends_with("-gold"))
                        .map(|(_, x)| x.as_f64().unwrap())
                        .sum();
                    buckets.insert(
                        r["key"]["bucket"].as_str().unwrap().to_string(),
                        (sc[f].as_f64(), gold_n),
                    );
                }
            }
        }
        for key in ["label", "length"] {
            let found = grids(&tex, &format!(", {name}, {family}: {f} by {key},"));
            assert_eq!(found.len(), 1, "{name} {key}: one table");
            let g = &found[0];
            assert_eq!(g.rows.len(), systems.len(), "{name} {key}: every run");
            let mut every: Vec<&String> = systems
                .iter()
                .flat_map(|s| want[&(*s, key)].keys())
                .collect();
            every.sort();
            every.dedup();
            let mut shown: Vec<&String> = g.buckets.iter().collect();
            shown.sort();
            assert_eq!(
                shown, every,
                "{name} {key}: the buckets of the runs, each once"
            );
            assert!(g.buckets.iter().any(|b| b == "<x>&'q") || key != "label");
            for (b, bucket) in g.buckets.iter().enumerate() {
                let mut best: Option<f64> = None;
                let mut all: Vec<f64> = Vec::new();
                for s in systems {
                    let cell = &g.rows[s][b];
                    match want[&(s, key)].get(bucket) {
                        Some((f1, gold_n)) => {
                            let f1_text = f1.map_or("–".to_string(), |x| format!("{x:.3}"));
                            assert_eq!(unlatex(cell), f1_text, "{name} {key} {bucket} {s}");
                            assert_eq!(
                                g.gold[b],
                                format!("{gold_n:.0}"),
                                "{name} {key} {bucket}: gold mentions of {s}"
                            );
                            if let Some(x) = f1 {
                                all.push(*x);
                                best = Some(best.map_or(*x, |m: f64| m.max(*x)));
                            }
                        }
                        None => assert_eq!(cell, "–", "{name} {key} {bucket} {s}"),
                    }
                }
                // Bold: the highest F1 of the bucket, unless every run has it.
                let spread = all.iter().any(|x| Some(*x) != best);
                for s in systems {
                    let cell = &g.rows[s][b];
                    let top = best.is_some_and(|m| unlatex(cell) == format!("{m:.3}"));
                    assert_eq!(
                        cell.starts_with("\\textbf{"),
                        spread && top,
                        "{name} {key} {bucket} {s}: {cell}"
                    );
                }
            }
        }
    }
    // The Markdown board: every key of every run of both tasks.
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    for key in ["label", "length"] {
        assert_eq!(
            md.matches(&format!("breakdown by {key}</summary>")).count(),
            3 * systems.len(),
            "{key}"
        );
    }
    if !pdflatex("leaderboard_tex_shows_every_bucket_as_evaluate_counts_it") {
        return;
    }
    compile(&out.join("leaderboard.tex"));
}

/// With `bootstrap`, the ranking's paired tests pair the runs unit by unit: runs whose
/// breakdowns have different buckets (a run label the gold and the other runs lack) used to
/// stop the campaign ("paired comparison of runs with 3 and 3 units"). The ranking files,
/// intervals and p-values included, are those of the same campaign without breakdowns.
#[test]
fn a_resampled_campaign_ranks_runs_with_different_buckets_as_without_breakdowns() {
    let dir = temp_dir("campaign_breakdown_resampled");
    let (gold, runs) = hostile(&dir);
    let text = std::fs::read_to_string(runs.join("good_1.conll")).unwrap();
    // Mary as ORG once: a label bucket of this run only.
    let other = text.replacen("<b>Mary</b> B-<x>&'q", "<b>Mary</b> B-ORG", 1);
    assert_ne!(other, text);
    std::fs::write(runs.join("other_1.conll"), other).unwrap();
    let campaign = dir.join("campaign.toml");
    let mut ranked = Vec::new();
    for (i, breakdown) in ["", "breakdown = \"label,length\"\n"].iter().enumerate() {
        std::fs::write(
            &campaign,
            format!(
                "name = \"ci\"\nbootstrap = 200\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\n\
                 format = \"conll\"\ngold = \"test.conll\"\nruns = \"{{team}}_{{run}}.conll\"\n{breakdown}"
            ),
        )
        .unwrap();
        let out = dir.join(format!("site{i}"));
        leaderboard(&campaign, &gold, &runs, &out, &[]);
        ranked.push(std::fs::read_to_string(out.join("rankings/ner.tsv")).unwrap());
        if i == 1 {
            let board: serde_json::Value = board_json(&out);
            let rows = board["tables"][0]["rows"].as_array().unwrap();
            let other = rows.iter().find(|r| r["system"] == "other_1").unwrap();
            let labels = other["breakdown"]["label"].as_array().unwrap();
            assert!(labels.iter().any(|b| b["bucket"] == "ORG"), "{other}");
            assert!(rows.iter().all(|r| r["p_top"].is_number()), "{board}");
        }
    }
    assert_eq!(ranked[0].lines().count(), 4, "{}", ranked[0]);
    assert_eq!(ranked[0], ranked[1]);
}
