//! An emulation of Codabench's compute worker on the bundle `fairscore codabench-bundle`
//! writes: the bundle is unpacked with Python's `zipfile` as the worker unpacks it (the
//! binary loses its executable bit), `scoring_program/` becomes the program directory,
//! `reference_data/` `input/ref`, the participant's zip `input/res`; the `command` of
//! `metadata.yaml` is read with YAML and split with `shlex` as docker-py does (today's worker
//! splits on spaces, which reads the bundle's `sh run.sh` alike), `/app/program`, `/app/input`
//! and `/app/output` substituted, and run in the program directory; `scores.json` is read as
//! `push_scores` reads it. The files are laid out as given, without the worker's unwrapping
//! of a zip's first folder: `scripts/codabench_emulate.py` emulates that too
//! (`tests/it/campaign/codabench_emulation.rs`). Used by `tests/it/campaign/codabench.rs`
//! (family campaigns) and `codabench_hipe.rs` (HIPE).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{copy_dir, fairscore};

pub fn python(script: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 runs (the emulation unpacks the bundle with zipfile)");
    assert!(
        out.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Writes `zip` with Python's `zipfile` (deflated), each file at its name inside.
pub fn zip_files(zip: &Path, entries: &[(String, std::path::PathBuf)]) {
    let mut args = vec![zip.display().to_string()];
    for (inside, file) in entries {
        args.push(inside.clone());
        args.push(file.display().to_string());
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    python(
        "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    a = sys.argv[2:]\n    for inside, f in zip(a[::2], a[1::2]):\n        z.write(f, inside)",
        &refs,
    );
}

/// Unpacks `zip` into `dest` as the worker does (`ZipFile.extractall`, modes not kept).
pub fn unzip(zip: &Path, dest: &Path) {
    python(
        "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z:\n    assert z.testzip() is None\n    z.extractall(sys.argv[2])",
        &[&zip.display().to_string(), &dest.display().to_string()],
    );
}

/// The command of `metadata.yaml` (YAML, split by shlex) and the leaderboard's column keys
/// of `competition.yaml`, read by Python as Codabench reads them (PyYAML when installed).
pub fn read_bundle(dir: &Path) -> (Vec<String>, Vec<String>) {
    let script = r#"
import json, shlex, sys, re
def load(p):
    text = open(p).read()
    try:
        import yaml
        return yaml.load(text, Loader=yaml.FullLoader)
    except ImportError:
        return None
meta = load(sys.argv[1])
comp = load(sys.argv[2])
if meta is None:
    line = [l for l in open(sys.argv[1]) if l.startswith('command:')][0]
    command = json.loads(line[len('command:'):])
    keys = [json.loads(m) for m in re.findall(r'^        key: (".*")$', open(sys.argv[2]).read(), re.M)]
else:
    command = meta['command']
    assert comp['version'] == 2 and comp['title'] and comp['image'] and comp['terms']
    assert comp['tasks'][0]['scoring_program'] == 'scoring_program'
    assert comp['phases'][0]['tasks'] == [0]
    cols = comp['leaderboards'][0]['columns']
    assert [c['index'] for c in cols] == list(range(len(cols)))
    assert all(c['sorting'] in ('desc', 'asc') for c in cols)
    keys = [c['key'] for c in cols]
print(json.dumps({'command': shlex.split(command), 'keys': keys}))
"#;
    let out = python(
        script,
        &[
            &dir.join("scoring_program/metadata.yaml")
                .display()
                .to_string(),
            &dir.join("competition.yaml").display().to_string(),
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let strings = |x: &serde_json::Value| -> Vec<String> {
        x.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    (strings(&v["command"]), strings(&v["keys"]))
}

/// A worker's run of the scoring program: program, input/ref, input/res and output laid out
/// under `root`, the command run there; returns (exit code, stderr, scores.json if written).
pub struct Worker {
    /// The unpacked bundle.
    pub root: PathBuf,
    /// The scoring program's command, split as the worker splits it.
    pub command: Vec<String>,
    /// The leaderboard's column keys.
    pub keys: Vec<String>,
}

impl Worker {
    /// Writes the bundle of the family campaign file `campaign` with the test binary (or
    /// `FAIRSCORE_CODABENCH_BINARY`) as its program and unpacks it.
    pub fn new(dir: &Path, gold: &Path, campaign: &Path) -> Worker {
        Worker::with(
            dir,
            gold,
            &["--campaign".to_string(), campaign.display().to_string()],
        )
    }

    /// Writes the bundle of the campaign `campaign_args` name (`--campaign FILE`, or
    /// `--preset NAME --resources DIR`) with the test binary (or
    /// `FAIRSCORE_CODABENCH_BINARY`) as its program and unpacks it.
    pub fn with(dir: &Path, gold: &Path, campaign_args: &[String]) -> Worker {
        let zip = dir.join("bundle.zip");
        // FAIRSCORE_CODABENCH_BINARY: ship another build (the glibc-2.17 one of
        // scripts/codabench_bundle.sh) instead of the test binary.
        let binary = std::env::var("FAIRSCORE_CODABENCH_BINARY")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_fairscore").to_string());
        let mut args: Vec<String> = vec!["codabench-bundle".into()];
        args.extend(campaign_args.iter().cloned());
        args.extend([
            "--gold-dir".into(),
            gold.display().to_string(),
            "--binary".into(),
            binary,
            zip.display().to_string(),
        ]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = fairscore(&refs);
        assert!(
            out.status.success(),
            "codabench-bundle: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bundle = dir.join("bundle");
        unzip(&zip, &bundle);
        let (command, keys) = read_bundle(&bundle);
        Worker {
            root: bundle,
            command,
            keys,
        }
    }

    /// Scores a submission (files at their paths in the zip) in a fresh run directory.
    pub fn score(
        &self,
        name: &str,
        files: &[(&str, &str)],
    ) -> (i32, String, Option<serde_json::Value>) {
        let run = self.root.parent().unwrap().join(name);
        let _ = std::fs::remove_dir_all(&run);
        let res = run.join("input/res");
        std::fs::create_dir_all(&res).unwrap();
        for (path, text) in files {
            let p = res.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        self.run(&run)
    }

    /// Scores the submission `zip` (a participant's zip, unpacked into `input/res` as the
    /// worker unpacks it) in a fresh run directory.
    pub fn score_zip(&self, name: &str, zip: &Path) -> (i32, String, Option<serde_json::Value>) {
        let run = self.root.parent().unwrap().join(name);
        let _ = std::fs::remove_dir_all(&run);
        let res = run.join("input/res");
        std::fs::create_dir_all(&res).unwrap();
        unzip(zip, &res);
        self.run(&run)
    }

    /// Lays out program, gold and output beside `run/input/res` and runs the command there.
    fn run(&self, run: &Path) -> (i32, String, Option<serde_json::Value>) {
        let (program, input, output) = (run.join("program"), run.join("input"), run.join("output"));
        copy_dir(&self.root.join("scoring_program"), &program);
        copy_dir(&self.root.join("reference_data"), &input.join("ref"));
        std::fs::create_dir_all(&output).unwrap();
        let sub = |a: &str| {
            a.replace("/app/program", &program.display().to_string())
                .replace("/app/input", &input.display().to_string())
                .replace("/app/output", &output.display().to_string())
        };
        let args: Vec<String> = self.command.iter().map(|a| sub(a)).collect();
        let out = Command::new(&args[0])
            .args(&args[1..])
            .current_dir(&program)
            .output()
            .unwrap();
        assert!(
            !output.join("metadata").exists(),
            "the program wrote the worker's metadata file"
        );
        let scores = std::fs::read_to_string(output.join("scores.json"))
            .ok()
            .map(|t| serde_json::from_str(&t).expect("scores.json is JSON"));
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            scores,
        )
    }
}

/// The `inspect` pages embedded in a `detailed_results.html` (issue 46.7: Codabench uploads
/// that one file): by column key, each `iframe`'s `srcdoc` unescaped.
pub fn embedded_pages(detailed: &str) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for part in detailed.split("<iframe title=\"").skip(1) {
        let (key, rest) = part.split_once('"').expect("a title");
        let at = rest.find("srcdoc=\"").expect("a srcdoc") + "srcdoc=\"".len();
        let end = rest[at..].find('"').expect("the srcdoc's end");
        let page = rest[at..at + end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&#x2F;", "/")
            .replace("&amp;", "&");
        out.insert(key.to_string(), page);
    }
    out
}
