use super::*;

fn m(start: usize, end: usize, label: &str) -> Mention {
    Mention {
        start,
        end,
        label: label.into(),
    }
}

fn labels(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

fn enc(e: Encoding, ms: &[Mention], n: usize) -> String {
    e.encode(ms, n).join(" ")
}

#[test]
fn names_and_aliases() {
    assert_eq!(Encoding::parse("iob2"), Some(Encoding::Bio));
    assert_eq!(Encoding::parse("IOB1"), Some(Encoding::Iob));
    assert_eq!(Encoding::parse("IOB"), Some(Encoding::Iob));
    assert_eq!(Encoding::parse("iobes"), Some(Encoding::Bioes));
    assert_eq!(Encoding::parse("BMEWO"), Some(Encoding::Bmeow));
    assert_eq!(Encoding::parse("BIOE"), None);
    for e in Encoding::ALL {
        assert_eq!(Encoding::parse(e.name()), Some(e));
    }
}

#[test]
fn every_encoding_writes_its_own_prefixes() {
    let ms = [m(0, 1, "PER"), m(1, 3, "PER"), m(4, 7, "LOC")];
    assert_eq!(
        enc(Encoding::Bio, &ms, 8),
        "B-PER B-PER I-PER O B-LOC I-LOC I-LOC O"
    );
    assert_eq!(
        enc(Encoding::Iob, &ms, 8),
        "I-PER B-PER I-PER O I-LOC I-LOC I-LOC O"
    );
    assert_eq!(
        enc(Encoding::Bioes, &ms, 8),
        "S-PER B-PER E-PER O B-LOC I-LOC E-LOC O"
    );
    assert_eq!(
        enc(Encoding::Bilou, &ms, 8),
        "U-PER B-PER L-PER O B-LOC I-LOC L-LOC O"
    );
    assert_eq!(
        enc(Encoding::Bmes, &ms, 8),
        "S-PER B-PER E-PER O B-LOC M-LOC E-LOC O"
    );
    assert_eq!(
        enc(Encoding::Bmeow, &ms, 8),
        "W-PER B-PER E-PER O B-LOC M-LOC E-LOC O"
    );
    assert_eq!(
        enc(Encoding::Io, &ms, 8),
        "I-PER I-PER I-PER O I-LOC I-LOC I-LOC O"
    );
}

#[test]
fn reading_back_what_was_written_gives_the_mentions() {
    // A small deterministic generator: every layout of chunks over 6 tokens with 2 types.
    for code in 0..3usize.pow(6) {
        let mut ms = Vec::new();
        let mut c = code;
        let mut i = 0;
        while i < 6 {
            let len = 1 + c % 2;
            let kind = (c / 2) % 3;
            c /= 3;
            if kind > 0 && i + len <= 6 {
                ms.push(m(i, i + len, if kind == 1 { "A" } else { "B" }));
            }
            i += len;
        }
        for e in Encoding::ALL {
            let written = e.encode(&ms, 6);
            let refs: Vec<&str> = written.iter().map(String::as_str).collect();
            let back = e.read(&refs, None).expect("valid").mentions;
            if e == Encoding::Io {
                // IO joins adjacent chunks of one type: writing again gives the same labels.
                assert_eq!(e.encode(&back, 6), written);
            } else {
                assert_eq!(back, ms, "{e}: {written:?}");
            }
        }
    }
}

#[test]
fn invalid_transitions_are_errors_naming_the_token() {
    let e = Encoding::Bio.read(&labels("O I-PER O"), None).unwrap_err();
    assert_eq!(e.token, 1);
    assert!(
        e.message.contains("--repair conlleval|discard"),
        "{}",
        e.message
    );
    let e = Encoding::Bioes
        .read(&labels("B-PER I-PER"), None)
        .unwrap_err();
    assert_eq!(e.token, 1);
    assert!(e.message.contains("end of the sentence"));
    let e = Encoding::Bio.read(&labels("O E-PER"), None).unwrap_err();
    assert!(e.message.contains("invalid state \"E\""), "{}", e.message);
    for bad in ["PER", "O-PER", "B-", ""] {
        assert!(Encoding::Bio.read(&[bad], None).is_err(), "{bad}");
    }
    // Even with a repair, a state the encoding lacks is an error.
    assert!(Encoding::Bio
        .read(&labels("S-PER"), Some(Repair::Conlleval))
        .is_err());
}

#[test]
fn repairs_as_seqscore() {
    let r = Encoding::Bio
        .read(
            &labels("O I-PER I-PER B-LOC I-ORG"),
            Some(Repair::Conlleval),
        )
        .unwrap();
    assert_eq!(
        r.mentions,
        vec![m(1, 3, "PER"), m(3, 4, "LOC"), m(4, 5, "ORG")]
    );
    assert_eq!(
        r.repairs,
        vec![
            (1, "I-PER".into(), "B-PER".into()),
            (4, "I-ORG".into(), "B-ORG".into())
        ]
    );
    // discard drops the invalid I- and every I- that would have continued it.
    let r = Encoding::Bio
        .read(&labels("O I-PER I-PER B-LOC I-ORG"), Some(Repair::Discard))
        .unwrap();
    assert_eq!(r.mentions, vec![m(3, 4, "LOC")]);
    assert_eq!(r.repairs.len(), 3);
    // IOB: a B- that follows no chunk of its type is I-.
    let r = Encoding::Iob
        .read(&labels("B-PER I-PER B-LOC B-LOC"), Some(Repair::Conlleval))
        .unwrap();
    assert_eq!(
        r.mentions,
        vec![m(0, 2, "PER"), m(2, 3, "LOC"), m(3, 4, "LOC")]
    );
    assert_eq!(
        r.repairs.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![0, 2]
    );
    assert!(Encoding::Bioes.repairs().is_empty());
}
