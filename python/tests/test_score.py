"""score() on every HIPE-2022 run in ../shared equals the JSON the release CLI writes."""

import json
import warnings

import pytest

import fairscore
from conftest import shared_data

TASKS = {
    "bundle1": ["nerc_coarse", "nerc_fine", "nel"],
    "bundle2": ["nerc_coarse", "nel"],
    "bundle3": ["nerc_coarse", "nerc_fine"],
    "bundle4": ["nerc_coarse"],
    "bundle5": ["nel"],
}


def runs():
    data = shared_data("test_score_equals_the_cli")
    out = []
    for run in sorted((data / "hipe2022" / "submissions").glob("*.tsv")):
        parts = run.stem.split("_")
        gold = data / "hipe2022" / "gold" / f"HIPE-2022-v2.1-{parts[2]}-test-{parts[3]}.tsv"
        out.append((run, gold, TASKS[parts[1]]))
    return out


def test_score_equals_the_cli_on_every_hipe2022_run(tmp_path, fairscore_cli):
    all_runs = runs()
    assert len(all_runs) == 41
    compared, differ = 0, []
    for run, gold, tasks in all_runs:
        for task in tasks:
            out = tmp_path / f"{run.stem}-{task}"
            fairscore_cli("score", "--ref", gold, "--pred", run, "-t", task, "-e", "hipe-2022", "-o", out)
            cli = json.loads((out / f"{run.stem}_{task}.json").read_text(encoding="utf-8"))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ours = fairscore.score(gold, run, task, "hipe-2022")
            compared += 1
            # Same keys in the same order, same numbers (int and float alike).
            if json.dumps(ours) != json.dumps(cli):
                differ.append(f"{run.name} {task}")
    assert not differ, f"differ from the CLI: {differ}"
    assert compared >= 41


def test_options_reach_the_library(tmp_path, fairscore_cli):
    data = shared_data("test_options_reach_the_library")
    run = data / "hipe2022" / "submissions" / "team2_bundle1_ajmc_en_1.tsv"
    gold = data / "hipe2022" / "gold" / "HIPE-2022-v2.1-ajmc-test-en.tsv"
    fairscore_cli(
        "score", "--ref", gold, "--pred", run, "-t", "nel", "-e", "hipe-2022", "-o", tmp_path,
        "--n_best", "1,3", "--skip-check",
    )
    (cli_json,) = tmp_path.glob("*.json")
    cli = json.loads(cli_json.read_text(encoding="utf-8"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = fairscore.score(gold, run, "nel", "hipe-2022", n_best=[1, 3], skip_check=True)
        plain = fairscore.score(gold, run, "nel", "hipe-2022")
    assert json.dumps(ours) == json.dumps(cli)
    assert ours != plain
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fair = fairscore.score(gold, run, "nerc_coarse", "hipe-2022", regimes=["strict", "fair"])
    assert "fair" in fair["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"]
