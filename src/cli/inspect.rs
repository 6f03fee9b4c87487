//! `fairscore inspect`: one self-contained HTML page of a run's errors against its gold (the
//! fair family's pairing and error types, Ortmann 2022), written atomically, never over an
//! input.

use clap::Args;

use super::args::{settings, ColumnFlag, Format, Gold, PageFlag, Pred, ReadChanges};
use super::family_flags::{AlignFlags, FairFlags};

#[derive(Args, Debug)]
#[command(
    after_long_help = "Reads gold and run as `evaluate --family fair` reads them (HIPE TSV, \
CoNLL, span files, or the standoff formats brat, doccano, labelstudio, prodigy; --format, \
--column, --focus, --labels, --exclude, --ignore-punct, --continuation, --repair, --map-types, \
--keep-types, --remove-types as there; a generative run, JSONL entity lists, with --align \
exact|case|fuzzy, --parser, --unit, placed on the gold's texts) and writes one HTML page: each document's text (tokens \
joined as the file says, standoff documents as written) with every gold and run span marked and \
coloured by its fair error type (correct, missed, spurious, label, boundary, label-boundary), \
documents with most errors first, each document's errors linked to their places, filters by \
type and label, the totals and the signature of the scoring. No network, no external file. \
See docs/inspect.md.\n\n\
Examples:\n  fairscore inspect --gold gold.tsv --pred run.tsv -o errors.html\n  \
fairscore inspect --gold gold-brat/ --pred run-brat/ --labels PER,LOC -o errors.html"
)]
pub struct InspectArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub fair: FairFlags,
    #[command(flatten)]
    pub changes: ReadChanges,
    #[command(flatten)]
    pub run: AlignFlags,
    #[command(flatten)]
    pub page: PageFlag,
    /// Write the whole page: without it the page's documents take at most 3 bytes per byte of
    /// the inputs and 64 KiB (the hardest documents first; the page says what it leaves out)
    #[arg(long)]
    pub full: bool,
}

pub fn run(args: InspectArgs) -> fairscore::Result<i32> {
    let gold = args.gold.gold.clone();
    let pred = args.pred.one()?.clone();
    let s = settings(&[
        &args.format,
        &args.column,
        &args.fair,
        &args.changes,
        &args.run,
    ]);
    let page = args
        .page
        .page
        .clone()
        .filter(|p| p.as_path() != std::path::Path::new("-"));
    let mut inputs = vec![("--gold", gold.as_path()), ("--pred", pred.as_path())];
    inputs.extend(
        args.changes
            .map_types
            .as_deref()
            .map(|p| ("--map-types", p)),
    );
    if let Some(p) = &page {
        fairscore::io::check_outputs(&inputs, &[("--page", p.as_path())], &[])?;
    }
    let mut ins = fairscore::api::inspect(&s, &gold, &pred)?;
    if args.full {
        ins.limit = None;
    }
    for w in &ins.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    let html = fairscore::report::render_inspection(&ins)?;
    match &page {
        Some(p) => fairscore::io::write_atomic_all(&[(p.as_path(), html.as_bytes())])?,
        None => super::print(&html)?,
    }
    Ok(0)
}
