"""evaluate and classification_report on the 31 HIPE-2022 NERC runs (NE-COARSE-LIT, one tag
list per document) equal seqeval 1.2.2 in its default mode; hand-made cases too."""

import warnings

import pytest

import fairscore
from conftest import hipe_tag_lists, nerc_runs, shared_data

seqeval = pytest.importorskip("seqeval.metrics")


def seqeval_report(y_true, y_pred, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return seqeval.classification_report(y_true, y_pred, **kw)


def seqeval_micro(y_true, y_pred):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (
            seqeval.precision_score(y_true, y_pred),
            seqeval.recall_score(y_true, y_pred),
            seqeval.f1_score(y_true, y_pred),
        )


def as_plain(report):
    return {
        name: {k: (int(v) if k == "support" else float(v)) for k, v in row.items()}
        for name, row in report.items()
    }


def paired(gold_path, run_path):
    gold, run = hipe_tag_lists(gold_path), hipe_tag_lists(run_path)
    if [len(d) for d in gold] != [len(d) for d in run]:
        # A run whose documents are not marked as the gold's: one block, cut like the gold.
        flat = [t for d in run for t in d]
        assert len(flat) == sum(map(len, gold)), f"{run_path.name}: not as many tokens as the gold"
        run, k = [], 0
        for d in gold:
            run.append(flat[k : k + len(d)])
            k += len(d)
    return gold, run


HAND_MADE = [
    # (y_true, y_pred)
    ([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "B-ORG"]]),
    ([["I-PER", "I-PER", "B-LOC"], ["B-LOC"]], [["B-PER", "I-PER", "I-ORG"], ["I-LOC"]]),
    ([["B-PER", "I-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O", "B-PER"]]),
    ([["O", "O"], []], [["B-MISC", "I-MISC"], []]),
    ([["B-ORG", "I-ORG", "O", "B-LOC", "I-LOC"]] * 3, [["B-ORG", "B-ORG", "O", "I-LOC", "I-LOC"]] * 3),
    # P = 0.125: a tie in the last printed digit, rounded half to even as Python does.
    ([["B-PER"] + ["O"] * 7], [["B-PER"] * 8]),
    # E- and S- prefixes, chunked as seqeval's default mode does.
    ([["B-PER", "E-PER", "S-LOC", "I-LOC"]], [["S-PER", "S-PER", "S-LOC", "E-LOC"]]),
]


@pytest.mark.parametrize("y_true,y_pred", HAND_MADE)
def test_hand_made_cases_equal_seqeval(y_true, y_pred):
    ours = fairscore.classification_report(y_true, y_pred, output_dict=True)
    assert ours == as_plain(seqeval_report(y_true, y_pred, output_dict=True))
    for digits in (2, 4):
        assert fairscore.classification_report(y_true, y_pred, digits=digits) == seqeval_report(
            y_true, y_pred, digits=digits
        )
    strict = fairscore.evaluate(y_true, y_pred)["strict"]["ALL"]
    assert (strict["P"], strict["R"], strict["F1"]) == seqeval_micro(y_true, y_pred)


def test_the_31_nerc_runs_equal_seqeval_strict():
    data = shared_data("test_the_31_nerc_runs_equal_seqeval_strict")
    runs = nerc_runs(data)
    assert len(runs) == 31, [r.name for r, _ in runs]
    differ = []
    for run, gold in runs:
        y_true, y_pred = paired(gold, run)
        ours = fairscore.classification_report(y_true, y_pred, output_dict=True)
        theirs = as_plain(seqeval_report(y_true, y_pred, output_dict=True))
        strict = fairscore.evaluate(y_true, y_pred)["strict"]["ALL"]
        micro = seqeval_micro(y_true, y_pred)
        if ours != theirs or (strict["P"], strict["R"], strict["F1"]) != micro:
            differ.append(run.name)
        elif fairscore.classification_report(y_true, y_pred, digits=4) != seqeval_report(
            y_true, y_pred, digits=4
        ):
            differ.append(run.name + " (text)")
    assert not differ, f"differ from seqeval: {differ}"
