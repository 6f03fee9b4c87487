//! `fairscore normalize`: the official `normalize_linking.py`.

use clap::Args;
use fairscore::io::write_atomic;
use fairscore::normalize_file;
use fairscore::Result;
use std::path::PathBuf;

/// Normalize the entity links of a HIPE TSV file for relaxed NEL evaluation. Comments, blank
/// lines and all other columns are kept unchanged.
#[derive(Args, Debug)]
pub struct NormalizeArgs {
    /// (--in: the HIPE TSV file; --out: the normalized file.)
    #[command(flatten)]
    pub io: super::args::InOut,
    /// Link time entities (NE-COARSE-LIT containing `time`) to NIL.
    #[arg(long = "norm-time", alias = "norm_time")]
    pub norm_time: bool,
    /// Map historical QID variants to their main QID (needs --map).
    #[arg(long = "norm-histo", alias = "norm_histo", requires = "map")]
    pub norm_histo: bool,
    /// QID map: TSV with a `Main` column and alternative columns.
    #[arg(short = 'm', long = "map", value_name = "MAP")]
    pub map: Option<PathBuf>,
    /// As the official script: accepted, links left unchanged (the official v2.0 union step
    /// fails silently, so official union scores are those of the unchanged run). See
    /// --union-interleave for the union it documents.
    #[arg(long = "union-meto-lit", alias = "union_meto_lit")]
    pub union_meto_lit: bool,
    /// Make both link columns the interleaved union of literal and metonymic candidate lists
    /// (`EMPTY` fills the shorter; `_`/`-` cells kept): what the official script documents.
    #[arg(long = "union-interleave")]
    pub union_interleave: bool,
    /// (--hipe_edition: with hipe-2022, --norm-time leaves NEL-METO alone.)
    #[command(flatten)]
    pub edition: super::args::Edition,
}

pub fn run(args: NormalizeArgs) -> Result<i32> {
    let mut inputs = vec![("--in", args.io.input.as_path())];
    inputs.extend(args.map.as_deref().map(|p| ("--map", p)));
    // Rewriting --in in place is allowed; writing over the QID map is not.
    fairscore::io::check_outputs(&inputs, &[("--out", args.io.output.as_path())], &["--in"])?;
    if args.union_meto_lit && !args.union_interleave {
        eprintln!(
            "fairscore: warning: --union-meto-lit leaves links unchanged, as the official normalize_linking.py v2.0 does (its union step fails silently); use --union-interleave for the interleaved union"
        );
    }
    let mut s = fairscore::api::Settings::new();
    s.flag("norm_time", args.norm_time)
        .flag("norm_histo", args.norm_histo)
        .flag("union_interleave", args.union_interleave)
        .flag("union_meto_lit", args.union_meto_lit)
        .text(
            "map",
            args.map.as_ref().map(|p| p.to_string_lossy().into_owned()),
        )
        .text("hipe_edition", args.edition.hipe_edition.as_ref());
    let opts = fairscore::api::normalize_options(&s)?;
    s.finish("normalize")?;
    let text = normalize_file(&args.io.input, &opts)?;
    write_atomic(&args.io.output, text.as_bytes())?;
    Ok(0)
}
