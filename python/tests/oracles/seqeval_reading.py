"""seqeval 1.2.2's entity reading and counting in pure Python: the oracle the native counting
(the library's ``spans::seqeval``, reached through ``fairscore.seqeval``) is tested against
(python/tests/test_seqeval_dropin.py). It was ``fairscore.seqeval``'s own reading before the
library had one; docs/seqeval.md describes the rules."""

import warnings

# A pattern is (previous prefixes, current prefixes, type condition): "same", "diff" or "any".
_ANY = "IOBESUL"
_SCHEMES = {
    "IOB1": (
        "IOB",
        [("O", "I", "any"), ("I", "I", "diff"), ("B", "I", "any"), ("I", "B", "same"), ("B", "B", "same")],
        [("B", "I", "same"), ("I", "I", "same")],
        [("I", "I", "diff"), ("I", "O", "any"), ("I", "B", "any"), ("B", "O", "any"), ("B", "I", "diff"),
         ("B", "B", "same")],
    ),
    "IOE1": (
        "IOE",
        [("O", "I", "any"), ("I", "I", "diff"), ("E", "I", "any"), ("E", "E", "same")],
        [("I", "I", "same"), ("I", "E", "same")],
        [("I", "I", "diff"), ("I", "O", "any"), ("I", "E", "diff"), ("E", "I", "same"), ("E", "E", "same")],
    ),
    "IOB2": (
        "IOB",
        [(_ANY, "B", "any")],
        [("B", "I", "same"), ("I", "I", "same")],
        [("I", "O", "any"), ("I", "I", "diff"), ("I", "B", "any"), ("B", "O", "any"), ("B", "I", "diff"),
         ("B", "B", "any")],
    ),
    "IOE2": (
        "IOE",
        [("O", "I", "any"), ("O", "E", "any"), ("E", "I", "any"), ("E", "E", "any"), ("I", "I", "diff"),
         ("I", "E", "diff")],
        [("I", "E", "same"), ("I", "I", "same")],
        [("E", _ANY, "any")],
    ),
    "IOBES": (
        "IOBES",
        [(_ANY, "B", "any"), (_ANY, "S", "any")],
        [("B", "I", "same"), ("B", "E", "same"), ("I", "I", "same"), ("I", "E", "same")],
        [("S", _ANY, "any"), ("E", _ANY, "any")],
    ),
    "BILOU": (
        "BILOU",
        [(_ANY, "B", "any"), (_ANY, "U", "any")],
        [("B", "I", "same"), ("B", "L", "same"), ("I", "I", "same"), ("I", "L", "same")],
        [("U", _ANY, "any"), ("L", _ANY, "any")],
    ),
}
# How seqeval (Python >= 3.11) names the allowed prefixes in its error message.
_ALLOWED_TEXT = {"IOB": "I|O|B", "IOE": "I|O|E", "IOBES": "I|O|B|E|S", "BILOU": "I|O|B|U|L"}



def _chunks(seq, suffix, warned):
    """seqeval's default mode: (type, start, end) of the chunks of a flat tag list."""
    out = []
    prev_tag, prev_type, begin = "O", "", 0
    n = len(seq)
    for i in range(n + 1):
        chunk = seq[i] if i < n else "O"
        if chunk not in ("O", "B", "I", "E", "S") and chunk not in warned:
            ok = chunk.endswith(("-B", "-I", "-E", "-S")) if suffix else chunk.startswith(("B-", "I-", "E-", "S-"))
            if not ok:
                warned.add(chunk)
                warnings.warn("{} seems not to be NE tag.".format(chunk), stacklevel=4)
        if suffix:
            tag, type_ = chunk[-1], chunk[:-1].rsplit("-", 1)[0] or "_"
        else:
            tag, type_ = chunk[0], chunk[1:].split("-", 1)[-1] or "_"
        if (
            prev_tag in ("E", "S")
            or (prev_tag in ("B", "I") and tag in ("B", "S", "O"))
            or (prev_tag != "O" and prev_tag != "." and prev_type != type_)
        ):
            out.append((prev_type, begin, i - 1))
        if (
            tag in ("B", "S")
            or (prev_tag in ("E", "S", "O") and tag in ("E", "I"))
            or (tag != "O" and tag != "." and prev_type != type_)
        ):
            begin = i
        prev_tag, prev_type = tag, type_
    return out


def _flatten(y):
    if any(isinstance(s, list) for s in y):
        return [t for s in y for t in s + ["O"]]
    return list(y)


def _token(token, suffix):
    """(prefix, type) of a token as seqeval's strict mode reads it."""
    prefix = token[-1] if suffix else token[0]
    if prefix not in _ANY:
        raise KeyError(prefix)
    body = token[:-1] if suffix else token[1:]
    return prefix, body.strip("-") or "_"


def _matches(patterns, prev, cur):
    for pp, cp, cond in patterns:
        if prev[0] in pp and cur[0] in cp:
            if cond == "any" or (cond == "same") == (prev[1] == cur[1]):
                return True
    return False


def _strict_entities(sent_id, seq, name, suffix):
    """seqeval's strict mode: (sentence, type, start, end) of the entities of one sentence
    (end exclusive)."""
    allowed, start_p, inside_p, end_p = _SCHEMES[name]
    toks = [_token(t, suffix) for t in seq] + [("O", "_")]
    out = []
    i, prev = 0, ("O", "_")
    while i < len(toks):
        tok = toks[i]
        if tok[0] not in allowed:
            raise ValueError(
                "Invalid token is found: {}. Allowed prefixes are: {}.".format(
                    seq[i] if i < len(seq) else "O", _ALLOWED_TEXT[allowed]
                )
            )
        if _matches(start_p, prev, tok):
            end, p = i + 1, tok
            while end < len(toks) and _matches(inside_p, p, toks[end]):
                p = toks[end]
                end += 1
            if end == len(toks):  # cannot happen: the closing O is inside no entity
                end = len(seq) - 1
            if _matches(end_p, toks[end - 1], toks[end]):
                out.append((sent_id, tok[1], i, end))
            i = end
        else:
            i += 1
        prev = toks[i - 1]
    return out


def _py_counts(y_true, y_pred, suffix, scheme):
    """:func:`_counts` in Python (the reference the native code is tested against)."""
    if scheme is None:
        w = set()
        true = _chunks(_flatten(y_true), suffix, w)
        pred = _chunks(_flatten(y_pred), suffix, w)
        key = lambda e: e[0]  # noqa: E731
    else:
        true = [e for k, s in enumerate(y_true) for e in _strict_entities(k, s, scheme, suffix)]
        pred = [e for k, s in enumerate(y_pred) for e in _strict_entities(k, s, scheme, suffix)]
        key = lambda e: e[1]  # noqa: E731
    true_by, pred_by = {}, {}
    for e in true:
        true_by.setdefault(key(e), set()).add(e)
    for e in pred:
        pred_by.setdefault(key(e), set()).add(e)
    names = sorted(set(true_by) | set(pred_by))
    empty = set()
    tp = [len(true_by.get(n, empty) & pred_by.get(n, empty)) for n in names]
    npred = [len(pred_by.get(n, empty)) for n in names]
    ntrue = [len(true_by.get(n, empty)) for n in names]
    return names, tp, npred, ntrue


def get_entities(seq, suffix=False):
    """seqeval's ``get_entities``: (type, start, end) of the chunks of a tag list or of a list
    of tag lists (read as one list with ``O`` after each)."""
    return _chunks(_flatten(seq), suffix, set())
