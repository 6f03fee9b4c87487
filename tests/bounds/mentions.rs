//! Issue 47.2: one long mention string (a model that never stopped) costs the mentions family
//! memory within a small multiple of the input: the string is not expanded into characters,
//! nor into the fuzzy search's columns, when it cannot fit in its unit's text (it was 807 MB
//! for a 20 MB string under `--align fuzzy`), nor into a list of its positions when the span
//! families score it (spans 151 MB, fair 253 MB before).

use std::io::Write;

use crate::common::temp_dir;

#[cfg(target_os = "linux")]
#[test]
fn one_long_mention_string_costs_memory_within_four_times_the_input() {
    use crate::common::rss::run_measured;
    let dir = temp_dir("bounds_mentions");
    let gold = dir.join("gold.jsonl");
    std::fs::write(
        &gold,
        "{\"id\": \"1\", \"text\": \"Anna went to Paris with Otto.\", \"entities\": [[\"Anna\", \"PER\"], [\"Paris\", \"LOC\"]]}\n",
    )
    .unwrap();
    // 20 MB of one mention, written in pieces (this process stays small: a child's peak
    // includes its parent's at the spawn).
    let run = dir.join("run.jsonl");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&run).unwrap());
        f.write_all(b"{\"id\": \"1\", \"entities\": [[\"Anna\", \"PER\"], [\"")
            .unwrap();
        for _ in 0..(20 << 20) / 12 {
            f.write_all(b"Paris Otto, ").unwrap();
        }
        f.write_all(b"\", \"LOC\"]]}\n").unwrap();
    }
    let input = std::fs::metadata(&gold).unwrap().len() + std::fs::metadata(&run).unwrap().len();
    let (g, p) = (gold.to_str().unwrap(), run.to_str().unwrap());
    for (family, align) in [
        ("mentions", "off"),
        ("mentions", "exact"),
        ("mentions", "fuzzy"),
        // The string placed as a span (no place: written after the text, a false positive).
        ("spans", "fuzzy"),
        ("fair", "fuzzy"),
    ] {
        let args = [
            "evaluate", "--family", family, "--gold", g, "--pred", p, "--align", align,
        ];
        let (code, stderr, rss_kib) = run_measured(&args);
        assert_eq!(code, 0, "{family} {align}: {stderr}");
        let peak = rss_kib as u64 * 1024;
        assert!(
            peak <= 4 * input,
            "{family} --align {align}: peak {} MB for {} MB of input",
            peak >> 20,
            input >> 20
        );
    }
}
