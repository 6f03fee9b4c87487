"""Every family through the one interface, from Python as from the CLI: `family`, `compare`,
`bootstrap=` on the family functions, path-like options, and the library's option errors."""

import json
import pathlib

import pytest

import fairscore
from conftest import REPO

FIX = REPO / "tests" / "fixtures"
SEG = FIX / "segmentation"


def cli_json(fairscore_cli, tmp_path, *args):
    out = tmp_path / "cli.json"
    fairscore_cli(*args, "--json", out)
    return json.loads(out.read_text(encoding="utf-8"))


def test_family_equals_the_cli_table(tmp_path, fairscore_cli):
    g, p = SEG / "table1-gold.txt", SEG / "table1-S1.txt"
    cli = cli_json(
        fairscore_cli, tmp_path, "evaluate", "--family", "segmentation", "--gold", g, "--pred", p,
        "--bootstrap", "200", "--seed", "3",
    )
    py = fairscore.family("segmentation", g, p, bootstrap=200, seed=3)
    assert py == cli
    words = py["tables"][0]["rows"][0]
    assert words["key"] == {"level": "words"}
    lo, hi = words["ci"]["F1"]
    assert lo <= words["scores"]["F1"] <= hi


def test_bootstrap_on_a_family_function_gives_the_table(tmp_path, fairscore_cli):
    g, p = SEG / "table1-gold.txt", SEG / "table1-S2.txt"
    cli = cli_json(fairscore_cli, tmp_path, "segmentation", "--gold", g, "--pred", p, "--bootstrap", "100")
    assert fairscore.segmentation(g, p, bootstrap=100) == cli
    assert cli["resampling"]["unit"] == "sentence"
    # Without bootstrap: the same family table, without intervals (one front door).
    plain = fairscore.segmentation(g, p)
    assert plain == fairscore.family("segmentation", g, p)
    assert "resampling" not in plain and plain["tables"][0]["name"] == "segmentation"


def test_compare_of_two_runs_of_any_family(tmp_path, fairscore_cli):
    g, a, b = SEG / "table1-gold.txt", SEG / "table1-S1.txt", SEG / "table1-S2.txt"
    cli = cli_json(
        fairscore_cli, tmp_path, "compare", "--family", "segmentation", "--gold", g, "--pred", a,
        "--pred", b, "--bootstrap", "300",
    )
    py = fairscore.compare(g, a, b, family="segmentation", bootstrap=300)
    assert py == cli
    same = fairscore.compare(g, a, a, family="segmentation", bootstrap=300)
    assert all(r["scores"]["A-B"] == 0 and r["scores"]["p"] == 1 for r in same["tables"][0]["rows"])


def test_compare_of_hipe_runs_equals_the_cli(tmp_path, fairscore_cli):
    gold = REPO / "reference_runs" / "HIPE-2022-demo-test-en.tsv"
    run = REPO / "reference_runs" / "demo_bundle4_newseye_en_1.tsv"
    cli = cli_json(
        fairscore_cli, tmp_path, "compare", "--gold", gold, "--pred", run, "--pred", run,
        "--hipe_edition", "hipe-2022", "--bootstrap", "200",
    )
    assert fairscore.compare(gold, run, run, hipe_edition="hipe-2022", bootstrap=200) == cli


def test_options_take_paths_and_unknown_ones_are_refused():
    g, p = FIX / "tagging" / "multi-gold.tsv", FIX / "tagging" / "multi-pred.tsv"
    ts = pathlib.Path(FIX / "tagging" / "conditional.toml")
    by_path = fairscore.tagging(g, p, tagset=ts)
    assert by_path == fairscore.tagging(g, p, tagset=str(ts))
    with pytest.raises(fairscore.UsageError) as e:
        fairscore.segmentation(SEG / "table1-gold.txt", SEG / "table1-S1.txt", colour="red")
    assert "colour" in str(e.value)
    with pytest.raises(fairscore.UsageError) as e:
        fairscore.segmentation(SEG / "table1-gold.txt", SEG / "table1-S1.txt", beta=0)
    assert "beta" in str(e.value) and "--beta" not in str(e.value)
