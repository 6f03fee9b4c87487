"""fairscore's Python package beside seqeval 1.2.2, measured side by side in one run (best
wall-clock time of N calls each, same inputs, same process):

1. 1M tokens, ``f1_score`` (seqeval.metrics vs fairscore.seqeval; the default mode);
2. 1M tokens, ``classification_report``;
3. ``compute_metrics`` of a token-classification ``Trainer`` on 256 x 128 label ids with
   ``-100`` masks and 9 labels of logits: the boilerplate (argmax, list comprehensions with
   id2label, seqeval's ``classification_report(output_dict=True)`` and ``accuracy_score``, as
   Hugging Face's seqeval metric computes them) vs ``fairscore.from_ids``;
4. the 31 HIPE-2022 NERC runs as tag lists (when ../shared is present), ``f1_score`` of each.

Tags are those of the real runs (HIPE-2022 gold and runs, NE-COARSE-LIT) repeated to 1M tokens
when ../shared is present, else generated (seeded). Each pair of results is checked equal
before it is timed. Prints a Markdown table with the ratios beside the floors of issue 23
(20x, 50x, 20x); exits 1 with ``--check`` when a floor is not met, else 0 (timings on a
shared machine vary: the figure is reported).

Usage: python scripts/python_speed.py [--repeat N] [--tokens N] [--check]
"""

import argparse
import itertools
import random
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import seqeval.metrics as sm

import fairscore
from fairscore import seqeval as fm

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python" / "tests"))
from conftest import hipe_tag_lists, nerc_runs  # noqa: E402


def best(f, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def sentences(docs, max_len=40):
    """Documents cut into sentence-sized lists (as a tagger's input)."""
    return [d[i : i + max_len] for d in docs for i in range(0, len(d), max_len) if d[i : i + max_len]]


def real_pairs(data):
    """(gold, run) sentence lists of every run; a run whose documents are cut differently
    from the gold's is cut as the gold is (its tokens are aligned one to one)."""
    pairs = []
    for run, gold in nerc_runs(data):
        g, p = hipe_tag_lists(gold), hipe_tag_lists(run)
        flat = [t for d in p for t in d]
        if len(flat) != sum(map(len, g)):
            continue
        p, k = [], 0
        for d in g:
            p.append(flat[k : k + len(d)])
            k += len(d)
        pairs.append((sentences(g), sentences(p)))
    return pairs


def generated(n_tokens, rng):
    types = ["PER", "LOC", "ORG", "MISC", "TIME", "PROD"]
    y_true, y_pred = [], []
    total = 0
    while total < n_tokens:
        n = rng.randint(5, 40)
        t, i = [], 0
        while i < n:
            if rng.random() < 0.15:
                ty, k = rng.choice(types), rng.randint(1, 3)
                t += ["B-" + ty] + ["I-" + ty] * (k - 1)
                i += k
            else:
                t.append("O")
                i += 1
        t = t[:n]
        p = [rng.choice(["O", "B-" + rng.choice(types), "I-" + rng.choice(types)]) if rng.random() < 0.08 else x
             for x in t]
        y_true.append(t)
        y_pred.append(p)
        total += n
    return y_true, y_pred


def to_million(pairs, n_tokens):
    y_true, y_pred, total = [], [], 0
    while total < n_tokens:
        for g, p in pairs:
            for a, b in zip(g, p):
                y_true.append(list(a))
                y_pred.append(list(b))
                total += len(a)
                if total >= n_tokens:
                    return y_true, y_pred
    return y_true, y_pred


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--check", action="store_true", help="exit 1 when a floor is not met")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    data = REPO.parent / "shared" / "data"
    pairs = real_pairs(data) if data.is_dir() else []
    rng = random.Random(20261125)
    if pairs:
        y_true, y_pred = to_million(pairs, args.tokens)
        source = f"tags of the {len(pairs)} HIPE-2022 NERC runs and their gold, repeated"
    else:
        y_true, y_pred = generated(args.tokens, rng)
        source = "generated tags (../shared absent)"
    n = sum(map(len, y_true))
    rows = []

    def side_by_side(name, floor, ours, theirs):
        a, b = ours(), theirs()
        if a != b:
            raise SystemExit(f"python_speed: {name}: fairscore and seqeval differ: {a!r} vs {b!r}")
        t_theirs, t_ours = best(theirs, args.repeat), best(ours, args.repeat)
        rows.append((name, t_theirs, t_ours, t_theirs / t_ours, floor))

    side_by_side(f"{n / 1e6:.2f}M tokens, f1_score", 20,
                 lambda: fm.f1_score(y_true, y_pred), lambda: sm.f1_score(y_true, y_pred))
    side_by_side(f"{n / 1e6:.2f}M tokens, classification_report", 50,
                 lambda: fm.classification_report(y_true, y_pred, digits=4),
                 lambda: sm.classification_report(y_true, y_pred, digits=4))

    # compute_metrics on 256 x 128 ids, 9 labels, -100 on special tokens, sub-words, padding.
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]
    id2label = dict(enumerate(labels))
    nr = np.random.default_rng(7)
    gold = nr.integers(0, 9, size=(256, 128))
    gold[nr.random((256, 128)) < 0.6] = 0
    lengths = nr.integers(20, 128, size=256)
    for r, length in enumerate(lengths):
        gold[r, 0] = -100
        gold[r, length:] = -100
    gold[nr.random((256, 128)) < 0.15] = -100  # sub-word pieces after the first
    logits = nr.normal(size=(256, 128, 9)).astype(np.float32)
    logits[np.arange(256)[:, None], np.arange(128)[None, :], np.clip(gold, 0, 8)] += 2.5

    def boilerplate():
        predictions = np.argmax(logits, axis=2)
        true_predictions = [
            [labels[p] for (p, lab) in zip(prediction, label) if lab != -100]
            for prediction, label in zip(predictions, gold)
        ]
        true_labels = [
            [labels[lab] for (p, lab) in zip(prediction, label) if lab != -100]
            for prediction, label in zip(predictions, gold)
        ]
        report = sm.classification_report(true_labels, true_predictions, output_dict=True)
        report.pop("macro avg")
        report.pop("weighted avg")
        micro = report.pop("micro avg")
        out = {k: {"precision": v["precision"], "recall": v["recall"], "f1": v["f1-score"],
                   "number": v["support"]} for k, v in report.items()}
        out["overall_precision"] = micro["precision"]
        out["overall_recall"] = micro["recall"]
        out["overall_f1"] = micro["f1-score"]
        out["overall_accuracy"] = sm.accuracy_score(true_labels, true_predictions)
        return out

    side_by_side("compute_metrics, 256x128 logits, -100 masks", 20,
                 lambda: fairscore.from_ids(logits, gold, id2label), boilerplate)
    if pairs:
        runs = pairs
        side_by_side(f"{len(runs)} runs ({sum(len(t) for g, _ in runs for t in g) / 1e3:.0f}k tokens), f1_score", None,
                     lambda: [fm.f1_score(g, p) for g, p in runs],
                     lambda: [sm.f1_score(g, p) for g, p in runs])

    # Issue 33's floor: merely iterating both lists of lists in C; f1_score and
    # classification_report should take at most 1.5 times that.
    def iterate():
        return len(list(itertools.chain.from_iterable(y_true))) + len(
            list(itertools.chain.from_iterable(y_pred)))

    # Interleaved (floor, f1_score, classification_report, floor, ...), so that the three
    # series see the same load on a shared machine; best of each.
    series = {"floor": [], "f1": [], "report": []}
    calls = (("floor", iterate), ("f1", lambda: fm.f1_score(y_true, y_pred)),
             ("report", lambda: fm.classification_report(y_true, y_pred, digits=4)))
    for _ in range(max(args.repeat, 5) * 2):
        for key, f in calls:
            t = time.perf_counter()
            f()
            series[key].append(time.perf_counter() - t)
    t_floor = min(series["floor"])
    floor_rows = [(name, min(series[key]) / t_floor, min(series[key]))
                  for (name, *_), key in zip(rows[:2], ("f1", "report"))]

    print(f"python_speed: best of {args.repeat}; {source}; seqeval 1.2.2, fairscore {fairscore.__version__}")
    print("| work | seqeval | fairscore | speed-up | floor |")
    print("|---|---|---|---|---|")
    short = []
    for name, a, b, ratio, floor in rows:
        fl = f"{floor}x" if floor else "-"
        print(f"| {name} | {a * 1e3:.1f} ms | {b * 1e3:.1f} ms | {ratio:.0f}x | {fl} |")
        if floor and ratio < floor:
            short.append(f"{name}: {ratio:.1f}x < {floor}x")
    print(f"list-iteration floor (itertools.chain over both lists, interleaved with the two "
          f"calls below, best of {len(series['floor'])}): {t_floor * 1e3:.1f} ms")
    for name, r, t in floor_rows:
        print(f"  {name}: {t * 1e3:.1f} ms, {r:.2f}x the iteration floor (goal of issue 33: <= 1.5x)")
    if short:
        print("python_speed: BELOW FLOOR: " + "; ".join(short))
        return 1 if args.check else 0
    print("python_speed: every floor met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
