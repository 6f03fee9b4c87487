//! seqeval's strict-mode schemes: the prefixes each allows and its start, inside and end
//! patterns (seqeval 1.2.2's `scheme.py`), and the strict reading of one sentence.

/// A tagging scheme of the strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `I` inside, `B` only between two chunks of one type.
    Iob1,
    /// `B` begins every chunk.
    Iob2,
    /// `E` only between two chunks of one type.
    Ioe1,
    /// `E` ends every chunk.
    Ioe2,
    /// `B`egin, `I`nside, `E`nd, `S`ingle.
    Iobes,
    /// `B`egin, `I`nside, `L`ast, `U`nit.
    Bilou,
}

impl Scheme {
    /// Every scheme, in seqeval's order.
    pub const ALL: [Scheme; 6] = [
        Scheme::Iob1,
        Scheme::Iob2,
        Scheme::Ioe1,
        Scheme::Ioe2,
        Scheme::Iobes,
        Scheme::Bilou,
    ];

    /// seqeval's class name (`IOB2`, …).
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Iob1 => "IOB1",
            Scheme::Iob2 => "IOB2",
            Scheme::Ioe1 => "IOE1",
            Scheme::Ioe2 => "IOE2",
            Scheme::Iobes => "IOBES",
            Scheme::Bilou => "BILOU",
        }
    }

    /// The scheme of a class name, `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.name() == name)
    }
}

const PREFIXES: &str = "IOBESUL";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cond {
    Same,
    Diff,
    Any,
}

/// (previous prefixes, current prefixes, type condition), prefixes as bits over [`PREFIXES`].
type Pattern = (u8, u8, Cond);

/// A scheme's allowed prefixes and its start, inside and end patterns.
pub(super) struct Patterns {
    allowed: u8,
    /// The allowed prefixes as seqeval's message prints them (`I|O|B`).
    pub(super) allowed_text: &'static str,
    start: Vec<Pattern>,
    inside: Vec<Pattern>,
    end: Vec<Pattern>,
}

pub(super) fn mask(prefixes: &str) -> u8 {
    prefixes
        .chars()
        .filter_map(|c| PREFIXES.find(c))
        .fold(0, |a, k| a | (1u8 << k))
}

pub(super) fn patterns(scheme: Scheme) -> Patterns {
    use Cond::{Any, Diff, Same};
    let all = PREFIXES;
    let p = |v: &[(&str, &str, Cond)]| -> Vec<Pattern> {
        v.iter().map(|&(a, b, c)| (mask(a), mask(b), c)).collect()
    };
    let (allowed, allowed_text, start, inside, end) = match scheme {
        Scheme::Iob1 => (
            "IOB",
            "I|O|B",
            p(&[
                ("O", "I", Any),
                ("I", "I", Diff),
                ("B", "I", Any),
                ("I", "B", Same),
                ("B", "B", Same),
            ]),
            p(&[("B", "I", Same), ("I", "I", Same)]),
            p(&[
                ("I", "I", Diff),
                ("I", "O", Any),
                ("I", "B", Any),
                ("B", "O", Any),
                ("B", "I", Diff),
                ("B", "B", Same),
            ]),
        ),
        Scheme::Ioe1 => (
            "IOE",
            "I|O|E",
            p(&[
                ("O", "I", Any),
                ("I", "I", Diff),
                ("E", "I", Any),
                ("E", "E", Same),
            ]),
            p(&[("I", "I", Same), ("I", "E", Same)]),
            p(&[
                ("I", "I", Diff),
                ("I", "O", Any),
                ("I", "E", Diff),
                ("E", "I", Same),
                ("E", "E", Same),
            ]),
        ),
        Scheme::Iob2 => (
            "IOB",
            "I|O|B",
            p(&[(all, "B", Any)]),
            p(&[("B", "I", Same), ("I", "I", Same)]),
            p(&[
                ("I", "O", Any),
                ("I", "I", Diff),
                ("I", "B", Any),
                ("B", "O", Any),
                ("B", "I", Diff),
                ("B", "B", Any),
            ]),
        ),
        Scheme::Ioe2 => (
            "IOE",
            "I|O|E",
            p(&[
                ("O", "I", Any),
                ("O", "E", Any),
                ("E", "I", Any),
                ("E", "E", Any),
                ("I", "I", Diff),
                ("I", "E", Diff),
            ]),
            p(&[("I", "E", Same), ("I", "I", Same)]),
            p(&[("E", all, Any)]),
        ),
        Scheme::Iobes => (
            "IOBES",
            "I|O|B|E|S",
            p(&[(all, "B", Any), (all, "S", Any)]),
            p(&[
                ("B", "I", Same),
                ("B", "E", Same),
                ("I", "I", Same),
                ("I", "E", Same),
            ]),
            p(&[("S", all, Any), ("E", all, Any)]),
        ),
        Scheme::Bilou => (
            "BILOU",
            "I|O|B|U|L",
            p(&[(all, "B", Any), (all, "U", Any)]),
            p(&[
                ("B", "I", Same),
                ("B", "L", Same),
                ("I", "I", Same),
                ("I", "L", Same),
            ]),
            p(&[("U", all, Any), ("L", all, Any)]),
        ),
    };
    Patterns {
        allowed: mask(allowed),
        allowed_text,
        start,
        inside,
        end,
    }
}

/// A token as the strict mode reads it: prefix bit and type id.
pub(super) type Token = (u8, u32);

fn matches(patterns: &[Pattern], prev: Token, cur: Token) -> bool {
    patterns.iter().any(|&(pp, cp, cond)| {
        prev.0 & pp != 0
            && cur.0 & cp != 0
            && match cond {
                Cond::Any => true,
                Cond::Same => prev.1 == cur.1,
                Cond::Diff => prev.1 != cur.1,
            }
    })
}

/// The strict mode's entities of one sentence: `entity(start, end, type)` for each, `end`
/// exclusive; `Err(j)` at the first token `j` whose prefix the scheme does not allow (the
/// `O` closing the sentence, `j == seq.len()`, is allowed by every scheme).
pub(super) fn sentence(
    seq: &[Token],
    s: &Patterns,
    mut entity: impl FnMut(usize, usize, u32),
) -> Result<(), usize> {
    let outside: Token = (mask("O"), 0);
    let tok = |k: usize| seq.get(k).copied().unwrap_or(outside);
    let n = seq.len() + 1;
    let (mut i, mut prev) = (0usize, outside);
    while i < n {
        let cur = tok(i);
        if cur.0 & s.allowed == 0 {
            return Err(i);
        }
        if matches(&s.start, prev, cur) {
            let mut end = i + 1;
            while end < n && matches(&s.inside, tok(end - 1), tok(end)) {
                end += 1;
            }
            // The closing O is inside no entity, so `end` is a token.
            if matches(&s.end, tok(end - 1), tok(end)) {
                entity(i, end, cur.1);
            }
            i = end;
        } else {
            i += 1;
        }
        prev = tok(i - 1);
    }
    Ok(())
}

/// The bit of a strict-mode prefix, `None` outside `IOBESUL`.
pub(super) fn prefix_bit(p: char) -> Option<u8> {
    PREFIXES.find(p).map(|k| 1u8 << k)
}
