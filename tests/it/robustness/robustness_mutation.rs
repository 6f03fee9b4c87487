//! Stable-Rust stand-in for the cargo-fuzz targets in `fuzz/`: a fixed-seed mutation harness
//! over the same entry points (TSV reader, alignment, check, HIPE scoring of every task, fair
//! readers and evaluation, link normalization). Every mutated input must give a value or a
//! typed error: a panic fails the test, naming the seed file and iteration to reproduce it.

use fairscore::check::{check_bytes, CheckOptions};
use fairscore::corpus::{align, ReadOptions};
use fairscore::eval::fair;
use fairscore::eval::FairOptions;
use fairscore::normalize_text;
use fairscore::NormalizeOptions;
use fairscore::{score_files, Edition, ScoreOptions, Task};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const SNIPPETS: [&[u8]; 20] = [
    b"\t",
    b"\n",
    b"\r",
    b"\r\n",
    b"#",
    b"# segment\n",
    b"# hipe2022:document_id = x\n",
    b"# date = 1900-02-30\n",
    b"\xef\xbb\xbf",
    "é".as_bytes(),
    b"|",
    b"||",
    b"-",
    b"B-",
    b"I-",
    b"S-",
    b"E-",
    b"\0",
    b"\xff",
    b"_",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(8) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 | 2 => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                v.splice(at..at, s.iter().copied());
            }
            3 => {
                let end = (at + rng.below(40)).min(v.len());
                v.drain(at..end);
            }
            4 => v.truncate(at),
            5 => {
                // Duplicate or drop a whole line.
                let lines: Vec<&[u8]> = v.split(|&b| b == b'\n').collect();
                let k = rng.below(lines.len());
                let mut out: Vec<&[u8]> = lines.clone();
                if rng.below(2) == 0 {
                    out.insert(k, lines[k]);
                } else {
                    out.remove(k);
                }
                v = out.join(&b'\n');
            }
            6 => {
                // Swap two cells of a line.
                let text = String::from_utf8_lossy(&v).into_owned();
                let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
                let k = rng.below(lines.len());
                let mut cells: Vec<&str> = lines[k].split('\t').collect();
                if cells.len() > 1 {
                    let (a, b) = (rng.below(cells.len()), rng.below(cells.len()));
                    cells.swap(a, b);
                    lines[k] = cells.join("\t");
                }
                v = lines.join("\n").into_bytes();
            }
            _ => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                let end = (at + s.len()).min(v.len());
                v.splice(at..end, s.iter().copied());
            }
        }
    }
    v
}

/// Runs every entry point on one (gold, run) pair.
fn exercise(gold: &[u8], run: &[u8]) {
    let (gp, rp) = (
        Path::new("gold.tsv"),
        Path::new("team_bundle1_ajmc_de_1.tsv"),
    );
    for edition in [Edition::Hipe2020, Edition::Hipe2022] {
        let _ = check_bytes(gp, gold, rp, run, &CheckOptions::new(edition));
    }
    let ro = ReadOptions::default();
    let g = fairscore::formats::hipe::parse(gp, gold, &ro);
    let r = fairscore::formats::hipe::parse(rp, run, &ro);
    if let (Ok(g), Ok(r)) = (&g, &r) {
        let _ = align(g, r);
        for task in [Task::NercCoarse, Task::NercFine, Task::Nel] {
            for edition in [Edition::Hipe2020, Edition::Hipe2022] {
                let mut opts = ScoreOptions::new(task, edition);
                opts.skip_check = true;
                opts.n_best = vec![1, 2];
                opts.noise_levels = vec![(0.0, 0.5)];
                let _ = score_files(g, r, "run.tsv", "run.tsv", &opts);
            }
        }
    }
    let glue = ReadOptions {
        glue: vec![("NE-COARSE-LIT".into(), "NE-NESTED".into())],
        ..ReadOptions::default()
    };
    let _ = fairscore::formats::hipe::parse(rp, run, &glue);
    let text = String::from_utf8_lossy(run);
    let cols = vec!["NE-COARSE-LIT".to_string(), "NE-NESTED".to_string()];
    let _ = fairscore::formats::detect(rp, &text);
    let _ = fairscore::formats::parse_spanfile(rp, &text);
    if let Ok(c) = fairscore::formats::parse_conll(rp, &text) {
        for rule in [fair::Continuation::Conlleval, fair::Continuation::Reference] {
            let ropts = fair::ReadOptions {
                ignore_punct: true,
                continuation: rule,
                ..Default::default()
            };
            let _ = fair::corpus_units(&c, &c, &ropts);
        }
    }
    if let (Ok(gf), Ok(rf)) = (
        fairscore::formats::hipe::parse(gp, gold, &ReadOptions::default()),
        fairscore::formats::hipe::parse(rp, run, &ReadOptions::default()),
    ) {
        if let Ok((t, s)) = fair::hipe_pair_units(&gf, &rf, &cols) {
            let _ = fair::evaluate_units(gp, t, rp, s, &FairOptions::default());
        }
    }
    let mut nopts = NormalizeOptions::for_edition(Edition::Hipe2022);
    nopts.norm_time = true;
    nopts.union_interleave = true;
    let _ = normalize_text(rp, &text, &nopts);
}

#[test]
fn mutated_inputs_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs");
    let gold = std::fs::read(dir.join("gold.tsv")).expect("gold");
    let mut seeds: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("bad_inputs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 30);
    let mut rng = Rng(0x5eed_f00d_1234_5678);
    let iterations = 10000;
    let mut failures = Vec::new();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for i in 0..iterations {
        let seed = &seeds[rng.below(seeds.len())];
        let base = std::fs::read(seed).expect("seed");
        let run = mutate(&mut rng, &base);
        // Sometimes mutate the gold too, or score a file against itself.
        let g = match rng.below(4) {
            0 => mutate(&mut rng, &gold),
            1 => run.clone(),
            _ => gold.clone(),
        };
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| exercise(&g, &run))) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!(
                "iteration {i} (seed file {}): {msg}: gold {:?} run {:?}",
                seed.display(),
                String::from_utf8_lossy(&g),
                String::from_utf8_lossy(&run)
            ));
            if failures.len() >= 3 {
                break;
            }
        }
    }
    std::panic::set_hook(hook);
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
}

/// Inputs the harness or the fuzz targets found to panic, kept as regressions.
#[test]
fn regressions_found_by_fuzzing() {
    let gold =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs/gold.tsv"))
            .expect("gold");
    let cases: &[&[u8]] = &[
        b"",
        b"TOKEN",
        b"TOKEN\n\n\n",
        b"\xef\xbb\xbf",
        b"TOKEN\tNE-COARSE-LIT\nx\n",
        b"TOKEN\tNE-COARSE-LIT\tNEL-LIT\nx\tI-\tQ1||\n",
        b"TOKEN\tNE-COARSE-LIT\tNEL-LIT\nx\t\xc3\xa9\xc3\xa9-\t|\n# segment\n",
        b"TOKEN\tNE-COARSE-LIT\r\r\nx\tB-X\n",
        // check: the tag before an I- tag was sliced at byte 2, inside a multi-byte character.
        "TOKEN\tNE-COARSE-LIT\nx\tB\u{feff}RS\ny\tI-RS\n".as_bytes(),
        "TOKEN\tNE-COARSE-LIT\nx\tI\u{feff}-ORG\ny\tI-ORG\n".as_bytes(),
    ];
    for (i, c) in cases.iter().enumerate() {
        let r = catch_unwind(AssertUnwindSafe(|| {
            exercise(&gold, c);
            exercise(c, c);
            exercise(c, &gold);
        }));
        assert!(
            r.is_ok(),
            "regression case {i} panics: {:?}",
            String::from_utf8_lossy(c)
        );
    }
}

/// Campaign files, QID maps and option values: mutated, they must give a value or a typed
/// error.
#[test]
fn mutated_configs_and_option_values_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(root.join("presets"))
        .expect("presets")
        .flatten()
        .map(|e| std::fs::read(e.path()).expect("preset"))
        .collect();
    seeds.push(b"Main\tAlt1\tAlt2\nQ1\tQ11\tQ12\nQ2\tQ21\t\n".to_vec());
    seeds.push(b"LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN".to_vec());
    seeds.push(b"1900-1950,1950/01/01-2000/12/31".to_vec());
    seeds.push(b"0.0-0.1,0.1-1.0".to_vec());
    seeds.push(b"{team}_bundle{bundle}_{dataset}_{lang}_{run}.tsv".to_vec());
    let mut rng = Rng(0x00c0_ffee_0bad_cafe);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for i in 0..4000 {
        let base = &seeds[rng.below(seeds.len())];
        let bytes = mutate(&mut rng, base);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let r = catch_unwind(AssertUnwindSafe(|| {
            let p = Path::new("x.toml");
            let _ = fairscore::campaign::Campaign::from_toml(&text, p);
            let _ = fairscore::parse_map(p, &text);
            let _ = fair::parse_weights(&text);
            let _ = fairscore::eval::parse_time_periods(&text);
            let _ = fairscore::eval::parse_noise_levels(&text);
            let _ = fairscore::campaign::pattern_pieces(&text);
            let _ = fairscore::campaign::fill_pattern(&text, &[("team", "t"), ("lang", "de")]);
        }));
        if r.is_err() {
            failures.push(format!("iteration {i}: {text:?}"));
            if failures.len() >= 3 {
                break;
            }
        }
    }
    std::panic::set_hook(hook);
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
}
