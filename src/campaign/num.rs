//! The numbers of the score tables ([`Num`]): each cell's text as the official file shows it
//! and its value, the text kept inline when short so that the rows a campaign keeps per run
//! cost no allocation per number.

use crate::metrics::PyNum;

/// A number of the score table: the cell text as the official file shows it (Python's
/// `round(x, 3)`: `0`, `0.0`, `0.8`, `1.0`, …; empty when there is none) and its value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Num {
    text: CellText,
    value: Option<f64>,
}

/// The text of a number cell, kept inline when short (every score and count the official
/// tables print is): a campaign keeps a dozen of them per row and hundreds of rows per run,
/// so one allocation each would make its memory grow with the number of runs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum CellText {
    #[default]
    Empty,
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    Heap(Box<str>),
}

const INLINE: usize = 22;

impl CellText {
    fn new(s: &str) -> Self {
        match s.len() {
            0 => CellText::Empty,
            n if n <= INLINE => {
                let mut buf = [0; INLINE];
                buf[..n].copy_from_slice(s.as_bytes());
                CellText::Inline { len: n as u8, buf }
            }
            _ => CellText::Heap(s.into()),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            CellText::Empty => "",
            // Copied from a `&str` whole: always valid UTF-8.
            CellText::Inline { len, buf } => {
                std::str::from_utf8(buf.get(..*len as usize).unwrap_or(&[])).unwrap_or("")
            }
            CellText::Heap(s) => s,
        }
    }
}

impl Num {
    /// A cell as written; `None` when it is neither empty nor a finite number.
    pub fn parse(text: &str) -> Option<Num> {
        if text.is_empty() {
            return Some(Num::default());
        }
        let value: f64 = text.parse().ok().filter(|v: &f64| v.is_finite())?;
        Some(Num {
            text: CellText::new(text),
            value: Some(value),
        })
    }

    /// A score as the official table writes it (`round(x, 3)`).
    pub fn score(n: PyNum) -> Num {
        Num::from_text(n.round3())
    }

    /// A count.
    pub fn count(n: u64) -> Num {
        Num {
            text: CellText::new(&n.to_string()),
            value: Some(n as f64),
        }
    }

    /// A weighted count: whole numbers without a decimal point, others rounded to 3 places.
    pub fn weighted(x: f64) -> Num {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            Num::from_text(format!("{}", x as i64))
        } else {
            Num::from_text(crate::metrics::py::round3_repr(x))
        }
    }

    fn from_text(text: String) -> Num {
        let value = text.parse().ok().filter(|v: &f64| v.is_finite());
        Num {
            text: CellText::new(&text),
            value,
        }
    }

    /// The cell text.
    pub fn text(&self) -> &str {
        self.text.as_str()
    }

    /// The value of the cell text (so `0.8` for a score of 0.7996).
    pub fn value(&self) -> Option<f64> {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_read_back_whole_inline_or_not() {
        for t in [
            "",
            "1",
            "0.123",
            "1234567890123456789012",
            "12345678901234567890123",
            "é",
        ] {
            assert_eq!(CellText::new(t).as_str(), t);
        }
        assert!(matches!(CellText::new("0.8"), CellText::Inline { .. }));
        assert!(matches!(CellText::new(&"9".repeat(30)), CellText::Heap(_)));
        assert_eq!(Num::parse("0.8").map(|n| n.value()), Some(Some(0.8)));
    }
}
