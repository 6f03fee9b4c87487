//! Any family's [`Results`] as bytes: aligned text (`text`), JSON ([`json`]), CSV and TSV
//! (`delimited`, with the csv crate), Markdown (`markdown`), a standalone HTML page
//! (`html`, Tera) and LaTeX (`latex`, booktabs). A new output format is one more file here and one [`TableFormat`] variant.

pub(crate) mod delimited;
#[cfg(feature = "html")]
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod latex;
pub(crate) mod markdown;
pub(crate) mod text;

#[cfg(not(feature = "html"))]
use crate::error::Error;
use crate::error::Result;
use crate::table::{Kind, Results, TableFormat, Value};

/// Renders `results` in `format`.
pub fn render(results: &Results, format: TableFormat) -> Result<String> {
    match format {
        TableFormat::Text => Ok(text::render(results)),
        TableFormat::Json => Ok(json::render(results)),
        TableFormat::Csv => delimited::render(results, b','),
        TableFormat::Tsv => delimited::render(results, b'\t'),
        TableFormat::Markdown => Ok(markdown::render(results)),
        TableFormat::Latex => Ok(latex::render(results)),
        #[cfg(feature = "html")]
        TableFormat::Html => html::render(results),
        #[cfg(not(feature = "html"))]
        TableFormat::Html => Err(Error::usage(
            "table: html needs the `html` feature of the fairscore library",
        )),
    }
}

/// A ratio in percent with two decimals (`74.52`).
pub(crate) fn percent(x: f64) -> String {
    format!("{:.2}", x * 100.0)
}

/// A cell for people: counts as integers, amounts with up to two decimals, ratios in percent,
/// p-values with four decimals.
pub(crate) fn cell(kind: Kind, v: Value) -> String {
    match v {
        Value::Amount(x) if kind == Kind::PValue => format!("{x:.4}"),
        Value::Count(n) => n.to_string(),
        Value::Amount(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
        Value::Amount(x) => format!("{x:.2}"),
        Value::Ratio(x) => percent(x),
        Value::Missing => String::new(),
    }
}

/// A column header for people: ratios get ` %`.
pub(crate) fn header(name: &str, kind: Kind) -> String {
    match kind {
        Kind::Ratio => format!("{name} %"),
        _ => name.to_string(),
    }
}

/// An interval for people, in percent: `70.10–78.93`.
pub(crate) fn interval(ci: [f64; 2]) -> String {
    format!("{}–{}", percent(ci[0]), percent(ci[1]))
}

/// The lines that say how the numbers were computed (unit, resampling, notes).
pub(crate) fn provenance(r: &Results) -> Vec<String> {
    let mut out = vec![if r.units == 0 {
        r.family.clone()
    } else {
        format!(
            "{}: {} {}{}",
            r.family,
            r.units,
            r.unit.name(),
            if r.units == 1 { "" } else { "s" }
        )
    }];
    if let Some(s) = r.resampling {
        out.push(format!(
            "intervals: {:.0} % percentile bootstrap over {}s, {} resamples, seed {}",
            s.confidence * 100.0,
            r.unit.name(),
            s.samples,
            s.seed
        ));
    }
    out.extend(r.notes.iter().cloned());
    out
}
