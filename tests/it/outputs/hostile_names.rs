//! Hostile names (issue 33, classes 5–7): run names, labels, document ids and file names that
//! carry HTML, Markdown links, terminal escapes, line breaks, tabs, NUL and spreadsheet
//! formulas go through every command and every table format, a family campaign's published
//! directory and the Codabench scoring program's outputs. No output may carry raw markup, a
//! raw control character (but the line ends and the delimiter of its own format) or a
//! CSV/TSV cell that a spreadsheet would take as a formula; JSON may keep the text as it is
//! (JSON escapes it itself), but must parse.

use crate::common::{fairscore, segmented, temp_dir};
use std::path::{Path, PathBuf};

/// Labels without white space (CoNLL and token-tag TSV split on it).
const LABELS: [&str; 8] = [
    "<img/src=x/onerror=alert(1)>",
    "<script>",
    "[x](javascript:alert(1))",
    "\u{1b}[31mRED",
    "=HYPERLINK(\"http://x\")",
    "+cmd'/C_calc'!A0",
    "@SUM(1)",
    "-2+3",
];

/// Labels of standoff files (JSON strings hold anything).
const FREE_LABELS: [&str; 5] = [
    "<img src=x onerror=alert(1)>",
    "a\tb",
    "c\rd\ne",
    "n\u{0}ul",
    "=HYPERLINK(\"http://x\")",
];

/// File stems a Unix file system takes (no `/`, no NUL): team names of runs and annotators.
const FILE_NAMES: [&str; 9] = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)<",
    "[x](javascript:alert(1))",
    "\u{1b}[31mred",
    "ta\tb",
    "c\rr\nlf",
    "=HYPERLINK(\"x\")",
    "+cmd|' -C calc'!A0",
    "@SUM(1)",
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Lang {
    Text,
    Json,
    Csv,
    Tsv,
    Markdown,
    Html,
    Latex,
}

const TABLES: [(&str, Lang); 7] = [
    ("text", Lang::Text),
    ("json", Lang::Json),
    ("csv", Lang::Csv),
    ("tsv", Lang::Tsv),
    ("markdown", Lang::Markdown),
    ("html", Lang::Html),
    ("latex", Lang::Latex),
];

fn lang_of(path: &Path) -> Lang {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => Lang::Json,
        Some("csv") => Lang::Csv,
        Some("tsv") => Lang::Tsv,
        Some("md") => Lang::Markdown,
        Some("html") => Lang::Html,
        Some("tex") => Lang::Latex,
        _ => Lang::Text,
    }
}

/// Does a cell start a spreadsheet formula (OWASP "CSV Injection")? Numbers such as `-0.5`
/// do not.
fn formula(cell: &str) -> bool {
    let c = cell
        .strip_prefix('"')
        .and_then(|c| c.strip_suffix('"'))
        .unwrap_or(cell);
    c.starts_with(['=', '+', '@', '\t', '\r']) || (c.starts_with('-') && c.parse::<f64>().is_err())
}

/// Is the character at byte `i` escaped by an odd number of backslashes?
fn escaped(text: &str, i: usize) -> bool {
    text[..i].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// Every problem of `text` written in `lang` (`what` names it).
fn problems(what: &str, lang: Lang, text: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let mut say = |m: String| bad.push(format!("{what} ({lang:?}): {m}"));
    if lang == Lang::Json {
        if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
            say(format!("not JSON: {e}"));
        }
        return bad;
    }
    for (i, c) in text.char_indices() {
        let allowed = c == '\n'
            || (c == '\t' && matches!(lang, Lang::Tsv | Lang::Text))
            || (c == '\r' && text[i + 1..].starts_with('\n'));
        if c.is_control() && !allowed {
            let from = text[..i].rfind('\n').map_or(0, |n| n + 1);
            let line = &text[from..text[i..].find('\n').map_or(text.len(), |n| i + n)];
            say(format!("raw control {c:?} in line {line:?}"));
            break;
        }
    }
    match lang {
        Lang::Markdown => {
            for (i, c) in text.char_indices() {
                if "<>[]".contains(c) && !escaped(text, i) {
                    let line = text[..i].rsplit('\n').next().unwrap_or("");
                    // Code spans (the signature line) show their text literally.
                    if !line.contains('`') {
                        say(format!("raw {c:?} after {line:?}"));
                        break;
                    }
                }
            }
        }
        Lang::Html => {
            for raw in [
                "<script",
                "<img",
                "javascript:alert(1))\"",
                "href=\"javascript",
            ] {
                if text.contains(raw) {
                    say(format!("raw {raw:?}"));
                }
            }
        }
        Lang::Csv | Lang::Tsv => {
            let sep = if lang == Lang::Csv { ',' } else { '\t' };
            let mut lines = text.lines();
            let width = lines.next().map_or(0, |h| h.split(sep).count());
            for line in lines {
                let cells: Vec<&str> = line.split(sep).collect();
                // CSV cells may hold the delimiter inside quotes; TSV cells never may.
                if lang == Lang::Tsv && cells.len() != width {
                    say(format!(
                        "{} cells, header has {width}: {line:?}",
                        cells.len()
                    ));
                }
                if let Some(c) = cells.iter().find(|c| formula(c)) {
                    say(format!("formula cell {c:?} in {line:?}"));
                }
            }
        }
        Lang::Latex => {
            for raw in ["<script", "<img"] {
                if text.contains(raw) {
                    say(format!("raw {raw:?}"));
                }
            }
        }
        Lang::Text | Lang::Json => {}
    }
    bad
}

/// An `inspect` page as [`problems`] checks it: without its own inline script (one, with no
/// input text in it) and without the values of its `data-l` attributes, where labels go by
/// design (quoted, escaped, never a URL attribute: docs/inspect.md).
fn inspect_page(text: &str) -> String {
    let (Some(from), Some(to)) = (text.find("<script>"), text.find("</script>")) else {
        return text.to_string();
    };
    let script = &text[from..to];
    assert_eq!(text.matches("<script").count(), 1, "one inline script");
    assert!(
        !script.contains("alert(1)"),
        "input text in the page's script"
    );
    let mut out = String::new();
    let mut rest = format!("{}{}", &text[..from], &text[to + "</script>".len()..]);
    while let Some(i) = rest.find(" data-l=\"") {
        let at = i + " data-l=\"".len();
        out.push_str(&rest[..at]);
        let end = rest[at..].find('"').map_or(rest.len(), |e| at + e);
        rest = rest[end..].to_string();
    }
    out.push_str(&rest);
    out
}

/// A Markdown line with a row's link to its run's `inspect` page, `| [NAME](inspect/…) |`, with
/// the link taken off its name (the one link the board writes); the target must be
/// URL-encoded (unreserved characters, `%` and `/` only).
fn unlink(line: &str) -> String {
    let Some(at) = line.find("](inspect/") else {
        return line.to_string();
    };
    let end = at + line[at..].find(')').expect("the link ends");
    let target = &line[at + 2..end];
    assert!(
        target
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"%-._~/".contains(&b)),
        "link target not URL-encoded: {target}"
    );
    let open = line[..at].rfind("| [").expect("the link starts a cell") + 2;
    format!(
        "{}{}{}",
        &line[..open],
        &line[open + 1..at],
        &line[end + 1..]
    )
}

/// Runs fairscore (which must succeed) and returns its stdout.
fn stdout(args: &[String]) -> String {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = fairscore(&a);
    assert!(
        out.status.success(),
        "{a:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 on stdout")
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// A CoNLL gold of two documents whose entities carry [`LABELS`], and a run that gets some
/// wrong.
fn conll(dir: &Path) -> (PathBuf, PathBuf) {
    let (mut g, mut r) = (String::new(), String::new());
    for d in 0..2 {
        for t in [&mut g, &mut r] {
            t.push_str("-DOCSTART- O\n\n");
        }
        for (i, l) in LABELS.iter().enumerate() {
            let wrong = LABELS[(i + 1) % LABELS.len()];
            g.push_str(&format!("w{i} B-{l}\nx{i} I-{l}\ny{i} O\n\n"));
            let rl = if (i + d) % 3 == 0 { wrong } else { l };
            r.push_str(&format!("w{i} B-{rl}\nx{i} O\ny{i} O\n\n"));
        }
    }
    let (gp, rp) = (dir.join("gold.conll"), dir.join("run.conll"));
    std::fs::write(&gp, g).unwrap();
    std::fs::write(&rp, r).unwrap();
    (gp, rp)
}

/// Doccano JSONL with [`FREE_LABELS`] (tabs, line breaks and NUL inside labels).
fn doccano(seed: usize) -> String {
    let mut out = String::new();
    for d in 0..3 {
        let labels: Vec<serde_json::Value> = FREE_LABELS
            .iter()
            .enumerate()
            .filter(|(i, _)| !(i + d + seed).is_multiple_of(4))
            .map(|(i, l)| serde_json::json!([i * 6, i * 6 + 4, l]))
            .collect();
        let text = "abcd efgh ijkl mnop qrst uvwx";
        let rec = serde_json::json!({"id": format!("<b>d{d}\t=1"), "text": text, "labels": labels});
        out.push_str(&rec.to_string());
        out.push('\n');
    }
    out
}

fn token_tags(seed: usize) -> String {
    let mut out = String::new();
    for s in 0..4 {
        for (i, l) in LABELS.iter().enumerate() {
            let tag = if (i + s + seed).is_multiple_of(5) {
                "N"
            } else {
                l
            };
            out.push_str(&format!("w{i}\t{tag}\n"));
        }
        out.push('\n');
    }
    out
}

#[test]
fn every_command_and_table_format_escapes_hostile_labels() {
    let dir = temp_dir("hostile_commands");
    let (gold, run) = conll(&dir);
    let (g, r) = (path(&gold), path(&run));
    let (dg, dr) = (dir.join("gold.jsonl"), dir.join("run.jsonl"));
    std::fs::write(&dg, doccano(0)).unwrap();
    std::fs::write(&dr, doccano(1)).unwrap();
    let (tg, tr) = (dir.join("gold.tsv"), dir.join("run.tsv"));
    std::fs::write(&tg, token_tags(0)).unwrap();
    std::fs::write(&tr, token_tags(1)).unwrap();
    let mut annotators = Vec::new();
    for (i, name) in FILE_NAMES.iter().enumerate().take(3) {
        let p = dir.join(format!("{name}.jsonl"));
        std::fs::write(&p, doccano(i)).unwrap();
        annotators.push("--annotator".to_string());
        annotators.push(path(&p));
    }
    let (sdg, sdr) = (path(&dg), path(&dr));
    let (stg, str_) = (path(&tg), path(&tr));
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for family in ["spans", "fair", "muc"] {
        for (input_g, input_r, tag) in [(&g, &r, "conll"), (&sdg, &sdr, "doccano")] {
            if family == "muc" && tag == "doccano" {
                continue;
            }
            commands.push((
                format!("evaluate {family} {tag}"),
                args(&[
                    "evaluate", "--family", family, "--gold", input_g, "--pred", input_r,
                ]),
            ));
        }
    }
    commands.push((
        "compare spans".into(),
        args(&[
            "compare", "--family", "spans", "--gold", &g, "--pred", &r, "--pred", &g,
        ]),
    ));
    commands.push(("fair".into(), args(&["fair", "--gold", &g, "--pred", &r])));
    commands.push((
        "fair doccano".into(),
        args(&["fair", "--gold", &sdg, "--pred", &sdr]),
    ));
    commands.push((
        "muc".into(),
        args(&["muc", "--format", "conll", "--gold", &g, "--pred", &r]),
    ));
    commands.push((
        "tagging".into(),
        args(&[
            "tagging", "--format", "tsv", "--gold", &stg, "--pred", &str_,
        ]),
    ));
    let mut agree = args(&["agree"]);
    agree.extend(annotators);
    commands.push(("agree".into(), agree));

    let mut bad = Vec::new();
    for (name, a) in &commands {
        // The command's own layout (text on stdout).
        bad.extend(problems(name, Lang::Text, &stdout(a)));
        for (format, lang) in TABLES {
            let mut with = a.clone();
            with.extend(["--table".to_string(), format.to_string()]);
            bad.extend(problems(
                &format!("{name} --table {format}"),
                lang,
                &stdout(&with),
            ));
        }
    }
    // The `--errors` listings of fair: one line per span, whatever the labels and ids hold.
    for (tag, (eg, er)) in [("conll", (&g, &r)), ("doccano", (&sdg, &sdr))] {
        let out = dir.join(format!("errors-{tag}.tsv"));
        stdout(&args(&[
            "fair",
            "--gold",
            eg,
            "--pred",
            er,
            "--errors",
            &path(&out),
        ]));
        let text = std::fs::read_to_string(&out).unwrap();
        bad.extend(problems(
            &format!("fair --errors ({tag})"),
            Lang::Tsv,
            &text,
        ));
        assert!(text.lines().count() > 4, "{text}");
    }
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Every file under `dir`, with its path.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn a_family_campaign_publishes_hostile_run_names_escaped() {
    let dir = temp_dir("hostile_campaign");
    let (gold, runs, out) = (dir.join("gold"), dir.join("runs"), dir.join("out"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    let (cg, cr) = conll(&dir);
    std::fs::copy(&cg, gold.join("test.conll")).unwrap();
    std::fs::write(gold.join("test.txt"), segmented(0)).unwrap();
    for (i, name) in FILE_NAMES.iter().enumerate() {
        std::fs::copy(&cr, runs.join(format!("{name}_{i}.conll"))).unwrap();
        std::fs::write(runs.join(format!("{name}_{i}.txt")), segmented(i % 4)).unwrap();
    }
    std::fs::write(runs.join("<b>not a run\t=1"), "x").unwrap();
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"<script>alert(1)</script>\"\nbootstrap = 50\ninspect = true\n\
         [[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\ngold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\nrank_by = \"F1\"\nbreakdown = [\"label\", \"capitalisation\"]\n\
         [[task]]\nname = \"seg\"\nfamily = \"segmentation\"\nformat = \"text\"\ngold = \"test.txt\"\nruns = \"{team}_{run}.txt\"\nrank_by = \"F1\"\n",
    )
    .unwrap();
    stdout(&args(&[
        "leaderboard",
        "--campaign",
        &path(&campaign),
        "--gold-dir",
        &path(&gold),
        "--runs-dir",
        &path(&runs),
        "--outdir",
        &path(&out),
    ]));
    let mut written = Vec::new();
    files(&out, &mut written);
    written.sort();
    let mut bad = Vec::new();
    let mut langs = Vec::new();
    for f in &written {
        let lang = lang_of(f);
        langs.push(lang);
        let mut text = std::fs::read_to_string(f).unwrap();
        if f.starts_with(out.join("inspect")) {
            text = inspect_page(&text);
        }
        if lang == Lang::Markdown {
            // The board's own markup: the inspect links and the collapsed breakdown tables
            // (their summaries HTML-escaped, checked as HTML).
            text = text.lines().map(unlink).collect::<Vec<_>>().join("\n");
            for l in text.lines().filter(|l| l.starts_with("<details><summary>")) {
                bad.extend(problems("leaderboard.md <summary>", Lang::Html, l));
            }
            for tag in ["<details>", "</details>", "<summary>", "</summary>"] {
                text = text.replace(tag, "");
            }
        }
        bad.extend(problems(&path(f.strip_prefix(&out).unwrap()), lang, &text));
    }
    for want in [Lang::Json, Lang::Tsv, Lang::Markdown, Lang::Latex] {
        assert!(
            langs.contains(&want),
            "no {want:?} output among {written:?}"
        );
    }
    // The board names every run: the names are there, escaped, not dropped.
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    assert!(md.contains("\\<img src=x onerror=alert(1)\\>"), "{md}");
    // Each hostile run has its breakdowns and its error page (checked above with the rest).
    assert!(md.contains("breakdown by capitalisation</summary>"), "{md}");
    let pages = written
        .iter()
        .filter(|f| f.starts_with(out.join("inspect")))
        .count();
    assert_eq!(pages, FILE_NAMES.len());
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_codabench_scoring_program_escapes_hostile_file_names() {
    let dir = temp_dir("hostile_codabench");
    let (input, output) = (dir.join("input"), dir.join("output"));
    let (refd, res) = (input.join("ref"), input.join("res"));
    for d in [&refd, &res, &output] {
        std::fs::create_dir_all(d).unwrap();
    }
    let (cg, cr) = conll(&dir);
    std::fs::copy(&cg, refd.join("test.conll")).unwrap();
    std::fs::copy(
        &cr,
        res.join("<img src=x onerror=alert(1)>\u{1b}[31m=HYPERLINK(1)_1.conll"),
    )
    .unwrap();
    std::fs::write(res.join("<script>\tnotes\n=1"), "x").unwrap();
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"<script>c</script>\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\ngold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\nrank_by = \"F1\"\nbreakdown = \"label\"\ninspect = true\n",
    )
    .unwrap();
    stdout(&args(&[
        "codabench",
        "--campaign",
        &path(&campaign),
        &path(&input),
        &path(&output),
    ]));
    let mut bad = Vec::new();
    let mut written = Vec::new();
    files(&output, &mut written);
    for f in &written {
        let text = std::fs::read_to_string(f).unwrap();
        bad.extend(problems(&path(f), lang_of(f), &text));
        // The inspect page, embedded in the detailed page (issue 46.7).
        for (key, page) in crate::common::worker::embedded_pages(&text) {
            let what = format!("{} (page {key})", path(f));
            bad.extend(problems(&what, Lang::Html, &inspect_page(&page)));
        }
    }
    assert!(
        written.iter().any(|f| lang_of(f) == Lang::Html),
        "{written:?}"
    );
    let detailed = std::fs::read_to_string(output.join("detailed_results.html")).unwrap();
    assert!(
        crate::common::worker::embedded_pages(&detailed).contains_key("ner__F1"),
        "{written:?}"
    );
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Labels of the HIPE campaign's per-run tables (a tab inside a label is quoted there, as
/// Python's csv module quotes it).
const HIPE_LABELS: [&str; 5] = [
    "ALL",
    "<img src=x onerror=alert(1)>",
    "=HYPERLINK(\"x\")",
    "\u{1b}[31mred",
    "ta\tb",
];

/// A made-up official table whose System and Label cells are hostile, for an output of a run.
fn hipe_output(
    run: &fairscore::campaign::RunInfo,
    output: &str,
    spec: &fairscore::campaign::TaskSpec,
) -> fairscore::Result<fairscore::campaign::Given> {
    use fairscore::campaign::{parse_table, Given, Task};
    let col = match spec.task {
        Task::Nel => "NEL-LIT",
        _ => "NE-COARSE-LIT",
    };
    let at = if spec.task == Task::Nel { "-@1" } else { "" };
    let quote = |s: &str| {
        if s.contains(['\t', '"', '\r', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    // Scores differ by run, so that the rankings keep every run's rows.
    let f1 = format!(
        "0.{}",
        100 + run.name.bytes().map(usize::from).sum::<usize>() % 900
    );
    let mut tsv =
        String::from("System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n");
    for regime in ["fuzzy", "strict"] {
        for label in HIPE_LABELS {
            tsv.push_str(&format!(
                "{}\t{col}-micro-{regime}-TIME-ALL-LED-ALL{at}\t{}\t0.5\t0.5\t{f1}\t\t\t\t4\t1\t1\r\n",
                quote(&run.name),
                quote(label)
            ));
        }
    }
    Ok(Given::Output {
        files: vec![(
            format!("{}_{output}.tsv", run.name),
            tsv.clone().into_bytes(),
        )],
        rows: parse_table(&tsv, &run.path)?,
        fair: None,
    })
}

#[test]
fn a_hipe_campaign_board_and_rankings_escape_hostile_names() {
    use fairscore::campaign::{report_given, Campaign, CampaignDirs};
    let root = temp_dir("hostile_hipe");
    for d in ["gold", "runs", "resources"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for lang in ["en", "de"] {
        std::fs::write(root.join(format!("gold/gold-demo-{lang}.tsv")), "TOKEN\n").unwrap();
    }
    for name in FILE_NAMES {
        let team = name.replace('_', "-");
        std::fs::write(
            root.join("runs")
                .join(format!("{team}_bundle1_demo_en_1.tsv")),
            "TOKEN\n",
        )
        .unwrap();
    }
    let dirs = CampaignDirs {
        gold: root.join("gold"),
        runs: root.join("runs"),
        resources: root.join("resources"),
        outdir: root.join("out"),
    };
    let cfg = Campaign::from_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/board/mini.toml"),
    )
    .unwrap();
    let report = report_given(&cfg, &dirs, None, &hipe_output, None).unwrap();
    // A name with a control character cannot become an output file's name: that run fails
    // alone (named escaped on the terminal), every other run is scored and published.
    let unnamable = FILE_NAMES
        .iter()
        .filter(|n| n.chars().any(char::is_control))
        .count();
    assert_eq!(
        report.scored.len(),
        FILE_NAMES.len() - unnamable,
        "{:?}",
        report.rejected
    );
    assert_eq!(report.failed.len(), unnamable);
    assert!(report
        .failed
        .iter()
        .all(|f| f.errors.iter().any(|e| e.contains("rename the file"))));
    let mut written = Vec::new();
    files(&dirs.outdir, &mut written);
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in &written {
        let rel = f.strip_prefix(&dirs.outdir).unwrap();
        // The per-run outputs are the official scorer's bytes, not escaped.
        if rel.starts_with("runs") {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(f).unwrap();
        bad.extend(problems(&path(rel), lang_of(f), &text));
    }
    assert!(checked >= 4, "{written:?}");
    let ranking = std::fs::read_to_string(
        dirs.outdir
            .join("rankings/ranking-demo-en-coarse-micro-fuzzy-all.tsv"),
    )
    .unwrap();
    assert!(ranking.contains("'=HYPERLINK(\"\"x\"\")"), "{ranking}");
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn a_hipe_campaign_publishes_hostile_run_names_and_their_pages_escaped() {
    let Some(data) = crate::common::shared_data(
        "a_hipe_campaign_publishes_hostile_run_names_and_their_pages_escaped",
    ) else {
        return;
    };
    let dir = temp_dir("hostile_hipe_inspect");
    let (gold, runs, out) = (dir.join("gold"), dir.join("runs"), dir.join("out"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    let g = "HIPE-2022-v2.1-newseye-test-de.tsv";
    std::fs::copy(data.join("hipe2022/gold").join(g), gold.join(g)).unwrap();
    let run = data.join("hipe2022/submissions/team4_bundle4_newseye_de_1.tsv");
    for (i, name) in FILE_NAMES.iter().enumerate() {
        let team = name.replace('_', "-");
        std::fs::copy(
            &run,
            runs.join(format!("{team}_bundle4_newseye_de_{i}.tsv")),
        )
        .unwrap();
    }
    let resources = data.join("hipe2022/resources");
    let o = fairscore(&[
        "leaderboard",
        "--preset",
        "hipe-2022",
        "--inspect",
        "--quiet",
        "--gold-dir",
        &path(&gold),
        "--runs-dir",
        &path(&runs),
        "--resources",
        &path(&resources),
        "--outdir",
        &path(&out),
    ]);
    // A name with a control character cannot name its output files: that run fails alone.
    let unnamable = FILE_NAMES
        .iter()
        .filter(|n| n.chars().any(char::is_control))
        .count();
    assert!(unnamable > 0);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut written = Vec::new();
    files(&out, &mut written);
    written.sort();
    let mut bad = Vec::new();
    for f in &written {
        let rel = f.strip_prefix(&out).unwrap();
        // The per-run outputs are the official scorer's bytes, not escaped.
        if rel.starts_with("runs") {
            continue;
        }
        let mut text = std::fs::read_to_string(f).unwrap();
        if rel.starts_with("inspect") {
            text = inspect_page(&text);
        }
        if lang_of(f) == Lang::Markdown {
            text = text.lines().map(unlink).collect::<Vec<_>>().join("\n");
        }
        bad.extend(problems(&path(rel), lang_of(f), &text));
    }
    // Every run that could be named has its page, linked from the board.
    let pages = written
        .iter()
        .filter(|f| f.starts_with(out.join("inspect")))
        .count();
    assert_eq!(pages, FILE_NAMES.len() - unnamable, "{written:?}");
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    // The copies score alike: the ranking lists the first and folds the others into it, so
    // one row per regime of NE-COARSE-LIT links its page.
    assert_eq!(md.matches("](inspect/").count(), 2, "{md}");
    assert!(md.contains("\\<img src=x onerror=alert(1)\\>"), "{md}");
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
