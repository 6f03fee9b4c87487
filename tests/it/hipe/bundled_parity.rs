//! Real byte-for-byte parity on a fresh clone: two HIPE-2022 runs bundled in
//! `tests/data/hipe2022-ajmc-en/` (an attributed sample; see its README) are scored as the
//! official scorer v2.0 scored them, and every output file equals the official one byte for
//! byte. This test needs no `../shared`.

use crate::common::{fairscore, temp_dir};
use std::path::Path;

#[test]
fn bundled_hipe2022_runs_reproduce_the_official_outputs_byte_for_byte() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hipe2022-ajmc-en");
    let gold = data.join("HIPE-2022-v2.1-ajmc-test-en.tsv");
    let tagset = data.join("tagset-hipe2022-all.txt");
    let out = temp_dir("bundled_parity");
    let cases = [
        ("team2_bundle1_ajmc_en_1", "nerc_coarse"),
        ("team2_bundle1_ajmc_en_1", "nerc_fine"),
        ("team2_bundle1_ajmc_en_1", "nel"),
        ("neurbsl_bundle3_ajmc_en_1", "nerc_coarse"),
        ("neurbsl_bundle3_ajmc_en_1", "nerc_fine"),
    ];
    let mut compared = 0;
    for (run, task) in cases {
        let o = fairscore(&[
            "score",
            "--ref",
            &gold.display().to_string(),
            "--pred",
            &data.join(format!("{run}.tsv")).display().to_string(),
            "--task",
            task,
            "--tagset",
            &tagset.display().to_string(),
            "--hipe_edition",
            "hipe-2022",
            "--outdir",
            &out.display().to_string(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{run} {task}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        for ext in ["tsv", "json"] {
            let name = format!("{run}_{task}.{ext}");
            let ours = std::fs::read(out.join(&name)).unwrap();
            let official = std::fs::read(data.join("official").join(&name)).unwrap();
            assert!(ours == official, "{name} differs from the official output");
            compared += 1;
        }
    }
    assert_eq!(compared, 10);
}
