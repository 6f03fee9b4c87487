//! The per-document bucket counts of a breakdown on a real HIPE-2022 run, with fairscore's
//! percentile bootstrap interval of every bucket's P, R and F1, written to
//! `$CARGO_TARGET_TMPDIR/breakdown_crosscheck/SAMPLES.json` for
//! `scripts/breakdown_crosscheck.py`, which recomputes the intervals with SciPy's
//! `scipy.stats.bootstrap(method='percentile')` over the same documents. Here: the per-document
//! counts add up to every bucket's counts in the results, and each interval holds its point
//! estimate's neighbourhood (lo <= hi). SAMPLES is 2,000, or `$BREAKDOWN_CROSSCHECK_SAMPLES`.

use fairscore::family::{self, Options};
use fairscore::metrics::Resampler;
use serde_json::{json, Value};

const KEYS: &str = "label,length,chars,sentence_length,density,capitalisation,position,document";
/// The spans family's numbers before the breakdown: TP, FP, FN of four regimes.
const FIXED: usize = 12;

#[test]
fn bucket_counts_per_document_for_the_scipy_crosscheck() {
    let Some(data) = crate::common::shared_data("breakdown_intervals") else {
        return;
    };
    let samples: usize = std::env::var("BREAKDOWN_CROSSCHECK_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let run = h.join("submissions/team4_bundle4_newseye_de_1.tsv");
    let mut o = Options::default();
    o.set("breakdown", KEYS).expect("breakdown");
    let fam = family::build("spans", &o).expect("family");
    let stats = fam.statistics(&gold, &run).expect("statistics");
    let rs = Resampler::new(samples, 2022);
    let res = family::evaluate(fam.as_ref(), &gold, &run, Some(&rs)).expect("evaluate");
    let width = stats.fixed + stats.block * stats.labels.len();
    let units: Vec<&[f64]> = stats.data.chunks_exact(width).collect();
    assert!(units.len() > 10, "documents");
    let mut at = FIXED;
    let mut keys = Vec::new();
    for key in KEYS.split(',') {
        let t = res
            .table(&format!("breakdown:{key}"))
            .unwrap_or_else(|| panic!("table {key}"));
        let col = |n: &str| t.column(n).expect("column");
        let mut buckets = Vec::new();
        for row in &t.rows {
            let counts: Vec<Vec<f64>> = units.iter().map(|u| u[at..at + 4].to_vec()).collect();
            // The documents' counts add up to the bucket's.
            for (i, name) in ["TP-gold", "FN", "TP-run", "FP"].iter().enumerate() {
                let sum: f64 = counts.iter().map(|c| c[i]).sum();
                assert_eq!(Some(sum), row.values[col(name)].as_f64(), "{key} {name}");
            }
            let mut ci = serde_json::Map::new();
            for m in ["P", "R", "F1"] {
                let c = col(m);
                let point = row.values[c].as_f64().expect("value");
                if let Some([lo, hi]) = row.ci[c] {
                    assert!(lo <= hi, "{key} {m}");
                    ci.insert(m.into(), json!({"point": point, "lo": lo, "hi": hi}));
                }
            }
            buckets.push(json!({"bucket": row.key[0], "counts": counts, "ci": ci}));
            at += 4;
        }
        keys.push(json!({"key": key, "buckets": buckets}));
    }
    let out: Value = json!({
        "gold": gold.file_name().map(|x| x.to_string_lossy().into_owned()),
        "run": run.file_name().map(|x| x.to_string_lossy().into_owned()),
        "samples": samples,
        "confidence": rs.confidence,
        "keys": keys,
    });
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("breakdown_crosscheck");
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(format!("{samples}.json"));
    std::fs::write(&path, serde_json::to_string(&out).expect("json")).expect("write");
    println!("breakdown_crosscheck: wrote {}", path.display());
}
