"""fairscore.nervaluate's matching, done by the library (``matching::attribution`` through
``_nervaluate_document``), against the pure-Python oracle it replaced
(``oracles/nervaluate_matching.py``, nervaluate 1.2.1's rules): random spans overlapping one
another, degenerate ones (``end < start``, length 0) and offsets near the ends of 64 bits,
where the overlap share needs Python's correctly rounded integer division; one document's
overall and per-label outcomes (the grouping ``Evaluator.evaluate`` did in Python before). Inputs the library
does not take (offsets beyond 64 bits, non-integer offsets, non-``str`` labels, a threshold
that is not a double) are a ValueError."""

import dataclasses
import random
from fractions import Fraction

import pytest

from fairscore import nervaluate as ours
from oracles import nervaluate_matching as oracle

KINDS = ("strict", "partial", "ent_type", "exact")
LABELS = ("PER", "LOC", "ORG")
I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def plain(pair):
    res, ix = pair
    return dataclasses.astuple(res), dataclasses.astuple(ix)


def outcome(fn, *args):
    try:
        return "ok", plain(fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return type(e).__name__, str(e)


def clamp(x):
    return max(I64_MIN, min(I64_MAX, x))


def gen(rng, n, huge):
    """``n`` entities: mostly short and overlapping, some degenerate; ``huge``: placed near
    one of a few 64-bit landmarks, some longer than 2**53."""
    out = []
    base = rng.choice([0, 2**62, I64_MIN, I64_MAX - 2**56, -(2**60)]) if huge else 0
    for _ in range(n):
        start = base + rng.randint(0, 2**55 if huge else 30)
        r = rng.random()
        if r < 0.1:
            length = rng.choice([0, -1, -3])  # end = start - 1 (length 0), end < start
        elif huge and r < 0.5:
            length = 2**53 + rng.randint(-5, 2**54)
        else:
            length = rng.randint(1, 8)
        out.append(ours.Entity(rng.choice(LABELS), clamp(start), clamp(start + length - 1)))
    return out


def jitter(rng, golds, huge):
    preds = []
    for g in golds:
        if rng.random() < 0.7:
            d = 2**52 if huge and rng.random() < 0.5 else 2
            s, e = g.start + rng.randint(-d, d), g.end + rng.randint(-d, d)
            label = g.label if rng.random() < 0.7 else rng.choice(LABELS)
            preds.append(ours.Entity(label, clamp(s), clamp(e)))
    preds += gen(rng, rng.randint(0, 4), huge)
    rng.shuffle(preds)
    return preds


@pytest.mark.parametrize("seed", range(150))
def test_native_matching_equals_the_python_oracle(seed):
    rng = random.Random(5000 + seed)
    huge = seed % 3 == 2
    golds = gen(rng, rng.randint(0, 25), huge)
    preds = jitter(rng, golds, huge)
    if seed % 5 == 0:  # well formed: the library's window and the oracle's bisect both apply
        golds = [g for g in golds if g.start <= g.end]
        preds = [p for p in preds if p.start <= p.end]
    for min_pct in (1.0, 1, True, 33.4, 50, 99.99999999999999, 100.0, rng.uniform(1, 100), 0.0, -5.0,
                    float("nan")):
        for kind in KINDS:
            mine = outcome(ours._match, kind, golds, preds, min_pct, seed)
            theirs = outcome(oracle._match, kind, golds, preds, min_pct, seed)
            assert mine == theirs, (kind, min_pct)


@pytest.mark.parametrize("seed", range(80))
def test_a_document_overall_and_per_label_equals_the_python_oracle(seed):
    """Each label's entities attributed on their own (a predicted entity that takes a gold
    entity of another label overall takes one of its own label, or none, in its label's
    pass): labels evaluated (``allowed``: a set, or a str as nervaluate's substring test) and
    labels with results of their own (``used``) vary; indices count among each pass's
    entities."""
    rng = random.Random(7000 + seed)
    golds = gen(rng, rng.randint(0, 25), huge=False)
    preds = jitter(rng, golds, huge=False)
    allowed = rng.choice([set(LABELS), {"PER", "LOC"}, {"ORG"}, "PERLOC", set()])
    used = {t for t in LABELS if t in allowed and rng.random() < 0.8}
    for min_pct in (1.0, 50, 100.0, rng.uniform(1, 100)):
        mine = ours._document(golds, preds, allowed, used, min_pct, seed)
        theirs = oracle.document(golds, preds, allowed, used, min_pct, seed)
        assert mine == theirs, min_pct
    assert [t for t, _ in mine[1]] == list(dict.fromkeys(e.label for e in golds + preds if e.label in used))


def test_per_label_passes_can_differ_from_the_overall_one():
    # gold LOC 0-0, PER 1-2; predicted PER 0-2. Overall, strict: the PER takes no gold entity
    # with its offsets, and the first it overlaps, LOC 0-0 -> incorrect, PER 1-2 missed. In the
    # PER pass the LOC is not there: the PER takes PER 1-2 -> incorrect, nothing missed.
    golds = [ours.Entity("LOC", 0, 0), ours.Entity("PER", 1, 2)]
    preds = [ours.Entity("PER", 0, 2)]
    overall, per = ours._document(golds, preds, {"PER", "LOC"}, {"PER", "LOC"}, 1.0, 0)
    per = dict(per)
    assert overall[0][:5] == (0, 1, 0, 1, 0)
    assert per["PER"][0][:5] == (0, 1, 0, 0, 0)
    assert per["LOC"][0][:5] == (0, 0, 0, 1, 0)


def test_the_overlap_share_is_rounded_as_python_divides():
    # (2**54 + 1) / 3: rounding the numerator to a double first would give another quotient,
    # and a threshold between the two tells them apart.
    g = ours.Entity("PER", 0, 3 * 2**60 - 1)
    for shared in (2**54 + 1, 2**60 + 7, 3 * 2**59 + 1):
        p = ours.Entity("PER", 0, shared - 1)
        share = shared / (3 * 2**60) * 100.0
        for min_pct in (share, share + share * 2**-52, share - share * 2**-52):
            for kind in KINDS:
                args = (kind, [g], [p], min_pct, 0)
                assert plain(ours._match(*args)) == plain(oracle._match(*args)), (shared, min_pct)


def test_a_gold_entity_of_length_0_reached_across_raises_as_nervaluate():
    golds, preds = [ours.Entity("PER", 3, 2)], [ours.Entity("PER", 2, 3)]
    for kind in KINDS:
        assert outcome(ours._match, kind, golds, preds, 1.0, 0) == ("ZeroDivisionError", "division by zero")
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        ours.Evaluator([[{"label": "PER", "start": 3, "end": 2}]], [[{"label": "PER", "start": 2, "end": 3}]],
                       ["PER"]).evaluate()


@pytest.mark.parametrize(
    "entity",
    [
        ours.Entity("PER", 2**63, 2**63),
        ours.Entity("PER", 0, -(2**63) - 1),
        ours.Entity("PER", 0, 10**30),
        ours.Entity("PER", 0.0, 1),
        ours.Entity("PER", 0, "1"),
        ours.Entity(None, 0, 1),
        ours.Entity(1, 0, 1),
    ],
)
def test_what_the_library_does_not_take_is_a_value_error(entity):
    other = [ours.Entity("PER", 0, 1)]
    for golds, preds in (([entity], other), (other, [entity])):
        with pytest.raises(ValueError, match="64 bits|-2\\*\\*63"):
            ours.StrictEvaluation().evaluate(golds, preds, ["PER"])
    big = [[{"label": "PER", "start": 0, "end": 2**64}]]
    with pytest.raises(ValueError, match="-2\\*\\*63"):
        ours.Evaluator(big, big, ["PER"]).evaluate()


def test_thresholds_of_other_number_types():
    golds, preds = [ours.Entity("PER", 0, 2)], [ours.Entity("PER", 0, 0)]
    for min_pct in (Fraction(100, 3), Fraction(50)):
        if float(min_pct) == min_pct:
            assert plain(ours._match("partial", golds, preds, min_pct, 0)) == plain(
                oracle._match("partial", golds, preds, min_pct, 0))
        else:
            with pytest.raises(ValueError, match="needs a float"):
                ours._match("partial", golds, preds, min_pct, 0)


def test_a_strategy_of_ones_own_is_still_called():
    class Everything(ours.EvaluationStrategy):
        def evaluate(self, true_entities, pred_entities, tags, instance_index=0):
            return ours.EvaluationResult(correct=len(pred_entities)), ours.EvaluationIndices()

    ev = ours.Evaluator([["B-PER", "O"]], [["B-LOC", "B-PER"]], ["PER", "LOC"])
    ev.strategies["strict"] = Everything()
    r = ev.evaluate()
    assert r["overall"]["strict"].correct == 2 and r["overall"]["exact"].correct == 1
    assert r["entities"]["PER"]["strict"].correct == 1
