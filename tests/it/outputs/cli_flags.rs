//! Every long flag of the command line is defined once under `src/cli` (commands share the
//! definitions by flattening them), and every scoring command accepts the common flags.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// `(long name, file:line)` of every `long = "…"` or bare `long` (named after its field)
/// definition in the clap layer.
fn definitions() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim();
            if !t.starts_with("#[arg(") && !t.starts_with("long") {
                continue;
            }
            // The attribute may span lines: join it up to its closing `)]`.
            let mut attr = String::new();
            for l in &lines[i..] {
                attr.push_str(l.trim());
                attr.push(' ');
                if l.trim_end().ends_with(")]") {
                    break;
                }
            }
            if !t.starts_with("#[arg(") {
                continue;
            }
            let name = if let Some(p) = attr.find("long = \"") {
                attr[p + 8..].split('"').next().unwrap_or("").to_string()
            } else if attr.contains("long,") || attr.contains("long)") || attr.contains("(long") {
                // A bare `long`: the field on the following line names it.
                lines[i + 1..]
                    .iter()
                    .find(|l| l.trim().starts_with("pub ") && l.contains(':'))
                    .and_then(|l| l.trim().strip_prefix("pub "))
                    .and_then(|l| l.split(':').next())
                    .map(|n| n.trim().replace('_', "-"))
                    .unwrap_or_default()
            } else {
                continue;
            };
            out.push((name, format!("{}:{}", f.display(), i + 1)));
        }
    }
    out
}

#[test]
fn no_long_flag_is_defined_twice() {
    let defs = definitions();
    assert!(
        defs.len() > 40,
        "found only {} flag definitions",
        defs.len()
    );
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, at) in defs {
        seen.entry(name).or_default().push(at);
    }
    let twice: Vec<String> = seen
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(n, at)| format!("--{n}: {}", at.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "flags defined more than once:\n{}",
        twice.join("\n")
    );
}

fn help(cmd: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args([cmd, "--help"])
        .output()
        .expect("run fairscore");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_scoring_command_takes_the_common_flags() {
    for cmd in [
        "score",
        "fair",
        "compare",
        "muc",
        "segmentation",
        "tagging",
        "evaluate",
    ] {
        let h = help(cmd);
        for flag in ["--gold", "--pred", "--format", "--json", "--bootstrap"] {
            assert!(h.contains(flag), "{cmd} --help lacks {flag}");
        }
    }
    // The old names still work as aliases.
    for (cmd, alias) in [
        ("score", "--ref"),
        ("fair", "--target"),
        ("fair", "--system"),
    ] {
        assert!(
            help(cmd).contains(alias),
            "{cmd} --help lacks the alias {alias}"
        );
    }
}
