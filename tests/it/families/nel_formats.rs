//! The nel family on CoNLL with a link column and on brat normalizations (docs/nel.md): the
//! links of a real HIPE-2022 gold and run, written by this test as HIPE TSV (the files
//! themselves), as CoNLL (the gold's tags in IOBES, the run's in IOB, no link as `O`) and as
//! brat (one `T` line per link mention, its candidates as `N` lines, NIL as no `N` line), give
//! the same measures, per document too, and the same error labels; and bad inputs are errors
//! naming file and line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::common::{fairscore, fairscore_json, json_table, temp_dir, write_file};

/// One HIPE document: its id and its tokens (text, NE-COARSE-LIT, NEL-LIT).
struct Doc {
    id: String,
    rows: Vec<[String; 3]>,
}

/// Reads the token rows of a HIPE TSV file by document (a file without document markers is
/// one document), cells upper-cased as the HIPE reader reads them.
fn read_hipe(path: &Path) -> Vec<Doc> {
    let text = std::fs::read_to_string(path).expect("HIPE file");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect("column");
    let (ne, nel) = (col("NE-COARSE-LIT"), col("NEL-LIT"));
    let mut docs: Vec<Doc> = Vec::new();
    for l in lines {
        if let Some(c) = l.strip_prefix('#') {
            if let Some((_, id)) = c.split_once("document_id = ") {
                docs.push(Doc {
                    id: id.trim().to_string(),
                    rows: Vec::new(),
                });
            }
            continue;
        }
        if l.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = l.split('\t').collect();
        if docs.is_empty() {
            docs.push(Doc {
                id: "doc".into(),
                rows: Vec::new(),
            });
        }
        let cell = |i: usize| f.get(i).map_or("_", |c| c.trim()).to_uppercase();
        let token = f[0].trim();
        let token = if token.is_empty() { "_" } else { token };
        if let Some(d) = docs.last_mut() {
            d.rows.push([token.to_string(), cell(ne), cell(nel)]);
        }
    }
    docs
}

/// IOB tags (the HIPE reader's reading: a new entity at `B-` or a change of type, `I-` after
/// `O` starts one) as IOBES.
fn iobes(tags: &[&str]) -> Vec<String> {
    let ty = |t: &str| (t != "O").then(|| t.get(2..).unwrap_or("").to_string());
    let starts = |i: usize| {
        tags[i] != "O" && (tags[i].starts_with('B') || i == 0 || ty(tags[i - 1]) != ty(tags[i]))
    };
    (0..tags.len())
        .map(|i| {
            let Some(t) = ty(tags[i]) else {
                return "O".to_string();
            };
            let last = i + 1 == tags.len() || starts(i + 1) || tags[i + 1] == "O";
            match (starts(i), last) {
                (true, true) => format!("S-{t}"),
                (true, false) => format!("B-{t}"),
                (false, true) => format!("E-{t}"),
                (false, false) => format!("I-{t}"),
            }
        })
        .collect()
}

/// A CoNLL file of the documents (`-DOCSTART-` before each, a blank line after each):
/// `TOKEN NE LINK`, the NE tags in IOBES when `to_iobes`, `_` links as `O`.
fn write_conll(dir: &Path, name: &str, docs: &[Doc], to_iobes: bool) -> String {
    let mut out = String::new();
    for d in docs {
        out.push_str("-DOCSTART- O O\n\n");
        let tags: Vec<&str> = d.rows.iter().map(|r| r[1].as_str()).collect();
        let tags: Vec<String> = if to_iobes {
            iobes(&tags)
        } else {
            tags.iter().map(|t| t.to_string()).collect()
        };
        for (r, t) in d.rows.iter().zip(&tags) {
            let link = if r[2] == "_" { "O" } else { r[2].as_str() };
            let _ = writeln!(out, "{} {t} {link}", r[0]);
        }
        out.push('\n');
    }
    write_file(dir, name, &out)
}

/// The link mentions of a document as the official scorer groups them (bounded by the NE
/// entities; in a run a change of link on an `I-` token of the entity splits it): (first
/// token, last token, type, link cell). The independent reading of docs/nel.md, "Mentions".
fn mentions(d: &Doc, gold: bool) -> Vec<(usize, usize, String, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String, usize)> = None;
    let push = |out: &mut Vec<_>, c: (String, String, usize), end: usize| {
        out.push((c.2, end, c.1, c.0));
    };
    for (i, r) in d.rows.iter().enumerate() {
        let (ne, link) = (r[1].as_str(), r[2].clone());
        if ne == "O" {
            if let Some(c) = cur.take() {
                push(&mut out, c, i - 1);
            }
            if link != "_" && link != "-" {
                out.push((i, i, "O".to_string(), link));
            }
            continue;
        }
        let ty = ne.get(2..).unwrap_or("").to_string();
        match cur.take() {
            None => cur = Some((link, ty, i)),
            Some(c) => {
                // A run's entity is cut where an I- token changes the link; any entity
                // ends at B- or a change of type.
                let cut = c.1 == ty && ne.starts_with('I') && c.0 != link && !gold;
                if cut || c.1 != ty || ne.starts_with('B') {
                    push(&mut out, c, i - 1);
                    cur = Some((link, ty, i));
                } else {
                    cur = Some(c);
                }
            }
        }
    }
    if let Some(c) = cur {
        push(&mut out, c, d.rows.len() - 1);
    }
    out.retain(|m| !matches!(m.3.as_str(), "_" | "-" | ""));
    out
}

/// A brat directory of the documents: the tokens of the same document of `texts` (the gold's:
/// standoff sides share their text) joined by spaces as its text, a `T` line per link
/// mention (label: its type) and an `N` line per candidate; a NIL link is a mention without
/// `N` line.
fn write_brat(dir: &Path, name: &str, docs: &[Doc], texts: &[Doc], gold: bool) -> String {
    let out = dir.join(name);
    std::fs::create_dir_all(&out).expect("brat dir");
    for (d, td) in docs.iter().zip(texts) {
        assert_eq!(d.rows.len(), td.rows.len(), "document {}: tokens", d.id);
        let mut text = String::new();
        let mut at = Vec::with_capacity(d.rows.len());
        for r in &td.rows {
            if !text.is_empty() {
                text.push(' ');
            }
            let s = text.chars().count();
            text.push_str(&r[0]);
            at.push((s, text.chars().count()));
        }
        let mut ann = String::new();
        let (mut t, mut n) = (0, 0);
        for (s, e, ty, link) in mentions(d, gold) {
            t += 1;
            let covered: Vec<&str> = td.rows[s..=e].iter().map(|r| r[0].as_str()).collect();
            let _ = writeln!(
                ann,
                "T{t}\t{ty} {} {}\t{}",
                at[s].0,
                at[e].1,
                covered.join(" ")
            );
            for c in link.split('|').filter(|c| !c.starts_with("NIL")) {
                n += 1;
                let _ = writeln!(ann, "N{n}\tReference T{t} Wikidata:{c}\t{c}");
            }
        }
        std::fs::write(out.join(format!("{}.txt", td.id)), &text).expect("txt");
        std::fs::write(out.join(format!("{}.ann", td.id)), &ann).expect("ann");
    }
    out.to_string_lossy().into_owned()
}

/// The scores of every row of a table, in order (keys left out: CoNLL documents are named
/// by their line).
fn scores(v: &serde_json::Value, table: &str) -> Vec<serde_json::Value> {
    json_table(v, table)["rows"]
        .as_array()
        .map(|r| r.iter().map(|r| r["scores"].clone()).collect())
        .unwrap_or_default()
}

/// The rows of a table as (key, scores), sorted.
fn by_key(v: &serde_json::Value, table: &str) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = json_table(v, table)["rows"]
        .as_array()
        .map(|r| {
            r.iter()
                .map(|r| (r["key"].to_string(), r["scores"].to_string()))
                .collect()
        })
        .unwrap_or_default();
    rows.sort();
    assert!(!rows.is_empty(), "table {table} has rows");
    rows
}

fn evaluate(gold: &str, run: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "evaluate", "--family", "nel", "--gold", gold, "--pred", run, "--n-best", "1,3",
    ];
    args.extend_from_slice(extra);
    args.extend(["--json", "-"]);
    fairscore_json(&args)
}

fn hipe2022() -> Option<PathBuf> {
    crate::common::shared_data("nel formats").map(|d| d.join("hipe2022"))
}

#[test]
fn hipe_conll_and_brat_versions_of_a_real_run_give_the_same_measures_and_labels() {
    let Some(d) = hipe2022() else { return };
    // A newseye run with candidates (n-best 3 differs from 1), and an ajmc run (its gold has
    // entities without a link, `_`).
    for (gold, run) in [
        (
            "gold/HIPE-2022-v2.1-newseye-test-fr.tsv",
            "submissions/team5_bundle5_newseye_fr_1.tsv",
        ),
        (
            "gold/HIPE-2022-v2.1-ajmc-test-en.tsv",
            "submissions/team5_bundle5_ajmc_en_1.tsv",
        ),
    ] {
        let (g, r) = (d.join(gold), d.join(run));
        if !r.is_file() {
            assert!(!crate::common::required(), "{} is missing", r.display());
            continue;
        }
        let dir = temp_dir(&format!(
            "nel-formats-{}",
            r.file_stem().unwrap().to_string_lossy()
        ));
        let (gd, rd) = (read_hipe(&g), read_hipe(&r));
        assert_eq!(gd.len(), rd.len(), "{run}: documents");
        let hipe = evaluate(&g.to_string_lossy(), &r.to_string_lossy(), &[]);
        let conll = evaluate(
            &write_conll(&dir, "gold.conll", &gd, true),
            &write_conll(&dir, "run.conll", &rd, false),
            &["--format", "conll"],
        );
        // Format told from the files: a brat directory.
        let brat = evaluate(
            &write_brat(&dir, "gold", &gd, &gd, true),
            &write_brat(&dir, "run", &rd, &gd, false),
            &[],
        );
        let links = scores(&hipe, "micro")[0]["TP"].as_f64().unwrap_or(0.0);
        assert!(links > 20.0, "{run}: {links} correct links");
        for (name, v) in [("conll", &conll), ("brat", &brat)] {
            assert_eq!(v["units"], hipe["units"], "{run} {name}: documents");
            for t in ["micro", "micro@3", "errors"] {
                assert_eq!(scores(v, t), scores(&hipe, t), "{run} {name}: table {t}");
            }
        }
        for t in ["documents", "documents@3"] {
            // CoNLL documents are in the file's order, named by their line.
            assert!(
                scores(&conll, t) == scores(&hipe, t),
                "{run} conll: table {t}"
            );
            // brat documents are named by the HIPE ids, in the order of their file names.
            assert!(
                by_key(&brat, t) == by_key(&hipe, t),
                "{run} brat: table {t}"
            );
        }
    }
}

#[test]
fn the_listing_of_a_brat_run_gives_t_lines_and_covered_text() {
    let dir = temp_dir("nel-brat-listing");
    let text = "Douglas Adams lived in\nLondon and Paris .";
    for (side, ann) in [
        (
            "gold",
            "T1\tPER 0 13\tDouglas Adams\nN1\tReference T1 Wikidata:Q42\tDouglas Adams\n\
             T2\tLOC 23 29\tLondon\nN2\tReference T2 Wikidata:Q84\tLondon\n\
             T3\tLOC 34 39\tParis\n",
        ),
        (
            "run",
            "T1\tPER 0 13\tDouglas Adams\nN1\tReference T1 Wikidata:Q5\tx\n\
             N2\tReference T1 Wikidata:Q42\tx\nT2\tLOC 23 29\tLondon\n\
             T3\tLOC 34 39\tParis\nN3\tReference T3 Wikidata:NIL\tParis\n\
             T4\tMISC 0 7\tDouglas\nN4\tReference T4 Wikidata:Q1\tx\n",
        ),
    ] {
        std::fs::create_dir_all(dir.join(side)).expect("dir");
        std::fs::write(dir.join(side).join("d.txt"), text).expect("txt");
        std::fs::write(dir.join(side).join("d.ann"), ann).expect("ann");
    }
    let (g, r) = (dir.join("gold"), dir.join("run"));
    let listing = dir.join("mentions.tsv");
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "nel",
        "--gold",
        &g.to_string_lossy(),
        "--pred",
        &r.to_string_lossy(),
        "--n-best",
        "1,2",
        "--errors",
        &listing.to_string_lossy(),
        "--json",
        "-",
    ]);
    // Gold: Q42, Q84, NIL; run: Q5|Q42, NIL (no N line), NIL (Wikidata:NIL), Q1 extra.
    let cell = |t: &str, m: &str, c: &str| crate::common::json_cell(&v, t, &[m], c);
    assert_eq!(cell("micro", "strong_all_match", "TP"), Some(1.0));
    assert_eq!(cell("micro@2", "strong_all_match", "TP"), Some(2.0));
    assert_eq!(cell("micro", "strong_nil_match", "FP"), Some(1.0));
    assert_eq!(cell("errors", "link-as-nil", "count"), Some(1.0));
    assert_eq!(cell("errors", "extra", "count"), Some(1.0));
    let text = std::fs::read_to_string(&listing).expect("listing");
    assert!(
        text.contains("d\t1\t1\tDouglas Adams\tPER\tWikidata:Q42\tPER\tWikidata:Q5\twrong-link"),
        "{text}"
    );
    assert!(
        text.contains("d\t3\t3\tLondon\tLOC\tWikidata:Q84\tLOC\tNIL\tlink-as-nil"),
        "{text}"
    );
    assert!(
        text.contains("d\t7\t7\tDouglas\t\t\tMISC\tWikidata:Q1\textra"),
        "{text}"
    );
    // With link_labels, MISC spans are no mentions: no extra.
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "nel",
        "--gold",
        &g.to_string_lossy(),
        "--pred",
        &r.to_string_lossy(),
        "--link-labels",
        "PER,LOC",
        "--json",
        "-",
    ]);
    assert_eq!(
        crate::common::json_cell(&v, "errors", &["extra"], "count"),
        Some(0.0)
    );
}

/// Runs `evaluate --family nel` that must fail, and returns its message.
fn fails(gold: &str, run: &str, extra: &[&str]) -> String {
    let mut args = vec!["evaluate", "--family", "nel", "--gold", gold, "--pred", run];
    args.extend_from_slice(extra);
    let out = fairscore(&args);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bad_inputs_are_errors_naming_file_and_line() {
    let dir = temp_dir("nel-formats-bad");
    // An N line whose target is no T line.
    let b = dir.join("brat");
    std::fs::create_dir_all(&b).expect("dir");
    std::fs::write(b.join("d.txt"), "Anna met Bob").expect("txt");
    std::fs::write(
        b.join("d.ann"),
        "T1\tPER 0 4\tAnna\nN1\tReference T1 Wikidata:Q1\tAnna\nN2\tReference T7 Wikidata:Q2\tBob\n",
    )
    .expect("ann");
    let bs = b.to_string_lossy();
    let e = fails(&bs, &bs, &[]);
    assert!(e.contains("d.ann:3") && e.contains("T7"), "{e}");
    // An N line without its reference.
    std::fs::write(
        b.join("d.ann"),
        "T1\tPER 0 4\tAnna\nN1\tReference T1\tAnna\n",
    )
    .expect("ann");
    let e = fails(&bs, &bs, &[]);
    assert!(e.contains("d.ann:2") && e.contains("DB:ID"), "{e}");
    // Issue 47.7: a reference without its knowledge base (`Q42`, not `Wikidata:Q42`), or
    // with an empty part, names no link (docs/nel.md): refused at its line.
    for reference in ["Q42", "Wikidata:", ":Q42"] {
        std::fs::write(
            b.join("d.ann"),
            format!("T1\tPER 0 4\tAnna\nT2\tPER 9 12\tBob\nN1\tReference T2 {reference}\tBob\n"),
        )
        .expect("ann");
        let e = fails(&bs, &bs, &[]);
        assert!(
            e.contains("d.ann:3") && e.contains("DB:ID") && e.contains(reference),
            "{reference}: {e}"
        );
    }
    // CoNLL-2003 NER (TOKEN POS CHUNK TAG): no link column.
    let ner = write_file(
        &dir,
        "ner.conll",
        "-DOCSTART- -X- -X- O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\nGerman JJ B-NP B-MISC\n",
    );
    let e = fails(&ner, &ner, &["--format", "conll"]);
    assert!(
        e.contains("ner.conll:3") && e.contains("expected links"),
        "{e}"
    );
    // Two cells a line: a token and its tag, no link.
    let two = write_file(&dir, "two.conll", "\nEU B-ORG\nrejects O\n");
    let e = fails(&two, &two, &["--format", "conll"]);
    assert!(
        e.contains("two.conll:2") && e.contains("link column"),
        "{e}"
    );
    // A link column named that the file does not have.
    let ok = write_file(&dir, "ok.conll", "EU B-ORG Q458\nrejects O O\n");
    let e = fails(&ok, &ok, &["--format", "conll", "--column", "COL7"]);
    assert!(e.contains("ok.conll:1") && e.contains("COL7"), "{e}");
    // NE tags that are no IOB tags.
    let bad = write_file(&dir, "bad.conll", "EU ORG Q458\nrejects O O\n");
    let e = fails(&bad, &bad, &["--format", "conll"]);
    assert!(e.contains("bad.conll:1") && e.contains("IOB"), "{e}");
    // Options of another format.
    let e = fails(&ok, &ok, &["--format", "conll", "--link-labels", "PER"]);
    assert!(e.contains("link-labels") && e.contains("brat"), "{e}");
}
