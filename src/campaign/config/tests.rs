//! Tests of campaign loading and validation.

use super::*;

#[test]
fn presets_parse_and_validate() {
    let c = Campaign::preset("hipe-2022").unwrap();
    assert_eq!(c.edition, Edition::Hipe2022);
    assert_eq!(c.tasks.len(), 4);
    assert_eq!(c.rankings.len(), 8);
    assert_eq!(c.bundles["5"], vec!["nel", "nel_relaxed"]);
    let relaxed = &c.tasks["nel_relaxed"];
    assert_eq!(
        c.gold_file(relaxed, "ajmc", "de"),
        "HIPE-2022-v2.1-ajmc-test-de_histonorm.tsv"
    );
    assert_eq!(
        c.tagset_file(relaxed).map(Name::as_str),
        Some("tagset-hipe2022-all.txt")
    );
    let c20 = Campaign::preset("hipe-2020").unwrap();
    assert_eq!(c20.tagset_file(&c20.tasks["nel"]), None);
    assert_eq!(
        c20.tagset_file(&c20.tasks["nerc_fine"]).map(Name::as_str),
        Some("tagset.txt")
    );
    assert!(Campaign::preset("nope").is_err());
    assert_eq!(c.bootstrap, None);
}

#[test]
fn bootstrap_settings_parse_with_defaults() {
    let (_, base) = PRESETS[0];
    let with = |extra: &str| Campaign::from_toml(&format!("{extra}\n{base}"), Path::new("c.toml"));
    let r = with("bootstrap = 500").unwrap().bootstrap.unwrap();
    assert_eq!((r.samples, r.seed, r.confidence), (500, 42, 0.95));
    let r = with("bootstrap = 7\nbootstrap_seed = 3\nbootstrap_confidence = 0.9")
        .unwrap()
        .bootstrap
        .unwrap();
    assert_eq!((r.samples, r.seed, r.confidence), (7, 3, 0.9));
    let e = with("bootstrap_confidence = 0.9").unwrap_err().to_string();
    assert!(e.starts_with("c.toml:1:") && e.contains("goes with"), "{e}");
    let e = with("bootstrap = 10000001").unwrap_err().to_string();
    assert!(e.starts_with("c.toml:1:") && e.contains("maximum"), "{e}");
}

fn line_of(text: &str) -> (usize, String) {
    match Campaign::from_toml(text, Path::new("c.toml")).unwrap_err() {
        Error::Input { line, message, .. } => (line, message),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_campaigns_are_input_errors_with_line() {
    assert_eq!(line_of("name = \"x\"\nedition = 3\n").0, 2);
    let base = PRESETS[0].1;
    let line_with = |needle: &str| base.lines().position(|l| l.contains(needle)).unwrap() + 1;

    let broken = base.replace("{team}_bundle{bundle}", "{team}{bundle}");
    let (line, msg) = line_of(&broken);
    assert_eq!(line, line_with("run_pattern = "), "{msg}");

    let unknown = base.replace("4 = [\"nerc_coarse\"]", "4 = [\"nerc_mid\"]");
    let (line, msg) = line_of(&unknown);
    assert!(msg.contains("nerc_mid"), "{msg}");
    assert_eq!(line, line_with("4 = [\"nerc_coarse\"]"));

    let edition = base.replace("edition = \"hipe-2022\"", "edition = \"hipe-2021\"");
    let (line, msg) = line_of(&edition);
    assert!(msg.contains("unknown edition \"hipe-2021\""), "{msg}");
    assert_eq!(line, line_with("edition = "));

    for bad in ["x/../../escaped", "a/b", ".."] {
        let suffix = base.replace("suffix = \"relaxed\"", &format!("suffix = \"{bad}\""));
        let (line, msg) = line_of(&suffix);
        assert!(msg.contains("suffix"), "{msg}");
        assert_eq!(line, line_with("suffix = "), "{msg}");
    }
    let kind = base.replace("kind = \"coarse-micro-strict\"", "kind = \"a/b\"");
    assert_eq!(line_of(&kind).0, line_with("coarse-micro-strict"));
    let lang = base.replace(
        "languages = [\"de\", \"en\", \"fr\"]",
        "languages = [\"de\", \"../en\"]",
    );
    assert_eq!(
        line_of(&lang).0,
        line_with("languages = [\"de\", \"en\", \"fr\"]")
    );
    let dataset = base.replace("[datasets.sonar]", "[datasets.\"so/nar\"]");
    assert_eq!(line_of(&dataset).0, line_with("[datasets.sonar]"));
    let gold = base.replace("_histonorm.tsv", "/../x.tsv");
    assert_eq!(line_of(&gold).0, line_with("_histonorm.tsv"));
}

#[test]
fn breakdowns_are_read_for_the_nerc_outputs_and_refused_with_their_line() {
    let base = PRESETS[0].1;
    let with = |top: &str, extra: &str| {
        Campaign::from_toml(&format!("{top}\n{base}\n{extra}"), Path::new("c.toml"))
    };
    let c = with(
        "breakdown = [\"label\", \"oov\"]\ntrain = \"train-{dataset}-{lang}.tsv\"",
        "",
    )
    .unwrap();
    let coarse = &c.tasks["nerc_coarse"];
    assert_eq!(c.breakdown_of(coarse), ["label", "oov"]);
    assert!(c.breakdown_of(&c.tasks["nel"]).is_empty(), "NEL: none");
    assert_eq!(
        c.train_file(coarse, "ajmc", "de").as_deref(),
        Some("train-ajmc-de.tsv")
    );
    assert_eq!(c.train_file(&c.tasks["nel"], "ajmc", "de"), None);
    // A text of keys, and no training file for keys that read none.
    let c = with("breakdown = \"label, length:6\"", "").unwrap();
    assert_eq!(c.breakdown_of(coarse), ["label", "length:6"]);
    assert_eq!(c.train_file(&c.tasks["nerc_fine"], "ajmc", "de"), None);
    let err = |top: &str| match with(top, "").unwrap_err() {
        Error::Input { line, message, .. } => (line, message),
        other => panic!("{other:?}"),
    };
    let (line, m) = err("# keys\nbreakdown = [\"label\", \"colour\"]");
    assert!(
        line == 2 && m.contains("unknown key") && m.contains("colour"),
        "{line} {m}"
    );
    let (line, m) = err("breakdown = [\"oov\"]");
    assert!(line == 1 && m.contains("train"), "{line} {m}");
    let (line, m) = err("breakdown = [\"label\"]\ntrain = \"t-{lang}.tsv\"");
    assert!(
        line == 2 && m.starts_with("invalid campaign: train:"),
        "{line} {m}"
    );
    let (line, m) = err("breakdown = [\"label\"]\ntrain = \"../t.tsv\"");
    assert!(line == 2 && m.contains("train"), "{line} {m}");
    // An output's own keys: none for NEL (refused at its line), `[]` turns a NERC output's off.
    let own = |task: &str, keys: &str| {
        let needle = format!("task = \"{task}\"\n");
        let text = base.replacen(&needle, &format!("{needle}breakdown = {keys}\n"), 1);
        Campaign::from_toml(
            &format!("breakdown = \"label\"\n{text}"),
            Path::new("c.toml"),
        )
    };
    let c = own("nerc_fine", "[]").unwrap();
    assert!(c.breakdown_of(&c.tasks["nerc_fine"]).is_empty());
    assert_eq!(c.breakdown_of(&c.tasks["nerc_coarse"]), ["label"]);
    match own("nel", "[\"label\"]").unwrap_err() {
        Error::Input { line, message, .. } => {
            let at = base
                .find("task = \"nel\"\n")
                .map(|i| base[..i].lines().count() + 3);
            assert_eq!(Some(line), at, "{message}");
            assert!(
                message.contains("nel: breakdown") && message.contains("NERC"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
}
