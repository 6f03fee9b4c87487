"""nervaluate 1.2.1's matching in pure Python: the oracle the native attribution (the
library's ``matching::attribution``, reached through ``fairscore.nervaluate``) is tested
against (python/tests/test_nervaluate_native.py). It was ``fairscore.nervaluate``'s own
matching before the library had one; docs/nervaluate.md describes the rules. Results are
``fairscore.nervaluate``'s classes."""

from bisect import bisect_left, bisect_right
from typing import List

from fairscore.nervaluate import Entity, EvaluationIndices, EvaluationResult


def _overlaps_enough(pred: Entity, true: Entity, min_pct: float) -> bool:
    """At least ``min_pct`` % of the gold entity's tokens are in the predicted entity."""
    if pred.start > true.end or pred.end < true.start:
        return 0.0 >= min_pct  # 0 %: False, as min_pct is at least 1 (unless set afterwards)
    shared = min(pred.end, true.end) - max(pred.start, true.start) + 1
    return (shared / (true.end - true.start + 1)) * 100.0 >= min_pct


def _match(kind: str, golds: List[Entity], preds: List[Entity], min_pct: float, doc: int):
    """One document under one strategy. Each predicted entity, in order, takes one gold
    entity not taken yet: strict/exact/partial the first one with its offsets (strict: and
    label) -> correct, else the first one it overlaps enough -> incorrect (partial: partial);
    ent_type among those it overlaps enough the closest one of its label -> correct, else the
    first one of another label -> incorrect. Nothing -> spurious; gold entities left: missed."""
    res, ix = EvaluationResult(), EvaluationIndices()
    taken = [False] * len(golds)
    near = _candidates(golds, preds) if min_pct > 0 else None
    every = list(range(len(golds)))
    for j, p in enumerate(preds):
        hit = alt = None
        cands = every if near is None else near(p)
        if kind == "ent_type":
            best = None
            for i in cands:
                g = golds[i]
                if taken[i] or not _overlaps_enough(p, g, min_pct):
                    continue
                if p.label == g.label:
                    d = abs(p.start - g.start) + abs(p.end - g.end)
                    if best is None or d < best:
                        hit, best = i, d
                elif alt is None:
                    alt = i
        elif kind == "partial":
            for i in cands:
                g = golds[i]
                if taken[i] or not _overlaps_enough(p, g, min_pct):
                    continue
                if p.start == g.start and p.end == g.end:
                    hit = i
                    break
                if alt is None:
                    alt = i
        else:
            for i in cands:
                g = golds[i]
                if taken[i]:
                    continue
                if p.start == g.start and p.end == g.end and (kind == "exact" or p.label == g.label):
                    hit = i
                    break
                if _overlaps_enough(p, g, min_pct) and alt is None:
                    alt = i
        if hit is not None:
            taken[hit] = True
            res.correct += 1
            ix.correct_indices.append((doc, j))
        elif alt is not None:
            taken[alt] = True
            if kind == "partial":
                res.partial += 1
                ix.partial_indices.append((doc, j))
            else:
                res.incorrect += 1
                ix.incorrect_indices.append((doc, j))
        else:
            res.spurious += 1
            ix.spurious_indices.append((doc, j))
    for i, t in enumerate(taken):
        if not t:
            res.missed += 1
            ix.missed_indices.append((doc, i))
    res.compute_metrics(partial_or_type=kind in ("partial", "ent_type"))
    return res, ix


def _candidates(golds: List[Entity], preds: List[Entity]):
    """For larger documents whose entities all have int offsets, start <= end: a function
    giving, in list order, the gold entities a predicted entity can overlap (the others
    neither overlap it nor have its offsets, so skipping them changes nothing); None: try
    them all."""
    if len(golds) * len(preds) < 64:
        return None
    for side in (golds, preds):
        for e in side:
            if not (isinstance(e.start, int) and isinstance(e.end, int) and e.start <= e.end):
                return None
    order = sorted(range(len(golds)), key=lambda i: golds[i].start)
    starts = [golds[i].start for i in order]
    longest = max(e.end - e.start for e in golds)

    def near(p: Entity) -> List[int]:
        lo = bisect_left(starts, p.start - longest)
        hi = bisect_right(starts, p.end, lo)
        return sorted(order[lo:hi])

    return near


KINDS = ("strict", "partial", "ent_type", "exact")  # the order of _document's outcomes


def _outcome(kind: str, golds: List[Entity], preds: List[Entity], min_pct: float, doc):
    """``_match`` as a tuple (counts, then index lists), None where it divides by zero."""
    try:
        res, ix = _match(kind, golds, preds, min_pct, doc)
    except ZeroDivisionError:
        return None
    return (res.correct, res.incorrect, res.partial, res.missed, res.spurious, ix.correct_indices,
            ix.incorrect_indices, ix.partial_indices, ix.missed_indices, ix.spurious_indices)


def document(golds: List[Entity], preds: List[Entity], allowed, used, min_pct: float, doc):
    """nervaluate's ``Evaluator.evaluate`` on one document, as ``fairscore.nervaluate._document``
    gives it: the four strategies over the entities whose label is ``in allowed``, then, for each
    label ``in used`` that the document has (in order of appearance, gold first), over that
    label's entities alone. It was ``Evaluator.evaluate``'s own grouping before the library
    had it."""
    golds = [e for e in golds if e.label in allowed]
    preds = [e for e in preds if e.label in allowed]
    by_label = {}
    for side, ents in ((0, golds), (1, preds)):
        for e in ents:
            if e.label in used:
                by_label.setdefault(e.label, ([], []))[side].append(e)
    overall = [_outcome(k, golds, preds, min_pct, doc) for k in KINDS]
    per = [(t, [_outcome(k, g, p, min_pct, doc) for k in KINDS]) for t, (g, p) in by_label.items()]
    return overall, per
