"""Recomputes the fair family's breakdown (docs/breakdown.md, "The fair family") of a HIPE-2022
run from the gold and run files alone: the spans of their NE-COARSE-LIT column, each span's
fair type (the first type it is counted with) by Ortmann's algorithm as docs/fair.md writes it
("The algorithm", function `pair`), and its bucket of every key by docs/breakdown.md's rules
(the training file's vocabulary and entities read from its HIPE TSV here; sentences from the
gold's MISC `EndOfSentence` flags and `# segment` comments, years from its `# date`, noise
levels from its MISC `LED…`). Every bucket's name,
its ten counts, P, R and F1 must equal fairscore's `--json` report, its intervals SciPy's
percentile bootstrap over the per-document counts computed here within Monte-Carlo error (the
tolerance of scripts/breakdown_crosscheck.py; the fair P and R are ratios of per-document
sums, LE, BE and LBE at half weight).

With `--spans`, the same for two FairEval span files (sentences as units, named `#LINE`): the
keys label, length and document, counts only (the report without `--bootstrap`).

Usage: python scripts/breakdown_crosscheck_fair.py GOLD.tsv RUN.tsv TRAIN.tsv REPORT.json
       python scripts/breakdown_crosscheck_fair.py --spans TARGET SYSTEM REPORT.json
(REPORT.json: `fairscore fair --target GOLD.tsv --system RUN.tsv --train TRAIN.tsv
--breakdown KEYS --bootstrap N --json REPORT.json`; scripts/breakdown_crosscheck.sh runs both).
"""

import json
import os
import sys
from collections import Counter

import numpy as np

from breakdown_crosscheck import check_interval
from breakdown_crosscheck_standoff import buckets, caps

GOLD = ["TP-gold", "FN", "LE-gold", "BE-gold", "LBE-gold"]
RUN = ["TP-run", "FP", "LE-run", "BE-run", "LBE-run"]
KIND = {"TP": 0, "FN": 1, "FP": 1, "LE": 2, "BE": 3, "LBE": 4}


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


def spans_of(tags):
    """[(label, first, last)] of one document's NE-COARSE-LIT tags (upper-cased; S- and E- as
    B- and I-; an I- that continues no entity of its label starts one), token indices 1-based
    within the document, as `fair --errors` writes them."""
    spans, start, label = [], None, None
    for i, tag in enumerate(tags + ["O"], 1):
        head, lab = tag[:2], tag[2:]
        cont = head in ("I-", "E-") and start is not None and lab == label
        if start is not None and not cont:
            spans.append((label, start, i - 1))
            start = None
        if head in ("B-", "S-", "I-", "E-") and not cont:
            start, label = i, lab
    return spans


def pair(targets, systems):
    """Ortmann's fair types of one unit's spans ((label, first, last) or, from a span file,
    (label, first, last, tokens)), written from docs/fair.md, "The algorithm":
    the first type each span is counted with, as two lists (targets', systems')."""
    t_type = [None] * len(targets)
    s_type = [None] * len(systems)
    def tokens(x):  # a span file's token list, else the range
        return set(x[3]) if len(x) > 3 else set(range(x[1], x[2] + 1))

    tok = {("t", i): tokens(x) for i, x in enumerate(targets)}
    tok.update({("s", j): tokens(x) for j, x in enumerate(systems)})
    span = {("t", i): x for i, x in enumerate(targets)}
    span.update({("s", j): x for j, x in enumerate(systems)})
    rest_t = [("t", i) for i in range(len(targets))]
    rest_s = [("s", j) for j in range(len(systems))]

    def mark(k, kind):
        lst = t_type if k[0] == "t" else s_type
        if lst[k[1]] is None:
            lst[k[1]] = kind

    for t in list(rest_t):  # 1. identical spans, then same range with another label
        hit = next((s for s in rest_s if span[s] == span[t]), None)
        if hit:
            mark(t, "TP"), mark(hit, "TP"), rest_t.remove(t), rest_s.remove(hit)
    for t in list(rest_t):
        hit = next((s for s in rest_s if span[s][0] != span[t][0]
                    and span[s][1:3] == span[t][1:3]), None)
        if hit:
            mark(t, "LE"), mark(hit, "LE"), rest_t.remove(t), rest_s.remove(hit)
    length = lambda k: span[k][2] - span[k][1]  # noqa: E731
    rest_t.sort(key=length)
    rest_s.sort(key=length)
    done_t, done_s = [], []

    def best(a, cands):
        return min(cands, key=lambda c: (-len(tok[a] & tok[c]), len(tok[a] - tok[c]),
                                         len(tok[c] - tok[a]), length(c)))

    def share(a, c):
        common = tok[a] & tok[c]
        tok[a] -= common
        tok[c] -= common

    for kind, same in (("BE", True), ("LBE", False)):
        def ok(a, c, need_tokens):
            (la, ba, ea), (lc, bc, ec) = span[a][:3], span[c][:3]
            return ((la == lc) == same and (ba, ea) != (bc, ec) and ba <= ec and bc <= ea
                    and (not need_tokens or tok[a] & tok[c]))
        for t in list(rest_t):
            cands = [s for s in rest_s if ok(t, s, False)]
            if cands:
                s = best(t, cands)
                mark(t, kind), mark(s, kind), rest_t.remove(t), rest_s.remove(s)
                share(t, s)
                done_s.append(s), done_t.append(t)
        for t in list(rest_t):
            cands = [s for s in done_s if ok(t, s, True)]
            if cands:
                s = best(t, cands)
                mark(t, kind), rest_t.remove(t), share(t, s), done_t.append(t)
        for s in list(rest_s):
            cands = [t for t in done_t if ok(s, t, True)]
            if cands:
                t = best(s, cands)
                mark(s, kind), rest_s.remove(s), share(s, t), done_s.append(s)
    for t in rest_t:
        mark(t, "FN")
    for s in rest_s:
        mark(s, "FP")
    return t_type, s_type


def read_hipe(path):
    """{document id: ([token forms], [NE-COARSE-LIT tags], [sentence ends], [years], [noise
    levels])} of a HIPE TSV file (`d<n>` for the n-th document without an id): a token ends a
    sentence when MISC flags `EndOfSentence` or a `# segment` comment follows it; its year is
    that of the last `# date` (`# hipe2022:date`) before it, 0 without one; its noise level
    that of its MISC flag `LED…`, 0 without one."""
    docs, cur, n, year = {}, None, 0, 0
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = header.index("NE-COARSE-LIT")
        misc = header.index("MISC") if "MISC" in header else None
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                if "document_id" in line:
                    cur = line.split("=", 1)[1].strip()
                    docs[cur] = ([], [], [], [], [])
                elif line.startswith(("# date", "# hipe2022:date")):
                    year = int(line.split("=", 1)[1].strip()[:4])
                elif line.startswith("# segment") and cur is not None and docs[cur][2]:
                    docs[cur][2][-1] = True
                continue
            if not line.strip():
                continue
            if cur is None:
                n += 1
                cur = f"d{n}"
                docs[cur] = ([], [], [], [], [])
            cells = line.split("\t")
            flags = cells[misc].split("|") if misc is not None and misc < len(cells) else []
            docs[cur][0].append(cells[0])
            docs[cur][1].append(cells[col].upper())
            docs[cur][2].append(any(x.lower() == "endofsentence" for x in flags))
            docs[cur][3].append(year)
            leds = [float(x[3:]) for x in flags if x.startswith("LED")]
            docs[cur][4].append(leds[0] if leds else 0.0)
    return docs


def sentences(ends):
    """[(first, length)] of a document's sentences (0-based) and the sentence of every token;
    `ends`: whether each token ends one (the last always does)."""
    out, of, first = [], [], 0
    for i, end in enumerate(ends):
        of.append(len(out))
        if end or i + 1 == len(ends):
            out.append((first, i + 1 - first))
            first = i + 1
    return out, of


def read_span_file(path):
    """[(unit name, [(label, first, last, tokens)])] of a FairEval span file: sentences
    separated by blank lines, named `#LINE` (their first line); `NONE`/`EMPTY` spans left
    out; the token list (4th column) or, without one, the range."""
    units, cur = [], None
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            cells = line.rstrip("\n").split("\t")
            if not line.strip():
                cur = None
                continue
            if cur is None:
                cur = (f"#{no}", [])
                units.append(cur)
            if cells[0] in ("NONE", "EMPTY"):
                continue
            b, e = int(cells[1]), int(cells[2])
            try:
                toks = frozenset(int(x) for x in cells[3].split(","))
            except (IndexError, ValueError):
                toks = frozenset(range(b, e + 1))
            cur[1].append((cells[0], b, e, toks))
    return units


def span_files(target, system, report):
    """The keys a span file has (label, length, document: the sentence), counts only."""
    ts, ss = read_span_file(target), read_span_file(system)
    assert len(ts) == len(ss), "sentences"
    spans = []
    for (unit, tsp), (_, ssp) in zip(ts, ss):
        tt, st = pair(tsp, ssp)
        for gold, xs, ys in ((True, tsp, tt), (False, ssp, st)):
            for x, kind in zip(xs, ys):
                v = {"label": x[0], "length": x[2] - x[1] + 1, "document": unit}
                spans.append((unit, gold, KIND[kind], v))
    what = f"FairEval span files {os.path.basename(system)} against {os.path.basename(target)}"
    return compare(spans, json.load(open(report)), what, np.random.default_rng(2022))


def main() -> int:
    gold_file, run_file, train, report = sys.argv[1:5]
    vocab, freq, same = read_train(train)
    gold, run = read_hipe(gold_file), read_hipe(run_file)
    if list(run) == ["d1"] and list(gold) != ["d1"]:
        # A run without document ids: its tokens in the gold's documents, in order.
        (forms, tags, *_), at = run["d1"], 0
        run = {}
        for d, (toks, *_) in gold.items():
            run[d] = (forms[at:at + len(toks)], tags[at:at + len(toks)])
            at += len(toks)
    types = {}
    # Per gold document: its sentences, the sentence of every token, the gold spans starting
    # in each sentence.
    sents = {}
    for d, (_, tags, ends, *_) in gold.items():
        ss, of = sentences(ends)
        starting = Counter(of[first - 1] for _, first, _ in spans_of(tags))
        sents[d] = (ss, of, starting)
    for d in gold:
        ts, ss = spans_of(gold[d][1]), spans_of(run[d][1])
        tt, st = pair(ts, ss)
        for side, xs, ys in (("target", ts, tt), ("system", ss, st)):
            if len(set(xs)) != len(xs):
                raise SystemExit(f"{d}: a {side} span is given twice, not handled here")
            types.update({(d, side, x): y for x, y in zip(xs, ys)})
    forms = {"target": {d: v[0] for d, v in gold.items()},
             "system": {d: v[0] for d, v in run.items()}}
    spans = []
    for (doc, side, (label, first, last)), kind in types.items():
        words = forms[side][doc][first - 1:last]
        text = " ".join(words)
        tf = freq.get(text, 0)
        ss, of, starting = sents[doc]
        k = of[first - 1]
        s_first, s_len = ss[k]
        v = {
            "sentence_length": s_len,
            "density": starting[k] / s_len,
            "position": (first - 1 - s_first) / s_len,
            "period": gold[doc][3][first - 1],
            "noise": max(gold[doc][4][first - 1:last]),
            "label": label,
            "length": last - first + 1,
            "chars": len(text),
            "capitalisation": caps(words),
            "document": doc,
            "oov": "yes" if any(w not in vocab for w in words) else "no",
            "train_freq": tf,
            "train_consistency": same.get((text, label), 0) / tf if tf else 0.0,
        }
        spans.append((doc, side == "target", KIND[kind], v))
    return compare(spans, json.load(open(report)), f"{os.path.basename(run_file)} against "
                   f"{os.path.basename(gold_file)} (training file {os.path.basename(train)})",
                   np.random.default_rng(2022))


def compare(spans, data, what, rng):
    """Buckets `spans` ((unit, gold side?, type column, key values)) by every key of the
    report `data` and compares them with its tables; prints the summary, returns 1 on a
    difference."""
    docs = sorted({s[0] for s in spans})
    n = data.get("resampling", {}).get("samples", 0)
    level = data.get("resampling", {}).get("confidence", 0.95)
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
    how = f"{n} resamples" if n else "no intervals"
    print(f"breakdown_crosscheck: fair family, {what}, {how}: {equal}/{n_buckets} "
          f"buckets of {len(keys)} keys with equal counts, P, R and F1; {checked} interval "
          f"ends, {failed} differences (largest interval difference {worst:.2f} of its "
          f"tolerance)")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1] == "--spans":
        sys.exit(span_files(*sys.argv[2:5]))
    sys.exit(main())
