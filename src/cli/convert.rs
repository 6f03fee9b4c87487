//! `fairscore convert`: annotations between tag encodings and formats (docs/convert.md).

use clap::Args;
use fairscore::Result;

use super::args::{settings, ColumnFlag, ConvertFlags, Format, InOut, ReadChanges};
use super::family_flags::AlignFlags;

/// Convert annotations: CoNLL tags between encodings (BIO, IOB, BIOES, BILOU, BMES, BMEOW,
/// IO) as seqscore 0.9 converts them, with its repairs and type changes; standoff files
/// (brat, doccano, Label Studio, Prodigy) into one another, keeping every span; standoff to
/// CoNLL by whitespace tokens (cut at span boundaries; overlapping spans are refused) and
/// CoNLL to standoff (the text is the tokens, a line a sentence); a generative run (JSONL
/// entity lists) placed on its gold's texts (--onto GOLD --align MODE) to any of these. See
/// docs/convert.md.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// (--in, --out.)
    #[command(flatten)]
    pub io: InOut,
    /// (--format: the input's format: auto, conll, brat, doccano, labelstudio or prodigy.)
    #[command(flatten)]
    pub format: Format,
    /// (--column: the tag column of a CoNLL input, by name or 1-based number; default the
    /// last.)
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub changes: ReadChanges,
    #[command(flatten)]
    pub flags: ConvertFlags,
    /// (--align, --parser, --unit, --align-threshold: a generative run placed on the texts
    /// of --onto.)
    #[command(flatten)]
    pub run: AlignFlags,
}

pub fn run(args: ConvertArgs) -> Result<i32> {
    let s = settings(&[
        &args.format,
        &args.column,
        &args.changes,
        &args.flags,
        &args.run,
    ]);
    let opts = fairscore::api::convert_options(&s)?;
    s.finish("convert")?;
    let input = args.io.input.as_path();
    let output = args.io.output.as_path();
    let mut inputs = vec![("--in", input)];
    inputs.extend(args.flags.onto.as_deref().map(|p| ("--onto", p)));
    inputs.extend(
        args.changes
            .map_types
            .as_deref()
            .map(|p| ("--map-types", p)),
    );
    let mut outputs = vec![("--out", output)];
    outputs.extend(
        args.flags
            .repair_log
            .as_deref()
            .map(|p| ("--repair-log", p)),
    );
    fairscore::io::check_outputs(&inputs, &outputs, &[])?;
    let converted = fairscore::api::convert(input, output, &opts)?;
    // Every file of a brat output, checked against the inputs too.
    let files: Vec<(&str, &std::path::Path)> = converted
        .files
        .iter()
        .map(|(p, _)| ("--out", p.as_path()))
        .chain(outputs.iter().skip(1).copied())
        .collect();
    fairscore::io::check_outputs(&inputs, &files, &[])?;
    fairscore::api::write_converted(&converted, args.flags.repair_log.as_deref())?;
    if args.flags.repair_log.is_none() {
        for r in &converted.repairs {
            eprintln!("fairscore: repair: {}", fairscore::io::escape_controls(r));
        }
    }
    for n in &converted.notes {
        eprintln!("fairscore: note: {}", fairscore::io::escape_controls(n));
    }
    for w in &converted.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    if let Some(r) = &args.changes.repair {
        eprintln!(
            "fairscore: {} tag(s) repaired ({r}){}",
            converted.repairs.len(),
            match &args.flags.repair_log {
                Some(p) => format!(", logged to {}", fairscore::io::show_path(p)),
                None => String::new(),
            }
        );
    }
    Ok(0)
}
