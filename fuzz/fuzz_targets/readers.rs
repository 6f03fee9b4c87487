//! Fuzz target: the readers whose numbers come from the input — span files, CoNLL/BIO (read
//! into fair-evaluation units) and weight formulas. The input is split in three at 0xFF bytes;
//! each part goes to one reader. Every input must give a value or a typed error; a value must
//! respect the readers' promises (positions within bounds and ordered, weights finite and
//! non-negative). Property tests of the same entry points: tests/props_readers.rs.
#![no_main]
use fairscore::eval::fair::{corpus_units, ReadOptions};
use fairscore::eval::parse_weights;
use fairscore::formats::{parse_conll, parse_spanfile, Format, MAX_SPAN_POSITION};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == 0xFF);
    let spans = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let bio = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let formula = String::from_utf8_lossy(parts.next().unwrap_or_default());

    if let Ok(c) = parse_spanfile(Path::new("s"), &spans) {
        for a in &c.annotations {
            assert!(a.begin >= 1 && a.begin <= a.end && a.end <= MAX_SPAN_POSITION);
        }
        let _ = corpus_units(&c, &c, &ReadOptions::default());
    }
    if let Ok(c) = parse_conll(Path::new("c"), &bio) {
        let read = ReadOptions { format: Some(Format::Conll), ..ReadOptions::default() };
        if let Ok((units, _)) = corpus_units(&c, &c, &read) {
            for u in &units {
                for s in &u.spans {
                    assert!(s.begin >= 1 && s.begin <= s.end);
                }
            }
        }
    }
    if let Ok(w) = parse_weights(&formula) {
        for (_, x) in &w.entries {
            assert!([x.tp, x.fp, x.fn_].iter().all(|v| v.is_finite() && *v >= 0.0));
        }
    }
});
