//! Tag encodings of chunks as seqscore 0.9 reads and writes them (`seqscore/encoding.py`,
//! `seqscore/validation.py`): BIO (IOB2), IOB (IOB1), BIOES (IOBES), BILOU, BMES, BMEOW and
//! IO. A label is `STATE-TYPE` (split at the first `-`) or the outside label `O`.
//!
//! A sentence's labels are validated first (every state must belong to the encoding, every
//! transition, including from the start and to the end of the sentence, must be valid), then
//! decoded into mentions; mentions are encoded back into labels of any encoding. An invalid
//! transition is an error unless a repair is asked for: `conlleval` (BIO: an `I-X` that cannot
//! continue starts a chunk, `B-X`; IOB: a `B-X` that does not follow a chunk of type X is
//! `I-X`) or `discard` (BIO only: such an `I-X` is `O`). seqscore repairs no other encoding.

use std::fmt;

/// The outside label.
pub const OUTSIDE: &str = "O";

/// A chunk encoding, by seqscore's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// BIO (IOB2): every chunk starts with `B-`.
    Bio,
    /// IOB (IOB1): `B-` only where a chunk follows one of the same type.
    Iob,
    /// BIOES (IOBES): `B-`, `I-`, `E-`, single-token chunks `S-`.
    Bioes,
    /// BILOU: BIOES with `L-` for the last token and `U-` for single tokens.
    Bilou,
    /// BMES: BIOES with `M-` inside.
    Bmes,
    /// BMEOW: BMES with `W-` for single tokens.
    Bmeow,
    /// IO: every token of a chunk `I-`; adjacent chunks of one type cannot be told apart.
    Io,
}

/// The repair of invalid transitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repair {
    /// As conlleval reads them: an invalid `I-X` (BIO) begins a chunk; an invalid `B-X` (IOB)
    /// is `I-X`.
    Conlleval,
    /// BIO: an invalid `I-X` is dropped (`O`).
    Discard,
}

impl Repair {
    /// Parses `conlleval` or `discard`.
    pub fn parse(s: &str) -> Option<Repair> {
        match s.to_ascii_lowercase().as_str() {
            "conlleval" => Some(Repair::Conlleval),
            "discard" => Some(Repair::Discard),
            _ => None,
        }
    }

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Repair::Conlleval => "conlleval",
            Repair::Discard => "discard",
        }
    }
}

/// What a state does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    Begin,
    Inside,
    End,
    Single,
    Outside,
}

/// The four ways of reading transitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Io,
    Iob,
    Bio,
    Bioes,
}

/// A mention: tokens `start..end` of a sentence (end exclusive) with its type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mention {
    /// First token.
    pub start: usize,
    /// One past the last token.
    pub end: usize,
    /// The type (`PER`).
    pub label: String,
}

/// A sentence's labels read: its mentions and the labels a repair changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decoded {
    /// The mentions, in order.
    pub mentions: Vec<Mention>,
    /// `(token, label as written, label after repair)` for every label a repair changed.
    pub repairs: Vec<(usize, String, String)>,
}

/// Why a sentence's labels cannot be read: the token and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelError {
    /// The token (0-based in the sentence).
    pub token: usize,
    /// What is wrong.
    pub message: String,
}

impl Encoding {
    /// Every encoding, in seqscore's order.
    pub const ALL: [Encoding; 7] = [
        Encoding::Bio,
        Encoding::Bioes,
        Encoding::Bilou,
        Encoding::Bmes,
        Encoding::Bmeow,
        Encoding::Io,
        Encoding::Iob,
    ];

    /// seqscore's name.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Bio => "BIO",
            Encoding::Iob => "IOB",
            Encoding::Bioes => "BIOES",
            Encoding::Bilou => "BILOU",
            Encoding::Bmes => "BMES",
            Encoding::Bmeow => "BMEOW",
            Encoding::Io => "IO",
        }
    }

    /// An encoding by seqscore's name or a common alias, in any case: IOB2 (BIO), IOB1 (IOB),
    /// IOBES (BIOES), BIOLU (BILOU), BMEWO (BMEOW).
    pub fn parse(s: &str) -> Option<Encoding> {
        let u = s.trim().to_ascii_uppercase();
        let alias = match u.as_str() {
            "IOB2" => "BIO",
            "IOB1" => "IOB",
            "IOBES" => "BIOES",
            "BIOLU" => "BILOU",
            "BMEWO" => "BMEOW",
            other => other,
        };
        Encoding::ALL.into_iter().find(|e| e.name() == alias)
    }

    /// The repairs seqscore defines for this encoding.
    pub fn repairs(self) -> &'static [Repair] {
        match self {
            Encoding::Bio => &[Repair::Conlleval, Repair::Discard],
            Encoding::Iob => &[Repair::Conlleval],
            _ => &[],
        }
    }

    fn kind(self) -> Kind {
        match self {
            Encoding::Io => Kind::Io,
            Encoding::Iob => Kind::Iob,
            Encoding::Bio => Kind::Bio,
            _ => Kind::Bioes,
        }
    }

    /// The prefix of a state in this encoding (`None`: the encoding has no such state).
    fn prefix(self, st: St) -> Option<&'static str> {
        let (inside, end, single) = match self {
            Encoding::Bilou => ("I", "L", "U"),
            Encoding::Bmes => ("M", "E", "S"),
            Encoding::Bmeow => ("M", "E", "W"),
            _ => ("I", "E", "S"),
        };
        let kind = self.kind();
        match st {
            St::Outside => Some(OUTSIDE),
            St::Inside => Some(inside),
            St::Begin if kind != Kind::Io => Some("B"),
            St::End if kind == Kind::Bioes => Some(end),
            St::Single if kind == Kind::Bioes => Some(single),
            _ => None,
        }
    }

    fn state_of(self, prefix: &str) -> Option<St> {
        [St::Begin, St::Inside, St::End, St::Single]
            .into_iter()
            .find(|&s| self.prefix(s) == Some(prefix))
    }

    /// The state and type of a label.
    fn split(self, label: &str) -> Result<(St, Option<&str>), String> {
        match label.split_once('-') {
            None if label == OUTSIDE => Ok((St::Outside, None)),
            None => Err(format!(
                "label {label:?} has no state and type (like B-PER) but is not {OUTSIDE:?}"
            )),
            Some((OUTSIDE, _)) => Err(format!("label {label:?} has a type but is outside")),
            Some((_, "")) => Err(format!("label {label:?} has no type after the '-'")),
            Some((state, ty)) => match self.state_of(state) {
                Some(st) => Ok((st, Some(ty))),
                None => Err(format!(
                    "invalid state {state:?} in label {label:?}: not a state of {self} ({}); \
                     give the encoding of the file with --from",
                    self.states()
                )),
            },
        }
    }

    /// The prefixes of this encoding, for messages.
    fn states(self) -> String {
        [St::Begin, St::Inside, St::End, St::Single, St::Outside]
            .into_iter()
            .filter_map(|s| self.prefix(s))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn valid(self, a: (St, Option<&str>), b: (St, Option<&str>)) -> bool {
        use St::*;
        let same = a.1 == b.1;
        let t = (a.0, b.0);
        match (self.kind(), same) {
            (Kind::Io, true) => matches!(t, (Inside, Inside) | (Outside, Outside)),
            (Kind::Io, false) => {
                matches!(t, (Inside, Inside) | (Outside, Inside) | (Inside, Outside))
            }
            (Kind::Iob, true) => matches!(
                t,
                (Begin, Begin)
                    | (Begin, Inside)
                    | (Inside, Inside)
                    | (Inside, Begin)
                    | (Outside, Outside)
            ),
            (Kind::Iob, false) => matches!(
                t,
                (Begin, Inside)
                    | (Begin, Outside)
                    | (Inside, Inside)
                    | (Inside, Outside)
                    | (Outside, Inside)
            ),
            (Kind::Bio, true) => matches!(
                t,
                (Begin, Inside)
                    | (Begin, Begin)
                    | (Inside, Inside)
                    | (Inside, Begin)
                    | (Outside, Outside)
            ),
            (Kind::Bio, false) => matches!(
                t,
                (Begin, Begin)
                    | (Begin, Outside)
                    | (Inside, Begin)
                    | (Inside, Outside)
                    | (Outside, Begin)
            ),
            (Kind::Bioes, true) => matches!(
                t,
                (Begin, Inside)
                    | (Begin, End)
                    | (Inside, Inside)
                    | (Inside, End)
                    | (End, Begin)
                    | (End, Single)
                    | (Single, Begin)
                    | (Single, Single)
                    | (Outside, Outside)
            ),
            (Kind::Bioes, false) => matches!(
                t,
                (End, Begin)
                    | (End, Outside)
                    | (End, Single)
                    | (Single, Begin)
                    | (Single, Outside)
                    | (Single, Single)
                    | (Outside, Begin)
                    | (Outside, Single)
            ),
        }
    }

    fn join(self, st: St, ty: Option<&str>) -> String {
        let prefix = self.prefix(st).unwrap_or(OUTSIDE);
        match ty {
            Some(t) if st != St::Outside => format!("{prefix}-{t}"),
            _ => OUTSIDE.to_string(),
        }
    }

    /// Reads a sentence's labels: validates them (states, then transitions from the start,
    /// between labels and to the end), repairs invalid transitions with `repair` (an error
    /// without one), and decodes the mentions.
    pub fn read(self, labels: &[&str], repair: Option<Repair>) -> Result<Decoded, LabelError> {
        let mut parsed: Vec<(St, Option<&str>)> = Vec::with_capacity(labels.len());
        for (i, l) in labels.iter().enumerate() {
            let p = self
                .split(l)
                .map_err(|message| LabelError { token: i, message })?;
            parsed.push(p);
        }
        let mut repairs = Vec::new();
        let mut prev = (St::Outside, None);
        for (i, cur) in parsed.iter_mut().enumerate() {
            if !self.valid(prev, *cur) {
                let fixed = match (self.kind(), repair) {
                    (Kind::Bio, Some(Repair::Conlleval)) => (St::Begin, cur.1),
                    (Kind::Bio, Some(Repair::Discard)) => (St::Outside, None),
                    (Kind::Iob, Some(Repair::Conlleval)) if cur.0 == St::Begin => {
                        (St::Inside, cur.1)
                    }
                    _ => {
                        let before = match i {
                            0 => "the start of the sentence".to_string(),
                            _ => format!("{:?}", labels[i - 1]),
                        };
                        let how = match self.repairs() {
                            [] => String::new(),
                            r => format!(
                                "; --repair {} reads it as seqscore's repair does",
                                r.iter().map(|r| r.name()).collect::<Vec<_>>().join("|")
                            ),
                        };
                        return Err(LabelError {
                            token: i,
                            message: format!(
                                "invalid {self} transition from {before} to {:?}{how}",
                                labels[i]
                            ),
                        });
                    }
                };
                repairs.push((i, labels[i].to_string(), self.join(fixed.0, fixed.1)));
                *cur = fixed;
            }
            prev = *cur;
        }
        if !self.valid(prev, (St::Outside, None)) {
            let last = labels.len().saturating_sub(1);
            return Err(LabelError {
                token: last,
                message: format!(
                    "invalid {self} transition from {:?} to the end of the sentence (a chunk \
                     left open)",
                    labels.get(last).copied().unwrap_or("")
                ),
            });
        }
        Ok(Decoded {
            mentions: self.decode(&parsed),
            repairs,
        })
    }

    /// Mentions of valid parsed labels (never fails: a label that could not follow is read
    /// as starting a chunk).
    fn decode(self, parsed: &[(St, Option<&str>)]) -> Vec<Mention> {
        let mut out = Vec::new();
        let mut open: Option<(usize, &str)> = None;
        let close = |open: &mut Option<(usize, &str)>, end: usize, out: &mut Vec<Mention>| {
            if let Some((start, ty)) = open.take() {
                out.push(Mention {
                    start,
                    end,
                    label: ty.to_string(),
                });
            }
        };
        for (i, &(st, ty)) in parsed.iter().enumerate() {
            let ty = ty.unwrap_or("");
            let continues = matches!(open, Some((_, t)) if t == ty);
            match (self.kind(), st) {
                (_, St::Outside) => close(&mut open, i, &mut out),
                (Kind::Io | Kind::Iob, St::Inside) | (Kind::Bio | Kind::Bioes, St::Inside)
                    if continues => {}
                (Kind::Bioes, St::End) if continues => close(&mut open, i + 1, &mut out),
                (Kind::Bioes, St::Single | St::End) => {
                    close(&mut open, i, &mut out);
                    open = Some((i, ty));
                    close(&mut open, i + 1, &mut out);
                }
                _ => {
                    close(&mut open, i, &mut out);
                    open = Some((i, ty));
                }
            }
        }
        close(&mut open, parsed.len(), &mut out);
        out
    }

    /// The labels of `n` tokens holding `mentions` (in order, not overlapping, within `n`), as
    /// seqscore encodes them.
    pub fn encode(self, mentions: &[Mention], n: usize) -> Vec<String> {
        let mut out = vec![OUTSIDE.to_string(); n];
        let mut last: Option<(usize, &str)> = None;
        for m in mentions {
            let (a, b) = (m.start.min(n), m.end.min(n));
            if a >= b {
                continue;
            }
            let ty = Some(m.label.as_str());
            let first = match self.kind() {
                Kind::Io => St::Inside,
                Kind::Iob if last == Some((a, m.label.as_str())) => St::Begin,
                Kind::Iob => St::Inside,
                Kind::Bio => St::Begin,
                Kind::Bioes if b - a == 1 => St::Single,
                Kind::Bioes => St::Begin,
            };
            out[a] = self.join(first, ty);
            for (i, slot) in out.iter_mut().enumerate().take(b).skip(a + 1) {
                let st = if self.kind() == Kind::Bioes && i + 1 == b {
                    St::End
                } else {
                    St::Inside
                };
                *slot = self.join(st, ty);
            }
            last = Some((b, m.label.as_str()));
        }
        out
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
#[path = "encoding_tests.rs"]
mod tests;
