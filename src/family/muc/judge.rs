//! MUC-7 token-by-token judgement: the gold and run entities of one token sequence paired
//! position by position into correct, incorrect, partial, missing and spurious tokens (the
//! vendor guide's Appendix B; see `docs/muc.md`). Counts only: the scores are
//! `eval::muc`'s.
//!
//! Every position inside a gold or a run entity is judged once. Inside both: `correct` when
//! the two types are equal, else `incorrect`. Inside a gold entity only: `partial` when that
//! gold entity overlaps some run entity, else `missing`. Inside a run entity only: `partial`
//! when that run entity overlaps some gold entity, else `spurious`. A judged position counts
//! for the gold type when it has one, else for the run type. Entities with an empty type
//! (a cell such as `_`) are not entities.

use crate::spans::Spans;

/// The judgement of one token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Judgement {
    /// Inside a gold and a run entity of the same type.
    Correct,
    /// Inside a gold and a run entity of different types.
    Incorrect,
    /// Inside an entity of one side only, that entity overlapping one of the other side.
    Partial,
    /// Inside a gold entity that no run entity overlaps.
    Missing,
    /// Inside a run entity that no gold entity overlaps.
    Spurious,
}

impl Judgement {
    /// The lower-case name used in outputs: `correct`, `incorrect`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Correct => "correct",
            Judgement::Incorrect => "incorrect",
            Judgement::Partial => "partial",
            Judgement::Missing => "missing",
            Judgement::Spurious => "spurious",
        }
    }
}

/// Judged tokens by judgement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MucCounts {
    /// Tokens judged `correct`.
    pub correct: u64,
    /// Tokens judged `incorrect`.
    pub incorrect: u64,
    /// Tokens judged `partial`.
    pub partial: u64,
    /// Tokens judged `missing`.
    pub missing: u64,
    /// Tokens judged `spurious`.
    pub spurious: u64,
}

impl MucCounts {
    /// Counts one judged token.
    #[inline]
    pub fn add(&mut self, j: Judgement) {
        match j {
            Judgement::Correct => self.correct += 1,
            Judgement::Incorrect => self.incorrect += 1,
            Judgement::Partial => self.partial += 1,
            Judgement::Missing => self.missing += 1,
            Judgement::Spurious => self.spurious += 1,
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: &MucCounts) {
        self.correct += o.correct;
        self.incorrect += o.incorrect;
        self.partial += o.partial;
        self.missing += o.missing;
        self.spurious += o.spurious;
    }

    /// Possible = correct + incorrect + partial + missing.
    pub fn possible(&self) -> u64 {
        self.correct + self.incorrect + self.partial + self.missing
    }

    /// Actual = correct + incorrect + partial + spurious.
    pub fn actual(&self) -> u64 {
        self.correct + self.incorrect + self.partial + self.spurious
    }

    /// The credited tokens, correct + partial / 2 (the numerator of P and R).
    pub fn credit(&self) -> f64 {
        self.correct as f64 + self.partial as f64 / 2.0
    }
}

/// One judged position of a sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenJudgement<'a> {
    /// Position in the sequence (0-based).
    pub pos: usize,
    /// Type of the gold entity over the position, if any.
    pub gold: Option<&'a str>,
    /// Type of the run entity over the position, if any.
    pub run: Option<&'a str>,
    /// The judgement.
    pub judgement: Judgement,
    /// The index of the gold entity over the position in the gold's spans, if any.
    pub gold_span: Option<usize>,
    /// The index of the run entity over the position in the run's spans, if any.
    pub run_span: Option<usize>,
}

impl<'a> TokenJudgement<'a> {
    /// The type the position counts for: the gold type when there is one, else the run type.
    pub fn counted_type(&self) -> &'a str {
        self.gold.or(self.run).unwrap_or("")
    }
}

/// Reusable buffers of [`judge`].
#[derive(Debug, Default)]
pub struct Scratch {
    gold_at: Vec<u32>,
    run_at: Vec<u32>,
    gold_overlaps: Vec<bool>,
    run_overlaps: Vec<bool>,
}

const NONE: u32 = u32::MAX;

/// Marks, for each position of a sequence of `len`, the index of the entity covering it
/// (`NONE` outside entities and for entities without a type).
fn cover(sp: &Spans<'_>, len: usize, at: &mut Vec<u32>) {
    at.clear();
    at.resize(len, NONE);
    for (i, s) in sp.spans.iter().enumerate() {
        if sp.label(s).is_empty() {
            continue;
        }
        let end = (s.end as usize).min(len.saturating_sub(1));
        for slot in &mut at[s.start as usize..=end] {
            *slot = i as u32;
        }
    }
}

/// Judges every position of a sequence of `len` tokens with gold entities `gold` and run
/// entities `run` (spans over positions `0..len`), calling `f` for each judged position in
/// order.
pub fn judge<'a>(
    gold: &Spans<'a>,
    run: &Spans<'a>,
    len: usize,
    scratch: &mut Scratch,
    mut f: impl FnMut(TokenJudgement<'a>),
) {
    if len == 0 || (gold.spans.is_empty() && run.spans.is_empty()) {
        return;
    }
    let Scratch {
        gold_at,
        run_at,
        gold_overlaps,
        run_overlaps,
    } = scratch;
    cover(gold, len, gold_at);
    cover(run, len, run_at);
    gold_overlaps.clear();
    gold_overlaps.resize(gold.spans.len(), false);
    run_overlaps.clear();
    run_overlaps.resize(run.spans.len(), false);
    for (&g, &r) in gold_at.iter().zip(run_at.iter()) {
        if g != NONE && r != NONE {
            gold_overlaps[g as usize] = true;
            run_overlaps[r as usize] = true;
        }
    }
    for (pos, (&g, &r)) in gold_at.iter().zip(run_at.iter()).enumerate() {
        let gt = (g != NONE).then(|| gold.label(&gold.spans[g as usize]));
        let rt = (r != NONE).then(|| run.label(&run.spans[r as usize]));
        let judgement = match (gt, rt) {
            (None, None) => continue,
            (Some(a), Some(b)) if a == b => Judgement::Correct,
            (Some(_), Some(_)) => Judgement::Incorrect,
            (Some(_), None) if gold_overlaps[g as usize] => Judgement::Partial,
            (Some(_), None) => Judgement::Missing,
            (None, Some(_)) if run_overlaps[r as usize] => Judgement::Partial,
            (None, Some(_)) => Judgement::Spurious,
        };
        f(TokenJudgement {
            pos,
            gold: gt,
            run: rt,
            judgement,
            gold_span: (g != NONE).then_some(g as usize),
            run_span: (r != NONE).then_some(r as usize),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spans::entities;

    /// Judges two tag sequences (one sentence) and returns the judgements with counted types.
    fn run(gold: &[&str], pred: &[&str]) -> Vec<(usize, &'static str, String)> {
        let text = |tags: &[&str]| -> String {
            tags.iter()
                .enumerate()
                .map(|(i, t)| format!("w{i} {t}\n"))
                .collect()
        };
        let p = std::path::Path::new("t");
        let g = crate::formats::conll::parse(p, &text(gold)).unwrap();
        let r = crate::formats::conll::parse(p, &text(pred)).unwrap();
        let seq: Vec<usize> = (0..gold.len()).collect();
        let (mut gs, mut rs) = (Spans::default(), Spans::default());
        entities(&g, 1, &seq, &mut gs);
        entities(&r, 1, &seq, &mut rs);
        let mut out = Vec::new();
        judge(&gs, &rs, gold.len(), &mut Scratch::default(), |t| {
            out.push((t.pos, t.judgement.as_str(), t.counted_type().to_string()))
        });
        out
    }

    #[test]
    fn overlap_decides_partial_and_types_decide_correct() {
        // "Unless Karl Smith": the run's PER runs over "Unless".
        assert_eq!(
            run(
                &["O", "B-PER", "I-PER", "O"],
                &["B-PER", "I-PER", "I-PER", "O"]
            ),
            vec![
                (0, "partial", "PER".to_string()),
                (1, "correct", "PER".to_string()),
                (2, "correct", "PER".to_string()),
            ]
        );
        // "Palo Alto" half found: Alto is partial, not missing; an unmatched entity is missing.
        assert_eq!(
            run(&["B-LOC", "I-LOC", "O", "B-ORG"], &["B-LOC", "O", "O", "O"]),
            vec![
                (0, "correct", "LOC".to_string()),
                (1, "partial", "LOC".to_string()),
                (3, "missing", "ORG".to_string()),
            ]
        );
        // Different types: incorrect (for the gold type); a lone run entity: spurious.
        assert_eq!(
            run(&["B-LOC", "O", "O"], &["B-ORG", "O", "B-PER"]),
            vec![
                (0, "incorrect", "LOC".to_string()),
                (2, "spurious", "PER".to_string()),
            ]
        );
        // Empty-typed cells are not entities.
        assert!(run(&["_", "O"], &["_", "O"]).is_empty());
        let mut c = MucCounts::default();
        for j in [Judgement::Correct, Judgement::Partial, Judgement::Spurious] {
            c.add(j);
        }
        assert_eq!((c.possible(), c.actual(), c.credit()), (2, 3, 1.5));
    }
}
