//! Issue 47.6: every LaTeX output compiles with pdflatex whatever the characters of its names,
//! labels and texts: characters outside Latin-1 that pdflatex's T1 and utf8 setup cannot set
//! (`Ħ`, `ſ`, CJK, emoji, combining marks, right-to-left letters), and the minus sign U+2212
//! of `compare`'s captions. One escaping rule (`escape::latex`) serves every output: `evaluate
//! --table latex`, `compare --table latex`, a campaign's `leaderboard.tex`, breakdowns.

use std::path::Path;

use super::fixtures::{compile, leaderboard, pdflatex};
use crate::common::{fairscore, shared_data, temp_dir, write_file};

/// Labels of characters outside Latin-1 (JSON strings hold anything).
const LABELS: [&str; 8] = [
    "Ħobb",
    "Wahrſcheinlich",
    "a−b",
    "漢字",
    "😀x",
    "e\u{301}",
    "שלום",
    "Ŀŀ ĸ ŉ ẞ ǅ Ș",
];

fn doccano(seed: usize) -> String {
    let mut out = String::new();
    for d in 0..3 {
        let text = "Ħobb ſeine 漢字 😀 x−y";
        let labels: Vec<serde_json::Value> = LABELS
            .iter()
            .enumerate()
            .filter(|(i, _)| !(i + d + seed).is_multiple_of(3))
            .map(|(i, l)| serde_json::json!([i % 4 * 5, i % 4 * 5 + 4, l]))
            .collect();
        let rec = serde_json::json!({"id": format!("Ħ{d}ſ"), "text": text, "labels": labels});
        out.push_str(&rec.to_string());
        out.push('\n');
    }
    out
}

fn write_tex(dir: &Path, name: &str, args: &[&str]) -> std::path::PathBuf {
    let out = fairscore(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tex = dir.join(name);
    std::fs::write(&tex, &out.stdout).unwrap();
    tex
}

#[test]
fn every_latex_output_compiles_whatever_the_characters() {
    if !pdflatex("every_latex_output_compiles_whatever_the_characters") {
        return;
    }
    let dir = temp_dir("latex_characters");
    let gold = write_file(&dir, "gold.jsonl", &doccano(0));
    let run = write_file(&dir, "run.jsonl", &doccano(1));
    let other = write_file(&dir, "other.jsonl", &doccano(2));
    let mut texs = Vec::new();
    for family in ["spans", "fair"] {
        texs.push(write_tex(
            &dir,
            &format!("evaluate-{family}.tex"),
            &[
                "evaluate", "--family", family, "--gold", &gold, "--pred", &run, "--table", "latex",
            ],
        ));
    }
    // compare: its caption says A − B (U+2212).
    texs.push(write_tex(
        &dir,
        "compare.tex",
        &[
            "compare", "--family", "spans", "--gold", &gold, "--pred", &run, "--pred", &other,
            "--table", "latex",
        ],
    ));
    // A breakdown: its examples quote the texts.
    texs.push(write_tex(
        &dir,
        "breakdown.tex",
        &[
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &gold,
            "--pred",
            &run,
            "--breakdown",
            "label,length",
            "--table",
            "latex",
        ],
    ));
    for tex in &texs {
        let text = std::fs::read_to_string(tex).unwrap();
        for c in ['Ħ', 'ſ', '−', '漢', '😀', '\u{301}', 'ש', 'Ŀ'] {
            assert!(!text.contains(c), "{}: raw {c:?}", tex.display());
        }
        compile(tex);
    }
    // A campaign with a team named Ħobb and a run of labels outside Latin-1.
    let (gold_dir, runs) = (dir.join("gold"), dir.join("runs"));
    std::fs::create_dir_all(&gold_dir).unwrap();
    std::fs::create_dir_all(&runs).unwrap();
    std::fs::write(gold_dir.join("test.jsonl"), doccano(0)).unwrap();
    std::fs::write(runs.join("Ħobb_1.jsonl"), doccano(1)).unwrap();
    std::fs::write(runs.join("ſchön_2.jsonl"), doccano(2)).unwrap();
    let campaign = write_file(
        &dir,
        "campaign.toml",
        "name = \"Ħ−ſ 漢\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"doccano\"\n\
         gold = \"test.jsonl\"\nruns = \"{team}_{run}.jsonl\"\nbreakdown = [\"label\"]\n",
    );
    let site = dir.join("site");
    leaderboard(Path::new(&campaign), &gold_dir, &runs, &site, &[]);
    compile(&site.join("leaderboard.tex"));
}

/// Real historical German (HIPE-2022 ajmc de: `ſ`, Greek) with a breakdown, from `../shared`.
#[test]
fn ajmc_de_with_a_breakdown_compiles() {
    let Some(data) = shared_data("ajmc_de_with_a_breakdown_compiles") else {
        return;
    };
    if !pdflatex("ajmc_de_with_a_breakdown_compiles") {
        return;
    }
    let dir = temp_dir("latex_ajmc_de");
    let gold = data.join("hipe2022/gold/HIPE-2022-v2.1-ajmc-test-de.tsv");
    let run = data.join("hipe2022/submissions/neurbsl_bundle3_ajmc_de_1.tsv");
    let tex = write_tex(
        &dir,
        "ajmc.tex",
        &[
            "evaluate",
            "--family",
            "spans",
            "--gold",
            gold.to_str().unwrap(),
            "--pred",
            run.to_str().unwrap(),
            "--breakdown",
            "label,length",
            "--table",
            "latex",
        ],
    );
    compile(&tex);
}
