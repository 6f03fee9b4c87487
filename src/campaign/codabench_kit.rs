//! What a Codabench bundle gives participants: the public data (each gold the leaderboard
//! uses, blind: its annotations removed, in the gold's own format) and the starting kit (a
//! README, a sample submission made from the blind data in the layout the scoring program
//! expects, the task's label lists and the fairscore binary to run `fairscore check` without
//! the gold).
//!
//! A gold is made blind by its format ([`super::codabench_blind`]); other golds (span files,
//! the texts of segmentation, the tags of tagging) get no blind version: the bundle says so.
//!
//! Codabench's worker moves the files of a zip's first folder up one level, twice for a
//! submission (docs/codabench.md, "Codabench's contract"): a sample submission holding
//! folders (brat runs) starts with two folders of a hidden file only, [`UNWRAPPED`], which
//! the worker unwraps in their place.

use std::path::{Path, PathBuf};

use super::codabench::LeaderboardColumn;
use super::codabench_blind::{blind_files, blind_kind, Blind, BlindFiles, Reveal};
use super::families::{FamilyCampaign, FamilyTask};
use super::names::{pattern_extension, Placeholder};
use crate::error::{Error, Result};
use crate::formats::InputFormat;
use crate::zip::ZipWriter;

/// The folder of the public data in the bundle.
pub const PUBLIC_DATA: &str = "public_data";
/// The folder of the starting kit in the bundle.
pub const STARTING_KIT: &str = "starting_kit";
/// The sample submission's name in the starting kit.
pub const SAMPLE: &str = "sample_submission.zip";
/// The team and run of the sample submission's runs.
const SAMPLE_TEAM: &str = "sample";
/// The folder that Codabench's worker unwraps in place of the next one (`!` sorts before
/// any name a gold or run has): its one file, hidden from the scoring program, as a bundle
/// file under `prefix` (`reference_data/`), the folder's name ending in `suffix`.
pub fn unwrapped(prefix: &str, suffix: &str) -> BundleFile {
    let text = "Codabench's worker moves the files of the first folder of a zip up one level; \
                this folder is that first one, so that the next keep their place (fairscore's \
                docs/codabench.md).\n";
    (
        format!("{prefix}!unwrapped-by-codabench{suffix}/.keep"),
        text.as_bytes().to_vec(),
        false,
    )
}

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
    /// What each blind gold of the public data shows and hides.
    pub reveals: Vec<Reveal>,
}

/// A bundle's file: (path in the bundle, bytes, executable).
pub type BundleFile = (String, Vec<u8>, bool);

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
                let (files, reveal) = blind_files(gold_dir, g, kind, &tasks)?;
                kit.reveals.push(reveal);
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
    // The sample submission: one run per column with blind data, each name once; folders
    // after two that the worker unwraps (as it prepares the prediction, then the scoring).
    let mut zip = ZipWriter::new();
    let folders = blind.iter().any(|(_, k, _)| *k == Blind::Brat);
    if folders {
        for n in ["-1", "-2"] {
            let (name, bytes, _) = unwrapped("", n);
            zip.add(&name, &bytes, false)?;
        }
    }
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
    let readme = readme(
        cfg,
        &table,
        &commands,
        &labels,
        &kit.reveals,
        !runs.is_empty(),
        folders,
    );
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
    reveals: &[Reveal],
    sample: bool,
    folders: bool,
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
    s.push_str("\nThe **public data** (download it from the competition's files, and unpack it into `public_data/` beside this README) holds each gold file the leaderboard uses, blind: the texts in the gold's own format with the annotations removed. What each file shows, and what was removed:\n\n| public file | shows | removed |\n|---|---|---|\n");
    for r in reveals {
        s.push_str(&format!(
            "| `public_data/{}` | {} | {} |\n",
            md(&r.gold),
            md(&r.shows),
            md(&r.hides)
        ));
    }
    s.push('\n');
    if !table.lines().nth(2).is_none_or(str::is_empty) {
        s.push_str("## Your runs\n\n");
        s.push_str(table);
        s.push_str("\nName your runs as the sample runs are named, with your team's name instead of `sample` and your run's number instead of `1`, and zip them (folders inside the zip are fine; a brat run is its folder of `.ann` and `.txt` files).\n\n");
        if folders {
            s.push_str("The sample submission starts with two folders `!unwrapped-by-codabench-1/` and `-2/`, each holding a hidden file only: Codabench's worker moves the files of the first folder of a submission up one level, once as it takes the submission and once as it hands it to the scoring program; these two folders are the ones it unwraps, so that the brat folders keep their names.\n\n");
        }
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

/// The name of the portable binary `scripts/prebuilt.sh` writes into `dist/` (glibc 2.17).
pub fn portable_binary() -> String {
    format!(
        "fairscore-{}-x86_64-linux-glibc2.17",
        env!("CARGO_PKG_VERSION")
    )
}

/// The highest version of glibc an ELF binary needs (`(2, 34)`), read from the `GLIBC_2.N`
/// names of its dynamic string table; `None` when it names none (static, musl).
pub fn glibc_needed(elf: &[u8]) -> Option<(u32, u32)> {
    const TAG: &[u8] = b"\0GLIBC_";
    let mut best: Option<(u32, u32)> = None;
    let mut i = 0;
    while let Some(at) = elf[i..].windows(TAG.len()).position(|w| w == TAG) {
        let rest = &elf[i + at + TAG.len()..];
        i += at + TAG.len();
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        let Ok(v) = std::str::from_utf8(&rest[..end]) else {
            continue;
        };
        let mut parts = v.split('.').map(str::parse::<u32>);
        if let (Some(Ok(major)), Some(Ok(minor))) = (parts.next(), parts.next()) {
            best = best.max(Some((major, minor)));
        }
    }
    best
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
    // The worker unwraps a folder of the program holding a file named like its metadata.
    let base = w.rsplit('/').next().unwrap_or(&w);
    let taken = ["fairscore", "campaign.toml", "run.sh"].contains(&w.as_str())
        || ["metadata.yaml", "metadata"].contains(&base)
        || w.starts_with("resources/");
    if !plain || taken {
        return Err(Error::input(
            &cfg.file,
            0,
            format!(
                "invalid campaign: task {}: label_list: {} cannot go into the bundle's scoring \
                 program beside the campaign file; give a path inside the campaign file's \
                 directory (not fairscore, campaign.toml, run.sh, resources/ or a file named metadata or \
                 metadata.yaml)",
                t.name,
                crate::error::snippet(&l.written)
            ),
        ));
    }
    Ok(Some((w, l.path.clone())))
}
