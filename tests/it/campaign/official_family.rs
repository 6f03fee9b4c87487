//! The official renderer over the family engine: the HIPE-2022 preset run as a campaign of
//! `hipe` family tasks (`FamilyCampaign::from_hipe` + `run_family_campaign_with`), its
//! per-run official files written as each run is scored (`OfficialRuns`) equal the 136
//! official ones, and its official ranking files ranked from those runs' rows
//! (`official_rankings`) equal the 56 official rankings row for row (line ends aside: the
//! official NERC files have CRLF). Needs ../shared (skipped, with a message, when absent).

use std::collections::BTreeMap;

use fairscore::campaign::{
    official_rankings, run_family_campaign_with, Campaign, CampaignHooks, FamilyCampaign,
    OfficialRuns,
};

fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect()
}

#[test]
fn family_engine_gives_the_56_official_rankings() {
    let Some(data) = crate::common::shared_data("official_family").map(|d| d.join("hipe2022"))
    else {
        return;
    };
    let cfg = Campaign::preset("hipe-2022").unwrap();
    let gold = data.join("gold");
    let fam = FamilyCampaign::from_hipe(
        &cfg,
        std::path::Path::new("hipe-2022"),
        &data.join("resources"),
        &gold,
    )
    .unwrap();
    let out =
        std::env::temp_dir().join(format!("fairscore-official-family-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let official = OfficialRuns::new(Some(&out)).unwrap();
    let on_scored = |t: &_, s: &str, files: [&std::path::Path; 2], st: &mut _| {
        official.scored(t, s, files, st, None)
    };
    let hooks = CampaignHooks {
        on_scored: Some(&on_scored),
        ..CampaignHooks::default()
    };
    let report = run_family_campaign_with(&fam, &gold, &data.join("submissions"), &hooks).unwrap();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert!(report.rejected.is_empty(), "{:?}", report.rejected);

    // Every official per-run file is written, with the official name and content.
    let written = official.files();
    let mut compared = 0;
    for e in std::fs::read_dir(data.join("official")).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(written.contains(&name), "{name} not written");
        crate::common::compare_file(&out.join(&name), &e.path()).unwrap();
        if name.ends_with(".tsv") {
            let ours = std::fs::read(out.join(&name)).unwrap();
            assert!(ours == std::fs::read(e.path()).unwrap(), "{name} differs");
        }
        compared += 1;
    }
    assert_eq!(compared, 136, "88 NERC and 48 NEL official files");
    // And no other (the HIPE engine's `runs/` has the same 136).
    assert_eq!(written.len(), compared, "{written:?}");
    let _ = std::fs::remove_dir_all(&out);

    let got: BTreeMap<String, String> = official_rankings(&cfg, &fam, &report, &official)
        .into_iter()
        .collect();
    let mut want = BTreeMap::new();
    for e in std::fs::read_dir(data.join("rankings")).unwrap() {
        let e = e.unwrap();
        let text = std::fs::read_to_string(e.path()).unwrap();
        want.insert(e.file_name().to_string_lossy().into_owned(), text);
    }
    assert_eq!(want.len(), 56);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    let mut nonempty = 0;
    for (name, text) in &want {
        let w = lines(text);
        if w.len() > 1 {
            nonempty += 1;
        }
        assert_eq!(lines(&got[name]), w, "{name}");
        // LF line ends, as the HIPE engine writes them.
        assert!(!got[name].contains('\r'), "{name}");
    }
    assert!(nonempty >= 30, "only {nonempty} non-empty rankings");
}
