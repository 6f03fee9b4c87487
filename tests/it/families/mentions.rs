//! The mentions family (docs/mentions.md): generative NER outputs made from real gold
//! (HIPE-2022, ../shared) with noise (case and punctuation changes, articles, duplicates,
//! hallucinated strings, wrong and unknown types, truncated and broken answers, prose around
//! the list), scored by each preset and by an independent re-implementation of the project's
//! own scorer (python/tests/oracles/mentions_oracle.py), number for number; the diagnostics
//! against an independent count; aligned gold spans against the spans family.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{fairscore, fairscore_json, json_cell, shared_data, temp_dir};

/// A unit read from a HIPE file by this test's own reading: its id, its text (tokens joined
/// by one space) and its entities (text, type, character start, end).
struct Unit {
    id: String,
    text: String,
    mentions: Vec<(String, String, usize, usize)>,
}

/// The units of a HIPE TSV file's NE-COARSE-LIT column: documents, or sentences (a token
/// tagged `O` with `EndOfSentence` in its MISC cell ends one).
fn hipe_units(path: &Path, segments: bool) -> Vec<Unit> {
    let text = std::fs::read_to_string(path).expect("read the HIPE file");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = header
        .iter()
        .position(|c| *c == "NE-COARSE-LIT")
        .expect("NE-COARSE-LIT");
    let mut units: Vec<Unit> = Vec::new();
    let mut cur = Unit {
        id: String::new(),
        text: String::new(),
        mentions: Vec::new(),
    };
    let mut open: Option<(String, usize, usize)> = None; // type, first char, end char
    let (mut doc, mut k) = (String::new(), 0);
    let mut close = |cur: &mut Unit, open: &mut Option<(String, usize, usize)>| {
        if let Some((ty, a, b)) = open.take() {
            let t: String = cur.text.chars().skip(a).take(b - a).collect();
            cur.mentions.push((t, ty, a, b));
        }
    };
    let mut flush = |cur: &mut Unit, units: &mut Vec<Unit>, id: String| {
        if !cur.text.is_empty() {
            let done = std::mem::replace(
                cur,
                Unit {
                    id,
                    text: String::new(),
                    mentions: Vec::new(),
                },
            );
            units.push(done);
        } else {
            cur.id = id;
        }
    };
    for line in lines {
        if let Some(c) = line.strip_prefix('#') {
            if c.contains("document_id") {
                close(&mut cur, &mut open);
                doc = c.split_once('=').map_or("", |x| x.1).trim().to_string();
                k = 1;
                let id = if segments { format!("{doc}#{k}") } else { doc.clone() };
                flush(&mut cur, &mut units, id);
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let tag = cells.get(col).copied().unwrap_or("O");
        if !cur.text.is_empty() {
            cur.text.push(' ');
        }
        let start = cur.text.chars().count();
        cur.text.push_str(cells[0]);
        let end = cur.text.chars().count();
        let ty = tag.get(2..).unwrap_or("");
        match (tag.chars().next(), &mut open) {
            (Some('I'), Some((t, _, e))) if t == ty => *e = end,
            (Some('B' | 'I'), _) if !ty.is_empty() => {
                close(&mut cur, &mut open);
                open = Some((ty.to_string(), start, end));
            }
            _ => close(&mut cur, &mut open),
        }
        if segments && tag == "O" && cells.last().is_some_and(|m| m.contains("EndOfSentence")) {
            k += 1;
            flush(&mut cur, &mut units, format!("{doc}#{k}"));
        }
    }
    close(&mut cur, &mut open);
    let id = cur.id.clone();
    flush(&mut cur, &mut units, id);
    units
}

/// xorshift64*: the noise is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The gold's types, sorted.
fn schema(units: &[Unit]) -> Vec<String> {
    let mut s: Vec<String> = units
        .iter()
        .flat_map(|u| u.mentions.iter().map(|m| m.1.clone()))
        .collect();
    s.sort();
    s.dedup();
    s
}

/// A unit's predicted (text, type) with mention-level noise.
fn noisy(u: &Unit, types: &[String], rng: &mut Rng, outside: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (t, ty, _, _) in &u.mentions {
        if rng.chance(0.1) {
            continue; // missed
        }
        let mut t = t.clone();
        let mut ty = ty.clone();
        match rng.below(12) {
            0 => t = t.to_uppercase(),
            1 => t = t.to_lowercase(),
            2 => t.push('.'),
            3 => t = format!("the {t}"),
            4 => t = format!("  {t} "),
            5 => ty = types[rng.below(types.len())].clone(),
            _ => {}
        }
        if rng.chance(0.08) {
            out.push((t.clone(), ty.clone())); // duplicate
        }
        out.push((t, ty));
    }
    if rng.chance(0.15) {
        out.push(("Zorglub of Xantippe".into(), types[rng.below(types.len())].clone()));
    }
    if rng.chance(0.08) {
        let t = u.mentions.first().map_or("Mars".to_string(), |m| m.0.clone());
        out.push((t, outside.to_string()));
    }
    out
}

/// Answer-level damage of a model's text: truncated, prose around it, empty.
fn damage(s: String, rng: &mut Rng) -> String {
    match rng.below(25) {
        0 => s.chars().take(s.chars().count() / 2).collect(),
        1 => format!("Here are the entities: {s}"),
        2 => format!("{s}\nI hope this helps."),
        3 => String::new(),
        _ => s,
    }
}

fn write_jsonl(path: &Path, rows: &[Value]) {
    let mut s = String::new();
    for r in rows {
        s.push_str(&r.to_string());
        s.push('\n');
    }
    std::fs::write(path, s).expect("write JSONL");
}

fn gold_jsonl(units: &[Unit]) -> Vec<Value> {
    units
        .iter()
        .map(|u| {
            let ents: Vec<Value> = u
                .mentions
                .iter()
                .map(|(t, ty, a, b)| json!({"text": t, "type": ty, "start": a, "end": b}))
                .collect();
            json!({"id": u.id, "text": u.text, "entities": ents})
        })
        .collect()
}

/// The runs of each preset's answer format (and of the default JSON records).
fn runs(units: &[Unit], seed: u64) -> Vec<(&'static str, Vec<Value>)> {
    let types = schema(units);
    let mut rng = Rng(seed);
    let (mut uni, mut gol, mut iuie, mut fair) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for u in units {
        let ms = noisy(u, &types, &mut rng, "Planet");
        for q in &types {
            let items: Vec<&str> = ms.iter().filter(|m| &m.1 == q).map(|m| m.0.as_str()).collect();
            let mut s = serde_json::to_string(&items).unwrap();
            if rng.chance(0.03) {
                s = s.replacen('[', "[\n", 1);
            }
            uni.push(json!({"id": u.id, "type": q, "output": damage(s, &mut rng)}));
        }
        let calls: Vec<String> = ms
            .iter()
            .map(|(t, ty)| format!("{ty}(span={})", serde_json::to_string(t).unwrap()))
            .collect();
        let g = format!("[{}]", calls.join(", "));
        gol.push(json!({"id": u.id, "output": damage(g, &mut rng)}));
        let pairs: Vec<String> = ms.iter().map(|(t, ty)| format!("{ty}: {t}")).collect();
        let mut p = pairs.join(if rng.chance(0.5) { "; " } else { " ;" });
        if p.is_empty() && rng.chance(0.5) {
            p = "None".into();
        }
        iuie.push(json!({"id": u.id, "output": damage(p, &mut rng)}));
        let list: Vec<Value> = ms.iter().map(|(t, ty)| json!([t, ty])).collect();
        if rng.chance(0.5) {
            fair.push(json!({"id": u.id, "entities": list}));
        } else {
            let text = Value::Array(list).to_string();
            fair.push(json!({"id": u.id, "output": damage(text, &mut rng)}));
        }
    }
    vec![
        ("universalner", uni),
        ("gollie", gol),
        ("instructuie", iuie),
        ("fairscore", fair),
    ]
}

fn python() -> Option<PathBuf> {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("mentions: skipped: python3 is not available for the oracle");
        return None;
    }
    Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("python/tests/oracles/mentions_oracle.py"))
}

fn oracle(script: &Path, mode: &str, gold: &Path, pred: &Path) -> Value {
    let out = Command::new("python3")
        .arg(script)
        .args([mode, &gold.to_string_lossy(), &pred.to_string_lossy()])
        .output()
        .expect("run the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("oracle JSON")
}

fn scored(gold: &Path, pred: &Path, extra: &[&str]) -> Value {
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    let mut args = vec!["evaluate", "--family", "mentions", "--gold", &g, "--pred", &p, "--table", "json"];
    args.extend_from_slice(extra);
    fairscore_json(&args)
}

fn cell(v: &Value, table: &str, row: &str, col: &str) -> f64 {
    json_cell(v, table, &[row], col).unwrap_or_else(|| panic!("{table} {row} {col}"))
}

/// The HIPE-2022 gold files used, as units (segments).
fn real_units(test: &str) -> Option<Vec<(String, Vec<Unit>)>> {
    let data = shared_data(test)?;
    let dir = data.join("hipe2022/gold");
    Some(
        ["ajmc-test-en", "newseye-test-fi", "newseye-test-sv"]
            .iter()
            .map(|n| {
                let p = dir.join(format!("HIPE-2022-v2.1-{n}.tsv"));
                ((*n).to_string(), hipe_units(&p, true))
            })
            .collect(),
    )
}

#[test]
fn each_preset_equals_its_projects_scorer_on_noisy_outputs_of_real_gold() {
    let Some(sets) = real_units("mentions presets") else { return };
    let Some(script) = python() else { return };
    let dir = temp_dir("mentions-presets");
    for (seed, (name, units)) in sets.iter().enumerate() {
        assert!(units.len() > 20, "{name}: {} units", units.len());
        let gold = dir.join(format!("{name}-gold.jsonl"));
        write_jsonl(&gold, &gold_jsonl(units));
        for (mode, rows) in runs(units, 0x9E37_79B9 + seed as u64) {
            let pred = dir.join(format!("{name}-{mode}.jsonl"));
            write_jsonl(&pred, &rows);
            let mut cases = vec![(mode, vec![])];
            if mode == "gollie" {
                cases.push(("gollie-filter", vec!["--unfound", "drop"]));
            }
            for (oracle_mode, flags) in cases {
                let want = oracle(&script, oracle_mode, &gold, &pred);
                let mut extra: Vec<&str> = flags.clone();
                if mode != "fairscore" {
                    extra.extend(["--preset", mode]);
                }
                let got = scored(&gold, &pred, &extra);
                let what = format!("{name} {oracle_mode}");
                let tp = cell(&got, "micro", "ALL", "TP");
                let fp = cell(&got, "micro", "ALL", "FP");
                let fn_ = cell(&got, "micro", "ALL", "FN");
                if mode == "fairscore" {
                    for (k, v) in [("TP", tp), ("FP", fp), ("FN", fn_)] {
                        assert_eq!(Some(v), want[k].as_f64(), "{what} {k}");
                    }
                    continue;
                }
                assert_eq!(Some(tp), want["TP"].as_f64(), "{what} TP");
                assert_eq!(Some(tp + fp), want["npred"].as_f64(), "{what} predicted");
                assert_eq!(Some(tp + fn_), want["ngold"].as_f64(), "{what} gold");
                for k in ["P", "R", "F1"] {
                    // Bit for bit: the same formula in the same order.
                    assert_eq!(Some(cell(&got, "micro", "ALL", k)), want[k].as_f64(), "{what} {k}");
                }
                assert!(tp > 50.0 && fp > 10.0 && fn_ > 10.0, "{what}: too little to test ({tp} {fp} {fn_})");
            }
        }
    }
}

#[test]
fn diagnostics_equal_an_independent_count() {
    let Some(sets) = real_units("mentions diagnostics") else { return };
    let Some(script) = python() else { return };
    let dir = temp_dir("mentions-diagnostics");
    for (name, units) in &sets {
        let gold = dir.join(format!("{name}-gold.jsonl"));
        write_jsonl(&gold, &gold_jsonl(units));
        let (_, rows) = runs(units, 77).pop().expect("the default run");
        let pred = dir.join(format!("{name}-run.jsonl"));
        write_jsonl(&pred, &rows);
        let want = oracle(&script, "fairscore", &gold, &pred);
        let got = scored(&gold, &pred, &[]);
        for k in [
            "answers", "missing", "malformed", "prose", "empty", "predicted", "out_of_schema",
            "hallucinated", "duplicates", "gold", "gold_duplicates",
        ] {
            let n = cell(&got, "diagnostics", k, "n");
            assert_eq!(Some(n), want[k].as_f64(), "{name} {k}");
        }
        for k in ["malformed", "prose", "hallucinated", "duplicates", "out_of_schema"] {
            assert!(want[k].as_f64().unwrap_or(0.0) > 0.0, "{name}: no {k} to count");
        }
    }
}
