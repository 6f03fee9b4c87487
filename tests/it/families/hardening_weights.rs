//! Issue 26, class 1: sums and products of weights must not overflow. Scaling every weight
//! alike leaves every score unchanged, and no output holds a non-finite number; where a
//! weighted count itself cannot be finite, the weights are refused with a usage error.

use std::path::Path;

use fairscore::family::Tagset;

const GOLD: &str = "to\tsubst:sg:nom\njest\tfin:sg:ter\n";
const PRED: &str = "to\tsubst:pl:nom\njest\tfin:sg:ter\n";

/// A tag set file (checked to parse) with the part of speech weighing `pos` and every
/// category `rest`; returns its path.
fn tagset_with_weights(pos: &str, rest: &str) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let text = format!(
        "[categories]\nnumber = [\"sg\", \"pl\"]\ncase = [\"nom\", \"gen\"]\nperson = [\"ter\"]\n\
         [weights]\npos = {pos}\nnumber = {rest}\ncase = {rest}\nperson = {rest}\n"
    );
    Tagset::parse(Path::new("t.toml"), &text).expect("tagset");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening_weights_tagsets");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "t{}-{}.toml",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// F1 of the tagging family's `weighted` row with the tag set file `ts` (P, R and F1 must be
/// there: a non-finite value would be an empty cell).
fn weighted_f1(ts: String) -> f64 {
    let r = crate::common::family_texts(
        "tagging",
        &[("format", "tsv"), ("tagset", &ts)],
        GOLD,
        PRED,
        "tsv",
    )
    .expect("evaluate");
    let w = |col: &str| {
        crate::common::cell(&r, "tagging", &["weighted"], col)
            .unwrap_or_else(|| panic!("weighted {col}: no value"))
    };
    assert!(w("P").is_finite() && w("R").is_finite() && w("F1").is_finite());
    w("F1")
}

#[test]
fn tagging_weights_scaled_alike_give_the_same_weighted_score() {
    let one = weighted_f1(tagset_with_weights("1", "1"));
    assert!((one - 5.0 / 6.0).abs() < 1e-12, "{one}");
    for w in ["1e308", "1.7e308", "4e-300", "1e-320", "3"] {
        let got = weighted_f1(tagset_with_weights(w, w));
        assert!(
            (got - one).abs() < 1e-12,
            "weights {w}: {got} against {one}"
        );
    }
    // Unequal weights: 2 against 1 and the same ratio near the top of the range.
    let small = weighted_f1(tagset_with_weights("2", "1"));
    let huge = weighted_f1(tagset_with_weights("1.6e308", "0.8e308"));
    assert!((small - huge).abs() < 1e-12, "{small} {huge}");
}

/// 2^1023 and 2^1022 in decimal.
const P2_1023: &str = "89884656743115795386465259539451236680898848947115328636715040578866337902750481566354238661203768010560056939935696678829394884407208311246423715319737062188883946712432742638151109800623047059726541476042502884419075341171231440736956555270413618581675255342293149119973622969239858152417678164812112068608";
const P2_1022: &str = "44942328371557897693232629769725618340449424473557664318357520289433168951375240783177119330601884005280028469967848339414697442203604155623211857659868531094441973356216371319075554900311523529863270738021251442209537670585615720368478277635206809290837627671146574559986811484619929076208839082406056034304";

fn bad(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bad_inputs")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Every category weighted `w` (TP as TP, FP as FP, FN as FN, the errors as FP and FN).
fn all_weights(w: &str) -> String {
    format!("TP={w}TP,FP={w}FP,FN={w}FN,LE={w}FP+{w}FN,BE={w}FP+{w}FN,LBE={w}FP+{w}FN")
}

/// The weighted rows of `score --regimes fair,weighted`, without the count cells.
fn weighted_rows(weights: &str, name: &str) -> Result<Vec<String>, String> {
    let out = crate::common::temp_dir(name);
    let o = crate::common::fairscore(&[
        "score",
        "--ref",
        &bad("gold.tsv"),
        "--pred",
        &bad("unknown_label.tsv"),
        "-e",
        "hipe-2022",
        "--skip-check",
        "-t",
        "nerc_coarse",
        "-o",
        &out.to_string_lossy(),
        "--regimes",
        "fair,weighted",
        "--weights",
        weights,
    ]);
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    let tsv = std::fs::read_to_string(out.join("unknown_label_nerc_coarse.tsv")).unwrap();
    let json = std::fs::read_to_string(out.join("unknown_label_nerc_coarse.json")).unwrap();
    for bad in ["NaN", "Infinity", "inf"] {
        assert!(!tsv.contains(bad) && !json.contains(bad), "{bad} in output");
    }
    Ok(tsv
        .lines()
        .filter(|l| l.contains("weighted"))
        .map(|l| l.split('\t').take(6).collect::<Vec<_>>().join("\t"))
        .collect())
}

#[test]
fn score_weighted_regime_is_finite_and_scale_free() {
    let big = format!("1{}", "0".repeat(304));
    let one = weighted_rows(&all_weights("1"), "hw_one").unwrap();
    assert!(!one.is_empty());
    let huge = weighted_rows(&all_weights(&big), "hw_huge").unwrap();
    assert_eq!(one, huge);
    // Weights whose sums cannot be finite: refused, naming the problem (usage, exit 2).
    let max = format!("17{}", "0".repeat(307));
    let err = weighted_rows(&all_weights(&max), "hw_max").unwrap_err();
    assert!(
        err.contains("--weights") && err.contains("overflows"),
        "{err}"
    );
    let o = crate::common::fairscore(&[
        "score",
        "--ref",
        &bad("gold.tsv"),
        "--pred",
        &bad("unknown_label.tsv"),
        "-e",
        "hipe-2022",
        "--skip-check",
        "-t",
        "nerc_coarse",
        "-o",
        &crate::common::temp_dir("hw_max2").to_string_lossy(),
        "--regimes",
        "fair,weighted",
        "--weights",
        &all_weights(&max),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn fair_weights_with_huge_coefficients_give_the_fair_scores() {
    let big = format!("1{}", "0".repeat(304));
    let dir = crate::common::temp_dir("hw_fair");
    let sys = dir.join("sys.spans");
    std::fs::write(&sys, "PER\t1\t3\nLOC\t4\t5\nORG\t7\t7\n").unwrap();
    let json = dir.join("out.json");
    let fair = |w: &str| {
        let o = crate::common::fairscore(&[
            "fair",
            "--target",
            &bad("spans_gold.spans"),
            "--system",
            &sys.to_string_lossy(),
            "--weights",
            w,
            "--json",
            &json.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let tables = String::from_utf8(o.stdout).unwrap();
        assert!(
            !tables.contains("NaN") && !tables.contains("inf"),
            "{tables}"
        );
        let text = std::fs::read_to_string(&json).unwrap();
        assert!(!text.contains("NaN") && !text.contains("null"), "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        // The weighted scores of all labels (the row ALL of the `weighted` table).
        let row = crate::common::json_table(&v, "weighted")["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["key"]["label"] == "ALL")
            .expect("weighted row ALL")
            .clone();
        row["scores"].clone()
    };
    // The fair weights written out, then all multiplied by 2^1023.
    let fair_like = |k: &str, h: &str| {
        format!("TP={k}TP,FP={k}FP,FN={k}FN,LE={h}FP+{h}FN,BE={h}FP+{h}FN,LBE={h}FP+{h}FN")
    };
    let a = fair(&fair_like("1", "0.5"));
    // 2^1023 and 2^1022, written out (exactly the fair weights times 2^1023): sums of these
    // overflow unless the weights are scaled first.
    let b = fair(&fair_like(P2_1023, P2_1022));
    let c = fair("default");
    // The fair weights: wTP 1, wFP 1 + 0.5, wFN 0.5, so F1 = 2 / (2 + 1.5 + 0.5).
    assert_eq!(a["F1"].as_f64(), Some(0.5));
    for k in ["P", "R", "F1"] {
        assert!(a[k].is_number(), "{k}: {}", a[k]);
        assert_eq!(a[k], b[k], "{k}");
        assert_eq!(a[k], c[k], "{k}");
    }
    assert!(fair(&all_weights(&big))["F1"].is_number());
}
