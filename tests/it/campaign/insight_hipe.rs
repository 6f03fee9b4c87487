//! `inspect` pages of a HIPE campaign (issue 35): `leaderboard --preset hipe-2022 --inspect`
//! (and `inspect = true` in a HIPE campaign file) writes one page per run and NERC output, of
//! the output's first column, as `inspect/RUN_OUTPUT.html`; each page's counts equal those of
//! `evaluate --family fair` on the same run, gold and column (an independent run of the
//! binary, read as `families::inspect` reads a page); the rows of that column's tables in
//! `index.html` and `leaderboard.md` link it (relative, URL-encoded: every link resolves), no
//! other row does; a hostile run name comes out escaped; `--replay` refuses the pages.

use std::path::{Path, PathBuf};

use crate::common::{fairscore, fairscore_json, json_cell, shared_data, temp_dir};
use crate::families::inspect::{page_counts, Counts};

const GOLD: &str = "HIPE-2022-v2.1-newseye-test-de.tsv";
const HISTONORM: &str = "HIPE-2022-v2.1-newseye-test-de_histonorm.tsv";
const EVIL: &str = "ev<i>l&co_bundle4_newseye_de_2";

/// A HIPE-2022 campaign directory: the newseye-de golds, runs of bundles 3 (coarse and fine), 4
/// (coarse) and 5 (NEL only: no page), and a copy of a bundle 4 run under a hostile team name.
fn campaign_dirs(data: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let (gold, runs) = (dir.join("gold"), dir.join("runs"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    for g in [GOLD, HISTONORM] {
        std::fs::copy(data.join("hipe2022/gold").join(g), gold.join(g)).unwrap();
    }
    let subs = data.join("hipe2022/submissions");
    for s in [
        "neurbsl_bundle3_newseye_de_1",
        "team4_bundle4_newseye_de_1",
        "team5_bundle5_newseye_de_1",
    ] {
        let f = format!("{s}.tsv");
        std::fs::copy(subs.join(&f), runs.join(&f)).unwrap();
    }
    std::fs::copy(
        subs.join("team4_bundle4_newseye_de_2.tsv"),
        runs.join(format!("{EVIL}.tsv")),
    )
    .unwrap();
    (gold, runs)
}

fn leaderboard(data: &Path, gold: &Path, runs: &Path, out: &Path, extra: &[&str]) -> i32 {
    let resources = data.join("hipe2022/resources");
    let mut args = vec![
        "leaderboard",
        "--gold-dir",
        gold.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
        "--resources",
        resources.to_str().unwrap(),
        "--outdir",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend(extra);
    let o = fairscore(&args);
    if o.status.code() == Some(0) {
        return 0;
    }
    eprintln!("{}", String::from_utf8_lossy(&o.stderr));
    o.status.code().unwrap_or(-1)
}

/// The fair and traditional counts of `evaluate --family fair` on the pair in `column`.
pub(crate) fn fair_counts(gold: &Path, run: &Path, column: &str) -> Counts {
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "fair",
        "--format",
        "hipe",
        "--column",
        column,
        "--gold",
        gold.to_str().unwrap(),
        "--pred",
        run.to_str().unwrap(),
        "--json",
        "-",
    ]);
    let mut c = Counts::new();
    for k in ["TP", "FP", "FN", "LE", "BES", "BEL", "BEO", "LBE"] {
        c.insert(k.into(), json_cell(&v, "fair", &["ALL"], k).unwrap() as u64);
    }
    for k in ["TP", "FP", "FN"] {
        let n = json_cell(&v, "traditional", &["ALL"], k).unwrap() as u64;
        c.insert(format!("t{k}"), n);
    }
    c
}

/// `%XX` escapes decoded (the links are URL-encoded file names).
fn url_decode(link: &str) -> String {
    let b = link.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// The Markdown links to pages: the targets of `](inspect/…)`.
fn md_links(md: &str) -> Vec<String> {
    md.match_indices("](inspect/")
        .map(|(i, _)| {
            let rest = &md[i + 2..];
            rest[..rest.find(')').unwrap()].to_string()
        })
        .collect()
}

/// The section of the Markdown board under the heading that starts with `title`.
fn md_section<'m>(md: &'m str, title: &str) -> &'m str {
    let at = md.find(&format!("### {title}")).unwrap();
    let rest = &md[at + 4..];
    &rest[..rest.find("\n### ").unwrap_or(rest.len())]
}

#[test]
fn a_hipe_campaign_writes_and_links_a_page_per_run_and_nerc_output() {
    let Some(data) = shared_data("a_hipe_campaign_writes_and_links_a_page_per_run_and_nerc_output")
    else {
        return;
    };
    let dir = temp_dir("campaign_insight_hipe_preset");
    let (gold, runs) = campaign_dirs(&data, &dir);
    let out = dir.join("site");
    assert_eq!(
        leaderboard(
            &data,
            &gold,
            &runs,
            &out,
            &["--preset", "hipe-2022", "--inspect"]
        ),
        0
    );
    // (run, output, first column of the output): bundle 5 (NEL only) has none.
    let expected = [
        (
            "neurbsl_bundle3_newseye_de_1",
            "nerc_coarse",
            "NE-COARSE-LIT",
        ),
        ("neurbsl_bundle3_newseye_de_1", "nerc_fine", "NE-FINE-LIT"),
        ("team4_bundle4_newseye_de_1", "nerc_coarse", "NE-COARSE-LIT"),
        (EVIL, "nerc_coarse", "NE-COARSE-LIT"),
    ];
    let mut written: Vec<String> = std::fs::read_dir(out.join("inspect"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let mut names: Vec<String> = expected
        .iter()
        .map(|(r, o, _)| format!("{r}_{o}.html"))
        .collect();
    names.sort();
    assert_eq!(written, names);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    for (run, output, column) in expected {
        let name = format!("inspect/{run}_{output}.html");
        let page = std::fs::read_to_string(out.join(&name)).unwrap();
        let (counts, gold_marks, _) = page_counts(&page);
        let want = fair_counts(&gold.join(GOLD), &runs.join(format!("{run}.tsv")), column);
        assert!(
            gold_marks > 0 && want["tTP"] > 0,
            "{run} {output}: {want:?}"
        );
        assert_eq!(counts, want, "{run} {output} ({column})");
        assert!(!page.contains("ev<i>"), "{name}: the run name unescaped");
        // Linked from both regimes' tables of the column, URL-encoded.
        let url: String = name
            .split('/')
            .map(|p| {
                p.replace('<', "%3C")
                    .replace('>', "%3E")
                    .replace('&', "%26")
            })
            .collect::<Vec<_>>()
            .join("/");
        let href = format!("<a href=\"{}\"", url.replace('/', "&#x2F;"));
        assert_eq!(index.matches(&href).count(), 2, "{href} in index.html");
        for regime in ["strict", "fuzzy"] {
            let s = md_section(&md, &format!("{column} · {output} · {regime}"));
            assert!(
                s.contains(&format!("]({url})")),
                "{url} under {column} {regime}"
            );
        }
    }
    // Every link resolves (the site is relative); rows of other columns are not linked.
    let links = md_links(&md);
    assert_eq!(links.len(), 2 * expected.len(), "{links:?}");
    for l in &links {
        assert!(out.join(url_decode(l)).is_file(), "{l}");
    }
    for title in ["NE-NESTED", "NEL-LIT"] {
        if md.contains(&format!("### {title}")) {
            assert!(!md_section(&md, title).contains("inspect/"), "{title}");
        }
    }
    // The hostile name: escaped in the board's HTML and Markdown.
    assert!(!index.contains("ev<i>") && !md.contains("ev<i>"));
    assert!(md.contains("ev\\<i\\>l\\&co"), "{md}");
}

#[test]
fn a_hipe_campaign_file_asks_for_pages_with_inspect_and_replay_refuses_them() {
    let Some(data) = shared_data("a_hipe_campaign_file_asks_for_pages_with_inspect") else {
        return;
    };
    let dir = temp_dir("campaign_insight_hipe_file");
    let (gold, runs) = campaign_dirs(&data, &dir);
    let preset = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("presets/hipe-2022.toml"),
    )
    .unwrap();
    let file = dir.join("campaign.toml");
    let f = file.to_str().unwrap();
    std::fs::write(&file, format!("inspect = true\n{preset}")).unwrap();
    let out = dir.join("site");
    assert_eq!(
        leaderboard(&data, &gold, &runs, &out, &["--campaign", f]),
        0
    );
    assert_eq!(std::fs::read_dir(out.join("inspect")).unwrap().count(), 4);
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    assert_eq!(md_links(&md).len(), 8);
    // Without it: no page, no link.
    let plain = dir.join("plain");
    let args = ["--preset", "hipe-2022"];
    assert_eq!(leaderboard(&data, &gold, &runs, &plain, &args), 0);
    assert!(!plain.join("inspect").exists());
    let md = std::fs::read_to_string(plain.join("leaderboard.md")).unwrap();
    assert!(md_links(&md).is_empty());
    // Replayed outputs are not scored again: no pages, said as a usage error.
    let replay = out.join("runs");
    let r = replay.to_str().unwrap();
    let again = dir.join("again");
    for extra in [
        vec!["--campaign", f],
        vec!["--preset", "hipe-2022", "--inspect"],
    ] {
        let mut a = extra.clone();
        a.extend(["--replay", r]);
        assert_eq!(leaderboard(&data, &gold, &runs, &again, &a), 2, "{a:?}");
    }
}
