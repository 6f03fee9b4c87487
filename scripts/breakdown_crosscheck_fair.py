"""Cross-checks the fair family's breakdown (docs/breakdown.md, "The fair family") on a
HIPE-2022 run: each span's fair type (the first type it was counted with), side, document,
first and last token are read from fairscore's `--errors` listing (Ortmann's pairing is not
recomputed here); its words from the gold or run file, and its bucket of every key is computed here by the docs' rules (the training
file's vocabulary and entities read from the HIPE TSV here), and every bucket's name, its ten
counts, P, R and F1 must equal fairscore's `--json` report, its intervals within Monte-Carlo
error of SciPy's percentile bootstrap over the per-document counts computed here (the
tolerance of scripts/breakdown_crosscheck.py; fair P and R are sums of per-document counts,
with LE, BE and LBE at half weight).

Usage: python scripts/breakdown_crosscheck_fair.py ERRORS.tsv GOLD.tsv RUN.tsv TRAIN.tsv REPORT.json
"""

import csv
import json
import os
import sys
from collections import Counter

import numpy as np

from breakdown_crosscheck import check_interval
from breakdown_crosscheck_standoff import buckets, caps

GOLD = ["TP-gold", "FN", "LE-gold", "BE-gold", "LBE-gold"]
RUN = ["TP-run", "FP", "LE-run", "BE-run", "LBE-run"]
KIND = {"TP": 0, "FN": 1, "FP": 1, "LE": 2, "BES": 3, "BEL": 3, "BEO": 3, "LBE": 4}


def read_train(path):
    """Vocabulary and entities (text, label) of a HIPE TSV file's NE-COARSE-LIT column."""
    vocab, freq, same = set(), Counter(), Counter()
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = header.index("NE-COARSE-LIT")
        cur = None

        def close():
            if cur:
                t = " ".join(cur[1])
                freq[t] += 1
                same[(t, cur[0])] += 1

        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                if "document_id" in line:
                    close()
                    cur = None
                continue
            cells = line.split("\t")
            vocab.add(cells[0])
            tag = cells[col].upper()
            if tag[:2] in ("B-", "S-") or (tag[:2] in ("I-", "E-")
                                            and (cur is None or cur[0] != tag[2:])):
                close()
                cur = (tag[2:], [cells[0]])
            elif tag[:2] in ("I-", "E-"):
                cur[1].append(cells[0])
            else:
                close()
                cur = None
        close()
    return vocab, freq, same


def read_tokens(path):
    """{document id: [token forms]} of a HIPE TSV file (`d<n>` for the n-th without an id)."""
    docs, cur, n = {}, None, 0
    with open(path, encoding="utf-8") as f:
        f.readline()
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                if "document_id" in line:
                    cur = line.split("=", 1)[1].strip()
                    docs[cur] = []
                continue
            if not line.strip():
                continue
            if cur is None:
                n += 1
                cur = f"d{n}"
                docs[cur] = []
            docs[cur].append(line.split("\t")[0])
    return docs


def main() -> int:
    errors, gold_file, run_file, train, report = sys.argv[1:6]
    vocab, freq, same = read_train(train)
    forms = {"target": read_tokens(gold_file), "system": read_tokens(run_file)}
    if list(forms["system"]) == ["d1"]:
        # A run without document ids: its tokens in the gold's documents, in order.
        flat, at = forms["system"]["d1"], 0
        forms["system"] = {}
        for d, toks in forms["target"].items():
            forms["system"][d] = flat[at:at + len(toks)]
            at += len(toks)
    spans = []
    with open(errors, encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            # The span's words: its own side's token forms, read from that file here (the
            # listing's text is escaped for spreadsheets).
            words = forms[r["side"]][r["unit"]][int(r["begin"]) - 1:int(r["end"])]  # 1-based
            text = " ".join(words)
            tf = freq.get(text, 0)
            v = {
                "label": r["label"],
                "length": int(r["end"]) - int(r["begin"]) + 1,
                "chars": len(text),
                "capitalisation": caps(words),
                "document": r["unit"],
                "oov": "yes" if any(w not in vocab for w in words) else "no",
                "train_freq": tf,
                "train_consistency": same.get((text, r["label"]), 0) / tf if tf else 0.0,
            }
            spans.append((r["unit"], r["side"] == "target", KIND[r["type"]], v))
    docs = sorted({s[0] for s in spans})
    data = json.load(open(report))
    n = data["resampling"]["samples"]
    level = data["resampling"]["confidence"]
    rng = np.random.default_rng(2022)
    tables = {t["name"]: t for t in data["tables"]}
    keys = [t[len("breakdown:"):] for t in tables if t.startswith("breakdown:")]
    n_buckets = equal = checked = failed = 0
    worst = 0.0
    for key in keys:
        vg = [v[key] for _, gold, _, v in spans if gold]
        names, name = buckets(key, vg, [v[key] for *_, v in spans])
        counts = {b: {d: [0] * 10 for d in docs} for b in names}
        for doc, gold, kind, v in spans:
            counts[name(v[key])][doc][kind if gold else 5 + kind] += 1
        rows = tables[f"breakdown:{key}"]["rows"]
        theirs = [r["key"]["bucket"] for r in rows]
        if theirs != names:
            print(f"fair {key}: buckets {theirs} != {names}")
            n_buckets += len(theirs)
            failed += 1
            continue
        for r in rows:
            b = r["key"]["bucket"]
            c10 = np.asarray([counts[b][d] for d in docs], dtype=float)
            n_buckets += 1
            sc = r["scores"]
            got = [sc[k] for k in GOLD + RUN]
            if list(c10.sum(axis=0)) != got:
                print(f"fair {key} {b}: counts {got} != {list(c10.sum(axis=0))}")
                failed += 1
                continue
            equal += 1
            # P and R of sums: LE, BE and LBE as half errors on their side.
            half_g = 0.5 * c10[:, 2:5].sum(axis=1)
            half_r = 0.5 * c10[:, 7:10].sum(axis=1)
            c = np.stack([c10[:, 0], c10[:, 1] + half_g, c10[:, 5], c10[:, 6] + half_r], axis=1)
            points = {m: sc[m] for m in ("P", "R", "F1")}
            ci = {m: tuple(r["ci"][m]) for m in ("P", "R", "F1") if m in r.get("ci", {})}
            k, f_, w = check_interval(f"fair {key} {b}", c, points, ci, n, level, rng)
            checked += k
            failed += f_
            worst = max(worst, w)
    print(f"breakdown_crosscheck: fair family, {os.path.basename(errors)} (training file "
          f"{os.path.basename(train)}), {n} resamples: {equal}/{n_buckets} buckets of "
          f"{len(keys)} keys with equal counts, P, R and F1; {checked} interval ends, {failed} "
          f"differences (largest interval difference {worst:.2f} of its tolerance)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
