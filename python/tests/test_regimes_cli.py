"""On hand-made cases every regime of evaluate equals `fairscore score --format conll` (the
release CLI) on the same tags written as CoNLL."""

import json

import pytest

import fairscore

REGIME_KEYS = ["correct", "incorrect", "partial", "missed", "spurious", "possible", "actual"]
FAIR_KEYS = ["TP", "FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE", "TP_weighted", "FP_weighted", "FN_weighted"]

CASES = [
    ([["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG"]], [["B-PER", "I-PER", "O", "B-ORG"], ["O", "O", "B-MISC"]]),
    ([["B-PER", "I-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O", "B-LOC"]]),
    ([["O", "B-LOC", "I-LOC", "I-LOC", "O"]], [["B-LOC", "I-LOC", "O", "B-PER", "I-PER"]]),
    ([["I-ORG", "I-ORG", "B-ORG", "O"], ["B-PER"]], [["B-ORG", "I-ORG", "I-ORG", "I-LOC"], ["O"]]),
    ([["B-PER", "B-PER", "B-PER"], []], [["B-PER", "I-PER", "B-LOC"], []]),
    ([["O", "O"]], [["B-MISC", "O"]]),
]


def conll(seqs):
    return "".join("".join(f"w {t}\n" for t in s) + "\n" for s in seqs)


@pytest.mark.parametrize("y_true,y_pred", CASES)
def test_every_regime_equals_the_cli(tmp_path, fairscore_cli, y_true, y_pred):
    (tmp_path / "gold.conll").write_text(conll(y_true), encoding="utf-8")
    (tmp_path / "run.conll").write_text(conll(y_pred), encoding="utf-8")
    labels = sorted({t[2:] for s in y_true + y_pred for t in s if t != "O"})
    # Every run label evaluated, as evaluate does (the CLI alone leaves out labels the gold lacks).
    (tmp_path / "tagset.txt").write_text("".join(l + "\n" for l in labels), encoding="utf-8")
    out = tmp_path / "out"
    fairscore_cli(
        "score", "--ref", tmp_path / "gold.conll", "--pred", tmp_path / "run.conll",
        "-t", "nerc_coarse", "--format", "conll", "--regimes", "strict,fair",
        "--tagset", tmp_path / "tagset.txt", "-o", out,
    )
    (cli_json,) = out.glob("*.json")
    cli = json.loads(cli_json.read_text())["TAG"]["TIME-ALL"]["LED-ALL"]
    ours = fairscore.evaluate(y_true, y_pred)
    assert set(cli) == set(ours["strict"]), (sorted(cli), sorted(ours["strict"]))
    for label, blocks in cli.items():
        for regime in ["strict", "ent_type", "partial", "exact"]:
            theirs, mine = blocks[regime], ours[regime][label]
            assert {k: mine[k] for k in REGIME_KEYS} == {k: theirs[k] for k in REGIME_KEYS}, (label, regime)
            assert (mine["P"], mine["R"], mine["F1"]) == (theirs["P_micro"], theirs["R_micro"], theirs["F1_micro"]), (label, regime)
        if "fair" in blocks:
            theirs, mine = blocks["fair"], ours["fair"][label]
            assert {k: mine[k] for k in FAIR_KEYS} == {k: theirs[k] for k in FAIR_KEYS}, label
            assert (mine["P"], mine["R"], mine["F1"]) == (theirs["P_micro"], theirs["R_micro"], theirs["F1_micro"]), label
    assert "fair" in cli["ALL"]


def test_beta_weighs_recall():
    y_true, y_pred = [["B-PER", "O", "B-LOC"]], [["B-PER", "O", "O"]]
    strict = fairscore.evaluate(y_true, y_pred, beta=2.0)["strict"]["ALL"]
    assert (strict["P"], strict["R"]) == (1.0, 0.5)
    assert strict["F1"] == pytest.approx(5 * 0.5 / (4 + 0.5))
    assert fairscore.evaluate(y_true, y_pred)["strict"]["ALL"]["F1"] == pytest.approx(2 / 3)
