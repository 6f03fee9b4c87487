"""Cross-checks the chance-corrected coefficients of `fairscore agree` against NLTK's
AnnotationTask (kappa, pi = Fleiss' kappa, multi_kappa = Davies and Fleiss, alpha) and the
krippendorff package (nominal alpha), on token labels built here independently of fairscore:
whitespace tokens (\\S+) of each document's .txt, each token labelled with the sorted labels of
the brat spans overlapping it joined by "|", or "O".

Usage: agreement_crosscheck.py FAIRSCORE PROJECT_DIR [PROJECT_DIR ...]
Each project: one folder per annotator of .ann/.txt pairs. A project where an annotator lacks
a document is compared on alpha only (NLTK's kappas need complete data).
Prints one line per project and coefficient; exits 1 on any difference above 1e-9.
"""
import json
import math
import os
import re
import subprocess
import sys

import krippendorff
import numpy as np
from nltk.metrics.agreement import AnnotationTask

TOKEN = re.compile(r"\S+")


def spans(ann_path):
    out = []
    with open(ann_path, encoding="utf-8", newline="") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.startswith("T"):
                continue
            _, middle = line.split("\t")[:2]
            label, offsets = middle.split(" ", 1)
            for frag in offsets.split(";"):
                s, e = frag.split()
                out.append((label, int(s), int(e)))
    return out


def token_labels(text, spans_):
    labels = []
    for m in TOKEN.finditer(text):
        ts, te = m.start(), m.end()
        # An empty span (start == end) covers no character, hence no token.
        here = sorted({l for l, s, e in spans_ if s < e and ts < e and te > s})
        labels.append("|".join(here) if here else "O")
    return labels


def project_matrix(root):
    annotators = sorted(
        d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and not d.startswith(".")
    )
    docs = sorted(
        {
            os.path.relpath(os.path.join(dp, f), os.path.join(root, a))
            for a in annotators
            for dp, _, fs in os.walk(os.path.join(root, a))
            for f in fs
            if f.endswith(".ann")
        }
    )
    rows = []  # per item: one label or None per annotator
    for doc in docs:
        text = None
        per = []
        for a in annotators:
            p = os.path.join(root, a, doc)
            if os.path.exists(p):
                with open(p[:-3] + "txt", encoding="utf-8", newline="") as f:
                    text = f.read()
                per.append(p)
            else:
                per.append(None)
        n = len(TOKEN.findall(text))
        cols = [token_labels(text, spans(p)) if p else [None] * n for p in per]
        rows.extend(zip(*cols))
    return annotators, rows


def ours(fairscore, root):
    out = subprocess.run(
        [fairscore, "agree", "--project", root, "--json", "-"], check=True, capture_output=True
    ).stdout
    table = next(t for t in json.loads(out)["tables"] if t["name"] == "coefficients")
    return {r["key"]["measure"]: r["scores"]["value"] for r in table["rows"]}


def main():
    fairscore, roots = sys.argv[1], sys.argv[2:]
    bad = 0
    for root in roots:
        name_of = os.path.basename(root.rstrip("/"))
        annotators, rows = project_matrix(root)
        got = ours(fairscore, root)
        complete = all(None not in r for r in rows)
        values = sorted({r[j] for r in rows for j in range(len(annotators)) if r[j] is not None})
        data = [(a, i, r[j]) for i, r in enumerate(rows) for j, a in enumerate(annotators) if r[j] is not None]
        task = AnnotationTask(data=data)
        # NLTK 3.10 gives 1 where the expected agreement is 1 and the observed one too (a pair
        # of coders using one label only); older releases divide by zero there: such a case
        # is then not compared (said on its line).
        wanted = [("Krippendorff's alpha", task.alpha)]
        if complete:
            wanted += [("Cohen's kappa (mean over pairs)", task.kappa), ("Fleiss' kappa", task.pi),
                       ("Davies and Fleiss' kappa", task.multi_kappa)]
        checks = []
        for name, f in wanted:
            try:
                checks.append((name, f(), "nltk"))
            except (ZeroDivisionError, ValueError) as e:
                print(f"--  {name_of}: {name}: NLTK undefined ({e}); fairscore {got.get(name)}")
        if len(values) > 1:
            # The krippendorff package refuses a domain of one value (NLTK's alpha gives 1).
            code = {v: k for k, v in enumerate(values)}
            matrix = np.array(
                [[code[r[j]] if r[j] is not None else np.nan for r in rows] for j in range(len(annotators))],
                dtype=float,
            )
            kpp = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
            checks.append(("Krippendorff's alpha", kpp, "krippendorff"))
        for name, w, src in checks:
            g = got.get(name)
            ok = g is not None and math.isclose(g, w, rel_tol=0, abs_tol=1e-9)
            bad += not ok
            print(f"{'OK ' if ok else 'BAD'} {name_of}: {name}: fairscore {g} {src} {w}")
    if bad:
        print(f"agreement_crosscheck: FAILED: {bad} difference(s)")
        sys.exit(1)
    print("agreement_crosscheck: OK")


if __name__ == "__main__":
    main()
