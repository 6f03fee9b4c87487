//! The bundled example (`reference_runs/`): a hand-made gold and run with every matching
//! scenario (exact match, spurious, missed, same span other type, overlap same type, overlap
//! other type; IOBES tags in the run). Its expected output was worked out by hand from the
//! rules in docs/metrics.md; this test checks fairscore against it byte for byte.

use crate::common::*;
use std::path::Path;

#[test]
fn bundled_example_matches_the_hand_computed_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = temp_dir("reference_runs");
    let o = fairscore(&[
        "score",
        "--ref",
        root.join("reference_runs/HIPE-2022-demo-test-en.tsv")
            .to_str()
            .unwrap(),
        "--pred",
        root.join("reference_runs/demo_bundle4_newseye_en_1.tsv")
            .to_str()
            .unwrap(),
        "--task",
        "nerc_coarse",
        "--hipe_edition",
        "hipe-2022",
        "--outdir",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let name = "demo_bundle4_newseye_en_1_nerc_coarse.tsv";
    let ours = std::fs::read_to_string(out.join(name)).unwrap();
    let expected =
        std::fs::read_to_string(root.join("reference_runs/expected").join(name)).unwrap();
    assert_eq!(ours, expected);
    // The run's IOBES tags are read as IOB and reported.
    assert!(String::from_utf8_lossy(&o.stderr).contains("IOBES tag"));
    // The JSON carries the same counts: 2 fuzzy TP, 1 strict TP overall.
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("demo_bundle4_newseye_en_1_nerc_coarse.json")).unwrap(),
    )
    .unwrap();
    let all = &json["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"];
    assert_eq!(all["ent_type"]["TP"], 2);
    assert_eq!(all["strict"]["TP"], 1);
    assert_eq!(all["partial"]["partial"], 2);
    assert_eq!(all["exact"]["correct"], 2);
}
