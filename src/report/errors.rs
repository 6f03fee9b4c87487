//! The `--errors` listing of `score`: one TSV row per gold and run span with its fair error
//! type.

use crate::escape::cell;
use crate::eval::score::SpanRecord;

/// Header of the `--errors` listing.
pub const ERRORS_HEADER: &str =
    "column\tdocument\tside\tline\tstart\tend\ttext\tlabel\tpartner_labels\terror\n";

/// The listing as TSV text: the span's text with tabs and line breaks as spaces, every text
/// cell through [`crate::escape::cell`] (no tab or line break inside a cell, no cell a
/// spreadsheet would run as a formula).
pub fn listing(records: &[SpanRecord]) -> String {
    let text = |s: &str| cell(&s.replace(['\t', '\n', '\r'], " "));
    let mut out = String::from(ERRORS_HEADER);
    for r in records {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            cell(&r.column),
            cell(&r.document),
            r.side,
            r.line,
            r.start,
            r.end,
            text(&r.text),
            cell(&r.label),
            cell(&r.partners.join("|")),
            r.error.as_str(),
        ));
    }
    out
}
