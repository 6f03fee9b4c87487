//! The `--errors` listing of a fair evaluation: one TSV line per target and per system span
//! with its fair and traditional error types and the spans it was paired with.

use std::fmt::Write as _;

use super::FairReport;
use crate::escape::cell;
use crate::matching::fair::ErrorType;

/// Header of the error listing.
pub const ERRORS_HEADER: &str =
    "unit\tside\tline\tbegin\tend\tlabel\ttype\ttraditional\tpartners\ttext";

/// Header of the error listing of standoff documents: spans by character offsets.
pub const STANDOFF_ERRORS_HEADER: &str =
    "unit\tside\tline\tstart\tend\tlabel\ttype\ttraditional\tpartners\ttext";

/// One line per target and per system span: unit id, side (`target`/`system`), the line in its
/// file, token range, label, fair error type (the type the span was first counted with),
/// traditional type, partners (`LABEL[begin-end]` of the spans it was paired with) and the
/// span's text where the tokens are known. For standoff documents the ranges are `[start,
/// end)` character offsets ([`STANDOFF_ERRORS_HEADER`]) and the text is the document's.
pub fn errors_tsv(report: &FairReport) -> String {
    let mut out = String::new();
    let standoff = report.units.iter().any(|u| u.target.chars.is_some());
    let header = if standoff {
        STANDOFF_ERRORS_HEADER
    } else {
        ERRORS_HEADER
    };
    let _ = writeln!(out, "{header}");
    for u in &report.units {
        let o = &u.outcome;
        let sides = [
            (
                "target",
                &u.target,
                &u.system,
                &o.target_types,
                &o.target_traditional_tp,
                ErrorType::FN,
            ),
            (
                "system",
                &u.system,
                &u.target,
                &o.system_types,
                &o.system_traditional_tp,
                ErrorType::FP,
            ),
        ];
        // All partner lists in one walk over the assignments.
        let (t_partners, s_partners) = o.partner_lists();
        for (side, unit, other, types, trad, miss) in sides {
            let lists = if side == "target" {
                &t_partners
            } else {
                &s_partners
            };
            for (i, sp) in unit.spans.iter().enumerate() {
                let partners: Vec<String> = lists
                    .get(i)
                    .into_iter()
                    .flatten()
                    .filter_map(|&k| other.spans.get(k))
                    .map(|p| {
                        let (a, b) = other.extent(p);
                        format!("{}[{a}-{b}]", p.label)
                    })
                    .collect();
                let trad_type = if trad.get(i).copied().unwrap_or(false) {
                    ErrorType::TP
                } else {
                    miss
                };
                let text = unit.text_of(sp).unwrap_or_default();
                let (begin, end) = unit.extent(sp);
                let _ = writeln!(
                    out,
                    "{}\t{side}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    cell(&u.target.id),
                    unit.span_lines.get(i).copied().unwrap_or(0),
                    begin,
                    end,
                    cell(&sp.label),
                    types.get(i).map_or("", |t| t.as_str()),
                    trad_type.as_str(),
                    cell(&partners.join(" ")),
                    cell(&text.replace(['\t', '\n'], " "))
                );
            }
        }
    }
    out
}
