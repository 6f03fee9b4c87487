//! Tests of the training file's reading: the lean pass against the full reader, the content
//! hash, the tab count.

use super::*;

/// The full reading: the HIPE reader, then the vocabulary and entities of its corpus.
fn full(text: &str, col: &str) -> Train {
    let path = Path::new("train.tsv");
    let opts = ReadOptions {
        columns: Some(vec![col.to_string()]),
        ..ReadOptions::default()
    };
    let c = crate::formats::hipe::parse(path, text.as_bytes(), &opts).expect("parses");
    let k = c.column(col).expect("column");
    super::super::tokens::train(&c, k)
}

fn lean(text: &str, col: &str) -> Option<Train> {
    hipe(Path::new("train.tsv"), text, col).expect("reads")
}

#[test]
fn lean_equals_full_on_edge_cases() {
    let text = "\u{feff}TOKEN\tNE-COARSE-LIT\tMISC\r\n\
        # hipe2022:document_id = a\r\n\
        # segment 1\n\
        New\tb-loc\t_\n\
        York\tI-LOC\n\
        \t\t\n\
        # segment 2\n\
        City\tI-LOC\t_\n\
        x y\tS-per\t_\n\
        Zürich\tB-lôc\tLED0.2\n\
        is\tE-LÔC\t_\n\
        a\t_\t_\n\
        b\t_\t_\n\
        c\tO\t_\n\
        # document_id = b\n\
        Paris\tI-LOC\t_\n\
        # hipe2022:document_id = c\n\
        Rome\tI-LOC\t_\n\
        end\t_\t_\n\
        # segment 3\n\
        # document = d\n\
        more\tI-LOC\n\
        Rome\tB-ORG\t_\n";
    let l = lean(text, "NE-COARSE-LIT").expect("lean pass");
    assert_eq!(l, full(text, "NE-COARSE-LIT"));
    // Entities that end at a document change are counted apart.
    assert_eq!(l.entities.get("Paris"), Some(&vec![("LOC".to_string(), 1)]));
    assert!(l.entities.contains_key("New York City"));
    assert!(l.entities.contains_key("Zürich is"), "{:?}", l.entities);
    assert!(l.vocabulary.contains("x") && l.vocabulary.contains("y"));
    // `_` cells are `O`: no entity of no type (issue 47.3).
    assert!(!l.entities.contains_key("a b") && !l.entities.contains_key("end"));
    // The token column needs no name in first place; a missing column is an error.
    let moved = "NE-COARSE-LIT\tTOKEN\nB-LOC\tBern\nI-LOC\tOst\n";
    assert_eq!(
        lean(moved, "NE-COARSE-LIT"),
        Some(full(moved, "NE-COARSE-LIT"))
    );
    assert!(hipe(Path::new("t"), moved, "NE-FINE-LIT").is_err());
    // A row wider than the header, and a comment header: the lean pass gives up.
    assert_eq!(
        lean("TOKEN\tNE-COARSE-LIT\nA\tO\tx\n", "NE-COARSE-LIT"),
        None
    );
    assert_eq!(lean("# x\tNE-COARSE-LIT\n", "NE-COARSE-LIT"), None);
    assert_eq!(
        lean("TOKEN\tNE-COARSE-LIT\nA\tO\t\n", "NE-COARSE-LIT"),
        None
    );
    let three = "TOKEN\tNE-COARSE-LIT\tMISC\nA\tB-LOC\t\nB\tI-LOC\n";
    assert_eq!(
        lean(three, "NE-COARSE-LIT"),
        Some(full(three, "NE-COARSE-LIT"))
    );
}

#[test]
fn tabs_are_counted_as_one_by_one() {
    let line = "a\tb\t\t\tc\u{9}é\t\u{89}\t\t\t\t\t\t\t\t\t\tx\ty";
    for from in 0..line.len() {
        let b = &line.as_bytes()[from..];
        assert_eq!(tabs(b), b.iter().filter(|&&x| x == b'\t').count(), "{from}");
    }
    assert_eq!(
        tabs(&[0x89, 0x09, 0x08, 0x0a, 0x19, 0x49, 0x09, 0x89, 0x09]),
        3
    );
}

#[test]
fn lean_equals_full_on_shared_golds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/hipe2022/gold");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "../shared is absent but required under CI"
        );
        return;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "tsv") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("utf-8");
        for col in ["NE-COARSE-LIT", "NE-FINE-LIT", "NE-NESTED"] {
            let l = lean(&text, col).expect("lean pass");
            assert_eq!(l, full(&text, col), "{} {col}", p.display());
            n += 1;
            if col == "NE-COARSE-LIT" {
                // Read piece by piece (the files are larger than a piece), format given or
                // told: the hash and the set of the whole text.
                let whole = (short_hash(text.as_bytes()), l);
                for format in [Some(Format::Hipe), None] {
                    let pieces = read(&p, format, Some(col), None).expect("reads");
                    assert_eq!(pieces, whole, "{} {format:?}", p.display());
                }
            }
        }
    }
    assert!(n >= 3, "{n} files read");
}
