//! Fuzz target: span extraction (IOB entities, NE-bounded and consecutive links) and the
//! official counting on tag sequences built from the input; checks the counting invariants.
#![no_main]
use fairscore::matching::span_count::{count, Scratch};
use fairscore::spans::{entities, links_consecutive, links_ne_bounded, Spans};
use fairscore::corpus::{Corpus, ReadOptions};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;
use std::path::Path;

const TAGS: [&str; 8] = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "_", "E-LOC", "S-PER"];
const LINKS: [&str; 6] = ["_", "Q1", "Q2", "NIL", "Q1|Q2", "Q2||Q1"];

fn file(bytes: &[u8], shift: u8) -> Option<Corpus> {
    let mut text = String::from("TOKEN\tNE\tNEL\n");
    for (i, &b) in bytes.iter().enumerate() {
        let b = b.wrapping_add(shift);
        if b == 255 {
            text.push_str("# segment\n");
            continue;
        }
        text.push_str(&format!(
            "t{}\t{}\t{}\n",
            i % 3,
            TAGS[(b & 7) as usize],
            LINKS[((b >> 3) % 6) as usize]
        ));
    }
    fairscore::formats::hipe::parse(Path::new("f.tsv"), text.as_bytes(), &ReadOptions::default()).ok()
}

fuzz_target!(|data: &[u8]| {
    let half = data.len() / 2;
    let (Some(g), Some(p)) = (file(&data[..half], 0), file(&data[half..half * 2], 0)) else {
        return;
    };
    if g.n_tokens() != p.n_tokens() {
        return;
    }
    let seq: Vec<usize> = (0..g.n_tokens()).collect();
    let tags: BTreeSet<String> = ["PER", "LOC", "Q1", "Q2", "NIL"].iter().map(|s| s.to_string()).collect();
    let (mut gs, mut ps) = (Spans::default(), Spans::default());
    let mut scratch = Scratch::default();
    for mode in 0..3 {
        match mode {
            0 => {
                entities(&g, 1, &seq, &mut gs);
                entities(&p, 1, &seq, &mut ps);
            }
            1 => {
                links_ne_bounded(&g, 2, 1, &seq, 1, true, &mut gs);
                links_ne_bounded(&p, 2, 1, &seq, 3, false, &mut ps);
            }
            _ => {
                links_consecutive(&g, 2, &seq, 1, &mut gs);
                links_consecutive(&p, 2, &seq, 2, &mut ps);
            }
        }
        let u = count(&gs, &ps, &tags, |_, _| true, &mut scratch);
        let n_gold = gs.spans.iter().filter(|s| tags.contains(gs.label(s))).count() as u64;
        let n_pred = ps
            .spans
            .iter()
            .filter(|s| ps.alts(s).iter().any(|a| tags.contains(*a)))
            .count() as u64;
        for (_, c) in u.all.iter() {
            assert_eq!(c.actual(), n_pred);
            assert!(c.possible() >= n_gold);
        }
    }
});
