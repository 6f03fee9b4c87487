#!/usr/bin/env python3
"""Run the generative-NER projects' OWN scorers against fairscore's mentions presets.

Usage: mentions_peers.py PEERS_DIR FAIRSCORE DATA_DIR

PEERS_DIR holds the projects' files as in their repositories (docs/generative.md, "Checked
against the projects' own code", names the commits):

    universal-ner/src/eval/evaluate.py      (parser, normalize_answer, NEREvaluator)
    GoLLIE/src/tasks/utils_typing.py        (Entity, HallucinatedType, AnnotationList)
    GoLLIE/src/tasks/utils_scorer.py        (SpanScorer)
    InstructUIE/src/evaluation/evaluator.py (MetricF1, EvaluatorBase, EvaluatorNER, and the
                                            audits AuditLong, AuditRepeat, AuditRetard)

The files are not imported as packages (they import vllm, fire, numpy, matplotlib or their
own packages): the named top-level functions and classes are taken from each file's syntax
tree, unchanged, and executed with the standard-library imports of the file. Nothing of the
projects is copied here.

DATA_DIR holds NAME-gold.jsonl and NAME-{universalner,gollie,instructuie}.jsonl as
tests/it/families/mentions.rs writes them (noisy outputs of real gold). Every run is put into
the shape the project's own pipeline hands to its scorer, scored by the project's code and by
`fairscore evaluate --family mentions --mentions-preset NAME`, and P, R, F1 (and the counts
the project exposes) are compared bit for bit. Prints one line per comparison; exits 1 on any
difference.
"""
import ast
import importlib
import json
import logging
import subprocess
import sys
import tempfile
import types
from pathlib import Path

STDLIB = {"json", "re", "string", "os", "random", "importlib", "inspect", "logging",
          "collections", "copy", "dataclasses", "typing", "__future__", "typing_extensions"}


def load_defs(path, names, module_name, extra=None):
    """A module holding the named top-level definitions of `path`, verbatim, with the file's
    standard-library imports (other imports, e.g. vllm, are skipped)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))
    keep = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            if all(a.name.split(".")[0] in STDLIB for a in node.names):
                keep.append(node)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and (node.module or "").split(".")[0] in STDLIB:
                keep.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
            keep.append(node)
    found = {n.name for n in keep if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    missing = set(names) - found
    if missing:
        sys.exit(f"{path}: not found: {sorted(missing)}")
    mod = types.ModuleType(module_name)
    mod.__dict__.update(extra or {})
    sys.modules[module_name] = mod
    code = compile(ast.Module(body=keep, type_ignores=[]), str(path), "exec")
    exec(code, mod.__dict__)
    return mod


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def fairscore(exe, gold, pred, preset, extra=()):
    out = subprocess.run(
        [exe, "evaluate", "--family", "mentions", "--gold", gold, "--pred", pred,
         "--mentions-preset", preset, "--table", "json", *extra],
        check=True, capture_output=True, text=True)
    v = json.loads(out.stdout)
    t = next(t for t in v["tables"] if t["name"] == "micro")
    row = next(r for r in t["rows"] if list(r["key"].values()) == ["ALL"])
    s = row["scores"]
    d = next(t for t in v["tables"] if t["name"] == "diagnostics")
    diag = {r["key"]["measure"]: r["scores"]["n"] for r in d["rows"]}
    return {"P": s["P"], "R": s["R"], "F1": s["F1"], "TP": s["TP"],
            "pred": s["TP"] + s["FP"], "gold": s["TP"] + s["FN"],
            # InstructUIE's audits, shown with its preset
            **{k: diag[k] for k in ("long", "repetitive", "zero_tp") if k in diag}}


def schema_of(gold):
    return sorted({e["type"] for u in gold for e in u["entities"]})


def universalner(peers, gold, preds):
    m = load_defs(peers / "universal-ner/src/eval/evaluate.py",
                  ["normalize_answer", "parser", "NEREvaluator"], "peer_universalner")
    answers = {(p["id"], p.get("type")): p["output"] for p in preds}
    outs, golds = [], []
    for u in gold:
        for q in schema_of(gold):
            # the project's test data stores each query's answer as a JSON list of strings
            golds.append(json.dumps([e["text"] for e in u["entities"] if e["type"] == q]))
            outs.append(answers.get((u["id"], q), ""))
    r = m.NEREvaluator().evaluate(outs, golds)
    # counts through the project's own parser (NEREvaluator does not return them)
    g = [m.parser(x) for x in golds]
    p = [m.parser(x) for x in outs]
    tp = sum(1 for a, b in zip(p, g) for t in a if t in b)
    return {"P": r["precision"], "R": r["recall"], "F1": r["f1"], "TP": tp,
            "pred": sum(map(len, p)), "gold": sum(map(len, g))}


def gollie(peers, gold, preds, filt):
    typing_mod = load_defs(
        peers / "GoLLIE/src/tasks/utils_typing.py",
        ["dataclass", "HallucinatedType", "Entity", "Value", "Relation", "Event", "AnnotationList"],
        "peer_gollie_typing")
    scorer = load_defs(peers / "GoLLIE/src/tasks/utils_scorer.py", ["Scorer", "SpanScorer"],
                       "peer_gollie_scorer",
                       {k: getattr(typing_mod, k) for k in ["Entity", "Event", "Relation", "Value"]})
    # The task's guidelines: one Entity dataclass per gold type, as GoLLIE's task modules
    # define them (e.g. src/tasks/conll03/guidelines.py), imported by name.
    tmp = Path(tempfile.mkdtemp(prefix="gollie-guidelines-"))
    guidelines = f"peer_gollie_guidelines_{tmp.name.replace('-', '_')}"
    src = "from peer_gollie_typing import Entity, dataclass\n"
    for t in schema_of(gold):
        src += f"\n@dataclass\nclass {t}(Entity):\n    span: str\n"
    (tmp / f"{guidelines}.py").write_text(src, encoding="utf-8")
    sys.path.insert(0, str(tmp))
    importlib.invalidate_caches()
    AL = typing_mod.AnnotationList
    answers = {p["id"]: p["output"] for p in preds}
    refs, pres = [], []
    for u in gold:
        ann = repr([f"{e['type']}(span={e['text']!r})" for e in u["entities"]])
        refs.append(AL.from_gold(ann, guidelines))
        pres.append(AL.from_output(answers.get(u["id"], "[]"), guidelines,
                                   text=u["text"], filter_hallucinations=filt))
    r = scorer.SpanScorer()(refs, pres)["spans"]
    valid = scorer.SpanScorer()._filter_valid_types
    return {"P": r["precision"], "R": r["recall"], "F1": r["f1-score"],
            "pred": sum(len(valid(p)) for p in pres), "gold": sum(len(valid(g)) for g in refs)}


def instructuie(peers, gold, preds):
    m = load_defs(peers / "InstructUIE/src/evaluation/evaluator.py",
                  ["MetricBase", "MetricF1", "EvaluatorBase", "EvaluatorNER", "AuditBase",
                   "AuditLong", "AuditRepeat", "AuditRetard"], "peer_instructuie")
    audits = {"long": m.AuditLong(), "repetitive": m.AuditRepeat(), "zero_tp": m.AuditRetard()}

    class NER(m.EvaluatorNER):
        def _init_audit(self):  # the audits fairscore counts (the others need numpy or
            self.audit = list(audits.values())  # the instruction's options)

    ev = NER()
    answers = {p["id"]: p["output"] for p in preds}
    for u in gold:
        # the ground truth as InstructUIE's NER data writes it
        gt = "; ".join(f"{e['type']}: {e['text']}" for e in u["entities"]) or "None"
        ev.add({"Instance": {"ground_truth": gt, "sentence": u["text"]}},
               answers.get(u["id"], ""))
    f1 = ev.get_metric()
    mt = ev.metric
    return {"P": mt.precision, "R": mt.recall, "F1": f1, "TP": mt.sum_TP,
            "pred": mt.sum_TP + mt.sum_FP, "gold": mt.sum_TP + mt.sum_FN,
            **{k: a.get_cnt() for k, a in audits.items()}}


def main():
    peers, exe, data = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    if sys.version_info >= (3, 13):
        # GoLLIE's AnnotationList.from_gold/from_output hand `eval` the guideline classes
        # through `locals().update(...)`; on Python 3.13 (PEP 667) `eval` no longer sees them
        # (from_gold raises NameError: tried on 3.13.0).
        sys.exit("mentions_peers: run with Python 3.12 or older (GoLLIE's AnnotationList needs it)")
    logging.disable(logging.WARNING)  # GoLLIE logs every hallucinated class
    bad = 0
    names = sorted(p.name[: -len("-gold.jsonl")] for p in data.glob("*-gold.jsonl"))
    if not names:
        sys.exit(f"{data}: no *-gold.jsonl")
    for name in names:
        gold_path = data / f"{name}-gold.jsonl"
        gold = load(gold_path)
        cases = [("universalner", "universalner", ()), ("gollie", "gollie", ()),
                 ("gollie", "gollie+filter_hallucinations", ("--unfound", "drop")),
                 ("instructuie", "instructuie", ())]
        for preset, what, flags in cases:
            pred_path = data / f"{name}-{preset}.jsonl"
            preds = load(pred_path)
            if preset == "universalner":
                want = universalner(peers, gold, preds)
            elif preset == "gollie":
                want = gollie(peers, gold, preds, bool(flags))
            else:
                want = instructuie(peers, gold, preds)
            got = fairscore(exe, str(gold_path), str(pred_path), preset, flags)
            diffs = [k for k in want if want[k] != got[k]]
            bad += bool(diffs)
            shown = " ".join(f"{k}={want[k]!r}" for k in want)
            print(f"{name} {what} ({len(gold)} units): {'SAME' if not diffs else 'DIFFERENT'}: "
                  f"{shown}" + "".join(f"\n    {k}: project {want[k]!r} fairscore {got[k]!r}"
                                       for k in diffs))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
