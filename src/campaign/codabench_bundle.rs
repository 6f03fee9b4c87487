//! A Codabench competition bundle of a campaign of family tasks: one zip holding
//! `competition.yaml` (version 2: title, pages, one phase of result submissions, one Codabench
//! task, one leaderboard whose columns are [`super::codabench::columns`]), `scoring_program/`
//! (`metadata.yaml`, `run.sh`, the fairscore binary and the campaign file) and
//! `reference_data/` (the gold files the columns use), plus the logo and pages Codabench
//! requires.
//!
//! The worker splits the command of `metadata.yaml` on spaces (no shell, no quotes) and runs
//! it in the competition's image in `/app/program`, the submission and gold in
//! `/app/input/res` and `/app/input/ref`, the outputs in `/app/output`; it unpacks bundles with
//! Python's `zipfile`, which drops the executable bit. So the command is `sh run.sh`, and the
//! script runs the binary, copied to `/tmp` with mode 755 when it is not executable.
//! What Codabench stores is checked before anything is written: column keys and titles of at
//! most 36 characters, dates quoted (YAML would read an unquoted date-time as midnight).

use std::path::{Path, PathBuf};

use super::codabench::{check_rank_by, columns, LeaderboardColumn};
use super::codabench_blind::{gold_files, Reveal};
use super::codabench_kit::{
    glibc_needed, public_and_kit, shipped_label_list, unwrapped, BundleFile, PUBLIC_DATA,
    STARTING_KIT,
};
use super::families::FamilyCampaign;
use crate::error::{Error, Result};
use crate::zip::ZipWriter;

/// The name of the binary and of the campaign file in `scoring_program/`.
pub const PROGRAM: &str = "fairscore";
/// The campaign file's name in `scoring_program/`.
pub const CAMPAIGN_FILE: &str = "campaign.toml";
/// The folder of a HIPE campaign's tag sets and QID maps in `scoring_program/`.
pub const RESOURCES: &str = "resources";
/// The script the command of `metadata.yaml` runs, in `scoring_program/`.
pub const RUN_SCRIPT: &str = "run.sh";
/// The Docker image of the bundle when none is given: Codabench's own default (its
/// `Competition.docker_image` and the v2 unpacker's), built on Debian 10 (glibc 2.28).
pub const DEFAULT_IMAGE: &str = "codalab/codalab-legacy:py37";
/// The phase's start when none is given.
pub const DEFAULT_START: &str = "2026-01-01 00:00:00";
/// How the leaderboard takes a submission: every scored submission on it, as `leaderboard`
/// ranks every run (Codabench's `Force_Latest_Multiple`; its default, `Add`, waits for each
/// participant to add their submissions by hand).
pub const SUBMISSION_RULE: &str = "Force_Latest_Multiple";
/// The most characters Codabench stores in a leaderboard column's key and title
/// (`Column.key`, `Column.title`); [`MAX_TITLE`] in the competition's title.
pub const MAX_COLUMN: usize = 36;
/// See [`MAX_COLUMN`].
pub const MAX_TITLE: usize = 256;
/// The most characters Codabench stores in the name of the competition's Docker image.
pub const MAX_IMAGE: usize = 128;
/// A 16×16 PNG of one colour: Codabench requires a logo.
const LOGO: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x91, 0x68,
    0x36, 0x00, 0x00, 0x00, 0x16, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xd0, 0x0e, 0x9f, 0x45,
    0x12, 0x62, 0x18, 0xd5, 0x30, 0xaa, 0x61, 0xf8, 0x6a, 0x00, 0x00, 0x8d, 0x7e, 0x1c, 0x10, 0x89,
    0x59, 0xb3, 0x16, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// What the bundle is made of, besides the campaign.
#[derive(Debug, Clone)]
pub struct BundleOptions {
    /// The campaign file's bytes (copied into the scoring program as `campaign.toml`): a
    /// campaign of family tasks, or a HIPE campaign (a preset's text).
    pub campaign: Vec<u8>,
    /// Whether it is a HIPE campaign: the program then reads the campaign's tag sets and QID
    /// maps (shipped in `scoring_program/resources/`) with `--resources`.
    pub hipe: bool,
    /// The directory of the gold files.
    pub gold_dir: PathBuf,
    /// The fairscore binary to ship (it must run on the competition's Docker image).
    pub binary: PathBuf,
    /// The competition's Docker image.
    pub docker_image: String,
    /// The phase's start and, optionally, end (`YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, UTC).
    pub start: String,
    /// The phase's end, if any.
    pub end: Option<String>,
    /// The terms page (Markdown); `None`: a placeholder that says so ([`placeholders`]).
    pub terms: Option<Vec<u8>>,
    /// The competition's logo (PNG); `None`: a one-pixel placeholder.
    pub logo: Option<Vec<u8>>,
}

/// The placeholder text of the terms page: it says what it is on the published page too.
const TERMS_PLACEHOLDER: &[u8] = b"# Terms\n\n**PLACEHOLDER: the organisers have not written the \
terms of participation yet** (`fairscore codabench-bundle --terms FILE.md` puts them here).\n";

/// The files of the bundle that are placeholders the organiser has not replaced (`--terms`,
/// `--logo`): each must be replaced before the competition is published.
pub fn placeholders(o: &BundleOptions) -> Vec<&'static str> {
    let mut v = Vec::new();
    if o.logo.is_none() {
        v.push("logo.png");
    }
    if o.terms.is_none() {
        v.push("pages/terms.md");
    }
    v
}

/// The command of `scoring_program/metadata.yaml`: words without spaces or quotes, which the
/// worker splits on spaces and docker-py with `shlex` alike, and no `$input`, `$output` or
/// `$program`, which the worker would replace anywhere in the text.
pub const COMMAND: &str = "sh run.sh";

/// `scoring_program/run.sh`: from the program's folder (`/app/program`), the binary (copied to
/// `/tmp` with mode 755 when unpacking lost its mode, and removed after) scores the `input`
/// folder beside it into `output` (`/app/input`, `/app/output`), with the program's exit
/// status. A HIPE campaign's program also gets `--resources` (its tag sets and QID maps).
pub fn run_script(hipe: bool) -> String {
    let resources = if hipe {
        format!(" --resources \"$P/{RESOURCES}\"")
    } else {
        String::new()
    };
    format!(
        "# The scoring program of a fairscore campaign, written by `fairscore codabench-bundle`\n\
         # (docs/codabench.md). Codabench's worker runs `sh run.sh` in the program's folder\n\
         # (/app/program), the submission and the gold beside it in input/ (res/, ref/), the\n\
         # outputs in output/.\n\
         cd \"$(dirname \"$0\")\" || exit 2\n\
         P=$(pwd)\n\
         A=$(dirname \"$P\")\n\
         B=$P/{PROGRAM}\n\
         T=\n\
         # Unpacking drops the executable bit: run a copy that has it.\n\
         if [ ! -x \"$B\" ]; then T=/tmp/{PROGRAM}.$$; cp \"$B\" \"$T\" && chmod 755 \"$T\" && B=\"$T\"; fi\n\
         \"$B\" codabench --campaign \"$P/{CAMPAIGN_FILE}\"{resources} \"$A/input\" \"$A/output\"\n\
         R=$?\n\
         [ -z \"$T\" ] || rm -f \"$T\"\n\
         exit $R\n"
    )
}

/// Refuses, with the campaign file and line, a name Codabench cannot store: a leaderboard
/// column's key or title over [`MAX_COLUMN`] characters, the campaign's name (the
/// competition's title) over [`MAX_TITLE`].
fn check_lengths(
    cfg: &FamilyCampaign,
    cols: &[LeaderboardColumn],
    o: &BundleOptions,
) -> Result<()> {
    let image = o.docker_image.chars().count();
    if image > MAX_IMAGE {
        return Err(Error::usage(format!(
            "docker-image: {image} characters; Codabench stores an image name of at most \
             {MAX_IMAGE}"
        )));
    }
    let n = cfg.name.chars().count();
    if n > MAX_TITLE {
        return Err(Error::input(
            &cfg.file,
            0,
            format!(
                "invalid campaign: name: {n} characters; Codabench stores a competition's title \
                 of at most {MAX_TITLE}"
            ),
        ));
    }
    for c in cols {
        let (k, t) = (c.key.chars().count(), c.title.chars().count());
        if k > MAX_COLUMN || t > MAX_COLUMN {
            let task = &cfg.tasks[c.task];
            return Err(Error::input(
                &cfg.file,
                task.name_line,
                format!(
                    "invalid campaign: task {}: its leaderboard column {} (title {:?}) has \
                     {} characters; Codabench stores at most {MAX_COLUMN} in a column's key and \
                     title: shorten the task's name (or the gold's {{dataset}}/{{lang}} values)",
                    task.name,
                    c.key,
                    c.title,
                    k.max(t)
                ),
            ));
        }
    }
    Ok(())
}

/// A YAML double-quoted scalar of `s` that YAML 1.1 and 1.2 loaders (PyYAML, Codabench's)
/// read back as `s`: `"` and `\\` escaped, and every character a loader would refuse (C0 and
/// C1 controls, DEL, U+FFFE/U+FFFF) or read as a line break inside the scalar (U+0085,
/// U+2028, U+2029) written as an escape.
fn q(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control()
                || matches!(
                    c,
                    '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                ) =>
            {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A moment of the phase: date and time, compared as written.
type Moment = (u32, u32, u32, u32, u32, u32);

/// A date of the phase as YAML reads it (a timestamp): `YYYY-MM-DD[ HH:MM:SS]`, a real
/// calendar date and time of day, else a usage error naming the flag.
fn date(flag: &str, s: &str) -> Result<(String, Moment)> {
    let t = s.trim();
    let b = t.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = t.get(r)?;
        if part.bytes().all(|c| c.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    let sep = |i: usize, c: u8| b.get(i) == Some(&c);
    let parsed = (|| {
        let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        if !(sep(4, b'-') && sep(7, b'-')) {
            return None;
        }
        let (h, mi, se) = match b.len() {
            10 => (0, 0, 0),
            19 if sep(10, b' ') && sep(13, b':') && sep(16, b':') => {
                (num(11..13)?, num(14..16)?, num(17..19)?)
            }
            _ => return None,
        };
        Some((y, m, d, h, mi, se))
    })();
    let Some((y, m, d, h, mi, se)) = parsed else {
        return Err(Error::usage(format!(
            "{flag}: {s:?} is not a date YYYY-MM-DD or YYYY-MM-DD HH:MM:SS"
        )));
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    if !(1..=12).contains(&m) || d == 0 || d > days || h > 23 || mi > 59 || se > 59 || y == 0 {
        return Err(Error::usage(format!(
            "{flag}: {s:?} is no date of the calendar (month 1-12, a day the month has, \
             hours 0-23, minutes and seconds 0-59)"
        )));
    }
    Ok((t.to_string(), (y, m, d, h, mi, se)))
}

/// The phase's start and end as written in `competition.yaml`: real dates, the end after the
/// start.
fn phase(o: &BundleOptions) -> Result<(String, Option<String>)> {
    let (start, from) = date("phase_start", &o.start)?;
    let end = match &o.end {
        Some(e) => {
            let (end, to) = date("phase_end", e)?;
            if to <= from {
                return Err(Error::usage(format!(
                    "phase_end: {e:?} is not after `phase_start` {:?}",
                    o.start
                )));
            }
            Some(end)
        }
        None => None,
    };
    Ok((start, end))
}

/// `competition.yaml`.
pub fn competition_yaml(
    cfg: &FamilyCampaign,
    cols: &[LeaderboardColumn],
    o: &BundleOptions,
    public: bool,
) -> Result<String> {
    let tasks: Vec<String> = cfg.tasks.iter().map(|t| t.name.clone()).collect();
    let mut y = String::new();
    y.push_str(
        "# Written by `fairscore codabench-bundle` (docs/codabench.md). The leaderboard's\n",
    );
    y.push_str("# column keys are those of scores.json: change a task's name or rank_by in the\n");
    y.push_str("# campaign and write the bundle again rather than editing them here.\n");
    y.push_str("version: 2\n");
    y.push_str(&format!("title: {}\n", q(&cfg.name)));
    y.push_str(&format!(
        "description: {}\n",
        q(&format!("Scored by fairscore: {}", tasks.join(", ")))
    ));
    y.push_str("image: logo.png\nterms: pages/terms.md\n");
    y.push_str(&format!("docker_image: {}\n", q(&o.docker_image)));
    y.push_str("enable_detailed_results: True\n");
    // Codabench shows every submission's detailed results to every leaderboard viewer unless
    // told otherwise.
    let shown = if cfg.detailed_results_public {
        "True"
    } else {
        "False"
    };
    y.push_str(&format!("show_detailed_results_in_leaderboard: {shown}\n"));
    y.push_str("pages:\n  - title: Overview\n    file: pages/overview.md\n");
    y.push_str("  - title: Evaluation\n    file: pages/evaluation.md\n");
    y.push_str("phases:\n  - index: 0\n    name: Evaluation\n");
    y.push_str("    description: Submit a zip of your run files.\n");
    let (start, end) = phase(o)?;
    // Quoted: YAML reads an unquoted date-time as a datetime, which Codabench cuts to midnight.
    y.push_str(&format!("    start: {}\n", q(&start)));
    if let Some(end) = end {
        y.push_str(&format!("    end: {}\n", q(&end)));
    }
    y.push_str(&format!("    starting_kit: {STARTING_KIT}\n"));
    if public {
        y.push_str(&format!("    public_data: {PUBLIC_DATA}\n"));
    }
    y.push_str("    accepts_only_result_submissions: True\n    tasks:\n      - 0\n");
    y.push_str(&format!(
        "tasks:\n  - index: 0\n    name: {}\n    description: {}\n",
        q(&cfg.name),
        q(&format!("The campaign's tasks: {}", tasks.join(", ")))
    ));
    y.push_str("    scoring_program: scoring_program\n    reference_data: reference_data\n");
    y.push_str("leaderboards:\n  - title: Results\n    key: main\n");
    y.push_str(&format!("    submission_rule: {}\n", q(SUBMISSION_RULE)));
    y.push_str("    columns:\n");
    for (i, c) in cols.iter().enumerate() {
        y.push_str(&format!(
            "      - title: {}\n        key: {}\n        index: {i}\n        sorting: {}\n        precision: 4\n",
            q(&c.title),
            q(&c.key),
            // An error count ranks the lowest first.
            if c.lower_is_better { "asc" } else { "desc" }
        ));
    }
    Ok(y)
}

fn overview(cfg: &FamilyCampaign) -> String {
    use crate::escape::markdown as md;
    let mut s = format!(
        "# {}\n\nSubmit one zip of your run files, one per task",
        md(&cfg.name)
    );
    s.push_str(" (and per data set or language where a task has several); folders inside the zip are fine.\n\n");
    s.push_str("| task | family | format | name your run file |\n|---|---|---|---|\n");
    for t in &cfg.tasks {
        let format = t
            .options
            .format
            .map_or_else(|| "auto".to_string(), |f| f.to_string());
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            md(&t.name),
            t.family.name(),
            format,
            md(&t.runs.to_string())
        ));
    }
    s.push_str("\n`{team}` is your team's name, `{run}` the run's number; `{lang}` and `{dataset}` name the gold the run is for.\n");
    s.push_str("\nThe phase's **starting kit** holds a README with each run's name and the exact `fairscore check` command to run before submitting, a sample submission in the expected layout, the tasks' label lists and the fairscore binary; its **public data** holds the test texts without annotations, in the gold's own format.\n");
    if cfg.tasks.iter().any(|t| {
        matches!(t.family.name(), "spans" | "fair" | "muc")
            && super::names::pattern_extension(&t.runs).is_none()
    }) {
        s.push_str("\nA pattern without an extension takes a run in any format the task reads, the file's extension added (`alpha_1.conll`, `alpha_1.jsonl`); a brat run is a folder of `.ann` and `.txt` files named by the pattern (`alpha_1/`) inside the zip.\n");
    }
    s
}

fn evaluation(cfg: &FamilyCampaign, cols: &[LeaderboardColumn]) -> String {
    use crate::escape::markdown as md;
    let mut s = String::from(
        "# Evaluation\n\nEvery run is scored by fairscore against the gold file of its column. ",
    );
    s.push_str(
        "The leaderboard ranks by the first column, then the next ones; scores are fractions.\n\n",
    );
    s.push_str("| column | task | family | metric | gold |\n|---|---|---|---|---|\n");
    for c in cols {
        let t = &cfg.tasks[c.task];
        s.push_str(&format!(
            "| {} | {} | {} | {} of {} {} | {} |\n",
            md(&c.key),
            md(&t.name),
            t.family.name(),
            md(&c.metric),
            md(&t.headline.table),
            md(&t.headline.row.join(" ")),
            md(&c.gold)
        ));
    }
    s.push_str("\nA column for which the submission has no run scores 0, or the largest number where the metric counts errors, and ranks last (the submission's detailed results say so). ");
    s.push_str("\n\nBefore it is scored, every run is checked as `fairscore check` checks it, in each of these formats: ");
    s.push_str("CoNLL (`conll`), CoNLL-U (`conllu`), token-tag TSV (`tsv`) and plain text (`text`), and, for span tasks, the standoff runs: brat folders (`brat`) and the JSON exports of doccano (`doccano`, JSONL), Label Studio (`labelstudio`, JSON) and Prodigy (`prodigy`, JSONL). ");
    s.push_str("A run with errors or warnings fails the submission, and the check's findings are in its error log. ");
    if cfg.tasks.iter().any(|t| t.label_list.is_some()) {
        s.push_str("Run labels are checked against the task's label list where it has one (in the starting kit, `labels/`). ");
    }
    s.push_str("\n\nYou can run the same check before submitting, without the gold: the public data holds each gold blind (its texts without annotations), and the starting kit's README gives the exact command for each column, `fairscore check --format FORMAT --gold public_data/GOLD --pred RUN` (with `--labels` and the task's label list where it has one). The starting kit's sample submission shows the layout of a submission the scoring program accepts.\n");
    s
}

/// The bundle's files: `(path in the zip, bytes, executable)`, in a fixed order, notes for
/// the organiser (what the public data lacks) and what the public data reveals.
pub fn bundle_files(cfg: &FamilyCampaign, o: &BundleOptions) -> Result<Bundle> {
    let mut cols = columns(cfg, &o.gold_dir)?;
    check_lengths(cfg, &cols, o)?;
    check_rank_by(cfg, &mut cols, &o.gold_dir)?;
    let binary = std::fs::read(&o.binary)
        .map_err(|e| Error::input(&o.binary, 0, format!("cannot read the binary: {e}")))?;
    if !binary.starts_with(b"\x7fELF") {
        return Err(Error::input(
            &o.binary,
            0,
            "not an ELF executable (Codabench runs Linux containers)",
        ));
    }
    // The label lists, each once, refused before anything is read when they cannot go
    // beside the campaign file.
    let mut lists: Vec<(String, PathBuf)> = Vec::new();
    for t in &cfg.tasks {
        if let Some((inside, path)) = shipped_label_list(cfg, t)? {
            if !lists.iter().any(|(i, _)| *i == inside) {
                lists.push((inside, path));
            }
        }
    }
    // The breakdowns' training files, beside the campaign file too (inside its directory,
    // checked as the campaign was read).
    for t in &cfg.tasks {
        if let Some(tr) = &t.insight.train {
            if !lists.iter().any(|(i, _)| *i == tr.written) {
                lists.push((tr.written.clone(), tr.path.clone()));
            }
        }
    }
    let glibc = glibc_needed(&binary);
    let kit = public_and_kit(cfg, &cols, &o.gold_dir, &binary)?;
    let mut files: Vec<BundleFile> = vec![
        (
            "competition.yaml".into(),
            competition_yaml(cfg, &cols, o, kit.public)?.into_bytes(),
            false,
        ),
        (
            "logo.png".into(),
            o.logo.clone().unwrap_or_else(|| LOGO.to_vec()),
            false,
        ),
        (
            "pages/terms.md".into(),
            o.terms
                .clone()
                .unwrap_or_else(|| TERMS_PLACEHOLDER.to_vec()),
            false,
        ),
        (
            "pages/overview.md".into(),
            overview(cfg).into_bytes(),
            false,
        ),
        (
            "pages/evaluation.md".into(),
            evaluation(cfg, &cols).into_bytes(),
            false,
        ),
        (
            "scoring_program/metadata.yaml".into(),
            format!("command: {}\n", q(COMMAND)).into_bytes(),
            false,
        ),
        (
            format!("scoring_program/{RUN_SCRIPT}"),
            run_script(o.hipe).into_bytes(),
            false,
        ),
        (
            format!("scoring_program/{CAMPAIGN_FILE}"),
            o.campaign.clone(),
            false,
        ),
    ];
    for (name, path) in &cfg.resources {
        files.push((
            format!("scoring_program/{RESOURCES}/{name}"),
            crate::io::read_input(path)?,
            false,
        ));
    }
    for (inside, path) in lists {
        files.push((
            format!("scoring_program/{inside}"),
            crate::io::read_input(&path)?,
            false,
        ));
    }
    files.push((format!("scoring_program/{PROGRAM}"), binary, true));
    let mut golds: Vec<&str> = cols.iter().map(|c| c.gold.as_str()).collect();
    golds.sort_unstable();
    golds.dedup();
    // The worker unwraps the first folder of the reference data (Codabench zips it folders
    // first): a folder of its own, so that a brat gold keeps its place.
    if golds.iter().any(|g| o.gold_dir.join(g).is_dir()) {
        files.push(unwrapped("reference_data/", ""));
    }
    for g in golds {
        for (inside, path) in gold_files(&o.gold_dir.join(g), g)? {
            files.push((
                format!("reference_data/{inside}"),
                crate::io::read_input(&path)?,
                false,
            ));
        }
    }
    files.extend(kit.files);
    Ok(Bundle {
        files,
        notes: kit.notes,
        reveals: kit.reveals,
        glibc,
    })
}

/// A bundle's contents.
#[derive(Debug)]
pub struct Bundle<F = BundleFile> {
    /// Its files, in zip order: (path in the zip, bytes, executable) as made; (path, size in
    /// bytes) as written by [`write_bundle`].
    pub files: Vec<F>,
    /// Notes for the organiser (what the public data lacks), one line each.
    pub notes: Vec<String>,
    /// What each blind gold of the public data shows and hides.
    pub reveals: Vec<Reveal>,
    /// The highest glibc version the shipped binary needs (read from the `GLIBC_2.N` names
    /// it lists; `None`: none, a static or musl binary).
    pub glibc: Option<(u32, u32)>,
}

/// Writes the bundle to `out` (atomically); returns its files (path, size), the notes for the
/// organiser and what the public data reveals.
pub fn write_bundle(
    cfg: &FamilyCampaign,
    o: &BundleOptions,
    out: &Path,
) -> Result<Bundle<(String, usize)>> {
    let b = bundle_files(cfg, o)?;
    let mut z = ZipWriter::new();
    for (name, bytes, exec) in &b.files {
        z.add(name, bytes, *exec)?;
    }
    let bytes = z.finish(out)?;
    crate::io::write_atomic(out, &bytes)?;
    Ok(Bundle {
        files: b.files.into_iter().map(|(n, b, _)| (n, b.len())).collect(),
        notes: b.notes,
        reveals: b.reveals,
        glibc: b.glibc,
    })
}
