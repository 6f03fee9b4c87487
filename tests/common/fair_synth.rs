//! A large, realistic, deterministic target/system pair for the fair algorithm (shared by
//! `tests/it/families/fair_index.rs` and `benches/fair.rs`, included with `#[path]`).
//!
//! The base is the reference's NER evaluation data (`../shared/data/faireval/ner`: real target
//! spans and a real system's output, about 5,100 sentences) when present, otherwise random
//! NER-like sentences. Each copy of the base fills the tokens between entities with chunk-like
//! spans (dense annotation, as in chunking), adds nested spans (a clause over the whole
//! sentence, a phrase over a chunk: multi-level annotation), and derives the system side by
//! random perturbations that produce every error type: relabelled (LE), shrunk, extended or
//! shifted (BES, BEL, BEO), relabelled and moved (LBE), dropped (FN), spurious (FP), split in
//! two, merged with the next span, discontinuous and duplicated spans. Copy 0 keeps the real
//! system spans of the NER data. Everything is drawn from a fixed-seed generator.
#![allow(dead_code)]

use fairscore::matching::fair::Span;
use std::path::Path;

/// SplitMix64: a small, fixed-seed pseudo-random generator (no dependency).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Sentence units of a target and a system annotation, with each sentence's length in tokens.
pub struct Pair {
    pub target: Vec<Vec<Span>>,
    pub system: Vec<Vec<Span>>,
    pub lens: Vec<usize>,
}

impl Pair {
    pub fn spans(&self) -> (usize, usize) {
        let n = |u: &Vec<Vec<Span>>| u.iter().map(Vec::len).sum();
        (n(&self.target), n(&self.system))
    }
}

/// A span file's sentences (`LABEL<TAB>begin<TAB>end<TAB>tokens`; `NONE`/`EMPTY` left out).
fn read_span_file(path: &Path) -> Option<Vec<Vec<Span>>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut units = vec![Vec::new()];
    for line in text.lines() {
        if line.trim().is_empty() {
            if units.last().is_some_and(|u: &Vec<Span>| !u.is_empty()) {
                units.push(Vec::new());
            }
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 || f[0] == "NONE" || f[0] == "EMPTY" {
            // A dummy span still marks a sentence of its own.
            if units.last().is_some_and(|u| !u.is_empty()) {
                units.push(Vec::new());
            }
            continue;
        }
        let (Ok(b), Ok(e)) = (f[1].trim().parse(), f[2].trim().parse()) else {
            continue;
        };
        let mut sp = Span::new(f[0], b, e);
        if let Some(toks) = f.get(3) {
            let toks: Result<Vec<usize>, _> = toks.split(',').map(|t| t.trim().parse()).collect();
            if let Ok(toks) = toks {
                sp = sp.with_tokens(toks);
            }
        }
        units.last_mut()?.push(sp);
    }
    Some(units)
}

/// The base sentences: (target spans, system spans) per sentence.
fn base(rng: &mut Rng) -> Vec<(Vec<Span>, Vec<Span>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/faireval/ner");
    let read = (
        read_span_file(&dir.join("target_ner_spans.csv")),
        read_span_file(&dir.join("system_ner_spans.csv")),
    );
    if let (Some(t), Some(s)) = read {
        if t.len() == s.len() {
            return t.into_iter().zip(s).collect();
        }
    }
    // No data: NER-like sentences of 5 to 34 tokens with 0 to 3 entities.
    const NE: [&str; 4] = ["PER", "LOC", "ORG", "OTH"];
    (0..5100)
        .map(|_| {
            let len = 5 + rng.below(30);
            let mut t = Vec::new();
            let mut at = 1 + rng.below(4);
            for _ in 0..rng.below(4) {
                let w = rng.below(3);
                if at + w > len {
                    break;
                }
                t.push(Span::new(NE[rng.below(4)], at, at + w));
                at += w + 2 + rng.below(5);
            }
            let s = t.clone();
            (t, s)
        })
        .collect()
}

const CHUNKS: [&str; 5] = ["NX", "VX", "PX", "ADJX", "ADVX"];
const LABELS: [&str; 9] = ["PER", "LOC", "ORG", "OTH", "NX", "VX", "PX", "ADJX", "ADVX"];

fn relabel(rng: &mut Rng, label: &str) -> String {
    loop {
        let l = LABELS[rng.below(LABELS.len())];
        if l != label {
            return l.to_string();
        }
    }
}

fn make(label: &str, b: usize, e: usize, level: usize) -> Span {
    Span::new(label, b, e).at_level(level)
}

/// The system's version of one target span (zero, one or two spans) in a sentence of `len`.
fn perturb(rng: &mut Rng, t: &Span, len: usize, out: &mut Vec<Span>) {
    let (b, e, lv) = (t.begin, t.end, t.level);
    let l = t.label.as_str();
    match rng.below(1000) {
        0..=779 => out.push(t.clone()),
        780..=819 => out.push(make(&relabel(rng, l), b, e, lv)),
        820..=859 if e > b => {
            // BES: one boundary moves inwards.
            if rng.below(2) == 0 {
                out.push(make(l, b + 1, e, lv));
            } else {
                out.push(make(l, b, e - 1, lv));
            }
        }
        820..=889 => {
            // BEL: one boundary moves outwards.
            if b > 1 && rng.below(2) == 0 {
                out.push(make(l, b - 1, e, lv));
            } else if e < len {
                out.push(make(l, b, e + 1, lv));
            } else {
                out.push(t.clone());
            }
        }
        890..=909 if e > b && e < len => out.push(make(l, b + 1, e + 1, lv)),
        890..=934 => {
            // LBE: other label and other range.
            let l2 = relabel(rng, l);
            if e < len {
                out.push(make(&l2, b, e + 1, lv));
            } else if e > b {
                out.push(make(&l2, b + 1, e, lv));
            } else {
                out.push(make(&l2, b, e, lv));
            }
        }
        935..=959 => {} // FN
        960..=969 if e > b => {
            let m = b + (e - b) / 2;
            out.push(make(l, b, m, lv));
            out.push(make(l, m + 1, e, lv));
        }
        960..=979 => {
            out.push(t.clone());
            let fb = 1 + rng.below(len);
            let fe = (fb + rng.below(3)).min(len);
            out.push(make(LABELS[rng.below(LABELS.len())], fb, fe, lv));
        }
        980..=989 if e >= b + 2 => {
            let keep = (b..=e).filter(|&k| k != b + 1);
            out.push(t.clone().with_tokens(keep));
        }
        _ => {
            out.push(t.clone());
            out.push(t.clone());
        }
    }
}

/// `copies` copies of the base (about 21,000 target spans each with the NER data), perturbed
/// with `seed`.
pub fn pair(copies: usize, seed: u64) -> Pair {
    let mut rng = Rng::new(seed);
    let base = base(&mut rng);
    let mut out = Pair {
        target: Vec::new(),
        system: Vec::new(),
        lens: Vec::new(),
    };
    for copy in 0..copies {
        for (bt, bs) in &base {
            let max_end = bt.iter().chain(bs).map(|s| s.end).max().unwrap_or(0);
            let len = max_end.max(4) + rng.below(5);
            // Target: the entities, chunk-like spans over the uncovered tokens, nested spans.
            let mut covered = vec![false; len + 2];
            for s in bt {
                if let Some(run) = covered.get_mut(s.begin..=s.end.min(len)) {
                    run.fill(true);
                }
            }
            let mut target: Vec<Span> = bt.clone();
            let mut k = 1;
            while k <= len {
                if covered[k] {
                    k += 1;
                    continue;
                }
                let mut e = k + rng.below(4);
                while e > k && (e > len || covered[e]) {
                    e -= 1;
                }
                target.push(make(CHUNKS[rng.below(CHUNKS.len())], k, e, 0));
                k = e + 1 + rng.below(2);
            }
            let flat = target.len();
            if rng.below(100) < 15 {
                target.push(make("S", 1, len, 1));
            }
            for i in 0..flat {
                if rng.below(100) < 5 {
                    let c = &target[i];
                    let (b, e) = (c.begin, (c.end + 1 + rng.below(2)).min(len));
                    target.push(make("PX", b, e, 1));
                }
            }
            // A span given twice in a unit is refused by the readers (it would count twice):
            // the nested spans made above may repeat one, so each is kept once.
            unique(&mut target);
            // System: the real system spans in copy 0, perturbations otherwise.
            let mut system = Vec::new();
            let mut i = 0;
            while i < target.len() {
                let t = &target[i];
                let real_ner = copy == 0 && bt.contains(t);
                if real_ner {
                    i += 1;
                    continue;
                }
                if rng.below(100) < 2 && i + 1 < target.len() {
                    // One system span over this and the next target span.
                    let n = &target[i + 1];
                    if n.level == t.level && n.begin > t.end {
                        system.push(make(&t.label, t.begin, n.end, t.level));
                        i += 2;
                        continue;
                    }
                }
                perturb(&mut rng, t, len, &mut system);
                i += 1;
            }
            if copy == 0 {
                system.extend(bs.iter().cloned());
            }
            unique(&mut system);
            out.target.push(target);
            out.system.push(system);
            out.lens.push(len);
        }
    }
    out
}

/// Sorts spans by begin and level and keeps each (label, begin, end) once, whatever its
/// level: a span file has no levels, so two such spans would be one span given twice.
fn unique(spans: &mut Vec<Span>) {
    spans.sort_by_key(|s| (s.begin, s.level));
    let mut seen = std::collections::HashSet::new();
    spans.retain(|s| seen.insert((s.label.clone(), s.begin, s.end)));
}

/// All sentences as one unit: each sentence's positions offset by the lengths before it.
pub fn one_unit(units: &[Vec<Span>], lens: &[usize]) -> Vec<Span> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (u, &len) in units.iter().zip(lens) {
        for s in u {
            let mut m =
                Span::new(s.label.clone(), s.begin + offset, s.end + offset).at_level(s.level);
            if let Some(toks) = &s.tokens {
                m = m.with_tokens(toks.iter().map(|t| t + offset));
            }
            out.push(m);
        }
        offset += len;
    }
    out
}

/// Writes units as a span file (token lists in the last column, blank line after each unit, a
/// `NONE` dummy span in a unit without spans).
pub fn write_span_file(path: &Path, units: &[Vec<Span>]) -> std::io::Result<()> {
    use std::fmt::Write as _;
    let mut text = String::new();
    for u in units {
        if u.is_empty() {
            // The reference's dummy span for a sentence without spans.
            text.push_str("NONE\t999\t999\t999\n");
        }
        for s in u {
            let toks: Vec<String> = match &s.tokens {
                Some(t) => t.iter().map(usize::to_string).collect(),
                None => (s.begin..=s.end).map(|t| t.to_string()).collect(),
            };
            let _ = writeln!(
                text,
                "{}\t{}\t{}\t{}",
                s.label,
                s.begin,
                s.end,
                toks.join(", ")
            );
        }
        text.push('\n');
    }
    std::fs::write(path, text)
}
