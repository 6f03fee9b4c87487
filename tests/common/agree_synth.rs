//! A generated brat project for the `agree` benchmarks (`benches/agree.rs`,
//! `examples/agree_floor.rs`, `scripts/bench.sh` part (g)): `annotators` folders of `docs`
//! documents of `tokens` whitespace tokens each, with an entity about every eighth token
//! (1–3 tokens; PER, LOC, ORG, MISC), every annotator's copy perturbed from one hidden truth
//! (other label 8 %, boundary moved 8 %, left out 5 %, an extra span 3 %). Deterministic: the
//! same project for the same arguments.

use std::fmt::Write as _;
use std::path::Path;

const LABELS: [&str; 4] = ["PER", "LOC", "ORG", "MISC"];
const WORDS: [&str; 12] = [
    "the", "Grenoble", "river", "of", "Anna", "Berg", "bank", "and", "was", "in", "1871", "city",
];

/// A small linear congruential generator (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Writes the project under `dir` (annotators `a1`…); returns its bytes.
pub fn write_project(dir: &Path, annotators: usize, docs: usize, tokens: usize) -> u64 {
    let mut bytes = 0u64;
    for d in 0..docs {
        let mut rng = Rng(d as u64 + 1);
        // The text and its token offsets.
        let mut text = String::new();
        let mut at: Vec<(usize, usize)> = Vec::with_capacity(tokens);
        for t in 0..tokens {
            let w = WORDS[rng.below(WORDS.len() as u64) as usize];
            let start = text.len();
            text.push_str(w);
            at.push((start, text.len()));
            text.push(if t % 17 == 16 { '\n' } else { ' ' });
        }
        // The truth: (first token, last token, label).
        let mut truth: Vec<(usize, usize, usize)> = Vec::new();
        let mut t = 0;
        while t < tokens {
            t += 2 + rng.below(12) as usize;
            let len = 1 + rng.below(3) as usize;
            if t + len <= tokens {
                truth.push((t, t + len - 1, rng.below(4) as usize));
            }
            t += len;
        }
        for a in 0..annotators {
            let folder = dir.join(format!("a{}", a + 1));
            std::fs::create_dir_all(&folder).expect("create the annotator's folder");
            let mut rng = Rng(((d as u64) << 8) + a as u64 + 7);
            let mut ann = String::new();
            let mut n = 0;
            let mut span = |ann: &mut String, b: usize, e: usize, l: usize| {
                // Within its line (every 17th token ends one).
                let e = e.min(b + 16 - b % 17);
                n += 1;
                let (s, end) = (at[b].0, at[e].1);
                let _ = writeln!(ann, "T{n}\t{} {s} {end}\t{}", LABELS[l], &text[s..end]);
            };
            for &(b, e, l) in &truth {
                let r = rng.below(100);
                if r < 5 {
                    continue;
                }
                let l = if r < 13 { (l + 1) % 4 } else { l };
                let e = if (13..21).contains(&r) {
                    (e + 1).min(tokens - 1)
                } else {
                    e
                };
                span(&mut ann, b, e, l);
                if rng.below(100) < 3 {
                    let x = rng.below(tokens as u64) as usize;
                    span(&mut ann, x, x, rng.below(4) as usize);
                }
            }
            let name = format!("doc{d:03}");
            std::fs::write(folder.join(format!("{name}.txt")), &text).expect("write the text");
            std::fs::write(folder.join(format!("{name}.ann")), &ann).expect("write the spans");
            bytes += (text.len() + ann.len()) as u64;
        }
    }
    let conf = "[entities]\nPER\nLOC\nORG\nMISC\n[relations]\n[events]\n[attributes]\n";
    std::fs::write(dir.join("annotation.conf"), conf).expect("write annotation.conf");
    bytes
}
