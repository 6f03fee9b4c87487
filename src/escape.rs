//! The one escaping rule of each output language. Run names, labels, document ids and file
//! names come from participants and end up in published outputs; every writer of a language
//! passes such text through that language's function here, and no writer keeps its own copy:
//!
//! - [`terminal`]: text for a terminal or a plain-text table (control characters shown as
//!   `\n`, `\u{1b}`, …, so that a name cannot move the cursor, colour the screen or forge a
//!   line);
//! - [`cell`]: a CSV or TSV cell (control characters shown as in [`terminal`], so that a row
//!   never splits, and a cell a spreadsheet would take as a formula prefixed with `'`, as
//!   OWASP's "CSV Injection" page recommends);
//! - [`markdown`]: Markdown text or a table cell (backslash escapes, no HTML entities);
//! - [`html`]: HTML text or a quoted attribute value (the entities Tera writes; Tera's
//!   autoescaping and `escape` filter use this function);
//! - [`latex`]: LaTeX text;
//! - [`url_path`]: a relative link made of names (a campaign's per-run pages), before the
//!   [`html`] of its attribute.
//!
//! "Control characters" ([`hidden`]) are Unicode's control characters (C0, DEL, C1), the line
//! and paragraph separators and the bidirectional formatting characters (which reorder what a
//! reader sees). JSON needs no rule here: serde_json escapes what JSON requires.
//! The official HIPE outputs (`report::official`, `report::tsv`) are not escaped: they must be
//! the bytes of the official scorer.

use std::fmt::Write as _;

/// Does `c` change how text around it is shown (control characters, line and paragraph
/// separators, bidirectional formatting)?
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Appends the visible form of a [`hidden`] character (`\n`, `\t`, `\u{1b}`, …) through
/// `push`, one character at a time.
fn visible(c: char, mut push: impl FnMut(char)) {
    for v in c.escape_default() {
        push(v);
    }
}

/// Text for a terminal or a plain-text file: [`hidden`] characters shown as Rust escapes
/// (`\n`, `\t`, `\r`, `\u{0}`, `\u{1b}`), everything else unchanged.
pub fn terminal(s: &str) -> String {
    if !s.chars().any(hidden) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hidden(c) {
            visible(c, |v| out.push(v));
        } else {
            out.push(c);
        }
    }
    out
}

/// Does a spreadsheet take a cell starting with this text as a formula? `=`, `+`, `-` and `@`
/// start formulas (OWASP, "CSV Injection"), but numbers such as `-0.5` or `+1` are numbers.
fn formula(s: &str) -> bool {
    s.starts_with(['=', '+', '-', '@', '\t', '\r']) && s.parse::<f64>().is_err()
}

/// A CSV or TSV cell: [`hidden`] characters shown as in [`terminal`] (so that no tab, line
/// break or terminal escape reaches the file and a row stays one line of the header's width),
/// then a cell that would start a spreadsheet formula (`=`, `+`, `-`, `@`, not a number) is
/// prefixed with `'`, which spreadsheets take as "text" (OWASP, "CSV Injection"). Quoting
/// (a `"` or the delimiter inside a cell) is the writer's: the csv crate or Python's rules.
pub fn cell(s: &str) -> String {
    let shown = terminal(s);
    if formula(&shown) {
        format!("'{shown}")
    } else {
        shown
    }
}

/// Markdown text or table cell (CommonMark and GitHub's tables): a backslash before the marks
/// that start emphasis, code, links and images, HTML, entities, strike-through, math and table
/// cells (`\ ` * [ ] < > | ~ & ! $`); `_` only where it could start or end emphasis (not
/// inside a word such as `team_bundle1`); [`hidden`] characters shown as `\n`, `\u{1b}`, …
/// (their backslash escaped). With `\[`, `\]`, `<` and `>` escaped no link or autolink can form,
/// so a `javascript:` URL stays text.
pub fn markdown(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '!' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '_' => {
                let inner = |j: Option<usize>| {
                    j.and_then(|j| chars.get(j))
                        .is_some_and(|c| c.is_alphanumeric())
                };
                if !(inner(i.checked_sub(1)) && inner(Some(i + 1))) {
                    out.push('\\');
                }
                out.push('_');
            }
            c if hidden(c) => visible(c, |v| {
                if v == '\\' {
                    out.push('\\');
                }
                out.push(v);
            }),
            c => out.push(c),
        }
    }
    out
}

/// HTML text or a quoted attribute value: `& < > " ' /` as the entities Tera writes
/// (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#x27;`, `&#x2F;`), [`hidden`] characters shown as
/// `\n`, `\u{1b}`, …. A value is never written into an unquoted attribute, an event handler,
/// a `style` or a URL attribute (`href`, `src`) by the templates, but a relative link made by
/// [`url_path`], so a `javascript:` URL stays text.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            '/' => out.push_str("&#x2F;"),
            c if hidden(c) => visible(c, |v| out.push(v)),
            c => out.push(c),
        }
    }
    out
}

/// HTML text of a document shown as written (`white-space: pre-wrap`): as [`html`], but a
/// line break (`\n`, `\r\n`) stays a line break and a tab stays a tab, so that the text keeps
/// its lines; other [`hidden`] characters are shown as `\u{1b}`, ….
#[cfg_attr(not(feature = "html"), allow(dead_code))] // the inspect page's renderer
pub fn html_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        for (i, part) in line.split('\t').enumerate() {
            if i > 0 {
                out.push('\t');
            }
            out.push_str(&html(part));
        }
        if lines.peek().is_some() {
            out.push('\n');
        }
    }
    out
}

/// LaTeX text: the ten special characters (`\ & % $ # _ { } ~ ^`) and `< > |` become their
/// commands, `[ ]` are braced (a table cell starting with `[` is no optional argument of the
/// row's `\\`), [`hidden`] characters their visible form (`\textbackslash{}u\{1b\}`), the minus
/// sign U+2212 `$-$` and the ellipsis `\ldots{}`, every other character pdflatex cannot set
/// with the documents' `T1` font encoding and `utf8` input ([`SETTABLE`]) `[U+XXXX]`: so a
/// document compiles whatever the names and texts in it (issue 47.6: `Ħ`, `ſ`, CJK, emoji).
pub fn latex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if hidden(c) {
            visible(c, |v| latex_char(&mut out, v));
        } else {
            latex_char(&mut out, c);
        }
    }
    out
}

fn latex_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\textbackslash{}"),
        '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
            out.push('\\');
            out.push(c);
        }
        '~' => out.push_str("\\textasciitilde{}"),
        '^' => out.push_str("\\textasciicircum{}"),
        '<' => out.push_str("\\textless{}"),
        '>' => out.push_str("\\textgreater{}"),
        '|' => out.push_str("\\textbar{}"),
        // In braces: a cell starting with `[` after a row's `\\` is no optional argument.
        '[' => out.push_str("{[}"),
        ']' => out.push_str("{]}"),
        '\u{2212}' => out.push_str("$-$"),
        '…' => out.push_str("\\ldots{}"),
        c if c.is_ascii() || SETTABLE.iter().any(|r| r.contains(&c)) => out.push(c),
        // Shown by its code point rather than stopping pdflatex ("Unicode character … not
        // set up for use with LaTeX").
        c => {
            let _ = write!(out, "{{[}}U+{:04X}{{]}}", c as u32);
        }
    }
}

/// The characters beyond ASCII that pdflatex sets with `\usepackage[T1]{fontenc}` and
/// `\usepackage[utf8]{inputenc}` (every document `report::table::latex` begins): those
/// LaTeX's `t1enc.dfu` and `ts1enc.dfu` declare (TeX Live 2022), less the invisible U+200C and
/// U+FEFF. Latin-1, most of Latin Extended-A (not `Ħ ħ ĸ Ŀ ŀ ŉ Ŧ ŧ ſ`), a few letters of
/// Extended-B and Additional, typographic punctuation, some currency and symbols.
#[rustfmt::skip]
const SETTABLE: [std::ops::RangeInclusive<char>; 68] = [
    '\u{a0}'..='\u{b7}',
    '\u{b9}'..='\u{125}',
    '\u{128}'..='\u{137}',
    '\u{139}'..='\u{13e}',
    '\u{141}'..='\u{148}',
    '\u{14a}'..='\u{165}',
    '\u{168}'..='\u{17e}',
    '\u{192}'..='\u{192}',
    '\u{1c4}'..='\u{1d4}',
    '\u{1e2}'..='\u{1e3}',
    '\u{1e6}'..='\u{1eb}',
    '\u{1f0}'..='\u{1f0}',
    '\u{1f4}'..='\u{1f5}',
    '\u{218}'..='\u{21b}',
    '\u{232}'..='\u{233}',
    '\u{237}'..='\u{237}',
    '\u{2c7}'..='\u{2c7}',
    '\u{2d8}'..='\u{2d9}',
    '\u{2db}'..='\u{2db}',
    '\u{2dd}'..='\u{2dd}',
    '\u{e3f}'..='\u{e3f}',
    '\u{1e02}'..='\u{1e03}',
    '\u{1e0d}'..='\u{1e0d}',
    '\u{1e1e}'..='\u{1e21}',
    '\u{1e25}'..='\u{1e25}',
    '\u{1e30}'..='\u{1e31}',
    '\u{1e37}'..='\u{1e37}',
    '\u{1e43}'..='\u{1e43}',
    '\u{1e45}'..='\u{1e45}',
    '\u{1e47}'..='\u{1e47}',
    '\u{1e5b}'..='\u{1e5b}',
    '\u{1e63}'..='\u{1e63}',
    '\u{1e6d}'..='\u{1e6d}',
    '\u{1e8e}'..='\u{1e91}',
    '\u{1e9e}'..='\u{1e9e}',
    '\u{1ef2}'..='\u{1ef3}',
    '\u{2010}'..='\u{2016}',
    '\u{2018}'..='\u{201a}',
    '\u{201c}'..='\u{201e}',
    '\u{2020}'..='\u{2022}',
    '\u{2030}'..='\u{2031}',
    '\u{2039}'..='\u{203b}',
    '\u{203d}'..='\u{203d}',
    '\u{2044}'..='\u{2044}',
    '\u{204e}'..='\u{204e}',
    '\u{2052}'..='\u{2052}',
    '\u{20a1}'..='\u{20a1}',
    '\u{20a4}'..='\u{20a4}',
    '\u{20a6}'..='\u{20a6}',
    '\u{20a9}'..='\u{20a9}',
    '\u{20ab}'..='\u{20ac}',
    '\u{20b1}'..='\u{20b1}',
    '\u{2103}'..='\u{2103}',
    '\u{2116}'..='\u{2117}',
    '\u{211e}'..='\u{211e}',
    '\u{2120}'..='\u{2120}',
    '\u{2122}'..='\u{2122}',
    '\u{2126}'..='\u{2127}',
    '\u{212e}'..='\u{212e}',
    '\u{2190}'..='\u{2193}',
    '\u{2329}'..='\u{232a}',
    '\u{2422}'..='\u{2423}',
    '\u{25e6}'..='\u{25e6}',
    '\u{25ef}'..='\u{25ef}',
    '\u{266a}'..='\u{266a}',
    '\u{27e8}'..='\u{27e9}',
    '\u{3008}'..='\u{3009}',
    '\u{fb00}'..='\u{fb06}',
];

/// A relative URL path from names: each `/`-separated part percent-encoded but for the
/// unreserved characters of RFC 3986 (`A-Z a-z 0-9 - . _ ~`), so that no name can give the
/// link a scheme (`javascript:`), a query, a fragment or a further part; `.` and `..` parts
/// become `%2E`, `%2E%2E`.
pub fn url_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    for (i, part) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        if part == "." || part == ".." {
            out.push_str(&"%2E".repeat(part.len()));
            continue;
        }
        for b in part.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                out.push(b as char);
            } else {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_path_encodes_names() {
        assert_eq!(url_path("inspect/a_1-ner.html"), "inspect/a_1-ner.html");
        assert_eq!(
            url_path("inspect/javascript:x?y#z é.html"),
            "inspect/javascript%3Ax%3Fy%23z%20%C3%A9.html"
        );
        assert_eq!(url_path("../x"), "%2E%2E/x");
    }

    #[test]
    fn terminal_shows_controls() {
        assert_eq!(
            terminal("a\u{1b}[31mb\tc\r\nd\0"),
            "a\\u{1b}[31mb\\tc\\r\\nd\\u{0}"
        );
        assert_eq!(terminal("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(terminal("plain – é"), "plain – é");
    }

    #[test]
    fn cells_never_split_nor_compute() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(cell("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0");
        assert_eq!(cell("@SUM(1)"), "'@SUM(1)");
        assert_eq!(cell("-2+3"), "'-2+3");
        assert_eq!(cell("\t=1"), "\\t=1");
        assert_eq!(cell("a\nb"), "a\\nb");
        for n in ["-0.5", "+1", "-3", "0.25"] {
            assert_eq!(cell(n), n);
        }
        assert_eq!(cell("team1_bundle1_x"), "team1_bundle1_x");
    }

    #[test]
    fn markdown_escapes_markup_without_entities() {
        assert_eq!(markdown("a|b<script>*x_1"), "a\\|b\\<script\\>\\*x_1");
        assert_eq!(markdown("say \"hi\" & go"), "say \"hi\" \\& go");
        assert_eq!(markdown("_x_ team_1"), "\\_x\\_ team_1");
        assert_eq!(markdown("a\nb\u{1b}"), "a\\\\nb\\\\u{1b}");
        assert_eq!(
            markdown("[x](javascript:alert(1))"),
            "\\[x\\](javascript:alert(1))"
        );
    }

    #[test]
    fn html_as_tera_writes_it() {
        assert_eq!(
            html("<img src=x onerror='a'>&\"/"),
            "&lt;img src=x onerror=&#x27;a&#x27;&gt;&amp;&quot;&#x2F;"
        );
        assert_eq!(html("a\u{1b}b"), "a\\u{1b}b");
    }

    #[test]
    fn document_text_keeps_its_lines() {
        assert_eq!(
            html_text("<b>\r\nx\ty\n\u{1b}&\u{202e}"),
            "&lt;b&gt;\nx\ty\n\\u{1b}&amp;\\u{202e}"
        );
        assert_eq!(html_text("a\n"), "a\n");
    }

    #[test]
    fn latex_specials_and_controls() {
        assert_eq!(latex("a_b&%$#{}~^<>|\\"), "a\\_b\\&\\%\\$\\#\\{\\}\\textasciitilde{}\\textasciicircum{}\\textless{}\\textgreater{}\\textbar{}\\textbackslash{}");
        assert_eq!(latex("a\u{1b}"), "a\\textbackslash{}u\\{1b\\}");
        assert_eq!(latex("漢"), "{[}U+6F22{]}");
        assert_eq!(
            latex("Ħobb ſ é Ł – − [x]"),
            "{[}U+0126{]}obb {[}U+017F{]} é Ł – $-$ {[}x{]}"
        );
    }
}
