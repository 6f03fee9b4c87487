//! Helpers shared by the integration tests: locating ../shared, temporary directories,
//! running the binary, comparing official outputs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod rss;
pub mod schema;
pub mod worker;

/// `../shared/data` beside the crate, or None (after printing the skip notice) when absent.
///
/// Under CI (`CI` or `FAIRSCORE_REQUIRE_SHARED` set in the environment, as `.ci/run` does) a
/// missing `../shared` fails the test instead: the parity tests must never pass by skipping
/// there.
pub fn shared_data(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(
            !required(),
            "{test}: ../shared is absent but required here (CI or FAIRSCORE_REQUIRE_SHARED is set)"
        );
        skip_notice(test);
        None
    }
}

/// Whether this run must not skip data or browser checks: under CI (`CI` or
/// `FAIRSCORE_REQUIRE_SHARED` set and not `false`, as `.ci/run` sets them).
pub fn required() -> bool {
    ["CI", "FAIRSCORE_REQUIRE_SHARED"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty() && x != "false"))
}

/// Says that a test skipped, on the real stderr: the test harness captures `println!`, so the
/// notice would otherwise only show for failing tests.
pub fn skip_notice(test: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "{test}: skipped: ../shared absent"
    );
}

/// The weights of the fair error types in Ortmann (2022), for the weighted regime.
pub const WEIGHTS: &str = "LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, \
                           BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN";

/// A fresh empty directory under the target dir.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

pub fn fairscore(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args(args)
        .output()
        .expect("run fairscore")
}

/// The JSON a command prints on stdout; the command must succeed.
pub fn fairscore_json(args: &[&str]) -> serde_json::Value {
    let out = fairscore(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// The unit, unit count and tables of a family table in JSON (the signature, which hashes
/// the files, left out).
pub fn unit_and_tables(v: &serde_json::Value) -> serde_json::Value {
    serde_json::json!({"unit": v["unit"], "units": v["units"], "tables": v["tables"]})
}

/// The table called `name` of a JSON result (`tables`: a list of named tables).
pub fn json_table<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == name))
        .unwrap_or_else(|| panic!("no table {name}"))
}

/// Copies a directory tree (files and sub-directories).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// The unit, unit count and tables of `fairscore evaluate --family FAMILY --gold G --pred R
/// --table json` with `extra` flags (the signature, which hashes the files, left out); the
/// command must succeed.
pub fn evaluate_tables(
    family: &str,
    gold: &Path,
    pred: &Path,
    extra: &[&str],
) -> serde_json::Value {
    let mut args = vec![
        "evaluate",
        "--family",
        family,
        "--gold",
        gold.to_str().expect("UTF-8 path"),
        "--pred",
        pred.to_str().expect("UTF-8 path"),
        "--table",
        "json",
    ];
    args.extend_from_slice(extra);
    unit_and_tables(&fairscore_json(&args))
}

/// Compares two JSON texts: same keys (order too) and numbers within 1e-9.
pub fn json_diff(a: &str, b: &str) -> Option<String> {
    let va: serde_json::Value = match serde_json::from_str(a) {
        Ok(v) => v,
        Err(e) => return Some(format!("ours is not JSON: {e}")),
    };
    let vb: serde_json::Value = match serde_json::from_str(b) {
        Ok(v) => v,
        Err(e) => return Some(format!("reference is not JSON: {e}")),
    };
    value_diff(&va, &vb, "")
}

fn value_diff(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value::*;
    match (a, b) {
        (Object(x), Object(y)) => {
            let kx: Vec<&std::string::String> = x.keys().collect();
            let mut ky: Vec<&std::string::String> = y.keys().collect();
            let mut kx_sorted = kx.clone();
            kx_sorted.sort();
            ky.sort();
            if kx_sorted != ky {
                return Some(format!(
                    "{at}: keys {kx:?} vs {:?}",
                    y.keys().collect::<Vec<_>>()
                ));
            }
            for (k, v) in x {
                if let Some(d) = value_diff(v, &y[k], &format!("{at}/{k}")) {
                    return Some(d);
                }
            }
            None
        }
        (Number(x), Number(y)) => {
            let (fx, fy) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            if (fx - fy).abs() <= 1e-9 {
                None
            } else {
                Some(format!("{at}: {x} vs {y}"))
            }
        }
        _ if a == b => None,
        _ => Some(format!("{at}: {a} vs {b}")),
    }
}

/// Outcome of comparing one produced file with its official counterpart.
pub fn compare_file(ours: &Path, official: &Path) -> Result<bool, String> {
    let a = std::fs::read(ours).map_err(|e| format!("{}: {e}", ours.display()))?;
    let b = std::fs::read(official).map_err(|e| format!("{}: {e}", official.display()))?;
    if a == b {
        return Ok(true);
    }
    if ours.extension().is_some_and(|e| e == "json") {
        let (sa, sb) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        match json_diff(&sa, &sb) {
            None => Ok(false),
            Some(d) => Err(format!("{}: {d}", official.display())),
        }
    } else {
        let (sa, sb) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        let first = sa
            .lines()
            .zip(sb.lines())
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| format!("line {}: ours {x:?} official {y:?}", i + 1))
            .unwrap_or_else(|| format!("{} vs {} lines", sa.lines().count(), sb.lines().count()));
        Err(format!("{}: {first}", official.display()))
    }
}

/// Runs one official command line (arguments after `score`) into `out` and compares every
/// file it writes with `official_dir`. Returns (files compared, byte-identical).
pub fn run_case(
    args: &[String],
    cwd_data: &Path,
    out: &Path,
    official_dir: &Path,
) -> Result<(usize, usize), String> {
    let mut full: Vec<String> = vec!["score".into()];
    full.extend(args.iter().cloned());
    full.push("--outdir".into());
    full.push(out.to_string_lossy().into_owned());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .current_dir(cwd_data)
        .args(&full)
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!(
            "{full:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let mut n = 0;
    let mut same = 0;
    let mut entries: Vec<_> = std::fs::read_dir(out)
        .map_err(|e| e.to_string())?
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    let mut result = Ok(());
    for e in entries {
        let official = official_dir.join(e.file_name());
        n += 1;
        match compare_file(&e.path(), &official) {
            Ok(true) => same += 1,
            Ok(false) => {}
            Err(err) if result.is_ok() => result = Err(err),
            Err(_) => {}
        }
        let _ = std::fs::remove_file(e.path());
    }
    result?;
    if n == 0 {
        return Err(format!("{full:?} wrote nothing"));
    }
    Ok((n, same))
}

/// The commands of hipe2020-synth/commands.txt whose names are in `kinds`.
pub fn synth_commands(data: &Path, kinds: &[&str]) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(data.join("hipe2020-synth/commands.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (kind, cmd) = l.split_once(": ")?;
            if !kinds.contains(&kind) {
                return None;
            }
            let mut words: Vec<String> = cmd.split_whitespace().map(|s| s.to_string()).collect();
            if words.first().map(|w| w.as_str()) != Some("score") {
                return None;
            }
            words.remove(0);
            Some((kind.to_string(), words))
        })
        .collect()
}

/// Tally of a parity test: files compared, byte-identical files, failures.
#[derive(Default)]
pub struct Parity {
    pub files: usize,
    pub identical: usize,
    pub failures: Vec<String>,
}

impl Parity {
    /// Records the result of [`run_case`]; a failure is prefixed with `label` when non-empty.
    pub fn record(&mut self, label: &str, result: Result<(usize, usize), String>) {
        match result {
            Ok((n, k)) => {
                self.files += n;
                self.identical += k;
            }
            Err(e) if label.is_empty() => self.failures.push(e),
            Err(e) => self.failures.push(format!("{label}: {e}")),
        }
    }

    /// Prints the tally and fails the test on any failure.
    pub fn finish(&self, what: &str) {
        println!(
            "{what} parity: {} files compared, {} byte-identical, {} failures",
            self.files,
            self.identical,
            self.failures.len()
        );
        assert!(
            self.failures.is_empty(),
            "{} failures:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// A HIPE TSV text with its body repeated `k` times, every document id of copy `c > 0`
/// suffixed `-copyC` (so the copies are new documents with the same tokens and tags). A run
/// without document markers stays one token sequence that lines up with the repeated gold.
pub fn repeat_documents(text: &str, k: usize) -> String {
    let (header, body) = text.split_once('\n').unwrap_or((text, ""));
    let mut out = format!("{header}\n");
    for c in 0..k {
        for line in body.lines() {
            let is_id =
                line.starts_with("# hipe2022:document_id") || line.starts_with("# document_id");
            if c > 0 && is_id {
                out.push_str(&format!("{line}-copy{c}\n"));
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The run with every entity tag replaced by `O` and every link removed (`_`): an all-empty
/// run with the same tokens and comments.
pub fn empty_run(text: &str) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let cols: Vec<&str> = header.split('\t').collect();
    let mut out = format!("{header}\n");
    for line in lines {
        if line.is_empty() || line.starts_with('#') {
            out.push_str(line);
        } else {
            let cells: Vec<String> = line
                .split('\t')
                .enumerate()
                .map(|(i, cell)| match cols.get(i) {
                    Some(c) if c.starts_with("NEL") && cell != "_" => "_".to_string(),
                    Some(c) if c.starts_with("NE-") && cell != "_" => "O".to_string(),
                    _ => cell.to_string(),
                })
                .collect();
            out.push_str(&cells.join("\t"));
        }
        out.push('\n');
    }
    out
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write test file");
    p.to_string_lossy().into_owned()
}

/// `fairscore ARGS` with the environment variables set.
pub fn fairscore_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fairscore"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run fairscore")
}

/// A campaign of five family tasks over `test.conll` (spans, fair, muc), `test.txt`
/// (segmentation) and `test.tsv` (tagging, with `tagset` when given), runs named
/// `{team}_{run}` with those extensions.
pub fn five_family_campaign(name: &str, tagset: Option<&str>) -> String {
    let tagset = tagset.map_or(String::new(), |t| format!("tagset = \"{t}\"\n"));
    format!(
        r#"name = "{name}"

[[task]]
name = "ner"
family = "spans"
format = "conll"
gold = "test.conll"
runs = "{{team}}_{{run}}.conll"
regimes = ["strict", "partial"]
rank_by = "F1"

[[task]]
name = "fair"
family = "fair"
format = "conll"
gold = "test.conll"
runs = "{{team}}_{{run}}.conll"
rank_by = "F1"

[[task]]
name = "muc"
family = "muc"
format = "conll"
gold = "test.conll"
runs = "{{team}}_{{run}}.conll"
rank_by = "F"

[[task]]
name = "seg"
family = "segmentation"
format = "text"
gold = "test.txt"
runs = "{{team}}_{{run}}.txt"
rank_by = "F1"

[[task]]
name = "tags"
family = "tagging"
format = "tsv"
{tagset}gold = "test.tsv"
runs = "{{team}}_{{run}}.tsv"
rank_by = "F1"
"#
    )
}

/// 24 sentences of four two-character words; run `k` glues two words in every k-th sentence.
pub fn segmented(k: usize) -> String {
    (0..24usize)
        .map(|i| {
            if k > 0 && i.is_multiple_of(k) {
                "abcd ef gh\n"
            } else {
                "ab cd ef gh\n"
            }
        })
        .collect()
}

/// The value in column `col` of the row keyed `key` (the row's key values in order) of table
/// `table` of a JSON result; `None` when the cell is null. Panics naming what is missing.
pub fn json_cell(v: &serde_json::Value, table: &str, key: &[&str], col: &str) -> Option<f64> {
    let t = json_table(v, table);
    let row = t["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter().find(|r| {
                let k: Vec<&str> = r["key"]
                    .as_object()
                    .map(|o| o.values().filter_map(|x| x.as_str()).collect())
                    .unwrap_or_default();
                k == key
            })
        })
        .unwrap_or_else(|| panic!("table {table}: no row {key:?}"));
    let cell = &row["scores"][col];
    assert!(
        !cell.is_null() || row["scores"].get(col).is_some(),
        "table {table}: no column {col}"
    );
    cell.as_f64()
}

/// The value in column `col` of the row keyed `key` of table `table` of family results;
/// `None` when the cell is missing. Panics naming the table, row or column that is not there.
pub fn cell(r: &fairscore::table::Results, table: &str, key: &[&str], col: &str) -> Option<f64> {
    let t = r.table(table).unwrap_or_else(|| panic!("no table {table}"));
    let c = t
        .column(col)
        .unwrap_or_else(|| panic!("table {table}: no column {col}"));
    let row = t
        .row(key)
        .unwrap_or_else(|| panic!("table {table}: no row {key:?}"));
    row.values[c].as_f64()
}

/// Family `name` with options `opts` (name, value) on a gold and a run given as texts: both
/// are written to a fresh directory as `gold.EXT` and `run.EXT` (`ext` may be empty) and
/// scored by `fairscore::family::evaluate`. Returns the results, or the error.
pub fn family_texts(
    name: &str,
    opts: &[(&str, &str)],
    gold: &str,
    pred: &str,
    ext: &str,
) -> fairscore::Result<fairscore::table::Results> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "family_texts_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    let dot = if ext.is_empty() { "" } else { "." };
    let (g, p) = (
        dir.join(format!("gold{dot}{ext}")),
        dir.join(format!("run{dot}{ext}")),
    );
    std::fs::write(&g, gold).expect("write gold");
    std::fs::write(&p, pred).expect("write run");
    let mut o = fairscore::family::Options::default();
    for (k, v) in opts {
        o.set(k, v)?;
    }
    let fam = fairscore::family::build(name, &o)?;
    let r = fairscore::family::evaluate(fam.as_ref(), &g, &p, None);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// The headless browser page tests use (the three names `scripts/page_check.sh` looks for), or
/// `None` with a skip notice naming `test` and `what` is not checked; under CI
/// ([`required`]) a missing browser fails the test.
pub fn chromium(test: &str, what: &str) -> Option<String> {
    let found = std::process::Command::new("bash")
        .args([
            "-c",
            "command -v chromium || command -v chromium-browser || command -v google-chrome",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    assert!(
        found.is_some() || !required(),
        "{test}: no chromium, but CI requires the page checks (apt-get install -y chromium)"
    );
    if found.is_none() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "{test}: skipped: no chromium (apt-get install -y chromium); {what}"
        );
    }
    found
}
