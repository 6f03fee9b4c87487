//! Tests of the HIPE reader: documents and segments, errors, short rows, wanted columns,
//! the column limit, LED parsing.

use super::*;

fn parse(s: &str) -> Result<Corpus> {
    super::parse(Path::new("t.tsv"), s.as_bytes(), &ReadOptions::default())
}

#[test]
fn reads_documents_segments_and_upper_cases() {
    let f = parse(
        "\u{feff}TOKEN\tNE-COARSE-LIT\tMISC\r\n# document_id = d1\r\n# date = 1900-02-03\r\nA\tb-pers\tLED0.25\r\nb\tE-pers\t_\r\n# segment\r\nc\tO\r\n# document_id = d2\r\nd\tS-loc\t_\r\n",
    )
    .unwrap();
    assert_eq!(f.columns, vec!["TOKEN", "NE-COARSE-LIT", "MISC"]);
    assert_eq!(f.docs.len(), 2);
    assert_eq!(f.docs[0].segments, vec![2, 1]);
    assert_eq!(f.docs[0].id.as_deref(), Some("d1"));
    assert_eq!(f.docs[1].id.as_deref(), Some("d2"));
    assert_eq!(f.cell(0, 1), "B-PERS");
    assert_eq!(f.cell(1, 1), "I-PERS");
    assert_eq!(f.cell(3, 1), "B-LOC");
    assert_eq!(f.token_text(1), "b");
    assert_eq!(f.cell(2, 2), "_");
    assert_eq!(f.led(0), Some(0.25));
    assert_eq!(f.led(1), None);
    assert_eq!(
        f.date(0),
        Some(Date {
            year: 1900,
            month: 2,
            day: 3
        })
    );
}

#[test]
fn document_marker_without_tokens_does_not_split() {
    let f = parse("TOKEN\tX\n# document_id = a\n# document_id = b\nx\tO\n# segment\n# document_id = c\ny\tO\n").unwrap();
    // `# segment` closes the segment, so the following document marker finds no tokens in
    // the current segment and does not start a document (as the official reader).
    assert_eq!(f.docs.len(), 1);
    assert_eq!(f.docs[0].segments, vec![1, 1]);
}

#[test]
fn errors_name_the_line() {
    let e = parse("TOKEN\tA\nx\tO\ty\n").unwrap_err();
    assert!(e.to_string().starts_with("t.tsv:2:"), "{e}");
    let e = parse("").unwrap_err();
    assert!(e.to_string().contains("header"), "{e}");
    let e = super::parse(
        Path::new("t.tsv"),
        b"TOKEN\n\xff\n",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("t.tsv:2:"), "{e}");
}

#[test]
fn short_rows_read_as_underscores() {
    let f = parse("TOKEN\tA\tB\tC\nx\to\ny\n").unwrap();
    assert_eq!(f.cells.stride(), 4);
    assert_eq!((f.cell(0, 1), f.cell(0, 2), f.cell(0, 3)), ("O", "_", "_"));
    assert_eq!((f.token_text(1), f.cell(1, 1)), ("y", "_"));
    assert_eq!(f.notices[0].kind, crate::corpus::NoticeKind::MissingCells);
    assert_eq!(f.notices[0].count, 2);
}

#[test]
fn only_the_wanted_columns_are_stored() {
    let opts = ReadOptions {
        columns: Some(vec!["C".into()]),
        ..ReadOptions::default()
    };
    let text = "A\tTOKEN\tNE-B\tC\nb-x\tw\tS-loc\tc\nq\tv\n";
    let f = super::parse(Path::new("t.tsv"), text.as_bytes(), &opts).unwrap();
    assert_eq!(f.columns, vec!["A", "TOKEN", "NE-B", "C"]);
    // TOKEN and C of every row (the second row's C is missing: stored as `_`).
    assert_eq!(f.cells.stride(), 2);
    assert_eq!(
        (f.token_text(0), f.cell(0, 3), f.cell(0, 0)),
        ("w", "C", "_")
    );
    assert!(f.is_kept(1) && f.is_kept(3) && !f.is_kept(0) && !f.is_kept(2));
    assert_eq!((f.token_text(1), f.cell(1, 3)), ("v", "_"));
    // Columns not stored are still looked at for the notices score repeats.
    assert!(f
        .notices
        .iter()
        .any(|n| n.kind == crate::corpus::NoticeKind::Iobes));
}

#[test]
fn a_header_beyond_the_column_limit_is_refused() {
    let header = vec!["C"; MAX_COLUMNS + 1].join("\t");
    let e = parse(&format!("TOKEN\t{header}\nx\n")).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with("t.tsv:1:") && msg.contains("at most 1000"),
        "{msg}"
    );
    let header = vec!["C"; MAX_COLUMNS - 1].join("\t");
    assert!(parse(&format!("TOKEN\t{header}\nx\n")).is_ok());
}

#[test]
fn led_parsing_follows_the_official_regex() {
    assert_eq!(parse_led("NoSpaceAfter|LED0.00"), Some(0.0));
    assert_eq!(parse_led("LED12"), Some(12.0));
    assert_eq!(parse_led("LED1."), Some(1.0));
    assert_eq!(parse_led("LEDx|LED0.5"), Some(0.5));
    assert_eq!(parse_led("_"), None);
}

#[test]
fn noise_levels_and_dates_are_kept_beside_the_tokens() {
    let f = parse(
        "TOKEN\tMISC\na\t_\n# date = 1900-02-03\n# date = 1901-01-01\nb\t_\nc\tLED0.5\n# date = 1902-03-04\nd\t_\n",
    )
    .unwrap();
    let leds: Vec<_> = (0..4).map(|t| f.led(t)).collect();
    assert_eq!(leds, vec![None, None, Some(0.5), None]);
    let years: Vec<_> = (0..4).map(|t| f.date(t).map(|d| d.year)).collect();
    assert_eq!(years, vec![None, Some(1901), Some(1901), Some(1902)]);
    let g = parse("TOKEN\tMISC\na\t_\n").unwrap();
    assert!(g.leds.is_empty() && g.dates.is_empty());
    assert_eq!((g.led(0), g.date(0)), (None, None));
}

/// Sentence ends are the tokens whose MISC cell holds `EndOfSentence` among its flags, in any
/// case, whether or not the MISC column is kept; each agrees with the kept cell upper-cased.
#[test]
fn sentence_ends_are_read_from_misc_kept_or_not() {
    let text = "TOKEN\tNE-COARSE-LIT\tMISC\na\tO\tNoSpaceAfter|EndOfSentence\nb\tO\t_\n\
        c\tO\tendofsentence\nd\tO\tEndOfSentenceX|LED0.1\ne\tO\nf\tO\tEndOfLine|EndOfSentence\n\
        g\tO\tEndOfSentence\nh\tO\tEndOfſentence\ni\tO\tEnd\n";
    let all = parse(text).unwrap();
    assert_eq!(all.sentence_ends(), &[0, 2, 5, 6, 7]);
    let misc = all.column("MISC").unwrap();
    for t in 0..all.n_tokens() {
        let kept = all
            .cell(t, misc)
            .split('|')
            .any(|x| x.eq_ignore_ascii_case("EndOfSentence"));
        assert_eq!(kept, all.sentence_ends().contains(&(t as u32)), "token {t}");
    }
    let opts = ReadOptions {
        columns: Some(vec!["NE-COARSE-LIT".to_string()]),
        ..ReadOptions::default()
    };
    let some = super::parse(Path::new("t.tsv"), text.as_bytes(), &opts).unwrap();
    assert!(!some.is_kept(misc));
    assert_eq!(some.sentence_ends(), all.sentence_ends());
    assert!(parse("TOKEN\tNE-COARSE-LIT\na\tO\n")
        .unwrap()
        .sentence_ends()
        .is_empty());
}

/// A file read piece by piece (`read`) gives the corpus the whole text gives (`parse`):
/// lines cut at piece ends, a line longer than a piece, CRLF, BOM, no final line end.
#[test]
fn reading_in_pieces_equals_parsing_the_whole_text() {
    let dir = std::env::temp_dir().join(format!("fairscore-pieces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text =
        String::from("\u{feff}TOKEN\tNE-COARSE-LIT\tMISC\r\n# hipe2022:document_id = a\n");
    let long = "é".repeat(crate::io::PIECE);
    for i in 0..60_000 {
        match i % 7 {
            0 => text.push_str("# hipe2022:segment_iiif_link = _\n"),
            3 => text.push_str(&format!("w{i}\tb-loc\tLED0.{i}\r\n")),
            _ => text.push_str(&format!("w{i}\tO\t_\n")),
        }
        if i == 30_000 {
            text.push_str(&format!("{long}\tI-LOC\t_\n"));
        }
    }
    text.push_str("last\tO");
    let path = dir.join("t.tsv");
    std::fs::write(&path, &text).unwrap();
    let opts = ReadOptions::default();
    let a = read(&path, &opts).unwrap();
    let b = super::parse(&path, text.as_bytes(), &opts).unwrap();
    assert_eq!(a.n_tokens(), b.n_tokens());
    assert!(a.n_tokens() > 50_000);
    for t in 0..a.n_tokens() {
        assert_eq!(a.line(t), b.line(t));
        for c in 0..3 {
            assert_eq!(a.cell(t, c), b.cell(t, c), "token {t} column {c}");
        }
        assert_eq!(a.led(t), b.led(t));
    }
    assert_eq!(a.token_text(a.n_tokens() - 1), "last");
    assert!(a.cells.text_len() > crate::io::PIECE);
    assert_eq!(a.notices, b.notices);
    assert_eq!(a.docs.len(), b.docs.len());
    // Invalid UTF-8 in a later piece names its line and file offset.
    let mut bytes = text.into_bytes();
    let at = bytes.len() - 2;
    bytes[at] = 0xff;
    std::fs::write(&path, &bytes).unwrap();
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let e = read(&path, &opts).unwrap_err().to_string();
    assert!(
        e.contains(&format!(":{line}:")) && e.contains(&format!("byte offset {at}")),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
