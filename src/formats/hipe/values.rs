//! Values the HIPE reader finds inside cells and comments: the OCR noise level of a MISC cell
//! (`LED<float>`) and its sentence end (`EndOfSentence`), and the date of a date comment.

use crate::corpus::{valid_date, Date};

/// First `LED<digits>[.<digits>]` in a MISC cell, as the official regex `LED(\d+(\.\d+)?)`.
pub fn parse_led(misc: &str) -> Option<f64> {
    let bytes = misc.as_bytes();
    let mut from = 0;
    while let Some(pos) = bytes[from..].windows(3).position(|w| w == b"LED") {
        let start = from + pos + 3;
        let mut end = start;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if end > start {
            if end + 1 < bytes.len() && bytes[end] == b'.' && bytes[end + 1].is_ascii_digit() {
                end += 1;
                while end < bytes.len() && bytes[end].is_ascii_digit() {
                    end += 1;
                }
            }
            return misc[start..end].parse().ok();
        }
        from = from + pos + 3;
    }
    None
}

/// The flag of a MISC cell that ends a sentence.
const END_OF_SENTENCE: &str = "ENDOFSENTENCE";

/// Whether a MISC cell holds `EndOfSentence` among its `|`-separated flags, in any case (as
/// the cell upper-cased by the reader compares): a cell shorter than the flag cannot (most are
/// `_` or `NoSpaceAfter`); no character upper-cases to more ASCII bytes than it has, so the
/// raw length bounds the upper-cased one's from above.
#[inline]
pub(crate) fn ends_sentence(misc: &str) -> bool {
    // The length test inline (most cells), the flags' search apart.
    misc.len() >= END_OF_SENTENCE.len() && flags_end_sentence(misc)
}

/// [`ends_sentence`] of a cell at least as long as the flag.
fn flags_end_sentence(misc: &str) -> bool {
    let n = END_OF_SENTENCE.len();
    let b = misc.as_bytes();
    let mut from = 0;
    for end in memchr::memchr_iter(b'|', b).chain([b.len()]) {
        let f = &b[from..end];
        from = end + 1;
        let hit = if f.is_ascii() {
            f.len() == n && f.eq_ignore_ascii_case(END_OF_SENTENCE.as_bytes())
        } else {
            // (`|` is ASCII: a piece of a `str` cut at it is one too.)
            std::str::from_utf8(f).is_ok_and(|f| f.to_uppercase() == END_OF_SENTENCE)
        };
        if hit {
            return true;
        }
    }
    false
}

/// First `YYYY-MM-DD` (a valid calendar date) in a comment line.
pub(super) fn find_date(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    if b.len() < 10 {
        return None;
    }
    for i in 0..=b.len() - 10 {
        let w = &b[i..i + 10];
        let digits = |r: std::ops::Range<usize>| w[r].iter().all(|c| c.is_ascii_digit());
        if digits(0..4) && w[4] == b'-' && digits(5..7) && w[7] == b'-' && digits(8..10) {
            let num = |r: std::ops::Range<usize>| -> u32 {
                w[r].iter().fold(0, |acc, c| acc * 10 + (c - b'0') as u32)
            };
            let d = Date {
                year: num(0..4) as i32,
                month: num(5..7),
                day: num(8..10),
            };
            // The official scorer takes the first match and fails if it is no valid date.
            return valid_date(d).then_some(d);
        }
    }
    None
}
