//! Issue 47.7: a signature names each field once. The mentions family (and a generative run
//! placed on the gold's texts in the span families) has an option `unit`; with `--bootstrap`
//! the resampling's unit is a field of its own, `resample-unit`, so `unit` is never written
//! twice (a parser keeping the first or the last would read one of them wrong).

use crate::common::{fairscore, temp_dir, write_file};

fn fields(sig: &str) -> Vec<(String, String)> {
    sig.trim()
        .split('|')
        .skip(1)
        .map(|f| {
            let (k, v) = f.split_once(':').unwrap_or((f, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn a_signature_names_each_field_once() {
    let dir = temp_dir("signature_fields_once");
    let gold = write_file(
        &dir,
        "gold.jsonl",
        "{\"id\": \"a\", \"text\": \"Anna reads\", \"entities\": [[\"Anna\", \"PER\"]]}\n\
         {\"id\": \"b\", \"text\": \"Paris is\", \"entities\": [[\"Paris\", \"LOC\"]]}\n",
    );
    let run = write_file(
        &dir,
        "run.jsonl",
        "{\"id\": \"a\", \"entities\": [[\"Anna\", \"PER\"]]}\n\
         {\"id\": \"b\", \"entities\": [[\"Paris\", \"PER\"]]}\n",
    );
    // (family, its options, the resampling unit: a generative run placed on the gold's texts
    // is scored document by document).
    for (family, extra, resampled) in [
        ("mentions", vec![], "sentence"),
        ("spans", vec!["--align", "exact"], "document"),
    ] {
        let mut args = vec![
            "evaluate",
            "--family",
            family,
            "--gold",
            &gold,
            "--pred",
            &run,
            "--bootstrap",
            "100",
            "--signature",
        ];
        args.extend(extra);
        let out = fairscore(&args);
        let sig = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(0), "{family}: {sig}");
        let f = fields(&sig);
        let mut names: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "{family}: a field named twice: {sig}");
        let get = |k: &str| f.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("unit"), Some("sentence"), "{family}: {sig}");
        assert_eq!(get("resample-unit"), Some(resampled), "{family}: {sig}");
    }
}
