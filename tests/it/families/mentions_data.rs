//! Data for tests/it/families/mentions.rs: HIPE-2022 gold read by the test's own reading,
//! and model outputs made from it with seeded noise, in each project's answer format.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// A unit read from a HIPE file by this test's own reading: its id, its text (tokens joined
/// by one space) and its entities (text, type, character start, end).
pub(super) struct Unit {
    pub(super) id: String,
    pub(super) text: String,
    pub(super) mentions: Vec<(String, String, usize, usize)>,
    /// The 0-based file lines of each mention's first and last token.
    pub(super) lines: Vec<(usize, usize)>,
}

/// The units of a HIPE TSV file's NE-COARSE-LIT column: documents, or sentences (a token
/// tagged `O` with `EndOfSentence` in its MISC cell ends one).
pub(super) fn hipe_units(path: &Path, segments: bool) -> Vec<Unit> {
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
        lines: Vec::new(),
    };
    // type, first char, end char, first line, last line
    let mut open: Option<(String, usize, usize, usize, usize)> = None;
    let (mut doc, mut k) = (String::new(), 0);
    let close = |cur: &mut Unit, open: &mut Option<(String, usize, usize, usize, usize)>| {
        if let Some((ty, a, b, la, lb)) = open.take() {
            let t: String = cur.text.chars().skip(a).take(b - a).collect();
            cur.mentions.push((t, ty, a, b));
            cur.lines.push((la, lb));
        }
    };
    let flush = |cur: &mut Unit, units: &mut Vec<Unit>, id: String| {
        if !cur.text.is_empty() {
            let done = std::mem::replace(
                cur,
                Unit {
                    id,
                    text: String::new(),
                    mentions: Vec::new(),
                    lines: Vec::new(),
                },
            );
            units.push(done);
        } else {
            cur.id = id;
        }
    };
    for (no, line) in lines.enumerate() {
        let no = no + 1;
        if let Some(c) = line.strip_prefix('#') {
            if c.contains("document_id") {
                close(&mut cur, &mut open);
                doc = c.split_once('=').map_or("", |x| x.1).trim().to_string();
                k = 1;
                let id = if segments {
                    format!("{doc}#{k}")
                } else {
                    doc.clone()
                };
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
            (Some('I'), Some((t, _, e, _, le))) if t == ty => (*e, *le) = (end, no),
            (Some('B' | 'I'), _) if !ty.is_empty() => {
                close(&mut cur, &mut open);
                open = Some((ty.to_string(), start, end, no, no));
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
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(super) fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The gold's types, sorted.
pub(super) fn schema(units: &[Unit]) -> Vec<String> {
    let mut s: Vec<String> = units
        .iter()
        .flat_map(|u| u.mentions.iter().map(|m| m.1.clone()))
        .collect();
    s.sort();
    s.dedup();
    s
}

/// A unit's predicted (text, type) with mention-level noise.
pub(super) fn noisy(
    u: &Unit,
    types: &[String],
    rng: &mut Rng,
    outside: &str,
) -> Vec<(String, String)> {
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
        out.push((
            "Zorglub of Xantippe".into(),
            types[rng.below(types.len())].clone(),
        ));
    }
    if rng.chance(0.08) {
        let t = u
            .mentions
            .first()
            .map_or("Mars".to_string(), |m| m.0.clone());
        out.push((t, outside.to_string()));
    }
    out
}

/// Answer-level damage of a model's text: truncated, prose around it, empty.
pub(super) fn damage(s: String, rng: &mut Rng) -> String {
    match rng.below(25) {
        0 => s.chars().take(s.chars().count() / 2).collect(),
        1 => format!("Here are the entities: {s}"),
        2 => format!("{s}\nI hope this helps."),
        3 => String::new(),
        _ => s,
    }
}

pub(super) fn write_jsonl(path: &Path, rows: &[Value]) {
    let mut s = String::new();
    for r in rows {
        s.push_str(&r.to_string());
        s.push('\n');
    }
    std::fs::write(path, s).expect("write JSONL");
}

pub(super) fn gold_jsonl(units: &[Unit]) -> Vec<Value> {
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
pub(super) fn runs(units: &[Unit], seed: u64) -> Vec<(&'static str, Vec<Value>)> {
    let types = schema(units);
    let mut rng = Rng(seed);
    // InstructUIE's audited answers (long, repeating a word three times in a row) from a
    // stream of their own, so that every other answer stays as it was; neither changes the
    // answer's items but the one found nowhere.
    let mut audit = Rng(seed ^ 0x000A_0D17);
    let (mut uni, mut gol, mut iuie, mut fair) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for u in units {
        let ms = noisy(u, &types, &mut rng, "Planet");
        for q in &types {
            let items: Vec<&str> = ms
                .iter()
                .filter(|m| &m.1 == q)
                .map(|m| m.0.as_str())
                .collect();
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
        if audit.chance(0.05) {
            p.push_str(&" ".repeat(500 + audit.below(30)));
        }
        // Three in a row of 5 word characters or more (`XanXanXanXanXan` is not: its period
        // is 3, and `XanXan` three times needs 18 characters).
        let again = [
            "XantippeXantippeXantippe",
            "XanXanXanXanXanXan",
            "XanXanXanXanXan",
            "XantippeXantippe",
        ];
        p = p.replace("Xantippe", again[audit.below(again.len())]);
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

/// A run TSV with the gold's lines and these spans (type, first line, last line) in
/// NE-COARSE-LIT, every other token `O`.
pub(super) fn run_tsv(gold: &str, spans: &[(String, usize, usize)]) -> String {
    let mut lines: Vec<String> = gold.lines().map(str::to_string).collect();
    let col = lines[0]
        .split('\t')
        .position(|c| c == "NE-COARSE-LIT")
        .unwrap();
    let mut tag: Vec<Option<String>> = vec![None; lines.len()];
    for (ty, a, b) in spans {
        for (k, t) in tag.iter_mut().enumerate().take(b + 1).skip(*a) {
            *t = Some(format!("{}-{ty}", if k == *a { "B" } else { "I" }));
        }
    }
    for (k, l) in lines.iter_mut().enumerate().skip(1) {
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let mut cells: Vec<String> = l.split('\t').map(str::to_string).collect();
        if let Some(c) = cells.get_mut(col) {
            *c = tag[k].clone().unwrap_or_else(|| "O".into());
        }
        *l = cells.join("\t");
    }
    lines.join("\n") + "\n"
}

/// The documents of a brat folder as units: the `.txt` as written, the `T` lines of its `.ann`
/// (`LABEL start end`, character offsets, and the text) as mentions, in text order.
pub(super) fn brat_units(dir: &Path) -> Vec<Unit> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .expect("read the brat folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ann"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f.with_extension("txt")).expect("the .txt");
            let ann = std::fs::read_to_string(f).expect("the .ann");
            let mut mentions: Vec<(String, String, usize, usize)> = ann
                .lines()
                .filter(|l| l.starts_with('T'))
                .map(|l| {
                    let cells: Vec<&str> = l.split('\t').collect();
                    let head: Vec<&str> = cells[1].split(' ').collect();
                    let (a, b) = (head[1].parse().unwrap(), head[2].parse().unwrap());
                    (cells[2].to_string(), head[0].to_string(), a, b)
                })
                .collect();
            mentions.sort_by_key(|m| (m.2, m.3));
            Unit {
                id: f.file_stem().unwrap().to_string_lossy().into_owned(),
                text,
                lines: vec![(0, 0); mentions.len()],
                mentions,
            }
        })
        .collect()
}

/// The hallucinated string (three words, in no text).
pub(super) const ZORGLUB: &str = "Zorglub of Xantippe";

/// A run of the gold's spans (some left out, some retyped) as JSONL entity lists and as the
/// same spans in a HIPE run; `hallucinate`: some units also name [`ZORGLUB`]. Returns
/// (JSONL, TSV, hallucinations).
pub(super) fn hipe_run(
    gold: &Path,
    units: &[Unit],
    seed: u64,
    hallucinate: bool,
    dir: &Path,
) -> (PathBuf, PathBuf, usize) {
    let types: Vec<String> = schema(units).iter().map(|t| t.to_uppercase()).collect();
    let mut rng = Rng(seed);
    let (mut spans, mut rows, mut extra) = (Vec::new(), Vec::new(), 0);
    for u in units {
        let mut ents = Vec::new();
        for ((t, ty, _, _), (la, lb)) in u.mentions.iter().zip(&u.lines) {
            // A string the text holds once, holding no other mention's string, may be left
            // out (else the next one's place could move into it); a retyped one stays.
            let alone = u.text.matches(t.as_str()).count() == 1
                && u.mentions
                    .iter()
                    .all(|m| m.0 == *t || !t.contains(m.0.as_str()));
            if alone && rng.chance(0.1) {
                continue;
            }
            let ty = if rng.chance(0.15) {
                types[rng.below(types.len())].clone()
            } else {
                ty.to_uppercase()
            };
            spans.push((ty.clone(), *la, *lb));
            ents.push(json!([t, ty]));
        }
        if hallucinate && rng.chance(0.3) {
            ents.push(json!([ZORGLUB, types[0]]));
            extra += 1;
        }
        rows.push(json!({"id": u.id, "entities": ents}));
    }
    let stem = format!("{seed:x}-{hallucinate}");
    let tsv = dir.join(format!("{stem}.tsv"));
    std::fs::write(
        &tsv,
        run_tsv(&std::fs::read_to_string(gold).unwrap(), &spans),
    )
    .unwrap();
    let jsonl = dir.join(format!("{stem}.jsonl"));
    write_jsonl(&jsonl, &rows);
    (jsonl, tsv, extra)
}
