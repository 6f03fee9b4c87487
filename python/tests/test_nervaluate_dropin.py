"""fairscore.nervaluate is a drop-in for nervaluate 1.2.1: the whole results dict (every
strategy, overall and per label, counts, P/R/F1, actual/possible and the indices), the reports
and the errors are nervaluate's, with every loader ("list", "conll", "dict", "default"), on the
31 HIPE-2022 NERC runs, on generated malformed tag sequences and on span dicts, for several
values of min_overlap_percentage. The module's docstring examples run here too.

nervaluate is installed by scripts/python_tests.sh; elsewhere these tests skip with a notice,
except under CI (CI or FAIRSCORE_REQUIRE_SHARED set), where its absence fails them."""

import dataclasses
import doctest
import random
import re

import pytest

import fairscore
from conftest import hipe_tag_lists, nerc_runs, required, shared_data
from fairscore import nervaluate as ours

try:
    import nervaluate as theirs
    from nervaluate import entities as their_entities
    from nervaluate import loaders as their_loaders
    from nervaluate import strategies as their_strategies
    from nervaluate import utils as their_utils
except ImportError:  # pragma: no cover - depends on the environment
    if required():
        raise
    pytest.skip("nervaluate is not installed: the drop-in comparisons are skipped", allow_module_level=True)

OVERLAPS = (1.0, 1, 25, 33.4, 50, 50.0, 66.7, 99.9, 100)


# --- comparing ------------------------------------------------------------------------------
def plain(x):
    """Results objects as (class name, fields), recursively, with the types of the numbers
    (nervaluate's P/R/F1 are the int 0 when undefined) and the order of dict keys."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, tuple((f.name, plain(getattr(x, f.name))) for f in dataclasses.fields(x)))
    if isinstance(x, dict):
        return ("dict", tuple((k, plain(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(plain(v) for v in x))
    if isinstance(x, float) and x != x:
        return "nan"
    return (type(x).__name__, x)


def message(e):
    """The exception's type and text; a set shown in the text sorted (the order of a set of
    strings varies between Python processes, for nervaluate too)."""
    text = re.sub(r"\{('[^{}]*')\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", str(e))
    return ("error", type(e).__name__, text)


def outcome(fn, *args, **kw):
    """The value (plain), or the exception's type and text."""
    try:
        return ("value", plain(fn(*args, **kw)))
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return message(e)


def evaluation(module, true, pred, tags, reports=False, **kw):
    """Everything an Evaluator gives: the loaded entities, evaluate(), the reports."""
    try:
        ev = module.Evaluator(true, pred, tags, **kw)
    except Exception as e:  # noqa: BLE001
        return message(e)
    out = [outcome(ev.evaluate), plain(ev.true), plain(ev.pred)]
    if reports:
        for mode in ("overall", "entities"):
            for scenario in ("strict", "partial", "ent_type", "exact"):
                out.append(outcome(ev.results_to_csv, mode=mode, scenario=scenario))
                out.append(outcome(ev.summary_report, mode=mode, scenario=scenario, digits=4))
                out.append(outcome(ev.summary_report_indices, mode=mode, scenario=scenario, colors=True))
        out.append(outcome(ev.summary_report))
        out.append(outcome(ev.summary_report_indices))
        out.append(outcome(ev.summary_report, mode="bad"))
        out.append(outcome(ev.summary_report, mode="entities", scenario="bad"))
        out.append(outcome(ev.results_to_csv, mode="entities", scenario="bad"))
        out.append(outcome(ev.summary_report_indices, mode="overall", scenario="bad"))
    return out


def same(true, pred, tags, reports=False, **kw):
    mine = evaluation(ours, true, pred, tags, reports, **kw)
    ref = evaluation(theirs, true, pred, tags, reports, **kw)
    assert mine == ref, f"fairscore {mine} != nervaluate {ref} on {true!r} / {pred!r}, tags={tags}, {kw}"
    return mine


def as_conll(docs):
    """Tag lists as a CoNLL string (`token<TAB>tag`, a blank line after each document)."""
    return "".join("".join(f"w{i}\t{t}\n" for i, t in enumerate(d)) + "\n" for d in docs)


def as_dicts(docs):
    return [[{"label": e.label, "start": e.start, "end": e.end} for e in d] for d in ours.ListLoader().load(docs)]


def labels_of(*sides):
    return sorted({e["label"] for side in sides for d in side for e in d})


# --- generated sequences --------------------------------------------------------------------
TYPES = ["PER", "LOC", "ORG"]


def gen_docs(rng, n_docs=6, max_len=12, prefixes="BI", extra=()):
    """Documents of tags (any order: I- without B-, type switches, lone I-), empty and all-O
    documents among them."""
    alphabet = ["O"] * 4 + [f"{p}-{t}" for p in prefixes for t in TYPES] + list(extra)
    docs = []
    for _ in range(n_docs):
        n = rng.randint(0, max_len)
        kind = rng.random()
        docs.append([] if kind < 0.08 else ["O"] * n if kind < 0.15 else [rng.choice(alphabet) for _ in range(n)])
    return docs


def mutate(rng, docs, prefixes="BI", extra=()):
    """A prediction: each tag kept, or replaced by another one (boundaries and types move)."""
    alphabet = ["O"] + [f"{p}-{t}" for p in prefixes for t in TYPES] + list(extra)
    return [[t if rng.random() < 0.6 else rng.choice(alphabet) for t in d] for d in docs]


TAG_SETS = (TYPES, ["PER", "LOC"], ["PER"], [], ["PER", "LOC", "ORG", "MISC"])


@pytest.mark.parametrize("seed", range(60))
def test_generated_tag_lists_with_every_loader(seed):
    rng = random.Random(seed)
    true = gen_docs(rng)
    pred = mutate(rng, true)
    tags = TAG_SETS[seed % len(TAG_SETS)]
    mo = OVERLAPS[seed % len(OVERLAPS)]
    r = same(true, pred, tags, loader="list", min_overlap_percentage=mo, reports=seed % 4 == 0)
    # (An empty document written as CoNLL merges with the next: no equality with "list" here.)
    same(as_conll(true), as_conll(pred), tags, loader="conll", min_overlap_percentage=mo)
    dt, dp = as_dicts(true), as_dicts(pred)
    assert same(dt, dp, tags, loader="dict", min_overlap_percentage=mo)[0] == r[0]
    same(true, pred, tags, min_overlap_percentage=mo)  # "default"
    same(as_conll(true), as_conll(pred), tags)
    same(dt, dp, tags)


@pytest.mark.parametrize("seed", range(40))
def test_odd_tags_errors_and_tags_outside_the_tag_list(seed):
    """E-/S- tags, bare prefixes and tags without prefix: errors where nervaluate raises them
    (a tag starting an entity must begin with B- or I-), continuations where it reads them as
    such."""
    rng = random.Random(1000 + seed)
    extra = ["E-PER", "S-LOC", "E-LOC", "B-", "I-", "B", "PER", "X-PER", "B-MISC", "I-MISC", "o"]
    true = gen_docs(rng, prefixes="BI", extra=extra if seed % 3 == 0 else ())
    pred = mutate(rng, true, prefixes="BIES", extra=extra)
    tags = [TYPES, ["PER", "MISC", ""], ["LOC"]][seed % 3]
    for mo in (1.0, 50, 100):
        same(true, pred, tags, loader="list", min_overlap_percentage=mo)
        same(as_conll(true), as_conll(pred), tags, loader="conll", min_overlap_percentage=mo)
    for docs in (true, pred):
        assert outcome(ours.collect_named_entities, [t for d in docs for t in d]) == outcome(
            their_utils.collect_named_entities, [t for d in docs for t in d]
        )
        assert outcome(ours.list_to_spans, docs) == outcome(their_utils.list_to_spans, docs)
        assert outcome(ours.conll_to_spans, as_conll(docs)) == outcome(their_utils.conll_to_spans, as_conll(docs))


def gen_spans(rng, n_docs=5, max_n=8, span=8):
    """Span dicts in any order, overlapping one another, nested, repeated, long."""
    docs = []
    for _ in range(n_docs):
        d = []
        for _ in range(rng.randint(0, max_n)):
            s = rng.randint(0, 30)
            d.append({"label": rng.choice(TYPES), "start": s, "end": s + rng.randint(0, span)})
        docs.append(d)
    return docs


def jitter(rng, docs):
    out = []
    for d in docs:
        e = []
        for x in d:
            r = rng.random()
            if r < 0.4:
                e.append(dict(x))
            elif r < 0.8:
                s = max(0, x["start"] + rng.randint(-3, 3))
                e.append({"label": rng.choice([x["label"]] + TYPES), "start": s, "end": s + rng.randint(0, 9)})
        for _ in range(rng.randint(0, 2)):
            s = rng.randint(0, 30)
            e.append({"label": rng.choice(TYPES), "start": s, "end": s + rng.randint(0, 5)})
        rng.shuffle(e)
        out.append(e)
    return out


@pytest.mark.parametrize("seed", range(60))
def test_overlapping_spans_and_min_overlap_percentage(seed):
    """Spans overlapping one another on both sides make every strategy's choices matter
    (ent_type's closest boundaries, the first overlapping gold entity, consumed entities)."""
    rng = random.Random(2000 + seed)
    true = gen_spans(rng, span=[3, 8, 150][seed % 3])
    pred = jitter(rng, true)
    for mo in OVERLAPS + (rng.uniform(1, 100),):
        same(true, pred, TYPES, loader="dict", min_overlap_percentage=mo, reports=mo == 50)


@pytest.mark.parametrize("seed", range(30))
def test_strategies_used_directly(seed):
    rng = random.Random(3000 + seed)
    true, pred = gen_spans(rng, n_docs=1)[0], jitter(rng, gen_spans(rng, n_docs=1))[0]
    for name in ("StrictEvaluation", "PartialEvaluation", "EntityTypeEvaluation", "ExactEvaluation"):
        for mo in (1.0, 40, 100):
            mine = getattr(ours, name)(mo).evaluate(
                [ours.Entity(**x) for x in true], [ours.Entity(**x) for x in pred], TYPES, seed
            )
            ref = getattr(their_strategies, name)(mo).evaluate(
                [their_entities.Entity(**x) for x in true], [their_entities.Entity(**x) for x in pred], TYPES, seed
            )
            assert plain(mine) == plain(ref), (name, mo)


# --- hand-made cases and errors -------------------------------------------------------------
CASES = [
    # (true, pred, tags, keywords)
    ([["O", "B-PER", "I-PER", "O", "B-LOC"]], [["O", "B-PER", "I-PER", "O", "B-ORG"]], TYPES, {}),
    ([["B-LOC", "B-PER", "I-PER"]], [["B-PER", "I-PER", "I-PER"]], TYPES, {}),  # ent_type: closest
    ([["I-PER", "I-PER", "I-LOC", "B-LOC", "I-PER"]], [["B-PER", "I-LOC", "O", "I-LOC", "I-LOC"]], TYPES, {}),
    ([[]], [[]], TYPES, {"loader": "list"}),
    ([[], []], [["B-PER"], []], TYPES, {"loader": "list"}),
    ([], [], TYPES, {"loader": "list"}),
    ([], [], TYPES, {"loader": "dict"}),
    ("", "", TYPES, {}),
    ("", "", TYPES, {"loader": "conll"}),
    ("   \n", "\n\n", TYPES, {"loader": "conll"}),
    ("a\tB-PER\n\n\n\nb\tI-PER\n", "a\tB-PER\n\n\n\nb\tO\n", TYPES, {}),
    ("a\tB-PER\n \nb\tI-PER\n\t\n", "a\tB-PER\nc\tI-PER\nb\tI-PER\n\n", TYPES, {}),
    ("a\tB-PER\tx\n", "a\tI-PER\n", TYPES, {}),
    ([[{"label": "PER", "start": 3, "end": 1}]], [[{"label": "PER", "start": 0, "end": 2}]], TYPES, {}),
    ([[{"label": "PER", "start": 3, "end": 2}]], [[{"label": "PER", "start": 2, "end": 3}]], TYPES, {}),
    ([[{"label": "PER", "start": True, "end": 2, "x": 1}]], [[{"label": "PER", "start": 1, "end": 2}]], TYPES, {}),
    ([["B-PER"]], [["B-PER"]], "PER", {}),  # tags as a string: substring tests
    ([["B-PE", "B-R"]], [["B-PE", "O"]], "PER", {}),
    ([["B-PER"]], [["B-PER"]], ("PER",), {}),
    ([["B-PER"]], [["B-PER"]], {"PER": 1}, {}),
    ([["B-PER"]], [["B-PER"]], [["PER"]], {}),  # unhashable tags
    # errors
    ([[]], [[]], TYPES, {}),  # the default loader looks at true[0][0]
    ([["O"]], [["O"], ["O"]], TYPES, {}),
    ([["O", "O"]], [["O"]], TYPES, {}),
    ([["O"], ["O", "O"]], [["O"], ["O"]], TYPES, {"loader": "list"}),
    ((("O",),), (("O",),), TYPES, {}),
    ([("O",)], [("O",)], TYPES, {"loader": "list"}),
    (None, None, TYPES, {}),
    (None, None, TYPES, {"loader": "list"}),
    ("a\tB-PER", [["B-PER"]], TYPES, {}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"loader": "nope"}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"loader": ["list"]}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"loader": "conll"}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"loader": "dict"}),
    ([["B-PER", 3]], [["B-PER", "O"]], TYPES, {}),
    ([["B-PER", "X", 3]], [["B-PER", "O", "O"]], TYPES, {}),
    ([["E-PER"]], [["O"]], TYPES, {}),
    ([["B-PER", "E-PER", "S-PER"]], [["O", "O", "O"]], TYPES, {}),
    ([["B-PER", "S-LOC"]], [["O", "O"]], TYPES, {}),
    ("a\tS-PER\n", "a\tO\n", TYPES, {}),
    ("a B-PER\n", "a\tO\n", TYPES, {}),
    ("a\tB-PER\na\n", "a\tO\nb\tO\n", TYPES, {}),
    ("a\tZZ\na\n", "a\tO\nb\tO\n", TYPES, {}),
    ("a\tB-PER\n\nb\tO\n", "a\tB-PER\n", TYPES, {}),
    ([[{"label": "PER", "start": 0}]], [[]], TYPES, {}),
    ([[{"label": 1, "start": 0, "end": 0}]], [[]], TYPES, {"loader": "dict"}),
    ([[{"label": "PER", "start": 0.0, "end": 0}]], [[]], TYPES, {"loader": "dict"}),
    ([[("PER", 0, 0)]], [[]], TYPES, {"loader": "dict"}),
    ([{"label": "PER", "start": 0, "end": 0}], [[]], TYPES, {"loader": "dict"}),
    ([[{"label": "PER", "start": 0, "end": 0}]], [[], []], TYPES, {"loader": "dict"}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"min_overlap_percentage": 0.5}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"min_overlap_percentage": 100.5}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"min_overlap_percentage": float("nan")}),
    ([["B-PER"]], [["B-PER"]], TYPES, {"min_overlap_percentage": "50"}),
    ([["B-PER"]], [["B-PER"]], None, {}),
    ([["B-PER", "I-PER"]], [["B-PER", "O"]], TYPES, {"min_overlap_percentage": 50}),
    ([["B-PER", "I-PER", "I-PER"]], [["B-PER", "O", "O"]], TYPES, {"min_overlap_percentage": 33.4}),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_hand_made_cases_and_errors(case):
    true, pred, tags, kw = CASES[case]
    same(true, pred, tags, reports=True, **kw)


def test_utilities():
    lists = ([[]], [[""]], [["a", "", "b"]], [["a", ""]], [["", "a"]], [["a", "", ""]], [["a", "x", "b"], ["x"]])
    for args in lists:
        assert outcome(ours.split_list, *args) == outcome(their_utils.split_list, *args)
    for doc in ("a\tB-PER\nb\tI-PER\n\nc\tO", "a\tB-PER\n", "", "a\tB-PER\n\n\nb\tI-LOC", "ab", "a\tX\nb\tI-X"):
        assert outcome(ours.conll_to_spans, doc) == outcome(their_utils.conll_to_spans, doc)
    for tokens in ([], ["O"], ["I-X", "X", "B-X", "PER"], ["B-PER", None], ["B-PER", 3], [3], ["O", 3]):
        assert outcome(ours.collect_named_entities, tokens) == outcome(their_utils.collect_named_entities, tokens)
    assert ours.find_overlap(range(1, 5), range(3, 9)) == their_utils.find_overlap(range(1, 5), range(3, 9))
    ent = {"label": "PER", "start": 0, "end": 1, "token_start": 0}
    assert list(ours.clean_entities(ent).items()) == list(their_utils.clean_entities(ent).items())


def test_result_objects_are_alike():
    for name, mod in (("Entity", their_entities), ("EvaluationResult", their_entities),
                      ("EvaluationIndices", their_entities)):
        mine, ref = getattr(ours, name), getattr(mod, name)
        assert [(f.name, f.default) for f in dataclasses.fields(mine)] == [
            (f.name, f.default) for f in dataclasses.fields(ref)
        ]
    assert repr(ours.Entity("PER", 0, 1)) == repr(their_entities.Entity("PER", 0, 1))
    assert repr(ours.EvaluationResult()) == repr(their_entities.EvaluationResult())
    assert repr(ours.EvaluationIndices()) == repr(their_entities.EvaluationIndices())
    assert hash(ours.Entity("PER", 0, 1)) == hash(their_entities.Entity("PER", 0, 1))
    assert ours.Entity("PER", 0, 1) == ours.Entity("PER", 0, 1) != ours.Entity("LOC", 0, 1)
    assert ours.EvaluationIndices(correct_indices=None).correct_indices == []
    for name in ("DataLoader", "ConllLoader", "ListLoader", "DictLoader"):
        assert hasattr(ours, name) and hasattr(their_loaders, name)
    with pytest.raises(TypeError):
        ours.EvaluationStrategy()
    with pytest.raises(TypeError):
        ours.DataLoader()
    for name in ("Evaluator", "collect_named_entities", "conll_to_spans", "list_to_spans", "split_list"):
        assert name in ours.__all__ and hasattr(theirs, name)
    assert fairscore.nervaluate is ours


def test_the_submodule_is_imported_on_first_use():
    import subprocess
    import sys

    code = ("import sys, fairscore; a = 'fairscore.nervaluate' in sys.modules; "
            "from fairscore import *; print(a, fairscore.nervaluate.Evaluator.__module__, nervaluate.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "fairscore.nervaluate", "fairscore.nervaluate"]


def test_csv_file(tmp_path):
    true, pred = [["B-PER", "I-PER", "O"]], [["B-PER", "O", "B-LOC"]]
    for mod, name in ((ours, "a.csv"), (theirs, "b.csv")):
        assert mod.Evaluator(true, pred, TYPES).results_to_csv(mode="entities", file_path=tmp_path / name) is None
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


def test_docstring_examples():
    from fairscore import _nervaluate_io

    failed, attempted = doctest.testmod(ours, optionflags=doctest.ELLIPSIS)
    assert attempted >= 10 and failed == 0
    failed, attempted = doctest.testmod(_nervaluate_io, optionflags=doctest.ELLIPSIS)
    assert attempted >= 10 and failed == 0


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


def as_iob(docs):
    """IOBES tags as IOB2 (S- as B-, E- as I-): 10 of the runs are IOBES, which nervaluate
    refuses (a tag starting an entity must begin with B- or I-)."""
    return [[("B-" + t[2:]) if t[:2] == "S-" else ("I-" + t[2:]) if t[:2] == "E-" else t for t in d] for d in docs]


def test_the_31_nerc_runs():
    """Every run with every loader; nervaluate itself (slow: quadratic in the entities of a
    document) runs on the tag lists of every run and on the other loaders of every third."""
    data = shared_data("test_the_31_nerc_runs")
    runs = nerc_runs(data)
    assert len(runs) == 31, [r.name for r, _ in runs]
    accepted = refused = 0
    for k, (run, gold) in enumerate(runs):
        y_true, y_pred = paired(gold, run)
        labels = sorted({t[2:] for d in y_true + y_pred for t in d if t != "O"})
        # As they are: the same results, or the same error (the IOBES runs).
        r = same(y_true, y_pred, labels, loader="list")
        if r[0] == "error":
            assert r[1] == "ValueError" and r[2].startswith("Invalid tag format: S-"), (run.name, r)
            refused += 1
            same(as_conll(y_true), as_conll(y_pred), labels, loader="conll")
            y_pred = as_iob(y_pred)
            r = same(y_true, y_pred, labels, loader="list")
        else:
            accepted += 1
        assert r[0][0] == "value", (run.name, r[0])
        inputs = {"conll": (as_conll(y_true), as_conll(y_pred)), "dict": (as_dicts(y_true), as_dicts(y_pred))}
        for loader, (t, p) in inputs.items():
            if k % 3 == 0:
                assert same(t, p, labels, loader=loader)[0] == r[0], (run.name, loader)
            else:  # nervaluate gives the same with every loader on these documents (none empty)
                assert evaluation(ours, t, p, labels, loader=loader)[0] == r[0], (run.name, loader)
        if k % 3 == 1:  # a tag list that leaves one label out, and a stricter overlap
            same(y_true, y_pred, labels[1:], loader="list", min_overlap_percentage=50)
    assert (accepted, refused) == (21, 10)


def test_the_stub_is_in_step():
    """nervaluate.pyi declares the names of __all__ and, for each function and method, the
    parameters of the implementation."""
    import ast
    import inspect
    from pathlib import Path

    stub = ast.parse(Path(ours.__file__).with_suffix(".pyi").read_text(encoding="utf-8"))

    def params(fn):
        a = fn.args
        return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]

    declared = {}
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            declared[node.name] = params(node)
        elif isinstance(node, ast.ClassDef):
            declared[node.name] = {n.name: params(n) for n in node.body if isinstance(n, ast.FunctionDef)}
    assert sorted(declared) == sorted(ours.__all__)
    for name, decl in declared.items():
        obj = getattr(ours, name)
        if isinstance(decl, list):
            assert decl == list(inspect.signature(obj).parameters), name
            continue
        methods = {m for m in dir(obj) if not m.startswith("_") and callable(getattr(obj, m))}
        assert methods <= set(decl), (name, methods - set(decl))
        for method, ps in decl.items():
            assert ps == list(inspect.signature(getattr(obj, method)).parameters), (name, method)
