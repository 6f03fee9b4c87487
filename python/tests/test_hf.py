"""`fairscore.from_ids` and the Hugging Face `evaluate` metric module against Hugging Face's own
seqeval metric script (../shared/data/peers/hf-seqeval/seqeval.py, run unchanged through
`evaluate.load`), on generated id grids with -100 masks and on the 31 HIPE-2022 NERC runs;
the docstring examples of the package (doctest)."""

import doctest
import os
import random
import warnings

import pytest

import fairscore
from conftest import hipe_tag_lists, nerc_runs, required, shared_data

os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "E-ORG", "S-LOC", "I"]


def need(module):
    try:
        return __import__(module)
    except ImportError:
        if required():
            pytest.fail(f"{module} is not installed (scripts/python_tests.sh installs it)")
        pytest.skip(f"skipped: {module} not installed")


@pytest.fixture(scope="module")
def hf_seqeval():
    """Hugging Face's seqeval metric script, loaded offline from ../shared."""
    evaluate = need("evaluate")
    script = shared_data("hf_seqeval") / "peers" / "hf-seqeval" / "seqeval.py"
    return evaluate.load(str(script))


@pytest.fixture(scope="module")
def ours():
    evaluate = need("evaluate")
    return evaluate.load(fairscore.HF_METRIC_PATH)


def quiet(fn, *args, **kw):
    """(result or exception type and text, warning texts)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = fn(*args, **kw)
        except Exception as e:  # compared, not hidden
            r = (type(e).__name__, str(e))
    return r, sorted(str(x.message) for x in w)


def boilerplate(predictions, label_ids, labels, ignore=-100):
    """The tag lists of Hugging Face's token-classification example."""
    np = need("numpy")
    predictions = np.asarray(predictions)
    if predictions.ndim == 3:
        predictions = predictions.argmax(axis=2)
    tp = [[labels[p] for p, lab in zip(pr, la) if lab != ignore] for pr, la in zip(predictions, label_ids)]
    tl = [[labels[lab] for p, lab in zip(pr, la) if lab != ignore] for pr, la in zip(predictions, label_ids)]
    return tl, tp


def grids(seed, rows=12, cols=16, n_labels=len(LABELS)):
    np = need("numpy")
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, n_labels, size=(rows, cols))
    gold[rng.random((rows, cols)) < 0.4] = 0
    gold[rng.random((rows, cols)) < 0.2] = -100
    gold[:, 0] = -100
    logits = rng.normal(size=(rows, cols, n_labels))
    logits[np.arange(rows)[:, None], np.arange(cols)[None, :], np.clip(gold, 0, None)] += rng.random() * 3
    return gold, logits


def plain(d):
    return {k: (plain(v) if isinstance(v, dict) else float(v)) for k, v in d.items()}


OPTIONS = [
    {},
    {"mode": "strict", "scheme": "IOB2"},
    {"mode": "strict", "scheme": "IOBES"},
    {"mode": "strict"},
    {"zero_division": 0},
    {"zero_division": 1},
]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_from_ids_equals_hf_seqeval_on_generated_grids(hf_seqeval, seed, options):
    np = need("numpy")
    gold, logits = grids(seed)
    labels = LABELS[: 4 + seed % 6]
    gold = np.where(gold >= len(labels), 0, gold)
    logits = logits[:, :, : len(labels)]
    id2label = dict(enumerate(labels)) if seed % 2 else list(labels)
    y_true, y_pred = boilerplate(logits, gold, labels)
    want, want_w = quiet(hf_seqeval.compute, predictions=y_pred, references=y_true, **options)
    for preds in (logits, logits.argmax(-1), logits.argmax(-1).tolist()):
        got, got_w = quiet(fairscore.from_ids, preds, gold, id2label, **options)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and got[0] == want[0], (got, want)
        else:
            assert plain(got) == plain(want)
            assert got_w == want_w
    assert fairscore.tags_from_ids(logits, gold, id2label) == (y_true, y_pred)


def test_from_ids_on_ragged_lists_and_another_ignore_index(hf_seqeval):
    rng = random.Random(5)
    label_ids = [[rng.choice([-1, 0, 1, 2, 3, 4]) for _ in range(rng.randint(0, 12))] for _ in range(30)]
    preds = [[rng.randint(0, 4) for _ in row] for row in label_ids]
    y_true = [[LABELS[g] for g in row if g != -1] for row in label_ids]
    y_pred = [[LABELS[p] for p, g in zip(pr, row) if g != -1] for pr, row in zip(preds, label_ids)]
    want = hf_seqeval.compute(predictions=y_pred, references=y_true)
    got = fairscore.from_ids(preds, label_ids, LABELS, ignore_index=-1)
    assert plain(got) == plain(want)


def test_from_ids_names_an_unknown_label_id():
    with pytest.raises(ValueError, match=r"label_ids\[0\]\[2\]: label id 7 is not in id2label"):
        fairscore.from_ids([[0, 0, 0]], [[-100, 0, 7]], ["O", "B-PER"])
    with pytest.raises(ValueError, match=r"predictions\[0\]\[1\]: label id 9"):
        fairscore.from_ids([[0, 9, 0]], [[-100, 0, 1]], ["O", "B-PER"])
    with pytest.raises(ValueError, match="predictions has 2 ids, label_ids 3"):
        fairscore.from_ids([[0, 1]], [[0, 1, 1]], ["O", "B-PER"])


def test_from_ids_with_regimes_adds_fairscores_regimes():
    r = fairscore.from_ids([[0, 0, 2, 0]], [[-100, 1, 2, 0]], LABELS, regimes=True)
    e = fairscore.evaluate([["B-PER", "I-PER", "O"]], [["O", "I-PER", "O"]])
    assert r["overall_f1"] == 0.0
    for regime in ("strict", "ent_type", "partial", "exact", "fair"):
        assert r[regime] == {k: e[regime]["ALL"][c] for k, c in (("precision", "P"), ("recall", "R"), ("f1", "F1"))}
    assert r["strict"]["f1"] == 0.0 and r["partial"]["f1"] > 0.0


@pytest.mark.parametrize("options", [{}, {"mode": "strict", "scheme": "IOB2"}, {"suffix": False}])
def test_the_metric_module_equals_hf_seqeval_on_the_31_nerc_runs(hf_seqeval, ours, options):
    data = shared_data("hf metric module")
    runs = nerc_runs(data)
    assert len(runs) == 31
    for run, gold in runs:
        y_true, y_pred = hipe_tag_lists(gold), hipe_tag_lists(run)
        flat = [t for d in y_pred for t in d]
        if len(flat) != sum(map(len, y_true)):
            continue
        y_pred, k = [], 0
        for d in y_true:
            y_pred.append(flat[k : k + len(d)])
            k += len(d)
        want, _ = quiet(hf_seqeval.compute, predictions=y_pred, references=y_true, **options)
        got, _ = quiet(ours.compute, predictions=y_pred, references=y_true, **options)
        if isinstance(want, tuple):  # an IOBES run in strict IOB2 mode: seqeval's error
            assert got == want, run.name
            continue
        regimes = {k: got.pop(k) for k in ("strict", "ent_type", "partial", "exact", "fair")}
        assert plain(got) == plain(want), run.name
        e = fairscore.evaluate(y_true, y_pred)
        assert regimes["fair"]["f1"] == e["fair"]["ALL"]["F1"]
        assert regimes["exact"]["precision"] == e["exact"]["ALL"]["P"]


def test_the_metric_module_rejects_an_unknown_scheme_as_hf_does(hf_seqeval, ours):
    args = {"predictions": [["B-PER"]], "references": [["B-PER"]], "scheme": "IOB3"}
    want, _ = quiet(hf_seqeval.compute, **args)
    got, _ = quiet(ours.compute, **args)
    assert got == want and got[0] == "ValueError"


@pytest.mark.parametrize("module", ["fairscore.ids", "fairscore.seqeval"])
def test_docstring_examples(module):
    import importlib

    m = importlib.import_module(module)
    r = doctest.testmod(m, optionflags=doctest.ELLIPSIS)
    assert r.attempted > 0 and r.failed == 0, r


@pytest.mark.parametrize("module", ["fairscore.ids", "fairscore.seqeval"])
def test_the_stubs_are_in_step(module):
    """The module's .pyi declares every name of __all__, and each function with the
    implementation's parameters."""
    import ast
    import importlib
    import inspect
    from pathlib import Path

    m = importlib.import_module(module)
    stub = ast.parse(Path(m.__file__).with_suffix(".pyi").read_text(encoding="utf-8"))
    declared = {}
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            declared[node.name] = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
        elif isinstance(node, ast.ClassDef):
            declared[node.name] = None
    assert set(m.__all__) <= set(declared), set(m.__all__) - set(declared)
    for name, params in declared.items():
        if params is not None:
            assert params == list(inspect.signature(getattr(m, name)).parameters), name
