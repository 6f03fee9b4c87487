//! A command given input it does not take says which command does (issue 34). When a
//! command fails, its input paths are sniffed (a few KiB of each file, the names in a
//! folder) and, if one is of a kind the command does not read, a `hint:` line names the
//! command that reads it. Nothing here decides a score: it only words the way out of an
//! error, so a wrong guess costs a useless hint, never a wrong number.

use std::io::Read;
use std::path::{Path, PathBuf};

/// What an input looks like, from its name and first lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A HIPE TSV file (`TOKEN` header or `# hipe2022:` comments).
    Hipe,
    /// A CoNLL file with NER tags (`FORM … B-TYPE`).
    Conll,
    /// A CoNLL-U file (ten tab-separated columns, numeric ids).
    Conllu,
    /// Plain text, one sentence a line (word segmentation).
    Text,
    /// Token TAB tag lines whose tags are not NER tags (tagging).
    Tags,
    /// A span file of the FairEval reference (`LABEL TAB begin TAB end`).
    Spans,
    /// A brat `.ann` file, or a folder of them.
    Brat,
    /// A brat project: one folder of `.ann` files per annotator.
    BratProject,
    /// A JSON or JSON-lines export (doccano, Label Studio, Prodigy).
    Json,
    /// A folder of HIPE TSV runs or gold files.
    HipeFolder,
    /// A campaign file (TOML).
    Campaign,
}

impl Kind {
    /// How the kind is named in a hint.
    fn describe(self) -> &'static str {
        match self {
            Kind::Hipe => "a HIPE TSV file",
            Kind::Conll => "a CoNLL file with NER tags",
            Kind::Conllu => "a CoNLL-U file",
            Kind::Text => "plain text (one sentence a line)",
            Kind::Tags => "a token-and-tag file (not NER tags)",
            Kind::Spans => "a span file (LABEL, begin, end)",
            Kind::Brat => "brat standoff annotations",
            Kind::BratProject => "a brat project (one folder per annotator)",
            Kind::Json => "a JSON export of an annotation tool (doccano, Label Studio, Prodigy)",
            Kind::HipeFolder => "a folder of HIPE TSV files",
            Kind::Campaign => "a campaign file",
        }
    }

    /// The command that takes the kind, as a user would type it.
    fn command(self) -> &'static str {
        match self {
            Kind::Hipe => {
                "`fairscore score` (the official HIPE numbers; `evaluate --family spans` reads \
                 it too)"
            }
            Kind::Conll | Kind::Spans => {
                "`fairscore evaluate --family spans` (also `fair`, `muc`; `score --format conll` \
                 gives HIPE's regimes)"
            }
            Kind::Conllu => "`fairscore segmentation` or `fairscore tagging`",
            Kind::Text => "`fairscore segmentation`",
            Kind::Tags => "`fairscore tagging`",
            Kind::Brat => {
                "`fairscore evaluate --family spans --format brat` (also `fair`, `muc`, and \
                 `leaderboard --campaign FILE` for many runs)"
            }
            Kind::BratProject => "`fairscore agree --project DIR`",
            Kind::Json => {
                "`fairscore evaluate --family spans --format doccano|labelstudio|prodigy` (also \
                 `agree --annotator FILE` per annotator)"
            }
            Kind::HipeFolder => "`fairscore leaderboard` (a campaign of HIPE runs)",
            Kind::Campaign => {
                "`fairscore leaderboard --campaign FILE` (or `codabench-bundle --campaign FILE`)"
            }
        }
    }
}

/// A command as it ran: its name, the family it scored (`evaluate`, `compare`), whether a
/// format was given, and its input paths.
#[derive(Debug, Default)]
pub struct Job {
    /// The subcommand (`score`, `evaluate`, …).
    pub command: &'static str,
    /// `--family`, where the command takes one.
    pub family: Option<String>,
    /// Whether `--format` (or `--campaign`) was given: the user chose how to read.
    pub told: bool,
    /// The inputs to sniff.
    pub inputs: Vec<PathBuf>,
}

/// The kinds a command reads (the family's, for `evaluate` and `compare --family`).
fn takes(job: &Job) -> &'static [Kind] {
    const SPAN_FAMILIES: &[Kind] = &[Kind::Hipe, Kind::Conll, Kind::Spans, Kind::Brat, Kind::Json];
    let family = job.family.as_deref().unwrap_or(match job.command {
        "fair" => "fair",
        "muc" => "muc",
        "segmentation" => "segmentation",
        "tagging" => "tagging",
        _ => "",
    });
    match (job.command, family) {
        (_, "segmentation") => &[Kind::Text, Kind::Conllu],
        (_, "hipe") => &[Kind::Hipe],
        (_, "tagging") => &[Kind::Conllu, Kind::Tags],
        (_, "spans" | "ner" | "fair" | "muc") => SPAN_FAMILIES,
        ("score" | "normalize" | "compare", _) => &[Kind::Hipe],
        ("check", _) => &[Kind::Hipe, Kind::Conll, Kind::Spans, Kind::Brat, Kind::Json],
        ("agree", _) => &[Kind::Brat, Kind::BratProject, Kind::Json],
        ("convert", _) => &[Kind::Conll, Kind::Brat, Kind::Json],
        ("leaderboard", _) => &[Kind::HipeFolder],
        // Families registered elsewhere, and commands not listed: no guess.
        _ => &[],
    }
}

/// The hint for a failed `job`: an input of a kind the command does not read, and the
/// command that reads it. The hint follows from the error (issue 46.8): `about`, the file the
/// error names, is the one sniffed when it is an input or lies in one (a file of a brat
/// folder); a file outside the inputs (a map, a tag set) gets no hint. Only an error naming
/// no file (`None`) has every input sniffed.
pub fn hint(job: &Job, about: Option<&Path>) -> Option<String> {
    let takes = takes(job);
    if takes.is_empty() || job.told {
        return None;
    }
    let sniffed: Vec<&Path> = match about {
        Some(p) if job.inputs.iter().any(|i| p.starts_with(i)) => vec![p],
        Some(_) => Vec::new(),
        None => job.inputs.iter().map(PathBuf::as_path).collect(),
    };
    sniffed.into_iter().find_map(|p| {
        let kind = sniff(p)?;
        if takes.contains(&kind) {
            return None;
        }
        let instead = match (job.command, kind) {
            ("compare", Kind::Conll | Kind::Spans | Kind::Brat | Kind::Json) => {
                "`fairscore compare --family spans` (or fair, muc)"
            }
            ("compare", Kind::Text) => "`fairscore compare --family segmentation`",
            ("compare", Kind::Tags) => "`fairscore compare --family tagging`",
            ("compare", Kind::Conllu) => "`fairscore compare --family segmentation|tagging`",
            ("leaderboard", _) => {
                "`fairscore leaderboard --campaign FILE` (a campaign of any family and format, \
                 docs/campaigns.md)"
            }
            _ => kind.command(),
        };
        let command = match &job.family {
            Some(f) => format!(
                "{} --family {}",
                job.command,
                fairscore::io::escape_controls(f)
            ),
            None => job.command.to_string(),
        };
        Some(format!(
            "{} looks like {}, which `fairscore {command}` does not read; use {instead}",
            fairscore::io::show_path(p),
            kind.describe(),
        ))
    })
}

/// How many bytes of a file are read to tell its kind.
const SNIFF_BYTES: u64 = 16 * 1024;

/// What `path` looks like, or None when it cannot be told (or read).
pub fn sniff(path: &Path) -> Option<Kind> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_dir() {
        return sniff_dir(path);
    }
    // A FIFO or a device could block or never end: only regular files are opened.
    if !meta.is_file() {
        return None;
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("ann") => return Some(Kind::Brat),
        Some("json" | "jsonl") => return Some(Kind::Json),
        Some("toml") => return Some(Kind::Campaign),
        Some("conllu") => return Some(Kind::Conllu),
        _ => {}
    }
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(SNIFF_BYTES)
        .read_to_end(&mut head)
        .ok()?;
    sniff_text(&String::from_utf8_lossy(&head))
}

/// A folder: brat files in it, in folders in it (a project), or HIPE TSV files.
fn sniff_dir(dir: &Path) -> Option<Kind> {
    let names = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .map(|rd| rd.flatten().take(1000).map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    let has_ann = |v: &[PathBuf]| v.iter().any(|p| p.extension().is_some_and(|e| e == "ann"));
    let entries = names(dir);
    if has_ann(&entries) {
        return Some(Kind::Brat);
    }
    let sub: Vec<&PathBuf> = entries.iter().filter(|p| p.is_dir()).take(50).collect();
    if sub.len() >= 2 && sub.iter().filter(|d| has_ann(&names(d))).count() >= 2 {
        return Some(Kind::BratProject);
    }
    if entries.iter().any(|p| {
        p.extension().is_some_and(|e| e == "tsv") && sniff(p).is_some_and(|k| k == Kind::Hipe)
    }) {
        return Some(Kind::HipeFolder);
    }
    if sub.iter().any(|d| has_ann(&names(d))) {
        return Some(Kind::Brat);
    }
    None
}

/// The kind of a text from its first lines.
fn sniff_text(text: &str) -> Option<Kind> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.lines().take(20).any(|l| l.starts_with("# hipe20")) {
        return Some(Kind::Hipe);
    }
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with("-DOCSTART-"))
        .take(50)
        .collect();
    let first = lines.first()?;
    if first.starts_with("TOKEN\t") {
        return Some(Kind::Hipe);
    }
    if first.starts_with('T') && first.split('\t').nth(1).is_some_and(|f| f.contains(' ')) {
        return Some(Kind::Brat);
    }
    if first.starts_with('{') || first.starts_with('[') {
        return Some(Kind::Json);
    }
    let cells = |l: &str| l.split('\t').count();
    if lines.iter().all(|l| cells(l) == 10)
        && lines.iter().all(|l| {
            let id = l.split('\t').next().unwrap_or("");
            !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'-' || b == b'.')
        })
    {
        return Some(Kind::Conllu);
    }
    let numeric = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    if lines.iter().all(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        (3..=4).contains(&f.len()) && numeric(f[1].trim()) && numeric(f[2].trim())
    }) {
        return Some(Kind::Spans);
    }
    let last_cells: Vec<&str> = lines
        .iter()
        .filter_map(|l| {
            l.split_whitespace()
                .last()
                .filter(|_| l.split_whitespace().count() >= 2)
        })
        .collect();
    let ner = |t: &str| {
        t == "O"
            || ["B-", "I-", "E-", "S-", "L-", "U-", "B_", "I_"]
                .iter()
                .any(|p| t.starts_with(p) && t.len() > 2)
    };
    if last_cells.len() == lines.len() && last_cells.iter().all(|t| ner(t)) {
        return Some(Kind::Conll);
    }
    if lines.iter().all(|l| !l.contains('\t')) {
        return Some(Kind::Text);
    }
    if lines.iter().all(|l| cells(l) >= 2) {
        return Some(Kind::Tags);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_first_lines() {
        assert_eq!(
            sniff_text("TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n"),
            Some(Kind::Hipe)
        );
        assert_eq!(sniff_text("Paris NNP B-LOC\nis VBZ O\n"), Some(Kind::Conll));
        assert_eq!(sniff_text("Paris\tB-LOC\nis\tO\n"), Some(Kind::Conll));
        assert_eq!(sniff_text("Paris\tNNP\nis\tVBZ\n"), Some(Kind::Tags));
        assert_eq!(sniff_text("约翰 喜欢 玛丽\n他 走 了\n"), Some(Kind::Text));
        assert_eq!(sniff_text("PER\t1\t2\tAnna\n"), Some(Kind::Spans));
        assert_eq!(sniff_text("T1\tPER 0 4\tAnna\n"), Some(Kind::Brat));
        assert_eq!(sniff_text("{\"text\": \"x\"}\n"), Some(Kind::Json));
        let conllu = "1\tA\ta\tX\tX\t_\t0\troot\t_\t_\n2\tb\tb\tX\tX\t_\t1\tdep\t_\t_\n";
        assert_eq!(sniff_text(conllu), Some(Kind::Conllu));
        assert_eq!(sniff_text(""), None);
    }

    #[test]
    fn a_command_reading_the_kind_gets_no_hint() {
        let dir = std::env::temp_dir().join(format!("fairscore-redirect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let conll = dir.join("run.conll");
        std::fs::write(&conll, "Paris B-LOC\nis O\n").unwrap();
        let job = |command, family: Option<&str>| Job {
            command,
            family: family.map(str::to_string),
            told: false,
            inputs: vec![conll.clone()],
        };
        assert_eq!(hint(&job("evaluate", Some("spans")), None), None);
        assert_eq!(hint(&job("fair", None), None), None);
        let h = hint(&job("score", None), Some(&conll)).unwrap();
        assert!(
            h.contains("CoNLL") && h.contains("evaluate --family spans"),
            "{h}"
        );
        let h = hint(&job("segmentation", None), None).unwrap();
        assert!(h.contains("evaluate --family spans"), "{h}");
        let told = Job {
            told: true,
            ..job("score", None)
        };
        assert_eq!(hint(&told, None), None);
        // An error in a file that is no input (a map, a tag set) gets no hint.
        let map = dir.join("map.json");
        assert_eq!(hint(&job("score", None), Some(&map)), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
