//! The official TSV output: one row per column × period × noise level × aggregation ×
//! regime × label, numbers rounded with Python's `round(x, 3)`, CRLF line ends, fields quoted
//! as Python's csv module does (QUOTE_MINIMAL).

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
