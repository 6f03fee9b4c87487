"""Cross-checks the muc family's breakdowns (docs/breakdown.md, "The muc family") from the
HIPE TSV files alone: it reads the gold's and the run's NE-COARSE-LIT (upper-cased, IOBES as
IOB, a document one sequence), judges every token by docs/muc.md's table, gives every gold
entity its judged tokens (COR, INC, PAR, MIS) and every run entity its own (COR, INC, PAR,
SPU), buckets the entities of the keys label, length, chars, sentence_length, density,
capitalisation, position and document by docs/breakdown.md's rules, and compares each bucket's
eight counts, P, R and F with fairscore's `--json` report (equal), and its intervals with
SciPy's percentile bootstrap over the per-document counts computed here (paired documents,
P, R and F from the summed counts; tolerance as scripts/breakdown_crosscheck.py's: 5
Monte-Carlo standard errors of two independent estimates, in quantile space).

Usage: python scripts/breakdown_crosscheck_muc.py GOLD.tsv RUN.tsv REPORT.json, REPORT.json
written by `fairscore muc --gold GOLD --pred RUN --breakdown KEYS --bootstrap N --json
REPORT.json` (scripts/breakdown_crosscheck.sh runs both).
"""

import json
import math
import sys

import numpy as np
from scipy import stats

from muc_crosscheck import entities  # (type, first, last) of a tag sequence

KEYS = ["label", "length", "chars", "sentence_length", "density", "capitalisation",
        "position", "document"]
COUNTS = ["COR-gold", "INC-gold", "PAR-gold", "MIS", "COR-run", "INC-run", "PAR-run", "SPU"]
CAPS = ["upper", "title", "lower", "mixed", "no letters"]


def read(path):
    """Documents: (id, tokens, tags, end-of-sentence flags)."""
    docs = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().lstrip("\ufeff").rstrip("\r\n").split("\t")
        tc, nc, mc = header.index("TOKEN"), header.index("NE-COARSE-LIT"), header.index("MISC")
        pending = None
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("#"):
                if "document_id" in line:
                    pending = line.split("=", 1)[1].strip()
                continue
            if not line.strip():
                continue
            if pending is not None or not docs:
                docs.append((pending or f"d{len(docs) + 1}", [], [], []))
                pending = None
            cells = line.split("\t")
            cell = lambda i: cells[i] if len(cells) > i else "_"
            tag = cell(nc).upper()
            if tag[:2] == "S-":
                tag = "B-" + tag[2:]
            elif tag[:2] == "E-":
                tag = "I-" + tag[2:]
            d = docs[-1]
            d[1].append(cell(tc))
            d[2].append(tag)
            d[3].append(any(x.lower() == "endofsentence" for x in cell(mc).split("|")))
    return docs


def caps(words):
    letters = [c for w in words for c in w if c.isalpha()]
    if not letters:
        return "no letters"
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    for w in " ".join(words).split():
        ls = [c for c in w if c.isalpha()]
        if ls and not (ls[0].isupper() and all(c.islower() for c in ls[1:])):
            return "mixed"
    return "title"


def judged(gold, run):
    """Per side, every entity as (document index, values, [4 counts]). A run whose documents
    are not the gold's is cut into the gold's documents by their lengths."""
    if [len(d[1]) for d in run] != [len(d[1]) for d in gold]:
        flat = [sum((list(d[i]) for d in run), []) for i in range(1, 4)]
        cut, at = [], 0
        for d in gold:
            m = len(d[1])
            cut.append((d[0],) + tuple(x[at:at + m] for x in flat))
            at += m
        run = cut
    sides = ([], [])
    for k, (gd, rd) in enumerate(zip(gold, run)):
        n = len(gd[1])
        assert len(rd[1]) == n, "aligned documents"
        sent, bounds, start = [], [], 0
        for i in range(n):
            sent.append(len(bounds))
            if gd[3][i] or i + 1 == n:
                bounds.append((start, i + 1 - start))
                start = i + 1
        ge, re_ = entities(gd[2]), entities(rd[2])
        dens = [0] * len(bounds)
        for e in ge:
            dens[sent[e[1]]] += 1
        ga, ra = [None] * n, [None] * n
        for j, e in enumerate(ge):
            for i in range(e[1], e[2] + 1):
                ga[i] = j
        for j, e in enumerate(re_):
            for i in range(e[1], e[2] + 1):
                ra[i] = j
        g_over = {ga[i] for i in range(n) if ga[i] is not None and ra[i] is not None}
        r_over = {ra[i] for i in range(n) if ga[i] is not None and ra[i] is not None}
        gc, rc = [[0] * 4 for _ in ge], [[0] * 4 for _ in re_]
        for i in range(n):
            a, b = ga[i], ra[i]
            if a is None and b is None:
                continue
            if a is not None and b is not None:
                slot = 0 if ge[a][0] == re_[b][0] else 1
            elif a is not None:
                slot = 2 if a in g_over else 3
            else:
                slot = 2 if b in r_over else 3
            if a is not None:
                gc[a][slot] += 1
            if b is not None:
                rc[b][slot] += 1
        for side, (ents, counts, toks) in enumerate(((ge, gc, gd[1]), (re_, rc, rd[1]))):
            for (ty, s, e), c in zip(ents, counts):
                words = toks[s:e + 1]
                text = " ".join(w for t in words for w in t.split())
                first, length = bounds[sent[s]]
                values = {
                    "label": ty,
                    "length": e - s + 1,
                    "chars": len(text),
                    "sentence_length": length,
                    "density": dens[sent[s]] / length,
                    "capitalisation": caps(words),
                    "position": (s - first) / length,
                    "document": gd[0],
                }
                sides[side].append((k, values, c))
    return sides


def buckets(key, gold, run):
    """Bucket names and a function from values to a bucket."""
    if key in ("label", "capitalisation", "document"):
        count = {c: 0 for c in (CAPS if key == "capitalisation" else [])}
        for _, v, _ in run:
            count.setdefault(v[key], 0)
        for _, v, _ in gold:
            count[v[key]] = count.get(v[key], 0) + 1
        names = sorted(count)
        other = len(names) > 20
        if other:
            names = sorted(sorted(count, key=lambda x: (-count[x], x))[:19])
        if key == "capitalisation":
            names.sort(key=CAPS.index)
        if other:
            names.append("(other)")
        return names, lambda v: names.index(v) if v in names else len(names) - 1
    gv = sorted(v[key] for _, v, _ in gold)
    n, cuts = len(gv), []
    for k in range(1, 4):
        c = gv[-(-k * n // 4) - 1]
        if (not cuts or c > cuts[-1]) and c < gv[-1]:
            cuts.append(c)
    def shown(x):
        return str(int(x)) if x == int(x) else f"{x:.4f}".rstrip("0").rstrip(".")

    names = ["all"]
    if cuts:
        names = [f"<= {shown(cuts[0])}"]
        names += [f"({shown(a)}, {shown(b)}]" for a, b in zip(cuts, cuts[1:])]
        names.append(f"> {shown(cuts[-1])}")
    return names, lambda v: sum(1 for c in cuts if c < v)


def prf(c):
    """MUC P, R and F1 of summed counts (8 x ...); 0 where a denominator is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        rd = c[0] + c[1] + c[2] + c[3]
        pd = c[4] + c[5] + c[6] + c[7]
        r = np.where(rd > 0, (c[0] + c[2] / 2) / np.maximum(rd, 1e-300), 0.0)
        p = np.where(pd > 0, (c[4] + c[6] / 2) / np.maximum(pd, 1e-300), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.maximum(p + r, 1e-300), 0.0)
    return p, r, f


def main() -> int:
    gold, run = read(sys.argv[1]), read(sys.argv[2])
    report = json.load(open(sys.argv[3]))
    tables = {t["name"]: t for t in report["tables"]}
    g, r = judged(gold, run)
    n_docs = len(gold)
    rng = np.random.default_rng(2022)
    bad = buckets_seen = ends = 0
    worst = 0.0
    for key in KEYS:
        t = tables.get(f"breakdown:{key}")
        if t is None:
            continue
        names, bucket = buckets(key, g, r)
        per = np.zeros((len(names), n_docs, 8))
        for side, ents in enumerate((g, r)):
            for doc, v, c in ents:
                per[bucket(v[key]), doc, side * 4:side * 4 + 4] += c
        rows = t["rows"]
        if len(rows) != len(names):
            print(f"{key}: {len(rows)} buckets, expected {len(names)}")
            bad += 1
            continue
        for row, name, counts in zip(rows, names, per):
            buckets_seen += 1
            b = row["key"]["bucket"]
            if b != name:
                print(f"{key}: bucket {b}, expected {name}")
                bad += 1
            total = counts.sum(axis=0)
            got = [row["scores"][c] for c in COUNTS]
            if got != [float(x) for x in total]:
                print(f"{key} {b}: counts {got}, expected {list(total)}")
                bad += 1
            for m, x in zip(("P", "R", "F"), prf(total)):
                if abs(row["scores"][m] - float(x)) > 1e-12:
                    print(f"{key} {b} {m}: {row['scores'][m]}, expected {float(x)}")
                    bad += 1
            ci = row.get("ci") or {}
            if not ci:
                continue
            for idx, m in enumerate(("P", "R", "F")):
                if m not in ci:
                    continue
                lo_hi = ci[m]
                cols = tuple(counts[:, j] for j in range(8))

                def stat(*cs, axis=-1):
                    return prf([x.sum(axis=axis) for x in cs])[idx]

                n = N
                level = LEVEL
                res = stats.bootstrap(cols, stat, paired=True, vectorized=True,
                                      n_resamples=n, confidence_level=level,
                                      method="percentile", random_state=rng)
                dist = np.asarray(res.bootstrap_distribution)
                a = (1 - level) / 2
                tol = 5 * math.sqrt(2 * a * (1 - a) / n)
                for end, ours, q in (("lo", lo_hi[0], a), ("hi", lo_hi[1], 1 - a)):
                    below = float(np.mean(dist < ours - 1e-12))
                    upto = float(np.mean(dist <= ours + 1e-12))
                    off = max(below - q, q - upto, 0.0)
                    worst = max(worst, off / tol)
                    ends += 1
                    if off > tol:
                        bad += 1
                        print(f"{key} {b} {m} {end}: {ours:.5f} at quantiles "
                              f"[{below:.4f}, {upto:.4f}] of SciPy's distribution "
                              f"(level {q}, tolerance {tol:.4f})")
    print(f"breakdown_crosscheck_muc: {sys.argv[2]}: {buckets_seen} buckets of "
          f"{sum(1 for k in KEYS if f'breakdown:{k}' in tables)} keys, {ends} interval ends "
          f"({N} resamples), {bad} differences (largest interval difference {worst:.2f} of "
          f"its tolerance)")
    return 1 if bad else 0


N = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
LEVEL = float(sys.argv[5]) if len(sys.argv) > 5 else 0.95

if __name__ == "__main__":
    sys.exit(main())
