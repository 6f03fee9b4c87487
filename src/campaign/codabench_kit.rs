//! What a Codabench bundle gives participants: the public data (each gold the leaderboard
//! uses, blind: its annotations removed, in the gold's own format) and the starting kit (a
//! README, a sample submission made from the blind data in the layout the scoring program
//! expects, the task's label lists and the fairscore binary to run `fairscore check` without
//! the gold).
//!
//! A gold is made blind by its format: a brat folder keeps its `.txt` files and gets an empty
//! `.ann` beside each; a CoNLL file keeps every line and cell but the tag column(s) its tasks
//! score, which become `O`; a HIPE TSV file keeps its header, comments, tokens and `MISC`, its
//! `NE-*` columns become `O` and its `NEL-*` columns `_`; a doccano, Label Studio or Prodigy
//! export is written again without spans (`convert::without_spans`). Other golds (span files,
//! the texts of segmentation, the tags of tagging) get no blind version: the bundle says so.

use std::path::{Path, PathBuf};

use super::codabench::LeaderboardColumn;
use super::families::{FamilyCampaign, FamilyTask};
use super::names::{pattern_extension, Placeholder};
use crate::error::{Error, Result};
use crate::formats::{InputFormat, JsonlLayout};
use crate::zip::ZipWriter;

/// The folder of the public data in the bundle.
pub const PUBLIC_DATA: &str = "public_data";
/// The folder of the starting kit in the bundle.
pub const STARTING_KIT: &str = "starting_kit";
/// The sample submission's name in the starting kit.
pub const SAMPLE: &str = "sample_submission.zip";
/// The team and run of the sample submission's runs.
const SAMPLE_TEAM: &str = "sample";

/// The public data and the starting kit: files as (path in the bundle, bytes, executable),
/// and notes for the organiser (golds without a blind version).
#[derive(Debug, Default)]
pub struct Kit {
    /// The files, under `public_data/` and `starting_kit/`.
    pub files: Vec<BundleFile>,
    /// What the kit lacks, one line each.
    pub notes: Vec<String>,
    /// Whether there is any public data.
    pub public: bool,
}

/// The files of one gold, `name` in the gold directory: the file itself, or every file of a
/// brat folder (sub-folders included; hidden files and folders left out; links to folders not
/// followed), as (path inside the gold directory, path), in name order.
pub fn gold_files(path: &Path, name: &str) -> Result<Vec<(String, PathBuf)>> {
    if !path.is_dir() {
        return Ok(vec![(name.to_string(), path.to_path_buf())]);
    }
    let mut out = Vec::new();
    let mut stack = vec![(path.to_path_buf(), name.to_string())];
    while let Some((dir, inside)) = stack.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| Error::input(&dir, 0, crate::io::io_reason(&e)))?;
        for e in entries.flatten() {
            let Some(n) = e.file_name().to_str().map(str::to_string) else {
                return Err(Error::input(
                    &e.path(),
                    0,
                    "a gold file's name is not UTF-8; rename it in UTF-8",
                ));
            };
            if n.starts_with('.') {
                continue;
            }
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push((p, format!("{inside}/{n}")));
            } else if p.is_file() {
                out.push((format!("{inside}/{n}"), p));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A bundle's file: (path in the bundle, bytes, executable).
pub type BundleFile = (String, Vec<u8>, bool);

/// Files of blind data: (path inside the gold directory, bytes).
type BlindFiles = Vec<(String, Vec<u8>)>;

/// How a gold is made blind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blind {
    Brat,
    Conll,
    Hipe,
    Json(JsonlLayout),
}

impl Blind {
    /// The `--format` of `fairscore check` for a run in this format (`None`: check's default,
    /// HIPE TSV).
    fn check_format(self) -> Option<&'static str> {
        match self {
            Blind::Brat => Some(InputFormat::Brat.name()),
            Blind::Conll => Some(InputFormat::Conll.name()),
            Blind::Hipe => None,
            Blind::Json(JsonlLayout::Doccano) => Some(InputFormat::Doccano.name()),
            Blind::Json(JsonlLayout::LabelStudio) => Some(InputFormat::LabelStudio.name()),
            Blind::Json(JsonlLayout::Prodigy) => Some(InputFormat::Prodigy.name()),
        }
    }
}

/// How the gold `path` is made blind for the tasks that read it, if it can be.
fn blind_kind(path: &Path, tasks: &[&FamilyTask]) -> Result<Option<Blind>> {
    let spans = |t: &&FamilyTask| matches!(t.family.name(), "spans" | "fair" | "muc" | "hipe");
    if !tasks.iter().all(spans) {
        return Ok(None);
    }
    if path.is_dir() {
        return Ok(Some(Blind::Brat));
    }
    if path.extension().is_some_and(|x| x == "ann") {
        return Ok(None);
    }
    let text = crate::io::read_text(path)?;
    if let Some(layout) = crate::formats::detect_jsonl(&text) {
        return Ok(Some(Blind::Json(layout)));
    }
    Ok(match crate::formats::detect(path, &text)? {
        crate::formats::Format::Hipe => Some(Blind::Hipe),
        crate::formats::Format::Conll => Some(Blind::Conll),
        crate::formats::Format::Spans => None,
    })
}

/// The cells of a line as byte ranges (runs of non-white-space).
fn cells(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, line.len()));
    }
    out
}

/// `line` with the cells at `blank` (`usize::MAX`: the last) replaced by `value`, the
/// separators kept.
fn replace_cells(line: &str, blank: &[usize], value: &str) -> String {
    let cs = cells(line);
    let last = cs.len().saturating_sub(1);
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for (k, (a, b)) in cs.iter().enumerate() {
        if blank
            .iter()
            .any(|&x| x == k || (x == usize::MAX && k == last))
        {
            out.push_str(&line[at..*a]);
            out.push_str(value);
            at = *b;
        }
    }
    out.push_str(&line[at..]);
    out
}

/// A CoNLL gold with the tag columns its tasks score set to `O` (`column` as the scoring reads
/// it: a 1-based number or a name of `formats::conll::column_names`, else the last);
/// `-DOCSTART-` lines, blank lines and line ends kept. Every line of a CoNLL file has the same
/// number of cells (the reader refuses others), so the columns are resolved on the first line.
fn blind_conll(text: &str, tasks: &[&FamilyTask]) -> String {
    let mut blank: Option<Vec<usize>> = None;
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive('\n') {
        let cs = cells(piece);
        let keep = cs.len() < 2 || piece[cs[0].0..cs[0].1].starts_with("-DOCSTART-");
        if keep {
            out.push_str(piece);
            continue;
        }
        let blank = blank.get_or_insert_with(|| {
            let names = crate::formats::conll::column_names(cs.len());
            let mut b: Vec<usize> = tasks
                .iter()
                .map(|t| {
                    let given = t.options.column.as_deref();
                    given
                        .and_then(|c| match c.parse::<usize>() {
                            Ok(n) => n.checked_sub(1),
                            Err(_) => names.iter().position(|x| x == c),
                        })
                        .unwrap_or(usize::MAX)
                })
                .collect();
            b.sort_unstable();
            b.dedup();
            b
        });
        out.push_str(&replace_cells(piece, blank, "O"));
    }
    out
}

/// A HIPE TSV gold with its `NE-*` columns `O` and `NEL-*` columns `_`; the header,
/// comments, blank lines, tokens and `MISC` kept.
fn blind_hipe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut header: Option<Vec<String>> = None;
    for piece in text.split_inclusive('\n') {
        let body = piece.trim_end_matches(['\n', '\r']);
        let end = &piece[body.len()..];
        if body.trim().is_empty() || body.starts_with('#') {
            out.push_str(piece);
            continue;
        }
        let Some(names) = &header else {
            header = Some(
                body.trim_start_matches('\u{feff}')
                    .split('\t')
                    .map(str::to_string)
                    .collect(),
            );
            out.push_str(piece);
            continue;
        };
        let cells: Vec<&str> = body
            .split('\t')
            .enumerate()
            .map(|(k, c)| match names.get(k).map(String::as_str) {
                Some(n) if n.starts_with("NEL-") => "_",
                Some(n) if n.starts_with("NE-") => "O",
                _ => c,
            })
            .collect();
        out.push_str(&cells.join("\t"));
        out.push_str(end);
    }
    out
}

/// The blind files of the gold `name` (paths inside the gold directory), made as `kind` says.
fn blind_files(
    gold_dir: &Path,
    name: &str,
    kind: Blind,
    tasks: &[&FamilyTask],
) -> Result<BlindFiles> {
    let path = gold_dir.join(name);
    Ok(match kind {
        Blind::Brat => {
            let mut out = Vec::new();
            for (inside, p) in gold_files(&path, name)? {
                if let Some(stem) = inside.strip_suffix(".txt") {
                    out.push((inside.clone(), crate::io::read_input(&p)?));
                    out.push((format!("{stem}.ann"), Vec::new()));
                }
            }
            out.sort();
            out.dedup_by(|a, b| a.0 == b.0);
            out
        }
        Blind::Conll => vec![(
            name.to_string(),
            blind_conll(&crate::io::read_text(&path)?, tasks).into_bytes(),
        )],
        Blind::Hipe => vec![(
            name.to_string(),
            blind_hipe(&crate::io::read_text(&path)?).into_bytes(),
        )],
        Blind::Json(layout) => vec![(
            name.to_string(),
            crate::convert::without_spans(&path, layout)?,
        )],
    })
}

/// The name of the sample run of column `c` (task `t`): the task's run pattern filled with
/// team `sample`, run `1`, the task's first bundle and the column's `{dataset}`/`{lang}`;
/// a pattern without an extension gets the gold file's (a brat folder none).
fn sample_name(t: &FamilyTask, c: &LeaderboardColumn, folder: bool) -> String {
    let bundle = t
        .bundles
        .as_ref()
        .and_then(|b| b.first())
        .map_or("1", String::as_str);
    let mut values: Vec<(Placeholder, &str)> = vec![
        (Placeholder::Team, SAMPLE_TEAM),
        (Placeholder::Run, "1"),
        (Placeholder::Bundle, bundle),
    ];
    values.extend(c.group.iter().map(|(p, v)| (*p, v.as_str())));
    let mut name = t.runs.fill(&values);
    if !folder && pattern_extension(&t.runs).is_none() {
        if let Some(ext) = Path::new(&c.gold).extension().and_then(|x| x.to_str()) {
            name.push('.');
            name.push_str(ext);
        }
    }
    name
}

/// The label list of task `t` in the starting kit.
fn kit_labels(t: &FamilyTask) -> String {
    format!("labels/{}.txt", t.name)
}

/// One line of the README's check commands: the command for column `c`.
fn check_line(t: &FamilyTask, c: &LeaderboardColumn, kind: Blind, run: &str) -> String {
    let mut cmd = String::from("./fairscore check");
    if let Some(f) = t
        .options
        .format
        .map(InputFormat::name)
        .or(kind.check_format())
    {
        cmd.push_str(&format!(" --format {f}"));
    }
    cmd.push_str(&format!(" --gold public_data/{} --pred {run}", c.gold));
    if t.label_list.is_some() {
        cmd.push_str(&format!(" --labels {}", kit_labels(t)));
    }
    cmd
}

/// The public data and the starting kit of the campaign `cfg` with leaderboard columns `cols`
/// and the gold files of `gold_dir`; `binary` is shipped in the kit for `fairscore check`.
pub fn public_and_kit(
    cfg: &FamilyCampaign,
    cols: &[LeaderboardColumn],
    gold_dir: &Path,
    binary: &[u8],
) -> Result<Kit> {
    use crate::escape::markdown as md;
    let mut kit = Kit::default();
    let mut golds: Vec<&str> = cols.iter().map(|c| c.gold.as_str()).collect();
    golds.sort_unstable();
    golds.dedup();
    // Per gold: how it is blind and its blind files.
    let mut blind: Vec<(&str, Blind, BlindFiles)> = Vec::new();
    for g in golds {
        let tasks: Vec<&FamilyTask> = cols
            .iter()
            .filter(|c| c.gold == g)
            .map(|c| &cfg.tasks[c.task])
            .collect();
        match blind_kind(&gold_dir.join(g), &tasks)? {
            Some(kind) => {
                let files = blind_files(gold_dir, g, kind, &tasks)?;
                for (inside, bytes) in &files {
                    kit.files
                        .push((format!("{PUBLIC_DATA}/{inside}"), bytes.clone(), false));
                }
                blind.push((g, kind, files));
            }
            None => kit.notes.push(format!(
                "{g}: no blind version of this gold's format in the public data (brat, CoNLL, \
                 HIPE TSV and JSON exports of span tasks have one); give participants its texts \
                 yourself"
            )),
        }
    }
    kit.public = !blind.is_empty();
    // The sample submission: one run per column with blind data, each name once.
    let mut zip = ZipWriter::new();
    let mut runs: Vec<(String, &str)> = Vec::new();
    // (run, gold, command, with a label list)
    let mut checks: Vec<(String, &str, String, bool)> = Vec::new();
    let mut table =
        String::from("| column | task | blind gold | sample run |\n|---|---|---|---|\n");
    for c in cols {
        let t = &cfg.tasks[c.task];
        let Some((_, kind, files)) = blind.iter().find(|(g, _, _)| *g == c.gold) else {
            continue;
        };
        // A generative run (`align`) is an entity list, not the gold's format: no sample.
        if t.options.own("align").is_some() {
            kit.notes.push(format!(
                "column {}: its runs are entity lists placed on the gold's texts (align): the \
                 sample submission has no run for it",
                c.key
            ));
            continue;
        }
        let folder = *kind == Blind::Brat;
        let name = sample_name(t, c, folder);
        table.push_str(&format!(
            "| {} | {} | `public_data/{}` | `{}` |\n",
            md(&c.key),
            md(&t.name),
            md(&c.gold),
            md(&name)
        ));
        checks.push((
            name.clone(),
            c.gold.as_str(),
            check_line(t, c, *kind, &name),
            t.label_list.is_some(),
        ));
        match runs.iter().find(|(n, _)| *n == name) {
            Some((_, g)) if *g == c.gold => continue,
            Some((_, g)) => {
                kit.notes.push(format!(
                    "column {}: its sample run {name} is already the run of gold {g}; the \
                     sample submission has it once",
                    c.key
                ));
                continue;
            }
            None => runs.push((name.clone(), c.gold.as_str())),
        }
        for (inside, bytes) in files {
            let entry = if folder {
                // `GOLD/rel` becomes `RUN/rel`.
                let rel = inside.split_once('/').map_or(inside.as_str(), |(_, r)| r);
                format!("{name}/{rel}")
            } else {
                name.clone()
            };
            zip.add(&entry, bytes, false)?;
        }
    }
    // One command per run and gold; a command without a label list only when no task of
    // that run and gold has one.
    let listed: Vec<(String, &str)> = checks
        .iter()
        .filter(|x| x.3)
        .map(|x| (x.0.clone(), x.1))
        .collect();
    let mut commands: Vec<String> = Vec::new();
    for (run, gold, cmd, with) in checks {
        if (with || !listed.contains(&(run, gold))) && !commands.contains(&cmd) {
            commands.push(cmd);
        }
    }
    let mut labels: Vec<(String, Vec<u8>)> = Vec::new();
    for t in &cfg.tasks {
        if let Some(l) = &t.label_list {
            labels.push((kit_labels(t), crate::io::read_input(&l.path)?));
        }
    }
    let readme = readme(cfg, &table, &commands, &labels, !runs.is_empty());
    kit.files.push((
        format!("{STARTING_KIT}/README.md"),
        readme.into_bytes(),
        false,
    ));
    if !runs.is_empty() {
        let bytes = zip.finish(Path::new(SAMPLE))?;
        kit.files
            .push((format!("{STARTING_KIT}/{SAMPLE}"), bytes, false));
    }
    for (inside, bytes) in labels {
        kit.files
            .push((format!("{STARTING_KIT}/{inside}"), bytes, false));
    }
    kit.files
        .push((format!("{STARTING_KIT}/fairscore"), binary.to_vec(), true));
    Ok(kit)
}

/// The starting kit's README.
fn readme(
    cfg: &FamilyCampaign,
    table: &str,
    checks: &[String],
    labels: &[(String, Vec<u8>)],
    sample: bool,
) -> String {
    use crate::escape::markdown as md;
    let mut s = format!("# Starting kit: {}\n\n", md(&cfg.name));
    s.push_str("Everything you need to make a submission that the scoring program accepts, and to check your runs before you submit them.\n\n");
    s.push_str("## What is here\n\n");
    if sample {
        s.push_str(&format!("- `{SAMPLE}`: a sample submission in the layout the scoring program expects, one run per leaderboard column, made from the blind data (the test texts without annotations). It predicts nothing, so it scores 0, but it is accepted: submit it to see the whole path work.\n"));
    }
    s.push_str("- `fairscore`: the scorer the competition runs (Linux x86-64, glibc 2.17 or later when the organisers built it with `scripts/codabench_bundle.sh`); make it executable with `chmod +x fairscore`.\n");
    if !labels.is_empty() {
        s.push_str("- `labels/`: the label list of each task that has one (one label a line); a run label not in it fails the check.\n");
    }
    s.push_str("\nThe **public data** (download it from the competition's files, and unpack it into `public_data/` beside this README) holds each gold file the leaderboard uses, blind: the texts in the gold's own format with the annotations removed (brat: the `.txt` files with empty `.ann` files; CoNLL: the tags `O`; HIPE TSV: `O` and `_`; doccano, Label Studio and Prodigy exports: no spans).\n\n");
    if !table.lines().nth(2).is_none_or(str::is_empty) {
        s.push_str("## Your runs\n\n");
        s.push_str(table);
        s.push_str("\nName your runs as the sample runs are named, with your team's name instead of `sample` and your run's number instead of `1`, and zip them (folders inside the zip are fine; a brat run is its folder of `.ann` and `.txt` files).\n\n");
    }
    if !checks.is_empty() {
        s.push_str("## Check a run before submitting\n\n");
        s.push_str("The scoring program checks every run in CoNLL, CoNLL-U, TSV or plain text, and every standoff run (brat, doccano, Label Studio, Prodigy), as `fairscore check` does, and does not score a run that has errors or warnings (its columns score as without a run). Run the same check against the blind data (you have no gold; the check compares your run's documents, texts or tokens with it, and its labels with the task's label list):\n\n```sh\n");
        for c in checks {
            s.push_str(c);
            s.push('\n');
        }
        s.push_str("```\n\nGive `--format` the format of your run (`conll`, `brat`, `doccano`, `labelstudio`, `prodigy`, …) when it is not that of the sample run. Exit status 0: the run passes. (The sample runs predict nothing: for a HIPE TSV run the check warns that its link columns hold nothing, which the scoring program, which does not check HIPE runs, accepts.)\n");
    }
    s
}

/// Refuses a label list the bundle cannot ship beside the campaign file (`scoring_program/`
/// keeps the campaign's relative paths): an absolute path, one leaving the campaign's
/// directory, or one naming a file of the program.
pub fn shipped_label_list(
    cfg: &FamilyCampaign,
    t: &FamilyTask,
) -> Result<Option<(String, PathBuf)>> {
    let Some(l) = &t.label_list else {
        return Ok(None);
    };
    let w = l.written.replace('\\', "/");
    let plain = !w.starts_with('/')
        && w.split('/')
            .all(|p| !p.is_empty() && p != "." && p != ".." && !p.starts_with('.'));
    let taken = ["fairscore", "campaign.toml", "metadata.yaml", "metadata"].contains(&w.as_str())
        || w.starts_with("resources/");
    if !plain || taken {
        return Err(Error::input(
            &cfg.file,
            0,
            format!(
                "invalid campaign: task {}: label_list: {} cannot go into the bundle's scoring \
                 program beside the campaign file; give a path inside the campaign file's \
                 directory (not fairscore, campaign.toml, metadata.yaml or resources/)",
                t.name,
                crate::error::snippet(&l.written)
            ),
        ));
    }
    Ok(Some((w, l.path.clone())))
}
