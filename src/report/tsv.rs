//! The official TSV output: one row per column × period × noise level × aggregation ×
//! regime × label, numbers rounded with Python's `round(x, 3)`, CRLF line ends, fields quoted
//! as Python's csv module does (QUOTE_MINIMAL). The official outputs are not escaped (they
//! must be the official scorer's bytes); the ranking files built from them are ([`cell`]).

/// The header of the official per-run TSV.
pub const FIELDS: [&str; 12] = [
    "System",
    "Evaluation",
    "Label",
    "P",
    "R",
    "F1",
    "F1_std",
    "P_std",
    "R_std",
    "TP",
    "FP",
    "FN",
];

/// Quotes a field as Python's csv writer with tab delimiter and QUOTE_MINIMAL.
pub fn quote(field: &str) -> std::borrow::Cow<'_, str> {
    if field.contains(['\t', '"', '\r', '\n']) {
        std::borrow::Cow::Owned(format!("\"{}\"", field.replace('"', "\"\"")))
    } else {
        std::borrow::Cow::Borrowed(field)
    }
}

/// A text cell of a TSV file fairscore builds from official rows (the ranking files and their
/// `.ci.tsv`): [`crate::escape::cell`] (no tab or line break, no formula), then quoted as
/// [`quote`] does. Names and labels that need neither come out as [`quote`] writes them, so
/// the ranking files stay those of the HIPE organisers; the official per-run outputs
/// ([`push_row`]) are never escaped.
pub fn cell(field: &str) -> std::borrow::Cow<'_, str> {
    let escaped = crate::escape::cell(field);
    if escaped == field {
        quote(field)
    } else {
        std::borrow::Cow::Owned(quote(&escaped).into_owned())
    }
}

/// Appends one CRLF-terminated row.
pub fn push_row<S: AsRef<str>>(out: &mut String, fields: &[S]) {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push('\t');
        }
        out.push_str(&quote(f.as_ref()));
    }
    out.push_str("\r\n");
}
