//! The bundled example (`reference_runs/`): a hand-made gold and run with every matching
//! scenario (exact match, spurious, missed, same span other type, overlap same type, overlap
//! other type; IOBES tags in the run). Its expected output was worked out by hand from the
//! rules in docs/metrics.md; this test checks fairscore against it byte for byte.

use super::runs::{reference_runs, score, OUTPUT};
use crate::common::*;

#[test]
fn bundled_example_matches_the_hand_computed_output() {
    let out = temp_dir("reference_runs");
    let o = score(&out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let name = format!("{OUTPUT}.tsv");
    let ours = std::fs::read_to_string(out.join(&name)).unwrap();
    let expected = std::fs::read_to_string(reference_runs("expected").join(&name)).unwrap();
    assert_eq!(ours, expected);
    // The run's IOBES tags are read as IOB and reported.
    assert!(String::from_utf8_lossy(&o.stderr).contains("IOBES tag"));
    // The JSON carries the same counts: 2 fuzzy TP, 1 strict TP overall.
    let json = schema::read_json(&out.join(format!("{OUTPUT}.json")));
    let all = &json["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"];
    assert_eq!(all["ent_type"]["TP"], 2);
    assert_eq!(all["strict"]["TP"], 1);
    assert_eq!(all["partial"]["partial"], 2);
    assert_eq!(all["exact"]["correct"], 2);
}
