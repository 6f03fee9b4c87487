#!/usr/bin/env python3
"""Independent oracles of the mentions family (docs/generative.md), for tests/it/families/mentions.rs.

Usage: mentions_oracle.py MODE GOLD.jsonl PRED.jsonl  ->  one JSON object on stdout.

Each MODE re-implements, from the behaviour of the project's own scorer, how it reads an
answer and counts true positives (written here for the test, not copied):

- universalner: UniversalNER src/eval/evaluate.py (parser: re.match of a leading list up to
  the first `]`, json.loads, SQuAD normalize_answer, duplicates dropped; micro P/R/F1 with
  1e-10 in every denominator). One query per unit and type of the schema; the gold of a
  query is json.dumps of its strings, read by the same parser.
- gollie, gollie-filter: GoLLIE SpanScorer over entities compared by class and
  span.lower().strip(), each gold entity matched once; the answer is eval'ed as Python with a
  class per schema type (an unknown class is a HallucinatedType, filtered out; any other
  exception empties the answer); gollie-filter first applies AnnotationList.filter_hallucinations.
- instructuie: InstructUIE EvaluatorNER._extract (the current `;` split with _format) and
  MetricF1; the ground truth is `type: name; ...`, or `None`.
- fairscore: the family's defaults (auto parser, whitespace normalisation, typed sets) and
  its diagnostics counted by their documented definitions.

Gold records: {"id", "text", "entities": [{"text", "type"}, ...]}.
Pred records: {"id", ["type",] "output": str} or {"id", "entities": [...]}.
"""
import json
import re
import string
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def schema_of(gold):
    return sorted({e["type"] for u in gold for e in u["entities"]})


# --- UniversalNER --------------------------------------------------------------------------
def squad(s):
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def uniner_parse(text):
    try:
        m = re.match(r"\[(.*?)\]", text)
        text = m.group() if m else "[]"
        items = json.loads(text)
        out = []
        for it in items:
            if isinstance(it, (list, tuple)):
                it = tuple(squad(e) for e in it)
            else:
                it = squad(it)
            if it not in out:
                out.append(it)
        return out
    except Exception:
        return []


def universalner(gold, preds):
    schema = schema_of(gold)
    answers = {(p["id"], p.get("type")): p["output"] for p in preds}
    tp = npred = ngold = 0
    for u in gold:
        for q in schema:
            g = uniner_parse(json.dumps([e["text"] for e in u["entities"] if e["type"] == q]))
            p = uniner_parse(answers.get((u["id"], q), "[]"))
            for t in p:
                if t in g:
                    tp += 1
                npred += 1
            ngold += len(g)
    prec = tp / (npred + 1e-10)
    rec = tp / (ngold + 1e-10)
    f1 = 2 * prec * rec / (prec + rec + 1e-10)
    return {"TP": tp, "npred": npred, "ngold": ngold, "P": prec, "R": rec, "F1": f1}


# --- GoLLIE ----------------------------------------------------------------------------------
class Entity:
    def __init__(self, span):
        self.span = span

    def __eq__(self, other):
        return type(self) == type(other) and self.span.lower().strip() == other.span.lower().strip()


class Hallucinated:
    def __init__(self, *args, **kwargs):
        pass


def gollie_read(output, classes):
    names = dict(classes)
    while True:
        try:
            return eval(output, {"__builtins__": {}}, names)
        except NameError as e:
            name = re.search(r"'\w+'", e.args[0]).group(0).strip("'")
            names[name] = Hallucinated
        except Exception:
            return []


def filter_hallucinations(elems, text):
    out, counts = [], {}
    for e in elems:
        if not isinstance(e, Entity):
            continue
        if e.span.lower().strip() not in text.lower():
            continue
        key = e.span.lower()
        if key:
            counts[key] = counts.get(key, 0) + 1
            if text.lower().count(key) < counts[key]:
                continue
        out.append(e)
    return out


def gollie(gold, preds, filt=False):
    classes = {t: type(t, (Entity,), {}) for t in schema_of(gold)}
    answers = {p["id"]: p["output"] for p in preds}
    tp = total_pos = total_pre = 0
    for u in gold:
        ref = [classes[e["type"]](e["text"]) for e in u["entities"]]
        pre = gollie_read(answers.get(u["id"], "[]"), classes)
        if not isinstance(pre, list):
            pre = []
        if filt:
            pre = filter_hallucinations(pre, u["text"])
        ref = [x for x in ref if isinstance(x, Entity)]
        pre = [x for x in pre if isinstance(x, Entity)]
        total_pos += len(ref)
        total_pre += len(pre)
        for ent in pre:
            if ent in ref:
                tp += 1
                ref.pop(ref.index(ent))
    p = tp / total_pre if total_pre > 0.0 else 0.0
    r = tp / total_pos if total_pos > 0.0 else 0.0
    f1 = 2 * p * r / (p + r) if (p + r) > 0.0 else 0.0
    return {"TP": tp, "npred": total_pre, "ngold": total_pos, "P": p, "R": r, "F1": f1}


# --- InstructUIE -----------------------------------------------------------------------------
def remove_redundant_space(s):
    s = " ".join(s.split())
    return re.sub(r"\s*(,|:|\(|\)|\.|_|;|'|-)\s*", r"\1", s)


def fmt(s):
    s = remove_redundant_space(s)
    s = s.lower()
    s = s.replace("{", "").replace("}", "")
    s = re.sub(",+", ",", s)
    s = re.sub(r"\.+", ".", s)
    s = re.sub(";+", ";", s)
    s = s.replace("’", "'")
    return s.replace("location", "located")


def instructuie(gold, preds):
    answers = {p["id"]: p["output"] for p in preds}
    TP = FN = FP = 0
    audits = {"long": 0, "repetitive": 0, "zero_tp": 0}
    for u in gold:
        gt = "; ".join(f'{e["type"]}: {e["text"]}' for e in u["entities"]) or "None"
        predict = answers.get(u["id"], "")
        truth = {fmt(x) for x in fmt(gt).split(";")}
        pred = {fmt(x) for x in fmt(predict).split(";")}
        TP += len(truth & pred)
        FN += len(truth - pred)
        FP += len(pred - truth)
        # The evaluator's audits: AuditLong, AuditRepeat, AuditRetard (both sets are never
        # empty here: a split gives at least one item).
        audits["long"] += len(predict) >= 512
        audits["repetitive"] += re.search(r"(\w{5,})\1{2,}", predict) is not None
        audits["zero_tp"] += len(truth) != 0 and len(pred) != 0 and len(truth & pred) == 0
    recall = 0 if TP + FN == 0 else TP / (TP + FN)
    precision = 0 if TP + FP == 0 else TP / (TP + FP)
    f1 = 0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)
    return {"TP": TP, "npred": TP + FP, "ngold": TP + FN, "P": precision, "R": recall, "F1": f1,
            **audits}


# --- fairscore's defaults and diagnostics ----------------------------------------------------
def auto_read(rec):
    """(mentions [(text, type)], malformed, prose) of a record, by the documented rule."""
    if "entities" in rec:
        return [(e[0], e[1]) for e in rec["entities"]], False, False
    t = rec["output"].strip()
    if not t:
        return [], False, False
    try:
        v = json.loads(t)
        return [(e[0], e[1]) for e in v], False, False
    except ValueError:
        pass
    opens = [i for i in (t.find("["), t.find("{")) if i >= 0]
    a, b = (min(opens) if opens else -1), max(t.rfind("]"), t.rfind("}"))
    if a < 0 or b <= a:
        return [], True, False
    try:
        v = json.loads(t[a : b + 1])
    except ValueError:
        return [], True, False
    return [(e[0], e[1]) for e in v], False, True


def fairscore(gold, preds):
    schema = set(schema_of(gold))
    by_id = {}
    for p in preds:
        by_id.setdefault(p["id"], []).append(p)
    d = dict.fromkeys(["TP", "FP", "FN", "answers", "missing", "malformed", "prose", "empty",
                       "predicted", "out_of_schema", "hallucinated", "duplicates", "gold",
                       "gold_duplicates"], 0)
    norm = lambda s: " ".join(s.split())
    for u in gold:
        recs = by_id.get(u["id"], [])
        d["missing"] += not recs
        g = [(e["type"], norm(e["text"])) for e in u["entities"]]
        d["gold"] += len(g)
        d["gold_duplicates"] += len(g) - len(set(g))
        p = []
        for r in recs:
            ms, bad, prose = auto_read(r)
            d["answers"] += 1
            d["malformed"] += bad
            d["prose"] += prose
            d["empty"] += (not ms) and not bad
            for text, ty in ms:
                d["predicted"] += 1
                d["out_of_schema"] += ty not in schema
                d["hallucinated"] += text.strip().lower() not in u["text"].lower()
                p.append((ty, norm(text)))
        d["duplicates"] += len(p) - len(set(p))
        G, P = set(g), set(p)
        d["TP"] += len(G & P)
        d["FP"] += len(P - G)
        d["FN"] += len(G - P)
    return d


def main():
    mode, gold, pred = sys.argv[1], load(sys.argv[2]), load(sys.argv[3])
    out = {
        "universalner": lambda: universalner(gold, pred),
        "gollie": lambda: gollie(gold, pred),
        "gollie-filter": lambda: gollie(gold, pred, True),
        "instructuie": lambda: instructuie(gold, pred),
        "fairscore": lambda: fairscore(gold, pred),
    }[mode]()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
