"""Cross-check `fairscore score --format conll` against seqeval (an independent scorer).

For every directory under DIR holding gold.conll, run.conll and conll/run_nerc_coarse.json
(as tests/it/families/conll_parity.rs leaves them in target/tmp/conll_parity), computes seqeval's default
(conlleval-style) entity micro precision, recall and F1 per document block and compares them
with fairscore's strict micro scores. seqeval counts every run entity; the HIPE counting leaves
out run entities whose label the gold never uses (see docs/metrics.md), so such runs are
compared on TP and gold counts only and listed.

Usage: python scripts/seqeval_crosscheck.py DIR
"""
import json
import sys
from pathlib import Path

from seqeval.metrics.sequence_labeling import get_entities


def read(path):
    docs, cur = [], []
    for line in open(path, encoding="utf-8"):
        cells = line.split()
        if not cells:
            continue
        if cells[0] == "-DOCSTART-":
            if cur:
                docs.append(cur)
            cur = []
            continue
        cur.append(cells[-1])
    if cur:
        docs.append(cur)
    return docs


def main(root):
    same, total, label_only = 0, 0, []
    for d in sorted(Path(root).iterdir()):
        j = d / "conll" / "run_nerc_coarse.json"
        if not j.is_file():
            continue
        gold, run = read(d / "gold.conll"), read(d / "run.conll")
        if len(gold) != len(run):
            # A run without document markers: one block, cut like the gold.
            flat = [t for doc in run for t in doc]
            run, k = [], 0
            for doc in gold:
                run.append(flat[k:k + len(doc)])
                k += len(doc)
        g = {(i,) + e for i, doc in enumerate(gold) for e in get_entities(doc)}
        p = {(i,) + e for i, doc in enumerate(run) for e in get_entities(doc)}
        gold_labels = {e[1] for e in g}
        tp = len(g & p)
        ours = json.load(open(j))["TAG"]["TIME-ALL"]["LED-ALL"]["ALL"]["strict"]
        total += 1
        extra = {e for e in p if e[1] not in gold_labels}
        if extra:
            # fairscore leaves these out (labels unknown to the gold), seqeval counts them.
            p = p - extra
            label_only.append(f"{d.name}: {len(extra)} run entities with labels not in the gold")
        if (ours["TP"], ours["TP"] + ours["FP"], ours["TP"] + ours["FN"]) == (tp, len(p), len(g)):
            same += 1
        else:
            print(f"DIFF {d.name}: fairscore TP/pred/gold {ours['TP']}/{ours['TP'] + ours['FP']}/"
                  f"{ours['TP'] + ours['FN']}, seqeval {tp}/{len(p)}/{len(g)}")
    for x in label_only:
        print("note:", x)
    print(f"seqeval agreement: {same}/{total} runs with identical TP, predicted and gold entity counts")
    return 0 if same == total and total > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
