"""Scores straight from a model's label ids: ``compute_metrics`` of a Hugging Face ``Trainer``
in one call.

The boilerplate of token classification (argmax the logits, drop the positions whose label
id is the ignore index ``-100`` — sub-word pieces, special tokens, padding —, map ids to tags
with ``id2label``, call seqeval) is done natively: the id grids cross into Rust once as bytes,
no tag string is built.

>>> import fairscore
>>> id2label = {0: "O", 1: "B-PER", 2: "I-PER"}
>>> label_ids = [[-100, 1, 2, 0, -100], [-100, 0, 1, -100, -100]]
>>> predictions = [[0, 1, 2, 0, 0], [0, 0, 0, 0, 0]]
>>> r = fairscore.from_ids(predictions, label_ids, id2label)
>>> sorted(r)
['PER', 'overall_accuracy', 'overall_f1', 'overall_precision', 'overall_recall']
>>> r["overall_precision"], r["overall_recall"], int(r["PER"]["number"])
(1.0, 0.5, 2)
"""

import sys
from array import array

from . import seqeval as _seqeval
from ._fairscore import _ids_counts, _ids_tags

__all__ = ["from_ids", "tags_from_ids"]


def _argmax(row):
    return max(range(len(row)), key=row.__getitem__)


def _grid(values, name):
    """(rows, cols, int64 little-endian bytes) of a 2-d grid of ids, or of the argmax over the
    last axis of a 3-d grid of scores (logits); NumPy arrays (or anything with
    ``__array__``, as torch tensors on the CPU) and lists of lists (rows may differ in
    length: they are padded, and the padding is ignored)."""
    if hasattr(values, "__array__") and not isinstance(values, (list, tuple)):
        import numpy as np

        a = np.asarray(values)
        if a.ndim == 3:
            a = a.argmax(axis=-1)
        if a.ndim != 2:
            raise ValueError(
                f"{name}: expected a 2-d array of label ids or a 3-d array of scores, got {a.ndim} dimensions"
            )
        if a.dtype.kind not in "iu":
            raise TypeError(f"{name}: expected integer label ids, got dtype {a.dtype}")
        if a.dtype.kind == "u" and a.dtype.itemsize >= 8 and a.size and a.max() > _I64_MAX:
            # uint64 ids past int64: no label id (id2label's keys are int64), and never to
            # be wrapped round (2**64 - 100 would become the ignore index -100).
            return [[int(x) for x in r] for r in a.tolist()]
        return a.shape[0], a.shape[1], np.ascontiguousarray(a, dtype="<i8").tobytes()
    rows = [list(r) for r in values]
    if any(hasattr(r[0], "__len__") for r in rows if r):
        rows = [[_argmax(v) for v in r] for r in rows]
    return rows


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


def _fits(row):
    return not row or (_I64_MIN <= min(row) and max(row) <= _I64_MAX)


def _out_of_range(p, g, ignore_index):
    """The ValueError of the first id (row-major, gold before prediction) outside int64 at a
    scored position: no id2label key can be it."""
    if all(_fits(r) for r in g) and all(_fits(r) for r in p):
        return None
    for k, (a, b) in enumerate(zip(p, g)):
        for j, gid in enumerate(b):
            if not _I64_MIN <= gid <= _I64_MAX:
                return ValueError(
                    f"label_ids[{k}][{j}]: label id {gid} is not in id2label (nor the ignore index {ignore_index})"
                )
            if gid == ignore_index:
                continue
            pid = a[j]
            if not _I64_MIN <= pid <= _I64_MAX:
                return ValueError(
                    f"predictions[{k}][{j}]: label id {pid} is not in id2label (nor the ignore index {ignore_index})"
                )
    return None


def _pair(predictions, label_ids, ignore_index):
    """Both grids as (cols, pred bytes, gold bytes) of one shape."""
    p = _grid(predictions, "predictions")
    g = _grid(label_ids, "label_ids")
    if isinstance(p, list) or isinstance(g, list):
        if not isinstance(p, list):
            p = _rows_of(p)
        if not isinstance(g, list):
            g = _rows_of(g)
        if len(p) != len(g):
            raise ValueError(f"predictions has {len(p)} rows, label_ids {len(g)}")
        width = max((len(r) for r in g), default=0)
        for k, (a, b) in enumerate(zip(p, g)):
            if len(a) < len(b):
                raise ValueError(f"row {k}: predictions has {len(a)} ids, label_ids {len(b)}")
        err = _out_of_range(p, g, ignore_index)
        if err is not None:
            raise err
        flat_p, flat_g = array("q"), array("q")
        for a, b in zip(p, g):
            flat_g.extend(b)
            flat_g.extend([ignore_index] * (width - len(b)))
            a = a[: len(b)]
            if not _fits(a):  # only where the gold is ignored (checked above): dropped
                a = [x if _I64_MIN <= x <= _I64_MAX else 0 for x in a]
            flat_p.extend(a)
            flat_p.extend([0] * (width - len(b)))
        if sys.byteorder == "big":  # pragma: no cover - the bytes are little-endian
            flat_p.byteswap()
            flat_g.byteswap()
        return width, flat_p.tobytes(), flat_g.tobytes()
    (pr, pc, pb), (gr, gc, gb) = p, g
    if (pr, pc) != (gr, gc):
        raise ValueError(f"predictions has shape ({pr}, {pc}), label_ids ({gr}, {gc})")
    return gc, pb, gb


def _rows_of(grid):
    rows, cols, data = grid
    a = array("q")
    a.frombytes(data)
    if sys.byteorder == "big":  # pragma: no cover
        a.byteswap()
    return [list(a[r * cols : (r + 1) * cols]) for r in range(rows)]


def tags_from_ids(predictions, label_ids, id2label, *, ignore_index=-100):
    """``(y_true, y_pred)``: the tag lists the ``compute_metrics`` boilerplate builds.

    >>> tags_from_ids([[0, 1, 0]], [[-100, 1, 2]], ["O", "B-PER", "I-PER"])
    ([['B-PER', 'I-PER']], [['B-PER', 'O']])
    """
    cols, pb, gb = _pair(predictions, label_ids, ignore_index)
    return _ids_tags(pb, gb, cols, id2label, ignore_index)


def from_ids(predictions, label_ids, id2label, *, ignore_index=-100, suffix=False, scheme=None,
             mode=None, zero_division="warn", regimes=False):
    """Hugging Face's seqeval metric (``evaluate.load("seqeval")``) from label ids: per type
    ``precision``, ``recall``, ``f1``, ``number``, then ``overall_precision``,
    ``overall_recall``, ``overall_f1``, ``overall_accuracy`` — the same numbers, computed
    natively.

    ``predictions`` are label ids (rows × tokens) or scores (rows × tokens × labels, argmaxed);
    ``label_ids`` the gold ids, ``ignore_index`` (default ``-100``) where no tag is scored;
    ``id2label`` a dict (``model.config.id2label``) or a list. ``suffix``, ``scheme``,
    ``mode`` and ``zero_division`` are seqeval's. With ``regimes=True`` the result also has
    fairscore's regimes (:func:`fairscore.evaluate`: ``strict``, ``exact``, ``partial``,
    ``ent_type`` as the HIPE scorer counts them, and ``fair``) as ``{"precision", "recall",
    "f1"}`` of all types, under those keys.

    In a ``Trainer``::

        def compute_metrics(p):
            return fairscore.from_ids(p.predictions, p.label_ids, model.config.id2label)
    """
    cols, pb, gb = _pair(predictions, label_ids, ignore_index)
    name = None
    if mode == "strict" and scheme is not None:
        name = _seqeval._scheme_name(scheme)
    r = None
    if mode != "strict" or name is not None:
        r = _ids_counts(pb, gb, cols, id2label, ignore_index, bool(suffix), name)
    tags = None
    if r is None or regimes:
        tags = _ids_tags(pb, gb, cols, id2label, ignore_index)
    if r is None:  # strict mode with the scheme detected, or tags seqeval rejects
        y_true, y_pred = tags
        out = hf_scores(y_true, y_pred, suffix=suffix, scheme=scheme, mode=mode,
                        zero_division=zero_division)
    else:
        (names, tp, npred, ntrue, odd), tokens = r
        import warnings

        for tag in odd:
            warnings.warn("{} seems not to be NE tag.".format(tag), stacklevel=2)
        out = _hf_dict((names, tp, npred, ntrue), tokens[0] / tokens[1] if tokens[1] else None,
                       zero_division)
    if regimes:
        out.update(regime_scores(*tags))
    return out


def _hf_dict(counts, accuracy, zero_division):
    """HF seqeval's result from seqeval counts (with the warnings of the report it reads)."""
    report = _seqeval._report_dict(*_seqeval._report_rows(counts, zero_division))
    if accuracy is None:  # no token: seqeval's accuracy_score divides by zero
        raise ZeroDivisionError("division by zero")
    return _hf_from_report(report, accuracy)


def _hf_from_report(report, accuracy):
    report.pop("macro avg")
    report.pop("weighted avg")
    micro = report.pop("micro avg")
    out = {
        n: {"precision": v["precision"], "recall": v["recall"], "f1": v["f1-score"], "number": v["support"]}
        for n, v in report.items()
    }
    out["overall_precision"] = micro["precision"]
    out["overall_recall"] = micro["recall"]
    out["overall_f1"] = micro["f1-score"]
    out["overall_accuracy"] = accuracy
    return out


def hf_scores(y_true, y_pred, *, suffix=False, scheme=None, mode=None, sample_weight=None,
              zero_division="warn"):
    """Hugging Face's seqeval metric on tag lists (what the metric module computes)."""
    report = _seqeval.classification_report(y_true, y_pred, suffix=suffix, output_dict=True,
                                            scheme=scheme, mode=mode, sample_weight=sample_weight,
                                            zero_division=zero_division)
    return _hf_from_report(report, _seqeval.accuracy_score(y_true, y_pred))


def regime_scores(y_true, y_pred):
    """fairscore's regimes of all types: ``{regime: {"precision", "recall", "f1"}}``."""
    from ._fairscore import evaluate

    e = evaluate(y_true, y_pred)
    return {
        regime: {"precision": rows["ALL"]["P"], "recall": rows["ALL"]["R"], "f1": rows["ALL"]["F1"]}
        for regime, rows in e.items()
        if "ALL" in rows
    }
