//! Issue 33, class 11 (memory and time bounded by the input): a regular file over the input
//! size cap is refused from its metadata, before a byte is read. A sparse file of 3 GB costs
//! no disk and no time to make; before the check every reader read up to 2 GiB of its zeros
//! (the whole-file readers into one buffer: 2 GB of memory) before refusing it.

use crate::common::temp_dir;
use std::path::Path;

use crate::common::rss;
#[cfg(target_os = "linux")]
use rss::run_measured;

fn sparse(path: &Path, len: u64) {
    let f = std::fs::File::create(path).expect("create");
    f.set_len(len).expect("set_len (a sparse file)");
}

#[cfg(target_os = "linux")]
#[test]
fn a_sparse_file_over_the_cap_is_refused_before_reading() {
    let dir = temp_dir("bounds_input");
    let huge = dir.join("huge.tsv");
    sparse(&huge, 3 << 30);
    let small = dir.join("small.tsv");
    std::fs::write(&small, "TOKEN\tNE-COARSE-LIT\nParis\tB-loc\n").unwrap();
    let huge_ann = dir.join("huge.ann");
    std::fs::write(&huge_ann, "T1\tPER 0 5\tParis\n").unwrap();
    sparse(&dir.join("huge.txt"), 3 << 30);
    let small_ann = dir.join("small.ann");
    std::fs::write(&small_ann, "T1\tPER 0 5\tParis\n").unwrap();
    std::fs::write(dir.join("small.txt"), "Paris\n").unwrap();
    let (h, s) = (huge.to_str().unwrap(), small.to_str().unwrap());
    let (ha, sa) = (huge_ann.to_str().unwrap(), small_ann.to_str().unwrap());
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        // The HIPE reader (read in pieces) on the gold side.
        (
            "score",
            vec![
                "score",
                "--ref",
                h,
                "--pred",
                s,
                "--task",
                "nerc_coarse",
                "--hipe_edition",
                "hipe-2022",
                "--outdir",
                o,
                "--skip-check",
            ],
            "huge.tsv",
        ),
        // Whole-file readers: span files, CoNLL, plain text, brat's text file.
        (
            "evaluate spans",
            vec![
                "evaluate", "--family", "spans", "--gold", s, "--pred", h, "--format", "conll",
            ],
            "huge.tsv",
        ),
        (
            "segmentation",
            vec!["segmentation", "--gold", h, "--pred", s],
            "huge.tsv",
        ),
        (
            "agree",
            vec!["agree", "--annotator", sa, "--annotator", ha],
            "huge.txt",
        ),
        ("check", vec!["check", "--gold", s, "--pred", h], "huge.tsv"),
    ];
    for (what, args, file) in cases {
        let (code, stderr, rss_kib) = run_measured(&args);
        assert_eq!(code, 3, "{what}: an input error, got {code}: {stderr}");
        assert!(
            stderr.contains(file) && stderr.contains("too large") && stderr.contains("2 GiB"),
            "{what}: the error names the file and the cap: {stderr}"
        );
        // Nothing read: the process's own few MiB, not the file.
        assert!(
            rss_kib < 100 * 1024,
            "{what}: peak RSS {rss_kib} KiB refusing a sparse 3 GB file (nothing should be read)"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file whose metadata gives no length (a pipe) is still capped while it is read: the
/// guard's second line. Here only a small pipe: it is read whole, as before.
#[cfg(target_os = "linux")]
#[test]
fn a_pipe_is_still_read() {
    let dir = temp_dir("bounds_input_pipe");
    let gold = dir.join("gold.txt");
    std::fs::write(&gold, "ab cd\n").unwrap();
    let g = gold.to_str().unwrap();
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'ab cd\\n' | {} segmentation --gold {g} --pred /dev/stdin",
            env!("CARGO_BIN_EXE_fairscore")
        ))
        .output()
        .expect("sh");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
