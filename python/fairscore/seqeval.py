"""A drop-in for ``seqeval.metrics`` (seqeval 1.2.2): ``from fairscore import seqeval as metrics``.

The functions, signatures, numbers, report text and warnings are seqeval 1.2.2's, in its
default (conlleval-like) mode and in its strict mode with a scheme (``IOB1``, ``IOB2``,
``IOE1``, ``IOE2``, ``IOBES``, ``BILOU``; seqeval's scheme classes, these module's classes of
the same names, or the names as strings). docs/seqeval.md describes the behaviour reproduced.

Entities are read and counted per type by the library (``spans::seqeval``, through
:func:`_counts` and :func:`get_entities`); the averages, zero-division handling, warnings and
the report are computed here as seqeval computes them (NumPy's summation order included),
without NumPy or scikit-learn. python/tests/oracles/seqeval_reading.py is the pure-Python
reading the native one is tested against.
"""

import sys
import warnings

__all__ = [
    "BILOU",
    "IOB1",
    "IOB2",
    "IOBES",
    "IOE1",
    "IOE2",
    "UndefinedMetricWarning",
    "accuracy_score",
    "classification_report",
    "f1_score",
    "get_entities",
    "performance_measure",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]

class UndefinedMetricWarning(UserWarning):
    """Warning used when a metric is ill-defined (as scikit-learn's, which seqeval uses)."""


def _undefined_metric_warning():
    """scikit-learn's class once it is imported (so that filters written for seqeval keep
    working), else this module's: importing scikit-learn here would take seconds."""
    sk = sys.modules.get("sklearn.exceptions")
    return getattr(sk, "UndefinedMetricWarning", UndefinedMetricWarning)


# --- schemes --------------------------------------------------------------------------------
_SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")
_ANY = "IOBESUL"  # the prefixes of the strict mode


class _Scheme:
    """A tagging scheme, named as seqeval's class of the same name."""


class IOB1(_Scheme):
    pass


class IOE1(_Scheme):
    pass


class IOB2(_Scheme):
    pass


class IOE2(_Scheme):
    pass


class IOBES(_Scheme):
    pass


class BILOU(_Scheme):
    pass


def _known_scheme(scheme):
    """The name of a scheme given as a known name or a class of a known name, else None."""
    if isinstance(scheme, str):
        return scheme if scheme in _SCHEMES else None
    if isinstance(scheme, type) and scheme.__name__ in _SCHEMES:
        return scheme.__name__
    return None


def _scheme_name(scheme):
    name = scheme if isinstance(scheme, str) else getattr(scheme, "__name__", None)
    if name not in _SCHEMES:
        raise ValueError(
            f"scheme {scheme!r}: expected one of {', '.join(_SCHEMES)} (a name or seqeval's class)"
        )
    return name


# --- reading tags ---------------------------------------------------------------------------
def _check_consistent_length(y_true, y_pred):
    len_true = list(map(len, y_true))
    len_pred = list(map(len, y_pred))
    if not set(map(type, y_true)) | set(map(type, y_pred)) == {list}:
        raise TypeError("Found input variables without list of list.")
    if len(y_true) != len(y_pred) or len_true != len_pred:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples:\n{}\n{}".format(len_true, len_pred)
        )


def get_entities(seq, suffix=False):
    """seqeval's ``get_entities``: (type, start, end) of the chunks of a tag list or of a list
    of tag lists (read as one list with ``O`` after each), read natively.

    >>> get_entities(["B-PER", "I-PER", "O", "S-LOC"])
    [('PER', 0, 1), ('LOC', 3, 3)]
    """
    seqs = seq if any(isinstance(s, list) for s in seq) else [seq]
    r = _native_entities(seqs, bool(suffix))
    if r is None:
        _foreign(seqs, suffix, False)
        r = _native_entities([list(s) for s in seqs], bool(suffix))
    entities, raised, odd = r
    _raise(raised, odd)
    return entities


def _auto_detect(y_true, suffix):
    prefixes = set()
    for seq in y_true:
        for token in seq:
            p = token[-1] if suffix else token[0]
            if p not in _ANY:
                raise ValueError("This scheme is not supported: {}".format(token))
            prefixes.add(p)
    p = frozenset(prefixes)
    for name, allowed in (
        ("IOB2", ["IOB", "IB", "BO", "B"]),
        ("IOE2", ["IOE", "IE", "EO", "E"]),
        ("IOBES", ["IOBES", "IBES", "IOBE", "OBES", "IBE", "BES", "OBE", "BE", "S"]),
        ("BILOU", ["IOBLU", "IBLU", "IOBL", "OBLU", "IBL", "BLU", "OBL", "BL", "U"]),
    ):
        if p in {frozenset(a) for a in allowed}:
            return name
    raise ValueError(
        "This scheme is not supported: {}".format("{" + ", ".join(sorted(prefixes)) + "}" if prefixes else "set()")
    )


from ._fairscore import _seqeval_counts as _native_counts  # noqa: E402
from ._fairscore import _seqeval_entities as _native_entities  # noqa: E402
from ._fairscore import _seqeval_tokens as _native_tokens  # noqa: E402

_EXCEPTIONS = {"IndexError": IndexError, "KeyError": KeyError, "ValueError": ValueError}


def _raise(raised, odd):
    """seqeval's warnings about the tags ``odd``, then the exception ``raised`` (name and
    argument, as the library reports a tag seqeval rejects), if any."""
    for tag in odd:
        warnings.warn("{} seems not to be NE tag.".format(tag), stacklevel=5)
    if raised is not None:
        kind, arg = raised[0], raised[1]
        raise _EXCEPTIONS[kind](arg)


def _foreign(seqs, suffix, strict):
    """Input the native reading does not take (sequences that are not lists, tags that are not
    ``str``): a tag that is not a ``str`` fails with Python's own error of the first thing
    seqeval does with a tag (strict mode: index it; default mode: ``startswith``/``endswith``);
    other input is left to be read again as lists."""
    for seq in seqs:
        for tag in seq:
            if not isinstance(tag, str):
                if strict:
                    tag[-1] if suffix else tag[0]  # noqa: B018 - raises as seqeval does
                elif suffix:
                    tag.endswith(("-B", "-I", "-E", "-S"))
                else:
                    tag.startswith(("B-", "I-", "E-", "S-"))
                raise TypeError("seqeval reads str tags, not {}".format(type(tag).__name__))


def _counts(y_true, y_pred, suffix, scheme):
    """(types sorted, TP, predicted, true) per type: seqeval's default mode when ``scheme`` is
    None, else its strict mode with that scheme's name. A predicted entity counts for its own
    type; an entity is found when it has the same type and extent in the same sentence.

    Counted by the library (``spans::seqeval``): the tags cross into Rust once, interned. A
    tag seqeval rejects comes back as seqeval's exception, raised here after its warnings;
    input that is not lists of lists of ``str`` of one shape is checked here (seqeval's
    errors), then read again as lists."""
    r = _native_counts(y_true, y_pred, bool(suffix), scheme)
    if r is None:
        _check_consistent_length(y_true, y_pred)
        _foreign(list(y_true) + list(y_pred), suffix, scheme is not None)
        r = _native_counts([list(s) for s in y_true], [list(s) for s in y_pred], bool(suffix), scheme)
        if r is None:  # e.g. a str with a lone surrogate, which is no UTF-8
            raise ValueError("tags must be valid Unicode text (a lone surrogate cannot be read)")
    counts, raised = r
    if raised is not None:
        _raise(raised, raised[2])
    names, tp, npred, ntrue, odd = counts
    _raise(None, odd)
    return names, tp, npred, ntrue


def _token_tallies(y_true, y_pred):
    """(equal tags, tokens, TP, FP, FN, TN) natively, or None (flat lists, ragged input)."""
    return _native_tokens(y_true, y_pred)


# --- averaging ------------------------------------------------------------------------------
def _pairwise_sum(a):
    """NumPy's summation of a float64 array (pairwise, blocks of 8 and 128)."""
    n = len(a)
    if n < 8:
        res = 0.0
        for x in a:
            res += x
        return res
    if n <= 128:
        r = list(a[:8])
        i = 8
        while i < n - n % 8:
            for j in range(8):
                r[j] += a[i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise_sum(a[:n2]) + _pairwise_sum(a[n2:])


def _warn_prf(average, modifier, msg_start, result_size):
    msg = (
        "{0} ill-defined and being set to 0.0 {{0}} no {1} samples. Use `zero_division` parameter to "
        "control this behavior.".format(msg_start, modifier)
    )
    msg = msg.format("due to" if result_size == 1 else "in labels with")
    warnings.warn(msg, _undefined_metric_warning(), stacklevel=4)


def _divide(num, den, metric, modifier, average, warn_for, zero_division):
    zero = 0.0 if zero_division in ["warn", 0] else 1.0
    out = [n / d if d != 0 else zero for n, d in zip(num, den)]
    if all(d != 0 for d in den) or zero_division != "warn" or metric not in warn_for:
        return out
    if "f-score" in warn_for:
        msg_start = "{0} and F-score are".format(metric.title())
    else:
        msg_start = "{0} is".format(metric.title())
    _warn_prf(average, modifier, msg_start, len(out))
    return out


def _empty_mean():
    """NumPy's mean of no value: NaN, with NumPy's two warnings."""
    warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=4)
    warnings.warn("invalid value encountered in scalar divide", RuntimeWarning, stacklevel=4)
    return float("nan")


def _as_array(values, kind):
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - depends on the environment
        return list(values)
    return np.array(values, dtype=kind)


def _prfs(counts, average, warn_for, beta, zero_division):
    if beta < 0:
        raise ValueError("beta should be >=0 in the F-beta score")
    options = (None, "micro", "macro", "weighted")
    if average not in options:
        raise ValueError("average has to be one of {}".format(options))
    _, tp, npred, ntrue = counts
    if average == "micro":
        tp, npred, ntrue = [sum(tp)], [sum(npred)], [sum(ntrue)]
    beta2 = beta**2
    p = _divide(tp, npred, "precision", "predicted", average, warn_for, zero_division)
    r = _divide(tp, ntrue, "recall", "true", average, warn_for, zero_division)
    if zero_division == "warn" and ("f-score",) == tuple(warn_for):
        if any(np_ == 0 for np_, nt in zip(npred, ntrue) if nt == 0):
            _warn_prf(average, "true nor predicted", "F-score is", len(ntrue))
    if beta == float("inf"):
        f = list(r)
    else:
        f = []
        for pi, ri in zip(p, r):
            denom = beta2 * pi + ri
            f.append((1 + beta2) * pi * ri / (denom if denom != 0 else 1))
    if average is None:
        return _as_array(p, float), _as_array(r, float), _as_array(f, float), _as_array(ntrue, int)
    support = sum(ntrue)
    if average == "weighted":
        if support == 0:
            zero = 0.0 if zero_division in ["warn", 0] else 1.0
            pz = zero if sum(npred) == 0 else 0.0
            return pz, zero, pz, support
        w = float(support)
        avg = lambda v: _pairwise_sum([x * n for x, n in zip(v, ntrue)]) / w  # noqa: E731
    else:
        avg = lambda v: _pairwise_sum(v) / len(v) if v else _empty_mean()  # noqa: E731
    return avg(p), avg(r), avg(f), support


def _mode_counts(y_true, y_pred, suffix, mode, scheme):
    if mode == "strict" and scheme:
        if _known_scheme(scheme) is None:  # seqeval checks the lengths before the scheme
            _check_consistent_length(y_true, y_pred)
        return _counts(y_true, y_pred, suffix, _scheme_name(scheme))
    return _counts(y_true, y_pred, suffix, None)


# --- public functions -----------------------------------------------------------------------
def precision_recall_fscore_support(
    y_true,
    y_pred,
    *,
    average=None,
    warn_for=("precision", "recall", "f-score"),
    beta=1.0,
    sample_weight=None,
    zero_division="warn",
    suffix=False,
    mode=None,
    scheme=None,
):
    """Precision, recall, F-beta and support per type (``average=None``) or averaged."""
    counts = _mode_counts(y_true, y_pred, suffix, mode, scheme)
    return _prfs(counts, average, warn_for, beta, zero_division)


def _one(y_true, y_pred, which, average, suffix, mode, sample_weight, zero_division, scheme):
    warn_for = {0: ("precision",), 1: ("recall",), 2: ("f-score",)}[which]
    counts = _mode_counts(y_true, y_pred, suffix, mode, scheme)
    return _prfs(counts, average, warn_for, 1, zero_division)[which]


def precision_score(y_true, y_pred, *, average="micro", suffix=False, mode=None, sample_weight=None,
                    zero_division="warn", scheme=None):
    """Precision of the entities (seqeval's ``precision_score``)."""
    return _one(y_true, y_pred, 0, average, suffix, mode, sample_weight, zero_division, scheme)


def recall_score(y_true, y_pred, *, average="micro", suffix=False, mode=None, sample_weight=None,
                 zero_division="warn", scheme=None):
    """Recall of the entities (seqeval's ``recall_score``)."""
    return _one(y_true, y_pred, 1, average, suffix, mode, sample_weight, zero_division, scheme)


def f1_score(y_true, y_pred, *, average="micro", suffix=False, mode=None, sample_weight=None,
             zero_division="warn", scheme=None):
    """F1 of the entities (seqeval's ``f1_score``)."""
    return _one(y_true, y_pred, 2, average, suffix, mode, sample_weight, zero_division, scheme)


def accuracy_score(y_true, y_pred):
    """Share of tokens whose tags are equal (seqeval's ``accuracy_score``).

    >>> accuracy_score([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]])
    0.6666666666666666
    """
    c = _token_tallies(y_true, y_pred)
    if c is not None:
        return c[0] / c[1]
    if any(isinstance(s, list) for s in y_true):
        y_true = [t for s in y_true for t in s]
        y_pred = [t for s in y_pred for t in s]
    return sum(a == b for a, b in zip(y_true, y_pred)) / len(y_true)


def performance_measure(y_true, y_pred):
    """Token counts TP, FP, FN and TN as seqeval's ``performance_measure`` counts them.

    >>> performance_measure([["B-PER", "O", "B-LOC"]], [["B-PER", "B-ORG", "O"]])
    {'TP': 1, 'FP': 1, 'FN': 1, 'TN': 0}
    """
    c = _token_tallies(y_true, y_pred)
    if c is not None:
        return {"TP": c[2], "FP": c[3], "FN": c[4], "TN": c[5]}
    if any(isinstance(s, list) for s in y_true):
        y_true = [t for s in y_true for t in s]
        y_pred = [t for s in y_pred for t in s]
    pairs = list(zip(y_true, y_pred))
    return {
        "TP": sum(a == b for a, b in pairs if a != "O" or b != "O"),
        "FP": sum(a != b and b != "O" for a, b in pairs),
        "FN": sum(a != "O" and b == "O" for a, b in pairs),
        "TN": sum(a == b == "O" for a, b in pairs),
    }


def _report_rows(counts, zero_division):
    """The report's rows per type and its averages, with seqeval's warnings."""
    rows = list(zip(counts[0], *_prfs(counts, None, ("precision", "recall", "f-score"), 1, zero_division)))
    averages = [
        ("{} avg".format(a),) + tuple(_prfs(counts, a, ("precision", "recall", "f-score"), 1, zero_division))
        for a in ("micro", "macro", "weighted")
    ]
    return rows, averages


def _report_dict(rows, averages):
    return {n: {"precision": p, "recall": r, "f1-score": f, "support": s} for n, p, r, f, s in rows + averages}


def _row(name, p, r, f, s, width, digits):
    return "{:>{w}s}  {:>9.{d}f} {:>9.{d}f} {:>9.{d}f} {:>9}".format(name, p, r, f, s, w=width, d=digits)


def classification_report(y_true, y_pred, digits=2, suffix=False, output_dict=False, mode=None,
                          sample_weight=None, zero_division="warn", scheme=None):
    """Per type precision, recall, F1 and support, then the micro, macro and support-weighted
    averages, as seqeval's ``classification_report`` (text, or a dict with ``output_dict``)."""
    if mode == "strict":
        if _known_scheme(scheme) is None:  # else the counting checks the lengths
            _check_consistent_length(y_true, y_pred)
        if isinstance(scheme, str) or _known_scheme(scheme) is not None:
            name = _scheme_name(scheme)
        else:
            name = _auto_detect(y_true, suffix)
        counts = _counts(y_true, y_pred, suffix, name)
    else:
        counts = _mode_counts(y_true, y_pred, suffix, None, None)
    names = counts[0]
    if not output_dict:  # before the scores, as seqeval (no entity: ValueError, no warning)
        width = max(max(map(len, names)), len("weighted avg"), digits)
    rows, averages = _report_rows(counts, zero_division)
    if output_dict:
        return _report_dict(rows, averages)
    head = "{:>{w}s}  {:>9} {:>9} {:>9} {:>9}\n\n".format("", "precision", "recall", "f1-score", "support", w=width)
    lines = [_row(*row, width, digits) for row in rows] + [""]
    lines += [_row(*row, width, digits) for row in averages] + [""]
    return head + "\n".join(lines)
