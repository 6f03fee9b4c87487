//! Plain segmented text, the format of the SIGHAN word segmentation bakeoffs: one sentence a
//! line, words separated by whitespace.
//!
//! Conventions:
//! * lines end at `\n`; a `\r` before it is whitespace like any other; a final line without
//!   `\n` is read, the empty piece after a final `\n` is not a line;
//! * words are separated by runs of Unicode whitespace (`char::is_whitespace`: ASCII spaces
//!   and tabs, U+3000 IDEOGRAPHIC SPACE, …), leading and trailing whitespace is ignored;
//! * a blank line (empty or whitespace only) is an empty sentence: it is kept, so that the
//!   n-th line of one file always pairs with the n-th line of the other, as the bakeoff
//!   scoring script pairs them. Reading never fails; [`check_line_ends`] refuses a bare CR
//!   (`segmentation` runs it on both files first).

/// One line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlainSentence<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The line without its `\n` (a `\r` before it is kept).
    pub text: &'a str,
}

impl<'a> PlainSentence<'a> {
    /// The words of the line.
    pub fn words(&self) -> std::str::SplitWhitespace<'a> {
        self.text.split_whitespace()
    }

    /// True for a blank line.
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

/// Refuses a bare carriage return (a `\r` not followed by `\n`): with old Mac line ends
/// the whole file would be read as one sentence, as the HIPE readers refuse such files.
/// The error names the file and the line holding the first one.
pub fn check_line_ends(path: &std::path::Path, text: &str) -> crate::Result<()> {
    let bytes = text.as_bytes();
    for at in memchr::memchr_iter(b'\r', bytes) {
        if bytes.get(at + 1) != Some(&b'\n') {
            let line = 1 + memchr::memchr_iter(b'\n', &bytes[..at]).count();
            return Err(crate::Error::input(
                path,
                line,
                "a carriage return not followed by a line feed: lines end with a bare CR (old Mac style) \
                 or a CR is inside a sentence; convert line ends to LF (sentences are lines)",
            ));
        }
    }
    Ok(())
}

/// All lines of the text, blank ones included.
pub fn sentences(text: &str) -> Vec<PlainSentence<'_>> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split('\n')
        .enumerate()
        .map(|(i, t)| PlainSentence {
            line: i + 1,
            text: t,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_words() {
        let s = sentences("a b\n\n c\u{3000}d \r\nlast");
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].words().collect::<Vec<_>>(), ["a", "b"]);
        assert!(s[1].is_blank());
        assert_eq!(s[2].words().collect::<Vec<_>>(), ["c", "d"]);
        assert_eq!(s[3].line, 4);
        assert_eq!(sentences("x\n").len(), 1);
        assert_eq!(sentences("x\n\n").len(), 2);
        assert!(sentences("").is_empty());
        assert_eq!(sentences("\n").len(), 1);
    }

    #[test]
    fn a_bare_cr_is_refused_with_its_line() {
        let p = std::path::Path::new("t.txt");
        assert!(check_line_ends(p, "a b\r\nc d\r\n").is_ok());
        let e = check_line_ends(p, "a b\nc d\re f\rg\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.txt:2: a carriage return not followed"),
            "{e}"
        );
        let e = check_line_ends(p, "a\r").unwrap_err().to_string();
        assert!(e.starts_with("t.txt:1:"), "{e}");
    }
}
