"""fairscore.seqeval is a drop-in for seqeval.metrics (seqeval 1.2.2): the same numbers, report
text and dicts, errors and warnings, in the default mode and in strict mode with each scheme, on
generated sequences with every kind of malformed tag sequence and on the 31 HIPE-2022 NERC runs.

seqeval is installed by scripts/python_tests.sh; elsewhere these tests skip with a notice,
except under CI (CI or FAIRSCORE_REQUIRE_SHARED set), where its absence fails them."""

import random
import warnings

import pytest

import fairscore
from conftest import hipe_tag_lists, nerc_runs, required, shared_data
from fairscore import seqeval as ours
from oracles import seqeval_reading as oracle

try:
    from seqeval import metrics as theirs
    from seqeval import scheme as their_schemes
except ImportError:  # pragma: no cover - depends on the environment
    if required():
        raise
    pytest.skip("seqeval is not installed: the drop-in comparisons are skipped", allow_module_level=True)

AVERAGES = (None, "micro", "macro", "weighted")
ZERO_DIVISION = ("warn", 0, 1)
SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")


def call(fn, *args, **kw):
    """(outcome, warnings): the value, or the exception's type and text; the distinct warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = ("value", plain(fn(*args, **kw)))
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            text = str(e)
            if text.startswith("This scheme is not supported: {"):
                text = "This scheme is not supported: {...}"  # a set's order varies
            out = ("error", type(e).__name__, text)
    return out, sorted({(w.category.__name__, str(w.message)) for w in caught})


def plain(x):
    """NumPy scalars and arrays as Python numbers and lists, recursively (values compared ==)."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(plain(v) for v in x)
    if hasattr(x, "tolist"):
        return plain(x.tolist())
    if isinstance(x, float) and x != x:
        return "nan"
    return x


def same(fn_name, *args, **kw):
    mine = call(getattr(ours, fn_name), *args, **kw)
    ref = call(getattr(theirs, fn_name), *args, **kw)
    assert mine == ref, f"{fn_name}{kw}: fairscore {mine} != seqeval {ref} on {args}"
    return 1


# --- generated sequences --------------------------------------------------------------------
TYPES = ["PER", "LOC", "ORG"]


def gen(rng, prefixes, n_types=3, extra=(), max_len=9, n_seq=6):
    """Sequences of tags drawn with these prefixes (any order: malformed sequences included),
    empty and all-O sentences among them, plus `extra` odd tags."""
    types = TYPES[:n_types] if n_types <= 3 else [f"T{k}" for k in range(n_types)]
    alphabet = ["O"] * 3 + [f"{p}-{t}" for p in prefixes if p != "O" for t in types] + list(extra)
    seqs = []
    for _ in range(n_seq):
        kind = rng.random()
        n = rng.randint(0, max_len)
        if kind < 0.1:
            seqs.append([])
        elif kind < 0.2:
            seqs.append(["O"] * n)
        else:
            seqs.append([rng.choice(alphabet) for _ in range(n)])
    return seqs


def mutate(rng, seqs, prefixes, n_types=3):
    """A prediction: the gold with some tags changed (same shape)."""
    types = TYPES[:n_types] if n_types <= 3 else [f"T{k}" for k in range(n_types)]
    alphabet = ["O"] + [f"{p}-{t}" for p in prefixes if p != "O" for t in types]
    return [[t if rng.random() < 0.7 else rng.choice(alphabet) for t in s] for s in seqs]


def default_mode_checks(y_true, y_pred, suffix=False):
    n = 0
    for fn in ("precision_score", "recall_score", "f1_score"):
        for average in AVERAGES:
            for zd in ZERO_DIVISION:
                n += same(fn, y_true, y_pred, average=average, zero_division=zd, suffix=suffix)
    for zd in ZERO_DIVISION:
        n += same("classification_report", y_true, y_pred, output_dict=True, zero_division=zd, suffix=suffix)
    for digits in (2, 4, 0, 13):
        n += same("classification_report", y_true, y_pred, digits=digits, suffix=suffix)
    n += same("accuracy_score", y_true, y_pred)
    n += same("performance_measure", y_true, y_pred)
    # sample_weight is accepted and has no effect.
    n += same("f1_score", y_true, y_pred, sample_weight=[2.0] * len(y_true))
    return n


def strict_checks(y_true, y_pred, name):
    n = 0
    their = getattr(their_schemes, name)
    for fn in ("precision_score", "recall_score", "f1_score"):
        for average in AVERAGES:
            for zd in ZERO_DIVISION:
                kw = dict(average=average, zero_division=zd, mode="strict")
                mine = call(getattr(ours, fn), y_true, y_pred, scheme=name, **kw)
                assert mine == call(getattr(ours, fn), y_true, y_pred, scheme=their, **kw)
                ref = call(getattr(theirs, fn), y_true, y_pred, scheme=their, **kw)
                assert mine == ref, f"{fn} {name} {kw}: fairscore {mine} != seqeval {ref} on {y_true} {y_pred}"
                n += 1
    for kw in (dict(output_dict=True), dict(digits=3), dict(zero_division=1, output_dict=True)):
        mine = call(ours.classification_report, y_true, y_pred, mode="strict", scheme=name, **kw)
        ref = call(theirs.classification_report, y_true, y_pred, mode="strict", scheme=their, **kw)
        assert mine == ref, f"report {name} {kw}: {mine} != {ref} on {y_true} {y_pred}"
        n += 1
    # The scheme detected from y_true, as seqeval does when none is given.
    n += same("classification_report", y_true, y_pred, mode="strict")
    return n


PREFIXES = {"IOB1": "IOB", "IOB2": "IOB", "IOE1": "IOE", "IOE2": "IOE", "IOBES": "IOBES", "BILOU": "BILOU"}


@pytest.mark.parametrize("seed", range(40))
def test_default_mode_on_generated_iob_data_with_malformed_sequences(seed):
    rng = random.Random(seed)
    # I- after O, I- of another type, E-/S- in IOB2 data, lone prefixes and tags without one.
    extra = ["E-PER", "S-LOC", "B", "I", "PER", "-"] if seed % 2 else []
    y_true = gen(rng, "BI", extra=extra)
    y_pred = mutate(rng, y_true, "BIES")
    assert default_mode_checks(y_true, y_pred) > 0


@pytest.mark.parametrize("seed", range(10))
def test_default_mode_with_many_types_and_suffix_tags(seed):
    rng = random.Random(1000 + seed)
    y_true = gen(rng, "BI", n_types=20, max_len=30, n_seq=20)
    y_pred = mutate(rng, y_true, "BIES", n_types=20)
    default_mode_checks(y_true, y_pred)
    flip = lambda ys: [[t if t == "O" else "-".join(reversed(t.split("-", 1))) for t in s] for s in ys]  # noqa: E731
    default_mode_checks(flip(y_true), flip(y_pred), suffix=True)


@pytest.mark.parametrize("name", SCHEMES)
@pytest.mark.parametrize("seed", range(12))
def test_strict_mode_on_generated_data(name, seed):
    rng = random.Random(seed * 31 + len(name))
    prefixes = PREFIXES[name]
    y_true = gen(rng, prefixes, extra=["O-PER"] if seed % 3 == 0 else [])
    y_pred = mutate(rng, y_true, prefixes)
    assert strict_checks(y_true, y_pred, name) > 0


@pytest.mark.parametrize("name", ["IOB2", "IOBES", "BILOU"])
def test_strict_mode_errors_on_prefixes_outside_the_scheme(name):
    y_true = [["B-PER", "I-PER", "O"], ["O"]]
    for bad in (["S-PER", "O", "O"], ["U-PER", "L-PER", "O"], ["E-PER", "O", "O"], ["XPER", "O", "O"]):
        strict_checks(y_true, [bad, ["O"]], name)


HAND_MADE = [
    ([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "B-ORG"]]),
    ([["O", "O"], []], [["B-MISC", "I-MISC"], []]),
    ([["O", "O"]], [["O", "O"]]),  # no entity at all: the text report fails as seqeval's does
    ([[]], [[]]),
    ([["I-PER", "I-LOC", "B-LOC"], ["B-LOC"]], [["B-PER", "I-PER", "I-ORG"], ["I-LOC"]]),
    ([["B-PER"] + ["O"] * 7], [["B-PER"] * 8]),
    ([["B-PER", "E-PER", "S-LOC", "I-LOC"]], [["S-PER", "S-PER", "S-LOC", "E-LOC"]]),
    ([["B-PER", "I-PER"]], [["B-PER"]]),  # inconsistent lengths
    ([["B-PER", ".", "I-PER"]], [["B-PER", "I-PER", "I-PER"]]),
    ([["B-PER-X", "I-PER-X", "B--Y"]], [["B-PER-X", "B-PER", "B--Y"]]),
]


@pytest.mark.parametrize("y_true,y_pred", HAND_MADE)
def test_hand_made_cases(y_true, y_pred):
    default_mode_checks(y_true, y_pred)
    for name in ("IOB2", "IOBES"):
        strict_checks(y_true, y_pred, name)


def test_strict_without_scheme_is_the_default_mode_in_the_score_functions():
    y_true = [["I-PER", "I-PER", "O"]]
    y_pred = [["B-PER", "I-PER", "O"]]
    for fn in ("precision_score", "recall_score", "f1_score"):
        same(fn, y_true, y_pred, mode="strict")


def test_the_package_has_a_version_and_the_submodule():
    assert isinstance(fairscore.__version__, str) and fairscore.__version__
    assert fairscore.seqeval is ours


def test_importing_fairscore_imports_neither_numpy_nor_sklearn():
    import subprocess
    import sys

    code = "import sys, fairscore; print('numpy' in sys.modules, 'sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# --- the HIPE-2022 NERC runs ----------------------------------------------------------------
def paired(gold_path, run_path):
    gold, run = hipe_tag_lists(gold_path), hipe_tag_lists(run_path)
    if [len(d) for d in gold] != [len(d) for d in run]:
        flat = [t for d in run for t in d]
        run, k = [], 0
        for d in gold:
            run.append(flat[k : k + len(d)])
            k += len(d)
    return gold, run


def test_the_31_nerc_runs():
    data = shared_data("test_the_31_nerc_runs")
    runs = nerc_runs(data)
    assert len(runs) == 31, [r.name for r, _ in runs]
    n = 0
    for run, gold in runs:
        y_true, y_pred = paired(gold, run)
        for fn, averages in (("precision_score", (None, "micro")), ("recall_score", (None, "micro")),
                             ("f1_score", AVERAGES)):
            for average in averages:
                n += same(fn, y_true, y_pred, average=average)
                mine = call(getattr(ours, fn), y_true, y_pred, average=average, mode="strict", scheme="IOB2")
                ref = call(
                    getattr(theirs, fn), y_true, y_pred, average=average, mode="strict", scheme=their_schemes.IOB2
                )
                assert mine == ref, (run.name, fn, average)
                n += 1
        n += same("classification_report", y_true, y_pred, digits=4)
        n += same("classification_report", y_true, y_pred, output_dict=True)
        n += same("classification_report", y_true, y_pred, mode="strict", digits=4)
        n += same("accuracy_score", y_true, y_pred)
        n += same("performance_measure", y_true, y_pred)
    assert n == 31 * 21


@pytest.mark.parametrize("seed", range(30))
def test_native_counts_equal_the_python_oracle(seed):
    """The library's reading (through ``_counts``) equals the pure-Python oracle, counts,
    warnings and errors alike, on odd tags of every kind."""
    rng = random.Random(7000 + seed)
    extra = ["E-PER", "S-LOC", "B", "I", "PER", "-", ".", ".PER", "B-PER-X", "O-LOC", "é-X", "B-é"]
    y_true = gen(rng, "BIES", extra=extra, max_len=15)
    y_pred = mutate(rng, y_true, "BIESUL")
    for suffix in (False, True):
        with warnings.catch_warnings(record=True) as native_w:
            warnings.simplefilter("always")
            native = ours._counts(y_true, y_pred, suffix, None)
        with warnings.catch_warnings(record=True) as py_w:
            warnings.simplefilter("always")
            python = oracle._py_counts(y_true, y_pred, suffix, None)
        assert native == python
        assert [str(w.message) for w in native_w] == [str(w.message) for w in py_w]
        flat = [t for s in y_true for t in s]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert ours.get_entities(y_true, suffix) == oracle.get_entities(y_true, suffix)
            assert ours.get_entities(flat, suffix) == oracle.get_entities(flat, suffix)
    for name in SCHEMES:
        prefixes = PREFIXES[name]
        t = gen(rng, prefixes, max_len=15)
        p = mutate(rng, t, prefixes)
        assert ours._counts(t, p, False, name) == oracle._py_counts(t, p, False, name)
        # Odd data: the same counts or the same error.
        outcome = lambda f: call(f, y_true, y_pred, False, name)[0]  # noqa: E731
        assert outcome(ours._counts) == outcome(oracle._py_counts)


def test_tags_seqeval_rejects_raise_its_errors_after_its_warnings():
    for args in (([["B-PER", "X", ""]], [["O", "O", "O"]], False, None), ([["B-PER", ""]], [["O", "O"]], True, None),
                 ([["O", "ZPER"]], [["O", "O"]], False, "IOB2"), ([["O", ""]], [["O", "O"]], False, "IOBES"),
                 ([["O"]], [["S-PER"]], False, "IOB2")):
        assert call(ours._counts, *args) == call(oracle._py_counts, *args)
    # Sequences that are not lists are read as lists; tags that are not str fail as in seqeval.
    y = [["B-PER", "O"]]
    assert ours.f1_score(tuple(y), y) == 1.0
    with pytest.raises(AttributeError):
        ours.f1_score([["B-PER", 5]], [["B-PER", "O"]])
    with pytest.raises(TypeError):
        ours.f1_score([["B-PER", None]], [["B-PER", "O"]], mode="strict", scheme="IOB2")
