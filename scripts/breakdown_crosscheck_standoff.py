"""Recomputes the spans family's breakdown of two brat annotators (docs/breakdown.md) from the
brat files alone, by the rules of docs/breakdown.md and docs/standoff.md, and compares it with
fairscore's `--json` report: every bucket's name (in order), its four counts, P, R and F1, and
its interval, against SciPy's percentile bootstrap over the per-document counts recomputed here
(the tolerance of scripts/breakdown_crosscheck.py).

Nothing is read from fairscore's listings: the positions (whitespace tokens of each text, cut
at every span boundary of gold and run), the strict matching (same positions and label), the
sentences (lines of the text), the bucket cuts and the training file's vocabulary and entities
are computed here.

Usage: python scripts/breakdown_crosscheck_standoff.py GOLD_DIR RUN_DIR TRAIN_DIR REPORT.json
(REPORT.json: `fairscore evaluate --family spans --gold GOLD_DIR --pred RUN_DIR --train
TRAIN_DIR --breakdown KEYS --bootstrap N --json REPORT.json`; scripts/breakdown_crosscheck.sh
runs both).
"""

import json
import math
import os
import sys
from collections import Counter

import numpy as np

from breakdown_crosscheck import check_interval

CONTINUOUS = {"length", "chars", "position", "density", "sentence_length", "train_freq",
              "train_consistency", "noise", "period"}
CAPS = ["upper", "title", "lower", "mixed", "no letters"]


def read_brat(top):
    """{document: (text, {(label, start, end)})}: T lines, one span per distinct triple."""
    docs = {}
    for d, dirs, files in os.walk(top):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for f in files:
            if not f.endswith(".ann") or f.startswith("."):
                continue
            path = os.path.join(d, f)
            name = os.path.relpath(path, top)[:-4]
            with open(path[:-4] + ".txt", encoding="utf-8", newline="") as t:
                text = t.read()
            spans = set()
            with open(path, encoding="utf-8") as a:
                for line in a:
                    cols = line.rstrip("\n").split("\t")
                    if not cols[0].startswith("T"):
                        continue
                    label, *frag = cols[1].replace(";", " ").split(" ")
                    if len(frag) != 2:
                        raise SystemExit(f"{path}: discontinuous span, not handled here")
                    spans.add((label, int(frag[0]), int(frag[1])))
            docs[name] = (text, spans)
    return docs


def positions(text, cuts):
    """The text's whitespace tokens (as str.split sees them), cut at every offset in cuts."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < n and not text[j].isspace():
            j += 1
        inner = sorted(c for c in cuts if i < c < j)
        for s, e in zip([i] + inner, inner + [j]):
            out.append((s, e))
        i = j
    return out


def span_positions(pos, start, end):
    return [k for k, (s, e) in enumerate(pos) if s >= start and e <= end]


def caps(words):
    letters = [c for w in words for c in w if c.isalpha()]
    if not letters:
        return "no letters"
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    for w in words:
        ls = [c for c in w if c.isalpha()]
        if ls and not (ls[0].isupper() and all(c.islower() for c in ls[1:])):
            return "mixed"
    return "title"


def read_train(top):
    vocab, freq, same = set(), Counter(), Counter()
    for text, spans in read_brat(top).values():
        pos = positions(text, {x for _, s, e in spans for x in (s, e)})
        vocab.update(text[s:e] for s, e in pos)
        for label, s, e in spans:
            ks = span_positions(pos, s, e)
            if ks:
                t = " ".join(text[pos[k][0]:pos[k][1]] for k in ks)
                freq[t] += 1
                same[(t, label)] += 1
    return vocab, freq, same


def facts(gold, run, train):
    """One dict of key values per span: (document, side, matched, values)."""
    vocab, freq, same = train
    out = []
    for doc in sorted(gold):
        text, gs = gold[doc]
        rtext, rs = run[doc]
        assert rtext == text, doc
        pos = positions(text, {x for _, s, e in gs | rs for x in (s, e)})
        line_of = [text.count("\n", 0, s) for s, _ in pos]
        sent_tokens = Counter(line_of)
        first_in_line = {}
        for k, ln in enumerate(line_of):
            first_in_line.setdefault(ln, k)
        sides = {}
        for side, spans in (("gold", gs), ("run", rs)):
            sides[side] = set()
            for label, s, e in spans:
                ks = span_positions(pos, s, e)
                if ks:
                    sides[side].add((label, ks[0], ks[-1]))
        gold_starts = Counter(line_of[f] for _, f, _ in sides["gold"])
        for side, other in (("gold", "run"), ("run", "gold")):
            for label, f, last in sorted(sides[side]):
                words = [text[pos[k][0]:pos[k][1]] for k in range(f, last + 1)]
                t = " ".join(words)
                ln = line_of[f]
                n_sent = sent_tokens[ln]
                tf = freq.get(t, 0)
                v = {
                    "label": label,
                    "length": last - f + 1,
                    "chars": len(t),
                    "sentence_length": n_sent,
                    "density": gold_starts[ln] / n_sent,
                    "capitalisation": caps(words),
                    "position": (f - first_in_line[ln]) / n_sent,
                    "document": doc,
                    "oov": "yes" if any(w not in vocab for w in words) else "no",
                    "train_freq": tf,
                    "train_consistency": same.get((t, label), 0) / tf if tf else 0.0,
                }
                out.append((doc, side, (label, f, last) in sides[other], v))
    return out


def fmt(x):
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4f}".rstrip("0").rstrip(".")


def buckets(key, values_gold, values_all, n=4):
    """(bucket names, function value -> name) by docs/breakdown.md's rules."""
    if key in CONTINUOUS:
        xs = sorted(values_gold)
        cuts = []
        for k in range(1, n):
            if not xs:
                break
            c = xs[math.ceil(k * len(xs) / n) - 1]
            if (not cuts or c > cuts[-1]) and c < xs[-1]:
                cuts.append(c)
        if not cuts:
            return ["all"], lambda v: "all"
        names = [f"<= {fmt(cuts[0])}"]
        names += [f"({fmt(a)}, {fmt(b)}]" for a, b in zip(cuts, cuts[1:])]
        names.append(f"> {fmt(cuts[-1])}")

        def name(v):
            for c, nm in zip(cuts, names):
                if v <= c:
                    return nm
            return names[-1]
        return names, name
    if key == "capitalisation":
        return CAPS, lambda v: v
    if key == "oov":
        return ["no", "yes"], lambda v: v
    values = sorted(set(values_all))
    if len(values) <= 20:
        return values, lambda v: v
    g = Counter(values_gold)
    keep = sorted(sorted(values, key=lambda v: (-g[v], v))[:19])
    return keep + ["(other)"], lambda v: v if v in keep else "(other)"


def main() -> int:
    gold_dir, run_dir, train_dir, report = sys.argv[1:5]
    gold, run = read_brat(gold_dir), read_brat(run_dir)
    fs = facts(gold, run, read_train(train_dir))
    data = json.load(open(report))
    n = data["resampling"]["samples"]
    level = data["resampling"]["confidence"]
    docs = sorted(gold)
    rng = np.random.default_rng(2022)
    tables = {t["name"]: t for t in data["tables"]}
    keys = [t[len("breakdown:"):] for t in tables
            if t.startswith("breakdown:") and not t.endswith(":examples")]
    n_buckets = equal = checked = failed = 0
    worst = 0.0
    for key in keys:
        vg = [v[key] for _, side, _, v in fs if side == "gold"]
        names, name = buckets(key, vg, [v[key] for *_, v in fs])
        counts = {b: {d: [0, 0, 0, 0] for d in docs} for b in names}
        for doc, side, matched, v in fs:
            col = (0 if matched else 1) if side == "gold" else (2 if matched else 3)
            counts[name(v[key])][doc][col] += 1
        rows = tables[f"breakdown:{key}"]["rows"]
        theirs = [r["key"]["bucket"] for r in rows]
        if theirs != names:
            print(f"standoff {key}: buckets {theirs} != {names}")
            n_buckets += len(theirs)
            failed += 1
            continue
        for r in rows:
            b = r["key"]["bucket"]
            c = np.asarray([counts[b][d] for d in docs], dtype=float)
            tot = c.sum(axis=0)
            n_buckets += 1
            sc = r["scores"]
            got = [sc["TP-gold"], sc["FN"], sc["TP-run"], sc["FP"]]
            if list(tot) != got:
                print(f"standoff {key} {b}: counts {got} != {list(tot)}")
                failed += 1
                continue
            equal += 1
            points = {m: sc[m] for m in ("P", "R", "F1")}
            ci = {m: tuple(r["ci"][m]) for m in ("P", "R", "F1") if m in r.get("ci", {})}
            k, f, w = check_interval(f"standoff {key} {b}", c, points, ci, n, level, rng)
            checked += k
            failed += f
            worst = max(worst, w)
    print(f"breakdown_crosscheck: brat {os.path.basename(run_dir)} against "
          f"{os.path.basename(gold_dir)} (training file {os.path.basename(train_dir)}), {n} "
          f"resamples: {equal}/{n_buckets} buckets of {len(keys)} keys with equal counts, P, R "
          f"and F1; {checked} interval ends, {failed} differences (largest interval difference "
          f"{worst:.2f} of its tolerance)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
