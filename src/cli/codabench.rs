//! `fairscore codabench` (the scoring program of a Codabench competition) and
//! `fairscore codabench-bundle` (the competition bundle); see docs/codabench.md.

use std::path::PathBuf;

use clap::Args;
use fairscore::campaign;
use fairscore::campaign::campaign_kind;
use fairscore::campaign::score_submission;
use fairscore::campaign::write_codabench_outputs as write_outputs;
use fairscore::campaign::BundleOptions;
use fairscore::campaign::FamilyCampaign;
use fairscore::campaign::Verdict;
use fairscore::campaign::DETAILED_FILE;
use fairscore::campaign::SCORES_FILE;
use fairscore::campaign::{Campaign, PRESETS};
use fairscore::io::escape_controls;
use fairscore::{Error, Result};

/// Score one Codabench submission: INPUT/res (the unpacked zip) against INPUT/ref (the gold).
#[derive(Args, Debug)]
pub struct CodabenchArgs {
    #[command(flatten)]
    pub campaign: super::args::CampaignFile,
    #[command(flatten)]
    pub hipe: super::args::HipeCampaign,
    /// The worker's input directory: the gold in INPUT/ref, the submission in INPUT/res (run
    /// files, possibly in folders).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// The output directory: scores.json (one number per leaderboard column) and
    /// detailed_results.html are written there.
    #[arg(value_name = "OUTPUT")]
    pub output: PathBuf,
}

/// Write a Codabench competition bundle (zip) of a campaign: of family tasks, or a HIPE
/// campaign (--preset, or --campaign with --resources), whose tag sets and QID maps it ships.
#[derive(Args, Debug)]
pub struct BundleArgs {
    #[command(flatten)]
    pub campaign: super::args::CampaignFile,
    #[command(flatten)]
    pub hipe: super::args::HipeCampaign,
    #[command(flatten)]
    pub gold_dir: super::args::GoldDir,
    /// The fairscore binary to put into the scoring program (default: the portable build of
    /// scripts/prebuilt.sh in dist/ when there is one, else this one, with a warning). It must
    /// run on the competition's image: build it for glibc 2.17 (scripts/codabench_bundle.sh).
    #[arg(long, value_name = "PATH")]
    pub binary: Option<PathBuf>,
    /// The competition's Docker image.
    #[arg(long, value_name = "IMAGE", default_value = campaign::DEFAULT_IMAGE)]
    pub docker_image: String,
    /// Start of the submission phase, UTC: YYYY-MM-DD or "YYYY-MM-DD HH:MM:SS".
    #[arg(long, value_name = "DATE", default_value = campaign::DEFAULT_START)]
    pub phase_start: String,
    /// End of the submission phase (default: none, the phase stays open).
    #[arg(long, value_name = "DATE")]
    pub phase_end: Option<String>,
    /// The competition's terms of participation (Markdown), as pages/terms.md. Without it
    /// the page is a placeholder that says so, and a warning says it must be replaced.
    #[arg(long, value_name = "FILE.md")]
    pub terms: Option<PathBuf>,
    /// The competition's logo (PNG). Without it a one-pixel placeholder, with a warning.
    #[arg(long, value_name = "FILE.png")]
    pub logo: Option<PathBuf>,
    /// List every file of the bundle (path and size), not only how many of each kind.
    #[arg(long)]
    pub verbose: bool,
    /// The bundle to write (a zip to upload to Codabench).
    #[arg(value_name = "OUT.zip")]
    pub out: PathBuf,
}

/// The campaign of `--campaign` or `--preset` as a campaign of family tasks, with the bytes
/// of its file (a preset's text), whether it is a HIPE campaign, and the campaign file if
/// one was given. A HIPE campaign takes its tag sets and QID maps from `--resources` and its
/// tasks from the gold files of `gold_dir`.
struct Loaded {
    cfg: FamilyCampaign,
    bytes: Vec<u8>,
    hipe: bool,
    file: Option<PathBuf>,
}

fn campaign(
    c: &super::args::CampaignFile,
    h: &super::args::HipeCampaign,
    gold_dir: &std::path::Path,
) -> Result<Loaded> {
    let (file, text) = match (&c.campaign, &h.preset) {
        (Some(file), _) => (Some(file.clone()), fairscore::io::read_text(file)?),
        (None, Some(p)) => {
            let text = PRESETS
                .iter()
                .find(|(n, _)| n == p)
                .map(|(_, t)| t.to_string())
                .ok_or_else(|| Error::usage(format!("preset: unknown preset {p:?}")))?;
            (None, text)
        }
        (None, None) => {
            return Err(Error::usage(
                "campaign: required (a campaign TOML file, or --preset with --resources)",
            ))
        }
    };
    let shown = file
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("preset {}", h.preset.as_deref().unwrap_or(""))));
    if let Some(f) = file.as_deref().filter(|_| h.preset.is_none()) {
        if campaign_kind(f, &text)? {
            if h.resources.is_some() {
                return Err(Error::usage(
                    "resources: goes with a HIPE campaign; a campaign of family tasks names its files itself",
                ));
            }
            let cfg = FamilyCampaign::parse(f, &text)?;
            return Ok(Loaded {
                cfg,
                bytes: text.into_bytes(),
                hipe: false,
                file,
            });
        }
    }
    let resources = h.resources.as_deref().ok_or_else(|| {
        Error::usage("resources: required for a HIPE campaign (the tagset and QID map files)")
    })?;
    let hipe = match &file {
        Some(f) => Campaign::from_file(f)?,
        None => Campaign::from_toml(&text, &shown)?,
    };
    let cfg = FamilyCampaign::from_hipe(&hipe, &shown, resources, gold_dir)?;
    Ok(Loaded {
        cfg,
        bytes: text.into_bytes(),
        hipe: true,
        file,
    })
}

/// Exit 0 with both outputs written; 1 when the submission is refused (its problems and the
/// check's findings on stderr, which Codabench shows to the participant).
pub fn run(args: CodabenchArgs) -> Result<i32> {
    let loaded = campaign(&args.campaign, &args.hipe, &args.input.join("ref"))?;
    let cfg = loaded.cfg;
    // Nothing is written into the input (an OUTPUT inside INPUT, or linked to a folder of it).
    let outputs = [
        args.output.join(SCORES_FILE),
        args.output.join(DETAILED_FILE),
    ];
    let mut inputs = vec![("INPUT", args.input.as_path())];
    inputs.extend(loaded.file.as_deref().map(|f| ("--campaign", f)));
    inputs.extend(args.hipe.resources.as_deref().map(|r| ("--resources", r)));
    fairscore::io::check_outputs(
        &inputs,
        &[
            ("OUTPUT", outputs[0].as_path()),
            ("OUTPUT", outputs[1].as_path()),
        ],
        &[],
    )?;
    match score_submission(&cfg, &args.input)? {
        Verdict::Scored(s) => {
            // A link planted at an output's place is replaced, never written through.
            for o in &outputs {
                fairscore::io::remove_link(o)?;
            }
            write_outputs(&cfg, &s, &args.output)?;
            for n in &s.notes {
                eprintln!("fairscore: note: {}", escape_controls(n));
            }
            for c in &s.scores {
                eprintln!("fairscore: {} = {}", c.column.key, c.value);
            }
            Ok(0)
        }
        Verdict::Refused(r) => {
            // Every line says it (docs/codabench.md): the check's findings too.
            let texts: Vec<String> = r.reports.iter().map(|rep| rep.to_text()).collect();
            let findings = texts.iter().flat_map(|t| t.lines());
            for line in r.problems.iter().map(String::as_str).chain(findings) {
                eprintln!("fairscore: submission refused: {}", escape_controls(line));
            }
            let check = if r.reports.is_empty() {
                ""
            } else {
                " (`fairscore check --format FORMAT --gold BLIND_GOLD --pred RUN`, with the blind gold of \
                 the public data, shows the same findings: the starting kit's README gives the command)"
            };
            eprintln!(
                "fairscore: submission refused: nothing was scored; fix the problems above{check}"
            );
            Ok(1)
        }
    }
}

/// The binary to ship without `--binary`: the portable build of `scripts/prebuilt.sh` in
/// `./dist` or the repository's `dist/` this fairscore was built from, else this one.
fn default_binary() -> Result<PathBuf> {
    let name = campaign::portable_binary();
    let built = [
        PathBuf::from("dist").join(&name),
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("dist")
            .join(&name),
    ];
    if let Some(p) = built.into_iter().find(|p| p.is_file()) {
        eprintln!(
            "fairscore: scoring program: {} (the portable build, glibc 2.17 or later)",
            escape_controls(&p.display().to_string())
        );
        return Ok(p);
    }
    std::env::current_exe().map_err(|e| {
        Error::usage(format!(
            "binary: cannot find this program's file ({e}); give --binary"
        ))
    })
}

/// Warns when the shipped binary needs a glibc newer than 2.17: older images cannot run it.
fn warn_glibc(binary: &std::path::Path, needed: Option<(u32, u32)>) {
    if let Some((major, minor)) = needed.filter(|v| *v > (2, 17)) {
        eprintln!(
            "fairscore: warning: the scoring program {} needs glibc {major}.{minor} or later; \
             Codabench's images may have an older one (its default, {}, is built on Debian 10, \
             glibc 2.28), and then no submission is scored. Build the portable binary (glibc \
             2.17) with `bash scripts/prebuilt.sh --binary-only` and bundle again (or run \
             scripts/codabench_bundle.sh, or give --binary)",
            escape_controls(&binary.display().to_string()),
            campaign::DEFAULT_IMAGE
        );
    }
}

/// One line: how many files of each kind (top folder, or the file at the top) `files` holds.
fn summary(files: &[(String, usize)]) -> String {
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for (name, _) in files {
        let kind = name.split_once('/').map_or(name.as_str(), |(k, _)| k);
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    let parts: Vec<String> = kinds
        .iter()
        .map(|(k, n)| match files.iter().any(|(f, _)| f == k) {
            true => k.to_string(),
            false => format!("{k}/ {n}"),
        })
        .collect();
    parts.join(", ")
}

/// Writes the bundle; lists what it holds on stderr.
pub fn run_bundle(args: BundleArgs) -> Result<i32> {
    let loaded = campaign(&args.campaign, &args.hipe, &args.gold_dir.gold_dir)?;
    let binary = match &args.binary {
        Some(b) => b.clone(),
        None => default_binary()?,
    };
    let mut inputs = vec![
        ("--binary", binary.as_path()),
        ("--gold-dir", args.gold_dir.gold_dir.as_path()),
    ];
    inputs.extend(loaded.file.as_deref().map(|f| ("--campaign", f)));
    inputs.extend(args.hipe.resources.as_deref().map(|r| ("--resources", r)));
    inputs.extend(args.terms.as_deref().map(|f| ("--terms", f)));
    inputs.extend(args.logo.as_deref().map(|f| ("--logo", f)));
    fairscore::io::check_outputs(&inputs, &[("OUT.zip", args.out.as_path())], &[])?;
    let terms = match &args.terms {
        Some(f) => Some(fairscore::io::read_text(f)?.into_bytes()),
        None => None,
    };
    let logo = match &args.logo {
        Some(f) => {
            let bytes = fairscore::io::read_input(f)?;
            if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
                return Err(Error::input(
                    f,
                    0,
                    "not a PNG image (Codabench shows the logo as PNG)",
                ));
            }
            Some(bytes)
        }
        None => None,
    };
    let o = BundleOptions {
        campaign: loaded.bytes,
        hipe: loaded.hipe,
        gold_dir: args.gold_dir.gold_dir.clone(),
        binary,
        docker_image: args.docker_image.clone(),
        start: args.phase_start.clone(),
        end: args.phase_end.clone(),
        terms,
        logo,
    };
    let written = campaign::write_bundle(&loaded.cfg, &o, &args.out)?;
    let size: usize = written.files.iter().map(|(_, n)| n).sum();
    eprintln!(
        "fairscore: wrote {} ({} files, {:.1} MB): {}{}",
        escape_controls(&args.out.display().to_string()),
        written.files.len(),
        size as f64 / 1e6,
        escape_controls(&summary(&written.files)),
        if args.verbose {
            ""
        } else {
            " (--verbose lists them)"
        }
    );
    if args.verbose {
        for (name, n) in &written.files {
            eprintln!("  {n:>10}  {}", escape_controls(name));
        }
    }
    if !written.reveals.is_empty() {
        eprintln!("fairscore: participants download public_data/, each gold blind:");
    }
    for r in &written.reveals {
        eprintln!(
            "  public_data/{}: shows {}; removed: {}",
            escape_controls(&r.gold),
            escape_controls(&r.shows),
            escape_controls(&r.hides)
        );
    }
    warn_glibc(&o.binary, written.glibc);
    for n in &written.notes {
        eprintln!("fairscore: warning: {}", escape_controls(n));
    }
    for p in campaign::placeholders(&o) {
        let flag = if p == "logo.png" {
            "--logo FILE.png"
        } else {
            "--terms FILE.md"
        };
        eprintln!(
            "fairscore: warning: {p} in the bundle is a PLACEHOLDER; replace it before the \
             competition is published ({flag})"
        );
    }
    Ok(0)
}
