//! Unit tests of seqeval's reading and counting (python/tests/test_seqeval_dropin.py checks the
//! same against seqeval 1.2.2 itself, and against the Python oracle).

use super::*;

/// Sentences (tags separated by spaces, sentences by `|`) of both sides as ids of one vocabulary.
fn read(t: &str, p: &str) -> (TagIds, Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let split = |s: &str| -> Vec<Vec<String>> {
        s.split('|')
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect()
    };
    let mut ids = TagIds::default();
    let (t, p) = (ids.seqs(&split(t)), ids.seqs(&split(p)));
    (ids, t, p)
}

fn counts(t: &str, p: &str, mode: Mode, suffix: bool) -> Result<Counts, Rejected> {
    let (ids, t, p) = read(t, p);
    let v = Vocab::new(&ids.names, mode, suffix);
    v.counts(t.iter().map(Vec::as_slice), p.iter().map(Vec::as_slice))
}

/// The entities of one side as (type, start, end exclusive).
fn ents(t: &str, mode: Mode) -> Vec<(String, usize, usize)> {
    let (ids, t, _) = read(t, "");
    let v = Vocab::new(&ids.names, mode, false);
    let (e, _) = v
        .entities(t.iter().map(Vec::as_slice), true)
        .expect("entities");
    e.iter()
        .map(|e| (v.type_name(e.ty).to_string(), e.start, e.end))
        .collect()
}

fn e(ty: &str, start: usize, end: usize) -> (String, usize, usize) {
    (ty.to_string(), start, end)
}

#[test]
fn default_mode_counts_each_predicted_entity_for_its_own_type() {
    let c = counts(
        "B-PER I-PER O B-LOC|I-ORG",
        "B-PER I-PER O B-ORG|B-ORG",
        Mode::Default,
        false,
    )
    .unwrap();
    assert_eq!(c.types, ["LOC", "ORG", "PER"]);
    assert_eq!(
        (c.tp, c.pred, c.gold),
        (vec![0, 1, 1], vec![0, 2, 1], vec![1, 1, 1])
    );
    assert!(c.odd.is_empty());
}

#[test]
fn default_mode_chunks_as_conlleval() {
    let d = Mode::Default;
    // I- after O starts a chunk; a type change ends one; offsets count an O after each sentence.
    assert_eq!(
        ents("I-PER I-LOC O|B-LOC", d),
        [e("PER", 0, 1), e("LOC", 1, 2), e("LOC", 4, 5)]
    );
    // E- ends a chunk, S- is one token, whatever the data's scheme.
    assert_eq!(
        ents("B-PER E-PER I-PER S-LOC", d),
        [e("PER", 0, 2), e("PER", 2, 3), e("LOC", 3, 4)]
    );
    // A lone PER is prefix P, type ER; B-PER-X is type PER-X; a bare X starts a chunk nothing closes.
    assert_eq!(ents("PER O B-PER-X", d), [e("ER", 0, 1), e("PER-X", 2, 3)]);
    assert_eq!(ents("X O B-PER", d), [e("PER", 2, 3)]);
}

#[test]
fn default_mode_pairs_entities_sharing_a_start() {
    // `.` neither ends nor starts a chunk by a type change: the PER chunk closed at the O is
    // reopened from its start, so two gold entities start at token 0.
    assert_eq!(
        ents("B-PER O .PER I-PER", Mode::Default),
        [e("PER", 0, 1), e("PER", 0, 4)]
    );
    let c = counts("B-PER O .PER I-PER", "O O .PER B-PER", Mode::Default, false).unwrap();
    assert_eq!((c.tp, c.pred, c.gold), (vec![0], vec![1], vec![2]));
    let c = counts(
        "B-PER O .PER I-PER",
        "B-PER O .PER I-PER",
        Mode::Default,
        false,
    )
    .unwrap();
    assert_eq!(c.tp, [2]);
}

#[test]
fn suffix_tags_and_warnings() {
    let c = counts(
        "PER-B PER-I O|LOC-S",
        "PER-B O O|LOC-S",
        Mode::Default,
        true,
    )
    .unwrap();
    assert_eq!(
        (c.types, c.tp, c.gold),
        (
            vec!["LOC".to_string(), "PER".to_string()],
            vec![1, 0],
            vec![1, 1]
        )
    );
    // Tags seqeval warns about, once each, gold side first.
    let (ids, t, p) = read("X B-PER X", "Y B");
    let v = Vocab::new(&ids.names, Mode::Default, false);
    let c = v
        .counts(t.iter().map(Vec::as_slice), p.iter().map(Vec::as_slice))
        .unwrap();
    let odd: Vec<&str> = c
        .odd
        .iter()
        .map(|&k| ids.names[k as usize].as_str())
        .collect();
    assert_eq!(odd, ["X", "Y"]);
}

#[test]
fn an_empty_tag_is_seqevals_index_error_after_its_warnings() {
    let mut ids = TagIds::default();
    let t = ids.seqs(&[vec!["X", "B-PER"], vec!["O", ""]]);
    let v = Vocab::new(&ids.names, Mode::Default, false);
    let r = v
        .counts(t.iter().map(Vec::as_slice), t.iter().map(Vec::as_slice))
        .unwrap_err();
    assert_eq!((r.gold, r.sentence, r.token), (true, 1, 1));
    assert_eq!(
        (r.rejection.exception(), r.rejection.message().as_str()),
        ("IndexError", "string index out of range")
    );
    let odd: Vec<&str> = r
        .odd
        .iter()
        .map(|&k| ids.names[k as usize].as_str())
        .collect();
    assert_eq!(odd, ["X", ""]);
    let err = Error::from(r);
    assert!(matches!(&err, Error::Input { line: 2, .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("y_true:2: token 2: an empty tag"),
        "{err}"
    );
}

#[test]
fn strict_iob2_drops_an_i_without_b_and_rejects_s() {
    let c = counts(
        "I-PER I-PER O B-LOC",
        "I-PER I-PER O B-LOC",
        Mode::Strict(Scheme::Iob2),
        false,
    )
    .unwrap();
    assert_eq!((c.types, c.gold), (vec!["LOC".to_string()], vec![1]));
    let r = counts("B-PER", "S-PER", Mode::Strict(Scheme::Iob2), false).unwrap_err();
    assert_eq!((r.gold, r.sentence, r.token), (false, 0, 0));
    assert_eq!(
        r.rejection.message(),
        "Invalid token is found: S-PER. Allowed prefixes are: I|O|B."
    );
    let r = counts("XPER", "O", Mode::Strict(Scheme::Iobes), false).unwrap_err();
    assert_eq!(
        (r.rejection.exception(), r.rejection.message()),
        ("KeyError", "X".to_string())
    );
    // Every token of a sentence is read before any is checked against the scheme.
    let r = counts("S-PER X-PER", "O O", Mode::Strict(Scheme::Iob2), false).unwrap_err();
    assert_eq!((r.token, r.rejection), (1, Rejection::UnknownPrefix('X')));
    let r = counts("O", "", Mode::Strict(Scheme::Iob2), false);
    assert!(r.is_ok(), "an empty sentence is no empty tag");
    let mut ids = TagIds::default();
    let t = ids.seqs(&[vec![""]]);
    let v = Vocab::new(&ids.names, Mode::Strict(Scheme::Iob2), true);
    let r = v.entities(t.iter().map(Vec::as_slice), true).unwrap_err();
    assert_eq!(r.rejection, Rejection::EmptyTag);
}

#[test]
fn each_scheme_reads_its_own_tags() {
    let s = |scheme, tags| ents(tags, Mode::Strict(scheme));
    // An I- of another type ends the entity; an I- starts none.
    assert_eq!(
        s(Scheme::Iob2, "B-PER I-PER I-LOC O B-LOC"),
        [e("PER", 0, 2), e("LOC", 4, 5)]
    );
    assert_eq!(
        s(Scheme::Iob1, "I-PER I-PER B-PER O I-LOC"),
        [e("PER", 0, 2), e("PER", 2, 3), e("LOC", 4, 5)]
    );
    assert_eq!(
        s(Scheme::Ioe1, "I-PER E-PER I-PER O"),
        [e("PER", 0, 2), e("PER", 2, 3)]
    );
    assert_eq!(
        s(Scheme::Ioe2, "I-PER E-PER E-LOC I-ORG"),
        [e("PER", 0, 2), e("LOC", 2, 3)]
    );
    assert_eq!(
        s(Scheme::Iobes, "B-PER E-PER S-LOC B-ORG I-ORG"),
        [e("PER", 0, 2), e("LOC", 2, 3)]
    );
    assert_eq!(
        s(Scheme::Bilou, "B-PER L-PER U-LOC|B-ORG L-ORG"),
        [e("PER", 0, 2), e("LOC", 2, 3), e("ORG", 4, 6)]
    );
    // IOB2 data read as IOBES has no entity at all; the type is stripped of dashes.
    assert!(s(Scheme::Iobes, "B-PER I-PER O B-LOC").is_empty());
    assert_eq!(s(Scheme::Iobes, "S--X- S"), [e("X", 0, 1), e("_", 1, 2)]);
    for scheme in Scheme::ALL {
        assert_eq!(Scheme::from_name(scheme.name()), Some(scheme));
    }
    assert_eq!(Scheme::from_name("iob2"), None);
}

#[test]
fn token_counts_follow_performance_measure() {
    let (ids, t, p) = read("B-PER O O B-LOC", "B-PER B-ORG O O");
    let v = Vocab::new(&ids.names, Mode::Default, false);
    let c = v.token_counts(&t.concat(), &p.concat());
    let want = TokenCounts {
        equal: 2,
        tokens: 4,
        tp: 1,
        fp: 1,
        fn_: 1,
        tn: 1,
    };
    assert_eq!(c, want);
}
