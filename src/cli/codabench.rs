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
use fairscore::io::escape_controls;
use fairscore::{Error, Result};

/// Score one Codabench submission: INPUT/res (the unpacked zip) against INPUT/ref (the gold).
#[derive(Args, Debug)]
pub struct CodabenchArgs {
    #[command(flatten)]
    pub campaign: super::args::CampaignFile,
    /// The worker's input directory: the gold in INPUT/ref, the submission in INPUT/res (run
    /// files, possibly in folders).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// The output directory: scores.json (one number per leaderboard column) and
    /// detailed_results.html are written there.
    #[arg(value_name = "OUTPUT")]
    pub output: PathBuf,
}

/// Write a Codabench competition bundle (zip) of a campaign of family tasks.
#[derive(Args, Debug)]
pub struct BundleArgs {
    #[command(flatten)]
    pub campaign: super::args::CampaignFile,
    #[command(flatten)]
    pub gold_dir: super::args::GoldDir,
    /// The fairscore binary to put into the scoring program (default: this one). It must run
    /// on the competition's image: build it for glibc 2.17 (scripts/codabench_bundle.sh).
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
    /// The bundle to write (a zip to upload to Codabench).
    #[arg(value_name = "OUT.zip")]
    pub out: PathBuf,
}

/// The family campaign of `--campaign` (required; HIPE campaigns are refused).
fn campaign(c: &super::args::CampaignFile) -> Result<(PathBuf, FamilyCampaign)> {
    let file = c
        .campaign
        .clone()
        .ok_or_else(|| Error::usage("campaign: required (a campaign TOML file of family tasks)"))?;
    let text = fairscore::io::read_text(&file)?;
    if !campaign_kind(&file, &text)? {
        return Err(Error::usage(format!(
            "campaign: {} is not a campaign of family tasks ([[task]] with family = …); HIPE \
             campaigns have no Codabench scoring program yet",
            file.display()
        )));
    }
    let cfg = FamilyCampaign::parse(&file, &text)?;
    Ok((file, cfg))
}

/// Exit 0 with both outputs written; 1 when the submission is refused (its problems and the
/// check's findings on stderr, which Codabench shows to the participant).
pub fn run(args: CodabenchArgs) -> Result<i32> {
    let (file, cfg) = campaign(&args.campaign)?;
    // Nothing is written into the input (an OUTPUT inside INPUT, or linked to a folder of it).
    let outputs = [
        args.output.join(SCORES_FILE),
        args.output.join(DETAILED_FILE),
    ];
    fairscore::io::check_outputs(
        &[
            ("--campaign", file.as_path()),
            ("INPUT", args.input.as_path()),
        ],
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
            for p in &r.problems {
                eprintln!("fairscore: submission refused: {}", escape_controls(p));
            }
            for rep in &r.reports {
                for line in rep.to_text().lines() {
                    eprintln!("{}", escape_controls(line));
                }
            }
            let check = if r.reports.is_empty() {
                ""
            } else {
                " (`fairscore check --format FORMAT --gold GOLD --pred RUN` shows the same findings)"
            };
            eprintln!("fairscore: the submission was not scored; fix the problems above{check}");
            Ok(1)
        }
    }
}

/// Writes the bundle; lists what it holds on stderr.
pub fn run_bundle(args: BundleArgs) -> Result<i32> {
    let (file, cfg) = campaign(&args.campaign)?;
    let binary = match &args.binary {
        Some(b) => b.clone(),
        None => std::env::current_exe().map_err(|e| {
            Error::usage(format!(
                "binary: cannot find this program's file ({e}); give --binary"
            ))
        })?,
    };
    fairscore::io::check_outputs(
        &[
            ("--campaign", file.as_path()),
            ("--binary", binary.as_path()),
            ("--gold-dir", args.gold_dir.gold_dir.as_path()),
        ],
        &[("OUT.zip", args.out.as_path())],
        &[],
    )?;
    let o = BundleOptions {
        campaign_file: file,
        gold_dir: args.gold_dir.gold_dir.clone(),
        binary,
        docker_image: args.docker_image.clone(),
        start: args.phase_start.clone(),
        end: args.phase_end.clone(),
    };
    let names = campaign::write_bundle(&cfg, &o, &args.out)?;
    eprintln!(
        "fairscore: wrote {} ({} files: {})",
        args.out.display(),
        names.len(),
        escape_controls(&names.join(", "))
    );
    Ok(0)
}
